// The hand-off from the signal layer to the Verilog writer: a checked
// hdl::Module printed through emit::Module (the signal layer never prints).
#include "txgen/emit/print.h"
#include "txgen/emit/verilog.h"
#include "txgen/hdl/module.h"

namespace txgen::emit {

using hdl::Scope;

class Printer {
 public:
  explicit Printer(const hdl::Module& m) : m_(m), out_(m.name_) {}

  std::string print_module() {
    for (const auto& h : m_.header_) out_.header_line(h);
    for (const auto& p : m_.ports_) {
      if (p.is_output) out_.output(p.name, p.width, p.comment); else out_.input(p.name, p.width, p.comment);
    }
    for (const auto& r : m_.regs_) {
      if (!r.reset) out_.flop_noreset(r.name, r.width);
      else out_.flop(r.name, r.width, print(hdl::lit(r.width, r.reset_value)));
    }
    scope(*m_.top_);
    formal_region();
    return out_.render();
  }

 private:
  void formal_region() {
    if (m_.properties_.empty() && m_.formal_regs_.empty() && m_.formal_anys_.empty() && m_.formal_->items_.empty())
      return;
    out_.begin_formal();
    for (const auto& name : m_.formal_anys_) out_.formal_any(name, m_.decls_.at(name).width);
    for (const auto& r : m_.formal_regs_) out_.flop(r.name, r.width, print(hdl::lit(r.width, r.reset_value)));
    scope(*m_.formal_);
    if (m_.has_clock_and_reset() && !m_.properties_.empty()) out_.initial_assume("!rst_ni");
    for (const auto& p : m_.properties_) out_.property(p.assume, p.name, print(p.cond));
    out_.end_formal();
  }

  void scope(const Scope& s) {
    for (const auto& it : s.items_) {
      switch (it.kind) {
        case Scope::Kind::Wire: out_.local_wire(it.name, it.width, it.vector); break;
        case Scope::Kind::Param: out_.local_param(it.name, it.width, print(it.index)); break;
        case Scope::Kind::Assign: out_.assign(print(it.lhs), print(it.rhs)); break;
        case Scope::Kind::Comment: out_.comment(it.text); break;
        case Scope::Kind::For:
          out_.generate_for(it.name, it.count, it.text);
          scope(*it.body);
          out_.generate_end();
          break;
        case Scope::Kind::If:
          out_.generate_if(print(it.index), it.text);
          scope(*it.body);
          out_.generate_else(it.else_label);
          scope(*it.else_body);
          out_.generate_end();
          break;
        case Scope::Kind::Sram: sram(*it.sram); break;
        case Scope::Kind::Instance: {
          std::vector<std::pair<std::string, std::string>> conns;
          for (const auto& [port, v] : it.connections) conns.emplace_back(port, print(v));
          out_.instance(it.module, it.text, conns);
          break;
        }
      }
    }
  }

  void sram(const hdl::SramSpec& m) {
    out_.sram(SramText{m.depth, m.lanes, m.lane_bits, print(m.clk), print(m.en), print(m.we), print(m.addr),
                       m.lanes > 1 ? print(m.lane_en) : "", print(m.wdata), m.init_var});
  }

  const hdl::Module& m_;
  Module out_;
};

}  // namespace txgen::emit

namespace txgen::hdl {

std::string Module::render() const {
  check();
  const std::string saved = error_context();
  set_error_context(name_);
  std::string text = emit::Printer(*this).print_module();
  set_error_context(saved);
  return text;
}

}  // namespace txgen::hdl
