// Unit tests of the golden dhsl model (docs/blocks/dhsl.md). Parameters are
// filled by hand; expected values are worked out by hand in the comments.
// Cycle numbering: "edge k" is the k-th rising edge after the model was
// built (or reset); "cycle k+1" is the cycle after edge k, in which the
// registers written at edge k are visible on the outputs.
#include "model/dhsl.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <random>
#include <stdexcept>
#include <vector>

namespace txgen::model {
namespace {

using config::DhslPolicy;
using elab::DhslParams;

unsigned cb_of(unsigned n) {  // max(1, ceil(log2 N)), by hand for N in [2, 8]
  static const unsigned t[9] = {0, 1, 1, 2, 2, 3, 3, 3, 3};
  return t[n];
}

// 32-bit VA, 4 KB pages: VPN 20; 2 MB coarse blocks (shift 9); thresholds of
// the document: 4/5, 9/10, 1/2.
DhslParams mk(DhslPolicy pol, unsigned n, unsigned w = 8, unsigned e = 10) {
  DhslParams p;
  p.module_prefix = "dhsl_test";
  p.policy = pol;
  p.chiplets = n;
  p.chiplet_bits = cb_of(n);
  p.vpn_bits = 20;
  p.shift_bits = 6;
  p.coarse_shift = 9;
  p.counter_bits = w;
  p.epoch_requests = e;
  p.imbalance_num = 4;
  p.imbalance_den = 5;
  p.hit_num = 9;
  p.hit_den = 10;
  p.balanced_num = 1;
  p.balanced_den = 2;
  p.cus_per_chiplet = 32;
  p.l2_entries = 512;
  return p;
}

// Drives the model one cycle at a time and keeps the events of the last edge.
struct Sim {
  DhslModel m;
  DhslEvents ev;
  unsigned edges = 0;
  explicit Sim(const DhslParams& p) : m(p) {}
  DhslIn idle() const { return m.idle_inputs(); }
  // Outputs of the cycle (before its edge), then the edge.
  DhslOut step(const DhslIn& in) {
    DhslOut o = m.outputs(in);
    m.posedge(in);
    ev = m.events();
    ++edges;
    return o;
  }
  DhslOut step() { return step(idle()); }
  // Outputs in the current cycle with idle inputs (and q_vpn = vpn everywhere).
  DhslOut peek(uint64_t vpn = 0) const {
    DhslIn in = idle();
    std::fill(in.q_vpn.begin(), in.q_vpn.end(), vpn);
    return m.outputs(in);
  }
};

// Independent mod: vpn mod N as the sum of per-bit residues reduced mod N
// (the document's "sum of per-bit residues reduced mod N").
uint32_t mod_by_bits(uint64_t v, unsigned n) {
  uint32_t acc = 0, r = 1 % n;
  for (int b = 0; b < 64; ++b) {
    if ((v >> b) & 1) acc = (acc + r) % n;
    r = (r * 2) % n;
  }
  return acc;
}

// ===========================================================================
// HSL function

// vpn 1000003 (< 2^20): mod 3 = 1 (digit sum 4), mod 4 = 3, mod 5 = 3,
// mod 6 = 1 (odd and 1 mod 3). 1000003 >> 9 = 1953 (1953 x 512 = 999936):
// mod 3 = 0, mod 4 = 1, mod 5 = 3, mod 6 = 3. 1000003 >> 4 = 62500:
// mod 3 = 1, mod 4 = 0, mod 5 = 0, mod 6 = 4.
TEST(DhslHsl, FineCoarseShiftNonPowerOfTwo) {
  const uint64_t v = 1000003;
  struct Row { unsigned n; uint32_t fine, sh9, sh4; };
  const Row rows[] = {{3, 1, 0, 1}, {4, 3, 1, 0}, {5, 3, 3, 0}, {6, 1, 3, 4}};
  for (const Row& r : rows) {
    for (DhslPolicy pol : {DhslPolicy::Mgvm, DhslPolicy::MgvmCoarse}) {
      const DhslParams p = mk(pol, r.n);
      EXPECT_EQ(dhsl_home(p, v, true, 9, 0), r.fine) << r.n;
      EXPECT_EQ(dhsl_home(p, v, false, 9, 0), r.sh9) << r.n;
      EXPECT_EQ(dhsl_home(p, v, false, 4, 0), r.sh4) << r.n;
      EXPECT_EQ(dhsl_home(p, v, false, 0, 0), r.fine) << "shift 0 = fine";
      EXPECT_EQ(dhsl_home(p, v, false, 63, 0), 0u) << "shift 63 of a 20-bit VPN";
      EXPECT_EQ(dhsl_home(p, v | (uint64_t{1} << 20), true, 9, 0), r.fine) << "VPN is 20 bits";
      EXPECT_EQ(dhsl_home(p, v, true, 9, 2), r.fine) << "local ignored";
    }
  }
  // A block of 2^shift consecutive pages shares one home; consecutive blocks
  // rotate over the N chiplets (N = 5, shift 9: block b -> b mod 5).
  const DhslParams p5 = mk(DhslPolicy::Mgvm, 5);
  for (uint64_t b = 0; b < 12; ++b) {
    for (uint64_t off : {uint64_t{0}, uint64_t{1}, uint64_t{511}}) {
      EXPECT_EQ(dhsl_home(p5, b * 512 + off, false, 9, 0), b % 5);
    }
  }
  std::mt19937_64 rng(7);
  for (unsigned n = 2; n <= 8; ++n) {
    const DhslParams p = mk(DhslPolicy::Mgvm, n);
    for (int k = 0; k < 2000; ++k) {
      const uint64_t x = rng() & 0xFFFFF;
      const uint32_t sh = static_cast<uint32_t>(rng() % 64);
      EXPECT_EQ(dhsl_home(p, x, true, sh, 0), mod_by_bits(x, n));
      EXPECT_EQ(dhsl_home(p, x, false, sh, 0), mod_by_bits(x >> sh, n));
    }
  }
}

TEST(DhslHsl, PrivateAndSharedStatic) {
  for (unsigned n : {3u, 5u, 6u}) {
    const DhslParams pp = mk(DhslPolicy::Private, n);
    const DhslParams ps = mk(DhslPolicy::SharedStatic, n);
    for (uint32_t local = 0; local < n; ++local) {
      EXPECT_EQ(dhsl_home(pp, 1000003, false, 9, local), local);
      EXPECT_EQ(dhsl_home(pp, 1000003, true, 0, local), local);
    }
    // shared_static: vpn mod N whatever (fine, shift) says.
    EXPECT_EQ(dhsl_home(ps, 1000003, false, 9, 0), mod_by_bits(1000003, n));
    EXPECT_EQ(dhsl_home(ps, 1000003, true, 4, 1), mod_by_bits(1000003, n));
  }
  EXPECT_EQ(dhsl_home(mk(DhslPolicy::SharedStatic, 5), 1000003, false, 9, 0), 3u);
}

// The router outputs of the sys top for the baselines: private keeps every
// request local; shared_static interleaves by 4 KB; no monitor outputs.
TEST(DhslHsl, SysRouterBaselines) {
  for (unsigned n : {3u, 5u, 6u}) {
    for (DhslPolicy pol : {DhslPolicy::Private, DhslPolicy::SharedStatic}) {
      Sim s(mk(pol, n));
      DhslIn in = s.idle();
      for (unsigned c = 0; c < n; ++c) in.q_vpn[c] = 1000003 + 7 * c;
      for (int cyc = 0; cyc < 3; ++cyc) {
        const DhslOut o = s.step(in);
        EXPECT_FALSE(o.mode);
        EXPECT_FALSE(o.switch_pulse);
        for (unsigned c = 0; c < n; ++c) {
          const uint32_t h = pol == DhslPolicy::Private ? c : mod_by_bits(in.q_vpn[c], n);
          EXPECT_EQ(o.rtu_home[c], h);
          EXPECT_EQ(o.rtu_local[c], h == c);
          EXPECT_EQ(o.l2_walk[c], h == c);
          EXPECT_FALSE(o.rtu_fine[c] || o.l2_fine[c] || o.trigger[c] || o.possible[c] || o.epoch[c] ||
                       o.back[c]);
        }
      }
    }
  }
  // mgvm after reset: coarse (shift 9): 1953 mod 5 = 3 -> chiplet 3 is local.
  Sim s(mk(DhslPolicy::Mgvm, 5));
  const DhslOut o = s.peek(1000003);
  for (unsigned c = 0; c < 5; ++c) {
    EXPECT_EQ(o.rtu_home[c], 3u);
    EXPECT_EQ(o.rtu_local[c], c == 3);
    EXPECT_EQ(o.l2_walk[c], c == 3);
  }
}

// ===========================================================================
// RTU monitor

// Drives chiplet c's RTU with `ins` incoming-only cycles, then `outs`
// outgoing-only, then `both` cycles with both.
void rtu_drive(Sim& s, unsigned c, unsigned ins, unsigned outs, unsigned both) {
  for (unsigned k = 0; k < ins + outs + both; ++k) {
    DhslIn in = s.idle();
    in.rtu_in[c] = k < ins || k >= ins + outs;
    in.rtu_out[c] = k >= ins;
    s.step(in);
  }
}

TEST(DhslRtu, EpochEndsExactlyAtE) {
  Sim s(mk(DhslPolicy::Mgvm, 4, 8, 10));
  DhslIn in = s.idle();
  in.rtu_in[0] = true;
  for (int k = 1; k <= 9; ++k) {
    s.step(in);
    EXPECT_EQ(s.ev.epochs_ended, 0u) << k;
    EXPECT_FALSE(s.peek().epoch[0]);
  }
  s.step(in);  // the 10th request ends the epoch at this edge
  EXPECT_EQ(s.ev.epochs_ended, 1u);
  EXPECT_EQ(s.ev.possible_flags, 1u);
  DhslOut o = s.peek();
  EXPECT_TRUE(o.epoch[0]);     // 1 in the cycle after the epoch ended
  EXPECT_TRUE(o.possible[0]);  // 10 > 2 x 0: streak_q = 1
  EXPECT_FALSE(o.trigger[0]);
  EXPECT_FALSE(o.epoch[1]);
  s.step();
  EXPECT_FALSE(s.peek().epoch[0]);  // one-cycle pulse
  EXPECT_TRUE(s.peek().possible[0]);
}

TEST(DhslRtu, TwoRequestsCrossingE) {
  // E = 10: 3 outgoing (epoch 3), 6 incoming (epoch 9), then in + out:
  // 9 + 2 >= 10 ends the epoch with both counted: in 7, out 4, and 7 > 8 is
  // false -> not possible. (Had the outgoing one been dropped: 7 > 6.)
  Sim s(mk(DhslPolicy::Mgvm, 4, 8, 10));
  rtu_drive(s, 1, 0, 3, 0);
  rtu_drive(s, 1, 6, 0, 0);
  EXPECT_EQ(s.ev.epochs_ended, 0u);
  rtu_drive(s, 1, 0, 0, 1);
  EXPECT_EQ(s.ev.epochs_ended, 1u);
  EXPECT_EQ(s.ev.possible_flags, 0u);
  EXPECT_TRUE(s.peek().epoch[1]);
  EXPECT_FALSE(s.peek().possible[1]);
  // The next epoch starts at 0 (the request beyond E is not carried): it ends
  // after exactly 10 more requests. 3 in, 3 in + out (in 6, out 3, epoch 9),
  // then 1 in: in 7, out 3, 7 > 6 -> possible.
  rtu_drive(s, 1, 3, 0, 3);
  EXPECT_EQ(s.ev.epochs_ended, 0u);
  rtu_drive(s, 1, 1, 0, 0);
  EXPECT_EQ(s.ev.epochs_ended, 1u);
  EXPECT_EQ(s.ev.possible_flags, 1u);
  EXPECT_TRUE(s.peek().possible[1]);
  // E = 9 crossed by two from 8: in 3, then 3 x (in + out): epoch 3, 5, 7,
  // 7 + 2 >= 9: in 6, out 3, 6 > 6 false -> not possible.
  Sim t(mk(DhslPolicy::Mgvm, 3, 8, 9));
  rtu_drive(t, 2, 3, 0, 2);
  EXPECT_EQ(t.ev.epochs_ended, 0u);
  rtu_drive(t, 2, 0, 0, 1);
  EXPECT_EQ(t.ev.epochs_ended, 1u);
  EXPECT_EQ(t.ev.possible_flags, 0u);
}

TEST(DhslRtu, SavingAndClearing) {
  // Epoch A: 10 in (possible). Epoch B: 4 in, 6 out: 4 > 12 false. Had the
  // counters not been cleared at A's end: 14 > 12 would be true.
  Sim s(mk(DhslPolicy::Mgvm, 4, 8, 10));
  rtu_drive(s, 0, 10, 0, 0);
  EXPECT_TRUE(s.peek().possible[0]);
  rtu_drive(s, 0, 4, 6, 0);
  EXPECT_EQ(s.ev.epochs_ended, 1u);
  EXPECT_FALSE(s.peek().possible[0]);
  EXPECT_FALSE(s.peek().trigger[0]);
  // Other chiplets are independent.
  EXPECT_FALSE(s.peek().possible[1]);
}

TEST(DhslRtu, PossibleStreakAndTrigger) {
  // E = 3. P = 3 incoming (possible), Q = 3 outgoing (not possible).
  Sim s(mk(DhslPolicy::Mgvm, 4, 8, 3));
  auto P = [&] { rtu_drive(s, 2, 3, 0, 0); };
  auto Q = [&] { rtu_drive(s, 2, 0, 3, 0); };
  unsigned triggers = 0;
  P();
  EXPECT_TRUE(s.peek().possible[2]);
  EXPECT_FALSE(s.peek().trigger[2]);
  P();  // second consecutive: trigger, streak back to 0
  EXPECT_EQ(s.ev.triggers, 1u);
  EXPECT_TRUE(s.peek().trigger[2]);
  EXPECT_FALSE(s.peek().possible[2]);
  s.step();
  EXPECT_FALSE(s.peek().trigger[2]);  // one-cycle pulse
  P();  // third: only the first of two more
  EXPECT_EQ(s.ev.triggers, 0u);
  EXPECT_TRUE(s.peek().possible[2]);
  Q();  // a non-possible epoch resets the streak
  EXPECT_FALSE(s.peek().possible[2]);
  EXPECT_FALSE(s.peek().trigger[2]);
  P();
  EXPECT_FALSE(s.peek().trigger[2]);
  P();
  EXPECT_TRUE(s.peek().trigger[2]);
  // Count: P P (trigger) P Q P P (trigger): 2 triggers over 7 epochs.
  Sim t(mk(DhslPolicy::Mgvm, 4, 8, 3));
  const char* seq = "PPPQPPPPP";  // triggers at #2, #6, #8
  for (const char* q = seq; *q; ++q) {
    if (*q == 'P') rtu_drive(t, 0, 3, 0, 0); else rtu_drive(t, 0, 0, 3, 0);
    triggers += t.ev.triggers;
  }
  EXPECT_EQ(triggers, 3u);
}

// ===========================================================================
// L2-slice monitor

struct Acc {
  uint32_t cid;
  bool hit;
};

// Chiplet c: the accesses one per cycle (no RTU traffic), then E outgoing RTU
// requests (no access) ending the RTU epoch, then the cycle X with epoch_o = 1
// (with access `last` if given), whose edge saves the L2 counters, then the
// two idle cycles of the pipelined balance check (total_q at X+1's edge, the
// check at X+2's). Returns the check edge's events (back_o is visible in the
// cycle after, X+3).
DhslEvents l2_epoch(Sim& s, unsigned c, const std::vector<Acc>& acc, const Acc* last = nullptr) {
  for (const Acc& a : acc) {
    DhslIn in = s.idle();
    in.l2_access[c] = true;
    in.l2_hit[c] = a.hit;
    in.l2_cid[c] = a.cid;
    s.step(in);
    EXPECT_FALSE(s.peek().epoch[c]);
  }
  rtu_drive(s, c, 0, s.m.params().epoch_requests, 0);
  EXPECT_TRUE(s.peek().epoch[c]);
  DhslIn in = s.idle();
  if (last) {
    in.l2_access[c] = true;
    in.l2_hit[c] = last->hit;
    in.l2_cid[c] = last->cid;
  }
  s.step(in);  // X: save
  EXPECT_EQ(s.ev.balanced_epochs, 0u);
  s.step();  // X+1: total_q
  EXPECT_EQ(s.ev.balanced_epochs, 0u);
  EXPECT_FALSE(s.peek().back[c]);
  s.step();  // X+2: check
  return s.ev;
}

std::vector<Acc> cids(std::initializer_list<uint32_t> l) {
  std::vector<Acc> v;
  for (uint32_t c : l) v.push_back({c, true});
  return v;
}

TEST(DhslL2, BalancedCheckByCid) {
  Sim s(mk(DhslPolicy::Mgvm, 4, 8, 2));
  // 2 : 2 -> 2 x 2 <= 4 x 1 balanced (share exactly Bn/Bd is balanced).
  EXPECT_EQ(l2_epoch(s, 1, cids({0, 0, 1, 1})).balanced_epochs, 1u);
  // 3 : 2 -> 3 x 2 = 6 > 5 x 1: imbalance.
  EXPECT_EQ(l2_epoch(s, 1, cids({0, 0, 0, 1, 1})).balanced_epochs, 0u);
  // Counted from 0 again (cleared): 1 : 1 : 1 : 1 balanced.
  EXPECT_EQ(l2_epoch(s, 1, cids({0, 1, 2, 3})).balanced_epochs, 1u);
  // No access at all is balanced.
  EXPECT_EQ(l2_epoch(s, 1, {}).balanced_epochs, 1u);
  // The access in the epoch_i cycle counts into the ending epoch:
  // 2 x cid 2 + 1 x cid 3 before, 1 x cid 3 in the pulse cycle -> 2 : 2.
  const Acc a3{3, true};
  EXPECT_EQ(l2_epoch(s, 1, cids({2, 2, 3}), &a3).balanced_epochs, 1u);
  // ... and is not carried into the next: 1 x cid 0 only -> 1 x 2 > 1.
  EXPECT_EQ(l2_epoch(s, 1, cids({0})).balanced_epochs, 0u);
  // N = 3 (CB = 2): cid 3 >= N counts nowhere: cnt 1, 1, total 2 -> balanced.
  Sim t(mk(DhslPolicy::Mgvm, 3, 8, 2));
  EXPECT_EQ(l2_epoch(t, 0, cids({0, 1, 3, 3, 3, 3})).balanced_epochs, 1u);
  EXPECT_EQ(l2_epoch(t, 0, cids({0, 0, 3, 3, 1})).balanced_epochs, 0u);  // 2 x 2 > 3
}

TEST(DhslL2, PipelinedCheckTiming) {
  // E = 2, slice 1. Accesses cid 0, cid 1 at edges 1, 2; RTU 1 ends its
  // epoch at edge 4 (epoch_o in cycle 5); slice 1 saves at edge X = 5
  // (1 : 1). Accesses cid 0 at edges 6 and 7 (X+1, X+2) go to the next
  // epoch, not into the check in flight: the check at edge 7 finds 1 : 1
  // balanced (with them, 3 x 2 > 4 would not be).
  Sim s(mk(DhslPolicy::Mgvm, 4, 8, 2));
  auto access = [&](uint32_t cid) {
    DhslIn in = s.idle();
    in.l2_access[1] = true;
    in.l2_hit[1] = true;
    in.l2_cid[1] = cid;
    s.step(in);
  };
  access(0);
  access(1);
  rtu_drive(s, 1, 0, 2, 0);
  EXPECT_EQ(s.edges, 4u);
  EXPECT_TRUE(s.peek().epoch[1]);  // cycle 5
  s.step();                        // edge 5 = X: save, the check starts
  EXPECT_EQ(s.ev.balanced_epochs, 0u);
  EXPECT_FALSE(s.peek().epoch[1]);
  access(0);  // edge 6 = X+1: total_q
  EXPECT_EQ(s.ev.balanced_epochs, 0u);
  access(0);  // edge 7 = X+2: check
  EXPECT_EQ(s.ev.balanced_epochs, 1u);
  EXPECT_EQ(s.ev.backs, 0u);        // the first of two
  EXPECT_FALSE(s.peek().back[1]);   // no back after a first balanced epoch
  // Next epoch: the two cid 0 above plus cid 1, 1 -> 2 : 2 balanced, the
  // second in a row: back at its check edge X'+2, back_o in cycle X'+3 only.
  const DhslEvents e = l2_epoch(s, 1, cids({1, 1}));
  EXPECT_EQ(e.balanced_epochs, 1u);
  EXPECT_EQ(e.backs, 1u);
  EXPECT_TRUE(s.peek().back[1]);
  s.step();
  EXPECT_FALSE(s.peek().back[1]);
  // Control: had the accesses of X+1, X+2 been lost, 0 : 2 is unbalanced.
  Sim t(mk(DhslPolicy::Mgvm, 4, 8, 2));
  EXPECT_EQ(l2_epoch(t, 1, cids({1, 1})).balanced_epochs, 0u);
}

TEST(DhslL2, BackAfterTwoBalancedEpochs) {
  Sim s(mk(DhslPolicy::Mgvm, 4, 8, 2));
  const auto bal = cids({0, 1, 2, 3});
  const auto unb = cids({2, 2, 2});
  DhslEvents e = l2_epoch(s, 3, bal);
  EXPECT_EQ(e.backs, 0u);
  EXPECT_FALSE(s.peek().back[3]);
  e = l2_epoch(s, 3, bal);  // second consecutive -> back
  EXPECT_EQ(e.backs, 1u);
  EXPECT_TRUE(s.peek().back[3]);
  s.step();
  EXPECT_FALSE(s.peek().back[3]);  // pulse
  EXPECT_EQ(l2_epoch(s, 3, bal).backs, 0u);  // the next back needs two more
  EXPECT_EQ(l2_epoch(s, 3, unb).backs, 0u);  // unbalanced resets the streak
  EXPECT_EQ(l2_epoch(s, 3, bal).backs, 0u);
  EXPECT_EQ(l2_epoch(s, 3, bal).backs, 1u);
  EXPECT_TRUE(s.peek().back[3]);
  // In dHSL-coarse the CP ignores back: no switch, mode stays 0.
  s.step();
  EXPECT_FALSE(s.ev.switch_to_coarse);
  EXPECT_FALSE(s.peek().mode);
  EXPECT_FALSE(s.peek().switch_pulse);
}

TEST(DhslL2, CounterSaturationW8) {
  // W = 8: counters hold at 255. 300 x cid 0 then 260 x cid 1, one epoch:
  // both saturate at 255 -> 255 x 2 <= 510 x 1 balanced (unsaturated,
  // 300 x 2 = 600 > 560 would be imbalance).
  Sim s(mk(DhslPolicy::Mgvm, 4, 8, 2));
  DhslIn in = s.idle();
  in.l2_access[0] = true;
  in.l2_hit[0] = true;
  for (unsigned k = 1; k <= 300; ++k) {
    s.step(in);
    // acc and cnt[0] reach 255 at the 255th access; the 256th is clipped.
    EXPECT_EQ(s.ev.counter_saturated, k >= 256) << k;
  }
  in.l2_cid[0] = 1;
  for (unsigned k = 1; k <= 260; ++k) {
    s.step(in);
    EXPECT_TRUE(s.ev.counter_saturated);  // acc stays clipped
  }
  EXPECT_EQ(l2_epoch(s, 0, {}).balanced_epochs, 1u);
  // Control without saturation: 200 : 160 -> 400 > 360, imbalance.
  std::vector<Acc> v;
  for (int k = 0; k < 200; ++k) v.push_back({0, true});
  for (int k = 0; k < 160; ++k) v.push_back({1, true});
  EXPECT_EQ(l2_epoch(s, 0, v).balanced_epochs, 0u);
  EXPECT_FALSE(s.ev.counter_saturated);
}

// ===========================================================================
// Command-processor decision unit
//
// Scenario S (N = 4, E = 2): from edge 1 on, every cycle rtu_in[0] = 1 and
// an L2 access at slice 0 with cid 0 (imbalanced, so no back from slice 0).
// RTU 0 ends epochs at edges 2, 4, 6, ... (all possible: in > 0 = 2 x out),
// triggers at edges 4, 8, 12, ... (trigger_o in cycles 5, 9, 13, ...);
// epoch_o of RTU 0 is 1 in cycles 3, 5, 7, ..., so L2 slice 0 saves at edges
// 3, 5, 7, ... (windows 1-3, 4-5, 6-7, 8-9, ...). The CP arms at edges 5, 9,
// 13, ... (T), gathers at 6, 10, 14 (T+1) and decides at 7, 11, 15 (T+2);
// the gather at 4k+2 sees slice 0's window saved at 4k+1, i.e. edges
// 4k .. 4k+1: the epoch that ended with the trigger's epoch pulse (windows
// 1-3, 6-7, 10-11, ... are never gathered). prev_in = [2, 0, 0, 0]:
// 2 x 5 > 2 x 4, imbalance.
struct CpScenario {
  Sim s;
  std::map<unsigned, bool> miss_at;  // edges whose slice-0 access misses
  bool rtu1_in = false;              // also rtu_in[1] every cycle (balanced incoming)
  bool rtu2_out = false;             // rtu_out[2] every cycle (slice 2 balanced: backs)
  explicit CpScenario(unsigned n = 4) : s(mk(DhslPolicy::Mgvm, n, 8, 2)) {}
  DhslOut edge() {  // one edge of the scenario, returns the cycle's outputs
    const unsigned k = s.edges + 1;
    DhslIn in = s.idle();
    in.rtu_in[0] = true;
    in.rtu_in[1] = rtu1_in;
    in.rtu_out[2] = rtu2_out;
    in.l2_access[0] = true;
    in.l2_hit[0] = !miss_at.count(k);
    in.l2_cid[0] = 0;
    return s.step(in);
  }
};

TEST(DhslCp, ArmGatherDecideTimingAndSwitch) {
  CpScenario sc;
  for (unsigned k = 1; k <= 12; ++k) {
    const DhslOut o = sc.edge();
    const DhslEvents& e = sc.s.ev;
    EXPECT_EQ(o.trigger[0], k == 5 || k == 9) << k;
    EXPECT_EQ(e.gather, k == 6 || k == 10) << k;  // one edge after the arm
    EXPECT_EQ(e.decide_imbalance_high, k == 7 || k == 11) << k;
    EXPECT_EQ(e.decide_reset, false) << k;
    EXPECT_EQ(e.decide_first, k == 7) << k;     // prevImbalance = 1
    EXPECT_EQ(e.switch_to_fine, k == 11) << k;  // second in a row
    EXPECT_EQ(o.mode, k >= 12) << k;
    EXPECT_EQ(o.switch_pulse, k == 12) << k;    // T+3: the cycle after mode changed
  }
  // Fine mode: further triggers (cycles 13, 17, 21) are ignored.
  for (unsigned k = 13; k <= 24; ++k) {
    const DhslOut o = sc.edge();
    EXPECT_EQ(o.trigger[0], k == 13 || k == 17 || k == 21) << k;
    EXPECT_FALSE(sc.s.ev.gather) << k;
    EXPECT_FALSE(sc.s.ev.decide_imbalance_high || sc.s.ev.decide_reset) << k;
    EXPECT_TRUE(o.mode);
    EXPECT_FALSE(o.switch_pulse);
  }
}

TEST(DhslCp, SavedHitsDecideAndResetPrevImbalance) {
  // Misses in windows never gathered (edges 1-3, 6-7 and 10: window 10-11
  // is saved at edge 11, after the gather at 10 read the state) change
  // nothing: switch at edge 11, as without misses.
  {
    CpScenario sc;
    sc.miss_at = {{1, true}, {2, true}, {3, true}, {6, true}, {7, true}, {10, true}};
    for (unsigned k = 1; k <= 11; ++k) sc.edge();
    EXPECT_TRUE(sc.s.ev.switch_to_fine);
  }
  // A miss at edge 8 (window 8-9: 1 hit of 2, 10 > 18 false) makes the
  // decision at edge 11 not high: prevImbalance reset. Then edges 15 (first)
  // and 19 (switch).
  {
    CpScenario sc;
    sc.miss_at = {{8, true}};
    for (unsigned k = 1; k <= 21; ++k) {
      const DhslOut o = sc.edge();
      const DhslEvents& e = sc.s.ev;
      EXPECT_EQ(e.gather, k == 6 || k == 10 || k == 14 || k == 18) << k;
      EXPECT_EQ(e.decide_first, k == 7 || k == 15) << k;
      EXPECT_EQ(e.decide_reset, k == 11) << k;
      EXPECT_EQ(e.switch_to_fine, k == 19) << k;
      EXPECT_EQ(o.mode, k >= 20) << k;
      EXPECT_EQ(o.switch_pulse, k == 20) << k;
    }
  }
  // The first gathered window is 4-5; its access in the epoch_o cycle (edge
  // 5) counts into it: a miss at edge 5 -> 1 of 2: the first decision (edge
  // 7) is not high; 11 first; 15 switch.
  {
    CpScenario sc;
    sc.miss_at = {{5, true}};
    for (unsigned k = 1; k <= 16; ++k) {
      sc.edge();
      EXPECT_EQ(sc.s.ev.decide_reset, k == 7) << k;
      EXPECT_EQ(sc.s.ev.decide_first, k == 11) << k;
      EXPECT_EQ(sc.s.ev.switch_to_fine, k == 15) << k;
    }
  }
}

TEST(DhslCp, GatherReadsTheEpochThatJustEnded) {
  // Scenario S with the hit rate alternating per L2 window: windows 4k .. 4k+1
  // (saved at the edge 4k+1 of the trigger's epoch pulse, read by the gather
  // at 4k+2) and windows 4k+2 .. 4k+3 (the epoch before the next one; 1-3 for
  // the first). A gather one edge early (at the arm, T) would read the
  // window saved at 4k-1, the epoch before: the outcomes would swap.
  // High right after low: every access of windows 1-3, 6-7, 10-11, ... misses,
  // the gathered ones all hit -> first at 7, switch at 11.
  {
    CpScenario sc;
    for (unsigned k = 1; k <= 40; ++k) {
      if (k % 4 == 2 || k % 4 == 3 || k == 1) sc.miss_at[k] = true;
    }
    for (unsigned k = 1; k <= 12; ++k) {
      const DhslOut o = sc.edge();
      EXPECT_EQ(sc.s.ev.decide_first, k == 7) << k;
      EXPECT_FALSE(sc.s.ev.decide_reset) << k;
      EXPECT_EQ(sc.s.ev.switch_to_fine, k == 11) << k;
      EXPECT_EQ(o.switch_pulse, k == 12) << k;
    }
  }
  // Low right after high: the gathered windows all miss, the others all
  // hit -> every decision resets, never a switch.
  {
    CpScenario sc;
    for (unsigned k = 1; k <= 40; ++k) {
      if (k % 4 == 0 || k % 4 == 1) sc.miss_at[k] = true;
    }
    sc.miss_at.erase(1);  // window 1-3 all hits
    unsigned decisions = 0;
    for (unsigned k = 1; k <= 40; ++k) {
      const DhslOut o = sc.edge();
      EXPECT_FALSE(sc.s.ev.decide_imbalance_high) << k;
      EXPECT_EQ(sc.s.ev.decide_reset, k % 4 == 3 && k >= 7) << k;
      decisions += sc.s.ev.decide_reset;
      EXPECT_FALSE(o.mode) << k;
    }
    EXPECT_EQ(decisions, 9u);  // edges 7, 11, ..., 39
  }
}

TEST(DhslCp, ImbalanceNeeded) {
  // rtu_in[0] and rtu_in[1] every cycle: both trigger at edge 4 (cycle 5),
  // prev_in = [2, 2, 0, 0]: 2 x 5 > 4 x 4 false -> no imbalance, every
  // decision resets; never a switch.
  CpScenario sc;
  sc.rtu1_in = true;
  unsigned gathers = 0, resets = 0;
  for (unsigned k = 1; k <= 60; ++k) {
    const DhslOut o = sc.edge();
    EXPECT_EQ(sc.s.ev.gather, k % 4 == 2 && k >= 6) << k;
    EXPECT_EQ(sc.s.ev.decide_reset, k % 4 == 3 && k >= 7) << k;
    gathers += sc.s.ev.gather;
    resets += sc.s.ev.decide_reset;
    EXPECT_FALSE(sc.s.ev.decide_imbalance_high);
    EXPECT_FALSE(o.mode);
  }
  EXPECT_EQ(gathers, 14u);  // edges 6, 10, ..., 58
  EXPECT_EQ(resets, 14u);   // edges 7, 11, ..., 59
}

TEST(DhslCp, ImbalanceBoundary) {
  // E = 5. RTU 0: 5 incoming per epoch (prev_in 5, triggers). RTU 1: j
  // incoming then 5 - j outgoing (never possible for j <= 1; j = 2: 2 > 6
  // false). j = 1: total 6, 5 x 5 = 25 > 6 x 4 = 24 imbalance -> switch.
  // j = 2: total 7, 25 > 28 false -> never.
  for (unsigned j : {1u, 2u}) {
    DhslParams p = mk(DhslPolicy::Mgvm, 4, 8, 5);
    Sim s(p);
    bool switched = false;
    unsigned imb_high = 0;
    for (unsigned k = 0; k < 60; ++k) {
      DhslIn in = s.idle();
      in.rtu_in[0] = true;
      in.rtu_in[1] = (k % 5) < j;
      in.rtu_out[1] = (k % 5) >= j;
      in.l2_access[0] = true;
      in.l2_hit[0] = true;
      s.step(in);
      EXPECT_FALSE(s.peek().trigger[1]);
      switched = switched || s.ev.switch_to_fine;
      imb_high += s.ev.decide_imbalance_high;
    }
    EXPECT_EQ(switched, j == 1) << j;
    EXPECT_EQ(imb_high > 0, j == 1) << j;
  }
}

TEST(DhslCp, TriggerIgnoredWhileArmedOrPending) {
  // E = 2: RTU 0 incoming from edge 1, RTU 1 from edge 2, RTU 2 from edge 3.
  // RTU 0 triggers in cycles 5, 9 (arm at 5, 9); RTU 1 in cycles 6, 10
  // (armed: ignored; the gathers are at 6, 10); RTU 2 in cycles 7, 11
  // (pending: ignored; the decisions are at 7, 11). No arm at 6, 7, 10, 11:
  // no gather at 7, 8, 11, 12.
  Sim s(mk(DhslPolicy::Mgvm, 4, 8, 2));
  for (unsigned k = 1; k <= 13; ++k) {
    DhslIn in = s.idle();
    in.rtu_in[0] = true;
    in.rtu_in[1] = k >= 2;
    in.rtu_in[2] = k >= 3;
    const DhslOut o = s.step(in);
    EXPECT_EQ(o.trigger[0], k == 5 || k == 9 || k == 13) << k;
    EXPECT_EQ(o.trigger[1], k == 6 || k == 10) << k;
    EXPECT_EQ(o.trigger[2], k == 7 || k == 11) << k;
    EXPECT_EQ(s.ev.gather, k == 6 || k == 10) << k;
    // prev_in = [2, 2, 2, 0]: 10 > 24 false, not imbalanced: decisions reset.
    EXPECT_EQ(s.ev.decide_reset, k == 7 || k == 11) << k;
  }
}

TEST(DhslCp, SwitchBackOnlyInFineMode) {
  // Scenario S plus rtu_out[2] every cycle: RTU 2 ends epochs at 2, 4, ...
  // (never possible); slice 2 has no access and saves at X = 3, 5, 7, ...;
  // its pipelined check at X+2 = 5, 7, 9, ... finds every epoch balanced ->
  // back at check edges 7, 11, 15, ... (back_o in cycles X+3 = 8, 12, 16).
  // In coarse mode (cycle 8) it is ignored. Switch to fine at edge 11 (mode 1
  // in cycle 12); back_o in cycle 12 -> switch back at edge 12: mode 0 and
  // switch_o = 1 in cycle 13. The switch back cleared prevImbalance: the
  // next trigger (cycle 13) arms, gathers at 14 and the decision at 15 is a
  // first one; back_o in cycle 16 (coarse) is ignored.
  CpScenario sc;
  sc.rtu2_out = true;
  for (unsigned k = 1; k <= 18; ++k) {
    const DhslOut o = sc.edge();
    const DhslEvents& e = sc.s.ev;
    EXPECT_EQ(o.back[2], k == 8 || k == 12 || k == 16) << k;
    EXPECT_EQ(e.backs, (k == 7 || k == 11 || k == 15) ? 1u : 0u) << k;
    EXPECT_EQ(e.switch_to_fine, k == 11) << k;
    EXPECT_EQ(e.switch_to_coarse, k == 12) << k;
    EXPECT_EQ(o.mode, k == 12) << k;
    EXPECT_EQ(o.switch_pulse, k == 12 || k == 13) << k;
    EXPECT_EQ(e.gather, k == 6 || k == 10 || k == 14 || k == 18) << k;
    EXPECT_EQ(e.decide_first, k == 7 || k == 15) << k;
  }
}

// ===========================================================================
// HSL registers

// Scenario S until the switch to fine (edge 10); returns with mode_o = 1.
void drive_to_fine(Sim& s) {
  for (unsigned k = 0; k < 200 && !s.peek().mode; ++k) {
    DhslIn in = s.idle();
    in.rtu_in[0] = true;
    in.l2_access[0] = true;
    in.l2_hit[0] = true;
    s.step(in);
  }
  ASSERT_TRUE(s.peek().mode);
}

TEST(DhslReg, LaunchAndSync) {
  // N = 4, vpn 1000003: coarse 9 -> 1953 mod 4 = 1; coarse 4 -> 62500 mod 4
  // = 0; fine -> 3.
  const uint64_t v = 1000003;
  Sim s(mk(DhslPolicy::Mgvm, 4, 8, 2));
  DhslOut o = s.peek(v);
  EXPECT_EQ(o.rtu_home[0], 1u);
  // A sync in coarse mode loads mode 0.
  DhslIn in = s.idle();
  in.rtu_sync = {true, true, true, true};
  s.step(in);
  EXPECT_EQ(s.ev.syncs, 4u);
  EXPECT_FALSE(s.peek(v).rtu_fine[0]);
  // Launch with shift 64 + 4: SH = 6 bits -> 4.
  in = s.idle();
  in.launch = true;
  in.launch_shift = 64 + 4;
  s.step(in);
  EXPECT_TRUE(s.ev.launch);
  o = s.peek(v);
  for (unsigned c = 0; c < 4; ++c) {
    EXPECT_EQ(o.rtu_home[c], 0u);
    EXPECT_EQ(o.l2_walk[c], c == 0);
  }
  drive_to_fine(s);
  o = s.peek(v);
  EXPECT_FALSE(o.rtu_fine[1]);  // registers switch only on sync
  in = s.idle();
  in.rtu_sync[1] = true;
  s.step(in);
  o = s.peek(v);
  EXPECT_TRUE(o.mode);
  for (unsigned c = 0; c < 4; ++c) {
    EXPECT_EQ(o.rtu_fine[c], c == 1);
    EXPECT_FALSE(o.l2_fine[c]);
    EXPECT_EQ(o.rtu_home[c], c == 1 ? 3u : 0u);
    EXPECT_EQ(o.rtu_local[c], c == (c == 1 ? 3u : 0u));
    EXPECT_EQ(o.l2_walk[c], c == 0);
  }
  in = s.idle();
  in.l2_sync[3] = true;
  s.step(in);
  o = s.peek(v);
  EXPECT_TRUE(o.l2_fine[3]);
  EXPECT_TRUE(o.l2_walk[3]);
  EXPECT_TRUE(o.l2_walk[0]);  // slice 0 still coarse (shift 4): home 0
  // Launch wins over sync in the same edge: coarse, shift 9.
  in = s.idle();
  in.launch = true;
  in.launch_shift = 9;
  in.rtu_sync = {true, true, true, true};
  s.step(in);
  EXPECT_EQ(s.ev.syncs, 0u);
  o = s.peek(v);
  for (unsigned c = 0; c < 4; ++c) {
    EXPECT_FALSE(o.rtu_fine[c]);
    EXPECT_FALSE(o.l2_fine[c]);
    EXPECT_EQ(o.rtu_home[c], 1u);
  }
  // Reset: asynchronous on the outputs, then the edge.
  in = s.idle();
  in.rst_n = false;
  o = s.m.outputs(in);
  EXPECT_FALSE(o.mode);
  s.step(in);
  EXPECT_FALSE(s.peek().mode);
}

TEST(DhslReg, MgvmCoarseHasNoSync) {
  const uint64_t v = 1000003;
  Sim s(mk(DhslPolicy::MgvmCoarse, 5));
  DhslIn in = s.idle();
  in.rtu_sync = {true, true, true, true, true};
  in.l2_sync = in.rtu_sync;
  in.rtu_in = {true, true, true, true, true};
  for (int k = 0; k < 30; ++k) {
    const DhslOut o = s.step(in);
    EXPECT_EQ(s.ev.syncs, 0u);
    EXPECT_EQ(s.ev.epochs_ended, 0u);
    for (unsigned c = 0; c < 5; ++c) EXPECT_FALSE(o.rtu_fine[c] || o.epoch[c] || o.trigger[c]);
  }
  EXPECT_EQ(s.peek(v).rtu_home[0], 3u);  // 1953 mod 5
  in = s.idle();
  in.launch = true;
  in.launch_shift = 4;
  s.step(in);
  EXPECT_EQ(s.peek(v).rtu_home[0], 0u);  // 62500 mod 5
  EXPECT_TRUE(s.peek(v).l2_walk[0]);
}

// ===========================================================================
// Routing during a switch (model level)
//
// Components per chiplet: an L1 TLB (its own HSL register, kept here), the
// RTU and the L2 slice (their HSL registers are the model's). A request is
// born at an L1 of chiplet s (an L1 miss) and every L2 lookup misses, so it
// travels until a slice walks:
//   L1 (chiplet s): home h by the L1's register; h == s -> L2 slice s, else
//       -> RTU s (every request that leaves the chiplet passes its RTU).
//   RTU x: rtu_local_o -> L2 slice x, else -> RTU rtu_home_o (model outputs).
//   L2 slice x: l2_walk_o -> walks (done), else -> RTU x.
// HOP = one transfer that starts at an RTU or an L2 slice (the L1's first
// transfer is not counted). With all registers agreeing: local home 0 hops
// (L1 -> L2 walks), remote home 2 hops (L1 -> RTU s -(1)-> RTU h -(2)-> L2 h).
// Every transfer takes 1..3 cycles; a component decides in the cycle the
// request arrives, with its register in that cycle.
//
// THE BOUND. No bound independent of timing exists: while RTU x and slice x
// disagree with home(RTU x) = x != home(slice x), a request bounces RTU x <->
// slice x, one hop per transfer, until one of them takes the new mode (and
// likewise RTU a <-> RTU b while home(RTU a) = b and home(RTU b) = a). So the
// bound is stated in terms of the propagation window: every register takes
// the new mode at the edge of a cycle in [S, S + D - 1] (S = the cycle with
// switch_o = 1), so all agree on the old mode up to cycle S and on the new
// from S + D; they can disagree only in the D - 1 cycles between. A request
// starts at most one hop per cycle, so:
//   hops <= 2 (started while all agree on the old mode: the consistent path)
//         + (D - 1) (started while they may disagree)
//         + 3 (started once all agree on the new mode: from slice x that does
//              not walk: -> RTU x -> RTU h -> slice h, which walks)
//         = D + 4.
// D = 1 (all switch at one edge): 5, and it is reached (2 hops to the old
// home slice, which has just switched, then 3). D = 16: at most 20 (13 seen).
// The PingPong test shows the window term is real (hops grow with the delay
// of one register).

struct Req {
  uint64_t vpn;
  unsigned src;
  bool at_rtu;   // else at an L2 slice
  unsigned where;
  uint64_t arrive;
  unsigned hops = 0;
  bool all_agreed = true;  // every decision (L1 included) made while all registers agreed
  bool agreed_fine = false;  // ... on this one mode (no switch within the request's life)
  uint32_t l1_home = 0;
};

struct RouteStats {
  std::map<unsigned, uint64_t> hist;  // hops -> requests
  std::map<unsigned, uint64_t> hist_agreed;
  unsigned max_hops = 0;
  uint64_t done = 0;
};

void run_routing(unsigned n, uint64_t seed, unsigned D, RouteStats& st) {
  std::mt19937_64 rng(seed);
  DhslParams p = mk(DhslPolicy::Mgvm, n, 16, 4);
  Sim s(p);
  const uint32_t shift = 2 + static_cast<uint32_t>(rng() % 8);  // 4 .. 512 pages per block
  std::vector<bool> l1_fine(n, false);
  // schedule: cycle -> registers to sync at that cycle's edge (kind 0 L1, 1 RTU, 2 L2)
  std::map<uint64_t, std::vector<std::pair<int, unsigned>>> sched;
  std::vector<Req> inflight;
  enum Phase { Launch, Coarse, ToFine, Fine, ToCoarse, Coarse2, Drain } ph = Launch;
  uint64_t cyc = 0, phase_end = 0;
  unsigned switches = 0;
  auto lat = [&] { return 1 + rng() % 3; };
  while (true) {
    ++cyc;
    DhslIn in = s.idle();
    // Monitor traffic that makes the CP switch (see scenario S) and back
    // (RTU 0 epochs with no L2 access: slice 0 balanced -> back).
    if (ph == Launch) {
      in.launch = true;
      in.launch_shift = shift;
      ph = Coarse;
      phase_end = cyc + 100;
    } else if (ph == ToFine) {
      in.rtu_in[0] = true;
      in.l2_access[0] = true;
      in.l2_hit[0] = true;
    } else if (ph == ToCoarse) {
      in.rtu_out[0] = true;
    }
    const DhslOut o = s.m.outputs(in);
    if (o.switch_pulse) {
      ++switches;
      // S = cyc: every register takes the new mode at an edge in [S, S+D-1].
      for (unsigned c = 0; c < n; ++c) {
        for (int kind = 0; kind < 3; ++kind) sched[cyc + rng() % D].push_back({kind, c});
      }
      ph = ph == ToFine ? Fine : Coarse2;
      phase_end = cyc + D + 200;
    }
    bool agree = true;
    for (unsigned c = 0; c < n; ++c) {
      agree = agree && o.rtu_fine[c] == o.rtu_fine[0] && o.l2_fine[c] == o.rtu_fine[0] &&
              l1_fine[c] == o.rtu_fine[0];
    }
    // Decisions of this cycle.
    auto decide = [&](Req& r) {
      DhslIn q = in;
      q.q_vpn[r.where] = r.vpn;
      const DhslOut d = s.m.outputs(q);
      const unsigned x = r.where;
      r.all_agreed = r.all_agreed && agree && o.rtu_fine[0] == r.agreed_fine;
      if (r.at_rtu) {
        const uint32_t h = dhsl_home(p, r.vpn, d.rtu_fine[x], shift, x);
        EXPECT_EQ(d.rtu_home[x], h);
        EXPECT_EQ(d.rtu_local[x], h == x);
        ++r.hops;
        if (d.rtu_local[x]) {
          r.at_rtu = false;
        } else {
          r.where = d.rtu_home[x];
        }
        r.arrive = cyc + lat();
        return false;
      }
      const bool walk = dhsl_home(p, r.vpn, d.l2_fine[x], shift, x) == x;
      EXPECT_EQ(d.l2_walk[x], walk);
      if (walk) return true;
      ++r.hops;
      r.at_rtu = true;
      r.arrive = cyc + lat();
      return false;
    };
    for (size_t i = 0; i < inflight.size();) {
      Req& r = inflight[i];
      bool done = false;
      if (r.arrive == cyc) done = decide(r);
      EXPECT_LE(r.hops, D + 4) << "n " << n << " seed " << seed;
      if (done || r.hops > D + 4) {
        st.hist[r.hops]++;
        st.max_hops = std::max(st.max_hops, r.hops);
        ++st.done;
        if (r.all_agreed) {
          st.hist_agreed[r.hops]++;
          EXPECT_LE(r.hops, 2u);
          EXPECT_EQ(r.hops, r.l1_home == r.src ? 0u : 2u);
        }
        inflight[i] = inflight.back();
        inflight.pop_back();
      } else {
        ++i;
      }
    }
    // New L1 misses (after the decisions: they first arrive in a later cycle).
    if (ph != Drain && ph != Launch) {
      for (unsigned c = 0; c < n; ++c) {
        if (rng() % 2) continue;
        Req r;
        r.vpn = rng() & 0xFFFFF;
        r.src = c;
        r.l1_home = dhsl_home(p, r.vpn, l1_fine[c], shift, c);
        r.at_rtu = r.l1_home != c;
        r.where = c;
        r.arrive = cyc + lat();
        r.all_agreed = agree;
        r.agreed_fine = o.rtu_fine[0];
        inflight.push_back(r);
      }
    }
    // Syncs of this cycle's edge.
    auto it = sched.find(cyc);
    if (it != sched.end()) {
      for (auto [kind, c] : it->second) {
        if (kind == 0) l1_fine[c] = o.mode;  // the L1 register, same rule
        if (kind == 1) in.rtu_sync[c] = true;
        if (kind == 2) in.l2_sync[c] = true;
      }
      sched.erase(it);
    }
    s.step(in);
    if ((ph == Coarse || ph == Fine || ph == Coarse2) && cyc >= phase_end) {
      ph = ph == Coarse ? ToFine : ph == Fine ? ToCoarse : Drain;
    }
    if (ph == Drain && inflight.empty()) break;
    ASSERT_LT(cyc, 5000u);
  }
  EXPECT_EQ(switches, 2u);
  EXPECT_FALSE(s.peek().mode);
}

TEST(DhslRouting, EveryRequestReachesAWalkingSlice) {
  // D = 1: every register switches at the same edge, no disagreement cycle:
  // the bound is 5 (2 old hops reaching the old home slice just after the
  // switch, then 3 new ones) and it is reached.
  for (unsigned D : {1u, 4u, 16u}) {
    RouteStats st;
    for (unsigned n : {3u, 4u, 5u, 6u, 8u}) {
      for (uint64_t seed = 1; seed <= 6; ++seed) run_routing(n, seed * 1000 + n + 100 * D, D, st);
    }
    std::printf("[routing] D = %u, bound D + 4 = %u hops, max seen %u, %llu requests\n", D, D + 4,
                st.max_hops, static_cast<unsigned long long>(st.done));
    std::printf("[routing] D = %u hops:requests (all)", D);
    for (auto [h, k] : st.hist) std::printf("  %u:%llu", h, static_cast<unsigned long long>(k));
    std::printf("\n[routing] D = %u hops:requests (all registers on one mode at every decision)", D);
    for (auto [h, k] : st.hist_agreed) std::printf("  %u:%llu", h, static_cast<unsigned long long>(k));
    std::printf("\n");
    EXPECT_LE(st.max_hops, D + 4);
    EXPECT_GT(st.hist.size(), 3u);  // the switch window did reroute requests
    EXPECT_TRUE(D != 1 || st.max_hops == 5u);
  }
}

// One RTU lags: slice x and every other register take the new mode at S, RTU
// x only K cycles later. A request with coarse home x and fine home != x at
// RTU x bounces RTU x <-> slice x (1-cycle transfers) until RTU x switches:
// the hop count grows with K, so no timing-free bound exists.
TEST(DhslRouting, PingPongLastsAsLongAsDisagreement) {
  const unsigned n = 4;
  DhslParams p = mk(DhslPolicy::Mgvm, n, 16, 2);
  for (unsigned K : {4u, 10u, 20u}) {
    Sim s(p);
    drive_to_fine(s);  // mode 1, every register still coarse (shift 9)
    // vpn with coarse home 1 and fine home 2: (v >> 9) mod 4 = 1, v mod 4 = 2.
    const uint64_t v = 512 * 5 + 2;
    ASSERT_EQ(dhsl_home(p, v, false, 9, 0), 1u);
    ASSERT_EQ(dhsl_home(p, v, true, 9, 0), 2u);
    DhslIn in = s.idle();
    for (unsigned c = 0; c < n; ++c) {
      in.l2_sync[c] = true;
      in.rtu_sync[c] = c != 1;
    }
    s.step(in);
    bool at_rtu = true;
    unsigned where = 1, hops = 0;
    for (unsigned t = 1; t < 200; ++t) {
      in = s.idle();
      in.rtu_sync[1] = t == K;
      in.q_vpn[where] = v;
      const DhslOut o = s.m.outputs(in);
      if (at_rtu) {
        ++hops;
        if (o.rtu_local[where]) at_rtu = false; else where = o.rtu_home[where];
      } else if (o.l2_walk[where]) {
        break;
      } else {
        ++hops;
        at_rtu = true;
      }
      s.step(in);
    }
    std::printf("[pingpong] RTU 1 lags %u cycles: %u hops\n", K, hops);
    EXPECT_GE(hops, K);
    EXPECT_EQ(where, 2u);
  }
}

// ===========================================================================
// Constrained-random run of the sys model

TEST(DhslRandom, Invariants) {
  for (uint64_t seed : {11u, 22u, 33u, 44u, 55u, 66u}) {
    std::mt19937_64 rng(seed);
    const unsigned n = 2 + rng() % 7;
    DhslParams p = mk(DhslPolicy::Mgvm, n, 8, 1 + rng() % 12);
    auto frac = [&](unsigned& num, unsigned& den) {
      den = 2 + rng() % 15;
      num = 1 + rng() % (den - 1);
    };
    frac(p.imbalance_num, p.imbalance_den);
    frac(p.hit_num, p.hit_den);
    frac(p.balanced_num, p.balanced_den);
    Sim s(p);
    auto bern = [&](double q) { return std::uniform_real_distribution<double>(0, 1)(rng) < q; };
    DhslOut prev = s.peek();
    bool prev_valid = true;
    // epoch_o of the last three cycles (hist[0] = the previous one; cleared
    // by a reset).
    std::vector<std::vector<bool>> hist(3, std::vector<bool>(n, false));
    bool armable_before = false;  // previous cycle: some trigger_o, mode 0
    uint32_t shift = p.coarse_shift;
    int streak = 0;  // Listing 2's prevImbalance as seen from the events
    bool gathered = false;
    unsigned epochs = 0, triggers = 0, gathers = 0, to_fine = 0, to_coarse = 0, backs = 0, sats = 0,
             firsts = 0;
    int phase = 0;
    unsigned hot = 0, phase_left = 0;
    for (unsigned cyc = 0; cyc < 40000; ++cyc) {
      if (phase_left == 0) {
        phase = static_cast<int>(rng() % 4);
        hot = static_cast<unsigned>(rng() % n);
        phase_left = 50 + rng() % 400;
      }
      --phase_left;
      DhslIn in = s.idle();
      in.rst_n = !bern(0.0003);
      in.launch = bern(0.001);
      in.launch_shift = static_cast<uint32_t>(rng() % 64);
      for (unsigned c = 0; c < n; ++c) {
        in.rtu_sync[c] = bern(0.05);
        in.l2_sync[c] = bern(0.05);
        in.q_vpn[c] = rng() & 0xFFFFF;
        switch (phase) {
          case 0:  // imbalance with high hit rate: chiplet `hot` gets the incoming traffic
            in.rtu_in[c] = c == hot ? bern(0.9) : bern(0.05);
            in.rtu_out[c] = c == hot ? false : bern(0.3);
            in.l2_access[c] = bern(0.8);
            in.l2_hit[c] = bern(0.99);
            in.l2_cid[c] = bern(0.9) ? hot : static_cast<uint32_t>(rng() % 8);
            break;
          case 1:  // balanced
            in.rtu_in[c] = bern(0.3);
            in.rtu_out[c] = bern(0.3);
            in.l2_access[c] = bern(0.5);
            in.l2_hit[c] = bern(0.5);
            in.l2_cid[c] = static_cast<uint32_t>(rng() % n);
            break;
          case 2:  // quiet RTUs, busy slices (saturation)
            in.l2_access[c] = bern(0.95);
            in.l2_hit[c] = bern(0.9);
            in.l2_cid[c] = static_cast<uint32_t>(rng() % 8);
            break;
          default:  // anything
            in.rtu_in[c] = bern(0.5);
            in.rtu_out[c] = bern(0.5);
            in.l2_access[c] = bern(0.5);
            in.l2_hit[c] = bern(0.5);
            in.l2_cid[c] = static_cast<uint32_t>(rng() % 8);
        }
      }
      const DhslOut o = s.m.outputs(in);
      if (!in.rst_n) {
        EXPECT_FALSE(o.mode || o.switch_pulse);
      } else {
        // Mode changes only with a switch pulse (and every pulse is a change).
        if (prev_valid) {
          EXPECT_EQ(o.mode != prev.mode, o.switch_pulse) << "seed " << seed << " cyc " << cyc;
        }
        for (unsigned c = 0; c < n; ++c) {
          EXPECT_TRUE(!o.trigger[c] || o.epoch[c]);                 // set at an epoch end
          // back_o at X+3 of the epoch_i cycle X (saved at X, checked at X+2).
          EXPECT_TRUE(!o.back[c] || hist[2][c]) << "seed " << seed << " cyc " << cyc;
          EXPECT_EQ(o.rtu_home[c], dhsl_home(p, in.q_vpn[c], o.rtu_fine[c], shift, c));
          EXPECT_EQ(o.l2_walk[c], dhsl_home(p, in.q_vpn[c], o.l2_fine[c], shift, c) == c);
        }
      }
      const DhslOut before = o;
      ASSERT_NO_THROW(s.m.posedge(in)) << "seed " << seed;  // counters <= 2^W - 1 (model self-check)
      const DhslEvents& e = s.m.events();
      if (!in.rst_n) {
        streak = 0;
        gathered = false;
        shift = p.coarse_shift;
        prev_valid = false;
        for (auto& h : hist) h.assign(n, false);
        armable_before = false;
        continue;
      }
      if (in.launch) shift = in.launch_shift & 63;
      // Every decision follows a gather by exactly one edge.
      const bool decided = e.decide_imbalance_high || e.decide_reset;
      EXPECT_EQ(decided, gathered) << "seed " << seed << " cyc " << cyc;
      gathered = e.gather;
      EXPECT_TRUE(!e.gather || !before.mode);
      // A gather is one edge after an arm: the cycle before had a trigger in
      // coarse mode.
      EXPECT_TRUE(!e.gather || armable_before) << "seed " << seed << " cyc " << cyc;
      armable_before = !before.mode && std::find(before.trigger.begin(), before.trigger.end(), true) !=
                                           before.trigger.end();
      if (decided) {
        if (e.decide_imbalance_high) {
          // Switch to fine only on the second imbalance-and-high decision in a row.
          EXPECT_EQ(e.switch_to_fine, streak == 1) << "seed " << seed << " cyc " << cyc;
          EXPECT_EQ(e.decide_first, streak == 0);
          streak = streak == 1 ? 0 : 1;
        } else {
          EXPECT_FALSE(e.switch_to_fine);
          streak = 0;
        }
      } else {
        EXPECT_FALSE(e.switch_to_fine);
      }
      if (e.switch_to_coarse) {
        EXPECT_TRUE(before.mode);
        streak = 0;
      }
      const DhslOut after = s.peek();
      EXPECT_EQ(after.mode, before.mode ? !e.switch_to_coarse : e.switch_to_fine);
      for (unsigned c = 0; c < n; ++c) {
        // Registers change only by launch (to coarse) or sync (to the CP's mode).
        if (in.launch) {
          EXPECT_FALSE(after.rtu_fine[c] || after.l2_fine[c]);
        } else {
          EXPECT_EQ(after.rtu_fine[c], in.rtu_sync[c] ? before.mode : before.rtu_fine[c]);
          EXPECT_EQ(after.l2_fine[c], in.l2_sync[c] ? before.mode : before.l2_fine[c]);
        }
        hist[2][c] = hist[1][c];
        hist[1][c] = hist[0][c];
        hist[0][c] = before.epoch[c];
      }
      prev = before;
      prev_valid = true;
      // `prev` must be the outputs of the cycle before the next one: the next
      // cycle's mode is compared with this cycle's.
      epochs += e.epochs_ended;
      triggers += e.triggers;
      gathers += e.gather;
      firsts += e.decide_first;
      to_fine += e.switch_to_fine;
      to_coarse += e.switch_to_coarse;
      backs += e.backs;
      sats += e.counter_saturated;
    }
    std::printf("[random] seed %llu N %u E %u I %u/%u H %u/%u B %u/%u: epochs %u triggers %u gathers %u "
                "first %u to_fine %u backs %u to_coarse %u saturated %u\n",
                static_cast<unsigned long long>(seed), n, p.epoch_requests, p.imbalance_num,
                p.imbalance_den, p.hit_num, p.hit_den, p.balanced_num, p.balanced_den, epochs, triggers,
                gathers, firsts, to_fine, backs, to_coarse, sats);
    EXPECT_GT(epochs, 0u);
    EXPECT_GT(sats, 0u);
  }
}

}  // namespace
}  // namespace txgen::model
