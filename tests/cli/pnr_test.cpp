// `txgen pnr` end to end: the tiny arithmetic codec (144 cells) placed,
// routed and timed after routing in a few seconds; and bad input, which
// must exit 2 naming the option and leave nothing behind.
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

namespace {

bool have_flow() {
  return txgen::test::run("command -v yosys && command -v sta && command -v qflow && command -v gnuplot").exit_code ==
         0;
}

}  // namespace

TEST(Pnr, PlacesRoutesAndTimesTheTinyCodec) {
  if (!have_flow()) GTEST_SKIP() << "no yosys/sta/qflow/gnuplot";
  TempDir dir("pnr");
  const auto r =
      run_txgen("pnr --config " + source("tests/configs/arith_tiny.json") + " --block bd_codec --out " + dir.str("p"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const fs::path out = dir.path() / "p";
  const std::string module = "bd_codec_arith_tiny_comp";  // the block's first synthesized module
  EXPECT_NE(r.output.find("txgen: pnr " + module + ": routing (qrouter) ..."), std::string::npos) << r.output;
  const json j = json::parse(read_file(out / (module + ".pnr.json")));
  EXPECT_EQ(j["module"], module);
  EXPECT_EQ(j["failed_nets"], 0);
  // The placed netlist is txgen's own, cell for cell, with the clock and reset trees.
  EXPECT_EQ(unsigned(j["cells"]), unsigned(j["pre_layout_cells"]) + unsigned(j["tree_buffers"]));
  EXPECT_GT(unsigned(j["tree_buffers"]), 0u);
  EXPECT_EQ(j["extra_cells"], 0);
  EXPECT_EQ(j["named_instances"], j["cells"]);
  EXPECT_GT(unsigned(j["cells"]), 100u);
  EXPECT_GT(double(j["wirelength_um"]), 1000.0);
  EXPECT_GT(double(j["utilization"]), 0.3);
  EXPECT_LE(double(j["utilization"]), 1.0);
  // Wires only add load: the routed netlist cannot be faster than without them.
  const double pre = j["pre_layout_min_period_ns"], post = j["post_route_min_period_ns"];
  EXPECT_GT(pre, 1.0);
  EXPECT_GE(post, pre);
  EXPECT_NEAR(double(j["difference_ns"]), post - pre, 2e-3);
  EXPECT_FALSE(std::string(j["post_route_path_end"]).empty());
  const std::string md = read_file(out / (module + ".pnr.md"));
  EXPECT_NE(md.find("### Placed and routed: bd_codec (arith_tiny"), std::string::npos) << md;
  EXPECT_NE(md.find("| " + module + " |"), std::string::npos) << md;
  EXPECT_NE(read_file(out / (module + ".pnr.csv")).find(module + ","), std::string::npos);
  EXPECT_GT(fs::file_size(out / (module + ".layout.png")), 1000u);
  // Every tool's full log stays in the work directory.
  for (const char* log : {"log/synth.log", "log/place.log", "log/route.log", "post_route_sta.log"})
    EXPECT_TRUE(fs::exists(out / module / "pnr" / log)) << log;
}

TEST(Pnr, BadInputNamesTheOptionAndWritesNothing) {
  TempDir dir("pnr_bad");
  const std::string config = " --config " + source("tests/configs/arith_tiny.json");
  struct Case {
    std::string args, option;
  };
  const Case cases[] = {
      {" --block nosuch", "--block"},
      {" --block bd_codec --module bd_codec_arith_tiny_nosuch", "--module"},
      // The tag packer is combinational: no clock to time.
      {" --block bd_codec --module bd_codec_arith_tiny_pack", "no clock input clk_i"},
      {" --block bd_codec --utilization 1.5", "--utilization"},
  };
  for (const auto& c : cases) {
    const auto r = run_txgen("pnr" + config + c.args + " --out " + dir.str("o"));
    EXPECT_EQ(r.exit_code, 2) << c.args << "\n" << r.output;
    EXPECT_NE(r.output.find(c.option), std::string::npos) << c.args << "\n" << r.output;
    EXPECT_FALSE(fs::exists(dir.path() / "o")) << c.args;
  }
}
