// Evaluation of an hdl::Module's signals in C++, without a simulator: with
// its inputs and register outputs given, run() computes every wire, output
// and register next value (name_d) through generate loops, generate ifs and
// instances of bound child modules, over bit-vectors of any width. It exists
// so that a structure is checked against its specification in a unit test
// (tests/unit/replacement_test.cpp), bit for bit as the Value means it.
//
//   hdl::Module m("t");
//   Value a = m.input("a", 4);
//   m.output("y", 4).drive(a + 1);
//   hdl::Evaluator e(m);
//   e.set("a", 15);
//   e.run();
//   e.value("y");  // 0: + wraps
//
// Combinational logic is evaluated to its fixed point, assignments in the
// order of their dependencies, so a signal may be used before the assignment
// that drives it (and a vector's bits may depend on each other). A loop that
// does not settle is an error. SRAMs are not modelled.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "txgen/hdl/module.h"

namespace txgen::hdl {

// An unsigned bit-vector of a fixed width (bits above it are always zero).
class Bits {
 public:
  Bits() = default;
  explicit Bits(unsigned width, uint64_t value = 0);  // value must fit
  static Bits from_words(unsigned width, std::vector<uint64_t> words);  // least significant word first

  unsigned width() const { return width_; }
  bool bit(unsigned i) const;
  void set_bit(unsigned i, bool v);
  uint64_t to_u64() const;  // throws unless the value fits in 64 bits
  Bits slice(unsigned lsb, unsigned width) const;
  const std::vector<uint64_t>& words() const { return words_; }
  std::string hex() const;  // width'hDIGITS
  bool operator==(const Bits& o) const { return width_ == o.width_ && words_ == o.words_; }
  bool operator!=(const Bits& o) const { return !(*this == o); }

 private:
  friend struct BitsOps;
  unsigned width_ = 0;
  std::vector<uint64_t> words_;
};

struct EvalProgram;

class Evaluator {
 public:
  // Builds the evaluation of m (which must outlive it). With `formal`, the
  // formal region is evaluated too (its registers and formal_any values are
  // then set like the others) and holds() reads its properties.
  explicit Evaluator(const Module& m, bool formal = false);
  ~Evaluator();
  Evaluator(const Evaluator&) = delete;
  Evaluator& operator=(const Evaluator&) = delete;

  // The module that instances of child.name() stand for; bound before the
  // first set() or run(). An instance of an unbound module is an error.
  void bind(const Module& child);

  // An input, a register output (name_q) or a formal_any value; an
  // instance's register as "inst.name_q" (generate loops: "g_label[2].inst").
  void set(const std::string& name, const Bits& v);
  void set(const std::string& name, uint64_t v);
  // Every register with a reset (the formal region's too) at its reset value.
  void reset();
  // Computes every signal. Every input and register output that the logic
  // reads must have been set.
  void run();
  // Any signal after run(): module level by name, a generate loop's local as
  // "g_label[2].name", an instance's signal as "inst.name".
  Bits get(const std::string& name) const;
  uint64_t value(const std::string& name) const { return get(name).to_u64(); }
  // Any expression over module-level signals, after run().
  Bits eval(const Value& v) const;
  // Whether property `name` holds (needs `formal`), after run().
  bool holds(const std::string& name) const;
  // Every register (and the instances') takes its next value: q = d.
  void step();

 private:
  void build();
  std::unique_ptr<EvalProgram> prog_;
};

}  // namespace txgen::hdl
