// SystemC test of ata_NAME (tests/cosim/sc_test.cpp): phases of 5000 cycles
// alternate between high inter-core locality (80 % of the lines shared, 10 %
// writes) and one line more per set than ways under many writes (95 %
// shared, 30 % writes: remote reads find their line dirty or gone when they
// recheck, about once per 30 k cycles); requests hold until
// accepted; the L2 takes requests under random back-pressure and answers
// each read 1-10 cycles later; one reset mid-run.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "ata_harness.h"
#include "sc/ata.h"
#include "sc/env_util.h"

namespace txgen::verif::sc {

class AtaEnv {
 public:
  using In = model::AtaIn;
  using Out = model::AtaOut;

  AtaEnv(const elab::AtaParams& p, uint64_t seed, uint64_t cycles)
      : p_(p), rng_(seed), reset_at_(mid_run_reset(rng_, cycles)), l2_(p.cores),
        lines_(std::max(8u, p.sets * p.ways * 3 / 2)) {}

  void operator()(In& in, const Out& last, uint64_t cycle) {
    const bool hot = (cycle / 5000) % 2 == 1;
    for (unsigned i = 0; i < p_.cores; ++i) {
      if (!in.rst_n) l2_[i].clear();
      if (last.l2_req_valid[i] && in.l2_req_ready[i] && !last.l2_req_write[i])
        l2_[i].push(cycle + rng_.below(10), true);
      in.l2_resp_valid[i] = l2_[i].pop_due(cycle).has_value();
      in.l2_req_ready[i] = rng_.chance(70);
      if (in.req_valid[i] && last.req_ready[i]) in.req_valid[i] = 0;
      if (!in.req_valid[i] && rng_.chance(hot ? 90 : 50)) {
        in.req_valid[i] = 1;
        in.req_write[i] = rng_.chance(hot ? 30 : 10);
        in.req_addr[i] = hot ? address(i, 95, p_.ways + 1) : address(i, 80, lines_ / p_.sets + 1);
      }
    }
    in.rst_n = cycle != reset_at_;
  }

 private:
  // A sector of one of `per_set` lines of a set, shared by every core
  // (`shared` %) or core i's own.
  uint64_t address(unsigned i, unsigned shared, unsigned per_set) {
    const uint64_t set = rng_.below(p_.sets), sector = rng_.below(p_.sectors);
    const uint64_t k = rng_.below(per_set), tags = uint64_t{1} << std::min(p_.tag_bits, 20u);
    const uint64_t tag = rng_.chance(shared) ? k : (k + 1 + uint64_t{i + 1} * (lines_ + 7)) % tags;
    return ((tag << (p_.offset_bits + p_.set_bits)) | (set << p_.offset_bits) | sector * p_.sector_bytes) &
           low_mask(p_.addr_bits);
  }

  const elab::AtaParams& p_;
  Rng rng_;
  uint64_t reset_at_;
  std::vector<DueQueue<bool>> l2_;  // per core: its L2 read's answer
  unsigned lines_;                  // distinct lines per core
};

struct AtaScSpec {
  template <class Dut>
  using Sc = AtaSc<Dut>;
  using Environment = AtaEnv;
  static constexpr uint64_t kCycles = 200000;
  static elab::AtaParams elaborate(const config::Config& c) { return elab::elaborate_ata(c); }

  class Coverage {
   public:
    Coverage(CoverageCounters& c, const elab::AtaParams& p) : p_(p), cov_(c, p) {}
    void operator()(const model::AtaIn&, const model::AtaOut&, const model::AtaModel& m) { cov_.count(m.events()); }
    std::vector<std::string> required() const { return AtaCoverage::required(p_); }

   private:
    const elab::AtaParams& p_;
    AtaCoverage cov_;
  };
};

}  // namespace txgen::verif::sc
