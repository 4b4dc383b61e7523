// Line breaking for the Verilog writer: every printed line fits in kLineWidth
// columns where the text allows it. An expression breaks at its outermost
// operators first (the operator leads the continuation line) or after the
// commas of its outermost concatenation, continuation lines four columns in;
// an operand too long for a line breaks the same way inside, four further in.
// Only whitespace changes: the text reads the same to every tool.
#pragma once

#include <string>
#include <vector>

namespace txgen::emit {

constexpr size_t kLineWidth = 100;

// `lead` + `expr` + `tail` as lines of at most `width` columns where possible;
// continuation lines start with `indent` (lead already holds its own indentation).
std::vector<std::string> wrap_expression(const std::string& lead, const std::string& expr, const std::string& tail,
                                         const std::string& indent, size_t width);

// "// text" lines of at most `width` columns (broken between words), each
// starting with `indent`.
std::vector<std::string> wrap_comment(const std::string& indent, const std::string& text, size_t width);

}  // namespace txgen::emit
