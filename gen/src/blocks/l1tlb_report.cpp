// Storage and latency report of the aggregated / clustered L1-TLBs, with the
// document's latency model (seed 001, Tables 5.1 and 6.1) beside the RTL's cycles.
#include <sstream>
#include <vector>

#include "txgen/blocks/l1tlb_emit.h"
#include "txgen/elab/bits.h"

namespace txgen::blocks::l1tlb {

using elab::L1tlbParams;
using nlohmann::json;

namespace {

struct Storage {
  uint64_t valid, tag, ppn, perm, repl, mshr_entry, mshr, mshr_queues, per_tlb, total, pointers, input_buffers;
};

Storage storage(const L1tlbParams& p) {
  Storage s{};
  const uint64_t e = p.entries_per_tlb;
  s.valid = e;
  s.tag = e * p.tag_bits;
  s.ppn = e * p.ppn_bits;
  s.perm = e * p.perm_bits;
  s.repl = uint64_t{p.sets} * p.repl_bits_per_set;
  // valid, pending, sent, kill, {set, vpn tag}, vmid, waiter mask; with the
  // queues (fifo) "sent" is the send queue's membership, not a bit
  s.mshr_entry = (p.mshr_fifo ? 3 : 4) + p.vpn_hi_bits + p.vmid_bits + p.cus_per_cluster;
  s.mshr = uint64_t{p.mshrs} * s.mshr_entry;
  // fifo: the free and the send queue, M indices each
  s.mshr_queues = p.mshr_fifo ? 2 * uint64_t{p.mshrs} * p.mshr_bits : 0;
  s.per_tlb = s.valid + s.tag + s.ppn + s.perm + s.repl + s.mshr + s.mshr_queues;
  s.total = s.per_tlb * p.tlbs;
  s.pointers = uint64_t{p.tlbs} * p.cu_bits + uint64_t{p.clusters} * p.home_bits;
  // two entries of (valid, VPN, VMID) per CU
  s.input_buffers = p.input_buffer ? uint64_t{p.cus} * 2 * (1 + p.vpn_bits + p.vmid_bits) : 0;
  return s;
}

unsigned lg(unsigned v) { return elab::log2_exact(v); }

// The document's models (seed 001, 5.1): access 2 log2 S, crossbar log2 M + log2 N.
unsigned doc_access(unsigned sets) { return 2 * lg(sets); }
unsigned doc_xbar(unsigned m, unsigned n) { return lg(m) + lg(n); }

// Table 5.1 as printed (64 CUs): T, access latency, crossbar latency (-1 = "-").
struct Row51 {
  unsigned tlbs, cus_per_tlb, entries, sets, ways, mshrs;
  int access, xbar;
};
const std::vector<Row51>& table51() {
  static const std::vector<Row51> rows = {
      {64, 1, 128, 1, 128, 4, 1, -1},      {32, 2, 256, 2, 128, 8, 2, 1},
      {16, 4, 512, 4, 128, 16, 4, 2},      {8, 8, 1024, 8, 128, 32, 6, 3},
      {4, 16, 2048, 16, 128, 64, 8, 4},    {2, 32, 4096, 32, 128, 128, 10, 5},
      {1, 64, 8192, 64, 128, 256, 12, 6}};
  return rows;
}

// Table 6.1 as printed: T, C, crossbar M x N, latency (-1 = "-").
struct Row61 {
  unsigned tlbs, clusters, m, n;
  int latency;
};
const std::vector<Row61>& table61() {
  static const std::vector<Row61> rows = {
      {64, 64, 1, 1, -1}, {64, 32, 2, 2, 2},    {64, 16, 4, 4, 4},   {64, 8, 8, 8, 6},
      {64, 4, 16, 16, 8}, {64, 2, 32, 32, 10},  {64, 1, 64, 64, 12}, {32, 32, 2, 1, 1},
      {32, 16, 4, 2, 3},  {32, 8, 8, 4, 5},     {32, 4, 16, 8, 7},   {32, 2, 32, 16, 9},
      {32, 1, 64, 32, 10}, {16, 16, 4, 1, 2},   {16, 8, 8, 2, 4},    {16, 4, 16, 4, 6},
      {16, 2, 32, 8, 8},  {16, 1, 64, 16, 10},  {8, 8, 8, 1, 3},     {8, 4, 16, 2, 5},
      {8, 2, 32, 4, 7},   {8, 1, 64, 8, 9},     {4, 4, 16, 1, 4},    {4, 2, 32, 2, 6},
      {4, 1, 64, 4, 8},   {2, 2, 32, 1, 5},     {2, 1, 64, 2, 7},    {1, 1, 64, 1, 6}};
  return rows;
}

// A printed "-" stands for no crossbar (1 x 1), i.e. 0 cycles.
int printed_value(int v) { return v < 0 ? 0 : v; }

json table51_json() {
  json rows = json::array();
  for (const Row51& r : table51()) {
    const unsigned s = 64 / r.tlbs;
    const unsigned f_access = doc_access(s), f_xbar = doc_xbar(64 / r.tlbs, 1);
    const bool geometry_ok = r.cus_per_tlb == 64 / r.tlbs && r.sets == s && r.ways == 128 &&
                             r.entries == s * 128 && r.mshrs == 4 * (64 / r.tlbs);
    const bool agrees = geometry_ok && printed_value(r.access) == static_cast<int>(f_access) &&
                        printed_value(r.xbar) == static_cast<int>(f_xbar);
    rows.push_back({{"tlbs", r.tlbs},
                    {"cus_per_tlb", r.cus_per_tlb},
                    {"entries_per_tlb", r.entries},
                    {"sets", r.sets},
                    {"ways", r.ways},
                    {"mshrs_per_tlb", r.mshrs},
                    {"printed_access_cycles", r.access},
                    {"formula_access_cycles", f_access},
                    {"printed_xbar_cycles", r.xbar < 0 ? json(nullptr) : json(r.xbar)},
                    {"formula_xbar_cycles", f_xbar},
                    {"agrees", agrees}});
  }
  return rows;
}

json table61_json() {
  json rows = json::array();
  for (const Row61& r : table61()) {
    const unsigned fm = 64 / r.clusters, fn = r.tlbs / r.clusters;
    const unsigned f_lat = doc_xbar(fm, fn);
    const bool agrees = r.m == fm && r.n == fn && printed_value(r.latency) == static_cast<int>(f_lat);
    rows.push_back({{"tlbs", r.tlbs},
                    {"clusters", r.clusters},
                    {"printed_xbar", r.latency < 0 ? std::string("-") : std::to_string(r.m) + "x" + std::to_string(r.n)},
                    {"formula_xbar", std::to_string(fm) + "x" + std::to_string(fn)},
                    {"printed_xbar_cycles", r.latency < 0 ? json(nullptr) : json(r.latency)},
                    {"formula_xbar_cycles", f_lat},
                    {"agrees", agrees}});
  }
  return rows;
}

// The policy and, for LRU, how its order is held.
std::string repl_name(const L1tlbParams& p) {
  if (p.plru()) return "plru";
  if (p.lru_matrix) return "lru, order matrix";
  return p.lru_touch_next ? "lru, ages, touch at the next edge" : "lru, ages";
}

}  // namespace

json params_json(const L1tlbParams& p) {
  return {{"module_prefix", p.module_prefix},
          {"replacement", config::name_of(p.replacement)},
          {"lru_state", p.plru() ? "-" : p.lru_matrix ? "matrix" : "ages"},
          {"lru_touch", p.plru() ? "-" : p.lru_touch_next ? "next_edge" : "decide_edge"},
          {"plru_index", p.plru_index},
          {"mshr_alloc", p.mshr_fifo ? "fifo" : "lowest"},
          {"l2_ports", "cluster"},
          {"input_buffer", p.input_buffer},
          {"cus", p.cus},
          {"tlbs", p.tlbs},
          {"clusters", p.clusters},
          {"sets", p.sets},
          {"ways", p.ways},
          {"cus_per_cluster", p.cus_per_cluster},
          {"tlbs_per_cluster", p.tlbs_per_cluster},
          {"mshrs_per_tlb", p.mshrs},
          {"entries_per_tlb", p.entries_per_tlb},
          {"entries_total", p.entries_total},
          {"vpn_bits", p.vpn_bits},
          {"vmid_bits", p.vmid_bits},
          {"ppn_bits", p.ppn_bits},
          {"perm_bits", p.perm_bits},
          {"home_bits", p.home_bits},
          {"set_bits", p.set_bits},
          {"vpn_tag_bits", p.vpn_tag_bits},
          {"tag_bits", p.tag_bits},
          {"cu_bits", p.cu_bits},
          {"mshr_bits", p.mshr_bits},
          {"l2_tag_bits", p.l2_tag_bits},
          {"hit_latency", p.hit_latency},
          {"fill_latency", p.fill_latency}};
}

json report_json(const config::Config& cfg) {
  const L1tlbParams p = elab::elaborate_l1tlb(cfg);
  const Storage s = storage(p);
  const unsigned access = doc_access(p.sets);
  return {{"block", "l1tlb"},
          {"parameters", params_json(p)},
          {"crossbar", {{"inputs", p.cus_per_cluster}, {"outputs", p.tlbs_per_cluster}, {"count", p.clusters}}},
          {"storage_bits",
           {{"per_tlb",
             {{"valid", s.valid},
              {"tag", s.tag},
              {"ppn", s.ppn},
              {"perm", s.perm},
              {"replacement", s.repl},
              {"mshr_entry", s.mshr_entry},
              {"mshr", s.mshr},
              {"mshr_queues", s.mshr_queues},
              {"total", s.per_tlb}}},
            {"total", s.total},
            {"arbiter_pointers", s.pointers},
            {"input_buffers", s.input_buffers}}},
          {"latency",
           {{"document_model",
             {{"access_cycles", access},
              {"access_cycles_as_printed_for_one_set", 1},
              {"xbar_cycles", doc_xbar(p.cus_per_cluster, p.tlbs_per_cluster)},
              {"total_cycles", (access == 0 ? 1u : access) + doc_xbar(p.cus_per_cluster, p.tlbs_per_cluster)}}},
            {"rtl_at_2_5ns",
             {{"xbar_cycles", p.xbar_cycles},
              {"lookup_cycles", p.lookup_cycles},
              {"hit_latency", p.hit_latency},
              {"miss_to_l2_request", p.miss_to_l2},
              {"l2_response_to_fill", p.fill_latency}}}}},
          {"document_tables", {{"table_5_1", table51_json()}, {"table_6_1", table61_json()}}}};
}

std::string report_markdown(const config::Config& cfg) {
  const L1tlbParams p = elab::elaborate_l1tlb(cfg);
  const Storage s = storage(p);
  const unsigned access = doc_access(p.sets);
  const unsigned xbar = doc_xbar(p.cus_per_cluster, p.tlbs_per_cluster);
  std::ostringstream os;
  os << "## l1tlb (" << cfg.name << ", " << config::name_of(p.replacement) << ")\n\n"
     << p.cus << " CUs, " << p.tlbs << " TLBs in " << p.clusters << " clusters; each TLB " << p.sets << " sets x "
     << p.ways << " ways = " << p.entries_per_tlb << " entries (" << p.entries_total << " in total), " << p.mshrs
     << " MSHRs; " << p.clusters << " crossbars of " << p.cus_per_cluster << " x " << p.tlbs_per_cluster
     << " (CUs x TLBs). VPN " << p.vpn_bits << " bits = tag " << p.vpn_tag_bits << " | set " << p.set_bits
     << " | home TLB " << p.home_bits << "; stored tag " << p.tag_bits << " bits (with VMID " << p.vmid_bits
     << "); L2 tag " << p.l2_tag_bits << " bits.\n\n"
     << "| state (per TLB) | bits |\n|---|---:|\n"
     << "| valid: " << p.entries_per_tlb << " x 1 | " << s.valid << " |\n"
     << "| tag: " << p.entries_per_tlb << " x " << p.tag_bits << " | " << s.tag << " |\n"
     << "| PPN: " << p.entries_per_tlb << " x " << p.ppn_bits << " | " << s.ppn << " |\n"
     << "| permission: " << p.entries_per_tlb << " x " << p.perm_bits << " | " << s.perm << " |\n"
     << "| replacement (" << repl_name(p) << "): " << p.sets << " x " << p.repl_bits_per_set
     << " | " << s.repl << " |\n"
     << "| MSHRs: " << p.mshrs << " x " << s.mshr_entry
     << (p.mshr_fifo ? " (valid, pending, kill, VPN " : " (valid, pending, sent, kill, VPN ") << p.vpn_hi_bits
     << ", VMID " << p.vmid_bits << ", waiters " << p.cus_per_cluster << ") | " << s.mshr << " |\n"
     << (p.mshr_fifo ? "| MSHR free and send queues: 2 x " + std::to_string(p.mshrs) + " x " +
                           std::to_string(p.mshr_bits) + " | " + std::to_string(s.mshr_queues) + " |\n"
                     : std::string())
     << "| **per TLB** | **" << s.per_tlb << "** |\n"
     << "| **all " << p.tlbs << " TLBs** | **" << s.total << "** |\n"
     << "| round-robin pointers (crossbars, L2 ports) | " << s.pointers << " |\n"
     << (p.input_buffer ? "| input buffers: " + std::to_string(p.cus) + " CUs x 2 x (valid, VPN, VMID) | " +
                              std::to_string(s.input_buffers) + " |\n"
                        : std::string())
     << "\n"
     << "| latency | document model (5.1, 6.1) | RTL at 2.5 ns |\n|---|---:|---:|\n"
     << "| crossbar | log2 " << p.cus_per_cluster << " + log2 " << p.tlbs_per_cluster << " = " << xbar
     << " | " << p.xbar_cycles << (p.input_buffer ? " (input buffer, arbitrate, register)" : " (arbitrate, register)")
     << " |\n"
     << "| TLB access | 2 log2 " << p.sets << " = " << access << (p.sets == 1 ? " (printed as 1 cycle)" : "")
     << " | " << p.lookup_cycles << " (compare, decide) |\n"
     << "| hit: request to response | " << ((access == 0 ? 1u : access) + xbar) << " | " << p.hit_latency
     << " |\n"
     << "| miss: request to L2 request, L2 response to fill | - | " << p.miss_to_l2 << ", " << p.fill_latency
     << " |\n\n"
     << "Table 5.1 (64 CUs, 128 ways) as printed, beside its formulas:\n\n"
     << "| T | CUs/TLB | entries | sets x ways | MSHRs | access printed | 2 log2 S | xbar printed | log2(64/T) | |\n"
     << "|---:|---:|---:|---|---:|---:|---:|---:|---:|---|\n";
  for (const json& r : table51_json()) {
    os << "| " << r["tlbs"] << " | " << r["cus_per_tlb"] << " | " << r["entries_per_tlb"] << " | " << r["sets"]
       << " x " << r["ways"] << " | " << r["mshrs_per_tlb"] << " | " << r["printed_access_cycles"] << " | "
       << r["formula_access_cycles"] << " | "
       << (r["printed_xbar_cycles"].is_null() ? std::string("-") : r["printed_xbar_cycles"].dump()) << " | "
       << r["formula_xbar_cycles"] << " | " << (r["agrees"].get<bool>() ? "" : "**disagrees**") << " |\n";
  }
  os << "\nTable 6.1 as printed, beside its formulas ((64/C) x (T/C), log2(64/C) + log2(T/C)):\n\n"
     << "| T | C | xbar printed | formula | cycles printed | formula | |\n|---:|---:|---|---|---:|---:|---|\n";
  for (const json& r : table61_json()) {
    os << "| " << r["tlbs"] << " | " << r["clusters"] << " | " << r["printed_xbar"].get<std::string>() << " | "
       << r["formula_xbar"].get<std::string>() << " | "
       << (r["printed_xbar_cycles"].is_null() ? std::string("-") : r["printed_xbar_cycles"].dump()) << " | "
       << r["formula_xbar_cycles"] << " | " << (r["agrees"].get<bool>() ? "" : "**disagrees**") << " |\n";
  }
  return os.str();
}

}  // namespace txgen::blocks::l1tlb
