// The environment of the translation path for trace-driven evaluation
// (docs/verification.md, "Evaluation"): the CUs replaying a trace, the fetch
// units and kernel boundaries, the work-group dispatchers holding LDS
// segments, and a behavioural L2-TLB with page walks behind the path's L2
// port. It drives model::TxPathIn from model::TxPathOut cycle by cycle, so it
// runs the Verilated path and the golden model alike.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <unordered_map>
#include <string>
#include <utility>
#include <vector>

#include "cu_traffic.h"
#include "iommu_behind.h"
#include "model/tx_path.h"
#include "txgen/elab/tx_path.h"
#include "txgen/trace/trace.h"

namespace txgen::verif {
class EvalProgress;  // eval_progress.h
}

namespace txgen::verif {

struct EvalOptions {
  unsigned l2_latency = 188;    // L2-TLB access (seed 000 Table 1)
  unsigned walk_latency = 400;  // page walk after an L2-TLB miss
  unsigned l2_entries = 512;    // seed 000 Table 1: 512 entries, 16-way
  unsigned l2_ways = 16;
  TrafficOptions traffic;       // the CUs' issue model (cu_traffic.h)
  bool flush_every_kernel = false;  // a kernel flush of the I-caches at every kernel boundary, not only
                                    // when a different kernel follows (seed 000 4.3.3, 6.1.2)
  unsigned fetch_interval = 8;  // cycles between instruction fetches of an I-cache
  unsigned ifill_latency = 40;  // an instruction miss is filled this much later
  bool fetch_when_stalled = false;  // fetch while every CU of the I-cache waits on translations
  bool skip_idle = true;            // jump over cycles in which nothing can happen
  bool skip_by_drain = false;       // the model engine settles by the drain bound, as the RTL engine (its tests)
  bool pipelined_wires = false;     // txn what-if: the lookup stage takes the next miss during a wire
  uint64_t max_cycles = 200000000;
  // The generated L2-TLB and IOMMU behind the path's L2 port (iommu_behind.h);
  // nullptr: the behavioural L2-TLB above (l2_latency, walk_latency, l2_entries, l2_ways).
  const elab::IommuParams* iommu = nullptr;
  IommuEvalOptions iommu_eval;  // its wires and memory (l2_latency is copied in)
  EvalProgress* progress = nullptr;  // the engines add the requests they replay
};

struct EvalStats {
  uint64_t cycles = 0, requests = 0, l1_hits = 0, l1_misses = 0, lds_hits = 0, icache_hits = 0;
  uint64_t l2_requests = 0, l2_hits = 0, walks = 0, l2_victims = 0, ifetches = 0, ifetch_misses = 0;
  double latency_mean = 0;
  uint64_t latency_p99 = 0;
  uint64_t instructions = 0;           // memory instructions completed
  double instruction_latency_mean = 0;  // issued -> last page answered
  uint64_t instruction_latency_p99 = 0;
  double spread_mean = 0;              // an instruction's first answer -> its last
  uint64_t spread_p99 = 0;
  uint64_t stall_cycles = 0;           // CU-cycles stalled (TrafficFigures)
  // the generated L2-TLB and IOMMU only (IommuFigures)
  bool generated_l2 = false;
  uint64_t l2_merges = 0, pte_reads = 0, buffer_max = 0;
  double buffer_mean = 0;              // IOMMU buffer occupancy over the whole run
  double walk_gap_mean = 0;            // an instruction's first walk answered -> its last (two or more walks)
  uint64_t walk_gap_p99 = 0, walk_gap_instructions = 0;
  // SRAM accesses (the golden model's counts; sram_counted false for an
  // engine that cannot count them: the RTL's and the transaction level's)
  bool sram_counted = false;
  uint64_t lds_bank_reads = 0, lds_bank_writes = 0, ic_tag_reads = 0, ic_tag_writes = 0;
  uint64_t ic_data_reads = 0, ic_data_writes = 0;
  bool finished = false;
};

// The replay's latency, instruction and stall figures from its CUs' traffic.
void summarise_traffic(const std::vector<const TrafficFigures*>& cus, EvalStats& s);
// The same from an engine's CUs (each with a `traffic` member).
template <class Cus>
void summarise_cus(const Cus& cus, EvalStats& s) {
  std::vector<const TrafficFigures*> figures;
  for (const auto& c : cus) figures.push_back(&c.traffic.figures());
  summarise_traffic(figures, s);
}
// The generated L2-TLB's and IOMMU's figures into the run's (hits, walks, buffer, walk gaps).
void summarise_iommu(const IommuFigures& f, EvalStats& s);
// Whether the I-caches get a kernel flush before kernel `next`.
bool flushes_at(const std::vector<trace::Kernel>& kernels, size_t next, bool every_kernel);

// A set-associative LRU L2-TLB with a fixed access latency and page walks
// behind it; the path's victims are inserted like fills.
class L2TlbModel {
 public:
  L2TlbModel(unsigned entries, unsigned ways);
  bool lookup(uint64_t vpn, uint64_t vmid, uint64_t now);  // touches on a hit
  void insert(uint64_t vpn, uint64_t vmid, uint64_t now);

 private:
  struct Way {
    bool valid = false;
    uint64_t key = 0, used = 0;
  };
  std::vector<Way>& set_of(uint64_t key);
  unsigned ways_;
  std::vector<std::vector<Way>> sets_;
};

// The mean and 99th percentile of a list of latencies.
void mean_and_p99(std::vector<uint64_t> latencies, double& mean, uint64_t& p99);

class PathEnvironment {
 public:
  PathEnvironment(const elab::TxPathParams& p, const trace::Trace& t, const EvalOptions& o, bool baseline);
  // Inputs of the cycle, from the state after the previous cycle.
  const model::TxPathIn& inputs(uint64_t cycle);
  // The path's outputs of the cycle (before its edge): bookkeeping of every handshake.
  void observe(uint64_t cycle, const model::TxPathOut& out);
  bool done() const { return kernel_ >= trace_.kernels.size(); }
  // Whether the engine should check the coming cycle's step for a fixed point
  // (its registers unchanged by it): after 4, 8, 16, ... quiet cycles, so the
  // checks cost little against the cycles they save.
  bool watch_next() const;
  // The cycle to simulate after `cycle` (observed): the next one, or, when the
  // path has settled and no input can change before some later cycle, that
  // cycle (every skipped cycle would have idle inputs and no effect). Settled:
  // `cycle` quiet and `fixed_point` true (the engine saw that cycle change no
  // register, so with the same inputs nothing ever changes); for an engine
  // that cannot tell (nullopt), `drain` quiet cycles.
  uint64_t next_cycle(uint64_t cycle, std::optional<bool> fixed_point);
  uint64_t skipped() const { return skipped_; }
  uint64_t accepted() const { return s_.requests; }  // requests the path took so far
  EvalStats stats() const;

 private:
  struct Pending {  // an L2 request being served
    uint64_t tag, vpn, vmid, due;
    bool walks;  // this request's page walk installs the page when it answers
  };
  struct Cu {
    explicit Cu(const TrafficOptions& o) : traffic(o) {}
    CuTraffic traffic;
    bool wg_free_sent = false, wg_alloc_sent = false;
    unsigned held = 0;  // LDS segments its work groups hold
  };
  struct Fetch {
    uint64_t pc = 0, next_at = 0, fill_at = 0;
    bool waiting = false, filling = false, flushing = false;
    uint64_t miss_addr = 0;
  };
  void start_kernel(uint64_t cycle);
  void drive_cu(unsigned u, uint64_t cycle);
  void drive_fetch(unsigned g, uint64_t cycle);
  void drive_l2(uint64_t cycle);
  bool refused(unsigned u, uint64_t cycle) const;
  bool fetch_allowed(unsigned g, uint64_t cycle) const;
  void count_owed_done(const model::TxPathOut& out);
  bool active(uint64_t cycle, const model::TxPathOut& out) const;
  uint64_t next_event(uint64_t cycle) const;
  bool kernel_finished() const;
  uint64_t code_addr(unsigned g) const;
  uint64_t instruction_id(unsigned u) const;
  uint64_t l2_request_instruction(const model::TxPathOut& out) const;
  void check_translation(unsigned u, uint64_t vpn, uint64_t vmid, uint64_t ppn) const;
  void observe_behavioural_l2(uint64_t cycle, const model::TxPathOut& out);

  const elab::TxPathParams& p_;
  const trace::Trace& trace_;
  EvalOptions o_;
  bool baseline_;
  model::TxPathIn in_;
  L2TlbModel l2_;
  std::vector<Cu> cu_;
  std::vector<Fetch> fetch_;
  std::vector<std::unordered_map<uint64_t, uint64_t>> instruction_of_;  // per CU: page -> instruction that sent it
  std::unordered_map<uint64_t, uint64_t> full_instruction_;             // IW-bit ID -> the instruction sent last with it
  std::unique_ptr<IommuBehind> behind_;  // the generated L2-TLB and IOMMU, when o.iommu
  std::deque<Pending> l2q_;
  std::map<uint64_t, uint64_t> walking_;  // page -> when its walk answers
  size_t answering_ = 0;
  size_t kernel_ = 0;
  bool kernel_started_ = false;
  EvalStats s_;
  // idle skipping
  uint64_t drain_ = 0;      // quiet cycles after which nothing is left in flight inside the path
  uint64_t settle_ = 0;     // first cycle that may be skipped (the LDSs' reset clear is over)
  uint64_t quiet_ = 0;      // consecutive cycles without a valid on any port
  unsigned done_owed_ = 0;  // accepted work-group and flush operations whose done pulse is due
  uint64_t skipped_ = 0;    // cycles jumped over
};

}  // namespace txgen::verif
