// Shared structures built from typed Values: selections, priority chains,
// reductions and the gate-level arithmetic used where Yosys' default mapping
// is too slow (it maps adders as ripple carry and may chain wide reductions).
// Functions that need intermediate named wires take the Scope and a name
// prefix; the rest are pure expressions.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "txgen/hdl/module.h"

namespace txgen::hdl {

using Cases = std::vector<std::pair<Value, Value>>;

// cond_1 ? v_1 : cond_2 ? v_2 : ... : otherwise
Value priority(const Cases& cases, const Value& otherwise);
// OR of the terms (equal widths), `fallback` when there are none.
Value or_of(const std::vector<Value>& terms, const Value& fallback);
// Sum of the terms (equal widths, wrapping): a plain adder chain; see
// sum_tree for a fast one.
Value sum_of(const std::vector<Value>& terms);
// AND of the terms, `fallback` when there are none.
Value and_of(const std::vector<Value>& terms, const Value& fallback);
// The width-bit one-hot decode of `index` (bit `index` set; zero when index
// >= width).
Value one_of(unsigned width, const Value& index);
// AND-OR selection of `count` fields of `width` bits of vec by a one-hot mask.
Value onehot_select(const Value& onehot, const Value& vec, unsigned count, unsigned width);
// The binary index (width bits) of the set bit of a one-hot vector.
Value onehot_index(const Value& onehot, unsigned width);
// The bits of v, least significant first.
std::vector<Value> bits_of(const Value& v);
// The count fields of v, each `width` bits, field 0 first.
std::vector<Value> fields_of(const Value& v, unsigned count, unsigned width);
// Concatenation of per-entry values given entry 0 first.
Value cat_lsb_first(const std::vector<Value>& entries);

// name (width bits, declared) = one-hot lowest set bit of vec, through a
// log-depth (Kogge-Stone) prefix OR.
Value lowest_one(Scope& s, const std::string& name, const Value& vec);
// A balanced OR of the terms (equal widths, at least one).
Value or_tree(const std::vector<Value>& terms);
// onehot_select as a balanced OR tree (the field itself when count is 1, so
// `onehot` may then be left out).
Value onehot_select_tree(const Value& onehot, const Value& vec, unsigned count, unsigned width);
// name (declared vector) = the one-hot lowest set bit of vec as a balanced
// tree (wires name_<lo>_<hi> and their _any): a half's one-hot is cleared
// when the lower half has a bit. ABC keeps this log-depth form; lowest_one's
// overlapping prefix ORs it rebuilds as a ripple chain (64 bits: 9 cells
// against 27).
Value lowest_one_halves(Scope& s, const std::string& name, const Value& vec);
// Whether the one-hot (or zero) x has its bit below every set bit of v
// (`first`), and whether v has one (`any_v`): a tree like lowest_one_halves's,
// so x passes one AND-OR per level while v's ORs run beside it.
struct BelowAll {
  Value first, any_v;
};
BelowAll one_hot_below_all(const Value& x, const Value& v);
// name (declared) = the OR of n fields of `width` bits of vec (n a power of
// two) as a balanced tree, one generate loop per level (wires name_l<k>).
Value or_fields_tree(Scope& s, const std::string& name, const Value& vec, unsigned n, unsigned width);
// name (declared vector, so generate loops may index even one bit) = v.
Value vector_wire(Scope& s, const std::string& name, const Value& v);

// LRU ages of `ways` ways in `sets` sets, `age_bits` each: one register per
// way (prefix + "age_w<w>[_c<k>]") holding its age in every set, reset to
// ways-1-w, split so no register exceeds 64 bits. all() is every age,
// way-major: way w, set s at bits (w * sets + s) * age_bits; next() takes the
// same layout.
class LruAges {
 public:
  LruAges(Module& m, const std::string& prefix, unsigned ways, unsigned sets, unsigned age_bits);
  const Value& all() const { return all_; }
  void next(const Value& ages) const;

 private:
  std::vector<Reg> regs_;  // way 0 first
  Value all_;
};

// The lowest-index entry whose `valid` bit is set: whether there is one, its
// index (index_bits) and its field of `data` (valid.width() fields, entry 0
// lowest). A tournament tree of muxes: log depth with no prefix scan or
// one-hot select, which ABC tends to turn back into ripple chains.
struct First {
  Value any, index, data;
};
First first_of(Scope& s, const std::string& name, const Value& valid, const Value& data, unsigned index_bits);
// name (declared) bit i = OR of vec[0..i] (log-depth prefix).
Value prefix_or(Scope& s, const std::string& name, const Value& vec);
// name (declared) = the one-hot round-robin pick among req starting at the
// one-hot pointer ptr: the lowest request at or above it, else the lowest.
Value round_robin_pick(Scope& s, const std::string& name, const Value& req, const Value& ptr);
// Bit k of that pick as one flat term: req[k] and no request ahead of k in the
// order from the pointer (i is ahead of k when the pointer lies in (k, i]
// circularly). For a grant that fans out widely.
Value round_robin_bit(const Value& req, const Value& ptr, unsigned k);
// Whether a request ahead of k wins over it (round_robin_bit without req[k]):
// for a consumer that already implies req[k].
Value round_robin_ahead(const Value& req, const Value& ptr, unsigned k);
// The same arbitration with the pointer kept as a thermometer `ge` (bit i set
// for the requesters at or above it; reset all ones): `grant` (one-hot, declared
// as name) and `next_ge`, the thermometer just above the grant (all zeros after
// the top requester, which arbitrates as all ones). Each bit of both is one flat
// term, with no prefix chain (ABC maps prefix ORs as ripple chains): i is ahead
// of k when i < k and not (k at or above the pointer and i below it), or i > k,
// i at or above it and k below it; the winner is below k when a requester below
// k is at or above the pointer, or, with none at or above it, any is below k.
struct RoundRobin {
  Value grant, next_ge;
};
RoundRobin round_robin_thermo(Scope& s, const std::string& name, const Value& req, const Value& ge);
// name (declared) = the round-robin pick among req from the fixed position
// `start`: the lowest request at or above it, else the lowest (the request
// rotated, a lowest_one as name_first, rotated back).
Value round_robin_fixed(Scope& s, const std::string& name, const Value& req, unsigned start);
// The one-hot vector rotated up by one (the pointer past a one-hot winner).
Value rotate_left1(const Value& onehot);
// name (width + 1 bits, declared) = a + b + cin with Kogge-Stone carries.
Value prefix_add(Scope& s, const std::string& name, const Value& a, const Value& b, const Value& cin);
// name (width bits, declared) = the sum of the terms mod 2^width: a
// carry-save (3:2) tree and one prefix adder.
Value sum_tree(Scope& s, const std::string& name, const std::vector<Value>& terms, unsigned width);

}  // namespace txgen::hdl
