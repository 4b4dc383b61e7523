// The txgen subcommands. Each returns the process exit code.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

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
// 0 in cus, pages, requests, lds_segments: not given (from --config or the defaults)
struct TraceOptions {
  std::string kind, out, config;
  unsigned cus = 0, touches = 4, lds_segments = 0;
  uint64_t pages = 0, requests = 0, code_bytes = 8192, seed = 1;
};
struct ProveOptions {
  std::string config, block, out, rtl;
  std::vector<std::string> properties;
  unsigned depth = 0;  // 0: the block's default per module
  bool require_proof = false;
};
struct EvalOptions {
  std::string config, out, engine = "model";
  std::vector<std::string> traces, workloads;
  unsigned long requests = 0;  // 0: the workload's whole stream (txgen trace default)
  unsigned l2_latency = 188, walk_latency = 400;
};

void add_gen_command(CLI::App& app, GenOptions& opts);
void add_report_command(CLI::App& app, ReportOptions& opts);
void add_cosim_command(CLI::App& app, CosimOptions& opts);
void add_synth_command(CLI::App& app, SynthOptions& opts);
void add_trace_command(CLI::App& app, TraceOptions& opts);
void add_eval_command(CLI::App& app, EvalOptions& opts);
void add_prove_command(CLI::App& app, ProveOptions& opts);

int run_gen(const GenOptions& opts);
int run_report(const ReportOptions& opts);
int run_cosim(const CosimOptions& opts);
int run_synth(const SynthOptions& opts);
int run_trace(const TraceOptions& opts);
int run_eval(EvalOptions opts);
int run_prove(const ProveOptions& opts);

// Writes the synthetic trace `kind` with the defaults `txgen trace --config`
// derives from the configuration's tx_path section (trace_cmd.cpp).
void write_default_trace(const std::string& config, const std::string& kind, unsigned long requests_per_cu,
                         const std::string& file);

}  // namespace txgen::cli
