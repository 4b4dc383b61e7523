#include "txgen/synth/overhead.h"

#include <algorithm>
#include <sstream>

#include "txgen/synth/format.h"

namespace txgen::synth {
namespace {

bool ends_with(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

const SynthResult* find_module(const std::vector<SynthResult>& results, const std::string& module) {
  for (const auto& r : results)
    if (r.top == module) return &r;
  return nullptr;
}

// The module name after the run's prefix: "" for the block top, "_cp" for a unit.
std::string unit_of(const std::string& module, const std::string& prefix) {
  return module.rfind(prefix, 0) == 0 ? module.substr(prefix.size()) : module;
}

const SynthResult* find_unit(const std::vector<SynthResult>& results, const std::string& prefix,
                             const std::string& unit) {
  for (const auto& r : results)
    if (unit_of(r.top, prefix) == unit) return &r;
  return nullptr;
}

std::optional<SynthResult> optional_of(const SynthResult* r) {
  return r ? std::optional<SynthResult>(*r) : std::nullopt;
}

// "" when the baseline figure is zero: a ratio would be meaningless.
std::string ratio_text(double proposed, double baseline) {
  return baseline > 0.0 ? fixed(proposed / baseline, kRatioDecimals) : "";
}

std::optional<double> ratio_value(double proposed, double baseline) {
  if (!(baseline > 0.0)) return std::nullopt;
  return rounded(proposed / baseline, kRatioDecimals);
}

std::string name_or_dash(const std::optional<SynthResult>& r) { return r ? markdown_cell(r->top) : "—"; }

std::string area_or_dash(const std::optional<SynthResult>& r) { return r ? with_thousands(r->area_um2) : "—"; }

std::string flops_or_dash(const std::optional<SynthResult>& r) { return r ? std::to_string(r->flops) : "—"; }

std::string period_or_dash(const std::optional<SynthResult>& r) {
  return r ? fixed(r->min_period_ns, kTimeDecimals) : "—";
}

// Ratios and the area difference; a missing side counts as zero area and flip-flops.
struct RowFigures {
  double area = 0.0, base_area = 0.0;
  unsigned flops = 0, base_flops = 0;
};

RowFigures row_figures(const OverheadRow& row) {
  RowFigures f;
  if (row.proposed) f.area = row.proposed->area_um2, f.flops = row.proposed->flops;
  if (row.baseline) f.base_area = row.baseline->area_um2, f.base_flops = row.baseline->flops;
  return f;
}

std::string markdown_row(const OverheadRow& row) {
  const RowFigures f = row_figures(row);
  const bool both = row.proposed && row.baseline;
  std::ostringstream md;
  md << "| " << name_or_dash(row.proposed) << " | " << name_or_dash(row.baseline) << " | "
     << area_or_dash(row.proposed) << " | " << area_or_dash(row.baseline) << " | "
     << with_thousands(f.area - f.base_area) << " | " << (both ? ratio_text(f.area, f.base_area) : "") << " | "
     << flops_or_dash(row.proposed) << " | " << flops_or_dash(row.baseline) << " | "
     << (both ? ratio_text(f.flops, f.base_flops) : "") << " | " << period_or_dash(row.proposed) << " | "
     << period_or_dash(row.baseline) << " | "
     << (both ? ratio_text(row.proposed->min_period_ns, row.baseline->min_period_ns) : "") << " |\n";
  return md.str();
}

void put_side(nlohmann::ordered_json& j, const std::string& key_prefix, const std::optional<SynthResult>& r) {
  j[key_prefix + "module"] = r ? nlohmann::ordered_json(r->top) : nlohmann::ordered_json(nullptr);
  j[key_prefix + "area_um2"] = r ? nlohmann::ordered_json(rounded(r->area_um2, kAreaDecimals)) : nullptr;
  j[key_prefix + "flip_flops"] = r ? nlohmann::ordered_json(r->flops) : nullptr;
  j[key_prefix + "min_period_ns"] = r ? nlohmann::ordered_json(rounded(r->min_period_ns, kTimeDecimals)) : nullptr;
}

nlohmann::ordered_json ratio_json(const std::optional<double>& ratio) {
  return ratio ? nlohmann::ordered_json(*ratio) : nlohmann::ordered_json(nullptr);
}

constexpr const char* kOverheadCsvHeader =
    "baseline_module,baseline_area_um2,baseline_flip_flops,baseline_min_period_ns,area_ratio,flip_flop_ratio,"
    "min_period_ratio";

std::string overhead_csv_cells(const std::vector<OverheadRow>& rows, const std::string& module) {
  for (const auto& row : rows) {
    if (!row.proposed || !row.baseline || row.proposed->top != module) continue;
    const SynthResult& p = *row.proposed;
    const SynthResult& b = *row.baseline;
    return csv_cell(b.top) + ',' + fixed(b.area_um2, kAreaDecimals) + ',' + std::to_string(b.flops) + ',' +
           fixed(b.min_period_ns, kTimeDecimals) + ',' + ratio_text(p.area_um2, b.area_um2) + ',' +
           ratio_text(p.flops, b.flops) + ',' + ratio_text(p.min_period_ns, b.min_period_ns);
  }
  return ",,,,,,";
}

}  // namespace

std::vector<OverheadRow> pair_with_base(const std::vector<SynthResult>& results) {
  std::vector<OverheadRow> rows;
  for (const auto& r : results) {
    if (ends_with(r.top, kBaseSuffix)) continue;
    if (const SynthResult* base = find_module(results, r.top + kBaseSuffix)) rows.push_back({r, *base});
  }
  return rows;
}

std::vector<OverheadRow> pair_runs(const std::vector<SynthResult>& proposed, const std::string& proposed_prefix,
                                   const std::vector<SynthResult>& baseline, const std::string& baseline_prefix) {
  std::vector<OverheadRow> rows;
  for (const auto& r : proposed)
    rows.push_back({r, optional_of(find_unit(baseline, baseline_prefix, unit_of(r.top, proposed_prefix)))});
  for (const auto& b : baseline)
    if (!find_unit(proposed, proposed_prefix, unit_of(b.top, baseline_prefix))) rows.push_back({std::nullopt, b});
  return rows;
}

std::optional<OverheadRow> units_total(const std::vector<OverheadRow>& rows) {
  const bool one_sided = std::any_of(rows.begin(), rows.end(), [](const auto& r) { return !r.proposed || !r.baseline; });
  if (!one_sided) return std::nullopt;
  SynthResult p, b;
  p.top = "all units", b.top = "all units";
  for (const auto& row : rows) {
    for (auto [side, sum] : {std::pair{&row.proposed, &p}, std::pair{&row.baseline, &b}}) {
      if (!*side) continue;
      sum->area_um2 += (*side)->area_um2;
      sum->cells += (*side)->cells;
      sum->flops += (*side)->flops;
      sum->min_period_ns = std::max(sum->min_period_ns, (*side)->min_period_ns);
    }
  }
  return OverheadRow{p, b};
}

std::string overhead_markdown(const std::vector<OverheadRow>& rows, const std::string& note) {
  std::ostringstream md;
  md << "### Overhead against the baseline\n\n";
  if (rows.empty()) return md.str() + note + "\n";
  md << "| module | baseline | area um^2 | baseline um^2 | overhead um^2 | area ratio | flip-flops | "
        "baseline flip-flops | flip-flop ratio | min period ns | baseline min period ns | period ratio |\n";
  md << "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
  for (const auto& row : rows) md << markdown_row(row);
  if (const auto total = units_total(rows)) md << markdown_row(*total);
  md << "\n" << note << "\n";
  return md.str();
}

nlohmann::ordered_json overhead_json(const std::vector<OverheadRow>& rows) {
  nlohmann::ordered_json array = nlohmann::ordered_json::array();
  for (const auto& row : rows) {
    nlohmann::ordered_json j;
    put_side(j, "", row.proposed);
    put_side(j, "baseline_", row.baseline);
    const RowFigures f = row_figures(row);
    const bool both = row.proposed && row.baseline;
    j["area_ratio"] = ratio_json(both ? ratio_value(f.area, f.base_area) : std::nullopt);
    j["flip_flop_ratio"] = ratio_json(both ? ratio_value(f.flops, f.base_flops) : std::nullopt);
    j["min_period_ratio"] =
        ratio_json(both ? ratio_value(row.proposed->min_period_ns, row.baseline->min_period_ns) : std::nullopt);
    array.push_back(j);
  }
  return array;
}

std::string results_csv_with_overhead(const std::vector<SynthResult>& results, const std::vector<OverheadRow>& rows) {
  std::istringstream plain(results_csv(results));  // a header, then one line per result
  std::string line;
  std::getline(plain, line);
  std::string csv = line + ',' + kOverheadCsvHeader + '\n';
  for (const auto& r : results) {
    std::getline(plain, line);
    csv += line + ',' + overhead_csv_cells(rows, r.top) + '\n';
  }
  return csv;
}

}  // namespace txgen::synth
