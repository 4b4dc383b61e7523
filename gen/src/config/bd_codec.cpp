// The $.bd_codec section (docs/blocks/bd_codec.md) and the codec fields the path's codecs share.
#include "txgen/config/reader.h"
#include "txgen/config/sections.h"

namespace txgen::config {

using nlohmann::json;

namespace {

BdCodecConfig parse_bd_codec(const json& j, const Config& cfg) {
  ObjectReader r(j, "$.bd_codec");
  BdCodecConfig b;
  const std::string host = r.choice("host", {"lds", "icache"});
  b.host = host == "lds" ? CodecHost::Lds : CodecHost::Icache;
  if (b.host == CodecHost::Lds && !cfg.lds)
    throw ConfigError(r.path_of("host"), "\"lds\"", "names the LDS, but there is no $.lds section");
  if (b.host == CodecHost::Icache && !cfg.icache)
    throw ConfigError(r.path_of("host"), "\"icache\"",
                      "names the I-cache, but there is no $.icache section");
  parse_codec_fields(r, "$.bd_codec", b);
  r.reject_unknown();
  return b;
}

}  // namespace

void parse_codec_fields(ObjectReader& r, const std::string& path, BdCodecConfig& b) {
  b.tags = static_cast<unsigned>(r.integer("tags", 2, 16));
  b.base_bits = static_cast<unsigned>(r.integer("base_bits", 1, 256));
  b.delta_bits = static_cast<unsigned>(r.integer("delta_bits", 1, 1024));
  if (b.delta_bits % b.tags != 0)
    throw ConfigError(r.path_of("delta_bits"), std::to_string(b.delta_bits),
                      "must be a multiple of " + path + ".tags (" + std::to_string(b.tags) +
                          "): each entry owns delta_bits / tags bits");
  b.encoding = r.choice("encoding", {"prefix", "arith"}) == "arith" ? CodecEncoding::Arith
                                                                    : CodecEncoding::Prefix;
  b.ids = r.choice("ids", {"per_entry", "shared"}) == "shared" ? IdPlacement::Shared
                                                               : IdPlacement::PerEntry;
  if (r.has("compare"))
    b.compare = r.choice("compare", {"mux", "pairwise"}) == "pairwise" ? CompareStructure::Pairwise
                                                                      : CompareStructure::Mux;
}

void parse_bd_codec_section(const json& j, Config& cfg) { cfg.bd_codec = parse_bd_codec(j, cfg); }

}  // namespace txgen::config
