// Unit tests of the golden bd_codec model. Parameters are filled by hand from
// docs/blocks/bd_codec.md, and the expected packed words are worked out by
// hand from the document's bit maps (the arithmetic is in the comments).
#include "model/bd_codec.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <iomanip>
#include <ostream>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace txgen::model {

// Readable failure messages.
void PrintTo(const Bits& b, std::ostream* os) {
  *os << b.width << "'h";
  for (size_t k = b.words.size(); k-- > 0;) {
    *os << std::hex << std::setw(8) << std::setfill('0') << b.words[k] << std::dec;
    if (k != 0) *os << '_';
  }
}

void PrintTo(const BdTag& t, std::ostream* os) {
  *os << "{valid=" << t.valid << " lru=" << t.lru << " vmid=" << t.vmid << " vrf=" << t.vrf
      << " va=0x" << std::hex << t.va << std::dec << "}";
}

namespace {

using config::CodecEncoding;
using config::IdPlacement;
using elab::BdCodecParams;

struct Widths {
  unsigned n, t, l, m_id, r_id, b, d_total, d, meta, v, bv, used, w;
  CodecEncoding enc;
  IdPlacement ids;
};

BdCodecParams make_params(const Widths& x) {
  BdCodecParams p;
  p.module_prefix = "bd_codec_test";
  p.encoding = x.enc;
  p.ids = x.ids;
  p.tags = x.n;
  p.va_tag_bits = x.t;
  p.lru_bits = x.l;
  p.vmid_bits = x.m_id;
  p.vrf_bits = x.r_id;
  p.raw_tag_bits = 1 + x.l + x.m_id + x.r_id + x.t;
  p.base_bits = x.b;
  p.delta_bits = x.d_total;
  p.entry_bits = x.d;
  p.entry_meta_bits = x.meta;
  p.value_bits = x.v;
  p.base_value_bits = x.bv;
  p.base_used_bits = x.used;
  p.packed_bits = x.w;
  return p;
}

constexpr auto kPrefix = CodecEncoding::Prefix;
constexpr auto kArith = CodecEncoding::Arith;
constexpr auto kPerEntry = IdPlacement::PerEntry;
constexpr auto kShared = IdPlacement::Shared;

// Seed 000 Fig. 7: 64 KB LDS, 25-bit VA tag, 16-bit base + 3 x 16-bit entries.
// Entry: [0] valid, [2:1] lru, [4:3] vmid, [6:5] vrf, [15:7] va[8:0].
// Base [15:0] = va[24:9]. Entry i at word bits [16i+31 : 16i+16].
BdCodecParams lds_fig7() {
  return make_params({3, 25, 2, 2, 2, 16, 48, 16, 7, 9, 16, 16, 64, kPrefix, kPerEntry});
}

// Seed 000 Fig. 10 budget with shared ids: 8 x 8-bit entries, 32-bit base.
// Entry: [0] valid, [3:1] lru, [7:4] va[3:0]. Base: [26:0] va[30:4],
// [28:27] vmid, [30:29] vrf, [31] zero. Entry i at word bits [8i+39 : 8i+32].
BdCodecParams icache_fig10_shared() {
  return make_params({8, 31, 3, 2, 2, 32, 64, 8, 4, 4, 27, 31, 96, kPrefix, kShared});
}

// Small arith config: entry [0] valid, [2:1] lru, [3] vmid, [4] vrf,
// [7:5] signed delta in [-4, 3]. Base [8:0] = va_ref. Entry i at [8i+16 : 8i+9].
BdCodecParams arith_small() {
  return make_params({4, 9, 2, 1, 1, 9, 32, 8, 5, 3, 9, 9, 41, kArith, kPerEntry});
}

// No prefix (Bv = 0) and padding everywhere: entry [0] valid, [1] lru,
// [2] vmid, [3] vrf, [7:4] va, [9:8] padding; base [1:0] padding.
BdCodecParams padded_no_prefix() {
  return make_params({2, 4, 1, 1, 1, 2, 20, 10, 4, 4, 0, 0, 22, kPrefix, kPerEntry});
}

// tests/configs/arith_tiny.json by hand: T = 24 - 12 - 5 = 7, shared ids.
BdCodecParams arith_tiny_shared() {
  return make_params({2, 7, 1, 1, 1, 9, 10, 5, 2, 3, 7, 9, 19, kArith, kShared});
}

// Fig. 10 with direct-mapped translation indexing: T = 28, arith, shared.
BdCodecParams icache_direct_arith() {
  return make_params({8, 28, 3, 2, 2, 32, 64, 8, 4, 4, 28, 32, 96, kArith, kShared});
}

// Table 1's 16 KB LDS at the nearest feasible budget (19 / 45).
BdCodecParams lds16k_nearest() {
  return make_params({3, 27, 2, 2, 2, 19, 45, 15, 7, 8, 19, 19, 64, kPrefix, kPerEntry});
}

// 64-bit VA tag, arith: exercises modulo-2^64 arithmetic.
BdCodecParams wide_arith_t64() {
  return make_params({2, 64, 1, 0, 0, 64, 64, 32, 2, 30, 64, 64, 128, kArith, kPerEntry});
}

// 64-bit VA tag, prefix with V = T = 64 (no base value at all).
BdCodecParams wide_prefix_t64() {
  return make_params({2, 64, 1, 3, 0, 0, 140, 70, 5, 64, 0, 0, 140, kPrefix, kPerEntry});
}

// Arith with V = T: every tag fits on va; only shared ids can drop.
BdCodecParams arith_full_delta_shared() {
  return make_params({2, 20, 1, 2, 2, 24, 80, 40, 2, 20, 20, 24, 104, kArith, kShared});
}

// A 1024-bit word: 16 entries of 60 bits, 60-bit tags.
BdCodecParams wide_word_arith() {
  return make_params({16, 60, 4, 4, 4, 64, 960, 60, 13, 47, 60, 60, 1024, kArith, kPerEntry});
}

BdTag tag(bool valid, uint32_t lru, uint32_t vmid, uint32_t vrf, uint64_t va) {
  BdTag t;
  t.valid = valid;
  t.lru = lru;
  t.vmid = vmid;
  t.vrf = vrf;
  t.va = va;
  return t;
}

BdTag invalid() { return BdTag{}; }

Bits word(unsigned width, std::vector<uint32_t> words_lsw_first) {
  Bits b(width);
  if (b.words.size() != words_lsw_first.size()) throw std::logic_error("word(): wrong word count");
  b.words = std::move(words_lsw_first);
  return b;
}

// ---------------------------------------------------------------------------
// Bits

TEST(BdBits, FieldRoundTripsAcrossWordBoundaries) {
  Bits b(200);
  b.set_field(60, 64, 0xFEDCBA987654321Full);
  EXPECT_EQ(b.field(60, 64), 0xFEDCBA987654321Full);
  EXPECT_EQ(b.field(0, 60), 0u);
  EXPECT_EQ(b.field(124, 64), 0u);
  // value bits [3:0] -> word 1 [31:28], [35:4] -> word 2, [63:36] -> word 3 [27:0]
  const std::vector<uint32_t> expect = {0x0u, 0xF0000000u, 0x87654321u, 0x0FEDCBA9u, 0x0u, 0x0u, 0x0u};
  EXPECT_EQ(b.words, expect);
}

TEST(BdBits, SetFieldMasksValueToFieldWidth) {
  Bits b(16);
  b.set_field(4, 4, 0xFFFF);
  EXPECT_EQ(b.words[0], 0xF0u);
}

TEST(BdBits, ZeroWidthFieldIsEmpty) {
  Bits b(8);
  b.set_field(8, 0, 123);
  EXPECT_EQ(b.field(8, 0), 0u);
  EXPECT_EQ(b.words[0], 0u);
}

// Words live in place up to 512 bits and on the heap beyond: copies, moves and
// assign_zero between the two must keep every word.
TEST(BdBits, CopiesAndMovesAcrossInlineAndHeapStorage) {
  Bits wide(700), narrow(100), other(700);
  wide.set_field(650, 40, 0xABCDEF1234ull);
  narrow.set_field(70, 20, 0x5A5A5);
  other.set_field(0, 64, ~uint64_t{0});
  Bits copy = wide;  // heap, into an empty value
  EXPECT_EQ(copy, wide);
  copy = narrow;  // heap -> inline
  EXPECT_EQ(copy, narrow);
  copy = wide;  // inline -> heap
  copy = other;  // heap -> heap of the same size
  EXPECT_EQ(copy, other);
  EXPECT_EQ(copy.field(650, 40), 0u);
  Bits moved = std::move(copy);
  EXPECT_EQ(moved, other);
  moved = Bits(narrow);  // move-assigned inline over heap
  EXPECT_EQ(moved, narrow);
  moved.assign_zero(700);
  EXPECT_EQ(moved, Bits(700));
  moved.set_field(690, 10, 0x3FF);
  moved.assign_zero(700);  // storage kept, every word cleared
  EXPECT_EQ(moved, Bits(700));
}

TEST(BdBits, AccessBeyondWidthThrows) {
  Bits b(33);
  EXPECT_THROW(b.get(33), std::out_of_range);
  EXPECT_THROW(b.set_field(30, 4, 0), std::out_of_range);
}

// ---------------------------------------------------------------------------
// Parameter checks

TEST(BdCodecParamsCheck, RejectsWidthsThatAreNotTheDocumentDerivation) {
  BdCodecParams p = lds_fig7();
  p.value_bits = 8;  // V must be min(d - m, T) = 9
  EXPECT_THROW(BdCodecModel{p}, std::invalid_argument);
  p = lds_fig7();
  p.base_bits = 15;  // Bv = 16 does not fit
  p.packed_bits = 63;
  EXPECT_THROW(BdCodecModel{p}, std::invalid_argument);
}

TEST(BdCodecParamsCheck, AcceptsAllHandFilledPresets) {
  for (const BdCodecParams& p :
       {lds_fig7(), icache_fig10_shared(), arith_small(), padded_no_prefix(), arith_tiny_shared(),
        icache_direct_arith(), lds16k_nearest(), wide_arith_t64(), wide_prefix_t64(),
        arith_full_delta_shared(), wide_word_arith()}) {
    EXPECT_NO_THROW(BdCodecModel{p});
  }
}

// ---------------------------------------------------------------------------
// (a) Fig. 7 LDS preset

// Three tags with prefix va[24:9] = 0xD5E6:
//   e0 va 0x1ABCD12 -> low 0x112; field = 1 | 2<<1 | 1<<3 | 3<<5 | 0x112<<7 = 0x896D
//   e1 va 0x1ABCDFF -> low 0x1FF; field = 1 | 0    | 2<<3 | 0    | 0x1FF<<7 = 0xFF91
//   e2 va 0x1ABCC00 -> low 0x000; field = 1 | 1<<1 | 3<<3 | 1<<5 | 0        = 0x003B
// word = {e2, e1, e0, base} = 0x003B_FF91_896D_D5E6
TEST(BdCodecLds, ThreeTagsSharingThePrefixPackIntoTheFig7Word) {
  BdCodecModel codec(lds_fig7());
  const std::vector<BdTag> in = {tag(1, 2, 1, 3, 0x1ABCD12), tag(1, 0, 2, 0, 0x1ABCDFF),
                                 tag(1, 1, 3, 1, 0x1ABCC00)};
  const BdCompressed c = codec.compress(in);
  EXPECT_EQ(c.packed, word(64, {0x896DD5E6u, 0x003BFF91u}));
  EXPECT_TRUE(c.fits);
  EXPECT_EQ(c.dropped, 0u);
  EXPECT_EQ(codec.decompress(c.packed), in);
}

// e0 invalid with garbage -> field 0. Reference e1 va 0x155 (prefix 0, low 0x155):
//   field = 1 | 1<<1 | 0 | 2<<5 | 0x155<<7 = 0xAAC3
// e2 va 0x200 has prefix 1 != 0 -> dropped. word = 0x0000_AAC3_0000_0000.
TEST(BdCodecLds, LowestValidEntryIsReferenceAndOtherPrefixIsDropped) {
  BdCodecModel codec(lds_fig7());
  const std::vector<BdTag> in = {tag(0, 3, 3, 3, 0x1FFFFFF), tag(1, 1, 0, 2, 0x155),
                                 tag(1, 2, 1, 1, 0x200)};
  const BdCompressed c = codec.compress(in);
  EXPECT_EQ(c.packed, word(64, {0x00000000u, 0x0000AAC3u}));
  EXPECT_FALSE(c.fits);
  EXPECT_EQ(c.dropped, 0x4u);
  const std::vector<BdTag> expect = {invalid(), in[1], invalid()};
  EXPECT_EQ(codec.decompress(c.packed), expect);
}

// Top of the tag space: e0 va 0x1FFFFFF (prefix 0xFFFF, low 0x1FF) -> 0xFF81;
// e1 va 0x1FFFE00 (prefix 0xFFFF, low 0) lru 1 vmid 1 vrf 1 -> 0x002B;
// e2 va 0 has prefix 0 -> dropped. word = 0x0000_002B_FF81_FFFF.
TEST(BdCodecLds, PrefixHasNoWrapAroundAndEntryZeroIsNeverDropped) {
  BdCodecModel codec(lds_fig7());
  const std::vector<BdTag> in = {tag(1, 0, 0, 0, 0x1FFFFFF), tag(1, 1, 1, 1, 0x1FFFE00),
                                 tag(1, 2, 2, 2, 0x0)};
  const BdCompressed c = codec.compress(in);
  EXPECT_EQ(c.packed, word(64, {0xFF81FFFFu, 0x0000002Bu}));
  EXPECT_FALSE(c.fits);
  EXPECT_EQ(c.dropped, 0x4u);
}

TEST(BdCodecLds, FilledTranslationAtIndexZeroSurvivesWhenTheOthersAgree) {
  BdCodecModel codec(lds_fig7());
  const std::vector<BdTag> in = {tag(1, 0, 0, 0, 0x0000001), tag(1, 1, 0, 0, 0x1000000),
                                 tag(1, 2, 0, 0, 0x1000001)};
  const BdCompressed c = codec.compress(in);
  EXPECT_EQ(c.dropped, 0x6u);
  EXPECT_EQ(codec.decompress(c.packed)[0], in[0]);
}

// ---------------------------------------------------------------------------
// (b) Fig. 10 I-cache preset, shared ids

// va_i = 0x12345670 + i -> prefix 0x1234567, low i; lru_i = 7 - i; vmid 2, vrf 1.
// Entry i = 1 | (7-i)<<1 | i<<4: 0F 1D 2B 39 47 55 63 71 (e0..e7).
// Base = 0x1234567 | 2<<27 | 1<<29 = 0x31234567.
TEST(BdCodecIcache, EightTagsOfOneAddressSpacePackIntoTheFig10Word) {
  BdCodecModel codec(icache_fig10_shared());
  std::vector<BdTag> in;
  for (uint32_t i = 0; i < 8; ++i) in.push_back(tag(1, 7 - i, 2, 1, 0x12345670u + i));
  const BdCompressed c = codec.compress(in);
  EXPECT_EQ(c.packed, word(96, {0x31234567u, 0x392B1D0Fu, 0x71635547u}));
  EXPECT_TRUE(c.fits);
  EXPECT_EQ(c.dropped, 0u);
  EXPECT_EQ(codec.decompress(c.packed), in);
}

// Reference e1 (vmid 1, vrf 2, prefix 0x7FFFFFF). e3 other vmid, e5 other
// prefix, e6 other vrf -> dropped (mask 0x68). Fitting: e1 0x51, e2 0xA7, e7 0x0D.
// Base = 0x7FFFFFF | 1<<27 | 2<<29 = 0x4FFFFFFF.
TEST(BdCodecIcache, SharedIdsDropEntriesOfAnotherAddressSpace) {
  BdCodecModel codec(icache_fig10_shared());
  const std::vector<BdTag> in = {
      tag(0, 5, 3, 3, 0x7FFFFFFF), tag(1, 0, 1, 2, 0x7FFFFFF5), tag(1, 3, 1, 2, 0x7FFFFFFA),
      tag(1, 1, 0, 2, 0x7FFFFFF1), invalid(),                   tag(1, 2, 1, 2, 0x7FFFFFE5),
      tag(1, 7, 1, 1, 0x7FFFFFF0), tag(1, 6, 1, 2, 0x7FFFFFF0)};
  const BdCompressed c = codec.compress(in);
  EXPECT_EQ(c.packed, word(96, {0x4FFFFFFFu, 0x00A75100u, 0x0D000000u}));
  EXPECT_FALSE(c.fits);
  EXPECT_EQ(c.dropped, 0x68u);
  std::vector<BdTag> expect(8);
  expect[1] = in[1];
  expect[2] = in[2];
  expect[7] = in[7];
  EXPECT_EQ(codec.decompress(c.packed), expect);
}

TEST(BdCodecIcache, DecompressIgnoresBasePaddingBit) {
  BdCodecModel codec(icache_fig10_shared());
  Bits w = word(96, {0x31234567u, 0x392B1D0Fu, 0x71635547u});
  const std::vector<BdTag> clean = codec.decompress(w);
  w.set(31, true);
  EXPECT_EQ(codec.decompress(w), clean);
}

TEST(BdCodecIcache, InvalidEntryDoesNotInheritSharedIds) {
  BdCodecModel codec(icache_fig10_shared());
  const std::vector<BdTag> out = codec.decompress(word(96, {0x7FFFFFFFu, 0x0u, 0x0u}));
  for (const BdTag& t : out) EXPECT_EQ(t, invalid());
}

// ---------------------------------------------------------------------------
// (c) Small arith config, V = 3: deltas in [-4, 3]

// ref e0 va 100 (0x064): field 1 | 0 | 1<<3 | 0 | 0 = 0x09
// e1 va 103 (+3): 1 | 1<<1 | 0 | 1<<4 | 3<<5 = 0x73
// e2 va 104 (+4): dropped
// e3 va  96 (-4 = 0b100): 1 | 3<<1 | 1<<3 | 1<<4 | 4<<5 = 0x9F
// word = 0x064 | 0x09<<9 | 0x73<<17 | 0x9F<<33 = 0x13E_00E6_1264
TEST(BdCodecArith, MaxPositiveAndMaxNegativeDeltaFitAndPlusFourIsDropped) {
  BdCodecModel codec(arith_small());
  const std::vector<BdTag> in = {tag(1, 0, 1, 0, 100), tag(1, 1, 0, 1, 103),
                                 tag(1, 2, 0, 0, 104), tag(1, 3, 1, 1, 96)};
  const BdCompressed c = codec.compress(in);
  EXPECT_EQ(c.packed, word(41, {0x00E61264u, 0x13Eu}));
  EXPECT_FALSE(c.fits);
  EXPECT_EQ(c.dropped, 0x4u);
  const std::vector<BdTag> expect = {in[0], in[1], invalid(), in[3]};
  EXPECT_EQ(codec.decompress(c.packed), expect);
}

// ref e0 va 100 lru 2 vrf 1: 1 | 2<<1 | 0 | 1<<4 = 0x15
// e1 va 95 (-5): dropped; e2 invalid garbage: 0
// e3 va 99 (-1 = 0b111) lru 1 vmid 1: 1 | 1<<1 | 1<<3 | 0 | 7<<5 = 0xEB
// word = 0x064 | 0x15<<9 | 0xEB<<33 = 0x1D6_0000_2A64
TEST(BdCodecArith, MinusFiveIsDropped) {
  BdCodecModel codec(arith_small());
  const std::vector<BdTag> in = {tag(1, 2, 0, 1, 100), tag(1, 0, 0, 0, 95),
                                 tag(0, 3, 1, 1, 100), tag(1, 1, 1, 0, 99)};
  const BdCompressed c = codec.compress(in);
  EXPECT_EQ(c.packed, word(41, {0x00002A64u, 0x1D6u}));
  EXPECT_FALSE(c.fits);
  EXPECT_EQ(c.dropped, 0x2u);
}

// e0 invalid; ref e1 va 0: field 0x01, base 0.
// e2 va 511 (-1 mod 512 = 0b111) lru 3 vmid 1 vrf 1: 1|6|8|0x10|0xE0 = 0xFF
// e3 va 508 (-4 = 0b100) lru 2: 1 | 4 | 0 | 0 | 0x80 = 0x85
// word = 0x01<<17 | 0xFF<<25 | 0x85<<33 = 0x10B_FE02_0000
TEST(BdCodecArith, DeltaWrapsBelowZeroModuloTwoToTheT) {
  BdCodecModel codec(arith_small());
  const std::vector<BdTag> in = {tag(0, 1, 1, 1, 7), tag(1, 0, 0, 0, 0),
                                 tag(1, 3, 1, 1, 511), tag(1, 2, 0, 0, 508)};
  const BdCompressed c = codec.compress(in);
  EXPECT_EQ(c.packed, word(41, {0xFE020000u, 0x10Bu}));
  EXPECT_TRUE(c.fits);
  EXPECT_EQ(c.dropped, 0u);
  const std::vector<BdTag> expect = {invalid(), in[1], in[2], in[3]};
  EXPECT_EQ(codec.decompress(c.packed), expect);
}

// ref e0 va 511: base 0x1FF, field 0x01.
// e1 va 0 (+1) lru 1: 1 | 2 | 0 | 0 | 1<<5 = 0x23
// e2 va 2 (+3) lru 2 vmid 1 vrf 1: 1 | 4 | 8 | 0x10 | 3<<5 = 0x7D
// e3 va 3 (+4): dropped
// word = 0x1FF | 0x01<<9 | 0x23<<17 | 0x7D<<25 = 0xFA46_03FF
TEST(BdCodecArith, DeltaWrapsAboveTopModuloTwoToTheT) {
  BdCodecModel codec(arith_small());
  const std::vector<BdTag> in = {tag(1, 0, 0, 0, 511), tag(1, 1, 0, 0, 0),
                                 tag(1, 2, 1, 1, 2), tag(1, 3, 0, 0, 3)};
  const BdCompressed c = codec.compress(in);
  EXPECT_EQ(c.packed, word(41, {0xFA4603FFu, 0x0u}));
  EXPECT_FALSE(c.fits);
  EXPECT_EQ(c.dropped, 0x8u);
  const std::vector<BdTag> expect = {in[0], in[1], in[2], invalid()};
  EXPECT_EQ(codec.decompress(c.packed), expect);
}

TEST(BdCodecArith, SixtyFourBitTagsWrapModuloTwoToTheSixtyFour) {
  BdCodecModel codec(wide_arith_t64());
  const uint64_t top = ~uint64_t{0};
  const std::vector<BdTag> in = {tag(1, 1, 0, 0, top - 5), tag(1, 0, 0, 0, 10)};  // +16
  const BdCompressed c = codec.compress(in);
  EXPECT_TRUE(c.fits);
  EXPECT_EQ(c.packed.field(0, 64), top - 5);
  EXPECT_EQ(c.packed.field(96 + 2, 30), 16u);
  EXPECT_EQ(codec.decompress(c.packed), in);

  const std::vector<BdTag> far = {tag(1, 1, 0, 0, 0), tag(1, 0, 0, 0, uint64_t{1} << 29)};
  EXPECT_EQ(codec.compress(far).dropped, 0x2u);  // +2^29 > 2^29 - 1
}

TEST(BdCodecArith, FullWidthDeltaAlwaysFitsOnVa) {
  BdCodecModel codec(arith_full_delta_shared());
  const std::vector<BdTag> in = {tag(1, 0, 3, 1, 0), tag(1, 1, 3, 1, 0xFFFFF)};
  const BdCompressed c = codec.compress(in);
  EXPECT_TRUE(c.fits);
  EXPECT_EQ(codec.decompress(c.packed), in);
}

// ---------------------------------------------------------------------------
// No prefix (Bv = 0) and padding bits

// e0 va 0xA lru 1 vmid 1: 1 | 2 | 4 | 0 | 0xA<<4 = 0xA7
// e1 va 0x5 vrf 1:        1 | 0 | 0 | 8 | 0x5<<4 = 0x59
// word = 0xA7<<2 | 0x59<<12 = 0x5929C (base and entry padding zero)
TEST(BdCodecNoPrefix, EveryTagFitsAndPaddingIsZero) {
  BdCodecModel codec(padded_no_prefix());
  const std::vector<BdTag> in = {tag(1, 1, 1, 0, 0xA), tag(1, 0, 0, 1, 0x5)};
  const BdCompressed c = codec.compress(in);
  EXPECT_EQ(c.packed, word(22, {0x5929Cu}));
  EXPECT_TRUE(c.fits);
}

TEST(BdCodecNoPrefix, DecompressIgnoresPaddingBits) {
  BdCodecModel codec(padded_no_prefix());
  const uint32_t padding = 0x3u | 0xC00u | 0x300000u;  // base [1:0], e0 [11:10], e1 [21:20]
  const std::vector<BdTag> expect = {tag(1, 1, 1, 0, 0xA), tag(1, 0, 0, 1, 0x5)};
  EXPECT_EQ(codec.decompress(word(22, {0x5929Cu | padding})), expect);
}

TEST(BdCodecNoPrefix, SixtyFourBitTagsFitWithoutBase) {
  BdCodecModel codec(wide_prefix_t64());
  const std::vector<BdTag> in = {tag(1, 1, 7, 0, 0x8000000000000001ull),
                                 tag(1, 0, 2, 0, 0x0123456789ABCDEFull)};
  const BdCompressed c = codec.compress(in);
  EXPECT_TRUE(c.fits);
  EXPECT_EQ(c.packed.field(5, 64), 0x8000000000000001ull);
  EXPECT_EQ(c.packed.field(70 + 5, 64), 0x0123456789ABCDEFull);
  EXPECT_EQ(codec.decompress(c.packed), in);
}

// ---------------------------------------------------------------------------
// (d) all invalid, (e) invalid entries are canonical zero

TEST(BdCodecCanonical, AllInvalidGivesZeroWordThatFits) {
  for (const BdCodecParams& p : {lds_fig7(), icache_fig10_shared(), arith_small()}) {
    BdCodecModel codec(p);
    std::vector<BdTag> in(p.tags);
    for (unsigned i = 0; i < p.tags; ++i) in[i] = tag(0, i, 1, 1, 0x1234567 + i);
    const BdCompressed c = codec.compress(in);
    EXPECT_EQ(c.packed, Bits(p.packed_bits));
    EXPECT_TRUE(c.fits);
    EXPECT_EQ(c.dropped, 0u);
    EXPECT_EQ(codec.decompress(c.packed), std::vector<BdTag>(p.tags));
  }
}

TEST(BdCodecCanonical, InvalidEntryGarbageDoesNotReachThePackedWord) {
  BdCodecModel codec(lds_fig7());
  const std::vector<BdTag> clean = {tag(1, 2, 1, 3, 0x1ABCD12), invalid(),
                                    tag(1, 1, 3, 1, 0x1ABCC00)};
  std::vector<BdTag> dirty = clean;
  dirty[1] = tag(0, 3, 3, 3, 0x0000000);  // would not even fit if it were valid
  const BdCompressed c = codec.compress(dirty);
  EXPECT_EQ(c.packed, codec.compress(clean).packed);
  EXPECT_EQ(c.packed.field(32, 16), 0u);
  EXPECT_TRUE(c.fits);
  EXPECT_EQ(c.dropped, 0u);  // invalid entries are never "dropped"
}

TEST(BdCodecCanonical, InvalidFieldWithGarbageDecompressesToZero) {
  BdCodecModel codec(lds_fig7());
  Bits w = word(64, {0x896DD5E6u, 0x003BFF91u});
  w.set_field(32, 16, 0xFFFE);  // entry 1: valid = 0, everything else set
  const std::vector<BdTag> out = codec.decompress(w);
  EXPECT_EQ(out[1], invalid());
  EXPECT_EQ(out[0], tag(1, 2, 1, 3, 0x1ABCD12));
  EXPECT_EQ(out[2], tag(1, 1, 3, 1, 0x1ABCC00));
}

TEST(BdCodecCanonical, InputsAboveTheirPortWidthsAreTruncated) {
  BdCodecModel codec(lds_fig7());
  const std::vector<BdTag> narrow = {tag(1, 2, 1, 3, 0x1ABCD12), invalid(), invalid()};
  const std::vector<BdTag> wide = {tag(1, 2 + 4, 1 + 4, 3 + 4, 0x1ABCD12 + (1ull << 25)),
                                   invalid(), invalid()};
  EXPECT_EQ(codec.compress(wide).packed, codec.compress(narrow).packed);
}

// ---------------------------------------------------------------------------
// (f) Round trip on random tag sets

uint64_t mask_of(unsigned bits) { return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }

// Tags clustered around a centre so that many sets fit; a fraction of
// entries are pushed far away (or to another address space) to exercise drops.
class TagSetSource {
 public:
  TagSetSource(const BdCodecParams& p, uint64_t seed) : p_(p), rng_(seed) {}

  std::vector<BdTag> next() {
    const bool clean = coin(2);
    const uint64_t centre = pick_centre();
    const uint32_t vmid = uniform32(p_.vmid_bits), vrf = uniform32(p_.vrf_bits);
    std::vector<BdTag> tags(p_.tags);
    for (BdTag& t : tags) {
      t.valid = !coin(6);
      t.lru = uniform32(p_.lru_bits);
      const bool stray = !clean && coin(8);
      t.vmid = stray && coin(2) ? uniform32(p_.vmid_bits) : vmid;
      t.vrf = stray && coin(2) ? uniform32(p_.vrf_bits) : vrf;
      t.va = stray ? uniform(p_.va_tag_bits) : near(centre, clean);
    }
    return tags;
  }

 private:
  bool coin(unsigned one_in) { return rng_() % one_in == 0; }
  uint64_t uniform(unsigned bits) { return rng_() & mask_of(bits); }
  uint32_t uniform32(unsigned bits) { return static_cast<uint32_t>(uniform(bits)); }

  uint64_t pick_centre() {
    const uint64_t top = mask_of(p_.va_tag_bits);
    switch (rng_() % 8) {
      case 0: return 0;    // wrap-around below zero
      case 1: return top;  // wrap-around above the top
      default: return uniform(p_.va_tag_bits);
    }
  }

  // Clean sets stay within half the delta range of the centre, so every pair
  // fits; other sets use the full range, so boundary deltas occur both ways.
  uint64_t near(uint64_t centre, bool clean) {
    const unsigned v = p_.value_bits, t = p_.va_tag_bits;
    if (p_.encoding == CodecEncoding::Prefix) {
      return ((centre & ~mask_of(v)) | uniform(v)) & mask_of(t);
    }
    const unsigned span_bits = clean ? (v >= 2 ? v - 1 : 0) : v;
    const uint64_t offset = uniform(span_bits) - (span_bits == 0 ? 0 : uint64_t{1} << (span_bits - 1));
    return (centre + offset) & mask_of(t);
  }

  BdCodecParams p_;
  std::mt19937_64 rng_;
};

struct RoundTripCase {
  const char* name;
  BdCodecParams params;
  bool can_drop;
};

void PrintTo(const RoundTripCase& c, std::ostream* os) { *os << c.name; }

class BdCodecRoundTrip : public ::testing::TestWithParam<RoundTripCase> {};

TEST_P(BdCodecRoundTrip, DecompressOfCompressKeepsEveryFittingEntry) {
  const BdCodecParams& p = GetParam().params;
  BdCodecModel codec(p);
  TagSetSource source(p, 0x5EED000ull + p.packed_bits);
  constexpr int kSets = 10000;
  int fitting = 0, dropping = 0;
  for (int k = 0; k < kSets; ++k) {
    const std::vector<BdTag> in = source.next();
    const BdCompressed c = codec.compress(in);
    ASSERT_EQ(c.fits, c.dropped == 0u);
    std::vector<BdTag> expect(p.tags);
    bool reference_seen = false;
    for (unsigned i = 0; i < p.tags; ++i) {
      const bool dropped = (c.dropped >> i) & 1u;
      ASSERT_TRUE(!dropped || in[i].valid) << "invalid entry " << i << " reported dropped";
      if (in[i].valid && !reference_seen) {
        ASSERT_FALSE(dropped) << "reference entry " << i << " dropped";
        reference_seen = true;
      }
      if (in[i].valid && !dropped) expect[i] = in[i];
    }
    ASSERT_EQ(codec.decompress(c.packed), expect) << "set " << k;
    (c.fits ? fitting : dropping)++;
  }
  EXPECT_GE(fitting, kSets / 5);
  if (GetParam().can_drop) {
    EXPECT_GE(dropping, kSets / 50);
  }
  RecordProperty("fitting", fitting);
  RecordProperty("dropping", dropping);
}

INSTANTIATE_TEST_SUITE_P(
    Presets, BdCodecRoundTrip,
    ::testing::Values(RoundTripCase{"lds_fig7", lds_fig7(), true},
                      RoundTripCase{"icache_fig10_shared", icache_fig10_shared(), true},
                      RoundTripCase{"arith_small", arith_small(), true},
                      RoundTripCase{"padded_no_prefix", padded_no_prefix(), false},
                      RoundTripCase{"arith_tiny_shared", arith_tiny_shared(), true},
                      RoundTripCase{"icache_direct_arith", icache_direct_arith(), true},
                      RoundTripCase{"lds16k_nearest", lds16k_nearest(), true},
                      RoundTripCase{"wide_arith_t64", wide_arith_t64(), true},
                      RoundTripCase{"wide_prefix_t64", wide_prefix_t64(), false},
                      RoundTripCase{"arith_full_delta_shared", arith_full_delta_shared(), true},
                      RoundTripCase{"wide_word_arith", wide_word_arith(), true}),
    [](const ::testing::TestParamInfo<RoundTripCase>& case_info) {
      return std::string(case_info.param.name);
    });

// ---------------------------------------------------------------------------
// (g) Stage timing

const std::vector<BdTag> kTagsA = {tag(1, 2, 1, 3, 0x1ABCD12), tag(1, 0, 2, 0, 0x1ABCDFF),
                                   tag(1, 1, 3, 1, 0x1ABCC00)};
const std::vector<BdTag> kTagsB = {invalid(), tag(1, 1, 0, 2, 0x155), tag(1, 2, 1, 1, 0x200)};

BdCompIn comp_in(bool in_valid, const std::vector<BdTag>& tags, bool out_ready, bool rst_n = true) {
  BdCompIn in;
  in.rst_n = rst_n;
  in.in_valid = in_valid;
  in.tags = tags;
  in.out_ready = out_ready;
  return in;
}

void expect_comp_reset_state(const BdCompOut& o) {
  EXPECT_FALSE(o.out_valid);
  EXPECT_EQ(o.result.packed, Bits(64));
  EXPECT_FALSE(o.result.fits);  // the fits register resets to 0 like every other
  EXPECT_EQ(o.result.dropped, 0u);
}

TEST(BdCompStageTiming, StartsInResetState) {
  BdCompStage stage(lds_fig7());
  const BdCompOut o = stage.outputs(comp_in(false, kTagsA, false));
  expect_comp_reset_state(o);
  EXPECT_TRUE(o.in_ready);
}

TEST(BdCompStageTiming, AcceptsOneWordPerCycleAndOutputIsRegistered) {
  BdCodecModel codec(lds_fig7());
  BdCompStage stage(lds_fig7());
  // Cycle 0: A offered; output still empty.
  BdCompOut o = stage.outputs(comp_in(true, kTagsA, true));
  EXPECT_TRUE(o.in_ready);
  EXPECT_FALSE(o.out_valid);
  stage.posedge(comp_in(true, kTagsA, true));
  // Cycle 1: A out, B offered and accepted.
  o = stage.outputs(comp_in(true, kTagsB, true));
  EXPECT_TRUE(o.out_valid);
  EXPECT_TRUE(o.in_ready);
  EXPECT_EQ(o.result.packed, word(64, {0x896DD5E6u, 0x003BFF91u}));
  EXPECT_TRUE(o.result.fits);
  stage.posedge(comp_in(true, kTagsB, true));
  // Cycle 2: B out.
  o = stage.outputs(comp_in(false, {}, true));
  EXPECT_TRUE(o.out_valid);
  EXPECT_EQ(o.result.packed, codec.compress(kTagsB).packed);
  EXPECT_FALSE(o.result.fits);
  EXPECT_EQ(o.result.dropped, 0x4u);
  stage.posedge(comp_in(false, {}, true));
  // Cycle 3: transfer done; data outputs hold B.
  o = stage.outputs(comp_in(false, {}, true));
  EXPECT_FALSE(o.out_valid);
  EXPECT_EQ(o.result.packed, codec.compress(kTagsB).packed);
  EXPECT_EQ(o.result.dropped, 0x4u);
}

TEST(BdCompStageTiming, BackPressureHoldsOutputAndDropsInReady) {
  BdCodecModel codec(lds_fig7());
  BdCompStage stage(lds_fig7());
  stage.posedge(comp_in(true, kTagsA, false));  // empty stage accepts regardless of out_ready
  for (int cycle = 0; cycle < 3; ++cycle) {
    const BdCompOut o = stage.outputs(comp_in(true, kTagsB, false));
    EXPECT_FALSE(o.in_ready);
    EXPECT_TRUE(o.out_valid);
    EXPECT_EQ(o.result.packed, codec.compress(kTagsA).packed);
    stage.posedge(comp_in(true, kTagsB, false));
  }
  const BdCompOut o = stage.outputs(comp_in(true, kTagsB, true));
  EXPECT_TRUE(o.in_ready);
  EXPECT_EQ(o.result.packed, codec.compress(kTagsA).packed);
  stage.posedge(comp_in(true, kTagsB, true));
  EXPECT_EQ(stage.outputs(comp_in(false, {}, false)).result.packed, codec.compress(kTagsB).packed);
}

TEST(BdCompStageTiming, InReadyFollowsOutReadyWithinTheCycle) {
  BdCompStage stage(lds_fig7());
  EXPECT_TRUE(stage.outputs(comp_in(false, {}, false)).in_ready);  // empty: ready
  stage.posedge(comp_in(true, kTagsA, false));
  EXPECT_FALSE(stage.outputs(comp_in(false, {}, false)).in_ready);
  EXPECT_TRUE(stage.outputs(comp_in(false, {}, true)).in_ready);
  EXPECT_FALSE(stage.outputs(comp_in(false, {}, false)).in_ready);  // no edge happened
}

TEST(BdCompStageTiming, IdleEdgeWithoutOutReadyHoldsEverything) {
  BdCodecModel codec(lds_fig7());
  BdCompStage stage(lds_fig7());
  stage.posedge(comp_in(true, kTagsA, false));
  stage.posedge(comp_in(false, kTagsB, false));
  const BdCompOut o = stage.outputs(comp_in(false, {}, false));
  EXPECT_TRUE(o.out_valid);
  EXPECT_EQ(o.result.packed, codec.compress(kTagsA).packed);
}

TEST(BdCompStageTiming, AsyncResetClearsStateBeforeAnyEdge) {
  BdCompStage stage(lds_fig7());
  stage.posedge(comp_in(true, kTagsA, false));
  ASSERT_TRUE(stage.outputs(comp_in(false, {}, false)).out_valid);
  const BdCompOut held = stage.outputs(comp_in(true, kTagsB, false, /*rst_n=*/false));
  expect_comp_reset_state(held);
  EXPECT_TRUE(held.in_ready);  // !out_valid_q || out_ready, with out_valid_q = 0
  stage.posedge(comp_in(true, kTagsB, true, /*rst_n=*/false));  // no capture in reset
  expect_comp_reset_state(stage.outputs(comp_in(false, {}, false)));
}

const Bits kWordA = word(64, {0x896DD5E6u, 0x003BFF91u});
const Bits kWordB = word(64, {0x00000000u, 0x0000AAC3u});

BdDecompIn decomp_in(bool in_valid, const Bits& packed, bool out_ready, bool rst_n = true) {
  BdDecompIn in;
  in.rst_n = rst_n;
  in.in_valid = in_valid;
  in.packed = packed;
  in.out_ready = out_ready;
  return in;
}

TEST(BdDecompStageTiming, AcceptsOneWordPerCycleAndOutputIsRegistered) {
  BdDecompStage stage(lds_fig7());
  const std::vector<BdTag> tags_b = {invalid(), tag(1, 1, 0, 2, 0x155), invalid()};
  BdDecompOut o = stage.outputs(decomp_in(true, kWordA, true));
  EXPECT_TRUE(o.in_ready);
  EXPECT_FALSE(o.out_valid);
  EXPECT_EQ(o.tags, std::vector<BdTag>(3));
  stage.posedge(decomp_in(true, kWordA, true));
  o = stage.outputs(decomp_in(true, kWordB, true));
  EXPECT_TRUE(o.out_valid);
  EXPECT_EQ(o.tags, kTagsA);
  stage.posedge(decomp_in(true, kWordB, true));
  o = stage.outputs(decomp_in(false, kWordA, true));
  EXPECT_TRUE(o.out_valid);
  EXPECT_EQ(o.tags, tags_b);
  stage.posedge(decomp_in(false, kWordA, true));
  o = stage.outputs(decomp_in(false, kWordA, true));
  EXPECT_FALSE(o.out_valid);
  EXPECT_EQ(o.tags, tags_b);  // data holds after the transfer
}

TEST(BdDecompStageTiming, BackPressureHoldsOutputAndDropsInReady) {
  BdDecompStage stage(lds_fig7());
  stage.posedge(decomp_in(true, kWordA, false));
  BdDecompOut o = stage.outputs(decomp_in(true, kWordB, false));
  EXPECT_FALSE(o.in_ready);
  EXPECT_TRUE(o.out_valid);
  stage.posedge(decomp_in(true, kWordB, false));
  o = stage.outputs(decomp_in(true, kWordB, false));
  EXPECT_EQ(o.tags, kTagsA);
  EXPECT_TRUE(stage.outputs(decomp_in(true, kWordB, true)).in_ready);
}

TEST(BdDecompStageTiming, AsyncResetClearsStateBeforeAnyEdge) {
  BdDecompStage stage(lds_fig7());
  stage.posedge(decomp_in(true, kWordA, false));
  const BdDecompOut o = stage.outputs(decomp_in(true, kWordB, false, /*rst_n=*/false));
  EXPECT_FALSE(o.out_valid);
  EXPECT_TRUE(o.in_ready);
  EXPECT_EQ(o.tags, std::vector<BdTag>(3));
  stage.posedge(decomp_in(true, kWordB, true, /*rst_n=*/false));
  EXPECT_FALSE(stage.outputs(decomp_in(false, kWordB, false)).out_valid);
  EXPECT_EQ(stage.outputs(decomp_in(false, kWordB, false)).tags, std::vector<BdTag>(3));
}

}  // namespace
}  // namespace txgen::model
