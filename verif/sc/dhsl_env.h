// SystemC test of dhsl_NAME_sys (tests/cosim/sc_test.cpp): phases of skewed
// traffic with high or low L2 hit rates, uniform traffic, and L2 bursts
// without RTU traffic (narrow counters saturate); the switch message reaches
// each HSL register some cycles after the CP sent it; launches; one reset.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "dhsl_harness.h"
#include "sc/env_util.h"
#include "sc/dhsl.h"

namespace txgen::verif::sc {

class DhslEnv {
 public:
  using In = model::DhslIn;
  using Out = model::DhslOut;

  DhslEnv(const elab::DhslParams& p, uint64_t seed, uint64_t cycles)
      : p_(p), rng_(seed), reset_at_(mid_run_reset(rng_, cycles)) {}

  void operator()(In& in, const Out& last, uint64_t cycle) {
    if (rng_.below(phase_cycles()) == 0) phase_ = static_cast<Phase>(rng_.below(saturating() ? 4 : 3));
    const bool skewed = phase_ != Phase::Uniform, burst = phase_ == Phase::L2Burst;
    for (unsigned k = 0; k < p_.chiplets; ++k) {
      const bool hot = k == 0;
      in.rtu_in[k] = !burst && rng_.chance(skewed ? (hot ? 70 : 2) : 30);
      in.rtu_out[k] = !burst && rng_.chance(skewed ? (hot ? 5 : 30) : 30);
      in.l2_access[k] = burst || !skewed || rng_.chance(60);  // uniform: coarse ids in turn
      in.l2_hit[k] = rng_.chance(phase_ == Phase::SkewedLowHits ? 60 : 97);
      in.l2_cid[k] = static_cast<uint32_t>(skewed ? (rng_.chance(90) ? 0 : rng_.below(p_.chiplets))
                                                  : (cycle + k) % p_.chiplets);
      in.q_vpn[k] = rng_.bits(p_.vpn_bits);
      in.rtu_sync[k] = k < last.rtu_fine.size() && last.rtu_fine[k] != last.mode && rng_.chance(10);
      in.l2_sync[k] = k < last.l2_fine.size() && last.l2_fine[k] != last.mode && rng_.chance(10);
    }
    in.launch = rng_.below(5000) == 0;
    in.launch_shift = static_cast<uint32_t>(rng_.below(std::min(20u, p_.vpn_bits)));
    in.rst_n = cycle != reset_at_;
  }

 private:
  enum class Phase { SkewedHighHits, SkewedLowHits, Uniform, L2Burst };
  bool saturating() const { return p_.counter_bits <= 10; }
  // Long enough for a few epochs, and for a burst to saturate a counter.
  uint64_t phase_cycles() const {
    return std::max<uint64_t>(12ull * p_.epoch_requests, saturating() ? (uint64_t{1} << p_.counter_bits) + 64 : 0);
  }

  const elab::DhslParams& p_;
  Rng rng_;
  uint64_t reset_at_;
  Phase phase_ = Phase::SkewedHighHits;
};

struct DhslScSpec {
  template <class Dut>
  using Sc = DhslSc<Dut>;
  using Environment = DhslEnv;
  static constexpr uint64_t kCycles = 30000;
  static elab::DhslParams elaborate(const config::Config& c) { return elab::elaborate_dhsl(c); }

  class Coverage {
   public:
    Coverage(CoverageCounters& c, const elab::DhslParams& p) : p_(p), cov_(c) {}
    void operator()(const model::DhslIn& in, const model::DhslOut&, const model::DhslModel& m) {
      cov_.count(in, m.events());
    }
    std::vector<std::string> required() const {
      std::vector<std::string> r;
      if (!p_.has_monitors()) return r;  // nothing switches
      for (const std::string& name : DhslCoverage::required_all())
        if (name != "counter_saturated" || p_.counter_bits <= 10) r.push_back(name);
      return r;
    }

   private:
    const elab::DhslParams& p_;
    DhslCoverage cov_;
  };
};

}  // namespace txgen::verif::sc
