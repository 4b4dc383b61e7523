// `txgen synth` end to end on the default configuration. The flip-flop count
// is predicted from the elaborated widths in the manifest, so a synthesis
// that loses or duplicates registers fails.
#include <filesystem>
#include <map>
#include <regex>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli_support.h"

using nlohmann::json;
using txgen::test::read_file;
using txgen::test::run_txgen;
using txgen::test::source;
using txgen::test::TempDir;
namespace fs = std::filesystem;

TEST(Synth, DefaultConfigReportsBothStagesWithPredictedFlops) {
  if (txgen::test::run("command -v yosys && command -v sta").exit_code != 0) GTEST_SKIP() << "no yosys/sta";
  TempDir dir("synth");
  const auto r = run_txgen("synth --config " + source("configs/default.json") +
                           " --block bd_codec --out " + dir.str("s"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const json manifest = json::parse(read_file(dir.path() / "s" / "rtl" / "manifest.json"));
  const json& p = manifest["blocks"][0]["parameters"];
  const unsigned n = p["tags"], w = p["packed_bits"];
  const unsigned tag_bits = n * (1 + unsigned(p["lru_bits"]) + unsigned(p["vmid_bits"]) +
                                 unsigned(p["vrf_bits"]) + unsigned(p["va_tag_bits"]));
  const json report = json::parse(read_file(dir.path() / "s" / "bd_codec.synth.json"));
  EXPECT_EQ(report["config_hash"], manifest["config_hash"]);
  const json& comp = report["results"][0];
  const json& decomp = report["results"][1];
  EXPECT_EQ(comp["module"], "bd_codec_default_comp");
  // out_valid, packed, fits, dropped; with the pairwise compare entry 0 is
  // visibly never dropped (it is the reference whenever valid), so synthesis
  // removes that constant flop.
  ASSERT_EQ(p["compare"], "pairwise");
  EXPECT_EQ(comp["flip_flops"], 1 + w + 1 + (n - 1));
  EXPECT_EQ(decomp["flip_flops"], 1 + tag_bits);  // out_valid, every tag field
  for (const json* m : {&comp, &decomp}) {
    EXPECT_GT(double((*m)["area_um2"]), 0.0);
    EXPECT_NEAR(double((*m)["min_period_ns"]), 2.5 - double((*m)["worst_slack_ns"]), 1e-3);
  }
  const std::string md = read_file(dir.path() / "s" / "bd_codec.synth.md");
  EXPECT_NE(md.find("| bd_codec_default_decomp |"), std::string::npos);
  EXPECT_TRUE(std::filesystem::exists(dir.path() / "s" / "bd_codec.synth.csv"));
}

TEST(Synth, LdsControllerNextToItsBaseline) {
  if (txgen::test::run("command -v yosys && command -v sta").exit_code != 0) GTEST_SKIP() << "no yosys/sta";
  TempDir dir("synth_lds");
  const auto r = run_txgen("synth --config " + source("tests/configs/lds_small.json") +
                           " --block lds_ctrl --out " + dir.str("s"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const json manifest = json::parse(read_file(dir.path() / "s" / "rtl" / "manifest.json"));
  const json& p = manifest["blocks"][0]["parameters"];
  const json report = json::parse(read_file(dir.path() / "s" / "lds_ctrl.synth.json"));
  EXPECT_EQ(report["config_hash"], manifest["config_hash"]);
  const json& ctrl = report["results"][0];
  const json& base = report["results"][1];
  EXPECT_EQ(ctrl["module"], "lds_ctrl_lds_small");
  EXPECT_EQ(base["module"], "lds_ctrl_lds_small_base");
  EXPECT_EQ(base["flip_flops"], 1);  // app_rvalid; the rest is wiring
  // The mode bits and the allocation table's valid bits at least.
  EXPECT_GE(unsigned(ctrl["flip_flops"]), unsigned(p["segments"]) + unsigned(p["max_work_groups"]));
  EXPECT_GT(double(ctrl["area_um2"]), double(base["area_um2"]));
  // The overhead table pairs the controller with its baseline, in every format.
  const json& over = report["overhead"][0];
  EXPECT_EQ(over["module"], "lds_ctrl_lds_small");
  EXPECT_EQ(over["baseline_module"], "lds_ctrl_lds_small_base");
  EXPECT_NEAR(double(over["area_ratio"]), double(ctrl["area_um2"]) / double(base["area_um2"]), 0.01);
  EXPECT_NE(read_file(dir.path() / "s" / "lds_ctrl.synth.md").find("| lds_ctrl_lds_small | lds_ctrl_lds_small_base |"),
            std::string::npos);
  EXPECT_NE(read_file(dir.path() / "s" / "lds_ctrl.synth.csv").find(",lds_ctrl_lds_small_base,"), std::string::npos);
  // The whole structure: both sit beside the same LDS banks (rows x bank width).
  const json& bank = report["sram_macros"][0];
  EXPECT_EQ(bank["module"], "lds_ctrl_lds_small");
  EXPECT_EQ(bank["count"], p["banks"]);
  EXPECT_EQ(bank["words"], p["rows"]);
  EXPECT_EQ(unsigned(bank["bits"]), 8 * unsigned(p["bank_bytes"]));
  const json& whole = report["whole_structure"][0];
  EXPECT_EQ(whole["baseline"]["module"], "lds_ctrl_lds_small_base");
  EXPECT_NEAR(double(whole["macro_area_um2"]), double(bank["count"]) * double(bank["area_um2"]), 1.0);
  EXPECT_EQ(whole["macro_area_um2"], whole["baseline"]["macro_area_um2"]);
  EXPECT_NEAR(double(whole["logic_area_um2"]), double(ctrl["area_um2"]), 0.1);
  const double base_total = double(whole["baseline"]["total_area_um2"]);
  EXPECT_NEAR(double(whole["overhead_percent"]), 100.0 * (double(whole["total_area_um2"]) - base_total) / base_total,
              0.01);
  EXPECT_NE(read_file(dir.path() / "s" / "lds_ctrl.synth.md").find("### Whole structure"), std::string::npos);
  EXPECT_NE(read_file(dir.path() / "s" / "lds_ctrl.synth.structure.csv").find("\nlds_ctrl_lds_small,"),
            std::string::npos);
}

// --vs: MGvm's units against shared static's, from two configurations in one
// run; the units only MGvm has stand alone and "all units" sums each side.
TEST(Synth, VsSynthesizesTheBaselineConfigurationBeside) {
  if (txgen::test::run("command -v yosys && command -v sta").exit_code != 0) GTEST_SKIP() << "no yosys/sta";
  TempDir dir("synth_vs");
  const auto r = run_txgen("synth --config " + source("tests/configs/dhsl_small.json") + " --block dhsl --vs " +
                           source("tests/configs/dhsl_shared_static.json") + " --jobs 2 --out " + dir.str("s"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const json report = json::parse(read_file(dir.path() / "s" / "dhsl.synth.json"));
  const json baseline = json::parse(read_file(dir.path() / "s" / "vs" / "dhsl.synth.json"));
  EXPECT_EQ(report["baseline_run"]["config"], "dhsl_shared_static");
  const json& rows = report["overhead"];
  ASSERT_EQ(rows.size(), report["results"].size());  // every MGvm unit; shared static has no unit of its own
  const json& stage = rows[rows.size() - 1];
  EXPECT_EQ(stage["module"], "dhsl_dhsl_small_hsl_stage");
  EXPECT_EQ(stage["baseline_module"], "dhsl_dhsl_shared_static_hsl_stage");
  EXPECT_EQ(stage["baseline_area_um2"], baseline["results"][0]["area_um2"]);
  EXPECT_TRUE(rows[0]["baseline_module"].is_null());
  EXPECT_NE(read_file(dir.path() / "s" / "dhsl.synth.md").find("| all units | all units |"), std::string::npos);
}

TEST(Synth, VsWithoutTheBlockIsInvalidInputAndWritesNothing) {
  TempDir dir("synth_vs_bad");
  const auto r = run_txgen("synth --config " + source("tests/configs/dhsl_small.json") + " --block dhsl --vs " +
                           source("tests/configs/lds_small.json") + " --out " + dir.str("s"));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("--vs"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("$.dhsl"), std::string::npos) << r.output;
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "s"));
}

namespace {

// The number after "Chip area for <what> '\<module>':" in a Yosys stat report;
// -1 when absent.
double stat_area(const std::string& stat, const std::string& what, const std::string& module) {
  const std::regex re("Chip area for " + what + " '\\\\" + module + "': *([0-9.]+)");
  std::smatch m;
  return std::regex_search(stat, m, re) ? std::stod(m[1]) : -1.0;
}

// The TXGEN_RESULT value of `key` in sta.tcl's log; -1 when absent.
long sta_value(const std::string& log, const std::string& key) {
  std::smatch m;
  return std::regex_search(log, m, std::regex("TXGEN_RESULT " + key + "=(\\d+)")) ? std::stol(m[1]) : -1;
}

}  // namespace

// --hier on lds_small: the controller holds the tag packer twice and an
// unpacker (the packer's own round-trip unpacker drives nothing outside the
// formal checks, so Yosys removes it). The areas of the stat output add up
// over the instances, the flip-flops are the flat run's, and OpenSTA linked
// every instance of the hierarchical netlist.
TEST(Synth, HierKeepsTheModulesAndAddsThemUpOverInstances) {
  if (txgen::test::run("command -v yosys && command -v sta").exit_code != 0) GTEST_SKIP() << "no yosys/sta";
  TempDir dir("synth_hier");
  const std::string config = " --config " + source("tests/configs/lds_small.json") + " --block lds_ctrl";
  const auto flat_run = run_txgen("synth" + config + " --out " + dir.str("flat"));
  ASSERT_EQ(flat_run.exit_code, 0) << flat_run.output;
  const auto hier_run = run_txgen("synth" + config + " --hier --out " + dir.str("hier"));
  ASSERT_EQ(hier_run.exit_code, 0) << hier_run.output;
  const json flat = json::parse(read_file(dir.path() / "flat" / "lds_ctrl.synth.json"));
  const json hier = json::parse(read_file(dir.path() / "hier" / "lds_ctrl.synth.json"));
  EXPECT_EQ(flat["synthesis"], "flat");
  EXPECT_EQ(hier["synthesis"], "hierarchical");
  ASSERT_EQ(hier["results"].size(), flat["results"].size());
  for (std::size_t i = 0; i < flat["results"].size(); ++i) {
    EXPECT_EQ(hier["results"][i]["flip_flops"], flat["results"][i]["flip_flops"]) << hier["results"][i]["module"];
  }

  const json& ctrl = hier["results"][0];
  ASSERT_EQ(ctrl["module"], "lds_ctrl_lds_small");
  std::map<std::string, unsigned> instances;
  for (const json& m : ctrl["modules"]) instances[m["module"]] = m["instances"];
  EXPECT_EQ(instances["lds_ctrl_lds_small"], 1u);
  EXPECT_EQ(instances["bd_codec_lds_small_pack"], 2u);
  EXPECT_EQ(instances["bd_codec_lds_small_unpack"], 1u);

  const fs::path work = dir.path() / "hier" / "lds_ctrl_lds_small";
  const std::string stat = read_file(work / "stat.txt");
  double sum = 0.0;
  for (const json& m : ctrl["modules"]) {
    const double own = stat_area(stat, "module", m["module"]);
    ASSERT_GT(own, 0.0) << m["module"];
    EXPECT_NEAR(double(m["own_area_um2"]), own, 0.05) << m["module"];
    sum += unsigned(m["instances"]) * own;
  }
  const double total = stat_area(stat, "top module", "lds_ctrl_lds_small");
  EXPECT_NEAR(sum, total, 1e-3);
  EXPECT_NEAR(double(ctrl["area_um2"]), total, 0.05);
  const unsigned flat_cells = flat["results"][0]["cells"];
  EXPECT_GT(unsigned(ctrl["cells"]), flat_cells * 3 / 4);
  EXPECT_LT(unsigned(ctrl["cells"]), flat_cells * 5 / 4);

  const std::string sta_log = read_file(work / "sta.log");
  EXPECT_EQ(sta_value(sta_log, "linked_submodules"), 3);
  EXPECT_EQ(ctrl["linked_submodules"], 3);
  EXPECT_EQ(sta_value(sta_log, "linked_cells"), long(ctrl["cells"]));
  EXPECT_EQ(sta_value(sta_log, "linked_registers"), long(ctrl["flip_flops"]));

  EXPECT_NE(read_file(dir.path() / "flat" / "lds_ctrl.synth.md").find("Flat synthesis"), std::string::npos);
  const std::string md = read_file(dir.path() / "hier" / "lds_ctrl.synth.md");
  EXPECT_NE(md.find("Hierarchical synthesis (--hier)"), std::string::npos);
  EXPECT_NE(md.find("| bd_codec_lds_small_pack | 2 | "), std::string::npos) << md;
  EXPECT_NE(read_file(dir.path() / "hier" / "lds_ctrl.synth.csv").find(",hierarchical,"), std::string::npos);
  const std::string modules_csv = read_file(dir.path() / "hier" / "lds_ctrl.synth.modules.csv");
  EXPECT_NE(modules_csv.find("\nlds_ctrl_lds_small,bd_codec_lds_small_pack,2,"), std::string::npos) << modules_csv;
  EXPECT_FALSE(fs::exists(dir.path() / "flat" / "lds_ctrl.synth.modules.csv"));
}

TEST(Synth, HierOnABlockWithoutSubmodulesIsInvalidInputAndWritesNothing) {
  TempDir dir("synth_hier_bad");
  const auto r = run_txgen("synth --config " + source("tests/configs/walk_sched_small.json") +
                           " --block walk_sched --hier --out " + dir.str("s"));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("--hier"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("walk_sched_walk_sched_small"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(dir.path() / "s"));
}
