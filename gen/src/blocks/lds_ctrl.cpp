// Emission of the reconfigurable LDS controller (docs/blocks/lds_ctrl.md):
// the translation engine, mode bits, allocation table and SRAM arbitration.
// The baseline, the behavioural SRAM and the co-simulation tops are in
// lds_ctrl_sim.cpp.
#include "txgen/blocks/lds_ctrl_emit.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "txgen/elab/bits.h"

namespace txgen::blocks::lds {

using elab::LdsCtrlParams;
using hdl::all;
using hdl::any;
using hdl::bit_at;
using hdl::gate;
using hdl::lit;
using hdl::mux;
using hdl::one_bit;
using hdl::priority;
using hdl::Reg;
using hdl::rep;
using hdl::Value;
using hdl::Wire;
using hdl::zero;
using hdl::zext;
using std::string;
using std::to_string;

string indexed(const string& base, unsigned i) { return base + to_string(i); }

// ---------------------------------------------------------------------------
// The controller's ports and engine comparisons

Value Ctl::input(const string& name, unsigned width, const string& comment) {
  const Value port = m.input(name, width, comment);
  ports.push_back({name, port});
  return port;
}

Wire Ctl::output(const string& name, unsigned width, const string& comment) {
  const Wire port = m.output(name, width, comment);
  ports.push_back({name, port});
  return port;
}

void Ctl::clock_and_reset() {
  clk_i = input("clk_i", 1);
  rst_ni = input("rst_ni", 1, "asynchronous, active low");
}

Value Ctl::state_is(State s) const { return eng.state == lit(kStateBits, s); }
Value Ctl::op_is(Op o) const { return eng.op == lit(kStateBits, o); }

// ---------------------------------------------------------------------------
// Ports

void header(hdl::Module& m, const LdsCtrlParams& p, const EmitContext& ctx, const string& role) {
  module_header(m, ctx, "lds_ctrl", role, params_json(p));
}

void translation_ports(Ctl& c) {
  const LdsCtrlParams& p = c.p;
  TranslationPorts& t = c.tx;
  t.wg_valid_i = c.input("wg_valid_i", 1, "work-group allocate/free from the dispatcher");
  t.wg_ready_o = c.output("wg_ready_o", 1);
  t.wg_free_i = c.input("wg_free_i", 1, "0 allocate, 1 free");
  t.wg_base_i = c.input("wg_base_i", p.segment_index_bits, "first segment");
  t.wg_size_i = c.input("wg_size_i", p.size_bits, "segments");
  t.wg_done_o = c.output("wg_done_o", 1, "pulse: allocate/free complete");
  t.sd_valid_i = c.input("sd_valid_i", 1, "translation shootdown");
  t.sd_ready_o = c.output("sd_ready_o", 1);
  t.sd_all_i = c.input("sd_all_i", 1);
  t.sd_vpn_i = c.input("sd_vpn_i", p.vpn_bits);
  t.sd_vmid_i = c.input("sd_vmid_i", p.vmid_bits);
  t.sd_done_o = c.output("sd_done_o", 1, "pulse: shootdown complete");
  t.lk_valid_i = c.input("lk_valid_i", 1, "lookup after an L1-TLB miss");
  t.lk_ready_o = c.output("lk_ready_o", 1);
  t.lk_vpn_i = c.input("lk_vpn_i", p.vpn_bits);
  t.lk_vmid_i = c.input("lk_vmid_i", p.vmid_bits);
  t.lk_vrf_i = c.input("lk_vrf_i", p.vrf_bits);
  t.lk_resp_valid_o = c.output("lk_resp_valid_o", 1, "4 cycles after accept (2 when LDS-mode)");
  t.lk_resp_ready_i = c.input("lk_resp_ready_i", 1);
  t.lk_resp_hit_o = c.output("lk_resp_hit_o", 1, "0: miss/bypass, go to the I-cache");
  t.lk_resp_ppn_o = c.output("lk_resp_ppn_o", p.ppn_bits);
  t.lk_resp_perm_o = c.output("lk_resp_perm_o", p.perm_bits);
  t.fill_valid_i = c.input("fill_valid_i", 1, "L1-TLB victim");
  t.fill_ready_o = c.output("fill_ready_o", 1);
  t.fill_vpn_i = c.input("fill_vpn_i", p.vpn_bits);
  t.fill_vmid_i = c.input("fill_vmid_i", p.vmid_bits);
  t.fill_vrf_i = c.input("fill_vrf_i", p.vrf_bits);
  t.fill_ppn_i = c.input("fill_ppn_i", p.ppn_bits);
  t.fill_perm_i = c.input("fill_perm_i", p.perm_bits);
  t.vic_valid_o = c.output("vic_valid_o", 1, "victim towards the I-cache");
  t.vic_ready_i = c.input("vic_ready_i", 1);
  t.vic_vpn_o = c.output("vic_vpn_o", p.vpn_bits);
  t.vic_vmid_o = c.output("vic_vmid_o", p.vmid_bits);
  t.vic_vrf_o = c.output("vic_vrf_o", p.vrf_bits);
  t.vic_ppn_o = c.output("vic_ppn_o", p.ppn_bits);
  t.vic_perm_o = c.output("vic_perm_o", p.perm_bits);
}

namespace {

unsigned group_shift(const LdsCtrlParams& p) { return elab::log2_exact(p.clear_bits); }
unsigned group_bits(const LdsCtrlParams& p) { return elab::log2_exact(p.clear_groups); }
unsigned group_width(const LdsCtrlParams& p) { return std::max(1u, group_bits(p)); }

// ---------------------------------------------------------------------------
// Request acceptance (ready rules of the document, priority wg > sd > lk > fill)

void handshake(Ctl& c) {
  const LdsCtrlParams& p = c.p;
  const TranslationPorts& t = c.tx;
  Acceptance& a = c.accept;
  const Value idle = a.st_idle = c.m.wire("st_idle", c.state_is(kIdle));
  const Value sd_valid = t.sd_valid_i;
  a.table_free = c.m.wire("table_free", 1);
  t.wg_ready_o.drive(idle & (t.wg_free_i | a.table_free));
  a.wg_fire = c.m.wire("wg_fire", t.wg_valid_i & t.wg_ready_o);
  t.sd_ready_o.drive(idle & ~a.wg_fire);
  a.sd_fire = c.m.wire("sd_fire", sd_valid & t.sd_ready_o);
  t.lk_ready_o.drive(idle & ~a.wg_fire & ~sd_valid & ~c.eng.resp_valid);
  a.lk_fire = c.m.wire("lk_fire", t.lk_valid_i & t.lk_ready_o);
  t.fill_ready_o.drive(idle & ~a.wg_fire & ~sd_valid & ~a.lk_fire);
  a.fill_fire = c.m.wire("fill_fire", t.fill_valid_i & t.fill_ready_o);
  a.key_fire = c.m.wire("key_fire", a.sd_fire | a.lk_fire | a.fill_fire);
  // A work-group request is registered at accept and carried out in WG, the
  // next cycle: the dispatcher's inputs then only reach flops.
  a.wgr_free = c.m.reg("wgr_free", 1);
  a.wgr_free.next_if(a.wg_fire, t.wg_free_i);
  a.wgr_base = c.m.reg("wgr_base", p.segment_index_bits);
  a.wgr_base.next_if(a.wg_fire, t.wg_base_i);
  a.wgr_size = c.m.reg("wgr_size", p.size_bits);
  a.wgr_size.next_if(a.wg_fire, t.wg_size_i);
  a.st_wg = c.m.wire("st_wg", c.state_is(kWg));
  a.wg_alloc_go = c.m.wire("wg_alloc_go", a.st_wg & ~a.wgr_free);
  a.wg_free_go = c.m.wire("wg_free_go", a.st_wg & a.wgr_free);
  a.wg_empty = c.m.wire("wg_empty", a.wgr_size == 0);
  a.sd_all_fire = c.m.wire("sd_all_fire", a.sd_fire & t.sd_all_i);
}

// An application write in the same cycle as a read of segment `seg`'s mode
// bit clears the bit at that edge.
Value app_hits(const Ctl& c, const Value& seg) {
  const unsigned pb = elab::log2_exact(c.p.segments_per_row), ri = c.p.row_index_bits;
  const Value touched = pb ? bit_at(c.modes.app_touched, seg.slice(0, pb)) : Value(c.modes.app_touched);
  return c.modes.app_wr & (c.app.app_row_i == seg.slice(pb, ri)) & touched;
}

// mode[s] of the registered segment, kept in a flop: read from the array at
// the accept edge, then cleared by application writes that reach s (the only
// change it can see while the engine is busy). Keeps the S:1 read off the
// ISSUE and WRITE paths.
void mode_of_segment(Ctl& c, const Value& lk_sel) {
  const unsigned si = c.p.segment_index_bits;
  const TranslationPorts& t = c.tx;
  Decode& d = c.decode;
  // One read port per requester, each addressed straight from its port: no
  // select logic in front of the S:1 multiplexers.
  auto mode_of = [&](const Value& vpn) { return bit_at(c.modes.mode, vpn.slice(0, si)); };
  d.mode_seg = c.m.reg("mode_seg", 1);
  const Value acc = c.m.wire("mode_acc", priority({{t.sd_valid_i, mode_of(t.sd_vpn_i)}, {lk_sel, mode_of(t.lk_vpn_i)}},
                                                  mode_of(t.fill_vpn_i)));
  const Value acc_live = c.m.wire("mode_acc_live", acc & ~app_hits(c, d.acc_seg));
  const Value seg_live = c.m.wire("mode_seg_live", d.mode_seg & ~app_hits(c, c.eng.seg));
  d.mode_seg.next(mux(c.accept.key_fire, acc_live, seg_live));
  d.mode_cur = c.m.wire("mode_cur", d.mode_seg);
}

// The accepted request's VPN and ids (registered at the accept edge), and the
// ISSUE decision on the registered segment: its mode bit (the one read port
// of the mode array) and whether it is allocated.
void accept_decode(Ctl& c) {
  const LdsCtrlParams& p = c.p;
  const TranslationPorts& t = c.tx;
  Decode& d = c.decode;
  const unsigned si = p.segment_index_bits;
  // Selected by the valids, not the fires, so the ready chain is not on the
  // address path; the registers load only when one of them fires.
  const Value lk_sel = c.m.wire("lk_sel", t.lk_valid_i & ~c.eng.resp_valid);
  auto requested = [&](const Value& sd, const Value& lk, const Value& fill) {
    return priority({{t.sd_valid_i, sd}, {lk_sel, lk}}, fill);
  };
  const Value vpn = c.m.wire("acc_vpn", requested(t.sd_vpn_i, t.lk_vpn_i, t.fill_vpn_i));
  d.acc_vmid = c.m.wire("acc_vmid", requested(t.sd_vmid_i, t.lk_vmid_i, t.fill_vmid_i));
  d.acc_vrf = c.m.wire("acc_vrf", mux(lk_sel, t.lk_vrf_i, t.fill_vrf_i));
  d.acc_seg = c.m.wire("acc_seg", vpn.slice(0, si));
  d.acc_va = c.m.wire("acc_va", vpn.slice(si, p.va_tag_bits));
  mode_of_segment(c, lk_sel);
  d.alloc_hit = c.m.wire("alloc_hit", 1);
  const Value mode_cur = d.mode_cur, alloc_hit = d.alloc_hit;
  d.st_issue = c.m.wire("st_issue", c.state_is(kIssue));
  const Value op_fill = d.op_fill = c.m.wire("op_fill", c.op_is(kOpFill));
  d.op_lookup = c.m.wire("op_lookup", c.op_is(kOpLookup));
  d.op_shoot = c.m.wire("op_shoot", c.op_is(kOpShoot));
  const Value needs_sram = c.m.wire("needs_sram", (op_fill & ~alloc_hit) | (~op_fill & mode_cur));
  const Value go = d.issue_go = c.m.wire("issue_go", d.st_issue & ~(needs_sram & c.app.app_valid_i));
  d.rd_fire = c.m.wire("rd_fire", go & mode_cur & ~(op_fill & alloc_hit));
  d.init_fire = c.m.wire("init_fire", go & op_fill & ~alloc_hit & ~mode_cur);
  d.bypass_fire = c.m.wire("bypass_fire", go & op_fill & alloc_hit);
}

// ---------------------------------------------------------------------------
// Allocation table: K (valid, base, end) ranges of allocated segments

// end = base + size, kept unclamped (one bit wider): s < end is the same
// test for every segment s < S, and no clamp sits behind the adder.
void table_end(Ctl& c) {
  const unsigned eb = c.p.size_bits;
  const Value a = c.m.wire("wg_a", zext(c.tx.wg_base_i, eb + 1));
  const Value b = c.m.wire("wg_b", zext(c.tx.wg_size_i, eb + 1));
  const Value sum = hdl::prefix_add(c.m.top(), "wg_sum_c", a, b, zero(1));
  const Value end = c.m.wire("wg_end", sum.slice(0, eb + 1));
  c.m.wire("unused_wg_sum_c", sum.bit(eb + 1));
  c.table.wgr_end = c.m.reg("wgr_end", eb + 1);
  c.table.wgr_end.next_if(c.accept.wg_fire, end);
}

// Entry i: its registers, whether it is the freed range (tab_match) and
// whether it holds the fill's segment (tab_hit).
void table_entry(Ctl& c, unsigned i, const Wire& match, const Wire& hit, const Value& seg_ext) {
  const unsigned si = c.p.segment_index_bits, eb = c.p.size_bits;
  AllocTable& tab = c.table;
  const Acceptance& a = c.accept;
  const Reg base = c.m.reg(indexed("tbase", i), si), size = c.m.reg(indexed("tsize", i), eb);
  const Reg end = c.m.reg(indexed("tend", i), eb + 1);
  tab.tbase.push_back(base);
  tab.tend.push_back(end);
  const Value valid = tab.tv.bit(i);
  c.m.assign(match.bit(i), valid & (base == a.wgr_base) & (size == a.wgr_size));
  c.m.assign(hit.bit(i), valid & (zext(base, eb + 1) <= seg_ext) & (seg_ext < end));
  const Value ins = a.wg_alloc_go & tab.tab_ins.bit(i);
  base.next_if(ins, a.wgr_base);
  end.next_if(ins, tab.wgr_end);
  size.next_if(ins, a.wgr_size);
}

void allocation_table(Ctl& c) {
  const unsigned k = c.p.max_work_groups, eb = c.p.size_bits;
  AllocTable& tab = c.table;
  const Acceptance& a = c.accept;
  c.m.comment("allocation table: segment s is allocated when base <= s < end for a valid entry");
  table_end(c);
  const Reg tv = tab.tv = c.m.reg("tv", k);
  // The slot an allocation takes, registered: the table changes only in WG,
  // which always follows an IDLE cycle, so the value from the cycle before is
  // current there.
  const Reg ins = c.m.reg("tab_ins", k);
  ins.next(hdl::lowest_one(c.m.top(), "tab_ins_c", c.m.wire("tv_free", ~tv)));
  const Value tab_ins = tab.tab_ins = c.m.wire("tab_ins", ins);
  const Wire match = c.m.wire("tab_match", k), hit = c.m.wire("tab_hit", k);
  // Checked at the accept edge and held: the table cannot change while the
  // engine is busy with the request. Only fills use it, so it reads the fill
  // port directly, not the request mux.
  const Value seg_ext = c.m.wire("seg_ext", zext(c.tx.fill_vpn_i.slice(0, c.p.segment_index_bits), eb + 1));
  for (unsigned i = 0; i < k; ++i) table_entry(c, i, match, hit, seg_ext);
  const Value del = hdl::lowest_one(c.m.top(), "tab_del", match);
  const Value alloc_go = a.wg_alloc_go, free_go = a.wg_free_go;
  tv.next((tv & ~gate(free_go, del)) | gate(alloc_go, tab_ins));
  // = &tv_q, registered to keep it off the ready chain, and computed from the
  // operation rather than from tv_d so the free's match is not in front of it.
  const Reg full = c.m.reg("table_full", 1);
  full.next(priority({{alloc_go, all(tv | tab_ins)}, {free_go, full & ~any(match)}}, full));
  a.table_free.drive(~full);
  tab.alloc_hit = c.m.reg("alloc_hit", 1);
  tab.alloc_hit.next_if(a.key_fire, any(hit));
  c.decode.alloc_hit.drive(tab.alloc_hit);
}

// ---------------------------------------------------------------------------
// CLEAR: mode bits lo <= i < end, one group of G bits per cycle. The end is
// stored inverted, so the reset value (zero) means "beyond the last segment":
// the post-reset clear covers the whole LDS with no reset-specific logic, and
// no adder or clamp sits on the walker's paths.

// The walked group's G-bit mask at its position in the S mode bits. The group
// select is a one-hot register decoded from the walker's next state, so the
// group decode is not in front of the S-wide update. It is stored inverted:
// the reset value (zero) selects every group, which the post-reset clear of
// the whole LDS may do (its mask is all ones).
void clear_groups(Ctl& c) {
  const unsigned gw = group_width(c.p), ng = c.p.clear_groups, g_bits = c.p.clear_bits;
  ClearWalker& w = c.clear;
  const Reg grp_n = w.clr_grp_n = c.m.reg("clr_grp_n", ng);
  const Wire next = c.m.wire("clr_grp_next", ng);
  for (unsigned g = 0; g < ng; ++g) c.m.assign(next.bit(g), w.clr_g.d() == lit(gw, g));
  grp_n.next(~next);
  const Wire all_groups = w.clr_all = c.m.wire("clr_all", c.p.segments);
  for (unsigned g = 0; g < ng; ++g)
    c.m.assign(all_groups.slice(g * g_bits, g_bits), rep(g_bits, w.st_clear & ~grp_n.bit(g)) & w.clr_local);
}

// clear_last: the LDS's last group, or the next group starts at or beyond end.
void clear_stop(Ctl& c, unsigned hw) {
  const unsigned gs = group_shift(c.p), gb = group_bits(c.p);
  ClearWalker& w = c.clear;
  const Value g = w.clr_g, end_g = w.clr_end_g;
  const Value g_ext = w.clr_g_ext = c.m.wire("clr_g_ext", gb ? zext(g, hw) : zero(hw));
  const Value g_next = w.clr_g_next = c.m.wire("clr_g_next", g + 1);
  const Value next_ext = c.m.wire("clr_g_next_ext", gb ? zext(g_next, hw) : lit(hw, 1));
  Value next_is_end = next_ext == end_g;
  if (gs) {
    w.clr_end_low = c.m.wire("clr_end_low", w.clr_end.slice(0, gs));
    next_is_end = next_is_end & (w.clr_end_low == 0);
  }
  const Value next_at_end = (g_ext >= end_g) | next_is_end;
  const Value final_group = gb ? g == c.p.clear_groups - 1 : one_bit(true);
  w.clear_last = c.m.wire("clear_last", w.st_clear & (final_group | next_at_end));
  if (!gb) c.m.wire("unused_clr_g", hdl::cat({g, g_next}));
}

// clr_local: the bits of the walked group inside [lo, end).
void clear_local(Ctl& c) {
  const unsigned si = c.p.segment_index_bits, gs = group_shift(c.p), gb = group_bits(c.p);
  ClearWalker& w = c.clear;
  const Acceptance& a = c.accept;
  const Wire local = w.clr_local = c.m.wire("clr_local", c.p.clear_bits);
  if (gs == 0) return c.m.assign(local, one_bit(true));  // one bit per group: every walked group is in range
  const Reg lo = w.clr_lo = c.m.reg("clr_lo", si);
  lo.next(priority({{a.wg_alloc_go, a.wgr_base}, {a.sd_all_fire, zero(si)}}, lo));
  const Value lo_group = gb ? lo.slice(gs, gb) : zero(1);
  const Value lo_b = c.m.wire("clr_lo_b", mux(w.clr_g == lo_group, lo.slice(0, gs), zero(gs)));
  const Value below_end_g = c.m.wire("clr_below_end_g", w.clr_g_ext < w.clr_end_g);
  for (unsigned b = 0; b < c.p.clear_bits; ++b) {
    // lo_b <= G-1 always holds and end_low > G-1 never does: left out
    const bool last = b + 1 == c.p.clear_bits;
    const Value below_end = last ? below_end_g : below_end_g | (w.clr_end_low > b);
    c.m.assign(local.bit(b), last ? below_end : (lo_b <= b) & below_end);
  }
}

void clear_range(Ctl& c) {
  const LdsCtrlParams& p = c.p;
  const unsigned gs = group_shift(p), gb = group_bits(p), gw = group_width(p);
  const unsigned ew = p.size_bits + 1, hw = ew - gs;  // end, and its group part
  ClearWalker& w = c.clear;
  const Acceptance& a = c.accept;
  c.m.comment("CLEAR walker");
  const Reg g = w.clr_g = c.m.reg("clr_g", gw);
  const Reg end_n = c.m.reg("clr_end_n", ew);
  const Value end = w.clr_end = c.m.wire("clr_end", ~end_n);
  w.clr_end_g = c.m.wire("clr_end_g", end.slice(gs, hw));
  const Value st_clear = w.st_clear = c.m.wire("st_clear", c.state_is(kClear));
  clear_stop(c, hw);
  const Value alloc_go = a.wg_alloc_go, sd_all = a.sd_all_fire;
  const Value start_g = gb ? a.wgr_base.slice(gs, gb) : zero(1);
  g.next(priority({{alloc_go, start_g}, {sd_all, zero(gw)}, {st_clear & ~w.clear_last, w.clr_g_next}}, g));
  end_n.next(priority({{alloc_go, ~c.table.wgr_end}, {sd_all, zero(ew)}}, end_n));
  clear_local(c);
  clear_groups(c);
}

// ---------------------------------------------------------------------------
// Mode bits: cleared by CLEAR and application writes, set by a fill that
// initialises a free segment. No reset: the post-reset CLEAR initialises them.

// The mode array and the application writes that clear its bits.
void app_writes(Ctl& c) {
  const LdsCtrlParams& p = c.p;
  const unsigned spr = p.segments_per_row, bps = p.banks_per_segment;
  const AppPort& app = c.app;
  ModeBits& mb = c.modes;
  c.m.comment("mode bits: 1 = Tx-mode, 0 = LDS-mode");
  mb.mode = c.m.reg_noreset("mode", p.segments);
  const Value app_wr = mb.app_wr = c.m.wire("app_wr", app.app_valid_i & app.app_we_i);
  const Wire touched = mb.app_touched = c.m.wire("app_touched", spr);
  for (unsigned j = 0; j < spr; ++j) c.m.assign(touched.bit(j), any(app.app_bank_en_i.slice(j * bps, bps)));
  const Wire clr = mb.app_clr = c.m.wire("app_clr", p.segments);
  for (unsigned r = 0; r < p.rows; ++r)
    c.m.assign(clr.slice(r * spr, spr), rep(spr, app_wr & (app.app_row_i == r)) & touched);
}

void mode_bits(Ctl& c) {
  const Reg& mode = c.modes.mode;
  const Decode& d = c.decode;
  // Set on any issued fill of a free or Tx-mode segment, not only on an
  // initialising one: the bit is already 1 for the others, and leaving the
  // mode bit out keeps the S:1 mode read off the S-wide update.
  const Value fill_issue = c.m.wire("fill_issue", d.st_issue & d.op_fill & ~d.alloc_hit & ~c.app.app_valid_i);
  const Value init_set = c.m.wire("init_set", gate(fill_issue, hdl::one_of(c.p.segments, c.eng.seg)));
  mode.next((mode & ~c.clear.clr_all & ~c.modes.app_clr) | init_set);
}

}  // namespace

void control(Ctl& c) {
  app_writes(c);
  handshake(c);
  accept_decode(c);
  allocation_table(c);
  clear_range(c);
  mode_bits(c);
}

}  // namespace txgen::blocks::lds
