// Internal interface of the dhsl emitter: the units (dhsl.cpp), the
// co-simulation top and registry entry (dhsl_sys.cpp) and the storage report
// (dhsl_report.cpp). docs/blocks/dhsl.md is the behaviour.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "txgen/blocks/block.h"
#include "txgen/elab/dhsl.h"
#include "txgen/emit/verilog.h"

namespace txgen::blocks::dhsl {

emit::Module emit_hsl(const elab::DhslParams& p, const EmitContext& ctx);
emit::Module emit_hsl_reg(const elab::DhslParams& p, const EmitContext& ctx);
emit::Module emit_rtu_mon(const elab::DhslParams& p, const EmitContext& ctx);
emit::Module emit_l2_mon(const elab::DhslParams& p, const EmitContext& ctx);
emit::Module emit_cp(const elab::DhslParams& p, const EmitContext& ctx);
emit::Module emit_router(const elab::DhslParams& p, const EmitContext& ctx);
emit::Module emit_hsl_stage(const elab::DhslParams& p, const EmitContext& ctx);
emit::Module emit_sys(const elab::DhslParams& p, const EmitContext& ctx);

nlohmann::json params_json(const elab::DhslParams& p);
nlohmann::json report_json(const config::Config& cfg);
std::string report_markdown(const config::Config& cfg);

}  // namespace txgen::blocks::dhsl
