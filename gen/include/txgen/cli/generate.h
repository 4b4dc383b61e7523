// The generation run shared by `gen` and `synth`: configuration -> files.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "txgen/blocks/block.h"
#include "txgen/config/config.h"
#include "txgen/emit/output.h"

namespace txgen::cli {

struct LoadedConfig {
  nlohmann::json doc;
  config::Config cfg;
  std::string hash;
};

LoadedConfig load(const std::string& path);

// The blocks to act on: the one named (ConfigError if unknown or not
// configured), else every configured block.
std::vector<const blocks::BlockInfo*> select_blocks(const config::Config& cfg,
                                                    const std::string& name);

// Verilog files, files.f and manifest.json for the selected blocks.
std::vector<emit::NamedText> generate(const LoadedConfig& lc,
                                      const std::vector<const blocks::BlockInfo*>& blocks);

}  // namespace txgen::cli
