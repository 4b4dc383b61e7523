// Golden cycle models of the GPU's shared L2-TLB (iommu_NAME_l2tlb), the
// IOMMU with its walkers (iommu_NAME, around the reused walk_sched model) and
// the two joined (iommu_NAME_sys), from docs/blocks/iommu.md alone; they share
// only the elaborated widths (txgen/elab/iommu.h) with the generator.
//
// L2-TLB timing (a lookup taken in cycle t): stage 1 in t+1, stage D in t+D
// (acts at edge t+D: a hit makes its waiter slot ready), the answer register
// loads at edge t+D+1, resp_valid in t+D+2. A miss allocates its MSHR at edge
// t+D; the walk request register loads it at edge t+D+1 (walk_req_valid in
// t+D+2). A walk answer in cycle a fills the MSHR and readies its waiting
// slots at edge a; the fill enters the pipeline from a+1 and writes the
// array at its stage D.
//
// IOMMU timing: a dispatch pulse in cycle t sets the walker (want) at edge t,
// the memory request register loads it at edge t+1 (mem_req_valid in t+2); a
// leaf answer in cycle a is resp_valid in a+1, done_valid to the scheduler
// in a itself.
//
// Every posedge first decides everything from the registers of the cycle and
// the inputs, then applies the writes (which never meet in one element).
#pragma once

#include <cstdint>
#include <vector>

#include "model/events.h"
#include "model/walk_sched.h"
#include "txgen/elab/iommu.h"

namespace txgen::model {

// ---------------------------------------------------------------------------
// Coverage events of one edge (IommuSysModel::events: the L2-TLB's and the
// IOMMU's of that edge together).
#define TXGEN_IOMMU_EVENTS(X)                                                                                \
  X(reset, "this edge was a reset")                                                                         \
  X(l2_hit, "a lookup hit at its stage D")                                                                  \
  X(l2_miss_alloc, "a lookup missed with no MSHR of its page and allocated one")                           \
  X(l2_merge_waiting, "a lookup merged with an MSHR not yet filled: its slot records the MSHR")            \
  X(l2_merge_filled, "a lookup merged with an MSHR filled before or at this edge: answered at once")       \
  X(l2_merge_same_edge_answer, "a lookup merged with the MSHR the walk answer fills at this very edge")    \
  X(l2_fill_write_victim, "a fill or insert wrote a victim way (its translation was absent)")              \
  X(l2_fill_write_hit, "a fill or insert found its translation present and replaced PPN and permissions")  \
  X(l2_fill_over_insert, "a fill found its translation present (an insert wrote it while it walked)")      \
  X(l2_victim_invalid_way, "a victim write took an invalid way")                                            \
  X(l2_victim_plru, "a victim write found no invalid way in the set (pseudo-LRU victim)")                  \
  X(l2_victim_mixed, "a victim write in a set with invalid and valid ways where the tree bit was overruled") \
  X(l2_insert, "an insert entered the pipeline")                                                            \
  X(l2_fill_enter, "a fill entered the pipeline")                                                           \
  X(l2_fill_over_request, "a fill entered while some request port was valid")                               \
  X(l2_fill_set_busy, "the lowest filled, not entered MSHR waited for its set")                             \
  X(l2_shootdown_one, "a one-translation shootdown acted")                                                  \
  X(l2_shootdown_one_hit, "a one-translation shootdown invalidated a way")                                  \
  X(l2_shootdown_all, "a shootdown of everything acted")                                                    \
  X(l2_sd_waits_for_walk, "sd_valid with an empty pipeline but a valid MSHR of its translation")           \
  X(l2_sd_blocks_requests, "sd_valid held back a valid request or insert")                                  \
  X(l2_set_busy_stall, "some request port was valid but its set busy")                                      \
  X(l2_mshr_stall, "a request was valid with sd_valid 0 but free_mshrs <= lookups in flight")               \
  X(l2_waiter_stall, "a request was valid with no free waiter slot")                                        \
  X(l2_resp_backpressure, "an answer register was valid with resp_ready 0")                                 \
  X(l2_walk_backpressure, "the walk request register was valid with walk_req_ready 0")                      \
  X(l2_rr_skip, "the round-robin took a port other than rr")                                                \
  X(l2_two_ports_valid, "two or more request ports were valid")                                             \
  X(l2_walk_answer_waiters, "a walk answer readied at least one waiting slot")                              \
  X(l2_walk_answer_many, "a walk answer readied two or more waiting slots")                                 \
  X(l2_two_answers, "two or more answer registers loaded at one edge")                                      \
  X(iommu_walk_leaf_first_read, "a walk dispatched with acc = 1 (the PWCs held the leaf table)")           \
  X(iommu_walk_partial, "a walk dispatched with 1 < acc < LV")                                               \
  X(iommu_walk_full, "a walk dispatched with acc = LV")                                                     \
  X(iommu_mem_backpressure, "mem_req_valid with mem_req_ready 0")                                           \
  X(iommu_two_walkers_want, "two or more walkers wanted a read in one cycle")                               \
  X(iommu_wr_skip, "the memory round-robin took a walker other than wr")                                    \
  X(iommu_leaf_answer, "a leaf answer completed a walk")                                                    \
  X(iommu_req_backpressure, "a walk request was valid with the scheduler's req_ready 0")                   \
  X(iommu_sched_bypass, "the scheduler dispatched by its idle-walker bypass")                               \
  X(iommu_sched_selection, "the scheduler dispatched by a selection")

struct IommuEvents {
  TXGEN_IOMMU_EVENTS(TXGEN_EVENT_FIELD)
};

// ---------------------------------------------------------------------------
// The L2-TLB (iommu_NAME_l2tlb). Per-port vectors have P elements.

struct L2tlbIn {                    // inputs of one cycle
  bool rst_n = true;                // false: this edge resets (asynchronous active-low reset held over the edge)
  std::vector<uint8_t> req_valid;   // [P]
  std::vector<uint64_t> req_vpn, req_vmid, req_iid, req_tag;  // [P]
  std::vector<uint8_t> resp_ready;  // [P]
  bool ins_valid = false;
  uint64_t ins_vpn = 0, ins_vmid = 0, ins_ppn = 0, ins_perm = 0;
  bool sd_valid = false;
  bool sd_all = false;
  uint64_t sd_vpn = 0, sd_vmid = 0;
  bool walk_req_ready = false;
  bool walk_resp_valid = false;
  uint64_t walk_resp_vpn = 0, walk_resp_vmid = 0, walk_resp_ppn = 0, walk_resp_perm = 0;
};

struct L2tlbOut {                   // outputs in the cycle (before its edge)
  std::vector<uint8_t> req_ready;   // [P] combinational: the lookup of port p enters
  std::vector<uint8_t> resp_valid;  // [P] the answer registers
  std::vector<uint64_t> resp_tag, resp_vpn, resp_vmid, resp_ppn, resp_perm;  // [P]
  bool ins_ready = false;           // combinational
  bool sd_ready = false;            // combinational
  bool sd_done = false;             // registered pulse
  bool walk_req_valid = false;      // the walk request register
  uint64_t walk_req_vpn = 0, walk_req_vmid = 0, walk_req_iid = 0;
  uint64_t mshrs = 0;               // valid MSHRs
};

enum class L2OpKind : uint8_t { Lookup, Fill, Insert, Shootdown };

class L2tlbModel {
 public:
  explicit L2tlbModel(const elab::L2tlbParams& p);
  // Sized inputs: rst_n 1, resp_ready and walk_req_ready 1, everything else 0.
  L2tlbIn idle_inputs() const;
  L2tlbOut make_outputs() const;
  void outputs(const L2tlbIn& in, L2tlbOut& out) const;  // no allocation when out is sized
  L2tlbOut outputs(const L2tlbIn& in) const;
  void posedge(const L2tlbIn& in);
  const IommuEvents& events() const { return events_; }
  const elab::L2tlbParams& params() const { return p_; }

  unsigned set_of(uint64_t vpn) const;
  uint64_t tag_of(uint64_t vpn) const;

  // Read-only views of the registers of the current cycle, for model tests.
  // Array: set s < S, way w < W; plru node n = 1 .. W-1 (heap order).
  bool way_valid(unsigned s, unsigned w) const { return way(s, w).valid; }
  uint64_t way_vmid(unsigned s, unsigned w) const { return way(s, w).vmid; }
  uint64_t way_tag(unsigned s, unsigned w) const { return way(s, w).tag; }
  uint64_t way_vpn(unsigned s, unsigned w) const;  // tag and set put back together
  uint64_t way_ppn(unsigned s, unsigned w) const { return way(s, w).ppn; }
  uint64_t way_perm(unsigned s, unsigned w) const { return way(s, w).perm; }
  int find(uint64_t vpn, uint64_t vmid) const;    // the hit way of the translation, or -1
  unsigned plru_bit(unsigned s, unsigned node) const;
  unsigned victim(unsigned s) const;              // the way a write of a missing translation takes now
  // Pipeline stage k = 1 .. D.
  bool stage_valid(unsigned k) const { return stage(k).valid; }
  L2OpKind stage_kind(unsigned k) const { return stage(k).kind; }
  uint64_t stage_vpn(unsigned k) const { return stage(k).vpn; }
  unsigned stage_slot(unsigned k) const { return stage(k).slot; }
  unsigned stage_mshr(unsigned k) const { return stage(k).mshr; }
  bool pipeline_empty() const;
  // MSHR m < M.
  bool mshr_valid(unsigned m) const { return mshr(m).valid; }
  bool mshr_issued(unsigned m) const { return mshr(m).issued; }
  bool mshr_filled(unsigned m) const { return mshr(m).filled; }
  bool mshr_entered(unsigned m) const { return mshr(m).entered; }
  uint64_t mshr_vpn(unsigned m) const { return mshr(m).vpn; }
  uint64_t mshr_vmid(unsigned m) const { return mshr(m).vmid; }
  uint64_t mshr_iid(unsigned m) const { return mshr(m).iid; }
  uint64_t mshr_ppn(unsigned m) const { return mshr(m).ppn; }
  unsigned valid_mshrs() const;
  // Waiter slot i < R. waiting = the slot's lookup acted and recorded an MSHR
  // (valid, not ready, out of the pipeline).
  bool waiter_valid(unsigned i) const { return waiter(i).valid; }
  bool waiter_ready(unsigned i) const { return waiter(i).ready; }
  bool waiter_waiting(unsigned i) const { return waiter(i).waiting; }
  unsigned waiter_port(unsigned i) const { return waiter(i).port; }
  uint64_t waiter_tag(unsigned i) const { return waiter(i).tag; }
  unsigned waiter_mshr(unsigned i) const { return waiter(i).mshr; }
  uint64_t waiter_ppn(unsigned i) const { return waiter(i).ppn; }
  unsigned valid_waiters() const;
  bool answer_valid(unsigned port) const;
  bool walk_req_valid() const { return s_.walk.valid; }
  uint64_t walk_req_vpn() const { return s_.walk.vpn; }
  uint64_t walk_req_vmid() const { return s_.walk.vmid; }
  uint64_t walk_req_iid() const { return s_.walk.iid; }
  unsigned rr() const { return s_.rr; }

 private:
  struct Way {
    bool valid = false;
    uint64_t vmid = 0, tag = 0, ppn = 0, perm = 0;
  };
  struct Op {  // a stage's operation register
    bool valid = false;
    L2OpKind kind = L2OpKind::Lookup;
    uint64_t vpn = 0, vmid = 0, iid = 0, ppn = 0, perm = 0;
    unsigned slot = 0, mshr = 0;
    bool all = false;
  };
  struct Mshr {
    bool valid = false;
    uint64_t vpn = 0, vmid = 0, iid = 0;
    bool issued = false, filled = false, entered = false;
    uint64_t ppn = 0, perm = 0;
  };
  struct Waiter {
    bool valid = false, ready = false;
    unsigned port = 0;
    uint64_t tag = 0, vpn = 0, vmid = 0;
    unsigned mshr = 0;
    uint64_t ppn = 0, perm = 0;
    bool waiting = false;  // model-side: the MSHR index was recorded at stage D (see iommu.cpp)
  };
  struct Answer {
    bool valid = false;
    uint64_t tag = 0, vpn = 0, vmid = 0, ppn = 0, perm = 0;
  };
  struct WalkReq {
    bool valid = false;
    uint64_t vpn = 0, vmid = 0, iid = 0;
  };
  struct WalkAnswer {  // the walk answer register: the rules' "walk answer" (docs/blocks/iommu.md)
    bool valid = false;
    uint64_t vpn = 0, vmid = 0, ppn = 0, perm = 0;
  };
  struct State {
    std::vector<Way> ways;       // S x W, set-major
    std::vector<uint8_t> plru;   // S x W: node n of set s at s * W + n (n = 1 .. W-1)
    std::vector<Op> stage;       // stage k at index k - 1
    std::vector<Mshr> mshr;      // M
    std::vector<Waiter> waiter;  // R
    std::vector<Answer> ans;     // P
    WalkReq walk;
    WalkAnswer walk_ans;
    unsigned rr = 0;
    bool sd_done = false;
  };
  enum class Enter : uint8_t { None, Fill, Shootdown, Insert, Lookup };
  struct Entry {  // what enters stage 1 in the cycle
    Enter kind = Enter::None;
    unsigned mshr = 0, port = 0, slot = 0;
  };
  struct Action {  // what stage D does at the edge
    bool slot_ready = false, slot_record = false, alloc = false, free_mshr = false;
    unsigned mshr = 0;  // recorded / allocated
    uint64_t ppn = 0, perm = 0;
    int touch = -1;     // way made the most recently used
    int write = -1;     // way written (fill / insert)
    int invalidate = -1;
    bool invalidate_all = false;
  };
  struct Plan {
    Entry entry;
    Action act;
    int answer_mshr = -1;     // the MSHR the walk answer fills
    bool walk_load = false;   // the walk request register loads
    int walk_mshr = -1;       // ... this MSHR (-1: becomes empty)
    std::vector<int> ans;     // per port: -2 holds, -1 becomes empty, else the slot loaded
  };

  void validate() const;
  const Way& way(unsigned s, unsigned w) const;
  const Op& stage(unsigned k) const;
  const Mshr& mshr(unsigned m) const;
  const Waiter& waiter(unsigned i) const;

  // Entry.
  bool set_busy(const State& s, unsigned set) const;
  unsigned lookups(const State& s) const;
  unsigned free_mshrs(const State& s) const;
  int free_slot(const State& s) const;
  int pending_fill(const State& s) const;
  bool sd_may_enter(const State& s, const L2tlbIn& in) const;
  int lookup_port(const State& s, const L2tlbIn& in) const;
  Entry choose_entry(const State& s, const L2tlbIn& in) const;

  // Array.
  int hit_way(const State& s, uint64_t vpn, uint64_t vmid) const;
  unsigned victim_of(const State& s, unsigned set, bool* overruled = nullptr) const;
  bool any_invalid(const State& s, unsigned set, unsigned lo, unsigned n) const;
  void touch(unsigned set, unsigned w);

  // The edge.
  int find_mshr(uint64_t vpn, uint64_t vmid) const;
  int answer_target() const;
  void plan_action(Plan& pl);
  void plan_lookup(const Op& op, int answer_mshr, Action& a);
  void plan_write(const Op& op, Action& a);
  void plan_registers(const L2tlbIn& in, Plan& pl);
  void note_entry_events(const L2tlbIn& in, const Entry& e);
  void apply_answer(int m);
  void take_walk_answer(const L2tlbIn& in);
  void apply_action(const Action& a);
  void apply_entry(const L2tlbIn& in, const Entry& e);
  void apply_registers(const Plan& pl, const Op& acted);
  void check_state() const;

  elab::L2tlbParams p_;
  IommuEvents events_;
  State reset_;
  State s_;
  Plan plan_;  // kept to avoid allocation per edge
};

// ---------------------------------------------------------------------------
// The IOMMU (iommu_NAME): the scheduler, K walkers and the memory port.

struct IommuIn {
  bool rst_n = true;
  bool req_valid = false;
  uint64_t req_vpn = 0, req_vmid = 0, req_iid = 0;
  bool mem_req_ready = false;
  bool mem_resp_valid = false;
  uint64_t mem_resp_walker = 0, mem_resp_ppn = 0, mem_resp_perm = 0;
};

struct IommuOut {
  bool req_ready = false;           // the scheduler's (from its state only)
  bool resp_valid = false;          // the answer register: a one-cycle pulse per walk
  uint64_t resp_vpn = 0, resp_vmid = 0, resp_ppn = 0, resp_perm = 0;
  bool mem_req_valid = false;       // the memory request register
  uint64_t mem_req_walker = 0, mem_req_level = 0, mem_req_vpn = 0, mem_req_vmid = 0;
  uint64_t count = 0;               // the scheduler's count_o
  uint64_t busy = 0;                // the scheduler's busy_o
};

class IommuModel {
 public:
  explicit IommuModel(const elab::IommuParams& p);
  IommuIn idle_inputs() const;  // rst_n 1, mem_req_ready 1, everything else 0
  IommuOut outputs(const IommuIn& in) const;
  void posedge(const IommuIn& in);
  const IommuEvents& events() const { return events_; }
  const elab::IommuParams& params() const { return p_; }
  const WalkSchedModel& sched() const { return sched_; }

  // Walker k < K: its VPN is {VMID, VPN} (VM + VPN bits).
  uint64_t walker_vpn(unsigned k) const { return walker(k).vpn; }
  unsigned walker_level(unsigned k) const { return walker(k).level; }
  bool walker_want(unsigned k) const { return walker(k).want; }
  bool read_outstanding(unsigned k) const { return walker(k).outstanding; }
  bool mem_req_valid() const { return s_.mem.valid; }
  unsigned mem_req_walker() const { return s_.mem.walker; }
  unsigned mem_req_level() const { return s_.mem.level; }
  uint64_t mem_req_walk_vpn() const { return s_.mem.vpn; }  // {VMID, VPN}
  unsigned wr() const { return s_.wr; }

 private:
  struct Walker {
    uint64_t vpn = 0;
    unsigned level = 0;
    bool want = false;
    bool outstanding = false;  // model-side: a read taken and not answered (environment check)
  };
  struct MemReq {
    bool valid = false;
    unsigned walker = 0, level = 0;
    uint64_t vpn = 0;
  };
  struct Resp {
    bool valid = false;
    uint64_t vpn = 0, vmid = 0, ppn = 0, perm = 0;
  };
  struct State {
    std::vector<Walker> w;
    MemReq mem;
    unsigned wr = 0;
    Resp resp;
  };

  void validate() const;
  const Walker& walker(unsigned k) const;
  WalkSchedIn sched_in(const IommuIn& in) const;
  bool leaf_answer(const IommuIn& in) const;
  int next_reader() const;
  void check_inputs(const IommuIn& in) const;
  void step_memory(const IommuIn& in);
  void step_answer(const IommuIn& in);
  void step_dispatch(const WalkSchedOut& so);

  elab::IommuParams p_;
  WalkSchedModel sched_;
  IommuEvents events_;
  State reset_;
  State s_;
};

// ---------------------------------------------------------------------------
// iommu_NAME_sys: the L2-TLB's walk request register drives the IOMMU's
// request, the IOMMU's answer register the L2-TLB's walk answer. Members are
// the fields of TXGEN_IOMMU_SYS_PORTS (txgen/ports/iommu.h).

struct IommuSysIn {
  bool rst_n = true;
  std::vector<uint8_t> req_valid;                             // [P]
  std::vector<uint64_t> req_vpn, req_vmid, req_iid, req_tag;  // [P]
  std::vector<uint8_t> resp_ready;                            // [P]
  bool ins_valid = false;
  uint64_t ins_vpn = 0, ins_vmid = 0, ins_ppn = 0, ins_perm = 0;
  bool sd_valid = false;
  bool sd_all = false;
  uint64_t sd_vpn = 0, sd_vmid = 0;
  bool mem_req_ready = false;
  bool mem_resp_valid = false;
  uint64_t mem_resp_walker = 0, mem_resp_ppn = 0, mem_resp_perm = 0;
};

struct IommuSysOut {
  std::vector<uint8_t> req_ready;   // [P]
  std::vector<uint8_t> resp_valid;  // [P]
  std::vector<uint64_t> resp_tag, resp_vpn, resp_vmid, resp_ppn, resp_perm;  // [P]
  bool ins_ready = false;
  bool sd_ready = false;
  bool sd_done = false;
  bool mem_req_valid = false;
  uint64_t mem_req_walker = 0, mem_req_level = 0, mem_req_vpn = 0, mem_req_vmid = 0;
  uint64_t mshrs = 0;
  uint64_t walk_count = 0;
  uint64_t walk_busy = 0;
};

class IommuSysModel {
 public:
  explicit IommuSysModel(const elab::IommuParams& p);
  // Sized inputs: rst_n 1, resp_ready and mem_req_ready 1, everything else 0.
  IommuSysIn idle_inputs() const;
  IommuSysOut make_outputs() const;
  void outputs(const IommuSysIn& in, IommuSysOut& out) const;
  IommuSysOut outputs(const IommuSysIn& in) const;
  void posedge(const IommuSysIn& in);
  const IommuEvents& events() const { return events_; }
  const elab::IommuParams& params() const { return p_; }
  const L2tlbModel& l2() const { return l2_; }
  const IommuModel& iommu() const { return io_; }

 private:
  // The sub-models' inputs of the cycle, from the sys inputs and the other
  // sub-model's registers (never its edge).
  void split(const IommuSysIn& in, L2tlbIn& l2in, IommuIn& ioin, IommuOut& ioout) const;

  elab::IommuParams p_;
  L2tlbModel l2_;
  IommuModel io_;
  IommuEvents events_;
  mutable L2tlbIn l2in_;     // scratch: no allocation per cycle
  mutable L2tlbOut l2out_;
};

}  // namespace txgen::model
