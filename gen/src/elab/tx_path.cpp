#include "txgen/elab/tx_path.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "txgen/elab/bits.h"
#include "txgen/error.h"

namespace txgen::elab {
namespace {

// A member's own field paths, as the path's configuration spells them.
const std::vector<std::pair<std::string, std::string>>& path_renames() {
  static const std::vector<std::pair<std::string, std::string>> r = {
      {"$.l1tlb.cus", "$.tx_path.cus"},         {"$.l1tlb", "$.tx_path.l1tlb"},
      {"$.lds_ctrl", "$.tx_path.lds_ctrl"},     {"$.icache_tx", "$.tx_path.icache_tx"}};
  return r;
}

std::string rename(std::string text, const std::string& codec_path) {
  auto replace_all = [&](const std::string& from, const std::string& to) {
    for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
      // whole path components only: "$.l1tlb" must not rewrite "$.l1tlbx"
      const size_t end = at + from.size();
      if (end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_')) {
        at += 1;
        continue;
      }
      text.replace(at, from.size(), to);
    }
  };
  replace_all("$.bd_codec", codec_path);
  for (const auto& [from, to] : path_renames()) replace_all(from, to);
  return text;
}

// Runs a member's elaboration, reporting its errors with the path's fields.
template <typename Params>
Params member(const std::function<Params()>& elaborate, const std::string& codec_path) {
  try {
    return elaborate();
  } catch (const ConfigError& e) {
    throw ConfigError(rename(e.path(), codec_path), e.value(), rename(e.rule(), codec_path));
  }
}

// Seed 001's latency model (5.1, 6.1): an access of 2 log2 S cycles (at least
// 1) after a crossbar of log2 N + log2 K, less what the generated L1 takes.
unsigned document_pad(const L1tlbParams& l1) {
  const unsigned access = std::max(1u, 2 * clog2(l1.sets));
  const unsigned modelled = access + clog2(l1.cus_per_cluster) + clog2(l1.tlbs_per_cluster);
  return modelled > l1.hit_latency ? modelled - l1.hit_latency : 0;
}

config::Config base_of(const config::Config& cfg, const std::string& suffix) {
  config::Config d;
  d.name = cfg.name + suffix;
  d.system = cfg.system;
  d.translation = cfg.translation;
  return d;
}

}  // namespace

TxPathParams elaborate_tx_path(const config::Config& cfg) {
  if (!cfg.tx_path) throw ConfigError("$.tx_path", "(missing)", "required by the tx_path block");
  const config::TxPathConfig& c = *cfg.tx_path;
  for (const auto& [section, present] : {std::pair<const char*, bool>{"$.lds", cfg.lds.has_value()},
                                        {"$.icache", cfg.icache.has_value()},
                                        {"$.translation", cfg.translation.has_value()}})
    if (!present) throw ConfigError(section, "(missing)", "required by $.tx_path (the structures on the path)");
  if (c.cus % c.icache_tx.sharers != 0)
    throw ConfigError("$.tx_path.icache_tx.sharers", std::to_string(c.icache_tx.sharers),
                      "must divide $.tx_path.cus (" + std::to_string(c.cus) + "): each I-cache serves sharers CUs");
  TxPathParams p;
  p.module_prefix = "tx_path_" + cfg.name;

  p.l1_cfg = base_of(cfg, "");
  p.l1_cfg.l1tlb = c.l1tlb;
  p.l1_cfg.l1tlb->cus = c.cus;
  // behind a generated IOMMU the requests carry the walk scheduler's instruction ID
  p.iid_bits = cfg.iommu && cfg.walk_sched ? cfg.walk_sched->iid_bits : 0;
  p.l1 = member<L1tlbParams>([&] { return elaborate_l1tlb(p.l1_cfg); }, "$.bd_codec");
  p.tlbs = p.l1.tlbs;
  p.clusters = p.l1.clusters;
  p.cluster_cus = p.l1.cus_per_cluster;
  p.local_bits = clog2(p.cluster_cus);
  // a shared cluster names the allocating CU in the L1's instruction ID (its low bits)
  p.l1_cfg.l1tlb->iid_bits = p.iid_bits + p.local_bits;
  if (p.l1_cfg.l1tlb->iid_bits > 32)
    throw ConfigError("$.walk_sched.iid_bits", std::to_string(p.iid_bits),
                      "with " + std::to_string(p.local_bits) +
                          " bits of allocating CU the L1-TLB's instruction ID exceeds 32 bits");
  p.l1 = member<L1tlbParams>([&] { return elaborate_l1tlb(p.l1_cfg); }, "$.bd_codec");
  if (c.l1_document_latency) p.l1_pad = document_pad(p.l1);

  p.lds_cfg = base_of(cfg, "_lds");
  p.lds_cfg.lds = cfg.lds;
  p.lds_cfg.lds_ctrl = c.lds_ctrl ? *c.lds_ctrl : config::LdsCtrlConfig{};
  p.lds_cfg.bd_codec = c.lds_codec;
  p.lds = member<LdsCtrlParams>([&] { return elaborate_lds_ctrl(p.lds_cfg); }, "$.tx_path.lds_codec");

  p.ic_cfg = base_of(cfg, "_ic");
  p.ic_cfg.icache = cfg.icache;
  p.ic_cfg.icache_tx = c.icache_tx;
  p.ic_cfg.bd_codec = c.icache_codec;
  p.ic = member<IcacheTxParams>([&] { return elaborate_icache_tx(p.ic_cfg); }, "$.tx_path.icache_codec");

  p.cus = c.cus;
  p.sharers = c.icache_tx.sharers;
  p.icaches = c.cus / p.sharers;
  p.victim_queue = c.victim_queue;
  p.wire_lds = c.wire_lds;
  p.wire_icache = c.wire_icache;
  p.move = c.promotion == config::Promotion::Move;
  p.slots = c.lookup_slots;
  p.speculative = c.speculative_l2;
  if (p.slots > p.l1.mshrs_per_cu)
    throw ConfigError("$.tx_path.lookup_slots", std::to_string(p.slots),
                      "more than the L1-TLB's $.tx_path.l1tlb.mshrs_per_cu (" + std::to_string(p.l1.mshrs_per_cu) +
                          "): a CU never has more misses in flight");

  p.vpn_bits = p.l1.vpn_bits;
  p.vmid_bits = cfg.system.vmid_bits;
  p.vrf_bits = cfg.system.vrf_bits;
  p.ppn_bits = cfg.translation->ppn_bits;
  p.perm_bits = cfg.translation->perm_bits;
  p.l1_tag_bits = p.l1.l2_tag_bits;
  p.cu_bits = std::max(1u, clog2(p.cus));
  p.l2_tag_bits = p.cu_bits + p.l1_tag_bits;
  p.sharer_bits = p.ic.cu_bits;
  p.icache_bits = std::max(1u, clog2(p.icaches));
  p.wire_bits = std::max(1u, clog2(std::max(p.wire_lds, p.wire_icache)));
  p.count_bits = clog2(p.victim_queue + 1);

  p.l1_entries = p.l1.ways;
  p.lds_entries = p.lds.segments * p.lds.ways;
  p.icache_entries = p.ic.lines * p.ic.tx_per_line;
  return p;
}

}  // namespace txgen::elab
