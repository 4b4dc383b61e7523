// Golden cycle model of the SIMT-aware page-walk scheduler (walk_sched_NAME),
// from docs/blocks/walk_sched.md only. Quotations in the comments are from
// that document; "READING:" marks a place where the document left a choice
// and the most literal reading was taken.
//
// Every edge is computed in two steps: plan() reads only the state before
// the edge (all registers of cycle t) and decides everything; the apply_*
// steps then write the state after the edge.
#include "model/walk_sched.h"

#include "model/util.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

namespace txgen::model {

namespace {

uint64_t low_mask(unsigned bits) { return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }

const Require require{"walk_sched model"};

// Self-check (after every edge): the message is a literal and the throw out of
// line, so a passing check is one inlined branch.
[[noreturn]] __attribute__((noinline, cold)) void broken(const char* what) {
  throw std::logic_error(std::string("walk_sched model: ") + what);
}

inline void holds(bool ok, const char* what) {
  if (__builtin_expect(!ok, 0)) broken(what);
}

std::string num(uint64_t v) { return std::to_string(v); }

}  // namespace

// ---------------------------------------------------------------------------
// Construction

void WalkSchedModel::validate() const {
  const auto& p = p_;
  // "B | buffer entries (power of two, 4-1024)"
  require(is_pow2(p.entries) && p.entries >= 4 && p.entries <= 1024,
          "entries (B = " + num(p.entries) + ") must be a power of two in [4, 1024]");
  require(p.index_bits == ceil_log2(p.entries), "index_bits != log2 B");
  require(p.count_bits == ceil_log2(uint64_t{p.entries} + 1), "count_bits != ceil_log2(B + 1)");
  require(p.iid_bits >= 1 && p.iid_bits <= 32, "iid_bits (IW) not in [1, 32]");
  // "K | walkers (1-32) | KB = max(1, ceil(log2 K))"
  require(p.walkers >= 1 && p.walkers <= 32, "walkers (K = " + num(p.walkers) + ") not in [1, 32]");
  require(p.walker_bits == std::max(1u, ceil_log2(p.walkers)), "walker_bits != max(1, clog2 K)");
  // "LV | page-table levels (2-5)"
  require(p.levels >= 2 && p.levels <= 5, "levels (LV = " + num(p.levels) + ") not in [2, 5]");
  require(p.level_bits >= 1, "level_bits (X) must be >= 1");
  // "VPN ... must exceed (LV - 1) x X"
  require(p.vpn_bits <= 64, "vpn_bits > 64");
  require(p.vpn_bits > (p.levels - 1) * p.level_bits, "vpn_bits must exceed (LV - 1) x X");
  // "PE[l] | PWC entries of level l = 1 .. LV-1 (root first; powers of two, 1-64)"
  require(p.pwc_entries.size() == p.levels - 1, "pwc_entries must have LV - 1 levels");
  require(p.pwc_tag_bits.size() == p.levels - 1, "pwc_tag_bits must have LV - 1 levels");
  for (unsigned l = 1; l < p.levels; ++l) {
    const unsigned pe = p.pwc_entries[l - 1];
    require(is_pow2(pe) && pe <= 64, "pwc_entries of level " + num(l) + " (" + num(pe) + ") not a power of two in [1, 64]");
    // "TB[l] | PWC tag bits of level l | VPN - (LV - l) x X"
    require(p.pwc_tag_bits[l - 1] == p.vpn_bits - (p.levels - l) * p.level_bits,
            "pwc_tag_bits of level " + num(l) + " != VPN - (LV - l) x X");
  }
  // "G | selection-tree levels per pipeline stage"; "L | ceil(log2 B / G)"
  require(p.levels_per_cycle >= 1, "levels_per_cycle (G) must be >= 1");
  const unsigned lat = (p.index_bits + p.levels_per_cycle - 1) / p.levels_per_cycle;
  require(p.select_latency == lat, "select_latency (L) != ceil(log2 B / G) = " + num(lat));
  // "cooldown (ceil_log2(L + 1) bits)"
  require(p.cooldown_bits == ceil_log2(uint64_t{p.select_latency} + 1), "cooldown_bits != ceil_log2(L + 1)");
  // "disp_acc_o | 3"
  require(p.acc_bits == 3, "acc_bits != 3");
  // READING: wavefront, score_bits, aging_threshold and credit_bits size
  // simt-only storage ("vpn, iid, score, credit, aged, match" for simt, "B x
  // VPN for the others"), so they are checked for simt only.
  if (!p.simt()) return;
  require(p.wavefront >= 1, "wavefront (MW) must be >= 1");
  // "SB | score bits | ceil_log2(MW x LV + 1)"
  require(p.score_bits == ceil_log2(uint64_t{p.wavefront} * p.levels + 1), "score_bits != ceil_log2(MW x LV + 1)");
  require(p.score_bits <= 32, "score_bits > 32");
  // "AB | aging credit bits | ceil_log2(AT + 1)"
  require(p.aging_threshold < (uint64_t{1} << 62), "aging_threshold too large");
  require(p.credit_bits == ceil_log2(p.aging_threshold + 1), "credit_bits != ceil_log2(AT + 1)");
}

WalkSchedModel::WalkSchedModel(const elab::WalkSchedParams& p) : p_(p) {
  validate();
  score_max_ = p_.simt() ? static_cast<uint32_t>(low_mask(p_.score_bits)) : 0;
  // "All reset to 0 (the LFSR to its seed)."
  State& r = reset_;
  r.buf.assign(p_.entries, Entry{});
  r.busy.assign(p_.walkers, false);
  r.given.assign(p_.walkers, 0);
  r.starts.assign(p_.walkers, 0);
  r.ends.assign(p_.walkers, 0);
  r.lfsr = 0xACE1;  // "reset value 16'hACE1"
  for (unsigned pe : p_.pwc_entries) {
    PwcLevel lv;
    lv.e.assign(pe, PwcEntry{});
    lv.node.assign(pe, 0);  // node 0 unused; nodes 1 .. PE-1
    r.pwc.push_back(lv);
  }
  // READING: the tree pipeline resets to "no candidate": sel_valid = 0 in
  // the first L cycles after reset. (A zero key would read as an aged valid
  // entry 0 and dispatch from an empty buffer; the document's exclusivity
  // argument needs the reset pipeline to hold the empty buffer's minimum.)
  r.sel_pipe.assign(p_.select_latency, SelResult{});
  // "write register g (valid, vpn, one victim entry per level)": all 0.
  r.g.victim.assign(p_.levels - 1, 0);
  r.replaced.assign(p_.levels - 1, -1);
  s_ = reset_;
}

const WalkSchedModel::Entry& WalkSchedModel::entry(unsigned i) const {
  if (i >= p_.entries) throw std::out_of_range("walk_sched model: entry index >= B");
  return s_.buf[i];
}

const WalkSchedModel::PwcEntry& WalkSchedModel::pwc_entry(unsigned level, unsigned e) const {
  if (level < 1 || level >= p_.levels) throw std::out_of_range("walk_sched model: PWC level not in 1 .. LV-1");
  const PwcLevel& lv = s_.pwc[level - 1];
  if (e >= lv.e.size()) throw std::out_of_range("walk_sched model: PWC entry >= PE[l]");
  return lv.e[e];
}

unsigned WalkSchedModel::g_victim(unsigned level) const {
  if (level < 1 || level >= p_.levels) throw std::out_of_range("walk_sched model: PWC level not in 1 .. LV-1");
  return s_.g.victim[level - 1];
}

bool WalkSchedModel::busy(unsigned k) const {
  if (k >= p_.walkers) throw std::out_of_range("walk_sched model: walker >= K");
  return s_.busy[k];
}

// ---------------------------------------------------------------------------
// Outputs

// "req_ready_o (simt) = a1, a2 and a3 empty and count + (1 if a4 valid) < B;
// (fcfs/random) = a1 empty and count < B". The a4 term reserves the entry
// that a4 appends at this edge, so a request accepted at the a4 edge still
// finds room.
bool WalkSchedModel::req_ready(const State& s) const {
  if (!p_.simt()) return !s.a1.valid && s.count < p_.entries;
  const unsigned after_a4 = s.count + (s.a4.valid ? 1u : 0u);
  return !s.a1.valid && !s.a2.valid && !s.a3.valid && after_a4 < p_.entries;
}

WalkSchedOut WalkSchedModel::outputs(const WalkSchedIn& in) const {
  const State& s = in.rst_n ? s_ : reset_;  // asynchronous reset
  WalkSchedOut o;
  o.req_ready = req_ready(s);
  o.disp_valid = s.out.valid;
  o.disp_walker = s.out.walker;
  o.disp_vpn = s.out.vpn;
  o.disp_iid = s.out.iid;
  o.disp_acc = s.out.acc;
  o.count = s.count;
  for (unsigned k = 0; k < p_.walkers; ++k) {
    if (s.busy[k]) o.busy |= uint32_t{1} << k;
  }
  return o;
}

// ---------------------------------------------------------------------------
// Selection keys (lower wins) and the tree

// simt: "aged_i = 1: {0, 0, 0, 0}; else batch_i = (last_valid and iid_i ==
// last_iid): {0, 1, 0, 0}; else {0, 1, 1, score_i}" ({inv, na, nb, score}).
// fcfs: "key = {~valid}". random: "key = {~valid, i < r}" with r the low
// log2 B bits of the LFSR. Only valid entries are asked (see select_now).
uint64_t WalkSchedModel::key_of(unsigned i) const {
  const Entry& e = s_.buf[i];
  const unsigned sb = p_.score_bits;
  switch (p_.policy) {
    case config::WalkPolicy::Fcfs:
      return 0;
    case config::WalkPolicy::Random: {
      const unsigned r = s_.lfsr & (p_.entries - 1);
      return i < r ? 1 : 0;
    }
    case config::WalkPolicy::Simt:
    default:
      if (e.aged) return 0;
      if (s_.last_valid && e.iid == s_.last_iid) return uint64_t{1} << (sb + 1);
      return (uint64_t{1} << (sb + 1)) | (uint64_t{1} << sb) | e.score;
  }
}

// The minimum over the keys of this cycle, "left = lower indices wins ties".
// Entries count .. B-1 are invalid with the largest key ({1, ...} above every
// valid key), so the tree's minimum is the first minimum among 0 .. count-1;
// with count = 0 it is an invalid key (sel_valid = 0).
WalkSchedModel::SelResult WalkSchedModel::select_now() const {
  SelResult r;
  if (s_.count == 0) return r;
  uint64_t best = key_of(0);
  for (unsigned i = 1; i < s_.count; ++i) {
    const uint64_t k = key_of(i);
    if (k < best) {
      best = k;
      r.index = i;
    }
  }
  r.valid = true;
  if (p_.simt()) classify_simt(r);
  return r;
}

// Why the winner won, from the same keys (for the coverage events).
void WalkSchedModel::classify_simt(SelResult& r) const {
  const Entry& w = s_.buf[r.index];
  auto batch = [&](const Entry& e) { return s_.last_valid && e.iid == s_.last_iid; };
  if (w.aged) {
    r.by_age = true;
    return;
  }
  if (batch(w)) {
    for (unsigned i = 0; i < s_.count; ++i) {
      const Entry& e = s_.buf[i];
      if (!e.aged && e.score < w.score) r.batch_over_lower = true;
    }
    return;
  }
  r.lowest = true;
  for (unsigned i = 0; i < s_.count; ++i) {
    const Entry& e = s_.buf[i];
    if (i != r.index && !e.aged && !batch(e) && e.score == w.score) r.tie = true;
  }
}

// ---------------------------------------------------------------------------
// Page walk caches

// "The PWC of level l holds the level-l prefix of a VPN, VPN[VPN-1 :
// VPN-TB[l]]": the VPN shifted right by VPN - TB[l] = (LV - l) x X.
uint64_t WalkSchedModel::prefix(uint64_t vpn, unsigned level) const {
  return vpn >> ((p_.levels - level) * p_.level_bits);
}

// "A lookup of a VPN hits level l when a valid entry of level l holds its
// prefix" (tags are unique in a level: a fill writes only a missing prefix).
void WalkSchedModel::lookup(uint64_t vpn, Hits& h) const {
  h.assign(p_.levels - 1, -1);
  for (unsigned l = 1; l < p_.levels; ++l) {
    const PwcLevel& lv = s_.pwc[l - 1];
    const uint64_t tag = prefix(vpn, l);
    for (unsigned e = 0; e < lv.e.size(); ++e) {
      if (lv.e[e].valid && lv.e[e].tag == tag) h[l - 1] = static_cast<int>(e);
    }
  }
}

// "acc = LV - (deepest hit level) memory accesses, LV on no hit".
// READING: the deepest hitting level counts even when a shallower level
// misses (each level replaces on its own).
unsigned WalkSchedModel::acc_of(const Hits& h) const {
  unsigned deepest = 0;
  for (unsigned l = 1; l < p_.levels; ++l) {
    if (h[l - 1] >= 0) deepest = l;
  }
  return p_.levels - deepest;
}

unsigned WalkSchedModel::pwc_acc(uint64_t vpn) const {
  Hits h;
  lookup(vpn & low_mask(p_.vpn_bits), h);
  return acc_of(h);
}

bool WalkSchedModel::subtree_has(const PwcLevel& lv, unsigned node, const std::vector<bool>& eligible) const {
  const unsigned pe = static_cast<unsigned>(lv.e.size());
  unsigned first = node, last = node;
  while (first < pe) {
    first = 2 * first;
    last = 2 * last + 1;
  }
  for (unsigned leaf = first; leaf <= last; ++leaf) {
    if (eligible[leaf - pe]) return true;
  }
  return false;
}

// "walking the level's pseudo-LRU tree from the root, following each node's
// bit towards the less recently used side, except that a side with no
// eligible entry is never taken"; "a node bit 0 points at its lower half as
// less recently used".
unsigned WalkSchedModel::plru_victim(const PwcLevel& lv, const std::vector<bool>& eligible) const {
  const unsigned pe = static_cast<unsigned>(lv.e.size());
  unsigned n = 1;
  while (n < pe) {
    const unsigned lru_side = lv.node[n] ? 2 * n + 1 : 2 * n;
    n = subtree_has(lv, lru_side, eligible) ? lru_side : (lru_side ^ 1u);
  }
  return n - pe;
}

// "making entry e the most recently used sets every node on its path to
// point away from e".
void WalkSchedModel::make_mru(PwcLevel& lv, unsigned e) {
  unsigned n = static_cast<unsigned>(lv.e.size()) + e;
  while (n > 1) {
    lv.node[n / 2] = (n & 1u) ? 0 : 1;  // e in the upper half -> lower is LRU
    n /= 2;
  }
}

// The victim walk of one level over the state before the edge. "Eligible
// entries: the invalid ones if any; else those with ctr = 0 if any (simt:
// ...); else all. When the write register g is valid in t + 1 and PE[l] >= 2,
// the entry g.v[l] is left out of every class." `excluded` is that entry (-1:
// none left out; the caller applies the PE[l] >= 2 condition).
WalkSchedModel::Choice WalkSchedModel::choose_victim(const PwcLevel& lv, int excluded) const {
  const size_t pe = lv.e.size();
  std::vector<bool>& invalid = invalid_;  // kept storage: no allocation per decision
  std::vector<bool>& zero = zero_;
  std::vector<bool>& all = all_;
  invalid.resize(pe);
  zero.resize(pe);
  all.resize(pe);
  Choice c;
  for (size_t e = 0; e < pe; ++e) {
    const bool in = static_cast<int>(e) != excluded;
    invalid[e] = in && !lv.e[e].valid;
    zero[e] = in && lv.e[e].ctr == 0;
    all[e] = in;
    c.any_invalid = c.any_invalid || invalid[e];
    c.any_zero = c.any_zero || zero[e];
  }
  // READING: outside simt the counters stay 0, so "those with ctr = 0" would
  // be all entries anyway; the class is skipped there ("simt" in the rule).
  c.use_ctr = p_.simt() && !c.any_invalid && c.any_zero;
  const std::vector<bool>& eligible = c.any_invalid ? invalid : (c.use_ctr ? zero : all);
  c.victim = plru_victim(lv, eligible);
  c.plain = plru_victim(lv, all);
  return c;
}

// The decide step of one level (cycle t + 1, f valid): "for every level l a
// victim v[l] is chosen from the state before the edge of t + 1". The choice
// is made whether or not the level already holds f.vpn's prefix (that is
// looked up only at the write). The victim events are set here (see the
// header).
unsigned WalkSchedModel::decide_victim(unsigned li, int excluded) {
  const PwcLevel& lv = s_.pwc[li];
  const Choice c = choose_victim(lv, excluded);
  if (p_.simt() && !c.any_invalid) {
    if (!c.any_zero) events_.pwc_all_counters_nonzero = true;
    // READING: "protected skip" = the ctr = 0 class was used (no eligible
    // invalid entry) and the plain pseudo-LRU walk over the same entries
    // (g's victim still left out) would have taken an entry with ctr > 0.
    if (c.use_ctr && lv.e[c.plain].ctr > 0) events_.pwc_protected_skip = true;
  }
  if (excluded >= 0 && choose_victim(lv, -1).victim == static_cast<unsigned>(excluded)) {
    events_.pwc_victim_excluded = true;
  }
  return c.victim;
}

// The write step of one level (cycle t + 2, g valid): "every level l is
// filled with the prefix of g.vpn, looked up in the state before this edge
// (so a fill written at the previous edge is seen): if a valid entry of the
// level holds it: it becomes the most recently used; else entry g.v[l] is
// written (valid, the prefix, ctr = 0) and becomes the most recently used."
WalkSchedModel::Fill WalkSchedModel::plan_write(unsigned li) const {
  const PwcLevel& lv = s_.pwc[li];
  const uint64_t tag = prefix(s_.g.vpn, li + 1);
  for (size_t e = 0; e < lv.e.size(); ++e) {
    if (lv.e[e].valid && lv.e[e].tag == tag) return Fill{static_cast<int>(e), false};  // refresh only
  }
  return Fill{static_cast<int>(s_.g.victim[li]), true};
}

// The PWC at the edge: "ctr' = clamp(ctr + inc - dec, 0, 3) with inc from the
// arrival lookup and dec from the dispatch lookup"; "With a dispatch lookup
// ... and a fill write in the same cycle, the lookup's update is applied
// first and the write's last"; "a victim replaced by the fill gets ctr = 0
// whatever the lookups did". Only the write step (g) changes the PWC; the
// decide step (f) only loads g (apply_registers).
void WalkSchedModel::apply_pwc(const Plan& pl) {
  for (unsigned li = 0; li + 1 < p_.levels; ++li) {
    PwcLevel& lv = s_.pwc[li];
    if (p_.simt()) {
      for (unsigned e = 0; e < lv.e.size(); ++e) {
        const int v = static_cast<int>(lv.e[e].ctr) + (pl.hits_a[li] == static_cast<int>(e)) -
                      (pl.hits_d[li] == static_cast<int>(e));
        if (v > 3) events_.pwc_ctr_saturated = true;
        lv.e[e].ctr = static_cast<unsigned>(std::clamp(v, 0, 3));
      }
    }
    if (pl.hits_d[li] >= 0) make_mru(lv, static_cast<unsigned>(pl.hits_d[li]));
    s_.replaced[li] = -1;
    if (pl.write.empty()) continue;
    const Fill& w = pl.write[li];
    if (w.replace) {
      lv.e[w.entry] = PwcEntry{true, prefix(pl.write_vpn, li + 1), 0};
      s_.replaced[li] = w.entry;
    }
    make_mru(lv, static_cast<unsigned>(w.entry));
  }
}

// ---------------------------------------------------------------------------
// The edge

// READING: inputs are cut to their port widths (req_vpn_i and done_vpn_i to
// VPN bits, req_iid_i to IW, done_walker_i to KB) before they are used.
void WalkSchedModel::check_inputs(const WalkSchedIn& in) const {
  if (!in.done_valid) return;
  // "Rules for the environment: done_valid_i only for a busy walker, with
  // the VPN it was given; done_walker_i < K."
  const uint32_t w = static_cast<uint32_t>(in.done_walker & low_mask(p_.walker_bits));
  if (w >= p_.walkers) require(false, "done_walker_i (" + num(w) + ") >= K");
  if (!s_.busy[w]) require(false, "done_valid_i for walker " + num(w) + ", which is not busy");
  if ((in.done_vpn & low_mask(p_.vpn_bits)) != s_.given[w])
    require(false, "done_vpn_i of walker " + num(w) + " is not the VPN it was given");
}

// Into pl, whose vectors keep their storage from edge to edge.
void WalkSchedModel::plan(const WalkSchedIn& in, Plan& pl) {
  const State& s = s_;
  pl.reset();
  pl.hits_a.assign(p_.levels - 1, -1);
  pl.hits_d.assign(p_.levels - 1, -1);
  events_.blocked_full = in.req_valid && s.count == p_.entries;
  // "A request is accepted at the edge of a cycle with req_valid_i =
  // req_ready_o = 1 and loads a1."
  pl.accept = in.req_valid && req_ready(s);
  // "The walker is the lowest-numbered free one."
  for (unsigned k = 0; k < p_.walkers && pl.walker < 0; ++k) {
    if (!s.busy[k]) pl.walker = static_cast<int>(k);
  }
  const bool walker_free = pl.walker >= 0;
  const SelResult& r = s.sel_pipe.front();
  // "selection: sel_valid = 1, some walker free, cooldown = 0";
  // "bypass: a1 valid, count = 0, some walker free".
  pl.selection = r.valid && walker_free && s.cooldown == 0;
  pl.bypass = s.a1.valid && s.count == 0 && walker_free;
  holds(!(pl.selection && pl.bypass), "a selection and a bypass in the same cycle");
  if (pl.selection) {
    holds(r.index < s.count, "the selection names an entry that is not valid");
    pl.sel_index = r.index;
    events_.selection = true;
    events_.by_age = r.by_age;
    events_.by_batch_over_lower_score = r.batch_over_lower;
    events_.by_lowest_score = r.lowest;
    events_.tie_oldest = r.tie;
  }
  events_.bypass = pl.bypass;
  // simt arrival (action 1-a, 1-b), a1 cycle: "the PWC lookup of a1.vpn
  // gives est = acc(a1.vpn)" (the CAM's match bits are stored in
  // apply_buffer). a2 cycle: "old = the score of the entries whose match bit
  // is set", from the stored bits, so entries dispatched since the a1 edge no
  // longer count.
  pl.score_a1 = p_.simt() && s.a1.valid && !pl.bypass;
  if (pl.score_a1) {
    lookup(s.a1.vpn, pl.hits_a);
    pl.est = acc_of(pl.hits_a);
  }
  if (s.a2.valid) pl.old = matched_score();
  // Cycle t + 1 of a dispatch (d valid): "the PWC lookup of d.vpn gives
  // acc(d.vpn)" (action 2-b).
  if (s.d.valid) {
    lookup(s.d.vpn, pl.hits_d);
    pl.acc_d = acc_of(pl.hits_d);
    events_.pwc_hit_dispatch = pl.acc_d < p_.levels;
  }
  // Write step, "cycle t + 2 with g valid: at its edge every level l is
  // filled with the prefix of g.vpn, looked up in the state before this edge".
  if (s.g.valid) {
    pl.write_vpn = s.g.vpn;
    for (unsigned li = 0; li + 1 < p_.levels; ++li) {
      pl.write.push_back(plan_write(li));
      const Fill& w = pl.write.back();
      if (!w.replace && w.entry == s.replaced[li]) events_.pwc_write_hit_previous_write = true;
    }
  }
  // Decide step, "cycle t + 1 with f valid: for every level l a victim v[l]
  // is chosen from the state before the edge of t + 1 ... When the write
  // register g is valid in t + 1 and PE[l] >= 2, the entry g.v[l] is left out
  // of every class". (done_valid_i of this cycle only loads f, below.)
  // READING: g.v[l] is left out even when the write of this edge finds g's
  // prefix already held and so writes nothing to g.v[l]: the rule names the
  // decided entry g.v[l], not "the entry being replaced".
  if (s.f.valid) {
    for (unsigned li = 0; li + 1 < p_.levels; ++li) {
      const bool leave_out = s.g.valid && p_.pwc_entries[li] >= 2;
      pl.victims.push_back(decide_victim(li, leave_out ? static_cast<int>(s.g.victim[li]) : -1));
    }
  }
  pl.sel = select_now();
}

// The collapsing queue at the edge. Writes by index (match, score, aging)
// use the indices before the edge; then the selected entry leaves and the
// arrival is appended ("it lands at the new count - 1 ... i.e. the first free
// entry after the removal"); the match bits "move with their entries on a
// removal". At most one of a1 .. a4 is valid, so the a1 edge's match store
// and the a4 edge's write never share an edge.
void WalkSchedModel::apply_buffer(const Plan& pl) {
  const State& s = s_;  // only the buffer changes here: a1 .. a4 are still those before the edge
  bool appending = false;
  Entry add;
  if (pl.score_a1) {
    store_match(s.a1.iid);
  } else if (p_.simt() && s.a4.valid) {
    // "at the edge every valid entry whose match bit is set takes score =
    // new; the request is appended (entry count: vpn, iid, score = new,
    // credit = AT, aged = 0); all match bits are cleared."
    write_scores(s.a4);
    add = Entry{true, s.a4.vpn, s.a4.iid, s.a4.nw, p_.aging_threshold, false, false};
    appending = true;
  } else if (!p_.simt() && s.a1.valid && !pl.bypass) {
    // "Otherwise, fcfs / random: the request is appended to the buffer";
    // "Entry fields: vpn, iid, ..." (fcfs and random carry the iid).
    add = Entry{true, s.a1.vpn, s.a1.iid, 0, 0, false, false};
    appending = true;
  }
  if (pl.selection) remove_selected(pl.sel_index);
  if (appending) append(add);
  events_.collapse_with_append = pl.selection && appending;
}

// a1 edge: "For every valid entry i: match_i = (iid_i == a1.iid) ... the
// match bits are stored in the entries."
void WalkSchedModel::store_match(uint32_t iid) {
  for (unsigned i = 0; i < s_.count; ++i) s_.buf[i].match = s_.buf[i].iid == iid;
}

// a4 edge: the matching entries take the new score, then every match bit
// is cleared (invalid entries hold none: a removal clears the freed entry).
void WalkSchedModel::write_scores(const Arrival& a4) {
  for (unsigned i = 0; i < s_.count; ++i) {
    if (!s_.buf[i].match) continue;
    s_.buf[i].score = a4.nw;
    events_.score_accumulated = true;
  }
  for (Entry& e : s_.buf) e.match = false;
}

// a2 cycle: "old = the score of the entries whose match bit is set (all of
// them have the same score; 0 if none ...)". The hardware ORs the matching
// scores; with equal scores that is any one of them (checked).
uint32_t WalkSchedModel::matched_score() const {
  bool any = false;
  uint32_t old = 0;
  for (unsigned i = 0; i < s_.count; ++i) {
    const Entry& e = s_.buf[i];
    if (!e.match) continue;
    holds(!any || e.score == old, "matching entries with different scores");
    any = true;
    old = e.score;
  }
  return old;
}

// "simt aging: every valid entry i < sel_index ...: if credit_i = 0 then
// aged_i = 1, else credit_i - 1"; then "the entry leaves the buffer: entries
// above it move down by one, count - 1".
void WalkSchedModel::remove_selected(unsigned idx) {
  if (p_.simt()) {
    for (unsigned i = 0; i < idx; ++i) {
      Entry& e = s_.buf[i];
      if (e.credit == 0) {
        if (!e.aged) events_.aged_set = true;
        e.aged = true;
      } else {
        --e.credit;
      }
    }
  }
  for (unsigned i = idx; i + 1 < s_.count; ++i) s_.buf[i] = s_.buf[i + 1];
  --s_.count;
  s_.buf[s_.count] = Entry{};
}

void WalkSchedModel::append(const Entry& e) {
  holds(s_.count < p_.entries, "append to a full buffer");
  s_.buf[s_.count++] = e;
}

// "At the edge of t: busy[walker] = 1; d = (walker, vpn, iid); cooldown = L
// (every dispatch; cooldown counts down to 0 by one per edge otherwise ...);
// simt: last_iid = iid, last_valid = 1."
void WalkSchedModel::apply_dispatch(const Plan& pl) {
  const bool disp = pl.selection || pl.bypass;
  if (!disp) {
    // READING: without a dispatch only d.valid drops; d's fields hold.
    s_.d.valid = false;
    if (s_.cooldown > 0) --s_.cooldown;
    return;
  }
  const unsigned w = static_cast<unsigned>(pl.walker);
  uint64_t vpn = 0;
  uint32_t iid = 0;
  if (pl.selection) {
    vpn = pl.sel_vpn;
    iid = pl.sel_iid;
  } else {
    vpn = pl.a1_vpn;
    iid = pl.a1_iid;
  }
  s_.busy[w] = true;
  s_.given[w] = vpn;
  ++s_.starts[w];
  s_.d = Disp{true, w, vpn, iid, 0};
  s_.cooldown = p_.select_latency;
  if (p_.simt()) {
    s_.last_iid = iid;
    s_.last_valid = true;
  }
}

// Registers that take values from the state before the edge: the output
// registers (from d), a1 .. a4, the walker completions, g (from f) and f, the
// LFSR and the selection pipeline.
void WalkSchedModel::apply_registers(const Plan& pl, const WalkSchedIn& in) {
  // "At the edge: the output registers take (1, d.walker, d.vpn, d.iid,
  // acc)." READING: without d, disp_valid_o drops and the other output
  // registers hold.
  if (s_.d.valid) {
    s_.out = s_.d;
    s_.out.acc = pl.acc_d;
  } else {
    s_.out.valid = false;
  }
  shift_arrivals(pl);
  if (pl.accept) {
    // "fcfs and random carry the ID to disp_iid_o without using it": a1
    // takes req_iid_i in every policy.
    const uint32_t iid = static_cast<uint32_t>(in.req_iid & low_mask(p_.iid_bits));
    s_.a1 = Arrival{true, in.req_vpn & low_mask(p_.vpn_bits), iid, 0, 0, 0};
  }
  // "At the edge the write register takes g = (1, f.vpn, v[1 .. LV-1]) (g
  // valid = 0 after a cycle without f valid)". READING: without f valid only
  // g.valid drops; g.vpn and g.v hold. (From f before the edge: before f is
  // reloaded below.)
  s_.g.valid = s_.f.valid;
  if (s_.f.valid) {
    s_.g.vpn = s_.f.vpn;
    s_.g.victim = pl.victims;
  }
  // "at its edge busy[done_walker_i] = 0 and the fill register takes f = (1,
  // done_vpn_i) (f valid = 0 after a cycle without done_valid_i)".
  // READING: without done_valid_i only f.valid drops; f.vpn holds.
  s_.f.valid = in.done_valid;
  if (in.done_valid) {
    const uint64_t w = in.done_walker & low_mask(p_.walker_bits);
    s_.busy[w] = false;
    ++s_.ends[w];
    s_.f.vpn = in.done_vpn & low_mask(p_.vpn_bits);
  }
  // "s' = {s[14:0], s[15] ^ s[13] ^ s[12] ^ s[10]}", shifted every cycle.
  if (p_.random()) {
    const uint16_t s = s_.lfsr;
    const uint16_t fb = ((s >> 15) ^ (s >> 13) ^ (s >> 12) ^ (s >> 10)) & 1u;
    s_.lfsr = static_cast<uint16_t>((s << 1) | fb);
  }
  // "its result register (sel_valid, sel_index) in cycle t is the minimum
  // over the keys of cycle t - L".
  s_.sel_pipe.pop_front();
  s_.sel_pipe.push_back(pl.sel);
}

// The simt arrival stages, each from the register before the edge (the
// later stage first): "a4 = (vpn, iid, new) with new = min(old + est, 2^SB -
// 1)" at the a3 edge; "a3 = (vpn, iid, est, old)" at the a2 edge; "a2 =
// (vpn, iid, est)" at the a1 edge when a1 is scored; "a1 is emptied at its
// edge" (a new request reloads it in apply_registers).
void WalkSchedModel::shift_arrivals(const Plan& pl) {
  State& s = s_;
  s.a4 = Arrival{};
  if (s.a3.valid) {
    const uint64_t sum = uint64_t{s.a3.old} + s.a3.est;
    s.a4 = Arrival{true, s.a3.vpn, s.a3.iid, 0, 0, static_cast<uint32_t>(std::min<uint64_t>(sum, score_max_))};
  }
  s.a3 = Arrival{};
  if (s.a2.valid) s.a3 = Arrival{true, s.a2.vpn, s.a2.iid, s.a2.est, pl.old, 0};
  s.a2 = Arrival{};
  if (pl.score_a1) s.a2 = Arrival{true, s.a1.vpn, s.a1.iid, pl.est, 0, 0};
  s.a1 = Arrival{};
}

void WalkSchedModel::posedge(const WalkSchedIn& in) {
  events_ = WalkSchedEvents{};
  if (!in.rst_n) {
    s_ = reset_;
    return;
  }
  check_inputs(in);
  Plan& pl = plan_;
  plan(in, pl);
  // The dispatched request, read before the buffer collapses.
  if (pl.selection) {
    pl.sel_vpn = s_.buf[pl.sel_index].vpn;
    pl.sel_iid = s_.buf[pl.sel_index].iid;
  }
  pl.a1_vpn = s_.a1.vpn;
  pl.a1_iid = s_.a1.iid;
  apply_pwc(pl);
  apply_buffer(pl);
  apply_registers(pl, in);
  apply_dispatch(pl);
  check_state();
}

// ---------------------------------------------------------------------------
// Self-check after every edge

void WalkSchedModel::check_state() const {
  const State& s = s_;
  holds(s.count <= p_.entries, "count > B");
  for (unsigned i = 0; i < p_.entries; ++i) {
    holds(s.buf[i].valid == (i < s.count), "entries 0 .. count-1 are not exactly the valid ones");
  }
  holds(s.cooldown <= p_.select_latency, "cooldown > L");
  holds(s.sel_pipe.size() == p_.select_latency, "selection pipeline is not L deep");
  // req_ready needs a1, a2 and a3 empty, so one request is in a1 .. a4.
  const int stages = s.a1.valid + s.a2.valid + s.a3.valid + s.a4.valid;
  holds(stages <= 1, "two arrival stages valid at once");
  holds(p_.simt() || !(s.a2.valid || s.a3.valid || s.a4.valid), "a2 .. a4 valid outside simt");
  holds(!s.a4.valid || s.a4.nw >= 1, "a4 with a zero new score");
  const bool scoring = s.a2.valid || s.a3.valid || s.a4.valid;
  for (unsigned k = 0; k < p_.walkers; ++k) {
    // "busy only for dispatched walkers": set by a dispatch, cleared by done.
    const uint64_t open = s.starts[k] - s.ends[k];
    holds(s.starts[k] >= s.ends[k] && open <= 1 && s.busy[k] == (open == 1), "busy walker without a dispatch");
  }
  holds(!s.d.valid || s.busy[s.d.walker], "d names a walker that is not busy");
  holds(s.f.vpn <= low_mask(p_.vpn_bits), "f vpn wider than VPN");
  holds(s.g.vpn <= low_mask(p_.vpn_bits), "g vpn wider than VPN");
  holds(s.g.victim.size() + 1 == p_.levels, "g does not hold one victim per level");
  for (unsigned li = 0; li + 1 < p_.levels; ++li) {
    holds(s.g.victim[li] < p_.pwc_entries[li], "g victim >= PE[l]");
  }
  holds(!s.out.valid || (s.out.acc >= 1 && s.out.acc <= p_.levels), "disp_acc not in 1 .. LV");
  if (p_.random()) holds(s.lfsr != 0, "LFSR stuck at 0");
  scratch_.clear();  // (iid, score) of the valid entries
  for (unsigned i = 0; i < s.count; ++i) {
    const Entry& e = s.buf[i];
    holds(e.vpn <= low_mask(p_.vpn_bits), "entry vpn wider than VPN");
    if (!p_.simt()) {
      holds(e.iid <= low_mask(p_.iid_bits), "entry iid wider than IW");
      holds(e.score == 0 && e.credit == 0 && !e.aged && !e.match, "simt fields set outside simt");
      continue;
    }
    holds(e.score >= 1 && e.score <= score_max_, "score not in 1 .. 2^SB - 1");
    holds(e.credit <= p_.aging_threshold, "credit > AT");
    holds(!e.aged || e.credit == 0, "aged entry with credit left");
    holds(!e.match || scoring, "match bit outside the a1 edge -> a4 edge window");
    scratch_.emplace_back(e.iid, e.score);
  }
  // "all matching entries have the same score"
  std::sort(scratch_.begin(), scratch_.end());
  for (size_t i = 1; i < scratch_.size(); ++i) {
    holds(scratch_[i].first != scratch_[i - 1].first || scratch_[i].second == scratch_[i - 1].second,
          "two valid entries of one instruction with different scores");
  }
  for (unsigned li = 0; li + 1 < p_.levels; ++li) {
    const PwcLevel& lv = s.pwc[li];
    for (unsigned e = 0; e < lv.e.size(); ++e) {
      const PwcEntry& x = lv.e[e];
      holds(x.ctr <= 3, "PWC counter > 3");
      holds(p_.simt() || x.ctr == 0, "PWC counter outside simt");
      holds(x.valid || x.ctr == 0, "invalid PWC entry with a counter");
      holds(x.tag <= low_mask(p_.pwc_tag_bits[li]), "PWC tag wider than TB[l]");
      for (unsigned f = e + 1; f < lv.e.size(); ++f) {
        holds(!(x.valid && lv.e[f].valid && lv.e[f].tag == x.tag), "duplicate PWC tag in a level");
      }
    }
  }
}

}  // namespace txgen::model
