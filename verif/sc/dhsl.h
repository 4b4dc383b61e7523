// SystemC view of dhsl_NAME_sys (docs/blocks/dhsl.md): the golden model as an
// sc_module with the Verilated model's ports (verif/sc/block.h), from the port
// declaration (txgen/ports/dhsl.h). The ports depend on the policy: define
// TXGEN_DHSL_REGS (mgvm_coarse, mgvm) and TXGEN_DHSL_MONITORS (mgvm) to 0 or 1
// before including; both default to 1.
#pragma once

#include "model/dhsl.h"
#include "sc/block.h"
#include "txgen/elab/dhsl.h"
#include "txgen/ports/dhsl.h"

#ifndef TXGEN_DHSL_REGS
#define TXGEN_DHSL_REGS 1
#endif
#ifndef TXGEN_DHSL_MONITORS
#define TXGEN_DHSL_MONITORS 1
#endif

namespace txgen::verif::sc {

struct DhslTraits
    : ModelTraits<elab::DhslParams, model::DhslModel, model::DhslIn, model::DhslOut> {};

#if TXGEN_DHSL_MONITORS
#define TXGEN_SC_DHSL_PORTS TXGEN_DHSL_PORTS
#elif TXGEN_DHSL_REGS
#define TXGEN_SC_DHSL_PORTS TXGEN_DHSL_REG_PORTS
#else
#define TXGEN_SC_DHSL_PORTS TXGEN_DHSL_ROUTER_PORTS
#endif

TXGEN_SC_BLOCK_DECL(DhslSc, DhslTraits, TXGEN_SC_DHSL_PORTS)

}  // namespace txgen::verif::sc
