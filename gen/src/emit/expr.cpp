#include "txgen/emit/expr.h"

#include "txgen/emit/verilog.h"

namespace txgen::emit {

using std::string;

string field(const string& vec, unsigned i, unsigned width) { return slice(vec, i * width, width); }

string bit_field(const string& vec, unsigned i, unsigned count, unsigned width) {
  return count * width == 1 ? vec : field(vec, i, width);
}

string priority(const Cases& cases, const string& otherwise) {
  string s;
  for (const auto& [cond, value] : cases) s += cond + " ? " + value + " : ";
  return s + otherwise;
}

string or_of(const std::vector<string>& terms, const string& fallback) {
  if (terms.empty()) return fallback;
  string s;
  for (const auto& t : terms) s += (s.empty() ? "" : " | ") + t;
  return "(" + s + ")";
}

string one_of(unsigned width, const string& index) {
  return "(" + concat({sized(width - 1, 0), "1'b1"}) + " << " + index + ")";
}

string onehot_select(const string& onehot, const string& vec, unsigned count, unsigned width) {
  std::vector<string> terms;
  for (unsigned i = 0; i < count; ++i)
    terms.push_back("(" + repeat(width, bit(onehot, i, count)) + " & " + bit_field(vec, i, count, width) + ")");
  return or_of(terms, sized(width, 0));
}

}  // namespace txgen::emit
