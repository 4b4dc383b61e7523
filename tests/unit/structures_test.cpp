// The structures of hdl/lib.h (round-robin arbiters, priority and prefix
// trees, adders), exhaustively at 1 to 6 bits through the evaluator
// (hdl/eval.h) against plain C++ statements of what each computes.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "txgen/hdl/eval.h"
#include "txgen/hdl/lib.h"

namespace {

using namespace txgen::hdl;
using std::string;
using std::to_string;
using std::vector;

uint64_t oh(unsigned i) { return uint64_t{1} << i; }
uint64_t lowest(uint64_t v) { return v & (~v + 1); }

// The lowest request at or above `start`, else the lowest (zero without one).
uint64_t ref_round_robin(uint64_t req, unsigned start) {
  const uint64_t at_or_above = req & ~(oh(start) - 1);
  return at_or_above ? lowest(at_or_above) : lowest(req);
}

TEST(RoundRobin, PickBitAheadAndFixedForEveryRequestAndPointer) {
  for (unsigned n = 1; n <= 6; ++n) {
    Module m("t_rr");
    const Value req = m.input("req", n), ptr = m.input("ptr", n);
    m.output("pick_o", n).drive(round_robin_pick(m.top(), "pick", req, ptr));
    m.output("next_o", n).drive(rotate_left1(ptr));
    vector<Value> bits, ahead;
    for (unsigned k = 0; k < n; ++k) {
      bits.push_back(round_robin_bit(req, ptr, k));
      ahead.push_back(round_robin_ahead(req, ptr, k));
      round_robin_fixed(m.top(), "fixed" + to_string(k), req, k);
    }
    m.output("bits_o", n).drive(cat_lsb_first(bits));
    m.output("ahead_o", n).drive(cat_lsb_first(ahead));
    Evaluator e(m);
    for (uint64_t r = 0; r < oh(n); ++r)
      for (unsigned p = 0; p < n; ++p) {
        e.set("req", r);
        e.set("ptr", oh(p));
        e.run();
        const uint64_t want = ref_round_robin(r, p);
        ASSERT_EQ(e.value("pick_o"), want) << n << " requesters, req " << r << " ptr " << p;
        ASSERT_EQ(e.value("bits_o"), want) << n << " requesters, req " << r << " ptr " << p;
        ASSERT_EQ(e.value("fixed" + to_string(p)), want) << n << " requesters, req " << r << " from " << p;
        ASSERT_EQ(e.value("next_o"), oh((p + 1) % n));
        for (unsigned k = 0; k < n; ++k)  // someone other than k wins over k
          ASSERT_EQ((e.value("ahead_o") >> k) & 1u, (ref_round_robin(r | oh(k), p) != oh(k)) ? 1u : 0u)
              << n << " requesters, req " << r << " ptr " << p << " k " << k;
      }
  }
}

TEST(RoundRobin, ThermometerPointerForEveryRequestAndPointer) {
  for (unsigned n = 1; n <= 6; ++n) {
    Module m("t_rr_thermo");
    const Value req = m.input("req", n), ge = m.input("ge", n);
    const RoundRobin rr = round_robin_thermo(m.top(), "grant", req, ge);
    m.output("grant_o", n).drive(rr.grant);
    m.output("next_ge_o", n).drive(rr.next_ge);
    Evaluator e(m);
    for (uint64_t r = 0; r < oh(n); ++r)
      for (unsigned p = 0; p <= n; ++p) {  // p == n: all zeros, which arbitrates as all ones
        const uint64_t therm = p == n ? 0 : (oh(n) - 1) & ~(oh(p) - 1);
        e.set("req", r);
        e.set("ge", therm);
        e.run();
        const uint64_t want = ref_round_robin(r, p == n ? 0 : p);
        ASSERT_EQ(e.value("grant_o"), want) << n << " requesters, req " << r << " ge " << therm;
        if (r == 0) continue;
        // the thermometer just above the grant; with one requester all ones
        // (which arbitrates as the all zeros above the top requester)
        const unsigned g = static_cast<unsigned>(__builtin_ctzll(want));
        ASSERT_EQ(e.value("next_ge_o"), n == 1 ? 1u : (oh(n) - 1) & ~(oh(g + 1) - 1)) << n << " requesters, req " << r;
      }
  }
}

TEST(PriorityTrees, LowestOnePrefixOrAndBelowAllForEveryVector) {
  for (unsigned n = 1; n <= 6; ++n) {
    Module m("t_prefix");
    const Value v = m.input("v", n), x = m.input("x", n);
    lowest_one(m.top(), "low", v);
    lowest_one_halves(m.top(), "low_tree", v);
    prefix_or(m.top(), "por", v);
    const BelowAll b = one_hot_below_all(x, v);
    m.output("below_o", 2).drive(cat({b.first, b.any_v}));
    m.output("index_o", 3).drive(onehot_index(lowest_one(m.top(), "low2", v), 3));
    Evaluator e(m);
    for (uint64_t k = 0; k < oh(n); ++k)
      for (unsigned xi = 0; xi <= n; ++xi) {  // xi == n: x zero
        e.set("v", k);
        e.set("x", xi < n ? oh(xi) : 0);
        e.run();
        ASSERT_EQ(e.value("low"), lowest(k)) << n << " bits, " << k;
        ASSERT_EQ(e.value("low_tree"), lowest(k)) << n << " bits, " << k;
        uint64_t por = 0;
        for (unsigned i = 0; i < n; ++i)
          if (k & (oh(i + 1) - 1)) por |= oh(i);
        ASSERT_EQ(e.value("por"), por) << n << " bits, " << k;
        const bool first = xi < n && (k & (oh(xi + 1) - 1)) == 0;  // x's bit below (and not at) every bit of v
        ASSERT_EQ(e.value("below_o"), (first ? 2u : 0u) | (k ? 1u : 0u)) << n << " bits, v " << k << " x " << xi;
        ASSERT_EQ(e.value("index_o"), k ? static_cast<uint64_t>(__builtin_ctzll(k)) : 0u);
      }
  }
}

TEST(PriorityTrees, FirstOfEveryValidVectorAndData) {
  for (unsigned n = 1; n <= 5; ++n) {
    Module m("t_first");
    const Value valid = m.input("valid", n), data = m.input("data", 2 * n);
    const First f = first_of(m.top(), "first", valid, data, 3);
    m.output("any_o", 1).drive(f.any);
    Evaluator e(m);
    for (uint64_t v = 0; v < oh(n); ++v)
      for (uint64_t d = 0; d < oh(2 * n); ++d) {
        e.set("valid", v);
        e.set("data", d);
        e.run();
        ASSERT_EQ(e.value("any_o"), v ? 1u : 0u);
        if (!v) continue;
        const unsigned i = static_cast<unsigned>(__builtin_ctzll(v));
        ASSERT_EQ(e.value("first_index"), i) << n << " entries, valid " << v;
        ASSERT_EQ(e.value("first_data"), (d >> (2 * i)) & 3u) << n << " entries, valid " << v << " data " << d;
      }
  }
}

TEST(Selections, OrTreesAndOneHotSelectsForEveryInput) {
  for (unsigned n = 1; n <= 5; ++n) {
    Module m("t_select");
    const Value sel = m.input("sel", n), vec = m.input("vec", 2 * n);
    m.output("tree_o", 2).drive(onehot_select_tree(sel, vec, n, 2));
    m.output("chain_o", 2).drive(onehot_select(sel, vec, n, 2));
    m.output("or_o", 2).drive(or_tree(fields_of(vec, n, 2)));
    Evaluator e(m);
    for (uint64_t s = 0; s < oh(n); ++s)
      for (uint64_t v = 0; v < oh(2 * n); ++v) {
        uint64_t pick = 0, all = 0;
        for (unsigned i = 0; i < n; ++i) {
          all |= (v >> (2 * i)) & 3u;
          if ((s >> i) & 1u) pick |= (v >> (2 * i)) & 3u;  // AND-OR: several selected fields OR
        }
        e.set("sel", s);
        e.set("vec", v);
        e.run();
        ASSERT_EQ(e.value("tree_o"), n == 1 ? v : pick) << n << " fields, sel " << s << " vec " << v;
        ASSERT_EQ(e.value("chain_o"), pick) << n << " fields, sel " << s << " vec " << v;
        ASSERT_EQ(e.value("or_o"), all) << n << " fields, vec " << v;
      }
  }
  for (unsigned n : {1u, 2u, 4u, 8u}) {
    Module m("t_or_fields");
    const Value vec = m.input("vec", 2 * n);
    or_fields_tree(m.top(), "orf", vec, n, 2);
    Evaluator e(m);
    for (uint64_t v = 0; v < oh(2 * n); ++v) {
      uint64_t all = 0;
      for (unsigned i = 0; i < n; ++i) all |= (v >> (2 * i)) & 3u;
      e.set("vec", v);
      e.run();
      ASSERT_EQ(e.value("orf"), all) << n << " fields, vec " << v;
    }
  }
}

TEST(Adders, PrefixAddForEveryOperandPair) {
  for (unsigned w = 2; w <= 6; ++w) {
    Module m("t_add");
    const Value a = m.input("a", w), b = m.input("b", w), cin = m.input("cin", 1);
    prefix_add(m.top(), "sum", a, b, cin);
    Evaluator e(m);
    for (uint64_t x = 0; x < oh(w); ++x)
      for (uint64_t y = 0; y < oh(w); ++y)
        for (uint64_t c = 0; c < 2; ++c) {
          e.set("a", x);
          e.set("b", y);
          e.set("cin", c);
          e.run();
          ASSERT_EQ(e.value("sum"), x + y + c) << w << " bits: " << x << " + " << y << " + " << c;
        }
  }
}

TEST(Adders, SumTreeForEveryTermVector) {
  for (auto [terms, w] : {std::pair{1u, 4u}, std::pair{2u, 4u}, std::pair{3u, 4u}, std::pair{4u, 3u},
                          std::pair{5u, 3u}, std::pair{6u, 2u}}) {
    Module m("t_sum");
    vector<Value> t;
    for (unsigned k = 0; k < terms; ++k) t.push_back(m.input("t" + to_string(k), w));
    sum_tree(m.top(), "sum", t, w);
    Evaluator e(m);
    for (uint64_t all = 0; all < oh(terms * w); ++all) {
      uint64_t want = 0;
      for (unsigned k = 0; k < terms; ++k) {
        e.set("t" + to_string(k), (all >> (k * w)) & (oh(w) - 1));
        want += (all >> (k * w)) & (oh(w) - 1);
      }
      e.run();
      ASSERT_EQ(e.value("sum"), want & (oh(w) - 1)) << terms << " terms of " << w << " bits: " << all;
    }
  }
}

}  // namespace
