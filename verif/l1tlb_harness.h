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
#include "txgen/elab/l1tlb.h"

namespace txgen::verif {

// Coverage of the block's rules, from the model's events.
class L1tlbCoverage {
 public:
  L1tlbCoverage(CoverageCounters& c, const elab::L1tlbParams& p) : c_(c) {
    for (const auto& name : required(p)) c_.declare(name);
  }
  void count(const model::L1tlbEvents& e) {
    const std::pair<bool, const char*> rules[] = {
        {e.hit, "hit"},
        {e.lookup_miss_alloc, "lookup_miss_alloc"},
        {e.mshr_merge, "mshr_merge"},
        {e.merge_repeat_same_cu, "merge_repeat_same_cu"},
        {e.merge_at_write_edge, "merge_at_write_edge"},
        {e.fill_patch_at_compare, "fill_patch_at_compare"},
        {e.credit_block, "credit_block"},
        {e.xbar_conflict, "xbar_conflict"},
        {e.l2_backpressure, "l2_backpressure"},
        {e.fill_suppressed, "fill_suppressed"},
        {e.shootdown_one, "shootdown_one"},
        {e.shootdown_all, "shootdown_all"},
        {e.kill_pending, "kill_pending"},
        {e.hit_and_fill_same_cu, "hit_and_fill_same_cu"},
        {e.victim_invalid, "victim_invalid"},
        {e.victim_replacement, "victim_replacement"},
        {e.evict, "evict"},
        {e.reset, "reset"},
        {e.alloc_not_lowest, "alloc_not_lowest"},
        {e.send_not_lowest, "send_not_lowest"}};
    fired_.count(c_, rules);
  }
  // What random traffic must reach on every configuration. A crossbar
  // conflict needs two CUs per cluster.
  static std::vector<std::string> required(const elab::L1tlbParams& p) {
    std::vector<std::string> r = {"hit", "lookup_miss_alloc", "credit_block", "l2_backpressure",
                                  "fill_suppressed", "shootdown_one", "shootdown_all", "kill_pending",
                                  "hit_and_fill_same_cu", "victim_invalid", "victim_replacement", "evict", "reset"};
    if (p.cus_per_cluster > 1) r.push_back("xbar_conflict");
    // one MSHR: the credit admits no request while it is pending, so nothing merges
    if (p.mshrs > 1) r.insert(r.end(), {"mshr_merge", "merge_repeat_same_cu"});
    // the queues' order differs from the lowest index only after out-of-order frees
    if (p.mshr_fifo) r.insert(r.end(), {"alloc_not_lowest", "send_not_lowest"});
    return r;
  }

 private:
  CoverageCounters& c_;
  FiredRules fired_;
};

template <class Dut>
class L1tlbHarness {
 public:
  L1tlbHarness(CosimSession& s, const elab::L1tlbParams& p)
      : s_(s), p_(p), model_(p), dut_(s, "l1tlb"), cov_(s.coverage(), p), want_(model_.make_outputs()),
        got_(model_.make_outputs()), tape_(bench_tape<L1tlbHarness, model::L1tlbIn>(s, p)) {}

  model::L1tlbIn idle() const { return model_.idle_inputs(); }

  void drive(const model::L1tlbIn& in) {
    in_ = in;
    drive_rtl(in);
  }

  void drive_rtl(const model::L1tlbIn& in) {
    Dut& d = *dut_;
    d.clk_i = 0;
    d.rst_ni = in.rst_n;
    flags_to_port(d.req_valid_i, in.req_valid);
    entries_to_port(d.req_vpn_i, in.req_vpn, p_.vpn_bits);
    entries_to_port(d.req_vmid_i, in.req_vmid, p_.vmid_bits);
    flags_to_port(d.l2_req_ready_i, in.l2_req_ready);
    flags_to_port(d.l2_resp_valid_i, in.l2_resp_valid);
    entries_to_port(d.l2_resp_tag_i, in.l2_resp_tag, p_.l2_tag_bits);
    entries_to_port(d.l2_resp_ppn_i, in.l2_resp_ppn, p_.ppn_bits);
    entries_to_port(d.l2_resp_perm_i, in.l2_resp_perm, p_.perm_bits);
    d.sd_valid_i = in.sd_valid;
    d.sd_all_i = in.sd_all;
    to_port(d.sd_vpn_i, p_.vpn_bits, in.sd_vpn);
    to_port(d.sd_vmid_i, p_.vmid_bits, in.sd_vmid);
    d.eval();
  }

  // Compares every output; returns the model's view (equal to the RTL's).
  const model::L1tlbOut& check() {
    model_.outputs(in_, want_);
    const Dut& d = *dut_;
    const unsigned u = p_.cus, c = p_.clusters;
    flags_of(d.req_ready_o, u, got_.req_ready);
    compare_flags("req_ready_o", want_.req_ready, got_.req_ready);
    flags_of(d.resp_valid_o, u, got_.resp_valid);
    compare_flags("resp_valid_o", want_.resp_valid, got_.resp_valid);
    compare_fields("resp_vpn_o", d.resp_vpn_o, p_.vpn_bits, want_.resp_vpn);
    compare_fields("resp_vmid_o", d.resp_vmid_o, p_.vmid_bits, want_.resp_vmid);
    compare_fields("resp_ppn_o", d.resp_ppn_o, p_.ppn_bits, want_.resp_ppn);
    compare_fields("resp_perm_o", d.resp_perm_o, p_.perm_bits, want_.resp_perm);
    flags_of(d.fill_valid_o, u, got_.fill_valid);
    compare_flags("fill_valid_o", want_.fill_valid, got_.fill_valid);
    compare_fields("fill_vpn_o", d.fill_vpn_o, p_.vpn_bits, want_.fill_vpn);
    compare_fields("fill_vmid_o", d.fill_vmid_o, p_.vmid_bits, want_.fill_vmid);
    compare_fields("fill_ppn_o", d.fill_ppn_o, p_.ppn_bits, want_.fill_ppn);
    compare_fields("fill_perm_o", d.fill_perm_o, p_.perm_bits, want_.fill_perm);
    flags_of(d.l2_req_valid_o, c, got_.l2_req_valid);
    compare_flags("l2_req_valid_o", want_.l2_req_valid, got_.l2_req_valid);
    compare_fields("l2_req_vpn_o", d.l2_req_vpn_o, p_.vpn_bits, want_.l2_req_vpn);
    compare_fields("l2_req_vmid_o", d.l2_req_vmid_o, p_.vmid_bits, want_.l2_req_vmid);
    compare_fields("l2_req_tag_o", d.l2_req_tag_o, p_.l2_tag_bits, want_.l2_req_tag);
    flags_of(d.evict_valid_o, c, got_.evict_valid);
    compare_flags("evict_valid_o", want_.evict_valid, got_.evict_valid);
    compare_fields("evict_vpn_o", d.evict_vpn_o, p_.vpn_bits, want_.evict_vpn);
    compare_fields("evict_vmid_o", d.evict_vmid_o, p_.vmid_bits, want_.evict_vmid);
    compare_fields("evict_ppn_o", d.evict_ppn_o, p_.ppn_bits, want_.evict_ppn);
    compare_fields("evict_perm_o", d.evict_perm_o, p_.perm_bits, want_.evict_perm);
    compare_bit(s_, "sd_ready_o", want_.sd_ready, d.sd_ready_o);
    compare_bit(s_, "sd_done_o", want_.sd_done, d.sd_done_o);
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
  template <typename Port>
  static void flags_of(const Port& port, unsigned n, std::vector<uint8_t>& out) {
    out.resize(n);
    entries_from_port(port, 1, out);
  }
  void compare_flags(const char* signal, const std::vector<uint8_t>& want, const std::vector<uint8_t>& got) {
    if (want != got) s_.fail(signal, to_hex(pack_flags(want)), to_hex(pack_flags(got)));
  }
  template <typename Port>
  void compare_fields(const char* signal, const Port& port, unsigned bits, const std::vector<uint64_t>& want) {
    const unsigned n = static_cast<unsigned>(want.size());
    check_port_width(n * bits, port_bits<Port>());
    for (unsigned i = 0; i < n; ++i) {
      const uint64_t g = port_field(port, i * bits, bits);
      if (g != want[i])
        s_.fail(signal, to_hex(bits, want[i]), to_hex(bits, g), "element " + std::to_string(i));
    }
  }

  CosimSession& s_;
  elab::L1tlbParams p_;
  model::L1tlbModel model_;
  SessionDut<Dut> dut_;
  L1tlbCoverage cov_;
  model::L1tlbIn in_;
  model::L1tlbOut want_, got_;
  BenchTape<model::L1tlbIn> tape_;
};

}  // namespace txgen::verif
