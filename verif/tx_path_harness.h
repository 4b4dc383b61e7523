// Lock-step harness of tx_path_NAME_sys (or _base_sys) against
// model::TxPathModel (docs/blocks/tx_path.md). The simulation top holds every
// SRAM, so its ports are the path's own: every output is compared every cycle,
// data fields included (ports from txgen/ports/tx_path.h; port conversion:
// tx_path_ports.h).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "cosim_util.h"
#include "tx_path_ports.h"
#include "model/tx_path.h"
#include "txgen/elab/tx_path.h"

namespace txgen::verif {

// Coverage of the path's rules, from the model's events.
class TxPathCoverage {
 public:
  TxPathCoverage(CoverageCounters& c, const elab::TxPathParams& p, bool base) : c_(c) {
    for (const auto& name : required(p, base, false)) c_.declare(name);
  }
  void count(const model::TxPathEvents& e) {
    const std::pair<bool, const char*> rules[] = {
        {e.lds_lookup_hit, "lds_lookup_hit"},
        {e.lds_lookup_miss, "lds_lookup_miss"},
        {e.ic_lookup_hit, "ic_lookup_hit"},
        {e.ic_lookup_miss, "ic_lookup_miss"},
        {e.l2_request, "l2_request"},
        {e.promotion_lds, "promotion_lds"},
        {e.promotion_ic, "promotion_ic"},
        {e.l2_fill, "l2_fill"},
        {e.credit_block, "credit_block"},
        {e.l1_victim_queued, "l1_victim_queued"},
        {e.victim_dropped_stale, "victim_dropped_stale"},
        {e.lds_victim_to_icache, "lds_victim_to_icache"},
        {e.icache_victim_to_l2, "icache_victim_to_l2"},
        {e.remove_lds, "remove_lds"},
        {e.remove_ic, "remove_ic"},
        {e.shootdown_done, "shootdown_done"},
        {e.wire_wait, "wire_wait"},
        {e.ret_overtakes, "ret_overtakes"},
        {e.spec_drop, "spec_drop"},
        {e.spec_early, "spec_early"},
        {e.l1_grant_wait, "l1_grant_wait"},
        {e.flow_1_2_4, "flow_1_2_4"},
        {e.flow_1_2_4_5_6, "flow_1_2_4_5_6"},
        {e.flow_1_2_3_6, "flow_1_2_3_6"},
        {e.flow_6_7_8, "flow_6_7_8"},
        {e.flow_6_7_8_10_11, "flow_6_7_8_10_11"},
        {e.flow_6_7_9_10, "flow_6_7_9_10"},
        {e.reset, "reset"}};
    fired_.count(c_, rules);
  }
  // What random traffic must reach on every configuration. With mixed
  // virtual functions and VMIDs a packed I-cache line (shared ids) drops
  // what does not match, so its LRU eviction is reached only without them.
  static std::vector<std::string> required(const elab::TxPathParams& p, bool base, bool mixed_ids) {
    if (base) return {"l2_request", "l2_fill", "shootdown_done", "reset"};
    std::vector<std::string> r = {"lds_lookup_hit", "lds_lookup_miss",  "ic_lookup_hit",   "ic_lookup_miss",
                                  "l2_request",     "promotion_lds",    "promotion_ic",    "l2_fill",
                                  "credit_block",   "l1_victim_queued", "victim_dropped_stale",
                                  "lds_victim_to_icache", "icache_victim_to_l2", "shootdown_done",
                                  "flow_1_2_4", "flow_1_2_4_5_6", "flow_1_2_3_6", "flow_6_7_8", "reset"};
    // a naive I-cache replaces instructions instead of bypassing them
    if (p.ic.variant == config::IcacheVariant::Aware) r.push_back("flow_6_7_9_10");
    if (p.move) {
      r.push_back("remove_lds");
      r.push_back("remove_ic");
    }
    if (p.wire_lds || p.wire_icache) r.push_back("wire_wait");
    if (p.slots > 1) r.push_back("ret_overtakes");  // a younger miss answered first
    if (p.speculative) {
      r.push_back("spec_drop");   // a promoted miss's L2 answer dropped
      r.push_back("spec_early");  // the L2 answered before the lookup below ended
    }
    if (p.cluster_cus > 1) r.push_back("l1_grant_wait");  // two CUs of a cluster with a fill at once
    // and only while the L1-TLBs sharing an I-cache cannot hold all 16 pages
    // whose tags compress into one line (Table 1's 4 x 32 entries can: there
    // the directed test covers it)
    const bool l1s_hold_a_line = p.l1.ways * p.sharers >= 16 && p.ic.tx_per_line > 1;
    if ((!mixed_ids || p.ic.tx_per_line == 1) && !l1s_hold_a_line) r.push_back("flow_6_7_8_10_11");
    return r;
  }

 private:
  CoverageCounters& c_;
  FiredRules fired_;
};

template <class Dut, bool kBase>
class TxPathHarness {
 public:
  TxPathHarness(CosimSession& s, const elab::TxPathParams& p)
      : s_(s), p_(p), model_(p, kBase), dut_(s, kBase ? "tx_path_base" : "tx_path"), cov_(s.coverage(), p, kBase),
        want_(model_.make_outputs()),
        tape_(bench_tape<TxPathHarness, model::TxPathIn>(s, p)) {}

  model::TxPathIn idle() const { return model_.idle_inputs(); }

  void drive(const model::TxPathIn& in) {
    in_ = in;
    checked_ = false;
    drive_rtl(in);
  }

  void drive_rtl(const model::TxPathIn& in) {
    dut_->clk_i = 0;
    Ports::drive(*dut_, p_, in);
    dut_->eval();
  }

  // Compares every output; returns the model's view (equal to the RTL's).
  const model::TxPathOut& check() {
    model_.outputs(in_, want_);
    checked_ = true;
    if constexpr (kBase) {
      TXGEN_COMPARE_PORTS(TXGEN_TX_PATH_BASE_PORTS, s_, *dut_, p_, want_);
    } else {
      TXGEN_COMPARE_PORTS(TXGEN_TX_PATH_PORTS, s_, *dut_, p_, want_);
    }
    return want_;
  }

  void rising_edge() {
    rtl_edge();
    if (checked_)
      model_.posedge_after_outputs(in_);  // in_ is set only by drive(), before check()
    else
      model_.posedge(in_);
    checked_ = false;
    cov_.count(model_.events());
    record(tape_, in_);
  }

  void rtl_edge() {
    dut_->clk_i = 1;
    dut_->eval();
  }

  void model_cycle(const model::TxPathIn& in) { model_.step(in, want_); }

  // step_alone's sequence, returning the compared outputs without a copy
  const model::TxPathOut& step(const model::TxPathIn& in) {
    drive(in);
    s_.sample();
    check();
    rising_edge();
    s_.sample();
    s_.end_cycle();
    return want_;
  }
  const model::TxPathModel& model() const { return model_; }

 private:
  using Ports = TxPathPorts<Dut, kBase>;

  CosimSession& s_;
  elab::TxPathParams p_;
  model::TxPathModel model_;
  SessionDut<Dut> dut_;
  TxPathCoverage cov_;
  model::TxPathIn in_;
  model::TxPathOut want_;
  bool checked_ = false;  // check() ran on in_ since drive()
  BenchTape<model::TxPathIn> tape_;
};

}  // namespace txgen::verif
