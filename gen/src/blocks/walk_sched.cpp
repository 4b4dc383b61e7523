// Emission of the SIMT-aware page-walk scheduler (docs/blocks/walk_sched.md):
// the collapsing request buffer, arrival scoring, the pipelined selection
// tree, dispatch, aging and the page-walk-cache tags with their counters.
// Built from typed signals (txgen/hdl); generate loops over entries and tree
// nodes keep the RTL size independent of the entry count.
#include "txgen/blocks/walk_sched_emit.h"

#include <algorithm>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "txgen/elab/bits.h"
#include "txgen/hdl/lib.h"
#include "txgen/hdl/module.h"
#include "txgen/hdl/port_decl.h"
#include "txgen/hdl/replacement.h"
#include "txgen/ports/walk_sched.h"

namespace txgen::blocks::walk_sched {

using elab::WalkSchedParams;
using hdl::cat;
using hdl::Index;
using hdl::lit;
using hdl::Module;
using hdl::Reg;
using hdl::Scope;
using hdl::Value;
using hdl::Wire;
using hdl::mux;
using hdl::rep;
using hdl::zext;
using hdl::zero;
using std::string;
using std::to_string;

namespace {

constexpr uint64_t kLfsrSeed = 0xACE1;

// Entries are grouped by 16 (4 groups below 64 entries) for the signals that
// reach every entry: each group has its own flip-flop copy, so no buffer tree
// spans the whole buffer.
unsigned entry_group(const WalkSchedParams& p) { return p.entries >= 64 ? 16 : p.entries / 4; }

unsigned key_bits(const WalkSchedParams& p) { return p.simt() ? 3 + p.score_bits : p.random() ? 2 : 1; }

// entry i of `width`-bit fields of vec (a bit select for one-bit fields)
Value entry(const Value& vec, const Index& i, unsigned width) {
  return width == 1 ? vec.bit(i) : vec.field(i, width);
}

TXGEN_PORT_HANDLES(SchedPorts, TXGEN_WALK_SCHED_PORTS)

// The signals shared between the parts of the scheduler: the ports, the
// registers read before the part that sets them, and the wires driven later.
struct Sched {
  Sched(const WalkSchedParams& params, Module& module) : p(params), m(module) {}
  const WalkSchedParams& p;
  Module& m;
  SchedPorts io;  // txgen/ports/walk_sched.h
  // buffer entries (fields of B entries) and the append slot
  Reg valid, vpn, iid, score, match, aged, credit_lo, borrow, credit_hi;
  unsigned credit_lo_bits = 0, credit_hi_bits = 0;
  Reg count, slot_x;
  Value slot;
  // the registered position of the selected entry (index_thermometer)
  Reg above_lo, above_hi, above_take;
  // dispatch state read by the selection
  Reg last_valid, last_iid, last_iid_grp;
  // arrival
  Reg a1_v, a1_vpn, a1_iid, a2_v, a3_v, a4_v, arr_score;
  Value bypass, app, app_vpn, app_iid, a1_score, match_now;
  // selection
  Value root_key, root_sub, child_sub;
  // the buffer's "at or above the selected entry" thermometer
  Value above;
  // dispatch and walkers
  Reg busy, sel_go, d_v, d_vpn;
  Value sel_go_w, any_free, walker, walker_oh;
  Wire go, est, d_acc;
  // per PWC level: the lookups' any-hit flags (port a, port d)
  std::vector<Value> pwc_any_a, pwc_any_d;
};

void header(Module& m, const WalkSchedParams& p, const EmitContext& ctx) {
  module_header(m, ctx, "walk_sched",
                "IOMMU page-walk request buffer and scheduler, policy " + string(config::name_of(p.policy)),
                params_json(p));
}

void ports(Sched& s) {
  s.m.clock_and_reset();
  TXGEN_DECLARE_PORTS(TXGEN_WALK_SCHED_PORTS, s.m, s.p, s.io);
}

// The state read across the parts, and the wires driven after their first use.
void declare_shared(Sched& s) {
  Module& m = s.m;
  const WalkSchedParams& p = s.p;
  const unsigned b = p.entries;
  s.valid = m.reg("valid", b);
  s.vpn = m.reg_noreset("vpn", b * p.vpn_bits);
  s.iid = m.reg_noreset("iid", b * p.iid_bits);
  if (p.simt()) {
    // Aging credit: a pass (a younger dispatch) decrements it in two steps, the
    // low part at the pass edge and the high part at the next one with the
    // registered borrow: passes are at least L + 1 >= 2 edges apart (cooldown),
    // so the credit is whole again before the next pass reads it.
    const unsigned ab = p.credit_bits;
    s.credit_lo_bits = ab >= 4 ? (ab + 1) / 2 : ab;
    s.credit_hi_bits = ab - s.credit_lo_bits;
    s.score = m.reg_noreset("score", b * p.score_bits);
    s.match = m.reg("match", b);
    s.aged = m.reg("aged", b);
    s.credit_lo = m.reg_noreset("credit_lo", b * s.credit_lo_bits);
    if (s.credit_hi_bits) {
      s.borrow = m.reg("borrow", b);
      s.credit_hi = m.reg_noreset("credit_hi", b * s.credit_hi_bits);
    }
    s.last_valid = m.reg("last_valid", 1);
    s.last_iid = m.reg_noreset("last_iid", p.iid_bits);
    s.last_iid_grp = m.reg_noreset("last_iid_grp", b / entry_group(p) * p.iid_bits);
  }
  s.count = m.reg("count", p.count_bits);
  // slot[i] = (count == i), one-hot, shifted with the count: the append
  // position of every entry starts at a flip-flop instead of a count
  // comparator. Bit 0 is stored inverted so the zero reset reads count 0.
  s.slot_x = m.reg("slot_x", b + 1);
  s.slot = m.wire("slot", s.slot_x ^ lit(b + 1, 1));
  s.above_lo = m.reg_noreset("above_lo", b / 2);
  s.above_hi = m.reg_noreset("above_hi", b / 2);
  s.above_take = m.reg_noreset("above_take", 1);
  s.busy = m.reg("busy", p.walkers);
  s.go = m.wire("go", 1);
  if (p.simt()) s.est = m.wire("est", p.acc_bits);
  s.d_acc = m.wire("d_acc", p.acc_bits);
}

// ---------------------------------------------------------------------------
// Generate loops over entries and tree nodes.

// name = the OR of n width-bit fields of vec, as a balanced tree
Value or_fields(Module& m, const string& name, const Value& vec, unsigned n, unsigned width) {
  return hdl::or_fields_tree(m.top(), name, vec, n, width);
}

// vec[base +: width] plus or minus one (wrapping), bit by bit: bit k flips
// when the bits below it are all ones (up) or all zeros (down). Written as
// parallel detects, not a ripple carry: synthesis left the adder's chain on
// the critical path (1.4 ns over an 11-bit credit, 1.2 ns over the count).
Value step_by_one(const Value& vec, const Index& base, unsigned width, bool up) {
  std::vector<Value> bits;
  for (unsigned k = width; k-- > 0;) {
    const Value bit = vec.bit(base + Index(k));
    if (k == 0) {
      bits.push_back(~bit);
      continue;
    }
    const Value below = vec.part(base, k);
    bits.push_back(bit ^ (up ? all(below) : ~any(below)));
  }
  return cat(bits);
}

// field `index` of vec minus one
Value field_decrement(const Value& vec, const Index& index, unsigned width) {
  return step_by_one(vec, index * Index(width), width, false);
}

// ---------------------------------------------------------------------------
// Walkers: the lowest free walker, `walker` (one-hot `walker_oh`), and `any_free`.

void walkers(Sched& s) {
  Module& m = s.m;
  const unsigned k = s.p.walkers;
  const Value free = m.wire("free", ~s.busy);
  // registered from busy_d: bypass and append steer every entry, so they
  // must not wait for an OR over the walkers
  const Reg none_free = m.reg("none_free", 1);
  none_free.next(all(s.busy.d()));
  s.any_free = m.wire("any_free", ~none_free);
  s.walker_oh = k == 1 ? m.wire("walker_oh", free) : hdl::lowest_one(m.top(), "walker_oh", free);
  s.walker = m.wire("walker", hdl::onehot_index(s.walker_oh, s.p.walker_bits));
  const Value done_mask = mux(s.io.done_valid_i, lit(k, 1) << s.io.done_walker_i, zero(k));
  s.busy.next((s.busy & ~done_mask) | mux(s.go, s.walker_oh, zero(k)));
  s.io.busy_o.drive(s.busy);
}

// ---------------------------------------------------------------------------
// Arrival: a1 (accepted), then bypass, append (fcfs, random) or scoring
// (simt, one step per cycle: a1 CAM of the instruction ID into the match
// bits, a2 OR of the matching scores, a3 add, a4 write and append).

// new = min(old + est, all ones), in a3's own cycle: the write of a4 to every
// matching entry then starts at the flip-flops of the arrival score.
Value saturating_score_add(Sched& s, const Reg& arr_est) {
  const unsigned sb = s.p.score_bits;
  const Value sum = s.m.wire("score_sum", zext(s.arr_score, sb + 1) + zext(arr_est, sb + 1));
  return s.m.wire("new_score", mux(sum.bit(sb), hdl::ones(sb), sum.slice(0, sb)));
}

// The a2 .. a4 scoring steps (simt): the CAM of a1's instruction ID, the OR
// of the matching scores, the saturating add.
void arrival_scoring(Sched& s) {
  Module& m = s.m;
  const WalkSchedParams& p = s.p;
  const unsigned b = p.entries, sb = p.score_bits;
  s.a1_score = m.wire("a1_score", s.a1_v & ~s.bypass);
  const Wire match_now = m.wire("match_now", b);
  const Wire match_score = m.wire("match_score", b * sb);
  m.generate_for("gm", b, "g_match", [&](Scope& sc, const Index& g) {
    sc.assign(match_now.bit(g), s.valid.bit(g) & (entry(s.iid, g, p.iid_bits) == s.a1_iid));
    sc.assign(entry(match_score, g, sb), gate(s.match.bit(g), entry(s.score, g, sb)));
  });
  s.match_now = match_now;
  const Value old_now = or_fields(m, "old_now", match_score, b, sb);
  // a2, a3 and a4 never hold a request at once: one payload register serves
  // them, its score field holding old in a3 and new in a4
  s.a2_v.next(s.a1_score);
  s.a3_v.next(s.a2_v);
  s.a4_v.next(s.a3_v);
  const Reg arr_vpn = m.reg_noreset("arr_vpn", p.vpn_bits), arr_iid = m.reg_noreset("arr_iid", p.iid_bits),
            arr_est = m.reg_noreset("arr_est", p.acc_bits);
  arr_vpn.next_if(s.a1_score, s.a1_vpn);
  arr_iid.next_if(s.a1_score, s.a1_iid);
  arr_est.next_if(s.a1_score, s.est);
  const Value new_score = saturating_score_add(s, arr_est);
  s.arr_score.next(hdl::priority({{s.a2_v, old_now}, {s.a3_v, new_score}}, s.arr_score));
  s.app = m.wire("app", s.a4_v);
  s.app_vpn = m.wire("app_vpn", arr_vpn);
  s.app_iid = m.wire("app_iid", arr_iid);
}

void arrival(Sched& s) {
  Module& m = s.m;
  const WalkSchedParams& p = s.p;
  const unsigned b = p.entries;
  s.a1_v = m.reg("a1_v", 1);
  s.a1_vpn = m.reg_noreset("a1_vpn", p.vpn_bits);
  s.a1_iid = m.reg_noreset("a1_iid", p.iid_bits);
  // slot[b]: the buffer is full; slot[b-1]: one entry is free
  Value ready = ~s.a1_v & ~s.slot.bit(b);
  if (p.simt()) {
    s.a2_v = m.reg("a2_v", 1);
    s.a3_v = m.reg("a3_v", 1);
    s.a4_v = m.reg("a4_v", 1);
    s.arr_score = m.reg_noreset("arr_score", p.score_bits);
    ready = ~s.a1_v & ~s.a2_v & ~s.a3_v & ~s.slot.bit(b) & ~(s.a4_v & s.slot.bit(b - 1));
  }
  const Value ready_w = m.wire("ready", ready);
  s.io.req_ready_o.drive(ready_w);
  const Value accept = m.wire("accept", s.io.req_valid_i & ready_w);
  s.a1_v.next(accept);
  s.a1_vpn.next_if(accept, s.io.req_vpn_i);
  s.a1_iid.next_if(accept, s.io.req_iid_i);
  s.bypass = m.wire("bypass", s.a1_v & s.slot.bit(0) & s.any_free);  // slot[0]: the buffer is empty
  if (p.simt()) {
    arrival_scoring(s);
    return;
  }
  s.app = m.wire("app", s.a1_v & ~s.bypass);
  s.app_vpn = m.wire("app_vpn", s.a1_vpn);
  s.app_iid = m.wire("app_iid", s.a1_iid);
}

// ---------------------------------------------------------------------------
// Selection: a key per entry, then a tree of 2-input minimum cells (ties to
// the lower index), registered every G levels and at the root.

// lfsr_r: the random policy's threshold, from a 16-bit Fibonacci LFSR
Value lfsr(Sched& s) {
  Module& m = s.m;
  const unsigned ib = s.p.index_bits;
  const Value seed = lit(16, kLfsrSeed);
  const Reg lfsr_x = m.reg("lfsr_x", 16);
  const Value l = m.wire("lfsr", lfsr_x ^ seed);
  lfsr_x.next(cat({l.slice(0, 15), l.bit(15) ^ l.bit(13) ^ l.bit(12) ^ l.bit(10)}) ^ seed);
  const Value r = m.wire("lfsr_r", l.slice(0, ib));
  if (ib < 16) m.unused("lfsr", l.slice(ib, 16 - ib));
  return r;
}

// The key of entry g (simt): invalid all ones, aged zero, then the batch
// (same instruction ID as the last dispatch), then class 011 with the score.
Value simt_key(Sched& s, Scope& sc, const Index& g) {
  const WalkSchedParams& p = s.p;
  const unsigned kw = key_bits(p), sb = p.score_bits;
  const Value batch = sc.wire("batch", s.last_valid & (entry(s.iid, g, p.iid_bits) ==
                                                       entry(s.last_iid_grp, g / Index(entry_group(p)),
                                                             p.iid_bits)));
  return mux(~s.valid.bit(g), hdl::ones(kw),
             mux(s.aged.bit(g), zero(kw),
                 mux(batch, cat({lit(3, 2), zero(sb)}), cat({lit(3, 3), entry(s.score, g, sb)}))));
}

Value leaf_keys(Sched& s, const Value& lfsr_r) {
  Module& m = s.m;
  const WalkSchedParams& p = s.p;
  const unsigned b = p.entries, kw = key_bits(p);
  const Wire t0 = m.wire("t0_key", b * kw, true);
  m.generate_for("gl", b, "g_leaf", [&](Scope& sc, const Index& g) {
    const Value key = entry(t0, g, kw);
    if (p.simt()) {
      sc.assign(key, simt_key(s, sc, g));
    } else if (p.random()) {
      // the last entry is never below r: a generate-if keeps that constant out of the compare
      const Value idx = sc.param("IDX", p.index_bits, g);
      sc.generate_if(
          g == Index(b - 1), "g_last",
          [&](Scope& last) { last.assign(key, cat({~s.valid.bit(g), zero(1)})); }, "g_cmp",
          [&](Scope& cmp) { cmp.assign(key, cat({~s.valid.bit(g), cmp.wire("below", idx < lfsr_r)})); });
    } else {
      sc.assign(key, ~s.valid.bit(g));
    }
  });
  return t0;
}

// Right beats left when its key is lower. At the leaves (simt) the class
// (3 bits, late: the batch compare) and the raw scores (flip-flops) are
// compared apart: scores matter only between two class-011 keys, every other
// class has a constant score field.
Value take_right(Sched& s, unsigned k, const Index& g, const Value& kl, const Value& kr) {
  if (!(s.p.simt() && k == 1)) return kr < kl;
  const unsigned sb = s.p.score_bits;
  const Value cl = kl.slice(sb, 3), cr = kr.slice(sb, 3);
  const Value sl = s.score.field(2 * g, sb), sr = s.score.field(2 * g + 1, sb);
  return (cr < cl) | ((cr == 3) & (cl == 3) & (sr < sl));
}

// Level k of the tree from t(k-1)_key / t(k-1)_sub; sets them for level k.
void tree_level(Sched& s, unsigned k, bool registered, Value& key, Value& sub) {
  Module& m = s.m;
  const WalkSchedParams& p = s.p;
  const unsigned kw = key_bits(p), count = p.entries >> k;
  const string cur = "t" + to_string(k), c = registered ? cur + "_c" : cur;
  const Wire ckey = m.wire(c + "_key", count * kw, true);
  const Wire csub = m.wire(c + "_sub", count * k);
  m.generate_for("gt" + to_string(k), count, "g_tree" + to_string(k), [&](Scope& sc, const Index& g) {
    const Value kl = sc.wire("kl", key.field(2 * g, kw)), kr = sc.wire("kr", key.field(2 * g + 1, kw));
    const Value take_r = sc.wire("take_r", take_right(s, k, g, kl, kr));
    sc.assign(ckey.field(g, kw), mux(take_r, kr, kl));
    if (k == 1) {
      sc.assign(csub.bit(g), take_r);
    } else {
      sc.assign(csub.field(g, k), mux(take_r, cat({hdl::one_bit(true), sub.field(2 * g + 1, k - 1)}),
                                      cat({zero(1), sub.field(2 * g, k - 1)})));
    }
  });
  key = ckey;
  sub = csub;
  if (!registered) return;
  if (k == p.index_bits) return;  // the root's index is registered as the thermometer (index_thermometer)
  // the root's key is used before its register (dispatch(): sel_go); inner
  // keys are stored inverted, so that the zero reset reads as "no valid entry"
  const Reg kx = m.reg(cur + "_kx", count * kw);
  kx.next(~ckey);
  const Wire key_w = m.wire(cur + "_key", count * kw, true);
  key_w.drive(~kx);
  key = key_w;
  const Reg sb = m.reg_noreset(cur + "_sb", count * k);
  sb.next(csub);
  sub = m.wire(cur + "_sub", sb);
}

void selection(Sched& s) {
  const WalkSchedParams& p = s.p;
  const unsigned levels = p.index_bits, kw = key_bits(p);
  const Value lfsr_r = p.random() ? lfsr(s) : Value();
  Value key = leaf_keys(s, lfsr_r), sub;
  for (unsigned k = 1; k <= levels; ++k) {
    if (k == levels) s.child_sub = sub;
    tree_level(s, k, k == levels || k % p.levels_per_cycle == 0, key, sub);
  }
  s.root_key = key;
  s.root_sub = sub;
  if (kw > 1) s.m.unused("root_key", key.slice(0, kw - 1));
}

// ---------------------------------------------------------------------------
// Dispatch: the selection (after the cooldown) or the bypass, the d stage
// with its PWC lookup, and the registered outputs.

// sel_NAME = field NAME of the selected entry: in each half an AND-OR with the
// one-hot edge of that half's registered thermometer (index_thermometer), not
// a decoder and a B-to-1 mux; the root's side picks a half at the end, so its
// flip-flop does not fan out to every entry first.
Value selected_field(Sched& s, const string& name, const Value& fields, unsigned width) {
  Module& m = s.m;
  const unsigned half = s.p.entries / 2;
  Value side_value[2];
  for (unsigned hi = 0; hi < 2; ++hi) {
    const string side = hi ? "hi" : "lo", t = "sel_" + name + "_" + side;
    const Value above = hi ? s.above_hi : s.above_lo;
    const Wire terms = m.wire(t + "_t", half * width);
    m.generate_for("gs_" + name + "_" + side, half, "g_sel_" + name + "_" + side, [&](Scope& sc, const Index& g) {
      const Value f = entry(fields, hi ? g + Index(half) : g, width);
      // hot: the lowest entry at or above the selection (entry g - 1 is not)
      sc.generate_if(
          g == 0, "g_first", [&](Scope& first) { first.assign(entry(terms, g, width), gate(above.bit(g), f)); },
          "g_next", [&](Scope& next) {
            const Value hot = next.wire("hot", above.bit(g) & ~above.bit(g - 1));
            next.assign(entry(terms, g, width), gate(hot, f));
          });
    });
    side_value[hi] = or_fields(m, t, terms, half, width);
  }
  return m.wire("sel_" + name, mux(s.above_take, side_value[1], side_value[0]));
}

// The batch compare reads the last instruction ID from one copy per entry
// group: a single register fanned out to every entry's comparator (B x IW
// loads) was 1.1 ns of buffers at 512 entries. Copy j loads at every
// dispatch and also when its group's first slot bit is set, which keeps the
// copies distinct for synthesis (it merges identical flip-flops); without a
// dispatch it loads last_iid_q, the value it already holds.
void last_iid_copies(Sched& s) {
  const unsigned gs = entry_group(s.p), groups = s.p.entries / gs, iw = s.p.iid_bits;
  std::vector<Value> copies;
  for (unsigned j = 0; j < groups; ++j)
    copies.push_back(mux(s.go | s.slot.bit(j * gs), s.last_iid.d(), s.last_iid_grp.field(j, iw)));
  s.last_iid_grp.next(hdl::cat_lsb_first(copies));
}

// A stage register loaded from `from` when `load`.
Reg stage(Module& m, const string& name, const Value& load, const Value& from) {
  const Reg r = m.reg_noreset(name, from.width());
  r.next_if(load, from);
  return r;
}

void dispatch(Sched& s) {
  Module& m = s.m;
  const WalkSchedParams& p = s.p;
  const unsigned cb = p.cooldown_bits;
  const Reg cool = m.reg("cool", cb);
  // sel_go = sel_valid & any_free & (cool_q == 0), registered from the next
  // values of its three terms: the removal it triggers fans out to every
  // field of every entry, so it must come straight from a flip-flop.
  s.sel_go = m.reg("sel_go", 1);
  s.sel_go.next(~s.root_key.bit(key_bits(p) - 1) & any(~s.busy.d()) & (cool.d() == 0));
  s.sel_go_w = m.wire("sel_go", s.sel_go);
  s.go.drive(s.sel_go_w | s.bypass);
  cool.next(mux(s.go, lit(cb, p.select_latency), mux(cool != 0, cool - 1, zero(cb))));
  const Value sel_vpn = selected_field(s, "vpn", s.vpn, p.vpn_bits);
  const Value sel_iid = selected_field(s, "iid", s.iid, p.iid_bits);
  const Value go_vpn = m.wire("go_vpn", mux(s.sel_go_w, sel_vpn, s.a1_vpn));
  const Value go_iid = m.wire("go_iid", mux(s.sel_go_w, sel_iid, s.a1_iid));
  s.d_v = m.reg("d_v", 1);
  s.d_v.next(s.go);
  const Reg d_walker = stage(m, "d_walker", s.go, s.walker);
  s.d_vpn = stage(m, "d_vpn", s.go, go_vpn);
  const Reg d_iid = stage(m, "d_iid", s.go, go_iid);
  const Reg o_v = m.reg("o_v", 1);
  o_v.next(s.d_v);
  s.io.disp_valid_o.drive(o_v);
  s.io.disp_walker_o.drive(stage(m, "o_walker", s.d_v, d_walker));
  s.io.disp_vpn_o.drive(stage(m, "o_vpn", s.d_v, s.d_vpn));
  s.io.disp_iid_o.drive(stage(m, "o_iid", s.d_v, d_iid));
  s.io.disp_acc_o.drive(stage(m, "o_acc", s.d_v, s.d_acc));
  if (p.simt()) {
    s.last_valid.next(s.last_valid | s.go);
    s.last_iid.next_if(s.go, go_iid);
    last_iid_copies(s);
  }
}

// ---------------------------------------------------------------------------
// The collapsing buffer: per entry, the updated fields (score write, match,
// aging), then the shift past a removed entry and the append.

using EntryValue = std::function<Value(const Index&)>;

struct BufferField {
  string name;
  unsigned width;
  Reg reg;
  EntryValue updated;  // entry g after this edge's updates without a removal (null = unchanged)
  Value appended;      // value of an appended entry
  EntryValue passed;   // entry g after a removal above it (a younger dispatch; null = as updated)
};

// The aging fields (simt): the credit counts younger dispatches down, `aged`
// is set at zero.
void aging_fields(Sched& s, std::vector<BufferField>& f) {
  const unsigned lo = s.credit_lo_bits, hi = s.credit_hi_bits;
  const uint64_t at = s.p.aging_threshold;
  const auto cl = [&s, lo](const Index& g) { return entry(s.credit_lo, g, lo); };
  const auto zero_credit = [&s, lo, hi, cl](const Index& g) {
    const Value z = cl(g) == 0;
    return hi ? z & (entry(s.credit_hi, g, hi) == 0) : z;
  };
  // a valid entry below a removal is passed by it
  f.push_back({"aged", 1, s.aged, nullptr, zero(1),
               [&s, zero_credit](const Index& g) { return s.aged.bit(g) | (s.valid.bit(g) & zero_credit(g)); }});
  f.push_back({"credit_lo", lo, s.credit_lo, nullptr, lit(lo, at & ((uint64_t{1} << lo) - 1)),
               [&s, lo, cl, zero_credit](const Index& g) {
                 return mux(s.valid.bit(g) & ~zero_credit(g), field_decrement(s.credit_lo, g, lo), cl(g));
               }});
  if (!hi) return;
  f.push_back({"borrow", 1, s.borrow, [](const Index&) { return zero(1); }, zero(1),
               [&s, cl, zero_credit](const Index& g) { return s.valid.bit(g) & ~zero_credit(g) & (cl(g) == 0); }});
  f.push_back({"credit_hi", hi, s.credit_hi,
               [&s, hi](const Index& g) {
                 return mux(s.borrow.bit(g), field_decrement(s.credit_hi, g, hi), entry(s.credit_hi, g, hi));
               },
               lit(hi, at >> lo), nullptr});
}

std::vector<BufferField> buffer_fields(Sched& s) {
  const WalkSchedParams& p = s.p;
  std::vector<BufferField> f = {{"valid", 1, s.valid, nullptr, hdl::one_bit(true), nullptr},
                                {"vpn", p.vpn_bits, s.vpn, nullptr, s.app_vpn, nullptr},
                                {"iid", p.iid_bits, s.iid, nullptr, s.app_iid, nullptr}};
  if (!p.simt()) return f;
  const unsigned sb = p.score_bits;
  f.push_back({"score", sb, s.score,
               [&s, sb](const Index& g) {
                 return mux(s.a4_v & s.match.bit(g), s.arr_score, entry(s.score, g, sb));
               },
               s.arr_score, nullptr});
  f.push_back({"match", 1, s.match,
               [&s](const Index& g) { return mux(s.a1_score, s.match_now.bit(g), ~s.a4_v & s.match.bit(g)); },
               zero(1), nullptr});
  aging_fields(s, f);
  return f;
}

// name[j] = (idx <= j) over 2^w entries, from two small decodes of the index
// halves: hi < j_hi | (hi == j_hi & lo <= j_lo); no comparator per entry.
Value thermometer(Module& m, const string& name, const Value& index, unsigned w) {
  const unsigned n = 1u << w;
  if (w < 2) return m.wire(name, w == 0 ? hdl::one_bit(true) : cat({hdl::one_bit(true), ~index}));
  const Value idx = m.wire(name + "_idx", index);
  const unsigned lb = w / 2, hb = w - lb;
  const Value idx_hi = idx.slice(lb, hb), idx_lo = idx.slice(0, lb);
  std::vector<Value> lt, eq, le, t;
  for (unsigned h = 0; h < (1u << hb); ++h) {
    lt.push_back(h == 0 ? zero(1) : idx_hi < h);
    eq.push_back(idx_hi == h);
  }
  for (unsigned l = 0; l < (1u << lb); ++l) le.push_back(l + 1 == (1u << lb) ? hdl::one_bit(true) : idx_lo <= l);
  const Value lt_w = m.wire(name + "_lt", hdl::cat_lsb_first(lt));
  const Value eq_w = m.wire(name + "_eq", hdl::cat_lsb_first(eq));
  const Value le_w = m.wire(name + "_le", hdl::cat_lsb_first(le));
  for (unsigned j = 0; j < n; ++j) {
    const unsigned jh = j >> lb, jl = j & ((1u << lb) - 1);
    t.push_back(lt_w.bit(jh) | (eq_w.bit(jh) & le_w.bit(jl)));
  }
  return m.wire(name, hdl::cat_lsb_first(t));
}

// "entry i is at or above sel_idx" (sel_idx: the index the root selects),
// registered every cycle as each half's thermometer of its child's index plus
// the root's side: the removal's shift and the aging passes start one gate
// after flip-flops. The chosen half takes its thermometer; the other half is
// all above (left chosen) or all below (right chosen).
Value index_thermometer(Sched& s) {
  Module& m = s.m;
  const unsigned l = s.p.index_bits, half = s.p.entries / 2;
  if (l == 1) {
    s.above_lo.next(hdl::one_bit(true));
    s.above_hi.next(hdl::one_bit(true));
  } else {
    s.above_lo.next(thermometer(m, "therm_lo", s.child_sub.slice(0, l - 1), l - 1));
    s.above_hi.next(thermometer(m, "therm_hi", s.child_sub.slice(l - 1, l - 1), l - 1));
    m.unused("root_sub", s.root_sub.slice(0, l - 1));
  }
  // the root's side registered alone: its fan-out to every entry starts at a flip-flop
  s.above_take.next(s.root_sub.bit(l - 1));
  const Value right = rep(half, ~s.above_take);
  return m.wire("above", cat({right | s.above_hi, right & s.above_lo}));
}

// The removal reaches the entries from one flip-flop per group of 16 (4 groups
// below 64 entries): a single sel_go would fan out to every field of every
// entry. Copy j is loaded only when group j can matter at the next edge
// (count >= j x group - 1: it may hold a valid entry or the append slot then),
// which also keeps the copies distinct for synthesis; a group without either
// is unchanged by a removal.
Reg removal_copies(Sched& s) {
  const unsigned gs = entry_group(s.p), groups = s.p.entries / gs;
  const Reg remove_grp = s.m.reg("remove_grp", groups);
  std::vector<Value> copies;
  for (unsigned j = 0; j < groups; ++j)
    copies.push_back(j * gs <= 1 ? Value(s.sel_go.d()) : s.sel_go.d() & (s.count >= j * gs - 1));
  remove_grp.next(hdl::cat_lsb_first(copies));
  return remove_grp;
}

void count_and_slot(Sched& s, const Value& remove) {
  Module& m = s.m;
  const unsigned b = s.p.entries, cw = s.p.count_bits;
  // both neighbours of count_q are ready before app and remove arrive
  const Value inc = m.wire("count_inc", step_by_one(s.count, 0, cw, true));
  const Value dec = m.wire("count_dec", step_by_one(s.count, 0, cw, false));
  const Value grow = s.app & ~remove, shrink = remove & ~s.app;
  s.count.next(mux(grow, inc, mux(shrink, dec, s.count)));
  s.io.count_o.drive(s.count);
  s.slot_x.next(mux(grow, cat({s.slot.slice(0, b), zero(1)}), mux(shrink, cat({zero(1), s.slot.slice(1, b)}), s.slot)) ^
                lit(b + 1, 1));
}

void buffer(Sched& s) {
  Module& m = s.m;
  const unsigned b = s.p.entries;
  const Value remove = m.wire("remove", s.sel_go_w);
  count_and_slot(s, remove);
  const Value above = s.above = index_thermometer(s);
  const Reg remove_grp = removal_copies(s);
  const std::vector<BufferField> fields = buffer_fields(s);
  std::vector<Wire> updated;
  for (const BufferField& f : fields) {
    updated.push_back(m.wire(f.name + "_u", (b + 1) * f.width));  // updated fields, one spare zero entry on top
    m.assign(updated.back().slice(b * f.width, f.width), zero(f.width));
  }
  m.generate_for("gb", b, "g_entry", [&](Scope& sc, const Index& g) {
    const Value at_or_above = sc.wire("at_or_above", above.bit(g));
    const Value remove_g = sc.wire("remove_g", remove_grp.bit(g / Index(entry_group(s.p))));
    // the append slot is count - remove
    const Value put = sc.wire("put", s.app & mux(remove_g, s.slot.bit(g + 1), s.slot.bit(g)));
    for (size_t i = 0; i < fields.size(); ++i) {
      const BufferField& f = fields[i];
      const Value u = entry(updated[i], g, f.width), u_next = entry(updated[i], g + 1, f.width);
      sc.assign(u, f.updated ? f.updated(g) : entry(f.reg, g, f.width));
      // With a removal, entries at or above it take the next entry's value (which
      // is at or above too, so not passed) and the others are passed; the late
      // removal and the thermometer only pick among values ready before them.
      const Value passed = f.passed ? f.passed(g) : u;
      sc.assign(entry(f.reg.d(), g, f.width), mux(put, f.appended, mux(remove_g, mux(at_or_above, u_next, passed), u)));
    }
  });
}

// ---------------------------------------------------------------------------
// Page-walk caches: tags, valid bits, pseudo-LRU trees, 2-bit counters.

struct PwcLevel {
  PwcLevel(unsigned e, unsigned tb, string prefix) : entries(e), tag_bits(tb), pre(std::move(prefix)) {}
  unsigned entries, tag_bits;
  string pre;  // signal prefix
  Reg valid, tag, ctr, plru, gvic;
  Value hit_a, hit_d, write;
};

// the level's prefix: the top tag bits of a VPN (or of its registered top part)
Value prefix_of(const PwcLevel& lv, const Value& vpn) { return vpn.top(lv.tag_bits); }

// hit vector of a lookup of `vpn` in one level
Value pwc_lookup(Module& m, const PwcLevel& lv, const string& port, const Value& vpn) {
  std::vector<Value> hits;
  for (unsigned e = 0; e < lv.entries; ++e)
    hits.push_back(lv.valid.bit(e) & (lv.tag.field(e, lv.tag_bits) == prefix_of(lv, vpn)));
  return m.wire(lv.pre + "hit_" + port, hdl::cat_lsb_first(hits));
}

// acc = LV - the deepest level that hits (LV on no hit)
Value pwc_accesses(const WalkSchedParams& p, const std::vector<Value>& any_hit) {
  Value acc = lit(p.acc_bits, p.levels);
  for (unsigned l = 1; l < p.levels; ++l) acc = mux(any_hit[l - 1], lit(p.acc_bits, p.levels - l), acc);
  return acc;
}

// Victim of a fill: the pseudo-LRU walk, never into a side without an
// eligible entry. Eligible = the lowest class present among the entries not
// excluded (invalid < counter zero < counter non-zero); the entry the write
// register is about to replace is excluded, so a back-to-back completion
// never picks it again. hdl::plru_victim_among decides every node from its own
// two sides, so no node waits for an OR over the whole level.
Value plru_victim(Module& m, const WalkSchedParams& p, const PwcLevel& lv) {
  const string pre = lv.pre;
  const unsigned e = lv.entries;
  if (e == 1) return m.wire(pre + "victim_oh", hdl::one_bit(true));
  const Value cand = m.wire(pre + "cand", ~lv.gvic);
  std::vector<Value> classes = {m.wire(pre + "inv", cand & ~lv.valid)};  // lowest class first
  if (p.simt()) {
    std::vector<Value> zero_ctr;
    for (unsigned i = 0; i < e; ++i) zero_ctr.push_back(lv.ctr.field(i, 2) == 0);
    classes.push_back(m.wire(pre + "zero", cand & hdl::cat_lsb_first(zero_ctr)));
  }
  return hdl::plru_victim_among(m.top(), pre + "victim_oh", lv.plru, classes, cand, e);
}

// the 2-bit counters: up on an arrival hit, down on a dispatch hit, zero on a write
void pwc_counters(Sched& s, const PwcLevel& lv) {
  std::vector<Value> next;
  for (unsigned e = 0; e < lv.entries; ++e) {
    const Value c = lv.ctr.field(e, 2), inc = lv.hit_a.bit(e) & s.a1_score, dec = lv.hit_d.bit(e) & s.d_v;
    const Value up = inc & ~dec, down = dec & ~inc;
    next.push_back(mux(lv.write.bit(e), zero(2),
                       mux(up, mux(c == 3, lit(2, 3), c + 1), mux(down, mux(c == 0, zero(2), c - 1), c))));
  }
  lv.ctr.next(hdl::cat_lsb_first(next));
}

// The write's lookup of g's prefix (in the state before the write edge) is
// done one cycle early, in the decide cycle, and registered: the state
// before the write edge is this cycle's with g's own write of this edge
// applied, which is forwarded (same prefix: the entry g leaves it in; else
// the hits that g's write does not overwrite). Sets lv.write and returns
// touch_f (the entry g touches or writes).
Value pwc_write(Sched& s, PwcLevel& lv, const Reg& f_v, const Reg& f_vpn, const Reg& g_v, const Reg& g_vpn) {
  Module& m = s.m;
  const string pre = lv.pre;
  const unsigned e = lv.entries;
  const Wire write = m.wire(pre + "write", e), touch_f = m.wire(pre + "touch_f", e);
  const Value hit_f = pwc_lookup(m, lv, "f", f_vpn);
  const Value same = m.wire(pre + "same", g_v & (prefix_of(lv, f_vpn) == prefix_of(lv, g_vpn)));
  const Value hit_fw = m.wire(pre + "hit_fw", mux(same, touch_f, hit_f & ~write));
  const Reg ghit = m.reg(pre + "ghit", e);
  ghit.next(mux(f_v, hit_fw, zero(e)));
  const Reg gany = m.reg_noreset(pre + "gany", 1);
  gany.next_if(f_v, any(hit_fw));
  const Value hit_g = m.wire(pre + "hit_g", ghit), any_g = m.wire(pre + "any_g", gany);
  // write (g valid): touch the entry holding the prefix, else replace the victim
  // (gvic and ghit are zero without g; at most one of write and hit_g is non-zero)
  write.drive(lv.gvic & ~rep(e, any_g));
  touch_f.drive(hit_g | write);
  lv.write = write;
  return touch_f;
}

void pwc_level(Sched& s, unsigned l, const Reg& f_v, const Reg& f_vpn, const Reg& g_v, const Reg& g_vpn) {
  Module& m = s.m;
  const WalkSchedParams& p = s.p;
  const unsigned e = p.pwc_entries[l - 1];
  PwcLevel lv(e, p.pwc_tag_bits[l - 1], "pwc" + to_string(l) + "_");
  const string pre = lv.pre;
  lv.valid = m.reg(pre + "valid", e);
  lv.tag = m.reg_noreset(pre + "tag", e * lv.tag_bits);
  if (p.simt()) {
    lv.ctr = m.reg(pre + "ctr", 2 * e);
    lv.hit_a = pwc_lookup(m, lv, "a", s.a1_vpn);
    s.pwc_any_a.push_back(m.wire(pre + "any_a", any(lv.hit_a)));
  }
  lv.hit_d = pwc_lookup(m, lv, "d", s.d_vpn);
  s.pwc_any_d.push_back(m.wire(pre + "any_d", any(lv.hit_d)));
  // decide (f valid): the victim from the state of this cycle, into g
  if (e > 1) lv.plru = m.reg(pre + "plru", e - 1);
  lv.gvic = m.reg(pre + "gvic", e);
  // g's victim, zero while g is not valid (g_v_d = f_v_q): every use of it
  // starts at a flip-flop without an AND with g_v_q
  lv.gvic.next(mux(f_v, plru_victim(m, p, lv), zero(e)));
  const Value touch_f = pwc_write(s, lv, f_v, f_vpn, g_v, g_vpn);
  lv.valid.next(lv.valid | lv.write);
  std::vector<Value> tags;
  for (unsigned i = 0; i < e; ++i)
    tags.push_back(mux(lv.write.bit(i), prefix_of(lv, g_vpn), lv.tag.field(i, lv.tag_bits)));
  lv.tag.next(hdl::cat_lsb_first(tags));
  if (e > 1) {
    // the dispatch's hit, then the write's entry (it touches or writes)
    const Value hit_dv = m.wire(pre + "hit_dv", lv.hit_d & rep(e, s.d_v));
    const hdl::Touch by_d{hdl::Touch::kTouch, Value(), Value(), hit_dv, "", {}};
    const hdl::Touch by_f{hdl::Touch::kTouch, Value(), Value(), touch_f, "", {}};
    lv.plru.next(hdl::plru_next(m.top(), pre + "plru_next", lv.plru, 1, e, {by_d, by_f}));
  } else {
    m.unused(pre + "touch_f", touch_f);
  }
  if (p.simt()) pwc_counters(s, lv);
}

// a completion registers in f, decides its victims into g at the next edge
// and is written at the one after
void pwc(Sched& s) {
  Module& m = s.m;
  const WalkSchedParams& p = s.p;
  const unsigned deepest = p.pwc_tag_bits.back();
  const Reg f_v = m.reg("f_v", 1), f_vpn = m.reg_noreset("f_vpn", deepest);
  f_v.next(s.io.done_valid_i);
  f_vpn.next_if(s.io.done_valid_i, s.io.done_vpn_i.top(deepest));
  const Reg g_v = m.reg("g_v", 1), g_vpn = m.reg_noreset("g_vpn", deepest);
  g_v.next(f_v);
  g_vpn.next_if(f_v, f_vpn);
  for (unsigned l = 1; l < p.levels; ++l) pwc_level(s, l, f_v, f_vpn, g_v, g_vpn);
  if (p.simt()) s.est.drive(pwc_accesses(p, s.pwc_any_a));
  s.d_acc.drive(pwc_accesses(p, s.pwc_any_d));
  m.unused("done_vpn", s.io.done_vpn_i.slice(0, p.vpn_bits - deepest));
}

// ---------------------------------------------------------------------------
// Formal properties (txgen prove; docs/verification.md, "Formal proofs").

// The aging bound, on one request the solver picks as it is appended: the
// younger dispatches that pass it (f_passes) never exceed AT + 1. The
// tracked request's index follows the removals below it.
void aging_bound(Sched& s, const Value& hot) {
  Module& m = s.m;
  const WalkSchedParams& p = s.p;
  const unsigned b = p.entries, ib = p.index_bits, lo = s.credit_lo_bits, hi = s.credit_hi_bits;
  const uint64_t at = p.aging_threshold;
  const unsigned pw = elab::clog2(at + 3), xw = std::max(p.credit_bits, pw) + 2;
  hdl::Scope& f = m.formal();
  const Value pick = m.formal_any("f_pick", 1);
  const Reg tr = m.formal_reg("f_tr", 1), pos = m.formal_reg("f_pos", ib), passes = m.formal_reg("f_passes", pw);
  const Value remove = s.sel_go_w, removed = f.wire("f_removed", hdl::onehot_index(hot, ib));
  const Value start = f.wire("f_start", s.app & pick & ~tr);
  const Value append_at = f.wire("f_append_at", s.count - zext(remove, p.count_bits)).slice(0, ib);
  tr.next(start | (tr & ~(remove & (removed == pos))));
  pos.next(mux(start, append_at, mux(tr & remove & (removed < pos), pos - 1, pos)));
  passes.next(mux(start, zero(pw), mux(tr & remove & (removed > pos), passes + 1, passes)));
  m.assert_always("aging_bound", ~tr | (passes <= at + 1));
  // the tracked entry's credit counts its passes down: credit + passes = AT
  // until it ages, at the (AT + 1)-th pass
  const Value at_pos = f.wire("f_at_pos", hdl::one_of(b, pos));
  Value credit = zext(hdl::onehot_select(at_pos, s.credit_lo, b, lo), xw);
  if (hi) {
    credit = credit + zext(cat({hdl::onehot_select(at_pos, s.credit_hi, b, hi), zero(lo)}), xw);
    credit = credit - zext(cat({hdl::any(at_pos & s.borrow), zero(lo)}), xw);
  }
  const Value aged = hdl::any(at_pos & s.aged);
  m.assert_always("inv_tracked",
                  ~tr | (hdl::any(at_pos & s.valid) &
                         mux(aged, passes == at + 1, (f.wire("f_credit", credit) + zext(passes, xw)) == at)));
}

// No request is lost or invented and the buffer never overflows: the
// requests taken minus the dispatches presented (disp_valid_o) are exactly
// those in the arrival registers, the buffer and the dispatch registers.
void requests_conserved(Sched& s) {
  Module& m = s.m;
  const WalkSchedParams& p = s.p;
  const unsigned hb = elab::clog2(p.entries + 8) + 1;  // B plus a1 .. a4, d and o, with room to spare
  const Reg held = m.formal_reg("f_held", hb);
  held.next(held + zext(s.io.req_valid_i & s.io.req_ready_o, hb) - zext(s.io.disp_valid_o, hb));
  std::vector<Value> in_flight = {zext(s.count, hb), zext(s.a1_v, hb), zext(s.d_v, hb), zext(s.io.disp_valid_o, hb)};
  if (p.simt())
    for (const Reg& r : {s.a2_v, s.a3_v, s.a4_v}) in_flight.push_back(zext(r, hb));
  m.assert_always("requests_conserved", held == m.formal().wire("f_in_flight", hdl::sum_of(in_flight)));
  m.assert_always("buffer_never_overflows", s.count <= lit(p.count_bits, p.entries));
}

void properties(Sched& s) {
  Module& m = s.m;
  const WalkSchedParams& p = s.p;
  const unsigned b = p.entries;
  hdl::Scope& f = m.formal();
  // the dispatched entry: the lowest one at or above the selection
  const Value hot = f.wire("f_hot", s.above & ~cat({s.above.slice(0, b - 1), zero(1)}));
  std::vector<Value> ones;
  for (unsigned i = 0; i < b; ++i) ones.push_back(zext(s.valid.bit(i), p.count_bits));
  m.assert_always("dispatch_only_valid", ~s.sel_go_w | hdl::any(hot & s.valid));
  m.assert_always("dispatch_one_source", ~(s.sel_go_w & s.bypass));
  m.assert_always("dispatch_to_free_walker", ~s.go | (hdl::any(s.walker_oh) & ~hdl::any(s.walker_oh & s.busy)));
  m.assert_always("count_matches_valid", s.count == hdl::sum_of(ones));
  m.assert_always("inv_valid_prefix", ~hdl::any(s.valid.slice(1, b - 1) & ~s.valid.slice(0, b - 1)));
  m.assert_always("inv_slot", s.slot == hdl::one_of(b + 1, s.count));
  m.assert_always("inv_any_free", s.any_free == ~hdl::all(s.busy));
  requests_conserved(s);
  if (p.simt()) aging_bound(s, hot);
}

}  // namespace

// ---------------------------------------------------------------------------

std::unique_ptr<Module> build_top(const WalkSchedParams& p, const EmitContext& ctx) {
  auto top = std::make_unique<Module>(p.module_prefix);
  Module& m = *top;
  Sched s(p, m);
  header(m, p, ctx);
  ports(s);
  declare_shared(s);
  walkers(s);
  arrival(s);
  selection(s);
  dispatch(s);
  buffer(s);
  pwc(s);
  properties(s);
  return top;
}

std::string emit_top(const WalkSchedParams& p, const EmitContext& ctx) { return build_top(p, ctx)->render(); }


}  // namespace txgen::blocks::walk_sched
