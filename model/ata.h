// Golden cycle model of the aggregated tag array with request distributor
// ata_NAME (docs/blocks/ata.md; seed 003, III-A..III-C): N tag arrays (one per
// core of the cluster) of S sets x W ways with valid, tag, sector-valid bits
// and a dirty bit, LRU ages or tree pseudo-LRU per set, one blocking
// controller per core (IDLE, CMP, DIST, LREAD, RREAD, LWRITE, FILL, L2REQ,
// L2WAIT), a round-robin arbiter per data-array port and the remote-holder
// choice (nearest / round_robin). `private` mode compares core i with array i
// only (the baseline).
// Written from the block document alone; shares only the elaborated widths
// (txgen/elab/ata.h) with the generator.
//
// Timing (request accepted in cycle t, no contention): CMP in t+1, DIST in
// t+2; local hit: LREAD in t+3, op 0 on port i and resp_valid in t+4; remote
// hit: RREAD in t+3, op 1 on port rj in t+4, FILL in t+4, op 3 on port i and
// resp_valid in t+5; L2: l2_req_valid from t+3; read: L2WAIT after the
// handshake, FILL in the cycle after l2_resp_valid, resp two cycles after the
// L2 response; write: resp one cycle after the handshake (miss) or LWRITE in
// the cycle after it and resp two cycles after it (hit).
//
// posedge() computes every decision from the registers of the cycle (compare
// results, rechecks, port winners) before it applies any of them. No memory is
// allocated after construction (except by the convenience forms that return
// structs by value, and by exceptions).
#pragma once

#include <cstdint>
#include <vector>

#include "model/events.h"
#include "txgen/elab/ata.h"

namespace txgen::model {

enum class AtaState : uint8_t { Idle, Cmp, Dist, LRead, RRead, LWrite, Fill, L2Req, L2Wait };
const char* name_of(AtaState s);

// da_op_o encodings and resp_src_o encodings of the document.
enum : unsigned { kAtaOpLocalRead = 0, kAtaOpRemoteRead = 1, kAtaOpWrite = 2, kAtaOpFill = 3 };
enum : unsigned { kAtaSrcLocal = 0, kAtaSrcRemote = 1, kAtaSrcL2 = 2 };

struct AtaIn {                         // inputs of ata_NAME for one cycle
  bool rst_n = true;                   // false: this edge resets (asynchronous active-low reset held over the edge)
  std::vector<uint8_t> req_valid;      // [N]
  std::vector<uint8_t> req_write;      // [N]
  std::vector<uint64_t> req_addr;      // [N] byte address (A bits; higher bits ignored)
  std::vector<uint8_t> l2_req_ready;   // [N]
  std::vector<uint8_t> l2_resp_valid;  // [N] only while core i is in L2WAIT (checked: logic_error)
};

struct AtaOut {                        // outputs in the cycle (before its edge)
  std::vector<uint8_t> req_ready;      // [N] decode: state = IDLE
  std::vector<uint8_t> resp_valid;     // [N] registered pulse
  std::vector<uint8_t> resp_src;       // [N] register (holds): 0 local, 1 remote, 2 L2 only
  std::vector<uint8_t> da_valid;       // [N] per data array: registered pulse
  std::vector<uint8_t> da_op;          // [N] registers (hold)
  std::vector<uint32_t> da_set, da_way, da_sector, da_core;  // [N] registers (hold)
  std::vector<uint8_t> l2_req_valid;   // [N] decode: state = L2REQ
  std::vector<uint8_t> l2_req_write;   // [N] the request register (write) in every state
  std::vector<uint64_t> l2_req_addr;   // [N] the request register (addr) in every state
};

// What the last posedge did (all false at each posedge, then set): one
// declaration for the model's fields and the coverage counters' names.
#define TXGEN_ATA_EVENTS(X)                                                                                      \
  X(accept, "a request was accepted (IDLE -> CMP)")                                                              \
  X(local_hit, "a read DIST went to LREAD")                                                                      \
  X(local_hit_with_remote, "a read DIST went to LREAD while some remote array also held the sector (Fig. 7(b))") \
  X(remote_hit, "a read DIST went to RREAD")                                                                     \
  X(remote_read, "a remote read (op 1) was granted")                                                             \
  X(l2_read, "an L2 read handshake")                                                                             \
  X(l2_write, "an L2 write handshake")                                                                           \
  X(write_hit, "an L2 write handshake with hv[i] (-> LWRITE)")                                                   \
  X(write_miss, "an L2 write handshake without hv[i] (response src 2)")                                          \
  X(lwrite, "a local write (op 2) was granted")                                                                  \
  X(fill_remote, "a fill (op 3) with fs = remote was granted")                                                   \
  X(fill_l2, "a fill (op 3) with fs = L2 was granted")                                                           \
  X(sector_fill, "a fill into the present line (lm)")                                                            \
  X(recheck_fail_dirty, "RREAD recheck failed: line and sector still there but dirty")                           \
  X(recheck_fail_evicted, "RREAD recheck failed: line (or its sector) no longer there")                          \
  X(dirty_at_compare, "a remote array had the sector but dirty (not a holder)")                                  \
  X(port_conflict, "2+ requesters on one data-array port")                                                       \
  X(port_owner_lost, "the owner of a port lost it to a remote read")                                             \
  X(remote_pick_multi, "a DIST chose among more than one remote holder")                                         \
  X(victim_invalid, "an allocating fill took an invalid way")                                                    \
  X(victim_replacement, "an allocating fill replaced a valid line (LRU / PLRU victim)")                          \
  X(victim_dirty, "an allocating fill replaced a valid line that was dirty")                                     \
  X(l2_backpressure, "some l2_req_valid with l2_req_ready = 0")                                                  \
  X(response, "some response registered")                                                                        \
  X(reset, "this edge was a reset")

struct AtaEvents {
  TXGEN_ATA_EVENTS(TXGEN_EVENT_FIELD)
};

struct AtaStats {                      // cumulative counters since construction / the last reset
  uint64_t cycles = 0;                 // non-reset edges
  uint64_t accepts = 0;
  uint64_t reads = 0, writes = 0;      // accepted requests by kind
  uint64_t local_hits = 0;             // read DIST -> LREAD
  uint64_t remote_attempts = 0;        // read DIST -> RREAD
  uint64_t remote_hits = 0;            // remote reads granted (op 1): data served by a remote array
  uint64_t recheck_fails = 0;          // RREAD -> L2REQ
  uint64_t recheck_fails_dirty = 0;
  uint64_t dirty_excluded = 0;         // CMPs where a remote copy was excluded because dirty
  uint64_t l2_reads = 0;               // L2 read handshakes
  uint64_t l2_writes = 0;              // L2 write handshakes
  uint64_t write_hits = 0;             // write handshakes with hv[i]
  uint64_t write_misses = 0;           // write handshakes without hv[i]
  uint64_t fills = 0;                  // op 3 commands
  uint64_t fills_remote = 0, fills_l2 = 0;
  uint64_t sector_fills = 0;           // fills into a present line
  uint64_t victims_invalid = 0, victims_replaced = 0;
  uint64_t responses = 0;
  uint64_t responses_by_src[3] = {0, 0, 0};
  uint64_t commands_by_op[4] = {0, 0, 0, 0};
  uint64_t port_conflicts = 0;         // port-cycles with 2+ requesters
  uint64_t port_waits = 0;             // requester-cycles not granted
  uint64_t l2_backpressure_cycles = 0; // core-cycles with l2_req_valid and not ready
};

class AtaModel {
 public:
  explicit AtaModel(const elab::AtaParams& p);
  // Idle inputs of the right sizes (rst_n = 1, l2_req_ready = 1, all else 0).
  AtaIn idle_inputs() const;
  // An output struct of the right sizes (for the caller-owned form).
  AtaOut make_outputs() const;
  // Combinational view of the cycle (registers and decodes of the state).
  void outputs(const AtaIn& in, AtaOut& out) const;  // no allocation when out is sized
  AtaOut outputs(const AtaIn& in) const;
  void posedge(const AtaIn& in);
  const AtaEvents& events() const { return events_; }
  const AtaStats& stats() const { return stats_; }
  const elab::AtaParams& params() const { return p_; }

  // Address fields (document "Parameters and widths").
  unsigned set_of(uint64_t addr) const;
  uint64_t tag_of(uint64_t addr) const;
  unsigned sector_of(uint64_t addr) const;
  uint64_t addr_of(uint64_t tag, unsigned set, unsigned sector) const;  // byte address of a sector

  // Read-only views of the state in the current cycle, for model tests.
  // Array j, set s, way w; core i; port j.
  bool entry_valid(unsigned j, unsigned s, unsigned w) const { return ent(j, s, w).valid; }
  uint64_t entry_tag(unsigned j, unsigned s, unsigned w) const { return ent(j, s, w).tag; }
  unsigned entry_sv(unsigned j, unsigned s, unsigned w) const { return ent(j, s, w).sv; }
  bool entry_dirty(unsigned j, unsigned s, unsigned w) const { return ent(j, s, w).dirty; }
  int find(unsigned j, uint64_t addr) const;  // way of addr's line in array j (valid, tag) or -1
  bool holds_sector(unsigned j, uint64_t addr) const;  // line present with addr's sector valid
  unsigned age(unsigned j, unsigned s, unsigned w) const;       // lru
  unsigned plru_bit(unsigned j, unsigned s, unsigned n) const;  // plru, node 1 .. W-1
  unsigned victim(unsigned j, unsigned s) const;     // replacement victim of the set (ignores valid)
  unsigned fill_way(unsigned j, unsigned s) const;   // lowest invalid way, else victim()
  AtaState state(unsigned i) const { return s_.core[i].st; }
  bool req_write(unsigned i) const { return s_.core[i].write; }
  uint64_t req_addr(unsigned i) const { return s_.core[i].addr; }
  uint32_t hv(unsigned i) const { return s_.core[i].hv; }  // bit j = hv[j]
  unsigned way(unsigned i, unsigned j) const { return s_.way[size_t{i} * N_ + j]; }
  bool lm(unsigned i) const { return s_.core[i].lm; }
  unsigned lway(unsigned i) const { return s_.core[i].lway; }
  unsigned rj(unsigned i) const { return s_.core[i].rj; }
  bool fs_l2(unsigned i) const { return s_.core[i].fs; }  // fill source: false remote, true L2
  unsigned rp(unsigned i) const { return s_.core[i].rp; }
  unsigned pr(unsigned j) const { return s_.port[j].pr; }

 private:
  struct Entry {
    bool valid = false;
    bool dirty = false;
    uint16_t sv = 0;
    uint64_t tag = 0;
  };
  struct Array {
    std::vector<Entry> e;       // [S*W]
    std::vector<uint8_t> age;   // lru [S*W]
    std::vector<uint8_t> plru;  // plru [S*W], index n = 1 .. W-1 used
  };
  struct Core {
    AtaState st = AtaState::Idle;
    bool write = false;
    uint64_t addr = 0;
    uint32_t hv = 0;
    bool lm = false;
    unsigned lway = 0;
    unsigned rj = 0;
    bool fs = false;  // 0 remote, 1 L2
    unsigned rp = 0;
    bool rv = false;  // resp_valid_o register
    unsigned rsrc = 0;
  };
  struct Port {
    unsigned pr = 0;
    bool dv = false;  // da_valid_o register
    unsigned op = 0, set = 0, way = 0, sector = 0, core = 0;
  };
  struct State {
    std::vector<Array> arr;     // [N]
    std::vector<Core> core;     // [N]
    std::vector<uint8_t> way;   // [N*N] way[i][j]
    std::vector<Port> port;     // [N]
  };
  struct Cmp {                  // compare results of a CMP cycle (scratch)
    uint32_t hv = 0;
    bool lm = false;
    unsigned lway = 0;
    bool dirty_excl = false;
  };

  const Entry& ent(unsigned j, unsigned s, unsigned w) const { return s_.arr[j].e[size_t{s} * W_ + w]; }
  void validate() const;
  State make_reset() const;
  void check_inputs(const AtaIn& in) const;
  int match(const Array& a, unsigned s, uint64_t g) const;  // the one way with valid and tag g, or -1
  void compare(unsigned i, Cmp& c, uint8_t* ways) const;
  bool recheck(unsigned i, bool* dirty_only) const;
  bool requests_port(unsigned i, unsigned j) const;
  unsigned pick_remote(unsigned i, uint32_t holders) const;
  void touch(Array& a, unsigned s, unsigned v);
  unsigned repl_victim(const Array& a, unsigned s) const;
  void command(unsigned j, unsigned op, unsigned set, unsigned way, unsigned sector, unsigned core);
  void respond(unsigned i, unsigned src);

  elab::AtaParams p_;
  unsigned N_, W_, S_, SC_;
  uint64_t addr_mask_, tag_mask_;
  AtaEvents events_;
  AtaStats stats_;
  State reset_;
  State s_;
  // Per-edge scratch (preallocated).
  std::vector<Cmp> cmp_;          // [N]
  std::vector<uint8_t> cmp_way_;  // [N*N]
  std::vector<uint8_t> ok_;       // [N] recheck of a core in RREAD
  std::vector<uint8_t> okd_;      // [N] recheck failed only because of the dirty bit
  std::vector<int> win_;          // [N] winner of port j or -1
};

}  // namespace txgen::model
