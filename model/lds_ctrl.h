// Golden cycle model of the reconfigurable LDS controller together with its
// behavioural SRAM (the lds_ctrl_NAME_sys co-simulation top), written from
// docs/blocks/lds_ctrl.md alone. Shares only the elaborated widths
// (txgen/elab/lds_ctrl.h) with the generator, never its emission code.
#pragma once

#include <cstdint>
#include <tuple>
#include <vector>

#include "model/bd_codec.h"
#include "model/util.h"
#include "txgen/elab/lds_ctrl.h"

namespace txgen::model {

// Inputs of lds_ctrl_NAME_sys for one cycle (held before the rising edge).
struct LdsCtrlIn {
  bool rst_n = true;
  // application port
  bool app_valid = false;
  bool app_we = false;
  uint32_t app_row = 0;
  uint64_t app_bank_en = 0;  // NB <= 64 bits
  Bits app_wdata;            // RB x 8 bits
  // work group
  bool wg_valid = false;
  bool wg_free = false;
  uint32_t wg_base = 0;
  uint32_t wg_size = 0;
  // shootdown
  bool sd_valid = false;
  bool sd_all = false;
  uint64_t sd_vpn = 0;
  uint32_t sd_vmid = 0;
  // lookup and its response
  bool lk_valid = false;
  uint64_t lk_vpn = 0;
  uint32_t lk_vmid = 0;
  uint32_t lk_vrf = 0;
  bool lk_resp_ready = false;
  // fill and victim
  bool fill_valid = false;
  uint64_t fill_vpn = 0;
  uint32_t fill_vmid = 0;
  uint32_t fill_vrf = 0;
  uint64_t fill_ppn = 0;
  uint64_t fill_perm = 0;
  bool vic_ready = false;
};

// Outputs of lds_ctrl_NAME_sys in that cycle.
struct LdsCtrlOut {
  bool app_rvalid = false;
  Bits app_rdata;  // RB x 8
  bool wg_ready = false;
  bool wg_done = false;
  bool sd_ready = false;
  bool sd_done = false;
  bool lk_ready = false;
  bool lk_resp_valid = false;
  bool lk_resp_hit = false;
  uint64_t lk_resp_ppn = 0;
  uint64_t lk_resp_perm = 0;
  bool fill_ready = false;
  bool vic_valid = false;
  uint64_t vic_vpn = 0;
  uint32_t vic_vmid = 0;
  uint32_t vic_vrf = 0;
  uint64_t vic_ppn = 0;
  uint64_t vic_perm = 0;
  // the SRAM port as the controller drives it
  bool sram_en = false;
  bool sram_we = false;
  uint32_t sram_row = 0;
  uint64_t sram_bank_en = 0;
  Bits sram_wdata;  // RB x 8
};

// What the edge of the cycle just stepped did, for coverage and invariant
// checks. All flags refer to that one edge.
struct LdsCtrlEvents {
  bool lookup_bypass = false;     // lookup issued to an LDS-mode segment
  bool lookup_hit = false;        // CMP found the translation
  bool lookup_miss = false;       // CMP in a Tx-mode segment, no match
  bool fill_bypass = false;       // fill into an allocated segment
  bool fill_init = false;         // fill initialised a free segment
  bool fill_update = false;       // CMP: the translation was already there
  bool fill_insert_invalid = false;
  bool fill_evict_lru = false;
  bool fill_dropped = false;      // WRITE: compression left entries out
  bool write_cancelled = false;   // WRITE found the segment LDS-mode
  bool write_stalled = false;     // WRITE waited for the application
  bool sd_vpn_hit = false;        // CMP of a shootdown invalidated entries
  bool sd_vpn_miss = false;       // shootdown by VPN found nothing
  bool sd_all = false;            // shootdown-all accepted
  bool alloc = false;
  bool alloc_over_tx = false;     // a CLEAR cycle turned a Tx-mode segment to LDS-mode
  bool free_op = false;
  bool app_write_over_tx = false; // an application write turned a Tx segment LDS-mode
  bool victim_out = false;        // a victim was handed out
  bool victim_stalled = false;    // vic_valid with vic_ready low
};

class LdsCtrlModel {
 public:
  explicit LdsCtrlModel(const elab::LdsCtrlParams& p);

  // Per cycle: outputs(in) with the inputs held before the rising edge
  // (asynchronous reset applies when in.rst_n is false), then posedge(in).
  LdsCtrlOut outputs(const LdsCtrlIn& in) const;
  void outputs(const LdsCtrlIn& in, LdsCtrlOut& out) const;  // into out's storage
  void posedge(const LdsCtrlIn& in);
  const LdsCtrlEvents& events() const { return events_; }  // of the last posedge

  // Inspection for model-level tests.
  bool mode_bit(unsigned segment) const;
  bool allocated(unsigned segment) const;
  Bits sram_row_data(unsigned row) const;  // RB x 8 bits
  bool idle() const;
  // Bank accesses since construction (each enabled bank of an access; a reset clears nothing).
  const SramAccesses& bank_accesses() const { return bank_accesses_; }

  // Inspection of the translations the controller holds (const; added for
  // the tx_path model's tests, no behaviour). A held translation is a valid
  // entry of a Tx-mode segment as stored in the SRAM (tag words decoded,
  // data from its slot).
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
  // A shootdown by VPN accepted and not finished (ISSUE .. WRITE); *segment
  // gets its segment.
  bool shootdown_busy(unsigned* segment) const;

  const elab::LdsCtrlParams& params() const { return p_; }

  // Register state (controller registers, mode bits, SRAM read register; not
  // the SRAM contents, statistics or events), for detecting a cycle that
  // changed nothing (the evaluation's idle skipping), with the count of SRAM
  // writes standing in for the contents. `from` has the same parameters.
  void copy_registers(const LdsCtrlModel& from);
  bool same_registers(const LdsCtrlModel& o) const;

 private:
  // The registers copy_registers and same_registers cover, listed once.
  template <class M>
  static auto registers_of(M& m) {
    return std::tie(m.sram_writes_, m.regs_, m.mode_, m.rdata_);
  }

  elab::LdsCtrlParams p_;
  BdCodecModel codec_;
  LdsCtrlEvents events_;

  // Engine states and the operation the engine is working on.
  enum class Eng : uint8_t { Idle, Issue, Wg, Clear, Dec, Cmp, Write, Vic };
  enum class Op : uint8_t { None, Reset, Alloc, Free, SdAll, SdVpn, Lookup, Fill };
  // Who drives the SRAM port in a cycle.
  enum class Port : uint8_t { None, App, Read, Init, Write };

  struct Victim {
    uint64_t vpn = 0;
    uint32_t vmid = 0;
    uint32_t vrf = 0;
    uint64_t ppn = 0;
    uint64_t perm = 0;
    auto key() const { return std::tie(vpn, vmid, vrf, ppn, perm); }
    bool operator==(const Victim& o) const { return key() == o.key(); }
  };
  struct TableEntry {
    bool valid = false;
    uint32_t base = 0;
    uint32_t size = 0;  // as allocated (SI+1 bits); a free matches base and size
    uint32_t end = 0;   // min(base + size, S)
    auto key() const { return std::tie(valid, base, size, end); }
    bool operator==(const TableEntry& o) const { return key() == o.key(); }
  };
  // Every controller register (the mode bits and the SRAM live apart: the
  // first have no reset, the second belongs to the SRAM).
  struct Regs {
    Eng st = Eng::Clear;
    Op op = Op::Reset;
    uint32_t clear_lo = 0, clear_hi = 0, clear_group = 0, clear_last = 0;
    // the request in flight, registered at its accept edge (op says which)
    uint32_t seg = 0;
    uint64_t tag = 0;
    uint32_t vmid = 0, vrf = 0;
    uint64_t ppn = 0, perm = 0;
    // a work-group request (op Alloc or Free), registered at its accept edge
    // and carried out in WG (A+1): base (SI bits) and size (SI+1 bits)
    uint32_t wg_base = 0, wg_size = 0;
    // DEC register: the segment read in I, unpacked in I+1 (entries as the
    // decompressor gives them, slots split into PPN and permissions); CMP in
    // I+2 works on it, never on the SRAM read register
    std::vector<BdTag> dec_e;                     // N entries
    std::vector<uint64_t> dec_ppn, dec_perm;      // N slots
    // CMP result: the segment image WRITE stores, its banks, and the victims
    // the fill hands out when the write happens
    std::vector<uint64_t> image;  // SB / 8 words
    uint64_t image_banks = 0;
    bool image_dropped = false;
    std::vector<Victim> pend;  // N entries
    unsigned pend_n = 0;
    // victim buffer
    std::vector<Victim> vic;  // N entries
    unsigned vic_n = 0, vic_head = 0;
    // allocation table
    std::vector<TableEntry> table;  // K entries
    unsigned table_valid = 0;
    // lookup response register, done pulses, application read valid
    bool resp_valid = false, resp_hit = false;
    uint64_t resp_ppn = 0, resp_perm = 0;
    bool wg_done = false, sd_done = false, app_rvalid = false;
    // every field above (same_registers)
    auto key() const {
      return std::tie(st, op, clear_lo, clear_hi, clear_group, clear_last, seg, tag, vmid, vrf, ppn, perm, wg_base,
                      wg_size, dec_e, dec_ppn, dec_perm, image, image_banks, image_dropped, pend, pend_n, vic, vic_n,
                      vic_head, table, table_valid, resp_valid, resp_hit, resp_ppn, resp_perm, wg_done, sd_done,
                      app_rvalid);
    }
    bool operator==(const Regs& o) const { return key() == o.key(); }
  };
  // Combinational decisions of one cycle.
  struct Comb {
    bool wg_ready = false, sd_ready = false, lk_ready = false, fill_ready = false;
    bool wg_fire = false, sd_fire = false, lk_fire = false, fill_fire = false;
    bool issue = false;  // ISSUE and this is the issue cycle I
    Port port = Port::None;
    unsigned seg = 0;  // the segment of an engine-driven access
  };

  Comb comb(const Regs& r, const LdsCtrlIn& in) const;
  bool allocated_in(const Regs& r, unsigned segment) const;
  bool needs_sram(const Regs& r) const;
  unsigned seg_of(uint64_t vpn) const;
  uint64_t tag_of(uint64_t vpn) const;
  uint64_t segment_banks(unsigned segment) const;
  uint64_t tag_word_banks(unsigned segment) const;
  // Segment image of a candidate; returns the compressor's dropped mask.
  uint32_t make_image(const std::vector<BdTag>& cand, const uint64_t* ppn, const uint64_t* perm,
                      std::vector<uint64_t>& image) const;
  void init_image(const Regs& r, std::vector<uint64_t>& image) const;
  void do_dec(Regs& r) const;
  void do_cmp(Regs& r, bool& sd_done);
  void load_app_wdata(const LdsCtrlIn& in);
  void sram_access(uint32_t row, uint64_t bank_en, bool we, const uint64_t* wdata_row);
  Bits row_bits_of(const uint64_t* words) const;
  void row_bits_of(const uint64_t* words, Bits& row) const;
  void validate() const;

  unsigned wpr_ = 0;  // 64-bit words per SRAM row
  unsigned wps_ = 0;  // 64-bit words per segment
  std::vector<unsigned> bank_word_;  // bank -> word of the row
  std::vector<uint64_t> bank_mask_;  // bank -> byte lanes in that word
  Regs reset_regs_;
  Regs regs_;
  std::vector<uint8_t> mode_;    // S mode bits (no reset)
  std::vector<uint64_t> mem_;    // ROWS x wpr_ words (no reset)
  std::vector<uint64_t> rdata_;  // SRAM read-data register, wpr_ words (no reset)
  uint64_t sram_writes_ = 0;     // SRAM write accesses so far (same_registers)
  SramAccesses bank_accesses_;   // statistics, not registers
  std::vector<uint64_t> scratch_;  // a row of write data
  struct CmpScratch {              // do_cmp's working copies, kept to avoid allocation
    std::vector<BdTag> e, cand;
    std::vector<uint64_t> ppn, perm;
    std::vector<unsigned> rank;
  } cmp_;
};

}  // namespace txgen::model
