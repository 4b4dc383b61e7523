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

// Coverage of the block's rules, from the model's events.
class AtaCoverage {
 public:
  AtaCoverage(CoverageCounters& c, const elab::AtaParams& p) : c_(c) {
    for (const auto& name : required(p)) c_.declare(name);
  }
  void count(const model::AtaEvents& e) {
    const std::pair<bool, const char*> rules[] = {
        {e.local_hit, "local_hit"},
        {e.local_hit_with_remote, "local_hit_with_remote"},
        {e.remote_read, "remote_read"},
        {e.l2_read, "l2_read"},
        {e.write_hit, "write_hit"},
        {e.write_miss, "write_miss"},
        {e.fill_remote, "fill_remote"},
        {e.fill_l2, "fill_l2"},
        {e.sector_fill, "sector_fill"},
        {e.recheck_fail_dirty, "recheck_fail_dirty"},
        {e.recheck_fail_evicted, "recheck_fail_evicted"},
        {e.dirty_at_compare, "dirty_at_compare"},
        {e.port_conflict, "port_conflict"},
        {e.port_owner_lost, "port_owner_lost"},
        {e.remote_pick_multi, "remote_pick_multi"},
        {e.victim_invalid, "victim_invalid"},
        {e.victim_replacement, "victim_replacement"},
        {e.l2_backpressure, "l2_backpressure"},
        {e.reset, "reset"}};
    fired_.count(c_, rules);
  }
  // What random traffic must reach. The remote rules need the aggregated
  // compare, two cores and traffic that shares lines; several holders need
  // three cores.
  static std::vector<std::string> required(const elab::AtaParams& p, bool remote_rules = true) {
    std::vector<std::string> r = {"local_hit", "l2_read",           "write_hit",          "write_miss",
                                  "fill_l2",   "victim_invalid",    "victim_replacement", "l2_backpressure",
                                  "reset"};
    if (p.sectors > 1) r.push_back("sector_fill");
    if (remote_rules && p.aggregated() && p.cores > 1) {
      for (const char* n : {"local_hit_with_remote", "remote_read", "fill_remote", "recheck_fail_dirty",
                            "recheck_fail_evicted", "dirty_at_compare", "port_conflict", "port_owner_lost"})
        r.push_back(n);
      if (p.cores > 2) r.push_back("remote_pick_multi");
    }
    return r;
  }

 private:
  CoverageCounters& c_;
  FiredRules fired_;
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
