// `txgen power` end to end: the tiny arithmetic codec's two modules, their
// activity from the co-simulation's random tests replayed at gate level, the
// report's figures consistent with each other; and bad input, which must exit
// 2 naming the option and leave nothing behind.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_support.h"

using nlohmann::json;
using txgen::test::read_file;
using txgen::test::run_txgen;
using txgen::test::source;
using txgen::test::TempDir;
namespace fs = std::filesystem;

TEST(Power, MeasuresTheTinyCodecOnItsCosimTraffic) {
  if (txgen::test::run("command -v yosys && command -v sta && command -v iverilog").exit_code != 0)
    GTEST_SKIP() << "no yosys/sta/iverilog";
  TempDir dir("power");
  const auto r = run_txgen("power --config " + source("tests/configs/arith_tiny.json") +
                           " --block bd_codec --cycles 500 --out " + dir.str("p"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const fs::path out = dir.path() / "p";
  const json j = json::parse(read_file(out / "bd_codec.power.json"));
  ASSERT_EQ(j.size(), 2u) << j.dump(2);  // comp and decomp; the combinational packer has no clock
  for (const json& m : j) {
    SCOPED_TRACE(m["module"].get<std::string>());
    EXPECT_GT(unsigned(m["cycles"]), 400u);
    // every output bit of every cycle known and equal to the RTL's
    EXPECT_GT(uint64_t(m["compared_output_bits"]), 1000u);
    EXPECT_EQ(m["unknown_output_bits"], 0);
    EXPECT_EQ(m["nets_without_activity"], 0);
    const double logic = m["logic_w"], seq = m["sequential_w"], comb = m["combinational_w"], clock = m["clock_pins_w"];
    EXPECT_NEAR(logic, seq + comb, 1e-9);
    EXPECT_GT(clock, 0.0);
    EXPECT_LT(clock, seq);
    EXPECT_GT(double(m["switching_w"]), 0.0);
    EXPECT_GT(double(m["leakage_w"]), 0.0);
    EXPECT_DOUBLE_EQ(double(m["total_w"]), logic + double(m["macro_w"]));
  }
  const std::string md = read_file(out / "bd_codec.power.md");
  EXPECT_NE(md.find("### Power from activity: bd_codec (arith_tiny"), std::string::npos) << md;
  EXPECT_NE(md.find("| bd_codec_arith_tiny_comp |"), std::string::npos) << md;
  EXPECT_NE(read_file(out / "bd_codec.power.csv").find("bd_codec_arith_tiny_decomp,"), std::string::npos);
  EXPECT_TRUE(fs::exists(out / "bd_codec_arith_tiny_comp" / "power" / "sta_power.log"));
}

TEST(Power, BadInputNamesTheOptionAndWritesNothing) {
  TempDir dir("power_bad");
  const std::string config = " --config " + source("tests/configs/arith_tiny.json");
  for (const auto& [args, option] : {std::pair{" --block nosuch", "--block"},
                                     std::pair{" --block bd_codec --module bd_codec_arith_tiny_nosuch", "--module"},
                                     std::pair{" --block bd_codec --cycles 0", "--cycles"}}) {
    const auto r = run_txgen(std::string("power") + config + args + " --out " + dir.str("o"));
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.output;
    EXPECT_NE(r.output.find(option), std::string::npos) << r.output;
    EXPECT_FALSE(fs::exists(dir.path() / "o")) << args;
  }
}
