#include <filesystem>
#include <iostream>

#include "txgen/cli/commands.h"
#include "txgen/cli/generate.h"
#include "txgen/cli/synth_block.h"
#include "txgen/error.h"
#include "txgen/synth/synth_flow.h"
#include "txgen/util/text_file.h"

namespace txgen::cli {
namespace fs = std::filesystem;

namespace {

// The --vs configuration, with errors naming the option.
LoadedConfig load_vs(const std::string& path, const std::string& block) {
  try {
    LoadedConfig lc = load(path);
    select_blocks(lc.cfg, block);
    return lc;
  } catch (const ConfigError& e) {
    throw ConfigError("--vs " + path + ": " + e.path(), e.value(), e.rule());
  }
}

}  // namespace

void add_synth_command(CLI::App& app, SynthOptions& opts) {
  CLI::App* cmd = app.add_subcommand(
      "synth", "Synthesize a block with Yosys onto the osu018 library and time it with OpenSTA "
               "against constraints/<block>.sdc; writes <block>.synth.json, .md and .csv, each with "
               "the overhead against the baseline (X against X_base, or the --vs configuration).");
  cmd->add_option("--config", opts.config, "configuration file (JSON)")->required();
  cmd->add_option("--block", opts.block, "block to synthesize (" + blocks::block_names() + ")")
      ->required();
  cmd->add_option("--out", opts.out, "output directory (RTL, netlists, logs, reports)")->required();
  cmd->add_option("--liberty", opts.liberty, "liberty file (default: osu018 from qflow)");
  cmd->add_option("--vs", opts.vs,
                  "baseline configuration: synthesize its block too (into OUT/vs) and table this one against it "
                  "(e.g. walk_sched SIMT against FCFS)");
  cmd->add_option("--jobs", opts.jobs, "syntheses run at once (default 1)")->check(CLI::Range(1u, 64u));
}

int run_synth(const SynthOptions& opts) {
  const LoadedConfig lc = load(opts.config);
  const blocks::BlockInfo& block = *select_blocks(lc.cfg, opts.block).front();
  const fs::path out(opts.out);
  if (opts.vs.empty()) {
    write_synthesis_reports(synthesize_block(lc, block, out, opts.liberty, opts.jobs), out);
  } else {
    const LoadedConfig vs_lc = load_vs(opts.vs, block.name);
    auto requests = prepare_block_synthesis(lc, block, out, opts.liberty);
    const std::size_t own = requests.size();
    for (auto& r : prepare_block_synthesis(vs_lc, block, out / kVsDir, opts.liberty)) requests.push_back(r);
    auto results = synth::run_synth_all(requests, opts.jobs, announce_synthesis);
    const BlockSynthesis vs = block_synthesis(vs_lc, block, {results.begin() + own, results.end()});
    write_synthesis_reports(vs, out / kVsDir);
    write_synthesis_reports(block_synthesis(lc, block, {results.begin(), results.begin() + own}), out, &vs, opts.vs);
  }
  std::cout << util::read_text_file(out / (block.name + ".synth.md"));
  return 0;
}

}  // namespace txgen::cli
