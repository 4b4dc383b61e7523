// Elaborated parameters of the aggregated / clustered L1-TLBs
// (docs/blocks/l1tlb.md, "Parameters and widths"). Shared by the emitter,
// the golden model and the harness (widths only; no behaviour).
#pragma once

#include <cstdint>
#include <string>

#include "txgen/config/config.h"

namespace txgen::elab {

struct L1tlbParams {
  std::string module_prefix;  // "l1tlb_<config name>"
  config::L1tlbReplacement replacement = config::L1tlbReplacement::Lru;
  unsigned cus = 0;            // U
  unsigned tlbs = 0;           // T
  unsigned clusters = 0;       // C
  unsigned ways = 0;           // W
  unsigned sets = 0;           // S = U / T
  unsigned cus_per_cluster = 0;   // N = U / C (crossbar inputs)
  unsigned tlbs_per_cluster = 0;  // K = T / C (crossbar outputs)
  unsigned cus_per_tlb = 0;       // U / T
  unsigned mshrs_per_cu = 0;
  unsigned mshrs = 0;          // M = (U / T) x mshrs_per_cu, per TLB
  unsigned entries_per_tlb = 0;   // S x W
  unsigned entries_total = 0;     // T x S x W = U x W
  // Widths.
  unsigned vpn_bits = 0;       // VPN = va_bits - log2 page_bytes
  unsigned vmid_bits = 0;      // VM
  unsigned ppn_bits = 0;       // PPN
  unsigned perm_bits = 0;      // PERM
  unsigned iid_bits = 0;       // IW: the instruction ID a request carries to its L2 request (0: none)
  unsigned home_bits = 0;      // HB = log2 K: VPN[HB-1:0] picks the TLB in the cluster
  unsigned set_bits = 0;       // SB = log2 S: VPN[HB+SB-1:HB] picks the set
  unsigned vpn_tag_bits = 0;   // TG = VPN - HB - SB (>= 1)
  unsigned tag_bits = 0;       // TAG = TG + VM (stored tag: {vmid, vpn tag})
  unsigned vpn_hi_bits = 0;    // VH = VPN - HB = SB + TG (MSHR address field)
  unsigned cu_bits = 0;        // CB = log2 N (CU index inside a cluster; 0 when N = 1)
  unsigned tlb_bits = 0;       // log2 T (global TLB index)
  unsigned mshr_bits = 0;      // MB = max(1, clog2 M)
  unsigned l2_tag_bits = 0;    // LT = HB + MB: {TLB in cluster, MSHR index}
  unsigned age_bits = 0;       // log2 W (lru: age per way)
  // lru: how the order is held (docs/blocks/l1tlb.md, Replacement): an order
  // matrix (one bit per pair of ways) or per-way ages. Hardware only: the
  // order, and so every victim, is the same.
  bool lru_matrix = false;
  // lru: the decide stage's touch and the one-VPN shootdown's untouch take
  // effect one edge late, first at that edge (docs/blocks/l1tlb.md,
  // Replacement); ages only
  bool lru_touch_next = false;
  bool plru_index = false;  // PLRU touches from registered binary way indices
  // a miss allocates the MSHR at the head of a queue of free MSHRs (freed
  // ones join its tail; reset order 0 .. M-1) instead of the lowest-index
  // free one (docs/blocks/l1tlb.md, Decide stage)
  bool mshr_fifo = false;
  unsigned repl_bits_per_set = 0;  // lru: W (W-1) / 2 (matrix) or W x log2 W (ages); plru: W - 1
  // a two-entry FIFO per CU in front of the crossbar (docs/blocks/l1tlb.md,
  // "Input buffer"): req_ready_o from registers, one cycle more per request
  bool input_buffer = false;
  // Cycle counts of the RTL (docs/blocks/l1tlb.md, "Timing"); with the input
  // buffer the crossbar, the hit latency and the miss-to-L2 time are one more.
  unsigned xbar_cycles = 1;    // request cycle t, registered into the compare stage at edge t
  unsigned lookup_cycles = 2;  // compare, decide
  unsigned hit_latency = 3;    // accepted in cycle t -> resp_valid_o in cycle t + 3
  unsigned fill_latency = 4;   // l2_resp_valid_i in cycle f -> fill_valid_o in cycle f + 4
  unsigned miss_to_l2 = 4;     // accepted in cycle t -> l2_req_valid_o in cycle t + 4 at the earliest

  bool plru() const { return replacement == config::L1tlbReplacement::Plru; }
};

// Throws txgen::ConfigError (exit code 2) naming the field when the
// configuration cannot be built.
L1tlbParams elaborate_l1tlb(const config::Config& cfg);

}  // namespace txgen::elab
