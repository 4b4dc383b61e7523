// Storage and structure report of the aggregated tag array (docs/blocks/ata.md,
// "Report"): tag storage, comparator groups and tag-selector crossbar, ata
// beside the private baseline of the same caches, and the contract's cycles.
#include <sstream>

#include "txgen/blocks/ata_emit.h"

namespace txgen::blocks::ata {

using elab::AtaParams;
using nlohmann::json;

namespace {

struct Storage {
  uint64_t valid, tag, sectors, dirty, repl, per_array, total;
};

Storage storage(const AtaParams& p) {
  Storage s{};
  const uint64_t e = uint64_t{p.sets} * p.ways;
  s.valid = e;
  s.tag = e * p.tag_bits;
  s.sectors = e * p.sectors;
  s.dirty = e;
  s.repl = uint64_t{p.sets} * p.repl_bits_per_set;
  s.per_array = s.valid + s.tag + s.sectors + s.dirty + s.repl;
  s.total = s.per_array * p.cores;
  return s;
}

// Comparator groups: one per (core, array) pair compared; W tag comparators each.
struct Structure {
  uint64_t groups, tag_comparators, selectors, selector_bits;
};

Structure structure(const AtaParams& p, bool aggregated) {
  Structure s{};
  const uint64_t n = p.cores;
  s.groups = aggregated ? n * n : n;
  s.tag_comparators = s.groups * p.ways;
  s.selectors = s.groups;  // an S:1 set selector per group
  s.selector_bits = uint64_t{p.ways} * (p.tag_bits + p.sectors + 2);
  return s;
}

}  // namespace

json params_json(const AtaParams& p) {
  return {{"module_prefix", p.module_prefix},
          {"mode", config::name_of(p.mode)},
          {"replacement", config::name_of(p.replacement)},
          {"remote_pick", config::name_of(p.remote_pick)},
          {"cores", p.cores},
          {"l1_bytes", p.l1_bytes},
          {"sets", p.sets},
          {"ways", p.ways},
          {"line_bytes", p.line_bytes},
          {"sector_bytes", p.sector_bytes},
          {"sectors", p.sectors},
          {"addr_bits", p.addr_bits},
          {"offset_bits", p.offset_bits},
          {"sector_bits", p.sector_bits},
          {"set_bits", p.set_bits},
          {"tag_bits", p.tag_bits},
          {"core_bits", p.core_bits},
          {"way_bits", p.way_bits},
          {"local_hit_latency", p.local_hit_latency},
          {"remote_hit_latency", p.remote_hit_latency}};
}

json report_json(const config::Config& cfg) {
  const AtaParams p = elab::elaborate_ata(cfg);
  const Storage s = storage(p);
  auto st = [&](bool agg) {
    const Structure x = structure(p, agg);
    return json{{"comparator_groups", x.groups},
                {"tag_comparators", x.tag_comparators},
                {"set_selectors", x.selectors},
                {"bits_per_selector", x.selector_bits}};
  };
  return {{"block", "ata"},
          {"parameters", params_json(p)},
          {"storage_bits",
           {{"per_array",
             {{"valid", s.valid},
              {"tag", s.tag},
              {"sector_valid", s.sectors},
              {"dirty", s.dirty},
              {"replacement", s.repl},
              {"total", s.per_array}}},
            {"total", s.total}}},
          {"structure", {{"this", st(p.aggregated())}, {"ata", st(true)}, {"private", st(false)}}},
          {"cycles",
           {{"local_hit", p.local_hit_latency},
            {"remote_hit", p.remote_hit_latency},
            {"accept_to_l2_request", p.l2_request_delay},
            {"l2_response_to_response", p.fill_after_l2}}}};
}

std::string report_markdown(const config::Config& cfg) {
  const AtaParams p = elab::elaborate_ata(cfg);
  const Storage s = storage(p);
  const Structure a = structure(p, true), v = structure(p, false);
  std::ostringstream os;
  os << "## ata (" << cfg.name << ", " << config::name_of(p.mode) << ", " << config::name_of(p.replacement)
     << ", remote pick " << config::name_of(p.remote_pick) << ")\n\n"
     << p.cores << " cores, each L1 " << p.l1_bytes << " B = " << p.sets << " sets x " << p.ways << " ways x "
     << p.line_bytes << " B lines (" << p.sectors << " sectors of " << p.sector_bytes << " B). Address " << p.addr_bits
     << " bits = tag " << p.tag_bits << " | set " << p.set_bits << " | line offset " << p.offset_bits
     << " (sector " << p.sector_bits << ").\n\n"
     << "| tag state (per array) | bits |\n|---|---:|\n"
     << "| valid: " << p.sets * p.ways << " x 1 | " << s.valid << " |\n"
     << "| tag: " << p.sets * p.ways << " x " << p.tag_bits << " | " << s.tag << " |\n"
     << "| sector valid: " << p.sets * p.ways << " x " << p.sectors << " | " << s.sectors << " |\n"
     << "| dirty: " << p.sets * p.ways << " x 1 | " << s.dirty << " |\n"
     << "| replacement (" << config::name_of(p.replacement) << "): " << p.sets << " x " << p.repl_bits_per_set
     << " | " << s.repl << " |\n"
     << "| **per array** | **" << s.per_array << "** |\n"
     << "| **all " << p.cores << " arrays** | **" << s.total << "** |\n\n"
     << "| structure | ata | private |\n|---|---:|---:|\n"
     << "| comparator groups (core x array) | " << a.groups << " | " << v.groups << " |\n"
     << "| tag comparators (" << p.tag_bits << " bits) | " << a.tag_comparators << " | " << v.tag_comparators
     << " |\n"
     << "| set selectors (" << p.sets << ":1 x " << a.selector_bits << " bits) | " << a.selectors << " | "
     << v.selectors << " |\n\n"
     << "| path (no port conflict) | cycles |\n|---|---:|\n"
     << "| read, local hit: accept to response | " << p.local_hit_latency << " |\n"
     << "| read, remote hit: accept to response | " << p.remote_hit_latency << " |\n"
     << "| read or write: accept to L2 request | " << p.l2_request_delay << " |\n"
     << "| L2 read response to response | " << p.fill_after_l2 << " |\n";
  return os.str();
}

}  // namespace txgen::blocks::ata
