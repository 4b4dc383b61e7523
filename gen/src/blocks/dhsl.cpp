// Emission of MGvm's home-slice selection and dHSL switching logic
// (docs/blocks/dhsl.md): the HSL function, the HSL register, the RTU and
// L2-slice monitors, the command processor's decision unit, the routing
// decisions, and the HSL synthesis stage. The co-simulation top is in
// dhsl_sys.cpp.
#include "txgen/blocks/dhsl_emit.h"

#include <algorithm>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "txgen/elab/bits.h"
#include "txgen/hdl/lib.h"

namespace txgen::blocks::dhsl {

using elab::DhslParams;
using hdl::Interface;
using hdl::Module;
using hdl::Reg;
using hdl::Value;
using hdl::Wire;
using std::string;
using std::to_string;

void header(Module& m, const DhslParams& p, const EmitContext& ctx, const string& role) {
  module_header(m, ctx, "dhsl", role, params_json(p));
}

namespace {

bool is_pow2(unsigned v) { return (v & (v - 1)) == 0; }

// A truth table: out_bits = f(in) for every value of `in`, as an OR of the
// nonzero rows (ABC maps the few-input function as it sees fit).
Value table(const Value& in, unsigned out_bits, const std::function<uint64_t(uint64_t)>& f) {
  std::vector<Value> rows;
  for (uint64_t v = 0; v < (uint64_t{1} << in.width()); ++v)
    if (const uint64_t o = f(v)) rows.push_back(gate(in == v, hdl::lit(out_bits, o)));
  return hdl::or_of(rows, hdl::lit(out_bits, 0));
}

// out = key mod N for a constant N: the low bits when N is a power of two.
// Otherwise each chunk of 2 CB key bits is reduced to its residue
// (chunk * 2^lsb) mod N by a truth table, and the residues are added mod N in
// a balanced tree of truth tables: log depth, where one sum of every bit's
// residue and a modulo made a 17-cell chain (3.01 ns at 3 chiplets).
void mod_chiplets(Module& m, const DhslParams& p, const Value& key, const string& name, const Wire& out) {
  const unsigned cb = p.chiplet_bits, n = p.chiplets, w = key.width();
  if (is_pow2(n)) {
    out.drive(key.slice(0, cb));
    m.unused(name + "_high", key.slice(cb, w - cb));
    return;
  }
  const unsigned chunk = 2 * cb;
  std::vector<Value> level;
  uint64_t weight = 1;  // 2^lsb mod N
  for (unsigned lsb = 0; lsb < w; lsb += chunk) {
    const Value bits = key.slice(lsb, std::min(chunk, w - lsb));
    level.push_back(m.wire(name + "_res" + to_string(level.size()),
                           table(bits, cb, [&](uint64_t v) { return v % n * weight % n; })));
    for (unsigned i = 0; i < chunk; ++i) weight = weight * 2 % n;
  }
  const uint64_t low = (uint64_t{1} << cb) - 1;
  for (unsigned depth = 1; level.size() > 1; ++depth) {
    std::vector<Value> next;
    for (size_t i = 0; i + 1 < level.size(); i += 2)
      next.push_back(m.wire(name + "_sum" + to_string(depth) + "_" + to_string(next.size()),
                            table(hdl::cat({level[i + 1], level[i]}), cb,
                                  [&](uint64_t v) { return ((v >> cb) + (v & low)) % n; })));
    if (level.size() % 2) next.push_back(level.back());
    level = std::move(next);
  }
  out.drive(level.front());
}

// A W-bit saturating counter counting `inc`, cleared by `clear`, kept in
// segments of S bits whose carries move one segment per edge (a carry-save
// counter in time), so no W-bit carry chain follows the request inputs.
// Returns the segments with their waiting carries applied through the
// precomputed + 1 values (the exact count, from registers) and the increment
// apart: the saves add it after their edge. At most one carry is in flight
// (a segment that just wrapped is 0, so 2^W - 2 and 2^W - 1 have no carry in
// flight).
struct Segment {
  Reg v, carry_in;  // the segment; the carry waiting for it (segments 1..)
  Value plus1, ones;
};

std::vector<Segment> segments(Module& m, const string& name, unsigned w, unsigned seg) {
  std::vector<Segment> s;
  for (unsigned i = 0; i * seg < w; ++i) {
    const string v = name + "_v" + to_string(i);
    Segment g;
    g.v = m.reg(v, std::min(seg, w - i * seg));
    g.plus1 = m.wire(v + "_p1", g.v + 1);
    g.ones = m.wire(v + "_ones", all(g.v));
    if (i > 0) g.carry_in = m.reg(name + "_c" + to_string(i), 1);
    s.push_back(g);
  }
  return s;
}

CounterState segmented_counter(Module& m, const string& name, const Value& count, const Value& clear, unsigned w) {
  const unsigned seg = std::min(8u, (w + 1) / 2);
  const std::vector<Segment> s = segments(m, name, w, seg);
  // full_q: the count is 2^W - 1, registered from "2^W - 2 and an increment"
  // so that the saturation test is not on the increment's path
  Value almost = s[0].v == (1ull << s[0].v.width()) - 2;
  for (size_t i = 1; i < s.size(); ++i) almost = almost & s[i].ones;
  const Reg full = m.reg(name + "_full", 1);
  const Value inc = m.wire(name + "_inc", count & ~full);
  full.next(~clear & (full | (almost & inc)));
  Value waiting;              // a waiting carry that reaches segment i
  std::vector<Value> settled;  // least significant first
  for (size_t i = 0; i < s.size(); ++i) {
    const string id = to_string(i);
    const Value local = i == 0 ? inc : Value(s[i].carry_in);
    if (i > 0) waiting = i == 1 ? Value(s[1].carry_in) : s[i].carry_in | (waiting & s[i - 1].ones);
    settled.push_back(i == 0 ? Value(s[0].v) : m.wire(name + "_s" + id, mux(waiting, s[i].plus1, s[i].v)));
    s[i].v.next(mux(clear, hdl::zero(s[i].v.width()), mux(local, s[i].plus1, s[i].v)));
    if (i + 1 < s.size()) s[i + 1].carry_in.next(~clear & local & s[i].ones);
  }
  CounterState state{full, {}, inc, settled};
  for (const Segment& g : s) state.segments.push_back({g.v, g.carry_in});
  return state;
}

// A counter's count saved at `load` for a parallel output and resolved after
// the edge: the saved segments are the settled count, `inc` the increment of
// the load cycle and `l<i>` whether every lower settled segment is all ones,
// all but `inc` from registers, so the request inputs reach one flip-flop
// instead of the W-bit resolution (the L2-slice monitor's path at 8
// chiplets).
Value saved_count_output(Module& m, const string& name, const CounterState& c, const Value& load) {
  const Reg inc = m.reg(name + "_inc", 1);
  inc.next_if(load, c.inc);
  std::vector<Value> out;  // most significant first
  Value lower_ones;
  for (size_t i = 0; i < c.settled.size(); ++i) {
    const string id = to_string(i);
    const Reg base = m.reg(name + "_b" + id, c.settled[i].width());
    base.next_if(load, c.settled[i]);
    Value bump = inc;
    if (i > 0) {
      lower_ones = i == 1 ? all(c.settled[0]) : lower_ones & all(c.settled[i - 1]);
      const Reg low = m.reg(name + "_l" + id, 1);
      low.next_if(load, lower_ones);
      bump = inc & low;
    }
    out.insert(out.begin(), mux(bump, base + 1, Value(base)));
  }
  return m.wire(name, hdl::cat(out));
}

// One term of a digit-serial linear form: coef x expr, where expr is at most
// `digits` x (2^K - 1) (a K-bit digit or a sum of digits).
struct DigitTerm {
  unsigned coef;
  bool negative;
  Value expr;
  unsigned digits;
};

// The width of the remainder register of digit_remainder().
unsigned remainder_bits(const std::vector<DigitTerm>& terms, unsigned k) {
  unsigned pos = 0, neg = 0, widest = 0;
  for (const DigitTerm& t : terms) {
    (t.negative ? neg : pos) += t.coef * t.digits;
    widest = std::max(widest, t.expr.width() + elab::clog2(t.coef + 1u));
  }
  return std::max(elab::clog2(std::max(pos + 1, neg)) + 1, widest + 1 > k ? widest + 1 - k : 1u);
}

// The sign of sum(+-coef x X) over operands fed K-bit digit by digit, least
// significant first: name_q (reset 0, cleared by `clear`) is
// floor((name_q + sum(+-coef x digit)) / 2^K). With P and Q the positive and
// negative coefficient weights it stays in [-Q, P]; after the last digit its
// sign bit is the sign of the whole form. Returns the sign bit. `staged`
// registers the digits' sum(+-coef x digit) first (`name_y`, cleared by
// `clear`), so the remainder step is one addition: the operands must then
// arrive one edge earlier for the same decision edge.
Value digit_remainder(Module& m, const string& name, const std::vector<DigitTerm>& terms, const Value& clear,
                      unsigned k, bool staged) {
  const unsigned rb = remainder_bits(terms, k), ab = rb + k;
  const Reg rem = m.reg(name, rb);
  const Value rem_wide = hdl::cat({hdl::rep(k, rem.bit(rb - 1)), rem});  // sign-extended
  std::vector<Value> parts;
  uint64_t ones_to_add = 0;  // two's complement of the negative terms
  for (const DigitTerm& t : terms)
    for (unsigned b = 0; (t.coef >> b) != 0; ++b) {
      if (((t.coef >> b) & 1u) == 0) continue;
      const Value wide = hdl::zext(b ? hdl::cat({t.expr, hdl::zero(b)}) : t.expr, ab);
      parts.push_back(t.negative ? ~wide : wide);
      ones_to_add += t.negative ? 1 : 0;
    }
  if (ones_to_add) parts.push_back(hdl::lit(ab, ones_to_add));
  if (staged) {
    const Reg y = m.reg(name + "_y", ab);
    y.next(mux(clear, hdl::zero(ab), hdl::sum_tree(m.top(), name + "_ys", parts, ab)));
    parts = {y};
  }
  parts.insert(parts.begin(), rem_wide);
  const Value a = hdl::sum_tree(m.top(), name + "_a", parts, ab);
  rem.next(mux(clear, hdl::zero(rb), a.slice(k, rb)));
  m.unused(name + "_a", a.slice(0, k));
  return rem.bit(rb - 1);
}

// A W-bit value saved by `load` and read K bits per edge afterwards, least
// significant first. The load edge already takes the first digit (`first`,
// the input's low K bits, which the digit sums load) and the shift register
// (no reset: it is loaded before any check reads it) keeps the rest, so every
// digit is read one edge early. With `registered`, also its digit register
// `<name>_dq` (reset), aligned with a digit_sum of the same edge.
struct DigitSource {
  Value digit, registered, first;
};

DigitSource digit_source(Module& m, const string& name, const Value& value, const Value& load, unsigned k,
                         bool registered) {
  const unsigned w = value.width();
  const Value first = value.slice(0, k);
  const Value kept = value.slice(k, w - k);
  const unsigned sw = kept.width();
  const Reg sh = m.reg_noreset(name + "_sh", sw);
  const Value shifted = sw > k ? hdl::zext(sh.slice(k, sw - k), sw) : hdl::zero(sw);
  sh.next(mux(load, kept, shifted));
  const Value digit = m.wire(name + "_digit", sh.slice(0, k));
  if (!registered) return {digit, {}, first};
  const Reg dq = m.reg(name + "_dq", k);
  dq.next(mux(load, first, digit));
  return {digit, dq, first};
}

// A counter's count saved at `load` and read K bits per edge, least
// significant first, as digit_source() (with the digit register) but without
// the load cycle's increment on the path into the W-bit shift register: it
// takes the settled count with only its low digit incremented, and a carry
// bit adds into the next digit as that digit moves down.
DigitSource saved_count_source(Module& m, const string& name, const CounterState& c, const Value& load, unsigned k) {
  std::vector<Value> high_first(c.settled.rbegin(), c.settled.rend());
  const Value count = hdl::cat(high_first);
  const unsigned w = count.width();
  const Value low = count.slice(0, k);
  const Reg sh = m.reg_noreset(name + "_sh", w);
  const Reg carry = m.reg_noreset(name + "_cy", 1);
  const Value next_digit = m.wire(name + "_nd", sh.slice(k, k) + hdl::zext(carry, k));
  const Value shifted = w > 2 * k ? hdl::cat({hdl::zero(k), sh.slice(2 * k, w - 2 * k), next_digit})
                                  : hdl::cat({hdl::zero(w - k), next_digit});
  sh.next(mux(load, hdl::cat({count.slice(k, w - k), low + hdl::zext(c.inc, k)}), shifted));
  carry.next(mux(load, c.inc & all(low), carry & all(sh.slice(k, k))));
  const Value digit = m.wire(name + "_digit", sh.slice(0, k));
  const Reg dq = m.reg(name + "_dq", k);
  dq.next(mux(load, hdl::zero(k), digit));
  return {digit, dq, {}};
}

// Sum of the current digits of several digit sources, registered: the shared
// total of a digit-serial share test. `clear` loads zero, or with `ahead`
// the sum of the sources' first digits (digit_source()'s `first`).
Value digit_sum(Module& m, const string& name, const std::vector<DigitSource>& sources, const Value& clear,
                unsigned width, bool ahead) {
  std::vector<Value> terms, firsts;
  for (const DigitSource& s : sources) {
    terms.push_back(hdl::zext(s.digit, width));
    if (ahead) firsts.push_back(hdl::zext(s.first, width));
  }
  const Value next = hdl::sum_tree(m.top(), name + "_next", terms, width);
  const Value load = ahead ? hdl::sum_tree(m.top(), name + "_first", firsts, width) : hdl::zero(width);
  const Reg total = m.reg(name, width);
  total.next(mux(clear, load, next));
  return total;
}

// A down-counter loaded with `steps` by `start`: its decision edge is the one
// where it reads 1, `steps` edges after the start edge.
struct StepCounter {
  Value last, idle;  // reads 1; reads 0 (no decision pending)
  Value q;           // the count
};

StepCounter step_counter(Module& m, const string& name, const Value& start, unsigned steps) {
  const unsigned b = elab::clog2(steps + 1u);
  const Reg q = m.reg(name, b);
  q.next(mux(start, hdl::lit(b, steps), mux(q != 0, q - 1, hdl::zero(b))));
  return {m.wire(name + "_last", q == 1), q == 0, q};
}

// d = in - 2 out, two's complement; possible = (d after this cycle) >= 1,
// chosen among four flags of the registered d by the two request bits.
Value possible_imbalance(Module& m, const Reg& d, const Value& in, const Value& out) {
  const unsigned dw = d.width();
  const Value neg = m.wire("d_neg", d.bit(dw - 1));
  const Value ge1 = m.wire("d_ge1", ~neg & any(d.slice(0, dw - 1)));
  const Value ge2 = m.wire("d_ge2", ~neg & any(d.slice(1, dw - 2)));
  const Value ge3 = m.wire("d_ge3", ~neg & (any(d.slice(2, dw - 3)) | (d.bit(1) & d.bit(0))));
  return m.wire("possible", mux(in, mux(out, ge2, ~neg), mux(out, ge3, ge1)));
}

}  // namespace

// ---------------------------------------------------------------------------

ModulePtr emit_hsl(const DhslParams& p, const EmitContext& ctx) {
  auto m = std::make_unique<Module>(p.module_prefix + "_hsl");
  header(*m, p, ctx, "home-slice selection function (combinational)");
  const Value vpn = m->input("vpn_i", p.vpn_bits);
  Value fine, shift, local;
  if (p.has_registers()) {
    fine = m->input("fine_i", 1, "1: 4 KB interleave (dHSL-balance)");
    shift = m->input("shift_i", p.shift_bits, "coarse block = 2^shift pages");
  }
  if (p.policy == config::DhslPolicy::Private) local = m->input("local_i", p.chiplet_bits);
  const Wire home = m->output("home_o", p.chiplet_bits);
  if (p.policy == config::DhslPolicy::Private) {
    home.drive(local);
    m->unused("vpn", vpn);
    return m;
  }
  const Value key = m->wire("key", p.has_registers() ? mux(fine, vpn, vpn >> shift) : vpn);
  mod_chiplets(*m, p, key, "key", home);
  return m;
}

ModulePtr emit_hsl_reg(const DhslParams& p, const EmitContext& ctx) {
  auto m = std::make_unique<Module>(p.module_prefix + "_hsl_reg");
  header(*m, p, ctx, "HSL register of an L1 TLB, RTU or L2 slice");
  m->clock_and_reset();
  const Value launch = m->input("launch_i", 1, "kernel launch: coarse HSL with launch_shift_i");
  const Value launch_shift = m->input("launch_shift_i", p.shift_bits);
  Value sync, mode;
  if (p.has_monitors()) {
    sync = m->input("sync_i", 1, "the command processor's switch message arrives");
    mode = m->input("mode_i", 1);
  }
  const Wire fine_o = m->output("fine_o", 1);
  const Wire shift_o = m->output("shift_o", p.shift_bits);
  const Reg fine = m->reg("fine", 1);
  fine.next(mux(launch, hdl::zero(1), p.has_monitors() ? mux(sync, mode, fine) : Value(fine)));
  // Stored XOR the reset value, so the zero reset of every flop gives the configured shift.
  const Value reset_shift = hdl::lit(p.shift_bits, p.coarse_shift);
  const Reg shift_x = m->reg("shift_x", p.shift_bits);
  shift_x.next_if(launch, launch_shift ^ reset_shift);
  fine_o.drive(fine);
  shift_o.drive(shift_x ^ reset_shift);
  return m;
}

// The RTU counters never exceed E (an epoch ends when in + out reaches E), so
// they are R = clog2(E + 1) bits wide and never saturate; the document's W
// bits are the ports and the storage report. The epoch is a down-counter and
// "in > 2 out" is an incrementally kept difference, so no wide carry chain
// sits between the request inputs and the epoch-end decision.
ModulePtr emit_rtu_mon(const DhslParams& p, const EmitContext& ctx) {
  const unsigned w = p.counter_bits, e = p.epoch_requests, r = elab::clog2(uint64_t{e} + 1), dw = r + 2;
  auto m = std::make_unique<Module>(p.module_prefix + "_rtu_mon");
  header(*m, p, ctx, "RTU monitor: epoch, incoming/outgoing counters, possible imbalance, trigger");
  m->clock_and_reset();
  const Value in = m->input("in_i", 1, "a request arrives from another chiplet");
  const Value out = m->input("out_i", 1, "a request leaves for another chiplet");
  const Wire epoch_o = m->output("epoch_o", 1, "pulse: the cycle after an epoch ended");
  const Wire trigger_o = m->output("trigger_o", 1, "pulse: possible imbalance in two consecutive epochs");
  const Wire possible_o = m->output("possible_o", 1, "the last epoch flagged a possible imbalance");
  const Wire prev_in_o = m->output("prev_in_o", w);
  const Wire prev_out_o = m->output("prev_out_o", w);
  const Reg inc = m->reg("inc", r), outc = m->reg("outc", r);
  const Reg prev_in = m->reg("prev_in", w), prev_out = m->reg("prev_out", w);
  const Reg streak = m->reg("streak", 1), epoch_p = m->reg("epoch_p", 1), trig = m->reg("trig", 1);
  const Value n = m->wire("n", hdl::zext(in, 2) + hdl::zext(out, 2));
  // requests left in the epoch, stored XOR E so that the zero reset means E
  const Value e_bits = hdl::lit(r, e);
  const Reg left_x = m->reg("left_x", r);
  const Value left = m->wire("left", left_x ^ e_bits);
  const Value ends = m->wire("ends", ((left == 1) & (n != 0)) | ((left == 2) & (n == 2)));
  left_x.next(mux(ends, hdl::zero(r), (left - hdl::zext(n, r)) ^ e_bits));
  const Value in_new = m->wire("in_new", inc + hdl::zext(in, r));
  const Value out_new = m->wire("out_new", outc + hdl::zext(out, r));
  const Reg d = m->reg("d", dw);
  const Value possible = possible_imbalance(*m, d, in, out);
  d.next(mux(ends, hdl::zero(dw), d + hdl::zext(in, dw) - hdl::zext(hdl::cat({out, hdl::zero(1)}), dw)));
  inc.next(mux(ends, hdl::zero(r), in_new));
  outc.next(mux(ends, hdl::zero(r), out_new));
  prev_in.next_if(ends, hdl::zext(in_new, w));  // R <= W: the configuration keeps E < 2^W
  prev_out.next_if(ends, hdl::zext(out_new, w));
  streak.next_if(ends, possible & ~streak);
  trig.next(ends & possible & streak);
  epoch_p.next(ends);
  epoch_o.drive(epoch_p);
  trigger_o.drive(trig);
  possible_o.drive(streak);
  prev_in_o.drive(prev_in);
  prev_out_o.drive(prev_out);
  rtu_mon_properties(*m, p, {in, out, epoch_p, trig, streak, prev_in, prev_out, inc, outc, left, d});
  return m;
}

// The counters are segmented_counter()s; the balance check is digit-serial
// over the saved per-chiplet counts (docs/blocks/dhsl.md, L2-slice monitor).
ModulePtr emit_l2_mon(const DhslParams& p, const EmitContext& ctx) {
  const unsigned w = p.counter_bits, n = p.chiplets, cb = p.chiplet_bits, k = p.check_digit_bits;
  auto m = std::make_unique<Module>(p.module_prefix + "_l2_mon");
  header(*m, p, ctx, "L2-slice monitor: hits/accesses, accesses per coarse home, switch-back check");
  m->clock_and_reset();
  const Value access = m->input("access_i", 1);
  const Value hit = m->input("hit_i", 1);
  const Value cid = m->input("cid_i", cb, "the accessed entry's home under dHSL-coarse");
  const Value epoch = m->input("epoch_i", 1, "the chiplet's RTU ended an epoch");
  const Wire back_o = m->output("back_o", 1, "pulse: balanced for two consecutive epochs");
  const Wire prev_hits_o = m->output("prev_hits_o", w);
  const Wire prev_acc_o = m->output("prev_acc_o", w);
  const CounterState acc = segmented_counter(*m, "acc", access, epoch, w);
  const CounterState hits = segmented_counter(*m, "hits", access & hit, epoch, w);
  const Value prev_acc = saved_count_output(*m, "prev_acc", acc, epoch);
  const Value prev_hits = saved_count_output(*m, "prev_hits", hits, epoch);
  std::vector<DigitSource> sources;
  std::vector<CounterState> cnt_state;
  for (unsigned c = 0; c < n; ++c) {
    const string cnt = "cnt" + to_string(c);
    cnt_state.push_back(segmented_counter(*m, cnt, access & (cid == c), epoch, w));
    sources.push_back(saved_count_source(*m, "prev_" + cnt, cnt_state.back(), epoch, k));
  }
  // balanced: for every c, Bn x total - Bd x prev_cnt[c] >= 0
  const Value total = digit_sum(*m, "total_digits", sources, epoch, k + cb, false);
  std::vector<Value> not_negative;
  for (unsigned c = 0; c < n; ++c)
    not_negative.push_back(~digit_remainder(
        *m, "rem" + to_string(c),
        {{p.balanced_num, false, total, n}, {p.balanced_den, true, sources[c].registered, 1}}, epoch, k, false));
  const Value balanced = m->wire("balanced", hdl::and_of(not_negative, hdl::ones(1)));
  const StepCounter step = step_counter(*m, "step", epoch, p.check_steps + 2);
  const Value decide = step.last;
  const Reg streak = m->reg("streak", 1), back = m->reg("back", 1);
  streak.next_if(decide, balanced & ~streak);
  back.next(decide & balanced & streak);
  back_o.drive(back);
  prev_hits_o.drive(prev_hits);
  prev_acc_o.drive(prev_acc);
  l2_mon_properties(*m, p, {access, hit, cid, epoch, back, prev_acc, prev_hits, acc, hits, cnt_state, balanced, decide,
                            step.q, streak});
  return m;
}

// Arm, gather (a snapshot of the inputs), then a digit-serial decision
// J + 2 edges later (docs/blocks/dhsl.md, command-processor decision unit).
// The gather edge already sums the first digits (digit_source), so
// each remainder step adds a registered sum of its terms (`staged`): the
// sums of 2N digits and their coefficients no longer share a cycle with the
// remainder's addition.
ModulePtr emit_cp(const DhslParams& p, const EmitContext& ctx) {
  const unsigned w = p.counter_bits, n = p.chiplets, cb = p.chiplet_bits, k = p.check_digit_bits;
  auto m = std::make_unique<Module>(p.module_prefix + "_cp");
  header(*m, p, ctx, "command-processor decision unit (Listing 2) and switch back");
  m->clock_and_reset();
  const Value trigger = m->input("trigger_i", n);
  const Value back = m->input("back_i", n);
  const Value prev_in = m->input("prev_in_i", n * w, "RTU c's incoming count of the last epoch at [(c+1)W-1:cW]");
  const Value prev_hits = m->input("prev_hits_i", n * w);
  const Value prev_acc = m->input("prev_acc_i", n * w);
  const Wire mode_o = m->output("mode_o", 1, "0 dHSL-coarse, 1 dHSL-balance");
  const Wire switch_o = m->output("switch_o", 1, "pulse: the mode changed (broadcast)");
  const Reg mode = m->reg("mode", 1), prev_imb = m->reg("prev_imb", 1), armed = m->reg("armed", 1);
  const Reg sw = m->reg("sw", 1);
  const StepCounter pend = step_counter(*m, "pend", armed, p.check_steps + 2);
  armed.next(m->wire("arm", any(trigger) & ~mode & ~armed & pend.idle));
  std::vector<DigitSource> in_src, hit_src, acc_src;
  for (unsigned c = 0; c < n; ++c) {
    const string id = to_string(c);
    in_src.push_back(digit_source(*m, "gin" + id, prev_in.field(c, w), armed, k, true));
    hit_src.push_back(digit_source(*m, "ghit" + id, prev_hits.field(c, w), armed, k, false));
    acc_src.push_back(digit_source(*m, "gacc" + id, prev_acc.field(c, w), armed, k, false));
  }
  const Value in_total = digit_sum(*m, "in_digits", in_src, armed, k + cb, true);
  const Value hit_total = digit_sum(*m, "hit_digits", hit_src, armed, k + cb, true);
  const Value acc_total = digit_sum(*m, "acc_digits", acc_src, armed, k + cb, true);
  // imbalance: some c with In x total_in - Id x prev_in[c] < 0
  std::vector<Value> negative;
  for (unsigned c = 0; c < n; ++c)
    negative.push_back(digit_remainder(
        *m, "rem" + to_string(c),
        {{p.imbalance_num, false, in_total, n}, {p.imbalance_den, true, in_src[c].registered, 1}}, armed, k, true));
  const Value imbalance = m->wire("imbalance", hdl::or_of(negative, hdl::zero(1)));
  // high: Hn x acc - Hd x hits < 0
  const Value high = m->wire(
      "high", digit_remainder(*m, "rem_hit", {{p.hit_num, false, acc_total, n}, {p.hit_den, true, hit_total, n}},
                              armed, k, true));
  const Value go_fine = m->wire("go_fine", pend.last & imbalance & high & prev_imb);
  const Value back_fire = m->wire("back_fire", mode & any(back));
  prev_imb.next(mux(pend.last, imbalance & high & ~prev_imb, mux(back_fire, hdl::zero(1), prev_imb)));
  mode.next(mux(go_fine, hdl::ones(1), mux(back_fire, hdl::zero(1), mode)));
  sw.next(go_fine | back_fire);
  mode_o.drive(mode);
  switch_o.drive(sw);
  cp_properties(*m, p, {trigger, back, prev_in, prev_hits, prev_acc, armed, pend.last, imbalance, high, go_fine, back_fire,
                        mode, sw, prev_imb});
  return m;
}

ModulePtr emit_router(const DhslParams& p, const EmitContext& ctx, const Interface& hsl) {
  auto m = std::make_unique<Module>(p.module_prefix + "_router");
  header(*m, p, ctx, "routing decisions of an RTU and an L2 slice (Fig. 6b), combinational");
  const Value local = m->input("local_i", p.chiplet_bits);
  const Value vpn = m->input("vpn_i", p.vpn_bits);
  struct Side {
    string who;
    Value fine, shift, home;
  };
  std::vector<Side> sides = {{"rtu", {}, {}, {}}, {"l2", {}, {}, {}}};
  if (p.has_registers())
    for (Side& s : sides) {
      s.fine = m->input(s.who + "_fine_i", 1);
      s.shift = m->input(s.who + "_shift_i", p.shift_bits);
    }
  const Wire rtu_home = m->output("rtu_home_o", p.chiplet_bits, "the RTU sends the request to this chiplet");
  const Wire rtu_local = m->output("rtu_local_o", 1, "... which is the local one: to the local L2 slice");
  const Wire l2_walk = m->output("l2_walk_o", 1, "on a miss the L2 slice walks (else: to its RTU)");
  const Wire l2_home = m->wire("l2_home", p.chiplet_bits);
  sides[0].home = rtu_home;
  sides[1].home = l2_home;
  for (const Side& s : sides) {
    std::vector<std::pair<string, Value>> conn = {{"vpn_i", vpn}};
    if (p.has_registers()) conn.insert(conn.end(), {{"fine_i", s.fine}, {"shift_i", s.shift}});
    if (p.policy == config::DhslPolicy::Private) conn.push_back({"local_i", local});
    conn.push_back({"home_o", s.home});
    m->instance(hsl, "u_" + s.who + "_hsl", conn);
  }
  rtu_local.drive(rtu_home == local);
  l2_walk.drive(l2_home == local);
  return m;
}

// The HSL of one L1 TLB as a clocked unit (register, function, registered
// home): what synthesis measures for the HSL.
ModulePtr emit_hsl_stage(const DhslParams& p, const EmitContext& ctx, const Interface& hsl,
                         const Interface& hsl_reg) {
  auto m = std::make_unique<Module>(p.module_prefix + "_hsl_stage");
  header(*m, p, ctx, "HSL unit of an L1 TLB: HSL register, function, registered home (synthesis top)");
  const Clock clock = m->clock_and_reset();
  std::vector<std::pair<string, Value>> reg_conn = {{"clk_i", clock.clk}, {"rst_ni", clock.rst_n}};
  if (p.has_registers()) {
    reg_conn.push_back({"launch_i", m->input("launch_i", 1)});
    reg_conn.push_back({"launch_shift_i", m->input("launch_shift_i", p.shift_bits)});
    if (p.has_monitors()) {
      reg_conn.push_back({"sync_i", m->input("sync_i", 1)});
      reg_conn.push_back({"mode_i", m->input("mode_i", 1)});
    }
  }
  const Value local = p.policy == config::DhslPolicy::Private ? m->input("local_i", p.chiplet_bits) : Value();
  const Value vpn = m->input("vpn_i", p.vpn_bits);
  const Wire home_o = m->output("home_o", p.chiplet_bits);
  std::vector<std::pair<string, Value>> conn = {{"vpn_i", vpn}};
  if (p.has_registers()) {
    const Wire fine = m->wire("fine", 1);
    const Wire shift = m->wire("shift", p.shift_bits);
    reg_conn.insert(reg_conn.end(), {{"fine_o", fine}, {"shift_o", shift}});
    m->instance(hsl_reg, "u_reg", reg_conn);
    conn.insert(conn.end(), {{"fine_i", fine}, {"shift_i", shift}});
  }
  if (local.valid()) conn.push_back({"local_i", local});
  const Wire home = m->wire("home", p.chiplet_bits);
  conn.push_back({"home_o", home});
  m->instance(hsl, "u_hsl", conn);
  const Reg home_q = m->reg("home", p.chiplet_bits);
  home_q.next(home);
  home_o.drive(home_q);
  return m;
}

}  // namespace txgen::blocks::dhsl
