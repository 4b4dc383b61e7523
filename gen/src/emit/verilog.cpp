#include "txgen/emit/verilog.h"

#include "txgen/emit/wrap.h"

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

std::string Module::indentation() const {
  return std::string(2 * generate_open_.size() + (generate_open_.empty() ? 0 : 2), ' ');
}

void Module::line(const std::string& text) { cur().body.push_back(indentation() + text); }

void Module::wrapped_line(const std::string& head, const std::string& expr, const std::string& tail) {
  const std::string in = indentation();
  for (auto& l : wrap_expression(in + head, expr, tail, in + "    ", kLineWidth - 2)) cur().body.push_back(l);
}

void Module::comment(const std::string& text) {
  for (auto& l : wrap_comment(indentation(), text, kLineWidth - 2)) cur().body.push_back(l);
}

void Module::generate_for(const std::string& var, unsigned count, const std::string& label) {
  line("genvar " + var + ";");
  const bool opens = generate_open_.empty();
  if (opens) line("generate");
  generate_open_.push_back(opens);
  const std::string in(2 * generate_open_.size(), ' ');
  const std::string init = in + "for (" + var + " = 0; " + var + " < " + std::to_string(count) + ";";
  const std::string step = var + " = " + var + " + 1)";
  const std::string head = init + " " + step;
  const std::string begin = "begin : " + label;
  if (2 + head.size() + 1 + begin.size() <= kLineWidth) {
    cur().body.push_back(head + " " + begin);
  } else if (2 + head.size() <= kLineWidth) {  // the block's label on a line of its own
    cur().body.push_back(head);
    cur().body.push_back(in + begin);
  } else {  // a long genvar: the step on a continuation line too
    cur().body.push_back(init);
    cur().body.push_back(in + "    " + step);
    cur().body.push_back(in + begin);
  }
}

void Module::generate_if(const std::string& cond, const std::string& label) {
  const bool opens = generate_open_.empty();
  if (opens) line("generate");
  generate_open_.push_back(opens);
  cur().body.push_back(std::string(2 * generate_open_.size(), ' ') + "if (" + cond + ") begin : " + label);
}

void Module::generate_else(const std::string& label) {
  cur().body.push_back(std::string(2 * generate_open_.size(), ' ') + "end else begin : " + label);
}

void Module::generate_end() {
  if (generate_open_.empty()) throw std::logic_error("generate_end without a generate block");
  cur().body.push_back(std::string(2 * generate_open_.size(), ' ') + "end");
  const bool opened = generate_open_.back();
  generate_open_.pop_back();
  if (opened) line("endgenerate");
}

void Module::local_wire(const std::string& name, unsigned width, bool vector) {
  const std::string r = vector && width == 1 ? "[0:0]" : range(width);
  const std::string text = "wire " + (r.empty() ? "" : r + " ") + name + ";";
  if (generate_open_.empty()) cur().decls.push_back(text); else line(text);
}

void Module::local_param(const std::string& name, unsigned width, const std::string& value) {
  line("localparam " + range(width) + (width == 1 ? "" : " ") + name + " = " + value + ";");
}

void Module::wire(const std::string& name, unsigned width) {
  const std::string r = range(width);
  cur().decls.push_back("wire " + (r.empty() ? "" : r + " ") + name + ";");
}

void Module::assign(const std::string& lhs, const std::string& rhs) { wrapped_line("assign " + lhs + " = ", rhs, ";"); }

void Module::wire_assign(const std::string& name, unsigned width, const std::string& rhs) {
  wire(name, width);
  assign(name, rhs);
}

void Module::flop(const std::string& base, unsigned width) { flop(base, width, sized(width, 0)); }

void Module::flop(const std::string& base, unsigned width, const std::string& reset_value) {
  wire(base + "_d", width);
  const std::string r = range(width);
  cur().decls.push_back("reg  " + (r.empty() ? "" : r + " ") + base + "_q;");
  cur().flops.push_back({base, width, reset_value});
}

void Module::flop_noreset(const std::string& base, unsigned width) {
  wire(base + "_d", width);
  const std::string r = range(width);
  cur().decls.push_back("reg  " + (r.empty() ? "" : r + " ") + base + "_q;");
  cur().plain_flops.push_back({base, width, ""});
}

void Module::sram(const SramText& s) {
  const unsigned w = s.lanes * s.lane_bits;
  const std::string r = "[" + std::to_string(w - 1) + ":0]";
  cur().decls.push_back("reg  " + r + " mem [0:" + std::to_string(s.depth - 1) + "];");
  cur().decls.push_back("reg  " + r + " rdata_q;");
  cur().decls.push_back("integer " + s.init_var + ";");
  const std::string k = s.init_var;
  cur().body.push_back("initial begin\n    for (" + k + " = 0; " + k + " < " + std::to_string(s.depth) + "; " + k +
                       " = " + k + " + 1) mem[" + k + "] = " + sized(w, 0) + ";\n    rdata_q = " + sized(w, 0) +
                       ";\n  end");
  std::string b = "always @(posedge " + s.clk + ") begin\n    if (" + s.en + ") begin\n";
  if (s.lanes == 1) {
    b +=
        "      if (" + s.we + ") mem[" + s.addr + "] <= " + s.wdata + ";\n      else rdata_q <= mem[" + s.addr + "];\n";
  } else {
    for (unsigned l = 0; l < s.lanes; ++l) {
      const std::string sel = "[" + std::to_string(l * s.lane_bits + s.lane_bits - 1) + ":" +
                              std::to_string(l * s.lane_bits) + "]";
      b += "      if (" + s.lane_en + "[" + std::to_string(l) + "]) begin\n        if (" + s.we + ") mem[" + s.addr +
           "]" + sel + " <= " + s.wdata + sel + ";\n        else rdata_q" + sel + " <= mem[" + s.addr + "]" + sel +
           ";\n      end\n";
    }
  }
  cur().body.push_back(b + "    end\n  end");
}

void Module::instance(const std::string& module, const std::string& inst,
                      const std::vector<std::pair<std::string, std::string>>& connections) {
  std::ostringstream os;
  os << module << " " << inst << " (\n";
  for (size_t i = 0; i < connections.size(); ++i) {
    const std::string tail = i + 1 < connections.size() ? ")," : ")";
    for (const auto& l : wrap_expression("    ." + connections[i].first + "(", connections[i].second, tail,
                                         "        ", kLineWidth - 2))
      os << l << "\n";
  }
  os << "  );";
  cur().body.push_back(os.str());
}

void Module::begin_formal() {
  if (!generate_open_.empty()) throw std::logic_error(name_ + ": formal region inside a generate block");
  in_formal_ = true;
}

void Module::end_formal() {
  if (!generate_open_.empty()) throw std::logic_error(name_ + ": a generate block left open in the formal region");
  in_formal_ = false;
}

void Module::formal_any(const std::string& name, unsigned width) {
  const std::string r = range(width);
  formal_.decls.push_back("(* anyseq *) wire " + (r.empty() ? "" : r + " ") + name + ";");
}

void Module::property(bool assume, const std::string& name, const std::string& cond) {
  for (auto& l : wrap_expression(name + ": " + (assume ? "assume" : "assert") + " (", cond, ");", "    ",
                                 kLineWidth - 4))
    properties_.push_back(l);
}

void Module::initial_assume(const std::string& cond) { initial_assumes_.push_back("initial assume (" + cond + ");"); }

void Module::render_section(std::ostringstream& os, const Section& s) {
  for (const auto& d : s.decls) os << "  " << d << "\n";
  if (!s.decls.empty()) os << "\n";
  for (const auto& b : s.body) os << "  " << b << "\n";
  if (!s.flops.empty()) {
    os << "\n  always @(posedge clk_i or negedge rst_ni) begin\n"
       << "    if (!rst_ni) begin\n";
    for (const auto& f : s.flops) os << "      " << f.base << "_q <= " << f.reset << ";\n";
    os << "    end else begin\n";
    for (const auto& f : s.flops) os << "      " << f.base << "_q <= " << f.base << "_d;\n";
    os << "    end\n  end\n";
  }
  if (!s.plain_flops.empty()) {
    os << "\n  always @(posedge clk_i) begin\n";
    for (const auto& f : s.plain_flops) os << "    " << f.base << "_q <= " << f.base << "_d;\n";
    os << "  end\n";
  }
}

std::string Module::render() const {
  if (!generate_open_.empty()) throw std::logic_error(name_ + ": a generate block left open");
  std::ostringstream os;
  for (const auto& h : header_)
    for (const auto& l : wrap_comment("", h, kLineWidth)) os << l << "\n";
  os << "\n`default_nettype none\n\nmodule " << name_ << " (\n";
  for (size_t i = 0; i < ports_.size(); ++i) {
    const Port& p = ports_[i];
    const std::string r = range(p.width);
    const std::string decl = "  " + p.dir + " wire " + (r.empty() ? "" : r + " ") + p.name +
                             (i + 1 < ports_.size() ? "," : "");
    // a comment that does not fit beside the port goes above it
    if (!p.comment.empty() && decl.size() + 5 + p.comment.size() > kLineWidth) {
      for (const auto& l : wrap_comment("  ", p.comment, kLineWidth)) os << l << "\n";
      os << decl << "\n";
    } else {
      os << decl << (p.comment.empty() ? "" : "  // " + p.comment) << "\n";
    }
  }
  os << ");\n\n";
  render_section(os, main_);
  const bool formal = !formal_.decls.empty() || !formal_.body.empty() || !formal_.flops.empty() ||
                      !formal_.plain_flops.empty() || !properties_.empty();
  if (formal) {
    // the blank line inside the region: the text outside it stays as without properties
    os << "`ifdef FORMAL\n\n  // Formal properties (txgen prove); simulation, lint and synthesis see none of this.\n";
    render_section(os, formal_);
    if (!initial_assumes_.empty() || !properties_.empty()) os << "\n";
    for (const auto& a : initial_assumes_) os << "  " << a << "\n";
    if (!properties_.empty()) {
      os << "  always @* begin\n";
      for (const auto& p : properties_) os << "    " << p << "\n";
      os << "  end\n";
    }
    os << "`endif\n";
  }
  os << "\nendmodule\n\n`default_nettype wire\n";
  return os.str();
}

}  // namespace txgen::emit
