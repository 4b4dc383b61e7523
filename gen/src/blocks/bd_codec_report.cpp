// Layout and storage report of the base-delta tag codec.
#include <cstdio>
#include <sstream>

#include "txgen/blocks/bd_codec_layout.h"

namespace txgen::blocks {

using elab::BdCodecParams;
using nlohmann::json;

LayoutBd::LayoutBd(const BdCodecParams& p)
    : base_bits(p.base_bits),
      entry_bits(p.entry_bits),
      base_used_bits(p.base_used_bits),
      base_pad_bits(p.base_bits - p.base_used_bits),
      entry_value_lsb(p.entry_meta_bits),
      entry_pad_bits(p.entry_bits - p.entry_meta_bits - p.value_bits) {
  unsigned pos = 0;
  auto add = [](std::vector<BitField>& v, unsigned& at, const std::string& n, unsigned w) {
    if (w) v.push_back({n, at, w});
    at += w;
  };
  const bool arith = p.encoding == config::CodecEncoding::Arith;
  add(base_fields, pos, arith ? "base_va_tag" : "va_tag_prefix", p.base_value_bits);
  if (p.ids_shared()) {
    add(base_fields, pos, "vmid", p.vmid_bits);
    add(base_fields, pos, "vrf", p.vrf_bits);
  }
  add(base_fields, pos, "zero", base_pad_bits);
  pos = 0;
  add(entry_fields, pos, "valid", 1);
  add(entry_fields, pos, "lru", p.lru_bits);
  if (!p.ids_shared()) {
    add(entry_fields, pos, "vmid", p.vmid_bits);
    add(entry_fields, pos, "vrf", p.vrf_bits);
  }
  add(entry_fields, pos, arith ? "va_tag_delta" : "va_tag_low", p.value_bits);
  add(entry_fields, pos, "zero", entry_pad_bits);
}

namespace {

json fields_json(const std::vector<BitField>& fields) {
  json a = json::array();
  for (const auto& f : fields)
    a.push_back({{"field", f.name}, {"msb", f.lsb + f.width - 1}, {"lsb", f.lsb}, {"bits", f.width}});
  return a;
}

std::string fields_md(const std::vector<BitField>& fields) {
  std::ostringstream os;
  os << "| field | bits | msb:lsb |\n|---|---:|---|\n";
  for (const auto& f : fields)
    os << "| " << f.name << " | " << f.width << " | " << f.lsb + f.width - 1 << ":" << f.lsb
       << " |\n";
  return os.str();
}

std::string ratio(double r) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", r);
  return buf;
}

}  // namespace

json bd_codec_params_json(const BdCodecParams& p) {
  return {{"module_prefix", p.module_prefix},
          {"encoding", config::name_of(p.encoding)},
          {"ids", config::name_of(p.ids)},
          {"compare", config::name_of(p.compare)},
          {"tags", p.tags},
          {"va_tag_bits", p.va_tag_bits},
          {"lru_bits", p.lru_bits},
          {"vmid_bits", p.vmid_bits},
          {"vrf_bits", p.vrf_bits},
          {"raw_tag_bits", p.raw_tag_bits},
          {"base_bits", p.base_bits},
          {"delta_bits", p.delta_bits},
          {"entry_bits", p.entry_bits},
          {"entry_meta_bits", p.entry_meta_bits},
          {"value_bits", p.value_bits},
          {"base_value_bits", p.base_value_bits},
          {"base_used_bits", p.base_used_bits},
          {"packed_bits", p.packed_bits}};
}

json bd_codec_report_json(const config::Config& cfg) {
  const BdCodecParams p = elab::elaborate_bd_codec(cfg);
  const LayoutBd lay(p);
  const unsigned raw = p.tags * p.raw_tag_bits;
  return {{"block", "bd_codec"},
          {"derivation",
           {{"va_bits", p.va_bits},
            {"page_offset_bits", p.page_offset_bits},
            {"index_bits", p.index_bits},
            {"index_source", p.index_source},
            {"va_tag_bits", p.va_tag_bits}}},
          {"parameters", bd_codec_params_json(p)},
          {"layout", {{"base", fields_json(lay.base_fields)}, {"entry", fields_json(lay.entry_fields)}}},
          {"storage",
           {{"uncompressed_tag_bits", raw},
            {"packed_bits", p.packed_bits},
            {"compression_ratio", ratio(double(raw) / p.packed_bits)}}},
          {"latency_cycles", {{"pack", 0}, {"unpack", 0}, {"comp", 1}, {"decomp", 1}}}};
}

std::string bd_codec_report_markdown(const config::Config& cfg) {
  const BdCodecParams p = elab::elaborate_bd_codec(cfg);
  const LayoutBd lay(p);
  const unsigned raw = p.tags * p.raw_tag_bits;
  std::ostringstream os;
  os << "## bd_codec (" << cfg.name << ")\n\n"
     << "| quantity | value |\n|---|---:|\n"
     << "| VA tag bits | " << p.va_bits << " - " << p.page_offset_bits << " (page) - "
     << p.index_bits << " (" << p.index_source << ") = " << p.va_tag_bits << " |\n"
     << "| bits per uncompressed tag | 1 + " << p.lru_bits << " + " << p.vmid_bits << " + "
     << p.vrf_bits << " + " << p.va_tag_bits << " = " << p.raw_tag_bits << " |\n"
     << "| tags per word | " << p.tags << " |\n"
     << "| encoding / ids | " << config::name_of(p.encoding) << " / " << config::name_of(p.ids)
     << " |\n"
     << "| base + delta bits | " << p.base_bits << " + " << p.delta_bits << " = "
     << p.packed_bits << " |\n"
     << "| bits per entry (metadata + value) | " << p.entry_bits << " (" << p.entry_meta_bits
     << " + " << p.value_bits << ") |\n"
     << "| uncompressed / packed bits | " << raw << " / " << p.packed_bits << " ("
     << ratio(double(raw) / p.packed_bits) << "x) |\n"
     << "| latency comp / decomp | 1 / 1 cycle (pack / unpack cores: 0) |\n\n"
     << "Base field (bits " << p.base_bits - 1 << ":0):\n\n"
     << fields_md(lay.base_fields) << "\nEntry i (bits " << p.base_bits << " + i*"
     << p.entry_bits << ", " << p.entry_bits << " bits):\n\n"
     << fields_md(lay.entry_fields);
  return os.str();
}

}  // namespace txgen::blocks
