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

}  // namespace
