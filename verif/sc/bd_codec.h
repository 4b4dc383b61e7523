// SystemC view of bd_codec_NAME_decomp, the decompressor stage
// (docs/blocks/bd_codec.md): the golden model as an sc_module with the
// Verilated model's ports (verif/sc/block.h). Its Out holds the stage's
// outputs and the per-entry tags flattened into the tag_*_o vectors.
#pragma once

#include "bd_codec_harness.h"
#include "model/bd_codec.h"
#include "sc/block.h"
#include "txgen/elab/bd_codec.h"

namespace txgen::verif::sc {

struct BdDecompTraits {
  using Params = elab::BdCodecParams;
  using Model = model::BdDecompStage;
  using In = model::BdDecompIn;
  struct Out {
    model::BdDecompOut stage;
    BdTagVectors tags;
  };
  static Model make(const Params& p) { return Model(p); }
  static In idle(const Model&, const Params& p) {
    In in;
    in.packed = Bits(p.packed_bits);
    return in;
  }
  static void outputs(Model& m, const Params& p, const In& in, Out& out) {
    out.stage = m.outputs(in);
    out.tags = flatten_tags(p, out.stage.tags);
  }
};

#define TXGEN_SC_BD_DECOMP_PORTS(IN, OUT, OUT_IF)  \
  IN(rst_ni, rst_n, 1)                             \
  IN(in_valid_i, in_valid, 1)                      \
  IN(packed_i, packed, p.packed_bits)              \
  IN(out_ready_i, out_ready, 1)                    \
  OUT(in_ready_o, stage.in_ready, 1)               \
  OUT(out_valid_o, stage.out_valid, 1)             \
  OUT(tag_valid_o, tags.valid, p.tags)             \
  OUT(tag_lru_o, tags.lru, p.tags * p.lru_bits)    \
  OUT(tag_vmid_o, tags.vmid, p.tags * p.vmid_bits) \
  OUT(tag_vrf_o, tags.vrf, p.tags * p.vrf_bits)    \
  OUT(tag_va_o, tags.va, p.tags * p.va_tag_bits)

TXGEN_SC_BLOCK(BdDecompSc, BdDecompTraits, TXGEN_SC_BD_DECOMP_PORTS)

}  // namespace txgen::verif::sc
