// Lock-step harness of iommu_NAME_sys (the L2-TLB and the IOMMU with its
// scheduler) against model::IommuSysModel (docs/blocks/iommu.md), bound
// through the port declaration (txgen/ports/iommu.h). Every output is
// compared in every cycle: the document defines the registers' fields also
// while they are empty.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "cosim_util.h"
#include "port_bind.h"
#include "model/iommu.h"
#include "txgen/elab/iommu.h"
#include "txgen/ports/iommu.h"

namespace txgen::verif {

// Coverage of the block's rules, from the model's events (model/iommu.h) and
// the reset input.
class IommuCoverage {
 public:
  explicit IommuCoverage(CoverageCounters& c) : c_(c), events_(c, rules()), reset_(c.declare("reset_cycles")) {}
  void count(const model::IommuSysIn& in, const model::IommuEvents& e) {
    events_.count(e);
    if (!in.rst_n) c_.hit(reset_);
  }
  static const std::vector<EventRule<model::IommuEvents>>& rules() {
    static const auto r = TXGEN_EVENT_RULES(model::IommuEvents, TXGEN_IOMMU_EVENTS);
    return r;
  }

 private:
  CoverageCounters& c_;
  EventCounter<model::IommuEvents> events_;
  CoverageCounters::Id reset_;
};

// The benches' page table (C++ random test and SystemC test): a fixed
// translation per (VMID, VPN).
inline uint64_t iommu_bench_ppn(const elab::IommuParams& p, uint64_t vmid, uint64_t vpn) {
  const uint64_t x = (vpn * 0x9e3779b97f4a7c15ull) ^ (vmid * 0xc2b2ae3d27d4eb4full);
  return (x ^ (x >> 29)) & low_mask(p.ppn_bits);
}
inline uint64_t iommu_bench_perm(const elab::IommuParams& p, uint64_t vmid, uint64_t vpn) {
  return (vpn + 3 * vmid) & low_mask(p.perm_bits);
}

// The benches' random page: mostly a hot set about the L2-TLB's size (hits,
// merges), else a wider tree of tables (misses, PWC hits and replacement);
// one index per level, root first.
inline uint64_t iommu_bench_page(const elab::IommuParams& p, Rng& rng) {
  const bool hot = rng.below(4) != 0;
  const uint64_t wide[] = {2, 3, 6, 48}, near[] = {1, 1, 2, std::max<uint64_t>(2, p.l2.entries / 2)};
  uint64_t vpn = 0;
  for (unsigned l = 0; l < p.levels; ++l)
    vpn = (vpn << p.sched.level_bits) | rng.below((hot ? near : wide)[4 - p.levels + l]);
  return vpn & low_mask(p.vpn_bits);
}

// A PTE read the benches' memory took: answered at `due`.
struct IommuBenchRead {
  uint64_t due;
  uint32_t walker, level;
  uint64_t vpn, vmid;
};

template <class Dut>
class IommuHarness {
 public:
  IommuHarness(CosimSession& s, const elab::IommuParams& p)
      : s_(s), p_(p), model_(p), dut_(s, "iommu"), cov_(s.coverage()),
        tape_(bench_tape<IommuHarness, model::IommuSysIn>(s, p)) {}

  model::IommuSysIn idle() const { return model_.idle_inputs(); }

  void drive(const model::IommuSysIn& in) {
    in_ = in;
    drive_rtl(in);
  }

  void drive_rtl(const model::IommuSysIn& in) {
    Dut& d = *dut_;
    d.clk_i = 0;
    TXGEN_DRIVE_PORTS(TXGEN_IOMMU_SYS_PORTS, d, p_, in);
    d.eval();
  }

  // Compares every output; returns the model's view (equal to the RTL's).
  model::IommuSysOut check() {
    const model::IommuSysOut want = model_.outputs(in_);
    TXGEN_COMPARE_PORTS(TXGEN_IOMMU_SYS_PORTS, s_, *dut_, p_, want);
    return want;
  }

  void rising_edge() {
    rtl_edge();
    model_.posedge(in_);
    cov_.count(in_, model_.events());
    record(tape_, in_);
  }

  void rtl_edge() {
    dut_->clk_i = 1;
    dut_->eval();
  }

  void model_cycle(const model::IommuSysIn& in) {
    model_.outputs(in);
    model_.posedge(in);
  }

  model::IommuSysOut step(const model::IommuSysIn& in) { return step_alone(*this, s_, in); }
  const model::IommuSysModel& model() const { return model_; }

 private:
  CosimSession& s_;
  elab::IommuParams p_;
  model::IommuSysModel model_;
  SessionDut<Dut> dut_;
  IommuCoverage cov_;
  BenchTape<model::IommuSysIn> tape_;
  model::IommuSysIn in_;
};

}  // namespace txgen::verif
