// Emission of the aggregated tag array of one cluster of L1 caches
// (docs/blocks/ata.md): N tag arrays with LRU or tree-PLRU replacement, one
// comparator group per (core, array) pair fed by that pair's set selector, a
// blocking request distributor per core (CMP, DIST, then local read, remote
// read, local write, fill, L2 request / wait), and the round-robin
// arbitration of each data-array port, whose winner's command updates the
// array and is registered on the port. `private` emits the same controller
// with only the (i, i) comparator groups and no remote path.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "txgen/blocks/ata_emit.h"
#include "txgen/hdl/lib.h"
#include "txgen/hdl/module.h"
#include "txgen/hdl/port_decl.h"
#include "txgen/hdl/replacement.h"
#include "txgen/ports/ata.h"

namespace txgen::blocks::ata {

using elab::AtaParams;
using hdl::any;
using hdl::cat;
using hdl::Index;
using hdl::lit;
using hdl::Module;
using hdl::mux;
using hdl::Reg;
using hdl::Scope;
using hdl::Value;
using hdl::Wire;
using std::string;
using std::to_string;

namespace {

// Controller states (docs/blocks/ata.md, "Per-core controller").
enum State : unsigned { kIdle = 0, kCmp, kDist, kLread, kRread, kLwrite, kFill, kL2req, kL2wait };
constexpr unsigned kStateBits = 4;
// Data-array command opcodes.
enum Op : unsigned { kOpLocalRead = 0, kOpRemoteRead = 1, kOpWrite = 2, kOpFill = 3 };

Value sel(const Value& onehot, const Value& vec, unsigned count, unsigned width) {
  return count == 1 ? vec : hdl::onehot_select(onehot, vec, count, width);
}


// One tag array's registers.
struct Array {
  Reg valid, tag, sv, dirty;  // per entry e = set * W + way
  std::optional<hdl::LruAges> ages;  // lru
  Value age;                          // lru: W x S x WB, way-major
  Reg plru;                   // plru: S x (W - 1)
  Reg ptr;                    // port round-robin pointer, one-hot over cores
};

// The rows of one set of one array, selected by a one-hot set.
struct Rows {
  Value valid, tag, sv, dirty;
};

// One core's request, state and compare results.
struct Core {
  Reg st, wr, addr, hv, way, lm, lway, rj, fs, rp;
  Reg ok;    // the RREAD recheck, kept as a register (see recheck_register)
  Reg vway;  // the fill victim, registered at the CMP edge
  Reg soh;   // the request's set, one-hot (S > 1)
  Value set_oh, tag, sec_oh, sec;  // fields of addr
  Value set;                        // set bits (set_port_bits wide)
  std::vector<Value> hit;           // [j]: W-bit hit vector of the (i, j) comparator group
  Value lmatch;                     // W-bit line match in the local array
};

TXGEN_PORT_HANDLES(AtaPorts, TXGEN_ATA_PORTS)

class AtaEmitter {
 public:
  AtaEmitter(const AtaParams& p, const EmitContext& ctx) : p_(p), m_(p.module_prefix), ctx_(ctx) {}
  std::string emit();

 private:
  const AtaParams& p_;
  Module m_;
  const EmitContext& ctx_;
  unsigned N = 0, S = 0, W = 0, SC = 0, TG = 0, WB = 0, CI = 0, A = 0, SBP = 0, XBP = 0;
  std::vector<Array> arr_;
  std::vector<Core> core_;
  // ports
  AtaPorts io_;  // txgen/ports/ata.h

  bool remote() const { return p_.aggregated() && N > 1; }
  Value is(const Core& c, State s) const { return c.st == lit(kStateBits, s); }
  unsigned own(unsigned i) const { return remote() ? i : 0; }  // core i's field in its hv / way
  void declare_arrays();
  Rows rows(unsigned j, const Value& set_oh, const string& name);
  void declare_cores();
  void compare(unsigned i);
  Value replacement_victim(unsigned j, unsigned s);
  Value victim(unsigned i);
  void controllers(const std::vector<Value>& granted, const std::vector<Value>& ok, const std::vector<Value>& pick);
  // One data-array port's command after its arbitration.
  struct PortCmd {
    Value gv, op, set, way, sec, core;
  };
  struct Requests {
    std::vector<Value> lreq, rreq;  // per core: on its own port, a remote read
    Value recs;                     // every core's command record
  };
  Requests port_requests(const std::vector<Value>& ok);
  PortCmd arbitrate(unsigned j, const Requests& q, std::vector<std::vector<Value>>& win_bits);
  void port_outputs(const std::vector<PortCmd>& cmds);
  void ports(std::vector<Value>& granted, const std::vector<Value>& ok);
  void recheck_register(const std::vector<Value>& pick);
  // per port: this edge's command kills a line (a write marks it dirty, an
  // allocating fill replaces it) at set cmd_set_, way cmd_way_
  std::vector<Value> kills_, cmd_set_, cmd_way_;
  // per core: the way and op of its command on its own port
  std::vector<Value> own_way_, own_op_;
  void update_array(unsigned j, const Value& gv, const Value& op, const Value& set_oh, const Value& way_oh,
                    const Value& sec_oh, const Value& tag, const Value& alloc);
  void update_replacement(unsigned j, const Value& touch, const Value& so, const Value& wo);
};

void AtaEmitter::declare_arrays() {
  for (unsigned j = 0; j < N; ++j) {
    const string a = "a" + to_string(j) + "_";
    Array r;
    r.valid = m_.reg(a + "valid", S * W);
    r.tag = m_.reg(a + "tag", S * W * TG);
    r.sv = m_.reg(a + "sv", S * W * SC);
    r.dirty = m_.reg(a + "dirty", S * W);
    if (!p_.plru()) {
      r.ages.emplace(m_, a, W, S, WB);
      r.age = r.ages->all();
    } else {
      r.plru = m_.reg(a + "plru", S * (W - 1));
    }
    if (remote()) r.ptr = m_.reg(a + "ptr", N, 1);
    arr_.push_back(r);
  }
}

// The valid, tag, sector-valid and dirty rows of array j at a one-hot set: the
// set selector of one comparator group.
Rows AtaEmitter::rows(unsigned j, const Value& set_oh, const string& name) {
  const Array& r = arr_[j];
  Rows w;
  w.valid = m_.wire(name + "_valid", sel(set_oh, r.valid, S, W));
  w.tag = m_.wire(name + "_tag", sel(set_oh, r.tag, S, W * TG));
  w.sv = m_.wire(name + "_sv", sel(set_oh, r.sv, S, W * SC));
  w.dirty = m_.wire(name + "_dirty", sel(set_oh, r.dirty, S, W));
  return w;
}

void AtaEmitter::declare_cores() {
  const unsigned OB = p_.offset_bits, XB = p_.sector_bits, SB = p_.set_bits;
  for (unsigned i = 0; i < N; ++i) {
    const string c = "c" + to_string(i) + "_";
    Core k;
    k.st = m_.reg(c + "st", kStateBits);
    k.wr = m_.reg(c + "wr", 1);
    k.addr = m_.reg(c + "addr", A);
    // compare results for every array (the own one only when private)
    k.hv = m_.reg(c + "hv", remote() ? N : 1);
    k.way = m_.reg(c + "way", (remote() ? N : 1) * WB);
    k.lm = m_.reg(c + "lm", 1);
    k.lway = m_.reg(c + "lway", WB);
    k.vway = m_.reg(c + "vway", WB);
    k.fs = m_.reg(c + "fs", 1);
    if (remote()) {
      k.rj = m_.reg(c + "rj", N);
      if (p_.round_robin()) k.rp = m_.reg(c + "rp", N, 1);
      k.ok = m_.reg(c + "ok", 1);
    }
    k.tag = m_.wire(c + "rtag", Value(k.addr).slice(OB + SB, TG));
    // The set's one-hot decode is registered beside the address (loaded with it):
    // it drives every row of N set selectors, so the decode stays off that path.
    if (S > 1) k.soh = m_.reg(c + "set_oh", S, 1);
    k.set_oh = S > 1 ? Value(k.soh) : lit(1, 1);
    k.set = SB ? Value(k.addr).slice(OB, SB) : lit(1, 0);
    k.sec = XB ? Value(k.addr).slice(OB - XB, XB) : lit(1, 0);
    k.sec_oh = SC > 1 ? m_.wire(c + "sec_oh", hdl::one_of(SC, Value(k.addr).slice(OB - XB, XB))) : lit(1, 1);
    core_.push_back(k);
  }
}

// Core i's comparator groups: the request's set of every array it is compared
// with, the hit vector per array (sector valid; a remote copy also clean) and
// the local line match. Evaluated every cycle on the current arrays: in CMP
// they are registered, in DIST the chosen pair's bit starts the recheck.
void AtaEmitter::compare(unsigned i) {
  Core& k = core_[i];
  k.hit.assign(N, Value());
  for (unsigned j = 0; j < N; ++j) {
    if (j != i && !remote()) continue;
    const string name = "c" + to_string(i) + "_a" + to_string(j);
    Rows r = rows(j, k.set_oh, name);
    Wire match = m_.wire(name + "_match", W, true), hit = m_.wire(name + "_hit", W, true);
    m_.generate_for(name + "_gw", W, "g_" + name + "_cmp", [&](Scope& sc, const Index& w) {
      Value m = sc.wire("m", r.valid.bit(w) & (r.tag.part(w * Index(TG), TG) == k.tag));
      Value sec = SC > 1 ? any(r.sv.part(w * Index(SC), SC) & k.sec_oh) : r.sv.bit(w);
      sc.assign(match.bit(w), m);
      sc.assign(hit.bit(w), j == i ? m & sec : m & sec & ~r.dirty.bit(w));
    });
    if (j != i) {
      m_.unused(name + "_match", match);
    } else {
      m_.unused(name + "_dirty", r.dirty);  // a local hit may be dirty
      k.lmatch = match;
    }
    k.hit[j] = hit;
  }
}

// The replacement victim (one-hot) of set s of array j: the way of age W-1,
// or the way the tree-PLRU bits point at from the root.
Value AtaEmitter::replacement_victim(unsigned j, unsigned s) {
  const Array& r = arr_[j];
  if (!p_.plru()) return hdl::lru_ages_oldest(r.age, S, W, s);
  return hdl::plru_victim(Value(r.plru).field(s, W - 1), W);
}

// The fill victim's way in core i's local array at its request's set: the
// lowest invalid way, else the replacement victim. Each set's victim depends
// on the state registers alone, so it is formed per set and then selected by
// the set index, which keeps the victim logic off the address path.
Value AtaEmitter::victim(unsigned i) {
  const Core& k = core_[i];
  const string c = "c" + to_string(i) + "_";
  std::vector<Value> per_set, way0;
  for (unsigned s = 0; s < S; ++s) {
    const string cs = c + "s" + to_string(s) + "_";
    Value inv = m_.wire(cs + "inv", ~Value(arr_[i].valid).slice(s * W, W));
    Value linv = hdl::lowest_one(m_.top(), cs + "linv", inv);
    Value rv = m_.wire(cs + "repl", replacement_victim(i, s));
    Value vic = m_.wire(cs + "victim", mux(any(inv), linv, rv));
    way0.push_back(vic.bit(0));  // index 0 contributes no bit
    per_set.push_back(hdl::onehot_index(vic, WB));
  }
  m_.unused(c + "victim_way0", hdl::cat_lsb_first(way0));
  return m_.wire(c + "victim", sel(k.set_oh, hdl::cat_lsb_first(per_set), S, WB));
}


// The per-core port request and command record (op, set, way, sector, tag,
// alloc); also each core's way and op on its own port.
AtaEmitter::Requests AtaEmitter::port_requests(const std::vector<Value>& ok) {
  Requests q{std::vector<Value>(N), std::vector<Value>(N), Value()};
  std::vector<Value> rec(N);
  own_way_.assign(N, Value());
  own_op_.assign(N, Value());
  for (unsigned i = 0; i < N; ++i) {
    Core& k = core_[i];
    const string c = "c" + to_string(i) + "_";
    q.lreq[i] = m_.wire(c + "lreq", is(k, kLread) | is(k, kLwrite) | is(k, kFill));
    q.rreq[i] = remote() ? m_.wire(c + "rreq", is(k, kRread) & ok[i]) : lit(1, 0);
    Value op = hdl::priority({{is(k, kFill), lit(2, kOpFill)}, {is(k, kLwrite), lit(2, kOpWrite)},
                              {is(k, kRread), lit(2, kOpRemoteRead)}},
                             lit(2, kOpLocalRead));
    Value own_way = Value(k.way).field(own(i), WB);
    // Array i changes only by core i's own commands, and core i has none
    // between its compare and its fill: the victim seen in CMP is the one of
    // the fill's grant cycle, so it is registered there.
    k.vway.next_if(is(k, kCmp), victim(i));
    Value fill_way = mux(k.lm, k.lway, k.vway);
    Value rway = remote() ? sel(k.rj, k.way, N, WB) : own_way;
    Value way = m_.wire(c + "cway", hdl::priority({{is(k, kFill), fill_way}, {is(k, kRread), rway}}, own_way));
    rec[i] = m_.wire(c + "cmd", cat({~k.lm, k.tag, k.sec, way, k.set, op}));
    // the command on its own port (LREAD, LWRITE, FILL): the only kind that changes the array
    own_way_[i] = m_.wire(c + "oway", mux(is(k, kFill), fill_way, own_way));
    own_op_[i] = op;
  }
  q.recs = m_.wire("cmd_all", hdl::cat_lsb_first(rec));
  return q;
}

// The round-robin arbitration of port j, the winner's command and its update
// of array j; win_bits[i] collects core i's grant on every port.
AtaEmitter::PortCmd AtaEmitter::arbitrate(unsigned j, const Requests& q, std::vector<std::vector<Value>>& win_bits) {
  const unsigned RB = 2 + SBP + WB + XBP + TG + 1;  // op, set, way, sector, tag, alloc
  const string a = "a" + to_string(j) + "_";
  std::vector<Value> col;
  for (unsigned i = 0; i < N; ++i)
    col.push_back(i == j ? q.lreq[i] : remote() ? q.rreq[i] & Value(core_[i].rj).bit(j) : lit(1, 0));
  Value req = m_.wire(a + "preq", hdl::cat_lsb_first(col));
  Value win = remote() ? hdl::round_robin_pick(m_.top(), a + "win", req, arr_[j].ptr) : req;
  PortCmd pc;
  pc.gv = m_.wire(a + "gv", any(win));
  if (remote()) arr_[j].ptr.next_if(pc.gv, hdl::rotate_left1(win));
  Value cmd = m_.wire(a + "cmd", sel(win, q.recs, N, RB));
  unsigned o = 0;
  auto take = [&](unsigned w) { Value v = cmd.slice(o, w); o += w; return v; };
  pc.op = take(2), pc.set = take(SBP), pc.way = take(WB), pc.sec = take(XBP);
  Value tag = take(TG), alloc = take(1);
  m_.unused(a + "cmd_tag_alloc", cat({alloc, tag}));
  // Array j changes only by core j's commands (a remote read changes nothing),
  // so its update takes core j's own record and one bit of the arbitration.
  const Core& ow = core_[j];
  // the same bit as win[j], as one flat term: it fans out to every entry
  Value own_bit = remote() ? hdl::round_robin_bit(req, arr_[j].ptr, j) : win.bit(j);
  Value own_win = m_.wire(a + "own", own_bit), oop = own_op_[j], oalloc = ~ow.lm;
  update_array(j, own_win, oop, ow.set_oh, hdl::one_of(W, own_way_[j]), ow.sec_oh, ow.tag, oalloc);
  for (unsigned i = 0; i < N; ++i) win_bits[i].push_back(win.bit(i));
  if (remote())
    kills_.push_back(m_.wire(a + "kill", own_win & ((oop == lit(2, kOpWrite)) | ((oop == lit(2, kOpFill)) & oalloc))));
  cmd_set_.push_back(ow.set);
  cmd_way_.push_back(own_way_[j]);
  pc.core = N > 1 ? hdl::onehot_index(win, CI) : lit(CI, 0);
  return pc;
}

// The port outputs: registered commands, data held between commands.
void AtaEmitter::port_outputs(const std::vector<PortCmd>& cmds) {
  std::vector<Value> gvs;
  for (const PortCmd& pc : cmds) gvs.push_back(pc.gv);
  Reg dv = m_.reg("da_valid", N);
  dv.next(hdl::cat_lsb_first(gvs));
  io_.da_valid_o.drive(dv);
  auto out = [&](const string& name, unsigned w, Value PortCmd::*field, Wire& port) {
    std::vector<Value> regs;
    for (unsigned j = 0; j < N; ++j) {
      Reg r = m_.reg(name + to_string(j), w);
      r.next_if(cmds[j].gv, cmds[j].*field);
      regs.push_back(r);
    }
    port.drive(hdl::cat_lsb_first(regs));
  };
  out("da_op_", 2, &PortCmd::op, io_.da_op_o);
  out("da_set_", SBP, &PortCmd::set, io_.da_set_o);
  out("da_way_", WB, &PortCmd::way, io_.da_way_o);
  out("da_sector_", XBP, &PortCmd::sec, io_.da_sector_o);
  out("da_core_", CI, &PortCmd::core, io_.da_core_o);
}

// The per-core port requests, the arbitration of every data-array port, the
// winner's command registered on the port and applied to the array; sets
// each core's grant.
void AtaEmitter::ports(std::vector<Value>& granted, const std::vector<Value>& ok) {
  const Requests q = port_requests(ok);
  std::vector<std::vector<Value>> win_bits(N);
  std::vector<PortCmd> cmds;
  for (unsigned j = 0; j < N; ++j) cmds.push_back(arbitrate(j, q, win_bits));
  for (unsigned i = 0; i < N; ++i) granted[i] = m_.wire("c" + to_string(i) + "_grant", hdl::or_of(win_bits[i], lit(1, 0)));
  port_outputs(cmds);
}

// Array j after its port's command: a fill allocates (valid, tag, one sector,
// clean) or adds a sector; a write marks the line dirty; every command but a
// remote read touches the way.
void AtaEmitter::update_array(unsigned j, const Value& gv, const Value& op, const Value& set_oh,
                              const Value& way_oh, const Value& sec_oh, const Value& tag, const Value& alloc) {
  Array& r = arr_[j];
  const string a = "a" + to_string(j) + "_";
  Value fill = m_.wire(a + "fill", gv & (op == lit(2, kOpFill)));
  Value write = m_.wire(a + "write", gv & (op == lit(2, kOpWrite)));
  Value touch = m_.wire(a + "touch", gv & (op != lit(2, kOpRemoteRead)));
  Wire so = m_.wire(a + "cset", S, true), wo = m_.wire(a + "cway_oh", W, true);
  so.drive(set_oh);
  wo.drive(way_oh);
  Value fa = m_.wire(a + "alloc", fill & alloc), csec = m_.wire(a + "csec", sec_oh), ctag = m_.wire(a + "ctag", tag);
  Wire vn = m_.wire(a + "valid_next", S * W), tn = m_.wire(a + "tag_next", S * W * TG),
       sn = m_.wire(a + "sv_next", S * W * SC), dn = m_.wire(a + "dirty_next", S * W);
  m_.generate_for(a + "ge", S * W, "g_" + a + "entry", [&](Scope& sc, const Index& e) {
    const Index s = e / Index(W), w = e % Index(W);
    Value at = sc.wire("at", so.bit(s) & wo.bit(w));
    Value f = sc.wire("f", fill & at), fe = sc.wire("fe", fa & at);
    const Index to = e * Index(TG), vo = e * Index(SC);
    Value sv = r.sv.part(vo, SC);
    sc.assign(vn.bit(e), fe | r.valid.bit(e));
    sc.assign(tn.part(to, TG), mux(fe, ctag, r.tag.part(to, TG)));
    sc.assign(sn.part(vo, SC), mux(f, mux(alloc, csec, sv | csec), sv));
    sc.assign(dn.bit(e), (write & at) | (~fe & r.dirty.bit(e)));
  });
  r.valid.next(vn);
  r.tag.next(tn);
  r.sv.next(sn);
  r.dirty.next(dn);
  // The touch lands one edge after the grant, from registers, so the port's
  // arbitration is not in front of the age compares. Invisible: array j's
  // replacement state changes only by core j's commands, and core j next reads
  // it in the compare of its next request, two edges after the grant at the
  // earliest (IDLE, then CMP); a core has one command at a time, so a pending
  // touch never meets another.
  Reg tv = m_.reg(a + "tv", 1), tw = m_.reg(a + "tway", W);
  tv.next(touch);
  tw.next(way_oh);
  Value tset = set_oh;
  if (S > 1) {
    Reg ts = m_.reg(a + "tset", S);
    ts.next(set_oh);
    tset = ts;
  }
  update_replacement(j, tv, tset, tw);
}

// Array j's replacement state after a touch of (set, way) (one-hot each).
void AtaEmitter::update_replacement(unsigned j, const Value& touch, const Value& so, const Value& wo) {
  Array& r = arr_[j];
  const string a = "a" + to_string(j) + "_";
  const Value set = S > 1 ? so : Value();
  if (p_.plru()) {
    const Value tree = hdl::vector_wire(m_.top(), a + "plru_w", r.plru);
    r.plru.next(hdl::plru_next(m_.top(), a + "plru_next", tree, S, W, {{hdl::Touch::kTouch, touch, set, wo, "ts", {}}}));
    return;
  }
  // the touched way's age: its set's row, then the way
  const Value ta = m_.wire(a + "tage", sel(wo, hdl::lru_ages_row(m_.top(), a + "trow", r.age, S, W, so), W, WB));
  hdl::AgeEdge e;
  e.touch = touch;
  e.set = set;
  e.way = wo;
  const auto below = [&ta](Scope&, const Index&, const Value& age) { return age < ta; };
  r.ages->next(hdl::lru_ages_next(m_.top(), a + "age_next", r.age, S, W, e, below, false).ages);
}

// The remote holder core i reads after a local miss (one-hot over arrays):
// `nearest` takes the first holder above i (wrapping), `round_robin` the
// first at or above the pointer rp.
Value remote_pick(Module& m, unsigned i, unsigned N, const Value& holders, bool round_robin, const Value& rp) {
  const string c = "c" + to_string(i) + "_";
  if (round_robin) return hdl::round_robin_pick(m.top(), c + "pick", holders, rp);
  return hdl::round_robin_fixed(m.top(), c + "pick", holders, (i + 1) % N);
}

void AtaEmitter::controllers(const std::vector<Value>& granted, const std::vector<Value>& ok,
                             const std::vector<Value>& pick) {
  std::vector<Value> ready, l2v, l2w, l2a, resp;
  std::vector<Reg> src;
  for (unsigned i = 0; i < N; ++i) {
    Core& k = core_[i];
    const string c = "c" + to_string(i) + "_";
    Value g = granted[i];
    Value l2r = io_.l2_req_ready_i.bit(i), l2d = io_.l2_resp_valid_i.bit(i);
    Value acc = m_.wire(c + "acc", is(k, kIdle) & io_.req_valid_i.bit(i));
    Value own_hit = Value(k.hv).bit(own(i));
    Value far = remote() ? any(pick[i]) : lit(1, 0);
    auto st = [](State s) { return lit(kStateBits, s); };
    Value dist = mux(k.wr, st(kL2req), mux(own_hit, st(kLread), mux(far, st(kRread), st(kL2req))));
    Value after_l2 = mux(k.wr, mux(own_hit, st(kLwrite), st(kIdle)), st(kL2wait));
    k.st.next(hdl::priority({{acc, st(kCmp)},
                             {is(k, kCmp), st(kDist)},
                             {is(k, kDist), dist},
                             {is(k, kRread) & ~ok[i], st(kL2req)},
                             {is(k, kRread) & g, st(kFill)},
                             {(is(k, kLread) | is(k, kFill) | is(k, kLwrite)) & g, st(kIdle)},
                             {is(k, kL2req) & l2r, after_l2},
                             {is(k, kL2wait) & l2d, st(kFill)}},
                            k.st));
    k.wr.next_if(acc, io_.req_write_i.bit(i));
    k.addr.next_if(acc, io_.req_addr_i.field(i, A));
    if (S > 1) k.soh.next_if(acc, hdl::one_of(S, io_.req_addr_i.field(i, A).slice(p_.offset_bits, p_.set_bits)));
    std::vector<Value> hv, way;
    for (unsigned j = 0; j < N; ++j) {
      if (!k.hit[j].valid()) continue;
      hv.push_back(any(k.hit[j]));
      way.push_back(hdl::onehot_index(k.hit[j], WB));
    }
    Value cmp = is(k, kCmp);
    k.hv.next_if(cmp, hdl::cat_lsb_first(hv));
    k.way.next_if(cmp, hdl::cat_lsb_first(way));
    k.lm.next_if(cmp, any(k.lmatch));
    k.lway.next_if(cmp, hdl::onehot_index(k.lmatch, WB));
    if (remote()) {
      k.rj.next_if(is(k, kDist), pick[i]);
      if (p_.round_robin()) k.rp.next_if(is(k, kDist) & ~k.wr & ~own_hit & far, hdl::rotate_left1(pick[i]));
    }
    k.fs.next(mux(is(k, kL2wait) & l2d, lit(1, 1), mux(is(k, kRread), lit(1, 0), k.fs)));
    Value done = m_.wire(c + "done", ((is(k, kLread) | is(k, kFill) | is(k, kLwrite)) & g) |
                                         (is(k, kL2req) & l2r & k.wr & ~own_hit));
    Value source = mux(is(k, kFill), mux(k.fs, lit(2, 2), lit(2, 1)), mux(is(k, kL2req), lit(2, 2), lit(2, 0)));
    Reg r = m_.reg(c + "resp_src", 2);
    r.next_if(done, source);
    src.push_back(r);
    resp.push_back(done);
    ready.push_back(is(k, kIdle));
    l2v.push_back(is(k, kL2req));
    l2w.push_back(k.wr);
    l2a.push_back(k.addr);
  }
  Reg rv = m_.reg("resp_valid", N);
  rv.next(hdl::cat_lsb_first(resp));
  io_.resp_valid_o.drive(rv);
  io_.resp_src_o.drive(hdl::cat_lsb_first(std::vector<Value>(src.begin(), src.end())));
  io_.req_ready_o.drive(hdl::cat_lsb_first(ready));
  io_.l2_req_valid_o.drive(hdl::cat_lsb_first(l2v));
  io_.l2_req_write_o.drive(hdl::cat_lsb_first(l2w));
  io_.l2_req_addr_o.drive(hdl::cat_lsb_first(l2a));
}

// The recheck of RREAD as a register, so no cycle holds both a tag compare
// and the port arbitration: entering RREAD it is the chosen pair's hit at the
// registered way (the comparator group of the DIST cycle), less a kill of
// that line by the DIST edge's command on that port; in RREAD it clears when
// a command kills the line. A remote array's entry changes only by its own
// port's commands, so this equals the contract's recheck of every cycle.
void AtaEmitter::recheck_register(const std::vector<Value>& pick) {
  for (unsigned i = 0; i < N; ++i) {
    Core& k = core_[i];
    const string c = "c" + to_string(i) + "_";
    std::vector<Value> first, stay;
    for (unsigned j = 0; j < N; ++j) {
      if (j == i) continue;
      Value w = Value(k.way).field(j, WB);
      Value at = m_.wire(c + "kill_a" + to_string(j),
                         kills_[j] & (S > 1 ? cmd_set_[j] == k.set : lit(1, 1)) & (cmd_way_[j] == w));
      first.push_back(pick[i].bit(j) & any(k.hit[j] & hdl::one_of(W, w)) & ~at);
      stay.push_back(Value(k.rj).bit(j) & ~at);
    }
    Value dist = is(k, kDist);
    k.ok.next(mux(dist, hdl::or_of(first, lit(1, 0)), k.ok & hdl::or_of(stay, lit(1, 0))));
  }
}

std::string AtaEmitter::emit() {
  N = p_.cores, S = p_.sets, W = p_.ways, SC = p_.sectors, TG = p_.tag_bits, WB = p_.way_bits;
  CI = p_.core_bits, A = p_.addr_bits, SBP = p_.set_port_bits, XBP = p_.sector_port_bits;
  module_header(m_, ctx_, "ata",
                string("aggregated tag array, request distributor and data-port arbitration") +
                    (p_.aggregated() ? "" : ", private baseline") + " (docs/blocks/ata.md)",
                params_json(p_));
  m_.clock_and_reset();
  TXGEN_DECLARE_PORTS(TXGEN_ATA_PORTS, m_, p_, io_);
  declare_arrays();
  declare_cores();
  for (unsigned i = 0; i < N; ++i) compare(i);
  std::vector<Value> ok(N, lit(1, 0)), pick(N), granted(N);
  if (remote()) {
    for (unsigned i = 0; i < N; ++i) {
      Core& k = core_[i];
      const string c = "c" + to_string(i) + "_";
      ok[i] = k.ok;
      Value holders = m_.wire(c + "holders", Value(k.hv) & ~lit(N, uint64_t{1} << i));
      pick[i] = remote_pick(m_, i, N, holders, p_.round_robin(), p_.round_robin() ? Value(k.rp) : Value());
    }
  }
  ports(granted, ok);
  if (remote()) recheck_register(pick);
  controllers(granted, ok, pick);
  return m_.render();
}

}  // namespace

std::string emit_top(const AtaParams& p, const EmitContext& ctx) { return AtaEmitter(p, ctx).emit(); }

namespace {

BlockOutput emit_ata(const config::Config& cfg, const EmitContext& ctx) {
  const AtaParams p = elab::elaborate_ata(cfg);
  BlockOutput out;
  out.files.push_back({p.module_prefix + ".v", emit_top(p, ctx)});
  out.parameters = params_json(p);
  return out;
}

std::vector<std::string> synth_tops(const config::Config& c) { return {elab::elaborate_ata(c).module_prefix}; }

// Each core's L1 data array, outside the block (its da_* ports address one
// sector of a line): the same beside ATA and the private baseline.
std::vector<SramArray> sram_arrays(const config::Config& c) {
  const AtaParams p = elab::elaborate_ata(c);
  return {{p.module_prefix, "L1 data array", p.cores, {p.sets * p.ways * p.sectors, p.sector_bytes * 8, 1}}};
}

std::vector<CosimTop> cosim_tops(const config::Config& c) {
  const AtaParams p = elab::elaborate_ata(c);
  return {{"sys", p.module_prefix, ports::ata_ports(p)}};
}

// Per core, from the ports; da_op_o bit 1 marks the writes (docs/blocks/ata.md, Data arrays).
std::vector<power::Operation> power_operations(const config::Config& c) {
  const std::string m = elab::elaborate_ata(c).module_prefix;
  return {{m, "request", {"req_valid_i", "req_ready_o"}},
          {m, "response", {"resp_valid_o"}},
          {m, "remote hit", {"resp_valid_o", "resp_src_o:0/2", "!resp_src_o:1/2"}},
          {m, "L2 request", {"l2_req_valid_o", "l2_req_ready_i"}},
          {m, "L1 data array read", {"da_valid_o", "!da_op_o:1/2"}},
          {m, "L1 data array write", {"da_valid_o", "da_op_o:1/2"}}};
}

}  // namespace
}  // namespace txgen::blocks::ata

namespace txgen::blocks {

BlockInfo ata_block() {
  BlockInfo b;
  b.name = "ata";
  b.summary = "aggregated tag array with tag selectors, request distributor and data-port arbitration (seed 003, III)";
  b.configured = [](const config::Config& c) { return c.ata.has_value(); };
  b.emit = ata::emit_ata;
  b.report_json = ata::report_json;
  b.report_markdown = ata::report_markdown;
  b.synth_tops = ata::synth_tops;
  b.cosim_tops = ata::cosim_tops;
  b.sram_arrays = ata::sram_arrays;
  b.power_operations = ata::power_operations;
  return b;
}

}  // namespace txgen::blocks
