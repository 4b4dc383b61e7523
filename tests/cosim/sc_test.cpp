// SystemC lock-step test of one block (verif/sc/bench.h): the Verilated
// `--sc` model against the golden model's sc_module, every output compared at
// every rising edge, under the block's random environment; then the
// coverage the environment must reach. The build passes TXGEN_SYS_HEADER /
// TXGEN_SYS_CLASS (the Verilated top), TXGEN_SC_ENV_HEADER and TXGEN_SC_SPEC
// (verif/sc/<block>_env.h and its spec), TXGEN_COSIM_CONFIG and
// TXGEN_COSIM_CONFIG_NAME. TXGEN_SEED replays a seed, TXGEN_SC_CYCLES sets
// the length, TXGEN_SC_VCD=NAME writes NAME.vcd of every port.
// SystemC elaborates once per process: one test, own sc_main.
#include <gtest/gtest.h>
#include <systemc.h>

#include <cstdlib>
#include <iostream>
#include <string>

#include TXGEN_SYS_HEADER
#include TXGEN_SC_ENV_HEADER

#include "cosim_util.h"
#include "sc/bench.h"
#include "txgen/config/parse.h"

namespace {

namespace sc = txgen::verif::sc;
using Spec = sc::TXGEN_SC_SPEC;
using Sc = Spec::Sc<TXGEN_SYS_CLASS>;

TEST(SystemC, RandomTraffic) {
  const auto p = Spec::elaborate(txgen::config::load_config_file(TXGEN_COSIM_CONFIG));
  const char* vcd = std::getenv("TXGEN_SC_VCD");
  const sc::BenchOptions options{std::string(TXGEN_COSIM_CONFIG_NAME) + "_SystemC", txgen::verif::seed_from_env(),
                                 sc::sc_cycles_from_env(Spec::kCycles), vcd ? vcd : ""};
  txgen::verif::CoverageCounters counters;
  Spec::Coverage coverage(counters, p);
  Spec::Environment env(p, options.seed, options.cycles);
  const txgen::verif::CosimVerdict v = sc::run_lock_step<Sc>(
      p, options, [&](Sc::In& in, const Sc::Out& last, uint64_t cycle) { env(in, last, cycle); },
      [&](const Sc::In& in, const Sc::Out& last, const Sc::Block::Model& m) { coverage(in, last, m); });
  std::cout << "[cosim] coverage:\n" << counters.format() << std::flush;
  ASSERT_TRUE(v.passed) << v.report;
  EXPECT_EQ(v.cycles, options.cycles) << "the run ended early";
  for (const std::string& name : coverage.required())
    EXPECT_GT(counters.count(name), 0u) << "coverage counter " << name << " never hit";
}

}  // namespace

int sc_main(int argc, char* argv[]) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
