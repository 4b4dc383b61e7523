// txgen: generator of GPU address-translation hardware. This file only
// dispatches; each subcommand lives in its own source.
#include <iostream>

#include "txgen/cli/commands.h"
#include "txgen/error.h"

namespace {

struct AllOptions {
  txgen::cli::GenOptions gen;
  txgen::cli::ReportOptions report;
  txgen::cli::CosimOptions cosim;
  txgen::cli::SynthOptions synth;
  txgen::cli::PnrOptions pnr;
  txgen::cli::PowerOptions power;
  txgen::cli::TraceOptions trace;
  txgen::cli::EvalOptions eval;
  txgen::cli::SweepOptions sweep;
  txgen::cli::QorOptions qor;
  txgen::cli::ProveOptions prove;
};

int dispatch(CLI::App& app, const AllOptions& o) {
  if (app.got_subcommand("gen")) return txgen::cli::run_gen(o.gen);
  if (app.got_subcommand("report")) return txgen::cli::run_report(o.report);
  if (app.got_subcommand("cosim")) return txgen::cli::run_cosim(o.cosim);
  if (app.got_subcommand("synth")) return txgen::cli::run_synth(o.synth);
  if (app.got_subcommand("pnr")) return txgen::cli::run_pnr(o.pnr);
  if (app.got_subcommand("power")) return txgen::cli::run_power(o.power);
  if (app.got_subcommand("trace")) return txgen::cli::run_trace(o.trace);
  if (app.got_subcommand("eval")) return txgen::cli::run_eval(o.eval);
  if (app.got_subcommand("sweep")) return txgen::cli::run_sweep(o.sweep);
  if (app.got_subcommand("qor")) return txgen::cli::run_qor(*app.get_subcommand("qor"), o.qor);
  if (app.got_subcommand("prove")) return txgen::cli::run_prove(o.prove);
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
  AllOptions o;
  txgen::cli::add_gen_command(app, o.gen);
  txgen::cli::add_report_command(app, o.report);
  txgen::cli::add_cosim_command(app, o.cosim);
  txgen::cli::add_synth_command(app, o.synth);
  txgen::cli::add_pnr_command(app, o.pnr);
  txgen::cli::add_power_command(app, o.power);
  txgen::cli::add_trace_command(app, o.trace);
  txgen::cli::add_eval_command(app, o.eval);
  txgen::cli::add_sweep_command(app, o.sweep);
  txgen::cli::add_qor_command(app, o.qor);
  txgen::cli::add_prove_command(app, o.prove);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? txgen::kExitOk : txgen::kExitInvalidInput;
  }
  try {
    return dispatch(app, o);
  } catch (const txgen::ConfigError& e) {
    std::cerr << "txgen: error: " << e.what() << "\n";
    return txgen::kExitInvalidInput;
  } catch (const std::exception& e) {
    std::cerr << "txgen: internal error: " << e.what() << "\n";
    return txgen::kExitInternal;
  }
}
