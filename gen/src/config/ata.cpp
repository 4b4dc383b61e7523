// The $.ata section (docs/blocks/ata.md).
#include "txgen/config/reader.h"
#include "txgen/config/sections.h"

namespace txgen::config {

using nlohmann::json;

namespace {

AtaConfig parse_ata(const json& j) {
  ObjectReader r(j, "$.ata");
  AtaConfig c;
  if (r.has("cores")) c.cores = static_cast<unsigned>(r.integer("cores", 1, 16));
  if (r.has("l1_bytes")) c.l1_bytes = r.power_of_two("l1_bytes", 256, 1048576);
  if (r.has("ways")) c.ways = static_cast<unsigned>(r.power_of_two("ways", 2, 64));
  if (r.has("line_bytes")) c.line_bytes = static_cast<unsigned>(r.power_of_two("line_bytes", 16, 256));
  if (r.has("sector_bytes")) c.sector_bytes = static_cast<unsigned>(r.power_of_two("sector_bytes", 1, 256));
  if (r.has("addr_bits")) c.addr_bits = static_cast<unsigned>(r.integer("addr_bits", 16, 64));
  if (r.has("replacement"))
    c.replacement = r.choice("replacement", {"lru", "plru"}) == "plru" ? AtaReplacement::Plru : AtaReplacement::Lru;
  if (r.has("remote_pick"))
    c.remote_pick = r.choice("remote_pick", {"nearest", "round_robin"}) == "round_robin" ? AtaRemotePick::RoundRobin
                                                                                       : AtaRemotePick::Nearest;
  if (r.has("mode")) c.mode = r.choice("mode", {"ata", "private"}) == "private" ? AtaMode::Private : AtaMode::Ata;
  r.reject_unknown();
  return c;
}

}  // namespace

void parse_ata_section(const json& j, Config& cfg) { cfg.ata = parse_ata(j); }

}  // namespace txgen::config
