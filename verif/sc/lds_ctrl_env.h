// SystemC test of lds_ctrl_NAME_sys (tests/cosim/sc_test.cpp): the C++
// co-simulation's constrained-random traffic (LdsTraffic: work groups,
// application accesses, lookups, fills and shootdowns on a small VPN pool,
// back-pressure, resets).
#pragma once

#include <string>
#include <vector>

#include "lds_ctrl_driver.h"
#include "lds_ctrl_harness.h"
#include "sc/lds_ctrl.h"

namespace txgen::verif::sc {

class LdsCtrlEnv {
 public:
  LdsCtrlEnv(const elab::LdsCtrlParams& p, uint64_t seed, uint64_t cycles) : traffic_(p, seed, cycles) {}

  void operator()(model::LdsCtrlIn& in, const model::LdsCtrlOut& last, uint64_t) {
    traffic_.observe(in, last);
    in = traffic_.next(last);
  }

 private:
  LdsTraffic traffic_;
};

struct LdsCtrlScSpec {
  template <class Dut>
  using Sc = LdsCtrlSc<Dut>;
  using Environment = LdsCtrlEnv;
  static constexpr uint64_t kCycles = 30000;
  static elab::LdsCtrlParams elaborate(const config::Config& c) { return elab::elaborate_lds_ctrl(c); }

  class Coverage {
   public:
    Coverage(CoverageCounters& c, const elab::LdsCtrlParams&) : cov_(c) {}
    void operator()(const model::LdsCtrlIn& in, const model::LdsCtrlOut& out, const model::LdsCtrlModel& m) {
      cov_.count(in, out, m.events());
    }
    std::vector<std::string> required() const { return LdsCoverage::required(); }

   private:
    LdsCoverage cov_;
  };
};

}  // namespace txgen::verif::sc
