// Verilog expression builders shared by the block emitters: priority chains,
// OR reductions and one-hot selections of per-entry fields. They print; they
// decide nothing.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace txgen::emit {

using Cases = std::vector<std::pair<std::string, std::string>>;

// Entry i of a flat per-entry vector.
std::string field(const std::string& vec, unsigned i, unsigned width);
// Entry i of a vector of `count` entries: the name itself when it is one bit.
std::string bit_field(const std::string& vec, unsigned i, unsigned count, unsigned width);
// cond_1 ? v_1 : cond_2 ? v_2 : ... : otherwise
std::string priority(const Cases& cases, const std::string& otherwise);
// OR of the terms, fallback when there are none.
std::string or_of(const std::vector<std::string>& terms, const std::string& fallback);
// The width-bit one-hot decode of `index` (bit index set).
std::string one_of(unsigned width, const std::string& index);
// AND-OR selection of per-entry fields by a one-hot mask.
std::string onehot_select(const std::string& onehot, const std::string& vec, unsigned count,
                          unsigned width);

}  // namespace txgen::emit
