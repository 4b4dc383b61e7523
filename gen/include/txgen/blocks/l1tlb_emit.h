// Internal interface of the l1tlb block: its storage and latency report
// (l1tlb_report.cpp) and its emitter (l1tlb.cpp). docs/blocks/l1tlb.md is the behaviour.
#pragma once

#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "txgen/blocks/block.h"
#include "txgen/config/config.h"
#include "txgen/elab/l1tlb.h"
#include "txgen/hdl/module.h"

namespace txgen::blocks::l1tlb {

// One TLB (crossbar port, lookup pipeline, replacement, MSHRs, fill), rendered.
std::string emit_tlb(const elab::L1tlbParams& p, const EmitContext& ctx);
// The block top l1tlb_<config> (p.module_prefix), rendered.
std::string emit_top(const elab::L1tlbParams& p, const EmitContext& ctx);
// Its ports, to instantiate it.
hdl::Interface top_interface(const elab::L1tlbParams& p, const EmitContext& ctx);
std::unique_ptr<hdl::Module> build_top(const elab::L1tlbParams& p, const EmitContext& ctx);

nlohmann::json params_json(const elab::L1tlbParams& p);
nlohmann::json report_json(const config::Config& cfg);
std::string report_markdown(const config::Config& cfg);

}  // namespace txgen::blocks::l1tlb
