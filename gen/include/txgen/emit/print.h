// Printing of typed expressions (txgen/hdl/value.h) as Verilog-2005, with
// parentheses only where precedence needs them. Part of the Verilog writer:
// the value layer never formats text itself.
#pragma once

#include <string>

#include "txgen/hdl/value.h"

namespace txgen::emit {

std::string print(const hdl::Value& v);
std::string print(const hdl::Index& i);

}  // namespace txgen::emit
