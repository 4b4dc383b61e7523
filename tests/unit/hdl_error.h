// Helper of the signal-layer tests: the message of the HdlError a call throws.
#pragma once

#include <string>

#include "txgen/hdl/value.h"

namespace txgen::test {

// The message of the HdlError that f throws ("" when it throws none).
template <typename F>
std::string error_of(F f) {
  try {
    f();
  } catch (const hdl::HdlError& e) {
    return e.what();
  }
  return "";
}

}  // namespace txgen::test
