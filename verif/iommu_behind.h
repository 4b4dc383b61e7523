// The generated L2-TLB and IOMMU behind the path's L2 port in trace-driven
// evaluation (docs/verification.md, "The generated L2-TLB and IOMMU behind
// the path"): the golden model of iommu_NAME_sys stepped cycle by cycle,
// wires of fixed latency between it and the path, and memory below it (the
// page table of page_table.h, a latency per PTE read and channels that each
// take one read every `pte_interval` cycles, chosen by the PTE's line).
#pragma once

#include <cstdint>
#include <deque>
#include <unordered_map>
#include <vector>

#include "model/iommu.h"
#include "model/tx_path.h"
#include "page_table.h"
#include "txgen/elab/iommu.h"
#include "txgen/elab/tx_path.h"

namespace txgen::verif {

struct IommuEvalOptions {
  unsigned l2_latency = 188;  // an L2-TLB hit's round trip from the path (seed 000 Table 1), wires included
  unsigned pte_latency = 100;  // one PTE read: a full four-level walk is then ~400 cycles, the behavioural L2's
  unsigned pte_interval = 1;   // cycles between two reads one memory channel takes
  unsigned pte_channels = 2;   // seed 002 Table I: 2 DRAM channels; PTE lines interleaved over them
};

struct IommuFigures {
  uint64_t l2_hits = 0, l2_merges = 0;      // lookups that hit; that joined a walk's MSHR
  uint64_t walks = 0, pte_reads = 0;  // leaf answers; memory reads
  // IOMMU buffer occupancy summed over the cycles stepped (it is empty in
  // every skipped one), and its peak
  uint64_t buffer_sum = 0, buffer_max = 0;
  std::vector<uint64_t> walk_gap;  // per instruction with two or more walks: first walk answered -> last
};

class IommuBehind {
 public:
  IommuBehind(const elab::IommuParams& p, const elab::TxPathParams& path, const IommuEvalOptions& o);
  // The path's L2-port inputs of the cycle (answers due, readies).
  void drive(uint64_t cycle, model::TxPathIn& in);
  // The path's handshakes of the cycle, then the L2-TLB's and IOMMU's own
  // cycle and edge. `instruction` names the instruction of the L2 request
  // the path presents in this cycle (its low IW bits travel to the IOMMU).
  void step(uint64_t cycle, const model::TxPathIn& in, const model::TxPathOut& out, uint64_t instruction);
  // Whether it must be stepped in every cycle (see iommu_behind.cpp).
  bool busy() const;
  // The first cycle >= `cycle` at which it needs a step: `cycle` while busy,
  // else when a wire delivers (UINT64_MAX: nothing in flight).
  uint64_t next_event(uint64_t cycle) const;
  // Every instruction so far has completed (a kernel ended): their walk gaps
  // go into the figures and their records are dropped.
  void close_instructions();
  const IommuFigures& figures();
  const PageTable& page_table() const { return pt_; }
  PageTable& page_table() { return pt_; }

 private:
  struct Request {
    uint64_t due, vpn, vmid, tag, iid;
  };
  struct Victim {
    uint64_t due, vpn, vmid, ppn, perm;
  };
  struct Answer {
    uint64_t due, tag, ppn, perm;
  };
  struct Read {
    uint64_t due;
    unsigned walker, level;
    uint64_t vpn, vmid;
  };
  struct Gap {
    uint64_t first = 0, last = 0, walks = 0;
  };
  void drive_sys(uint64_t cycle);
  void take_path(uint64_t cycle, const model::TxPathIn& in, const model::TxPathOut& out, uint64_t instruction);
  void take_sys(uint64_t cycle);
  void note_walk_request();
  void note_leaf(const Read& r, uint64_t cycle);
  unsigned channel_of(uint64_t vmid, uint64_t vpn, unsigned level);
  bool sys_idle() const;

  elab::IommuParams p_;
  IommuEvalOptions o_;
  unsigned wire_req_, wire_resp_;
  model::IommuSysModel sys_;
  model::IommuSysIn sin_;
  model::IommuSysOut sout_;
  PageTable pt_;
  std::deque<Request> req_wire_;
  std::deque<Victim> vic_wire_;
  std::deque<Answer> resp_wire_;
  std::vector<Read> reads_;              // PTE reads in memory
  int answering_ = -1;                   // the read answered in this cycle
  std::vector<uint64_t> channel_free_;   // first cycle each channel takes a read again
  std::unordered_map<uint64_t, uint64_t> walk_instruction_;  // {VMID, VPN} -> instruction of its walk
  std::unordered_map<uint64_t, uint64_t> full_instruction_;  // IW-bit ID -> the instruction that sent it last
  std::unordered_map<uint64_t, Gap> gaps_;                   // instruction -> its walks' answers
  uint64_t iid_mask_;
  IommuFigures f_;
};

}  // namespace txgen::verif
