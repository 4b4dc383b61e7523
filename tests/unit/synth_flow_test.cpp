// End-to-end check of the synthesis flow on a fixed 8-bit counter
// (tests/data/synth_counter.v): Yosys onto osu018, then OpenSTA; and of the
// hierarchical flow (synth --hier) on two of them (synth_counter_pair.v).
#include "txgen/synth/synth_flow.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

#include "txgen/util/text_file.h"

namespace {

namespace fs = std::filesystem;
using txgen::synth::ModuleFigures;
using txgen::synth::SynthRequest;
using txgen::synth::SynthResult;

constexpr const char* kLiberty = "/usr/share/qflow/tech/osu018/osu018_stdcells.lib";
constexpr unsigned kCounterFlops = 9;  // 8 counter bits + registered wrap flag

bool on_path(const std::string& tool) {
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    if (::access((fs::path(dir.empty() ? "." : dir) / tool).c_str(), X_OK) == 0) return true;
  }
  return false;
}

// Removes a scratch work directory however the test ends.
struct ScratchDir {
  fs::path path;
  ~ScratchDir() {
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
};

SynthRequest counter_request() {
  const fs::path root = TXGEN_SOURCE_DIR;
  SynthRequest req;
  req.top = "synth_counter";
  req.verilog_files = {(root / "tests/data/synth_counter.v").string()};
  req.sdc_path = (root / "constraints/bd_codec.sdc").string();  // same plain 2.5 ns SDC
  req.liberty_path = kLiberty;
  req.work_dir = (fs::temp_directory_path() / ("txgen_synth_test_" + std::to_string(::getpid()))).string();
  req.period_ns = 2.5;
  req.scripts_dir = (root / "synth").string();
  return req;
}

class SynthFlowTest : public ::testing::Test {
 protected:
  // One synthesis run shared by all tests: it takes about a second.
  static void SetUpTestSuite() {
    if (!on_path("yosys") || !on_path("sta")) return;
    request_ = new SynthRequest(counter_request());
    try {
      result_ = new SynthResult(txgen::synth::run_synth(*request_));
    } catch (const std::exception& e) {
      error_ = e.what();
    }
  }
  static void TearDownTestSuite() {
    if (request_) fs::remove_all(request_->work_dir);
    delete result_;
    delete request_;
    result_ = nullptr;
    request_ = nullptr;
  }
  void SetUp() override {
    if (!on_path("yosys") || !on_path("sta")) GTEST_SKIP() << "yosys or sta not on PATH";
    ASSERT_NE(result_, nullptr) << "run_synth failed: " << error_;
  }
  static const SynthResult& result() { return *result_; }

  static SynthRequest* request_;
  static SynthResult* result_;
  static std::string error_;
};

SynthRequest* SynthFlowTest::request_ = nullptr;
SynthResult* SynthFlowTest::result_ = nullptr;
std::string SynthFlowTest::error_;

TEST_F(SynthFlowTest, CountsCellsAndFlops) {
  EXPECT_EQ(result().top, "synth_counter");
  EXPECT_EQ(result().flops, kCounterFlops);
  EXPECT_GT(result().cells, result().flops);
  EXPECT_GT(result().area_um2, 0.0);
}

TEST_F(SynthFlowTest, TimingFiguresAreConsistent) {
  const SynthResult& r = result();
  EXPECT_DOUBLE_EQ(r.period_ns, 2.5);
  EXPECT_TRUE(std::isfinite(r.worst_slack_ns));
  EXPECT_GT(r.worst_slack_ns, 0.0) << "an 8-bit counter meets 2.5 ns in osu018";
  EXPECT_NEAR(r.min_period_ns, r.period_ns - r.worst_slack_ns, 1e-12);
  EXPECT_GT(r.critical_path_ns, 0.0);
  EXPECT_LT(r.critical_path_ns, r.min_period_ns);  // setup time is not part of the path
  EXPECT_NEAR(r.fo4, r.critical_path_ns / 0.10, 1e-9);
  EXPECT_FALSE(r.path_start.empty());
  EXPECT_FALSE(r.path_end.empty());
  EXPECT_GT(r.logic_depth_cells, 0u);
}

// The counter's worst path starts at en_i, so the reported critical path is
// the arrival time that sta.tcl printed less the SDC's 0.3 ns input delay.
TEST_F(SynthFlowTest, InputPathExcludesInputDelay) {
  const SynthResult& r = result();
  ASSERT_EQ(r.path_start, "en_i");
  std::ifstream log(fs::path(request_->work_dir) / "sta.log");
  std::string line;
  double arrival = -1.0;
  while (std::getline(log, line)) {
    const std::string key = "TXGEN_RESULT data_arrival_ns=";
    if (line.rfind(key, 0) == 0) arrival = std::stod(line.substr(key.size()));
  }
  ASSERT_GT(arrival, 0.0);
  EXPECT_NEAR(r.critical_path_ns, arrival - 0.3, 1e-9);
}

// With no input delay the counter's register-to-register carry path is the
// worst; it starts at a flip-flop clock pin and nothing is subtracted.
TEST_F(SynthFlowTest, RegisterPathStartsAtClockPin) {
  SynthRequest req = counter_request();
  req.work_dir += "_regpath";
  const ScratchDir scratch{req.work_dir};
  fs::create_directories(req.work_dir);
  const fs::path sdc = fs::path(req.work_dir) / "no_input_delay.sdc";
  std::ofstream(sdc) << "create_clock -name clk -period 2.5 [get_ports clk_i]\n"
                        "set_input_delay 0.0 -clock clk [delete_from_list [all_inputs] [get_ports clk_i]]\n"
                        "set_output_delay 0.3 -clock clk [all_outputs]\n"
                        "set_driving_cell -lib_cell INVX1 -pin Y [all_inputs]\n"
                        "set_load 0.02 [all_outputs]\n";
  req.sdc_path = sdc.string();
  const SynthResult r = txgen::synth::run_synth(req);
  EXPECT_NE(r.path_start.find("count_q"), std::string::npos) << r.path_start;
  EXPECT_NE(r.path_start.find("/CLK"), std::string::npos) << r.path_start;
  EXPECT_GT(r.critical_path_ns, 0.0);
  EXPECT_LT(r.critical_path_ns, r.min_period_ns);
  EXPECT_EQ(r.flops, kCounterFlops);
}

TEST_F(SynthFlowTest, WorkDirRecordsTheRun) {
  const fs::path work = request_->work_dir;
  for (const char* file : {"yosys_synth.tcl", "sta.tcl", "bd_codec.sdc", "abc.constr", "netlist.v", "stat.txt",
                           "yosys.log", "sta.log"}) {
    EXPECT_TRUE(fs::exists(work / file)) << file;
  }
}

TEST_F(SynthFlowTest, TablesCarryTheFigures) {
  const SynthResult& r = result();
  const std::vector<SynthResult> rows = {r};

  const std::string md = txgen::synth::results_markdown(rows, "Counter");
  EXPECT_NE(md.find("### Counter"), std::string::npos);
  EXPECT_NE(md.find("| module | area um^2 | cells | flip-flops |"), std::string::npos);
  EXPECT_NE(md.find("| synth_counter | "), std::string::npos);
  char slack[64];
  std::snprintf(slack, sizeof slack, "%.3f @ 2.500", r.worst_slack_ns);
  EXPECT_NE(md.find(slack), std::string::npos) << md;

  const auto json = nlohmann::json::parse(txgen::synth::results_json(rows));
  ASSERT_EQ(json.size(), 1u);
  EXPECT_EQ(json[0]["module"], "synth_counter");
  EXPECT_EQ(json[0]["flip_flops"], kCounterFlops);
  EXPECT_EQ(json[0]["cells"], r.cells);
  EXPECT_NEAR(json[0]["area_um2"].get<double>(), r.area_um2, 0.05);
  EXPECT_NEAR(json[0]["worst_slack_ns"].get<double>(), r.worst_slack_ns, 0.0005);
  EXPECT_NEAR(json[0]["fo4"].get<double>(), r.fo4, 0.05);

  const std::string csv = txgen::synth::results_csv(rows);
  EXPECT_EQ(csv.rfind("module,area_um2,cells,flip_flops,", 0), 0u);
  std::ostringstream row_start;
  row_start << "\nsynth_counter," << std::fixed;
  row_start.precision(1);
  row_start << r.area_um2 << ',' << r.cells << ',' << r.flops << ",2.500,";
  EXPECT_NE(csv.find(row_start.str()), std::string::npos) << csv;
}

TEST_F(SynthFlowTest, MissingTopFailsWithLog) {
  SynthRequest req = counter_request();
  req.top = "no_such_module";
  req.work_dir += "_bad";
  const ScratchDir scratch{req.work_dir};
  try {
    txgen::synth::run_synth(req);
    ADD_FAILURE() << "expected std::runtime_error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("yosys.log"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("no_such_module"), std::string::npos) << e.what();
  }
}

// ---------------------------------------------------------------- hierarchical

// tests/data/synth_counter_pair.v: two synth_counter instances and a
// registered 9-bit sum of their counts; every register reaches an output.
constexpr unsigned kPairFlops = 2 * kCounterFlops + 9;

SynthRequest pair_request(bool hierarchical) {
  SynthRequest req = counter_request();
  req.top = "synth_counter_pair";
  req.verilog_files.push_back((fs::path(TXGEN_SOURCE_DIR) / "tests/data/synth_counter_pair.v").string());
  req.work_dir += hierarchical ? "_pair_hier" : "_pair_flat";
  req.hierarchical = hierarchical;
  return req;
}

// The number after "Chip area for <what> '\<module>':" in a stat report, read
// here independently of the flow's parser; -1 when absent.
double stat_area(const std::string& stat, const std::string& what, const std::string& module) {
  const std::regex re("Chip area for " + what + " '\\\\" + module + "': *([0-9.]+)");
  std::smatch m;
  return std::regex_search(stat, m, re) ? std::stod(m[1]) : -1.0;
}

// The TXGEN_RESULT value of `key` in an sta log; -1 when absent.
long sta_value(const fs::path& log, const std::string& key) {
  std::ifstream in(log);
  const std::string prefix = "TXGEN_RESULT " + key + "=";
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(prefix, 0) == 0) return std::stol(line.substr(prefix.size()));
  }
  return -1;
}

const ModuleFigures* find_module(const SynthResult& r, const std::string& name) {
  for (const auto& m : r.modules)
    if (m.name == name) return &m;
  return nullptr;
}

// The same two-counter design synthesized flat and with --hier's request.
class HierSynthTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (!on_path("yosys") || !on_path("sta")) return;
    try {
      flat_ = new SynthResult(txgen::synth::run_synth(pair_request(false)));
      hier_ = new SynthResult(txgen::synth::run_synth(pair_request(true)));
    } catch (const std::exception& e) {
      error_ = e.what();
    }
  }
  static void TearDownTestSuite() {
    std::error_code ignored;
    for (bool h : {false, true}) fs::remove_all(pair_request(h).work_dir, ignored);
    delete flat_;
    delete hier_;
    flat_ = hier_ = nullptr;
  }
  void SetUp() override {
    if (!on_path("yosys") || !on_path("sta")) GTEST_SKIP() << "yosys or sta not on PATH";
    ASSERT_TRUE(flat_ && hier_) << "run_synth failed: " << error_;
  }
  static fs::path hier_dir() { return pair_request(true).work_dir; }

  static SynthResult* flat_;
  static SynthResult* hier_;
  static std::string error_;
};

SynthResult* HierSynthTest::flat_ = nullptr;
SynthResult* HierSynthTest::hier_ = nullptr;
std::string HierSynthTest::error_;

TEST_F(HierSynthTest, TotalAreaIsTheSumOverInstances) {
  const SynthResult& r = *hier_;
  EXPECT_TRUE(r.hierarchical);
  ASSERT_EQ(r.modules.size(), 2u);
  EXPECT_EQ(r.modules[0].name, "synth_counter_pair");
  EXPECT_EQ(r.modules[0].instances, 1u);
  const ModuleFigures* counter = find_module(r, "synth_counter");
  ASSERT_NE(counter, nullptr);
  EXPECT_EQ(counter->instances, 2u);

  const std::string stat = txgen::util::read_text_file(hier_dir() / "stat.txt");
  const double top_own = stat_area(stat, "module", "synth_counter_pair");
  const double counter_own = stat_area(stat, "module", "synth_counter");
  const double total = stat_area(stat, "top module", "synth_counter_pair");
  ASSERT_GT(top_own, 0.0);
  ASSERT_GT(counter_own, 0.0);
  EXPECT_NEAR(total, top_own + 2 * counter_own, 1e-6) << "Yosys' design-hierarchy total";
  EXPECT_NEAR(r.area_um2, total, 1e-6);
  EXPECT_NEAR(r.modules[0].own_area_um2, top_own, 1e-6);
  EXPECT_NEAR(counter->own_area_um2, counter_own, 1e-6);
  EXPECT_NEAR(counter->area_um2, counter_own, 1e-6);  // no submodules of its own
  EXPECT_NEAR(r.modules[0].area_um2, r.area_um2, 1e-6);
  double over_instances = 0.0;
  for (const ModuleFigures& m : r.modules) over_instances += m.instances * m.own_area_um2;
  EXPECT_NEAR(over_instances, r.area_um2, 1e-6);
  // Cells: the same instances, in the range of the flat run's (ABC maps the
  // sum without the counters around it, so not equal).
  EXPECT_EQ(r.cells, r.modules[0].cells);
  EXPECT_GT(r.cells, flat_->cells * 3 / 4);
  EXPECT_LT(r.cells, flat_->cells * 5 / 4);
}

TEST_F(HierSynthTest, FlopsMatchTheFlatRun) {
  EXPECT_EQ(flat_->flops, kPairFlops);
  EXPECT_EQ(hier_->flops, flat_->flops);
  EXPECT_EQ(find_module(*hier_, "synth_counter")->flops, kCounterFlops);
  EXPECT_FALSE(flat_->hierarchical);
  EXPECT_TRUE(flat_->modules.empty());
}

// OpenSTA linked both counters below the top and timed a path that leaves one.
TEST_F(HierSynthTest, StaTimedTheHierarchicalNetlist) {
  const SynthResult& r = *hier_;
  EXPECT_EQ(r.linked_submodules, 2u);
  EXPECT_EQ(sta_value(hier_dir() / "sta.log", "linked_cells"), long(r.cells));
  EXPECT_EQ(sta_value(hier_dir() / "sta.log", "linked_registers"), long(kPairFlops));
  EXPECT_EQ(sta_value(fs::path(pair_request(false).work_dir) / "sta.log", "linked_submodules"), 0);
  const std::string netlist = txgen::util::read_text_file(hier_dir() / "netlist.v");
  EXPECT_NE(netlist.find("\nmodule synth_counter("), std::string::npos);
  EXPECT_NE(netlist.find("synth_counter u_b ("), std::string::npos);
  // The adder from a counter's register into the top's sum register.
  EXPECT_TRUE(r.path_start.rfind("u_a/", 0) == 0 || r.path_start.rfind("u_b/", 0) == 0) << r.path_start;
  EXPECT_EQ(r.path_end.rfind("sum_", 0), 0u) << r.path_end;
  EXPECT_GT(r.worst_slack_ns, 0.0);
}

TEST_F(HierSynthTest, EachModuleIsTimedAlone) {
  const ModuleFigures* counter = find_module(*hier_, "synth_counter");
  ASSERT_TRUE(counter->min_period_ns.has_value());
  EXPECT_GT(*counter->min_period_ns, 0.0);
  EXPECT_LT(*counter->min_period_ns, 2.5);
  EXPECT_EQ(counter->path_start, "en_i");  // its own input, with the SDC's input delay
  EXPECT_TRUE(fs::exists(hier_dir() / "modules" / "synth_counter.sta.log"));
  EXPECT_DOUBLE_EQ(*hier_->modules[0].min_period_ns, hier_->min_period_ns);
}

// The pair's nets reach at most two submodule inputs: nothing to buffer.
TEST_F(HierSynthTest, NoBoundaryBuffersBelowTheGroup) {
  EXPECT_EQ(hier_->boundary_buffers, 0u);
  EXPECT_EQ(sta_value(hier_dir() / "sta.log", "boundary_buffers"), 0);
  EXPECT_EQ(sta_value(fs::path(pair_request(false).work_dir) / "sta.log", "boundary_buffers"), -1);
}

// tests/data/synth_counter_bank.v: en_i reaches eight counters, so the top
// times it through two BUFX4 of four loads each; the clock and the reset,
// which reach them too, stay ideal. Yosys' figures leave the buffers out.
TEST(HierSynth, BroadcastNetGetsABoundaryBufferTree) {
  if (!on_path("yosys") || !on_path("sta")) GTEST_SKIP() << "yosys or sta not on PATH";
  SynthRequest req = counter_request();
  req.top = "synth_counter_bank";
  req.verilog_files.push_back((fs::path(TXGEN_SOURCE_DIR) / "tests/data/synth_counter_bank.v").string());
  req.work_dir += "_bank_hier";
  req.hierarchical = true;
  const SynthResult r = txgen::synth::run_synth(req);
  EXPECT_EQ(r.linked_submodules, 8u);
  EXPECT_EQ(r.boundary_buffers, 2u);
  EXPECT_DOUBLE_EQ(r.boundary_buffer_area_um2, 2 * 32.0);  // osu018 BUFX4: 32 um^2
  EXPECT_EQ(r.flops, 8 * kCounterFlops + 1);
  const std::string log = txgen::util::read_text_file(fs::path(req.work_dir) / "sta.log");
  EXPECT_NE(log.find("txgen_fanout_buf"), std::string::npos);
  const std::string md = txgen::synth::results_markdown({r}, "Bank");
  EXPECT_NE(md.find("Boundary buffers timed with the top: 2 (64 um^2"), std::string::npos) << md;
  EXPECT_EQ(nlohmann::json::parse(txgen::synth::results_json({r}))[0]["boundary_buffers"], 2);
  std::error_code ignored;
  fs::remove_all(req.work_dir, ignored);
}

// tests/data/synth_counter_duo.v: a top made of instances only, so Yosys'
// stat gives it cells but no chip area of its own; its area is its
// instances' and nothing is missing from the report.
TEST(HierSynth, TopOfInstancesOnly) {
  if (!on_path("yosys") || !on_path("sta")) GTEST_SKIP() << "yosys or sta not on PATH";
  SynthRequest req = counter_request();
  req.top = "synth_counter_duo";
  req.verilog_files.push_back((fs::path(TXGEN_SOURCE_DIR) / "tests/data/synth_counter_duo.v").string());
  req.work_dir += "_duo_hier";
  req.hierarchical = true;
  const SynthResult r = txgen::synth::run_synth(req);
  EXPECT_EQ(r.flops, 2 * kCounterFlops);
  const ModuleFigures* counter = find_module(r, "synth_counter");
  ASSERT_NE(counter, nullptr);
  EXPECT_EQ(counter->instances, 2u);
  EXPECT_NEAR(r.area_um2, 2 * counter->area_um2, 0.01);
  std::error_code ignored;
  fs::remove_all(req.work_dir, ignored);
}

TEST_F(HierSynthTest, ReportsSayWhichMode) {
  const std::vector<SynthResult> both = {*flat_, *hier_};
  EXPECT_NE(txgen::synth::results_markdown({*flat_}, "Pair").find("Flat synthesis"), std::string::npos);
  const std::string md = txgen::synth::results_markdown(both, "Pair");
  EXPECT_NE(md.find("Hierarchical synthesis (--hier)"), std::string::npos) << md;
  EXPECT_NE(md.find("#### Modules of synth_counter_pair (hierarchical)"), std::string::npos) << md;
  EXPECT_NE(md.find("| synth_counter | 2 | "), std::string::npos) << md;

  const auto json = nlohmann::json::parse(txgen::synth::results_json(both));
  EXPECT_EQ(json[0]["synthesis"], "flat");
  EXPECT_FALSE(json[0].contains("modules"));
  EXPECT_EQ(json[1]["synthesis"], "hierarchical");
  EXPECT_EQ(json[1]["modules"][1]["module"], "synth_counter");
  EXPECT_EQ(json[1]["modules"][1]["instances"], 2);

  const std::string csv = txgen::synth::results_csv(both);
  EXPECT_NE(csv.find(",flat\n"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",hierarchical\n"), std::string::npos) << csv;
  const std::string modules = txgen::synth::modules_csv(both);
  EXPECT_NE(modules.find("\nsynth_counter_pair,synth_counter,2,"), std::string::npos) << modules;
}

}  // namespace
