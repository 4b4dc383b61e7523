// Lock-step co-simulation of tx_path_NAME_l2_sys, the path with its generated
// L2-TLB and IOMMU inside, against model::TxPathL2Model (docs/blocks/tx_path.md,
// "The generated L2-TLB and IOMMU inside"). The build passes
// TXGEN_L2_HEADER / TXGEN_L2_CLASS, TXGEN_COSIM_CONFIG and
// TXGEN_COSIM_CONFIG_NAME. The bench is the CUs above (tx_path_stimulus.h)
// and memory below: a page table (verif/iommu_harness.h) answering each PTE
// read the IOMMU issues after a latency, in any order. Every translation a CU
// receives is checked against that page table, and every L2 request's
// instruction ID against the IDs the CUs requested that page with.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include TXGEN_L2_HEADER

#include "cosim_gtest.h"
#include "cosim_util.h"
#include "tx_path_l2_harness.h"
#include "tx_path_stimulus.h"
#include "txgen/config/parse.h"
#include "txgen/elab/iommu.h"
#include "txgen/elab/tx_path.h"

namespace {

using txgen::elab::IommuParams;
using txgen::elab::TxPathParams;
using txgen::verif::CosimSession;
using txgen::verif::expect_passed;
using txgen::verif::Rng;
namespace model = txgen::model;

using Sys = txgen::verif::TxPathL2Harness<TXGEN_L2_CLASS>;

const txgen::config::Config& config() {
  static const txgen::config::Config c = txgen::config::load_config_file(TXGEN_COSIM_CONFIG);
  return c;
}
const TxPathParams& path_params() {
  static const TxPathParams p = txgen::elab::elaborate_tx_path(config());
  return p;
}
const IommuParams& io_params() {
  static const IommuParams p = txgen::elab::elaborate_iommu(config());
  return p;
}

std::string test_name() { return txgen::verif::cosim_test_name(TXGEN_COSIM_CONFIG_NAME); }

using Read = txgen::verif::IommuBenchRead;

// Drives the top like its CUs and memory; records what it saw.
class Bench {
 public:
  Bench(CosimSession& s, Sys& sys)
      : s_(s), sys_(sys), pp_(path_params()), io_(io_params()), in_(sys.idle()), sent_(pp_.cus, 0) {}

  model::TxPathL2In& in() { return in_; }
  uint64_t cycle() const { return cycle_; }
  const model::TxPathL2Model& model() const { return sys_.model(); }

  void reset() {
    in_ = sys_.idle();
    in_.path.rst_n = false;
    reads_.clear();
    step();
    in_.path.rst_n = true;
  }

  void step() {
    memory();
    const model::TxPathL2Out& out = sys_.step(in_);
    observe(out);
    ++cycle_;
  }
  void run(unsigned n) {
    for (unsigned i = 0; i < n; ++i) step();
  }
  // Until nothing is offered, memory has answered everything, no shootdown
  // is in progress and the top has been quiet for a while.
  void drain(unsigned quiet = 60) {
    unsigned idle_for = 0;
    for (unsigned guard = 0; guard < 40000; ++guard) {
      bool busy = in_.path.sd_valid || !reads_.empty() || model().shootdown_busy();
      for (unsigned u = 0; u < pp_.cus; ++u) busy |= in_.path.req_valid[u] || in_.path.wg_valid[u];
      idle_for = busy ? 0 : idle_for + 1;
      if (idle_for >= quiet) return;
      step();
    }
    throw std::runtime_error("the path with its L2-TLB did not drain");
  }
  void request(unsigned u, uint64_t vpn, uint64_t vmid = 0) {
    in_.path.req_valid[u] = 1;
    in_.path.req_vpn[u] = vpn;
    in_.path.req_vmid[u] = vmid;
    in_.path.req_iid[u] = instruction_of(u);
  }
  // A CU's requests three at a time are one instruction's (the scheduler sees
  // batches), and a page asked for again later comes from a new instruction.
  uint64_t instruction_of(unsigned u) {
    return ((sent_[u]++ / 3) * pp_.cus + u) & txgen::verif::low_mask(io_.iid_bits);
  }
  void translate(unsigned u, uint64_t vpn, uint64_t vmid = 0) {
    request(u, vpn, vmid);
    drain();
  }
  void shootdown(bool all, uint64_t vpn, uint64_t vmid = 0) {
    in_.path.sd_valid = true;
    in_.path.sd_all = all;
    in_.path.sd_vpn = vpn;
    in_.path.sd_vmid = vmid;
  }

  unsigned mem_latency_lo = 20, mem_latency_hi = 20;
  unsigned mem_ready_percent = 100;
  Rng* rng = nullptr;
  std::vector<uint64_t> reads;  // VPN of every PTE read taken
  uint64_t fills = 0, sd_done = 0, sd_taken_at = 0, sd_done_at = 0;

 private:
  bool chance(unsigned percent) { return percent >= 100 || (rng && rng->chance(percent)); }

  // Memory: takes the IOMMU's read when ready; answers the read due first.
  void memory() {
    in_.sys.mem_req_ready = chance(mem_ready_percent);
    in_.sys.mem_resp_valid = false;
    auto due = std::min_element(reads_.begin(), reads_.end(), [](const Read& a, const Read& b) { return a.due < b.due; });
    if (due == reads_.end() || due->due > cycle_) return;
    const bool leaf = due->level == io_.levels;
    in_.sys.mem_resp_valid = true;
    in_.sys.mem_resp_walker = due->walker;
    in_.sys.mem_resp_ppn = leaf ? txgen::verif::iommu_bench_ppn(io_, due->vmid, due->vpn) : 0;
    in_.sys.mem_resp_perm = leaf ? txgen::verif::iommu_bench_perm(io_, due->vmid, due->vpn) : 0;
    reads_.erase(due);
  }

  void observe(const model::TxPathL2Out& out) {
    const model::TxPathOut& po = out.path;
    for (unsigned u = 0; u < pp_.cus; ++u) {
      if (po.resp_valid[u]) check(po.resp_vpn[u], po.resp_vmid[u], po.resp_ppn[u], po.resp_perm[u]);
      if (po.fill_valid[u]) {
        check(po.fill_vpn[u], po.fill_vmid[u], po.fill_ppn[u], po.fill_perm[u]);
        ++fills;
      }
    }
    if (po.l2_req_valid && !requested_ids_[po.l2_req_vpn].count(po.l2_req_iid))
      s_.fail("the L2 request's instruction ID", "an ID a CU sent for that page", std::to_string(po.l2_req_iid));
    for (unsigned u = 0; u < pp_.cus; ++u)
      if (in_.path.req_valid[u] && po.req_ready[u]) requested_ids_[in_.path.req_vpn[u]].insert(in_.path.req_iid[u]);
    txgen::verif::path_cu_side_taken(in_.path, po, pp_);
    if (in_.path.sd_valid && po.sd_ready) {
      in_.path.sd_valid = false;
      sd_taken_at = cycle_;
    }
    if (po.sd_done) {
      ++sd_done;
      sd_done_at = cycle_;
    }
    const model::IommuSysOut& so = out.sys;
    if (so.mem_req_valid && in_.sys.mem_req_ready) {
      const unsigned span = mem_latency_hi - mem_latency_lo + 1;
      const uint64_t lat = mem_latency_lo + (rng && span > 1 ? rng->below(span) : 0);
      reads_.push_back({cycle_ + lat, static_cast<uint32_t>(so.mem_req_walker), static_cast<uint32_t>(so.mem_req_level),
                        so.mem_req_vpn, so.mem_req_vmid});
      reads.push_back(so.mem_req_vpn);
    }
  }

  void check(uint64_t vpn, uint64_t vmid, uint64_t ppn, uint64_t perm) {
    s_.expect_equal("PPN answered to a CU", std::to_string(txgen::verif::iommu_bench_ppn(io_, vmid, vpn)),
                    std::to_string(ppn));
    s_.expect_equal("permissions answered to a CU", std::to_string(txgen::verif::iommu_bench_perm(io_, vmid, vpn)),
                    std::to_string(perm));
  }

  CosimSession& s_;
  Sys& sys_;
  const TxPathParams& pp_;
  const IommuParams& io_;
  model::TxPathL2In in_;
  std::vector<Read> reads_;
  std::map<uint64_t, std::set<uint64_t>> requested_ids_;  // VPN -> the IDs CUs requested it with
  std::vector<uint64_t> sent_;                            // per CU: requests given an ID
  uint64_t cycle_ = 0;
};

template <class Body>
void directed(Body body) {
  expect_passed(txgen::verif::run_cosim(test_name(), txgen::verif::seed_from_env(), [&](CosimSession& s) {
    Sys sys(s, path_params(), io_params());
    Bench b(s, sys);
    b.reset();
    body(s, b);
    b.drain();
  }));
}

void expect_count(CosimSession& s, const std::string& what, uint64_t want, uint64_t got) {
  s.expect_equal(what, std::to_string(want), std::to_string(got));
}

// A miss everywhere walks the page table (one read per level) and fills the
// CU; the same page from another CU then hits the L2-TLB: no read.
TEST(TxPathL2, MissWalksThenTheL2TlbAnswersAnotherCu) {
  directed([](CosimSession& s, Bench& b) {
    const uint64_t vpn = 0x1234 & txgen::verif::low_mask(path_params().vpn_bits);
    b.translate(0, vpn);
    expect_count(s, "PTE reads of the walk", io_params().levels, b.reads.size());
    expect_count(s, "fills", 1, b.fills);
    // with one CU the second request hits its L1-TLB: no fill
    const bool two = path_params().cus > 1;
    b.translate(two ? 1 : 0, vpn);
    expect_count(s, "PTE reads after the second CU's request", io_params().levels, b.reads.size());
    expect_count(s, "fills", two ? 2 : 1, b.fills);
  });
}

// A shootdown goes to the path, then to the L2-TLB: the top is done only then,
// and the page walks again afterwards.
TEST(TxPathL2, ShootdownReachesTheL2TlbAfterThePath) {
  directed([](CosimSession& s, Bench& b) {
    const uint64_t vpn = 0x0567 & txgen::verif::low_mask(path_params().vpn_bits);
    b.translate(0, vpn);
    const size_t walked = b.reads.size();
    b.shootdown(false, vpn);
    b.drain();
    expect_count(s, "shootdowns done", 1, b.sd_done);
    s.expect_equal("done after taken", "later", b.sd_done_at > b.sd_taken_at + 2 ? "later" : "too soon");
    b.translate(0, vpn);
    s.expect_equal("the page walks again (the PWCs may cover the upper levels)", "yes",
                   b.reads.size() > walked ? "yes" : "no");
  });
}

// Random traffic: the CU side of the path's random test, memory answering in
// any order after 2-60 cycles with back-pressure phases, shootdowns (one page
// or all) and one reset mid-traffic.
void random_run(CosimSession& s, uint64_t seed, uint64_t cycles) {
  const TxPathParams& p = path_params();
  Sys sys(s, p, io_params());
  Bench b(s, sys);
  Rng rng(seed);
  b.rng = &rng;
  b.mem_latency_lo = 2;
  b.mem_latency_hi = 60;
  const txgen::verif::PathTraffic t;
  txgen::verif::PathPages pages(p, t, rng);
  b.reset();
  const uint64_t reset_at = cycles / 3 + rng.below(cycles / 3 + 1);
  std::vector<uint8_t> was_valid(p.cus, 0);  // offered before this cycle's stimulus (held until taken)
  while (b.cycle() < cycles) {
    if (b.cycle() == reset_at) b.reset();
    auto& in = b.in();
    was_valid = in.path.req_valid;
    txgen::verif::path_cu_side(in.path, p, t, rng, pages);
    for (unsigned u = 0; u < p.cus; ++u)
      if (in.path.req_valid[u] && !was_valid[u]) in.path.req_iid[u] = b.instruction_of(u);
    b.mem_ready_percent = (b.cycle() / 2000) % 3 == 2 ? 40 : 100;
    // now and then a second shootdown while one is in progress (held until the top is free)
    if (!in.path.sd_valid && ((rng.chance(1) && rng.chance(20)) || (b.model().shootdown_busy() && rng.chance(1))))
      b.shootdown(rng.chance(10), rng.chance(80) ? pages.pick(0) : rng.bits(p.vpn_bits), 0);
    b.step();
  }
}

TEST(TxPathL2, RandomTraffic) {
  const uint64_t seed = txgen::verif::seed_from_env();
  const uint64_t cycles = std::max<uint64_t>(txgen::verif::cosim_cycles_from_env() / 4, 20000);
  const txgen::verif::CosimVerdict v =
      txgen::verif::run_cosim(test_name(), seed, [&](CosimSession& s) { random_run(s, seed, cycles); });
  expect_passed(v);
  std::printf("%s: seed %llu (replay: TXGEN_SEED=%llu), %llu cycles, %.3f M cycles/s\n%s", test_name().c_str(),
              static_cast<unsigned long long>(seed), static_cast<unsigned long long>(seed),
              static_cast<unsigned long long>(v.cycles), v.cycles_per_second / 1e6, v.coverage.format().c_str());
  if (!v.passed) return;
  std::vector<std::string> required = {"l2_request", "l2_fill", "l1_victim_queued", "icache_victim_to_l2",
                                       "shootdown_done", "l2_hit", "l2_miss_alloc", "l2_insert", "l2_shootdown_one",
                                       "l2_shootdown_all", "iommu_walk_full", "iommu_walk_partial",
                                       "iommu_mem_backpressure", "sd_path_started", "sd_l2_started",
                                       "sd_taken_while_busy", "reset_cycles"};
  // a lookup merging into the L2-TLB's pending walk needs two CUs' L1s missing one page
  if (path_params().cus > 1) required.push_back("l2_merge_waiting");
  for (const std::string& name : required)
    EXPECT_GT(v.coverage.count(name), 0u) << "coverage counter " << name << " never hit";
}

}  // namespace
