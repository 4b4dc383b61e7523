// SystemC test of iommu_NAME_sys (tests/cosim/sc_test.cpp): the path above
// (instructions of 1-8 pages from a hot set and a wider tree of tables over
// the request ports, a second requester of the same page, inserts,
// shootdowns) and memory below (each taken PTE read answered after 2-40
// cycles, in any order), phases of answer and memory back-pressure, one
// reset mid-run. Valid is held until ready on every port.
#pragma once

#include <algorithm>
#include <deque>
#include <set>
#include <string>
#include <vector>

#include "iommu_harness.h"
#include "sc/env_util.h"
#include "sc/iommu.h"
#include "txgen/elab/iommu.h"

namespace txgen::verif::sc {

class IommuEnv {
 public:
  using In = model::IommuSysIn;
  using Out = model::IommuSysOut;

  IommuEnv(const elab::IommuParams& p, uint64_t seed, uint64_t cycles)
      : p_(p), rng_(seed), reset_at_(mid_run_reset(rng_, cycles)), pending_(p.l2.ports), tags_(p.l2.ports) {}

  void operator()(In& in, const Out& last, uint64_t cycle) {
    if (in.rst_n) taken(in, last, cycle);
    else clear();  // the reset dropped every request, walk and read in flight
    const uint64_t phase = (cycle / 5000) % 4;
    if (phase != 3 && rng_.chance(12)) instruction();
    if (rng_.chance(5)) inserts_.push_back(page());
    if (rng_.below(1500) == 0) sds_.push_back({rng_.below(3) == 0, page()});
    drive(in, phase, cycle);
    in.rst_n = cycle != reset_at_;
  }

 private:
  struct Request {
    uint64_t vpn, vmid, iid, tag;
  };
  struct Read {
    uint64_t walker, level, vpn, vmid;
  };
  struct Shootdown {
    bool all;
    uint64_t vpn;
  };

  void clear() {
    for (auto& q : pending_) q.clear();
    for (auto& t : tags_) t.clear();
    inserts_.clear();
    sds_.clear();
    reads_.clear();
  }

  // the handshakes of the cycle that ended: inputs `in`, outputs `last`
  void taken(const In& in, const Out& last, uint64_t cycle) {
    for (unsigned q = 0; q < p_.l2.ports; ++q) {
      if (in.req_valid[q] && last.req_ready[q]) pending_[q].pop_front();
      if (last.resp_valid[q] && in.resp_ready[q]) tags_[q].erase(last.resp_tag[q]);
    }
    if (in.ins_valid && last.ins_ready) inserts_.pop_front();
    if (in.sd_valid && last.sd_ready) sds_.pop_front();
    if (last.mem_req_valid && in.mem_req_ready)
      reads_.push(cycle + 2 + rng_.below(39),
                  {last.mem_req_walker, last.mem_req_level, last.mem_req_vpn, last.mem_req_vmid});
  }

  void drive(In& in, uint64_t phase, uint64_t cycle) {
    for (unsigned q = 0; q < p_.l2.ports; ++q) {
      in.req_valid[q] = !pending_[q].empty();
      if (!pending_[q].empty()) {
        const Request& r = pending_[q].front();
        in.req_vpn[q] = r.vpn;
        in.req_vmid[q] = r.vmid;
        in.req_iid[q] = r.iid;
        in.req_tag[q] = r.tag;
      }
      in.resp_ready[q] = phase != 1 || rng_.chance(40);
    }
    in.ins_valid = !inserts_.empty();
    if (in.ins_valid) {
      in.ins_vpn = inserts_.front();
      in.ins_vmid = 0;
      in.ins_ppn = ppn_of(0, in.ins_vpn);
      in.ins_perm = perm_of(0, in.ins_vpn);
    }
    in.sd_valid = !sds_.empty();
    if (in.sd_valid) {
      in.sd_all = sds_.front().all;
      in.sd_vpn = sds_.front().vpn;
      in.sd_vmid = 0;
    }
    in.mem_req_ready = phase != 2 || rng_.chance(50);
    const std::optional<Read> r = reads_.pop_due(cycle, &rng_);
    in.mem_resp_valid = r.has_value();
    if (r) {
      const bool leaf = r->level == p_.levels;
      in.mem_resp_walker = r->walker;
      in.mem_resp_ppn = leaf ? ppn_of(r->vmid, r->vpn) : 0;
      in.mem_resp_perm = leaf ? perm_of(r->vmid, r->vpn) : 0;
    }
  }

  // an instruction's pages over random ports; a quarter of them also missed by a second requester
  void instruction() {
    const uint64_t vmid = rng_.below(8) == 0 ? rng_.bits(p_.vmid_bits) : 0;
    const uint64_t iid = ++iid_ & low_mask(p_.iid_bits);
    for (uint64_t n = 1 + rng_.below(8); n > 0; --n) {
      const uint64_t vpn = page();
      request(vpn, vmid, iid);
      if (rng_.below(4) == 0) request(vpn, vmid, (iid + 1) & low_mask(p_.iid_bits));
    }
  }

  void request(uint64_t vpn, uint64_t vmid, uint64_t iid) {
    const unsigned q = static_cast<unsigned>(rng_.below(p_.l2.ports));
    const uint64_t tags = uint64_t{1} << std::min(p_.l2.req_tag_bits, 16u);
    if (tags_[q].size() >= tags) return;
    uint64_t tag = 0;
    while (tags_[q].count(tag)) ++tag;
    tags_[q].insert(tag);
    pending_[q].push_back({vpn, vmid, iid, tag});
  }

  uint64_t page() { return iommu_bench_page(p_, rng_); }
  uint64_t ppn_of(uint64_t vmid, uint64_t vpn) const { return iommu_bench_ppn(p_, vmid, vpn); }
  uint64_t perm_of(uint64_t vmid, uint64_t vpn) const { return iommu_bench_perm(p_, vmid, vpn); }

  const elab::IommuParams& p_;
  Rng rng_;
  uint64_t reset_at_, iid_ = 0;
  std::vector<std::deque<Request>> pending_;  // per port: offered in order, the front held valid
  std::vector<std::set<uint64_t>> tags_;      // per port: tags queued or outstanding
  std::deque<uint64_t> inserts_;
  std::deque<Shootdown> sds_;
  DueQueue<Read> reads_;  // PTE reads memory took, answered once due
};

struct IommuScSpec {
  template <class Dut>
  using Sc = IommuSc<Dut>;
  using Environment = IommuEnv;
  static constexpr uint64_t kCycles = 60000;
  static elab::IommuParams elaborate(const config::Config& c) { return elab::elaborate_iommu(c); }

  class Coverage {
   public:
    Coverage(CoverageCounters& c, const elab::IommuParams& p) : p_(p), cov_(c) {}
    void operator()(const model::IommuSysIn& in, const model::IommuSysOut&, const model::IommuSysModel& m) {
      cov_.count(in, m.events());
    }
    std::vector<std::string> required() const {
      using E = model::IommuEvents;
      std::vector<bool E::*> r = {&E::l2_hit, &E::l2_miss_alloc, &E::l2_fill_write_victim, &E::l2_insert,
                                  &E::l2_shootdown_one, &E::l2_shootdown_all, &E::l2_resp_backpressure,
                                  &E::iommu_walk_full, &E::iommu_leaf_answer, &E::iommu_mem_backpressure};
      if (p_.l2.waiters > 1) r.insert(r.end(), {&E::l2_merge_waiting, &E::l2_merge_filled});
      if (p_.walkers > 1) r.push_back(&E::iommu_two_walkers_want);
      std::vector<std::string> names = event_names(IommuCoverage::rules(), r);
      names.push_back("reset_cycles");
      return names;
    }

   private:
    const elab::IommuParams& p_;
    IommuCoverage cov_;
  };
};

}  // namespace txgen::verif::sc
