#include "txgen/synth/whole_structure.h"

#include <algorithm>
#include <sstream>

#include "txgen/synth/format.h"

namespace txgen::synth {
namespace {

constexpr int kEnergyDecimals = 2;
constexpr int kPowerDecimals = 2;
constexpr int kPercentDecimals = 2;

StructureSide side_of(const SynthResult& r, const std::vector<MacroUse>& macros) {
  StructureSide s;
  s.module = r.top;
  s.logic_um2 = r.area_um2;
  for (const MacroUse& m : macros) {
    if (m.array.module != r.top) continue;
    s.macro_um2 += m.array.count * m.figures.area_um2;
    s.macro_leakage_uw += m.array.count * m.figures.leakage_uw;
  }
  return s;
}

double overhead_um2(const StructureRow& row) { return row.proposed.total_um2() - row.baseline->total_um2(); }

// The overhead as a share of the baseline's whole structure.
double overhead_percent(const StructureRow& row) {
  const double base = row.baseline->total_um2();
  return base > 0.0 ? 100.0 * overhead_um2(row) / base : 0.0;
}

std::string macro_row_markdown(const MacroUse& m) {
  const SramFigures& f = m.figures;
  std::ostringstream md;
  md << "| " << markdown_cell(m.array.module) << " | " << m.array.name << " | " << m.array.count << " | "
     << geometry_text(m.array.geometry) << " | " << organization_text(f.org) << " | " << with_thousands(f.area_um2)
     << " | " << with_thousands(m.array.count * f.area_um2) << " | " << fixed(100.0 * f.area.cells / f.area_um2, 1)
     << " % | " << fixed(f.read_energy_pj, kEnergyDecimals) << " | " << fixed(f.write_energy_pj, kEnergyDecimals)
     << " | " << fixed(m.array.count * f.leakage_uw, kPowerDecimals) << " | " << fixed(f.access_ns, kTimeDecimals)
     << " | " << with_thousands(f.flop_array_area_um2) << " |\n";
  return md.str();
}

std::string structure_row_markdown(const StructureRow& row) {
  const StructureSide& p = row.proposed;
  std::ostringstream md;
  md << "| " << markdown_cell(p.module) << " | " << with_thousands(p.logic_um2) << " | "
     << with_thousands(p.macro_um2) << " | " << with_thousands(p.total_um2()) << " | ";
  if (row.baseline) {
    const StructureSide& b = *row.baseline;
    md << markdown_cell(b.module) << " | " << with_thousands(b.logic_um2) << " | " << with_thousands(b.macro_um2)
       << " | " << with_thousands(b.total_um2()) << " | " << with_thousands(overhead_um2(row)) << " | "
       << fixed(overhead_percent(row), kPercentDecimals) << " % |\n";
  } else {
    md << "— | | | | | |\n";
  }
  return md.str();
}

nlohmann::ordered_json side_json(const StructureSide& s) {
  return {{"module", s.module},
          {"logic_area_um2", rounded(s.logic_um2, kAreaDecimals)},
          {"macro_area_um2", rounded(s.macro_um2, kAreaDecimals)},
          {"total_area_um2", rounded(s.total_um2(), kAreaDecimals)},
          {"macro_leakage_uw", rounded(s.macro_leakage_uw, kPowerDecimals)}};
}

}  // namespace

std::vector<MacroUse> characterize(const std::vector<SramArray>& arrays) {
  std::vector<MacroUse> uses;
  for (const SramArray& a : arrays) uses.push_back({a, sram_macro(a.geometry)});
  return uses;
}

std::vector<StructureRow> whole_structure(const std::vector<OverheadRow>& rows, const std::vector<MacroUse>& macros,
                                          const std::vector<MacroUse>& baseline_macros) {
  std::vector<StructureRow> out;
  for (const OverheadRow& row : rows) {
    if (!row.proposed) continue;
    StructureRow s{side_of(*row.proposed, macros), std::nullopt};
    if (row.baseline) s.baseline = side_of(*row.baseline, baseline_macros);
    const bool any_macro = s.proposed.macro_um2 > 0.0 || (s.baseline && s.baseline->macro_um2 > 0.0);
    if (any_macro) out.push_back(s);
  }
  return out;
}

std::string macros_markdown(const std::vector<MacroUse>& macros) {
  if (macros.empty()) return "";
  std::ostringstream md;
  md << "### SRAM macros\n\n";
  md << "| module | array | count | words x bits | organization | area um^2, one | area um^2, all | bitcells | "
        "read pJ | write pJ | leakage uW, all | access ns | flip-flop array um^2, one |\n";
  md << "|---|---|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n";
  for (const MacroUse& m : macros) md << macro_row_markdown(m);
  md << "\nThe arrays beside each module, outside its netlist, from txgen's SRAM macro model "
        "(docs/sram_macros.md): single-port 6T macros on osu018 at 1.8 V, the organization with the least area x "
        "access time. Energy: one access of the whole word. Access: clock edge to read data. The same array in "
        "flip-flops is the upper bound.\n";
  return md.str();
}

std::string whole_structure_markdown(const std::vector<StructureRow>& rows) {
  if (rows.empty()) return "";
  std::ostringstream md;
  md << "### Whole structure: logic + SRAM macros\n\n";
  md << "| module | logic um^2 | macros um^2 | total um^2 | baseline | baseline logic um^2 | baseline macros um^2 | "
        "baseline total um^2 | overhead um^2 | overhead, % of the baseline structure |\n";
  md << "|---|---:|---:|---:|---|---:|---:|---:|---:|---:|\n";
  for (const StructureRow& row : rows) md << structure_row_markdown(row);
  md << "\nThe mechanism's cost as a share of the whole structure it augments (the baseline's logic with its "
        "SRAM macros).\n";
  return md.str();
}

nlohmann::ordered_json macros_json(const std::vector<MacroUse>& macros) {
  nlohmann::ordered_json array = nlohmann::ordered_json::array();
  for (const MacroUse& m : macros) {
    const SramFigures& f = m.figures;
    array.push_back({{"module", m.array.module},
                     {"array", m.array.name},
                     {"count", m.array.count},
                     {"words", f.geometry.words},
                     {"bits", f.geometry.bits},
                     {"lanes", f.geometry.lanes},
                     {"rows", f.org.rows},
                     {"columns", f.org.columns},
                     {"column_mux", f.org.column_mux},
                     {"subarrays", f.org.subarrays},
                     {"area_um2", rounded(f.area_um2, kAreaDecimals)},
                     {"bitcell_area_um2", rounded(f.area.cells, kAreaDecimals)},
                     {"read_energy_pj", rounded(f.read_energy_pj, kEnergyDecimals + 1)},
                     {"write_energy_pj", rounded(f.write_energy_pj, kEnergyDecimals + 1)},
                     {"leakage_uw", rounded(f.leakage_uw, kPowerDecimals + 1)},
                     {"access_ns", rounded(f.access_ns, kTimeDecimals)},
                     {"flop_array_area_um2", rounded(f.flop_array_area_um2, kAreaDecimals)}});
  }
  return array;
}

nlohmann::ordered_json whole_structure_json(const std::vector<StructureRow>& rows) {
  nlohmann::ordered_json array = nlohmann::ordered_json::array();
  for (const StructureRow& row : rows) {
    nlohmann::ordered_json j = side_json(row.proposed);
    j["baseline"] = row.baseline ? side_json(*row.baseline) : nlohmann::ordered_json(nullptr);
    j["overhead_um2"] = row.baseline ? nlohmann::ordered_json(rounded(overhead_um2(row), kAreaDecimals)) : nullptr;
    j["overhead_percent"] =
        row.baseline ? nlohmann::ordered_json(rounded(overhead_percent(row), kPercentDecimals)) : nullptr;
    array.push_back(j);
  }
  return array;
}

std::string whole_structure_csv(const std::vector<StructureRow>& rows) {
  std::ostringstream csv;
  csv << "module,logic_area_um2,macro_area_um2,total_area_um2,baseline_module,baseline_logic_area_um2,"
         "baseline_macro_area_um2,baseline_total_area_um2,overhead_um2,overhead_percent\n";
  for (const StructureRow& row : rows) {
    const StructureSide& p = row.proposed;
    csv << csv_cell(p.module) << ',' << fixed(p.logic_um2, kAreaDecimals) << ',' << fixed(p.macro_um2, kAreaDecimals)
        << ',' << fixed(p.total_um2(), kAreaDecimals) << ',';
    if (row.baseline) {
      const StructureSide& b = *row.baseline;
      csv << csv_cell(b.module) << ',' << fixed(b.logic_um2, kAreaDecimals) << ',' << fixed(b.macro_um2, kAreaDecimals)
          << ',' << fixed(b.total_um2(), kAreaDecimals) << ',' << fixed(overhead_um2(row), kAreaDecimals) << ','
          << fixed(overhead_percent(row), kPercentDecimals) << '\n';
    } else {
      csv << ",,,,,\n";
    }
  }
  return csv.str();
}

}  // namespace txgen::synth
