// Modules built from typed signals: ports, wires and registers are declared
// once and returned as handles; assignments and register next-states take
// Values; generate loops take a body over an Index. render() hands the
// structure to the one Verilog writer (emit::Module, through emit/render.cpp)
// after check() has seen every wire and register input driven exactly once,
// bit by bit.
//
// A module may also state formal properties (assert_always, assume_always)
// over its signals and a formal region of its own signals (formal(),
// formal_reg, formal_any, past): the writer prints them inside
// `ifdef FORMAL, so simulation, lint and synthesis see none of it.
//
//   hdl::Module m("walk_sched_x");
//   m.clock_and_reset();
//   Value valid = m.input("req_valid_i", 1);
//   Reg gany = m.reg("gany", 1);              // gany_q / gany_d, reset 0
//   gany.next(mux(f_v, any(hit_fw), gany));
//   m.output("busy_o", k).drive(busy);
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "txgen/hdl/value.h"

namespace txgen::emit {
class Printer;  // emit/render.cpp: prints a checked Module through the writer
}

namespace txgen::hdl {

class Scope;

// A signal that may be driven: a wire, an output port or a register's _d.
class Wire : public Value {
 public:
  Wire() = default;
  Wire(Value ref, Scope* owner) : Value(std::move(ref)), owner_(owner) {}
  // assign this = v in the scope that declared it
  void drive(const Value& v) const;

 private:
  Scope* owner_ = nullptr;
};

// A behavioural SRAM of a simulation top (never synthesized): `depth` words
// of lanes x lane_bits, zero-initialised. At a rising clock edge with en,
// every enabled lane (lane_en bit; all lanes when lanes == 1) is written from
// wdata when we, else read into the read register that Module::sram returns.
struct SramSpec {
  unsigned depth = 0, lanes = 1, lane_bits = 0;
  Value clk, en, we, addr, lane_en, wdata;
  std::string init_var = "k";  // the initialisation loop's integer
};

// A register: reads as foo_q; next() sets foo_d. Reset (asynchronous, active
// low) to `reset_value`, or no reset for storage initialised by the block's
// own logic.
class Reg : public Value {
 public:
  Reg() = default;
  Reg(Value q, Wire d) : Value(std::move(q)), d_(std::move(d)) {}
  const Wire& d() const { return d_; }
  void next(const Value& v) const { d_.drive(v); }
  // next = enable ? v : q
  void next_if(const Value& enable, const Value& v) const;

 private:
  Wire d_;
};

// Ports of a module to instantiate (a generated hdl::Module, or a
// hand-written module described by name and ports).
struct PortSpec {
  std::string name;
  bool is_output;
  unsigned width;
};
struct Interface {
  std::string module;
  std::vector<PortSpec> ports;
};

class Scope {
 public:
  Scope(class Module* module, std::string label, std::vector<std::pair<std::string, int>> loops, bool formal = false)
      : module_(module), label_(std::move(label)), loops_(std::move(loops)), formal_(formal) {}
  Scope(const Scope&) = delete;
  Scope& operator=(const Scope&) = delete;

  // A wire declared here (width > 0); `vector` declares [0:0] for one bit so
  // that generate-time part selects stay legal.
  Wire wire(const std::string& name, unsigned width, bool vector = false);
  // A named wire holding v.
  Value wire(const std::string& name, const Value& v);
  // A localparam of `width` bits holding an Index (a genvar as a value).
  Value param(const std::string& name, unsigned width, const Index& value);
  void assign(const Value& lhs, const Value& rhs);
  void comment(const std::string& text);
  // An instance; connections by port name, widths checked against `of`.
  void instance(const Interface& of, const std::string& inst,
                const std::vector<std::pair<std::string, Value>>& connections);

  // for (var = 0; var < count; var++) begin : label  body(var)  end
  void generate_for(const std::string& var, unsigned count, const std::string& label,
                    const std::function<void(Scope&, const Index&)>& body);
  // if (cond) begin : label  then  end else begin : else_label  otherwise  end
  void generate_if(const Index& cond, const std::string& label, const std::function<void(Scope&)>& then_body,
                   const std::string& else_label, const std::function<void(Scope&)>& else_body);

  class Module& module() const { return *module_; }

 private:
  friend class Module;
  friend class Wire;
  friend struct ScopeWalker;
  friend class emit::Printer;
  friend struct EvalAccess;  // hdl/eval.h reads the structure
  enum class Kind { Wire, Param, Assign, Comment, For, If, Instance, Sram };
  struct Item {
    Kind kind;
    std::string name, text;  // declared name / comment / label / instance name
    unsigned width = 0;
    bool vector = false;
    Value lhs, rhs;          // Assign (Wire with a value: rhs)
    Index index = 0;         // Param value, If condition
    unsigned count = 0;      // For
    std::string module;      // Instance
    std::vector<std::pair<std::string, Value>> connections;
    std::vector<bool> outputs;  // Instance: connection k is an output
    std::shared_ptr<SramSpec> sram;
    std::unique_ptr<Scope> body, else_body;
    std::string else_label;
  };
  void add_local(const std::string& name, unsigned width, bool drivable);
  Item& add(Kind kind);
  bool is_local(const std::string& name) const;

  class Module* module_;
  std::string label_;
  std::vector<std::pair<std::string, int>> loops_;  // enclosing genvars and counts
  bool formal_;                                      // in the formal region (nested scopes too)
  std::map<std::string, unsigned> locals_;           // names declared in a generate body
  std::vector<Item> items_;
};

class Module {
 public:
  explicit Module(std::string name);
  Module(const Module&) = delete;
  Module& operator=(const Module&) = delete;
  Module(Module&&) = delete;
  ~Module();

  const std::string& name() const { return name_; }
  Scope& top() { return *top_; }
  Interface interface() const;

  void header_line(const std::string& text);
  // clk_i, rst_ni first (lowRISC order); returned for connecting instances
  struct ClockReset {
    Value clk, rst_n;
  };
  ClockReset clock_and_reset();
  Value input(const std::string& name, unsigned width, const std::string& comment = "");
  Wire output(const std::string& name, unsigned width, const std::string& comment = "");

  // Delegates to the top scope.
  Wire wire(const std::string& name, unsigned width, bool vector = false) { return top_->wire(name, width, vector); }
  Value wire(const std::string& name, const Value& v) { return top_->wire(name, v); }
  void assign(const Value& lhs, const Value& rhs) { top_->assign(lhs, rhs); }
  void comment(const std::string& text) { top_->comment(text); }
  void generate_for(const std::string& var, unsigned count, const std::string& label,
                    const std::function<void(Scope&, const Index&)>& body) {
    top_->generate_for(var, count, label, body);
  }

  // name_q / name_d; reset to reset_value (ResetKind::Async) or not reset.
  Reg reg(const std::string& name, unsigned width, uint64_t reset_value = 0);
  Reg reg_noreset(const std::string& name, unsigned width);
  // The SRAM's words ("mem") and its read register ("rdata_q").
  Value sram(const SramSpec& spec);
  // A tie-off that keeps -Wall quiet about deliberately unused bits.
  void unused(const std::string& name, const Value& v);

  // An instance; connections by port name, widths checked against `of`.
  void instance(const Interface& of, const std::string& inst,
                const std::vector<std::pair<std::string, Value>>& connections) {
    top_->instance(of, inst, connections);
  }

  // ---- Formal properties (docs/hdl.md, "Properties"), seen only by formal
  // tools. The formal region: wires, assigns, generate loops and instances
  // that exist only to state properties (names should start with f_).
  Scope& formal() { return *formal_; }
  // A register of the formal region (name_q / name_d), reset like reg();
  // needs clock_and_reset().
  Reg formal_reg(const std::string& name, unsigned width, uint64_t reset_value = 0);
  // v one clock edge earlier (zero in the first cycle after reset).
  Value past(const std::string& name, const Value& v);
  // A value the solver picks freely in every cycle.
  Value formal_any(const std::string& name, unsigned width);
  // name: assert (cond) / assume (cond), checked in every cycle. A module
  // with a clock that states properties also assumes it starts in reset.
  void assert_always(const std::string& name, const Value& cond);
  void assume_always(const std::string& name, const Value& cond);

  // Checks that every wire and register input is driven exactly once, bit by
  // bit, that every select is in range and the formal region stays apart;
  // throws HdlError naming the signal.
  void check() const;
  // check(), then the Verilog text. The hand-off to the writer is in
  // emit/render.cpp: the signal layer itself never prints.
  std::string render() const;

 private:
  friend class Scope;
  friend struct ScopeWalker;
  friend class emit::Printer;
  friend struct EvalAccess;  // hdl/eval.h reads the structure
  struct PortDecl {
    std::string name, comment;
    bool is_output;
    unsigned width;
  };
  struct RegDecl {
    std::string name;
    unsigned width;
    bool reset;
    uint64_t reset_value;
  };
  struct Decl {
    unsigned width;
    bool drivable;
  };
  struct Property {
    bool assume;
    std::string name;
    Value cond;
  };
  void add_property(bool assume, const std::string& name, const Value& cond);
  bool has_clock_and_reset() const { return find("clk_i") && find("rst_ni"); }
  void declare(const std::string& name, unsigned width, bool drivable);
  const Decl* find(const std::string& name) const;

  std::string name_;
  std::string previous_context_;
  std::vector<std::string> header_;
  std::vector<PortDecl> ports_;
  std::vector<RegDecl> regs_;
  std::vector<RegDecl> formal_regs_;
  std::vector<std::string> formal_anys_;
  std::vector<Property> properties_;
  std::set<std::string> formal_names_;  // signals of the formal region
  std::map<std::string, Decl> decls_;  // module-level names
  std::unique_ptr<Scope> top_;
  std::unique_ptr<Scope> formal_;
};

}  // namespace txgen::hdl
