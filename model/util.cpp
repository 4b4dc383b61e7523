#include "model/util.h"

#include <stdexcept>

namespace txgen::model {

void Require::fail(const std::string& what) const { throw std::invalid_argument(std::string(who) + ": " + what); }

unsigned ceil_log2(uint64_t x) {
  unsigned n = 0;
  while (n < 64 && (uint64_t{1} << n) < x) ++n;
  return n;
}

unsigned floor_log2(uint64_t x) {
  unsigned n = 0;
  for (; x > 1; x >>= 1) ++n;
  return n;
}

bool is_pow2(uint64_t x) { return x != 0 && (x & (x - 1)) == 0; }

}  // namespace txgen::model
