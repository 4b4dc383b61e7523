#include "txgen/ports/ports.h"

#include <cctype>

namespace txgen::ports {

std::string expression_text(const char* declared) {
  std::string text(declared), out;
  for (size_t i = 0; i < text.size(); ++i) {
    const bool word_start = i == 0 || !(isalnum(static_cast<unsigned char>(text[i - 1])) || text[i - 1] == '_');
    if (word_start && text.compare(i, 2, "p.") == 0) {
      ++i;
      continue;
    }
    out += text[i];
  }
  return out;
}

namespace {

std::string width_text(const Port& port) {
  if (port.count_expr == "1") return port.bits_expr;
  if (port.bits_expr == "1") return port.count_expr;
  return port.count_expr + " x " + port.bits_expr;
}

}  // namespace

std::string port_table(const std::vector<Port>& ports, bool bits_here) {
  const std::string here_head = bits_here ? " bits here |" : "", here_rule = bits_here ? "---:|" : "";
  const std::string one = bits_here ? " 1 |" : "";
  std::string t = "| port | dir | width |" + here_head + " meaning |\n|---|---|---|" + here_rule + "---|\n";
  t += "| `clk_i` | in | 1 |" + one + " clock (rising edge) |\n";
  t += "| `rst_ni` | in | 1 |" + one + " asynchronous reset, active low |\n";
  for (const Port& port : ports) {
    std::string meaning = port.meaning;
    if (!port.valid.empty()) meaning += " (defined while `" + port.valid + "`)";
    const std::string here = bits_here ? " " + std::to_string(port.width()) + " |" : "";
    t += "| `" + port.name + "` | " + (port.output ? "out" : "in") + " | " + width_text(port) + " |" + here + " " +
         meaning + " |\n";
  }
  return t;
}

}  // namespace txgen::ports
