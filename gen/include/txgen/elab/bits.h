// Small integer helpers for width derivation.
#pragma once

#include <cstdint>

namespace txgen::elab {

// ceil(log2(n)) for n >= 1; 0 for n == 1.
constexpr unsigned clog2(uint64_t n) {
  unsigned b = 0;
  while ((uint64_t{1} << b) < n) ++b;
  return b;
}

// log2 of a power of two.
constexpr unsigned log2_exact(uint64_t n) { return clog2(n); }

}  // namespace txgen::elab
