// Ports of tx_path_NAME_sys and tx_path_NAME_base_sys, the path and its
// baseline with every SRAM inside (docs/blocks/tx_path.md, "Ports"): per CU
// (cus), per I-cache (icaches), fields of model::TxPathIn / TxPathOut. The
// baseline lacks the translation-only ports (TX_IN, TX_OUT below) and the
// victim port (VIC_IN, VIC_OUT); the path with the generated L2-TLB inside
// lacks the L2 answer and victim ports (L2_IN, L2_OUT, VIC_*). The
// instruction-ID ports (IID_IN, IID_OUT) exist with an iommu section only. The
// synthesized tops tx_path_NAME(_base) add the SRAM ports of every LDS and
// I-cache (lds_sram_*, ic_tag_*, ic_data_*).
#pragma once

#include "txgen/elab/iommu.h"
#include "txgen/elab/tx_path.h"
#include "txgen/ports/iommu.h"
#include "txgen/ports/ports.h"

#include <utility>
#include <vector>

#define TXGEN_TX_PATH_PORTS_OF(IN, OUT, OUT_IF, TX_IN, TX_OUT, L2_IN, L2_OUT, VIC_IN, VIC_OUT, IID_IN, IID_OUT)  \
  IN(req_valid_i, req_valid, 1, p.cus, "per CU: a translation request to its L1-TLB")                           \
  IN(req_vpn_i, req_vpn, p.vpn_bits, p.cus, "per CU: the request's VPN")                                        \
  IN(req_vmid_i, req_vmid, p.vmid_bits, p.cus, "per CU: the request's VMID")                                    \
  IID_IN(req_iid_i, req_iid, p.iid_bits, p.cus, "per CU: the request's SIMD instruction ID")                    \
  TX_OUT(hit_lds_o, hit_lds, 1, p.cus, "per CU: a translation from its LDS is promoted")                        \
  TX_OUT(hit_ic_o, hit_ic, 1, p.cus, "per CU: a translation from its I-cache is promoted")                      \
  TX_IN(vrf_i, vrf, p.vrf_bits, p.cus, "per CU: its virtual function (VRF-ID)")                                 \
  IN(app_valid_i, app_valid, 1, p.cus, "per CU: an application LDS access")                                     \
  IN(app_we_i, app_we, 1, p.cus, "per CU: the access writes")                                                   \
  IN(app_row_i, app_row, p.lds.row_index_bits, p.cus, "per CU: the LDS row")                                    \
  IN(app_bank_en_i, app_bank_en, p.lds.banks, p.cus, "per CU: the banks accessed")                              \
  IN(app_wdata_i, app_wdata, p.lds.row_bits, p.cus, "per CU: the write data")                                   \
  TX_IN(wg_valid_i, wg_valid, 1, p.cus, "per CU: a work-group allocate / free from the dispatcher")             \
  TX_IN(wg_free_i, wg_free, 1, p.cus, "per CU: 0 allocate, 1 free")                                             \
  TX_IN(wg_base_i, wg_base, p.lds.segment_index_bits, p.cus, "per CU: the work group's first LDS segment")      \
  TX_IN(wg_size_i, wg_size, p.lds.size_bits, p.cus, "per CU: the work group's LDS segments")                    \
  IN(if_valid_i, if_valid, 1, p.icaches, "per I-cache: an instruction fetch")                                   \
  IN(if_addr_i, if_addr, p.ic.va_bits, p.icaches, "per I-cache: the fetch address")                             \
  IN(ifill_valid_i, ifill_valid, 1, p.icaches, "per I-cache: an instruction line fill")                         \
  IN(ifill_addr_i, ifill_addr, p.ic.va_bits, p.icaches, "per I-cache: the filled line's address")               \
  IN(ifill_data_i, ifill_data, p.ic.line_bits, p.icaches, "per I-cache: the filled line")                       \
  IN(flush_valid_i, flush_valid, 1, p.icaches, "per I-cache: a kernel-boundary flush")                          \
  OUT(l2_req_valid_o, l2_req_valid, 1, 1, "a request to the L2-TLB")                                            \
  L2_IN(l2_req_ready_i, l2_req_ready, 1, 1, "the L2-TLB takes the request")                                        \
  OUT(l2_req_vpn_o, l2_req_vpn, p.vpn_bits, 1, "the missing VPN")                                               \
  OUT(l2_req_vmid_o, l2_req_vmid, p.vmid_bits, 1, "the missing VMID")                                           \
  OUT(l2_req_tag_o, l2_req_tag, p.l2_tag_bits, 1, "the request's tag {CU, the L1-TLB's tag}")                   \
  IID_OUT(l2_req_iid_o, l2_req_iid, p.iid_bits, 1, "the instruction ID of the miss")                            \
  L2_IN(l2_resp_valid_i, l2_resp_valid, 1, 1, "the L2-TLB's answer")                                               \
  L2_OUT(l2_resp_ready_o, l2_resp_ready, 1, 1, "the answer is taken, for the CU that l2_resp_tag_i names")         \
  L2_IN(l2_resp_tag_i, l2_resp_tag, p.l2_tag_bits, 1, "the answered request's tag")                                \
  L2_IN(l2_resp_ppn_i, l2_resp_ppn, p.ppn_bits, 1, "the answer's PPN")                                             \
  L2_IN(l2_resp_perm_i, l2_resp_perm, p.perm_bits, 1, "the answer's permissions")                                  \
  VIC_OUT(l2_vic_valid_o, l2_vic_valid, 1, 1, "a translation leaving the path for the L2-TLB")                   \
  VIC_IN(l2_vic_ready_i, l2_vic_ready, 1, 1, "the L2-TLB takes it")                                              \
  VIC_OUT(l2_vic_vpn_o, l2_vic_vpn, p.vpn_bits, 1, "its VPN")                                                    \
  VIC_OUT(l2_vic_vmid_o, l2_vic_vmid, p.vmid_bits, 1, "its VMID")                                                \
  VIC_OUT(l2_vic_ppn_o, l2_vic_ppn, p.ppn_bits, 1, "its PPN")                                                    \
  VIC_OUT(l2_vic_perm_o, l2_vic_perm, p.perm_bits, 1, "its permissions")                                         \
  IN(sd_valid_i, sd_valid, 1, 1, "a translation shootdown (held until sd_ready_o)")                             \
  OUT(sd_ready_o, sd_ready, 1, 1, "the shootdown is taken")                                                     \
  IN(sd_all_i, sd_all, 1, 1, "the shootdown flushes every structure")                                           \
  IN(sd_vpn_i, sd_vpn, p.vpn_bits, 1, "the shootdown's VPN")                                                    \
  IN(sd_vmid_i, sd_vmid, p.vmid_bits, 1, "the shootdown's VMID")                                                \
  OUT(sd_done_o, sd_done, 1, 1, "pulse: every structure has finished the shootdown")                            \
  OUT(req_ready_o, req_ready, 1, p.cus, "per CU: the L1-TLB takes the request")                                 \
  OUT(resp_valid_o, resp_valid, 1, p.cus, "per CU: an L1-TLB hit")                                              \
  OUT(resp_vpn_o, resp_vpn, p.vpn_bits, p.cus, "per CU: the hit's VPN")                                         \
  OUT(resp_vmid_o, resp_vmid, p.vmid_bits, p.cus, "per CU: the hit's VMID")                                     \
  OUT(resp_ppn_o, resp_ppn, p.ppn_bits, p.cus, "per CU: the hit's PPN")                                         \
  OUT(resp_perm_o, resp_perm, p.perm_bits, p.cus, "per CU: the hit's permissions")                              \
  OUT(fill_valid_o, fill_valid, 1, p.cus, "per CU: an L1-TLB miss answered (promotion or L2 fill)")             \
  OUT(fill_vpn_o, fill_vpn, p.vpn_bits, p.cus, "per CU: the filled VPN")                                        \
  OUT(fill_vmid_o, fill_vmid, p.vmid_bits, p.cus, "per CU: the filled VMID")                                    \
  OUT(fill_ppn_o, fill_ppn, p.ppn_bits, p.cus, "per CU: the filled PPN")                                        \
  OUT(fill_perm_o, fill_perm, p.perm_bits, p.cus, "per CU: the filled permissions")                             \
  OUT(app_rvalid_o, app_rvalid, 1, p.cus, "per CU: LDS read data valid (the cycle after a read)")               \
  OUT(app_rdata_o, app_rdata, p.lds.row_bits, p.cus, "per CU: the LDS read data")                               \
  TX_OUT(wg_ready_o, wg_ready, 1, p.cus, "per CU: the work-group request is taken")                             \
  TX_OUT(wg_done_o, wg_done, 1, p.cus, "per CU: pulse: allocate / free complete")                               \
  OUT(if_ready_o, if_ready, 1, p.icaches, "per I-cache: the fetch is taken")                                    \
  OUT(if_resp_valid_o, if_resp_valid, 1, p.icaches, "per I-cache: the fetch is answered")                       \
  OUT(if_resp_hit_o, if_resp_hit, 1, p.icaches, "per I-cache: the fetch hit")                                   \
  OUT(if_resp_data_o, if_resp_data, p.ic.line_bits, p.icaches, "per I-cache: the fetched line")                 \
  OUT(ifill_ready_o, ifill_ready, 1, p.icaches, "per I-cache: the fill is taken")                               \
  OUT(flush_ready_o, flush_ready, 1, p.icaches, "per I-cache: the flush is taken")                              \
  OUT(flush_done_o, flush_done, 1, p.icaches, "per I-cache: pulse: the flush is complete")

#define TXGEN_TX_PATH_PORTS(IN, OUT, OUT_IF) \
  TXGEN_TX_PATH_PORTS_OF(IN, OUT, OUT_IF, IN, OUT, IN, OUT, IN, OUT, IN, OUT)
#define TXGEN_TX_PATH_BASE_PORTS(IN, OUT, OUT_IF)                                                                \
  TXGEN_TX_PATH_PORTS_OF(IN, OUT, OUT_IF, TXGEN_PORT_SKIP, TXGEN_PORT_SKIP, IN, OUT, TXGEN_PORT_SKIP, TXGEN_PORT_SKIP, \
                         IN, OUT)
// Without the instruction-ID ports: the SystemC view's list (configurations without an iommu section).
#define TXGEN_TX_PATH_PORTS_NO_IID(IN, OUT, OUT_IF) \
  TXGEN_TX_PATH_PORTS_OF(IN, OUT, OUT_IF, IN, OUT, IN, OUT, IN, OUT, TXGEN_PORT_SKIP, TXGEN_PORT_SKIP)

// tx_path_NAME_l2_sys (docs/blocks/tx_path.md, "The generated L2-TLB and
// IOMMU inside"): the path's ports but its answer and victim ports, which
// meet the L2-TLB inside (the request's outputs stay, to be observed),
// fields of model::TxPathL2In::path / TxPathL2Out::path ...
#define TXGEN_TX_PATH_ON_L2_PORTS(IN, OUT, OUT_IF)                                                   \
  TXGEN_TX_PATH_PORTS_OF(IN, OUT, OUT_IF, IN, OUT, TXGEN_PORT_SKIP, TXGEN_PORT_SKIP, TXGEN_PORT_SKIP, \
                         TXGEN_PORT_SKIP, IN, OUT)
// ... then these, fields of ::sys (model::IommuSysIn / IommuSysOut), with
// elab::IommuParams as p.
#define TXGEN_TX_PATH_L2_IOMMU_PORTS(IN, OUT, OUT_IF)                                                             \
  TXGEN_IOMMU_MEM_PORT(IN, OUT, OUT_IF)                                                                         \
  OUT(mshrs_o, mshrs, p.l2.mshr_count_bits, 1, "the L2-TLB's valid MSHRs")                                      \
  OUT(walk_count_o, walk_count, p.sched.count_bits, 1, "requests in the IOMMU buffer")                          \
  OUT(walk_busy_o, walk_busy, p.walkers, 1, "bit k: walker k is walking")

namespace txgen::ports {
TXGEN_PORT_LIST_FUNCTION(tx_path_ports, elab::TxPathParams, TXGEN_TX_PATH_PORTS)
TXGEN_PORT_LIST_FUNCTION(tx_path_base_ports, elab::TxPathParams, TXGEN_TX_PATH_BASE_PORTS)
TXGEN_PORT_LIST_FUNCTION(tx_path_on_l2_ports, elab::TxPathParams, TXGEN_TX_PATH_ON_L2_PORTS)
TXGEN_PORT_LIST_FUNCTION(tx_path_l2_iommu_ports, elab::IommuParams, TXGEN_TX_PATH_L2_IOMMU_PORTS)
// tx_path_NAME_l2_sys: both lists, in that order.
inline std::vector<Port> tx_path_l2_ports(const elab::TxPathParams& path, const elab::IommuParams& io) {
  std::vector<Port> all = tx_path_on_l2_ports(path);
  for (Port& q : tx_path_l2_iommu_ports(io)) all.push_back(std::move(q));
  return all;
}
}  // namespace txgen::ports
