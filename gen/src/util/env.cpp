#include "txgen/util/env.h"

#include <cstdlib>

namespace txgen::util {

double env_positive(const char* name, double fallback) {
  const char* v = std::getenv(name);
  const double x = v ? std::atof(v) : 0;
  return x > 0 ? x : fallback;
}

}  // namespace txgen::util
