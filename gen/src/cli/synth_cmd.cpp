#include <filesystem>
#include <iostream>
#include <regex>
#include <sstream>

#include "txgen/cli/commands.h"
#include "txgen/cli/generate.h"
#include "txgen/error.h"
#include "txgen/synth/synth_flow.h"
#include "txgen/util/text_file.h"

namespace txgen::cli {
namespace fs = std::filesystem;

namespace {

constexpr const char* kDefaultLiberty = "/usr/share/qflow/tech/osu018/osu018_stdcells.lib";

// The SDC's clock period is the one synthesis aims at (abc -D) and reports against.
double sdc_period_ns(const fs::path& sdc) {
  const std::string text = util::read_text_file(sdc);
  std::smatch m;
  if (!std::regex_search(text, m, std::regex(R"(create_clock[^\n]*-period\s+([0-9.]+))")))
    throw std::runtime_error(sdc.string() + " has no create_clock -period");
  return std::stod(m[1]);
}

}  // namespace

void add_synth_command(CLI::App& app, SynthOptions& opts) {
  CLI::App* cmd = app.add_subcommand(
      "synth", "Synthesize a block with Yosys onto the osu018 library and time it with OpenSTA "
               "against constraints/<block>.sdc; writes <block>.synth.json, .md and .csv.");
  cmd->add_option("--config", opts.config, "configuration file (JSON)")->required();
  cmd->add_option("--block", opts.block, "block to synthesize (" + blocks::block_names() + ")")
      ->required();
  cmd->add_option("--out", opts.out, "output directory (RTL, netlists, logs, reports)")->required();
  cmd->add_option("--liberty", opts.liberty, "liberty file (default: osu018 from qflow)");
}

int run_synth(const SynthOptions& opts) {
  const LoadedConfig lc = load(opts.config);
  const auto selected = select_blocks(lc.cfg, opts.block);
  const blocks::BlockInfo& block = *selected.front();
  const fs::path out(opts.out);
  const fs::path rtl = out / "rtl";
  emit::write_all_or_nothing(rtl.string(), generate(lc, selected));

  const fs::path source(TXGEN_SOURCE_DIR);
  const fs::path sdc = source / "constraints" / (block.name + ".sdc");
  synth::SynthRequest req;
  req.sdc_path = sdc.string();
  req.liberty_path = opts.liberty.empty() ? kDefaultLiberty : opts.liberty;
  req.scripts_dir = (source / "synth").string();
  req.period_ns = sdc_period_ns(sdc);
  std::istringstream file_list(util::read_text_file(rtl / "files.f"));
  for (std::string f; std::getline(file_list, f);)
    if (!f.empty()) req.verilog_files.push_back((rtl / f).string());
  std::vector<synth::SynthResult> results;
  for (const std::string& top : block.synth_tops(lc.cfg)) {
    req.top = top;
    req.work_dir = (out / top).string();
    std::cerr << "txgen: synthesizing " << top << " ...\n";
    results.push_back(synth::run_synth(req));
  }
  const std::string title = block.name + " (" + lc.cfg.name + ", config " + lc.hash + ")";
  const std::string md = synth::results_markdown(results, title);
  util::write_text_file(out / (block.name + ".synth.md"), md);
  const nlohmann::json doc = {{"block", block.name},
                              {"config", lc.cfg.name},
                              {"config_hash", lc.hash},
                              {"results", nlohmann::json::parse(synth::results_json(results))}};
  util::write_text_file(out / (block.name + ".synth.json"), doc.dump(2) + "\n");
  util::write_text_file(out / (block.name + ".synth.csv"), synth::results_csv(results));
  std::cout << md;
  return 0;
}

}  // namespace txgen::cli
