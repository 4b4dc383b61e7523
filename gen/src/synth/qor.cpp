#include "txgen/synth/qor.h"

#include <sstream>

#include "txgen/error.h"
#include "txgen/synth/format.h"

namespace txgen::synth {
namespace {

using nlohmann::json;

const json& field(const json& obj, const std::string& path, const std::string& key) {
  if (!obj.is_object()) throw ConfigError(path, obj.dump(), "must be an object");
  const auto it = obj.find(key);
  if (it == obj.end()) throw ConfigError(path + "." + key, "(missing)", "required field");
  return *it;
}

std::string text_field(const json& obj, const std::string& path, const std::string& key) {
  const json& v = field(obj, path, key);
  if (!v.is_string()) throw ConfigError(path + "." + key, v.dump(), "must be a string");
  return v.get<std::string>();
}

double number_field(const json& obj, const std::string& path, const std::string& key) {
  const json& v = field(obj, path, key);
  if (!v.is_number() || v.get<double>() < 0.0)
    throw ConfigError(path + "." + key, v.dump(), "must be a number >= 0");
  return v.get<double>();
}

const json& array_field(const json& obj, const std::string& path, const std::string& key) {
  const json& v = field(obj, path, key);
  if (!v.is_array()) throw ConfigError(path + "." + key, v.dump(), "must be an array");
  return v;
}

QorFigures parse_figures(const json& j, const std::string& path) {
  QorFigures f;
  f.module = text_field(j, path, "module");
  f.area_um2 = number_field(j, path, "area_um2");
  const json& flops = field(j, path, "flip_flops");
  if (!flops.is_number_unsigned()) throw ConfigError(path + ".flip_flops", flops.dump(), "must be an integer >= 0");
  f.flops = flops.get<unsigned>();
  f.min_period_ns = number_field(j, path, "min_period_ns");
  return f;
}

QorEntry parse_entry(const json& j, const std::string& path) {
  QorEntry e;
  e.config = text_field(j, path, "config");
  e.block = text_field(j, path, "block");
  e.config_hash = text_field(j, path, "config_hash");
  if (e.config_hash.empty()) throw ConfigError(path + ".config_hash", "\"\"", "must not be empty");
  const json& modules = array_field(j, path, "modules");
  for (std::size_t i = 0; i < modules.size(); ++i)
    e.modules.push_back(parse_figures(modules[i], path + ".modules[" + std::to_string(i) + "]"));
  return e;
}

const QorFigures* find_figures(const std::vector<QorFigures>& list, const std::string& module) {
  for (const auto& f : list)
    if (f.module == module) return &f;
  return nullptr;
}

double percent_change(double before, double after) { return before > 0.0 ? 100.0 * (after - before) / before : 0.0; }

std::string signed_fixed(double value, int decimals) {
  const std::string text = fixed(value, decimals);
  return (text[0] == '-' || text.find_first_not_of("0.") == std::string::npos) ? text : "+" + text;
}

// The verdict on one module present on both sides.
void judge(QorRow& row, const QorTolerance& tol) {
  const QorFigures& b = *row.before;
  const QorFigures& a = *row.after;
  const double area = percent_change(b.area_um2, a.area_um2);
  const double period = a.min_period_ns - b.min_period_ns;
  std::vector<std::string> worse, better;
  if (area > tol.area_percent) worse.push_back("area " + signed_fixed(area, 2) + " %");
  if (period > tol.min_period_ns + 1e-9) worse.push_back("min period " + signed_fixed(period, 3) + " ns");
  if (area < -tol.area_percent) better.push_back("area " + signed_fixed(area, 2) + " %");
  if (period < -tol.min_period_ns - 1e-9) better.push_back("min period " + signed_fixed(period, 3) + " ns");
  const auto joined = [](const std::vector<std::string>& parts) {
    std::string s;
    for (const auto& p : parts) s += (s.empty() ? "" : ", ") + p;
    return s;
  };
  row.failed = !worse.empty();
  if (row.failed)
    row.verdict = "REGRESSION: " + joined(worse);
  else if (!better.empty())
    row.verdict = "better: " + joined(better) + " (qor update to keep)";
  else
    row.verdict = "ok";
}

std::string area_cell(const std::optional<QorFigures>& f) { return f ? with_thousands(f->area_um2) : "—"; }
std::string flops_cell(const std::optional<QorFigures>& f) { return f ? std::to_string(f->flops) : "—"; }
std::string period_cell(const std::optional<QorFigures>& f) { return f ? fixed(f->min_period_ns, kTimeDecimals) : "—"; }

json side_json(const std::optional<QorFigures>& f) {
  if (!f) return nullptr;
  return {{"area_um2", rounded(f->area_um2, kAreaDecimals)},
          {"flip_flops", f->flops},
          {"min_period_ns", rounded(f->min_period_ns, kTimeDecimals)}};
}

// A module slower than the clock it was synthesized for fails whatever its
// baseline says: a baseline recorded while missing the clock must not hide it.
void judge_clock(QorRow& row, const std::vector<SynthResult>& now) {
  if (!row.after) return;
  for (const auto& r : now) {
    if (r.top != row.after->module || r.period_ns <= 0.0 || r.min_period_ns <= r.period_ns + 1e-9) continue;
    const std::string miss = "FAILED: misses the " + fixed(r.period_ns, kTimeDecimals) + " ns clock";
    row.verdict = row.verdict == "ok" || row.verdict.empty() ? miss : row.verdict + "; " + miss;
    row.failed = true;
  }
}

}  // namespace

QorBaselines parse_baselines(const json& doc) {
  QorBaselines b;
  b.txgen_version = text_field(doc, "$", "txgen_version");
  b.flow_hash = text_field(doc, "$", "flow_hash");
  const json& tol = field(doc, "$", "tolerance");
  b.tolerance.area_percent = number_field(tol, "$.tolerance", "area_percent");
  b.tolerance.min_period_ns = number_field(tol, "$.tolerance", "min_period_ns");
  b.tolerance_note = text_field(tol, "$.tolerance", "note");
  const json& entries = array_field(doc, "$", "entries");
  for (std::size_t i = 0; i < entries.size(); ++i)
    b.entries.push_back(parse_entry(entries[i], "$.entries[" + std::to_string(i) + "]"));
  return b;
}

nlohmann::ordered_json baselines_json(const QorBaselines& b) {
  nlohmann::ordered_json doc;
  doc["about"] = "QoR baselines checked by `txgen qor check`, rewritten by `txgen qor update` (docs/synthesis.md)";
  doc["txgen_version"] = b.txgen_version;
  doc["flow_hash"] = b.flow_hash;
  doc["tolerance"] = {{"area_percent", b.tolerance.area_percent},
                      {"min_period_ns", b.tolerance.min_period_ns},
                      {"note", b.tolerance_note}};
  doc["entries"] = nlohmann::ordered_json::array();
  for (const auto& e : b.entries) {
    nlohmann::ordered_json entry = {{"config", e.config}, {"block", e.block}, {"config_hash", e.config_hash}};
    entry["modules"] = nlohmann::ordered_json::array();
    for (const auto& f : e.modules)
      entry["modules"].push_back({{"module", f.module},
                                  {"area_um2", rounded(f.area_um2, kAreaDecimals)},
                                  {"flip_flops", f.flops},
                                  {"min_period_ns", rounded(f.min_period_ns, kTimeDecimals)}});
    doc["entries"].push_back(entry);
  }
  return doc;
}

QorFigures figures_of(const SynthResult& r) {
  return {r.top, rounded(r.area_um2, kAreaDecimals), r.flops, rounded(r.min_period_ns, kTimeDecimals)};
}

std::vector<QorRow> compare_qor(const QorEntry& baseline, const std::string& config_hash_now,
                                const std::vector<SynthResult>& now, const QorTolerance& tolerance) {
  std::vector<QorFigures> after;
  for (const auto& r : now) after.push_back(figures_of(r));
  std::vector<QorRow> rows;
  if (baseline.config_hash.empty()) {  // an entry being added
    for (const auto& a : after) rows.push_back({baseline.config, a.module, std::nullopt, a, "new entry", false});
    return rows;
  }
  for (const auto& b : baseline.modules) {
    QorRow row{baseline.config, b.module, b, std::nullopt, "", true};
    if (const QorFigures* a = find_figures(after, b.module)) {
      row.after = *a;
      judge(row, tolerance);
    } else {
      row.verdict = "FAILED: module no longer synthesized (qor update if intended)";
    }
    rows.push_back(row);
  }
  for (const auto& a : after)
    if (!find_figures(baseline.modules, a.module))
      rows.push_back({baseline.config, a.module, std::nullopt, a, "FAILED: module not in the baselines (qor update)", true});
  for (auto& row : rows) judge_clock(row, now);
  if (config_hash_now != baseline.config_hash) {
    for (auto& row : rows) {
      row.failed = true;
      row.verdict = "FAILED: configuration changed (hash " + baseline.config_hash + " -> " + config_hash_now +
                    "; qor update)";
    }
  }
  return rows;
}

std::string qor_markdown(const std::vector<QorRow>& rows, const QorTolerance& tolerance) {
  std::ostringstream md;
  md << "| configuration | module | area um^2 before | after | change | flip-flops before | after | "
        "min period ns before | after | change | verdict |\n";
  md << "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n";
  for (const auto& r : rows) {
    const bool both = r.before && r.after;
    md << "| " << markdown_cell(r.config) << " | " << markdown_cell(r.module) << " | " << area_cell(r.before) << " | "
       << area_cell(r.after) << " | "
       << (both ? signed_fixed(percent_change(r.before->area_um2, r.after->area_um2), 2) + " %" : "") << " | "
       << flops_cell(r.before) << " | " << flops_cell(r.after) << " | " << period_cell(r.before) << " | "
       << period_cell(r.after) << " | "
       << (both ? signed_fixed(r.after->min_period_ns - r.before->min_period_ns, 3) : "") << " | "
       << markdown_cell(r.verdict) << " |\n";
  }
  md << "\nFails when the area grows by more than " << fixed(tolerance.area_percent, 1)
     << " % or the minimum period by more than " << fixed(tolerance.min_period_ns, 3)
     << " ns (ABC's measured spread, docs/synthesis.md).\n";
  return md.str();
}

nlohmann::ordered_json qor_json(const std::vector<QorRow>& rows) {
  nlohmann::ordered_json array = nlohmann::ordered_json::array();
  for (const auto& r : rows)
    array.push_back({{"config", r.config},
                     {"module", r.module},
                     {"before", side_json(r.before)},
                     {"after", side_json(r.after)},
                     {"failed", r.failed},
                     {"verdict", r.verdict}});
  return array;
}

}  // namespace txgen::synth
