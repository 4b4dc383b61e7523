// QoR baselines (qor/baselines.json): per configuration and module the area,
// flip-flops and minimum period of the last accepted synthesis, and the check
// of a new synthesis against them. No I/O here; `txgen qor` runs the flow.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "txgen/synth/synth_flow.h"

namespace txgen::synth {

struct QorFigures {
  std::string module;
  double area_um2 = 0.0;
  unsigned flops = 0;
  double min_period_ns = 0.0;
};

// One block of one configuration, keyed by the configuration's hash.
struct QorEntry {
  std::string config;  // path relative to the source tree
  std::string block;
  std::string config_hash;
  std::vector<QorFigures> modules;
};

// What a result may move by before the check fails.
struct QorTolerance {
  double area_percent = 1.0;
  double min_period_ns = 0.0;  // ABC's run-to-run spread, measured (docs/synthesis.md)
};

struct QorBaselines {
  std::string txgen_version;
  std::string flow_hash;  // scripts, SDCs and tool versions the figures came from
  QorTolerance tolerance;
  std::string tolerance_note;  // where the spread comes from
  std::vector<QorEntry> entries;
};

// Throws ConfigError naming the JSON path of a missing or mistyped field.
QorBaselines parse_baselines(const nlohmann::json& doc);
nlohmann::ordered_json baselines_json(const QorBaselines& b);

QorFigures figures_of(const SynthResult& r);

struct QorRow {
  std::string config, module;
  std::optional<QorFigures> before, after;
  std::string verdict;
  bool failed = false;
};

// One entry against a new synthesis of it: a row per module (baseline order,
// then new modules). Fails on area growth over the tolerance, minimum period
// growth over the spread, a module missing from either side, or a changed
// configuration (every row then says so). An entry without a hash is being
// added: its rows are "new entry".
std::vector<QorRow> compare_qor(const QorEntry& baseline, const std::string& config_hash_now,
                                const std::vector<SynthResult>& now, const QorTolerance& tolerance);

// "| configuration | module | area before | after | ... | verdict |"
std::string qor_markdown(const std::vector<QorRow>& rows, const QorTolerance& tolerance);
nlohmann::ordered_json qor_json(const std::vector<QorRow>& rows);

}  // namespace txgen::synth
