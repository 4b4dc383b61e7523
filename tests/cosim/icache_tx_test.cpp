// Lock-step co-simulation of icache_tx_NAME_sys (controller + tag and data
// SRAMs) and icache_tx_NAME_base_sys against the golden model
// (docs/blocks/icache_tx.md). Every output is compared every cycle; directed
// tests add explicit expectations named after the document's rules (section
// 4.3.2, the I-cache part of Fig. 12, the flush, the variants). The build
// passes TXGEN_SYS_HEADER / TXGEN_SYS_CLASS, TXGEN_BASE_HEADER /
// TXGEN_BASE_CLASS, TXGEN_COSIM_CONFIG (path), TXGEN_COSIM_CONFIG_NAME.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include TXGEN_SYS_HEADER
#include TXGEN_BASE_HEADER

#include "cosim_gtest.h"
#include "cosim_util.h"
#include "icache_tx_harness.h"
#include "txgen/config/parse.h"
#include "txgen/elab/icache_tx.h"

namespace {

using txgen::elab::IcacheTxParams;
using txgen::verif::Bits;
using txgen::verif::CosimSession;
using txgen::verif::expect_passed;
using txgen::verif::low_mask;
namespace model = txgen::model;

using Sys = txgen::verif::IcacheHarness<TXGEN_SYS_CLASS>;
using Base = txgen::verif::IcacheHarness<TXGEN_BASE_CLASS, true>;

const IcacheTxParams& params() {
  static const IcacheTxParams p =
      txgen::elab::elaborate_icache_tx(txgen::config::load_config_file(TXGEN_COSIM_CONFIG));
  return p;
}

std::string test_name() { return txgen::verif::cosim_test_name(TXGEN_COSIM_CONFIG_NAME); }
bool aware() { return params().variant == txgen::config::IcacheVariant::Aware; }

struct Translation {
  uint64_t vpn = 0;
  uint32_t vmid = 0, vrf = 0;
  uint64_t ppn = 0, perm = 0;
  std::string text() const { return "vpn " + std::to_string(vpn) + " ppn " + std::to_string(ppn); }
};

// Translation k of direct-mapped line `line`: VA tag k (k >> value bits is the
// compression prefix), data derived from the VPN.
Translation tx(unsigned line, uint64_t k) {
  const IcacheTxParams& p = params();
  Translation t;
  t.vpn = ((k << p.line_index_bits) | line) & low_mask(p.vpn_bits);
  t.ppn = (t.vpn * 2654435761u + 17) & low_mask(p.ppn_bits);
  t.perm = (t.vpn ^ 5) & low_mask(p.perm_bits);
  return t;
}
uint64_t iaddr(unsigned set, uint64_t tag) {
  const IcacheTxParams& p = params();
  return ((tag << (p.offset_bits + p.set_bits)) | (uint64_t{set} << p.offset_bits)) & low_mask(p.va_bits);
}
Bits line_data(uint64_t addr) {
  Bits b(params().line_bits);
  for (unsigned w = 0; w * 64 < b.width; ++w) b.set_field(w * 64, 64, addr * 0x9E3779B97F4A7C15ull + w);
  return b;
}
unsigned line_of(unsigned set, unsigned way) { return way * params().sets + set; }

// Drives one operation at a time on the controller, vic_ready and
// tl_resp_ready high, and records what comes out.
class Driver {
 public:
  explicit Driver(Sys& sys) : sys_(sys), in_(model::IcacheTxIn::idle(params())) {}

  void reset() {
    in_.rst_n = false;
    step();
    in_.rst_n = true;
    step();
  }
  void run(unsigned cycles) {
    for (unsigned i = 0; i < cycles; ++i) step();
  }

  struct Fetch {
    bool hit = false;
    Bits data;
    uint64_t latency = 0;
  };
  Fetch fetch(uint64_t addr) {
    in_.if_valid = true;
    in_.if_addr = addr;
    const uint64_t a = cycle_;
    step();  // if_ready is 1 without a fill
    in_.if_valid = false;
    while (!last_.if_resp_valid) step();
    Fetch f{last_.if_resp_hit, last_.if_resp_data, cycle_ - 1 - a};
    return f;
  }
  void ifill(uint64_t addr) {
    in_.ifill_valid = true;
    in_.ifill_addr = addr;
    in_.ifill_data = line_data(addr);
    until([&] { return last_.ifill_ready; });
    in_.ifill_valid = false;
    run(1);
  }
  void flush() {
    in_.flush_valid = true;
    until([&] { return last_.flush_ready; });
    in_.flush_valid = false;
    run(2);
  }

  struct Lookup {
    bool hit = false;
    uint64_t ppn = 0, perm = 0, latency = 0;
    uint32_t cu = 0;
  };
  Lookup lookup(const Translation& t, unsigned cu = 0) {
    in_.tl_valid[cu] = true;
    in_.tl_vpn[cu] = t.vpn;
    in_.tl_vmid[cu] = t.vmid;
    in_.tl_vrf[cu] = t.vrf;
    until([&] { return bool(last_.tl_ready[cu]); });
    const uint64_t a = cycle_ - 1;
    in_.tl_valid[cu] = false;
    while (!last_.tl_resp_valid) step();
    Lookup r{last_.tl_resp_hit, last_.tl_resp_ppn, last_.tl_resp_perm, cycle_ - 1 - a, last_.tl_resp_cu};
    idle();
    return r;
  }
  // The victims a fill hands out, in order.
  std::vector<Translation> fill(const Translation& t, unsigned cu = 0) {
    victims_.clear();
    in_.tf_valid[cu] = true;
    in_.tf_vpn[cu] = t.vpn;
    in_.tf_vmid[cu] = t.vmid;
    in_.tf_vrf[cu] = t.vrf;
    in_.tf_ppn[cu] = t.ppn;
    in_.tf_perm[cu] = t.perm;
    until([&] { return bool(last_.tf_ready[cu]); });
    in_.tf_valid[cu] = false;
    idle();
    return victims_;
  }
  // A translation fill with an instruction fill offered `after` cycles after
  // its accept cycle.
  std::vector<Translation> fill_with_ifill(const Translation& t, uint64_t addr, unsigned after) {
    victims_.clear();
    in_.tf_valid[0] = true;
    in_.tf_vpn[0] = t.vpn;
    in_.tf_vmid[0] = t.vmid;
    in_.tf_vrf[0] = t.vrf;
    in_.tf_ppn[0] = t.ppn;
    in_.tf_perm[0] = t.perm;
    until([&] { return bool(last_.tf_ready[0]); });
    in_.tf_valid[0] = false;
    run(after - 1);
    in_.ifill_valid = true;
    in_.ifill_addr = addr;
    in_.ifill_data = line_data(addr);
    until([&] { return last_.ifill_ready; });
    in_.ifill_valid = false;
    idle();
    return victims_;
  }
  void shootdown(bool all, const Translation& t = {}) {
    in_.sd_valid = true;
    in_.sd_all = all;
    in_.sd_vpn = t.vpn;
    in_.sd_vmid = t.vmid;
    until([&] { return last_.sd_ready; });
    in_.sd_valid = false;
    while (!last_.sd_done) step();
    idle();
  }

  model::IcacheTxIn& in() { return in_; }
  const Sys& sys() const { return sys_; }
  uint64_t cycle() const { return cycle_; }

 private:
  template <class Ready>
  void until(Ready ready) {
    for (;;) {
      step();
      if (ready()) return;
    }
  }
  void idle() {
    while (!sys_.model().idle() || last_.vic_valid || last_.tl_resp_valid) step();
  }
  void step() {
    in_.vic_ready = true;
    in_.tl_resp_ready = true;
    last_ = sys_.step(in_);
    if (last_.vic_valid)
      victims_.push_back({last_.vic_vpn, last_.vic_vmid, last_.vic_vrf, last_.vic_ppn, last_.vic_perm});
    ++cycle_;
  }

  Sys& sys_;
  model::IcacheTxIn in_;
  model::IcacheTxOut last_;
  std::vector<Translation> victims_;
  uint64_t cycle_ = 0;
};

template <class Body>
void directed(Body body) {
  expect_passed(txgen::verif::run_cosim(test_name(), txgen::verif::seed_from_env(), [&](CosimSession& s) {
    Sys sys(s, params());
    Driver d(sys);
    d.reset();
    body(s, d);
  }));
}

void expect_lookup(CosimSession& s, Driver& d, const Translation& t, bool hit) {
  const auto r = d.lookup(t);
  s.expect_equal("tl_resp_hit_o (test)", hit ? "1" : "0", std::to_string(r.hit), t.text());
  if (hit) s.expect_equal("tl_resp_ppn_o (test)", std::to_string(t.ppn), std::to_string(r.ppn), t.text());
}
void expect_fetch(CosimSession& s, Driver& d, uint64_t addr, bool hit) {
  const auto f = d.fetch(addr);
  s.expect_equal("if_resp_hit_o (test)", hit ? "1" : "0", std::to_string(f.hit), "address " + std::to_string(addr));
  if (hit) s.expect_equal("if_resp_data_o (test)", txgen::verif::to_hex(line_data(addr)), txgen::verif::to_hex(f.data));
}
void expect_victims(CosimSession& s, const std::vector<Translation>& got, const std::vector<Translation>& want) {
  std::string g, w;
  for (const auto& t : got) g += t.text() + "; ";
  for (const auto& t : want) w += t.text() + "; ";
  s.expect_equal("victims (test)", w, g);
}
std::string mode_text(const Driver& d, unsigned line) {
  return std::to_string(static_cast<int>(d.sys().model().mode(line)));
}
void expect_mode(CosimSession& s, const Driver& d, unsigned line, model::IcacheTxModel::Mode m, const char* what) {
  s.expect_equal(what, std::to_string(static_cast<int>(m)), mode_text(d, line));
}

// Fills every way of `set` with instructions (tags 1..A), way w holding tag w + 1.
void fill_set_with_instructions(Driver& d, unsigned set) {
  for (unsigned w = 0; w < params().ways; ++w) d.ifill(iaddr(set, w + 1));
}

constexpr unsigned kSet = 3;

// ---------------------------------------------------------------------------
// Instruction side

TEST(IcacheTx, FetchLatencyTwoCyclesHitAndMiss) {
  directed([](CosimSession& s, Driver& d) {
    const auto miss = d.fetch(iaddr(kSet, 9));
    s.expect_equal("miss latency (test)", "2", std::to_string(miss.latency));
    s.expect_equal("miss (test)", "0", std::to_string(miss.hit));
    d.ifill(iaddr(kSet, 9));
    const auto hit = d.fetch(iaddr(kSet, 9));
    s.expect_equal("hit latency (test)", "2", std::to_string(hit.latency));
    expect_fetch(s, d, iaddr(kSet, 9), true);
  });
}

TEST(IcacheTx, InstructionFillEvictsTxLineRatherThanInstructionLine) {
  if (!aware() || params().ifill_order != txgen::config::IfillOrder::InvalidFirst)
    GTEST_SKIP() << "instruction-aware rule, invalid lines first";
  directed([](CosimSession& s, Driver& d) {
    const Translation t = tx(line_of(kSet, 2), 1);
    expect_victims(s, d.fill(t), {});  // flow 6-7-8 into the free way 2
    for (unsigned w = 1; w < params().ways; ++w) d.ifill(iaddr(kSet, w));  // the other, invalid, ways
    expect_mode(s, d, line_of(kSet, 2), model::IcacheTxModel::Mode::Tx, "way 2 Tx (test)");
    d.ifill(iaddr(kSet, 50));  // no invalid way: the Tx way, not the LRU instruction way 0
    expect_mode(s, d, line_of(kSet, 2), model::IcacheTxModel::Mode::Ic, "way 2 now IC (test)");
    for (unsigned w = 1; w < params().ways; ++w) expect_fetch(s, d, iaddr(kSet, w), true);
    expect_fetch(s, d, iaddr(kSet, 50), true);
    expect_lookup(s, d, t, false);
  });
}

TEST(IcacheTx, TxFirstOrderTakesTheTxLineBeforeAnInvalidOne) {
  if (!aware() || params().ifill_order != txgen::config::IfillOrder::TxFirst) GTEST_SKIP() << "tx_first order";
  directed([](CosimSession& s, Driver& d) {
    const Translation t = tx(line_of(kSet, 2), 1);
    expect_victims(s, d.fill(t), {});
    d.ifill(iaddr(kSet, 1));  // invalid ways exist, the Tx way goes first
    expect_mode(s, d, line_of(kSet, 2), model::IcacheTxModel::Mode::Ic, "way 2 IC (test)");
    expect_lookup(s, d, t, false);
  });
}

// An instruction fill lands on the line a translation fill has read (in DEC):
// the write is cancelled and the translation is handed out.
TEST(IcacheTx, InstructionFillCancelsTheTranslationWrite) {
  if (!aware() || params().ifill_order != txgen::config::IfillOrder::InvalidFirst)
    GTEST_SKIP() << "instruction-aware rule, invalid lines first";
  directed([](CosimSession& s, Driver& d) {
    const Translation t = tx(line_of(kSet, 2), 1), u = tx(line_of(kSet, 2), 2);
    expect_victims(s, d.fill(t), {});
    for (unsigned w = 1; w < params().ways; ++w) d.ifill(iaddr(kSet, w));
    const auto victims = d.fill_with_ifill(u, iaddr(kSet, 50), 2);  // ifill in A + 2 (DEC)
    expect_victims(s, victims, {u});
    expect_mode(s, d, line_of(kSet, 2), model::IcacheTxModel::Mode::Ic, "way 2 IC (test)");
    expect_fetch(s, d, iaddr(kSet, 50), true);
    expect_lookup(s, d, u, false);
  });
}

TEST(IcacheTx, InstructionFillWithNoTxLineTakesLruInstructionLine) {
  directed([](CosimSession& s, Driver& d) {
    fill_set_with_instructions(d, kSet);
    expect_fetch(s, d, iaddr(kSet, 1), true);  // way 0 most recent: way 1 is the LRU
    d.ifill(iaddr(kSet, 60));
    expect_fetch(s, d, iaddr(kSet, 2), false);
    expect_fetch(s, d, iaddr(kSet, 1), true);
    expect_fetch(s, d, iaddr(kSet, 60), true);
  });
}

// ---------------------------------------------------------------------------
// Translation fills: the I-cache part of Fig. 12

TEST(IcacheTx, Flow_6_7_8_FillIntoInvalidLine) {
  directed([](CosimSession& s, Driver& d) {
    const Translation t = tx(line_of(kSet, 1), 3);
    expect_victims(s, d.fill(t), {});
    expect_mode(s, d, line_of(kSet, 1), model::IcacheTxModel::Mode::Tx, "line Tx (test)");
    const auto r = d.lookup(t);
    s.expect_equal("lookup hit latency (test)", "5", std::to_string(r.latency),
                   "accept, read, DEC, CMP group 0, its evaluation");
    expect_lookup(s, d, t, true);
    const auto miss = d.lookup(tx(line_of(kSet + 1, 1), 3));
    s.expect_equal("lookup latency, line not Tx (test)", "2", std::to_string(miss.latency));
  });
}

TEST(IcacheTx, Flow_6_7_9_10_FillIntoInstructionLineBypassed) {
  if (!aware()) GTEST_SKIP() << "instruction-aware rule";
  directed([](CosimSession& s, Driver& d) {
    fill_set_with_instructions(d, kSet);
    const Translation t = tx(line_of(kSet, 0), 4);
    expect_victims(s, d.fill(t), {t});
    expect_lookup(s, d, t, false);
    expect_fetch(s, d, iaddr(kSet, 1), true);
  });
}

TEST(IcacheTx, NaiveVariantReplacesInstructions) {
  if (aware()) GTEST_SKIP() << "naive variant";
  directed([](CosimSession& s, Driver& d) {
    fill_set_with_instructions(d, kSet);
    const Translation t = tx(line_of(kSet, 0), 4);
    expect_victims(s, d.fill(t), {});
    expect_lookup(s, d, t, true);
    expect_fetch(s, d, iaddr(kSet, 1), false);  // its instructions are gone
  });
}

// The engine's lookup-hit touch (pending one edge), a fetch hit's touch (I2)
// and an instruction fill's touch land on one set at one edge: engine first,
// fetch, fill last. The naive variant's fills take the plain LRU way, so the
// fills after it expose the order through the SRAM ports in lock step.
TEST(IcacheTx, TouchesOfOneEdgeEngineThenFetchThenFill) {
  if (aware()) GTEST_SKIP() << "naive variant: every way competes for the LRU";
  directed([](CosimSession& s, Driver& d) {
    const IcacheTxParams& p = params();
    const Translation t = tx(line_of(kSet, 0), 5);
    expect_victims(s, d.fill(t), {});  // way 0 Tx; recency 1, 2, .., A-1, 0 (least recent first)
    for (unsigned w = 1; w < p.ways; ++w) d.ifill(iaddr(kSet, w));  // tag w into way w: 0, 1, .., A-1
    expect_lookup(s, d, t, true);      // 1, .., A-1, 0
    auto& in = d.in();
    in.tl_valid[0] = true;  // A: the lookup is accepted (engine idle)
    in.tl_vpn[0] = t.vpn;
    in.tl_vmid[0] = t.vmid;
    in.tl_vrf[0] = t.vrf;
    d.run(1);
    in.tl_valid[0] = false;
    d.run(2);                          // A + 1 read, A + 2 DEC
    in.if_valid = true;                // A + 3: fetch I0 (CMP group 0), tag 2 in way 2
    in.if_addr = iaddr(kSet, 2);
    in.ifill_valid = true;             // and fill F0
    in.ifill_addr = iaddr(kSet, 40);
    in.ifill_data = line_data(in.ifill_addr);
    d.run(1);
    in.if_valid = false;
    d.run(2);                          // A + 4: evaluation, F1 takes the LRU way 1; A + 5: I2, fill accepted
    in.ifill_valid = false;
    const std::vector<unsigned> order = d.sys().model().recency(kSet);
    std::string newest;
    for (unsigned i = p.ways - 3; i < p.ways; ++i) newest += std::to_string(order[i]) + " ";
    s.expect_equal("three most recent ways, oldest first (test)", "0 2 1 ", newest,
                   "the engine's way 0, the fetch's way 2, the fill's way 1");
    for (unsigned k = 0; k < p.ways; ++k) d.ifill(iaddr(kSet, 41 + k));  // the LRU order, on the ports
  });
}

TEST(IcacheTx, Flow_6_7_8_10_11_FillEvictsLruSubEntry) {
  directed([](CosimSession& s, Driver& d) {
    const unsigned x = params().tx_per_line, line = line_of(kSet, 1);
    std::vector<Translation> sub;
    for (unsigned i = 0; i < x; ++i) {
      sub.push_back(tx(line, 32 + i));
      expect_victims(s, d.fill(sub.back()), {});
    }
    if (x > 1) expect_lookup(s, d, sub[0], true);  // sub[0] most recent; sub[1] the LRU
    const Translation extra = tx(line, 32 + x);
    expect_victims(s, d.fill(extra), {sub[x > 1 ? 1 : 0]});
    expect_lookup(s, d, extra, true);
    expect_lookup(s, d, sub[x > 1 ? 1 : 0], false);
  });
}

TEST(IcacheTx, CompressionFailureEvictsWhatDoesNotFit) {
  if (!params().packed()) GTEST_SKIP() << "one translation per line: no compression";
  directed([](CosimSession& s, Driver& d) {
    const unsigned line = line_of(kSet, 1);
    const Translation a = tx(line, 32), b = tx(line, 33), far = tx(line, 32 + 256);
    expect_victims(s, d.fill(a), {});
    expect_victims(s, d.fill(b), {});
    // far is the reference in slot 0; a sits in slot 1, b (moved out of slot 0) in slot 2
    expect_victims(s, d.fill(far), {a, b});
    expect_lookup(s, d, far, true);
    expect_lookup(s, d, a, false);
  });
}

// ---------------------------------------------------------------------------
// Flush, shootdown, sharing, port priority

TEST(IcacheTx, KernelFlush) {
  directed([](CosimSession& s, Driver& d) {
    for (unsigned w = 0; w < 2; ++w) d.ifill(iaddr(kSet, w + 1));
    const Translation t = tx(line_of(kSet, 3), 5);
    expect_victims(s, d.fill(t), {});
    d.flush();
    expect_fetch(s, d, iaddr(kSet, 1), false);
    expect_lookup(s, d, t, params().kernel_flush);  // the option keeps Tx-mode lines
  });
}

TEST(IcacheTx, ShootdownByVpnAnyVrfAndAll) {
  directed([](CosimSession& s, Driver& d) {
    const unsigned line = line_of(kSet, 1);
    Translation a = tx(line, 40), b = tx(line + 1, 41);
    a.vrf = 1;
    expect_victims(s, d.fill(a), {});
    expect_victims(s, d.fill(b), {});
    d.shootdown(false, {a.vpn, a.vmid, 0, 0, 0});  // any VRF-ID
    expect_lookup(s, d, a, false);
    expect_mode(s, d, line, model::IcacheTxModel::Mode::Invalid, "emptied line Invalid (test)");
    expect_lookup(s, d, b, true);
    d.shootdown(true);
    expect_lookup(s, d, b, false);
  });
}

TEST(IcacheTx, RoundRobinAmongCus) {
  if (params().sharers < 2) GTEST_SKIP() << "one CU";
  directed([](CosimSession& s, Driver& d) {
    const unsigned n = params().sharers;
    model::IcacheTxIn& in = d.in();
    for (unsigned c = 0; c < n; ++c) {
      in.tl_valid[c] = true;
      in.tl_vpn[c] = tx(line_of(kSet, 0), 70 + c).vpn;
    }
    std::string order;
    for (unsigned cycle = 0; cycle < 12 * n && order.size() < n; ++cycle) {
      const model::IcacheTxOut o = d.sys().model().outputs(in);
      d.run(1);
      for (unsigned c = 0; c < n; ++c)
        if (o.tl_ready[c] && in.tl_valid[c]) {
          order += std::to_string(c);
          in.tl_valid[c] = false;
        }
    }
    std::string want;
    for (unsigned c = 0; c < n; ++c) want += std::to_string(c);
    s.expect_equal("grant order (test)", want, order);
  });
}

TEST(IcacheTx, InstructionFetchNeverWaitsForTranslations) {
  directed([](CosimSession& s, Driver& d) {
    const Translation t = tx(line_of(kSet, 1), 6);
    d.fill(t);
    d.ifill(iaddr(kSet + 1, 7));
    model::IcacheTxIn& in = d.in();
    in.tl_valid[0] = true;
    in.tl_vpn[0] = t.vpn;
    unsigned responses = 0, not_ready = 0;
    for (unsigned i = 0; i < 40; ++i) {  // a fetch every cycle: the engine never gets the port
      in.if_valid = true;
      in.if_addr = iaddr(kSet + 1, 7);
      const model::IcacheTxOut o = d.sys().model().outputs(in);
      not_ready += !o.if_ready;
      responses += o.if_resp_valid && o.if_resp_hit;
      d.run(1);
    }
    s.expect_equal("if_ready_o low under translation traffic (test)", "0", std::to_string(not_ready));
    s.expect_equal("fetch hits answered (test)", "38", std::to_string(responses));
    in.if_valid = false;
    in.tl_valid[0] = false;
    d.run(20);
  });
}

// ---------------------------------------------------------------------------
// Constrained random: instruction fetches and fills over a few hot sets,
// translation lookups/fills from every CU over a pool of VPNs that share or
// differ in their compression prefix, shootdowns, flushes (kernel switches),
// back-pressure and one reset. Coverage per rule.

class Traffic {
 public:
  explicit Traffic(txgen::verif::Rng& rng) : rng_(rng) {}

  void drive(model::IcacheTxIn& in, const model::IcacheTxOut& last, uint64_t cycle) {
    const IcacheTxParams& p = params();
    hold_or_drop(in, last);
    if (!in.if_valid && rng_.chance(burst(cycle) ? 45 : 8)) {
      in.if_valid = true;
      in.if_addr = instruction();
    }
    if (!in.ifill_valid && rng_.chance(burst(cycle) ? 20 : 3)) {
      in.ifill_valid = true;
      in.ifill_addr = instruction();
      in.ifill_data = line_data(in.ifill_addr);
    } else if (in.ifill_valid && rng_.chance(1)) {
      in.ifill_valid = false;  // a withdrawn fill: the fill stage returns to F0
    }
    for (unsigned c = 0; c < p.sharers; ++c) {
      if (!in.tl_valid[c] && rng_.chance(12)) set_lookup(in, c, translation());
      if (!in.tf_valid[c] && rng_.chance(10)) set_fill(in, c, translation());
    }
    in.sd_valid = in.sd_valid || rng_.below(1000) < 3;
    if (in.sd_valid && !last.sd_ready) {
      in.sd_all = rng_.chance(15);
      const Translation t = translation();
      in.sd_vpn = t.vpn;
      in.sd_vmid = t.vmid;
    }
    in.flush_valid = in.flush_valid || rng_.chance(cycle % 5000 < 10 ? 50 : 0);
    in.vic_ready = rng_.chance(70);
    in.tl_resp_ready = rng_.chance(70);
    in.rst_n = cycle != 30011;
  }

 private:
  static bool burst(uint64_t cycle) { return cycle % 900 < 300; }
  // Drop requests accepted at the last edge.
  void hold_or_drop(model::IcacheTxIn& in, const model::IcacheTxOut& last) {
    in.if_valid = in.if_valid && !last.if_ready;
    in.ifill_valid = in.ifill_valid && !last.ifill_ready;
    in.flush_valid = in.flush_valid && !last.flush_ready;
    in.sd_valid = in.sd_valid && !last.sd_ready;
    for (unsigned c = 0; c < params().sharers; ++c) {
      // the baseline has no translation ports: nothing is ever accepted there
      in.tl_valid[c] = in.tl_valid[c] && !(c < last.tl_ready.size() && last.tl_ready[c]);
      in.tf_valid[c] = in.tf_valid[c] && !(c < last.tf_ready.size() && last.tf_ready[c]);
    }
    if (!in.rst_n) in = model::IcacheTxIn::idle(params());
  }
  // Mostly sets 0-3 (contention with the translation sets 2-5), one in four
  // anywhere, so that every set's replacement state is exercised.
  uint64_t instruction() {
    const unsigned set = static_cast<unsigned>(rng_.chance(75) ? rng_.below(4) : rng_.below(params().sets));
    return iaddr(set, 1 + rng_.below(params().ways + 3)) | rng_.bits(params().offset_bits);
  }
  Translation translation() {
    const IcacheTxParams& p = params();
    // sets 2-5: half of them shared with the instruction sets 0-3
    const unsigned line = static_cast<unsigned>(rng_.below(p.ways) * p.sets + 2 + rng_.below(4));
    const uint64_t k = (rng_.chance(95) ? 48 : 48 + 16 * rng_.below(3)) + rng_.below(p.tx_per_line + 3);
    Translation t = tx(line, k);
    t.vmid = rng_.chance(97) ? 0 : 1;
    t.vrf = rng_.chance(97) ? 0 : 1;
    return t;
  }
  static void set_lookup(model::IcacheTxIn& in, unsigned c, const Translation& t) {
    in.tl_valid[c] = true;
    in.tl_vpn[c] = t.vpn;
    in.tl_vmid[c] = t.vmid;
    in.tl_vrf[c] = t.vrf;
  }
  static void set_fill(model::IcacheTxIn& in, unsigned c, const Translation& t) {
    in.tf_valid[c] = true;
    in.tf_vpn[c] = t.vpn;
    in.tf_vmid[c] = t.vmid;
    in.tf_vrf[c] = t.vrf;
    in.tf_ppn[c] = t.ppn;
    in.tf_perm[c] = t.perm;
  }
  txgen::verif::Rng& rng_;
};

template <class Harness>
void random_run(bool baseline) {
  const uint64_t seed = txgen::verif::seed_from_env();
  const uint64_t cycles = txgen::verif::cosim_cycles_from_env();
  const std::string name = test_name() + (baseline ? "_base" : "");
  const auto v = txgen::verif::run_cosim(name, seed, [&](CosimSession& s) {
    Harness h(s, params());
    txgen::verif::Rng rng(seed);
    Traffic traffic(rng);
    model::IcacheTxIn in = model::IcacheTxIn::idle(params());
    model::IcacheTxOut last;
    in.rst_n = false;
    last = h.step(in);
    for (uint64_t c = 0; c < cycles; ++c) {
      traffic.drive(in, last, c);
      last = h.step(in);
    }
  });
  expect_passed(v);
  std::printf("%s: seed %llu, %llu cycles, %.2f M cycles/s\n%s", name.c_str(), static_cast<unsigned long long>(seed),
              static_cast<unsigned long long>(v.cycles), v.cycles_per_second / 1e6, v.coverage.format().c_str());
  for (const std::string& counter : txgen::verif::IcacheCoverage::required(params(), baseline))
    EXPECT_GT(v.coverage.count(counter), 0u) << "coverage counter " << counter << " never hit";
}

TEST(IcacheTx, RandomTraffic) { random_run<Sys>(false); }
TEST(IcacheTx, BaselineRandomTraffic) { random_run<Base>(true); }

}  // namespace
