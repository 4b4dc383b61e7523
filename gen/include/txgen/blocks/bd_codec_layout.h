// Bit positions of the bd_codec packed word as the emitter and the report see
// them (docs/blocks/bd_codec.md, "Packed word"). The golden model computes its
// own positions from the document.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "txgen/blocks/block.h"
#include "txgen/config/config.h"
#include "txgen/elab/bd_codec.h"

namespace txgen::blocks {

struct BitField {
  std::string name;
  unsigned lsb;
  unsigned width;
};

struct LayoutBd {
  explicit LayoutBd(const elab::BdCodecParams& p);

  unsigned entry_lsb(unsigned i) const { return base_bits + i * entry_bits; }

  unsigned base_bits, entry_bits;
  unsigned base_used_bits, base_pad_bits;
  unsigned entry_value_lsb, entry_pad_bits;
  std::vector<BitField> base_fields;   // within the base field
  std::vector<BitField> entry_fields;  // within one entry field
};

// The combinational pack/unpack cores, for blocks that instantiate the codec.
std::vector<EmittedFile> bd_codec_core_files(const elab::BdCodecParams& p, const EmitContext& ctx);

nlohmann::json bd_codec_params_json(const elab::BdCodecParams& p);
nlohmann::json bd_codec_report_json(const config::Config& cfg);
std::string bd_codec_report_markdown(const config::Config& cfg);

}  // namespace txgen::blocks
