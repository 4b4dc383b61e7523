// Golden cycle model of l1tlb_NAME (docs/blocks/l1tlb.md). See l1tlb.h.
#include "model/l1tlb.h"

#include "model/util.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

namespace txgen::model {
namespace {

uint64_t mask_of(unsigned bits) { return bits >= 64 ? ~uint64_t{0} : ((uint64_t{1} << bits) - 1); }

bool pow2(unsigned v) { return v != 0 && (v & (v - 1)) == 0; }

}  // namespace

L1tlbModel::L1tlbModel(const elab::L1tlbParams& p) : p_(p) {
  validate();
  U_ = p_.cus;
  T_ = p_.tlbs;
  C_ = p_.clusters;
  W_ = p_.ways;
  S_ = p_.sets;
  N_ = p_.cus_per_cluster;
  K_ = p_.tlbs_per_cluster;
  M_ = p_.mshrs;
  vpn_mask_ = mask_of(p_.vpn_bits);
  vmid_mask_ = mask_of(p_.vmid_bits);
  ppn_mask_ = mask_of(p_.ppn_bits);
  perm_mask_ = mask_of(p_.perm_bits);
  tag_mask_ = mask_of(p_.l2_tag_bits);
  iid_mask_ = mask_of(p_.iid_bits);
  reset_ = make_reset();
  s_ = reset_;
  win_.assign(T_, -1);
  f2plan_.assign(C_, Fill2{});
  l2plan_.assign(C_, L2Choice{});
  hitv_.assign(U_, 0);
  q_seen_.assign(M_, 0);
}

void L1tlbModel::validate() const {
  auto bad = [](const std::string& what) { throw std::invalid_argument("L1tlbModel: " + what); };
  if (!pow2(p_.cus) || p_.cus > 64) bad("cus must be a power of two <= 64");
  if (!pow2(p_.tlbs) || p_.cus % p_.tlbs) bad("tlbs must be a power of two dividing cus");
  if (!pow2(p_.clusters) || p_.tlbs % p_.clusters) bad("clusters must be a power of two dividing tlbs");
  if (!pow2(p_.ways) || p_.ways < 2 || p_.ways > 256) bad("ways must be a power of two in [2, 256]");
  if (p_.sets != p_.cus / p_.tlbs) bad("sets != cus / tlbs");
  if (p_.cus_per_cluster != p_.cus / p_.clusters) bad("cus_per_cluster != cus / clusters");
  if (p_.tlbs_per_cluster != p_.tlbs / p_.clusters) bad("tlbs_per_cluster != tlbs / clusters");
  if (p_.mshrs < 1 || p_.mshrs > 64 * 16) bad("mshrs out of range");
  if (p_.home_bits != ceil_log2(p_.tlbs_per_cluster)) bad("home_bits != log2 K");
  if (p_.set_bits != ceil_log2(p_.sets)) bad("set_bits != log2 S");
  if (p_.cu_bits != ceil_log2(p_.cus_per_cluster)) bad("cu_bits != log2 N");
  if (p_.vpn_bits < 1 || p_.vpn_bits > 64) bad("vpn_bits out of range");
  if (p_.vpn_bits < p_.home_bits + p_.set_bits + 1) bad("no VPN tag bit");
  if (p_.vpn_tag_bits != p_.vpn_bits - p_.home_bits - p_.set_bits) bad("vpn_tag_bits");
  if (p_.vpn_hi_bits != p_.vpn_bits - p_.home_bits) bad("vpn_hi_bits");
  unsigned mb = ceil_log2(p_.mshrs);
  if (mb < 1) mb = 1;
  if (p_.mshr_bits != mb) bad("mshr_bits != max(1, clog2 M)");
  if (p_.l2_tag_bits != p_.home_bits + p_.mshr_bits) bad("l2_tag_bits != HB + MB");
  if (p_.vmid_bits > 64 || p_.ppn_bits > 64 || p_.perm_bits > 64) bad("field wider than 64 bits");
  // The document offers next_edge with the ages only (for plru the option has no meaning).
  if (!p_.plru() && p_.lru_touch_next && p_.lru_matrix) bad("lru_touch_next with the order matrix");
}

L1tlbModel::State L1tlbModel::make_reset() const {
  State s;
  s.tlb.resize(T_);
  for (Tlb& t : s.tlb) {
    t.e.assign(size_t{S_} * W_, Entry{});
    t.age.assign(size_t{S_} * W_, 0);
    t.plru.assign(size_t{S_} * W_, 0);
    for (unsigned set = 0; set < S_; ++set)
      for (unsigned w = 0; w < W_; ++w) t.age[set * W_ + w] = static_cast<uint8_t>(W_ - 1 - w);
    t.m.assign(M_, Mshr{});
    if (p_.mshr_fifo) {  // reset order 0, 1, ..., M-1, head first
      t.fq.slot.resize(M_);
      std::iota(t.fq.slot.begin(), t.fq.slot.end(), 0u);
      t.fq.count = M_;
      t.sq.slot.resize(M_);  // reset empty
    }
  }
  s.cl.assign(C_, Cluster{});
  s.sd1.match.assign(C_, -1);
  s.sd2.match.assign(C_, -1);
  s.cu.assign(U_, CuOut{});
  if (p_.input_buffer) s.ib.assign(U_, Ib{});  // reset: every FIFO empty
  return s;
}

void L1tlbModel::reset_state() { s_ = reset_; }

L1tlbIn L1tlbModel::idle_inputs() const {
  L1tlbIn in;
  in.req_valid.assign(U_, 0);
  in.req_vpn.assign(U_, 0);
  in.req_vmid.assign(U_, 0);
  in.req_iid.assign(U_, 0);
  in.l2_req_ready.assign(C_, 1);
  in.l2_resp_valid.assign(C_, 0);
  in.l2_resp_tag.assign(C_, 0);
  in.l2_resp_ppn.assign(C_, 0);
  in.l2_resp_perm.assign(C_, 0);
  return in;
}

L1tlbOut L1tlbModel::make_outputs() const {
  L1tlbOut o;
  o.req_ready.assign(U_, 0);
  o.resp_valid.assign(U_, 0);
  o.resp_vpn.assign(U_, 0);
  o.resp_vmid.assign(U_, 0);
  o.resp_ppn.assign(U_, 0);
  o.resp_perm.assign(U_, 0);
  o.fill_valid.assign(U_, 0);
  o.fill_vpn.assign(U_, 0);
  o.fill_vmid.assign(U_, 0);
  o.fill_ppn.assign(U_, 0);
  o.fill_perm.assign(U_, 0);
  o.evict_valid.assign(C_, 0);
  o.evict_vpn.assign(C_, 0);
  o.evict_vmid.assign(C_, 0);
  o.evict_ppn.assign(C_, 0);
  o.evict_perm.assign(C_, 0);
  o.l2_req_valid.assign(C_, 0);
  o.l2_req_vpn.assign(C_, 0);
  o.l2_req_vmid.assign(C_, 0);
  o.l2_req_tag.assign(C_, 0);
  o.l2_req_iid.assign(C_, 0);
  return o;
}

unsigned L1tlbModel::home_of(uint64_t vpn) const {
  return static_cast<unsigned>(vpn & mask_of(p_.home_bits));
}
unsigned L1tlbModel::set_of(uint64_t vpn) const {
  return static_cast<unsigned>((vpn >> p_.home_bits) & mask_of(p_.set_bits));
}
uint64_t L1tlbModel::vtag_of(uint64_t vpn) const {
  return ((vpn & vpn_mask_) >> (p_.home_bits + p_.set_bits)) & mask_of(p_.vpn_tag_bits);
}

uint64_t L1tlbModel::entry_tag(unsigned j, unsigned s, unsigned w) const {
  const Entry& e = ent(j, s, w);
  const unsigned tg = p_.vpn_tag_bits;
  return tg >= 64 ? e.vtag : ((e.vmid << tg) | e.vtag);
}

uint64_t L1tlbModel::entry_vpn(unsigned j, unsigned s, unsigned w) const {
  const Entry& e = ent(j, s, w);
  return ((e.vtag << (p_.home_bits + p_.set_bits)) | (uint64_t{s} << p_.home_bits) | (j % K_)) & vpn_mask_;
}

int L1tlbModel::find(unsigned c, uint64_t vpn, uint64_t vmid) const {
  return compare(s_.tlb[c * K_ + home_of(vpn)], vpn & vpn_mask_, vmid & vmid_mask_);
}

unsigned L1tlbModel::age(unsigned j, unsigned s, unsigned w) const { return s_.tlb[j].age[s * W_ + w]; }
unsigned L1tlbModel::plru_bit(unsigned j, unsigned s, unsigned n) const { return s_.tlb[j].plru[s * W_ + n]; }
unsigned L1tlbModel::victim(unsigned j, unsigned s) const { return repl_victim(s_.tlb[j], s); }

unsigned L1tlbModel::free_mshrs(unsigned j) const {
  unsigned n = 0;
  for (const Mshr& m : s_.tlb[j].m) n += m.valid ? 0 : 1;
  return n;
}

namespace {
template <class Queue>
std::vector<unsigned> queue_order(const Queue& q) {
  std::vector<unsigned> order(q.count);
  for (unsigned pos = 0; pos < q.count; ++pos) order[pos] = q.at(pos);
  return order;
}
}  // namespace

std::vector<unsigned> L1tlbModel::free_queue(unsigned j) const { return queue_order(s_.tlb[j].fq); }
std::vector<unsigned> L1tlbModel::send_queue(unsigned j) const { return queue_order(s_.tlb[j].sq); }

// ---------------------------------------------------------------------------
// Combinational pieces.

// Without the input buffer the crossbar sees the port; with it, the head of
// the CU's FIFO (a register), whatever the port does in the cycle.
bool L1tlbModel::cu_request(const State& s, const L1tlbIn& in, unsigned u, uint64_t* vpn, uint64_t* vmid) const {
  if (p_.input_buffer) {
    const Ib& b = s.ib[u];
    if (b.count == 0) return false;
    *vpn = b.vpn[b.head];
    *vmid = b.vmid[b.head];
    return true;
  }
  if (!in.req_valid[u]) return false;
  *vpn = in.req_vpn[u] & vpn_mask_;
  *vmid = in.req_vmid[u] & vmid_mask_;
  return true;
}

uint64_t L1tlbModel::cu_iid(const State& s, const L1tlbIn& in, unsigned u) const {
  if (p_.iid_bits == 0) return 0;
  if (p_.input_buffer) return s.ib[u].iid[s.ib[u].head];
  return in.req_iid[u] & iid_mask_;
}

int L1tlbModel::winner(const State& s, const L1tlbIn& in, unsigned j, unsigned* nreq) const {
  const unsigned c = j / K_, k = j % K_;
  const unsigned rr = s.tlb[j].rr;
  int win = -1;
  unsigned n = 0;
  for (unsigned d = 0; d < N_; ++d) {
    const unsigned i = (rr + d) % N_;
    const unsigned u = c * N_ + i;
    uint64_t vpn = 0, vmid = 0;
    if (cu_request(s, in, u, &vpn, &vmid) && home_of(vpn) == k) {
      if (win < 0) win = static_cast<int>(i);
      ++n;
    }
  }
  if (nreq) *nreq = n;
  return win;
}

bool L1tlbModel::credit(const State& s, unsigned j) const {
  const Tlb& t = s.tlb[j];
  unsigned fr = 0;
  for (const Mshr& m : t.m) fr += m.valid ? 0 : 1;
  return fr > unsigned(t.r1.valid) + unsigned(t.r2.valid);
}

bool L1tlbModel::sd_block(const State& s, const L1tlbIn& in) const {
  return in.sd_valid || s.sd1.valid || s.sd2.valid;
}

bool L1tlbModel::sd_ready(const State& s) const {
  if (s.sd1.valid || s.sd2.valid) return false;
  for (const Tlb& t : s.tlb)
    if (t.r1.valid || t.r2.valid) return false;
  return true;
}

void L1tlbModel::outputs(const L1tlbIn& in, L1tlbOut& o) const {
  const State& s = in.rst_n ? s_ : reset_;  // asynchronous reset
  if (o.req_ready.size() != U_ || o.l2_req_valid.size() != C_ || o.evict_valid.size() != C_) o = make_outputs();
  for (unsigned u = 0; u < U_; ++u) o.req_ready[u] = p_.input_buffer ? req_ready_ib(s, u) : 0;
  const bool blk = sd_block(s, in);
  if (!blk && !p_.input_buffer)
    for (unsigned j = 0; j < T_; ++j) {
      const int w = winner(s, in, j, nullptr);
      if (w >= 0 && credit(s, j)) o.req_ready[(j / K_) * N_ + unsigned(w)] = 1;
    }
  for (unsigned u = 0; u < U_; ++u) {
    const CuOut& r = s.cu[u];
    o.resp_valid[u] = r.rv;
    o.resp_vpn[u] = r.rvpn;
    o.resp_vmid[u] = r.rvmid;
    o.resp_ppn[u] = r.rppn;
    o.resp_perm[u] = r.rperm;
    o.fill_valid[u] = r.fv;
    o.fill_vpn[u] = r.fvpn;
    o.fill_vmid[u] = r.fvmid;
    o.fill_ppn[u] = r.fppn;
    o.fill_perm[u] = r.fperm;
  }
  for (unsigned c = 0; c < C_; ++c) {
    const Q& q = s.cl[c].q;
    o.l2_req_valid[c] = q.valid;
    o.l2_req_vpn[c] = q.vpn;
    o.l2_req_vmid[c] = q.vmid;
    o.l2_req_tag[c] = (uint64_t{q.k} << p_.mshr_bits) | q.mshr;
    o.l2_req_iid[c] = q.iid;
    const Cluster& cl = s.cl[c];
    o.evict_valid[c] = cl.ev;
    o.evict_vpn[c] = cl.evpn;
    o.evict_vmid[c] = cl.evmid;
    o.evict_ppn[c] = cl.eppn;
    o.evict_perm[c] = cl.eperm;
  }
  o.sd_ready = sd_ready(s);
  o.sd_done = s.done;
}

L1tlbOut L1tlbModel::outputs(const L1tlbIn& in) const {
  L1tlbOut o = make_outputs();
  outputs(in, o);
  return o;
}

int L1tlbModel::compare(const Tlb& t, uint64_t vpn, uint64_t vmid) const {
  const unsigned s = set_of(vpn);
  const uint64_t vt = vtag_of(vpn);
  int hit = -1;
  for (unsigned w = 0; w < W_; ++w) {
    const Entry& e = t.e[s * W_ + w];
    if (e.valid && e.vtag == vt && e.vmid == vmid) {
      if (hit >= 0) throw std::logic_error("L1tlbModel: duplicate translation in one set (invariant broken)");
      hit = static_cast<int>(w);
    }
  }
  return hit;
}

void L1tlbModel::touch(Tlb& t, unsigned s, unsigned v) {
  if (p_.plru()) {
    uint8_t* b = &t.plru[s * W_];
    unsigned n = W_ + v;
    while (n > 1) {
      const unsigned parent = n / 2;
      b[parent] = (n % 2 == 0) ? 1 : 0;  // v in the lower half: point at the upper half
      n = parent;
    }
  } else {
    uint8_t* a = &t.age[s * W_];
    const uint8_t av = a[v];
    for (unsigned w = 0; w < W_; ++w)
      if (a[w] < av) ++a[w];
    a[v] = 0;
  }
}

// Untouch(k) (lru): every way with age > age[k] gets age - 1, k becomes
// the least recent (age W-1). Point(k) (plru): every node on k's path points
// at k (0 if k is in the node's lower half, else 1).
void L1tlbModel::untouch(Tlb& t, unsigned s, unsigned k) {
  if (p_.plru()) {
    uint8_t* b = &t.plru[s * W_];
    unsigned n = W_ + k;
    while (n > 1) {
      const unsigned parent = n / 2;
      b[parent] = (n % 2 == 0) ? 0 : 1;  // k in the lower half: point at the lower half
      n = parent;
    }
  } else {
    uint8_t* a = &t.age[s * W_];
    const uint8_t ak = a[k];
    for (unsigned w = 0; w < W_; ++w)
      if (a[w] > ak) --a[w];
    a[k] = static_cast<uint8_t>(W_ - 1);
  }
}

// The decide stage's hit touch: at this edge, or (lru_touch_next) held for
// the next one, where it lands before that edge's fill touch.
void L1tlbModel::hit_touch(Tlb& t, unsigned s, unsigned v) {
  if (late_lru())
    defer_lru(t, false, s, v);
  else
    touch(t, s, v);
}

// The one-VPN shootdown's untouch of the way it invalidates at this edge:
// now, or (lru_touch_next) at the next edge, on the order as it is then.
void L1tlbModel::sd_untouch(Tlb& t, unsigned s, unsigned k) {
  if (late_lru())
    defer_lru(t, true, s, k);
  else
    untouch(t, s, k);
}

// Called after apply_late_lru cleared the last edge's update, so a second
// one at one edge means the touch / untouch exclusion broke.
void L1tlbModel::defer_lru(Tlb& t, bool untouch_way, unsigned s, unsigned w) {
  if (t.late.valid) throw std::logic_error("L1tlbModel: two late LRU updates for one edge");
  t.late = LateLru{true, untouch_way, s, w};
}

// Same-edge order 0: the update deferred at the last edge, before this
// edge's decide, shootdown and fill updates.
void L1tlbModel::apply_late_lru(Tlb& t) {
  if (!t.late.valid) return;
  if (t.late.untouch)
    untouch(t, t.late.set, t.late.way);
  else
    touch(t, t.late.set, t.late.way);
  t.late = LateLru{};
}

// Flush-all: the replacement state of every set of TLB t back to its reset
// value (copied in place from the reset state: no allocation).
void L1tlbModel::reset_repl(Tlb& t, const Tlb& r) {
  std::copy(r.age.begin(), r.age.end(), t.age.begin());
  std::copy(r.plru.begin(), r.plru.end(), t.plru.begin());
}

unsigned L1tlbModel::repl_victim(const Tlb& t, unsigned s) const {
  if (p_.plru()) {
    const uint8_t* b = &t.plru[s * W_];
    unsigned n = 1;
    while (n < W_) n = 2 * n + b[n];
    return n - W_;
  }
  const uint8_t* a = &t.age[s * W_];
  for (unsigned w = 0; w < W_; ++w)
    if (a[w] == W_ - 1) return w;
  throw std::logic_error("L1tlbModel: LRU ages are not a permutation");
}

// The MSHR a miss allocates (document "Decide stage"): the head of the free
// queue with mshr_fifo, removed here, else the lowest-index free one. The
// credit guarantees a free one in the cycle's registers.
unsigned L1tlbModel::take_free_mshr(Tlb& t) {
  if (!p_.mshr_fifo) {
    for (unsigned m = 0; m < M_; ++m)
      if (!t.m[m].valid) return m;
    throw std::logic_error("L1tlbModel: miss without a free MSHR (credit broken)");
  }
  MshrQueue& q = t.fq;
  if (q.count == 0) throw std::logic_error("L1tlbModel: miss with an empty MSHR free queue (credit broken)");
  const unsigned m = q.at(0);
  if (t.m[m].valid) throw std::logic_error("L1tlbModel: the head of the MSHR free queue is not free");
  q.pop_front();
  for (unsigned lower = 0; lower < m; ++lower) events_.alloc_not_lowest |= !t.m[lower].valid;
  return m;
}

// f3 frees MSHR m (vh and vmid hold). With mshr_fifo it joins the free queue's
// tail; called after the decide stage's removal (same-edge order 1 before
// 4), so an MSHR freed at an allocation's edge is never the one allocated.
void L1tlbModel::release_mshr(Tlb& t, unsigned m) {
  Mshr& ms = t.m[m];
  if (!ms.valid) throw std::logic_error("L1tlbModel: f3 frees an MSHR that is already free");
  ms.valid = ms.pending = ms.sent = ms.kill = false;
  ms.waiters = 0;
  if (!p_.mshr_fifo) return;
  t.fq.push_back(m);
  check_free_queue(t);
}

// With mshr_fifo the MSHR allocated at this edge joins the send queue's tail
// (same-edge order 1): the TLB's misses go to the L2 in allocation order.
void L1tlbModel::append_send_queue(Tlb& t, unsigned m) {
  if (!p_.mshr_fifo) return;
  if (t.sq.count == M_) throw std::logic_error("L1tlbModel: the MSHR send queue overflows");
  t.sq.push_back(m);
  check_send_queue(t);
}

// The MSHR TLB t sends when the cluster's round-robin reaches it (document
// "L2 request"): the send queue's head (mshr_fifo, the oldest candidate),
// else the lowest-index candidate; -1 when the TLB has no candidate.
int L1tlbModel::l2_candidate(const Tlb& t) const {
  if (p_.mshr_fifo) return t.sq.count ? static_cast<int>(t.sq.at(0)) : -1;
  for (unsigned m = 0; m < M_; ++m)
    if (is_candidate(t.m[m])) return static_cast<int>(m);
  return -1;
}

// The L2 choice of this edge (same-edge order 5). The choice was made from
// the cycle's registers; an allocation of this edge appended behind the head
// (order 1), so with mshr_fifo the head is still m.
void L1tlbModel::mark_sent(Tlb& t, unsigned m) {
  t.m[m].sent = true;
  if (!p_.mshr_fifo) return;
  if (t.sq.count == 0 || t.sq.at(0) != m)
    throw std::logic_error("L1tlbModel: the L2 choice is not the head of the MSHR send queue");
  t.sq.pop_front();
  for (unsigned lower = 0; lower < m; ++lower) events_.send_not_lowest |= is_candidate(t.m[lower]);
  check_send_queue(t);
}

void L1tlbModel::check_free_queue(const Tlb& t) { check_queue(t, t.fq, is_free, "free queue"); }
void L1tlbModel::check_send_queue(const Tlb& t) { check_queue(t, t.sq, is_candidate, "send queue"); }

// Every MSHR that is a member once and nothing else; O(M), run only on a
// queue that changed at this edge.
void L1tlbModel::check_queue(const Tlb& t, const MshrQueue& q, bool (*member)(const Mshr&), const char* name) {
  unsigned members = 0;
  for (const Mshr& ms : t.m) members += member(ms) ? 1 : 0;
  bool ok = q.count == members;
  std::fill(q_seen_.begin(), q_seen_.end(), 0);
  for (unsigned pos = 0; ok && pos < q.count; ++pos) {
    const unsigned m = q.at(pos);
    ok = m < M_ && member(t.m[m]) && !q_seen_[m];
    if (ok) q_seen_[m] = 1;
  }
  if (!ok) throw std::logic_error(std::string("L1tlbModel: the MSHR ") + name + " does not hold exactly its MSHRs");
}

void L1tlbModel::check_inputs(const L1tlbIn& in) const {
  if (in.req_valid.size() != U_ || in.req_vpn.size() != U_ || in.req_vmid.size() != U_ ||
      (p_.iid_bits > 0 && in.req_iid.size() != U_) ||
      in.l2_req_ready.size() != C_ || in.l2_resp_valid.size() != C_ || in.l2_resp_tag.size() != C_ ||
      in.l2_resp_ppn.size() != C_ || in.l2_resp_perm.size() != C_)
    throw std::invalid_argument("L1tlbModel: input vector sizes do not match the parameters");
  for (unsigned c = 0; c < C_; ++c) {
    if (!in.l2_resp_valid[c]) continue;
    const uint64_t tag = in.l2_resp_tag[c] & tag_mask_;
    const unsigned k = static_cast<unsigned>(tag >> p_.mshr_bits);
    const unsigned m = static_cast<unsigned>(tag & mask_of(p_.mshr_bits));
    const Cluster& cl = s_.cl[c];
    bool ok = k < K_ && m < M_;
    if (ok) {
      const Mshr& ms = s_.tlb[c * K_ + k].m[m];
      ok = ms.valid && ms.pending && ms.sent && !(cl.q.valid && cl.q.k == k && cl.q.mshr == m) &&
           !(cl.f1.valid && cl.f1.k == k && cl.f1.mshr == m) && !(cl.f2.valid && cl.f2.k == k && cl.f2.mshr == m);
    }
    if (!ok)
      throw std::logic_error("L1tlbModel: l2_resp_valid for cluster " + std::to_string(c) + " tag " +
                             std::to_string(tag) + " that is not an outstanding taken request");
  }
}

// ---------------------------------------------------------------------------
// The edge.

void L1tlbModel::posedge(const L1tlbIn& in) {
  events_ = L1tlbEvents{};
  if (!in.rst_n) {
    reset_state();
    events_.reset = true;
    stats_ = L1tlbStats{};
    return;
  }
  check_inputs(in);
  State& s = s_;

  // ---- Decisions from the registers of the cycle. ----
  // Crossbar and accept.
  const bool blk = sd_block(s, in);
  for (unsigned j = 0; j < T_; ++j) {
    unsigned nreq = 0;
    const int w = winner(s, in, j, &nreq);
    if (nreq >= 2) events_.xbar_conflict = true;
    const bool cr = credit(s, j);
    if (w >= 0 && !blk && !cr) events_.credit_block = true;
    win_[j] = (w >= 0 && !blk && cr) ? w : -1;
    if (win_[j] >= 0 && !p_.input_buffer) ++stats_.accepts;  // with the buffer: counted at the append
  }
  const bool sd_accept = in.sd_valid && sd_ready(s);

  // Fill write plan (f2): victim and suppression from the cycle's registers.
  for (unsigned c = 0; c < C_; ++c) {
    Fill2& fp = f2plan_[c];
    fp = Fill2{};
    const F& f2 = s.cl[c].f2;
    if (!f2.valid) continue;
    const Tlb& t = s.tlb[c * K_ + f2.k];
    const uint64_t vh = f2.vpn >> p_.home_bits;
    fp.write = true;
    fp.s = set_of(f2.vpn);
    // The replacement victim of the set from the registers of the cycle (no
    // separate invalid-way rule: invalid ways are the least recent, so with
    // lru this is an invalid way whenever the set has one, with
    // lru_touch_next from the edge after its invalidation). A decide-stage
    // touch of this cycle does not change it (applied at the edge, below),
    // nor (lru_touch_next) the late update that lands at this edge.
    fp.v = repl_victim(t, fp.s);
    const bool inv = !t.e[fp.s * W_ + fp.v].valid;
    const Sd& sd2 = s.sd2;
    fp.suppress = t.m[f2.mshr].kill ||
                  (sd2.valid && (sd2.all || (home_of(sd2.vpn) == f2.k && (sd2.vpn >> p_.home_bits) == vh &&
                                             sd2.vmid == f2.vmid)));
    if (!fp.suppress) {
      if (inv)
        events_.victim_invalid = true;
      else
        events_.victim_replacement = true;
    }
    // Eviction: the write happens, way v was valid in this cycle, and sd2
    // does not invalidate it at this edge (same-edge order 2 before 3: the
    // shootdown removed the old entry, the write lands on an invalid way;
    // only sd2 invalidating way v itself cancels the eviction).
    // sd2 invalidates way match[c] of set set(sd2.vpn) in TLB c*K +
    // home(sd2.vpn) (or everything for all, which also suppresses).
    const bool sd_inv =
        sd2.valid && (sd2.all || (home_of(sd2.vpn) == f2.k && set_of(sd2.vpn) == fp.s && sd2.match[c] == int(fp.v)));
    if (!fp.suppress && !inv && !sd_inv) {
      const Entry& e = t.e[fp.s * W_ + fp.v];
      fp.evict = true;
      fp.evpn = ((e.vtag << (p_.home_bits + p_.set_bits)) | (uint64_t{fp.s} << p_.home_bits) | f2.k) & vpn_mask_;
      fp.evmid = e.vmid;
      fp.eppn = e.ppn;
      fp.eperm = e.perm;
    }
  }

  // L2 choice plan.
  for (unsigned c = 0; c < C_; ++c) {
    L2Choice& lc = l2plan_[c];
    lc = L2Choice{};
    const Cluster& cl = s.cl[c];
    if (cl.q.valid && in.l2_req_ready[c]) ++stats_.l2_requests;
    if (cl.q.valid && !in.l2_req_ready[c]) events_.l2_backpressure = true;
    lc.load = !cl.q.valid || in.l2_req_ready[c];
    if (!lc.load) continue;
    for (unsigned d = 0; d < K_ && !lc.choice; ++d) {
      const unsigned k = (cl.lp + d) % K_;
      const int m = l2_candidate(s.tlb[c * K_ + k]);
      if (m < 0) continue;
      lc.choice = true;
      lc.k = k;
      lc.m = unsigned(m);
    }
  }

  for (unsigned u = 0; u < U_; ++u) {
    s.cu[u].rv = false;
    s.cu[u].fv = false;
  }

  // ---- 0. The last edge's late LRU update (lru_touch_next). ----
  for (Tlb& t : s.tlb) apply_late_lru(t);

  // ---- 1. Decide stage. ----
  for (unsigned j = 0; j < T_; ++j) {
    Tlb& t = s.tlb[j];
    const R2& r2 = t.r2;
    if (!r2.valid) continue;
    const unsigned c = j / K_;
    const unsigned u = c * N_ + r2.i;
    const unsigned set = set_of(r2.vpn);
    if (r2.match >= 0) {
      const Entry& e = t.e[set * W_ + unsigned(r2.match)];
      CuOut& o = s.cu[u];
      o.rv = true;
      o.rvpn = r2.vpn;
      o.rvmid = r2.vmid;
      o.rppn = e.ppn;
      o.rperm = e.perm;
      hit_touch(t, set, unsigned(r2.match));
      events_.hit = true;
      ++stats_.hits;
      continue;
    }
    const uint64_t vh = r2.vpn >> p_.home_bits;
    int found = -1;
    for (unsigned m = 0; m < M_; ++m) {
      const Mshr& ms = t.m[m];
      if (ms.valid && ms.pending && ms.vh == vh && ms.vmid == r2.vmid) {
        if (found >= 0) throw std::logic_error("L1tlbModel: two pending MSHRs for one translation");
        found = static_cast<int>(m);
      }
    }
    if (found >= 0) {
      Mshr& ms = t.m[unsigned(found)];
      const uint64_t bit = uint64_t{1} << r2.i;
      if (ms.waiters & bit) events_.merge_repeat_same_cu = true;
      ms.waiters |= bit;
      events_.mshr_merge = true;
      ++stats_.mshr_hits;
      const F& f2 = s.cl[c].f2;
      if (f2.valid && c * K_ + f2.k == j && f2.mshr == unsigned(found)) events_.merge_at_write_edge = true;
    } else {
      const unsigned m = take_free_mshr(t);
      Mshr& ms = t.m[m];
      ms.valid = true;
      ms.pending = true;
      ms.sent = false;
      ms.kill = false;
      ms.vh = vh;
      ms.vmid = r2.vmid;
      ms.iid = r2.iid;  // a merge into it keeps this miss's ID
      ms.waiters = uint64_t{1} << r2.i;
      if (p_.mshr_fifo) check_free_queue(t);
      append_send_queue(t, m);
      events_.lookup_miss_alloc = true;
      ++stats_.lookup_misses;
    }
  }

  // ---- 2. Shootdown (sd2). ----
  if (s.sd2.valid) {
    const Sd& sd2 = s.sd2;
    if (sd2.all) {
      events_.shootdown_all = true;
      for (unsigned j = 0; j < T_; ++j) {
        Tlb& t = s.tlb[j];
        for (Entry& e : t.e) e.valid = false;
        reset_repl(t, reset_.tlb[j]);  // every set back to the reset order (ages W-1-w / tree bits 0)
        for (Mshr& m : t.m)
          if (m.valid && m.pending) {
            m.kill = true;
            events_.kill_pending = true;
          }
      }
    } else {
      events_.shootdown_one = true;
      const uint64_t vh = sd2.vpn >> p_.home_bits;
      const unsigned set = set_of(sd2.vpn);
      for (unsigned c = 0; c < C_; ++c) {
        Tlb& t = s.tlb[c * K_ + home_of(sd2.vpn)];
        if (sd2.match[c] >= 0) {
          // Invalidate way k and make it the least recent (lru: untouch; plru:
          // point). Never together with a decide-stage touch (requests are
          // blocked), before the fill's touch of this edge (step 3), or
          // with lru_touch_next first at the next edge.
          t.e[set * W_ + unsigned(sd2.match[c])].valid = false;
          sd_untouch(t, set, unsigned(sd2.match[c]));
        }
        for (Mshr& m : t.m)
          if (m.valid && m.pending && m.vh == vh && m.vmid == sd2.vmid) {
            m.kill = true;
            events_.kill_pending = true;
          }
      }
    }
  }

  // ---- 3. Fill write (f2) and its eviction output. ----
  for (unsigned c = 0; c < C_; ++c) {
    Cluster& cl = s.cl[c];
    cl.ev = false;  // the evict data registers hold unless loaded below
    const F& f2 = cl.f2;
    if (!f2.valid) continue;
    const Fill2& fp = f2plan_[c];
    Tlb& t = s.tlb[c * K_ + f2.k];
    t.m[f2.mshr].pending = false;
    if (fp.evict) {
      cl.ev = true;
      cl.evpn = fp.evpn;
      cl.evmid = fp.evmid;
      cl.eppn = fp.eppn;
      cl.eperm = fp.eperm;
      events_.evict = true;
      ++stats_.evictions;
    }
    if (fp.suppress) {
      events_.fill_suppressed = true;
      ++stats_.fills_suppressed;
      continue;
    }
    Entry& e = t.e[fp.s * W_ + fp.v];
    e.valid = true;
    e.vtag = vtag_of(f2.vpn);
    e.vmid = f2.vmid;
    e.ppn = f2.ppn;
    e.perm = f2.perm;
    touch(t, fp.s, fp.v);
    ++stats_.fills_written;
  }

  // ---- 4. Fill answer (f3). ----
  for (unsigned c = 0; c < C_; ++c) {
    const F& f3 = s.cl[c].f3;
    if (!f3.valid) continue;
    Tlb& t = s.tlb[c * K_ + f3.k];
    const Mshr& ms = t.m[f3.mshr];
    for (unsigned i = 0; i < N_; ++i)
      if ((ms.waiters >> i) & 1) {
        CuOut& o = s.cu[c * N_ + i];
        o.fv = true;
        o.fvpn = f3.vpn;
        o.fvmid = f3.vmid;
        o.fppn = f3.ppn;
        o.fperm = f3.perm;
        ++stats_.fill_responses;
        if (o.rv) events_.hit_and_fill_same_cu = true;
      }
    release_mshr(t, f3.mshr);
  }

  // ---- 5. L2 choice. ----
  for (unsigned c = 0; c < C_; ++c) {
    const L2Choice& lc = l2plan_[c];
    if (!lc.load) continue;
    Cluster& cl = s.cl[c];
    if (!lc.choice) {
      cl.q.valid = false;
      continue;
    }
    Tlb& t = s.tlb[c * K_ + lc.k];
    mark_sent(t, lc.m);
    const Mshr& ms = t.m[lc.m];
    cl.lp = K_ > 0 ? (lc.k + 1) % K_ : 0;
    cl.q.valid = true;
    cl.q.k = lc.k;
    cl.q.mshr = lc.m;
    cl.q.vpn = ((ms.vh << p_.home_bits) | lc.k) & vpn_mask_;
    cl.q.vmid = ms.vmid;
    cl.q.iid = ms.iid;
  }

  // ---- 6. Compare stage / sd1 (entries after the writes), pipeline registers. ----
  for (unsigned j = 0; j < T_; ++j) {
    Tlb& t = s.tlb[j];
    const unsigned c = j / K_;
    if (t.r1.valid) {
      const int m = compare(t, t.r1.vpn, t.r1.vmid);
      const F& f2 = s.cl[c].f2;  // still the cycle's f2 (shifted below)
      const Fill2& fp = f2plan_[c];
      if (m >= 0 && f2.valid && !fp.suppress && c * K_ + f2.k == j && fp.s == set_of(t.r1.vpn) &&
          fp.v == unsigned(m))
        events_.fill_patch_at_compare = true;
      t.r2.valid = true;
      t.r2.i = t.r1.i;
      t.r2.vpn = t.r1.vpn;
      t.r2.vmid = t.r1.vmid;
      t.r2.iid = t.r1.iid;
      t.r2.match = m;
    } else {
      t.r2.valid = false;
    }
    if (win_[j] >= 0) {
      const unsigned i = unsigned(win_[j]);
      t.r1.valid = true;
      t.r1.i = i;
      cu_request(s, in, c * N_ + i, &t.r1.vpn, &t.r1.vmid);  // the FIFOs change only in step 7
      t.r1.iid = cu_iid(s, in, c * N_ + i);
      t.rr = (i + 1) % N_;
    } else {
      t.r1.valid = false;
    }
  }
  // Shootdown registers.
  s.done = s.sd2.valid;
  if (s.sd1.valid) {
    s.sd2.valid = true;
    s.sd2.all = s.sd1.all;
    s.sd2.vpn = s.sd1.vpn;
    s.sd2.vmid = s.sd1.vmid;
    for (unsigned c = 0; c < C_; ++c)
      s.sd2.match[c] = s.sd1.all ? -1 : compare(s.tlb[c * K_ + home_of(s.sd1.vpn)], s.sd1.vpn, s.sd1.vmid);
  } else {
    s.sd2.valid = false;
  }
  if (sd_accept) {
    s.sd1.valid = true;
    s.sd1.all = in.sd_all;
    s.sd1.vpn = in.sd_vpn & vpn_mask_;
    s.sd1.vmid = in.sd_vmid & vmid_mask_;
  } else {
    s.sd1.valid = false;
  }
  // Fill pipeline.
  for (unsigned c = 0; c < C_; ++c) {
    Cluster& cl = s.cl[c];
    if (cl.f2.valid)
      cl.f3 = cl.f2;
    else
      cl.f3.valid = false;
    if (cl.f1.valid) {
      const Mshr& ms = s.tlb[c * K_ + cl.f1.k].m[cl.f1.mshr];
      cl.f2.valid = true;
      cl.f2.k = cl.f1.k;
      cl.f2.mshr = cl.f1.mshr;
      cl.f2.vpn = ((ms.vh << p_.home_bits) | cl.f1.k) & vpn_mask_;
      cl.f2.vmid = ms.vmid;
      cl.f2.ppn = cl.f1.ppn;
      cl.f2.perm = cl.f1.perm;
    } else {
      cl.f2.valid = false;
    }
    if (in.l2_resp_valid[c]) {
      const uint64_t tag = in.l2_resp_tag[c] & tag_mask_;
      cl.f1.valid = true;
      cl.f1.k = static_cast<unsigned>(tag >> p_.mshr_bits);
      cl.f1.mshr = static_cast<unsigned>(tag & mask_of(p_.mshr_bits));
      cl.f1.ppn = in.l2_resp_ppn[c] & ppn_mask_;
      cl.f1.perm = in.l2_resp_perm[c] & perm_mask_;
    } else {
      cl.f1.valid = false;
    }
  }

  // ---- 7. Input buffers. ----
  if (p_.input_buffer) ib_edge(in);
}

// The head leaves when the crossbar accepted it (win_ of its home TLB is this
// CU); the port's request is appended when taken, with the ready of the cycle
// (fewer than kIbDepth entries before the pop: a full FIFO whose head leaves
// takes nothing at this edge, the ready does not wait for the arbitration).
void L1tlbModel::ib_edge(const L1tlbIn& in) {
  for (unsigned u = 0; u < U_; ++u) {
    Ib& b = s_.ib[u];
    const bool take = in.req_valid[u] && req_ready_ib(s_, u);
    if (b.count > 0) {
      const unsigned j = (u / N_) * K_ + home_of(b.vpn[b.head]);
      if (win_[j] == static_cast<int>(u % N_)) {
        b.head = (b.head + 1) % kIbDepth;
        --b.count;
      }
    }
    if (take) {
      const unsigned slot = (b.head + b.count) % kIbDepth;
      b.vpn[slot] = in.req_vpn[u] & vpn_mask_;
      b.vmid[slot] = in.req_vmid[u] & vmid_mask_;
      if (p_.iid_bits) b.iid[slot] = in.req_iid[u] & iid_mask_;
      ++b.count;
      ++stats_.accepts;
    }
  }
}

}  // namespace txgen::model
