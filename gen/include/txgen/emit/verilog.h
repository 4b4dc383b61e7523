// A small Verilog-2005 module writer. Every block emits through it, so
// ordering, indentation and the flop style are the same everywhere and the
// output is byte-for-byte deterministic. It prints; it decides nothing.
#pragma once

#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace txgen::emit {

// "[7:0]" for width 8, "" for width 1.
std::string range(unsigned width);
// Verilog sized constant "8'd0".
std::string sized(unsigned width, unsigned long long value);
// Part select name[msb:lsb] (name[lsb] when one bit).
std::string slice(const std::string& name, unsigned lsb, unsigned width);
// Bit i of a vector of the given width: the name itself when it is one bit
// wide (a scalar wire cannot be indexed).
std::string bit(const std::string& vec, unsigned i, unsigned width);

// Concatenation of the non-empty parts, most significant first.
std::string concat(const std::vector<std::string>& parts_msb_first);
// Replication {n{expr}}.
std::string repeat(unsigned n, const std::string& expr);

// A behavioural SRAM's printed operands (see hdl::SramSpec).
struct SramText {
  unsigned depth, lanes, lane_bits;
  std::string clk, en, we, addr, lane_en, wdata, init_var;
};

class Module {
 public:
  explicit Module(std::string name) : name_(std::move(name)) {}

  const std::string& name() const { return name_; }
  std::vector<std::string> port_names() const;

  void header_line(const std::string& text) { header_.push_back(text); }
  void clock_and_reset();  // clk_i, rst_ni first (lowRISC order)
  void input(const std::string& name, unsigned width, const std::string& comment = "");
  void output(const std::string& name, unsigned width, const std::string& comment = "");

  void comment(const std::string& text);  // a comment line in the body
  void wire(const std::string& name, unsigned width);
  void assign(const std::string& lhs, const std::string& rhs);
  void wire_assign(const std::string& name, unsigned width, const std::string& rhs);

  // A flop foo_q with next state foo_d (declared here as a wire), reset to zero
  // by the asynchronous active-low reset. All flops share one clocked block.
  void flop(const std::string& base, unsigned width);
  // The same with a reset value other than zero (a Verilog constant).
  void flop(const std::string& base, unsigned width, const std::string& reset_value);
  // A flop foo_q with next state foo_d and no reset (large arrays initialised
  // by the block's own logic after reset). Rendered in a clock-only block.
  void flop_noreset(const std::string& base, unsigned width);

  // Verbatim declaration and body text, for constructs the helpers above do
  // not cover (memories of behavioural models). Lines are indented as given.
  void raw_decl(const std::string& text) { cur().decls.push_back(text); }
  void raw(const std::string& text) { cur().body.push_back(text); }

  // Generate regions: for/if blocks nest; declarations made inside them
  // (local_wire, local_param) and assigns are printed in place.
  void generate_for(const std::string& var, unsigned count, const std::string& label);
  void generate_if(const std::string& cond, const std::string& label);
  void generate_else(const std::string& label);
  void generate_end();
  // A wire declared where the body currently is; `vector` declares [0:0] for
  // one bit.
  void local_wire(const std::string& name, unsigned width, bool vector);
  void local_param(const std::string& name, unsigned width, const std::string& value);

  // Memory "mem", read register "rdata_q", zero initialisation and the
  // clocked read/write block of a behavioural SRAM.
  void sram(const SramText& s);

  void instance(const std::string& module, const std::string& inst,
                const std::vector<std::pair<std::string, std::string>>& connections);

  // The formal region, printed inside `ifdef FORMAL ... `endif at the end of
  // the module: between begin_formal() and end_formal() declarations,
  // assigns, generate blocks, instances and flops go there.
  void begin_formal();
  void end_formal();
  // (* anyseq *) wire: a value the solver picks in every cycle.
  void formal_any(const std::string& name, unsigned width);
  // `name: assert (cond);` or `name: assume (cond);` in an always @* block.
  void property(bool assume, const std::string& name, const std::string& cond);
  // initial assume (cond);
  void initial_assume(const std::string& cond);

  std::string render() const;

 private:
  struct Port {
    std::string dir, name, comment;
    unsigned width;
  };
  struct Flop {
    std::string base;
    unsigned width;
    std::string reset;
  };
  // Declarations, body lines and flops of the module or of its formal region.
  struct Section {
    std::vector<std::string> decls;
    std::vector<std::string> body;
    std::vector<Flop> flops;
    std::vector<Flop> plain_flops;
  };
  std::string indentation() const;     // of a body line at the current generate depth
  void line(const std::string& text);  // a body line at the current generate depth
  // head + expr + tail, broken into lines of kLineWidth columns (emit/wrap.h)
  void wrapped_line(const std::string& head, const std::string& expr, const std::string& tail);
  static void render_section(std::ostringstream& os, const Section& s);

  std::string name_;
  std::vector<std::string> header_;
  std::vector<Port> ports_;
  Section& cur() { return in_formal_ ? formal_ : main_; }
  Section main_, formal_;
  bool in_formal_ = false;
  std::vector<std::string> initial_assumes_;
  std::vector<std::string> properties_;
  std::vector<bool> generate_open_;  // per open block: it opened the generate region
};

}  // namespace txgen::emit
