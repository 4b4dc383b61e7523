// `txgen eval`: replays traces through a tx_path configuration's baseline
// and path (verif/tx_path_eval.cpp): the golden-model and transaction-level
// engines through build/txgen_eval, the Verilated RTL through an executable
// built for the configuration (cached in --out). Traces come from files (txgen
// trace) or are generated here from the configuration's defaults
// (--workloads). With the golden models, an energy table per workload too.
#include <filesystem>
#include <iostream>

#include "txgen/cli/commands.h"
#include "txgen/cli/generate.h"
#include "txgen/elab/iommu.h"
#include "txgen/elab/tx_path.h"
#include "txgen/config/parse.h"
#include "txgen/error.h"
#include "txgen/sweep/jobs.h"
#include "txgen/sweep/slurm.h"
#include "txgen/trace/trace.h"
#include "txgen/util/process.h"
#include "txgen/util/text_file.h"

namespace txgen::cli {
namespace fs = std::filesystem;

void add_eval_command(CLI::App& app, EvalOptions& opts) {
  CLI::App* cmd = app.add_subcommand(
      "eval", "Replay translation traces through the L1-TLB -> LDS -> I-cache -> L2-TLB path and its "
              "baseline (the golden models, the Verilated RTL, or a transaction-level replay), behind the "
              "configuration's generated L2-TLB and IOMMU or a behavioural L2-TLB; prints one table (also "
              "eval.md/.csv/.json; with the generated L2 a walk-scheduling table; with the golden models an energy table, "
              "eval_energy.*) and plots it (eval.svg/.png).");
  cmd->add_option("--config", opts.config, "configuration with a tx_path section (JSON)")->required();
  cmd->add_option("--out", opts.out, "directory for the build, the traces and the results")->required();
  cmd->add_option("--trace", opts.traces, "trace file(s) (txgen trace)");
  cmd->add_option("--workloads", opts.workloads,
                  "synthetic workloads to generate and replay (atax, bicg, mvt, gesummv, gups, bfs, lds_heavy); "
                  "default: all when no --trace is given")
      ->delimiter(',');
  cmd->add_option("--engine", opts.engine,
                  "model (default: the golden models, cycle-exact to the RTL and 30-90x faster), rtl (the "
                  "Verilated RTL), both (fails unless they agree), txn (transaction level: the same storage "
                  "rules with approximate timing, for sweeps), or txn-check (txn beside the model, fails when "
                  "txn's L2-TLB requests are off by more than --txn-tolerance)")
      ->check(CLI::IsMember({"rtl", "model", "both", "txn", "txn-check"}));
  cmd->add_option("--txn-tolerance", opts.txn_tolerance,
                  "txn-check: largest difference of L2-TLB requests, percent of the model's (5)");
  cmd->add_option("--requests", opts.requests, "cap on each CU's requests of generated workloads (default: none)");
  cmd->add_option("--l2-latency", opts.l2_latency, "L2-TLB access cycles (188, seed 000 Table 1)");
  cmd->add_option("--walk-latency", opts.walk_latency, "page-walk cycles after an L2-TLB miss (400)");
  cmd->add_option("--jobs", opts.jobs, "replays at once (default: one per processor)");
  cmd->add_flag("!--no-skip-idle", opts.skip_idle,
                "simulate every cycle (default: jump over cycles in which the drained path waits on the "
                "L2-TLB; the results are the same)");
  cmd->add_flag("--fetch-when-stalled", opts.fetch_when_stalled,
                "keep fetching instructions while every CU of an I-cache waits on translations (default: the "
                "fetch unit pauses with its CUs)");
  cmd->add_flag("--what-if-pipelined-wires", opts.pipelined_wires,
                "with --engine txn: estimate a lookup stage that takes a CU's next miss while the last one is "
                "in its wire, with no bound on the misses in flight (the generated design bounds them: "
                "tx_path.lookup_slots)");
  cmd->add_option("--replay", opts.replay,
                  "issue model: wavefront (default: each CU runs its wavefronts, a memory instruction's pages "
                  "at once, the wavefront waiting for all) or outstanding (each CU's requests in order, "
                  "--outstanding pages at once: the earlier tables)")
      ->check(CLI::IsMember({"wavefront", "outstanding"}));
  cmd->add_option("--outstanding", opts.outstanding, "outstanding replay: pages a CU waits for at once (4)")
      ->check(CLI::Range(1u, 1024u));
  cmd->add_option("--wavefront-slots", opts.wavefront_slots,
                  "wavefront replay: wavefronts a CU runs at once (default: each kernel's, from the trace)")
      ->check(CLI::Range(1u, 65536u));
  cmd->add_option("--compute-cycles", opts.compute_cycles,
                  "wavefront replay: cycles per non-memory instruction of a compute gap (1)")
      ->check(CLI::Range(0u, 1024u));
  cmd->add_flag("--flush-every-kernel", opts.flush_every_kernel,
                "flush the I-caches at every kernel boundary (default: only when a different kernel follows, "
                "seed 000 4.3.3)");
  cmd->add_option("--l2", opts.l2,
                  "what answers the path's L2 port: generated (the iommu section's L2-TLB and IOMMU, their golden "
                  "models over a page table and memory), behavioural (fixed latencies: the earlier tables), or "
                  "auto (default: generated when the configuration has an iommu section)")
      ->check(CLI::IsMember({"auto", "generated", "behavioural"}));
  cmd->add_option("--policies", opts.policies,
                  "generated L2: walk-scheduling policies to compare (fcfs, random, simt; default: the "
                  "configuration's walk_sched.policy); a walk-scheduling table sets each beside FCFS")
      ->check(CLI::IsMember({"fcfs", "random", "simt"}))
      ->delimiter(',');
  cmd->add_option("--designs", opts.designs, "designs to replay: baseline, path (default: both)")
      ->check(CLI::IsMember({"baseline", "path"}))
      ->delimiter(',');
  cmd->add_option("--pte-latency", opts.pte_latency, "generated L2: cycles of one PTE read (100)")
      ->check(CLI::Range(1u, 100000u));
  cmd->add_option("--pte-interval", opts.pte_interval,
                  "generated L2: cycles between two PTE reads one memory channel takes (1)")
      ->check(CLI::Range(1u, 100000u));
  cmd->add_option("--pte-channels", opts.pte_channels,
                  "generated L2: memory channels, PTE lines interleaved over them (2, seed 002 Table I)")
      ->check(CLI::Range(1u, 64u));
  cmd->add_option("--period-ns", opts.period_ns, "energy: the clock period of a cycle (2.5)")->check(CLI::PositiveNumber);
  cmd->add_option("--dram-read-nj", opts.dram_read_nj,
                  "energy: one page-walk read of DRAM in nJ (default: a DDR3-1600 rank's closed-page 64-byte read, "
                  "20.75; docs/energy.md)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--dram-background-mw", opts.dram_background_mw,
                  "energy: DRAM background power per channel (--pte-channels) in mW (default: the rank's precharge "
                  "standby, 540)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--walk-dram-reads", opts.walk_dram_reads,
                  "energy with the behavioural L2-TLB: DRAM reads per page walk (1: the page-walk caches hold the "
                  "upper levels; the generated IOMMU counts its own)")
      ->check(CLI::Range(0u, 8u));
  cmd->add_option("--logic-power", opts.logic_power,
                  "energy: the tx_path.power.json of `txgen power --block tx_path` on this configuration; adds the "
                  "baseline's and the path's logic (clock pins, leakage, energy per translation request)")
      ->check(CLI::ExistingFile);
  cmd->add_option("--build-dir", opts.build_dir,
                  "CMake tree to build the RTL engines in (default OUT/build); one tree serves any number of "
                  "configurations (builds take turns)");
  add_slurm_options(*cmd, opts.slurm, "one Slurm array task per replay (a trace under one policy and design) "
                                      "and merge their tables");
}

namespace {

std::vector<std::string> generated_traces(const EvalOptions& opts, const fs::path& dir) {
  std::vector<std::string> files;
  for (const std::string& kind : opts.workloads) {
    const fs::path file = dir / (kind + ".trace");
    write_default_trace(opts.config, kind, opts.requests, file.string());
    files.push_back(file.string());
  }
  return files;
}

// The golden-model and transaction-level engines read the configuration at
// run time: the txgen_eval built beside this txgen serves every
// configuration. The RTL engine (and a txgen without that neighbour) builds
// the configuration's executable in a CMake tree.
std::string evaluation_executable(const EvalOptions& opts, const std::string& name, const fs::path& out) {
  const bool rtl = opts.engine == "rtl" || opts.engine == "both";
  const fs::path prebuilt = fs::read_symlink("/proc/self/exe").parent_path() / "txgen_eval";
  if (!rtl && fs::is_regular_file(prebuilt)) return prebuilt.string();
  const fs::path build = opts.build_dir.empty() ? out / "build" : fs::absolute(opts.build_dir);
  std::cerr << "txgen: building the trace evaluation of " << name << " in " << build.string() << " ...\n";
  const std::string target = std::string("txgen_eval_") + (rtl ? "rtl" : "model") + "_tx_path_" + name;
  build_in_tree(build, {"TXGEN_EVAL_CONFIG=" + fs::absolute(opts.config).string(), "TXGEN_COSIM_CONFIG="}, {target},
                out, "evaluation");
  return (build / target).string();
}

std::string comma_list(const std::vector<std::string>& items) {
  std::string s;
  for (const auto& i : items) s += (s.empty() ? "" : ",") + i;
  return s;
}

// The generated L2-TLB and IOMMU behind the path: the options that need it,
// the engines that lack it, and the sizes that must fit the path, checked
// before any trace or build is made.
void check_generated_l2(const EvalOptions& opts, const config::Config& cfg) {
  const bool generated = opts.l2 == "generated" || (opts.l2 == "auto" && cfg.iommu);
  if (opts.l2 == "generated" && !cfg.iommu)
    throw ConfigError("--l2", "generated", "the configuration has no iommu section");
  if (!generated && !opts.policies.empty())
    throw ConfigError("--policies", comma_list(opts.policies),
                      "needs the generated L2-TLB and IOMMU (an iommu section, --l2 generated or auto)");
  if (!generated) return;
  if (opts.engine == "txn" || opts.engine == "txn-check")
    throw ConfigError("--engine", opts.engine,
                      "the transaction-level engine has the behavioural L2-TLB only: --engine model, or --l2 "
                      "behavioural");
  const elab::TxPathParams path = elab::elaborate_tx_path(cfg);
  elab::check_behind_path(elab::elaborate_iommu(cfg), path.l2_tag_bits, path.vpn_bits, path.ppn_bits,
                          opts.l2_latency);
}

// The evaluation's arguments but the output, the parallelism, the traces,
// the policies and the designs (which a Slurm task sets per replay).
std::vector<std::string> common_arguments(const EvalOptions& opts, const std::string& executable) {
  std::vector<std::string> argv = {executable, "--engine", opts.engine, "--l2-latency", std::to_string(opts.l2_latency),
                                   "--walk-latency", std::to_string(opts.walk_latency)};
  if (fs::path(executable).filename() == "txgen_eval")
    argv.insert(argv.end(), {"--config", fs::absolute(opts.config).string()});
  if (!opts.skip_idle) argv.push_back("--no-skip-idle");
  if (opts.fetch_when_stalled) argv.push_back("--fetch-when-stalled");
  if (opts.pipelined_wires) argv.push_back("--what-if-pipelined-wires");
  argv.insert(argv.end(), {"--replay", opts.replay, "--outstanding", std::to_string(opts.outstanding),
                           "--compute-cycles", std::to_string(opts.compute_cycles)});
  if (opts.wavefront_slots > 0) argv.insert(argv.end(), {"--wavefront-slots", std::to_string(opts.wavefront_slots)});
  if (opts.flush_every_kernel) argv.push_back("--flush-every-kernel");
  argv.insert(argv.end(), {"--l2", opts.l2, "--pte-latency", std::to_string(opts.pte_latency), "--pte-interval",
                           std::to_string(opts.pte_interval), "--pte-channels", std::to_string(opts.pte_channels)});
  if (opts.engine == "txn-check") argv.insert(argv.end(), {"--txn-tolerance", std::to_string(opts.txn_tolerance)});
  argv.insert(argv.end(), {"--period-ns", std::to_string(opts.period_ns), "--dram-read-nj",
                           std::to_string(opts.dram_read_nj), "--dram-background-mw",
                           std::to_string(opts.dram_background_mw), "--walk-dram-reads",
                           std::to_string(opts.walk_dram_reads)});
  if (!opts.logic_power.empty()) argv.insert(argv.end(), {"--logic-power", fs::absolute(opts.logic_power).string()});
  return argv;
}

// One replay (a trace under one policy and design), run in its own directory
// under OUT/replays, keyed by what decides its result: the arguments, the
// configuration and the trace's text, so a changed input is a new replay.
sweep::Job replay_job(const std::vector<std::string>& common, const LoadedConfig& lc, const std::string& trace,
                      size_t index, const std::string& policy, const std::string& design) {
  std::vector<std::string> args(common.begin() + 1, common.end());
  args.insert(args.end(), {"--out", ".", "--jobs", "1", "--trace", trace, "--designs", design});
  if (!policy.empty()) args.insert(args.end(), {"--policies", policy});
  const nlohmann::json key = {{"args", args}, {"config", lc.hash}, {"trace", util::read_text_file(trace)}};
  const std::string name = std::to_string(index) + "-" + fs::path(trace).stem().string() +
                           (policy.empty() ? "" : "-" + policy) + "-" + design + "-" + config::config_hash(key);
  return sweep::Job{name, "replays/" + name, "eval", "", args, "eval.log", "eval.log", "eval.ok"};
}

// --slurm: an array task per replay; once every replay passed, their tables
// merged into OUT's as one evaluation would write them.
int run_on_slurm(const EvalOptions& opts, const LoadedConfig& lc, const std::vector<std::string>& common,
                 const std::vector<std::string>& traces, const fs::path& out) {
  const std::vector<std::string> policies = opts.policies.empty() ? std::vector<std::string>{""} : opts.policies;
  const std::vector<std::string> designs =
      opts.designs.empty() ? std::vector<std::string>{"baseline", "path"} : opts.designs;
  std::vector<sweep::Job> jobs;
  std::vector<sweep::SlurmTask> tasks;
  for (size_t t = 0; t < traces.size(); ++t)
    for (const auto& policy : policies)
      for (const auto& design : designs) {
        jobs.push_back(replay_job(common, lc, traces[t], t, policy, design));
        const sweep::Job& j = jobs.back();
        fs::create_directories(out / j.dir);
        tasks.push_back(sweep::task_of(j, common[0]));
      }
  sweep::SlurmRunner runner(out, tasks, {opts.slurm.partition, opts.slurm.time, opts.slurm.mem, lc.cfg.name});
  const size_t submitted = runner.submit();
  std::cout << "txgen: eval " << lc.cfg.name << ": " << tasks.size() << " replays, " << submitted
            << " submitted to Slurm from " << out.string() << "\n";
  if (opts.slurm.no_wait) {
    std::cout << "txgen: run the same command again to wait for them and merge the tables\n";
    return kExitOk;
  }
  runner.wait();
  const std::vector<sweep::TaskStatus> states = runner.status();
  std::vector<std::string> argv = common;
  argv.insert(argv.end(), {"--out", out.string(), "--merge"});
  bool failed = false;
  for (size_t i = 0; i < tasks.size(); ++i) {
    argv.push_back((out / jobs[i].dir / "eval.json").string());
    if (states[i].state == sweep::TaskState::Passed) continue;
    failed = true;
    std::cout << "txgen: failed " << tasks[i].label << " (log " << (out / states[i].log).string() << ")\n";
  }
  if (failed) return kExitInternal;
  return util::run_attached(argv, out) == 0 ? 0 : kExitInvalidInput;
}

}  // namespace

int run_eval(EvalOptions opts) {
  if (opts.pipelined_wires && opts.engine != "txn")
    throw ConfigError("--what-if-pipelined-wires", "(set)", "only the transaction-level engine has it (--engine txn)");
  const LoadedConfig lc = load(opts.config);
  const auto selected = select_blocks(lc.cfg, "tx_path");
  generate(lc, selected);  // an infeasible configuration stops here, before any build
  check_generated_l2(opts, lc.cfg);
  if (lc.cfg.tx_path && lc.cfg.tx_path->speculative_l2 && (opts.engine == "txn" || opts.engine == "txn-check"))
    throw ConfigError("$.tx_path.speculative_l2", "true",
                      "the transaction-level engine does not model the speculative L2-TLB request (its hold of "
                      "an L1 tag whose dropped answer is still to come): --engine model or rtl");
  if (lc.cfg.tx_path && lc.cfg.tx_path->l1tlb.tlbs < lc.cfg.tx_path->cus &&
      (opts.engine == "txn" || opts.engine == "txn-check"))
    throw ConfigError("$.tx_path.l1tlb.tlbs", std::to_string(lc.cfg.tx_path->l1tlb.tlbs),
                      "the transaction-level engine models private L1-TLBs only (one per CU): --engine model or rtl");
  const fs::path out = fs::absolute(opts.out);
  fs::create_directories(out / "traces");
  if (opts.traces.empty() && opts.workloads.empty())
    opts.workloads = trace::kind_name_list();
  std::vector<std::string> traces = opts.traces;
  for (auto& f : traces) f = fs::absolute(f).string();
  for (const auto& f : generated_traces(opts, out / "traces")) traces.push_back(f);
  std::vector<std::string> argv = common_arguments(opts, evaluation_executable(opts, lc.cfg.name, out));
  if (opts.slurm.enabled) return run_on_slurm(opts, lc, argv, traces, out);
  argv.insert(argv.end(), {"--out", out.string()});
  if (opts.jobs > 0) argv.insert(argv.end(), {"--jobs", std::to_string(opts.jobs)});
  if (!opts.policies.empty()) argv.insert(argv.end(), {"--policies", comma_list(opts.policies)});
  if (!opts.designs.empty()) argv.insert(argv.end(), {"--designs", comma_list(opts.designs)});
  for (const auto& t : traces) argv.insert(argv.end(), {"--trace", t});
  // attached: the replays' progress line reaches the terminal
  return util::run_attached(argv, out) == 0 ? 0 : kExitInvalidInput;
}

}  // namespace txgen::cli
