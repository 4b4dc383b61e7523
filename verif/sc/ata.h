// SystemC view of ata_NAME (docs/blocks/ata.md): the golden model as an
// sc_module with the Verilated model's ports (verif/sc/block.h), from the port
// declaration (txgen/ports/ata.h). Per-core and per-array fields are flat
// vectors, element 0 in the low bits.
#pragma once

#include "model/ata.h"
#include "sc/block.h"
#include "txgen/elab/ata.h"
#include "txgen/ports/ata.h"

namespace txgen::verif::sc {

struct AtaTraits
    : ModelTraits<elab::AtaParams, model::AtaModel, model::AtaIn, model::AtaOut> {};

TXGEN_SC_BLOCK_DECL(AtaSc, AtaTraits, TXGEN_ATA_PORTS)

}  // namespace txgen::verif::sc
