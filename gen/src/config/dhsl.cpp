// The $.dhsl section (docs/blocks/dhsl.md).
#include "txgen/config/reader.h"
#include "txgen/config/sections.h"

namespace txgen::config {

using nlohmann::json;

namespace {

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

}  // namespace

void parse_dhsl_section(const json& j, Config& cfg) { cfg.dhsl = parse_dhsl(j); }

}  // namespace txgen::config
