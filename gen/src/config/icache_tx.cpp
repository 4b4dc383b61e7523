// The $.icache_tx section (docs/blocks/icache_tx.md), also the path's I-cache options.
#include "txgen/config/reader.h"
#include "txgen/config/sections.h"

namespace txgen::config {

using nlohmann::json;

IcacheTxConfig parse_icache_tx(const json& j, const std::string& path) {
  ObjectReader r(j, path);
  IcacheTxConfig c;
  c.variant = r.choice("variant", {"naive", "aware"}) == "naive" ? IcacheVariant::Naive
                                                               : IcacheVariant::Aware;
  if (r.has("translations_per_line"))
    c.translations_per_line = static_cast<unsigned>(r.integer("translations_per_line", 1, 16));
  if (r.has("comparators")) c.comparators = static_cast<unsigned>(r.integer("comparators", 1, 16));
  if (r.has("kernel_flush")) c.kernel_flush = boolean(r, "kernel_flush");
  if (r.has("sharers")) c.sharers = static_cast<unsigned>(r.integer("sharers", 1, 8));
  if (r.has("instruction_fill_order"))
    c.ifill_order = r.choice("instruction_fill_order", {"invalid_first", "tx_first"}) == "tx_first"
                        ? IfillOrder::TxFirst
                        : IfillOrder::InvalidFirst;
  r.reject_unknown();
  return c;
}

void parse_icache_tx_section(const json& j, Config& cfg) { cfg.icache_tx = parse_icache_tx(j, "$.icache_tx"); }

}  // namespace txgen::config
