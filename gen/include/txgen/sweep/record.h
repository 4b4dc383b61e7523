// sweep.json: what `txgen sweep` planned in a sweep directory (points, skipped
// points with the reason, jobs), read back by the summary and `sweep collect`.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "txgen/sweep/jobs.h"
#include "txgen/sweep/spec.h"

namespace txgen::sweep {

using Values = std::vector<std::pair<std::string, nlohmann::json>>;  // varied path -> value

struct PlannedPoint {
  std::string name, config_hash, dir;
  Values values;
};

struct SkippedPoint {
  std::string name;
  Values values;
  std::string reason;  // the elaboration's error
};

struct Record {
  std::string name, txgen_version, spec_file;
  std::vector<std::string> blocks, steps, varied;
  PlotSpec plot;
  std::vector<PlannedPoint> points;
  std::vector<SkippedPoint> skipped;
  std::vector<Job> jobs;
};

nlohmann::ordered_json to_json(const Record& r);
// Throws ConfigError when dir holds no readable sweep.json.
Record read_record(const std::filesystem::path& dir);

std::vector<const Job*> jobs_of(const Record& r, const std::string& point);

}  // namespace txgen::sweep
