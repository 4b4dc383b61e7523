// One CU's translation traffic in a trace replay (docs/verification.md,
// "Replay"): which page the CU presents to its L1-TLB port in a cycle, under
// one of two issue models shared by every engine of `txgen eval`:
//  - wavefront (default): the CU's wavefronts (at most the kernel's wavefront
//    slots at once, started in the order they first appear) each issue their
//    next memory instruction `compute_gap x compute_cycles` cycles after the
//    previous one completed; the CU issues at most one memory instruction a
//    cycle (round robin over the ready wavefronts); the instruction's pages
//    enter the CU's queue and are presented one a cycle, a page the CU already
//    waits for joining that request; the wavefront waits until every page of
//    the instruction has returned;
//  - outstanding (earlier tables): the CU's requests in stream order, at most
//    `outstanding` distinct pages awaited at once.
#pragma once

#include <cstdint>
#include <deque>
#include <vector>

#include "txgen/trace/trace.h"

namespace txgen::verif {

enum class IssueModel { kWavefront, kOutstanding };

struct TrafficOptions {
  IssueModel model = IssueModel::kWavefront;
  unsigned outstanding = 4;      // outstanding model: distinct pages a CU waits for at once
  unsigned wavefront_slots = 0;  // wavefront model: 0 takes each kernel's, else this many
  unsigned compute_cycles = 1;   // cycles a non-memory instruction takes
};

// Per-CU figures, summed over kernels. A stall cycle: the CU has resident
// wavefronts but neither issues a memory instruction nor has a wavefront in
// its compute gap (every one waits on translations, or on the CU's queue);
// outstanding model: it waits on translations and can present nothing.
struct TrafficFigures {
  uint64_t requests = 0, instructions = 0, stall_cycles = 0;
  std::vector<uint64_t> request_latency;      // first presented -> answered, per request
  std::vector<uint64_t> instruction_latency;  // issued -> its last page answered
  std::vector<uint64_t> instruction_spread;   // its first page answered -> its last (seed 002)
};

class CuTraffic {
 public:
  static constexpr uint64_t kNever = UINT64_MAX;

  explicit CuTraffic(const TrafficOptions& o) : o_(o) {}
  // A kernel starts on this CU in cycle t.
  void start(const trace::Kernel& k, unsigned cu, uint64_t t);
  // The request the CU presents in cycle t (the same one until it is
  // accepted); nullptr when it presents none. Cycles must not decrease.
  const trace::Request* offer(uint64_t t);
  // The offered request was taken in cycle t.
  void accepted(uint64_t t);
  // Every awaited request of this page was answered in cycle t.
  void answered(uint64_t vpn, uint64_t t);
  // The first cycle >= t at which offer() can return a request without an
  // answer arriving first (kNever: it waits on answers or is done).
  uint64_t next_offer(uint64_t t) const;
  // Whether the CU issues instructions in cycle t (the I-caches fetch only for
  // such CUs): a wavefront that does not wait on translations.
  bool issuing(uint64_t t) const;
  // The CU presented a request in cycle t for the first time (refused ones
  // not counted again).
  bool presented_first_at(uint64_t t) const { return presented_at_ == t; }
  bool presenting() const { return presenting_; }
  // The instruction of the request presented (an index into the kernel's
  // instructions of this CU; outstanding model: the request's stream index).
  uint32_t presented_instruction() const { return presented_instr_; }
  bool finished() const;
  size_t awaited() const { return in_flight_.size(); }
  TrafficFigures& figures() { return f_; }
  const TrafficFigures& figures() const { return f_; }

 private:
  struct Wave {
    uint32_t id = 0;
    std::vector<uint32_t> instructions;  // indices into the kernel's instructions of this CU
    size_t next = 0;                     // next instruction
    uint64_t gap_from = 0, ready_at = 0;  // computing its gap in [gap_from, ready_at), then ready
    uint32_t awaited = 0;                // pages of its issued instruction not answered
    uint64_t issued_at = 0, first_answer = kNever;
  };
  struct Queued {
    trace::Request page;
    uint32_t wave;   // slot of the resident wave it belongs to
    uint32_t instr;  // its instruction
  };
  struct InFlight {
    uint64_t key, presented_at;
    std::vector<uint32_t> waves;  // slots waiting on it
  };
  uint64_t gap_cycles(const Wave& w) const;
  void admit(uint64_t t);
  void issue(uint64_t t);
  void wave_answered(uint32_t slot, uint64_t t);
  void set_stalled(bool stalled, uint64_t t);
  void account(uint64_t t);
  bool stalled() const;
  bool outstanding_can_present() const;
  const trace::Request* offer_outstanding(uint64_t t);
  const trace::Request* offer_wavefront(uint64_t t);
  InFlight* find_in_flight(uint64_t key);

  TrafficOptions o_;
  const trace::Kernel* k_ = nullptr;
  unsigned cu_ = 0;
  const std::vector<trace::Request>* stream_ = nullptr;
  const std::vector<trace::Instruction>* instrs_ = nullptr;
  std::vector<trace::Instruction> implicit_;  // a CU without instructions: one per request
  std::vector<uint64_t> first_page_;          // per instruction: its first request in the stream
  // wavefront model
  std::vector<Wave> waiting_;  // wavefronts not yet started, in order of appearance
  size_t next_waiting_ = 0;
  std::vector<Wave> slots_;    // resident wavefronts
  std::vector<bool> slot_used_;
  unsigned slot_count_ = 0, resident_ = 0, blocked_ = 0;  // blocked: resident waves awaiting answers
  unsigned rr_ = 0;
  uint64_t last_issue_ = kNever;
  std::deque<Queued> queue_;
  bool was_stalled_ = false;   // every resident wavefront waits on translations (from stalled_since_)
  uint64_t stalled_since_ = 0;
  uint64_t accounted_ = 0;     // wavefront model: stall cycles counted up to here
  // outstanding model
  size_t next_ = 0;
  // both
  bool presenting_ = false;
  trace::Request presented_{};
  uint32_t presented_wave_ = 0;
  uint32_t presented_instr_ = 0;
  uint64_t presented_at_ = kNever;  // first cycle of the last request presented
  std::vector<InFlight> in_flight_;
  TrafficFigures f_;
};

// Key of a page in an address space.
inline uint64_t page_key(uint64_t vpn, uint64_t vmid) { return (vpn << 8) | vmid; }

}  // namespace txgen::verif
