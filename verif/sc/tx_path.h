// SystemC view of tx_path_NAME_sys, the translation path with every SRAM
// inside (docs/blocks/tx_path.md): the golden model as an sc_module with the
// Verilated model's ports (verif/sc/block.h). Per-CU and per-I-cache fields
// are flat vectors, element 0 in the low bits.
#pragma once

#include "model/tx_path.h"
#include "sc/block.h"
#include "txgen/elab/tx_path.h"

namespace txgen::verif::sc {

struct TxPathTraits
    : ModelTraits<elab::TxPathParams, model::TxPathModel, model::TxPathIn, model::TxPathOut> {
  static Model make(const Params& p) { return Model(p, false); }  // the path, not the baseline
};

#define TXGEN_SC_TX_PATH_PORTS(IN, OUT, OUT_IF)     \
  IN(rst_ni, rst_n, 1)                              \
  IN(req_valid_i, req_valid, 1)                     \
  IN(req_vpn_i, req_vpn, p.vpn_bits)                \
  IN(req_vmid_i, req_vmid, p.vmid_bits)             \
  IN(vrf_i, vrf, p.vrf_bits)                        \
  IN(app_valid_i, app_valid, 1)                     \
  IN(app_we_i, app_we, 1)                           \
  IN(app_row_i, app_row, p.lds.row_index_bits)      \
  IN(app_bank_en_i, app_bank_en, p.lds.banks)       \
  IN(app_wdata_i, app_wdata, p.lds.row_bits)        \
  IN(wg_valid_i, wg_valid, 1)                       \
  IN(wg_free_i, wg_free, 1)                         \
  IN(wg_base_i, wg_base, p.lds.segment_index_bits)  \
  IN(wg_size_i, wg_size, p.lds.size_bits)           \
  IN(if_valid_i, if_valid, 1)                       \
  IN(if_addr_i, if_addr, p.ic.va_bits)              \
  IN(ifill_valid_i, ifill_valid, 1)                 \
  IN(ifill_addr_i, ifill_addr, p.ic.va_bits)        \
  IN(ifill_data_i, ifill_data, p.ic.line_bits)      \
  IN(flush_valid_i, flush_valid, 1)                 \
  IN(l2_req_ready_i, l2_req_ready, 1)               \
  IN(l2_resp_valid_i, l2_resp_valid, 1)             \
  IN(l2_resp_tag_i, l2_resp_tag, p.l2_tag_bits)     \
  IN(l2_resp_ppn_i, l2_resp_ppn, p.ppn_bits)        \
  IN(l2_resp_perm_i, l2_resp_perm, p.perm_bits)     \
  IN(l2_vic_ready_i, l2_vic_ready, 1)               \
  TXGEN_SC_SHOOTDOWN_IN(IN)                         \
  OUT(req_ready_o, req_ready, 1)                    \
  OUT(resp_valid_o, resp_valid, 1)                  \
  TXGEN_SC_TRANSLATION_OUT(OUT, resp_)              \
  OUT(fill_valid_o, fill_valid, 1)                  \
  TXGEN_SC_TRANSLATION_OUT(OUT, fill_)              \
  OUT(hit_lds_o, hit_lds, 1)                        \
  OUT(hit_ic_o, hit_ic, 1)                          \
  OUT(app_rvalid_o, app_rvalid, 1)                  \
  OUT(app_rdata_o, app_rdata, p.lds.row_bits)       \
  OUT(wg_ready_o, wg_ready, 1)                      \
  OUT(wg_done_o, wg_done, 1)                        \
  OUT(if_ready_o, if_ready, 1)                      \
  OUT(if_resp_valid_o, if_resp_valid, 1)            \
  OUT(if_resp_hit_o, if_resp_hit, 1)                \
  OUT(if_resp_data_o, if_resp_data, p.ic.line_bits) \
  OUT(ifill_ready_o, ifill_ready, 1)                \
  OUT(flush_ready_o, flush_ready, 1)                \
  OUT(flush_done_o, flush_done, 1)                  \
  OUT(l2_req_valid_o, l2_req_valid, 1)              \
  OUT(l2_req_vpn_o, l2_req_vpn, p.vpn_bits)         \
  OUT(l2_req_vmid_o, l2_req_vmid, p.vmid_bits)      \
  OUT(l2_req_tag_o, l2_req_tag, p.l2_tag_bits)      \
  OUT(l2_resp_ready_o, l2_resp_ready, 1)            \
  OUT(l2_vic_valid_o, l2_vic_valid, 1)              \
  TXGEN_SC_TRANSLATION_OUT(OUT, l2_vic_)            \
  OUT(sd_ready_o, sd_ready, 1)                      \
  OUT(sd_done_o, sd_done, 1)

TXGEN_SC_BLOCK(TxPathSc, TxPathTraits, TXGEN_SC_TX_PATH_PORTS)

}  // namespace txgen::verif::sc
