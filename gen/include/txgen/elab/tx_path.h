// Elaborated parameters of the L1-TLB -> LDS -> I-cache -> L2-TLB path
// (docs/blocks/tx_path.md, "Organisation"): the member blocks' parameters,
// elaborated from configurations derived from the path's, and the widths of
// the path's own ports. Shared by the emitter, the golden model and the
// harness (widths only; no behaviour lives here).
#pragma once

#include <string>

#include "txgen/config/config.h"
#include "txgen/elab/icache_tx.h"
#include "txgen/elab/l1tlb.h"
#include "txgen/elab/lds_ctrl.h"

namespace txgen::elab {

struct TxPathParams {
  std::string module_prefix;  // "tx_path_<config name>"
  // The member blocks' configurations (derived) and parameters.
  config::Config l1_cfg, lds_cfg, ic_cfg;
  L1tlbParams l1;     // U CUs, T TLBs, C clusters (default T = C = U), module l1tlb_<name>
  LdsCtrlParams lds;  // one per CU, module lds_ctrl_<name>_lds
  IcacheTxParams ic;  // one per group of S CUs, module icache_tx_<name>_ic

  unsigned cus = 0;           // U
  unsigned tlbs = 0;          // T: L1-TLBs
  unsigned clusters = 0;      // C: L1 clusters (one L2 port each)
  unsigned cluster_cus = 1;   // N = U / C: CUs sharing a cluster's TLBs
  unsigned local_bits = 0;    // CB = log2 N: the allocating CU within a cluster (0: private)
  unsigned l1_pad = 0;        // Z: request registers before the L1 (latency "document")
  unsigned sharers = 0;       // S: CUs per I-cache
  unsigned icaches = 0;       // G = U / S
  unsigned victim_queue = 0;  // D
  unsigned wire_lds = 0;      // WL
  unsigned wire_icache = 0;   // WI
  unsigned slots = 1;         // K: lookup slots per CU (1 = the blocking stage)
  bool move = true;           // promotion: move (remove below on a hit) or copy
  bool speculative = false;   // the L2-TLB request leaves beside the lookups below the L1

  // Widths.
  unsigned vpn_bits = 0, vmid_bits = 0, vrf_bits = 0, ppn_bits = 0, perm_bits = 0;
  unsigned iid_bits = 0;     // IW: the requests' SIMD instruction ID (walk_sched.iid_bits with an iommu section)
  unsigned l1_tag_bits = 0;  // LT: the L1-TLB's L2 tag (its MSHR index)
  unsigned cu_bits = 0;      // CUB = max(1, clog2 U)
  unsigned l2_tag_bits = 0;  // PT = CUB + LT: {CU, L1 tag}
  unsigned sharer_bits = 0;  // the I-cache's CU field: max(1, clog2 S)
  unsigned icache_bits = 0;  // max(1, clog2 G)
  unsigned wire_bits = 0;    // the wire counter: max(1, clog2 max(WL, WI))
  unsigned count_bits = 0;   // occ and out: clog2(D + 1)

  // Translation reach (entries) of one CU's structures and of the path.
  unsigned l1_entries = 0;         // W1 per CU
  unsigned lds_entries = 0;        // segments x ways per CU (all segments idle)
  unsigned icache_entries = 0;     // lines x translations per line per I-cache (all lines Tx)
};

// Throws txgen::ConfigError (exit code 2) naming the path's field
// ($.tx_path....) when the configuration cannot be built.
TxPathParams elaborate_tx_path(const config::Config& cfg);

}  // namespace txgen::elab
