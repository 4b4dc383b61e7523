// Number and cell formatting shared by the report tables (synthesis, sweeps):
// Markdown, CSV and JSON show the same digits.
#pragma once

#include <string>

namespace txgen::util {

std::string fixed(double value, int decimals);       // "%.*f", never "-0.000"
double rounded(double value, int decimals);          // the value fixed() prints
std::string with_thousands(double value);            // 1234567.8 -> "1,234,568"
std::string markdown_cell(const std::string& text);  // '|' escaped
std::string csv_cell(const std::string& text);       // quoted when needed (RFC 4180)

}  // namespace txgen::util
