// Elaborated parameters of the base-delta tag codec: every width derived from
// the configuration, and the feasibility checks of the documents' budgets.
// Shared by the emitter, the golden model and the harness (widths only; no
// behaviour lives here).
#pragma once

#include <string>

#include "txgen/config/config.h"

namespace txgen::elab {

struct BdCodecParams {
  std::string module_prefix;  // "bd_codec_<config name>"
  config::CodecEncoding encoding = config::CodecEncoding::Prefix;
  config::IdPlacement ids = config::IdPlacement::PerEntry;
  config::CompareStructure compare = config::CompareStructure::Pairwise;  // structure only

  // Derivation of the VA tag width.
  unsigned va_bits = 0;
  unsigned page_offset_bits = 0;
  unsigned index_bits = 0;  // host structure index (LDS segment / I-cache line or set)
  std::string index_source; // human-readable origin of index_bits

  // Fields of one uncompressed tag.
  unsigned tags = 0;         // N
  unsigned va_tag_bits = 0;  // T
  unsigned lru_bits = 0;     // L = ceil(log2(N))
  unsigned vmid_bits = 0;    // M
  unsigned vrf_bits = 0;     // R
  unsigned raw_tag_bits = 0; // 1 + L + M + R + T

  // Packed word.
  unsigned base_bits = 0;         // B: width of the base field
  unsigned delta_bits = 0;        // total of all entry fields
  unsigned entry_bits = 0;        // d = delta_bits / N
  unsigned entry_meta_bits = 0;   // valid + LRU (+ VMID + VRF when per entry)
  unsigned value_bits = 0;        // per-entry low bits (prefix) or signed delta (arith)
  unsigned base_value_bits = 0;   // prefix: T - value_bits; arith: T
  unsigned base_used_bits = 0;    // base_value_bits (+ M + R when shared)
  unsigned packed_bits = 0;       // B + delta_bits

  bool ids_shared() const { return ids == config::IdPlacement::Shared; }
};

// Throws txgen::ConfigError (exit code 2) naming the field when the
// configuration cannot be built.
BdCodecParams elaborate_bd_codec(const config::Config& cfg);

}  // namespace txgen::elab
