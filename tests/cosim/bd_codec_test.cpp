// Lock-step co-simulation of bd_codec_NAME_comp / _decomp against the golden
// model (docs/blocks/bd_codec.md). One executable per configuration; the build
// passes the Verilated classes and the configuration path:
//   TXGEN_COMP_HEADER / TXGEN_COMP_CLASS, TXGEN_DECOMP_HEADER / TXGEN_DECOMP_CLASS,
//   TXGEN_COSIM_CONFIG (path), TXGEN_COSIM_CONFIG_NAME.
// Corner values are derived from the elaborated widths, so every test runs on
// every configuration (or skips when its corner does not exist there).
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include TXGEN_COMP_HEADER
#include TXGEN_DECOMP_HEADER

#include "bd_codec_harness.h"
#include "cosim_gtest.h"
#include "cosim_util.h"
#include "model/bd_codec.h"
#include "txgen/config/parse.h"
#include "txgen/elab/bd_codec.h"

namespace {

using txgen::config::CodecEncoding;
using txgen::elab::BdCodecParams;
using txgen::model::BdTag;
using txgen::verif::BdChainIn;
using txgen::verif::BdChainOut;
using txgen::verif::BdExpectation;
using txgen::verif::BdRoundTripScoreboard;
using txgen::verif::Bits;
using txgen::verif::CosimSession;
using txgen::verif::CosimVerdict;
using txgen::verif::expect_passed;
using txgen::verif::low_mask;
using txgen::verif::Rng;
using txgen::verif::to_hex;

using CompDut = TXGEN_COMP_CLASS;
using DecompDut = TXGEN_DECOMP_CLASS;
using Chain = txgen::verif::BdChainHarness<CompDut, DecompDut>;
using CompHarness = txgen::verif::BdCompHarness<CompDut>;
using DecompHarness = txgen::verif::BdDecompHarness<DecompDut>;

const BdCodecParams& params() {
  static const BdCodecParams p =
      txgen::elab::elaborate_bd_codec(txgen::config::load_config_file(TXGEN_COSIM_CONFIG));
  return p;
}

std::string test_name() { return txgen::verif::cosim_test_name(TXGEN_COSIM_CONFIG_NAME); }

void expect_covered(const CosimVerdict& verdict, const std::vector<std::string>& names) {
  for (const std::string& name : names)
    EXPECT_GT(verdict.coverage.count(name), 0u) << "coverage counter " << name << " never hit";
}

bool is_prefix() { return params().encoding == CodecEncoding::Prefix; }
uint64_t va_mask() { return low_mask(params().va_tag_bits); }
uint64_t value_mask() { return low_mask(params().value_bits); }

// ---------------------------------------------------------------------------
// Tag builders

// Ids a valid entry carries: per entry they differ between entries (they
// travel in the entry), shared they must equal the reference's to fit.
uint32_t entry_vmid(unsigned i) {
  return static_cast<uint32_t>((params().ids_shared() ? 1u : i + 1) & low_mask(params().vmid_bits));
}
uint32_t entry_vrf(unsigned i) {
  return static_cast<uint32_t>((params().ids_shared() ? ~0u : 3 * i) & low_mask(params().vrf_bits));
}

BdTag valid_entry(unsigned i, uint64_t va) {
  const BdCodecParams& p = params();
  BdTag tag;
  tag.valid = true;
  tag.lru = static_cast<uint32_t>((p.tags - 1 - i) & low_mask(p.lru_bits));
  tag.vmid = entry_vmid(i);
  tag.vrf = entry_vrf(i);
  tag.va = va & va_mask();
  return tag;
}

// An invalid entry whose other fields are all ones: none of it may show.
BdTag garbage_entry(uint64_t va) {
  const BdCodecParams& p = params();
  BdTag tag;
  tag.valid = false;
  tag.lru = static_cast<uint32_t>(low_mask(p.lru_bits));
  tag.vmid = static_cast<uint32_t>(low_mask(p.vmid_bits));
  tag.vrf = static_cast<uint32_t>(low_mask(p.vrf_bits));
  tag.va = va & va_mask();
  return tag;
}

// A mid-range VA tag with chosen low (prefix-value) bits.
uint64_t reference_va(uint64_t low_bits) {
  const uint64_t middle = 0x5a5a5a5a5a5a5a5aULL & va_mask();
  if (!is_prefix()) return middle ^ low_bits;
  return (middle & ~value_mask()) | (low_bits & value_mask());
}

uint64_t at(uint64_t ref_va, int64_t delta) { return txgen::verif::bd_va_at(params(), ref_va, delta); }

txgen::verif::BdDeltaWindow window(uint64_t ref_va) {
  return txgen::verif::bd_delta_window(params(), ref_va);
}

// Entry 0 is the reference at ref_va; entry i > 0 sits at delta_of(i).
template <class DeltaOf>
std::vector<BdTag> vector_around(uint64_t ref_va, DeltaOf delta_of) {
  std::vector<BdTag> tags;
  tags.push_back(valid_entry(0, ref_va));
  for (unsigned i = 1; i < params().tags; ++i) tags.push_back(valid_entry(i, at(ref_va, delta_of(i))));
  return tags;
}

struct DirectedCase {
  std::vector<BdTag> tags;
  BdExpectation expect;
};

// Puts a corner delta on every entry position: all non-reference entries at
// the corner; then only the odd ones, then only the even ones (the others at
// `other`); then with entry 0 invalid, so entry 1 is the reference. An RTL
// that gets one entry's corner wrong fails at least one of these vectors.
std::vector<DirectedCase> corner_on_each_entry(uint64_t ref_va, int64_t corner, int64_t other,
                                               bool corner_drops) {
  const unsigned n = params().tags;
  std::vector<DirectedCase> cases;
  for (int pattern = 0; pattern < 3; ++pattern) {
    DirectedCase c{{valid_entry(0, ref_va)}, {true, 0}};
    for (unsigned i = 1; i < n; ++i) {
      const bool at_corner = pattern == 0 || (pattern == 1 ? i % 2 == 1 : i % 2 == 0);
      c.tags.push_back(valid_entry(i, at(ref_va, at_corner ? corner : other)));
      if (at_corner && corner_drops) c.expect.dropped |= 1u << i;
    }
    c.expect.fits = c.expect.dropped == 0;
    cases.push_back(c);
  }
  DirectedCase moved{{garbage_entry(~ref_va), valid_entry(1, ref_va)}, {true, 0}};
  for (unsigned i = 2; i < n; ++i) {
    moved.tags.push_back(valid_entry(i, at(ref_va, corner)));
    if (corner_drops) moved.expect.dropped |= 1u << i;
  }
  moved.expect.fits = moved.expect.dropped == 0;
  cases.push_back(moved);
  return cases;
}

template <class Vector>
void append(Vector& to, const Vector& from) {
  to.insert(to.end(), from.begin(), from.end());
}

// ---------------------------------------------------------------------------
// Chain drivers shared by the directed tests

struct ChainRun {
  Chain& chain;
  BdRoundTripScoreboard& board;

  BdChainOut step(const BdChainIn& in, std::optional<BdExpectation> expect = std::nullopt) {
    const BdChainOut out = chain.step(in);
    board.observe(in, out, expect);
    return out;
  }
  void reset(unsigned cycles) {
    for (unsigned c = 0; c < cycles; ++c) step({false, false, {}, true});
  }
  // Offers the vector until the compressor takes it.
  void offer(const DirectedCase& c, bool out_ready = true) {
    for (int guard = 0; guard < 16; ++guard)
      if (step({true, true, c.tags, out_ready}, c.expect).comp_accepts) return;
    throw std::runtime_error("compressor never accepted a vector");
  }
  void drain(CosimSession& s) {
    for (int guard = 0; guard < 16 && board.in_flight() > 0; ++guard) step({true, false, {}, true});
    s.expect_equal("vectors still in flight after draining", "0", std::to_string(board.in_flight()));
  }
};

std::vector<BdTag> filler_tags() { return std::vector<BdTag>(params().tags, garbage_entry(0)); }

void run_directed(const std::vector<DirectedCase>& cases) {
  const CosimVerdict verdict =
      txgen::verif::run_cosim(test_name(), txgen::verif::seed_from_env(), [&](CosimSession& s) {
        Chain chain(s, params());
        BdRoundTripScoreboard board(s, params());
        ChainRun run{chain, board};
        run.reset(3);
        for (const DirectedCase& c : cases) run.offer(c);
        run.drain(s);
        s.expect_equal("round trips checked", std::to_string(cases.size()),
                       std::to_string(board.checked()));
      });
  expect_passed(verdict);
}

// ---------------------------------------------------------------------------
// Directed corners

TEST(BdCodecCosim, AllEqual) {
  const uint64_t ref = reference_va(0x15);
  run_directed({{vector_around(ref, [](unsigned) { return 0; }), {true, 0}}});
}

TEST(BdCodecCosim, MaxPositiveDelta) {
  const uint64_t ref = reference_va(0);  // prefix: the window starts at the reference
  const int64_t hi = window(ref).hi;
  run_directed(corner_on_each_entry(ref, hi, 0, false));
}

TEST(BdCodecCosim, MaxNegativeDelta) {
  const uint64_t ref = reference_va(value_mask());  // prefix: the window ends at the reference
  const int64_t lo = window(ref).lo;
  run_directed(corner_on_each_entry(ref, lo, 0, false));
}

// The reference and its twin with the lowest bit above the entry value
// flipped: stepping out of the window then changes one bit of the prefix or
// carries through several, whichever the first reference did not.
std::vector<uint64_t> reference_and_twin(uint64_t ref_va) {
  const unsigned bit = std::min(params().value_bits, params().va_tag_bits - 1);
  return {ref_va, ref_va ^ (uint64_t{1} << bit)};
}

TEST(BdCodecCosim, OneOverPositiveLimit) {
  if (!txgen::verif::bd_window_can_overflow(params())) GTEST_SKIP() << "every VA fits";
  std::vector<DirectedCase> cases;
  for (uint64_t ref : reference_and_twin(reference_va(0))) {
    const int64_t hi = window(ref).hi;
    append(cases, corner_on_each_entry(ref, hi + 1, hi, true));
  }
  run_directed(cases);
}

TEST(BdCodecCosim, OneUnderNegativeLimit) {
  if (!txgen::verif::bd_window_can_overflow(params())) GTEST_SKIP() << "every VA fits";
  std::vector<DirectedCase> cases;
  for (uint64_t ref : reference_and_twin(reference_va(value_mask()))) {
    const int64_t lo = window(ref).lo;
    append(cases, corner_on_each_entry(ref, lo - 1, lo, true));
  }
  run_directed(cases);
}

TEST(BdCodecCosim, InvalidEntriesAreCanonicalZero) {
  // Entry 0 invalid with all-ones fields and a far VA: entry 1 becomes the
  // reference; further entries alternate invalid garbage and near tags.
  const uint64_t ref = reference_va(3);
  std::vector<BdTag> tags;
  for (unsigned i = 0; i < params().tags; ++i)
    tags.push_back(i % 2 == 0 ? garbage_entry(~ref) : valid_entry(i, at(ref, i / 2)));
  run_directed({{tags, {true, 0}}});
}

TEST(BdCodecCosim, AllInvalid) {
  run_directed({{filler_tags(), {true, 0}},
                {std::vector<BdTag>(params().tags, garbage_entry(~0ULL)), {true, 0}}});
}

TEST(BdCodecCosim, SharedIdsMismatchDropped) {
  if (!params().ids_shared()) GTEST_SKIP() << "ids are per entry";
  const uint64_t ref = reference_va(1);
  std::vector<DirectedCase> cases;
  // Each entry in turn differs in vmid, then in vrf, from the reference; same VA for all.
  for (unsigned i = 1; i < params().tags; ++i) {
    for (bool vmid : {true, false}) {
      DirectedCase c{vector_around(ref, [](unsigned) { return 0; }), {false, 1u << i}};
      (vmid ? c.tags[i].vmid : c.tags[i].vrf) ^= 1u;
      cases.push_back(c);
    }
  }
  // Ids of an invalid entry 0 do not matter: entry 1 is the reference.
  DirectedCase invalid_first{vector_around(ref, [](unsigned) { return 0; }), {true, 0}};
  invalid_first.tags[0] = garbage_entry(ref);
  cases.push_back(invalid_first);
  run_directed(cases);
}

TEST(BdCodecCosim, PrefixBoundary) {
  const BdCodecParams& p = params();
  if (!is_prefix() || p.base_value_bits == 0) GTEST_SKIP() << "no prefix in this configuration";
  // Tags one apart that differ in the lowest prefix bit: {P, 1..1} and {P+1, 0..0}, P even.
  const uint64_t below = reference_va(value_mask()) & ~(uint64_t{1} << p.value_bits);
  std::vector<DirectedCase> cases = corner_on_each_entry(below, 1, 0, true);
  append(cases, corner_on_each_entry(below + 1, -1, 0, true));
  run_directed(cases);
}

TEST(BdCodecCosim, WrapAround) {
  if (is_prefix()) GTEST_SKIP() << "prefix encoding has no ring arithmetic";
  const uint64_t top = va_mask();
  const int64_t hi = window(top).hi, lo = window(0).lo;
  // 2^T-1 -> 0 is +1 and 0 -> 2^T-1 is -1; the window edges wrap as well.
  std::vector<DirectedCase> cases = corner_on_each_entry(top, 1, hi, false);
  append(cases, corner_on_each_entry(0, -1, lo, false));
  if (txgen::verif::bd_window_can_overflow(params()))
    append(cases, corner_on_each_entry(top, hi + 1, 1, true));
  run_directed(cases);
}

// Three vectors that fit, for the handshake tests.
std::vector<DirectedCase> three_fitting_vectors() {
  std::vector<DirectedCase> cases;
  for (uint64_t low : {uint64_t{1}, uint64_t{2}, uint64_t{3}}) {
    const uint64_t ref = reference_va(low) ^ (low << (params().va_tag_bits - 2));
    cases.push_back({vector_around(ref, [](unsigned i) { return static_cast<int64_t>(i % 2); }), {true, 0}});
  }
  return cases;
}

// A stalled stage holds its output and drops in_ready; the chain fills up
// (A in decomp, B in comp) and C waits at the compressor's input.
void check_stalled(CosimSession& s, const BdChainOut& out, const BdChainOut& first_stall) {
  s.expect_equal("comp.in_ready_o while stalled", "0", std::to_string(out.comp.in_ready));
  s.expect_equal("decomp.in_ready_o while stalled", "0", std::to_string(out.decomp.in_ready));
  s.expect_equal("comp.out_valid_o while stalled", "1", std::to_string(out.comp.out_valid));
  s.expect_equal("decomp.out_valid_o while stalled", "1", std::to_string(out.decomp.out_valid));
  s.expect_equal("comp.packed_o held while stalled", to_hex(first_stall.comp.result.packed),
                 to_hex(out.comp.result.packed));
  s.expect_equal("decomp tags held while stalled", txgen::verif::format_tags(first_stall.decomp.tags),
                 txgen::verif::format_tags(out.decomp.tags));
}

TEST(BdCodecCosim, BackPressureHoldsOutput) {
  const auto cases = three_fitting_vectors();
  const CosimVerdict verdict =
      txgen::verif::run_cosim(test_name(), txgen::verif::seed_from_env(), [&](CosimSession& s) {
        Chain chain(s, params());
        BdRoundTripScoreboard board(s, params());
        ChainRun run{chain, board};
        run.reset(3);
        run.offer(cases[0], false);  // A into comp
        run.offer(cases[1], false);  // A moves to decomp, B into comp
        std::optional<BdChainOut> first_stall;
        for (int c = 0; c < 6; ++c) {
          const BdChainOut out = run.step({true, true, cases[2].tags, false}, cases[2].expect);
          if (!first_stall) first_stall = out;
          check_stalled(s, out, *first_stall);
        }
        run.offer(cases[2]);
        run.drain(s);
        s.expect_equal("round trips checked", "3", std::to_string(board.checked()));
      });
  expect_passed(verdict);
}

// Reset clears every output register at once, without a clock edge.
void check_in_reset(CosimSession& s, const BdChainOut& out) {
  s.expect_equal("comp.out_valid_o in reset", "0", std::to_string(out.comp.out_valid));
  s.expect_equal("comp.packed_o in reset", to_hex(Bits(params().packed_bits)),
                 to_hex(out.comp.result.packed));
  s.expect_equal("comp.fits_o in reset", "0", std::to_string(out.comp.result.fits));
  s.expect_equal("comp.dropped_o in reset", "0", std::to_string(out.comp.result.dropped));
  s.expect_equal("decomp.out_valid_o in reset", "0", std::to_string(out.decomp.out_valid));
  const std::vector<BdTag> zero(params().tags);
  s.expect_equal("decomp tags in reset", txgen::verif::format_tags(zero),
                 txgen::verif::format_tags(out.decomp.tags));
}

TEST(BdCodecCosim, ResetMidTraffic) {
  const auto cases = three_fitting_vectors();
  const CosimVerdict verdict =
      txgen::verif::run_cosim(test_name(), txgen::verif::seed_from_env(), [&](CosimSession& s) {
        Chain chain(s, params());
        BdRoundTripScoreboard board(s, params());
        ChainRun run{chain, board};
        run.reset(3);
        run.offer(cases[0], false);
        run.offer(cases[1], false);  // both stages hold a word now
        for (int c = 0; c < 2; ++c) check_in_reset(s, run.step({false, true, cases[2].tags, true}));
        s.expect_equal("vectors in flight after reset", "0", std::to_string(board.in_flight()));
        for (const DirectedCase& c : cases) run.offer(c);
        run.drain(s);
        s.expect_equal("round trips checked", "3", std::to_string(board.checked()));
      });
  expect_passed(verdict);
}

// ---------------------------------------------------------------------------
// Constrained-random stimulus

class TagStimulus {
 public:
  explicit TagStimulus(Rng& rng) : rng_(rng), p_(params()) {}

  std::vector<BdTag> tags() {
    std::vector<BdTag> out(p_.tags);
    const bool none_valid = rng_.chance(4);
    for (BdTag& tag : out) tag = garbage();
    int ref = -1;
    for (unsigned i = 0; i < p_.tags; ++i) {
      if (none_valid || !rng_.chance(80)) continue;
      out[i] = ref < 0 ? reference() : related(out[ref]);
      if (ref < 0) ref = static_cast<int>(i);
    }
    return out;
  }

 private:
  BdTag garbage() {
    BdTag tag;
    tag.lru = static_cast<uint32_t>(rng_.bits(p_.lru_bits));
    tag.vmid = static_cast<uint32_t>(rng_.bits(p_.vmid_bits));
    tag.vrf = static_cast<uint32_t>(rng_.bits(p_.vrf_bits));
    tag.va = rng_.bits(p_.va_tag_bits);
    return tag;
  }

  // Reference VAs biased to the window edges and to the ends of the ring.
  BdTag reference() {
    BdTag tag = garbage();
    tag.valid = true;
    const uint64_t vmask = value_mask(), top = va_mask();
    switch (rng_.below(5)) {
      case 0: tag.va &= ~vmask; break;
      case 1: tag.va |= vmask; break;
      case 2: tag.va = rng_.bits(2); break;
      case 3: tag.va = top - rng_.bits(2); break;
      default: break;
    }
    return tag;
  }

  BdTag related(const BdTag& ref) {
    BdTag tag = garbage();
    tag.valid = true;
    // Per entry the ids are free; shared, other ids drop the entry, so keep most equal.
    if (p_.ids_shared() && rng_.chance(85)) {
      tag.vmid = ref.vmid;
      tag.vrf = ref.vrf;
    }
    tag.va = at(ref.va, delta_from(ref.va));
    if (rng_.chance(20)) tag.va = rng_.bits(p_.va_tag_bits);
    return tag;
  }

  int64_t delta_from(uint64_t ref_va) {
    const auto w = window(ref_va);
    switch (rng_.below(8)) {
      case 0: return 0;
      case 1: return w.hi;
      case 2: return w.lo;
      case 3: return w.hi + 1;
      case 4: return w.lo - 1;
      default: return rng_.between(w.lo, w.hi);
    }
  }

  Rng& rng_;
  const BdCodecParams& p_;
};

class PackedStimulus {
 public:
  explicit PackedStimulus(Rng& rng) : rng_(rng), tags_(rng), codec_(params()) {}

  Bits word() {
    const BdCodecParams& p = params();
    switch (rng_.below(6)) {
      case 0: return Bits(p.packed_bits);
      case 1: return rng_.random_bits(p.packed_bits);
      case 2: return with_all_valid(rng_.random_bits(p.packed_bits));
      case 3: return noisy(codec_.compress(tags_.tags()).packed);
      default: return codec_.compress(tags_.tags()).packed;
    }
  }

 private:
  Bits with_all_valid(Bits word) {
    const BdCodecParams& p = params();
    for (unsigned i = 0; i < p.tags; ++i) word.set(p.base_bits + i * p.entry_bits, true);
    return word;
  }
  // A canonical word with a few bits flipped: padding, invalid entries, base.
  Bits noisy(Bits word) {
    for (unsigned flips = 1 + static_cast<unsigned>(rng_.below(3)); flips > 0; --flips) {
      const unsigned bit = static_cast<unsigned>(rng_.below(word.width));
      word.set(bit, !word.get(bit));
    }
    return word;
  }

  Rng& rng_;
  TagStimulus tags_;
  txgen::model::BdCodecModel codec_;
};

// Handshake and reset pattern: phases of heavy and light back-pressure, and
// resets of 1..3 cycles at random points of the traffic.
class HandshakeStimulus {
 public:
  explicit HandshakeStimulus(Rng& rng) : rng_(rng) {}

  void next_cycle() {
    if (phase_left_-- == 0) {
      phase_left_ = 50 + rng_.below(500);
      ready_percent_ = static_cast<unsigned>(rng_.pick(std::vector<uint64_t>{10, 50, 90, 100}));
      valid_percent_ = static_cast<unsigned>(rng_.pick(std::vector<uint64_t>{20, 70, 100}));
    }
    if (reset_left_ > 0) --reset_left_;
    else if (rng_.below(1000) < 2) reset_left_ = 1 + static_cast<unsigned>(rng_.below(3));
  }
  bool rst_n() const { return reset_left_ == 0; }
  bool in_valid() { return rng_.chance(valid_percent_); }
  bool out_ready() { return rng_.chance(ready_percent_); }

 private:
  Rng& rng_;
  uint64_t phase_left_ = 0;
  unsigned ready_percent_ = 100;
  unsigned valid_percent_ = 100;
  unsigned reset_left_ = 3;  // start in reset
};

// Keeps an offered item until the stage takes it (valid/ready rule), except
// across a reset.
// Data under in_valid = 0 is noise: it must not reach the stage.
template <class Item>
struct OfferedItem {
  std::optional<Item> item;
  template <class Make>
  Item get(bool valid, Make make) {
    if (!valid) return make();
    if (!item) item = make();
    return *item;
  }
  void taken() { item.reset(); }
};

TEST(BdCodecCosim, RandomTrafficComp) {
  const uint64_t seed = txgen::verif::seed_from_env(), cycles = txgen::verif::cosim_cycles_from_env();
  const CosimVerdict verdict = txgen::verif::run_cosim(test_name(), seed, [&](CosimSession& s) {
    CompHarness comp(s, params());
    Rng rng(seed);
    TagStimulus tags(rng);
    HandshakeStimulus hs(rng);
    OfferedItem<std::vector<BdTag>> offered;
    for (uint64_t c = 0; c < cycles; ++c) {
      hs.next_cycle();
      const bool valid = hs.in_valid();
      txgen::model::BdCompIn in{hs.rst_n(), valid, offered.get(valid, [&] { return tags.tags(); }),
                                hs.out_ready()};
      const auto& out = comp.step(in);
      if (!in.rst_n || (in.in_valid && out.in_ready)) offered.taken();
    }
  });
  expect_passed(verdict);
  if (verdict.passed) expect_covered(verdict, txgen::verif::required_comp_coverage(params()));
}

TEST(BdCodecCosim, RandomTrafficDecomp) {
  const uint64_t seed = txgen::verif::seed_from_env(), cycles = txgen::verif::cosim_cycles_from_env();
  const CosimVerdict verdict = txgen::verif::run_cosim(test_name(), seed, [&](CosimSession& s) {
    DecompHarness decomp(s, params());
    Rng rng(seed);
    PackedStimulus words(rng);
    HandshakeStimulus hs(rng);
    OfferedItem<Bits> offered;
    for (uint64_t c = 0; c < cycles; ++c) {
      hs.next_cycle();
      const bool valid = hs.in_valid();
      txgen::model::BdDecompIn in{hs.rst_n(), valid, offered.get(valid, [&] { return words.word(); }),
                                  hs.out_ready()};
      const auto& out = decomp.step(in);
      if (!in.rst_n || (in.in_valid && out.in_ready)) offered.taken();
    }
  });
  expect_passed(verdict);
  if (verdict.passed) expect_covered(verdict, txgen::verif::required_decomp_coverage());
}

std::vector<std::string> round_trip_coverage() {
  std::vector<std::string> names = txgen::verif::required_comp_coverage(params());
  for (const char* name : {"roundtrip.checked", "roundtrip.fits", "decomp.backpressure_stall",
                           "decomp.reset"})
    names.push_back(name);
  if (txgen::verif::bd_can_drop(params())) names.push_back("roundtrip.dropped");
  return names;
}

TEST(BdCodecCosim, RoundTrip) {
  const uint64_t seed = txgen::verif::seed_from_env(), cycles = txgen::verif::cosim_cycles_from_env();
  const CosimVerdict verdict = txgen::verif::run_cosim(test_name(), seed, [&](CosimSession& s) {
    Chain chain(s, params());
    BdRoundTripScoreboard board(s, params());
    Rng rng(seed);
    TagStimulus tags(rng);
    HandshakeStimulus hs(rng);
    OfferedItem<std::vector<BdTag>> offered;
    for (uint64_t c = 0; c < cycles; ++c) {
      hs.next_cycle();
      const bool valid = hs.in_valid();
      const BdChainIn in{hs.rst_n(), valid, offered.get(valid, [&] { return tags.tags(); }),
                         hs.out_ready()};
      const BdChainOut& out = chain.step(in);
      board.observe(in, out);
      if (!in.rst_n || out.comp_accepts) offered.taken();
    }
  });
  expect_passed(verdict);
  if (verdict.passed)
    expect_covered(verdict, round_trip_coverage());
}

}  // namespace
