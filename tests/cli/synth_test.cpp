// `txgen synth` end to end on the default configuration. The flip-flop count
// is predicted from the elaborated widths in the manifest, so a synthesis
// that loses or duplicates registers fails.
#include <filesystem>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli_support.h"

using nlohmann::json;
using txgen::test::read_file;
using txgen::test::run_txgen;
using txgen::test::source;
using txgen::test::TempDir;

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
