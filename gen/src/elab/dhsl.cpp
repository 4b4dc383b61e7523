#include "txgen/elab/dhsl.h"

#include <algorithm>
#include <string>

#include "txgen/elab/bits.h"
#include "txgen/error.h"

namespace txgen::elab {

using std::to_string;

DhslParams elaborate_dhsl(const config::Config& cfg) {
  const config::DhslConfig& d = *cfg.dhsl;
  DhslParams p;
  p.module_prefix = "dhsl_" + cfg.name;
  p.policy = d.policy;
  p.chiplets = d.chiplets;
  p.chiplet_bits = std::max(1u, clog2(d.chiplets));
  const unsigned page_bits = log2_exact(cfg.system.page_bytes);
  p.vpn_bits = cfg.system.va_bits - page_bits;
  if (d.coarse_bytes < cfg.system.page_bytes)
    throw ConfigError("$.dhsl.coarse_bytes", to_string(d.coarse_bytes),
                      "smaller than a page (" + to_string(cfg.system.page_bytes) + " B)");
  p.coarse_shift = log2_exact(d.coarse_bytes) - page_bits;
  if (p.coarse_shift >= p.vpn_bits)
    throw ConfigError("$.dhsl.coarse_bytes", to_string(d.coarse_bytes),
                      "a block of 2^" + to_string(p.coarse_shift) + " pages covers the whole " +
                          to_string(cfg.system.va_bits) + "-bit VA space: every address would have one home");
  p.counter_bits = d.counter_bits;
  p.epoch_requests = d.epoch_requests;
  p.check_steps = (p.counter_bits + p.check_digit_bits - 1) / p.check_digit_bits;
  // Two requests per cycle at most: epochs are ceil(E / 2) cycles apart, and
  // a switch-back check needs J + 2 edges after its epoch edge.
  const unsigned min_epoch = 2 * (p.check_steps + 3);
  if (p.epoch_requests < min_epoch)
    throw ConfigError("$.dhsl.epoch_requests", to_string(p.epoch_requests),
                      "shorter than " + to_string(min_epoch) + " requests: the switch-back check of " +
                          to_string(p.counter_bits) + "-bit counters takes " + to_string(p.check_steps + 2) +
                          " cycles and must end before the next epoch");
  p.imbalance_num = d.imbalance.num;
  p.imbalance_den = d.imbalance.den;
  p.hit_num = d.hit_rate.num;
  p.hit_den = d.hit_rate.den;
  p.balanced_num = d.balanced.num;
  p.balanced_den = d.balanced.den;
  p.cus_per_chiplet = d.cus_per_chiplet;
  p.l2_entries = d.l2_entries;
  return p;
}

}  // namespace txgen::elab
