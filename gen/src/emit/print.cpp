#include "txgen/emit/print.h"

#include <cstdio>

namespace txgen::emit {

using hdl::Index;
using hdl::IndexNode;
using hdl::Node;
using hdl::Op;

namespace {

// Verilog-2005 operator precedence (Table 5-4), higher binds tighter.
constexpr int kPrimary = 100, kUnary = 90, kMul = 80, kAdd = 70, kShift = 60, kRel = 50, kEq = 40, kAnd = 30,
              kXor = 25, kOr = 20, kCond = 5;

int precedence(Op op) {
  switch (op) {
    case Op::Not: case Op::RedAnd: case Op::RedOr: case Op::RedXor: return kUnary;
    case Op::Mul: case Op::Mod: return kMul;
    case Op::Add: case Op::Sub: return kAdd;
    case Op::Shl: case Op::Shr: return kShift;
    case Op::Lt: case Op::Le: case Op::Gt: case Op::Ge: return kRel;
    case Op::Eq: case Op::Ne: return kEq;
    case Op::And: return kAnd;
    case Op::Xor: return kXor;
    case Op::Or: return kOr;
    case Op::Mux: return kCond;
    default: return kPrimary;
  }
}

const char* symbol(Op op) {
  switch (op) {
    case Op::Not: return "~";
    case Op::RedAnd: return "&";
    case Op::RedOr: return "|";
    case Op::RedXor: return "^";
    case Op::And: return " & ";
    case Op::Or: return " | ";
    case Op::Xor: return " ^ ";
    case Op::Add: return " + ";
    case Op::Sub: return " - ";
    case Op::Mul: return " * ";
    case Op::Mod: return " % ";
    case Op::Eq: return " == ";
    case Op::Ne: return " != ";
    case Op::Lt: return " < ";
    case Op::Le: return " <= ";
    case Op::Gt: return " > ";
    case Op::Ge: return " >= ";
    case Op::Shl: return " << ";
    case Op::Shr: return " >> ";
    default: return "?";
  }
}

bool associative(Op op) { return op == Op::And || op == Op::Or || op == Op::Xor || op == Op::Add; }

std::string constant(const Node& n) {
  if (n.width == 1) return n.words[0] ? "1'b1" : "1'b0";
  if (n.width <= 64) return std::to_string(n.width) + "'d" + std::to_string(n.words[0]);
  std::string hex;
  for (size_t w = n.words.size(); w-- > 0;) {
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(n.words[w]));
    hex += buf;
  }
  // a sized constant is zero-extended to its width: no leading zeros
  const size_t first = hex.find_first_not_of('0');
  return std::to_string(n.width) + "'h" + (first == std::string::npos ? "0" : hex.substr(first));
}

std::string print_node(const Node& n);

bool is_binary(Op op) {
  const int p = precedence(op);
  return p > kCond && p < kUnary;
}
bool is_reduction(Op op) { return op == Op::RedAnd || op == Op::RedOr || op == Op::RedXor; }

// operand text, parenthesised when it binds looser than its context needs
std::string operand(const Node& n, int min_prec) {
  const std::string s = print_node(n);
  return precedence(n.op) < min_prec ? "(" + s + ")" : s;
}

// An operand of binary operator `parent`: parenthesised as precedence needs,
// and also wherever a reader would need the precedence table (lowRISC style):
// a binary operand of a different operator, and a reduction (`(|a) & b`).
std::string binary_operand(const Node& n, Op parent, int min_prec) {
  const bool mixed = (is_binary(n.op) && n.op != parent) || is_reduction(n.op);
  if (!mixed) return operand(n, min_prec);
  return "(" + print_node(n) + ")";
}

std::string print_node(const Node& n) {
  switch (n.op) {
    case Op::Ref: return n.name;
    case Op::Const: return constant(n);
    case Op::Slice: {
      const Node& base = *n.args[0];
      if (n.width == 1) return base.name + "[" + std::to_string(n.lsb) + "]";
      return base.name + "[" + std::to_string(n.lsb + n.width - 1) + ":" + std::to_string(n.lsb) + "]";
    }
    case Op::Part: {
      const Node& base = *n.args[0];
      if (n.width == 1) return base.name + "[" + print(n.index) + "]";
      return base.name + "[" + print(n.index) + " +: " + std::to_string(n.width) + "]";
    }
    case Op::Not: case Op::RedAnd: case Op::RedOr: case Op::RedXor:
      return symbol(n.op) + operand(*n.args[0], kPrimary);
    case Op::Mux:  // a condition that is an expression in parentheses; else-chains stay bare
      return operand(*n.args[0], is_binary(n.args[0]->op) ? kUnary : kCond + 1) + " ? " +
             operand(*n.args[1], kCond + 1) + " : " + operand(*n.args[2], kCond);
    case Op::Concat: {
      std::string s;
      for (const auto& a : n.args) s += (s.empty() ? "" : ", ") + print_node(*a);
      return "{" + s + "}";
    }
    case Op::Repeat: return "{" + std::to_string(n.count) + "{" + print_node(*n.args[0]) + "}}";
    case Op::BitAt: return n.args[0]->name + "[" + print_node(*n.args[1]) + "]";
    default: break;
  }
  // binary: left-associative; the right operand of equal precedence needs
  // parentheses unless the operator is associative and the same
  const int p = precedence(n.op);
  const Node& r = *n.args[1];
  const bool right_bare = associative(n.op) && r.op == n.op;
  return binary_operand(*n.args[0], n.op, p) + symbol(n.op) + binary_operand(r, n.op, right_bare ? p : p + 1);
}

std::string print_index(const Index& i, bool nested) {
  const IndexNode& n = *i.node();
  switch (n.kind) {
    case IndexNode::Kind::Const: return std::to_string(n.value);
    case IndexNode::Kind::Var: return n.name;
    case IndexNode::Kind::Select: {
      const std::string s = print_index(n.args[0], true) + " ? " + print_index(n.args[1], true) + " : " +
                            print_index(n.args[2], true);
      return nested ? "(" + s + ")" : s;
    }
    case IndexNode::Kind::Op: break;
  }
  const std::string op = n.op == '=' ? "==" : std::string(1, n.op);
  const std::string s = print_index(n.args[0], true) + " " + op + " " + print_index(n.args[1], true);
  return nested ? "(" + s + ")" : s;
}

}  // namespace

std::string print(const hdl::Value& v) { return print_node(v.node()); }
std::string print(const Index& i) { return print_index(i, false); }

}  // namespace txgen::emit
