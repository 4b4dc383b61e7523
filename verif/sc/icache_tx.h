// SystemC view of icache_tx_NAME_sys, the I-cache controller with its tag and
// data SRAMs (docs/blocks/icache_tx.md): the golden model as an sc_module
// with the Verilated model's ports (verif/sc/block.h). The SRAM addresses and
// way enables are defined only with their en, write data only with their we.
#pragma once

#include "model/icache_tx.h"
#include "sc/block.h"
#include "txgen/elab/icache_tx.h"

namespace txgen::verif::sc {

struct IcacheTxTraits
    : ModelTraits<elab::IcacheTxParams, model::IcacheTxModel, model::IcacheTxIn, model::IcacheTxOut> {
  static Model make(const Params& p) { return Model(p, false); }  // not the baseline
  static In idle(const Model&, const Params& p) { return In::idle(p); }
};

#define TXGEN_SC_ICACHE_TX_PORTS(IN, OUT, OUT_IF)                 \
  IN(rst_ni, rst_n, 1)                                            \
  IN(if_valid_i, if_valid, 1)                                     \
  IN(if_addr_i, if_addr, p.va_bits)                               \
  IN(ifill_valid_i, ifill_valid, 1)                               \
  IN(ifill_addr_i, ifill_addr, p.va_bits)                         \
  IN(ifill_data_i, ifill_data, p.line_bits)                       \
  IN(flush_valid_i, flush_valid, 1)                               \
  IN(tl_valid_i, tl_valid, 1)                                     \
  IN(tl_vpn_i, tl_vpn, p.vpn_bits)                                \
  IN(tl_vmid_i, tl_vmid, p.vmid_bits)                             \
  IN(tl_vrf_i, tl_vrf, p.vrf_bits)                                \
  IN(tl_resp_ready_i, tl_resp_ready, 1)                           \
  IN(tf_valid_i, tf_valid, 1)                                     \
  IN(tf_vpn_i, tf_vpn, p.vpn_bits)                                \
  IN(tf_vmid_i, tf_vmid, p.vmid_bits)                             \
  IN(tf_vrf_i, tf_vrf, p.vrf_bits)                                \
  IN(tf_ppn_i, tf_ppn, p.ppn_bits)                                \
  IN(tf_perm_i, tf_perm, p.perm_bits)                             \
  IN(vic_ready_i, vic_ready, 1)                                   \
  TXGEN_SC_SHOOTDOWN_IN(IN)                                       \
  OUT(if_ready_o, if_ready, 1)                                    \
  OUT(if_resp_valid_o, if_resp_valid, 1)                          \
  OUT(if_resp_hit_o, if_resp_hit, 1)                              \
  OUT(if_resp_data_o, if_resp_data, p.line_bits)                  \
  OUT(ifill_ready_o, ifill_ready, 1)                              \
  OUT(flush_ready_o, flush_ready, 1)                              \
  OUT(flush_done_o, flush_done, 1)                                \
  OUT(tl_ready_o, tl_ready, 1)                                    \
  OUT(tf_ready_o, tf_ready, 1)                                    \
  OUT(tl_resp_valid_o, tl_resp_valid, 1)                          \
  OUT(tl_resp_cu_o, tl_resp_cu, p.cu_bits)                        \
  OUT(tl_resp_hit_o, tl_resp_hit, 1)                              \
  OUT(tl_resp_ppn_o, tl_resp_ppn, p.ppn_bits)                     \
  OUT(tl_resp_perm_o, tl_resp_perm, p.perm_bits)                  \
  OUT(vic_valid_o, vic_valid, 1)                                  \
  OUT(vic_vpn_o, vic_vpn, p.vpn_bits)                             \
  OUT(vic_vmid_o, vic_vmid, p.vmid_bits)                          \
  OUT(vic_vrf_o, vic_vrf, p.vrf_bits)                             \
  OUT(vic_ppn_o, vic_ppn, p.ppn_bits)                             \
  OUT(vic_perm_o, vic_perm, p.perm_bits)                          \
  OUT(sd_ready_o, sd_ready, 1)                                    \
  OUT(sd_done_o, sd_done, 1)                                      \
  OUT(tag_en_o, tag_en, 1)                                        \
  OUT(tag_we_o, tag_we, 1)                                        \
  OUT_IF(tag_set_o, tag_set, p.set_bits, tag_en_o)                \
  OUT_IF(tag_way_en_o, tag_way_en, p.ways, tag_en_o)              \
  OUT_IF(tag_wdata_o, tag_wdata, p.ways * p.entry_bits, tag_we_o) \
  OUT(data_en_o, data_en, 1)                                      \
  OUT(data_we_o, data_we, 1)                                      \
  OUT_IF(data_line_o, data_line, p.line_index_bits, data_en_o)    \
  OUT_IF(data_wdata_o, data_wdata, p.line_bits, data_we_o)

TXGEN_SC_BLOCK(IcacheTxSc, IcacheTxTraits, TXGEN_SC_ICACHE_TX_PORTS)

}  // namespace txgen::verif::sc
