#include "txgen/hdl/value.h"

namespace txgen::hdl {

namespace {

thread_local std::string g_context;

// An operand named in an error: its text and width.
std::string quoted(const Value& v) { return "`" + describe(v) + "` (" + std::to_string(v.width()) + " bits)"; }

std::shared_ptr<const Node> make(Op op, unsigned width, std::vector<std::shared_ptr<const Node>> args) {
  auto n = std::make_shared<Node>();
  n->op = op;
  n->width = width;
  n->args = std::move(args);
  return n;
}

const char* op_name(Op op) {
  switch (op) {
    case Op::And: return "&";
    case Op::Or: return "|";
    case Op::Xor: return "^";
    case Op::Add: return "+";
    case Op::Sub: return "-";
    case Op::Mul: return "*";
    case Op::Mod: return "%";
    case Op::Eq: return "==";
    case Op::Ne: return "!=";
    case Op::Lt: return "<";
    case Op::Le: return "<=";
    case Op::Gt: return ">";
    case Op::Ge: return ">=";
    default: return "?";
  }
}

std::string text_of(const Node& n);

std::string operand_text(const Node& n) {
  const bool plain = n.op == Op::Ref || n.op == Op::Const || n.op == Op::Slice || n.op == Op::Part ||
                     n.op == Op::BitAt || n.op == Op::Concat || n.op == Op::Repeat;
  return plain ? text_of(n) : "(" + text_of(n) + ")";
}

// Every operator parenthesised: enough to find the expression in the emitter.
std::string text_of(const Node& n) {
  switch (n.op) {
    case Op::Ref: return n.name;
    case Op::Const: return std::to_string(n.width) + "'d" + std::to_string(n.words.empty() ? 0 : n.words[0]);
    case Op::Slice:
      return n.args[0]->name + "[" + std::to_string(n.lsb + n.width - 1) + ":" + std::to_string(n.lsb) + "]";
    case Op::Part: return n.args[0]->name + "[.. +: " + std::to_string(n.width) + "]";
    case Op::BitAt: return n.args[0]->name + "[" + text_of(*n.args[1]) + "]";
    case Op::Not: return "~" + operand_text(*n.args[0]);
    case Op::RedAnd: return "&" + operand_text(*n.args[0]);
    case Op::RedOr: return "|" + operand_text(*n.args[0]);
    case Op::RedXor: return "^" + operand_text(*n.args[0]);
    case Op::Mux: return operand_text(*n.args[0]) + " ? " + operand_text(*n.args[1]) + " : " + operand_text(*n.args[2]);
    case Op::Concat: {
      std::string s;
      for (const auto& a : n.args) s += (s.empty() ? "" : ", ") + text_of(*a);
      return "{" + s + "}";
    }
    case Op::Repeat: return "{" + std::to_string(n.count) + "{" + text_of(*n.args[0]) + "}}";
    case Op::Shl: return operand_text(*n.args[0]) + " << " + operand_text(*n.args[1]);
    case Op::Shr: return operand_text(*n.args[0]) + " >> " + operand_text(*n.args[1]);
    default: return operand_text(*n.args[0]) + " " + op_name(n.op) + " " + operand_text(*n.args[1]);
  }
}

}  // namespace

std::string describe(const Value& v) {
  if (!v.valid()) return "(undefined)";
  std::string text = text_of(v.node());
  return text.size() > 60 ? text.substr(0, 57) + "..." : text;
}

namespace {

void need(const Value& v, const char* what) {
  if (!v.valid()) fail(std::string("an undefined value used in ") + what);
}

Value binary(Op op, const Value& a, const Value& b, bool compare) {
  need(a, op_name(op));
  need(b, op_name(op));
  if (a.width() != b.width())
    fail(std::string("width mismatch in `") + op_name(op) + "`: " + quoted(a) + " vs " + quoted(b));
  return Value(make(op, compare ? 1 : a.width(), {a.ptr(), b.ptr()}));
}

Value unary(Op op, const Value& a, unsigned width) {
  need(a, "a unary operator");
  return Value(make(op, width, {a.ptr()}));
}

Value shift(Op op, const Value& a, const Value& amount) {
  need(a, "a shift");
  need(amount, "a shift");
  return Value(make(op, a.width(), {a.ptr(), amount.ptr()}));
}

unsigned bits_for(uint64_t v) {
  unsigned n = 1;
  while (n < 64 && (v >> n) != 0) ++n;
  return n;
}

}  // namespace

HdlError::HdlError(const std::string& what) : std::logic_error(what) {}

void set_error_context(const std::string& module) { g_context = module; }
const std::string& error_context() { return g_context; }
void fail(const std::string& message) {
  throw HdlError((g_context.empty() ? std::string() : g_context + ": ") + message);
}

// ---------------------------------------------------------------------------
// Index

Index::Index(long long value) {
  auto n = std::make_shared<IndexNode>();
  n->kind = IndexNode::Kind::Const;
  n->value = value;
  node_ = std::move(n);
}

Index Index::var(const std::string& name) {
  auto n = std::make_shared<IndexNode>();
  n->kind = IndexNode::Kind::Var;
  n->name = name;
  return Index(std::shared_ptr<const IndexNode>(std::move(n)));
}

long long Index::eval(const std::map<std::string, long long>& env) const {
  const IndexNode& n = *node_;
  switch (n.kind) {
    case IndexNode::Kind::Const: return n.value;
    case IndexNode::Kind::Var: {
      auto it = env.find(n.name);
      if (it == env.end()) fail("genvar `" + n.name + "` used outside its generate loop");
      return it->second;
    }
    case IndexNode::Kind::Select: return n.args[0].eval(env) ? n.args[1].eval(env) : n.args[2].eval(env);
    case IndexNode::Kind::Op: break;
  }
  const long long a = n.args[0].eval(env), b = n.args[1].eval(env);
  switch (n.op) {
    case '+': return a + b;
    case '-': return a - b;
    case '*': return a * b;
    case '/': if (b == 0) fail("index division by zero"); return a / b;
    case '%': if (b == 0) fail("index modulo by zero"); return a % b;
    case '=': return a == b;
    case '<': return a < b;
    default: fail("unknown index operator");
  }
}

bool Index::is_const() const { return node_->kind == IndexNode::Kind::Const; }

long long Index::const_value() const {
  if (!is_const()) fail("index is not a constant");
  return node_->value;
}

Index index_op(char op, const Index& a, const Index& b) {
  if (a.is_const() && b.is_const() && op != '/' && op != '%') {
    const IndexNode tmp{IndexNode::Kind::Op, 0, "", op, {a, b}};
    return Index(Index(std::make_shared<const IndexNode>(tmp)).eval({}));
  }
  auto n = std::make_shared<IndexNode>();
  n->kind = IndexNode::Kind::Op;
  n->op = op;
  n->args = {a, b};
  return Index(std::shared_ptr<const IndexNode>(std::move(n)));
}

Index select(const Index& cond, const Index& a, const Index& b) {
  if (cond.is_const()) return cond.const_value() ? a : b;
  auto n = std::make_shared<IndexNode>();
  n->kind = IndexNode::Kind::Select;
  n->args = {cond, a, b};
  return Index(std::shared_ptr<const IndexNode>(std::move(n)));
}

// ---------------------------------------------------------------------------
// Value

unsigned Value::width() const { return node().width; }

const Node& Value::node() const {
  if (!node_) fail("an undefined value");
  return *node_;
}

Value Value::bit(unsigned i) const {
  if (width() == 1 && i == 0) return *this;
  return slice(i, 1);
}

Value Value::slice(unsigned lsb, unsigned w) const {
  const Node& n = node();
  if (w == 0 || lsb + w > n.width)
    fail("slice [" + std::to_string(lsb + w - 1) + ":" + std::to_string(lsb) + "] out of range of " + quoted(*this));
  if (lsb == 0 && w == n.width) return *this;
  switch (n.op) {
    case Op::Ref: {
      auto s = make(Op::Slice, w, {node_});
      const_cast<Node&>(*s).lsb = lsb;
      return Value(s);
    }
    case Op::Slice: return Value(n.args[0]).slice(n.lsb + lsb, w);
    case Op::Const: {
      std::vector<uint64_t> words((w + 63) / 64, 0);
      for (unsigned b = 0; b < w; ++b) {
        const unsigned src = lsb + b;
        if ((n.words[src / 64] >> (src % 64)) & 1u) words[b / 64] |= uint64_t{1} << (b % 64);
      }
      auto c = make(Op::Const, w, {});
      const_cast<Node&>(*c).words = std::move(words);
      return Value(c);
    }
    case Op::Concat: {  // the parts under [lsb, lsb + w), most significant first
      std::vector<Value> parts;
      unsigned pos = n.width;
      for (const auto& a : n.args) {
        const unsigned hi = pos, lo = pos - a->width;
        pos = lo;
        const unsigned from = std::max(lo, lsb), to = std::min(hi, lsb + w);
        if (from < to) parts.push_back(Value(a).slice(from - lo, to - from));
      }
      return cat(parts);
    }
    case Op::Repeat:
      if (n.args[0]->width == 1) return rep(w, Value(n.args[0]));
      break;
    default: break;
  }
  fail("slice of an unnamed expression " + quoted(*this) + ": name it with a wire first");
}

Value Value::bit(const Index& i) const { return part(i, 1); }

Value Value::part(const Index& base, unsigned w) const {
  if (base.is_const()) return slice(static_cast<unsigned>(base.const_value()), w);
  const Node& n = node();
  if (n.op != Op::Ref) fail("generate-time select of an unnamed expression " + quoted(*this));
  if (w == 0 || w > n.width) fail("part select of " + std::to_string(w) + " bits out of " + quoted(*this));
  auto p = make(Op::Part, w, {node_});
  const_cast<Node&>(*p).index = base;
  return Value(p);
}

Value lit(unsigned width, uint64_t value) {
  if (width == 0) fail("zero-width constant");
  if (width < 64 && bits_for(value) > width)
    fail("constant " + std::to_string(value) + " does not fit in " + std::to_string(width) + " bits");
  auto c = make(Op::Const, width, {});
  std::vector<uint64_t> words((width + 63) / 64, 0);
  words[0] = value;
  const_cast<Node&>(*c).words = std::move(words);
  return Value(c);
}

Value zero(unsigned width) { return lit(width, 0); }

Value ones(unsigned width) {
  if (width == 0) fail("zero-width constant");
  auto c = make(Op::Const, width, {});
  std::vector<uint64_t> words((width + 63) / 64, ~uint64_t{0});
  if (width % 64) words.back() = (uint64_t{1} << (width % 64)) - 1;
  const_cast<Node&>(*c).words = std::move(words);
  return Value(c);
}

Value operator~(const Value& a) { return unary(Op::Not, a, a.width()); }
Value operator&(const Value& a, const Value& b) { return binary(Op::And, a, b, false); }
Value operator|(const Value& a, const Value& b) { return binary(Op::Or, a, b, false); }
Value operator^(const Value& a, const Value& b) { return binary(Op::Xor, a, b, false); }
Value operator+(const Value& a, const Value& b) { return binary(Op::Add, a, b, false); }
Value operator-(const Value& a, const Value& b) { return binary(Op::Sub, a, b, false); }
Value operator*(const Value& a, const Value& b) { return binary(Op::Mul, a, b, false); }
Value operator%(const Value& a, const Value& b) { return binary(Op::Mod, a, b, false); }
Value operator==(const Value& a, const Value& b) { return binary(Op::Eq, a, b, true); }
Value operator!=(const Value& a, const Value& b) { return binary(Op::Ne, a, b, true); }
Value operator<(const Value& a, const Value& b) { return binary(Op::Lt, a, b, true); }
Value operator<=(const Value& a, const Value& b) { return binary(Op::Le, a, b, true); }
Value operator>(const Value& a, const Value& b) { return binary(Op::Gt, a, b, true); }
Value operator>=(const Value& a, const Value& b) { return binary(Op::Ge, a, b, true); }
Value operator<<(const Value& a, const Value& amount) { return shift(Op::Shl, a, amount); }
Value operator>>(const Value& a, const Value& amount) { return shift(Op::Shr, a, amount); }
Value operator<<(const Value& a, unsigned amount) { return shift(Op::Shl, a, lit(bits_for(amount), amount)); }
Value operator>>(const Value& a, unsigned amount) { return shift(Op::Shr, a, lit(bits_for(amount), amount)); }
Value operator==(const Value& a, uint64_t b) { return a == lit(a.width(), b); }
Value operator!=(const Value& a, uint64_t b) { return a != lit(a.width(), b); }
Value operator<(const Value& a, uint64_t b) { return a < lit(a.width(), b); }
Value operator<=(const Value& a, uint64_t b) { return a <= lit(a.width(), b); }
Value operator>(const Value& a, uint64_t b) { return a > lit(a.width(), b); }
Value operator>=(const Value& a, uint64_t b) { return a >= lit(a.width(), b); }
Value operator+(const Value& a, uint64_t b) { return a + lit(a.width(), b); }
Value operator-(const Value& a, uint64_t b) { return a - lit(a.width(), b); }

Value any(const Value& a) { return unary(Op::RedOr, a, 1); }
Value all(const Value& a) { return unary(Op::RedAnd, a, 1); }
Value parity(const Value& a) { return unary(Op::RedXor, a, 1); }

Value mux(const Value& cond, const Value& then_v, const Value& else_v) {
  need(cond, "mux");
  need(then_v, "mux");
  need(else_v, "mux");
  if (cond.width() != 1) fail("mux condition " + quoted(cond) + " is not one bit");
  if (then_v.width() != else_v.width())
    fail("width mismatch in mux arms: " + quoted(then_v) + " vs " + quoted(else_v));
  return Value(make(Op::Mux, then_v.width(), {cond.ptr(), then_v.ptr(), else_v.ptr()}));
}

Value cat(const std::vector<Value>& msb_first) {
  if (msb_first.empty()) fail("concatenation of nothing");
  if (msb_first.size() == 1) return msb_first[0];
  std::vector<std::shared_ptr<const Node>> args;
  unsigned width = 0;
  for (const Value& v : msb_first) {
    need(v, "cat");
    width += v.width();
    args.push_back(v.ptr());
  }
  return Value(make(Op::Concat, width, std::move(args)));
}

Value cat(std::initializer_list<Value> msb_first) { return cat(std::vector<Value>(msb_first)); }

Value rep(unsigned n, const Value& a) {
  need(a, "rep");
  if (n == 0) fail("replication of " + quoted(a) + " zero times");
  if (n == 1) return a;
  auto r = make(Op::Repeat, n * a.width(), {a.ptr()});
  const_cast<Node&>(*r).count = n;
  return Value(r);
}

Value zext(const Value& a, unsigned width) {
  need(a, "zext");
  if (width < a.width()) fail("zext of " + quoted(a) + " to " + std::to_string(width) + " bits");
  return width == a.width() ? a : cat({zero(width - a.width()), a});
}

Value add_carry(const Value& a, const Value& b) {
  return zext(a, a.width() + 1) + zext(b, b.width() + 1);
}

Value gate(const Value& enable, const Value& v) {
  if (enable.width() != 1) fail("gate enable " + quoted(enable) + " is not one bit");
  return v.width() == 1 ? enable & v : rep(v.width(), enable) & v;
}

Value bit_at(const Value& v, const Value& index) {
  need(v, "bit_at");
  need(index, "bit_at");
  if (v.node().op != Op::Ref) fail("run-time bit select of an unnamed expression " + quoted(v));
  if (index.width() >= 32 || (1ull << index.width()) > v.width())
    fail("run-time bit select of " + quoted(v) + " by " + quoted(index) + " can address beyond its bits");
  return Value(make(Op::BitAt, 1, {v.ptr(), index.ptr()}));
}

}  // namespace txgen::hdl
