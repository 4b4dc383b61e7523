// txgen power (docs/power.md): the FST reader's edge samples and toggles on a
// waveform written here, the operation counts, the OpenSTA log parser, and
// the whole flow on tests/data/power_fixture.v (an inverter into a
// flip-flop) against power computed by hand from the osu018 liberty.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "fstapi.h"
#include "txgen/power/activity.h"
#include "txgen/power/cell_models.h"
#include "txgen/power/power_flow.h"
#include "txgen/util/process.h"

namespace fs = std::filesystem;
using namespace txgen::power;

namespace {

fs::path temp_dir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("txgen_power_test_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// A module's waveform as Verilator writes one (scope TOP.dut): clk_i low at
// 10c with the cycle's values, high at 10c+5, for `cycles` cycles. `at(c,
// name)` gives each signal's value in cycle c (written at 10c) and
// `after(c, name)` the registered outputs' value after edge c ("" keeps it).
struct Signal {
  std::string name;
  unsigned bits;
  bool port = false;  // declared an input of the scope
};
void write_waveform(const fs::path& path, const std::vector<Signal>& signals, unsigned cycles,
                    const std::function<std::string(unsigned, const std::string&)>& at,
                    const std::function<std::string(unsigned, const std::string&)>& after) {
  void* w = fstWriterCreate(path.c_str(), 1);
  ASSERT_NE(w, nullptr);
  fstWriterSetScope(w, FST_ST_VCD_MODULE, "TOP", nullptr);
  fstWriterSetScope(w, FST_ST_VCD_MODULE, "dut", nullptr);
  const fstHandle clk = fstWriterCreateVar(w, FST_VT_VCD_WIRE, FST_VD_INPUT, 1, "clk_i", 0);
  std::vector<fstHandle> h;
  for (const Signal& s : signals) {
    const std::string name = s.bits > 1 ? s.name + "[" + std::to_string(s.bits - 1) + ":0]" : s.name;
    h.push_back(fstWriterCreateVar(w, FST_VT_VCD_WIRE, s.port ? FST_VD_INPUT : FST_VD_IMPLICIT, s.bits, name.c_str(), 0));
  }
  fstWriterSetUpscope(w);
  fstWriterSetUpscope(w);
  for (unsigned c = 0; c < cycles; ++c) {
    fstWriterEmitTimeChange(w, 10ull * c);
    fstWriterEmitValueChange(w, clk, "0");
    for (std::size_t i = 0; i < signals.size(); ++i) {
      const std::string v = at(c, signals[i].name);
      if (!v.empty()) fstWriterEmitValueChange(w, h[i], v.c_str());
    }
    fstWriterEmitTimeChange(w, 10ull * c + 5);
    fstWriterEmitValueChange(w, clk, "1");
    for (std::size_t i = 0; i < signals.size(); ++i) {
      const std::string v = after(c, signals[i].name);
      if (!v.empty()) fstWriterEmitValueChange(w, h[i], v.c_str());
    }
  }
  fstWriterClose(w);
}

bool on_path(const char* tool) {
  try {
    txgen::util::find_executable(tool);
    return true;
  } catch (const std::runtime_error&) {
    return false;
  }
}

}  // namespace

TEST(PowerActivity, SamplesBeforeEachRisingEdgeAndCountsToggles) {
  const fs::path dir = temp_dir("fst");
  // v is 2 bits: cycle c holds c % 4; q flips after every edge, unknown before the first
  write_waveform(dir / "w.fst", {{"v", 2, true}, {"q", 1}}, 8,
                 [](unsigned c, const std::string& n) {
                   if (n != "v") return std::string(c == 0 ? "x" : "");
                   return std::string{static_cast<char>('0' + (c % 4) / 2), static_cast<char>('0' + c % 2)};
                 },
                 [](unsigned c, const std::string& n) { return n == "q" ? std::string(c % 2 ? "0" : "1") : ""; });
  FstFile fst((dir / "w.fst").string());
  ASSERT_EQ(scopes_with_ports(fst, {{"v", false, 2}, {"q", true, 1}}), std::vector<std::string>{"TOP.dut"});
  EXPECT_TRUE(scopes_with_ports(fst, {{"v", false, 3}}).empty());  // the width counts
  // a module without v: the scope declares v a port, so it is another module's instance
  EXPECT_TRUE(scopes_with_ports(fst, {{"q", true, 1}}).empty());

  const EdgeSamples s = sample_before_rising_edges(fst, "TOP.dut", {"v", "q"});
  ASSERT_EQ(s.values.size(), 8u);
  EXPECT_EQ(s.values[0][0], "00");
  EXPECT_EQ(s.values[3][0], "11");
  EXPECT_EQ(s.values[0][1], "x");  // before the first edge
  EXPECT_EQ(s.values[1][1], "1");  // after edge 0
  EXPECT_EQ(s.values[2][1], "0");

  const NetToggles t = count_net_toggles(fst, "TOP.dut");
  EXPECT_EQ(t.cycles, 8u);
  EXPECT_EQ(t.transitions.at("clk_i"), 15u);  // 0 at t=0, then 8 rises and 7 falls
  EXPECT_EQ(t.transitions.at("v[0]"), 7u);    // 0101 0101
  EXPECT_EQ(t.transitions.at("v[1]"), 3u);    // 0011 0011
  EXPECT_EQ(t.transitions.at("q"), 7u);       // x, then 1 0 1 0 1 0 1 0: the first value does not count
  fs::remove_all(dir);
}

TEST(PowerActivity, OperationsCountElementsWhereEveryTermHolds) {
  EdgeSamples s;
  s.names = {"valid", "op", "one"};
  // two elements: valid[1:0], op two 2-bit elements {op1, op0}
  s.values = {{"11", "1000", "1"}, {"01", "0001", "1"}, {"10", "1011", "0"}};
  EXPECT_EQ(count_operation(s, {"", "any", {"valid"}}), 4u);
  EXPECT_EQ(count_operation(s, {"", "write", {"valid", "op:1/2"}}), 2u);   // cycle 0 element 1, cycle 2 element 1
  EXPECT_EQ(count_operation(s, {"", "read", {"valid", "!op:1/2"}}), 2u);   // cycle 0 element 0, cycle 1 element 0
  EXPECT_EQ(count_operation(s, {"", "scalar", {"valid", "one"}}), 3u);     // a 1-bit term applies to both
  EXPECT_EQ(count_operation(s, {"", "either", {"valid", "op:1/2|!one"}}), 2u);  // c0 e1 by op, c2 e1 by both
  EXPECT_THROW(count_operation(s, {"", "bad", {"op:2/2"}}), std::invalid_argument);
  // per-CU enables over per-CU groups of two banks: {cu1 banks 3 2, cu0 banks 1 0}
  EdgeSamples banks;
  banks.names = {"en", "bank"};
  banks.values = {{"10", "0111"}, {"01", "1101"}};
  EXPECT_EQ(count_operation(banks, {"", "bank", {"en", "bank"}}), 1u + 1u);  // c0: cu1 bank 2; c1: cu0 bank 0
  EXPECT_THROW(count_operation(s, {"", "absent", {"nope"}}), std::runtime_error);
}

TEST(PowerCells, ModelsFromTheLibertyMatchItsFunctions) {
  EXPECT_EQ(verilog_expression("(!((A B)+C))"), "(!((A & B) | C))");
  EXPECT_EQ(verilog_expression("(!((S A) + (!S B)))"), "(!((S & A) | (!S & B)))");
  EXPECT_EQ(verilog_expression("((A^B)^C)"), "((A ^ B) ^ C)");
  EXPECT_THROW(verilog_expression("A ~ B"), std::runtime_error);
  const std::string lib =
      "library (l) {\n  cell (AOI) { area : 1; pin(A) { direction : input; capacitance : 0.01; }\n"
      "    pin(B) { direction : input; } pin(Y) { direction : output; function : \"(!(A B))\";\n"
      "      timing () { related_pin : \"A\"; cell_rise(t) { index_1 (\"0.1, 0.2\"); values (\"1, 2\"); } } } }\n"
      "  cell (FF) { ff (IQ,IQN) { next_state : \"D\"; clocked_on : \"(!CLK)\"; clear : \"(!R)\"; }\n"
      "    pin(CLK) { direction : input; } pin(D) { direction : input; } pin(R) { direction : input; }\n"
      "    pin(Q) { direction : output; function : \"IQ\"; } }\n"
      "  cell (FILL) { area : 1; }\n}\n";
  const std::string v = cell_models_from_liberty(lib);
  EXPECT_NE(v.find("module AOI (A, B, Y);"), std::string::npos) << v;
  EXPECT_NE(v.find("assign Y = (!(A & B));"), std::string::npos) << v;
  EXPECT_NE(v.find("reg IQ = 1'b0;"), std::string::npos) << v;
  EXPECT_NE(v.find("always @(negedge CLK or negedge R) if ((!R)) IQ <= 1'b0; else IQ <= D;"), std::string::npos) << v;
  EXPECT_EQ(v.find("FILL"), std::string::npos);
  const std::string bad = "library (l) { cell (X) { ff (IQ,IQN) { clocked_on : \"(A B)\"; } pin(Q) { direction : output; } } }";
  EXPECT_THROW(cell_models_from_liberty(bad), std::runtime_error);
}

TEST(PowerActivity, NetlistPortsAndHex) {
  const std::string v =
      "module m(clk_i, a_i, b_o);\n  input clk_i;\n  input [11:0] a_i;\n  output [2:0] b_o;\nendmodule\n";
  const auto ports = netlist_ports(v, "m");
  ASSERT_EQ(ports.size(), 3u);
  EXPECT_EQ(ports[1].bits, 12u);
  EXPECT_TRUE(ports[2].output);
  EXPECT_THROW(netlist_ports(v, "other"), std::runtime_error);
  EXPECT_THROW(netlist_ports("module m(a);\nendmodule\n", "m"), std::runtime_error);
  EXPECT_EQ(bits_to_hex("101101"), "2d");
  EXPECT_EQ(bits_to_hex("x1"), "1");
}

TEST(PowerParse, ArcsPinsAndTheDesignSum) {
  const std::string log =
      "power: internal u1/A (INVX1)\n"
      "power:  A -> Y 1  0.40 1.00  3.19e-14  1.28e-05 no pg_pin\n"
      "TXGEN_POWER u1 INVX1 1.0e-5 2.0e-5 1.0e-11 3.0e-5\n"
      "TXGEN_PIN u1 A input a\\[3\\]\n"
      "TXGEN_PIN u1 Y output n1\n"
      "power:  CLK -> CLK       0.80 1.00  1.61e-13  1.29e-04 no pg_pin\n"
      "TXGEN_POWER r DFFPOSX1 1.0e-4 0.0 2.0e-10 1.0e-4\n"
      "TXGEN_DESIGN_POWER 1.1e-4 2.0e-5 2.1e-10\n";
  const auto p = parse_instance_power(log);
  ASSERT_EQ(p.size(), 2u);
  ASSERT_EQ(p[0].arcs.size(), 1u);
  EXPECT_EQ(p[0].arcs[0].from, "A");
  EXPECT_DOUBLE_EQ(p[0].arcs[0].energy_j, 3.19e-14);
  EXPECT_EQ(p[0].inputs[0].second, "a[3]");
  EXPECT_EQ(p[1].arcs[0].to, "CLK");
  std::string wrong = log;
  wrong.replace(wrong.find("TXGEN_DESIGN_POWER 1.1e-4"), 25, "TXGEN_DESIGN_POWER 2.1e-4");
  EXPECT_THROW(parse_instance_power(wrong), std::runtime_error);
  EXPECT_THROW(parse_instance_power("TXGEN_POWER u1 INVX1 1.0e-5\n"), std::runtime_error);
}

TEST(PowerParse, ActivityScalesEachArcByItsOwnNet) {
  InstancePower inv{"u1", "NAND2X1", 0, 2.0e-5, 1e-11, {{"A", "a"}, {"B", "b"}}, {{"Y", "y"}},
                    {{"A", "Y", 1.0, 3e-14}, {"B", "Y", 1.0, 1e-14}}};
  InstancePower ff{"r", "DFFPOSX1", 0, 1.0e-5, 2e-10, {{"CLK", "clk"}, {"D", "y"}}, {{"Q", "q"}},
                   {{"CLK", "CLK", 1.0, 1.6e-13}, {"CLK", "Q", 1.0, 2.9e-13}, {"D", "D", 0.5, 1e-13}}};
  NetToggles t;
  t.cycles = 100;
  t.transitions = {{"a", 30}, {"b", 10}, {"y", 20}, {"clk", 200}, {"q", 20}};
  const LogicPower r = power_from_activity({inv, ff}, t, 2.5);
  const double f = 4e8;
  // the NAND: output energy shared 3:1 by its inputs' activity
  EXPECT_NEAR(r.combinational.internal, 0.2 * f * (0.75 * 3e-14 + 0.25 * 1e-14), 1e-12);
  EXPECT_NEAR(r.combinational.switching, 2.0e-5 * 0.2, 1e-15);
  // the flip-flop: clock pin at 2 per cycle, Q's transitions all on the clock arc, D's own energy
  EXPECT_NEAR(r.sequential.internal, f * (2.0 * 1.6e-13 + 0.2 * 2.9e-13 + 0.2 * 0.5 * 1e-13), 1e-12);
  EXPECT_NEAR(r.sequential.leakage, 2e-10, 1e-20);
  EXPECT_NEAR(r.clock_pins_w, f * 2.0 * 1.6e-13, 1e-12);
  EXPECT_EQ(r.nets_without_activity, 0u);
  t.transitions.erase("b");
  EXPECT_EQ(power_from_activity({inv}, t, 2.5).nets_without_activity, 1u);
  inv.inputs[1].second = "one_";  // a pin tied to 1'h1: OpenSTA's constant net
  EXPECT_EQ(power_from_activity({inv}, t, 2.5).nets_without_activity, 0u);
}

// The flow on the fixture: the RTL waveform below drives a_i; the netlist's
// y_o must follow it (the flow compares), and the power follows the toggles.
class PowerFlowTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!on_path("iverilog") || !on_path("vvp") || !on_path("sta")) GTEST_SKIP() << "iverilog, vvp or sta missing";
  }
  // a_i toggles every `period` cycles; y_o is the flip-flop's !a_i of the cycle before
  PowerResult run(unsigned period, bool wrong_output = false) {
    const fs::path dir = temp_dir("flow" + std::to_string(period));
    const auto a = [period](unsigned c) { return (c / period) % 2 ? '1' : '0'; };
    write_waveform(dir / "rtl.fst", {{"a_i", 1}, {"y_o", 1}}, kCycles,
                   [&](unsigned c, const std::string& n) {
                     if (n == "a_i") return std::string(1, a(c));
                     return std::string(c == 0 ? "0" : "");  // y_o's register starts at 0
                   },
                   [&](unsigned c, const std::string& n) {
                     if (n != "y_o") return std::string();
                     const bool wrong = wrong_output && c == kCycles / 2;
                     return std::string(1, (a(c) == '1') != wrong ? '0' : '1');
                   });
    const fs::path root = TXGEN_SOURCE_DIR;
    fs::copy_file(root / "tests/data/power_fixture.v", dir / "netlist.v");
    fs::copy_file(root / "tests/data/power_fixture.sdc", dir / "power_fixture.sdc");
    PowerRequest req;
    req.synth.top = "power_fixture";
    req.synth.period_ns = 2.5;
    req.synth_dir = dir.string();
    req.sdc_name = "power_fixture.sdc";
    req.liberty_path = "/usr/share/qflow/tech/osu018/osu018_stdcells.lib";
    req.scripts_dir = (root / "synth").string();
    req.rtl_waveform = (dir / "rtl.fst").string();
    req.work_dir = (dir / "power").string();
    req.operations = {{"power_fixture", "a high", {"a_i"}}};
    return run_power(req);
  }
  static constexpr unsigned kCycles = 100;
};

TEST_F(PowerFlowTest, SwitchingAndLeakageAsComputedByHand) {
  const PowerResult r = run(1);
  EXPECT_EQ(r.cycles, kCycles);
  EXPECT_EQ(r.rtl_scope, "TOP.dut");
  EXPECT_EQ(r.compared_output_bits, kCycles - 1);  // every cycle but the one before the first edge
  EXPECT_EQ(r.unknown_output_bits, 0u);
  EXPECT_EQ(r.logic.instances, 2u);
  EXPECT_EQ(r.logic.nets_without_activity, 0u);
  // n1: 99 transitions in 100 cycles (its first value does not count); y_o: 100 (from 0 at the start)
  const double v2f = 1.8 * 1.8 * 4e8;
  // liberty: DFFPOSX1 D pin 0.00882947 pF; the SDC's 0.02 pF on y_o
  EXPECT_NEAR(r.logic.combinational.switching, 0.5 * 0.00882947e-12 * v2f * 0.99, 1e-9);
  EXPECT_NEAR(r.logic.sequential.switching, 0.5 * 0.02e-12 * v2f * 1.00, 1e-9);
  // liberty: cell_leakage_power 0.0221741 and 0.160725 nW
  EXPECT_NEAR(r.logic.total().leakage, (0.0221741 + 0.160725) * 1e-9, 1e-14);
  ASSERT_EQ(r.operations.size(), 1u);
  EXPECT_EQ(r.operations[0].count, 50u);
  EXPECT_NEAR(r.operations[0].energy_pj, r.total_w() * kCycles * 2.5e-9 * 1e12 / 50, 1e-9);
  EXPECT_NEAR(r.operations[0].active_energy_pj, (r.total_w() - r.idle_w()) * kCycles * 2.5e-9 * 1e12 / 50, 1e-9);
  EXPECT_GT(r.logic.clock_pins_w, 0.0);
}

TEST_F(PowerFlowTest, HalfTheTogglesHalfTheInvertersPower) {
  const PowerResult every = run(1), every_other = run(2);
  // 99 against 49 transitions of a_i and n1, 100 against 50 of y_o; the clock pins' energy stays
  EXPECT_NEAR(every_other.logic.combinational.internal / every.logic.combinational.internal, 49.0 / 99.0, 1e-6);
  EXPECT_NEAR(every_other.logic.combinational.switching / every.logic.combinational.switching, 49.0 / 99.0, 1e-6);
  EXPECT_NEAR(every_other.logic.sequential.switching / every.logic.sequential.switching, 0.5, 1e-6);
  EXPECT_GT(every_other.logic.sequential.internal, 0.5 * every.logic.sequential.internal);
  EXPECT_LT(every_other.logic.sequential.internal, every.logic.sequential.internal);
}

TEST_F(PowerFlowTest, AnOutputThatDiffersFromTheRtlStopsTheRun) {
  try {
    run(1, true);
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("y_o"), std::string::npos) << e.what();
  }
}
