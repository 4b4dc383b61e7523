// The txgen subcommands. Each returns the process exit code.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

namespace txgen::cli {

struct GenOptions {
  std::string config, out, block;
};
struct ReportOptions {
  std::string config, format = "md", block;
};
struct CosimOptions {
  std::string config, out, block;
  unsigned long cycles = 100000;
  std::string seed;
};
struct SynthOptions {
  std::string config, out, block, liberty;
};

void add_gen_command(CLI::App& app, GenOptions& opts);
void add_report_command(CLI::App& app, ReportOptions& opts);
void add_cosim_command(CLI::App& app, CosimOptions& opts);
void add_synth_command(CLI::App& app, SynthOptions& opts);

int run_gen(const GenOptions& opts);
int run_report(const ReportOptions& opts);
int run_cosim(const CosimOptions& opts);
int run_synth(const SynthOptions& opts);

}  // namespace txgen::cli
