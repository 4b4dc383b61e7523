#include "txgen/hdl/module.h"

#include <algorithm>
#include <cctype>


namespace txgen::hdl {

namespace {

std::shared_ptr<const Node> ref_node(const std::string& name, unsigned width) {
  auto n = std::make_shared<Node>();
  n->op = Op::Ref;
  n->width = width;
  n->name = name;
  return n;
}

// The signal an assignment drives and the bits it covers.
struct Target {
  std::string name;
  long long lsb;
  unsigned width;
};

Target target_of(const Value& lhs, const std::map<std::string, long long>& env) {
  const Node& n = lhs.node();
  switch (n.op) {
    case Op::Ref: return {n.name, 0, n.width};
    case Op::Slice: return {n.args[0]->name, n.lsb, n.width};
    case Op::Part: return {n.args[0]->name, n.index.eval(env), n.width};
    default: fail("assignment to an expression: `" + describe(lhs) + "`");
  }
}

}  // namespace

// ---------------------------------------------------------------------------
// Handles

void Wire::drive(const Value& v) const {
  if (!owner_) fail("drive of an undeclared wire");
  owner_->assign(*this, v);
}

void Reg::next_if(const Value& enable, const Value& v) const { next(mux(enable, v, *this)); }

// ---------------------------------------------------------------------------
// Scope

void Scope::add_local(const std::string& name, unsigned width, bool drivable) {
  if (width == 0) fail("zero-width signal `" + name + "`");
  if (formal_) module_->formal_names_.insert(name);
  if (loops_.empty()) {
    module_->declare(name, width, drivable);
    return;
  }
  if (locals_.count(name) || module_->find(name)) fail("`" + name + "` declared twice");
  locals_[name] = width;
}

bool Scope::is_local(const std::string& name) const { return locals_.count(name) != 0; }

Scope::Item& Scope::add(Kind kind) {
  items_.emplace_back();
  items_.back().kind = kind;
  return items_.back();
}

Wire Scope::wire(const std::string& name, unsigned width, bool vector) {
  add_local(name, width, true);
  Item& it = add(Kind::Wire);
  it.name = name;
  it.width = width;
  it.vector = vector;
  return Wire(Value(ref_node(name, width)), this);
}

Value Scope::wire(const std::string& name, const Value& v) {
  Wire w = wire(name, v.width());
  assign(w, v);
  return w;
}

Value Scope::param(const std::string& name, unsigned width, const Index& value) {
  add_local(name, width, false);
  Item& it = add(Kind::Param);
  it.name = name;
  it.width = width;
  it.index = value;
  return Value(ref_node(name, width));
}

void Scope::assign(const Value& lhs, const Value& rhs) {
  if (!lhs.valid() || !rhs.valid()) fail("assignment of an undefined value");
  if (lhs.width() != rhs.width())
    fail("width mismatch in assignment to `" + describe(lhs) + "` (" + std::to_string(lhs.width()) +
         " bits) of `" + describe(rhs) + "` (" + std::to_string(rhs.width()) + " bits)");
  Item& it = add(Kind::Assign);
  it.lhs = lhs;
  it.rhs = rhs;
}

void Scope::comment(const std::string& text) {
  add(Kind::Comment).text = text;
}

void Scope::generate_for(const std::string& var, unsigned count, const std::string& label,
                         const std::function<void(Scope&, const Index&)>& body) {
  if (count == 0) fail("generate loop `" + label + "` of zero iterations");
  auto loops = loops_;
  loops.emplace_back(var, static_cast<int>(count));
  auto inner = std::make_unique<Scope>(module_, label, std::move(loops), formal_);
  inner->locals_ = locals_;
  body(*inner, Index::var(var));
  Item& it = add(Kind::For);
  it.name = var;
  it.text = label;
  it.count = count;
  it.body = std::move(inner);
}

void Scope::generate_if(const Index& cond, const std::string& label, const std::function<void(Scope&)>& then_body,
                        const std::string& else_label, const std::function<void(Scope&)>& else_body) {
  auto then_scope = std::make_unique<Scope>(module_, label, loops_, formal_);
  auto else_scope = std::make_unique<Scope>(module_, else_label, loops_, formal_);
  then_scope->locals_ = locals_;
  else_scope->locals_ = locals_;
  then_body(*then_scope);
  else_body(*else_scope);
  Item& it = add(Kind::If);
  it.text = label;
  it.index = cond;
  it.body = std::move(then_scope);
  it.else_body = std::move(else_scope);
  it.else_label = else_label;
}

void Scope::instance(const Interface& of, const std::string& inst,
                     const std::vector<std::pair<std::string, Value>>& connections) {
  std::vector<bool> outputs;
  for (const auto& [port, value] : connections) {
    auto p = std::find_if(of.ports.begin(), of.ports.end(), [&](const PortSpec& s) { return s.name == port; });
    if (p == of.ports.end()) fail("instance " + inst + ": " + of.module + " has no port `" + port + "`");
    if (p->width != value.width())
      fail("instance " + inst + ": port `" + port + "` is " + std::to_string(p->width) + " bits, `" +
           describe(value) + "` is " + std::to_string(value.width()));
    outputs.push_back(p->is_output);
  }
  for (const auto& p : of.ports) {
    auto c = std::find_if(connections.begin(), connections.end(), [&](const auto& x) { return x.first == p.name; });
    if (c == connections.end()) fail("instance " + inst + ": port `" + p.name + "` of " + of.module + " unconnected");
  }
  Item& it = add(Kind::Instance);
  it.text = inst;
  it.module = of.module;
  it.connections = connections;
  it.outputs = std::move(outputs);
}

// ---------------------------------------------------------------------------
// Module

Module::Module(std::string name)
    : name_(std::move(name)), previous_context_(error_context()),
      top_(std::make_unique<Scope>(this, "", std::vector<std::pair<std::string, int>>{})),
      formal_(std::make_unique<Scope>(this, "", std::vector<std::pair<std::string, int>>{}, true)) {
  set_error_context(name_);
}

Module::~Module() { set_error_context(previous_context_); }

void Module::declare(const std::string& name, unsigned width, bool drivable) {
  if (width == 0) fail("zero-width signal `" + name + "`");
  if (!decls_.emplace(name, Decl{width, drivable}).second) fail("`" + name + "` declared twice");
}

const Module::Decl* Module::find(const std::string& name) const {
  auto it = decls_.find(name);
  return it == decls_.end() ? nullptr : &it->second;
}

Interface Module::interface() const {
  Interface i{name_, {}};
  for (const auto& p : ports_) i.ports.push_back({p.name, p.is_output, p.width});
  return i;
}

void Module::header_line(const std::string& text) { header_.push_back(text); }

Module::ClockReset Module::clock_and_reset() {
  Value clk = input("clk_i", 1);
  return {clk, input("rst_ni", 1, "asynchronous, active low")};
}

Value Module::input(const std::string& name, unsigned width, const std::string& comment) {
  declare(name, width, false);
  ports_.push_back({name, comment, false, width});
  return Value(ref_node(name, width));
}

Wire Module::output(const std::string& name, unsigned width, const std::string& comment) {
  declare(name, width, true);
  ports_.push_back({name, comment, true, width});
  return Wire(Value(ref_node(name, width)), top_.get());
}

Reg Module::reg(const std::string& name, unsigned width, uint64_t reset_value) {
  declare(name + "_q", width, false);
  declare(name + "_d", width, true);
  lit(width, reset_value);  // checks that it fits
  regs_.push_back({name, width, true, reset_value});
  return Reg(Value(ref_node(name + "_q", width)), Wire(Value(ref_node(name + "_d", width)), top_.get()));
}

Reg Module::reg_noreset(const std::string& name, unsigned width) {
  declare(name + "_q", width, false);
  declare(name + "_d", width, true);
  regs_.push_back({name, width, false, 0});
  return Reg(Value(ref_node(name + "_q", width)), Wire(Value(ref_node(name + "_d", width)), top_.get()));
}

Value Module::sram(const SramSpec& spec) {
  const unsigned width = spec.lanes * spec.lane_bits;
  if (spec.depth == 0 || width == 0) fail("empty SRAM");
  for (const Value* v : {&spec.clk, &spec.en, &spec.we})
    if (!v->valid() || v->width() != 1) fail("SRAM clock, enable and write enable must be one bit");
  if (!spec.addr.valid() || !spec.wdata.valid() || spec.wdata.width() != width)
    fail("SRAM address or write data missing or not " + std::to_string(width) + " bits");
  if (spec.lanes > 1 && (!spec.lane_en.valid() || spec.lane_en.width() != spec.lanes))
    fail("SRAM lane enables must be " + std::to_string(spec.lanes) + " bits");
  declare("mem", width, false);
  declare("rdata_q", width, false);
  top_->add(Scope::Kind::Sram).sram = std::make_shared<SramSpec>(spec);
  return Value(ref_node("rdata_q", width));
}

void Module::unused(const std::string& name, const Value& v) { top_->wire("unused_" + name, v); }

// ---------------------------------------------------------------------------
// Formal properties

Reg Module::formal_reg(const std::string& name, unsigned width, uint64_t reset_value) {
  if (!has_clock_and_reset()) fail("formal register `" + name + "` in a module without clk_i and rst_ni");
  declare(name + "_q", width, false);
  declare(name + "_d", width, true);
  lit(width, reset_value);  // checks that it fits
  formal_names_.insert({name + "_q", name + "_d"});
  formal_regs_.push_back({name, width, true, reset_value});
  return Reg(Value(ref_node(name + "_q", width)), Wire(Value(ref_node(name + "_d", width)), formal_.get()));
}

Value Module::past(const std::string& name, const Value& v) {
  const Reg r = formal_reg(name, v.width());
  r.next(v);
  return r;
}

Value Module::formal_any(const std::string& name, unsigned width) {
  declare(name, width, false);
  formal_names_.insert(name);
  formal_anys_.push_back(name);
  return Value(ref_node(name, width));
}

void Module::add_property(bool assume, const std::string& name, const Value& cond) {
  if (!cond.valid() || cond.width() != 1) fail("property `" + name + "` is not one bit");
  const bool ident = !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0])) &&
                     std::all_of(name.begin(), name.end(),
                                 [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_'; });
  if (!ident) fail("property name `" + name + "` is not an identifier");
  for (const auto& p : properties_)
    if (p.name == name) fail("property `" + name + "` stated twice");
  if (find(name)) fail("property `" + name + "` has the name of a signal");
  properties_.push_back({assume, name, cond});
}

void Module::assert_always(const std::string& name, const Value& cond) { add_property(false, name, cond); }
void Module::assume_always(const std::string& name, const Value& cond) { add_property(true, name, cond); }

// ---------------------------------------------------------------------------
// Checks and rendering: one walk over the scopes, evaluating every Index for
// every iteration of its loops.

struct ScopeWalker {
  const Module& module;
  std::map<std::string, std::vector<unsigned char>> driven;  // module-level bits driven
  bool in_formal = false;  // walking the formal region: it may read everything

  void check_value(const Value& v, const std::map<std::string, long long>& env) {
    const Node& n = v.node();
    if (!in_formal && n.op == Op::Ref && module.formal_names_.count(n.name))
      fail("the circuit reads `" + n.name + "`, a signal of the formal region");
    if (n.op == Op::Part) {
      const long long lo = n.index.eval(env);
      if (lo < 0 || lo + n.width > n.args[0]->width)
        fail("select [" + std::to_string(lo + n.width - 1) + ":" + std::to_string(lo) + "] out of range of `" +
             n.args[0]->name + "` (" + std::to_string(n.args[0]->width) + " bits) at " + describe_env(env));
    }
    for (const auto& a : n.args) check_value(Value(a), env);
  }

  static std::string describe_env(const std::map<std::string, long long>& env) {
    std::string s;
    for (const auto& [k, v] : env) s += (s.empty() ? "" : ", ") + k + " = " + std::to_string(v);
    return s.empty() ? "top level" : s;
  }

  void mark(std::map<std::string, std::vector<unsigned char>>& map, const Target& t, unsigned width,
            const std::map<std::string, long long>& env) {
    auto& bits = map[t.name];
    bits.resize(width, 0);
    if (t.lsb < 0 || t.lsb + t.width > width)
      fail("assignment to `" + t.name + "` out of range at " + describe_env(env));
    for (unsigned b = 0; b < t.width; ++b)
      if (bits[t.lsb + b]++) fail("bit " + std::to_string(t.lsb + b) + " of `" + t.name + "` driven twice");
  }

  void walk(const Scope& s, std::map<std::string, long long>& env,
            std::map<std::string, std::vector<unsigned char>>& local_driven) {
    for (const auto& it : s.items_) {
      switch (it.kind) {
        case Scope::Kind::Assign: {
          check_value(it.lhs, env);
          check_value(it.rhs, env);
          const Target t = target_of(it.lhs, env);
          if (s.is_local(t.name)) {
            mark(local_driven, t, s.locals_.at(t.name), env);
          } else {
            const auto* d = module.find(t.name);
            if (!d || !d->drivable)
              fail("`" + t.name + "` cannot be assigned (an input, a register output or undeclared)");
            if (in_formal != (module.formal_names_.count(t.name) != 0))
              fail("`" + t.name + "` is assigned " +
                   (in_formal ? "in the formal region" : "outside the formal region"));
            mark(driven, t, d->width, env);
          }
          break;
        }
        case Scope::Kind::For: {
          for (unsigned i = 0; i < it.count; ++i) {
            env[it.name] = i;
            std::map<std::string, std::vector<unsigned char>> inner = local_driven;
            walk(*it.body, env, inner);
            check_locals(*it.body, s, inner, env);
            keep_outer(s, inner, local_driven);
          }
          env.erase(it.name);
          break;
        }
        case Scope::Kind::If: {
          const Scope& chosen = it.index.eval(env) ? *it.body : *it.else_body;
          std::map<std::string, std::vector<unsigned char>> inner = local_driven;
          walk(chosen, env, inner);
          check_locals(chosen, s, inner, env);
          keep_outer(s, inner, local_driven);
          break;
        }
        case Scope::Kind::Instance:
          for (size_t k = 0; k < it.connections.size(); ++k) {
            const Value& v = it.connections[k].second;
            check_value(v, env);
            if (!it.outputs[k]) continue;
            const Target t = target_of(v, env);
            const auto* d = module.find(t.name);
            if (!d || !d->drivable) fail("instance " + it.text + " drives `" + t.name + "`, which cannot be assigned");
            if (in_formal != (module.formal_names_.count(t.name) != 0))
              fail("instance " + it.text + " drives `" + t.name + "` across the formal region's boundary");
            mark(driven, t, d->width, env);
          }
          break;
        default: break;
      }
    }
  }

  // drives of names the enclosing scope declared (a loop-local wire driven
  // inside a nested generate block) count for the enclosing scope
  static void keep_outer(const Scope& outer, const std::map<std::string, std::vector<unsigned char>>& inner,
                         std::map<std::string, std::vector<unsigned char>>& outer_driven) {
    for (const auto& [name, bits] : inner)
      if (outer.is_local(name)) outer_driven[name] = bits;
  }

  // every name declared in `inner` (not in its parent) driven in full
  static void check_locals(const Scope& inner, const Scope& parent,
                           const std::map<std::string, std::vector<unsigned char>>& drv,
                           const std::map<std::string, long long>& env) {
    for (const auto& it : inner.items_) {
      if (it.kind != Scope::Kind::Wire || parent.is_local(it.name)) continue;
      auto d = drv.find(it.name);
      const bool full = d != drv.end() &&
                        std::all_of(d->second.begin(), d->second.end(), [](auto b) { return b == 1; }) &&
                        d->second.size() == it.width;
      if (!full) fail("`" + it.name + "` not driven in full at " + describe_env(env));
    }
  }
};

void Module::check() const {
  const std::string saved = error_context();
  set_error_context(name_);
  ScopeWalker w{*this, {}};
  std::map<std::string, long long> env;
  std::map<std::string, std::vector<unsigned char>> none;
  w.walk(*top_, env, none);
  w.in_formal = true;
  w.walk(*formal_, env, none);
  for (const auto& p : properties_) w.check_value(p.cond, env);
  for (const auto& [name, d] : decls_) {
    if (!d.drivable) continue;
    auto it = w.driven.find(name);
    for (unsigned b = 0; b < d.width; ++b)
      if (it == w.driven.end() || b >= it->second.size() || it->second[b] == 0)
        fail("bit " + std::to_string(b) + " of `" + name + "` is never driven");
  }
  set_error_context(saved);
}

}  // namespace txgen::hdl
