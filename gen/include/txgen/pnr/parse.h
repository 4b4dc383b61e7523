// Readers of what the placed-and-routed flow (qflow: graywolf, qrouter)
// writes, and the SPEF that OpenSTA reads. Each takes the file's text, so the
// unit tests run on small hand-written fixtures. Malformed input throws
// std::runtime_error naming what it expected.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace txgen::pnr {

// ---------------------------------------------------------------- qrouter RC

// One node of a routed net's RC tree. Node 0 is the driver pin. Every other
// node hangs below `parent` through `res_ohm` and carries `cap_pf` of wire
// capacitance to ground; `pins` are the sink pins that sit on it.
struct RcNode {
  std::size_t parent = 0;
  double res_ohm = 0.0;
  double cap_pf = 0.0;
  std::vector<std::string> pins;  // "INST/PIN", or "PIN/port" for a top-level port
};

struct RcNet {
  std::string name;            // qrouter's (the BLIF's) net name
  std::string driver;          // "INST/PIN" or "PIN/port"
  unsigned sinks = 0;          // as qrouter counted them
  unsigned repeated_pins = 0;  // sinks the tree named again (dropped: the first node keeps the pin)
  unsigned omitted_sinks = 0;  // announced sinks the tree names nowhere, not even as ERROR
  std::vector<RcNode> nodes;
  double total_cap_pf() const;
  std::size_t pin_count() const;  // sink pins in the tree
};

// qrouter -d FILE.rc: one net per line,
//   NAME 1 DRIVER SINKS ( R C item , item ... ) , ( ... )
// where an item is a sink pin on that node or a nested "( R C ... )" node.
// R in ohm, C in pF (the liberty's unit). A pin named again further down the
// tree is kept on its first node only (repeated_pins counts the others).
std::vector<RcNet> parse_rc(const std::string& text);

// ---------------------------------------------------------------- routed
// netlist

struct NetlistInstance {
  std::string cell, name;
  std::vector<std::pair<std::string, std::string>> pins;  // (pin, net)
};

struct Netlist {
  std::string module;
  std::vector<NetlistInstance> instances;
  std::vector<std::string> inputs, outputs;  // port bits as "name" or "name[i]"
};

// The flat gate-level Verilog blif2Verilog writes (<top>.rtlnopwr.v): one
// instance per line, ".PIN(net)" connections.
Netlist parse_flat_netlist(const std::string& text);

// The netlist without instances of `drop_cells` (fill cells: no liberty
// timing, no signal pins), as Verilog text for OpenSTA.
std::string netlist_without_cells(const std::string& text, const std::vector<std::string>& drop_cells);

// qflow names its instances CELL_n, the n-th cell of that type in the BLIF
// (synthesis/<top>.blif). With Yosys' write_blif -cname each ".gate" line is
// followed by ".cname NAME", the mapped netlist's instance name. Returns
// routed name -> that name, for each instance whose cell and connections in
// `routed` are those of its BLIF line (others are left out).
std::map<std::string, std::string> original_instance_names(const std::string& blif, const Netlist& routed);

// "INST/PIN" with INST renamed through `names`; ports and unknown instances unchanged.
std::string rename_pin(const std::string& pin, const std::map<std::string, std::string>& names);

// qrouter writes "ERROR" for a sink its RC walk could not name (seen once in
// ata_n2's 7,800 nets: "( 14.6667 0.00354486 ERROR )"). Each such node gets
// the net's sink that the tree lacks (found through the netlist); an ERROR
// with no missing sink left is dropped. A sink the tree leaves out altogether
// (omitted_sinks; once in l1tlb_plru_2way: 9 of 10 named) goes on the node
// farthest from the driver in resistance, the worst wire it could have.
// Returns the number of sinks placed.
unsigned repair_unresolved_sinks(std::vector<RcNet>& nets, const Netlist& netlist);
inline constexpr const char* kRcUnresolvedPin = "ERROR";

// ---------------------------------------------------------------- SPEF

// SPEF of the routed nets for OpenSTA: each RC tree as a *D_NET with its
// node capacitances and resistors, named after the routed netlist's nets
// (found through each net's driver pin, so the name mangling between BLIF and
// Verilog does not matter). Throws when a driver is not in the netlist.
std::string write_spef(const std::vector<RcNet>& nets, const Netlist& netlist, const std::string& date);

// ---------------------------------------------------------------- qrouter log

struct RouteFigures {
  bool finished = false;  // a "Final:" line was found
  unsigned failed_nets = 0;
};

// The last "Final: No failed routes!" / "Final: Failed net routes: N" line.
RouteFigures parse_route_log(const std::string& text);

// ---------------------------------------------------------------- LEF and DEF

struct MacroSize {
  double width_um = 0.0, height_um = 0.0;
};

// MACRO name ... SIZE w BY h of a cell LEF.
std::map<std::string, MacroSize> parse_lef_sizes(const std::string& text);

struct DefComponent {
  std::string name, cell;
  double x_um = 0.0, y_um = 0.0;  // lower-left corner
};

struct DefSegment {
  std::string layer;
  double x1_um, y1_um, x2_um, y2_um;
};

struct DefLayout {
  std::string design;
  double units_per_um = 0.0;
  double die_x1 = 0, die_y1 = 0, die_x2 = 0, die_y2 = 0;  // um
  std::vector<DefComponent> components;
  std::vector<DefSegment> wires;  // signal nets' routed segments (NETS, not SPECIALNETS)
  unsigned nets = 0;              // entries of NETS
  double wirelength_um() const;
};

// The routed DEF qrouter writes: DIEAREA, COMPONENTS, NETS with ROUTED/NEW
// paths ("*" repeats the previous coordinate).
DefLayout parse_def(const std::string& text);

// ---------------------------------------------------------------- OpenSTA

struct StaReport {
  bool done = false;                            // TXGEN_STA_DONE printed
  std::vector<std::string> errors;              // TXGEN_ERROR, Error: and "unclocked register" lines
  std::vector<std::string> parasitic_warnings;  // read_spef warnings (unknown nets or pins)
  std::map<std::string, std::string> values;    // TXGEN_RESULT key=value, worst_slack_ns
};

// The log of synth/sta.tcl (run by synth/pnr/post_route_sta.tcl).
StaReport parse_sta_report(const std::string& text);

}  // namespace txgen::pnr
