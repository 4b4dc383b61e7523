// `txgen qor update` and `qor check` end to end on a scratch baselines file
// with one small configuration (one synthesis of a few cells).
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli_support.h"

using nlohmann::json;
using txgen::test::read_file;
using txgen::test::run_txgen;
using txgen::test::source;
using txgen::test::TempDir;

namespace {

bool have_tools() { return txgen::test::run("command -v yosys && command -v sta").exit_code == 0; }

void write_json(const std::filesystem::path& file, const json& doc) { std::ofstream(file) << doc.dump(2); }

}  // namespace

TEST(QorCli, UpdateRecordsThenCheckPassesAndCatchesAGrownArea) {
  if (!have_tools()) GTEST_SKIP() << "no yosys/sta";
  TempDir dir("qor");
  const std::string file = dir.str("baselines.json");
  auto r = run_txgen("qor update --baselines " + file + " --out " + dir.str("u") + " --add " +
                     source("tests/configs/dhsl_private.json") + ":dhsl --period-spread 0.05 --note test");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  json doc = json::parse(read_file(file));
  ASSERT_EQ(doc["entries"].size(), 1u);
  EXPECT_EQ(doc["entries"][0]["config"], "tests/configs/dhsl_private.json");
  json& module = doc["entries"][0]["modules"][0];
  EXPECT_EQ(module["module"], "dhsl_dhsl_private_hsl_stage");

  r = run_txgen("qor check --baselines " + file + " --out " + dir.str("c1"));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("| ok |"), std::string::npos) << r.output;

  // The recorded area 2 % smaller than what synthesis gives: a regression.
  module["area_um2"] = double(module["area_um2"]) / 1.02;
  write_json(file, doc);
  r = run_txgen("qor check --baselines " + file + " --out " + dir.str("c2"));
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("REGRESSION: area +2.00 %"), std::string::npos) << r.output;
  EXPECT_NE(read_file(dir.path() / "c2" / "qor.md").find("REGRESSION"), std::string::npos);
}

TEST(QorCli, MalformedBaselinesAreInvalidInputNamingTheField) {
  TempDir dir("qor_bad");
  const std::string file = dir.str("baselines.json");
  write_json(file, {{"txgen_version", "0.1.0"}, {"flow_hash", "x"}, {"entries", json::array()}});
  const auto r = run_txgen("qor check --baselines " + file + " --out " + dir.str("c"));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("$.tolerance"), std::string::npos) << r.output;
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "c"));
}

TEST(QorCli, UpdateRejectsAConfigurationOutsideTheSourceTree) {
  TempDir dir("qor_outside");
  std::filesystem::copy_file(source("tests/configs/dhsl_private.json"), dir.path() / "x.json");
  const auto r = run_txgen("qor update --baselines " + dir.str("b.json") + " --out " + dir.str("u") + " --add " +
                           dir.str("x.json") + ":dhsl --period-spread 0.05");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("--add"), std::string::npos) << r.output;
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "b.json"));
}
