// Port conversion of tx_path_NAME_sys / _base_sys: model::TxPathIn onto the
// Verilated model's inputs and its outputs into model::TxPathOut. Shared by
// the lock-step harness (verif/tx_path_harness.h) and the trace evaluation
// (verif/tx_path_eval.cpp). kBase selects the baseline top, which lacks the
// translation-only ports (vrf, work groups, hit outputs, the L2 victim port).
#pragma once

#include <algorithm>
#include <vector>

#include "cosim_util.h"
#include "model/tx_path.h"
#include "txgen/elab/tx_path.h"

namespace txgen::verif {

// Element i of `parts` (each `width` bits) at [(i+1)*width-1 : i*width] of
// the port, 32 bits at a time, straight from and to the port's words.
template <typename Port>
void parts_to_port(Port& port, const std::vector<Bits>& parts, unsigned width) {
  check_port_width(width * static_cast<unsigned>(parts.size()), port_bits<Port>());
  clear_port(port);
  for (unsigned i = 0; i < parts.size(); ++i)
    for (unsigned b = 0; b < width; b += 32) {
      const unsigned n = std::min(32u, width - b);
      set_port_field(port, i * width + b, n, parts[i].field(b, n));
    }
}

template <typename Port>
void parts_from_port(const Port& port, unsigned width, std::vector<Bits>& parts) {
  check_port_width(width * static_cast<unsigned>(parts.size()), port_bits<Port>());
  for (unsigned i = 0; i < parts.size(); ++i) {
    if (parts[i].width != width) parts[i] = Bits(width);
    for (unsigned b = 0; b < width; b += 32) {
      const unsigned n = std::min(32u, width - b);
      parts[i].set_field(b, n, port_field(port, i * width + b, n));
    }
  }
}

template <typename Port>
void flags_from(const Port& port, std::vector<uint8_t>& out) {
  entries_from_port(port, 1, out);
}

template <typename Port>
void fields_from(const Port& port, unsigned bits, std::vector<uint64_t>& out) {
  entries_from_port(port, bits, out);
}

template <typename Port>
uint64_t scalar_from(const Port& port, unsigned bits) {
  check_port_width(bits, port_bits<Port>());
  return port_field(port, 0, bits);
}

template <class Dut, bool kBase>
struct TxPathPorts {
  // Every input; without `with_data` the wide write-data inputs keep what they
  // were last driven with (a replay that writes no data skips them).
  static void drive(Dut& d, const elab::TxPathParams& p, const model::TxPathIn& in, bool with_data = true) {
    const unsigned VPN = p.vpn_bits, VM = p.vmid_bits;
    d.rst_ni = in.rst_n;
    flags_to_port(d.req_valid_i, in.req_valid);
    entries_to_port(d.req_vpn_i, in.req_vpn, VPN);
    entries_to_port(d.req_vmid_i, in.req_vmid, VM);
    flags_to_port(d.app_valid_i, in.app_valid);
    flags_to_port(d.app_we_i, in.app_we);
    entries_to_port(d.app_row_i, in.app_row, p.lds.row_index_bits);
    entries_to_port(d.app_bank_en_i, in.app_bank_en, p.lds.banks);
    if (with_data) parts_to_port(d.app_wdata_i, in.app_wdata, p.lds.row_bits);
    flags_to_port(d.if_valid_i, in.if_valid);
    entries_to_port(d.if_addr_i, in.if_addr, p.ic.va_bits);
    flags_to_port(d.ifill_valid_i, in.ifill_valid);
    entries_to_port(d.ifill_addr_i, in.ifill_addr, p.ic.va_bits);
    if (with_data) parts_to_port(d.ifill_data_i, in.ifill_data, p.ic.line_bits);
    flags_to_port(d.flush_valid_i, in.flush_valid);
    d.l2_req_ready_i = in.l2_req_ready;
    d.l2_resp_valid_i = in.l2_resp_valid;
    to_port(d.l2_resp_tag_i, bits_from_u64(p.l2_tag_bits, in.l2_resp_tag));
    to_port(d.l2_resp_ppn_i, bits_from_u64(p.ppn_bits, in.l2_resp_ppn));
    to_port(d.l2_resp_perm_i, bits_from_u64(p.perm_bits, in.l2_resp_perm));
    d.sd_valid_i = in.sd_valid;
    d.sd_all_i = in.sd_all;
    to_port(d.sd_vpn_i, VPN, in.sd_vpn);
    to_port(d.sd_vmid_i, VM, in.sd_vmid);
    if constexpr (!kBase) {
      entries_to_port(d.vrf_i, in.vrf, p.vrf_bits);
      flags_to_port(d.wg_valid_i, in.wg_valid);
      flags_to_port(d.wg_free_i, in.wg_free);
      entries_to_port(d.wg_base_i, in.wg_base, p.lds.segment_index_bits);
      entries_to_port(d.wg_size_i, in.wg_size, p.lds.size_bits);
      d.l2_vic_ready_i = in.l2_vic_ready;
    }
  }

  // Every output into `out` (sized by TxPathModel::make_outputs); without
  // `with_data` the wide read-data outputs are skipped.
  static void read(const Dut& d, const elab::TxPathParams& p, model::TxPathOut& out, bool with_data) {
    const unsigned VPN = p.vpn_bits, VM = p.vmid_bits, P = p.ppn_bits, Q = p.perm_bits;
    flags_from(d.req_ready_o, out.req_ready);
    flags_from(d.resp_valid_o, out.resp_valid);
    fields_from(d.resp_vpn_o, VPN, out.resp_vpn);
    fields_from(d.resp_vmid_o, VM, out.resp_vmid);
    fields_from(d.resp_ppn_o, P, out.resp_ppn);
    fields_from(d.resp_perm_o, Q, out.resp_perm);
    flags_from(d.fill_valid_o, out.fill_valid);
    fields_from(d.fill_vpn_o, VPN, out.fill_vpn);
    fields_from(d.fill_vmid_o, VM, out.fill_vmid);
    fields_from(d.fill_ppn_o, P, out.fill_ppn);
    fields_from(d.fill_perm_o, Q, out.fill_perm);
    flags_from(d.app_rvalid_o, out.app_rvalid);
    flags_from(d.if_ready_o, out.if_ready);
    flags_from(d.if_resp_valid_o, out.if_resp_valid);
    flags_from(d.if_resp_hit_o, out.if_resp_hit);
    flags_from(d.ifill_ready_o, out.ifill_ready);
    flags_from(d.flush_ready_o, out.flush_ready);
    flags_from(d.flush_done_o, out.flush_done);
    if (with_data) {
      parts_from_port(d.app_rdata_o, p.lds.row_bits, out.app_rdata);
      parts_from_port(d.if_resp_data_o, p.ic.line_bits, out.if_resp_data);
    }
    out.l2_req_valid = d.l2_req_valid_o;
    out.l2_req_vpn = scalar_from(d.l2_req_vpn_o, VPN);
    out.l2_req_vmid = scalar_from(d.l2_req_vmid_o, VM);
    out.l2_req_tag = scalar_from(d.l2_req_tag_o, p.l2_tag_bits);
    out.l2_resp_ready = d.l2_resp_ready_o;
    out.sd_ready = d.sd_ready_o;
    out.sd_done = d.sd_done_o;
    if constexpr (!kBase) {
      flags_from(d.wg_ready_o, out.wg_ready);
      flags_from(d.wg_done_o, out.wg_done);
      flags_from(d.hit_lds_o, out.hit_lds);
      flags_from(d.hit_ic_o, out.hit_ic);
      out.l2_vic_valid = d.l2_vic_valid_o;
      out.l2_vic_vpn = scalar_from(d.l2_vic_vpn_o, VPN);
      out.l2_vic_vmid = scalar_from(d.l2_vic_vmid_o, VM);
      out.l2_vic_ppn = scalar_from(d.l2_vic_ppn_o, P);
      out.l2_vic_perm = scalar_from(d.l2_vic_perm_o, Q);
    }
  }
};

}  // namespace txgen::verif
