// Golden cycle model of the L1-TLB -> LDS -> I-cache -> L2-TLB translation
// path tx_path_NAME_sys (and the baseline tx_path_NAME_base_sys), written from
// docs/blocks/tx_path.md alone. The member blocks are their own golden models
// (L1tlbModel, LdsCtrlModel per CU, IcacheTxModel per group of S CUs, each
// with its SRAMs); this file adds the path's glue: per CU the lookup stage
// of K slots (each IDLE, LDS_REQ, LDS_WAIT, IC_REQ, IC_WAIT, WIRE, RET, L2;
// K = 1 is the blocking stage) with the round robins pl, pi, pr, p2 over
// them ("Non-blocking lookup") and, with speculative_l2, each slot's sent and
// ab flags and the CU's cancel vector cx ("Speculative L2 request"), the L2
// request register, the victim queue with its credit, the LDS victim register lb, the
// remove registers of the `move` promotion; per I-cache the remove round
// robin; globally the L2 request round robin, the L2 victim register vr with
// its round robin, and the shootdown sequencer (every LDS and I-cache first,
// the L1-TLB last). With T < U L1-TLBs in C clusters ("Aggregated and
// clustered L1-TLBs") a cluster's L1 miss goes to the glue of its allocator
// (the low CB bits of the L1's instruction ID), and per cluster a round
// robin fp merges the N glues' fills into the cluster's L1 input, whose
// victims and answers the delay registers d1..d4 return to the sender.
// With the document's latency (l1_pad = Z > 0) every CU's requests pass its
// Z request registers z1..zZ before the L1 (path and baseline alike).
// Every victim held by the glue (queue, lb, vr) carries a kill bit set at
// edges from the cycle's kill key (the accepted shootdown key
// in an accept cycle, sdp while sdp.valid); nothing is filtered
// combinationally. Shares only the elaborated widths (txgen/elab/tx_path.h)
// with the generator.
//
// Per cycle: outputs(in, out) with the inputs held before the rising edge
// (asynchronous reset applies when in.rst_n is false), then posedge(in).
// Inside a cycle the glue's register-driven signals come first, then the
// members' outputs in dependency order: L1-TLB (its inputs are top-level
// inputs and glue registers), LDS controllers and I-caches (glue registers
// and top-level inputs only: lb and vr cut the member-to-member paths), then
// the inputs no member output depends on (each member's vic_ready: the LDS's
// from lb and the I-cache's tf_ready, the I-cache's from vr, l2_vic_ready_i
// and the round robin over the I-caches' vic_valid). posedge() steps every
// member with exactly those inputs, then updates the glue from the cycle's
// outputs.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <tuple>
#include <vector>

#include "model/bd_codec.h"
#include "model/icache_tx.h"
#include "model/l1tlb.h"
#include "model/lds_ctrl.h"
#include "txgen/elab/tx_path.h"

namespace txgen::model {

struct TxPathIn {            // inputs of tx_path_NAME_sys (the path with every SRAM inside) for one cycle
  bool rst_n = true;
  // per CU (size U)
  std::vector<uint8_t> req_valid; std::vector<uint64_t> req_vpn, req_vmid;
  std::vector<uint64_t> req_iid;                    // read with iid_bits > 0
  std::vector<uint32_t> vrf;                        // vrf_i
  std::vector<uint8_t> app_valid, app_we; std::vector<uint32_t> app_row; std::vector<uint64_t> app_bank_en;
  std::vector<Bits> app_wdata;                      // lds row_bits each
  std::vector<uint8_t> wg_valid, wg_free; std::vector<uint32_t> wg_base, wg_size;
  // per I-cache (size G)
  std::vector<uint8_t> if_valid; std::vector<uint64_t> if_addr;
  std::vector<uint8_t> ifill_valid; std::vector<uint64_t> ifill_addr; std::vector<Bits> ifill_data;  // line_bits each
  std::vector<uint8_t> flush_valid;
  // L2-TLB port
  bool l2_req_ready = false;
  bool l2_resp_valid = false; uint64_t l2_resp_tag = 0, l2_resp_ppn = 0, l2_resp_perm = 0;
  bool l2_vic_ready = false;
  // shootdown
  bool sd_valid = false, sd_all = false; uint64_t sd_vpn = 0, sd_vmid = 0;
};

struct TxPathOut {           // outputs of tx_path_NAME_sys in the cycle (before its edge)
  std::vector<uint8_t> req_ready, resp_valid; std::vector<uint64_t> resp_vpn, resp_vmid, resp_ppn, resp_perm;
  std::vector<uint8_t> fill_valid; std::vector<uint64_t> fill_vpn, fill_vmid, fill_ppn, fill_perm;
  std::vector<uint8_t> app_rvalid; std::vector<Bits> app_rdata;
  std::vector<uint8_t> wg_ready, wg_done;
  std::vector<uint8_t> if_ready, if_resp_valid, if_resp_hit; std::vector<Bits> if_resp_data;
  std::vector<uint8_t> ifill_ready, flush_ready, flush_done;
  bool l2_req_valid = false; uint64_t l2_req_vpn = 0, l2_req_vmid = 0, l2_req_tag = 0;
  uint64_t l2_req_iid = 0;  // 0 with iid_bits 0
  bool l2_resp_ready = false;
  bool l2_vic_valid = false; uint64_t l2_vic_vpn = 0, l2_vic_vmid = 0, l2_vic_ppn = 0, l2_vic_perm = 0;
  bool sd_ready = false, sd_done = false;
  // hits below the L1 (path only; 0 in the baseline): 1 in the RET cycle that
  // sends a promotion to the L1-TLB, from the LDS / from the I-cache
  std::vector<uint8_t> hit_lds, hit_ic;             // [U]
};

// What the last posedge did (all false at each posedge, then set; any CU).
struct TxPathEvents {
  bool lds_lookup_hit = false;      // LDS_WAIT took a hit answer
  bool lds_lookup_miss = false;     // LDS_WAIT took a miss answer
  bool ic_lookup_hit = false;       // IC_WAIT took a hit answer
  bool ic_lookup_miss = false;      // IC_WAIT took a miss answer
  bool l2_request = false;          // l2_req handshake
  bool l2_req_backpressure = false; // l2_req_valid with l2_req_ready = 0
  bool l2_req_overlap = false;      // two or more CUs had l2r valid (round robin)
  bool promotion_lds = false;       // a RET edge, answer from the LDS
  bool promotion_ic = false;        // a RET edge, answer from the I-cache
  bool l2_fill = false;             // an L2 response sent to an L1-TLB
  bool credit_block = false;        // a RET or an L2 response held only by the credit
  bool ret_waits_remove = false;    // a RET held by a busy remove register (credit available)
  bool l1_victim_queued = false;    // an L1 eviction appended to a victim queue
  bool victim_dropped_stale = false;// a killed victim was dropped (queue head, lb or vr)
  bool queue_kill = false;          // a queue entry got kill = 1 at this edge (marking or killed append)
  bool lookup_waits_queue = false;  // LDS_REQ held because the queue is not empty (fills before lookups)
  bool lookup_waits_lb = false;     // IC_REQ held because the CU's lb is full (fills before lookups)
  bool lds_victim_to_lb = false;    // the LDS's vic handshake: lb loaded
  bool lds_victim_waits = false;    // the LDS's vic_valid_o with vic_ready_i = 0 (lb full, not emptied)
  bool lb_refill = false;           // lb emptied and loaded again at one edge
  bool lb_kill = false;             // lb got kill = 1 at this edge (marking or killed load)
  bool lb_dropped = false;          // a killed lb was emptied
  bool lds_victim_to_icache = false;// the I-cache took a victim from lb (tf handshake)
  bool icache_victim_to_vr = false; // an I-cache's vic handshake: vr loaded
  bool icache_victim_waits = false; // an I-cache's vic_valid_o with vic_ready_i = 0
  bool l2_vic_overlap = false;      // two or more I-caches with vic_valid_o (round robin)
  bool vr_refill = false;           // vr emptied and loaded again at one edge
  bool vr_kill = false;             // vr got kill = 1 at this edge (marking or killed load)
  bool vr_dropped = false;          // a killed vr was emptied
  bool icache_victim_to_l2 = false; // l2_vic handshake (vr offered and taken)
  bool l2_vic_backpressure = false; // l2_vic_valid with l2_vic_ready = 0
  bool remove_lds = false;          // a remove accepted by an LDS
  bool remove_ic = false;           // a remove accepted by an I-cache
  bool remove_ic_contention = false;// two or more sharers' removes waiting for one I-cache
  bool shootdown_accept = false;    // sd handshake
  bool shootdown_l1 = false;        // the L1-TLB's shootdown accepted (phase 2)
  bool shootdown_done = false;      // sdp cleared, sd_done_o next cycle
  bool wire_wait = false;           // a CU spent this cycle in WIRE
  bool ret_overtakes = false;       // a RET edge returned a slot while an older one of its CU was not IDLE
  bool spec_drop = false;           // speculative: an L2 answer dropped (cx set: its miss was promoted)
  bool spec_early = false;          // speculative: an L2 answer delivered while its slot was below the L1 (it quits)
  bool l1_grant_wait = false;       // clusters: a glue wanted its cluster's L1 input and another glue got it
  bool l1_pad_hold = false;         // Z > 0: a CU's zZ held a request the L1 did not take (registers held)
  bool reset = false;
  // The Fig. 12 flows as the member models report them (this edge).
  bool flow_1_2_4 = false;          // LDS fill into a free way of a Tx segment, or initialised a free segment
  bool flow_1_2_4_5_6 = false;      // LDS fill evicted its LRU translation
  bool flow_1_2_3_6 = false;        // LDS fill bypassed (segment allocated)
  bool flow_6_7_8 = false;          // I-cache fill installed (invalid / IC line initialised, Tx line without eviction)
  bool flow_6_7_8_10_11 = false;    // I-cache fill evicted a sub-entry
  bool flow_6_7_9_10 = false;       // I-cache fill bypassed (IC line)
  bool lds_fill_update = false;     // LDS fill found its translation already there
  bool lds_fill_dropped = false;    // LDS fill: compression left entries out (victims)
  bool ic_fill_dropped = false;     // I-cache fill: compression left entries out (victims)
};

struct TxPathStats {         // cumulative since construction (a reset does not clear them)
  uint64_t requests = 0;     // CU requests taken by the path (req_valid_i & req_ready_o; Z > 0: into z1)
  uint64_t l1_hits = 0;      // resp_valid pulses
  uint64_t lds_hits = 0, lds_misses = 0;
  uint64_t ic_hits = 0, ic_misses = 0;
  uint64_t promotions = 0;   // RET edges
  uint64_t l2_requests = 0;  // l2_req handshakes
  uint64_t l2_fills = 0;     // L2 responses taken (sent to an L1-TLB)
  uint64_t l2_drops = 0;     // speculative: L2 responses taken and dropped (cx)
  uint64_t early_answers = 0;  // speculative: L2 answers that made a slot below the L1 quit (spec_early)
  uint64_t grant_waits = 0;  // clusters: glue-cycles wanting the cluster's L1 input without the grant
  uint64_t l2_victims = 0;   // l2_vic handshakes
  uint64_t l1_victims = 0;   // L1 evictions queued
  uint64_t lds_victims = 0;  // lb -> I-cache handshakes
  uint64_t stale_drops = 0;  // killed victims dropped (queue, lb, vr)
  uint64_t shootdowns = 0;   // shootdowns completed
  std::vector<uint64_t> fills;  // [U] fill_valid pulses per CU
};

// Every CU's LDS bank accesses and every I-cache's tag and data array
// accesses since construction (model/util.h SramAccesses).
struct TxPathSramAccesses {
  SramAccesses lds_banks, ic_tags, ic_data;
};

class TxPathModel {
 public:
  enum class Stage : uint8_t { Idle, LdsReq, LdsWait, IcReq, IcWait, Wire, Ret, L2 };
  struct QueueEntry {
    uint64_t vpn = 0, vmid = 0;
    uint32_t vrf = 0;
    uint64_t ppn = 0, perm = 0;
    bool kill = false;
    auto key() const { return std::tie(vpn, vmid, vrf, ppn, perm, kill); }
    bool operator==(const QueueEntry& o) const { return key() == o.key(); }
  };
  // The LDS victim register lb (per CU) and the L2 victim register vr
  // (global; vr has no VRF-ID: vrf is always 0 there).
  struct VictimReg {
    bool valid = false, kill = false;
    uint64_t vpn = 0, vmid = 0;
    uint32_t vrf = 0;
    uint64_t ppn = 0, perm = 0;
    auto key() const { return std::tie(valid, kill, vpn, vmid, vrf, ppn, perm); }
    bool operator==(const VictimReg& o) const { return key() == o.key(); }
  };

  // A request register zk of a CU (latency "document"; Z = l1_pad > 0).
  struct PadReg {
    bool valid = false;
    uint64_t vpn = 0, vmid = 0, iid = 0;  // vpn, vmid at their widths; iid: the path's ID (IW bits)
    auto key() const { return std::tie(valid, vpn, vmid, iid); }
    bool operator==(const PadReg& o) const { return key() == o.key(); }
  };

  // baseline: tx_path_NAME_base_sys (docs/blocks/tx_path.md, "Baseline").
  TxPathModel(const elab::TxPathParams& p, bool baseline);
  TxPathIn idle_inputs() const;          // sized, rst_n = 1, all valid 0, readies 1, zero data
  TxPathOut make_outputs() const;        // sized
  // Combinational view of the cycle. The glue allocates nothing; the LDS and
  // I-cache member models return their outputs by value (Bits), so the call
  // as a whole allocates (see member_allocs()).
  void outputs(const TxPathIn& in, TxPathOut& out) const;
  void posedge(const TxPathIn& in);
  // outputs() then posedge() of one cycle, the combinational view computed once.
  void step(const TxPathIn& in, TxPathOut& out);
  // posedge(in) right after outputs(in, ...) with the same inputs and no
  // other call between: reuses that call's combinational view.
  void posedge_after_outputs(const TxPathIn& in) { edge(in); }
  const TxPathEvents& events() const { return events_; }
  const TxPathStats& stats() const { return stats_; }
  TxPathSramAccesses sram_accesses() const;

  // Inspection for tests and invariants.
  const L1tlbModel& l1() const { return l1_; }
  const LdsCtrlModel& lds(unsigned u) const { return lds_[u]; }
  const IcacheTxModel& icache(unsigned g) const { return ic_[g]; }
  const elab::TxPathParams& params() const { return p_; }
  bool baseline() const { return baseline_; }
  // Where a translation is: CU u's L1 (its cluster's TLBs; VMID only), CU
  // u's LDS, I-cache g (SRAM contents of Tx-mode segments / lines).
  bool in_l1(unsigned u, uint64_t vpn, uint64_t vmid) const;
  bool in_lds(unsigned u, uint64_t vpn, uint64_t vmid, uint32_t vrf) const;
  bool in_icache(unsigned g, uint64_t vpn, uint64_t vmid, uint32_t vrf) const;
  unsigned queue_occupancy(unsigned u) const { return g_.cu[u].occ; }   // occ
  QueueEntry queue_entry(unsigned u, unsigned k) const;                  // k-th from the head
  bool stage_idle(unsigned u) const { return slots_busy(u) == 0; }        // every slot IDLE
  Stage stage(unsigned u) const { return g_.cu[u].s[0].st; }             // slot 0 (K = 1: the stage)
  Stage stage(unsigned u, unsigned k) const { return g_.cu[u].s[k].st; } // st[k]
  unsigned slots_busy(unsigned u) const;                                 // slots not IDLE
  unsigned outstanding_fills(unsigned u) const { return g_.cu[u].out; }  // out
  bool l2r_valid(unsigned u) const { return g_.cu[u].l2r_valid; }
  uint64_t slot_tag(unsigned u, unsigned k) const { return g_.cu[u].s[k].rq_tag; }  // rq[k].tag (L1 tag)
  bool slot_sent(unsigned u, unsigned k) const { return g_.cu[u].s[k].sent; }       // sent[k] (speculative)
  bool slot_ab(unsigned u, unsigned k) const { return g_.cu[u].s[k].ab; }           // ab[k] (speculative)
  uint64_t cancel_vector(unsigned u) const { return g_.cu[u].cx; }                   // cx: bit t = cx[t]
  const VictimReg& lds_victim_reg(unsigned u) const { return g_.cu[u].lb; }  // lb of CU u
  const VictimReg& l2_victim_reg() const { return g_.vr; }                   // vr
  unsigned l2_victim_pointer() const { return g_.vp; }                       // vp
  unsigned fill_pointer(unsigned c) const { return g_.cl[c].fp; }            // fp of cluster c (N > 1)
  unsigned pad_depth() const { return Z_; }                                  // Z (l1_pad)
  const PadReg& pad_reg(unsigned u, unsigned k) const { return g_.z[u * Z_ + k]; }  // z(k+1) of CU u, k < Z
  bool shootdown_pending() const { return g_.sdp_valid; }                // sdp.valid
  bool shootdown_phase1_done() const;  // every ldone and idone set (the L1-TLB's turn)
  // Every glue register at rest: no request register valid, stages IDLE,
  // no l2r, empty queues, lb and vr empty, out = 0, no remove waiting or in
  // service, no shootdown, no answer to drop (cx = 0) (members not
  // included).
  bool glue_quiet() const;
  // A remove of (vpn, vmid) for CU u's LDS / its I-cache is waiting in the
  // remove register or was accepted and its sd_done has not come yet
  // (model-side bookkeeping for invariant checks, not a register of the RTL).
  bool lds_remove_waiting(unsigned u) const { return g_.cu[u].rml_valid; }  // rml.valid
  bool ic_remove_waiting(unsigned u) const { return g_.cu[u].rmi_valid; }   // rmi.valid
  bool lds_remove_pending(unsigned u, uint64_t vpn, uint64_t vmid) const;
  bool ic_remove_pending(unsigned u, uint64_t vpn, uint64_t vmid) const;

  // Allocation accounting for the no-allocation test: when a counter is set,
  // every member-model call records how much the counter grew during it.
  void set_alloc_probe(const long* counter) { probe_ = counter; }
  long member_allocs() const { return member_allocs_; }

  // Register state of the glue and every member (not the SRAM contents,
  // statistics, events or scratch), for detecting a cycle that changed
  // nothing: with the inputs held, the path then stays as it is (the
  // evaluation's idle skipping). `from` has the same parameters and baseline.
  void copy_registers(const TxPathModel& from);
  bool same_registers(const TxPathModel& o) const;

 private:
  static constexpr unsigned kMaxSlots = 8;  // K is 1-8
  // One lookup slot k of a CU: st[k], rq[k], ans[k], cnt[k], nxt[k], and
  // with speculation sent[k], ab[k] (always 0 without).
  struct Slot {
    Stage st = Stage::Idle;
    uint64_t rq_vpn = 0, rq_vmid = 0, rq_tag = 0, rq_iid = 0;
    uint64_t ans_ppn = 0, ans_perm = 0;
    bool ans_ic = false;  // ans.src: false = LDS, true = IC
    unsigned cnt = 0;
    Stage nxt = Stage::Idle;
    bool sent = false;  // its L2 request has been loaded into l2r
    bool ab = false;    // the L2-TLB answered it first: the slot quits
    // model-only: intake order of the miss held (ret_overtakes); no RTL
    // register, so not in key(): it decides no output and no register
    uint64_t seq = 0;
    auto key() const {
      return std::tie(st, rq_vpn, rq_vmid, rq_tag, rq_iid, ans_ppn, ans_perm, ans_ic, cnt, nxt, sent, ab);
    }
    bool operator==(const Slot& o) const { return key() == o.key(); }
  };
  struct Cu {
    std::array<Slot, kMaxSlots> s;  // slots 0 .. K-1 used, the rest stay at reset
    unsigned pl = 0, pi = 0, pr = 0, p2 = 0;  // round robins: LDS lookup, I-cache lookup, RET, L2 register
    uint64_t intakes = 0;  // model-only: misses taken in since reset (numbers Slot::seq; not in key())
    bool l2r_valid = false;
    uint64_t l2r_vpn = 0, l2r_vmid = 0, l2r_tag = 0, l2r_iid = 0;
    uint64_t cx = 0;  // speculation's cancel vector, bit t = cx[t] (2^LT <= 64 bits)
    QueueEntry vq[8];
    unsigned vq_head = 0, occ = 0;
    VictimReg lb;
    unsigned out = 0;
    bool rml_valid = false;
    uint64_t rml_vpn = 0, rml_vmid = 0;
    bool rmi_valid = false;
    uint64_t rmi_vpn = 0, rmi_vmid = 0;
    bool lown = false, lsent = false, ldone = false;
    // model-only bookkeeping (inspection): a remove accepted, done not yet seen
    bool lrm_busy = false;
    uint64_t lrm_vpn = 0, lrm_vmid = 0;
    bool irm_busy = false;
    uint64_t irm_vpn = 0, irm_vmid = 0;
    // every field above but vq and intakes (same_registers)
    auto key() const {
      return std::tie(s, pl, pi, pr, p2, l2r_valid, l2r_vpn, l2r_vmid, l2r_tag, l2r_iid, cx, vq_head, occ, lb, out,
                      rml_valid, rml_vpn, rml_vmid, rmi_valid, rmi_vpn, rmi_vmid, lown, lsent, ldone, lrm_busy,
                      lrm_vpn, lrm_vmid, irm_busy, irm_vpn, irm_vmid);
    }
    bool operator==(const Cu& o) const { return key() == o.key() && std::equal(vq, vq + 8, o.vq); }
  };
  struct Ic {
    unsigned rp = 0;
    bool iown = false, isent = false, idone = false;
    int irm_cu = -1;  // model-only: the CU whose remove the I-cache is serving
    auto key() const { return std::tie(rp, iown, isent, idone, irm_cu); }
    bool operator==(const Ic& o) const { return key() == o.key(); }
  };
  // Per cluster (N > 1; with N = 1 it stays at reset): the fill round
  // robin fp and the delay registers d1..d4 = d[0..3] (valid, local CU).
  struct Delay {
    bool valid = false;
    unsigned i = 0;
    auto key() const { return std::tie(valid, i); }
    bool operator==(const Delay& o) const { return key() == o.key(); }
  };
  struct Cl {
    unsigned fp = 0;
    std::array<Delay, 4> d;
    auto key() const { return std::tie(fp, d); }
    bool operator==(const Cl& o) const { return key() == o.key(); }
  };
  struct Glue {
    std::vector<Cu> cu;  // [U]
    std::vector<Ic> ic;  // [G]
    std::vector<Cl> cl;  // [C]
    std::vector<PadReg> z;  // [U * Z]: CU u's z1..zZ = z[u*Z .. u*Z + Z-1] (path and baseline)
    bool sdp_valid = false, sdp_all = false;
    uint64_t sdp_vpn = 0, sdp_vmid = 0;
    bool l1sent = false, l1done = false, done = false;
    unsigned lp = 0, vp = 0;
    VictimReg vr;
    auto key() const {
      return std::tie(cu, ic, cl, z, sdp_valid, sdp_all, sdp_vpn, sdp_vmid, l1sent, l1done, done, lp, vp, vr);
    }
    bool operator==(const Glue& o) const { return key() == o.key(); }
  };
  // Combinational values of one cycle (scratch, preallocated).
  struct CuComb {
    // slot choices of the cycle (-1: none): the intake (lowest IDLE), the
    // LDS / I-cache lookup, RET and L2 register winners (first from pl,
    // pi, pr, p2; speculative: k2 is the first that asks), the slot an
    // early answer marks (k_ab)
    int k_in = -1, kl = -1, ki = -1, kr = -1, k2 = -1, k_ab = -1;
    bool ret_ready = false;     // some slot ready to return (st = RET and rm_free)
    bool ret_rm_busy = false;   // some slot in RET whose remove register is busy
    bool credit = false, ret = false, l2_to_u = false, l1_in_valid = false;  // l2_to_u: `deliver`
    // the fill merge: want = ret_want or l2_want; ret and l2_to_u need the
    // grant (always 1 with N = 1: no want or grant ports)
    bool ret_want = false, l2_want = false, grant = false;
    bool drop = false;                  // speculative: the L2 answer names this CU and cx[its tag]
    uint64_t cx_set = 0, cx_clear = 0;  // speculative: cx bits set (a sent slot's RET) / cleared (drop)
    bool lk_valid = false, fill_valid = false;
    bool lreq = false, lds_sd_valid = false;
    bool tl_valid = false, tf_valid = false, lb_empty = false;  // lb_empty: lb is emptied at this edge
  };
  struct ClComb {
    int winner = -1;      // local CU granted the cluster's L1 input, or -1
    unsigned wants = 0;   // glues wanting it
  };
  struct IcComb {
    bool ireq = false, sd_valid = false;
    int rm_winner = -1;  // sharer index
    unsigned rm_count = 0;
  };

  // The cycle's combinational view (comb()), in dependency order.
  void comb(const TxPathIn& in) const;
  void check_inputs(const TxPathIn& in) const;
  void eval_l1(const TxPathIn& in, const Glue& G) const;
  void pick_slots(const Glue& G, unsigned u) const;
  // rm_free of a slot: copy, or the remove register of its ans.src is free
  bool rm_free(const Cu& c, const Slot& s) const { return !move_ || (s.ans_ic ? !c.rmi_valid : !c.rml_valid); }
  // Speculative: the slot asks the L2 (neither IDLE nor RET, not sent, not
  // ab, cx[rq.tag] = 0).
  bool asks(const Cu& c, const Slot& s) const {
    return s.st != Stage::Idle && s.st != Stage::Ret && !s.sent && !s.ab && !((c.cx >> s.rq_tag) & 1);
  }
  void speculation_comb(const Glue& G, unsigned u, uint64_t tag) const;
  int early_slot(const Cu& c, unsigned u, uint64_t tag) const;
  void l1_request_inputs(const TxPathIn& in, const Glue& G) const;
  // advance of CU u: not zZ.valid or the L1's req_ready_o[u] (Z = 0: the
  // L1's req_ready_o[u]); the path's req_ready_o[u]. After l1_.outputs().
  bool advance(const Glue& G, unsigned u) const {
    return l1_out_.req_ready[u] || (Z_ > 0 && !G.z[u * Z_ + Z_ - 1].valid);
  }
  void pad_edge(const TxPathIn& in);
  void l1_inputs_baseline(const TxPathIn& in) const;
  void fill_wants(const TxPathIn& in, const Glue& G, unsigned u) const;
  void merge_fills(const TxPathIn& in, const Glue& G, unsigned c) const;
  void l1_cluster_fill_input(const TxPathIn& in, const Glue& G, unsigned c) const;
  void route_l1_requests() const;
  // The L1's cluster c port as glue u = c*N + i sees it: the allocator a
  // (low CB bits of l2_req_iid_o[c]), its request, victim and answer.
  unsigned allocator(unsigned c) const { return static_cast<unsigned>(l1_out_.l2_req_iid[c] & local_mask_); }
  bool l1_request(unsigned u) const { return l1_out_.l2_req_valid[u / N_] && allocator(u / N_) == u % N_; }
  bool l1_victim(unsigned u) const;
  bool l1_answered(unsigned u) const;
  void l1_shootdown_input(const Glue& G) const;
  void arbitrate_l2_request_baseline(const TxPathIn& in, const Glue& G) const;
  void eval_lds(const TxPathIn& in, const Glue& G, unsigned u) const;
  void lds_inputs_baseline(unsigned u) const;
  void lds_inputs_path(const TxPathIn& in, const Glue& G, unsigned u) const;
  void lds_shootdown_input(const Glue& G, unsigned u) const;
  void lds_lookup_input(const TxPathIn& in, const Glue& G, unsigned u) const;
  void lds_fill_input(const Glue& G, unsigned u) const;
  void eval_icache(const TxPathIn& in, const Glue& G, unsigned g) const;
  void icache_sharer_inputs(const TxPathIn& in, const Glue& G, unsigned g, unsigned i) const;
  void icache_shootdown_input(const Glue& G, unsigned g) const;
  void lds_vic_ready(const Glue& G) const;
  void icache_vic_ready(const TxPathIn& in, const Glue& G) const;
  void kill_key(const TxPathIn& in, const Glue& G) const;
  void arbitrate_l2_request(const Glue& G) const;
  bool match(bool all, uint64_t kvpn, uint64_t kvmid, uint64_t vpn, uint64_t vmid) const {
    return all || (vpn == kvpn && vmid == kvmid);
  }
  // kills(x) of the cycle comb() last evaluated (vpn, vmid already masked).
  bool kills(uint64_t vpn, uint64_t vmid) const { return kk_valid_ && match(kk_all_, kk_vpn_, kk_vmid_, vpn, vmid); }
  // The edge (posedge()): members, then the glue in the contract's order.
  void step_members();
  void collect_flow_events();
  void count_cu_side(const TxPathIn& in);
  void edge(const TxPathIn& in);  // posedge after comb(in)
  void posedge_baseline(const TxPathIn& in);
  void posedge_path(const TxPathIn& in);
  void fill_merge_edge(unsigned c);
  void take_l2_request(const TxPathIn& in);
  void lds_shootdown_port(unsigned u);
  void lookup_stage(unsigned u);
  void lookup_events(unsigned u);
  bool older_slot_busy(const Cu& c, unsigned k) const;
  void lookup_slot(unsigned u, unsigned k);
  void quit(unsigned u, unsigned k);
  void update_cancels(unsigned u);
  void lookup_idle(unsigned u, unsigned k);
  void lds_request(unsigned u, unsigned k);
  void ic_request(unsigned u, unsigned k);
  void take_lds_answer(unsigned u, unsigned k);
  void take_ic_answer(unsigned u, unsigned k);
  static void after_answer(Slot& s, Stage next, unsigned wire);
  void load_l2r(unsigned u, unsigned k);
  void promote(unsigned u, unsigned k);
  void l1_fill_and_credit(const TxPathIn& in, unsigned u);
  void victim_queue(const TxPathIn& in, unsigned u);
  void pop_queue_head(unsigned u);
  void push_l1_victim(const TxPathIn& in, unsigned u);
  void mark_queue_kills(unsigned u);
  void update_lb(unsigned u);
  void count_lb_emptied(const VictimReg& lb);
  void load_lb(unsigned u);
  void icache_shootdown_port(unsigned g);
  void accept_icache_remove(unsigned g);
  void l2_victim_port(const TxPathIn& in);
  void update_vr();
  void load_vr();
  void shootdown_sequencer(const TxPathIn& in, bool sdp_valid, bool l1done_pre);
  void accept_shootdown(const TxPathIn& in);
  long probe() const { return probe_ ? *probe_ : 0; }

  elab::TxPathParams p_;
  bool baseline_;
  unsigned U_, S_, G_, D_, WL_, WI_, K_;
  unsigned C_, N_, CB_;  // L1 clusters, CUs per cluster, log2 N
  unsigned Z_;           // request registers before the L1 per CU (l1_pad)
  bool move_, spec_;
  uint64_t vpn_mask_, vmid_mask_, ppn_mask_, perm_mask_, lt_mask_, cu_field_mask_, local_mask_, iid_mask_;
  L1tlbModel l1_;
  std::vector<LdsCtrlModel> lds_;
  std::vector<IcacheTxModel> ic_;
  Glue reset_g_;
  Glue g_;
  TxPathEvents events_;
  TxPathStats stats_;
  const long* probe_ = nullptr;
  mutable long member_allocs_ = 0;

  // Scratch of comb(): member inputs and outputs of the cycle, glue values.
  mutable L1tlbIn l1_in_;
  mutable L1tlbOut l1_out_;
  mutable std::vector<LdsCtrlIn> lds_in_;
  mutable std::vector<LdsCtrlOut> lds_out_;
  mutable std::vector<IcacheTxIn> ic_in_;
  mutable std::vector<IcacheTxOut> ic_out_;
  mutable std::vector<CuComb> cc_;
  mutable std::vector<IcComb> gc_;
  mutable std::vector<ClComb> lc_;  // [C]
  mutable int resp_cu_ = -1;     // CU (baseline: cluster) named by l2_resp_tag_i (-1: none)
  mutable int l2_winner_ = -1;   // L2 request winner (CU; baseline: cluster) or -1
  mutable int vic_winner_ = -1;  // L2 victim winner (I-cache) or -1
  mutable unsigned vic_cands_ = 0;
  mutable bool vr_empty_ = false;  // vr is emptied at this edge
  mutable unsigned l2_cands_ = 0;
  mutable bool sd_accept_ = false;  // the path accepts a shootdown in this cycle
  // The kill key of the cycle: the accepted key in an accept cycle, sdp
  // while sdp.valid, none otherwise.
  mutable bool kk_valid_ = false, kk_all_ = false;
  mutable uint64_t kk_vpn_ = 0, kk_vmid_ = 0;
};

}  // namespace txgen::model
