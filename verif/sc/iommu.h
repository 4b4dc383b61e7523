// SystemC view of iommu_NAME_sys, the L2-TLB and the IOMMU joined
// (docs/blocks/iommu.md): the golden model as an sc_module with the Verilated
// model's ports (verif/sc/block.h), from the port declaration
// (txgen/ports/iommu.h). Per-port fields are flat vectors, port 0 in the low
// bits.
#pragma once

#include "model/iommu.h"
#include "sc/block.h"
#include "txgen/elab/iommu.h"
#include "txgen/ports/iommu.h"

namespace txgen::verif::sc {

struct IommuTraits : ModelTraits<elab::IommuParams, model::IommuSysModel, model::IommuSysIn, model::IommuSysOut> {};

TXGEN_SC_BLOCK_DECL(IommuSc, IommuTraits, TXGEN_IOMMU_SYS_PORTS)

}  // namespace txgen::verif::sc
