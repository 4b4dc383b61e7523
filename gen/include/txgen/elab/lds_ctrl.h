// Elaborated parameters of the reconfigurable LDS controller
// (docs/blocks/lds_ctrl.md, "Organisation"): every width derived from the
// configuration. Shared by the emitter, the golden model and the harness
// (widths only; no behaviour lives here).
#pragma once

#include <string>

#include "txgen/config/config.h"
#include "txgen/elab/bd_codec.h"

namespace txgen::elab {

struct LdsCtrlParams {
  std::string module_prefix;  // "lds_ctrl_<config name>"
  BdCodecParams codec;        // the tag word (host lds)

  // LDS organisation.
  unsigned lds_bytes = 0;
  unsigned segment_bytes = 0;       // SB
  unsigned segments = 0;            // S
  unsigned segment_index_bits = 0;  // SI = log2 S
  unsigned ways = 0;                // N = codec.tags
  unsigned tag_words = 0;           // TW = W / 64
  unsigned segment_words = 0;       // SB / 8

  // SRAM.
  unsigned bank_bytes = 0;         // BB
  unsigned banks = 0;              // NB
  unsigned row_bytes = 0;          // RB = NB x BB
  unsigned row_bits = 0;           // RB x 8
  unsigned rows = 0;               // ROWS
  unsigned row_index_bits = 0;     // RI = max(1, log2 ROWS)
  unsigned segments_per_row = 0;   // SPR
  unsigned banks_per_segment = 0;  // BPS
  unsigned banks_per_word = 0;     // 8 / BB

  // Translation fields.
  unsigned vpn_bits = 0;     // VA bits - page offset bits
  unsigned va_tag_bits = 0;  // T = VPN - SI
  unsigned vmid_bits = 0;    // M
  unsigned vrf_bits = 0;     // R
  unsigned ppn_bits = 0;     // P
  unsigned perm_bits = 0;    // Q

  // Work-group allocation and mode-bit clearing.
  unsigned max_work_groups = 0;  // K
  unsigned size_bits = 0;        // SI + 1 (wg_size_i, table end)
  unsigned clear_bits = 0;       // G
  unsigned clear_groups = 0;     // S / G
};

// Throws txgen::ConfigError (exit code 2) naming the field when the
// configuration cannot be built.
LdsCtrlParams elaborate_lds_ctrl(const config::Config& cfg);

}  // namespace txgen::elab
