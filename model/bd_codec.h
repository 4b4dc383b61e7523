// Golden reference model of the base-delta tag codec (docs/blocks/bd_codec.md).
// Written from the block document alone; shares only the elaborated widths
// (txgen/elab/bd_codec.h) with the generator, never its emission code.
#pragma once

#include <cstdint>
#include <vector>

#include "txgen/elab/bd_codec.h"

namespace txgen::model {

// A bit vector of a fixed width, stored as 32-bit words, least significant
// word first (the layout of Verilator's wide signals).
struct Bits {
  unsigned width = 0;
  std::vector<uint32_t> words;

  explicit Bits(unsigned w = 0) : width(w), words((w + 31) / 32, 0u) {}
  bool get(unsigned bit) const;
  void set(unsigned bit, bool value);
  uint64_t field(unsigned lsb, unsigned bits) const;            // bits <= 64
  void set_field(unsigned lsb, unsigned bits, uint64_t value);  // bits <= 64
  bool operator==(const Bits& o) const { return width == o.width && words == o.words; }
  bool operator!=(const Bits& o) const { return !(*this == o); }
};

struct BdTag {
  bool valid = false;
  uint32_t lru = 0;
  uint32_t vmid = 0;
  uint32_t vrf = 0;
  uint64_t va = 0;
  bool operator==(const BdTag& o) const {
    return valid == o.valid && lru == o.lru && vmid == o.vmid && vrf == o.vrf && va == o.va;
  }
};

struct BdCompressed {
  Bits packed;
  bool fits = true;
  uint32_t dropped = 0;  // bit i: valid entry i did not fit and was left out
};

// Untimed functions: the compression and decompression rules.
class BdCodecModel {
 public:
  explicit BdCodecModel(const elab::BdCodecParams& p);
  BdCompressed compress(const std::vector<BdTag>& tags) const;  // tags.size() == N
  std::vector<BdTag> decompress(const Bits& packed) const;      // packed.width == W
  const elab::BdCodecParams& params() const { return p_; }

 private:
  elab::BdCodecParams p_;
};

// Cycle models of the valid/ready stages (bd_codec_NAME_comp / _decomp).
// Per cycle the harness calls outputs(in) with the inputs held before the rising
// edge (asynchronous reset applies when in.rst_n is false), compares, then
// calls posedge(in) for the edge.
struct BdCompIn {
  bool rst_n = true;
  bool in_valid = false;
  std::vector<BdTag> tags;  // N entries
  bool out_ready = false;
};
struct BdCompOut {
  bool in_ready = false;
  bool out_valid = false;
  BdCompressed result;
};

class BdCompStage {
 public:
  explicit BdCompStage(const elab::BdCodecParams& p);
  BdCompOut outputs(const BdCompIn& in);
  void posedge(const BdCompIn& in);

 private:
  BdCodecModel codec_;
  bool out_valid_q_ = false;
  BdCompressed data_q_;
};

struct BdDecompIn {
  bool rst_n = true;
  bool in_valid = false;
  Bits packed;  // width W
  bool out_ready = false;
};
struct BdDecompOut {
  bool in_ready = false;
  bool out_valid = false;
  std::vector<BdTag> tags;  // N entries
};

class BdDecompStage {
 public:
  explicit BdDecompStage(const elab::BdCodecParams& p);
  BdDecompOut outputs(const BdDecompIn& in);
  void posedge(const BdDecompIn& in);

 private:
  BdCodecModel codec_;
  bool out_valid_q_ = false;
  std::vector<BdTag> data_q_;
};

}  // namespace txgen::model
