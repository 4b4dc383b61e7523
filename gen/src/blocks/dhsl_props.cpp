// Formal properties of the dHSL monitors and the command processor's decision
// unit (txgen prove; docs/verification.md, "Formal proofs"). Each unit is
// checked against a plain reference kept in its formal region: exact
// saturating counters, and the document's threshold tests computed with
// multipliers, where the RTL has segmented counters and digit-serial checks.
#include <algorithm>

#include "txgen/blocks/dhsl_emit.h"
#include "txgen/elab/bits.h"
#include "txgen/hdl/lib.h"

namespace txgen::blocks::dhsl {
namespace {

using hdl::cat;
using hdl::lit;
using hdl::Module;
using hdl::mux;
using hdl::one_bit;
using hdl::Reg;
using hdl::Value;
using hdl::zero;
using hdl::zext;

// min(v + inc, 2^w - 1) for a one-bit inc
Value sat_inc(const Value& v, const Value& inc) { return mux(hdl::all(v), v, v + zext(inc, v.width())); }

// A reference counter of the formal region: counts inc, saturating, cleared
// by `clear` (after counting). Returns the register; `next` is its count
// including this cycle's inc.
struct RefCounter {
  Reg q;
  Value next;
};
RefCounter ref_counter(Module& m, const std::string& name, unsigned w, const Value& inc, const Value& clear) {
  RefCounter c{m.formal_reg(name, w), {}};
  c.next = m.formal().wire(name + "_next", sat_inc(c.q, inc));
  c.q.next(mux(clear, zero(w), c.next));
  return c;
}

// A register of the formal region loaded with v when `load`.
Reg held(Module& m, const std::string& name, const Value& load, const Value& v) {
  const Reg r = m.formal_reg(name, v.width());
  r.next(mux(load, v, r));
  return r;
}

// x * num > y * den (or >=, <=) on values of `w` bits: products in w + 5 bits
// (num, den <= 16).
Value times(const Value& x, unsigned k, unsigned w) { return zext(x, w + 5) * lit(w + 5, k); }

Value sum(const std::vector<Value>& terms, unsigned w) {
  std::vector<Value> wide;
  for (const Value& t : terms) wide.push_back(zext(t, w));
  return hdl::sum_of(wide);
}

// The count plus this cycle's increment as the saves take it: the settled
// segments (waiting carries applied) and the increment bit.
Value counted_next(const CounterState& c) {
  const std::vector<Value> high_first(c.settled.rbegin(), c.settled.rend());
  const Value count = cat(high_first);
  return count + zext(c.inc, count.width());
}

// A segmented counter holds the reference count `ref`: its segments plus the
// carries waiting for them, at most one carry in flight (the segment below a
// waiting carry has just wrapped to zero), and the saturation flag set
// exactly at the largest count.
Value counter_matches(const CounterState& c, const Value& ref) {
  const unsigned w = ref.width();
  std::vector<Value> terms, ok;
  unsigned lsb = 0;
  for (size_t i = 0; i < c.segments.size(); ++i) {
    const auto& [v, carry] = c.segments[i];
    terms.push_back(zext(lsb ? cat({v, zero(lsb)}) : v, w + 1));
    if (carry.valid()) {
      terms.push_back(zext(cat({carry, zero(lsb)}), w + 1));
      ok.push_back(~carry | (c.segments[i - 1].first == 0));
    }
    lsb += v.width();
  }
  ok.push_back(hdl::sum_of(terms) == zext(ref, w + 1));
  ok.push_back(c.full == hdl::all(ref));
  return hdl::and_of(ok, one_bit(true));
}

}  // namespace

void rtu_mon_properties(Module& m, const elab::DhslParams& p, const RtuMonSignals& s) {
  const unsigned w = p.counter_bits, xw = w + 3, e = p.epoch_requests;
  hdl::Scope& f = m.formal();
  // the reference epoch: it ends when its requests (this cycle's included) reach E
  const Reg in_q = m.formal_reg("f_in", w), out_q = m.formal_reg("f_out", w);
  const Value in_n = f.wire("f_in_next", sat_inc(in_q, s.in)), out_n = f.wire("f_out_next", sat_inc(out_q, s.out));
  const Value ends = f.wire("f_ends", zext(in_q, xw) + zext(out_q, xw) + zext(s.in, xw) + zext(s.out, xw) >= e);
  in_q.next(mux(ends, zero(w), in_n));
  out_q.next(mux(ends, zero(w), out_n));
  const Reg prev_in = held(m, "f_prev_in", ends, in_n), prev_out = held(m, "f_prev_out", ends, out_n);
  const Value epoch = m.past("f_epoch", ends);
  // the history of the epochs as the outputs show it (in the cycle after each end)
  const Value flag = f.wire("f_flag", s.epoch & (zext(s.prev_in, w + 1) > cat({s.prev_out, zero(1)})));
  const Reg flag_last = held(m, "f_flag_last", s.epoch, flag), trig_last = held(m, "f_trig_last", s.epoch, s.trigger);
  const Value second = f.wire("f_second_flagged", flag & flag_last & ~trig_last);
  m.assert_always("epoch_counts_exact", (s.epoch == epoch) & (s.prev_in == prev_in) & (s.prev_out == prev_out));
  m.assert_always("trigger_only_after_two_flagged_epochs", ~s.trigger | second);
  m.assert_always("trigger_on_two_flagged_epochs", ~second | s.trigger);
  const unsigned r = s.inc.width(), dw = s.d.width();
  const Value left_ref = f.wire("f_left", lit(xw, e) - zext(in_q, xw) - zext(out_q, xw)).slice(0, r);
  const Value d_ref = f.wire("f_d", zext(in_q, xw) - zext(cat({out_q, zero(1)}), xw)).slice(0, dw);
  m.assert_always("inv_counts", (zext(s.inc, w) == in_q) & (zext(s.outc, w) == out_q) & (s.left == left_ref) &
                                    (s.d == d_ref));
  m.assert_always("inv_streak", s.epoch | (s.possible == (flag_last & ~trig_last)));
}

void l2_mon_properties(Module& m, const elab::DhslParams& p, const L2MonSignals& s) {
  const unsigned w = p.counter_bits, n = p.chiplets, cb = p.chiplet_bits;
  const unsigned cap = (p.epoch_requests + 1) / 2, gw = elab::clog2(cap + 1u);
  hdl::Scope& f = m.formal();
  // environment: the RTU's epoch pulses are at least ceil(E / 2) cycles apart
  // (at most two requests per cycle end an epoch of E)
  const Reg gap = m.formal_reg("f_gap", gw, cap);
  gap.next(mux(s.epoch, lit(gw, 1), mux(gap == cap, gap, gap + 1)));
  m.assume_always("epoch_spacing", ~s.epoch | (gap == cap));
  const RefCounter acc = ref_counter(m, "f_acc", w, s.access, s.epoch);
  const RefCounter hits = ref_counter(m, "f_hits", w, s.access & s.hit, s.epoch);
  std::vector<Value> cnt, counters_ok = {counted_next(s.acc) == acc.next, counted_next(s.hits) == hits.next};
  std::vector<Value> states_ok = {counter_matches(s.acc, acc.q), counter_matches(s.hits, hits.q)};
  for (unsigned c = 0; c < n; ++c) {
    const RefCounter ref = ref_counter(m, "f_cnt" + std::to_string(c), w, s.access & (s.cid == c), s.epoch);
    cnt.push_back(ref.next);
    counters_ok.push_back(counted_next(s.cnt[c]) == ref.next);
    states_ok.push_back(counter_matches(s.cnt[c], ref.q));
  }
  m.assert_always("counters_saturate", hdl::and_of(counters_ok, one_bit(true)));
  m.assert_always("inv_counter_segments", hdl::and_of(states_ok, one_bit(true)));
  const Reg pacc = held(m, "f_prev_acc", s.epoch, acc.next), phits = held(m, "f_prev_hits", s.epoch, hits.next);
  m.assert_always("saved_counts_exact", (s.prev_acc == pacc) & (s.prev_hits == phits));
  // the epoch's balance by the document: every prev_cnt[c] x Bd <= total x Bn
  const unsigned tw = w + cb;
  const Value total = f.wire("f_total", sum(cnt, tw));
  std::vector<Value> shares;
  for (unsigned c = 0; c < n; ++c) shares.push_back(times(cnt[c], p.balanced_den, tw) <= times(total, p.balanced_num, tw));
  const Value balanced = f.wire("f_balanced", hdl::and_of(shares, one_bit(true)));
  const Reg bal_cur = held(m, "f_bal_cur", s.epoch, balanced), bal_prev = held(m, "f_bal_prev", s.epoch, bal_cur);
  // back pulses of the current and of the previous epoch's check
  const Reg back_seen = m.formal_reg("f_back_seen", 1);
  const Value seen = f.wire("f_seen", back_seen | s.back);
  back_seen.next(mux(s.epoch, zero(1), seen));
  const Reg back_prev = held(m, "f_back_prev", s.epoch, seen);
  const Value two_balanced = f.wire("f_two_balanced", bal_cur & bal_prev & ~back_prev);
  m.assert_always("balance_check_exact", ~s.decide | (s.balanced == bal_cur));
  m.assert_always("back_only_after_two_balanced_epochs", ~s.back | two_balanced);
  m.assert_always("back_on_two_balanced_epochs", ~s.epoch | (seen == two_balanced));
  const Value idle = s.step == 0;
  m.assert_always("inv_streak", s.streak == mux(idle, bal_cur & ~seen, bal_prev & ~back_prev));
  m.assert_always("inv_back_decided", ~idle | (seen == two_balanced));
  const unsigned xw = std::max(gw, s.step.width()) + 1;
  m.assert_always("inv_check_window", idle | (zext(s.step, xw) + zext(gap, xw) == p.check_steps + 3));
}

void cp_properties(Module& m, const elab::DhslParams& p, const CpSignals& s) {
  const unsigned w = p.counter_bits, n = p.chiplets, tw = w + p.chiplet_bits;
  hdl::Scope& f = m.formal();
  // the decision by the document on the values gathered (when armed)
  std::vector<Value> in, hits, acc, over;
  for (unsigned c = 0; c < n; ++c) {
    in.push_back(s.prev_in.field(c, w));
    hits.push_back(s.prev_hits.field(c, w));
    acc.push_back(s.prev_acc.field(c, w));
  }
  const Value total_in = f.wire("f_total_in", sum(in, tw));
  for (unsigned c = 0; c < n; ++c)
    over.push_back(times(in[c], p.imbalance_den, tw) > times(total_in, p.imbalance_num, tw));
  const Value imbalance = f.wire("f_imbalance", hdl::or_of(over, zero(1)));
  const Value high = f.wire("f_high", times(sum(hits, tw), p.hit_den, tw) > times(sum(acc, tw), p.hit_num, tw));
  const Reg flag = held(m, "f_flag", s.armed, imbalance & high);
  m.assert_always("decision_exact", ~s.decide | ((s.imbalance & s.high) == flag));
  // the history of the decisions: the last one's flag, whether it switched,
  // whether a switch back came since
  const Reg flag_last = held(m, "f_flag_last", s.decide, flag);
  const Reg switched_last = held(m, "f_switched_last", s.decide, s.go_fine);
  const Reg cleared = m.formal_reg("f_cleared", 1);
  cleared.next(mux(s.decide, zero(1), cleared | s.back_fire));
  const Value two_flagged = f.wire("f_two_flagged", s.decide & flag & flag_last & ~switched_last & ~cleared);
  const Value to_balance = m.past("f_to_balance", two_flagged);
  const Value back_requested = m.past("f_back_requested", s.mode & hdl::any(s.back));
  const Value triggered = m.past("f_triggered", hdl::any(s.trigger));
  m.assert_always("switch_to_balance_only_after_two_flagged_decisions", ~(s.sw & s.mode) | to_balance);
  m.assert_always("switch_back_only_on_back", ~(s.sw & ~s.mode) | back_requested);
  m.assert_always("arm_only_on_trigger", ~s.armed | triggered);
  m.assert_always("inv_prev_imbalance", s.prev_imb == (flag_last & ~switched_last & ~cleared));
}

}  // namespace txgen::blocks::dhsl
