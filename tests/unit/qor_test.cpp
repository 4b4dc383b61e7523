// The overhead tables (module against baseline) and the QoR check's verdicts,
// on hand-made synthesis results: no tools run.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "txgen/error.h"
#include "txgen/synth/overhead.h"
#include "txgen/synth/qor.h"

namespace {

using txgen::synth::OverheadRow;
using txgen::synth::QorEntry;
using txgen::synth::QorTolerance;
using txgen::synth::SynthResult;

SynthResult result(const std::string& top, double area, unsigned flops, double min_period) {
  SynthResult r;
  r.top = top;
  r.area_um2 = area;
  r.flops = flops;
  r.min_period_ns = min_period;
  r.period_ns = 2.5;
  return r;
}

TEST(Overhead, PairsEachModuleWithItsBaseOfTheSameRun) {
  const std::vector<SynthResult> run = {result("ic_x", 300, 30, 2.2), result("ic_x_base", 100, 10, 2.0),
                                        result("ic_x_cu", 50, 5, 1.0)};
  const auto rows = txgen::synth::pair_with_base(run);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].proposed->top, "ic_x");
  EXPECT_EQ(rows[0].baseline->top, "ic_x_base");
  const auto json = txgen::synth::overhead_json(rows);
  EXPECT_DOUBLE_EQ(double(json[0]["area_ratio"]), 3.0);
  EXPECT_DOUBLE_EQ(double(json[0]["flip_flop_ratio"]), 3.0);
  EXPECT_DOUBLE_EQ(double(json[0]["min_period_ratio"]), 1.1);
  EXPECT_FALSE(txgen::synth::units_total(rows));  // only pairs: modules may nest
  const std::string csv = txgen::synth::results_csv_with_overhead(run, rows);
  EXPECT_NE(csv.find(",ic_x_base,100.0,10,2.000,3.00,3.00,1.10\n"), std::string::npos) << csv;
  EXPECT_NE(csv.find("ic_x_cu,50.0,"), std::string::npos);
}

TEST(Overhead, TwoRunsPairByUnitAndSumWhenTheUnitsDiffer) {
  const std::vector<SynthResult> mgvm = {result("dhsl_m_cp", 500, 40, 2.1), result("dhsl_m_hsl_stage", 100, 4, 1.0)};
  const std::vector<SynthResult> shared = {result("dhsl_s_hsl_stage", 80, 2, 0.9)};
  const auto rows = txgen::synth::pair_runs(mgvm, "dhsl_m", shared, "dhsl_s");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_FALSE(rows[0].baseline);  // the decision unit has no counterpart
  EXPECT_EQ(rows[1].baseline->top, "dhsl_s_hsl_stage");
  const auto total = txgen::synth::units_total(rows);
  ASSERT_TRUE(total);
  EXPECT_DOUBLE_EQ(total->proposed->area_um2, 600);
  EXPECT_EQ(total->baseline->flops, 2u);
  EXPECT_DOUBLE_EQ(total->proposed->min_period_ns, 2.1);
  const std::string md = txgen::synth::overhead_markdown(rows, "note");
  EXPECT_NE(md.find("| all units | all units | 600 | 80 | 520 | 7.50 |"), std::string::npos) << md;
}

QorEntry entry() {
  return {"tests/configs/x.json", "blk", "h1", {{"blk_x", 1000.0, 10, 2.0}, {"blk_x_base", 100.0, 1, 1.0}}};
}

TEST(Qor, WithinToleranceAndSpreadPasses) {
  const QorTolerance tol{1.0, 0.05};
  const auto rows = txgen::synth::compare_qor(
      entry(), "h1", {result("blk_x", 1009.9, 11, 2.05), result("blk_x_base", 100, 1, 0.9)}, tol);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_FALSE(rows[0].failed) << rows[0].verdict;
  EXPECT_EQ(rows[0].verdict, "ok");
  EXPECT_FALSE(rows[1].failed);
  EXPECT_NE(rows[1].verdict.find("better"), std::string::npos) << rows[1].verdict;
}

TEST(Qor, AreaOrPeriodGrowthBeyondTheToleranceFails) {
  const QorTolerance tol{1.0, 0.05};
  const auto rows = txgen::synth::compare_qor(
      entry(), "h1", {result("blk_x", 1010.2, 10, 2.0), result("blk_x_base", 100, 1, 1.051)}, tol);
  EXPECT_TRUE(rows[0].failed);
  EXPECT_NE(rows[0].verdict.find("area +1.02 %"), std::string::npos) << rows[0].verdict;
  EXPECT_TRUE(rows[1].failed);
  EXPECT_NE(rows[1].verdict.find("min period +0.051 ns"), std::string::npos) << rows[1].verdict;
}

TEST(Qor, MissingOrNewModulesAndAChangedConfigurationFail) {
  const QorTolerance tol{1.0, 0.05};
  auto rows = txgen::synth::compare_qor(entry(), "h1", {result("blk_x", 1000, 10, 2.0), result("blk_y", 1, 1, 1)}, tol);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_FALSE(rows[0].failed);
  EXPECT_TRUE(rows[1].failed);  // blk_x_base gone
  EXPECT_TRUE(rows[2].failed);  // blk_y not recorded
  rows = txgen::synth::compare_qor(entry(), "h2", {result("blk_x", 1000, 10, 2.0), result("blk_x_base", 100, 1, 1)},
                                   tol);
  for (const auto& r : rows) EXPECT_TRUE(r.failed) << r.verdict;
}

TEST(Qor, AModuleMissingItsClockFailsEvenWhenItsBaselineMissedItToo) {
  const QorTolerance tol{1.0, 0.05};
  QorEntry slow = entry();
  slow.modules[0].min_period_ns = 2.6;
  const auto rows = txgen::synth::compare_qor(
      slow, "h1", {result("blk_x", 1000, 10, 2.62), result("blk_x_base", 100, 1, 2.55)}, tol);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_TRUE(rows[0].failed);
  EXPECT_EQ(rows[0].verdict, "FAILED: misses the 2.500 ns clock") << rows[0].verdict;
  EXPECT_TRUE(rows[1].failed);  // also a period regression beyond the spread
  EXPECT_NE(rows[1].verdict.find("REGRESSION: min period +1.550 ns; FAILED: misses"), std::string::npos)
      << rows[1].verdict;
  slow.modules[0].min_period_ns = 2.5;
  const auto exact = txgen::synth::compare_qor(slow, "h1", {result("blk_x", 1000, 10, 2.5)}, tol);
  EXPECT_FALSE(exact[0].failed) << exact[0].verdict;  // meeting the clock exactly passes
}

TEST(Qor, BaselinesRoundTripAndBadFieldsNameTheirPath) {
  txgen::synth::QorBaselines b{"0.1.0", "f00d", {1.0, 0.05}, "measured", {entry()}};
  const auto doc = nlohmann::json::parse(txgen::synth::baselines_json(b).dump());
  const auto back = txgen::synth::parse_baselines(doc);
  ASSERT_EQ(back.entries.size(), 1u);
  EXPECT_EQ(back.entries[0].modules[1].module, "blk_x_base");
  EXPECT_DOUBLE_EQ(back.tolerance.min_period_ns, 0.05);
  auto bad = doc;
  bad["entries"][0]["modules"][1]["area_um2"] = "big";
  try {
    txgen::synth::parse_baselines(bad);
    FAIL() << "accepted a string area";
  } catch (const txgen::ConfigError& e) {
    EXPECT_EQ(e.path(), "$.entries[0].modules[1].area_um2");
  }
}

}  // namespace
