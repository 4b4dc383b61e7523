// Structural building blocks emitted as explicit gates, for paths where the
// synthesis tool's default mapping is too slow (Yosys 0.23 maps adders as
// ripple carry and may chain wide reductions).
#pragma once

#include <string>
#include <vector>

#include "txgen/emit/verilog.h"

namespace txgen::emit {

// out (width bits, declared here) = one-hot lowest set bit of vec, through a
// log-depth (Kogge-Stone) prefix OR.
void lowest_one(Module& m, const std::string& out, const std::string& vec, unsigned width);

// out (width + 1 bits, declared here) = a + b + cin over width-bit operands, with
// Kogge-Stone carries: log2(width) levels instead of a ripple.
void prefix_add(Module& m, const std::string& out, const std::string& a, const std::string& b,
                const std::string& cin, unsigned width);

// out (width bits, declared here) = the sum of the terms (each a width-bit
// expression) mod 2^width: a carry-save (3:2) tree and one prefix adder.
void sum_tree(Module& m, const std::string& out, const std::vector<std::string>& terms, unsigned width);

}  // namespace txgen::emit
