// Replacement policies built from typed Values, each with one statement of
// what an edge does to its state, checked state by state against a plain
// C++ reference in tests/unit/replacement_test.cpp:
//
// - tree pseudo-LRU (plru_*): W - 1 node bits per set;
// - exact LRU as ages (lru_ages_*; the registers are hdl::LruAges, lib.h);
// - exact LRU as the order matrix of way pairs (order_*);
// - LRU ranks stored with the entries, ordered where they are read (rank_*).
//
// Every policy's state covers `sets` sets. An update names its set by a
// one-hot (no decoder on the touch path) and its way by a one-hot; the
// updates of one edge apply in the order given. The forms are the ones the
// emitters chose for timing, each explained where it is defined; docs/hdl.md
// ("Replacement and structure library") maps the emitters onto them.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "txgen/hdl/lib.h"
#include "txgen/hdl/module.h"

namespace txgen::hdl {

// One update of a set's replacement state within an edge: a touch makes
// `way` the most recently used of its set, an untouch the least (an
// invalidated entry becomes the next victim). Where two updates of one edge
// reach the same state bit, the later one wins.
struct Touch {
  enum Kind { kTouch, kUntouch } kind = kTouch;
  Value enable;        // one bit; not given: always (a zero `way` then changes nothing)
  Value set;           // one-hot over the sets; with one set optional (one bit: it gates the update)
  Value way;           // one-hot over the ways, or zero
  std::string name;    // the wire of enable & set[s] in the loop over the sets (several sets)
  std::vector<Value> path;  // tree PLRU only: plru_path() of the way (see there)
};

// ---------------------------------------------------------------------------
// Tree PLRU. W = 2^L ways; a set's W - 1 node bits in heap order: node
// (2^l - 1) + q of level l covers ways [q W / 2^l, (q + 1) W / 2^l). A node
// bit of 1 says its upper half is the less recently used: a touch under a
// node points it away from the way, an untouch towards it, and the victim is
// the way every node on its path points at. Reset and flush: all zeros
// (victim way 0).

// name (declared, sets x (W - 1) bits, set s from s (W - 1)) = the trees of
// `state` after the updates, then `flush`. One generate loop per tree level
// (inside a loop over the sets with several), so the RTL does not grow with
// the ways: a node tests whether the way lies under it and in which half, by
// ORs over the one-hot's parts or, with Touch::path, one decoded bit.
Value plru_next(Scope& s, const std::string& name, const Value& state, unsigned sets, unsigned ways,
                const std::vector<Touch>& updates, const Value& flush = Value());
// Touch::path of a way given by its binary index (`index`, valid when
// `any_way`; always when that is not given): per level l >= 1 the one-hot of
// the level's node above the way (wires name<l>), the index itself last. From
// about 64 ways a node's OR over its ways is slower than this decode of a
// registered index.
std::vector<Value> plru_path(Scope& s, const std::string& name, const Value& index, const Value& any_way,
                             unsigned ways);
// The victim (one-hot) of one tree: per way the AND of the node bits on its path.
Value plru_victim(const Value& tree, unsigned ways);
// The same as `name` (declared vector) through a generate loop over the ways
// with constant direction masks (wires name_dir<l>): RTL independent of W.
Value plru_victim(Scope& s, const std::string& name, const Value& tree, unsigned ways);
// name (declared) = the victim among eligible ways (one-hot): `classes` (W
// bits each, best first, each within `cand`), then `cand` itself. The walk
// from the root never enters a side without a way of the best class present
// and follows the node bit where both sides hold one. Each node decides from
// its own two sides (a side holding a better class wins, equal sides follow
// the bit; wires name_right<node>): on the walk's path that is the best class
// overall, since the side reached holds a way of it, so no node waits for an
// OR over all the ways. Way 0 when `cand` is empty.
Value plru_victim_among(Scope& s, const std::string& name, const Value& tree, const std::vector<Value>& classes,
                        const Value& cand, unsigned ways);

// ---------------------------------------------------------------------------
// Exact LRU as ages: age 0 the most recently used, W - 1 the least; the ways
// of a set hold distinct ages; reset and flush: way w at W - 1 - w (way 0 the
// victim). The ages of `sets` sets are way-major as hdl::LruAges holds them:
// way w of set s at (w sets + s) x bits, bits = clog2(W).
//
// One edge, in this order: the touch or the untouch (never both) of way t of
// set `set` (a touch makes t 0 and every way younger than t one older; an
// untouch makes t W - 1 and every way older than t one younger); then the
// fill's touch of its victim in `fill_set`; then the flush.
struct AgeEdge {
  Value touch, untouch;         // enables (untouch optional)
  Value set, way;               // their set (one-hot; optional with one set) and way (one-hot)
  Value fill, fill_set, victim; // optional: the fill's enable, set (one-hot) and way (one-hot)
  Value young;                  // with a fill: the ways younger than the victim before this edge
  Value victim_is_way;          // optional: whether victim == way, when known cheaper than any(victim & way)
  Value flush;                  // optional
};
// below(scope, s, age): whether `age`, a way's age in set s, is below the
// touched way's age in that set (the compare that orders the touch).
using AgeBelow = std::function<Value(Scope&, const Index& s, const Value& age)>;
// name (declared, like `ages`) = the ages after the edge (AgesNext::ages):
// one generate loop over ways x sets (locals a, a1, a2, am1, hs, us, fs,
// k1..k3, lt, fv, lh, x1*, n*). With `compare_last` both outcomes of the
// compare are built and it selects last (wire lh; for a touched age that
// arrives late), else it sits inside the touch's mux. With a fill, the edge's
// set-independent terms are wires, returned for logic beside the ages: the
// touch in the fill's set (name_same_set), the victim the touched way
// (name_vict_is_hit), the untouch in the fill's set (name_same_set_u).
struct AgesNext {
  Value ages, same_set, victim_is_touched, same_set_untouch;
};
AgesNext lru_ages_next(Scope& s, const std::string& name, const Value& ages, unsigned sets, unsigned ways,
                       const AgeEdge& e, const AgeBelow& below, bool compare_last);
// name (declared, W x bits, way 0 first) = the ages of the set `set_oh`
// selects: the set is selected per way, so the row read starts in parallel.
Value lru_ages_row(Scope& s, const std::string& name, const Value& ages, unsigned sets, unsigned ways,
                   const Value& set_oh);
// name (declared, sets x bits) = in every set, the age of the one-hot `way`:
// a compare with it needs no set select (1/sets of the fan-out each).
Value lru_ages_of_way(Scope& s, const std::string& name, const Value& ages, unsigned sets, unsigned ways,
                      const Value& way);
// Way w's age in set s.
Value lru_age(const Value& ages, unsigned sets, unsigned ways, unsigned w, unsigned s);
// The one-hot of the way with age W - 1 - k in set s (k = 0: the victim).
Value lru_ages_oldest(const Value& ages, unsigned sets, unsigned ways, unsigned s, unsigned k = 0);
// name (declared) = the LRU way of one set (`row`: W ages, way 0 first) after
// this edge's touches of at most two ways (`touched`): touched ways become the
// youngest and the others keep their order, so it is the oldest untouched of
// the three oldest (wires name_old<k>). Whether the way of age W - 1 - k is
// touched (k = 0, 1): touched_old[k] when given (known from the touches'
// ages), else an OR over `touched`. With two ways both touched: `both`.
Value lru_ages_victim_after(Scope& s, const std::string& name, const Value& row, unsigned ways,
                            const Value& touched, const std::vector<Value>& touched_old, const Value& both);

// ---------------------------------------------------------------------------
// Exact LRU as the order matrix: per set one bit per pair of ways i < j, set
// when i was used more recently than j, packed i-major (i = 0 with j = 1 ..
// W-1 first), W (W - 1) / 2 bits per set. Reset and flush: all zeros, the
// ages' reset order (way 0 the victim). Each pair bit's next value is a mux
// of one-hot inputs: no age compare on the path.

unsigned order_pair(unsigned i, unsigned j, unsigned ways);  // i < j
// Way i used more recently than way j (i != j) in one set's row.
Value order_more_recent(const Value& row, unsigned i, unsigned j, unsigned ways);
// name (declared, sets x pairs) = the orders after the updates (a touch makes
// its way more recent than every other, an untouch less), then `flush`; a
// generate loop over the sets with several.
Value order_next(Scope& s, const std::string& name, const Value& state, unsigned sets, unsigned ways,
                 const std::vector<Touch>& updates, const Value& flush = Value());
// The least recent of the ways in `among` (one-hot; zero when `among` is empty).
Value order_least_recent(const Value& row, const Value& among, unsigned ways);
// The least recent way not in `excluded` (at least one way not excluded).
Value order_least_recent_except(const Value& row, const Value& excluded, unsigned ways);
// Whether the row is a strict order: no three ways in a cycle (a property).
Value order_is_total(const Value& row, unsigned ways);

// ---------------------------------------------------------------------------
// LRU ranks stored with the entries (compressed rows that are read, updated
// and written back): rank 0 the most recently used. Entries are ordered by
// (rank, index), so equal ranks order by index; the LRU entry is the last
// valid one in that order. An update renumbers the valid entries 0 .. v - 1
// in that order and then touches one.

// Entry j comes before entry i in (rank, index) order (ranks: n fields).
Value rank_before(const Value& ranks, unsigned bits, unsigned j, unsigned i);
// prec[i][j] (i != j) = valid entry j comes before entry i (wires name_i_j).
std::vector<std::vector<Value>> rank_precedence(Scope& s, const std::string& name, const Value& valid,
                                                const Value& ranks, unsigned n, unsigned bits);
// The renumbered rank of entry i: the count of valid entries before it.
Value rank_position(const std::vector<std::vector<Value>>& prec, unsigned i, unsigned bits);
// Bit i: valid entry i comes before the touched entry `hit` (one-hot): the
// entries a touch of `hit` ages by one.
Value rank_before_hit(const std::vector<std::vector<Value>>& prec, const Value& hit);
// The LRU entry (one-hot) when every entry is valid: valid and after every
// other; from the ranks alone (a stage before the precedence wires) or from prec.
Value rank_last(const Value& valid, const Value& ranks, unsigned n, unsigned bits);
Value rank_last(const std::vector<std::vector<Value>>& prec, const Value& valid);
// The ranks after an update (n fields, entry 0 lowest): with `enable`, entry
// `way` (one-hot) takes rank 0 and every entry of `older` one more than
// `position` (the renumbered ranks); a touch ages rank_before_hit, an
// insertion every valid entry.
Value rank_next(const std::vector<Value>& position, const Value& way, const Value& older, const Value& enable);

}  // namespace txgen::hdl
