// Internal interface of the dhsl emitter: the units (dhsl.cpp), the
// co-simulation top and registry entry (dhsl_sys.cpp) and the storage report
// (dhsl_report.cpp). docs/blocks/dhsl.md is the behaviour.
#pragma once

#include <memory>
#include <string>
#include <vector>

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

// The signals of the monitors and the decision unit that their formal
// properties read (dhsl_props.cpp; txgen prove).
struct RtuMonSignals {
  hdl::Value in, out, epoch, trigger, possible, prev_in, prev_out, inc, outc, left, d;
};
// A segmented counter's registers: the saturation flag and each segment with
// the carry waiting for it (none for segment 0); `inc` is this cycle's
// increment (0 once saturated) and `settled` the segments with their waiting
// carries applied (the count, from registers only), least significant first.
struct CounterState {
  hdl::Value full;
  std::vector<std::pair<hdl::Value, hdl::Value>> segments;
  hdl::Value inc;
  std::vector<hdl::Value> settled;
};
struct L2MonSignals {
  hdl::Value access, hit, cid, epoch, back, prev_acc, prev_hits;
  CounterState acc, hits;
  std::vector<CounterState> cnt;
  hdl::Value balanced, decide, step, streak;  // step: edges to the decision (0: none pending)
};
struct CpSignals {
  hdl::Value trigger, back, prev_in, prev_hits, prev_acc, armed, decide, imbalance, high, go_fine, back_fire, mode, sw,
      prev_imb;
};
void rtu_mon_properties(hdl::Module& m, const elab::DhslParams& p, const RtuMonSignals& s);
void l2_mon_properties(hdl::Module& m, const elab::DhslParams& p, const L2MonSignals& s);
void cp_properties(hdl::Module& m, const elab::DhslParams& p, const CpSignals& s);

// The header of every dhsl module (blocks::module_header with its parameters).
void header(hdl::Module& m, const elab::DhslParams& p, const EmitContext& ctx, const std::string& role);
using Clock = hdl::Module::ClockReset;

nlohmann::json params_json(const elab::DhslParams& p);
nlohmann::json report_json(const config::Config& cfg);
std::string report_markdown(const config::Config& cfg);

}  // namespace txgen::blocks::dhsl
