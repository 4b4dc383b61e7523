// The typed signal layer: expressions that carry their width.
//
// A Value is an immutable expression tree (a reference to a declared signal,
// a constant, an operator applied to Values). Every operator checks widths
// when it is built, so a mismatch is an elaboration error naming the module
// and the operands, not text that Verilator later truncates. Values never
// format text: emit/print.h prints them inside the Verilog writer.
//
// Width rules (they make the printed Verilog mean exactly what the Value
// means, because no operand is ever widened by its context):
// - binary bitwise and arithmetic operators take equal widths and give that
//   width (+ and - wrap); use zext()/add_carry() to keep a carry;
// - comparisons take equal widths and give one bit;
// - shifts keep the left operand's width;
// - mux(c, a, b) takes a one-bit c and equal-width arms.
//
// An Index is an integer known at elaboration or generate time (a genvar, a
// constant, arithmetic on them). It addresses bits and parts inside generate
// loops: v.part(i * w, w) prints v[(i * w) +: w]. Generate loops evaluate
// every Index over their range, so out-of-range parts are errors too.
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace txgen::hdl {

// A width error, an out-of-range slice, a signal driven twice or never: a bug
// in an emitter (or a configuration elaboration let through), reported with
// the module and the signals involved.
class HdlError : public std::logic_error {
 public:
  explicit HdlError(const std::string& what);
};

// ---------------------------------------------------------------------------
// Index: integer expressions over genvars.

struct IndexNode;

class Index {
 public:
  Index(long long value);  // NOLINT: a plain integer (signed or not) is an Index
  static Index var(const std::string& name);

  long long eval(const std::map<std::string, long long>& env) const;
  bool is_const() const;
  long long const_value() const;  // throws unless is_const()
  const std::shared_ptr<const IndexNode>& node() const { return node_; }

 private:
  explicit Index(std::shared_ptr<const IndexNode> n) : node_(std::move(n)) {}
  std::shared_ptr<const IndexNode> node_;
  friend Index index_op(char op, const Index& a, const Index& b);
  friend Index select(const Index& cond, const Index& a, const Index& b);
};

struct IndexNode {
  enum class Kind { Const, Var, Op, Select } kind;
  long long value = 0;
  std::string name;  // Var
  char op = 0;       // Op: + - * / % = (==) < (less than)
  std::vector<Index> args;
};

Index index_op(char op, const Index& a, const Index& b);
inline Index operator+(const Index& a, const Index& b) { return index_op('+', a, b); }
inline Index operator-(const Index& a, const Index& b) { return index_op('-', a, b); }
inline Index operator*(const Index& a, const Index& b) { return index_op('*', a, b); }
inline Index operator/(const Index& a, const Index& b) { return index_op('/', a, b); }
inline Index operator%(const Index& a, const Index& b) { return index_op('%', a, b); }
inline Index operator==(const Index& a, const Index& b) { return index_op('=', a, b); }
inline Index operator<(const Index& a, const Index& b) { return index_op('<', a, b); }
// cond ? a : b over indices
Index select(const Index& cond, const Index& a, const Index& b);

// ---------------------------------------------------------------------------
// Value

enum class Op {
  Ref,          // a declared signal (name)
  Const,        // a constant (words)
  Slice,        // args[0][lsb +: width], args[0] a Ref
  Part,         // args[0][index +: width] (index: an Index), args[0] a Ref
  Not, RedAnd, RedOr, RedXor,
  And, Or, Xor, Add, Sub, Mul, Mod, Eq, Ne, Lt, Le, Gt, Ge, Shl, Shr,
  Mux,          // args: cond, then, else
  Concat,       // args most significant first
  Repeat,       // args[0] repeated `count` times
  BitAt,        // args[0][args[1]]: a run-time bit select, args[0] a Ref
};

struct Node {
  Op op;
  unsigned width;
  std::string name;              // Ref
  std::vector<uint64_t> words;   // Const, least significant word first
  unsigned lsb = 0;              // Slice
  unsigned count = 0;            // Repeat
  Index index = 0;               // Part
  std::vector<std::shared_ptr<const Node>> args;
};

class Value {
 public:
  Value() = default;
  explicit Value(std::shared_ptr<const Node> n) : node_(std::move(n)) {}

  unsigned width() const;
  bool valid() const { return node_ != nullptr; }
  const Node& node() const;
  const std::shared_ptr<const Node>& ptr() const { return node_; }

  // bit i, or the value itself when it is one bit wide and i == 0 (a scalar
  // cannot be indexed)
  Value bit(unsigned i) const;
  Value slice(unsigned lsb, unsigned width) const;
  Value field(unsigned i, unsigned width) const { return slice(i * width, width); }
  Value top(unsigned width) const { return slice(this->width() - width, width); }
  // generate-time selects: v[index], v[index +: width], entry `index` of
  // `width`-bit fields
  Value bit(const Index& i) const;
  Value part(const Index& base, unsigned width) const;
  Value field(const Index& i, unsigned width) const { return part(i * Index(width), width); }

 private:
  std::shared_ptr<const Node> node_;
};

// Constants
Value lit(unsigned width, uint64_t value);
Value zero(unsigned width);
Value ones(unsigned width);
inline Value one_bit(bool b) { return lit(1, b ? 1 : 0); }

// Operators (see the width rules above)
Value operator~(const Value& a);
Value operator&(const Value& a, const Value& b);
Value operator|(const Value& a, const Value& b);
Value operator^(const Value& a, const Value& b);
Value operator+(const Value& a, const Value& b);
Value operator-(const Value& a, const Value& b);
Value operator*(const Value& a, const Value& b);
Value operator%(const Value& a, const Value& b);
Value operator==(const Value& a, const Value& b);
Value operator!=(const Value& a, const Value& b);
Value operator<(const Value& a, const Value& b);
Value operator<=(const Value& a, const Value& b);
Value operator>(const Value& a, const Value& b);
Value operator>=(const Value& a, const Value& b);
Value operator<<(const Value& a, const Value& amount);  // amount of any width
Value operator>>(const Value& a, const Value& amount);
Value operator<<(const Value& a, unsigned amount);
Value operator>>(const Value& a, unsigned amount);
// comparisons and arithmetic against a constant of the other operand's width
Value operator==(const Value& a, uint64_t b);
Value operator!=(const Value& a, uint64_t b);
Value operator<(const Value& a, uint64_t b);
Value operator<=(const Value& a, uint64_t b);
Value operator>(const Value& a, uint64_t b);
Value operator>=(const Value& a, uint64_t b);
Value operator+(const Value& a, uint64_t b);
Value operator-(const Value& a, uint64_t b);

Value any(const Value& a);     // |a
Value all(const Value& a);     // &a
Value parity(const Value& a);  // ^a
Value mux(const Value& cond, const Value& then_v, const Value& else_v);
Value cat(const std::vector<Value>& msb_first);
Value cat(std::initializer_list<Value> msb_first);
Value rep(unsigned n, const Value& a);
Value zext(const Value& a, unsigned width);  // zero-extend to width (>= a's)
// a + b with the carry out: width + 1 bits
Value add_carry(const Value& a, const Value& b);
// the width-bit mask of `a` (one bit) repeated: {width{a}} & v
Value gate(const Value& enable, const Value& v);
// v[index]: the bit of a declared signal addressed by a run-time value; every
// value of index must address a bit (2^index.width() <= v.width()).
Value bit_at(const Value& v, const Value& index);

// The expression as short text for error messages (every operator in
// parentheses, cut after 60 characters). The RTL is printed by emit/print.h.
std::string describe(const Value& v);

// The module whose emitter is running, named in errors (set by hdl::Module).
void set_error_context(const std::string& module);
const std::string& error_context();
[[noreturn]] void fail(const std::string& message);

}  // namespace txgen::hdl
