// Emission of the instruction-aware I-cache with translation ways
// (docs/blocks/icache_tx.md): ports, line modes, per-set recency, the
// instruction fetch and fill paths, the kernel flush and the SRAM port
// multiplexers. The translation engine is in icache_tx_engine.cpp.
#include <algorithm>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "txgen/blocks/bd_codec_layout.h"
#include "txgen/blocks/icache_tx_emit.h"
#include "txgen/elab/bits.h"

namespace txgen::blocks::icache {

using elab::IcacheTxParams;
using hdl::Cases;
using hdl::Module;
using hdl::Reg;
using hdl::Value;
using hdl::Wire;
using std::string;
using std::to_string;

unsigned entry_width(const IcacheTxParams& p, bool baseline) { return baseline ? p.base_tag_bits : p.entry_bits; }

std::vector<SramArray> sram_arrays(const IcacheTxParams& p, const std::string& module, bool baseline) {
  const unsigned e = entry_width(p, baseline);
  return {{module, "tag array", 1, {p.sets, p.ways * e, p.ways}}, {module, "data array", 1, {p.lines, p.line_bits, 1}}};
}

// From the ports both modules share (docs/power.md); the translation ports only with translation ways.
std::vector<power::Operation> power_operations(const std::string& config_name) {
  const std::string m = "icache_tx_" + config_name;
  std::vector<power::Operation> ops = {{m, "fetch", {"if_valid_i", "if_ready_o"}},
                                       {m, "translation lookup", {"tl_valid_i", "tl_ready_o"}},
                                       {m, "translation hit", {"tl_resp_valid_o", "tl_resp_ready_i", "tl_resp_hit_o"}},
                                       {m, "translation fill", {"tf_valid_i", "tf_ready_o"}},
                                       {m + "_base", "fetch", {"if_valid_i", "if_ready_o"}}};
  for (const std::string& module : {m, m + "_base"})
    for (const auto& [array, en, we] : {std::tuple{"tag array", "tag_en_o", "tag_we_o"},
                                        std::tuple{"data array", "data_en_o", "data_we_o"}})
      for (power::Operation& op : power::sram_accesses(module, array, {en}, we)) ops.push_back(std::move(op));
  return ops;
}

Value Io::input(const string& name, unsigned width, const string& comment) {
  const Value port = m.input(name, width, comment);
  ports.push_back({name, port});
  return port;
}

Wire Io::output(const string& name, unsigned width, const string& comment) {
  const Wire port = m.output(name, width, comment);
  ports.push_back({name, port});
  return port;
}

void header(Module& m, const IcacheTxParams& p, const EmitContext& ctx, const string& role) {
  module_header(m, ctx, "icache_tx", role, params_json(p));
}

void instruction_ports(Io& io, const IcacheTxParams& p) {
  InstructionPorts& i = io.ins;
  i.if_valid_i = io.input("if_valid_i", 1, "instruction fetch (from the fetch unit)");
  i.if_ready_o = io.output("if_ready_o", 1);
  i.if_addr_i = io.input("if_addr_i", p.va_bits);
  i.if_resp_valid_o = io.output("if_resp_valid_o", 1, "2 cycles after accept");
  i.if_resp_hit_o = io.output("if_resp_hit_o", 1);
  i.if_resp_data_o = io.output("if_resp_data_o", p.line_bits, "the data SRAM read data (meaningful on a hit)");
  i.ifill_valid_i = io.input("ifill_valid_i", 1, "instruction line fill (from the L2)");
  i.ifill_ready_o = io.output("ifill_ready_o", 1);
  i.ifill_addr_i = io.input("ifill_addr_i", p.va_bits);
  i.ifill_data_i = io.input("ifill_data_i", p.line_bits);
  i.flush_valid_i = io.input("flush_valid_i", 1, "kernel-boundary flush command");
  i.flush_ready_o = io.output("flush_ready_o", 1);
  i.flush_done_o = io.output("flush_done_o", 1, "pulse");
}

void translation_ports(Io& io, const IcacheTxParams& p) {
  const unsigned s = p.sharers;
  TranslationPorts& t = io.tx;
  t.tl_valid_i = io.input("tl_valid_i", s, "lookup after an LDS miss, one per CU");
  t.tl_ready_o = io.output("tl_ready_o", s);
  t.tl_vpn_i = io.input("tl_vpn_i", s * p.vpn_bits);
  t.tl_vmid_i = io.input("tl_vmid_i", s * p.vmid_bits);
  t.tl_vrf_i = io.input("tl_vrf_i", s * p.vrf_bits);
  t.tl_resp_valid_o = io.output("tl_resp_valid_o", 1);
  t.tl_resp_ready_i = io.input("tl_resp_ready_i", 1);
  t.tl_resp_cu_o = io.output("tl_resp_cu_o", p.cu_bits);
  t.tl_resp_hit_o = io.output("tl_resp_hit_o", 1, "0: miss, go to the L2-TLB");
  t.tl_resp_ppn_o = io.output("tl_resp_ppn_o", p.ppn_bits);
  t.tl_resp_perm_o = io.output("tl_resp_perm_o", p.perm_bits);
  t.tf_valid_i = io.input("tf_valid_i", s, "translation fill (LDS victim or bypass), one per CU");
  t.tf_ready_o = io.output("tf_ready_o", s);
  t.tf_vpn_i = io.input("tf_vpn_i", s * p.vpn_bits);
  t.tf_vmid_i = io.input("tf_vmid_i", s * p.vmid_bits);
  t.tf_vrf_i = io.input("tf_vrf_i", s * p.vrf_bits);
  t.tf_ppn_i = io.input("tf_ppn_i", s * p.ppn_bits);
  t.tf_perm_i = io.input("tf_perm_i", s * p.perm_bits);
  t.vic_valid_o = io.output("vic_valid_o", 1, "victim towards the L2-TLB");
  t.vic_ready_i = io.input("vic_ready_i", 1);
  t.vic_vpn_o = io.output("vic_vpn_o", p.vpn_bits);
  t.vic_vmid_o = io.output("vic_vmid_o", p.vmid_bits);
  t.vic_vrf_o = io.output("vic_vrf_o", p.vrf_bits);
  t.vic_ppn_o = io.output("vic_ppn_o", p.ppn_bits);
  t.vic_perm_o = io.output("vic_perm_o", p.perm_bits);
  t.sd_valid_i = io.input("sd_valid_i", 1, "translation shootdown");
  t.sd_ready_o = io.output("sd_ready_o", 1);
  t.sd_all_i = io.input("sd_all_i", 1);
  t.sd_vpn_i = io.input("sd_vpn_i", p.vpn_bits);
  t.sd_vmid_i = io.input("sd_vmid_i", p.vmid_bits);
  t.sd_done_o = io.output("sd_done_o", 1, "pulse");
}

void sram_ports(Io& io, const IcacheTxParams& p, bool baseline, SramSide side) {
  const unsigned e = entry_width(p, baseline);
  SramPorts& s = io.sram;
  // the read data: an input of the controller; in the co-simulation top, the
  // SRAM's read data wire, connected to the controller's port of that name
  auto read = [&](const string& name, unsigned w) {
    if (side == SramSide::Controller) return io.input(name + "_i", w, "one cycle after a read");
    const Value v = io.m.wire(name, w);
    io.ports.push_back({name + "_i", v});
    return v;
  };
  s.tag_en_o = io.output("tag_en_o", 1);
  s.tag_we_o = io.output("tag_we_o", 1);
  s.tag_set_o = io.output("tag_set_o", p.set_bits);
  s.tag_way_en_o = io.output("tag_way_en_o", p.ways);
  s.tag_wdata_o = io.output("tag_wdata_o", p.ways * e);
  s.tag_rdata_i = read("tag_rdata", p.ways * e);
  s.data_en_o = io.output("data_en_o", 1);
  s.data_we_o = io.output("data_we_o", 1);
  s.data_line_o = io.output("data_line_o", p.line_index_bits);
  s.data_wdata_o = io.output("data_wdata_o", p.line_bits);
  s.data_rdata_i = read("data_rdata", p.line_bits);
}

namespace {

unsigned pairs(const IcacheTxParams& p) { return p.ways * (p.ways - 1) / 2; }

// Position of the recency bit of ways i < j within a set's pair vector.
unsigned pair_index(const IcacheTxParams& p, unsigned i, unsigned j) {
  unsigned k = 0;
  for (unsigned a = 0; a < i; ++a) k += p.ways - 1 - a;
  return k + (j - i - 1);
}

// ---------------------------------------------------------------------------
// Line modes: lv (valid) and ltx (Tx-mode when valid); Invalid after reset.

void line_modes(Ctl& c) {
  Module& m = c.m;
  const unsigned nl = c.p.lines;
  m.comment("line modes: Invalid (lv 0), IC (lv 1, ltx 0), Tx (lv 1, ltx 1)");
  // line {w, s} is written when way w of set s is the fill's: from the fill's
  // one-hot registers, no line decoder
  std::vector<Value> fill_lines;
  for (unsigned w = c.p.ways; w-- > 0;) fill_lines.push_back(hdl::gate(c.ifill_fire & c.fway.bit(w), c.fsel));
  Value ifill_w = m.wire("ifill_w", hdl::cat(fill_lines));
  Value flush_all = hdl::rep(nl, c.flush_fire);
  if (c.baseline) return c.lv.next(ifill_w | (c.lv & ~flush_all));
  Value flush_clear = c.p.kernel_flush ? flush_all & ~c.ltx : flush_all;
  Value mode_clear = m.wire("mode_clear", flush_clear | (hdl::rep(nl, c.sd_all_fire) & c.ltx));
  Value eng_line_sel = m.wire("eng_line_sel", c.lsel);
  Value eng_set_tx = m.wire("eng_set_tx", hdl::gate(c.eng_init, eng_line_sel));
  Value eng_empty_v = m.wire("eng_empty_v", hdl::gate(c.eng_empty, eng_line_sel));
  c.lv.next(ifill_w | eng_set_tx | (c.lv & ~mode_clear & ~eng_empty_v));
  c.ltx.next((c.ltx & ~ifill_w) | eng_set_tx);
}

// ---------------------------------------------------------------------------
// Per-set recency: one bit per pair of ways i < j, set when i is the more
// recent. The zero reset makes way 0 the least recent.

// hot[s]: set s is touched (no set decoder on the touch path).
Value touch_pair(const Value& hot, const Value& way, unsigned s, unsigned i, unsigned j) {
  return hot.bit(s) & (way.bit(i) | way.bit(j));
}

void recency(Ctl& c) {
  const unsigned np = pairs(c.p);
  c.m.comment("recency per set: bit (i, j) = way i more recent than way j (i < j)");
  for (unsigned s = 0; s < c.p.sets; ++s) {
    std::vector<Value> set_bits;  // pair 0 first
    for (unsigned i = 0; i < c.p.ways; ++i)
      for (unsigned j = i + 1; j < c.p.ways; ++j) {
        // the last touch wins, so it is checked first: the fill's, the fetch's
        // (I2), then the engine's
        Cases cases = {{touch_pair(c.tf_hot, c.tf_way, s, i, j), c.tf_way.bit(i)},
                       {touch_pair(c.tk_hot, c.tk_way, s, i, j), c.tk_way.bit(i)}};
        if (!c.baseline) cases.push_back({touch_pair(c.te_hot, c.te_way, s, i, j), c.te_way.bit(i)});
        set_bits.push_back(hdl::priority(cases, c.age.bit(s * np + pair_index(c.p, i, j))));
      }
    c.m.assign(c.age.d().slice(s * np, np), hdl::cat_lsb_first(set_bits));
  }
}

// One-hot least recent way among `mask`, from the set's pair bits `age`.
Value lru_of(const IcacheTxParams& p, const Value& age, const Value& mask, unsigned i) {
  Value t = mask.bit(i);
  for (unsigned j = 0; j < p.ways; ++j) {
    if (j == i) continue;
    const Value older = i < j ? ~age.bit(pair_index(p, i, j)) : age.bit(pair_index(p, j, i));
    t = t & (~mask.bit(j) | older);
  }
  return t;
}

Value lru_mask(Ctl& c, const string& name, const Value& age, const Value& mask) {
  Wire lru = c.m.wire(name, c.p.ways);
  for (unsigned i = 0; i < c.p.ways; ++i) c.m.assign(lru.bit(i), lru_of(c.p, age, mask, i));
  return lru;
}

// ---------------------------------------------------------------------------
// Instruction fill stage, fs: 0 idle (F0 captures the set), 1 decide (F1),
// 2 write (F2, ready).

struct FillStage {
  Reg fs;
  Value f0, f1;
};

FillStage fill_stage(Ctl& c) {
  Module& m = c.m;
  const Value addr = c.io.ins.ifill_addr_i;
  FillStage f;
  m.comment("instruction fill: set captured (F0), victim way by the variant's rule (F1), write (F2)");
  f.fs = c.fs = m.reg("fs", 2);
  f.f0 = m.wire("f0", f.fs == 0);
  f.f1 = m.wire("f1", f.fs == 1);
  c.f2 = m.wire("f2", f.fs == 2);
  Value f_cap = m.wire("f_cap", f.f0 & c.io.ins.ifill_valid_i);
  Value ifill_set = m.wire("ifill_set", addr.slice(c.p.offset_bits, c.p.set_bits));
  m.unused("ifill_offset", addr.slice(0, c.p.offset_bits));
  c.fset = m.reg_noreset("fset", c.p.set_bits);
  c.fset.next_if(f_cap, ifill_set);
  c.fsel = m.reg_noreset("fsel", c.p.sets);
  c.fsel.next_if(f_cap, hdl::one_of(c.p.sets, ifill_set));
  return f;
}

// ---------------------------------------------------------------------------
// Instruction fetch: tag read at accept, compare in I1 (data read on a hit),
// response in I2.

Value f1_hits(Ctl& c, const Value& s1_sel, const Value& s1_tag) {
  const unsigned e = entry_width(c.p, c.baseline), ns = c.p.sets;
  Wire hit = c.m.wire("f1_hit", c.p.ways);
  for (unsigned w = 0; w < c.p.ways; ++w) {
    Value lines = c.lv.slice(w * ns, ns);
    if (!c.baseline) lines = lines & ~c.ltx.slice(w * ns, ns);
    c.m.assign(hit.bit(w), hdl::any(lines & s1_sel) & (c.io.sram.tag_rdata_i.slice(w * e, c.p.itag_bits) == s1_tag));
  }
  return hit;
}

void fetch(Ctl& c) {
  Module& m = c.m;
  const unsigned ob = c.p.offset_bits, si = c.p.set_bits;
  const Value addr = c.io.ins.if_addr_i;
  m.comment("instruction fetch");
  c.s1_valid = m.reg("s1_valid", 1);
  c.io.ins.ifill_ready_o.drive(c.f2 & ~c.s1_valid);
  c.ifill_fire = m.wire("ifill_fire", c.io.ins.ifill_valid_i & c.f2 & ~c.s1_valid);
  c.io.ins.if_ready_o.drive(~c.ifill_fire);
  c.if_fire = m.wire("if_fire", c.io.ins.if_valid_i & ~c.ifill_fire);
  c.if_set = m.wire("if_set", addr.slice(ob, si));
  m.unused("if_offset", addr.slice(0, ob));
  c.s1_set = m.reg("s1_set", si);
  Reg s1_tag = m.reg("s1_tag", c.p.itag_bits);
  c.s1_valid.next(c.if_fire);
  c.s1_set.next_if(c.if_fire, c.if_set);
  s1_tag.next_if(c.if_fire, addr.slice(ob + si, c.p.itag_bits));
  // the set one-hot as well: I1 reads the modes and touches with AND-ORs
  Reg s1_sel = c.s1_sel = m.reg_noreset("s1_sel", c.p.sets);
  s1_sel.next_if(c.if_fire, hdl::one_of(c.p.sets, c.if_set));
  Value f1_hit = f1_hits(c, s1_sel, s1_tag);
  Value f1_hit_oh = hdl::lowest_one(m.top(), "f1_hit_oh", f1_hit);
  c.f1_any = m.wire("f1_any", c.s1_valid & hdl::any(f1_hit));
  c.f1_way = m.wire("f1_way", hdl::onehot_index(f1_hit_oh, c.p.way_bits));
  Reg s2_valid = m.reg("s2_valid", 1), s2_hit = m.reg("s2_hit", 1);
  s2_valid.next(c.s1_valid);
  s2_hit.next(c.f1_any);
  // the hit's touch, registered and applied at the edge of I2: the compare does
  // not feed the recency of every set in the same cycle
  Reg s2_sel = m.reg_noreset("s2_sel", c.p.sets), s2_way = m.reg_noreset("s2_way", c.p.ways);
  s2_sel.next(s1_sel);
  s2_way.next(f1_hit_oh);
  c.tk_hot = m.wire("tk_hot", hdl::gate(s2_valid & s2_hit, s2_sel));
  c.tk_way = m.wire("tk_way", s2_way);
  c.io.ins.if_resp_valid_o.drive(s2_valid);
  c.io.ins.if_resp_hit_o.drive(s2_hit);
  c.io.ins.if_resp_data_o.drive(c.io.sram.data_rdata_i);
}

// Instruction fill: the victim way of the fill's set, chosen in F1 from
// flip-flops (the captured set, one-hot) and registered for the write in F2.
struct FillWays {
  Value inv, tx, lru_inv, lru_all, lru_tx;
};

Value victim_rule(const Ctl& c, const FillWays& w) {
  const Value some_inv = hdl::any(w.inv);
  if (c.baseline || c.p.variant == config::IcacheVariant::Naive) return mux(some_inv, w.lru_inv, w.lru_all);
  const Value some_tx = hdl::any(w.tx);
  if (c.p.ifill_order == config::IfillOrder::TxFirst)
    return hdl::priority({{some_tx, w.lru_tx}, {some_inv, w.lru_inv}}, w.lru_all);
  return hdl::priority({{some_inv, w.lru_inv}, {some_tx, w.lru_tx}}, w.lru_all);
}

// The candidate ways of the fill's set: invalid and Tx-mode, and the LRU among them.
FillWays fill_ways(Ctl& c) {
  Module& m = c.m;
  const unsigned a = c.p.ways, ns = c.p.sets, np = pairs(c.p);
  std::vector<Value> sets;
  for (unsigned s = 0; s < ns; ++s) sets.push_back(hdl::gate(c.fsel.bit(s), c.age.slice(s * np, np)));
  Value fa = m.wire("fa", hdl::or_of(sets, hdl::zero(np)));
  FillWays w;
  Wire inv = m.wire("fw_inv", a), tx = m.wire("fw_tx", a);
  for (unsigned way = 0; way < a; ++way) {
    const Value lines = c.lv.slice(way * ns, ns) & c.fsel;  // way w's lines, set by set
    m.assign(inv.bit(way), ~hdl::any(lines));
    m.assign(tx.bit(way), c.baseline ? hdl::zero(1) : hdl::any(lines & c.ltx.slice(way * ns, ns)));
  }
  w.inv = inv;
  w.tx = tx;
  const bool aware = !c.baseline && c.p.variant == config::IcacheVariant::Aware;
  if (!aware) m.unused("fw_tx", tx);
  w.lru_inv = lru_mask(c, "lru_inv", fa, inv);
  w.lru_all = lru_mask(c, "lru_all", fa, m.wire("all_ways", hdl::ones(a)));
  if (aware) w.lru_tx = lru_mask(c, "lru_tx", fa, tx);
  return w;
}

void instruction_fill(Ctl& c, const FillStage& f) {
  Module& m = c.m;
  const Value valid = c.io.ins.ifill_valid_i;
  f.fs.next(hdl::priority({{~valid, hdl::lit(2, 0)}, {f.f0, hdl::lit(2, 1)}, {f.f1, hdl::lit(2, 2)},
                           {c.ifill_fire, hdl::lit(2, 0)}},
                          f.fs));
  const FillWays w = fill_ways(c);
  c.fway = m.reg_noreset("fway", c.p.ways);
  c.fway.next_if(f.f1, victim_rule(c, w));
  Value fv_way = m.wire("fv_way", hdl::onehot_index(c.fway, c.p.way_bits));
  c.ifill_line = m.wire("ifill_line", hdl::cat({fv_way, c.fset}));
  // the fill's touch: the per-set enables from flip-flops, the late
  // ifill_valid_i joined last
  Value tf_pre = m.wire("tf_pre", hdl::gate(c.f2 & ~c.s1_valid, c.fsel));
  c.tf_hot = m.wire("tf_hot", hdl::gate(valid, tf_pre));
  c.tf_way = m.wire("tf_way", c.fway);
}

void flush(Ctl& c) {
  c.m.comment("kernel flush");
  const Wire& ready = c.io.ins.flush_ready_o;
  ready.drive(c.baseline ? hdl::one_bit(true) : c.eng_idle);
  c.flush_fire = c.m.wire("flush_fire", c.io.ins.flush_valid_i & ready);
  Reg done = c.m.reg("flush_done", 1);
  done.next(c.flush_fire);
  c.io.ins.flush_done_o.drive(done);
}

// The tag port: instruction fill, then fetch (tag in I0), then the engine,
// which drives only when the port is free.
void tag_port(Ctl& c, const Value& fill_wdata) {
  const unsigned e = entry_width(c.p, c.baseline), a = c.p.ways, it = c.p.itag_bits;
  const SramPorts& s = c.io.sram;
  const Value ifill_fire = c.ifill_fire, if_valid = c.io.ins.if_valid_i;
  const Value itag = c.io.ins.ifill_addr_i.slice(c.p.offset_bits + c.p.set_bits, it);
  Value ifill_entry = c.m.wire("ifill_entry", hdl::zext(itag, e));
  if (c.baseline) {
    s.tag_en_o.drive(ifill_fire | c.if_fire);
    s.tag_we_o.drive(ifill_fire);
    s.tag_set_o.drive(mux(ifill_fire, c.fset, c.if_set));
    s.tag_way_en_o.drive(mux(ifill_fire, c.fway, hdl::ones(a)));
    s.tag_wdata_o.drive(hdl::rep(a, ifill_entry));
    return;
  }
  s.tag_en_o.drive(ifill_fire | c.if_fire | c.eng_tag_en);
  s.tag_we_o.drive(ifill_fire | c.eng_tag_we);
  s.tag_set_o.drive(mux(ifill_fire, c.fset, mux(if_valid, c.if_set, c.eng_tag_set)));
  s.tag_way_en_o.drive(mux(ifill_fire, c.fway, mux(if_valid, hdl::ones(a), c.eng_tag_way_en)));
  s.tag_wdata_o.drive(hdl::rep(a, mux(fill_wdata, ifill_entry, c.eng_tag_entry)));
}

// The data port: instruction fill, then fetch (data in I1), then the engine.
void data_port(Ctl& c, const Value& fill_wdata) {
  const SramPorts& s = c.io.sram;
  const Value ifill_fire = c.ifill_fire, ifill_data = c.io.ins.ifill_data_i;
  const Value fetch_line = hdl::cat({c.f1_way, c.s1_set});
  if (c.baseline) {
    s.data_en_o.drive(ifill_fire | c.f1_any);
    s.data_we_o.drive(ifill_fire);
    s.data_line_o.drive(mux(ifill_fire, c.ifill_line, fetch_line));
    s.data_wdata_o.drive(ifill_data);
    return;
  }
  s.data_en_o.drive(ifill_fire | c.f1_any | c.eng_data_en);
  s.data_we_o.drive(ifill_fire | c.eng_data_we);
  s.data_line_o.drive(mux(ifill_fire, c.ifill_line, mux(c.s1_valid, fetch_line, c.eng_data_line)));
  s.data_wdata_o.drive(mux(fill_wdata, ifill_data, c.eng_data_wdata));
}

void sram_mux(Ctl& c) {
  const unsigned e = entry_width(c.p, c.baseline), it = c.p.itag_bits;
  c.m.comment("SRAM ports: instruction traffic first");
  // write data select: the fill's whenever it is in F2 (a write by nobody else
  // is possible then), so the 512-bit select does not wait for s1
  Value fill_wdata = c.m.wire("fill_wdata", c.f2 & c.io.ins.ifill_valid_i);
  tag_port(c, fill_wdata);
  data_port(c, fill_wdata);
  if (c.baseline) c.m.unused("port_free", c.port_free);
  if (c.baseline) c.m.unused("fill_wdata", fill_wdata);
  // Tag bits above the instruction tag are read by the engine only.
  std::vector<Value> unused;
  const unsigned used = c.baseline ? it : std::max(it, c.p.tx_tag_bits);
  for (unsigned w = c.p.ways; w-- > 0;)
    if (e > used) unused.push_back(c.io.sram.tag_rdata_i.slice(w * e + used, e - used));
  if (c.baseline && !unused.empty()) c.m.unused("tag_rdata", hdl::cat(unused));
}

// ---------------------------------------------------------------------------
// Formal properties of the instruction side (txgen prove).

// bit {way, set} of a per-line vector (line = way x NS + set)
Value line_bit(const Ctl& c, const Value& lines, const Value& way, const Value& set) {
  return c.p.way_bits ? hdl::bit_at(lines, hdl::cat({way, set})) : hdl::bit_at(lines, set);
}

// The recency of every set is a strict order: no three ways in a cycle. One
// bit per set (f_order), so no line of the RTL grows with the set count.
Value recency_is_order(Ctl& c) {
  const unsigned np = pairs(c.p);
  hdl::Scope& f = c.m.formal();
  const hdl::Wire order = f.wire("f_order", c.p.sets);
  for (unsigned s = 0; s < c.p.sets; ++s) {
    std::vector<Value> ok;
    for (unsigned i = 0; i < c.p.ways; ++i)
      for (unsigned j = i + 1; j < c.p.ways; ++j)
        for (unsigned k = j + 1; k < c.p.ways; ++k) {
          auto r = [&](unsigned a, unsigned b) { return c.age.bit(s * np + pair_index(c.p, a, b)); };
          ok.push_back(~(r(i, j) & r(j, k) & ~r(i, k)) & ~(~r(i, j) & ~r(j, k) & r(i, k)));
        }
    f.assign(order.bit(s), hdl::and_of(ok, hdl::one_bit(true)));
  }
  return hdl::all(order);
}

// The instruction fill's candidate ways by the variant's order (the first
// non-empty class), from the line modes of the fill's set.
Value fill_candidates(Ctl& c) {
  hdl::Scope& f = c.m.formal();
  const unsigned a = c.p.ways;
  std::vector<Value> inv, tx;
  const Value tx_lines = f.wire("f_fill_tx_lines", c.lv & c.ltx);
  for (unsigned w = 0; w < a; ++w) {
    const Value way = hdl::lit(std::max(1u, c.p.way_bits), w);
    inv.push_back(~line_bit(c, c.lv, way, c.fset));
    tx.push_back(line_bit(c, tx_lines, way, c.fset));
  }
  const Value v_inv = f.wire("f_fill_inv", hdl::cat_lsb_first(inv)), v_tx = f.wire("f_fill_tx", hdl::cat_lsb_first(tx));
  const Value all = hdl::ones(a);
  Cases order = {{hdl::any(v_inv), v_inv}};
  if (c.p.variant == config::IcacheVariant::Aware) {
    if (c.p.ifill_order == config::IfillOrder::TxFirst) order.insert(order.begin(), {hdl::any(v_tx), v_tx});
    else order.push_back({hdl::any(v_tx), v_tx});
  }
  return f.wire("f_fill_class", hdl::priority(order, all));
}

}  // namespace

void instruction_properties(Ctl& c) {
  Module& m = c.m;
  const unsigned a = c.p.ways, np = pairs(c.p);
  const Value s1_line_ic = line_bit(c, m.formal().wire("f_ic_lines", c.lv & ~c.ltx), c.f1_way, c.s1_set);
  m.assert_always("fetch_hits_only_ic_lines", ~c.f1_any | s1_line_ic);
  m.assert_always("inv_fetch_set", ~c.s1_valid | (c.s1_sel == hdl::one_of(c.p.sets, c.s1_set)));
  // the victim decided in F1
  const Value f1 = c.fs == 1, victim = c.fway.d(), cls = fill_candidates(c);
  const Value fill_set = m.formal().wire("f_fill_set", hdl::one_of(c.p.sets, c.fset));
  const Value age = m.formal().wire("f_fill_age", hdl::onehot_select(fill_set, c.age, c.p.sets, np));
  std::vector<Value> least;
  for (unsigned v = 0; v < a; ++v) {
    Value older_than_all = victim.bit(v);
    for (unsigned u = 0; u < a; ++u) {
      if (u == v) continue;
      const Value older = v < u ? ~age.bit(pair_index(c.p, v, u)) : age.bit(pair_index(c.p, u, v));
      older_than_all = older_than_all & (~cls.bit(u) | older);
    }
    least.push_back(older_than_all);
  }
  auto one_hot = [](const Value& v) { return hdl::any(v) & ((v & (v - 1)) == 0); };
  m.assert_always("ifill_victim_by_order", ~f1 | (one_hot(victim) & ((victim & ~cls) == 0)));
  m.assert_always("inv_fill_way", (c.fs != 2) | one_hot(c.fway));
  m.assert_always("ifill_victim_least_recent", ~f1 | hdl::or_of(least, hdl::zero(1)));
  m.assert_always("inv_fill_set", (c.fs == 0) | (c.fsel == hdl::one_of(c.p.sets, c.fset)));
  m.assert_always("inv_recency_order", recency_is_order(c));
}

void instruction_side(Ctl& c) {
  const FillStage f = fill_stage(c);
  fetch(c);
  instruction_fill(c, f);
  c.port_free = c.m.wire("port_free", ~c.io.ins.if_valid_i & ~c.io.ins.ifill_valid_i & ~c.s1_valid);
}

void modes_and_ports(Ctl& c) {
  flush(c);
  line_modes(c);
  recency(c);
  sram_mux(c);
}

namespace {

std::unique_ptr<Module> emit_ctrl(const IcacheTxParams& p, const EmitContext& ctx, bool baseline) {
  auto mod = std::make_unique<Module>(baseline ? p.module_prefix + "_base" : p.module_prefix);
  Module& m = *mod;
  header(m, p, ctx, baseline ? "baseline I-cache controller, no translations"
                             : "controller (fetch latency 2 cycles; translation lookup 2 cycles "
                               "for a non-Tx line, at most 4 + compare groups for a Tx line)");
  m.clock_and_reset();
  Ctl c(m, p, baseline);
  instruction_ports(c.io, p);
  if (!baseline) translation_ports(c.io, p);
  sram_ports(c.io, p, baseline, SramSide::Controller);
  c.lv = m.reg("lv", p.lines);
  if (!baseline) c.ltx = m.reg("ltx", p.lines);
  c.age = m.reg("age", p.sets * pairs(p));
  instruction_side(c);
  if (!baseline) engine(c);
  modes_and_ports(c);
  if (!baseline) instruction_properties(c);
  return mod;
}

BlockOutput emit_icache_tx(const config::Config& cfg, const EmitContext& ctx) {
  const IcacheTxParams p = elab::elaborate_icache_tx(cfg);
  BlockOutput out;
  if (p.codec) out.files = bd_codec_core_files(*p.codec, ctx);
  std::vector<std::unique_ptr<Module>> modules;
  modules.push_back(emit_ctrl(p, ctx, false));
  modules.push_back(emit_ctrl(p, ctx, true));
  modules.push_back(emit_tag_sram(p, ctx, false));
  modules.push_back(emit_tag_sram(p, ctx, true));
  modules.push_back(emit_data_sram(p, ctx));
  modules.push_back(emit_sys(p, ctx, false));
  modules.push_back(emit_sys(p, ctx, true));
  for (const auto& m : modules) out.files.push_back({m->name() + ".v", m->render()});
  out.parameters = params_json(p);
  return out;
}

}  // namespace
}  // namespace txgen::blocks::icache

namespace txgen::blocks {

BlockInfo icache_tx_block() {
  BlockInfo b;
  b.name = "icache_tx";
  b.summary = "instruction-aware I-cache with translation ways (seed 000, 4.3)";
  b.configured = [](const config::Config& c) { return c.icache_tx.has_value(); };
  b.emit = icache::emit_icache_tx;
  b.report_json = icache::report_json;
  b.report_markdown = icache::report_markdown;
  b.synth_tops = [](const config::Config& c) {
    const std::string prefix = "icache_tx_" + c.name;
    return std::vector<std::string>{prefix, prefix + "_base"};
  };
  // every property closes at k = 1: two steps suffice
  b.prove_tops = [](const config::Config& c) { return std::vector<ProveTop>{{"icache_tx_" + c.name, 3}}; };
  b.sram_arrays = [](const config::Config& c) {
    const elab::IcacheTxParams p = elab::elaborate_icache_tx(c);
    std::vector<SramArray> arrays = icache::sram_arrays(p, p.module_prefix, false);
    for (const SramArray& a : icache::sram_arrays(p, p.module_prefix + "_base", true)) arrays.push_back(a);
    return arrays;
  };
  b.power_operations = [](const config::Config& c) { return icache::power_operations(c.name); };
  return b;
}

}  // namespace txgen::blocks
