// The $.walk_sched section (docs/blocks/walk_sched.md).
#include "txgen/config/reader.h"
#include "txgen/config/sections.h"

namespace txgen::config {

using nlohmann::json;

namespace {

WalkSchedConfig parse_walk_sched(const json& j) {
  ObjectReader r(j, "$.walk_sched");
  WalkSchedConfig w;
  const std::string policy = r.choice("policy", {"fcfs", "random", "simt"});
  w.policy = policy == "fcfs" ? WalkPolicy::Fcfs : policy == "random" ? WalkPolicy::Random : WalkPolicy::Simt;
  if (r.has("entries")) w.entries = static_cast<unsigned>(r.power_of_two("entries", 4, 1024));
  if (r.has("iid_bits")) w.iid_bits = static_cast<unsigned>(r.integer("iid_bits", 1, 32));
  if (r.has("walkers")) w.walkers = static_cast<unsigned>(r.integer("walkers", 1, 32));
  if (r.has("levels")) w.levels = static_cast<unsigned>(r.integer("levels", 2, 5));
  if (r.has("pwc_entries")) {
    w.pwc_entries.clear();
    const json& list = r.field("pwc_entries");
    if (!list.is_array())
      throw ConfigError(r.path_of("pwc_entries"), list.dump(), "must be a list of entries per upper level");
    for (size_t i = 0; i < list.size(); ++i) {
      const std::string path = r.path_of("pwc_entries") + "[" + std::to_string(i) + "]";
      const json& v = list[i];
      if (!v.is_number_integer() || v.is_boolean() || v.get<int64_t>() < 1 || v.get<int64_t>() > 64 ||
          (v.get<int64_t>() & (v.get<int64_t>() - 1)) != 0)
        throw ConfigError(path, v.dump(), "must be a power of two in [1, 64]");
      w.pwc_entries.push_back(v.get<unsigned>());
    }
  }
  if (w.pwc_entries.size() + 1 != w.levels)
    throw ConfigError(r.path_of("pwc_entries"), std::to_string(w.pwc_entries.size()) + " levels",
                      "must list one PWC per upper page-table level (" + std::to_string(w.levels - 1) + ")");
  if (r.has("wavefront")) w.wavefront = static_cast<unsigned>(r.integer("wavefront", 1, 1024));
  if (r.has("aging_threshold")) w.aging_threshold = r.integer("aging_threshold", 1, uint64_t{1} << 32);
  if (r.has("select_levels_per_cycle"))
    w.select_levels_per_cycle = static_cast<unsigned>(r.integer("select_levels_per_cycle", 1, 10));
  r.reject_unknown();
  return w;
}

}  // namespace

void parse_walk_sched_section(const json& j, Config& cfg) { cfg.walk_sched = parse_walk_sched(j); }

}  // namespace txgen::config
