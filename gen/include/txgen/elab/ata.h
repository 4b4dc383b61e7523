// Elaborated parameters of the aggregated tag array (docs/blocks/ata.md,
// "Parameters and widths"). Shared by the emitter, the golden model and the
// harness (widths only; no behaviour).
#pragma once

#include <cstdint>
#include <string>

#include "txgen/config/config.h"

namespace txgen::elab {

struct AtaParams {
  std::string module_prefix;  // "ata_<config name>"
  config::AtaReplacement replacement = config::AtaReplacement::Lru;
  config::AtaRemotePick remote_pick = config::AtaRemotePick::Nearest;
  config::AtaMode mode = config::AtaMode::Ata;
  unsigned cores = 0;         // N
  unsigned ways = 0;          // W
  unsigned sets = 0;          // S = l1_bytes / (line_bytes x W)
  unsigned line_bytes = 0;    // LB
  unsigned sector_bytes = 0;  // SBY
  unsigned sectors = 0;       // SC = LB / SBY
  uint64_t l1_bytes = 0;
  // Widths.
  unsigned addr_bits = 0;     // A
  unsigned offset_bits = 0;   // OB = log2 LB
  unsigned sector_bits = 0;   // XB = log2 SC (0 when SC = 1)
  unsigned set_bits = 0;      // SB = log2 S (0 when S = 1)
  unsigned tag_bits = 0;      // TG = A - OB - SB (>= 1)
  unsigned core_bits = 0;     // CI = max(1, clog2 N)
  unsigned way_bits = 0;      // WB = log2 W
  unsigned set_port_bits = 0;     // max(1, SB): width of da_set_o per array
  unsigned sector_port_bits = 0;  // max(1, XB): width of da_sector_o per array
  unsigned repl_bits_per_set = 0; // lru: W x WB; plru: W - 1
  // Cycle counts of the contract (docs/blocks/ata.md, "Timing summary").
  unsigned local_hit_latency = 4;   // accepted in t -> resp_valid_o in t + 4
  unsigned remote_hit_latency = 5;  // accepted in t -> resp_valid_o in t + 5
  unsigned l2_request_delay = 3;    // accepted in t -> l2_req_valid_o from t + 3
  unsigned fill_after_l2 = 2;       // l2_resp_valid_i in r -> resp_valid_o in r + 2

  bool plru() const { return replacement == config::AtaReplacement::Plru; }
  bool aggregated() const { return mode == config::AtaMode::Ata; }
  bool round_robin() const { return remote_pick == config::AtaRemotePick::RoundRobin; }
};

// Throws txgen::ConfigError (exit code 2) naming the field when the
// configuration cannot be built.
AtaParams elaborate_ata(const config::Config& cfg);

}  // namespace txgen::elab
