// SystemC view of tx_path_NAME_sys, the translation path with every SRAM
// inside (docs/blocks/tx_path.md): the golden model as an sc_module with the
// Verilated model's ports (verif/sc/block.h), from the port declaration
// (txgen/ports/tx_path.h). Per-CU and per-I-cache fields are flat vectors,
// element 0 in the low bits.
#pragma once

#include "model/tx_path.h"
#include "sc/block.h"
#include "txgen/elab/tx_path.h"
#include "txgen/ports/tx_path.h"

namespace txgen::verif::sc {

struct TxPathTraits
    : ModelTraits<elab::TxPathParams, model::TxPathModel, model::TxPathIn, model::TxPathOut> {
  static Model make(const Params& p) { return Model(p, false); }  // the path, not the baseline
};

TXGEN_SC_BLOCK_DECL(TxPathSc, TxPathTraits, TXGEN_TX_PATH_PORTS_NO_IID)

}  // namespace txgen::verif::sc
