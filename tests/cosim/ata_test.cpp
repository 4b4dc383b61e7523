// Lock-step co-simulation of ata_NAME against the golden model
// (docs/blocks/ata.md). The build passes TXGEN_SYS_HEADER / TXGEN_SYS_CLASS,
// TXGEN_COSIM_CONFIG and TXGEN_COSIM_CONFIG_NAME. Every output is compared
// every cycle; the directed tests add explicit expectations for the behaviour
// they are named after (seed 003, III-B, III-C, Fig. 6 and 7).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <deque>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include TXGEN_SYS_HEADER

#include "ata_harness.h"
#include "cosim_gtest.h"
#include "cosim_util.h"
#include "txgen/config/parse.h"
#include "txgen/elab/ata.h"

namespace {

using txgen::elab::AtaParams;
using txgen::verif::CosimSession;
using txgen::verif::expect_passed;
using txgen::verif::Rng;
namespace model = txgen::model;

using Sys = txgen::verif::AtaHarness<TXGEN_SYS_CLASS>;

const AtaParams& params() {
  static const AtaParams p = txgen::elab::elaborate_ata(txgen::config::load_config_file(TXGEN_COSIM_CONFIG));
  return p;
}

std::string test_name() { return txgen::verif::cosim_test_name(TXGEN_COSIM_CONFIG_NAME); }

bool remote_configured() { return params().aggregated() && params().cores > 1; }

// The byte address of sector `sector` of the line (tag, set).
uint64_t line(uint64_t tag, unsigned set, unsigned sector = 0) {
  const AtaParams& p = params();
  const uint64_t a = (tag << (p.offset_bits + p.set_bits)) | (uint64_t{set} << p.offset_bits) |
                     (uint64_t{sector} * p.sector_bytes);
  return a & txgen::verif::low_mask(p.addr_bits);
}

struct Response {
  uint64_t cycle;
  unsigned src;
};
struct Command {
  uint64_t cycle;
  unsigned port, op, core;
};

// Drives the block like the cores and the L2: a request is held until it is
// accepted; the L2 takes a request when `l2_ready` says so and answers every
// read `l2_latency` cycles after its handshake.
class Bench {
 public:
  explicit Bench(Sys& sys) : sys_(sys), p_(params()), in_(sys.idle()), due_(p_.cores) {}

  model::AtaIn& in() { return in_; }
  uint64_t cycle() const { return cycle_; }
  const model::AtaModel& model() const { return sys_.model(); }

  void reset() {
    in_ = sys_.idle();
    in_.rst_n = false;
    step();
    in_.rst_n = true;
    for (auto& d : due_) d.clear();
  }

  const model::AtaOut& step() {
    for (unsigned i = 0; i < p_.cores; ++i) {
      const bool answer = !due_[i].empty() && due_[i].front() <= cycle_;
      in_.l2_resp_valid[i] = answer;
      if (answer) due_[i].pop_front();
    }
    const model::AtaOut& out = sys_.step(in_);
    for (unsigned i = 0; i < p_.cores; ++i) {
      if (in_.req_valid[i] && out.req_ready[i]) {
        accepted.push_back({cycle_, i});
        in_.req_valid[i] = 0;
      }
      if (out.resp_valid[i]) responses[i].push_back({cycle_, out.resp_src[i]});
      if (out.l2_req_valid[i] && in_.l2_req_ready[i] && !out.l2_req_write[i])
        due_[i].push_back(cycle_ + l2_latency);
      if (out.da_valid[i]) commands.push_back({cycle_, i, out.da_op[i], out.da_core[i]});
    }
    ++cycle_;
    return out;
  }
  void run(unsigned n) {
    for (unsigned k = 0; k < n; ++k) step();
  }
  // Steps until every core has been idle, with nothing requested or
  // outstanding, for two cycles (the last response and command are seen).
  void drain() {
    unsigned idle_for = 0;
    for (unsigned guard = 0; guard < 5000; ++guard) {
      bool busy = false;
      for (unsigned i = 0; i < p_.cores; ++i)
        busy |= in_.req_valid[i] || !due_[i].empty() || model().state(i) != model::AtaState::Idle;
      idle_for = busy ? 0 : idle_for + 1;
      if (idle_for >= 2) return;
      step();
    }
    throw std::runtime_error("the block did not drain");
  }
  void request(unsigned core, uint64_t addr, bool write = false) {
    in_.req_valid[core] = 1;
    in_.req_write[core] = write;
    in_.req_addr[core] = addr;
  }
  // One request, run to completion.
  void access(unsigned core, uint64_t addr, bool write = false) {
    request(core, addr, write);
    drain();
  }
  unsigned last_src(unsigned core) const { return responses.at(core).back().src; }

  unsigned l2_latency = 5;
  std::vector<std::pair<uint64_t, unsigned>> accepted;  // (cycle, core)
  std::map<unsigned, std::vector<Response>> responses;
  std::vector<Command> commands;

 private:
  Sys& sys_;
  const AtaParams& p_;
  model::AtaIn in_;
  std::vector<std::deque<uint64_t>> due_;
  uint64_t cycle_ = 0;
};

void directed(const std::function<void(CosimSession&, Bench&)>& body) {
  expect_passed(txgen::verif::run_cosim(test_name(), txgen::verif::seed_from_env(), [&](CosimSession& s) {
    Sys sys(s, params());
    Bench b(sys);
    b.reset();
    body(s, b);
    b.drain();
  }));
}

void expect_count(CosimSession& s, const char* what, uint64_t want, uint64_t got) {
  s.expect_equal(what, std::to_string(want), std::to_string(got));
}

// Fig. 6: two requests compared with both arrays in one cycle, one hitting
// array 0 only ([1,0]) and one hitting both ([1,1]).
TEST(Ata, Fig6TwoRequestsOneCycle) {
  if (!remote_configured()) GTEST_SKIP() << "needs the aggregated compare";
  directed([](CosimSession& s, Bench& b) {
    const unsigned set_b = params().sets > 1 ? 1 : 0;
    b.access(0, line(5, 0));      // A into array 0
    b.access(1, line(6, set_b));  // B into array 1
    b.access(0, line(6, set_b));  // B also into array 0 (remote hit, filled locally)
    b.request(0, line(5, 0));
    b.request(1, line(6, set_b));
    b.run(3);  // accept, CMP, and the DIST cycle
    expect_count(s, "hv of core 0's request (array 0 only)", 0b01, b.model().hv(0) & 0b11);
    expect_count(s, "hv of core 1's request (both arrays)", 0b11, b.model().hv(1) & 0b11);
  });
}

// Fig. 7(a): a local miss that hits a remote array reads it (op 1 on the
// remote port in t+4), fills the local cache (op 3 in t+5) and answers in t+5.
TEST(Ata, RemoteHitFilledLocally) {
  if (!remote_configured()) GTEST_SKIP() << "needs the aggregated compare";
  directed([](CosimSession& s, Bench& b) {
    b.access(1, line(9, 0));
    b.commands.clear();
    b.request(0, line(9, 0));
    b.drain();
    const uint64_t t = b.accepted.back().first;
    expect_count(s, "response source (remote)", model::kAtaSrcRemote, b.last_src(0));
    expect_count(s, "response cycle", t + 5, b.responses[0].back().cycle);
    expect_count(s, "commands", 2, b.commands.size());
    expect_count(s, "remote read on port 1 at t+4", t + 4, b.commands[0].cycle);
    expect_count(s, "remote read op", model::kAtaOpRemoteRead, b.commands[0].op);
    expect_count(s, "fill on port 0 at t+5", t + 5, b.commands[1].cycle);
    expect_count(s, "fill port", 0, b.commands[1].port);
    b.access(0, line(9, 0));
    expect_count(s, "the filled line hits locally", model::kAtaSrcLocal, b.last_src(0));
  });
}

// Fig. 7(b): with the line in both arrays the local one serves.
TEST(Ata, LocalPriority) {
  directed([](CosimSession& s, Bench& b) {
    b.access(0, line(3, 0));
    if (params().cores > 1) b.access(1, line(3, 0));
    b.commands.clear();
    b.access(0, line(3, 0));
    expect_count(s, "response source (local)", model::kAtaSrcLocal, b.last_src(0));
    expect_count(s, "one command (local read)", 1, b.commands.size());
    expect_count(s, "its op", model::kAtaOpLocalRead, b.commands[0].op);
  });
}

// Fig. 7(c): all arrays miss: the L2 request leaves in t+3, the fill follows
// the L2 data and the response comes two cycles after it.
TEST(Ata, AllMissGoesToL2) {
  directed([](CosimSession& s, Bench& b) {
    b.request(0, line(11, 0));
    b.step();
    const uint64_t t = b.accepted.back().first;
    b.run(1);
    expect_count(s, "no L2 request in t+2", 0, b.model().outputs(b.in()).l2_req_valid[0]);
    b.step();
    expect_count(s, "L2 request in t+3", 1, b.model().outputs(b.in()).l2_req_valid[0]);
    b.drain();
    expect_count(s, "response source (L2)", model::kAtaSrcL2, b.last_src(0));
    expect_count(s, "response 2 cycles after the L2 data", t + 3 + b.l2_latency + 2, b.responses[0].back().cycle);
  });
}

// III-C: a remote copy written by its core is not read remotely, both when it
// is dirty at the compare and when it becomes dirty before the remote read.
TEST(Ata, DirtyRemoteGoesToL2) {
  if (!remote_configured()) GTEST_SKIP() << "needs the aggregated compare";
  directed([](CosimSession& s, Bench& b) {
    b.access(1, line(7, 0));
    b.access(1, line(7, 0), true);  // write hit: dirty
    b.access(0, line(7, 0));
    expect_count(s, "dirty at the compare: source L2", model::kAtaSrcL2, b.last_src(0));
    // A line core 1 writes while core 0's remote read waits for its recheck:
    // the write (accepted 2 cycles earlier) marks the line at t+4 of its own.
    b.access(1, line(8, 0));
    b.request(1, line(8, 0), true);
    b.run(2);
    b.request(0, line(8, 0));
    b.drain();
    expect_count(s, "recheck failures on a dirty line", 1, b.model().stats().recheck_fails_dirty);
    expect_count(s, "dirty between compare and read: source L2", model::kAtaSrcL2, b.last_src(0));
  });
}

// III-C: a write is handled by the local cache only: a remote copy still
// serves its own core locally.
TEST(Ata, WriteStaysLocal) {
  directed([](CosimSession& s, Bench& b) {
    const unsigned other = params().cores > 1 ? 1 : 0;
    b.access(0, line(4, 0));
    b.access(other, line(4, 0));
    b.commands.clear();
    b.access(0, line(4, 0), true);
    expect_count(s, "write hit answered from the local array", model::kAtaSrcLocal, b.last_src(0));
    expect_count(s, "one data command (the local write)", 1, b.commands.size());
    expect_count(s, "its op", model::kAtaOpWrite, b.commands[0].op);
    b.access(other, line(4, 0));
    expect_count(s, "the other copy still hits locally", model::kAtaSrcLocal, b.last_src(other));
    b.access(0, line(12, 0), true);
    expect_count(s, "write miss: L2 only", model::kAtaSrcL2, b.last_src(0));
    expect_count(s, "nothing allocated by a write miss", -1, b.model().find(0, line(12, 0)));
  });
}

// Several cores reading one remote array in one cycle, its owner accessing
// it too: round-robin, every requester served within N grants.
TEST(Ata, RemotePortConflictRoundRobin) {
  if (!remote_configured()) GTEST_SKIP() << "needs the aggregated compare";
  directed([](CosimSession& s, Bench& b) {
    const unsigned n = params().cores;
    b.access(0, line(2, 0));
    b.access(0, line(1, 0));
    b.commands.clear();
    for (unsigned i = 1; i < n; ++i) b.request(i, line(2, 0));
    b.request(0, line(1, 0));
    b.drain();
    unsigned on_port0 = 0;
    uint64_t first = ~0ull, last = 0;
    for (const Command& c : b.commands)
      if (c.port == 0 && c.op != model::kAtaOpFill) {
        ++on_port0;
        first = std::min(first, c.cycle);
        last = std::max(last, c.cycle);
      }
    expect_count(s, "reads on port 0 (owner + every remote core)", n, on_port0);
    s.expect_equal("all served in consecutive grants", "<= " + std::to_string(n - 1),
                   last - first <= n - 1 ? "<= " + std::to_string(n - 1) : std::to_string(last - first));
  });
}

// Random traffic: a fraction of the lines is shared by every core (high or
// low inter-core locality), 10 % writes, L2 back-pressure and latency at
// random, requests held until accepted, one reset mid-run.
struct Traffic {
  unsigned shared_percent;
  unsigned load_percent;
  unsigned write_percent;
  bool hot = false;  // enough contention for remote reads to lose their line while waiting
};

void random_run(const Traffic& t, uint64_t seed, uint64_t cycles, CosimSession& s) {
  const AtaParams& p = params();
  Sys sys(s, p);
  Bench b(sys);
  Rng rng(seed);
  const unsigned lines = std::max(8u, p.sets * p.ways * 3 / 2);
  const uint64_t tags = uint64_t{1} << std::min(p.tag_bits, 20u);
  auto pick = [&](unsigned i) {
    const unsigned set = static_cast<unsigned>(rng.below(p.sets)), sec = static_cast<unsigned>(rng.below(p.sectors));
    const uint64_t k = rng.below(lines / p.sets + 1);
    const uint64_t tag = rng.chance(t.shared_percent) ? k : (k + 1 + uint64_t{i + 1} * (lines + 7)) % tags;
    return line(tag, set, sec);
  };
  // A remote read that waited for its port and then lost its line (the
  // owner wrote or replaced it meanwhile): the recheck after the first cycle.
  s.coverage().declare("recheck_fail_after_wait");
  std::vector<unsigned> in_rread(p.cores, 0);
  b.reset();
  const uint64_t reset_at = cycles / 3 + rng.below(cycles / 3 + 1);
  while (b.cycle() < cycles) {
    if (b.cycle() == reset_at) b.reset();
    for (unsigned i = 0; i < p.cores; ++i) {
      if (!b.in().req_valid[i] && rng.chance(t.load_percent)) b.request(i, pick(i), rng.chance(t.write_percent));
      b.in().l2_req_ready[i] = rng.chance(70);
    }
    b.l2_latency = 1 + static_cast<unsigned>(rng.below(10));
    b.step();
    for (unsigned i = 0; i < p.cores; ++i) {
      const model::AtaState st = b.model().state(i);
      if (in_rread[i] >= 2 && st == model::AtaState::L2Req) s.coverage().hit("recheck_fail_after_wait");
      in_rread[i] = st == model::AtaState::RRead ? in_rread[i] + 1 : 0;
    }
  }
}

// `remote_rules`: the traffic shares enough lines to reach every remote rule.
void random_test(const Traffic& t, uint64_t min_cycles, bool remote_rules) {
  const AtaParams& p = params();
  const uint64_t seed = txgen::verif::seed_from_env();
  const uint64_t cycles = std::max<uint64_t>(txgen::verif::cosim_cycles_from_env(), min_cycles);
  const txgen::verif::CosimVerdict v = txgen::verif::run_cosim(
      test_name(), seed, [&](CosimSession& s) { random_run(t, seed, cycles, s); });
  expect_passed(v);
  std::printf("%s: seed %llu (replay: TXGEN_SEED=%llu), %llu cycles, %.2f M cycles/s\n%s", test_name().c_str(),
              static_cast<unsigned long long>(seed), static_cast<unsigned long long>(seed),
              static_cast<unsigned long long>(v.cycles), v.cycles_per_second / 1e6, v.coverage.format().c_str());
  if (!v.passed) return;
  std::vector<std::string> required = txgen::verif::AtaCoverage::required(p, remote_rules);
  if (t.hot && p.aggregated() && p.cores > 2) required.push_back("recheck_fail_after_wait");
  for (const std::string& name : required)
    EXPECT_GT(v.coverage.count(name), 0u) << "coverage counter " << name << " never hit";
}

TEST(Ata, RandomTrafficHighLocality) { random_test(Traffic{80, 50, 10}, 60000, true); }

// Many cores on few hot lines with many writes: remote reads wait for ports
// that their lines' owners are writing.
TEST(Ata, RandomTrafficHotLinesWrites) { random_test(Traffic{95, 90, 30, true}, 60000, true); }

TEST(Ata, RandomTrafficLowLocality) { random_test(Traffic{5, 50, 10}, 30000, false); }

}  // namespace
