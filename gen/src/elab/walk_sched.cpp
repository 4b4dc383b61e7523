#include "txgen/elab/walk_sched.h"

#include <algorithm>
#include <string>

#include "txgen/elab/bits.h"
#include "txgen/error.h"

namespace txgen::elab {

using std::to_string;

WalkSchedParams elaborate_walk_sched(const config::Config& cfg) {
  const config::WalkSchedConfig& w = *cfg.walk_sched;
  WalkSchedParams p;
  p.module_prefix = "walk_sched_" + cfg.name;
  p.policy = w.policy;
  p.entries = w.entries;
  p.index_bits = log2_exact(w.entries);
  p.count_bits = clog2(uint64_t{w.entries} + 1);
  p.iid_bits = w.iid_bits;
  p.walkers = w.walkers;
  p.walker_bits = std::max(1u, clog2(w.walkers));
  p.levels = w.levels;
  p.level_bits = log2_exact(cfg.system.page_bytes / 8);
  p.vpn_bits = cfg.system.va_bits - log2_exact(cfg.system.page_bytes);
  if (p.vpn_bits <= (p.levels - 1) * p.level_bits)
    throw ConfigError("$.walk_sched.levels", to_string(p.levels),
                      "a " + to_string(p.vpn_bits) + "-bit VPN cannot hold " + to_string(p.levels - 1) +
                          " lower levels of " + to_string(p.level_bits) + " index bits and a root index");
  p.pwc_entries = w.pwc_entries;
  for (unsigned l = 1; l < p.levels; ++l) p.pwc_tag_bits.push_back(p.vpn_bits - (p.levels - l) * p.level_bits);
  p.wavefront = w.wavefront;
  p.score_bits = clog2(uint64_t{w.wavefront} * w.levels + 1);
  p.aging_threshold = w.aging_threshold;
  p.credit_bits = clog2(w.aging_threshold + 1);
  p.levels_per_cycle = std::min(w.select_levels_per_cycle, std::max(1u, p.index_bits));
  p.select_latency = (p.index_bits + p.levels_per_cycle - 1) / p.levels_per_cycle;
  p.cooldown_bits = clog2(uint64_t{p.select_latency} + 1);
  return p;
}

}  // namespace txgen::elab
