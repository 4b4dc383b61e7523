#include "txgen/hdl/replacement.h"

#include <algorithm>
#include <functional>
#include <string>

namespace txgen::hdl {

using std::string;
using std::to_string;

namespace {

unsigned log2_exact(unsigned n, const char* what) {
  unsigned l = 0;
  while ((1u << l) < n) ++l;
  if (n == 0 || (1u << l) != n) fail(string(what) + ": " + to_string(n) + " ways is not a power of two");
  return l;
}

unsigned age_bits(unsigned ways) {
  unsigned b = 1;
  while ((1u << b) < ways) ++b;
  return b;
}

// v as a signal a generate loop may index: itself when it is a declared
// signal of several bits, else a named vector (a one-bit signal would be a
// scalar, an expression has no name to select from).
Value indexable(Scope& s, const string& name, const Value& v) {
  if (v.node().op == Op::Ref && v.width() > 1) return v;
  return vector_wire(s, name, v);
}

Value and_if(const Value& enable, const Value& v) { return enable.valid() ? enable & v : v; }

// Per update, the enable of set st in the loop over the sets (named), or the
// enable itself with one set.
std::vector<Value> set_enables(Scope& sc, const std::vector<Touch>& updates, const std::vector<Value>& set_v,
                               const Index& st, bool several) {
  std::vector<Value> en;
  for (size_t k = 0; k < updates.size(); ++k) {
    const Touch& u = updates[k];
    if (!several) {
      en.push_back(u.set.valid() ? and_if(u.enable, u.set.bit(0)) : u.enable);
    } else if (!u.enable.valid()) {
      en.push_back(set_v[k].bit(st));
    } else {
      if (u.name.empty()) fail("a touch of several sets needs the name of its per-set enable");
      en.push_back(sc.wire(u.name, u.enable & set_v[k].bit(st)));
    }
  }
  return en;
}

// Builds the state of every set: per_set(scope, the set's first state bit, the
// updates' enables in the set) once with one set, else in a loop over the sets
// (`name`_gs) of `bits_per_set` state bits each.
void for_each_set(Scope& s, const string& name, unsigned sets, unsigned bits_per_set,
                  const std::vector<Touch>& updates, const std::vector<Value>& set_v,
                  const std::function<void(Scope&, const Index&, const std::vector<Value>&)>& per_set) {
  if (sets == 1) {
    per_set(s, 0, set_enables(s, updates, set_v, 0, false));
    return;
  }
  s.generate_for(name + "_gs", sets, "g_" + name, [&](Scope& sc, const Index& st) {
    per_set(sc, st * Index(bits_per_set), set_enables(sc, updates, set_v, st, true));
  });
}

std::vector<Value> update_sets(Scope& s, const string& name, const std::vector<Touch>& updates, unsigned sets) {
  std::vector<Value> set_v;
  for (size_t k = 0; k < updates.size(); ++k) {
    if (sets == 1) {
      if (updates[k].set.valid() && updates[k].set.width() != 1)
        fail(name + ": update " + to_string(k) + " of one set has a set one-hot of several bits");
      set_v.push_back(Value());
      continue;
    }
    if (!updates[k].set.valid() || updates[k].set.width() != sets)
      fail(name + ": update " + to_string(k) + " needs a one-hot set of " + to_string(sets) + " bits");
    set_v.push_back(indexable(s, name + "_set" + to_string(k), updates[k].set));
  }
  return set_v;
}

// Whether update u's way lies under node q of level l (`size` ways), and
// whether in the node's lower half (used only under the former).
std::pair<Value, Value> plru_under(const Touch& u, const Value& way, unsigned l, const Index& q, unsigned size,
                                   unsigned levels) {
  if (u.path.empty()) {
    const Index lo = q * Index(size);
    return {any(way.part(lo, size)), size == 2 ? way.bit(lo) : any(way.part(lo, size / 2))};
  }
  return {l == 0 ? u.path[0] : u.path[l].bit(q), ~u.path.back().bit(levels - 1 - l)};
}

}  // namespace

// ---------------------------------------------------------------------------
// Tree PLRU

Value plru_next(Scope& s, const string& name, const Value& state, unsigned sets, unsigned ways,
                const std::vector<Touch>& updates, const Value& flush) {
  const unsigned levels = log2_exact(ways, "plru_next"), nodes = ways - 1;
  if (ways < 2 || state.width() != sets * nodes)
    fail("plru_next " + name + ": " + to_string(state.width()) + " state bits for " + to_string(sets) + " x " +
         to_string(ways) + " ways");
  // generate-time selects need declared vectors; the root needs no loop
  const Value tree = sets > 1 || levels > 1 ? indexable(s, name + "_w", state) : state;
  std::vector<Value> way_v;
  for (size_t k = 0; k < updates.size(); ++k) {
    const Value& w = updates[k].way;
    way_v.push_back(!updates[k].path.empty() ? Value() : levels > 1 ? indexable(s, name + "_way" + to_string(k), w) : w);
  }
  const std::vector<Value> set_v = update_sets(s, name, updates, sets);
  Wire next = s.wire(name, sets * nodes, true);
  auto tree_levels = [&](Scope& sc, const Index& base, const std::vector<Value>& en) {
    for (unsigned l = 0; l < levels; ++l) {
      const unsigned size = ways >> l;
      auto node = [&](Scope& sq, const Index& q) {
        const Index n = base + Index((1u << l) - 1) + q;
        Value b = tree.bit(n);
        for (size_t k = 0; k < updates.size(); ++k) {
          const auto [on, low] = plru_under(updates[k], way_v[k], l, q, size, levels);
          b = mux(and_if(en[k], on), updates[k].kind == Touch::kUntouch ? ~low : low, b);
        }
        sq.assign(next.bit(n), and_if(flush.valid() ? ~flush : Value(), b));
      };
      if (l == 0) node(sc, 0);
      else sc.generate_for(name + "_gq" + to_string(l), 1u << l, "g_" + name + "_level" + to_string(l), node);
    }
  };
  for_each_set(s, name, sets, nodes, updates, set_v, tree_levels);
  return next;
}

std::vector<Value> plru_path(Scope& s, const string& name, const Value& index, const Value& any_way, unsigned ways) {
  const unsigned levels = log2_exact(ways, "plru_path");
  if (index.width() != levels) fail("plru_path " + name + ": the index is not " + to_string(levels) + " bits");
  std::vector<Value> at = {any_way.valid() ? any_way : lit(1, 1)};
  for (unsigned l = 1; l < levels; ++l) {
    const Value dec = one_of(1u << l, index.top(l));
    at.push_back(s.wire(name + to_string(l), any_way.valid() ? gate(any_way, dec) : dec));
  }
  at.push_back(index);
  return at;
}

Value plru_victim(const Value& tree, unsigned ways) {
  const unsigned levels = log2_exact(ways, "plru_victim");
  if (tree.width() != ways - 1) fail("plru_victim: the tree is not " + to_string(ways - 1) + " bits");
  std::vector<Value> victim;
  for (unsigned w = 0; w < ways; ++w) {
    std::vector<Value> terms;
    for (unsigned l = 0; l < levels; ++l) {
      const unsigned node = (1u << l) - 1 + (w >> (levels - l));
      const bool upper = (w >> (levels - 1 - l)) & 1u;
      terms.push_back(upper ? tree.bit(node) : ~tree.bit(node));
    }
    victim.push_back(and_of(terms, lit(1, 1)));
  }
  return cat_lsb_first(victim);
}

Value plru_victim(Scope& s, const string& name, const Value& tree, unsigned ways) {
  const unsigned levels = log2_exact(ways, "plru_victim");
  if (tree.width() != ways - 1) fail("plru_victim " + name + ": the tree is not " + to_string(ways - 1) + " bits");
  const Value row = indexable(s, name + "_tree", tree);
  std::vector<Value> dirs;  // dirs[l] bit w: way w lies in the upper half of its level-l node
  for (unsigned l = 0; l < levels; ++l) {
    const unsigned h = ways >> (l + 1);
    dirs.push_back(vector_wire(s, name + "_dir" + to_string(l), rep(1u << l, cat({ones(h), zero(h)}))));
  }
  Wire v = s.wire(name, ways, true);
  s.generate_for(name + "_gw", ways, "g_" + name, [&](Scope& sc, const Index& w) {
    std::vector<Value> terms;
    for (unsigned l = 0; l < levels; ++l) {
      const Index node = Index((1u << l) - 1) + w / Index(ways >> l);
      terms.push_back(~(row.bit(node) ^ dirs[l].bit(w)));
    }
    sc.assign(v.bit(w), and_of(terms, lit(1, 1)));
  });
  return v;
}

namespace {

// Heap node n (numbered from 1) of a tree of `levels` levels: its depth and
// the first way it covers.
unsigned node_depth(unsigned n) {
  unsigned d = 0;
  while ((2u << d) <= n) ++d;
  return d;
}
unsigned node_lo(unsigned n, unsigned levels) { return (n - (1u << node_depth(n))) << (levels - node_depth(n)); }
Value range_or(const Value& v, unsigned lo, unsigned span) { return span == 1 ? v.bit(lo) : any(v.slice(lo, span)); }

}  // namespace

Value plru_victim_among(Scope& s, const string& name, const Value& tree, const std::vector<Value>& classes,
                        const Value& cand, unsigned ways) {
  if (ways == 1) return s.wire(name, one_bit(true));
  const unsigned levels = log2_exact(ways, "plru_victim_among");
  if (tree.width() != ways - 1 || cand.width() != ways)
    fail("plru_victim_among " + name + ": the tree or the candidates do not fit " + to_string(ways) + " ways");
  std::vector<Value> right(ways);  // right[n]: node n (from 1) sends the walk to its upper half
  for (unsigned n = ways - 1; n >= 1; --n) {
    const unsigned half = ways >> (node_depth(n) + 1), lo = node_lo(n, levels);
    const Value bit = tree.bit(n - 1);
    // the last class (all candidates): right when it holds one and the tree
    // bit points there or the left holds none
    Value dir = range_or(cand, lo + half, half) & (bit | ~range_or(cand, lo, half));
    for (auto c = classes.rbegin(); c != classes.rend(); ++c) {
      const Value l = range_or(*c, lo, half), r = range_or(*c, lo + half, half);
      dir = mux(l, r & bit, r | dir);
    }
    right[n] = s.wire(name + "_right" + to_string(n), dir);
  }
  std::vector<Value> victim;
  for (unsigned i = 0; i < ways; ++i) {
    std::vector<Value> path;
    for (unsigned n = 1, d = 0; n < ways; ++d) {
      const bool upper = ((i >> (levels - 1 - d)) & 1u) != 0;
      path.push_back(upper ? right[n] : ~right[n]);
      n = 2 * n + (upper ? 1 : 0);
    }
    victim.push_back(and_of(path, one_bit(true)));
  }
  return s.wire(name, cat_lsb_first(victim));
}

// ---------------------------------------------------------------------------
// LRU ages

namespace {

struct AgeTerms {  // the edge's set-independent terms (with a fill)
  Value same, va, same_u;
};

// One way's age after the edge. `younger`: whether it is below the touched
// way's age, a constant (compare_last: both outcomes are built) or the compare.
struct AgeWay {
  Value a, a1, a2, am1, is_t, hs, us, fs, lt, fv, reset;
};

Value age_after(Scope& sc, const string& sfx, const AgeWay& w, const AgeEdge& e, unsigned ways, unsigned ab,
                const Value& lh, int younger) {
  auto pick = [&](const Value& if_younger, const Value& if_not) {
    return younger < 0 ? mux(lh, if_younger, if_not) : younger ? if_younger : if_not;
  };
  const bool unt = e.untouch.valid(), fill = e.fill.valid();
  Value x1 = mux(w.hs, mux(w.is_t, zero(ab), pick(w.a1, w.a)),
                 unt ? mux(w.us, mux(w.is_t, lit(ab, ways - 1), pick(w.a, w.am1)), w.a) : w.a);
  Value y = x1;
  if (fill) {  // x1p = x1 + 1, built beside it
    x1 = sc.wire("x1" + sfx, x1);
    Value x1p = sc.wire("x1p" + sfx, mux(w.hs, mux(w.is_t, lit(ab, 1), pick(w.a2, w.a1)),
                                         unt ? mux(w.us, mux(w.is_t, zero(ab), pick(w.a1, w.a)), w.a1) : w.a1));
    Value y1 = mux(w.fv, zero(ab), mux(w.fs, x1p, x1)), y0 = mux(w.fv, zero(ab), x1);
    y = mux(w.lt, y1, y0);
  }
  if (e.flush.valid()) y = mux(e.flush, w.reset, y);
  return younger < 0 ? y : sc.wire("n" + sfx, y);
}

}  // namespace

AgesNext lru_ages_next(Scope& s, const string& name, const Value& ages, unsigned sets, unsigned ways, const AgeEdge& e,
                       const AgeBelow& below, bool compare_last) {
  const unsigned ab = age_bits(ways);
  if (ways < 2 || ages.width() != ways * sets * ab)
    fail("lru_ages_next " + name + ": " + to_string(ages.width()) + " bits for " + to_string(ways) + " x " +
         to_string(sets) + " ages");
  const bool several = sets > 1, unt = e.untouch.valid(), fill = e.fill.valid();
  if (!e.touch.valid() || !e.way.valid() || (several && !e.set.valid()) || (fill && !e.young.valid()))
    fail("lru_ages_next " + name + ": the touch needs its way (and set), a fill its `young` row");
  const Value age = indexable(s, name + "_w", ages), way = indexable(s, name + "_way", e.way);
  const Value set = several ? indexable(s, name + "_set", e.set) : Value();
  // with one set, a given set bit gates that set's updates
  auto one_set = [&](const Value& en, const Value& set_bit) { return !several && set_bit.valid() ? en & set_bit.bit(0) : en; };
  const Value touch = one_set(e.touch, e.set), untouch = unt ? one_set(e.untouch, e.set) : Value();
  const Value fill_en = fill ? one_set(e.fill, e.fill_set) : Value();
  Value vict, young, fset;
  AgeTerms t;
  if (fill) {
    vict = indexable(s, name + "_vict", e.victim);
    young = indexable(s, name + "_young", e.young);
    fset = several ? indexable(s, name + "_fill_set", e.fill_set) : Value();
    const Value here = several ? any(set & fset) : Value();
    t.same = s.wire(name + "_same_set", and_if(here, touch));
    t.va = s.wire(name + "_vict_is_hit", e.victim_is_way.valid() ? e.victim_is_way : any(vict & way));
    if (unt) t.same_u = s.wire(name + "_same_set_u", and_if(here, untouch));
  }
  Value resets;
  if (e.flush.valid()) {
    std::vector<Value> r;
    for (unsigned w = 0; w < ways; ++w) r.push_back(lit(ab, ways - 1 - w));
    resets = s.wire(name + "_reset", cat_lsb_first(r));
  }
  Wire next = s.wire(name, ages.width());
  s.generate_for(name + "_g", ways * sets, "g_" + name, [&](Scope& sc, const Index& q) {
    const Index w = q / Index(sets), st = q % Index(sets), ao = q * Index(ab);
    AgeWay in;
    in.a = sc.wire("a", age.part(ao, ab));
    in.a1 = fill ? sc.wire("a1", in.a + 1) : in.a + 1;
    if (fill) in.a2 = sc.wire("a2", in.a1 + 1);
    if (unt) in.am1 = sc.wire("am1", in.a - 1);
    in.is_t = way.bit(w);
    in.hs = several ? sc.wire("hs", e.touch & set.bit(st)) : touch;
    if (unt) in.us = several ? sc.wire("us", e.untouch & set.bit(st)) : untouch;
    if (fill) {
      const Value is_v = vict.bit(w);
      in.fs = several ? sc.wire("fs", e.fill & fset.bit(st)) : fill_en;
      // younger than the victim after the touch (in the fill's set the touched
      // way is the youngest; a touched victim is the youngest of all), and an
      // untouched way other than the victim is older than it
      const Value k1 = sc.wire("k1", ~(t.same & t.va)), k2 = sc.wire("k2", t.same & ~t.va & in.is_t);
      const Value lt = (young.bit(w) & k1) | k2;
      in.lt = sc.wire("lt", unt ? lt & sc.wire("k3", ~(t.same_u & in.is_t & ~is_v)) : lt);
      in.fv = sc.wire("fv", in.fs & is_v);
    }
    if (e.flush.valid()) in.reset = resets.part(w * Index(ab), ab);
    const Value lh = below(sc, st, in.a);
    Value n;
    if (compare_last) {
      const Value lw = sc.wire("lh", lh);
      n = mux(lw, age_after(sc, "_y", in, e, ways, ab, lw, 1), age_after(sc, "_o", in, e, ways, ab, lw, 0));
    } else {
      n = age_after(sc, "", in, e, ways, ab, lh, -1);
    }
    sc.assign(next.part(ao, ab), n);
  });
  return {next, t.same, t.va, t.same_u};
}

Value lru_ages_row(Scope& s, const string& name, const Value& ages, unsigned sets, unsigned ways,
                   const Value& set_oh) {
  const unsigned ab = age_bits(ways);
  const Value age = indexable(s, name + "_w", ages);
  Wire row = s.wire(name, ways * ab);
  s.generate_for(name + "_g", ways, "g_" + name, [&](Scope& sc, const Index& w) {
    const Value vw = sc.wire("way_ages", age.part(w * Index(sets * ab), sets * ab));
    sc.assign(row.part(w * Index(ab), ab), onehot_select_tree(set_oh, vw, sets, ab));
  });
  return row;
}

Value lru_ages_of_way(Scope& s, const string& name, const Value& ages, unsigned sets, unsigned ways,
                      const Value& way) {
  const unsigned ab = age_bits(ways);
  const Value age = indexable(s, name + "_w", ages);
  Wire out = s.wire(name, sets * ab);
  s.generate_for(name + "_g", sets, "g_" + name, [&](Scope& sc, const Index& st) {
    std::vector<Value> row;
    for (unsigned w = 0; w < ways; ++w) row.push_back(age.part(Index(w * sets * ab) + st * Index(ab), ab));
    const Value r = sc.wire("set_ages", cat_lsb_first(row));
    sc.assign(out.part(st * Index(ab), ab), onehot_select_tree(way, r, ways, ab));
  });
  return out;
}

Value lru_age(const Value& ages, unsigned sets, unsigned ways, unsigned w, unsigned s) {
  return ages.field(w * sets + s, age_bits(ways));
}

Value lru_ages_oldest(const Value& ages, unsigned sets, unsigned ways, unsigned s, unsigned k) {
  const unsigned ab = age_bits(ways);
  std::vector<Value> bits;
  for (unsigned w = 0; w < ways; ++w) bits.push_back(lru_age(ages, sets, ways, w, s) == lit(ab, ways - 1 - k));
  return cat_lsb_first(bits);
}

Value lru_ages_victim_after(Scope& s, const string& name, const Value& row, unsigned ways, const Value& touched,
                            const std::vector<Value>& touched_old, const Value& both) {
  const unsigned ab = age_bits(ways), depth = std::min(ways, 3u);
  if (ways < 2 || row.width() != ways * ab) fail("lru_ages_victim_after " + name + ": not one set's ages");
  std::vector<Value> oldest;  // oldest[k]: one-hot of the way with age W-1-k
  for (unsigned k = 0; k < depth; ++k)
    oldest.push_back(s.wire(name + "_old" + to_string(k), lru_ages_oldest(row, 1, ways, 0, k)));
  Value pick = ways >= 3 ? oldest[2] : both;
  for (unsigned k = 2; k-- > 0;)
    pick = mux(touched_old.empty() ? any(oldest[k] & touched) : touched_old[k], pick, oldest[k]);
  return s.wire(name, pick);
}

// ---------------------------------------------------------------------------
// Order matrix

unsigned order_pair(unsigned i, unsigned j, unsigned ways) { return i * ways - i * (i + 1) / 2 + (j - i - 1); }

Value order_more_recent(const Value& row, unsigned i, unsigned j, unsigned ways) {
  return i < j ? row.bit(order_pair(i, j, ways)) : ~row.bit(order_pair(j, i, ways));
}

namespace {

// Way i used less recently than way j, in one set's row (no double negation).
Value less_recent(const Value& row, unsigned i, unsigned j, unsigned ways) {
  return i < j ? ~row.bit(order_pair(i, j, ways)) : row.bit(order_pair(j, i, ways));
}

}  // namespace

Value order_next(Scope& s, const string& name, const Value& state, unsigned sets, unsigned ways,
                 const std::vector<Touch>& updates, const Value& flush) {
  const unsigned pairs = ways * (ways - 1) / 2;
  if (ways < 2 || state.width() != sets * pairs)
    fail("order_next " + name + ": " + to_string(state.width()) + " bits for " + to_string(sets) + " x " +
         to_string(ways) + " ways");
  const Value lm = sets > 1 ? indexable(s, name + "_w", state) : state;
  const std::vector<Value> set_v = update_sets(s, name, updates, sets);
  Wire next = s.wire(name, sets * pairs, true);
  auto set_pairs = [&](Scope& sc, const Index& base, const std::vector<Value>& en) {
    for (unsigned i = 0; i < ways; ++i)
      for (unsigned j = i + 1; j < ways; ++j) {
        const Index q = base + Index(order_pair(i, j, ways));
        Value b = lm.bit(q);
        for (size_t k = 0; k < updates.size(); ++k) {
          const Value wi = updates[k].way.bit(i), wj = updates[k].way.bit(j);
          b = mux(and_if(en[k], wi | wj), updates[k].kind == Touch::kUntouch ? wj : wi, b);
        }
        sc.assign(next.bit(q), and_if(flush.valid() ? ~flush : Value(), b));
      }
  };
  for_each_set(s, name, sets, pairs, updates, set_v, set_pairs);
  return next;
}

Value order_least_recent(const Value& row, const Value& among, unsigned ways) {
  std::vector<Value> v;
  for (unsigned i = 0; i < ways; ++i) {
    Value t = among.bit(i);
    for (unsigned j = 0; j < ways; ++j)
      if (j != i) t = t & (~among.bit(j) | less_recent(row, i, j, ways));
    v.push_back(t);
  }
  return cat_lsb_first(v);
}

Value order_least_recent_except(const Value& row, const Value& excluded, unsigned ways) {
  std::vector<Value> v;
  for (unsigned i = 0; i < ways; ++i) {
    std::vector<Value> terms{~excluded.bit(i)};
    for (unsigned j = 0; j < ways; ++j)
      if (j != i) terms.push_back(excluded.bit(j) | less_recent(row, i, j, ways));
    v.push_back(and_of(terms, lit(1, 1)));
  }
  return cat_lsb_first(v);
}

Value order_is_total(const Value& row, unsigned ways) {
  std::vector<Value> ok;
  auto r = [&](unsigned a, unsigned b) { return row.bit(order_pair(a, b, ways)); };
  for (unsigned i = 0; i < ways; ++i)
    for (unsigned j = i + 1; j < ways; ++j)
      for (unsigned k = j + 1; k < ways; ++k)
        ok.push_back(~(r(i, j) & r(j, k) & ~r(i, k)) & ~(~r(i, j) & ~r(j, k) & r(i, k)));
  return and_of(ok, one_bit(true));
}

// ---------------------------------------------------------------------------
// Ranks

Value rank_before(const Value& ranks, unsigned bits, unsigned j, unsigned i) {
  const Value rj = ranks.field(j, bits), ri = ranks.field(i, bits);
  return j < i ? rj <= ri : rj < ri;
}

std::vector<std::vector<Value>> rank_precedence(Scope& s, const string& name, const Value& valid,
                                                const Value& ranks, unsigned n, unsigned bits) {
  std::vector<std::vector<Value>> prec(n, std::vector<Value>(n));
  for (unsigned i = 0; i < n; ++i)
    for (unsigned j = 0; j < n; ++j)
      if (j != i)
        prec[i][j] = s.wire(name + "_" + to_string(i) + "_" + to_string(j),
                            valid.bit(j) & rank_before(ranks, bits, j, i));
  return prec;
}

Value rank_position(const std::vector<std::vector<Value>>& prec, unsigned i, unsigned bits) {
  Value sum;
  for (unsigned j = 0; j < prec.size(); ++j) {
    if (j == i) continue;
    sum = sum.valid() ? sum + zext(prec[i][j], bits) : zext(prec[i][j], bits);
  }
  return sum.valid() ? sum : zero(bits);
}

Value rank_before_hit(const std::vector<std::vector<Value>>& prec, const Value& hit) {
  std::vector<Value> out;
  for (unsigned i = 0; i < prec.size(); ++i) {
    std::vector<Value> terms;
    for (unsigned j = 0; j < prec.size(); ++j)
      if (j != i) terms.push_back(hit.bit(j) & prec[j][i]);
    out.push_back(or_of(terms, zero(1)));
  }
  return cat_lsb_first(out);
}

Value rank_last(const Value& valid, const Value& ranks, unsigned n, unsigned bits) {
  std::vector<Value> out;
  for (unsigned i = 0; i < n; ++i) {
    Value all_before = valid.bit(i);
    for (unsigned j = 0; j < n; ++j)
      if (j != i) all_before = all_before & rank_before(ranks, bits, j, i);
    out.push_back(all_before);
  }
  return cat_lsb_first(out);
}

Value rank_last(const std::vector<std::vector<Value>>& prec, const Value& valid) {
  std::vector<Value> out;
  for (unsigned i = 0; i < prec.size(); ++i) {
    std::vector<Value> last = {valid.bit(i)};
    for (unsigned j = 0; j < prec.size(); ++j)
      if (j != i) last.push_back(prec[i][j]);
    out.push_back(and_of(last, zero(1)));
  }
  return cat_lsb_first(out);
}

Value rank_next(const std::vector<Value>& position, const Value& way, const Value& older, const Value& enable) {
  std::vector<Value> out;
  for (unsigned i = 0; i < position.size(); ++i) {
    const unsigned bits = position[i].width();
    out.push_back(mux(enable & way.bit(i), zero(bits), position[i] + zext(older.bit(i), bits)));
  }
  return cat_lsb_first(out);
}

}  // namespace txgen::hdl
