#include <algorithm>
#include <filesystem>
#include <iostream>
#include <regex>
#include <set>
#include <sstream>

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

// Whether the Verilog text instantiates one of `modules` (txgen emits one
// module per file and one "module_name instance_name (" line per instance).
bool instantiates_any(const std::string& verilog, const std::set<std::string>& modules) {
  static const std::regex instance_re(R"(^\s*([A-Za-z_][A-Za-z0-9_]*)\s+[A-Za-z_][A-Za-z0-9_]*\s*\()");
  std::istringstream lines(verilog);
  std::smatch m;
  for (std::string line; std::getline(lines, line);) {
    if (std::regex_search(line, m, instance_re) && modules.count(m[1])) return true;
  }
  return false;
}

// --hier needs a module hierarchy: a block whose synthesized modules hold no
// submodule would give the flat result under another name. Checked on the
// RTL in memory, before anything is written.
void check_hierarchy(const LoadedConfig& lc, const blocks::BlockInfo& block) {
  const auto files = generate(lc, {&block});
  std::set<std::string> modules;
  for (const auto& f : files) {
    const fs::path name(f.name);
    if (name.extension() == ".v") modules.insert(name.stem().string());
  }
  const auto tops = block.synth_tops(lc.cfg);
  const bool nested = std::any_of(tops.begin(), tops.end(), [&](const std::string& top) {
    const auto file = std::find_if(files.begin(), files.end(), [&](const auto& f) { return f.name == top + ".v"; });
    return file != files.end() && instantiates_any(file->text, modules);
  });
  if (!nested) {
    std::string names;
    for (const auto& top : tops) names += (names.empty() ? "" : ", ") + top;
    throw ConfigError("--hier", "\"" + block.name + "\"",
                      "the block has no module hierarchy to keep: its synthesized modules (" + names +
                          ") instantiate no other module; synthesize it without --hier");
  }
}

std::vector<synth::SynthRequest> requests_for(const LoadedConfig& lc, const blocks::BlockInfo& block,
                                              const fs::path& out, const SynthOptions& opts) {
  auto requests = prepare_block_synthesis(lc, block, out, opts.liberty);
  for (auto& r : requests) r.hierarchical = opts.hier;
  return requests;
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
  cmd->add_flag("--hier", opts.hier,
                "keep the module hierarchy: each unique module mapped once, OpenSTA on the hierarchical netlist; "
                "totals over every instance and a per-module table (default: flatten)");
}

int run_synth(const SynthOptions& opts) {
  const LoadedConfig lc = load(opts.config);
  const blocks::BlockInfo& block = *select_blocks(lc.cfg, opts.block).front();
  const fs::path out(opts.out);
  if (opts.hier) check_hierarchy(lc, block);
  if (opts.vs.empty()) {
    const auto requests = requests_for(lc, block, out, opts);
    write_synthesis_reports(block_synthesis(lc, block, synth::run_synth_all(requests, opts.jobs, announce_synthesis)),
                            out);
  } else {
    const LoadedConfig vs_lc = load_vs(opts.vs, block.name);
    auto requests = requests_for(lc, block, out, opts);
    const std::size_t own = requests.size();
    for (auto& r : requests_for(vs_lc, block, out / kVsDir, opts)) requests.push_back(r);
    auto results = synth::run_synth_all(requests, opts.jobs, announce_synthesis);
    const BlockSynthesis vs = block_synthesis(vs_lc, block, {results.begin() + own, results.end()});
    write_synthesis_reports(vs, out / kVsDir);
    write_synthesis_reports(block_synthesis(lc, block, {results.begin(), results.begin() + own}), out, &vs, opts.vs);
  }
  std::cout << util::read_text_file(out / (block.name + ".synth.md"));
  return 0;
}

}  // namespace txgen::cli
