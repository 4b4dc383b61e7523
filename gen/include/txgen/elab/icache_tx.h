// Elaborated parameters of the instruction-aware I-cache with translation ways
// (docs/blocks/icache_tx.md, "Organisation"): every width derived from the
// configuration. Shared by the emitter, the golden model and the harness
// (widths only; no behaviour lives here).
#pragma once

#include <optional>
#include <string>

#include "txgen/config/config.h"
#include "txgen/elab/bd_codec.h"

namespace txgen::elab {

struct IcacheTxParams {
  std::string module_prefix;  // "icache_tx_<config name>"
  config::IcacheVariant variant = config::IcacheVariant::Aware;
  config::IfillOrder ifill_order = config::IfillOrder::InvalidFirst;
  bool kernel_flush = true;
  std::optional<BdCodecParams> codec;  // present when X > 1

  // Cache organisation.
  unsigned bytes = 0;        // C
  unsigned ways = 0;         // A
  unsigned line_bytes = 0;   // LB
  unsigned line_bits = 0;    // LB x 8
  unsigned lines = 0;        // NL
  unsigned sets = 0;         // NS
  unsigned offset_bits = 0;  // OB
  unsigned set_bits = 0;     // SI
  unsigned way_bits = 0;     // WI (0 for one way)
  unsigned line_index_bits = 0;  // LI = SI + WI

  // Instruction side.
  unsigned va_bits = 0;         // VA
  unsigned itag_bits = 0;       // IT = VA - OB - SI
  unsigned base_tag_bits = 0;   // TB = 8 x tag_bytes

  // Translation side.
  unsigned vpn_bits = 0;        // VPN
  unsigned tx_index_bits = 0;   // XI: LI (direct_mapped) or SI (set)
  unsigned va_tag_bits = 0;     // T = VPN - XI
  unsigned vmid_bits = 0;       // M
  unsigned vrf_bits = 0;        // R
  unsigned ppn_bits = 0;        // P
  unsigned perm_bits = 0;       // Q
  unsigned tx_per_line = 0;     // X
  unsigned rank_bits = 0;       // clog2(X): the codec's LRU field (0 for X = 1)
  unsigned tx_tag_bits = 0;     // W (X > 1) or T + M + R (X = 1)
  unsigned entry_bits = 0;      // E = max(TB, tx_tag_bits)
  unsigned comparators = 0;     // CP
  unsigned groups = 0;          // NG = X / CP
  unsigned group_bits = 0;      // clog2(NG), at least 1

  unsigned sharers = 0;  // S
  unsigned cu_bits = 0;  // CB = max(1, clog2 S)

  bool packed() const { return tx_per_line > 1; }
};

// Throws txgen::ConfigError (exit code 2) naming the field when the
// configuration cannot be built.
IcacheTxParams elaborate_icache_tx(const config::Config& cfg);

}  // namespace txgen::elab
