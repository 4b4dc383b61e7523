// `txgen qor check|update`: re-synthesizes the configurations of
// qor/baselines.json and compares (or records) area, flip-flops and minimum
// period per module.
#include <algorithm>
#include <filesystem>
#include <iostream>

#include "txgen/cli/commands.h"
#include "txgen/cli/generate.h"
#include "txgen/cli/synth_block.h"
#include "txgen/config/parse.h"
#include "txgen/error.h"
#include "txgen/synth/qor.h"
#include "txgen/util/process.h"
#include "txgen/util/text_file.h"

namespace txgen::cli {
namespace fs = std::filesystem;

namespace {

using synth::QorBaselines;
using synth::QorEntry;

const fs::path kSource(TXGEN_SOURCE_DIR);

fs::path default_baselines() { return kSource / "qor" / "baselines.json"; }

QorBaselines read_baselines(const fs::path& file) {
  try {
    return synth::parse_baselines(config::read_json_file(file.string()));
  } catch (const ConfigError& e) {
    throw ConfigError(file.string() + ": " + e.path(), e.value(), e.rule());
  }
}

// Text of every file in the directories the figures depend on, and the tool
// versions: a change to any of them changes the flow hash.
std::string flow_hash(const fs::path& out) {
  nlohmann::json flow;
  for (const char* dir : {"synth", "constraints"})
    for (const auto& f : fs::directory_iterator(kSource / dir))
      if (f.is_regular_file()) flow[std::string(dir) + "/" + f.path().filename().string()] = util::read_text_file(f);
  const fs::path log = out / "tool_versions.txt";
  for (const auto& tool : std::vector<std::vector<std::string>>{{"yosys", "-V"}, {"sta", "-version"}}) {
    if (util::run_process(tool, {}, out, log) != 0) throw std::runtime_error("txgen qor: " + tool[0] + " failed");
    flow[tool[0]] = util::read_text_file(log);
  }
  fs::remove(log);
  return config::config_hash(flow);
}

// A configuration and block to synthesize, with where its runs go.
struct Job {
  QorEntry entry;
  LoadedConfig lc;
  const blocks::BlockInfo* block = nullptr;
  std::size_t first = 0, count = 0;  // its requests in the shared list
};

Job load_job(const QorEntry& entry) {
  Job job{entry, load((kSource / entry.config).string()), nullptr};
  job.block = select_blocks(job.lc.cfg, entry.block).front();
  return job;
}

fs::path job_dir(const Job& job, const QorOptions& opts) {
  return fs::path(opts.out) / (job.lc.cfg.name + "_" + job.block->name);
}

std::vector<synth::SynthResult> results_of(const Job& job, const std::vector<synth::SynthResult>& all) {
  return {all.begin() + job.first, all.begin() + job.first + job.count};
}

// Synthesizes every job's block, all modules in one pool, and writes each
// block's own reports (with its overhead table) into its directory.
std::vector<synth::SynthResult> synthesize_jobs(std::vector<Job>& jobs, const QorOptions& opts) {
  std::vector<synth::SynthRequest> requests;
  for (auto& job : jobs) {
    auto more = prepare_block_synthesis(job.lc, *job.block, job_dir(job, opts), "");
    job.first = requests.size();
    job.count = more.size();
    requests.insert(requests.end(), more.begin(), more.end());
  }
  const auto all = synth::run_synth_all(requests, opts.jobs, announce_synthesis);
  for (const auto& job : jobs)
    write_synthesis_reports(block_synthesis(job.lc, *job.block, results_of(job, all)), job_dir(job, opts));
  return all;
}

std::vector<synth::QorRow> compare_all(const std::vector<Job>& jobs, const std::vector<synth::SynthResult>& all,
                                       const synth::QorTolerance& tolerance) {
  std::vector<synth::QorRow> rows;
  for (const auto& job : jobs)
    for (auto& row : synth::compare_qor(job.entry, job.lc.hash, results_of(job, all), tolerance)) rows.push_back(row);
  return rows;
}

void write_table(const fs::path& out, const std::vector<synth::QorRow>& rows, const QorBaselines& b,
                 const std::string& flow_now, const std::string& heading) {
  std::string md = "### " + heading + "\n\n" + synth::qor_markdown(rows, b.tolerance);
  if (!b.flow_hash.empty() && (flow_now != b.flow_hash || b.txgen_version != TXGEN_VERSION))
    md += "\nThe flow changed since the baselines (flow " + b.flow_hash + ", txgen " + b.txgen_version + " -> flow " +
          flow_now + ", txgen " TXGEN_VERSION "); the figures are compared all the same.\n";
  util::write_text_file(out / "qor.md", md);
  nlohmann::ordered_json doc = {{"baselines_flow_hash", b.flow_hash}, {"flow_hash", flow_now}};
  doc["rows"] = synth::qor_json(rows);
  util::write_text_file(out / "qor.json", doc.dump(2) + "\n");
  std::cout << md;
}

double total_area(const QorEntry& e) {
  double area = 0.0;
  for (const auto& m : e.modules) area += m.area_um2;
  return area;
}

// "CONFIG:BLOCK" from --add, the configuration relative to the source tree.
QorEntry parse_add(const std::string& spec) {
  const auto colon = spec.rfind(':');
  if (colon == std::string::npos) throw ConfigError("--add", spec, "must be CONFIG.json:BLOCK");
  const fs::path config = fs::weakly_canonical(spec.substr(0, colon));
  const fs::path rel = config.lexically_relative(fs::weakly_canonical(kSource));
  if (rel.empty() || *rel.begin() == "..")
    throw ConfigError("--add", spec, "the configuration must be in the source tree " + kSource.string());
  return {rel.generic_string(), spec.substr(colon + 1), "", {}};
}

void add_entries(QorBaselines& b, const std::vector<std::string>& specs) {
  for (const auto& spec : specs) {
    QorEntry e = parse_add(spec);
    bool known = false;
    for (const auto& have : b.entries) known |= (have.config == e.config && have.block == e.block);
    if (!known) b.entries.push_back(e);
  }
}

int run_check(const QorOptions& opts) {
  const fs::path file = opts.baselines.empty() ? default_baselines() : fs::path(opts.baselines);
  const QorBaselines b = read_baselines(file);
  std::vector<Job> jobs;
  for (const auto& e : b.entries) jobs.push_back(load_job(e));
  fs::create_directories(opts.out);
  const std::string flow_now = flow_hash(opts.out);
  const auto rows = compare_all(jobs, synthesize_jobs(jobs, opts), b.tolerance);
  write_table(opts.out, rows, b, flow_now, "QoR against " + file.string());
  unsigned failed = 0;
  for (const auto& r : rows) failed += r.failed;
  std::cout << "txgen qor check: " << (failed ? std::to_string(failed) + " of " : "all ") << rows.size()
            << " modules " << (failed ? "FAILED" : "within the baselines") << "\n";
  return failed ? kExitInternal : kExitOk;
}

int run_update(const QorOptions& opts) {
  const fs::path file = opts.baselines.empty() ? default_baselines() : fs::path(opts.baselines);
  if (!fs::exists(file) && !opts.period_spread)
    throw ConfigError("--period-spread", "(missing)", "a new baselines file needs ABC's measured spread");
  QorBaselines b = fs::exists(file) ? read_baselines(file) : QorBaselines{};
  add_entries(b, opts.add);
  if (opts.area_percent) b.tolerance.area_percent = *opts.area_percent;
  if (opts.period_spread) b.tolerance.min_period_ns = *opts.period_spread;
  if (!opts.note.empty()) b.tolerance_note = opts.note;
  if (b.entries.empty()) throw ConfigError("--add", "(none)", "no baselines yet: name CONFIG.json:BLOCK to record");
  std::vector<Job> jobs;
  for (const auto& e : b.entries) jobs.push_back(load_job(e));
  fs::create_directories(opts.out);
  const std::string flow_now = flow_hash(opts.out);
  const auto all = synthesize_jobs(jobs, opts);
  write_table(opts.out, compare_all(jobs, all, b.tolerance), b, flow_now, "QoR before this update");
  for (auto& job : jobs) {
    job.entry.config_hash = job.lc.hash;
    job.entry.modules.clear();
    for (const auto& r : results_of(job, all)) job.entry.modules.push_back(synth::figures_of(r));
  }
  b.entries.clear();
  for (const auto& job : jobs) b.entries.push_back(job.entry);
  // Largest first: the check's pool then starts the long syntheses early.
  std::stable_sort(b.entries.begin(), b.entries.end(),
                   [](const QorEntry& x, const QorEntry& y) { return total_area(x) > total_area(y); });
  b.txgen_version = TXGEN_VERSION;
  b.flow_hash = flow_now;
  fs::create_directories(file.parent_path());
  util::write_text_file(file, synth::baselines_json(b).dump(2) + "\n");
  std::cout << "txgen qor update: wrote " << file.string() << " (" << b.entries.size() << " configurations)\n";
  return kExitOk;
}

}  // namespace

void add_qor_command(CLI::App& app, QorOptions& opts) {
  CLI::App* qor = app.add_subcommand(
      "qor", "QoR baselines (qor/baselines.json): check re-synthesizes their configurations and fails when a "
             "module's area or minimum period grew beyond the tolerance; update rewrites them.");
  qor->require_subcommand(1);
  const auto common = [&](CLI::App* cmd) {
    cmd->add_option("--out", opts.out, "work directory (RTL, netlists, logs, qor.md, qor.json)")->required();
    cmd->add_option("--baselines", opts.baselines, "baselines file (default: qor/baselines.json of the source tree)");
    cmd->add_option("--jobs", opts.jobs, "syntheses run at once (default 1)")->check(CLI::Range(1u, 64u));
  };
  common(qor->add_subcommand("check", "compare a fresh synthesis with the baselines; exit 1 on a regression"));
  CLI::App* update = qor->add_subcommand("update", "re-synthesize and rewrite the baselines (say why in the commit)");
  common(update);
  update->add_option("--add", opts.add, "also record CONFIG.json:BLOCK (a configuration in the source tree)");
  update->add_option("--area-percent", opts.area_percent, "area growth that fails the check (default 1)");
  update->add_option("--period-spread", opts.period_spread, "minimum-period growth (ns) that fails the check");
  update->add_option("--note", opts.note, "where the tolerances come from");
}

int run_qor(const CLI::App& qor, const QorOptions& opts) {
  if (qor.got_subcommand("check")) return run_check(opts);
  return run_update(opts);
}

}  // namespace txgen::cli
