// Unit tests of the golden lds_ctrl model. Parameters are filled by hand from
// docs/blocks/lds_ctrl.md and docs/blocks/bd_codec.md; the expected segment
// images are worked out by hand from the documents' bit maps (arithmetic in
// the comments), and every cycle count is the document's: a Tx-mode segment
// is read in I, decompressed into the DEC register in I+1, compared in I+2
// (CMP); WRITE from I+3; without back-pressure I = A+1.
#include "model/lds_ctrl.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <map>
#include <ostream>
#include <random>
#include <stdexcept>
#include <tuple>
#include <string>
#include <utility>
#include <vector>

namespace txgen::model {

void PrintTo(const Bits& b, std::ostream* os) {
  *os << b.width << "'h";
  for (size_t k = b.words.size(); k-- > 0;) {
    *os << std::hex << std::setw(8) << std::setfill('0') << b.words[k] << std::dec;
    if (k != 0) *os << '_';
  }
}

namespace {

using config::CodecEncoding;
using config::IdPlacement;
using elab::BdCodecParams;
using elab::LdsCtrlParams;

// ---------------------------------------------------------------------------
// Configurations

// A: 32-bit VA, 4 KB pages -> VPN 20. LDS 1 KB of 32 B segments -> S 32, SI 5,
// T 15. Codec: N 3, prefix, ids per entry, L 2, M 1, R 1, B 16, D 48, d 16,
// m 1+2+1+1 = 5, V = min(11, 15) = 11, Bv = 4 (tags with different va[14:11]
// do not fit). Entry field: [0] valid, [2:1] lru, [3] vmid, [4] vrf,
// [15:5] va[10:0]; base [3:0] = va[14:11]. TW 1, TW + N = 4 = SB / 8.
// SRAM 16 banks x 4 B: RB 64, ROWS 16, RI 4, SPR 2, BPS 8, 8/BB 2.
// G 8 (4 clear groups), K 4, P 20, Q 4.
BdCodecParams codec_a() {
  BdCodecParams c;
  c.module_prefix = "bd_codec_lds_test";
  c.encoding = CodecEncoding::Prefix;
  c.ids = IdPlacement::PerEntry;
  c.va_bits = 32;
  c.page_offset_bits = 12;
  c.index_bits = 5;
  c.tags = 3;
  c.va_tag_bits = 15;
  c.lru_bits = 2;
  c.vmid_bits = 1;
  c.vrf_bits = 1;
  c.raw_tag_bits = 1 + 2 + 1 + 1 + 15;
  c.base_bits = 16;
  c.delta_bits = 48;
  c.entry_bits = 16;
  c.entry_meta_bits = 5;
  c.value_bits = 11;
  c.base_value_bits = 4;
  c.base_used_bits = 4;
  c.packed_bits = 64;
  return c;
}

LdsCtrlParams params_a() {
  LdsCtrlParams p;
  p.module_prefix = "lds_ctrl_test";
  p.codec = codec_a();
  p.lds_bytes = 1024;
  p.segment_bytes = 32;
  p.segments = 32;
  p.segment_index_bits = 5;
  p.ways = 3;
  p.tag_words = 1;
  p.segment_words = 4;
  p.bank_bytes = 4;
  p.banks = 16;
  p.row_bytes = 64;
  p.row_bits = 512;
  p.rows = 16;
  p.row_index_bits = 4;
  p.segments_per_row = 2;
  p.banks_per_segment = 8;
  p.banks_per_word = 2;
  p.vpn_bits = 20;
  p.va_tag_bits = 15;
  p.vmid_bits = 1;
  p.vrf_bits = 1;
  p.ppn_bits = 20;
  p.perm_bits = 4;
  p.max_work_groups = 4;
  p.size_bits = 6;
  p.clear_bits = 8;
  p.clear_groups = 4;
  return p;
}

// B: 24-bit VA, 4 KB pages -> VPN 12; LDS 2 KB of 64 B segments -> S 32,
// SI 5, T 7. Codec: N 4, arith, ids shared, L 2, m 1+2 = 3, B 96, D 32, d 8,
// V = min(5, 7) = 5 (deltas in [-16, 15]), Bv 7, used 7+1+1 = 9, W 128:
// TW 2, TW + N = 6 < 8 (two padding words). SRAM 8 banks x 8 B: RB 64,
// ROWS 32, RI 5, SPR 1, BPS 8, 8/BB 1. G = S = 32 (one clear cycle), K 2,
// P 40, Q 24 (P + Q = 64).
LdsCtrlParams params_b() {
  BdCodecParams c;
  c.module_prefix = "bd_codec_lds_b";
  c.encoding = CodecEncoding::Arith;
  c.ids = IdPlacement::Shared;
  c.va_bits = 24;
  c.page_offset_bits = 12;
  c.index_bits = 5;
  c.tags = 4;
  c.va_tag_bits = 7;
  c.lru_bits = 2;
  c.vmid_bits = 1;
  c.vrf_bits = 1;
  c.raw_tag_bits = 1 + 2 + 1 + 1 + 7;
  c.base_bits = 96;
  c.delta_bits = 32;
  c.entry_bits = 8;
  c.entry_meta_bits = 3;
  c.value_bits = 5;
  c.base_value_bits = 7;
  c.base_used_bits = 9;
  c.packed_bits = 128;
  LdsCtrlParams p;
  p.module_prefix = "lds_ctrl_b";
  p.codec = c;
  p.lds_bytes = 2048;
  p.segment_bytes = 64;
  p.segments = 32;
  p.segment_index_bits = 5;
  p.ways = 4;
  p.tag_words = 2;
  p.segment_words = 8;
  p.bank_bytes = 8;
  p.banks = 8;
  p.row_bytes = 64;
  p.row_bits = 512;
  p.rows = 32;
  p.row_index_bits = 5;
  p.segments_per_row = 1;
  p.banks_per_segment = 8;
  p.banks_per_word = 1;
  p.vpn_bits = 12;
  p.va_tag_bits = 7;
  p.vmid_bits = 1;
  p.vrf_bits = 1;
  p.ppn_bits = 40;
  p.perm_bits = 24;
  p.max_work_groups = 2;
  p.size_bits = 6;
  p.clear_bits = 32;
  p.clear_groups = 1;
  return p;
}

// C: config A's codec and LDS with 32 banks of 1 byte (RB 32 = SB, SPR 1,
// BPS 32, 8/BB 8, ROWS 32, RI 5), G 1 (32 clear cycles), K 1.
LdsCtrlParams params_c() {
  LdsCtrlParams p = params_a();
  p.module_prefix = "lds_ctrl_c";
  p.bank_bytes = 1;
  p.banks = 32;
  p.row_bytes = 32;
  p.row_bits = 256;
  p.rows = 32;
  p.row_index_bits = 5;
  p.segments_per_row = 1;
  p.banks_per_segment = 32;
  p.banks_per_word = 8;
  p.max_work_groups = 1;
  p.clear_bits = 1;
  p.clear_groups = 32;
  return p;
}

// ---------------------------------------------------------------------------
// Harness

class Sim {
 public:
  explicit Sim(const LdsCtrlParams& params) : p(params), m(params) { quiet(); }
  void quiet() {
    LdsCtrlIn q;
    q.app_wdata = Bits(p.row_bits);
    in = q;
  }
  LdsCtrlOut out() const { return m.outputs(in); }
  LdsCtrlOut tick() {
    LdsCtrlOut o = m.outputs(in);
    m.posedge(in);
    return o;
  }
  const LdsCtrlEvents& ev() const { return m.events(); }

  LdsCtrlParams p;
  LdsCtrlModel m;
  LdsCtrlIn in;
};

struct Vic {
  uint64_t vpn = 0;
  uint32_t vmid = 0, vrf = 0;
  uint64_t ppn = 0, perm = 0;
  bool operator==(const Vic& o) const {
    return vpn == o.vpn && vmid == o.vmid && vrf == o.vrf && ppn == o.ppn && perm == o.perm;
  }
};
void PrintTo(const Vic& v, std::ostream* os) {
  *os << std::hex << "{vpn=0x" << v.vpn << " vmid=" << v.vmid << " vrf=" << v.vrf << " ppn=0x" << v.ppn
      << " perm=0x" << v.perm << "}" << std::dec;
}
Vic vic_of(const LdsCtrlOut& o) { return Vic{o.vic_vpn, o.vic_vmid, o.vic_vrf, o.vic_ppn, o.vic_perm}; }

bool any_ready(const LdsCtrlOut& o) { return o.wg_ready || o.sd_ready || o.lk_ready || o.fill_ready; }

// Runs the post-reset CLEAR of a fresh model.
void settle(Sim& s) {
  s.quiet();
  for (unsigned i = 0; i < s.p.clear_groups; ++i) s.tick();
  ASSERT_TRUE(s.m.idle());
}

// A row image: 64-bit word k of the row = value.
Bits row_words(const LdsCtrlParams& p, const std::vector<std::pair<unsigned, uint64_t>>& words) {
  Bits b(p.row_bits);
  for (const auto& [k, v] : words) b.set_field(64 * k, 64, v);
  return b;
}

Bits random_row(const LdsCtrlParams& p, std::mt19937_64& rng) {
  Bits b(p.row_bits);
  for (uint32_t& w : b.words) w = static_cast<uint32_t>(rng());
  return b;
}

// A fill accepted in the current cycle; runs to IDLE with vic_ready = 1 and
// returns the victims in the order handed out.
std::vector<Vic> fill(Sim& s, uint64_t vpn, uint32_t vmid, uint32_t vrf, uint64_t ppn, uint64_t perm) {
  s.quiet();
  s.in.fill_valid = true;
  s.in.fill_vpn = vpn;
  s.in.fill_vmid = vmid;
  s.in.fill_vrf = vrf;
  s.in.fill_ppn = ppn;
  s.in.fill_perm = perm;
  EXPECT_TRUE(s.out().fill_ready);
  s.tick();
  s.quiet();
  s.in.vic_ready = true;
  std::vector<Vic> victims;
  for (int i = 0; i < 20 && !s.m.idle(); ++i) {
    const LdsCtrlOut o = s.tick();
    if (o.vic_valid) victims.push_back(vic_of(o));
  }
  EXPECT_TRUE(s.m.idle());
  s.quiet();
  return victims;
}

struct Resp {
  bool hit = false;
  uint64_t ppn = 0, perm = 0;
  unsigned latency = 0;  // cycles from the accept edge to lk_resp_valid
};

Resp lookup(Sim& s, uint64_t vpn, uint32_t vmid, uint32_t vrf) {
  s.quiet();
  s.in.lk_valid = true;
  s.in.lk_vpn = vpn;
  s.in.lk_vmid = vmid;
  s.in.lk_vrf = vrf;
  EXPECT_TRUE(s.out().lk_ready);
  s.tick();
  s.quiet();
  Resp r;
  for (r.latency = 1; r.latency < 10 && !s.out().lk_resp_valid; ++r.latency) s.tick();
  const LdsCtrlOut o = s.out();
  EXPECT_TRUE(o.lk_resp_valid);
  r.hit = o.lk_resp_hit;
  r.ppn = o.lk_resp_ppn;
  r.perm = o.lk_resp_perm;
  s.in.lk_resp_ready = true;
  for (int i = 0; i < 10 && (s.out().lk_resp_valid || !s.m.idle()); ++i) s.tick();
  s.quiet();
  return r;
}

// A work-group operation; returns the number of cycles from the accept edge
// to the cycle with wg_done (A+1 is WG, so at least 2).
unsigned wg(Sim& s, bool is_free, uint32_t base, uint32_t size) {
  s.quiet();
  s.in.wg_valid = true;
  s.in.wg_free = is_free;
  s.in.wg_base = base;
  s.in.wg_size = size;
  EXPECT_TRUE(s.out().wg_ready);
  s.tick();
  s.quiet();
  unsigned n = 1;
  for (; n < 100 && !s.out().wg_done; ++n) s.tick();
  EXPECT_TRUE(s.out().wg_done);
  s.tick();
  return n;
}

unsigned shootdown(Sim& s, bool all, uint64_t vpn, uint32_t vmid) {
  s.quiet();
  s.in.sd_valid = true;
  s.in.sd_all = all;
  s.in.sd_vpn = vpn;
  s.in.sd_vmid = vmid;
  EXPECT_TRUE(s.out().sd_ready);
  s.tick();
  s.quiet();
  unsigned n = 1;
  for (; n < 100 && !s.out().sd_done; ++n) s.tick();
  EXPECT_TRUE(s.out().sd_done);
  s.tick();
  return n;
}

void app_access(Sim& s, bool we, uint32_t row, uint64_t bank_en, const Bits& data) {
  s.quiet();
  s.in.app_valid = true;
  s.in.app_we = we;
  s.in.app_row = row;
  s.in.app_bank_en = bank_en;
  s.in.app_wdata = data;
  s.tick();
  s.quiet();
}

// Config A translations (segment 3: row 1, words 4..7, banks 8..15, tag-word
// banks 8..9). Tag t -> base t[14:11], value t[10:0].
constexpr unsigned kSeg = 3;
constexpr uint32_t kRow = 1;
constexpr uint64_t kSegBanks = 0xFF00;
constexpr uint64_t kTagBanks = 0x0300;
constexpr uint64_t kTX = 0x4A5B;  // base 9, value 0x25B
constexpr uint64_t kTY = 0x4C01;  // base 9, value 0x401
constexpr uint64_t kTZ = 0x4F00;  // base 9, value 0x700
constexpr uint64_t kTV = 0x4801;  // base 9, value 0x001
constexpr uint64_t kTW = 0x1234;  // base 2, value 0x234 (another prefix)
uint64_t vpn_a(unsigned seg, uint64_t tag) { return (tag << 5) | seg; }

struct Tx {
  uint64_t tag;
  uint32_t vmid, vrf;
  uint64_t ppn, perm;
  uint64_t slot() const { return ppn | (perm << 20); }  // {perm, ppn}
  Vic victim(unsigned seg) const { return Vic{vpn_a(seg, tag), vmid, vrf, ppn, perm}; }
};
const Tx X{kTX, 1, 0, 0xABCDE, 0x5};  // slot 0x5ABCDE
const Tx Y{kTY, 0, 1, 0x12345, 0xA};  // slot 0xA12345
const Tx Z{kTZ, 1, 1, 0x0F0F0, 0x3};  // slot 0x30F0F0
const Tx V{kTV, 0, 0, 0x77777, 0x1};  // slot 0x177777
const Tx W{kTW, 0, 0, 0x00042, 0xC};  // slot 0xC00042

std::vector<Vic> fill(Sim& s, unsigned seg, const Tx& t) {
  return fill(s, vpn_a(seg, t.tag), t.vmid, t.vrf, t.ppn, t.perm);
}
Resp lookup(Sim& s, unsigned seg, const Tx& t) { return lookup(s, vpn_a(seg, t.tag), t.vmid, t.vrf); }

// Entry fields (valid | lru << 1 | vmid << 3 | vrf << 4 | value << 5):
//   X lru0 = 1 | 0 | 8 | 0  | 0x25B<<5 (0x4B60) = 0x4B69;  X lru1 = 0x4B6B;  X lru2 = 0x4B6D
//   Y lru0 = 1 | 0 | 0 | 16 | 0x401<<5 (0x8020) = 0x8031;  Y lru1 = 0x8033;  Y lru2 = 0x8035
//   Z lru0 = 1 | 0 | 8 | 16 | 0x700<<5 (0xE000) = 0xE019;  Z lru1 = 0xE01B
//   V lru0 = 1 | 0 | 0 | 0  | 0x001<<5 (0x0020) = 0x0021
//   W lru0 = 1 | 0 | 0 | 0  | 0x234<<5 (0x4680) = 0x4681
// Word = {e2, e1, e0, base}.
constexpr uint64_t kWordX = 0x000000004B690009;      // [X0]
constexpr uint64_t kWordYX = 0x00004B6B80310009;     // [Y0, X1]
constexpr uint64_t kWordYXTouched = 0x00004B6980330009;  // [Y1, X0]
constexpr uint64_t kWordZXY = 0x80334B6DE0190009;    // [Z0, X2, Y1]
constexpr uint64_t kWordVZY = 0x8035E01B00210009;    // [V0, Z1, Y2]
constexpr uint64_t kWordW = 0x0000000046810002;      // [W0] (base 2)

Bits seg_a(uint64_t tagword, uint64_t s0, uint64_t s1, uint64_t s2) {
  return row_words(params_a(), {{4, tagword}, {5, s0}, {6, s1}, {7, s2}});
}

// ---------------------------------------------------------------------------
// Parameter checks

TEST(LdsCtrlParamsCheck, AcceptsTheHandFilledConfigurations) {
  EXPECT_NO_THROW(LdsCtrlModel{params_a()});
  EXPECT_NO_THROW(LdsCtrlModel{params_b()});
  EXPECT_NO_THROW(LdsCtrlModel{params_c()});
}

TEST(LdsCtrlParamsCheck, RejectsWidthsThatAreNotTheDocumentDerivation) {
  LdsCtrlParams p = params_a();
  p.segments_per_row = 1;
  EXPECT_THROW(LdsCtrlModel{p}, std::invalid_argument);
  p = params_a();
  p.ppn_bits = 61;  // P + Q = 65
  EXPECT_THROW(LdsCtrlModel{p}, std::invalid_argument);
  p = params_a();
  p.clear_bits = 6;
  p.clear_groups = 5;
  EXPECT_THROW(LdsCtrlModel{p}, std::invalid_argument);
}

// ---------------------------------------------------------------------------
// Reset

TEST(LdsCtrlReset, PostResetClearTakesSOverGCyclesWithNothingReady) {
  Sim s(params_a());
  settle(s);
  fill(s, 3, X);
  fill(s, 31, X);
  ASSERT_TRUE(s.m.mode_bit(3) && s.m.mode_bit(31));
  s.in.rst_n = false;
  s.in.wg_valid = s.in.sd_valid = s.in.lk_valid = s.in.fill_valid = true;
  const LdsCtrlOut r = s.tick();
  EXPECT_FALSE(any_ready(r));
  s.in.rst_n = true;
  // Cycles 0..3 after reset: CLEAR groups 0..3, nothing accepted.
  for (unsigned c = 0; c < 4; ++c) {
    const LdsCtrlOut o = s.tick();
    EXPECT_FALSE(any_ready(o)) << "cycle " << c;
    EXPECT_FALSE(o.wg_done || o.sd_done || o.lk_resp_valid || o.vic_valid || o.sram_en);
    EXPECT_FALSE(s.ev().alloc || s.ev().alloc_over_tx);  // reset clear is not an allocation
    EXPECT_FALSE(s.m.mode_bit(3));                         // group 0 cleared at the first edge
    EXPECT_EQ(s.m.mode_bit(31), c < 3) << "cycle " << c;  // group 3 at the fourth
  }
  // Cycle 4: IDLE, no done pulse, the work group (highest priority) is ready.
  const LdsCtrlOut o = s.out();
  EXPECT_TRUE(s.m.idle());
  EXPECT_FALSE(o.wg_done || o.sd_done);
  EXPECT_TRUE(o.wg_ready);
  EXPECT_FALSE(o.sd_ready || o.lk_ready || o.fill_ready);
}

TEST(LdsCtrlReset, ResetInTheMiddleOfTrafficKeepsTheSramAndClearsEverythingElse) {
  Sim s(params_a());
  settle(s);
  fill(s, kSeg, X);
  fill(s, kSeg, Y);
  fill(s, kSeg, Z);
  // A bypass response left unconsumed, then a fill whose victim waits.
  s.in.lk_valid = true;
  s.in.lk_vpn = vpn_a(5, kTX);
  s.tick();  // A
  s.quiet();
  s.tick();  // I: bypass
  ASSERT_TRUE(s.out().lk_resp_valid);
  s.in.fill_valid = true;
  s.in.fill_vpn = vpn_a(kSeg, V.tag);
  s.in.fill_ppn = V.ppn;
  s.in.fill_perm = V.perm;
  ASSERT_TRUE(s.out().fill_ready);
  s.tick();  // A
  s.quiet();
  s.tick();  // ISSUE: read
  s.tick();  // DEC
  s.tick();  // CMP
  s.tick();  // WRITE
  ASSERT_TRUE(s.out().vic_valid);
  app_access(s, false, kRow, 0xFFFF, Bits(512));  // rdata = row 1
  const Bits row1 = s.m.sram_row_data(kRow);
  EXPECT_EQ(row1, seg_a(kWordVZY, V.slot(), Z.slot(), Y.slot()));
  ASSERT_TRUE(s.out().app_rvalid);
  // Asynchronous reset: the outputs are the reset state's at once.
  s.in.rst_n = false;
  s.in.lk_valid = s.in.fill_valid = s.in.sd_valid = s.in.wg_valid = true;
  s.in.vic_ready = s.in.lk_resp_ready = true;
  LdsCtrlOut o = s.out();
  EXPECT_FALSE(any_ready(o));
  EXPECT_FALSE(o.vic_valid || o.lk_resp_valid || o.lk_resp_hit || o.app_rvalid || o.wg_done || o.sd_done);
  EXPECT_EQ(o.vic_vpn, 0u);
  EXPECT_EQ(o.app_rdata, row1);  // the SRAM read register is not reset
  EXPECT_FALSE(o.sram_en);
  s.tick();
  s.tick();
  s.in.rst_n = true;
  for (unsigned c = 0; c < 4; ++c) EXPECT_FALSE(any_ready(s.tick()));
  s.quiet();
  EXPECT_TRUE(s.m.idle());
  EXPECT_EQ(s.m.sram_row_data(kRow), row1);
  for (unsigned seg = 0; seg < 32; ++seg) EXPECT_FALSE(s.m.mode_bit(seg)) << seg;
  const Resp r = lookup(s, kSeg, V);  // the segment is LDS-mode now: bypass
  EXPECT_FALSE(r.hit);
  EXPECT_EQ(r.latency, 2u);
  // The application still reads its data.
  app_access(s, false, kRow, 0xFFFF, Bits(512));
  EXPECT_EQ(s.out().app_rdata, row1);
}

// READING of the document: the application port is a combinational
// pass-through to an SRAM without reset, so an access during reset reaches it.
TEST(LdsCtrlReset, ApplicationAccessDuringResetReachesTheSram) {
  Sim s(params_a());
  std::mt19937_64 rng(7);
  const Bits data = random_row(s.p, rng);
  s.in.rst_n = false;
  s.in.app_valid = true;
  s.in.app_we = true;
  s.in.app_row = 2;
  s.in.app_bank_en = 0xFFFF;
  s.in.app_wdata = data;
  const LdsCtrlOut o = s.tick();
  EXPECT_TRUE(o.sram_en && o.sram_we);
  EXPECT_EQ(o.sram_wdata, data);
  EXPECT_EQ(s.m.sram_row_data(2), data);
}

// ---------------------------------------------------------------------------
// Lookups

TEST(LdsCtrlLookup, LookupInLdsModeSegmentRespondsAfterTwoCyclesWithMiss) {
  Sim s(params_a());
  settle(s);
  s.in.lk_valid = true;
  s.in.lk_vpn = vpn_a(5, kTX);
  LdsCtrlOut o = s.tick();  // A: only registers the request
  EXPECT_TRUE(o.lk_ready);
  EXPECT_FALSE(o.lk_resp_valid);
  EXPECT_FALSE(o.sram_en);
  EXPECT_FALSE(s.ev().lookup_bypass);
  EXPECT_FALSE(s.m.idle());
  s.quiet();
  o = s.tick();  // A+1 = I (ISSUE): decided, no SRAM access
  EXPECT_FALSE(any_ready(o));
  EXPECT_FALSE(o.lk_resp_valid);
  EXPECT_FALSE(o.sram_en);
  EXPECT_TRUE(s.ev().lookup_bypass);
  o = s.out();  // A+2
  EXPECT_TRUE(o.lk_resp_valid);
  EXPECT_FALSE(o.lk_resp_hit);
  EXPECT_EQ(o.lk_resp_ppn, 0u);
  EXPECT_EQ(o.lk_resp_perm, 0u);
  EXPECT_TRUE(s.m.idle());
  EXPECT_FALSE(o.lk_ready);   // the response register is full
  EXPECT_TRUE(o.fill_ready);  // fills do not wait for it
}

TEST(LdsCtrlLookup, LookupHitTakesFourCyclesAndWritesTheLruBack) {
  Sim s(params_a());
  settle(s);
  fill(s, kSeg, X);
  fill(s, kSeg, Y);  // [Y r0, X r1]
  s.in.lk_valid = true;
  s.in.lk_vpn = vpn_a(kSeg, X.tag);
  s.in.lk_vmid = X.vmid;
  s.in.lk_vrf = X.vrf;
  LdsCtrlOut o = s.tick();  // A: registers only
  EXPECT_TRUE(o.lk_ready);
  EXPECT_FALSE(o.sram_en);
  s.in.lk_vpn = 0;  // the request inputs are no longer looked at
  s.in.lk_vmid = 0;
  s.in.lk_vrf = 1;
  o = s.tick();  // A+1 = I: read s
  EXPECT_FALSE(any_ready(o));
  EXPECT_TRUE(o.sram_en);
  EXPECT_FALSE(o.sram_we);
  EXPECT_EQ(o.sram_row, kRow);
  EXPECT_EQ(o.sram_bank_en, kSegBanks);
  // (wdata is not defined while we = 0: not checked)
  s.quiet();
  o = s.tick();  // A+2: DEC, no SRAM access, nothing decided yet
  EXPECT_FALSE(o.lk_resp_valid);
  EXPECT_FALSE(any_ready(o));
  EXPECT_FALSE(o.sram_en);
  EXPECT_FALSE(s.ev().lookup_hit || s.ev().lookup_miss);
  o = s.tick();  // A+3: CMP
  EXPECT_FALSE(o.lk_resp_valid);
  EXPECT_FALSE(any_ready(o));
  EXPECT_FALSE(o.sram_en);
  EXPECT_TRUE(s.ev().lookup_hit);
  o = s.tick();  // A+4: response valid, WRITE of the tag word
  EXPECT_TRUE(o.lk_resp_valid);
  EXPECT_TRUE(o.lk_resp_hit);
  EXPECT_EQ(o.lk_resp_ppn, X.ppn);
  EXPECT_EQ(o.lk_resp_perm, X.perm);
  EXPECT_TRUE(o.sram_en && o.sram_we);
  EXPECT_EQ(o.sram_row, kRow);
  EXPECT_EQ(o.sram_bank_en, kTagBanks);
  // X touched: [Y r1, X r0]; the image carries the unchanged slots.
  EXPECT_EQ(o.sram_wdata, seg_a(kWordYXTouched, Y.slot(), X.slot(), 0));
  o = s.out();  // A+5: IDLE, response still held
  EXPECT_TRUE(s.m.idle());
  EXPECT_TRUE(o.lk_resp_valid && o.lk_resp_hit);
  EXPECT_FALSE(o.lk_ready);
  EXPECT_EQ(s.m.sram_row_data(kRow), seg_a(kWordYXTouched, Y.slot(), X.slot(), 0));
  s.in.lk_resp_ready = true;
  s.tick();
  s.quiet();
  o = s.out();  // valid drops, the data holds
  EXPECT_FALSE(o.lk_resp_valid);
  EXPECT_TRUE(o.lk_resp_hit);
  EXPECT_EQ(o.lk_resp_ppn, X.ppn);
  EXPECT_TRUE(o.lk_ready);
}

TEST(LdsCtrlLookup, MissInTxSegmentRespondsAfterFourCyclesWithoutWrite) {
  Sim s(params_a());
  settle(s);
  fill(s, kSeg, X);
  s.in.lk_valid = true;
  s.in.lk_vpn = vpn_a(kSeg, X.tag);
  s.in.lk_vmid = X.vmid;
  s.in.lk_vrf = 1;  // another VRF: no match
  EXPECT_FALSE(s.tick().sram_en);  // A
  s.quiet();
  EXPECT_TRUE(s.tick().sram_en);  // I: read
  EXPECT_FALSE(s.tick().lk_resp_valid);  // DEC
  EXPECT_FALSE(s.ev().lookup_miss);
  EXPECT_FALSE(s.tick().lk_resp_valid);  // CMP
  EXPECT_TRUE(s.ev().lookup_miss);
  const LdsCtrlOut o = s.out();  // A+4 = I+3
  EXPECT_TRUE(s.m.idle());
  EXPECT_TRUE(o.lk_resp_valid);
  EXPECT_FALSE(o.lk_resp_hit);
  EXPECT_EQ(o.lk_resp_ppn, 0u);
  EXPECT_FALSE(o.sram_en);
  EXPECT_TRUE(o.fill_ready);
}

TEST(LdsCtrlLookup, ResponseRegisterHoldsUntilReady) {
  Sim s(params_a());
  settle(s);
  s.in.lk_valid = true;
  s.tick();  // A
  EXPECT_FALSE(s.out().lk_ready);  // ISSUE: not free
  s.tick();  // I: bypass
  s.quiet();
  for (int i = 0; i < 3; ++i) {
    s.in.lk_valid = true;  // a second lookup waits for the register
    const LdsCtrlOut o = s.tick();
    EXPECT_TRUE(o.lk_resp_valid);
    EXPECT_FALSE(o.lk_ready);
    EXPECT_FALSE(s.ev().lookup_bypass);
  }
  s.in.lk_resp_ready = true;
  const LdsCtrlOut o = s.tick();  // consumed at this edge; lk not ready in this cycle
  EXPECT_FALSE(o.lk_ready);
  s.in.lk_resp_ready = false;
  EXPECT_FALSE(s.out().lk_resp_valid);
  EXPECT_TRUE(s.out().lk_ready);
}

// ---------------------------------------------------------------------------
// Fills

TEST(LdsCtrlFill, FillIntoFreeSegmentWritesTheDocumentedImageInTheIssueCycle) {
  Sim s(params_a());
  settle(s);
  std::mt19937_64 rng(3);
  const Bits junk = random_row(s.p, rng);
  app_access(s, true, kRow, 0xFFFF, junk);  // stale application data in row 1
  s.in.fill_valid = true;
  s.in.fill_vpn = vpn_a(kSeg, X.tag);
  s.in.fill_vmid = X.vmid;
  s.in.fill_vrf = X.vrf;
  s.in.fill_ppn = X.ppn;
  s.in.fill_perm = X.perm;
  // Segment image: tag word {0, 0, X lru0 = 0x4B69, base 9} = 0x4B690009;
  // slot 0 = {perm 5, ppn 0xABCDE} = 0x5ABCDE; slots 1, 2 zero.
  const Bits image = seg_a(kWordX, 0x5ABCDE, 0, 0);
  LdsCtrlOut o = s.tick();  // A: registers only
  EXPECT_TRUE(o.fill_ready);
  EXPECT_FALSE(o.sram_en);
  EXPECT_FALSE(s.ev().fill_init);
  EXPECT_FALSE(s.m.mode_bit(kSeg));
  // I writes the registered request: the inputs no longer matter.
  s.quiet();
  s.in.fill_vpn = vpn_a(kSeg, Y.tag);
  s.in.fill_ppn = Y.ppn;
  o = s.tick();  // A+1 = I
  EXPECT_FALSE(any_ready(o));
  EXPECT_TRUE(o.sram_en && o.sram_we);
  EXPECT_EQ(o.sram_row, kRow);
  EXPECT_EQ(o.sram_bank_en, kSegBanks);
  EXPECT_EQ(o.sram_wdata, image);
  EXPECT_TRUE(s.ev().fill_init);
  EXPECT_TRUE(s.m.mode_bit(kSeg));
  EXPECT_FALSE(s.m.mode_bit(2));
  s.quiet();
  o = s.out();  // A+2: IDLE
  EXPECT_TRUE(s.m.idle());
  EXPECT_TRUE(o.fill_ready);
  EXPECT_FALSE(o.sram_en);
  // Bit by bit: segment 2 (words 0..3) keeps the application's data.
  Bits expect = image;
  for (unsigned b = 0; b < 256; ++b) expect.set(b, junk.get(b));
  const Bits row = s.m.sram_row_data(kRow);
  for (unsigned b = 0; b < 512; ++b) EXPECT_EQ(row.get(b), expect.get(b)) << "bit " << b;
}

TEST(LdsCtrlFill, FillIntoTxSegmentWithFreeWayFollowsFlow124) {
  Sim s(params_a());
  settle(s);
  fill(s, kSeg, X);
  s.in.fill_valid = true;
  s.in.fill_vpn = vpn_a(kSeg, Y.tag);
  s.in.fill_vmid = Y.vmid;
  s.in.fill_vrf = Y.vrf;
  s.in.fill_ppn = Y.ppn;
  s.in.fill_perm = Y.perm;
  LdsCtrlOut o = s.tick();  // A: IDLE
  EXPECT_FALSE(o.sram_en);
  s.quiet();
  o = s.tick();  // A+1: ISSUE, read s
  EXPECT_TRUE(o.sram_en && !o.sram_we);
  EXPECT_EQ(o.sram_row, kRow);
  EXPECT_EQ(o.sram_bank_en, kSegBanks);
  EXPECT_FALSE(any_ready(o));
  o = s.tick();  // A+2: DEC
  EXPECT_FALSE(o.sram_en);
  EXPECT_FALSE(any_ready(o));
  EXPECT_FALSE(s.ev().fill_insert_invalid);
  o = s.tick();  // A+3: CMP
  EXPECT_FALSE(o.sram_en);
  EXPECT_FALSE(any_ready(o));
  EXPECT_TRUE(s.ev().fill_insert_invalid);
  o = s.tick();  // A+4: WRITE (whole segment): [Y r0, X r1]
  EXPECT_TRUE(o.sram_en && o.sram_we);
  EXPECT_EQ(o.sram_bank_en, kSegBanks);
  EXPECT_EQ(o.sram_wdata, seg_a(kWordYX, Y.slot(), X.slot(), 0));
  EXPECT_FALSE(s.ev().fill_dropped);
  o = s.out();  // A+5: IDLE
  EXPECT_TRUE(s.m.idle());
  EXPECT_FALSE(o.vic_valid);
  EXPECT_TRUE(o.fill_ready);
  EXPECT_EQ(s.m.sram_row_data(kRow), seg_a(kWordYX, 0xA12345, 0x5ABCDE, 0));
}

TEST(LdsCtrlFill, FillIntoFullSegmentEvictsTheLruFollowsFlow12456) {
  Sim s(params_a());
  settle(s);
  fill(s, kSeg, X);
  fill(s, kSeg, Y);
  EXPECT_TRUE(fill(s, kSeg, Z).empty());  // [Z r0, X r2, Y r1]
  EXPECT_EQ(s.m.sram_row_data(kRow), seg_a(kWordZXY, Z.slot(), X.slot(), Y.slot()));
  s.in.fill_valid = true;
  s.in.fill_vpn = vpn_a(kSeg, V.tag);
  s.in.fill_vmid = V.vmid;
  s.in.fill_vrf = V.vrf;
  s.in.fill_ppn = V.ppn;
  s.in.fill_perm = V.perm;
  s.tick();  // A
  s.quiet();
  s.in.vic_ready = true;
  s.tick();  // A+1: ISSUE, read
  s.tick();  // A+2: DEC
  s.tick();  // A+3: CMP evicts X (rank 2, way 1); Z moves to way 1
  EXPECT_TRUE(s.ev().fill_evict_lru);
  LdsCtrlOut o = s.tick();  // A+4: WRITE [V r0, Z r1, Y r2]
  EXPECT_FALSE(o.vic_valid);
  EXPECT_EQ(o.sram_wdata, seg_a(kWordVZY, V.slot(), Z.slot(), Y.slot()));
  o = s.tick();  // A+5: VIC
  EXPECT_TRUE(o.vic_valid);
  EXPECT_EQ(vic_of(o), X.victim(kSeg));
  EXPECT_FALSE(any_ready(o));
  EXPECT_TRUE(s.ev().victim_out);
  o = s.out();  // A+6: IDLE
  EXPECT_TRUE(s.m.idle());
  EXPECT_FALSE(o.vic_valid);
  EXPECT_EQ(vic_of(o), Vic{});
  EXPECT_EQ(s.m.sram_row_data(kRow), seg_a(kWordVZY, V.slot(), Z.slot(), Y.slot()));
  EXPECT_FALSE(lookup(s, kSeg, X).hit);
  const Resp r = lookup(s, kSeg, Y);
  EXPECT_TRUE(r.hit);
  EXPECT_EQ(r.ppn, Y.ppn);
  EXPECT_EQ(r.latency, 4u);
}

TEST(LdsCtrlFill, FillIntoAllocatedSegmentBypassesFlow1236) {
  Sim s(params_a());
  settle(s);
  EXPECT_EQ(wg(s, false, 2, 2), 3u);  // [2, 4): WG, one CLEAR cycle, done at A+3
  ASSERT_TRUE(s.m.allocated(kSeg));
  s.in.fill_valid = true;
  s.in.fill_vpn = vpn_a(kSeg, X.tag);
  s.in.fill_vmid = X.vmid;
  s.in.fill_vrf = X.vrf;
  s.in.fill_ppn = X.ppn;
  s.in.fill_perm = X.perm;
  LdsCtrlOut o = s.tick();  // A
  EXPECT_TRUE(o.fill_ready);
  EXPECT_FALSE(o.sram_en);
  EXPECT_FALSE(s.ev().fill_bypass);
  s.quiet();
  o = s.tick();  // A+1 = I: the victim buffer takes the fill, no SRAM access
  EXPECT_FALSE(o.sram_en || o.vic_valid || any_ready(o));
  EXPECT_TRUE(s.ev().fill_bypass);
  for (int i = 0; i < 2; ++i) {  // back-pressure holds the victim
    o = s.tick();
    EXPECT_TRUE(o.vic_valid);
    EXPECT_EQ(vic_of(o), X.victim(kSeg));
    EXPECT_TRUE(s.ev().victim_stalled);
  }
  s.in.vic_ready = true;
  o = s.tick();  // the last VIC cycle
  EXPECT_TRUE(o.vic_valid);
  EXPECT_TRUE(s.ev().victim_out);
  EXPECT_TRUE(s.m.idle());
  EXPECT_FALSE(s.m.mode_bit(kSeg));
  // Flow 1-2-3-6 with vic_ready high: A IDLE, A+1 ISSUE, A+2 VIC, A+3 IDLE.
  s.quiet();
  s.in.fill_valid = true;
  s.in.fill_vpn = vpn_a(kSeg, Y.tag);
  s.tick();
  s.quiet();
  s.in.vic_ready = true;
  EXPECT_FALSE(s.tick().vic_valid);
  EXPECT_TRUE(s.tick().vic_valid);
  EXPECT_TRUE(s.m.idle());
}

TEST(LdsCtrlFill, FillOfAPresentTranslationOverwritesItWithoutEviction) {
  Sim s(params_a());
  settle(s);
  fill(s, kSeg, X);
  fill(s, kSeg, Y);  // [Y r0, X r1]
  Tx x2 = X;
  x2.ppn = 0x55555;
  x2.perm = 0xF;
  s.in.fill_valid = true;
  s.in.fill_vpn = vpn_a(kSeg, x2.tag);
  s.in.fill_vmid = x2.vmid;
  s.in.fill_vrf = x2.vrf;
  s.in.fill_ppn = x2.ppn;
  s.in.fill_perm = x2.perm;
  s.tick();  // A
  s.quiet();
  s.tick();  // I: read
  s.tick();  // DEC
  s.tick();  // CMP
  EXPECT_TRUE(s.ev().fill_update);
  EXPECT_FALSE(s.ev().fill_evict_lru || s.ev().fill_insert_invalid);
  // Way 1 matched (rank 1): Y's rank 0 -> 1; X' to way 0, Y to way 1:
  // {0, Y lru1 0x8033, X lru0 0x4B69, base 9}.
  const LdsCtrlOut o = s.tick();
  EXPECT_EQ(o.sram_wdata, seg_a(0x000080334B690009, x2.slot(), Y.slot(), 0));
  EXPECT_TRUE(s.m.idle());  // A+5: no victims
  const Resp r = lookup(s, kSeg, X);
  EXPECT_TRUE(r.hit);
  EXPECT_EQ(r.ppn, 0x55555u);
  EXPECT_EQ(r.perm, 0xFu);
}

TEST(LdsCtrlFill, CompressionFailureEvictsTheLruThenTheDroppedInSlotOrder) {
  Sim s(params_a());
  settle(s);
  fill(s, kSeg, X);
  fill(s, kSeg, Y);
  fill(s, kSeg, Z);  // [Z r0, X r2, Y r1]
  // W (prefix 2): X evicted (way 1), Z -> way 1 rank 1, Y rank 2; Z and Y
  // have prefix 9 and are dropped. Victims: X, then Z (slot 1), Y (slot 2).
  s.in.fill_valid = true;
  s.in.fill_vpn = vpn_a(kSeg, W.tag);
  s.in.fill_vmid = W.vmid;
  s.in.fill_vrf = W.vrf;
  s.in.fill_ppn = W.ppn;
  s.in.fill_perm = W.perm;
  s.tick();  // A
  s.quiet();
  s.tick();  // I: read
  s.tick();  // DEC
  s.tick();  // CMP
  EXPECT_TRUE(s.ev().fill_evict_lru);
  const LdsCtrlOut o = s.tick();  // WRITE: only W in the tag word; the slots keep their data
  EXPECT_TRUE(s.ev().fill_dropped);
  EXPECT_EQ(o.sram_wdata, seg_a(kWordW, W.slot(), Z.slot(), Y.slot()));
  LdsCtrlOut v = s.tick();  // A+5: first VIC cycle, vic_ready low: held
  ASSERT_TRUE(v.vic_valid);
  EXPECT_TRUE(s.ev().victim_stalled);
  const Vic first = vic_of(v);
  s.in.vic_ready = true;
  std::vector<Vic> victims;
  for (int i = 0; i < 3; ++i) {
    v = s.tick();
    ASSERT_TRUE(v.vic_valid);
    victims.push_back(vic_of(v));
  }
  EXPECT_EQ(first, victims[0]);
  EXPECT_TRUE(s.m.idle());
  ASSERT_EQ(victims.size(), 3u);
  EXPECT_EQ(victims[0], X.victim(kSeg));
  EXPECT_EQ(victims[1], Z.victim(kSeg));
  EXPECT_EQ(victims[2], Y.victim(kSeg));
  for (const Tx& t : {X, Y, Z}) EXPECT_FALSE(lookup(s, kSeg, t).hit);
  EXPECT_TRUE(lookup(s, kSeg, W).hit);
}

TEST(LdsCtrlFill, CompressionFailureWithoutEvictionHandsOutTheDroppedOnly) {
  Sim s(params_a());
  settle(s);
  fill(s, kSeg, X);
  fill(s, kSeg, Y);  // [Y r0, X r1]
  // W into the invalid way 2 (k = 2): Y -> rank 1, X -> rank 2; Y moves to
  // way 2: [W r0, X r2, Y r1]; X (slot 1) and Y (slot 2) dropped.
  const std::vector<Vic> v = fill(s, kSeg, W);
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[0], X.victim(kSeg));
  EXPECT_EQ(v[1], Y.victim(kSeg));
  EXPECT_EQ(s.m.sram_row_data(kRow), seg_a(kWordW, W.slot(), X.slot(), Y.slot()));
}

// ---------------------------------------------------------------------------
// Work groups
//
// "Work-group requests are registered at A's edge ... and carried out in the
// next cycle, state WG (A+1)": the table changes at A+1's edge (events alloc /
// free_op there); an allocation clears from A+2, done the cycle after its
// last CLEAR cycle; an empty allocation and a free are done in A+2.

TEST(LdsCtrlWorkGroup, AllocationOverTxSegmentsDropsTheirTranslations) {
  Sim s(params_a());
  settle(s);
  fill(s, 3, X);
  fill(s, 5, X);
  fill(s, 12, X);
  fill(s, 19, X);
  // [2, 5): one group (0) -> A+1 WG, A+2 CLEAR, A+3 IDLE with wg_done.
  s.in.wg_valid = true;
  s.in.wg_base = 2;
  s.in.wg_size = 3;
  s.in.sd_valid = s.in.lk_valid = s.in.fill_valid = true;
  LdsCtrlOut o = s.tick();  // A: registers only
  EXPECT_TRUE(o.wg_ready);
  EXPECT_FALSE(o.sd_ready || o.lk_ready || o.fill_ready);  // wg_fire
  EXPECT_FALSE(o.sram_en || o.wg_done);
  EXPECT_FALSE(s.ev().alloc || s.ev().alloc_over_tx);
  EXPECT_FALSE(s.m.allocated(2) || s.m.allocated(4));  // the table is written in WG
  EXPECT_FALSE(s.m.idle());
  // A+1 = WG: the inputs are registered, what they show now does not matter.
  s.quiet();
  s.in.wg_valid = s.in.sd_valid = s.in.lk_valid = s.in.fill_valid = true;
  s.in.wg_base = 20;
  s.in.wg_size = 7;
  s.in.wg_free = true;
  o = s.tick();
  EXPECT_FALSE(any_ready(o) || o.wg_done || o.sram_en);
  EXPECT_TRUE(s.ev().alloc);
  EXPECT_FALSE(s.ev().alloc_over_tx || s.ev().free_op);
  EXPECT_TRUE(s.m.allocated(2) && s.m.allocated(4) && !s.m.allocated(5) && !s.m.allocated(20));
  EXPECT_TRUE(s.m.mode_bit(3));  // no mode bit changes in WG
  s.quiet();
  o = s.tick();  // A+2: CLEAR group 0
  EXPECT_FALSE(any_ready(o) || o.wg_done || o.sram_en);
  EXPECT_FALSE(s.ev().alloc);
  EXPECT_TRUE(s.ev().alloc_over_tx);
  EXPECT_FALSE(s.m.mode_bit(3));
  EXPECT_TRUE(s.m.mode_bit(5));
  o = s.tick();  // A+3
  EXPECT_TRUE(o.wg_done);
  EXPECT_TRUE(o.wg_ready);
  EXPECT_TRUE(s.m.idle());
  EXPECT_FALSE(s.out().wg_done);  // one-cycle pulse
  const Resp r3 = lookup(s, 3, X);
  EXPECT_FALSE(r3.hit);
  EXPECT_EQ(r3.latency, 2u);
  EXPECT_TRUE(lookup(s, 5, X).hit);
  // [6, 20): groups 0, 1, 2 -> WG at A+1, CLEAR A+2..A+4, wg_done at A+5.
  s.in.wg_valid = true;
  s.in.wg_base = 6;
  s.in.wg_size = 14;
  s.tick();  // A
  EXPECT_FALSE(s.ev().alloc);
  s.quiet();
  s.tick();  // A+1: WG
  EXPECT_TRUE(s.ev().alloc);
  EXPECT_FALSE(s.ev().alloc_over_tx);
  EXPECT_TRUE(s.m.allocated(6) && s.m.allocated(19) && !s.m.allocated(20));
  EXPECT_TRUE(s.m.mode_bit(12) && s.m.mode_bit(19));
  s.tick();  // A+2: group 0 (6, 7)
  EXPECT_FALSE(s.ev().alloc_over_tx);
  EXPECT_TRUE(s.m.mode_bit(12));
  s.tick();  // A+3: group 1 (8..15)
  EXPECT_TRUE(s.ev().alloc_over_tx);
  EXPECT_FALSE(s.m.mode_bit(12));
  EXPECT_TRUE(s.m.mode_bit(19));
  EXPECT_FALSE(s.out().wg_done);
  s.tick();  // A+4: group 2 (16..19)
  EXPECT_TRUE(s.ev().alloc_over_tx);
  EXPECT_FALSE(s.m.mode_bit(19));
  EXPECT_TRUE(s.m.mode_bit(5));
  EXPECT_TRUE(s.out().wg_done);  // A+5
  EXPECT_TRUE(s.m.idle());
}

TEST(LdsCtrlWorkGroup, EmptyAllocationAndFreeCompleteTwoCyclesAfterTheAccept) {
  Sim s(params_a());
  settle(s);
  EXPECT_EQ(wg(s, false, 7, 0), 2u);      // empty range: WG at A+1, done at A+2
  EXPECT_EQ(wg(s, true, 9, 3), 2u);       // free that matches nothing
  EXPECT_EQ(wg(s, false, 30, 9), 3u);     // end = min(39, 32): one group
  EXPECT_TRUE(s.m.allocated(31));
  EXPECT_EQ(wg(s, false, 0, 1), 3u);
  EXPECT_EQ(wg(s, false, 20, 1), 3u);     // fourth entry: the table is full
  s.in.wg_valid = true;
  s.in.wg_base = 4;
  s.in.wg_size = 1;
  LdsCtrlOut o = s.out();
  EXPECT_FALSE(o.wg_ready);  // no invalid entry for an allocation
  EXPECT_TRUE(o.sd_ready);   // no wg_fire, so the shootdown may go
  s.in.wg_free = true;
  s.in.wg_base = 30;
  s.in.wg_size = 9;  // the size it was allocated with
  o = s.tick();      // A
  EXPECT_TRUE(o.wg_ready);
  EXPECT_FALSE(s.ev().free_op);
  EXPECT_TRUE(s.m.allocated(31));  // released in WG, not at A's edge
  s.quiet();
  o = s.tick();  // A+1: WG, the entry is released at this edge
  EXPECT_FALSE(any_ready(o) || o.wg_done || o.sram_en);
  EXPECT_TRUE(s.ev().free_op);
  EXPECT_FALSE(s.ev().alloc);
  EXPECT_FALSE(s.m.allocated(31));
  EXPECT_TRUE(s.m.allocated(0));
  EXPECT_TRUE(s.m.idle());
  o = s.out();  // A+2: IDLE, wg_done, and an allocation may go again
  EXPECT_TRUE(o.wg_done);
  s.in.wg_valid = true;
  s.in.wg_base = 4;
  s.in.wg_size = 1;
  EXPECT_TRUE(s.out().wg_ready);
  s.quiet();
  EXPECT_EQ(wg(s, true, 7, 0), 2u);  // frees the empty entry
  EXPECT_EQ(wg(s, false, 4, 1), 3u);
  EXPECT_EQ(wg(s, false, 5, 1), 3u);
  s.in.wg_valid = true;
  EXPECT_FALSE(s.out().wg_ready);
}

// The engine is busy from A's edge until the done cycle: a following request
// is accepted at the earliest in the cycle with wg_done and sees the table as
// the WG edge left it.
TEST(LdsCtrlWorkGroup, TableChangeIsVisibleToTheNextFillAtTheDoneCycle) {
  Sim s(params_a());
  settle(s);
  // Allocate [3, 4): A, A+1 WG, A+2 CLEAR, A+3 done with the fill accepted.
  s.in.wg_valid = true;
  s.in.wg_base = kSeg;
  s.in.wg_size = 1;
  s.in.fill_valid = true;
  s.in.fill_vpn = vpn_a(kSeg, X.tag);
  s.in.fill_vmid = X.vmid;
  s.in.fill_vrf = X.vrf;
  s.in.fill_ppn = X.ppn;
  s.in.fill_perm = X.perm;
  EXPECT_FALSE(s.tick().fill_ready);  // A: wg_fire
  s.in.wg_valid = false;
  EXPECT_FALSE(s.tick().fill_ready);  // A+1: WG
  EXPECT_TRUE(s.m.allocated(kSeg));
  EXPECT_FALSE(s.tick().fill_ready);  // A+2: CLEAR
  LdsCtrlOut o = s.tick();            // A+3: done, the fill is accepted
  EXPECT_TRUE(o.wg_done && o.fill_ready);
  s.in.fill_valid = false;
  s.in.vic_ready = true;
  s.tick();  // I: bypass (allocated)
  EXPECT_TRUE(s.ev().fill_bypass);
  o = s.tick();  // VIC
  EXPECT_TRUE(o.vic_valid);
  EXPECT_EQ(vic_of(o), X.victim(kSeg));
  EXPECT_TRUE(s.m.idle());
  EXPECT_FALSE(s.m.mode_bit(kSeg));
  // Free [3, 4): A, A+1 WG, A+2 done with the fill accepted: initialise.
  s.quiet();
  s.in.wg_valid = true;
  s.in.wg_free = true;
  s.in.wg_base = kSeg;
  s.in.wg_size = 1;
  s.in.fill_valid = true;
  s.in.fill_vpn = vpn_a(kSeg, X.tag);
  s.in.fill_vmid = X.vmid;
  s.in.fill_vrf = X.vrf;
  s.in.fill_ppn = X.ppn;
  s.in.fill_perm = X.perm;
  EXPECT_FALSE(s.tick().fill_ready);  // A
  EXPECT_TRUE(s.m.allocated(kSeg));
  s.in.wg_valid = false;
  EXPECT_FALSE(s.tick().fill_ready);  // A+1: WG
  EXPECT_FALSE(s.m.allocated(kSeg));
  o = s.tick();  // A+2: done, the fill is accepted
  EXPECT_TRUE(o.wg_done && o.fill_ready);
  s.in.fill_valid = false;
  o = s.tick();  // I: the init write
  EXPECT_TRUE(s.ev().fill_init);
  EXPECT_TRUE(o.sram_en && o.sram_we);
  EXPECT_TRUE(s.m.mode_bit(kSeg));
  EXPECT_EQ(lookup(s, kSeg, X).latency, 4u);
}

// WG needs no SRAM: application traffic neither delays it nor is disturbed.
TEST(LdsCtrlWorkGroup, TrafficDoesNotDelayTheWgCycle) {
  Sim s(params_a());
  settle(s);
  auto traffic = [&]() {
    s.quiet();
    s.in.app_valid = true;
    s.in.app_row = 9;
    s.in.app_bank_en = 0xFFFF;
  };
  traffic();
  s.in.wg_valid = true;
  s.in.wg_base = 8;
  s.in.wg_size = 2;
  LdsCtrlOut o = s.tick();  // A
  EXPECT_TRUE(o.wg_ready);
  EXPECT_TRUE(o.sram_en && !o.sram_we && o.sram_row == 9u);
  traffic();
  o = s.tick();  // A+1: WG
  EXPECT_TRUE(s.ev().alloc);
  EXPECT_TRUE(o.sram_en && !o.sram_we && o.sram_row == 9u);
  traffic();
  s.tick();  // A+2: CLEAR
  traffic();
  EXPECT_TRUE(s.out().wg_done);  // A+3
  traffic();
  s.in.wg_valid = true;
  s.in.wg_free = true;
  s.in.wg_base = 8;
  s.in.wg_size = 2;
  s.tick();  // A
  traffic();
  s.tick();  // A+1: WG
  EXPECT_TRUE(s.ev().free_op);
  EXPECT_FALSE(s.m.allocated(8));
  traffic();
  EXPECT_TRUE(s.out().wg_done);  // A+2
}

// "the lowest valid table entry allocated with the same base and the same
// size becomes invalid": (30, 2) and (30, 9) both clamp to [30, 32), and a
// free names the size, not the clamped end.
TEST(LdsCtrlWorkGroup, FreeMatchesTheAllocatedSizeNotTheClampedEnd) {
  Sim s(params_a());
  settle(s);
  EXPECT_EQ(wg(s, false, 30, 2), 3u);  // entry 0: [30, 32)
  EXPECT_EQ(wg(s, false, 30, 9), 3u);  // entry 1: [30, min(39, 32)) = [30, 32)
  EXPECT_EQ(wg(s, false, 0, 1), 3u);   // entry 2
  EXPECT_EQ(wg(s, false, 4, 1), 3u);   // entry 3: the table is full
  s.in.wg_valid = true;
  s.in.wg_base = 8;
  s.in.wg_size = 1;
  EXPECT_FALSE(s.out().wg_ready);
  // A third size that clamps to the same end matches nothing: the table stays
  // full (a match on the clamped end would release entry 0).
  EXPECT_EQ(wg(s, true, 30, 5), 2u);
  s.in.wg_valid = true;
  s.in.wg_free = false;
  s.in.wg_base = 8;
  s.in.wg_size = 1;
  EXPECT_FALSE(s.out().wg_ready);
  s.quiet();
  // Free (30, 2) releases entry 0 only; entry 1 (30, 9) keeps [30, 32)
  // allocated (a match on the end would take entry 1 now, or nothing is left).
  EXPECT_EQ(wg(s, true, 30, 2), 2u);
  EXPECT_TRUE(s.m.allocated(30) && s.m.allocated(31));
  s.in.wg_valid = true;
  s.in.wg_base = 8;
  s.in.wg_size = 1;
  EXPECT_TRUE(s.out().wg_ready);  // one entry is invalid again
  s.quiet();
  // A second free (30, 2) matches nothing.
  EXPECT_EQ(wg(s, true, 30, 2), 2u);
  EXPECT_TRUE(s.m.allocated(31));
  // Fill into segment 31 is still a bypass (allocated).
  EXPECT_EQ(fill(s, 31, X), std::vector<Vic>{X.victim(31)});
  EXPECT_FALSE(s.m.mode_bit(31));
  // Free (30, 9) releases entry 1: the range is free now, a fill initialises it.
  EXPECT_EQ(wg(s, true, 30, 9), 2u);
  EXPECT_FALSE(s.m.allocated(30) || s.m.allocated(31));
  EXPECT_TRUE(s.m.allocated(0) && s.m.allocated(4));
  EXPECT_TRUE(fill(s, 31, X).empty());
  EXPECT_TRUE(s.m.mode_bit(31));
  // The size is kept with its SI+1 bits: (28, 36) clamps to [28, 32); the
  // free of (28, 4), same end, leaves it; (28, 36) releases it.
  EXPECT_EQ(wg(s, false, 28, 36), 3u);
  EXPECT_TRUE(s.m.allocated(28));
  EXPECT_EQ(wg(s, true, 28, 4), 2u);
  EXPECT_TRUE(s.m.allocated(28));
  EXPECT_EQ(wg(s, true, 28, 36), 2u);
  EXPECT_FALSE(s.m.allocated(28));
}

TEST(LdsCtrlWorkGroup, FreeThenRefillInitialisesTheSegment) {
  Sim s(params_a());
  settle(s);
  fill(s, kSeg, X);
  EXPECT_EQ(wg(s, false, 2, 3), 3u);
  std::mt19937_64 rng(11);
  const Bits data = random_row(s.p, rng);
  app_access(s, true, kRow, 0xFFFF, data);
  EXPECT_EQ(s.m.sram_row_data(kRow), data);
  EXPECT_EQ(wg(s, true, 2, 3), 2u);
  EXPECT_FALSE(s.m.allocated(kSeg));
  EXPECT_FALSE(s.m.mode_bit(kSeg));  // free: LDS-mode and not allocated
  EXPECT_FALSE(lookup(s, kSeg, X).hit);
  s.in.fill_valid = true;
  s.in.fill_vpn = vpn_a(kSeg, X.tag);
  s.in.fill_vmid = X.vmid;
  s.in.fill_ppn = X.ppn;
  s.in.fill_perm = X.perm;
  s.tick();  // A
  s.quiet();
  const LdsCtrlOut o = s.tick();  // I: the init write
  EXPECT_TRUE(s.ev().fill_init);
  EXPECT_TRUE(o.sram_en && o.sram_we);
  EXPECT_EQ(o.sram_bank_en, kSegBanks);
  EXPECT_TRUE(s.m.idle());
  Bits expect = seg_a(kWordX, X.slot(), 0, 0);
  for (unsigned b = 0; b < 256; ++b) expect.set(b, data.get(b));
  EXPECT_EQ(s.m.sram_row_data(kRow), expect);
  const Resp r = lookup(s, kSeg, X);
  EXPECT_TRUE(r.hit);
  EXPECT_EQ(r.latency, 4u);
}

// ---------------------------------------------------------------------------
// Application

TEST(LdsCtrlApplication, WriteClearsTheModeBitsOfTouchedSegmentsOnly) {
  Sim s(params_a());
  settle(s);
  fill(s, 2, X);
  fill(s, 3, X);
  app_access(s, true, kRow, 0xFFFF, Bits(512));
  EXPECT_TRUE(s.ev().app_write_over_tx);
  EXPECT_FALSE(s.m.mode_bit(2) || s.m.mode_bit(3));
  fill(s, 2, X);
  fill(s, 3, X);
  app_access(s, true, kRow, 0x0100, Bits(512));  // bank 8: segment 3 only
  EXPECT_TRUE(s.m.mode_bit(2));
  EXPECT_FALSE(s.m.mode_bit(3));
  app_access(s, true, kRow, 0, Bits(512));  // no bank enabled
  EXPECT_TRUE(s.m.mode_bit(2));
  EXPECT_FALSE(s.ev().app_write_over_tx);
  app_access(s, false, kRow, 0xFFFF, Bits(512));  // reads never clear
  EXPECT_TRUE(s.m.mode_bit(2));
  const LdsCtrlOut o = s.out();
  EXPECT_TRUE(o.app_rvalid);
  EXPECT_EQ(o.app_rdata, s.m.sram_row_data(kRow));
  EXPECT_TRUE(s.tick().app_rvalid);
  EXPECT_FALSE(s.out().app_rvalid);
  EXPECT_FALSE(lookup(s, 3, X).hit);
  EXPECT_TRUE(lookup(s, 2, X).hit);
}

TEST(LdsCtrlApplication, PortPassesTheApplicationThroughVerbatim) {
  Sim s(params_a());
  settle(s);
  std::mt19937_64 rng(5);
  const Bits data = random_row(s.p, rng);
  s.in.app_valid = true;
  s.in.app_we = false;  // wdata is passed even for reads
  s.in.app_row = 9;
  s.in.app_bank_en = 0x00F0;
  s.in.app_wdata = data;
  const LdsCtrlOut o = s.tick();
  EXPECT_TRUE(o.sram_en && !o.sram_we);
  EXPECT_EQ(o.sram_row, 9u);
  EXPECT_EQ(o.sram_bank_en, 0x00F0u);
  EXPECT_EQ(o.sram_wdata, data);
}

// The WRITE-time check "if mode[s] = 1" sees an application write to s in any
// cycle after the read: I+1 (DEC), I+2 (CMP) or a cycle WRITE waits in.
// `after` lists the application's actions from I+1 on: '-' none, 'r' read of
// row 4 (another row), 'w' write of bank 12 of row 1 (segment 3). Actions
// from I+3 on must be accesses (they stall WRITE).
void fill_write_cancelled(const std::string& after) {
  SCOPED_TRACE("application from I+1: " + after);
  Sim s(params_a());
  settle(s);
  fill(s, kSeg, X);
  s.in.fill_valid = true;
  s.in.fill_vpn = vpn_a(kSeg, Y.tag);
  s.in.fill_vmid = Y.vmid;
  s.in.fill_vrf = Y.vrf;
  s.in.fill_ppn = Y.ppn;
  s.in.fill_perm = Y.perm;
  s.tick();  // A
  s.quiet();
  EXPECT_TRUE(s.tick().sram_en);  // A+1 = I: read
  std::mt19937_64 rng(9);
  for (size_t c = 0; c < after.size(); ++c) {  // cycle I+1+c
    s.quiet();
    if (after[c] != '-') {
      s.in.app_valid = true;
      s.in.app_we = after[c] == 'w';
      s.in.app_row = after[c] == 'w' ? kRow : 4;
      s.in.app_bank_en = after[c] == 'w' ? 0x1000 : 0xFFFF;
      s.in.app_wdata = random_row(s.p, rng);
    }
    const LdsCtrlOut o = s.tick();
    EXPECT_FALSE(o.sram_en && o.sram_we && !s.in.app_valid);
    EXPECT_FALSE(s.ev().write_cancelled);
    if (c >= 2) {
      EXPECT_TRUE(s.ev().write_stalled);
    }
    if (after[c] == 'w') {
      EXPECT_TRUE(s.ev().app_write_over_tx);
      EXPECT_FALSE(s.m.mode_bit(kSeg));
    }
  }
  const Bits after_app = s.m.sram_row_data(kRow);
  s.quiet();
  // The engine reaches WRITE (I+3) or is in it: the first quiet WRITE cycle
  // finds LDS-mode and writes nothing.
  for (size_t c = after.size(); c < 2; ++c) s.tick();  // DEC / CMP
  LdsCtrlOut o = s.tick();
  EXPECT_FALSE(o.sram_en);
  EXPECT_TRUE(s.ev().write_cancelled);
  EXPECT_FALSE(s.ev().fill_dropped);
  o = s.tick();  // VIC with the fill's own translation
  EXPECT_TRUE(o.vic_valid);
  EXPECT_EQ(vic_of(o), Y.victim(kSeg));
  EXPECT_TRUE(s.ev().victim_stalled);
  s.in.vic_ready = true;
  s.tick();
  EXPECT_TRUE(s.m.idle());
  EXPECT_EQ(s.m.sram_row_data(kRow), after_app);
  EXPECT_FALSE(s.m.mode_bit(kSeg));
  EXPECT_FALSE(lookup(s, kSeg, X).hit);
}

TEST(LdsCtrlApplication, WriteOverTheSegmentCancelsAPendingFillWrite) {
  fill_write_cancelled("w");      // I+1 (DEC)
  fill_write_cancelled("-w");     // I+2 (CMP)
  fill_write_cancelled("--w");    // I+3 (WRITE, stalled by the write itself)
  fill_write_cancelled("r-rrw");  // read in DEC, then WRITE waits and the write comes in its third cycle
  fill_write_cancelled("wrr");    // written in DEC, WRITE stalled by reads
}

// "A lookup hit is answered from the data read in I even if the application
// writes the segment in I+1 or later; only its LRU write-back is then
// cancelled."
void hit_write_back_cancelled(unsigned write_cycle) {  // I + write_cycle
  SCOPED_TRACE("application write in I+" + std::to_string(write_cycle));
  Sim s(params_a());
  settle(s);
  fill(s, kSeg, X);
  fill(s, kSeg, Y);
  s.in.lk_valid = true;
  s.in.lk_vpn = vpn_a(kSeg, X.tag);
  s.in.lk_vmid = X.vmid;
  s.tick();  // A
  s.quiet();
  s.tick();  // A+1 = I: read
  for (unsigned c = 1; c <= 2; ++c) {  // I+1 DEC, I+2 CMP
    s.quiet();
    if (c == write_cycle) {
      s.in.app_valid = true;
      s.in.app_we = true;
      s.in.app_row = kRow;
      s.in.app_bank_en = 0x8000;  // bank 15: segment 3
    }
    s.tick();
    EXPECT_EQ(s.ev().lookup_hit, c == 2);
  }
  s.quiet();
  const Bits after_app = s.m.sram_row_data(kRow);
  EXPECT_FALSE(s.m.mode_bit(kSeg));
  const LdsCtrlOut o = s.tick();  // I+3: the hit is answered, the write-back dropped
  EXPECT_TRUE(o.lk_resp_valid && o.lk_resp_hit);
  EXPECT_EQ(o.lk_resp_ppn, X.ppn);
  EXPECT_FALSE(o.sram_en);
  EXPECT_TRUE(s.ev().write_cancelled);
  EXPECT_TRUE(s.m.idle());
  EXPECT_EQ(s.m.sram_row_data(kRow), after_app);
}

TEST(LdsCtrlApplication, WriteOverTheSegmentCancelsTheLruWriteBackOfAHit) {
  hit_write_back_cancelled(1);
  hit_write_back_cancelled(2);
}

// DEC registers the decompressed segment in I+1: an application read of
// another row in I+1 replaces the SRAM read register at I+1's edge, and CMP
// (I+2) must not see it. Row 4 holds, at segment 3's bank positions, an image
// in which X would hit with another PPN.
TEST(LdsCtrlDec, ApplicationReadInDecDoesNotChangeTheLookupResult) {
  Sim s(params_a());
  settle(s);
  fill(s, kSeg, X);
  fill(s, kSeg, Y);  // [Y r0, X r1]
  const Bits decoy = seg_a(kWordX, 0x923456, 0, 0);  // [X0] with ppn 0x23456, perm 9
  app_access(s, true, 4, 0xFFFF, decoy);
  s.in.lk_valid = true;
  s.in.lk_vpn = vpn_a(kSeg, X.tag);
  s.in.lk_vmid = X.vmid;
  s.in.lk_vrf = X.vrf;
  s.tick();  // A
  s.quiet();
  EXPECT_TRUE(s.tick().sram_en);  // I: read of segment 3
  for (unsigned k = 4; k < 8; ++k) {  // segment 3's words of the read register
    EXPECT_EQ(s.out().app_rdata.field(64 * k, 64), seg_a(kWordYX, Y.slot(), X.slot(), 0).field(64 * k, 64));
  }
  s.in.app_valid = true;  // I+1 (DEC): the application reads row 4
  s.in.app_row = 4;
  s.in.app_bank_en = 0xFFFF;
  LdsCtrlOut o = s.tick();
  EXPECT_TRUE(o.sram_en && !o.sram_we);
  EXPECT_EQ(o.sram_row, 4u);
  s.quiet();
  o = s.tick();  // I+2: CMP, with the read register now holding row 4
  EXPECT_EQ(o.app_rdata, decoy);
  EXPECT_TRUE(s.ev().lookup_hit);
  o = s.tick();  // I+3: response from the DEC register; LRU write-back of the original
  EXPECT_TRUE(o.lk_resp_valid && o.lk_resp_hit);
  EXPECT_EQ(o.lk_resp_ppn, X.ppn);
  EXPECT_EQ(o.lk_resp_perm, X.perm);
  EXPECT_TRUE(o.sram_en && o.sram_we);
  EXPECT_EQ(o.sram_row, kRow);
  EXPECT_EQ(o.sram_bank_en, kTagBanks);
  EXPECT_EQ(o.sram_wdata, seg_a(kWordYXTouched, Y.slot(), X.slot(), 0));
  EXPECT_TRUE(s.m.idle());
  EXPECT_EQ(s.m.sram_row_data(kRow), seg_a(kWordYXTouched, Y.slot(), X.slot(), 0));
  // The mirror case: a decoy in which nothing matches, read in I+1 and I+2.
  s.in.lk_resp_ready = true;
  s.tick();
  s.quiet();
  app_access(s, true, 4, 0xFFFF, Bits(512));
  s.in.lk_valid = true;
  s.in.lk_vpn = vpn_a(kSeg, Y.tag);
  s.in.lk_vmid = Y.vmid;
  s.in.lk_vrf = Y.vrf;
  s.tick();  // A
  s.quiet();
  s.tick();  // I
  for (int c = 0; c < 2; ++c) {  // DEC, CMP: the application reads row 4 (zeros)
    s.in.app_valid = true;
    s.in.app_row = 4;
    s.in.app_bank_en = 0xFFFF;
    s.tick();
  }
  EXPECT_TRUE(s.ev().lookup_hit);
  s.quiet();
  o = s.tick();
  EXPECT_TRUE(o.lk_resp_valid && o.lk_resp_hit);
  EXPECT_EQ(o.lk_resp_ppn, Y.ppn);
}

TEST(LdsCtrlDec, ApplicationReadsInDecAndCmpDoNotChangeTheFillCandidate) {
  Sim s(params_a());
  settle(s);
  fill(s, kSeg, X);
  fill(s, kSeg, Y);  // [Y r0, X r1]
  std::mt19937_64 rng(21);
  app_access(s, true, 4, 0xFFFF, random_row(s.p, rng));
  s.in.fill_valid = true;
  s.in.fill_vpn = vpn_a(kSeg, Z.tag);
  s.in.fill_vmid = Z.vmid;
  s.in.fill_vrf = Z.vrf;
  s.in.fill_ppn = Z.ppn;
  s.in.fill_perm = Z.perm;
  s.tick();  // A
  s.quiet();
  s.tick();  // I: read
  for (int c = 0; c < 2; ++c) {  // DEC, CMP: the application reads row 4
    s.in.app_valid = true;
    s.in.app_row = 4;
    s.in.app_bank_en = 0xFFFF;
    s.tick();
  }
  EXPECT_TRUE(s.ev().fill_insert_invalid);
  s.quiet();
  const LdsCtrlOut o = s.tick();  // I+3: WRITE of the candidate built from the read in I
  EXPECT_TRUE(o.sram_en && o.sram_we);
  EXPECT_EQ(o.sram_wdata, seg_a(kWordZXY, Z.slot(), X.slot(), Y.slot()));
  EXPECT_TRUE(s.m.idle());
  EXPECT_EQ(s.m.sram_row_data(kRow), seg_a(kWordZXY, Z.slot(), X.slot(), Y.slot()));
}

TEST(LdsCtrlApplication, TrafficStarvesTheWriteThenReleasesIt) {
  Sim s(params_a());
  settle(s);
  fill(s, kSeg, X);
  // A fill into the Tx segment: read in I, then the application takes the port.
  s.in.fill_valid = true;
  s.in.fill_vpn = vpn_a(kSeg, Y.tag);
  s.in.fill_vmid = Y.vmid;
  s.in.fill_vrf = Y.vrf;
  s.in.fill_ppn = Y.ppn;
  s.in.fill_perm = Y.perm;
  s.tick();  // A
  s.quiet();
  EXPECT_TRUE(s.tick().sram_en);  // A+1 = I: read
  s.in.app_valid = true;          // reads of row 4 from A+2 to A+8
  s.in.app_row = 4;
  s.in.app_bank_en = 0xFFFF;
  s.tick();  // DEC
  EXPECT_FALSE(s.ev().write_stalled);
  s.tick();  // CMP
  EXPECT_TRUE(s.ev().fill_insert_invalid);
  EXPECT_FALSE(s.ev().write_stalled);
  for (int i = 0; i < 5; ++i) {
    const LdsCtrlOut o = s.tick();  // WRITE, stalled
    EXPECT_TRUE(s.ev().write_stalled);
    EXPECT_TRUE(o.sram_en && !o.sram_we);
    EXPECT_EQ(o.sram_row, 4u);
    EXPECT_FALSE(any_ready(o));
  }
  s.in.app_valid = false;
  LdsCtrlOut o = s.tick();  // A+9: the write goes
  EXPECT_TRUE(o.sram_en && o.sram_we);
  EXPECT_EQ(o.sram_row, kRow);
  EXPECT_FALSE(s.ev().write_stalled);
  EXPECT_TRUE(s.m.idle());
  // IDLE under traffic: the ready rules have no application term; only the
  // priorities apply.
  s.quiet();
  s.in.app_valid = true;
  s.in.app_row = 4;
  s.in.app_bank_en = 0xFFFF;
  s.in.lk_valid = s.in.fill_valid = s.in.sd_valid = true;
  s.in.lk_vpn = vpn_a(kSeg, Y.tag);
  s.in.lk_vmid = Y.vmid;
  s.in.lk_vrf = Y.vrf;
  o = s.out();
  EXPECT_TRUE(o.wg_ready && o.sd_ready);
  EXPECT_FALSE(o.lk_ready || o.fill_ready);  // sd_valid
  s.in.sd_valid = false;
  o = s.out();
  EXPECT_TRUE(o.lk_ready);
  EXPECT_FALSE(o.fill_ready);  // the lookup fires
  o = s.tick();                // A, with the application on the port
  EXPECT_TRUE(o.sram_en && !o.sram_we);
  EXPECT_EQ(o.sram_row, 4u);
  s.in.lk_valid = s.in.fill_valid = false;
  s.in.app_valid = false;
  EXPECT_TRUE(s.tick().sram_en);  // I: read of segment 3
  s.tick();                       // DEC
  EXPECT_FALSE(s.ev().lookup_hit);
  s.tick();  // CMP
  EXPECT_TRUE(s.ev().lookup_hit);
}

// Continuous application reads of row 9 (segments 18, 19) while the engine
// issues. Segment 3 is Tx-mode, 5 and 6 are free, [8, 10) is allocated.
class TrafficSim : public Sim {
 public:
  TrafficSim() : Sim(params_a()) {}
  void traffic() {
    quiet();
    in.app_valid = true;
    in.app_we = false;
    in.app_row = 9;
    in.app_bank_en = 0xFFFF;
  }
};

TEST(LdsCtrlIssue, OperationsWithoutSramNeedAreNotDelayedByTraffic) {
  TrafficSim s;
  settle(s);
  fill(s, kSeg, X);
  EXPECT_EQ(wg(s, false, 8, 2), 3u);
  // LDS-mode lookup: A, A+1 = I (bypass), response valid at A+2, as without
  // traffic.
  s.traffic();
  s.in.lk_valid = true;
  s.in.lk_vpn = vpn_a(5, kTX);
  LdsCtrlOut o = s.tick();  // A
  EXPECT_TRUE(o.lk_ready);
  EXPECT_EQ(o.sram_row, 9u);
  s.traffic();
  o = s.tick();  // A+1 = I
  EXPECT_TRUE(s.ev().lookup_bypass);
  EXPECT_EQ(o.sram_row, 9u);
  s.traffic();
  o = s.out();  // A+2
  EXPECT_TRUE(o.lk_resp_valid && !o.lk_resp_hit);
  EXPECT_TRUE(s.m.idle());
  s.in.lk_resp_ready = true;
  s.tick();
  // Fill into the allocated segment 8: bypass in I, VIC from A+2.
  s.traffic();
  s.in.fill_valid = true;
  s.in.fill_vpn = vpn_a(8, Y.tag);
  s.in.fill_vmid = Y.vmid;
  s.in.fill_vrf = Y.vrf;
  s.in.fill_ppn = Y.ppn;
  s.in.fill_perm = Y.perm;
  EXPECT_TRUE(s.tick().fill_ready);  // A
  s.traffic();
  s.tick();  // A+1 = I
  EXPECT_TRUE(s.ev().fill_bypass);
  s.traffic();
  s.in.vic_ready = true;
  o = s.tick();  // A+2: VIC
  EXPECT_TRUE(o.vic_valid);
  EXPECT_EQ(vic_of(o), Y.victim(8));
  EXPECT_TRUE(s.m.idle());
  // Shootdown by VPN of an LDS-mode segment: sd_done at A+2.
  s.traffic();
  s.in.sd_valid = true;
  s.in.sd_vpn = vpn_a(5, kTX);
  s.in.sd_vmid = 1;
  EXPECT_TRUE(s.tick().sd_ready);  // A
  s.traffic();
  s.tick();  // A+1 = I
  EXPECT_TRUE(s.ev().sd_vpn_miss);
  s.traffic();
  EXPECT_TRUE(s.out().sd_done);  // A+2
  EXPECT_TRUE(s.m.idle());
  s.tick();
  // Shootdown all goes from A's edge to CLEAR, traffic or not: done at A+5.
  s.traffic();
  s.in.sd_valid = true;
  s.in.sd_all = true;
  s.tick();
  EXPECT_TRUE(s.ev().sd_all);
  for (unsigned c = 0; c < 4; ++c) {
    s.traffic();
    EXPECT_FALSE(s.tick().sd_done);
  }
  EXPECT_TRUE(s.out().sd_done);
  EXPECT_FALSE(s.m.mode_bit(kSeg));
}

TEST(LdsCtrlIssue, TxModeLookupWaitsInIssueWhileTheApplicationHasThePort) {
  TrafficSim s;
  settle(s);
  fill(s, kSeg, X);
  s.traffic();
  s.in.lk_valid = true;
  s.in.lk_vpn = vpn_a(kSeg, X.tag);
  s.in.lk_vmid = X.vmid;
  s.in.lk_vrf = X.vrf;
  EXPECT_TRUE(s.tick().lk_ready);  // A
  for (int i = 0; i < 4; ++i) {    // A+1 .. A+4: ISSUE, starved
    s.traffic();
    const LdsCtrlOut o = s.tick();
    EXPECT_FALSE(any_ready(o) || o.lk_resp_valid);
    EXPECT_TRUE(o.sram_en && !o.sram_we);
    EXPECT_EQ(o.sram_row, 9u);
    EXPECT_FALSE(s.ev().lookup_bypass || s.ev().lookup_hit || s.ev().lookup_miss);
    EXPECT_FALSE(s.ev().write_stalled);  // not a WRITE-state cycle
    EXPECT_FALSE(s.m.idle());
  }
  s.quiet();
  LdsCtrlOut o = s.tick();  // A+5 = I: the first cycle without traffic reads s
  EXPECT_TRUE(o.sram_en && !o.sram_we);
  EXPECT_EQ(o.sram_row, kRow);
  EXPECT_EQ(o.sram_bank_en, kSegBanks);
  s.tick();  // A+6: DEC
  EXPECT_FALSE(s.ev().lookup_hit);
  EXPECT_FALSE(s.out().lk_resp_valid);
  s.tick();  // A+7: CMP
  EXPECT_TRUE(s.ev().lookup_hit);
  o = s.out();  // A+8 = I+3
  EXPECT_TRUE(o.lk_resp_valid && o.lk_resp_hit);
  EXPECT_EQ(o.lk_resp_ppn, X.ppn);
}

TEST(LdsCtrlIssue, FillOfAFreeSegmentAndTxShootdownWaitToo) {
  TrafficSim s;
  settle(s);
  fill(s, kSeg, X);
  // Fill of the free segment 6: the init write waits for a free port.
  s.traffic();
  s.in.fill_valid = true;
  s.in.fill_vpn = vpn_a(6, X.tag);
  s.in.fill_vmid = X.vmid;
  s.in.fill_vrf = X.vrf;
  s.in.fill_ppn = X.ppn;
  s.in.fill_perm = X.perm;
  EXPECT_TRUE(s.tick().fill_ready);  // A
  for (int i = 0; i < 3; ++i) {
    s.traffic();
    EXPECT_FALSE(s.tick().sram_we);
    EXPECT_FALSE(s.ev().fill_init);
    EXPECT_FALSE(s.m.mode_bit(6));
  }
  s.quiet();
  LdsCtrlOut o = s.tick();  // I: init write of segment 6 (row 3, banks 0..7)
  EXPECT_TRUE(o.sram_en && o.sram_we);
  EXPECT_EQ(o.sram_row, 3u);
  EXPECT_EQ(o.sram_bank_en, 0x00FFu);
  EXPECT_EQ(o.sram_wdata, row_words(s.p, {{0, kWordX}, {1, X.slot()}}));
  EXPECT_TRUE(s.ev().fill_init);
  EXPECT_TRUE(s.m.mode_bit(6));
  EXPECT_TRUE(s.m.idle());
  // Shootdown by VPN of the Tx segment 3: waits, then I, DEC, CMP, WRITE, done.
  s.traffic();
  s.in.sd_valid = true;
  s.in.sd_vpn = vpn_a(kSeg, kTX);
  s.in.sd_vmid = 1;
  s.tick();  // A
  for (int i = 0; i < 2; ++i) {
    s.traffic();
    s.tick();
    EXPECT_FALSE(s.ev().sd_vpn_miss);
  }
  s.quiet();
  EXPECT_TRUE(s.tick().sram_en);  // I: read
  s.tick();                       // DEC
  EXPECT_FALSE(s.ev().sd_vpn_hit);
  s.tick();  // CMP
  EXPECT_TRUE(s.ev().sd_vpn_hit);
  o = s.tick();  // WRITE of the tag word
  EXPECT_TRUE(o.sram_we);
  EXPECT_EQ(o.sram_bank_en, kTagBanks);
  EXPECT_TRUE(s.out().sd_done);
  EXPECT_FALSE(lookup(s, kSeg, X).hit);
}

// READING: "needs the SRAM" is evaluated in every ISSUE cycle with that
// cycle's mode bit; an application write that turns s LDS-mode while a
// Tx-mode lookup waits makes the next cycle its issue cycle (a bypass).
TEST(LdsCtrlIssue, WaitingTxLookupBecomesABypassWhenTheApplicationTakesTheSegment) {
  TrafficSim s;
  settle(s);
  fill(s, kSeg, X);
  s.traffic();
  s.in.lk_valid = true;
  s.in.lk_vpn = vpn_a(kSeg, X.tag);
  s.in.lk_vmid = X.vmid;
  s.in.lk_vrf = X.vrf;
  s.tick();  // A
  s.traffic();
  s.tick();  // ISSUE, starved
  s.traffic();
  s.in.app_we = true;  // write bank 8 of row 1: segment 3 becomes LDS-mode
  s.in.app_row = kRow;
  s.in.app_bank_en = 0x0100;
  s.tick();  // still starved (mode[s] = 1 before this edge)
  EXPECT_FALSE(s.ev().lookup_bypass);
  EXPECT_FALSE(s.m.mode_bit(kSeg));
  s.traffic();
  const LdsCtrlOut o = s.tick();  // I under traffic: no longer needs the SRAM
  EXPECT_EQ(o.sram_row, 9u);
  EXPECT_TRUE(s.ev().lookup_bypass);
  const LdsCtrlOut r = s.out();
  EXPECT_TRUE(r.lk_resp_valid && !r.lk_resp_hit);
  EXPECT_TRUE(s.m.idle());
}

// ---------------------------------------------------------------------------
// Priority and shootdowns

TEST(LdsCtrlPriority, WorkGroupThenShootdownThenLookupThenFill) {
  Sim s(params_a());
  settle(s);
  s.in.wg_valid = s.in.sd_valid = s.in.lk_valid = s.in.fill_valid = true;
  LdsCtrlOut o = s.out();
  EXPECT_TRUE(o.wg_ready);
  EXPECT_FALSE(o.sd_ready || o.lk_ready || o.fill_ready);
  s.in.wg_valid = false;
  o = s.out();
  EXPECT_TRUE(o.sd_ready);
  EXPECT_FALSE(o.lk_ready || o.fill_ready);
  s.in.sd_valid = false;
  o = s.out();
  EXPECT_TRUE(o.lk_ready);
  EXPECT_FALSE(o.fill_ready);
  s.in.lk_valid = false;
  o = s.out();
  EXPECT_TRUE(o.fill_ready);
  EXPECT_TRUE(o.sd_ready && o.lk_ready && o.wg_ready);  // readies do not need valid
}

TEST(LdsCtrlShootdown, ByVpnInvalidatesEveryVrfOfThatVmid) {
  Sim s(params_a());
  settle(s);
  Tx x1 = X;
  x1.vrf = 1;
  x1.ppn = 0x11111;
  x1.perm = 2;
  fill(s, kSeg, X);
  fill(s, kSeg, x1);
  fill(s, kSeg, Z);  // [Z r0, X r2, X' r1]
  s.in.sd_valid = true;
  s.in.sd_vpn = vpn_a(kSeg, kTX);
  s.in.sd_vmid = 1;
  LdsCtrlOut o = s.tick();  // A: registers only
  EXPECT_TRUE(o.sd_ready);
  EXPECT_FALSE(o.sram_en);
  s.quiet();
  o = s.tick();  // A+1 = I: read
  EXPECT_TRUE(o.sram_en && !o.sram_we);
  EXPECT_EQ(o.sram_bank_en, kSegBanks);
  o = s.tick();  // A+2: DEC
  EXPECT_FALSE(o.sram_en || o.sd_done || any_ready(o));
  s.tick();  // A+3: CMP
  EXPECT_TRUE(s.ev().sd_vpn_hit);
  o = s.tick();  // A+4: WRITE of the tag word: [Z r0, -, -] = {0, 0, 0xE019, 9}
  EXPECT_EQ(o.sram_bank_en, kTagBanks);
  EXPECT_EQ(o.sram_wdata, seg_a(0x00000000E0190009, Z.slot(), X.slot(), x1.slot()));
  EXPECT_FALSE(o.sd_done);
  o = s.tick();  // A+5: IDLE, sd_done
  EXPECT_TRUE(o.sd_done);
  EXPECT_FALSE(s.out().sd_done);
  EXPECT_EQ(s.m.sram_row_data(kRow), seg_a(0x00000000E0190009, Z.slot(), X.slot(), x1.slot()));
  EXPECT_FALSE(lookup(s, kSeg, X).hit);
  EXPECT_FALSE(lookup(s, kSeg, x1).hit);
  EXPECT_TRUE(lookup(s, kSeg, Z).hit);
}

TEST(LdsCtrlShootdown, ByVpnDoneTimingForLdsModeAndForNoMatch) {
  Sim s(params_a());
  settle(s);
  EXPECT_EQ(shootdown(s, false, vpn_a(kSeg, kTX), 1), 2u);  // LDS-mode: I+1 = A+2
  EXPECT_TRUE(s.m.idle());
  fill(s, kSeg, X);
  s.in.sd_valid = true;
  s.in.sd_vpn = vpn_a(kSeg, kTX);
  s.in.sd_vmid = 0;  // other VMID: nothing matches
  s.tick();  // A
  s.quiet();
  EXPECT_TRUE(s.tick().sram_en);  // I: read
  EXPECT_FALSE(s.ev().sd_vpn_miss);
  EXPECT_FALSE(s.tick().sd_done);  // DEC
  EXPECT_FALSE(s.ev().sd_vpn_miss);
  EXPECT_FALSE(s.tick().sd_done);  // CMP
  EXPECT_TRUE(s.ev().sd_vpn_miss);
  EXPECT_TRUE(s.out().sd_done);  // I+3 = A+4
  EXPECT_FALSE(s.out().sram_en);
  EXPECT_TRUE(s.m.idle());
  s.tick();
  EXPECT_TRUE(lookup(s, kSeg, X).hit);
}

TEST(LdsCtrlShootdown, AllClearsEveryModeBitThenPulsesDone) {
  Sim s(params_a());
  settle(s);
  fill(s, 0, X);
  fill(s, kSeg, X);
  fill(s, 31, X);
  const Bits row1 = s.m.sram_row_data(kRow);
  s.in.sd_valid = true;
  s.in.sd_all = true;
  s.tick();
  EXPECT_TRUE(s.ev().sd_all);
  s.quiet();
  for (unsigned c = 0; c < 4; ++c) {
    const LdsCtrlOut o = s.tick();
    EXPECT_FALSE(any_ready(o) || o.sd_done);
    EXPECT_FALSE(s.ev().alloc_over_tx);
  }
  EXPECT_TRUE(s.out().sd_done);  // A+5
  for (unsigned seg = 0; seg < 32; ++seg) EXPECT_FALSE(s.m.mode_bit(seg));
  EXPECT_EQ(s.m.sram_row_data(kRow), row1);  // no SRAM traffic
  s.tick();
  EXPECT_EQ(lookup(s, kSeg, X).latency, 2u);
}

// ---------------------------------------------------------------------------
// Config B (arith, shared ids, two tag words, padding)

TEST(LdsCtrlConfigB, SharedIdsDropTheOtherAddressSpaceAndTagWordsSpanTwoWords) {
  Sim s(params_b());
  settle(s);
  // Segment 6: row 6, all 8 banks, tag words = banks 0, 1.
  const uint64_t vpn1 = (0x10u << 5) | 6, vpn2 = (0x1Fu << 5) | 6;
  fill(s, vpn1, 0, 0, 0xAAAAAAAAAAull, 0x123456);
  s.in.fill_valid = true;
  s.in.fill_vpn = vpn2;
  s.in.fill_vmid = 1;  // another address space: the old entry is dropped
  s.in.fill_ppn = 0x1;
  s.in.fill_perm = 0xFFFFFF;
  s.tick();  // A
  s.quiet();
  s.tick();  // I: read
  s.tick();  // DEC
  s.tick();  // CMP
  // [n r0 vmid 1, old r1 vmid 0]: base = {vrf 0, vmid 1, va 0x1F} = 0x9F;
  // entry 0 at bit 96: {delta 0, lru 0, valid} = 1; entry 1 dropped.
  s.in.vic_ready = true;
  const LdsCtrlOut o = s.tick();
  EXPECT_EQ(o.sram_bank_en, 0xFFu);
  EXPECT_TRUE(s.ev().fill_dropped);
  Bits expect(512);
  expect.set_field(0, 64, 0x9F);
  expect.set_field(96, 8, 0x01);
  expect.set_field(128, 64, 0xFFFFFF0000000001ull);  // slot 0 = {perm, ppn}
  expect.set_field(192, 64, 0x123456AAAAAAAAAAull);  // slot 1 keeps the old data
  EXPECT_EQ(o.sram_wdata, expect);
  const LdsCtrlOut v = s.tick();
  EXPECT_TRUE(v.vic_valid);
  EXPECT_EQ(v.vic_vpn, vpn1);
  EXPECT_EQ(v.vic_ppn, 0xAAAAAAAAAAull);
  EXPECT_EQ(v.vic_perm, 0x123456u);
  EXPECT_TRUE(s.m.idle());
}

// ---------------------------------------------------------------------------
// Invariants under constrained-random traffic

#define LDS_EVENTS(X)                                                                            \
  X(lookup_bypass) X(lookup_hit) X(lookup_miss) X(fill_bypass) X(fill_init) X(fill_update)      \
  X(fill_insert_invalid) X(fill_evict_lru) X(fill_dropped) X(write_cancelled) X(write_stalled)  \
  X(sd_vpn_hit) X(sd_vpn_miss) X(sd_all) X(alloc) X(alloc_over_tx) X(free_op)                    \
  X(app_write_over_tx) X(victim_out) X(victim_stalled)

struct Coverage {
  std::map<std::string, uint64_t> n;
  void add(const LdsCtrlEvents& e) {
#define LDS_COUNT(f) \
  if (e.f) ++n[#f];
    LDS_EVENTS(LDS_COUNT)
#undef LDS_COUNT
  }
  uint64_t resets = 0, hits_checked = 0;
  // lookup latency (accept edge to lk_resp_valid): 2 = decided in A+1 with no
  // SRAM access, 4 = Tx-mode without waiting (read, DEC, CMP), more = waited
  // in ISSUE
  // (3 only for a bypass decided after one waiting ISSUE cycle)
  uint64_t lk_fast_under_traffic = 0, lk_issue_waited = 0;
  uint64_t free_same_end_other_size = 0;  // a free naming a size that clamps to a valid entry's end
};

struct RandomSetup {
  const char* name;
  LdsCtrlParams p;
  std::vector<unsigned> segs;
  std::vector<uint64_t> tags;
};

uint64_t base_seed() {
  const char* env = std::getenv("TXGEN_SEED");
  return env ? std::strtoull(env, nullptr, 0) : 20260101;
}

uint64_t key_of(uint64_t vpn, uint32_t vmid, uint32_t vrf) { return (vpn << 8) | (vmid << 4) | vrf; }

void run_random(const RandomSetup& su, uint64_t seed, unsigned cycles, Coverage& cov) {
  const LdsCtrlParams& p = su.p;
  SCOPED_TRACE(std::string(su.name) + " seed " + std::to_string(seed));
  std::cout << "[ lds_ctrl random ] " << su.name << " seed " << seed << " cycles " << cycles << std::endl;
  std::mt19937_64 rng(seed);
  auto chance = [&](double x) { return std::uniform_real_distribution<double>(0, 1)(rng) < x; };
  auto pick = [&](size_t n) { return static_cast<size_t>(rng() % n); };
  const uint64_t vmask = (uint64_t{1} << p.vmid_bits) - 1, rmask = (uint64_t{1} << p.vrf_bits) - 1;

  Sim s(p);
  struct TE {
    bool valid = false;
    uint32_t base = 0, size = 0, end = 0;
  };
  std::vector<TE> table(p.max_work_groups);
  auto alloc_of = [&](unsigned seg) {
    for (const TE& t : table)
      if (t.valid && t.base <= seg && seg < t.end) return true;
    return false;
  };
  std::vector<int> shadow(p.lds_bytes, -1);          // (b) application bytes
  std::map<uint64_t, std::pair<uint64_t, uint64_t>> tx;  // (c) last fill per key
  struct PendingLookup {
    bool awaiting = false, allocated = false, present = false;
    uint64_t ppn = 0, perm = 0;
    unsigned accept_cyc = 0;
    bool app_after_accept = false;  // app_valid in the cycle after the accept
  } pend;
  bool read_pending = false;
  uint32_t read_row = 0;
  uint64_t read_banks = 0;
  double app_rate = 0.2;
  unsigned reset_left = 0;
  unsigned wg_wait = 0;
  // A work-group request accepted at A: carried out at A+1's edge (WG); the
  // shadow table follows it there. wg_done is expected exactly in done_cyc and
  // the engine is busy (nothing ready) from A+1 until then.
  struct PendingWg {
    bool valid = false, is_free = false;
    uint32_t base = 0, size = 0;
    unsigned wg_cyc = 0;
  } pwg;
  bool wg_busy = false;
  unsigned done_cyc = 0;

  auto random_vpn = [&]() -> uint64_t {
    const unsigned seg = chance(0.9) ? su.segs[pick(su.segs.size())] : static_cast<unsigned>(pick(p.segments));
    return (su.tags[pick(su.tags.size())] << p.segment_index_bits) | seg;
  };
  auto small_id = [&](uint64_t mask) { return static_cast<uint32_t>(chance(0.7) ? 0 : rng() & mask); };
  auto check_bytes = [&]() {
    for (unsigned row = 0; row < p.rows; ++row) {
      const Bits data = s.m.sram_row_data(row);
      for (unsigned b = 0; b < p.row_bytes; ++b) {
        const int want = shadow[row * p.row_bytes + b];
        if (want < 0) continue;
        const int got = static_cast<int>((data.words[b / 4] >> (8 * (b % 4))) & 0xFF);
        ASSERT_EQ(got, want) << "application byte " << row * p.row_bytes + b << " changed";
      }
    }
  };

  s.quiet();
  for (unsigned cyc = 0; cyc < cycles; ++cyc) {
    SCOPED_TRACE("cycle " + std::to_string(cyc));
    LdsCtrlIn& in = s.in;
    // --- drive
    if (cyc % 500 == 0) {
      const double rates[] = {0.0, 0.1, 0.3, 0.6, 0.95};
      app_rate = rates[pick(5)];
    }
    if (reset_left == 0 && chance(1.0 / 8000)) reset_left = 1 + static_cast<unsigned>(pick(3));
    in.rst_n = reset_left == 0;
    in.app_valid = in.rst_n && chance(app_rate);
    if (in.app_valid) {
      in.app_we = chance(0.5);
      const unsigned seg = chance(0.7) ? su.segs[pick(su.segs.size())] : static_cast<unsigned>(pick(p.segments));
      in.app_row = seg / p.segments_per_row;
      const uint64_t all = p.banks >= 64 ? ~uint64_t{0} : (uint64_t{1} << p.banks) - 1;
      in.app_bank_en = chance(0.5) ? all : (chance(0.1) ? 0 : rng() & all);
      for (uint32_t& w : in.app_wdata.words) w = static_cast<uint32_t>(rng());
    }
    if (in.wg_valid && ++wg_wait > 64) in.wg_valid = false;  // withdraw an allocation the full table blocks
    if (!in.wg_valid && chance(0.004)) {
      in.wg_valid = true;
      wg_wait = 0;
      std::vector<unsigned> valid_idx;
      for (unsigned i = 0; i < table.size(); ++i)
        if (table[i].valid) valid_idx.push_back(i);
      if (!valid_idx.empty() && chance(valid_idx.size() == table.size() ? 0.9 : 0.5)) {
        const TE& t = table[valid_idx[pick(valid_idx.size())]];
        in.wg_free = true;
        in.wg_base = t.base;
        in.wg_size = t.size;
        // sometimes another size with the same clamped end (matches only an
        // entry allocated with that size)
        if (t.base + t.size > p.segments && chance(0.3)) {
          in.wg_size = p.segments - t.base + static_cast<uint32_t>(pick(3));
        }
      } else {
        in.wg_free = chance(0.1);  // sometimes a free that matches nothing
        const unsigned seg = su.segs[pick(su.segs.size())];
        in.wg_base = static_cast<uint32_t>(chance(0.8) ? seg - std::min<unsigned>(seg, pick(2)) : pick(p.segments));
        in.wg_size = static_cast<uint32_t>(chance(0.9) ? pick(5) : pick(2 * p.segments));
        if (!in.wg_free && chance(0.2)) {  // a range running past S (clamped)
          in.wg_base = static_cast<uint32_t>(p.segments - 1 - pick(2));
          in.wg_size = static_cast<uint32_t>(2 + pick(4));
        }
      }
    }
    if (!in.sd_valid && chance(0.003)) {
      in.sd_valid = true;
      in.sd_all = chance(0.1);
      in.sd_vpn = random_vpn();
      in.sd_vmid = small_id(vmask);
    }
    if (!in.lk_valid && chance(0.3)) {
      in.lk_valid = true;
      in.lk_vpn = random_vpn();
      in.lk_vmid = small_id(vmask);
      in.lk_vrf = small_id(rmask);
    }
    if (!in.fill_valid && chance(0.3)) {
      in.fill_valid = true;
      in.fill_vpn = random_vpn();
      in.fill_vmid = small_id(vmask);
      in.fill_vrf = small_id(rmask);
      in.fill_ppn = rng() & ((uint64_t{1} << p.ppn_bits) - 1);
      in.fill_perm = rng() & ((p.perm_bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << p.perm_bits)) - 1);
    }
    in.lk_resp_ready = chance(0.7);
    in.vic_ready = chance(0.6);

    // --- check the outputs of this cycle
    const LdsCtrlOut o = s.m.outputs(in);
    if (!in.rst_n) {
      ASSERT_FALSE(any_ready(o) || o.vic_valid || o.lk_resp_valid || o.wg_done || o.sd_done);
    } else {
      ASSERT_EQ(o.wg_done, wg_busy && cyc == done_cyc) << "wg_done not in the cycle after the last WG/CLEAR cycle";
      if (wg_busy && cyc < done_cyc) {
        ASSERT_FALSE(any_ready(o)) << "ready while a work-group operation is in flight";
      }
      if (wg_busy && cyc == done_cyc) {
        ASSERT_TRUE(s.m.idle());
        wg_busy = false;
      }
      if (!o.vic_valid) {
        ASSERT_TRUE(o.vic_vpn == 0 && o.vic_vmid == 0 && o.vic_ppn == 0 && o.vic_perm == 0);
      }
      ASSERT_EQ(o.app_rvalid, read_pending);
      if (read_pending) {  // (b) the application reads back what it wrote
        for (unsigned b = 0; b < p.banks; ++b) {
          if (!((read_banks >> b) & 1)) continue;
          for (unsigned k = 0; k < p.bank_bytes; ++k) {
            const unsigned byte = b * p.bank_bytes + k;
            const int want = shadow[read_row * p.row_bytes + byte];
            const int got = static_cast<int>((o.app_rdata.words[byte / 4] >> (8 * (byte % 4))) & 0xFF);
            if (want >= 0) {
              ASSERT_EQ(got, want) << "read of row " << read_row << " byte " << byte;
            }
          }
        }
      }
      if (pend.awaiting && cyc == pend.accept_cyc + 1) pend.app_after_accept = in.app_valid;
      if (pend.awaiting && o.lk_resp_valid) {
        pend.awaiting = false;
        const unsigned latency = cyc - pend.accept_cyc;
        ASSERT_GE(latency, 2u) << "lookup response before I + 1";
        if (o.lk_resp_hit) {
          ASSERT_GE(latency, 4u) << "a hit needs the read in I, DEC in I + 1 and CMP in I + 2";
        }
        if (latency == 3) {  // only a bypass decided after one cycle waiting in ISSUE
          ASSERT_TRUE(pend.app_after_accept) << "latency 3 without waiting in ISSUE";
        }
        if (latency == 2 && pend.app_after_accept) ++cov.lk_fast_under_traffic;
        if (latency > 4) ++cov.lk_issue_waited;
        if (o.lk_resp_hit) {
          ++cov.hits_checked;
          ASSERT_FALSE(pend.allocated) << "hit in a segment allocated at the accept cycle";  // (a)
          ASSERT_TRUE(pend.present) << "hit for a translation never filled or shot down";
          ASSERT_EQ(o.lk_resp_ppn, pend.ppn);  // (c)
          ASSERT_EQ(o.lk_resp_perm, pend.perm);
        }
      }
      // (b) translation writes never touch allocated segments
      if (o.sram_en && o.sram_we && !in.app_valid) {
        for (unsigned j = 0; j < p.segments_per_row; ++j) {
          const uint64_t banks = (o.sram_bank_en >> (j * p.banks_per_segment)) &
                                 ((p.banks_per_segment >= 64 ? 0 : (uint64_t{1} << p.banks_per_segment)) - 1);
          if (banks != 0) {
            ASSERT_FALSE(alloc_of(o.sram_row * p.segments_per_row + j)) << "engine wrote an allocated segment";
          }
        }
      }
    }

    // --- shadows, from the handshakes of this cycle (pre-edge state)
    read_pending = false;
    if (in.rst_n) {
      const bool wg_fire = in.wg_valid && o.wg_ready, sd_fire = in.sd_valid && o.sd_ready;
      const bool lk_fire = in.lk_valid && o.lk_ready, fill_fire = in.fill_valid && o.fill_ready;
      ASSERT_LE(int(wg_fire) + int(sd_fire) + int(lk_fire) + int(fill_fire), 1);
      if (in.app_valid && in.app_we) {
        for (unsigned b = 0; b < p.banks; ++b) {
          if (!((in.app_bank_en >> b) & 1)) continue;
          for (unsigned k = 0; k < p.bank_bytes; ++k) {
            const unsigned byte = b * p.bank_bytes + k, addr = in.app_row * p.row_bytes + byte;
            const int value = static_cast<int>((in.app_wdata.words[byte / 4] >> (8 * (byte % 4))) & 0xFF);
            shadow[addr] = alloc_of(addr / p.segment_bytes) ? value : -1;
          }
        }
      }
      if (in.app_valid && !in.app_we) {
        read_pending = true;
        read_row = in.app_row;
        read_banks = in.app_bank_en;
      }
      if (lk_fire) {
        const uint64_t vpn = in.lk_vpn;
        pend.awaiting = true;
        pend.accept_cyc = cyc;
        pend.allocated = alloc_of(static_cast<unsigned>(vpn % p.segments));
        const auto it = tx.find(key_of(vpn, in.lk_vmid, in.lk_vrf));
        pend.present = it != tx.end();
        if (pend.present) std::tie(pend.ppn, pend.perm) = it->second;
      }
      if (fill_fire) tx[key_of(in.fill_vpn, in.fill_vmid, in.fill_vrf)] = {in.fill_ppn, in.fill_perm};
      if (sd_fire) {
        if (in.sd_all) {
          tx.clear();
        } else {
          for (uint32_t vrf = 0; vrf <= rmask; ++vrf) tx.erase(key_of(in.sd_vpn, in.sd_vmid, vrf));
        }
      }
      if (wg_fire) {
        ASSERT_FALSE(pwg.valid || wg_busy);
        pwg = PendingWg{true, in.wg_free, in.wg_base, in.wg_size, cyc + 1};
        wg_busy = true;
      }
    }

    // --- the edge
    s.m.posedge(in);
    cov.add(s.m.events());
    const LdsCtrlEvents& ev = s.m.events();
    if (in.rst_n) {
      const bool wg_edge = pwg.valid && cyc == pwg.wg_cyc;
      ASSERT_EQ(ev.alloc, wg_edge && !pwg.is_free) << "alloc event not at the WG edge";
      ASSERT_EQ(ev.free_op, wg_edge && pwg.is_free) << "free_op event not at the WG edge";
      if (pwg.valid && cyc + 1 == pwg.wg_cyc) {  // the accept edge: the table has not changed
        for (unsigned seg = 0; seg < p.segments; ++seg) ASSERT_EQ(s.m.allocated(seg), alloc_of(seg)) << seg;
      }
      if (wg_edge) {
        pwg.valid = false;
        const uint32_t end = std::min<uint32_t>(pwg.base + pwg.size, p.segments);
        if (pwg.is_free) {
          for (const TE& t : table) {
            if (t.valid && t.base == pwg.base && t.end == end && t.size != pwg.size) {
              ++cov.free_same_end_other_size;
              break;
            }
          }
        }
        for (TE& t : table) {
          if (!pwg.is_free && !t.valid) {
            t = TE{true, pwg.base, pwg.size, end};
            break;
          }
          // same base and the same size as allocated (not the clamped end)
          if (pwg.is_free && t.valid && t.base == pwg.base && t.size == pwg.size) {
            t.valid = false;
            break;
          }
        }
        for (unsigned addr = 0; addr < p.lds_bytes; ++addr)  // freed bytes are no longer protected
          if (!alloc_of(addr / p.segment_bytes)) shadow[addr] = -1;
        // the table changed at this edge
        for (unsigned seg = 0; seg < p.segments; ++seg) ASSERT_EQ(s.m.allocated(seg), alloc_of(seg)) << seg;
        // done: A+2 for a free or an empty range, else the cycle after the
        // last CLEAR group (CLEAR from A+2, one group per cycle)
        done_cyc = cyc + 1;
        if (!pwg.is_free && end > pwg.base) done_cyc += (end - 1) / p.clear_bits - pwg.base / p.clear_bits + 1;
      }
    }
    if (!in.rst_n) {
      ++cov.resets;
      pwg.valid = false;
      wg_busy = false;
      for (TE& t : table) t.valid = false;
      std::fill(shadow.begin(), shadow.end(), -1);
      tx.clear();
      pend.awaiting = false;
      read_pending = false;
      --reset_left;
      in.wg_valid = in.sd_valid = in.lk_valid = in.fill_valid = false;
      continue;
    }
    // requests that fired are dropped; the others stay valid and unchanged
    if (in.wg_valid && o.wg_ready) in.wg_valid = false;
    if (in.sd_valid && o.sd_ready) in.sd_valid = false;
    if (in.lk_valid && o.lk_ready) in.lk_valid = false;
    if (in.fill_valid && o.fill_ready) in.fill_valid = false;

    if (cyc % 64 == 0) {
      for (unsigned seg = 0; seg < p.segments; ++seg) {
        ASSERT_EQ(s.m.allocated(seg), alloc_of(seg)) << "segment " << seg;
        if (s.m.idle()) {
          ASSERT_FALSE(s.m.mode_bit(seg) && alloc_of(seg)) << "Tx-mode allocated segment " << seg;
        }
      }
    }
    if (cyc % 512 == 0) {
      check_bytes();
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
  check_bytes();
}

void expect_full_coverage(const Coverage& cov, const char* name) {
#define LDS_EXPECT(f) EXPECT_GT(cov.n.count(#f) ? cov.n.at(#f) : 0, 0u) << name << ": event " #f " never seen";
  LDS_EVENTS(LDS_EXPECT)
#undef LDS_EXPECT
  EXPECT_GT(cov.resets, 0u) << name;
  EXPECT_GT(cov.hits_checked, 100u) << name;
  EXPECT_GT(cov.lk_fast_under_traffic, 0u) << name;
  EXPECT_GT(cov.lk_issue_waited, 0u) << name;
  EXPECT_GT(cov.free_same_end_other_size, 0u) << name;
  std::cout << "[ lds_ctrl random ] " << name << " coverage:";
  for (const auto& [k, v] : cov.n) std::cout << ' ' << k << '=' << v;
  std::cout << " resets=" << cov.resets << " hits_checked=" << cov.hits_checked
            << " lk_fast_under_traffic=" << cov.lk_fast_under_traffic << " lk_issue_waited=" << cov.lk_issue_waited
            << " free_same_end_other_size=" << cov.free_same_end_other_size << std::endl;
}

TEST(LdsCtrlRandom, InvariantsHoldUnderConstrainedRandomTraffic) {
  const std::vector<RandomSetup> setups = {
      {"A (prefix, 2 segments per row)", params_a(), {3, 4, 10, 17, 30},
       {0x4A5B, 0x4C01, 0x4F00, 0x4801, 0x1234, 0x1001}},
      {"B (arith, shared ids, 2 tag words)", params_b(), {3, 4, 10, 17}, {0x10, 0x12, 0x1F, 0x08, 0x40, 0x70, 0x05}},
      {"C (byte banks, G 1, K 1)", params_c(), {3, 4, 10}, {0x4A5B, 0x4C01, 0x4801, 0x1234}},
  };
  const unsigned runs[] = {3, 2, 2};
  const unsigned cycles[] = {40000, 30000, 25000};
  const uint64_t seed0 = base_seed();
  for (size_t k = 0; k < setups.size(); ++k) {
    Coverage cov;
    for (unsigned r = 0; r < runs[k]; ++r) {
      run_random(setups[k], seed0 + 1000 * k + r, cycles[k], cov);
      if (HasFatalFailure()) return;
    }
    expect_full_coverage(cov, setups[k].name);
  }
}

}  // namespace
}  // namespace txgen::model
