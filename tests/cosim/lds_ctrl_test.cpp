// Lock-step co-simulation of lds_ctrl_NAME_sys (controller + behavioural SRAM)
// and lds_ctrl_NAME_base_sys against the golden model
// (docs/blocks/lds_ctrl.md). Every output is compared every cycle; directed
// tests add explicit expectations named after the document's behaviours
// (Fig. 12 flows, allocation, shootdown, port sharing). The build passes
//   TXGEN_SYS_HEADER / TXGEN_SYS_CLASS, TXGEN_BASE_HEADER / TXGEN_BASE_CLASS,
//   TXGEN_COSIM_CONFIG (path), TXGEN_COSIM_CONFIG_NAME.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include TXGEN_SYS_HEADER
#include TXGEN_BASE_HEADER

#include "cosim_gtest.h"
#include "cosim_util.h"
#include "lds_ctrl_driver.h"
#include "lds_ctrl_harness.h"
#include "txgen/config/parse.h"
#include "txgen/elab/lds_ctrl.h"

namespace {

using txgen::elab::LdsCtrlParams;
using txgen::verif::Bits;
using txgen::verif::CosimSession;
using txgen::verif::CosimVerdict;
using txgen::verif::expect_passed;
using txgen::verif::LdsTranslation;
using txgen::verif::low_mask;
using txgen::verif::to_hex;
namespace model = txgen::model;

using Sys = txgen::verif::LdsHarness<TXGEN_SYS_CLASS>;
using Base = txgen::verif::LdsHarness<TXGEN_BASE_CLASS, true>;
using Driver = txgen::verif::LdsDriver<TXGEN_SYS_CLASS>;

const LdsCtrlParams& params() {
  static const LdsCtrlParams p =
      txgen::elab::elaborate_lds_ctrl(txgen::config::load_config_file(TXGEN_COSIM_CONFIG));
  return p;
}

std::string test_name() { return txgen::verif::cosim_test_name(TXGEN_COSIM_CONFIG_NAME); }

// Runs a directed body on a freshly reset controller.
template <class Body>
void directed(Body body) {
  expect_passed(txgen::verif::run_cosim(test_name(), txgen::verif::seed_from_env(), [&](CosimSession& s) {
    Sys sys(s, params());
    Driver d(sys);
    d.reset();
    body(s, d);
  }));
}

// --- translations chosen by segment, compression prefix and low tag bits ---

uint64_t vpn_of(uint32_t segment, uint64_t va_tag) {
  return (va_tag << params().segment_index_bits) | segment;
}
unsigned prefix_bits() { return params().va_tag_bits - params().codec.value_bits; }
uint64_t tag(uint64_t prefix, uint64_t low) {
  const unsigned v = params().codec.value_bits;
  return ((prefix << v) | (low & low_mask(v))) & low_mask(params().va_tag_bits);
}
LdsTranslation tx(uint32_t segment, uint64_t prefix, uint64_t low, uint32_t vmid = 0, uint32_t vrf = 0) {
  return txgen::verif::translation_for(params(), vpn_of(segment, tag(prefix, low)), vmid, vrf);
}

void expect_hit(CosimSession& s, Driver& d, const LdsTranslation& t) {
  const auto r = d.lookup(t.vpn, t.vmid, t.vrf);
  s.expect_equal("lk_resp_hit_o (test)", "1", std::to_string(r.hit), format_translation(t));
  s.expect_equal("lk_resp_ppn_o (test)", to_hex(64, t.ppn), to_hex(64, r.ppn));
  s.expect_equal("lk_resp_perm_o (test)", to_hex(64, t.perm), to_hex(64, r.perm));
}

void expect_miss(CosimSession& s, Driver& d, const LdsTranslation& t) {
  const auto r = d.lookup(t.vpn, t.vmid, t.vrf);
  s.expect_equal("lk_resp_hit_o (test)", "0", std::to_string(r.hit), format_translation(t));
}

void expect_victims(CosimSession& s, const std::vector<LdsTranslation>& got,
                    const std::vector<LdsTranslation>& want) {
  std::string g, w;
  for (const auto& t : got) g += format_translation(t) + " ";
  for (const auto& t : want) w += format_translation(t) + " ";
  s.expect_equal("victims (test)", w, g);
}

uint32_t seg_a() { return 5 % params().segments; }
uint64_t all_banks_of(uint32_t segment) {
  const LdsCtrlParams& p = params();
  const unsigned first = (segment % p.segments_per_row) * p.banks_per_segment;
  return low_mask(p.banks_per_segment) << first;
}

// ---------------------------------------------------------------------------
// Fig. 12, LDS part

TEST(LdsCtrl, Flow_1_2_4_FillIntoTxSegment) {
  directed([](CosimSession& s, Driver& d) {
    const auto a = tx(seg_a(), 1, 1), b = tx(seg_a(), 1, 2);
    expect_victims(s, d.fill(a), {});  // free segment: initialised
    expect_victims(s, d.fill(b), {});  // Tx segment, invalid way: no eviction
    expect_hit(s, d, a);
    expect_hit(s, d, b);
  });
}

TEST(LdsCtrl, Flow_1_2_4_5_6_FillEvictsLruTranslation) {
  directed([](CosimSession& s, Driver& d) {
    const unsigned n = params().ways;
    std::vector<LdsTranslation> way;
    for (unsigned i = 0; i < n; ++i) {
      way.push_back(tx(seg_a(), 1, i));
      expect_victims(s, d.fill(way.back()), {});
    }
    expect_hit(s, d, way[0]);  // way[0] most recent; way[1] is now least recent
    const auto extra = tx(seg_a(), 1, n);
    expect_victims(s, d.fill(extra), {way[1]});
    expect_hit(s, d, extra);
    expect_miss(s, d, way[1]);
    expect_hit(s, d, way[0]);
  });
}

TEST(LdsCtrl, Flow_1_2_3_6_AllocatedSegmentBypassesFill) {
  directed([](CosimSession& s, Driver& d) {
    d.work_group(false, seg_a(), 1);
    const auto a = tx(seg_a(), 1, 1);
    expect_victims(s, d.fill(a), {a});
    s.expect_equal("victim cycle (test)", std::to_string(d.last_fill_accept() + 2),
                   std::to_string(d.victim_cycles().back()), "ISSUE in A+1, the fill handed out in A+2");
    expect_miss(s, d, a);
  });
}

TEST(LdsCtrl, LookupLatencyFourCyclesTxTwoCyclesLdsMode) {
  directed([](CosimSession& s, Driver& d) {
    const auto a = tx(seg_a(), 1, 1);
    auto r = d.lookup(a.vpn, a.vmid, a.vrf);
    s.expect_equal("LDS-mode lookup latency (test)", "2", std::to_string(r.latency));
    d.fill(a);
    r = d.lookup(a.vpn, a.vmid, a.vrf);
    s.expect_equal("Tx-mode lookup latency (test)", "4", std::to_string(r.latency));
    s.expect_equal("hit (test)", "1", std::to_string(r.hit));
    const auto other = tx(seg_a(), 1, 2, 1, 0);
    r = d.lookup(other.vpn, other.vmid, other.vrf);
    s.expect_equal("Tx-mode miss latency (test)", "4", std::to_string(r.latency));
  });
}

TEST(LdsCtrl, LookupComparesVmidAndVrf) {
  directed([](CosimSession& s, Driver& d) {
    const auto a = tx(seg_a(), 1, 1, 0, 0);
    d.fill(a);
    expect_miss(s, d, tx(seg_a(), 1, 1, 1, 0));
    expect_miss(s, d, tx(seg_a(), 1, 1, 0, 1));
    expect_hit(s, d, a);
  });
}

// ---------------------------------------------------------------------------
// Work-group allocation

TEST(LdsCtrl, AllocationOverTxSegmentsDropsTranslations) {
  directed([](CosimSession& s, Driver& d) {
    const auto a = tx(seg_a(), 1, 1), b = tx(seg_a() + 1, 1, 1);
    d.fill(a);
    d.fill(b);
    const uint64_t done = d.work_group(false, seg_a(), 2);
    const unsigned g = params().clear_bits;
    const uint64_t groups = (seg_a() + 1) / g - seg_a() / g + 1;
    s.expect_equal("allocate done (test)", std::to_string(groups + 2), std::to_string(done),
                   "WG, one cycle per CLEAR group, then the done pulse");
    expect_miss(s, d, a);
    expect_miss(s, d, b);
  });
}

TEST(LdsCtrl, FreeThenRefill) {
  directed([](CosimSession& s, Driver& d) {
    const auto a = tx(seg_a(), 1, 1);
    d.work_group(false, seg_a(), 3);
    expect_victims(s, d.fill(a), {a});  // allocated: bypass
    d.work_group(true, seg_a(), 3);
    expect_victims(s, d.fill(a), {});  // free again: initialised
    expect_hit(s, d, a);
  });
}

TEST(LdsCtrl, TxWriteNeverOverwritesLdsMode) {
  directed([](CosimSession& s, Driver& d) {
    const LdsCtrlParams& p = params();
    const uint32_t seg = seg_a(), row = seg / p.segments_per_row;
    d.work_group(false, seg, 1);
    Bits data(p.row_bits);
    for (unsigned w = 0; w < data.words.size(); ++w) data.words[w] = 0xa5a50000u + w;
    d.app_write(row, all_banks_of(seg), data);
    const auto a = tx(seg, 1, 1);
    expect_victims(s, d.fill(a), {a});
    const Bits back = d.app_read(row, all_banks_of(seg));
    const unsigned lsb = (seg % p.segments_per_row) * p.segment_bytes * 8;
    for (unsigned b = 0; b < p.segment_bytes * 8; b += 32)
      s.expect_equal("application data (test)", to_hex(32, data.field(lsb + b, 32)),
                     to_hex(32, back.field(lsb + b, 32)), "bit " + std::to_string(b));
  });
}

TEST(LdsCtrl, ApplicationWriteCancelsPendingTranslationWrite) {
  directed([](CosimSession& s, Driver& d) {
    const LdsCtrlParams& p = params();
    const uint32_t seg = seg_a(), row = seg / p.segments_per_row;
    const auto a = tx(seg, 1, 1), b = tx(seg, 1, 2);
    d.fill(a);  // Tx-mode
    // Fill b: accepted in A, read in A+1 (ISSUE); the application writes the
    // segment in A+2 (DEC), so the write-back in A+4 must not happen.
    d.start_fill(b);
    d.step();
    if (!d.out().sram_en || d.out().sram_we) s.fail("sram port (test)", "engine read in A+1", "no read");
    Bits data(p.row_bits);
    for (unsigned w = 0; w < data.words.size(); ++w) data.words[w] = 0x3c3c0000u + w;
    d.app_access(true, row, all_banks_of(seg), data);
    d.step();
    d.app_idle();
    d.wait_idle();
    const Bits back = d.app_read(row, all_banks_of(seg));
    const unsigned lsb = (seg % p.segments_per_row) * p.segment_bytes * 8;
    s.expect_equal("application data (test)", to_hex(32, data.field(lsb, 32)), to_hex(32, back.field(lsb, 32)));
    expect_miss(s, d, a);
    expect_miss(s, d, b);
  });
}

// ---------------------------------------------------------------------------
// Compression

TEST(LdsCtrl, CompressionFailureEvictsWhatDoesNotFit) {
  if (prefix_bits() == 0) GTEST_SKIP() << "no prefix bits: every tag set compresses";
  directed([](CosimSession& s, Driver& d) {
    const auto a = tx(seg_a(), 1, 1), b = tx(seg_a(), 1, 2), c = tx(seg_a(), 2, 3);
    d.fill(a);  // way 0
    d.fill(b);  // b to way 0, a to way 1
    // c to way 0, b to way 2; a (way 1) and b (way 2) differ from c in the prefix.
    expect_victims(s, d.fill(c), {a, b});
    expect_hit(s, d, c);
    expect_miss(s, d, a);
  });
}

// ---------------------------------------------------------------------------
// Shootdown (section 7.1)

TEST(LdsCtrl, ShootdownByVpnAndVmidAnyVrf) {
  directed([](CosimSession& s, Driver& d) {
    const auto a0 = tx(seg_a(), 1, 1, 0, 0), a1 = tx(seg_a(), 1, 1, 0, 1), b = tx(seg_a(), 1, 2);
    const auto other_vm = tx(seg_a(), 1, 1, 1, 0);
    d.fill(a0);
    d.fill(a1);
    d.fill(b);
    d.shootdown(false, a0.vpn, 0);
    expect_miss(s, d, a0);
    expect_miss(s, d, a1);
    expect_hit(s, d, b);
    d.fill(other_vm);
    d.shootdown(false, a0.vpn, 0);  // nothing of VMID 0 left there
    expect_hit(s, d, other_vm);
    const uint64_t done = d.shootdown(false, vpn_of((seg_a() + 3) % params().segments, 0), 0);
    s.expect_equal("shootdown of an LDS-mode segment (test)", "2", std::to_string(done));
  });
}

TEST(LdsCtrl, ShootdownAll) {
  directed([](CosimSession& s, Driver& d) {
    const LdsCtrlParams& p = params();
    std::vector<LdsTranslation> all;
    for (uint32_t seg : {0u, seg_a(), p.segments - 1}) {
      all.push_back(tx(seg, 1, 1));
      d.fill(all.back());
    }
    const uint64_t done = d.shootdown(true, 0, 0);
    s.expect_equal("shootdown-all done (test)", std::to_string(p.clear_groups + 1), std::to_string(done));
    for (const auto& t : all) expect_miss(s, d, t);
  });
}

// ---------------------------------------------------------------------------
// Port sharing

TEST(LdsCtrl, ApplicationAccessStarvesTranslationsThenReleases) {
  directed([](CosimSession& s, Driver& d) {
    const auto a = tx(seg_a(), 1, 1);
    d.fill(a);
    d.app_access(false, 0, 1, Bits(params().row_bits));
    d.in().lk_valid = true;  // accepted at once; waits in ISSUE for the port
    d.in().lk_vpn = a.vpn;
    d.in().lk_vmid = a.vmid;
    d.in().lk_vrf = a.vrf;
    while (!d.step().lk_ready) {}
    d.in().lk_valid = false;
    for (int i = 0; i < 40; ++i) {
      d.step();
      if (d.out().lk_resp_valid) s.fail("lk_resp_valid_o (test)", "0 while the application holds the port", "1");
      if (d.out().sram_bank_en != 1) s.fail("sram_bank_en_o (test)", "the application's", "another");
    }
    d.app_idle();
    d.step();  // issue cycle: the read goes out
    if (!d.out().sram_en || d.out().sram_we) s.fail("sram port (test)", "engine read", "no read");
    d.step();  // DEC
    d.step();  // CMP
    // The hit's LRU write-back waits for the port as well.
    d.app_access(false, 0, 1, Bits(params().row_bits));
    for (int i = 0; i < 20; ++i) {
      d.step();
      if (d.out().sram_we) s.fail("sram_we_o (test)", "0 while the application holds the port", "1");
    }
    d.app_idle();
    d.step();
    if (!d.out().sram_we) s.fail("sram_we_o (test)", "1: the write-back goes out", "0");
    d.wait_idle();
    expect_hit(s, d, a);
  });
}

TEST(LdsCtrl, ResetInTheMiddleOfTraffic) {
  directed([](CosimSession& s, Driver& d) {
    const auto a = tx(seg_a(), 1, 1), b = tx(seg_a(), 1, 2);
    d.fill(a);
    d.start_fill(b);  // reset while b's fill is in flight
    d.reset();
    expect_miss(s, d, a);
    expect_miss(s, d, b);
    d.fill(b);
    expect_hit(s, d, b);
  });
}

// ---------------------------------------------------------------------------
// Constrained random

TEST(LdsCtrl, RandomTraffic) {
  const uint64_t seed = txgen::verif::seed_from_env();
  const uint64_t cycles = txgen::verif::cosim_cycles_from_env();
  const CosimVerdict verdict = txgen::verif::run_cosim(test_name(), seed, [&](CosimSession& s) {
    Sys sys(s, params());
    txgen::verif::LdsTraffic traffic(params(), seed, cycles);
    model::LdsCtrlOut out;
    for (uint64_t c = 0; c < cycles; ++c) {
      const model::LdsCtrlIn in = traffic.next(out);
      out = sys.step(in);
      if (in.rst_n && out.lk_resp_valid && out.lk_resp_hit && traffic.has_lookup_key()) {
        const LdsTranslation k = traffic.lookup_key();
        const LdsTranslation want = txgen::verif::translation_for(params(), k.vpn, k.vmid, k.vrf);
        s.expect_equal("hit ppn for its key (test)", to_hex(64, want.ppn), to_hex(64, out.lk_resp_ppn),
                       format_translation(k));
      }
      traffic.observe(in, out);
    }
  });
  expect_passed(verdict);
  std::printf("%s: seed %llu, %llu cycles, %.2f M cycles/s\n%s", test_name().c_str(),
              static_cast<unsigned long long>(seed), static_cast<unsigned long long>(verdict.cycles),
              verdict.cycles_per_second / 1e6, verdict.coverage.format().c_str());
  for (const std::string& name : txgen::verif::LdsCoverage::required())
    EXPECT_GT(verdict.coverage.count(name), 0u) << "coverage counter " << name << " never hit";
}

TEST(LdsCtrl, BaselineRandomTraffic) {
  const uint64_t seed = txgen::verif::seed_from_env();
  const CosimVerdict verdict = txgen::verif::run_cosim(test_name(), seed, [&](CosimSession& s) {
    Base base(s, params());
    txgen::verif::LdsTraffic traffic(params(), seed, 20000);
    model::LdsCtrlOut out;
    for (uint64_t c = 0; c < 20000; ++c) {
      const model::LdsCtrlIn in = traffic.next(out);
      out = base.step(in);
      traffic.observe(in, out);
    }
  });
  expect_passed(verdict);
}

}  // namespace
