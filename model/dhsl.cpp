// Golden cycle model of the MGvm home-slice selection and dHSL switching
// logic (dhsl_NAME_sys), from docs/blocks/dhsl.md only. Quotations in the
// comments are from that document; "READING:" marks a place where the
// document left a choice and the most literal reading was taken.
#include "model/dhsl.h"

#include "model/util.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

namespace txgen::model {

namespace {

using config::DhslPolicy;

uint64_t low_mask(unsigned bits) { return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }

const Require require{"dhsl model"};

}  // namespace

// ---------------------------------------------------------------------------
// HSL function

// "private: the local chiplet (input local_i)"; "shared_static: vpn mod N";
// "mgvm_coarse, mgvm: (fine ? vpn : vpn >> shift) mod N".
// READING: vpn_i is VPN bits wide, shift_i SH bits and local_i CB bits, so the
// arguments are first cut to those widths (a shift of 63 on a narrower VPN
// gives 0, home 0).
uint32_t dhsl_home(const elab::DhslParams& p, uint64_t vpn, bool fine, uint32_t shift, uint32_t local) {
  const uint64_t v = vpn & low_mask(p.vpn_bits);
  const uint32_t sh = static_cast<uint32_t>(shift & low_mask(p.shift_bits));
  switch (p.policy) {
    case DhslPolicy::Private:
      return static_cast<uint32_t>(local & low_mask(p.chiplet_bits));
    case DhslPolicy::SharedStatic:
      return static_cast<uint32_t>(v % p.chiplets);
    case DhslPolicy::MgvmCoarse:
    case DhslPolicy::Mgvm:
    default: {
      const uint64_t x = fine ? v : (sh >= 64 ? 0 : v >> sh);
      return static_cast<uint32_t>(x % p.chiplets);
    }
  }
}

// ---------------------------------------------------------------------------
// Construction

void DhslModel::validate() const {
  const auto& p = p_;
  require(p.chiplets >= 2 && p.chiplets <= 8, "chiplets not in [2, 8]");
  const unsigned cb = ceil_log2(p.chiplets);
  require(p.chiplet_bits == (cb < 1 ? 1 : cb), "chiplet_bits != max(1, ceil(log2 N))");
  require(p.vpn_bits >= 1 && p.vpn_bits <= 64, "vpn_bits not in [1, 64]");
  require(p.shift_bits == 6, "shift_bits != 6");
  if (p.has_registers()) require(p.coarse_shift < 64, "coarse_shift does not fit SH bits");
  if (p.has_monitors()) {
    require(p.counter_bits >= 8 && p.counter_bits <= 32, "counter_bits not in [8, 32]");
    // "J | 4-bit digits of a counter ... | ceil(W / 4) (derived)"
    require(p.check_digit_bits == 4, "check_digit_bits != 4");
    require(p.check_steps == (p.counter_bits + 3) / 4, "check_steps (J) != ceil(counter_bits / 4)");
    // "max(8, 2 (J + 3)) <= E <= 2^W - 1": a balance check must reach its
    // decision edge X + J + 2 before the next epoch edge (at least ceil(E / 2)
    // cycles later).
    const unsigned e_min = std::max(8u, 2 * (p.check_steps + 3));
    require(p.epoch_requests >= e_min,
            "epoch_requests (E = " + std::to_string(p.epoch_requests) + ") < max(8, 2 (J + 3)) = " +
                std::to_string(e_min) + " for counter_bits " + std::to_string(p.counter_bits));
    require(p.epoch_requests <= low_mask(p.counter_bits), "epoch_requests > 2^W - 1");
    auto frac = [](unsigned num, unsigned den, const char* what) {
      require(den >= 1 && den <= 16 && num >= 1 && num < den, std::string(what) + " not 0 < num/den < 1, den <= 16");
    };
    frac(p.imbalance_num, p.imbalance_den, "imbalance");
    frac(p.hit_num, p.hit_den, "hit_rate");
    frac(p.balanced_num, p.balanced_den, "balanced");
  }
}

DhslModel::DhslModel(const elab::DhslParams& p) : p_(p) {
  validate();
  const unsigned n = p_.chiplets;
  cmax_ = p_.has_monitors() ? static_cast<uint32_t>(low_mask(p_.counter_bits)) : 0;
  reset_.rtu.assign(n, Rtu{});
  L2 l2;
  l2.cnt.assign(n, 0);
  l2.prev_cnt.assign(n, 0);
  reset_.l2.assign(n, l2);
  Reg r;
  r.fine = false;  // "fine_q (reset 0 = coarse)"
  r.shift = p_.has_registers() ? p_.coarse_shift : 0;  // "shift_q (SH, reset = dhsl.coarse_shift)"
  reset_.rtu_reg.assign(n, r);
  reset_.l2_reg.assign(n, r);
  reset_.cp = Cp{};
  reset_.cp.prev_in.assign(n, 0);
  reset_.cp.prev_hits.assign(n, 0);
  reset_.cp.prev_acc.assign(n, 0);
  s_ = reset_;
}

DhslIn DhslModel::idle_inputs() const {
  const unsigned n = p_.chiplets;
  DhslIn in;
  in.rtu_in.assign(n, false);
  in.rtu_out.assign(n, false);
  in.l2_access.assign(n, false);
  in.l2_hit.assign(n, false);
  in.l2_cid.assign(n, 0);
  in.rtu_sync.assign(n, false);
  in.l2_sync.assign(n, false);
  in.q_vpn.assign(n, 0);
  return in;
}

void DhslModel::check_inputs(const DhslIn& in) const {
  const size_t n = p_.chiplets;
  require(in.q_vpn.size() == n, "q_vpn must have N entries");
  if (p_.has_monitors()) {
    require(in.rtu_in.size() == n && in.rtu_out.size() == n && in.l2_access.size() == n &&
                in.l2_hit.size() == n && in.l2_cid.size() == n && in.rtu_sync.size() == n &&
                in.l2_sync.size() == n,
            "per-chiplet input vectors must have N entries");
  }
}

uint32_t DhslModel::sat_add(uint32_t x, bool inc, bool& clipped) const {
  // sat(x) = min(x, 2^W - 1)
  if (!inc) return x;
  if (x >= cmax_) {
    clipped = true;
    return cmax_;
  }
  return x + 1;
}

// ---------------------------------------------------------------------------
// Outputs (combinational from the state and q_vpn_i)

DhslOut DhslModel::outputs(const DhslIn& in) const {
  DhslOut o;
  outputs(in, o);
  return o;
}

void DhslModel::outputs(const DhslIn& in, DhslOut& o) const {
  check_inputs(in);
  const State& s = in.rst_n ? s_ : reset_;  // asynchronous reset
  const unsigned n = p_.chiplets;
  o.mode = o.switch_pulse = false;
  o.trigger.assign(n, false);
  o.possible.assign(n, false);
  o.epoch.assign(n, false);
  o.back.assign(n, false);
  o.rtu_fine.assign(n, false);
  o.l2_fine.assign(n, false);
  o.rtu_home.assign(n, 0);
  o.rtu_local.assign(n, false);
  o.l2_walk.assign(n, false);
  if (p_.has_monitors()) {
    o.mode = s.cp.mode;
    o.switch_pulse = s.cp.sw;
    for (unsigned c = 0; c < n; ++c) {
      o.trigger[c] = s.rtu[c].trig;
      o.possible[c] = s.rtu[c].streak;  // "possible_o = streak_q"
      o.epoch[c] = s.rtu[c].epoch_p;
      o.back[c] = s.l2[c].back;
    }
  }
  for (unsigned c = 0; c < n; ++c) {
    // Policies without registers: the HSL has no fine/shift ports (the
    // function ignores them); the fine outputs are 0.
    const Reg& rr = s.rtu_reg[c];
    const Reg& lr = s.l2_reg[c];
    if (p_.has_registers()) {
      o.rtu_fine[c] = rr.fine;
      o.l2_fine[c] = lr.fine;
    }
    const uint64_t vpn = in.q_vpn[c];
    const uint32_t rh = dhsl_home(p_, vpn, rr.fine, rr.shift, c);
    o.rtu_home[c] = rh;
    o.rtu_local[c] = rh == c;
    o.l2_walk[c] = dhsl_home(p_, vpn, lr.fine, lr.shift, c) == c;
  }
}

// ---------------------------------------------------------------------------
// Rising edge. Every step reads the state before the edge (s_) and writes
// the state after it (nx): all registers change together.

void DhslModel::posedge(const DhslIn& in) {
  events_ = DhslEvents{};
  if (!in.rst_n) {
    s_ = reset_;
    return;
  }
  check_inputs(in);
  State& nx = next_;
  nx = s_;  // copied into kept storage: no allocation per edge
  step_registers(in, nx);
  if (p_.has_monitors()) {
    bool clipped = false;
    for (unsigned c = 0; c < p_.chiplets; ++c) step_rtu(c, in, nx, clipped);
    for (unsigned c = 0; c < p_.chiplets; ++c) step_l2(c, in, nx, clipped);
    step_cp(nx);
    // READING: counter_saturated = some saturating increment of this edge was
    // clipped at 2^W - 1 (the counter "held").
    events_.counter_saturated = clipped;
  }
  std::swap(s_, nx);
  check_state();
}

// HSL registers: "launch_i = 1 loads shift_q = launch_shift_i and fine_q = 0
// ...; else sync_i = 1 loads fine_q = mode_i ...; else hold." mode_i is the
// CP's mode_o (mode_q before this edge). mgvm_coarse has no sync port.
void DhslModel::step_registers(const DhslIn& in, State& nx) {
  if (!p_.has_registers()) return;
  const bool mode_i = p_.has_monitors() ? s_.cp.mode : false;
  const uint32_t lsh = static_cast<uint32_t>(in.launch_shift & low_mask(p_.shift_bits));
  if (in.launch) events_.launch = true;
  auto step_reg = [&](Reg& r, bool sync) {
    if (in.launch) {
      r.shift = lsh;
      r.fine = false;
    } else if (sync && p_.has_monitors()) {
      r.fine = mode_i;
      ++events_.syncs;
    }
  };
  for (unsigned c = 0; c < p_.chiplets; ++c) {
    step_reg(nx.rtu_reg[c], p_.has_monitors() && in.rtu_sync[c]);
    step_reg(nx.l2_reg[c], p_.has_monitors() && in.l2_sync[c]);
  }
}

// RTU monitor of chiplet c.
void DhslModel::step_rtu(unsigned c, const DhslIn& in, State& nx, bool& clipped) {
  const Rtu& r = s_.rtu[c];
  Rtu& q = nx.rtu[c];
  const bool ii = in.rtu_in[c], oo = in.rtu_out[c];
  const uint64_t n = static_cast<uint64_t>(ii) + static_cast<uint64_t>(oo);
  const uint32_t in1 = sat_add(r.in, ii, clipped);
  const uint32_t out1 = sat_add(r.out, oo, clipped);
  if (static_cast<uint64_t>(r.epoch) + n < p_.epoch_requests) {
    q.epoch = static_cast<uint32_t>(r.epoch + n);
    q.in = in1;
    q.out = out1;
    q.epoch_p = false;
    q.trig = false;
    return;
  }
  // "if epoch_q + n >= E (end of epoch)": save, clear, decide possible
  // (W+1-bit compare).
  q.prev_in = in1;
  q.prev_out = out1;
  q.epoch = q.in = q.out = 0;
  q.epoch_p = true;
  const bool possible = static_cast<uint64_t>(in1) > 2 * static_cast<uint64_t>(out1);
  ++events_.epochs_ended;
  if (possible) ++events_.possible_flags;
  // "If possible and streak_q = 1: trigger register = 1 and streak_q = 0 ...
  // If possible and streak_q = 0: streak_q = 1 ... If not possible: 0, 0."
  q.trig = possible && r.streak;
  q.streak = possible && !r.streak;
  if (q.trig) ++events_.triggers;
}

// L2-slice monitor of chiplet c; epoch_i is this chiplet's RTU epoch pulse
// register.
void DhslModel::step_l2(unsigned c, const DhslIn& in, State& nx, bool& clipped) {
  const unsigned n = p_.chiplets;
  const L2& l = s_.l2[c];
  L2& q = nx.l2[c];
  const bool acc = in.l2_access[c];
  const bool hit = acc && in.l2_hit[c];
  // READING: cid_i is a CB-bit port; the value is cut to CB bits before
  // "a cid_i >= N counts nowhere" applies.
  const uint32_t cid = static_cast<uint32_t>(in.l2_cid[c] & low_mask(p_.chiplet_bits));
  // "the access of this cycle is counted first"
  const uint32_t acc1 = sat_add(l.acc, acc, clipped);
  const uint32_t hits1 = sat_add(l.hits, hit, clipped);
  std::vector<uint32_t>& cnt1 = cnt1_;
  cnt1.resize(n);
  for (unsigned k = 0; k < n; ++k) cnt1[k] = sat_add(l.cnt[k], acc && cid == k, clipped);

  // The check in flight: "At the edge X + J + 2 (the decision edge) it uses
  // the values saved at X"; the back register is 1 only for the cycle after.
  q.back = false;
  if (l.check_left == 1) l2_decide(l, q);
  q.check_left = l.check_left > 0 ? l.check_left - 1 : 0;

  const bool epoch_i = s_.rtu[c].epoch_p;
  if (!epoch_i) {
    q.acc = acc1;
    q.hits = hits1;
    q.cnt = cnt1;
    return;
  }
  // "if epoch_i: prev_hits_q = hits', prev_acc_q = acc', prev_cnt_q[c] =
  // cnt'[c]; hits_q = acc_q = cnt_q[*] = 0; the check starts".
  // "Epoch pulses are at least ceil(E / 2) cycles apart ... so a check always
  // reaches its decision edge before the next epoch edge": E is validated, so
  // a save under a check in flight is a model bug.
  if (l.check_left > 1) throw std::logic_error("dhsl model: epoch edge before the L2 check's decision edge");
  q.prev_hits = hits1;
  q.prev_acc = acc1;
  q.prev_cnt = cnt1;
  q.hits = q.acc = 0;
  std::fill(q.cnt.begin(), q.cnt.end(), 0);
  // READING: "the check starts (stage register s1 = 1)" is the old staging's
  // name for "a check is in flight"; the decision is J + 2 edges later.
  q.check_left = p_.check_steps + 2;
}

// "balanced = for every c, prev_cnt_q[c] x Bd <= total x Bn, with total = the
// exact sum of prev_cnt_q[c] (no access at all is balanced)".
bool DhslModel::l2_balanced(const L2& l) const {
  uint64_t total = 0;
  for (uint32_t v : l.prev_cnt) total += v;
  for (uint32_t v : l.prev_cnt) {
    if (static_cast<uint64_t>(v) * p_.balanced_den > total * p_.balanced_num) return false;
  }
  return true;
}

// "if balanced and streak_q = 1: back register = 1, streak_q = 0; if balanced
// and streak_q = 0: streak_q = 1; if not balanced: streak_q = 0."
void DhslModel::l2_decide(const L2& l, L2& q) {
  const bool balanced = l2_balanced(l);
  if (balanced) ++events_.balanced_epochs;
  q.back = balanced && l.streak;
  q.streak = balanced && !l.streak;
  if (q.back) ++events_.backs;
}

// Command-processor decision unit. Its inputs are the monitors' registered
// outputs before this edge.
void DhslModel::step_cp(State& nx) {
  const Cp& cp = s_.cp;
  Cp& q = nx.cp;
  q.sw = false;  // the switch register is a one-cycle pulse
  bool any_trig = false, any_back = false;
  for (unsigned c = 0; c < p_.chiplets; ++c) {
    any_trig = any_trig || s_.rtu[c].trig;
    any_back = any_back || s_.l2[c].back;
  }
  if (cp.pending) {
    // "pending from the gather edge up to and including this edge's cycle";
    // "Triggers while armed or pending are ignored."
    if (cp.decide_left == 1) cp_decide(cp, q);
    q.decide_left = cp.decide_left - 1;
  } else if (cp.armed) {
    cp_gather(q);
  } else if (cp.mode && any_back) {
    // "Switch back (any edge with mode_q = 1 and some back_i = 1; nothing is
    // armed or pending in fine mode)": arming needs mode_q = 0, and only a
    // decision (which ends the sequence) sets mode_q.
    q.mode = false;
    q.sw = true;
    q.prev_imb = false;
    events_.switch_to_coarse = true;
  } else if (!cp.mode && any_trig) {
    // "Arm (edge of a cycle T where some trigger_i is 1, mode_q = 0 and
    // nothing is armed or pending): armed = 1."
    q.armed = true;
  }
}

// "Gather (edge of T+1, armed): the unit registers the N values of each of
// prev_in_i, prev_hits_i and prev_acc_i (a snapshot ...), pending = 1,
// armed = 0." The L2 slices saved the counters of the epoch that just ended
// at the edge of T ("one cycle after their RTU ends the epoch"), so they are
// read here. The decision is at T + J + 3, J + 2 edges after this one.
void DhslModel::cp_gather(Cp& q) {
  for (unsigned c = 0; c < p_.chiplets; ++c) {
    q.prev_in[c] = s_.rtu[c].prev_in;
    q.prev_hits[c] = s_.l2[c].prev_hits;
    q.prev_acc[c] = s_.l2[c].prev_acc;
  }
  q.armed = false;
  q.pending = true;
  q.decide_left = p_.check_steps + 2;
  events_.gather = true;
}

// "Decide (edge of T + J + 3 ...), from the snapshot: pending = 0; total_in =
// sum of the prev_in values, hits = sum of prev_hits, acc = sum of prev_acc
// (exact); imbalance = some c with prev_in[c] x Id > total_in x In; high =
// hits x Hd > acc x Hn. If imbalance and high: if prev_imb_q: mode_q = 1,
// switch register = 1, prev_imb_q = 0; else prev_imb_q = 1. Otherwise
// prev_imb_q = 0."
void DhslModel::cp_decide(const Cp& cp, Cp& q) {
  q.pending = false;
  uint64_t total_in = 0, hits = 0, acc = 0;
  for (unsigned c = 0; c < p_.chiplets; ++c) {
    total_in += cp.prev_in[c];
    hits += cp.prev_hits[c];
    acc += cp.prev_acc[c];
  }
  bool imbalance = false;
  for (uint32_t v : cp.prev_in) {
    if (static_cast<uint64_t>(v) * p_.imbalance_den > total_in * p_.imbalance_num) imbalance = true;
  }
  const bool high = hits * p_.hit_den > acc * p_.hit_num;
  if (!(imbalance && high)) {
    q.prev_imb = false;
    // READING: "a decision that reset prevImbalance" = Listing 2's "else
    // prevImbalance = false" branch, whatever its previous value.
    events_.decide_reset = true;
    return;
  }
  events_.decide_imbalance_high = true;
  if (cp.prev_imb) {
    q.mode = true;
    q.sw = true;
    q.prev_imb = false;
    events_.switch_to_fine = true;
  } else {
    q.prev_imb = true;
    events_.decide_first = true;
  }
}

void DhslModel::check_state() const {
  const uint64_t m = cmax_;
  const unsigned steps = p_.check_steps + 2;  // J + 2: longest countdown
  auto ok = [&](uint64_t v, uint64_t lim, const char* what) {
    if (v > lim) throw std::logic_error(std::string("dhsl model: out of range: ") + what);
  };
  auto holds = [&](bool cond, const char* what) {
    if (!cond) throw std::logic_error(std::string("dhsl model: inconsistent state: ") + what);
  };
  for (const Rtu& r : s_.rtu) {
    ok(r.epoch, p_.epoch_requests - 1, "epoch_q >= E");
    ok(r.in, m, "in_q");
    ok(r.out, m, "out_q");
    ok(r.prev_in, m, "prev_in_q");
    ok(r.prev_out, m, "prev_out_q");
  }
  for (const L2& l : s_.l2) {
    ok(l.hits, m, "hits_q");
    ok(l.acc, m, "acc_q");
    ok(l.prev_hits, m, "prev_hits_q");
    ok(l.prev_acc, m, "prev_acc_q");
    ok(l.hits, l.acc, "hits_q > acc_q");
    for (uint32_t c : l.cnt) ok(c, m, "cnt_q");
    for (uint32_t c : l.prev_cnt) ok(c, m, "prev_cnt_q");
    ok(l.check_left, steps, "L2 check countdown > J + 2");
  }
  const Cp& cp = s_.cp;
  for (uint32_t v : cp.prev_in) ok(v, m, "cp prev_in");
  for (uint32_t v : cp.prev_hits) ok(v, m, "cp prev_hits");
  for (uint32_t v : cp.prev_acc) ok(v, m, "cp prev_acc");
  ok(cp.decide_left, steps, "cp decide countdown > J + 2");
  holds(cp.pending == (cp.decide_left > 0), "pending without a decide countdown");
  holds(!(cp.armed && cp.pending), "armed and pending");
  holds(!cp.mode || !(cp.armed || cp.pending), "armed or pending in fine mode");
}

}  // namespace txgen::model
