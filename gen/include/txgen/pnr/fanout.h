// Buffer trees on the ideal nets (clock, reset) of a mapped netlist before
// placement. txgen's synthesis leaves clk_i and rst_ni on their ports, one
// net into every flip-flop: timing treats both as ideal, but qrouter cannot
// route a 680-sink net (ata_n2's clk_i failed for minutes, docs/pnr.md).
#pragma once

#include <string>
#include <vector>

namespace txgen::pnr {

struct IdealNet {
  std::string net;                    // a port: "clk_i"
  std::vector<std::string> pins;      // load pins moved behind the tree: {"CLK"}
  std::string cell, in_pin, out_pin;  // the buffer: CLKBUF1 A Y
};

struct BufferedNetlist {
  std::string verilog;
  unsigned buffers = 0;
};

// Yosys' write_verilog text with each ideal net's loads on `pins` moved behind
// a tree of its buffer cell, at most `group` loads per buffer at every level
// (the port drives at most `group` buffers). Other loads of the net stay on it.
BufferedNetlist buffer_ideal_nets(const std::string& verilog, const std::vector<IdealNet>& nets, unsigned group);

}  // namespace txgen::pnr
