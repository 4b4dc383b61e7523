// Lock-step co-simulation of dhsl_NAME_sys against the golden model
// (docs/blocks/dhsl.md). The build passes TXGEN_SYS_HEADER / TXGEN_SYS_CLASS,
// TXGEN_DHSL_REGS and TXGEN_DHSL_MONITORS (0/1, from the policy),
// TXGEN_COSIM_CONFIG and TXGEN_COSIM_CONFIG_NAME. Directed tests are named
// after the document's rules and add explicit expectations to the comparison.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include TXGEN_SYS_HEADER

#include "cosim_gtest.h"
#include "cosim_util.h"
#include "dhsl_harness.h"
#include "txgen/config/parse.h"
#include "txgen/elab/dhsl.h"

namespace {

using txgen::elab::DhslParams;
using txgen::verif::CosimSession;
using txgen::verif::CosimVerdict;
using txgen::verif::expect_passed;
namespace model = txgen::model;

using Sys = txgen::verif::DhslHarness<TXGEN_SYS_CLASS, TXGEN_DHSL_REGS != 0, TXGEN_DHSL_MONITORS != 0>;

const DhslParams& params() {
  static const DhslParams p = txgen::elab::elaborate_dhsl(txgen::config::load_config_file(TXGEN_COSIM_CONFIG));
  return p;
}

std::string test_name() { return txgen::verif::cosim_test_name(TXGEN_COSIM_CONFIG_NAME); }

// Drives whole epochs of chosen traffic on chiplet 0 and records what the
// outputs showed.
class Driver {
 public:
  explicit Driver(Sys& h) : h_(h), in_(h.idle()) {}
  model::DhslIn& in() { return in_; }
  const model::DhslOut& step() { return note(h_.step(in_)); }

  void reset() {
    in_.rst_n = false;
    step();
    in_.rst_n = true;
  }

  // One RTU epoch on chiplet 0: `in` incoming and `out` outgoing requests per
  // cycle (0 or 1) until E requests, with an L2 access every cycle of which
  // `hit_every` in a row hit (0: none) and coarse ids from cid_of(cycle).
  template <class CidOf>
  void epoch(bool in, bool out, unsigned hit_every, unsigned accesses_per_request, CidOf cid_of) {
    const unsigned e = params().epoch_requests, per_cycle = (in ? 1 : 0) + (out ? 1 : 0);
    for (unsigned r = 0, k = 0; r < e; r += per_cycle) {
      in_.rtu_in[0] = in;
      in_.rtu_out[0] = out;
      for (unsigned a = 0; a < accesses_per_request; ++a, ++k) {
        in_.l2_access[0] = true;
        in_.l2_hit[0] = hit_every != 0 && k % hit_every != 0;
        in_.l2_cid[0] = cid_of(k);
        if (a + 1 < accesses_per_request) {  // extra accesses in cycles without RTU traffic
          in_.rtu_in[0] = in_.rtu_out[0] = false;
          step();
          in_.rtu_in[0] = in;
          in_.rtu_out[0] = out;
        }
      }
      step();
    }
    // the epoch pulse, the L2 check and the CP (J + 2 edges each) and the switch pulse settle
    quiet(params().check_steps + 8);
  }

  // `acc` L2 accesses of chiplet c's slice, one a cycle without RTU traffic;
  // the first `hits` of them hit, coarse ids from cid_of(k).
  template <class CidOf>
  void l2_accesses(unsigned c, unsigned acc, unsigned hits, CidOf cid_of) {
    for (unsigned k = 0; k < acc; ++k) {
      in_.l2_access[c] = true;
      in_.l2_hit[c] = k < hits;
      in_.l2_cid[c] = cid_of(k);
      step();
    }
    in_.l2_access[c] = in_.l2_hit[c] = false;
  }

  // Chiplet c's RTU: `in` incoming, then `out` outgoing requests, one a cycle;
  // then the epoch's checks settle.
  void requests(unsigned c, unsigned in, unsigned out) {
    for (unsigned i = 0; i < in + out; ++i) {
      in_.rtu_in[c] = i < in;
      in_.rtu_out[c] = i >= in;
      step();
    }
    in_.rtu_in[c] = in_.rtu_out[c] = false;
    quiet(params().check_steps + 8);
  }

  void quiet(unsigned cycles) {
    in_.rtu_in[0] = in_.rtu_out[0] = in_.l2_access[0] = in_.l2_hit[0] = false;
    for (unsigned i = 0; i < cycles; ++i) step();
  }

  unsigned triggers = 0, switches = 0, backs = 0;
  bool mode = false;

 private:
  const model::DhslOut& note(const model::DhslOut& o) {
    last_ = o;
    for (bool t : o.trigger) triggers += t;
    for (bool b : o.back) backs += b;
    switches += o.switch_pulse;
    mode = o.mode;
    return last_;
  }
  Sys& h_;
  model::DhslIn in_;
  model::DhslOut last_;
};

template <class Body>
void directed(Body body) {
  if (!TXGEN_DHSL_MONITORS) GTEST_SKIP() << "no monitors in this policy";
  expect_passed(txgen::verif::run_cosim(test_name(), txgen::verif::seed_from_env(), [&](CosimSession& s) {
    Sys sys(s, params());
    Driver d(sys);
    d.reset();
    body(s, d);
  }));
}

auto all_cid0 = [](unsigned) { return 0u; };
auto even_cids = [](unsigned k) { return k % params().chiplets; };

void expect_count(CosimSession& s, const char* what, unsigned want, unsigned got) {
  s.expect_equal(what, std::to_string(want), std::to_string(got));
}

// Four imbalanced epochs with high hit rates: two triggers, two decisions.
void switch_to_fine(Driver& d) {
  for (int e = 0; e < 4; ++e) d.epoch(true, false, 20, 1, all_cid0);
}

TEST(Dhsl, PossibleImbalanceNeedsTwoConsecutiveEpochs) {
  directed([](CosimSession& s, Driver& d) {
    d.epoch(true, false, 0, 1, all_cid0);
    expect_count(s, "triggers after one flagged epoch (test)", 0, d.triggers);
    d.epoch(true, false, 0, 1, all_cid0);
    expect_count(s, "triggers after two flagged epochs (test)", 1, d.triggers);
  });
}

// "incoming > 2 x outgoing" is strict: an epoch ending on an outgoing request
// with incoming exactly twice outgoing is not a possible imbalance.
TEST(Dhsl, PossibleIsStrictlyMoreThanTwiceOutgoing) {
  if (params().epoch_requests % 3 != 0) GTEST_SKIP() << "needs an epoch divisible by 3";
  directed([](CosimSession& s, Driver& d) {
    const unsigned e = params().epoch_requests, out = e / 3 - 1, in = e - 1 - out;  // in - 2 out = 2
    auto run = [&](unsigned ins, unsigned outs) {
      for (unsigned i = 0; i < ins; ++i) { d.in().rtu_in[0] = true; d.step(); }
      d.in().rtu_in[0] = false;
      for (unsigned i = 0; i < outs; ++i) { d.in().rtu_out[0] = true; d.step(); }
      d.in().rtu_out[0] = true;  // the last request of the epoch is outgoing
      d.step();
      d.quiet(2);
    };
    run(in, out);  // ends at in = 2 out
    s.expect_equal("possible_o after in = 2 x out (test)", "0", std::to_string(d.step().possible[0]));
    run(in + 1, out - 1);  // ends at in = 2 out + 3
    s.expect_equal("possible_o after in > 2 x out (test)", "1", std::to_string(d.step().possible[0]));
  });
}

TEST(Dhsl, OneBalancedEpochResetsTheStreak) {
  directed([](CosimSession& s, Driver& d) {
    d.epoch(true, false, 0, 1, all_cid0);
    d.epoch(true, true, 0, 1, all_cid0);  // incoming = outgoing: not possible
    d.epoch(true, false, 0, 1, all_cid0);
    expect_count(s, "triggers (test)", 0, d.triggers);
    d.epoch(true, false, 0, 1, all_cid0);
    expect_count(s, "triggers (test)", 1, d.triggers);
  });
}

TEST(Dhsl, DecisionNeedsImbalanceAndHighHitRateTwiceInARow) {
  directed([](CosimSession& s, Driver& d) {
    for (int e = 0; e < 4; ++e) d.epoch(true, false, 2, 1, all_cid0);  // hit rate 0.5: not high
    expect_count(s, "switches with a low hit rate (test)", 0, d.switches);
    d.epoch(true, false, 20, 1, all_cid0);
    d.epoch(true, false, 20, 1, all_cid0);
    expect_count(s, "switches after the first high decision (test)", 0, d.switches);
    d.epoch(true, false, 20, 1, all_cid0);
    d.epoch(true, false, 20, 1, all_cid0);
    expect_count(s, "switches after the second (test)", 1, d.switches);
    s.expect_equal("mode_o (test)", "1", std::to_string(d.mode));
  });
}

TEST(Dhsl, LowHitRateDecisionResetsPrevImbalance) {
  directed([](CosimSession& s, Driver& d) {
    d.epoch(true, false, 20, 1, all_cid0);
    d.epoch(true, false, 20, 1, all_cid0);  // decision 1: imbalanced and high
    d.epoch(true, false, 2, 1, all_cid0);
    d.epoch(true, false, 2, 1, all_cid0);   // decision 2: low hit rate, resets
    d.epoch(true, false, 20, 1, all_cid0);
    d.epoch(true, false, 20, 1, all_cid0);  // decision 3: first again
    expect_count(s, "switches (test)", 0, d.switches);
  });
}

TEST(Dhsl, SwitchBackAfterTwoBalancedEpochs) {
  directed([](CosimSession& s, Driver& d) {
    switch_to_fine(d);
    expect_count(s, "switches (test)", 1, d.switches);
    d.epoch(true, true, 20, 1, even_cids);
    expect_count(s, "switches after one balanced epoch (test)", 1, d.switches);
    d.epoch(true, true, 20, 1, even_cids);
    expect_count(s, "switches after two (test)", 2, d.switches);
    s.expect_equal("mode_o (test)", "0", std::to_string(d.mode));
  });
}

TEST(Dhsl, CounterSaturationAtTheWidthLimit) {
  if (params().counter_bits > 10) GTEST_SKIP() << "counters too wide to saturate in a short test";
  directed([](CosimSession& s, Driver& d) {
    // 600 accesses per epoch, half of them hits: 0.5 is low, but both counters
    // saturate at 2^W - 1 and read as a hit rate of 1.
    const unsigned per_request = 1200 / params().epoch_requests + 1;
    for (int e = 0; e < 4; ++e) d.epoch(true, false, 2, per_request, all_cid0);
    expect_count(s, "switches with saturated counters (test)", 1, d.switches);
  });
}

// The access counter saturates while the hit counter does not: 1.2 x 2^W
// accesses per epoch, two in three of them hits, is a low hit rate read as
// hits / (2^W - 1) = 0.8; an access counter that wrapped would read it as high.
TEST(Dhsl, SaturatedAccessCountKeepsALowHitRateLow) {
  if (params().counter_bits > 10) GTEST_SKIP() << "counters too wide to saturate in a short test";
  directed([](CosimSession& s, Driver& d) {
    const unsigned per_request = (6u << params().counter_bits) / 5 / params().epoch_requests + 1;
    for (int e = 0; e < 4; ++e) d.epoch(true, false, 3, per_request, all_cid0);
    expect_count(s, "switches with hits 2/3 of a saturated access count (test)", 0, d.switches);
  });
}

// In fine mode, every slice counts 1.2 x 2^W accesses per home: all per-home
// counters saturate equally, which is balanced; one that wrapped would not be.
TEST(Dhsl, SaturatedHomeCountsAreBalanced) {
  if (params().counter_bits > 10) GTEST_SKIP() << "counters too wide to saturate in a short test";
  directed([](CosimSession& s, Driver& d) {
    switch_to_fine(d);
    const unsigned cycles = (params().epoch_requests + 1) / 2;  // one incoming and one outgoing request a cycle
    const unsigned per_request = (6u << params().counter_bits) * params().chiplets / 5 / cycles + 1;
    d.epoch(true, true, 20, per_request, even_cids);
    d.epoch(true, true, 20, per_request, even_cids);
    expect_count(s, "switches: to fine, then back on saturated balanced counts (test)", 2, d.switches);
  });
}

// The decisions at their thresholds: each sweep point starts from reset and
// expects the switch the test computes from the fractions itself; the sweep
// must cross the threshold. The digit-serial remainders of the CP and the L2
// check see operands on both sides of zero, in every digit.

// The first epoch after reset counts from zero: two balanced epochs straight
// after reset give a back pulse (coarse mode ignores it).
TEST(Dhsl, BackPulseOnTwoBalancedEpochsFromReset) {
  directed([](CosimSession& s, Driver& d) {
    d.epoch(true, true, 20, 2, even_cids);
    expect_count(s, "back pulses after one balanced epoch (test)", 0, d.backs);
    d.epoch(true, true, 20, 2, even_cids);
    expect_count(s, "back pulses after two (test)", 1, d.backs);
    expect_count(s, "switches in coarse mode (test)", 0, d.switches);
  });
}

// The points of a threshold sweep: each checks its switch count, and the
// sweep must have points on both sides.
class Sweep {
 public:
  void point(CosimSession& s, const std::string& what, bool expect_switch, unsigned switches) {
    expect_count(s, (what + " (test)").c_str(), expect_switch ? 1 : 0, switches);
    ++(expect_switch ? switching_ : staying_);
  }
  void expect_both_sides() const {
    EXPECT_GT(switching_, 0u) << "no sweep point on the switching side";
    EXPECT_GT(staying_, 0u) << "no sweep point on the other side";
  }

 private:
  unsigned switching_ = 0, staying_ = 0;
};

// Thousands of cycles per epoch (seed 004): fewer sweep points.
bool long_epochs() { return params().epoch_requests > 100; }

// Chiplet `other` ends one epoch with n incoming requests; then chiplet `hot`
// makes two decisions with h of its E requests incoming (h > 2 (E - h): a
// possible imbalance) and a high hit rate. Each chiplet is hot in turn and h
// takes every flagged value, so each chiplet's remainder is checked near zero
// over many digit patterns, and once with the other chiplet idle.
TEST(Dhsl, ImbalanceDecisionAtTheThreshold) {
  directed([](CosimSession& s, Driver& d) {
    const DhslParams& p = params();
    const unsigned e = p.epoch_requests;
    Sweep sweep;
    for (unsigned hot = 0; hot < p.chiplets; hot += long_epochs() ? p.chiplets - 1 : 1) {
      const unsigned other = (hot + 1) % p.chiplets;
      for (unsigned h = long_epochs() ? e : 2 * e / 3 + 1; h <= e; ++h) {
        // n at which the hot chiplet's share h / (h + n) reaches In / Id
        const unsigned at = h * (p.imbalance_den - p.imbalance_num) / p.imbalance_num;
        std::vector<unsigned> others = {0};  // the other chiplet idle: the hot one's share is 1
        for (unsigned n = at > 2 ? at - 2 : 1; n <= std::min(e, at + 2); ++n) others.push_back(n);
        for (const unsigned n : others) {
          d.reset();
          const unsigned before = d.switches;
          d.requests(other, n, e - n);
          for (int k = 0; k < 4; ++k) {
            d.l2_accesses(hot, 20, 19, all_cid0);
            d.requests(hot, h, e - h);
          }
          const uint64_t total = h + n;
          const bool imbalanced = uint64_t{h} * p.imbalance_den > total * p.imbalance_num ||
                                  uint64_t{n} * p.imbalance_den > total * p.imbalance_num;
          sweep.point(s,
                      "switches, " + std::to_string(h) + " incoming at chiplet " + std::to_string(hot) + ", " +
                          std::to_string(n) + " at chiplet " + std::to_string(other),
                      imbalanced, d.switches - before);
        }
      }
    }
    sweep.expect_both_sides();
  });
}

// acc accesses per epoch, hits of them at and just above acc x Hn / Hd.
TEST(Dhsl, HitRateDecisionAtTheThreshold) {
  directed([](CosimSession& s, Driver& d) {
    const DhslParams& p = params();
    const unsigned top = std::min(250u, (1u << std::min(p.counter_bits, 16u)) - 1);
    Sweep sweep;
    const unsigned step = long_epochs() ? 37 : 7;
    for (unsigned acc = 10; acc <= top; acc += step) {
      for (unsigned extra = 0; extra < 2; ++extra) {
        const unsigned hits = std::min(acc, acc * p.hit_num / p.hit_den + extra);
        d.reset();
        const unsigned before = d.switches;
        for (int k = 0; k < 4; ++k) {
          d.l2_accesses(0, acc, hits, all_cid0);
          d.requests(0, p.epoch_requests, 0);
        }
        const bool high = uint64_t{hits} * p.hit_den > uint64_t{acc} * p.hit_num;
        sweep.point(s, "switches, " + std::to_string(hits) + " hits of " + std::to_string(acc), high,
                    d.switches - before);
      }
    }
    sweep.expect_both_sides();
  });
}

// In fine mode, slice 0 counts x accesses to home 0 and t - x to home 1 in
// two epochs; it switches back when both are balanced.
TEST(Dhsl, SwitchBackAtTheBalanceThreshold) {
  directed([](CosimSession& s, Driver& d) {
    const DhslParams& p = params();
    const unsigned e = p.epoch_requests;
    Sweep sweep;
    // totals of every residue and digit pattern up to 2^W - 1, odd and even
    for (unsigned t = 10; t <= std::min(250u, (1u << std::min(p.counter_bits, 16u)) - 1); t += 17) {
      if (long_epochs() && t > 50) break;
      for (unsigned x = t / 2 - 1; x <= t / 2 + 1; ++x) {
        d.reset();
        switch_to_fine(d);
        const unsigned before = d.switches;
        for (int k = 0; k < 2; ++k) {
          d.l2_accesses(0, t, t, [x](unsigned a) { return a < x ? 0u : 1u; });
          d.requests(0, e / 2, e - e / 2);
        }
        const uint64_t most = std::max(x, t - x);
        const bool balanced = most * p.balanced_den <= uint64_t{t} * p.balanced_num;
        sweep.point(s, "switches back, " + std::to_string(x) + " of " + std::to_string(t) + " at home 0", balanced,
                    d.switches - before);
      }
    }
    sweep.expect_both_sides();
  });
}

TEST(Dhsl, RerouteWhileTheSwitchPropagates) {
  directed([](CosimSession& s, Driver& d) {
    const DhslParams& p = params();
    switch_to_fine(d);
    // Only chiplet 0's RTU has taken the switch message so far.
    d.in().rtu_sync[0] = true;
    d.step();
    d.in().rtu_sync[0] = false;
    const uint64_t vpn = (uint64_t{1} << (p.coarse_shift + 1)) + 1;  // fine and coarse homes differ
    for (unsigned c = 0; c < p.chiplets; ++c) d.in().q_vpn[c] = vpn;
    const model::DhslOut o = d.step();
    const unsigned fine_home = vpn % p.chiplets, coarse_home = (vpn >> p.coarse_shift) % p.chiplets;
    expect_count(s, "RTU 0 routes by the fine HSL (test)", fine_home, o.rtu_home[0]);
    expect_count(s, "RTU 1 still routes by the coarse HSL (test)", coarse_home, o.rtu_home[1]);
    s.expect_equal("rtu_fine_o[0] (test)", "1", std::to_string(o.rtu_fine[0]));
    s.expect_equal("l2_fine_o[0] (test)", "0", std::to_string(o.l2_fine[0]));
  });
}

// ---------------------------------------------------------------------------
// Constrained random: skewed and uniform phases, propagation of the switch
// message to every register at random delays, launches and resets.

// L2Burst stops RTU traffic (no epoch ends) while the L2 slices keep being
// accessed, so narrow counters saturate.
enum class Phase { SkewedHighHits, SkewedLowHits, Uniform, L2Burst };

// Fills `in` (kept from cycle to cycle: its vectors are not reallocated).
void random_inputs(txgen::verif::Rng& rng, const model::DhslOut& prev, Phase phase, uint64_t c, uint64_t reset_at,
                   model::DhslIn& in) {
  const bool skewed = phase != Phase::Uniform;
  const DhslParams& p = params();
  for (auto* flags : {&in.rtu_in, &in.rtu_out, &in.l2_access, &in.l2_hit, &in.rtu_sync, &in.l2_sync})
    flags->assign(p.chiplets, false);
  in.l2_cid.assign(p.chiplets, 0);
  in.q_vpn.assign(p.chiplets, 0);
  in.rst_n = c != reset_at && c != reset_at + 1;
  // Skewed: the hot chiplet's share of the incoming counts must pass the 4/5
  // imbalance test. Each RTU's epoch is its own 5000 requests, mostly outgoing
  // on the cold chiplets, so with 2 % incoming each cold one reports about
  // 310: the hot share is 83 % at 4 chiplets but 68 % at 8. From 5 chiplets
  // on the cold ones take 0.5 % (89 % at 8).
  const auto cold_in = [&] { return p.chiplets <= 4 ? rng.chance(2) : rng.below(200) == 0; };
  for (unsigned k = 0; k < p.chiplets; ++k) {
    const bool hot = k == 0;
    const bool burst = phase == Phase::L2Burst;
    in.rtu_in[k] = !burst && (skewed ? (hot ? rng.chance(70) : cold_in()) : rng.chance(30));
    in.rtu_out[k] = !burst && rng.chance(skewed ? (hot ? 5 : 30) : 30);
    // uniform: every cycle, coarse ids in turn (balanced up to one access)
    in.l2_access[k] = burst || !skewed || rng.chance(60);
    in.l2_hit[k] = rng.chance(phase == Phase::SkewedLowHits ? 60 : 97);
    in.l2_cid[k] = static_cast<uint32_t>(skewed ? (rng.chance(90) ? 0 : rng.below(p.chiplets + 1))
                                                : (c + k) % p.chiplets);
    in.q_vpn[k] = rng.bits(p.vpn_bits);
    // The switch message reaches each register some cycles after the CP sent it.
    if (TXGEN_DHSL_MONITORS) {
      in.rtu_sync[k] = prev.rtu_fine.size() > k && prev.rtu_fine[k] != prev.mode && rng.chance(10);
      in.l2_sync[k] = prev.l2_fine.size() > k && prev.l2_fine[k] != prev.mode && rng.chance(10);
    }
  }
  in.launch = rng.below(5000) == 0;
  in.launch_shift = static_cast<uint32_t>(rng.below(std::min(20u, p.vpn_bits)));
}

TEST(Dhsl, RandomTraffic) {
  const uint64_t seed = txgen::verif::seed_from_env();
  // Long enough for a few epochs per phase on every configuration.
  const unsigned w = params().counter_bits;
  const uint64_t saturate = w <= 10 ? (uint64_t{1} << w) + 64 : 0;  // an L2 burst long enough to saturate
  const uint64_t phase_cycles = std::max<uint64_t>(12ull * params().epoch_requests, saturate);
  // Beyond 4 chiplets fewer skewed phases end imbalanced twice in a row: twice
  // the phases, so a switch to fine is followed by a uniform phase.
  const uint64_t phases = params().chiplets <= 4 ? 8 : 16;
  const uint64_t cycles = std::max<uint64_t>(txgen::verif::cosim_cycles_from_env(), phases * phase_cycles);
  const CosimVerdict v = txgen::verif::run_cosim(test_name(), seed, [&](CosimSession& s) {
    Sys sys(s, params());
    txgen::verif::Rng rng(seed);
    const uint64_t reset_at = cycles / 3 + rng.below(cycles / 3 + 1);
    const model::DhslOut first = sys.model().outputs(sys.idle());
    const model::DhslOut* out = &first;  // the last cycle's outputs (kept by the harness)
    model::DhslIn in = sys.idle();
    Phase phase = Phase::SkewedHighHits;
    for (uint64_t c = 0; c < cycles; ++c) {
      if (rng.below(phase_cycles) == 0) phase = static_cast<Phase>(rng.below(saturate ? 4 : 3));
      random_inputs(rng, *out, phase, c, reset_at, in);
      out = &sys.step(in);
    }
  });
  expect_passed(v);
  std::printf("%s: seed %llu, %llu cycles, %.2f M cycles/s\n%s", test_name().c_str(),
              static_cast<unsigned long long>(seed), static_cast<unsigned long long>(v.cycles),
              v.cycles_per_second / 1e6, v.coverage.format().c_str());
  if (TXGEN_DHSL_MONITORS) {
    for (const std::string& name : txgen::verif::DhslCoverage::required_all()) {
      if (name == "counter_saturated" && params().counter_bits > 10) continue;  // unreachable at 32 bits
      EXPECT_GT(v.coverage.count(name), 0u) << "coverage counter " << name << " never hit";
    }
  }
}

}  // namespace
