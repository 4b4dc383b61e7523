#include <filesystem>
#include <iostream>

#include "txgen/cli/commands.h"
#include "txgen/cli/generate.h"
#include "txgen/util/process.h"
#include "txgen/util/text_file.h"

namespace txgen::cli {
namespace fs = std::filesystem;

void add_cosim_command(CLI::App& app, CosimOptions& opts) {
  CLI::App* cmd = app.add_subcommand(
      "cosim", "Build (cached in --out) and run the Verilator co-simulation of a block of a "
               "configuration against its golden model: directed corner cases and seeded random "
               "traffic, every output compared every cycle. Exit 1 on any mismatch.");
  cmd->add_option("--config", opts.config, "configuration file (JSON)")->required();
  cmd->add_option("--block", opts.block, "block to co-simulate (" + blocks::block_names() + ")")
      ->required();
  cmd->add_option("--out", opts.out, "directory for the co-simulation build and log")->required();
  cmd->add_option("--cycles", opts.cycles, "random cycles per stage (default 100000)");
  cmd->add_option("--seed", opts.seed, "random seed to replay (default: fixed seed, printed)");
  CLI::Option* systemc = cmd->add_flag("--systemc", opts.systemc,
                "instead: the SystemC test, the Verilated --sc model against the golden model's sc_module "
                "(docs/verification.md, SystemC)");
  cmd->add_option("--build-dir", opts.build_dir,
                  "CMake tree to build in (default OUT/build); one tree serves any number of configurations, "
                  "which then reuse its libraries (builds take turns)");
  cmd->add_flag("--bench", opts.bench,
                "run the random tests only, then replay their inputs into the RTL alone, the model alone "
                "and the lock-step pair, and print the cycles per CPU second of each ([bench] lines)")
      ->excludes(systemc);
}

std::vector<std::string> build_cosim(const LoadedConfig& lc, const std::string& config_path,
                                     const blocks::BlockInfo& block, const fs::path& build, const fs::path& log_dir,
                                     bool systemc) {
  std::cerr << "txgen: building the " << block.name << " co-simulation of " << lc.cfg.name << " in "
            << build.string() << " ...\n";
  std::vector<std::string> targets = {(systemc ? "txgen_sc_" : "txgen_cosim_") + block.name + "_" + lc.cfg.name};
  // a path with an iommu section: also the path with the L2-TLB and IOMMU inside (CMakeLists.txt)
  if (!systemc && block.name == "tx_path" && lc.cfg.iommu) targets.push_back("txgen_cosim_tx_path_l2_" + lc.cfg.name);
  build_in_tree(build,
                {"TXGEN_COSIM_CONFIG=" + fs::absolute(config_path).string(), "TXGEN_COSIM_BLOCK=" + block.name,
                 std::string("TXGEN_COSIM_SYSTEMC=") + (systemc ? "ON" : "OFF"),
                 "TXGEN_EVAL_CONFIG="},  // a tree shared with txgen eval builds one kind at a time
                targets, log_dir, "co-simulation");
  return targets;
}

int run_cosim(const CosimOptions& opts) {
  const LoadedConfig lc = load(opts.config);
  const auto selected = select_blocks(lc.cfg, opts.block);
  generate(lc, selected);  // elaborates: an infeasible configuration stops here, before any build
  const blocks::BlockInfo& block = *selected.front();
  const fs::path out = fs::absolute(opts.out);
  fs::create_directories(out);
  const fs::path build = opts.build_dir.empty() ? out / "build" : fs::absolute(opts.build_dir);
  const std::vector<std::string> targets = build_cosim(lc, opts.config, block, build, out, opts.systemc);
  util::EnvVars env = {{opts.systemc ? "TXGEN_SC_CYCLES" : "TXGEN_COSIM_CYCLES", std::to_string(opts.cycles)},
                       {"SC_COPYRIGHT_MESSAGE", "DISABLE"}};
  if (!opts.seed.empty()) env.push_back({"TXGEN_SEED", opts.seed});
  if (opts.bench) env.push_back({"TXGEN_COSIM_BENCH", "1"});
  int rc = 0;
  std::string text;
  for (const std::string& target : targets) {
    std::vector<std::string> argv = {(build / target).string()};
    if (opts.bench) argv.push_back("--gtest_filter=*Random*:*RoundTrip*");
    const fs::path part = out / (target + ".log");
    rc |= util::run_process(argv, env, out, part);
    text += util::read_text_file(part);
  }
  const fs::path log = out / "cosim.log";
  util::write_text_file(log, text);
  std::cout << text;
  std::cout << "txgen: co-simulation " << (rc == 0 ? "passed" : "FAILED") << " (log " << log.string()
            << ")\n";
  return rc == 0 ? 0 : 1;
}

}  // namespace txgen::cli
