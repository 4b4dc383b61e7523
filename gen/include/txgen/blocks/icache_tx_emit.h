// Internal interface of the icache_tx emitter, split over icache_tx.cpp
// (ports, instruction side, line modes, recency, flush, arbitration, the
// registry entry), icache_tx_engine.cpp (the translation engine) and
// icache_tx_sim.cpp (behavioural SRAMs and co-simulation tops).
// docs/blocks/icache_tx.md is the behaviour.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "txgen/blocks/block.h"
#include "txgen/elab/icache_tx.h"
#include "txgen/emit/expr.h"
#include "txgen/emit/verilog.h"

namespace txgen::blocks::icache {

// Engine states; IDLE is zero so the reset leaves the engine idle.
enum State : unsigned { kIdle = 0, kIssue = 1, kDec = 2, kCmp = 3, kWrite = 4, kVic = 5, kPack = 6 };
enum Op : unsigned { kOpLookup = 0, kOpFill = 1, kOpShoot = 2 };
constexpr unsigned kStateBits = 3;
constexpr unsigned kOpBits = 2;
constexpr unsigned kSlotBits = 64;

std::string state_is(State s);
std::string op_is(Op o);

// Tag SRAM entry width of the controller (E) or of the baseline (TB).
unsigned entry_width(const elab::IcacheTxParams& p, bool baseline);

void header(emit::Module& m, const elab::IcacheTxParams& p, const EmitContext& ctx,
            const std::string& role);
void instruction_ports(emit::Module& m, const elab::IcacheTxParams& p);
void translation_ports(emit::Module& m, const elab::IcacheTxParams& p);
// Tag and data SRAM ports as the controller sees them (drive "_o", read "_i"),
// or as a co-simulation top brings them out (read_sfx empty).
void sram_ports(emit::Module& m, const elab::IcacheTxParams& p, bool baseline, const std::string& drive_sfx,
                const std::string& read_sfx);

// icache_tx.cpp: line modes, recency, instruction fetch and fill, flush.
void instruction_side(emit::Module& m, const elab::IcacheTxParams& p, bool baseline);
// icache_tx_engine.cpp: arbitration, the engine, response, victims, shootdown.
void engine(emit::Module& m, const elab::IcacheTxParams& p);

emit::Module emit_tag_sram(const elab::IcacheTxParams& p, const EmitContext& ctx, bool baseline);
emit::Module emit_data_sram(const elab::IcacheTxParams& p, const EmitContext& ctx);
emit::Module emit_sys(const elab::IcacheTxParams& p, const EmitContext& ctx, bool baseline);

nlohmann::json params_json(const elab::IcacheTxParams& p);
nlohmann::json report_json(const config::Config& cfg);
std::string report_markdown(const config::Config& cfg);

}  // namespace txgen::blocks::icache
