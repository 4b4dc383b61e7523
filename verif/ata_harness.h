// Lock-step harness of ata_NAME against model::AtaModel (docs/blocks/ata.md),
// bound through the port declaration (txgen/ports/ata.h).
// Every output, data fields included, is compared every cycle: the document
// defines the command and response registers in every cycle (they hold their
// last value while their valid is low).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "cosim_util.h"
#include "port_bind.h"
#include "model/ata.h"
#include "txgen/elab/ata.h"
#include "txgen/ports/ata.h"

namespace txgen::verif {

// Coverage of the block's rules, from the model's events (named where they
// are declared, model/ata.h).
class AtaCoverage {
 public:
  AtaCoverage(CoverageCounters& c, const elab::AtaParams&) : events_(c, rules()) {}
  void count(const model::AtaEvents& e) { events_.count(e); }
  static const std::vector<EventRule<model::AtaEvents>>& rules() {
    static const auto r = TXGEN_EVENT_RULES(model::AtaEvents, TXGEN_ATA_EVENTS);
    return r;
  }
  // What random traffic must reach. The remote rules need the aggregated
  // compare, two cores and traffic that shares lines; several holders need
  // three cores.
  static std::vector<std::string> required(const elab::AtaParams& p, bool remote_rules = true) {
    using E = model::AtaEvents;
    std::vector<bool E::*> r = {&E::local_hit,      &E::l2_read,           &E::write_hit,
                                &E::write_miss,     &E::fill_l2,           &E::victim_invalid,
                                &E::victim_replacement, &E::l2_backpressure, &E::reset};
    if (p.sectors > 1) r.push_back(&E::sector_fill);
    if (remote_rules && p.aggregated() && p.cores > 1) {
      r.insert(r.end(), {&E::local_hit_with_remote, &E::remote_read, &E::fill_remote, &E::recheck_fail_dirty,
                         &E::recheck_fail_evicted, &E::dirty_at_compare, &E::port_conflict, &E::port_owner_lost});
      if (p.cores > 2) r.push_back(&E::remote_pick_multi);
    }
    return event_names(rules(), r);
  }

 private:
  EventCounter<model::AtaEvents> events_;
};

template <class Dut>
class AtaHarness {
 public:
  AtaHarness(CosimSession& s, const elab::AtaParams& p)
      : s_(s), p_(p), model_(p), dut_(s, "ata"), cov_(s.coverage(), p), want_(model_.make_outputs()),
        tape_(bench_tape<AtaHarness, model::AtaIn>(s, p)) {}

  model::AtaIn idle() const { return model_.idle_inputs(); }

  void drive(const model::AtaIn& in) {
    in_ = in;
    drive_rtl(in);
  }

  void drive_rtl(const model::AtaIn& in) {
    Dut& d = *dut_;
    d.clk_i = 0;
    TXGEN_DRIVE_PORTS(TXGEN_ATA_PORTS, d, p_, in);
    d.eval();
  }

  // Compares every output; returns the model's view (equal to the RTL's).
  const model::AtaOut& check() {
    model_.outputs(in_, want_);
    TXGEN_COMPARE_PORTS(TXGEN_ATA_PORTS, s_, *dut_, p_, want_);
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

  void model_cycle(const model::AtaIn& in) {
    model_.outputs(in, want_);
    model_.posedge(in);
  }

  const model::AtaOut& step(const model::AtaIn& in) {
    drive(in);
    s_.sample();
    check();
    rising_edge();
    s_.sample();
    s_.end_cycle();
    return want_;
  }
  const model::AtaModel& model() const { return model_; }

 private:
  CosimSession& s_;
  elab::AtaParams p_;
  model::AtaModel model_;
  SessionDut<Dut> dut_;
  AtaCoverage cov_;
  model::AtaIn in_;
  model::AtaOut want_;
  BenchTape<model::AtaIn> tape_;
};

}  // namespace txgen::verif
