// The writer's line breaking (txgen/emit/wrap.h): lines fit, only whitespace
// changes, and expressions break at their outermost operators first.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "txgen/emit/wrap.h"

namespace {

using txgen::emit::wrap_comment;
using txgen::emit::wrap_expression;

std::string joined(const std::vector<std::string>& lines) {
  std::string s;
  for (const auto& l : lines) s += l + "\n";
  return s;
}

std::string without_spaces(std::string s) {
  std::string out;
  for (char c : s)
    if (c != ' ' && c != '\n') out += c;
  return out;
}

TEST(Wrap, ShortStatementsStayOnOneLine) {
  EXPECT_EQ(joined(wrap_expression("  assign x = ", "a | b", ";", "      ", 40)), "  assign x = a | b;\n");
}

TEST(Wrap, BreaksAtTheOutermostOperatorWithTheOperatorLeading) {
  const std::string e = "(aaaaaaaa & bbbbbbbb) | (cccccccc & dddddddd) | (eeeeeeee & ffffffff)";
  EXPECT_EQ(joined(wrap_expression("assign x = ", e, ";", "    ", 40)),
            "assign x = (aaaaaaaa & bbbbbbbb)\n"
            "    | (cccccccc & dddddddd)\n"
            "    | (eeeeeeee & ffffffff);\n");
}

TEST(Wrap, ConcatenationsBreakAfterTheirCommas) {
  const std::string e = "{aaaaaaaaaaaa, bbbbbbbbbbbb, cccccccccccc, dddddddddddd}";
  EXPECT_EQ(joined(wrap_expression("assign x = ", e, ";", "    ", 40)),
            "assign x = {aaaaaaaaaaaa, bbbbbbbbbbbb,\n"
            "    cccccccccccc, dddddddddddd};\n");
}

TEST(Wrap, AnOperandTooLongBreaksInsideFurtherIn) {
  const std::string e = "s ? t : {(aaaaaaaaaaaa & bbbbbbbbbbbb) | (cccccccccccc & dddddddddddd), e}";
  const auto lines = wrap_expression("assign x = ", e, ";", "    ", 40);
  EXPECT_EQ(joined(lines),
            "assign x = s ? t\n"
            "    : {(aaaaaaaaaaaa & bbbbbbbbbbbb)\n"
            "        | (cccccccccccc & dddddddddddd),\n"
            "        e};\n");
}

TEST(Wrap, EveryLineFitsAndOnlyWhitespaceChanges) {
  std::string e = "x0";
  for (int i = 1; i < 60; ++i) e += (i % 3 ? " | " : " & ") + std::string("(sig") + std::to_string(i) + "[3:0] == 4'd" +
                                    std::to_string(i % 16) + ")";
  e = "{" + e + ", ~(" + e + ")}";
  const auto lines = wrap_expression("  assign y = ", e, ";", "      ", 98);
  for (const auto& l : lines) EXPECT_LE(l.size(), 98u) << l;
  EXPECT_EQ(without_spaces(joined(lines)), without_spaces("assign y = " + e + ";"));
}

TEST(Wrap, AnUnbreakableExpressionGoesOnALineOfItsOwn) {
  EXPECT_EQ(joined(wrap_expression("  assign a_long_name_x = ", "other_signal[(2 * g) * 36 +: 36]", ";", "      ", 40)),
            "  assign a_long_name_x =\n      other_signal[(2 * g) * 36 +: 36];\n");
}

TEST(Wrap, CommentsBreakBetweenWords) {
  EXPECT_EQ(joined(wrap_comment("  ", "one two three four five six seven", 20)),
            "  // one two three\n  // four five six\n  // seven\n");
}

}  // namespace
