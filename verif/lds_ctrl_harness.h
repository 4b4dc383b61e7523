// Lock-step harness of lds_ctrl_NAME_sys (controller + behavioural SRAM) and
// lds_ctrl_NAME_base_sys (baseline + SRAM) against model::LdsCtrlModel
// (docs/blocks/lds_ctrl.md). Each cycle: drive, settle, compare every output
// with the model's outputs(), rising edge on both, count coverage from the
// model's events. Templates over the Verilated classes.
#pragma once

#include <string>
#include <vector>

#include "cosim_util.h"
#include "model/lds_ctrl.h"
#include "txgen/elab/lds_ctrl.h"

namespace txgen::verif {

// ---------------------------------------------------------------------------
// Coverage of the behaviours the document names, from the model's events.

class LdsCoverage {
 public:
  explicit LdsCoverage(CoverageCounters& counters) : counters_(counters) {
    for (const auto& [name, flag] : flags()) ids_.push_back(counters_.declare(name));
    resp_stalled_ = counters_.declare("lookup_response_backpressured");
    app_read_ = counters_.declare("app_read");
    app_write_ = counters_.declare("app_write");
    reset_ = counters_.declare("reset_cycles");
  }

  void count(const model::LdsCtrlIn& in, const model::LdsCtrlOut& out, const model::LdsCtrlEvents& ev) {
    const auto& f = flags();
    for (std::size_t i = 0; i < f.size(); ++i)
      if (ev.*(f[i].second)) counters_.hit(ids_[i]);
    if (!in.rst_n) counters_.hit(reset_);
    if (out.lk_resp_valid && !in.lk_resp_ready) counters_.hit(resp_stalled_);
    if (in.app_valid) counters_.hit(in.app_we ? app_write_ : app_read_);
  }

  // Every behaviour the document names; each must be reached by random traffic.
  static std::vector<std::string> required() {
    std::vector<std::string> names;
    for (const auto& [name, flag] : flags()) names.push_back(name);
    names.insert(names.end(), {"lookup_response_backpressured", "app_read", "app_write", "reset_cycles"});
    return names;
  }

 private:
  using Flag = bool model::LdsCtrlEvents::*;
  static const std::vector<std::pair<std::string, Flag>>& flags() {
    using E = model::LdsCtrlEvents;
    static const std::vector<std::pair<std::string, Flag>> f = {
        {"lookup_bypass_lds_mode", &E::lookup_bypass},  {"lookup_hit", &E::lookup_hit},
        {"lookup_miss_tx_mode", &E::lookup_miss},       {"fill_bypass_allocated", &E::fill_bypass},
        {"fill_init_free_segment", &E::fill_init},      {"fill_update_present", &E::fill_update},
        {"fill_insert_invalid_way", &E::fill_insert_invalid},
        {"fill_evict_lru", &E::fill_evict_lru},         {"fill_compression_drop", &E::fill_dropped},
        {"write_cancelled_by_app", &E::write_cancelled}, {"write_stalled_by_app", &E::write_stalled},
        {"shootdown_vpn_hit", &E::sd_vpn_hit},          {"shootdown_vpn_miss", &E::sd_vpn_miss},
        {"shootdown_all", &E::sd_all},                  {"alloc", &E::alloc},
        {"alloc_over_tx_segment", &E::alloc_over_tx},   {"free", &E::free_op},
        {"app_write_over_tx_segment", &E::app_write_over_tx},
        {"victim_out", &E::victim_out},                 {"victim_backpressured", &E::victim_stalled}};
    return f;
  }

  CoverageCounters& counters_;
  std::vector<CoverageCounters::Id> ids_;
  CoverageCounters::Id resp_stalled_, app_read_, app_write_, reset_;
};

// ---------------------------------------------------------------------------
// Port access shared by both tops (application and SRAM observation ports).

template <class Dut>
void drive_app_ports(Dut& dut, const model::LdsCtrlIn& in, const elab::LdsCtrlParams& p) {
  dut.rst_ni = in.rst_n;
  dut.app_valid_i = in.app_valid;
  dut.app_we_i = in.app_we;
  dut.app_row_i = in.app_row;
  to_port(dut.app_bank_en_i, p.banks, in.app_bank_en);
  to_port(dut.app_wdata_i, in.app_wdata);
}

template <class Dut>
void read_app_ports(const Dut& dut, model::LdsCtrlOut& out, const elab::LdsCtrlParams& p) {
  out.app_rvalid = dut.app_rvalid_o;
  from_port(dut.app_rdata_o, p.row_bits, out.app_rdata);
  out.sram_en = dut.sram_en_o;
  out.sram_we = dut.sram_we_o;
  out.sram_row = dut.sram_row_o;
  out.sram_bank_en = from_port(dut.sram_bank_en_o, p.banks).field(0, p.banks);
  from_port(dut.sram_wdata_o, p.row_bits, out.sram_wdata);
}

inline void compare_app_ports(CosimSession& s, const model::LdsCtrlOut& want,
                              const model::LdsCtrlOut& got, const elab::LdsCtrlParams& p) {
  compare_bit(s, "app_rvalid_o", want.app_rvalid, got.app_rvalid);
  compare_bits(s, "app_rdata_o", want.app_rdata, got.app_rdata);
  compare_bit(s, "sram_en_o", want.sram_en, got.sram_en);
  compare_bit(s, "sram_we_o", want.sram_we, got.sram_we);
  // Address and bank enables matter only with en, data only with we (the
  // document leaves them free otherwise).
  if (want.sram_en) {
    compare_u64(s, "sram_row_o", p.row_index_bits, want.sram_row, got.sram_row);
    compare_u64(s, "sram_bank_en_o", p.banks, want.sram_bank_en, got.sram_bank_en);
  }
  if (want.sram_we) compare_bits(s, "sram_wdata_o", want.sram_wdata, got.sram_wdata);
}

inline void compare_translation_ports(CosimSession& s, const model::LdsCtrlOut& want,
                                      const model::LdsCtrlOut& got, const elab::LdsCtrlParams& p) {
  compare_bit(s, "wg_ready_o", want.wg_ready, got.wg_ready);
  compare_bit(s, "wg_done_o", want.wg_done, got.wg_done);
  compare_bit(s, "sd_ready_o", want.sd_ready, got.sd_ready);
  compare_bit(s, "sd_done_o", want.sd_done, got.sd_done);
  compare_bit(s, "lk_ready_o", want.lk_ready, got.lk_ready);
  compare_bit(s, "lk_resp_valid_o", want.lk_resp_valid, got.lk_resp_valid);
  compare_bit(s, "lk_resp_hit_o", want.lk_resp_hit, got.lk_resp_hit);
  compare_u64(s, "lk_resp_ppn_o", p.ppn_bits, want.lk_resp_ppn, got.lk_resp_ppn);
  compare_u64(s, "lk_resp_perm_o", p.perm_bits, want.lk_resp_perm, got.lk_resp_perm);
  compare_bit(s, "fill_ready_o", want.fill_ready, got.fill_ready);
  compare_bit(s, "vic_valid_o", want.vic_valid, got.vic_valid);
  compare_u64(s, "vic_vpn_o", p.vpn_bits, want.vic_vpn, got.vic_vpn);
  compare_u64(s, "vic_vmid_o", p.vmid_bits, want.vic_vmid, got.vic_vmid);
  compare_u64(s, "vic_vrf_o", p.vrf_bits, want.vic_vrf, got.vic_vrf);
  compare_u64(s, "vic_ppn_o", p.ppn_bits, want.vic_ppn, got.vic_ppn);
  compare_u64(s, "vic_perm_o", p.perm_bits, want.vic_perm, got.vic_perm);
}

// ---------------------------------------------------------------------------
// The two tops. Baseline = true compares only the application and SRAM ports
// (the baseline has no translation ports; the model sees no translation traffic).

template <class Dut, bool Baseline = false>
class LdsHarness {
 public:
  LdsHarness(CosimSession& session, const elab::LdsCtrlParams& p)
      : session_(session),
        p_(p),
        model_(p),
        dut_(session, Baseline ? "base_sys" : "sys"),
        coverage_(session.coverage()),
        tape_(bench_tape<LdsHarness, model::LdsCtrlIn>(session, p)) {}

  void drive(const model::LdsCtrlIn& in) {
    in_ = in;
    if constexpr (Baseline) clear_translation_inputs(in_);
    drive_rtl(in_);
  }

  void drive_rtl(const model::LdsCtrlIn& in) {
    dut_->clk_i = 0;
    drive_app_ports(*dut_, in, p_);
    if constexpr (!Baseline) drive_translation_ports(in);
    dut_->eval();
  }

  void dut_outputs(model::LdsCtrlOut& out) const {
    read_app_ports(*dut_, out, p_);
    if constexpr (!Baseline) read_translation_ports(out);
  }

  // Compares every output; returns the DUT's (kept until the next check).
  const model::LdsCtrlOut& check() {
    model_.outputs(in_, want_);
    dut_outputs(got_);
    compare_app_ports(session_, want_, got_, p_);
    if constexpr (!Baseline) compare_translation_ports(session_, want_, got_, p_);
    return got_;
  }

  void rising_edge() {
    banks_.count(got_.sram_en, got_.sram_we, static_cast<uint64_t>(__builtin_popcountll(got_.sram_bank_en)));
    rtl_edge();
    model_.posedge(in_);
    banks_.compare(session_, model_.bank_accesses());
    coverage_.count(in_, got_, model_.events());
    record(tape_, in_);
  }

  void rtl_edge() {
    dut_->clk_i = 1;
    dut_->eval();
  }

  void model_cycle(const model::LdsCtrlIn& in) {
    model_.outputs(in, want_);
    model_.posedge(in);
  }

  const model::LdsCtrlOut& step(const model::LdsCtrlIn& in) { return step_alone(*this, session_, in); }
  const model::LdsCtrlModel& model() const { return model_; }
  const elab::LdsCtrlParams& params() const { return p_; }
  CosimSession& session() { return session_; }

 private:
  static void clear_translation_inputs(model::LdsCtrlIn& in) {
    model::LdsCtrlIn quiet;
    quiet.rst_n = in.rst_n;
    quiet.app_valid = in.app_valid;
    quiet.app_we = in.app_we;
    quiet.app_row = in.app_row;
    quiet.app_bank_en = in.app_bank_en;
    quiet.app_wdata = in.app_wdata;
    in = quiet;
  }

  void drive_translation_ports(const model::LdsCtrlIn& in) {
    Dut& d = *dut_;
    d.wg_valid_i = in.wg_valid;
    d.wg_free_i = in.wg_free;
    d.wg_base_i = in.wg_base;
    d.wg_size_i = in.wg_size;
    d.sd_valid_i = in.sd_valid;
    d.sd_all_i = in.sd_all;
    d.sd_vpn_i = in.sd_vpn;
    d.sd_vmid_i = in.sd_vmid;
    d.lk_valid_i = in.lk_valid;
    d.lk_vpn_i = in.lk_vpn;
    d.lk_vmid_i = in.lk_vmid;
    d.lk_vrf_i = in.lk_vrf;
    d.lk_resp_ready_i = in.lk_resp_ready;
    d.fill_valid_i = in.fill_valid;
    d.fill_vpn_i = in.fill_vpn;
    d.fill_vmid_i = in.fill_vmid;
    d.fill_vrf_i = in.fill_vrf;
    d.fill_ppn_i = in.fill_ppn;
    d.fill_perm_i = in.fill_perm;
    d.vic_ready_i = in.vic_ready;
  }

  void read_translation_ports(model::LdsCtrlOut& out) const {
    const Dut& d = *dut_;
    out.wg_ready = d.wg_ready_o;
    out.wg_done = d.wg_done_o;
    out.sd_ready = d.sd_ready_o;
    out.sd_done = d.sd_done_o;
    out.lk_ready = d.lk_ready_o;
    out.lk_resp_valid = d.lk_resp_valid_o;
    out.lk_resp_hit = d.lk_resp_hit_o;
    out.lk_resp_ppn = d.lk_resp_ppn_o;
    out.lk_resp_perm = d.lk_resp_perm_o;
    out.fill_ready = d.fill_ready_o;
    out.vic_valid = d.vic_valid_o;
    out.vic_vpn = d.vic_vpn_o;
    out.vic_vmid = d.vic_vmid_o;
    out.vic_vrf = d.vic_vrf_o;
    out.vic_ppn = d.vic_ppn_o;
    out.vic_perm = d.vic_perm_o;
  }

  CosimSession& session_;
  elab::LdsCtrlParams p_;
  model::LdsCtrlModel model_;
  SessionDut<Dut> dut_;
  LdsCoverage coverage_;
  BenchTape<model::LdsCtrlIn> tape_;
  model::LdsCtrlIn in_;
  model::LdsCtrlOut want_, got_;
  SramAccessCheck banks_{"LDS bank accesses (model counter vs sram_en_o x sram_bank_en_o)"};
};

}  // namespace txgen::verif
