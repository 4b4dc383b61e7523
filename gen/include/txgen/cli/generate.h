// The generation run shared by `gen` and `synth`: configuration -> files.
#pragma once

#include <filesystem>
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

// The build tree of the running txgen (its directory), once ninja has
// brought its CLI, generator library and golden models up to date there
// (log_dir/prebuilt.log); "" when that fails, when it is another source
// tree's or `build` itself. A tree that build_in_tree configures links them
// (TXGEN_PREBUILT) instead of compiling them again.
std::string prebuilt_tree(const std::filesystem::path& build, const std::filesystem::path& log_dir);

// Configures the CMake tree `build` over the txgen sources with the -D
// definitions given and builds `targets`, quietly (logs configure.log and
// build.log in log_dir). Holds build/txgen.lock meanwhile, so runs that share
// one tree (txgen sweep) take turns and reuse its libraries.
void build_in_tree(const std::filesystem::path& build, const std::vector<std::string>& defines,
                   const std::vector<std::string>& targets, const std::filesystem::path& log_dir,
                   const std::string& what);

// Builds the lock-step co-simulation executables of `block` (config_path's
// configuration) in `build`; returns their target names (executables in build).
std::vector<std::string> build_cosim(const LoadedConfig& lc, const std::string& config_path,
                                     const blocks::BlockInfo& block, const std::filesystem::path& build,
                                     const std::filesystem::path& log_dir, bool systemc);

}  // namespace txgen::cli
