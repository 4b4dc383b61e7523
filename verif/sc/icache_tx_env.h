// SystemC test of icache_tx_NAME_sys (tests/cosim/sc_test.cpp): instruction
// fetches and fills over four hot sets in bursts, translation lookups and
// fills from every CU over a VPN pool whose tags share or differ in their
// compression prefix, shootdowns (half of them at the last fill), kernel
// flushes, back-pressure on the response and victim ports, one reset mid-run.
// Requests hold until accepted.
#pragma once

#include <string>
#include <vector>

#include "icache_tx_harness.h"
#include "sc/env_util.h"
#include "sc/icache_tx.h"

namespace txgen::verif::sc {

class IcacheTxEnv {
 public:
  using In = model::IcacheTxIn;
  using Out = model::IcacheTxOut;

  IcacheTxEnv(const elab::IcacheTxParams& p, uint64_t seed, uint64_t cycles)
      : p_(p), rng_(seed), reset_at_(mid_run_reset(rng_, cycles)) {}

  void operator()(In& in, const Out& last, uint64_t cycle) {
    if (!in.rst_n) in = In::idle(p_);  // requests restart after a reset
    else drop_accepted(in, last);
    const bool burst = cycle % 900 < 300;
    if (!in.if_valid && rng_.chance(burst ? 45 : 8)) {
      in.if_valid = true;
      in.if_addr = instruction();
    }
    if (!in.ifill_valid && rng_.chance(burst ? 20 : 3)) {
      in.ifill_valid = true;
      in.ifill_addr = instruction();
      in.ifill_data = rng_.random_bits(p_.line_bits);
    }
    for (unsigned c = 0; c < p_.sharers; ++c) {
      if (!in.tl_valid[c] && rng_.chance(12)) lookup(in, c);
      if (!in.tf_valid[c] && rng_.chance(10)) fill(in, c);
    }
    if (!in.sd_valid && rng_.below(1000) < 3) {  // half of them at the last fill, maybe a line's only entry
      in.sd_valid = true;
      in.sd_all = rng_.chance(15);
      in.sd_vpn = rng_.chance(50) ? last_fill_ : vpn();
      in.sd_vmid = 0;
    }
    in.flush_valid = in.flush_valid || (cycle % 5000 < 10 && rng_.chance(50));
    in.vic_ready = rng_.chance(70);
    in.tl_resp_ready = rng_.chance(70);
    in.rst_n = cycle != reset_at_;
  }

 private:
  void drop_accepted(In& in, const Out& last) const {
    in.if_valid = in.if_valid && !last.if_ready;
    in.ifill_valid = in.ifill_valid && !last.ifill_ready;
    in.flush_valid = in.flush_valid && !last.flush_ready;
    in.sd_valid = in.sd_valid && !last.sd_ready;
    for (unsigned c = 0; c < p_.sharers; ++c) {
      in.tl_valid[c] = in.tl_valid[c] && !last.tl_ready[c];
      in.tf_valid[c] = in.tf_valid[c] && !last.tf_ready[c];
    }
  }
  uint64_t instruction() {
    const uint64_t tag = 1 + rng_.below(p_.ways + 3), set = rng_.below(4);
    return ((tag << (p_.offset_bits + p_.set_bits)) | (set << p_.offset_bits) | rng_.bits(p_.offset_bits)) &
           low_mask(p_.va_bits);
  }
  // Translation slots 2-5 of every way (half of them in the instruction
  // sets); mostly one compression prefix.
  uint64_t vpn() {
    const uint64_t slot = (rng_.below(p_.ways) * p_.sets + 2 + rng_.below(4)) & low_mask(p_.tx_index_bits);
    const uint64_t tag = (rng_.chance(95) ? 48 : 48 + 16 * rng_.below(3)) + rng_.below(p_.tx_per_line + 3);
    return ((tag << p_.tx_index_bits) | slot) & low_mask(p_.vpn_bits);
  }
  uint32_t id() { return rng_.chance(97) ? 0 : 1; }
  void lookup(In& in, unsigned c) {
    in.tl_valid[c] = true;
    in.tl_vpn[c] = vpn();
    in.tl_vmid[c] = id() & low_mask(p_.vmid_bits);
    in.tl_vrf[c] = id() & low_mask(p_.vrf_bits);
  }
  void fill(In& in, unsigned c) {  // the translation is a function of the VPN
    in.tf_valid[c] = true;
    in.tf_vpn[c] = last_fill_ = vpn();
    in.tf_vmid[c] = id() & low_mask(p_.vmid_bits);
    in.tf_vrf[c] = id() & low_mask(p_.vrf_bits);
    in.tf_ppn[c] = (in.tf_vpn[c] * 2654435761u + 17) & low_mask(p_.ppn_bits);
    in.tf_perm[c] = (in.tf_vpn[c] ^ 5) & low_mask(p_.perm_bits);
  }

  const elab::IcacheTxParams& p_;
  Rng rng_;
  uint64_t reset_at_;
  uint64_t last_fill_ = 0;
};

struct IcacheTxScSpec {
  template <class Dut>
  using Sc = IcacheTxSc<Dut>;
  using Environment = IcacheTxEnv;
  static constexpr uint64_t kCycles = 60000;
  static elab::IcacheTxParams elaborate(const config::Config& c) { return elab::elaborate_icache_tx(c); }

  class Coverage {
   public:
    Coverage(CoverageCounters& c, const elab::IcacheTxParams& p) : p_(p), cov_(c) {}
    void operator()(const model::IcacheTxIn& in, const model::IcacheTxOut&, const model::IcacheTxModel& m) {
      cov_.count(in, m.events());
    }
    std::vector<std::string> required() const { return IcacheCoverage::required(p_, false); }

   private:
    const elab::IcacheTxParams& p_;
    IcacheCoverage cov_;
  };
};

}  // namespace txgen::verif::sc
