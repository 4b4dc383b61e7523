// Switching activity from waveforms (docs/power.md): the inputs and outputs a
// module saw before each rising clock edge of a run, and each net bit's
// transitions, read from FST files.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "txgen/power/fst.h"

namespace txgen::power {

// A port of a mapped netlist's top module.
struct NetlistPort {
  std::string name;
  bool output = false;
  unsigned bits = 1;
};

// The ports of `module` in a Yosys-written netlist, in declaration order.
// Throws std::runtime_error when the module or a port's declaration is missing.
std::vector<NetlistPort> netlist_ports(const std::string& netlist_text, const std::string& module);

// The scopes of `fst` that hold a clk_i and every one of `ports` with its width,
// and declare no port besides them: the instances of a module with those ports.
std::vector<std::string> scopes_with_ports(const FstFile& fst, const std::vector<NetlistPort>& ports);

// Each named signal of `scope` as it was just before each rising edge of the
// scope's clk_i: values[cycle][signal], a string of '0'/'1'/'x' with the most
// significant bit first.
struct EdgeSamples {
  std::vector<std::string> names;
  std::vector<std::vector<std::string>> values;
  std::size_t index(const std::string& name) const;  // throws when absent
};
EdgeSamples sample_before_rising_edges(FstFile& fst, const std::string& scope, const std::vector<std::string>& names);

// Transitions between 0 and 1 of every net bit in `scope` (an unknown value in
// between does not count as a transition, nor does the first known value), by
// bit name ("n", "bus[3]"; an escaped name without its backslash), and the
// rising edges of the scope's clk_i.
struct NetToggles {
  uint64_t cycles = 0;
  std::map<std::string, uint64_t> transitions;
};
NetToggles count_net_toggles(FstFile& fst, const std::string& scope);

// The binary digits of `value` ('x'/'z' as 0) as hexadecimal, most significant first.
std::string bits_to_hex(const std::string& value);

}  // namespace txgen::power
