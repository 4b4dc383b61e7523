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

// Coverage of the scheduler's rules, from the model's events.
class WalkSchedCoverage {
 public:
  WalkSchedCoverage(CoverageCounters& c, const elab::WalkSchedParams& p) : c_(c) {
    for (const auto& name : required(p)) c_.declare(name);
  }
  void count(const model::WalkSchedIn& in, const model::WalkSchedEvents& e) {
    const std::pair<bool, const char*> rules[] = {
        {e.bypass, "idle_walker_bypass"},
        {e.selection, "selection_dispatch"},
        {e.by_age, "aged_first"},
        {e.by_batch_over_lower_score, "batch_over_lower_score"},
        {e.by_lowest_score, "lowest_score"},
        {e.tie_oldest, "oldest_on_tie"},
        {e.score_accumulated, "score_accumulated"},
        {e.aged_set, "request_aged"},
        {e.blocked_full, "buffer_full_backpressure"},
        {e.collapse_with_append, "remove_and_append_same_edge"},
        {e.pwc_protected_skip, "pwc_counter_protects_entry"},
        {e.pwc_all_counters_nonzero, "pwc_all_nonzero_plain_plru"},
        {e.pwc_ctr_saturated, "pwc_counter_saturated"},
        {e.pwc_hit_dispatch, "pwc_hit_on_dispatch"},
        {!in.rst_n, "reset_cycles"}};
    fired_.count(c_, rules);
  }
  static std::vector<std::string> required(const elab::WalkSchedParams& p) {
    std::vector<std::string> r = {"idle_walker_bypass", "selection_dispatch", "buffer_full_backpressure",
                                  "remove_and_append_same_edge", "pwc_hit_on_dispatch", "reset_cycles"};
    if (p.simt())
      r.insert(r.end(), {"aged_first", "batch_over_lower_score", "lowest_score", "oldest_on_tie",
                         "score_accumulated", "request_aged", "pwc_counter_protects_entry",
                         "pwc_all_nonzero_plain_plru", "pwc_counter_saturated"});
    return r;
  }

 private:
  CoverageCounters& c_;
  FiredRules fired_;
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
