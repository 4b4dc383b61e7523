// Helpers every golden model uses: parameter checks that throw, and integer
// logarithms. Nothing here decides what a block does in a cycle.
#pragma once

#include <cstdint>
#include <string>

namespace txgen::model {

// require(ok, what): throws std::invalid_argument("<who>: <what>") unless ok.
// `what` is a literal or a string: a literal costs nothing when the check
// passes, and some checks run every cycle.
struct Require {
  const char* who;
  template <class What>
  void operator()(bool ok, const What& what) const {
    if (!ok) fail(what);
  }
  [[noreturn]] void fail(const std::string& what) const;
};

// The smallest n with 2^n >= x (0 for x <= 1).
unsigned ceil_log2(uint64_t x);
// The largest n with 2^n <= x (0 for x <= 1).
unsigned floor_log2(uint64_t x);
bool is_pow2(uint64_t x);

// Accesses of one kind of SRAM macro a model drives (reads and writes; a
// banked array counts each enabled bank), for the evaluation's energy
// (docs/energy.md). Observation only: no register, nothing a cycle reads.
struct SramAccesses {
  uint64_t reads = 0, writes = 0;
  void add(bool write, uint64_t n = 1) { (write ? writes : reads) += n; }
  SramAccesses& operator+=(const SramAccesses& o) {
    reads += o.reads;
    writes += o.writes;
    return *this;
  }
};

}  // namespace txgen::model
