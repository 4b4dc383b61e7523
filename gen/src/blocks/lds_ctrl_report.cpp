// Storage report of the reconfigurable LDS controller: mode bits and their
// share of the LDS (seed 000 section 4.2.4: 0.4 % for 32-byte segments), the
// allocation table, translation capacity and the access latencies.
#include <cstdio>
#include <sstream>

#include "txgen/blocks/bd_codec_layout.h"
#include "txgen/blocks/lds_ctrl_emit.h"

namespace txgen::blocks::lds {

using elab::LdsCtrlParams;
using nlohmann::json;

namespace {

std::string percent(double fraction) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f %%", 100.0 * fraction);
  return buf;
}

struct Storage {
  unsigned mode_bits, table_bits, capacity, per_kb, lds_bits;
  double mode_share, tag_share;
};

Storage storage(const LdsCtrlParams& p) {
  Storage s;
  s.mode_bits = p.segments;
  s.table_bits = p.max_work_groups * (1 + p.segment_index_bits + p.size_bits + p.size_bits + 1);
  s.capacity = p.segments * p.ways;
  s.per_kb = p.ways * (1024 / p.segment_bytes);
  s.lds_bits = p.lds_bytes * 8;
  s.mode_share = double(s.mode_bits) / s.lds_bits;
  s.tag_share = double(p.tag_words * 8) / p.segment_bytes;
  return s;
}

}  // namespace

json params_json(const LdsCtrlParams& p) {
  return {{"module_prefix", p.module_prefix},
          {"lds_bytes", p.lds_bytes},
          {"segment_bytes", p.segment_bytes},
          {"segments", p.segments},
          {"segment_index_bits", p.segment_index_bits},
          {"ways", p.ways},
          {"tag_words", p.tag_words},
          {"banks", p.banks},
          {"bank_bytes", p.bank_bytes},
          {"rows", p.rows},
          {"segments_per_row", p.segments_per_row},
          {"vpn_bits", p.vpn_bits},
          {"va_tag_bits", p.va_tag_bits},
          {"ppn_bits", p.ppn_bits},
          {"perm_bits", p.perm_bits},
          {"max_work_groups", p.max_work_groups},
          {"clear_bits_per_cycle", p.clear_bits},
          {"codec", bd_codec_params_json(p.codec)}};
}

json report_json(const config::Config& cfg) {
  const LdsCtrlParams p = elab::elaborate_lds_ctrl(cfg);
  const Storage s = storage(p);
  return {{"block", "lds_ctrl"},
          {"parameters", params_json(p)},
          {"storage",
           {{"mode_bits", s.mode_bits},
            {"mode_bits_share_of_lds", percent(s.mode_share)},
            {"allocation_table_bits", s.table_bits},
            {"tag_share_of_segment", percent(s.tag_share)}}},
          {"capacity", {{"translations", s.capacity}, {"translations_per_kb", s.per_kb}}},
          {"latency_cycles",
           {{"lookup_tx_mode", 4},
            {"lookup_lds_mode", 2},
            {"fill_write_tx_segment", 4},
            {"fill_write_free_segment", 1},
            {"clear_whole_lds", p.clear_groups}}}};
}

std::string report_markdown(const config::Config& cfg) {
  const LdsCtrlParams p = elab::elaborate_lds_ctrl(cfg);
  const Storage s = storage(p);
  std::ostringstream os;
  os << "## lds_ctrl (" << cfg.name << ")\n\n"
     << "| quantity | value |\n|---|---:|\n"
     << "| LDS / segment | " << p.lds_bytes << " B / " << p.segment_bytes << " B = " << p.segments
     << " segments |\n"
     << "| segment layout | " << p.tag_words << " tag word(s) + " << p.ways << " translations"
     << (p.segment_words > p.tag_words + p.ways ? " + padding" : "") << " |\n"
     << "| VA tag bits | " << p.vpn_bits << " (VPN) - " << p.segment_index_bits
     << " (segment index) = " << p.va_tag_bits << " |\n"
     << "| mode bits | " << s.mode_bits << " (" << percent(s.mode_share) << " of "
     << s.lds_bits << " LDS bits) |\n"
     << "| allocation table bits (valid, base, size, end) | " << p.max_work_groups << " x (1 + "
     << p.segment_index_bits << " + " << p.size_bits << " + " << p.size_bits + 1
     << ") = " << s.table_bits << " |\n"
     << "| tag share of a Tx-mode segment | " << percent(s.tag_share) << " |\n"
     << "| translation capacity | " << s.capacity << " (" << s.per_kb << " per KB) |\n"
     << "| SRAM | " << p.rows << " rows x " << p.banks << " banks x " << p.bank_bytes << " B |\n"
     << "| lookup latency | 4 cycles (2 for an LDS-mode segment); document: 2 + 4 |\n"
     << "| fill: accept to SRAM write | 4 cycles (1 into a free segment) |\n"
     << "| whole-LDS clear (reset, shootdown all) | " << p.clear_groups << " cycles |\n";
  return os.str();
}

}  // namespace txgen::blocks::lds
