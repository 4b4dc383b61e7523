// The CUs' issue models of `txgen eval` (verif/cu_traffic.h) against
// timelines worked out by hand from the documented rules
// (docs/verification.md, "Replay"), behind a stand-in L1-TLB that takes
// every request at once and answers it a fixed 10 cycles later.
#include <gtest/gtest.h>

#include <map>
#include <vector>

#include "cu_traffic.h"

namespace txgen::verif {
namespace {

constexpr uint64_t kLatency = 10;

struct Replayed {
  uint64_t last_cycle = 0;
  std::vector<std::pair<uint64_t, uint64_t>> presented;  // (cycle, vpn)
};

// Cycle by cycle: the CU's offer is taken, then the answers due are given.
Replayed run(CuTraffic& cu, const trace::Kernel& k, uint64_t max_cycles = 1000) {
  Replayed r;
  std::multimap<uint64_t, uint64_t> due;  // cycle -> vpn
  cu.start(k, 0, 0);
  for (uint64_t t = 0; t < max_cycles && !cu.finished(); ++t) {
    if (const trace::Request* q = cu.offer(t)) {
      r.presented.emplace_back(t, q->vpn);
      due.emplace(t + kLatency, q->vpn);
      cu.accepted(t);
    }
    for (auto [it, end] = due.equal_range(t); it != end; ++it) cu.answered(it->second, t);
    due.erase(t);
    r.last_cycle = t;
  }
  return r;
}

trace::Kernel kernel(std::vector<trace::Request> pages, std::vector<trace::Instruction> instructions,
                     unsigned wavefronts) {
  trace::Kernel k;
  k.wavefronts = wavefronts;
  k.per_cu = {std::move(pages)};
  k.instructions = {std::move(instructions)};
  return k;
}

// Wavefront 0: {A, B} after a 2-instruction gap, then {C} after 1; wavefront
// 1: {D} at once. Two slots.
trace::Kernel two_wavefronts() {
  return kernel({{0xa, 0}, {0xb, 0}, {0xd, 0}, {0xc, 0}}, {{0, 2, 0, 2}, {1, 1, 1, 0}, {0, 1, 2, 1}}, 2);
}

// t=0: wavefront 1 issues {D} (wavefront 0 computes until 2). t=2: wavefront
// 0 issues {A, B}: every resident wavefront waits, stalled from 3. A is
// presented at 2, B at 3. t=10: D returns, wavefront 1 retires. t=12, 13: A,
// B return (latency 11 from the issue, first-to-last 1); ready at 13 + 1 +
// gap 1 = 15: stalled 3..13 (11 cycles). t=15: {C}, stalled 16..25 (10).
TEST(CuTraffic, TwoWavefrontsFollowTheRulesByHand) {
  CuTraffic cu({IssueModel::kWavefront, 4, 0, 1});
  const trace::Kernel k = two_wavefronts();
  const Replayed r = run(cu, k);
  const std::vector<std::pair<uint64_t, uint64_t>> presented = {{0, 0xd}, {2, 0xa}, {3, 0xb}, {15, 0xc}};
  EXPECT_EQ(r.presented, presented);
  EXPECT_TRUE(cu.finished());
  EXPECT_EQ(r.last_cycle, 25u);
  const TrafficFigures& f = cu.figures();
  EXPECT_EQ(f.requests, 4u);
  EXPECT_EQ(f.instructions, 3u);
  EXPECT_EQ(f.instruction_latency, (std::vector<uint64_t>{10, 11, 10}));
  EXPECT_EQ(f.instruction_spread, (std::vector<uint64_t>{0, 1, 0}));
  EXPECT_EQ(f.request_latency, (std::vector<uint64_t>{10, 10, 10, 10}));
  EXPECT_EQ(f.stall_cycles, 21u);
}

// The compute gap scales with the cycles per instruction: wavefront 0's
// first issue moves from 2 to 6.
TEST(CuTraffic, ComputeCyclesScaleTheGaps) {
  CuTraffic cu({IssueModel::kWavefront, 4, 0, 3});
  const Replayed r = run(cu, two_wavefronts());
  ASSERT_GE(r.presented.size(), 2u);
  EXPECT_EQ(r.presented[1], (std::pair<uint64_t, uint64_t>{6, 0xa}));
}

// One slot: wavefront 1 starts only when wavefront 0 has retired (25 + 1).
TEST(CuTraffic, SlotsBoundTheResidentWavefronts) {
  CuTraffic cu({IssueModel::kWavefront, 4, 1, 1});
  const Replayed r = run(cu, two_wavefronts());
  // wavefront 0: {A, B} at 2, 3; back at 13; {C} at 15, back at 25; then {D} at 26
  const std::vector<std::pair<uint64_t, uint64_t>> presented = {{2, 0xa}, {3, 0xb}, {15, 0xc}, {26, 0xd}};
  EXPECT_EQ(r.presented, presented);
  EXPECT_EQ(cu.figures().stall_cycles, (13 - 2) + (25 - 15) + (36 - 26));
}

// Two wavefronts load the same page: the second joins the request in flight
// and completes with it.
TEST(CuTraffic, APageInFlightIsJoinedNotPresentedAgain) {
  CuTraffic cu({IssueModel::kWavefront, 4, 0, 1});
  const Replayed r = run(cu, kernel({{0xa, 0}, {0xa, 0}}, {{0, 1, 0, 0}, {1, 1, 1, 0}}, 2));
  EXPECT_EQ(r.presented.size(), 1u);
  EXPECT_EQ(cu.figures().requests, 1u);
  EXPECT_EQ(cu.figures().instructions, 2u);
  EXPECT_EQ(cu.figures().instruction_latency, (std::vector<uint64_t>{10, 9}));  // issued at 0 and 1
}

// The earlier model: the stream in order, two pages awaited at once.
TEST(CuTraffic, OutstandingModelKeepsItsWindow) {
  CuTraffic cu({IssueModel::kOutstanding, 2, 0, 1});
  const Replayed r = run(cu, kernel({{1, 0}, {2, 0}, {3, 0}, {4, 0}}, {}, 1));
  // A at 0, B at 1; A back at 10 -> C at 11 (B back at 11 after) -> D at 12
  const std::vector<std::pair<uint64_t, uint64_t>> presented = {{0, 1}, {1, 2}, {11, 3}, {12, 4}};
  EXPECT_EQ(r.presented, presented);
  EXPECT_EQ(cu.figures().instructions, 4u);
  EXPECT_EQ(r.last_cycle, 22u);
}

// next_offer says when to look again, so engines can skip the cycles between.
TEST(CuTraffic, NextOfferNamesTheFirstCycleWithARequest) {
  CuTraffic cu({IssueModel::kWavefront, 4, 0, 1});
  const trace::Kernel k = two_wavefronts();
  cu.start(k, 0, 0);
  ASSERT_NE(cu.offer(0), nullptr);  // D
  cu.accepted(0);
  EXPECT_EQ(cu.next_offer(1), 2u);  // wavefront 0's gap
  EXPECT_EQ(cu.offer(1), nullptr);
  ASSERT_NE(cu.offer(2), nullptr);  // A
  cu.accepted(2);
  EXPECT_EQ(cu.next_offer(3), 3u);  // B queued
  ASSERT_NE(cu.offer(3), nullptr);
  cu.accepted(3);
  EXPECT_EQ(cu.next_offer(4), CuTraffic::kNever);  // every wavefront waits
  EXPECT_FALSE(cu.issuing(4));
  EXPECT_TRUE(cu.issuing(2));  // the stall holds from the cycle after the issue (2)
}

// A version-1 kernel (no instructions): one page per instruction of one
// wavefront, so one request at a time, as the outstanding model with a
// window of one.
TEST(CuTraffic, Version1KernelsMatchAWindowOfOne) {
  const trace::Kernel k = kernel({{1, 0}, {2, 0}, {1, 0}, {3, 0}}, {}, 1);
  CuTraffic wave({IssueModel::kWavefront, 4, 0, 1}), one({IssueModel::kOutstanding, 1, 0, 1});
  const Replayed a = run(wave, k), b = run(one, k);
  EXPECT_EQ(a.presented, b.presented);
  EXPECT_EQ(a.last_cycle, b.last_cycle);
  EXPECT_EQ(wave.figures().stall_cycles, one.figures().stall_cycles);
  EXPECT_EQ(wave.figures().request_latency, one.figures().request_latency);
}

}  // namespace
}  // namespace txgen::verif
