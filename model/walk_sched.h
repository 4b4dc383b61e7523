// Golden cycle model of the SIMT-aware page-walk scheduler walk_sched_NAME
// (docs/blocks/walk_sched.md): the request buffer (a collapsing queue), the
// a1 -> a2 -> a3 -> a4 arrival stages (simt scoring), the bypass, the
// pipelined selection tree, the d stage and registered dispatch outputs,
// aging, the two-step PWC fill (fill register f -> decide -> write register
// g -> write), and the PWC tags with 2-bit counters and tree pseudo-LRU.
// Written from the block document alone; shares only the elaborated widths
// (txgen/elab/walk_sched.h) with the generator.
//
// PWC fill timing ("Completion and PWC fill"): done_valid_i in cycle t -> f
// valid in t + 1 (decide: one victim per level chosen from the state of t + 1,
// leaving out g's victim when g is valid in t + 1 and PE[l] >= 2) -> g valid in
// t + 2 (write at edge t + 2: a level that already holds the prefix only makes
// it the most recently used, else g's victim is written) -> the prefixes are
// seen by lookups from t + 3 on.
//
// simt arrival timing ("Arrival"): a1 in cycle t (PWC estimate, counters,
// CAM of the iid: match bits stored at edge t) -> a2 in t + 1 (old = the
// score of the entries whose match bit is set) -> a3 in t + 2 (new = min(old
// + est, 2^SB - 1)) -> a4 in t + 3 (matching entries take new, the request
// is appended, match bits cleared at edge t + 3). At most one of a1 .. a4 is
// valid: the next request can be accepted at edge t + 3 (a1 in t + 4).
#pragma once

#include <cstdint>
#include <deque>
#include <utility>
#include <vector>

#include "model/events.h"
#include "txgen/elab/walk_sched.h"

namespace txgen::model {

struct WalkSchedIn {            // inputs of walk_sched_NAME for one cycle
  bool rst_n = true;            // false: this edge resets (asynchronous active-low reset held over the edge)
  bool req_valid = false;
  uint64_t req_vpn = 0;
  uint32_t req_iid = 0;
  bool done_valid = false;
  uint32_t done_walker = 0;
  uint64_t done_vpn = 0;
};

struct WalkSchedOut {           // outputs in the cycle (before its edge)
  bool req_ready = false;
  bool disp_valid = false;
  uint32_t disp_walker = 0;
  uint64_t disp_vpn = 0;
  uint32_t disp_iid = 0;
  uint32_t disp_acc = 0;
  uint32_t count = 0;
  uint32_t busy = 0;            // bit k = walker k busy
};

// What the last posedge did, for coverage (all false again at each posedge).
// The PWC victim events describe the DECIDE step (the edge of the cycle with f
// valid, the edge after the done_valid_i edge). They are properties of the
// choice of some level's victim, set whether or not the write one edge later
// replaces that victim (the write may find the prefix already held). simt only
// unless marked. "Eligible" is after leaving out g's victim (when it is).
#define TXGEN_WALK_SCHED_EVENTS(X)                                                                           \
  X(bypass, "an idle-walker bypass dispatch")                                                                 \
  X(selection, "a selection dispatch")                                                                        \
  X(by_age, "the selection took an aged entry")                                                               \
  X(by_batch_over_lower_score, "took a batch entry while a valid non-aged entry had a strictly lower score")  \
  X(by_lowest_score, "took a non-aged non-batch entry by lowest score")                                       \
  X(tie_oldest, "a lowest-score choice where another valid non-aged non-batch entry had the same score")      \
  X(score_accumulated, "an a4 write with at least one matching entry")                                        \
  X(aged_set, "some entry became aged")                                                                       \
  X(blocked_full, "req_valid in a cycle with count == B")                                                     \
  X(collapse_with_append, "a selection removal and an append at the same edge")                               \
  X(pwc_protected_skip, "decide: no eligible invalid entry, the ctr = 0 class was used, and the pseudo-LRU "  \
                        "victim over all eligible entries (no counter mask) had ctr > 0")                     \
  X(pwc_all_counters_nonzero, "decide: no eligible invalid entry and every eligible ctr > 0 (plain PLRU)")     \
  X(pwc_victim_excluded, "decide (all policies): g was valid and, for some level with PE >= 2, the choice "   \
                         "without leaving out g's victim would have been g's victim")                         \
  X(pwc_write_hit_previous_write, "write: some level found its prefix in the entry the previous edge's "      \
                                  "write had just replaced (one prefix written once)")                        \
  X(pwc_ctr_saturated, "a counter increment clipped at 3")                                                    \
  X(pwc_hit_dispatch, "a dispatch lookup hit some level (acc < LV)")

struct WalkSchedEvents {
  TXGEN_WALK_SCHED_EVENTS(TXGEN_EVENT_FIELD)
};

class WalkSchedModel {
 public:
  explicit WalkSchedModel(const elab::WalkSchedParams& p);
  WalkSchedIn idle_inputs() const { return WalkSchedIn{}; }
  // Combinational view of the cycle: every output is a register or a
  // function of the state (req_ready depends only on the state).
  WalkSchedOut outputs(const WalkSchedIn& in) const;
  void posedge(const WalkSchedIn& in);
  const WalkSchedEvents& events() const { return events_; }
  const elab::WalkSchedParams& params() const { return p_; }

  // Read-only views of the state in the current cycle, for model tests.
  // Buffer entry i (0 = oldest); fields of invalid entries read as stored.
  unsigned count() const { return s_.count; }
  uint64_t vpn_of(unsigned i) const { return entry(i).vpn; }
  uint32_t iid_of(unsigned i) const { return entry(i).iid; }
  uint32_t score_of(unsigned i) const { return entry(i).score; }
  uint64_t credit_of(unsigned i) const { return entry(i).credit; }
  bool aged(unsigned i) const { return entry(i).aged; }
  bool match_of(unsigned i) const { return entry(i).match; }
  bool busy(unsigned k) const;
  unsigned cooldown() const { return s_.cooldown; }
  uint16_t lfsr() const { return s_.lfsr; }
  bool last_valid() const { return s_.last_valid; }
  uint32_t last_iid() const { return s_.last_iid; }
  bool a1_valid() const { return s_.a1.valid; }
  bool a2_valid() const { return s_.a2.valid; }
  bool a3_valid() const { return s_.a3.valid; }
  bool a4_valid() const { return s_.a4.valid; }
  bool d_valid() const { return s_.d.valid; }
  // The fill register f: valid in the cycle after a done_valid_i cycle (t +
  // 1). In that cycle the victims are DECIDED (nothing is written to the PWC
  // at its edge); they move to g with f_vpn at the edge.
  bool f_valid() const { return s_.f.valid; }
  uint64_t f_vpn() const { return s_.f.vpn; }
  // The write register g: valid in the cycle after an f-valid cycle (t + 2);
  // the PWC write of g_vpn's prefixes happens at the edge of that cycle.
  // g_victim(l) is the entry of level l = 1 .. LV-1 decided for it (written
  // only if level l misses g_vpn's prefix at the write). Without f valid only
  // g_valid drops; g_vpn and the victims hold their last values.
  bool g_valid() const { return s_.g.valid; }
  uint64_t g_vpn() const { return s_.g.vpn; }
  unsigned g_victim(unsigned level) const;
  // The selection result register (sel_valid, sel_index) of this cycle.
  bool sel_valid() const { return s_.sel_pipe.front().valid; }
  unsigned sel_index() const { return s_.sel_pipe.front().index; }
  // PWC of level l = 1 .. LV-1 (root first), entry e < PE[l].
  bool pwc_valid(unsigned level, unsigned e) const { return pwc_entry(level, e).valid; }
  uint64_t pwc_tag(unsigned level, unsigned e) const { return pwc_entry(level, e).tag; }
  unsigned pwc_ctr(unsigned level, unsigned e) const { return pwc_entry(level, e).ctr; }
  // The PWC estimate acc(vpn) (1 .. LV) of the current PWC state.
  unsigned pwc_acc(uint64_t vpn) const;

 private:
  struct Entry {
    bool valid = false;
    uint64_t vpn = 0;
    uint32_t iid = 0;
    uint32_t score = 0;
    uint64_t credit = 0;
    bool aged = false;
    bool match = false;
  };
  struct Arrival {  // a1 (valid, vpn, iid), a2 (+ est), a3 (+ est, old), a4 (+ nw)
    bool valid = false;
    uint64_t vpn = 0;
    uint32_t iid = 0;
    unsigned est = 0;
    uint32_t old = 0;
    uint32_t nw = 0;  // "new"
  };
  struct Disp {  // the d register and the output registers (acc only there)
    bool valid = false;
    unsigned walker = 0;
    uint64_t vpn = 0;
    uint32_t iid = 0;
    unsigned acc = 0;
  };
  struct FillReg {  // the fill register f (valid, vpn)
    bool valid = false;
    uint64_t vpn = 0;
  };
  struct WriteReg {  // the write register g (valid, vpn, one victim entry per level)
    bool valid = false;
    uint64_t vpn = 0;
    std::vector<unsigned> victim;  // index l - 1
  };
  struct PwcEntry {
    bool valid = false;
    uint64_t tag = 0;
    unsigned ctr = 0;
  };
  struct PwcLevel {
    std::vector<PwcEntry> e;        // PE[l] entries
    std::vector<uint8_t> node;      // pseudo-LRU bits, heap order: node 1 = root, children 2n, 2n+1
  };
  // One selection-tree result, with the facts about the winner that the
  // coverage events need (taken from the same cycle's keys).
  struct SelResult {
    bool valid = false;
    unsigned index = 0;
    bool by_age = false, batch_over_lower = false, lowest = false, tie = false;
  };
  struct State {
    std::vector<Entry> buf;         // B entries
    unsigned count = 0;
    std::vector<bool> busy;         // K
    std::vector<uint64_t> given;    // vpn each busy walker was dispatched (environment-rule check only)
    std::vector<uint64_t> starts, ends;  // dispatches to / completions of each walker (self-check only)
    uint32_t last_iid = 0;
    bool last_valid = false;
    unsigned cooldown = 0;
    Arrival a1, a2, a3, a4;
    Disp d, out;
    FillReg f;
    WriteReg g;
    std::vector<int> replaced;      // per level: entry replaced at the last edge, -1 if none (coverage only)
    uint16_t lfsr = 0;
    std::vector<PwcLevel> pwc;      // index l - 1
    std::deque<SelResult> sel_pipe;  // L results; front = the result register (keys of cycle t - L)
  };
  // Per-level lookup result: the hit entry or -1.
  using Hits = std::vector<int>;
  struct Fill {  // the write step of one level
    int entry = -1;        // entry written or refreshed
    bool replace = false;  // g's victim is written (the level misses the prefix)
  };
  // Everything the edge decides, computed from the state before the edge.
  struct Plan {
    bool accept = false, bypass = false, selection = false;
    unsigned sel_index = 0;
    int walker = -1;
    bool score_a1 = false;  // simt: a1 goes to scoring (no bypass)
    Hits hits_a, hits_d;
    unsigned est = 0, acc_d = 0;
    uint32_t old = 0;  // simt, a2 valid: the score of the entries whose match bit is set
    std::vector<unsigned> victims;  // decide step: per level when f is valid (empty otherwise)
    std::vector<Fill> write;        // write step: per level when g is valid (empty otherwise)
    uint64_t write_vpn = 0;         // g.vpn before the edge
    SelResult sel;           // the result of this cycle's keys
    uint64_t sel_vpn = 0, a1_vpn = 0;  // the dispatched request, read before the edge
    uint32_t sel_iid = 0, a1_iid = 0;
    // Back to the values above, every vector emptied with its storage kept.
    void reset() {
      Plan fresh;
      fresh.hits_a.swap(hits_a);
      fresh.hits_d.swap(hits_d);
      fresh.victims.swap(victims);
      fresh.write.swap(write);
      fresh.hits_a.clear();
      fresh.hits_d.clear();
      fresh.victims.clear();
      fresh.write.clear();
      *this = std::move(fresh);
    }
  };

  void validate() const;
  void check_inputs(const WalkSchedIn& in) const;
  const Entry& entry(unsigned i) const;
  const PwcEntry& pwc_entry(unsigned level, unsigned e) const;
  bool req_ready(const State& s) const;

  // Selection keys and tree.
  uint64_t key_of(unsigned i) const;
  SelResult select_now() const;
  void classify_simt(SelResult& r) const;

  // PWC.
  uint64_t prefix(uint64_t vpn, unsigned level) const;
  void lookup(uint64_t vpn, Hits& h) const;  // into h, sized LV - 1
  unsigned acc_of(const Hits& h) const;
  bool subtree_has(const PwcLevel& lv, unsigned node, const std::vector<bool>& eligible) const;
  unsigned plru_victim(const PwcLevel& lv, const std::vector<bool>& eligible) const;
  static void make_mru(PwcLevel& lv, unsigned e);
  unsigned decide_victim(unsigned li, int excluded);
  struct Choice {  // one victim walk over a level's eligibility classes
    unsigned victim = 0;
    bool any_invalid = false, any_zero = false;  // over the entries not left out
    bool use_ctr = false;                        // the ctr = 0 class was used (simt)
    unsigned plain = 0;                          // the walk over all entries not left out
  };
  Choice choose_victim(const PwcLevel& lv, int excluded) const;
  Fill plan_write(unsigned li) const;
  void apply_pwc(const Plan& pl);

  // The edge.
  void plan(const WalkSchedIn& in, Plan& pl);
  void apply_buffer(const Plan& pl);
  void store_match(uint32_t iid);
  void write_scores(const Arrival& a4);
  void append(const Entry& e);
  uint32_t matched_score() const;
  void shift_arrivals(const Plan& pl);
  void remove_selected(unsigned idx);
  void apply_dispatch(const Plan& pl);
  void apply_registers(const Plan& pl, const WalkSchedIn& in);
  void check_state() const;

  elab::WalkSchedParams p_;
  WalkSchedEvents events_;
  uint32_t score_max_ = 0;   // 2^SB - 1
  State reset_;
  State s_;
  mutable std::vector<std::pair<uint32_t, uint32_t>> scratch_;  // check_state's (iid, score) list, kept to avoid allocation
  Plan plan_;                                     // the edge's plan, kept to avoid allocation
  mutable std::vector<bool> invalid_, zero_, all_;  // choose_victim's classes, kept likewise
};

}  // namespace txgen::model
