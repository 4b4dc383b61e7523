// Lock-step harness of icache_tx_NAME_sys (controller + tag and data SRAMs)
// and icache_tx_NAME_base_sys (baseline + SRAMs) against model::IcacheTxModel
// (docs/blocks/icache_tx.md). Each cycle: drive, settle, compare every output
// with the model's outputs(), rising edge on both, count coverage from the
// model's events.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "cosim_util.h"
#include "model/icache_tx.h"
#include "txgen/elab/icache_tx.h"

namespace txgen::verif {

class IcacheCoverage {
 public:
  explicit IcacheCoverage(CoverageCounters& counters) : counters_(counters) {
    for (const auto& [name, flag] : flags()) ids_.push_back(counters_.declare(name));
    reset_ = counters_.declare("reset_cycles");
  }

  void count(const model::IcacheTxIn& in, const model::IcacheTxEvents& ev) {
    const auto& f = flags();
    for (std::size_t i = 0; i < f.size(); ++i)
      if (ev.*(f[i].second)) counters_.hit(ids_[i]);
    if (!in.rst_n) counters_.hit(reset_);
  }

  // The rules random traffic must reach on a configuration (variant-specific
  // rules only where the variant has them). The clobber flag needs an
  // instruction fill to pick the engine's very line in a 3-cycle window; a
  // directed test reaches it (InstructionFillCancelsTheTranslationWrite).
  static std::vector<std::string> required(const elab::IcacheTxParams& p, bool baseline) {
    std::vector<std::string> names = {"fetch_hit", "fetch_miss", "ifill_took_invalid", "ifill_evicted_ic",
                                      "ifill_victim_stale", "flush", "reset_cycles"};
    if (baseline) return names;
    const bool naive = p.variant == config::IcacheVariant::Naive;
    names.insert(names.end(), {"ifill_evicted_tx", "lookup_miss_not_tx", "lookup_hit", "lookup_miss_tx",
                               "fill_init_invalid", "fill_into_tx", "fill_replaced_same", "fill_evicted_lru",
                               "engine_port_wait", "victim_out", "victim_stalled", "sd_all",
                               "sd_vpn_hit", "sd_emptied_line", "resp_stalled"});
    names.push_back(naive ? "fill_init_over_ic" : "fill_bypass_ic");
    if (p.kernel_flush) names.push_back("flush_kept_tx");
    if (p.packed()) names.push_back("fill_dropped");
    if (p.groups > 1) names.push_back("lookup_hit_late_group");
    if (naive) names.push_back("ifill_evicted_ic_over_tx");
    return names;
  }

 private:
  using Flag = bool model::IcacheTxEvents::*;
  static const std::vector<std::pair<std::string, Flag>>& flags() {
    using E = model::IcacheTxEvents;
    static const std::vector<std::pair<std::string, Flag>> f = {
        {"fetch_hit", &E::fetch_hit},
        {"fetch_miss", &E::fetch_miss},
        {"ifill_took_invalid", &E::ifill_took_invalid},
        {"ifill_evicted_tx", &E::ifill_evicted_tx},
        {"ifill_evicted_ic", &E::ifill_evicted_ic},
        {"ifill_evicted_ic_over_tx", &E::ifill_evicted_ic_over_tx},
        {"ifill_victim_stale", &E::ifill_victim_stale},
        {"flush", &E::flush},
        {"flush_kept_tx", &E::flush_kept_tx},
        {"lookup_miss_not_tx", &E::lookup_miss_not_tx},
        {"lookup_hit", &E::lookup_hit},
        {"lookup_miss_tx", &E::lookup_miss_tx},
        {"lookup_hit_late_group", &E::lookup_hit_late_group},
        {"fill_bypass_ic", &E::fill_bypass_ic},
        {"fill_init_invalid", &E::fill_init_invalid},
        {"fill_init_over_ic", &E::fill_init_over_ic},
        {"fill_into_tx", &E::fill_into_tx},
        {"fill_replaced_same", &E::fill_replaced_same},
        {"fill_evicted_lru", &E::fill_evicted_lru},
        {"fill_dropped", &E::fill_dropped},
        {"clobbered", &E::clobbered},
        {"engine_port_wait", &E::engine_port_wait},
        {"victim_out", &E::victim_out},
        {"victim_stalled", &E::victim_stalled},
        {"sd_all", &E::sd_all},
        {"sd_vpn_hit", &E::sd_vpn_hit},
        {"sd_emptied_line", &E::sd_emptied_line},
        {"resp_stalled", &E::resp_stalled}};
    return f;
  }

  CoverageCounters& counters_;
  std::vector<CoverageCounters::Id> ids_;
  CoverageCounters::Id reset_;
};

template <class Dut, bool Baseline = false>
class IcacheHarness {
 public:
  IcacheHarness(CosimSession& session, const elab::IcacheTxParams& p)
      : session_(session),
        p_(p),
        model_(p, Baseline),
        dut_(session, Baseline ? "base_sys" : "sys"),
        coverage_(session.coverage()),
        tape_(bench_tape<IcacheHarness, model::IcacheTxIn>(session, p)) {}

  void drive(const model::IcacheTxIn& in) {
    in_ = in;
    drive_rtl(in);
  }

  void drive_rtl(const model::IcacheTxIn& in) {
    Dut& d = *dut_;
    d.clk_i = 0;
    d.rst_ni = in.rst_n;
    d.if_valid_i = in.if_valid;
    d.if_addr_i = in.if_addr;
    d.ifill_valid_i = in.ifill_valid;
    d.ifill_addr_i = in.ifill_addr;
    to_port(d.ifill_data_i, in.ifill_data);
    d.flush_valid_i = in.flush_valid;
    if constexpr (!Baseline) drive_translation_ports(in);
    d.eval();
  }

  model::IcacheTxOut dut_outputs() const {
    model::IcacheTxOut o;
    dut_outputs(o);
    return o;
  }
  void dut_outputs(model::IcacheTxOut& o) const {
    const Dut& d = *dut_;
    o.if_ready = d.if_ready_o;
    o.if_resp_valid = d.if_resp_valid_o;
    o.if_resp_hit = d.if_resp_hit_o;
    from_port(d.if_resp_data_o, p_.line_bits, o.if_resp_data);
    o.ifill_ready = d.ifill_ready_o;
    o.flush_ready = d.flush_ready_o;
    o.flush_done = d.flush_done_o;
    o.tag_en = d.tag_en_o;
    o.tag_we = d.tag_we_o;
    o.tag_set = d.tag_set_o;
    o.tag_way_en = d.tag_way_en_o;
    from_port(d.tag_wdata_o, p_.ways * entry_bits(), o.tag_wdata);
    o.data_en = d.data_en_o;
    o.data_we = d.data_we_o;
    o.data_line = d.data_line_o;
    from_port(d.data_wdata_o, p_.line_bits, o.data_wdata);
    if constexpr (!Baseline) read_translation_ports(o);
  }

  // Compares every output; returns the DUT's (kept until the next check).
  const model::IcacheTxOut& check() {
    model_.outputs(in_, want_);
    dut_outputs(got_);
    compare_instruction_side(want_, got_);
    compare_srams(want_, got_);
    if constexpr (!Baseline) compare_translation_side(want_, got_);
    return got_;
  }

  void rising_edge() {
    tags_.count(got_.tag_en, got_.tag_we);
    data_.count(got_.data_en, got_.data_we);
    rtl_edge();
    model_.posedge(in_);
    tags_.compare(session_, model_.tag_accesses());
    data_.compare(session_, model_.data_accesses());
    coverage_.count(in_, model_.events());
    record(tape_, in_);
  }

  void rtl_edge() {
    dut_->clk_i = 1;
    dut_->eval();
  }

  void model_cycle(const model::IcacheTxIn& in) {
    model_.outputs(in, want_);
    model_.posedge(in);
  }

  const model::IcacheTxOut& step(const model::IcacheTxIn& in) { return step_alone(*this, session_, in); }
  const model::IcacheTxModel& model() const { return model_; }
  const elab::IcacheTxParams& params() const { return p_; }
  CosimSession& session() { return session_; }

 private:
  unsigned entry_bits() const { return Baseline ? p_.base_tag_bits : p_.entry_bits; }

  void drive_translation_ports(const model::IcacheTxIn& in) {
    Dut& d = *dut_;
    flags_to_port(d.tl_valid_i, in.tl_valid);
    entries_to_port(d.tl_vpn_i, in.tl_vpn, p_.vpn_bits);
    entries_to_port(d.tl_vmid_i, in.tl_vmid, p_.vmid_bits);
    entries_to_port(d.tl_vrf_i, in.tl_vrf, p_.vrf_bits);
    d.tl_resp_ready_i = in.tl_resp_ready;
    flags_to_port(d.tf_valid_i, in.tf_valid);
    entries_to_port(d.tf_vpn_i, in.tf_vpn, p_.vpn_bits);
    entries_to_port(d.tf_vmid_i, in.tf_vmid, p_.vmid_bits);
    entries_to_port(d.tf_vrf_i, in.tf_vrf, p_.vrf_bits);
    entries_to_port(d.tf_ppn_i, in.tf_ppn, p_.ppn_bits);
    entries_to_port(d.tf_perm_i, in.tf_perm, p_.perm_bits);
    d.vic_ready_i = in.vic_ready;
    d.sd_valid_i = in.sd_valid;
    d.sd_all_i = in.sd_all;
    d.sd_vpn_i = in.sd_vpn;
    d.sd_vmid_i = in.sd_vmid;
  }

  void read_translation_ports(model::IcacheTxOut& o) const {
    const Dut& d = *dut_;
    o.tl_ready.resize(p_.sharers);
    o.tf_ready.resize(p_.sharers);
    entries_from_port(d.tl_ready_o, 1, o.tl_ready);
    entries_from_port(d.tf_ready_o, 1, o.tf_ready);
    o.tl_resp_valid = d.tl_resp_valid_o;
    o.tl_resp_cu = d.tl_resp_cu_o;
    o.tl_resp_hit = d.tl_resp_hit_o;
    o.tl_resp_ppn = d.tl_resp_ppn_o;
    o.tl_resp_perm = d.tl_resp_perm_o;
    o.vic_valid = d.vic_valid_o;
    o.vic_vpn = d.vic_vpn_o;
    o.vic_vmid = d.vic_vmid_o;
    o.vic_vrf = d.vic_vrf_o;
    o.vic_ppn = d.vic_ppn_o;
    o.vic_perm = d.vic_perm_o;
    o.sd_ready = d.sd_ready_o;
    o.sd_done = d.sd_done_o;
  }

  void compare_instruction_side(const model::IcacheTxOut& want, const model::IcacheTxOut& got) {
    compare_bit(session_, "if_ready_o", want.if_ready, got.if_ready);
    compare_bit(session_, "if_resp_valid_o", want.if_resp_valid, got.if_resp_valid);
    compare_bit(session_, "if_resp_hit_o", want.if_resp_hit, got.if_resp_hit);
    compare_bits(session_, "if_resp_data_o", want.if_resp_data, got.if_resp_data);
    compare_bit(session_, "ifill_ready_o", want.ifill_ready, got.ifill_ready);
    compare_bit(session_, "flush_ready_o", want.flush_ready, got.flush_ready);
    compare_bit(session_, "flush_done_o", want.flush_done, got.flush_done);
  }

  // Addresses and enables matter only with en, data only with we.
  void compare_srams(const model::IcacheTxOut& want, const model::IcacheTxOut& got) {
    compare_bit(session_, "tag_en_o", want.tag_en, got.tag_en);
    compare_bit(session_, "tag_we_o", want.tag_we, got.tag_we);
    if (want.tag_en) {
      compare_u64(session_, "tag_set_o", p_.set_bits, want.tag_set, got.tag_set);
      compare_u64(session_, "tag_way_en_o", p_.ways, want.tag_way_en, got.tag_way_en);
    }
    if (want.tag_we) compare_bits(session_, "tag_wdata_o", want.tag_wdata, got.tag_wdata);
    compare_bit(session_, "data_en_o", want.data_en, got.data_en);
    compare_bit(session_, "data_we_o", want.data_we, got.data_we);
    if (want.data_en) compare_u64(session_, "data_line_o", p_.line_index_bits, want.data_line, got.data_line);
    if (want.data_we) compare_bits(session_, "data_wdata_o", want.data_wdata, got.data_wdata);
  }

  void compare_translation_side(const model::IcacheTxOut& want, const model::IcacheTxOut& got) {
    compare_bits(session_, "tl_ready_o", pack_flags(want.tl_ready), pack_flags(got.tl_ready));
    compare_bits(session_, "tf_ready_o", pack_flags(want.tf_ready), pack_flags(got.tf_ready));
    compare_bit(session_, "tl_resp_valid_o", want.tl_resp_valid, got.tl_resp_valid);
    compare_u64(session_, "tl_resp_cu_o", p_.cu_bits, want.tl_resp_cu, got.tl_resp_cu);
    compare_bit(session_, "tl_resp_hit_o", want.tl_resp_hit, got.tl_resp_hit);
    compare_u64(session_, "tl_resp_ppn_o", p_.ppn_bits, want.tl_resp_ppn, got.tl_resp_ppn);
    compare_u64(session_, "tl_resp_perm_o", p_.perm_bits, want.tl_resp_perm, got.tl_resp_perm);
    compare_bit(session_, "vic_valid_o", want.vic_valid, got.vic_valid);
    compare_u64(session_, "vic_vpn_o", p_.vpn_bits, want.vic_vpn, got.vic_vpn);
    compare_u64(session_, "vic_vmid_o", p_.vmid_bits, want.vic_vmid, got.vic_vmid);
    compare_u64(session_, "vic_vrf_o", p_.vrf_bits, want.vic_vrf, got.vic_vrf);
    compare_u64(session_, "vic_ppn_o", p_.ppn_bits, want.vic_ppn, got.vic_ppn);
    compare_u64(session_, "vic_perm_o", p_.perm_bits, want.vic_perm, got.vic_perm);
    compare_bit(session_, "sd_ready_o", want.sd_ready, got.sd_ready);
    compare_bit(session_, "sd_done_o", want.sd_done, got.sd_done);
  }

  CosimSession& session_;
  elab::IcacheTxParams p_;
  model::IcacheTxModel model_;
  SessionDut<Dut> dut_;
  IcacheCoverage coverage_;
  BenchTape<model::IcacheTxIn> tape_;
  model::IcacheTxIn in_;
  model::IcacheTxOut want_, got_;
  SramAccessCheck tags_{"tag array accesses (model counter vs tag_en_o)"};
  SramAccessCheck data_{"data array accesses (model counter vs data_en_o)"};
};

}  // namespace txgen::verif
