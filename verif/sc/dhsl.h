// SystemC view of dhsl_NAME_sys (docs/blocks/dhsl.md): the golden model as an
// sc_module with the Verilated model's ports (verif/sc/block.h). The ports
// depend on the policy: define TXGEN_DHSL_REGS (mgvm_coarse, mgvm) and
// TXGEN_DHSL_MONITORS (mgvm) to 0 or 1 before including; both default to 1.
#pragma once

#include "model/dhsl.h"
#include "sc/block.h"
#include "txgen/elab/dhsl.h"

#ifndef TXGEN_DHSL_REGS
#define TXGEN_DHSL_REGS 1
#endif
#ifndef TXGEN_DHSL_MONITORS
#define TXGEN_DHSL_MONITORS 1
#endif

namespace txgen::verif::sc {

struct DhslTraits
    : ModelTraits<elab::DhslParams, model::DhslModel, model::DhslIn, model::DhslOut> {};

#if TXGEN_DHSL_REGS
#define TXGEN_SC_DHSL_REG_PORTS(IN, OUT)         \
  IN(launch_i, launch, 1)                        \
  IN(launch_shift_i, launch_shift, p.shift_bits) \
  OUT(rtu_fine_o, rtu_fine, 1)                   \
  OUT(l2_fine_o, l2_fine, 1)
#else
#define TXGEN_SC_DHSL_REG_PORTS(IN, OUT)
#endif

#if TXGEN_DHSL_MONITORS
#define TXGEN_SC_DHSL_MONITOR_PORTS(IN, OUT) \
  IN(rtu_in_i, rtu_in, 1)                    \
  IN(rtu_out_i, rtu_out, 1)                  \
  IN(l2_access_i, l2_access, 1)              \
  IN(l2_hit_i, l2_hit, 1)                    \
  IN(l2_cid_i, l2_cid, p.chiplet_bits)       \
  IN(rtu_sync_i, rtu_sync, 1)                \
  IN(l2_sync_i, l2_sync, 1)                  \
  OUT(mode_o, mode, 1)                       \
  OUT(switch_o, switch_pulse, 1)             \
  OUT(trigger_o, trigger, 1)                 \
  OUT(possible_o, possible, 1)               \
  OUT(epoch_o, epoch, 1)                     \
  OUT(back_o, back, 1)
#else
#define TXGEN_SC_DHSL_MONITOR_PORTS(IN, OUT)
#endif

#define TXGEN_SC_DHSL_PORTS(IN, OUT, OUT_IF) \
  IN(rst_ni, rst_n, 1)                       \
  IN(q_vpn_i, q_vpn, p.vpn_bits)             \
  TXGEN_SC_DHSL_REG_PORTS(IN, OUT)           \
  TXGEN_SC_DHSL_MONITOR_PORTS(IN, OUT)       \
  OUT(rtu_home_o, rtu_home, p.chiplet_bits)  \
  OUT(rtu_local_o, rtu_local, 1)             \
  OUT(l2_walk_o, l2_walk, 1)

TXGEN_SC_BLOCK(DhslSc, DhslTraits, TXGEN_SC_DHSL_PORTS)

}  // namespace txgen::verif::sc
