// A PNG of a routed layout, drawn from its DEF with gnuplot: cells as boxes,
// routed wires coloured by metal layer.
#pragma once

#include <filesystem>
#include <map>
#include <set>
#include <string>

#include "txgen/pnr/parse.h"

namespace txgen::pnr {

// Writes work/layout_cells.dat, layout_wires.dat and layout.gp, runs gnuplot
// (log: work/gnuplot.log) and leaves the picture in `png`. Fill cells are
// drawn lighter. Throws std::runtime_error naming the log on failure.
void draw_layout(const DefLayout& layout, const std::map<std::string, MacroSize>& sizes,
                 const std::set<std::string>& fill_cells, const std::string& title, const std::filesystem::path& work,
                 const std::filesystem::path& png);

}  // namespace txgen::pnr
