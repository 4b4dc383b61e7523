// Settings read from the environment.
#pragma once

namespace txgen::util {

// The positive number the variable `name` holds, else `fallback` (unset,
// empty, not a number or not above 0).
double env_positive(const char* name, double fallback);

}  // namespace txgen::util
