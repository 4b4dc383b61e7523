// Internal interface of the ata block: its emitter (ata.cpp) and its storage
// and structure report (ata_report.cpp). docs/blocks/ata.md is the behaviour.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "txgen/blocks/block.h"
#include "txgen/config/config.h"
#include "txgen/elab/ata.h"

namespace txgen::blocks::ata {

// The block top ata_<config> (p.module_prefix), rendered.
std::string emit_top(const elab::AtaParams& p, const EmitContext& ctx);

nlohmann::json params_json(const elab::AtaParams& p);
nlohmann::json report_json(const config::Config& cfg);
std::string report_markdown(const config::Config& cfg);

}  // namespace txgen::blocks::ata
