#include "txgen/elab/lds_ctrl.h"

#include <string>

#include "txgen/elab/bits.h"
#include "txgen/error.h"

namespace txgen::elab {
namespace {

using std::to_string;

constexpr unsigned kWordBits = 64;  // tag words and translations are 8 bytes (Fig. 6b)

void require_sections(const config::Config& cfg) {
  if (!cfg.lds)
    throw ConfigError("$.lds", "(missing)", "required by $.lds_ctrl: the LDS it controls");
  if (!cfg.bd_codec || cfg.bd_codec->host != config::CodecHost::Lds)
    throw ConfigError("$.bd_codec", cfg.bd_codec ? "host \"icache\"" : "(missing)",
                      "$.lds_ctrl needs a bd_codec section with \"host\": \"lds\" (its tag word)");
  if (!cfg.translation)
    throw ConfigError("$.translation", "(missing)",
                      "required by $.lds_ctrl: the PPN and permission bits of a cached translation");
}

void derive_segment(const config::Config& cfg, LdsCtrlParams& p) {
  p.lds_bytes = static_cast<unsigned>(cfg.lds->bytes);
  p.segment_bytes = cfg.lds->segment_bytes;
  p.segments = p.lds_bytes / p.segment_bytes;
  p.segment_index_bits = log2_exact(p.segments);
  p.ways = p.codec.tags;
  p.segment_words = p.segment_bytes * 8 / kWordBits;
  if (p.codec.packed_bits % kWordBits != 0)
    throw ConfigError("$.bd_codec.delta_bits", to_string(p.codec.delta_bits),
                      "the tag word (base_bits + delta_bits = " + to_string(p.codec.packed_bits) +
                          ") must be whole 8-byte LDS words for $.lds_ctrl");
  p.tag_words = p.codec.packed_bits / kWordBits;
  if (p.tag_words + p.ways > p.segment_words)
    throw ConfigError("$.bd_codec.tags", to_string(p.ways),
                      "a " + to_string(p.segment_bytes) + "-byte segment has " +
                          to_string(p.segment_words) + " words; " + to_string(p.tag_words) +
                          " tag words + " + to_string(p.ways) + " translations do not fit");
}

void derive_sram(const config::Config& cfg, LdsCtrlParams& p) {
  p.bank_bytes = cfg.lds->bank_bytes;
  p.banks = cfg.lds->banks;
  p.row_bytes = p.banks * p.bank_bytes;
  p.row_bits = p.row_bytes * 8;
  p.rows = p.lds_bytes / p.row_bytes;
  // At least two rows: the LDS is at least 1 KB and a row at most 64 x 8 B.
  p.row_index_bits = log2_exact(p.rows);
  p.segments_per_row = p.row_bytes / p.segment_bytes;
  p.banks_per_segment = p.segment_bytes / p.bank_bytes;
  p.banks_per_word = 8 / p.bank_bytes;
}

void derive_fields(const config::Config& cfg, LdsCtrlParams& p) {
  p.vpn_bits = p.codec.va_bits - p.codec.page_offset_bits;
  p.va_tag_bits = p.codec.va_tag_bits;
  p.vmid_bits = p.codec.vmid_bits;
  p.vrf_bits = p.codec.vrf_bits;
  p.ppn_bits = cfg.translation->ppn_bits;
  p.perm_bits = cfg.translation->perm_bits;
}

void derive_allocation(const config::Config& cfg, LdsCtrlParams& p) {
  p.max_work_groups = cfg.lds_ctrl->max_work_groups;
  p.size_bits = p.segment_index_bits + 1;
  p.clear_bits = cfg.lds_ctrl->clear_bits_per_cycle;
  if (p.clear_bits > p.segments)
    throw ConfigError("$.lds_ctrl.clear_bits_per_cycle", to_string(p.clear_bits),
                      "exceeds the " + to_string(p.segments) + " segments (mode bits) of the LDS");
  p.clear_groups = p.segments / p.clear_bits;
}

}  // namespace

LdsCtrlParams elaborate_lds_ctrl(const config::Config& cfg) {
  require_sections(cfg);
  LdsCtrlParams p;
  p.module_prefix = "lds_ctrl_" + cfg.name;
  p.codec = elaborate_bd_codec(cfg);
  derive_segment(cfg, p);
  derive_sram(cfg, p);
  derive_fields(cfg, p);
  derive_allocation(cfg, p);
  return p;
}

}  // namespace txgen::elab
