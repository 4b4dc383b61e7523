#include "txgen/config/parse.h"

#include <cstdio>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "txgen/config/reader.h"
#include "txgen/config/sections.h"
#include "txgen/error.h"

namespace txgen::config {
namespace {

using nlohmann::json;

std::string parse_name(ObjectReader& root) {
  const json& v = root.field("name");
  static const std::regex kIdent("[a-z][a-z0-9_]{0,39}");
  const std::string rule =
      "must be a lower-case identifier ([a-z][a-z0-9_]*, at most 40 characters), "
      "it is part of every module name";
  if (!v.is_string() || !std::regex_match(v.get<std::string>(), kIdent))
    throw ConfigError(root.path_of("name"), show(v), rule);
  const std::string s = v.get<std::string>();
  if (s.find("__") != std::string::npos || s.back() == '_')
    throw ConfigError(root.path_of("name"), show(v), rule + "; no \"__\" and no trailing '_'");
  return s;
}

SystemConfig parse_system(const json& j) {
  ObjectReader r(j, "$.system");
  SystemConfig s;
  s.va_bits = static_cast<unsigned>(r.integer("va_bits", 16, 64));
  const uint64_t page = r.integer("page_bytes", 4096, 2097152);
  if (page != 4096 && page != 65536 && page != 2097152)
    throw ConfigError(r.path_of("page_bytes"), std::to_string(page),
                      "must be 4096, 65536 or 2097152 (4 KB, 64 KB, 2 MB pages)");
  s.page_bytes = page;
  s.vmid_bits = static_cast<unsigned>(r.integer("vmid_bits", 1, 8));
  s.vrf_bits = static_cast<unsigned>(r.integer("vrf_bits", 1, 8));
  r.reject_unknown();
  return s;
}

LdsConfig parse_lds(const json& j) {
  ObjectReader r(j, "$.lds");
  LdsConfig l;
  l.bytes = r.power_of_two("bytes", 1024, 1048576);
  const uint64_t seg = r.integer("segment_bytes", 32, 64);
  if (seg != 32 && seg != 64)
    throw ConfigError(r.path_of("segment_bytes"), std::to_string(seg), "must be 32 or 64");
  l.segment_bytes = static_cast<unsigned>(seg);
  if (r.has("banks")) l.banks = static_cast<unsigned>(r.power_of_two("banks", 1, 64));
  if (r.has("bank_bytes")) {
    l.bank_bytes = static_cast<unsigned>(r.integer("bank_bytes", 1, 8));
    if (!is_pow2(l.bank_bytes))
      throw ConfigError(r.path_of("bank_bytes"), std::to_string(l.bank_bytes),
                        "must be 1, 2, 4 or 8: an 8-byte tag or translation word is whole banks");
  }
  const uint64_t row = uint64_t{l.banks} * l.bank_bytes;
  if (row < l.segment_bytes)
    throw ConfigError(r.path_of("banks"), std::to_string(l.banks),
                      "an SRAM row (banks x bank_bytes = " + std::to_string(row) +
                          " B) must hold a segment (" + std::to_string(l.segment_bytes) + " B)");
  if (row > l.bytes)
    throw ConfigError(r.path_of("banks"), std::to_string(l.banks),
                      "an SRAM row (banks x bank_bytes = " + std::to_string(row) +
                          " B) is larger than the LDS (" + std::to_string(l.bytes) + " B)");
  r.reject_unknown();
  return l;
}

IcacheConfig parse_icache(const json& j) {
  ObjectReader r(j, "$.icache");
  IcacheConfig c;
  c.bytes = r.power_of_two("bytes", 1024, 1048576);
  c.ways = static_cast<unsigned>(r.power_of_two("ways", 1, 64));
  c.line_bytes = static_cast<unsigned>(r.power_of_two("line_bytes", 16, 256));
  if (c.bytes < uint64_t{c.ways} * c.line_bytes)
    throw ConfigError("$.icache.bytes", std::to_string(c.bytes),
                      "must hold at least one set: ways x line_bytes = " +
                          std::to_string(uint64_t{c.ways} * c.line_bytes));
  c.tx_index = r.choice("tx_index", {"direct_mapped", "set"}) == "set" ? TxIndex::Set
                                                                        : TxIndex::DirectMapped;
  if (r.has("tag_bytes")) c.tag_bytes = static_cast<unsigned>(r.integer("tag_bytes", 1, 64));
  r.reject_unknown();
  return c;
}

TranslationConfig parse_translation(const json& j) {
  ObjectReader r(j, "$.translation");
  TranslationConfig t;
  t.ppn_bits = static_cast<unsigned>(r.integer("ppn_bits", 1, 63));
  t.perm_bits = static_cast<unsigned>(r.integer("perm_bits", 1, 63));
  if (t.ppn_bits + t.perm_bits > 64)
    throw ConfigError(r.path_of("perm_bits"), std::to_string(t.perm_bits),
                      "ppn_bits + perm_bits = " + std::to_string(t.ppn_bits + t.perm_bits) +
                          " exceeds the 64-bit translation word");
  r.reject_unknown();
  return t;
}

}  // namespace

const std::vector<Section>& block_sections() {
  static const std::vector<Section> sections = {
      {"bd_codec", parse_bd_codec_section}, {"lds_ctrl", parse_lds_ctrl_section},
      {"dhsl", parse_dhsl_section},         {"walk_sched", parse_walk_sched_section},
      {"icache_tx", parse_icache_tx_section}, {"l1tlb", parse_l1tlb_section},
      {"ata", parse_ata_section},           {"tx_path", parse_tx_path_section},
      {"iommu", parse_iommu_section}};
  return sections;
}

bool boolean(ObjectReader& r, const std::string& key) {
  const json& v = r.field(key);
  if (!v.is_boolean()) throw ConfigError(r.path_of(key), show(v), "must be true or false");
  return v.get<bool>();
}

Config parse_config(const json& doc) {
  ObjectReader root(doc, "$");
  Config cfg;
  cfg.name = parse_name(root);
  cfg.system = parse_system(root.field("system"));
  // the shared sections first: the blocks' sections and their elaboration read them
  if (root.has("lds")) cfg.lds = parse_lds(root.field("lds"));
  if (root.has("icache")) cfg.icache = parse_icache(root.field("icache"));
  if (root.has("translation")) cfg.translation = parse_translation(root.field("translation"));
  for (const Section& s : block_sections())
    if (root.has(s.key)) s.parse(root.field(s.key), cfg);
  root.reject_unknown();
  return cfg;
}

nlohmann::json read_json_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw ConfigError("$", "\"" + path + "\"", "configuration file cannot be opened");
  try {
    return nlohmann::json::parse(in);
  } catch (const nlohmann::json::parse_error& e) {
    throw ConfigError("$", "\"" + path + "\"", std::string("is not valid JSON: ") + e.what());
  }
}

Config load_config_file(const std::string& path) { return parse_config(read_json_file(path)); }

std::string config_hash(const nlohmann::json& doc) {
  const std::string text = doc.dump();  // keys sorted: canonical
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

}  // namespace txgen::config
