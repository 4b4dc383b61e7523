// Ports of the iommu block's modules (docs/blocks/iommu.md, "Ports"), in
// fragments: the L2-TLB's side towards the path, its walk port, the IOMMU's
// request side and the memory port. iommu_NAME_sys (the co-simulated top,
// fields of model::IommuSysIn / IommuSysOut) is the path side, the memory
// port and the observed counts; per request port (l2.ports) where the count
// says so. Every list takes elab::IommuParams as p.
#pragma once

#include "txgen/elab/iommu.h"
#include "txgen/ports/ports.h"

#define TXGEN_IOMMU_PATH_SIDE(IN, OUT, OUT_IF)                                                                        \
  IN(req_valid_i, req_valid, 1, p.l2.ports, "per port: a translation request (an L1 miss)")                           \
  OUT(req_ready_o, req_ready, 1, p.l2.ports, "per port: the L2-TLB takes the request")                                \
  IN(req_vpn_i, req_vpn, p.vpn_bits, p.l2.ports, "per port: the request's VPN")                                       \
  IN(req_vmid_i, req_vmid, p.vmid_bits, p.l2.ports, "per port: the request's VMID")                                   \
  IN(req_iid_i, req_iid, p.iid_bits, p.l2.ports, "per port: the SIMD instruction ID")                                 \
  IN(req_tag_i, req_tag, p.l2.req_tag_bits, p.l2.ports, "per port: the requester's tag, returned")                    \
  OUT(resp_valid_o, resp_valid, 1, p.l2.ports, "per port: an answer")                                                 \
  IN(resp_ready_i, resp_ready, 1, p.l2.ports, "per port: the answer is taken")                                        \
  OUT(resp_tag_o, resp_tag, p.l2.req_tag_bits, p.l2.ports, "per port: the answered request's tag")                    \
  OUT(resp_vpn_o, resp_vpn, p.vpn_bits, p.l2.ports, "per port: its VPN")                                              \
  OUT(resp_vmid_o, resp_vmid, p.vmid_bits, p.l2.ports, "per port: its VMID")                                          \
  OUT(resp_ppn_o, resp_ppn, p.ppn_bits, p.l2.ports, "per port: the PPN")                                              \
  OUT(resp_perm_o, resp_perm, p.perm_bits, p.l2.ports, "per port: the permissions")                                   \
  IN(ins_valid_i, ins_valid, 1, 1, "a translation to insert (a victim from above)")                                   \
  OUT(ins_ready_o, ins_ready, 1, 1, "the insert is taken")                                                            \
  IN(ins_vpn_i, ins_vpn, p.vpn_bits, 1, "its VPN")                                                                    \
  IN(ins_vmid_i, ins_vmid, p.vmid_bits, 1, "its VMID")                                                                \
  IN(ins_ppn_i, ins_ppn, p.ppn_bits, 1, "its PPN")                                                                    \
  IN(ins_perm_i, ins_perm, p.perm_bits, 1, "its permissions")                                                         \
  IN(sd_valid_i, sd_valid, 1, 1, "a shootdown (held until sd_ready_o)")                                               \
  OUT(sd_ready_o, sd_ready, 1, 1, "the shootdown is taken")                                                           \
  IN(sd_all_i, sd_all, 1, 1, "the shootdown invalidates every translation")                                           \
  IN(sd_vpn_i, sd_vpn, p.vpn_bits, 1, "the shootdown's VPN")                                                          \
  IN(sd_vmid_i, sd_vmid, p.vmid_bits, 1, "the shootdown's VMID")                                                      \
  OUT(sd_done_o, sd_done, 1, 1, "pulse: the shootdown is complete")

#define TXGEN_IOMMU_MEM_PORT(IN, OUT, OUT_IF)                                                                         \
  OUT(mem_req_valid_o, mem_req_valid, 1, 1, "a walker's PTE read")                                                    \
  IN(mem_req_ready_i, mem_req_ready, 1, 1, "memory takes the read")                                                   \
  OUT(mem_req_walker_o, mem_req_walker, p.walker_bits, 1, "the walker reading")                                       \
  OUT(mem_req_level_o, mem_req_level, p.level_bits, 1, "the page-table level read (1 = the root)")                    \
  OUT(mem_req_vpn_o, mem_req_vpn, p.vpn_bits, 1, "the walk's VPN")                                                    \
  OUT(mem_req_vmid_o, mem_req_vmid, p.vmid_bits, 1, "the walk's VMID")                                                \
  IN(mem_resp_valid_i, mem_resp_valid, 1, 1, "a PTE read answered")                                                   \
  IN(mem_resp_walker_i, mem_resp_walker, p.walker_bits, 1, "the walker it answers")                                   \
  IN(mem_resp_ppn_i, mem_resp_ppn, p.ppn_bits, 1, "the leaf PTE's PPN")                                               \
  IN(mem_resp_perm_i, mem_resp_perm, p.perm_bits, 1, "the leaf PTE's permissions")

#define TXGEN_IOMMU_L2_WALK_PORT(IN, OUT, OUT_IF)                                                                     \
  OUT(walk_req_valid_o, walk_req_valid, 1, 1, "a missing translation to walk")                                        \
  IN(walk_req_ready_i, walk_req_ready, 1, 1, "the IOMMU takes it")                                                    \
  OUT(walk_req_vpn_o, walk_req_vpn, p.vpn_bits, 1, "its VPN")                                                         \
  OUT(walk_req_vmid_o, walk_req_vmid, p.vmid_bits, 1, "its VMID")                                                     \
  OUT(walk_req_iid_o, walk_req_iid, p.iid_bits, 1, "the SIMD instruction ID of the request that missed first")        \
  IN(walk_resp_valid_i, walk_resp_valid, 1, 1, "a walk completed")                                                    \
  IN(walk_resp_vpn_i, walk_resp_vpn, p.vpn_bits, 1, "its VPN")                                                        \
  IN(walk_resp_vmid_i, walk_resp_vmid, p.vmid_bits, 1, "its VMID")                                                    \
  IN(walk_resp_ppn_i, walk_resp_ppn, p.ppn_bits, 1, "the PPN")                                                        \
  IN(walk_resp_perm_i, walk_resp_perm, p.perm_bits, 1, "the permissions")                                             \
  OUT(mshrs_o, mshrs, p.l2.mshr_count_bits, 1, "valid MSHRs")

#define TXGEN_IOMMU_REQ_SIDE(IN, OUT, OUT_IF)                                                                         \
  IN(req_valid_i, req_valid, 1, 1, "a page-walk request (an L2-TLB miss)")                                            \
  OUT(req_ready_o, req_ready, 1, 1, "the buffer takes it")                                                            \
  IN(req_vpn_i, req_vpn, p.vpn_bits, 1, "its VPN")                                                                    \
  IN(req_vmid_i, req_vmid, p.vmid_bits, 1, "its VMID")                                                                \
  IN(req_iid_i, req_iid, p.iid_bits, 1, "its SIMD instruction ID")                                                    \
  OUT(resp_valid_o, resp_valid, 1, 1, "pulse: a walk completed")                                                      \
  OUT(resp_vpn_o, resp_vpn, p.vpn_bits, 1, "its VPN")                                                                 \
  OUT(resp_vmid_o, resp_vmid, p.vmid_bits, 1, "its VMID")                                                             \
  OUT(resp_ppn_o, resp_ppn, p.ppn_bits, 1, "the leaf PTE's PPN")                                                      \
  OUT(resp_perm_o, resp_perm, p.perm_bits, 1, "the leaf PTE's permissions")

// iommu_NAME_l2tlb
#define TXGEN_IOMMU_L2TLB_PORTS(IN, OUT, OUT_IF) \
  TXGEN_IOMMU_PATH_SIDE(IN, OUT, OUT_IF) TXGEN_IOMMU_L2_WALK_PORT(IN, OUT, OUT_IF)

// iommu_NAME
#define TXGEN_IOMMU_PORTS(IN, OUT, OUT_IF)                                                                            \
  TXGEN_IOMMU_REQ_SIDE(IN, OUT, OUT_IF)                                                                               \
  TXGEN_IOMMU_MEM_PORT(IN, OUT, OUT_IF)                                                                               \
  OUT(count_o, count, p.sched.count_bits, 1, "requests in the buffer")                                                \
  OUT(busy_o, busy, p.walkers, 1, "bit k: walker k is walking")

// iommu_NAME_sys
#define TXGEN_IOMMU_SYS_PORTS(IN, OUT, OUT_IF)                                                                        \
  TXGEN_IOMMU_PATH_SIDE(IN, OUT, OUT_IF)                                                                              \
  TXGEN_IOMMU_MEM_PORT(IN, OUT, OUT_IF)                                                                               \
  OUT(mshrs_o, mshrs, p.l2.mshr_count_bits, 1, "the L2-TLB's valid MSHRs")                                            \
  OUT(walk_count_o, walk_count, p.sched.count_bits, 1, "requests in the IOMMU buffer")                                \
  OUT(walk_busy_o, walk_busy, p.walkers, 1, "bit k: walker k is walking")

namespace txgen::ports {
TXGEN_PORT_LIST_FUNCTION(iommu_sys_ports, elab::IommuParams, TXGEN_IOMMU_SYS_PORTS)
TXGEN_PORT_LIST_FUNCTION(iommu_l2tlb_ports, elab::IommuParams, TXGEN_IOMMU_L2TLB_PORTS)
TXGEN_PORT_LIST_FUNCTION(iommu_ports, elab::IommuParams, TXGEN_IOMMU_PORTS)
}  // namespace txgen::ports
