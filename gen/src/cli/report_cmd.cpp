#include <iostream>

#include "txgen/cli/commands.h"
#include "txgen/cli/generate.h"
#include "txgen/error.h"
#include "txgen/synth/whole_structure.h"

namespace txgen::cli {
namespace {

// The SRAM macros beside the block's modules (none for a block without them).
std::vector<synth::MacroUse> block_macros(const blocks::BlockInfo& b, const config::Config& cfg) {
  return b.sram_arrays ? synth::characterize(b.sram_arrays(cfg)) : std::vector<synth::MacroUse>{};
}

}  // namespace

void add_report_command(CLI::App& app, ReportOptions& opts) {
  CLI::App* cmd = app.add_subcommand(
      "report", "Print derived widths, bit layouts and storage bits of every block of a "
                "configuration, and the SRAM macros beside its modules (no files written).");
  cmd->add_option("--config", opts.config, "configuration file (JSON)")->required();
  cmd->add_option("--format", opts.format,
                  "md (Markdown tables), json, names (the configured blocks, one per line), or ports "
                  "(the declared ports of each co-simulated module, with their widths here)")
      ->check(CLI::IsMember({"md", "json", "names", "ports"}));
  cmd->add_option("--block", opts.block, "report only this block (" + blocks::block_names() + ")");
}

int run_report(const ReportOptions& opts) {
  const LoadedConfig lc = load(opts.config);
  const auto selected = select_blocks(lc.cfg, opts.block);
  if (opts.format == "names") {
    for (const auto* b : selected) std::cout << b->name << "\n";
    return 0;
  }
  if (opts.format == "ports") {
    for (const auto* b : selected) {
      if (!b->cosim_tops) continue;
      for (const auto& top : b->cosim_tops(lc.cfg))
        std::cout << "## " << top.module << " (" << b->name << ", " << top.role << ")\n\n"
                  << ports::port_table(top.ports, true) << "\n";
    }
    return 0;
  }
  if (opts.format == "json") {
    nlohmann::json doc = {{"config", lc.cfg.name}, {"config_hash", lc.hash},
                          {"blocks", nlohmann::json::array()}};
    for (const auto* b : selected) {
      nlohmann::json entry = b->report_json(lc.cfg);
      const auto macros = block_macros(*b, lc.cfg);
      if (!macros.empty()) entry["sram_macros"] = nlohmann::json::parse(synth::macros_json(macros).dump());
      doc["blocks"].push_back(entry);
    }
    std::cout << doc.dump(2) << "\n";
    return 0;
  }
  std::string text = "# txgen report: " + lc.cfg.name + " (config hash " + lc.hash + ")\n";
  for (const auto* b : selected) {
    text += "\n" + b->report_markdown(lc.cfg);
    const auto macros = block_macros(*b, lc.cfg);
    if (!macros.empty()) text += "\n" + synth::macros_markdown(macros);
  }
  std::cout << text;
  return 0;
}

}  // namespace txgen::cli
