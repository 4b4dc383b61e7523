// Ports of l1tlb_NAME (docs/blocks/l1tlb.md, "Ports"): per CU (cus), per
// cluster (clusters), fields of model::L1tlbIn / L1tlbOut. The instruction-ID
// ports (IID_IN, IID_OUT) exist with iid_bits > 0 only.
#pragma once

#include "txgen/elab/l1tlb.h"
#include "txgen/ports/ports.h"

#define TXGEN_L1TLB_PORTS_OF(IN, OUT, OUT_IF, IID_IN, IID_OUT)                                                                   \
  IN(req_valid_i, req_valid, 1, p.cus, "per CU: a translation request")                                         \
  OUT(req_ready_o, req_ready, 1, p.cus, "per CU: the request is taken (a register with the input buffer)")      \
  IN(req_vpn_i, req_vpn, p.vpn_bits, p.cus, "per CU: the request's VPN")                                        \
  IN(req_vmid_i, req_vmid, p.vmid_bits, p.cus, "per CU: the request's VMID")                                    \
  IID_IN(req_iid_i, req_iid, p.iid_bits, p.cus, "per CU: the request's SIMD instruction ID")                        \
  OUT(resp_valid_o, resp_valid, 1, p.cus, "per CU: a hit response (registered pulse, no back-pressure)")        \
  OUT(resp_vpn_o, resp_vpn, p.vpn_bits, p.cus, "per CU: the hit's VPN")                                         \
  OUT(resp_vmid_o, resp_vmid, p.vmid_bits, p.cus, "per CU: the hit's VMID")                                     \
  OUT(resp_ppn_o, resp_ppn, p.ppn_bits, p.cus, "per CU: the hit's PPN")                                         \
  OUT(resp_perm_o, resp_perm, p.perm_bits, p.cus, "per CU: the hit's permissions")                              \
  OUT(fill_valid_o, fill_valid, 1, p.cus, "per CU: a miss answered by an L2 fill (registered pulse)")          \
  OUT(fill_vpn_o, fill_vpn, p.vpn_bits, p.cus, "per CU: the filled VPN")                                        \
  OUT(fill_vmid_o, fill_vmid, p.vmid_bits, p.cus, "per CU: the filled VMID")                                    \
  OUT(fill_ppn_o, fill_ppn, p.ppn_bits, p.cus, "per CU: the filled PPN")                                        \
  OUT(fill_perm_o, fill_perm, p.perm_bits, p.cus, "per CU: the filled permissions")                             \
  OUT(evict_valid_o, evict_valid, 1, p.clusters, "per cluster: a fill replaced a valid entry (registered pulse)") \
  OUT(evict_vpn_o, evict_vpn, p.vpn_bits, p.clusters, "per cluster: the replaced entry's VPN")                  \
  OUT(evict_vmid_o, evict_vmid, p.vmid_bits, p.clusters, "per cluster: the replaced entry's VMID")              \
  OUT(evict_ppn_o, evict_ppn, p.ppn_bits, p.clusters, "per cluster: the replaced entry's PPN")                  \
  OUT(evict_perm_o, evict_perm, p.perm_bits, p.clusters, "per cluster: the replaced entry's permissions")       \
  OUT(l2_req_valid_o, l2_req_valid, 1, p.clusters, "per cluster: a request to the L2-TLB")                      \
  IN(l2_req_ready_i, l2_req_ready, 1, p.clusters, "per cluster: the L2-TLB takes the request")                  \
  OUT(l2_req_vpn_o, l2_req_vpn, p.vpn_bits, p.clusters, "per cluster: the missing VPN")                         \
  OUT(l2_req_vmid_o, l2_req_vmid, p.vmid_bits, p.clusters, "per cluster: the missing VMID")                     \
  OUT(l2_req_tag_o, l2_req_tag, p.l2_tag_bits, p.clusters, "per cluster: the request's tag {TLB in cluster, MSHR}") \
  IID_OUT(l2_req_iid_o, l2_req_iid, p.iid_bits, p.clusters, "per cluster: the ID of the miss that allocated the MSHR")   \
  IN(l2_resp_valid_i, l2_resp_valid, 1, p.clusters, "per cluster: the L2-TLB's answer (always taken)")          \
  IN(l2_resp_tag_i, l2_resp_tag, p.l2_tag_bits, p.clusters, "per cluster: the answered request's tag")          \
  IN(l2_resp_ppn_i, l2_resp_ppn, p.ppn_bits, p.clusters, "per cluster: the answer's PPN")                       \
  IN(l2_resp_perm_i, l2_resp_perm, p.perm_bits, p.clusters, "per cluster: the answer's permissions")            \
  IN(sd_valid_i, sd_valid, 1, 1, "a shootdown request (held until sd_ready_o)")                                 \
  OUT(sd_ready_o, sd_ready, 1, 1, "the shootdown is taken")                                                     \
  IN(sd_all_i, sd_all, 1, 1, "the shootdown flushes every entry")                                               \
  IN(sd_vpn_i, sd_vpn, p.vpn_bits, 1, "the shootdown's VPN")                                                    \
  IN(sd_vmid_i, sd_vmid, p.vmid_bits, 1, "the shootdown's VMID")                                                \
  OUT(sd_done_o, sd_done, 1, 1, "registered pulse: the shootdown has taken effect")

#define TXGEN_L1TLB_PORTS(IN, OUT, OUT_IF) TXGEN_L1TLB_PORTS_OF(IN, OUT, OUT_IF, IN, OUT)
// Without the instruction-ID ports (IID_IN, IID_OUT: width iid_bits, 0 unless
// the L1-TLB is the path's behind an IOMMU): the SystemC view's list.
#define TXGEN_L1TLB_PORTS_NO_IID(IN, OUT, OUT_IF) TXGEN_L1TLB_PORTS_OF(IN, OUT, OUT_IF, TXGEN_PORT_SKIP, TXGEN_PORT_SKIP)

namespace txgen::ports {
TXGEN_PORT_LIST_FUNCTION(l1tlb_ports, elab::L1tlbParams, TXGEN_L1TLB_PORTS)
}  // namespace txgen::ports
