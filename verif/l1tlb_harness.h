// Lock-step harness of l1tlb_NAME against model::L1tlbModel
// (docs/blocks/l1tlb.md). Every output, data fields included, is compared
// every cycle: the document defines the output registers in every cycle (they
// hold their last value while their valid is low).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "cosim_util.h"
#include "model/l1tlb.h"
#include "port_bind.h"
#include "txgen/ports/l1tlb.h"
#include "txgen/elab/l1tlb.h"

namespace txgen::verif {

// Coverage of the block's rules, from the model's events.
class L1tlbCoverage {
 public:
  L1tlbCoverage(CoverageCounters& c, const elab::L1tlbParams& p) : events_(c, rules()) {
    for (const auto& name : required(p)) c.declare(name);
  }
  void count(const model::L1tlbEvents& e) { events_.count(e); }
  static const std::vector<EventRule<model::L1tlbEvents>>& rules() {
    static const auto r = TXGEN_EVENT_RULES(model::L1tlbEvents, TXGEN_L1TLB_EVENTS);
    return r;
  }
  // What random traffic must reach on every configuration. A crossbar
  // conflict needs two CUs per cluster.
  static std::vector<std::string> required(const elab::L1tlbParams& p) {
    using E = model::L1tlbEvents;
    std::vector<bool E::*> r = {&E::hit,           &E::lookup_miss_alloc,    &E::credit_block,
                                &E::l2_backpressure, &E::fill_suppressed,   &E::shootdown_one,
                                &E::shootdown_all,  &E::kill_pending,      &E::hit_and_fill_same_cu,
                                &E::victim_invalid, &E::victim_replacement, &E::evict,
                                &E::reset};
    if (p.cus_per_cluster > 1) r.push_back(&E::xbar_conflict);
    // one MSHR: the credit admits no request while it is pending, so nothing merges
    if (p.mshrs > 1) r.insert(r.end(), {&E::mshr_merge, &E::merge_repeat_same_cu});
    // the queues' order differs from the lowest index only after out-of-order frees
    if (p.mshr_fifo) r.insert(r.end(), {&E::alloc_not_lowest, &E::send_not_lowest});
    return event_names(rules(), r);
  }

 private:
  EventCounter<model::L1tlbEvents> events_;
};

template <class Dut>
class L1tlbHarness {
 public:
  L1tlbHarness(CosimSession& s, const elab::L1tlbParams& p)
      : s_(s), p_(p), model_(p), dut_(s, "l1tlb"), cov_(s.coverage(), p), want_(model_.make_outputs()),
        tape_(bench_tape<L1tlbHarness, model::L1tlbIn>(s, p)) {}

  model::L1tlbIn idle() const { return model_.idle_inputs(); }

  void drive(const model::L1tlbIn& in) {
    in_ = in;
    drive_rtl(in);
  }

  void drive_rtl(const model::L1tlbIn& in) {
    Dut& d = *dut_;
    d.clk_i = 0;
    TXGEN_DRIVE_PORTS(TXGEN_L1TLB_PORTS, d, p_, in);
    d.eval();
  }

  // Compares every output; returns the model's view (equal to the RTL's).
  const model::L1tlbOut& check() {
    model_.outputs(in_, want_);
    TXGEN_COMPARE_PORTS(TXGEN_L1TLB_PORTS, s_, *dut_, p_, want_);
    return want_;
  }

  void rising_edge() {
    rtl_edge();
    model_.posedge(in_);
    cov_.count(model_.events());
    record(tape_, in_);
  }

  void rtl_edge() {
    dut_->clk_i = 1;
    dut_->eval();
  }

  void model_cycle(const model::L1tlbIn& in) {
    model_.outputs(in, want_);
    model_.posedge(in);
  }

  // step_alone's sequence, returning the compared outputs without a copy
  const model::L1tlbOut& step(const model::L1tlbIn& in) {
    drive(in);
    s_.sample();
    check();
    rising_edge();
    s_.sample();
    s_.end_cycle();
    return want_;
  }
  const model::L1tlbModel& model() const { return model_; }

 private:
  CosimSession& s_;
  elab::L1tlbParams p_;
  model::L1tlbModel model_;
  SessionDut<Dut> dut_;
  L1tlbCoverage cov_;
  model::L1tlbIn in_;
  model::L1tlbOut want_;
  BenchTape<model::L1tlbIn> tape_;
};

}  // namespace txgen::verif
