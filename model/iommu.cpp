// Golden cycle models of iommu_NAME_l2tlb, iommu_NAME and iommu_NAME_sys,
// from docs/blocks/iommu.md only (the scheduler is the walk_sched model,
// reused unchanged). Quotations are from that document; "READING:" marks a
// place where the document left a choice and the reading taken.
#include "model/iommu.h"

#include "model/util.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace txgen::model {

namespace {

uint64_t low_mask(unsigned bits) { return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }
uint64_t cut(uint64_t v, unsigned bits) { return v & low_mask(bits); }

const Require require{"iommu model"};

[[noreturn]] __attribute__((noinline, cold)) void broken(const char* what) {
  throw std::logic_error(std::string("iommu model: ") + what);
}

inline void holds(bool ok, const char* what) {
  if (__builtin_expect(!ok, 0)) broken(what);
}

std::string num(uint64_t v) { return std::to_string(v); }

void merge(IommuEvents& into, const IommuEvents& from) {
#define TXGEN_IOMMU_EVENT_OR(name, meaning) into.name = into.name || from.name;
  TXGEN_IOMMU_EVENTS(TXGEN_IOMMU_EVENT_OR)
#undef TXGEN_IOMMU_EVENT_OR
}

}  // namespace

// ===========================================================================
// L2-TLB: construction and views

void L2tlbModel::validate() const {
  const auto& p = p_;
  require(is_pow2(p.entries) && p.entries <= 4096, "entries (N = " + num(p.entries) + ") not a power of two in [1, 4096]");
  require(is_pow2(p.ways) && p.ways <= 64 && p.ways <= p.entries, "ways (W) not a power of two in [1, min(64, N)]");
  require(p.sets == p.entries / p.ways, "sets != N / W");
  require(p.set_bits == floor_log2(p.sets), "set_bits != log2 S");
  require(p.vpn_bits >= 1 && p.vpn_bits <= 64 && p.vpn_bits >= p.set_bits, "vpn_bits not in [max(1, SI), 64]");
  require(p.tag_bits == p.vpn_bits - p.set_bits, "tag_bits != VPN - SI");
  require(p.ports >= 1 && p.ports <= 16, "ports (P) not in [1, 16]");
  require(p.port_bits == std::max(1u, ceil_log2(p.ports)), "port_bits != max(1, clog2 P)");
  require(p.req_tag_bits >= 1 && p.req_tag_bits <= 32, "req_tag_bits (T) not in [1, 32]");
  require(p.mshrs >= 1 && p.mshrs <= 1024, "mshrs (M) not in [1, 1024]");
  require(p.mshr_bits == std::max(1u, ceil_log2(p.mshrs)), "mshr_bits != max(1, clog2 M)");
  require(p.mshr_count_bits == ceil_log2(uint64_t{p.mshrs} + 1), "mshr_count_bits != clog2(M + 1)");
  require(p.waiters >= p.ports && p.waiters <= 2048, "waiters (R) not in [P, 2048]");
  require(p.waiter_bits == std::max(1u, ceil_log2(p.waiters)), "waiter_bits != max(1, clog2 R)");
  require(p.stages >= 3 && p.stages <= 16, "stages (D) not in [3, 16]");
  require(p.vmid_bits >= 1 && p.vmid_bits <= 64, "vmid_bits not in [1, 64]");
  require(p.ppn_bits >= 1 && p.ppn_bits <= 64 && p.perm_bits >= 1 && p.perm_bits <= 64, "ppn / perm bits not in [1, 64]");
  require(p.iid_bits >= 1 && p.iid_bits <= 32, "iid_bits (IW) not in [1, 32]");
}

L2tlbModel::L2tlbModel(const elab::L2tlbParams& p) : p_(p) {
  validate();
  // "All reset to 0."
  State& r = reset_;
  r.ways.assign(size_t{p_.sets} * p_.ways, Way{});
  r.plru.assign(size_t{p_.sets} * p_.ways, 0);
  r.stage.assign(p_.stages, Op{});
  r.mshr.assign(p_.mshrs, Mshr{});
  r.waiter.assign(p_.waiters, Waiter{});
  r.ans.assign(p_.ports, Answer{});
  s_ = reset_;
  plan_.ans.assign(p_.ports, -2);
}

L2tlbIn L2tlbModel::idle_inputs() const {
  L2tlbIn in;
  const size_t n = p_.ports;
  in.req_valid.assign(n, 0);
  in.req_vpn.assign(n, 0);
  in.req_vmid.assign(n, 0);
  in.req_iid.assign(n, 0);
  in.req_tag.assign(n, 0);
  in.resp_ready.assign(n, 1);
  in.walk_req_ready = true;
  return in;
}

L2tlbOut L2tlbModel::make_outputs() const {
  L2tlbOut o;
  const size_t n = p_.ports;
  o.req_ready.assign(n, 0);
  o.resp_valid.assign(n, 0);
  o.resp_tag.assign(n, 0);
  o.resp_vpn.assign(n, 0);
  o.resp_vmid.assign(n, 0);
  o.resp_ppn.assign(n, 0);
  o.resp_perm.assign(n, 0);
  return o;
}

// "A VPN's set is its low SI bits; its tag the VPN bits above them."
unsigned L2tlbModel::set_of(uint64_t vpn) const { return static_cast<unsigned>(vpn & (p_.sets - 1)); }
uint64_t L2tlbModel::tag_of(uint64_t vpn) const { return cut(vpn, p_.vpn_bits) >> p_.set_bits; }

const L2tlbModel::Way& L2tlbModel::way(unsigned s, unsigned w) const {
  if (s >= p_.sets || w >= p_.ways) throw std::out_of_range("iommu model: set / way out of range");
  return s_.ways[size_t{s} * p_.ways + w];
}

uint64_t L2tlbModel::way_vpn(unsigned s, unsigned w) const { return (way(s, w).tag << p_.set_bits) | s; }

const L2tlbModel::Op& L2tlbModel::stage(unsigned k) const {
  if (k < 1 || k > p_.stages) throw std::out_of_range("iommu model: stage not in 1 .. D");
  return s_.stage[k - 1];
}

const L2tlbModel::Mshr& L2tlbModel::mshr(unsigned m) const {
  if (m >= p_.mshrs) throw std::out_of_range("iommu model: MSHR >= M");
  return s_.mshr[m];
}

const L2tlbModel::Waiter& L2tlbModel::waiter(unsigned i) const {
  if (i >= p_.waiters) throw std::out_of_range("iommu model: waiter slot >= R");
  return s_.waiter[i];
}

bool L2tlbModel::answer_valid(unsigned port) const {
  if (port >= p_.ports) throw std::out_of_range("iommu model: port >= P");
  return s_.ans[port].valid;
}

int L2tlbModel::find(uint64_t vpn, uint64_t vmid) const {
  return hit_way(s_, cut(vpn, p_.vpn_bits), cut(vmid, p_.vmid_bits));
}

unsigned L2tlbModel::plru_bit(unsigned s, unsigned node) const {
  if (s >= p_.sets || node < 1 || node >= p_.ways) throw std::out_of_range("iommu model: plru node out of range");
  return s_.plru[size_t{s} * p_.ways + node];
}

unsigned L2tlbModel::victim(unsigned s) const {
  if (s >= p_.sets) throw std::out_of_range("iommu model: set >= S");
  return victim_of(s_, s);
}

bool L2tlbModel::pipeline_empty() const {
  for (const Op& op : s_.stage) {
    if (op.valid) return false;
  }
  return true;
}

unsigned L2tlbModel::valid_mshrs() const {
  unsigned n = 0;
  for (const Mshr& m : s_.mshr) n += m.valid;
  return n;
}

unsigned L2tlbModel::valid_waiters() const {
  unsigned n = 0;
  for (const Waiter& w : s_.waiter) n += w.valid;
  return n;
}

// ===========================================================================
// L2-TLB: entry ("at most one operation enters stage 1 per cycle")

// "a set is busy when some valid stage 1 .. D holds an operation of that set
// (a shootdown of everything occupies every set)". READING: a one-translation
// shootdown occupies its VPN's set, like every other kind.
bool L2tlbModel::set_busy(const State& s, unsigned set) const {
  for (const Op& op : s.stage) {
    if (!op.valid) continue;
    if ((op.kind == L2OpKind::Shootdown && op.all) || set_of(op.vpn) == set) return true;
  }
  return false;
}

unsigned L2tlbModel::lookups(const State& s) const {
  unsigned n = 0;
  for (const Op& op : s.stage) n += op.valid && op.kind == L2OpKind::Lookup;
  return n;
}

unsigned L2tlbModel::free_mshrs(const State& s) const {
  unsigned n = 0;
  for (const Mshr& m : s.mshr) n += !m.valid;
  return n;
}

int L2tlbModel::free_slot(const State& s) const {
  for (unsigned i = 0; i < p_.waiters; ++i) {
    if (!s.waiter[i].valid) return static_cast<int>(i);
  }
  return -1;
}

// READING: "the lowest MSHR with valid, filled and not entered, if its VPN's
// set is not busy" names one candidate, the lowest such MSHR; when its set is
// busy no fill enters, even if a higher filled MSHR's set is free (unlike the
// lookup's "first p ... whose VPN's set is not busy").
int L2tlbModel::pending_fill(const State& s) const {
  for (unsigned m = 0; m < p_.mshrs; ++m) {
    const Mshr& x = s.mshr[m];
    if (x.valid && x.filled && !x.entered) return static_cast<int>(m);
  }
  return -1;
}

// "sd_valid_i, the pipeline empty, and no valid MSHR of the shootdown's
// translation (sd_all_i: no valid MSHR at all; otherwise none with the same
// VPN and VMID)".
bool L2tlbModel::sd_may_enter(const State& s, const L2tlbIn& in) const {
  if (!in.sd_valid) return false;
  for (const Op& op : s.stage) {
    if (op.valid) return false;
  }
  const uint64_t vpn = cut(in.sd_vpn, p_.vpn_bits), vmid = cut(in.sd_vmid, p_.vmid_bits);
  for (const Mshr& m : s.mshr) {
    if (m.valid && (in.sd_all || (m.vpn == vpn && m.vmid == vmid))) return false;
  }
  return true;
}

// "the first p at or after rr (p = rr, rr + 1, ..., wrapping) with
// req_valid_i[p] whose VPN's set is not busy".
int L2tlbModel::lookup_port(const State& s, const L2tlbIn& in) const {
  for (unsigned i = 0; i < p_.ports; ++i) {
    const unsigned p = (s.rr + i) % p_.ports;
    if (in.req_valid[p] && !set_busy(s, set_of(in.req_vpn[p]))) return static_cast<int>(p);
  }
  return -1;
}

// Candidates in priority order: fill, shootdown, insert, lookup.
L2tlbModel::Entry L2tlbModel::choose_entry(const State& s, const L2tlbIn& in) const {
  Entry e;
  const int f = pending_fill(s);
  if (f >= 0 && !set_busy(s, set_of(s.mshr[f].vpn))) {
    e.kind = Enter::Fill;
    e.mshr = static_cast<unsigned>(f);
    return e;
  }
  if (sd_may_enter(s, in)) {
    e.kind = Enter::Shootdown;
    return e;
  }
  if (in.ins_valid && !in.sd_valid && !set_busy(s, set_of(in.ins_vpn))) {
    e.kind = Enter::Insert;
    return e;
  }
  if (in.sd_valid) return e;
  const int slot = free_slot(s);
  if (slot < 0 || free_mshrs(s) <= lookups(s)) return e;
  const int p = lookup_port(s, in);
  if (p < 0) return e;
  e.kind = Enter::Lookup;
  e.port = static_cast<unsigned>(p);
  e.slot = static_cast<unsigned>(slot);
  return e;
}

// READING: with rst_n = 0 the registers read their reset values in that very
// cycle (asynchronous, as the walk_sched model); the readies stay functions of
// those registers and the inputs, so they may read 1 during reset (nothing is
// taken: the edge resets).
void L2tlbModel::outputs(const L2tlbIn& in, L2tlbOut& o) const {
  const State& s = in.rst_n ? s_ : reset_;
  const Entry e = choose_entry(s, in);
  o.req_ready.assign(p_.ports, 0);
  if (e.kind == Enter::Lookup) o.req_ready[e.port] = 1;
  o.ins_ready = e.kind == Enter::Insert;
  o.sd_ready = e.kind == Enter::Shootdown;
  o.resp_valid.resize(p_.ports);
  o.resp_tag.resize(p_.ports);
  o.resp_vpn.resize(p_.ports);
  o.resp_vmid.resize(p_.ports);
  o.resp_ppn.resize(p_.ports);
  o.resp_perm.resize(p_.ports);
  for (unsigned p = 0; p < p_.ports; ++p) {
    const Answer& a = s.ans[p];
    o.resp_valid[p] = a.valid;
    o.resp_tag[p] = a.tag;
    o.resp_vpn[p] = a.vpn;
    o.resp_vmid[p] = a.vmid;
    o.resp_ppn[p] = a.ppn;
    o.resp_perm[p] = a.perm;
  }
  o.sd_done = s.sd_done;
  o.walk_req_valid = s.walk.valid;
  o.walk_req_vpn = s.walk.vpn;
  o.walk_req_vmid = s.walk.vmid;
  o.walk_req_iid = s.walk.iid;
  unsigned n = 0;
  for (const Mshr& m : s.mshr) n += m.valid;
  o.mshrs = n;  // "mshrs_o is the number of valid MSHRs"
}

L2tlbOut L2tlbModel::outputs(const L2tlbIn& in) const {
  L2tlbOut o = make_outputs();
  outputs(in, o);
  return o;
}

// ===========================================================================
// L2-TLB: the array

// "Hit: a valid way of the set with the operation's VMID and tag (at most one
// ever exists)."
int L2tlbModel::hit_way(const State& s, uint64_t vpn, uint64_t vmid) const {
  const size_t base = size_t{set_of(vpn)} * p_.ways;
  const uint64_t tag = tag_of(vpn);
  for (unsigned w = 0; w < p_.ways; ++w) {
    const Way& x = s.ways[base + w];
    if (x.valid && x.vmid == vmid && x.tag == tag) return static_cast<int>(w);
  }
  return -1;
}

bool L2tlbModel::any_invalid(const State& s, unsigned set, unsigned lo, unsigned n) const {
  const size_t base = size_t{set} * p_.ways;
  for (unsigned w = lo; w < lo + n; ++w) {
    if (!s.ways[base + w].valid) return true;
  }
  return false;
}

// "the set's pseudo-LRU walked from the root; at each node, if exactly one
// side holds an invalid way, that side; otherwise the side the node's bit
// names (the less recently used). With W = 1, way 0." A node bit of 1 names
// the upper half. *overruled: some node's bit was overruled by the invalid
// side (coverage).
unsigned L2tlbModel::victim_of(const State& s, unsigned set, bool* overruled) const {
  unsigned node = 1, lo = 0, size = p_.ways;
  while (size > 1) {
    const unsigned half = size / 2;
    const bool inv_lo = any_invalid(s, set, lo, half), inv_hi = any_invalid(s, set, lo + half, half);
    const bool bit = s.plru[size_t{set} * p_.ways + node] != 0;
    const bool upper = inv_lo != inv_hi ? inv_hi : bit;
    if (overruled && upper != bit) *overruled = true;
    lo += upper ? half : 0;
    node = 2 * node + (upper ? 1 : 0);
    size = half;
  }
  return lo;
}

// "making a way the most recently used points every node on its path away
// from it": leaf W + w; a way in a node's upper half sets the bit to 0.
void L2tlbModel::touch(unsigned set, unsigned w) {
  unsigned n = p_.ways + w;
  const size_t base = size_t{set} * p_.ways;
  while (n > 1) {
    s_.plru[base + n / 2] = (n & 1u) ? 0 : 1;
    n /= 2;
  }
}

// ===========================================================================
// L2-TLB: the edge, decided from the registers of the cycle

int L2tlbModel::find_mshr(uint64_t vpn, uint64_t vmid) const {
  for (unsigned m = 0; m < p_.mshrs; ++m) {
    const Mshr& x = s_.mshr[m];
    if (x.valid && x.vpn == vpn && x.vmid == vmid) return static_cast<int>(m);
  }
  return -1;
}

// "the valid, issued, not yet filled MSHR with the answer's VPN and VMID";
// "An answer matching no such MSHR changes nothing."
int L2tlbModel::answer_target() const {
  const WalkAnswer& r = s_.walk_ans;
  if (!r.valid) return -1;
  for (unsigned m = 0; m < p_.mshrs; ++m) {
    const Mshr& x = s_.mshr[m];
    if (x.valid && x.issued && !x.filled && x.vpn == r.vpn && x.vmid == r.vmid) return static_cast<int>(m);
  }
  return -1;
}

// Stage D lookup: hit, merge (filled, filled by this edge's answer, or
// waiting), or allocate.
void L2tlbModel::plan_lookup(const Op& op, int answer_mshr, Action& a) {
  const int h = hit_way(s_, op.vpn, op.vmid);
  if (h >= 0) {
    const Way& x = s_.ways[size_t{set_of(op.vpn)} * p_.ways + static_cast<unsigned>(h)];
    a.slot_ready = true;
    a.ppn = x.ppn;
    a.perm = x.perm;
    a.touch = h;
    events_.l2_hit = true;
    return;
  }
  const int m = find_mshr(op.vpn, op.vmid);
  if (m >= 0) {
    const Mshr& x = s_.mshr[m];
    if (x.filled || m == answer_mshr) {
      // "the slot becomes ready with the MSHR's PPN and permissions (the walk
      // answer's, when it arrives at this edge)"
      a.slot_ready = true;
      a.ppn = x.filled ? x.ppn : s_.walk_ans.ppn;
      a.perm = x.filled ? x.perm : s_.walk_ans.perm;
      events_.l2_merge_filled = true;
      events_.l2_merge_same_edge_answer = !x.filled;
    } else {
      a.slot_record = true;
      a.mshr = static_cast<unsigned>(m);
      events_.l2_merge_waiting = true;
    }
    return;
  }
  // "the lowest MSHR with valid = 0 is allocated ... (Entry guarantees a free MSHR.)"
  for (unsigned f = 0; f < p_.mshrs && !a.alloc; ++f) {
    if (!s_.mshr[f].valid) {
      a.alloc = a.slot_record = true;
      a.mshr = f;
    }
  }
  holds(a.alloc, "a lookup missed with no free MSHR");
  events_.l2_miss_alloc = true;
}

// Stage D fill / insert: "on a hit, the way's PPN and permissions are
// replaced; otherwise the victim way is written". The fill's translation is
// its MSHR's.
void L2tlbModel::plan_write(const Op& op, Action& a) {
  const bool fill = op.kind == L2OpKind::Fill;
  a.ppn = fill ? s_.mshr[op.mshr].ppn : op.ppn;
  a.perm = fill ? s_.mshr[op.mshr].perm : op.perm;
  const unsigned set = set_of(op.vpn);
  const int h = hit_way(s_, op.vpn, op.vmid);
  if (h >= 0) {
    a.write = h;
    events_.l2_fill_write_hit = true;
    events_.l2_fill_over_insert = fill;
  } else {
    const bool had_invalid = any_invalid(s_, set, 0, p_.ways);
    bool overruled = false;
    a.write = static_cast<int>(victim_of(s_, set, &overruled));
    events_.l2_fill_write_victim = true;
    events_.l2_victim_invalid_way = had_invalid;
    events_.l2_victim_plru = !had_invalid;
    events_.l2_victim_mixed = had_invalid && overruled;
  }
  a.touch = a.write;
  if (fill) {
    a.free_mshr = true;  // "A fill also frees its MSHR"
    a.mshr = op.mshr;
  }
}

void L2tlbModel::plan_action(Plan& pl) {
  const Op& op = s_.stage[p_.stages - 1];
  if (!op.valid) return;
  Action& a = pl.act;
  switch (op.kind) {
    case L2OpKind::Lookup:
      plan_lookup(op, pl.answer_mshr, a);
      break;
    case L2OpKind::Fill:
    case L2OpKind::Insert:
      plan_write(op, a);
      break;
    case L2OpKind::Shootdown:
      // "all: every way of every set becomes invalid; otherwise the hit way,
      // if any, becomes invalid. The pseudo-LRU is unchanged."
      a.invalidate_all = op.all;
      if (!op.all) a.invalidate = hit_way(s_, op.vpn, op.vmid);
      events_.l2_shootdown_all = op.all;
      events_.l2_shootdown_one = !op.all;
      events_.l2_shootdown_one_hit = !op.all && a.invalidate >= 0;
      break;
  }
}

// The walk request register and the answer registers, from the registers of
// the cycle: "if ... empty or ..._ready = 1, it loads ...; with none it
// becomes empty".
void L2tlbModel::plan_registers(const L2tlbIn& in, Plan& pl) {
  pl.walk_load = !s_.walk.valid || in.walk_req_ready;
  pl.walk_mshr = -1;
  for (unsigned m = 0; m < p_.mshrs && pl.walk_load && pl.walk_mshr < 0; ++m) {
    if (s_.mshr[m].valid && !s_.mshr[m].issued) pl.walk_mshr = static_cast<int>(m);
  }
  for (unsigned p = 0; p < p_.ports; ++p) pl.ans[p] = (!s_.ans[p].valid || in.resp_ready[p]) ? -1 : -2;
  for (unsigned i = p_.waiters; i-- > 0;) {  // downwards: the lowest ready slot of each port wins
    const Waiter& w = s_.waiter[i];
    if (w.valid && w.ready && pl.ans[w.port] != -2) pl.ans[w.port] = static_cast<int>(i);
  }
}

// Coverage facts of the cycle's inputs and registers.
void L2tlbModel::note_entry_events(const L2tlbIn& in, const Entry& e) {
  const State& s = s_;
  unsigned valid_ports = 0;
  bool busy_port = false;
  for (unsigned p = 0; p < p_.ports; ++p) {
    if (!in.req_valid[p]) continue;
    ++valid_ports;
    busy_port = busy_port || set_busy(s, set_of(in.req_vpn[p]));
  }
  const bool any_req = valid_ports > 0;
  events_.l2_two_ports_valid = valid_ports >= 2;
  events_.l2_set_busy_stall = busy_port;
  events_.l2_mshr_stall = any_req && !in.sd_valid && free_mshrs(s) <= lookups(s);
  events_.l2_waiter_stall = any_req && free_slot(s) < 0;
  events_.l2_sd_blocks_requests = in.sd_valid && (any_req || in.ins_valid);
  if (in.sd_valid && !sd_may_enter(s, in)) {
    bool empty = true;  // then only an MSHR of its translation holds it back
    for (const Op& op : s.stage) empty = empty && !op.valid;
    events_.l2_sd_waits_for_walk = empty;
  }
  for (unsigned p = 0; p < p_.ports; ++p) {
    if (s.ans[p].valid && !in.resp_ready[p]) events_.l2_resp_backpressure = true;
  }
  events_.l2_walk_backpressure = s.walk.valid && !in.walk_req_ready;
  const int f = pending_fill(s);
  events_.l2_fill_set_busy = f >= 0 && e.kind != Enter::Fill;
  events_.l2_fill_enter = e.kind == Enter::Fill;
  events_.l2_fill_over_request = e.kind == Enter::Fill && any_req;
  events_.l2_insert = e.kind == Enter::Insert;
  events_.l2_rr_skip = e.kind == Enter::Lookup && e.port != s.rr;
}

// "Answer register: at every edge it takes (walk_resp_valid_i, VPN, VMID,
// PPN, permissions)": the answer acts at the edge after the cycle it arrived
// in (without the register, at the edge of that cycle).
void L2tlbModel::take_walk_answer(const L2tlbIn& in) {
  s_.walk_ans = {in.walk_resp_valid, cut(in.walk_resp_vpn, p_.vpn_bits), cut(in.walk_resp_vmid, p_.vmid_bits),
                 cut(in.walk_resp_ppn, p_.ppn_bits), cut(in.walk_resp_perm, p_.perm_bits)};
}

// "the MSHR ... takes filled = 1 and the answer's PPN and permissions, and
// every valid, not ready waiter slot recording that MSHR becomes ready with
// them". READING: a slot records an MSHR from its lookup's stage D on (the
// merge or allocation writes the index); a slot whose lookup is still in the
// pipeline holds a stale index from an earlier use and is not "recording"
// it (it merges at its own stage D instead). The model keeps that fact as
// Waiter::waiting.
void L2tlbModel::apply_answer(int m) {
  if (m < 0) return;
  Mshr& x = s_.mshr[m];
  x.filled = true;
  x.ppn = s_.walk_ans.ppn;
  x.perm = s_.walk_ans.perm;
  unsigned readied = 0;
  for (Waiter& w : s_.waiter) {
    if (!w.waiting || w.mshr != static_cast<unsigned>(m)) continue;
    holds(w.valid && !w.ready, "a waiting slot that is not valid and not ready");
    w.ready = true;
    w.waiting = false;
    w.ppn = x.ppn;
    w.perm = x.perm;
    ++readied;
  }
  events_.l2_walk_answer_waiters = readied >= 1;
  events_.l2_walk_answer_many = readied >= 2;
}

void L2tlbModel::apply_action(const Action& a) {
  const Op& op = s_.stage[p_.stages - 1];
  if (!op.valid) return;
  const unsigned set = set_of(op.vpn);
  const size_t base = size_t{set} * p_.ways;
  if (a.slot_ready || a.slot_record) {
    Waiter& w = s_.waiter[op.slot];
    holds(w.valid && !w.ready && !w.waiting, "stage D's slot is not a fresh lookup's");
    if (a.slot_ready) {
      w.ready = true;
      w.ppn = a.ppn;
      w.perm = a.perm;
    } else {
      w.mshr = a.mshr;
      w.waiting = true;
    }
  }
  if (a.alloc) {
    // "(valid, the VPN, VMID and instruction ID, issued = filled = entered = 0)"
    Mshr& x = s_.mshr[a.mshr];
    x.valid = true;
    x.vpn = op.vpn;
    x.vmid = op.vmid;
    x.iid = op.iid;
    x.issued = x.filled = x.entered = false;
  }
  if (a.write >= 0) s_.ways[base + static_cast<unsigned>(a.write)] = Way{true, op.vmid, tag_of(op.vpn), a.ppn, a.perm};
  if (a.touch >= 0) touch(set, static_cast<unsigned>(a.touch));
  if (a.free_mshr) s_.mshr[a.mshr].valid = false;
  if (a.invalidate >= 0) s_.ways[base + static_cast<unsigned>(a.invalidate)].valid = false;
  if (a.invalidate_all) {
    for (Way& w : s_.ways) w.valid = false;
  }
  if (a.write >= 0) {
    // The set just written holds each translation once.
    for (unsigned w = 0; w < p_.ways; ++w) {
      const Way& x = s_.ways[base + w];
      holds(!x.valid || w == static_cast<unsigned>(a.write) || x.vmid != op.vmid || x.tag != tag_of(op.vpn),
            "two ways of one set hold one translation");
    }
  }
}

// "a fill sets its MSHR's entered; a lookup of port p takes the lowest free
// waiter slot (valid = 1, ready = 0, port p, its tag, VPN, VMID) and rr = (p +
// 1) mod P". Stage 1's operation register is built here too.
void L2tlbModel::apply_entry(const L2tlbIn& in, const Entry& e) {
  Op& op = s_.stage[0];  // already shifted: stage 1 takes the entering operation
  op.valid = e.kind != Enter::None;
  switch (e.kind) {
    case Enter::None:
      return;
    case Enter::Fill: {
      Mshr& x = s_.mshr[e.mshr];
      x.entered = true;
      op.kind = L2OpKind::Fill;
      op.vpn = x.vpn;
      op.vmid = x.vmid;
      op.mshr = e.mshr;
      return;
    }
    case Enter::Shootdown:
      op.kind = L2OpKind::Shootdown;
      op.vpn = cut(in.sd_vpn, p_.vpn_bits);
      op.vmid = cut(in.sd_vmid, p_.vmid_bits);
      op.all = in.sd_all;
      return;
    case Enter::Insert:
      op.kind = L2OpKind::Insert;
      op.vpn = cut(in.ins_vpn, p_.vpn_bits);
      op.vmid = cut(in.ins_vmid, p_.vmid_bits);
      op.ppn = cut(in.ins_ppn, p_.ppn_bits);
      op.perm = cut(in.ins_perm, p_.perm_bits);
      return;
    case Enter::Lookup:
      break;
  }
  const unsigned p = e.port;
  Waiter& w = s_.waiter[e.slot];
  holds(!w.valid, "a lookup took a slot that is not free");
  w.valid = true;
  w.ready = w.waiting = false;
  w.port = p;
  w.tag = cut(in.req_tag[p], p_.req_tag_bits);
  w.vpn = cut(in.req_vpn[p], p_.vpn_bits);
  w.vmid = cut(in.req_vmid[p], p_.vmid_bits);
  op.kind = L2OpKind::Lookup;
  op.vpn = w.vpn;
  op.vmid = w.vmid;
  op.iid = cut(in.req_iid[p], p_.iid_bits);
  op.slot = e.slot;
  s_.rr = (p + 1) % p_.ports;
}

// The pipeline shift, the walk request register, the answer registers and
// the shootdown-done flag. A register that becomes empty keeps its fields.
void L2tlbModel::apply_registers(const Plan& pl, const Op& acted) {
  for (unsigned k = p_.stages - 1; k > 0; --k) s_.stage[k] = s_.stage[k - 1];
  s_.stage[0].valid = false;
  if (pl.walk_load) {
    s_.walk.valid = pl.walk_mshr >= 0;
    if (pl.walk_mshr >= 0) {
      Mshr& x = s_.mshr[pl.walk_mshr];
      x.issued = true;
      s_.walk.vpn = x.vpn;
      s_.walk.vmid = x.vmid;
      s_.walk.iid = x.iid;
    }
  }
  unsigned loads = 0;
  for (unsigned p = 0; p < p_.ports; ++p) {
    const int i = pl.ans[p];
    if (i == -2) continue;
    Answer& a = s_.ans[p];
    a.valid = i >= 0;
    if (i < 0) continue;
    Waiter& w = s_.waiter[i];
    a.tag = w.tag;
    a.vpn = w.vpn;
    a.vmid = w.vmid;
    a.ppn = w.ppn;
    a.perm = w.perm;
    w.valid = false;  // "which is freed (valid = 0) at the edge"
    ++loads;
  }
  events_.l2_two_answers = loads >= 2;
  // "The shootdown-done flag is set at this edge, so sd_done_o is 1 in the
  // next cycle only."
  s_.sd_done = acted.valid && acted.kind == L2OpKind::Shootdown;
}

void L2tlbModel::posedge(const L2tlbIn& in) {
  events_ = IommuEvents{};
  if (!in.rst_n) {
    s_ = reset_;
    events_.reset = true;
    return;
  }
  require(in.req_valid.size() == p_.ports && in.req_vpn.size() == p_.ports && in.req_vmid.size() == p_.ports &&
              in.req_iid.size() == p_.ports && in.req_tag.size() == p_.ports && in.resp_ready.size() == p_.ports,
          "per-port inputs must have P elements");
  if (!p_.answer_register) take_walk_answer(in);  // the answer acts in its own cycle
  Plan& pl = plan_;
  pl.entry = choose_entry(s_, in);
  pl.act = Action{};
  pl.answer_mshr = answer_target();
  plan_action(pl);
  plan_registers(in, pl);
  note_entry_events(in, pl.entry);
  const Op acted = s_.stage[p_.stages - 1];
  apply_answer(pl.answer_mshr);
  apply_action(pl.act);
  apply_registers(pl, acted);
  apply_entry(in, pl.entry);
  if (p_.answer_register) take_walk_answer(in);
  check_state();
}

void L2tlbModel::check_state() const {
  for (const Waiter& w : s_.waiter) {
    holds(!w.waiting || (w.valid && !w.ready && s_.mshr[w.mshr].valid), "a waiting slot without its MSHR");
  }
  holds(s_.rr < p_.ports, "rr >= P");
}

// ===========================================================================
// IOMMU

void IommuModel::validate() const {
  const auto& p = p_;
  require(p.vpn_bits >= 1 && p.vmid_bits >= 1 && p.vpn_bits + p.vmid_bits <= 64, "VM + VPN not in [2, 64]");
  require(p.sched.vpn_bits == p.vmid_bits + p.vpn_bits, "sched.vpn_bits != VM + VPN");
  require(p.walkers == p.sched.walkers, "walkers != sched.walkers");
  require(p.walker_bits == std::max(1u, ceil_log2(p.walkers)), "walker_bits != max(1, clog2 K)");
  require(p.levels == p.sched.levels, "levels != sched.levels");
  require(p.level_bits == 3, "level_bits != 3");
  require(p.iid_bits == p.sched.iid_bits, "iid_bits != sched.iid_bits");
  require(p.ppn_bits >= 1 && p.ppn_bits <= 64 && p.perm_bits >= 1 && p.perm_bits <= 64, "ppn / perm bits not in [1, 64]");
  const auto& l = p.l2;
  require(l.vpn_bits == p.vpn_bits && l.vmid_bits == p.vmid_bits && l.ppn_bits == p.ppn_bits &&
              l.perm_bits == p.perm_bits && l.iid_bits == p.iid_bits,
          "the L2-TLB's widths differ from the IOMMU's");
}

IommuModel::IommuModel(const elab::IommuParams& p) : p_(p), sched_(p.sched) {
  validate();
  reset_.w.assign(p_.walkers, Walker{});
  s_ = reset_;
}

IommuIn IommuModel::idle_inputs() const {
  IommuIn in;
  in.mem_req_ready = true;
  return in;
}

const IommuModel::Walker& IommuModel::walker(unsigned k) const {
  if (k >= p_.walkers) throw std::out_of_range("iommu model: walker >= K");
  return s_.w[k];
}

// "its VPN is {req_vmid_i, req_vpn_i}"; a leaf answer is the scheduler's
// done_valid_i in its own cycle.
WalkSchedIn IommuModel::sched_in(const IommuIn& in) const {
  WalkSchedIn si;
  si.rst_n = in.rst_n;
  si.req_valid = in.req_valid;
  si.req_vpn = (cut(in.req_vmid, p_.vmid_bits) << p_.vpn_bits) | cut(in.req_vpn, p_.vpn_bits);
  si.req_iid = static_cast<uint32_t>(cut(in.req_iid, p_.iid_bits));
  si.done_valid = leaf_answer(in);
  if (si.done_valid) {
    si.done_walker = static_cast<uint32_t>(cut(in.mem_resp_walker, p_.walker_bits));
    si.done_vpn = s_.w[si.done_walker].vpn;
  }
  return si;
}

bool IommuModel::leaf_answer(const IommuIn& in) const {
  if (!in.rst_n || !in.mem_resp_valid) return false;
  const uint64_t k = cut(in.mem_resp_walker, p_.walker_bits);
  return k < p_.walkers && s_.w[k].level == p_.levels;
}

IommuOut IommuModel::outputs(const IommuIn& in) const {
  const State& s = in.rst_n ? s_ : reset_;
  const WalkSchedOut so = sched_.outputs(sched_in(in));
  IommuOut o;
  o.req_ready = so.req_ready;
  o.resp_valid = s.resp.valid;
  o.resp_vpn = s.resp.vpn;
  o.resp_vmid = s.resp.vmid;
  o.resp_ppn = s.resp.ppn;
  o.resp_perm = s.resp.perm;
  o.mem_req_valid = s.mem.valid;
  o.mem_req_walker = s.mem.walker;
  o.mem_req_level = s.mem.level;
  o.mem_req_vpn = cut(s.mem.vpn, p_.vpn_bits);  // "the walk's VPN and VMID"
  o.mem_req_vmid = s.mem.vpn >> p_.vpn_bits;
  o.count = so.count;
  o.busy = so.busy;
  return o;
}

// "mem_resp_valid_i answers a PTE read that was taken ... and not yet
// answered, naming its walker". A read taken at the edge of t may be answered
// from t + 1 on.
void IommuModel::check_inputs(const IommuIn& in) const {
  if (!in.mem_resp_valid) return;
  const uint64_t k = cut(in.mem_resp_walker, p_.walker_bits);
  if (k >= p_.walkers) require(false, "mem_resp_walker_i (" + num(k) + ") >= K");
  if (!s_.w[k].outstanding) require(false, "mem_resp_valid_i for walker " + num(k) + " with no read taken");
}

// "the walker with want = 1 that comes first at or after the pointer wr".
int IommuModel::next_reader() const {
  for (unsigned i = 0; i < p_.walkers; ++i) {
    const unsigned k = (s_.wr + i) % p_.walkers;
    if (s_.w[k].want) return static_cast<int>(k);
  }
  return -1;
}

// The memory request register: "if it is empty or mem_req_ready_i = 1, it
// loads ...; at the edge that walker's want = 0 and wr = (k + 1) mod K. With
// no such walker it becomes empty."
void IommuModel::step_memory(const IommuIn& in) {
  MemReq& m = s_.mem;
  if (m.valid && in.mem_req_ready) s_.w[m.walker].outstanding = true;  // the read is taken at this edge
  if (m.valid && !in.mem_req_ready) return;
  const int k = next_reader();
  events_.iommu_wr_skip = k >= 0 && static_cast<unsigned>(k) != s_.wr;
  m.valid = k >= 0;
  if (k < 0) return;
  Walker& w = s_.w[k];
  m.walker = static_cast<unsigned>(k);
  m.level = w.level;
  m.vpn = w.vpn;
  w.want = false;
  s_.wr = (static_cast<unsigned>(k) + 1) % p_.walkers;
}

// The memory answer: a leaf completes the walk into the answer register;
// any other level moves the walker one level down. "Without a leaf answer in
// cycle t the answer register is empty in t + 1" (its fields kept).
void IommuModel::step_answer(const IommuIn& in) {
  s_.resp.valid = false;
  if (!in.mem_resp_valid) return;
  Walker& w = s_.w[cut(in.mem_resp_walker, p_.walker_bits)];
  w.outstanding = false;
  if (w.level != p_.levels) {
    ++w.level;
    w.want = true;
    return;
  }
  s_.resp = Resp{true, cut(w.vpn, p_.vpn_bits), w.vpn >> p_.vpn_bits, cut(in.mem_resp_ppn, p_.ppn_bits),
                 cut(in.mem_resp_perm, p_.perm_bits)};
  events_.iommu_leaf_answer = true;
}

// "A dispatch ... sets at the edge: walker k's VPN, level = LV - acc + 1,
// want = 1."
void IommuModel::step_dispatch(const WalkSchedOut& so) {
  if (!so.disp_valid) return;
  holds(so.disp_walker < p_.walkers && so.disp_acc >= 1 && so.disp_acc <= p_.levels, "a dispatch out of range");
  Walker& w = s_.w[so.disp_walker];
  holds(!w.want && !w.outstanding, "a dispatch to a walker with a read pending");
  w.vpn = so.disp_vpn;
  w.level = p_.levels - so.disp_acc + 1;
  w.want = true;
  events_.iommu_walk_leaf_first_read = so.disp_acc == 1;
  events_.iommu_walk_full = so.disp_acc == p_.levels;
  events_.iommu_walk_partial = so.disp_acc > 1 && so.disp_acc < p_.levels;
}

void IommuModel::posedge(const IommuIn& in) {
  events_ = IommuEvents{};
  const WalkSchedIn si = sched_in(in);
  if (!in.rst_n) {
    s_ = reset_;
    sched_.posedge(si);
    events_.reset = true;
    return;
  }
  check_inputs(in);
  const WalkSchedOut so = sched_.outputs(si);
  unsigned wanting = 0;
  for (const Walker& w : s_.w) wanting += w.want;
  events_.iommu_two_walkers_want = wanting >= 2;
  events_.iommu_mem_backpressure = s_.mem.valid && !in.mem_req_ready;
  events_.iommu_req_backpressure = in.req_valid && !so.req_ready;
  step_memory(in);  // reads the wants before the edge; the answer and the dispatch set others
  step_answer(in);
  step_dispatch(so);
  sched_.posedge(si);
  events_.iommu_sched_bypass = sched_.events().bypass;
  events_.iommu_sched_selection = sched_.events().selection;
}

// ===========================================================================
// iommu_NAME_sys

IommuSysModel::IommuSysModel(const elab::IommuParams& p) : p_(p), l2_(p.l2), io_(p) {
  l2in_ = l2_.idle_inputs();
  l2out_ = l2_.make_outputs();
}

IommuSysIn IommuSysModel::idle_inputs() const {
  IommuSysIn in;
  const size_t n = p_.l2.ports;
  in.req_valid.assign(n, 0);
  in.req_vpn.assign(n, 0);
  in.req_vmid.assign(n, 0);
  in.req_iid.assign(n, 0);
  in.req_tag.assign(n, 0);
  in.resp_ready.assign(n, 1);
  in.mem_req_ready = true;
  return in;
}

IommuSysOut IommuSysModel::make_outputs() const {
  IommuSysOut o;
  const size_t n = p_.l2.ports;
  o.req_ready.assign(n, 0);
  o.resp_valid.assign(n, 0);
  o.resp_tag.assign(n, 0);
  o.resp_vpn.assign(n, 0);
  o.resp_vmid.assign(n, 0);
  o.resp_ppn.assign(n, 0);
  o.resp_perm.assign(n, 0);
  return o;
}

// The L2-TLB's walk request register drives the IOMMU's request and the
// IOMMU's answer register the L2-TLB's walk answer; the scheduler's req_ready
// depends on its state only, so the join has no combinational loop.
void IommuSysModel::split(const IommuSysIn& in, L2tlbIn& l2in, IommuIn& ioin, IommuOut& ioout) const {
  const bool live = in.rst_n;  // in reset both registers read 0
  ioin.rst_n = in.rst_n;
  ioin.req_valid = live && l2_.walk_req_valid();
  ioin.req_vpn = live ? l2_.walk_req_vpn() : 0;
  ioin.req_vmid = live ? l2_.walk_req_vmid() : 0;
  ioin.req_iid = live ? l2_.walk_req_iid() : 0;
  ioin.mem_req_ready = in.mem_req_ready;
  ioin.mem_resp_valid = in.mem_resp_valid;
  ioin.mem_resp_walker = in.mem_resp_walker;
  ioin.mem_resp_ppn = in.mem_resp_ppn;
  ioin.mem_resp_perm = in.mem_resp_perm;
  ioout = io_.outputs(ioin);
  l2in.rst_n = in.rst_n;
  l2in.req_valid = in.req_valid;
  l2in.req_vpn = in.req_vpn;
  l2in.req_vmid = in.req_vmid;
  l2in.req_iid = in.req_iid;
  l2in.req_tag = in.req_tag;
  l2in.resp_ready = in.resp_ready;
  l2in.ins_valid = in.ins_valid;
  l2in.ins_vpn = in.ins_vpn;
  l2in.ins_vmid = in.ins_vmid;
  l2in.ins_ppn = in.ins_ppn;
  l2in.ins_perm = in.ins_perm;
  l2in.sd_valid = in.sd_valid;
  l2in.sd_all = in.sd_all;
  l2in.sd_vpn = in.sd_vpn;
  l2in.sd_vmid = in.sd_vmid;
  l2in.walk_req_ready = ioout.req_ready;
  l2in.walk_resp_valid = ioout.resp_valid;
  l2in.walk_resp_vpn = ioout.resp_vpn;
  l2in.walk_resp_vmid = ioout.resp_vmid;
  l2in.walk_resp_ppn = ioout.resp_ppn;
  l2in.walk_resp_perm = ioout.resp_perm;
}

void IommuSysModel::outputs(const IommuSysIn& in, IommuSysOut& o) const {
  IommuIn ioin;
  IommuOut ioout;
  split(in, l2in_, ioin, ioout);
  l2_.outputs(l2in_, l2out_);
  o.req_ready = l2out_.req_ready;
  o.resp_valid = l2out_.resp_valid;
  o.resp_tag = l2out_.resp_tag;
  o.resp_vpn = l2out_.resp_vpn;
  o.resp_vmid = l2out_.resp_vmid;
  o.resp_ppn = l2out_.resp_ppn;
  o.resp_perm = l2out_.resp_perm;
  o.ins_ready = l2out_.ins_ready;
  o.sd_ready = l2out_.sd_ready;
  o.sd_done = l2out_.sd_done;
  o.mem_req_valid = ioout.mem_req_valid;
  o.mem_req_walker = ioout.mem_req_walker;
  o.mem_req_level = ioout.mem_req_level;
  o.mem_req_vpn = ioout.mem_req_vpn;
  o.mem_req_vmid = ioout.mem_req_vmid;
  o.mshrs = l2out_.mshrs;
  o.walk_count = ioout.count;
  o.walk_busy = ioout.busy;
}

IommuSysOut IommuSysModel::outputs(const IommuSysIn& in) const {
  IommuSysOut o = make_outputs();
  outputs(in, o);
  return o;
}

// Both edges from the same cycle's values: the sub-models' inputs are taken
// before either edge is applied.
void IommuSysModel::posedge(const IommuSysIn& in) {
  IommuIn ioin;
  IommuOut ioout;
  split(in, l2in_, ioin, ioout);
  l2_.posedge(l2in_);
  io_.posedge(ioin);
  events_ = l2_.events();
  merge(events_, io_.events());
}

}  // namespace txgen::model
