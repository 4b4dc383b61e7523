// Elaborated parameters of the SIMT-aware page-walk scheduler
// (docs/blocks/walk_sched.md, "Parameters and widths"). Shared by the
// emitter, the golden model and the harness (widths only; no behaviour).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "txgen/config/config.h"

namespace txgen::elab {

struct WalkSchedParams {
  std::string module_prefix;  // "walk_sched_<config name>"
  config::WalkPolicy policy = config::WalkPolicy::Simt;
  unsigned entries = 0;        // B
  unsigned index_bits = 0;     // log2 B
  unsigned count_bits = 0;     // clog2(B + 1)
  unsigned iid_bits = 0;       // IW
  unsigned walkers = 0;        // K
  unsigned walker_bits = 0;    // KB = max(1, clog2 K)
  unsigned levels = 0;         // LV
  unsigned level_bits = 0;     // X: index bits per page-table level
  unsigned vpn_bits = 0;       // VPN
  std::vector<unsigned> pwc_entries;  // PE[l - 1] for l = 1 .. LV - 1 (root first)
  std::vector<unsigned> pwc_tag_bits; // TB[l - 1] = VPN - (LV - l) x X
  unsigned wavefront = 0;      // MW
  unsigned score_bits = 0;     // SB = clog2(MW x LV + 1)
  uint64_t aging_threshold = 0;  // AT
  unsigned credit_bits = 0;    // AB = clog2(AT + 1)
  unsigned levels_per_cycle = 0;  // G
  unsigned select_latency = 0;    // L = ceil(log2 B / G)
  unsigned cooldown_bits = 0;     // clog2(L + 1)
  unsigned acc_bits = 3;          // disp_acc_o

  bool simt() const { return policy == config::WalkPolicy::Simt; }
  bool random() const { return policy == config::WalkPolicy::Random; }
};

// Throws txgen::ConfigError (exit code 2) naming the field when the
// configuration cannot be built.
WalkSchedParams elaborate_walk_sched(const config::Config& cfg);

}  // namespace txgen::elab
