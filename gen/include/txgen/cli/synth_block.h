// Synthesis of one block of one configuration, shared by `synth` and `qor`:
// the RTL, one Yosys + OpenSTA run per clocked module, the report files.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "txgen/cli/generate.h"
#include "txgen/synth/overhead.h"
#include "txgen/synth/sram_macro.h"
#include "txgen/synth/synth_flow.h"

namespace txgen::cli {

inline constexpr const char* kVsDir = "vs";  // the --vs run, under --out

struct BlockSynthesis {
  const blocks::BlockInfo* block = nullptr;
  std::string config_name, config_hash;
  std::string module_prefix;  // <block>_<config name>
  std::vector<synth::SynthResult> results;
  std::vector<synth::SramArray> sram_arrays;  // beside the modules (BlockInfo::sram_arrays)
};

// The block's modules to synthesize, each with its work directory out/<module>.
// Writes the RTL to out/rtl first.
std::vector<synth::SynthRequest> prepare_block_synthesis(const LoadedConfig& lc, const blocks::BlockInfo& block,
                                                         const std::filesystem::path& out,
                                                         const std::string& liberty);

// The run record of results obtained for the requests of prepare_block_synthesis.
BlockSynthesis block_synthesis(const LoadedConfig& lc, const blocks::BlockInfo& block,
                               std::vector<synth::SynthResult> results);

// The progress line each synthesis prints as it starts.
void announce_synthesis(const synth::SynthRequest& req);

// The block's "<name> (<config>, config <hash>)" title of its tables.
std::string synthesis_title(const BlockSynthesis& run);

// <block>.synth.md, .json and .csv in out: the module table, then the overhead
// against the X_base modules of the run, or against `vs` (the --vs run of the
// configuration vs_path) when given.
void write_synthesis_reports(const BlockSynthesis& run, const std::filesystem::path& out,
                             const BlockSynthesis* vs = nullptr, const std::string& vs_path = "");

}  // namespace txgen::cli
