// Lock-step co-simulation of tx_path_NAME_sys and tx_path_NAME_base_sys
// against the golden model (docs/blocks/tx_path.md). The build passes
// TXGEN_SYS_HEADER / TXGEN_SYS_CLASS, TXGEN_BASE_HEADER / TXGEN_BASE_CLASS,
// TXGEN_COSIM_CONFIG and TXGEN_COSIM_CONFIG_NAME. Every output is compared
// every cycle; the directed tests, one per fill flow of seed 000's Fig. 12,
// add expectations on where each victim ends up.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <deque>
#include <functional>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include TXGEN_SYS_HEADER
#include TXGEN_BASE_HEADER

#include "cosim_gtest.h"
#include "cosim_util.h"
#include "tx_path_harness.h"
#include "tx_path_stimulus.h"
#include "txgen/config/parse.h"
#include "txgen/elab/tx_path.h"

namespace {

using txgen::elab::TxPathParams;
using txgen::verif::CosimSession;
using txgen::verif::expect_passed;
using txgen::verif::Rng;
namespace model = txgen::model;

const TxPathParams& params() {
  static const TxPathParams p = txgen::elab::elaborate_tx_path(txgen::config::load_config_file(TXGEN_COSIM_CONFIG));
  return p;
}

std::string test_name() { return txgen::verif::cosim_test_name(TXGEN_COSIM_CONFIG_NAME); }

uint64_t mask(unsigned bits) { return txgen::verif::low_mask(bits); }

// The L2-TLB's translation of a page: a fixed scramble, so every answer for a
// page carries the same translation and a stale or corrupted one shows.
uint64_t ppn_of(uint64_t vpn, uint64_t vmid) {
  uint64_t x = (vpn * 0x9E3779B97F4A7C15ull) ^ (vmid << 11) ^ 0x2545F491ull;
  x ^= x >> 31;
  return x & mask(params().ppn_bits);
}
uint64_t perm_of(uint64_t vpn) { return (vpn * 7 + 1) & mask(params().perm_bits); }

uint64_t vpn_in(unsigned seg, uint64_t tag) { return txgen::verif::path_vpn_in(params(), seg, tag); }

struct L2Pending {
  uint64_t tag, vpn, vmid, due;
};

// Drives the path like its CUs, their dispatchers and fetch units, and the
// L2-TLB: requests are held until accepted; the L2 answers every taken
// request after `l2_latency` cycles (holding an answer until it is taken);
// victims offered to the L2 are recorded.
template <class Sys>
class Bench {
 public:
  Bench(Sys& sys, CosimSession& s) : sys_(sys), s_(s), p_(params()), in_(sys.idle()) {}

  model::TxPathIn& in() { return in_; }
  uint64_t cycle() const { return cycle_; }
  const model::TxPathModel& model() const { return sys_.model(); }

  void reset() {
    in_ = sys_.idle();
    in_.rst_n = false;
    step();
    in_.rst_n = true;
    l2_.clear();
  }

  const model::TxPathOut& step() {
    answer();
    const model::TxPathOut& out = sys_.step(in_);
    for (unsigned u = 0; u < p_.cus; ++u) {
      if (in_.req_valid[u] && out.req_ready[u]) accepted[u].push_back(cycle_);
      if (out.resp_valid[u]) check_translation(out.resp_vpn[u], out.resp_vmid[u], out.resp_ppn[u], out.resp_perm[u]);
      if (out.fill_valid[u]) {
        check_translation(out.fill_vpn[u], out.fill_vmid[u], out.fill_ppn[u], out.fill_perm[u]);
        fills[u].push_back(cycle_);
        fill_vpns[u].push_back(out.fill_vpn[u]);
      }
    }
    txgen::verif::path_cu_side_taken(in_, out, p_);
    if (out.l2_req_valid && in_.l2_req_ready) {
      l2_.push_back({out.l2_req_tag, out.l2_req_vpn, out.l2_req_vmid, cycle_ + l2_latency});
      l2_vpns.push_back(out.l2_req_vpn);
    }
    if (in_.l2_resp_valid && out.l2_resp_ready) {
      l2_.erase(l2_.begin() + static_cast<long>(answering_));
      in_.l2_resp_valid = false;
      ++l2_answers;
    }
    if (out.l2_vic_valid && in_.l2_vic_ready) l2_victims.push_back(out.l2_vic_vpn);
    if (in_.sd_valid && out.sd_ready) {
      in_.sd_valid = false;
      sd_accepted = cycle_;
    }
    if (out.sd_done) ++sd_done;
    ++cycle_;
    return out;
  }
  void run(unsigned n) {
    for (unsigned i = 0; i < n; ++i) step();
  }
  // Steps until nothing waits at an input, the L2 has answered everything and
  // the path has been quiet for a while.
  void drain(unsigned quiet = 40) {
    unsigned idle_for = 0;
    for (unsigned guard = 0; guard < 20000; ++guard) {
      bool busy = in_.sd_valid || !l2_.empty();
      for (unsigned u = 0; u < p_.cus; ++u) busy |= in_.req_valid[u] || in_.wg_valid[u];
      for (unsigned g = 0; g < p_.icaches; ++g) busy |= in_.ifill_valid[g] || in_.flush_valid[g];
      idle_for = busy ? 0 : idle_for + 1;
      if (idle_for >= quiet) return;
      step();
    }
    throw std::runtime_error("the path did not drain");
  }

  void request(unsigned u, uint64_t vpn, uint64_t vmid = 0) {
    in_.req_valid[u] = 1;
    in_.req_vpn[u] = vpn;
    in_.req_vmid[u] = vmid;
  }
  // One request, waited for until its answer.
  void translate(unsigned u, uint64_t vpn, uint64_t vmid = 0) {
    request(u, vpn, vmid);
    drain();
  }
  void work_group(unsigned u, bool free, unsigned base, unsigned size) {
    in_.wg_valid[u] = 1;
    in_.wg_free[u] = free;
    in_.wg_base[u] = base;
    in_.wg_size[u] = size;
    drain();
  }
  // Instructions into every way of I-cache g's set `set` (its lines become IC).
  void instructions_into_set(unsigned g, unsigned set) {
    const auto& ic = p_.ic;
    for (unsigned w = 0; w < ic.ways; ++w) {
      const uint64_t addr = ((uint64_t{w + 1} << (ic.offset_bits + ic.set_bits)) | (uint64_t{set} << ic.offset_bits)) &
                            mask(ic.va_bits);
      in_.ifill_valid[g] = 1;
      in_.ifill_addr[g] = addr;
      in_.ifill_data[g] = txgen::verif::bits_from_u64(ic.line_bits, addr ^ 0x5a5a);
      drain(4);
    }
  }
  void shootdown(bool all, uint64_t vpn = 0, uint64_t vmid = 0) {
    in_.sd_valid = true;
    in_.sd_all = all;
    in_.sd_vpn = vpn;
    in_.sd_vmid = vmid;
  }

  unsigned l2_latency = 8;
  bool hold_l2 = false;
  bool shuffle_l2 = false;  // answer a random due request, not the oldest
  Rng* rng = nullptr;
  std::map<unsigned, std::vector<uint64_t>> accepted, fills, fill_vpns;
  std::vector<uint64_t> l2_vpns, l2_victims;
  uint64_t sd_accepted = 0, sd_done = 0, l2_answers = 0;

 private:
  void answer() {
    in_.l2_resp_valid = false;
    if (hold_l2 || l2_.empty()) return;
    std::vector<size_t> due;
    for (size_t i = 0; i < l2_.size(); ++i)
      if (l2_[i].due <= cycle_) due.push_back(i);
    if (due.empty()) return;
    answering_ = shuffle_l2 && rng ? due[rng->below(due.size())] : due.front();
    const L2Pending& r = l2_[answering_];
    in_.l2_resp_valid = true;
    in_.l2_resp_tag = r.tag;
    in_.l2_resp_ppn = ppn_of(r.vpn, r.vmid);
    in_.l2_resp_perm = perm_of(r.vpn);
  }
  void check_translation(uint64_t vpn, uint64_t vmid, uint64_t ppn, uint64_t perm) {
    if (ppn != ppn_of(vpn, vmid) || perm != perm_of(vpn))
      s_.fail("translation answered to a CU", txgen::verif::to_hex(p_.ppn_bits, ppn_of(vpn, vmid)),
              txgen::verif::to_hex(p_.ppn_bits, ppn), "vpn " + txgen::verif::to_hex(p_.vpn_bits, vpn));
  }

  Sys& sys_;
  CosimSession& s_;
  const TxPathParams& p_;
  model::TxPathIn in_;
  std::deque<L2Pending> l2_;
  size_t answering_ = 0;
  uint64_t cycle_ = 0;
};

using Sys = txgen::verif::TxPathHarness<TXGEN_SYS_CLASS, false>;
using Base = txgen::verif::TxPathHarness<TXGEN_BASE_CLASS, true>;

// A shared L1 cluster: the CUs' L1 pages and victims depend on one another's
// misses, which the private-L1 directed tests below do not expect.
bool shared_l1() { return params().cluster_cus > 1; }

void run_directed(const std::function<void(CosimSession&, Bench<Sys>&)>& body) {
  expect_passed(txgen::verif::run_cosim(test_name(), txgen::verif::seed_from_env(), [&](CosimSession& s) {
    Sys sys(s, params());
    Bench<Sys> b(sys, s);
    b.reset();
    // speculation: an L2 slower than the lookups, so hits below the L1 still promote
    if (params().speculative) b.l2_latency = 200;
    body(s, b);
    b.drain();
  }));
}

// A directed test of CU 0's own L1-TLB (private TLBs only).
void directed(const std::function<void(CosimSession&, Bench<Sys>&)>& body) {
  if (shared_l1()) GTEST_SKIP() << "assumes CU 0's private L1-TLB; the SharedL1 tests cover this configuration";
  run_directed(body);
}

void expect_true(CosimSession& s, const std::string& what, bool ok) {
  if (!ok) s.fail(what, "true", "false");
}
void expect_count(CosimSession& s, const std::string& what, uint64_t want, uint64_t got) {
  s.expect_equal(what, std::to_string(want), std::to_string(got));
}

// The L2-TLB requests that `misses` L1 misses found below the L1 add: none,
// or one each with the speculative request (answered and dropped).
uint64_t speculative(uint64_t misses) { return params().speculative ? misses : 0; }

// CU 0 fills its L1-TLB with W1 pages of one LDS segment and asks for `extra`
// more: the L1 evicts its oldest pages (LRU, or PLRU's first ways), which
// start down the chain. Returns the pages in request order.
std::vector<uint64_t> overflow_l1(Bench<Sys>& b, unsigned seg, unsigned extra, uint64_t first_tag = 1,
                                  uint64_t vmid = 0) {
  std::vector<uint64_t> pages;
  for (unsigned k = 0; k < params().l1.ways + extra; ++k) {
    pages.push_back(vpn_in(seg, first_tag + k));
    b.translate(0, pages.back(), vmid);
  }
  return pages;
}

// The pages no longer in CU 0's L1 (its victims so far).
std::vector<uint64_t> l1_victims(Bench<Sys>& b, const std::vector<uint64_t>& pages, uint64_t vmid = 0) {
  std::vector<uint64_t> v;
  for (uint64_t page : pages)
    if (!b.model().in_l1(0, page, vmid)) v.push_back(page);
  return v;
}

// Looks up every page on CU 0 and expects each to be answered on the path
// (the LDS or the I-cache), none by the L2.
void expect_found_on_path(CosimSession& s, Bench<Sys>& b, const std::vector<uint64_t>& pages, uint64_t vmid) {
  const size_t l2_before = b.l2_vpns.size();
  uint64_t looked_up = 0;
  for (uint64_t page : pages) {
    b.translate(0, page, vmid);
    expect_count(s, "L2 requests after looking up " + txgen::verif::to_hex(params().vpn_bits, page),
                 l2_before + speculative(++looked_up), b.l2_vpns.size());
  }
}

// Fig. 12, 1-2-4: the L1's victim goes into a free way of its LDS segment.
TEST(TxPath, Flow_1_2_4) {
  directed([](CosimSession& s, Bench<Sys>& b) {
    const auto pages = overflow_l1(b, 3, 1);
    const auto victims = l1_victims(b, pages);
    expect_count(s, "L1 victims", 1, victims.size());
    expect_true(s, "victim in the LDS", b.model().in_lds(0, victims.at(0), 0, 0));
    expect_true(s, "victim not in the I-cache", !b.model().in_icache(0, victims.at(0), 0, 0));
  });
}

// Fig. 12, 1-2-4-5-6: the segment's N ways are full, the next victim evicts
// the segment's LRU translation to the I-cache.
TEST(TxPath, Flow_1_2_4_5_6) {
  directed([](CosimSession& s, Bench<Sys>& b) {
    const unsigned n = params().lds.ways;
    const auto pages = overflow_l1(b, 5, n + 1);
    const auto victims = l1_victims(b, pages);
    expect_count(s, "L1 victims", n + 1, victims.size());
    expect_true(s, "oldest victim left the LDS", !b.model().in_lds(0, victims.front(), 0, 0));
    expect_true(s, "oldest victim in the I-cache", b.model().in_icache(0, victims.front(), 0, 0));
    for (size_t k = 1; k < victims.size(); ++k)
      expect_true(s, "newer victim " + std::to_string(k) + " in the LDS", b.model().in_lds(0, victims[k], 0, 0));
  });
}

// Fig. 12, 1-2-3-6: the victim's segment belongs to a work group (LDS mode),
// so the LDS hands it straight on to the I-cache.
TEST(TxPath, Flow_1_2_3_6) {
  directed([](CosimSession& s, Bench<Sys>& b) {
    b.work_group(0, false, 6, 1);
    const auto victims = l1_victims(b, overflow_l1(b, 6, 1));
    expect_count(s, "L1 victims", 1, victims.size());
    expect_true(s, "victim not in the LDS", !b.model().in_lds(0, victims.at(0), 0, 0));
    expect_true(s, "victim in the I-cache", b.model().in_icache(0, victims.at(0), 0, 0));
  });
}

// Fig. 12, 1-2-3-6-7-8: the bypassed victim's I-cache line is free or holds
// translations: installed there, and found there by a later lookup.
TEST(TxPath, Flow_1_2_3_6_7_8) {
  directed([](CosimSession& s, Bench<Sys>& b) {
    b.work_group(0, false, 7, 1);
    const auto victims = l1_victims(b, overflow_l1(b, 7, 1));
    expect_true(s, "victim in the I-cache", b.model().in_icache(0, victims.at(0), 0, 0));
    const size_t l2_before = b.l2_vpns.size();
    b.translate(0, victims.at(0));
    expect_count(s, "L2 requests for the victim (an I-cache hit)", l2_before + speculative(1), b.l2_vpns.size());
  });
}

// Fig. 12, 1-2-3-6-7-8-10-11: the I-cache line is full of translations: the
// installed victim evicts the line's LRU translation to the L2-TLB.
TEST(TxPath, Flow_1_2_3_6_7_8_10_11) {
  directed([](CosimSession& s, Bench<Sys>& b) {
    const unsigned x = params().ic.tx_per_line;
    b.work_group(0, false, 8, 1);
    const auto victims = l1_victims(b, overflow_l1(b, 8, x + 1));
    expect_count(s, "L1 victims", x + 1, victims.size());
    expect_true(s, "the line's LRU translation went to the L2", !b.l2_victims.empty());
    expect_true(s, "the first victim is the one evicted",
                std::find(b.l2_victims.begin(), b.l2_victims.end(), victims.front()) != b.l2_victims.end());
    expect_true(s, "the last victim is in the I-cache", b.model().in_icache(0, victims.back(), 0, 0));
  });
}

// Fig. 12, 1-2-3-6-7-9-10: the I-cache line holds instructions: the victim
// bypasses the I-cache too and leaves the path on the L2 victim port.
TEST(TxPath, Flow_1_2_3_6_7_9_10) {
  directed([](CosimSession& s, Bench<Sys>& b) {
    const unsigned seg = 9;
    b.work_group(0, false, seg, 1);
    b.instructions_into_set(0, seg % params().ic.sets);
    const auto victims = l1_victims(b, overflow_l1(b, seg, 1));
    if (params().ic.variant == txgen::config::IcacheVariant::Naive) {
      // the naive variant replaces the instructions instead (flow 6-7-8)
      expect_true(s, "victim in the I-cache (naive)", b.model().in_icache(0, victims.at(0), 0, 0));
      return;
    }
    expect_count(s, "victims on the L2 port", 1, b.l2_victims.size());
    expect_count(s, "the L1's victim", victims.at(0), b.l2_victims.empty() ? 0 : b.l2_victims[0]);
    expect_true(s, "not in the I-cache", !b.model().in_icache(0, victims.at(0), 0, 0));
  });
}

// An LDS hit is promoted to the L1 (14 cycles after the accept with no wire
// latency); the L1's victim it displaces fills the LDS; with promotion
// `move` the promoted page has left the LDS.
TEST(TxPath, LdsHitPromotedVictimFillsLds) {
  directed([](CosimSession& s, Bench<Sys>& b) {
    const TxPathParams& p = params();
    const auto pages = overflow_l1(b, 10, 1);
    const auto victims = l1_victims(b, pages);
    const uint64_t x = victims.at(0);
    const size_t l2_before = b.l2_vpns.size();
    b.request(0, x);
    b.drain();
    expect_count(s, "L2 requests (an LDS hit)", l2_before + speculative(1), b.l2_vpns.size());
    const uint64_t latency = b.fills[0].back() - b.accepted[0].back();
    expect_count(s, "LDS hit latency", 14 + p.wire_lds, latency);
    expect_true(s, "promoted page in the L1", b.model().in_l1(0, x, 0));
    expect_true(s, "promoted page left the LDS (move) or stayed (copy)", b.model().in_lds(0, x, 0, 0) == !p.move);
    const auto now = l1_victims(b, pages);
    expect_count(s, "one new L1 victim", 1, now.size());
    expect_true(s, "the new victim is in the LDS", b.model().in_lds(0, now.at(0), 0, 0));
  });
}

// n pages of I-cache translation line `line` with VA tags 1 .. n (so one
// compression prefix holds the first 2^value_bits of them); every LDS
// segment they map to goes to a work group, so the L1 hands them straight to
// the I-cache (flow 1-2-3-6).
std::vector<uint64_t> line_pages(Bench<Sys>& b, unsigned line, unsigned n) {
  const TxPathParams& p = params();
  std::vector<uint64_t> pages;
  std::set<uint64_t> segments;
  for (unsigned k = 1; k <= n; ++k) {
    pages.push_back(((uint64_t{k} << p.ic.tx_index_bits) | line) & mask(p.vpn_bits));
    segments.insert(pages.back() & mask(p.lds.segment_index_bits));
  }
  for (uint64_t seg : segments) b.work_group(0, false, static_cast<unsigned>(seg), 1);
  return pages;
}

// n line pages (above) into the line: CU 0 asks for them in order and then
// for a full L1 of pages elsewhere, so they reach the line in request order
// (LRU, and PLRU's sequential fills, evict the oldest first). Returns them in
// that order.
std::vector<uint64_t> into_icache_line(CosimSession& s, Bench<Sys>& b, unsigned line, unsigned n, uint64_t vmid) {
  const std::vector<uint64_t> pages = line_pages(b, line, n);
  for (uint64_t page : pages) b.translate(0, page, vmid);
  for (unsigned k = 0; k < params().l1.ways; ++k) b.translate(0, vpn_in(line + 1, 200 + k), vmid);
  const auto victims = l1_victims(b, pages, vmid);
  expect_count(s, "L1 victims in the line", n, victims.size());
  for (uint64_t page : pages)
    expect_true(s, "victim in the I-cache line", b.model().in_icache(0, page, vmid, 0));
  return pages;
}

// X victims fill one I-cache translation line: a fill inserts at sub-entry 0
// and moves the old sub-entry 0 to the lowest free one, so sub-entry 0 holds
// the newest victim and sub-entry k the k-th. Shooting down sub-entries
// 0 .. X/2 - 1 one by one re-packs the line each time around a higher base
// reference (the lowest valid sub-entry); the upper half must survive every
// re-pack and be found again.
TEST(TxPath, IcacheLineKeepsItsTranslationsWhenTheLowSubEntriesAreShotDown) {
  const unsigned x = params().ic.tx_per_line;
  if (x < 4) GTEST_SKIP() << "needs at least 4 translations per I-cache line, this configuration has " << x;
  directed([x](CosimSession& s, Bench<Sys>& b) {
    const auto pages = into_icache_line(s, b, 13, x, 0);
    std::vector<uint64_t> shot{pages.at(x - 1)};  // sub-entry 0
    for (unsigned k = 1; k < x / 2; ++k) shot.push_back(pages.at(k - 1));
    for (uint64_t page : shot) {
      b.shootdown(false, page, 0);
      b.drain();
    }
    expect_count(s, "shootdowns done", shot.size(), b.sd_done);
    const std::vector<uint64_t> kept(pages.begin() + (x / 2 - 1), pages.end() - 1);
    for (uint64_t page : kept) expect_true(s, "upper sub-entry still in the I-cache", b.model().in_icache(0, page, 0, 0));
    expect_found_on_path(s, b, kept, 0);
  });
}

// A line holding only translations of VMID 1, its top two sub-entries free:
// every translation is found again under its VMID (the compare reads each
// sub-entry's own VMID, not a neighbour's).
TEST(TxPath, IcacheLineOfAnotherVmid) {
  const unsigned x = params().ic.tx_per_line;
  if (x < 4 || params().vmid_bits == 0) GTEST_SKIP() << "needs 4 translations per I-cache line and a VMID";
  directed([x](CosimSession& s, Bench<Sys>& b) {
    const auto pages = into_icache_line(s, b, 14, x - 2, 1);
    // the highest valid sub-entry (x - 3) first, before a promotion changes the line
    std::vector<uint64_t> order{pages.at(x - 4)};
    for (uint64_t page : pages)
      if (page != order.front()) order.push_back(page);
    expect_found_on_path(s, b, order, 1);
  });
}

// The line's recency (ranks) after hits: X + W pages of one line, the first
// X in the line and the last W in the L1. Hits on sub-entries 2, 4 and 5 (in
// that order) promote them (and, with promotion `move`, take them out), and
// the L1's victims they displace come back into the line through its holes,
// the old sub-entry 0 moving to the hole. Then X new pages push every older
// translation out of the line to the L2 in rank order: the lock-step
// comparison of the L2 victim port checks each rank the hits and fills left.
TEST(TxPath, IcacheLineEvictsInRecencyOrderAfterHits) {
  const TxPathParams& p = params();
  const unsigned x = p.ic.tx_per_line, w = p.l1.ways;
  if (x < 6) GTEST_SKIP() << "needs at least 6 translations per I-cache line, this configuration has " << x;
  directed([&](CosimSession& s, Bench<Sys>& b) {
    const std::vector<uint64_t> pages = line_pages(b, 15, 2 * x + w);
    for (unsigned k = 0; k < x + w; ++k) b.translate(0, pages[k]);
    const size_t l2_before = b.l2_vpns.size();
    for (unsigned sub : {2u, 4u, 5u}) b.translate(0, pages.at(sub - 1));
    expect_count(s, "L2 requests for the hits", l2_before + speculative(3), b.l2_vpns.size());
    for (unsigned k = x + w; k < 2 * x + w; ++k) b.translate(0, pages[k]);
    expect_true(s, "translations left the line for the L2", b.l2_victims.size() >= x / 2);
  });
}

// A shootdown racing the victim of the page it names: after sd_done the page
// is nowhere on the path, and no victim of it reaches the L2 after the accept.
TEST(TxPath, ShootdownRacingAFill) {
  directed([](CosimSession& s, Bench<Sys>& b) {
    const TxPathParams& p = params();
    std::vector<uint64_t> pages;
    for (unsigned k = 0; k < p.l1.ways; ++k) {
      pages.push_back(vpn_in(11, 40 + k));
      b.translate(0, pages.back());
    }
    const uint64_t target = pages.front();  // the next victim
    b.request(0, vpn_in(11, 99));
    for (unsigned guard = 0; guard < 200 && b.model().in_l1(0, target, 0); ++guard) b.step();
    b.shootdown(false, target, 0);  // while the victim travels down
    b.drain();
    expect_count(s, "shootdowns done", 1, b.sd_done);
    expect_true(s, "not in the L1", !b.model().in_l1(0, target, 0));
    expect_true(s, "not in the LDS", !b.model().in_lds(0, target, 0, 0));
    for (unsigned g = 0; g < p.icaches; ++g) expect_true(s, "not in the I-cache", !b.model().in_icache(g, target, 0, 0));
    const size_t l2_before = b.l2_vpns.size();
    b.translate(0, target);
    expect_count(s, "L2 requests after the shootdown", l2_before + 1, b.l2_vpns.size());
  });
}

// A work group allocated over segments holding translations drops them: a
// later request goes to the L2.
TEST(TxPath, LdsAllocationDropsTranslationsMidTraffic) {
  directed([](CosimSession& s, Bench<Sys>& b) {
    const auto victims = l1_victims(b, overflow_l1(b, 12, 1));
    expect_true(s, "victim in the LDS", b.model().in_lds(0, victims.at(0), 0, 0));
    b.work_group(0, false, 12, 1);
    expect_true(s, "dropped by the allocation", !b.model().in_lds(0, victims.at(0), 0, 0));
    const size_t l2_before = b.l2_vpns.size();
    b.translate(0, victims.at(0));
    const bool in_ic = b.l2_vpns.size() == l2_before;
    expect_true(s, "served by the I-cache or the L2, never the LDS", in_ic || b.l2_vpns.size() == l2_before + 1);
  });
}

// The non-blocking lookup stage (lookup_slots > 1). CU 0 gets a page `ic`
// found only in the I-cache (its LDS segment held by a work group, so the L1
// handed it on) and a page `lds` found in its LDS; the work group is freed.
struct BelowL1 {
  uint64_t ic = 0, lds = 0;
};
BelowL1 pages_below_l1(CosimSession& s, Bench<Sys>& b) {
  const TxPathParams& p = params();
  BelowL1 x;
  x.ic = into_icache_line(s, b, 3, 1, 0).at(0);
  b.work_group(0, true, static_cast<unsigned>(x.ic & mask(p.lds.segment_index_bits)), 1);
  const auto pages = overflow_l1(b, 10, 1, 60);
  for (uint64_t v : l1_victims(b, pages))
    if (b.model().in_lds(0, v, 0, 0)) x.lds = v;
  expect_true(s, "a page in the I-cache only", b.model().in_icache(0, x.ic, 0, 0) && !b.model().in_lds(0, x.ic, 0, 0));
  expect_true(s, "a page in the LDS", x.lds != 0 && !b.model().in_l1(0, x.lds, 0));
  return x;
}

// Asks CU 0 for `first`, then for `second` as soon as the first is accepted.
void back_to_back(Bench<Sys>& b, uint64_t first, uint64_t second) {
  const size_t before = b.accepted[0].size();
  b.request(0, first);
  for (unsigned guard = 0; guard < 200 && b.accepted[0].size() == before; ++guard) b.step();
  b.request(0, second);
}

// The older miss is found in the I-cache, the younger in the LDS: the younger
// returns first, and neither goes to the L2.
TEST(TxPath, NonBlockingHitsReturnOutOfOrder) {
  if (params().slots == 1) GTEST_SKIP() << "blocking lookup stage";
  directed([](CosimSession& s, Bench<Sys>& b) {
    const BelowL1 x = pages_below_l1(s, b);
    const size_t l2_before = b.l2_vpns.size(), fills_before = b.fill_vpns[0].size();
    back_to_back(b, x.ic, x.lds);
    b.drain();
    expect_count(s, "L2 requests (both found below the L1)", l2_before + speculative(2), b.l2_vpns.size());
    const std::vector<uint64_t> order(b.fill_vpns[0].begin() + static_cast<long>(fills_before), b.fill_vpns[0].end());
    expect_count(s, "answers", 2, order.size());
    expect_true(s, "the LDS hit (younger) answered before the I-cache hit (older)",
                order.size() == 2 && order[0] == x.lds && order[1] == x.ic);
  });
}

// A shootdown of the older miss's page lands while both lookups are below the
// L1, at several offsets: after sd_done the page is nowhere on the path (a
// promotion that found it is killed in the L1's MSHR), the other page was
// answered, and the shot page goes to the L2 again.
TEST(TxPath, ShootdownRacingANonBlockingLookup) {
  if (params().slots == 1) GTEST_SKIP() << "blocking lookup stage";
  for (unsigned offset : {0u, 3u, 7u, 12u, 20u}) {
    directed([offset](CosimSession& s, Bench<Sys>& b) {
      const TxPathParams& p = params();
      const BelowL1 x = pages_below_l1(s, b);
      back_to_back(b, x.ic, x.lds);
      b.run(offset);
      b.shootdown(false, x.ic, 0);
      b.drain();
      expect_count(s, "shootdowns done", 1, b.sd_done);
      expect_true(s, "not in the L1", !b.model().in_l1(0, x.ic, 0));
      for (unsigned g = 0; g < p.icaches; ++g) expect_true(s, "not in the I-cache", !b.model().in_icache(g, x.ic, 0, 0));
      expect_true(s, "not in the LDS", !b.model().in_lds(0, x.ic, 0, 0));
      expect_true(s, "the other page answered", b.model().in_l1(0, x.lds, 0));
      const size_t l2_before = b.l2_vpns.size();
      b.translate(0, x.ic);
      expect_count(s, "L2 requests after the shootdown", l2_before + 1, b.l2_vpns.size());
    });
  }
}

// Speculative L2 request (speculative_l2): CU 0 asks for a page held in its
// LDS; its L2 request leaves beside the lookup. With a slow L2 the LDS hit is
// promoted and the L2's answer, when it comes, is taken and dropped; with a
// fast L2 its answer fills the L1 first and the lookup's hit is discarded
// (with promotion move the page stays in the LDS).
void speculative_lds_page(unsigned l2_latency, bool l2_first) {
  directed([=](CosimSession& s, Bench<Sys>& b) {
    const TxPathParams& p = params();
    const BelowL1 x = pages_below_l1(s, b);
    const size_t l2_before = b.l2_vpns.size(), fills_before = b.fills[0].size();
    const uint64_t answers_before = b.l2_answers;
    b.l2_latency = l2_latency;
    b.request(0, x.lds);
    b.drain();
    expect_count(s, "L2 requests (speculative)", l2_before + 1, b.l2_vpns.size());
    expect_count(s, "L2 answers taken", answers_before + 1, b.l2_answers);
    expect_count(s, "fills to CU 0's L1-TLB", fills_before + 1, b.fills[0].size());
    expect_true(s, "the page in the L1", b.model().in_l1(0, x.lds, 0));
    const uint64_t latency = b.fills[0].back() - b.accepted[0].back();
    if (l2_first) {
      expect_true(s, "answered by the L2 before the LDS hit could return", latency < 14 + p.wire_lds);
      expect_true(s, "the page stays in the LDS (its hit was discarded)", b.model().in_lds(0, x.lds, 0, 0));
    } else {
      expect_count(s, "LDS hit latency", 14 + p.wire_lds, latency);
      expect_true(s, "promotion move took the page out of the LDS", b.model().in_lds(0, x.lds, 0, 0) == !p.move);
    }
  });
}

TEST(TxPath, SpeculativeRequestCancelledByAnLdsHit) {
  if (!params().speculative) GTEST_SKIP() << "no speculative L2 request";
  speculative_lds_page(80 + params().wire_lds, false);
}

TEST(TxPath, SpeculativeAnswerBeforeTheLookupEnds) {
  if (!params().speculative) GTEST_SKIP() << "no speculative L2 request";
  if (params().wire_lds < 4) GTEST_SKIP() << "the L2 cannot overtake the LDS without its wire latency";
  speculative_lds_page(2, true);
}

// Shared L1 cluster ("Aggregated and clustered L1-TLBs"): the pages of one
// set of the TLB that CUs 0 and 1 share, filled by CU 0.
class SharedSet {
 public:
  explicit SharedSet(Bench<Sys>& b) : b_(b) {
    for (unsigned k = 0; k < params().l1.ways; ++k) add(0);
  }
  // CU u misses on a new page of the set; returns the page its fill evicted
  // (none: 0 and `evicted` false).
  uint64_t add(unsigned u) {
    const uint64_t page = vpn_in(2, next_++);  // one segment: one set of the home TLB
    b_.translate(u, page);
    evicted = false;
    uint64_t gone = 0;
    for (auto it = resident_.begin(); it != resident_.end();) {
      if (b_.model().in_l1(u, *it, 0)) {
        ++it;
        continue;
      }
      gone = *it, evicted = true;
      it = resident_.erase(it);
    }
    resident_.push_back(page);
    return gone;
  }
  bool evicted = false;

 private:
  Bench<Sys>& b_;
  uint64_t next_ = 1;
  std::vector<uint64_t> resident_;
};

// CU 1's miss in a set CU 0 filled evicts one of CU 0's pages, which goes down
// CU 1's chain (the filler's), not CU 0's: CU 0's miss on it finds nothing
// below the L1 and asks the L2, while the copy stays in CU 1's LDS.
TEST(TxPath, SharedL1VictimGoesDownTheFillersChain) {
  if (!shared_l1()) GTEST_SKIP() << "private L1-TLBs";
  run_directed([](CosimSession& s, Bench<Sys>& b) {
    SharedSet set(b);
    const uint64_t victim = set.add(1);
    expect_true(s, "CU 1's fill evicted one of CU 0's pages", set.evicted);
    if (!set.evicted) return;
    b.drain();
    expect_true(s, "victim in CU 1's LDS (the filler's)", b.model().in_lds(1, victim, 0, 0));
    expect_true(s, "victim not in CU 0's LDS", !b.model().in_lds(0, victim, 0, 0));
    const size_t l2_before = b.l2_vpns.size();
    b.translate(0, victim);
    expect_count(s, "L2 requests for CU 0's miss on the victim", l2_before + 1, b.l2_vpns.size());
    expect_true(s, "the copy in CU 1's LDS stays", b.model().in_lds(1, victim, 0, 0));
  });
}

// CU 0's victim in CU 0's LDS, CU 1's in CU 1's; both CUs ask for theirs in
// one cycle: both LDSs hit at once, the cluster's L1 input takes one fill per
// cycle, so one promotion waits for the grant; both arrive, none from the L2.
TEST(TxPath, SharedL1TwoPromotionsOneGrant) {
  if (!shared_l1()) GTEST_SKIP() << "private L1-TLBs";
  run_directed([](CosimSession& s, Bench<Sys>& b) {
    SharedSet set(b);
    const uint64_t v0 = set.add(0), v1 = set.add(1);
    expect_true(s, "both fills evicted a page", set.evicted && v0 != v1);
    b.drain();
    expect_true(s, "CU 0's victim in its LDS", b.model().in_lds(0, v0, 0, 0));
    expect_true(s, "CU 1's victim in its LDS", b.model().in_lds(1, v1, 0, 0));
    const size_t fills0 = b.fills[0].size(), fills1 = b.fills[1].size(), l2_before = b.l2_vpns.size();
    b.request(0, v0);
    b.request(1, v1);
    b.drain();
    expect_count(s, "CU 0's fills", fills0 + 1, b.fills[0].size());
    expect_count(s, "CU 1's fills", fills1 + 1, b.fills[1].size());
    expect_count(s, "L2 requests (both found in their LDSs)", l2_before + speculative(2), b.l2_vpns.size());
    if (b.fills[0].size() > fills0 && b.fills[1].size() > fills1)
      expect_true(s, "the two fills in different cycles", b.fills[0].back() != b.fills[1].back());
  });
}

// Random traffic on every interface (tx_path_stimulus.h). Pages come from a
// pool shared by the CUs and per-CU pools; the L2 answers out of order with
// back-pressure on all its ports; work groups come and go; instruction
// fetches, fills and kernel flushes use the I-caches; shootdowns (one page or
// all) and one reset land mid-traffic.
using Traffic = txgen::verif::PathTraffic;

template <class H>
void random_run(CosimSession& s, const Traffic& t, uint64_t seed, uint64_t cycles) {
  const TxPathParams& p = params();
  H sys(s, p);
  Bench<H> b(sys, s);
  Rng rng(seed);
  b.rng = &rng;
  b.shuffle_l2 = true;
  txgen::verif::PathPages pages(p, t, rng);
  const std::vector<uint64_t>& shared = pages.shared();
  const size_t pool = shared.size();
  b.reset();
  const uint64_t reset_at = cycles / 3 + rng.below(cycles / 3 + 1);
  while (b.cycle() < cycles) {
    if (b.cycle() == reset_at) b.reset();
    auto& in = b.in();
    txgen::verif::path_cu_side(in, p, t, rng, pages);
    in.l2_req_ready = rng.chance(80);
    in.l2_vic_ready = rng.chance(70);
    // speculation: answers both before and after the lookups below the L1 end
    b.l2_latency = 3 + static_cast<unsigned>(rng.below(p.speculative ? 60 : 20));
    if (!in.sd_valid && rng.chance(1) && rng.chance(30))
      b.shootdown(rng.chance(10), rng.chance(80) ? shared[rng.below(pool)] : rng.bits(p.vpn_bits), 0);
    b.step();
    // promotion move: no page is in a CU's L1 and its LDS at once, but while
    // the remove of its promotion waits or runs (with the speculative request
    // an L2 answer that beats the lookup fills the L1 and leaves the LDS's copy)
    // (and a shared L1 cluster sends victims down the filler's chain, not the
    // one its next miss looks in: docs/blocks/tx_path.md)
    if (p.move && !p.speculative && p.cluster_cus == 1 && b.cycle() % 32 == 0) {
      for (unsigned u = 0; u < p.cus; ++u)
        for (uint64_t v : shared)
          if (b.model().in_l1(u, v, 0) && b.model().in_lds(u, v, 0, in.vrf[u]) && !b.model().lds_remove_pending(u, v, 0))
            s.fail("page in CU " + std::to_string(u) + "'s L1 and LDS", "once", "twice");
    }
  }
}

// Random cycles: a quarter of TXGEN_COSIM_CYCLES, at least min_cycles (the
// large configurations simulate at about 4 k cycles/s, so this stays small).
uint64_t random_cycles(uint64_t min_cycles) {
  return std::max<uint64_t>(txgen::verif::cosim_cycles_from_env() / 4, min_cycles);
}

// `elsewhere`: a required counter this traffic is not built to reach, which
// another random test of the same configuration requires.
template <class H>
void random_test(const Traffic& t, uint64_t min_cycles, bool base, const std::string& elsewhere = "") {
  const TxPathParams& p = params();
  const uint64_t seed = txgen::verif::seed_from_env();
  const uint64_t cycles = random_cycles(min_cycles);
  const txgen::verif::CosimVerdict v =
      txgen::verif::run_cosim(test_name(), seed, [&](CosimSession& s) { random_run<H>(s, t, seed, cycles); });
  expect_passed(v);
  std::printf("%s: seed %llu (replay: TXGEN_SEED=%llu), %llu cycles, %.3f M cycles/s\n%s", test_name().c_str(),
              static_cast<unsigned long long>(seed), static_cast<unsigned long long>(seed),
              static_cast<unsigned long long>(v.cycles), v.cycles_per_second / 1e6, v.coverage.format().c_str());
  if (!v.passed) return;
  for (const std::string& name : txgen::verif::TxPathCoverage::required(p, base, t.mixed_ids)) {
    if (name != elsewhere) {
      EXPECT_GT(v.coverage.count(name), 0u) << "coverage counter " << name << " never hit";
    }
  }
}

TEST(TxPath, RandomTraffic) { random_test<Sys>(Traffic{}, 20000, false); }

// One virtual function and VMID, half the pages on one LDS segment and
// I-cache line, few instruction fills: the I-cache's shared-id lines fill up
// to their LRU eviction (6-7-8-10-11). So few instruction lines make the
// bypass past one (6-7-9-10) rare here: RandomTraffic requires it.
TEST(TxPath, RandomTrafficSmallPool) {
  random_test<Sys>(Traffic{60, 90, 40, false, 1, 2}, 20000, false, "flow_6_7_9_10");
}

TEST(TxPath, BaselineRandomTraffic) { random_test<Base>(Traffic{}, 10000, true); }

}  // namespace
