// Ports of dhsl_NAME_sys, the co-simulation top with every unit of every
// chiplet (docs/blocks/dhsl.md, "Co-simulation top"): per chiplet (chiplets),
// fields of model::DhslIn / DhslOut. The monitors' ports (MON_IN, MON_OUT)
// exist with mgvm only and the HSL registers' (REG_IN, REG_OUT) with mgvm and
// mgvm_coarse: their counts are 0 for the other policies, and a harness that
// knows the policy at compile time leaves them out (TXGEN_PORT_SKIP).
#pragma once

#include "txgen/elab/dhsl.h"
#include "txgen/ports/ports.h"

#define TXGEN_DHSL_PORTS_OF(IN, OUT, OUT_IF, MON_IN, MON_OUT, REG_IN, REG_OUT)                                               \
  MON_IN(rtu_in_i, rtu_in, 1, p.monitor_chiplets(), "per chiplet: a request reaches its RTU from another chiplet")           \
  MON_IN(rtu_out_i, rtu_out, 1, p.monitor_chiplets(), "per chiplet: a request leaves its RTU for another chiplet")           \
  MON_IN(l2_access_i, l2_access, 1, p.monitor_chiplets(), "per chiplet: a lookup in its L2-TLB slice")                       \
  MON_IN(l2_hit_i, l2_hit, 1, p.monitor_chiplets(), "per chiplet: the lookup hit")                                           \
  MON_IN(l2_cid_i, l2_cid, p.chiplet_bits, p.monitor_chiplets(), "per chiplet: the chiplet id stored in the accessed entry") \
  REG_IN(launch_i, launch, 1, p.register_ports(), "a kernel launch: every HSL register loads coarse and launch_shift_i")     \
  REG_IN(launch_shift_i, launch_shift, p.shift_bits, p.register_ports(), "the launch's HSL shift")                           \
  MON_IN(rtu_sync_i, rtu_sync, 1, p.monitor_chiplets(), "per chiplet: its RTU's HSL register loads the CP's mode")           \
  MON_IN(l2_sync_i, l2_sync, 1, p.monitor_chiplets(), "per chiplet: its L2 slice's HSL register loads the mode")             \
  IN(q_vpn_i, q_vpn, p.vpn_bits, p.chiplets, "per chiplet: the VPN its router routes")                                       \
  MON_OUT(mode_o, mode, 1, p.monitor_ports(), "the CP's mode (1 fine-grained)")                                              \
  MON_OUT(switch_o, switch_pulse, 1, p.monitor_ports(), "the CP's switch pulse (the broadcast of a new mode)")               \
  MON_OUT(trigger_o, trigger, 1, p.monitor_chiplets(), "per chiplet: its RTU monitor's trigger pulse")                       \
  MON_OUT(possible_o, possible, 1, p.monitor_chiplets(), "per chiplet: its last epoch flagged a possible imbalance")         \
  MON_OUT(epoch_o, epoch, 1, p.monitor_chiplets(), "per chiplet: its RTU monitor's epoch pulse")                             \
  MON_OUT(back_o, back, 1, p.monitor_chiplets(), "per chiplet: its L2 monitor's switch-back pulse")                          \
  REG_OUT(rtu_fine_o, rtu_fine, 1, p.register_chiplets(), "per chiplet: its RTU's HSL register is fine-grained")             \
  REG_OUT(l2_fine_o, l2_fine, 1, p.register_chiplets(), "per chiplet: its L2 slice's HSL register is fine-grained")          \
  OUT(rtu_home_o, rtu_home, p.chiplet_bits, p.chiplets, "per chiplet: the home chiplet by its RTU's register")               \
  OUT(rtu_local_o, rtu_local, 1, p.chiplets, "per chiplet: rtu_home_o is the chiplet itself")                                \
  OUT(l2_walk_o, l2_walk, 1, p.chiplets, "per chiplet: its L2 slice walks a miss (the home by its register is itself)")

// Every port (those a policy lacks have count 0).
#define TXGEN_DHSL_PORTS(IN, OUT, OUT_IF) TXGEN_DHSL_PORTS_OF(IN, OUT, OUT_IF, IN, OUT, IN, OUT)
// The policies without monitors (mgvm_coarse) and without either (private, shared_static).
#define TXGEN_DHSL_REG_PORTS(IN, OUT, OUT_IF) \
  TXGEN_DHSL_PORTS_OF(IN, OUT, OUT_IF, TXGEN_PORT_SKIP, TXGEN_PORT_SKIP, IN, OUT)
#define TXGEN_DHSL_ROUTER_PORTS(IN, OUT, OUT_IF) \
  TXGEN_DHSL_PORTS_OF(IN, OUT, OUT_IF, TXGEN_PORT_SKIP, TXGEN_PORT_SKIP, TXGEN_PORT_SKIP, TXGEN_PORT_SKIP)

namespace txgen::ports {
TXGEN_PORT_LIST_FUNCTION(dhsl_ports, elab::DhslParams, TXGEN_DHSL_PORTS)
}  // namespace txgen::ports
