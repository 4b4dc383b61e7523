// SystemC view of walk_sched_NAME (docs/blocks/walk_sched.md): the golden
// model as an sc_module with the Verilated model's ports (verif/sc/block.h).
// The dispatch payload is defined only with disp_valid_o.
#pragma once

#include "model/walk_sched.h"
#include "sc/block.h"
#include "txgen/elab/walk_sched.h"

namespace txgen::verif::sc {

struct WalkSchedTraits
    : ModelTraits<elab::WalkSchedParams, model::WalkSchedModel, model::WalkSchedIn, model::WalkSchedOut> {};

#define TXGEN_SC_WALK_SCHED_PORTS(IN, OUT, OUT_IF)                \
  IN(rst_ni, rst_n, 1)                                            \
  IN(req_valid_i, req_valid, 1)                                   \
  IN(req_vpn_i, req_vpn, p.vpn_bits)                              \
  IN(req_iid_i, req_iid, p.iid_bits)                              \
  IN(done_valid_i, done_valid, 1)                                 \
  IN(done_walker_i, done_walker, p.walker_bits)                   \
  IN(done_vpn_i, done_vpn, p.vpn_bits)                            \
  OUT(req_ready_o, req_ready, 1)                                  \
  OUT(disp_valid_o, disp_valid, 1)                                \
  OUT_IF(disp_walker_o, disp_walker, p.walker_bits, disp_valid_o) \
  OUT_IF(disp_vpn_o, disp_vpn, p.vpn_bits, disp_valid_o)          \
  OUT_IF(disp_iid_o, disp_iid, p.iid_bits, disp_valid_o)          \
  OUT_IF(disp_acc_o, disp_acc, p.acc_bits, disp_valid_o)          \
  OUT(count_o, count, p.count_bits)                               \
  OUT(busy_o, busy, p.walkers)

TXGEN_SC_BLOCK(WalkSchedSc, WalkSchedTraits, TXGEN_SC_WALK_SCHED_PORTS)

}  // namespace txgen::verif::sc
