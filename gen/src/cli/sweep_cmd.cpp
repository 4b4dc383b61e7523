// `txgen sweep SPEC --out DIR`: one configuration per point of a sweep file,
// every step of every point a job (build.ninja, jobs.txt for GNU parallel,
// slurm.sh), run with ninja; `txgen sweep collect DIR`: the table and plots.
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>

#include "txgen/cli/commands.h"
#include "txgen/cli/generate.h"
#include "txgen/config/parse.h"
#include "txgen/error.h"
#include "txgen/sweep/collect.h"
#include "txgen/sweep/record.h"
#include "txgen/sweep/slurm.h"
#include "txgen/util/process.h"
#include "txgen/util/text_file.h"

namespace txgen::cli {
namespace fs = std::filesystem;
using sweep::JobState;
using sweep::TaskState;

namespace {

// A point that elaborates: the bytes of RTL it generates for the sweep's
// blocks (its jobs' cost, roughly); one that does not: the reason.
struct Elaboration {
  std::string error;
  size_t rtl_bytes = 0;
};

Elaboration elaborate(const nlohmann::json& doc, const std::vector<std::string>& block_names) {
  Elaboration e;
  try {
    LoadedConfig lc{doc, config::parse_config(doc), config::config_hash(doc)};
    for (const auto& b : block_names)
      for (const auto& f : generate(lc, select_blocks(lc.cfg, b))) e.rtl_bytes += f.text.size();
  } catch (const ConfigError& err) {
    e.error = err.what();
  }
  return e;
}

// Ninja (1.11) and GNU parallel start ready jobs in file order, so the
// largest points go first: the longest synthesis no longer starts last and
// runs alone at the end (stable: points of one size keep the sweep's order).
void largest_first(sweep::Record& r, const std::map<std::string, size_t>& rtl_bytes) {
  std::stable_sort(r.jobs.begin(), r.jobs.end(), [&](const sweep::Job& a, const sweep::Job& b) {
    return rtl_bytes.at(a.point) > rtl_bytes.at(b.point);
  });
}

sweep::Record plan(const sweep::Spec& spec, const std::vector<sweep::Point>& points) {
  sweep::Record r{spec.name, TXGEN_VERSION, spec.file.string(), spec.blocks, spec.steps, {}, spec.plot, {}, {}, {}};
  for (const auto& a : spec.axes)
    for (const auto& p : a.paths) r.varied.push_back(p.text);
  std::map<std::string, size_t> rtl_bytes;
  for (const auto& p : points) {
    const Elaboration e = elaborate(p.config, spec.blocks);
    if (!e.error.empty()) {
      r.skipped.push_back({p.name, p.values, e.error});
      continue;
    }
    rtl_bytes[p.name] = e.rtl_bytes;
    const std::string hash = config::config_hash(p.config);
    r.points.push_back({p.name, hash, sweep::point_dir(p.name, hash), p.values});
    for (auto& j : sweep::point_jobs(spec, p.name, r.points.back().dir)) r.jobs.push_back(std::move(j));
  }
  if (r.points.empty())
    throw ConfigError("$.vary", std::to_string(points.size()) + " points",
                      "no point elaborates; the first: " + r.skipped.front().reason);
  largest_first(r, rtl_bytes);
  return r;
}

std::string txgen_binary() { return fs::read_symlink("/proc/self/exe").string(); }

// A point's directory is keyed by its configuration, so an existing
// config.json is the same text: it is left alone and its jobs stay up to date.
void write_sweep(const fs::path& out, const sweep::Record& r, const std::vector<sweep::Point>& points) {
  fs::create_directories(out / "slurm");
  for (const auto& planned : r.points) {
    const fs::path config = out / planned.dir / "config.json";
    if (fs::exists(config)) continue;
    fs::create_directories(config.parent_path());
    for (const auto& p : points)
      if (p.name == planned.name) util::write_text_file(config, p.config.dump(2) + "\n");
  }
  util::write_text_file(out / "sweep.json", sweep::to_json(r).dump(2) + "\n");
  util::write_text_file(out / "build.ninja", sweep::ninja_file(r.jobs, txgen_binary(), r.spec_file));
  util::write_text_file(out / "jobs.txt", sweep::parallel_file(r.jobs, txgen_binary()));
  util::write_text_file(out / "slurm.sh", sweep::slurm_script(r.jobs.size(), fs::absolute(out), r.name));
  fs::permissions(out / "slurm.sh", fs::perms::owner_exec | fs::perms::group_exec, fs::perm_options::add);
}

void print_skipped(const sweep::Record& r) {
  for (const auto& s : r.skipped) std::cout << "txgen: skipped " << s.name << ": " << s.reason << "\n";
}

void print_how_to_run(const fs::path& out, size_t jobs) {
  std::cout << "txgen: wrote " << jobs << " jobs to " << out.string() << ": run them with one of\n"
            << "  ninja -C " << out.string() << " -k 0 -j N\n"
            << "  (cd " << out.string() << " && parallel -j N < jobs.txt)\n"
            << "  sbatch " << (out / "slurm.sh").string() << "\n"
            << "then: txgen sweep collect " << out.string() << "\n";
}

constexpr int kExitUnfinished = 3;  // sweep status: jobs still queued or running, none failed

// Each job's state: from its stamp and log (the ninja runner), or from Slurm.
std::vector<sweep::TaskStatus> file_states(const fs::path& out, const sweep::Record& r) {
  std::vector<sweep::TaskStatus> states;
  for (const auto& j : r.jobs) {
    const JobState s = sweep::job_state(out, j);
    states.push_back({s == JobState::Passed   ? TaskState::Passed
                      : s == JobState::Failed ? TaskState::Failed
                                              : TaskState::NotRun,
                      j.dir + "/" + j.log});
  }
  return states;
}

std::vector<sweep::SlurmTask> slurm_tasks(const sweep::Record& r) {
  std::vector<sweep::SlurmTask> tasks;
  for (const auto& j : r.jobs) tasks.push_back(sweep::task_of(j, txgen_binary()));
  return tasks;
}

sweep::SlurmRunner slurm_runner(const fs::path& out, const sweep::Record& r, const SlurmCliOptions& o) {
  return sweep::SlurmRunner(out, slurm_tasks(r), {o.partition, o.time, o.mem, r.name});
}

// Points passed (every job), failed (with the logs), queued or running, not
// run, skipped; the exit code: 0 when every job passed.
int summarize(const fs::path& out, const sweep::Record& r, const std::vector<sweep::TaskStatus>& states) {
  size_t passed = 0, failed = 0, queued = 0, not_run = 0;
  std::string details;
  for (const auto& p : r.points) {
    bool ok = true, bad = false, waiting = false;
    for (size_t i = 0; i < r.jobs.size(); ++i) {
      if (r.jobs[i].point != p.name) continue;
      const TaskState s = states[i].state;
      ok &= s == TaskState::Passed;
      bad |= s == TaskState::Failed;
      waiting |= s == TaskState::Pending || s == TaskState::Running;
      if (s == TaskState::Failed)
        details += "  failed " + p.name + ": " + r.jobs[i].name() + " (log " + (out / states[i].log).string() + ")\n";
    }
    (ok ? passed : bad ? failed : waiting ? queued : not_run) += 1;
  }
  std::cout << "txgen: sweep " << r.name << ": " << r.points.size() + r.skipped.size() << " points: " << passed
            << " passed, " << failed << " failed, " << r.skipped.size() << " skipped"
            << (queued ? ", " + std::to_string(queued) + " queued or running" : "")
            << (not_run ? ", " + std::to_string(not_run) + " not run" : "") << "\n"
            << details;
  print_skipped(r);
  std::cout << "txgen: results: txgen sweep collect " << out.string() << "\n";
  if (failed) return kExitInternal;
  return queued + not_run ? kExitUnfinished : kExitOk;
}

// Slurm: submit what has not passed and is not queued, then wait (or not).
int run_on_slurm(const fs::path& out, const sweep::Record& r, const SlurmCliOptions& o) {
  sweep::SlurmRunner runner = slurm_runner(out, r, o);
  const size_t submitted = runner.submit();
  std::cout << "txgen: sweep " << r.name << ": " << r.points.size() << " points, " << r.jobs.size() << " jobs, "
            << submitted << " submitted to Slurm from " << out.string() << "\n";
  if (o.no_wait) {
    std::cout << "txgen: follow it with: txgen sweep status " << out.string() << "\n";
    return kExitOk;
  }
  runner.wait();
  const int rc = summarize(out, r, runner.status());
  return rc == kExitUnfinished ? kExitInternal : rc;
}

int run_status(const std::string& dir_arg) {
  const fs::path dir(dir_arg);
  const sweep::Record r = sweep::read_record(dir);
  const bool on_slurm = fs::exists(dir / "slurm" / "submitted.json");
  return summarize(dir, r, on_slurm ? slurm_runner(dir, r, {}).status() : file_states(dir, r));
}

int run_collect(const std::string& dir_arg) {
  const fs::path dir(dir_arg);
  const sweep::Record r = sweep::read_record(dir);
  const sweep::Table t = sweep::gather(dir, r);
  if (t.points == 0)
    throw ConfigError("DIR", "\"" + dir_arg + "\"",
                      "no finished point yet: run the sweep first (txgen sweep SPEC --out DIR, jobs.txt or slurm.sh)");
  const fs::path results = dir / "results";
  fs::remove_all(results);  // no plot of an earlier collect stays behind
  fs::create_directories(results);
  const std::string md = sweep::table_markdown(t, r);
  util::write_text_file(results / (r.name + ".md"), md);
  util::write_text_file(results / (r.name + ".csv"), sweep::table_csv(t));
  util::write_text_file(results / (r.name + ".json"), sweep::table_json(t, r));
  std::cout << md << "\ntxgen: wrote " << r.name << ".md, .csv, .json";
  for (const auto& f : sweep::write_plots(t, r, results)) std::cout << ", " << f;
  std::cout << " to " << results.string() << "\n";
  return kExitOk;
}

}  // namespace

void add_sweep_command(CLI::App& app, SweepOptions& opts) {
  CLI::App* cmd = app.add_subcommand(
      "sweep",
      "Sweep a design space (docs/sweep.md): one configuration per point of a sweep file, every step "
      "(report, gen, synth, cosim, eval) of every point a job keyed by the configuration hash and the "
      "txgen version, run with ninja; also written as a GNU parallel job file and a Slurm array script.");
  cmd->add_option("spec", opts.spec, "sweep file (JSON)");
  cmd->add_option("--out", opts.out, "sweep directory (points/, build.ninja, jobs.txt, slurm.sh, sweep.json)");
  cmd->add_option("--jobs,-j", opts.jobs, "jobs ninja runs at once (default 1; synthesis of large points needs GBs)")
      ->check(CLI::Range(1u, 256u));
  cmd->add_flag("--write-only", opts.write_only, "write the configurations and job files, run nothing");
  opts.collect = cmd->add_subcommand(
      "collect",
      "Gather the finished points of a sweep directory into one table (DIR/results/<sweep>.csv, .json, "
      ".md) and plot it with gnuplot: area and minimum period against size, area against latency "
      "with its Pareto front (SVG and PNG).");
  opts.collect->add_option("dir", opts.collect_dir, "sweep directory (txgen sweep --out)")->required();
  add_slurm_options(*cmd, opts.slurm, "every job not yet passed as one Slurm job array");
  opts.status = cmd->add_subcommand(
      "status",
      "Points passed, failed (with each failed job's log), queued or running (on Slurm) and not run; exit 0 "
      "when every job passed, 1 when one failed, 3 while jobs are queued, running or not run.");
  opts.status->add_option("dir", opts.status_dir, "sweep directory (txgen sweep --out)")->required();
}

void add_slurm_options(CLI::App& cmd, SlurmCliOptions& opts, const std::string& what) {
  CLI::Option* slurm = cmd.add_flag("--slurm", opts.enabled, "submit " + what + " (sbatch; docs/sweep.md)");
  cmd.add_option("--partition", opts.partition, "--slurm: sbatch --partition")->needs(slurm);
  cmd.add_option("--time", opts.time, "--slurm: sbatch --time, each task's limit (e.g. 2:00:00)")->needs(slurm);
  cmd.add_option("--mem", opts.mem, "--slurm: sbatch --mem, each task's memory (e.g. 4G)")->needs(slurm);
  cmd.add_flag("--no-wait", opts.no_wait, "--slurm: return once submitted (then rerun the same command to wait)")
      ->needs(slurm);
}

int run_sweep(const SweepOptions& opts) {
  if (opts.collect->parsed()) return run_collect(opts.collect_dir);
  if (opts.status->parsed()) return run_status(opts.status_dir);
  if (opts.spec.empty()) throw ConfigError("SPEC", "(missing)", "give a sweep file: txgen sweep SPEC --out DIR");
  if (opts.out.empty()) throw ConfigError("--out", "(missing)", "give the sweep directory: txgen sweep SPEC --out DIR");
  if (opts.write_only && opts.slurm.enabled)
    throw ConfigError("--write-only", "(set)", "runs nothing; --slurm submits: give one of them");
  const sweep::Spec spec = sweep::read_spec(opts.spec);
  const bool synth = std::find(spec.steps.begin(), spec.steps.end(), "synth") != spec.steps.end();
  if (synth && fs::absolute(opts.out).string().find_first_of(" \t\n") != std::string::npos)
    throw ConfigError("--out", "\"" + opts.out + "\"",
                      "contains whitespace, which txgen synth's Yosys scripts cannot read");
  const std::vector<sweep::Point> points = sweep::expand(spec);
  const sweep::Record r = plan(spec, points);
  const fs::path out(opts.out);
  write_sweep(out, r, points);
  if (opts.write_only) {
    print_skipped(r);
    print_how_to_run(out, r.jobs.size());
    return kExitOk;
  }
  if (opts.slurm.enabled) return run_on_slurm(out, r, opts.slurm);
  std::cout << "txgen: sweep " << r.name << ": " << r.points.size() << " points, " << r.jobs.size()
            << " jobs, ninja -j " << opts.jobs << " in " << out.string() << "\n";
  util::run_attached({"ninja", "-C", out.string(), "-k", "0", "-j", std::to_string(opts.jobs)}, fs::current_path());
  const int rc = summarize(out, r, file_states(out, r));
  return rc == kExitUnfinished ? kExitInternal : rc;
}

}  // namespace txgen::cli
