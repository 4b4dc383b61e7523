// The txgen subcommands. Each returns the process exit code.
#pragma once

#include <cstdint>
#include <optional>
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
  std::string config, out, block, build_dir;
  unsigned long cycles = 100000;
  std::string seed;
  bool systemc = false;  // the SystemC lock-step test instead
  bool bench = false;  // random tests only, then the speed of RTL, model and lock-step pair
};
struct SynthOptions {
  std::string config, out, block, liberty;
  std::string vs;     // baseline configuration synthesized beside (--vs)
  unsigned jobs = 1;  // syntheses at once
  bool hier = false;  // keep the module hierarchy (--hier)
};
struct PowerOptions {
  std::string config, out, block, module, build_dir;
  std::string test = "*Random*";
  unsigned long cycles = 5000, replay_cycles = 20000;
};
struct PnrOptions {
  std::string config, out, block, module;
  double utilization = 0.0;  // 0: graywolf's own density
};
// 0 in cus, pages, requests, lds_segments: not given (from --config or the defaults)
struct TraceOptions {
  std::string kind, out, config;
  unsigned cus = 0, touches = 4, lds_segments = 0, wavefronts = 40, version = 2;
  uint64_t pages = 0, requests = 0, code_bytes = 8192, seed = 1;
  // `txgen trace import`
  bool import = false;
  std::string from, list, workload;
  uint64_t page_bytes = 4096, lds_segment_bytes = 0;
  unsigned wavefront_slots = 40;
};
struct QorOptions {
  std::string out, baselines, note;
  unsigned jobs = 1;
  std::vector<std::string> add;  // CONFIG.json:BLOCK entries for update
  std::optional<double> area_percent, period_spread;
};
struct ProveOptions {
  std::string config, block, out, rtl;
  std::vector<std::string> properties;
  unsigned depth = 0;  // 0: the block's default per module
  bool require_proof = false;
};
// Submitting to Slurm (`sweep --slurm`, `eval --slurm`): sbatch's options, and
// whether to wait for the jobs.
struct SlurmCliOptions {
  bool enabled = false, no_wait = false;
  std::string partition, time, mem;
};

struct EvalOptions {
  std::string config, out, engine = "model", build_dir;
  std::vector<std::string> traces, workloads;
  unsigned long requests = 0;  // 0: the workload's whole stream (txgen trace default)
  unsigned l2_latency = 188, walk_latency = 400;
  bool skip_idle = true, fetch_when_stalled = false;
  bool pipelined_wires = false;  // txn what-if
  unsigned jobs = 0;  // 0: one replay per processor
  double txn_tolerance = 5;  // txn-check: percent of the model's L2-TLB requests
  std::string replay = "wavefront";  // issue model (verif/cu_traffic.h)
  unsigned outstanding = 4, wavefront_slots = 0, compute_cycles = 1;
  bool flush_every_kernel = false;
  // what answers the path's L2 port (verif/iommu_behind.h)
  std::string l2 = "auto";                          // auto, generated, behavioural
  std::vector<std::string> policies, designs;       // empty: walk_sched.policy; baseline and path
  unsigned pte_latency = 100, pte_interval = 1, pte_channels = 2;
  // energy per workload (verif/eval_energy.h); 0: the DDR3 rank's derived figures
  double period_ns = 2.5, dram_read_nj = 0, dram_background_mw = 0;
  unsigned walk_dram_reads = 1;
  std::string logic_power;  // a tx_path.power.json (txgen power)
  SlurmCliOptions slurm;  // one array task per replay
};

struct SweepOptions {
  std::string spec, out, collect_dir, status_dir;
  unsigned jobs = 1;
  bool write_only = false;
  SlurmCliOptions slurm;
  CLI::App* collect = nullptr;  // `sweep collect DIR`
  CLI::App* status = nullptr;   // `sweep status DIR`
};

// Adds --slurm, --partition, --time, --mem and --no-wait to a command.
void add_slurm_options(CLI::App& cmd, SlurmCliOptions& opts, const std::string& what);

void add_gen_command(CLI::App& app, GenOptions& opts);
void add_report_command(CLI::App& app, ReportOptions& opts);
void add_cosim_command(CLI::App& app, CosimOptions& opts);
void add_synth_command(CLI::App& app, SynthOptions& opts);
void add_pnr_command(CLI::App& app, PnrOptions& opts);
void add_power_command(CLI::App& app, PowerOptions& opts);
void add_trace_command(CLI::App& app, TraceOptions& opts);
void add_eval_command(CLI::App& app, EvalOptions& opts);
void add_sweep_command(CLI::App& app, SweepOptions& opts);
void add_qor_command(CLI::App& app, QorOptions& opts);
void add_prove_command(CLI::App& app, ProveOptions& opts);

int run_gen(const GenOptions& opts);
int run_report(const ReportOptions& opts);
int run_cosim(const CosimOptions& opts);
int run_synth(const SynthOptions& opts);
int run_pnr(const PnrOptions& opts);
int run_power(const PowerOptions& opts);
int run_trace(const TraceOptions& opts);
int run_eval(EvalOptions opts);
int run_sweep(const SweepOptions& opts);
int run_qor(const CLI::App& qor, const QorOptions& opts);  // qor: the "qor" subcommand
int run_prove(const ProveOptions& opts);

// Writes the synthetic trace `kind` with the defaults `txgen trace --config`
// derives from the configuration's tx_path section (trace_cmd.cpp).
void write_default_trace(const std::string& config, const std::string& kind, unsigned long requests_per_cu,
                         const std::string& file);

}  // namespace txgen::cli
