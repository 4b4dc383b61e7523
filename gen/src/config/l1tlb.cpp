// The $.l1tlb section (docs/blocks/l1tlb.md) and the path's per-CU L1-TLB.
#include "txgen/config/reader.h"
#include "txgen/config/sections.h"

namespace txgen::config {

using nlohmann::json;

// replacement, plru_index, lru_touch and lru_state, after ways: the order matrix holds
// W (W-1) / 2 bits per set, so it is offered up to 32 ways (496 bits) only.
void parse_l1tlb_replacement(ObjectReader& r, L1tlbConfig& c) {
  if (r.has("replacement"))
    c.replacement = r.choice("replacement", {"lru", "plru"}) == "plru" ? L1tlbReplacement::Plru
                                                                      : L1tlbReplacement::Lru;
  if (r.has("plru_index")) {
    c.plru_index = boolean(r, "plru_index");
    if (c.replacement != L1tlbReplacement::Plru)
      throw ConfigError(r.path_of("plru_index"), *c.plru_index ? "true" : "false",
                        "applies to replacement \"plru\" only (this TLB uses \"lru\")");
  }
  if (r.has("lru_touch")) {
    const std::string t = r.choice("lru_touch", {"auto", "decide_edge", "next_edge"});
    c.lru_touch = t == "next_edge"     ? L1tlbLruTouch::NextEdge
                  : t == "decide_edge" ? L1tlbLruTouch::DecideEdge
                                       : L1tlbLruTouch::Auto;
    if (c.lru_touch != L1tlbLruTouch::Auto && c.replacement == L1tlbReplacement::Plru)
      throw ConfigError(r.path_of("lru_touch"), "\"" + t + "\"",
                        "applies to replacement \"lru\" only (this TLB uses \"plru\")");
  }
  if (!r.has("lru_state")) return;
  const std::string s = r.choice("lru_state", {"auto", "ages", "matrix"});
  const std::string quoted = "\"" + s + "\"";
  c.lru_state = s == "matrix" ? L1tlbLruState::Matrix : s == "ages" ? L1tlbLruState::Ages : L1tlbLruState::Auto;
  if (c.lru_state != L1tlbLruState::Auto && c.replacement == L1tlbReplacement::Plru)
    throw ConfigError(r.path_of("lru_state"), quoted, "applies to replacement \"lru\" only (this TLB uses \"plru\")");
  if (c.lru_state == L1tlbLruState::Matrix && c.ways > 32)
    throw ConfigError(r.path_of("lru_state"), quoted,
                      "the order matrix needs ways (" + std::to_string(c.ways) +
                          ") x (ways - 1) / 2 bits per set: offered up to 32 ways; use \"ages\"");
}

namespace {

void parse_l1tlb_mshr_alloc(ObjectReader& r, L1tlbConfig& c) {
  if (!r.has("mshr_alloc")) return;
  const std::string a = r.choice("mshr_alloc", {"auto", "lowest", "fifo"});
  c.mshr_alloc = a == "fifo" ? L1tlbMshrAlloc::Fifo : a == "lowest" ? L1tlbMshrAlloc::Lowest : L1tlbMshrAlloc::Auto;
}

L1tlbConfig parse_l1tlb(const json& j) {
  ObjectReader r(j, "$.l1tlb");
  L1tlbConfig c;
  c.cus = static_cast<unsigned>(r.power_of_two("cus", 1, 64));
  c.tlbs = static_cast<unsigned>(r.power_of_two("tlbs", 1, 64));  // dividing cus: checked at elaboration
  c.clusters = static_cast<unsigned>(r.power_of_two("clusters", 1, 64));
  if (r.has("ways")) {
    c.ways = static_cast<unsigned>(r.integer("ways", 2, 256));
    if (!is_pow2(c.ways))
      throw ConfigError(r.path_of("ways"), std::to_string(c.ways), "must be a power of two in [2, 256]");
  }
  if (r.has("mshrs_per_cu")) c.mshrs_per_cu = static_cast<unsigned>(r.integer("mshrs_per_cu", 1, 64));
  parse_l1tlb_replacement(r, c);
  parse_l1tlb_mshr_alloc(r, c);
  if (r.has("l2_ports")) {
    r.choice("l2_ports", {"cluster"});
    c.l2_ports = L1tlbL2Ports::Cluster;
  }
  if (r.has("input_buffer")) c.input_buffer = boolean(r, "input_buffer");
  if (r.has("iid_bits")) c.iid_bits = static_cast<unsigned>(r.integer("iid_bits", 0, 32));
  r.reject_unknown();
  return c;
}

}  // namespace

// The path's L1-TLBs: private and fully associative by default (cus = tlbs =
// clusters = the path's CUs); tlbs and clusters give seed 001's aggregated and
// clustered organisations (checked against cus at elaboration).
L1tlbConfig parse_path_l1tlb(const json& j, unsigned cus) {
  ObjectReader r(j, "$.tx_path.l1tlb");
  L1tlbConfig c;
  c.cus = c.tlbs = cus;
  if (r.has("tlbs")) c.tlbs = static_cast<unsigned>(r.power_of_two("tlbs", 1, 64));
  c.clusters = c.tlbs;
  if (r.has("clusters")) c.clusters = static_cast<unsigned>(r.power_of_two("clusters", 1, 64));
  c.ways = 32;  // seed 000 Table 1: 32 entries, fully associative
  if (r.has("ways")) c.ways = static_cast<unsigned>(r.power_of_two("ways", 2, 256));
  if (r.has("mshrs_per_cu")) c.mshrs_per_cu = static_cast<unsigned>(r.integer("mshrs_per_cu", 1, 64));
  parse_l1tlb_replacement(r, c);
  parse_l1tlb_mshr_alloc(r, c);
  if (r.has("input_buffer")) c.input_buffer = boolean(r, "input_buffer");
  r.reject_unknown();
  return c;
}

void parse_l1tlb_section(const json& j, Config& cfg) { cfg.l1tlb = parse_l1tlb(j); }

}  // namespace txgen::config
