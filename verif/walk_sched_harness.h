// Lock-step harness of walk_sched_NAME against model::WalkSchedModel
// (docs/blocks/walk_sched.md), bound through the port declaration
// (txgen/ports/walk_sched.h). The dispatch payload (walker, VPN, instruction
// ID, accesses) is compared only in cycles with disp_valid_o = 1: the
// document defines it only then.
#pragma once

#include <string>
#include <vector>

#include "cosim_util.h"
#include "port_bind.h"
#include "model/walk_sched.h"
#include "txgen/elab/walk_sched.h"
#include "txgen/ports/walk_sched.h"

namespace txgen::verif {

// Coverage of the scheduler's rules, from the model's events (named where
// they are declared, model/walk_sched.h) and the reset input.
class WalkSchedCoverage {
 public:
  WalkSchedCoverage(CoverageCounters& c, const elab::WalkSchedParams& p)
      : c_(c), events_(c, rules()), reset_(c.declare("reset_cycles")) {
    for (const auto& name : required(p)) c_.declare(name);
  }
  void count(const model::WalkSchedIn& in, const model::WalkSchedEvents& e) {
    events_.count(e);
    if (!in.rst_n) c_.hit(reset_);
  }
  static const std::vector<EventRule<model::WalkSchedEvents>>& rules() {
    static const auto r = TXGEN_EVENT_RULES(model::WalkSchedEvents, TXGEN_WALK_SCHED_EVENTS);
    return r;
  }
  // What random traffic must reach: the PWC victim corner cases of the
  // two-step fill are counted but not required.
  static std::vector<std::string> required(const elab::WalkSchedParams& p) {
    using E = model::WalkSchedEvents;
    std::vector<bool E::*> r = {&E::bypass, &E::selection, &E::blocked_full, &E::collapse_with_append,
                                &E::pwc_hit_dispatch};
    if (p.simt())
      r.insert(r.end(), {&E::by_age, &E::by_batch_over_lower_score, &E::by_lowest_score, &E::tie_oldest,
                         &E::score_accumulated, &E::aged_set, &E::pwc_protected_skip,
                         &E::pwc_all_counters_nonzero, &E::pwc_ctr_saturated});
    std::vector<std::string> names = event_names(rules(), r);
    names.push_back("reset_cycles");
    return names;
  }

 private:
  CoverageCounters& c_;
  EventCounter<model::WalkSchedEvents> events_;
  CoverageCounters::Id reset_;
};

template <class Dut>
class WalkSchedHarness {
 public:
  WalkSchedHarness(CosimSession& s, const elab::WalkSchedParams& p)
      : s_(s), p_(p), model_(p), dut_(s, "walk_sched"), cov_(s.coverage(), p),
        tape_(bench_tape<WalkSchedHarness, model::WalkSchedIn>(s, p)) {}

  model::WalkSchedIn idle() const { return model_.idle_inputs(); }

  void drive(const model::WalkSchedIn& in) {
    in_ = in;
    drive_rtl(in);
  }

  void drive_rtl(const model::WalkSchedIn& in) {
    Dut& d = *dut_;
    d.clk_i = 0;
    TXGEN_DRIVE_PORTS(TXGEN_WALK_SCHED_PORTS, d, p_, in);
    d.eval();
  }

  // Compares every output; returns the model's view (equal to the RTL's).
  model::WalkSchedOut check() {
    const model::WalkSchedOut want = model_.outputs(in_);
    TXGEN_COMPARE_PORTS(TXGEN_WALK_SCHED_PORTS, s_, *dut_, p_, want);
    return want;
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

  void model_cycle(const model::WalkSchedIn& in) {
    model_.outputs(in);
    model_.posedge(in);
  }

  model::WalkSchedOut step(const model::WalkSchedIn& in) { return step_alone(*this, s_, in); }
  const model::WalkSchedModel& model() const { return model_; }

 private:
  CosimSession& s_;
  elab::WalkSchedParams p_;
  model::WalkSchedModel model_;
  SessionDut<Dut> dut_;
  WalkSchedCoverage cov_;
  BenchTape<model::WalkSchedIn> tape_;
  model::WalkSchedIn in_;
};

}  // namespace txgen::verif
