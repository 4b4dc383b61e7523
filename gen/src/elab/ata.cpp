#include "txgen/elab/ata.h"

#include <algorithm>
#include <string>

#include "txgen/elab/bits.h"
#include "txgen/error.h"

namespace txgen::elab {

using std::to_string;

AtaParams elaborate_ata(const config::Config& cfg) {
  if (!cfg.ata) throw ConfigError("$.ata", "(missing)", "required by the ata block");
  const config::AtaConfig& c = *cfg.ata;
  // the fields' own rules are parse_config()'s; the rules between them are here
  auto pow2 = [](uint64_t v) { return v != 0 && (v & (v - 1)) == 0; };
  if (!pow2(c.sector_bytes) || c.sector_bytes > c.line_bytes || c.line_bytes / c.sector_bytes > 16)
    throw ConfigError("$.ata.sector_bytes", to_string(c.sector_bytes),
                      "must be a power of two dividing $.ata.line_bytes (" + to_string(c.line_bytes) +
                          ") into at most 16 sectors");
  const uint64_t line_set = uint64_t{c.line_bytes} * c.ways;
  if (!pow2(c.l1_bytes) || c.l1_bytes < line_set)
    throw ConfigError("$.ata.l1_bytes", to_string(c.l1_bytes),
                      "must be a power of two holding at least one set of $.ata.ways x $.ata.line_bytes = " +
                          to_string(line_set) + " bytes");

  AtaParams p;
  p.module_prefix = "ata_" + cfg.name;
  p.replacement = c.replacement;
  p.remote_pick = c.remote_pick;
  p.mode = c.mode;
  p.cores = c.cores;
  p.ways = c.ways;
  p.l1_bytes = c.l1_bytes;
  p.line_bytes = c.line_bytes;
  p.sector_bytes = c.sector_bytes;
  p.sectors = c.line_bytes / c.sector_bytes;
  p.sets = static_cast<unsigned>(c.l1_bytes / line_set);
  p.addr_bits = c.addr_bits;
  p.offset_bits = log2_exact(c.line_bytes);
  p.sector_bits = log2_exact(p.sectors);
  p.set_bits = log2_exact(p.sets);
  if (p.addr_bits < p.offset_bits + p.set_bits + 1)
    throw ConfigError("$.ata.addr_bits", to_string(c.addr_bits),
                      "too narrow: " + to_string(p.offset_bits) + " line-offset bits and " + to_string(p.set_bits) +
                          " set bits leave no tag bit");
  p.tag_bits = p.addr_bits - p.offset_bits - p.set_bits;
  p.core_bits = std::max(1u, clog2(p.cores));
  p.way_bits = log2_exact(p.ways);
  p.set_port_bits = std::max(1u, p.set_bits);
  p.sector_port_bits = std::max(1u, p.sector_bits);
  p.repl_bits_per_set = p.plru() ? p.ways - 1 : p.ways * p.way_bits;
  return p;
}

}  // namespace txgen::elab
