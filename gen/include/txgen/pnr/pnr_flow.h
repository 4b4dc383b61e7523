// Placement and routing of one synthesized module with Debian's qflow
// (graywolf, qrouter) on osu018, and OpenSTA on the routed netlist with the
// routed nets' parasitics, beside the module's pre-layout timing from
// txgen's own synthesis flow (docs/pnr.md).
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "txgen/synth/synth_flow.h"

namespace txgen::pnr {

struct PnrRequest {
  synth::SynthRequest synth;    // the module's synthesis (its work_dir holds netlist.v)
  std::string work_dir;         // the qflow project, created
  std::string tech = "osu018";  // qflow -T
  std::string tech_dir = "/usr/share/qflow/tech/osu018";
  std::string pnr_scripts_dir;        // synth/pnr
  std::optional<double> utilization;  // qflow initial_density (fill cells to this density)
  std::string picture;                // PNG of the layout to write ("" for none)
};

struct StageTime {
  std::string stage;
  double seconds = 0.0;
};

struct PnrResult {
  synth::SynthResult pre;  // txgen synth: the pre-layout figures
  unsigned cells = 0;      // standard cells of the routed netlist, fill cells excluded
  unsigned flops = 0;
  unsigned fill_cells = 0;
  unsigned tree_buffers = 0;                         // clock and reset buffer trees added before placement
  int extra_cells = 0;                               // cells - pre.cells - tree_buffers: buffers BLIF added for aliases
  double cell_area_um2 = 0.0;                        // LEF area of the cells, fill excluded
  double core_width_um = 0.0, core_height_um = 0.0;  // the rows' bounding box
  double core_area_um2 = 0.0;
  double die_area_um2 = 0.0;
  double utilization = 0.0;    // cell_area / core_area
  unsigned nets = 0;           // routed signal nets (DEF NETS)
  unsigned failed_nets = 0;    // always 0 in a result: a failure throws
  double wirelength_um = 0.0;  // routed segments of every signal net
  double wire_cap_pf = 0.0;    // from the RC extraction, every net
  double period_ns = 0.0;
  double worst_slack_ns = 0.0;                     // post-route
  double min_period_ns = 0.0;                      // post-route: period - slack
  std::string path_start, path_end;                // post-route worst path, the mapped netlist's instance names
  std::string routed_path_start, routed_path_end;  // the same in qflow's names (CELL_n)
  unsigned rc_repeated_pins = 0;                   // sinks qrouter's RC file named twice or more (kept once)
  unsigned rc_repaired_sinks = 0;                  // "ERROR" sinks of qrouter's RC file filled in
  unsigned named_instances = 0;                    // routed instances mapped back to their names
  unsigned logic_depth_cells = 0;
  std::vector<StageTime> times;  // each step, in order
  double total_seconds = 0.0;
  std::string work_dir, def_path, spef_path, sta_log, picture;
};

// Called with a short line as each step starts ("placing (graywolf)").
using Progress = std::function<void(const std::string&)>;

// Synthesizes req.synth with txgen's flow, then runs qflow's synthesize
// (reading that netlist), place and route stages in req.work_dir, writes the
// SPEF from qrouter's RC file, runs OpenSTA and draws the layout. Throws
// std::runtime_error naming the log when a tool fails or the router leaves
// a net unrouted.
PnrResult run_pnr(const PnrRequest& req, const Progress& progress);

// The Markdown table under "### Placed and routed: <title>", its note, and the
// picture when there is one (`picture_link`: its path relative to the report).
std::string pnr_markdown(const PnrResult& r, const std::string& title, const std::string& picture_link);
// One JSON object with every figure.
std::string pnr_json(const PnrResult& r, const std::string& block, const std::string& config,
                     const std::string& config_hash);
// A header row and one row.
std::string pnr_csv(const PnrResult& r);

}  // namespace txgen::pnr
