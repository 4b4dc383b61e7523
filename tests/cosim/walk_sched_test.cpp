// Lock-step co-simulation of walk_sched_NAME against the golden model
// (docs/blocks/walk_sched.md). The build passes TXGEN_SYS_HEADER /
// TXGEN_SYS_CLASS, TXGEN_COSIM_CONFIG and TXGEN_COSIM_CONFIG_NAME. Directed
// tests are named after the document's rules and add explicit expectations
// (dispatch order, accesses) to the cycle-by-cycle comparison.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <deque>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include TXGEN_SYS_HEADER

#include "cosim_gtest.h"
#include "cosim_util.h"
#include "txgen/config/parse.h"
#include "txgen/elab/walk_sched.h"
#include "walk_sched_harness.h"

namespace {

using txgen::elab::WalkSchedParams;
using txgen::verif::CosimSession;
using txgen::verif::expect_passed;
namespace model = txgen::model;

using Sys = txgen::verif::WalkSchedHarness<TXGEN_SYS_CLASS>;

const WalkSchedParams& params() {
  static const WalkSchedParams p =
      txgen::elab::elaborate_walk_sched(txgen::config::load_config_file(TXGEN_COSIM_CONFIG));
  return p;
}

std::string test_name() { return txgen::verif::cosim_test_name(TXGEN_COSIM_CONFIG_NAME); }

// VPN from its four page-table indices (root first); X index bits per level.
uint64_t vpn_of(uint64_t root, uint64_t l2, uint64_t l3, uint64_t leaf) {
  const unsigned x = params().level_bits;
  return (root << (3 * x)) | (l2 << (2 * x)) | (l3 << x) | leaf;
}

struct Dispatch {
  uint32_t walker, iid, acc;
  uint64_t vpn;
  uint64_t cycle;
};

// Drives the scheduler like an IOMMU front end and a set of walkers: requests
// are offered until accepted; walks finish only when the test says so
// (manual) or after acc x latency cycles (automatic).
class Bench {
 public:
  explicit Bench(Sys& sys) : sys_(sys), in_(sys.idle()) {}

  void reset() {
    in_ = sys_.idle();
    in_.rst_n = false;
    step();
    in_.rst_n = true;
    walks_.clear();
    finished_.clear();
  }

  // Offers one request (valid held until ready) until accepted; returns the
  // cycle it was accepted in.
  uint64_t send(uint64_t vpn, uint32_t iid) {
    in_.req_valid = true;
    in_.req_vpn = vpn;
    in_.req_iid = iid;
    for (unsigned guard = 0; !sys_.model().outputs(in_).req_ready; ++guard) {
      if (guard == 20000) throw std::runtime_error("request never accepted (buffer full and no walk finishing)");
      step();
    }
    const uint64_t accepted = cycle_;
    step();
    in_.req_valid = false;
    return accepted;
  }

  void run(unsigned cycles) {
    for (unsigned i = 0; i < cycles; ++i) step();
  }

  // Completes walker w's walk in the next cycle.
  void finish(uint32_t w) {
    finish_with_next_step(w);
    step();
  }

  // Completes walker w's walk in the cycle of the next step, whatever else
  // that step does (e.g. the cycle a request is accepted in).
  void finish_with_next_step(uint32_t w) {
    in_.done_valid = true;
    in_.done_walker = w;
    in_.done_vpn = walks_.at(w);
    clear_done_ = true;
  }

  // Automatic completion: every walk takes acc x latency cycles.
  void auto_finish(unsigned latency) { latency_ = latency; }

  model::WalkSchedIn& in() { return in_; }
  const std::vector<Dispatch>& dispatches() const { return log_; }
  model::WalkSchedOut last() const { return last_; }
  uint64_t cycle() const { return cycle_; }
  // edges so far at which a removal and an append met (the model's event)
  uint64_t removes_with_append() const { return removes_with_append_; }

 private:
  void step() {
    if (latency_ && !in_.done_valid && !finished_.empty() && finished_.front().first <= cycle_) {
      in_.done_valid = true;
      in_.done_walker = finished_.front().second;
      in_.done_vpn = walks_.at(finished_.front().second);
      finished_.pop_front();
      clear_done_ = true;
    } else if (latency_) {
      in_.done_valid = false;
    }
    last_ = sys_.step(in_);
    const uint64_t this_cycle = cycle_++;
    if (sys_.model().events().collapse_with_append) ++removes_with_append_;
    if (clear_done_) {
      in_.done_valid = false;
      clear_done_ = false;
    }
    if (!last_.disp_valid) return;
    log_.push_back({last_.disp_walker, last_.disp_iid, last_.disp_acc, last_.disp_vpn, this_cycle});
    walks_[last_.disp_walker] = last_.disp_vpn;
    if (latency_) finished_.push_back({cycle_ + uint64_t{latency_} * last_.disp_acc, last_.disp_walker});
    std::sort(finished_.begin(), finished_.end());
  }

  Sys& sys_;
  model::WalkSchedIn in_;
  model::WalkSchedOut last_;
  std::vector<Dispatch> log_;
  std::map<uint32_t, uint64_t> walks_;                 // walker -> VPN it walks
  std::deque<std::pair<uint64_t, uint32_t>> finished_;  // (due cycle, walker)
  unsigned latency_ = 0;
  uint64_t cycle_ = 0;
  uint64_t removes_with_append_ = 0;
  bool clear_done_ = false;
};

template <class Body>
void directed(bool simt_only, Body body) {
  if (simt_only && !params().simt()) GTEST_SKIP() << "a rule of the SIMT-aware policy";
  expect_passed(txgen::verif::run_cosim(test_name(), txgen::verif::seed_from_env(), [&](CosimSession& s) {
    Sys sys(s, params());
    Bench b(sys);
    b.reset();
    body(s, b);
  }));
}

void expect_count(CosimSession& s, const char* what, uint64_t want, uint64_t got) {
  s.expect_equal(what, std::to_string(want), std::to_string(got));
}

// Makes every walker busy with bypassed requests (distinct instruction IDs
// 100 + k, root index 1, leaf k); the last one has instruction `last_iid`.
void occupy_walkers(Bench& b, uint32_t last_iid) {
  const unsigned k = params().walkers;
  for (unsigned w = 0; w < k; ++w) {
    b.send(vpn_of(1, 0, 0, w), w + 1 == k ? last_iid : 40 + w);
    b.run(3);
  }
}

// The instruction IDs of the selection dispatches after the first n log entries.
std::vector<uint32_t> iids_after(const Bench& b, size_t n) {
  std::vector<uint32_t> v;
  for (size_t i = n; i < b.dispatches().size(); ++i) v.push_back(b.dispatches()[i].iid);
  return v;
}

std::string join(const std::vector<uint32_t>& v) {
  std::string s;
  for (uint32_t x : v) s += (s.empty() ? "" : ",") + std::to_string(x);
  return s;
}

// Frees walker 0 n times, one walk at a time, and lets each dispatch happen.
void drain(Bench& b, unsigned n) {
  for (unsigned i = 0; i < n; ++i) {
    b.finish(b.dispatches().back().walker);
    b.run(params().select_latency + 6);
  }
}

TEST(WalkSched, IdleWalkerBypass) {
  directed(false, [](CosimSession& s, Bench& b) {
    // accepted in cycle t, bypass dispatch from a1 in t + 1, d in t + 2, disp_valid_o in t + 3
    const uint64_t t = b.send(vpn_of(2, 3, 4, 5), 7);
    b.run(3);
    expect_count(s, "dispatches (test)", 1, b.dispatches().size());
    expect_count(s, "disp_valid_o cycle (test)", t + 3, b.dispatches()[0].cycle);
    expect_count(s, "accesses of a walk with an empty PWC (test)", params().levels, b.dispatches()[0].acc);
  });
}

TEST(WalkSched, ScoreAccumulatesAcrossAnInstructionsRequests) {
  directed(true, [](CosimSession& s, Bench& b) {
    occupy_walkers(b, 9);
    const size_t n = b.dispatches().size();
    for (uint64_t i = 0; i < 3; ++i) b.send(vpn_of(5, i, 0, 0), 1);  // instruction 1: score 4 + 4 + 4
    for (uint64_t i = 0; i < 2; ++i) b.send(vpn_of(6, i, 0, 0), 2);  // instruction 2: score 4 + 4
    b.run(params().select_latency + 8);  // the selection sees the buffer L cycles late
    drain(b, 5);
    s.expect_equal("order: the 2-request instruction first (test)", "2,2,1,1,1", join(iids_after(b, n)));
  });
}

TEST(WalkSched, LowestScoreFirst) {
  directed(true, [](CosimSession& s, Bench& b) {
    occupy_walkers(b, 9);
    const size_t n = b.dispatches().size();
    b.send(vpn_of(5, 0, 0, 0), 1);
    b.send(vpn_of(5, 1, 0, 0), 1);  // instruction 1: 8
    b.send(vpn_of(6, 0, 0, 0), 2);  // instruction 2: 4
    b.run(params().select_latency + 8);  // the selection sees the buffer L cycles late
    drain(b, 3);
    s.expect_equal("order (test)", "2,1,1", join(iids_after(b, n)));
  });
}

TEST(WalkSched, BatchingOfTheLastInstructionOverALowerScore) {
  directed(true, [](CosimSession& s, Bench& b) {
    occupy_walkers(b, 3);           // the last dispatched instruction is 3
    const size_t n = b.dispatches().size();
    b.send(vpn_of(6, 0, 0, 0), 2);  // instruction 2: 4
    b.send(vpn_of(5, 0, 0, 0), 3);
    b.send(vpn_of(5, 1, 0, 0), 3);  // instruction 3: 8, but it is the last dispatched
    b.run(params().select_latency + 8);  // the selection sees the buffer L cycles late
    drain(b, 3);
    s.expect_equal("order (test)", "3,3,2", join(iids_after(b, n)));
  });
}

TEST(WalkSched, OldestOnTie) {
  directed(true, [](CosimSession& s, Bench& b) {
    occupy_walkers(b, 9);
    const size_t n = b.dispatches().size();
    b.send(vpn_of(6, 0, 0, 0), 4);
    b.send(vpn_of(7, 0, 0, 0), 5);  // both score 4
    b.run(params().select_latency + 8);  // the selection sees the buffer L cycles late
    drain(b, 2);
    s.expect_equal("order (test)", "4,5", join(iids_after(b, n)));
  });
}

TEST(WalkSched, FcfsTakesTheOldest) {
  if (params().policy != txgen::config::WalkPolicy::Fcfs) GTEST_SKIP() << "the FCFS baseline";
  directed(false, [](CosimSession& s, Bench& b) {
    occupy_walkers(b, 9);
    const size_t n = b.dispatches().size();
    for (uint32_t i = 0; i < 3; ++i) b.send(vpn_of(5, i, 0, 0), 1);
    b.send(vpn_of(6, 0, 0, 0), 2);
    b.run(params().select_latency + 8);  // the selection sees the buffer L cycles late
    drain(b, 4);
    s.expect_equal("order (test)", "1,1,1,2", join(iids_after(b, n)));
  });
}

TEST(WalkSched, AgingOverridesScore) {
  if (params().aging_threshold > 50) GTEST_SKIP() << "aging threshold too large for a directed test";
  directed(true, [](CosimSession& s, Bench& b) {
    occupy_walkers(b, 9);
    const unsigned at = static_cast<unsigned>(params().aging_threshold);
    for (uint64_t i = 0; i < 3; ++i) b.send(vpn_of(5, i, 0, 0), 1);  // instruction 1: score 12, the oldest
    // Younger single-request instructions (score 4) pass it, one dispatch each:
    // each arrives while every walker is busy, then one walk finishes.
    uint32_t iid = 10;
    for (unsigned k = 0; k <= at + 1; ++k) {
      b.send(vpn_of(6, k % 4, 0, 0), iid++);
      b.run(params().select_latency + 4);
      drain(b, 1);
    }
    // After more than AT younger dispatches the aged instruction-1 requests go first.
    const std::vector<uint32_t> order = iids_after(b, params().walkers);
    const size_t first_one = std::find(order.begin(), order.end(), 1u) - order.begin();
    s.expect_equal("instruction 1 dispatched by aging after AT + 1 younger dispatches (test)",
                   std::to_string(at + 1), std::to_string(first_one));
  });
}

TEST(WalkSched, BufferFullBackPressure) {
  directed(false, [](CosimSession& s, Bench& b) {
    occupy_walkers(b, 9);
    const unsigned entries = params().entries;
    for (unsigned i = 0; i < entries; ++i) b.send(vpn_of(5, i % 8, i / 8 % 8, i), 20 + i % 4);
    b.run(5);  // SIMT appends at the a4 edge, 4 edges after the acceptance
    expect_count(s, "count_o at capacity (test)", entries, b.last().count);
    s.expect_equal("req_ready_o when full (test)", "0", std::to_string(b.last().req_ready));
    drain(b, 1);
    s.expect_equal("req_ready_o after a dispatch (test)", "1", std::to_string(b.last().req_ready));
  });
}

// A removal and an append on one edge, at every occupancy from B - 2 down to
// 1: the entries above the removed one move down while the new request lands
// at count - 1, wherever that is. Each occupancy tries completions from 4
// cycles before to 4 cycles after the request's acceptance until the two meet
// (the document fixes the offset; the test only needs it to happen). Then one
// walk drains the buffer by one, so anything wrongly left above count would be
// dispatched later and break the lock step.
bool remove_and_append_meet(Bench& b, unsigned n) {
  for (int o = -4; o <= 4; ++o) {
    const uint64_t before = b.removes_with_append();
    const uint32_t w = b.dispatches().back().walker;
    if (o < 0) {
      b.finish(w);
      b.run(static_cast<unsigned>(-o - 1));
    } else if (o == 0) {
      b.finish_with_next_step(w);
    }
    b.send(vpn_of(7, n % 8, o + 4, n), 70 + n % 4);
    if (o > 0) {
      b.run(static_cast<unsigned>(o - 1));
      b.finish(w);
    }
    b.run(params().select_latency + 8);
    if (b.removes_with_append() > before) return true;
  }
  return false;
}

TEST(WalkSched, RemoveAndAppendOnTheSameEdgeAtEveryOccupancy) {
  directed(false, [](CosimSession& s, Bench& b) {
    occupy_walkers(b, 9);
    const unsigned top = params().entries - 2;
    for (unsigned n = 1; n <= top; ++n) b.send(vpn_of(6, n % 8, 0, n), 60 + n % 4);  // all walkers busy
    b.run(5);
    expect_count(s, "occupancy before the trials (test)", top, b.last().count);
    unsigned met = 0;
    for (unsigned n = top; n >= 1; --n) {
      met += remove_and_append_meet(b, n) ? 1 : 0;
      drain(b, 1);
    }
    expect_count(s, "occupancies where a removal met an append (test)", top, met);
    const size_t dispatched = b.dispatches().size();
    drain(b, 1);  // a free walker and an empty buffer: nothing to dispatch
    expect_count(s, "dispatches from the empty buffer (test)", dispatched, b.dispatches().size());
  });
}

// PWC root level: fill roots 1 then 2 (2 is the most recently used, so 1 is
// the pseudo-LRU victim), then queue a request under root 1 (its counter
// becomes 1) and fill root 3: with the counter rule root 2 is replaced and
// root 1 survives. The other walkers walk root-3 pages, so their completions
// only touch the root level.
void root_fill_scenario(Bench& b, bool protect_both) {
  const unsigned k = params().walkers;
  b.send(vpn_of(1, 1, 1, 1), 50);
  b.run(3);
  b.finish(0);
  b.send(vpn_of(2, 1, 1, 1), 51);
  b.run(3);
  b.finish(0);
  b.send(vpn_of(3, 1, 1, 1), 52);  // walker 0 walks root 3
  b.run(3);
  for (unsigned w = 1; w < k; ++w) {
    b.send(vpn_of(3, 1, 1, w), 53);
    b.run(3);
  }
  b.send(vpn_of(1, 7, 7, 7), 60);  // queued, hits root 1 only
  if (protect_both) b.send(vpn_of(2, 7, 7, 7), 61);
  b.run(8);
  b.finish(0);  // fills root 3, frees walker 0
  b.run(params().select_latency + 6);
}

// The accesses of a probe under root 1 (no deeper prefix cached) dispatched
// after the scenario: walker 1's completions (root 3, or root 2 after it took
// request 61) touch roots that are present, so the probe sees the root level
// the scenario left.
unsigned probe_root1(CosimSession& s, Bench& b, bool protect_both) {
  if (protect_both) {
    b.finish(1);  // request 61 takes walker 1
    b.run(params().select_latency + 6);
  }
  b.send(vpn_of(1, 6, 6, 6), 44);
  b.run(3);
  b.finish(1);
  b.run(params().select_latency + 6);
  const Dispatch& d = b.dispatches().back();
  expect_count(s, "probe dispatched (test)", 44, d.iid);
  return d.acc;
}

TEST(WalkSched, CounterProtectedPwcEntrySurvivesReplacement) {
  if (params().pwc_entries[0] != 2 || params().walkers < 2) GTEST_SKIP() << "scenario for a 2-entry root PWC";
  directed(true, [](CosimSession& s, Bench& b) {
    root_fill_scenario(b, false);
    expect_count(s, "dispatched instruction (test)", 60, b.dispatches().back().iid);
    expect_count(s, "accesses of a root-1 probe: root 1 survived (test)", params().levels - 1,
                 probe_root1(s, b, false));
  });
}

TEST(WalkSched, AllCountersNonZeroFallsBackToPseudoLru) {
  if (params().pwc_entries[0] != 2 || params().walkers < 2) GTEST_SKIP() << "scenario for a 2-entry root PWC";
  directed(true, [](CosimSession& s, Bench& b) {
    root_fill_scenario(b, true);
    expect_count(s, "dispatched instruction: the older of a tie (test)", 60, b.dispatches().back().iid);
    expect_count(s, "accesses of a root-1 probe: root 1 was the pseudo-LRU victim (test)", params().levels,
                 probe_root1(s, b, true));
  });
}

// ---------------------------------------------------------------------------
// Constrained random: wavefronts issue divergent instructions (1-64 pages,
// interleaved), walkers finish after acc x latency, one reset half way.

class Traffic {
 public:
  explicit Traffic(txgen::verif::Rng& rng) : rng_(rng) {}

  // The next request, or false when no instruction is active and none starts.
  bool next(uint64_t& vpn, uint32_t& iid) {
    while (active_.size() < 4) start();
    auto& ins = active_[rng_.below(active_.size())];
    vpn = page();
    iid = ins.first;
    if (--ins.second == 0) active_.erase(std::find(active_.begin(), active_.end(), ins));
    return true;
  }

 private:
  void start() {
    const auto pages = static_cast<uint32_t>(rng_.below(2) ? 1 + rng_.below(4) : 16 + rng_.below(49));
    active_.push_back({static_cast<uint32_t>(rng_.below(1u << std::min(params().iid_bits, 16u))), pages});
  }
  uint64_t page() {
    // few roots, more level-2 and level-3 indices: the PWC sees hits, misses and replacement
    return vpn_of(rng_.below(5), rng_.below(6), rng_.below(12), rng_.below(512));
  }
  txgen::verif::Rng& rng_;
  std::vector<std::pair<uint32_t, uint32_t>> active_;  // (iid, pages left)
};

TEST(WalkSched, RandomTraffic) {
  const WalkSchedParams& p = params();
  const uint64_t seed = txgen::verif::seed_from_env();
  const uint64_t cycles = std::max<uint64_t>(txgen::verif::cosim_cycles_from_env(), p.entries > 64 ? 60000 : 200000);
  const txgen::verif::CosimVerdict v = txgen::verif::run_cosim(test_name(), seed, [&](CosimSession& s) {
    Sys sys(s, p);
    Bench b(sys);
    txgen::verif::Rng rng(seed);
    Traffic traffic(rng);
    b.reset();
    b.auto_finish(p.entries > 64 ? 40 : 6);
    const uint64_t reset_at = cycles / 3 + rng.below(cycles / 3 + 1);
    bool reset_done = false;
    uint64_t vpn = 0;
    uint32_t iid = 0;
    while (b.cycle() < cycles) {
      if (!reset_done && b.cycle() >= reset_at) {
        b.reset();
        reset_done = true;
      }
      // bursts of arrivals, then quiet phases that let the buffer drain
      const bool burst = (b.cycle() / 3000) % 2 == 0;
      if (burst && rng.below(4) != 0 && traffic.next(vpn, iid)) {
        b.send(vpn, iid);
      } else {
        b.run(1 + static_cast<unsigned>(rng.below(burst ? 2 : 40)));
      }
    }
  });
  expect_passed(v);
  std::printf("%s: seed %llu, %llu cycles, %.2f M cycles/s\n%s", test_name().c_str(),
              static_cast<unsigned long long>(seed), static_cast<unsigned long long>(v.cycles),
              v.cycles_per_second / 1e6, v.coverage.format().c_str());
  for (const std::string& name : txgen::verif::WalkSchedCoverage::required(p)) {
    if (p.aging_threshold > 1000 && (name == "by_age" || name == "aged_set")) continue;  // 2 M passes
    EXPECT_GT(v.coverage.count(name), 0u) << "coverage counter " << name << " never hit";
  }
}

}  // namespace
