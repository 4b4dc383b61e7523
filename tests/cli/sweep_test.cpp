// `txgen sweep` and `txgen sweep collect` end to end: expansion of a sweep
// file, skipped points, the job lists (build.ninja keyed by configuration
// hash and version, jobs.txt, slurm.sh), and the table of a small real sweep.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>

#include "cli_support.h"

namespace fs = std::filesystem;
using nlohmann::json;
using txgen::test::read_file;
using txgen::test::run;
using txgen::test::run_txgen;
using txgen::test::source;
using txgen::test::TempDir;

namespace {

// A sweep over tests/configs/arith_tiny.json (a 2-tag LDS codec); `fields`
// is the rest of the spec's members.
std::string write_spec(const TempDir& dir, const std::string& fields, const std::string& file = "spec.json") {
  const std::string text = "{ \"name\": \"tiny\", \"base\": \"" + source("tests/configs/arith_tiny.json") +
                           "\", \"blocks\": [\"bd_codec\"], " + fields + " }";
  std::ofstream(dir.path() / file) << text;
  return dir.str(file);
}

json record(const TempDir& dir, const std::string& out = "out") {
  return json::parse(read_file(dir.path() / out / "sweep.json"));
}

// Writes the spec, runs `txgen sweep --write-only` and returns its sweep.json.
json planned(const TempDir& dir, const std::string& fields) {
  const auto r = run_txgen("sweep " + write_spec(dir, fields) + " --out " + dir.str("out") + " --write-only");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  return r.exit_code == 0 ? record(dir) : json::object();
}

std::vector<std::string> point_names(const json& rec) {
  std::vector<std::string> names;
  for (const auto& p : rec["points"]) names.push_back(p["name"]);
  return names;
}

json point_config(const TempDir& dir, const json& point) {
  return json::parse(read_file(dir.path() / "out" / std::string(point["dir"]) / "config.json"));
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

bool have_synthesis() { return run("command -v yosys && command -v sta").exit_code == 0; }

}  // namespace

TEST(Sweep, HelpNamesTheOptionsAndCollect) {
  const auto r = run_txgen("sweep --help");
  EXPECT_EQ(r.exit_code, 0);
  for (const char* s : {"--out", "--jobs", "--write-only", "collect", "spec"})
    EXPECT_NE(r.output.find(s), std::string::npos) << s;
}

TEST(Sweep, CrossedAxesRunFirstOutermostAndSetEveryPoint) {
  TempDir dir("sweep_cross");
  const json rec = planned(dir,
                           "\"set\": { \"$.lds.bytes\": 2048 }, \"vary\": ["
                           "{ \"$.bd_codec.compare\": [\"pairwise\", \"mux\"] },"
                           "{ \"$.bd_codec.encoding\": [\"arith\", \"prefix\"] }], \"steps\": [\"synth\"]");
  EXPECT_EQ(point_names(rec), (std::vector<std::string>{"tiny_pairwise_arith", "tiny_pairwise_prefix", "tiny_mux_arith",
                                                        "tiny_mux_prefix"}));
  const json c = point_config(dir, rec["points"][2]);
  EXPECT_EQ(c["name"], "tiny_mux_arith");
  EXPECT_EQ(c["bd_codec"]["compare"], "mux");
  EXPECT_EQ(c["bd_codec"]["encoding"], "arith");
  EXPECT_EQ(c["lds"]["bytes"], 2048);        // "set"
  EXPECT_EQ(c["bd_codec"]["base_bits"], 9);  // from the base
  EXPECT_EQ(rec["points"][2]["values"]["$.bd_codec.compare"], "mux");
  EXPECT_EQ(rec["steps"], json({"report", "synth"}));  // report always
}

TEST(Sweep, ZippedPathsChangeTogether) {
  TempDir dir("sweep_zip");
  const json rec = planned(dir,
                           "\"vary\": [{ \"$.bd_codec.base_bits\": [9, 10, 11], "
                           "\"$.bd_codec.delta_bits\": [10, 12, 14] }], "
                           "\"labels\": { \"$.bd_codec.base_bits\": \"b\", \"$.bd_codec.delta_bits\": false }, "
                           "\"steps\": [\"gen\"]");
  ASSERT_EQ(point_names(rec), (std::vector<std::string>{"tiny_b9", "tiny_b10", "tiny_b11"}));
  for (int i = 0; i < 3; ++i) {
    const json c = point_config(dir, rec["points"][i]);
    EXPECT_EQ(c["bd_codec"]["base_bits"], 9 + i);
    EXPECT_EQ(c["bd_codec"]["delta_bits"], 10 + 2 * i);
  }
}

TEST(Sweep, RangesArithmeticAndGeometric) {
  TempDir dir("sweep_range");
  const json rec = planned(dir,
                           "\"vary\": [{ \"$.lds.bytes\": { \"from\": 1024, \"to\": 8192, \"times\": 2 } },"
                           "{ \"$.bd_codec.base_bits\": { \"from\": 9, \"to\": 13, \"step\": 2 } }], "
                           "\"steps\": [\"gen\"]");
  std::vector<std::string> expected;
  for (int bytes : {1024, 2048, 4096, 8192})
    for (int base : {9, 11, 13}) expected.push_back("tiny_" + std::to_string(bytes) + "_" + std::to_string(base));
  EXPECT_EQ(point_names(rec), expected);
}

TEST(Sweep, InvalidPointsAreSkippedWithTheElaborationsReason) {
  TempDir dir("sweep_skip");
  const auto spec = write_spec(dir, "\"vary\": [{ \"$.bd_codec.tags\": [2, 5] }], \"steps\": [\"gen\"]");
  const auto r = run_txgen("sweep " + spec + " --out " + dir.str("out") + " --jobs 2");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::string reason = "$.bd_codec.delta_bits = 10: too small";
  EXPECT_NE(r.output.find("skipped tiny_5: " + reason), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("2 points: 1 passed, 0 failed, 1 skipped"), std::string::npos) << r.output;
  const json rec = record(dir);
  EXPECT_EQ(point_names(rec), std::vector<std::string>{"tiny_2"});
  ASSERT_EQ(rec["skipped"].size(), 1u);
  EXPECT_EQ(std::string(rec["skipped"][0]["reason"]).rfind(reason, 0), 0u);
  for (const auto& d : fs::directory_iterator(dir.path() / "out" / "points"))
    EXPECT_EQ(d.path().filename().string().rfind("tiny_2-", 0), 0u) << d.path();
  for (const auto& j : rec["jobs"]) EXPECT_EQ(j["point"], "tiny_2");
}

TEST(Sweep, SpecErrorsNameTheFieldAndWriteNothing) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"\"vary\": [{ \"$.bd_codec.tags\": [2] }], \"steps\": [\"gen\"], \"colour\": 1", "$.colour = 1: unknown field"},
      {"\"vary\": [{ \"$.bd_codec.tags\": { \"from\": 2, \"to\": 4 } }], \"steps\": [\"gen\"]",
       "$.vary[0][\"$.bd_codec.tags\"] = {\"from\":2,\"to\":4}: give either \"step\""},
      {"\"vary\": [{ \"$.bd_codec.tags\": [2, 3], \"$.bd_codec.base_bits\": [9] }], \"steps\": [\"gen\"]",
       "$.vary[0][\"$.bd_codec.base_bits\"] = [9]: zipped with $.bd_codec.tags"},
      {"\"vary\": [{ \"bd_codec.tags\": [2] }], \"steps\": [\"gen\"]",
       "$.vary[0][\"bd_codec.tags\"] = \"bd_codec.tags\": must be a configuration path"},
      {"\"vary\": [{ \"$.bd_codec.tags\": [2] }], \"steps\": [\"place\"]", "$.steps = \"place\": unknown step"},
      {"\"vary\": [{ \"$.bd_codec.tags\": [2] }], \"steps\": [\"eval\"]",
       "$.steps = \"eval\": evaluates the translation path: needs \"tx_path\" in $.blocks"},
      {"\"vary\": [{ \"$.bd_codec.tags\": [2] }], \"steps\": [\"gen\"], \"eval\": { \"engine\": \"fast\" }",
       "$.eval.engine = \"fast\": must be one of \"model\" \"rtl\" \"both\" \"txn\" \"txn-check\""},
      {"\"vary\": [{ \"$.bd_codec.tags\": [2] }], \"steps\": [\"gen\"], \"eval\": { \"workloads\": [\"gupz\"] }",
       "$.eval.workloads = \"gupz\": not a workload (txgen trace --kind)"},
      {"\"vary\": [{ \"$.bd_codec.tags\": [2, 2] }], \"steps\": [\"gen\"]",
       "$.vary[0] = {\"$.bd_codec.tags\":[2,2]}: values 0 and 1 are equal"},
      {"\"vary\": [{ \"$.bd_codec.tags\": [2] }], \"steps\": [\"gen\"], \"plot\": { \"x\": \"$.lds.bytes\" }",
       "$.plot.x = \"$.lds.bytes\": must be one of the varied paths"},
      {"\"vary\": [{ \"$.bd_codec.encoding\": [\"arith\"] }], \"steps\": [\"gen\"], \"plot\": { \"x\": "
       "\"$.bd_codec.encoding\" }",
       "$.plot.x = \"$.bd_codec.encoding\": must take numbers only"},
      {"\"vary\": [{ \"$.bd_codec.tags\": [5] }], \"steps\": [\"gen\"]",
       "$.vary = 1 points: no point elaborates; the first: $.bd_codec.delta_bits = 10"},
      {"\"vary\": [{ \"$.bd_codec.encoding\": [\"a b\", \"a-b\"] }], \"steps\": [\"gen\"]",
       "$.vary = \"tiny_a_b\": two points get this name"},
  };
  for (const auto& [fields, message] : cases) {
    TempDir dir("sweep_bad");
    const auto r = run_txgen("sweep " + write_spec(dir, fields) + " --out " + dir.str("out"));
    EXPECT_EQ(r.exit_code, 2) << fields << "\n" << r.output;
    EXPECT_NE(r.output.find("txgen: error: " + message), std::string::npos) << r.output;
    EXPECT_FALSE(fs::exists(dir.path() / "out")) << fields;
  }
  TempDir space("sweep_space");
  const auto r_space =
      run_txgen("sweep " + write_spec(space, "\"vary\": [{ \"$.lds.bytes\": [1024] }], \"steps\": [\"synth\"]") +
                " --out '" + space.str("o u t") + "'");
  EXPECT_EQ(r_space.exit_code, 2);
  EXPECT_NE(r_space.output.find("contains whitespace"), std::string::npos) << r_space.output;
  EXPECT_FALSE(fs::exists(space.path() / "o u t"));
  TempDir both("sweep_write_only_slurm");
  const auto r_both = run_txgen("sweep " + write_spec(both, "\"vary\": [{ \"$.bd_codec.tags\": [2] }], \"steps\": [\"gen\"]") +
                                " --out " + both.str("out") + " --write-only --slurm");
  EXPECT_EQ(r_both.exit_code, 2) << r_both.output;
  EXPECT_NE(r_both.output.find("--write-only = (set): runs nothing"), std::string::npos) << r_both.output;
  EXPECT_FALSE(fs::exists(both.path() / "out"));
  TempDir dir("sweep_bad_base");
  std::ofstream(dir.path() / "s.json") << "{ \"name\": \"t\", \"base\": \"nope.json\", \"blocks\": [\"bd_codec\"], "
                                          "\"vary\": [{ \"$.bd_codec.tags\": [2] }], \"steps\": [] }";
  const auto r = run_txgen("sweep " + dir.str("s.json") + " --out " + dir.str("out"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("$.base = \"nope.json\": no such file"), std::string::npos) << r.output;
}

// A block with SRAM macros (the LDS controller of lds_small): each module's row
// carries its synth report's whole structure, the overhead over the
// baseline's whole structure where it has one.
TEST(Sweep, CollectCarriesTheWholeStructureOfBlocksWithMacros) {
  if (!have_synthesis()) GTEST_SKIP() << "no yosys/sta";
  TempDir dir("sweep_structure");
  std::ofstream(dir.path() / "spec.json") << "{ \"name\": \"lds\", \"base\": \"" + source("tests/configs/lds_small.json") +
                                                 "\", \"blocks\": [\"lds_ctrl\"], \"vary\": [{ \"$.lds_ctrl.max_work_groups\": [4] }], "
                                                 "\"steps\": [\"synth\"] }";
  const auto r = run_txgen("sweep " + dir.str("spec.json") + " --out " + dir.str("out") + " --jobs 2");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  ASSERT_EQ(run_txgen("sweep collect " + dir.str("out")).exit_code, 0);
  const json table = json::parse(read_file(dir.path() / "out" / "results" / "lds.json"));
  const json point = record(dir)["points"][0];
  const json synth = json::parse(read_file(dir.path() / "out" / std::string(point["dir"]) / "synth_lds_ctrl" /
                                           "lds_ctrl.synth.json"))["whole_structure"][0];
  ASSERT_EQ(table["rows"].size(), 2u);
  const json& ctrl = table["rows"][0];
  EXPECT_EQ(ctrl["macro_area_um2"], synth["macro_area_um2"]);
  EXPECT_EQ(ctrl["structure_area_um2"], synth["total_area_um2"]);
  EXPECT_NEAR(double(ctrl["structure_overhead_pct"]), double(synth["overhead_percent"]), 0.05);  // 1 decimal
  EXPECT_GT(double(ctrl["structure_overhead_pct"]), 0.0);
  EXPECT_NE(read_file(dir.path() / "out" / "results" / "lds.md").find("overhead, % of the whole"), std::string::npos);
}

// Every job's output is keyed by the point's configuration hash and the txgen
// version: after adding a point, only its jobs are out of date.
TEST(Sweep, BuildNinjaIsKeyedByConfigHashSoAnAddedPointRunsAlone) {
  if (run("command -v ninja").exit_code != 0) GTEST_SKIP() << "no ninja";
  TempDir dir("sweep_ninja");
  const auto spec = write_spec(dir, "\"vary\": [{ \"$.lds.bytes\": [1024, 2048] }], \"steps\": [\"gen\"]");
  ASSERT_EQ(run_txgen("sweep " + spec + " --out " + dir.str("out")).exit_code, 0);
  const json rec = record(dir);
  std::string version = run_txgen("--version").output;
  version = version.substr(version.find_last_of(' ') + 1);
  version.erase(version.find_last_not_of("\n") + 1);
  for (const auto& p : rec["points"]) {
    const std::string config = (dir.path() / "out" / std::string(p["dir"]) / "config.json").string();
    const json report = json::parse(run_txgen("report --config " + config + " --format json").output);
    EXPECT_EQ(std::string(p["dir"]),
              "points/" + std::string(p["name"]) + "-" + std::string(report["config_hash"]) + "-" + version);
    EXPECT_TRUE(fs::exists(dir.path() / "out" / std::string(p["dir"]) / "gen_bd_codec" / "manifest.json"));
  }
  EXPECT_NE(run("ninja -C " + dir.str("out") + " -n").output.find("no work to do"), std::string::npos);
  write_spec(dir, "\"vary\": [{ \"$.lds.bytes\": [1024, 2048, 4096] }], \"steps\": [\"gen\"]");
  ASSERT_EQ(run_txgen("sweep " + spec + " --out " + dir.str("out") + " --write-only").exit_code, 0);
  const auto dry = run("ninja -C " + dir.str("out") + " -n");
  const std::regex job(R"(\[\d+/(\d+)\] (\w+) (\w+))");
  std::set<std::string> points;
  size_t jobs = 0;
  for (const auto& line : lines_of(dry.output)) {
    std::smatch m;
    if (!std::regex_search(line, m, job)) continue;
    ++jobs;
    points.insert(m[3]);
    EXPECT_EQ(m[1], "2") << dry.output;
  }
  EXPECT_EQ(jobs, 2u) << dry.output;  // report and gen of the new point
  EXPECT_EQ(points, std::set<std::string>{"tiny_4096"}) << dry.output;
  // the same names, other configurations: new keys, every job again
  write_spec(dir,
             "\"set\": { \"$.bd_codec.compare\": \"pairwise\" }, "
             "\"vary\": [{ \"$.lds.bytes\": [1024, 2048, 4096] }], \"steps\": [\"gen\"]");
  ASSERT_EQ(run_txgen("sweep " + spec + " --out " + dir.str("out") + " --write-only").exit_code, 0);
  EXPECT_NE(run("ninja -C " + dir.str("out") + " -n").output.find("[6/6] "), std::string::npos);
}

// Ninja and GNU parallel start ready jobs in file order: the points with the
// most RTL come first, so the longest synthesis does not start last. The
// points keep the sweep's order (the table's rows).
TEST(Sweep, JobsOfTheLargestPointsComeFirst) {
  TempDir dir("sweep_order");
  std::ofstream(dir.path() / "spec.json") << "{ \"name\": \"ws\", \"base\": \"" << source("tests/configs/walk_sched_small.json")
                                          << "\", \"blocks\": [\"walk_sched\"], "
                                             "\"vary\": [{ \"$.walk_sched.entries\": [16, 64, 32] }], \"steps\": [\"synth\"] }";
  const auto r = run_txgen("sweep " + dir.str("spec.json") + " --out " + dir.str("out") + " --write-only");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const json rec = record(dir);
  EXPECT_EQ(point_names(rec), (std::vector<std::string>{"ws_16", "ws_64", "ws_32"}));
  std::vector<std::string> job_points;
  for (const auto& j : rec["jobs"]) job_points.push_back(j["point"]);
  EXPECT_EQ(job_points, (std::vector<std::string>{"ws_64", "ws_64", "ws_32", "ws_32", "ws_16", "ws_16"}));
  std::vector<std::string> ninja_points;
  const std::regex desc(R"(desc = \w+ (ws_\d+))");
  for (const auto& line : lines_of(read_file(dir.path() / "out" / "build.ninja"))) {
    std::smatch m;
    if (std::regex_search(line, m, desc)) ninja_points.push_back(m[1]);
  }
  EXPECT_EQ(ninja_points, job_points);
}

// jobs.txt (GNU parallel) and slurm.sh run exactly the commands of build.ninja,
// one per line / array task, and skip a job that has passed.
TEST(Sweep, JobFileAndSlurmScriptRunTheNinjaJobs) {
  TempDir dir("sweep_jobs");
  const json rec = planned(dir, "\"vary\": [{ \"$.lds.bytes\": [1024, 2048] }], \"steps\": [\"gen\"]");
  const fs::path out = dir.path() / "out";
  const auto jobs = lines_of(read_file(out / "jobs.txt"));
  ASSERT_EQ(jobs.size(), 4u);  // report and gen of two points
  std::vector<std::string> ninja_cmds;
  for (const auto& line : lines_of(read_file(out / "build.ninja")))
    if (line.rfind("  cmd = ", 0) == 0) ninja_cmds.push_back(line.substr(8));
  EXPECT_EQ(ninja_cmds, jobs);
  const std::string slurm = read_file(out / "slurm.sh");
  EXPECT_NE(slurm.find("#SBATCH --array=0-3\n"), std::string::npos) << slurm;
  EXPECT_NE(slurm.find("cd " + fs::absolute(out).string() + "\n"), std::string::npos) << slurm;
  // array task k runs line k + 1: here the first point's gen
  const std::string first_dir = rec["points"][0]["dir"];
  size_t k = 0;
  while (k < jobs.size() && !(jobs[k].find("cd " + first_dir + " ") == 0 && jobs[k].find(" gen --config") != std::string::npos))
    ++k;
  ASSERT_LT(k, jobs.size());
  const auto task = run("SLURM_ARRAY_TASK_ID=" + std::to_string(k) + " bash " + (out / "slurm.sh").string());
  ASSERT_EQ(task.exit_code, 0) << task.output;
  const fs::path first = out / first_dir;
  EXPECT_TRUE(fs::exists(first / "gen_bd_codec.ok"));
  EXPECT_TRUE(fs::exists(first / "gen_bd_codec" / "files.f"));
  EXPECT_FALSE(fs::exists(first / "report.ok"));
  // a passed job is skipped: its log is not rewritten
  fs::remove(first / "gen_bd_codec.log");
  EXPECT_EQ(run("cd " + out.string() + " && " + jobs[k]).exit_code, 0);
  EXPECT_FALSE(fs::exists(first / "gen_bd_codec.log"));
}

TEST(Sweep, FailedJobIsReportedWithItsLog) {
  TempDir dir("sweep_fail");
  const json rec = planned(dir, "\"vary\": [{ \"$.lds.bytes\": [1024, 2048] }], \"steps\": [\"gen\"]");
  const fs::path second = dir.path() / "out" / std::string(rec["points"][1]["dir"]);
  std::ofstream(second / "gen_bd_codec") << "a file where gen wants its directory";
  const auto r = run_txgen("sweep " + dir.str("spec.json") + " --out " + dir.str("out"));
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("2 points: 1 passed, 1 failed, 0 skipped"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("failed tiny_2048: gen_bd_codec (log " + (second / "gen_bd_codec.log").string() + ")"),
            std::string::npos)
      << r.output;
}

TEST(Sweep, CollectWithoutFinishedPointsIsInvalidInput) {
  TempDir dir("sweep_empty");
  EXPECT_EQ(run_txgen("sweep collect " + dir.str()).exit_code, 2);
  planned(dir, "\"vary\": [{ \"$.lds.bytes\": [1024] }], \"steps\": [\"gen\"]");
  const auto r = run_txgen("sweep collect " + dir.str("out"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("no finished point yet"), std::string::npos) << r.output;
}

// A real sweep (two small codecs, seconds of synthesis): one row per module of
// every point, in order, with the figures of each point's synth report and
// the storage of its report; plots when gnuplot is installed.
TEST(Sweep, CollectTabulatesEveryPointOfARealSweep) {
  if (!have_synthesis()) GTEST_SKIP() << "no yosys/sta";
  TempDir dir("sweep_collect");
  const auto spec = write_spec(dir,
                               "\"vary\": [{ \"$.bd_codec.compare\": [\"pairwise\", \"mux\"] }], "
                               "\"steps\": [\"synth\"], \"plot\": { \"x\": \"$.bd_codec.base_bits\" }, "
                               "\"set\": {}, \"description\": \"x\"");
  // base_bits is not varied: the plot section must say so
  ASSERT_EQ(run_txgen("sweep " + spec + " --out " + dir.str("out")).exit_code, 2);
  write_spec(dir,
             "\"vary\": [{ \"$.bd_codec.compare\": [\"pairwise\", \"mux\"] }, { \"$.bd_codec.base_bits\": [9, 10] }], "
             "\"steps\": [\"synth\"], \"plot\": { \"x\": \"$.bd_codec.base_bits\" }");
  const auto r = run_txgen("sweep " + spec + " --out " + dir.str("out") + " --jobs 2");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto c = run_txgen("sweep collect " + dir.str("out"));
  ASSERT_EQ(c.exit_code, 0) << c.output;
  const fs::path results = dir.path() / "out" / "results";
  const auto csv = lines_of(read_file(results / "tiny.csv"));
  ASSERT_EQ(csv.size(), 1u + 4 * 2) << read_file(results / "tiny.csv");
  EXPECT_EQ(csv[0].rfind("point,compare,base_bits,module,area_um2,flip_flops,cells,worst_slack_ns,min_period_ns,"
                         "critical_path_ns,fo4,period_ns,storage.packed_bits,storage.uncompressed_tag_bits",
                         0),
            0u)
      << csv[0];
  const json table = json::parse(read_file(results / "tiny.json"));
  const json rec = record(dir);
  ASSERT_EQ(table["rows"].size(), 8u);
  for (size_t i = 0; i < 8; ++i) {
    const json& row = table["rows"][i];
    const json& point = rec["points"][i / 2];
    EXPECT_EQ(row["point"], point["name"]);
    const fs::path pdir = dir.path() / "out" / std::string(point["dir"]);
    const json synth = json::parse(read_file(pdir / "synth_bd_codec" / "bd_codec.synth.json"))["results"][i % 2];
    EXPECT_EQ(std::string(synth["module"]),
              "bd_codec_" + std::string(point["name"]) + "_" + std::string(row["module"]));
    for (const char* k : {"area_um2", "flip_flops", "cells", "worst_slack_ns", "min_period_ns", "fo4"})
      EXPECT_EQ(row[k], synth[k]) << k;
    const json report = json::parse(read_file(pdir / "report.json"))["blocks"][0]["storage"];
    EXPECT_EQ(row["storage.packed_bits"], report["packed_bits"]);
  }
  const std::string md = read_file(results / "tiny.md");
  EXPECT_NE(md.find("| tiny_mux_10 | mux | 10 | decomp |"), std::string::npos) << md;
  EXPECT_EQ(md, c.output.substr(0, md.size()));
  if (run("command -v gnuplot").exit_code == 0) {
    for (const char* f : {"tiny_area.svg", "tiny_period.svg", "tiny_area.png"})
      EXPECT_GT(fs::file_size(results / f), 1000u) << f;
  }
}

namespace {

// A one-point evaluation sweep written (--write-only) with its report run and
// `eval_json` as the point's finished evaluation jobs (the replay itself
// needs a build); returns the output of `sweep collect`, which must succeed.
std::string collect_written_eval(const TempDir& dir, const std::string& spec, const std::string& eval_json) {
  std::ofstream(dir.path() / "spec.json") << spec;
  EXPECT_EQ(run_txgen("sweep " + dir.str("spec.json") + " --out " + dir.str("out") + " --write-only").exit_code, 0);
  const json point = record(dir)["points"][0];
  const fs::path pdir = dir.path() / "out" / std::string(point["dir"]);
  EXPECT_EQ(run("cd '" + pdir.string() + "' && " + std::string(TXGEN_BIN) +
                " report --config config.json --format json > report.json && touch report.ok")
                .exit_code,
            0);
  // one evaluation job per workload: each gets the runs of its workload
  const json rec = record(dir);
  for (const auto& job : rec["jobs"]) {
    if (job["step"] != "eval") continue;
    const std::string w = job["workload"], name = "eval_" + w;
    json runs = json::array();
    for (const auto& run : json::parse(eval_json))
      if (run["workload"] == w) runs.push_back(run);
    fs::create_directories(pdir / name);
    std::ofstream(pdir / name / "eval.json") << runs.dump();
    std::ofstream(pdir / (name + ".ok"));
  }
  const auto c = run_txgen("sweep collect " + dir.str("out"));
  EXPECT_EQ(c.exit_code, 0) << c.output;
  return c.output;
}

}  // namespace

// The evaluation's columns: per workload the L2-TLB requests the path avoids
// and its speedup, from each point's eval.json (written here: the replay
// itself needs a build).
TEST(Sweep, CollectTabulatesTheEvaluation) {
  TempDir dir("sweep_eval");
  const std::string out = collect_written_eval(
      dir,
      "{ \"name\": \"ev\", \"base\": \"" + source("tests/configs/tx_path_small.json") +
          "\", \"blocks\": [\"tx_path\"], \"vary\": [{ \"$.tx_path.victim_queue\": [2] }], \"steps\": [\"eval\"] }",
      R"([{"workload": "atax", "design": "baseline", "l2_requests": 400, "cycles": 3000},
          {"workload": "atax", "design": "path", "l2_requests": 300, "cycles": 2000}])");
  const json row = json::parse(read_file(dir.path() / "out" / "results" / "ev.json"))["rows"][0];
  EXPECT_DOUBLE_EQ(row["l2_avoided_pct.atax"].get<double>(), 25.0);
  EXPECT_DOUBLE_EQ(row["speedup.atax"].get<double>(), 1.5);
  EXPECT_NE(out.find("| 25.0 % | 1.50x |"), std::string::npos) << out;
}

// With walk-scheduling policies: each policy's speedup over FCFS per workload
// and its geometric mean; the path's figures keyed by policy.
TEST(Sweep, CollectTabulatesSpeedupsOverFcfs) {
  TempDir dir("sweep_policies");
  collect_written_eval(
      dir,
      "{ \"name\": \"pol\", \"base\": \"" + source("tests/configs/tx_path_iommu.json") +
          "\", \"blocks\": [\"tx_path\"], \"vary\": [{ \"$.walk_sched.walkers\": [2] }], \"steps\": "
          "[\"eval\"], \"eval\": { \"policies\": [\"fcfs\", \"simt\"], \"designs\": [\"baseline\"] } }",
      R"([{"workload": "atax", "design": "baseline", "policy": "fcfs", "cycles": 3000},
          {"workload": "atax", "design": "baseline", "policy": "simt", "cycles": 2000},
          {"workload": "gups", "design": "baseline", "policy": "fcfs", "cycles": 1000},
          {"workload": "gups", "design": "baseline", "policy": "simt", "cycles": 1500}])");
  EXPECT_NE(read_file(dir.path() / "out" / "jobs.txt").find("--policies fcfs,simt --designs baseline"),
            std::string::npos);
  const json row = json::parse(read_file(dir.path() / "out" / "results" / "pol.json"))["rows"][0];
  EXPECT_DOUBLE_EQ(row["over_fcfs_simt.atax"].get<double>(), 1.5);
  EXPECT_NEAR(row["over_fcfs_simt.gups"].get<double>(), 1000.0 / 1500.0, 0.005);  // the table keeps 2 decimals
  EXPECT_NEAR(row["over_fcfs_simt.geomean"].get<double>(), 1.0, 0.005);
  EXPECT_FALSE(row.contains("over_fcfs_fcfs.atax"));
}

TEST(Sweep, RejectsAnUnknownPolicy) {
  TempDir dir("sweep_bad_policy");
  std::ofstream(dir.path() / "spec.json") << "{ \"name\": \"pol\", \"base\": \""
                                          << source("tests/configs/tx_path_iommu.json")
                                          << "\", \"blocks\": [\"tx_path\"], \"vary\": [{ "
                                             "\"$.walk_sched.walkers\": [2] }], \"steps\": [\"eval\"], "
                                             "\"eval\": { \"policies\": [\"lifo\"] } }";
  const auto c = run_txgen("sweep " + dir.str("spec.json") + " --out " + dir.str("out") + " --write-only");
  EXPECT_EQ(c.exit_code, 2);
  EXPECT_NE(c.output.find("$.eval.policies"), std::string::npos) << c.output;
  EXPECT_NE(c.output.find("\"lifo\""), std::string::npos) << c.output;
  EXPECT_FALSE(fs::exists(dir.path() / "out" / "jobs.txt"));
}
