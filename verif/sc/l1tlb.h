// SystemC view of l1tlb_NAME (docs/blocks/l1tlb.md): the golden model as an
// sc_module with the Verilated model's ports (verif/sc/block.h), from the port
// declaration (txgen/ports/l1tlb.h). Per-CU and per-cluster fields are flat
// vectors, element 0 in the low bits.
#pragma once

#include "model/l1tlb.h"
#include "sc/block.h"
#include "txgen/elab/l1tlb.h"
#include "txgen/ports/l1tlb.h"

namespace txgen::verif::sc {

struct L1tlbTraits : ModelTraits<elab::L1tlbParams, model::L1tlbModel, model::L1tlbIn, model::L1tlbOut> {};

TXGEN_SC_BLOCK_DECL(L1tlbSc, L1tlbTraits, TXGEN_L1TLB_PORTS_NO_IID)

}  // namespace txgen::verif::sc
