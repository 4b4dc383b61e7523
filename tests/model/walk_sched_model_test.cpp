// Unit tests of the golden walk_sched model (docs/blocks/walk_sched.md).
// Parameters are filled by hand; every expected cycle and value is worked out
// by hand from the document in the comments (never read back from the model).
// Cycle numbering: "cN" is the N-th cycle after construction (c0 first);
// "edge N" is the rising edge that ends cN. Inputs scripted "at cN" are
// driven in cN; registers written at edge N are visible from c(N+1).
// Recurring timing facts of the document used below:
//  - a request driven in cN with req_ready = 1 is in a1 in c(N+1);
//  - a1 bypass in cT: busy from c(T+1), d in c(T+1), disp_valid in c(T+2);
//  - simt scoring: a1 in cT (est, match bits stored at edge T), a2 in
//    c(T+1) (old read), a3 in c(T+2), a4 in c(T+3) (scores written and the
//    entry appended at edge T+3), the entry appears in c(T+4); req_ready is
//    1 again in c(T+3) when count + 1 < B (1 request per 4 cycles), and a
//    request accepted there is in a1 in c(T+4), seeing the append;
//    fcfs/random: a1 in cT, the entry appears in c(T+1), req_ready again in
//    c(T+1);
//  - done in cN: the walker is free from c(N+1); f = (1, done_vpn) in
//    c(N+1), where one victim per level is decided from the PWC state of
//    c(N+1) (leaving out g's victims when g is valid in c(N+1)); g = (1,
//    done_vpn, victims) in c(N+2); the PWC write happens at edge N+2 and is
//    seen by lookups from c(N+3) on (lookups in c(N+1) and c(N+2) still miss
//    the new prefix);
//  - the selection result in cT is the minimum over the keys of c(T-L);
//    a dispatch at edge T sets cooldown = L, so cooldown is L in c(T+1) and
//    0 from c(T+L+1).
#include "model/walk_sched.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <iostream>
#include <map>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace txgen::model {
namespace {

using config::WalkPolicy;
using elab::WalkSchedParams;

unsigned clog2(uint64_t x) {
  unsigned n = 0;
  while ((uint64_t{1} << n) < x) ++n;
  return n;
}

// A page-table geometry: LV levels of X index bits, a VPN of VPN bits, PE
// entries per PWC level (root first).
struct Geometry {
  unsigned levels = 4, x = 9, vpn = 36;  // 48-bit VA, 4 KB pages: TB = 9, 18, 27
  std::vector<unsigned> pe{4, 4, 4};
};

// Every field of the elaborated struct, by the document's formulas. The
// helper's G defaults to 2 (not the document's default 1) so that the small
// B = 4 buffers of the directed tests have L = 1; tests that need another L
// pass G.
WalkSchedParams mk(WalkPolicy pol, unsigned b, unsigned k, unsigned g = 2, uint64_t at = 1000,
                   const Geometry& geo = Geometry{}, unsigned mw = 64, unsigned iw = 8) {
  WalkSchedParams p;
  p.module_prefix = "walk_sched_test";
  p.policy = pol;
  p.entries = b;
  p.index_bits = clog2(b);
  p.count_bits = clog2(uint64_t{b} + 1);
  p.iid_bits = iw;
  p.walkers = k;
  p.walker_bits = std::max(1u, clog2(k));
  p.levels = geo.levels;
  p.level_bits = geo.x;
  p.vpn_bits = geo.vpn;
  p.pwc_entries = geo.pe;
  p.pwc_tag_bits.clear();
  for (unsigned l = 1; l < geo.levels; ++l) p.pwc_tag_bits.push_back(geo.vpn - (geo.levels - l) * geo.x);
  p.wavefront = mw;
  p.score_bits = clog2(uint64_t{mw} * geo.levels + 1);
  p.aging_threshold = at;
  p.credit_bits = clog2(at + 1);
  p.levels_per_cycle = g;
  p.select_latency = (p.index_bits + g - 1) / g;
  p.cooldown_bits = clog2(uint64_t{p.select_latency} + 1);
  p.acc_bits = 3;
  return p;
}

Geometry pe(std::vector<unsigned> entries) {
  Geometry g;
  g.pe = std::move(entries);
  return g;
}

// VPN of the 4-level geometry from its four 9-bit table indices (root first).
uint64_t V(uint64_t a, uint64_t b, uint64_t c, uint64_t d) { return (a << 27) | (b << 18) | (c << 9) | d; }
// Its PWC prefixes: level 1 = a, level 2 = {a, b}, level 3 = {a, b, c}.
uint64_t tag1(uint64_t a) { return a; }
uint64_t tag2(uint64_t a, uint64_t b) { return (a << 9) | b; }
uint64_t tag3(uint64_t a, uint64_t b, uint64_t c) { return (a << 18) | (b << 9) | c; }

// Scripted driver: inputs by cycle; records the outputs of every cycle and
// the events of every edge.
struct Sim {
  WalkSchedModel m;
  unsigned cyc = 0;
  std::map<unsigned, WalkSchedIn> script;
  std::vector<WalkSchedOut> out;    // out[c]: outputs in cc
  std::vector<WalkSchedEvents> ev;  // ev[c]: events of edge c
  explicit Sim(const WalkSchedParams& p) : m(p) {}

  void req(unsigned c, uint64_t vpn, uint32_t iid = 0) {
    WalkSchedIn& in = script[c];
    in.req_valid = true;
    in.req_vpn = vpn;
    in.req_iid = iid;
  }
  void done(unsigned c, uint32_t walker, uint64_t vpn) {
    WalkSchedIn& in = script[c];
    in.done_valid = true;
    in.done_walker = walker;
    in.done_vpn = vpn;
  }
  WalkSchedIn input(unsigned c) const {
    auto it = script.find(c);
    return it == script.end() ? WalkSchedIn{} : it->second;
  }
  void step() {
    const WalkSchedIn in = input(cyc);
    out.push_back(m.outputs(in));
    m.posedge(in);
    ev.push_back(m.events());
    ++cyc;
  }
  // Steps until the model is in cycle c (the state of cc, before edge c).
  void run_to(unsigned c) {
    while (cyc < c) step();
  }
  WalkSchedOut now() const { return m.outputs(WalkSchedIn{}); }
  bool accepted(unsigned c) const { return input(c).req_valid && out.at(c).req_ready; }
  std::vector<unsigned> disp_cycles() const {
    std::vector<unsigned> v;
    for (unsigned c = 0; c < out.size(); ++c) {
      if (out[c].disp_valid) v.push_back(c);
    }
    return v;
  }
};

// ===========================================================================
// Parameters

TEST(WalkSchedParams, ValidatesEveryDerivedWidth) {
  // The document's default configuration: B 256, K 8, G 1 -> L = ceil(8 /
  // 1) = 8, cooldown clog2(9) = 4 bits.
  {
    const WalkSchedParams d = mk(WalkPolicy::Simt, 256, 8, 1, 2000000, pe({4, 8, 32}), 64, 20);
    EXPECT_EQ(d.select_latency, 8u);
    EXPECT_EQ(d.cooldown_bits, 4u);
    WalkSchedModel m(d);
    EXPECT_EQ(m.params().select_latency, 8u);
  }
  EXPECT_NO_THROW(WalkSchedModel(mk(WalkPolicy::Simt, 256, 8, 2, 2000000, pe({4, 8, 32}), 64, 20)));
  auto bad = [](WalkSchedParams p, const char* what) {
    try {
      WalkSchedModel m(p);
      ADD_FAILURE() << "accepted: " << what;
    } catch (const std::invalid_argument& e) {
      SUCCEED() << e.what();
    }
  };
  // "B | buffer entries (power of two, 4-1024)"
  bad(mk(WalkPolicy::Simt, 2, 1), "B = 2");
  bad(mk(WalkPolicy::Simt, 2048, 1), "B = 2048");
  WalkSchedParams p = mk(WalkPolicy::Simt, 8, 1);
  p.entries = 12;
  bad(p, "B = 12");
  // "K | walkers (1-32)"
  bad(mk(WalkPolicy::Simt, 8, 33), "K = 33");
  p = mk(WalkPolicy::Simt, 8, 1);
  p.walker_bits = 0;  // KB = max(1, ceil(log2 K)) = 1 for K = 1
  bad(p, "KB = 0");
  // "L | ceil(log2 B / G)": B = 256, G = 3 -> ceil(8 / 3) = 3.
  p = mk(WalkPolicy::Simt, 256, 8, 3);
  EXPECT_EQ(p.select_latency, 3u);
  EXPECT_NO_THROW(WalkSchedModel{p});
  p.select_latency = 2;
  bad(p, "L = 2 for B = 256, G = 3");
  // "TB[l] = VPN - (LV - l) x X"
  p = mk(WalkPolicy::Simt, 8, 1);
  p.pwc_tag_bits[1] = 17;
  bad(p, "TB[2] = 17");
  // "VPN ... must exceed (LV - 1) x X": LV 4, X 9 -> VPN > 27.
  Geometry g;
  g.vpn = 27;
  bad(mk(WalkPolicy::Fcfs, 8, 1, 2, 1000, g), "VPN = 27");
  g.vpn = 28;
  EXPECT_NO_THROW(WalkSchedModel(mk(WalkPolicy::Fcfs, 8, 1, 2, 1000, g)));
  // "PE[l] (powers of two, 1-64)"
  bad(mk(WalkPolicy::Simt, 8, 1, 2, 1000, pe({4, 3, 8})), "PE = 3");
  bad(mk(WalkPolicy::Simt, 8, 1, 2, 1000, pe({4, 8, 128})), "PE = 128");
  bad(mk(WalkPolicy::Simt, 8, 1, 2, 1000, pe({4, 8})), "LV - 2 PWC levels");
  // "SB = clog2(MW x LV + 1)": MW 64, LV 4 -> clog2(257) = 9.
  p = mk(WalkPolicy::Simt, 8, 1);
  EXPECT_EQ(p.score_bits, 9u);
  p.score_bits = 8;
  bad(p, "SB = 8");
  // "AB = clog2(AT + 1)": AT 2,000,000 -> 21.
  p = mk(WalkPolicy::Simt, 8, 1, 2, 2000000);
  EXPECT_EQ(p.credit_bits, 21u);
  p.credit_bits = 20;
  bad(p, "AB = 20");
  p = mk(WalkPolicy::Simt, 8, 1);
  p.acc_bits = 2;
  bad(p, "acc_bits = 2");
  Geometry g6;
  g6.levels = 6;
  g6.vpn = 60;
  g6.pe = {4, 4, 4, 4, 4};
  bad(mk(WalkPolicy::Simt, 8, 1, 2, 1000, g6), "LV = 6");
}

// ===========================================================================
// Arrival and dispatch

// simt, B 4, K 1, G 2 -> L = ceil(2 / 2) = 1.
// c0: request R0 (iid 7) accepted -> a1 in c1; c1: count 0 and walker 0
// free -> bypass ("dispatched at once with no scoring"); c2: busy, d valid,
// a2 empty (no scoring), req_ready = 1 again; c3: disp_valid with acc 4
// (empty PWCs: "LV on no hit"); c4: the pulse is over.
// Then R1 at c2: in c3 count = 0 but no walker is free -> scored, not
// bypassed: a2 in c4, a3 in c5, a4 in c6, entry 0 in c7 (score 0 + 4).
TEST(WalkSched, IdleWalkerBypass) {
  Sim s(mk(WalkPolicy::Simt, 4, 1));
  const uint64_t r0 = V(1, 2, 3, 4), r1 = V(1, 2, 3, 5);
  s.req(0, r0, 7);
  s.req(2, r1, 8);
  s.run_to(1);
  EXPECT_TRUE(s.accepted(0));
  EXPECT_TRUE(s.m.a1_valid());
  EXPECT_FALSE(s.now().req_ready) << "a1 full";
  s.run_to(2);
  EXPECT_TRUE(s.ev.at(1).bypass);
  EXPECT_FALSE(s.ev.at(1).selection);
  EXPECT_EQ(s.now().busy, 1u);
  EXPECT_EQ(s.now().count, 0u) << "a bypassed request never enters the buffer";
  EXPECT_FALSE(s.m.a2_valid()) << "no scoring on a bypass";
  EXPECT_TRUE(s.m.d_valid());
  EXPECT_TRUE(s.now().req_ready);
  EXPECT_TRUE(s.m.last_valid());
  EXPECT_EQ(s.m.last_iid(), 7u);
  s.run_to(3);
  WalkSchedOut o = s.now();
  EXPECT_TRUE(o.disp_valid);
  EXPECT_EQ(o.disp_walker, 0u);
  EXPECT_EQ(o.disp_vpn, r0);
  EXPECT_EQ(o.disp_iid, 7u);
  EXPECT_EQ(o.disp_acc, 4u);
  EXPECT_FALSE(s.ev.at(2).bypass);
  s.run_to(4);
  EXPECT_FALSE(s.now().disp_valid);
  EXPECT_FALSE(s.ev.at(3).bypass) << "walker busy: R1 is scored";
  EXPECT_TRUE(s.m.a2_valid());
  s.run_to(5);
  EXPECT_TRUE(s.m.a3_valid());
  s.run_to(6);
  EXPECT_TRUE(s.m.a4_valid());
  EXPECT_EQ(s.now().count, 0u) << "appended at the a4 edge";
  s.run_to(7);
  EXPECT_FALSE(s.m.a4_valid());
  EXPECT_EQ(s.now().count, 1u);
  EXPECT_EQ(s.m.vpn_of(0), r1);
  EXPECT_EQ(s.m.score_of(0), 4u);

  // K = 2, fcfs: two requests two cycles apart both bypass, to walkers 0
  // and 1 (the lowest-numbered free one); fcfs carries req_iid_i to
  // disp_iid_o ("fcfs and random carry the ID to disp_iid_o").
  Sim f(mk(WalkPolicy::Fcfs, 4, 2));
  f.req(0, r0, 7);
  f.req(2, r1, 8);
  f.run_to(6);
  EXPECT_TRUE(f.ev.at(1).bypass);
  EXPECT_TRUE(f.ev.at(3).bypass);
  EXPECT_EQ(f.out.at(2).busy, 1u);
  EXPECT_EQ(f.out.at(4).busy, 3u);
  EXPECT_EQ(f.disp_cycles(), (std::vector<unsigned>{3, 5}));
  EXPECT_EQ(f.out.at(3).disp_walker, 0u);
  EXPECT_EQ(f.out.at(5).disp_walker, 1u);
  EXPECT_EQ(f.out.at(3).disp_iid, 7u) << "fcfs carries the iid (bypass)";
  EXPECT_EQ(f.out.at(5).disp_iid, 8u);
  EXPECT_EQ(f.out.at(5).disp_vpn, r1);

  // The bypass needs count = 0: simt, B 4, K 1. R0 at c0 bypasses (c1);
  // R1 at c2 is scored (walker busy): a4 in c6, entry in c7. R2 at c6 (the
  // a4 cycle: count 0 + 1 < 4) is in a1 in c7. done(R0) at c6 frees the
  // walker from c7; R2's a1 in c7 sees count 1 -> scored, not bypassed,
  // although a walker is free. No selection in c7 (keys of c6: R1 was still
  // in a4); c8 (keys of c7: R1, cooldown 0 since c3) dispatches R1 at edge 8
  // (disp c10). R2: a2 c8, a3 c9, a4 c10 -> count 0 in c9 and c10, 1 in c11.
  // (R0's fill is decided in c7 and written at edge 8, after R2's estimate in
  // c7; not checked here.)
  Sim b(mk(WalkPolicy::Simt, 4, 1));
  b.req(0, V(1, 1, 1, 0), 1);
  b.req(2, V(1, 1, 2, 0), 2);
  b.req(6, V(1, 1, 3, 0), 3);
  b.done(6, 0, V(1, 1, 1, 0));
  b.run_to(12);
  EXPECT_TRUE(b.accepted(6));
  EXPECT_FALSE(b.ev.at(7).bypass);
  EXPECT_FALSE(b.ev.at(7).selection);
  EXPECT_TRUE(b.ev.at(8).selection);
  EXPECT_EQ(b.out.at(10).disp_vpn, V(1, 1, 2, 0));
  EXPECT_EQ(b.out.at(9).count, 0u) << "R1 left at edge 8";
  EXPECT_EQ(b.out.at(10).count, 0u);
  EXPECT_EQ(b.out.at(11).count, 1u) << "R2 appended at edge 10";
  EXPECT_EQ(b.m.vpn_of(0), V(1, 1, 3, 0));
}

// Same three-request script as the last part above (simt, B 4, K 1, L 1):
// the bypass of R0 in c1 pulses disp_valid in c3 only; the selection of R1
// at edge 8 (keys of c7: R1 is entry 0 from c7; c7's result holds the keys
// of c6, where R1 was still in a4) pulses it in c10 only. d is valid in c2
// and c9. acc: R0 looks up empty PWCs in c2 -> 4. R1 = V(1,1,2,0) looks up
// in c9. done(R0) at c7: walker 0 free from c8 (in time for edge 8); f
// valid in c8 (decide), g in c9, R0's prefixes {1}, {1,1}, {1,1,1} written
// at edge 9, the edge of R1's lookup: not seen -> acc 4. Variant done(R0) at
// c6 (as above): written at edge 8, so R1's lookup in c9 = t + 3 sees it:
// levels 1 and 2 hit, level 3 ({1,1,2}) misses -> deepest 2 -> acc = 4 - 2
// = 2. R1's score was est = 4 (empty PWCs in c3): "this number is an
// estimate". In both variants R2 (iid 3) is scored in c7 (before either
// write) -> est 4, old 0 in c8 (no entry of iid 3), entry 0 from c11 (R1
// left at edge 8), kept (walker 0 never freed again).
TEST(WalkSched, DispatchOutputTiming) {
  for (unsigned done_at : {7u, 6u}) {
    SCOPED_TRACE("done(R0) at c" + std::to_string(done_at));
    Sim s(mk(WalkPolicy::Simt, 4, 1));
    s.req(0, V(1, 1, 1, 0), 1);
    s.req(2, V(1, 1, 2, 0), 2);
    s.req(6, V(1, 1, 3, 0), 3);
    s.done(done_at, 0, V(1, 1, 1, 0));
    s.run_to(13);
    EXPECT_TRUE(s.ev.at(1).bypass);
    EXPECT_TRUE(s.ev.at(8).selection);
    EXPECT_EQ(s.disp_cycles(), (std::vector<unsigned>{3, 10}));
    EXPECT_EQ(s.out.at(3).disp_acc, 4u);
    EXPECT_EQ(s.out.at(10).disp_acc, done_at == 6 ? 2u : 4u);
    EXPECT_EQ(s.out.at(10).disp_iid, 2u);
    EXPECT_EQ(s.out.at(10).disp_walker, 0u);
    EXPECT_FALSE(s.ev.at(8).pwc_hit_dispatch);
    EXPECT_EQ(s.ev.at(9).pwc_hit_dispatch, done_at == 6) << "the d lookup of R1 is in c9";
    // busy: set at the dispatch edges 1 and 8, cleared at the done edge.
    for (unsigned c = 0; c < 11; ++c) {
      const bool want = (c >= 2 && c <= done_at) || c >= 9;
      EXPECT_EQ(s.out.at(c).busy, want ? 1u : 0u) << "c" << c;
    }
    ASSERT_EQ(s.m.count(), 1u);
    EXPECT_EQ(s.m.vpn_of(0), V(1, 1, 3, 0));
    EXPECT_EQ(s.m.score_of(0), 4u);
  }
}

// "Completion, cycle t with done_valid_i: ... the fill register takes f =
// (1, done_vpn_i)"; "Decide, cycle t + 1 with f valid"; "Write, cycle t + 2
// with g valid: at its edge ..."; "A completion's prefixes are therefore in
// the PWC from cycle t + 3 on": lookups in t + 1 and t + 2 do not see the new
// prefix, a lookup in t + 3 does. simt, B 4, K 2, G 2 -> L 1, PE {4, 4, 4};
// P = V(1,1,1,0), Q1 = V(1,1,1,1), Q2 = V(1,1,1,2) share all of P's PWC
// prefixes; Z = V(2,0,0,0) shares none.
// Common start: c0 R0 (iid 1, P) -> a1 c1 -> bypass to walker 0 at edge 1
// (d lookup c2 on empty PWCs, disp c3 acc 4). c2 R1 (iid 2, Z) -> a1 c3 ->
// bypass to walker 1 at edge 3. c4 R2 (iid 3, Q1) -> a1 c5: no walker free
// -> scored on empty PWCs: est 4 -> a2 c6 (old 0), a3 c7, a4 c8 -> entry 0
// (score 4) in c9; cooldown 0 from c5.
// Part 1 (arrival estimate in c9, dispatch lookup in c11), done(P) at t = 9,
// 8 or 6 (walker 0 free from t + 1 <= c10; R2's a1 in c5 sees walker 0
// busy): f valid in t + 1, g in t + 2, write at edge t + 2.
// c8 (R2's a4 cycle, count 0 + 1 < 4) R3 (iid 4, Q2) -> a1 c9 with count 1
// -> scored in c9 (old 0 in c10: iid 3 != 4): est 1 if c9 >= t + 3 (t = 6),
// else 4. No selection in c9 (keys of c8: Q1 was in a4). c10: keys of c9
// ([Q1]), walker 0 free, cooldown 0 -> Q1 to walker 0 at edge 10; its d
// lookup in c11 hits levels 1-3 if c11 >= t + 3 (t = 8, 6) -> acc 1 in c12,
// else (t = 9: c11 = t + 2, the write edge) acc 4. R3's a4 in c12 appends it
// at edge 12 with score 0 + est (entry 0 in c13).
// Part 2 (dispatch lookups in t + 2 and t + 3), t = 9: done(Z) at c8 frees
// walker 1 from c9 (no dispatch in c9: c9's result holds the keys of c8).
// done(P) at c9 frees walker 0 from c10. c10: keys of c9 ([Q1]) -> Q1 to
// walker 0 (the lowest free) at edge 10. c10 R3 (iid 4, Q2) -> a1 c11: count
// 0 (Q1 left at edge 10), walker 1 free -> bypass to walker 1 at edge 11
// (the selection result of c11, keys of c10, is blocked by cooldown 1).
// Fills: Z decided in c9 (all invalid, no g: entry 0 of each level), g(Z) in
// c10, written at edge 10. P decided in c10 from the state before edge 10
// (still all invalid) with g(Z) valid: entry 0 is left out -> invalid {1,
// 2, 3}; root 0 -> lower half (entry 1 eligible), node 0 -> entry 0 side not
// eligible -> entry 1 (without the exclusion: entry 0, g's victim). g(P) in
// c11, written at edge 11. Q1's d lookup in c11 = t + 2 misses (only Z is
// in the PWC) -> acc 4 in c12; Q2's d lookup in c12 = t + 3 hits levels 1-3
// -> acc 1 in c13.
TEST(WalkSched, FillIsWrittenTwoEdgesAfterDone) {
  const uint64_t p = V(1, 1, 1, 0), z = V(2, 0, 0, 0), q1 = V(1, 1, 1, 1), q2 = V(1, 1, 1, 2);
  auto start = [&](Sim& s) {
    s.req(0, p, 1);
    s.req(2, z, 2);
    s.req(4, q1, 3);
  };
  for (unsigned done_at : {9u, 8u, 6u}) {
    SCOPED_TRACE("part 1, done(P) at c" + std::to_string(done_at));
    Sim s(mk(WalkPolicy::Simt, 4, 2, 2, 1000, pe({4, 4, 4})));
    start(s);
    s.done(done_at, 0, p);
    s.req(8, q2, 4);
    s.run_to(9);
    ASSERT_EQ(s.m.count(), 1u);
    EXPECT_EQ(s.m.score_of(0), 4u);
    EXPECT_FALSE(s.ev.at(5).bypass) << "walker 0 still busy in c5";
    EXPECT_TRUE(s.accepted(8));
    EXPECT_EQ(s.m.f_valid(), done_at == 8);
    EXPECT_FALSE(s.m.g_valid());
    EXPECT_TRUE(s.m.a1_valid());
    EXPECT_EQ(s.m.pwc_acc(q2), done_at == 6 ? 1u : 4u) << "the PWC seen by the c9 estimate";
    s.run_to(10);
    EXPECT_FALSE(s.ev.at(9).bypass) << "count 1: R3 is scored";
    EXPECT_FALSE(s.ev.at(9).selection) << "keys of c8: an empty buffer";
    EXPECT_TRUE(s.m.a2_valid());
    s.run_to(11);
    EXPECT_TRUE(s.ev.at(10).selection);
    EXPECT_TRUE(s.m.a3_valid());
    EXPECT_EQ(s.m.g_valid(), done_at == 9);
    EXPECT_EQ(s.m.pwc_acc(q2), done_at == 9 ? 4u : 1u) << "the PWC seen by the c11 d lookup";
    s.run_to(12);
    EXPECT_EQ(s.m.pwc_acc(q2), 1u) << "written by c12 in every variant";
    s.run_to(13);
    EXPECT_EQ(s.ev.at(11).pwc_hit_dispatch, done_at != 9);
    EXPECT_EQ(s.out.at(12).disp_vpn, q1);
    EXPECT_EQ(s.out.at(12).disp_walker, 0u);
    EXPECT_EQ(s.out.at(12).disp_acc, done_at == 9 ? 4u : 1u);
    EXPECT_EQ(s.out.at(12).disp_iid, 3u);
    ASSERT_EQ(s.m.count(), 1u);
    EXPECT_EQ(s.m.vpn_of(0), q2);
    EXPECT_EQ(s.m.score_of(0), done_at == 6 ? 1u : 4u) << "est of R3 in c9";
  }
  {
    SCOPED_TRACE("part 2");
    Sim s(mk(WalkPolicy::Simt, 4, 2, 2, 1000, pe({4, 4, 4})));
    start(s);
    s.done(8, 1, z);
    s.done(9, 0, p);
    s.req(10, q2, 4);
    s.run_to(10);
    EXPECT_FALSE(s.ev.at(9).selection) << "walker 1 free in c9, but the keys of c8 show no entry";
    EXPECT_TRUE(s.m.f_valid());
    EXPECT_EQ(s.m.f_vpn(), p);
    EXPECT_TRUE(s.m.g_valid());
    EXPECT_EQ(s.m.g_vpn(), z);
    for (unsigned l = 1; l <= 3; ++l) EXPECT_EQ(s.m.g_victim(l), 0u) << l;
    EXPECT_FALSE(s.m.pwc_valid(1, 0)) << "Z is written at edge 10";
    s.run_to(11);
    EXPECT_TRUE(s.ev.at(10).selection);
    EXPECT_TRUE(s.ev.at(10).pwc_victim_excluded);
    EXPECT_FALSE(s.m.f_valid());
    EXPECT_TRUE(s.m.g_valid());
    EXPECT_EQ(s.m.g_vpn(), p);
    for (unsigned l = 1; l <= 3; ++l) EXPECT_EQ(s.m.g_victim(l), 1u) << l;
    EXPECT_TRUE(s.m.d_valid());
    EXPECT_EQ(s.m.pwc_tag(1, 0), tag1(2));
    EXPECT_EQ(s.m.pwc_acc(q1), 4u) << "the PWC seen by Q1's d lookup in c11";
    s.run_to(12);
    EXPECT_TRUE(s.ev.at(11).bypass);
    EXPECT_FALSE(s.ev.at(11).selection);
    EXPECT_FALSE(s.ev.at(11).pwc_hit_dispatch);
    EXPECT_FALSE(s.m.g_valid());
    EXPECT_EQ(s.m.pwc_tag(1, 0), tag1(2));
    EXPECT_EQ(s.m.pwc_tag(1, 1), tag1(1));
    EXPECT_EQ(s.m.pwc_tag(3, 1), tag3(1, 1, 1));
    EXPECT_EQ(s.m.pwc_acc(q2), 1u) << "the PWC seen by Q2's d lookup in c12";
    s.run_to(14);
    EXPECT_TRUE(s.ev.at(12).pwc_hit_dispatch);
    EXPECT_EQ(s.disp_cycles(), (std::vector<unsigned>{3, 5, 12, 13}));
    EXPECT_EQ(s.out.at(12).disp_vpn, q1);
    EXPECT_EQ(s.out.at(12).disp_walker, 0u);
    EXPECT_EQ(s.out.at(12).disp_acc, 4u) << "dispatch lookup in t + 2: the write is not seen";
    EXPECT_EQ(s.out.at(13).disp_vpn, q2);
    EXPECT_EQ(s.out.at(13).disp_walker, 1u);
    EXPECT_EQ(s.out.at(13).disp_acc, 1u) << "dispatch lookup in t + 3: the write is seen";
    EXPECT_EQ(s.out.at(13).disp_iid, 4u);
  }
}

// simt, B 4, K 1, L 1, MW 64 (SB 9). R0 (iid 1) bypasses and keeps the
// walker busy (no done), so every later request is scored; PWCs stay empty
// (no fill) -> est = 4 each.
// R1 (iid 5) at c2: a1 c3, a2 c4 (old 0), a3 c5, a4 c6 (new 4), entry 0 in
// c7.
// R2 (iid 5) at c6 (R1's a4 cycle): a1 c7 matches entry 0, appended at edge
// 6; match bit stored at edge 7; a2 c8: old 4; a4 c10: new 8 -> entries 0,
// 1 = 8 in c11 ("score accumulated").
// R3 (iid 9) at c10: no match -> entry 2 = 4 in c15.
// R4 (iid 5) at c14 (count 2 + 1 < 4): old 8 (c16) -> new 12 for entries 0,
// 1 and the new entry 3 in c19; entry 2 keeps 4. count 4 = B -> req_ready 0
// in c19.
TEST(WalkSched, ScoreAccumulatesAcrossAnInstructionsRequests) {
  Sim s(mk(WalkPolicy::Simt, 4, 1));
  s.req(0, V(9, 0, 0, 0), 1);
  s.req(2, V(2, 0, 0, 1), 5);
  s.req(6, V(2, 0, 0, 2), 5);
  s.req(10, V(2, 0, 0, 3), 9);
  s.req(14, V(2, 0, 0, 4), 5);
  s.run_to(7);
  for (unsigned c : {0u, 2u}) EXPECT_TRUE(s.accepted(c)) << c;
  EXPECT_FALSE(s.ev.at(6).score_accumulated) << "no matching entry";
  EXPECT_EQ(s.m.count(), 1u);
  EXPECT_EQ(s.m.score_of(0), 4u);
  EXPECT_EQ(s.m.credit_of(0), 1000u) << "credit = AT";
  s.run_to(8);
  EXPECT_TRUE(s.accepted(6));
  EXPECT_TRUE(s.m.match_of(0));
  s.run_to(10);
  EXPECT_TRUE(s.m.match_of(0)) << "held until the a4 edge";
  EXPECT_EQ(s.m.score_of(0), 4u) << "scores change only at a4 edges";
  s.run_to(11);
  EXPECT_TRUE(s.ev.at(10).score_accumulated);
  EXPECT_FALSE(s.m.match_of(0)) << "all match bits are cleared";
  EXPECT_EQ(s.m.score_of(0), 8u);
  EXPECT_EQ(s.m.score_of(1), 8u);
  s.run_to(19);
  for (unsigned c : {10u, 14u}) EXPECT_TRUE(s.accepted(c)) << c;
  EXPECT_FALSE(s.ev.at(14).score_accumulated);
  EXPECT_TRUE(s.ev.at(18).score_accumulated);
  EXPECT_EQ(s.m.count(), 4u);
  const uint32_t want[] = {12, 12, 4, 12};
  const uint32_t iid[] = {5, 5, 9, 5};
  for (unsigned i = 0; i < 4; ++i) {
    EXPECT_EQ(s.m.score_of(i), want[i]) << i;
    EXPECT_EQ(s.m.iid_of(i), iid[i]) << i;
  }
  EXPECT_FALSE(s.now().req_ready);
  EXPECT_EQ(s.m.busy(0), true);

  // Saturation: MW 1, LV 4 -> SB = clog2(5) = 3, scores up to 7. Three
  // requests of iid 5 (est 4 each) at c2, c6, c10: 4 (c7), min(8, 7) = 7
  // (c11), min(7 + 4, 7) = 7 (c15).
  Sim t(mk(WalkPolicy::Simt, 4, 1, 2, 1000, Geometry{}, 1));
  t.req(0, V(9, 0, 0, 0), 1);
  t.req(2, V(2, 0, 0, 1), 5);
  t.req(6, V(2, 0, 0, 2), 5);
  t.req(10, V(2, 0, 0, 3), 5);
  t.run_to(11);
  EXPECT_EQ(t.m.score_of(0), 7u);
  EXPECT_EQ(t.m.score_of(1), 7u);
  t.run_to(15);
  for (unsigned i = 0; i < 3; ++i) EXPECT_EQ(t.m.score_of(i), 7u) << i;
}

// "So at most one request is accepted every 4 cycles (simt ...). The next
// request may be accepted at the edge where a4 writes; its a1 cycle sees
// that write." simt, B 4, K 1, L 1, empty PWCs (est 4).
// Part 1: R0 (iid 1) bypasses at edge 1 and keeps the walker. From c2 to
// c14 a request of iid 5 is offered every cycle (a new VPN once the
// previous one is accepted). R1 accepted at c2: a1 c3, a2 c4, a3 c5, a4 c6;
// req_ready 0 in c3 .. c5 (a1, a2, a3 valid), 1 in c6 (a4 valid, count 0 +
// 1 < 4) -> R2 accepted at the a4 edge 6, in a1 in c7, where entry 0 (R1,
// appended at edge 6) is already valid: its CAM matches it (match bit in
// c8), old 4 in c8, new 8 for both in c11. Likewise R3 at c10 (count 1 + 1 <
// 4) -> 12 for three entries in c15, R4 at c14 (2 + 1 < 4) -> 16 for four in
// c19. Accepted: c0, c2, c6, c10, c14; c18 (R4's a4 cycle, count 3 + 1 = B)
// is not ready.
// Part 2: the a1 of a request accepted at an a4 edge sees the appended
// entry in count too. R0, R1 (iid 5) at c2 as above; done(R0) at c5 frees
// the walker from c6; R2 (iid 5) at c6. c7: a1 = R2 with a free walker but
// count 1 (R1 appended at edge 6) -> scored, not bypassed. No selection in
// c7 (keys of c6: R1 was in a4); c8 (keys of c7) dispatches R1 at edge 8, the
// a2 edge: old is read in c8, before R1 leaves -> 4; at R2's a4 edge 10 no
// entry matches any more (no score_accumulated) and R2 is appended with 8.
TEST(WalkSched, SimtAcceptsEveryFourCyclesAndA1SeesTheA4Write) {
  Sim s(mk(WalkPolicy::Simt, 4, 1));
  s.req(0, V(9, 0, 0, 0), 1);
  for (unsigned c = 2; c <= 14; ++c) s.req(c, V(5, 0, 0, 1 + (c + 1) / 4), 5);
  s.run_to(3);
  // Cycles c3 .. c7: which of a1 .. a4 holds a request.
  const std::vector<std::vector<bool>> stage = {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}, {1, 0, 0, 0}};
  for (unsigned c = 3; c <= 7; ++c) {
    s.run_to(c);
    const std::vector<bool> got = {s.m.a1_valid(), s.m.a2_valid(), s.m.a3_valid(), s.m.a4_valid()};
    EXPECT_EQ(got, stage[c - 3]) << "c" << c;
    if (c == 6) {
      EXPECT_EQ(s.m.count(), 0u);
      EXPECT_TRUE(s.now().req_ready) << "a4 valid, count 0 + 1 < B";
    }
  }
  EXPECT_EQ(s.m.count(), 1u) << "c7: R2's a1 cycle sees the append of edge 6";
  EXPECT_EQ(s.m.iid_of(0), 5u);
  s.run_to(8);
  EXPECT_TRUE(s.m.match_of(0)) << "R2's CAM matched the entry appended at edge 6";
  s.run_to(11);
  EXPECT_TRUE(s.ev.at(10).score_accumulated);
  for (unsigned i = 0; i < 2; ++i) EXPECT_EQ(s.m.score_of(i), 8u) << i;
  s.run_to(15);
  for (unsigned i = 0; i < 3; ++i) EXPECT_EQ(s.m.score_of(i), 12u) << i;
  s.run_to(19);
  ASSERT_EQ(s.m.count(), 4u);
  for (unsigned i = 0; i < 4; ++i) {
    EXPECT_EQ(s.m.score_of(i), 16u) << i;
    EXPECT_EQ(s.m.vpn_of(i), V(5, 0, 0, 1 + i)) << i;
  }
  const bool ready[] = {1, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0};
  for (unsigned c = 0; c < 19; ++c) EXPECT_EQ(s.out.at(c).req_ready, ready[c]) << "c" << c;

  Sim b(mk(WalkPolicy::Simt, 4, 1));
  b.req(0, V(9, 0, 0, 0), 1);
  b.req(2, V(5, 0, 0, 1), 5);
  b.done(5, 0, V(9, 0, 0, 0));
  b.req(6, V(5, 0, 0, 2), 5);
  b.run_to(12);
  EXPECT_TRUE(b.accepted(6));
  EXPECT_EQ(b.out.at(7).busy, 0u);
  EXPECT_EQ(b.out.at(7).count, 1u);
  EXPECT_FALSE(b.ev.at(7).bypass) << "count 1 in R2's a1 cycle";
  EXPECT_FALSE(b.ev.at(7).selection);
  EXPECT_TRUE(b.ev.at(8).selection);
  EXPECT_EQ(b.out.at(9).count, 0u);
  EXPECT_FALSE(b.ev.at(10).score_accumulated);
  EXPECT_EQ(b.out.at(10).disp_vpn, V(5, 0, 0, 1));
  ASSERT_EQ(b.m.count(), 1u);
  EXPECT_EQ(b.m.vpn_of(0), V(5, 0, 0, 2));
  EXPECT_EQ(b.m.score_of(0), 8u) << "old 4 read in c8, before R1 left at edge 8";
}

// "count + (1 if a4 valid) < B": the entry a4 appends at its edge is
// reserved. simt, B 4, K 1, L 1. R0 (iid 1) bypasses and keeps the walker;
// R1 .. R4 (iids 2 .. 5, one request each, est 4) at c2, c6, c10, c14 (each
// in the previous a4 cycle). c14: R3 in a4, count 2 = B - 2 -> ready 1. c18:
// R4 in a4, count 3 = B - 1 -> ready 0 (R5, iid 6, offered from c15, is
// refused); c19 on: count 4 = B, ready 0 (blocked_full from c19, not in c18).
// Variant: done(R0) at c17 frees the walker from c18; the selection of edge
// 18 (keys of c17: R1, R2, R3 tie at 4 -> R1) removes an entry at the very
// edge where a4 appends, yet ready stays 0 in c18 (the rule does not look at
// removals); c19: count 3 - 1 + 1 = 3, a1 .. a4 empty -> ready 1, R5
// accepted; R1's pulse in c20.
TEST(WalkSched, SimtReadyReservesTheEntryThatA4Appends) {
  for (bool remove : {false, true}) {
    SCOPED_TRACE(remove ? "with a removal at edge 18" : "no removal");
    Sim s(mk(WalkPolicy::Simt, 4, 1));
    s.req(0, V(9, 0, 0, 0), 1);
    for (unsigned k = 1; k <= 4; ++k) s.req(4 * k - 2, V(k, 0, 0, 0), 1 + k);
    for (unsigned c = 15; c <= (remove ? 19u : 22u); ++c) s.req(c, V(6, 0, 0, 0), 6);
    if (remove) s.done(17, 0, V(9, 0, 0, 0));
    s.run_to(14);
    EXPECT_TRUE(s.m.a4_valid());
    EXPECT_EQ(s.m.count(), 2u);
    EXPECT_TRUE(s.now().req_ready) << "count = B - 2 with a4 valid";
    s.run_to(18);
    EXPECT_TRUE(s.m.a4_valid());
    EXPECT_EQ(s.m.count(), 3u);
    EXPECT_FALSE(s.now().req_ready) << "count = B - 1 with a4 valid";
    s.run_to(23);
    for (unsigned k = 1; k <= 4; ++k) EXPECT_TRUE(s.accepted(4 * k - 2)) << k;
    EXPECT_FALSE(s.ev.at(18).blocked_full);
    EXPECT_EQ(s.ev.at(18).selection, remove);
    for (unsigned c = 15; c <= 18; ++c) EXPECT_FALSE(s.accepted(c)) << "c" << c;
    if (!remove) {
      for (unsigned c = 19; c <= 22; ++c) {
        EXPECT_FALSE(s.out.at(c).req_ready) << "c" << c;
        EXPECT_TRUE(s.ev.at(c).blocked_full) << "c" << c;
      }
      EXPECT_EQ(s.m.count(), 4u);
      continue;
    }
    EXPECT_EQ(s.out.at(19).count, 3u);
    EXPECT_TRUE(s.accepted(19));
    EXPECT_EQ(s.out.at(20).disp_vpn, V(1, 0, 0, 0));
    EXPECT_TRUE(s.m.a4_valid()) << "R5: a1 c20 .. a4 c23";
  }
}

// "old = the score of the entries whose match bit is set ... 0 if none:
// also when every matching entry was dispatched since the a1 edge", read in
// the a2 cycle; "Scores change only at a4 edges". simt, B 4, K 1, L 1,
// empty PWCs (est 4). R0 (iid 1) bypasses and keeps the walker; M (iid 5)
// at c2 -> entry 0 (score 4) from c7; N (iid 5) at c7: a1 c8 (its CAM
// matches M), a2 c9, a3 c10, a4 c11, N from c12. done(R0) at E - 1 frees
// the walker from E, and the selection of edge E (keys of c(E - 1) hold M)
// removes M:
// - E = 8, the a1 edge: M's match bit leaves with it; in the a2 cycle c9 no
//   entry has a match bit -> old 0 -> new = est = 4;
// - E = 9, the a2 edge: old is read in c9, while M is still there -> 4 ->
//   new 8;
// - E = 10, the a3 edge: likewise new 8;
// - no removal: M and N both take 8 at edge 11.
// With a removal, nothing matches at N's a4 edge (no score_accumulated).
TEST(WalkSched, OldIsReadInTheA2Cycle) {
  const uint64_t mv = V(5, 0, 0, 0), nv = V(5, 0, 0, 1);
  for (int e : {8, 9, 10, -1}) {
    SCOPED_TRACE("M removed at edge " + std::to_string(e));
    Sim s(mk(WalkPolicy::Simt, 4, 1));
    s.req(0, V(1, 0, 0, 0), 1);
    s.req(2, mv, 5);
    s.req(7, nv, 5);
    if (e > 0) s.done(static_cast<unsigned>(e - 1), 0, V(1, 0, 0, 0));
    s.run_to(8);
    EXPECT_TRUE(s.accepted(7));
    EXPECT_TRUE(s.m.a1_valid());
    EXPECT_EQ(s.m.count(), 1u) << "the a1 CAM sees M";
    s.run_to(9);
    EXPECT_TRUE(s.m.a2_valid());
    EXPECT_EQ(s.m.count(), e == 8 ? 0u : 1u);
    if (e != 8) {
      EXPECT_TRUE(s.m.match_of(0));
    }
    if (e == 10) {
      s.run_to(10);
      EXPECT_TRUE(s.m.match_of(0)) << "the bit stays until the a4 edge or the removal";
      EXPECT_EQ(s.m.score_of(0), 4u);
    }
    s.run_to(13);  // N from c12; M's pulse by c12
    if (e > 0) {
      EXPECT_TRUE(s.ev.at(static_cast<unsigned>(e)).selection);
      EXPECT_EQ(s.out.at(static_cast<unsigned>(e) + 2).disp_vpn, mv);
    }
    EXPECT_EQ(s.ev.at(11).score_accumulated, e < 0);
    const unsigned n_at = e < 0 ? 1 : 0;
    ASSERT_EQ(s.m.count(), n_at + 1);
    EXPECT_EQ(s.m.vpn_of(n_at), nv);
    EXPECT_EQ(s.m.score_of(n_at), e == 8 ? 4u : 8u);
    if (e < 0) {
      EXPECT_EQ(s.m.score_of(0), 8u);
    }
  }
}

// simt, B 4, K 1, L 1.
// R0 (iid 1, A0) bypasses in c1: last_iid = 1 from c2.
// R1 (iid 1, A1) at c2 -> entry (1, 4) in c7; R2 (iid 1, A2) at c6 -> both
// (1, 8) in c11; R3 (iid 2, B0) at c10 -> entry 2 (2, 4) in c15.
// done(A0) at c15 frees the walker from c16 and loads f; A0's victims are
// decided in c16 and its prefixes written at edge 17.
// c16: keys of c15: entries 0, 1 are batch ({0,1,0,0}), entry 2 is
// {0,1,1,4} -> entry 0 (A1), although entry 2 has the lower score 4 < 8.
// A1 = V(1,0,0,1) shares every upper prefix of A0, but its d lookup in c17
// shares the edge of A0's write (17) -> misses -> acc 4 in c18.
// done(A1) at c18 -> c19: cooldown 0 (1 in c17), keys of c18: last_iid
// still 1 -> A2 (batch again) at edge 19, disp c21; its d lookup in c20
// sees A0's prefixes (from c18) -> acc 1.
// done(A2) at c21 -> c22: no iid-1 entry left -> lowest score: B0, acc 4
// (level-1 prefix 5 never filled), disp c24.
TEST(WalkSched, BatchingOfTheLastInstructionOverALowerScore) {
  Sim s(mk(WalkPolicy::Simt, 4, 1));
  const uint64_t a0 = V(1, 0, 0, 0), a1 = V(1, 0, 0, 1), a2 = V(1, 0, 0, 2), b0 = V(5, 0, 0, 0);
  s.req(0, a0, 1);
  s.req(2, a1, 1);
  s.req(6, a2, 1);
  s.req(10, b0, 2);
  s.done(15, 0, a0);
  s.done(18, 0, a1);
  s.done(21, 0, a2);
  s.run_to(15);
  ASSERT_EQ(s.m.count(), 3u);
  EXPECT_EQ(s.m.score_of(0), 8u);
  EXPECT_EQ(s.m.score_of(1), 8u);
  EXPECT_EQ(s.m.score_of(2), 4u);
  s.run_to(25);
  EXPECT_TRUE(s.ev.at(16).selection);
  EXPECT_TRUE(s.ev.at(16).by_batch_over_lower_score);
  EXPECT_FALSE(s.ev.at(16).by_lowest_score);
  EXPECT_TRUE(s.ev.at(19).by_batch_over_lower_score);
  EXPECT_TRUE(s.ev.at(22).by_lowest_score);
  EXPECT_FALSE(s.ev.at(22).tie_oldest);
  EXPECT_EQ(s.disp_cycles(), (std::vector<unsigned>{3, 18, 21, 24}));
  EXPECT_EQ(s.out.at(18).disp_vpn, a1);
  EXPECT_EQ(s.out.at(18).disp_acc, 4u) << "A0's write shares the edge of A1's lookup";
  EXPECT_EQ(s.out.at(21).disp_vpn, a2);
  EXPECT_EQ(s.out.at(21).disp_acc, 1u);
  EXPECT_EQ(s.out.at(24).disp_vpn, b0);
  EXPECT_EQ(s.out.at(24).disp_iid, 2u);
  EXPECT_EQ(s.out.at(24).disp_acc, 4u);
}

// simt, B 4, K 1, L 1. R0 (iid 1) bypasses; X1, X2 (iid 3, at c2, c6) ->
// entries 0, 1 at score 8 (c11); Y1 (iid 4, at c10) -> entry 2 at 4 (c15).
// done(R0) at c15.
// c16: keys of c15: last_iid 1 matches nothing; {0,1,1,8}, {0,1,1,8},
// {0,1,1,4} -> entry 2 (Y1): lowest score although the youngest.
// done(Y1) at c18 -> c19: last_iid 4, nothing to batch; X1 and X2 tie at 8
// -> X1 (the older), disp c21.
TEST(WalkSched, LowestScoreFirst) {
  Sim s(mk(WalkPolicy::Simt, 4, 1));
  const uint64_t x1 = V(3, 0, 0, 1), x2 = V(3, 0, 0, 2), y1 = V(4, 0, 0, 1);
  s.req(0, V(1, 0, 0, 0), 1);
  s.req(2, x1, 3);
  s.req(6, x2, 3);
  s.req(10, y1, 4);
  s.done(15, 0, V(1, 0, 0, 0));
  s.done(18, 0, y1);
  s.run_to(22);
  EXPECT_TRUE(s.ev.at(16).by_lowest_score);
  EXPECT_FALSE(s.ev.at(16).tie_oldest);
  EXPECT_FALSE(s.ev.at(16).by_batch_over_lower_score);
  EXPECT_EQ(s.out.at(18).disp_vpn, y1);
  EXPECT_EQ(s.out.at(18).disp_iid, 4u);
  EXPECT_TRUE(s.ev.at(19).by_lowest_score);
  EXPECT_TRUE(s.ev.at(19).tie_oldest);
  EXPECT_EQ(s.out.at(21).disp_vpn, x1);
}

// simt, B 4, K 1, L 1. Three instructions of one request each, all est 4:
// T1 (iid 6) entry 0 in c7, T2 (iid 7) entry 1 in c11, T3 (iid 8) entry 2
// in c15. Dispatches at edges 16 (done c15), 19 (done c18), 22 (done c21):
// ties at score 4 go to the oldest each time: T1, T2, then T3 alone (no
// tie).
TEST(WalkSched, OldestOnTie) {
  Sim s(mk(WalkPolicy::Simt, 4, 1));
  const uint64_t t1 = V(6, 0, 0, 0), t2 = V(7, 0, 0, 0), t3 = V(8, 0, 0, 0);
  s.req(0, V(1, 0, 0, 0), 1);
  s.req(2, t1, 6);
  s.req(6, t2, 7);
  s.req(10, t3, 8);
  s.done(15, 0, V(1, 0, 0, 0));
  s.done(18, 0, t1);
  s.done(21, 0, t2);
  s.run_to(25);
  EXPECT_TRUE(s.ev.at(16).tie_oldest);
  EXPECT_TRUE(s.ev.at(19).tie_oldest);
  EXPECT_TRUE(s.ev.at(22).by_lowest_score);
  EXPECT_FALSE(s.ev.at(22).tie_oldest);
  EXPECT_EQ(s.out.at(18).disp_vpn, t1);
  EXPECT_EQ(s.out.at(21).disp_vpn, t2);
  EXPECT_EQ(s.out.at(24).disp_vpn, t3);
}

// simt, B 4, K 1, L 1, AT 2 (AB 2), PE {4, 4, 4}.
// c0 R0 (iid 1, Q = V(1,1,1,0)) bypasses in c1; done(Q) at c2: f valid in
// c3, g in c4, Q's prefixes written at edge 4. c2 R1 (iid 2, Z = V(2,0,0,0))
// bypasses in c3 (walker free again) and keeps the walker until c21.
// c4 R2 (iid 10, Z2 = V(3,0,0,0)): est 4 in c5 (level-1 prefix 3 missing)
// -> a4 c8 -> entry 0 (10, 4, credit 2) in c9.
// c8 R3 (iid 11, Q1), c12 R4 (iid 12, Q2), c16 R5 (iid 13, Q3) (each in the
// previous one's a4 cycle): scored in c9, c13, c17, after the write: all hit
// levels 1-3 -> est 1 -> entries 1, 2, 3 at score 1 (c13, c17, c21).
// done(Z) at c21 -> c22: keys of c21, last_iid 2: lowest 1, tie -> entry 1
// (Q1); entry 0 is passed: credit 2 -> 1.
// c23: R6 (iid 14, Q4) accepted (count 3, a1 .. a4 empty); done(Q1).
// c24: keys of c23 [Z2 (cr 1), Q2, Q3]: Q2 (entry 1); Z2 credit 1 -> 0. R6
// is in a1 (count 3: scored, est 1).
// c25: done(Q2); cooldown 1. c26: keys of c25 [Z2 (cr 0), Q3]: Q3; Z2 has
// no credit left -> aged ("aged once more than AT younger requests were
// dispatched before it": 3).
// c27: R6's a4 appends it (entry 1, score 1, in c28). c28: done(Q3) (the
// keys of c27 hold Z2 alone, and the walker is busy). c29: keys of c28 [Z2
// aged, Q4 (score 1)]: the aged Z2 ({0,0,0,0}) wins over Q4's lower score;
// disp c31 with acc 4.
TEST(WalkSched, AgingOverridesScore) {
  Sim s(mk(WalkPolicy::Simt, 4, 1, 2, 2, pe({4, 4, 4})));
  const uint64_t q = V(1, 1, 1, 0), z = V(2, 0, 0, 0), z2 = V(3, 0, 0, 0);
  const uint64_t q1 = V(1, 1, 1, 5), q2 = V(1, 1, 1, 6), q3 = V(1, 1, 1, 7), q4 = V(1, 1, 1, 8);
  s.req(0, q, 1);
  s.done(2, 0, q);
  s.req(2, z, 2);
  s.req(4, z2, 10);
  s.req(8, q1, 11);
  s.req(12, q2, 12);
  s.req(16, q3, 13);
  s.done(21, 0, z);
  s.req(23, q4, 14);
  s.done(23, 0, q1);
  s.done(25, 0, q2);
  s.done(28, 0, q3);
  s.run_to(21);
  ASSERT_EQ(s.m.count(), 4u);
  const uint32_t score[] = {4, 1, 1, 1};
  for (unsigned i = 0; i < 4; ++i) EXPECT_EQ(s.m.score_of(i), score[i]) << i;
  EXPECT_EQ(s.m.credit_of(0), 2u);
  s.run_to(23);
  EXPECT_TRUE(s.ev.at(22).tie_oldest);
  EXPECT_EQ(s.m.credit_of(0), 1u);
  s.run_to(25);
  EXPECT_TRUE(s.accepted(23));
  EXPECT_EQ(s.m.credit_of(0), 0u);
  EXPECT_FALSE(s.m.aged(0));
  s.run_to(27);
  EXPECT_TRUE(s.ev.at(26).aged_set);
  EXPECT_TRUE(s.m.aged(0));
  EXPECT_EQ(s.m.count(), 1u);
  EXPECT_TRUE(s.m.a4_valid());
  s.run_to(28);
  EXPECT_EQ(s.m.count(), 2u);
  EXPECT_EQ(s.m.vpn_of(1), q4);
  EXPECT_EQ(s.m.score_of(1), 1u);
  s.run_to(32);
  EXPECT_FALSE(s.ev.at(28).selection) << "walker busy until the done edge 28";
  EXPECT_TRUE(s.ev.at(29).selection);
  EXPECT_TRUE(s.ev.at(29).by_age);
  EXPECT_FALSE(s.ev.at(29).by_lowest_score);
  EXPECT_EQ(s.disp_cycles(), (std::vector<unsigned>{3, 5, 24, 26, 28, 31}));
  EXPECT_EQ(s.out.at(24).disp_vpn, q1);
  EXPECT_EQ(s.out.at(26).disp_vpn, q2);
  EXPECT_EQ(s.out.at(28).disp_vpn, q3);
  EXPECT_EQ(s.out.at(31).disp_vpn, z2);
  EXPECT_EQ(s.out.at(31).disp_iid, 10u);
  EXPECT_EQ(s.out.at(31).disp_acc, 4u);
  // With aging out of the way (a huge AT), the same script dispatches Q4
  // (score 1) before Z2 (score 4).
  Sim n(mk(WalkPolicy::Simt, 4, 1, 2, 1000, pe({4, 4, 4})));
  n.script = s.script;
  n.run_to(32);
  EXPECT_FALSE(n.ev.at(26).aged_set);
  EXPECT_EQ(n.out.at(31).disp_vpn, q4);
}

// ===========================================================================
// PWC counters and replacement

// simt, B 4, K 2, L 1, PE {2, 2, 2} (one node bit per level). The shared
// script (P_x = V(x,0,0,0): level prefixes x, {x,0}, {x,0,0}):
// c0 R0 (P_a, a = 1) bypasses to walker 0 (c1); done(P_a) at c2 -> f valid
// in c3: victim entry 0 of each level (both invalid, node 0 -> lower; g not
// valid) -> g in c4 -> at edge 4 P_a is written to entry 0 and becomes MRU:
// node 1.
// c2 R1 (P_b, b = 2) bypasses to walker 0 (c3; its d lookup in c4 misses:
// P_a is written at the edge of c4); done(P_b) at c4 -> f in c5 (g not
// valid in c5): the invalid entry 1 -> written at edge 6; MRU -> node 0
// (entry 0 is the less recently used).
// c4 R2 (P_c, c = 3) bypasses to walker 0 (c5); c6 R3 (P_d = V(4,0,0,0))
// bypasses to walker 1 (c7); both walks miss every level in their d
// lookups (c6, c8: no LRU change).
// c8 R4 (iid 11, V(1,0,0,5)): both walkers busy -> scored in c9: it hits
// entry 0 of every level -> est 1, entry-0 counters 0 -> 1 at edge 9; a2
// c10, a3 c11, a4 c12, buffer entry in c13.
void pwc_script(Sim& s) {
  s.req(0, V(1, 0, 0, 0), 1);
  s.done(2, 0, V(1, 0, 0, 0));
  s.req(2, V(2, 0, 0, 0), 2);
  s.done(4, 0, V(2, 0, 0, 0));
  s.req(4, V(3, 0, 0, 0), 10);
  s.req(6, V(4, 0, 0, 0), 20);
  s.req(8, V(1, 0, 0, 5), 11);
}

// Continuing the script: done(P_c) at c13 -> f valid in c14 -> P_c's
// victims are decided from the state of c14 (nothing touched the PWC since
// edge 9; g not valid): no entry is invalid; entry 0 has ctr 1, entry 1 ctr 0
// -> eligible {1}. The node points at entry 0 (LRU) but that side has no
// eligible entry -> entry 1 (P_b): "avoid replacing an entry with a counter
// value greater than zero" (pwc_protected_skip at edge 14, the decide edge).
// g = (P_c, victims {1, 1, 1}) in c15; the write at edge 15 misses P_c's
// prefixes -> entry 1 of each level takes P_c, ctr 0; P_a survives; the new
// tags are visible in c16. c14: walker 0 free; keys of c13 -> R4 (the only
// entry, appended at edge 12) dispatched at edge 14; its d lookup in c15 hits P_a in all three
// levels (the write of that edge goes to entry 1) -> acc 1 in c16, entry-0
// counters back to 0 at edge 15.
TEST(WalkSched, CounterProtectedPwcEntrySurvivesReplacement) {
  Sim s(mk(WalkPolicy::Simt, 4, 2, 2, 1000, pe({2, 2, 2})));
  pwc_script(s);
  s.done(13, 0, V(3, 0, 0, 0));
  s.run_to(13);
  for (unsigned c : {3u, 5u, 7u}) EXPECT_TRUE(s.ev.at(c).bypass) << c;
  EXPECT_FALSE(s.ev.at(9).bypass);
  for (unsigned l = 1; l <= 3; ++l) {
    EXPECT_EQ(s.m.pwc_ctr(l, 0), 1u) << l;
    EXPECT_EQ(s.m.pwc_ctr(l, 1), 0u) << l;
  }
  EXPECT_EQ(s.m.score_of(0), 1u) << "est 1: hit in level LV - 1";
  s.run_to(14);
  EXPECT_TRUE(s.m.f_valid());
  EXPECT_FALSE(s.m.g_valid());
  EXPECT_FALSE(s.ev.at(13).pwc_protected_skip) << "no decision at the done edge";
  EXPECT_EQ(s.m.pwc_tag(1, 1), tag1(2)) << "P_c not written in c14";
  s.run_to(15);
  EXPECT_TRUE(s.ev.at(14).pwc_protected_skip) << "the decide edge";
  EXPECT_FALSE(s.ev.at(14).pwc_all_counters_nonzero);
  EXPECT_FALSE(s.ev.at(14).pwc_victim_excluded);
  EXPECT_TRUE(s.ev.at(14).selection);
  EXPECT_FALSE(s.m.f_valid());
  EXPECT_TRUE(s.m.g_valid());
  EXPECT_EQ(s.m.g_vpn(), V(3, 0, 0, 0));
  for (unsigned l = 1; l <= 3; ++l) EXPECT_EQ(s.m.g_victim(l), 1u) << l;
  EXPECT_EQ(s.m.pwc_tag(1, 1), tag1(2)) << "P_c not written in c15 either";
  EXPECT_EQ(s.m.pwc_acc(V(1, 0, 0, 5)), 1u) << "the PWC seen by R4's d lookup in c15";
  s.run_to(16);
  EXPECT_FALSE(s.ev.at(15).pwc_protected_skip) << "the write edge decides nothing";
  EXPECT_TRUE(s.ev.at(15).pwc_hit_dispatch);
  EXPECT_FALSE(s.m.g_valid());
  EXPECT_EQ(s.m.pwc_tag(1, 0), tag1(1));
  EXPECT_EQ(s.m.pwc_tag(1, 1), tag1(3));
  EXPECT_EQ(s.m.pwc_tag(2, 0), tag2(1, 0));
  EXPECT_EQ(s.m.pwc_tag(2, 1), tag2(3, 0));
  EXPECT_EQ(s.m.pwc_tag(3, 0), tag3(1, 0, 0));
  EXPECT_EQ(s.m.pwc_tag(3, 1), tag3(3, 0, 0));
  for (unsigned l = 1; l <= 3; ++l) {
    EXPECT_EQ(s.m.pwc_ctr(l, 1), 0u) << "a victim gets ctr = 0";
    EXPECT_EQ(s.m.pwc_ctr(l, 0), 0u) << "decremented by R4's d lookup";
  }
  EXPECT_EQ(s.m.pwc_acc(V(1, 0, 0, 5)), 1u);
  EXPECT_EQ(s.m.pwc_acc(V(2, 0, 0, 0)), 4u) << "P_b was replaced";
  s.run_to(17);
  EXPECT_EQ(s.out.at(16).disp_vpn, V(1, 0, 0, 5));
  EXPECT_EQ(s.out.at(16).disp_acc, 1u) << "the estimate held";

  // The same script under fcfs (no counters): P_c's decision in c14 takes
  // the pseudo-LRU victim, entry 0 (P_a). R4's d lookup in c15 still hits
  // P_a (written over at the end of that edge) -> acc 1; then the write
  // replaces entry 0 ("a dispatch lookup ... may touch ... the chosen entry
  // without changing the choice").
  Sim f(mk(WalkPolicy::Fcfs, 4, 2, 2, 1000, pe({2, 2, 2})));
  pwc_script(f);
  f.done(13, 0, V(3, 0, 0, 0));
  f.run_to(17);
  EXPECT_TRUE(f.ev.at(14).selection);
  EXPECT_EQ(f.out.at(16).disp_vpn, V(1, 0, 0, 5));
  EXPECT_EQ(f.out.at(16).disp_acc, 1u);
  EXPECT_EQ(f.m.g_victim(1), 0u);
  EXPECT_EQ(f.m.pwc_tag(1, 0), tag1(3));
  EXPECT_EQ(f.m.pwc_tag(1, 1), tag1(2));
  EXPECT_EQ(f.m.pwc_ctr(1, 0), 0u);
  EXPECT_FALSE(f.ev.at(14).pwc_protected_skip);
}

// Continuing the script: c12 (R4's a4 cycle) R5 (iid 12, V(2,0,0,5)) is
// scored in c13 (count 1): hits entry 1 (P_b) of every level -> its
// counters 0 -> 1 at edge 13; a4 in c16, buffer entry from c17. done(P_c) at
// c13 -> f valid in c14 -> decided from the state of c14: no invalid entry,
// every ctr 1 > 0 -> all eligible, plain pseudo-LRU: node 0 (set at edge 6;
// the misses of c6 and c8 changed nothing) -> entry 0 (P_a) ("If all
// entries in a set have value greater than zero, then a conventional
// pseudo-LRU policy selects a victim as usual"; pwc_all_counters_nonzero at
// the decide edge 14); written at edge 15, visible in c16. c14: keys of c13
// ([R4]) -> R4 dispatched at edge 14 (count 0 in c15), whose d lookup in
// c15, the write edge, still hits P_a in every level -> acc 1 in c16
// (entry-0 counters 1 - 1 = 0, and the victim gets 0 anyway).
TEST(WalkSched, AllCountersNonZeroFallsBackToPseudoLru) {
  Sim s(mk(WalkPolicy::Simt, 4, 2, 2, 1000, pe({2, 2, 2})));
  pwc_script(s);
  s.req(12, V(2, 0, 0, 5), 12);
  s.done(13, 0, V(3, 0, 0, 0));
  s.run_to(13);
  EXPECT_TRUE(s.accepted(12));
  for (unsigned l = 1; l <= 3; ++l) {
    EXPECT_EQ(s.m.pwc_ctr(l, 0), 1u) << l;
    EXPECT_EQ(s.m.pwc_ctr(l, 1), 0u) << "R5's increment is at edge 13";
  }
  s.run_to(14);
  for (unsigned l = 1; l <= 3; ++l) EXPECT_EQ(s.m.pwc_ctr(l, 1), 1u) << l;
  EXPECT_FALSE(s.ev.at(13).pwc_all_counters_nonzero) << "no decision at the done edge";
  EXPECT_FALSE(s.ev.at(13).bypass) << "count 1: R5 is scored";
  EXPECT_EQ(s.m.count(), 1u);
  EXPECT_TRUE(s.m.a2_valid());
  EXPECT_EQ(s.m.pwc_tag(1, 0), tag1(1)) << "P_a still there in c14";
  s.run_to(15);
  EXPECT_TRUE(s.ev.at(14).pwc_all_counters_nonzero);
  EXPECT_FALSE(s.ev.at(14).pwc_protected_skip);
  EXPECT_TRUE(s.ev.at(14).selection);
  EXPECT_EQ(s.m.count(), 0u);
  for (unsigned l = 1; l <= 3; ++l) EXPECT_EQ(s.m.g_victim(l), 0u) << l;
  EXPECT_EQ(s.m.pwc_tag(1, 0), tag1(1)) << "P_a still there in c15";
  s.run_to(16);
  EXPECT_FALSE(s.ev.at(15).pwc_all_counters_nonzero);
  EXPECT_TRUE(s.ev.at(15).pwc_hit_dispatch);
  for (unsigned l = 1; l <= 3; ++l) EXPECT_EQ(s.m.pwc_ctr(l, 0), 0u) << "victim: ctr = 0";
  for (unsigned l = 1; l <= 3; ++l) EXPECT_EQ(s.m.pwc_ctr(l, 1), 1u) << "R5's increment";
  EXPECT_EQ(s.m.pwc_tag(1, 0), tag1(3));
  EXPECT_EQ(s.m.pwc_tag(1, 1), tag1(2));
  EXPECT_EQ(s.m.pwc_tag(3, 0), tag3(3, 0, 0));
  EXPECT_EQ(s.m.pwc_acc(V(1, 0, 0, 5)), 4u);
  EXPECT_EQ(s.m.pwc_acc(V(2, 0, 0, 5)), 1u);
  s.run_to(17);
  EXPECT_EQ(s.out.at(16).disp_vpn, V(1, 0, 0, 5));
  EXPECT_EQ(s.out.at(16).disp_acc, 1u) << "looked up before the write of its edge";
  EXPECT_FALSE(s.ev.at(16).score_accumulated) << "R5's instruction has no other entry";
  EXPECT_EQ(s.m.count(), 1u);
  EXPECT_EQ(s.m.vpn_of(0), V(2, 0, 0, 5));
  EXPECT_EQ(s.m.score_of(0), 1u);
}

// "Counter updates of one edge: ctr' = clamp(ctr + inc - dec, 0, 3) ...; a
// victim replaced by the fill gets ctr = 0 whatever the lookups did", and
// "the lookup's update is applied first and the write's last": edge 15 of
// the counter-protection script has an arrival lookup, a dispatch lookup and
// a fill write. As there: P_c = V(3,0,0,0) decided in c14 -> victim entry 1
// (P_b, ctr 0) of every level, written at edge 15; R4 (V(1,0,0,5)) is
// dispatched to walker 0 at edge 14 and looks up in c15, hitting entry 0
// (P_a, ctr 1): dec -> 0, MRU(0).
// c14 R6 (iid 13, V(2,0,0,6)): req_ready (a1, a2 empty, count 1) -> a1 in
// c15: count 0 (R4 left at edge 14) but both walkers busy -> scored in c15:
// it hits P_b (entry 1, still there before edge 15) in every level -> est 1
// and inc on entry 1 (0 -> 1), but entry 1 is the write's victim -> ctr 0.
// Pseudo-LRU at edge 15: MRU(0) by the lookup first (node 1), MRU(1) by the
// write last (node 0). R6: a2 c16, a3 c17, a4 c18, appended at edge 18
// (entry 0, score 0 + 1, c19).
// done(R4) at c16 (walker 0) -> f valid in c17; the PWC is unchanged since
// edge 15 (no lookup in c16: no d, no a1) -> entries P_a (ctr 0), P_c (ctr
// 0), node 0 -> victim entry 0 of every level (the reverse order at edge 15
// would have left node 1 -> entry 1). g in c18: the write at edge 18 finds
// R4's prefixes in entry 0 (P_a) -> MRU only, no replacement.
TEST(WalkSched, FillWriteAfterTheLookupsOfItsEdge) {
  Sim s(mk(WalkPolicy::Simt, 4, 2, 2, 1000, pe({2, 2, 2})));
  pwc_script(s);
  s.done(13, 0, V(3, 0, 0, 0));
  s.req(14, V(2, 0, 0, 6), 13);
  s.done(16, 0, V(1, 0, 0, 5));
  s.run_to(15);
  EXPECT_TRUE(s.accepted(14));
  EXPECT_TRUE(s.m.a1_valid());
  EXPECT_TRUE(s.m.d_valid());
  EXPECT_TRUE(s.m.g_valid());
  for (unsigned l = 1; l <= 3; ++l) EXPECT_EQ(s.m.g_victim(l), 1u) << l;
  EXPECT_EQ(s.m.pwc_acc(V(2, 0, 0, 6)), 1u) << "R6's estimate in c15 sees P_b";
  s.run_to(16);
  EXPECT_FALSE(s.ev.at(15).bypass);
  EXPECT_TRUE(s.m.a2_valid());
  for (unsigned l = 1; l <= 3; ++l) {
    EXPECT_EQ(s.m.pwc_ctr(l, 1), 0u) << "written victim: ctr 0 despite R6's increment";
    EXPECT_EQ(s.m.pwc_ctr(l, 0), 0u) << "R4's decrement";
  }
  EXPECT_EQ(s.m.pwc_tag(1, 1), tag1(3));
  s.run_to(18);
  EXPECT_EQ(s.m.count(), 0u);
  EXPECT_TRUE(s.m.a4_valid());
  EXPECT_TRUE(s.m.g_valid());
  EXPECT_EQ(s.m.g_vpn(), V(1, 0, 0, 5));
  for (unsigned l = 1; l <= 3; ++l) EXPECT_EQ(s.m.g_victim(l), 0u) << "node 0: the write's MRU was applied last";
  EXPECT_FALSE(s.ev.at(17).pwc_protected_skip);
  EXPECT_FALSE(s.ev.at(17).pwc_all_counters_nonzero);
  s.run_to(19);
  EXPECT_EQ(s.m.pwc_tag(1, 0), tag1(1)) << "the write found R4's prefix: no replacement";
  EXPECT_EQ(s.m.pwc_tag(1, 1), tag1(3));
  ASSERT_EQ(s.m.count(), 1u);
  EXPECT_EQ(s.m.vpn_of(0), V(2, 0, 0, 6));
  EXPECT_EQ(s.m.score_of(0), 1u);
}

// Counter arithmetic of one edge: "ctr' = clamp(ctr + inc - dec, 0, 3)".
// simt, B 4, K 1, L 1, PE {4,4,4}. R0 = V(1,1,1,0) bypasses; done at c2
// -> decided in c3, written at edge 4, before the first scoring lookup (c5).
// R1 (iid 2, V(2,0,0,0)) bypasses (c3) and holds the walker.
// Four requests V(1,1,1,k) (iids 3..6) at c4, 8, 12, 16 (each in the
// previous one's a4 cycle; count + 1 <= 3 < 4) are scored in c5, 9, 13, 17
// and hit entry 0 of every level: counters 1, 2, 3, 3 (the fourth increment
// is clipped: "saturating at 3"); the last a4 in c20, count 4 in c21.
TEST(WalkSched, PwcCounterSaturatesAtThree) {
  Sim s(mk(WalkPolicy::Simt, 4, 1, 2, 1000, pe({4, 4, 4})));
  s.req(0, V(1, 1, 1, 0), 1);
  s.done(2, 0, V(1, 1, 1, 0));
  s.req(2, V(2, 0, 0, 0), 2);
  for (unsigned k = 0; k < 4; ++k) s.req(4 + 4 * k, V(1, 1, 1, 1 + k), 3 + k);
  s.run_to(21);
  for (unsigned k = 0; k < 4; ++k) EXPECT_TRUE(s.accepted(4 + 4 * k)) << k;
  // a1 of the k-th request in c5 + 4k: increments at edges 5, 9, 13, 17.
  EXPECT_FALSE(s.ev.at(13).pwc_ctr_saturated);
  EXPECT_TRUE(s.ev.at(17).pwc_ctr_saturated);
  for (unsigned l = 1; l <= 3; ++l) EXPECT_EQ(s.m.pwc_ctr(l, 0), 3u);
  EXPECT_EQ(s.m.count(), 4u);
}

// ===========================================================================
// Back-pressure and baselines

// fcfs, B 4, K 1, L 1. R0 bypasses (c1) and holds the walker until c14.
// R1..R4 at c2, c4, c6, c8 are appended at c3, c5, c7, c9 ("1 per 2
// cycles") -> count 4 = B in c10. R5 is driven from c10 on: refused in
// c10..c15 (blocked_full), done(R0) at c14 -> c15 dispatches R1 (keys of
// c14) -> count 3 in c16 -> R5 accepted at edge 16, appended at edge 17.
TEST(WalkSched, BufferFullBackPressure) {
  Sim s(mk(WalkPolicy::Fcfs, 4, 1));
  for (unsigned k = 0; k < 5; ++k) s.req(2 * k, V(1, 0, 0, k), 0);
  for (unsigned c = 10; c <= 16; ++c) s.req(c, V(1, 0, 0, 5), 0);
  s.done(14, 0, V(1, 0, 0, 0));
  s.run_to(19);
  const bool ready[] = {1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0};
  const unsigned count[] = {0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 4, 4, 4, 4, 3, 3, 4};
  for (unsigned c = 0; c < 19; ++c) {
    EXPECT_EQ(s.out.at(c).req_ready, ready[c]) << "c" << c;
    EXPECT_EQ(s.out.at(c).count, count[c]) << "c" << c;
    EXPECT_EQ(s.ev.at(c).blocked_full, c >= 10 && c <= 15) << "c" << c;
  }
  EXPECT_TRUE(s.ev.at(15).selection);
  EXPECT_EQ(s.out.at(17).disp_vpn, V(1, 0, 0, 1));
  EXPECT_EQ(s.m.vpn_of(3), V(1, 0, 0, 5));

  // simt accepts 1 request per 4 cycles ("a1, a2 and a3 empty and count +
  // (1 if a4 valid) < B"): R0 at c0 bypasses; R1 at c2 is in a1 (c3), a2
  // (c4), a3 (c5), a4 (c6); R2 at c6 (count 0 + 1 < 4), R3 at c10 (1 + 1),
  // R4 at c14 (2 + 1); in c18, R4's a4 cycle, count 3 + 1 = B -> 0; count 4
  // from c19 (blocked_full from c19).
  Sim t(mk(WalkPolicy::Simt, 4, 1));
  for (unsigned c = 0; c < 21; ++c) t.req(c, V(1, 0, 0, c), c);
  t.run_to(21);
  const bool simt_ready[] = {1, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0};
  for (unsigned c = 0; c < 21; ++c) EXPECT_EQ(t.out.at(c).req_ready, simt_ready[c]) << "c" << c;
  EXPECT_EQ(t.out.at(18).count, 3u);
  EXPECT_EQ(t.m.count(), 4u);
  EXPECT_TRUE(t.ev.at(19).blocked_full);
  EXPECT_FALSE(t.ev.at(18).blocked_full);
}

// fcfs, B 4, K 1, L 1. R0 (iid 3) bypasses (c1). R1..R3 (iids 9, 1, 5: not
// used for the choice) at c2, c4, c6 -> entries 0..2 by c8. done at c8,
// c11, c14: dispatches at c9, c12, c15 (keys one cycle old; cooldown 1 in
// c10, c13) of the oldest each time: R1, R2, R3 (disp c11, c14, c17). fcfs
// carries the iid: the buffer stores it and disp_iid_o is each request's
// own iid (3 for the bypassed R0, then 9, 1, 5), not the order of iids.
TEST(WalkSched, FcfsTakesTheOldest) {
  Sim s(mk(WalkPolicy::Fcfs, 4, 1));
  const uint64_t r[] = {V(7, 0, 0, 0), V(1, 0, 0, 1), V(1, 0, 0, 2), V(1, 0, 0, 3)};
  const uint32_t iid[] = {3, 9, 1, 5};
  for (unsigned k = 0; k < 4; ++k) s.req(2 * k, r[k], iid[k]);
  s.done(8, 0, r[0]);
  s.done(11, 0, r[1]);
  s.done(14, 0, r[2]);
  s.run_to(8);
  ASSERT_EQ(s.m.count(), 3u);
  for (unsigned i = 0; i < 3; ++i) EXPECT_EQ(s.m.iid_of(i), iid[i + 1]) << "the buffer stores the iid";
  s.run_to(18);
  EXPECT_EQ(s.disp_cycles(), (std::vector<unsigned>{3, 11, 14, 17}));
  for (unsigned k = 0; k < 4; ++k) {
    const unsigned c = s.disp_cycles()[k];
    EXPECT_EQ(s.out.at(c).disp_vpn, r[k]) << k;
    EXPECT_EQ(s.out.at(c).disp_iid, iid[k]) << k;
  }
  for (unsigned c : {9u, 12u, 15u}) EXPECT_TRUE(s.ev.at(c).selection) << c;
  EXPECT_FALSE(s.ev.at(9).by_lowest_score) << "no score classes outside simt";
}

// Independent LFSR of the document: s' = {s[14:0], s[15]^s[13]^s[12]^s[10]}.
uint16_t lfsr_next(uint16_t s) {
  const unsigned fb = ((s >> 15) ^ (s >> 13) ^ (s >> 12) ^ (s >> 10)) & 1u;
  return static_cast<uint16_t>(((s << 1) & 0xFFFFu) | fb);
}

// By hand from 16'hACE1 = 1010_1100_1110_0001: s[15]=1, s[13]=1, s[12]=0,
// s[10]=1 -> fb 1 -> 0101_1001_1100_0011 = 59C3; then fb = 0^0^1^0 = 1 ->
// B387; fb = 1^1^1^0 = 1 -> 670F; fb = 0^1^0^1 = 0 -> CE1E; fb = 1^0^0^1 = 0
// -> 9C3C.
// random, B 16 (r = s[3:0]), K 1, G 2 -> L = 2. R0 bypasses (c1); R1..R5 at
// c2, 4, ..., 10 -> entries 0..4, count 5 from c12.
// done(R0) at c27 -> dispatch in c28 from the keys of c26: s26 = 5774 ->
// r = 4 < 5 -> entry 4 (R5).
// done(R5) at c30 -> c31 (cooldown 2, 1 in c29, c30): keys of c29: s29 =
// BBA2 -> r = 2 (count 4) -> R3.
// done(R3) at c33 -> c34: keys of c32: s32 = DD17 -> r = 7 >= 3 -> "else the
// oldest": R1. done(R1) at c36 -> c37: keys of c35: r = F -> R2; done(R2) at
// c39 -> c40: keys of c38: r = 8 -> R4.
TEST(WalkSched, RandomFollowsTheLfsr) {
  const uint16_t hand[] = {0xACE1, 0x59C3, 0xB387, 0x670F, 0xCE1E, 0x9C3C};
  uint16_t x = 0xACE1;
  for (unsigned c = 0; c + 1 < 6; ++c) {
    EXPECT_EQ(lfsr_next(x), hand[c + 1]) << c;
    x = lfsr_next(x);
  }
  Sim s(mk(WalkPolicy::Random, 16, 1));
  ASSERT_EQ(s.m.params().select_latency, 2u);
  const uint64_t r[] = {V(9, 0, 0, 0), V(1, 0, 0, 1), V(1, 0, 0, 2), V(1, 0, 0, 3), V(1, 0, 0, 4), V(1, 0, 0, 5)};
  for (unsigned k = 0; k < 6; ++k) s.req(2 * k, r[k]);
  s.done(27, 0, r[0]);
  s.done(30, 0, r[5]);
  s.done(33, 0, r[3]);
  s.done(36, 0, r[1]);
  s.done(39, 0, r[2]);
  uint16_t lf = 0xACE1;
  for (unsigned c = 0; c < 44; ++c) {
    if (c < 6) {
      EXPECT_EQ(s.m.lfsr(), hand[c]) << "c" << c;
    }
    EXPECT_EQ(s.m.lfsr(), lf) << "c" << c;
    s.step();
    lf = lfsr_next(lf);
  }
  EXPECT_EQ(s.disp_cycles(), (std::vector<unsigned>{3, 30, 33, 36, 39, 42}));
  const unsigned order[] = {0, 5, 3, 1, 2, 4};
  for (unsigned k = 0; k < 6; ++k) EXPECT_EQ(s.out.at(s.disp_cycles().at(k)).disp_vpn, r[order[k]]) << k;
}

// ===========================================================================
// Selection pipeline

// fcfs, B 16, K 1, G 1 -> L = 4. R0 bypasses (c1): cooldown 4 in c2 .. 0 in
// c6. R1 at c2 -> entry 0 from c4. done(R0) at c4 -> walker free from c5.
// The result register in cT holds the keys of c(T-4): c4 .. c7 (keys of c0
// .. c3) see an empty buffer; c8 (keys of c4) sees R1 -> dispatch at edge 8,
// disp c10. c9, c10 (keys of c5, c6) still show R1, which has left: stale
// results, which cooldown (1 .. 4 in c9 .. c12) keeps from dispatching.
// c0 .. c3: the pipeline after reset holds no candidate.
TEST(WalkSched, SelectionSeesTheBufferLCyclesLate) {
  Sim s(mk(WalkPolicy::Fcfs, 16, 1, 1));
  ASSERT_EQ(s.m.params().select_latency, 4u);
  s.req(0, V(1, 0, 0, 0));
  s.req(2, V(1, 0, 0, 1));
  s.done(4, 0, V(1, 0, 0, 0));
  std::vector<bool> sel;
  for (unsigned c = 0; c < 11; ++c) {
    sel.push_back(s.m.sel_valid());
    s.step();
  }
  const std::vector<bool> want = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1};
  EXPECT_EQ(sel, want);
  EXPECT_EQ(s.out.at(5).count, 1u);
  EXPECT_EQ(s.out.at(6).busy, 0u);
  EXPECT_EQ(s.out.at(6).count, 1u) << "free walker, cooldown 0, an entry: yet no dispatch before c8";
  EXPECT_TRUE(s.ev.at(8).selection);
  for (unsigned c = 5; c < 8; ++c) EXPECT_FALSE(s.ev.at(c).selection) << c;
  EXPECT_EQ(s.disp_cycles(), (std::vector<unsigned>{3, 10}));
}

// fcfs, B 16, K 2, G 1 -> L 4. R0 bypasses to walker 0 (c1), R1 to walker 1
// (c3: cooldown 4 in c4 .. 0 in c8). R2, R3, R4 at c4, c6, c8 -> entries in
// c6, c8, c10. done(R0) at c10, done(R1) at c11.
// c11: keys of c7 ([R2]) -> R2 to walker 0; cooldown 4 in c12, 0 in c16.
// c12..c15: walker 1 is free and sel_valid = 1 (keys of c8..c11 still show
// R2), but cooldown > 0: no dispatch. c16: keys of c12 ([R3, R4]) -> R3 to
// walker 1 = c11 + L + 1. done(R2) at c20 -> c21 (cooldown 0 again): keys
// of c17 -> R4 to walker 0.
TEST(WalkSched, CooldownSpacesSelections) {
  Sim s(mk(WalkPolicy::Fcfs, 16, 2, 1));
  const uint64_t r[] = {V(1, 0, 0, 0), V(1, 0, 0, 1), V(1, 0, 0, 2), V(1, 0, 0, 3), V(1, 0, 0, 4)};
  for (unsigned k = 0; k < 5; ++k) s.req(2 * k, r[k]);
  s.done(10, 0, r[0]);
  s.done(11, 1, r[1]);
  s.done(20, 0, r[2]);
  std::vector<unsigned> cooldown;
  std::vector<bool> sel;
  for (unsigned c = 0; c < 24; ++c) {
    cooldown.push_back(s.m.cooldown());
    sel.push_back(s.m.sel_valid());
    s.step();
  }
  EXPECT_TRUE(s.ev.at(1).bypass);
  EXPECT_TRUE(s.ev.at(3).bypass);
  for (unsigned c = 12; c <= 16; ++c) EXPECT_EQ(cooldown[c], 16 - c) << "c" << c;
  for (unsigned c = 12; c <= 15; ++c) {
    EXPECT_TRUE(sel[c]) << "c" << c;
    EXPECT_FALSE(s.ev.at(c).selection) << "c" << c;
  }
  EXPECT_TRUE(s.ev.at(11).selection);
  EXPECT_TRUE(s.ev.at(16).selection);
  EXPECT_TRUE(s.ev.at(21).selection);
  EXPECT_EQ(s.disp_cycles(), (std::vector<unsigned>{3, 5, 13, 18, 23}));
  EXPECT_EQ(s.out.at(13).disp_vpn, r[2]);
  EXPECT_EQ(s.out.at(13).disp_walker, 0u);
  EXPECT_EQ(s.out.at(18).disp_vpn, r[3]);
  EXPECT_EQ(s.out.at(18).disp_walker, 1u);
  EXPECT_EQ(s.out.at(23).disp_vpn, r[4]);
  EXPECT_EQ(s.out.at(23).disp_walker, 0u);
}

// ===========================================================================
// PWC estimate and replacement order

// One walk through the bypass: request in cc, bypass in c(c+1), d lookup and
// done in c(c+2) (when the next walk's request may be driven); f is valid
// in c(c+3) (decide), g in c(c+4), the write lands at edge c+4, visible from
// c(c+5). Returns with the model in c(c+2). K = 1, empty buffer.
void walk(Sim& s, uint64_t vpn) {
  const unsigned c = s.cyc;
  s.req(c, vpn, 1);
  s.done(c + 2, 0, vpn);
  s.run_to(c + 2);
}

// "acc = LV - (deepest hit level) memory accesses, LV on no hit".
// fcfs, B 4, K 1, PE {1, 2, 2}. Walk P1 = V(1,1,1,0) (done c2, decided c3,
// written at edge 4; checked in c5): prefixes 1, {1,1}, {1,1,1}:
// acc(V(1,1,1,9)) = 1 (deepest 3), acc(V(1,1,2,0)) = 2, acc(V(1,2,0,0)) = 3,
// acc(V(2,0,0,0)) = 4.
// Walk P2 = V(2,2,2,0): level 1 has one entry -> prefix 1 replaced by 2;
// levels 2, 3 take their invalid entry 1. Now V(1,1,1,9) misses level 1 but
// hits levels 2 and 3 -> deepest 3 -> 1 (the deepest hit counts);
// V(1,1,2,0) -> level 2 only -> 2; V(1,2,0,0) -> 4.
// A dispatch of V(1,1,1,9) then carries disp_acc = 1.
// Timing of the second part: P1 c0-c2 (write edge 4), P2 request c2, bypass
// c3, d lookup c4 (before P1's write of edge 4: misses; V(2,2,2,0) would
// miss anyway), done c4, decided c5 (level 1: its only entry, valid; levels
// 2, 3: the invalid entry 1; g is not valid in c5), written at edge 6. Two
// idle cycles (c4, c5), then the third walk: request c6, bypass c7, d lookup
// c8, after P2's write.
TEST(WalkSched, PwcEstimateByDeepestHit) {
  Sim s(mk(WalkPolicy::Fcfs, 4, 1, 2, 1000, pe({1, 2, 2})));
  EXPECT_EQ(s.m.pwc_acc(V(1, 1, 1, 0)), 4u);
  walk(s, V(1, 1, 1, 0));
  s.run_to(s.cyc + 1);
  EXPECT_TRUE(s.m.f_valid());
  EXPECT_EQ(s.m.pwc_acc(V(1, 1, 1, 9)), 4u) << "c3: decided, not written";
  s.run_to(s.cyc + 1);
  EXPECT_TRUE(s.m.g_valid());
  EXPECT_EQ(s.m.pwc_acc(V(1, 1, 1, 9)), 4u) << "c4: written at edge 4";
  s.run_to(s.cyc + 1);
  EXPECT_EQ(s.m.pwc_acc(V(1, 1, 1, 9)), 1u);
  EXPECT_EQ(s.m.pwc_acc(V(1, 1, 2, 0)), 2u);
  EXPECT_EQ(s.m.pwc_acc(V(1, 2, 0, 0)), 3u);
  EXPECT_EQ(s.m.pwc_acc(V(2, 0, 0, 0)), 4u);
  Sim t(mk(WalkPolicy::Fcfs, 4, 1, 2, 1000, pe({1, 2, 2})));
  walk(t, V(1, 1, 1, 0));
  walk(t, V(2, 2, 2, 0));
  t.run_to(6);
  walk(t, V(1, 1, 1, 9));
  // The third walk: request c6, bypass c7, d lookup c8, disp c9; in c8 its
  // own fill (done c8, written at edge 10) has not happened yet: the PWCs
  // are those after P2's write (edge 6).
  ASSERT_EQ(t.cyc, 8u);
  EXPECT_EQ(t.m.pwc_tag(1, 0), tag1(2));
  EXPECT_EQ(t.m.pwc_acc(V(1, 1, 1, 9)), 1u) << "level 1 misses, level 3 hits";
  EXPECT_EQ(t.m.pwc_tag(2, 1), tag2(2, 2));
  EXPECT_EQ(t.m.pwc_acc(V(1, 2, 0, 0)), 4u);
  EXPECT_EQ(t.m.pwc_acc(V(1, 1, 2, 0)), 2u);
  EXPECT_EQ(t.m.pwc_acc(V(2, 2, 3, 0)), 2u);
  EXPECT_EQ(t.m.pwc_acc(V(2, 3, 0, 0)), 3u);
  t.run_to(10);
  EXPECT_EQ(t.out.at(9).disp_vpn, V(1, 1, 1, 9));
  EXPECT_EQ(t.out.at(9).disp_acc, 1u);
  EXPECT_TRUE(t.ev.at(8).pwc_hit_dispatch);
  EXPECT_EQ(t.out.at(3).disp_acc, 4u);
  EXPECT_EQ(t.out.at(5).disp_acc, 4u);
  EXPECT_FALSE(t.ev.at(4).pwc_hit_dispatch);

  // LV 2 (X 9, VPN 20: one PWC level, TB 11): 2 on a miss, 1 on a hit
  // (walk: done c2, written at edge 4, checked in c5).
  Geometry g2;
  g2.levels = 2;
  g2.vpn = 20;
  g2.pe = {2};
  Sim u(mk(WalkPolicy::Simt, 4, 1, 2, 1000, g2));
  EXPECT_EQ(u.m.pwc_acc(0x12345), 2u);
  walk(u, 0x12345);
  u.run_to(u.cyc + 2);
  EXPECT_EQ(u.m.pwc_acc(0x123FF), 2u) << "c4: not written yet";
  u.run_to(u.cyc + 1);
  EXPECT_EQ(u.m.pwc_acc(0x123FF), 1u) << "same VPN[19:9]";
  EXPECT_EQ(u.m.pwc_acc(0x12545), 2u);
  // LV 5 (VPN 45, TB 9, 18, 27, 36): 5 on a miss, 5 - 4 = 1 on a full hit.
  Geometry g5;
  g5.levels = 5;
  g5.vpn = 45;
  g5.pe = {2, 2, 2, 2};
  Sim v(mk(WalkPolicy::Simt, 4, 1, 2, 1000, g5));
  const uint64_t big = (uint64_t{3} << 36) | (uint64_t{5} << 27) | (uint64_t{7} << 18) | (uint64_t{9} << 9);
  EXPECT_EQ(v.m.pwc_acc(big), 5u);
  walk(v, big);
  v.run_to(v.cyc + 3);
  EXPECT_EQ(v.m.pwc_acc(big | 1), 1u);
  EXPECT_EQ(v.m.pwc_acc(big ^ (uint64_t{1} << 18)), 3u) << "levels 1, 2 hit";
  EXPECT_EQ(v.out.at(3).disp_acc, 5u);
}

// Tree pseudo-LRU of a 4-entry level (nodes: root n1, n2 over entries 0-1,
// n3 over 2-3; all 0 at reset). fcfs (no counters), PE {4, 4, 4}, walks of
// V(x,0,0,0) (distinct prefixes at every level; level 1 checked).
// A: all invalid, n1 0 -> n2 0 -> entry 0; MRU(0): n2 = 1, n1 = 1.
// B: invalid {1,2,3}; n1 1 -> n3 0 -> entry 2; MRU(2): n3 = 1, n1 = 0.
// C: invalid {1,3}; n1 0 -> n2 1 -> entry 1; MRU(1): n2 = 0, n1 = 1.
// D: invalid {3}; n1 1 -> n3 1 -> entry 3; MRU(3): n3 = 0, n1 = 0.
// A again (V(1,0,0,1)): the d lookup hits entry 0 -> MRU(0): n2 1, n1 1; the
// decide step still picks a victim (entry 2: n1 1 -> n3 0), but the write
// finds the prefix held: MRU(0) again, nothing replaced.
// E: all valid, all eligible: n1 1 -> n3 0 -> entry 2 (B); n3 1, n1 0.
// F: n1 0 -> n2 1 -> entry 1 (C); n2 0, n1 1.
// G: n1 1 -> n3 1 -> entry 3 (D).
// Each walk: request cc, d lookup and done c(c+2), decide in c(c+3), write
// at edge c+4; the next walk's request is driven in c(c+5), so no d lookup
// shares the cycle of a decide or a write (A again: its lookup at edge c+2,
// its decide in c+3, its write at edge c+4).
TEST(WalkSched, PseudoLruReplacementOrder) {
  Sim s(mk(WalkPolicy::Fcfs, 4, 1, 2, 1000, pe({4, 4, 4})));
  auto level1 = [&]() {
    std::vector<uint64_t> t;
    for (unsigned e = 0; e < 4; ++e) t.push_back(s.m.pwc_valid(1, e) ? s.m.pwc_tag(1, e) : 99);
    return t;
  };
  auto walk_and_settle = [&](uint64_t vpn, unsigned victim) {
    walk(s, vpn);
    s.step();  // the done edge: loads f
    EXPECT_TRUE(s.m.f_valid());
    s.step();  // the decide edge: loads g
    EXPECT_TRUE(s.m.g_valid());
    EXPECT_EQ(s.m.g_victim(1), victim) << "level-1 victim decided for " << vpn;
    s.step();  // the write edge
  };
  walk_and_settle(V(1, 0, 0, 0), 0);
  EXPECT_EQ(level1(), (std::vector<uint64_t>{1, 99, 99, 99}));
  walk_and_settle(V(2, 0, 0, 0), 2);
  EXPECT_EQ(level1(), (std::vector<uint64_t>{1, 99, 2, 99}));
  walk_and_settle(V(3, 0, 0, 0), 1);
  EXPECT_EQ(level1(), (std::vector<uint64_t>{1, 3, 2, 99}));
  walk_and_settle(V(4, 0, 0, 0), 3);
  EXPECT_EQ(level1(), (std::vector<uint64_t>{1, 3, 2, 4}));
  walk_and_settle(V(1, 0, 0, 1), 2);
  EXPECT_EQ(level1(), (std::vector<uint64_t>{1, 3, 2, 4}));
  walk_and_settle(V(5, 0, 0, 0), 2);
  EXPECT_EQ(level1(), (std::vector<uint64_t>{1, 3, 5, 4}));
  walk_and_settle(V(6, 0, 0, 0), 1);
  EXPECT_EQ(level1(), (std::vector<uint64_t>{1, 6, 5, 4}));
  walk_and_settle(V(7, 0, 0, 0), 3);
  EXPECT_EQ(level1(), (std::vector<uint64_t>{1, 6, 5, 7}));
}

// The dispatch lookup (cycle t + 1 of Dispatch) makes its hits the most
// recently used; with a fill write in the same cycle "the lookup's update is
// applied first and the write's last". fcfs, B 4, K 2, L 1, PE {2, 2, 2}
// (one node bit per level; level 1 checked). Both parts start: A =
// V(1,0,0,0) at c0 -> bypass to walker 0 at edge 1, done(A) at c2 -> f in c3
// (all invalid: entry 0) -> g in c4 -> written at edge 4: entry 0, MRU(0) ->
// node 1. B = V(2,0,0,0) at c2 -> bypass to walker 0 (free from c3) at edge
// 3, d lookup in c4 misses (A is written at that edge); done(B) at c4 -> f in
// c5 (no g in c5): the invalid entry 1 -> written at edge 6, MRU(1) -> node 0
// (A is LRU); visible from c7.
// Part 1: C = V(1,0,0,7) at c6 -> a1 in c7, bypass to walker 0 (free from
// c5) at edge 7, which keeps it; its d lookup in c8 hits A (no decide or
// write near it) -> MRU(0): node 1 (B is LRU); disp c9 with acc 1. D =
// V(3,0,0,0) at c8 -> a1 c9 -> bypass to walker 1 at edge 9; done(D) at c10
// -> f in c11: node 1 -> victim entry 1 (B) -> g in c12 -> written at edge
// 12: {1, 3} from c13 (still {1, 2} in c12). Without the lookup's update A
// would go.
// Part 2 (same edge): E = V(5,0,0,0) at c4 -> a1 c5 -> walker 0 (free from
// c5) at edge 5 (its d lookup in c6 misses: no change); done(E) at c6 -> f in
// c7: node 0 (B's MRU of edge 6) -> victim entry 0 (A) -> g in c8 -> write at
// edge 8. B2 = V(2,0,0,9) at c6 -> a1 c7 -> walker 0 (free from c7) at edge
// 7; its d lookup in c8 hits B (entry 1): at edge 8 the lookup's MRU(1)
// (node 0) comes first and the write's MRU(0) last (node 1): {5, 2} in c9.
// F = V(6,0,0,0) at c8 -> a1 in c9, walker 0 busy (B2), walker 1 free ->
// bypass at edge 9; done(F) at c10 -> f in c11: node 1 -> entry 1 (B) ->
// written at edge 12: {5, 6} in c13 (the reverse order at edge 8 would leave
// node 0 and replace E: {6, 2}).
TEST(WalkSched, DispatchLookupMakesItsHitsMostRecentlyUsed) {
  auto start = [](Sim& s) {
    s.req(0, V(1, 0, 0, 0));
    s.done(2, 0, V(1, 0, 0, 0));
    s.req(2, V(2, 0, 0, 0));
    s.done(4, 0, V(2, 0, 0, 0));
  };
  auto level1 = [](const Sim& s) {
    return std::vector<uint64_t>{s.m.pwc_tag(1, 0), s.m.pwc_tag(1, 1)};
  };
  Sim a(mk(WalkPolicy::Fcfs, 4, 2, 2, 1000, pe({2, 2, 2})));
  start(a);
  a.req(6, V(1, 0, 0, 7));
  a.req(8, V(3, 0, 0, 0));
  a.done(10, 1, V(3, 0, 0, 0));
  a.done(14, 0, V(1, 0, 0, 7));
  a.run_to(7);
  EXPECT_EQ(level1(a), (std::vector<uint64_t>{1, 2}));
  a.run_to(11);
  EXPECT_TRUE(a.ev.at(7).bypass);
  EXPECT_TRUE(a.ev.at(8).pwc_hit_dispatch);
  EXPECT_TRUE(a.ev.at(9).bypass);
  EXPECT_EQ(a.out.at(9).disp_walker, 0u);
  EXPECT_EQ(a.out.at(9).disp_acc, 1u);
  EXPECT_TRUE(a.m.f_valid());
  a.run_to(12);
  EXPECT_TRUE(a.m.g_valid());
  EXPECT_EQ(a.m.g_victim(1), 1u);
  EXPECT_EQ(level1(a), (std::vector<uint64_t>{1, 2})) << "D's write lands at edge 12";
  a.run_to(13);
  EXPECT_EQ(level1(a), (std::vector<uint64_t>{1, 3}));
  a.run_to(16);

  Sim b(mk(WalkPolicy::Fcfs, 4, 2, 2, 1000, pe({2, 2, 2})));
  start(b);
  b.req(4, V(5, 0, 0, 0));
  b.req(6, V(2, 0, 0, 9));
  b.done(6, 0, V(5, 0, 0, 0));
  b.req(8, V(6, 0, 0, 0));
  b.done(10, 1, V(6, 0, 0, 0));
  b.run_to(8);
  EXPECT_TRUE(b.m.g_valid()) << "E's write and B2's lookup share edge 8";
  EXPECT_EQ(b.m.g_victim(1), 0u);
  EXPECT_TRUE(b.m.d_valid());
  b.run_to(9);
  EXPECT_TRUE(b.ev.at(8).pwc_hit_dispatch);
  EXPECT_EQ(level1(b), (std::vector<uint64_t>{5, 2}));
  b.run_to(12);
  EXPECT_TRUE(b.ev.at(9).bypass);
  EXPECT_EQ(b.out.at(9).disp_acc, 1u) << "B2 hit every level";
  EXPECT_EQ(b.out.at(9).disp_walker, 0u);
  EXPECT_EQ(b.out.at(11).disp_vpn, V(6, 0, 0, 0));
  EXPECT_EQ(b.out.at(11).disp_walker, 1u);
  EXPECT_EQ(b.m.g_victim(1), 1u);
  b.run_to(13);
  EXPECT_EQ(level1(b), (std::vector<uint64_t>{5, 6}));
}

// "The victim is decided one edge before it is written: a dispatch lookup or
// an arrival in t + 1 may touch or count the chosen entry without changing
// the choice." fcfs, B 4, K 2, L 1, PE {2, 2, 2}, the start of the test
// above (A in entry 0, B in entry 1, node 0 from edge 6). X = V(7,0,0,0) at
// c4 -> a1 c5 -> walker 0 (free from c5) at edge 5; its d lookup in c6
// misses. C = V(1,0,0,7) at c6 -> a1 c7: walker 0 still busy in c7 -> walker
// 1 at edge 7; its d lookup in c8 hits A -> MRU(0) at edge 8 (node 1).
// done(X) at t = 7 -> f in c8 = t + 1: the victim comes from the state before
// edge 8, node 0 -> entry 0 (A), although C's lookup in the same cycle makes
// A the most recently used. g in c9, written at edge 9: {7, 2} in c10 (a
// choice from the state of c9, node 1, would have replaced B).
TEST(WalkSched, VictimIsDecidedOneEdgeBeforeTheWrite) {
  Sim s(mk(WalkPolicy::Fcfs, 4, 2, 2, 1000, pe({2, 2, 2})));
  s.req(0, V(1, 0, 0, 0));
  s.done(2, 0, V(1, 0, 0, 0));
  s.req(2, V(2, 0, 0, 0));
  s.done(4, 0, V(2, 0, 0, 0));
  s.req(4, V(7, 0, 0, 0));
  s.req(6, V(1, 0, 0, 7));
  s.done(7, 0, V(7, 0, 0, 0));
  s.run_to(8);
  EXPECT_TRUE(s.ev.at(5).bypass);
  EXPECT_TRUE(s.ev.at(7).bypass);
  EXPECT_TRUE(s.m.f_valid());
  EXPECT_TRUE(s.m.d_valid());
  EXPECT_FALSE(s.m.g_valid());
  s.run_to(9);
  EXPECT_TRUE(s.ev.at(8).pwc_hit_dispatch);
  EXPECT_TRUE(s.m.g_valid());
  for (unsigned l = 1; l <= 3; ++l) EXPECT_EQ(s.m.g_victim(l), 0u) << l;
  EXPECT_EQ(s.m.pwc_tag(1, 0), tag1(1));
  s.run_to(10);
  EXPECT_EQ(s.m.pwc_tag(1, 0), tag1(7));
  EXPECT_EQ(s.m.pwc_tag(1, 1), tag1(2));
  EXPECT_EQ(s.m.pwc_tag(3, 0), tag3(7, 0, 0));
  EXPECT_EQ(s.out.at(9).disp_vpn, V(1, 0, 0, 7));
  EXPECT_EQ(s.out.at(9).disp_walker, 1u);
  EXPECT_EQ(s.out.at(9).disp_acc, 1u);
}

// Back-to-back completions: "When the write register g is valid in t + 1 and
// PE[l] >= 2, the entry g.v[l] is left out of every class (it is being
// written at this very edge, so a back-to-back completion never picks it
// again)". B 4, K 2, L 1, PE {2, 2, 2}, fcfs and simt (every request is
// bypassed, so no counter moves: simt behaves as fcfs here). The start of the
// tests above: A in entry 0, B in entry 1, node 0 from edge 6.
// X = V(5,0,0,0) at c4 -> a1 c5 -> walker 0 (free from c5) at edge 5 (d
// lookup c6 misses). Y = V(6,0,0,0) at c6 -> a1 c7 -> walker 1 (walker 0
// busy) at edge 7 (d lookup c8 misses). done(X) at c9, done(Y) at c10.
// X: f in c10, no g in c10 -> node 0 -> entry 0 (A); g(X) in c11, written
// at edge 11. Y: f in c11 from the state before edge 11 (still {A, B}, node
// 0): g(X) is valid in c11 -> entry 0 left out -> eligible {1} -> entry 1
// (B) (without the exclusion: entry 0 again, X's). g(Y) in c12, written at
// edge 12: Y's prefixes miss (X in entry 0, B in entry 1) -> entry 1.
// Level 1: {1, 2} in c11, {5, 2} in c12, {5, 6} in c13 (without the
// exclusion Y would overwrite X: {6, 2}).
void back_to_back_script(Sim& s, uint64_t x, uint64_t y) {
  s.req(0, V(1, 0, 0, 0), 1);
  s.done(2, 0, V(1, 0, 0, 0));
  s.req(2, V(2, 0, 0, 0), 2);
  s.done(4, 0, V(2, 0, 0, 0));
  s.req(4, x, 3);
  s.req(6, y, 4);
  s.done(9, 0, x);
  s.done(10, 1, y);
}

TEST(WalkSched, BackToBackCompletionsDoNotPickTheSameVictim) {
  for (WalkPolicy pol : {WalkPolicy::Fcfs, WalkPolicy::Simt}) {
    SCOPED_TRACE(pol == WalkPolicy::Fcfs ? "fcfs" : "simt");
    Sim s(mk(pol, 4, 2, 2, 1000, pe({2, 2, 2})));
    const uint64_t x = V(5, 0, 0, 0), y = V(6, 0, 0, 0);
    back_to_back_script(s, x, y);
    s.run_to(11);
    for (unsigned c : {1u, 3u, 5u, 7u}) EXPECT_TRUE(s.ev.at(c).bypass) << c;
    EXPECT_FALSE(s.ev.at(10).pwc_victim_excluded) << "g not valid in c10";
    EXPECT_TRUE(s.m.f_valid());
    EXPECT_EQ(s.m.f_vpn(), y);
    EXPECT_TRUE(s.m.g_valid());
    EXPECT_EQ(s.m.g_vpn(), x);
    for (unsigned l = 1; l <= 3; ++l) EXPECT_EQ(s.m.g_victim(l), 0u) << l;
    EXPECT_EQ(s.m.pwc_tag(1, 0), tag1(1));
    EXPECT_EQ(s.m.pwc_tag(1, 1), tag1(2));
    s.run_to(12);
    EXPECT_TRUE(s.ev.at(11).pwc_victim_excluded);
    EXPECT_FALSE(s.ev.at(11).pwc_protected_skip);
    EXPECT_FALSE(s.ev.at(11).pwc_all_counters_nonzero);
    EXPECT_TRUE(s.m.g_valid());
    EXPECT_EQ(s.m.g_vpn(), y);
    for (unsigned l = 1; l <= 3; ++l) EXPECT_EQ(s.m.g_victim(l), 1u) << l;
    EXPECT_EQ(s.m.pwc_tag(1, 0), tag1(5));
    EXPECT_EQ(s.m.pwc_tag(1, 1), tag1(2));
    s.run_to(13);
    EXPECT_FALSE(s.m.g_valid());
    EXPECT_FALSE(s.ev.at(12).pwc_write_hit_previous_write);
    const uint64_t want1[] = {tag1(5), tag1(6)}, want2[] = {tag2(5, 0), tag2(6, 0)},
                   want3[] = {tag3(5, 0, 0), tag3(6, 0, 0)};
    for (unsigned e = 0; e < 2; ++e) {
      EXPECT_TRUE(s.m.pwc_valid(1, e));
      EXPECT_EQ(s.m.pwc_tag(1, e), want1[e]) << e;
      EXPECT_EQ(s.m.pwc_tag(2, e), want2[e]) << e;
      EXPECT_EQ(s.m.pwc_tag(3, e), want3[e]) << e;
    }
    EXPECT_EQ(s.m.pwc_acc(V(5, 0, 0, 9)), 1u);
    EXPECT_EQ(s.m.pwc_acc(V(6, 0, 0, 9)), 1u);
    EXPECT_EQ(s.m.pwc_acc(V(1, 0, 0, 0)), 4u);
    EXPECT_EQ(s.m.pwc_acc(V(2, 0, 0, 0)), 4u);
  }
  // g.v[l] is left out even when g's write only refreshes (the rule names
  // g.v[l]). fcfs, X = V(1,0,0,3) (A's prefixes), Y = V(6,0,0,0). X's d
  // lookup in c6 hits A -> MRU(0) first, then B's write of edge 6 -> MRU(1)
  // last: node 0. X decided in c10: node 0 -> entry 0 (A), although A holds
  // X's prefixes. Y decided in c11 with g(X) valid: entry 0 left out -> entry
  // 1 (B). X's write at edge 11 finds A -> MRU(0) only; Y's write at edge 12
  // misses -> entry 1: {1, 6} in c13 (were only replaced entries left out, Y
  // would take entry 0 and leave {6, 2}).
  {
    Sim s(mk(WalkPolicy::Fcfs, 4, 2, 2, 1000, pe({2, 2, 2})));
    back_to_back_script(s, V(1, 0, 0, 3), V(6, 0, 0, 0));
    s.run_to(11);
    EXPECT_TRUE(s.ev.at(6).pwc_hit_dispatch);
    for (unsigned l = 1; l <= 3; ++l) EXPECT_EQ(s.m.g_victim(l), 0u) << l;
    s.run_to(12);
    EXPECT_TRUE(s.ev.at(11).pwc_victim_excluded);
    for (unsigned l = 1; l <= 3; ++l) EXPECT_EQ(s.m.g_victim(l), 1u) << l;
    EXPECT_EQ(s.m.pwc_tag(1, 0), tag1(1)) << "X's write only refreshed A";
    s.run_to(13);
    EXPECT_EQ(s.m.pwc_tag(1, 0), tag1(1));
    EXPECT_EQ(s.m.pwc_tag(1, 1), tag1(6));
    EXPECT_EQ(s.m.pwc_tag(3, 1), tag3(6, 0, 0));
    EXPECT_EQ(s.m.pwc_acc(V(1, 0, 0, 9)), 1u);
    EXPECT_EQ(s.m.pwc_acc(V(2, 0, 0, 0)), 4u);
  }
}

// Same script with X1 = V(5,0,0,1) and X2 = V(5,1,0,0) completing at c9 and
// c10: level 1 holds one prefix for both ({5}), levels 2 and 3 differ.
// Decisions as above: X1 -> entry 0 of every level (c10), X2 -> entry 1 of
// every level (c11, X1's entry 0 left out). X1 written at edge 11: entry 0
// of every level. X2's write at edge 12 looks up the state before that edge
// ("so a fill written at the previous edge is seen"): level 1 finds {5} in
// entry 0 -> only MRU(0), entry 1 keeps B's {2}; levels 2 and 3 miss {5,1},
// {5,1,0} -> entry 1. No duplicate {5} in level 1.
TEST(WalkSched, BackToBackCompletionsOfTheSamePrefixWriteOnce) {
  for (WalkPolicy pol : {WalkPolicy::Fcfs, WalkPolicy::Simt}) {
    SCOPED_TRACE(pol == WalkPolicy::Fcfs ? "fcfs" : "simt");
    Sim s(mk(pol, 4, 2, 2, 1000, pe({2, 2, 2})));
    const uint64_t x1 = V(5, 0, 0, 1), x2 = V(5, 1, 0, 0);
    back_to_back_script(s, x1, x2);
    s.run_to(12);
    EXPECT_TRUE(s.ev.at(11).pwc_victim_excluded);
    EXPECT_EQ(s.m.g_vpn(), x2);
    for (unsigned l = 1; l <= 3; ++l) EXPECT_EQ(s.m.g_victim(l), 1u) << l;
    EXPECT_EQ(s.m.pwc_tag(1, 0), tag1(5));
    s.run_to(13);
    EXPECT_TRUE(s.ev.at(12).pwc_write_hit_previous_write);
    EXPECT_EQ(s.m.pwc_tag(1, 0), tag1(5));
    EXPECT_EQ(s.m.pwc_tag(1, 1), tag1(2)) << "level 1 written once: B survives";
    EXPECT_EQ(s.m.pwc_tag(2, 0), tag2(5, 0));
    EXPECT_EQ(s.m.pwc_tag(2, 1), tag2(5, 1));
    EXPECT_EQ(s.m.pwc_tag(3, 0), tag3(5, 0, 0));
    EXPECT_EQ(s.m.pwc_tag(3, 1), tag3(5, 1, 0));
    EXPECT_EQ(s.m.pwc_acc(V(2, 7, 7, 7)), 3u) << "B's level-1 prefix is still there";
    EXPECT_EQ(s.m.pwc_acc(V(5, 1, 0, 9)), 1u);
    EXPECT_EQ(s.m.pwc_acc(V(5, 0, 0, 9)), 1u);
  }
}

// "PE[l] >= 2": a level of one entry leaves nothing out. fcfs, PE {1, 2, 2},
// the script of the test above with X = V(5,0,0,0), Y = V(6,0,0,0). Level
// 1's single entry holds {1} after edge 4 and {2} after edge 6 (B's
// decision in c5: its only entry). X's decision in c10: entry 0 of every
// level; Y's in c11 with g(X) valid: level 1 keeps entry 0 (PE 1: no
// exclusion), levels 2 and 3 leave entry 0 out -> entry 1. X written at edge
// 11 (level 1: {5}); Y at edge 12: level 1 misses {6} (it holds {5}) ->
// entry 0 is overwritten with {6}; levels 2, 3 -> entry 1. In c13: level 1
// {6}; level 2 {{5,0}, {6,0}}: acc(V(5,0,0,9)) = 1 (level 1 misses, level 3
// hits), acc(V(6,0,0,9)) = 1, acc(V(5,0,1,0)) = 2.
// Same prefix in level 1 (X1 = V(5,0,0,1), X2 = V(5,1,0,0)): X2's write finds
// {5} (written at edge 11) and only refreshes it: level 1 {5}.
TEST(WalkSched, BackToBackCompletionsInAOneEntryLevel) {
  {
    Sim s(mk(WalkPolicy::Fcfs, 4, 2, 2, 1000, pe({1, 2, 2})));
    back_to_back_script(s, V(5, 0, 0, 0), V(6, 0, 0, 0));
    s.run_to(11);
    EXPECT_EQ(s.m.pwc_tag(1, 0), tag1(2));
    for (unsigned l = 1; l <= 3; ++l) EXPECT_EQ(s.m.g_victim(l), 0u) << l;
    s.run_to(12);
    EXPECT_TRUE(s.ev.at(11).pwc_victim_excluded) << "levels 2 and 3";
    EXPECT_EQ(s.m.g_victim(1), 0u) << "PE 1: no exclusion";
    EXPECT_EQ(s.m.g_victim(2), 1u);
    EXPECT_EQ(s.m.g_victim(3), 1u);
    EXPECT_EQ(s.m.pwc_tag(1, 0), tag1(5));
    s.run_to(13);
    EXPECT_EQ(s.m.pwc_tag(1, 0), tag1(6));
    EXPECT_EQ(s.m.pwc_tag(2, 0), tag2(5, 0));
    EXPECT_EQ(s.m.pwc_tag(2, 1), tag2(6, 0));
    EXPECT_EQ(s.m.pwc_tag(3, 0), tag3(5, 0, 0));
    EXPECT_EQ(s.m.pwc_tag(3, 1), tag3(6, 0, 0));
    EXPECT_EQ(s.m.pwc_acc(V(5, 0, 0, 9)), 1u);
    EXPECT_EQ(s.m.pwc_acc(V(6, 0, 0, 9)), 1u);
    EXPECT_EQ(s.m.pwc_acc(V(5, 0, 1, 0)), 2u);
  }
  {
    Sim s(mk(WalkPolicy::Fcfs, 4, 2, 2, 1000, pe({1, 2, 2})));
    back_to_back_script(s, V(5, 0, 0, 1), V(5, 1, 0, 0));
    s.run_to(12);
    EXPECT_EQ(s.m.g_victim(1), 0u);
    s.run_to(13);
    EXPECT_TRUE(s.ev.at(12).pwc_write_hit_previous_write);
    EXPECT_EQ(s.m.pwc_tag(1, 0), tag1(5));
    EXPECT_EQ(s.m.pwc_tag(2, 1), tag2(5, 1));
    EXPECT_EQ(s.m.pwc_acc(V(5, 1, 0, 9)), 1u);
  }
}

// ===========================================================================
// Collapsing queue

// fcfs, B 4, K 1, L 1. R0 bypasses (c1); R1, R2 appended at c3, c5; R3 at
// c6 is in a1 in c7. done(R0) at c6 -> c7: keys of c6 ([R1, R2]) -> R1
// leaves at edge 7 while R3 is appended: count 2 - 1 + 1 = 2 in c8, R3 "at
// the new count - 1" = 1.
// simt, B 4, K 1, L 1, two cases. R0 (iid 1) bypasses; VA (iid 5, at c2)
// entry 0 in c7; VB (iid 6, at c6) entry 1 in c11; VC (iid 6) at c10: a1 in
// c11 matches entry 1 (VB, appended at edge 10), a2 in c12 (old 4, est 4),
// a3 in c13, a4 in c14 (new 8).
// Case A: done(R0) at c13 -> c14: keys of c13: VA, VB tie at 4 -> VA leaves
// at edge 14 while a4 raises VB (entry 1 before the edge) to 8 and appends
// VC -> [VB 8, VC 8].
// Case B: done(R0) at c10 -> c11: keys of c10 ([VA]: VB lands at edge 10)
// -> VA leaves at edge 11, the a1 edge: VB's match bit, stored at that edge,
// moves with it to entry 0; a2 in c12 reads it (old 4) -> [VB 8, VC 8].
TEST(WalkSched, AppendAndRemoveOnTheSameEdge) {
  Sim f(mk(WalkPolicy::Fcfs, 4, 1));
  const uint64_t r[] = {V(1, 0, 0, 0), V(1, 0, 0, 1), V(1, 0, 0, 2), V(1, 0, 0, 3)};
  for (unsigned k = 0; k < 4; ++k) f.req(2 * k, r[k]);
  f.done(6, 0, r[0]);
  f.run_to(8);
  EXPECT_TRUE(f.ev.at(7).selection);
  EXPECT_TRUE(f.ev.at(7).collapse_with_append);
  EXPECT_EQ(f.m.count(), 2u);
  EXPECT_EQ(f.m.vpn_of(0), r[2]);
  EXPECT_EQ(f.m.vpn_of(1), r[3]);
  f.run_to(10);
  EXPECT_EQ(f.out.at(9).disp_vpn, r[1]);

  const uint64_t va = V(5, 0, 0, 0), vb = V(6, 0, 0, 0), vc = V(6, 0, 0, 1);
  for (unsigned done_at : {13u, 10u}) {
    SCOPED_TRACE("done at c" + std::to_string(done_at));
    Sim s(mk(WalkPolicy::Simt, 4, 1));
    s.req(0, V(1, 0, 0, 0), 1);
    s.req(2, va, 5);
    s.req(6, vb, 6);
    s.req(10, vc, 6);
    s.done(done_at, 0, V(1, 0, 0, 0));
    s.run_to(12);
    // In the a2 cycle c12 the match bit sits on VB: entry 1 (case A) or
    // entry 0 (case B).
    const unsigned vb_at = done_at == 13 ? 1 : 0;
    EXPECT_EQ(s.m.vpn_of(vb_at), vb);
    EXPECT_TRUE(s.m.match_of(vb_at));
    EXPECT_TRUE(s.m.a2_valid());
    s.run_to(15);
    const unsigned sel_edge = done_at + 1;
    EXPECT_TRUE(s.ev.at(sel_edge).selection);
    EXPECT_EQ(s.ev.at(sel_edge).tie_oldest, done_at == 13) << "case B: VB was not in the keys of c10";
    EXPECT_EQ(s.ev.at(sel_edge).collapse_with_append, done_at == 13);
    EXPECT_TRUE(s.ev.at(14).score_accumulated);
    EXPECT_EQ(s.m.count(), 2u);
    EXPECT_EQ(s.m.vpn_of(0), vb);
    EXPECT_EQ(s.m.vpn_of(1), vc);
    EXPECT_EQ(s.m.score_of(0), 8u);
    EXPECT_EQ(s.m.score_of(1), 8u);
    s.run_to(17);
    EXPECT_EQ(s.out.at(sel_edge + 2).disp_vpn, va);
  }
}

// Reset: "All reset to 0 (the LFSR to its seed)"; the outputs of a cycle with
// rst_n = 0 are the reset state's (asynchronous reset).
TEST(WalkSched, ResetClearsEverything) {
  Sim s(mk(WalkPolicy::Random, 4, 1));
  for (unsigned k = 0; k < 4; ++k) s.req(2 * k, V(1, 0, 0, k));
  s.run_to(9);
  ASSERT_EQ(s.now().count, 3u);  // R1..R3 appended at edges 3, 5, 7
  WalkSchedIn rst;
  rst.rst_n = false;
  const WalkSchedOut o = s.m.outputs(rst);
  EXPECT_EQ(o.count, 0u);
  EXPECT_EQ(o.busy, 0u);
  EXPECT_TRUE(o.req_ready);
  s.m.posedge(rst);
  EXPECT_EQ(s.m.count(), 0u);
  EXPECT_EQ(s.m.lfsr(), 0xACE1);
  EXPECT_FALSE(s.m.sel_valid());
  EXPECT_FALSE(s.m.busy(0));
  EXPECT_EQ(s.m.cooldown(), 0u);
  EXPECT_FALSE(s.now().disp_valid);

  // "Reset clears f": fcfs, K 1. R0 = V(1,0,0,0) bypasses (edge 1); done at
  // c2 -> f valid in c3; a reset at edge 3 drops the pending fill (g stays
  // invalid), so the PWCs stay empty.
  Sim r(mk(WalkPolicy::Fcfs, 4, 1));
  r.req(0, V(1, 0, 0, 0));
  r.done(2, 0, V(1, 0, 0, 0));
  r.run_to(3);
  ASSERT_TRUE(r.m.f_valid());
  r.m.posedge(rst);
  EXPECT_FALSE(r.m.f_valid());
  EXPECT_FALSE(r.m.g_valid());
  r.m.posedge(WalkSchedIn{});
  r.m.posedge(WalkSchedIn{});
  r.m.posedge(WalkSchedIn{});
  for (unsigned l = 1; l <= 3; ++l) EXPECT_FALSE(r.m.pwc_valid(l, 0)) << l;
  EXPECT_EQ(r.m.pwc_acc(V(1, 0, 0, 0)), 4u);

  // "Reset clears g" (and its victims): the same script, f valid in c3, g
  // valid in c4 (victim entry 0); a reset at edge 4 drops the write.
  Sim q(mk(WalkPolicy::Fcfs, 4, 1));
  q.req(0, V(1, 0, 0, 0));
  q.done(2, 0, V(1, 0, 0, 0));
  q.run_to(4);
  ASSERT_TRUE(q.m.g_valid());
  EXPECT_FALSE(q.m.f_valid());
  EXPECT_EQ(q.m.g_vpn(), V(1, 0, 0, 0));
  q.m.posedge(rst);
  EXPECT_FALSE(q.m.g_valid());
  EXPECT_EQ(q.m.g_vpn(), 0u);
  for (unsigned l = 1; l <= 3; ++l) EXPECT_EQ(q.m.g_victim(l), 0u) << l;
  q.m.posedge(WalkSchedIn{});
  q.m.posedge(WalkSchedIn{});
  for (unsigned l = 1; l <= 3; ++l) EXPECT_FALSE(q.m.pwc_valid(l, 0)) << l;
}

// The environment rules are enforced: done_valid_i only for a busy walker,
// with the VPN it was given; done_walker_i < K.
TEST(WalkSched, RejectsEnvironmentViolations) {
  WalkSchedModel m(mk(WalkPolicy::Simt, 4, 3));
  WalkSchedIn in;
  in.done_valid = true;
  in.done_walker = 0;
  EXPECT_THROW(m.posedge(in), std::invalid_argument) << "walker 0 is not busy";
  in.done_walker = 3;
  EXPECT_THROW(m.posedge(in), std::invalid_argument) << "walker 3 >= K";
  Sim s(mk(WalkPolicy::Simt, 4, 1));
  s.req(0, V(1, 0, 0, 0), 1);
  s.run_to(2);
  WalkSchedIn d;
  d.done_valid = true;
  d.done_vpn = V(1, 0, 0, 1);
  EXPECT_THROW(s.m.posedge(d), std::invalid_argument) << "not the VPN it was given";
}

// ===========================================================================
// Constrained random

uint64_t base_seed() {
  const char* env = std::getenv("TXGEN_SEED");
  return env ? std::strtoull(env, nullptr, 0) : 20260501;
}

// Pages of one instruction: distinct, with few upper-level prefixes so that
// the PWCs hit and the counters move.
std::vector<uint64_t> pages(std::mt19937_64& rng, const WalkSchedParams& p, unsigned n, unsigned spread) {
  std::set<uint64_t> got;
  while (got.size() < n) {
    uint64_t v = 0;
    for (unsigned l = 1; l < p.levels; ++l) v = (v << p.level_bits) | (rng() % (spread << (l - 1)));
    v = (v << p.level_bits) | (rng() % (uint64_t{1} << p.level_bits));
    got.insert(v);
  }
  std::vector<uint64_t> out(got.begin(), got.end());
  std::shuffle(out.begin(), out.end(), rng);
  return out;
}

// Walkers outside the block: a dispatched walk completes acc x lat cycles
// after its pulse; completions are queued and reported one per cycle.
struct Walkers {
  struct Done {
    unsigned walker;
    uint64_t vpn;
  };
  std::multimap<uint64_t, Done> queue;  // by ready cycle, FIFO among equals
  void start(uint64_t now, const WalkSchedOut& o, unsigned lat) {
    queue.emplace(now + uint64_t{o.disp_acc} * lat, Done{o.disp_walker, o.disp_vpn});
  }
  bool next(uint64_t now, WalkSchedIn& in) const {
    if (queue.empty() || queue.begin()->first > now) return false;
    in.done_valid = true;
    in.done_walker = queue.begin()->second.walker;
    in.done_vpn = queue.begin()->second.vpn;
    return true;
  }
  void pop() { queue.erase(queue.begin()); }
};

// Instruction streams: each holds the pages left of its current instruction
// and starts a new instruction (a fresh iid) after a pause.
struct Streams {
  struct Stream {
    std::vector<uint64_t> left;
    uint32_t iid = 0;
    uint64_t idle_until = 0;
  };
  std::vector<Stream> s;
  uint32_t next_iid = 1;
  unsigned max_pages = 64, spread = 2;
};

struct RandomSetup {
  const char* name;
  WalkSchedParams p;
  unsigned cycles, lat, streams;
  double load;  // probability that a new request is offered in a cycle
  unsigned spread;
  bool reset_midway;
};

struct Coverage {
  std::map<std::string, uint64_t> n;
  void add(const WalkSchedEvents& e) {
    const std::pair<const char*, bool> f[] = {
        {"bypass", e.bypass},
        {"selection", e.selection},
        {"by_age", e.by_age},
        {"by_batch_over_lower_score", e.by_batch_over_lower_score},
        {"by_lowest_score", e.by_lowest_score},
        {"tie_oldest", e.tie_oldest},
        {"score_accumulated", e.score_accumulated},
        {"aged_set", e.aged_set},
        {"blocked_full", e.blocked_full},
        {"collapse_with_append", e.collapse_with_append},
        {"pwc_protected_skip", e.pwc_protected_skip},
        {"pwc_all_counters_nonzero", e.pwc_all_counters_nonzero},
        {"pwc_ctr_saturated", e.pwc_ctr_saturated},
        {"pwc_hit_dispatch", e.pwc_hit_dispatch},
        {"pwc_victim_excluded", e.pwc_victim_excluded},
        {"pwc_write_hit_previous_write", e.pwc_write_hit_previous_write},
    };
    for (const auto& [name, on] : f) n[name] += on ? 1 : 0;
  }
};

// The checker's view of the block, cleared by a reset.
struct Book {
  std::multiset<std::pair<uint64_t, uint32_t>> pending;  // accepted, not yet dispatched
  std::deque<std::pair<uint64_t, uint32_t>> fifo;        // fcfs: acceptance order
  std::vector<uint32_t> busy_hist;                       // busy_o by cycle since the reset
  uint64_t accepted = 0, dispatched = 0;
  int64_t last_disp_edge = -1000000;
};

bool offer(Streams& st, std::mt19937_64& rng, const WalkSchedParams& p, uint64_t now, WalkSchedIn& in) {
  std::vector<unsigned> ready;
  for (unsigned k = 0; k < st.s.size(); ++k) {
    Streams::Stream& s = st.s[k];
    if (s.left.empty() && now >= s.idle_until) {
      const unsigned n = 1 + static_cast<unsigned>(rng() % st.max_pages);
      s.left = pages(rng, p, n, st.spread);
      s.iid = st.next_iid++ & static_cast<uint32_t>((uint64_t{1} << p.iid_bits) - 1);
    }
    if (!s.left.empty()) ready.push_back(k);
  }
  if (ready.empty()) return false;
  const unsigned k = ready[rng() % ready.size()];
  in.req_valid = true;
  in.req_vpn = st.s[k].left.back();
  in.req_iid = st.s[k].iid;
  return true;
}

void take(Streams& st, std::mt19937_64& rng, uint64_t now, const WalkSchedIn& in) {
  for (Streams::Stream& s : st.s) {
    if (!s.left.empty() && s.left.back() == in.req_vpn && s.iid == in.req_iid) {
      s.left.pop_back();
      if (s.left.empty()) s.idle_until = now + (rng() % 64);
      return;
    }
  }
}

// Checks of one cycle's dispatch pulse against the document: the walker is
// the lowest free one of the dispatch cycle (two cycles earlier) and busy
// from the cycle after it; the request was accepted and not yet dispatched;
// fcfs dispatches in acceptance order (vpn and iid).
void check_dispatch(const RandomSetup& su, Book& b, const WalkSchedOut& o, const std::string& where) {
  const WalkSchedParams& p = su.p;
  const size_t c = b.busy_hist.size() - 1;  // this cycle
  ASSERT_GE(c, 2u) << where;
  const uint32_t before = b.busy_hist[c - 2];
  unsigned w = 0;
  while (w < p.walkers && ((before >> w) & 1u)) ++w;
  EXPECT_EQ(o.disp_walker, w) << where;
  EXPECT_TRUE((b.busy_hist[c - 1] >> o.disp_walker) & 1u) << where;
  EXPECT_GE(o.disp_acc, 1u) << where;
  EXPECT_LE(o.disp_acc, p.levels) << where;
  // Every policy carries the iid: the pulse names an accepted (vpn, iid).
  auto it = b.pending.find({o.disp_vpn, o.disp_iid});
  ASSERT_NE(it, b.pending.end()) << where << ": dispatched a request that is not pending";
  b.pending.erase(it);
  ++b.dispatched;
  if (p.policy == WalkPolicy::Fcfs) {
    ASSERT_FALSE(b.fifo.empty()) << where;
    EXPECT_EQ(o.disp_vpn, b.fifo.front().first) << where << ": fcfs out of order";
    EXPECT_EQ(o.disp_iid, b.fifo.front().second) << where << ": fcfs lost the iid";
    b.fifo.pop_front();
  }
}

void run_random(const RandomSetup& su, uint64_t seed, Coverage& cov) {
  const WalkSchedParams& p = su.p;
  SCOPED_TRACE(std::string(su.name) + " seed " + std::to_string(seed));
  std::cout << "[ walk_sched random ] " << su.name << " seed " << seed << " cycles " << su.cycles << std::endl;
  std::mt19937_64 rng(seed);
  WalkSchedModel m(p);
  Walkers walkers;
  Streams st;
  st.s.resize(su.streams);
  st.spread = su.spread;
  Book b;
  WalkSchedIn held;  // a request offered and not yet accepted stays offered
  bool have_held = false;
  const unsigned drain_limit = 200000;
  for (uint64_t c = 0; c < su.cycles + drain_limit; ++c) {
    const bool draining = c >= su.cycles;
    const std::string where = "c" + std::to_string(c);
    WalkSchedIn in;
    if (su.reset_midway && (c == su.cycles / 2 || c == su.cycles / 2 + 1)) {
      in.rst_n = false;
      m.posedge(in);
      b = Book{};
      walkers.queue.clear();
      have_held = false;
      continue;
    }
    if (!draining && !have_held && std::uniform_real_distribution<>(0, 1)(rng) < su.load) {
      have_held = offer(st, rng, p, c, held);
    }
    if (have_held && !draining) {
      in.req_valid = true;
      in.req_vpn = held.req_vpn;
      in.req_iid = held.req_iid;
    }
    const bool completing = walkers.next(c, in);
    const WalkSchedOut o = m.outputs(in);
    b.busy_hist.push_back(o.busy);
    ASSERT_LE(o.count, p.entries) << where;
    // "req_ready_o (simt) = a1, a2 and a3 empty and count + (1 if a4 valid)
    // < B; (fcfs/random) = a1 empty and count < B".
    const unsigned after_a4 = m.count() + (m.a4_valid() ? 1u : 0u);
    const bool want_ready = p.simt() ? !m.a1_valid() && !m.a2_valid() && !m.a3_valid() && after_a4 < p.entries
                                     : !m.a1_valid() && m.count() < p.entries;
    ASSERT_EQ(o.req_ready, want_ready) << where;
    if (o.disp_valid) {
      check_dispatch(su, b, o, where);
      walkers.start(c, o, su.lat);
    }
    if (in.req_valid && o.req_ready) {
      b.pending.insert({in.req_vpn, in.req_iid});
      b.fifo.emplace_back(in.req_vpn, in.req_iid);
      ++b.accepted;
      take(st, rng, c, in);
      have_held = false;
    }
    ASSERT_NO_THROW(m.posedge(in)) << where;  // the model's own invariants
    if (completing) walkers.pop();
    const WalkSchedEvents& e = m.events();
    cov.add(e);
    if (e.selection) {
      // "the next selection dispatch is at t + L + 1 at the earliest"
      EXPECT_GE(static_cast<int64_t>(c) - b.last_disp_edge, static_cast<int64_t>(p.select_latency) + 1) << where;
    }
    if (e.selection || e.bypass) b.last_disp_edge = static_cast<int64_t>(c);
    const bool arriving = m.a1_valid() || m.a2_valid() || m.a3_valid() || m.a4_valid();
    if (draining && b.pending.empty() && walkers.queue.empty() && m.count() == 0 && !arriving && !m.d_valid() &&
        !m.f_valid() && !m.g_valid() && !m.outputs(WalkSchedIn{}).disp_valid) {
      break;
    }
  }
  // "every accepted request is dispatched exactly once"
  EXPECT_TRUE(b.pending.empty()) << b.pending.size() << " accepted requests never dispatched";
  EXPECT_EQ(b.accepted, b.dispatched);
  EXPECT_EQ(m.outputs(WalkSchedIn{}).busy, 0u);
  std::cout << "[ walk_sched random ]   accepted " << b.accepted << " dispatched " << b.dispatched << std::endl;
}

TEST(WalkSchedRandom, ConstrainedRandomInvariants) {
  const uint64_t seed0 = base_seed();
  std::cout << "[ walk_sched random ] TXGEN_SEED base " << seed0 << std::endl;
  Geometry small;
  small.pe = {1, 2, 2};
  Geometry g5;
  g5.levels = 5;
  g5.vpn = 45;
  g5.pe = {2, 4, 4, 8};
  Geometry g2;
  g2.levels = 2;
  g2.vpn = 20;
  g2.pe = {4};
  const RandomSetup setups[] = {
      {"simt_b16_k2", mk(WalkPolicy::Simt, 16, 2, 2, 40, pe({2, 4, 8}), 64, 8), 60000, 8, 6, 0.6, 2, false},
      {"fcfs_b16_k2", mk(WalkPolicy::Fcfs, 16, 2, 2, 40, pe({2, 4, 8}), 64, 8), 40000, 8, 6, 0.6, 2, true},
      {"random_b16_k2", mk(WalkPolicy::Random, 16, 2, 1, 40, pe({2, 4, 8}), 64, 8), 40000, 8, 6, 0.6, 2, false},
      // The document's defaults (G 1 -> L 8) for B 256.
      {"simt_b256_k8", mk(WalkPolicy::Simt, 256, 8, 1, 2000000, pe({4, 8, 32}), 64, 20), 60000, 30, 24, 0.5, 2,
       false},
      {"fcfs_b256_k8", mk(WalkPolicy::Fcfs, 256, 8, 1, 2000000, pe({4, 8, 32}), 64, 20), 30000, 30, 24, 0.5, 2,
       false},
      {"random_b256_k8", mk(WalkPolicy::Random, 256, 8, 3, 2000000, pe({4, 8, 32}), 64, 20), 30000, 30, 24, 0.5, 2,
       false},
      {"simt_b4_k1_at2", mk(WalkPolicy::Simt, 4, 1, 2, 2, small, 64, 4), 40000, 3, 5, 0.7, 1, true},
      {"simt_b64_k3_lv5", mk(WalkPolicy::Simt, 64, 3, 1, 5, g5, 16, 6), 40000, 4, 8, 0.6, 1, false},
      {"simt_b8_k32_lv2", mk(WalkPolicy::Simt, 8, 32, 3, 100, g2, 8, 3), 30000, 150, 10, 0.8, 3, false},
  };
  Coverage simt_cov;
  for (unsigned k = 0; k < sizeof(setups) / sizeof(setups[0]); ++k) {
    Coverage cov;
    run_random(setups[k], seed0 + 1000 * k, cov);
    std::cout << "[ walk_sched random ]   coverage:";
    for (const auto& [name, n] : cov.n) std::cout << ' ' << name << '=' << n;
    std::cout << std::endl;
    if (setups[k].p.simt()) {
      for (const auto& [name, n] : cov.n) simt_cov.n[name] += n;
    } else {
      EXPECT_GT(cov.n["selection"], 0u) << setups[k].name;
      EXPECT_GT(cov.n["blocked_full"], 0u) << setups[k].name;
    }
    if (::testing::Test::HasFatalFailure()) return;
  }
  for (const auto& [name, n] : simt_cov.n) EXPECT_GT(n, 0u) << "simt coverage: " << name << " never seen";
}

// ===========================================================================
// Model-level experiment (seed 002, Fig. 6 / Fig. 10 qualitatively): the gap
// between the first- and the last-completed walk of an instruction, FCFS vs
// SIMT. The seed is fixed (not TXGEN_SEED): the claim is statistical, and
// over seeds 1..40 (document defaults, G 1, two-step fill, four-step simt
// arrival) SIMT's mean gap was the lower one in 38 runs (worst ratio 1.014);
// the instruction latency was lower in every run (ratio 0.91 at worst).
// (Two-step arrival: 39 of 40, 1.009 and 0.92; one-step fill before that: 39
// of 40, 1.005 and 0.91.) With 8 wavefronts of 48 instructions the gap ratio
// averaged 1.51 over the same seeds (see the shape below).

struct ExperimentResult {
  double mean_gap = 0, mean_latency = 0;
  uint64_t instructions = 0, walks = 0, cycles = 0;
};

// The synthetic irregular workload: W wavefronts, each running a program of
// I instructions of 1-64 distinct pages (pre-generated, so that both policies
// see the same instructions); a wavefront issues its next instruction once
// the previous one's walks are all complete, after a short pause. The
// wavefronts' requests share the IOMMU port: the current wavefront keeps it
// for its next request with probability `stay` (a burst of misses), else a
// random wavefront with pages left takes it, so instructions interleave.
// K = 8 walkers; a walk takes acc x `lat` cycles.
// The shape is the paper's premise: a congested IOMMU (48 wavefronts, many
// more requests outstanding than the 256 entries) with interleaved arrivals.
// With few wavefronts (e.g. 8, about one buffer of requests) FCFS queues an
// instruction long enough for all its requests to arrive, and SIMT, which
// starts a low-score instruction early and then ranks its later requests by
// the accumulated score, has the larger gap (while still the lower latency).
struct ExperimentShape {
  unsigned waves = 48, per_wave = 8, lat = 30;
  unsigned g = 1;  // select_levels_per_cycle: the document's default (L = log2 256 = 8)
  double stay = 0.5;
};

ExperimentResult run_experiment(WalkPolicy pol, uint64_t seed, const ExperimentShape& sh) {
  const WalkSchedParams p = mk(pol, 256, 8, sh.g, 2000000, pe({4, 8, 32}), 64, 20);
  std::mt19937_64 prog_rng(seed), rng(seed ^ 0x5eedULL);
  struct Instr {
    std::vector<uint64_t> pages;
    unsigned completed = 0;
    uint64_t issued = 0, first = 0, last = 0;
  };
  std::vector<Instr> instrs;  // wave w's i-th instruction is instrs[w * I + i]
  for (unsigned k = 0; k < sh.waves * sh.per_wave; ++k) {
    Instr in;
    in.pages = pages(prog_rng, p, 1 + static_cast<unsigned>(prog_rng() % 64), 4);
    instrs.push_back(in);
  }
  struct Wave {
    unsigned next = 0;   // next instruction of the program
    int instr = -1;      // instruction in flight
    size_t offered = 0;  // its pages offered and accepted so far
    uint64_t idle_until = 0;
  };
  std::vector<Wave> wv(sh.waves);
  std::unordered_map<uint64_t, std::deque<unsigned>> by_vpn;  // accepted, not dispatched: vpn -> instrs
  std::unordered_map<unsigned, unsigned> of_walker;           // walker -> instr in flight
  WalkSchedModel m(p);
  Walkers walkers;
  int port = -1;  // wavefront holding the port
  uint64_t c = 0;
  unsigned finished = 0;
  auto has_pages = [&](unsigned k) {
    return wv[k].instr >= 0 && wv[k].offered < instrs[static_cast<unsigned>(wv[k].instr)].pages.size();
  };
  for (; finished < sh.waves * sh.per_wave && c < 5000000; ++c) {
    for (unsigned k = 0; k < sh.waves; ++k) {
      Wave& w = wv[k];
      if (w.instr < 0 && w.next < sh.per_wave && c >= w.idle_until) {
        w.instr = static_cast<int>(k * sh.per_wave + w.next++);
        w.offered = 0;
        instrs[static_cast<unsigned>(w.instr)].issued = c;
      }
    }
    const bool stay = port >= 0 && has_pages(static_cast<unsigned>(port)) &&
                      std::uniform_real_distribution<>(0, 1)(rng) < sh.stay;
    if (!stay) {
      std::vector<unsigned> ready;
      for (unsigned k = 0; k < sh.waves; ++k) {
        if (has_pages(k)) ready.push_back(k);
      }
      port = ready.empty() ? -1 : static_cast<int>(ready[rng() % ready.size()]);
    }
    WalkSchedIn in;
    if (port >= 0) {
      const Wave& w = wv[static_cast<unsigned>(port)];
      in.req_valid = true;
      in.req_vpn = instrs[static_cast<unsigned>(w.instr)].pages[w.offered];
      in.req_iid = static_cast<uint32_t>(w.instr + 1);
    }
    const bool completing = walkers.next(c, in);
    const WalkSchedOut o = m.outputs(in);
    if (o.disp_valid) {
      std::deque<unsigned>& q = by_vpn[o.disp_vpn];
      // Every policy carries the iid (instruction k has iid k + 1).
      auto it = std::find(q.begin(), q.end(), o.disp_iid - 1);
      if (it == q.end()) throw std::logic_error("experiment: dispatch of a request never accepted");
      of_walker[o.disp_walker] = *it;
      q.erase(it);
      walkers.start(c, o, sh.lat);
    }
    if (completing) {
      const unsigned idx = of_walker.at(in.done_walker);
      Instr& ins = instrs[idx];
      if (ins.completed++ == 0) ins.first = c;
      ins.last = c;
      if (ins.completed == ins.pages.size()) {
        ++finished;
        Wave& w = wv[idx / sh.per_wave];
        w.instr = -1;
        w.idle_until = c + 1 + rng() % 20;
      }
    }
    if (in.req_valid && o.req_ready) {
      Wave& w = wv[static_cast<unsigned>(port)];
      by_vpn[in.req_vpn].push_back(static_cast<unsigned>(w.instr));
      ++w.offered;
    }
    m.posedge(in);
    if (completing) walkers.pop();
  }
  ExperimentResult r;
  r.cycles = c;
  double gap = 0, latency = 0;
  uint64_t multi = 0;
  for (const Instr& ins : instrs) {
    r.walks += ins.pages.size();
    latency += static_cast<double>(ins.last - ins.issued);
    if (ins.pages.size() >= 2) {
      gap += static_cast<double>(ins.last - ins.first);
      ++multi;
    }
  }
  r.instructions = instrs.size();
  r.mean_gap = multi ? gap / static_cast<double>(multi) : 0;
  r.mean_latency = r.instructions ? latency / static_cast<double>(r.instructions) : 0;
  if (finished != r.instructions) throw std::logic_error("experiment: instructions left unfinished");
  return r;
}

TEST(WalkSchedExperiment, SimtNarrowsTheFirstToLastWalkGap) {
  const uint64_t seed = 20260501;
  std::cout << "[ walk_sched experiment ] seed " << seed << " (fixed)" << std::endl;
  const auto t0 = std::chrono::steady_clock::now();
  const ExperimentShape shape;
  const ExperimentResult fcfs = run_experiment(WalkPolicy::Fcfs, seed, shape);
  const ExperimentResult simt = run_experiment(WalkPolicy::Simt, seed, shape);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  for (const auto& [name, r] : {std::pair<const char*, ExperimentResult>{"fcfs", fcfs}, {"simt", simt}}) {
    std::cout << "[ walk_sched experiment ] " << name << ": instructions " << r.instructions << " walks " << r.walks
              << " cycles " << r.cycles << " mean first-to-last gap " << r.mean_gap
              << " mean instruction latency " << r.mean_latency << std::endl;
  }
  std::cout << "[ walk_sched experiment ] " << secs << " s" << std::endl;
  ASSERT_EQ(fcfs.walks, simt.walks) << "the same programs";
  EXPECT_LT(simt.mean_gap, fcfs.mean_gap);
}

}  // namespace
}  // namespace txgen::model
