// Clock and reset buffer trees, written into the mapped netlist's text: the
// logic cells and their connections stay exactly as txgen synth mapped them.
#include "txgen/pnr/fanout.h"

#include <regex>
#include <sstream>
#include <stdexcept>

namespace txgen::pnr {
namespace {

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::string tree_net(const IdealNet& n, unsigned level, unsigned index) {
  return "txgen_" + n.net + "_tree" + std::to_string(level) + "_" + std::to_string(index);
}

// Buffers for `loads` nets at `level`: buffer j drives tree(level, j) and is
// driven by tree(level + 1, j / group). Returns the buffer count.
std::size_t add_level(const IdealNet& n, unsigned level, std::size_t loads, unsigned group, std::ostringstream& wires,
                      std::ostringstream& cells, unsigned& made) {
  const std::size_t buffers = (loads + group - 1) / group;
  for (std::size_t j = 0; j < buffers; ++j) {
    const std::string out = tree_net(n, level, static_cast<unsigned>(j));
    const std::string in = tree_net(n, level + 1, static_cast<unsigned>(j / group));
    wires << "  wire " << out << ";\n";
    cells << "  " << n.cell << " txgen_" << n.net << "_buf" << level << "_" << j << " (\n    ." << n.in_pin << "(" << in
          << "),\n    ." << n.out_pin << "(" << out << ")\n  );\n";
    ++made;
  }
  return buffers;
}

// Moves the k-th load line of `n` to the leaf net k / group and builds the
// levels above until the port drives at most `group` buffers.
void buffer_one(const IdealNet& n, unsigned group, std::vector<std::string>& lines, std::ostringstream& wires,
                std::ostringstream& cells, unsigned& made) {
  std::string alternatives;
  for (const auto& p : n.pins) alternatives += (alternatives.empty() ? "" : "|") + p;
  const std::regex load_re(R"(^\s*\.(?:)" + alternatives + R"()\()" + n.net + R"(\),?\s*$)");
  std::vector<std::size_t> loads;
  for (std::size_t i = 0; i < lines.size(); ++i)
    if (std::regex_search(lines[i], load_re)) loads.push_back(i);
  if (loads.size() <= group) return;
  for (std::size_t k = 0; k < loads.size(); ++k) {
    std::string& line = lines[loads[k]];
    const auto open = line.find('(');
    const auto close = line.rfind(')');
    line = line.substr(0, open + 1) + tree_net(n, 0, static_cast<unsigned>(k / group)) + line.substr(close);
  }
  std::size_t level_loads = loads.size();
  for (unsigned level = 0;; ++level) {
    const std::size_t buffers = add_level(n, level, level_loads, group, wires, cells, made);
    if (buffers <= group) {
      // The top level's buffers share one input net: the port itself.
      const std::string root = tree_net(n, level + 1, 0);
      wires << "  wire " << root << ";\n";
      cells << "  assign " << root << " = " << n.net << ";\n";
      return;
    }
    level_loads = buffers;
  }
}

}  // namespace

BufferedNetlist buffer_ideal_nets(const std::string& verilog, const std::vector<IdealNet>& nets, unsigned group) {
  if (group < 2) throw std::runtime_error("buffer_ideal_nets: a group needs at least 2 loads");
  auto lines = split_lines(verilog);
  std::ostringstream wires, cells;
  BufferedNetlist out;
  for (const auto& n : nets) buffer_one(n, group, lines, wires, cells, out.buffers);
  // The new wires right after the module header (declared before the loads
  // that now use them), the buffers before endmodule. Yosys wraps a long
  // port list: the header ends at the first ");".
  std::size_t header = 0;
  while (header < lines.size() && lines[header].rfind("module ", 0) != 0) ++header;
  while (header < lines.size() && lines[header].find(");") == std::string::npos) ++header;
  std::size_t end = lines.size();
  while (end > 0 && lines[end - 1].find("endmodule") == std::string::npos) --end;
  if (header == lines.size() || end <= header) throw std::runtime_error("buffer_ideal_nets: no module ... endmodule");
  std::ostringstream text;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (i + 1 == end) text << cells.str();
    text << lines[i] << "\n";
    if (i == header) text << wires.str();
  }
  out.verilog = text.str();
  return out;
}

}  // namespace txgen::pnr
