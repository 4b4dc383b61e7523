// The shared harness utilities (verif/cosim_util.h) that every co-simulation
// test relies on.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "cosim_util.h"
#include "eval_progress.h"

namespace {

using txgen::verif::Rng;

// Rng::below as first written: the limit's division on every draw. A printed
// seed must keep replaying the same stimulus, so the faster form has to give
// the same numbers from the same stream.
uint64_t below_reference(std::mt19937_64& engine, uint64_t bound) {
  const uint64_t limit = ~uint64_t{0} - (~uint64_t{0} % bound);
  uint64_t draw = engine();
  while (draw >= limit) draw = engine();
  return draw % bound;
}

TEST(Rng, BelowKeepsTheStreamOfTheRejectionDefinition) {
  // small and power-of-two bounds, and bounds near 2^64 whose draws land at or
  // above the limit (2^63 + 1 rejects about half of them)
  const std::vector<uint64_t> bounds = {1, 2, 3, 7, 64, 100, 1000, uint64_t{1} << 40, (uint64_t{1} << 63) + 1,
                                        ~uint64_t{0} - 5, ~uint64_t{0}};
  for (uint64_t seed : {1ull, 42ull, 0xdeadbeefull}) {
    Rng rng(seed);
    std::mt19937_64 reference(seed);
    for (unsigned i = 0; i < 20000; ++i) {
      const uint64_t bound = bounds[i % bounds.size()];
      ASSERT_EQ(rng.below(bound), below_reference(reference, bound)) << "seed " << seed << " draw " << i;
    }
  }
}

TEST(Rng, BelowZeroIsRejected) {
  Rng rng(1);
  EXPECT_THROW(rng.below(0), std::invalid_argument);
}

}  // namespace

// The evaluation's progress line: replayed of all, the share, the rate and
// the time left at that rate (none once everything is replayed).
TEST(EvalProgress, LineStatesCountShareRateAndTimeLeft) {
  EXPECT_EQ(txgen::verif::EvalProgress::line(300000, 1000000, 2.0),
            "300.0 k of 1.00 M requests (30 %), 150.0 k requests/s, 5 s left");
  EXPECT_EQ(txgen::verif::EvalProgress::line(1000000, 600000000, 1.0),
            "1.00 M of 600.00 M requests (0 %), 1.00 M requests/s, 10 min left");
  EXPECT_EQ(txgen::verif::EvalProgress::line(1000000, 10000000000, 1.0),
            "1.00 M of 10000.00 M requests (0 %), 1.00 M requests/s, 2.8 h left");
  EXPECT_EQ(txgen::verif::EvalProgress::line(5998, 5998, 0.5), "5998 of 5998 requests (100 %), 12.0 k requests/s");
  EXPECT_EQ(txgen::verif::EvalProgress::line(0, 5, 0.0), "0 of 5 requests (0 %), 0 requests/s");
}
