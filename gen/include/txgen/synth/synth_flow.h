// Logic synthesis and static timing of generated blocks: Yosys onto osu018,
// then OpenSTA against the block's SDC, and the figures a QoR table needs.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace txgen::synth {

struct SynthRequest {
  std::string top;                         // top module name
  std::vector<std::string> verilog_files;  // Verilog-2005 sources
  std::string sdc_path;                    // constraints/<block>.sdc
  std::string liberty_path;                // osu018_stdcells.lib
  std::string work_dir;                    // created; holds scripts, logs, netlist
  double period_ns = 2.5;                  // must match the SDC clock
  std::string scripts_dir;                 // holds yosys_synth.tcl and sta.tcl
  bool hierarchical = false;               // keep the module hierarchy (synth --hier)
};

// One unique module of a hierarchical run. "One instance" includes the
// module's submodules; "own" counts only the cells of its own body.
struct ModuleFigures {
  std::string name;
  unsigned instances = 0;        // in the whole design; the top has 1
  double area_um2 = 0.0;         // one instance
  unsigned cells = 0;            // one instance
  unsigned flops = 0;            // one instance
  double own_area_um2 = 0.0;     // instances x own area, summed, is the design's area
  // The module's mapped netlist timed as a top against the block's SDC (its
  // ports as chip I/O); empty when that run failed. Set for the top too.
  std::optional<double> min_period_ns;
  std::string path_start, path_end;
};

struct SynthResult {
  std::string top;
  double area_um2 = 0.0;        // "Chip area" of stat -liberty
  unsigned cells = 0;           // all standard cells, flip-flops included
  unsigned flops = 0;           // sequential cells (flip-flops and latches)
  double period_ns = 0.0;
  double worst_slack_ns = 0.0;  // setup slack of the worst path at period_ns
  double min_period_ns = 0.0;   // period_ns - worst_slack_ns
  double critical_path_ns = 0.0;  // arrival of the worst path, less input delay
  double fo4 = 0.0;             // critical_path_ns / kFo4Ns
  std::string path_start;       // input port or register clock pin
  std::string path_end;         // register data pin or output port
  unsigned logic_depth_cells = 0;  // cells on the worst path; 0 if not measured
  bool hierarchical = false;    // area, cells, flops: totals over every instance
  unsigned linked_submodules = 0;  // submodule instances OpenSTA linked below the top
  unsigned boundary_buffers = 0;     // hierarchical: buffers timed with the top, not in area_um2
  double boundary_buffer_area_um2 = 0.0;
  std::vector<ModuleFigures> modules;  // hierarchical runs: each unique module, the top first
};

// FO4 inverter delay in osu018 at the typical corner (INVX1 driving 4 INVX1).
inline constexpr double kFo4Ns = 0.10;

// Runs yosys_synth.tcl and sta.tcl in req.work_dir (after copying both scripts
// and the SDC there) and parses the results. Throws std::runtime_error naming
// the log file and quoting its tail when a tool fails or a figure is missing.
SynthResult run_synth(const SynthRequest& req);

// run_synth on every request, `jobs` at a time (each in its own work
// directory); results in request order. on_start is called as each starts.
// The first failure is rethrown after every started run has finished.
std::vector<SynthResult> run_synth_all(const std::vector<SynthRequest>& requests, unsigned jobs,
                                       const std::function<void(const SynthRequest&)>& on_start);

// Paper-ready Markdown table under a "### title" heading, then, for each
// hierarchical result, its per-module table.
std::string results_markdown(const std::vector<SynthResult>& results,
                             const std::string& title);
// JSON array with one object per result, all SynthResult fields.
std::string results_json(const std::vector<SynthResult>& results);
// CSV with a header row and the same fields as the JSON except the modules.
std::string results_csv(const std::vector<SynthResult>& results);
// CSV of the modules of every hierarchical result, one row per (top, module).
std::string modules_csv(const std::vector<SynthResult>& results);
// "flat" or "hierarchical".
std::string synthesis_mode(bool hierarchical);

}  // namespace txgen::synth
