// Golden cycle model of the aggregated / clustered L1-TLBs l1tlb_NAME
// (docs/blocks/l1tlb.md): U CUs, T TLBs in C clusters, one (U/C) x (T/C)
// round-robin crossbar per cluster with an MSHR credit, the compare (r1) and
// decide (r2) stages, per-TLB MSHRs with CU waiter masks, one L2 request
// register and a three-stage fill (f1 read MSHR, f2 write entry, f3 answer
// waiters) per cluster, LRU ages or tree pseudo-LRU per set (the fill's
// victim is always the replacement victim; a one-VPN invalidation makes its
// way the least recent, a flush-all restores the reset order), the per-cluster
// eviction output (the valid entry a fill replaced), and the two-stage
// shootdown (sd1 compare, sd2 invalidate / kill, done). Optionally
// (l1tlb.input_buffer) a two-entry FIFO per CU in front of the crossbar.
// With lru_touch_next (l1tlb.lru_touch: next_edge) the decide stage's hit
// touch and the one-VPN shootdown's untouch are held one edge in a register
// per TLB and applied first at the next edge: a fill's victim, chosen from
// the registers of its write cycle, does not see them yet.
// A miss allocates the lowest-index free MSHR, or (mshr_fifo) the head of the
// TLB's queue of free MSHRs, to whose tail f3 appends the MSHR it frees. The
// TLB's L2 candidate is its lowest-index unsent pending MSHR, or (mshr_fifo)
// the head of its send queue, to whose tail each allocation appends.
// Written from the block document alone; shares only the elaborated widths
// (txgen/elab/l1tlb.h) with the generator.
//
// Timing (request accepted in cycle t): r1 in t+1, r2 in t+2, resp_valid in
// t+3 (hit) or MSHR allocated / merged at edge t+2, L2 choice in t+3,
// l2_req_valid from t+4. L2 response in cycle f: f1 in f+1, f2 in f+2 (write
// at edge f+2), f3 in f+3 (waiters answered, MSHR freed at edge f+3),
// fill_valid in f+4; an entry replaced by that write: evict_valid in f+3.
// Shootdown accepted in e: sd1 in e+1, sd2 in e+2 (invalidate / kill at
// edge e+2), sd_done in e+3.
// With the input buffer, "accepted in cycle t" above is the crossbar's accept
// of the FIFO head; a request taken at the port in cycle t is appended at edge
// t and arbitrated in t+1 at the earliest (no bypass), so from the port every
// time is one cycle more: resp_valid in t+4 (hit_latency), l2_req_valid from
// t+5 (miss_to_l2).
//
// posedge() computes every decision from the registers of the cycle, then
// applies the effects in the document's same-edge order (the last edge's
// late LRU update with lru_touch_next, decide, shootdown,
// fill write, fill answer, L2 choice, compare / sd1 on the entries after the
// writes of the edge, then the input buffers: pop the accepted heads, append
// the taken port requests). No memory is allocated after construction
// (except by the convenience forms that return structs by value).
#pragma once

#include <algorithm>
#include <cstdint>
#include <tuple>
#include <vector>

#include "model/events.h"
#include "txgen/elab/l1tlb.h"

namespace txgen::model {

struct L1tlbIn {                      // inputs of l1tlb_NAME for one cycle
  bool rst_n = true;                  // false: this edge resets (asynchronous active-low reset held over the edge)
  std::vector<uint8_t> req_valid;     // [U]
  std::vector<uint64_t> req_vpn;      // [U]
  std::vector<uint64_t> req_vmid;     // [U]
  std::vector<uint64_t> req_iid;      // [U] instruction IDs (read with iid_bits > 0)
  std::vector<uint8_t> l2_req_ready;  // [C]
  std::vector<uint8_t> l2_resp_valid; // [C]
  std::vector<uint64_t> l2_resp_tag;  // [C] {k (HB bits, high), mshr (MB bits, low)}
  std::vector<uint64_t> l2_resp_ppn;  // [C]
  std::vector<uint64_t> l2_resp_perm; // [C]
  bool sd_valid = false;
  bool sd_all = false;
  uint64_t sd_vpn = 0;
  uint64_t sd_vmid = 0;
};

struct L1tlbOut {                     // outputs in the cycle (before its edge)
  std::vector<uint8_t> req_ready;     // [U] combinational (with the input buffer: from registers only)
  std::vector<uint8_t> resp_valid;    // [U] registered hit response
  std::vector<uint64_t> resp_vpn, resp_vmid, resp_ppn, resp_perm;  // [U]
  std::vector<uint8_t> fill_valid;    // [U] registered fill (miss) response
  std::vector<uint64_t> fill_vpn, fill_vmid, fill_ppn, fill_perm;  // [U]
  std::vector<uint8_t> evict_valid;   // [C] registered: a fill replaced a valid entry
  std::vector<uint64_t> evict_vpn, evict_vmid, evict_ppn, evict_perm;  // [C] the replaced entry
  std::vector<uint8_t> l2_req_valid;  // [C]
  std::vector<uint64_t> l2_req_vpn, l2_req_vmid, l2_req_tag;       // [C]
  std::vector<uint64_t> l2_req_iid;   // [C] the ID of the miss that allocated the MSHR (0 with iid_bits 0)
  bool sd_ready = false;              // combinational
  bool sd_done = false;               // registered pulse
};

// What the last posedge did (all false at each posedge, then set).
#define TXGEN_L1TLB_EVENTS(X)                                                                        \
  X(hit, "a decide stage hit")                                                                       \
  X(lookup_miss_alloc, "a decide stage missed and allocated an MSHR")                                \
  X(mshr_merge, "a decide stage missed and merged into a pending MSHR")                              \
  X(merge_repeat_same_cu, "a merge whose CU was already a waiter of the MSHR")                       \
  X(merge_at_write_edge, "a merge into the MSHR whose fill writes (f2) at the same edge")            \
  X(fill_patch_at_compare, "a compare stage matched the way written by a fill at the same edge")     \
  X(credit_block, "a valid request (FIFO head with the input buffer) refused only by the credit")    \
  X(xbar_conflict, "two or more CUs (ports or FIFO heads) requested one TLB in the cycle")           \
  X(l2_backpressure, "some l2_req_valid with l2_req_ready = 0")                                      \
  X(fill_suppressed, "a fill write suppressed (kill or same-edge shootdown)")                        \
  X(shootdown_one, "a single-VPN shootdown took effect (edge e+2)")                                  \
  X(shootdown_all, "a flush-all took effect (edge e+2)")                                             \
  X(kill_pending, "a pending MSHR got kill = 1")                                                     \
  X(hit_and_fill_same_cu, "resp_valid and fill_valid registered for one CU at one edge")             \
  X(victim_invalid, "a (not suppressed) fill's victim way was invalid in the write cycle")           \
  X(victim_replacement, "a (not suppressed) fill's victim way was valid in the write cycle")         \
  X(evict, "a fill replaced a valid entry (evict_valid registered at this edge)")                    \
  X(reset, "this edge was a reset")                                                                  \
  X(alloc_not_lowest, "mshr_fifo: an allocation passed over a lower-index free MSHR")                \
  X(send_not_lowest, "mshr_fifo: an L2 choice passed over a lower-index candidate")

struct L1tlbEvents {
  TXGEN_L1TLB_EVENTS(TXGEN_EVENT_FIELD)
};

struct L1tlbStats {                   // cumulative counters since construction / the last reset
  uint64_t accepts = 0;               // requests taken at the port (req_valid & req_ready)
  uint64_t hits = 0;                  // decide-stage hits
  uint64_t lookup_misses = 0;         // decide-stage misses that allocated an MSHR
  uint64_t mshr_hits = 0;             // decide-stage misses merged into a pending MSHR
  uint64_t l2_requests = 0;           // l2_req handshakes (valid & ready)
  uint64_t fills_written = 0;         // fill writes performed (not suppressed)
  uint64_t fills_suppressed = 0;
  uint64_t fill_responses = 0;        // fill_valid pulses (per CU)
  uint64_t evictions = 0;             // evict_valid pulses (per cluster)
};

class L1tlbModel {
 public:
  explicit L1tlbModel(const elab::L1tlbParams& p);
  // Idle inputs of the right sizes (rst_n = 1, l2_req_ready = 1, all else 0).
  L1tlbIn idle_inputs() const;
  // An output struct of the right sizes (for the caller-owned form).
  L1tlbOut make_outputs() const;
  // Combinational view of the cycle: registers, req_ready and sd_ready.
  void outputs(const L1tlbIn& in, L1tlbOut& out) const;  // no allocation when out is sized
  L1tlbOut outputs(const L1tlbIn& in) const;
  void posedge(const L1tlbIn& in);
  const L1tlbEvents& events() const { return events_; }
  const L1tlbStats& stats() const { return stats_; }
  const elab::L1tlbParams& params() const { return p_; }

  // Address fields (document "Address fields").
  unsigned home_of(uint64_t vpn) const;
  unsigned set_of(uint64_t vpn) const;
  uint64_t vtag_of(uint64_t vpn) const;  // vpn[VPN-1 : HB+SB]

  // Read-only views of the state in the current cycle, for model tests.
  // TLB j (0 .. T-1), set s, way w; MSHR m (0 .. M-1); cluster c.
  bool entry_valid(unsigned j, unsigned s, unsigned w) const { return ent(j, s, w).valid; }
  uint64_t entry_vtag(unsigned j, unsigned s, unsigned w) const { return ent(j, s, w).vtag; }
  uint64_t entry_vmid(unsigned j, unsigned s, unsigned w) const { return ent(j, s, w).vmid; }
  uint64_t entry_tag(unsigned j, unsigned s, unsigned w) const;  // {vmid, vtag} (when TAG <= 64)
  uint64_t entry_ppn(unsigned j, unsigned s, unsigned w) const { return ent(j, s, w).ppn; }
  uint64_t entry_perm(unsigned j, unsigned s, unsigned w) const { return ent(j, s, w).perm; }
  // The VPN an entry holds (tag, set and home TLB put back together).
  uint64_t entry_vpn(unsigned j, unsigned s, unsigned w) const;
  // Way of (vpn, vmid) in its home TLB of cluster c, or -1.
  int find(unsigned c, uint64_t vpn, uint64_t vmid) const;
  unsigned age(unsigned j, unsigned s, unsigned w) const;       // lru
  unsigned plru_bit(unsigned j, unsigned s, unsigned n) const;  // plru, node 1 .. W-1
  // lru_touch_next: TLB j holds a touch / untouch that lands at this cycle's edge.
  bool late_touch_pending(unsigned j) const { return s_.tlb[j].late.valid && !s_.tlb[j].late.untouch; }
  bool late_untouch_pending(unsigned j) const { return s_.tlb[j].late.valid && s_.tlb[j].late.untouch; }
  unsigned victim(unsigned j, unsigned s) const;                // replacement victim of the set = the way a fill would write now
  bool mshr_valid(unsigned j, unsigned m) const { return msh(j, m).valid; }
  bool mshr_pending(unsigned j, unsigned m) const { return msh(j, m).pending; }
  bool mshr_sent(unsigned j, unsigned m) const { return msh(j, m).sent; }
  bool mshr_kill(unsigned j, unsigned m) const { return msh(j, m).kill; }
  uint64_t mshr_vh(unsigned j, unsigned m) const { return msh(j, m).vh; }
  uint64_t mshr_vmid(unsigned j, unsigned m) const { return msh(j, m).vmid; }
  uint64_t mshr_waiters(unsigned j, unsigned m) const { return msh(j, m).waiters; }
  unsigned free_mshrs(unsigned j) const;
  // TLB j's free queue, head first (mshr_fifo; empty otherwise).
  std::vector<unsigned> free_queue(unsigned j) const;
  // TLB j's send queue (its L2 candidates in allocation order), head first
  // (mshr_fifo; empty otherwise).
  std::vector<unsigned> send_queue(unsigned j) const;
  unsigned rr(unsigned j) const { return s_.tlb[j].rr; }
  unsigned lp(unsigned c) const { return s_.cl[c].lp; }
  bool r1_valid(unsigned j) const { return s_.tlb[j].r1.valid; }
  bool r2_valid(unsigned j) const { return s_.tlb[j].r2.valid; }
  int r2_match(unsigned j) const { return s_.tlb[j].r2.match; }  // matched way or -1
  bool q_valid(unsigned c) const { return s_.cl[c].q.valid; }
  bool f1_valid(unsigned c) const { return s_.cl[c].f1.valid; }
  bool f2_valid(unsigned c) const { return s_.cl[c].f2.valid; }
  bool f3_valid(unsigned c) const { return s_.cl[c].f3.valid; }
  bool sd1_valid() const { return s_.sd1.valid; }
  bool sd2_valid() const { return s_.sd2.valid; }
  // Entries in CU u's input buffer (0 .. 2; always 0 without the buffer).
  unsigned ib_count(unsigned u) const { return p_.input_buffer ? s_.ib[u].count : 0; }

  // Register state only (no statistics, events or scratch), for detecting a
  // cycle that changed nothing (the evaluation's idle skipping). `from` and
  // this model have the same parameters.
  void copy_registers(const L1tlbModel& from) { s_ = from.s_; }
  bool same_registers(const L1tlbModel& o) const { return s_ == o.s_; }

 private:
  // Every register struct lists its fields once more in key() (same_registers).
  struct Entry {
    bool valid = false;
    uint64_t vtag = 0, vmid = 0, ppn = 0, perm = 0;
    auto key() const { return std::tie(valid, vtag, vmid, ppn, perm); }
    bool operator==(const Entry& o) const { return key() == o.key(); }
  };
  struct Mshr {
    bool valid = false, pending = false, sent = false, kill = false;
    uint64_t vh = 0, vmid = 0, waiters = 0, iid = 0;
    auto key() const { return std::tie(valid, pending, sent, kill, vh, vmid, waiters, iid); }
    bool operator==(const Mshr& o) const { return key() == o.key(); }
  };
  struct R1 {
    bool valid = false;
    unsigned i = 0;
    uint64_t vpn = 0, vmid = 0, iid = 0;
    auto key() const { return std::tie(valid, i, vpn, vmid, iid); }
    bool operator==(const R1& o) const { return key() == o.key(); }
  };
  struct R2 {
    bool valid = false;
    unsigned i = 0;
    uint64_t vpn = 0, vmid = 0, iid = 0;
    int match = -1;  // the one set bit of match (or -1)
    auto key() const { return std::tie(valid, i, vpn, vmid, iid, match); }
    bool operator==(const R2& o) const { return key() == o.key(); }
  };
  // A queue of MSHR indices (mshr_fifo), a ring of M slots: the free queue
  // or the send queue. Compared by content (head first), not by ring
  // position: two rings that hold the same order are the same register state.
  struct MshrQueue {
    std::vector<unsigned> slot;  // [M] with mshr_fifo, else empty
    unsigned head = 0, count = 0;
    unsigned at(unsigned pos) const { return slot[(head + pos) % slot.size()]; }
    void push_back(unsigned m) { slot[(head + count++) % slot.size()] = m; }
    void pop_front() {
      head = (head + 1) % slot.size();
      --count;
    }
    bool operator==(const MshrQueue& o) const {
      if (count != o.count) return false;
      for (unsigned pos = 0; pos < count; ++pos)
        if (at(pos) != o.at(pos)) return false;
      return true;
    }
  };
  // lru_touch_next: the hit's touch (or the shootdown's untouch) of the last
  // edge, applied first at this edge. One suffices: a touch and an untouch
  // never share an edge (a shootdown waits for empty lookup pipelines).
  struct LateLru {
    bool valid = false, untouch = false;
    unsigned set = 0, way = 0;
    auto key() const { return std::tie(valid, untouch, set, way); }
    bool operator==(const LateLru& o) const { return key() == o.key(); }
  };
  struct Tlb {
    std::vector<Entry> e;      // [S*W]
    std::vector<uint8_t> age;  // lru [S*W]
    LateLru late;              // lru_touch_next: update due at this cycle's edge
    std::vector<uint8_t> plru; // plru [S*W], index n = 1 .. W-1 used
    std::vector<Mshr> m;       // [M]
    MshrQueue fq;              // mshr_fifo: the free MSHRs, freed longest ago first
    MshrQueue sq;              // mshr_fifo: the L2 candidates, allocated first first
    unsigned rr = 0;
    R1 r1;
    R2 r2;
    auto key() const { return std::tie(e, age, late, plru, m, fq, sq, rr, r1, r2); }
    bool operator==(const Tlb& o) const { return key() == o.key(); }
  };
  struct Q {
    bool valid = false;
    unsigned k = 0, mshr = 0;
    uint64_t vpn = 0, vmid = 0, iid = 0;
    auto key() const { return std::tie(valid, k, mshr, vpn, vmid, iid); }
    bool operator==(const Q& o) const { return key() == o.key(); }
  };
  struct F {
    bool valid = false;
    unsigned k = 0, mshr = 0;
    uint64_t vpn = 0, vmid = 0, ppn = 0, perm = 0;
    auto key() const { return std::tie(valid, k, mshr, vpn, vmid, ppn, perm); }
    bool operator==(const F& o) const { return key() == o.key(); }
  };
  struct Cluster {
    unsigned lp = 0;
    Q q;
    F f1, f2, f3;
    // evict_* output registers.
    bool ev = false;
    uint64_t evpn = 0, evmid = 0, eppn = 0, eperm = 0;
    auto key() const { return std::tie(lp, q, f1, f2, f3, ev, evpn, evmid, eppn, eperm); }
    bool operator==(const Cluster& o) const { return key() == o.key(); }
  };
  struct Sd {
    bool valid = false, all = false;
    uint64_t vpn = 0, vmid = 0;
    std::vector<int> match;  // sd2: [C] matched way in the home TLB or -1
    auto key() const { return std::tie(valid, all, vpn, vmid, match); }
    bool operator==(const Sd& o) const { return key() == o.key(); }
  };
  static constexpr unsigned kIbDepth = 2;  // entries per input buffer
  struct Ib {                              // a CU's input buffer: FIFO ring of kIbDepth
    unsigned head = 0, count = 0;
    uint64_t vpn[kIbDepth] = {}, vmid[kIbDepth] = {}, iid[kIbDepth] = {};
    bool operator==(const Ib& o) const {
      return head == o.head && count == o.count && std::equal(vpn, vpn + kIbDepth, o.vpn) &&
             std::equal(vmid, vmid + kIbDepth, o.vmid) && std::equal(iid, iid + kIbDepth, o.iid);
    }
  };
  struct CuOut {
    bool rv = false;
    uint64_t rvpn = 0, rvmid = 0, rppn = 0, rperm = 0;
    bool fv = false;
    uint64_t fvpn = 0, fvmid = 0, fppn = 0, fperm = 0;
    auto key() const { return std::tie(rv, rvpn, rvmid, rppn, rperm, fv, fvpn, fvmid, fppn, fperm); }
    bool operator==(const CuOut& o) const { return key() == o.key(); }
  };
  struct State {
    std::vector<Tlb> tlb;      // [T]
    std::vector<Cluster> cl;   // [C]
    Sd sd1, sd2;
    bool done = false;
    std::vector<CuOut> cu;     // [U]
    std::vector<Ib> ib;        // [U] with the input buffer, else empty
    auto key() const { return std::tie(tlb, cl, sd1, sd2, done, cu, ib); }
    bool operator==(const State& o) const { return key() == o.key(); }
  };

  const Entry& ent(unsigned j, unsigned s, unsigned w) const { return s_.tlb[j].e[s * p_.ways + w]; }
  const Mshr& msh(unsigned j, unsigned m) const { return s_.tlb[j].m[m]; }
  void validate() const;
  State make_reset() const;
  void reset_state();
  // The request CU u presents to the crossbar (its port, or its FIFO head).
  bool cu_request(const State& s, const L1tlbIn& in, unsigned u, uint64_t* vpn, uint64_t* vmid) const;
  uint64_t cu_iid(const State& s, const L1tlbIn& in, unsigned u) const;  // that request's instruction ID
  bool req_ready_ib(const State& s, unsigned u) const { return s.ib[u].count < kIbDepth; }
  void ib_edge(const L1tlbIn& in);  // input buffers at the edge: pop accepted heads, append taken requests
  // Crossbar winner of TLB j for the inputs (local CU index) or -1; nreq = number of requesters.
  int winner(const State& s, const L1tlbIn& in, unsigned j, unsigned* nreq) const;
  bool credit(const State& s, unsigned j) const;
  bool sd_block(const State& s, const L1tlbIn& in) const;
  bool sd_ready(const State& s) const;
  void check_inputs(const L1tlbIn& in) const;
  int compare(const Tlb& t, uint64_t vpn, uint64_t vmid) const;
  void touch(Tlb& t, unsigned s, unsigned v);
  void untouch(Tlb& t, unsigned s, unsigned k);  // lru Untouch(k) / plru Point(k)
  bool late_lru() const { return p_.lru_touch_next && !p_.plru(); }
  void hit_touch(Tlb& t, unsigned s, unsigned v);    // decide stage: now, or late
  void sd_untouch(Tlb& t, unsigned s, unsigned k);   // one-VPN shootdown: now, or late
  void defer_lru(Tlb& t, bool untouch, unsigned s, unsigned w);
  void apply_late_lru(Tlb& t);                       // same-edge order 0
  static void reset_repl(Tlb& t, const Tlb& r);  // flush-all: replacement state = reset values
  unsigned repl_victim(const Tlb& t, unsigned s) const;
  unsigned take_free_mshr(Tlb& t);              // the MSHR a miss allocates (pops the free queue)
  void release_mshr(Tlb& t, unsigned m);        // f3 frees m (appends it to the free queue)
  void append_send_queue(Tlb& t, unsigned m);   // m was allocated at this edge
  int l2_candidate(const Tlb& t) const;         // the MSHR the TLB would send to the L2, or -1
  void mark_sent(Tlb& t, unsigned m);           // the L2 choice took m (pops the send queue)
  static bool is_free(const Mshr& ms) { return !ms.valid; }
  static bool is_candidate(const Mshr& ms) { return ms.valid && ms.pending && !ms.sent; }
  void check_free_queue(const Tlb& t);          // the free queue holds exactly the free MSHRs
  void check_send_queue(const Tlb& t);          // the send queue holds exactly the candidates
  void check_queue(const Tlb& t, const MshrQueue& q, bool (*member)(const Mshr&), const char* name);

  elab::L1tlbParams p_;
  unsigned U_, T_, C_, W_, S_, N_, K_, M_;
  uint64_t vpn_mask_, vmid_mask_, ppn_mask_, perm_mask_, tag_mask_, iid_mask_;
  L1tlbEvents events_;
  L1tlbStats stats_;
  State reset_;
  State s_;
  // Per-edge scratch (preallocated).
  std::vector<int> win_;       // [T] accepted local CU or -1
  struct Fill2 {
    bool write = false, suppress = false;
    unsigned s = 0, v = 0;
    bool evict = false;                             // way v valid, not suppressed, not invalidated by sd2
    uint64_t evpn = 0, evmid = 0, eppn = 0, eperm = 0;  // the replaced entry (cycle f+2)
  };
  std::vector<Fill2> f2plan_;  // [C]
  struct L2Choice {
    bool load = false, choice = false;
    unsigned k = 0, m = 0;
  };
  std::vector<L2Choice> l2plan_;  // [C]
  std::vector<uint8_t> hitv_;     // [U] resp registered this edge (event)
  std::vector<uint8_t> q_seen_;   // [M] check_queue: MSHR already in the queue
};

}  // namespace txgen::model
