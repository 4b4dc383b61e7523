// The $.lds_ctrl section (docs/blocks/lds_ctrl.md), also the path's per-CU controller options.
#include "txgen/config/reader.h"
#include "txgen/config/sections.h"

namespace txgen::config {

using nlohmann::json;

LdsCtrlConfig parse_lds_ctrl(const json& j, const std::string& path) {
  ObjectReader r(j, path);
  LdsCtrlConfig c;
  if (r.has("max_work_groups"))
    c.max_work_groups = static_cast<unsigned>(r.integer("max_work_groups", 1, 64));
  if (r.has("clear_bits_per_cycle"))
    c.clear_bits_per_cycle = static_cast<unsigned>(r.power_of_two("clear_bits_per_cycle", 1, 32768));
  r.reject_unknown();
  return c;
}

void parse_lds_ctrl_section(const json& j, Config& cfg) { cfg.lds_ctrl = parse_lds_ctrl(j, "$.lds_ctrl"); }

}  // namespace txgen::config
