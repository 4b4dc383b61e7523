#include "txgen/elab/icache_tx.h"

#include <algorithm>
#include <string>

#include "txgen/elab/bits.h"
#include "txgen/error.h"

namespace txgen::elab {
namespace {

using std::to_string;

constexpr unsigned kTranslationBits = 64;  // one 8-byte translation per slot (Fig. 8c)

void require_sections(const config::Config& cfg) {
  if (!cfg.icache)
    throw ConfigError("$.icache", "(missing)", "required by $.icache_tx: the I-cache it controls");
  if (!cfg.translation)
    throw ConfigError("$.translation", "(missing)",
                      "required by $.icache_tx: the PPN and permission bits of a cached translation");
}

void derive_organisation(const config::Config& cfg, IcacheTxParams& p) {
  const config::IcacheConfig& ic = *cfg.icache;
  p.bytes = static_cast<unsigned>(ic.bytes);
  p.ways = ic.ways;
  p.line_bytes = ic.line_bytes;
  p.line_bits = ic.line_bytes * 8;
  p.lines = p.bytes / p.line_bytes;
  p.sets = p.lines / p.ways;
  if (p.ways < 2)
    throw ConfigError("$.icache.ways", to_string(p.ways),
                      "$.icache_tx needs at least 2 ways (the replacement chooses among them)");
  if (p.sets < 2)
    throw ConfigError("$.icache.bytes", to_string(ic.bytes),
                      "gives " + to_string(p.sets) + " set of " + to_string(p.ways) +
                          " ways; $.icache_tx needs at least 2 sets");
  p.offset_bits = log2_exact(p.line_bytes);
  p.set_bits = log2_exact(p.sets);
  p.way_bits = log2_exact(p.ways);
  p.line_index_bits = p.set_bits + p.way_bits;
}

void derive_instruction_tag(const config::Config& cfg, IcacheTxParams& p) {
  p.va_bits = cfg.system.va_bits;
  p.base_tag_bits = 8 * cfg.icache->tag_bytes;
  const int it = int(p.va_bits) - int(p.offset_bits) - int(p.set_bits);
  if (it < 1)
    throw ConfigError("$.system.va_bits", to_string(p.va_bits),
                      "leaves no instruction tag bit above " + to_string(p.offset_bits) +
                          " offset and " + to_string(p.set_bits) + " set bits");
  p.itag_bits = unsigned(it);
  if (p.itag_bits > p.base_tag_bits)
    throw ConfigError("$.icache.tag_bytes", to_string(cfg.icache->tag_bytes),
                      "too small: the instruction tag is " + to_string(p.va_bits) + " - " +
                          to_string(p.offset_bits) + " - " + to_string(p.set_bits) + " = " +
                          to_string(p.itag_bits) + " bits > " + to_string(p.base_tag_bits));
}

void derive_translation(const config::Config& cfg, IcacheTxParams& p) {
  const unsigned page_bits = log2_exact(cfg.system.page_bytes);
  p.vpn_bits = p.va_bits > page_bits ? p.va_bits - page_bits : 0;
  const bool direct = cfg.icache->tx_index == config::TxIndex::DirectMapped;
  p.tx_index_bits = direct ? p.line_index_bits : p.set_bits;
  if (p.vpn_bits <= p.line_index_bits)
    throw ConfigError("$.system.va_bits", to_string(p.va_bits),
                      "gives a " + to_string(p.vpn_bits) + "-bit VPN, no wider than the " +
                          to_string(p.line_index_bits) + " line-index bits of the translation indexing");
  p.va_tag_bits = p.vpn_bits - p.tx_index_bits;
  p.vmid_bits = cfg.system.vmid_bits;
  p.vrf_bits = cfg.system.vrf_bits;
  p.ppn_bits = cfg.translation->ppn_bits;
  p.perm_bits = cfg.translation->perm_bits;
}

void derive_packing(const config::Config& cfg, IcacheTxParams& p) {
  const config::IcacheTxConfig& c = *cfg.icache_tx;
  p.tx_per_line = c.translations_per_line;
  if (uint64_t{p.tx_per_line} * kTranslationBits > p.line_bits)
    throw ConfigError("$.icache_tx.translations_per_line", to_string(p.tx_per_line),
                      "does not fit a line: " + to_string(p.tx_per_line) + " x 64 bits > " +
                          to_string(p.line_bits) + " bits");
  if (p.tx_per_line > 1) {
    if (!cfg.bd_codec || cfg.bd_codec->host != config::CodecHost::Icache)
      throw ConfigError("$.bd_codec", cfg.bd_codec ? "host \"lds\"" : "(missing)",
                        "translations_per_line " + to_string(p.tx_per_line) +
                            " needs a bd_codec section with \"host\": \"icache\" (the widened tag)");
    if (cfg.bd_codec->tags != p.tx_per_line)
      throw ConfigError("$.icache_tx.translations_per_line", to_string(p.tx_per_line),
                        "must be 1 or $.bd_codec.tags (" + to_string(cfg.bd_codec->tags) + ")");
    p.codec = elaborate_bd_codec(cfg);
    p.rank_bits = p.codec->lru_bits;
    p.tx_tag_bits = p.codec->packed_bits;
  } else {
    p.rank_bits = 0;
    p.tx_tag_bits = p.va_tag_bits + p.vmid_bits + p.vrf_bits;
  }
  p.entry_bits = std::max(p.base_tag_bits, p.tx_tag_bits);
  p.comparators = c.comparators;
  if (p.comparators > p.tx_per_line || p.tx_per_line % p.comparators != 0)
    throw ConfigError("$.icache_tx.comparators", to_string(p.comparators),
                      "must divide translations_per_line (" + to_string(p.tx_per_line) + ")");
  p.groups = p.tx_per_line / p.comparators;
  p.group_bits = std::max(1u, clog2(p.groups));
}

}  // namespace

IcacheTxParams elaborate_icache_tx(const config::Config& cfg) {
  if (!cfg.icache_tx) throw ConfigError("$.icache_tx", "(missing)", "required to build icache_tx");
  require_sections(cfg);
  IcacheTxParams p;
  p.module_prefix = "icache_tx_" + cfg.name;
  p.variant = cfg.icache_tx->variant;
  p.ifill_order = cfg.icache_tx->ifill_order;
  p.kernel_flush = cfg.icache_tx->kernel_flush;
  derive_organisation(cfg, p);
  derive_instruction_tag(cfg, p);
  derive_translation(cfg, p);
  derive_packing(cfg, p);
  p.sharers = cfg.icache_tx->sharers;
  p.cu_bits = std::max(1u, clog2(p.sharers));
  return p;
}

}  // namespace txgen::elab
