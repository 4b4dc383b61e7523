// SystemC view of lds_ctrl_NAME_sys, the LDS controller with its behavioural
// SRAM (docs/blocks/lds_ctrl.md): the golden model as an sc_module with the
// Verilated model's ports (verif/sc/block.h). The SRAM address and bank
// enables are defined only with sram_en_o, its write data only with sram_we_o.
#pragma once

#include "model/lds_ctrl.h"
#include "sc/block.h"
#include "txgen/elab/lds_ctrl.h"

namespace txgen::verif::sc {

struct LdsCtrlTraits
    : ModelTraits<elab::LdsCtrlParams, model::LdsCtrlModel, model::LdsCtrlIn, model::LdsCtrlOut> {
  static In idle(const Model&, const Params& p) {
    In in;
    in.app_wdata = Bits(p.row_bits);
    return in;
  }
};

#define TXGEN_SC_LDS_CTRL_PORTS(IN, OUT, OUT_IF)            \
  IN(rst_ni, rst_n, 1)                                      \
  IN(app_valid_i, app_valid, 1)                             \
  IN(app_we_i, app_we, 1)                                   \
  IN(app_row_i, app_row, p.row_index_bits)                  \
  IN(app_bank_en_i, app_bank_en, p.banks)                   \
  IN(app_wdata_i, app_wdata, p.row_bits)                    \
  IN(wg_valid_i, wg_valid, 1)                               \
  IN(wg_free_i, wg_free, 1)                                 \
  IN(wg_base_i, wg_base, p.segment_index_bits)              \
  IN(wg_size_i, wg_size, p.size_bits)                       \
  TXGEN_SC_SHOOTDOWN_IN(IN)                                 \
  IN(lk_valid_i, lk_valid, 1)                               \
  IN(lk_vpn_i, lk_vpn, p.vpn_bits)                          \
  IN(lk_vmid_i, lk_vmid, p.vmid_bits)                       \
  IN(lk_vrf_i, lk_vrf, p.vrf_bits)                          \
  IN(lk_resp_ready_i, lk_resp_ready, 1)                     \
  IN(fill_valid_i, fill_valid, 1)                           \
  IN(fill_vpn_i, fill_vpn, p.vpn_bits)                      \
  IN(fill_vmid_i, fill_vmid, p.vmid_bits)                   \
  IN(fill_vrf_i, fill_vrf, p.vrf_bits)                      \
  IN(fill_ppn_i, fill_ppn, p.ppn_bits)                      \
  IN(fill_perm_i, fill_perm, p.perm_bits)                   \
  IN(vic_ready_i, vic_ready, 1)                             \
  OUT(app_rvalid_o, app_rvalid, 1)                          \
  OUT(app_rdata_o, app_rdata, p.row_bits)                   \
  OUT(wg_ready_o, wg_ready, 1)                              \
  OUT(wg_done_o, wg_done, 1)                                \
  OUT(sd_ready_o, sd_ready, 1)                              \
  OUT(sd_done_o, sd_done, 1)                                \
  OUT(lk_ready_o, lk_ready, 1)                              \
  OUT(lk_resp_valid_o, lk_resp_valid, 1)                    \
  OUT(lk_resp_hit_o, lk_resp_hit, 1)                        \
  OUT(lk_resp_ppn_o, lk_resp_ppn, p.ppn_bits)               \
  OUT(lk_resp_perm_o, lk_resp_perm, p.perm_bits)            \
  OUT(fill_ready_o, fill_ready, 1)                          \
  OUT(vic_valid_o, vic_valid, 1)                            \
  OUT(vic_vpn_o, vic_vpn, p.vpn_bits)                       \
  OUT(vic_vmid_o, vic_vmid, p.vmid_bits)                    \
  OUT(vic_vrf_o, vic_vrf, p.vrf_bits)                       \
  OUT(vic_ppn_o, vic_ppn, p.ppn_bits)                       \
  OUT(vic_perm_o, vic_perm, p.perm_bits)                    \
  OUT(sram_en_o, sram_en, 1)                                \
  OUT(sram_we_o, sram_we, 1)                                \
  OUT_IF(sram_row_o, sram_row, p.row_index_bits, sram_en_o) \
  OUT_IF(sram_bank_en_o, sram_bank_en, p.banks, sram_en_o)  \
  OUT_IF(sram_wdata_o, sram_wdata, p.row_bits, sram_we_o)

TXGEN_SC_BLOCK(LdsCtrlSc, LdsCtrlTraits, TXGEN_SC_LDS_CTRL_PORTS)

}  // namespace txgen::verif::sc
