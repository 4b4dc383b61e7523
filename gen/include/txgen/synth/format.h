// Number and cell formatting shared by the synthesis and QoR reports, so that
// Markdown, CSV and JSON show the same digits.
#pragma once

#include <string>

namespace txgen::synth {

inline constexpr int kAreaDecimals = 1;
inline constexpr int kTimeDecimals = 3;  // ps resolution
inline constexpr int kFo4Decimals = 1;
inline constexpr int kRatioDecimals = 2;

// printf("%.*f") without "-0.000".
std::string fixed(double value, int decimals);
// Rounded so that JSON shows the same digits as the CSV.
double rounded(double value, int decimals);
// 1234567.8 -> "1,234,568"
std::string with_thousands(double value);
std::string markdown_cell(const std::string& text);
std::string csv_cell(const std::string& text);

}  // namespace txgen::synth
