// Internal interface of the lds_ctrl emitter, split over lds_ctrl.cpp
// (control: handshake, allocation table, CLEAR, mode bits),
// lds_ctrl_datapath.cpp (segment read/compare/write, response, victims,
// engine state) and lds_ctrl_sim.cpp (baseline, SRAM model, co-simulation
// tops). docs/blocks/lds_ctrl.md is the behaviour.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "txgen/blocks/block.h"
#include "txgen/elab/lds_ctrl.h"
#include "txgen/emit/expr.h"
#include "txgen/emit/verilog.h"

namespace txgen::blocks::lds {

// Engine states and operations. CLEAR and the reset operation are zero so the
// asynchronous reset starts the post-reset clear of the mode bits.
enum State : unsigned { kClear = 0, kIdle = 1, kCmp = 2, kWrite = 3, kVic = 4, kIssue = 5, kDec = 6, kWg = 7 };
enum Op : unsigned { kOpReset = 0, kOpLookup = 1, kOpFill = 2, kOpShoot = 3, kOpAlloc = 4 };
constexpr unsigned kStateBits = 3;
constexpr unsigned kWordBits = 64;


std::string state_is(State s);
std::string op_is(Op o);
std::string indexed(const std::string& base, unsigned i);  // base + i
using emit::Cases;
using emit::field;
using emit::onehot_select;
using emit::or_of;
using emit::priority;

void header(emit::Module& m, const elab::LdsCtrlParams& p, const EmitContext& ctx,
            const std::string& role);
void app_ports(emit::Module& m, const elab::LdsCtrlParams& p);
void translation_ports(emit::Module& m, const elab::LdsCtrlParams& p);
// SRAM port as seen from the controller (out_sfx on what it drives) or the SRAM.
void sram_ports(emit::Module& m, const elab::LdsCtrlParams& p, const std::string& prefix,
                const std::string& drive_sfx, const std::string& read_sfx);
// app_rvalid_o register and app_rdata_o wire.
void app_read_path(emit::Module& m);

void control(emit::Module& m, const elab::LdsCtrlParams& p);   // lds_ctrl.cpp
void datapath(emit::Module& m, const elab::LdsCtrlParams& p);  // lds_ctrl_datapath.cpp

emit::Module emit_base(const elab::LdsCtrlParams& p, const EmitContext& ctx);
emit::Module emit_sram(const elab::LdsCtrlParams& p, const EmitContext& ctx);
emit::Module emit_sys(const elab::LdsCtrlParams& p, const EmitContext& ctx, bool baseline);

nlohmann::json params_json(const elab::LdsCtrlParams& p);
nlohmann::json report_json(const config::Config& cfg);
std::string report_markdown(const config::Config& cfg);

}  // namespace txgen::blocks::lds
