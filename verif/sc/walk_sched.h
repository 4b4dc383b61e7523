// SystemC view of walk_sched_NAME (docs/blocks/walk_sched.md): the golden
// model as an sc_module with the Verilated model's ports (verif/sc/block.h),
// from the port declaration (txgen/ports/walk_sched.h). The dispatch payload
// is defined only with disp_valid_o.
#pragma once

#include "model/walk_sched.h"
#include "sc/block.h"
#include "txgen/elab/walk_sched.h"
#include "txgen/ports/walk_sched.h"

namespace txgen::verif::sc {

struct WalkSchedTraits
    : ModelTraits<elab::WalkSchedParams, model::WalkSchedModel, model::WalkSchedIn, model::WalkSchedOut> {};

TXGEN_SC_BLOCK_DECL(WalkSchedSc, WalkSchedTraits, TXGEN_WALK_SCHED_PORTS)

}  // namespace txgen::verif::sc
