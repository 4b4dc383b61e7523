#include "txgen/synth/sram_macro.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace txgen::synth {
namespace {

unsigned ceil_div(unsigned a, unsigned b) { return (a + b - 1) / b; }

unsigned address_bits(unsigned words) {
  unsigned bits = 0;
  while ((1ull << bits) < words) ++bits;
  return bits;
}

// fF x V x V = fJ; the model works in pJ.
double pj(double ff, double v1, double v2) { return ff * v1 * v2 * 1e-3; }

// One bitline: the access transistor's drain and the metal-2 wire over each cell.
double bitline_ff(const SramOrganization& o, const SramTech& t) {
  return o.rows * (t.access_width_um * t.drain_cap_ff_per_um + t.cell_height_um * t.m2_cap_ff_per_um);
}

// One wordline: two access gates and the metal-1 wire across each cell.
double wordline_ff(const SramOrganization& o, const SramTech& t) {
  return o.columns * (2.0 * t.access_width_um * t.gate_cap_ff_per_um + t.cell_width_um * t.m1_cap_ff_per_um);
}

unsigned total_rows(const SramOrganization& o) { return o.rows * o.subarrays; }

// A wordline driver: a taper of inverters whose last stage drives a quarter
// of its load per input; at least an INVX4.
double wordline_driver_um2(const SramOrganization& o, const SramTech& t) {
  const double last_stage = wordline_ff(o, t) / (4.0 * t.inv_cap_ff);
  return std::max(t.inv4_um2, t.inv1_um2 * last_stage * 4.0 / 3.0);
}

// Two-bit predecoders: four lines of NAND2 + INVX4 per pair of address bits.
unsigned predecode_lines(unsigned row_address_bits) { return 4 * ceil_div(row_address_bits, 2); }

SramArea area_of(const SramGeometry& g, const SramOrganization& o, const SramTech& t) {
  const unsigned row_bits = address_bits(total_rows(o));
  SramArea a;
  a.cells = double(total_rows(o)) * o.columns * t.cell_width_um * t.cell_height_um;
  a.row_periphery = total_rows(o) * (t.nand3_um2 + wordline_driver_um2(o, t)) +
                    predecode_lines(row_bits) * (t.nand2_um2 + t.inv4_um2);
  const double column_um2 = t.column_cells * t.cell_width_um * t.cell_height_um;
  a.column_periphery = double(o.subarrays) * o.columns * column_um2;
  // per data bit and subarray a sense amplifier and a write driver; one data-in register
  a.io = double(g.bits) * (o.subarrays * (t.sense_amp_um2 + t.write_driver_um2) + t.dff_um2) +
         (o.subarrays > 1 ? double(g.bits) * (o.subarrays - 1) * t.mux2_um2 : 0.0);
  a.control = (address_bits(g.words) + 2 + g.lanes) * t.dff_um2 + t.control_gates * 30.0;
  a.ring = t.ring_fraction * (a.cells + a.row_periphery + a.column_periphery + a.io + a.control);
  return a;
}

// Decoder, clock to wordline: logical effort with branching (half of a
// subarray's rows per address polarity; the subarray select decodes beside
// it), electrical effort (wordline over an INVX1 input) and the NAND2 -> NAND3
// logical effort (4/3 x 5/3); stages of effort f and parasitic 1.5, in units
// of FO4 / 5.
double decoder_ns(const SramOrganization& o, const SramTech& t) {
  const double branching = std::max(1.0, o.rows / 2.0);
  const double effort = std::max(4.0, branching * (wordline_ff(o, t) / t.inv_cap_ff) * (20.0 / 9.0));
  const unsigned stages = std::max(2u, unsigned(std::ceil(std::log(effort) / std::log(4.0))));
  const double stage_effort = std::pow(effort, 1.0 / stages);
  return stages * (stage_effort + 1.5) * t.fo4_ns / 5.0;
}

double read_current_ua(const SramTech& t) {
  const double r_kohm = t.nmos_res_kohm_um / t.access_width_um + t.nmos_res_kohm_um / t.pulldown_width_um;
  return 1e3 * t.vdd_v / (2.0 * r_kohm);
}

double access_of(const SramOrganization& o, const SramTech& t) {
  const double wordline_rc_ns =
      0.38 * (o.columns * t.cell_width_um * t.m1_res_ohm_per_um) * wordline_ff(o, t) * 1e-6;
  const double bitline_ns = bitline_ff(o, t) * t.read_swing_v / read_current_ua(t);  // fF V / uA = ns
  const double column_mux_ns = o.column_mux > 1 ? t.fo4_ns : 0.0;
  const double subarray_mux_ns = 1.5 * t.fo4_ns * address_bits(o.subarrays);
  const double sense_and_out_ns = 3.0 * t.fo4_ns;
  return t.clk_to_q_ns + decoder_ns(o, t) + wordline_rc_ns + bitline_ns + column_mux_ns + subarray_mux_ns +
         sense_and_out_ns;
}

// Energy both operations share: the address and control registers, the two
// predecode lines per pair of row bits that switch in the active subarray,
// the wordline with its driver, the timing logic.
double common_pj(const SramGeometry& g, const SramOrganization& o, const SramTech& t) {
  const unsigned row_bits = address_bits(o.rows);
  const double line_ff = std::max(1u, o.rows / 4) * t.inv_cap_ff;
  const double registers = (address_bits(g.words) + 2) * t.dff_clock_pj;
  const double predecode = ceil_div(row_bits, 2) * pj(line_ff, t.vdd_v, t.vdd_v);
  const double wordline = pj(wordline_ff(o, t) * 4.0 / 3.0, t.vdd_v, t.vdd_v);
  const double control = t.control_gates * 0.5 * pj(2.0 * t.inv_cap_ff, t.vdd_v, t.vdd_v);
  return registers + predecode + wordline + control;
}

// Every column of the active row swings by the read swing, precharge restores it.
double read_of(const SramGeometry& g, const SramOrganization& o, const SramTech& t) {
  const double bitlines = o.columns * pj(bitline_ff(o, t), t.vdd_v, t.read_swing_v);
  const double sense = g.bits * t.sense_amp_pj;
  const double outputs = g.bits * 0.5 * pj(t.out_load_ff, t.vdd_v, t.vdd_v);
  return common_pj(g, o, t) + bitlines + sense + outputs;
}

// The written columns (`bits` of the word) swing fully, the half-selected
// ones as in a read; the data-in register takes the whole word and its lane enables.
double write_of(const SramGeometry& g, const SramOrganization& o, const SramTech& t, unsigned bits) {
  const double written = bits * pj(bitline_ff(o, t), t.vdd_v, t.vdd_v);
  const double half_selected = (o.columns - bits) * pj(bitline_ff(o, t), t.vdd_v, t.read_swing_v);
  const double drivers = bits * pj(4.0 * t.inv_cap_ff, t.vdd_v, t.vdd_v);
  const double data_in = (g.bits + g.lanes) * t.dff_clock_pj;
  return common_pj(g, o, t) + written + half_selected + drivers + data_in;
}

double leakage_of(const SramArea& a, const SramOrganization& o, const SramTech& t) {
  const double cells = double(total_rows(o)) * o.columns * t.cell_leak_nw;
  const double periphery = (a.total() - a.cells - a.ring) * t.logic_leak_nw_per_um2;
  return 1e-3 * (cells + periphery);
}

void check_geometry(const SramGeometry& g) {
  if (g.words == 0 || g.bits == 0 || g.lanes == 0 || g.bits % g.lanes != 0)
    throw std::invalid_argument("SRAM geometry " + geometry_text(g) + ": words and bits must be positive and the bits a multiple of the lanes");
}

}  // namespace

const SramTech& osu018_sram() {
  static const SramTech tech;
  return tech;
}

std::vector<SramOrganization> sram_organizations(const SramGeometry& g, const SramTech& t) {
  check_geometry(g);
  std::vector<SramOrganization> orgs;
  for (unsigned mux = 1; mux == 1 || (mux <= g.words && g.bits * mux <= t.max_columns); mux *= 2) {
    SramOrganization o;
    o.column_mux = mux;
    o.columns = g.bits * mux;
    const unsigned rows = ceil_div(g.words, mux);
    o.subarrays = ceil_div(rows, t.max_rows);
    o.rows = ceil_div(rows, o.subarrays);
    orgs.push_back(o);
  }
  return orgs;
}

SramFigures sram_macro(const SramGeometry& g, const SramOrganization& org, const SramTech& t) {
  check_geometry(g);
  SramFigures f;
  f.geometry = g;
  f.org = org;
  f.area = area_of(g, org, t);
  f.area_um2 = f.area.total();
  f.read_energy_pj = read_of(g, org, t);
  f.write_energy_pj = write_of(g, org, t, g.bits);
  f.lane_write_energy_pj = write_of(g, org, t, g.bits / g.lanes);
  f.leakage_uw = leakage_of(f.area, org, t);
  f.access_ns = access_of(org, t);
  f.flop_array_area_um2 = flop_array_area_um2(g, t);
  return f;
}

SramFigures sram_macro(const SramGeometry& g, const SramTech& t) {
  SramFigures best;
  double best_cost = 0.0;
  for (const SramOrganization& o : sram_organizations(g, t)) {
    const SramFigures f = sram_macro(g, o, t);
    const double cost = f.area_um2 * f.access_ns;
    if (best_cost == 0.0 || cost < best_cost) best = f, best_cost = cost;
  }
  return best;
}

double flop_array_area_um2(const SramGeometry& g, const SramTech& t) {
  check_geometry(g);
  const double per_bit = t.dff_um2 + 2.0 * t.mux2_um2;
  return double(g.words) * g.bits * per_bit + double(g.words) * t.flop_word_um2 + address_bits(g.words) * t.dff_um2;
}

std::string geometry_text(const SramGeometry& g) {
  if (g.lanes > 1 && g.bits % g.lanes == 0)
    return std::to_string(g.words) + " x " + std::to_string(g.lanes) + " x " + std::to_string(g.bits / g.lanes);
  return std::to_string(g.words) + " x " + std::to_string(g.bits);
}

std::string organization_text(const SramOrganization& org) {
  std::string text = std::to_string(org.rows) + " x " + std::to_string(org.columns) + ", mux " +
                     std::to_string(org.column_mux);
  if (org.subarrays > 1) text += ", " + std::to_string(org.subarrays) + " subarrays";
  return text;
}

}  // namespace txgen::synth
