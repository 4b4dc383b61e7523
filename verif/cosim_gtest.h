// GoogleTest glue shared by the co-simulation tests: run names and verdicts.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "cosim_util.h"

namespace txgen::verif {

// "<config>_<test>": names the run, its report and its waveform file.
inline std::string cosim_test_name(const std::string& config_name) {
  return config_name + "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name();
}

inline void expect_passed(const CosimVerdict& verdict) {
  if (!verdict.passed) ADD_FAILURE() << verdict.report;
}

}  // namespace txgen::verif
