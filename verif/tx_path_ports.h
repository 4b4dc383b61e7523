// Port conversion of tx_path_NAME_sys / _base_sys from their declarations
// (txgen/ports/tx_path.h): model::TxPathIn onto the Verilated model's inputs
// and its outputs into model::TxPathOut. Shared by the lock-step harness
// (verif/tx_path_harness.h) and the trace evaluation (verif/tx_path_eval.cpp).
// kBase selects the baseline top, which lacks the translation-only ports (vrf,
// work groups, hit outputs, the L2 victim port).
#pragma once

#include "cosim_util.h"
#include "port_bind.h"
#include "model/tx_path.h"
#include "txgen/elab/tx_path.h"
#include "txgen/ports/tx_path.h"

namespace txgen::verif {

template <class Dut, bool kBase>
struct TxPathPorts {
  // Every input; without `with_data` the wide write-data inputs keep what they
  // were last driven with (a replay that writes no data skips them).
  static void drive(Dut& d, const elab::TxPathParams& params, const model::TxPathIn& in,
                    bool with_data = true) {
    if constexpr (kBase) {
      TXGEN_DRIVE_PORTS_SOME(TXGEN_TX_PATH_BASE_PORTS, d, params, in, with_data);
    } else {
      TXGEN_DRIVE_PORTS_SOME(TXGEN_TX_PATH_PORTS, d, params, in, with_data);
    }
  }

  // Every output into `out` (sized by TxPathModel::make_outputs); without
  // `with_data` the wide read-data outputs are skipped.
  static void read(const Dut& d, const elab::TxPathParams& params, model::TxPathOut& out, bool with_data) {
    if constexpr (kBase) {
      TXGEN_READ_PORTS(TXGEN_TX_PATH_BASE_PORTS, d, params, out, with_data);
    } else {
      TXGEN_READ_PORTS(TXGEN_TX_PATH_PORTS, d, params, out, with_data);
    }
  }
};

}  // namespace txgen::verif
