#include "txgen/hdl/eval.h"

#include <algorithm>
#include <deque>
#include <map>

namespace txgen::hdl {

using std::to_string;

// ---------------------------------------------------------------------------
// Bits

namespace {

unsigned words_for(unsigned width) { return (width + 63) / 64; }

}  // namespace

// Word-level operations on Bits, writing into an existing result so that a
// repeated evaluation allocates nothing.
struct BitsOps {
  static void shape(Bits& out, unsigned width) {
    out.width_ = width;
    out.words_.assign(words_for(width), 0);
  }
  static void trim(Bits& b) {
    if (b.width_ % 64) b.words_.back() &= (uint64_t{1} << (b.width_ % 64)) - 1;
  }
  static uint64_t word_at(const Bits& b, unsigned pos) {  // 64 bits from bit pos (zeros above the width)
    const unsigned w = pos / 64, o = pos % 64;
    uint64_t v = w < b.words_.size() ? b.words_[w] >> o : 0;
    if (o && w + 1 < b.words_.size()) v |= b.words_[w + 1] << (64 - o);
    return v;
  }
  static void extract(const Bits& src, unsigned lsb, unsigned width, Bits& out) {
    shape(out, width);
    for (unsigned k = 0; k < out.words_.size(); ++k) out.words_[k] = word_at(src, lsb + 64 * k);
    trim(out);
  }
  // dst[lsb +: v.width] = v; whether a bit changed
  static bool put(Bits& dst, unsigned lsb, const Bits& v) {
    bool changed = false;
    for (unsigned i = 0; i < v.width_;) {
      const unsigned pos = lsb + i, o = pos % 64, n = std::min(64 - o, v.width_ - i);
      const uint64_t mask = (n == 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1) << o;
      const uint64_t bits = (word_at(v, i) << o) & mask;
      uint64_t& w = dst.words_[pos / 64];
      if ((w & mask) != bits) {
        changed = true;
        w = (w & ~mask) | bits;
      }
      i += n;
    }
    return changed;
  }
  static void invert(const Bits& a, Bits& out) {
    shape(out, a.width_);
    for (size_t k = 0; k < out.words_.size(); ++k) out.words_[k] = ~a.words_[k];
    trim(out);
  }
  static void bitwise(Op op, const Bits& a, const Bits& b, Bits& out) {
    shape(out, a.width_);
    for (size_t k = 0; k < out.words_.size(); ++k) {
      const uint64_t x = a.words_[k], y = b.words_[k];
      out.words_[k] = op == Op::And ? x & y : op == Op::Or ? x | y : x ^ y;
    }
  }
  static void shift(bool left, const Bits& a, uint64_t amount, Bits& out) {  // a's width; zeros shifted in
    shape(out, a.width_);
    if (amount >= a.width_) return;
    const unsigned n = static_cast<unsigned>(amount);
    if (left) {
      shift_left_into(out, a, n);
      return;
    }
    for (unsigned k = 0; k < out.words_.size(); ++k) out.words_[k] = word_at(a, n + 64 * k);
    trim(out);
  }
  static bool is_zero(const Bits& b) {
    return std::all_of(b.words_.begin(), b.words_.end(), [](uint64_t w) { return w == 0; });
  }
  static int compare(const Bits& a, const Bits& b) {
    for (size_t k = a.words_.size(); k-- > 0;)
      if (a.words_[k] != b.words_[k]) return a.words_[k] < b.words_[k] ? -1 : 1;
    return 0;
  }
  static void add(const Bits& a, const Bits& b, bool subtract, Bits& out) {
    shape(out, a.width_);
    unsigned carry = subtract ? 1 : 0;
    for (size_t k = 0; k < out.words_.size(); ++k) {
      const uint64_t x = a.words_[k], y = subtract ? ~b.words_[k] : b.words_[k];
      const uint64_t s = x + y;
      const uint64_t t = s + carry;
      carry = (s < x) || (t < s) ? 1 : 0;
      out.words_[k] = t;
    }
    trim(out);
  }
  static void shift_left_into(Bits& acc, const Bits& a, unsigned amount) {  // acc = a << amount (acc's width)
    for (unsigned k = 0; k < acc.words_.size(); ++k) {
      const long long pos = static_cast<long long>(64 * k) - amount;
      uint64_t v = 0;
      if (pos >= 0) {
        v = word_at(a, static_cast<unsigned>(pos));
      } else if (pos > -64) {
        v = a.words_.empty() ? 0 : a.words_[0] << static_cast<unsigned>(-pos);
      }
      acc.words_[k] = v;
    }
    trim(acc);
  }
  static void multiply(const Bits& a, const Bits& b, Bits& out) {
    shape(out, a.width_);
    if (a.width_ <= 64) {
      out.words_[0] = a.words_[0] * b.words_[0];
      trim(out);
      return;
    }
    Bits term, sum = out;
    for (unsigned i = 0; i < b.width_; ++i) {
      if (!b.bit(i)) continue;
      shape(term, a.width_);
      shift_left_into(term, a, i);
      add(sum, term, false, out);
      sum = out;
    }
    out = sum;
  }
  static void modulo(const Bits& a, const Bits& b, Bits& out) {
    if (is_zero(b)) fail("the evaluator met a modulo by zero");
    shape(out, a.width_);
    if (a.width_ <= 64) {
      out.words_[0] = a.words_[0] % b.words_[0];
      return;
    }
    Bits rem(a.width_ + 1), wide_b(a.width_ + 1), tmp;
    put(wide_b, 0, b);
    for (unsigned i = a.width_; i-- > 0;) {  // rem = rem * 2 + a[i]; if rem >= b: rem -= b
      shape(tmp, a.width_ + 1);
      shift_left_into(tmp, rem, 1);
      tmp.set_bit(0, a.bit(i));
      if (compare(tmp, wide_b) >= 0) add(tmp, wide_b, true, rem);
      else rem = tmp;
    }
    extract(rem, 0, a.width_, out);
  }
};

Bits::Bits(unsigned width, uint64_t value) : width_(width), words_(words_for(width), 0) {
  if (width == 0) fail("a zero-width bit-vector");
  if (width < 64 && (value >> width) != 0)
    fail("value " + to_string(value) + " does not fit in " + to_string(width) + " bits");
  words_[0] = value;
}

Bits Bits::from_words(unsigned width, std::vector<uint64_t> words) {
  Bits b(width);
  for (size_t k = 0; k < b.words_.size() && k < words.size(); ++k) b.words_[k] = words[k];
  BitsOps::trim(b);
  return b;
}

bool Bits::bit(unsigned i) const {
  if (i >= width_) fail("bit " + to_string(i) + " of a " + to_string(width_) + "-bit vector");
  return (words_[i / 64] >> (i % 64)) & 1u;
}

void Bits::set_bit(unsigned i, bool v) {
  if (i >= width_) fail("bit " + to_string(i) + " of a " + to_string(width_) + "-bit vector");
  const uint64_t m = uint64_t{1} << (i % 64);
  words_[i / 64] = v ? words_[i / 64] | m : words_[i / 64] & ~m;
}

uint64_t Bits::to_u64() const {
  for (size_t k = 1; k < words_.size(); ++k)
    if (words_[k]) fail("a " + to_string(width_) + "-bit value beyond 64 bits: " + hex());
  return words_.empty() ? 0 : words_[0];
}

Bits Bits::slice(unsigned lsb, unsigned width) const {
  if (width == 0 || lsb + width > width_)
    fail("slice [" + to_string(lsb + width - 1) + ":" + to_string(lsb) + "] of a " + to_string(width_) + "-bit vector");
  Bits out;
  BitsOps::extract(*this, lsb, width, out);
  return out;
}

std::string Bits::hex() const {
  std::string digits;
  for (unsigned d = 0; d < std::max(1u, (width_ + 3) / 4); ++d) {
    const unsigned v = static_cast<unsigned>(BitsOps::word_at(*this, 4 * d) & 0xf);
    digits.insert(digits.begin(), "0123456789abcdef"[v]);
  }
  return to_string(width_) + "'h" + digits;
}

// ---------------------------------------------------------------------------
// The program: the module flattened into slots (one per signal and loop
// iteration), compiled expressions and the steps that drive slots.

namespace {

struct CNode {
  Op op;
  unsigned width = 0;
  int slot = -1;     // Ref, Slice, Part, BitAt: the signal read
  unsigned lsb = 0;  // Slice, Part (evaluated)
  unsigned count = 0;
  Bits k;            // Const
  std::vector<CNode*> args;
  Bits val;
  uint64_t stamp = 0;
};

struct Slot {
  std::string name;
  unsigned width;
  bool drivable, settable, is_set = false;
  bool formal = false;
  Bits value;
  std::vector<unsigned char> driven;
};

struct Target {
  int slot;
  unsigned lsb, width;
};

}  // namespace

struct EvalProgram {
  const Module* module = nullptr;
  bool formal = false;
  std::map<std::string, const Module*> bound;
  bool built = false;

  std::vector<Slot> slots;
  std::map<std::string, int> by_name;
  std::deque<CNode> nodes;
  struct Assign {
    Target to;
    CNode* rhs;
    std::vector<int> reads;
  };
  struct Instance {
    std::string path;
    std::unique_ptr<EvalProgram> child;
    std::vector<std::pair<int, CNode*>> inputs;   // child slot, value
    std::vector<std::pair<int, Target>> outputs;  // child slot, parent target
    std::vector<int> reads;
  };
  std::vector<Assign> assigns;
  std::vector<Instance> instances;
  std::vector<std::pair<bool, size_t>> order;  // (instance?, index)
  std::vector<std::pair<int, int>> regs;       // q, d
  std::vector<std::pair<int, uint64_t>> resets;
  std::map<std::string, CNode*> properties;
  std::vector<int> settable_read;
  bool acyclic = false;  // every step after the writers of what it reads: one pass settles
  uint64_t stamp = 1;
  bool ran = false;

  int add_slot(const std::string& name, unsigned width, bool drivable, bool settable) {
    if (by_name.count(name)) fail("the evaluator met `" + name + "` twice");
    Slot s{name, width, drivable, settable, false, false, Bits(width), std::vector<unsigned char>(drivable ? width : 0, 0)};
    slots.push_back(std::move(s));
    by_name[name] = static_cast<int>(slots.size() - 1);
    return static_cast<int>(slots.size() - 1);
  }
  int slot_of(const std::string& name) const {
    auto it = by_name.find(name);
    if (it == by_name.end()) fail("the evaluated module has no signal `" + name + "`");
    return it->second;
  }
  void drive(const Target& t, const std::string& where) {
    Slot& s = slots[t.slot];
    if (!s.drivable) fail("`" + s.name + "` cannot be driven (" + where + ")");
    for (unsigned b = 0; b < t.width; ++b)
      if (s.driven[t.lsb + b]++) fail("bit " + to_string(t.lsb + b) + " of `" + s.name + "` driven twice");
  }

  const Bits& ev(CNode* n);
  void run();
  void step();
  void reset();
  std::pair<const EvalProgram*, int> find(const std::string& name) const;
  EvalProgram* child_of(const std::string& name, std::string& rest);
  void schedule();
};

// ---------------------------------------------------------------------------
// Flattening (the friend of Module and Scope)

struct EvalAccess {
  struct Context {
    std::map<std::string, int> locals;  // this scope's own names
    const Context* outer = nullptr;
    const std::map<std::string, long long>* env = nullptr;
    std::string prefix;  // "g_label[2]."
    std::map<const Node*, CNode*> memo;
  };

  EvalProgram& p;

  int resolve(const Context& c, const std::string& name) const {
    for (const Context* k = &c; k; k = k->outer) {
      auto it = k->locals.find(name);
      if (it != k->locals.end()) return it->second;
    }
    return p.slot_of(name);
  }

  CNode* compile(const Node& n, Context& c) {
    auto m = c.memo.find(&n);
    if (m != c.memo.end()) return m->second;
    p.nodes.emplace_back();
    CNode* out = &p.nodes.back();
    out->op = n.op;
    out->width = n.width;
    switch (n.op) {
      case Op::Ref: out->slot = resolve(c, n.name); break;
      case Op::Const: out->k = Bits::from_words(n.width, n.words); break;
      case Op::Slice:
        out->slot = resolve(c, n.args[0]->name);
        out->lsb = n.lsb;
        break;
      case Op::Part: {
        out->slot = resolve(c, n.args[0]->name);
        const long long lo = n.index.eval(*c.env);
        if (lo < 0 || lo + n.width > n.args[0]->width)
          fail("the evaluator met a select out of range of `" + n.args[0]->name + "` at " + c.prefix);
        out->lsb = static_cast<unsigned>(lo);
        break;
      }
      case Op::BitAt:
        out->slot = resolve(c, n.args[0]->name);
        out->args.push_back(compile(*n.args[1], c));
        break;
      default:
        out->count = n.count;
        for (const auto& a : n.args) out->args.push_back(compile(*a, c));
    }
    c.memo[&n] = out;
    return out;
  }

  Target target(const Value& lhs, Context& c) {
    const Node& n = lhs.node();
    switch (n.op) {
      case Op::Ref: return {resolve(c, n.name), 0, n.width};
      case Op::Slice: return {resolve(c, n.args[0]->name), n.lsb, n.width};
      case Op::Part: {
        const long long lo = n.index.eval(*c.env);
        if (lo < 0 || lo + n.width > n.args[0]->width) fail("assignment out of range of `" + n.args[0]->name + "`");
        return {resolve(c, n.args[0]->name), static_cast<unsigned>(lo), n.width};
      }
      default: fail("the evaluator met an assignment to an expression");
    }
  }

  static void reads_of(const CNode* n, std::vector<int>& out) {
    if (n->slot >= 0) out.push_back(n->slot);
    for (const CNode* a : n->args) reads_of(a, out);
  }

  void declare_module() {
    const Module& m = *p.module;
    for (const auto& [name, d] : m.decls_) {
      const bool formal = m.formal_names_.count(name) != 0;
      if (formal && !p.formal) continue;
      p.add_slot(name, d.width, d.drivable, !d.drivable);
      p.slots.back().formal = formal;
    }
    auto regs = [&](const std::vector<Module::RegDecl>& list) {
      for (const auto& r : list) {
        p.regs.emplace_back(p.slot_of(r.name + "_q"), p.slot_of(r.name + "_d"));
        if (r.reset) p.resets.emplace_back(p.slot_of(r.name + "_q"), r.reset_value);
      }
    };
    regs(m.regs_);
    if (p.formal) regs(m.formal_regs_);
  }

  void declare_local(const Scope::Item& it, Context& c, bool drivable) {
    const int slot = p.add_slot(c.prefix + it.name, it.width, drivable, false);
    c.locals[it.name] = slot;
  }

  void set_param(int slot, long long v) {
    Slot& s = p.slots[slot];
    const unsigned n = static_cast<unsigned>(s.value.words().size());
    std::vector<uint64_t> words(n, v < 0 ? ~uint64_t{0} : 0);
    words[0] = static_cast<uint64_t>(v);
    s.value = Bits::from_words(s.width, words);
    s.is_set = true;
    s.settable = false;
  }

  void instance(const Scope::Item& it, Context& c) {
    auto b = p.bound.find(it.module);
    if (b == p.bound.end()) fail("the evaluator has no module bound for instance " + it.text + " of " + it.module);
    EvalProgram::Instance inst;
    inst.path = c.prefix + it.text;
    inst.child = std::make_unique<EvalProgram>();
    inst.child->module = b->second;
    inst.child->bound = p.bound;
    build(*inst.child);
    for (size_t k = 0; k < it.connections.size(); ++k) {
      const auto& [port, v] = it.connections[k];
      const int cs = inst.child->slot_of(port);
      if (it.outputs[k]) {
        const Target t = target(v, c);
        p.drive(t, "instance " + inst.path);
        inst.outputs.emplace_back(cs, t);
      } else {
        CNode* n = compile(v.node(), c);
        reads_of(n, inst.reads);
        inst.inputs.emplace_back(cs, n);
      }
    }
    p.instances.push_back(std::move(inst));
  }

  // A generate body's wires and parameters are its own (one per iteration);
  // a top-level generate if's are the module's.
  void walk(const Scope& s, Context& c) {
    const bool local = !s.loops_.empty();
    for (const auto& it : s.items_) {
      switch (it.kind) {
        case Scope::Kind::Wire:
          if (local) declare_local(it, c, true);
          break;
        case Scope::Kind::Param:
          if (local) declare_local(it, c, false);
          set_param(resolve(c, it.name), it.index.eval(*c.env));
          break;
        case Scope::Kind::Assign: {
          const Target t = target(it.lhs, c);
          p.drive(t, "an assignment");
          EvalProgram::Assign a{t, compile(it.rhs.node(), c), {}};
          reads_of(a.rhs, a.reads);
          p.assigns.push_back(std::move(a));
          break;
        }
        case Scope::Kind::For: {
          std::map<std::string, long long> env = *c.env;
          for (unsigned i = 0; i < it.count; ++i) {
            env[it.name] = i;
            Context inner{{}, &c, &env, c.prefix + it.text + "[" + to_string(i) + "].", {}};
            walk(*it.body, inner);
            check_locals(inner);
          }
          break;
        }
        case Scope::Kind::If: {
          const bool then = it.index.eval(*c.env) != 0;
          Context inner{{}, &c, c.env, c.prefix + (then ? it.text : it.else_label) + ".", {}};
          walk(then ? *it.body : *it.else_body, inner);
          check_locals(inner);
          break;
        }
        case Scope::Kind::Instance: instance(it, c); break;
        case Scope::Kind::Sram: fail("the evaluator does not model SRAMs");
        case Scope::Kind::Comment: break;
      }
    }
  }

  void check_locals(const Context& c) const {
    for (const auto& [name, slot] : c.locals) check_driven(p.slots[slot]);
  }
  static void check_driven(const Slot& s) {
    if (!s.drivable) return;
    for (unsigned b = 0; b < s.width; ++b)
      if (!s.driven[b]) fail("bit " + to_string(b) + " of `" + s.name + "` is never driven");
  }

  static void build(EvalProgram& p) {
    set_error_context(p.module->name());
    EvalAccess a{p};
    a.declare_module();
    const std::map<std::string, long long> env;
    Context top{{}, nullptr, &env, "", {}};
    a.walk(*p.module->top_, top);
    if (p.formal) {
      Context formal{{}, nullptr, &env, "", {}};
      a.walk(*p.module->formal_, formal);
      for (const auto& prop : p.module->properties_) p.properties[prop.name] = a.compile(prop.cond.node(), formal);
    }
    for (const Slot& s : p.slots) check_driven(s);
    std::vector<int> reads;
    for (const auto& as : p.assigns) reads.insert(reads.end(), as.reads.begin(), as.reads.end());
    for (const auto& in : p.instances) reads.insert(reads.end(), in.reads.begin(), in.reads.end());
    std::sort(reads.begin(), reads.end());
    reads.erase(std::unique(reads.begin(), reads.end()), reads.end());
    for (int r : reads)
      if (p.slots[r].settable) p.settable_read.push_back(r);
    p.schedule();
    p.built = true;
  }

  static CNode* compile_top(EvalProgram& p, const Value& v) {
    EvalAccess a{p};
    const std::map<std::string, long long> env;
    Context top{{}, nullptr, &env, "", {}};
    return a.compile(v.node(), top);
  }
};

// ---------------------------------------------------------------------------
// Evaluation

// Steps in the order of their dependencies (a writer before its readers;
// a cycle between signals is cut where it closes and settles by iteration).
void EvalProgram::schedule() {
  const size_t n = assigns.size() + instances.size();
  std::vector<std::vector<size_t>> writers(slots.size());
  std::vector<const std::vector<int>*> reads(n);
  for (size_t i = 0; i < assigns.size(); ++i) {
    writers[assigns[i].to.slot].push_back(i);
    reads[i] = &assigns[i].reads;
  }
  for (size_t i = 0; i < instances.size(); ++i) {
    for (const auto& o : instances[i].outputs) writers[o.second.slot].push_back(assigns.size() + i);
    reads[assigns.size() + i] = &instances[i].reads;
  }
  for (auto& w : writers) w.erase(std::unique(w.begin(), w.end()), w.end());
  std::vector<unsigned char> state(n, 0);
  acyclic = true;
  for (size_t root = 0; root < n; ++root) {  // iterative depth-first post-order
    if (state[root]) continue;
    std::vector<std::pair<size_t, size_t>> work = {{root, 0}};  // step, next read to follow
    state[root] = 1;
    while (!work.empty()) {
      auto& [step, k] = work.back();
      const std::vector<int>& r = *reads[step];
      bool pushed = false;
      while (k < r.size() && !pushed) {
        for (size_t w : writers[r[k]]) {
          if (state[w] == 1) acyclic = false;  // a writer still open: a cycle between signals
          if (!state[w]) {
            state[w] = 1;
            work.emplace_back(w, 0);
            pushed = true;
            break;
          }
        }
        if (!pushed) ++k;
      }
      if (pushed) continue;
      order.emplace_back(step >= assigns.size(), step >= assigns.size() ? step - assigns.size() : step);
      state[step] = 2;
      work.pop_back();
    }
  }
}

const Bits& EvalProgram::ev(CNode* n) {
  if (n->op == Op::Ref) return slots[n->slot].value;
  if (n->op == Op::Const) return n->k;
  if (n->stamp == stamp) return n->val;
  n->stamp = stamp;
  Bits& out = n->val;
  auto arg = [&](size_t i) -> const Bits& { return ev(n->args[i]); };
  auto one = [&](bool b) {
    BitsOps::shape(out, 1);
    out.set_bit(0, b);
  };
  switch (n->op) {
    case Op::Slice:
    case Op::Part: BitsOps::extract(slots[n->slot].value, n->lsb, n->width, out); break;
    case Op::BitAt: {
      const uint64_t i = arg(0).to_u64();
      one(slots[n->slot].value.bit(static_cast<unsigned>(i)));
      break;
    }
    case Op::Not: BitsOps::invert(arg(0), out); break;
    case Op::RedAnd: {
      const Bits& a = arg(0);
      bool all = true;
      for (unsigned i = 0; i < a.width() && all; ++i) all = a.bit(i);
      one(all);
      break;
    }
    case Op::RedOr: one(!BitsOps::is_zero(arg(0))); break;
    case Op::RedXor: {
      unsigned ones = 0;
      for (uint64_t w : arg(0).words()) ones += static_cast<unsigned>(__builtin_popcountll(w));
      one(ones % 2);
      break;
    }
    case Op::And:
    case Op::Or:
    case Op::Xor: BitsOps::bitwise(n->op, arg(0), arg(1), out); break;
    case Op::Add: BitsOps::add(arg(0), arg(1), false, out); break;
    case Op::Sub: BitsOps::add(arg(0), arg(1), true, out); break;
    case Op::Mul: BitsOps::multiply(arg(0), arg(1), out); break;
    case Op::Mod: BitsOps::modulo(arg(0), arg(1), out); break;
    case Op::Eq: one(BitsOps::compare(arg(0), arg(1)) == 0); break;
    case Op::Ne: one(BitsOps::compare(arg(0), arg(1)) != 0); break;
    case Op::Lt: one(BitsOps::compare(arg(0), arg(1)) < 0); break;
    case Op::Le: one(BitsOps::compare(arg(0), arg(1)) <= 0); break;
    case Op::Gt: one(BitsOps::compare(arg(0), arg(1)) > 0); break;
    case Op::Ge: one(BitsOps::compare(arg(0), arg(1)) >= 0); break;
    case Op::Shl:
    case Op::Shr: {
      const Bits &a = arg(0), &b = arg(1);
      bool big = false;
      for (size_t k = 1; k < b.words().size(); ++k) big = big || b.words()[k];
      BitsOps::shift(n->op == Op::Shl, a, big ? ~uint64_t{0} : b.words()[0], out);
      break;
    }
    case Op::Mux: {
      const bool c = arg(0).bit(0);
      out = ev(n->args[c ? 1 : 2]);
      break;
    }
    case Op::Concat: {
      BitsOps::shape(out, n->width);
      unsigned pos = n->width;
      for (size_t i = 0; i < n->args.size(); ++i) {
        const Bits& a = arg(i);
        pos -= a.width();
        BitsOps::put(out, pos, a);
      }
      break;
    }
    case Op::Repeat: {
      const Bits& a = arg(0);
      BitsOps::shape(out, n->width);
      for (unsigned i = 0; i < n->count; ++i) BitsOps::put(out, i * a.width(), a);
      break;
    }
    default: fail("the evaluator met an unknown operator");
  }
  return out;
}

void EvalProgram::run() {
  for (int s : settable_read)
    if (!slots[s].is_set) fail("the evaluator needs `" + slots[s].name + "` set before run()");
  const size_t limit = order.size() + 2;
  for (size_t pass = 0;; ++pass) {
    if (pass > limit) fail("the evaluated logic does not settle (a combinational loop)");
    ++stamp;
    bool changed = false;
    for (const auto& [is_inst, i] : order) {
      if (!is_inst) {
        const Assign& a = assigns[i];
        changed = BitsOps::put(slots[a.to.slot].value, a.to.lsb, ev(a.rhs)) || changed;
        continue;
      }
      Instance& in = instances[i];
      for (const auto& [cs, v] : in.inputs) {
        in.child->slots[cs].value = ev(v);
        in.child->slots[cs].is_set = true;
      }
      in.child->run();
      for (const auto& [cs, t] : in.outputs)
        changed = BitsOps::put(slots[t.slot].value, t.lsb, in.child->slots[cs].value) || changed;
    }
    if (!changed || acyclic) break;
  }
  ran = true;
}

void EvalProgram::step() {
  if (!ran) fail("step() before run()");
  for (const auto& [q, d] : regs) {
    slots[q].value = slots[d].value;
    slots[q].is_set = true;
  }
  for (auto& in : instances) in.child->step();
}

void EvalProgram::reset() {
  for (const auto& [q, v] : resets) {
    Slot& s = slots[q];
    std::vector<uint64_t> words(s.value.words().size(), 0);
    words[0] = v;
    s.value = Bits::from_words(s.width, words);
    s.is_set = true;
  }
  for (auto& in : instances) in.child->reset();
}

EvalProgram* EvalProgram::child_of(const std::string& name, std::string& rest) {
  for (auto& in : instances)
    if (name.size() > in.path.size() && name.compare(0, in.path.size(), in.path) == 0 && name[in.path.size()] == '.') {
      rest = name.substr(in.path.size() + 1);
      return in.child.get();
    }
  return nullptr;
}

std::pair<const EvalProgram*, int> EvalProgram::find(const std::string& name) const {
  auto it = by_name.find(name);
  if (it != by_name.end()) return {this, it->second};
  std::string rest;
  const EvalProgram* c = const_cast<EvalProgram*>(this)->child_of(name, rest);
  if (c) return c->find(rest);
  fail("the evaluated module has no signal `" + name + "`");
}

// ---------------------------------------------------------------------------
// Evaluator

Evaluator::Evaluator(const Module& m, bool formal) : prog_(std::make_unique<EvalProgram>()) {
  prog_->module = &m;
  prog_->formal = formal;
}

Evaluator::~Evaluator() = default;

void Evaluator::build() {
  if (prog_->built) return;
  const std::string saved = error_context();
  try {
    EvalAccess::build(*prog_);
  } catch (...) {
    set_error_context(saved);
    throw;
  }
  set_error_context(saved);
}

void Evaluator::bind(const Module& child) {
  if (prog_->built) fail("bind(" + child.name() + ") after the evaluation was built");
  prog_->bound[child.name()] = &child;
}

void Evaluator::set(const std::string& name, const Bits& v) {
  build();
  EvalProgram* p = prog_.get();
  std::string rest = name;
  while (!p->by_name.count(rest)) {
    std::string inner;
    EvalProgram* c = p->child_of(rest, inner);
    if (!c) fail("the evaluated module has no signal `" + name + "`");
    p = c;
    rest = inner;
  }
  Slot& s = p->slots[p->by_name.at(rest)];
  if (!s.settable) fail("`" + name + "` is computed, not set (an input, a register output or a formal_any is)");
  if (v.width() != s.width)
    fail("`" + name + "` is " + to_string(s.width) + " bits, the value " + to_string(v.width()));
  s.value = v;
  s.is_set = true;
}

void Evaluator::set(const std::string& name, uint64_t v) {
  build();
  const auto [p, slot] = prog_->find(name);
  set(name, Bits(p->slots[slot].width, v));
}

void Evaluator::reset() {
  build();
  prog_->reset();
}

void Evaluator::run() {
  build();
  prog_->run();
}

Bits Evaluator::get(const std::string& name) const {
  if (!prog_->ran) fail("get(" + name + ") before run()");
  const auto [p, slot] = prog_->find(name);
  return p->slots[slot].value;
}

Bits Evaluator::eval(const Value& v) const {
  if (!prog_->ran) fail("eval() before run()");
  CNode* n = EvalAccess::compile_top(*prog_, v);
  ++prog_->stamp;
  return prog_->ev(n);
}

bool Evaluator::holds(const std::string& name) const {
  if (!prog_->formal) fail("holds(" + name + ") of an evaluation without the formal region");
  if (!prog_->ran) fail("holds(" + name + ") before run()");
  auto it = prog_->properties.find(name);
  if (it == prog_->properties.end()) fail("the evaluated module states no property `" + name + "`");
  ++prog_->stamp;
  return prog_->ev(it->second).bit(0);
}

void Evaluator::step() { prog_->step(); }

}  // namespace txgen::hdl
