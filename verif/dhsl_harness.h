// Lock-step harness of dhsl_NAME_sys against model::DhslModel
// (docs/blocks/dhsl.md), bound through the port declaration
// (txgen/ports/dhsl.h). The top's ports depend on the policy: Regs (HSL
// registers, policies mgvm_coarse and mgvm) and Monitors (RTU and L2 monitors
// and the CP, policy mgvm) select which of the declared lists it has.
#pragma once

#include <cstdint>
#include <iterator>
#include <string>
#include <vector>

#include "cosim_util.h"
#include "port_bind.h"
#include "model/dhsl.h"
#include "txgen/elab/dhsl.h"
#include "txgen/ports/dhsl.h"

namespace txgen::verif {

// Coverage of the behaviours the document names, from the model's events.
class DhslCoverage {
 public:
  explicit DhslCoverage(CoverageCounters& c) : c_(c) {
    for (const auto& name : required_all()) ids_.push_back(c_.declare(name));
  }
  // Counter ids in the order of required_all().
  void count(const model::DhslIn& in, const model::DhslEvents& e) {
    const uint64_t times[] = {e.epochs_ended,   e.possible_flags,      e.triggers,
                              e.balanced_epochs, e.backs,               e.gather,
                              e.decide_first,    e.decide_reset,        e.switch_to_fine,
                              e.switch_to_coarse, e.counter_saturated,  e.syncs,
                              e.launch,          !in.rst_n};
    static_assert(std::size(times) == 14, "one count per counter of required_all()");
    for (std::size_t i = 0; i < std::size(times); ++i)
      if (times[i] != 0) c_.hit(ids_[i], times[i]);
  }
  static std::vector<std::string> required_all() {
    return {"epoch_end",           "possible_imbalance", "trigger",
            "balanced_epoch",      "back_request",       "cp_gather",
            "cp_first_imbalanced_decision", "cp_streak_reset", "switch_to_fine",
            "switch_back_to_coarse", "counter_saturated", "register_sync",
            "kernel_launch",       "reset_cycles"};
  }

 private:
  CoverageCounters& c_;
  std::vector<CoverageCounters::Id> ids_;
};

template <class Dut, bool Regs, bool Monitors>
class DhslHarness {
 public:
  DhslHarness(CosimSession& s, const elab::DhslParams& p)
      : s_(s), p_(p), model_(p), dut_(s, "sys"), cov_(s.coverage()),
        tape_(bench_tape<DhslHarness, model::DhslIn>(s, p)) {}

  model::DhslIn idle() const { return model_.idle_inputs(); }

  void drive(const model::DhslIn& in) {
    in_ = in;
    drive_rtl(in);
  }

  void drive_rtl(const model::DhslIn& in) {
    Dut& d = *dut_;
    d.clk_i = 0;
    if constexpr (Monitors) {
      TXGEN_DRIVE_PORTS(TXGEN_DHSL_PORTS, d, p_, in);
    } else if constexpr (Regs) {
      TXGEN_DRIVE_PORTS(TXGEN_DHSL_REG_PORTS, d, p_, in);
    } else {
      TXGEN_DRIVE_PORTS(TXGEN_DHSL_ROUTER_PORTS, d, p_, in);
    }
    d.eval();
  }

  // Compares every port the policy has with the model; returns the model's
  // outputs (equal to the RTL's; those a policy lacks are zero in both).
  const model::DhslOut& check() {
    model_.outputs(in_, want_);
    if constexpr (Monitors) {
      TXGEN_COMPARE_PORTS(TXGEN_DHSL_PORTS, s_, *dut_, p_, want_);
    } else if constexpr (Regs) {
      TXGEN_COMPARE_PORTS(TXGEN_DHSL_REG_PORTS, s_, *dut_, p_, want_);
    } else {
      TXGEN_COMPARE_PORTS(TXGEN_DHSL_ROUTER_PORTS, s_, *dut_, p_, want_);
    }
    return want_;
  }

  void rising_edge() {
    rtl_edge();
    model_.posedge(in_);
    cov_.count(in_, model_.events());
    record(tape_, in_);
  }

  void rtl_edge() {
    dut_->clk_i = 1;
    dut_->eval();
  }

  void model_cycle(const model::DhslIn& in) {
    model_.outputs(in, want_);
    model_.posedge(in);
  }

  const model::DhslOut& step(const model::DhslIn& in) { return step_alone(*this, s_, in); }
  const model::DhslModel& model() const { return model_; }
  CosimSession& session() { return s_; }

 private:
  CosimSession& s_;
  elab::DhslParams p_;
  model::DhslModel model_;
  SessionDut<Dut> dut_;
  DhslCoverage cov_;
  BenchTape<model::DhslIn> tape_;
  model::DhslIn in_;
  model::DhslOut want_;
};

}  // namespace txgen::verif
