// Report of the translation path: the reach of every structure (seed 000's
// capacity arithmetic, 6.1: 12K entries from the LDS and 4K from the
// I-caches of Table 1), the path's latencies in cycles beside Table 1's, and
// the glue's storage.
#include <sstream>

#include "txgen/blocks/tx_path_emit.h"

namespace txgen::blocks::tx_path {

using elab::TxPathParams;
using nlohmann::json;

namespace {

struct Reach {
  uint64_t l1, lds, icache, below, total;
};

Reach reach(const TxPathParams& p) {
  Reach r{};
  r.l1 = uint64_t{p.cus} * p.l1_entries;
  r.lds = uint64_t{p.cus} * p.lds_entries;
  r.icache = uint64_t{p.icaches} * p.icache_entries;
  r.below = r.lds + r.icache;
  r.total = r.l1 + r.below;
  return r;
}

// Cycles from the L1-TLB's accept to the CU's answer (docs/blocks/tx_path.md, "Cycle examples"),
// plus the request registers of the document's L1 latency.
struct Latency {
  unsigned l1_hit, lds_hit, icache_hit, to_l2;
};

Latency latency(const TxPathParams& p) {
  const unsigned z = p.l1_pad;
  return {3 + z, 14 + z + p.wire_lds, 20 + z + p.wire_lds + p.wire_icache, 17 + z + p.wire_lds + p.wire_icache};
}

// Glue flip-flops per CU that hold translations (the victim queue).
uint64_t queue_bits(const TxPathParams& p) {
  return uint64_t{p.victim_queue} * (2 + p.vpn_bits + p.vmid_bits + p.vrf_bits + p.ppn_bits + p.perm_bits);
}

// Private L1-TLBs, or seed 001's aggregated / clustered ones.
std::string l1_organisation(const TxPathParams& p) {
  std::ostringstream os;
  if (p.tlbs == p.cus) {
    os << "each with a " << p.l1_entries << "-entry fully associative L1-TLB";
    return os.str();
  }
  os << p.tlbs << (p.tlbs == 1 ? " L1-TLB of " : " L1-TLBs of ") << p.l1.sets << " sets x " << p.l1.ways << " ways shared by " << p.cus / p.tlbs
     << " CUs each";
  if (p.clusters < p.tlbs)
    os << ", in " << p.clusters << (p.clusters == 1 ? " cluster" : " clusters") << " of " << p.cluster_cus << " CUs";
  if (p.l1_pad) os << " (requests through " << p.l1_pad << " registers: seed 001's latency model)";
  return os.str();
}

}  // namespace

json params_json(const TxPathParams& p) {
  return {{"module_prefix", p.module_prefix},
          {"cus", p.cus},
          {"sharers", p.sharers},
          {"icaches", p.icaches},
          {"l1tlb", p.l1.module_prefix},
          {"lds_ctrl", p.lds.module_prefix},
          {"icache_tx", p.ic.module_prefix},
          {"l1_ways", p.l1.ways},
          {"l1_tlbs", p.tlbs},
          {"l1_clusters", p.clusters},
          {"l1_request_registers", p.l1_pad},
          {"victim_queue", p.victim_queue},
          {"wire_latency", {{"lds", p.wire_lds}, {"icache", p.wire_icache}}},
          {"lookup_slots", p.slots},
          {"speculative_l2", p.speculative},
          {"promotion", p.move ? "move" : "copy"},
          {"vpn_bits", p.vpn_bits},
          {"l2_tag_bits", p.l2_tag_bits}};
}

json report_json(const config::Config& cfg) {
  const TxPathParams p = elab::elaborate_tx_path(cfg);
  const Reach r = reach(p);
  const Latency l = latency(p);
  return {{"block", "tx_path"},
          {"parameters", params_json(p)},
          {"reach_entries",
           {{"l1_per_cu", p.l1_entries},
            {"lds_per_cu", p.lds_entries},
            {"icache_each", p.icache_entries},
            {"l1", r.l1},
            {"lds", r.lds},
            {"icache", r.icache},
            {"gained_below_l1", r.below},
            {"total", r.total}}},
          {"latency_cycles",
           {{"l1_hit", l.l1_hit}, {"lds_hit", l.lds_hit}, {"icache_hit", l.icache_hit}, {"to_l2_request", l.to_l2}}},
          {"glue_storage_bits", {{"victim_queue_per_cu", queue_bits(p)}}}};
}

std::string report_markdown(const config::Config& cfg) {
  const TxPathParams p = elab::elaborate_tx_path(cfg);
  const Reach r = reach(p);
  const Latency l = latency(p);
  std::ostringstream os;
  os << "## tx_path (" << cfg.name << ")\n\n"
     << p.cus << " CUs, " << l1_organisation(p) << ", each CU with a " << p.lds.lds_bytes / 1024 << " KB LDS; " << p.icaches << " I-cache(s) of " << p.ic.bytes / 1024
     << " KB shared by " << p.sharers << " CUs; promotion " << (p.move ? "move" : "copy") << ", victim queue "
     << p.victim_queue << ", wire latency LDS " << p.wire_lds << " / I-cache " << p.wire_icache << " cycles.\n\n"
     << "| structure | translations each | count | reach (entries) |\n|---|---:|---:|---:|\n"
     << "| L1-TLB | " << p.l1_entries << " | " << p.cus << " | " << r.l1 << " |\n"
     << "| LDS (every segment idle: " << p.lds.segments << " x " << p.lds.ways << " ways) | " << p.lds_entries
     << " | " << p.cus << " | " << r.lds << " |\n"
     << "| I-cache (every line Tx: " << p.ic.lines << " x " << p.ic.tx_per_line << ") | " << p.icache_entries
     << " | " << p.icaches << " | " << r.icache << " |\n"
     << "| gained below the L1 (seed 000 6.1: 12K + 4K = 16K for Table 1) | | | " << r.below << " |\n"
     << "| total | | | " << r.total << " |\n\n"
     << "| path (no contention) | RTL cycles | seed 000 Table 1 (gem5) |\n|---|---:|---:|\n"
     << "| L1-TLB hit | " << l.l1_hit << " | 108 |\n"
     << "| LDS hit (L1 accept to fill) | " << l.lds_hit << " | 35 |\n"
     << "| I-cache hit | " << l.icache_hit << " | 20 (its own access) |\n"
     << "| miss to the L2-TLB request | " << l.to_l2 << " | 188 (L2-TLB access) |\n\n"
     << "Victim queue: " << queue_bits(p) << " flip-flops per CU.\n";
  return os.str();
}

}  // namespace txgen::blocks::tx_path
