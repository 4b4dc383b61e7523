// Lock-step co-simulation of l1tlb_NAME against the golden model
// (docs/blocks/l1tlb.md). The build passes TXGEN_SYS_HEADER / TXGEN_SYS_CLASS,
// TXGEN_COSIM_CONFIG and TXGEN_COSIM_CONFIG_NAME. Every output is compared
// every cycle; the directed tests add explicit expectations for the behaviour
// they are named after (seed 001, 5.1-6.2).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <deque>
#include <functional>
#include <initializer_list>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include TXGEN_SYS_HEADER

#include "cosim_gtest.h"
#include "cosim_util.h"
#include "l1tlb_harness.h"
#include "txgen/config/parse.h"
#include "txgen/elab/l1tlb.h"

namespace {

using txgen::elab::L1tlbParams;
using txgen::verif::CosimSession;
using txgen::verif::expect_passed;
using txgen::verif::Rng;
namespace model = txgen::model;

using Sys = txgen::verif::L1tlbHarness<TXGEN_SYS_CLASS>;

const L1tlbParams& params() {
  static const L1tlbParams p = txgen::elab::elaborate_l1tlb(txgen::config::load_config_file(TXGEN_COSIM_CONFIG));
  return p;
}

std::string test_name() { return txgen::verif::cosim_test_name(TXGEN_COSIM_CONFIG_NAME); }

uint64_t mask(unsigned bits) { return txgen::verif::low_mask(bits); }

// The L2-TLB's answer for a page: a fixed scramble, so every fill of a page
// carries the same translation.
uint64_t ppn_of(uint64_t vpn, uint64_t vmid) {
  uint64_t x = (vpn * 0x9E3779B97F4A7C15ull) ^ (vmid << 7) ^ 0x5bd1e995ull;
  x ^= x >> 29;
  return x & mask(params().ppn_bits);
}
uint64_t perm_of(uint64_t vpn) { return (vpn * 5 + 3) & mask(params().perm_bits); }

// A request of CU u for a page in TLB `home` of its cluster, set `set`,
// with VPN tag `tag`.
uint64_t vpn_at(unsigned home, unsigned set, uint64_t tag) {
  const L1tlbParams& p = params();
  return ((tag << (p.home_bits + p.set_bits)) | (uint64_t{set} << p.home_bits) | home) & mask(p.vpn_bits);
}

// Two misses of one set outstanding in TLB 0 need two MSHRs per CU or a
// second CU in its cluster; the second miss comes from CU 0 again when it
// has two MSHRs, else from CU 1 (which shares CU 0's cluster then).
bool two_misses_fit() { return params().mshrs_per_cu >= 2 || params().cus_per_cluster >= 2; }
constexpr const char* kTwoMissesSkip = "one MSHR and one CU per cluster: two misses of one set cannot be outstanding";
unsigned second_miss_cu() { return params().mshrs_per_cu >= 2 ? 0 : 1; }

struct L2Pending {
  uint64_t tag, vpn, vmid, due;
};

// Drives the block like the CUs and the L2-TLB: requests are held until
// accepted (or replaced when the test says so); the L2 answers every taken
// request after `l2_latency` cycles (one answer per cluster per cycle, the
// oldest due first) unless held.
class Bench {
 public:
  explicit Bench(Sys& sys) : sys_(sys), p_(params()), in_(sys.idle()), q_(p_.clusters) {}

  model::L1tlbIn& in() { return in_; }
  uint64_t cycle() const { return cycle_; }
  const model::L1tlbModel& model() const { return sys_.model(); }

  void reset() {
    in_ = sys_.idle();
    in_.rst_n = false;
    step();
    in_.rst_n = true;
    for (auto& q : q_) q.clear();
  }

  // One cycle: L2 answers, compare, edge; bookkeeping of the handshakes.
  const model::L1tlbOut& step() {
    for (unsigned c = 0; c < p_.clusters; ++c) answer(c);
    const model::L1tlbOut& out = sys_.step(in_);
    for (unsigned u = 0; u < p_.cus; ++u) {
      if (in_.req_valid[u] && out.req_ready[u]) {
        accepted_[u].push_back(cycle_);
        in_.req_valid[u] = 0;
        requested_ids_[{in_.req_vpn[u], in_.req_vmid[u]}].insert(in_.req_iid[u]);
      }
      if (out.resp_valid[u]) hits_[u].push_back({out.resp_vpn[u], out.resp_ppn[u]});
      if (out.fill_valid[u]) fills_[u].push_back({out.fill_vpn[u], out.fill_ppn[u]});
    }
    for (unsigned c = 0; c < p_.clusters; ++c)
      if (out.evict_valid[c]) evicts_[c].push_back(out.evict_vpn[c]);
    for (unsigned c = 0; c < p_.clusters; ++c) {
      if (out.l2_req_valid[c] && in_.l2_req_ready[c]) {
        q_[c].push_back({out.l2_req_tag[c], out.l2_req_vpn[c], out.l2_req_vmid[c], cycle_ + l2_latency});
        ++l2_requests;
        // the ID of a request for that page (the one that allocated the MSHR)
        if (p_.iid_bits && !requested_ids_[{out.l2_req_vpn[c], out.l2_req_vmid[c]}].count(out.l2_req_iid[c]))
          ADD_FAILURE() << "L2 request for VPN " << out.l2_req_vpn[c] << " carries ID " << out.l2_req_iid[c]
                        << ", which no request for that page had";
      }
      in_.l2_resp_valid[c] = 0;
    }
    if (in_.sd_valid && out.sd_ready) in_.sd_valid = false;
    ++cycle_;
    return out;
  }
  void run(unsigned n) {
    for (unsigned i = 0; i < n; ++i) step();
  }
  // Steps until no request is waiting, nothing is outstanding at the L2 and
  // every pipeline has drained (8 quiet cycles counted from the call: steps
  // taken outside drain() may have started a fill).
  void drain() {
    idle_for_ = 0;
    for (unsigned guard = 0; guard < 2000; ++guard) {
      bool busy = in_.sd_valid;
      for (unsigned u = 0; u < p_.cus; ++u) busy |= in_.req_valid[u] != 0;
      for (const auto& q : q_) busy |= !q.empty();
      if (!busy && idle_for_ >= 8) return;
      idle_for_ = busy ? 0 : idle_for_ + 1;
      step();
    }
    throw std::runtime_error("the block did not drain");
  }

  void request(unsigned u, uint64_t vpn, uint64_t vmid = 0) {
    in_.req_valid[u] = 1;
    in_.req_vpn[u] = vpn;
    in_.req_vmid[u] = vmid;
    in_.req_iid[u] = next_iid_++ & txgen::verif::low_mask(p_.iid_bits);  // every request its own instruction
  }
  // CU 0 fills set 0 of its home TLB 0 with the W pages base .. base + W-1,
  // one at a time: page base is then the least recent, base + W-1 the most.
  void fill_set(uint64_t base) {
    for (unsigned w = 0; w < p_.ways; ++w) {
      request(0, vpn_at(0, 0, base + w));
      drain();
    }
  }
  // Each (CU, page) misses in turn and reaches the L2, whose answers are
  // held until all are due (the caller clears hold_l2).
  void misses_held(std::initializer_list<std::pair<unsigned, uint64_t>> misses) {
    hold_l2 = true;
    uint64_t want = l2_requests;
    for (const auto& [u, page] : misses) {
      request(u, page);
      ++want;
      for (unsigned guard = 0; l2_requests < want && guard < 40; ++guard) step();
    }
    run(l2_latency + 1);
  }
  // CU 0 misses on page_a, then second_miss_cu() on page_b, answers held.
  void two_misses_held(uint64_t page_a, uint64_t page_b) { misses_held({{0, page_a}, {second_miss_cu(), page_b}}); }
  void shootdown(bool all, uint64_t vpn = 0, uint64_t vmid = 0) {
    in_.sd_valid = true;
    in_.sd_all = all;
    in_.sd_vpn = vpn;
    in_.sd_vmid = vmid;
  }

  unsigned l2_latency = 6;
  bool hold_l2 = false;  // no answers while set
  uint64_t l2_requests = 0;
  std::map<unsigned, std::vector<uint64_t>> accepted_;                     // per CU: accept cycles
  std::map<unsigned, std::vector<std::pair<uint64_t, uint64_t>>> hits_;   // per CU: (vpn, ppn)
  std::map<unsigned, std::vector<std::pair<uint64_t, uint64_t>>> fills_;  // per CU: (vpn, ppn)
  std::map<unsigned, std::vector<uint64_t>> evicts_;                        // per cluster: evicted vpn

 private:
  void answer(unsigned c) {
    auto& q = q_[c];
    if (hold_l2 || q.empty() || q.front().due > cycle_) return;
    const L2Pending r = q.front();
    q.pop_front();
    in_.l2_resp_valid[c] = 1;
    in_.l2_resp_tag[c] = r.tag;
    in_.l2_resp_ppn[c] = ppn_of(r.vpn, r.vmid);
    in_.l2_resp_perm[c] = perm_of(r.vpn);
  }

  Sys& sys_;
  const L1tlbParams& p_;
  model::L1tlbIn in_;
  std::vector<std::deque<L2Pending>> q_;
  uint64_t cycle_ = 0;
  unsigned idle_for_ = 0;
  uint64_t next_iid_ = 1;
  std::map<std::pair<uint64_t, uint64_t>, std::set<uint64_t>> requested_ids_;  // (vpn, vmid) -> IDs accepted
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

// CU u's translation of (vpn): a fill, then the same request again hits with
// the L2's translation three cycles after it is accepted (four with the input
// buffer).
TEST(L1tlb, HitAfterFill) {
  directed([](CosimSession& s, Bench& b) {
    const uint64_t vpn = vpn_at(0, 0, 5);
    b.request(0, vpn);
    b.drain();
    expect_count(s, "fill responses", 1, b.fills_[0].size());
    expect_count(s, "fill ppn", ppn_of(vpn, 0), b.fills_[0].at(0).second);
    b.request(0, vpn);
    b.step();  // accepted in this cycle (the pipeline is empty)
    const uint64_t accepted = b.accepted_[0].back();
    b.run(params().hit_latency);
    expect_count(s, "hit responses", 1, b.hits_[0].size());
    expect_count(s, "hit ppn", ppn_of(vpn, 0), b.hits_[0].at(0).second);
    expect_count(s, "hit latency", params().hit_latency, b.cycle() - 1 - accepted);
    expect_count(s, "L2 requests", 1, b.l2_requests);
  });
}

// Every CU of cluster 0 misses on one page in the same cycle: one L2 request,
// every CU answered by the one fill (5.2's MSHR hits).
TEST(L1tlb, MshrMergeOfConcurrentMisses) {
  // with one MSHR the credit admits no request while it is pending: no merge
  if (params().mshrs == 1) GTEST_SKIP() << "one MSHR per TLB: nothing can merge";
  directed([](CosimSession& s, Bench& b) {
    const L1tlbParams& p = params();
    const uint64_t vpn = vpn_at(0, 0, 9);
    b.l2_latency = 12;
    for (unsigned u = 0; u < p.cus_per_cluster; ++u) b.request(u, vpn);
    b.drain();
    expect_count(s, "L2 requests", 1, b.l2_requests);
    for (unsigned u = 0; u < p.cus_per_cluster; ++u)
      expect_count(s, ("fill responses of CU " + std::to_string(u)).c_str(), 1, b.fills_[u].size());
  });
}

// With the L2 silent, one CU's distinct misses fill the TLB's MSHRs; the
// credit then holds the next request back until a fill frees an MSHR (with
// the input buffer, once the buffer's two entries are taken too).
TEST(L1tlb, MshrFullBackPressure) {
  directed([](CosimSession& s, Bench& b) {
    const L1tlbParams& p = params();
    const unsigned held = p.mshrs + (p.input_buffer ? 2 : 0);
    b.hold_l2 = true;
    for (unsigned k = 0; k <= held; ++k) {
      b.request(0, vpn_at(0, k % p.sets, 100 + k));
      for (unsigned guard = 0; b.in().req_valid[0] && guard < 20; ++guard) b.step();
    }
    expect_count(s, "requests accepted with the L2 silent", held, b.accepted_[0].size());
    expect_count(s, "request still waiting", 1, b.in().req_valid[0]);
    b.hold_l2 = false;
    b.drain();
    expect_count(s, "requests accepted after the fills", held + 1, b.accepted_[0].size());
  });
}

// Every CU of a cluster requests its home TLB 0 in every cycle (pages already
// filled, so no credit stalls): round-robin grants, no CU waits for more than
// N grants of its TLB (the CUs sharing the crossbar port).
TEST(L1tlb, AllCusRequestAtOnceFairness) {
  // the credit admits at most M requests into the two lookup stages
  if (params().mshrs < 2) GTEST_SKIP() << "fewer than 2 MSHRs: the credit, not the crossbar, spaces the grants";
  directed([](CosimSession& s, Bench& b) {
    const L1tlbParams& p = params();
    const unsigned n = p.cus_per_cluster;
    std::vector<uint64_t> page(n);
    for (unsigned u = 0; u < n; ++u) {
      page[u] = vpn_at(0, u % p.sets, 40 + u);
      b.request(u, page[u]);
    }
    b.drain();
    b.accepted_.clear();
    for (unsigned cycle = 0; cycle < 20 * n; ++cycle) {
      for (unsigned u = 0; u < n; ++u)
        if (!b.in().req_valid[u]) b.request(u, page[u]);
      b.step();
    }
    for (unsigned u = 0; u < n; ++u) {
      const auto& a = b.accepted_[u];
      if (a.size() < 2) s.fail("grants of CU " + std::to_string(u), ">= 2", std::to_string(a.size()));
      for (size_t i = 1; i < a.size(); ++i)
        if (a[i] - a[i - 1] > n)
          s.fail("cycles between grants of CU " + std::to_string(u), "<= " + std::to_string(n),
                 std::to_string(a[i] - a[i - 1]));
    }
  });
}

// A set filled with W pages in order, then its oldest page touched: the next
// fill of that set evicts the second oldest, not the touched one (LRU; the
// PLRU tree also spares the most recently touched way).
TEST(L1tlb, LruVictim) {
  directed([](CosimSession& s, Bench& b) {
    const L1tlbParams& p = params();
    b.fill_set(200);
    b.request(0, vpn_at(0, 0, 200));  // touch the first page: a hit
    b.drain();
    expect_count(s, "L2 requests before the extra fill", p.ways, b.l2_requests);
    b.request(0, vpn_at(0, 0, 200 + p.ways));  // one more page: evicts a victim
    b.drain();
    b.request(0, vpn_at(0, 0, 200));  // the touched page must still hit
    b.drain();
    expect_count(s, "L2 requests (touched page kept)", p.ways + 1, b.l2_requests);
    if (!p.plru()) {
      b.request(0, vpn_at(0, 0, 201));  // LRU: the second page was the victim
      b.drain();
      expect_count(s, "L2 requests (second page evicted)", p.ways + 2, b.l2_requests);
    }
  });
}

// A full set's fill evicts its replacement victim (the `evict_*` port, one
// pulse with the victim's VPN), unless a shootdown removes that victim at the
// very edge of the write: then the write lands on the freed way and nothing is
// evicted. A shootdown of another page at that edge does not change the
// eviction. (The L2 answer and the shootdown are accepted in one cycle, so
// sd2 and f2 share their edge.)
TEST(L1tlb, EvictionAndShootdownAtTheWriteEdge) {
  directed([](CosimSession& s, Bench& b) {
    const L1tlbParams& p = params();
    auto victim_vpn = [&] { return b.model().entry_vpn(0, 0, b.model().victim(0, 0)); };
    auto miss_with_shootdown = [&](uint64_t page, uint64_t shot) {
      b.misses_held({{0, page}});  // the answer is due
      b.hold_l2 = false;            // the L2 answers in the next cycle ...
      b.shootdown(false, shot, 0);  // ... which also accepts the shootdown
      b.drain();
    };
    b.fill_set(400);
    const uint64_t v1 = victim_vpn();
    b.evicts_.clear();
    miss_with_shootdown(vpn_at(0, 0, 400 + p.ways), vpn_at(0, 1 % p.sets, 999));
    expect_count(s, "evictions (another page shot down)", 1, b.evicts_[0].size());
    expect_count(s, "evicted VPN", v1, b.evicts_[0].empty() ? 0 : b.evicts_[0][0]);
    const uint64_t v2 = victim_vpn();
    b.evicts_.clear();
    miss_with_shootdown(vpn_at(0, 0, 400 + p.ways + 1), v2);
    expect_count(s, "evictions (the victim shot down at the write edge)", 0, b.evicts_[0].size());
    expect_count(s, "the shot-down victim is gone", -1, b.model().find(0, v2, 0));
  });
}

// A shootdown of the set's replacement victim one or two cycles before the
// L2 answers two misses of that set in consecutive cycles: the first write
// lands on the freed way (nothing evicted) and the second, at the next edge,
// still gets a way of its own. With lru_touch next_edge (lead 1) the untouch
// lands in the cycle whose write takes the shot way, and that cycle chooses
// the second write's victim: from the order, not from the way just taken.
TEST(L1tlb, ShootdownOfTheVictimBeforeTwoWrites) {
  if (!two_misses_fit()) GTEST_SKIP() << kTwoMissesSkip;
  directed([](CosimSession& s, Bench& b) {
    const L1tlbParams& p = params();
    for (unsigned lead = 1; lead <= 2; ++lead) {
      const uint64_t base = 600 + 100 * lead;
      b.fill_set(base);
      const uint64_t shot = b.model().entry_vpn(0, 0, b.model().victim(0, 0));
      const uint64_t page_a = vpn_at(0, 0, base + p.ways), page_b = vpn_at(0, 0, base + p.ways + 1);
      b.evicts_.clear();
      b.two_misses_held(page_a, page_b);
      b.shootdown(false, shot, 0);
      b.run(lead);  // the shootdown is accepted `lead` cycles before the first answer
      b.hold_l2 = false;
      b.drain();
      expect_count(s, "evictions (the victim shot down before the writes)", 1, b.evicts_[0].size());
      const uint64_t before = b.l2_requests;
      b.request(0, page_a);
      b.drain();
      b.request(0, page_b);
      b.drain();
      expect_count(s, "L2 requests (both fills installed)", before, b.l2_requests);
      s.expect_equal("the shot page is gone", "-1", std::to_string(b.model().find(0, shot, 0)));
    }
  });
}

// Two hits and two fills in one full set, their offsets swept: the way hit
// second (age W-3) was younger than the way hit first (age W-2) and younger
// than the first fill's victim, so at the edge where that fill writes it ages
// by 2 to W-1 while its own touch is still pending (lru_touch next_edge); the
// second fill, at the next edge, then takes the way its pending touch names.
// One offset of the sweep meets that case; the lock-step compare checks all.
TEST(L1tlb, TwoHitsBetweenTwoFillsOfOneSet) {
  if (!two_misses_fit()) GTEST_SKIP() << kTwoMissesSkip;
  if (params().ways < 4) GTEST_SKIP() << "fewer than 4 ways: no way of age W-3 besides the touched ones";
  directed([](CosimSession& s, Bench& b) {
    const L1tlbParams& p = params();
    for (unsigned release = 0; release <= 7; ++release) {
      const uint64_t base = 2000 + (p.ways + 8) * release;  // no page of an earlier round
      b.fill_set(base);
      // ways filled in order: page base + 1 has age W-2, base + 2 age W-3
      const uint64_t first_hit = vpn_at(0, 0, base + 1), second_hit = vpn_at(0, 0, base + 2);
      const uint64_t page_a = vpn_at(0, 0, base + p.ways), page_b = vpn_at(0, 0, base + p.ways + 1);
      b.hits_.clear();
      b.fills_.clear();
      b.two_misses_held(page_a, page_b);
      for (unsigned cyc = 0; cyc < 10; ++cyc) {
        if (cyc == release) b.hold_l2 = false;  // the answers, in consecutive cycles
        if (cyc == 3) b.request(0, first_hit);
        if (cyc == 4) b.request(0, second_hit);
        b.step();
      }
      b.hold_l2 = false;
      b.drain();
      // both misses answered with the L2's translation, the hits with their own
      const auto got = [&](const std::vector<std::pair<uint64_t, uint64_t>>& v, uint64_t vpn) {
        return std::count(v.begin(), v.end(), std::make_pair(vpn, ppn_of(vpn, 0)));
      };
      expect_count(s, "fill responses for the first miss", 1, got(b.fills_[0], page_a));
      expect_count(s, "fill responses for the second miss", 1, got(b.fills_[second_miss_cu()], page_b));
      expect_count(s, "answers for the second hit", 1, got(b.hits_[0], second_hit) + got(b.fills_[0], second_hit));
    }
  });
}

// A shootdown of a page with a pending MSHR: the waiter is still answered,
// nothing is installed, and the next request for the page misses again.
TEST(L1tlb, ShootdownKillsPendingMiss) {
  directed([](CosimSession& s, Bench& b) {
    const uint64_t vpn = vpn_at(0, 0, 77), other = vpn_at(0, 0, 78);
    b.request(0, other);
    b.drain();
    b.l2_latency = 20;
    b.request(0, vpn);
    b.run(6);  // allocated and sent; the L2 answers later
    b.shootdown(false, vpn, 0);
    b.drain();
    expect_count(s, "fill responses for the killed miss", 2, b.fills_[0].size());
    b.request(0, vpn);
    b.drain();
    expect_count(s, "L2 requests (the killed page was not installed)", 3, b.l2_requests);
    b.shootdown(false, other, 0);
    b.drain();
    b.request(0, other);
    b.drain();
    expect_count(s, "L2 requests (the shot-down page misses)", 4, b.l2_requests);
  });
}

// Flush all: every translation of every TLB is gone.
TEST(L1tlb, FlushAll) {
  directed([](CosimSession& s, Bench& b) {
    const L1tlbParams& p = params();
    for (unsigned u = 0; u < p.cus; ++u) b.request(u, vpn_at(u % p.tlbs_per_cluster, 0, 300 + u));
    b.drain();
    const uint64_t before = b.l2_requests;
    b.shootdown(true);
    b.drain();
    for (unsigned u = 0; u < p.cus; ++u) b.request(u, vpn_at(u % p.tlbs_per_cluster, 0, 300 + u));
    b.drain();
    expect_count(s, "L2 requests after the flush", 2 * before, b.l2_requests);
  });
}

// Random traffic. Pages come from a pool shared by every CU (`shared_percent`
// of the requests) and from private pools; requests are replaced or withdrawn
// before acceptance, the L2 answers out of order with back-pressure,
// shootdowns (one page or all) arrive at random, and one reset hits mid-run.
struct Traffic {
  unsigned shared_percent = 70;
  unsigned load_percent = 60;
};

void random_run(CosimSession& s, const Traffic& t, uint64_t seed, uint64_t cycles) {
  const L1tlbParams& p = params();
  Sys sys(s, p);
  Bench b(sys);
  Rng rng(seed);
  const unsigned pool = std::max(4u, p.entries_per_tlb * p.tlbs_per_cluster * 3 / 2);
  std::vector<uint64_t> shared(pool);
  for (auto& v : shared) v = rng.bits(p.vpn_bits);
  auto pick = [&](unsigned u) {
    if (rng.chance(t.shared_percent)) return shared[rng.below(pool)];
    return (shared[rng.below(pool)] ^ (uint64_t{u + 1} << (p.vpn_bits / 2))) & mask(p.vpn_bits);
  };
  b.reset();
  const uint64_t reset_at = cycles / 3 + rng.below(cycles / 3 + 1);
  while (b.cycle() < cycles) {
    if (b.cycle() == reset_at) b.reset();
    for (unsigned u = 0; u < p.cus; ++u) {
      if (rng.chance(t.load_percent) && (!b.in().req_valid[u] || rng.chance(5)))
        b.request(u, pick(u), rng.chance(90) ? 0 : rng.bits(p.vmid_bits));
      else if (b.in().req_valid[u] && rng.chance(3))
        b.in().req_valid[u] = 0;  // withdrawn before acceptance
    }
    for (unsigned c = 0; c < p.clusters; ++c) b.in().l2_req_ready[c] = rng.chance(75);
    b.l2_latency = 2 + static_cast<unsigned>(rng.below(12));
    if (!b.in().sd_valid && rng.chance(1) && rng.chance(20))
      b.shootdown(rng.chance(15), rng.chance(80) ? shared[rng.below(pool)] : rng.bits(p.vpn_bits), 0);
    b.step();
    // No replication inside a cluster: a page lives in one TLB of its cluster.
    if (b.cycle() % 64 == 0) {
      for (unsigned c = 0; c < p.clusters; ++c) {
        std::set<std::pair<uint64_t, uint64_t>> present;
        for (unsigned k = 0; k < p.tlbs_per_cluster; ++k)
          for (unsigned st = 0; st < p.sets; ++st)
            for (unsigned w = 0; w < p.ways; ++w) {
              const unsigned j = c * p.tlbs_per_cluster + k;
              if (!b.model().entry_valid(j, st, w)) continue;
              const auto key = std::make_pair(b.model().entry_vpn(j, st, w), b.model().entry_vmid(j, st, w));
              if (!present.insert(key).second)
                s.fail("page present twice in cluster " + std::to_string(c), "once", "twice");
            }
      }
    }
  }
}

void random_test(const Traffic& t, uint64_t min_cycles) {
  const L1tlbParams& p = params();
  const uint64_t seed = txgen::verif::seed_from_env();
  const uint64_t cycles = std::max<uint64_t>(txgen::verif::cosim_cycles_from_env(), min_cycles);
  const txgen::verif::CosimVerdict v = txgen::verif::run_cosim(
      test_name(), seed, [&](CosimSession& s) { random_run(s, t, seed, cycles); });
  expect_passed(v);
  std::printf("%s: seed %llu (replay: TXGEN_SEED=%llu), %llu cycles, %.2f M cycles/s\n%s", test_name().c_str(),
              static_cast<unsigned long long>(seed), static_cast<unsigned long long>(seed),
              static_cast<unsigned long long>(v.cycles), v.cycles_per_second / 1e6, v.coverage.format().c_str());
  if (!v.passed) return;
  for (const std::string& name : txgen::verif::L1tlbCoverage::required(p))
    EXPECT_GT(v.coverage.count(name), 0u) << "coverage counter " << name << " never hit";
}

TEST(L1tlb, RandomTrafficSharedPages) { random_test(Traffic{70, 60}, 100000); }

TEST(L1tlb, RandomTrafficPrivatePages) { random_test(Traffic{5, 40}, 50000); }

}  // namespace
