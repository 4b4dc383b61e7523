// Storage report of the I-cache with translation ways: tag widening (seed 000
// section 4.3.1: 6 B x 256 lines = 1.5 KB for 16 KB, 8-way, 64 B lines, 8
// translations per line), translation capacity per variant, the state kept in
// the block and the latencies.
#include <sstream>

#include "txgen/blocks/bd_codec_layout.h"
#include "txgen/blocks/icache_tx_emit.h"

namespace txgen::blocks::icache {

using elab::IcacheTxParams;
using nlohmann::json;

namespace {

struct Storage {
  unsigned widen_bits_per_line, widen_bits, mode_bits, recency_bits, capacity;
};

Storage storage(const IcacheTxParams& p) {
  Storage s;
  s.widen_bits_per_line = p.entry_bits - p.base_tag_bits;
  s.widen_bits = s.widen_bits_per_line * p.lines;
  s.mode_bits = 2 * p.lines;
  s.recency_bits = p.sets * p.ways * (p.ways - 1) / 2;
  s.capacity = p.lines * p.tx_per_line;
  return s;
}

std::string bytes_text(unsigned bits) {
  std::ostringstream os;
  os << bits / 8 << " B";
  if (bits % 8192 == 0) os << " (" << bits / 8192 << " KB)";
  else if (bits >= 8192) os << " (" << double(bits) / 8192 << " KB)";
  return os.str();
}

// Translations a fully idle cache holds with one or X per line.
json variants_json(const IcacheTxParams& p) {
  json rows = json::array();
  rows.push_back({{"variant", "baseline"}, {"translations", 0}});
  rows.push_back({{"variant", "naive, 1 per line"}, {"translations", p.lines}});
  rows.push_back({{"variant", "aware, 1 per line"}, {"translations", p.lines}});
  if (p.packed()) {
    const std::string x = std::to_string(p.tx_per_line);
    rows.push_back({{"variant", "aware, " + x + " per line"}, {"translations", p.lines * p.tx_per_line}});
    rows.push_back({{"variant", "aware, " + x + " per line, kernel flush"}, {"translations", p.lines * p.tx_per_line}});
  }
  return rows;
}

}  // namespace

json params_json(const IcacheTxParams& p) {
  json j = {{"module_prefix", p.module_prefix},
            {"bytes", p.bytes},
            {"ways", p.ways},
            {"line_bytes", p.line_bytes},
            {"lines", p.lines},
            {"sets", p.sets},
            {"itag_bits", p.itag_bits},
            {"base_tag_bits", p.base_tag_bits},
            {"vpn_bits", p.vpn_bits},
            {"va_tag_bits", p.va_tag_bits},
            {"tx_per_line", p.tx_per_line},
            {"tx_tag_bits", p.tx_tag_bits},
            {"entry_bits", p.entry_bits},
            {"comparators", p.comparators},
            {"compare_groups", p.groups},
            {"sharers", p.sharers},
            {"variant", config::name_of(p.variant)},
            {"kernel_flush", p.kernel_flush},
            {"instruction_fill_order", config::name_of(p.ifill_order)},
            {"ppn_bits", p.ppn_bits},
            {"perm_bits", p.perm_bits}};
  if (p.codec) j["codec"] = bd_codec_params_json(*p.codec);
  return j;
}

json report_json(const config::Config& cfg) {
  const IcacheTxParams p = elab::elaborate_icache_tx(cfg);
  const Storage s = storage(p);
  return {{"block", "icache_tx"},
          {"parameters", params_json(p)},
          {"storage",
           {{"tag_entry_bits_baseline", p.base_tag_bits},
            {"tag_entry_bits_widened", p.entry_bits},
            {"tag_widening_bits_per_line", s.widen_bits_per_line},
            {"tag_widening_bytes", s.widen_bits / 8},
            {"mode_bits", s.mode_bits},
            {"recency_bits", s.recency_bits}}},
          {"capacity", {{"translations", s.capacity}, {"per_variant", variants_json(p)}}},
          {"latency_cycles",
           {{"fetch", 2},
            {"lookup_not_tx", 2},
            {"lookup_tx_first_group", 4},
            {"lookup_tx_miss", 3 + p.groups}}}};
}

std::string report_markdown(const config::Config& cfg) {
  const IcacheTxParams p = elab::elaborate_icache_tx(cfg);
  const Storage s = storage(p);
  std::ostringstream os;
  os << "## icache_tx (" << cfg.name << ")\n\n"
     << "| quantity | value |\n|---|---:|\n"
     << "| cache | " << p.bytes << " B, " << p.ways << "-way, " << p.line_bytes << " B lines = " << p.lines
     << " lines, " << p.sets << " sets |\n"
     << "| variant | " << config::name_of(p.variant) << ", " << p.tx_per_line << " per line"
     << (p.kernel_flush ? ", kernel flush" : "") << " |\n"
     << "| instruction tag | " << p.va_bits << " - " << p.offset_bits << " - " << p.set_bits << " = "
     << p.itag_bits << " bits in a " << p.base_tag_bits << "-bit entry |\n"
     << "| translation VA tag | " << p.vpn_bits << " (VPN) - " << p.tx_index_bits << " (index) = "
     << p.va_tag_bits << " bits |\n"
     << "| Tx tag bits per line | " << p.tx_tag_bits << (p.packed() ? " (bd_codec packed word)" : "")
     << " |\n"
     << "| tag widening | (" << p.entry_bits << " - " << p.base_tag_bits << ") bits x " << p.lines
     << " lines = " << bytes_text(s.widen_bits) << " |\n"
     << "| mode bits (in the block) | " << s.mode_bits << " |\n"
     << "| recency bits (in the block) | " << s.recency_bits << " |\n"
     << "| translation capacity | " << s.capacity << " |\n"
     << "| fetch latency | 2 cycles |\n"
     << "| translation lookup | 2 cycles (line not Tx); 3 + g for a hit in compare group g = 1.."
     << p.groups << "; " << 3 + p.groups << " on a miss; document: 16 + 4 |\n\n"
     << "| variant | translations |\n|---|---:|\n";
  for (const json& row : variants_json(p))
    os << "| " << row["variant"].get<std::string>() << " | " << row["translations"].get<unsigned>() << " |\n";
  return os.str();
}

}  // namespace txgen::blocks::icache
