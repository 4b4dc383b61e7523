// One declaration of a co-simulated module's ports (docs/hdl.md, "Port
// declarations"). A block declares the ports of each module its lock-step
// harness drives once, as a port-list macro LIST(IN, OUT, OUT_IF) with entries
//   IN(port, field, bits, count, meaning)
//   OUT(port, field, bits, count, meaning)
//   OUT_IF(port, field, bits, count, valid, meaning)
// `port` is the Verilog name and `field` the golden model's In / Out member
// that carries it. The port is `count` elements of `bits` bits each (count 1:
// a scalar field; element i at [(i+1)*bits-1 : i*bits]), both expressions in
// `p`, the block's elaborated parameters; a port of width 0 does not exist in
// that configuration. An OUT_IF output is defined (and compared) only while
// the 1-bit output `valid` is 1. `meaning` is the port's comment in the RTL and
// its row in the block's doc. clk_i and rst_ni (the model's In::rst_n) come
// first in every module and are not listed.
//
// From one list come the emitter's port handles (txgen/hdl/port_decl.h), the
// harness's drive and compare code (verif/port_bind.h), the SystemC ports
// (verif/sc/block.h) and the doc's port table (port_table, `txgen report
// --ports`); a unit test compares every emitted module with its list.
#pragma once

#include <string>
#include <vector>

namespace txgen::ports {

struct Port {
  std::string name;
  bool output = false;
  unsigned bits = 0, count = 0;          // in this configuration
  std::string valid;                     // OUT_IF: the output that qualifies it
  std::string bits_expr, count_expr;     // as declared, without the `p.`
  std::string meaning;
  unsigned width() const { return bits * count; }
};

// A declared expression as the doc shows it: "p.vpn_bits" -> "vpn_bits".
std::string expression_text(const char* declared);

// The Markdown table of a port list: port, direction, width as declared
// (count x bits), with `bits_here` also the width in this configuration, and
// the meaning (an OUT_IF's with the output it is defined under). Ports of
// width 0 here are listed too: the table is the declaration.
std::string port_table(const std::vector<Port>& ports, bool bits_here = false);

}  // namespace txgen::ports

#define TXGEN_PORT_ROW(port, output, bits, count, valid, meaning)                                      \
  txgen_ports.push_back({#port, output, static_cast<unsigned>(bits), static_cast<unsigned>(count), valid, \
                         ::txgen::ports::expression_text(#bits), ::txgen::ports::expression_text(#count), meaning});
#define TXGEN_PORT_ROW_IN(port, field, bits, count, meaning) TXGEN_PORT_ROW(port, false, bits, count, "", meaning)
#define TXGEN_PORT_ROW_OUT(port, field, bits, count, meaning) TXGEN_PORT_ROW(port, true, bits, count, "", meaning)
#define TXGEN_PORT_ROW_OUT_IF(port, field, bits, count, valid, meaning) \
  TXGEN_PORT_ROW(port, true, bits, count, #valid, meaning)
// An entry that a consumer does not need (one of IN, OUT, OUT_IF).
#define TXGEN_PORT_SKIP(...)

// Defines `std::vector<txgen::ports::Port> NAME(const PARAMS& p)`: the ports of LIST.
#define TXGEN_PORT_LIST_FUNCTION(NAME, PARAMS, LIST)                                     \
  inline std::vector<::txgen::ports::Port> NAME([[maybe_unused]] const PARAMS& p) {     \
    std::vector<::txgen::ports::Port> txgen_ports;                                       \
    LIST(TXGEN_PORT_ROW_IN, TXGEN_PORT_ROW_OUT, TXGEN_PORT_ROW_OUT_IF)                   \
    return txgen_ports;                                                                  \
  }
