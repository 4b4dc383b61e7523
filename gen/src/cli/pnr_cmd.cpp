// `txgen pnr`: one synthesized module of a block placed and routed with qflow
// on osu018, timed after routing beside its pre-layout timing (docs/pnr.md).
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <regex>

#include "txgen/cli/commands.h"
#include "txgen/cli/generate.h"
#include "txgen/cli/synth_block.h"
#include "txgen/error.h"
#include "txgen/pnr/pnr_flow.h"
#include "txgen/util/text_file.h"

namespace txgen::cli {
namespace fs = std::filesystem;

namespace {

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

const emit::NamedText* find_module(const std::vector<emit::NamedText>& files, const std::string& module) {
  const auto file = std::find_if(files.begin(), files.end(), [&](const auto& f) { return f.name == module + ".v"; });
  return file == files.end() ? nullptr : &*file;
}

bool has_clock(const emit::NamedText& file) {
  static const std::regex clock_re(R"(\binput\s+(wire\s+)?clk_i\b)");
  return std::regex_search(file.text, clock_re);
}

// The module to place: --module, else the block's first synthesized module.
// It must be clocked (clk_i): the post-route period is what the command
// reports. Checked on the RTL in memory, before anything is written.
std::string pick_module(const LoadedConfig& lc, const blocks::BlockInfo& block, const std::string& module) {
  const auto tops = block.synth_tops(lc.cfg);
  const auto files = generate(lc, {&block});
  if (module.empty()) {
    if (tops.empty())
      throw ConfigError("--block", "\"" + block.name + "\"", "the block synthesizes no module in this configuration");
    const emit::NamedText* file = find_module(files, tops.front());
    if (!file || !has_clock(*file))
      throw ConfigError(
          "--block", "\"" + block.name + "\"",
          "its first synthesized module " + tops.front() + " has no clock input clk_i; pick one with --module");
    return tops.front();
  }
  const emit::NamedText* file = find_module(files, module);
  if (file && !has_clock(*file))
    throw ConfigError("--module", "\"" + module + "\"",
                      "the module has no clock input clk_i: nothing to time after routing; clocked modules of " +
                          block.name + ": " + joined(tops));
  if (std::find(tops.begin(), tops.end(), module) == tops.end())
    throw ConfigError("--module", "\"" + module + "\"",
                      "not a synthesized module of " + block.name + " in this configuration; one of: " + joined(tops));
  return module;
}

void announce(const std::string& top, const std::string& step) {
  std::cerr << "txgen: pnr " << top << ": " << step << " ...\n";
}

}  // namespace

void add_pnr_command(CLI::App& app, PnrOptions& opts) {
  CLI::App* cmd =
      app.add_subcommand("pnr",
                         "Place and route one synthesized module of a block with qflow (graywolf, qrouter) on osu018 "
                         "and time it with OpenSTA on the routed wires' RC, beside its pre-layout timing; writes "
                         "<module>.pnr.md, .json, .csv and a picture of the layout.");
  cmd->add_option("--config", opts.config, "configuration file (JSON)")->required();
  cmd->add_option("--block", opts.block, "block whose module to place (" + blocks::block_names() + ")")->required();
  cmd->add_option("--out", opts.out, "output directory (RTL, synthesis, qflow project, logs, reports)")->required();
  cmd->add_option("--module", opts.module, "module to place (default: the block's first synthesized module)");
  cmd->add_option("--utilization", opts.utilization,
                  "target placement density, 0.1-0.9 (qflow initial_density: fill cells spread the cells; default: "
                  "graywolf's own)")
      ->check(CLI::Range(0.1, 0.9));
}

int run_pnr(const PnrOptions& opts) {
  const LoadedConfig lc = load(opts.config);
  const blocks::BlockInfo& block = *select_blocks(lc.cfg, opts.block).front();
  const std::string top = pick_module(lc, block, opts.module);

  const fs::path out(opts.out);
  auto requests = prepare_block_synthesis(lc, block, out, "");
  const auto req = std::find_if(requests.begin(), requests.end(), [&](const auto& r) { return r.top == top; });
  pnr::PnrRequest pnr_req;
  pnr_req.synth = *req;
  pnr_req.work_dir = (out / top / "pnr").string();
  pnr_req.pnr_scripts_dir = (fs::path(req->scripts_dir) / "pnr").string();
  if (opts.utilization > 0.0) pnr_req.utilization = opts.utilization;
  pnr_req.picture = (out / (top + ".layout.png")).string();

  const pnr::PnrResult r = pnr::run_pnr(pnr_req, [&](const std::string& step) { announce(top, step); });

  const std::string title = synthesis_title(block_synthesis(lc, block, {}));
  const std::string md = pnr::pnr_markdown(r, title, top + ".layout.png");
  util::write_text_file(out / (top + ".pnr.md"), md);
  util::write_text_file(out / (top + ".pnr.json"), pnr::pnr_json(r, block.name, lc.cfg.name, lc.hash));
  util::write_text_file(out / (top + ".pnr.csv"), pnr::pnr_csv(r));
  std::cout << md;
  return 0;
}

}  // namespace txgen::cli
