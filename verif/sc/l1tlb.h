// SystemC view of l1tlb_NAME (docs/blocks/l1tlb.md): the golden model as an
// sc_module with the Verilated model's ports (verif/sc/block.h). Per-CU and
// per-cluster fields are flat vectors, element 0 in the low bits.
#pragma once

#include "model/l1tlb.h"
#include "sc/block.h"
#include "txgen/elab/l1tlb.h"

namespace txgen::verif::sc {

struct L1tlbTraits : ModelTraits<elab::L1tlbParams, model::L1tlbModel, model::L1tlbIn, model::L1tlbOut> {};

#define TXGEN_SC_L1TLB_PORTS(IN, OUT, OUT_IF)   \
  IN(rst_ni, rst_n, 1)                          \
  IN(req_valid_i, req_valid, 1)                 \
  IN(req_vpn_i, req_vpn, p.vpn_bits)            \
  IN(req_vmid_i, req_vmid, p.vmid_bits)         \
  IN(l2_req_ready_i, l2_req_ready, 1)           \
  IN(l2_resp_valid_i, l2_resp_valid, 1)         \
  IN(l2_resp_tag_i, l2_resp_tag, p.l2_tag_bits) \
  IN(l2_resp_ppn_i, l2_resp_ppn, p.ppn_bits)    \
  IN(l2_resp_perm_i, l2_resp_perm, p.perm_bits) \
  TXGEN_SC_SHOOTDOWN_IN(IN)                     \
  OUT(req_ready_o, req_ready, 1)                \
  OUT(resp_valid_o, resp_valid, 1)              \
  TXGEN_SC_TRANSLATION_OUT(OUT, resp_)          \
  OUT(fill_valid_o, fill_valid, 1)              \
  TXGEN_SC_TRANSLATION_OUT(OUT, fill_)          \
  OUT(evict_valid_o, evict_valid, 1)            \
  TXGEN_SC_TRANSLATION_OUT(OUT, evict_)         \
  OUT(l2_req_valid_o, l2_req_valid, 1)          \
  OUT(l2_req_vpn_o, l2_req_vpn, p.vpn_bits)     \
  OUT(l2_req_vmid_o, l2_req_vmid, p.vmid_bits)  \
  OUT(l2_req_tag_o, l2_req_tag, p.l2_tag_bits)  \
  OUT(sd_ready_o, sd_ready, 1)                  \
  OUT(sd_done_o, sd_done, 1)

TXGEN_SC_BLOCK(L1tlbSc, L1tlbTraits, TXGEN_SC_L1TLB_PORTS)

}  // namespace txgen::verif::sc
