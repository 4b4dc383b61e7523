// The $.iommu section (docs/blocks/iommu.md).
#include "txgen/config/reader.h"
#include "txgen/config/sections.h"

namespace txgen::config {

using nlohmann::json;

namespace {

unsigned field(ObjectReader& r, const char* key, unsigned value, uint64_t lo, uint64_t hi, bool power = false) {
  if (!r.has(key)) return value;
  return static_cast<unsigned>(power ? r.power_of_two(key, lo, hi) : r.integer(key, lo, hi));
}

L2tlbConfig parse_l2tlb(const json& j) {
  ObjectReader r(j, "$.iommu.l2tlb");
  L2tlbConfig c;
  c.entries = field(r, "entries", c.entries, 1, 4096, true);
  c.ways = field(r, "ways", c.ways, 1, 64, true);
  if (c.ways > c.entries)
    throw ConfigError(r.path_of("ways"), std::to_string(c.ways),
                      "exceeds entries (" + std::to_string(c.entries) + "): a set cannot hold more ways than the TLB");
  c.ports = field(r, "ports", c.ports, 1, 16);
  c.tag_bits = field(r, "tag_bits", c.tag_bits, 1, 32);
  c.mshrs = field(r, "mshrs", c.mshrs, 1, 1024);
  c.waiters = field(r, "waiters", c.waiters, 1, 2048);
  if (c.waiters < c.ports)
    throw ConfigError(r.path_of("waiters"), std::to_string(c.waiters),
                      "must be at least ports (" + std::to_string(c.ports) + ")");
  c.lookup_stages = field(r, "lookup_stages", c.lookup_stages, 3, 16);
  if (r.has("answer_register")) c.answer_register = boolean(r, "answer_register");
  r.reject_unknown();
  return c;
}

}  // namespace

void parse_iommu_section(const json& j, Config& cfg) {
  ObjectReader r(j, "$.iommu");
  IommuConfig c;
  if (r.has("l2tlb")) c.l2tlb = parse_l2tlb(r.field("l2tlb"));
  r.reject_unknown();
  cfg.iommu = c;
}

}  // namespace txgen::config
