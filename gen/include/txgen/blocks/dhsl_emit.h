// Internal interface of the dhsl emitter: the units (dhsl.cpp), the
// co-simulation top and registry entry (dhsl_sys.cpp) and the storage report
// (dhsl_report.cpp). docs/blocks/dhsl.md is the behaviour.
#pragma once

#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "txgen/blocks/block.h"
#include "txgen/elab/dhsl.h"
#include "txgen/hdl/module.h"

namespace txgen::blocks::dhsl {

// A unit under construction; the registry entry renders it and keeps its
// interface for the modules that instantiate it.
using ModulePtr = std::unique_ptr<hdl::Module>;

// The ports of the units that other units instantiate.
struct Units {
  hdl::Interface hsl, hsl_reg, rtu_mon, l2_mon, cp, router;
};

ModulePtr emit_hsl(const elab::DhslParams& p, const EmitContext& ctx);
ModulePtr emit_hsl_reg(const elab::DhslParams& p, const EmitContext& ctx);
ModulePtr emit_rtu_mon(const elab::DhslParams& p, const EmitContext& ctx);
ModulePtr emit_l2_mon(const elab::DhslParams& p, const EmitContext& ctx);
ModulePtr emit_cp(const elab::DhslParams& p, const EmitContext& ctx);
ModulePtr emit_router(const elab::DhslParams& p, const EmitContext& ctx, const hdl::Interface& hsl);
ModulePtr emit_hsl_stage(const elab::DhslParams& p, const EmitContext& ctx, const hdl::Interface& hsl,
                         const hdl::Interface& hsl_reg);
ModulePtr emit_sys(const elab::DhslParams& p, const EmitContext& ctx, const Units& units);

// The first header lines of every module: generator, role, configuration.
void title(hdl::Module& m, const EmitContext& ctx, const std::string& role);
using Clock = hdl::Module::ClockReset;

nlohmann::json params_json(const elab::DhslParams& p);
nlohmann::json report_json(const config::Config& cfg);
std::string report_markdown(const config::Config& cfg);

}  // namespace txgen::blocks::dhsl
