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
#include <functional>
#include <map>
#include <random>
#include <stdexcept>
#include <string>
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
// the document: 4/5, 9/10, 1/2. J = ceil(W / 4) and "max(8, 2 (J + 3)) <= E":
// W = 8 -> J = 2, E >= 10; W = 16 -> J = 4, E >= 14; W = 32 -> J = 8, E >= 22.
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
  p.check_digit_bits = 4;
  p.check_steps = (w + 3) / 4;  // J = ceil(W / 4)
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
// Parameters

// "max(8, 2 (J + 3)) <= E <= 2^W - 1", J = ceil(W / 4): W = 8 -> 10, W = 9
// -> J = 3, 12, W = 16 -> 14, W = 32 -> 22.
TEST(DhslParams, EpochAtLeastTwiceJPlus3) {
  const unsigned rows[][2] = {{8, 10}, {9, 12}, {16, 14}, {32, 22}};
  for (const auto& r : rows) {
    EXPECT_NO_THROW(DhslModel(mk(DhslPolicy::Mgvm, 4, r[0], r[1]))) << "W " << r[0];
    EXPECT_THROW(DhslModel(mk(DhslPolicy::Mgvm, 4, r[0], r[1] - 1)), std::invalid_argument) << "W " << r[0];
  }
  try {
    DhslModel m(mk(DhslPolicy::Mgvm, 4, 32, 21));
    ADD_FAILURE() << "E = 21 accepted for W = 32";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("2 (J + 3)"), std::string::npos) << e.what();
  }
  // J must be the derived ceil(W / 4).
  DhslParams p = mk(DhslPolicy::Mgvm, 4, 8, 10);
  p.check_steps = 3;
  EXPECT_THROW(DhslModel{p}, std::invalid_argument);
  // Policies without monitors have no epoch: E is not checked.
  EXPECT_NO_THROW(DhslModel(mk(DhslPolicy::MgvmCoarse, 4, 8, 2)));
  EXPECT_NO_THROW(DhslModel(mk(DhslPolicy::Private, 4, 8, 2)));
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
  // Odd E = 11 reached by two from 9: in 3, then 3 x (in + out): epoch 5,
  // 7, 9; then 9 + 2 >= 11: in 7, out 4, 7 > 8 false -> not possible.
  Sim t(mk(DhslPolicy::Mgvm, 3, 8, 11));
  rtu_drive(t, 2, 3, 0, 3);
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
  // E = 10. P = 10 incoming (possible), Q = 10 outgoing (not possible).
  Sim s(mk(DhslPolicy::Mgvm, 4, 8, 10));
  auto P = [&] { rtu_drive(s, 2, 10, 0, 0); };
  auto Q = [&] { rtu_drive(s, 2, 0, 10, 0); };
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
  Sim t(mk(DhslPolicy::Mgvm, 4, 8, 10));
  const char* seq = "PPPQPPPPP";  // triggers at #2, #6, #8
  for (const char* q = seq; *q; ++q) {
    if (*q == 'P') rtu_drive(t, 0, 10, 0, 0); else rtu_drive(t, 0, 0, 10, 0);
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

// J = ceil(W / 4) by hand for the widths used here.
unsigned j_of(const DhslParams& p) {
  switch (p.counter_bits) {
    case 8: return 2;
    case 9: return 3;
    case 12: return 3;
    case 16: return 4;
    case 32: return 8;
    default: ADD_FAILURE() << "no hand value of J for W = " << p.counter_bits; return 0;
  }
}

// Chiplet c: the accesses one per cycle (no RTU traffic), then E outgoing RTU
// requests (no access) ending the RTU epoch, then the cycle X with epoch_o = 1
// (with access `last` if given), whose edge saves the L2 counters, then the
// J + 2 idle cycles of the digit-serial check: "At the edge X + J + 2 (the
// decision edge) it uses the values saved at X". Returns the decision edge's
// events (back_o is visible in the cycle after, X + J + 3).
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
  const unsigned j = j_of(s.m.params());
  for (unsigned k = 1; k <= j + 1; ++k) {  // X+1 .. X+J+1: no decision yet
    s.step();
    EXPECT_EQ(s.ev.balanced_epochs, 0u) << "X+" << k;
    EXPECT_EQ(s.ev.backs, 0u) << "X+" << k;
    EXPECT_FALSE(s.peek().back[c]) << "X+" << k;
  }
  s.step();  // X+J+2: decision
  return s.ev;
}

std::vector<Acc> cids(std::initializer_list<uint32_t> l) {
  std::vector<Acc> v;
  for (uint32_t c : l) v.push_back({c, true});
  return v;
}

TEST(DhslL2, BalancedCheckByCid) {
  Sim s(mk(DhslPolicy::Mgvm, 4, 8, 10));
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
  Sim t(mk(DhslPolicy::Mgvm, 3, 8, 10));
  EXPECT_EQ(l2_epoch(t, 0, cids({0, 1, 3, 3, 3, 3})).balanced_epochs, 1u);
  EXPECT_EQ(l2_epoch(t, 0, cids({0, 0, 3, 3, 1})).balanced_epochs, 0u);  // 2 x 2 > 3
}

TEST(DhslL2, CheckUsesTheValuesSavedAtX) {
  // W = 8 (J = 2), E = 10, slice 1. Accesses cid 0, cid 1 at edges 1, 2;
  // RTU 1 gets 10 outgoing at edges 3 .. 12 and ends its epoch at edge 12
  // (epoch_o in cycle 13); slice 1 saves at edge X = 13 (1 : 1). Accesses
  // cid 0 at edges 14 .. 17 (X+1 .. X+J+2) go to the next epoch, not into
  // the check in flight: the decision at edge X + J + 2 = 17 finds 1 : 1
  // balanced (with them, 5 x 2 > 6 would not be).
  Sim s(mk(DhslPolicy::Mgvm, 4, 8, 10));
  auto access = [&](uint32_t cid) {
    DhslIn in = s.idle();
    in.l2_access[1] = true;
    in.l2_hit[1] = true;
    in.l2_cid[1] = cid;
    s.step(in);
  };
  access(0);
  access(1);
  rtu_drive(s, 1, 0, 10, 0);
  EXPECT_EQ(s.edges, 12u);
  EXPECT_TRUE(s.peek().epoch[1]);  // cycle 13
  s.step();                        // edge 13 = X: save, the check starts
  EXPECT_EQ(s.ev.balanced_epochs, 0u);
  EXPECT_FALSE(s.peek().epoch[1]);
  for (unsigned k = 14; k <= 16; ++k) {
    access(0);  // edges 14 .. 16 = X+1 .. X+J+1: no decision
    EXPECT_EQ(s.ev.balanced_epochs, 0u) << k;
  }
  access(0);  // edge 17 = X+J+2: decision
  EXPECT_EQ(s.edges, 17u);
  EXPECT_EQ(s.ev.balanced_epochs, 1u);
  EXPECT_EQ(s.ev.backs, 0u);        // the first of two
  EXPECT_FALSE(s.peek().back[1]);   // no back after a first balanced epoch
  // Next epoch: the four cid 0 above plus four cid 1 -> 4 : 4 balanced, the
  // second in a row: back at its decision edge X'+J+2, back_o in cycle
  // X'+J+3 only.
  const DhslEvents e = l2_epoch(s, 1, cids({1, 1, 1, 1}));
  EXPECT_EQ(e.balanced_epochs, 1u);
  EXPECT_EQ(e.backs, 1u);
  EXPECT_TRUE(s.peek().back[1]);
  s.step();
  EXPECT_FALSE(s.peek().back[1]);
  // Control: had the accesses of X+1 .. X+J+2 been lost, 0 : 4 is unbalanced.
  Sim t(mk(DhslPolicy::Mgvm, 4, 8, 10));
  EXPECT_EQ(l2_epoch(t, 1, cids({1, 1, 1, 1})).balanced_epochs, 0u);
}

// The new latency, cycle by cycle. "At the edge X + J + 2 (the decision edge)
// ... The back register is 1 only for the cycle after that edge (X + J + 3)."
// Slice 0 has no access (every epoch balanced: "no access at all is
// balanced"), so every second decision (the 2nd, 4th, ...) sets back.
// RTU 0 gets the traffic below; with in = out it is never possible (no
// trigger, and the CP ignores back in coarse mode anyway).
//   both:  in + out every cycle from edge 1: 2 requests per edge, the epoch
//          ends at edges E/2, E, 3E/2, ...; with E = 2 (J + 3), the minimum,
//          every J + 3 edges: epoch_o in cycles k (J + 3) + 1 = X_k, and
//          decision k at edge X_k + J + 2 = (k + 1)(J + 3), the edge before
//          X_{k+1} (the tightest case the configuration allows).
//   alt:   in, out alternating from edge 1 (in first): 1 request per edge,
//          epoch ends at edges E, 2E, ... (in = out = E/2): X_k = kE + 1.
//   W = 8,  J = 2, E = 10, both: X = 6, 11, 16, 21; decisions 10, 15, 20, 25;
//           backs at 15, 25 -> back_o in cycles 16, 26.
//   W = 32, J = 8, E = 22, both: X = 12, 23, 34, 45; decisions 22, 33, 44, 55;
//           backs at 33, 55 -> back_o in cycles 34, 56.
//   W = 8,  J = 2, E = 30, alt: X = 31, 61; decisions 35, 65; back_o 66.
//   W = 32, J = 8, E = 40, alt: X = 41, 81; decisions 51, 91; back_o 92.
TEST(DhslL2, BackPulseExactlyAtXPlusJPlus3) {
  struct Row {
    unsigned w, e;
    bool both;
    unsigned last;                  // last cycle run
    std::vector<unsigned> epoch_o;  // cycles X
    std::vector<unsigned> decide;   // decision edges (balanced events)
    std::vector<unsigned> back_o;   // cycles
  };
  const Row rows[] = {
      {8, 10, true, 27, {6, 11, 16, 21, 26}, {10, 15, 20, 25}, {16, 26}},
      {32, 22, true, 57, {12, 23, 34, 45, 56}, {22, 33, 44, 55}, {34, 56}},
      {8, 30, false, 70, {31, 61}, {35, 65}, {66}},
      {32, 40, false, 95, {41, 81}, {51, 91}, {92}},
  };
  auto has = [](const std::vector<unsigned>& v, unsigned k) {
    return std::find(v.begin(), v.end(), k) != v.end();
  };
  for (const Row& r : rows) {
    Sim s(mk(DhslPolicy::Mgvm, 4, r.w, r.e));
    for (unsigned k = 1; k <= r.last; ++k) {  // outputs of cycle k, then edge k
      DhslIn in = s.idle();
      in.rtu_in[0] = r.both || k % 2 == 1;
      in.rtu_out[0] = r.both || k % 2 == 0;
      const DhslOut o = s.step(in);
      EXPECT_EQ(o.epoch[0], has(r.epoch_o, k)) << "W " << r.w << " E " << r.e << " cycle " << k;
      EXPECT_EQ(s.ev.balanced_epochs, has(r.decide, k) ? 1u : 0u) << "W " << r.w << " edge " << k;
      EXPECT_EQ(o.back[0], has(r.back_o, k)) << "W " << r.w << " E " << r.e << " cycle " << k;
      EXPECT_FALSE(o.trigger[0] || o.mode || o.switch_pulse);
    }
  }
}

TEST(DhslL2, BackAfterTwoBalancedEpochs) {
  Sim s(mk(DhslPolicy::Mgvm, 4, 8, 10));
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
  Sim s(mk(DhslPolicy::Mgvm, 4, 8, 10));
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
// Scenario S (N = 4, W = 8 so J = 2, E = 10): from edge 1 on, every cycle
// rtu_in[0] = 1 and an L2 access at slice 0 with cid 0 (imbalanced, so no
// back from slice 0). RTU 0 ends epochs at edges 10, 20, 30, ... (all
// possible: in = 10 > 0 = 2 x out) and triggers at every second one, edges
// 20, 40, 60, ... (trigger_o in cycles 21, 41, 61, ...); epoch_o of RTU 0 is
// 1 in cycles 11, 21, 31, ..., so L2 slice 0 saves at edges 11, 21, 31, ...
// (windows 1-11, 12-21, 22-31, 32-41, ...). The CP:
//   Arm    at the edge of the trigger cycle T = 21, 41, 61, ...;
//   Gather at T + 1 = 22, 42, 62, ...: it reads slice 0's window saved at T
//          (12-21, 32-41, 52-61: the epoch that ended with the trigger's
//          epoch pulse; windows 1-11, 22-31, 42-51, ... are never gathered)
//          and prev_in = [10, 0, 0, 0]: 10 x 5 > 10 x 4, imbalance;
//   pending in cycles T + 2 .. T + J + 3 = 23 .. 26 ("from the gather edge
//          up to and including this edge's cycle");
//   Decide at T + J + 3 = 26, 46, 66, ...; a switch is visible (switch_o,
//          mode_o) in the cycle after, T + J + 4 = 27, 47, ...
struct CpScenario {
  Sim s;
  std::map<unsigned, bool> miss_at;  // edges whose slice-0 access misses
  bool rtu1_in = false;              // also rtu_in[1] every cycle (balanced incoming)
  unsigned rtu2_out_from = 0;        // rtu_out[2] from this edge on (0: never)
  std::function<void(unsigned, DhslIn&)> extra;  // more inputs of edge k
  explicit CpScenario(unsigned n = 4, unsigned w = 8, unsigned e = 10) : s(mk(DhslPolicy::Mgvm, n, w, e)) {}
  DhslOut edge() {  // one edge of the scenario, returns the cycle's outputs
    const unsigned k = s.edges + 1;
    DhslIn in = s.idle();
    in.rtu_in[0] = true;
    in.rtu_in[1] = rtu1_in;
    in.rtu_out[2] = rtu2_out_from != 0 && k >= rtu2_out_from;
    in.l2_access[0] = true;
    in.l2_hit[0] = !miss_at.count(k);
    in.l2_cid[0] = 0;
    if (extra) extra(k, in);
    return s.step(in);
  }
};

bool in_set(std::initializer_list<unsigned> l, unsigned k) { return std::find(l.begin(), l.end(), k) != l.end(); }

TEST(DhslCp, ArmGatherDecideTimingAndSwitch) {
  CpScenario sc;
  for (unsigned k = 1; k <= 48; ++k) {
    const DhslOut o = sc.edge();
    const DhslEvents& e = sc.s.ev;
    EXPECT_EQ(o.trigger[0], k == 21 || k == 41) << k;
    EXPECT_EQ(e.gather, k == 22 || k == 42) << k;  // one edge after the arm
    EXPECT_EQ(e.decide_imbalance_high, k == 26 || k == 46) << k;
    EXPECT_EQ(e.decide_reset, false) << k;
    EXPECT_EQ(e.decide_first, k == 26) << k;     // prevImbalance = 1
    EXPECT_EQ(e.switch_to_fine, k == 46) << k;  // second in a row
    EXPECT_EQ(o.mode, k >= 47) << k;
    EXPECT_EQ(o.switch_pulse, k == 47) << k;    // T + J + 4: the cycle after mode changed
  }
  // Fine mode: further triggers (cycles 61, 81, 101) are ignored.
  for (unsigned k = 49; k <= 110; ++k) {
    const DhslOut o = sc.edge();
    EXPECT_EQ(o.trigger[0], k % 20 == 1) << k;
    EXPECT_FALSE(sc.s.ev.gather) << k;
    EXPECT_FALSE(sc.s.ev.decide_imbalance_high || sc.s.ev.decide_reset) << k;
    EXPECT_TRUE(o.mode);
    EXPECT_FALSE(o.switch_pulse);
  }
}

// The new latency for three widths, scenario S with E = 2 (J + 3).
// Derivation: RTU 0 takes one incoming request per edge, so its epochs end
// at edges E, 2E, 3E, 4E and it triggers at 2E and 4E (the second of each
// pair of possible epochs): trigger_o in cycles T1 = 2E + 1, T2 = 4E + 1.
// "Arm (edge of a cycle T ...)", "Gather (edge of T+1 ...)", "Decide (edge
// of T + J + 3 ...)": gathers at T + 1, decisions at T + J + 3, i.e. J + 3
// edges after the arm edge T; the second decision switches, so switch_o and
// mode_o are 1 from cycle T2 + J + 4 ("1 in the cycle after mode_q changed").
//   W = 8,  J = 2, E = 10: T = 21, 41; gathers 22, 42; decisions 26, 46; switch_o in cycle 47.
//   W = 16, J = 4, E = 14: T = 29, 57; gathers 30, 58; decisions 36, 64; switch_o in cycle 65.
//   W = 32, J = 8, E = 22: T = 45, 89; gathers 46, 90; decisions 56, 100; switch_o in cycle 101.
TEST(DhslCp, SwitchPulseExactlyJPlus3EdgesAfterTheArmEdge) {
  struct Row {
    unsigned w, e, t1, t2, g1, g2, d1, d2, sw;
  };
  const Row rows[] = {
      {8, 10, 21, 41, 22, 42, 26, 46, 47},
      {16, 14, 29, 57, 30, 58, 36, 64, 65},
      {32, 22, 45, 89, 46, 90, 56, 100, 101},
  };
  for (const Row& r : rows) {
    CpScenario sc(4, r.w, r.e);
    for (unsigned k = 1; k <= r.sw + 2; ++k) {
      const DhslOut o = sc.edge();
      const DhslEvents& e = sc.s.ev;
      EXPECT_EQ(o.trigger[0], k == r.t1 || k == r.t2) << "W " << r.w << " cycle " << k;
      EXPECT_EQ(e.gather, k == r.g1 || k == r.g2) << "W " << r.w << " edge " << k;
      EXPECT_EQ(e.decide_first, k == r.d1) << "W " << r.w << " edge " << k;
      EXPECT_EQ(e.switch_to_fine, k == r.d2) << "W " << r.w << " edge " << k;
      EXPECT_FALSE(e.decide_reset) << "W " << r.w << " edge " << k;
      EXPECT_EQ(o.switch_pulse, k == r.sw) << "W " << r.w << " cycle " << k;
      EXPECT_EQ(o.mode, k >= r.sw) << "W " << r.w << " cycle " << k;
    }
  }
}

TEST(DhslCp, SavedHitsDecideAndResetPrevImbalance) {
  // Misses in windows never gathered (1-11, 22-31 and 42-51: the window
  // 42-51 is saved at edge 51, after the decision at 46) change nothing:
  // switch at edge 46, as without misses.
  {
    CpScenario sc;
    for (unsigned k : {1u, 5u, 11u, 22u, 25u, 31u, 42u, 44u}) sc.miss_at[k] = true;
    for (unsigned k = 1; k <= 46; ++k) {
      sc.edge();
      EXPECT_EQ(sc.s.ev.switch_to_fine, k == 46) << k;
    }
  }
  // A miss at edge 32 (window 32-41: 9 hits of 10, 9 x 10 > 10 x 9 false:
  // the threshold itself is not high) makes the decision at edge 46 not
  // high: prevImbalance reset. Then 66 (first) and 86 (switch).
  {
    CpScenario sc;
    sc.miss_at = {{32, true}};
    for (unsigned k = 1; k <= 88; ++k) {
      const DhslOut o = sc.edge();
      const DhslEvents& e = sc.s.ev;
      EXPECT_EQ(e.gather, in_set({22, 42, 62, 82}, k)) << k;
      EXPECT_EQ(e.decide_first, k == 26 || k == 66) << k;
      EXPECT_EQ(e.decide_reset, k == 46) << k;
      EXPECT_EQ(e.switch_to_fine, k == 86) << k;
      EXPECT_EQ(o.mode, k >= 87) << k;
      EXPECT_EQ(o.switch_pulse, k == 87) << k;
    }
  }
  // The first gathered window is 12-21; its access in the epoch_o cycle
  // (edge 21) counts into it: a miss at edge 21 -> 9 of 10: the first
  // decision (edge 26) is not high; 46 first; 66 switch.
  {
    CpScenario sc;
    sc.miss_at = {{21, true}};
    for (unsigned k = 1; k <= 67; ++k) {
      sc.edge();
      EXPECT_EQ(sc.s.ev.decide_reset, k == 26) << k;
      EXPECT_EQ(sc.s.ev.decide_first, k == 46) << k;
      EXPECT_EQ(sc.s.ev.switch_to_fine, k == 66) << k;
    }
  }
}

TEST(DhslCp, GatherReadsTheEpochThatJustEnded) {
  // Scenario S with the hit rate alternating per L2 window: the gathered
  // windows 12-21, 32-41, ... (edges 20m - 8 .. 20m + 1, saved at the edge
  // 20m + 1 of the trigger's epoch pulse, read by the gather at 20m + 2) and
  // the others 1-11, 22-31, 42-51, ... A gather one edge early (at the arm,
  // T) would read the window saved at T - 10, the epoch before: the outcomes
  // would swap.
  // High right after low: every access of windows 1-11, 22-31, ... misses,
  // the gathered ones all hit -> first at 26, switch at 46.
  {
    CpScenario sc;
    for (unsigned k = 1; k <= 60; ++k) {
      if (k <= 11 || (k % 20 >= 2 && k % 20 <= 11)) sc.miss_at[k] = true;
    }
    for (unsigned k = 1; k <= 48; ++k) {
      const DhslOut o = sc.edge();
      EXPECT_EQ(sc.s.ev.decide_first, k == 26) << k;
      EXPECT_FALSE(sc.s.ev.decide_reset) << k;
      EXPECT_EQ(sc.s.ev.switch_to_fine, k == 46) << k;
      EXPECT_EQ(o.switch_pulse, k == 47) << k;
    }
  }
  // Low right after high: the gathered windows all miss, the others all
  // hit -> every decision resets, never a switch.
  {
    CpScenario sc;
    for (unsigned k = 12; k <= 200; ++k) {
      if (k % 20 >= 12 || k % 20 <= 1) sc.miss_at[k] = true;
    }
    unsigned decisions = 0;
    for (unsigned k = 1; k <= 200; ++k) {
      const DhslOut o = sc.edge();
      EXPECT_FALSE(sc.s.ev.decide_imbalance_high) << k;
      EXPECT_EQ(sc.s.ev.decide_reset, k % 20 == 6 && k >= 26) << k;
      decisions += sc.s.ev.decide_reset;
      EXPECT_FALSE(o.mode) << k;
    }
    EXPECT_EQ(decisions, 9u);  // edges 26, 46, ..., 186
  }
}

// "registers the N values of each of prev_in_i, prev_hits_i and prev_acc_i
// (a snapshot: later changes of the inputs do not matter)". Scenario S
// gathers at edge 22 and decides at 26 from the snapshot; chiplet 1 changes
// its saved values so that the new ones are visible in cycle 26 (the decide
// edge's cycle). Read live at the decision they would give a reset; from the
// snapshot the decision is the first imbalance-and-high one. Controls: the
// same change visible in cycle 22 (read by the gather) does give a reset.
//   prev_in: rtu_in[1] at edges 16 .. 25: RTU 1 ends an epoch at edge 25
//     with prev_in = 10 (epoch_o[1] in cycle 26): [10, 10, 0, 0] gives
//     10 x 5 > 20 x 4 false. Control: edges 12 .. 21, epoch_o[1] in 22.
//   prev_hits / prev_acc: rtu_out[1] (prev_in[1] stays 0) and a missing
//     access at slice 1 at edges 15 .. 24: RTU 1 ends its epoch at edge 24,
//     slice 1 saves hits 0 of 10 at edge 25 (epoch_o[1] in cycle 25), visible
//     in cycle 26: hits 10 of 20 gives 10 x 10 > 20 x 9 false. Control:
//     edges 11 .. 20, slice 1 saves at edge 21, visible in cycle 22.
TEST(DhslCp, DecisionUsesTheGatherSnapshot) {
  struct Case {
    bool incoming;      // change prev_in (else prev_hits / prev_acc)
    unsigned from, to;  // chiplet 1's traffic edges
    unsigned epoch_o;   // cycle of RTU 1's epoch_o
    bool snapshot;      // the change is after the gather
  };
  const Case cases[] = {
      {true, 16, 25, 26, true},
      {true, 12, 21, 22, false},
      {false, 15, 24, 25, true},
      {false, 11, 20, 21, false},
  };
  for (const Case& c : cases) {
    CpScenario sc;
    sc.extra = [&c](unsigned k, DhslIn& in) {
      if (k < c.from || k > c.to) return;
      in.rtu_in[1] = c.incoming;
      in.rtu_out[1] = !c.incoming;
      in.l2_access[1] = !c.incoming;
      in.l2_hit[1] = false;
      in.l2_cid[1] = 1;
    };
    for (unsigned k = 1; k <= 27; ++k) {
      const DhslOut o = sc.edge();
      EXPECT_EQ(o.epoch[1], k == c.epoch_o) << "case from " << c.from << " cycle " << k;
      EXPECT_EQ(sc.s.ev.gather, k == 22) << k;
      EXPECT_EQ(sc.s.ev.decide_first, c.snapshot && k == 26) << "case from " << c.from << " edge " << k;
      EXPECT_EQ(sc.s.ev.decide_reset, !c.snapshot && k == 26) << "case from " << c.from << " edge " << k;
    }
  }
}

TEST(DhslCp, ImbalanceNeeded) {
  // rtu_in[0] and rtu_in[1] every cycle: both trigger at edge 20 (cycle 21),
  // prev_in = [10, 10, 0, 0]: 10 x 5 > 20 x 4 false -> no imbalance, every
  // decision resets; never a switch.
  CpScenario sc;
  sc.rtu1_in = true;
  unsigned gathers = 0, resets = 0;
  for (unsigned k = 1; k <= 200; ++k) {
    const DhslOut o = sc.edge();
    EXPECT_EQ(sc.s.ev.gather, k % 20 == 2 && k >= 22) << k;
    EXPECT_EQ(sc.s.ev.decide_reset, k % 20 == 6 && k >= 26) << k;
    gathers += sc.s.ev.gather;
    resets += sc.s.ev.decide_reset;
    EXPECT_FALSE(sc.s.ev.decide_imbalance_high);
    EXPECT_FALSE(o.mode);
  }
  EXPECT_EQ(gathers, 9u);  // edges 22, 42, ..., 182
  EXPECT_EQ(resets, 9u);   // edges 26, 46, ..., 186
}

TEST(DhslCp, ImbalanceBoundary) {
  // E = 10. RTU 0: 10 incoming per epoch (prev_in 10, triggers). RTU 1: j
  // incoming then 10 - j outgoing (never possible: 3 > 14 false). j = 2:
  // total 12, 10 x 5 = 50 > 12 x 4 = 48 imbalance -> switch (at 46).
  // j = 3: total 13, 50 > 52 false -> never.
  for (unsigned j : {2u, 3u}) {
    Sim s(mk(DhslPolicy::Mgvm, 4, 8, 10));
    bool switched = false;
    unsigned imb_high = 0;
    for (unsigned k = 0; k < 100; ++k) {
      DhslIn in = s.idle();
      in.rtu_in[0] = true;
      in.rtu_in[1] = (k % 10) < j;
      in.rtu_out[1] = (k % 10) >= j;
      in.l2_access[0] = true;
      in.l2_hit[0] = true;
      s.step(in);
      EXPECT_FALSE(s.peek().trigger[1]);
      switched = switched || s.ev.switch_to_fine;
      imb_high += s.ev.decide_imbalance_high;
    }
    EXPECT_EQ(switched, j == 2) << j;
    EXPECT_EQ(imb_high > 0, j == 2) << j;
  }
}

TEST(DhslCp, TriggerIgnoredWhileArmedOrPending) {
  // N = 6, E = 10 (J = 2): RTU c gets one incoming request per edge from
  // edge 1 + d_c, d = 0, 1, 2, 4, 5, 6: its epochs end at edges d_c + 10,
  // + 20, ..., and it triggers in cycles 21 + d_c and 41 + d_c.
  // RTU 0 at 21: arm (T = 21); RTU 1 at 22 = T+1: armed, ignored (the
  // gather is at 22); RTU 2 at 23 = T+2, RTU 3 at 25 = T+J+2 and RTU 4 at
  // 26 = T+J+3 (the decide edge's cycle, "up to and including"): pending,
  // ignored; the decision is at 26. RTU 5 at 27 = T+J+4: arms; gather 28,
  // decision 32. The same from RTU 0's trigger at 41: gathers 42 and 48,
  // decisions 46 and 52. prev_in = [10 x 6]: 50 > 240 false: resets.
  const unsigned d[6] = {0, 1, 2, 4, 5, 6};
  Sim s(mk(DhslPolicy::Mgvm, 6, 8, 10));
  for (unsigned k = 1; k <= 53; ++k) {
    DhslIn in = s.idle();
    for (unsigned c = 0; c < 6; ++c) in.rtu_in[c] = k >= 1 + d[c];
    const DhslOut o = s.step(in);
    for (unsigned c = 0; c < 6; ++c) {
      EXPECT_EQ(o.trigger[c], k == 21 + d[c] || k == 41 + d[c]) << "RTU " << c << " cycle " << k;
    }
    EXPECT_EQ(s.ev.gather, in_set({22, 28, 42, 48}, k)) << k;
    EXPECT_EQ(s.ev.decide_reset, in_set({26, 32, 46, 52}, k)) << k;
    EXPECT_FALSE(s.ev.decide_imbalance_high) << k;
  }
}

TEST(DhslCp, SwitchBackOnlyInFineMode) {
  // Scenario S plus rtu_out[2] from edge 2: RTU 2 ends epochs at 11, 21, 31,
  // ... (never possible); slice 2 has no access and saves at X = 12, 22, 32,
  // ...; its decision at X + J + 2 = 16, 26, 36, ... finds every epoch
  // balanced -> back at decision edges 26, 46, 66 (back_o in cycles
  // X + J + 3 = 27, 47, 67). In coarse mode (cycle 27) it is ignored. Switch
  // to fine at edge 46 (mode 1 in cycle 47); back_o in cycle 47 -> switch
  // back at edge 47: mode 0 and switch_o = 1 in cycle 48. The next trigger
  // (cycle 61) arms, gathers at 62 and the decision at 66 is a first one
  // (prevImbalance was cleared); back_o in cycle 67 (coarse) is ignored.
  CpScenario sc;
  sc.rtu2_out_from = 2;
  for (unsigned k = 1; k <= 70; ++k) {
    const DhslOut o = sc.edge();
    const DhslEvents& e = sc.s.ev;
    EXPECT_EQ(o.back[2], k == 27 || k == 47 || k == 67) << k;
    EXPECT_EQ(e.backs, in_set({26, 46, 66}, k) ? 1u : 0u) << k;
    EXPECT_EQ(e.switch_to_fine, k == 46) << k;
    EXPECT_EQ(e.switch_to_coarse, k == 47) << k;
    EXPECT_EQ(o.mode, k == 47) << k;
    EXPECT_EQ(o.switch_pulse, k == 47 || k == 48) << k;
    EXPECT_EQ(e.gather, in_set({22, 42, 62}, k)) << k;
    EXPECT_EQ(e.decide_first, k == 26 || k == 66) << k;
  }
}

// ===========================================================================
// HSL registers

// Scenario S until the switch to fine (edge 46); returns with mode_o = 1.
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
  Sim s(mk(DhslPolicy::Mgvm, 4, 8, 10));
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
  DhslParams p = mk(DhslPolicy::Mgvm, n, 16, 14);  // J = 4: E >= 14
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
  DhslParams p = mk(DhslPolicy::Mgvm, n, 16, 14);
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
  struct Run {
    uint64_t seed;
    unsigned w;
  };
  for (const Run run : {Run{11, 8}, Run{22, 8}, Run{33, 9}, Run{44, 8}, Run{55, 12}, Run{66, 32}}) {
    const uint64_t seed = run.seed;
    std::mt19937_64 rng(seed);
    const unsigned n = 2 + rng() % 7;
    const unsigned j = j_of(mk(DhslPolicy::Mgvm, n, run.w, 255));
    // E from the minimum 2 (J + 3) (epoch ends J + 3 cycles apart with two
    // requests per cycle) to 11 above.
    DhslParams p = mk(DhslPolicy::Mgvm, n, run.w, 2 * (j + 3) + rng() % 12);
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
    // epoch_o of the last J + 3 cycles (hist[0] = the previous one; cleared
    // by a reset).
    std::vector<std::vector<bool>> hist(j + 3, std::vector<bool>(n, false));
    // Reference of the CP's sequence: edges since the arm edge T (-1: none).
    // Armed in cycle T + 1 (gather at its edge), pending in T + 2 .. T + J + 3
    // (decision at the edge of T + J + 3); a trigger in coarse mode arms only
    // when neither.
    int since_arm = -1;
    uint32_t shift = p.coarse_shift;
    int streak = 0;  // Listing 2's prevImbalance as seen from the events
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
          // back_o at X + J + 3 of the epoch_i cycle X (saved at X, decided
          // at X + J + 2).
          EXPECT_TRUE(!o.back[c] || hist[j + 2][c]) << "seed " << seed << " cyc " << cyc;
          EXPECT_EQ(o.rtu_home[c], dhsl_home(p, in.q_vpn[c], o.rtu_fine[c], shift, c));
          EXPECT_EQ(o.l2_walk[c], dhsl_home(p, in.q_vpn[c], o.l2_fine[c], shift, c) == c);
        }
      }
      const DhslOut before = o;
      ASSERT_NO_THROW(s.m.posedge(in)) << "seed " << seed;  // counters <= 2^W - 1 (model self-check)
      const DhslEvents& e = s.m.events();
      if (!in.rst_n) {
        streak = 0;
        shift = p.coarse_shift;
        prev_valid = false;
        for (auto& h : hist) h.assign(n, false);
        since_arm = -1;
        continue;
      }
      if (in.launch) shift = in.launch_shift & 63;
      // Gather exactly at T + 1, decision exactly at T + J + 3 after an arm
      // edge T, nothing else.
      const bool decided = e.decide_imbalance_high || e.decide_reset;
      const bool any_trigger =
          std::find(before.trigger.begin(), before.trigger.end(), true) != before.trigger.end();
      if (since_arm >= 0) {
        ++since_arm;
        EXPECT_EQ(e.gather, since_arm == 1) << "seed " << seed << " cyc " << cyc;
        EXPECT_EQ(decided, since_arm == static_cast<int>(j) + 3) << "seed " << seed << " cyc " << cyc;
        if (since_arm == static_cast<int>(j) + 3) since_arm = -1;
      } else {
        EXPECT_FALSE(e.gather || decided) << "seed " << seed << " cyc " << cyc;
        if (!before.mode && any_trigger) since_arm = 0;  // arm edge
      }
      EXPECT_TRUE(!e.gather || !before.mode);
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
        for (unsigned i = j + 2; i > 0; --i) hist[i][c] = hist[i - 1][c];
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
    std::printf("[random] seed %llu N %u W %u J %u E %u I %u/%u H %u/%u B %u/%u: epochs %u triggers %u "
                "gathers %u first %u to_fine %u backs %u to_coarse %u saturated %u\n",
                static_cast<unsigned long long>(seed), n, run.w, j, p.epoch_requests, p.imbalance_num,
                p.imbalance_den, p.hit_num, p.hit_den, p.balanced_num, p.balanced_den, epochs, triggers,
                gathers, firsts, to_fine, backs, to_coarse, sats);
    EXPECT_GT(epochs, 0u);
    if (run.w <= 9) {
      EXPECT_GT(sats, 0u);  // needs 2^W - 1 accesses without an epoch end
    }
  }
}

}  // namespace
}  // namespace txgen::model
