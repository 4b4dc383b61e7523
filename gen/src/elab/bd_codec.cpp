#include "txgen/elab/bd_codec.h"

#include <algorithm>
#include <string>

#include "txgen/elab/bits.h"
#include "txgen/error.h"

namespace txgen::elab {
namespace {

using config::CodecHost;
using config::CodecEncoding;
using std::to_string;

constexpr unsigned kTranslationBits = 64;  // one 8-byte translation (Fig. 6b, Fig. 8c)

void derive_index(const config::Config& cfg, BdCodecParams& p) {
  const config::BdCodecConfig& b = *cfg.bd_codec;
  if (b.host == CodecHost::Lds) {
    const uint64_t segments = cfg.lds->bytes / cfg.lds->segment_bytes;
    p.index_bits = log2_exact(segments);
    p.index_source = "log2(" + to_string(segments) + " LDS segments)";
    return;
  }
  const config::IcacheConfig& ic = *cfg.icache;
  const uint64_t lines = ic.bytes / ic.line_bytes;
  if (ic.tx_index == config::TxIndex::DirectMapped) {
    p.index_bits = log2_exact(lines);
    p.index_source = "log2(" + to_string(lines) + " I-cache lines, direct-mapped)";
  } else {
    const uint64_t sets = lines / ic.ways;
    p.index_bits = log2_exact(sets);
    p.index_source = "log2(" + to_string(sets) + " I-cache sets)";
  }
}

void derive_tag_fields(const config::Config& cfg, BdCodecParams& p) {
  p.va_bits = cfg.system.va_bits;
  p.page_offset_bits = log2_exact(cfg.system.page_bytes);
  derive_index(cfg, p);
  const int t = int(p.va_bits) - int(p.page_offset_bits) - int(p.index_bits);
  if (t < 1)
    throw ConfigError("$.system.va_bits", to_string(p.va_bits),
                      "leaves no VA tag bit: " + to_string(p.va_bits) + " - " +
                          to_string(p.page_offset_bits) + " page-offset bits - " +
                          to_string(p.index_bits) + " index bits (" + p.index_source +
                          ") = " + to_string(t));
  p.va_tag_bits = unsigned(t);
  p.lru_bits = clog2(p.tags);
  p.vmid_bits = cfg.system.vmid_bits;
  p.vrf_bits = cfg.system.vrf_bits;
  p.raw_tag_bits = 1 + p.lru_bits + p.vmid_bits + p.vrf_bits + p.va_tag_bits;
}

std::string entry_meta_text(const BdCodecParams& p) {
  std::string s = "valid 1 + LRU " + to_string(p.lru_bits);
  if (!p.ids_shared())
    s += " + VMID " + to_string(p.vmid_bits) + " + VRF " + to_string(p.vrf_bits);
  return s + " = " + to_string(p.entry_meta_bits);
}

void derive_entry(BdCodecParams& p) {
  p.entry_bits = p.delta_bits / p.tags;
  p.entry_meta_bits = 1 + p.lru_bits + (p.ids_shared() ? 0 : p.vmid_bits + p.vrf_bits);
  const unsigned need_value = clog2(p.tags);
  if (p.entry_meta_bits + need_value > p.entry_bits) {
    const int left = int(p.entry_bits) - int(p.entry_meta_bits);
    throw ConfigError(
        "$.bd_codec.delta_bits", to_string(p.delta_bits),
        "too small: each of the " + to_string(p.tags) + " entries gets " +
            to_string(p.delta_bits) + " / " + to_string(p.tags) + " = " +
            to_string(p.entry_bits) + " bits, its metadata takes " + entry_meta_text(p) +
            ", leaving " + to_string(left) + " VA-tag bits where at least " +
            to_string(need_value) + " are needed to tell " + to_string(p.tags) +
            " tags apart" + (p.ids_shared() ? "" : " (ids: \"shared\" moves VMID/VRF into the base)"));
  }
  p.value_bits = std::min(p.entry_bits - p.entry_meta_bits, p.va_tag_bits);
}

void derive_base(BdCodecParams& p) {
  const bool arith = p.encoding == CodecEncoding::Arith;
  p.base_value_bits = arith ? p.va_tag_bits : p.va_tag_bits - p.value_bits;
  p.base_used_bits = p.base_value_bits + (p.ids_shared() ? p.vmid_bits + p.vrf_bits : 0);
  if (p.base_used_bits <= p.base_bits) return;
  std::string what = arith ? "the arith encoding keeps the whole " + to_string(p.va_tag_bits) +
                                 "-bit VA tag in the base"
                           : "the prefix encoding keeps " + to_string(p.va_tag_bits) + " - " +
                                 to_string(p.value_bits) + " = " +
                                 to_string(p.base_value_bits) + " VA-tag bits in the base";
  if (p.ids_shared())
    what += ", plus VMID " + to_string(p.vmid_bits) + " + VRF " + to_string(p.vrf_bits);
  throw ConfigError("$.bd_codec.base_bits", to_string(p.base_bits),
                    "too small: " + what + ", " + to_string(p.base_used_bits) + " bits in all");
}

void check_host_capacity(const config::Config& cfg, const BdCodecParams& p) {
  const uint64_t tx_bits = uint64_t{p.tags} * kTranslationBits;
  if (cfg.bd_codec->host == CodecHost::Lds) {
    const uint64_t seg_bits = uint64_t{cfg.lds->segment_bytes} * 8;
    if (tx_bits + p.packed_bits > seg_bits)
      throw ConfigError("$.bd_codec.tags", to_string(p.tags),
                        "does not fit an LDS segment: " + to_string(p.tags) +
                            " translations x 64 bits + " + to_string(p.packed_bits) +
                            " tag bits > " + to_string(seg_bits) + " bits of a " +
                            to_string(cfg.lds->segment_bytes) + "-byte segment");
    return;
  }
  const uint64_t line_bits = uint64_t{cfg.icache->line_bytes} * 8;
  if (tx_bits > line_bits)
    throw ConfigError("$.bd_codec.tags", to_string(p.tags),
                      "does not fit an I-cache line: " + to_string(p.tags) +
                          " translations x 64 bits > " + to_string(line_bits) + " bits");
}

}  // namespace

BdCodecParams elaborate_bd_codec(const config::Config& cfg) {
  if (!cfg.bd_codec) throw ConfigError("$.bd_codec", "(missing)", "required to build bd_codec");
  const config::BdCodecConfig& b = *cfg.bd_codec;
  BdCodecParams p;
  p.module_prefix = "bd_codec_" + cfg.name;
  p.encoding = b.encoding;
  p.ids = b.ids;
  p.compare = b.compare;
  p.tags = b.tags;
  p.base_bits = b.base_bits;
  p.delta_bits = b.delta_bits;
  p.packed_bits = b.base_bits + b.delta_bits;
  derive_tag_fields(cfg, p);
  derive_entry(p);
  derive_base(p);
  check_host_capacity(cfg, p);
  return p;
}

}  // namespace txgen::elab
