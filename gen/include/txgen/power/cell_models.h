// Zero-delay Verilog models of a liberty's standard cells for txgen power's
// gate-level replay (docs/power.md): each output's `function`, each `ff` and
// `latch` group as a register that starts at 0, as the Verilated RTL's do
// (the co-simulation resets its context's registers to zero), so every net of
// the netlist is known from the first cycle and compares with the RTL.
#pragma once

#include <string>

namespace txgen::power {

// One module per cell with pins. Throws std::runtime_error naming the cell
// for a construct the models do not cover (a clear or preset other than a pin
// or its negation, a clock other than a pin or its negation).
std::string cell_models_from_liberty(const std::string& liberty_text);

// A liberty boolean function ("(!((A B)+C))") as a Verilog expression.
std::string verilog_expression(const std::string& function);

}  // namespace txgen::power
