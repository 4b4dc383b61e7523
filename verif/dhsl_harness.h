// Lock-step harness of dhsl_NAME_sys against model::DhslModel
// (docs/blocks/dhsl.md). The top's ports depend on the policy: Regs (HSL
// registers, policies mgvm_coarse and mgvm) and Monitors (RTU and L2 monitors
// and the CP, policy mgvm) select which ones exist.
#pragma once

#include <cstdint>
#include <iterator>
#include <string>
#include <vector>

#include "cosim_util.h"
#include "model/dhsl.h"
#include "txgen/elab/dhsl.h"

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
    d.rst_ni = in.rst_n;
    entries_to_port(d.q_vpn_i, in.q_vpn, p_.vpn_bits);
    if constexpr (Regs) {
      d.launch_i = in.launch;
      d.launch_shift_i = in.launch_shift;
    }
    if constexpr (Monitors) {
      flags_to_port(d.rtu_in_i, in.rtu_in);
      flags_to_port(d.rtu_out_i, in.rtu_out);
      flags_to_port(d.l2_access_i, in.l2_access);
      flags_to_port(d.l2_hit_i, in.l2_hit);
      entries_to_port(d.l2_cid_i, in.l2_cid, p_.chiplet_bits);
      flags_to_port(d.rtu_sync_i, in.rtu_sync);
      flags_to_port(d.l2_sync_i, in.l2_sync);
    }
    d.eval();
  }

  // Compares every port the policy has with the model; returns the model's
  // outputs (equal to the RTL's; those a policy lacks are zero in both).
  const model::DhslOut& check() {
    model_.outputs(in_, want_);
    const Dut& d = *dut_;
    const model::DhslOut& w = want_;
    if constexpr (Monitors) {
      compare_bit(s_, "mode_o", w.mode, d.mode_o);
      compare_bit(s_, "switch_o", w.switch_pulse, d.switch_o);
      compare_port_entries(s_, "trigger_o", d.trigger_o, 1, w.trigger);
      compare_port_entries(s_, "possible_o", d.possible_o, 1, w.possible);
      compare_port_entries(s_, "epoch_o", d.epoch_o, 1, w.epoch);
      compare_port_entries(s_, "back_o", d.back_o, 1, w.back);
    }
    if constexpr (Regs) {
      compare_port_entries(s_, "rtu_fine_o", d.rtu_fine_o, 1, w.rtu_fine);
      compare_port_entries(s_, "l2_fine_o", d.l2_fine_o, 1, w.l2_fine);
    }
    compare_port_entries(s_, "rtu_home_o", d.rtu_home_o, p_.chiplet_bits, w.rtu_home);
    compare_port_entries(s_, "rtu_local_o", d.rtu_local_o, 1, w.rtu_local);
    compare_port_entries(s_, "l2_walk_o", d.l2_walk_o, 1, w.l2_walk);
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
