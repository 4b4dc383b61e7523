// `txgen power`: the power of a block's synthesized modules from the activity
// of its lock-step co-simulation, with the SRAM macros beside them and the
// energy per operation (docs/power.md).
#include <algorithm>
#include <filesystem>
#include <iostream>

#include "txgen/cli/commands.h"
#include "txgen/cli/generate.h"
#include "txgen/cli/synth_block.h"
#include "txgen/error.h"
#include "txgen/power/power_flow.h"
#include "txgen/util/process.h"
#include "txgen/util/text_file.h"

namespace txgen::cli {
namespace fs = std::filesystem;

namespace {

// The co-simulation's waveforms, one per test that ran (waveforms/<test>.fst).
std::vector<fs::path> run_cosim_for_power(const PowerOptions& opts, const LoadedConfig& lc,
                                          const blocks::BlockInfo& block, const fs::path& out) {
  const fs::path build = opts.build_dir.empty() ? out / "build" : fs::absolute(opts.build_dir);
  const fs::path waves = out / "waveforms";
  fs::remove_all(waves);
  fs::create_directories(waves);
  const util::EnvVars env = {{"TXGEN_COSIM_CYCLES", std::to_string(opts.cycles)},
                             {"TXGEN_COSIM_WAVEFORM", waves.string()}};
  for (const std::string& target : build_cosim(lc, opts.config, block, build, out, false)) {
    std::cerr << "txgen: power: running " << target << " (" << opts.test << ") with its waveform ...\n";
    const fs::path log = out / (target + ".log");
    if (util::run_process({(build / target).string(), "--gtest_filter=" + opts.test}, env, out, log) == 0) continue;
    // a short run may miss a coverage goal; its traffic still serves, a mismatch does not
    if (util::read_text_file(log).find("MISMATCH") != std::string::npos)
      throw std::runtime_error("txgen power: the co-simulation found a mismatch (log: " + log.string() + ")");
    std::cerr << "txgen: power: the co-simulation missed a coverage goal at --cycles " << opts.cycles
              << " (log: " << log.string() << "); its traffic still sets the activity\n";
  }
  std::vector<fs::path> fsts;
  for (const auto& e : fs::directory_iterator(waves))
    if (e.path().extension() == ".fst") fsts.push_back(e.path());
  std::sort(fsts.begin(), fsts.end());
  if (fsts.empty())
    throw std::runtime_error("txgen power: no co-simulation test matched --test " + opts.test);
  return fsts;
}

// The first waveform in which the module's ports appear, and its test.
std::optional<fs::path> waveform_of(const std::vector<fs::path>& fsts, const fs::path& netlist, const std::string& top) {
  const auto ports = power::netlist_ports(util::read_text_file(netlist), top);
  for (const fs::path& f : fsts) {
    const power::FstFile fst(f.string());
    if (!power::scopes_with_ports(fst, ports).empty()) return f;
  }
  return std::nullopt;
}

template <class T>
std::vector<T> of_module(const std::vector<T>& all, const std::string& module) {
  std::vector<T> mine;
  std::copy_if(all.begin(), all.end(), std::back_inserter(mine), [&](const T& x) { return x.module == module; });
  return mine;
}

}  // namespace

void add_power_command(CLI::App& app, PowerOptions& opts) {
  CLI::App* cmd = app.add_subcommand(
      "power",
      "Power and energy per operation of a block's synthesized modules from a real run: the lock-step "
      "co-simulation's inputs replayed into the mapped netlist (Icarus), each net's toggles, OpenSTA's power per "
      "instance at its own activity, plus the SRAM macros' access energy and leakage; writes <block>.power.md, "
      ".json and .csv.");
  cmd->add_option("--config", opts.config, "configuration file (JSON)")->required();
  cmd->add_option("--block", opts.block, "block (" + blocks::block_names() + ")")->required();
  cmd->add_option("--out", opts.out, "output directory (RTL, synthesis, co-simulation, waveforms, reports)")
      ->required();
  cmd->add_option("--module", opts.module, "one synthesized module (default: every one the co-simulation drives)");
  cmd->add_option("--test", opts.test,
                  "co-simulation tests whose traffic sets the activity (gtest filter; default *Random*: the "
                  "first random test that drives the module)");
  cmd->add_option("--cycles", opts.cycles, "random cycles per stage of the co-simulation (default 5000)")
      ->check(CLI::Range(1ul, 10000000ul));
  cmd->add_option("--replay-cycles", opts.replay_cycles,
                  "cycles of the test's run replayed at gate level and counted (default 20000; Icarus replays a "
                  "12,000-cell netlist at 300-2,000 cycles/s, the report gives its speed)")
      ->check(CLI::Range(1ul, 100000000ul));
  cmd->add_option("--build-dir", opts.build_dir, "CMake tree of the co-simulation (default OUT/build)");
}

int run_power(const PowerOptions& opts) {
  const LoadedConfig lc = load(opts.config);
  const blocks::BlockInfo& block = *select_blocks(lc.cfg, opts.block).front();
  const auto tops = block.synth_tops(lc.cfg);
  if (!opts.module.empty() && std::find(tops.begin(), tops.end(), opts.module) == tops.end()) {
    std::string names;
    for (const auto& t : tops) names += (names.empty() ? "" : ", ") + t;
    throw ConfigError("--module", "\"" + opts.module + "\"",
                      "not a synthesized module of " + block.name + " in this configuration; one of: " + names);
  }
  generate(lc, {&block});  // elaborates: an infeasible configuration stops here, before anything is written
  const fs::path out = fs::absolute(opts.out);
  auto requests = prepare_block_synthesis(lc, block, out, "");
  if (!opts.module.empty())
    requests.erase(std::remove_if(requests.begin(), requests.end(), [&](const auto& r) { return r.top != opts.module; }),
                   requests.end());
  const auto fsts = run_cosim_for_power(opts, lc, block, out);
  const auto results = synth::run_synth_all(requests, 1, announce_synthesis);
  const auto arrays = block.sram_arrays ? block.sram_arrays(lc.cfg) : std::vector<synth::SramArray>{};
  const auto ops = block.power_operations ? block.power_operations(lc.cfg) : std::vector<power::Operation>{};

  std::vector<power::PowerResult> powers;
  std::string skipped;
  for (std::size_t i = 0; i < requests.size(); ++i) {
    const fs::path dir = requests[i].work_dir;
    const auto wave = waveform_of(fsts, dir / "netlist.v", requests[i].top);
    if (!wave) {
      skipped += (skipped.empty() ? "" : ", ") + requests[i].top;
      continue;
    }
    std::cerr << "txgen: power " << requests[i].top << ": gate-level replay of " << wave->stem().string() << " ...\n";
    power::PowerRequest req;
    req.synth = results[i];
    req.synth_dir = dir.string();
    req.sdc_name = fs::path(requests[i].sdc_path).filename().string();
    req.liberty_path = requests[i].liberty_path;
    req.scripts_dir = requests[i].scripts_dir;
    req.rtl_waveform = wave->string();
    req.test = wave->stem().string();
    req.work_dir = (dir / "power").string();
    req.arrays = of_module(arrays, requests[i].top);
    req.operations = of_module(ops, requests[i].top);
    req.max_cycles = opts.replay_cycles;
    powers.push_back(power::run_power(req));
  }
  if (powers.empty())
    throw std::runtime_error("txgen power: the co-simulation drives none of " + block.name + "'s synthesized modules");
  std::string md = power::power_markdown(powers, synthesis_title(block_synthesis(lc, block, {})));
  if (!skipped.empty()) md += "\nNot in the co-simulation (no activity to measure): " + skipped + ".\n";
  util::write_text_file(out / (block.name + ".power.md"), md);
  util::write_text_file(out / (block.name + ".power.json"), power::power_json(powers));
  util::write_text_file(out / (block.name + ".power.csv"), power::power_csv(powers));
  std::cout << md;
  return 0;
}

}  // namespace txgen::cli
