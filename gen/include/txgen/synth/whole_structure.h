// The whole cost of a mechanism: each synthesized module's logic plus the SRAM
// macros it works beside (txgen/synth/sram_macro.h), against its baseline's
// logic and macros; the overhead as a share of the baseline's whole structure.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "txgen/synth/overhead.h"
#include "txgen/synth/sram_macro.h"

namespace txgen::synth {

// One kind of array beside a module, with the macro model's figures.
struct MacroUse {
  SramArray array;
  SramFigures figures;
};

std::vector<MacroUse> characterize(const std::vector<SramArray>& arrays);

// A module's logic and macros; the baseline's when the module has one.
struct StructureSide {
  std::string module;
  double logic_um2 = 0.0, macro_um2 = 0.0, macro_leakage_uw = 0.0;
  double total_um2() const { return logic_um2 + macro_um2; }
};
struct StructureRow {
  StructureSide proposed;
  std::optional<StructureSide> baseline;
};

// A row per overhead row whose proposed module has macros (or whose baseline
// has), in the overhead rows' order; `baseline_macros` are the baseline run's
// (the same run's for X against X_base).
std::vector<StructureRow> whole_structure(const std::vector<OverheadRow>& rows, const std::vector<MacroUse>& macros,
                                          const std::vector<MacroUse>& baseline_macros);

// "### SRAM macros" and "### Whole structure" tables; "" without macros.
std::string macros_markdown(const std::vector<MacroUse>& macros);
std::string whole_structure_markdown(const std::vector<StructureRow>& rows);
nlohmann::ordered_json macros_json(const std::vector<MacroUse>& macros);
nlohmann::ordered_json whole_structure_json(const std::vector<StructureRow>& rows);
std::string whole_structure_csv(const std::vector<StructureRow>& rows);

}  // namespace txgen::synth
