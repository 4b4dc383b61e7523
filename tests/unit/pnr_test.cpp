// The readers of the placed-and-routed flow's files (qrouter RC, routed
// netlist, qrouter log, LEF, DEF, OpenSTA log) and the SPEF writer, on small
// hand-written fixtures in tests/data/pnr/.
#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <stdexcept>
#include <string>

#include "txgen/pnr/fanout.h"
#include "txgen/pnr/parse.h"
#include "txgen/util/text_file.h"

namespace {

using namespace txgen::pnr;

std::string fixture(const std::string& name) {
  return txgen::util::read_text_file(std::string(TXGEN_SOURCE_DIR) + "/tests/data/pnr/" + name);
}

// A Yosys-style netlist with `flops` DFFSR on clk_i and rst_ni, and one
// logic cell reading rst_ni (which must stay on the port).
std::string flop_netlist(unsigned flops) {
  std::string v = "module top(clk_i, rst_ni, q);\n  input clk_i;\n  input rst_ni;\n  wire _0_;\n";
  for (unsigned i = 0; i < flops; ++i)
    v += "  DFFSR \\q[" + std::to_string(i) +
         "]_reg  (\n    .CLK(clk_i),\n    .D(_0_),\n    .R(rst_ni),\n    .S(1'h1)\n  );\n";
  v += "  INVX1 _1_ (\n    .A(rst_ni),\n    .Y(_0_)\n  );\nendmodule\n";
  return v;
}

std::size_t count(const std::string& text, const std::string& pattern) {
  const std::regex re(pattern);
  return std::distance(std::sregex_iterator(text.begin(), text.end(), re), std::sregex_iterator());
}

TEST(PnrFanout, PutsClockAndResetLoadsBehindBufferTrees) {
  const std::vector<IdealNet> nets = {{"clk_i", {"CLK"}, "CLKBUF1", "A", "Y"},
                                      {"rst_ni", {"R", "S"}, "BUFX4", "A", "Y"}};
  // 40 loads, 16 per buffer: 3 leaf buffers on each net, driven by the port.
  const BufferedNetlist b = buffer_ideal_nets(flop_netlist(40), nets, 16);
  EXPECT_EQ(b.buffers, 6u);
  EXPECT_EQ(count(b.verilog, R"(\.CLK\(clk_i\))"), 0u);
  EXPECT_EQ(count(b.verilog, R"(\.CLK\(txgen_clk_i_tree0_0\))"), 16u);
  EXPECT_EQ(count(b.verilog, R"(\.CLK\(txgen_clk_i_tree0_2\))"), 8u);
  EXPECT_EQ(count(b.verilog, R"(CLKBUF1 txgen_clk_i_buf0_\d \()"), 3u);
  EXPECT_EQ(count(b.verilog, R"(\.A\(txgen_clk_i_tree1_0\))"), 3u);
  EXPECT_EQ(count(b.verilog, R"(assign txgen_clk_i_tree1_0 = clk_i;)"), 1u);
  // The inverter's rst_ni is logic, not a flip-flop's reset: it stays.
  EXPECT_EQ(count(b.verilog, R"(\.A\(rst_ni\))"), 1u);
  EXPECT_EQ(count(b.verilog, R"(\.R\(rst_ni\))"), 0u);
  // Declared after the header, before their first use.
  EXPECT_LT(b.verilog.find("wire txgen_clk_i_tree0_0;"), b.verilog.find(".CLK(txgen_clk_i_tree0_0)"));
  // 300 loads: 19 leaves, 16 of them behind the first buffer above and 3
  // behind the second; those two hang on the port.
  const BufferedNetlist deep = buffer_ideal_nets(flop_netlist(300), {nets[0]}, 16);
  EXPECT_EQ(deep.buffers, 21u);
  EXPECT_EQ(count(deep.verilog, R"(\.A\(txgen_clk_i_tree1_0\))"), 16u);
  EXPECT_EQ(count(deep.verilog, R"(\.A\(txgen_clk_i_tree1_1\))"), 3u);
  EXPECT_EQ(count(deep.verilog, R"(\.Y\(txgen_clk_i_tree1_[01]\))"), 2u);
  EXPECT_EQ(count(deep.verilog, R"(\.A\(txgen_clk_i_tree2_0\))"), 2u);
  EXPECT_EQ(count(deep.verilog, R"(assign txgen_clk_i_tree2_0 = clk_i;)"), 1u);
  // Nets within one group are left alone.
  const std::string small = flop_netlist(10);
  EXPECT_EQ(buffer_ideal_nets(small, nets, 16).verilog, small);
  // Yosys wraps a long port list over lines: the wires follow its ");".
  std::string wrapped = flop_netlist(40);
  wrapped.replace(wrapped.find("rst_ni, q);"), 11, "rst_ni,\n    q);");
  const std::string w = buffer_ideal_nets(wrapped, nets, 16).verilog;
  EXPECT_GT(w.find("wire txgen_clk_i_tree0_0;"), w.find("    q);")) << w.substr(0, 200);
  EXPECT_LT(w.find("wire txgen_clk_i_tree0_0;"), w.find("input clk_i;"));
}

TEST(PnrRc, ReadsTheNestedTreeOfEachNet) {
  const auto nets = parse_rc(fixture("tiny.rc"));
  ASSERT_EQ(nets.size(), 2u);
  const RcNet& n1 = nets[0];
  EXPECT_EQ(n1.name, "n1");
  EXPECT_EQ(n1.driver, "INVX1_1/Y");
  EXPECT_EQ(n1.sinks, 3u);
  ASSERT_EQ(n1.nodes.size(), 5u);  // the driver and four wire nodes
  // ( 2.5 0.001 ( 0.5 0.0002 A , ( 1.25 0.0004 B ) ) , ( 4 0.002 PIN/out_o[0] )
  // )
  EXPECT_EQ(n1.nodes[1].parent, 0u);
  EXPECT_DOUBLE_EQ(n1.nodes[1].res_ohm, 2.5);
  EXPECT_TRUE(n1.nodes[1].pins.empty());
  EXPECT_EQ(n1.nodes[2].parent, 1u);
  EXPECT_EQ(n1.nodes[2].pins, std::vector<std::string>{"NAND2X1_1/A"});
  EXPECT_EQ(n1.nodes[3].parent, 2u);
  EXPECT_DOUBLE_EQ(n1.nodes[3].cap_pf, 0.0004);
  EXPECT_EQ(n1.nodes[4].parent, 1u);
  EXPECT_EQ(n1.nodes[4].pins, std::vector<std::string>{"PIN/out_o[0]"});
  EXPECT_NEAR(n1.total_cap_pf(), 0.0036, 1e-12);
  EXPECT_EQ(nets[1].driver, "PIN/in_i");
}

TEST(PnrRc, RejectsAnUnbalancedTreeOrAWrongSinkCount) {
  EXPECT_THROW(parse_rc("n 1 A/Y 1 ( 1 0.1 B/A \n"), std::runtime_error);
  EXPECT_THROW(parse_rc("n 1 A/Y 1 ( 1 0.1 B/A , C/A ) \n"), std::runtime_error);
  EXPECT_EQ(parse_rc("n 1 A/Y 2 ( 1 0.1 B/A ) \n")[0].omitted_sinks, 1u);  // placed by repair_unresolved_sinks
  EXPECT_NO_THROW(parse_rc("n 1 A/Y 2 ( 1 0.1 B/A , ( 1 0.1 ERROR ) ) \n"));
  EXPECT_NO_THROW(parse_rc("n 1 A/Y 1 ( 1 0.1 B/A , ( 1 0.1 ERROR ) ) \n"));
  EXPECT_THROW(parse_rc("n 1 A/Y 1 ( x 0.1 B/A ) \n"), std::runtime_error);
  try {
    parse_rc("\nn 2 A/Y 1 ( 1 0.1 B/A ) \n");
    FAIL() << "two drivers accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("line 2"), std::string::npos) << e.what();
  }
}

TEST(PnrRc, KeepsAPinTheTreeNamesTwiceOnItsFirstNode) {
  const auto nets = parse_rc("n 1 A/Y 2 ( 1 0.1 B/A , ( 2 0.2 C/A , ( 1 0.1 B/A ) ) ) \n");
  ASSERT_EQ(nets[0].nodes.size(), 4u);
  EXPECT_EQ(nets[0].nodes[1].pins, std::vector<std::string>{"B/A"});
  EXPECT_EQ(nets[0].nodes[2].pins, std::vector<std::string>{"C/A"});
  EXPECT_TRUE(nets[0].nodes[3].pins.empty());  // the wire stays
  EXPECT_EQ(nets[0].repeated_pins, 1u);
  EXPECT_NEAR(nets[0].total_cap_pf(), 0.4, 1e-12);
}

TEST(PnrRc, GivesUnresolvedSinksTheNetsMissingPins) {
  const Netlist netlist = parse_flat_netlist(fixture("tiny.rtlnopwr.v"));
  // _5_ (driven by INVX1_1/Y) reaches NAND2X1_1/A, NAND2X1_2/B and BUFX2_1/A.
  auto nets = parse_rc("n1 1 INVX1_1/Y 3 ( 2 0.001 NAND2X1_1/A , ( 1 0.002 ERROR ) , ( 1 0.001 ERROR ) ) \n");
  EXPECT_EQ(repair_unresolved_sinks(nets, netlist), 2u);
  EXPECT_EQ(nets[0].nodes[2].pins, std::vector<std::string>{"NAND2X1_2/B"});
  EXPECT_EQ(nets[0].nodes[3].pins, std::vector<std::string>{"BUFX2_1/A"});
  // Nothing left to give: the ERROR is dropped, the wire kept.
  auto extra = parse_rc("in_i 1 PIN/in_i 3 ( 3 0.0015 INVX1_1/A , NAND2X1_1/B , ( 1 0.1 ERROR ) ) \n");
  EXPECT_EQ(repair_unresolved_sinks(extra, netlist), 0u);
  EXPECT_TRUE(extra[0].nodes[2].pins.empty());
  // A sink the tree leaves out altogether goes on the node farthest from the
  // driver: node 3 (1 + 4 ohm) beats node 2 (1 + 2 ohm) and node 1.
  auto omitted = parse_rc("n1 1 INVX1_1/Y 3 ( 1 0.001 NAND2X1_1/A , ( 2 0.001 NAND2X1_2/B ) , ( 4 0.001 ) ) \n");
  EXPECT_EQ(repair_unresolved_sinks(omitted, netlist), 1u);
  EXPECT_EQ(omitted[0].nodes[3].pins, std::vector<std::string>{"BUFX2_1/A"});
}

TEST(PnrNetlist, ReadsPortsAndInstancesAndDropsFillCells) {
  const std::string text = fixture("tiny.rtlnopwr.v");
  const Netlist all = parse_flat_netlist(text);
  EXPECT_EQ(all.module, "tiny");
  EXPECT_EQ(all.inputs, (std::vector<std::string>{"clk_i", "in_i"}));
  EXPECT_EQ(all.outputs, (std::vector<std::string>{"out_o[0]", "out_o[1]"}));
  EXPECT_EQ(all.instances.size(), 5u);
  const Netlist routed = parse_flat_netlist(netlist_without_cells(text, {"FILL"}));
  ASSERT_EQ(routed.instances.size(), 4u);
  EXPECT_EQ(routed.instances[1].cell, "NAND2X1");
  EXPECT_EQ(routed.instances[1].name, "NAND2X1_1");
  const std::vector<std::pair<std::string, std::string>> pins = {{"A", "_5_"}, {"B", "in_i"}, {"Y", "out_o[1]"}};
  EXPECT_EQ(routed.instances[1].pins, pins);
}

TEST(PnrSpef, NamesNetsAfterTheNetlistAndWritesTheTree) {
  const Netlist netlist = parse_flat_netlist(fixture("tiny.rtlnopwr.v"));
  const std::string spef = write_spef(parse_rc(fixture("tiny.rc")), netlist, "today");
  // pF, as qrouter's RC holds them (rc2dly's SPEF declares fF).
  EXPECT_NE(spef.find("*C_UNIT 1 PF\n"), std::string::npos);
  EXPECT_NE(spef.find("*BUS_DELIMITER [ ]\n"), std::string::npos);
  EXPECT_NE(spef.find("*PORTS\nclk_i I\nin_i I\nout_o[0] O\nout_o[1] O\n"), std::string::npos) << spef;
  // The net driven by INVX1_1/Y is _5_ in the netlist (n1 in the RC file).
  const std::string n1 =
      "*D_NET _5_ 0.0036\n*CONN\n*I INVX1_1:Y O\n*I NAND2X1_1:A I\n*I NAND2X1_2:B I\n*P out_o[0] O\n"
      "*CAP\n1 _5_:1 0.001\n2 NAND2X1_1:A 0.0002\n3 NAND2X1_2:B 0.0004\n4 out_o[0] 0.002\n"
      "*RES\n1 INVX1_1:Y _5_:1 2.5\n2 _5_:1 NAND2X1_1:A 0.5\n3 NAND2X1_1:A NAND2X1_2:B 1.25\n4 _5_:1 out_o[0] 4\n"
      "*END\n";
  EXPECT_NE(spef.find(n1), std::string::npos) << spef;
  EXPECT_NE(spef.find("*D_NET in_i 0.0015\n*CONN\n*P in_i I\n*I INVX1_1:A I\n"), std::string::npos) << spef;
}

TEST(PnrSpef, FailsOnADriverTheNetlistDoesNotHave) {
  const Netlist netlist = parse_flat_netlist(fixture("tiny.rtlnopwr.v"));
  EXPECT_THROW(write_spef(parse_rc("x 1 NOPE_1/Y 1 ( 1 0.1 INVX1_1/A ) \n"), netlist, ""), std::runtime_error);
}

TEST(PnrNames, MapsQflowInstancesBackThroughCnameWhenTheirPinsAgree) {
  const Netlist routed = parse_flat_netlist(fixture("tiny.rtlnopwr.v"));
  const auto names = original_instance_names(fixture("tiny.blif"), routed);
  // NAND2X1_2's connections differ from the second NAND2X1 line (B=_7_), and
  // the alias buffer has no .cname: neither is named.
  const std::map<std::string, std::string> expected = {{"INVX1_1", "inv_q[0]_reg"}, {"NAND2X1_1", "u_nand"}};
  EXPECT_EQ(names, expected);
  EXPECT_EQ(rename_pin("INVX1_1/Y", names), "inv_q[0]_reg/Y");
  EXPECT_EQ(rename_pin("NAND2X1_2/B", names), "NAND2X1_2/B");
  EXPECT_EQ(rename_pin("in_i", names), "in_i");
}

TEST(PnrRouteLog, TakesTheLastFinalLine) {
  const RouteFigures failed = parse_route_log(fixture("tiny_route.log"));
  EXPECT_TRUE(failed.finished);
  EXPECT_EQ(failed.failed_nets, 2u);
  const RouteFigures clean = parse_route_log("Final: No failed routes!\n");
  EXPECT_TRUE(clean.finished);
  EXPECT_EQ(clean.failed_nets, 0u);
  EXPECT_FALSE(parse_route_log("Nets remaining: 5\n").finished);
  EXPECT_THROW(parse_route_log("Final: something else\n"), std::runtime_error);
}

TEST(PnrLef, ReadsMacroSizes) {
  const auto sizes = parse_lef_sizes(fixture("tiny.lef"));
  ASSERT_EQ(sizes.size(), 3u);
  EXPECT_DOUBLE_EQ(sizes.at("NAND2X1").width_um, 3.2);
  EXPECT_DOUBLE_EQ(sizes.at("FILL").height_um, 10.0);
}

TEST(PnrDef, ReadsDieComponentsAndRoutedWirelength) {
  const DefLayout def = parse_def(fixture("tiny.def"));
  EXPECT_EQ(def.design, "tiny");
  EXPECT_DOUBLE_EQ(def.units_per_um, 100.0);
  EXPECT_DOUBLE_EQ(def.die_x1, -1.0);
  EXPECT_DOUBLE_EQ(def.die_y2, 12.0);
  ASSERT_EQ(def.components.size(), 3u);
  EXPECT_EQ(def.components[1].cell, "NAND2X1");
  EXPECT_DOUBLE_EQ(def.components[1].x_um, 2.4);
  EXPECT_EQ(def.nets, 2u);
  // n1: metal2 3 um, metal3 3 + 2 um ("*" repeats a coordinate); in_i: 0.5 um
  // (the third number is an extension). The vdd special net is not counted.
  ASSERT_EQ(def.wires.size(), 4u);
  EXPECT_EQ(def.wires[1].layer, "metal3");
  EXPECT_DOUBLE_EQ(def.wirelength_um(), 8.5);
}

TEST(PnrSta, ReadsResultsErrorsAndUnmatchedParasitics) {
  const StaReport ok = parse_sta_report(fixture("tiny_post_route_sta.log"));
  EXPECT_TRUE(ok.done);
  EXPECT_TRUE(ok.errors.empty());
  ASSERT_EQ(ok.parasitic_warnings.size(),
            1u);  // the .spef one, not the black box
  EXPECT_EQ(ok.values.at("path_end"), "DFFSR_3/D");
  EXPECT_EQ(ok.values.at("worst_slack_ns"), "1.1000001");
  EXPECT_EQ(ok.values.at("logic_depth_cells"), "7");
  const StaReport failed = parse_sta_report(fixture("tiny_failed_sta.log"));
  EXPECT_FALSE(failed.done);
  EXPECT_EQ(failed.errors.size(), 3u);  // the unclocked registers too
}

}  // namespace
