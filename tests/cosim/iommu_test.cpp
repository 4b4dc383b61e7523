// Lock-step co-simulation of iommu_NAME_sys (the L2-TLB and the IOMMU)
// against the golden model (docs/blocks/iommu.md). The build passes
// TXGEN_SYS_HEADER / TXGEN_SYS_CLASS, TXGEN_COSIM_CONFIG and
// TXGEN_COSIM_CONFIG_NAME. The bench is the path above (request ports with
// tags, inserts, shootdowns) and memory below (a page table answering each
// taken PTE read after a latency); it also checks end to end that every
// request is answered once with the page table's translation.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <deque>
#include <map>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include TXGEN_SYS_HEADER

#include "cosim_gtest.h"
#include "cosim_util.h"
#include "iommu_harness.h"
#include "txgen/config/parse.h"
#include "txgen/elab/iommu.h"

namespace {

using txgen::elab::IommuParams;
using txgen::verif::CosimSession;
using txgen::verif::expect_passed;
using txgen::verif::low_mask;
namespace model = txgen::model;

using Sys = txgen::verif::IommuHarness<TXGEN_SYS_CLASS>;

const IommuParams& params() {
  static const IommuParams p = txgen::elab::elaborate_iommu(txgen::config::load_config_file(TXGEN_COSIM_CONFIG));
  return p;
}

std::string test_name() { return txgen::verif::cosim_test_name(TXGEN_COSIM_CONFIG_NAME); }

// The environment's page table (verif/iommu_harness.h).
uint64_t ppn_of(uint64_t vmid, uint64_t vpn) { return txgen::verif::iommu_bench_ppn(params(), vmid, vpn); }
uint64_t perm_of(uint64_t vmid, uint64_t vpn) { return txgen::verif::iommu_bench_perm(params(), vmid, vpn); }

struct Request {
  uint64_t vpn = 0, vmid = 0, iid = 0, tag = 0;
};
using Read = txgen::verif::IommuBenchRead;

class Bench {
 public:
  Bench(CosimSession& s, Sys& sys) : s_(s), sys_(sys), in_(sys.idle()), pending_(params().l2.ports) {
    outstanding_.resize(params().l2.ports);
  }

  void reset() {
    in_ = sys_.idle();
    in_.rst_n = false;
    step();
    in_ = sys_.idle();
    for (auto& q : pending_) q.clear();
    for (auto& o : outstanding_) o.clear();
    reads_.clear();
    answered_.clear();
    mem_log_.clear();
  }

  // Queues a request on `port`; it is offered (valid held) until taken.
  void request(unsigned port, uint64_t vpn, uint64_t vmid, uint64_t iid) {
    pending_[port].push_back({vpn, vmid, iid, free_tag(port)});
  }
  bool tag_free(unsigned port) const { return outstanding_[port].size() + pending_[port].size() < tags(); }
  void insert(uint64_t vpn, uint64_t vmid) { inserts_.push_back({vpn, vmid, 0, 0}); }
  void shootdown(bool all, uint64_t vpn, uint64_t vmid) { sds_.push_back({all, vpn, vmid}); }

  void run(unsigned cycles) {
    for (unsigned i = 0; i < cycles; ++i) step();
  }
  // Steps until nothing is queued, outstanding or walking (or the guard).
  void drain(unsigned guard = 20000) {
    for (unsigned i = 0; i < guard && busy(); ++i) step();
    if (busy()) throw std::runtime_error("the block did not drain");
    run(params().l2.stages + 4);  // a shootdown's done pulse
  }
  bool busy() const {
    for (unsigned q = 0; q < pending_.size(); ++q)
      if (!pending_[q].empty() || !outstanding_[q].empty()) return true;
    return !inserts_.empty() || !sds_.empty() || !reads_.empty() || last_.mshrs != 0;
  }

  // memory and answer behaviour
  unsigned mem_latency_lo = 20, mem_latency_hi = 20;  // cycles from a read's take to its answer
  unsigned mem_ready_percent = 100, resp_ready_percent = 100;
  txgen::verif::Rng* rng = nullptr;

  uint64_t cycle() const { return cycle_; }
  const model::IommuSysOut& last() const { return last_; }
  // (cycle taken, port, tag) -> cycle answered
  struct Answer {
    uint64_t taken, answered;
    unsigned port;
    uint64_t vpn;
  };
  const std::vector<Answer>& answered() const { return answered_; }
  // every PTE read taken: (level, vpn)
  const std::vector<std::pair<uint32_t, uint64_t>>& mem_log() const { return mem_log_; }
  std::vector<uint64_t> accepts;  // cycles in which a request was taken, in order
  uint64_t sd_done = 0, sd_taken_at = 0;

 private:
  unsigned tags() const { return 1u << std::min(params().l2.req_tag_bits, 16u); }
  uint64_t free_tag(unsigned port) {
    for (uint64_t t = 0;; ++t) {
      bool used = outstanding_[port].count(t) != 0;
      for (const Request& r : pending_[port]) used |= r.tag == t;
      if (!used) return t;
    }
  }
  bool chance(unsigned percent) { return percent >= 100 || (rng && rng->below(100) < percent); }

  void drive() {
    const unsigned P = params().l2.ports;
    for (unsigned q = 0; q < P; ++q) {
      in_.req_valid[q] = !pending_[q].empty();
      if (!pending_[q].empty()) {
        const Request& r = pending_[q].front();
        in_.req_vpn[q] = r.vpn;
        in_.req_vmid[q] = r.vmid;
        in_.req_iid[q] = r.iid;
        in_.req_tag[q] = r.tag;
      }
      in_.resp_ready[q] = chance(resp_ready_percent);
    }
    in_.ins_valid = !inserts_.empty();
    if (in_.ins_valid) {
      const Request& r = inserts_.front();
      in_.ins_vpn = r.vpn;
      in_.ins_vmid = r.vmid;
      in_.ins_ppn = ppn_of(r.vmid, r.vpn);
      in_.ins_perm = perm_of(r.vmid, r.vpn);
    }
    in_.sd_valid = !sds_.empty();
    if (in_.sd_valid) std::tie(in_.sd_all, in_.sd_vpn, in_.sd_vmid) = sds_.front();
    in_.mem_req_ready = chance(mem_ready_percent);
    in_.mem_resp_valid = false;
    auto due = std::min_element(reads_.begin(), reads_.end(),
                                [](const Read& a, const Read& b) { return a.due < b.due; });
    if (due != reads_.end() && due->due <= cycle_) {
      const bool leaf = due->level == params().levels;
      in_.mem_resp_valid = true;
      in_.mem_resp_walker = due->walker;
      in_.mem_resp_ppn = leaf ? ppn_of(due->vmid, due->vpn) : 0;
      in_.mem_resp_perm = leaf ? perm_of(due->vmid, due->vpn) : 0;
      reads_.erase(due);
    }
  }

  void observe() {
    const unsigned P = params().l2.ports;
    for (unsigned q = 0; q < P; ++q) {
      if (in_.req_valid[q] && last_.req_ready[q]) {
        const Request r = pending_[q].front();
        pending_[q].pop_front();
        outstanding_[q][r.tag] = {r, cycle_};
        accepts.push_back(cycle_);
      }
      if (last_.resp_valid[q] && in_.resp_ready[q]) check_answer(q);
    }
    if (in_.ins_valid && last_.ins_ready) inserts_.pop_front();
    if (in_.sd_valid && last_.sd_ready) {
      sds_.pop_front();
      sd_taken_at = cycle_;
    }
    if (last_.sd_done) ++sd_done;
    if (last_.mem_req_valid && in_.mem_req_ready) {
      const unsigned span = mem_latency_hi - mem_latency_lo + 1;
      const uint64_t lat = mem_latency_lo + (rng && span > 1 ? rng->below(span) : 0);
      reads_.push_back({cycle_ + lat, static_cast<uint32_t>(last_.mem_req_walker),
                        static_cast<uint32_t>(last_.mem_req_level), last_.mem_req_vpn, last_.mem_req_vmid});
      mem_log_.push_back({static_cast<uint32_t>(last_.mem_req_level), last_.mem_req_vpn});
    }
  }

  void check_answer(unsigned q) {
    const uint64_t tag = last_.resp_tag[q];
    auto it = outstanding_[q].find(tag);
    if (it == outstanding_[q].end()) {
      s_.expect_equal("an answer's tag is outstanding on port " + std::to_string(q), "outstanding", "not");
      return;
    }
    const Request& r = it->second.first;
    s_.expect_equal("answer VPN", std::to_string(r.vpn), std::to_string(last_.resp_vpn[q]));
    s_.expect_equal("answer PPN", std::to_string(ppn_of(r.vmid, r.vpn)), std::to_string(last_.resp_ppn[q]));
    s_.expect_equal("answer permissions", std::to_string(perm_of(r.vmid, r.vpn)), std::to_string(last_.resp_perm[q]));
    answered_.push_back({it->second.second, cycle_, q, r.vpn});
    outstanding_[q].erase(it);
  }

  void step() {
    drive();
    last_ = sys_.step(in_);
    if (in_.rst_n) observe();
    ++cycle_;
  }

  CosimSession& s_;
  Sys& sys_;
  model::IommuSysIn in_;
  model::IommuSysOut last_;
  std::vector<std::deque<Request>> pending_;
  std::vector<std::map<uint64_t, std::pair<Request, uint64_t>>> outstanding_;  // tag -> (request, taken)
  std::deque<Request> inserts_;
  std::deque<std::tuple<bool, uint64_t, uint64_t>> sds_;
  std::vector<Read> reads_;
  std::vector<Answer> answered_;
  std::vector<std::pair<uint32_t, uint64_t>> mem_log_;
  uint64_t cycle_ = 0;
};

template <class Body>
void directed(Body body) {
  expect_passed(txgen::verif::run_cosim(test_name(), txgen::verif::seed_from_env(), [&](CosimSession& s) {
    Sys sys(s, params());
    Bench b(s, sys);
    b.reset();
    body(s, b);
  }));
}

void expect_count(CosimSession& s, const std::string& what, uint64_t want, uint64_t got) {
  s.expect_equal(what, std::to_string(want), std::to_string(got));
}

// A page in the leaf table of page 0 (root index 0, every upper index 0).
uint64_t neighbour(uint64_t leaf) { return leaf; }

TEST(Iommu, MissWalksEveryLevelThenHitsAfterDPlus2Cycles) {
  directed([](CosimSession& s, Bench& b) {
    b.request(0, neighbour(5), 0, 1);
    b.drain();
    expect_count(s, "reads of the first walk", params().levels, b.mem_log().size());
    for (unsigned l = 0; l < b.mem_log().size(); ++l) expect_count(s, "level read", l + 1, b.mem_log()[l].first);
    b.request(0, neighbour(5), 0, 2);
    b.drain();
    expect_count(s, "no walk for the hit", params().levels, b.mem_log().size());
    const auto& hit = b.answered().back();
    expect_count(s, "hit latency", params().l2.stages + 2, hit.answered - hit.taken);
  });
}

TEST(Iommu, PwcShortensTheWalkOfANeighbouringPage) {
  directed([](CosimSession& s, Bench& b) {
    b.request(0, neighbour(1), 0, 1);
    b.drain();
    b.request(0, neighbour(2), 0, 2);
    b.drain();
    expect_count(s, "reads: a full walk, then the leaf alone", params().levels + 1, b.mem_log().size());
    expect_count(s, "the second walk reads the leaf", params().levels, b.mem_log().back().first);
  });
}

TEST(Iommu, MshrMergeOneWalkTwoAnswers) {
  directed([](CosimSession& s, Bench& b) {
    const unsigned second = params().l2.ports > 1 ? 1 : 0;
    b.request(0, neighbour(9), 0, 1);
    b.request(second, neighbour(9), 0, 2);
    b.drain();
    expect_count(s, "one walk", params().levels, b.mem_log().size());
    expect_count(s, "two answers", 2, b.answered().size());
  });
}

TEST(Iommu, OneSetSerializesAndOtherSetsDoNot) {
  if (params().l2.ports < 2 || params().l2.sets < 2) GTEST_SKIP() << "needs two ports and two sets";
  directed([](CosimSession& s, Bench& b) {
    b.mem_latency_lo = b.mem_latency_hi = 2;
    const uint64_t sets = params().l2.sets;
    b.request(0, neighbour(1), 0, 1);
    b.request(1, neighbour(1 + sets), 0, 1);  // the same set
    b.drain();
    expect_count(s, "the same set: taken D + 1 cycles apart", params().l2.stages + 1, b.accepts[1] - b.accepts[0]);
    b.request(0, neighbour(2), 0, 2);
    b.request(1, neighbour(3), 0, 2);  // two other sets
    b.drain();
    expect_count(s, "different sets: back to back", 1, b.accepts[3] - b.accepts[2]);
  });
}

TEST(Iommu, ShootdownWaitsForItsWalkThenInvalidates) {
  directed([](CosimSession& s, Bench& b) {
    b.mem_latency_lo = b.mem_latency_hi = 60;
    b.request(0, neighbour(4), 0, 1);
    b.run(params().l2.stages + 4);
    b.shootdown(false, neighbour(4), 0);
    b.drain();
    expect_count(s, "shootdowns done", 1, b.sd_done);
    s.expect_equal("the shootdown was taken after the answer", "after",
                   b.sd_taken_at > b.answered().back().answered ? "after" : "before");
    const size_t reads = b.mem_log().size();
    b.request(0, neighbour(4), 0, 2);
    b.drain();
    expect_count(s, "the page walks again (leaf only: the PWC survives)", reads + 1, b.mem_log().size());
  });
}

TEST(Iommu, ShootdownAllAndInsert) {
  directed([](CosimSession& s, Bench& b) {
    b.insert(neighbour(7), 0);
    b.drain();
    b.request(0, neighbour(7), 0, 1);
    b.drain();
    expect_count(s, "the inserted translation hits", 0, b.mem_log().size());
    b.shootdown(true, 0, 0);
    b.drain();
    b.request(0, neighbour(7), 0, 2);
    b.drain();
    expect_count(s, "after a flush it walks", params().levels, b.mem_log().size());
  });
}

TEST(Iommu, MshrsBoundTheMissesInFlight) {
  directed([](CosimSession& s, Bench& b) {
    b.mem_ready_percent = 0;  // memory takes nothing: no walk finishes
    const unsigned m = params().l2.mshrs, r = params().l2.waiters;
    const unsigned n = std::min(m + 2, r);
    for (unsigned i = 0; i < n; ++i) b.request(i % params().l2.ports, neighbour(16 + i), 0, i);
    b.run(200);
    expect_count(s, "valid MSHRs", std::min(m, n), b.last().mshrs);
    expect_count(s, "requests taken", std::min(m, n), b.accepts.size());
    b.mem_ready_percent = 100;
    b.drain();
    expect_count(s, "all answered", n, b.answered().size());
  });
}

// Wavefront-like traffic: instructions of 1-8 pages from a small tree of
// tables, interleaved across ports, with inserts, shootdowns, back-pressure on
// answers and memory, random memory latency and one reset.
TEST(Iommu, RandomTraffic) {
  const IommuParams& p = params();
  const uint64_t seed = txgen::verif::seed_from_env();
  const uint64_t cycles = std::max<uint64_t>(txgen::verif::cosim_cycles_from_env(), 150000);
  const txgen::verif::CosimVerdict v = txgen::verif::run_cosim(test_name(), seed, [&](CosimSession& s) {
    Sys sys(s, p);
    Bench b(s, sys);
    txgen::verif::Rng rng(seed);
    b.rng = &rng;
    b.mem_latency_lo = 2;
    b.mem_latency_hi = 40;
    b.reset();
    const uint64_t reset_at = cycles / 3 + rng.below(cycles / 3 + 1);
    bool reset_done = false;
    uint64_t iid = 0;
    auto page = [&] { return txgen::verif::iommu_bench_page(p, rng); };
    while (b.cycle() < cycles) {
      if (!reset_done && b.cycle() >= reset_at) {
        b.reset();
        reset_done = true;
      }
      const uint64_t phase = (b.cycle() / 5000) % 4;
      b.resp_ready_percent = phase == 1 ? 40 : 100;
      b.mem_ready_percent = phase == 2 ? 50 : 100;
      const uint64_t vmid = rng.below(8) == 0 ? rng.below(1u << p.vmid_bits) : 0;
      const unsigned n = 1 + static_cast<unsigned>(rng.below(8));
      ++iid;
      for (unsigned i = 0; i < n; ++i) {
        const unsigned q = static_cast<unsigned>(rng.below(p.l2.ports));
        const uint64_t vpn = page();
        if (b.tag_free(q)) b.request(q, vpn, vmid, iid & low_mask(p.iid_bits));
        // another CU missing on the same page: an MSHR merge
        const unsigned q2 = static_cast<unsigned>(rng.below(p.l2.ports));
        if (rng.below(4) == 0 && b.tag_free(q2)) b.request(q2, vpn, vmid, (iid + 1) & low_mask(p.iid_bits));
      }
      if (rng.below(20) == 0) b.insert(page(), vmid);
      if (rng.below(400) == 0) b.shootdown(rng.below(4) == 0, page(), vmid);
      b.run(1 + static_cast<unsigned>(rng.below(phase == 3 ? 60 : 12)));
    }
    b.drain(200000);
  });
  expect_passed(v);
  std::printf("%s: seed %llu, %llu cycles, %.2f M cycles/s\n%s", test_name().c_str(),
              static_cast<unsigned long long>(seed), static_cast<unsigned long long>(v.cycles),
              v.cycles_per_second / 1e6, v.coverage.format().c_str());
  using E = model::IommuEvents;
  std::vector<bool E::*> required = {&E::l2_hit, &E::l2_miss_alloc, &E::l2_fill_write_victim, &E::l2_insert, &E::l2_shootdown_one,
                                     &E::l2_shootdown_all, &E::l2_resp_backpressure, &E::iommu_walk_full,
                                     &E::iommu_leaf_answer, &E::iommu_mem_backpressure};
  if (p.l2.ways > 1) required.push_back(&E::l2_victim_plru);
  if (p.l2.waiters > 1) required.insert(required.end(), {&E::l2_merge_waiting, &E::l2_merge_filled});
  if (p.walkers > 1) required.push_back(&E::iommu_two_walkers_want);
  if (p.l2.ports > 1) required.push_back(&E::l2_rr_skip);
  for (const std::string& name : txgen::verif::event_names(txgen::verif::IommuCoverage::rules(), required))
    EXPECT_GT(v.coverage.count(name), 0u) << "coverage counter " << name << " never hit";
  EXPECT_GT(v.coverage.count("reset_cycles"), 0u);
}

}  // namespace
