// Internal interface of the walk_sched emitter: the scheduler (walk_sched.cpp)
// and its registry entry and storage report (walk_sched_report.cpp).
// docs/blocks/walk_sched.md is the behaviour.
#pragma once

#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "txgen/blocks/block.h"
#include "txgen/elab/walk_sched.h"

namespace txgen::blocks::walk_sched {

// The scheduler module (named p.module_prefix), built (for a host that
// instantiates it) or rendered.
std::unique_ptr<hdl::Module> build_top(const elab::WalkSchedParams& p, const EmitContext& ctx);
std::string emit_top(const elab::WalkSchedParams& p, const EmitContext& ctx);

nlohmann::json params_json(const elab::WalkSchedParams& p);
nlohmann::json report_json(const config::Config& cfg);
std::string report_markdown(const config::Config& cfg);

}  // namespace txgen::blocks::walk_sched
