// Power of one synthesized module from the activity of a real run
// (docs/power.md): the module's inputs in the co-simulation's RTL waveform
// replayed into its mapped netlist in Icarus (zero-delay cell models from the
// liberty, registers starting at 0 as the RTL's), the outputs compared, every
// net's toggles from that simulation, OpenSTA's per-instance power at two
// global activities, and each instance's dynamic power scaled by its own
// measured activity. SRAM macros beside the module add their access energies
// (counted in the RTL waveform) and leakage.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "txgen/power/activity.h"
#include "txgen/power/operation.h"
#include "txgen/synth/sram_macro.h"
#include "txgen/synth/synth_flow.h"

namespace txgen::power {

uint64_t count_operation(const EdgeSamples& samples, const Operation& op);
std::vector<std::string> operation_signals(const Operation& op);  // the signals its terms read

// One internal-power arc of an instance as OpenSTA evaluated it at global
// activity 1: `from` -> `to` (from == to: an input pin's own energy), the
// energy per transition and OpenSTA's weight of it (the arc's `when`
// probability for an input pin).
struct PowerArc {
  std::string from, to;
  double duty = 0, energy_j = 0;
};

// OpenSTA's power of one instance at global activity 1 (one transition per
// clock period, duty 0.5), in W, its pins' nets and its arcs.
struct InstancePower {
  std::string name, cell;
  double internal = 0, switching = 0, leakage = 0;
  std::vector<std::pair<std::string, std::string>> inputs, outputs;  // (pin, net)
  std::vector<PowerArc> arcs;
};
// power.tcl's log: "TXGEN_POWER <inst> <cell> <internal> <switching> <leakage>
// <total>", "TXGEN_PIN <inst> <pin> <direction> <net>", OpenSTA's "power:"
// debug lines and "TXGEN_DESIGN_POWER <internal> <switching> <leakage>".
// Throws on a malformed line or when the instances do not add up to the design.
std::vector<InstancePower> parse_instance_power(const std::string& sta_log);

struct GroupPower {
  double internal = 0, switching = 0, leakage = 0;  // W
  double total() const { return internal + switching + leakage; }
};
struct LogicPower {
  GroupPower sequential, combinational;
  GroupPower total() const;
  unsigned instances = 0;
  unsigned nets_without_activity = 0;  // pins whose net the gate-level waveform does not name
  double clock_pins_w = 0;             // the flip-flops' clock pins (in sequential.internal): paid when idle
};
// Each instance at its nets' measured toggles per cycle: switching power at
// its outputs' activity; an input pin's internal energy per transition of its
// net; an output's arc energy per transition of the output, shared among the
// arcs by their inputs' activity (a flip-flop's by its clock).
LogicPower power_from_activity(const std::vector<InstancePower>& instances, const NetToggles& toggles,
                               double period_ns);

struct MacroPower {
  std::string name;
  unsigned count = 0;
  uint64_t reads = 0, writes = 0;  // over the run, every array together
  bool accesses_declared = false;
  double read_pj = 0, write_pj = 0, leakage_uw = 0;  // one array
  double dynamic_w = 0, leakage_w = 0;               // every array, at the run's rate
};

struct OperationEnergy {
  std::string name;
  uint64_t count = 0;
  double energy_pj = 0;        // the run's whole energy (logic and macros) over count
  double active_energy_pj = 0;  // the same less what an idle module pays (clock pins, leakage)
};

struct PowerResult {
  std::string module, rtl_scope, test;
  double period_ns = 0;
  uint64_t cycles = 0;                   // the gate-level run's rising edges
  uint64_t compared_output_bits = 0;     // known output bits equal to the RTL's before each edge
  uint64_t unknown_output_bits = 0;      // still X in the gate-level run
  unsigned cells = 0;                    // instances of the netlist
  double replay_seconds = 0;             // the gate-level simulation's wall time
  LogicPower logic;
  std::vector<MacroPower> macros;
  std::vector<OperationEnergy> operations;
  double logic_w() const { return logic.total().total(); }
  double macro_w() const;
  double total_w() const { return logic_w() + macro_w(); }
  double idle_w() const;  // clock pins and leakage, logic and macros
  std::string work_dir;
};

struct PowerRequest {
  synth::SynthResult synth;       // the module's synthesis
  std::string synth_dir;          // its work directory: netlist.v and the SDC
  std::string sdc_name;           // the SDC's file name there
  std::string liberty_path;       // osu018_stdcells.lib (also the gate-level models, txgen/power/cell_models.h)
  std::string scripts_dir;        // synth/ (power.tcl)
  std::string rtl_waveform, test; // the co-simulation's FST and the test that wrote it
  std::string work_dir;           // created
  std::vector<synth::SramArray> arrays;  // beside this module
  std::vector<Operation> operations;
  uint64_t max_cycles = UINT64_MAX;  // the first cycles of the run replayed (and counted)
};

// Throws std::runtime_error naming the step and its log when a tool fails,
// when the module is not in the waveform, or when the netlist's outputs
// differ from the RTL's.
PowerResult run_power(const PowerRequest& req);

// The testbench that replays stimulus.txt (one line per cycle, one
// hexadecimal field per input of `ports` but clk_i) into `module` and dumps
// its nets to gate.fst.
std::string power_testbench(const std::string& module, const std::vector<NetlistPort>& ports, uint64_t cycles);

std::string power_markdown(const std::vector<PowerResult>& results, const std::string& title);
std::string power_json(const std::vector<PowerResult>& results);
std::string power_csv(const std::vector<PowerResult>& results);

}  // namespace txgen::power
