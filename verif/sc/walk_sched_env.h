// SystemC test of walk_sched_NAME (tests/cosim/sc_test.cpp): wavefronts
// issue divergent instructions (1-4 or 16-64 pages each, a few at a time, in
// bursts and quiet phases), walkers finish a dispatched walk after
// accesses x latency cycles, one reset lands mid-run.
#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sc/env_util.h"
#include "sc/walk_sched.h"
#include "txgen/elab/walk_sched.h"
#include "walk_sched_harness.h"

namespace txgen::verif::sc {

class WalkSchedEnv {
 public:
  using In = model::WalkSchedIn;
  using Out = model::WalkSchedOut;

  WalkSchedEnv(const elab::WalkSchedParams& p, uint64_t seed, uint64_t cycles)
      : p_(p), rng_(seed), reset_at_(mid_run_reset(rng_, cycles)), walk_vpn_(p.walkers) {}

  void operator()(In& in, const Out& last, uint64_t cycle) {
    if (!in.rst_n) finishing_.clear();  // the reset freed every walker
    if (in.req_valid && last.req_ready) in.req_valid = false;
    if (last.disp_valid) {
      walk_vpn_.at(last.disp_walker) = last.disp_vpn;
      finishing_.push(cycle + uint64_t{latency()} * last.disp_acc, last.disp_walker);
    }
    const std::optional<uint32_t> done = finishing_.pop_due(cycle, &rng_);
    in.done_valid = done.has_value();
    if (done) {
      in.done_walker = *done;
      in.done_vpn = walk_vpn_[*done];
    }
    const bool burst = (cycle / 3000) % 2 == 0;
    if (!in.req_valid && rng_.chance(burst ? 70 : 3)) request(in);
    in.rst_n = cycle != reset_at_;
  }

 private:
  unsigned latency() const { return p_.entries > 64 ? 40 : 6; }

  void request(In& in) {
    while (active_.size() < 4) {
      const uint64_t pages = rng_.below(2) ? 1 + rng_.below(4) : 16 + rng_.below(49);
      active_.push_back({static_cast<uint32_t>(rng_.bits(std::min(p_.iid_bits, 16u))), pages});
    }
    const std::size_t k = rng_.below(active_.size());
    in.req_valid = true;
    in.req_iid = active_[k].first;
    in.req_vpn = page();
    if (--active_[k].second == 0) active_.erase(active_.begin() + static_cast<long>(k));
  }

  // Few roots, more middle indices, any leaf: the PWCs see hits, misses and
  // replacement.
  uint64_t page() {
    uint64_t vpn = 0;
    for (unsigned l = 0; l < p_.levels; ++l) {
      const uint64_t indices = uint64_t{1} << p_.level_bits;
      const uint64_t range = l == 0 ? 5 : l + 1 == p_.levels ? indices : 6 * l;
      vpn = (vpn << p_.level_bits) | rng_.below(std::min(range, indices));
    }
    return vpn & low_mask(p_.vpn_bits);
  }

  const elab::WalkSchedParams& p_;
  Rng rng_;
  uint64_t reset_at_;
  std::vector<uint64_t> walk_vpn_;                     // per walker: the VPN it walks
  DueQueue<uint32_t> finishing_;                       // walkers, due when their walk ends (any order)
  std::vector<std::pair<uint32_t, uint64_t>> active_;  // (instruction ID, pages left)
};

struct WalkSchedScSpec {
  template <class Dut>
  using Sc = WalkSchedSc<Dut>;
  using Environment = WalkSchedEnv;
  static constexpr uint64_t kCycles = 30000;
  static elab::WalkSchedParams elaborate(const config::Config& c) { return elab::elaborate_walk_sched(c); }

  class Coverage {
   public:
    Coverage(CoverageCounters& c, const elab::WalkSchedParams& p) : p_(p), cov_(c, p) {}
    void operator()(const model::WalkSchedIn& in, const model::WalkSchedOut&, const model::WalkSchedModel& m) {
      cov_.count(in, m.events());
    }
    std::vector<std::string> required() const {
      std::vector<std::string> r = WalkSchedCoverage::required(p_);
      if (p_.aging_threshold > 1000)  // 2 M passes
        r.erase(std::remove_if(r.begin(), r.end(), [](const std::string& n) { return n.find("aged") != n.npos; }),
                r.end());
      return r;
    }

   private:
    const elab::WalkSchedParams& p_;
    WalkSchedCoverage cov_;
  };
};

}  // namespace txgen::verif::sc
