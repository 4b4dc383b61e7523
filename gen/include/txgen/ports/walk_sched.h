// Ports of walk_sched_NAME (docs/blocks/walk_sched.md, "Ports"): fields of
// model::WalkSchedIn / WalkSchedOut.
#pragma once

#include "txgen/elab/walk_sched.h"
#include "txgen/ports/ports.h"

#define TXGEN_WALK_SCHED_PORTS(IN, OUT, OUT_IF)                                                               \
  IN(req_valid_i, req_valid, 1, 1, "a page-walk request (an IOMMU TLB miss)")                                 \
  OUT(req_ready_o, req_ready, 1, 1, "the buffer takes the request")                                          \
  IN(req_vpn_i, req_vpn, p.vpn_bits, 1, "the request's VPN")                                                 \
  IN(req_iid_i, req_iid, p.iid_bits, 1, "the request's SIMD instruction ID")                                 \
  IN(done_valid_i, done_valid, 1, 1, "a walker finished")                                                    \
  IN(done_walker_i, done_walker, p.walker_bits, 1, "the walker that finished")                               \
  IN(done_vpn_i, done_vpn, p.vpn_bits, 1, "the VPN it walked: fills the page-walk caches")                   \
  OUT(disp_valid_o, disp_valid, 1, 1, "pulse: a walk is dispatched")                                         \
  OUT_IF(disp_walker_o, disp_walker, p.walker_bits, 1, disp_valid_o, "the walker it goes to")                \
  OUT_IF(disp_vpn_o, disp_vpn, p.vpn_bits, 1, disp_valid_o, "the walk's VPN")                                \
  OUT_IF(disp_iid_o, disp_iid, p.iid_bits, 1, disp_valid_o, "the walk's instruction ID")                     \
  OUT_IF(disp_acc_o, disp_acc, p.acc_bits, 1, disp_valid_o, "memory accesses the walk needs (1 .. levels)")  \
  OUT(count_o, count, p.count_bits, 1, "requests in the buffer")                                             \
  OUT(busy_o, busy, p.walkers, 1, "bit k: walker k is walking")

namespace txgen::ports {
TXGEN_PORT_LIST_FUNCTION(walk_sched_ports, elab::WalkSchedParams, TXGEN_WALK_SCHED_PORTS)
}  // namespace txgen::ports
