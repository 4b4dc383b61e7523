// The replacement policies of hdl/replacement.h, exhaustively at small
// widths through the evaluator (hdl/eval.h): every state and every update
// the API allows against a plain C++ statement of the policy (a tree walk, a
// recency list, ages as numbers), with no code shared with the library.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "txgen/hdl/eval.h"
#include "txgen/hdl/replacement.h"

namespace {

using namespace txgen::hdl;
using std::string;
using std::to_string;
using std::vector;

uint64_t oh(unsigned i) { return uint64_t{1} << i; }
// A check stops at its first mismatch (a broken structure would flood the log).
bool failing() { return ::testing::Test::HasFailure(); }
unsigned log2u(unsigned n) { return n <= 1 ? 0 : 1 + log2u(n / 2); }
unsigned bits_for(unsigned ways) { return std::max(1u, log2u(2 * ways - 1)); }  // clog2, at least 1

// ---------------------------------------------------------------------------
// Tree PLRU: the reference walks from the root; node (2^l - 1) + q of level l,
// a bit of 1 sends the walk (and the victim) to the upper half.

using Tree = vector<int>;

void ref_touch(Tree& t, unsigned ways, unsigned way, bool untouch) {
  const unsigned levels = log2u(ways);
  for (unsigned l = 0; l < levels; ++l) {
    const bool upper = (way >> (levels - 1 - l)) & 1u;  // the way's side at this level
    t[(1u << l) - 1 + (way >> (levels - l))] = untouch ? upper : !upper;
  }
}

unsigned ref_victim(const Tree& t, unsigned ways) {
  unsigned node = 0, way = 0;
  while (node < ways - 1) {
    way = 2 * way + t[node];
    node = 2 * node + 1 + t[node];
  }
  return way;
}

vector<Tree> unpack_trees(uint64_t v, unsigned sets, unsigned ways) {
  vector<Tree> t(sets, Tree(ways - 1));
  for (unsigned s = 0; s < sets; ++s)
    for (unsigned n = 0; n + 1 < ways; ++n) t[s][n] = (v >> (s * (ways - 1) + n)) & 1u;
  return t;
}

uint64_t pack_trees(const vector<Tree>& t) {
  uint64_t v = 0;
  unsigned k = 0;
  for (const Tree& s : t)
    for (int b : s) v |= uint64_t(b) << k++;
  return v;
}

// One edge's updates of the l1tlb kind: the touch or untouch of way a in set
// as, then the fill's touch of v in vs, then the flush. kind: 0 none, 1 touch, 2 untouch.
struct Edge {
  int a_kind = 0;
  unsigned a = 0, as = 0;
  bool fill = false;
  unsigned v = 0, vs = 0;
  bool flush = false;
};

// Every edge of `sets` sets and `ways` ways, to f.
template <typename F>
void for_each_edge(unsigned sets, unsigned ways, F f) {
  for (int ak = 0; ak < 3; ++ak)
    for (unsigned a = 0; a < (ak ? ways : 1); ++a)
      for (unsigned as = 0; as < (ak ? sets : 1); ++as)
        for (int fill = 0; fill < 2; ++fill)
          for (unsigned v = 0; v < (fill ? ways : 1); ++v)
            for (unsigned vs = 0; vs < (fill ? sets : 1); ++vs)
              for (int fl = 0; fl < 2; ++fl) {
                if (failing()) return;
                f(Edge{ak, a, as, fill != 0, v, vs, fl != 0});
              }
}

void set_edge(Evaluator& e, const Edge& x, unsigned sets) {
  e.set("hit", x.a_kind == 1);
  e.set("unt", x.a_kind == 2);
  e.set("a", x.a_kind ? oh(x.a) : 0);
  e.set("fill", x.fill);
  e.set("v", x.fill ? oh(x.v) : 0);
  e.set("flush", x.flush);
  if (sets > 1) {
    e.set("aset", oh(x.as));
    e.set("vset", oh(x.vs));
  }
}

string describe(const Edge& x) {
  return "a kind " + to_string(x.a_kind) + " way " + to_string(x.a) + " set " + to_string(x.as) + ", fill " +
         to_string(x.fill) + " way " + to_string(x.v) + " set " + to_string(x.vs) + ", flush " + to_string(x.flush);
}

// The l1tlb use: [untouch a, touch a, fill's touch of v] and the flush, in
// every set, every state. Returns the number of cases.
size_t check_plru_edges(unsigned ways, unsigned sets) {
  Module m("t_plru");
  const unsigned nodes = ways - 1;
  const Value state = m.input("state", sets * nodes), hit = m.input("hit", 1), unt = m.input("unt", 1);
  const Value a = m.input("a", ways), fill = m.input("fill", 1), v = m.input("v", ways), flush = m.input("flush", 1);
  const Value as = sets > 1 ? m.input("aset", sets) : Value(), vs = sets > 1 ? m.input("vset", sets) : Value();
  plru_next(m.top(), "next", state, sets, ways,
            {{Touch::kUntouch, unt, as, a, "us", {}}, {Touch::kTouch, hit, as, a, "hs", {}},
             {Touch::kTouch, fill, vs, v, "fs", {}}},
            flush);
  Evaluator e(m);
  size_t cases = 0;
  for (uint64_t st = 0; st < (uint64_t{1} << (sets * nodes)); ++st) {
    e.set("state", st);
    for_each_edge(sets, ways, [&](const Edge& x) {
      set_edge(e, x, sets);
      vector<Tree> t = unpack_trees(st, sets, ways);
      if (x.a_kind) ref_touch(t[x.as], ways, x.a, x.a_kind == 2);
      if (x.fill) ref_touch(t[x.vs], ways, x.v, false);
      if (x.flush) t = vector<Tree>(sets, Tree(nodes, 0));
      e.run();
      EXPECT_EQ(e.value("next"), pack_trees(t)) << ways << " ways, state " << st << ", " << describe(x);
      ++cases;
    });
  }
  return cases;
}

TEST(Plru, EveryStateAndEdgeOfTouchUntouchFillFlush) {
  // states x (none, touch or untouch of a way in a set) x (no fill, fill of a way in a set) x flush
  EXPECT_EQ(check_plru_edges(2, 1), 2u * 5 * 3 * 2);
  EXPECT_EQ(check_plru_edges(4, 1), 8u * 9 * 5 * 2);
  EXPECT_EQ(check_plru_edges(8, 1), 128u * 17 * 9 * 2);
  EXPECT_EQ(check_plru_edges(2, 4), 16u * 17 * 9 * 2);
  EXPECT_EQ(check_plru_edges(4, 2), 64u * 17 * 9 * 2);
}

// The walk_sched use: two touches without an enable, each of a one-hot way or
// of none (a zero way), the later winning.
TEST(Plru, EveryStateAndPairOfUngatedTouches) {
  for (unsigned ways : {2u, 4u, 8u}) {
    Module m("t_plru_two");
    const Value state = m.input("state", ways - 1), d = m.input("d", ways), f = m.input("f", ways);
    m.output("next_o", ways - 1)
        .drive(plru_next(m.top(), "next", state, 1, ways, {{Touch::kTouch, Value(), Value(), d, "", {}},
                                                           {Touch::kTouch, Value(), Value(), f, "", {}}}));
    Evaluator e(m);
    for (uint64_t st = 0; st < oh(ways - 1); ++st)
      for (unsigned dw = 0; dw <= ways; ++dw)  // dw == ways: none
        for (unsigned fw = 0; fw <= ways; ++fw) {
          if (failing()) return;
          e.set("state", st);
          e.set("d", dw < ways ? oh(dw) : 0);
          e.set("f", fw < ways ? oh(fw) : 0);
          vector<Tree> t = unpack_trees(st, 1, ways);
          if (dw < ways) ref_touch(t[0], ways, dw, false);
          if (fw < ways) ref_touch(t[0], ways, fw, false);
          e.run();
          EXPECT_EQ(e.value("next_o"), pack_trees(t)) << ways << " ways, state " << st << " d " << dw << " f " << fw;
        }
  }
}

// Touch::path: the ways given as binary indices (the hit's valid when `any`).
TEST(Plru, DecodedPathsEqualTheOneHotForm) {
  for (unsigned ways : {2u, 4u, 8u}) {
    const unsigned ib = log2u(ways);
    Module m("t_plru_path");
    const Value state = m.input("state", ways - 1), hit = m.input("hit", 1), unt = m.input("unt", 1);
    const Value ai = m.input("ai", ib), any_a = m.input("any_a", 1), vi = m.input("vi", ib), fill = m.input("fill", 1);
    const vector<Value> pa = plru_path(m.top(), "pa", ai, any_a, ways), pv = plru_path(m.top(), "pv", vi, Value(), ways);
    plru_next(m.top(), "next", state, 1, ways,
              {{Touch::kUntouch, unt, Value(), Value(), "", pa}, {Touch::kTouch, hit, Value(), Value(), "", pa},
               {Touch::kTouch, fill, Value(), Value(), "", pv}});
    Evaluator e(m);
    for (uint64_t st = 0; st < oh(ways - 1); ++st)
      for (int ak = 0; ak < 3; ++ak)
        for (unsigned a = 0; a < ways; ++a)
          for (int any = 0; any < 2; ++any)
            for (int fl = 0; fl < 2; ++fl)
              for (unsigned v = 0; v < ways; ++v) {
                if (failing()) return;
                e.set("state", st);
                e.set("hit", ak == 1);
                e.set("unt", ak == 2);
                e.set("ai", a);
                e.set("any_a", any);
                e.set("vi", v);
                e.set("fill", fl);
                vector<Tree> t = unpack_trees(st, 1, ways);
                if (ak && any) ref_touch(t[0], ways, a, ak == 2);
                if (fl) ref_touch(t[0], ways, v, false);
                e.run();
                EXPECT_EQ(e.value("next"), pack_trees(t)) << ways << " ways, state " << st << " a " << a;
              }
  }
}

TEST(Plru, VictimOfEveryTreeInBothForms) {
  for (unsigned ways : {2u, 4u, 8u, 16u}) {
    Module m("t_plru_victim");
    const Value tree = m.input("tree", ways - 1);
    m.output("flat_o", ways).drive(plru_victim(tree, ways));
    m.output("loop_o", ways).drive(plru_victim(m.top(), "loop", tree, ways));
    Evaluator e(m);
    for (uint64_t st = 0; st < oh(ways - 1); ++st) {
      if (failing()) return;
      e.set("tree", st);
      e.run();
      const uint64_t want = oh(ref_victim(unpack_trees(st, 1, ways)[0], ways));
      EXPECT_EQ(e.value("flat_o"), want) << ways << " ways, tree " << st;
      EXPECT_EQ(e.value("loop_o"), want) << ways << " ways, tree " << st;
    }
  }
}

// The walk towards the best class present: first class non-empty, else the
// candidates; at each node the side holding a way of it, the tree bit between two.
unsigned ref_victim_among(const Tree& t, unsigned ways, const vector<uint64_t>& classes, uint64_t cand) {
  uint64_t best = cand;
  for (uint64_t c : classes)
    if (c) {
      best = c;
      break;
    }
  unsigned node = 0, lo = 0;
  for (unsigned size = ways; size > 1; size /= 2) {
    const unsigned half = size / 2;
    const bool l = (best >> lo) & (oh(half) - 1), r = (best >> (lo + half)) & (oh(half) - 1);
    const bool right = r && (t[node] || !l);
    lo += right ? half : 0;
    node = 2 * node + 1 + (right ? 1 : 0);
  }
  return lo;
}

struct Eligible {
  uint64_t cand;
  vector<uint64_t> classes;
};

// Every eligibility: per way not a candidate, or a candidate in any of the classes.
vector<Eligible> every_eligibility(unsigned ways, unsigned nclasses) {
  const unsigned digits = 1 + (1u << nclasses);
  unsigned combos = 1;
  for (unsigned w = 0; w < ways; ++w) combos *= digits;
  vector<Eligible> all;
  for (unsigned k = 0; k < combos; ++k) {
    Eligible el{0, vector<uint64_t>(nclasses, 0)};
    for (unsigned w = 0, x = k; w < ways; ++w, x /= digits) {
      const unsigned d = x % digits;
      if (d == 0) continue;
      el.cand |= oh(w);
      for (unsigned c = 0; c < nclasses; ++c)
        if (((d - 1) >> c) & 1u) el.classes[c] |= oh(w);
    }
    all.push_back(el);
  }
  return all;
}

// walk_sched's eligibility: every way a candidate but at most one (the entry
// being replaced), one class any subset of the candidates.
vector<Eligible> all_but_one(unsigned ways) {
  vector<Eligible> all;
  for (unsigned x = 0; x <= ways; ++x) {  // x == ways: none excluded
    const uint64_t cand = (oh(ways) - 1) & ~(x < ways ? oh(x) : 0);
    for (uint64_t c = 0; c < oh(ways); ++c)
      if ((c & ~cand) == 0) all.push_back({cand, {c}});
  }
  return all;
}

size_t check_victim_among(unsigned ways, const vector<Eligible>& cases) {
  const size_t nclasses = cases.front().classes.size();
  Module m("t_among");
  const Value tree = m.input("tree", ways - 1), cand = m.input("cand", ways);
  vector<Value> classes;
  for (unsigned c = 0; c < nclasses; ++c) classes.push_back(m.input("c" + to_string(c), ways));
  plru_victim_among(m.top(), "victim", tree, classes, cand, ways);
  Evaluator e(m);
  size_t n = 0;
  for (const Eligible& el : cases) {
    e.set("cand", el.cand);
    for (unsigned c = 0; c < nclasses; ++c) e.set("c" + to_string(c), el.classes[c]);
    for (uint64_t st = 0; st < oh(ways - 1); ++st) {
      if (failing()) return n;
      e.set("tree", st);
      e.run();
      EXPECT_EQ(e.value("victim"), oh(ref_victim_among(unpack_trees(st, 1, ways)[0], ways, el.classes, el.cand)))
          << ways << " ways, tree " << st << " cand " << el.cand << " class0 " << el.classes[0];
      ++n;
    }
  }
  return n;
}

TEST(Plru, VictimAmongClassesOfEveryTreeAndEligibility) {
  EXPECT_EQ(check_victim_among(2, every_eligibility(2, 1)), 9u * 2);
  EXPECT_EQ(check_victim_among(2, every_eligibility(2, 2)), 25u * 2);
  EXPECT_EQ(check_victim_among(4, every_eligibility(4, 1)), 81u * 8);
  EXPECT_EQ(check_victim_among(4, every_eligibility(4, 2)), 625u * 8);
  EXPECT_EQ(check_victim_among(8, all_but_one(8)), (256u + 8 * 128) * 128);
}

// ---------------------------------------------------------------------------
// LRU ages: the reference holds numbers (0 the most recent).

using Ages = vector<unsigned>;  // per way

void ref_age_touch(Ages& a, unsigned t) {
  const unsigned at = a[t];
  for (unsigned w = 0; w < a.size(); ++w) a[w] = w == t ? 0 : a[w] < at ? a[w] + 1 : a[w];
}
void ref_age_untouch(Ages& a, unsigned t) {
  const unsigned at = a[t], top = static_cast<unsigned>(a.size()) - 1;
  for (unsigned w = 0; w < a.size(); ++w) a[w] = w == t ? top : a[w] > at ? a[w] - 1 : a[w];
}

// way-major packing, as hdl::LruAges
Bits pack_ages(const vector<Ages>& sets, unsigned ways) {
  const unsigned ab = bits_for(ways), n = static_cast<unsigned>(sets.size());
  Bits b(ways * n * ab);
  for (unsigned s = 0; s < n; ++s)
    for (unsigned w = 0; w < ways; ++w)
      for (unsigned k = 0; k < ab; ++k) b.set_bit((w * n + s) * ab + k, (sets[s][w] >> k) & 1u);
  return b;
}

// Every assignment of one permutation of ages per set, to f.
template <typename F>
void for_each_order(unsigned sets, unsigned ways, F f) {
  Ages base(ways);
  std::iota(base.begin(), base.end(), 0u);
  vector<Ages> all;
  do all.push_back(base);
  while (std::next_permutation(base.begin(), base.end()));
  vector<size_t> pick(sets, 0);
  while (true) {
    vector<Ages> st;
    for (size_t i : pick) st.push_back(all[i]);
    if (failing()) return;
    f(st);
    size_t k = 0;
    while (k < sets && ++pick[k] == all.size()) pick[k++] = 0;
    if (k == sets) break;
  }
}

struct AgeForm {
  bool untouch, fill, flush, compare_last, victim_is_way;
};

// lru_ages_next against the reference, every order and edge of `form`.
size_t check_ages(unsigned ways, unsigned sets, const AgeForm& form) {
  Module m("t_ages");
  const unsigned ab = bits_for(ways);
  const Value ages = m.input("ages", ways * sets * ab), hit = m.input("hit", 1), a = m.input("tway", ways);
  const Value as = sets > 1 ? m.input("aset", sets) : Value();
  AgeEdge x;
  x.touch = hit;
  x.set = as;
  x.way = a;
  if (form.untouch) x.untouch = m.input("unt", 1);
  if (form.fill) {
    x.fill = m.input("fill", 1);
    x.victim = m.input("v", ways);
    x.fill_set = sets > 1 ? m.input("vset", sets) : Value();
    x.young = m.input("young", ways);
    if (form.victim_is_way) x.victim_is_way = m.wire("vw", any(x.victim & a));
  }
  if (form.flush) x.flush = m.input("flush", 1);
  const Value ha = lru_ages_of_way(m.top(), "ha", ages, sets, ways, a);
  lru_ages_next(m.top(), "next", ages, sets, ways, x,
                [&](Scope&, const Index& s, const Value& age) { return age < ha.part(s * Index(ab), ab); },
                form.compare_last);
  Evaluator e(m);
  size_t cases = 0;
  for_each_order(sets, ways, [&](const vector<Ages>& st) {
    e.set("ages", pack_ages(st, ways));
    for_each_edge(sets, ways, [&](const Edge& ed) {
      if ((ed.a_kind == 2 && !form.untouch) || (ed.fill && !form.fill) || (ed.flush && !form.flush)) return;
      // an untouch of the victim itself in the fill's set needs it the oldest (AgeEdge::young)
      if (ed.a_kind == 2 && ed.fill && ed.a == ed.v && ed.as == ed.vs && st[ed.vs][ed.v] != ways - 1) return;
      vector<Ages> want = st;
      uint64_t young = 0;
      for (unsigned w = 0; w < ways; ++w)
        if (ed.fill && st[ed.vs][w] < st[ed.vs][ed.v]) young |= oh(w);
      if (ed.a_kind == 1) ref_age_touch(want[ed.as], ed.a);
      if (ed.a_kind == 2) ref_age_untouch(want[ed.as], ed.a);
      if (ed.fill) ref_age_touch(want[ed.vs], ed.v);
      if (ed.flush)
        for (Ages& s : want)
          for (unsigned w = 0; w < ways; ++w) s[w] = ways - 1 - w;
      e.set("hit", ed.a_kind == 1);
      e.set("tway", ed.a_kind ? oh(ed.a) : 0);
      if (sets > 1) e.set("aset", oh(ed.as));
      if (form.untouch) e.set("unt", ed.a_kind == 2);
      if (form.fill) {
        e.set("fill", ed.fill);
        e.set("v", ed.fill ? oh(ed.v) : 0);
        e.set("young", young);
        if (sets > 1) e.set("vset", oh(ed.vs));
      }
      if (form.flush) e.set("flush", ed.flush);
      e.run();
      EXPECT_EQ(e.get("next"), pack_ages(want, ways)) << ways << " ways " << sets << " sets, " << describe(ed);
      ++cases;
    });
  });
  return cases;
}

TEST(LruAges, TouchOnlyWithTheCompareInside) {  // the ata form
  const AgeForm ata{false, false, false, false, false};
  EXPECT_EQ(check_ages(2, 1, ata), 2u * 3);
  EXPECT_EQ(check_ages(3, 1, ata), 6u * 4);
  EXPECT_EQ(check_ages(4, 1, ata), 24u * 5);
  EXPECT_EQ(check_ages(4, 2, ata), 576u * 9);
}

TEST(LruAges, TouchUntouchFillFlushWithTheCompareLast) {  // the l1tlb form
  const AgeForm l1tlb{true, true, true, true, false};
  // less the untouches of a victim that is not the oldest in the fill's set (AgeEdge::young)
  EXPECT_EQ(check_ages(2, 1, l1tlb), 2u * 5 * 3 * 2 - 4);
  EXPECT_EQ(check_ages(3, 1, l1tlb), 6u * 7 * 4 * 2 - 24);
  EXPECT_EQ(check_ages(4, 1, l1tlb), 24u * 9 * 5 * 2 - 144);
  EXPECT_GT(check_ages(2, 2, l1tlb), 0u);
  EXPECT_GT(check_ages(3, 2, l1tlb), 0u);
}

TEST(LruAges, EveryOtherCombinationOfTheEdgeForms) {
  size_t total = 0;
  for (int bits = 0; bits < 32; ++bits) {
    const AgeForm f{(bits & 1) != 0, (bits & 2) != 0, (bits & 4) != 0, (bits & 8) != 0, (bits & 16) != 0};
    if (f.victim_is_way && !f.fill) continue;
    total += check_ages(3, 1, f) + check_ages(2, 2, f);
  }
  EXPECT_GT(total, 0u);
}

TEST(LruAges, VictimAfterUpToTwoTouches) {
  for (unsigned ways : {2u, 3u, 4u}) {
    for (bool by_age : {false, true}) {
      Module m("t_after");
      const unsigned ab = bits_for(ways);
      const Value row = m.input("row", ways * ab), touched = m.input("touched", ways), both = m.input("both", ways);
      vector<Value> old;
      if (by_age) old = {m.input("t0", 1), m.input("t1", 1)};
      lru_ages_victim_after(m.top(), "victim", row, ways, by_age ? Value() : touched, old, both);
      Evaluator e(m);
      for_each_order(1, ways, [&](const vector<Ages>& st) {
        const Ages& a = st[0];
        for (uint64_t t = 0; t < oh(ways); ++t) {
          if (failing()) return;
          if (__builtin_popcountll(t) > 2) continue;
          int want = -1;
          for (unsigned w = 0; w < ways; ++w)
            if (!((t >> w) & 1u) && (want < 0 || a[w] > a[static_cast<unsigned>(want)])) want = static_cast<int>(w);
          const uint64_t both_v = t ? oh(static_cast<unsigned>(__builtin_ctzll(t))) : 1;
          e.set("row", pack_ages(st, ways));
          e.set("touched", t);
          e.set("both", both_v);
          if (by_age)
            for (unsigned k = 0; k < 2; ++k) {
              unsigned way_k = 0;
              while (a[way_k] != ways - 1 - k) ++way_k;
              e.set("t" + to_string(k), (t >> way_k) & 1u);
            }
          e.run();
          EXPECT_EQ(e.value("victim"), want < 0 ? both_v : oh(static_cast<unsigned>(want)))
              << ways << " ways, touched " << t;
        }
      });
    }
  }
}

TEST(LruAges, RowsOldestAndTheRegisters) {
  for (auto [ways, sets] : {std::pair{2u, 2u}, std::pair{2u, 3u}, std::pair{4u, 2u}}) {
    Module m("t_rows");
    const unsigned ab = bits_for(ways);
    const Value ages = m.input("ages", ways * sets * ab), so = m.input("so", sets), wo = m.input("wo", ways);
    lru_ages_row(m.top(), "row", ages, sets, ways, so);
    lru_ages_of_way(m.top(), "of_way", ages, sets, ways, wo);
    for (unsigned s = 0; s < sets; ++s)
      for (unsigned k = 0; k < ways; ++k)
        m.output("old_" + to_string(s) + "_" + to_string(k), ways).drive(lru_ages_oldest(ages, sets, ways, s, k));
    Evaluator e(m);
    for_each_order(sets, ways, [&](const vector<Ages>& st) {
      e.set("ages", pack_ages(st, ways));
      for (unsigned s = 0; s < sets; ++s)
        for (unsigned w = 0; w < ways; ++w) {
          if (failing()) return;
          e.set("so", oh(s));
          e.set("wo", oh(w));
          e.run();
          EXPECT_EQ(e.get("row"), pack_ages({st[s]}, ways));
          for (unsigned t = 0; t < sets; ++t) EXPECT_EQ(e.get("of_way").slice(t * ab, ab), Bits(ab, st[t][w]));
          for (unsigned k = 0; k < ways; ++k) {
            unsigned way_k = 0;
            while (st[s][way_k] != ways - 1 - k) ++way_k;
            EXPECT_EQ(e.value("old_" + to_string(s) + "_" + to_string(k)), oh(way_k));
          }
        }
    });
  }
  // the registers: reset to W - 1 - w in every set, split at 64 bits per register
  Module m("t_lru_regs");
  m.clock_and_reset();
  const Value in = m.input("in", 4 * 40 * 2);
  const LruAges regs(m, "x_", 4, 40, 2);
  regs.next(in);
  Evaluator e(m);
  e.reset();
  Bits ramp = Bits::from_words(320, {0x0123456789abcdefull, 0xfedcba9876543210ull, 0x1111, 0, 0x8000000000000000ull});
  e.set("in", ramp);
  e.run();
  vector<Ages> reset(40, Ages{3, 2, 1, 0});
  EXPECT_EQ(e.get("x_age"), pack_ages(reset, 4));
  e.step();
  e.run();
  EXPECT_EQ(e.get("x_age"), ramp);
  EXPECT_EQ(e.get("x_age_w0_c1_q").width(), 16u);  // 32 sets of 2 bits, then 8
}

// ---------------------------------------------------------------------------
// The order matrix: the reference is a recency list, most recent first.

using Order = vector<unsigned>;

uint64_t pack_order(const vector<Order>& sets, unsigned ways) {
  const unsigned pairs = ways * (ways - 1) / 2;
  uint64_t v = 0;
  for (unsigned s = 0; s < sets.size(); ++s) {
    vector<unsigned> pos(ways);
    for (unsigned k = 0; k < ways; ++k) pos[sets[s][k]] = k;
    unsigned q = 0;
    for (unsigned i = 0; i < ways; ++i)
      for (unsigned j = i + 1; j < ways; ++j, ++q)
        if (pos[i] < pos[j]) v |= oh(s * pairs + q);
  }
  return v;
}

void ref_order_touch(Order& o, unsigned w, bool untouch) {
  o.erase(std::find(o.begin(), o.end(), w));
  if (untouch) o.push_back(w);
  else o.insert(o.begin(), w);
}

template <typename F>
void for_each_recency(unsigned sets, unsigned ways, F f) {
  for_each_order(sets, ways, [&](const vector<Ages>& perms) { f(vector<Order>(perms.begin(), perms.end())); });
}

size_t check_order_edges(unsigned ways, unsigned sets) {
  Module m("t_order");
  const unsigned pairs = ways * (ways - 1) / 2;
  const Value state = m.input("state", sets * pairs), hit = m.input("hit", 1), unt = m.input("unt", 1);
  const Value a = m.input("a", ways), fill = m.input("fill", 1), v = m.input("v", ways), flush = m.input("flush", 1);
  const Value as = sets > 1 ? m.input("aset", sets) : Value(), vs = sets > 1 ? m.input("vset", sets) : Value();
  order_next(m.top(), "next", state, sets, ways,
             {{Touch::kUntouch, unt, as, a, "us", {}}, {Touch::kTouch, hit, as, a, "hs", {}},
              {Touch::kTouch, fill, vs, v, "fs", {}}},
             flush);
  Evaluator e(m);
  size_t cases = 0;
  for_each_recency(sets, ways, [&](const vector<Order>& st) {
    e.set("state", pack_order(st, ways));
    for_each_edge(sets, ways, [&](const Edge& x) {
      set_edge(e, x, sets);
      vector<Order> want = st;
      if (x.a_kind) ref_order_touch(want[x.as], x.a, x.a_kind == 2);
      if (x.fill) ref_order_touch(want[x.vs], x.v, false);
      if (x.flush)
        for (Order& o : want)
          for (unsigned k = 0; k < ways; ++k) o[k] = ways - 1 - k;  // way W-1 the most recent
      e.run();
      EXPECT_EQ(e.value("next"), pack_order(want, ways)) << ways << " ways, " << describe(x);
      ++cases;
    });
  });
  return cases;
}

TEST(OrderMatrix, EveryOrderAndEdgeOfTouchUntouchFillFlush) {
  EXPECT_EQ(check_order_edges(2, 1), 2u * 5 * 3 * 2);
  EXPECT_EQ(check_order_edges(3, 1), 6u * 7 * 4 * 2);
  EXPECT_EQ(check_order_edges(4, 1), 24u * 9 * 5 * 2);
  EXPECT_EQ(check_order_edges(5, 1), 120u * 11 * 6 * 2);
  EXPECT_EQ(check_order_edges(2, 2), 4u * 9 * 5 * 2);
  EXPECT_EQ(check_order_edges(3, 2), 36u * 13 * 7 * 2);
}

// The icache_tx use: three touches without enables, each in a set given by a
// one-hot (zero: none), the last winning.
TEST(OrderMatrix, ThreeOrderedTouchesByOneHotSets) {
  for (auto [ways, sets] : {std::pair{3u, 2u}, std::pair{4u, 1u}, std::pair{2u, 2u}}) {
    Module m("t_order3");
    const unsigned pairs = ways * (ways - 1) / 2;
    const Value state = m.input("state", sets * pairs);
    vector<Touch> u;
    for (unsigned k = 0; k < 3; ++k)
      u.push_back({Touch::kTouch, sets > 1 ? Value() : m.input("en" + to_string(k), 1),
                   sets > 1 ? m.input("s" + to_string(k), sets) : Value(), m.input("w" + to_string(k), ways), "", {}});
    order_next(m.top(), "next", state, sets, ways, u);
    Evaluator e(m);
    const unsigned choices = 1 + ways * sets;  // none, or (way, set)
    for_each_recency(sets, ways, [&](const vector<Order>& st) {
      for (unsigned c = 0; c < choices * choices * choices; ++c) {
        if (failing()) return;
        e.set("state", pack_order(st, ways));
        vector<Order> want = st;
        for (unsigned k = 0, x = c; k < 3; ++k, x /= choices) {
          const unsigned pick = x % choices, w = pick ? (pick - 1) % ways : 0, s = pick ? (pick - 1) / ways : 0;
          if (sets > 1) e.set("s" + to_string(k), pick ? oh(s) : 0);
          else e.set("en" + to_string(k), pick != 0);
          e.set("w" + to_string(k), pick ? oh(w) : 0);
          if (pick) ref_order_touch(want[s], w, false);
        }
        e.run();
        EXPECT_EQ(e.value("next"), pack_order(want, ways)) << ways << " ways, choice " << c;
      }
    });
  }
}

TEST(OrderMatrix, LeastRecentAmongAndExceptEveryMask) {
  for (unsigned ways : {2u, 3u, 4u, 5u}) {
    Module m("t_least");
    const Value row = m.input("row", ways * (ways - 1) / 2), mask = m.input("mask", ways);
    m.output("among_o", ways).drive(order_least_recent(row, mask, ways));
    m.output("except_o", ways).drive(order_least_recent_except(row, mask, ways));
    Evaluator e(m);
    for_each_recency(1, ways, [&](const vector<Order>& st) {
      for (uint64_t k = 0; k < oh(ways); ++k) {
        if (failing()) return;
        e.set("row", pack_order(st, ways));
        e.set("mask", k);
        e.run();
        uint64_t among = 0, except = 0;
        for (unsigned w : st[0]) {  // the last one found is the least recent
          if ((k >> w) & 1u) among = oh(w);
          else except = oh(w);
        }
        EXPECT_EQ(e.value("among_o"), among) << ways << " ways, mask " << k;
        if (k + 1 != oh(ways)) {
          EXPECT_EQ(e.value("except_o"), except) << ways << " ways, mask " << k;
        }
      }
    });
  }
}

TEST(OrderMatrix, IsTotalExactlyOnTheRowsOfOrders) {
  for (unsigned ways : {3u, 4u, 5u}) {
    const unsigned pairs = ways * (ways - 1) / 2;
    vector<bool> is_order(oh(pairs), false);
    for_each_recency(1, ways, [&](const vector<Order>& st) { is_order[pack_order(st, ways)] = true; });
    Module m("t_total");
    const Value row = m.input("row", pairs);
    m.output("ok_o", 1).drive(order_is_total(row, ways));
    Evaluator e(m);
    for (uint64_t r = 0; r < oh(pairs); ++r) {
      if (failing()) return;
      e.set("row", r);
      e.run();
      EXPECT_EQ(e.value("ok_o"), is_order[r] ? 1u : 0u) << ways << " ways, row " << r;
    }
  }
}

// With one set, a given set bit gates the update (l1tlb passes its one-set
// vectors of 1'b1; icache_tx's set one-hots are the touches' only enables).
TEST(Replacement, OneSetBitGatesTheUpdate) {
  const unsigned ways = 4, ab = 2, pairs = 6;
  Module m("t_one_set");
  const Value tree = m.input("tree", ways - 1), order = m.input("order", pairs), ages = m.input("ages", ways * ab);
  const Value en = m.input("en", 1), bit = m.input("bit", 1), way = m.input("way", ways);
  const Touch t{Touch::kTouch, en, bit, way, "", {}};
  plru_next(m.top(), "plru", tree, 1, ways, {t});
  order_next(m.top(), "order_n", order, 1, ways, {t});
  AgeEdge x;
  x.touch = en;
  x.set = bit;
  x.way = way;
  const Value ta = m.wire("ta", onehot_select(way, ages, ways, ab));
  lru_ages_next(m.top(), "ages_n", ages, 1, ways, x, [&](Scope&, const Index&, const Value& a) { return a < ta; }, false);
  Evaluator e(m);
  for_each_order(1, ways, [&](const vector<Ages>& st) {
    for (uint64_t tr = 0; tr < oh(ways - 1); ++tr)
      for (unsigned w = 0; w < ways; ++w)
        for (unsigned k = 0; k < 4; ++k) {
          if (failing()) return;
          const bool on = k == 3;  // enable and set bit both
          e.set("tree", tr);
          e.set("order", pack_order({Order(st[0].begin(), st[0].end())}, ways));
          e.set("ages", pack_ages(st, ways));
          e.set("en", k & 1u);
          e.set("bit", k >> 1);
          e.set("way", oh(w));
          e.run();
          vector<Tree> t2 = unpack_trees(tr, 1, ways);
          vector<Order> o2 = {Order(st[0].begin(), st[0].end())};
          vector<Ages> a2 = st;
          if (on) {
            ref_touch(t2[0], ways, w, false);
            ref_order_touch(o2[0], w, false);
            ref_age_touch(a2[0], w);
          }
          EXPECT_EQ(e.value("plru"), pack_trees(t2)) << "en " << (k & 1u) << " set bit " << (k >> 1);
          EXPECT_EQ(e.value("order_n"), pack_order(o2, ways)) << "en " << (k & 1u) << " set bit " << (k >> 1);
          EXPECT_EQ(e.get("ages_n"), pack_ages(a2, ways)) << "en " << (k & 1u) << " set bit " << (k >> 1);
        }
  });
}

// ---------------------------------------------------------------------------
// Ranks: the reference sorts the valid entries by (rank, index).

TEST(Ranks, OrderPositionsLastAndEveryUpdate) {
  for (unsigned n : {2u, 3u, 4u}) {
    const unsigned rb = 2;
    Module m("t_rank");
    const Value valid = m.input("valid", n), ranks = m.input("ranks", n * rb), hit = m.input("hit", n);
    const Value way = m.input("way", n), en = m.input("en", 1);
    const auto prec = rank_precedence(m.top(), "prec", valid, ranks, n, rb);
    vector<Value> pos;
    for (unsigned i = 0; i < n; ++i) pos.push_back(m.wire("pos" + to_string(i), rank_position(prec, i, rb)));
    const Value before = m.wire("before", rank_before_hit(prec, hit));
    m.output("last_prec_o", n).drive(rank_last(prec, valid));
    m.output("last_rank_o", n).drive(rank_last(valid, ranks, n, rb));
    const Value older = m.wire("older", mux(any(hit), before, valid));
    m.output("next_o", n * rb).drive(rank_next(pos, way, older, en));
    Evaluator e(m);
    for (uint64_t vm = 0; vm < oh(n); ++vm)
      for (uint64_t rk = 0; rk < oh(n * rb); ++rk) {
        vector<unsigned> r(n);
        for (unsigned i = 0; i < n; ++i) r[i] = (rk >> (i * rb)) & 3u;
        auto first = [&](unsigned j, unsigned i) { return r[j] < r[i] || (r[j] == r[i] && j < i); };
        vector<unsigned> order;  // valid entries, most recent first
        for (unsigned i = 0; i < n; ++i)
          if ((vm >> i) & 1u) order.push_back(i);
        std::sort(order.begin(), order.end(), first);
        e.set("valid", vm);
        e.set("ranks", rk);
        for (unsigned h = 0; h <= n; ++h) {  // h == n: a miss, filling the lowest invalid or the last
          if (failing()) return;
          const bool is_hit = h < n && ((vm >> h) & 1u);
          if (h < n && !is_hit) continue;
          unsigned w = h;
          if (!is_hit) w = vm + 1 == oh(n) ? order.back() : static_cast<unsigned>(__builtin_ctzll(~vm));
          e.set("hit", is_hit ? oh(h) : 0);
          e.set("way", oh(w));
          e.set("en", 1);
          e.run();
          uint64_t want_before = 0, last_rank = 0;
          for (unsigned i = 0; i < n; ++i) {
            unsigned p = 0;
            for (unsigned j = 0; j < n; ++j) p += j != i && ((vm >> j) & 1u) && first(j, i);
            EXPECT_EQ(e.value("pos" + to_string(i)), p) << "n " << n << " valid " << vm << " ranks " << rk;
            if (is_hit && ((vm >> i) & 1u) && first(i, h)) want_before |= oh(i);
            bool after_all = (vm >> i) & 1u;
            for (unsigned j = 0; j < n; ++j) after_all = after_all && (j == i || first(j, i));
            if (after_all) last_rank |= oh(i);
          }
          if (is_hit) {
            EXPECT_EQ(e.value("before"), want_before);
          }
          EXPECT_EQ(e.value("last_rank_o"), last_rank);
          EXPECT_EQ(e.value("last_prec_o"), vm + 1 == oh(n) ? oh(order.back()) : 0u);
          // the update: the touched or filled way first, the others in their order
          vector<unsigned> after = {w};
          for (unsigned i : order)
            if (i != w) after.push_back(i);
          const Bits next = e.get("next_o");
          for (unsigned k = 0; k < after.size(); ++k)
            EXPECT_EQ(next.slice(after[k] * rb, rb), Bits(rb, k)) << "n " << n << " valid " << vm << " ranks " << rk
                                                                 << " way " << w;
        }
      }
  }
}

}  // namespace
