// Sweep specification files (docs/sweep.md): a base configuration, the blocks,
// the parameters to vary and the steps to run per point, and their expansion
// into one configuration per point.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace txgen::sweep {

// "$.a.b[2]": the configuration field a parameter names.
struct FieldPath {
  std::string text;                  // as written in the spec
  nlohmann::json::json_pointer ptr;  // /a/b/2
  std::vector<std::string> tokens;   // a, b, 2
};

// Parameters that change together (zipped); axes are crossed.
struct Axis {
  std::vector<FieldPath> paths;
  std::vector<std::vector<nlohmann::json>> values;  // values[p][i]: path p at step i
  size_t size() const { return values.front().size(); }
};

struct CosimStep {
  unsigned long cycles = 100000;  // txgen cosim --cycles
  std::string seed;               // txgen cosim --seed ("": its fixed seed)
  bool shared_build = true;       // one CMake tree for every point (builds take turns)
};

struct EvalStep {
  std::vector<std::string> workloads;  // txgen eval --workloads ("": all)
  unsigned long requests = 0;          // txgen eval --requests (0: whole streams)
  std::string engine = "model";
  std::string replay = "wavefront";    // txgen eval --replay (wavefront or outstanding)
  std::vector<std::string> policies;   // txgen eval --policies (generated L2-TLB and IOMMU; "": the configuration's)
  std::vector<std::string> designs;    // txgen eval --designs ("": baseline and path)
  bool shared_build = true;
};

// What `txgen sweep collect` plots: area and minimum period against x, one line
// per value of the series parameters (and module); area against the latency
// read from the block's `txgen report --format json` entry, with its Pareto front.
struct PlotSpec {
  std::string x;                     // a varied path with numeric values ("": no size plots)
  std::vector<std::string> series;   // varied paths
  std::string latency;               // path into the report entry ("": no Pareto plot)
  std::vector<std::string> modules;  // module roles to plot ("": all)
};

inline const std::vector<std::string> kSteps = {"report", "gen", "synth", "cosim", "eval"};

struct Spec {
  std::filesystem::path file;  // absolute
  std::string name;            // prefix of every point's configuration name
  std::filesystem::path base_file;
  nlohmann::json base;  // the base configuration with "set" applied
  std::vector<std::string> blocks;
  std::vector<std::string> steps;  // in kSteps order; "report" always
  std::vector<Axis> axes;
  // path -> prefix of its values in point names; nullopt: left out of them
  std::vector<std::pair<std::string, std::optional<std::string>>> labels;
  CosimStep cosim;
  EvalStep eval;
  PlotSpec plot;
  nlohmann::json source;  // the spec document as read
};

struct Point {
  std::string name;
  std::vector<std::pair<std::string, nlohmann::json>> values;  // varied path -> value
  nlohmann::json config;
};

// Throws ConfigError naming the spec field ("$.vary[1][\"$.dhsl.policy\"]"),
// its value and the rule; the base configuration is read here.
Spec read_spec(const std::string& path);
Spec parse_spec(const nlohmann::ordered_json& doc, const std::filesystem::path& file);

// Every point, first axis outermost. Names are unique (ConfigError otherwise).
std::vector<Point> expand(const Spec& spec);

// "$.a.b[2]" -> FieldPath; ConfigError at `where` when malformed.
FieldPath parse_field_path(const std::string& text, const std::string& where);

// The value at path in doc, or null when absent.
nlohmann::json value_at(const nlohmann::json& doc, const FieldPath& path);

}  // namespace txgen::sweep
