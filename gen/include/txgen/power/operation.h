// What a power run counts per cycle in a module's RTL (docs/power.md): a
// block's operations (energy per lookup, per fill, ...) and its SRAM macros'
// accesses ("<array> read", "<array> write").
#pragma once

#include <string>
#include <vector>

namespace txgen::power {

// The cycles (per element) in which every term of `all_of` holds in the RTL
// scope of `module`. A term is a signal with one bit per element
// ("req_valid_i", per CU), or bit b of each w-bit element ("da_op_o:1/2"),
// either negated with a leading '!'; "a|b" holds when either does. A term
// with fewer elements than the widest applies each of its elements to a run of
// the widest's (a CU's enable to each of that CU's banks).
struct Operation {
  std::string module;
  std::string name;  // "lookup", "fill", "L1 data array read", ...
  std::vector<std::string> all_of;
};

// "<array> read" and "<array> write" of an SRAM array of `module`: the cycles
// (per array) in which every term of `enable` holds, with `write` low or high.
inline std::vector<Operation> sram_accesses(const std::string& module, const std::string& array,
                                            std::vector<std::string> enable, const std::string& write) {
  std::vector<std::string> reads = enable, writes = std::move(enable);
  reads.push_back("!" + write);
  writes.push_back(write);
  return {{module, array + " read", reads}, {module, array + " write", writes}};
}

}  // namespace txgen::power
