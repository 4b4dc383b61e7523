// Golden cycle model of the MGvm home-slice selection and dHSL switching
// logic (dhsl_NAME_sys), from docs/blocks/dhsl.md only. Quotations in the
// comments are from that document; "READING:" marks a place where the
// document left a choice and the most literal reading was taken.
#include "model/dhsl.h"

#include <stdexcept>
#include <string>

namespace txgen::model {

namespace {

using config::DhslPolicy;

uint64_t low_mask(unsigned bits) { return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }

void require(bool ok, const std::string& what) {
  if (!ok) throw std::invalid_argument("dhsl model: " + what);
}

unsigned ceil_log2(unsigned x) {
  unsigned n = 0;
  while ((1u << n) < x) ++n;
  return n;
}

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
    require(p.epoch_requests >= 1 && p.epoch_requests <= low_mask(p.counter_bits),
            "epoch_requests not in [1, 2^W - 1]");
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
  check_inputs(in);
  const State& s = in.rst_n ? s_ : reset_;  // asynchronous reset
  const unsigned n = p_.chiplets;
  DhslOut o;
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
  return o;
}

// ---------------------------------------------------------------------------
// Rising edge

void DhslModel::posedge(const DhslIn& in) {
  events_ = DhslEvents{};
  if (!in.rst_n) {
    s_ = reset_;
    return;
  }
  check_inputs(in);
  const unsigned n = p_.chiplets;
  const State& cur = s_;
  State nx = s_;

  // HSL registers: "launch_i = 1 loads shift_q = launch_shift_i and fine_q = 0
  // ...; else sync_i = 1 loads fine_q = mode_i ...; else hold." mode_i is the
  // CP's mode_o (mode_q before this edge). mgvm_coarse has no sync port.
  if (p_.has_registers()) {
    const bool mode_i = p_.has_monitors() ? cur.cp.mode : false;
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
    for (unsigned c = 0; c < n; ++c) {
      step_reg(nx.rtu_reg[c], p_.has_monitors() && in.rtu_sync[c]);
      step_reg(nx.l2_reg[c], p_.has_monitors() && in.l2_sync[c]);
    }
  }

  if (!p_.has_monitors()) {
    s_ = nx;
    return;
  }

  bool clipped = false;
  const uint64_t E = p_.epoch_requests;

  // RTU monitors.
  for (unsigned c = 0; c < n; ++c) {
    const Rtu& r = cur.rtu[c];
    Rtu& q = nx.rtu[c];
    const bool ii = in.rtu_in[c], oo = in.rtu_out[c];
    const uint64_t cnt = static_cast<uint64_t>(ii) + static_cast<uint64_t>(oo);
    const uint32_t in1 = sat_add(r.in, ii, clipped);
    const uint32_t out1 = sat_add(r.out, oo, clipped);
    if (static_cast<uint64_t>(r.epoch) + cnt >= E) {
      // "end of epoch": save, clear, decide possible (W+1-bit compare).
      q.prev_in = in1;
      q.prev_out = out1;
      q.epoch = q.in = q.out = 0;
      q.epoch_p = true;
      const bool possible = static_cast<uint64_t>(in1) > 2 * static_cast<uint64_t>(out1);
      ++events_.epochs_ended;
      if (possible) ++events_.possible_flags;
      if (possible && r.streak) {
        q.trig = true;
        q.streak = false;
        ++events_.triggers;
      } else if (possible) {
        q.streak = true;
        q.trig = false;
      } else {
        q.streak = false;
        q.trig = false;
      }
    } else {
      q.epoch = static_cast<uint32_t>(r.epoch + cnt);
      q.in = in1;
      q.out = out1;
      q.epoch_p = false;
      q.trig = false;
    }
  }

  // L2-slice monitors; epoch_i is this chiplet's RTU epoch pulse register.
  for (unsigned c = 0; c < n; ++c) {
    const L2& l = cur.l2[c];
    L2& q = nx.l2[c];
    const bool acc = in.l2_access[c];
    const bool hit = acc && in.l2_hit[c];
    // READING: cid_i is a CB-bit port; the value is cut to CB bits before
    // "a cid_i >= N counts nowhere" applies.
    const uint32_t cid = static_cast<uint32_t>(in.l2_cid[c] & low_mask(p_.chiplet_bits));
    const uint32_t acc1 = sat_add(l.acc, acc, clipped);
    const uint32_t hits1 = sat_add(l.hits, hit, clipped);
    std::vector<uint32_t> cnt1(n);
    for (unsigned k = 0; k < n; ++k) cnt1[k] = sat_add(l.cnt[k], acc && cid == k, clipped);
    // "if epoch_i: prev_hits_q = hits', prev_acc_q = acc', prev_cnt_q[c] =
    // cnt'[c]; hits_q = acc_q = cnt_q[*] = 0; the check starts (s1 = 1);
    // else the counters take the primed values."
    if (cur.rtu[c].epoch_p) {
      q.prev_hits = hits1;
      q.prev_acc = acc1;
      q.prev_cnt = cnt1;
      q.hits = q.acc = 0;
      for (unsigned k = 0; k < n; ++k) q.cnt[k] = 0;
    } else {
      q.acc = acc1;
      q.hits = hits1;
      q.cnt = cnt1;
    }
    // READING: s1 and s2 are plain stage registers (s1 <= epoch_i, s2 <= s1);
    // each stage reads the registers as they are before its edge (with
    // epochs closer than the document's E / 2 cycles a later save may
    // overwrite prev_cnt_q under a check in flight: taken literally).
    q.s1 = cur.rtu[c].epoch_p;
    // X+1: "total_q = sum of prev_cnt_q[c] (W + CB bits) and s2 = 1".
    q.s2 = l.s1;
    if (l.s1) {
      q.total = 0;
      for (unsigned k = 0; k < n; ++k) q.total += l.prev_cnt[k];
    }
    // X+2: "balanced = for every c, prev_cnt_q[c] x Bd <= total_q x Bn".
    // The back register is 1 only in the cycle after this edge (X+3).
    q.back = false;
    if (l.s2) {
      bool balanced = true;
      for (unsigned k = 0; k < n; ++k) {
        if (static_cast<uint64_t>(l.prev_cnt[k]) * p_.balanced_den > l.total * p_.balanced_num) balanced = false;
      }
      if (balanced) ++events_.balanced_epochs;
      if (balanced && l.streak) {
        q.back = true;
        q.streak = false;
        ++events_.backs;
      } else if (balanced) {
        q.streak = true;
      } else {
        q.streak = false;
      }
    }
  }

  // Command-processor decision unit. Its inputs are the monitors' registered
  // outputs before this edge.
  {
    const Cp& cp = cur.cp;
    Cp& q = nx.cp;
    q.sw = false;  // the switch register is a one-cycle pulse
    bool any_trig = false, any_back = false;
    for (unsigned c = 0; c < n; ++c) {
      any_trig = any_trig || cur.rtu[c].trig;
      any_back = any_back || cur.l2[c].back;
    }
    if (cp.pending) {
      // Decide (edge of T+2). "Triggers while armed or pending are ignored."
      q.pending = false;
      bool imbalance = false;
      for (unsigned c = 0; c < n; ++c) {
        if (cp.prev_in[c] * p_.imbalance_den > cp.total_in * p_.imbalance_num) imbalance = true;
      }
      const bool high = cp.hits * p_.hit_den > cp.acc * p_.hit_num;
      if (imbalance && high) {
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
      } else {
        q.prev_imb = false;
        // READING: "a decision that reset prevImbalance" = Listing 2's
        // "else prevImbalance = false" branch, whatever its previous value.
        events_.decide_reset = true;
      }
    } else if (cp.armed) {
      // Gather (edge of T+1): the L2 slices saved the counters of the epoch
      // that just ended at the edge of T, so they are read here.
      q.armed = false;
      q.pending = true;
      q.total_in = 0;
      for (unsigned c = 0; c < n; ++c) q.total_in += cur.rtu[c].prev_in;
      q.hits = 0;
      q.acc = 0;
      for (unsigned c = 0; c < n; ++c) {
        q.prev_in[c] = cur.rtu[c].prev_in;
        q.hits += cur.l2[c].prev_hits;
        q.acc += cur.l2[c].prev_acc;
      }
      events_.gather = true;
    } else if (cp.mode && any_back) {
      // "Switch back (any edge with mode_q = 1 and some back_i = 1; nothing is
      // armed or pending in fine mode)": arming needs mode_q = 0, and only a
      // decision (which ends the sequence) sets mode_q.
      q.mode = false;
      q.sw = true;
      q.prev_imb = false;
      events_.switch_to_coarse = true;
    } else if (!cp.mode && any_trig) {
      // Arm (edge of a cycle T with some trigger_i = 1, mode_q = 0, nothing
      // armed or pending).
      q.armed = true;
    }
  }

  // READING: counter_saturated = some saturating increment of this edge was
  // clipped at 2^W - 1 (the counter "held").
  events_.counter_saturated = clipped;
  s_ = nx;
  check_state();
}

void DhslModel::check_state() const {
  const uint64_t m = cmax_;
  auto ok = [&](uint64_t v, uint64_t lim, const char* what) {
    if (v > lim) throw std::logic_error(std::string("dhsl model: counter out of range: ") + what);
  };
  const uint64_t sum_lim = m * p_.chiplets;
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
    ok(l.total, sum_lim, "total_q");
  }
  ok(s_.cp.total_in, sum_lim, "total_in");
  ok(s_.cp.hits, sum_lim, "cp hits");
  ok(s_.cp.acc, sum_lim, "cp acc");
  for (uint64_t v : s_.cp.prev_in) ok(v, m, "cp prev_in");
}

}  // namespace txgen::model
