#include "txgen/synth/format.h"

#include <cmath>
#include <cstdio>

namespace txgen::synth {

std::string fixed(double value, int decimals) {
  if (std::fabs(value) < 0.5 * std::pow(10.0, -decimals)) value = 0.0;  // no "-0.000"
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
  return buf;
}

double rounded(double value, int decimals) {
  const double scale = std::pow(10.0, decimals);
  const double r = std::round(value * scale) / scale;
  return r == 0.0 ? 0.0 : r;
}

std::string with_thousands(double value) {
  std::string digits = fixed(std::fabs(value), 0);
  for (int pos = static_cast<int>(digits.size()) - 3; pos > 0; pos -= 3) digits.insert(pos, ",");
  return (value < -0.5 ? "-" : "") + digits;
}

std::string markdown_cell(const std::string& text) {
  std::string out;
  for (char c : text) out += (c == '|') ? std::string("\\|") : std::string(1, c);
  return out;
}

std::string csv_cell(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) out += (c == '"') ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

}  // namespace txgen::synth
