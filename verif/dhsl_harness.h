// Lock-step harness of dhsl_NAME_sys against model::DhslModel
// (docs/blocks/dhsl.md). The top's ports depend on the policy: Regs (HSL
// registers, policies mgvm_coarse and mgvm) and Monitors (RTU and L2 monitors
// and the CP, policy mgvm) select which ones exist.
#pragma once

#include <string>
#include <vector>

#include "cosim_util.h"
#include "model/dhsl.h"
#include "txgen/elab/dhsl.h"

namespace txgen::verif {

inline Bits bools_to_bits(const std::vector<bool>& v) {
  Bits b(static_cast<unsigned>(v.size()));
  for (unsigned i = 0; i < v.size(); ++i) b.set(i, v[i]);
  return b;
}

inline std::vector<bool> bits_to_bools(const Bits& b) {
  std::vector<bool> v(b.width);
  for (unsigned i = 0; i < b.width; ++i) v[i] = b.get(i);
  return v;
}

template <typename T>
Bits fields_to_bits(const std::vector<T>& v, unsigned width) {
  Bits b(static_cast<unsigned>(v.size()) * width);
  for (unsigned i = 0; i < v.size(); ++i) b.set_field(i * width, width, v[i]);
  return b;
}

inline std::vector<uint32_t> bits_to_fields(const Bits& b, unsigned width) {
  std::vector<uint32_t> v(b.width / width);
  for (unsigned i = 0; i < v.size(); ++i) v[i] = static_cast<uint32_t>(b.field(i * width, width));
  return v;
}

// Coverage of the behaviours the document names, from the model's events.
class DhslCoverage {
 public:
  explicit DhslCoverage(CoverageCounters& c) : c_(c) {
    for (const auto& name : required_all()) c_.declare(name);
  }
  void count(const model::DhslIn& in, const model::DhslEvents& e) {
    c_.hit("epoch_end", e.epochs_ended);
    c_.hit("possible_imbalance", e.possible_flags);
    c_.hit("trigger", e.triggers);
    c_.hit("balanced_epoch", e.balanced_epochs);
    c_.hit("back_request", e.backs);
    if (e.gather) c_.hit("cp_gather");
    if (e.decide_first) c_.hit("cp_first_imbalanced_decision");
    if (e.decide_reset) c_.hit("cp_streak_reset");
    if (e.switch_to_fine) c_.hit("switch_to_fine");
    if (e.switch_to_coarse) c_.hit("switch_back_to_coarse");
    if (e.counter_saturated) c_.hit("counter_saturated");
    c_.hit("register_sync", e.syncs);
    if (e.launch) c_.hit("kernel_launch");
    if (!in.rst_n) c_.hit("reset_cycles");
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
    to_port(d.q_vpn_i, fields_to_bits(in.q_vpn, p_.vpn_bits));
    if constexpr (Regs) {
      d.launch_i = in.launch;
      d.launch_shift_i = in.launch_shift;
    }
    if constexpr (Monitors) {
      to_port(d.rtu_in_i, bools_to_bits(in.rtu_in));
      to_port(d.rtu_out_i, bools_to_bits(in.rtu_out));
      to_port(d.l2_access_i, bools_to_bits(in.l2_access));
      to_port(d.l2_hit_i, bools_to_bits(in.l2_hit));
      to_port(d.l2_cid_i, fields_to_bits(in.l2_cid, p_.chiplet_bits));
      to_port(d.rtu_sync_i, bools_to_bits(in.rtu_sync));
      to_port(d.l2_sync_i, bools_to_bits(in.l2_sync));
    }
    d.eval();
  }

  model::DhslOut dut_outputs() const {
    const Dut& d = *dut_;
    const unsigned n = p_.chiplets;
    model::DhslOut o = model_.outputs(in_);  // fields a policy lacks keep the model's (zero) value
    o.rtu_home = bits_to_fields(from_port(d.rtu_home_o, n * p_.chiplet_bits), p_.chiplet_bits);
    o.rtu_local = bits_to_bools(from_port(d.rtu_local_o, n));
    o.l2_walk = bits_to_bools(from_port(d.l2_walk_o, n));
    if constexpr (Regs) {
      o.rtu_fine = bits_to_bools(from_port(d.rtu_fine_o, n));
      o.l2_fine = bits_to_bools(from_port(d.l2_fine_o, n));
    }
    if constexpr (Monitors) {
      o.mode = d.mode_o;
      o.switch_pulse = d.switch_o;
      o.trigger = bits_to_bools(from_port(d.trigger_o, n));
      o.possible = bits_to_bools(from_port(d.possible_o, n));
      o.epoch = bits_to_bools(from_port(d.epoch_o, n));
      o.back = bits_to_bools(from_port(d.back_o, n));
    }
    return o;
  }

  model::DhslOut check() {
    const model::DhslOut want = model_.outputs(in_);
    const model::DhslOut got = dut_outputs();
    const unsigned cb = p_.chiplet_bits;
    compare_bit(s_, "mode_o", want.mode, got.mode);
    compare_bit(s_, "switch_o", want.switch_pulse, got.switch_pulse);
    compare_bits(s_, "trigger_o", bools_to_bits(want.trigger), bools_to_bits(got.trigger));
    compare_bits(s_, "possible_o", bools_to_bits(want.possible), bools_to_bits(got.possible));
    compare_bits(s_, "epoch_o", bools_to_bits(want.epoch), bools_to_bits(got.epoch));
    compare_bits(s_, "back_o", bools_to_bits(want.back), bools_to_bits(got.back));
    compare_bits(s_, "rtu_fine_o", bools_to_bits(want.rtu_fine), bools_to_bits(got.rtu_fine));
    compare_bits(s_, "l2_fine_o", bools_to_bits(want.l2_fine), bools_to_bits(got.l2_fine));
    compare_bits(s_, "rtu_home_o", fields_to_bits(want.rtu_home, cb), fields_to_bits(got.rtu_home, cb));
    compare_bits(s_, "rtu_local_o", bools_to_bits(want.rtu_local), bools_to_bits(got.rtu_local));
    compare_bits(s_, "l2_walk_o", bools_to_bits(want.l2_walk), bools_to_bits(got.l2_walk));
    return got;
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
    model_.outputs(in);
    model_.posedge(in);
  }

  model::DhslOut step(const model::DhslIn& in) { return step_alone(*this, s_, in); }
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
};

}  // namespace txgen::verif
