#include "txgen/emit/verilog.h"

#include <sstream>
#include <stdexcept>

namespace txgen::emit {

std::string range(unsigned width) {
  if (width == 0) throw std::logic_error("zero-width signal");
  return width == 1 ? "" : "[" + std::to_string(width - 1) + ":0]";
}

std::string sized(unsigned width, unsigned long long value) {
  return std::to_string(width) + "'d" + std::to_string(value);
}

std::string slice(const std::string& name, unsigned lsb, unsigned width) {
  if (width == 0) throw std::logic_error("zero-width slice of " + name);
  if (width == 1) return name + "[" + std::to_string(lsb) + "]";
  return name + "[" + std::to_string(lsb + width - 1) + ":" + std::to_string(lsb) + "]";
}

std::string bit(const std::string& vec, unsigned i, unsigned width) {
  return width == 1 ? vec : slice(vec, i, 1);
}

std::string concat(const std::vector<std::string>& parts_msb_first) {
  std::string s;
  for (const auto& p : parts_msb_first) {
    if (p.empty()) continue;
    s += (s.empty() ? "" : ", ") + p;
  }
  return "{" + s + "}";
}

std::string repeat(unsigned n, const std::string& expr) {
  return "{" + std::to_string(n) + "{" + expr + "}}";
}

std::vector<std::string> Module::port_names() const {
  std::vector<std::string> names;
  for (const auto& p : ports_) names.push_back(p.name);
  return names;
}

void Module::clock_and_reset() {
  input("clk_i", 1);
  input("rst_ni", 1, "asynchronous, active low");
}

void Module::input(const std::string& name, unsigned width, const std::string& comment) {
  range(width);
  ports_.push_back({"input ", name, comment, width});
}

void Module::output(const std::string& name, unsigned width, const std::string& comment) {
  range(width);
  ports_.push_back({"output", name, comment, width});
}

void Module::comment(const std::string& text) { body_.push_back("// " + text); }

void Module::wire(const std::string& name, unsigned width) {
  const std::string r = range(width);
  decls_.push_back("wire " + (r.empty() ? "" : r + " ") + name + ";");
}

void Module::assign(const std::string& lhs, const std::string& rhs) {
  body_.push_back("assign " + lhs + " = " + rhs + ";");
}

void Module::wire_assign(const std::string& name, unsigned width, const std::string& rhs) {
  wire(name, width);
  assign(name, rhs);
}

void Module::flop(const std::string& base, unsigned width) {
  wire(base + "_d", width);
  const std::string r = range(width);
  decls_.push_back("reg  " + (r.empty() ? "" : r + " ") + base + "_q;");
  flops_.push_back({base, width});
}

void Module::flop_noreset(const std::string& base, unsigned width) {
  wire(base + "_d", width);
  const std::string r = range(width);
  decls_.push_back("reg  " + (r.empty() ? "" : r + " ") + base + "_q;");
  plain_flops_.push_back({base, width});
}

void Module::instance(const std::string& module, const std::string& inst,
                      const std::vector<std::pair<std::string, std::string>>& connections) {
  std::ostringstream os;
  os << module << " " << inst << " (\n";
  for (size_t i = 0; i < connections.size(); ++i) {
    os << "    ." << connections[i].first << "(" << connections[i].second << ")"
       << (i + 1 < connections.size() ? ",\n" : "\n");
  }
  os << "  );";
  body_.push_back(os.str());
}

std::string Module::render() const {
  std::ostringstream os;
  for (const auto& h : header_) os << "// " << h << "\n";
  os << "\n`default_nettype none\n\nmodule " << name_ << " (\n";
  for (size_t i = 0; i < ports_.size(); ++i) {
    const Port& p = ports_[i];
    const std::string r = range(p.width);
    os << "  " << p.dir << " wire " << (r.empty() ? "" : r + " ") << p.name
       << (i + 1 < ports_.size() ? "," : "");
    if (!p.comment.empty()) os << "  // " << p.comment;
    os << "\n";
  }
  os << ");\n\n";
  for (const auto& d : decls_) os << "  " << d << "\n";
  if (!decls_.empty()) os << "\n";
  for (const auto& b : body_) os << "  " << b << "\n";
  if (!flops_.empty()) {
    os << "\n  always @(posedge clk_i or negedge rst_ni) begin\n"
       << "    if (!rst_ni) begin\n";
    for (const auto& f : flops_) os << "      " << f.base << "_q <= " << sized(f.width, 0) << ";\n";
    os << "    end else begin\n";
    for (const auto& f : flops_) os << "      " << f.base << "_q <= " << f.base << "_d;\n";
    os << "    end\n  end\n";
  }
  if (!plain_flops_.empty()) {
    os << "\n  always @(posedge clk_i) begin\n";
    for (const auto& f : plain_flops_) os << "    " << f.base << "_q <= " << f.base << "_d;\n";
    os << "  end\n";
  }
  os << "\nendmodule\n\n`default_nettype wire\n";
  return os.str();
}

}  // namespace txgen::emit
