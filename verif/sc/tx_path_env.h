// SystemC test of tx_path_NAME_sys (tests/cosim/sc_test.cpp): traffic on
// every interface. Pages come from a pool shared by the CUs and from per-CU
// pools, half of them crowding two LDS segments (and I-cache lines), with
// CUs of two virtual functions and a few requests of VMID 1; the L2-TLB
// answers out of order 2-21 cycles after a request, with back-pressure on
// its three ports; work groups come and go, applications read and write the
// LDS, instruction fetches, fills and kernel flushes use the I-caches;
// shootdowns (one page or all) and one reset land mid-traffic.
#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "sc/env_util.h"
#include "sc/tx_path.h"
#include "tx_path_harness.h"

namespace txgen::verif::sc {

class TxPathEnv {
 public:
  using In = model::TxPathIn;
  using Out = model::TxPathOut;

  TxPathEnv(const elab::TxPathParams& p, uint64_t seed, uint64_t cycles)
      : p_(p), rng_(seed), reset_at_(mid_run_reset(rng_, cycles)), pool_(std::max(40u, p.l1.ways * 3)) {
    const unsigned low = std::max(p.lds.segment_index_bits, p.ic.tx_index_bits);
    for (unsigned k = 0; k < pool_.size(); ++k)
      pool_[k] = k % 2 ? ((rng_.bits(4) << low) | rng_.below(2)) & low_mask(p.vpn_bits) : rng_.bits(p.vpn_bits);
  }

  void operator()(In& in, const Out& last, uint64_t cycle) {
    if (!in.rst_n) restart(in);
    else handshakes(in, last, cycle);
    for (unsigned u = 0; u < p_.cus; ++u) cu(in, u);
    for (unsigned g = 0; g < p_.icaches; ++g) icache(in, g);
    l2_answer(in, cycle);
    in.l2_req_ready = rng_.chance(80);
    in.l2_vic_ready = rng_.chance(70);
    if (!in.sd_valid && rng_.below(1000) < 3) {
      in.sd_valid = true;
      in.sd_all = rng_.chance(10);
      in.sd_vpn = rng_.chance(80) ? rng_.pick(pool_) : rng_.bits(p_.vpn_bits);
      in.sd_vmid = 0;
    }
    in.rst_n = cycle != reset_at_;
  }

 private:
  struct Request {
    uint64_t tag, vpn, vmid;
  };

  // After a reset nothing is pending: requests restart, the L2 forgets.
  void restart(In& in) {
    for (unsigned u = 0; u < p_.cus; ++u) in.req_valid[u] = in.wg_valid[u] = in.app_valid[u] = 0;
    for (unsigned g = 0; g < p_.icaches; ++g) in.if_valid[g] = in.ifill_valid[g] = in.flush_valid[g] = 0;
    in.sd_valid = in.l2_resp_valid = false;
    l2_.clear();
    answering_.reset();
  }

  // Requests accepted in the last cycle are dropped; the L2 takes its request.
  void handshakes(In& in, const Out& last, uint64_t cycle) {
    for (unsigned u = 0; u < p_.cus; ++u) {
      in.req_valid[u] = in.req_valid[u] && !last.req_ready[u];
      in.wg_valid[u] = in.wg_valid[u] && !last.wg_ready[u];
      in.app_valid[u] = 0;  // one-cycle accesses
    }
    for (unsigned g = 0; g < p_.icaches; ++g) {
      in.if_valid[g] = in.if_valid[g] && !last.if_ready[g];
      in.ifill_valid[g] = in.ifill_valid[g] && !last.ifill_ready[g];
      in.flush_valid[g] = in.flush_valid[g] && !last.flush_ready[g];
    }
    in.sd_valid = in.sd_valid && !last.sd_ready;
    if (last.l2_req_valid && in.l2_req_ready)
      l2_.push(cycle + 2 + rng_.below(20), {last.l2_req_tag, last.l2_req_vpn, last.l2_req_vmid});
    if (in.l2_resp_valid && last.l2_resp_ready) answering_.reset();
  }

  void cu(In& in, unsigned u) {
    if (!in.req_valid[u] && rng_.chance(40)) {
      const uint64_t v = rng_.pick(pool_);
      in.req_valid[u] = 1;
      in.req_vpn[u] = rng_.chance(50) ? v : (v ^ (uint64_t{u + 1} << (p_.vpn_bits - 3))) & low_mask(p_.vpn_bits);
      in.req_vmid[u] = rng_.chance(5) ? 1 & low_mask(p_.vmid_bits) : 0;
    }
    if (!in.wg_valid[u] && rng_.chance(1)) {
      in.wg_valid[u] = 1;
      in.wg_free[u] = rng_.chance(50);
      in.wg_base[u] = static_cast<uint32_t>(rng_.below(p_.lds.segments));
      in.wg_size[u] = static_cast<uint32_t>(rng_.below(4));
    }
    if (rng_.chance(3)) {
      in.app_valid[u] = 1;
      in.app_we[u] = rng_.chance(30);
      in.app_row[u] = static_cast<uint32_t>(rng_.below(p_.lds.rows));
      in.app_bank_en[u] = rng_.bits(p_.lds.banks);
      in.app_wdata[u] = rng_.random_bits(p_.lds.row_bits);
    }
    in.vrf[u] = (u % 2) & low_mask(p_.vrf_bits);
  }

  void icache(In& in, unsigned g) {
    const auto& ic = p_.ic;
    const uint64_t addr =
        ((rng_.below(4 * ic.ways) << (ic.offset_bits + ic.set_bits)) | (rng_.below(ic.sets) << ic.offset_bits)) &
        low_mask(ic.va_bits);
    if (!in.if_valid[g] && rng_.chance(5)) {
      in.if_valid[g] = 1;
      in.if_addr[g] = addr;
    }
    if (!in.ifill_valid[g] && rng_.below(1000) < 20) {
      in.ifill_valid[g] = 1;
      in.ifill_addr[g] = addr;
      in.ifill_data[g] = rng_.random_bits(ic.line_bits);
    }
    if (!in.flush_valid[g] && rng_.below(1000) == 0) in.flush_valid[g] = 1;
  }

  // One answer at a time, any that is due, held until the path takes it; the
  // translation is a function of the page.
  void l2_answer(In& in, uint64_t cycle) {
    if (!answering_) answering_ = l2_.pop_due(cycle, &rng_);
    in.l2_resp_valid = answering_.has_value();
    if (!answering_) return;
    const Request& r = *answering_;
    in.l2_resp_tag = r.tag;
    in.l2_resp_ppn = ((r.vpn * 0x9E3779B97F4A7C15ull) ^ (r.vmid << 11) ^ (r.vpn >> 7)) & low_mask(p_.ppn_bits);
    in.l2_resp_perm = (r.vpn * 7 + 1) & low_mask(p_.perm_bits);
  }

  const elab::TxPathParams& p_;
  Rng rng_;
  uint64_t reset_at_;
  std::vector<uint64_t> pool_;
  DueQueue<Request> l2_;
  std::optional<Request> answering_;
};

struct TxPathScSpec {
  template <class Dut>
  using Sc = TxPathSc<Dut>;
  using Environment = TxPathEnv;
  static constexpr uint64_t kCycles = 30000;
  static elab::TxPathParams elaborate(const config::Config& c) { return elab::elaborate_tx_path(c); }

  class Coverage {
   public:
    Coverage(CoverageCounters& c, const elab::TxPathParams& p) : p_(p), cov_(c, p, false) {}
    void operator()(const model::TxPathIn&, const model::TxPathOut&, const model::TxPathModel& m) {
      cov_.count(m.events());
    }
    std::vector<std::string> required() const { return TxPathCoverage::required(p_, false, true); }

   private:
    const elab::TxPathParams& p_;
    TxPathCoverage cov_;
  };
};

}  // namespace txgen::verif::sc
