// Readers of qrouter's RC and DEF files, the routed netlist and the logs,
// and the SPEF writer. The formats are the ones qflow 1.3 / qrouter 1.4 write
// (docs/pnr.md); anything else is an error rather than a silent zero.
#include "txgen/pnr/parse.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <iomanip>
#include <numeric>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>

namespace txgen::pnr {
namespace {

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(line);
  }
  return lines;
}

double to_number(const std::string& token, const std::string& what) {
  char* end = nullptr;
  const double value = std::strtod(token.c_str(), &end);
  if (token.empty() || end != token.c_str() + token.size() || !std::isfinite(value))
    throw std::runtime_error("expected a number for " + what + ", got '" + token + "'");
  return value;
}

// Whitespace-separated words, with '(' ')' ',' as tokens of their own.
std::vector<std::string> rc_tokens(const std::string& line) {
  std::vector<std::string> tokens;
  std::string word;
  const auto flush = [&] {
    if (!word.empty()) tokens.push_back(word);
    word.clear();
  };
  for (const char c : line) {
    if (c == '(' || c == ')' || c == ',') {
      flush();
      tokens.emplace_back(1, c);
    } else if (std::isspace(static_cast<unsigned char>(c))) {
      flush();
    } else {
      word += c;
    }
  }
  flush();
  return tokens;
}

// Recursive reader of one "( R C items )" node of a qrouter RC line.
class RcTreeReader {
 public:
  RcTreeReader(const std::vector<std::string>& tokens, std::size_t pos, RcNet& net)
      : tokens_(tokens), pos_(pos), net_(net) {}

  // Every top-level node, each a child of the driver (node 0).
  void read_all() {
    while (pos_ < tokens_.size()) {
      if (tokens_[pos_] == ",") {
        ++pos_;
      } else if (tokens_[pos_] == "(") {
        read_node(0);
      } else {
        fail("'(' or ','");
      }
    }
  }

 private:
  const std::string& next(const std::string& what) {
    if (pos_ >= tokens_.size()) fail(what);
    return tokens_[pos_++];
  }

  [[noreturn]] void fail(const std::string& expected) const {
    const std::string got = pos_ < tokens_.size() ? "'" + tokens_[pos_] + "'" : "the end of the line";
    throw std::runtime_error("net " + net_.name + ": expected " + expected + ", got " + got);
  }

  void read_node(std::size_t parent) {
    if (next("'('") != "(") fail("'('");
    RcNode node;
    node.parent = parent;
    node.res_ohm = to_number(next("a resistance"), "the resistance of a node of net " + net_.name);
    node.cap_pf = to_number(next("a capacitance"), "the capacitance of a node of net " + net_.name);
    const std::size_t self = net_.nodes.size();
    net_.nodes.push_back(node);
    while (true) {
      if (pos_ >= tokens_.size()) fail("')'");
      const std::string& token = tokens_[pos_];
      if (token == ")") {
        ++pos_;
        return;
      }
      if (token == ",") {
        ++pos_;
      } else if (token == "(") {
        read_node(self);
      } else {
        net_.nodes[self].pins.push_back(token);
        ++pos_;
      }
    }
  }

  const std::vector<std::string>& tokens_;
  std::size_t pos_;
  RcNet& net_;
};

// SPEF names: escape what is not a name character (the bus brackets of port
// bits stay: *BUS_DELIMITER []).
std::string spef_name(const std::string& name) {
  std::string out;
  for (const char c : name) {
    const bool plain = std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '[' || c == ']';
    if (!plain) out += '\\';
    out += c;
  }
  return out;
}

constexpr const char* kPortPrefix = "PIN/";

bool is_port(const std::string& pin) { return pin.rfind(kPortPrefix, 0) == 0; }

// "PIN/port" -> "port".
std::string port_of(const std::string& pin) { return pin.substr(std::string(kPortPrefix).size()); }

// "INST/PIN" -> the net it connects to in the netlist.
std::map<std::string, std::string> nets_of_pins(const Netlist& netlist) {
  std::map<std::string, std::string> net_of_pin;
  for (const auto& inst : netlist.instances)
    for (const auto& [pin, net] : inst.pins) net_of_pin[inst.name + "/" + pin] = net;
  return net_of_pin;
}

// The netlist's name of the net an RC net's driver drives: the port itself,
// or the net on the driving pin; "" when the netlist has no such pin.
std::string driver_net(const RcNet& net, const std::map<std::string, std::string>& net_of_pin) {
  if (is_port(net.driver)) return port_of(net.driver);
  const auto it = net_of_pin.find(net.driver);
  return it == net_of_pin.end() ? std::string() : it->second;
}

// "INST/PIN" -> "INST:PIN" (the SPEF pin delimiter), "PIN/port" -> "port".
std::string spef_pin(const std::string& pin) {
  if (is_port(pin)) return spef_name(port_of(pin));
  const auto slash = pin.rfind('/');
  if (slash == std::string::npos) throw std::runtime_error("RC pin without '/': " + pin);
  return spef_name(pin.substr(0, slash)) + ":" + spef_name(pin.substr(slash + 1));
}

// Port bits of a declaration "input [7:0] a;" / "output b;".
std::vector<std::string> port_bits(const std::string& range, const std::string& name) {
  if (range.empty()) return {name};
  static const std::regex range_re(R"(\[\s*(\d+)\s*:\s*(\d+)\s*\])");
  std::smatch m;
  if (!std::regex_match(range, m, range_re)) throw std::runtime_error("unexpected port range " + range);
  const int msb = std::stoi(m[1]), lsb = std::stoi(m[2]);
  std::vector<std::string> bits;
  for (int i = std::min(msb, lsb); i <= std::max(msb, lsb); ++i) bits.push_back(name + "[" + std::to_string(i) + "]");
  return bits;
}

std::string fixed6(double value) {
  std::ostringstream os;
  os << std::setprecision(6) << value;
  return os.str();
}

// qrouter's RC walk can reach a sink more than once where a routed net
// loops (ata_n2: DFFSR_310/R four times in a 16-sink reset net). The first
// visit keeps the pin; the later nodes stay, as wire without a pin.
void drop_repeated_pins(RcNet& net) {
  std::set<std::string> seen;
  for (auto& node : net.nodes) {
    std::vector<std::string> kept;
    for (const auto& pin : node.pins) {
      if (pin == kRcUnresolvedPin || seen.insert(pin).second) {
        kept.push_back(pin);
      } else {
        ++net.repeated_pins;
      }
    }
    node.pins = kept;
  }
}

}  // namespace

double RcNet::total_cap_pf() const {
  return std::accumulate(nodes.begin(), nodes.end(), 0.0, [](double sum, const RcNode& n) { return sum + n.cap_pf; });
}

std::size_t RcNet::pin_count() const {
  std::size_t count = 0;
  for (const auto& n : nodes) count += n.pins.size();
  return count;
}

std::vector<RcNet> parse_rc(const std::string& text) {
  std::vector<RcNet> nets;
  unsigned line_number = 0;
  for (const auto& line : split_lines(text)) {
    ++line_number;
    const auto tokens = rc_tokens(line);
    if (tokens.empty()) continue;
    try {
      if (tokens.size() < 4) throw std::runtime_error("expected NAME 1 DRIVER SINKS");
      RcNet net;
      net.name = tokens[0];
      if (tokens[1] != "1") throw std::runtime_error("net " + net.name + ": expected one driver, got " + tokens[1]);
      net.driver = tokens[2];
      net.sinks = static_cast<unsigned>(to_number(tokens[3], "the sink count of net " + net.name));
      net.nodes.push_back(RcNode{});  // the driver
      RcTreeReader(tokens, 4, net).read_all();
      drop_repeated_pins(net);
      // Every announced sink must be named, or stand for an ERROR node
      // (repair_unresolved_sinks); ERRORs beyond that are loop artifacts.
      std::size_t unresolved = 0;
      for (const auto& node : net.nodes)
        unresolved += std::count(node.pins.begin(), node.pins.end(), std::string(kRcUnresolvedPin));
      const std::size_t named = net.pin_count() - unresolved;
      if (named > net.sinks)
        throw std::runtime_error("net " + net.name + ": " + std::to_string(named) + " distinct sink pins in the tree, " +
                                 std::to_string(net.sinks) + " announced");
      if (named + unresolved < net.sinks) net.omitted_sinks = static_cast<unsigned>(net.sinks - named - unresolved);
      nets.push_back(std::move(net));
    } catch (const std::runtime_error& e) {
      throw std::runtime_error("RC file line " + std::to_string(line_number) + ": " + e.what());
    }
  }
  return nets;
}

Netlist parse_flat_netlist(const std::string& text) {
  static const std::regex module_re(R"(^\s*module\s+(\w+)\b)");
  static const std::regex port_re(R"(^\s*(input|output)\s*(\[[^\]]*\])?\s*(\w+)\s*;)");
  static const std::regex instance_re(R"(^\s*(\w+)\s+(\S+)\s*\((.*)\)\s*;\s*$)");
  static const std::regex pin_re(R"(\.(\w+)\s*\(\s*([^)\s]*)\s*\))");
  static const std::set<std::string> keywords = {"module", "input", "output", "wire", "assign", "endmodule"};
  Netlist netlist;
  std::smatch m;
  for (const auto& line : split_lines(text)) {
    if (netlist.module.empty() && std::regex_search(line, m, module_re)) {
      netlist.module = m[1];
    } else if (std::regex_search(line, m, port_re)) {
      auto& list = m[1] == "input" ? netlist.inputs : netlist.outputs;
      for (const auto& bit : port_bits(m[2], m[3])) list.push_back(bit);
    } else if (std::regex_match(line, m, instance_re) && !keywords.count(m[1])) {
      NetlistInstance inst{m[1], m[2], {}};
      const std::string pins = m[3];
      for (std::sregex_iterator it(pins.begin(), pins.end(), pin_re), end; it != end; ++it)
        inst.pins.emplace_back((*it)[1], (*it)[2]);
      netlist.instances.push_back(std::move(inst));
    }
  }
  if (netlist.module.empty()) throw std::runtime_error("no module in the routed netlist");
  return netlist;
}

std::string netlist_without_cells(const std::string& text, const std::vector<std::string>& drop_cells) {
  const std::set<std::string> drop(drop_cells.begin(), drop_cells.end());
  static const std::regex cell_re(R"(^\s*(\w+)\s+\S+\s*\()");
  std::string out;
  std::smatch m;
  for (const auto& line : split_lines(text)) {
    if (std::regex_search(line, m, cell_re) && drop.count(m[1])) continue;
    out += line + "\n";
  }
  return out;
}

std::map<std::string, std::string> original_instance_names(const std::string& blif, const Netlist& routed) {
  std::map<std::string, const NetlistInstance*> by_name;
  for (const auto& inst : routed.instances) by_name[inst.name] = &inst;
  std::map<std::string, unsigned> count_of_cell;
  std::map<std::string, std::string> names;
  const NetlistInstance* pending = nullptr;  // the routed instance of the last .gate, if it matched
  for (const auto& line : split_lines(blif)) {
    std::istringstream words(line);
    std::string keyword;
    words >> keyword;
    if (keyword == ".gate" || keyword == ".subckt") {
      std::string cell;
      words >> cell;
      std::map<std::string, std::string> pins;
      for (std::string conn; words >> conn;) {
        const auto eq = conn.find('=');
        if (eq != std::string::npos) pins[conn.substr(0, eq)] = conn.substr(eq + 1);
      }
      const std::string routed_name = cell + "_" + std::to_string(++count_of_cell[cell]);
      const auto it = by_name.find(routed_name);
      pending = nullptr;
      if (it != by_name.end() && it->second->cell == cell &&
          std::map<std::string, std::string>(it->second->pins.begin(), it->second->pins.end()) == pins)
        pending = it->second;
    } else if (keyword == ".cname" && pending) {
      std::string name;
      words >> name;
      if (!name.empty()) names[pending->name] = name;
      pending = nullptr;
    }
  }
  return names;
}

std::string rename_pin(const std::string& pin, const std::map<std::string, std::string>& names) {
  const auto slash = pin.rfind('/');
  if (slash == std::string::npos) return pin;
  const auto it = names.find(pin.substr(0, slash));
  return it == names.end() ? pin : it->second + pin.substr(slash);
}

namespace {

// The node with the largest resistance from the driver (nodes follow their parents).
std::size_t farthest_node(const RcNet& net) {
  std::vector<double> path(net.nodes.size(), 0.0);
  std::size_t far = 0;
  for (std::size_t i = 1; i < net.nodes.size(); ++i) {
    path[i] = path[net.nodes[i].parent] + net.nodes[i].res_ohm;
    if (path[i] > path[far]) far = i;
  }
  return far;
}

}  // namespace

unsigned repair_unresolved_sinks(std::vector<RcNet>& nets, const Netlist& netlist) {
  const std::map<std::string, std::string> net_of_pin = nets_of_pins(netlist);
  std::map<std::string, std::vector<std::string>> pins_of;  // net -> "INST/PIN"s in netlist order, then output ports
  for (const auto& inst : netlist.instances)
    for (const auto& [pin, net] : inst.pins) pins_of[net].push_back(inst.name + "/" + pin);
  for (const auto& port : netlist.outputs) pins_of[port].push_back(kPortPrefix + port);
  unsigned repaired = 0;
  for (auto& net : nets) {
    bool unresolved = false;
    std::set<std::string> present = {net.driver};
    for (const auto& node : net.nodes)
      for (const auto& pin : node.pins) {
        unresolved |= pin == kRcUnresolvedPin;
        present.insert(pin);
      }
    if (!unresolved && net.omitted_sinks == 0) continue;
    std::vector<std::string> missing;
    for (const auto& pin : pins_of[driver_net(net, net_of_pin)])
      if (!present.count(pin)) missing.push_back(pin);
    std::size_t next = 0;
    for (auto& node : net.nodes) {
      std::vector<std::string> pins;
      for (const auto& pin : node.pins) {
        if (pin != kRcUnresolvedPin) {
          pins.push_back(pin);
        } else if (next < missing.size()) {
          pins.push_back(missing[next++]);
          ++repaired;
        }
      }
      node.pins = pins;
    }
    for (unsigned k = 0; k < net.omitted_sinks && next < missing.size(); ++k, ++repaired)
      net.nodes[farthest_node(net)].pins.push_back(missing[next++]);
  }
  return repaired;
}

std::string write_spef(const std::vector<RcNet>& nets, const Netlist& netlist, const std::string& date) {
  const std::map<std::string, std::string> net_of_pin = nets_of_pins(netlist);
  const auto net_name = [&](const RcNet& net) {
    const std::string name = driver_net(net, net_of_pin);
    if (name.empty())
      throw std::runtime_error("net " + net.name + ": driver " + net.driver + " is not in the routed netlist");
    return name;
  };

  std::ostringstream spef;
  spef << "*SPEF \"IEEE 1481-1998\"\n*DESIGN \"" << netlist.module << "\"\n*DATE \"" << date
       << "\"\n*VENDOR \"txgen\"\n*PROGRAM \"txgen pnr (from qrouter RC)\"\n*VERSION \"1\"\n"
       << "*DESIGN_FLOW \"qflow\"\n*DIVIDER /\n*DELIMITER :\n*BUS_DELIMITER [ ]\n"
       << "*T_UNIT 1 NS\n*C_UNIT 1 PF\n*R_UNIT 1 OHM\n*L_UNIT 1 HENRY\n\n";
  spef << "*PORTS\n";
  for (const auto& p : netlist.inputs) spef << spef_name(p) << " I\n";
  for (const auto& p : netlist.outputs) spef << spef_name(p) << " O\n";
  spef << "\n";
  for (const auto& net : nets) {
    const std::string name = spef_name(net_name(net));
    // A node carrying pins is named after its first pin; other nodes after
    // the net (NAME:k). Further pins on a node hang on it by a 0-ohm resistor.
    std::vector<std::string> node_names(net.nodes.size());
    node_names[0] = spef_pin(net.driver);
    for (std::size_t k = 1; k < net.nodes.size(); ++k)
      node_names[k] = net.nodes[k].pins.empty() ? name + ":" + std::to_string(k) : spef_pin(net.nodes[k].pins[0]);
    spef << "*D_NET " << name << " " << fixed6(net.total_cap_pf()) << "\n*CONN\n";
    const auto conn = [&](const std::string& pin, bool driver) {
      if (is_port(pin)) {
        spef << "*P " << spef_pin(pin) << (driver ? " I" : " O") << "\n";
      } else {
        spef << "*I " << spef_pin(pin) << (driver ? " O" : " I") << "\n";
      }
    };
    conn(net.driver, true);
    for (const auto& node : net.nodes)
      for (const auto& pin : node.pins) conn(pin, false);
    spef << "*CAP\n";
    unsigned index = 0;
    for (std::size_t k = 1; k < net.nodes.size(); ++k)
      if (net.nodes[k].cap_pf > 0.0)
        spef << ++index << " " << node_names[k] << " " << fixed6(net.nodes[k].cap_pf) << "\n";
    spef << "*RES\n";
    index = 0;
    for (std::size_t k = 1; k < net.nodes.size(); ++k) {
      const RcNode& node = net.nodes[k];
      spef << ++index << " " << node_names[node.parent] << " " << node_names[k] << " " << fixed6(node.res_ohm) << "\n";
      for (std::size_t p = 1; p < node.pins.size(); ++p)
        spef << ++index << " " << node_names[k] << " " << spef_pin(node.pins[p]) << " 0\n";
    }
    spef << "*END\n\n";
  }
  return spef.str();
}

RouteFigures parse_route_log(const std::string& text) {
  static const std::regex failed_re(R"(Failed net routes:\s*(\d+))");
  RouteFigures figures;
  std::smatch m;
  for (const auto& line : split_lines(text)) {
    if (line.rfind("Final:", 0) != 0) continue;
    figures.finished = true;
    if (line.find("No failed routes") != std::string::npos) {
      figures.failed_nets = 0;
    } else if (std::regex_search(line, m, failed_re)) {
      figures.failed_nets = static_cast<unsigned>(std::stoul(m[1]));
    } else {
      throw std::runtime_error("unrecognized qrouter result line: " + line);
    }
  }
  return figures;
}

std::map<std::string, MacroSize> parse_lef_sizes(const std::string& text) {
  static const std::regex macro_re(R"(^\s*MACRO\s+(\S+))");
  static const std::regex size_re(R"(^\s*SIZE\s+([0-9.eE+-]+)\s+BY\s+([0-9.eE+-]+)\s*;)");
  std::map<std::string, MacroSize> sizes;
  std::string macro;
  std::smatch m;
  for (const auto& line : split_lines(text)) {
    if (std::regex_search(line, m, macro_re)) {
      macro = m[1];
    } else if (!macro.empty() && std::regex_search(line, m, size_re)) {
      sizes[macro] = MacroSize{to_number(m[1], "SIZE of " + macro), to_number(m[2], "SIZE of " + macro)};
    }
  }
  return sizes;
}

double DefLayout::wirelength_um() const {
  double sum = 0.0;
  for (const auto& w : wires) sum += std::fabs(w.x2_um - w.x1_um) + std::fabs(w.y2_um - w.y1_um);
  return sum;
}

namespace {

// The DEF as tokens (qrouter writes parentheses and semicolons apart).
class DefReader {
 public:
  explicit DefReader(const std::string& text) {
    std::istringstream in(text);
    for (std::string word; in >> word;) tokens_.push_back(word);
  }

  DefLayout read() {
    while (pos_ < tokens_.size()) {
      const std::string& t = tokens_[pos_++];
      if (t == "END") {
        ++pos_;  // END <section>: "END DESIGN" is no design name
      } else if (t == "DESIGN") {
        layout_.design = next();
      } else if (t == "UNITS") {
        expect("DISTANCE");
        expect("MICRONS");
        layout_.units_per_um = number("UNITS DISTANCE MICRONS");
      } else if (t == "DIEAREA") {
        read_die();
      } else if (t == "COMPONENTS") {
        read_components();
      } else if (t == "NETS") {
        read_nets();
      }
    }
    if (!(layout_.units_per_um > 0.0)) throw std::runtime_error("DEF without UNITS DISTANCE MICRONS");
    return layout_;
  }

 private:
  const std::string& next() {
    if (pos_ >= tokens_.size()) throw std::runtime_error("DEF ends early");
    return tokens_[pos_++];
  }
  void expect(const std::string& word) {
    if (next() != word) throw std::runtime_error("DEF: expected " + word + " before " + tokens_[pos_ - 1]);
  }
  double number(const std::string& what) { return to_number(next(), "DEF " + what); }
  double um(double dbu) const { return dbu / layout_.units_per_um; }

  void read_die() {
    require_units();
    expect("(");
    layout_.die_x1 = um(number("DIEAREA"));
    layout_.die_y1 = um(number("DIEAREA"));
    expect(")");
    expect("(");
    layout_.die_x2 = um(number("DIEAREA"));
    layout_.die_y2 = um(number("DIEAREA"));
    expect(")");
  }

  void require_units() const {
    if (!(layout_.units_per_um > 0.0)) throw std::runtime_error("DEF: coordinates before UNITS");
  }

  void read_components() {
    require_units();
    while (pos_ < tokens_.size()) {
      const std::string& t = next();
      if (t == "END") {
        expect("COMPONENTS");
        return;
      }
      if (t != "-") continue;
      DefComponent c;
      c.name = next();
      c.cell = next();
      for (std::string w = next(); w != ";"; w = next()) {
        if (w == "PLACED" || w == "FIXED") {
          expect("(");
          c.x_um = um(number("component position"));
          c.y_um = um(number("component position"));
          expect(")");
        }
      }
      layout_.components.push_back(c);
    }
  }

  // One net: "- NAME ( INST PIN ) ... + ROUTED LAYER ( x y ) ( x * ) VIA NEW
  // ...;".
  void read_net() {
    next();  // the name
    ++layout_.nets;
    bool routing = false;
    std::string layer;
    bool have_point = false;
    double x = 0, y = 0;
    for (std::string w = next(); w != ";"; w = next()) {
      if (w == "ROUTED" || w == "NEW" || w == "FIXED") {
        routing = true;
        layer = next();
        have_point = false;
      } else if (w == "+") {
        routing = false;
      } else if (routing && w == "(") {
        const std::string xs = next(), ys = next();
        const double nx = xs == "*" ? x : um(to_number(xs, "DEF route x"));
        const double ny = ys == "*" ? y : um(to_number(ys, "DEF route y"));
        std::string close = next();
        if (close != ")") close = next();  // an extension value
        if (close != ")") throw std::runtime_error("DEF: malformed route point");
        if (have_point && (nx != x || ny != y)) layout_.wires.push_back(DefSegment{layer, x, y, nx, ny});
        x = nx;
        y = ny;
        have_point = true;
      }
    }
  }

  void read_nets() {
    require_units();
    while (pos_ < tokens_.size()) {
      const std::string& t = next();
      if (t == "END") {
        expect("NETS");
        return;
      }
      if (t == "-") read_net();
    }
  }

  std::vector<std::string> tokens_;
  std::size_t pos_ = 0;
  DefLayout layout_;
};

}  // namespace

DefLayout parse_def(const std::string& text) { return DefReader(text).read(); }

StaReport parse_sta_report(const std::string& text) {
  static const std::regex result_re(R"(^(?:TXGEN_RESULT )?(\w+)=(.*)$)");
  StaReport report;
  std::smatch m;
  for (const auto& line : split_lines(text)) {
    if (line == "TXGEN_STA_DONE") {
      report.done = true;
    } else if (line.rfind("TXGEN_ERROR", 0) == 0 || line.rfind("Error:", 0) == 0 ||
               line.find("unclocked register") != std::string::npos) {
      report.errors.push_back(line);
    } else if (line.rfind("Warning:", 0) == 0 && line.find(".spef") != std::string::npos) {
      report.parasitic_warnings.push_back(line);
    } else if ((line.rfind("TXGEN_RESULT ", 0) == 0 || line.rfind("worst_slack_ns=", 0) == 0) &&
               std::regex_match(line, m, result_re)) {
      report.values[m[1]] = m[2];
    }
  }
  return report;
}

}  // namespace txgen::pnr
