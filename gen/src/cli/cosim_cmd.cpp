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
  cmd->add_flag("--bench", opts.bench,
                "run the random tests only, then replay their inputs into the RTL alone, the model alone "
                "and the lock-step pair, and print the cycles per CPU second of each ([bench] lines)");
}

int run_cosim(const CosimOptions& opts) {
  const LoadedConfig lc = load(opts.config);
  const auto selected = select_blocks(lc.cfg, opts.block);
  generate(lc, selected);  // elaborates: an infeasible configuration stops here, before any build
  const blocks::BlockInfo& block = *selected.front();
  const fs::path out = fs::absolute(opts.out);
  fs::create_directories(out);
  const fs::path build = out / "build";
  std::cerr << "txgen: building the " << block.name << " co-simulation of " << lc.cfg.name
            << " in " << build.string() << " ...\n";
  util::run_build_step({"cmake", "-S", TXGEN_SOURCE_DIR, "-B", build.string(), "-G", "Ninja",
              "-DCMAKE_BUILD_TYPE=Release", "-DTXGEN_COSIM_CONFIG=" + fs::absolute(opts.config).string(),
              "-DTXGEN_COSIM_BLOCK=" + block.name},
             out / "configure.log", "configuring the co-simulation");
  const std::string target = "txgen_cosim_" + block.name + "_" + lc.cfg.name;
  util::run_build_step({"cmake", "--build", build.string(), "--target", target}, out / "build.log",
             "building the co-simulation");
  util::EnvVars env = {{"TXGEN_COSIM_CYCLES", std::to_string(opts.cycles)}};
  if (!opts.seed.empty()) env.push_back({"TXGEN_SEED", opts.seed});
  std::vector<std::string> argv = {(build / target).string()};
  if (opts.bench) {
    env.push_back({"TXGEN_COSIM_BENCH", "1"});
    argv.push_back("--gtest_filter=*Random*:*RoundTrip*");
  }
  const fs::path log = out / "cosim.log";
  const int rc = util::run_process(argv, env, out, log);
  std::cout << util::read_text_file(log);
  std::cout << "txgen: co-simulation " << (rc == 0 ? "passed" : "FAILED") << " (log " << log.string()
            << ")\n";
  return rc == 0 ? 0 : 1;
}

}  // namespace txgen::cli
