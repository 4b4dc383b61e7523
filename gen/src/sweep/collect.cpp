#include "txgen/sweep/collect.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "txgen/util/table_format.h"

namespace txgen::sweep {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const std::vector<Column> kSynthColumns = {{"area_um2", "area um^2", Kind::Area, false},
                                           {"flip_flops", "flip-flops", Kind::Count, false},
                                           {"cells", "cells", Kind::Count, false},
                                           {"worst_slack_ns", "slack ns", Kind::Time, false},
                                           {"min_period_ns", "min period ns", Kind::Time, false},
                                           {"critical_path_ns", "critical path ns", Kind::Time, false},
                                           {"fo4", "FO4", Kind::Fo4, false},
                                           {"period_ns", "clock ns", Kind::Time, true}};

json read_json_or_null(const fs::path& file) {
  std::ifstream in(file);
  if (!in) return nullptr;
  try {
    return json::parse(in);
  } catch (const json::exception&) {
    return nullptr;
  }
}

bool has_step(const Record& r, const std::string& step) {
  return std::find(r.steps.begin(), r.steps.end(), step) != r.steps.end();
}

const Job* find_job(const std::vector<const Job*>& jobs, const std::string& step, const std::string& block) {
  for (const Job* j : jobs)
    if (j->step == step && j->block == block) return j;
  return nullptr;
}

// The whole structure's columns, for the blocks with SRAM macros.
const std::vector<Column> kStructureColumns = {{"macro_area_um2", "macros um^2", Kind::Area, false},
                                               {"structure_area_um2", "logic + macros um^2", Kind::Area, false},
                                               {"structure_overhead_pct", "overhead, % of the whole", Kind::Percent,
                                                false}};

// Keys discovered in the rows (storage fields, eval workloads), in first-seen order.
struct Discovered {
  std::vector<std::string> storage, eval;
  bool macros = false;  // a synthesis report had SRAM macros
  static void note(std::vector<std::string>& keys, const std::string& k) {
    if (std::find(keys.begin(), keys.end(), k) == keys.end()) keys.push_back(k);
  }
};

json block_report(const json& report, const std::string& block) {
  if (report.is_object() && report.contains("blocks"))
    for (const auto& b : report["blocks"])
      if (b.value("block", "") == block) return b;
  return nullptr;
}

void flatten_integers(const json& v, const std::string& key, json& row, Discovered& d) {
  if (v.is_object()) {
    for (auto it = v.begin(); it != v.end(); ++it) flatten_integers(it.value(), key + "." + it.key(), row, d);
  } else if (v.is_number_integer()) {
    row[key] = v;
    Discovered::note(d.storage, key);
  }
}

// The storage figures `txgen report` states: every integer under a field
// named like storage or state bits.
void add_storage(const json& entry, json& row, Discovered& d) {
  static const std::regex kStorage(".*(storage|state_bits).*");
  if (!entry.is_object()) return;
  for (auto it = entry.begin(); it != entry.end(); ++it)
    if (it.value().is_object() && std::regex_match(it.key(), kStorage)) flatten_integers(it.value(), it.key(), row, d);
}

void add_latency(const Record& r, const json& entry, json& row) {
  if (r.plot.latency.empty() || entry.is_null()) return;
  const json v = value_at(entry, parse_field_path(r.plot.latency, "$.plot.latency"));
  if (v.is_number()) row["latency"] = v;
}

// passed; FAILED with the harness's reason (a mismatch, a required coverage
// counter not hit); error when there is no verdict (the build failed). And the
// cycles of every run in the co-simulation log.
void add_cosim(const fs::path& dir, const Job& job, json& row) {
  const fs::path point = dir / job.dir;
  std::ifstream log(point / job.log);
  const std::string text((std::istreambuf_iterator<char>(log)), std::istreambuf_iterator<char>());
  const bool failed = text.find("co-simulation FAILED") != std::string::npos;
  const std::string why = text.find("MISMATCH in") != std::string::npos ? ": mismatch"
                          : text.find("never hit") != std::string::npos ? ": coverage"
                                                                        : "";
  row["cosim"] = job_state(dir, job) == JobState::Passed ? "passed" : failed ? "FAILED" + why : "error";
  std::ifstream runs(point / job.name() / "cosim.log");
  static const std::regex kCycles(R"(^\[cosim\] \S+: ([0-9]+) cycles)");
  uint64_t cycles = 0;
  bool any = false;
  for (std::string line; std::getline(runs, line);) {
    std::smatch m;
    if (std::regex_search(line, m, kCycles)) {
      cycles += std::stoull(m[1]);
      any = true;
    }
  }
  if (any) row["cosim_cycles"] = cycles;
}

void set_eval(json& row, Discovered& d, const std::string& key, double value) {
  row[key] = value;
  Discovered::note(d.eval, key);
}

// A run's key suffix: its workload, and its walk-scheduling policy when the
// evaluation compared several.
std::string run_key(const json& run) {
  const std::string policy = run.value("policy", "");
  return run.value("workload", "") + (policy.empty() ? "" : "." + policy);
}

// Per workload, the L2-TLB requests the path avoids against its baseline and
// its speedup (the baseline's runtime over the path's).
void add_path_figures(const json& runs, json& row, Discovered& d) {
  std::map<std::string, json> base;
  for (const auto& run : runs) {
    const std::string k = run_key(run);
    if (run.value("design", "") == "baseline") {
      base[k] = run;
      continue;
    }
    if (!base.count(k)) continue;
    const double l2 = base[k].value("l2_requests", 0.0), cycles = run.value("cycles", 0.0);
    if (l2 > 0) set_eval(row, d, "l2_avoided_pct." + k, 100.0 * (1.0 - run.value("l2_requests", 0.0) / l2));
    if (cycles > 0) set_eval(row, d, "speedup." + k, base[k].value("cycles", 0.0) / cycles);
  }
}

// With walk-scheduling policies: each non-FCFS policy's speedup over FCFS
// per workload (the first design replayed) and their geometric mean, as
// seed 002 section V reports them.
void add_policy_figures(const json& runs, json& row, Discovered& d) {
  std::map<std::string, double> fcfs;  // workload -> cycles
  const std::string design = runs.empty() ? "" : runs[0].value("design", "");
  for (const auto& run : runs)
    if (run.value("design", "") == design && run.value("policy", "") == "fcfs")
      fcfs[run.value("workload", "")] = run.value("cycles", 0.0);
  std::map<std::string, std::pair<double, unsigned>> logs;  // policy -> (sum of log speedups, count)
  for (const auto& run : runs) {
    const std::string policy = run.value("policy", ""), w = run.value("workload", "");
    const double cycles = run.value("cycles", 0.0);
    if (run.value("design", "") != design || policy.empty() || policy == "fcfs" || !fcfs.count(w) || cycles <= 0)
      continue;
    const double speedup = fcfs[w] / cycles;
    set_eval(row, d, "over_fcfs_" + policy + "." + w, speedup);
    logs[policy].first += std::log(speedup);
    ++logs[policy].second;
  }
  for (const auto& [policy, l] : logs)
    set_eval(row, d, "over_fcfs_" + policy + ".geomean", std::exp(l.first / l.second));
}

// The runs of every evaluation job of a point (one per workload), in the
// sweep's workload order; the policies' geometric means only when every job
// passed, so a mean never covers a subset of the workloads unannounced.
void add_eval(const fs::path& dir, const std::vector<const Job*>& jobs, json& row, Discovered& d) {
  json runs = json::array();
  bool all = true;
  for (const Job* j : jobs) {
    if (j->step != "eval") continue;
    const json part = read_json_or_null(dir / j->dir / j->name() / "eval.json");
    const bool passed = part.is_array() && job_state(dir, *j) == JobState::Passed;
    all &= passed;
    if (passed) runs.insert(runs.end(), part.begin(), part.end());
  }
  add_path_figures(runs, row, d);
  if (all) add_policy_figures(runs, row, d);
}

std::string role_of(const std::string& module, const std::string& block, const std::string& point) {
  const std::string prefix = block + "_" + point;
  if (module.rfind(prefix, 0) != 0) return module;
  return module.size() == prefix.size() ? block : module.substr(prefix.size() + 1);
}

// The module's whole structure (logic + macros, the overhead over the
// baseline's whole structure) when its report has one.
void add_structure(const json& report, const std::string& module, json& row, Discovered& d) {
  if (!report.contains("whole_structure")) return;
  for (const auto& s : report["whole_structure"]) {
    if (s.value("module", "") != module) continue;
    row["macro_area_um2"] = s["macro_area_um2"];
    row["structure_area_um2"] = s["total_area_um2"];
    row["structure_overhead_pct"] = s["overhead_percent"];
    d.macros = true;
  }
}

void add_synth_rows(const fs::path& dir, const Job& job, const std::string& point, const json& base,
                    std::vector<json>& rows, Discovered& d) {
  const json report = read_json_or_null(dir / job.dir / job.name() / (job.block + ".synth.json"));
  if (job_state(dir, job) != JobState::Passed || !report.contains("results")) {
    json row = base;
    row["module"] = "(synthesis failed: " + (fs::path(job.dir) / job.log).string() + ")";
    rows.push_back(row);
    return;
  }
  for (const auto& m : report["results"]) {
    json row = base;
    row["module"] = role_of(m.value("module", ""), job.block, point);
    for (const auto& c : kSynthColumns)
      if (m.contains(c.key)) row[c.key] = m[c.key];
    add_structure(report, m.value("module", ""), row, d);
    rows.push_back(row);
  }
}

bool finished(const fs::path& dir, const std::vector<const Job*>& jobs) {
  return std::all_of(jobs.begin(), jobs.end(), [&](const Job* j) { return job_state(dir, *j) != JobState::NotRun; });
}

void gather_point(const fs::path& dir, const Record& r, const PlannedPoint& p, Table& t, Discovered& d) {
  const auto jobs = jobs_of(r, p.name);
  const Job* report_job = find_job(jobs, "report", "");
  const json report = job_state(dir, *report_job) == JobState::Passed
                          ? read_json_or_null(dir / p.dir / report_job->stdout_file)
                          : json();
  for (const auto& block : r.blocks) {
    json row = {{"point", p.name}, {"block", block}};
    for (const auto& [path, v] : p.values) row[varied_key(r, path)] = v;
    const json entry = block_report(report, block);
    add_storage(entry, row, d);
    add_latency(r, entry, row);
    if (const Job* c = find_job(jobs, "cosim", block)) add_cosim(dir, *c, row);
    if (block == "tx_path") add_eval(dir, jobs, row, d);
    if (const Job* s = find_job(jobs, "synth", block))
      add_synth_rows(dir, *s, p.name, row, t.rows, d);
    else
      t.rows.push_back(row);
  }
}

std::vector<Column> columns_of(const Record& r, const Discovered& d) {
  std::vector<Column> cols = {{"point", "point", Kind::Text, false}};
  if (r.blocks.size() > 1) cols.push_back({"block", "block", Kind::Text, false});
  for (const auto& path : r.varied) cols.push_back({varied_key(r, path), varied_key(r, path), Kind::Text, false});
  if (has_step(r, "synth")) {
    cols.push_back({"module", "module", Kind::Text, false});
    cols.insert(cols.end(), kSynthColumns.begin(), kSynthColumns.end());
    if (d.macros) cols.insert(cols.end(), kStructureColumns.begin(), kStructureColumns.end());
  }
  for (const auto& k : d.storage) cols.push_back({k, k, Kind::Count, true});
  if (!r.plot.latency.empty()) cols.push_back({"latency", "latency (" + r.plot.latency + ")", Kind::Count, true});
  if (has_step(r, "cosim")) {
    cols.push_back({"cosim_cycles", "cosim cycles", Kind::Count, false});
    cols.push_back({"cosim", "cosim", Kind::Text, false});
  }
  for (const auto& k : d.eval)
    cols.push_back({k, k, k.rfind("l2_avoided_pct.", 0) == 0 ? Kind::Percent : Kind::Ratio, false});
  return cols;
}

// ---------------------------------------------------------------- formatting

int decimals(Kind k) {
  switch (k) {
    case Kind::Area:
      return 1;
    case Kind::Time:
      return 3;
    case Kind::Fo4:
    case Kind::Percent:
      return 1;
    case Kind::Ratio:
      return 2;
    default:
      return 0;
  }
}

std::string cell(const json& row, const Column& c, bool markdown) {
  if (!row.contains(c.key) || row[c.key].is_null()) return markdown ? "-" : "";
  const json& v = row[c.key];
  if (v.is_string()) return markdown ? util::markdown_cell(v.get<std::string>()) : util::csv_cell(v.get<std::string>());
  if (!v.is_number() || c.kind == Kind::Text)
    return markdown ? util::markdown_cell(v.dump()) : util::csv_cell(v.dump());
  const double x = v.get<double>();
  if (markdown && (c.kind == Kind::Area || c.kind == Kind::Count)) return util::with_thousands(x);
  if (markdown && c.kind == Kind::Percent) return util::fixed(x, 1) + " %";
  if (markdown && c.kind == Kind::Ratio) return util::fixed(x, 2) + "x";
  return util::fixed(x, decimals(c.kind));
}

bool numeric(const Table& t, const Column& c) {
  if (c.kind != Kind::Text) return true;
  return std::all_of(t.rows.begin(), t.rows.end(),
                     [&](const json& row) { return row.value(c.key, json()).is_number(); });
}

bool empty(const Table& t, const Column& c) {
  return std::all_of(t.rows.begin(), t.rows.end(), [&](const json& row) { return row.value(c.key, json()).is_null(); });
}

bool constant(const Table& t, const Column& c) {
  for (const auto& row : t.rows)
    if (row.value(c.key, json()) != t.rows.front().value(c.key, json())) return false;
  return true;
}

}  // namespace

std::string varied_key(const Record& r, const std::string& path) {
  const FieldPath p = parse_field_path(path, "$.vary");
  for (const auto& other : r.varied)
    if (other != path && parse_field_path(other, "$.vary").tokens.back() == p.tokens.back())
      return path.substr(2);  // two fields of that name: the whole path
  return p.tokens.back();
}

Table gather(const fs::path& dir, const Record& r) {
  Table t;
  Discovered d;
  for (const auto& p : r.points) {
    if (!finished(dir, jobs_of(r, p.name))) {
      ++t.unfinished;
      continue;
    }
    ++t.points;
    gather_point(dir, r, p, t, d);
  }
  t.columns = columns_of(r, d);
  return t;
}

std::string table_csv(const Table& t) {
  std::ostringstream out;
  for (size_t i = 0; i < t.columns.size(); ++i) out << (i ? "," : "") << util::csv_cell(t.columns[i].key);
  out << "\n";
  for (const auto& row : t.rows) {
    for (size_t i = 0; i < t.columns.size(); ++i) out << (i ? "," : "") << cell(row, t.columns[i], false);
    out << "\n";
  }
  return out.str();
}

std::string table_json(const Table& t, const Record& r) {
  nlohmann::ordered_json doc = {
      {"sweep", r.name},    {"txgen_version", r.txgen_version}, {"spec", r.spec_file},
      {"points", t.points}, {"unfinished", t.unfinished},       {"skipped", r.skipped.size()}};
  doc["rows"] = nlohmann::ordered_json::array();
  for (const auto& row : t.rows) {
    nlohmann::ordered_json o;
    for (const auto& c : t.columns) {
      const json v = row.value(c.key, json());
      o[c.key] = v.is_number_float() ? json(util::rounded(v.get<double>(), decimals(c.kind))) : v;
    }
    doc["rows"].push_back(o);
  }
  return doc.dump(2) + "\n";
}

std::string table_markdown(const Table& t, const Record& r) {
  std::vector<const Column*> shown, hoisted;
  for (const auto& c : t.columns) {
    if (empty(t, c)) continue;
    (c.hoist && t.rows.size() > 1 && constant(t, c) ? hoisted : shown).push_back(&c);
  }
  std::ostringstream md;
  md << "### Sweep " << r.name << " (" << fs::path(r.spec_file).filename().string() << ", txgen " << r.txgen_version
     << ")\n\n"
     << t.points << " points collected" << (t.unfinished ? ", " + std::to_string(t.unfinished) + " unfinished" : "")
     << (r.skipped.empty() ? "" : ", " + std::to_string(r.skipped.size()) + " skipped") << ".\n\n|";
  for (const Column* c : shown) md << " " << c->header << " |";
  md << "\n|";
  for (const Column* c : shown) md << (numeric(t, *c) ? "---:|" : "---|");
  md << "\n";
  for (const auto& row : t.rows) {
    md << "|";
    for (const Column* c : shown) md << " " << cell(row, *c, true) << " |";
    md << "\n";
  }
  if (!hoisted.empty() && !t.rows.empty()) {
    md << "\nSame in every row:";
    for (size_t i = 0; i < hoisted.size(); ++i)
      md << (i ? "," : "") << " " << hoisted[i]->header << " " << cell(t.rows.front(), *hoisted[i], true);
    md << ".\n";
  }
  if (has_step(r, "synth"))
    md << "\nSynthesis: `txgen synth` (Yosys, ABC onto osu018, OpenSTA; docs/synthesis.md). Min period = clock - "
          "slack; critical path less the input delay; FO4 = 0.10 ns.\n";
  for (const auto& s : r.skipped)
    md << (&s == &r.skipped.front() ? "\nSkipped:\n" : "") << "- `" << s.name << "`: " << s.reason << "\n";
  return md.str();
}

}  // namespace txgen::sweep
