#include "txgen/sweep/record.h"

#include <fstream>

#include "txgen/error.h"

namespace txgen::sweep {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

ordered_json values_json(const Values& values) {
  ordered_json o = ordered_json::object();
  for (const auto& [path, v] : values) o[path] = ordered_json::parse(v.dump());
  return o;
}

Values values_from(const ordered_json& o) {
  Values v;
  for (auto it = o.begin(); it != o.end(); ++it) v.push_back({it.key(), json::parse(it.value().dump())});
  return v;
}

ordered_json job_json(const Job& j) {
  return {{"point", j.point},        {"dir", j.dir}, {"step", j.step},  {"block", j.block}, {"args", j.args},
          {"stdout", j.stdout_file}, {"log", j.log}, {"stamp", j.stamp}, {"workload", j.workload}};
}

Job job_from(const ordered_json& o) {
  return Job{o.at("point"), o.at("dir"),    o.at("step"), o.at("block"),
             o.at("args"),  o.at("stdout"), o.at("log"),  o.at("stamp"), o.value("workload", "")};
}

}  // namespace

ordered_json to_json(const Record& r) {
  ordered_json doc = {
      {"sweep", r.name},
      {"txgen_version", r.txgen_version},
      {"spec", r.spec_file},
      {"blocks", r.blocks},
      {"steps", r.steps},
      {"varied", r.varied},
      {"plot", {{"x", r.plot.x}, {"series", r.plot.series}, {"latency", r.plot.latency}, {"modules", r.plot.modules}}}};
  doc["points"] = ordered_json::array();
  for (const auto& p : r.points)
    doc["points"].push_back(
        {{"name", p.name}, {"config_hash", p.config_hash}, {"dir", p.dir}, {"values", values_json(p.values)}});
  doc["skipped"] = ordered_json::array();
  for (const auto& s : r.skipped)
    doc["skipped"].push_back({{"name", s.name}, {"values", values_json(s.values)}, {"reason", s.reason}});
  doc["jobs"] = ordered_json::array();
  for (const auto& j : r.jobs) doc["jobs"].push_back(job_json(j));
  return doc;
}

Record read_record(const std::filesystem::path& dir) {
  const auto file = dir / "sweep.json";
  std::ifstream in(file);
  if (!in)
    throw ConfigError("DIR", "\"" + dir.string() + "\"",
                      "holds no sweep.json: not a sweep directory (txgen sweep SPEC --out DIR)");
  try {
    const ordered_json doc = ordered_json::parse(in);
    Record r;
    r.name = doc.at("sweep");
    r.txgen_version = doc.at("txgen_version");
    r.spec_file = doc.at("spec");
    r.blocks = doc.at("blocks").get<std::vector<std::string>>();
    r.steps = doc.at("steps").get<std::vector<std::string>>();
    r.varied = doc.at("varied").get<std::vector<std::string>>();
    const ordered_json& plot = doc.at("plot");
    r.plot = PlotSpec{plot.at("x"), plot.at("series").get<std::vector<std::string>>(), plot.at("latency"),
                      plot.at("modules").get<std::vector<std::string>>()};
    for (const auto& p : doc.at("points"))
      r.points.push_back({p.at("name"), p.at("config_hash"), p.at("dir"), values_from(p.at("values"))});
    for (const auto& s : doc.at("skipped"))
      r.skipped.push_back({s.at("name"), values_from(s.at("values")), s.at("reason")});
    for (const auto& j : doc.at("jobs")) r.jobs.push_back(job_from(j));
    return r;
  } catch (const ordered_json::exception& e) {
    throw ConfigError("DIR", "\"" + file.string() + "\"", std::string("is not a sweep record: ") + e.what());
  }
}

std::vector<const Job*> jobs_of(const Record& r, const std::string& point) {
  std::vector<const Job*> out;
  for (const auto& j : r.jobs)
    if (j.point == point) out.push_back(&j);
  return out;
}

}  // namespace txgen::sweep
