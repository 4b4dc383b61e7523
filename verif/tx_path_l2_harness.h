// Lock-step harness of tx_path_NAME_l2_sys (the path with its generated
// L2-TLB and IOMMU inside) against model::TxPathL2Model (docs/blocks/tx_path.md,
// "The generated L2-TLB and IOMMU inside"). Every output is compared every
// cycle (ports: TXGEN_TX_PATH_ON_L2_PORTS, then TXGEN_TX_PATH_L2_IOMMU_PORTS).
// Coverage: the path's rules (TxPathCoverage), the L2-TLB's and IOMMU's
// (IommuCoverage) and the top's shootdown sequencer.
#pragma once

#include <string>

#include "cosim_util.h"
#include "iommu_harness.h"
#include "port_bind.h"
#include "tx_path_harness.h"
#include "model/tx_path_l2.h"
#include "txgen/ports/tx_path.h"

namespace txgen::verif {

template <class Dut>
class TxPathL2Harness {
 public:
  TxPathL2Harness(CosimSession& s, const elab::TxPathParams& pp, const elab::IommuParams& io)
      : s_(s), pp_(pp), io_(io), model_(pp, io), dut_(s, "tx_path_l2"), path_cov_(s.coverage(), pp, false),
        l2_cov_(s.coverage()), want_(model_.make_outputs()) {
    for (const char* name : {"sd_path_started", "sd_l2_started", "sd_l2_waited", "sd_taken_while_busy"})
      s.coverage().declare(name);
  }

  model::TxPathL2In idle() const { return model_.idle_inputs(); }

  void drive(const model::TxPathL2In& in) {
    in_ = in;
    in_.sys.rst_n = in.path.rst_n;
    Dut& d = *dut_;
    d.clk_i = 0;
    TXGEN_DRIVE_PORTS(TXGEN_TX_PATH_ON_L2_PORTS, d, pp_, in_.path);
    TXGEN_DRIVE_PORTS(TXGEN_TX_PATH_L2_IOMMU_PORTS, d, io_, in_.sys);
    d.eval();
  }

  const model::TxPathL2Out& check() {
    model_.outputs(in_, want_);
    TXGEN_COMPARE_PORTS(TXGEN_TX_PATH_ON_L2_PORTS, s_, *dut_, pp_, want_.path);
    TXGEN_COMPARE_PORTS(TXGEN_TX_PATH_L2_IOMMU_PORTS, s_, *dut_, io_, want_.sys);
    return want_;
  }

  void rising_edge() {
    dut_->clk_i = 1;
    dut_->eval();
    model_.posedge(in_);
    path_cov_.count(model_.path().events());
    l2_cov_.count(in_.sys, model_.l2().events());
    const model::TxPathL2Events& e = model_.events();
    const std::pair<bool, const char*> rules[] = {{e.sd_path_started, "sd_path_started"},
                                                  {e.sd_l2_started, "sd_l2_started"},
                                                  {e.sd_l2_waited, "sd_l2_waited"},
                                                  {e.sd_taken_while_busy, "sd_taken_while_busy"}};
    fired_.count(s_.coverage(), rules);
  }

  const model::TxPathL2Out& step(const model::TxPathL2In& in) { return step_alone(*this, s_, in); }
  const model::TxPathL2Model& model() const { return model_; }

 private:
  CosimSession& s_;
  elab::TxPathParams pp_;
  elab::IommuParams io_;
  model::TxPathL2Model model_;
  SessionDut<Dut> dut_;
  TxPathCoverage path_cov_;
  IommuCoverage l2_cov_;
  FiredRules fired_;
  model::TxPathL2In in_;
  model::TxPathL2Out want_;
};

}  // namespace txgen::verif
