#include <iostream>
#include <string>

#include "txgen/cli/commands.h"
#include "txgen/cli/generate.h"

namespace txgen::cli {

void add_gen_command(CLI::App& app, GenOptions& opts) {
  CLI::App* cmd = app.add_subcommand(
      "gen", "Generate Verilog-2005 for a configuration: one module per file, a file list "
             "(files.f) and a manifest (manifest.json: blocks, modules, parameters, config hash).");
  cmd->add_option("--config", opts.config, "configuration file (JSON)")->required();
  cmd->add_option("--out", opts.out, "output directory (created if missing)")->required();
  cmd->add_option("--block", opts.block,
                  "generate only this block (" + blocks::block_names() +
                      "); default: every block the configuration has a section for");
}

int run_gen(const GenOptions& opts) {
  const LoadedConfig lc = load(opts.config);
  const auto selected = select_blocks(lc.cfg, opts.block);
  const auto files = generate(lc, selected);
  const size_t written = emit::write_all_or_nothing(opts.out, files);
  std::cout << "txgen: wrote " << (written < files.size() ? std::to_string(written) + " of " : "") << files.size()
            << " files to " << opts.out << (written < files.size() ? " (the others already up to date)" : "") << "\n";
  return 0;
}

}  // namespace txgen::cli
