// Elaborated parameters of the L2-TLB and the IOMMU (docs/blocks/iommu.md,
// "Parameters and widths"). Shared by the emitter, the golden model and the
// harness (widths only; no behaviour).
#pragma once

#include <string>

#include "txgen/config/config.h"
#include "txgen/elab/walk_sched.h"

namespace txgen::elab {

struct L2tlbParams {
  std::string module_prefix;  // "iommu_<config name>_l2tlb"
  unsigned entries = 0;       // N
  unsigned ways = 0;          // W
  unsigned sets = 0;          // S = N / W
  unsigned set_bits = 0;      // SI = log2 S
  unsigned tag_bits = 0;      // VPN - SI: the array's tag
  unsigned ports = 0;         // P
  unsigned port_bits = 0;     // PB = max(1, clog2 P)
  unsigned req_tag_bits = 0;  // T: the requester's tag
  unsigned mshrs = 0;         // M
  unsigned mshr_bits = 0;     // MB = max(1, clog2 M)
  unsigned mshr_count_bits = 0;  // clog2(M + 1): mshrs_o
  unsigned waiters = 0;       // R
  unsigned waiter_bits = 0;   // RB = max(1, clog2 R)
  unsigned stages = 0;        // D
  bool answer_register = false;  // the walk answer register (docs/blocks/iommu.md, "The walk port")
  unsigned vpn_bits = 0;      // VPN
  unsigned vmid_bits = 0;     // VM
  unsigned ppn_bits = 0;      // PPN
  unsigned perm_bits = 0;     // Q
  unsigned iid_bits = 0;      // IW
};

struct IommuParams {
  std::string module_prefix;  // "iommu_<config name>"
  L2tlbParams l2;
  // The scheduler (module iommu_<name>_walk_sched): the walk_sched section
  // with vpn_bits = VM + VPN and every PWC tag VM bits wider.
  WalkSchedParams sched;
  unsigned vpn_bits = 0;      // VPN
  unsigned vmid_bits = 0;     // VM
  unsigned ppn_bits = 0;      // PPN
  unsigned perm_bits = 0;     // Q
  unsigned iid_bits = 0;      // IW
  unsigned walkers = 0;       // K
  unsigned walker_bits = 0;   // max(1, clog2 K)
  unsigned levels = 0;        // LV
  unsigned level_bits = 3;    // mem_req_level_o (levels 1 .. LV <= 5)
};

// Throws txgen::ConfigError (exit code 2) naming the field when the
// configuration cannot be built.
IommuParams elaborate_iommu(const config::Config& cfg);

// The L2-TLB behind a path's L2 port (the evaluation): its requests' tag must
// carry the path's {CU, L1 tag} and the translation widths must agree; the
// hit's round trip `l2_latency` must cover the L2-TLB's D + 2 cycles and a
// wire cycle each way. ConfigError naming the field otherwise.
// The L2-TLB inside the path's top (tx_path_<name>_l2): the same widths, and
// one request port (the path's).
void check_inside_path(const IommuParams& io, unsigned path_l2_tag_bits, unsigned path_vpn_bits,
                       unsigned path_ppn_bits);
void check_behind_path(const IommuParams& io, unsigned path_l2_tag_bits, unsigned path_vpn_bits,
                       unsigned path_ppn_bits, unsigned l2_latency);

}  // namespace txgen::elab
