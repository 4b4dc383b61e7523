// An analytical model of the single-port SRAM macros the blocks sit beside
// (LDS banks, I-cache tag and data arrays) on the osu018 node: area, access
// energy, leakage and access time from the array's organization, in the way
// CACTI and OpenRAM characterize arrays (bitcells, row decoders and wordline
// drivers, column periphery, sense amplifiers, I/O registers, control). Every
// constant and its source is in docs/sram_macros.md.
#pragma once

#include <string>
#include <vector>

namespace txgen::synth {

// One 1RW array: `words` words of `bits` bits, written in `lanes` equal lanes
// (bank or way enables), read data one cycle after the address.
struct SramGeometry {
  unsigned words = 0, bits = 0, lanes = 1;
};

// Identical arrays a synthesized module works beside, outside its netlist.
struct SramArray {
  std::string module;  // the synthesized module they belong to
  std::string name;    // "LDS bank", "tag array", ...
  unsigned count = 1;
  SramGeometry geometry;
};

// Bitcells in `subarrays` stacked subarrays of rows x columns; a row holds
// `column_mux` words. One subarray is active per access.
struct SramOrganization {
  unsigned rows = 0, columns = 0, column_mux = 1, subarrays = 1;
};

struct SramArea {
  double cells = 0.0, row_periphery = 0.0, column_periphery = 0.0, io = 0.0, control = 0.0, ring = 0.0;
  double total() const { return cells + row_periphery + column_periphery + io + control + ring; }
};

struct SramFigures {
  SramGeometry geometry;
  SramOrganization org;
  SramArea area;
  double area_um2 = 0.0;
  double read_energy_pj = 0.0, write_energy_pj = 0.0;  // one access of the whole word
  double lane_write_energy_pj = 0.0;                    // a write of one lane (the others not enabled)
  double leakage_uw = 0.0;
  double access_ns = 0.0;            // clock edge to read data at the macro's pins
  double flop_array_area_um2 = 0.0;  // the same array in flip-flops: the macro's upper bound
};

// osu018 (TSMC 0.18 um through SCMOS rules, lambda = 0.1 um), 1.8 V, typical
// corner. The sources of each figure are in docs/sram_macros.md.
struct SramTech {
  double vdd_v = 1.8;
  double cell_width_um = 3.4, cell_height_um = 4.6;  // 6T bitcell: OpenRAM's 34 x 46 lambda
  double gate_cap_ff_per_um = 3.107;                  // INVX1 input 9.32 fF over 3 um of gate
  double drain_cap_ff_per_um = 1.55;                  // half the gate capacitance
  double m1_cap_ff_per_um = 0.171, m2_cap_ff_per_um = 0.126;  // LEF: 0.3 um wires, plate + 2 edges
  double m1_res_ohm_per_um = 0.267;                           // LEF: 0.08 ohm/sq, 0.3 um wide
  double access_width_um = 0.4, pulldown_width_um = 0.6;
  double nmos_res_kohm_um = 2.13;  // INVX1 fall: 1.47 ns/pF / 0.69, 1 um NMOS
  double read_swing_v = 0.2;       // bitline swing the sense amplifier needs
  double fo4_ns = 0.10, clk_to_q_ns = 0.17;
  double inv_cap_ff = 9.32, out_load_ff = 20.0;
  double dff_um2 = 96.0, mux2_um2 = 48.0, nand2_um2 = 24.0, nand3_um2 = 36.0, inv1_um2 = 16.0, inv4_um2 = 24.0;
  double dff_clock_pj = 0.117;      // DFFPOSX1 clock pin, rise + fall, 0.06 ns slew
  double sense_amp_pj = 0.05;       // a latch resolving: DFFPOSX1's Q transition
  double sense_amp_um2 = 48.0;      // half a DFFPOSX1
  double write_driver_um2 = 48.0;   // NAND2X1 + INVX4
  double column_cells = 1.5;        // precharge, equalizer and column mux per column, in bitcells
  double control_gates = 30.0;      // timing and sense-enable logic, gates of about 30 um^2
  double ring_fraction = 0.10;      // power ring and pin routing
  double cell_leak_nw = 0.0443;     // two off devices: 2 x INVX1's leakage
  double logic_leak_nw_per_um2 = 0.0016;
  double flop_word_um2 = 400.0;     // a flip-flop array's write decode per word (fitted, see doc)
  unsigned max_rows = 512, max_columns = 512;
};

const SramTech& osu018_sram();

// Every organization the model considers for g (column mux 1, 2, 4, ... up
// to the column limit; subarrays when the rows exceed the bitline limit).
std::vector<SramOrganization> sram_organizations(const SramGeometry& g, const SramTech& t = osu018_sram());

// The figures of g in the organization org.
SramFigures sram_macro(const SramGeometry& g, const SramOrganization& org, const SramTech& t = osu018_sram());

// The organization with the least area x access time.
SramFigures sram_macro(const SramGeometry& g, const SramTech& t = osu018_sram());

// g in flip-flops as Yosys maps it onto osu018: a DFF, a hold multiplexer and
// a read multiplexer per bit, write decode per word, the address register.
double flop_array_area_um2(const SramGeometry& g, const SramTech& t = osu018_sram());

// "512 x 32" or "64 x 4 x 23" (words x lanes x lane bits).
std::string geometry_text(const SramGeometry& g);
// "128 x 128, mux 4" (rows x columns per subarray), "... , 2 subarrays".
std::string organization_text(const SramOrganization& org);

}  // namespace txgen::synth
