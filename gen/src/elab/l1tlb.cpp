#include "txgen/elab/l1tlb.h"

#include <algorithm>
#include <string>

#include "txgen/elab/bits.h"
#include "txgen/error.h"

namespace txgen::elab {

using std::to_string;

L1tlbParams elaborate_l1tlb(const config::Config& cfg) {
  if (!cfg.l1tlb) throw ConfigError("$.l1tlb", "(missing)", "required by the l1tlb block");
  const config::L1tlbConfig& c = *cfg.l1tlb;
  // the fields' own rules are parse_config()'s; the rules between them are here
  if (c.tlbs > c.cus)
    throw ConfigError("$.l1tlb.tlbs", to_string(c.tlbs),
                      "must divide $.l1tlb.cus (" + to_string(c.cus) + "): each TLB serves cus / tlbs CUs");
  if (c.clusters > c.tlbs)
    throw ConfigError("$.l1tlb.clusters", to_string(c.clusters),
                      "must divide $.l1tlb.tlbs (" + to_string(c.tlbs) +
                          "): each cluster holds tlbs / clusters TLBs (1 <= C <= T)");
  if (!cfg.translation)
    throw ConfigError("$.translation", "(missing)", "required by $.l1tlb: the PPN and permission widths");

  L1tlbParams p;
  p.module_prefix = "l1tlb_" + cfg.name;
  p.replacement = c.replacement;
  p.cus = c.cus;
  p.tlbs = c.tlbs;
  p.clusters = c.clusters;
  p.ways = c.ways;
  p.sets = c.cus / c.tlbs;
  p.cus_per_cluster = c.cus / c.clusters;
  p.tlbs_per_cluster = c.tlbs / c.clusters;
  p.cus_per_tlb = c.cus / c.tlbs;
  p.mshrs_per_cu = c.mshrs_per_cu;
  p.mshrs = p.cus_per_tlb * c.mshrs_per_cu;
  p.entries_per_tlb = p.sets * p.ways;
  p.entries_total = p.tlbs * p.entries_per_tlb;

  const unsigned page_bits = log2_exact(cfg.system.page_bytes);
  p.home_bits = log2_exact(p.tlbs_per_cluster);
  p.set_bits = log2_exact(p.sets);
  if (cfg.system.va_bits < page_bits + p.home_bits + p.set_bits + 1)
    throw ConfigError("$.system.va_bits", to_string(cfg.system.va_bits),
                      "too narrow for $.l1tlb: the VPN (va_bits - " + to_string(page_bits) +
                          " page-offset bits) must hold " + to_string(p.home_bits) + " home-TLB bits, " +
                          to_string(p.set_bits) + " set bits and at least 1 tag bit");
  p.vpn_bits = cfg.system.va_bits - page_bits;
  p.vmid_bits = cfg.system.vmid_bits;
  p.ppn_bits = cfg.translation->ppn_bits;
  p.perm_bits = cfg.translation->perm_bits;
  p.vpn_tag_bits = p.vpn_bits - p.home_bits - p.set_bits;
  p.tag_bits = p.vpn_tag_bits + p.vmid_bits;
  p.vpn_hi_bits = p.vpn_bits - p.home_bits;
  p.cu_bits = log2_exact(p.cus_per_cluster);
  p.tlb_bits = log2_exact(p.tlbs);
  p.mshr_bits = std::max(1u, clog2(p.mshrs));
  p.l2_tag_bits = p.home_bits + p.mshr_bits;
  p.age_bits = log2_exact(p.ways);
  // auto: the matrix up to 16 ways (120 bits per set against 64 for ages),
  // where it takes the age compare off the hit's touch; ages above
  p.lru_matrix = !p.plru() && (c.lru_state == config::L1tlbLruState::Matrix ||
                               (c.lru_state == config::L1tlbLruState::Auto && p.ways <= 16));
  if (p.lru_matrix && p.ways > 32)
    throw ConfigError("$.l1tlb.lru_state", "matrix", "offered up to 32 ways (" + to_string(p.ways) + " here)");
  // auto: the next edge with ages, where the touch's read of the hit way's
  // age and compare with every age set the 128-way TLB's clock
  const bool ages = !p.plru() && !p.lru_matrix;
  if (c.lru_touch == config::L1tlbLruTouch::NextEdge && !ages)
    throw ConfigError("$.l1tlb.lru_touch", "\"next_edge\"",
                      "offered with the LRU ages only (lru_state \"ages\", or above 16 ways); this TLB keeps " +
                          std::string(p.plru() ? "a PLRU tree" : "the order matrix"));
  p.lru_touch_next = ages && c.lru_touch != config::L1tlbLruTouch::DecideEdge;
  p.repl_bits_per_set = p.plru()       ? p.ways - 1
                        : p.lru_matrix ? p.ways * (p.ways - 1) / 2
                                       : p.ways * p.age_bits;
  // PLRU: the touches' binary way indices pay from 64 ways (32 ways: slower;
  // docs/blocks/l1tlb.md); one way has no tree
  p.plru_index = p.plru() && p.ways > 1 && c.plru_index.value_or(p.ways >= 64);
  // auto: the queue from 32 MSHRs, where the lowest-free scan after an
  // allocation sets the TLB's clock (docs/blocks/l1tlb.md); one MSHR has no order
  p.mshr_fifo = p.mshrs > 1 && (c.mshr_alloc == config::L1tlbMshrAlloc::Fifo ||
                                (c.mshr_alloc == config::L1tlbMshrAlloc::Auto && p.mshrs >= 32));
  p.input_buffer = c.input_buffer;
  p.iid_bits = c.iid_bits;
  const unsigned buffered = p.input_buffer ? 1 : 0;
  p.xbar_cycles += buffered;
  p.hit_latency += buffered;
  p.miss_to_l2 += buffered;
  return p;
}

}  // namespace txgen::elab
