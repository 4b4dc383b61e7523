// txgen: generator of GPU address-translation hardware. This file only
// dispatches; each subcommand lives in its own source.
#include <iostream>

#include "txgen/cli/commands.h"
#include "txgen/error.h"

namespace {

int dispatch(CLI::App& app, const txgen::cli::GenOptions& gen,
             const txgen::cli::ReportOptions& report, const txgen::cli::SynthOptions& synth) {
  if (app.got_subcommand("gen")) return txgen::cli::run_gen(gen);
  if (app.got_subcommand("report")) return txgen::cli::run_report(report);
  if (app.got_subcommand("synth")) return txgen::cli::run_synth(synth);
  std::cerr << app.help();
  return txgen::kExitInvalidInput;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"txgen " TXGEN_VERSION
               ": generates Verilog-2005, golden-model co-simulation and area/timing reports "
               "for GPU address-translation hardware from one JSON configuration."};
  app.set_version_flag("--version", TXGEN_VERSION);
  app.require_subcommand(1);
  txgen::cli::GenOptions gen;
  txgen::cli::ReportOptions report;
  txgen::cli::SynthOptions synth;
  txgen::cli::add_gen_command(app, gen);
  txgen::cli::add_report_command(app, report);
  txgen::cli::add_synth_command(app, synth);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? txgen::kExitOk : txgen::kExitInvalidInput;
  }
  try {
    return dispatch(app, gen, report, synth);
  } catch (const txgen::ConfigError& e) {
    std::cerr << "txgen: error: " << e.what() << "\n";
    return txgen::kExitInvalidInput;
  } catch (const std::exception& e) {
    std::cerr << "txgen: internal error: " << e.what() << "\n";
    return txgen::kExitInternal;
  }
}
