// Directed replays through the transaction-level engine of `txgen eval`
// (verif/tx_path_txn.h) and through the golden path model behind the same
// environment: each trace exercises one of the path's flows with one request
// in flight at a time, so where a translation ends up does not depend on
// timing, and both engines must give the counts the flow implies.
//
// tests/configs/tx_path_small.json: 2 CUs on one I-cache, 4-way LRU L1-TLBs,
// a 32-segment LDS of 3 ways per CU (segment = vpn[4:0]), a 32-line I-cache
// (8 sets x 4 ways, line = vpn[4:0], set = vpn[2:0]) with 8 translations per
// line, promotion move.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "model/tx_path.h"
#include "tx_path_env.h"
#include "tx_path_txn.h"
#include "txgen/config/parse.h"
#include "txgen/elab/tx_path.h"

namespace txgen::verif {
namespace {

elab::TxPathParams path_of(const std::string& config) {
  return elab::elaborate_tx_path(config::load_config_file(std::string(TXGEN_SOURCE_DIR) + "/tests/configs/" + config));
}

const elab::TxPathParams& small_path() {
  static const elab::TxPathParams p = path_of("tx_path_small.json");
  return p;
}

EvalOptions one_at_a_time() {
  EvalOptions o;
  o.traffic.model = IssueModel::kOutstanding;
  o.traffic.outstanding = 1;
  o.skip_idle = false;
  return o;
}

// One kernel of CU 0's requests (CU 1 idle), `lds_segments` held by its work
// groups, one line of code (set 0 of the I-cache).
trace::Trace kernel_of(const std::vector<uint64_t>& vpns, unsigned lds_segments) {
  trace::Trace t;
  t.cus = 2;
  t.workload = "directed";
  trace::Kernel k;
  k.code_bytes = 64;
  k.lds_segments = lds_segments;
  k.per_cu.resize(2);
  for (uint64_t v : vpns) k.per_cu[0].push_back({v, 0});
  t.kernels.push_back(k);
  return t;
}

EvalStats replay_model(const trace::Trace& t, bool base, const EvalOptions& o = one_at_a_time()) {
  const elab::TxPathParams& p = small_path();
  PathEnvironment env(p, t, o, base);
  model::TxPathModel m(p, base);
  model::TxPathOut out = m.make_outputs();
  for (uint64_t cycle = 0; !env.done() && cycle < o.max_cycles; cycle = env.next_cycle(cycle, false)) {
    m.step(env.inputs(cycle), out);
    env.observe(cycle, out);
  }
  return env.stats();
}

struct Expected {
  uint64_t lds_hits, icache_hits, l2_requests, l2_victims;
};

void expect_both(const trace::Trace& t, bool base, const Expected& e) {
  const EvalStats txn = replay_transactions(small_path(), t, one_at_a_time(), base);
  const EvalStats model = replay_model(t, base);
  for (const auto& [name, s] : {std::pair<const char*, const EvalStats&>{"txn", txn}, {"model", model}}) {
    SCOPED_TRACE(name);
    EXPECT_TRUE(s.finished);
    EXPECT_EQ(s.requests, t.requests());
    EXPECT_EQ(s.lds_hits, e.lds_hits);
    EXPECT_EQ(s.icache_hits, e.icache_hits);
    EXPECT_EQ(s.l2_requests, e.l2_requests);
    EXPECT_EQ(s.l2_victims, e.l2_victims);
  }
}

// Flow 1-2-4: the L1's LRU victim fills the LDS (its segment idle), and the
// next request for it hits there instead of reaching the L2-TLB.
TEST(TxPathTxn, L1VictimIsFoundInTheLds) {
  const trace::Trace t = kernel_of({0x101, 0x102, 0x103, 0x104, 0x105, 0x101}, 0);
  expect_both(t, false, {1, 0, 5, 0});
  expect_both(t, true, {0, 0, 6, 0});
}

// Flow 1-2-3-6-7-8: every LDS segment held by work groups, so the victim is
// handed on and installed in its I-cache line, where the next request finds it.
TEST(TxPathTxn, AllocatedLdsSendsTheVictimToTheIcache) {
  const trace::Trace t = kernel_of({0x101, 0x102, 0x103, 0x104, 0x105, 0x101}, 32);
  expect_both(t, false, {0, 1, 5, 0});
}

// A promoted translation comes back down the chain: 0x101 evicted to the LDS
// and promoted (0x102 evicted in its place), four new pages push 0x101 out
// again, and both are then found in the LDS.
TEST(TxPathTxn, APromotedTranslationComesBackDownTheChain) {
  const trace::Trace t =
      kernel_of({0x101, 0x102, 0x103, 0x104, 0x105, 0x101, 0x106, 0x107, 0x108, 0x109, 0x101, 0x102}, 0);
  expect_both(t, false, {3, 0, 9, 0});
}

// Flow 1-2-3-6-7-9-10: the victim's I-cache line holds the kernel's code
// (line 0, filled by the first fetch), so it is bypassed to the L2-TLB's
// victim port and the next request for it goes to the L2-TLB.
TEST(TxPathTxn, InstructionLineBypassesTheVictimToTheL2) {
  const trace::Trace t = kernel_of({0x100, 0x102, 0x103, 0x104, 0x105, 0x100}, 32);
  expect_both(t, false, {0, 0, 6, 1});
}

// Seed 000 4.3.3: a kernel launched again (NW's nw_kernel1) is not flushed at
// the boundary, so its code line stays and its second launch's fetch hits;
// flushing every boundary (the replay before 2026-12-02) misses it again.
TEST(TxPathTxn, ARepeatedKernelIsNotFlushed) {
  trace::Trace t = kernel_of({0x101, 0x102}, 0);
  t.kernels.push_back(kernel_of({0x103, 0x104}, 0).kernels[0]);  // the same id, 0
  EvalOptions every = one_at_a_time();
  every.flush_every_kernel = true;
  for (bool base : {false, true}) {
    SCOPED_TRACE(base ? "baseline" : "path");
    EXPECT_EQ(replay_model(t, base).ifetch_misses, 1u);
    EXPECT_EQ(replay_transactions(small_path(), t, one_at_a_time(), base).ifetch_misses, 1u);
    EXPECT_EQ(replay_model(t, base, every).ifetch_misses, 2u);
    EXPECT_EQ(replay_transactions(small_path(), t, every, base).ifetch_misses, 2u);
  }
}

// The what-if of a pipelined lookup stage (tx_path_quad with 100-cycle
// wires): with a CU's misses in flight together (two MSHRs) the next one's
// lookups start while the last one is in its wires, so the replay is
// shorter; where the translations end up is the same.
TEST(TxPathTxn, PipelinedWiresOverlapACusMisses) {
  elab::TxPathParams quad = path_of("tx_path_quad.json");
  quad.wire_lds = quad.wire_icache = 100;
  trace::Trace t = kernel_of({}, 0);
  t.cus = 4;
  t.kernels[0].per_cu.resize(4);
  for (uint64_t v = 0x300; v < 0x340; ++v) t.kernels[0].per_cu[0].push_back({v, 0});
  EvalOptions o;
  o.traffic.model = IssueModel::kOutstanding;  // four pages at once
  const EvalStats blocking = replay_transactions(quad, t, o, false);
  o.pipelined_wires = true;
  const EvalStats pipelined = replay_transactions(quad, t, o, false);
  EXPECT_TRUE(blocking.finished && pipelined.finished);
  EXPECT_EQ(pipelined.l2_requests, blocking.l2_requests);
  EXPECT_LT(pipelined.cycles, blocking.cycles);
  EXPECT_LT(pipelined.latency_mean, blocking.latency_mean);
}

// Pages that are never reused are never found below the L1.
TEST(TxPathTxn, NoReuseNoHitsBelowTheL1) {
  std::vector<uint64_t> vpns;
  for (uint64_t v = 0x200; v < 0x214; ++v) vpns.push_back(v);
  expect_both(kernel_of(vpns, 0), false, {0, 0, 20, 0});
}

// A synthetic trace for the small path's two CUs.
trace::Trace synthetic(trace::Kind kind, uint64_t pages, uint64_t requests_per_cu, unsigned version) {
  trace::GenOptions g;
  g.kind = kind;
  g.cus = 2;
  g.footprint_pages = pages;
  g.max_requests_per_cu = requests_per_cu;
  g.version = version;
  return trace::generate(g);
}

// The wavefront replay with one wavefront and one page per instruction (a
// version-1 trace) is the outstanding replay with a window of one: every
// figure of both engines agrees, on a synthetic ATAX trace of both CUs.
TEST(TxPathReplay, OneWavefrontOnePagePerInstructionIsAWindowOfOne) {
  const trace::Trace t = synthetic(trace::Kind::Atax, 96, 300, 1);
  EvalOptions wave = one_at_a_time();
  wave.traffic.model = IssueModel::kWavefront;
  for (bool base : {false, true}) {
    SCOPED_TRACE(base ? "baseline" : "path");
    const EvalStats a = replay_model(t, base, wave), b = replay_model(t, base);
    const EvalStats c = replay_transactions(small_path(), t, wave, base);
    const EvalStats d = replay_transactions(small_path(), t, one_at_a_time(), base);
    for (const auto& [x, y] : {std::pair<const EvalStats&, const EvalStats&>{a, b}, {c, d}}) {
      EXPECT_TRUE(x.finished && y.finished);
      EXPECT_EQ(x.cycles, y.cycles);
      EXPECT_EQ(x.requests, y.requests);
      EXPECT_EQ(x.l1_hits, y.l1_hits);
      EXPECT_EQ(x.lds_hits, y.lds_hits);
      EXPECT_EQ(x.icache_hits, y.icache_hits);
      EXPECT_EQ(x.l2_requests, y.l2_requests);
      EXPECT_EQ(x.ifetches, y.ifetches);
      EXPECT_EQ(x.latency_p99, y.latency_p99);
      EXPECT_EQ(x.stall_cycles, y.stall_cycles);
      EXPECT_EQ(x.instructions, y.instructions);
    }
  }
}

// Wavefronts overlap their translations: the same pages as divergent
// instructions of several wavefronts finish sooner than one at a time, with
// the same requests reaching the path.
TEST(TxPathReplay, WavefrontsHideLatencyTheWindowOfOneCannot) {
  const trace::Trace t = synthetic(trace::Kind::Gups, 512, 400, 2);
  EvalOptions wave = one_at_a_time();
  wave.traffic.model = IssueModel::kWavefront;
  wave.skip_idle = true;
  EvalOptions one = one_at_a_time();
  one.skip_idle = true;
  const EvalStats a = replay_model(t, false, wave), b = replay_model(t, false, one);
  EXPECT_TRUE(a.finished && b.finished);
  EXPECT_LE(a.requests, b.requests);  // pages joined in flight are not presented again
  EXPECT_LT(a.cycles * 2, b.cycles);
  EXPECT_LT(a.instructions, b.instructions);  // up to 64 pages an instruction
  EXPECT_GT(a.spread_mean, 0.0);
}

}  // namespace
}  // namespace txgen::verif
