// The layout picture: gnuplot draws what the DEF says, so the PNG needs no
// layout viewer (magic's plotting wants a display or its own plot setup).
#include "txgen/pnr/picture.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "txgen/util/process.h"
#include "txgen/util/text_file.h"

namespace txgen::pnr {
namespace fs = std::filesystem;

namespace {

// The largest side of the picture in pixels; the other follows the die.
constexpr int kMaxPixels = 1400;

// metal1..metal6 -> 1..6 (gnuplot's line types give each its own colour).
int layer_index(const std::string& layer) {
  const auto digit = layer.find_first_of("0123456789");
  return digit == std::string::npos ? 1 : std::max(1, std::atoi(layer.c_str() + digit));
}

void write_cells(const DefLayout& layout, const std::map<std::string, MacroSize>& sizes,
                 const std::set<std::string>& fill_cells, const fs::path& file) {
  std::ofstream out(file);
  // x y half-width half-height kind (0 logic, 1 fill)
  for (const auto& c : layout.components) {
    const auto it = sizes.find(c.cell);
    if (it == sizes.end()) continue;
    const MacroSize& s = it->second;
    out << c.x_um + s.width_um / 2 << ' ' << c.y_um + s.height_um / 2 << ' ' << s.width_um / 2 << ' ' << s.height_um / 2
        << ' ' << (fill_cells.count(c.cell) ? 1 : 0) << '\n';
  }
  if (!out) throw std::runtime_error("txgen pnr: cannot write " + file.string());
}

void write_wires(const DefLayout& layout, const fs::path& file) {
  std::ofstream out(file);
  // x y dx dy layer
  for (const auto& w : layout.wires)
    out << w.x1_um << ' ' << w.y1_um << ' ' << w.x2_um - w.x1_um << ' ' << w.y2_um - w.y1_um << ' '
        << layer_index(w.layer) << '\n';
  if (!out) throw std::runtime_error("txgen pnr: cannot write " + file.string());
}

std::string gnuplot_script(const DefLayout& layout, const std::string& title, const fs::path& png) {
  const double w = layout.die_x2 - layout.die_x1, h = layout.die_y2 - layout.die_y1;
  const double scale = kMaxPixels / std::max(w, h);
  const int px = std::max(200, static_cast<int>(std::lround(w * scale)) + 80);
  const int py = std::max(200, static_cast<int>(std::lround(h * scale)) + 80);
  std::ostringstream gp;
  gp << "set terminal pngcairo size " << px << "," << py << " font 'sans,11'\n"
     << "set output '" << png.string() << "'\n"
     << "set size ratio -1\nunset key\nset tics out nomirror\n"
     << "set xlabel 'um'\nset ylabel 'um'\n"
     << "set title \"" << title << "\" noenhanced\n"
     << "set xrange [" << layout.die_x1 << ":" << layout.die_x2 << "]\n"
     << "set yrange [" << layout.die_y1 << ":" << layout.die_y2 << "]\n"
     << "set style fill solid 1.0 border lc rgb 'white'\n"
     << "set key outside right top box\n"
     << "plot 'layout_cells.dat' using 1:2:3:4:($5 == 1 ? 0xeeeeee : 0xb8c4d8) with boxxyerror lc rgb variable "
        "notitle, \\\n"
     << "     'layout_wires.dat' using 1:2:3:4:5 with vectors nohead lw 0.6 lc variable notitle";
  // One key entry per metal layer, in its line type's colour.
  for (int layer = 1; layer <= 6; ++layer)
    gp << ", \\\n     keyentry with lines lw 2 lt " << layer << " title 'metal" << layer << "'";
  gp << "\n";
  return gp.str();
}

}  // namespace

void draw_layout(const DefLayout& layout, const std::map<std::string, MacroSize>& sizes,
                 const std::set<std::string>& fill_cells, const std::string& title, const fs::path& work,
                 const fs::path& png) {
  fs::create_directories(work);
  write_cells(layout, sizes, fill_cells, work / "layout_cells.dat");
  write_wires(layout, work / "layout_wires.dat");
  util::write_text_file(work / "layout.gp", gnuplot_script(layout, title, fs::absolute(png)));
  const fs::path log = work / "gnuplot.log";
  if (util::run_process({"gnuplot", "layout.gp"}, {}, work, log) != 0 || !fs::is_regular_file(png))
    throw std::runtime_error("txgen pnr: gnuplot failed to draw the layout (log: " + log.string() + ")");
}

}  // namespace txgen::pnr
