// scripts/mutate_rtl.pl, the point finder of scripts/mutate.sh: which points
// of generated Verilog it mutates, that every mutant still lints (widths are
// kept, so a mutant fails by behaviour, not by build), and that a seeded
// sample is repeatable and covers the kinds.
#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <vector>

#include "cli_support.h"

namespace {

using txgen::test::run;
using txgen::test::source;

std::string tool() { return source("scripts/mutate_rtl.pl"); }
std::string fixture() { return source("tests/data/mutate/mut_fixture.v"); }

// A shell word: constants such as 4'd3 hold quotes.
std::string quoted(const std::string& text) {
  std::string word = "'";
  for (const char c : text) word += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return word + "'";
}

std::vector<std::vector<std::string>> rows_of(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    std::vector<std::string> fields;
    std::istringstream cells(line);
    for (std::string cell; std::getline(cells, cell, '\t');) fields.push_back(cell);
    if (!line.empty() && line.back() == '\t') fields.emplace_back();  // an empty last field (`not`)
    rows.push_back(fields);
  }
  return rows;
}

std::string without_file(const std::vector<std::vector<std::string>>& rows) {
  std::string text;
  for (const auto& row : rows) {
    for (std::size_t i = 1; i < row.size(); ++i) text += row[i] + (i + 1 < row.size() ? "|" : "");
    text += "\n";
  }
  return text;
}

TEST(MutateRtl, ListsAssignsResetValuesAndEnablesButNotFormalCodeOrIndices) {
  const auto r = run(tool() + " list " + fixture());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(without_file(rows_of(r.output)),
            "15|16|cond|hit_o ? |!hit_o ? \n"
            "15|24|arms|a_i : b_i|b_i : a_i\n"
            "16|22|op|==|!=\n"
            "16|25|const|4'd3|4'd2\n"
            "16|46|op|+|-\n"
            "17|17|not|~|\n"
            "17|23|op|&||\n"
            "21|15|reset|4'd5|4'd4\n"
            "22|16|cond|(en_i)|(!(en_i))\n");
}

TEST(MutateRtl, EveryMutantLintsAndDiffersFromTheOriginal) {
  const auto rows = rows_of(run(tool() + " list " + fixture()).output);
  ASSERT_FALSE(rows.empty());
  txgen::test::TempDir tmp("mutate_lint");
  const std::string copy = tmp.str("mut_fixture.v");
  for (const auto& row : rows) {
    ASSERT_EQ(row.size(), 6u);
    const auto r = run("cp " + fixture() + " " + copy + " && " + tool() + " apply " + copy + " " + row[1] + " " +
                       row[2] + " " + quoted(row[4]) + " " + quoted(row[5]) + " && ! cmp -s " + fixture() + " " + copy +
                       " && verilator --lint-only -Wall " + copy + " 2>&1");
    EXPECT_EQ(r.exit_code, 0) << "line " << row[1] << " " << row[3] << ": " << r.output;
  }
}

TEST(MutateRtl, ApplyRefusesAPointThatIsNotThere) {
  txgen::test::TempDir tmp("mutate_refuse");
  const std::string copy = tmp.str("mut_fixture.v");
  const auto r = run("cp " + fixture() + " " + copy + " && " + tool() + " apply " + copy + " 16 22 '<' '>' 2>&1");
  EXPECT_NE(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("is not there"), std::string::npos) << r.output;
  EXPECT_EQ(run("cmp -s " + fixture() + " " + copy).exit_code, 0) << "the file was changed";
}

TEST(MutateRtl, SeededSampleRepeatsAndTakesEachKindInTurn) {
  const std::string list = tool() + " list --seed 7 --count 5 " + fixture();
  const auto first = run(list);
  ASSERT_EQ(first.exit_code, 0) << first.output;
  EXPECT_EQ(run(list).output, first.output);
  const auto rows = rows_of(first.output);
  ASSERT_EQ(rows.size(), 5u);
  std::set<std::string> kinds;
  for (const auto& row : rows) kinds.insert(row[3]);
  EXPECT_EQ(kinds.size(), 5u) << first.output;  // six kinds in the fixture, five drawn
}

}  // namespace
