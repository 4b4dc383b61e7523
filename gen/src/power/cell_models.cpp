#include "txgen/power/cell_models.h"

#include <cctype>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace txgen::power {
namespace {

struct Group {
  std::string kind, arg;                     // "cell", "NAND2X1"
  std::map<std::string, std::string> attrs;  // simple attributes, quotes removed
  std::vector<Group> children;
};

class LibertyReader {
 public:
  explicit LibertyReader(const std::string& text) : t_(text) {}

  // The groups at the top of the current level until its closing brace.
  std::vector<Group> groups(Group* parent) {
    std::vector<Group> out;
    for (;;) {
      skip_space();
      if (i_ >= t_.size() || t_[i_] == '}') {
        if (i_ < t_.size()) ++i_;
        return out;
      }
      const std::string word = identifier();
      skip_space();
      if (i_ < t_.size() && t_[i_] == '(') {
        const std::string arg = until(')');
        skip_space();
        if (i_ < t_.size() && t_[i_] == '{') {
          ++i_;
          Group g{word, trim(arg), {}, {}};
          g.children = groups(&g);
          out.push_back(std::move(g));
        } else {
          skip_statement();  // a complex attribute: index_1 ("..."), values (...), ...
        }
      } else if (i_ < t_.size() && t_[i_] == ':') {
        ++i_;
        std::string value = trim(until(';'));
        if (value.size() >= 2 && value.front() == '"' && value.back() == '"') value = value.substr(1, value.size() - 2);
        if (parent) parent->attrs[word] = value;
      } else {
        skip_statement();
      }
    }
  }

 private:
  void skip_space() {
    for (;;) {
      while (i_ < t_.size() && (std::isspace(static_cast<unsigned char>(t_[i_])) || t_[i_] == '\\')) ++i_;
      if (t_.compare(i_, 2, "/*") == 0) {
        const auto end = t_.find("*/", i_ + 2);
        i_ = end == std::string::npos ? t_.size() : end + 2;
      } else {
        return;
      }
    }
  }
  std::string identifier() {
    const std::size_t start = i_;
    while (i_ < t_.size() && (std::isalnum(static_cast<unsigned char>(t_[i_])) || t_[i_] == '_' || t_[i_] == '.')) ++i_;
    if (start == i_) ++i_;  // a stray character
    return t_.substr(start, i_ - start);
  }
  // The text up to `close` (not inside quotes), consumed with it.
  std::string until(char close) {
    if (t_[i_] == '(') ++i_;
    std::string s;
    bool quoted = false;
    while (i_ < t_.size() && (quoted || t_[i_] != close)) {
      if (t_[i_] == '"') quoted = !quoted;
      s += t_[i_++];
    }
    ++i_;
    return s;
  }
  void skip_statement() {
    bool quoted = false;
    while (i_ < t_.size() && (quoted || (t_[i_] != ';' && t_[i_] != '}'))) {
      if (t_[i_] == '"') quoted = !quoted;
      ++i_;
    }
    if (i_ < t_.size() && t_[i_] == ';') ++i_;
  }
  static std::string trim(const std::string& s) {
    const auto a = s.find_first_not_of(" \t\r\n");
    const auto b = s.find_last_not_of(" \t\r\n");
    return a == std::string::npos ? "" : s.substr(a, b - a + 1);
  }

  const std::string& t_;
  std::size_t i_ = 0;
};

const Group* child(const Group& g, const std::string& kind) {
  for (const Group& c : g.children)
    if (c.kind == kind) return &c;
  return nullptr;
}

std::string attr(const Group& g, const std::string& name) {
  const auto it = g.attrs.find(name);
  return it == g.attrs.end() ? "" : it->second;
}

// "CLK" -> (posedge, CLK); "(!CLK)" / "!CLK" -> (negedge, CLK)
std::pair<std::string, std::string> edge_of(const std::string& cell, const std::string& what, std::string expr) {
  std::string s;
  for (char c : expr)
    if (c != '(' && c != ')') s += c;
  const bool negated = !s.empty() && s.front() == '!';
  if (negated) s.erase(0, 1);
  if (s.empty()) throw std::runtime_error("liberty cell " + cell + ": no " + what);
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_')
      throw std::runtime_error("liberty cell " + cell + ": " + what + " \"" + expr + "\" is not a pin or its negation");
  return {negated ? "negedge" : "posedge", s};
}

void register_block(std::ostringstream& v, const std::string& cell, const Group& ff) {
  const auto comma = ff.arg.find(',');
  const std::string iq = ff.arg.substr(0, comma);
  const std::string iqn = comma == std::string::npos ? "" : ff.arg.substr(comma + 1);
  v << "  reg " << iq << " = 1'b0;\n";
  if (!iqn.empty()) v << "  wire " << iqn << " = !" << iq << ";\n";
  if (ff.kind == "latch") {
    v << "  always @(*) if (" << verilog_expression(attr(ff, "enable")) << ") " << iq << " = "
      << verilog_expression(attr(ff, "data_in")) << ";\n";
    return;
  }
  const auto clock = edge_of(cell, "clocked_on", attr(ff, "clocked_on"));
  std::string sensitivity = clock.first + " " + clock.second, body;
  const auto async = [&](const std::string& name, const char* value) {
    const std::string expr = attr(ff, name);
    if (expr.empty()) return;
    const auto e = edge_of(cell, name, expr);
    sensitivity += " or " + e.first + " " + e.second;
    body += std::string(body.empty() ? "if" : " else if") + " (" + verilog_expression(expr) + ") " + iq + " <= " +
            value + ";";
  };
  async("clear", "1'b0");  // before preset: clear_preset_var1 L
  async("preset", "1'b1");
  body += std::string(body.empty() ? "" : " else ") + iq + " <= " + verilog_expression(attr(ff, "next_state")) + ";";
  v << "  always @(" << sensitivity << ") " << body << "\n";
}

void write_cell(std::ostringstream& v, const Group& cell) {
  std::vector<const Group*> pins;
  for (const Group& c : cell.children)
    if (c.kind == "pin") pins.push_back(&c);
  if (pins.empty()) return;
  v << "module " << cell.arg << " (";
  for (std::size_t i = 0; i < pins.size(); ++i) v << (i ? ", " : "") << pins[i]->arg;
  v << ");\n";
  for (const Group* p : pins) v << "  " << attr(*p, "direction") << " " << p->arg << ";\n";
  if (const Group* ff = child(cell, "ff")) register_block(v, cell.arg, *ff);
  if (const Group* latch = child(cell, "latch")) register_block(v, cell.arg, *latch);
  for (const Group* p : pins) {
    const std::string f = attr(*p, "function");
    if (attr(*p, "direction") != "output" || f.empty()) continue;
    const std::string tri = attr(*p, "three_state");
    v << "  assign " << p->arg << " = "
      << (tri.empty() ? verilog_expression(f) : "(" + verilog_expression(tri) + ") ? 1'bz : " + verilog_expression(f))
      << ";\n";
  }
  v << "endmodule\n\n";
}

}  // namespace

std::string verilog_expression(const std::string& f) {
  std::string out;
  bool operand_before = false;  // the previous token ends an operand: a following one means AND
  for (std::size_t i = 0; i < f.size();) {
    const char c = f[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    }
    const bool starts_operand = std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '(' || c == '!';
    if (starts_operand && operand_before) out += " & ";
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') {
      std::size_t j = i;
      while (j < f.size() && (std::isalnum(static_cast<unsigned char>(f[j])) || f[j] == '_')) ++j;
      const std::string word = f.substr(i, j - i);
      out += word == "0" ? "1'b0" : word == "1" ? "1'b1" : word;
      i = j;
      operand_before = true;
      continue;
    }
    switch (c) {
      case '(': out += "("; operand_before = false; break;
      case ')': out += ")"; operand_before = true; break;
      case '!': out += "!"; operand_before = false; break;
      case '+': case '|': out += " | "; operand_before = false; break;
      case '*': case '&': out += " & "; operand_before = false; break;
      case '^': out += " ^ "; operand_before = false; break;
      default: throw std::runtime_error("liberty function \"" + f + "\": unexpected '" + std::string(1, c) + "'");
    }
    ++i;
  }
  return out;
}

std::string cell_models_from_liberty(const std::string& text) {
  LibertyReader reader(text);
  const std::vector<Group> top = reader.groups(nullptr);
  const Group* library = top.empty() ? nullptr : &top.front();
  if (library == nullptr || library->kind != "library") throw std::runtime_error("liberty: no library group");
  std::ostringstream v;
  v << "// Zero-delay models of the cells of liberty library " << library->arg
    << ", written by txgen power: registers start at 0.\n`timescale 1ns/1ps\n\n";
  for (const Group& g : library->children)
    if (g.kind == "cell") write_cell(v, g);
  return v.str();
}

}  // namespace txgen::power
