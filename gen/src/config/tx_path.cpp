// The $.tx_path section (docs/blocks/tx_path.md): the path and its members' options.
#include "txgen/config/reader.h"
#include "txgen/config/sections.h"

namespace txgen::config {

using nlohmann::json;

namespace {

BdCodecConfig parse_path_codec(const json& j, const std::string& path, CodecHost host) {
  ObjectReader r(j, path);
  BdCodecConfig b;
  b.host = host;
  parse_codec_fields(r, path, b);
  r.reject_unknown();
  return b;
}

TxPathConfig parse_tx_path(const json& j) {
  ObjectReader r(j, "$.tx_path");
  TxPathConfig c;
  c.cus = static_cast<unsigned>(r.power_of_two("cus", 1, 16));
  json l1 = r.has("l1tlb") ? r.field("l1tlb") : json::object();
  if (l1.is_object() && l1.contains("latency")) {
    ObjectReader lr(l1, "$.tx_path.l1tlb");
    c.l1_document_latency = lr.choice("latency", {"rtl", "document"}) == "document";
    l1.erase("latency");  // the path's field, not the l1tlb block's
  }
  c.l1tlb = parse_path_l1tlb(l1, c.cus);
  if (r.has("lds_ctrl")) c.lds_ctrl = parse_lds_ctrl(r.field("lds_ctrl"), "$.tx_path.lds_ctrl");
  c.lds_codec = parse_path_codec(r.field("lds_codec"), "$.tx_path.lds_codec", CodecHost::Lds);
  c.icache_tx = parse_icache_tx(r.field("icache_tx"), "$.tx_path.icache_tx");
  if (r.has("icache_codec"))
    c.icache_codec = parse_path_codec(r.field("icache_codec"), "$.tx_path.icache_codec", CodecHost::Icache);
  if (r.has("victim_queue")) c.victim_queue = static_cast<unsigned>(r.integer("victim_queue", 1, 8));
  if (r.has("wire_latency")) {
    ObjectReader w(r.field("wire_latency"), "$.tx_path.wire_latency");
    if (w.has("lds")) c.wire_lds = static_cast<unsigned>(w.integer("lds", 0, 1023));
    if (w.has("icache")) c.wire_icache = static_cast<unsigned>(w.integer("icache", 0, 1023));
    w.reject_unknown();
  }
  if (r.has("lookup_slots")) c.lookup_slots = static_cast<unsigned>(r.integer("lookup_slots", 1, 8));
  if (r.has("speculative_l2")) c.speculative_l2 = boolean(r, "speculative_l2");
  if (r.has("promotion"))
    c.promotion = r.choice("promotion", {"move", "copy"}) == "copy" ? Promotion::Copy : Promotion::Move;
  r.reject_unknown();
  return c;
}

}  // namespace

void parse_tx_path_section(const json& j, Config& cfg) { cfg.tx_path = parse_tx_path(j); }

}  // namespace txgen::config
