// SystemC test of l1tlb_NAME (tests/cosim/sc_test.cpp): every CU requests
// pages from a pool shared by all CUs (70 %) or from its own, replaces or
// withdraws requests before they are accepted; each cluster's L2-TLB takes
// requests under random back-pressure and answers them in order after 2-13
// cycles with a translation that is a function of the page; shootdowns of
// one page or all; one reset mid-run.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "l1tlb_harness.h"
#include "sc/env_util.h"
#include "sc/l1tlb.h"

namespace txgen::verif::sc {

class L1tlbEnv {
 public:
  using In = model::L1tlbIn;
  using Out = model::L1tlbOut;

  L1tlbEnv(const elab::L1tlbParams& p, uint64_t seed, uint64_t cycles)
      : p_(p), rng_(seed), reset_at_(mid_run_reset(rng_, cycles)), l2_(p.clusters) {
    pool_.resize(std::max(4u, p.entries_per_tlb * p.tlbs_per_cluster * 3 / 2));
    for (uint64_t& vpn : pool_) vpn = rng_.bits(p.vpn_bits);
  }

  void operator()(In& in, const Out& last, uint64_t cycle) {
    if (!in.rst_n) {
      for (auto& q : l2_) q.clear();
    }
    for (unsigned c = 0; c < p_.clusters; ++c) l2_cluster(in, last, c, cycle);
    for (unsigned u = 0; u < p_.cus; ++u) {
      if (in.req_valid[u] && last.req_ready[u]) in.req_valid[u] = 0;
      if (rng_.chance(60) && (!in.req_valid[u] || rng_.chance(5))) {
        in.req_valid[u] = 1;
        in.req_vpn[u] = page(u);
        in.req_vmid[u] = rng_.chance(90) ? 0 : rng_.bits(p_.vmid_bits);
      } else if (in.req_valid[u] && rng_.chance(3)) {
        in.req_valid[u] = 0;  // withdrawn before acceptance
      }
    }
    if (in.sd_valid && last.sd_ready) in.sd_valid = false;
    if (!in.sd_valid && rng_.below(500) == 0) {
      in.sd_valid = true;
      in.sd_all = rng_.chance(15);
      in.sd_vpn = rng_.chance(80) ? rng_.pick(pool_) : rng_.bits(p_.vpn_bits);
      in.sd_vmid = 0;
    }
    in.rst_n = cycle != reset_at_;
  }

 private:
  struct Request {
    uint64_t tag, vpn, vmid;
  };

  uint64_t page(unsigned u) {
    const uint64_t v = rng_.pick(pool_);
    return rng_.chance(70) ? v : (v ^ (uint64_t{u + 1} << (p_.vpn_bits / 2))) & low_mask(p_.vpn_bits);
  }
  // Cluster c's L2-TLB: takes the request handshaken last cycle, answers one due request.
  void l2_cluster(In& in, const Out& last, unsigned c, uint64_t cycle) {
    if (last.l2_req_valid[c] && in.l2_req_ready[c])
      l2_[c].push(cycle + 1 + rng_.below(12), {last.l2_req_tag[c], last.l2_req_vpn[c], last.l2_req_vmid[c]});
    in.l2_req_ready[c] = rng_.chance(75);
    const std::optional<Request> r = l2_[c].pop_due(cycle);
    in.l2_resp_valid[c] = r.has_value();
    if (!r) return;
    in.l2_resp_tag[c] = r->tag;
    in.l2_resp_ppn[c] = (r->vpn * 0x9E3779B97F4A7C15ull ^ r->vmid << 7) & low_mask(p_.ppn_bits);
    in.l2_resp_perm[c] = (r->vpn * 5 + 3) & low_mask(p_.perm_bits);
  }

  const elab::L1tlbParams& p_;
  Rng rng_;
  uint64_t reset_at_;
  std::vector<uint64_t> pool_;
  std::vector<DueQueue<Request>> l2_;  // per cluster
};

struct L1tlbScSpec {
  template <class Dut>
  using Sc = L1tlbSc<Dut>;
  using Environment = L1tlbEnv;
  static constexpr uint64_t kCycles = 30000;
  static elab::L1tlbParams elaborate(const config::Config& c) { return elab::elaborate_l1tlb(c); }

  class Coverage {
   public:
    Coverage(CoverageCounters& c, const elab::L1tlbParams& p) : p_(p), cov_(c, p) {}
    void operator()(const model::L1tlbIn&, const model::L1tlbOut&, const model::L1tlbModel& m) {
      cov_.count(m.events());
    }
    std::vector<std::string> required() const { return L1tlbCoverage::required(p_); }

   private:
    const elab::L1tlbParams& p_;
    L1tlbCoverage cov_;
  };
};

}  // namespace txgen::verif::sc
