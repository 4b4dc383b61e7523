// Golden reference model of the instruction-aware I-cache with translation
// ways (docs/blocks/icache_tx.md), together with its tag and data SRAMs: the
// behaviour of icache_tx_NAME_sys (or icache_tx_NAME_base_sys), cycle exact.
// Written from the block document alone; shares only the elaborated widths
// (txgen/elab/icache_tx.h) and the bd_codec model with the rest of txgen.
#pragma once

#include <cstdint>
#include <optional>
#include <tuple>
#include <vector>

#include "bd_codec.h"
#include "model/util.h"
#include "txgen/elab/icache_tx.h"

namespace txgen::model {

struct IcacheTxIn {
  bool rst_n = true;
  // instruction fetch and fill
  bool if_valid = false;
  uint64_t if_addr = 0;
  bool ifill_valid = false;
  uint64_t ifill_addr = 0;
  Bits ifill_data;  // LB x 8
  bool flush_valid = false;
  // translation lookups and fills, one element per CU (S)
  std::vector<bool> tl_valid;
  std::vector<uint64_t> tl_vpn;
  std::vector<uint32_t> tl_vmid, tl_vrf;
  bool tl_resp_ready = false;
  std::vector<bool> tf_valid;
  std::vector<uint64_t> tf_vpn;
  std::vector<uint32_t> tf_vmid, tf_vrf;
  std::vector<uint64_t> tf_ppn, tf_perm;
  bool vic_ready = false;
  // shootdown
  bool sd_valid = false;
  bool sd_all = false;
  uint64_t sd_vpn = 0;
  uint32_t sd_vmid = 0;
  // Sized for the parameters (vectors of S, zero data); the baseline ignores
  // every translation field.
  static IcacheTxIn idle(const elab::IcacheTxParams& p);
};

struct IcacheTxOut {
  bool if_ready = false;
  bool if_resp_valid = false;
  bool if_resp_hit = false;
  Bits if_resp_data;  // LB x 8 (= the data SRAM's rdata)
  bool ifill_ready = false;
  bool flush_ready = false;
  bool flush_done = false;
  std::vector<bool> tl_ready, tf_ready;  // S each
  bool tl_resp_valid = false;
  uint32_t tl_resp_cu = 0;
  bool tl_resp_hit = false;
  uint64_t tl_resp_ppn = 0, tl_resp_perm = 0;
  bool vic_valid = false;
  uint64_t vic_vpn = 0;
  uint32_t vic_vmid = 0, vic_vrf = 0;
  uint64_t vic_ppn = 0, vic_perm = 0;
  bool sd_ready = false;
  bool sd_done = false;
  // SRAM ports as the controller drives them (defined only when en / we)
  bool tag_en = false, tag_we = false;
  uint32_t tag_set = 0;
  uint64_t tag_way_en = 0;
  Bits tag_wdata;  // A x E
  bool data_en = false, data_we = false;
  uint32_t data_line = 0;
  Bits data_wdata;  // LB x 8
};

// What the edge of the cycle just stepped did, for coverage. Each flag refers
// to that one edge.
struct IcacheTxEvents {
  bool fetch_hit = false, fetch_miss = false;  // I1's compare (a hit's touch is at the next edge)
  bool ifill_took_invalid = false;   // instruction fill into an Invalid way
  bool ifill_evicted_tx = false;     // instruction fill replaced a Tx line
  bool ifill_evicted_ic = false;     // instruction fill replaced an IC line
  bool ifill_evicted_ic_over_tx = false;  // (naive/baseline) an IC line while a Tx line existed in the set
  bool ifill_victim_stale = false;   // accepted way differs from what the accept cycle would choose
  bool flush = false, flush_kept_tx = false;  // a flush; and a Tx line survived it
  bool lookup_miss_not_tx = false;   // lookup answered from ISSUE (line not Tx)
  bool lookup_hit = false, lookup_miss_tx = false;  // answered from CMP
  bool lookup_hit_late_group = false;  // hit found in a group > 0
  bool fill_bypass_ic = false;       // flow 6-7-9-10
  bool fill_init_invalid = false;    // flow 6-7-8 into an Invalid line
  bool fill_init_over_ic = false;    // naive: a translation replaced instructions
  bool fill_into_tx = false;         // fill decided in CMP
  bool fill_replaced_same = false;   // the translation was already there
  bool fill_evicted_lru = false;     // an LRU sub-entry was evicted (flow ...-10-11)
  bool fill_dropped = false;         // the compression dropped an entry
  bool clobbered = false;            // a WRITE was cancelled by the clobber flag
  bool engine_port_wait = false;     // ISSUE or WRITE waited for the port
  bool victim_out = false;           // a victim left at this edge
  bool victim_stalled = false;       // vic_valid with vic_ready low
  bool sd_all = false, sd_vpn_hit = false, sd_emptied_line = false;
  bool resp_stalled = false;         // tl_resp_valid with tl_resp_ready low
};

class IcacheTxModel {
 public:
  // baseline = true models icache_tx_NAME_base_sys (no translations).
  IcacheTxModel(const elab::IcacheTxParams& p, bool baseline);

  // Per cycle: outputs(in) with the inputs held before the rising edge
  // (asynchronous reset applies when in.rst_n is false), then posedge(in).
  IcacheTxOut outputs(const IcacheTxIn& in) const;
  void outputs(const IcacheTxIn& in, IcacheTxOut& out) const;  // into out's storage
  void posedge(const IcacheTxIn& in);
  const IcacheTxEvents& events() const { return events_; }  // of the last posedge

  // Inspection for tests.
  enum class Mode : uint8_t { Invalid, Ic, Tx };
  Mode mode(unsigned line) const;            // line = {way, set}
  std::vector<unsigned> recency(unsigned set) const;  // ways, least recent first
  Bits tag_entry(unsigned set, unsigned way) const;   // E bits (TB for the baseline)
  Bits data_line(unsigned line) const;                // LB x 8
  bool idle() const;                                  // engine IDLE
  // Accesses since construction: tag array (one per enabled cycle, whatever
  // the way enables) and data array.
  const SramAccesses& tag_accesses() const { return tag_accesses_; }
  const SramAccesses& data_accesses() const { return data_accesses_; }

  // Inspection of the translations the cache holds (const; added for the
  // tx_path model's tests, no behaviour). A held translation is a valid
  // sub-entry of a Tx-mode line as stored in the tag and data SRAMs.
  struct HeldTx {
    uint64_t vpn = 0;
    uint32_t vmid = 0, vrf = 0;
    uint64_t ppn = 0, perm = 0;
  };
  std::vector<HeldTx> held() const;
  bool holds(uint64_t vpn, uint32_t vmid, uint32_t vrf) const;
  // Translations the engine carries: an accepted fill not yet written or
  // handed out (ISSUE .. WRITE) and the victims left in VIC.
  std::vector<HeldTx> in_flight() const;
  // A lookup or shootdown by VPN accepted and not finished (ISSUE .. WRITE):
  // its write-back may leave out entries (discarded); *line gets its line.
  bool repack_busy(unsigned* line) const;

  const elab::IcacheTxParams& params() const { return p_; }

  // Register state (controller registers and the SRAMs' read registers; not
  // the SRAM contents, statistics or events), for detecting a cycle that
  // changed nothing (the evaluation's idle skipping), with the count of SRAM
  // writes standing in for the contents. `from` has the same parameters.
  void copy_registers(const IcacheTxModel& from);
  bool same_registers(const IcacheTxModel& o) const;

 private:
  // The registers copy_registers and same_registers cover, listed once.
  template <class M>
  static auto registers_of(M& m) {
    return std::tie(m.sram_writes_, m.regs_, m.tag_rdata_, m.data_rdata_);
  }

  elab::IcacheTxParams p_;
  bool baseline_;
  IcacheTxEvents events_;

  enum class Eng : uint8_t { Idle, Issue, Dec, Cmp, Pack, Write, Vic };
  enum class Op : uint8_t { None, Lookup, Fill, SdVpn };
  // What the translation engine does with the SRAM ports in a cycle.
  enum class EPort : uint8_t { None, Read, Init, Write };

  // One sub-entry of a Tx-mode line with its data slot.
  struct Sub {
    bool valid = false;
    uint32_t rank = 0;
    uint64_t va = 0;
    uint32_t vmid = 0, vrf = 0;
    uint64_t ppn = 0, perm = 0;
    auto key() const { return std::tie(valid, rank, va, vmid, vrf, ppn, perm); }
    bool operator==(const Sub& o) const { return key() == o.key(); }
  };
  struct Victim {
    uint64_t vpn = 0;
    uint32_t vmid = 0, vrf = 0;
    uint64_t ppn = 0, perm = 0;
    auto key() const { return std::tie(vpn, vmid, vrf, ppn, perm); }
    bool operator==(const Victim& o) const { return key() == o.key(); }
  };
  struct PendingTouch {
    bool valid = false;
    uint32_t set = 0, way = 0;
    auto key() const { return std::tie(valid, set, way); }
    bool operator==(const PendingTouch& o) const { return key() == o.key(); }
  };
  // Every register of the controller (reset values in reset_regs_).
  struct Regs {
    std::vector<uint8_t> mode;  // NL, Mode values, index {way, set}
    std::vector<uint8_t> rec;   // NS x A: ways of each set, least recent first
    // instruction pipeline
    bool s1_valid = false;
    uint32_t s1_set = 0;
    uint64_t s1_tag = 0;
    bool s2_valid = false, s2_hit = false;
    uint32_t s2_set = 0, s2_way = 0;  // the hit's set and way, touched at the I2 edge
    // instruction fill stage: 0 (F0), 1 (F1), 2 (F2); captured set, F1's victim
    uint8_t fs = 0;
    uint32_t fs_set = 0;
    uint32_t fs_way = 0;
    // translation engine and its request register
    Eng st = Eng::Idle;
    Op op = Op::None;
    uint32_t line = 0;  // L
    uint64_t tag = 0;   // VA tag t
    uint32_t vmid = 0, vrf = 0;
    uint64_t ppn = 0, perm = 0;
    uint32_t cu = 0;
    bool clobber = false;
    unsigned cmp_cycle = 0;  // CMP cycle c (0 .. NG)
    uint32_t cmp_match = 0;  // matches of group c - 1, registered in cycle c - 1
    uint32_t sd_match = 0;   // shootdown matches accumulated over the groups
    std::vector<Sub> dec;    // X: DEC register (normalised ranks)
    // candidate registered at the decision (CMP edge), packed by PACK
    std::vector<Sub> cand;   // X
    int cand_evicted = -1;   // sub-entry of dec a fill evicts (-1: none)
    Bits packed_entry;       // E, registered by PACK
    uint32_t packed_dropped = 0;  // the compression's dropped mask, registered by PACK
    // victim list in VIC
    std::vector<Victim> vic;
    unsigned vic_head = 0;
    // lookup response register, done pulses, round-robin pointers
    bool resp_valid = false, resp_hit = false;
    uint32_t resp_cu = 0;
    uint64_t resp_ppn = 0, resp_perm = 0;
    bool flush_done = false, sd_done = false;
    unsigned rr_lk = 0, rr_tf = 0;
    // The engine's touch, registered at the edge where the engine decides it
    // and applied to the recency at the next edge.
    PendingTouch pending_touch;
    // every field above (same_registers)
    auto key() const {
      return std::tie(mode, rec, s1_valid, s1_set, s1_tag, s2_valid, s2_hit, s2_set, s2_way, fs, fs_set, fs_way, st,
                      op, line, tag, vmid, vrf, ppn, perm, cu, clobber, cmp_cycle, cmp_match, sd_match, dec, cand,
                      cand_evicted, packed_entry, packed_dropped, vic, vic_head, resp_valid, resp_hit, resp_cu,
                      resp_ppn, resp_perm, flush_done, sd_done, rr_lk, rr_tf, pending_touch);
    }
    bool operator==(const Regs& o) const { return key() == o.key(); }
  };
  // Combinational decisions of one cycle.
  struct Comb {
    bool ifill_ready = false, ifill_fire = false, if_ready = false, if_fire = false;
    unsigned ifill_set = 0, ifill_way = 0;  // the captured set and F1's victim
    uint64_t ifill_tag = 0;
    unsigned f1_way = 0;  // the victim F1 chooses (fs = 1)
    bool i1_hit = false;
    unsigned i1_way = 0;
    bool port_free = false;
    bool flush_ready = false, flush_fire = false, sd_ready = false, sd_fire = false;
    bool lk_ok = false, tf_ok = false, lk_fire = false, tf_fire = false;
    int lk_grant = -1, tf_grant = -1;
    EPort eport = EPort::None;
  };

  void validate() const;
  Comb comb(const Regs& r, const IcacheTxIn& in) const;
  void drive_ports(const Regs& r, const IcacheTxIn& in, const Comb& c, IcacheTxOut& o) const;
  unsigned addr_set(uint64_t a) const;
  uint64_t addr_tag(uint64_t a) const;
  unsigned vpn_line(uint64_t vpn) const;
  uint64_t vpn_tag(uint64_t vpn) const;
  uint64_t rebuild_vpn(uint64_t va_tag, unsigned line) const;
  unsigned lru_of(const Regs& r, unsigned set, uint64_t way_mask) const;
  uint64_t ways_in_mode(const Regs& r, unsigned set, Mode m) const;
  unsigned ifill_victim(const Regs& r, unsigned set) const;
  void touch(Regs& r, unsigned set, unsigned way) const;
  void register_engine_touch(Regs& r) const;
  Bits itag_entry(uint64_t tag) const;
  Bits tx_entry(const std::vector<Sub>& cand, uint32_t& dropped) const;
  Bits tx_line(const std::vector<Sub>& cand, uint32_t keep) const;
  std::vector<Sub> init_candidate(const Regs& r) const;
  Bits written_line(const Regs& r) const;
  std::vector<Victim> write_victims(const Regs& r) const;
  void step_fill_stage(Regs& r, const IcacheTxIn& in, const Comb& c) const;
  void step_fetch_pipeline(Regs& r, const IcacheTxIn& in, const Comb& c);
  void unpack(Regs& r) const;
  uint32_t compare_group(const Regs& r, unsigned g) const;
  void decide(Regs& r, std::vector<Sub> cand, int evicted) const;
  void load_miss_response(Regs& r);
  void eval_lookup(Regs& r, unsigned g);
  void eval_fill(Regs& r, unsigned g);
  void eval_shootdown(Regs& r, unsigned g, bool& sd_done);
  void do_cmp(Regs& r, bool& sd_done);
  void pack(Regs& r) const;
  void do_write(Regs& r, const Comb& c, bool& sd_done);
  void apply_ports(const IcacheTxOut& ports);
  void held_of_line(unsigned line, std::vector<HeldTx>& v) const;

  std::optional<BdCodecModel> codec_;
  unsigned entry_bits_ = 0;  // E (TB for the baseline)
  Regs reset_regs_;
  Regs regs_;
  std::vector<Bits> tag_mem_;    // NS x A entries of entry_bits_ (no reset)
  std::vector<Bits> tag_rdata_;  // A entries (no reset)
  std::vector<Bits> data_mem_;   // NL lines (no reset)
  Bits data_rdata_;              // (no reset)
  uint64_t sram_writes_ = 0;     // tag and data SRAM write accesses so far (same_registers)
  SramAccesses tag_accesses_, data_accesses_;  // statistics, not registers
};

}  // namespace txgen::model
