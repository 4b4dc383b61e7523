// scripts/equiv_check.sh: a rewrite of the same circuit passes, a changed
// circuit fails (the proof that the typed-layer port changed nothing rests on
// this script).
#include <gtest/gtest.h>

#include "cli_support.h"

namespace {

using txgen::test::run;
using txgen::test::source;

std::string script() { return source("scripts/equiv_check.sh"); }
std::string data(const char* d) { return source(std::string("tests/data/equiv/") + d); }

TEST(EquivCheck, RewriteOfTheSameCircuitIsEquivalent) {
  txgen::test::TempDir tmp("equiv_new");
  const auto r = run("cp -r " + data("new") + " " + tmp.str("new") + " && " + script() + " " + data("old") + " " +
                     tmp.str("new") + " 2>&1");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("equivalent eq_counter"), std::string::npos) << r.output;
}

TEST(EquivCheck, ChangedCircuitIsReported) {
  txgen::test::TempDir tmp("equiv_broken");
  const auto r = run("cp -r " + data("broken") + " " + tmp.str("broken") + " && " + script() + " " + data("old") +
                     " " + tmp.str("broken") + " 2>&1");
  EXPECT_NE(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("DIFFERENT  eq_counter"), std::string::npos) << r.output;
}

// An internal net whose changed bit no port sees: different net by net, but
// equivalent when only ports and registers are matched (scripts/mutate.sh).
TEST(EquivCheck, InternalNetChangeIsEquivalentAtThePorts) {
  txgen::test::TempDir tmp("equiv_hidden");
  const std::string copy = "cp -r " + data("hidden_new") + " " + tmp.str("new") + " && ";
  const auto by_net = run(copy + script() + " " + data("hidden_old") + " " + tmp.str("new") + " 2>&1");
  EXPECT_NE(by_net.exit_code, 0) << by_net.output;
  const auto by_port = run(script() + " --ports-and-registers " + data("hidden_old") + " " + tmp.str("new") + " 2>&1");
  EXPECT_EQ(by_port.exit_code, 0) << by_port.output;
  EXPECT_NE(by_port.output.find("equivalent eq_hidden"), std::string::npos) << by_port.output;
}

TEST(EquivCheck, ChangedCircuitIsReportedAtThePorts) {
  txgen::test::TempDir tmp("equiv_broken_ports");
  const auto r = run("cp -r " + data("broken") + " " + tmp.str("broken") + " && " + script() +
                     " --ports-and-registers " + data("old") + " " + tmp.str("broken") + " 2>&1");
  EXPECT_NE(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("DIFFERENT  eq_counter"), std::string::npos) << r.output;
}

// --ports-and-registers proves a rewrite by the combinational check (registers
// paired by name and cut); a changed reset value is a difference it finds.
TEST(EquivCheck, RewriteIsProvenCombinationallyWithRegistersPaired) {
  txgen::test::TempDir tmp("equiv_comb");
  const auto r = run("cp -r " + data("new") + " " + tmp.str("new") + " && " + script() +
                     " --ports-and-registers " + data("old") + " " + tmp.str("new") + " 2>&1");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("equivalent eq_counter   (combinational, registers paired)"), std::string::npos)
      << r.output;
}

TEST(EquivCheck, ChangedResetValueIsFoundByTheCombinationalCheck) {
  txgen::test::TempDir tmp("equiv_reset");
  const auto r = run("cp -r " + data("reset_changed") + " " + tmp.str("rst") + " && " + script() +
                     " --ports-and-registers " + data("old") + " " + tmp.str("rst") + " 2>&1");
  EXPECT_NE(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("DIFFERENT  eq_counter"), std::string::npos) << r.output;
  const std::string comb = txgen::test::read_file(tmp.path() / "rst" / "equiv" / "eq_counter.comb.log");
  EXPECT_NE(comb.find("\nSATISFIABLE"), std::string::npos) << comb;
}

}  // namespace
