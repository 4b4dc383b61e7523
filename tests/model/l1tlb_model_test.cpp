// Unit tests of the golden l1tlb model (docs/blocks/l1tlb.md).
// Parameters are filled by hand; every expected cycle and value is worked out
// by hand from the document in the comments (never read back from the model).
// Cycle numbering: "cN" is the N-th cycle after construction (c0 first);
// "edge N" is the rising edge that ends cN. Inputs scripted "at cN" are
// driven in cN; registers written at edge N are visible from c(N+1).
// Recurring timing facts of the document used below:
//  - request accepted in cT: r1 in c(T+1), r2 (decide) in c(T+2), hit
//    response resp_valid in c(T+3); a miss allocates / merges at edge T+2,
//    the MSHR is an L2 candidate in c(T+3), l2_req_valid from c(T+4);
//  - L2 response in cF: f1 c(F+1), f2 c(F+2) (write at edge F+2), f3 c(F+3)
//    (MSHR freed at edge F+3), fill_valid in c(F+4);
//  - shootdown accepted in cE: sd1 c(E+1), sd2 c(E+2) (invalidate / kill at
//    edge E+2), sd_done in c(E+3), requests accepted again from c(E+3).
// The default parameters P4 are U = 4 CUs, T = 2 TLBs, C = 1 cluster, W = 4
// ways, mshrs_per_cu = 2: S = 2 sets, N = 4, K = 2, M = 4, 12-bit VPN, VMID 1
// bit, PPN 12, PERM 3; HB = 1 (vpn[0] = home TLB), SB = 1 (vpn[1] = set),
// TG = 10 (vpn[11:2]), MB = 2, LT = 3 (tag = k << 2 | mshr).
#include "model/l1tlb.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <functional>
#include <iomanip>
#include <iostream>
#include <map>
#include <new>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

// Counts heap allocations so that a test can check that the per-cycle work
// (outputs into a sized struct, posedge) allocates nothing.
// (GCC sees std::free on a pointer from operator new and warns; the pair is
// matched here.)
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif
static long g_allocs = 0;
void* operator new(std::size_t n) {
  ++g_allocs;
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace txgen::model {
namespace {

using elab::L1tlbParams;

unsigned clog2(uint64_t x) {
  unsigned n = 0;
  while ((uint64_t{1} << n) < x) ++n;
  return n;
}

// Every field of the elaborated struct, by the document's formulas.
L1tlbParams mk(unsigned u, unsigned t, unsigned c, unsigned w, unsigned mpc, bool plru = false,
               unsigned vpn = 12, unsigned vm = 1, unsigned ppn = 12, unsigned perm = 3) {
  L1tlbParams p;
  p.module_prefix = "l1tlb_test";
  p.replacement = plru ? config::L1tlbReplacement::Plru : config::L1tlbReplacement::Lru;
  p.cus = u;
  p.tlbs = t;
  p.clusters = c;
  p.ways = w;
  p.sets = u / t;
  p.cus_per_cluster = u / c;
  p.tlbs_per_cluster = t / c;
  p.cus_per_tlb = u / t;
  p.mshrs_per_cu = mpc;
  p.mshrs = p.cus_per_tlb * mpc;
  p.entries_per_tlb = p.sets * w;
  p.entries_total = t * p.entries_per_tlb;
  p.vpn_bits = vpn;
  p.vmid_bits = vm;
  p.ppn_bits = ppn;
  p.perm_bits = perm;
  p.home_bits = clog2(p.tlbs_per_cluster);
  p.set_bits = clog2(p.sets);
  p.vpn_tag_bits = vpn - p.home_bits - p.set_bits;
  p.tag_bits = p.vpn_tag_bits + vm;
  p.vpn_hi_bits = vpn - p.home_bits;
  p.cu_bits = clog2(p.cus_per_cluster);
  p.tlb_bits = clog2(t);
  p.mshr_bits = std::max(1u, clog2(p.mshrs));
  p.l2_tag_bits = p.home_bits + p.mshr_bits;
  p.age_bits = clog2(w);
  p.repl_bits_per_set = plru ? w - 1 : w * p.age_bits;
  return p;
}

L1tlbParams P4() { return mk(4, 2, 1, 4, 2); }

// With the input buffer (document "Input buffer"): the elaborated cycle
// counts grow by one (2 crossbar cycles, hit 3 + 1, miss to L2 4 + 1).
L1tlbParams with_ib(L1tlbParams p) {
  p.input_buffer = true;
  p.xbar_cycles = 2;
  p.hit_latency = 4;
  p.miss_to_l2 = 5;
  return p;
}

// The translation the test L2 answers for (vpn, vmid).
uint64_t ppn_of(uint64_t vpn, uint64_t vmid = 0) { return (vpn * 5 + 1 + vmid * 0x800) & 0xfff; }
uint64_t perm_of(uint64_t vpn) { return (vpn % 7) & 7; }

struct Resp {
  unsigned cyc, cu;
  bool fill;  // false: resp_* (hit), true: fill_*
  uint64_t vpn, vmid, ppn, perm;
};
struct L2Take {
  unsigned cyc, c;
  uint64_t vpn, vmid, tag;
};
struct Evict {
  unsigned cyc, c;
  uint64_t vpn, vmid, ppn, perm;
};

// Drives the model cycle by cycle, logs every response and L2 handshake, and
// (optionally) plays an L2-TLB that answers a taken request `lat` cycles
// after its handshake (one answer per cluster per cycle, in order).
struct Bench {
  explicit Bench(const L1tlbParams& p) : m(p), in(m.idle_inputs()), out(m.make_outputs()), ready(p.clusters, 1) {
    pend.resize(p.clusters);
  }
  L1tlbModel m;
  L1tlbIn in;
  L1tlbOut out;
  unsigned cyc = 0;
  bool auto_l2 = true;
  unsigned lat = 1;
  std::vector<uint8_t> ready;                           // l2_req_ready per cluster (persistent)
  std::vector<std::deque<std::pair<unsigned, L2Take>>> pend;  // due cycle, request
  std::vector<Resp> log;
  std::vector<L2Take> l2log;
  std::vector<Evict> elog;                              // evict_valid pulses
  std::function<void(unsigned, const L1tlbOut&)> on_cycle;  // optional: sees every cycle's outputs

  void req(unsigned u, uint64_t vpn, uint64_t vmid = 0) {
    in.req_valid[u] = 1;
    in.req_vpn[u] = vpn;
    in.req_vmid[u] = vmid;
  }
  void l2resp(unsigned c, uint64_t tag, uint64_t ppn, uint64_t perm) {
    in.l2_resp_valid[c] = 1;
    in.l2_resp_tag[c] = tag;
    in.l2_resp_ppn[c] = ppn;
    in.l2_resp_perm[c] = perm;
  }
  void sd(bool all, uint64_t vpn, uint64_t vmid = 0) {
    in.sd_valid = true;
    in.sd_all = all;
    in.sd_vpn = vpn;
    in.sd_vmid = vmid;
  }
  // Outputs of the current cycle for the inputs scripted so far.
  const L1tlbOut& peek() {
    for (unsigned c = 0; c < ready.size(); ++c) in.l2_req_ready[c] = ready[c];
    m.outputs(in, out);
    return out;
  }
  // One cycle: outputs, log, edge; returns the outputs of the cycle.
  L1tlbOut step() {
    peek();
    const L1tlbParams& p = m.params();
    for (unsigned u = 0; u < p.cus; ++u) {
      if (out.resp_valid[u])
        log.push_back({cyc, u, false, out.resp_vpn[u], out.resp_vmid[u], out.resp_ppn[u], out.resp_perm[u]});
      if (out.fill_valid[u])
        log.push_back({cyc, u, true, out.fill_vpn[u], out.fill_vmid[u], out.fill_ppn[u], out.fill_perm[u]});
    }
    for (unsigned c = 0; c < p.clusters; ++c)
      if (out.evict_valid[c])
        elog.push_back({cyc, c, out.evict_vpn[c], out.evict_vmid[c], out.evict_ppn[c], out.evict_perm[c]});
    if (on_cycle) on_cycle(cyc, out);
    for (unsigned c = 0; c < p.clusters; ++c)
      if (in.rst_n && out.l2_req_valid[c] && in.l2_req_ready[c]) {
        L2Take t{cyc, c, out.l2_req_vpn[c], out.l2_req_vmid[c], out.l2_req_tag[c]};
        l2log.push_back(t);
        if (auto_l2) pend[c].push_back({cyc + lat, t});
      }
    L1tlbOut o = out;
    m.posedge(in);
    if (!in.rst_n)
      for (auto& q : pend) q.clear();
    ++cyc;
    in = m.idle_inputs();
    for (unsigned c = 0; c < p.clusters; ++c)
      if (!pend[c].empty() && pend[c].front().first <= cyc) {
        const L2Take& t = pend[c].front().second;
        l2resp(c, t.tag, ppn_of(t.vpn, t.vmid), perm_of(t.vpn));
        pend[c].pop_front();
      }
    return o;
  }
  void run(unsigned n) {
    for (unsigned i = 0; i < n; ++i) step();
  }
  void run_to(unsigned c) {
    while (cyc < c) step();
  }
  std::vector<Resp> resps(unsigned cu, bool fill) const {
    std::vector<Resp> r;
    for (const Resp& x : log)
      if (x.cu == cu && x.fill == fill) r.push_back(x);
    return r;
  }
};

// Installs (vpn, vmid) through CU `u` with the automatic L2 (latency 1) and
// waits until everything is idle again; returns the cycle after.
void install(Bench& b, unsigned u, uint64_t vpn, uint64_t vmid = 0) {
  b.req(u, vpn, vmid);
  ASSERT_TRUE(b.peek().req_ready[u]);
  b.step();
  b.run(12);  // accept t, L2 take t+4, answer t+5, fill response t+9
}

// A shootdown (one VPN, or all) accepted in the current cycle e with every
// pipeline empty; returns after cycle e+3 (invalidation at edge e+2, sd_done
// in e+3), so the next cycle is idle again.
void shoot(Bench& b, bool all, uint64_t vpn, uint64_t vmid = 0) {
  b.sd(all, vpn, vmid);
  ASSERT_TRUE(b.peek().sd_ready);
  b.step();
  b.run(3);
}

// PLRU configuration PP: U = 4, T = C = 1: S = 4, W = 8, M = 8; HB = 0,
// SB = 2 (set = vpn[1:0]), TG = 10 (vpn[11:2]). Set 0 holds vpn = x << 2.
L1tlbParams PP() { return mk(4, 1, 1, 8, 2, true); }

// Fills set 0 of PP through CU 0 with x << 2 for x = x0 .. x0+7, starting
// from every tree bit 0 (reset or flush-all). Leaves: way w = node 8 + w.
// Victim walk: all 0 -> 1, 2, 4 -> leaf 8: way 0.
//  touch 0: n4 = 1, n2 = 1, n1 = 1            -> 1, 3, 6 -> leaf 12: way 4
//  touch 4: n6 = 1, n3 = 1, n1 = 0            -> 1, 2, 5 -> leaf 10: way 2
//  touch 2: n5 = 1, n2 = 0, n1 = 1            -> 1, 3, 7 -> leaf 14: way 6
//  touch 6: n7 = 1, n3 = 0, n1 = 0            -> 1, 2, 4 -> leaf 9:  way 1
//  touch 1: n4 = 0, n2 = 1, n1 = 1            -> 1, 3, 6 -> leaf 13: way 5
//  touch 5: n6 = 0, n3 = 1, n1 = 0            -> 1, 2, 5 -> leaf 11: way 3
//  touch 3: n5 = 0, n2 = 0, n1 = 1            -> 1, 3, 7 -> leaf 15: way 7
//  touch 7: n7 = 0, n3 = 0, n1 = 0: every bit 0 again (victim way 0).
// So the eight fills go to ways 0, 4, 2, 6, 1, 5, 3, 7 (every way invalid
// until taken: the tree visits each leaf once), not 0, 1, 2, ... as with lru.
const unsigned kPlruFillOrder[8] = {0, 4, 2, 6, 1, 5, 3, 7};
void fill_plru_set0(Bench& b, uint64_t x0 = 1) {
  for (unsigned i = 0; i < 8; ++i) {
    EXPECT_EQ(b.m.victim(0, 0), kPlruFillOrder[i]) << "fill " << i;
    EXPECT_FALSE(b.m.entry_valid(0, 0, kPlruFillOrder[i])) << "fill " << i;
    install(b, 0, (x0 + i) << 2);
    EXPECT_EQ(b.m.entry_vpn(0, 0, kPlruFillOrder[i]), (x0 + i) << 2) << "fill " << i;
  }
}

// ---------------------------------------------------------------------------

TEST(L1tlbModel, HitAfterFill) {
  Bench b(P4());
  b.auto_l2 = false;
  // c0: CU0 asks 0x10 (home 0, set 0, vtag 4): TLB0. Accepted in c0.
  b.req(0, 0x10);
  L1tlbOut o = b.step();
  EXPECT_TRUE(o.req_ready[0]);
  EXPECT_FALSE(o.req_ready[1]);  // not requesting
  EXPECT_TRUE(b.m.r1_valid(0));  // c1
  b.step();                      // c1 compare
  EXPECT_TRUE(b.m.r2_valid(0));  // c2
  EXPECT_EQ(b.m.r2_match(0), -1);
  b.step();  // c2 decide: miss, MSHR 0 allocated at edge 2
  EXPECT_TRUE(b.m.events().lookup_miss_alloc);
  EXPECT_TRUE(b.m.mshr_valid(0, 0) && b.m.mshr_pending(0, 0) && !b.m.mshr_sent(0, 0));
  EXPECT_EQ(b.m.mshr_waiters(0, 0), 1u);
  EXPECT_EQ(b.m.mshr_vh(0, 0), 0x10u >> 1);
  o = b.step();  // c3: chosen for the L2 (sent at edge 3)
  EXPECT_FALSE(o.l2_req_valid[0]);
  EXPECT_TRUE(b.m.mshr_sent(0, 0));
  o = b.step();  // c4: l2_req_valid, taken (ready = 1)
  EXPECT_TRUE(o.l2_req_valid[0]);
  EXPECT_EQ(o.l2_req_vpn[0], 0x10u);
  EXPECT_EQ(o.l2_req_vmid[0], 0u);
  EXPECT_EQ(o.l2_req_tag[0], 0u);  // {k = 0, mshr = 0}
  // c5: the L2 answers.
  b.l2resp(0, 0, 0x123, 5);
  o = b.step();
  EXPECT_FALSE(o.l2_req_valid[0]);  // q emptied at edge 4
  b.step();                         // c6 f1
  EXPECT_TRUE(b.m.f2_valid(0));
  EXPECT_EQ(b.m.find(0, 0x10, 0), -1);
  b.step();  // c7 f2: write at edge 7 into the victim way 0 (reset ages 3, 2, 1, 0: way 0 is age W-1)
  EXPECT_TRUE(b.m.events().victim_invalid);
  EXPECT_EQ(b.m.find(0, 0x10, 0), 0);
  EXPECT_EQ(b.m.entry_ppn(0, 0, 0), 0x123u);
  EXPECT_EQ(b.m.age(0, 0, 0), 0u);
  EXPECT_TRUE(b.m.mshr_valid(0, 0));
  EXPECT_FALSE(b.m.mshr_pending(0, 0));
  o = b.step();  // c8 f3: answer, free at edge 8
  EXPECT_FALSE(o.fill_valid[0]);
  EXPECT_FALSE(b.m.mshr_valid(0, 0));
  // c9: fill_valid[0]; CU0 asks 0x10 again.
  b.req(0, 0x10);
  o = b.step();
  EXPECT_TRUE(o.fill_valid[0]);
  EXPECT_EQ(o.fill_vpn[0], 0x10u);
  EXPECT_EQ(o.fill_ppn[0], 0x123u);
  EXPECT_EQ(o.fill_perm[0], 5u);
  EXPECT_TRUE(o.req_ready[0]);
  o = b.step();  // c10
  EXPECT_FALSE(o.fill_valid[0]);
  EXPECT_EQ(o.fill_ppn[0], 0x123u);  // data registers hold
  o = b.step();  // c11
  EXPECT_FALSE(o.resp_valid[0]);
  o = b.step();  // c12: hit response
  EXPECT_TRUE(o.resp_valid[0]);
  EXPECT_EQ(o.resp_vpn[0], 0x10u);
  EXPECT_EQ(o.resp_ppn[0], 0x123u);
  EXPECT_EQ(o.resp_perm[0], 5u);
  o = b.step();  // c13
  EXPECT_FALSE(o.resp_valid[0]);
  EXPECT_EQ(b.l2log.size(), 1u);
  EXPECT_EQ(b.log.size(), 2u);
}

TEST(L1tlbModel, MissMergeTwoCus) {
  Bench b(P4());
  b.lat = 1;
  // c0: CU0 and CU1 ask 0x10 (TLB0): rr = 0 -> CU0 in c0, CU1 in c1.
  b.req(0, 0x10);
  b.req(1, 0x10);
  L1tlbOut o = b.step();
  EXPECT_TRUE(o.req_ready[0]);
  EXPECT_FALSE(o.req_ready[1]);
  EXPECT_TRUE(b.m.events().xbar_conflict);
  EXPECT_EQ(b.m.rr(0), 1u);
  b.req(1, 0x10);
  o = b.step();  // c1
  EXPECT_TRUE(o.req_ready[1]);
  b.step();  // c2: CU0 allocates MSHR 0
  b.step();  // c3: CU1 merges at edge 3
  EXPECT_TRUE(b.m.events().mshr_merge);
  EXPECT_FALSE(b.m.events().merge_repeat_same_cu);
  EXPECT_EQ(b.m.mshr_waiters(0, 0), 3u);
  b.run_to(12);
  // L2: taken c4, answer c5, fill responses c9 to both.
  ASSERT_EQ(b.l2log.size(), 1u);
  EXPECT_EQ(b.l2log[0].cyc, 4u);
  auto f0 = b.resps(0, true), f1 = b.resps(1, true);
  ASSERT_EQ(f0.size(), 1u);
  ASSERT_EQ(f1.size(), 1u);
  EXPECT_EQ(f0[0].cyc, 9u);
  EXPECT_EQ(f1[0].cyc, 9u);
  EXPECT_EQ(f1[0].ppn, ppn_of(0x10));
  EXPECT_TRUE(b.resps(0, false).empty());
  EXPECT_TRUE(b.resps(1, false).empty());
  EXPECT_EQ(b.m.stats().lookup_misses, 1u);
  EXPECT_EQ(b.m.stats().mshr_hits, 1u);
}

TEST(L1tlbModel, RepeatRequestOfOneCuMergedIntoOneResponse) {
  Bench b(P4());
  b.req(0, 0x10);
  b.step();  // c0 accepted
  b.req(0, 0x10);
  L1tlbOut o = b.step();  // c1 accepted again
  EXPECT_TRUE(o.req_ready[0]);
  b.step();  // c2 alloc
  b.step();  // c3 merge of the same CU
  EXPECT_TRUE(b.m.events().mshr_merge);
  EXPECT_TRUE(b.m.events().merge_repeat_same_cu);
  EXPECT_EQ(b.m.mshr_waiters(0, 0), 1u);
  b.run_to(20);
  auto f = b.resps(0, true);
  ASSERT_EQ(f.size(), 1u);  // one fill response answers both requests
  EXPECT_EQ(f[0].cyc, 9u);
  EXPECT_TRUE(b.resps(0, false).empty());
  EXPECT_EQ(b.l2log.size(), 1u);
}

TEST(L1tlbModel, MergeAtWriteEdge) {
  Bench b(P4());
  b.req(0, 0x10);
  b.run_to(5);  // accept c0, L2 take c4, answer c5 (auto, latency 1): write at edge 7
  // c5: CU1 asks 0x10: r1 c6, decide c7 = w: misses the entry, merges.
  b.req(1, 0x10);
  EXPECT_TRUE(b.peek().req_ready[1]);
  b.step();  // c5
  b.step();  // c6
  b.step();  // c7: merge and write at the same edge
  EXPECT_TRUE(b.m.events().mshr_merge);
  EXPECT_TRUE(b.m.events().merge_at_write_edge);
  EXPECT_EQ(b.m.find(0, 0x10, 0), 0);
  EXPECT_EQ(b.m.mshr_waiters(0, 0), 3u);
  b.run_to(14);
  auto f1 = b.resps(1, true);
  ASSERT_EQ(f1.size(), 1u);
  EXPECT_EQ(f1[0].cyc, 9u);  // answered by the f3 of c8
  EXPECT_EQ(b.resps(0, true).size(), 1u);
  EXPECT_TRUE(b.resps(1, false).empty());
  EXPECT_EQ(b.l2log.size(), 1u);
}

TEST(L1tlbModel, LookupAfterSuppressedFillAllocatesNewMshr) {
  Bench b(P4());
  b.auto_l2 = false;
  b.req(0, 0x10);
  b.run_to(4);  // MSHR 0 allocated at edge 2, sent at edge 3
  // c4: L2 takes the request; shootdown of 0x10 accepted in c4 (pipelines empty).
  b.sd(false, 0x10);
  L1tlbOut o = b.step();
  EXPECT_TRUE(o.l2_req_valid[0]);
  EXPECT_TRUE(o.sd_ready);
  b.step();  // c5 sd1
  // c6: sd2, kill at edge 6; the L2 answers in c6.
  b.l2resp(0, 0, 0x0aa, 1);
  b.step();
  EXPECT_TRUE(b.m.events().kill_pending);
  EXPECT_TRUE(b.m.mshr_kill(0, 0));
  // c7: requests accepted again (sd_done). CU1 asks 0x10: decide in c9 = w + 1.
  b.req(1, 0x10);
  o = b.step();
  EXPECT_TRUE(o.sd_done);
  EXPECT_TRUE(o.req_ready[1]);
  o = b.step();  // c8: f2, suppressed write at edge 8
  EXPECT_TRUE(b.m.events().fill_suppressed);
  EXPECT_EQ(b.m.find(0, 0x10, 0), -1);
  EXPECT_FALSE(b.m.mshr_pending(0, 0));
  EXPECT_TRUE(b.m.mshr_valid(0, 0));
  o = b.step();  // c9: f3 (MSHR 0 freed) and CU1's decide: no pending MSHR -> allocate MSHR 1
  EXPECT_TRUE(b.m.events().lookup_miss_alloc);
  EXPECT_FALSE(b.m.events().mshr_merge);
  EXPECT_FALSE(b.m.mshr_valid(0, 0));
  EXPECT_TRUE(b.m.mshr_valid(0, 1) && b.m.mshr_pending(0, 1));
  EXPECT_EQ(b.m.mshr_waiters(0, 1), 2u);
  o = b.step();  // c10: fill to CU0 only (pre-shootdown translation), MSHR 1 chosen for the L2
  EXPECT_TRUE(o.fill_valid[0]);
  EXPECT_EQ(o.fill_ppn[0], 0x0aau);
  EXPECT_FALSE(o.fill_valid[1]);
  o = b.step();  // c11
  EXPECT_TRUE(o.l2_req_valid[0]);
  EXPECT_EQ(o.l2_req_tag[0], 1u);  // {k 0, mshr 1}
  EXPECT_EQ(o.l2_req_vpn[0], 0x10u);
}

TEST(L1tlbModel, FillAtCompareEdgePatchHits) {
  Bench b(P4());
  b.req(0, 0x10);
  b.run_to(6);  // fill of 0x10 writes at edge 7
  // c6: CU1 asks 0x10: compare in c7 (patched with the write of edge 7), decide c8 hits.
  b.req(1, 0x10);
  b.step();
  b.step();  // c7
  EXPECT_TRUE(b.m.events().fill_patch_at_compare);
  EXPECT_EQ(b.m.r2_match(0), 0);
  b.step();  // c8
  EXPECT_TRUE(b.m.events().hit);
  b.run_to(12);
  auto r1 = b.resps(1, false);
  ASSERT_EQ(r1.size(), 1u);
  EXPECT_EQ(r1[0].cyc, 9u);
  EXPECT_EQ(r1[0].ppn, ppn_of(0x10));
  EXPECT_TRUE(b.resps(1, true).empty());  // not a waiter
  EXPECT_EQ(b.resps(0, true).size(), 1u);
  EXPECT_EQ(b.m.stats().lookup_misses, 1u);
}

TEST(L1tlbModel, CreditExhaustedBackPressure) {
  // M = 1 per TLB: mshrs_per_cu = 1 with S = 1 (private TLBs).
  Bench b(mk(4, 4, 4, 4, 1));
  ASSERT_EQ(b.m.params().mshrs, 1u);
  // c0: CU0 asks A = 0x10 (miss); from c1 on it holds B = 0x20.
  b.req(0, 0x10);
  EXPECT_TRUE(b.step().req_ready[0]);
  std::vector<unsigned> ready_at;
  bool credit_block_seen = false;
  for (unsigned c = 1; c <= 10; ++c) {
    b.req(0, 0x20);
    const L1tlbOut o = b.step();
    if (o.req_ready[0]) {
      ready_at.push_back(c);
      break;
    }
    credit_block_seen |= b.m.events().credit_block;
    EXPECT_TRUE(b.m.events().credit_block) << "c" << c;
  }
  // c1: free 1 > r1 1 fails; c2: free 1 > r2 1 fails; c3..c8: MSHR in use
  // (allocated at edge 2, L2 c4, answer c5, freed at edge 8); c9: free.
  ASSERT_EQ(ready_at.size(), 1u);
  EXPECT_EQ(ready_at[0], 9u);
  EXPECT_TRUE(credit_block_seen);
  // Hits: one accept every 3 cycles with M = 1 (credit counts r1 and r2).
  b.run_to(30);
  std::vector<unsigned> acc;
  for (unsigned c = 30; c < 40; ++c) {
    b.req(0, 0x20);
    if (b.step().req_ready[0]) acc.push_back(c);
  }
  EXPECT_EQ(acc, (std::vector<unsigned>{30, 33, 36, 39}));
}

TEST(L1tlbModel, HitAndFillToOneCuInOneCycle) {
  Bench b(P4());
  install(b, 0, 0x20);  // c0 .. c12
  const unsigned t0 = b.cyc;
  // CU0 asks A = 0x10 (miss): accept t0, fill response t0 + 9.
  b.req(0, 0x10);
  b.step();
  b.run_to(t0 + 6);
  // CU0 asks B = 0x20 (hit) in t0 + 6: hit response t0 + 9.
  b.req(0, 0x20);
  b.step();
  b.run_to(t0 + 8);
  b.step();  // edge t0 + 8: f3 of A answers CU0 and the decide of B hits for CU0
  EXPECT_TRUE(b.m.events().hit_and_fill_same_cu);
  const L1tlbOut o = b.step();  // t0 + 9
  EXPECT_TRUE(o.resp_valid[0]);
  EXPECT_TRUE(o.fill_valid[0]);
  EXPECT_EQ(o.resp_vpn[0], 0x20u);
  EXPECT_EQ(o.fill_vpn[0], 0x10u);
  EXPECT_EQ(o.resp_ppn[0], ppn_of(0x20));
  EXPECT_EQ(o.fill_ppn[0], ppn_of(0x10));
}

TEST(L1tlbModel, CrossbarRoundRobinEveryCuOfClusterRequestsOneTlb) {
  // N = 8 CUs of one cluster all want TLB0 (hits: no MSHR, one accept per cycle).
  const L1tlbParams p = mk(8, 2, 1, 4, 2);
  Bench b(p);
  install(b, 0, 0x10);
  std::vector<unsigned> order;
  for (unsigned c = 0; c < 32; ++c) {
    for (unsigned u = 0; u < 8; ++u) b.req(u, 0x10);
    const L1tlbOut o = b.step();
    unsigned n = 0;
    for (unsigned u = 0; u < 8; ++u)
      if (o.req_ready[u]) {
        order.push_back(u);
        ++n;
      }
    EXPECT_EQ(n, 1u);
    EXPECT_TRUE(b.m.events().xbar_conflict);
  }
  // rr starts at 1 (CU0 was accepted by install): 1, 2, ..., 7, 0, 1, ...
  for (unsigned i = 0; i < order.size(); ++i) EXPECT_EQ(order[i], (1 + i) % 8) << i;
  // Random valid patterns, each CU holds its request until accepted: no CU
  // waits for more than N - 1 grants to others.
  std::mt19937_64 rng(7);
  std::vector<bool> want(8, false);
  std::vector<unsigned> waited(8, 0);
  unsigned worst = 0;
  for (unsigned c = 0; c < 2000; ++c) {
    for (unsigned u = 0; u < 8; ++u) {
      if (!want[u] && rng() % 3 == 0) want[u] = true;
      if (want[u]) b.req(u, 0x10);
    }
    const L1tlbOut o = b.step();
    for (unsigned u = 0; u < 8; ++u)
      if (o.req_ready[u]) {
        ASSERT_TRUE(want[u]);
        want[u] = false;
        worst = std::max(worst, waited[u]);
        waited[u] = 0;
        for (unsigned v = 0; v < 8; ++v)
          if (v != u && want[v]) ++waited[v];
      }
  }
  EXPECT_LE(worst, 7u);
  std::cout << "[ crossbar ] worst grants to others while waiting: " << worst << " (N - 1 = 7)\n";
}

// Four misses, two per TLB, with the L2 not ready: the L2 request register
// is loaded once and holds; then TLBs alternate 0, 1, 0, 1.
TEST(L1tlbModel, L2RoundRobinOverTlbsAndBackPressure) {
  Bench b(P4());
  b.ready[0] = 0;
  // c0: CU0 0x10 (TLB0), CU1 0x11 (TLB1), CU2 0x20 (TLB0), CU3 0x21 (TLB1).
  b.req(0, 0x10);
  b.req(1, 0x11);
  b.req(2, 0x20);
  b.req(3, 0x21);
  L1tlbOut o = b.step();
  EXPECT_TRUE(o.req_ready[0] && o.req_ready[1] && !o.req_ready[2] && !o.req_ready[3]);
  b.req(2, 0x20);
  b.req(3, 0x21);
  o = b.step();  // c1
  EXPECT_TRUE(o.req_ready[2] && o.req_ready[3]);
  b.run_to(4);
  o = b.peek();  // c4: q loaded at edge 3 with TLB0 / MSHR 0 (lp = 0)
  EXPECT_TRUE(o.l2_req_valid[0]);
  EXPECT_EQ(o.l2_req_vpn[0], 0x10u);
  EXPECT_EQ(b.m.lp(0), 1u);
  for (unsigned c = 4; c < 10; ++c) {
    o = b.step();  // held under back-pressure
    EXPECT_TRUE(o.l2_req_valid[0]);
    EXPECT_EQ(o.l2_req_vpn[0], 0x10u);
    EXPECT_EQ(o.l2_req_tag[0], 0u);
    EXPECT_TRUE(b.m.events().l2_backpressure);
  }
  EXPECT_TRUE(b.l2log.empty());
  b.ready[0] = 1;
  b.run_to(20);
  ASSERT_EQ(b.l2log.size(), 4u);
  const uint64_t want_vpn[4] = {0x10, 0x11, 0x20, 0x21};
  const uint64_t want_tag[4] = {0, 4, 1, 5};  // {k, mshr}: k << 2 | m
  for (unsigned i = 0; i < 4; ++i) {
    EXPECT_EQ(b.l2log[i].cyc, 10 + i);
    EXPECT_EQ(b.l2log[i].vpn, want_vpn[i]);
    EXPECT_EQ(b.l2log[i].tag, want_tag[i]);
  }
  // Every CU gets its fill: answers in c11 .. c14, fills in c15 .. c18.
  for (unsigned u = 0; u < 4; ++u) {
    auto f = b.resps(u, true);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].cyc, 15 + (u == 0 ? 0 : u == 1 ? 1 : u == 2 ? 2 : 3));
  }
}

TEST(L1tlbModel, L2BackPressureTogglingTakesEachRequestOnce) {
  Bench b(P4());
  b.lat = 3;
  std::mt19937_64 rng(11);
  // Eight distinct misses over both TLBs by all CUs, L2 ready random.
  const uint64_t vpns[8] = {0x10, 0x11, 0x20, 0x21, 0x30, 0x31, 0x40, 0x41};
  unsigned next = 0;
  std::vector<uint64_t> want(4, 0);
  std::vector<bool> has(4, false);
  for (unsigned c = 0; c < 200; ++c) {
    b.ready[0] = (rng() % 3) != 0;
    for (unsigned u = 0; u < 4; ++u) {
      if (!has[u] && next < 8) {
        want[u] = vpns[next++];
        has[u] = true;
      }
      if (has[u]) b.req(u, want[u]);
    }
    const L1tlbOut o = b.step();
    for (unsigned u = 0; u < 4; ++u)
      if (o.req_ready[u]) has[u] = false;
  }
  ASSERT_EQ(b.l2log.size(), 8u);
  std::set<uint64_t> seen;
  for (const L2Take& t : b.l2log) seen.insert(t.vpn);
  EXPECT_EQ(seen.size(), 8u);
  unsigned fills = 0;
  for (const Resp& r : b.log) fills += r.fill;
  EXPECT_EQ(fills, 8u);
}

TEST(L1tlbModel, ShootdownOneVpnWithPendingMshrKills) {
  Bench b(P4());
  install(b, 0, 0x14);  // TLB0 set 0: another translation stays
  install(b, 0, 0x18);  // removed by a second shootdown below
  const unsigned t0 = b.cyc;
  b.ready[0] = 0;
  b.req(0, 0x10);
  b.step();  // accept t0; MSHR alloc edge t0+2, q loaded edge t0+3
  b.run_to(t0 + 3);
  // t0+3: shootdown of 0x10 (pipelines empty): sd1 t0+4, sd2 t0+5 (kill), done t0+6.
  b.sd(false, 0x10);
  b.req(1, 0x14);
  L1tlbOut o = b.step();
  EXPECT_TRUE(o.sd_ready);
  EXPECT_FALSE(o.req_ready[1]);  // sd_valid blocks
  b.req(1, 0x14);
  o = b.step();  // t0+4
  EXPECT_FALSE(o.sd_ready);
  EXPECT_FALSE(o.req_ready[1]);
  b.req(1, 0x14);
  o = b.step();  // t0+5: kill at the edge
  EXPECT_FALSE(o.req_ready[1]);
  EXPECT_TRUE(b.m.events().shootdown_one);
  EXPECT_TRUE(b.m.events().kill_pending);
  EXPECT_TRUE(b.m.mshr_kill(0, 0));
  b.req(1, 0x14);
  o = b.step();  // t0+6
  EXPECT_TRUE(o.sd_done);
  EXPECT_TRUE(o.req_ready[1]);  // accepted again from e+3
  b.ready[0] = 1;
  b.run_to(t0 + 7);
  // L2 takes at t0+7, answers t0+8, f2 t0+10 suppressed, fill response t0+12.
  b.run_to(t0 + 20);
  auto f = b.resps(0, true);
  ASSERT_GE(f.size(), 3u);
  EXPECT_EQ(f.back().vpn, 0x10u);
  EXPECT_EQ(f.back().cyc, t0 + 12);
  EXPECT_EQ(b.m.find(0, 0x10, 0), -1);   // nothing installed
  EXPECT_GE(b.m.find(0, 0x14, 0), 0);    // other entries untouched
  EXPECT_EQ(b.m.stats().fills_suppressed, 1u);
  // A shootdown of an installed translation removes it.
  b.sd(false, 0x18);
  b.step();
  b.run(3);
  EXPECT_EQ(b.m.find(0, 0x18, 0), -1);
  EXPECT_GE(b.m.find(0, 0x14, 0), 0);
}

TEST(L1tlbModel, ShootdownRacingFillAtEPlus1) {
  Bench b(P4());
  b.req(0, 0x10);
  b.run_to(6);  // fill writes 0x10 at edge 7
  // e = 6: sd1 in c7 compares with the write of edge 7 patched in; invalidated at edge 8.
  b.sd(false, 0x10);
  EXPECT_TRUE(b.peek().sd_ready);
  b.step();
  b.step();  // c7: write
  EXPECT_EQ(b.m.find(0, 0x10, 0), 0);
  EXPECT_FALSE(b.m.events().fill_suppressed);
  b.step();  // c8: invalidation; the MSHR is no longer pending: no kill
  EXPECT_EQ(b.m.find(0, 0x10, 0), -1);
  EXPECT_FALSE(b.m.events().kill_pending);
  b.run_to(12);
  auto f = b.resps(0, true);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].cyc, 9u);
}

TEST(L1tlbModel, ShootdownRacingFillAtEPlus2) {
  Bench b(P4());
  b.req(0, 0x10);
  b.run_to(5);  // fill writes 0x10 at edge 7
  // e = 5: sd2 in c7; the fill writing at edge 7 matches: suppressed.
  b.sd(false, 0x10);
  EXPECT_TRUE(b.peek().sd_ready);
  b.step();
  b.step();  // c6
  b.step();  // c7
  EXPECT_TRUE(b.m.events().fill_suppressed);
  EXPECT_TRUE(b.m.events().kill_pending);
  EXPECT_EQ(b.m.find(0, 0x10, 0), -1);
  b.run_to(12);
  auto f = b.resps(0, true);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].cyc, 9u);
  EXPECT_EQ(f[0].ppn, ppn_of(0x10));
}

TEST(L1tlbModel, FlushAll) {
  Bench b(P4());
  install(b, 0, 0x10);
  install(b, 1, 0x11);
  install(b, 2, 0x12);
  install(b, 3, 0x17);
  // Each of the four sets (TLB 0/1, set 0/1) had one fill, into way 0 (the
  // reset victim): ages (w0..w3) (3, 2, 1, 0) -> touch 0 -> (0, 3, 2, 1).
  for (unsigned j = 0; j < 2; ++j)
    for (unsigned s = 0; s < 2; ++s) {
      EXPECT_EQ(b.m.age(j, s, 0), 0u);
      EXPECT_EQ(b.m.age(j, s, 1), 3u);
      EXPECT_EQ(b.m.victim(j, s), 1u);
    }
  const unsigned t0 = b.cyc;
  b.ready[0] = 0;
  b.req(1, 0x31);
  b.step();
  b.run_to(t0 + 4);  // MSHR 0 of TLB1 pending, held in q
  b.sd(true, 0);
  b.step();  // e = t0+4
  b.step();
  b.step();  // e+2: flush
  EXPECT_TRUE(b.m.events().shootdown_all);
  EXPECT_TRUE(b.m.events().kill_pending);
  for (unsigned j = 0; j < 2; ++j)
    for (unsigned s = 0; s < 2; ++s)
      for (unsigned w = 0; w < 4; ++w) EXPECT_FALSE(b.m.entry_valid(j, s, w));
  EXPECT_TRUE(b.m.mshr_kill(1, 0));
  // The flush-all returns every set's ages to the reset values W-1-w.
  for (unsigned j = 0; j < 2; ++j)
    for (unsigned s = 0; s < 2; ++s) {
      for (unsigned w = 0; w < 4; ++w) EXPECT_EQ(b.m.age(j, s, w), 3u - w) << j << s << w;
      EXPECT_EQ(b.m.victim(j, s), 0u);
    }
  EXPECT_TRUE(b.step().sd_done);
  b.ready[0] = 1;
  b.run(12);
  auto f = b.resps(1, true);
  ASSERT_FALSE(f.empty());
  EXPECT_EQ(f.back().vpn, 0x31u);
  EXPECT_EQ(b.m.find(0, 0x31, 0), -1);
  // The killed fill did not write, so it did not touch either.
  for (unsigned w = 0; w < 4; ++w) EXPECT_EQ(b.m.age(1, 0, w), 3u - w);
}

TEST(L1tlbModel, LruVictimOrder) {
  Bench b(P4());
  // Set 0 of TLB0: vpn = vtag << 2. Ways fill 0, 1, 2, 3: the reset ages
  // (3, 2, 1, 0) make way 0 the victim, each fill touches its way, the next
  // oldest is the next way (invalid ways are the least recent).
  for (uint64_t x = 1; x <= 4; ++x) install(b, 0, x << 2);
  for (unsigned w = 0; w < 4; ++w) EXPECT_EQ(b.m.entry_vpn(0, 0, w), (w + 1u) << 2);
  EXPECT_EQ(b.m.age(0, 0, 0), 3u);
  EXPECT_EQ(b.m.age(0, 0, 3), 0u);
  EXPECT_EQ(b.m.victim(0, 0), 0u);
  install(b, 1, 1 << 2);  // hit way 0: ages w0 0, w3 1, w2 2, w1 3
  EXPECT_EQ(b.m.age(0, 0, 0), 0u);
  EXPECT_EQ(b.m.age(0, 0, 1), 3u);
  EXPECT_EQ(b.m.victim(0, 0), 1u);
  install(b, 0, 5 << 2);  // replaces way 1
  EXPECT_TRUE(b.m.entry_valid(0, 0, 1));
  EXPECT_EQ(b.m.entry_vpn(0, 0, 1), 5u << 2);
  EXPECT_EQ(b.m.find(0, 2 << 2, 0), -1);
  EXPECT_EQ(b.m.victim(0, 0), 2u);  // ages: w1 0, w0 1, w3 2, w2 3
  // Victim from the registers of the write cycle: a hit on way 2 decided in
  // the write cycle does not save it (and still answers with the old entry).
  const unsigned t0 = b.cyc;
  b.req(0, 6 << 2);  // miss: accept t0, answer t0+5, write at edge t0+7
  b.step();
  b.run_to(t0 + 5);
  b.req(1, 3 << 2);  // hit on way 2: decide in t0+7
  b.step();
  b.run_to(t0 + 7);
  b.step();
  EXPECT_TRUE(b.m.events().hit);
  EXPECT_TRUE(b.m.events().victim_replacement);
  EXPECT_EQ(b.m.entry_vpn(0, 0, 2), 6u << 2);
  // Hit touch of way 2 first (w1 1, w0 2, w3 3, w2 0), then the fill's touch
  // of way 2 (already 0: no change).
  EXPECT_EQ(b.m.age(0, 0, 2), 0u);
  EXPECT_EQ(b.m.age(0, 0, 1), 1u);
  EXPECT_EQ(b.m.age(0, 0, 0), 2u);
  EXPECT_EQ(b.m.age(0, 0, 3), 3u);
  b.run(4);
  auto r = b.resps(1, false);
  ASSERT_FALSE(r.empty());
  EXPECT_EQ(r.back().vpn, 3u << 2);
  EXPECT_EQ(r.back().ppn, ppn_of(3 << 2));
  EXPECT_EQ(r.back().cyc, t0 + 8);
}

TEST(L1tlbModel, PlruVictimOrder) {
  // U = 4, T = C = 1: S = 4, W = 8, M = 8; HB = 0, set = vpn[1:0].
  Bench b(mk(4, 1, 1, 8, 2, true));
  fill_plru_set0(b);
  // Touches 0, 4, 2, 6, 1, 5, 3, 7 leave every node pointing at its lower half.
  for (unsigned n = 1; n < 8; ++n) EXPECT_EQ(b.m.plru_bit(0, 0, n), 0u) << n;
  EXPECT_EQ(b.m.victim(0, 0), 0u);
  install(b, 1, 1 << 2);  // hit way 0: nodes 1, 2, 4 = 1
  EXPECT_EQ(b.m.plru_bit(0, 0, 1), 1u);
  EXPECT_EQ(b.m.plru_bit(0, 0, 2), 1u);
  EXPECT_EQ(b.m.plru_bit(0, 0, 4), 1u);
  EXPECT_EQ(b.m.victim(0, 0), 4u);  // 1 -> 3 -> 6 -> leaf 12
  install(b, 0, 9 << 2);            // replaces way 4 (2 << 2); nodes 1 = 0, 3 = 1, 6 = 1
  EXPECT_EQ(b.m.entry_vpn(0, 0, 4), 9u << 2);
  EXPECT_EQ(b.m.find(0, 2 << 2, 0), -1);
  EXPECT_EQ(b.m.victim(0, 0), 2u);  // 1 -> 2 -> 5 -> leaf 10
  install(b, 0, 10 << 2);           // replaces way 2 (3 << 2)
  EXPECT_EQ(b.m.entry_vpn(0, 0, 2), 10u << 2);
  ASSERT_EQ(b.elog.size(), 2u);
  EXPECT_EQ(b.elog[0].vpn, 2u << 2);
  EXPECT_EQ(b.elog[1].vpn, 3u << 2);
}

// Random traffic over a clustered configuration (U = 8, T = 4, C = 2, S = 2,
// W = 4, M = 6) with random L2 latencies and back-pressure and occasional
// shootdowns. Checks every cycle: a (vpn, vmid) is present at most once per
// cluster (no replication inside a cluster) and only in its home TLB and set;
// every response carries the L2's translation; every accepted request is
// answered (hit or fill) at least 3 cycles after its accept; an evict_valid
// pulse names a translation present in its cluster before the edge and gone
// after it, and at an edge without a shootdown taking effect the only
// translation that leaves a cluster is the one its evict output names.
TEST(L1tlbModel, NoReplicationInsideClusterRandom) {
  const L1tlbParams p = mk(8, 4, 2, 4, 3);
  ASSERT_EQ(p.mshrs, 6u);
  L1tlbModel m(p);
  L1tlbIn in = m.idle_inputs();
  L1tlbOut out = m.make_outputs();
  std::mt19937_64 rng(12345);
  std::cout << "[ random ] seed 12345\n";
  struct Taken {
    unsigned cyc;
    uint64_t tag, vpn, vmid;
  };
  std::vector<std::vector<Taken>> out_l2(p.clusters);
  std::vector<std::multimap<std::pair<uint64_t, uint64_t>, unsigned>> open(p.cus);
  std::vector<bool> has(p.cus, false);
  std::vector<uint64_t> wv(p.cus), wm(p.cus);
  bool sd_pending = false;
  unsigned sd_cnt = 0, hits = 0, fills = 0, merges = 0, evicts = 0;
  L1tlbEvents seen{};
  std::vector<std::set<std::pair<uint64_t, uint64_t>>> before(p.clusters);  // per cluster, in the cycle
  L1tlbOut nxt = m.make_outputs();  // registers after the edge
  for (unsigned cyc = 0; cyc < 20000; ++cyc) {
    in = m.idle_inputs();
    for (unsigned u = 0; u < p.cus; ++u) {
      if (!has[u] && rng() % 2) {
        wv[u] = rng() % 24;  // small pool: lots of sharing, conflicts and evictions
        wm[u] = rng() % 2;
        has[u] = true;
      }
      if (has[u]) {
        in.req_valid[u] = 1;
        in.req_vpn[u] = wv[u];
        in.req_vmid[u] = wm[u];
      }
    }
    for (unsigned c = 0; c < p.clusters; ++c) {
      in.l2_req_ready[c] = rng() % 4 != 0;
      auto& v = out_l2[c];
      if (!v.empty() && rng() % 2) {
        const size_t k = rng() % v.size();
        if (v[k].cyc < cyc) {
          in.l2_resp_valid[c] = 1;
          in.l2_resp_tag[c] = v[k].tag;
          in.l2_resp_ppn[c] = ppn_of(v[k].vpn, v[k].vmid);
          in.l2_resp_perm[c] = perm_of(v[k].vpn);
          v.erase(v.begin() + static_cast<long>(k));
        }
      }
    }
    if (!sd_pending && rng() % 200 == 0) sd_pending = true;
    if (sd_pending) {
      in.sd_valid = true;
      in.sd_all = (sd_cnt % 5) == 4;
      in.sd_vpn = sd_cnt % 24;
      in.sd_vmid = sd_cnt % 2;
    }
    m.outputs(in, out);
    for (unsigned u = 0; u < p.cus; ++u) {
      if (out.req_ready[u]) {
        ASSERT_TRUE(has[u]);
        open[u].insert({{wv[u], wm[u]}, cyc});
        has[u] = false;
      }
      for (int kind = 0; kind < 2; ++kind) {
        const bool v = kind ? out.fill_valid[u] : out.resp_valid[u];
        if (!v) continue;
        const uint64_t vpn = kind ? out.fill_vpn[u] : out.resp_vpn[u];
        const uint64_t vmid = kind ? out.fill_vmid[u] : out.resp_vmid[u];
        const uint64_t ppn = kind ? out.fill_ppn[u] : out.resp_ppn[u];
        ASSERT_EQ(ppn, ppn_of(vpn, vmid)) << "cycle " << cyc;
        // A hit in cycle r answers exactly the request accepted in r - 3; a
        // fill in r answers every open request of the key accepted up to r - 4
        // (decided, and merged, at the write edge r - 2 at the latest).
        auto range = open[u].equal_range({vpn, vmid});
        unsigned n = 0;
        for (auto it = range.first; it != range.second;) {
          const bool answers = kind ? it->second + 4 <= cyc : (it->second + 3 == cyc && n == 0);
          if (answers) {
            it = open[u].erase(it);
            ++n;
          } else {
            ++it;
          }
        }
        ASSERT_GE(n, 1u) << "unexpected response cycle " << cyc << " cu " << u;
        (kind ? fills : hits) += 1;
      }
    }
    for (unsigned c = 0; c < p.clusters; ++c)
      if (out.l2_req_valid[c] && in.l2_req_ready[c])
        out_l2[c].push_back({cyc, out.l2_req_tag[c], out.l2_req_vpn[c], out.l2_req_vmid[c]});
    if (in.sd_valid && out.sd_ready) {
      sd_pending = false;
      ++sd_cnt;
    }
    m.posedge(in);
    const L1tlbEvents& e = m.events();
    merges += e.mshr_merge;
    seen.merge_at_write_edge |= e.merge_at_write_edge;
    seen.fill_patch_at_compare |= e.fill_patch_at_compare;
    seen.credit_block |= e.credit_block;
    seen.fill_suppressed |= e.fill_suppressed;
    seen.hit_and_fill_same_cu |= e.hit_and_fill_same_cu;
    seen.victim_replacement |= e.victim_replacement;
    seen.merge_repeat_same_cu |= e.merge_repeat_same_cu;
    seen.evict |= e.evict;
    m.outputs(in, nxt);  // evict_* registered at this edge (registers only)
    // No replication inside a cluster, only the home TLB / set.
    for (unsigned c = 0; c < p.clusters; ++c) {
      std::set<std::pair<uint64_t, uint64_t>> present;
      for (unsigned k = 0; k < p.tlbs_per_cluster; ++k)
        for (unsigned s = 0; s < p.sets; ++s)
          for (unsigned w = 0; w < p.ways; ++w) {
            const unsigned j = c * p.tlbs_per_cluster + k;
            if (!m.entry_valid(j, s, w)) continue;
            const uint64_t vpn = m.entry_vpn(j, s, w);
            ASSERT_EQ(m.home_of(vpn), k);
            ASSERT_EQ(m.set_of(vpn), s);
            ASSERT_EQ(m.entry_ppn(j, s, w), ppn_of(vpn, m.entry_vmid(j, s, w)));
            ASSERT_TRUE(present.insert({vpn, m.entry_vmid(j, s, w)}).second)
                << "replicated vpn " << vpn << " in cluster " << c << " cycle " << cyc;
          }
      // Invalid ways are always the least recent (Replacement, lru): the n
      // invalid ways of a set hold the ages W-n .. W-1, so the victim is an
      // invalid way whenever the set has one.
      for (unsigned k = 0; k < p.tlbs_per_cluster; ++k)
        for (unsigned s = 0; s < p.sets; ++s) {
          const unsigned j = c * p.tlbs_per_cluster + k;
          unsigned ninv = 0;
          for (unsigned w = 0; w < p.ways; ++w) ninv += !m.entry_valid(j, s, w);
          for (unsigned w = 0; w < p.ways; ++w) {
            if (!m.entry_valid(j, s, w)) {
              ASSERT_GE(m.age(j, s, w), p.ways - ninv) << "TLB " << j << " set " << s << " cycle " << cyc;
            }
          }
          if (ninv) {
            ASSERT_FALSE(m.entry_valid(j, s, m.victim(j, s))) << cyc;
          }
        }
      std::vector<std::pair<uint64_t, uint64_t>> gone;
      for (const auto& x : before[c])
        if (!present.count(x)) gone.push_back(x);
      if (nxt.evict_valid[c]) {
        const std::pair<uint64_t, uint64_t> key{nxt.evict_vpn[c], nxt.evict_vmid[c]};
        ASSERT_TRUE(before[c].count(key)) << "evicted vpn " << key.first << " not present, cycle " << cyc;
        ASSERT_FALSE(present.count(key)) << "evicted vpn " << key.first << " still present, cycle " << cyc;
        ASSERT_EQ(nxt.evict_ppn[c], ppn_of(key.first, key.second)) << cyc;
        ASSERT_EQ(nxt.evict_perm[c], perm_of(key.first)) << cyc;
        ++evicts;
      }
      if (!e.shootdown_one && !e.shootdown_all) {
        ASSERT_EQ(gone.size(), nxt.evict_valid[c] ? 1u : 0u) << "cluster " << c << " cycle " << cyc;
      }
      before[c] = std::move(present);
    }
  }
  EXPECT_EQ(m.stats().evictions, evicts);  // every pulse seen, one per counted eviction
  // Drain.
  for (unsigned cyc = 20000; cyc < 20100; ++cyc) {
    in = m.idle_inputs();
    for (unsigned c = 0; c < p.clusters; ++c) {
      auto& v = out_l2[c];
      if (!v.empty() && v[0].cyc < cyc) {
        in.l2_resp_valid[c] = 1;
        in.l2_resp_tag[c] = v[0].tag;
        in.l2_resp_ppn[c] = ppn_of(v[0].vpn, v[0].vmid);
        in.l2_resp_perm[c] = perm_of(v[0].vpn);
        v.erase(v.begin());
      }
    }
    m.outputs(in, out);
    for (unsigned u = 0; u < p.cus; ++u)
      for (int kind = 0; kind < 2; ++kind) {
        const bool v = kind ? out.fill_valid[u] : out.resp_valid[u];
        if (!v) continue;
        const uint64_t vpn = kind ? out.fill_vpn[u] : out.resp_vpn[u];
        const uint64_t vmid = kind ? out.fill_vmid[u] : out.resp_vmid[u];
        auto range = open[u].equal_range({vpn, vmid});
        for (auto it = range.first; it != range.second;) it = open[u].erase(it);
      }
    for (unsigned c = 0; c < p.clusters; ++c)
      if (out.l2_req_valid[c] && in.l2_req_ready[c])
        out_l2[c].push_back({cyc, out.l2_req_tag[c], out.l2_req_vpn[c], out.l2_req_vmid[c]});
    m.posedge(in);
  }
  for (unsigned u = 0; u < p.cus; ++u) EXPECT_TRUE(open[u].empty()) << "CU " << u << " left unanswered";
  std::cout << "[ random ] hits " << hits << " fills " << fills << " merges " << merges << " shootdowns "
            << sd_cnt << " evictions " << evicts << "\n";
  EXPECT_TRUE(seen.evict);
  EXPECT_GT(sd_cnt, 10u);
  EXPECT_TRUE(seen.merge_at_write_edge);
  EXPECT_TRUE(seen.fill_patch_at_compare);
  EXPECT_TRUE(seen.credit_block);
  EXPECT_TRUE(seen.fill_suppressed);
  EXPECT_TRUE(seen.hit_and_fill_same_cu);
  EXPECT_TRUE(seen.victim_replacement);
  EXPECT_TRUE(seen.merge_repeat_same_cu);
}

TEST(L1tlbModel, ResetMidTraffic) {
  const L1tlbParams p = P4();
  Bench b(p);
  b.lat = 2;
  std::mt19937_64 rng(3);
  for (unsigned c = 0; c < 40; ++c) {
    for (unsigned u = 0; u < 4; ++u)
      if (rng() % 2) b.req(u, rng() % 32);
    b.step();
  }
  // Make sure something is in flight.
  bool busy = false;
  for (unsigned j = 0; j < 2; ++j)
    for (unsigned mm = 0; mm < p.mshrs; ++mm) busy |= b.m.mshr_valid(j, mm);
  for (unsigned j = 0; j < 2; ++j) busy |= b.m.r1_valid(j) || b.m.r2_valid(j);
  EXPECT_TRUE(busy);
  // Reset cycle: outputs are the reset values.
  b.in.rst_n = false;
  b.req(0, 0x10);
  L1tlbOut o = b.step();
  EXPECT_TRUE(b.m.events().reset);
  for (unsigned u = 0; u < 4; ++u) {
    EXPECT_FALSE(o.resp_valid[u]);
    EXPECT_FALSE(o.fill_valid[u]);
    EXPECT_EQ(o.resp_vpn[u], 0u);
    EXPECT_EQ(o.fill_ppn[u], 0u);
  }
  EXPECT_FALSE(o.l2_req_valid[0]);
  EXPECT_FALSE(o.sd_done);
  EXPECT_TRUE(o.sd_ready);
  for (unsigned j = 0; j < 2; ++j) {
    EXPECT_EQ(b.m.rr(j), 0u);
    EXPECT_EQ(b.m.free_mshrs(j), p.mshrs);
    for (unsigned s = 0; s < 2; ++s)
      for (unsigned w = 0; w < 4; ++w) {
        EXPECT_FALSE(b.m.entry_valid(j, s, w));
        EXPECT_EQ(b.m.age(j, s, w), 3u - w);
      }
  }
  EXPECT_EQ(b.m.lp(0), 0u);
  // From here the model behaves as a fresh one with the same inputs.
  Bench f(p);
  f.lat = 2;
  for (unsigned c = 0; c < 60; ++c) {
    for (unsigned u = 0; u < 4; ++u)
      if (rng() % 2) {
        const uint64_t v = rng() % 32;
        b.req(u, v);
        f.req(u, v);
      }
    const L1tlbOut x = b.step(), y = f.step();
    ASSERT_EQ(x.req_ready, y.req_ready) << c;
    ASSERT_EQ(x.resp_valid, y.resp_valid) << c;
    ASSERT_EQ(x.resp_ppn, y.resp_ppn) << c;
    ASSERT_EQ(x.fill_valid, y.fill_valid) << c;
    ASSERT_EQ(x.fill_vpn, y.fill_vpn) << c;
    ASSERT_EQ(x.l2_req_valid, y.l2_req_valid) << c;
    ASSERT_EQ(x.l2_req_tag, y.l2_req_tag) << c;
  }
}

// A translation may be present once in each cluster; a single-VPN shootdown
// removes it from the home TLB of every cluster. U = 8, T = 4, C = 2 (N = 4,
// K = 2, S = 2, W = 4, M = 6): cluster 0 = CUs 0-3 / TLBs 0-1, cluster 1 =
// CUs 4-7 / TLBs 2-3. 0x13: home 1, set 1.
TEST(L1tlbModel, ShootdownOneVpnEveryCluster) {
  Bench b(mk(8, 4, 2, 4, 3));
  install(b, 0, 0x13);
  install(b, 5, 0x13);
  install(b, 6, 0x17);
  EXPECT_GE(b.m.find(0, 0x13, 0), 0);
  EXPECT_GE(b.m.find(1, 0x13, 0), 0);
  EXPECT_TRUE(b.m.entry_valid(1, 1, unsigned(b.m.find(0, 0x13, 0))));
  EXPECT_TRUE(b.m.entry_valid(3, 1, unsigned(b.m.find(1, 0x13, 0))));
  EXPECT_EQ(b.l2log.size(), 3u);
  EXPECT_EQ(b.l2log[1].c, 1u);
  EXPECT_EQ(b.l2log[1].tag, 8u);  // {k = 1, mshr 0}: MB = clog2 6 = 3
  b.sd(false, 0x13);
  b.step();
  b.run(2);
  EXPECT_EQ(b.m.find(0, 0x13, 0), -1);
  EXPECT_EQ(b.m.find(1, 0x13, 0), -1);
  EXPECT_GE(b.m.find(1, 0x17, 0), 0);
  EXPECT_TRUE(b.step().sd_done);
}

// ---------------------------------------------------------------------------
// Eviction output (document: Fill, cycle f+2, "Eviction"; Timing summary:
// evict_valid in cycle f+3, registered at the write edge f+2).
// Clustered configuration PC = mk(8, 4, 2, 4, 3): U = 8, T = 4, C = 2, N = 4,
// K = 2, S = 2, W = 4, M = 6; HB = 1 (vpn[0]), SB = 1 (vpn[1]), TG = 10
// (vpn[11:2]), MB = 3. Cluster 1 = CUs 4-7 / TLBs 2-3. Every VPN below has
// vpn[1:0] = 3: home k = 1 (TLB 3), set 1. An evicted VPN is put back
// together as {vtag, s = 1, k = 1}, so both the set and the home field are
// non-empty and non-zero.
// The test L2 answers (ppn_of = vpn*5 + 1 + vmid*0x800, perm_of = vpn % 7):
//   0x0b (vtag 2) vmid 1: ppn 56 + 0x800 = 0x838, perm 4
//   0x0f (vtag 3):        ppn 76 = 0x4c,  perm 1
//   0x13 (vtag 4):        ppn 96 = 0x60,  perm 5
//   0x17 (vtag 5):        ppn 116 = 0x74, perm 2
//   0x1b (vtag 6):        ppn 136 = 0x88, perm 6
//   0x1f (vtag 7):        ppn 156 = 0x9c, perm 3
//   0x23 (vtag 8):        ppn 176 = 0xb0, perm 0
// A miss accepted in t with the automatic L2 (latency 1): MSHR 0 of TLB 3
// allocated at edge t+2, sent at edge t+3, taken in t+4, answered in
// f = t+5, f1 t+6, f2 t+7 (write at edge t+7), evict_valid in t+8 = f+3,
// f3 t+8, fill_valid in t+9.

L1tlbParams PC() { return mk(8, 4, 2, 4, 3); }

// Fills set 1 of TLB 3 through CU 4 (each into the victim: from the reset
// ages way 0, then 1, 2, 3, the invalid ways being the least recent):
// ways 0..3 = 0x0b (vmid 1), 0x0f, 0x13, 0x17. LRU ages (w0, w1, w2, w3)
// from reset (3, 2, 1, 0): touch 0 -> (0, 3, 2, 1), touch 1 -> (1, 0, 3, 2),
// touch 2 -> (2, 1, 0, 3), touch 3 -> (3, 2, 1, 0): victim way 0 (0x0b).
void fill_set(Bench& b) {
  install(b, 4, 0x0b, 1);
  install(b, 4, 0x0f);
  install(b, 4, 0x13);
  install(b, 4, 0x17);
}

TEST(L1tlbModel, EvictReplacementVictimClustered) {
  Bench b(PC());
  fill_set(b);
  for (unsigned w = 0; w < 4; ++w) ASSERT_TRUE(b.m.entry_valid(3, 1, w));
  ASSERT_EQ(b.m.entry_vpn(3, 1, 0), 0x0bu);
  ASSERT_EQ(b.m.victim(3, 1), 0u);
  EXPECT_TRUE(b.elog.empty());  // the four fills wrote invalid ways
  EXPECT_EQ(b.m.stats().evictions, 0u);
  const unsigned t0 = b.cyc;
  // t0: CU 4 asks 0x1b (set 1 of TLB 3, full): write at edge t0+7 into the LRU way 0.
  b.req(4, 0x1b);
  ASSERT_TRUE(b.peek().req_ready[4]);
  b.step();
  b.run_to(t0 + 7);
  ASSERT_EQ(b.l2log.back().cyc, t0 + 4);  // taken t0+4, so f = t0+5
  EXPECT_TRUE(b.m.f2_valid(1));
  EXPECT_FALSE(b.peek().evict_valid[1]);  // t0+7
  b.step();                               // edge t0+7: write and eviction
  EXPECT_TRUE(b.m.events().victim_replacement);
  EXPECT_TRUE(b.m.events().evict);
  EXPECT_EQ(b.m.entry_vpn(3, 1, 0), 0x1bu);
  EXPECT_EQ(b.m.find(1, 0x0b, 1), -1);
  L1tlbOut o = b.step();  // t0+8 = f+3
  EXPECT_TRUE(o.evict_valid[1]);
  EXPECT_FALSE(o.evict_valid[0]);
  EXPECT_EQ(o.evict_vpn[1], 0x0bu);  // {vtag 2, s 1, k 1} = 2 << 2 | 1 << 1 | 1
  EXPECT_EQ(o.evict_vmid[1], 1u);
  EXPECT_EQ(o.evict_ppn[1], 0x838u);
  EXPECT_EQ(o.evict_perm[1], 4u);
  EXPECT_EQ(o.evict_vpn[0], 0u);  // cluster 0: reset values
  EXPECT_EQ(o.evict_ppn[0], 0u);
  EXPECT_FALSE(o.fill_valid[4]);
  o = b.step();  // t0+9: the pulse is over; CU 4's fill response
  EXPECT_FALSE(o.evict_valid[1]);
  EXPECT_TRUE(o.fill_valid[4]);
  EXPECT_EQ(o.fill_vpn[4], 0x1bu);
  EXPECT_EQ(o.fill_ppn[4], 0x88u);
  b.run(4);
  ASSERT_EQ(b.elog.size(), 1u);
  EXPECT_EQ(b.elog[0].cyc, t0 + 8);
  EXPECT_EQ(b.elog[0].c, 1u);
  EXPECT_EQ(b.m.stats().evictions, 1u);
  EXPECT_EQ(b.m.stats().fills_written, 5u);
}

// A hole made by a shootdown: the invalidation untouches way 1 (it becomes
// the least recent), so the fill takes way 1 although way 0 was the LRU way
// before the shootdown, and nothing is evicted.
TEST(L1tlbModel, EvictNotOnFillIntoInvalidWay) {
  Bench b(PC());
  fill_set(b);
  EXPECT_TRUE(b.elog.empty());
  // Shootdown of 0x0f (way 1) accepted in e, invalidated at edge e+2 with
  // Untouch(1): ages (3, 2, 1, 0) -> the way older than way 1 (w0 3) gets 2,
  // way 1 gets 3: (2, 3, 1, 0).
  b.sd(false, 0x0f);
  ASSERT_TRUE(b.peek().sd_ready);
  b.step();
  b.run(3);
  ASSERT_FALSE(b.m.entry_valid(3, 1, 1));
  EXPECT_EQ(b.m.age(3, 1, 0), 2u);
  EXPECT_EQ(b.m.age(3, 1, 1), 3u);
  EXPECT_EQ(b.m.age(3, 1, 2), 1u);
  EXPECT_EQ(b.m.age(3, 1, 3), 0u);
  ASSERT_EQ(b.m.victim(3, 1), 1u);  // the invalidated way is the least recent
  const unsigned t0 = b.cyc;
  b.req(4, 0x1b);  // write at edge t0+7
  ASSERT_TRUE(b.peek().req_ready[4]);
  b.step();
  b.run_to(t0 + 7);
  b.step();  // edge t0+7
  EXPECT_TRUE(b.m.events().victim_invalid);
  EXPECT_FALSE(b.m.events().victim_replacement);
  EXPECT_FALSE(b.m.events().evict);
  EXPECT_EQ(b.m.entry_vpn(3, 1, 1), 0x1bu);
  EXPECT_TRUE(b.m.entry_valid(3, 1, 0));
  EXPECT_EQ(b.m.entry_vpn(3, 1, 0), 0x0bu);
  EXPECT_EQ(b.m.victim(3, 1), 0u);  // touch 1: (3, 0, 2, 1)
  const L1tlbOut o = b.step();  // t0+8
  EXPECT_FALSE(o.evict_valid[1]);
  EXPECT_EQ(o.evict_vpn[1], 0u);  // still the reset values
  EXPECT_EQ(o.evict_vmid[1], 0u);
  EXPECT_EQ(o.evict_ppn[1], 0u);
  EXPECT_EQ(o.evict_perm[1], 0u);
  b.run(4);
  EXPECT_EQ(b.resps(4, true).back().vpn, 0x1bu);
  EXPECT_TRUE(b.elog.empty());
  EXPECT_EQ(b.m.stats().evictions, 0u);
}

// A killed MSHR's fill into a full set: suppressed by the kill bit (set two
// edges before the write), so no write and no eviction.
TEST(L1tlbModel, EvictNotOnFillSuppressedByKill) {
  Bench b(PC());
  fill_set(b);
  const unsigned t0 = b.cyc;
  b.req(4, 0x1b);  // MSHR 0 of TLB 3: alloc edge t0+2, sent edge t0+3, taken t0+4, f = t0+5, f2 t0+7
  b.step();
  b.run_to(t0 + 3);
  // t0+3: shootdown of 0x1b (r1, r2 empty): sd1 t0+4, sd2 t0+5 kills MSHR 0 at edge t0+5.
  b.sd(false, 0x1b);
  ASSERT_TRUE(b.peek().sd_ready);
  b.step();
  b.run_to(t0 + 6);
  EXPECT_TRUE(b.m.mshr_kill(3, 0));
  b.run_to(t0 + 7);
  ASSERT_EQ(b.l2log.back().cyc, t0 + 4);
  EXPECT_TRUE(b.m.f2_valid(1));
  EXPECT_FALSE(b.m.sd2_valid());  // suppression by the kill alone
  b.step();                       // edge t0+7
  EXPECT_TRUE(b.m.events().fill_suppressed);
  EXPECT_FALSE(b.m.events().evict);
  EXPECT_TRUE(b.m.entry_valid(3, 1, 0));
  EXPECT_EQ(b.m.entry_vpn(3, 1, 0), 0x0bu);
  EXPECT_EQ(b.m.find(1, 0x1b, 0), -1);
  L1tlbOut o = b.step();  // t0+8
  EXPECT_FALSE(o.evict_valid[1]);
  o = b.step();  // t0+9: the waiter is still answered
  EXPECT_TRUE(o.fill_valid[4]);
  EXPECT_EQ(o.fill_vpn[4], 0x1bu);
  b.run(4);
  EXPECT_TRUE(b.elog.empty());
  EXPECT_EQ(b.m.stats().evictions, 0u);
  EXPECT_EQ(b.m.stats().fills_suppressed, 1u);
}

// A shootdown of the filled VPN (or a flush-all) whose sd2 is the write cycle:
// suppressed by the same-edge term (the kill of that edge is not yet in the
// cycle's registers), so no eviction.
TEST(L1tlbModel, EvictNotOnFillSuppressedBySameEdgeShootdown) {
  for (const bool all : {false, true}) {
    SCOPED_TRACE(all ? "flush-all" : "one VPN");
    Bench b(PC());
    fill_set(b);
    const unsigned t0 = b.cyc;
    b.req(4, 0x1b);  // write at edge t0+7
    b.step();
    b.run_to(t0 + 5);
    // t0+5: shootdown accepted: sd1 t0+6, sd2 t0+7 = the write cycle.
    b.sd(all, 0x1b);
    ASSERT_TRUE(b.peek().sd_ready);
    b.step();
    b.run_to(t0 + 7);
    EXPECT_TRUE(b.m.sd2_valid());
    EXPECT_TRUE(b.m.f2_valid(1));
    EXPECT_FALSE(b.m.mshr_kill(3, 0));
    b.step();  // edge t0+7
    EXPECT_TRUE(b.m.events().fill_suppressed);
    EXPECT_FALSE(b.m.events().evict);
    EXPECT_EQ(b.m.find(1, 0x1b, 0), -1);
    EXPECT_EQ(b.m.entry_valid(3, 1, 0), !all);  // flush-all removed everything
    const L1tlbOut o = b.step();                 // t0+8
    EXPECT_FALSE(o.evict_valid[1]);
    EXPECT_TRUE(o.sd_done);
    b.run(4);
    EXPECT_TRUE(b.elog.empty());
    EXPECT_EQ(b.m.stats().evictions, 0u);
  }
}

// The victim way (way 0, 0x0b vmid 1) is invalidated by a one-VPN shootdown
// at the very edge the fill writes it: same-edge order 2 then 3, the
// shootdown removed the entry, the write lands on a (now) invalid way, no
// eviction. The victim is still way 0 (registers of the write cycle).
TEST(L1tlbModel, EvictNotWhenShootdownInvalidatesVictimAtWriteEdge) {
  Bench b(PC());
  fill_set(b);
  const unsigned t0 = b.cyc;
  b.req(4, 0x1b);  // write at edge t0+7
  b.step();
  b.run_to(t0 + 5);
  // t0+5: shootdown of (0x0b, vmid 1): sd1 t0+6 matches way 0 of TLB 3 set 1
  // (no fill writes at edge t0+6), sd2 t0+7 invalidates it at edge t0+7.
  b.sd(false, 0x0b, 1);
  ASSERT_TRUE(b.peek().sd_ready);
  b.step();
  b.run_to(t0 + 7);
  EXPECT_TRUE(b.m.sd2_valid());
  EXPECT_TRUE(b.m.f2_valid(1));
  EXPECT_TRUE(b.m.entry_valid(3, 1, 0));
  EXPECT_EQ(b.m.victim(3, 1), 0u);
  b.step();  // edge t0+7: invalidate way 0, then write 0x1b into way 0 (not suppressed: 0x1b != 0x0b)
  EXPECT_TRUE(b.m.events().shootdown_one);
  EXPECT_FALSE(b.m.events().fill_suppressed);
  EXPECT_FALSE(b.m.events().evict);
  EXPECT_TRUE(b.m.entry_valid(3, 1, 0));
  EXPECT_EQ(b.m.entry_vpn(3, 1, 0), 0x1bu);
  EXPECT_EQ(b.m.find(1, 0x0b, 1), -1);
  for (unsigned w = 1; w < 4; ++w) EXPECT_TRUE(b.m.entry_valid(3, 1, w));
  const L1tlbOut o = b.step();  // t0+8
  EXPECT_FALSE(o.evict_valid[1]);
  EXPECT_TRUE(o.sd_done);
  b.run(4);
  EXPECT_TRUE(b.elog.empty());
  EXPECT_EQ(b.m.stats().evictions, 0u);
  EXPECT_EQ(b.m.stats().fills_written, 5u);
}

// Same race, but the shootdown invalidates another entry at the write edge:
// way 2 of the same set (0x13); way 0 of set 0 of the same TLB 3 (0x09 =
// {vtag 2, s 0, k 1}); way 0 of set 1 of the other TLB 2 of the cluster
// (0x0a = {vtag 2, s 1, k 0}). 0x09 / 0x0a are installed first into way 0
// of their empty set. The victim comes from the registers of the write cycle
// (way 0 of TLB 3 set 1, valid), and only an invalidation of that very way
// cancels the eviction, so the write replaces way 0 and evicts 0x0b, and the
// shot-down entry ends invalid.
TEST(L1tlbModel, EvictWhenShootdownInvalidatesAnotherEntryAtWriteEdge) {
  struct Case {
    const char* what;
    uint64_t sd_vpn;
    unsigned j, s, w;  // the entry the shootdown invalidates
  };
  const Case cases[] = {{"way 2 of the same set", 0x13, 3, 1, 2},
                        {"same way, other set of the same TLB", 0x09, 3, 0, 0},
                        {"same set and way, other TLB of the cluster", 0x0a, 2, 1, 0}};
  for (const Case& k : cases) {
    SCOPED_TRACE(k.what);
    Bench b(PC());
    if (k.sd_vpn != 0x13) install(b, 4, k.sd_vpn);
    fill_set(b);
    ASSERT_TRUE(b.m.entry_valid(k.j, k.s, k.w));
    ASSERT_EQ(b.m.entry_vpn(k.j, k.s, k.w), k.sd_vpn);
    const unsigned t0 = b.cyc;
    b.req(4, 0x1b);  // write at edge t0+7
    b.step();
    b.run_to(t0 + 5);
    b.sd(false, k.sd_vpn);  // sd1 t0+6 matches (j, s, w), sd2 t0+7 invalidates it at edge t0+7
    ASSERT_TRUE(b.peek().sd_ready);
    b.step();
    b.run_to(t0 + 7);
    EXPECT_TRUE(b.m.sd2_valid());
    EXPECT_TRUE(b.m.f2_valid(1));
    b.step();  // edge t0+7
    EXPECT_TRUE(b.m.events().shootdown_one);
    EXPECT_FALSE(b.m.events().fill_suppressed);
    EXPECT_TRUE(b.m.events().evict);
    EXPECT_EQ(b.m.entry_vpn(3, 1, 0), 0x1bu);
    EXPECT_FALSE(b.m.entry_valid(k.j, k.s, k.w));
    const L1tlbOut o = b.step();  // t0+8
    EXPECT_TRUE(o.evict_valid[1]);
    EXPECT_EQ(o.evict_vpn[1], 0x0bu);
    EXPECT_EQ(o.evict_vmid[1], 1u);
    EXPECT_EQ(o.evict_ppn[1], 0x838u);
    EXPECT_EQ(o.evict_perm[1], 4u);
    b.run(4);
    ASSERT_EQ(b.elog.size(), 1u);
    EXPECT_EQ(b.elog[0].cyc, t0 + 8);
  }
}

// evict_* data registers: reset 0, loaded only with evict_valid = 1, held
// otherwise (also across a fill into an invalid way and a shootdown), back
// to 0 on reset. Cluster 1's outputs are recorded every cycle.
//  1. fill_set: no eviction; ages (3, 2, 1, 0).
//  2. t1: 0x1b replaces way 0: evict 0x0b (vmid 1, ppn 0x838, perm 4) in
//     t1+8; touch 0: ages (0, 3, 2, 1).
//  3. shootdown of 0x13 (way 2): Untouch(2) (age 2): w1 3 -> 2, w2 = 3:
//     ages (0, 2, 3, 1).
//  4. t2: 0x1f goes to the invalid way 2 (the victim): no eviction; touch 2
//     (age 3): every other way ages: (1, 3, 0, 2), victim way 1 (0x0f).
//  5. t3: 0x23 replaces way 1: evict 0x0f (vmid 0, ppn 0x4c, perm 1) in t3+8.
//  6. reset cycle r: every evict output 0 (asynchronous reset), and after.
TEST(L1tlbModel, EvictDataRegistersHold) {
  Bench b(PC());
  struct Ev {
    bool v;
    uint64_t vpn, vmid, ppn, perm;
  };
  std::vector<Ev> tr;  // cluster 1, index = cycle
  b.on_cycle = [&](unsigned cyc, const L1tlbOut& o) {
    ASSERT_EQ(cyc, tr.size());
    tr.push_back({o.evict_valid[1] != 0, o.evict_vpn[1], o.evict_vmid[1], o.evict_ppn[1], o.evict_perm[1]});
    EXPECT_FALSE(o.evict_valid[0]) << cyc;
    EXPECT_EQ(o.evict_vpn[0] | o.evict_vmid[0] | o.evict_ppn[0] | o.evict_perm[0], 0u) << cyc;
  };
  fill_set(b);
  const unsigned t1 = b.cyc;
  install(b, 4, 0x1b);
  b.sd(false, 0x13);
  b.step();
  b.run(3);
  ASSERT_FALSE(b.m.entry_valid(3, 1, 2));
  EXPECT_EQ(b.m.victim(3, 1), 2u);
  const unsigned t2 = b.cyc;
  install(b, 4, 0x1f);
  EXPECT_EQ(b.m.entry_vpn(3, 1, 2), 0x1fu);
  EXPECT_EQ(b.m.victim(3, 1), 1u);
  const unsigned t3 = b.cyc;
  install(b, 4, 0x23);
  EXPECT_EQ(b.m.entry_vpn(3, 1, 1), 0x23u);
  b.in.rst_n = false;
  const unsigned r = b.cyc;
  b.step();
  b.run(3);
  ASSERT_EQ(tr.size(), r + 4);
  ASSERT_EQ(b.elog.size(), 2u);
  EXPECT_EQ(b.elog[0].cyc, t1 + 8);
  EXPECT_EQ(b.elog[1].cyc, t3 + 8);
  EXPECT_GT(t3, t2);
  const Ev zero{false, 0, 0, 0, 0}, e1{false, 0x0b, 1, 0x838, 4}, e2{false, 0x0f, 0, 0x4c, 1};
  for (unsigned c = 0; c < tr.size(); ++c) {
    const Ev& want = c < t1 + 8 ? zero : c < t3 + 8 ? e1 : c < r ? e2 : zero;
    const bool v = c == t1 + 8 || c == t3 + 8;
    EXPECT_EQ(tr[c].v, v) << "cycle " << c;
    EXPECT_EQ(tr[c].vpn, want.vpn) << "cycle " << c;
    EXPECT_EQ(tr[c].vmid, want.vmid) << "cycle " << c;
    EXPECT_EQ(tr[c].ppn, want.ppn) << "cycle " << c;
    EXPECT_EQ(tr[c].perm, want.perm) << "cycle " << c;
  }
  EXPECT_EQ(b.m.stats().evictions, 0u);  // counters restart at the reset
}

// ---------------------------------------------------------------------------
// Replacement after invalidations (document: Replacement; Fill, cycle f+2;
// Same-edge order rule 2). The fill's victim is always the replacement victim
// of the registers of the write cycle; a one-VPN invalidation of way k makes
// k the least recent (lru Untouch(k), plru Point(k)); a flush-all returns the
// replacement state to its reset value. Same-edge order: the decide stage's
// hit touch or the shootdown's untouch / point, then the fill's touch.
// Race timing used below (automatic L2, latency 1): a miss accepted in t0
// writes at edge t0+7; a shootdown accepted in t0+5 has sd1 in t0+6 and sd2 in
// t0+7, so its invalidation and the fill's write share edge t0+7; a request
// accepted in t0+5 decides in t0+7.

// LRU ages (w0, w1, w2, w3) of TLB 3, set 1 (PC).
std::vector<unsigned> ages31(const Bench& b) {
  return {b.m.age(3, 1, 0), b.m.age(3, 1, 1), b.m.age(3, 1, 2), b.m.age(3, 1, 3)};
}
using Ages = std::vector<unsigned>;

// Several ways invalidated by one-VPN shootdowns: each Untouch makes its way
// the least recent, so the way invalidated last is filled first, then the one
// invalidated before it (the old "lowest invalid way" rule gave 1, 2, 3).
// Ages of TLB 3 set 1:
//   fill_set:                                                        (3, 2, 1, 0)
//   shootdown 0x0f (way 1, age 2): w0 3 -> 2; w1 = 3                 (2, 3, 1, 0)
//   shootdown 0x17 (way 3, age 0): w0 2 -> 1, w1 3 -> 2, w2 1 -> 0   (1, 2, 0, 3)
//   shootdown 0x13 (way 2, age 0): w0 1 -> 0, w1 2 -> 1, w3 3 -> 2   (0, 1, 3, 2)
//   fill 0x1b: victim way 2 (invalid, no eviction), touch 2 (age 3)  (1, 2, 0, 3)
//   fill 0x1f: victim way 3 (invalid), touch 3 (age 3)               (2, 3, 1, 0)
//   fill 0x23: victim way 1 (invalid), touch 1 (age 3)               (3, 0, 2, 1)
//   fill 0x27: victim way 0, valid (0x0b vmid 1): evicted in t+8     (0, 1, 3, 2)
// 0x27 (vtag 9): home 1, set 1.
TEST(L1tlbModel, LruUntouchLastInvalidatedFilledFirst) {
  Bench b(PC());
  fill_set(b);
  ASSERT_EQ(ages31(b), (Ages{3, 2, 1, 0}));
  shoot(b, false, 0x0f);
  EXPECT_FALSE(b.m.entry_valid(3, 1, 1));
  EXPECT_EQ(ages31(b), (Ages{2, 3, 1, 0}));
  EXPECT_EQ(b.m.victim(3, 1), 1u);
  shoot(b, false, 0x17);
  EXPECT_FALSE(b.m.entry_valid(3, 1, 3));
  EXPECT_EQ(ages31(b), (Ages{1, 2, 0, 3}));
  EXPECT_EQ(b.m.victim(3, 1), 3u);
  shoot(b, false, 0x13);
  EXPECT_FALSE(b.m.entry_valid(3, 1, 2));
  EXPECT_EQ(ages31(b), (Ages{0, 1, 3, 2}));
  EXPECT_TRUE(b.m.entry_valid(3, 1, 0));
  struct Fill {
    uint64_t vpn;
    unsigned way;
    Ages after;
  };
  const Fill fills[] = {{0x1b, 2, {1, 2, 0, 3}}, {0x1f, 3, {2, 3, 1, 0}}, {0x23, 1, {3, 0, 2, 1}}};
  for (const Fill& f : fills) {
    SCOPED_TRACE(f.vpn);
    EXPECT_EQ(b.m.victim(3, 1), f.way);
    EXPECT_FALSE(b.m.entry_valid(3, 1, f.way));
    install(b, 4, f.vpn);
    EXPECT_TRUE(b.m.entry_valid(3, 1, f.way));
    EXPECT_EQ(b.m.entry_vpn(3, 1, f.way), f.vpn);
    EXPECT_EQ(ages31(b), f.after);
  }
  EXPECT_TRUE(b.elog.empty());  // three fills into invalid ways
  EXPECT_EQ(b.m.entry_vpn(3, 1, 0), 0x0bu);
  EXPECT_EQ(b.m.victim(3, 1), 0u);
  const unsigned t0 = b.cyc;
  install(b, 4, 0x27);
  EXPECT_EQ(b.m.entry_vpn(3, 1, 0), 0x27u);
  EXPECT_EQ(ages31(b), (Ages{0, 1, 3, 2}));
  ASSERT_EQ(b.elog.size(), 1u);
  EXPECT_EQ(b.elog[0].cyc, t0 + 8);
  EXPECT_EQ(b.elog[0].c, 1u);
  EXPECT_EQ(b.elog[0].vpn, 0x0bu);
  EXPECT_EQ(b.elog[0].vmid, 1u);
  EXPECT_EQ(b.elog[0].ppn, 0x838u);
  EXPECT_EQ(b.elog[0].perm, 4u);
}

// A flush-all returns every set's ages to the reset values (W-1-w), so the
// fills after it go to ways 0, 1, 2, 3 in order. Before it, a hit on way 0
// (CU 5, 0x0b vmid 1) made way 1 the victim: (3, 2, 1, 0) -> touch 0 ->
// (0, 3, 2, 1); had the flush left the ages alone, the first fill after it
// would take way 1. After the four fills the ages are (3, 2, 1, 0) again
// (touches 0, 1, 2, 3 from the reset order), so 0x27 evicts way 0 (0x1b:
// ppn 0x88, perm 6).
TEST(L1tlbModel, FlushAllThenFillsInResetOrderLru) {
  Bench b(PC());
  fill_set(b);
  install(b, 5, 0x0b, 1);  // hit
  EXPECT_EQ(b.m.stats().hits, 1u);
  EXPECT_EQ(ages31(b), (Ages{0, 3, 2, 1}));
  EXPECT_EQ(b.m.victim(3, 1), 1u);
  shoot(b, true, 0);
  for (unsigned j = 0; j < 4; ++j)
    for (unsigned s = 0; s < 2; ++s) {
      for (unsigned w = 0; w < 4; ++w) {
        EXPECT_FALSE(b.m.entry_valid(j, s, w));
        EXPECT_EQ(b.m.age(j, s, w), 3u - w) << j << " " << s << " " << w;
      }
      EXPECT_EQ(b.m.victim(j, s), 0u);
    }
  const uint64_t v[4] = {0x1b, 0x1f, 0x23, 0x17};
  for (unsigned i = 0; i < 4; ++i) {
    EXPECT_EQ(b.m.victim(3, 1), i);
    install(b, 4, v[i]);
    EXPECT_EQ(b.m.entry_vpn(3, 1, i), v[i]);
  }
  EXPECT_TRUE(b.elog.empty());
  EXPECT_EQ(ages31(b), (Ages{3, 2, 1, 0}));
  const unsigned t0 = b.cyc;
  install(b, 4, 0x27);
  EXPECT_EQ(b.m.entry_vpn(3, 1, 0), 0x27u);
  ASSERT_EQ(b.elog.size(), 1u);
  EXPECT_EQ(b.elog[0].cyc, t0 + 8);
  EXPECT_EQ(b.elog[0].vpn, 0x1bu);
  EXPECT_EQ(b.elog[0].vmid, 0u);
  EXPECT_EQ(b.elog[0].ppn, 0x88u);
  EXPECT_EQ(b.elog[0].perm, 6u);
}

// PLRU: a flush-all clears every tree bit of every set ("way 0 next"), and the
// fills after it follow the tree from all-zero bits again: ways 0, 4, 2, 6, 1,
// 5, 3, 7 (see fill_plru_set0). Before it, a hit on way 0 of set 0 and a fill
// into way 0 of set 1 (vpn 5 = {vtag 1, set 1}) set nodes 1, 2, 4 of both sets
// (victim way 4); had the flush left the bits alone, the first fill would take
// way 4, and with the old "lowest invalid way" rule the fills would go 0, 1, 2, ...
TEST(L1tlbModel, FlushAllThenFillsInResetOrderPlru) {
  Bench b(PP());
  fill_plru_set0(b);
  install(b, 1, 1 << 2);  // hit way 0
  install(b, 0, 5);       // set 1, way 0
  EXPECT_EQ(b.m.entry_vpn(0, 1, 0), 5u);
  for (unsigned s = 0; s < 2; ++s) {
    EXPECT_EQ(b.m.plru_bit(0, s, 1), 1u);
    EXPECT_EQ(b.m.plru_bit(0, s, 2), 1u);
    EXPECT_EQ(b.m.plru_bit(0, s, 4), 1u);
    EXPECT_EQ(b.m.victim(0, s), 4u);
  }
  shoot(b, true, 0);
  for (unsigned s = 0; s < 4; ++s) {
    for (unsigned n = 1; n < 8; ++n) EXPECT_EQ(b.m.plru_bit(0, s, n), 0u) << s << " " << n;
    for (unsigned w = 0; w < 8; ++w) EXPECT_FALSE(b.m.entry_valid(0, s, w));
    EXPECT_EQ(b.m.victim(0, s), 0u);
  }
  fill_plru_set0(b, 9);  // x = 9 .. 16 into ways 0, 4, 2, 6, 1, 5, 3, 7
  for (unsigned n = 1; n < 8; ++n) EXPECT_EQ(b.m.plru_bit(0, 0, n), 0u) << n;
  EXPECT_TRUE(b.elog.empty());
}

// PLRU Point(k): a one-VPN invalidation of way k points every node on k's
// path at k, so with no touch in between the invalidated way is the next
// victim. Set 0 of PP after fill_plru_set0 (x = 1 .. 8): way w holds x =
// {1, 5, 3, 7, 2, 6, 4, 8}[w]; every bit 0.
//  1. shootdown of 0x18 (x 6, way 5): Point(5): leaf 13 odd -> n6 = 1, node 6
//     even -> n3 = 0, node 3 odd -> n1 = 1: victim 1, 3, 6 -> leaf 13: way 5.
//     Fill 0x24 (x 9) -> way 5, no eviction; touch 5: n6 = 0, n3 = 1, n1 = 0
//     (bits: n3 only): victim way 0.
//  2. shootdowns of 0x10 (x 4, way 6) then 0x14 (x 5, way 1): Point(6): n7 =
//     0, n3 = 1, n1 = 1 (victim way 6); Point(1): n4 = 1, n2 = 0, n1 = 0
//     (bits n3, n4): victim 1, 2, 4 -> leaf 9: way 1, the last invalidated.
//     Fill 0x28 (x 10) -> way 1; touch 1: n4 = 0, n2 = 1, n1 = 1 (bits n1,
//     n2, n3): victim 1, 3, 7 -> leaf 14: way 6, the other invalid way.
//     Fill 0x2c (x 11) -> way 6; touch 6: n7 = 1, n3 = 0, n1 = 0 (bits n2,
//     n7): victim 1, 2, 5 -> leaf 10: way 2 (valid).
//  3. The document's caveat ("only approximates invalid first"): shootdowns
//     of 0x24 (way 5) then 0x20 (x 8, way 7): Point(5): n6 = 1, n3 = 0,
//     n1 = 1; Point(7): n7 = 1, n3 = 1, n1 = 1 (bits n1, n2, n3, n6, n7):
//     victim way 7. Fill 0x30 (x 12) -> way 7; touch 7: n7 = 0, n3 = 0,
//     n1 = 0 (bits n2, n6): victim 1, 2, 5 -> leaf 10: way 2, valid, while
//     way 5 is still invalid. Fill 0x34 (x 13) evicts 0x0c (x 3: ppn 61 =
//     0x3d, perm 5).
TEST(L1tlbModel, PlruPointMakesInvalidatedWayTheVictim) {
  Bench b(PP());
  fill_plru_set0(b);
  auto bits = [&]() {
    unsigned v = 0;
    for (unsigned n = 1; n < 8; ++n) v |= b.m.plru_bit(0, 0, n) << n;
    return v;  // bit n = node n
  };
  auto nodes = [](std::initializer_list<unsigned> ns) {
    unsigned v = 0;
    for (unsigned n : ns) v |= 1u << n;
    return v;
  };
  ASSERT_EQ(bits(), 0u);
  // 1.
  shoot(b, false, 0x18);
  EXPECT_FALSE(b.m.entry_valid(0, 0, 5));
  EXPECT_EQ(bits(), nodes({1, 6}));
  EXPECT_EQ(b.m.victim(0, 0), 5u);
  install(b, 0, 0x24);
  EXPECT_EQ(b.m.entry_vpn(0, 0, 5), 0x24u);
  EXPECT_EQ(bits(), nodes({3}));
  EXPECT_EQ(b.m.victim(0, 0), 0u);
  EXPECT_TRUE(b.elog.empty());
  // 2.
  shoot(b, false, 0x10);
  EXPECT_FALSE(b.m.entry_valid(0, 0, 6));
  EXPECT_EQ(bits(), nodes({1, 3}));
  EXPECT_EQ(b.m.victim(0, 0), 6u);
  shoot(b, false, 0x14);
  EXPECT_FALSE(b.m.entry_valid(0, 0, 1));
  EXPECT_EQ(bits(), nodes({3, 4}));
  EXPECT_EQ(b.m.victim(0, 0), 1u);
  install(b, 0, 0x28);
  EXPECT_EQ(b.m.entry_vpn(0, 0, 1), 0x28u);
  EXPECT_EQ(bits(), nodes({1, 2, 3}));
  EXPECT_EQ(b.m.victim(0, 0), 6u);
  install(b, 0, 0x2c);
  EXPECT_EQ(b.m.entry_vpn(0, 0, 6), 0x2cu);
  EXPECT_EQ(bits(), nodes({2, 7}));
  EXPECT_EQ(b.m.victim(0, 0), 2u);
  EXPECT_TRUE(b.elog.empty());
  // 3.
  shoot(b, false, 0x24);
  EXPECT_FALSE(b.m.entry_valid(0, 0, 5));
  EXPECT_EQ(bits(), nodes({1, 2, 6, 7}));
  EXPECT_EQ(b.m.victim(0, 0), 5u);
  shoot(b, false, 0x20);
  EXPECT_FALSE(b.m.entry_valid(0, 0, 7));
  EXPECT_EQ(bits(), nodes({1, 2, 3, 6, 7}));
  EXPECT_EQ(b.m.victim(0, 0), 7u);
  install(b, 0, 0x30);
  EXPECT_EQ(b.m.entry_vpn(0, 0, 7), 0x30u);
  EXPECT_EQ(bits(), nodes({2, 6}));
  EXPECT_EQ(b.m.victim(0, 0), 2u);
  EXPECT_TRUE(b.m.entry_valid(0, 0, 2));
  EXPECT_FALSE(b.m.entry_valid(0, 0, 5));
  EXPECT_TRUE(b.elog.empty());
  const unsigned t0 = b.cyc;
  install(b, 0, 0x34);
  EXPECT_EQ(b.m.entry_vpn(0, 0, 2), 0x34u);
  EXPECT_FALSE(b.m.entry_valid(0, 0, 5));
  ASSERT_EQ(b.elog.size(), 1u);
  EXPECT_EQ(b.elog[0].cyc, t0 + 8);
  EXPECT_EQ(b.elog[0].vpn, 0x0cu);
  EXPECT_EQ(b.elog[0].ppn, 0x3du);
  EXPECT_EQ(b.elog[0].perm, 5u);
}

// An invalidation (sd2) and a fill write in one set at one edge (PC, TLB 3
// set 1, fill of 0x1b accepted in t0, write and invalidation at edge t0+7):
// the untouch applies first, then the fill's touch (same-edge order 2, 3).
//  a. The shootdown removes the victim itself (0x0b vmid 1, way 0): the write
//     takes way 0 (victim from the cycle's registers); Untouch(0) (already
//     age 3: no change), then touch 0: (0, 3, 2, 1), victim way 1. No
//     eviction (the shootdown removed the old entry). The other order would
//     leave way 0, just written, the victim: (3, 2, 1, 0).
//  b. The shootdown removes 0x13 (way 2) while the write takes way 0 and
//     evicts 0x0b: Untouch(2) (age 1): w0 3 -> 2, w1 2 -> 1, w2 = 3:
//     (2, 1, 3, 0); touch 0 (age 2): w1 1 -> 2, w3 0 -> 1, w0 = 0:
//     (0, 2, 3, 1): victim way 2, the invalidated way; the next fill (0x1f)
//     takes it without an eviction.
//  c. A hole first (shootdown of 0x0f: (2, 3, 1, 0), victim way 1, invalid);
//     then the write takes the invalid way 1 while the shootdown of 0x17
//     (way 3, age 0) lands at the same edge: Untouch(3): w0 2 -> 1, w1 3 -> 2,
//     w2 1 -> 0, w3 = 3: (1, 2, 0, 3); touch 1 (age 2): w0 1 -> 2, w2 0 -> 1,
//     w1 = 0: (2, 0, 1, 3): victim way 3, invalid. No eviction.
TEST(L1tlbModel, UntouchAndFillTouchAtOneEdgeLru) {
  struct Case {
    const char* what;
    uint64_t hole;  // shot down before the race (0: none)
    uint64_t sd_vpn, sd_vmid;
    unsigned sd_way, write_way;
    bool evict;
    Ages after;
    unsigned victim_after;
  };
  const Case cases[] = {
      {"a. the write takes the invalidated way", 0, 0x0b, 1, 0, 0, false, {0, 3, 2, 1}, 1},
      {"b. the write takes another (valid) way", 0, 0x13, 0, 2, 0, true, {0, 2, 3, 1}, 2},
      {"c. the write takes another (invalid) way", 0x0f, 0x17, 0, 3, 1, false, {2, 0, 1, 3}, 3},
  };
  for (const Case& k : cases) {
    SCOPED_TRACE(k.what);
    Bench b(PC());
    fill_set(b);
    if (k.hole) shoot(b, false, k.hole);
    const unsigned t0 = b.cyc;
    b.req(4, 0x1b);
    ASSERT_TRUE(b.peek().req_ready[4]);
    b.step();
    b.run_to(t0 + 5);
    b.sd(false, k.sd_vpn, k.sd_vmid);
    ASSERT_TRUE(b.peek().sd_ready);
    b.step();
    b.run_to(t0 + 7);
    ASSERT_TRUE(b.m.sd2_valid());
    ASSERT_TRUE(b.m.f2_valid(1));
    EXPECT_EQ(b.m.victim(3, 1), k.write_way);
    b.step();  // edge t0+7
    EXPECT_TRUE(b.m.events().shootdown_one);
    EXPECT_FALSE(b.m.events().fill_suppressed);
    EXPECT_EQ(b.m.events().evict, k.evict);
    EXPECT_EQ(b.m.events().victim_invalid, k.hole != 0);
    EXPECT_EQ(b.m.entry_vpn(3, 1, k.write_way), 0x1bu);
    EXPECT_TRUE(b.m.entry_valid(3, 1, k.write_way));
    EXPECT_EQ(b.m.entry_valid(3, 1, k.sd_way), k.sd_way == k.write_way);
    EXPECT_EQ(ages31(b), k.after);
    EXPECT_EQ(b.m.victim(3, 1), k.victim_after);
    const L1tlbOut o = b.step();  // t0+8
    EXPECT_EQ(o.evict_valid[1] != 0, k.evict);
    if (k.evict) {
      EXPECT_EQ(o.evict_vpn[1], 0x0bu);
      EXPECT_EQ(o.evict_vmid[1], 1u);
    }
    b.run(4);
    if (!b.m.entry_valid(3, 1, k.victim_after)) {  // b, c: the next fill takes the invalid victim
      install(b, 4, 0x1f);
      EXPECT_EQ(b.m.entry_vpn(3, 1, k.victim_after), 0x1fu);
    }
    EXPECT_EQ(b.elog.size(), k.evict ? 1u : 0u);
  }
}

// PLRU: Point then the fill's touch at one edge (PP, set 0 after
// fill_plru_set0 and a hit on way 0: bits n1, n2, n4, victim way 4 holding
// 0x08 (x 2); the fill of 0x24 accepted in t0 writes at edge t0+7).
//  a. The shootdown removes 0x08 (way 4) itself: Point(4): n6 = 0, n3 = 0,
//     n1 = 1; touch 4: n6 = 1, n3 = 1, n1 = 0: bits n2, n3, n4, n6, victim
//     1, 2, 5 -> leaf 10: way 2. No eviction.
//  b. The shootdown removes 0x18 (x 6, way 5, the sibling): Point(5): n6 = 1,
//     n3 = 0, n1 = 1; touch 4 overrides the shared nodes 6, 3, 1: n6 = 1,
//     n3 = 1, n1 = 0: the same bits, victim way 2 (valid) although way 5 is
//     invalid; 0x08 is evicted (ppn 41 = 0x29, perm 1). The other order
//     (touch, then point) would leave n1 = 1, n3 = 0, n6 = 1: victim way 5.
TEST(L1tlbModel, PointAndFillTouchAtOneEdgePlru) {
  struct Case {
    const char* what;
    uint64_t sd_vpn;
    unsigned sd_way;
    bool evict;
  };
  const Case cases[] = {{"a. the write takes the invalidated way", 0x08, 4, false},
                        {"b. the write takes another way", 0x18, 5, true}};
  for (const Case& k : cases) {
    SCOPED_TRACE(k.what);
    Bench b(PP());
    fill_plru_set0(b);
    install(b, 1, 1 << 2);  // hit way 0
    ASSERT_EQ(b.m.victim(0, 0), 4u);
    ASSERT_EQ(b.m.entry_vpn(0, 0, 4), 0x08u);
    ASSERT_EQ(b.m.entry_vpn(0, 0, 5), 0x18u);
    const unsigned t0 = b.cyc;
    b.req(0, 0x24);
    ASSERT_TRUE(b.peek().req_ready[0]);
    b.step();
    b.run_to(t0 + 5);
    b.sd(false, k.sd_vpn);
    ASSERT_TRUE(b.peek().sd_ready);
    b.step();
    b.run_to(t0 + 7);
    ASSERT_TRUE(b.m.sd2_valid());
    ASSERT_TRUE(b.m.f2_valid(0));
    b.step();  // edge t0+7
    EXPECT_TRUE(b.m.events().shootdown_one);
    EXPECT_FALSE(b.m.events().fill_suppressed);
    EXPECT_EQ(b.m.events().evict, k.evict);
    EXPECT_EQ(b.m.entry_vpn(0, 0, 4), 0x24u);
    EXPECT_TRUE(b.m.entry_valid(0, 0, 4));
    EXPECT_EQ(b.m.entry_valid(0, 0, k.sd_way), k.sd_way == 4);
    const unsigned want[8] = {0, 0, 1, 1, 1, 0, 1, 0};  // nodes 1 .. 7
    for (unsigned n = 1; n < 8; ++n) EXPECT_EQ(b.m.plru_bit(0, 0, n), want[n]) << "node " << n;
    EXPECT_EQ(b.m.victim(0, 0), 2u);
    const L1tlbOut o = b.step();  // t0+8
    EXPECT_EQ(o.evict_valid[0] != 0, k.evict);
    if (k.evict) {
      EXPECT_EQ(o.evict_vpn[0], 0x08u);
      EXPECT_EQ(o.evict_ppn[0], 0x29u);
      EXPECT_EQ(o.evict_perm[0], 1u);
    }
  }
}

// The decide stage's hit touch of the write cycle does not change the victim
// chosen in that cycle (victim from the cycle's registers); at the edge the
// hit touch applies first, then the fill's touch. The hit answers with the
// entry as in the write cycle, the eviction output names the same entry.
//  lru (PC, TLB 3 set 1 after fill_set: ages (3, 2, 1, 0), victim way 0 =
//  0x0b vmid 1): CU 4 misses 0x1b in t0 (write at edge t0+7), CU 5 asks
//  (0x0b, 1) in t0+5 (decide t0+7: hit way 0). Hit touch 0: (0, 3, 2, 1),
//  then the fill writes way 0 anyway and touches it: (0, 3, 2, 1). Had the
//  hit been seen, the victim would be way 1 (0x0f). In t0+8: resp for CU 5
//  (0x0b, ppn 0x838, perm 4) and evict 0x0b on cluster 1.
//  plru (PP after fill_plru_set0 and a hit on way 0: bits n1, n2, n4, victim
//  way 4 = 0x08): CU 0 misses 0x24 in t0, CU 1 asks a hit in t0+5.
//   i. hit on way 4 (0x08): hit touch 4 (n6 = 1, n3 = 1, n1 = 0) would make
//      the victim way 2, but the write still takes way 4 and evicts 0x08
//      (ppn 0x29, perm 1); then the fill's touch 4 (no change): bits n2, n3,
//      n4, n6: victim way 2.
//  ii. hit on way 5 (0x18): hit touch 5 (n6 = 0, n3 = 0, n1 = 0), then the
//      fill's touch 4 (n6 = 1, n3 = 1, n1 = 0): bits n2, n3, n4, n6 again
//      (the other order would leave n3 = 0, n6 = 0); the write takes way 4.
TEST(L1tlbModel, DecideHitTouchDoesNotChangeSameCycleVictim) {
  {
    SCOPED_TRACE("lru");
    Bench b(PC());
    fill_set(b);
    const unsigned t0 = b.cyc;
    b.req(4, 0x1b);
    b.step();
    b.run_to(t0 + 5);
    b.req(5, 0x0b, 1);
    ASSERT_TRUE(b.peek().req_ready[5]);
    b.step();
    b.run_to(t0 + 7);
    EXPECT_EQ(b.m.r2_match(3), 0);
    EXPECT_EQ(b.m.victim(3, 1), 0u);
    b.step();  // edge t0+7
    EXPECT_TRUE(b.m.events().hit);
    EXPECT_TRUE(b.m.events().victim_replacement);
    EXPECT_TRUE(b.m.events().evict);
    EXPECT_EQ(b.m.entry_vpn(3, 1, 0), 0x1bu);
    EXPECT_EQ(b.m.entry_vpn(3, 1, 1), 0x0fu);
    EXPECT_EQ(ages31(b), (Ages{0, 3, 2, 1}));
    EXPECT_EQ(b.m.victim(3, 1), 1u);
    const L1tlbOut o = b.step();  // t0+8
    EXPECT_TRUE(o.resp_valid[5]);
    EXPECT_EQ(o.resp_vpn[5], 0x0bu);
    EXPECT_EQ(o.resp_vmid[5], 1u);
    EXPECT_EQ(o.resp_ppn[5], 0x838u);
    EXPECT_EQ(o.resp_perm[5], 4u);
    EXPECT_TRUE(o.evict_valid[1]);
    EXPECT_EQ(o.evict_vpn[1], 0x0bu);
    EXPECT_EQ(o.evict_vmid[1], 1u);
  }
  struct Case {
    const char* what;
    uint64_t hit_vpn;
    unsigned hit_way;
    uint64_t hit_ppn, hit_perm;
  };
  const Case cases[] = {{"plru i: hit on the victim way 4", 0x08, 4, 0x29, 1},
                        {"plru ii: hit on way 5", 0x18, 5, 0x79, 3}};
  for (const Case& k : cases) {
    SCOPED_TRACE(k.what);
    Bench b(PP());
    fill_plru_set0(b);
    install(b, 1, 1 << 2);  // hit way 0
    ASSERT_EQ(b.m.victim(0, 0), 4u);
    const unsigned t0 = b.cyc;
    b.req(0, 0x24);
    b.step();
    b.run_to(t0 + 5);
    b.req(1, k.hit_vpn);
    ASSERT_TRUE(b.peek().req_ready[1]);
    b.step();
    b.run_to(t0 + 7);
    EXPECT_EQ(b.m.r2_match(0), int(k.hit_way));
    b.step();  // edge t0+7
    EXPECT_TRUE(b.m.events().hit);
    EXPECT_TRUE(b.m.events().evict);
    EXPECT_EQ(b.m.entry_vpn(0, 0, 4), 0x24u);
    EXPECT_EQ(b.m.find(0, 0x08, 0), -1);
    const unsigned want[8] = {0, 0, 1, 1, 1, 0, 1, 0};  // nodes 1 .. 7
    for (unsigned n = 1; n < 8; ++n) EXPECT_EQ(b.m.plru_bit(0, 0, n), want[n]) << "node " << n;
    EXPECT_EQ(b.m.victim(0, 0), 2u);
    const L1tlbOut o = b.step();  // t0+8
    EXPECT_TRUE(o.resp_valid[1]);
    EXPECT_EQ(o.resp_vpn[1], k.hit_vpn);
    EXPECT_EQ(o.resp_ppn[1], k.hit_ppn);
    EXPECT_EQ(o.resp_perm[1], k.hit_perm);
    EXPECT_TRUE(o.evict_valid[0]);
    EXPECT_EQ(o.evict_vpn[0], 0x08u);
    EXPECT_EQ(o.evict_ppn[0], 0x29u);
    EXPECT_EQ(o.evict_perm[0], 1u);
  }
}

// ---------------------------------------------------------------------------
// l1tlb.lru_touch: next_edge (document "Replacement", "When the touch
// lands"; "Same-edge order" step 0): the decide stage's hit touch of cycle d
// lands at edge d+1, and a one-VPN shootdown invalidating at edge e
// untouches the way at edge e+1, each first among that edge's updates. A
// fill's victim comes from the registers of its write cycle, so it sees
// neither update yet. Each test runs the same stimulus with decide_edge
// (lru_touch_next false) beside it. All on PC, TLB 3 set 1 after fill_set:
// ages (w0, w1, w2, w3) = (3, 2, 1, 0), ways 0x0b (vmid 1), 0x0f, 0x13, 0x17.
// A miss of CU 4 accepted in t0 writes at edge t0+7 (L2 taken in t0+4,
// answered in t0+5); its eviction shows in t0+8. ppn / perm (ppn_of,
// perm_of): 0x0b vmid 1 0x838 / 4, 0x0f 0x4c / 1, 0x13 0x60 / 5.
L1tlbParams late_touch(L1tlbParams p, bool late) {
  p.lru_touch_next = late;
  return p;
}

// Hit in decide cycle d = t0+6 on way 0 (the LRU way), fill writing at edge
// d+1 = t0+7 (CU 5 asks (0x0b, 1) in t0+4).
//  next_edge: in t0+7 the ages are still (3, 2, 1, 0) (touch pending):
//    victim way 0, the way just hit: 0x0b evicted. Edge t0+7: late touch 0
//    (0, 3, 2, 1), then write way 0 and touch 0: (0, 3, 2, 1); victim way 1.
//  decide_edge: touch 0 at edge t0+6: (0, 3, 2, 1) in t0+7: victim way 1,
//    0x0f evicted. Edge t0+7: touch 1 (age 3): (1, 0, 3, 2); victim way 2.
TEST(L1tlbModel, LateTouchFillAtNextEdgeEvictsWayJustHit) {
  struct Case {
    bool late;
    Ages in_write_cycle;
    unsigned way;
    uint64_t evict_vpn, evict_vmid, evict_ppn, evict_perm;
    Ages after;
    unsigned victim_after;
  };
  const Case cases[] = {{true, {3, 2, 1, 0}, 0, 0x0b, 1, 0x838, 4, {0, 3, 2, 1}, 1},
                        {false, {0, 3, 2, 1}, 1, 0x0f, 0, 0x4c, 1, {1, 0, 3, 2}, 2}};
  for (const Case& k : cases) {
    SCOPED_TRACE(k.late ? "next_edge" : "decide_edge");
    Bench b(late_touch(PC(), k.late));
    fill_set(b);
    ASSERT_EQ(ages31(b), (Ages{3, 2, 1, 0}));
    const unsigned t0 = b.cyc;
    b.req(4, 0x1b);
    ASSERT_TRUE(b.peek().req_ready[4]);
    b.step();
    b.run_to(t0 + 4);
    b.req(5, 0x0b, 1);
    ASSERT_TRUE(b.peek().req_ready[5]);
    b.step();
    ASSERT_EQ(b.l2log.back().cyc, t0 + 4);
    b.run_to(t0 + 6);
    EXPECT_EQ(b.m.r2_match(3), 0);
    b.step();  // edge t0+6: the hit
    EXPECT_TRUE(b.m.events().hit);
    EXPECT_EQ(b.m.late_touch_pending(3), k.late);
    EXPECT_EQ(ages31(b), k.in_write_cycle);
    ASSERT_TRUE(b.m.f2_valid(1));
    EXPECT_EQ(b.m.victim(3, 1), k.way);
    L1tlbOut o = b.step();  // t0+7: the hit's response; edge t0+7: the write
    EXPECT_TRUE(o.resp_valid[5]);
    EXPECT_EQ(o.resp_ppn[5], 0x838u);
    EXPECT_TRUE(b.m.events().victim_replacement);
    EXPECT_FALSE(b.m.late_touch_pending(3));
    EXPECT_EQ(b.m.entry_vpn(3, 1, k.way), 0x1bu);
    EXPECT_EQ(ages31(b), k.after);
    EXPECT_EQ(b.m.victim(3, 1), k.victim_after);
    o = b.step();  // t0+8
    EXPECT_TRUE(o.evict_valid[1]);
    EXPECT_EQ(o.evict_vpn[1], k.evict_vpn);
    EXPECT_EQ(o.evict_vmid[1], k.evict_vmid);
    EXPECT_EQ(o.evict_ppn[1], k.evict_ppn);
    EXPECT_EQ(o.evict_perm[1], k.evict_perm);
    b.run(4);
    EXPECT_EQ(b.resps(4, true).back().vpn, 0x1bu);
    EXPECT_EQ(b.elog.size(), 1u);
  }
}

// Shootdown of 0x0f (way 1, age 2) accepted in t0+4: sd2 in t0+6 invalidates
// way 1 at edge t0+6; the fill of 0x1b writes at the next edge, t0+7.
//  next_edge: in t0+7 way 1 is invalid but the ages are still (3, 2, 1, 0)
//    (untouch pending): victim way 0, valid: 0x0b evicted. Edge t0+7:
//    untouch 1 on the ages of t0+7 (w0 3 -> 2, w1 = 3): (2, 3, 1, 0), then
//    write way 0 and touch 0 (age 2): (0, 3, 2, 1). The next fill (0x1f)
//    takes the invalid way 1, no eviction; touch 1: (1, 0, 3, 2).
//  decide_edge: untouch 1 at edge t0+6: (2, 3, 1, 0): the fill takes way 1
//    (invalid, no eviction), touch 1: (3, 0, 2, 1). The next fill takes
//    way 0 and evicts 0x0b; touch 0: (0, 1, 3, 2).
TEST(L1tlbModel, LateUntouchFillAtNextEdgeTakesValidWay) {
  struct Case {
    bool late;
    Ages in_write_cycle;
    unsigned way;
    bool evict;
    Ages after;
    unsigned second_way;
    bool second_evicts;
    Ages after_second;
  };
  const Case cases[] = {{true, {3, 2, 1, 0}, 0, true, {0, 3, 2, 1}, 1, false, {1, 0, 3, 2}},
                        {false, {2, 3, 1, 0}, 1, false, {3, 0, 2, 1}, 0, true, {0, 1, 3, 2}}};
  for (const Case& k : cases) {
    SCOPED_TRACE(k.late ? "next_edge" : "decide_edge");
    Bench b(late_touch(PC(), k.late));
    fill_set(b);
    const unsigned t0 = b.cyc;
    b.req(4, 0x1b);
    ASSERT_TRUE(b.peek().req_ready[4]);
    b.step();
    b.run_to(t0 + 4);
    b.sd(false, 0x0f);
    ASSERT_TRUE(b.peek().sd_ready);
    b.step();
    b.run_to(t0 + 6);
    ASSERT_TRUE(b.m.sd2_valid());
    b.step();  // edge t0+6: invalidation
    EXPECT_TRUE(b.m.events().shootdown_one);
    EXPECT_FALSE(b.m.entry_valid(3, 1, 1));
    EXPECT_EQ(b.m.late_untouch_pending(3), k.late);
    EXPECT_EQ(ages31(b), k.in_write_cycle);
    ASSERT_TRUE(b.m.f2_valid(1));
    EXPECT_EQ(b.m.victim(3, 1), k.way);
    b.step();  // edge t0+7: the write
    EXPECT_FALSE(b.m.events().fill_suppressed);
    EXPECT_EQ(b.m.events().evict, k.evict);
    EXPECT_EQ(b.m.events().victim_invalid, !k.evict);
    EXPECT_FALSE(b.m.late_untouch_pending(3));
    EXPECT_EQ(b.m.entry_vpn(3, 1, k.way), 0x1bu);
    EXPECT_EQ(ages31(b), k.after);
    EXPECT_EQ(b.m.victim(3, 1), k.second_way);
    EXPECT_EQ(b.step().evict_valid[1] != 0, k.evict);  // t0+8
    b.run(4);
    install(b, 4, 0x1f);
    EXPECT_EQ(b.m.entry_vpn(3, 1, k.second_way), 0x1fu);
    EXPECT_EQ(ages31(b), k.after_second);
    ASSERT_EQ(b.elog.size(), 1u);  // the one eviction: 0x0b, by the first fill or the second
    EXPECT_EQ(b.elog[0].vpn, 0x0bu);
    EXPECT_EQ(b.elog[0].vmid, 1u);
    EXPECT_EQ(b.elog[0].cyc < t0 + 12, k.late);
  }
}

// Reset clears a late update not yet applied. t0: CU 5 hits (0x0b, 1) on
// way 0 (decide t0+2), or a shootdown of 0x0f invalidates way 1 (edge
// t0+2); either is pending in t0+3, the cycle the reset is held over. A
// model whose registers are copied in t0+3 applies it at edge t0+3 (touch
// 0: (0, 3, 2, 1); untouch 1: (2, 3, 1, 0)); the reset model has the
// registers of a fresh one, and after one more edge its ages are still the
// reset (3, 2, 1, 0) (a surviving update would change them as above), so
// the next fill (0x1b) takes way 0 (a surviving one would make it way 1).
TEST(L1tlbModel, LateUpdateClearedByReset) {
  struct Case {
    const char* what;
    bool untouch;
    Ages applied;
  };
  const Case cases[] = {{"touch", false, {0, 3, 2, 1}}, {"untouch", true, {2, 3, 1, 0}}};
  for (const Case& k : cases) {
    SCOPED_TRACE(k.what);
    const L1tlbParams p = late_touch(PC(), true);
    Bench b(p);
    fill_set(b);
    const unsigned t0 = b.cyc;
    if (k.untouch)
      b.sd(false, 0x0f);
    else
      b.req(5, 0x0b, 1);
    b.run_to(t0 + 3);
    EXPECT_EQ(b.m.late_touch_pending(3), !k.untouch);
    EXPECT_EQ(b.m.late_untouch_pending(3), k.untouch);
    EXPECT_EQ(ages31(b), (Ages{3, 2, 1, 0}));
    L1tlbModel copy(p);  // the control: the pending update is register state
    copy.copy_registers(b.m);
    copy.posedge(copy.idle_inputs());
    EXPECT_EQ((Ages{copy.age(3, 1, 0), copy.age(3, 1, 1), copy.age(3, 1, 2), copy.age(3, 1, 3)}), k.applied);
    b.in.rst_n = false;
    b.step();  // edge t0+3: reset
    EXPECT_TRUE(b.m.events().reset);
    EXPECT_FALSE(b.m.late_touch_pending(3) || b.m.late_untouch_pending(3));
    EXPECT_TRUE(b.m.same_registers(L1tlbModel(p)));
    b.step();  // edge t0+4
    EXPECT_EQ(ages31(b), (Ages{3, 2, 1, 0}));
    install(b, 4, 0x1b);
    EXPECT_EQ(b.m.entry_vpn(3, 1, 0), 0x1bu);
    EXPECT_EQ(ages31(b), (Ages{0, 3, 2, 1}));
  }
}

// Back-to-back hits of CU 5 on ways 0, 1, 3 (0x0b vmid 1, 0x0f, 0x17,
// accepted t0+3 .. t0+5, decided t0+5 .. t0+7, answered t0+6 .. t0+8) and
// misses of CU 4 on 0x1b (t0) and 0x1f (t0+1), MSHRs 0 and 1, taken by the
// L2 in t0+4 and t0+5, writing at edges t0+7 and t0+8; then 0x23 and 0x27
// installed one after the other. Exact LRU over the updates in the order
// they land (ages (w0, w1, w2, w3)):
//  next_edge: touch 0 @t0+6: (0, 3, 2, 1); in t0+7 victim way 1 (hit in
//    t0+6): evict 0x0f; @t0+7 touch 1, fill way 1: (1, 0, 3, 2); in t0+8
//    victim way 2: evict 0x13; @t0+8 touch 3 first (age 2): (2, 1, 3, 0),
//    then fill way 2, touch 2 (age 3): (3, 2, 0, 1) (the other order would
//    give (3, 2, 1, 0)); 0x23 -> way 0, evict 0x0b: (0, 3, 1, 2); 0x27 ->
//    way 1, evict 0x1b: (1, 0, 2, 3). Set: 0x23, 0x27, 0x1f, 0x17.
//  decide_edge: touch 0 @t0+5, touch 1 @t0+6: (1, 0, 3, 2); in t0+7 victim
//    way 2: evict 0x13; @t0+7 touch 3 (age 2), fill way 2: (3, 2, 0, 1); in
//    t0+8 victim way 0: evict 0x0b; @t0+8 (0, 3, 1, 2); 0x23 -> way 1, evict
//    0x0f: (1, 0, 2, 3); 0x27 -> way 3, evict 0x17: (2, 1, 3, 0). Set: 0x1f,
//    0x23, 0x1b, 0x27.
TEST(L1tlbModel, LateTouchBackToBackHitsVictimOrder) {
  struct Case {
    bool late;
    uint64_t evicted[4];  // by 0x1b, 0x1f, 0x23, 0x27
    Ages after_second_fill, after;
    uint64_t set[4];  // ways 0 .. 3 at the end
  };
  const Case cases[] = {
      {true, {0x0f, 0x13, 0x0b, 0x1b}, {3, 2, 0, 1}, {1, 0, 2, 3}, {0x23, 0x27, 0x1f, 0x17}},
      {false, {0x13, 0x0b, 0x0f, 0x17}, {0, 3, 1, 2}, {2, 1, 3, 0}, {0x1f, 0x23, 0x1b, 0x27}}};
  for (const Case& k : cases) {
    SCOPED_TRACE(k.late ? "next_edge" : "decide_edge");
    Bench b(late_touch(PC(), k.late));
    fill_set(b);
    const unsigned t0 = b.cyc;
    const struct {
      unsigned cyc, cu;
      uint64_t vpn, vmid;
    } reqs[] = {{t0, 4, 0x1b, 0}, {t0 + 1, 4, 0x1f, 0}, {t0 + 3, 5, 0x0b, 1}, {t0 + 4, 5, 0x0f, 0},
                {t0 + 5, 5, 0x17, 0}};
    for (const auto& r : reqs) {
      b.run_to(r.cyc);
      b.req(r.cu, r.vpn, r.vmid);
      ASSERT_TRUE(b.peek().req_ready[r.cu]) << r.cyc - t0;
    }
    b.run_to(t0 + 9);  // after edge t0+8: both writes done
    EXPECT_EQ(ages31(b), k.after_second_fill);
    b.run_to(t0 + 12);
    ASSERT_EQ(b.l2log.size(), 6u);  // fill_set's four, then these two
    EXPECT_EQ(b.l2log[4].cyc, t0 + 4);
    EXPECT_EQ(b.l2log[5].cyc, t0 + 5);
    const auto hits = b.resps(5, false);
    ASSERT_EQ(hits.size(), 3u);
    for (unsigned h = 0; h < 3; ++h) EXPECT_EQ(hits[h].cyc, t0 + 6 + h);
    install(b, 4, 0x23);
    install(b, 4, 0x27);
    ASSERT_EQ(b.elog.size(), 4u);
    EXPECT_EQ(b.elog[0].cyc, t0 + 8);
    EXPECT_EQ(b.elog[1].cyc, t0 + 9);
    for (unsigned f = 0; f < 4; ++f) EXPECT_EQ(b.elog[f].vpn, k.evicted[f]) << f;
    for (unsigned w = 0; w < 4; ++w) EXPECT_EQ(b.m.entry_vpn(3, 1, w), k.set[w]) << w;
    EXPECT_EQ(ages31(b), k.after);
  }
}

// The widest configuration: U = 64, T = 16, C = 4, W = 256, 52-bit VPN,
// 16-bit VMID, 64-bit PPN. Random traffic; after the constructor and a warm
// up, outputs() into a sized struct and posedge() allocate nothing. After a
// drain (idle ports, L2 answering) every request taken at a port has been
// looked up exactly once (and, with the input buffer, every FIFO is empty).
void wide_random(bool ib, bool fifo = false) {
  L1tlbParams p = mk(64, 16, 4, 256, 16, false, 52, 16, 64, 8);
  if (ib) p = with_ib(p);
  p.mshr_fifo = fifo;
  ASSERT_EQ(p.mshrs, 64u);
  L1tlbModel m(p);
  L1tlbIn in = m.idle_inputs();
  L1tlbOut out = m.make_outputs();
  std::mt19937_64 rng(99);
  std::vector<std::vector<std::pair<unsigned, uint64_t>>> pend(p.clusters);
  for (auto& v : pend) v.reserve(1024);
  long allocs = 0;
  uint64_t fills = 0;
  for (unsigned cyc = 0; cyc < 3300; ++cyc) {
    const bool drain = cyc >= 3000;
    for (unsigned u = 0; u < p.cus; ++u) {
      in.req_valid[u] = !drain && rng() % 2;
      in.req_vpn[u] = (rng() % 512) | (uint64_t{1} << 51);
      in.req_vmid[u] = 0xbeef;
    }
    for (unsigned c = 0; c < p.clusters; ++c) {
      in.l2_resp_valid[c] = 0;
      if (!pend[c].empty() && pend[c].front().first + 5 <= cyc) {
        in.l2_resp_valid[c] = 1;
        in.l2_resp_tag[c] = pend[c].front().second;
        in.l2_resp_ppn[c] = ~uint64_t{0} - cyc;
        in.l2_resp_perm[c] = 0xff;
        pend[c].erase(pend[c].begin());
      }
    }
    in.sd_valid = !drain && cyc % 500 == 499;
    in.sd_vpn = uint64_t{1} << 51;
    const long before = g_allocs;
    m.outputs(in, out);
    for (unsigned c = 0; c < p.clusters; ++c)
      if (out.l2_req_valid[c] && in.l2_req_ready[c]) pend[c].push_back({cyc, out.l2_req_tag[c]});
    for (unsigned u = 0; u < p.cus; ++u) {
      fills += out.fill_valid[u];
      if (out.fill_valid[u]) {
        ASSERT_EQ(out.fill_vpn[u] >> 51, 1u);
      }
    }
    m.posedge(in);
    if (cyc >= 100) allocs += g_allocs - before;
  }
  EXPECT_EQ(allocs, 0);
  EXPECT_GT(fills, 100u);
  EXPECT_GT(m.stats().hits, 100u);
  const L1tlbStats& st = m.stats();
  EXPECT_EQ(st.accepts, st.hits + st.lookup_misses + st.mshr_hits);
  for (unsigned u = 0; u < p.cus; ++u) EXPECT_EQ(m.ib_count(u), 0u) << "CU " << u;
  std::cout << "[ wide" << (ib ? " ib" : "") << (fifo ? " fifo" : "") << " ] hits " << st.hits << " lookup misses " << st.lookup_misses
            << " merges " << st.mshr_hits << "\n";
}

TEST(L1tlbModel, WideConfigurationDoesNotAllocatePerCycle) { wide_random(false); }

TEST(L1tlbModel, WideConfigurationWithInputBufferDoesNotAllocatePerCycle) { wide_random(true); }

// The free queue (M = 64 per TLB) is a ring of fixed size: no allocation either.
TEST(L1tlbModel, WideConfigurationWithMshrFifoDoesNotAllocatePerCycle) { wide_random(false, true); }

// ---------------------------------------------------------------------------
// Input buffer (document "Input buffer"): a two-entry FIFO per CU in front of
// the crossbar. req_ready = fewer than 2 entries (registers only); the
// crossbar arbitrates the FIFO heads; at edge t the accepted head leaves and
// a request taken at the port (req_valid & req_ready) is appended; no bypass,
// so a request taken at the port in cycle t is arbitrated in t+1 at the
// earliest and every time of the header's summary counts from that cycle.

// M = 1 per TLB (private TLBs, mshrs_per_cu = 1, S = 1): the credit holds a
// second request in the FIFO while the first miss owns the MSHR; the third
// fills the FIFO and the ready drops, whatever req_valid and the arbitration.
TEST(L1tlbModel, InputBufferReadyFromRegistersCreditExhausted) {
  Bench b(with_ib(mk(4, 4, 4, 4, 1)));
  ASSERT_EQ(b.m.params().mshrs, 1u);
  // c0: every FIFO empty: ready 1 with req_valid 0 everywhere.
  L1tlbOut o = b.peek();
  for (unsigned u = 0; u < 4; ++u) EXPECT_TRUE(o.req_ready[u]) << u;
  // c0: CU0 asks A = 0x10: taken, appended at edge 0; not arbitrated in c0.
  b.req(0, 0x10);
  o = b.step();
  EXPECT_TRUE(o.req_ready[0]);
  EXPECT_EQ(b.m.ib_count(0), 1u);
  EXPECT_FALSE(b.m.r1_valid(0));  // no bypass
  // c1: head A accepted by the crossbar (free 1 > 0); CU0's B = 0x20 taken.
  b.req(0, 0x20);
  o = b.step();
  EXPECT_TRUE(o.req_ready[0]);
  EXPECT_TRUE(b.m.r1_valid(0));
  EXPECT_EQ(b.m.ib_count(0), 1u);  // A left, B appended
  // c2: head B refused by the credit (free 1 > r1 1 fails); C = 0x30 taken: 2 entries.
  b.req(0, 0x30);
  o = b.step();
  EXPECT_TRUE(o.req_ready[0]);
  EXPECT_TRUE(b.m.events().credit_block);
  EXPECT_EQ(b.m.ib_count(0), 2u);
  // c3: full: ready 0 with req_valid 0; CUs 1-3 (empty FIFOs) stay ready.
  o = b.step();
  EXPECT_FALSE(o.req_ready[0]);
  for (unsigned u = 1; u < 4; ++u) EXPECT_TRUE(o.req_ready[u]) << u;
  // From c4 CU0 holds D = 0x40. A (crossbar c1): r1 c2, r2 c3 (MSHR allocated
  // at edge 3), L2 choice c4, l2_req c5 (taken), answer c6, f1 c7, f2 c8, f3
  // c9 (MSHR freed at edge 9), fill_valid c10. B is accepted in c10 (free 1 >
  // 0), so the FIFO stays full through c10 (the ready of c10 does not see that
  // accept) and D is taken in c11.
  std::vector<unsigned> ready_at;
  for (unsigned c = 4; c <= 12; ++c) {
    b.req(0, 0x40);
    o = b.step();
    if (c <= 9) {
      EXPECT_TRUE(b.m.events().credit_block) << "c" << c;
    }
    if (o.req_ready[0]) {
      ready_at.push_back(c);
      break;
    }
  }
  ASSERT_EQ(ready_at, (std::vector<unsigned>{11}));
  EXPECT_EQ(b.m.ib_count(0), 2u);  // C, D
  ASSERT_EQ(b.l2log.size(), 1u);
  EXPECT_EQ(b.l2log[0].cyc, 5u);  // port c0 + miss_to_l2 (5)
  EXPECT_EQ(b.l2log[0].cyc, b.m.params().miss_to_l2);
  const auto f = b.resps(0, true);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].cyc, 10u);
  EXPECT_EQ(f[0].vpn, 0x10u);
}

// Hit latency from the port handshake: 3 cycles without the buffer, 4 with it
// (= params.hit_latency); first l2_req_valid of a miss: 4 and 5 (miss_to_l2).
TEST(L1tlbModel, InputBufferAddsOneCycleToHitAndMiss) {
  for (const bool ib : {false, true}) {
    const L1tlbParams p = ib ? with_ib(P4()) : P4();
    Bench b(p);
    install(b, 0, 0x10);
    // Hit: CU1 asks 0x10 in t0.
    const unsigned t0 = b.cyc;
    b.req(1, 0x10);
    ASSERT_TRUE(b.step().req_ready[1]);
    b.run(8);
    const auto r = b.resps(1, false);
    ASSERT_EQ(r.size(), 1u) << "ib " << ib;
    EXPECT_EQ(r[0].cyc - t0, ib ? 4u : 3u) << "ib " << ib;
    EXPECT_EQ(r[0].cyc - t0, p.hit_latency) << "ib " << ib;
    EXPECT_EQ(r[0].ppn, ppn_of(0x10));
    // Miss: CU2 asks 0x30 in t1; the L2 is ready, so the first valid cycle is the take.
    const size_t n = b.l2log.size();
    const unsigned t1 = b.cyc;
    b.req(2, 0x30);
    ASSERT_TRUE(b.step().req_ready[2]);
    b.run(12);
    ASSERT_EQ(b.l2log.size(), n + 1) << "ib " << ib;
    EXPECT_EQ(b.l2log[n].cyc - t1, ib ? 5u : 4u) << "ib " << ib;
    EXPECT_EQ(b.l2log[n].cyc - t1, p.miss_to_l2) << "ib " << ib;
    const auto f = b.resps(2, true);
    ASSERT_EQ(f.size(), 1u) << "ib " << ib;
    EXPECT_EQ(f[0].cyc - t1, ib ? 10u : 9u) << "ib " << ib;  // take + 1 answer + 4
  }
}

// P4 (vpn[0] = home TLB). CU0's requests A = 0x11 (TLB1) and B = 0x10 (TLB0),
// both installed, wait in its FIFO behind a shootdown accepted in e (sd1
// e+1, sd2 e+2: requests blocked in e .. e+2). In e+3 only the head A is
// arbitrated, although TLB0 is free and the port shows another request: B
// is accepted in e+4. Hits: A in e+6, B in e+7.
TEST(L1tlbModel, InputBufferKeepsOrderPerCu) {
  Bench b(with_ib(P4()));
  install(b, 1, 0x11);
  install(b, 1, 0x10);
  const unsigned e = b.cyc;
  b.sd(false, 0x7f0);  // an absent translation: only the blocking matters
  b.req(0, 0x11);
  L1tlbOut o = b.step();  // e
  EXPECT_TRUE(o.sd_ready);
  EXPECT_TRUE(o.req_ready[0]);
  b.req(0, 0x10);
  o = b.step();  // e+1
  EXPECT_TRUE(o.req_ready[0]);
  EXPECT_EQ(b.m.ib_count(0), 2u);
  o = b.step();  // e+2: still blocked (sd2), FIFO full
  EXPECT_FALSE(o.req_ready[0]);
  EXPECT_FALSE(b.m.r1_valid(0) || b.m.r1_valid(1));
  b.req(0, 0x12);  // e+3: not taken (full); TLB0 must not see it
  o = b.step();
  EXPECT_TRUE(o.sd_done);
  EXPECT_FALSE(o.req_ready[0]);
  EXPECT_TRUE(b.m.r1_valid(1));   // A
  EXPECT_FALSE(b.m.r1_valid(0));  // B waits behind A
  EXPECT_EQ(b.m.ib_count(0), 1u);
  o = b.step();  // e+4: B
  EXPECT_TRUE(o.req_ready[0]);
  EXPECT_TRUE(b.m.r1_valid(0));
  EXPECT_EQ(b.m.ib_count(0), 0u);
  b.run(6);
  const auto r = b.resps(0, false);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].cyc, e + 6);
  EXPECT_EQ(r[0].vpn, 0x11u);
  EXPECT_EQ(r[1].cyc, e + 7);
  EXPECT_EQ(r[1].vpn, 0x10u);
  EXPECT_TRUE(b.resps(0, true).empty());
  EXPECT_EQ(b.m.stats().lookup_misses, 2u);  // the two installs only
}

// Two requests of one CU for one TLB, back to back with the crossbar free:
// each is looked up in its own cycle, in order (P4, TLB0 for both).
TEST(L1tlbModel, InputBufferBackToBackSameTlbInOrder) {
  Bench b(with_ib(P4()));
  install(b, 1, 0x10);
  install(b, 1, 0x14);
  const unsigned t = b.cyc;
  b.req(0, 0x14);
  EXPECT_TRUE(b.step().req_ready[0]);  // t: appended
  b.req(0, 0x10);
  EXPECT_TRUE(b.step().req_ready[0]);  // t+1: 0x14 accepted, 0x10 appended
  EXPECT_EQ(b.m.ib_count(0), 1u);
  b.run(6);
  const auto r = b.resps(0, false);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].cyc, t + 4);
  EXPECT_EQ(r[0].vpn, 0x14u);
  EXPECT_EQ(r[1].cyc, t + 5);
  EXPECT_EQ(r[1].vpn, 0x10u);
}

// Reset empties the FIFOs: ready 1 in the reset cycle (asynchronous reset)
// and after it, and the dropped requests are never looked up.
TEST(L1tlbModel, InputBufferResetEmpties) {
  Bench b(with_ib(P4()));
  b.sd(true, 0);  // flush-all accepted in c0: requests blocked c0 .. c2
  b.req(0, 0x10);
  b.req(1, 0x11);
  b.step();
  b.req(0, 0x12);
  b.step();  // c1
  EXPECT_EQ(b.m.ib_count(0), 2u);
  EXPECT_EQ(b.m.ib_count(1), 1u);
  EXPECT_FALSE(b.peek().req_ready[0]);
  b.in.rst_n = false;  // c2: reset
  const L1tlbOut o = b.step();
  for (unsigned u = 0; u < 4; ++u) {
    EXPECT_TRUE(o.req_ready[u]) << u;
    EXPECT_EQ(b.m.ib_count(u), 0u) << u;
  }
  for (unsigned c = 0; c < 8; ++c) {
    const L1tlbOut x = b.step();
    for (unsigned u = 0; u < 4; ++u) EXPECT_TRUE(x.req_ready[u]);
    EXPECT_FALSE(b.m.r1_valid(0) || b.m.r1_valid(1)) << c;
  }
  EXPECT_TRUE(b.log.empty());
  EXPECT_TRUE(b.l2log.empty());
}

// ---------------------------------------------------------------------------
// MSHR allocation order (document "Decide stage", `l1tlb.mshr_alloc`).
// fifo: a miss takes the head of its TLB's free queue (reset 0 .. M-1) and
// f3 appends the MSHR it frees at the tail, after the allocation of the same
// edge; lowest: a miss takes the lowest-index free MSHR. The directed cases
// use P4 with even VPNs only (home TLB 0, M = 4), so the L2 tag
// {k = 0, mshr} is the allocated MSHR's index.

L1tlbParams with_fifo(L1tlbParams p) {
  p.mshr_fifo = true;
  return p;
}

// A miss of CU u accepted in the current cycle.
void miss(Bench& b, unsigned u, uint64_t vpn) {
  b.req(u, vpn);
  ASSERT_TRUE(b.peek().req_ready[u]) << "c" << b.cyc;
  b.step();
}

// The L2 tags under which `vpns` were taken, in the order of `vpns`
// (~0 for a VPN that was never taken).
std::vector<uint64_t> tags_of(const Bench& b, const std::vector<uint64_t>& vpns) {
  std::vector<uint64_t> tags;
  for (uint64_t v : vpns) {
    uint64_t tag = ~uint64_t{0};
    for (const L2Take& t : b.l2log)
      if (t.vpn == v) tag = t.tag;
    tags.push_back(tag);
  }
  return tags;
}

// Misses 0x10, 0x20, 0x30 (c0 .. c2) take MSHRs 0, 1, 2 (edges 2 .. 4; L2
// takes c4 .. c6, tags 0, 1, 2). The L2 answers MSHR 1 in c7 (freed at edge
// 10), then MSHR 0 in c8 (freed at edge 11): fifo queue {3}, {3, 1},
// {3, 1, 0}. Misses 0x40, 0x50, 0x60 (c12 .. c14) allocate at edges 14 .. 16.
// Returns their L2 tags: fifo 3, 1, 0; lowest 0, 1, 3.
std::vector<uint64_t> free_order_scenario(bool fifo) {
  Bench b(fifo ? with_fifo(P4()) : P4());
  b.auto_l2 = false;
  miss(b, 0, 0x10);
  miss(b, 1, 0x20);
  miss(b, 2, 0x30);
  b.run_to(7);
  EXPECT_EQ(tags_of(b, {0x10, 0x20, 0x30}), (std::vector<uint64_t>{0, 1, 2}));
  b.l2resp(0, 1, 0x111, 1);
  b.step();  // c7
  b.l2resp(0, 0, 0x100, 1);
  b.run_to(11);  // c8 .. c10: MSHR 1 freed at edge 10
  EXPECT_FALSE(b.m.mshr_valid(0, 1));
  EXPECT_TRUE(b.m.mshr_valid(0, 0));
  b.step();  // c11: MSHR 0 freed at edge 11
  EXPECT_FALSE(b.m.mshr_valid(0, 0));
  if (fifo) {
    EXPECT_EQ(b.m.free_queue(0), (std::vector<unsigned>{3, 1, 0}));
  }
  b.auto_l2 = true;  // answers the new requests (and so checks their tags map back)
  miss(b, 0, 0x40);
  miss(b, 1, 0x50);
  miss(b, 2, 0x60);
  b.run_to(30);
  for (unsigned u = 0; u < 3; ++u) {
    const auto f = b.resps(u, true);
    EXPECT_EQ(f.size(), u < 2 ? 2u : 1u) << "CU " << u;  // MSHR 2 (0x30) is never answered
    if (f.empty()) continue;
    EXPECT_EQ(f.back().vpn, 0x40u + 0x10u * u) << "CU " << u;
    EXPECT_EQ(f.back().ppn, ppn_of(0x40 + 0x10 * u)) << "CU " << u;
  }
  return tags_of(b, {0x40, 0x50, 0x60});
}

TEST(L1tlbModel, MshrFifoAllocatesInFreeOrder) {
  EXPECT_EQ(free_order_scenario(true), (std::vector<uint64_t>{3, 1, 0}));
}

TEST(L1tlbModel, MshrLowestAllocatesLowestFree) {
  EXPECT_EQ(free_order_scenario(false), (std::vector<uint64_t>{0, 1, 3}));
}

// Misses 0x10, 0x20 (c0, c1) take MSHRs 0, 1: fifo queue {2, 3}. The L2
// answers MSHR 0 in c5 (taken c4): f3 in c8 frees it at edge 8, the edge at
// which 0x30 (accepted c6) allocates. The allocation takes the queue's head
// 2 (MSHR 0 is valid in c8 with either order), then MSHR 0 joins the tail:
// {3, 0}. Misses 0x40, 0x50 (c9, c10, edges 11 and 12) then take 3 and 0
// (fifo) or 0 and 3 (lowest). Returns the tags of 0x30, 0x40, 0x50.
std::vector<uint64_t> same_edge_scenario(bool fifo) {
  Bench b(fifo ? with_fifo(P4()) : P4());
  b.auto_l2 = false;
  miss(b, 0, 0x10);
  miss(b, 1, 0x20);
  b.run_to(5);
  EXPECT_EQ(tags_of(b, {0x10}), (std::vector<uint64_t>{0}));
  b.l2resp(0, 0, 0x100, 1);
  b.step();  // c5
  miss(b, 2, 0x30);  // c6
  b.run_to(8);
  EXPECT_TRUE(b.m.mshr_valid(0, 0));
  b.step();  // c8: f3 frees MSHR 0 and the decide of 0x30 allocates
  EXPECT_TRUE(b.m.events().lookup_miss_alloc);
  EXPECT_FALSE(b.m.mshr_valid(0, 0));
  EXPECT_TRUE(b.m.mshr_valid(0, 2));
  if (fifo) {
    EXPECT_EQ(b.m.free_queue(0), (std::vector<unsigned>{3, 0}));
  }
  miss(b, 0, 0x40);  // c9
  miss(b, 1, 0x50);  // c10
  b.run_to(20);
  return tags_of(b, {0x30, 0x40, 0x50});
}

TEST(L1tlbModel, MshrFifoFreedAtAllocationEdgeGoesToTail) {
  EXPECT_EQ(same_edge_scenario(true), (std::vector<uint64_t>{2, 3, 0}));
}

TEST(L1tlbModel, MshrLowestFreedAtAllocationEdge) {
  EXPECT_EQ(same_edge_scenario(false), (std::vector<uint64_t>{2, 0, 3}));
}

// fifo: MSHRs 0, 1, 2 taken (c0 .. c2), MSHR 1 answered in c7 and freed at
// edge 10: queue {3, 1}. A miss accepted in c11 is in r1 and MSHRs 0 and 2
// are pending when the reset comes in c12. Afterwards the queue is 0 .. 3
// again: misses in c13 .. c15 take MSHRs 0, 1, 2.
TEST(L1tlbModel, MshrFifoResetRestoresOrder) {
  Bench b(with_fifo(P4()));
  b.auto_l2 = false;
  miss(b, 0, 0x10);
  miss(b, 1, 0x20);
  miss(b, 2, 0x30);
  b.run_to(7);
  b.l2resp(0, 1, 0x111, 1);
  b.run_to(11);
  EXPECT_EQ(b.m.free_queue(0), (std::vector<unsigned>{3, 1}));
  miss(b, 3, 0x40);  // c11
  EXPECT_TRUE(b.m.r1_valid(0));
  b.in.rst_n = false;
  b.step();  // c12
  EXPECT_TRUE(b.m.events().reset);
  EXPECT_EQ(b.m.free_queue(0), (std::vector<unsigned>{0, 1, 2, 3}));
  EXPECT_EQ(b.m.free_mshrs(0), 4u);
  b.l2log.clear();
  miss(b, 0, 0x50);
  miss(b, 1, 0x60);
  miss(b, 2, 0x70);
  b.run_to(25);
  EXPECT_EQ(tags_of(b, {0x50, 0x60, 0x70}), (std::vector<uint64_t>{0, 1, 2}));
  EXPECT_EQ(tags_of(b, {0x40}), (std::vector<uint64_t>{~uint64_t{0}}));  // dropped by the reset
}

// same_registers / copy_registers cover the free queue. Misses 0x10, 0x20,
// 0x30 (c0 .. c2) take MSHRs 0, 1, 2; a flush-all accepted in c5 kills them
// at edge 7, so their fills (answered from c8) write nothing. Model a answers
// MSHRs 0, 1, 2 and model b 1, 0, 2 (same data per MSHR, the last answer the
// same): afterwards every register but the queue's order is equal
// (a {3, 0, 1, 2}, b {3, 1, 0, 2}).
void killed_fills(Bench& b, const std::vector<unsigned>& answer_order) {
  b.auto_l2 = false;
  miss(b, 0, 0x10);
  miss(b, 1, 0x20);
  miss(b, 2, 0x30);
  b.run_to(5);
  b.sd(true, 0);
  ASSERT_TRUE(b.peek().sd_ready);
  b.run_to(8);
  for (unsigned m : answer_order) {
    b.l2resp(0, m, 0x100 + m, 1);
    b.step();
  }
  b.run_to(20);
}

TEST(L1tlbModel, MshrFifoQueueIsPartOfTheRegisterState) {
  Bench a(with_fifo(P4())), b(with_fifo(P4())), a2(with_fifo(P4()));
  killed_fills(a, {0, 1, 2});
  killed_fills(a2, {0, 1, 2});
  killed_fills(b, {1, 0, 2});
  EXPECT_EQ(a.m.stats().fills_suppressed, 3u);
  EXPECT_EQ(a.m.free_queue(0), (std::vector<unsigned>{3, 0, 1, 2}));
  EXPECT_EQ(b.m.free_queue(0), (std::vector<unsigned>{3, 1, 0, 2}));
  EXPECT_TRUE(a.m.same_registers(a2.m));  // the control: same inputs, same registers
  EXPECT_FALSE(a.m.same_registers(b.m));
  a.m.copy_registers(b.m);
  EXPECT_TRUE(a.m.same_registers(b.m));
  miss(a, 0, 0x40);
  miss(a, 1, 0x50);
  a.run_to(a.cyc + 6);
  EXPECT_EQ(tags_of(a, {0x40, 0x50}), (std::vector<uint64_t>{3, 1}));  // b's order
}

// L2 send order inside a TLB (document "L2 request"): fifo sends the oldest
// candidate (the send queue's head), lowest the lowest-index candidate.
// Misses 0x10, 0x20, 0x30 (c0 .. c2) take MSHRs 0, 1, 2 (edges 2 .. 4; L2
// takes c4 .. c6, tags 0, 1, 2). In c3 CU3 misses 0x40 (MSHR 3, edge 5) and
// CU0 misses 0x11 (TLB 1, MSHR 0, edge 5); both are candidates from c6, lp
// is 1 at edge 6, so q takes 0x11 (tag 4) and holds it from c7 under
// back-pressure. The L2 answers MSHR 1 in c7 (freed at edge 10) and MSHR 0
// in c8 (freed at edge 11). Misses 0x50 (c12, edge 14) and 0x60 (c13, edge
// 15) take fifo 1, 0 (free queue {1, 0}), lowest 0, 1. So TLB 0's pending
// unsent MSHRs in allocation order are fifo 3, 1, 0 and lowest 3, 0, 1; the
// L2 is ready again in c20 (0x11 taken, lp = 0): returns the tags TLB 0
// sends from then on.
std::vector<uint64_t> send_order_scenario(bool fifo) {
  Bench b(fifo ? with_fifo(P4()) : P4());
  b.auto_l2 = false;
  miss(b, 0, 0x10);
  miss(b, 1, 0x20);
  miss(b, 2, 0x30);
  b.req(0, 0x11);
  b.req(3, 0x40);
  EXPECT_TRUE(b.peek().req_ready[0] && b.out.req_ready[3]);
  b.run_to(7);  // c3 .. c6
  EXPECT_EQ(tags_of(b, {0x10, 0x20, 0x30}), (std::vector<uint64_t>{0, 1, 2}));
  EXPECT_EQ(b.peek().l2_req_tag[0], 4u);
  b.ready[0] = 0;
  b.l2resp(0, 1, 0x111, 1);
  b.step();  // c7
  b.l2resp(0, 0, 0x100, 1);
  b.run_to(12);  // c8 .. c11
  miss(b, 1, 0x50);
  miss(b, 2, 0x60);
  b.run_to(20);
  EXPECT_EQ(b.l2log.size(), 3u);  // 0x11 held in q
  EXPECT_EQ(b.m.mshr_vh(0, 3), 0x40u >> 1);
  EXPECT_EQ(b.m.mshr_vh(0, fifo ? 1 : 0), 0x50u >> 1);
  EXPECT_EQ(b.m.mshr_vh(0, fifo ? 0 : 1), 0x60u >> 1);
  if (fifo) {
    EXPECT_EQ(b.m.send_queue(0), (std::vector<unsigned>{3, 1, 0}));
  }
  b.ready[0] = 1;
  b.auto_l2 = true;  // answers the sends (and so checks their tags map back)
  b.run_to(40);
  EXPECT_EQ(b.l2log.size(), 7u);
  for (unsigned u = 1; u < 4; ++u) {
    const uint64_t vpn = u == 3 ? 0x40 : 0x40 + 0x10 * u;
    const auto f = b.resps(u, true);
    EXPECT_FALSE(f.empty()) << "CU " << u;
    if (f.empty()) continue;
    EXPECT_EQ(f.back().vpn, vpn) << "CU " << u;
    EXPECT_EQ(f.back().ppn, ppn_of(vpn)) << "CU " << u;
  }
  std::vector<uint64_t> tags;
  for (size_t i = 4; i < b.l2log.size(); ++i) tags.push_back(b.l2log[i].tag);
  return tags;
}

TEST(L1tlbModel, MshrFifoSendsInAllocationOrder) {
  EXPECT_EQ(send_order_scenario(true), (std::vector<uint64_t>{3, 1, 0}));
}

TEST(L1tlbModel, MshrLowestSendsLowestIndexFirst) {
  EXPECT_EQ(send_order_scenario(false), (std::vector<uint64_t>{0, 1, 3}));
}

// fifo, L2 never ready: misses 0x10, 0x20, 0x30 (c0 .. c2) take MSHRs 0, 1,
// 2; q (empty) loads MSHR 0 at edge 3 and holds it, so the send queue is
// {1, 2} in c5. A reset in c6 empties it. Misses 0x50 (c7, MSHR 0, edge 9)
// and 0x60 (c8, MSHR 1, edge 10) with the L2 ready are then the only L2
// requests: taken in c11 and c12, nothing stale before them.
TEST(L1tlbModel, MshrFifoResetEmptiesSendQueue) {
  Bench b(with_fifo(P4()));
  b.auto_l2 = false;
  b.ready[0] = 0;
  miss(b, 0, 0x10);
  miss(b, 1, 0x20);
  miss(b, 2, 0x30);
  b.run_to(6);
  EXPECT_EQ(b.m.send_queue(0), (std::vector<unsigned>{1, 2}));
  EXPECT_TRUE(b.m.q_valid(0));
  b.in.rst_n = false;
  b.step();  // c6
  EXPECT_TRUE(b.m.events().reset);
  EXPECT_TRUE(b.m.send_queue(0).empty());
  EXPECT_FALSE(b.m.q_valid(0));
  b.ready[0] = 1;
  miss(b, 0, 0x50);  // c7
  miss(b, 1, 0x60);  // c8
  b.run_to(25);
  ASSERT_EQ(b.l2log.size(), 2u);
  EXPECT_EQ(b.l2log[0].cyc, 11u);
  EXPECT_EQ(b.l2log[0].vpn, 0x50u);
  EXPECT_EQ(b.l2log[0].tag, 0u);
  EXPECT_EQ(b.l2log[1].cyc, 12u);
  EXPECT_EQ(b.l2log[1].vpn, 0x60u);
  EXPECT_EQ(b.l2log[1].tag, 1u);
}

// same_registers / copy_registers cover the send queue's order. After
// killed_fills the free queues are a {3, 0, 1, 2} and b {3, 1, 0, 2}; with the
// L2 not ready, CU0 misses 0x40, 0x50, 0x60, 0x70 in a and 0x40, 0x60, 0x50,
// 0x70 in b, so both hold 0x40 in MSHR 3 (loaded into q), 0x50 in 0, 0x60 in
// 1 and 0x70 in 2, with the same r1 / r2 contents; only the send queue's
// order differs (a {0, 1, 2}, b {1, 0, 2}).
void unsent_misses(Bench& b, const std::vector<uint64_t>& vpns) {
  b.ready[0] = 0;
  for (uint64_t v : vpns) miss(b, 0, v);
  b.run_to(b.cyc + 6);
}

TEST(L1tlbModel, MshrFifoSendQueueIsPartOfTheRegisterState) {
  Bench a(with_fifo(P4())), b(with_fifo(P4())), a2(with_fifo(P4()));
  killed_fills(a, {0, 1, 2});
  killed_fills(a2, {0, 1, 2});
  killed_fills(b, {1, 0, 2});
  unsent_misses(a, {0x40, 0x50, 0x60, 0x70});
  unsent_misses(a2, {0x40, 0x50, 0x60, 0x70});
  unsent_misses(b, {0x40, 0x60, 0x50, 0x70});
  EXPECT_EQ(a.m.send_queue(0), (std::vector<unsigned>{0, 1, 2}));
  EXPECT_EQ(b.m.send_queue(0), (std::vector<unsigned>{1, 0, 2}));
  EXPECT_EQ(a.m.free_queue(0), b.m.free_queue(0));
  EXPECT_TRUE(a.m.same_registers(a2.m));  // the control: same inputs, same registers
  EXPECT_FALSE(a.m.same_registers(b.m));
  a.m.copy_registers(b.m);
  EXPECT_TRUE(a.m.same_registers(b.m));
  a.l2log.clear();
  a.ready[0] = 1;
  a.run_to(a.cyc + 6);
  std::vector<uint64_t> tags;
  for (const L2Take& t : a.l2log) tags.push_back(t.tag);
  EXPECT_EQ(tags, (std::vector<uint64_t>{3, 1, 0, 2}));  // b's order
}

// Random traffic on both TLBs of P4 with fifo, L2 latency 3 and random
// back-pressure, shootdowns and one reset. Queues kept by the test from the
// MSHR valid and sent bits alone must match the model's every cycle: free
// queue (an MSHR that becomes valid must be the head; one that becomes free
// joins the tail after it) and send queue (an MSHR that becomes sent must be
// the head, removed before the allocation of the same edge joins the tail).
// Some allocation must differ from the lowest free MSHR, and some send from
// the lowest-index candidate.
TEST(L1tlbModel, MshrFifoOrderUnderRandomTraffic) {
  const L1tlbParams p = with_fifo(P4());
  Bench b(p);
  b.lat = 3;
  std::mt19937_64 rng(21);
  std::vector<std::deque<unsigned>> ref(p.tlbs), ref_send(p.tlbs);
  auto reset_ref = [&] {
    for (auto& q : ref) {
      q.clear();
      for (unsigned m = 0; m < p.mshrs; ++m) q.push_back(m);
    }
    for (auto& q : ref_send) q.clear();
  };
  reset_ref();
  unsigned allocs = 0, not_lowest = 0, sends = 0, send_not_lowest = 0;
  bool sd_on = false, sd_all = false;  // a shootdown is held until sd_ready
  uint64_t sd_vpn = 0;
  for (unsigned c = 0; c < 3000; ++c) {
    for (unsigned u = 0; u < 4; ++u)
      if (rng() % 2) b.req(u, rng() % 64);
    b.ready[0] = rng() % 4 != 0;
    if (c % 97 == 50 && !sd_on) {
      sd_on = true;
      sd_all = rng() % 2;
      sd_vpn = rng() % 64;
    }
    if (sd_on) b.sd(sd_all, sd_vpn);
    if (c == 1500) b.in.rst_n = false;
    std::vector<std::vector<bool>> was(p.tlbs, std::vector<bool>(p.mshrs));
    std::vector<std::vector<bool>> was_sent = was, was_cand = was;
    for (unsigned j = 0; j < p.tlbs; ++j)
      for (unsigned m = 0; m < p.mshrs; ++m) {
        was[j][m] = b.m.mshr_valid(j, m);
        was_sent[j][m] = b.m.mshr_sent(j, m);
        was_cand[j][m] = was[j][m] && b.m.mshr_pending(j, m) && !was_sent[j][m];
      }
    const L1tlbOut o = b.step();
    if (o.sd_ready || b.m.events().reset) sd_on = false;
    if (b.m.events().reset) {
      reset_ref();
      continue;
    }
    for (unsigned j = 0; j < p.tlbs; ++j) {
      int taken = -1, freed = -1, sent = -1;
      unsigned lowest = p.mshrs, lowest_cand = p.mshrs;
      for (unsigned m = 0; m < p.mshrs; ++m) {
        if (!was[j][m] && lowest == p.mshrs) lowest = m;
        if (was_cand[j][m] && lowest_cand == p.mshrs) lowest_cand = m;
        if (!was[j][m] && b.m.mshr_valid(j, m)) taken = int(m);
        if (was[j][m] && !b.m.mshr_valid(j, m)) freed = int(m);
        if (!was_sent[j][m] && b.m.mshr_sent(j, m)) sent = int(m);
      }
      if (sent >= 0) {
        ASSERT_FALSE(ref_send[j].empty()) << "c" << c;
        ASSERT_EQ(unsigned(sent), ref_send[j].front()) << "c" << c << " TLB " << j;
        ref_send[j].pop_front();
        ++sends;
        send_not_lowest += unsigned(sent) != lowest_cand;
      }
      if (taken >= 0) ref_send[j].push_back(unsigned(taken));
      if (taken >= 0) {
        ASSERT_FALSE(ref[j].empty()) << "c" << c;
        ASSERT_EQ(unsigned(taken), ref[j].front()) << "c" << c << " TLB " << j;
        ref[j].pop_front();
        ++allocs;
        not_lowest += unsigned(taken) != lowest;
      }
      if (freed >= 0) ref[j].push_back(unsigned(freed));
      ASSERT_EQ(b.m.free_queue(j), std::vector<unsigned>(ref[j].begin(), ref[j].end())) << "c" << c;
      ASSERT_EQ(b.m.send_queue(j), std::vector<unsigned>(ref_send[j].begin(), ref_send[j].end())) << "c" << c;
    }
  }
  EXPECT_GT(allocs, 200u);
  EXPECT_GT(not_lowest, 20u);
  EXPECT_GT(send_not_lowest, 0u);
  std::cout << "[ fifo random ] allocations " << allocs << ", not the lowest free MSHR " << not_lowest << "; sends "
            << sends << ", not the lowest candidate " << send_not_lowest << "\n";
}

// ---------------------------------------------------------------------------
// Experiment: aggregation (5.1) and clustering (6.1) remove replicated
// lookup misses. U = 16 CUs, W = 8 ways, mshrs_per_cu = 4; a page is shared
// by all CUs with probability `share`, else private to the requesting CU.
// Ideal L2: always ready, answers L = 20 cycles after the handshake. Each CU
// issues R requests; after an accept it waits a random gap (mean ~16 cycles)
// so that even T = 1 (one accept per cycle) is not the bottleneck.

struct ExpResult {
  uint64_t accepts, hits, lookup_misses, mshr_hits, l2, cycles;
};

ExpResult run_exp(unsigned T, unsigned C, double share, uint64_t seed) {
  const unsigned U = 16, W = 8, R = 1500, L = 20;
  const unsigned PS = 48, PP = 24;  // shared pool, private pool per CU
  L1tlbParams p = mk(U, T, C, W, 4, false, 20, 1, 20, 3);
  p.mshr_fifo = p.mshrs >= 32;  // as `mshr_alloc: auto` elaborates (T = 1: 64 MSHRs)
  // Traces (identical for every configuration of one (share, seed)).
  std::mt19937_64 rng(seed);
  std::set<uint64_t> used;
  auto fresh = [&]() {
    for (;;) {
      const uint64_t v = rng() & 0xfffff;
      if (used.insert(v).second) return v;
    }
  };
  std::vector<uint64_t> shared(PS);
  for (auto& v : shared) v = fresh();
  std::vector<std::vector<uint64_t>> priv(U, std::vector<uint64_t>(PP));
  for (auto& pv : priv)
    for (auto& v : pv) v = fresh();
  std::uniform_real_distribution<double> uni(0.0, 1.0);
  std::vector<std::vector<uint64_t>> trace(U);
  std::vector<std::vector<unsigned>> gap(U);
  for (unsigned u = 0; u < U; ++u)
    for (unsigned r = 0; r < R; ++r) {
      trace[u].push_back(uni(rng) < share ? shared[rng() % PS] : priv[u][rng() % PP]);
      gap[u].push_back(static_cast<unsigned>(rng() % 32));
    }
  L1tlbModel m(p);
  L1tlbIn in = m.idle_inputs();
  L1tlbOut out = m.make_outputs();
  std::vector<unsigned> pos(U, 0), wait(U, 0);
  std::vector<std::deque<std::pair<uint64_t, uint64_t>>> l2q(C);  // (due, tag) (ppn irrelevant)
  std::vector<std::deque<uint64_t>> l2vpn(C);
  uint64_t cyc = 0;
  for (;; ++cyc) {
    bool left = false;
    for (unsigned u = 0; u < U; ++u) {
      in.req_valid[u] = 0;
      if (pos[u] < R) {
        left = true;
        if (wait[u] == 0) {
          in.req_valid[u] = 1;
          in.req_vpn[u] = trace[u][pos[u]];
          in.req_vmid[u] = 0;
        } else {
          --wait[u];
        }
      }
    }
    for (unsigned c = 0; c < C; ++c) {
      in.l2_resp_valid[c] = 0;
      if (!l2q[c].empty() && l2q[c].front().first <= cyc) {
        in.l2_resp_valid[c] = 1;
        in.l2_resp_tag[c] = l2q[c].front().second;
        in.l2_resp_ppn[c] = ppn_of(l2vpn[c].front());
        in.l2_resp_perm[c] = 0;
        l2q[c].pop_front();
        l2vpn[c].pop_front();
      }
      left |= !l2q[c].empty();
    }
    m.outputs(in, out);
    for (unsigned u = 0; u < U; ++u)
      if (out.req_ready[u]) {
        wait[u] = gap[u][pos[u]];
        ++pos[u];
      }
    for (unsigned c = 0; c < C; ++c)
      if (out.l2_req_valid[c]) {
        l2q[c].push_back({cyc + L, out.l2_req_tag[c]});
        l2vpn[c].push_back(out.l2_req_vpn[c]);
      }
    m.posedge(in);
    if (!left && cyc > 64) {
      bool idle = true;
      for (unsigned j = 0; j < T; ++j) idle &= m.free_mshrs(j) == p.mshrs && !m.r1_valid(j) && !m.r2_valid(j);
      if (idle) break;
    }
    if (cyc > 10'000'000) break;
  }
  const L1tlbStats& s = m.stats();
  return {s.accepts, s.hits, s.lookup_misses, s.mshr_hits, s.l2_requests, cyc};
}

TEST(L1tlbExperiment, AggregationRemovesReplicatedMisses) {
  uint64_t seed = 20261125;
  if (const char* e = std::getenv("L1TLB_SEED")) seed = std::strtoull(e, nullptr, 0);
  std::cout << "[ experiment ] seed " << seed
            << " (U = 16, W = 8, mshrs_per_cu = 4, 1500 requests per CU, shared pool 48 pages, private pool 24 "
               "pages per CU, ideal L2 latency 20)\n";
  struct Pt {
    unsigned T, C;
    const char* name;
  };
  const Pt pts[] = {{16, 16, "T=16 private"}, {4, 4, "T=4 aggregated"}, {1, 1, "T=1 aggregated"},
                    {4, 2, "T=4 C=2 clustered"}};
  const double shares[] = {0.0, 0.5, 0.9};
  std::map<std::pair<double, unsigned>, ExpResult> res;
  std::ostringstream t;
  t << "| sharing | configuration | S x W | lookups | hits | lookup misses (MSHR alloc) | MSHR hits (merges) | "
       "L2 requests | L2 vs T=16 | cycles |\n|---:|---|---|---:|---:|---:|---:|---:|---:|---:|\n";
  for (double sh : shares)
    for (unsigned i = 0; i < 4; ++i) {
      const ExpResult r = run_exp(pts[i].T, pts[i].C, sh, seed);
      res[{sh, i}] = r;
      const double rel = double(r.l2) / double(res[{sh, 0}].l2);
      t << "| " << std::fixed << std::setprecision(1) << sh << " | " << pts[i].name << " | " << 16 / pts[i].T
        << " x 8 | " << r.accepts << " | " << r.hits << " | " << r.lookup_misses << " | " << r.mshr_hits << " | "
        << r.l2 << " | " << std::setprecision(2) << rel << " | " << r.cycles << " |\n";
    }
  std::cout << t.str();
  for (double sh : shares)
    for (unsigned i = 0; i < 4; ++i) {
      const ExpResult& r = res[{sh, i}];
      EXPECT_EQ(r.accepts, 16u * 1500u);
      EXPECT_EQ(r.hits + r.lookup_misses + r.mshr_hits, r.accepts);
      EXPECT_EQ(r.l2, r.lookup_misses);  // every lookup miss is one L2 request
    }
  // High sharing: aggregation cuts L2 requests substantially.
  EXPECT_LE(double(res[{0.9, 2}].l2), 0.6 * double(res[{0.9, 0}].l2));
  EXPECT_LE((res[{0.9, 1}].l2), (res[{0.9, 0}].l2));
  EXPECT_LE((res[{0.9, 3}].l2), (res[{0.9, 1}].l2));  // clustering removes more than T=4 alone
  // No sharing: little change.
  const double r0 = double(res[{0.0, 2}].l2) / double(res[{0.0, 0}].l2);
  EXPECT_GE(r0, 0.85);
  EXPECT_LE(r0, 1.15);
}

}  // namespace
}  // namespace txgen::model
