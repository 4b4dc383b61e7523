// Elaborated parameters of the MGvm home-slice selection and dHSL switching
// logic (docs/blocks/dhsl.md, "Parameters and widths"). Shared by the
// emitter, the golden model and the harness (widths only; no behaviour).
#pragma once

#include <string>

#include "txgen/config/config.h"

namespace txgen::elab {

struct DhslParams {
  std::string module_prefix;  // "dhsl_<config name>"
  config::DhslPolicy policy = config::DhslPolicy::Mgvm;
  unsigned chiplets = 0;        // N
  unsigned chiplet_bits = 0;    // CB = max(1, ceil(log2 N))
  unsigned vpn_bits = 0;        // VPN
  unsigned shift_bits = 6;      // SH
  unsigned coarse_shift = 0;    // reset value of the HSL registers' shift
  unsigned counter_bits = 0;    // W
  unsigned epoch_requests = 0;  // E
  unsigned check_digit_bits = 4;  // digit of the digit-serial checks
  unsigned check_steps = 0;       // J = ceil(W / 4): digits of a counter
  unsigned imbalance_num = 0, imbalance_den = 0;  // In / Id
  unsigned hit_num = 0, hit_den = 0;              // Hn / Hd
  unsigned balanced_num = 0, balanced_den = 0;    // Bn / Bd
  unsigned cus_per_chiplet = 0;                   // C (storage report)
  unsigned l2_entries = 0;                        // L (storage report)

  bool has_registers() const {
    return policy == config::DhslPolicy::MgvmCoarse || policy == config::DhslPolicy::Mgvm;
  }
  bool has_monitors() const { return policy == config::DhslPolicy::Mgvm; }
  // Element counts of the co-simulation top's policy-dependent ports (0: no port).
  unsigned monitor_ports() const { return has_monitors() ? 1 : 0; }
  unsigned monitor_chiplets() const { return has_monitors() ? chiplets : 0; }
  unsigned register_ports() const { return has_registers() ? 1 : 0; }
  unsigned register_chiplets() const { return has_registers() ? chiplets : 0; }
};

// Throws txgen::ConfigError (exit code 2) naming the field when the
// configuration cannot be built.
DhslParams elaborate_dhsl(const config::Config& cfg);

}  // namespace txgen::elab
