#include "txgen/config/parse.h"

#include <cstdio>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "txgen/error.h"

namespace txgen::config {
namespace {

using nlohmann::json;

std::string show(const json& value) { return value.dump(); }

bool is_pow2(uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

// Reads one object field, recording it as seen so unknown fields can be reported.
class ObjectReader {
 public:
  ObjectReader(const json& obj, std::string path) : obj_(obj), path_(std::move(path)) {
    if (!obj_.is_object()) throw ConfigError(path_, show(obj_), "must be an object");
  }

  const json& field(const std::string& key) {
    seen_.insert(key);
    auto it = obj_.find(key);
    if (it == obj_.end()) throw ConfigError(path_of(key), "(missing)", "required field");
    return *it;
  }

  bool has(const std::string& key) const { return obj_.contains(key); }

  std::string path_of(const std::string& key) const { return path_ + "." + key; }

  uint64_t integer(const std::string& key, uint64_t lo, uint64_t hi) {
    const json& v = field(key);
    if (!v.is_number_integer() || v.is_boolean())
      throw ConfigError(path_of(key), show(v), "must be an integer");
    if (!v.is_number_unsigned() && v.get<int64_t>() < 0)
      throw ConfigError(path_of(key), show(v), range_rule(lo, hi));
    const uint64_t n = v.get<uint64_t>();
    if (n < lo || n > hi) throw ConfigError(path_of(key), show(v), range_rule(lo, hi));
    return n;
  }

  uint64_t power_of_two(const std::string& key, uint64_t lo, uint64_t hi) {
    const uint64_t n = integer(key, lo, hi);
    if (!is_pow2(n)) throw ConfigError(path_of(key), std::to_string(n), "must be a power of two");
    return n;
  }

  std::string choice(const std::string& key, const std::vector<std::string>& options) {
    const json& v = field(key);
    std::string rule = "must be one of";
    for (const auto& o : options) rule += " \"" + o + "\"";
    if (!v.is_string()) throw ConfigError(path_of(key), show(v), rule);
    const std::string s = v.get<std::string>();
    for (const auto& o : options)
      if (s == o) return s;
    throw ConfigError(path_of(key), show(v), rule);
  }

  // Call after all fields were read.
  void reject_unknown() const {
    for (auto it = obj_.begin(); it != obj_.end(); ++it)
      if (!seen_.count(it.key()))
        throw ConfigError(path_of(it.key()), show(it.value()), "unknown field");
  }

 private:
  static std::string range_rule(uint64_t lo, uint64_t hi) {
    return "must be an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
  }

  const json& obj_;
  std::string path_;
  std::set<std::string> seen_;
};

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

// The codec fields after the host (shared by $.bd_codec and the path's codecs).
void parse_codec_fields(ObjectReader& r, const std::string& path, BdCodecConfig& b);

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

LdsCtrlConfig parse_lds_ctrl(const json& j, const std::string& path = "$.lds_ctrl") {
  ObjectReader r(j, path);
  LdsCtrlConfig c;
  if (r.has("max_work_groups"))
    c.max_work_groups = static_cast<unsigned>(r.integer("max_work_groups", 1, 64));
  if (r.has("clear_bits_per_cycle"))
    c.clear_bits_per_cycle = static_cast<unsigned>(r.power_of_two("clear_bits_per_cycle", 1, 32768));
  r.reject_unknown();
  return c;
}

Fraction parse_fraction(const json& j, const std::string& path) {
  ObjectReader r(j, path);
  Fraction f;
  f.den = static_cast<unsigned>(r.integer("den", 2, 16));
  f.num = static_cast<unsigned>(r.integer("num", 1, 15));
  if (f.num >= f.den)
    throw ConfigError(r.path_of("num"), std::to_string(f.num),
                      "must be below den (" + std::to_string(f.den) + "): a threshold is a fraction below 1");
  r.reject_unknown();
  return f;
}

DhslConfig parse_dhsl(const json& j) {
  ObjectReader r(j, "$.dhsl");
  DhslConfig d;
  const std::string policy = r.choice("policy", {"private", "shared_static", "mgvm_coarse", "mgvm"});
  d.policy = policy == "private"         ? DhslPolicy::Private
             : policy == "shared_static" ? DhslPolicy::SharedStatic
             : policy == "mgvm_coarse"   ? DhslPolicy::MgvmCoarse
                                         : DhslPolicy::Mgvm;
  d.chiplets = static_cast<unsigned>(r.integer("chiplets", 2, 8));
  if (r.has("cus_per_chiplet")) d.cus_per_chiplet = static_cast<unsigned>(r.integer("cus_per_chiplet", 1, 1024));
  if (r.has("l2_entries")) d.l2_entries = static_cast<unsigned>(r.integer("l2_entries", 1, 1u << 20));
  if (r.has("counter_bits")) d.counter_bits = static_cast<unsigned>(r.integer("counter_bits", 8, 32));
  if (r.has("epoch_requests")) {
    const uint64_t limit = (uint64_t{1} << d.counter_bits) - 1;
    d.epoch_requests = static_cast<unsigned>(r.integer("epoch_requests", 8, limit));
  } else if (d.epoch_requests > (uint64_t{1} << d.counter_bits) - 1) {
    throw ConfigError(r.path_of("counter_bits"), std::to_string(d.counter_bits),
                      "too narrow for the default epoch of 5000 requests");
  }
  if (r.has("coarse_bytes")) d.coarse_bytes = r.power_of_two("coarse_bytes", 4096, uint64_t{1} << 40);
  if (r.has("imbalance")) d.imbalance = parse_fraction(r.field("imbalance"), r.path_of("imbalance"));
  if (r.has("hit_rate")) d.hit_rate = parse_fraction(r.field("hit_rate"), r.path_of("hit_rate"));
  if (r.has("balanced")) d.balanced = parse_fraction(r.field("balanced"), r.path_of("balanced"));
  r.reject_unknown();
  return d;
}

WalkSchedConfig parse_walk_sched(const json& j) {
  ObjectReader r(j, "$.walk_sched");
  WalkSchedConfig w;
  const std::string policy = r.choice("policy", {"fcfs", "random", "simt"});
  w.policy = policy == "fcfs" ? WalkPolicy::Fcfs : policy == "random" ? WalkPolicy::Random : WalkPolicy::Simt;
  if (r.has("entries")) w.entries = static_cast<unsigned>(r.power_of_two("entries", 4, 1024));
  if (r.has("iid_bits")) w.iid_bits = static_cast<unsigned>(r.integer("iid_bits", 1, 32));
  if (r.has("walkers")) w.walkers = static_cast<unsigned>(r.integer("walkers", 1, 32));
  if (r.has("levels")) w.levels = static_cast<unsigned>(r.integer("levels", 2, 5));
  if (r.has("pwc_entries")) {
    w.pwc_entries.clear();
    const json& list = r.field("pwc_entries");
    if (!list.is_array())
      throw ConfigError(r.path_of("pwc_entries"), list.dump(), "must be a list of entries per upper level");
    for (size_t i = 0; i < list.size(); ++i) {
      const std::string path = r.path_of("pwc_entries") + "[" + std::to_string(i) + "]";
      const json& v = list[i];
      if (!v.is_number_integer() || v.is_boolean() || v.get<int64_t>() < 1 || v.get<int64_t>() > 64 ||
          (v.get<int64_t>() & (v.get<int64_t>() - 1)) != 0)
        throw ConfigError(path, v.dump(), "must be a power of two in [1, 64]");
      w.pwc_entries.push_back(v.get<unsigned>());
    }
  }
  if (w.pwc_entries.size() + 1 != w.levels)
    throw ConfigError(r.path_of("pwc_entries"), std::to_string(w.pwc_entries.size()) + " levels",
                      "must list one PWC per upper page-table level (" + std::to_string(w.levels - 1) + ")");
  if (r.has("wavefront")) w.wavefront = static_cast<unsigned>(r.integer("wavefront", 1, 1024));
  if (r.has("aging_threshold")) w.aging_threshold = r.integer("aging_threshold", 1, uint64_t{1} << 32);
  if (r.has("select_levels_per_cycle"))
    w.select_levels_per_cycle = static_cast<unsigned>(r.integer("select_levels_per_cycle", 1, 10));
  r.reject_unknown();
  return w;
}

bool boolean(ObjectReader& r, const std::string& key) {
  const json& v = r.field(key);
  if (!v.is_boolean()) throw ConfigError(r.path_of(key), show(v), "must be true or false");
  return v.get<bool>();
}

IcacheTxConfig parse_icache_tx(const json& j, const Config& cfg, const std::string& path = "$.icache_tx") {
  ObjectReader r(j, path);
  IcacheTxConfig c;
  if (!cfg.icache)
    throw ConfigError("$.icache", "(missing)", "required by " + path + ": the I-cache it controls");
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

L1tlbConfig parse_l1tlb(const json& j, const Config& cfg) {
  ObjectReader r(j, "$.l1tlb");
  L1tlbConfig c;
  if (!cfg.translation)
    throw ConfigError("$.translation", "(missing)", "required by $.l1tlb: the PPN and permission widths");
  c.cus = static_cast<unsigned>(r.power_of_two("cus", 1, 64));
  c.tlbs = static_cast<unsigned>(r.power_of_two("tlbs", 1, 64));
  if (c.tlbs > c.cus)
    throw ConfigError(r.path_of("tlbs"), std::to_string(c.tlbs),
                      "must divide $.l1tlb.cus (" + std::to_string(c.cus) + "): each TLB serves cus / tlbs CUs");
  c.clusters = static_cast<unsigned>(r.power_of_two("clusters", 1, 64));
  if (c.clusters > c.tlbs)
    throw ConfigError(r.path_of("clusters"), std::to_string(c.clusters),
                      "must divide $.l1tlb.tlbs (" + std::to_string(c.tlbs) +
                          "): each cluster holds tlbs / clusters TLBs (1 <= C <= T)");
  if (r.has("ways")) {
    c.ways = static_cast<unsigned>(r.integer("ways", 2, 256));
    if (!is_pow2(c.ways))
      throw ConfigError(r.path_of("ways"), std::to_string(c.ways), "must be a power of two in [2, 256]");
  }
  if (r.has("mshrs_per_cu")) c.mshrs_per_cu = static_cast<unsigned>(r.integer("mshrs_per_cu", 1, 16));
  parse_l1tlb_replacement(r, c);
  if (r.has("mshr_alloc")) {
    const std::string a = r.choice("mshr_alloc", {"auto", "lowest", "fifo"});
    c.mshr_alloc = a == "fifo" ? L1tlbMshrAlloc::Fifo : a == "lowest" ? L1tlbMshrAlloc::Lowest : L1tlbMshrAlloc::Auto;
  }
  if (r.has("l2_ports")) {
    r.choice("l2_ports", {"cluster"});
    c.l2_ports = L1tlbL2Ports::Cluster;
  }
  if (r.has("input_buffer")) c.input_buffer = boolean(r, "input_buffer");
  r.reject_unknown();
  return c;
}

// The per-CU L1-TLB of the path: private and fully associative, so only the
// ways, MSHRs and replacement are chosen (cus = tlbs = clusters = the path's CUs).
L1tlbConfig parse_path_l1tlb(const json& j, unsigned cus) {
  ObjectReader r(j, "$.tx_path.l1tlb");
  L1tlbConfig c;
  c.cus = c.tlbs = c.clusters = cus;
  c.ways = 32;  // seed 000 Table 1: 32 entries, fully associative
  if (r.has("ways")) c.ways = static_cast<unsigned>(r.power_of_two("ways", 2, 256));
  if (r.has("mshrs_per_cu")) c.mshrs_per_cu = static_cast<unsigned>(r.integer("mshrs_per_cu", 1, 16));
  parse_l1tlb_replacement(r, c);
  r.reject_unknown();
  return c;
}

BdCodecConfig parse_path_codec(const json& j, const std::string& path, CodecHost host) {
  ObjectReader r(j, path);
  BdCodecConfig b;
  b.host = host;
  parse_codec_fields(r, path, b);
  r.reject_unknown();
  return b;
}

TxPathConfig parse_tx_path(const json& j, const Config& cfg) {
  ObjectReader r(j, "$.tx_path");
  TxPathConfig c;
  for (const auto& [section, present] : {std::pair<const char*, bool>{"$.lds", cfg.lds.has_value()},
                                        {"$.icache", cfg.icache.has_value()},
                                        {"$.translation", cfg.translation.has_value()}})
    if (!present) throw ConfigError(section, "(missing)", "required by $.tx_path (the structures on the path)");
  c.cus = static_cast<unsigned>(r.power_of_two("cus", 1, 16));
  c.l1tlb = r.has("l1tlb") ? parse_path_l1tlb(r.field("l1tlb"), c.cus) : parse_path_l1tlb(json::object(), c.cus);
  if (r.has("lds_ctrl")) c.lds_ctrl = parse_lds_ctrl(r.field("lds_ctrl"), "$.tx_path.lds_ctrl");
  c.lds_codec = parse_path_codec(r.field("lds_codec"), "$.tx_path.lds_codec", CodecHost::Lds);
  c.icache_tx = parse_icache_tx(r.field("icache_tx"), cfg, "$.tx_path.icache_tx");
  if (c.cus % c.icache_tx.sharers != 0)
    throw ConfigError("$.tx_path.icache_tx.sharers", std::to_string(c.icache_tx.sharers),
                      "must divide $.tx_path.cus (" + std::to_string(c.cus) + "): each I-cache serves sharers CUs");
  if (r.has("icache_codec"))
    c.icache_codec = parse_path_codec(r.field("icache_codec"), "$.tx_path.icache_codec", CodecHost::Icache);
  if (r.has("victim_queue")) c.victim_queue = static_cast<unsigned>(r.integer("victim_queue", 1, 8));
  if (r.has("wire_latency")) {
    ObjectReader w(r.field("wire_latency"), "$.tx_path.wire_latency");
    if (w.has("lds")) c.wire_lds = static_cast<unsigned>(w.integer("lds", 0, 1023));
    if (w.has("icache")) c.wire_icache = static_cast<unsigned>(w.integer("icache", 0, 1023));
    w.reject_unknown();
  }
  if (r.has("promotion"))
    c.promotion = r.choice("promotion", {"move", "copy"}) == "copy" ? Promotion::Copy : Promotion::Move;
  r.reject_unknown();
  return c;
}

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

Config parse_config(const json& doc) {
  ObjectReader root(doc, "$");
  Config cfg;
  cfg.name = parse_name(root);
  cfg.system = parse_system(root.field("system"));
  if (root.has("lds")) cfg.lds = parse_lds(root.field("lds"));
  if (root.has("icache")) cfg.icache = parse_icache(root.field("icache"));
  if (root.has("bd_codec")) cfg.bd_codec = parse_bd_codec(root.field("bd_codec"), cfg);
  if (root.has("translation")) cfg.translation = parse_translation(root.field("translation"));
  if (root.has("lds_ctrl")) cfg.lds_ctrl = parse_lds_ctrl(root.field("lds_ctrl"));
  if (root.has("dhsl")) cfg.dhsl = parse_dhsl(root.field("dhsl"));
  if (root.has("walk_sched")) cfg.walk_sched = parse_walk_sched(root.field("walk_sched"));
  if (root.has("icache_tx")) cfg.icache_tx = parse_icache_tx(root.field("icache_tx"), cfg);
  if (root.has("l1tlb")) cfg.l1tlb = parse_l1tlb(root.field("l1tlb"), cfg);
  if (root.has("ata")) cfg.ata = parse_ata(root.field("ata"));
  if (root.has("tx_path")) cfg.tx_path = parse_tx_path(root.field("tx_path"), cfg);
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
