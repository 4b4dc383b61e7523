// Unit tests of the golden icache_tx model (docs/blocks/icache_tx.md).
// Parameters come from the JSON configurations through the configuration
// parser and elaboration; the first test re-derives every width by hand from
// the document, so a mis-elaboration fails here and not silently.
// Every expected cycle and value below is worked out by hand from the
// document (the arithmetic is in the comments), never read back from the model.
//
// Cycle numbering: "cN" is the N-th stepped cycle of a bench; a request driven
// in cA with its ready high is accepted at the edge ending cA (accept cycle A);
// registers written at that edge are visible from c(A+1).
// Recurring timing facts of the document used below (no port conflicts):
//  - fetch: I0 = A (tag read), I1 = A+1 (compare, data read on a hit), I2 =
//    A+2 (response valid; a hit touches at its edge);
//  - instruction fill: F0 in the first cycle of the request (set captured),
//    F1 in the next (victim chosen from F1's state), F2 from the third
//    (ifill_ready_o = ~s1.valid); accepted in the first F2 cycle with s1
//    empty: SRAM writes there, mode IC and touch at its edge;
//  - translation operation: ISSUE from A+1; lookup/shootdown of a non-Tx line
//    decided in A+1 (lookup response valid in A+2, sd_done in A+2);
//    initialise writes in A+1 (IDLE in A+2); a Tx line is read in A+1, DEC in
//    A+2, CMP cycles c = 0..NG from A+3: group g is compared in A+3+g and
//    evaluated in A+4+g (early exit for lookups and fills that match), so a
//    decision on group g is at the edge of A+4+g; PACK right after the
//    decision, WRITE right after PACK, VIC after WRITE. Lookup: response from
//    A+5+g on a hit in group g, A+4+NG on a miss (5 with CP = X);
//  - the engine's touches (lookup hit, initialise, fill's WRITE) are
//    registered at the edge of their decision and applied to the recency at
//    the next edge (first of that edge, before the fetch's and the fill's).
#include "model/icache_tx.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <iomanip>
#include <iostream>
#include <map>
#include <optional>
#include <ostream>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "txgen/config/parse.h"
#include "txgen/elab/icache_tx.h"

namespace txgen::model {

void PrintTo(const Bits& b, std::ostream* os) {
  *os << b.width << "'h";
  for (size_t k = b.words.size(); k-- > 0;) {
    *os << std::hex << std::setw(8) << std::setfill('0') << b.words[k] << std::dec;
    if (k != 0) *os << '_';
  }
}

namespace {

using elab::IcacheTxParams;
using Mode = IcacheTxModel::Mode;

// ---------------------------------------------------------------------------
// Configurations

const char* const kSeed000 = "configs/seed000_icache_tx.json";
const char* const k32k4w = "tests/configs/icache_tx_32k4w.json";
const char* const kNaive1 = "tests/configs/icache_tx_naive1.json";
const char* const kAware1 = "tests/configs/icache_tx_aware1.json";
const char* const kSmall = "tests/configs/icache_tx_small.json";

IcacheTxParams load(const char* rel) {
  const config::Config cfg = config::load_config_file(std::string(TXGEN_SOURCE_DIR) + "/" + rel);
  return elab::elaborate_icache_tx(cfg);
}

uint64_t mask(unsigned bits) { return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }

// ---------------------------------------------------------------------------
// Bench: one model, the inputs of the current cycle, a cycle counter.

struct Bench {
  IcacheTxParams p;
  IcacheTxModel m;
  IcacheTxIn in;
  unsigned cyc = 0;

  explicit Bench(const IcacheTxParams& pp, bool baseline = false)
      : p(pp), m(pp, baseline), in(IcacheTxIn::idle(pp)) {}

  IcacheTxOut out() const { return m.outputs(in); }
  // Outputs of the current cycle, then its rising edge.
  IcacheTxOut step() {
    IcacheTxOut o = m.outputs(in);
    m.posedge(in);
    ++cyc;
    return o;
  }
  void idle_inputs() { in = IcacheTxIn::idle(p); }

  // Instruction address with instruction tag `itag` in set `set`.
  uint64_t addr(uint64_t itag, unsigned set) const {
    return (itag << (p.offset_bits + p.set_bits)) | (uint64_t{set} << p.offset_bits);
  }
  unsigned line(unsigned way, unsigned set) const { return (way << p.set_bits) | set; }
  // VPN whose bits above L are `high` and whose line is `line` (L = VPN[LI-1:0]).
  uint64_t vpn(uint64_t high, unsigned line) const { return (high << p.line_index_bits) | line; }

  // Holds the request until accepted (one cycle per step); returns the accept cycle.
  unsigned tfill_accept(unsigned cu, uint64_t vpn, uint32_t vmid, uint32_t vrf, uint64_t ppn, uint64_t perm) {
    in.tf_valid[cu] = true;
    in.tf_vpn[cu] = vpn;
    in.tf_vmid[cu] = vmid;
    in.tf_vrf[cu] = vrf;
    in.tf_ppn[cu] = ppn;
    in.tf_perm[cu] = perm;
    for (unsigned guard = 0; guard < 1000; ++guard) {
      const bool rdy = out().tf_ready[cu];
      const unsigned a = cyc;
      step();
      if (rdy) {
        in.tf_valid[cu] = false;
        return a;
      }
    }
    ADD_FAILURE() << "fill never accepted";
    return 0;
  }
  // Runs until the engine is idle with vic_ready = 1, collecting victims.
  struct Vic {
    uint64_t vpn, ppn, perm;
    uint32_t vmid, vrf;
  };
  std::vector<Vic> drain() {
    std::vector<Vic> v;
    in.vic_ready = true;
    for (unsigned guard = 0; guard < 1000 && !m.idle(); ++guard) {
      const IcacheTxOut o = step();
      if (o.vic_valid) v.push_back(Vic{o.vic_vpn, o.vic_ppn, o.vic_perm, o.vic_vmid, o.vic_vrf});
    }
    in.vic_ready = false;
    EXPECT_TRUE(m.idle());
    return v;
  }
  std::vector<Vic> tfill(unsigned cu, uint64_t vpn, uint32_t vmid, uint32_t vrf, uint64_t ppn, uint64_t perm) {
    tfill_accept(cu, vpn, vmid, vrf, ppn, perm);
    return drain();
  }
  // Lookup to completion; returns the response outputs.
  IcacheTxOut lookup(unsigned cu, uint64_t vpn, uint32_t vmid, uint32_t vrf) {
    in.tl_valid[cu] = true;
    in.tl_vpn[cu] = vpn;
    in.tl_vmid[cu] = vmid;
    in.tl_vrf[cu] = vrf;
    in.tl_resp_ready = false;
    bool accepted = false;
    for (unsigned guard = 0; guard < 1000; ++guard) {
      const IcacheTxOut o = out();
      if (accepted && o.tl_resp_valid) {
        in.tl_resp_ready = true;
        step();
        in.tl_resp_ready = false;
        drain();
        return o;
      }
      const bool rdy = o.tl_ready[cu];
      step();
      if (rdy) {
        in.tl_valid[cu] = false;
        accepted = true;
      }
    }
    ADD_FAILURE() << "lookup never answered";
    return IcacheTxOut();
  }
  // Instruction fill held until accepted (F0, F1, then F2); returns the
  // accept cycle's outputs.
  IcacheTxOut ifill_out(uint64_t a, const Bits& data) {
    in.ifill_valid = true;
    in.ifill_addr = a;
    in.ifill_data = data;
    for (unsigned guard = 0; guard < 100; ++guard) {
      const IcacheTxOut o = step();
      if (o.ifill_ready) {
        in.ifill_valid = false;
        return o;
      }
    }
    ADD_FAILURE() << "ifill never accepted";
    return IcacheTxOut();
  }
  // The same; returns the accept cycle.
  unsigned ifill(uint64_t a, const Bits& data) {
    ifill_out(a, data);
    return cyc - 1;
  }
  // Fetch, response in A+2; returns the response cycle's outputs.
  IcacheTxOut fetch(uint64_t a) {
    in.if_valid = true;
    in.if_addr = a;
    EXPECT_TRUE(out().if_ready);
    step();
    in.if_valid = false;
    step();
    const IcacheTxOut o = step();
    EXPECT_TRUE(o.if_resp_valid);
    return o;
  }
  void flush() {
    in.flush_valid = true;
    for (unsigned guard = 0; guard < 1000; ++guard) {
      const bool rdy = out().flush_ready;
      step();
      if (rdy) break;
    }
    in.flush_valid = false;
  }
};

Bits pattern(const IcacheTxParams& p, uint32_t seed) {
  Bits b(p.line_bits);
  for (size_t k = 0; k < b.words.size(); ++k) b.words[k] = seed * 0x9E3779B1u + static_cast<uint32_t>(k) * 0x01010101u;
  return b;
}

// Bits of `width` from 32-bit words, LSB word first (rest zero).
Bits bits_of(unsigned width, std::initializer_list<uint32_t> words) {
  Bits b(width);
  size_t k = 0;
  for (uint32_t w : words) b.words[k++] = w;
  return b;
}

// A x E write data replicating one entry given as 32-bit words.
Bits replicated(const IcacheTxParams& p, unsigned e, std::initializer_list<uint32_t> words) {
  Bits b(p.ways * e);
  for (unsigned w = 0; w < p.ways; ++w) {
    unsigned k = 0;
    for (uint32_t x : words) {
      b.set_field(w * e + 32 * k, std::min(32u, e - 32 * k), x);
      ++k;
    }
  }
  return b;
}

// Data line with slot i = {perm, ppn} for the given (slot, ppn, perm).
Bits slots(const IcacheTxParams& p, std::initializer_list<std::tuple<unsigned, uint64_t, uint64_t>> s) {
  Bits b(p.line_bits);
  for (const auto& [i, ppn, perm] : s) {
    b.set_field(64 * i, p.ppn_bits, ppn);
    b.set_field(64 * i + p.ppn_bits, p.perm_bits, perm);
  }
  return b;
}

std::vector<unsigned> order(std::initializer_list<unsigned> l) { return std::vector<unsigned>(l); }

// ---------------------------------------------------------------------------
// Elaborated widths, by the document's "Organisation" table.

struct Expect {
  unsigned NL, NS, OB, SI, WI, LI, IT, TB, VPN, XI, T, X, W, E, CP, NG, S, CB;
};

void check_params(const char* cfg, const Expect& e) {
  SCOPED_TRACE(cfg);
  const IcacheTxParams p = load(cfg);
  EXPECT_EQ(p.lines, e.NL);
  EXPECT_EQ(p.sets, e.NS);
  EXPECT_EQ(p.offset_bits, e.OB);
  EXPECT_EQ(p.set_bits, e.SI);
  EXPECT_EQ(p.way_bits, e.WI);
  EXPECT_EQ(p.line_index_bits, e.LI);
  EXPECT_EQ(p.itag_bits, e.IT);
  EXPECT_EQ(p.base_tag_bits, e.TB);
  EXPECT_EQ(p.vpn_bits, e.VPN);
  EXPECT_EQ(p.tx_index_bits, e.XI);
  EXPECT_EQ(p.va_tag_bits, e.T);
  EXPECT_EQ(p.tx_per_line, e.X);
  EXPECT_EQ(p.tx_tag_bits, e.W);
  EXPECT_EQ(p.entry_bits, e.E);
  EXPECT_EQ(p.comparators, e.CP);
  EXPECT_EQ(p.groups, e.NG);
  EXPECT_EQ(p.sharers, e.S);
  EXPECT_EQ(p.cu_bits, e.CB);
  EXPECT_EQ(p.line_bits, 512u);
  EXPECT_EQ(p.ppn_bits, 36u);
  EXPECT_EQ(p.perm_bits, 6u);
  EXPECT_NO_THROW(IcacheTxModel(p, false));
  EXPECT_NO_THROW(IcacheTxModel(p, true));
}

TEST(IcacheTxParams, WidthsAreTheDocumentDerivation) {
  // seed 000: 16 KB / 64 B = 256 lines, 8 ways -> 32 sets; OB 6, SI 5, WI 3,
  // LI 8; IT = 48 - 6 - 5 = 37; VPN = 48 - 12 = 36; direct mapped: XI = 8,
  // T = 28; X = 8, W = 32 + 64 = 96, E = max(48, 96) = 96; CP 8 -> NG 1; S 4.
  check_params(kSeed000, {256, 32, 6, 5, 3, 8, 37, 48, 36, 8, 28, 8, 96, 96, 8, 1, 4, 2});
  // 32 KB, 4 ways: 512 lines, 128 sets, SI 7, WI 2, LI 9, IT 35, T 27; CP 2 -> NG 4; S 2 -> CB 1.
  check_params(k32k4w, {512, 128, 6, 7, 2, 9, 35, 48, 36, 9, 27, 8, 96, 96, 2, 4, 2, 1});
  // 2 KB, 4 ways: 32 lines, 8 sets, SI 3, WI 2, LI 5, IT 39; `set` indexing:
  // XI 3, T 33; X = 1: W = 33 + 2 + 2 = 37, E = max(48, 37) = 48; S 1 -> CB 1.
  check_params(kNaive1, {32, 8, 6, 3, 2, 5, 39, 48, 36, 3, 33, 1, 37, 48, 1, 1, 1, 1});
  // direct mapped: XI 5, T 31, W = 35, E 48; S 3 -> CB 2.
  check_params(kAware1, {32, 8, 6, 3, 2, 5, 39, 48, 36, 5, 31, 1, 35, 48, 1, 1, 3, 2});
  // X 8, CP 1 -> NG 8.
  check_params(kSmall, {32, 8, 6, 3, 2, 5, 39, 48, 36, 5, 31, 8, 96, 96, 1, 8, 2, 1});
}

TEST(IcacheTxParams, IdleInputsAreSizedForTheParameters) {
  const IcacheTxParams p = load(kAware1);
  const IcacheTxIn in = IcacheTxIn::idle(p);
  EXPECT_EQ(in.ifill_data.width, 512u);
  EXPECT_EQ(in.tl_valid.size(), 3u);
  EXPECT_EQ(in.tf_perm.size(), 3u);
  EXPECT_FALSE(in.if_valid || in.ifill_valid || in.flush_valid || in.sd_valid || in.vic_ready);
  IcacheTxModel m(p, false);
  const IcacheTxOut o = m.outputs(in);
  EXPECT_EQ(o.tl_ready.size(), 3u);
  EXPECT_EQ(o.tf_ready.size(), 3u);
  EXPECT_EQ(o.if_resp_data.width, 512u);
  // reset state: every line Invalid, way 0 least recent ... way A-1 most recent
  for (unsigned l = 0; l < p.lines; ++l) EXPECT_EQ(m.mode(l), Mode::Invalid);
  EXPECT_EQ(m.recency(5), order({0, 1, 2, 3}));
  EXPECT_TRUE(m.idle());
}

// ---------------------------------------------------------------------------
// Instruction fetch and fill

void fetch_latency(bool baseline) {
  Bench b(load(kSeed000), baseline);
  const auto& p = b.p;
  const unsigned set = 9;
  const uint64_t a = b.addr(0x12345, set) | 0x24;  // offset bits are ignored
  const Bits d = pattern(p, 7);

  // c0: fetch a (A = 0): tag read of set 9, all ways.
  b.in.if_valid = true;
  b.in.if_addr = a;
  IcacheTxOut o = b.step();
  EXPECT_TRUE(o.if_ready);
  EXPECT_TRUE(o.tag_en);
  EXPECT_FALSE(o.tag_we);
  EXPECT_EQ(o.tag_set, set);
  EXPECT_EQ(o.tag_way_en, 0xFFu);
  EXPECT_FALSE(o.data_en);
  EXPECT_FALSE(o.if_resp_valid);
  // c1: I1, every line Invalid -> miss: no data read. A fill request starts
  // and is held: F0 (fs = 0): ifill_ready = 0; the fill uses no port.
  b.in.if_valid = false;
  b.in.ifill_valid = true;
  b.in.ifill_addr = a;
  b.in.ifill_data = d;
  o = b.step();
  EXPECT_FALSE(o.ifill_ready);
  EXPECT_TRUE(o.if_ready);  // ~(ifill_valid & ifill_ready) = 1
  EXPECT_FALSE(o.data_en);
  EXPECT_FALSE(o.tag_en);
  EXPECT_FALSE(o.if_resp_valid);
  // c2 = A+2: response, miss. F1 (fs = 1): the victim of set 9 is chosen (LRU
  // Invalid way 0, reset order); ifill_ready = 0, no port use.
  o = b.step();
  EXPECT_TRUE(o.if_resp_valid);
  EXPECT_FALSE(o.if_resp_hit);
  EXPECT_FALSE(o.ifill_ready);
  EXPECT_TRUE(o.if_ready);
  EXPECT_FALSE(o.tag_en || o.data_en);
  // c3: F2 (fs = 2), s1 empty: accepted; if_ready = 0 (the fill wins).
  o = b.step();
  EXPECT_FALSE(o.if_resp_valid);
  EXPECT_TRUE(o.ifill_ready);
  EXPECT_FALSE(o.if_ready);
  EXPECT_TRUE(o.tag_en && o.tag_we);
  EXPECT_EQ(o.tag_set, set);
  EXPECT_EQ(o.tag_way_en, 1u);
  // entry = the instruction tag 0x12345 in [36:0], zeros above (E = 96, TB = 48 baseline)
  const unsigned e = baseline ? 48 : 96;
  EXPECT_EQ(o.tag_wdata, replicated(p, e, {0x12345u}));
  EXPECT_TRUE(o.data_en && o.data_we);
  EXPECT_EQ(o.data_line, b.line(0, set));
  EXPECT_EQ(o.data_wdata, d);
  b.in.ifill_valid = false;
  EXPECT_EQ(b.m.mode(b.line(0, set)), Mode::Ic);
  EXPECT_EQ(b.m.recency(set), order({1, 2, 3, 4, 5, 6, 7, 0}));
  EXPECT_EQ(b.m.tag_entry(set, 0), bits_of(e, {0x12345u}));
  EXPECT_EQ(b.m.data_line(b.line(0, set)), d);
  // c4: fetch a again (A = 4), c5: I1 hit way 0 -> data read of line {0, 9}, c6: response.
  b.in.if_valid = true;
  o = b.step();
  EXPECT_TRUE(o.if_ready);
  EXPECT_FALSE(o.if_resp_valid);
  // c5: and a second fetch, same set, other tag (A = 5): pipelined, no bubble.
  b.in.if_addr = b.addr(0x777, set);
  o = b.step();
  EXPECT_TRUE(o.if_ready);
  EXPECT_TRUE(o.data_en);
  EXPECT_FALSE(o.data_we);
  EXPECT_EQ(o.data_line, b.line(0, set));
  EXPECT_TRUE(o.tag_en);
  EXPECT_FALSE(o.tag_we);
  EXPECT_FALSE(o.if_resp_valid);
  // c6: response of A = 4: hit with the filled data; c6 is I1 of A = 5 (miss).
  b.in.if_valid = false;
  o = b.step();
  EXPECT_TRUE(o.if_resp_valid);
  EXPECT_TRUE(o.if_resp_hit);
  EXPECT_EQ(o.if_resp_data, d);
  EXPECT_FALSE(o.data_en);
  // c7: response of A = 5: miss (R2: the hit output is 0 when no response).
  o = b.step();
  EXPECT_TRUE(o.if_resp_valid);
  EXPECT_FALSE(o.if_resp_hit);
  o = b.step();
  EXPECT_FALSE(o.if_resp_valid);
  EXPECT_FALSE(o.if_resp_hit);
  // the hit touched way 0 (already the most recent)
  EXPECT_EQ(b.m.recency(set), order({1, 2, 3, 4, 5, 6, 7, 0}));
}

TEST(IcacheTxFetch, ResponseInAPlus2HitAndMiss) { fetch_latency(false); }
TEST(IcacheTxFetch, BaselineResponseInAPlus2HitAndMiss) { fetch_latency(true); }

TEST(IcacheTxFetch, HitWayIsTheLowestAndTouchesIt) {
  // the same line filled twice (the fill does not look for it) sits in two
  // ways; the hit way is the lowest
  Bench b(load(kAware1));
  const unsigned set = 2;
  // fills: ways 0, 1, 2 (LRU Invalid each time); way 1 holds tag 5
  b.ifill(b.addr(4, set), pattern(b.p, 1));
  b.ifill(b.addr(5, set), pattern(b.p, 2));
  b.ifill(b.addr(6, set), pattern(b.p, 3));
  // recency: reset [0,1,2,3] -> touches 0, 1, 2 -> [3,0,1,2]
  EXPECT_EQ(b.m.recency(set), order({3, 0, 1, 2}));
  const IcacheTxOut o = b.fetch(b.addr(5, set));
  EXPECT_TRUE(o.if_resp_hit);
  EXPECT_EQ(o.if_resp_data, pattern(b.p, 2));
  EXPECT_EQ(b.m.recency(set), order({3, 0, 2, 1}));
  b.ifill(b.addr(5, set), pattern(b.p, 9));  // LRU Invalid way 3 -> [0,2,1,3]
  EXPECT_EQ(b.m.data_line(b.line(3, set)), pattern(b.p, 9));
  const IcacheTxOut o2 = b.fetch(b.addr(5, set));
  EXPECT_TRUE(o2.if_resp_hit);
  EXPECT_EQ(o2.if_resp_data, pattern(b.p, 2));  // way 1, not way 3
  EXPECT_EQ(b.m.recency(set), order({0, 2, 3, 1}));
}

// ---------------------------------------------------------------------------
// Instruction fill victim order

// aware, invalid_first (icache_tx_aware1: A 4, NS 8, direct mapped, X 1).
TEST(IcacheTxIfill, AwareInvalidFirstOrder) {
  Bench b(load(kAware1));
  const unsigned s = 0;
  auto fill_way = [&](uint64_t itag) {
    const IcacheTxOut o = b.ifill_out(b.addr(itag, s), pattern(b.p, static_cast<uint32_t>(itag)));
    EXPECT_EQ(o.data_line & 7u, s);
    return o.data_line >> 3;  // way
  };
  // 1. all Invalid, recency [0,1,2,3]: way 0 -> [1,2,3,0]
  EXPECT_EQ(fill_way(1), 0u);
  // translation fill into line {2, 0} = 16 (Invalid): initialise; its touch
  // of way 2 is pending after the edge and lands at the next: [1,3,0,2]
  b.tfill(0, b.vpn(0x77, 16), 0, 0, 0x5, 0x1);
  EXPECT_EQ(b.m.mode(16), Mode::Tx);
  EXPECT_EQ(b.m.recency(s), order({1, 2, 3, 0}));
  b.step();
  EXPECT_EQ(b.m.recency(s), order({1, 3, 0, 2}));
  // 2. Invalid {1, 3}: LRU Invalid = 1 -> [3,0,2,1]
  EXPECT_EQ(fill_way(2), 1u);
  // 3. Invalid {3} -> 3 -> [0,2,1,3]
  EXPECT_EQ(fill_way(3), 3u);
  // 4. no Invalid; Tx {2}: the LRU Tx way 2, although way 0 is the LRU way -> [0,1,3,2]
  EXPECT_EQ(fill_way(4), 2u);
  EXPECT_TRUE(b.m.events().ifill_evicted_tx);
  EXPECT_EQ(b.m.mode(16), Mode::Ic);
  EXPECT_EQ(b.m.recency(s), order({0, 1, 3, 2}));
  // 5. all IC: the LRU way 0 -> [1,3,2,0]
  EXPECT_EQ(fill_way(5), 0u);
  EXPECT_TRUE(b.m.events().ifill_evicted_ic);
  EXPECT_EQ(b.m.recency(s), order({1, 3, 2, 0}));
}

// aware, tx_first (icache_tx_32k4w: A 4, NS 128).
TEST(IcacheTxIfill, AwareTxFirstOrder) {
  Bench b(load(k32k4w));
  const unsigned s = 0;
  auto fill_way = [&](uint64_t itag) {
    const IcacheTxOut o = b.ifill_out(b.addr(itag, s), pattern(b.p, static_cast<uint32_t>(itag)));
    EXPECT_EQ(o.data_line & 127u, s);
    return o.data_line >> 7;
  };
  // 1. no Tx, all Invalid -> LRU Invalid 0 -> [1,2,3,0]
  EXPECT_EQ(fill_way(1), 0u);
  // translation into line {2, 0} = 256: initialise, touch 2 -> [1,3,0,2]
  b.tfill(0, b.vpn(0x99, 256), 0, 0, 0x5, 0x1);
  EXPECT_EQ(b.m.mode(256), Mode::Tx);
  // 2. the LRU Tx way 2 first, although Invalid 1 and 3 exist -> [1,3,0,2]
  EXPECT_EQ(fill_way(2), 2u);
  EXPECT_EQ(b.m.recency(s), order({1, 3, 0, 2}));
  // 3. no Tx: LRU Invalid 1 -> [3,0,2,1]; 4. -> 3 -> [0,2,1,3]; 5. all IC -> 0
  EXPECT_EQ(fill_way(3), 1u);
  EXPECT_EQ(fill_way(4), 3u);
  EXPECT_EQ(fill_way(5), 0u);
  EXPECT_EQ(b.m.recency(s), order({2, 1, 3, 0}));
}

// naive (icache_tx_naive1: `set` indexing: L = VPN[4:0] still, VA tag VPN[35:3]).
TEST(IcacheTxIfill, NaiveTakesLruInvalidThenTheLruWay) {
  Bench b(load(kNaive1));
  const unsigned s = 0;
  auto fill_way = [&](uint64_t itag) {
    return b.ifill_out(b.addr(itag, s), pattern(b.p, static_cast<uint32_t>(itag))).data_line >> 3;
  };
  EXPECT_EQ(fill_way(1), 0u);                     // [1,2,3,0]
  b.tfill(0, b.vpn(0x31, 16), 0, 0, 0x5, 0x1);    // line 16 = {2, 0} -> [1,3,0,2]
  EXPECT_EQ(b.m.mode(16), Mode::Tx);
  EXPECT_EQ(fill_way(2), 1u);                     // [3,0,2,1]
  EXPECT_EQ(fill_way(3), 3u);                     // [0,2,1,3]
  // no Invalid: the LRU way 0 (IC) although a Tx line is in the set -> [2,1,3,0]
  EXPECT_EQ(fill_way(4), 0u);
  EXPECT_TRUE(b.m.events().ifill_evicted_ic_over_tx);
  // next: the LRU way is now the Tx way 2 -> [1,3,0,2]
  EXPECT_EQ(fill_way(5), 2u);
  EXPECT_TRUE(b.m.events().ifill_evicted_tx);
  EXPECT_EQ(b.m.mode(16), Mode::Ic);
}

TEST(IcacheTxIfill, BaselineLruInvalidThenLruAndFlushInvalidatesAll) {
  Bench b(load(kSeed000), true);
  const unsigned s = 3;
  auto fill_way = [&](uint64_t itag) {
    return b.ifill_out(b.addr(itag, s), pattern(b.p, static_cast<uint32_t>(itag))).data_line >> 5;
  };
  for (unsigned w = 0; w < 8; ++w) EXPECT_EQ(fill_way(10 + w), w);  // [0..7]
  // fetch hit on tag 12 (way 2): [0,1,3,4,5,6,7,2]
  IcacheTxOut o = b.fetch(b.addr(12, s));
  EXPECT_TRUE(o.if_resp_hit);
  EXPECT_EQ(o.if_resp_data, pattern(b.p, 12));
  EXPECT_EQ(fill_way(30), 0u);  // LRU -> [1,3,4,5,6,7,2,0]
  EXPECT_EQ(fill_way(31), 1u);  // [3,4,5,6,7,2,0,1]
  // baseline: no translation ports
  o = b.out();
  EXPECT_FALSE(o.sd_ready);
  EXPECT_TRUE(o.flush_ready);
  for (bool r : o.tl_ready) EXPECT_FALSE(r);
  for (bool r : o.tf_ready) EXPECT_FALSE(r);
  // flush: every line Invalid at the accept edge, recency unchanged, done in A+1
  b.in.flush_valid = true;
  o = b.step();
  EXPECT_TRUE(o.flush_ready);
  EXPECT_FALSE(o.flush_done);
  b.in.flush_valid = false;
  o = b.step();
  EXPECT_TRUE(o.flush_done);
  o = b.step();
  EXPECT_FALSE(o.flush_done);
  for (unsigned w = 0; w < 8; ++w) EXPECT_EQ(b.m.mode(b.line(w, s)), Mode::Invalid);
  EXPECT_EQ(b.m.recency(s), order({3, 4, 5, 6, 7, 2, 0, 1}));
  o = b.fetch(b.addr(31, s));
  EXPECT_FALSE(o.if_resp_hit);
  // the next fill takes the LRU Invalid way = 3
  EXPECT_EQ(fill_way(32), 3u);
}

// ---------------------------------------------------------------------------
// Instruction fill stage (F0, F1, F2), aware1: A 4, NS 8, E 48, line {way, set}

TEST(IcacheTxIfillStage, ReadyOnlyInF2AndOnlyWithS1Empty) {
  Bench b(load(kAware1));
  const unsigned s = 6;
  const Bits d = pattern(b.p, 21);
  b.in.ifill_valid = true;
  b.in.ifill_addr = b.addr(0x21, s);
  b.in.ifill_data = d;
  // c0 F0: ready 0, no port use; fetches go through
  IcacheTxOut o = b.step();
  EXPECT_FALSE(o.ifill_ready);
  EXPECT_TRUE(o.if_ready);
  EXPECT_FALSE(o.tag_en || o.data_en);
  // c1 F1: ready 0; a fetch of set 6 is accepted (I0: tag read)
  b.in.if_valid = true;
  b.in.if_addr = b.addr(0x30, s);
  o = b.step();
  EXPECT_FALSE(o.ifill_ready);
  EXPECT_TRUE(o.if_ready);
  EXPECT_TRUE(o.tag_en && !o.tag_we);
  EXPECT_EQ(o.tag_set, s);
  b.in.if_valid = false;
  // c2 F2 with s1 valid (I1 owns the data port): ready 0, fs stays 2
  o = b.step();
  EXPECT_FALSE(o.ifill_ready);
  EXPECT_TRUE(o.if_ready);
  // c3 F2, s1 empty: accepted; the fetch port closes; LRU Invalid way 0
  o = b.step();
  EXPECT_TRUE(o.ifill_ready);
  EXPECT_FALSE(o.if_ready);
  EXPECT_TRUE(o.tag_en && o.tag_we && o.data_en && o.data_we);
  EXPECT_EQ(o.tag_set, s);
  EXPECT_EQ(o.tag_way_en, 1u);
  EXPECT_EQ(o.tag_wdata, replicated(b.p, 48, {0x21u}));
  EXPECT_EQ(o.data_line, b.line(0, s));
  EXPECT_EQ(o.data_wdata, d);
  // fs = 0 at the accept edge: a request held on is a new fill (F0 in c4,
  // F1 in c5, F2 in c6). A requester breaking the hold rule by changing the
  // address in c5: the set captured in F0 is written, with the tag of the
  // accept cycle's address ("the instruction tag of ifill_addr_i in that cycle").
  b.in.ifill_addr = b.addr(0x22, s);
  EXPECT_FALSE(b.step().ifill_ready);  // c4 F0: set 6 captured
  b.in.ifill_addr = b.addr(0x23, s + 1);
  EXPECT_FALSE(b.step().ifill_ready);  // c5 F1: victim of set 6 = LRU Invalid 1
  o = b.step();                        // c6 F2: accepted
  EXPECT_TRUE(o.ifill_ready);
  EXPECT_EQ(o.tag_set, s);
  EXPECT_EQ(o.tag_way_en, 2u);
  EXPECT_EQ(o.tag_wdata, replicated(b.p, 48, {0x23u}));
  EXPECT_EQ(o.data_line, b.line(1, s));
  b.in.ifill_valid = false;
  EXPECT_EQ(b.m.mode(b.line(1, s)), Mode::Ic);
  EXPECT_EQ(b.m.mode(b.line(0, s + 1)), Mode::Invalid);
}

// Set 4 holds tags 1..4 in ways 0..3 (recency [0,1,2,3]). A fetch hit touches
// at the edge of I2, one cycle after its compare: a fill whose F1 is the I2
// cycle still sees the old recency, one whose F1 is a cycle later the new one.
TEST(IcacheTxIfillStage, FetchTouchLandsAtI2ForTheVictimOfF1) {
  Bench b(load(kAware1));
  const unsigned s = 4;
  for (unsigned t = 1; t <= 4; ++t) b.ifill(b.addr(t, s), pattern(b.p, t));
  EXPECT_EQ(b.m.recency(s), order({0, 1, 2, 3}));
  // c0: fetch tag 1 (way 0): I0. c1: I1 hits way 0, no touch yet; the fill
  // request (tag 5) is in F0.
  b.in.if_valid = true;
  b.in.if_addr = b.addr(1, s);
  b.step();
  b.in.if_valid = false;
  b.in.ifill_valid = true;
  b.in.ifill_addr = b.addr(5, s);
  EXPECT_FALSE(b.step().ifill_ready);
  EXPECT_TRUE(b.m.events().fetch_hit);
  EXPECT_EQ(b.m.recency(s), order({0, 1, 2, 3}));
  // c2: I2 and F1: F1 sees [0,1,2,3], all IC: the LRU way 0, the way being
  // hit; the touch of way 0 lands at this edge -> [1,2,3,0].
  IcacheTxOut o = b.step();
  EXPECT_TRUE(o.if_resp_valid && o.if_resp_hit);
  EXPECT_FALSE(o.ifill_ready);
  EXPECT_EQ(b.m.recency(s), order({1, 2, 3, 0}));
  // c3: F2, s1 empty: accepted into way 0 (the accept cycle's state would
  // give way 1: stale); touch 0 -> [1,2,3,0].
  o = b.step();
  EXPECT_TRUE(o.ifill_ready);
  EXPECT_EQ(o.data_line, b.line(0, s));
  EXPECT_EQ(o.tag_wdata, replicated(b.p, 48, {5u}));
  EXPECT_TRUE(b.m.events().ifill_victim_stale);
  EXPECT_EQ(b.m.recency(s), order({1, 2, 3, 0}));
  b.in.ifill_valid = false;
  // c4: fetch tag 2 (way 1): I0. c5: I1 hits. c6: I2, way 1 touched at its
  // edge -> [2,3,0,1]; the fill request (tag 6) is in F0. c7: F1 sees
  // [2,3,0,1]: the LRU way 2, no longer way 1. c8: F2: accepted into way 2
  // -> [3,0,1,2].
  b.in.if_valid = true;
  b.in.if_addr = b.addr(2, s);
  b.step();
  b.in.if_valid = false;
  b.step();
  b.in.ifill_valid = true;
  b.in.ifill_addr = b.addr(6, s);
  o = b.step();
  EXPECT_TRUE(o.if_resp_valid && o.if_resp_hit);
  EXPECT_EQ(b.m.recency(s), order({2, 3, 0, 1}));
  EXPECT_FALSE(b.step().ifill_ready);
  o = b.step();
  EXPECT_TRUE(o.ifill_ready);
  EXPECT_EQ(o.data_line, b.line(2, s));
  EXPECT_FALSE(b.m.events().ifill_victim_stale);
  EXPECT_EQ(b.m.recency(s), order({3, 0, 1, 2}));
  b.in.ifill_valid = false;
  EXPECT_FALSE(b.fetch(b.addr(1, s)).if_resp_hit);  // replaced by tag 5
  EXPECT_TRUE(b.fetch(b.addr(2, s)).if_resp_hit);
  EXPECT_FALSE(b.fetch(b.addr(3, s)).if_resp_hit);  // replaced by tag 6
}

// A fill accepted in a fetch's I2 cycle, both touching set 4 (tags 1..4 in
// ways 0..3, [0,1,2,3]): the fetch's touch first, the fill's last, so the
// filled way ends most recent.
TEST(IcacheTxIfillStage, FillAcceptedInAFetchI2TouchesLast) {
  Bench b(load(kAware1));
  const unsigned s = 4;
  for (unsigned t = 1; t <= 4; ++t) b.ifill(b.addr(t, s), pattern(b.p, t));
  // c0: fill request (tag 5): F0. c1: F1 sees [0,1,2,3], all IC: way 0; a
  // fetch of tag 2 (way 1) is accepted (I0). c2: F2 with s1 valid: not
  // ready; I1 hits way 1. c3: F2, s1 empty: accepted; the fetch's I2.
  b.in.ifill_valid = true;
  b.in.ifill_addr = b.addr(5, s);
  b.in.ifill_data = pattern(b.p, 5);
  EXPECT_FALSE(b.step().ifill_ready);
  b.in.if_valid = true;
  b.in.if_addr = b.addr(2, s);
  EXPECT_FALSE(b.step().ifill_ready);
  b.in.if_valid = false;
  EXPECT_FALSE(b.step().ifill_ready);
  EXPECT_TRUE(b.m.events().fetch_hit);
  EXPECT_EQ(b.m.recency(s), order({0, 1, 2, 3}));
  const IcacheTxOut o = b.step();
  EXPECT_TRUE(o.ifill_ready && o.if_resp_valid && o.if_resp_hit);
  EXPECT_EQ(o.if_resp_data, pattern(b.p, 2));
  EXPECT_EQ(o.data_line, b.line(0, s));
  // [0,1,2,3] -> the fetch touches 1: [0,2,3,1] -> the fill touches 0:
  // [2,3,1,0] (the other order would end [2,3,0,1])
  EXPECT_EQ(b.m.recency(s), order({2, 3, 1, 0}));
  b.in.ifill_valid = false;
  EXPECT_EQ(b.m.mode(b.line(0, s)), Mode::Ic);
}

// A request withdrawn in F2 is forgotten: the next one starts at F0 and its
// victim is chosen again, from the state of its own F1.
TEST(IcacheTxIfillStage, WithdrawnRequestReturnsToF0) {
  Bench b(load(kAware1));
  const unsigned s = 5;
  // c0 F0; a translation fill of line 5 = {0, 5} is accepted
  b.in.ifill_valid = true;
  b.in.ifill_addr = b.addr(0x40, s);
  b.in.tf_valid[0] = true;
  b.in.tf_vpn[0] = b.vpn(0x77, b.line(0, s));
  b.in.tf_ppn[0] = 0x5;
  IcacheTxOut o = b.step();
  EXPECT_TRUE(o.tf_ready[0]);
  EXPECT_FALSE(o.ifill_ready);
  b.in.tf_valid[0] = false;
  // c1 F1: victim = LRU Invalid way 0; the initialise waits (ifill_valid)
  o = b.step();
  EXPECT_FALSE(o.ifill_ready || o.tag_en);
  EXPECT_TRUE(b.m.events().engine_port_wait);
  // c2: fs = 2, s1 empty: ready = 1, but the request is withdrawn; the port
  // is free: the initialise writes line 5 (mode Tx, touch 0 -> [1,2,3,0]).
  b.in.ifill_valid = false;
  o = b.step();
  EXPECT_TRUE(o.ifill_ready);
  EXPECT_TRUE(o.if_ready);
  EXPECT_TRUE(o.tag_en && o.tag_we);
  EXPECT_EQ(o.tag_set, s);
  EXPECT_EQ(o.tag_way_en, 1u);
  EXPECT_EQ(b.m.mode(b.line(0, s)), Mode::Tx);
  // c3 F0 again: not ready. c4 F1: Invalid {1, 2, 3}, [1,2,3,0] -> way 1.
  // c5 F2: accepted into way 1, not the forgotten way 0.
  b.in.ifill_valid = true;
  EXPECT_FALSE(b.step().ifill_ready);
  EXPECT_FALSE(b.step().ifill_ready);
  o = b.step();
  EXPECT_TRUE(o.ifill_ready);
  EXPECT_EQ(o.data_line, b.line(1, s));
  b.in.ifill_valid = false;
  EXPECT_EQ(b.m.mode(b.line(0, s)), Mode::Tx);
  // withdrawn in F1: c6 F0, c7 F1 without the request -> fs = 0; c8 F0, c9 F1, c10 F2
  b.in.ifill_addr = b.addr(0x41, s);
  b.in.ifill_valid = true;
  EXPECT_FALSE(b.step().ifill_ready);
  b.in.ifill_valid = false;
  EXPECT_FALSE(b.step().ifill_ready);
  b.in.ifill_valid = true;
  EXPECT_FALSE(b.step().ifill_ready);
  EXPECT_FALSE(b.step().ifill_ready);
  o = b.step();
  EXPECT_TRUE(o.ifill_ready);
  EXPECT_EQ(o.data_line, b.line(2, s));  // Invalid {2, 3}, [2,3,0,1] -> 2
}

TEST(IcacheTxIfillStage, ResetReturnsTheFillStageToF0) {
  Bench b(load(kAware1), true);
  b.in.ifill_valid = true;
  b.in.ifill_addr = b.addr(0x9, 1);
  b.step();  // F0
  b.step();  // F1
  b.in.rst_n = false;
  IcacheTxOut o = b.step();  // would be F2: the reset state has fs = 0
  EXPECT_FALSE(o.ifill_ready);
  EXPECT_FALSE(o.tag_en || o.data_en);
  b.in.rst_n = true;
  EXPECT_FALSE(b.step().ifill_ready);  // F0
  EXPECT_FALSE(b.step().ifill_ready);  // F1
  o = b.step();                        // F2
  EXPECT_TRUE(o.ifill_ready);
  EXPECT_EQ(o.data_line, b.line(0, 1));
}

// ---------------------------------------------------------------------------
// Translation fill (initialise) and lookup latency

// seed000: L = 0x25 -> set 5, way 1. t = 0xABCDE12, VPN = (t << 8) | 0x25.
// Packed word (prefix, ids shared, V 4, Bv 24): base [23:0] = t[27:4] =
// 0xABCDE1, vmid [25:24] = 1, vrf [27:26] = 2 -> bits [31:0] = 0x09ABCDE1;
// entry 0 at [39:32] = valid | lru 0 << 1 | t[3:0] = 2 << 4 = 0x21.
// Slot 0 = perm 0x2A << 36 | ppn 0x123456789 = 0x2A1_23456789.
TEST(IcacheTxLookup, InitialiseThenHitAtAPlus5WithCpEqualX) {
  Bench b(load(kSeed000));
  const auto& p = b.p;
  const uint64_t t = 0xABCDE12, vpn = (t << 8) | 0x25;
  // c0: CU 2 fills (pointer 0 -> first valid CU = 2)
  b.in.tf_valid[2] = true;
  b.in.tf_vpn[2] = vpn;
  b.in.tf_vmid[2] = 1;
  b.in.tf_vrf[2] = 2;
  b.in.tf_ppn[2] = 0x123456789;
  b.in.tf_perm[2] = 0x2A;
  IcacheTxOut o = b.step();
  EXPECT_EQ(o.tf_ready, std::vector<bool>({false, false, true, false}));
  b.in.tf_valid[2] = false;
  // c1 = A+1: ISSUE, Invalid line, port free: initialise write.
  o = b.step();
  EXPECT_EQ(o.tf_ready, std::vector<bool>(4, false));
  EXPECT_FALSE(o.flush_ready);
  EXPECT_TRUE(o.tag_en && o.tag_we);
  EXPECT_EQ(o.tag_set, 5u);
  EXPECT_EQ(o.tag_way_en, 2u);
  EXPECT_EQ(o.tag_wdata, replicated(p, 96, {0x09ABCDE1u, 0x21u, 0u}));
  EXPECT_TRUE(o.data_en && o.data_we);
  EXPECT_EQ(o.data_line, 0x25u);
  EXPECT_EQ(o.data_wdata, bits_of(512, {0x23456789u, 0x2A1u}));
  EXPECT_TRUE(b.m.events().fill_init_invalid);
  EXPECT_EQ(b.m.mode(0x25), Mode::Tx);
  EXPECT_EQ(b.m.recency(5), order({0, 1, 2, 3, 4, 5, 6, 7}));  // the touch is pending
  EXPECT_TRUE(b.m.idle());
  // c2: CU 1 looks it up (A = 2); the initialise's touch of way 1 lands at this edge
  b.in.tl_valid[1] = true;
  b.in.tl_vpn[1] = vpn;
  b.in.tl_vmid[1] = 1;
  b.in.tl_vrf[1] = 2;
  o = b.step();
  EXPECT_EQ(o.tl_ready, std::vector<bool>({false, true, false, false}));
  EXPECT_EQ(b.m.recency(5), order({0, 2, 3, 4, 5, 6, 7, 1}));
  b.in.tl_valid[1] = false;
  // c3 = A+1: read set 5 / line 0x25
  o = b.step();
  EXPECT_TRUE(o.tag_en);
  EXPECT_FALSE(o.tag_we);
  EXPECT_EQ(o.tag_set, 5u);
  EXPECT_EQ(o.tag_way_en, 0xFFu);
  EXPECT_TRUE(o.data_en);
  EXPECT_FALSE(o.data_we);
  EXPECT_EQ(o.data_line, 0x25u);
  // c4 = A+2: DEC; c5 = A+3: CMP cycle 0 (group 0 compared); c6 = A+4: CMP
  // cycle 1 (group 0 evaluated: the hit, at its edge). No port use, no response.
  for (unsigned c = 4; c <= 6; ++c) {
    o = b.step();
    EXPECT_FALSE(o.tag_en || o.data_en || o.tl_resp_valid) << "c" << c;
    EXPECT_EQ(b.m.events().lookup_hit, c == 6) << "c" << c;
  }
  // c7 = A+5: response (cu 1, hit, ppn, perm); PACK: no port.
  o = b.step();
  EXPECT_TRUE(o.tl_resp_valid);
  EXPECT_EQ(o.tl_resp_cu, 1u);
  EXPECT_TRUE(o.tl_resp_hit);
  EXPECT_EQ(o.tl_resp_ppn, 0x123456789u);
  EXPECT_EQ(o.tl_resp_perm, 0x2Au);
  EXPECT_FALSE(o.tag_en || o.data_en);
  // c8 = A+6: WRITE of the packed touched candidate: one valid entry of rank
  // 0 -> the same word; tag only.
  o = b.step();
  EXPECT_TRUE(o.tl_resp_valid);
  EXPECT_TRUE(o.tag_en && o.tag_we);
  EXPECT_EQ(o.tag_way_en, 2u);
  EXPECT_EQ(o.tag_wdata, replicated(p, 96, {0x09ABCDE1u, 0x21u, 0u}));
  EXPECT_FALSE(o.data_en);
  // c9: IDLE; the response waits for ready (lk_ok = 0: no lookup ready)
  b.in.tl_valid[0] = true;
  b.in.tl_vpn[0] = vpn;
  o = b.step();
  EXPECT_TRUE(b.m.idle());
  EXPECT_TRUE(o.tl_resp_valid);
  EXPECT_EQ(o.tl_ready, std::vector<bool>(4, false));
  b.in.tl_resp_ready = true;
  o = b.step();  // c10: consumed at its edge
  EXPECT_TRUE(o.tl_resp_valid);
  EXPECT_EQ(o.tl_ready, std::vector<bool>(4, false));
  o = b.out();  // c11: valid drops, the fields hold; CU 0 ready (pointer 2 -> 2, 3, 0)
  EXPECT_FALSE(o.tl_resp_valid);
  EXPECT_TRUE(o.tl_resp_hit);
  EXPECT_EQ(o.tl_resp_ppn, 0x123456789u);
  EXPECT_EQ(o.tl_ready, std::vector<bool>({true, false, false, false}));
}

// icache_tx_small (X 8, CP 1, NG 8, L = VPN[4:0], T 31, prefix V 4, Bv 27).
// Fills t0..t5 into line 9 (set 1, way 1). Insertion (lds_ctrl steps 1-3):
// each fill takes the lowest invalid way w = v, the new entry goes to way 0 and
// the old way 0 moves to w: after t0..t5 the line is [t5, t0, t1, t2, t3, t4].
// A lookup of t4 hits sub-entry 5 = group 5: compared in A+3+5, evaluated in
// A+9, response from A+3+5+2 = A+10.
TEST(IcacheTxLookup, OneComparatorHitInSubEntry5AnswersAtAPlus10) {
  Bench b(load(kSmall));
  const unsigned L = 9;
  auto tv = [&](unsigned i) { return b.vpn(0x1234560 + i, L); };
  // first fill: initialise (A, write in A+1); the second: into the Tx line with
  // a free way: read A+1, DEC A+2, CMP cycles 0..8 in A+3..A+11 (no match; the
  // last group is evaluated in A+11), PACK A+12, WRITE A+13.
  b.tfill(0, tv(0), 0, 0, 0x100, 1);
  const unsigned a = b.tfill_accept(1, tv(1), 0, 0, 0x101, 2);
  IcacheTxOut o;
  for (unsigned c = a + 1; c <= a + 12; ++c) {
    o = b.step();
    EXPECT_FALSE(o.tag_we || o.data_we) << "c" << c;
    EXPECT_EQ(b.m.events().fill_into_tx, c == a + 11) << "c" << c;
  }
  o = b.step();  // A+13: WRITE, tag and data
  EXPECT_TRUE(o.tag_en && o.tag_we && o.data_en && o.data_we);
  EXPECT_EQ(o.data_wdata, slots(b.p, {{0, 0x101, 2}, {1, 0x100, 1}}));
  o = b.step();
  EXPECT_TRUE(b.m.idle());
  for (unsigned i = 2; i <= 5; ++i) b.tfill(0, tv(i), 0, 0, 0x100 + i, i);

  // lookup t4 (A): response valid first in A+10.
  b.in.tl_valid[1] = true;
  b.in.tl_vpn[1] = tv(4);
  const unsigned la = b.cyc;
  o = b.step();
  EXPECT_TRUE(o.tl_ready[1]);
  b.in.tl_valid[1] = false;
  for (unsigned c = la + 1; c < la + 10; ++c) {
    o = b.step();
    EXPECT_FALSE(o.tl_resp_valid) << "c" << c;
    EXPECT_EQ(b.m.events().lookup_hit, c == la + 9) << "c" << c;
  }
  EXPECT_TRUE(b.m.events().lookup_hit_late_group);
  o = b.step();
  EXPECT_TRUE(o.tl_resp_valid);
  EXPECT_TRUE(o.tl_resp_hit);
  EXPECT_EQ(o.tl_resp_cu, 1u);
  EXPECT_EQ(o.tl_resp_ppn, 0x104u);
  EXPECT_EQ(o.tl_resp_perm, 4u);
  b.in.tl_resp_ready = true;
  b.step();  // the response is consumed at this edge
  b.drain();
  // lookup t5 (sub-entry 0, group 0): A+3+0+2 = A+5; a miss: A+3+NG+1 = A+12.
  for (auto [tag, lat, hit] : {std::tuple<uint64_t, unsigned, bool>{5, 5, true}, {9, 12, false}}) {
    b.in.tl_valid[0] = true;
    b.in.tl_vpn[0] = tv(static_cast<unsigned>(tag));
    b.in.tl_resp_ready = false;
    o = b.step();
    EXPECT_TRUE(o.tl_ready[0]);
    b.in.tl_valid[0] = false;
    for (unsigned k = 1; k < lat; ++k) EXPECT_FALSE(b.step().tl_resp_valid) << k;
    o = b.step();
    EXPECT_TRUE(o.tl_resp_valid) << tag;
    EXPECT_EQ(o.tl_resp_hit, hit);
    EXPECT_EQ(o.tl_resp_ppn, hit ? 0x105u : 0u);
    b.in.tl_resp_ready = true;
    b.step();
    b.drain();
  }
}

// icache_tx_32k4w (X 8, CP 2, NG 4, arith codec, V 4: deltas -8..7 from the
// newest tag). Line 131 = {1, 3} filled with t0..t5 = [t5, t0, t1, t2, t3, t4]
// as above. Sub-entry i is in group i / 2: t5 group 0 -> A+5, t1 (sub-entry 2)
// group 1 -> A+6, t4 (sub-entry 5) group 2 -> A+7, a miss after the four
// groups -> A+3+4+1 = A+8.
TEST(IcacheTxLookup, TwoComparatorsAnswerOneCycleAfterTheMatchingGroupIsEvaluated) {
  Bench b(load(k32k4w));
  const unsigned L = 131;
  auto tv = [&](unsigned i) { return b.vpn(0x2000 + i, L); };
  for (unsigned i = 0; i <= 5; ++i) EXPECT_TRUE(b.tfill(0, tv(i), 1, 1, 0x300 + i, i).empty());
  for (auto [i, lat, hit] : {std::tuple<unsigned, unsigned, bool>{5, 5, true}, {1, 6, true}, {4, 7, true},
                             {9, 8, false}}) {
    SCOPED_TRACE(i);
    b.in.tl_valid[1] = true;
    b.in.tl_vpn[1] = tv(i);
    b.in.tl_vmid[1] = 1;
    b.in.tl_vrf[1] = 1;
    b.in.tl_resp_ready = false;
    EXPECT_TRUE(b.step().tl_ready[1]);
    b.in.tl_valid[1] = false;
    for (unsigned k = 1; k < lat; ++k) EXPECT_FALSE(b.step().tl_resp_valid) << k;
    EXPECT_EQ(b.m.events().lookup_hit, hit);  // the edge of the evaluation cycle A+lat-1
    EXPECT_EQ(b.m.events().lookup_miss_tx, !hit);
    const IcacheTxOut o = b.step();
    EXPECT_TRUE(o.tl_resp_valid);
    EXPECT_EQ(o.tl_resp_hit, hit);
    EXPECT_EQ(o.tl_resp_ppn, hit ? 0x300u + i : 0u);
    b.in.tl_resp_ready = true;
    b.step();
    b.drain();
  }
}

TEST(IcacheTxLookup, NonTxLineAnsweredInAPlus2EvenUnderFetchTraffic) {
  Bench b(load(kAware1));
  const unsigned L = 10;  // set 2, way 1
  // line 10 Invalid: lookup in c0, response in c2; fetches in c0..c3 keep the port busy
  b.in.if_valid = true;
  b.in.if_addr = b.addr(3, 2);
  b.in.tl_valid[2] = true;
  b.in.tl_vpn[2] = b.vpn(0x5, L);
  IcacheTxOut o = b.step();
  EXPECT_TRUE(o.tl_ready[2]);
  b.in.tl_valid[2] = false;
  o = b.step();
  EXPECT_FALSE(o.tl_resp_valid);
  EXPECT_TRUE(b.m.events().lookup_miss_not_tx);
  o = b.step();
  EXPECT_TRUE(o.tl_resp_valid);
  EXPECT_FALSE(o.tl_resp_hit);
  EXPECT_EQ(o.tl_resp_cu, 2u);
  EXPECT_EQ(o.tl_resp_ppn, 0u);
  EXPECT_TRUE(b.m.idle());
  b.in.if_valid = false;
  b.in.tl_resp_ready = true;
  b.step();
  b.step();
  b.in.tl_resp_ready = false;
  // an IC line: ifill set 2 takes LRU Invalid way 0 -> line 2; lookup of line 2 -> A+2 miss
  b.ifill(b.addr(7, 2), pattern(b.p, 1));
  EXPECT_EQ(b.m.mode(2), Mode::Ic);
  b.in.tl_valid[0] = true;
  b.in.tl_vpn[0] = b.vpn(0x5, 2);
  o = b.step();
  EXPECT_TRUE(o.tl_ready[0]);
  b.in.tl_valid[0] = false;
  EXPECT_FALSE(b.step().tl_resp_valid);
  o = b.step();
  EXPECT_TRUE(o.tl_resp_valid);
  EXPECT_FALSE(o.tl_resp_hit);
}

// ---------------------------------------------------------------------------
// Fill into an IC line: bypass (aware) and replacement (naive)

TEST(IcacheTxFill, AwareBypassesAnInstructionLine) {
  Bench b(load(kAware1));
  const Bits d = pattern(b.p, 44);
  b.ifill(b.addr(0x66, 4), d);  // set 4, LRU Invalid way 0 -> line 4
  EXPECT_EQ(b.m.mode(4), Mode::Ic);
  const uint64_t vpn = b.vpn(0xABC, 4);
  b.in.tf_valid[1] = true;
  b.in.tf_vpn[1] = vpn;
  b.in.tf_vmid[1] = 3;
  b.in.tf_vrf[1] = 1;
  b.in.tf_ppn[1] = 0xFEDCBA987;
  b.in.tf_perm[1] = 0x15;
  IcacheTxOut o = b.step();  // A: pointer 0 -> CU 1
  EXPECT_TRUE(o.tf_ready[1]);
  b.in.tf_valid[1] = false;
  o = b.step();  // A+1: ISSUE, IC & aware: bypass, no port
  EXPECT_FALSE(o.tag_en || o.data_en || o.vic_valid);
  EXPECT_TRUE(b.m.events().fill_bypass_ic);
  o = b.step();  // A+2: VIC, vic_ready = 0: held
  EXPECT_TRUE(o.vic_valid);
  EXPECT_EQ(o.vic_vpn, vpn);
  EXPECT_EQ(o.vic_vmid, 3u);
  EXPECT_EQ(o.vic_vrf, 1u);
  EXPECT_EQ(o.vic_ppn, 0xFEDCBA987u);
  EXPECT_EQ(o.vic_perm, 0x15u);
  EXPECT_TRUE(b.m.events().victim_stalled);
  EXPECT_EQ(o.tf_ready, std::vector<bool>(3, false));
  b.in.vic_ready = true;
  o = b.step();  // A+3: removed at its edge
  EXPECT_TRUE(o.vic_valid);
  EXPECT_TRUE(b.m.events().victim_out);
  o = b.step();  // A+4: IDLE, victim outputs zero
  EXPECT_FALSE(o.vic_valid);
  EXPECT_EQ(o.vic_vpn, 0u);
  EXPECT_EQ(o.vic_ppn, 0u);
  EXPECT_TRUE(b.m.idle());
  EXPECT_EQ(b.m.mode(4), Mode::Ic);
  b.in.vic_ready = false;
  o = b.fetch(b.addr(0x66, 4));
  EXPECT_TRUE(o.if_resp_hit);
  EXPECT_EQ(o.if_resp_data, d);
}

// naive1: `set` indexing, XI 3, T 33: VPN = (high << 5) | L, t = VPN[35:3]. X = 1
// entry: t in [32:0], vmid [34:33], vrf [36:35].
TEST(IcacheTxFill, NaiveReplacesAnInstructionLine) {
  Bench b(load(kNaive1));
  b.ifill(b.addr(0x66, 4), pattern(b.p, 44));  // line 4 (set 4, way 0)
  const uint64_t vpn = b.vpn(0x1234, 4);         // t = 0x1234 << 2 | way 0 = 0x48D0
  b.in.tf_valid[0] = true;
  b.in.tf_vpn[0] = vpn;
  b.in.tf_vmid[0] = 2;
  b.in.tf_vrf[0] = 3;
  b.in.tf_ppn[0] = 0x42;
  b.in.tf_perm[0] = 0x3;
  IcacheTxOut o = b.step();
  EXPECT_TRUE(o.tf_ready[0]);
  b.in.tf_valid[0] = false;
  o = b.step();  // A+1: initialise over the IC line
  EXPECT_TRUE(o.tag_en && o.tag_we);
  EXPECT_EQ(o.tag_set, 4u);
  EXPECT_EQ(o.tag_way_en, 1u);
  // t = 0x48D0 | vmid 2 << 33 | vrf 3 << 35 = 0x1C_000048D0
  EXPECT_EQ(o.tag_wdata, replicated(b.p, 48, {0x000048D0u, 0x1Cu}));
  EXPECT_EQ(o.data_line, 4u);
  EXPECT_EQ(o.data_wdata, bits_of(512, {0x42u, 0x3u << 4}));
  EXPECT_TRUE(b.m.events().fill_init_over_ic);
  EXPECT_EQ(b.m.mode(4), Mode::Tx);
  o = b.fetch(b.addr(0x66, 4));
  EXPECT_FALSE(o.if_resp_hit);  // the instructions are lost
  // X = 1 lookup of a Tx line: read A+1, DEC A+2, CMP A+3 (compare) and A+4
  // (hit: IDLE at its edge), response A+5, no PACK or WRITE
  b.in.tl_valid[0] = true;
  b.in.tl_vpn[0] = vpn;
  b.in.tl_vmid[0] = 2;
  b.in.tl_vrf[0] = 3;
  o = b.step();
  EXPECT_TRUE(o.tl_ready[0]);
  b.in.tl_valid[0] = false;
  for (unsigned k = 1; k <= 3; ++k) b.step();
  EXPECT_FALSE(b.m.idle());
  EXPECT_FALSE(b.step().tl_resp_valid);
  EXPECT_TRUE(b.m.idle());
  o = b.step();
  EXPECT_TRUE(o.tl_resp_valid && o.tl_resp_hit);
  EXPECT_EQ(o.tl_resp_ppn, 0x42u);
  EXPECT_EQ(o.tl_resp_perm, 3u);
  EXPECT_FALSE(o.tag_en);
}

// X = 1 fill into a Tx line of another translation: the old one is evicted.
TEST(IcacheTxFill, OnePerLineFillEvictsTheResidentTranslation) {
  Bench b(load(kAware1));
  const unsigned L = 13;  // set 5, way 1
  b.tfill(0, b.vpn(0x10, L), 1, 1, 0x111, 1);
  // A, read A+1, DEC A+2, CMP A+3 and A+4 (no match: sub-entry 0 has rank
  // 0 = X-1: evicted), PACK A+5, WRITE A+6, VIC A+7
  const unsigned a = b.tfill_accept(2, b.vpn(0x20, L), 1, 1, 0x222, 2);
  b.in.vic_ready = true;
  IcacheTxOut o;
  for (unsigned c = a + 1; c <= a + 5; ++c) EXPECT_FALSE(b.step().tag_we);
  o = b.step();  // A+6
  EXPECT_TRUE(o.tag_we && o.data_we);
  // entry {vrf 1, vmid 1, t 0x20}: t [30:0], vmid [32:31], vrf [34:33]
  EXPECT_EQ(o.tag_wdata, replicated(b.p, 48, {0x80000020u, 0x2u}));
  o = b.step();  // A+7
  EXPECT_TRUE(o.vic_valid);
  EXPECT_EQ(o.vic_vpn, b.vpn(0x10, L));
  EXPECT_EQ(o.vic_ppn, 0x111u);
  o = b.step();
  EXPECT_FALSE(o.vic_valid);
  EXPECT_TRUE(b.m.idle());
}

// ---------------------------------------------------------------------------
// LRU sub-entry eviction (seed000, CP = X: fill flow A, read A+1, DEC A+2,
// CMP A+3 (compare) and A+4 (decide), PACK A+5, WRITE A+6, VIC A+7)

TEST(IcacheTxFill, LruSubEntryEvictionOrderFollowsTouches) {
  Bench b(load(kSeed000));
  const unsigned L = 0x25;
  auto tv = [&](unsigned i) { return b.vpn(0xABCDE10 + i, L); };  // prefix 0xABCDE1, value i
  for (unsigned i = 0; i <= 7; ++i) EXPECT_TRUE(b.tfill(i % 4, tv(i), 1, 2, 0x1000 + i, i).empty());
  // line [t7 r0, t0 r7, t1 r6, t2 r5, t3 r4, t4 r3, t5 r2, t6 r1]
  // fill t8: no match, no invalid: evict rank 7 = t0 (sub-entry 1); w = 1, k = 7:
  // all others + 1, old way 0 (t7) moves to way 1, t8 at way 0:
  // [t8 r0, t7 r1, t1 r7, t2 r6, t3 r5, t4 r4, t5 r3, t6 r2]
  const unsigned a = b.tfill_accept(0, tv(8), 1, 2, 0x1008, 8);
  b.in.vic_ready = true;
  IcacheTxOut o;
  for (unsigned c = a + 1; c <= a + 4; ++c) o = b.step();
  EXPECT_TRUE(b.m.events().fill_evicted_lru);
  o = b.step();  // A+5 PACK: no port
  EXPECT_FALSE(o.tag_en || o.data_en || o.vic_valid);
  o = b.step();  // A+6 WRITE
  // entries valid | lru << 1 | value << 4: 0x81 0x73 0x1F 0x2D | 0x3B 0x49 0x57 0x65
  EXPECT_EQ(o.tag_wdata, replicated(b.p, 96, {0x09ABCDE1u, 0x2D1F7381u, 0x6557493Bu}));
  EXPECT_EQ(o.data_wdata, slots(b.p, {{0, 0x1008, 8}, {1, 0x1007, 7}, {2, 0x1001, 1}, {3, 0x1002, 2},
                                       {4, 0x1003, 3}, {5, 0x1004, 4}, {6, 0x1005, 5}, {7, 0x1006, 6}}));
  o = b.step();  // A+7: the evicted t0
  EXPECT_TRUE(o.vic_valid);
  EXPECT_EQ(o.vic_vpn, tv(0));
  EXPECT_EQ(o.vic_vmid, 1u);
  EXPECT_EQ(o.vic_vrf, 2u);
  EXPECT_EQ(o.vic_ppn, 0x1000u);
  EXPECT_EQ(o.vic_perm, 0u);
  o = b.step();
  EXPECT_FALSE(o.vic_valid);
  EXPECT_TRUE(b.m.idle());
  b.in.vic_ready = false;
  // lookup t1 (sub-entry 2, rank 7): hit; touch: t1 -> 0, all others + 1:
  // [t8 1, t7 2, t1 0, t2 7, t3 6, t4 5, t5 4, t6 3]; response and PACK in
  // A+5, WRITE at A+6 with entries 0x83 0x75 0x11 0x2F | 0x3D 0x4B 0x59 0x67.
  b.in.tl_valid[3] = true;
  b.in.tl_vpn[3] = tv(1);
  b.in.tl_vmid[3] = 1;
  b.in.tl_vrf[3] = 2;
  o = b.step();
  EXPECT_TRUE(o.tl_ready[3]);
  b.in.tl_valid[3] = false;
  b.in.tl_resp_ready = true;
  for (unsigned k = 1; k <= 4; ++k) EXPECT_FALSE(b.step().tl_resp_valid) << k;
  o = b.step();  // A+5
  EXPECT_TRUE(o.tl_resp_valid && o.tl_resp_hit);
  EXPECT_EQ(o.tl_resp_ppn, 0x1001u);
  EXPECT_EQ(o.tl_resp_cu, 3u);
  EXPECT_FALSE(o.tag_en || o.data_en);
  o = b.step();  // A+6
  EXPECT_FALSE(o.tl_resp_valid);  // consumed at A+5's edge
  EXPECT_TRUE(o.tag_we);
  EXPECT_FALSE(o.data_en);
  EXPECT_EQ(o.tag_wdata, replicated(b.p, 96, {0x09ABCDE1u, 0x2F117583u, 0x67594B3Du}));
  EXPECT_TRUE(b.m.idle());
  b.in.tl_resp_ready = false;
  // fill t9: evicts rank 7 = t2 (sub-entry 3), not t1
  const std::vector<Bench::Vic> v = b.tfill(1, tv(9), 1, 2, 0x1009, 9);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].vpn, tv(2));
  EXPECT_EQ(v[0].ppn, 0x1002u);
  EXPECT_EQ(v[0].perm, 2u);
  // t0 and t2 miss, t8 hits
  EXPECT_FALSE(b.lookup(0, tv(0), 1, 2).tl_resp_hit);
  EXPECT_FALSE(b.lookup(0, tv(2), 1, 2).tl_resp_hit);
  IcacheTxOut r = b.lookup(0, tv(8), 1, 2);
  EXPECT_TRUE(r.tl_resp_hit);
  EXPECT_EQ(r.tl_resp_ppn, 0x1008u);
  // a wrong VRF or VMID misses
  EXPECT_FALSE(b.lookup(0, tv(8), 1, 3).tl_resp_hit);
  EXPECT_FALSE(b.lookup(0, tv(8), 0, 2).tl_resp_hit);
}

TEST(IcacheTxFill, FillOfAPresentTranslationReplacesItWithoutEviction) {
  Bench b(load(kSeed000));
  const unsigned L = 0x11;
  auto tv = [&](unsigned i) { return b.vpn(0x5555550 + i, L); };
  b.tfill(0, tv(0), 0, 0, 0xA0, 1);
  b.tfill(0, tv(1), 0, 0, 0xA1, 1);  // [t1 r0, t0 r1]
  // refill t0 with new data: match at sub-entry 1, k = r = 1: t1 -> 1; old way 0
  // (t1) to way 1; t0' at way 0: [t0' r0, t1 r1]. No victim.
  const unsigned a = b.tfill_accept(0, tv(0), 0, 0, 0xB0, 2);
  IcacheTxOut o;
  for (unsigned c = a + 1; c <= a + 4; ++c) o = b.step();
  EXPECT_TRUE(b.m.events().fill_replaced_same);
  o = b.step();  // A+5 PACK
  EXPECT_FALSE(o.tag_en);
  o = b.step();  // A+6 WRITE
  // base 0x555555 (vmid 0, vrf 0); entries 0x01 (t0: value 0, lru 0), 0x13 (t1: value 1, lru 1)
  EXPECT_EQ(o.tag_wdata, replicated(b.p, 96, {0x00555555u, 0x1301u, 0u}));
  EXPECT_EQ(o.data_wdata, slots(b.p, {{0, 0xB0, 2}, {1, 0xA1, 1}}));
  o = b.step();
  EXPECT_FALSE(o.vic_valid);
  EXPECT_TRUE(b.m.idle());
  EXPECT_EQ(b.lookup(0, tv(0), 0, 0).tl_resp_ppn, 0xB0u);
}

// ---------------------------------------------------------------------------
// Compression failure (seed000: prefix, V 4 -> tags must share t[27:4])

TEST(IcacheTxFill, CompressionFailureDropsAndHandsOutInSlotOrder) {
  Bench b(load(kSeed000));
  const unsigned L = 0x46;  // set 6, way 2
  const uint64_t t0 = 0x1111110, t1 = 0x1111111, tn = 0x2222225;
  b.tfill(0, b.vpn(t0, L), 0, 0, 0x10, 1);
  b.tfill(0, b.vpn(t1, L), 0, 0, 0x11, 2);  // [t1 r0, t0 r1]
  // fill tn (other prefix): no match, lowest invalid w = 2, k = 2: t1 -> 1,
  // t0 -> 2; old way 0 (t1) moves to way 2: [tn r0, t0 r2, t1 r1]. The
  // reference is tn: t0 (slot 1) and t1 (slot 2) do not fit: dropped, in slot
  // order. Packed: base 0x222222, entry 0 = 1 | 5 << 4 = 0x51. Data: slot 0
  // only (READING R3: dropped slots are written zero).
  const unsigned a = b.tfill_accept(3, b.vpn(tn, L), 0, 0, 0x25, 3);
  IcacheTxOut o;
  for (unsigned c = a + 1; c <= a + 5; ++c) EXPECT_FALSE(b.step().tag_we) << c;  // to PACK
  o = b.step();  // A+6
  EXPECT_TRUE(o.tag_we && o.data_we);
  EXPECT_EQ(o.tag_wdata, replicated(b.p, 96, {0x00222222u, 0x51u, 0u}));
  EXPECT_EQ(o.data_wdata, slots(b.p, {{0, 0x25, 3}}));
  EXPECT_TRUE(b.m.events().fill_dropped);
  o = b.step();  // A+7: t0, vic_ready low: held
  EXPECT_TRUE(o.vic_valid);
  EXPECT_EQ(o.vic_vpn, b.vpn(t0, L));
  EXPECT_EQ(o.vic_ppn, 0x10u);
  b.in.vic_ready = true;
  o = b.step();  // A+8: t0 again, removed
  EXPECT_EQ(o.vic_vpn, b.vpn(t0, L));
  o = b.step();  // A+9: t1, removed
  EXPECT_TRUE(o.vic_valid);
  EXPECT_EQ(o.vic_vpn, b.vpn(t1, L));
  EXPECT_EQ(o.vic_ppn, 0x11u);
  EXPECT_EQ(o.vic_perm, 2u);
  o = b.step();  // A+10: IDLE
  EXPECT_FALSE(o.vic_valid);
  EXPECT_TRUE(b.m.idle());
  b.in.vic_ready = false;
  EXPECT_FALSE(b.lookup(0, b.vpn(t0, L), 0, 0).tl_resp_hit);
  EXPECT_EQ(b.lookup(0, b.vpn(tn, L), 0, 0).tl_resp_ppn, 0x25u);
  // shared ids: a fill of the same prefix from VMID 1 makes the others not fit
  const std::vector<Bench::Vic> v = b.tfill(0, b.vpn(tn + 1, L), 1, 0, 0x26, 0);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].vpn, b.vpn(tn, L));
  EXPECT_EQ(v[0].vmid, 0u);
}

// ---------------------------------------------------------------------------
// Kernel flush

TEST(IcacheTxFlush, KernelFlushKeepsTxLines) {
  Bench b(load(kAware1));  // kernel_flush: true
  const Bits d = pattern(b.p, 3);
  b.ifill(b.addr(0x40, 1), d);                   // line 1 (set 1, way 0) IC
  b.tfill(0, b.vpn(0x70, 9), 0, 0, 0x99, 1);     // line 9 (set 1, way 1) Tx
  b.step();  // the initialise's touch of way 1 lands at this edge
  const std::vector<unsigned> rec = b.m.recency(1);  // [2,3,0,1]
  EXPECT_EQ(rec, order({2, 3, 0, 1}));
  b.in.flush_valid = true;
  IcacheTxOut o = b.step();  // A
  EXPECT_TRUE(o.flush_ready);
  EXPECT_FALSE(o.sd_ready);
  EXPECT_EQ(o.tl_ready, std::vector<bool>(3, false));
  EXPECT_TRUE(b.m.events().flush_kept_tx);
  b.in.flush_valid = false;
  o = b.step();  // A+1
  EXPECT_TRUE(o.flush_done);
  EXPECT_FALSE(b.step().flush_done);
  EXPECT_EQ(b.m.mode(1), Mode::Invalid);
  EXPECT_EQ(b.m.mode(9), Mode::Tx);
  EXPECT_EQ(b.m.recency(1), rec);
  EXPECT_FALSE(b.fetch(b.addr(0x40, 1)).if_resp_hit);
  o = b.lookup(0, b.vpn(0x70, 9), 0, 0);
  EXPECT_TRUE(o.tl_resp_hit);
  EXPECT_EQ(o.tl_resp_ppn, 0x99u);
}

TEST(IcacheTxFlush, FlushWithoutTheOptionInvalidatesEverything) {
  Bench b(load(k32k4w));  // kernel_flush: false
  b.ifill(b.addr(0x40, 1), pattern(b.p, 3));   // line 1 IC
  b.tfill(0, b.vpn(0x70, 129), 0, 0, 0x99, 1);  // line 129 = {1, 1} Tx
  b.in.flush_valid = true;
  b.step();
  b.in.flush_valid = false;
  EXPECT_TRUE(b.step().flush_done);
  EXPECT_EQ(b.m.mode(1), Mode::Invalid);
  EXPECT_EQ(b.m.mode(129), Mode::Invalid);
  // lookup of an Invalid line: answered in A+2, miss
  b.in.tl_valid[0] = true;
  b.in.tl_vpn[0] = b.vpn(0x70, 129);
  EXPECT_TRUE(b.step().tl_ready[0]);
  b.in.tl_valid[0] = false;
  b.step();
  IcacheTxOut o = b.step();
  EXPECT_TRUE(o.tl_resp_valid);
  EXPECT_FALSE(o.tl_resp_hit);
}

TEST(IcacheTxFlush, FlushWaitsForTheEngineAndFillOfTheSameEdgeStaysIc) {
  Bench b(load(kAware1));
  b.ifill(b.addr(0x40, 0), pattern(b.p, 1));  // line 0 (way 0) IC: [1,2,3,0]
  b.tfill(0, b.vpn(0x70, 16), 0, 0, 0x99, 1);  // line 16 (way 2) Tx: [1,3,0,2]
  // a lookup of the Tx line keeps the engine busy A+1..A+4 (X = 1: IDLE after CMP)
  b.in.tl_valid[0] = true;
  b.in.tl_vpn[0] = b.vpn(0x70, 16);
  b.in.flush_valid = true;
  IcacheTxOut o = b.step();  // A: flush has priority over lookups
  EXPECT_TRUE(o.flush_ready);
  EXPECT_EQ(o.tl_ready, std::vector<bool>(3, false));
  b.in.flush_valid = false;
  o = b.step();  // lookup accepted now
  EXPECT_TRUE(o.tl_ready[0]);
  EXPECT_TRUE(o.flush_done);
  b.in.tl_valid[0] = false;
  b.in.flush_valid = true;
  // A+1 ISSUE (read: no fill request then), A+2 DEC, A+3 CMP 0, A+4 CMP 1 (hit).
  // An instruction fill of set 0 is requested from A+3: F0 A+3, F1 A+4 (victim
  // from F1's state: Invalid {1, 3}, [1,3,0,2] -> way 1), F2 A+5.
  for (unsigned k = 1; k <= 4; ++k) {
    if (k == 3) {
      b.in.ifill_valid = true;
      b.in.ifill_addr = b.addr(0x41, 0);
    }
    o = b.step();
    EXPECT_FALSE(o.flush_ready || o.ifill_ready) << k;
  }
  // A+5: idle again: the flush and the fill are accepted in one cycle.
  b.in.tl_resp_ready = true;
  o = b.step();
  EXPECT_TRUE(o.flush_ready && o.ifill_ready);
  EXPECT_EQ(o.data_line, 8u);  // {1, 0}
  b.in.flush_valid = false;
  b.in.ifill_valid = false;
  EXPECT_TRUE(b.step().flush_done);
  EXPECT_EQ(b.m.mode(8), Mode::Ic);  // the flush clears first, the fill's line is IC
  EXPECT_EQ(b.m.mode(16), Mode::Tx);
  EXPECT_EQ(b.m.mode(0), Mode::Invalid);
}

// ---------------------------------------------------------------------------
// Shootdown

TEST(IcacheTxShootdown, ByVpnAnyVrfEmptiesALineWhichBecomesInvalid) {
  Bench b(load(kAware1));
  const unsigned L = 21;  // set 5, way 2
  const uint64_t vpn = b.vpn(0x3333, L);
  b.tfill(0, vpn, 1, 3, 0x77, 7);
  // wrong VMID: read A+1, DEC A+2, CMP A+3 (compare) and A+4 (no match ->
  // IDLE), sd_done in A+5
  b.in.sd_valid = true;
  b.in.sd_vpn = vpn;
  b.in.sd_vmid = 2;
  IcacheTxOut o = b.step();
  EXPECT_TRUE(o.sd_ready);
  b.in.sd_valid = false;
  for (unsigned k = 1; k <= 4; ++k) EXPECT_FALSE(b.step().sd_done) << k;
  o = b.step();
  EXPECT_TRUE(o.sd_done);
  EXPECT_TRUE(b.m.idle());
  EXPECT_EQ(b.m.mode(L), Mode::Tx);
  // VMID 1, VRF ignored (the entry has VRF 3): the match is decided at the
  // edge of A+4; PACK A+5; WRITE A+6 writes a zero entry and makes the line
  // Invalid; sd_done in A+7.
  b.in.sd_valid = true;
  b.in.sd_vmid = 1;
  o = b.step();
  EXPECT_TRUE(o.sd_ready);
  b.in.sd_valid = false;
  for (unsigned k = 1; k <= 4; ++k) b.step();
  EXPECT_TRUE(b.m.events().sd_vpn_hit);
  o = b.step();  // A+5 PACK
  EXPECT_FALSE(o.tag_en || o.sd_done);
  o = b.step();  // A+6
  EXPECT_TRUE(o.tag_en && o.tag_we);
  EXPECT_EQ(o.tag_set, 5u);
  EXPECT_EQ(o.tag_way_en, 4u);
  EXPECT_EQ(o.tag_wdata, Bits(4 * 48));
  EXPECT_FALSE(o.data_en);
  EXPECT_FALSE(o.sd_done);
  EXPECT_TRUE(b.m.events().sd_emptied_line);
  EXPECT_EQ(b.m.mode(L), Mode::Invalid);
  o = b.step();  // A+7
  EXPECT_TRUE(o.sd_done);
  EXPECT_TRUE(o.sd_ready);
  // a non-Tx line: ISSUE A+1 -> IDLE, sd_done in A+2
  b.in.sd_valid = true;
  o = b.step();
  EXPECT_TRUE(o.sd_ready);
  b.in.sd_valid = false;
  EXPECT_FALSE(b.step().sd_done);
  EXPECT_TRUE(b.step().sd_done);
}

TEST(IcacheTxShootdown, ByVpnRemovesOneOfManyAndKeepsRanks) {
  Bench b(load(kSeed000));
  const unsigned L = 0x3C;  // set 28, way 1
  auto tv = [&](unsigned i) { return b.vpn(0x0F0F0F0 + i, L); };
  b.tfill(0, tv(0), 2, 1, 0x50, 0);
  b.tfill(0, tv(1), 2, 1, 0x51, 1);
  b.tfill(0, tv(2), 2, 1, 0x52, 2);  // [t2 r0, t0 r2, t1 r1]
  // shootdown t1: CMP A+3 compares, A+4 decides: match sub-entry 2;
  // candidate [t2 r0, t0 r2, -]; PACK A+5; WRITE A+6: base 0x0F0F0F | vmid
  // 2 << 24 | vrf 1 << 26 = 0x060F0F0F; entries 0x21 (t2), 0x05 (t0: lru 2), 0.
  b.in.sd_valid = true;
  b.in.sd_vpn = tv(1);
  b.in.sd_vmid = 2;
  b.step();
  b.in.sd_valid = false;
  for (unsigned k = 1; k <= 5; ++k) EXPECT_FALSE(b.step().tag_we) << k;
  IcacheTxOut o = b.step();
  EXPECT_TRUE(o.tag_we);
  EXPECT_EQ(o.tag_wdata, replicated(b.p, 96, {0x060F0F0Fu, 0x0521u, 0u}));
  EXPECT_TRUE(b.step().sd_done);
  EXPECT_EQ(b.m.mode(L), Mode::Tx);
  EXPECT_FALSE(b.lookup(0, tv(1), 2, 1).tl_resp_hit);
  EXPECT_EQ(b.lookup(0, tv(0), 2, 1).tl_resp_ppn, 0x50u);
  // shootdown all: at the accept edge every Tx line becomes Invalid, sd_done in
  // A+1, the engine stays IDLE (a lookup is ready in A+1)
  b.in.sd_valid = true;
  b.in.sd_all = true;
  b.in.tl_valid[0] = true;
  b.in.tl_vpn[0] = tv(0);
  b.in.tl_vmid[0] = 2;
  b.in.tl_vrf[0] = 1;
  o = b.step();
  EXPECT_TRUE(o.sd_ready);
  EXPECT_EQ(o.tl_ready, std::vector<bool>(4, false));
  EXPECT_TRUE(b.m.events().sd_all);
  b.in.sd_valid = false;
  b.in.sd_all = false;
  EXPECT_EQ(b.m.mode(L), Mode::Invalid);
  o = b.step();  // A+1
  EXPECT_TRUE(o.sd_done);
  // lookup pointer 1 (two lookups by CU 0 so far): 1, 2, 3 idle, then CU 0
  EXPECT_EQ(o.tl_ready, std::vector<bool>({true, false, false, false}));
  b.in.tl_valid[0] = false;
  b.step();
  o = b.step();  // lookup accepted in A+1 -> non-Tx line: response in A+3
  EXPECT_TRUE(o.tl_resp_valid);
  EXPECT_FALSE(o.tl_resp_hit);
}

TEST(IcacheTxShootdown, ShootdownAllAndAnInstructionFillOfTheSameEdge) {
  // 32k4w, tx_first: the fill takes the LRU Tx way; the sd-all clears Tx lines
  // first, the fill's line is IC after the edge (READING R4).
  Bench b(load(k32k4w));
  b.tfill(0, b.vpn(0x70, 131), 0, 0, 0x99, 1);  // line 131 = {1, 3}
  b.in.ifill_valid = true;
  b.in.ifill_addr = b.addr(0x5, 3);
  EXPECT_FALSE(b.step().ifill_ready);  // F0
  EXPECT_FALSE(b.step().ifill_ready);  // F1: the LRU Tx way of set 3 = way 1
  b.in.sd_valid = true;
  b.in.sd_all = true;
  IcacheTxOut o = b.step();  // F2
  EXPECT_TRUE(o.sd_ready && o.ifill_ready);
  EXPECT_EQ(o.data_line, 131u);
  EXPECT_EQ(b.m.mode(131), Mode::Ic);
}

// ---------------------------------------------------------------------------
// Clobber (32k4w: CP 2, NG 4, tx_first: a fill of set 3 takes its LRU Tx way)

TEST(IcacheTxClobber, InstructionFillOnTheLineCancelsTheFillWrite) {
  Bench b(load(k32k4w));
  const unsigned L = 131;  // set 3, way 1
  b.tfill(0, b.vpn(0x400, L), 1, 0, 0x40, 4);
  // fill t1: read A+1, DEC A+2, CMP A+3..A+7 (no match; group 3 evaluated in
  // A+7), PACK A+8, WRITE A+9.
  const unsigned a = b.tfill_accept(1, b.vpn(0x401, L), 1, 0, 0x41, 5);
  EXPECT_EQ(b.step().tag_we, false);  // A+1 read
  // An instruction fill of set 3: F0 A+2 (DEC), F1 A+3 (victim: the LRU Tx
  // way 1 = line L), F2 A+4 (CMP cycle 1): accepted, the clobber flag is set.
  const Bits d = pattern(b.p, 9);
  b.in.ifill_valid = true;
  b.in.ifill_addr = b.addr(0x2222, 3);
  b.in.ifill_data = d;
  EXPECT_FALSE(b.step().tag_en);  // A+2
  EXPECT_FALSE(b.step().tag_en);  // A+3
  IcacheTxOut o = b.step();       // A+4
  EXPECT_TRUE(o.ifill_ready && o.data_we);
  EXPECT_EQ(o.data_line, L);
  b.in.ifill_valid = false;
  for (unsigned c = a + 5; c <= a + 8; ++c) EXPECT_FALSE(b.step().tag_en) << c;  // CMP 2..4, PACK
  o = b.step();  // A+9: WRITE, clobbered: nothing written
  EXPECT_FALSE(o.tag_en || o.data_en);
  EXPECT_TRUE(b.m.events().clobbered);
  b.in.vic_ready = true;
  o = b.step();  // A+10: the fill's own translation
  EXPECT_TRUE(o.vic_valid);
  EXPECT_EQ(o.vic_vpn, b.vpn(0x401, L));
  EXPECT_EQ(o.vic_vmid, 1u);
  EXPECT_EQ(o.vic_ppn, 0x41u);
  EXPECT_EQ(o.vic_perm, 5u);
  EXPECT_FALSE(b.step().vic_valid);
  EXPECT_TRUE(b.m.idle());
  b.in.vic_ready = false;
  EXPECT_EQ(b.m.mode(L), Mode::Ic);
  EXPECT_EQ(b.m.data_line(L), d);
  o = b.fetch(b.addr(0x2222, 3));
  EXPECT_TRUE(o.if_resp_hit);
  EXPECT_EQ(o.if_resp_data, d);
}

// PACK (A+8) with the instruction fill accepted in it: F0 A+6, F1 A+7, F2 A+8.
// The write of A+9 (port free again) is cancelled.
TEST(IcacheTxClobber, FillDuringPackCancelsTheWrite) {
  Bench b(load(k32k4w));
  const unsigned L = 131;
  b.tfill(0, b.vpn(0x400, L), 1, 0, 0x40, 4);
  const unsigned a = b.tfill_accept(1, b.vpn(0x401, L), 1, 0, 0x41, 5);
  for (unsigned c = a + 1; c <= a + 5; ++c) b.step();
  b.in.ifill_valid = true;
  b.in.ifill_addr = b.addr(0x2222, 3);
  EXPECT_FALSE(b.step().ifill_ready);  // A+6: F0, CMP cycle 3
  EXPECT_FALSE(b.step().ifill_ready);  // A+7: F1, CMP cycle 4: the decision
  EXPECT_TRUE(b.m.events().fill_into_tx);
  IcacheTxOut o = b.step();  // A+8: F2 accepted during PACK
  EXPECT_TRUE(o.ifill_ready);
  EXPECT_EQ(o.tag_set, 3u);
  EXPECT_EQ(o.tag_way_en, 2u);
  EXPECT_EQ(o.data_line, L);
  EXPECT_FALSE(b.m.events().engine_port_wait);  // PACK does not wait
  b.in.ifill_valid = false;
  o = b.step();  // A+9: WRITE, port free, clobbered
  EXPECT_FALSE(o.tag_en || o.data_en);
  EXPECT_TRUE(b.m.events().clobbered);
  b.in.vic_ready = true;
  o = b.step();  // A+10
  EXPECT_TRUE(o.vic_valid);
  EXPECT_EQ(o.vic_vpn, b.vpn(0x401, L));
  EXPECT_EQ(o.vic_ppn, 0x41u);
  EXPECT_FALSE(b.step().vic_valid);
  EXPECT_EQ(b.m.mode(L), Mode::Ic);
  EXPECT_EQ(b.m.tag_entry(3, 1), bits_of(96, {0x2222u}));
}

TEST(IcacheTxClobber, FillDuringTheWriteCycleDelaysItThenCancelsIt) {
  Bench b(load(k32k4w));
  const unsigned L = 131;
  b.tfill(0, b.vpn(0x400, L), 1, 0, 0x40, 4);
  const unsigned a = b.tfill_accept(1, b.vpn(0x401, L), 1, 0, 0x41, 5);
  for (unsigned c = a + 1; c <= a + 8; ++c) b.step();
  // A+9: WRITE, but an instruction fill of line L is requested: F0 A+9, F1
  // A+10, F2 A+11 (accepted); the write waits in all three, clobbered at A+11
  b.in.ifill_valid = true;
  b.in.ifill_addr = b.addr(0x2222, 3);
  for (unsigned k = 9; k <= 11; ++k) {
    const IcacheTxOut o = b.step();
    EXPECT_EQ(o.ifill_ready, k == 11) << k;
    EXPECT_EQ(o.tag_en, k == 11) << k;
    if (k == 11) {
      EXPECT_EQ(o.data_line, L);
    }
    EXPECT_TRUE(b.m.events().engine_port_wait) << k;
  }
  b.in.ifill_valid = false;
  IcacheTxOut o = b.step();  // A+12: free, clobbered
  EXPECT_FALSE(o.tag_en);
  EXPECT_TRUE(b.m.events().clobbered);
  b.in.vic_ready = true;
  o = b.step();  // A+13
  EXPECT_TRUE(o.vic_valid);
  EXPECT_EQ(o.vic_vpn, b.vpn(0x401, L));
}

TEST(IcacheTxClobber, LookupHitIsAnsweredButItsWriteIsCancelled) {
  Bench b(load(k32k4w));
  const unsigned L = 131;
  b.tfill(0, b.vpn(0x400, L), 1, 0, 0x40, 4);
  // lookup: read A+1, DEC A+2, CMP A+3 (group 0) and A+4 (hit), response and
  // PACK A+5, WRITE A+6. Instruction fill of line L: F0 A+2, F1 A+3, F2 A+4.
  b.in.tl_valid[1] = true;
  b.in.tl_vpn[1] = b.vpn(0x400, L);
  b.in.tl_vmid[1] = 1;
  IcacheTxOut o = b.step();
  EXPECT_TRUE(o.tl_ready[1]);  // pointer 0 -> CU 1
  b.in.tl_valid[1] = false;
  b.step();
  b.in.ifill_valid = true;
  b.in.ifill_addr = b.addr(0x2222, 3);
  b.step();
  b.step();
  o = b.step();  // A+4
  EXPECT_TRUE(o.ifill_ready);
  EXPECT_EQ(o.data_line, L);
  EXPECT_TRUE(b.m.events().lookup_hit);
  b.in.ifill_valid = false;
  o = b.step();  // A+5: response hit with the data read; PACK
  EXPECT_TRUE(o.tl_resp_valid && o.tl_resp_hit);
  EXPECT_EQ(o.tl_resp_ppn, 0x40u);
  EXPECT_FALSE(o.tag_en);
  o = b.step();  // A+6: WRITE clobbered
  EXPECT_FALSE(o.tag_en);
  EXPECT_TRUE(b.m.events().clobbered);
  EXPECT_TRUE(b.m.idle());
  EXPECT_EQ(b.m.tag_entry(3, 1), bits_of(96, {0x2222u}));
}

// ---------------------------------------------------------------------------
// Port-free rule: instruction traffic blocks the engine and is never delayed

TEST(IcacheTxPorts, FetchTrafficBlocksTheEngineAndIsNeverDelayed) {
  Bench b(load(kAware1));
  const unsigned L = 9;  // set 1, way 1
  b.in.if_valid = true;
  b.in.tf_valid[0] = true;
  b.in.tf_vpn[0] = b.vpn(0x55, L);
  b.in.tf_ppn[0] = 0x5;
  // c0..c9: a fetch every cycle (set 2); the fill is accepted in c0
  for (unsigned c = 0; c < 10; ++c) {
    b.in.if_addr = b.addr(c + 1, 2);
    const IcacheTxOut o = b.step();
    EXPECT_TRUE(o.if_ready) << c;
    EXPECT_EQ(o.if_resp_valid, c >= 2) << c;
    EXPECT_TRUE(o.tag_en && !o.tag_we) << c;
    EXPECT_EQ(o.tag_set, 2u) << c;
    if (c == 0) {
      EXPECT_TRUE(o.tf_ready[0]);
      b.in.tf_valid[0] = false;
    } else {
      EXPECT_TRUE(b.m.events().engine_port_wait) << c;
    }
  }
  b.in.if_valid = false;
  IcacheTxOut o = b.step();  // c10: s1 valid: still not free
  EXPECT_FALSE(o.tag_en);
  EXPECT_TRUE(o.if_resp_valid);
  EXPECT_EQ(b.m.mode(L), Mode::Invalid);
  o = b.step();  // c11: free: initialise
  EXPECT_TRUE(o.tag_en && o.tag_we);
  EXPECT_EQ(o.tag_set, 1u);
  EXPECT_EQ(o.tag_way_en, 2u);
  EXPECT_TRUE(o.if_resp_valid);
  EXPECT_EQ(b.m.mode(L), Mode::Tx);
  EXPECT_TRUE(b.m.idle());
}

TEST(IcacheTxPorts, FillRequestAloneBlocksTheEngine) {
  Bench b(load(kAware1));
  b.tfill(0, b.vpn(0x55, 9), 0, 0, 0x5, 1);
  // lookup of the Tx line (A); an instruction fill requested from A+1: F0 and
  // F1 use no port, yet the request alone keeps the port from being free
  b.in.tl_valid[0] = true;
  b.in.tl_vpn[0] = b.vpn(0x55, 9);
  b.step();
  b.in.tl_valid[0] = false;
  b.in.ifill_valid = true;
  b.in.ifill_addr = b.addr(0x9, 6);
  for (unsigned k = 1; k <= 2; ++k) {  // A+1 F0, A+2 F1
    const IcacheTxOut o = b.step();
    EXPECT_FALSE(o.ifill_ready || o.tag_en || o.data_en) << k;
    EXPECT_TRUE(b.m.events().engine_port_wait) << k;
  }
  IcacheTxOut o = b.step();  // A+3 F2: accepted, the port taken by the fill
  EXPECT_TRUE(o.ifill_ready && o.tag_we);
  EXPECT_EQ(o.tag_set, 6u);
  EXPECT_TRUE(b.m.events().engine_port_wait);
  b.in.ifill_valid = false;
  o = b.step();  // A+4: read
  EXPECT_TRUE(o.tag_en && !o.tag_we);
  EXPECT_EQ(o.tag_set, 1u);
  b.step();  // A+5 DEC
  b.step();  // A+6 CMP 0
  EXPECT_FALSE(b.step().tl_resp_valid);  // A+7 CMP 1: hit
  o = b.step();  // A+8
  EXPECT_TRUE(o.tl_resp_valid && o.tl_resp_hit);
}

// PACK needs no port: a fetch in the PACK cycle does not hold it; the WRITE
// after it waits for the fetch's I1.
TEST(IcacheTxPorts, PackDoesNotWaitAndTheWriteWaitsForTheFetchPipeline) {
  Bench b(load(kSeed000));
  b.tfill(0, b.vpn(0x123, 0x25), 0, 0, 0x5, 1);
  b.in.tl_valid[0] = true;
  b.in.tl_vpn[0] = b.vpn(0x123, 0x25);
  b.step();  // A
  b.in.tl_valid[0] = false;
  for (unsigned k = 1; k <= 4; ++k) b.step();  // read, DEC, CMP 0, CMP 1 (hit)
  b.in.if_valid = true;
  b.in.if_addr = b.addr(1, 0);
  IcacheTxOut o = b.step();  // A+5: response; PACK while the fetch reads the tag SRAM
  EXPECT_TRUE(o.tl_resp_valid);
  EXPECT_TRUE(o.tag_en && !o.tag_we);
  EXPECT_EQ(o.tag_set, 0u);
  EXPECT_FALSE(b.m.events().engine_port_wait);
  b.in.if_valid = false;
  o = b.step();  // A+6: WRITE, s1 valid: waits
  EXPECT_FALSE(o.tag_en);
  EXPECT_TRUE(b.m.events().engine_port_wait);
  o = b.step();  // A+7: write
  EXPECT_TRUE(o.tag_en && o.tag_we);
  EXPECT_EQ(o.tag_set, 5u);
  EXPECT_TRUE(b.m.idle());
}

// Touches of set 5 at one edge: the engine's pending touch (a lookup hit
// decided at the previous edge), then the fetch's (I2), then the instruction
// fill's.
TEST(IcacheTxPorts, TouchesOfOneEdgeTranslationThenFetchThenFill) {
  Bench b(load(kSeed000));
  b.tfill(0, b.vpn(0x123, 0x25), 0, 0, 0x5, 1);  // set 5 way 1 (touch pending)
  b.ifill(b.addr(0x77, 5), pattern(b.p, 1));     // F0's edge: [0,2,...,7,1]; way 0: [2,3,4,5,6,7,1,0]
  b.ifill(b.addr(0x78, 5), pattern(b.p, 2));     // way 2: [3,4,5,6,7,1,0,2]
  EXPECT_EQ(b.m.recency(5), order({3, 4, 5, 6, 7, 1, 0, 2}));
  b.in.tl_valid[0] = true;
  b.in.tl_vpn[0] = b.vpn(0x123, 0x25);
  b.step();  // A
  b.in.tl_valid[0] = false;
  b.step();  // A+1 read
  b.step();  // A+2 DEC
  // A+3: CMP 0; fetch of tag 0x77 (way 0): I0; fill request (tag 0x79): F0
  b.in.if_valid = true;
  b.in.if_addr = b.addr(0x77, 5);
  b.in.ifill_valid = true;
  b.in.ifill_addr = b.addr(0x79, 5);
  b.step();
  b.in.if_valid = false;
  // A+4: CMP 1: the lookup hits (its touch of way 1 registered, not applied);
  // I1 hits way 0; F1: Invalid {3..7}: the LRU Invalid way 3
  b.step();
  EXPECT_TRUE(b.m.events().fetch_hit);
  EXPECT_TRUE(b.m.events().lookup_hit);
  EXPECT_EQ(b.m.recency(5), order({3, 4, 5, 6, 7, 1, 0, 2}));
  // A+5: PACK; I2; F2 with s1 empty: accepted into way 3
  const IcacheTxOut o = b.step();
  EXPECT_TRUE(o.ifill_ready && o.if_resp_hit && o.tl_resp_hit);
  EXPECT_EQ(o.data_line, b.line(3, 5));
  b.in.ifill_valid = false;
  // the engine's pending touch of 1: [3,4,5,6,7,0,2,1]; the fetch's of 0:
  // [3,4,5,6,7,2,1,0]; the fill's of 3: [4,5,6,7,2,1,0,3] (the fetch's
  // first would end [4,5,6,7,2,0,1,3])
  EXPECT_EQ(b.m.recency(5), order({4, 5, 6, 7, 2, 1, 0, 3}));
  EXPECT_FALSE(b.m.events().clobbered);
  b.drain();
  EXPECT_EQ(b.m.mode(0x25), Mode::Tx);
  EXPECT_EQ(b.m.recency(5), order({4, 5, 6, 7, 2, 1, 0, 3}));  // the WRITE of a lookup does not touch
}

// aware1 (X 1, CP 1), set 0: ways 0, 1 IC, ways 2, 3 Tx, recency [2,3,0,1]
// (no Invalid way: an instruction fill takes the LRU Tx way). A lookup of
// line 16 (way 2) hits at the edge of A+4; its touch lands at the edge of
// A+5. A fill whose F1 is A+5 sees [2,3,0,1] and takes way 2; one whose F1
// is A+6 sees [3,0,1,2] and takes way 3.
unsigned ifill_way_after_lookup_hit(unsigned f1_delay) {
  SCOPED_TRACE(f1_delay);
  Bench b(load(kAware1));
  const unsigned s = 0;
  // initialise 16 (touch lands at the next accept edge): [0,1,3,2];
  // initialise 24, its touch landing at F0's edge: [0,1,2,3]; fills into
  // the Invalid ways 0 then 1: [2,3,0,1]
  b.tfill(0, b.vpn(0x70, 16), 0, 0, 0x16, 1);
  b.tfill(0, b.vpn(0x71, 24), 0, 0, 0x24, 1);
  b.ifill(b.addr(1, s), pattern(b.p, 1));
  b.ifill(b.addr(2, s), pattern(b.p, 2));
  EXPECT_EQ(b.m.recency(s), order({2, 3, 0, 1}));
  b.in.tl_valid[0] = true;
  b.in.tl_vpn[0] = b.vpn(0x70, 16);
  EXPECT_TRUE(b.step().tl_ready[0]);  // A
  b.in.tl_valid[0] = false;
  for (unsigned k = 1; k <= 3; ++k) b.step();  // read, DEC, CMP 0
  // F0 in A+4+delay, F1 in A+5+delay, F2 (accepted) in A+6+delay
  if (f1_delay == 0) b.in.ifill_valid = true;
  b.in.ifill_addr = b.addr(3, s);
  b.step();  // A+4: CMP 1, the hit; the touch of way 2 registered
  EXPECT_TRUE(b.m.events().lookup_hit);
  EXPECT_EQ(b.m.recency(s), order({2, 3, 0, 1}));
  b.in.ifill_valid = true;
  b.step();  // A+5: the touch lands at its edge
  EXPECT_EQ(b.m.recency(s), order({3, 0, 1, 2}));
  const IcacheTxOut o = b.ifill_out(b.addr(3, s), pattern(b.p, 3));
  EXPECT_EQ(o.data_line & 7u, s);
  // with F1 = A+5 the accept cycle's state would give way 3: stale
  EXPECT_EQ(b.m.events().ifill_victim_stale, f1_delay == 0);
  return o.data_line >> 3;
}

TEST(IcacheTxPorts, EngineTouchLandsOneEdgeLateForTheVictimOfF1) {
  EXPECT_EQ(ifill_way_after_lookup_hit(0), 2u);
  EXPECT_EQ(ifill_way_after_lookup_hit(1), 3u);
}

// ---------------------------------------------------------------------------
// Ready rules and round-robin grants (aware1: S = 3)

TEST(IcacheTxGrant, RoundRobinAmongCus) {
  Bench b(load(kAware1));
  b.in.tl_resp_ready = true;
  for (unsigned c = 0; c < 3; ++c) {
    b.in.tl_valid[c] = true;
    b.in.tl_vpn[c] = b.vpn(c, c);  // Invalid lines: answered in A+2
  }
  // accepts in c0 (CU 0), c3 (CU 1), c6 (CU 2), c9 (CU 0): A, ISSUE A+1,
  // response A+2 (lk_ok = 0), consumed at A+2's edge.
  const unsigned acc[4] = {0, 3, 6, 9};
  const unsigned cu[4] = {0, 1, 2, 0};
  unsigned k = 0;
  for (unsigned c = 0; c < 12; ++c) {
    const IcacheTxOut o = b.step();
    std::vector<bool> want(3, false);
    if (k < 4 && c == acc[k]) want[cu[k]] = true;
    EXPECT_EQ(o.tl_ready, want) << "c" << c;
    if (k > 0 && c == acc[k - 1] + 2) {
      EXPECT_TRUE(o.tl_resp_valid);
      EXPECT_EQ(o.tl_resp_cu, cu[k - 1]);
    }
    if (k < 4 && c == acc[k]) ++k;
  }
  // pointer 1 now (after CU 0): valid {0, 2} -> CU 2
  b.in.tl_valid[1] = false;
  IcacheTxOut o = b.out();
  EXPECT_EQ(o.tl_ready, std::vector<bool>({false, false, true}));
  // no valid request: no grant, nothing ready (READING R1)
  for (unsigned c = 0; c < 3; ++c) b.in.tl_valid[c] = false;
  o = b.out();
  EXPECT_EQ(o.tl_ready, std::vector<bool>(3, false));
  EXPECT_EQ(o.tf_ready, std::vector<bool>(3, false));
  // fills: pointer 0: CU 0, then 1, 2, 0 (initialise: A, A+1, next accept A+2)
  for (unsigned c = 0; c < 3; ++c) {
    b.in.tf_valid[c] = true;
    b.in.tf_vpn[c] = b.vpn(0x10 + c, 8 + c);
  }
  const unsigned fcu[4] = {0, 1, 2, 0};
  for (unsigned f = 0; f < 4; ++f) {
    o = b.step();
    std::vector<bool> want(3, false);
    want[fcu[f]] = true;
    EXPECT_EQ(o.tf_ready, want) << f;
    o = b.step();
    EXPECT_EQ(o.tf_ready, std::vector<bool>(3, false));
  }
}

TEST(IcacheTxGrant, SingleCuIsAlwaysGranted) {
  Bench b(load(kNaive1));  // S = 1
  IcacheTxOut o = b.out();
  EXPECT_EQ(o.tl_ready, std::vector<bool>({true}));  // lk_ok, grant CU 0 (READING R1)
  EXPECT_EQ(o.tf_ready, std::vector<bool>({true}));  // no lookup valid
  b.in.tl_valid[0] = true;
  o = b.out();
  EXPECT_EQ(o.tf_ready, std::vector<bool>({false}));
}

TEST(IcacheTxGrant, PriorityFlushShootdownLookupFill) {
  Bench b(load(kSeed000));
  b.in.flush_valid = b.in.sd_valid = true;
  b.in.tl_valid[2] = b.in.tf_valid[1] = true;
  IcacheTxOut o = b.out();
  EXPECT_TRUE(o.flush_ready);
  EXPECT_FALSE(o.sd_ready);
  EXPECT_EQ(o.tl_ready, std::vector<bool>(4, false));
  EXPECT_EQ(o.tf_ready, std::vector<bool>(4, false));
  b.in.flush_valid = false;
  o = b.out();
  EXPECT_TRUE(o.sd_ready);
  EXPECT_EQ(o.tl_ready, std::vector<bool>(4, false));
  EXPECT_EQ(o.tf_ready, std::vector<bool>(4, false));
  b.in.sd_valid = false;
  o = b.out();
  EXPECT_EQ(o.tl_ready, std::vector<bool>({false, false, true, false}));
  EXPECT_EQ(o.tf_ready, std::vector<bool>(4, false));
  b.in.tl_valid[2] = false;
  o = b.out();
  EXPECT_EQ(o.tf_ready, std::vector<bool>({false, true, false, false}));
}

// ---------------------------------------------------------------------------
// Back-pressure

TEST(IcacheTxBackPressure, ResponseHoldsAndBlocksLookupsButNotFills) {
  Bench b(load(kAware1));
  b.in.tl_valid[1] = true;
  b.in.tl_vpn[1] = b.vpn(0x5, 3);
  b.step();  // A (CU 1)
  b.in.tl_valid[1] = false;
  b.step();
  for (unsigned k = 0; k < 4; ++k) {  // A+2..A+5: valid, not ready
    const IcacheTxOut o = b.step();
    EXPECT_TRUE(o.tl_resp_valid);
    EXPECT_EQ(o.tl_resp_cu, 1u);
    EXPECT_TRUE(b.m.events().resp_stalled);
  }
  // a lookup waits (lk_ok = 0), a fill goes through (tf_ok: ~(tl_valid & lk_ok))
  b.in.tl_valid[0] = true;
  b.in.tl_vpn[0] = b.vpn(0x6, 3);
  b.in.tf_valid[2] = true;
  b.in.tf_vpn[2] = b.vpn(0x7, 4);
  IcacheTxOut o = b.step();
  EXPECT_EQ(o.tl_ready, std::vector<bool>(3, false));
  EXPECT_EQ(o.tf_ready, std::vector<bool>({false, false, true}));
  b.in.tf_valid[2] = false;
  o = b.step();  // fill's initialise; the response still waits
  EXPECT_TRUE(o.tl_resp_valid);
  b.in.tl_resp_ready = true;
  o = b.step();  // consumed at this edge; engine idle but response valid: no lookup
  EXPECT_TRUE(o.tl_resp_valid);
  EXPECT_EQ(o.tl_ready, std::vector<bool>(3, false));
  b.in.tl_resp_ready = false;
  o = b.step();  // lookup of CU 0 accepted; old fields hold with valid low
  EXPECT_FALSE(o.tl_resp_valid);
  EXPECT_EQ(o.tl_resp_cu, 1u);
  EXPECT_EQ(o.tl_ready, std::vector<bool>({true, false, false}));
}

TEST(IcacheTxBackPressure, VictimHoldsTheEngine) {
  Bench b(load(kAware1));
  b.ifill(b.addr(1, 0), pattern(b.p, 1));  // line 0 IC
  b.in.tf_valid[0] = true;
  b.in.tf_vpn[0] = b.vpn(0x9, 0);
  b.step();
  b.in.tf_valid[0] = false;
  b.step();  // bypass
  b.in.sd_valid = true;
  b.in.flush_valid = false;
  for (unsigned k = 0; k < 5; ++k) {
    const IcacheTxOut o = b.step();
    EXPECT_TRUE(o.vic_valid);
    EXPECT_FALSE(o.sd_ready || o.flush_ready);
  }
  b.in.vic_ready = true;
  EXPECT_TRUE(b.step().vic_valid);
  EXPECT_TRUE(b.out().sd_ready);
}

// ---------------------------------------------------------------------------
// Reset

TEST(IcacheTxReset, ResetClearsTheControllerAndKeepsTheSrams) {
  Bench b(load(kSeed000));
  const Bits d = pattern(b.p, 5);
  b.ifill(b.addr(0x30, 7), d);
  b.tfill(0, b.vpn(0x40, 0x27), 0, 0, 0x5, 1);  // line 0x27 = {1, 7}
  const IcacheTxOut hit = b.fetch(b.addr(0x30, 7));
  EXPECT_TRUE(hit.if_resp_hit);
  b.in.tl_valid[0] = true;
  b.in.tl_vpn[0] = b.vpn(0x99, 3);
  b.step();
  b.in.tl_valid[0] = false;
  b.in.rst_n = false;
  IcacheTxOut o = b.step();
  EXPECT_TRUE(o.flush_ready && o.sd_ready && o.if_ready);
  EXPECT_FALSE(o.ifill_ready);  // fs = 0 in the reset state
  EXPECT_FALSE(o.tl_resp_valid || o.if_resp_valid || o.vic_valid);
  EXPECT_EQ(o.if_resp_data, d);  // the data SRAM's rdata has no reset
  b.in.rst_n = true;
  EXPECT_FALSE(b.step().tl_resp_valid);
  EXPECT_TRUE(b.m.idle());
  EXPECT_EQ(b.m.mode(0), Mode::Invalid);
  EXPECT_EQ(b.m.mode(0x27), Mode::Invalid);
  EXPECT_EQ(b.m.recency(7), order({0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(b.m.data_line(0x7), d);
  EXPECT_EQ(b.m.tag_entry(7, 0), bits_of(96, {0x30u}));
  EXPECT_FALSE(b.fetch(b.addr(0x30, 7)).if_resp_hit);
}

// An initialise registers its touch of set 0, way 2 at its edge; a reset at
// the next edge drops it ("reset makes it not valid"): nothing lands later.
TEST(IcacheTxReset, ResetDropsThePendingEngineTouch) {
  Bench b(load(kAware1));
  b.tfill(0, b.vpn(0x70, 16), 0, 0, 0x16, 1);
  EXPECT_EQ(b.m.recency(0), order({0, 1, 2, 3}));
  b.in.rst_n = false;
  b.step();
  b.in.rst_n = true;
  b.step();
  EXPECT_EQ(b.m.recency(0), order({0, 1, 2, 3}));
  EXPECT_EQ(b.m.mode(16), Mode::Invalid);
}

// ---------------------------------------------------------------------------
// Long random run with invariants

uint64_t base_seed() {
  const char* env = std::getenv("TXGEN_SEED");
  return env ? std::strtoull(env, nullptr, 0) : 20260301;
}

unsigned random_cycles(unsigned dflt) {
  const char* env = std::getenv("TXGEN_ICACHE_CYCLES");
  return env ? static_cast<unsigned>(std::strtoul(env, nullptr, 0)) : dflt;
}

struct Cov {
  std::map<std::string, uint64_t> n;
  void add(const IcacheTxEvents& e) {
#define COV(f) if (e.f) ++n[#f];
    COV(fetch_hit) COV(fetch_miss) COV(ifill_took_invalid) COV(ifill_evicted_tx) COV(ifill_evicted_ic)
    COV(ifill_evicted_ic_over_tx) COV(ifill_victim_stale) COV(flush) COV(flush_kept_tx) COV(lookup_miss_not_tx) COV(lookup_hit)
    COV(lookup_miss_tx) COV(lookup_hit_late_group) COV(fill_bypass_ic) COV(fill_init_invalid)
    COV(fill_init_over_ic) COV(fill_into_tx) COV(fill_replaced_same) COV(fill_evicted_lru) COV(fill_dropped)
    COV(clobbered) COV(engine_port_wait) COV(victim_out) COV(victim_stalled) COV(sd_all) COV(sd_vpn_hit)
    COV(sd_emptied_line) COV(resp_stalled)
#undef COV
  }
};

void run_random(const char* cfg, bool baseline, uint64_t seed, unsigned cycles, Cov& cov) {
  const IcacheTxParams p = load(cfg);
  SCOPED_TRACE(std::string(cfg) + (baseline ? " baseline" : "") + " seed " + std::to_string(seed));
  std::cout << "[ icache_tx random ] " << cfg << (baseline ? " (baseline)" : "") << " seed " << seed
            << " cycles " << cycles << std::endl;
  std::mt19937_64 rng(seed);
  auto chance = [&](double x) { return std::uniform_real_distribution<double>(0, 1)(rng) < x; };
  auto pick = [&](uint64_t n) { return rng() % n; };
  const bool aware = p.variant == config::IcacheVariant::Aware;
  const bool keep_tx_on_flush = !baseline && p.kernel_flush;

  IcacheTxModel m(p, baseline);
  IcacheTxIn in = IcacheTxIn::idle(p);
  const unsigned S = p.sharers;

  // instruction shadow: which line address each cache line holds as IC
  std::vector<int64_t> line_addr(p.lines, -1);
  std::map<uint64_t, unsigned> present;  // line address -> cache line
  std::map<uint64_t, Bits> last_data;    // line address -> data of its last fill
  std::deque<uint64_t> miss_q;
  auto drop_line = [&](unsigned l) {
    if (line_addr[l] >= 0) present.erase(static_cast<uint64_t>(line_addr[l]));
    line_addr[l] = -1;
  };
  // translation shadow
  struct TState {
    bool alive = false;
    uint64_t ppn = 0, perm = 0;
  };
  using Key = std::tuple<uint64_t, uint32_t, uint32_t>;
  std::map<Key, TState> tx;
  std::vector<Key> filled_keys;
  std::vector<Key> recent_fills;  // fills in acceptance order (bounded)
  std::vector<std::vector<Key>> keys_of_line(p.lines);
  // A fill accepted but not yet written (waiting in ISSUE, or between its
  // read and WRITE) is not in the line yet: an instruction fill taking the line
  // does not remove it. It is either written later (naive initialise over the
  // new IC line) or handed out as a victim (bypass, clobber), which the victim
  // check covers.
  std::optional<Key> pending_fill;
  auto kill_line = [&](unsigned l) {
    for (const Key& k : keys_of_line[l])
      if (!pending_fill || k != *pending_fill) tx[k].alive = false;
  };
  struct PendLookup {
    bool active = false, answered = false;
    unsigned cu = 0;
    bool alive = false;
    uint64_t ppn = 0, perm = 0;
  } pl;

  // fill stage shadow: 0 F0, 1 F1, 2 F2 (the document's fs)
  unsigned fs = 0;
  // fetch pipeline shadow
  struct F {
    bool valid = false;
    uint64_t la = 0;  // line address
    bool exp_hit = false;
  } f1, f2;

  // stimulus pools: two hot sets shared by instructions and translations
  const unsigned hot[2] = {0, 1};
  auto rand_addr = [&]() {
    const unsigned set = chance(0.9) ? hot[pick(2)] : static_cast<unsigned>(pick(p.sets));
    const uint64_t itag = 1 + pick(p.ways + 3);
    return (itag << (p.offset_bits + p.set_bits)) | (uint64_t{set} << p.offset_bits) | pick(64);
  };
  // translation VPNs: half on the instruction-hot sets, 40 % on two lines of
  // set 2 (few instructions go there) so that lines fill up, 10 % anywhere
  // (set 2 gets compatible tags: one prefix, ids 0, so that its lines fill up)
  bool last_vpn_quiet = false;
  auto rand_vpn = [&]() {
    unsigned set, way;
    const double r = std::uniform_real_distribution<double>(0, 1)(rng);
    if (r < 0.5) {
      set = hot[pick(2)];
      way = static_cast<unsigned>(pick(p.ways));
    } else if (r < 0.9) {
      set = 2;
      way = static_cast<unsigned>(pick(2));
    } else {
      set = static_cast<unsigned>(pick(p.sets));
      way = static_cast<unsigned>(pick(p.ways));
    }
    const uint64_t L = (uint64_t{way} << p.set_bits) | set;
    static const uint64_t bases[3] = {0x1230, 0x4560, 0x1238};
    last_vpn_quiet = set == 2;
    const unsigned b = chance(set == 2 ? 0.97 : 0.7) ? 0 : static_cast<unsigned>(1 + pick(2));
    const uint64_t high = bases[b] + pick(b == 0 ? 10 : 4);
    return (high << p.line_index_bits) | L;
  };
  // a key among the last 16 distinct keys filled
  auto recent_key = [&](const std::vector<Key>& keys) -> const Key& {
    const size_t n = std::min<size_t>(16, keys.size());
    return keys[keys.size() - 1 - pick(n)];
  };
  auto rand_id = [&](unsigned bits) { return static_cast<uint32_t>(chance(0.85) ? 0 : pick(uint64_t{1} << bits)); };

  const bool trace = std::getenv("TXGEN_ICACHE_TRACE") != nullptr;
  bool in_reset = false;
  unsigned reset_at = cycles / 2 + static_cast<unsigned>(pick(1000)), reset_len = 0;
  double if_rate = 0.3, tx_rate = 0.3;

  for (unsigned cyc = 0; cyc < cycles; ++cyc) {
    SCOPED_TRACE("cycle " + std::to_string(cyc));
    if (cyc % 2000 == 0) {
      // traffic phases: heavy instruction traffic starves the engine, light lets it through
      const unsigned ph = static_cast<unsigned>(pick(4));
      if_rate = ph == 0 ? 0.9 : ph == 1 ? 0.05 : 0.3;
      tx_rate = ph == 3 ? 0.8 : 0.3;
    }
    // ---- reset in the middle (inputs idle while it is held) ----
    if (cyc == reset_at && !baseline) {
      in_reset = true;
      reset_len = 3;
    }
    if (in_reset) {
      in = IcacheTxIn::idle(p);
      in.rst_n = false;
      const IcacheTxOut o = m.outputs(in);
      EXPECT_FALSE(o.tl_resp_valid || o.if_resp_valid || o.vic_valid || o.tag_en || o.data_en);
      m.posedge(in);
      std::fill(line_addr.begin(), line_addr.end(), -1);
      present.clear();
      miss_q.clear();
      for (auto& [k, st] : tx) st.alive = false;
      pl = PendLookup{};
      pending_fill.reset();
      fs = 0;
      f1 = F{};
      f2 = F{};
      if (--reset_len == 0) {
        in_reset = false;
        in.rst_n = true;
      }
      continue;
    }

    // ---- drive the inputs of this cycle (held requests keep their payload) ----
    in.if_valid = chance(if_rate);
    if (in.if_valid) in.if_addr = rand_addr();
    if (in.ifill_valid && chance(0.01)) {
      in.ifill_valid = false;  // withdrawn: forgotten; a later miss asks again
    } else if (!in.ifill_valid && !miss_q.empty() && chance(0.5)) {
      const uint64_t la = miss_q.front();
      miss_q.pop_front();
      if (!present.count(la)) {  // the fetch unit fills only lines it missed on
        in.ifill_valid = true;
        in.ifill_addr = (la << p.offset_bits) | pick(64);
        in.ifill_data = Bits(p.line_bits);
        for (auto& w : in.ifill_data.words) w = static_cast<uint32_t>(rng());
      }
    }
    // rare enough that a line of set 2 can fill up between flushes (without
    // kernel_flush a flush also empties the Tx lines)
    if (!in.flush_valid && chance(0.0008)) in.flush_valid = true;
    if (!baseline) {
      for (unsigned c = 0; c < S; ++c) {
        if (!in.tl_valid[c] && chance(tx_rate * 0.3)) {
          in.tl_valid[c] = true;
          if (!recent_fills.empty() && chance(0.8)) {
            const Key& k = recent_key(recent_fills);
            in.tl_vpn[c] = std::get<0>(k);
            in.tl_vmid[c] = std::get<1>(k);
            in.tl_vrf[c] = std::get<2>(k);
          } else {
            in.tl_vpn[c] = rand_vpn();
            in.tl_vmid[c] = rand_id(p.vmid_bits);
            in.tl_vrf[c] = rand_id(p.vrf_bits);
          }
        }
        if (!in.tf_valid[c] && chance(tx_rate * 0.3)) {
          in.tf_valid[c] = true;
          if (!recent_fills.empty() && chance(0.2)) {
            const Key& k = recent_key(recent_fills);
            in.tf_vpn[c] = std::get<0>(k);
            in.tf_vmid[c] = std::get<1>(k);
            in.tf_vrf[c] = std::get<2>(k);
          } else {
            in.tf_vpn[c] = rand_vpn();
            const bool quiet = last_vpn_quiet && chance(0.9);
            in.tf_vmid[c] = quiet ? 0 : rand_id(p.vmid_bits);
            in.tf_vrf[c] = quiet ? 0 : rand_id(p.vrf_bits);
          }
          in.tf_ppn[c] = rng() & mask(p.ppn_bits);
          in.tf_perm[c] = rng() & mask(p.perm_bits);
        }
      }
      if (!in.sd_valid && chance(0.004)) {
        in.sd_valid = true;
        in.sd_all = chance(0.2);
        if (!recent_fills.empty() && chance(0.8)) {
          const Key& k = recent_key(recent_fills);
          in.sd_vpn = std::get<0>(k);
          in.sd_vmid = std::get<1>(k);
        } else {
          in.sd_vpn = rand_vpn();
          in.sd_vmid = rand_id(p.vmid_bits);
        }
      }
      in.tl_resp_ready = chance(0.7);
      in.vic_ready = chance(0.7);
    }

    // ---- outputs and the invariants of this cycle ----
    std::vector<Mode> pre_mode(p.lines);
    for (unsigned l = 0; l < p.lines; ++l) pre_mode[l] = m.mode(l);
    const IcacheTxOut o = m.outputs(in);
    const bool s1 = f1.valid;
    const bool ifill_fire = in.ifill_valid && o.ifill_ready;
    const bool if_fire = in.if_valid && o.if_ready;
    EXPECT_EQ(o.ifill_ready, fs == 2 && !s1);
    EXPECT_EQ(o.if_ready, !ifill_fire);  // fetches are never delayed by translations
    // fetch response of the fetch accepted two cycles ago, exactly then
    EXPECT_EQ(o.if_resp_valid, f2.valid);
    if (f2.valid) {
      EXPECT_EQ(o.if_resp_hit, f2.exp_hit) << "line address " << f2.la;
      if (o.if_resp_hit) {
        EXPECT_EQ(o.if_resp_data, last_data[f2.la]);
      }
    }
    // SRAM port users
    const unsigned A = p.ways;
    if (ifill_fire) {
      EXPECT_TRUE(o.tag_en && o.tag_we && o.data_en && o.data_we);
      EXPECT_EQ(o.tag_set, (in.ifill_addr >> p.offset_bits) & mask(p.set_bits));
      EXPECT_EQ(o.data_line, ((o.data_line >> p.set_bits) << p.set_bits) | o.tag_set);
      EXPECT_EQ(o.tag_way_en, uint64_t{1} << (o.data_line >> p.set_bits));
      EXPECT_EQ(o.data_wdata, in.ifill_data);
    } else {
      if (if_fire) {
        EXPECT_TRUE(o.tag_en && !o.tag_we);
        EXPECT_EQ(o.tag_set, (in.if_addr >> p.offset_bits) & mask(p.set_bits));
        EXPECT_EQ(o.tag_way_en, mask(A));
      }
      if (s1) {
        EXPECT_EQ(o.data_en, f1.exp_hit);
      }
      if (s1 && o.data_en) {
        EXPECT_FALSE(o.data_we);
      }
    }
    const bool engine_tag = o.tag_en && !ifill_fire && !if_fire;
    const bool engine_data = o.data_en && !ifill_fire && !s1;
    if (engine_tag || engine_data) {
      EXPECT_TRUE(!baseline);
      // the port-free rule
      EXPECT_FALSE(in.if_valid || in.ifill_valid || s1);
    }
    const int64_t engine_write_line =
        engine_tag && o.tag_we ? static_cast<int64_t>((__builtin_ctzll(o.tag_way_en) << p.set_bits) | o.tag_set)
                               : -1;
    if (engine_tag && o.tag_we) {
      EXPECT_EQ(__builtin_popcountll(o.tag_way_en), 1);
    }
    if (engine_data && o.data_we) {
      EXPECT_EQ(static_cast<int64_t>(o.data_line), engine_write_line);
    }
    if (o.vic_valid) {
      const Key k{o.vic_vpn, o.vic_vmid, o.vic_vrf};
      auto it = tx.find(k);
      EXPECT_TRUE(it != tx.end()) << "victim of a key never filled";
      if (it != tx.end()) {
        EXPECT_EQ(o.vic_ppn, it->second.ppn);
        EXPECT_EQ(o.vic_perm, it->second.perm);
      }
    } else {
      EXPECT_EQ(o.vic_vpn | o.vic_ppn | o.vic_perm | o.vic_vmid | o.vic_vrf, 0u);
    }
    if (o.tl_resp_valid && pl.active && !pl.answered) {
      pl.answered = true;
      EXPECT_EQ(o.tl_resp_cu, pl.cu);
      if (o.tl_resp_hit) {
        EXPECT_TRUE(pl.alive) << "hit on a translation not in the cache";
        EXPECT_EQ(o.tl_resp_ppn, pl.ppn);
        EXPECT_EQ(o.tl_resp_perm, pl.perm);
      } else {
        EXPECT_EQ(o.tl_resp_ppn | o.tl_resp_perm, 0u);
      }
    }
    // at most one ready per class, and only to a valid requester (S > 1)
    for (unsigned c = 0; c < S; ++c) {
      if (S > 1 && o.tl_ready[c]) {
        EXPECT_TRUE(in.tl_valid[c]);
      }
      if (S > 1 && o.tf_ready[c]) {
        EXPECT_TRUE(in.tf_valid[c]);
      }
    }

    if (trace) {
      std::cout << "c" << cyc << (in.if_valid ? " if" : "") << (ifill_fire ? " IFILL line " + std::to_string(o.data_line) : "")
                << (in.flush_valid && o.flush_ready ? " FLUSH" : "") << (o.tag_en ? " tag" : "")
                << (o.tag_we ? "W set " + std::to_string(o.tag_set) + " ways " + std::to_string(o.tag_way_en) : "");
      for (unsigned c = 0; c < S; ++c) {
        if (in.tl_valid[c] && o.tl_ready[c]) std::cout << " LK cu" << c << " vpn " << std::hex << in.tl_vpn[c] << std::dec << " id " << in.tl_vmid[c] << in.tl_vrf[c];
        if (in.tf_valid[c] && o.tf_ready[c]) std::cout << " TF cu" << c << " vpn " << std::hex << in.tf_vpn[c] << " ppn " << in.tf_ppn[c] << std::dec << " id " << in.tf_vmid[c] << in.tf_vrf[c];
      }
      if (in.sd_valid && o.sd_ready) std::cout << " SD all " << in.sd_all << " vpn " << std::hex << in.sd_vpn << std::dec;
      if (o.vic_valid) std::cout << " vic " << std::hex << o.vic_vpn << " ppn " << o.vic_ppn << std::dec << (in.vic_ready ? " out" : "");
      if (o.tl_resp_valid) std::cout << " resp hit " << o.tl_resp_hit << " ppn " << std::hex << o.tl_resp_ppn << std::dec;
      std::cout << "\n";
    }
    // ---- the edge ----
    fs = !in.ifill_valid || ifill_fire ? 0 : std::min(fs + 1, 2u);
    m.posedge(in);
    cov.add(m.events());
    // no translation write on an IC line (naive's initialise replaces IC lines by design)
    if (engine_write_line >= 0 && pre_mode[static_cast<size_t>(engine_write_line)] == Mode::Ic) {
      EXPECT_TRUE(!aware && m.events().fill_init_over_ic) << "Tx write on IC line " << engine_write_line;
    }

    // ---- shadow updates for this edge ----
    // fetch pipeline
    if (f1.valid) {
      if (!f1.exp_hit) miss_q.push_back(f1.la);
    }
    f2 = f1;
    f1 = F{};
    if (if_fire) {
      f1.valid = true;
      f1.la = (in.if_addr & mask(p.va_bits)) >> p.offset_bits;
    }
    // mode changes: engine writes, flush, then the instruction fill; they come
    // before the requests accepted at this edge (those are only registered now)
    const bool flush_fire = in.flush_valid && o.flush_ready;
    if (engine_write_line >= 0) {
      drop_line(static_cast<unsigned>(engine_write_line));
      pending_fill.reset();  // the pending fill (if any) is written now
    }
    if (flush_fire) {
      for (unsigned l = 0; l < p.lines; ++l) drop_line(l);
      if (!keep_tx_on_flush)
        for (auto& [k, st] : tx) st.alive = false;
      in.flush_valid = false;
    }
    if (ifill_fire) {
      const unsigned l = o.data_line;
      const uint64_t la = (in.ifill_addr & mask(p.va_bits)) >> p.offset_bits;
      drop_line(l);
      line_addr[l] = static_cast<int64_t>(la);
      present[la] = l;
      last_data[la] = in.ifill_data;
      kill_line(l);
      in.ifill_valid = false;
    }
    // translation requests accepted at this edge
    if (!baseline) {
      if (in.sd_valid && o.sd_ready) {
        if (in.sd_all) {
          for (auto& [k, st] : tx) st.alive = false;
        } else {
          for (auto& [k, st] : tx)
            if (std::get<0>(k) == (in.sd_vpn & mask(p.vpn_bits)) && std::get<1>(k) == in.sd_vmid) st.alive = false;
        }
        in.sd_valid = false;
      }
      for (unsigned c = 0; c < S; ++c) {
        if (in.tl_valid[c] && o.tl_ready[c]) {
          const Key k{in.tl_vpn[c], in.tl_vmid[c], in.tl_vrf[c]};
          pl = PendLookup{};
          pl.active = true;
          pl.cu = c;
          auto it = tx.find(k);
          if (it != tx.end()) {
            pl.alive = it->second.alive;
            pl.ppn = it->second.ppn;
            pl.perm = it->second.perm;
          }
          in.tl_valid[c] = false;
        }
        if (in.tf_valid[c] && o.tf_ready[c]) {
          const Key k{in.tf_vpn[c], in.tf_vmid[c], in.tf_vrf[c]};
          if (!tx.count(k)) {
            filled_keys.push_back(k);
            keys_of_line[std::get<0>(k) & mask(p.line_index_bits)].push_back(k);
          }
          tx[k] = TState{true, in.tf_ppn[c], in.tf_perm[c]};
          pending_fill = k;
          recent_fills.push_back(k);
          if (recent_fills.size() > 64) recent_fills.erase(recent_fills.begin(), recent_fills.begin() + 32);
          in.tf_valid[c] = false;
        }
      }
      if (o.vic_valid && in.vic_ready) {
        const Key k{o.vic_vpn, o.vic_vmid, o.vic_vrf};
        tx[k].alive = false;
        if (pending_fill && *pending_fill == k) pending_fill.reset();
      }
      if (o.tl_resp_valid && in.tl_resp_ready) pl.active = false;
    }
    // the hit expected in I1 (next cycle): present after this edge
    if (f1.valid) f1.exp_hit = present.count(f1.la) != 0;
    // shadow mode check: every present line is IC in the model
    if ((cyc & 255) == 0) {
      for (unsigned l = 0; l < p.lines; ++l) {
        if (line_addr[l] >= 0) {
          EXPECT_EQ(m.mode(l), Mode::Ic) << "line " << l;
        }
        if (line_addr[l] < 0) {
          EXPECT_NE(m.mode(l), Mode::Ic) << "line " << l;
        }
      }
    }
    if (::testing::Test::HasFailure()) {
      std::cout << "stopping at cycle " << cyc << std::endl;
      return;
    }
  }
}

void expect_cov(const Cov& cov, std::initializer_list<const char*> names) {
  for (const char* n : names) {
    auto it = cov.n.find(n);
    EXPECT_TRUE(it != cov.n.end() && it->second > 0) << "coverage " << n << " never hit";
  }
}

void print_cov(const Cov& cov) {
  for (const auto& [k, v] : cov.n) std::cout << "  " << k << " " << v << "\n";
}

class IcacheTxRandom : public ::testing::TestWithParam<const char*> {};

TEST_P(IcacheTxRandom, InvariantsHoldUnderRandomTraffic) {
  const IcacheTxParams p = load(GetParam());
  Cov cov;
  run_random(GetParam(), false, base_seed(), random_cycles(300000), cov);
  print_cov(cov);
  expect_cov(cov, {"fetch_hit", "fetch_miss", "ifill_took_invalid", "ifill_evicted_ic", "ifill_evicted_tx",
                   "flush", "lookup_miss_not_tx", "lookup_hit", "lookup_miss_tx", "engine_port_wait",
                   "victim_out", "victim_stalled", "sd_all", "sd_vpn_hit", "sd_emptied_line", "resp_stalled",
                   "clobbered", "ifill_victim_stale"});
  if (p.variant == config::IcacheVariant::Aware) expect_cov(cov, {"fill_bypass_ic", "fill_init_invalid"});
  else expect_cov(cov, {"fill_init_over_ic", "ifill_evicted_ic_over_tx"});
  if (p.tx_per_line > 1) expect_cov(cov, {"fill_into_tx", "fill_replaced_same", "fill_evicted_lru", "fill_dropped"});
  if (p.groups > 1) expect_cov(cov, {"lookup_hit_late_group"});
  if (p.kernel_flush) expect_cov(cov, {"flush_kept_tx"});
}

TEST_P(IcacheTxRandom, BaselineInvariantsHoldUnderRandomTraffic) {
  Cov cov;
  run_random(GetParam(), true, base_seed() + 1, random_cycles(300000) / 3, cov);
  expect_cov(cov, {"fetch_hit", "fetch_miss", "ifill_took_invalid", "ifill_evicted_ic", "flush", "ifill_victim_stale"});
}

INSTANTIATE_TEST_SUITE_P(Configs, IcacheTxRandom,
                         ::testing::Values(kSeed000, k32k4w, kNaive1, kAware1, kSmall),
                         [](const ::testing::TestParamInfo<const char*>& pi) {
                           std::string s = pi.param;
                           s = s.substr(s.find_last_of('/') + 1);
                           s = s.substr(0, s.find('.'));
                           for (char& ch : s)
                             if (!isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return s;
                         });

}  // namespace
}  // namespace txgen::model
