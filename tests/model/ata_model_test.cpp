// Unit tests of the golden ata model (docs/blocks/ata.md).
// Configurations are read from tests/configs/ata_*.json and
// configs/seed003_table2.json through the configuration parser and the
// elaboration (widths only). Every expected cycle and value below is worked
// out by hand from the document in the comments (never read back from the
// model).
//
// Cycle numbering: "cN" is the N-th cycle after construction (c0 first);
// "edge N" is the rising edge that ends cN; a register written at edge N is
// visible from c(N+1). In the tests, t is the cycle in which a request is
// accepted (req_valid & req_ready). Recurring facts of the document:
//  - accepted in t: CMP in t+1, DIST in t+2 (hv, way, lm visible from t+2);
//  - local hit: LREAD in t+3, granted at edge t+3 -> op 0 on port i and
//    resp_valid (src 0) in t+4;
//  - remote hit: RREAD in t+3 (recheck in t+3), granted at edge t+3 -> op 1 on
//    port rj in t+4; FILL in t+4 -> op 3 on port i and resp (src 1) in t+5;
//  - L2 path: L2REQ from t+3 (l2_req_valid); read handshake in h -> L2WAIT
//    from h+1; l2_resp_valid in r -> FILL in r+1 -> op 3 and resp (src 2) in
//    r+2; write handshake in h: miss -> resp (src 2) in h+1; hit -> LWRITE in
//    h+1 -> op 2 and resp (src 0) in h+2.
// The bench's L2 answers a read `lat` cycles after its handshake (default 2:
// handshake t+3, answer t+5, FILL t+6, response t+7 for an uncontended miss).
//
// Configurations (by the document's formulas):
//  ata_n2:      N 2, S 512/(32*4) = 4, W 4, LB 32, SBY 8, SC 4, A 16, OB 5,
//               XB 2, SB 2, TG 9, lru, nearest.
//  ata_n4:      N 4, S 4096/(64*16) = 4, W 16, LB 64, SBY 16, SC 4, A 20, OB 6,
//               XB 2, SB 2, TG 12, lru, round_robin.
//  ata_n3_plru: N 3, S 1024/(32*8) = 4, W 8, LB 32, SC 1, A 18, OB 5, XB 0,
//               SB 2, TG 11, plru, nearest.
//  ata_private: N 4, S 4, W 8, LB 32, SBY 8, SC 4, A 16, lru, private.
//  seed003_table2: N 10, S 65536/(128*64) = 8, W 64, LB 128, SBY 32, SC 4,
//               A 40, OB 7, XB 2, SB 3, TG 30, CI 4, WB 6.
#include "model/ata.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <limits>
#include <new>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "txgen/config/parse.h"
#include "txgen/elab/ata.h"

// Counts heap allocations so that a test can check that the per-cycle work
// (outputs into a sized struct, posedge) allocates nothing.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif
static long g_allocs = 0;
void* operator new(std::size_t n) {
  ++g_allocs;
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace txgen::model {
namespace {

using elab::AtaParams;

constexpr unsigned kNever = std::numeric_limits<unsigned>::max();

// ---------------------------------------------------------------------------
// Configurations

const char* const kN2 = "tests/configs/ata_n2.json";
const char* const kN4 = "tests/configs/ata_n4.json";
const char* const kN3Plru = "tests/configs/ata_n3_plru.json";
const char* const kPrivate = "tests/configs/ata_private.json";
const char* const kTable2 = "configs/seed003_table2.json";

AtaParams load(const char* rel, const std::function<void(config::AtaConfig&)>& edit = {}) {
  config::Config cfg = config::load_config_file(std::string(TXGEN_SOURCE_DIR) + "/" + rel);
  if (edit) edit(*cfg.ata);
  return elab::elaborate_ata(cfg);
}

// Byte address of (tag, set, sector) by the document's field split (the
// test's own formula, not the model's).
uint64_t addr(const AtaParams& p, uint64_t tag, unsigned set, unsigned sector) {
  return (tag << (p.offset_bits + p.set_bits)) | (uint64_t{set} << p.offset_bits) |
         (uint64_t{sector} * p.sector_bytes);
}

// ---------------------------------------------------------------------------
// Bench: one model, the inputs of the current cycle, an L2 that takes a
// request when ready[i] and answers a read lat[i] cycles after its handshake,
// logs of every accept, response, command and L2 handshake, and (by default)
// the outputs and events of every cycle.

struct Cmd {
  unsigned cyc, port, op, set, way, sector, core;
};
struct Resp {
  unsigned cyc, core, src;
};
struct Hs {
  unsigned cyc, core;
  bool write;
  uint64_t addr;
};

struct Bench {
  explicit Bench(const AtaParams& prm, bool keep = true)
      : p(prm), m(prm), in(m.idle_inputs()), out(m.make_outputs()), ready(prm.cores, 1), lat(prm.cores, 2),
        due(prm.cores, kNever), keep_hist(keep) {}
  AtaParams p;
  AtaModel m;
  AtaIn in;
  AtaOut out;
  unsigned cyc = 0;
  std::vector<uint8_t> ready;   // l2_req_ready per core (persistent)
  std::vector<unsigned> lat;    // L2 read latency per core
  std::vector<unsigned> due;    // cycle of the pending L2 answer per core
  bool keep_hist;
  std::vector<AtaOut> hist;     // outputs of cycle c
  std::vector<AtaEvents> ev;    // events of edge c
  std::vector<Cmd> cmds;
  std::vector<Resp> resps;
  std::vector<Hs> hs;
  std::vector<unsigned> accepts_at;  // per accept: cycle * 64 + core (for tests that need it)

  void req(unsigned i, uint64_t a, bool write = false) {
    in.req_valid[i] = 1;
    in.req_write[i] = write;
    in.req_addr[i] = a;
  }
  void step() {
    for (unsigned i = 0; i < p.cores; ++i) {
      in.l2_req_ready[i] = ready[i];
      in.l2_resp_valid[i] = (in.rst_n && due[i] == cyc) ? 1 : 0;
    }
    m.outputs(in, out);
    if (keep_hist) hist.push_back(out);
    std::vector<uint8_t> acc(p.cores, 0);
    for (unsigned i = 0; i < p.cores; ++i) {
      if (!in.rst_n) continue;
      if (in.req_valid[i] && out.req_ready[i]) {
        acc[i] = 1;
        accepts_at.push_back(cyc * 64 + i);
      }
      if (out.resp_valid[i]) resps.push_back({cyc, i, out.resp_src[i]});
      if (out.da_valid[i])
        cmds.push_back({cyc, i, out.da_op[i], out.da_set[i], out.da_way[i], out.da_sector[i], out.da_core[i]});
      if (out.l2_req_valid[i] && in.l2_req_ready[i]) {
        hs.push_back({cyc, i, out.l2_req_write[i] != 0, out.l2_req_addr[i]});
        if (!out.l2_req_write[i]) due[i] = cyc + lat[i];
      }
    }
    m.posedge(in);
    if (keep_hist) ev.push_back(m.events());
    for (unsigned i = 0; i < p.cores; ++i) {
      if (acc[i] || !in.rst_n) in.req_valid[i] = 0;
      if (in.l2_resp_valid[i] || !in.rst_n) due[i] = kNever;
    }
    ++cyc;
  }
  void run(unsigned n) {
    for (unsigned k = 0; k < n; ++k) step();
  }
  void run_to(unsigned c) {
    while (cyc < c) step();
  }
  bool idle() const {
    for (unsigned i = 0; i < p.cores; ++i)
      if (in.req_valid[i] || m.state(i) != AtaState::Idle) return false;
    return true;
  }
  void drain(unsigned max = 2000) {
    for (unsigned k = 0; k < max && !idle(); ++k) step();
    ASSERT_TRUE(idle()) << "bench did not drain";
  }
  // Issues a request of core i now and runs until its response; returns it.
  Resp access(unsigned i, uint64_t a, bool write = false) {
    req(i, a, write);
    const size_t n0 = resps.size();
    for (unsigned k = 0; k < 2000; ++k) {
      step();
      for (size_t r = n0; r < resps.size(); ++r)
        if (resps[r].core == i) return resps[r];
    }
    ADD_FAILURE() << "no response for core " << i;
    return {0, i, 99};
  }
  Resp read(unsigned i, uint64_t a) { return access(i, a, false); }
  Resp write(unsigned i, uint64_t a) { return access(i, a, true); }

  const Cmd* cmd_at(unsigned c, unsigned port) const {
    for (const Cmd& x : cmds)
      if (x.cyc == c && x.port == port) return &x;
    return nullptr;
  }
  unsigned cmds_on(unsigned port, unsigned from, unsigned to) const {  // [from, to]
    unsigned n = 0;
    for (const Cmd& x : cmds) n += (x.port == port && x.cyc >= from && x.cyc <= to) ? 1 : 0;
    return n;
  }
  unsigned cmds_op(unsigned op, unsigned from = 0, unsigned to = kNever) const {
    unsigned n = 0;
    for (const Cmd& x : cmds) n += (x.op == op && x.cyc >= from && x.cyc <= to) ? 1 : 0;
    return n;
  }
  const Resp* resp_of(unsigned core, unsigned from) const {  // first response of core at or after from
    for (const Resp& x : resps)
      if (x.core == core && x.cyc >= from) return &x;
    return nullptr;
  }
  unsigned resps_of(unsigned core, unsigned from, unsigned to) const {
    unsigned n = 0;
    for (const Resp& x : resps) n += (x.core == core && x.cyc >= from && x.cyc <= to) ? 1 : 0;
    return n;
  }
  unsigned hs_of(unsigned core, unsigned from, unsigned to) const {
    unsigned n = 0;
    for (const Hs& x : hs) n += (x.core == core && x.cyc >= from && x.cyc <= to) ? 1 : 0;
    return n;
  }
};

::testing::AssertionResult cmd_is(const Bench& b, unsigned c, unsigned port, unsigned op, unsigned set, unsigned way,
                                  unsigned sector, unsigned core) {
  const Cmd* x = b.cmd_at(c, port);
  if (!x) return ::testing::AssertionFailure() << "no command on port " << port << " in c" << c;
  if (x->op != op || x->set != set || x->way != way || x->sector != sector || x->core != core)
    return ::testing::AssertionFailure() << "port " << port << " c" << c << ": got op " << x->op << " set " << x->set
                                         << " way " << x->way << " sector " << x->sector << " core " << x->core
                                         << ", expected op " << op << " set " << set << " way " << way
                                         << " sector " << sector << " core " << core;
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult resp_is(const Bench& b, unsigned c, unsigned core, unsigned src) {
  for (const Resp& x : b.resps)
    if (x.core == core && x.cyc == c) {
      if (x.src != src)
        return ::testing::AssertionFailure() << "core " << core << " c" << c << ": src " << x.src << ", expected "
                                             << src;
      return ::testing::AssertionSuccess();
    }
  return ::testing::AssertionFailure() << "no response of core " << core << " in c" << c;
}

// Lets a few idle cycles pass so that the next request starts clean.
void settle(Bench& b) {
  b.drain();
  b.run(2);
}

// ---------------------------------------------------------------------------
// Elaboration sanity (the widths the tests rely on).

TEST(AtaModel, ConfigurationsElaborateAsWorkedOut) {
  const AtaParams n2 = load(kN2);
  EXPECT_EQ(n2.cores, 2u);
  EXPECT_EQ(n2.sets, 4u);
  EXPECT_EQ(n2.sectors, 4u);
  EXPECT_EQ(n2.tag_bits, 9u);
  const AtaParams n4 = load(kN4);
  EXPECT_EQ(n4.sets, 4u);
  EXPECT_EQ(n4.ways, 16u);
  EXPECT_EQ(n4.tag_bits, 12u);
  EXPECT_TRUE(n4.round_robin());
  const AtaParams n3 = load(kN3Plru);
  EXPECT_EQ(n3.sectors, 1u);
  EXPECT_EQ(n3.sector_bits, 0u);
  EXPECT_TRUE(n3.plru());
  const AtaParams pr = load(kPrivate);
  EXPECT_FALSE(pr.aggregated());
  const AtaParams t2 = load(kTable2);
  EXPECT_EQ(t2.cores, 10u);
  EXPECT_EQ(t2.sets, 8u);
  EXPECT_EQ(t2.tag_bits, 30u);
  EXPECT_EQ(t2.core_bits, 4u);
  AtaModel m(n2);
  const uint64_t a = addr(n2, 0x1a5, 2, 3) | 5;  // bits below the sector are ignored
  EXPECT_EQ(m.tag_of(a), 0x1a5u);
  EXPECT_EQ(m.set_of(a), 2u);
  EXPECT_EQ(m.sector_of(a), 3u);
}

// Reset values of every output and register.
TEST(AtaModel, ResetValues) {
  const AtaParams p = load(kN4);
  AtaModel m(p);
  AtaIn in = m.idle_inputs();
  AtaOut o = m.outputs(in);
  for (unsigned i = 0; i < p.cores; ++i) {
    EXPECT_EQ(o.req_ready[i], 1);
    EXPECT_EQ(o.resp_valid[i] | o.resp_src[i] | o.da_valid[i] | o.da_op[i] | o.l2_req_valid[i] | o.l2_req_write[i], 0);
    EXPECT_EQ(o.da_set[i] | o.da_way[i] | o.da_sector[i] | o.da_core[i], 0u);
    EXPECT_EQ(o.l2_req_addr[i], 0u);
    EXPECT_EQ(m.state(i), AtaState::Idle);
    EXPECT_EQ(m.pr(i), 0u);
    EXPECT_EQ(m.rp(i), 0u);
  }
  for (unsigned j = 0; j < p.cores; ++j)
    for (unsigned s = 0; s < p.sets; ++s)
      for (unsigned w = 0; w < p.ways; ++w) {
        EXPECT_FALSE(m.entry_valid(j, s, w));
        EXPECT_EQ(m.age(j, s, w), p.ways - 1 - w);
      }
}

// ---------------------------------------------------------------------------
// Fig. 6: two cores, Req-1 (core 0) to set 0 tag A, Req-2 (core 1) to set 1
// tag B; A is in array 0 only, B in both arrays. Compared in one cycle:
// hv(core 0) = [1,0], hv(core 1) = [1,1].

TEST(AtaModel, Fig6TwoRequestsComparedInOneCycle) {
  const AtaParams p = load(kN2);
  Bench b(p);
  const uint64_t A = addr(p, 5, 0, 1), B = addr(p, 9, 1, 2);
  // Preparation: core 0 misses A and B (L2 fills: array 0 set 0 way 0, set 1
  // way 0); core 1 reads B, found in array 0 -> remote read, filled into array
  // 1 set 1 way 0.
  EXPECT_EQ(b.read(0, A).src, kAtaSrcL2);
  EXPECT_EQ(b.read(0, B).src, kAtaSrcL2);
  EXPECT_EQ(b.read(1, B).src, kAtaSrcRemote);
  settle(b);
  ASSERT_EQ(b.m.find(0, A), 0);
  ASSERT_EQ(b.m.find(1, A), -1);
  ASSERT_EQ(b.m.find(0, B), 0);
  ASSERT_EQ(b.m.find(1, B), 0);

  const unsigned t = b.cyc;
  b.req(0, A);
  b.req(1, B);
  b.step();  // t: both accepted
  EXPECT_TRUE(b.hist[t].req_ready[0] && b.hist[t].req_ready[1]);
  EXPECT_EQ(b.m.state(0), AtaState::Cmp);  // t+1: both compare in one cycle
  EXPECT_EQ(b.m.state(1), AtaState::Cmp);
  b.step();  // edge t+1: compare results registered
  EXPECT_EQ(b.m.hv(0), 0b01u);  // [1,0]: array 0 hit, array 1 miss
  EXPECT_EQ(b.m.hv(1), 0b11u);  // [1,1]
  EXPECT_EQ(b.m.way(0, 0), 0u);
  EXPECT_EQ(b.m.way(1, 0), 0u);
  EXPECT_EQ(b.m.way(1, 1), 0u);
  EXPECT_TRUE(b.m.lm(0) && b.m.lm(1));
  b.run_to(t + 6);
  // Both local (local first): op 0 on each core's own port and responses in t+4.
  EXPECT_TRUE(cmd_is(b, t + 4, 0, kAtaOpLocalRead, 0, 0, 1, 0));
  EXPECT_TRUE(cmd_is(b, t + 4, 1, kAtaOpLocalRead, 1, 0, 2, 1));
  EXPECT_TRUE(resp_is(b, t + 4, 0, kAtaSrcLocal));
  EXPECT_TRUE(resp_is(b, t + 4, 1, kAtaSrcLocal));
  EXPECT_EQ(b.cmds_on(0, t, t + 5), 1u);
  EXPECT_EQ(b.cmds_on(1, t, t + 5), 1u);
}

// Fig. 7(a): core 0 misses locally, array 1 holds the sector: remote read on
// port 1, then the fill into array 0.
TEST(AtaModel, Fig7aRemoteHitFilledLocally) {
  const AtaParams p = load(kN2);
  Bench b(p);
  const uint64_t A = addr(p, 3, 2, 3);
  EXPECT_EQ(b.read(1, A).src, kAtaSrcL2);  // array 1 set 2 way 0, sv = {3}
  b.read(1, addr(p, 4, 2, 0));             // way 1: ages [1,0,3,2], A is not the MRU way
  settle(b);
  ASSERT_EQ(b.m.find(1, A), 0);
  ASSERT_EQ(b.m.age(1, 2, 0), 1u);
  unsigned age1[4];
  for (unsigned w = 0; w < 4; ++w) age1[w] = b.m.age(1, 2, w);
  const uint64_t tag1 = b.m.entry_tag(1, 2, 0);
  const unsigned sv1 = b.m.entry_sv(1, 2, 0);

  const unsigned t = b.cyc;
  b.req(0, A);
  b.run_to(t + 8);
  EXPECT_TRUE(b.hist[t].req_ready[0]);               // accepted in t
  EXPECT_EQ(b.hist[t + 1].req_ready[0], 0);
  EXPECT_TRUE(b.ev[t + 2].remote_hit);               // DIST (t+2) -> RREAD
  EXPECT_FALSE(b.ev[t + 2].remote_pick_multi);
  // op 1 on port rj = 1 in t+4: set 2, way 0 of array 1, sector 3, for core 0.
  EXPECT_TRUE(cmd_is(b, t + 4, 1, kAtaOpRemoteRead, 2, 0, 3, 0));
  // op 3 on port 0 in t+5: the victim of array 0 set 2 is the invalid way 0.
  EXPECT_TRUE(cmd_is(b, t + 5, 0, kAtaOpFill, 2, 0, 3, 0));
  EXPECT_TRUE(resp_is(b, t + 5, 0, kAtaSrcRemote));
  EXPECT_EQ(b.cmds_on(0, t, t + 4), 0u);
  EXPECT_EQ(b.cmds_on(1, t + 5, t + 7), 0u);
  EXPECT_EQ(b.resps_of(0, t, t + 7), 1u);
  EXPECT_EQ(b.hs_of(0, t, t + 7), 0u);  // no L2 request
  // Registered outputs hold after their pulse.
  const AtaOut& o6 = b.hist[t + 6];
  EXPECT_EQ(o6.resp_valid[0], 0);
  EXPECT_EQ(o6.resp_src[0], kAtaSrcRemote);
  EXPECT_EQ(o6.da_valid[0], 0);
  EXPECT_EQ(o6.da_op[0], kAtaOpFill);
  EXPECT_EQ(o6.da_set[0], 2u);
  EXPECT_EQ(o6.da_sector[0], 3u);
  EXPECT_EQ(o6.da_valid[1], 0);
  EXPECT_EQ(o6.da_op[1], kAtaOpRemoteRead);
  EXPECT_EQ(o6.da_core[1], 0u);
  EXPECT_EQ(b.hist[t + 5].da_valid[1], 0);
  EXPECT_EQ(b.hist[t + 5].da_op[1], kAtaOpRemoteRead);  // held from t+4
  // Array 0 now holds the line with sector 3 only, clean.
  EXPECT_TRUE(b.m.entry_valid(0, 2, 0));
  EXPECT_EQ(b.m.entry_tag(0, 2, 0), 3u);
  EXPECT_EQ(b.m.entry_sv(0, 2, 0), 1u << 3);
  EXPECT_FALSE(b.m.entry_dirty(0, 2, 0));
  // The remote read changed nothing in array 1 (no touch).
  for (unsigned w = 0; w < 4; ++w) EXPECT_EQ(b.m.age(1, 2, w), age1[w]);
  EXPECT_EQ(b.m.entry_tag(1, 2, 0), tag1);
  EXPECT_EQ(b.m.entry_sv(1, 2, 0), sv1);
  EXPECT_EQ(b.m.stats().remote_hits, 1u);
}

// Fig. 7(b): the sector is in both arrays; core 0 reads its local copy.
TEST(AtaModel, Fig7bLocalPriority) {
  const AtaParams p = load(kN2);
  Bench b(p);
  const uint64_t B = addr(p, 0x44, 3, 1);
  EXPECT_EQ(b.read(0, B).src, kAtaSrcL2);      // array 0 set 3 way 0
  EXPECT_EQ(b.read(1, B).src, kAtaSrcRemote);  // array 1 set 3 way 0
  settle(b);
  const unsigned t = b.cyc;
  b.req(0, B);
  b.run_to(t + 7);
  EXPECT_EQ(b.hist[t + 2].req_ready[0], 0);
  EXPECT_TRUE(b.ev[t + 2].local_hit);
  EXPECT_TRUE(b.ev[t + 2].local_hit_with_remote);
  EXPECT_TRUE(cmd_is(b, t + 4, 0, kAtaOpLocalRead, 3, 0, 1, 0));
  EXPECT_TRUE(resp_is(b, t + 4, 0, kAtaSrcLocal));
  EXPECT_EQ(b.cmds_on(1, t, t + 6), 0u);  // the remote copy is not read
  EXPECT_EQ(b.cmds_on(0, t, t + 6), 1u);
}

// Fig. 7(c): no array holds the line: L2 read, then the fill.
TEST(AtaModel, Fig7cAllMissL2ThenFill) {
  const AtaParams p = load(kN2);
  Bench b(p);
  b.lat[0] = 3;
  const uint64_t C = addr(p, 0x1ff, 1, 2) | 3;  // offset bits inside the sector set
  const unsigned t = b.cyc;
  b.req(0, C);
  b.run_to(t + 10);
  // l2_req_valid from t+3 with the full request address; handshake in t+3.
  for (unsigned c = t; c < t + 3; ++c) EXPECT_EQ(b.hist[c].l2_req_valid[0], 0) << "c" << c;
  EXPECT_EQ(b.hist[t + 3].l2_req_valid[0], 1);
  EXPECT_EQ(b.hist[t + 3].l2_req_write[0], 0);
  EXPECT_EQ(b.hist[t + 3].l2_req_addr[0], C);
  EXPECT_EQ(b.hist[t + 4].l2_req_valid[0], 0);
  EXPECT_EQ(b.hist[t + 4].l2_req_addr[0], C);  // the request register in every state
  ASSERT_EQ(b.hs.size(), 1u);
  EXPECT_EQ(b.hs[0].cyc, t + 3);
  EXPECT_TRUE(b.ev[t + 3].l2_read);
  // L2 answer in t+6 (3 after the handshake): FILL in t+7, op 3 and resp in t+8.
  EXPECT_EQ(b.m.state(0), AtaState::Idle);
  EXPECT_TRUE(cmd_is(b, t + 8, 0, kAtaOpFill, 1, 0, 2, 0));
  EXPECT_TRUE(resp_is(b, t + 8, 0, kAtaSrcL2));
  EXPECT_EQ(b.resps_of(0, t, t + 9), 1u);
  EXPECT_EQ(b.cmds_on(0, t, t + 7), 0u);
  EXPECT_EQ(b.cmds_on(1, t, t + 9), 0u);
  EXPECT_TRUE(b.m.entry_valid(0, 1, 0));
  EXPECT_EQ(b.m.entry_tag(0, 1, 0), 0x1ffu);
  EXPECT_EQ(b.m.entry_sv(0, 1, 0), 1u << 2);
}

// Sector miss on a present line: the sector is filled into the same way, no
// eviction even when the line is the LRU victim; then the same with the
// sector coming from a remote array.
TEST(AtaModel, SectorMissFillsPresentLine) {
  const AtaParams p = load(kN2);
  Bench b(p);
  const unsigned s = 3;
  const uint64_t A0 = addr(p, 7, s, 0), A1 = addr(p, 7, s, 1), A2 = addr(p, 7, s, 2);
  // Array 0 set 3: A (way 0, sector 0), B, C, D (ways 1-3). Ages after the
  // four fills: [3,2,1,0] -> the LRU victim is way 0 (A).
  b.read(0, A0);
  b.read(0, addr(p, 8, s, 0));
  b.read(0, addr(p, 9, s, 0));
  b.read(0, addr(p, 10, s, 0));
  settle(b);
  ASSERT_EQ(b.m.find(0, A0), 0);
  ASSERT_EQ(b.m.victim(0, s), 0u);
  const unsigned t = b.cyc;
  b.req(0, A2);
  b.run_to(t + 9);
  EXPECT_FALSE(b.m.hv(0) & 1u);  // registered at edge t+1: sector 2 absent
  EXPECT_TRUE(b.m.lm(0));
  EXPECT_EQ(b.m.lway(0), 0u);
  EXPECT_EQ(b.hist[t + 3].l2_req_valid[0], 1);
  // L2 handshake t+3, answer t+5, FILL t+6, op 3 into way 0 (lway) in t+7.
  EXPECT_TRUE(cmd_is(b, t + 7, 0, kAtaOpFill, s, 0, 2, 0));
  EXPECT_TRUE(resp_is(b, t + 7, 0, kAtaSrcL2));
  EXPECT_TRUE(b.ev[t + 6].sector_fill);
  EXPECT_FALSE(b.ev[t + 6].victim_invalid || b.ev[t + 6].victim_replacement);
  EXPECT_EQ(b.m.entry_sv(0, s, 0), 0b0101u);
  EXPECT_EQ(b.m.entry_tag(0, s, 0), 7u);
  for (unsigned w = 1; w < 4; ++w) EXPECT_EQ(b.m.entry_tag(0, s, w), 7u + w);  // nothing evicted
  // touch(way 0): ages [0,3,2,1].
  EXPECT_EQ(b.m.age(0, s, 0), 0u);
  EXPECT_EQ(b.m.age(0, s, 1), 3u);
  EXPECT_EQ(b.m.age(0, s, 2), 2u);
  EXPECT_EQ(b.m.age(0, s, 3), 1u);

  // Core 1 reads A sector 1: array 0 has sectors {0,2} only -> no holder -> L2.
  EXPECT_EQ(b.read(1, A1).src, kAtaSrcL2);
  settle(b);
  // Core 0 reads A sector 1: lm (way 0), hv = [0,1] -> remote read, then the
  // sector fill into way 0.
  const unsigned t2 = b.cyc;
  b.req(0, A1);
  b.run_to(t2 + 7);
  EXPECT_EQ(b.m.hv(0), 0b10u);
  EXPECT_TRUE(cmd_is(b, t2 + 4, 1, kAtaOpRemoteRead, s, 0, 1, 0));
  EXPECT_TRUE(cmd_is(b, t2 + 5, 0, kAtaOpFill, s, 0, 1, 0));
  EXPECT_TRUE(resp_is(b, t2 + 5, 0, kAtaSrcRemote));
  EXPECT_TRUE(b.ev[t2 + 4].sector_fill);
  EXPECT_EQ(b.m.entry_sv(0, s, 0), 0b0111u);
}

// A sector fill into a dirty present line keeps the dirty bit (reading 3):
// the line stays excluded for other cores' reads of any of its sectors.
TEST(AtaModel, SectorFillKeepsDirty) {
  const AtaParams p = load(kN2);
  Bench b(p);
  const uint64_t A0 = addr(p, 0x66, 2, 0), A3 = addr(p, 0x66, 2, 3);
  b.read(1, A0);
  EXPECT_EQ(b.write(1, A0).src, kAtaSrcLocal);
  settle(b);
  ASSERT_TRUE(b.m.entry_dirty(1, 2, 0));
  const unsigned t = b.cyc;
  b.req(1, A3);  // lm, sector 3 absent: L2, sector fill at edge t+6
  b.run_to(t + 8);
  EXPECT_TRUE(resp_is(b, t + 7, 1, kAtaSrcL2));
  EXPECT_TRUE(b.ev[t + 6].sector_fill);
  EXPECT_EQ(b.m.entry_sv(1, 2, 0), 0b1001u);
  EXPECT_TRUE(b.m.entry_dirty(1, 2, 0));
  // Core 0 reads sector 3: array 1 has it, but dirty -> no holder -> L2.
  const unsigned t2 = b.cyc;
  b.req(0, A3);
  b.run_to(t2 + 8);
  EXPECT_EQ(b.m.hv(0), 0u);
  EXPECT_TRUE(b.ev[t2 + 1].dirty_at_compare);
  EXPECT_TRUE(resp_is(b, t2 + 7, 0, kAtaSrcL2));
}

// Remote copy made dirty before the compare: not a holder -> L2.
TEST(AtaModel, RemoteDirtyAtCompareGoesToL2) {
  const AtaParams p = load(kN2);
  Bench b(p);
  const uint64_t A = addr(p, 4, 1, 1);
  EXPECT_EQ(b.read(1, A).src, kAtaSrcL2);
  EXPECT_EQ(b.write(1, A).src, kAtaSrcLocal);  // write hit: dirty
  settle(b);
  ASSERT_TRUE(b.m.entry_dirty(1, 1, 0));
  const unsigned t = b.cyc;
  b.req(0, A);
  b.run_to(t + 9);
  EXPECT_TRUE(b.ev[t + 1].dirty_at_compare);  // the CMP edge
  EXPECT_EQ(b.hist[t + 3].l2_req_valid[0], 1);
  EXPECT_TRUE(resp_is(b, t + 7, 0, kAtaSrcL2));
  EXPECT_EQ(b.cmds_op(kAtaOpRemoteRead, t), 0u);
  EXPECT_EQ(b.cmds_on(1, t, t + 8), 0u);
  EXPECT_EQ(b.m.hv(0), 0u);
}

// The owner writes its line between core 0's compare and its remote read:
// the recheck in RREAD sees the dirty bit -> L2.
TEST(AtaModel, RemoteDirtyAfterCompareRecheckFails) {
  const AtaParams p = load(kN2);
  Bench b(p);
  const uint64_t A = addr(p, 6, 0, 2);
  EXPECT_EQ(b.read(1, A).src, kAtaSrcL2);  // array 1 set 0 way 0
  settle(b);
  // Core 1 writes A accepted in t-4: L2REQ from t-1, ready[1] only in t+1 ->
  // handshake t+1, LWRITE t+2, granted at edge t+2 (dirty visible in t+3).
  // Core 0 reads A accepted in t: CMP t+1 (clean: holder), DIST t+2, RREAD
  // t+3: recheck sees dirty -> L2REQ from t+4; handshake t+4, answer t+6,
  // FILL t+7, op 3 / resp t+8.
  const unsigned t = b.cyc + 4;
  b.ready[1] = 0;
  b.req(1, A, true);
  b.run_to(t);
  b.req(0, A);
  b.run_to(t + 1);
  b.ready[1] = 1;
  b.step();  // t+1: handshake of core 1
  b.ready[1] = 0;
  b.run_to(t + 10);
  b.ready[1] = 1;
  EXPECT_EQ(b.hist[t + 1].l2_req_valid[1], 1);
  EXPECT_TRUE(b.ev[t + 1].write_hit);
  EXPECT_TRUE(cmd_is(b, t + 3, 1, kAtaOpWrite, 0, 0, 2, 1));
  EXPECT_TRUE(resp_is(b, t + 3, 1, kAtaSrcLocal));
  EXPECT_TRUE(b.ev[t + 2].remote_hit);           // the compare in t+1 saw a clean holder
  EXPECT_EQ(b.hist[t + 3].l2_req_valid[0], 0);   // in RREAD
  EXPECT_TRUE(b.ev[t + 3].recheck_fail_dirty);   // recheck in t+3
  EXPECT_FALSE(b.ev[t + 3].recheck_fail_evicted);
  EXPECT_EQ(b.hist[t + 4].l2_req_valid[0], 1);
  EXPECT_EQ(b.hist[t + 4].l2_req_addr[0], A);
  EXPECT_TRUE(cmd_is(b, t + 8, 0, kAtaOpFill, 0, 0, 2, 0));
  EXPECT_TRUE(resp_is(b, t + 8, 0, kAtaSrcL2));
  EXPECT_EQ(b.cmds_op(kAtaOpRemoteRead, t), 0u);
  EXPECT_EQ(b.m.stats().recheck_fails, 1u);
  EXPECT_EQ(b.m.stats().recheck_fails_dirty, 1u);
}

// The owner's write and core 0's remote read request port 1 in the same cycle
// (t+3): the arbiter decides; the granted remote read reads the clean line,
// the write follows one cycle later.
TEST(AtaModel, RemoteReadAndOwnerWriteSameCycle) {
  const AtaParams p = load(kN2);
  Bench b(p);
  const uint64_t A = addr(p, 6, 0, 2);
  EXPECT_EQ(b.read(1, A).src, kAtaSrcL2);  // fill on port 1 by core 1: pr[1] = 0
  settle(b);
  ASSERT_EQ(b.m.pr(1), 0u);
  // Core 1 write accepted t-4, handshake in t+2 -> LWRITE in t+3.
  const unsigned t = b.cyc + 4;
  b.ready[1] = 0;
  b.req(1, A, true);
  b.run_to(t);
  b.req(0, A);
  b.run_to(t + 2);
  b.ready[1] = 1;
  b.run_to(t + 8);
  // t+3: requesters of port 1: core 0 (RREAD, ok) and core 1 (LWRITE); pr[1] =
  // 0 -> core 0: op 1 in t+4, pr[1] = 1; core 1 granted at edge t+4: op 2 in
  // t+5. Core 0: FILL t+4, op 3 and resp (src 1) in t+5.
  EXPECT_TRUE(b.ev[t + 3].port_conflict);
  EXPECT_TRUE(b.ev[t + 3].port_owner_lost);
  EXPECT_TRUE(cmd_is(b, t + 4, 1, kAtaOpRemoteRead, 0, 0, 2, 0));
  EXPECT_TRUE(cmd_is(b, t + 5, 1, kAtaOpWrite, 0, 0, 2, 1));
  EXPECT_TRUE(cmd_is(b, t + 5, 0, kAtaOpFill, 0, 0, 2, 0));
  EXPECT_TRUE(resp_is(b, t + 5, 0, kAtaSrcRemote));
  EXPECT_TRUE(resp_is(b, t + 5, 1, kAtaSrcLocal));
  EXPECT_TRUE(b.m.entry_dirty(1, 0, 0));
  EXPECT_FALSE(b.m.entry_dirty(0, 0, 0));
  EXPECT_EQ(b.m.stats().recheck_fails, 0u);
}

// The remote line is evicted by its owner's fill between core 0's compare and
// its remote read: the recheck fails -> L2.
TEST(AtaModel, RemoteEvictedAfterCompareRecheckFails) {
  const AtaParams p = load(kN2);
  Bench b(p);
  const unsigned s = 2;
  const uint64_t A = addr(p, 0x10, s, 0);
  // Array 1 set 2: A, B, C, D in ways 0-3; ages [3,2,1,0]: victim way 0 (A).
  b.read(1, A);
  b.read(1, addr(p, 0x11, s, 0));
  b.read(1, addr(p, 0x12, s, 0));
  b.read(1, addr(p, 0x13, s, 0));
  settle(b);
  ASSERT_EQ(b.m.find(1, A), 0);
  ASSERT_EQ(b.m.victim(1, s), 0u);
  // Core 1 reads E (set 2) accepted t-4: handshake t-1, lat 2 -> answer t+1,
  // FILL t+2, granted at edge t+2: E replaces A in way 0 (visible t+3).
  // Core 0 reads A accepted in t: CMP t+1 sees A -> RREAD t+3, recheck fails.
  const uint64_t E = addr(p, 0x14, s, 1);
  const unsigned t = b.cyc + 4;
  b.req(1, E);
  b.run_to(t);
  b.req(0, A);
  b.run_to(t + 10);
  EXPECT_EQ(b.hs[b.hs.size() - 2].cyc, t - 1);  // core 1's read handshake
  EXPECT_TRUE(cmd_is(b, t + 3, 1, kAtaOpFill, s, 0, 1, 1));
  EXPECT_TRUE(b.ev[t + 2].victim_replacement);
  EXPECT_TRUE(b.ev[t + 2].remote_hit);  // core 0's DIST: the compare in t+1 still saw A
  EXPECT_TRUE(b.ev[t + 3].recheck_fail_evicted);
  EXPECT_FALSE(b.ev[t + 3].recheck_fail_dirty);
  EXPECT_EQ(b.hist[t + 4].l2_req_valid[0], 1);
  EXPECT_TRUE(resp_is(b, t + 8, 0, kAtaSrcL2));
  EXPECT_TRUE(cmd_is(b, t + 8, 0, kAtaOpFill, s, 0, 0, 0));
  EXPECT_EQ(b.cmds_op(kAtaOpRemoteRead, t), 0u);
  EXPECT_EQ(b.m.find(1, A), -1);
  EXPECT_EQ(b.m.find(0, A), 0);
}

// Write hit: L2 first (write-through), then the local write: dirty set, touch.
TEST(AtaModel, WriteHitL2ThenLocal) {
  const AtaParams p = load(kN2);
  Bench b(p);
  const unsigned s = 1;
  const uint64_t A = addr(p, 2, s, 3);
  b.read(0, A);                    // way 0; ages [0,3,2,1]
  b.read(0, addr(p, 5, s, 0));     // way 1; ages [1,0,3,2]
  settle(b);
  ASSERT_EQ(b.m.age(0, s, 0), 1u);
  const unsigned t = b.cyc;
  b.req(0, A, true);
  b.run_to(t + 7);
  // l2_req_valid / write / addr in t+3, handshake t+3; LWRITE t+4; op 2 and
  // resp (src 0) in t+5.
  EXPECT_EQ(b.hist[t + 3].l2_req_valid[0], 1);
  EXPECT_EQ(b.hist[t + 3].l2_req_write[0], 1);
  EXPECT_EQ(b.hist[t + 3].l2_req_addr[0], A);
  EXPECT_EQ(b.hist[t + 4].l2_req_valid[0], 0);
  EXPECT_EQ(b.hist[t + 4].l2_req_write[0], 1);  // the request register in every state
  ASSERT_EQ(b.hs.size(), 3u);
  EXPECT_TRUE(b.hs[2].write);
  EXPECT_EQ(b.hs[2].cyc, t + 3);
  EXPECT_TRUE(b.ev[t + 3].write_hit);
  EXPECT_TRUE(cmd_is(b, t + 5, 0, kAtaOpWrite, s, 0, 3, 0));
  EXPECT_TRUE(resp_is(b, t + 5, 0, kAtaSrcLocal));
  EXPECT_EQ(b.cmds_on(0, t, t + 4), 0u);
  EXPECT_TRUE(b.m.entry_dirty(0, s, 0));
  EXPECT_FALSE(b.m.entry_dirty(0, s, 1));
  EXPECT_EQ(b.m.entry_sv(0, s, 0), 1u << 3);
  // touch(way 0) from [1,0,3,2]: [0,1,3,2].
  EXPECT_EQ(b.m.age(0, s, 0), 0u);
  EXPECT_EQ(b.m.age(0, s, 1), 1u);
  EXPECT_EQ(b.m.age(0, s, 2), 3u);
  EXPECT_EQ(b.m.age(0, s, 3), 2u);
  // A dirty local line is still a local hit for its own core (reading 5).
  EXPECT_EQ(b.read(0, A).src, kAtaSrcLocal);
}

// Write miss: L2 only, nothing allocated, no command; a line present without
// the written sector is a write miss too (reading 4).
TEST(AtaModel, WriteMissNoAllocate) {
  const AtaParams p = load(kN2);
  Bench b(p);
  const unsigned s = 1;
  const uint64_t P0 = addr(p, 0x20, s, 0);
  b.read(0, P0);
  settle(b);
  auto snapshot = [&](unsigned j) {
    std::vector<uint64_t> v;
    for (unsigned ss = 0; ss < p.sets; ++ss)
      for (unsigned w = 0; w < p.ways; ++w)
        v.push_back((uint64_t{b.m.entry_valid(j, ss, w)} << 63) | (uint64_t{b.m.entry_dirty(j, ss, w)} << 62) |
                    (uint64_t{b.m.entry_sv(j, ss, w)} << 40) | (uint64_t{b.m.age(j, ss, w)} << 32) |
                    b.m.entry_tag(j, ss, w));
    return v;
  };
  const auto before = snapshot(0);
  const unsigned t = b.cyc;
  const uint64_t C = addr(p, 0x21, s, 2);
  b.req(0, C, true);
  b.run_to(t + 6);
  EXPECT_EQ(b.hist[t + 3].l2_req_valid[0], 1);
  EXPECT_EQ(b.hist[t + 3].l2_req_write[0], 1);
  EXPECT_TRUE(b.ev[t + 3].write_miss);
  EXPECT_TRUE(resp_is(b, t + 4, 0, kAtaSrcL2));  // one cycle after the handshake
  EXPECT_EQ(b.cmds_on(0, t, t + 5), 0u);
  EXPECT_EQ(b.cmds_on(1, t, t + 5), 0u);
  EXPECT_EQ(snapshot(0), before);
  EXPECT_EQ(b.m.find(0, C), -1);
  // Present line, absent sector 2: write miss, line unchanged.
  const unsigned t2 = b.cyc;
  b.req(0, addr(p, 0x20, s, 2), true);
  b.run_to(t2 + 6);
  EXPECT_TRUE(b.m.lm(0));
  EXPECT_TRUE(resp_is(b, t2 + 4, 0, kAtaSrcL2));
  EXPECT_EQ(b.cmds_on(0, t2, t2 + 5), 0u);
  EXPECT_EQ(snapshot(0), before);
  EXPECT_EQ(b.m.stats().write_misses, 2u);
  EXPECT_EQ(b.m.stats().write_hits, 0u);
}

// Writes stay local: a remote copy is neither written nor marked; a write
// whose line is only remote is a write miss that touches no array.
TEST(AtaModel, WriteStaysLocal) {
  const AtaParams p = load(kN2);
  Bench b(p);
  const unsigned s = 0;
  const uint64_t A = addr(p, 0x30, s, 1);
  b.read(0, A);
  b.read(1, A);  // remote, now in both arrays (way 0 each)
  settle(b);
  const unsigned age1 = b.m.age(1, s, 0), sv1 = b.m.entry_sv(1, s, 0);
  unsigned t = b.cyc;
  b.req(0, A, true);
  b.run_to(t + 7);
  EXPECT_EQ(b.m.hv(0), 0b11u);
  EXPECT_TRUE(cmd_is(b, t + 5, 0, kAtaOpWrite, s, 0, 1, 0));
  EXPECT_TRUE(resp_is(b, t + 5, 0, kAtaSrcLocal));
  EXPECT_EQ(b.cmds_on(1, t, t + 6), 0u);
  EXPECT_TRUE(b.m.entry_dirty(0, s, 0));
  EXPECT_FALSE(b.m.entry_dirty(1, s, 0));
  EXPECT_EQ(b.m.age(1, s, 0), age1);
  EXPECT_EQ(b.m.entry_sv(1, s, 0), sv1);
  // Core 1 reads its own clean copy (array 0's copy is dirty: excluded).
  t = b.cyc;
  b.req(1, A);
  b.run_to(t + 6);
  EXPECT_EQ(b.m.hv(1), 0b10u);
  EXPECT_TRUE(b.ev[t + 1].dirty_at_compare);
  EXPECT_TRUE(resp_is(b, t + 4, 1, kAtaSrcLocal));
  // Line D only in array 1; core 0 writes D: write miss, array 1 untouched.
  const uint64_t D = addr(p, 0x31, 2, 0);
  b.read(1, D);
  settle(b);
  const int wD = b.m.find(1, D);
  ASSERT_EQ(wD, 0);
  std::vector<unsigned> agesD;
  for (unsigned w = 0; w < p.ways; ++w) agesD.push_back(b.m.age(1, 2, w));
  t = b.cyc;
  b.req(0, D, true);
  b.run_to(t + 6);
  EXPECT_EQ(b.m.hv(0), 0b10u);
  EXPECT_TRUE(resp_is(b, t + 4, 0, kAtaSrcL2));
  EXPECT_EQ(b.cmds_on(0, t, t + 5) + b.cmds_on(1, t, t + 5), 0u);
  EXPECT_FALSE(b.m.entry_dirty(1, 2, unsigned(wD)));
  for (unsigned w = 0; w < p.ways; ++w) EXPECT_EQ(b.m.age(1, 2, w), agesD[w]);
  EXPECT_EQ(b.m.find(0, D), -1);
}

// Port conflicts: cores 0, 1, 2 read a line held only by array 3 while core 3
// reads its own array in the same cycle; round-robin from pr[3].
TEST(AtaModel, PortConflictRoundRobin) {
  const AtaParams p = load(kN4);
  Bench b(p);
  const uint64_t A = addr(p, 1, 0, 0), L = addr(p, 2, 1, 0);
  const uint64_t Bl = addr(p, 3, 2, 1), C = addr(p, 4, 3, 2), M = addr(p, 5, 0, 3);
  b.read(3, A);
  b.read(3, L);  // fills on port 3 by core 3: pr[3] = 0
  settle(b);
  ASSERT_EQ(b.m.pr(3), 0u);
  unsigned t = b.cyc;
  b.req(0, A);
  b.req(1, A);
  b.req(2, A);
  b.req(3, L);
  b.run_to(t + 9);
  // t+3: requesters of port 3 = {0, 1, 2 (RREAD, ok), 3 (LREAD)}, pr 0.
  // Grants: core 0 at edge t+3, core 1 t+4, core 2 t+5, core 3 t+6.
  EXPECT_TRUE(b.ev[t + 3].port_conflict);
  EXPECT_TRUE(cmd_is(b, t + 4, 3, kAtaOpRemoteRead, 0, 0, 0, 0));
  EXPECT_TRUE(cmd_is(b, t + 5, 3, kAtaOpRemoteRead, 0, 0, 0, 1));
  EXPECT_TRUE(cmd_is(b, t + 6, 3, kAtaOpRemoteRead, 0, 0, 0, 2));
  EXPECT_TRUE(cmd_is(b, t + 7, 3, kAtaOpLocalRead, 1, 0, 0, 3));
  // Each FILL on its own port the cycle after its remote read.
  EXPECT_TRUE(cmd_is(b, t + 5, 0, kAtaOpFill, 0, 0, 0, 0));
  EXPECT_TRUE(cmd_is(b, t + 6, 1, kAtaOpFill, 0, 0, 0, 1));
  EXPECT_TRUE(cmd_is(b, t + 7, 2, kAtaOpFill, 0, 0, 0, 2));
  EXPECT_TRUE(resp_is(b, t + 5, 0, kAtaSrcRemote));
  EXPECT_TRUE(resp_is(b, t + 6, 1, kAtaSrcRemote));
  EXPECT_TRUE(resp_is(b, t + 7, 2, kAtaSrcRemote));
  EXPECT_TRUE(resp_is(b, t + 7, 3, kAtaSrcLocal));
  // Every requester granted within N = 4 cycles of its first request (t+3).
  for (unsigned c = t + 4; c <= t + 7; ++c) EXPECT_LE(c - 1 - (t + 3), 3u);
  EXPECT_EQ(b.m.pr(3), 0u);  // last winner core 3
  EXPECT_EQ(b.m.stats().port_conflicts, 3u);  // t+3 (4 req), t+4 (3), t+5 (2)

  // Round 2 from pr[3] = 2: B, C, M into array 3; core 1 reads B remotely
  // (grant on port 3 -> pr[3] = 2). Cores 0, 2 read C and core 3 reads M.
  b.read(3, Bl);
  b.read(3, C);
  b.read(3, M);
  EXPECT_EQ(b.read(1, Bl).src, kAtaSrcRemote);
  settle(b);
  ASSERT_EQ(b.m.pr(3), 2u);
  t = b.cyc;
  b.req(0, C);
  b.req(2, C);
  b.req(3, M);
  b.run_to(t + 9);
  // t+3: requesters {0, 2, 3}, pr 2 -> 2 (t+3), 3 (t+4), 0 (t+5).
  EXPECT_TRUE(cmd_is(b, t + 4, 3, kAtaOpRemoteRead, 3, 0, 2, 2));
  EXPECT_TRUE(cmd_is(b, t + 5, 3, kAtaOpLocalRead, 0, 1, 3, 3));  // M: set 0 way 1
  EXPECT_TRUE(cmd_is(b, t + 6, 3, kAtaOpRemoteRead, 3, 0, 2, 0));
  EXPECT_TRUE(resp_is(b, t + 5, 2, kAtaSrcRemote));
  EXPECT_TRUE(resp_is(b, t + 5, 3, kAtaSrcLocal));
  EXPECT_TRUE(resp_is(b, t + 7, 0, kAtaSrcRemote));
  EXPECT_EQ(b.m.pr(3), 1u);
}

// Lines held by arrays 1, 2 and 3 (three holders); prepared through traffic.
void three_holders(Bench& b, uint64_t a, unsigned h0, unsigned h1, unsigned h2) {
  b.read(h0, a);
  b.read(h1, a);
  b.read(h2, a);
  settle(b);
}

TEST(AtaModel, RemotePickNearestThreeHolders) {
  const AtaParams p = load(kN4, [](config::AtaConfig& c) { c.remote_pick = config::AtaRemotePick::Nearest; });
  ASSERT_FALSE(p.round_robin());
  Bench b(p);
  const uint64_t L1 = addr(p, 0x101, 0, 0), L2 = addr(p, 0x102, 1, 1), Q = addr(p, 0x103, 2, 2);
  three_holders(b, L1, 1, 2, 3);
  three_holders(b, L2, 1, 2, 3);
  three_holders(b, Q, 0, 1, 3);
  // Core 0, holders {1,2,3}: smallest (j - 0) mod 4 -> 1, every time.
  for (uint64_t a : {L1, L2}) {
    const unsigned t = b.cyc;
    b.req(0, a);
    b.run_to(t + 7);
    EXPECT_EQ(b.m.hv(0), 0b1110u);
    EXPECT_TRUE(b.ev[t + 2].remote_pick_multi);
    EXPECT_TRUE(cmd_is(b, t + 4, 1, kAtaOpRemoteRead, b.m.set_of(a), b.m.find(1, a), b.m.sector_of(a), 0));
    EXPECT_TRUE(resp_is(b, t + 5, 0, kAtaSrcRemote));
    EXPECT_EQ(b.m.rj(0), 1u);
    EXPECT_EQ(b.m.rp(0), 0u);  // not used by nearest
    settle(b);
  }
  // Core 2, holders {0,1,3}: (3-2) = 1, (0-2) mod 4 = 2, (1-2) mod 4 = 3 -> 3.
  const unsigned t = b.cyc;
  b.req(2, Q);
  b.run_to(t + 7);
  EXPECT_EQ(b.m.hv(2), 0b1011u);
  EXPECT_EQ(b.m.rj(2), 3u);
  EXPECT_TRUE(cmd_is(b, t + 4, 3, kAtaOpRemoteRead, 2, b.m.find(3, Q), 2, 2));
  EXPECT_EQ(b.cmds_on(0, t, t + 6) + b.cmds_on(1, t, t + 6), 0u);
}

TEST(AtaModel, RemotePickRoundRobinThreeHolders) {
  const AtaParams p = load(kN4);
  ASSERT_TRUE(p.round_robin());
  Bench b(p);
  std::vector<uint64_t> lines;
  for (unsigned k = 0; k < 4; ++k) lines.push_back(addr(p, 0x200 + k, k % 4, 1));
  for (uint64_t a : lines) three_holders(b, a, 1, 2, 3);
  ASSERT_EQ(b.m.rp(0), 0u);
  // rp[0] 0: {1,2,3} -> 1, rp 2; -> 2 (smallest (j-2) mod 4), rp 3; -> 3, rp 0;
  // -> 1, rp 2.
  const unsigned exp_rj[4] = {1, 2, 3, 1}, exp_rp[4] = {2, 3, 0, 2};
  for (unsigned k = 0; k < 4; ++k) {
    const unsigned t = b.cyc;
    b.req(0, lines[k]);
    b.run_to(t + 3);  // rj and rp registered at the DIST edge t+2
    EXPECT_EQ(b.m.rj(0), exp_rj[k]) << "read " << k;
    EXPECT_EQ(b.m.rp(0), exp_rp[k]) << "read " << k;
    b.run_to(t + 7);
    EXPECT_TRUE(cmd_is(b, t + 4, exp_rj[k], kAtaOpRemoteRead, k % 4, b.m.find(exp_rj[k], lines[k]), 1, 0));
    EXPECT_TRUE(resp_is(b, t + 5, 0, kAtaSrcRemote));
    settle(b);
  }
  // rp changes only at a remote pick: a local hit and an L2 read leave it.
  b.read(0, lines[0]);
  b.read(0, addr(p, 0x2ff, 0, 0));
  EXPECT_EQ(b.m.rp(0), 2u);
}

// LRU: invalid ways first (in index order), then the way with age W-1.
TEST(AtaModel, LruVictimInvalidFirst) {
  const AtaParams p = load(kN2);
  Bench b(p);
  const unsigned s = 0;
  auto ages = [&]() {
    std::vector<unsigned> v;
    for (unsigned w = 0; w < 4; ++w) v.push_back(b.m.age(0, s, w));
    return v;
  };
  using V = std::vector<unsigned>;
  EXPECT_EQ(ages(), (V{3, 2, 1, 0}));
  const V after[4] = {{0, 3, 2, 1}, {1, 0, 3, 2}, {2, 1, 0, 3}, {3, 2, 1, 0}};
  for (unsigned k = 0; k < 4; ++k) {
    const unsigned t = b.cyc;
    b.req(0, addr(p, 0x40 + k, s, 0));
    b.run_to(t + 8);
    EXPECT_TRUE(cmd_is(b, t + 7, 0, kAtaOpFill, s, k, 0, 0)) << k;
    EXPECT_TRUE(b.ev[t + 6].victim_invalid);
    EXPECT_EQ(ages(), after[k]);
  }
  b.read(0, addr(p, 0x40, s, 0));  // hit way 0: [0,3,2,1]
  EXPECT_EQ(ages(), (V{0, 3, 2, 1}));
  EXPECT_EQ(b.m.victim(0, s), 1u);
  settle(b);
  const unsigned t = b.cyc;
  b.req(0, addr(p, 0x44, s, 2));
  b.run_to(t + 8);
  EXPECT_TRUE(cmd_is(b, t + 7, 0, kAtaOpFill, s, 1, 2, 0));
  EXPECT_TRUE(b.ev[t + 6].victim_replacement);
  EXPECT_EQ(b.m.find(0, addr(p, 0x41, s, 0)), -1);
  EXPECT_EQ(b.m.entry_tag(0, s, 1), 0x44u);
  EXPECT_EQ(b.m.entry_sv(0, s, 1), 1u << 2);
  EXPECT_EQ(ages(), (V{1, 0, 3, 2}));
}

// PLRU (W = 8, one sector per line): invalid ways first even when the tree
// points elsewhere, then the tree victim.
TEST(AtaModel, PlruVictimInvalidFirst) {
  const AtaParams p = load(kN3Plru);
  Bench b(p);
  const unsigned s = 0;
  auto T = [&](unsigned k) { return addr(p, 0x10 + k, s, 0); };
  EXPECT_EQ(b.m.victim(0, s), 0u);  // all bits 0
  b.read(0, T(0));                  // way 0; touch 0: n1 = n2 = n4 = 1
  EXPECT_EQ(b.m.plru_bit(0, s, 1), 1u);
  EXPECT_EQ(b.m.plru_bit(0, s, 2), 1u);
  EXPECT_EQ(b.m.plru_bit(0, s, 4), 1u);
  EXPECT_EQ(b.m.victim(0, s), 4u);  // n1 -> 3, n3 = 0 -> 6, n6 = 0 -> leaf 12
  EXPECT_EQ(b.m.fill_way(0, s), 1u);
  b.read(0, T(1));
  EXPECT_EQ(b.m.find(0, T(1)), 1);  // invalid way 1 first, not the tree's way 4
  for (unsigned k = 2; k < 8; ++k) {
    b.read(0, T(k));
    EXPECT_EQ(b.m.find(0, T(k)), int(k));
  }
  // Touches 0..7 in order leave every node 0 -> victim way 0.
  for (unsigned n = 1; n < 8; ++n) EXPECT_EQ(b.m.plru_bit(0, s, n), 0u) << n;
  EXPECT_EQ(b.m.victim(0, s), 0u);
  EXPECT_EQ(b.read(0, T(0)).src, kAtaSrcLocal);  // touch 0 -> victim 4
  EXPECT_EQ(b.m.victim(0, s), 4u);
  settle(b);
  unsigned t = b.cyc;
  b.req(0, T(8));
  b.run_to(t + 8);
  EXPECT_TRUE(cmd_is(b, t + 7, 0, kAtaOpFill, s, 4, 0, 0));
  EXPECT_TRUE(b.ev[t + 6].victim_replacement);
  EXPECT_EQ(b.m.find(0, T(4)), -1);
  // touch 4: n6 = 1, n3 = 1, n1 = 0 -> n1 0 -> node 2 (1) -> node 5 (0) -> leaf 10: way 2.
  EXPECT_EQ(b.m.victim(0, s), 2u);
  b.read(0, T(9));
  EXPECT_EQ(b.m.find(0, T(9)), 2);
  EXPECT_EQ(b.m.find(0, T(2)), -1);
}

// L2 back-pressure: the request is held with its address until taken; taken
// once; a write miss waits the same way.
TEST(AtaModel, L2Backpressure) {
  const AtaParams p = load(kN2);
  Bench b(p);
  const uint64_t A = addr(p, 0x77, 2, 1) | 1, W = addr(p, 0x78, 3, 3);
  b.ready[0] = 0;
  b.ready[1] = 0;
  const unsigned t = b.cyc;
  b.req(0, A);
  b.req(1, W, true);
  b.run_to(t + 5);
  b.ready[1] = 1;  // core 1's handshake in t+5 -> resp t+6 (src 2)
  b.run_to(t + 8);
  b.ready[0] = 1;  // core 0's handshake in t+8, answer t+10, FILL t+11, resp t+12
  b.run_to(t + 14);
  for (unsigned c = t + 3; c <= t + 8; ++c) {
    EXPECT_EQ(b.hist[c].l2_req_valid[0], 1) << "c" << c;
    EXPECT_EQ(b.hist[c].l2_req_addr[0], A) << "c" << c;
    EXPECT_EQ(b.hist[c].l2_req_write[0], 0) << "c" << c;
  }
  for (unsigned c = t + 3; c <= t + 7; ++c) EXPECT_TRUE(b.ev[c].l2_backpressure) << "c" << c;
  EXPECT_EQ(b.hist[t + 9].l2_req_valid[0], 0);
  for (unsigned c = t + 3; c <= t + 5; ++c) EXPECT_EQ(b.hist[c].l2_req_write[1], 1) << "c" << c;
  EXPECT_EQ(b.hist[t + 6].l2_req_valid[1], 0);
  EXPECT_EQ(b.hs_of(0, t, t + 13), 1u);
  EXPECT_EQ(b.hs_of(1, t, t + 13), 1u);
  EXPECT_TRUE(resp_is(b, t + 6, 1, kAtaSrcL2));
  EXPECT_TRUE(resp_is(b, t + 12, 0, kAtaSrcL2));
  EXPECT_TRUE(cmd_is(b, t + 12, 0, kAtaOpFill, 2, 0, 1, 0));
  EXPECT_EQ(b.resps_of(0, t, t + 13), 1u);
  EXPECT_EQ(b.m.stats().l2_backpressure_cycles, 5u + 2u);  // core 0: t+3..t+7; core 1: t+3, t+4
}

// Reset in the middle of traffic: the edge resets everything; the outputs of
// the reset cycles already show the reset values (asynchronous).
TEST(AtaModel, ResetMidTraffic) {
  const AtaParams p = load(kN4);
  Bench b(p);
  const uint64_t A = addr(p, 0x31, 1, 1), Bl = addr(p, 0x32, 2, 2);
  b.read(0, A);
  b.read(1, A);
  b.write(1, A);
  b.read(2, Bl);
  settle(b);
  // New traffic: core 0 local hit, core 1 miss, core 2 write, core 3 remote.
  b.lat.assign(p.cores, 6);
  const unsigned t = b.cyc;
  b.req(0, A);
  b.req(1, addr(p, 0x33, 3, 0));
  b.req(2, Bl, true);
  b.req(3, Bl);
  b.run_to(t + 4);
  // In t+4: core 0 answered (op 0, resp), core 1 in L2WAIT, core 2 in LWRITE,
  // core 3 in FILL (op 1 registered at t+3 is in t+4's outputs).
  EXPECT_EQ(b.m.state(1), AtaState::L2Wait);
  EXPECT_EQ(b.m.state(2), AtaState::LWrite);
  EXPECT_EQ(b.m.state(3), AtaState::Fill);
  EXPECT_EQ(b.hist[t + 3].da_valid[0], 0);
  b.in.rst_n = false;
  b.run(2);  // t+4, t+5 in reset
  b.in.rst_n = true;
  for (unsigned c = t + 4; c <= t + 5; ++c) {
    const AtaOut& o = b.hist[c];
    for (unsigned i = 0; i < p.cores; ++i) {
      EXPECT_EQ(o.req_ready[i], 1) << c;
      EXPECT_EQ(o.resp_valid[i] | o.resp_src[i] | o.da_valid[i] | o.da_op[i], 0) << c;
      EXPECT_EQ(o.da_set[i] | o.da_way[i] | o.da_sector[i] | o.da_core[i], 0u) << c;
      EXPECT_EQ(o.l2_req_valid[i] | o.l2_req_write[i], 0) << c;
      EXPECT_EQ(o.l2_req_addr[i], 0u) << c;
    }
  }
  EXPECT_TRUE(b.ev[t + 4].reset);
  for (unsigned i = 0; i < p.cores; ++i) {
    EXPECT_EQ(b.m.state(i), AtaState::Idle);
    EXPECT_EQ(b.m.pr(i), 0u);
    EXPECT_EQ(b.m.rp(i), 0u);
    EXPECT_EQ(b.m.hv(i), 0u);
  }
  for (unsigned j = 0; j < p.cores; ++j)
    for (unsigned s = 0; s < p.sets; ++s)
      for (unsigned w = 0; w < p.ways; ++w) {
        ASSERT_FALSE(b.m.entry_valid(j, s, w));
        ASSERT_FALSE(b.m.entry_dirty(j, s, w));
        ASSERT_EQ(b.m.age(j, s, w), p.ways - 1 - w);
      }
  EXPECT_EQ(b.m.stats().accepts, 0u);
  // Traffic again: A was in arrays 0 and 1, now a miss everywhere.
  b.lat.assign(p.cores, 2);
  const unsigned t2 = b.cyc;
  b.req(0, A);
  b.run_to(t2 + 9);
  EXPECT_TRUE(b.hist[t2].req_ready[0]);
  EXPECT_EQ(b.m.hv(0), 0u);
  EXPECT_TRUE(resp_is(b, t2 + 7, 0, kAtaSrcL2));
  EXPECT_TRUE(cmd_is(b, t2 + 7, 0, kAtaOpFill, 1, 0, 1, 0));
  EXPECT_EQ(b.resps_of(1, t + 4, t2 + 8) + b.resps_of(2, t + 4, t2 + 8) + b.resps_of(3, t + 4, t2 + 8), 0u);
}

// private: core i compares with array i only; never a remote read.
TEST(AtaModel, PrivateNeverReadsRemote) {
  const AtaParams p = load(kPrivate);
  Bench b(p);
  const uint64_t A = addr(p, 0x55, 1, 1);
  EXPECT_EQ(b.read(1, A).src, kAtaSrcL2);
  settle(b);
  const unsigned t = b.cyc;
  b.req(0, A);
  b.run_to(t + 9);
  EXPECT_EQ(b.m.hv(0), 0u);  // array 1 not compared
  EXPECT_EQ(b.hist[t + 3].l2_req_valid[0], 1);
  EXPECT_TRUE(resp_is(b, t + 7, 0, kAtaSrcL2));
  EXPECT_EQ(b.cmds_on(1, t, t + 8), 0u);
  EXPECT_EQ(b.read(0, A).src, kAtaSrcLocal);
  // A write of core 2 (absent there) allocates nothing; cores 2 and 3 still
  // read from the L2 although arrays 0 and 1 hold the line.
  b.write(2, A);
  EXPECT_EQ(b.read(2, A).src, kAtaSrcL2);  // write miss did not allocate
  EXPECT_EQ(b.read(3, A).src, kAtaSrcL2);
  EXPECT_EQ(b.cmds_op(kAtaOpRemoteRead), 0u);
  EXPECT_EQ(b.m.stats().remote_attempts, 0u);
}

// The timing summary on the document's configuration (Table II: N 10, W 64).
TEST(AtaModel, TimingSummaryTable2) {
  const AtaParams p = load(kTable2);
  EXPECT_EQ(p.local_hit_latency, 4u);
  EXPECT_EQ(p.remote_hit_latency, 5u);
  Bench b(p);
  b.lat.assign(p.cores, 9);
  const uint64_t A = addr(p, 0x12345678, 5, 3), Bl = addr(p, 0x1234567, 7, 0);
  // Miss on core 4: l2_req_valid from t+3; answer t+12; resp t+14.
  unsigned t = b.cyc;
  b.req(4, A);
  b.run_to(t + 16);
  EXPECT_EQ(b.hist[t + 2].l2_req_valid[4], 0);
  EXPECT_EQ(b.hist[t + 3].l2_req_valid[4], 1);
  EXPECT_TRUE(resp_is(b, t + 3 + 9 + 2, 4, kAtaSrcL2));
  EXPECT_TRUE(cmd_is(b, t + 14, 4, kAtaOpFill, 5, 0, 3, 4));
  // Local hit: t+4.
  t = b.cyc;
  b.req(4, A);
  b.run_to(t + 6);
  EXPECT_TRUE(resp_is(b, t + 4, 4, kAtaSrcLocal));
  EXPECT_TRUE(cmd_is(b, t + 4, 4, kAtaOpLocalRead, 5, 0, 3, 4));
  // Remote hit from core 9 (nearest: only holder 4): op 1 on port 4 in t+4,
  // op 3 on port 9 and resp in t+5.
  t = b.cyc;
  b.req(9, A);
  b.run_to(t + 7);
  EXPECT_TRUE(cmd_is(b, t + 4, 4, kAtaOpRemoteRead, 5, 0, 3, 9));
  EXPECT_TRUE(cmd_is(b, t + 5, 9, kAtaOpFill, 5, 0, 3, 9));
  EXPECT_TRUE(resp_is(b, t + 5, 9, kAtaSrcRemote));
  // Write hit on core 4 with the handshake delayed to t+6: op 2 / resp t+8.
  b.ready[4] = 0;
  t = b.cyc;
  b.req(4, A, true);
  b.run_to(t + 6);
  b.ready[4] = 1;
  b.run_to(t + 10);
  EXPECT_TRUE(resp_is(b, t + 8, 4, kAtaSrcLocal));
  EXPECT_TRUE(cmd_is(b, t + 8, 4, kAtaOpWrite, 5, 0, 3, 4));
  // Write miss: resp one cycle after the handshake (t+3 -> t+4).
  t = b.cyc;
  b.req(7, Bl, true);
  b.run_to(t + 6);
  EXPECT_TRUE(resp_is(b, t + 4, 7, kAtaSrcL2));
  // Core 9's copy is clean, core 4's is dirty: core 0's read picks core 9
  // (the only holder), not the nearer dirty core 4.
  t = b.cyc;
  b.req(0, A);
  b.run_to(t + 7);
  EXPECT_EQ(b.m.hv(0), 1u << 9);
  EXPECT_TRUE(cmd_is(b, t + 4, 9, kAtaOpRemoteRead, 5, 0, 3, 0));
}

// ---------------------------------------------------------------------------
// Random runs with invariants checked every cycle (fixed seeds, printed).

struct RandomCfg {
  const char* file;
  std::function<void(config::AtaConfig&)> edit;
  const char* label;
};

struct Pending {
  bool active = false;
  bool write = false;
  uint64_t addr = 0;
  unsigned acc = 0;
  unsigned op1 = 0;        // op 1 commands for this request
  unsigned other = 0;      // other commands naming the core before the response
  unsigned hs = 0;         // L2 handshakes
  unsigned hs_cyc = 0;
};

void random_run(const RandomCfg& rc, uint64_t seed, unsigned cycles, AtaEvents* cover, AtaStats* total) {
  const AtaParams p = load(rc.file, rc.edit);
  const unsigned N = p.cores, S = p.sets, W = p.ways;
  std::printf("[ random ] %s seed %llu cycles %u\n", rc.label, static_cast<unsigned long long>(seed), cycles);
  std::mt19937_64 rng(seed);
  AtaModel m(p);
  AtaIn in = m.idle_inputs();
  AtaOut out = m.make_outputs();
  // Address pool: 3 sets x (W + 3) tags x all sectors, so that lines are
  // shared, evicted and rewritten often.
  const unsigned ntags = W + 3;
  auto pick_addr = [&]() {
    const uint64_t tag = 1 + rng() % ntags;
    const unsigned set = static_cast<unsigned>(rng() % std::min(S, 3u));
    const unsigned sec = static_cast<unsigned>(rng() % p.sectors);
    return addr(p, tag, set, sec) | (rng() % p.sector_bytes);
  };
  std::vector<Pending> pend(N);
  std::vector<unsigned> due(N, kNever);
  std::vector<uint8_t> remote_open(N, 0);  // an op 1 for core i waits for its op 3
  std::vector<unsigned> in_state(N, 0);    // cycles in the current port-requesting state
  std::vector<AtaState> last_state(N, AtaState::Idle);
  unsigned resets = 0, reset_left = 0;
  uint64_t accepted = 0, responded = 0, dropped = 0;
  long allocs = 0;
  for (unsigned cyc = 0; cyc < cycles + 3000; ++cyc) {
    const bool draining = cyc >= cycles;
    // Inputs.
    if (!draining && reset_left == 0 && rng() % 4000 == 0) reset_left = 1 + rng() % 2;
    in.rst_n = reset_left == 0;
    for (unsigned i = 0; i < N; ++i) {
      if (!in.req_valid[i] && !draining && rng() % 100 < 55) {
        in.req_valid[i] = 1;
        in.req_write[i] = rng() % 100 < 25;
        in.req_addr[i] = pick_addr();
      }
      in.l2_req_ready[i] = draining || rng() % 100 < 70;
      in.l2_resp_valid[i] = in.rst_n && due[i] <= cyc && m.state(i) == AtaState::L2Wait;
    }
    const long a0 = g_allocs;
    m.outputs(in, out);
    allocs += g_allocs - a0;
    std::ostringstream where;
    where << rc.label << " seed " << seed << " c" << cyc;
    const std::string w = where.str();
    if (in.rst_n) {
      // Per-cycle output checks.
      std::vector<unsigned> named(N, 0);
      for (unsigned j = 0; j < N; ++j) {
        if (!out.da_valid[j]) continue;
        const unsigned op = out.da_op[j], core = out.da_core[j];
        ASSERT_LT(core, N) << w;
        ASSERT_LE(op, 3u) << w;
        ++named[core];
        if (op == kAtaOpRemoteRead) {
          ASSERT_NE(core, j) << w << ": remote read on the core's own port";
          ASSERT_TRUE(p.aggregated()) << w << ": remote read in private mode";
          ASSERT_FALSE(remote_open[core]) << w;
          remote_open[core] = 1;
        } else {
          ASSERT_EQ(core, j) << w << ": op " << op << " for another core";
          if (remote_open[core]) {
            ASSERT_EQ(op, kAtaOpFill) << w << ": the next command after a remote read must be its fill";
            remote_open[core] = 0;
          }
        }
        ASSERT_TRUE(pend[core].active) << w << ": command for a core without a request";
        ASSERT_EQ(out.da_set[j], m.set_of(pend[core].addr)) << w;
        ASSERT_EQ(out.da_sector[j], m.sector_of(pend[core].addr)) << w;
        if (op == kAtaOpRemoteRead)
          ++pend[core].op1;
        else if (!out.resp_valid[core])
          ++pend[core].other;
      }
      for (unsigned i = 0; i < N; ++i) ASSERT_LE(named[i], 1u) << w << ": two commands for one core in one cycle";
      for (unsigned i = 0; i < N; ++i) {
        Pending& pd = pend[i];
        if (out.l2_req_valid[i]) {
          ASSERT_TRUE(pd.active) << w;
          ASSERT_EQ(out.l2_req_addr[i], pd.addr) << w;
          ASSERT_EQ(out.l2_req_write[i], pd.write) << w;
          if (in.l2_req_ready[i]) {
            ++pd.hs;
            pd.hs_cyc = cyc;
            if (!pd.write) due[i] = cyc + 1 + static_cast<unsigned>(rng() % 6);
          }
        } else if (pd.active) {  // the request registers, shown in every state
          ASSERT_EQ(out.l2_req_write[i], pd.write) << w;
          ASSERT_EQ(out.l2_req_addr[i], pd.addr) << w;
        }
        if (out.resp_valid[i]) {
          ASSERT_TRUE(pd.active) << w << ": response without a request (core " << i << ")";
          const unsigned src = out.resp_src[i];
          const bool cmd_here = out.da_valid[i] && out.da_core[i] == i;
          const unsigned op_here = out.da_op[i];
          ASSERT_EQ(pd.other, 0u) << w << ": extra command before the response";
          if (pd.write) {
            ASSERT_EQ(pd.hs, 1u) << w << ": a write goes to the L2 once";
            ASSERT_EQ(pd.op1, 0u) << w;
            if (src == kAtaSrcLocal) {
              ASSERT_TRUE(cmd_here && op_here == kAtaOpWrite) << w;
              ASSERT_GE(cyc, pd.hs_cyc + 2) << w;
            } else {
              ASSERT_EQ(src, kAtaSrcL2) << w;
              ASSERT_FALSE(cmd_here) << w;
              ASSERT_EQ(cyc, pd.hs_cyc + 1) << w;
            }
          } else if (src == kAtaSrcLocal) {
            ASSERT_TRUE(cmd_here && op_here == kAtaOpLocalRead) << w;
            ASSERT_EQ(pd.hs + pd.op1, 0u) << w;
            ASSERT_GE(cyc, pd.acc + 4) << w;
          } else if (src == kAtaSrcRemote) {
            ASSERT_TRUE(cmd_here && op_here == kAtaOpFill) << w;
            ASSERT_EQ(pd.op1, 1u) << w;
            ASSERT_EQ(pd.hs, 0u) << w;
            ASSERT_GE(cyc, pd.acc + 5) << w;
          } else {
            ASSERT_EQ(src, kAtaSrcL2) << w;
            ASSERT_TRUE(cmd_here && op_here == kAtaOpFill) << w;
            ASSERT_EQ(pd.hs, 1u) << w;
            ASSERT_EQ(pd.op1, 0u) << w;
          }
          pd.active = false;
          ++responded;
        }
        if (in.req_valid[i] && out.req_ready[i]) {
          ASSERT_FALSE(pd.active) << w << ": accepted while a request is in flight";
          pd = Pending{};
          pd.active = true;
          pd.write = in.req_write[i];
          pd.addr = in.req_addr[i] & ((p.addr_bits >= 64) ? ~uint64_t{0} : ((uint64_t{1} << p.addr_bits) - 1));
          pd.acc = cyc;
          ++accepted;
        }
      }
    }
    const long a1 = g_allocs;
    m.posedge(in);
    allocs += g_allocs - a1;
    const AtaEvents& e = m.events();
    // Union of the events for coverage.
    {
      const bool* src = reinterpret_cast<const bool*>(&e);
      bool* dst = reinterpret_cast<bool*>(cover);
      for (size_t k = 0; k < sizeof(AtaEvents) / sizeof(bool); ++k) dst[k] = dst[k] || src[k];
    }
    if (!in.rst_n) {
      ++resets;
      --reset_left;
      for (unsigned i = 0; i < N; ++i) {
        dropped += pend[i].active ? 1 : 0;
        pend[i] = Pending{};
        due[i] = kNever;
        remote_open[i] = 0;
        in.req_valid[i] = 0;
      }
    } else {
      for (unsigned i = 0; i < N; ++i) {
        if (in.req_valid[i] && out.req_ready[i]) in.req_valid[i] = 0;
        if (in.l2_resp_valid[i]) due[i] = kNever;
      }
    }
    // State invariants after the edge.
    for (unsigned j = 0; j < N; ++j)
      for (unsigned s = 0; s < S; ++s) {
        uint64_t age_seen = 0;
        for (unsigned w1 = 0; w1 < W; ++w1) {
          if (!p.plru()) age_seen |= uint64_t{1} << m.age(j, s, w1);
          if (!m.entry_valid(j, s, w1)) {
            ASSERT_EQ(m.entry_sv(j, s, w1), 0u) << w;
            continue;
          }
          ASSERT_NE(m.entry_sv(j, s, w1), 0u) << w << ": valid line without a sector";
          for (unsigned w2 = w1 + 1; w2 < W; ++w2)
            ASSERT_FALSE(m.entry_valid(j, s, w2) && m.entry_tag(j, s, w2) == m.entry_tag(j, s, w1))
                << w << ": line twice in array " << j << " set " << s;
        }
        if (!p.plru()) {
          ASSERT_EQ(age_seen, W >= 64 ? ~uint64_t{0} : (uint64_t{1} << W) - 1) << w;
        }
      }
    for (unsigned i = 0; i < N; ++i) {
      const AtaState st = m.state(i);
      const bool porty = st == AtaState::LRead || st == AtaState::LWrite || st == AtaState::Fill ||
                         st == AtaState::RRead;
      in_state[i] = (porty && st == last_state[i]) ? in_state[i] + 1 : (porty ? 1 : 0);
      last_state[i] = st;
      // A port requester is granted within N cycles (RREAD may also leave by
      // a failed recheck): never more than N cycles in one of these states.
      ASSERT_LE(in_state[i], N) << w << ": core " << i << " waits too long in " << name_of(st);
    }
  }
  for (unsigned i = 0; i < N; ++i) ASSERT_FALSE(pend[i].active) << rc.label << ": core " << i << " never answered";
  EXPECT_EQ(allocs, 0);
  const AtaStats& st = m.stats();
  // Since the last reset: every read ends in exactly one of local hit, remote
  // read or L2 read; every write in one L2 write.
  EXPECT_EQ(st.reads, st.local_hits + st.remote_hits + st.l2_reads) << rc.label;
  EXPECT_EQ(st.writes, st.l2_writes) << rc.label;
  EXPECT_EQ(st.l2_writes, st.write_hits + st.write_misses) << rc.label;
  EXPECT_EQ(st.remote_attempts, st.remote_hits + st.recheck_fails) << rc.label;
  EXPECT_EQ(st.accepts, st.responses) << rc.label;
  if (!p.aggregated()) {
    EXPECT_EQ(st.remote_attempts, 0u);
  }
  total->accepts += accepted;
  total->responses += responded;
  total->remote_hits += st.remote_hits;
  total->recheck_fails += st.recheck_fails;
  std::printf("[ random ] %s: accepted %llu answered %llu (+%llu cut by resets) resets %u; since last reset: local %llu remote %llu "
              "recheck-fail %llu (dirty %llu) l2 reads %llu write hits %llu misses %llu port conflicts %llu\n",
              rc.label, static_cast<unsigned long long>(accepted), static_cast<unsigned long long>(responded),
              static_cast<unsigned long long>(dropped), resets,
              static_cast<unsigned long long>(st.local_hits), static_cast<unsigned long long>(st.remote_hits),
              static_cast<unsigned long long>(st.recheck_fails),
              static_cast<unsigned long long>(st.recheck_fails_dirty), static_cast<unsigned long long>(st.l2_reads),
              static_cast<unsigned long long>(st.write_hits), static_cast<unsigned long long>(st.write_misses),
              static_cast<unsigned long long>(st.port_conflicts));
  EXPECT_EQ(accepted, responded + dropped) << rc.label << " (requests cut by a reset are not answered)";
}

TEST(AtaModel, RandomTrafficInvariants) {
  const uint64_t seed = 0xa7a5eedULL;
  const std::vector<RandomCfg> cfgs = {
      {kN2, {}, "ata_n2"},
      {kN4, {}, "ata_n4"},
      {kN4, [](config::AtaConfig& c) { c.remote_pick = config::AtaRemotePick::Nearest; }, "ata_n4_nearest"},
      {kN3Plru, {}, "ata_n3_plru"},
      {kPrivate, {}, "ata_private"},
  };
  AtaEvents cover;
  AtaStats total;
  for (size_t k = 0; k < cfgs.size(); ++k) {
    AtaEvents c1;
    random_run(cfgs[k], seed + k, 40000, &c1, &total);
    if (HasFatalFailure()) return;
    if (cfgs[k].file != kPrivate) {
      const bool* s1 = reinterpret_cast<const bool*>(&c1);
      bool* d = reinterpret_cast<bool*>(&cover);
      for (size_t q = 0; q < sizeof(AtaEvents) / sizeof(bool); ++q) d[q] = d[q] || s1[q];
    } else {
      EXPECT_FALSE(c1.remote_hit || c1.remote_read || c1.dirty_at_compare);
    }
  }
  EXPECT_TRUE(cover.local_hit);
  EXPECT_TRUE(cover.local_hit_with_remote);
  EXPECT_TRUE(cover.remote_read);
  EXPECT_TRUE(cover.write_hit);
  EXPECT_TRUE(cover.write_miss);
  EXPECT_TRUE(cover.sector_fill);
  EXPECT_TRUE(cover.recheck_fail_dirty);
  EXPECT_TRUE(cover.recheck_fail_evicted);
  EXPECT_TRUE(cover.dirty_at_compare);
  EXPECT_TRUE(cover.port_conflict);
  EXPECT_TRUE(cover.port_owner_lost);
  EXPECT_TRUE(cover.remote_pick_multi);
  EXPECT_TRUE(cover.victim_invalid);
  EXPECT_TRUE(cover.victim_replacement);
  EXPECT_TRUE(cover.victim_dirty);
  EXPECT_TRUE(cover.l2_backpressure);
  EXPECT_TRUE(cover.reset);
}

// The largest configuration (Table II) runs without allocating per cycle.
TEST(AtaModel, Table2DoesNotAllocatePerCycle) {
  const AtaParams p = load(kTable2);
  AtaModel m(p);
  AtaIn in = m.idle_inputs();
  AtaOut out = m.make_outputs();
  std::mt19937_64 rng(7);
  std::vector<unsigned> due(p.cores, kNever);
  long allocs = 0;
  for (unsigned cyc = 0; cyc < 5000; ++cyc) {
    for (unsigned i = 0; i < p.cores; ++i) {
      in.req_valid[i] = rng() % 2;
      in.req_write[i] = rng() % 8 == 0;
      in.req_addr[i] = addr(p, rng() % 200, static_cast<unsigned>(rng() % 8), static_cast<unsigned>(rng() % 4));
      in.l2_resp_valid[i] = due[i] <= cyc && m.state(i) == AtaState::L2Wait;
      if (in.l2_resp_valid[i]) due[i] = kNever;
    }
    const long a0 = g_allocs;
    m.outputs(in, out);
    for (unsigned i = 0; i < p.cores; ++i)
      if (out.l2_req_valid[i] && !out.l2_req_write[i]) due[i] = cyc + 7;
    m.posedge(in);
    allocs += g_allocs - a0;
  }
  EXPECT_EQ(allocs, 0);
  EXPECT_GT(m.stats().remote_hits, 100u);
  EXPECT_GT(m.stats().local_hits, 100u);
}

// ---------------------------------------------------------------------------
// Experiment: inter-core locality (III-A: "for applications with high
// inter-core locality, the remote cache is accessed only when it has
// replicated data"). N = 4 (ata_n4: 64 lines of 64 B per L1) against the same
// configuration in `private` mode. Each core issues 12000 requests (10 %
// writes), to a shared pool of 128 lines with probability `sharing`, else to
// its own private pool of 96 lines (both pools exceed one L1, not four); the
// sector is uniform. The L2 takes every request and answers reads 20 cycles
// after the handshake.

struct ExpResult {
  uint64_t reads = 0, local_hits = 0, remote_hits = 0, l2_reads = 0, recheck_fails = 0, cycles = 0, conflicts = 0;
  double hit_rate() const { return reads ? double(local_hits + remote_hits) / double(reads) : 0.0; }
};

ExpResult run_locality(const AtaParams& p, double sharing, uint64_t seed, unsigned per_core) {
  const unsigned N = p.cores;
  const unsigned line_bytes = p.line_bytes;
  const unsigned shared_lines = 128, private_lines = 96;
  // Traces (identical for both designs: seeded by (seed, core) only).
  std::vector<std::vector<std::pair<bool, uint64_t>>> trace(N);
  for (unsigned i = 0; i < N; ++i) {
    std::mt19937_64 rng(seed * 1000 + i);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    for (unsigned k = 0; k < per_core; ++k) {
      const bool shared = u(rng) < sharing;
      const uint64_t line = shared ? rng() % shared_lines : 1024 + i * 256 + rng() % private_lines;
      const unsigned sec = static_cast<unsigned>(rng() % p.sectors);
      const bool wr = u(rng) < 0.10;
      trace[i].push_back({wr, line * line_bytes + uint64_t{sec} * p.sector_bytes});
    }
  }
  AtaModel m(p);
  AtaIn in = m.idle_inputs();
  AtaOut out = m.make_outputs();
  std::vector<size_t> next(N, 0);
  std::vector<unsigned> due(N, kNever);
  unsigned cyc = 0;
  for (;; ++cyc) {
    bool busy = false;
    for (unsigned i = 0; i < N; ++i) {
      in.req_valid[i] = next[i] < trace[i].size();
      if (in.req_valid[i]) {
        in.req_write[i] = trace[i][next[i]].first;
        in.req_addr[i] = trace[i][next[i]].second;
      }
      in.l2_resp_valid[i] = due[i] == cyc;
      busy = busy || in.req_valid[i] || m.state(i) != AtaState::Idle;
    }
    if (!busy) break;
    m.outputs(in, out);
    for (unsigned i = 0; i < N; ++i) {
      if (in.req_valid[i] && out.req_ready[i]) ++next[i];
      if (out.l2_req_valid[i] && in.l2_req_ready[i] && !out.l2_req_write[i]) due[i] = cyc + 20;
    }
    m.posedge(in);
  }
  const AtaStats& st = m.stats();
  ExpResult r;
  r.reads = st.reads;
  r.local_hits = st.local_hits;
  r.remote_hits = st.remote_hits;
  r.l2_reads = st.l2_reads;
  r.recheck_fails = st.recheck_fails;
  r.cycles = cyc;
  r.conflicts = st.port_conflicts;
  return r;
}

TEST(AtaExperiment, LocalityHitRate) {
  const AtaParams ata = load(kN4);
  const AtaParams priv = load(kN4, [](config::AtaConfig& c) { c.mode = config::AtaMode::Private; });
  ASSERT_TRUE(ata.aggregated());
  ASSERT_FALSE(priv.aggregated());
  ASSERT_EQ(ata.sets * ata.ways, 64u);  // lines per L1: pools of 128 / 96 lines exceed one, not four
  const uint64_t seed = 3;
  const unsigned per_core = 12000;
  std::printf("[ locality ] N = 4, 64 lines per L1, shared pool 128 lines, private pools 96 lines, %u requests per "
              "core (10 %% writes), L2 read latency 20, seed %llu\n",
              per_core, static_cast<unsigned long long>(seed));
  std::printf("[ locality ] %-7s %-7s %8s %9s %11s %9s %8s %9s\n", "sharing", "design", "L1 hit", "L2 reads",
              "remote hits", "rechk", "cycles", "conflicts");
  for (const double sharing : {0.0, 0.5, 0.9}) {
    const ExpResult a = run_locality(ata, sharing, seed, per_core);
    const ExpResult q = run_locality(priv, sharing, seed, per_core);
    for (const auto& [name, r] : {std::pair<const char*, const ExpResult&>{"ata", a}, {"private", q}})
      std::printf("[ locality ] %-7.1f %-7s %7.1f%% %9llu %11llu %9llu %8llu %9llu\n", sharing, name,
                  100.0 * r.hit_rate(), static_cast<unsigned long long>(r.l2_reads),
                  static_cast<unsigned long long>(r.remote_hits), static_cast<unsigned long long>(r.recheck_fails),
                  static_cast<unsigned long long>(r.cycles), static_cast<unsigned long long>(r.conflicts));
    EXPECT_EQ(a.reads, q.reads);
    EXPECT_EQ(q.remote_hits, 0u);
    if (sharing >= 0.9) {
      EXPECT_LT(a.l2_reads, q.l2_reads) << "sharing " << sharing;
      EXPECT_GT(a.hit_rate(), q.hit_rate());
    }
    if (sharing == 0.0) {
      EXPECT_LE(double(a.l2_reads), 1.02 * double(q.l2_reads)) << "sharing 0";
    }
  }
}

}  // namespace
}  // namespace txgen::model
