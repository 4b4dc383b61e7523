// Unit tests of the golden tx_path model (docs/blocks/tx_path.md).
//
// Configurations: tests/configs/tx_path_small.json (U = 2 CUs, one I-cache of
// S = 2 sharers, 4-way LRU L1-TLBs with 2 MSHRs (LT = 1), 1 KB LDS of 32
// segments of 3 ways (SI = 5), 2 KB I-cache of 32 lines (8 sets x 4 ways, LI =
// 5) with X = 8 translations per line and CP = 2 comparators (NG = 4), D = 2,
// WL = WI = 0, promotion move) and tests/configs/tx_path_quad.json (U = 4, two
// I-caches of 2 sharers, 4-way PLRU L1-TLBs, 1 KB LDS (arith codec), 1 KB
// naive I-cache of 32 lines (16 sets x 2 ways) with one translation per line,
// D = 1, WL = 3, WI = 5, promotion copy). 32-bit VA, 4 KB pages: 20-bit VPN,
// VMID 1 bit, VRF 1 bit, PPN 20, PERM 4. In both, a VPN's LDS segment is
// vpn[4:0] and its I-cache line is vpn[4:0]. shared_l1() gives either T < U
// L1-TLBs in C clusters (section 10b).
//
// Cycle numbering in the directed tests: "t" is the cycle in which the
// L1-TLB accepts the CU request (req_valid & req_ready); "edge t+k" is the
// rising edge that ends cycle t+k; a register loaded at edge t+k is visible
// from cycle t+k+1. The member timings used (their documents):
//  - l1tlb: request accepted in t, decide in t+2 (MSHR at edge t+2), L2 choice
//    in t+3, l2_req_valid_o from t+4; L2 response (the path's promotion or
//    L2 fill) in f: entry written at edge f+2 (evict_valid_o in f+3),
//    fill_valid_o in f+4; a shootdown accepted in e: sd_done_o in e+3.
//  - lds_ctrl: lookup accepted in A: answer valid from A+4 (Tx-mode segment),
//    A+2 (LDS-mode segment); a lookup hit then writes its tag words (WRITE in
//    A+4) and is IDLE in A+5; a shootdown by VPN of a Tx segment accepted in A:
//    ISSUE A+1, DEC A+2, CMP A+3, WRITE A+4, IDLE with sd_done_o in A+5.
//  - icache_tx: lookup accepted in A: answer valid from A+2 (line not Tx),
//    A+3+g+2 for a hit in compare group g, A+3+NG+1 for a miss in a Tx line.
#include "model/tx_path.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <functional>
#include <map>
#include <new>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "txgen/config/parse.h"
#include "txgen/elab/tx_path.h"
#include "txgen/error.h"

// Counts heap allocations (the no-allocation test).
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

using elab::TxPathParams;
using Stage = TxPathModel::Stage;

const char* const kSmall = "tests/configs/tx_path_small.json";
const char* const kQuad = "tests/configs/tx_path_quad.json";

config::Config load_cfg(const char* rel) {
  return config::load_config_file(std::string(TXGEN_SOURCE_DIR) + "/" + rel);
}
TxPathParams load(const char* rel) { return elab::elaborate_tx_path(load_cfg(rel)); }
// tx_path_small with CP = X = 8 comparators (the document's cycle example).
TxPathParams load_small_cp8() {
  config::Config c = load_cfg(kSmall);
  c.tx_path->icache_tx.comparators = 8;
  return elab::elaborate_tx_path(c);
}

uint64_t mask(unsigned bits) { return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }

// The environment's translation of (vpn, vmid): a fixed function, so every
// fill, hit, queued or cached translation can be checked against it.
uint64_t env_ppn(const TxPathParams& p, uint64_t vpn, uint64_t vmid) {
  uint64_t x = (vpn + 1) * 0x9E3779B97F4A7C15ull ^ (vmid + 3) * 0xC2B2AE3D27D4EB4Full;
  x ^= x >> 29;
  return x & mask(p.ppn_bits);
}
uint64_t env_perm(const TxPathParams& p, uint64_t vpn, uint64_t vmid) {
  return ((vpn * 5 + vmid * 3 + 1) % 15 + 1) & mask(p.perm_bits);
}

// OR of two event structs (every member is a bool).
constexpr size_t kEventFlags = sizeof(TxPathEvents) / sizeof(bool);
static_assert(sizeof(TxPathEvents) % sizeof(bool) == 0, "events are bools");
void or_events(TxPathEvents& a, const TxPathEvents& b) {
  bool* pa = reinterpret_cast<bool*>(&a);
  const bool* pb = reinterpret_cast<const bool*>(&b);
  for (size_t i = 0; i < kEventFlags; ++i) pa[i] = pa[i] || pb[i];
}

// ---------------------------------------------------------------------------
// A behavioural L2-TLB on the path's port: it takes every request offered
// (with a readiness probability), answers each taken tag once, lat_min ..
// lat_max cycles later (at least 1), in order or in random order, holding a
// presented answer until l2_resp_ready_o; it takes victims with a readiness
// probability and logs them.

struct L2Env {
  const TxPathParams* p = nullptr;
  std::mt19937_64 rng{1};
  unsigned lat_min = 3, lat_max = 3;
  bool random_order = false;
  double req_ready_p = 1.0, vic_ready_p = 1.0;
  bool hold = false;  // present nothing while set
  struct Req {
    uint64_t tag = 0, vpn = 0, vmid = 0, due = 0;
  };
  std::vector<Req> pending;
  bool presenting = false;
  Req cur;
  struct Log {
    uint64_t cyc = 0, vpn = 0, vmid = 0, ppn = 0, perm = 0;
  };
  std::vector<Log> reqs, vics;
  uint64_t data_errors = 0;

  bool bern(double q) { return q >= 1.0 || std::uniform_real_distribution<double>(0, 1)(rng) < q; }

  void drive(TxPathIn& in, uint64_t cyc) {
    in.l2_req_ready = bern(req_ready_p);
    in.l2_vic_ready = bern(vic_ready_p);
    if (!presenting && !hold && !pending.empty()) {
      int pick = -1;
      if (random_order) {
        unsigned due = 0;
        for (const Req& r : pending) due += r.due <= cyc ? 1 : 0;
        if (due > 0) {
          unsigned n = static_cast<unsigned>(rng() % due);
          for (size_t i = 0; i < pending.size(); ++i)
            if (pending[i].due <= cyc && n-- == 0) {
              pick = static_cast<int>(i);
              break;
            }
        }
      } else if (pending.front().due <= cyc) {
        pick = 0;
      }
      if (pick >= 0) {
        cur = pending[static_cast<size_t>(pick)];
        pending.erase(pending.begin() + pick);
        presenting = true;
      }
    }
    in.l2_resp_valid = presenting;
    if (presenting) {
      in.l2_resp_tag = cur.tag;
      in.l2_resp_ppn = env_ppn(*p, cur.vpn, cur.vmid);
      in.l2_resp_perm = env_perm(*p, cur.vpn, cur.vmid);
    }
  }

  void observe(const TxPathIn& in, const TxPathOut& out, uint64_t cyc) {
    if (out.l2_req_valid && in.l2_req_ready) {
      for (const Req& r : pending)
        if (r.tag == out.l2_req_tag) ADD_FAILURE() << "L2 tag " << r.tag << " requested twice";
      if (presenting && cur.tag == out.l2_req_tag) ADD_FAILURE() << "L2 tag requested while answered";
      const unsigned lat = lat_min + static_cast<unsigned>(rng() % (lat_max - lat_min + 1));
      pending.push_back(Req{out.l2_req_tag, out.l2_req_vpn, out.l2_req_vmid, cyc + std::max(1u, lat)});
      reqs.push_back(Log{cyc, out.l2_req_vpn, out.l2_req_vmid, 0, 0});
    }
    if (presenting && in.l2_resp_valid && out.l2_resp_ready) presenting = false;
    if (out.l2_vic_valid && in.l2_vic_ready) {
      vics.push_back(Log{cyc, out.l2_vic_vpn, out.l2_vic_vmid, out.l2_vic_ppn, out.l2_vic_perm});
      if (out.l2_vic_ppn != env_ppn(*p, out.l2_vic_vpn, out.l2_vic_vmid) ||
          out.l2_vic_perm != env_perm(*p, out.l2_vic_vpn, out.l2_vic_vmid))
        ++data_errors;
    }
  }
  void reset() {
    pending.clear();
    presenting = false;
  }
  bool idle() const { return pending.empty() && !presenting; }
};

// ---------------------------------------------------------------------------
// Bench: the model, the inputs of the current cycle, the environment.

struct Bench {
  TxPathParams p;
  TxPathModel m;
  TxPathIn in;
  TxPathOut out;
  L2Env env;
  uint64_t cyc = 0;
  TxPathEvents seen;                            // OR of the events since the last clear
  std::map<uint64_t, TxPathEvents> ev_at;       // events of edge c (when record_events)
  bool record_events = false;
  std::function<void()> pre;                    // before the cycle's inputs are used (drive inputs here)
  std::function<void()> hook;                   // after outputs, before the edge (checks; inputs fixed)
  uint64_t data_errors = 0;
  uint64_t filler_k = 0;

  explicit Bench(const TxPathParams& pp, bool baseline = false, uint64_t seed = 1)
      : p(pp), m(pp, baseline), in(m.idle_inputs()), out(m.make_outputs()) {
    env.p = &p;
    env.rng.seed(seed);
  }

  void check_data() {
    for (unsigned u = 0; u < p.cus; ++u) {
      if (out.fill_valid[u] && (out.fill_ppn[u] != env_ppn(p, out.fill_vpn[u], out.fill_vmid[u]) ||
                                out.fill_perm[u] != env_perm(p, out.fill_vpn[u], out.fill_vmid[u]))) {
        ++data_errors;
        ADD_FAILURE() << "cycle " << cyc << " CU " << u << " fill of vpn " << out.fill_vpn[u] << " carries ppn "
                      << out.fill_ppn[u];
      }
      if (out.resp_valid[u] && (out.resp_ppn[u] != env_ppn(p, out.resp_vpn[u], out.resp_vmid[u]) ||
                                out.resp_perm[u] != env_perm(p, out.resp_vpn[u], out.resp_vmid[u]))) {
        ++data_errors;
        ADD_FAILURE() << "cycle " << cyc << " CU " << u << " hit of vpn " << out.resp_vpn[u] << " carries ppn "
                      << out.resp_ppn[u];
      }
    }
  }

  void step() {
    if (pre) pre();
    env.drive(in, cyc);
    m.outputs(in, out);
    check_data();
    if (hook) hook();
    env.observe(in, out, cyc);
    m.posedge(in);
    or_events(seen, m.events());
    if (record_events) ev_at[cyc] = m.events();
    ++cyc;
  }
  void run(uint64_t n) {
    while (n--) step();
  }

  bool l1_quiet() const {
    const L1tlbModel& l1 = m.l1();
    for (unsigned j = 0; j < p.l1.tlbs; ++j)
      if (l1.free_mshrs(j) != p.l1.mshrs || l1.r1_valid(j) || l1.r2_valid(j)) return false;
    for (unsigned c = 0; c < p.l1.clusters; ++c)
      if (l1.q_valid(c) || l1.f1_valid(c) || l1.f2_valid(c) || l1.f3_valid(c)) return false;
    return !l1.sd1_valid() && !l1.sd2_valid();
  }
  bool quiet() const {
    if (!m.glue_quiet() || !l1_quiet() || !env.idle()) return false;
    for (unsigned u = 0; u < p.cus; ++u)
      if (!m.lds(u).idle()) return false;
    for (unsigned g = 0; g < p.icaches; ++g)
      if (!m.icache(g).idle()) return false;
    return true;
  }
  void settle(unsigned limit = 3000) {
    for (unsigned n = 0; n < limit; ++n) {
      if (quiet()) {
        run(2);
        if (quiet()) return;
      }
      step();
    }
    ADD_FAILURE() << "the path did not settle by cycle " << cyc;
  }

  // Drives CU u's request until the L1-TLB accepts it; returns the accept cycle.
  uint64_t request(unsigned u, uint64_t vpn, uint64_t vmid = 0) {
    in.req_valid[u] = 1;
    in.req_vpn[u] = vpn;
    in.req_vmid[u] = vmid;
    for (unsigned n = 0; n < 2000; ++n) {
      step();
      if (out.req_ready[u]) {
        in.req_valid[u] = 0;
        return cyc - 1;
      }
    }
    in.req_valid[u] = 0;
    ADD_FAILURE() << "request not accepted";
    return 0;
  }
  // Steps until fill_valid_o[u] answers vpn; returns that cycle.
  uint64_t wait_fill(unsigned u, uint64_t vpn, unsigned limit = 3000) {
    for (unsigned n = 0; n < limit; ++n) {
      step();
      if (out.fill_valid[u] && out.fill_vpn[u] == vpn) return cyc - 1;
    }
    ADD_FAILURE() << "no fill for vpn " << vpn;
    return 0;
  }
  void fetch(unsigned u, uint64_t vpn, uint64_t vmid = 0) {
    request(u, vpn, vmid);
    wait_fill(u, vpn);
    settle();
  }
  // A fresh VPN in LDS segments / I-cache lines 16..31, never used twice.
  uint64_t filler() {
    const uint64_t k = filler_k++;
    return 0x4000 + 32 * k + 16 + (k % 16);
  }
  // Fetches the list, then four fresh fillers: with a 4-way L1 every VPN of
  // the list leaves the L1-TLB, in order, down the chain. Returns the
  // fillers (they are then the L1's entries, the first one LRU).
  std::vector<uint64_t> push_down(unsigned u, const std::vector<uint64_t>& vpns) {
    for (uint64_t v : vpns) fetch(u, v);
    std::vector<uint64_t> f;
    for (unsigned k = 0; k < p.l1.ways; ++k) {
      f.push_back(filler());
      fetch(u, f.back());
    }
    return f;
  }
  void wg(unsigned u, bool free, uint32_t base, uint32_t size) {
    in.wg_valid[u] = 1;
    in.wg_free[u] = free;
    in.wg_base[u] = base;
    in.wg_size[u] = size;
    for (unsigned n = 0; n < 200; ++n) {
      step();
      if (out.wg_ready[u]) break;
    }
    in.wg_valid[u] = 0;
    for (unsigned n = 0; n < 200; ++n) {
      step();
      if (out.wg_done[u]) return;
    }
    ADD_FAILURE() << "no wg_done";
  }
  void ifill(unsigned g, uint64_t addr) {
    in.ifill_valid[g] = 1;
    in.ifill_addr[g] = addr;
    in.ifill_data[g] = Bits(p.ic.line_bits);
    in.ifill_data[g].set_field(0, 64, 0x1234567890abcdefull ^ addr);
    for (unsigned n = 0; n < 200; ++n) {
      step();
      if (out.ifill_ready[g]) {
        in.ifill_valid[g] = 0;
        return;
      }
    }
    in.ifill_valid[g] = 0;
    ADD_FAILURE() << "instruction fill not accepted";
  }
  bool l2_requested(uint64_t vpn, uint64_t from_cycle) const {
    for (const L2Env::Log& r : env.reqs)
      if (r.cyc >= from_cycle && r.vpn == vpn) return true;
    return false;
  }
  bool l2_victim(uint64_t vpn, uint64_t vmid) const {
    for (const L2Env::Log& r : env.vics)
      if (r.vpn == vpn && r.vmid == vmid) return true;
    return false;
  }
};

// Register outputs of the members (independent of their inputs): the LDS's
// and the I-cache's victim outputs, the L1-TLB's eviction outputs.
LdsCtrlOut lds_regs(const TxPathModel& m, unsigned u) {
  static const LdsCtrlIn probe;
  return m.lds(u).outputs(probe);
}
IcacheTxOut ic_regs(const TxPathModel& m, unsigned g) { return m.icache(g).outputs(IcacheTxIn::idle(m.params().ic)); }
L1tlbOut l1_regs(const TxPathModel& m) { return m.l1().outputs(m.l1().idle_inputs()); }
bool held_by(const std::vector<LdsCtrlModel::HeldTx>& v, uint64_t vpn) {
  for (const auto& h : v)
    if (h.vpn == vpn) return true;
  return false;
}
bool held_by(const std::vector<IcacheTxModel::HeldTx>& v, uint64_t vpn) {
  for (const auto& h : v)
    if (h.vpn == vpn) return true;
  return false;
}

// ---------------------------------------------------------------------------
// Where a translation is, everywhere in the path (also in flight).

bool anywhere(const TxPathModel& m, const TxPathParams& p, bool all, uint64_t vpn, uint64_t vmid,
              std::string* where) {
  auto hit = [&](uint64_t v, uint64_t vm) { return all || (v == vpn && vm == vmid); };
  std::ostringstream os;
  for (unsigned j = 0; j < p.l1.tlbs; ++j)
    for (unsigned s = 0; s < p.l1.sets; ++s)
      for (unsigned w = 0; w < p.l1.ways; ++w)
        if (m.l1().entry_valid(j, s, w) && hit(m.l1().entry_vpn(j, s, w), m.l1().entry_vmid(j, s, w)))
          os << " L1[" << j << "]";
  for (unsigned u = 0; u < p.cus; ++u) {
    for (unsigned k = 0; k < m.queue_occupancy(u); ++k) {
      const TxPathModel::QueueEntry e = m.queue_entry(u, k);
      if (!e.kill && hit(e.vpn, e.vmid)) os << " queue[" << u << "]";
    }
    const TxPathModel::VictimReg& lb = m.lds_victim_reg(u);
    if (lb.valid && !lb.kill && hit(lb.vpn, lb.vmid)) os << " lb[" << u << "]";
    for (const LdsCtrlModel::HeldTx& h : m.lds(u).held())
      if (hit(h.vpn, h.vmid)) os << " LDS[" << u << "]";
    for (const LdsCtrlModel::HeldTx& h : m.lds(u).in_flight())
      if (hit(h.vpn, h.vmid)) os << " LDS-engine[" << u << "]";
  }
  for (unsigned g = 0; g < p.icaches; ++g) {
    for (const IcacheTxModel::HeldTx& h : m.icache(g).held())
      if (hit(h.vpn, h.vmid)) os << " IC[" << g << "]";
    for (const IcacheTxModel::HeldTx& h : m.icache(g).in_flight())
      if (hit(h.vpn, h.vmid)) os << " IC-engine[" << g << "]";
  }
  const TxPathModel::VictimReg& vr = m.l2_victim_reg();
  if (vr.valid && !vr.kill && hit(vr.vpn, vr.vmid)) os << " vr";
  if (where) *where = os.str();
  return !os.str().empty();
}

// ---------------------------------------------------------------------------
// Shootdown watcher: the phase order (every LDS and I-cache reports sd_done
// after the path accepted the shootdown and before the L1-TLB's own
// shootdown starts), no victim of the shot-down translation on the L2 victim
// port from the cycle after the accept until sd_done_o, and at sd_done_o the
// translation is nowhere in the path.

struct SdWatch {
  Bench& b;
  bool active = false, all = false, l1_started = false;
  uint64_t vpn = 0, vmid = 0, accept = 0;
  std::vector<bool> lds_done, ic_done;
  uint64_t completed = 0, stale_victims = 0, order_errors = 0, leftovers = 0;
  bool check_nowhere = true;
  LdsCtrlIn lds_probe;
  IcacheTxIn ic_probe;

  explicit SdWatch(Bench& bb) : b(bb), ic_probe(IcacheTxIn::idle(bb.p.ic)) {}

  // Call in the hook (after outputs, before the edge).
  void cycle() {
    const TxPathModel& m = b.m;
    if (!b.in.rst_n) {
      active = false;
      return;
    }
    if (active) {
      // member done pulses are registered outputs (input-independent)
      for (unsigned u = 0; u < b.p.cus; ++u)
        if (m.lds(u).outputs(lds_probe).sd_done) lds_done[u] = true;
      for (unsigned g = 0; g < b.p.icaches; ++g)
        if (m.icache(g).outputs(ic_probe).sd_done) ic_done[g] = true;
      if (!l1_started && m.l1().sd1_valid()) {
        l1_started = true;
        for (unsigned u = 0; u < b.p.cus; ++u)
          if (!lds_done[u]) ++order_errors;
        for (unsigned g = 0; g < b.p.icaches; ++g)
          if (!ic_done[g]) ++order_errors;
      }
      if (b.out.l2_vic_valid && (all || (b.out.l2_vic_vpn == vpn && b.out.l2_vic_vmid == vmid))) ++stale_victims;
      if (b.out.sd_done) {
        if (!l1_started) ++order_errors;
        std::string where;
        if (check_nowhere && anywhere(m, b.p, all, vpn, vmid, &where)) {
          ++leftovers;
          ADD_FAILURE() << "cycle " << b.cyc << ": after sd_done (all " << all << ", vpn " << vpn
                        << ") still in" << where;
        }
        active = false;
        ++completed;
      }
    }
    if (b.in.sd_valid && b.out.sd_ready) {
      EXPECT_FALSE(active) << "shootdown accepted while one is active";
      active = true;
      all = b.in.sd_all;
      vpn = b.in.sd_vpn;
      vmid = b.in.sd_vmid;
      accept = b.cyc;
      l1_started = false;
      lds_done.assign(b.p.cus, false);
      ic_done.assign(b.p.icaches, false);
    }
  }
};

// ===========================================================================
// 1. LDS hit
// ===========================================================================

// Setup: CU 0 fetches a0..a4 (segments 0..4) one at a time; the fifth fill
// evicts the LRU entry a0 (ways filled 0..3 in order, way 0 oldest), which
// goes down the queue into the free LDS segment 0 (initialised). Then CU 0
// asks for a0 again, accepted in t:
//   t+4  L1 l2_req_valid_o; IDLE takes rq at edge t+4
//   t+5  LDS_REQ, LDS accepts (A = t+5; occ = 0)
//   t+6..t+9 LDS_WAIT; the answer (A+4 = t+9, Tx segment) is taken at edge t+9
//   t+10 RET (credit: out = occ = 0 < 2; rml free): the L1's l2_resp_valid_i
//        = 1 -> fill_valid_o in t+14. rml loads at edge t+10.
//   t+11 IDLE; the LDS (IDLE since A+5 = t+10) accepts the remove:
//        ISSUE t+12, DEC t+13, CMP t+14, WRITE t+15, IDLE + sd_done t+16.
//   The promotion's write at edge t+12 evicts the L1's LRU entry a1:
//   evict_valid_o in t+13, queued at edge t+13 (occ = 1 from t+14), the LDS
//   takes the fill when it is free again (t+16): occ = 0 from t+17.
//   hit_lds_o[0] = 1 in t+10 only (the RET cycle, ret = 1), hit_ic_o never.
TEST(TxPathModel, LdsHitFourteenCyclesAndMoveRemovesIt) {
  Bench b(load(kSmall));
  b.settle();
  const uint64_t a[5] = {0x40, 0x41, 0x42, 0x43, 0x44};
  for (uint64_t v : a) b.fetch(0, v);
  ASSERT_FALSE(b.m.in_l1(0, a[0], 0));
  ASSERT_TRUE(b.m.in_lds(0, a[0], 0, 0));
  std::map<uint64_t, Stage> st;
  std::map<uint64_t, unsigned> occ;
  std::set<uint64_t> hit_lds, hit_ic;
  b.hook = [&] {
    st[b.cyc] = b.m.stage(0);
    occ[b.cyc] = b.m.queue_occupancy(0);
    for (unsigned u = 0; u < b.p.cus; ++u) {
      if (b.out.hit_lds[u]) hit_lds.insert(b.cyc * 8 + u);
      if (b.out.hit_ic[u]) hit_ic.insert(b.cyc * 8 + u);
    }
  };
  b.record_events = true;
  const uint64_t t = b.request(0, a[0]);
  const uint64_t f = b.wait_fill(0, a[0]);
  b.run(6);
  EXPECT_EQ(f, t + 14) << "LDS hit: fill_valid_o 14 cycles after the accept";
  EXPECT_EQ(hit_lds, std::set<uint64_t>{(t + 10) * 8 + 0}) << "hit_lds_o: CU 0 in the RET cycle t+10 only";
  EXPECT_TRUE(hit_ic.empty());
  for (uint64_t c = t; c <= t + 4; ++c) EXPECT_EQ(st[c], Stage::Idle) << c - t;
  EXPECT_EQ(st[t + 5], Stage::LdsReq);
  for (uint64_t c = t + 6; c <= t + 9; ++c) EXPECT_EQ(st[c], Stage::LdsWait) << c - t;
  EXPECT_EQ(st[t + 10], Stage::Ret);
  EXPECT_EQ(st[t + 11], Stage::Idle);
  EXPECT_TRUE(b.ev_at[t + 9].lds_lookup_hit);
  EXPECT_TRUE(b.ev_at[t + 10].promotion_lds);
  EXPECT_TRUE(b.ev_at[t + 11].remove_lds);
  EXPECT_TRUE(b.ev_at[t + 13].l1_victim_queued);
  EXPECT_EQ(occ[t + 13], 0u);
  EXPECT_EQ(occ[t + 14], 1u);
  EXPECT_EQ(occ[t + 16], 1u);
  EXPECT_EQ(occ[t + 17], 0u);
  EXPECT_FALSE(b.l2_requested(a[0], t));
  b.hook = nullptr;
  b.settle();
  EXPECT_TRUE(b.m.in_l1(0, a[0], 0));
  EXPECT_FALSE(b.m.in_lds(0, a[0], 0, 0)) << "move: the promoted translation left the LDS";
  EXPECT_TRUE(b.m.in_lds(0, a[1], 0, 0)) << "the promotion's L1 victim went down to the LDS";
  EXPECT_FALSE(b.m.in_l1(0, a[1], 0));
}

// Quad (WL = 3, copy): the answer taken at edge t+9 goes to WIRE with cnt = 2:
// WIRE in t+10, t+11, t+12, RET in t+13 (hit_lds_o), fill_valid_o in t+17
// (14 + WL). No remove: the translation stays in the LDS.
TEST(TxPathModel, LdsHitPlusWireLatencyQuadCopyKeepsIt) {
  Bench b(load(kQuad));
  b.settle();
  const uint64_t a[5] = {0x40, 0x41, 0x42, 0x43, 0x44};
  for (uint64_t v : a) b.fetch(0, v);
  ASSERT_FALSE(b.m.in_l1(0, a[0], 0));  // PLRU after ways 0..3: way 0 is the victim
  ASSERT_TRUE(b.m.in_lds(0, a[0], 0, 0));
  std::map<uint64_t, Stage> st;
  std::vector<uint64_t> hits;
  b.hook = [&] {
    st[b.cyc] = b.m.stage(0);
    for (unsigned u = 0; u < b.p.cus; ++u) {
      if (b.out.hit_lds[u]) hits.push_back(b.cyc * 8 + u);
      EXPECT_FALSE(b.out.hit_ic[u]);
    }
  };
  const uint64_t t = b.request(0, a[0]);
  const uint64_t f = b.wait_fill(0, a[0]);
  EXPECT_EQ(f, t + 17) << "LDS hit with WL = 3";
  EXPECT_EQ(hits, std::vector<uint64_t>{(t + 13) * 8});
  EXPECT_EQ(st[t + 9], Stage::LdsWait);
  for (uint64_t c = t + 10; c <= t + 12; ++c) EXPECT_EQ(st[c], Stage::Wire) << c - t;
  EXPECT_EQ(st[t + 13], Stage::Ret);
  EXPECT_FALSE(b.l2_requested(a[0], t));
  b.hook = nullptr;
  b.settle();
  EXPECT_TRUE(b.m.in_l1(0, a[0], 0));
  EXPECT_TRUE(b.m.in_lds(0, a[0], 0, 0)) << "copy: the lower copy stays";
  EXPECT_FALSE(b.seen.remove_lds);
}

// ===========================================================================
// 2. I-cache hit
// ===========================================================================

// Setup (segment and line 3): CU 0 fetches v0..v3 = 3, 35, 67, 99 and four
// fillers. The fillers' fills evict v0, v1, v2, v3 in that order: v0
// initialises LDS segment 3, v1 and v2 take its free ways, v3 finds it full
// and evicts its LRU translation v0 (flow 1-2-4-5-6), which the I-cache
// installs into its Invalid line 3 as sub-entry 0 (flow 6-7-8). CU 0 then asks
// for v0, accepted in t: the LDS answers a Tx-mode miss in t+9; IC_REQ in
// t+10 (A), read A+1, DEC A+2, CMP from A+3: group 0 is compared in A+3 and
// evaluated in A+4, the hit valid from A+5 = t+15; RET in t+16 (hit_ic_o),
// fill_valid_o in t+20. (lb is empty: tl_valid_i in t+10.)
void setup_v0_in_icache(Bench& b) {
  b.settle();
  b.push_down(0, {3, 35, 67, 99});
  ASSERT_TRUE(b.m.in_icache(0, 3, 0, 0));
  ASSERT_FALSE(b.m.in_lds(0, 3, 0, 0));
  ASSERT_TRUE(b.m.in_lds(0, 35, 0, 0));
  ASSERT_TRUE(b.m.in_lds(0, 67, 0, 0));
  ASSERT_TRUE(b.m.in_lds(0, 99, 0, 0));
  ASSERT_FALSE(b.m.in_l1(0, 3, 0));
}

TEST(TxPathModel, IcacheHitTwentyCyclesAndMoveRemovesIt) {
  Bench b(load(kSmall));
  setup_v0_in_icache(b);
  std::map<uint64_t, Stage> st;
  std::vector<uint64_t> hits;
  b.hook = [&] {
    st[b.cyc] = b.m.stage(0);
    for (unsigned u = 0; u < b.p.cus; ++u) {
      if (b.out.hit_ic[u]) hits.push_back(b.cyc * 8 + u);
      EXPECT_FALSE(b.out.hit_lds[u]);
    }
  };
  b.record_events = true;
  const uint64_t t = b.request(0, 3);
  const uint64_t f = b.wait_fill(0, 3);
  EXPECT_EQ(f, t + 20) << "I-cache hit: fill_valid_o 20 cycles after the accept";
  EXPECT_EQ(hits, std::vector<uint64_t>{(t + 16) * 8}) << "hit_ic_o: CU 0 in the RET cycle t+16 only";
  EXPECT_TRUE(b.ev_at[t + 9].lds_lookup_miss);
  EXPECT_EQ(st[t + 10], Stage::IcReq);
  for (uint64_t c = t + 11; c <= t + 15; ++c) EXPECT_EQ(st[c], Stage::IcWait) << c - t;
  EXPECT_EQ(st[t + 16], Stage::Ret);
  EXPECT_TRUE(b.ev_at[t + 15].ic_lookup_hit);
  EXPECT_TRUE(b.ev_at[t + 16].promotion_ic);
  EXPECT_TRUE(b.ev_at[t + 17].remove_ic);  // rmi loaded at edge t+16, the I-cache idle since t+16
  EXPECT_FALSE(b.l2_requested(3, t));
  b.hook = nullptr;
  b.settle();
  EXPECT_TRUE(b.m.in_l1(0, 3, 0));
  EXPECT_FALSE(b.m.in_icache(0, 3, 0, 0)) << "move: the promoted translation left the I-cache";
}

// Quad (WL = 3, WI = 5, X = 1, CP = 1, copy): LDS miss taken at edge t+9,
// WIRE t+10..t+12, IC_REQ t+13 (A), hit valid A+5 = t+18, WIRE t+19..t+23,
// RET t+24 (hit_ic_o), fill_valid_o t+28 (20 + WL + WI). copy: still in the
// I-cache.
TEST(TxPathModel, IcacheHitPlusWireLatencyQuadCopyKeepsIt) {
  Bench b(load(kQuad));
  setup_v0_in_icache(b);
  std::map<uint64_t, Stage> st;
  std::vector<uint64_t> hits;
  b.hook = [&] {
    st[b.cyc] = b.m.stage(0);
    for (unsigned u = 0; u < b.p.cus; ++u)
      if (b.out.hit_ic[u] || b.out.hit_lds[u]) hits.push_back(b.cyc * 8 + u + (b.out.hit_lds[u] ? 4 : 0));
  };
  const uint64_t t = b.request(0, 3);
  const uint64_t f = b.wait_fill(0, 3);
  EXPECT_EQ(f, t + 28);
  EXPECT_EQ(hits, std::vector<uint64_t>{(t + 24) * 8});
  EXPECT_EQ(st[t + 13], Stage::IcReq);
  EXPECT_EQ(st[t + 18], Stage::IcWait);
  for (uint64_t c = t + 19; c <= t + 23; ++c) EXPECT_EQ(st[c], Stage::Wire) << c - t;
  EXPECT_EQ(st[t + 24], Stage::Ret);
  b.hook = nullptr;
  b.settle();
  EXPECT_TRUE(b.m.in_l1(0, 3, 0));
  EXPECT_TRUE(b.m.in_icache(0, 3, 0, 0)) << "copy: the lower copy stays";
}

// ===========================================================================
// 3. A miss everywhere
// ===========================================================================

// Returns the first cycle (relative to the accept t) with l2_req_valid_o, and
// checks the tag {cu, L1 tag} and the data of that cycle.
int cycles_to_l2(Bench& b, unsigned u, uint64_t vpn, uint64_t expect_tag) {
  int first = -1;
  uint64_t t = 0;
  bool started = false;
  b.hook = [&] {
    if (started && first < 0 && b.out.l2_req_valid) {
      first = static_cast<int>(b.cyc - t);
      EXPECT_EQ(b.out.l2_req_vpn, vpn);
      EXPECT_EQ(b.out.l2_req_vmid, 0u);
      EXPECT_EQ(b.out.l2_req_tag, expect_tag);
    }
  };
  b.in.req_valid[u] = 1;
  b.in.req_vpn[u] = vpn;
  b.in.req_vmid[u] = 0;
  // accept cycle: the first cycle with req_ready (the path is quiet: now)
  t = b.cyc;
  started = true;
  b.step();
  EXPECT_TRUE(b.out.req_ready[u]);
  b.in.req_valid[u] = 0;
  b.wait_fill(u, vpn);
  b.hook = nullptr;
  b.settle();
  return first;
}

// Fresh path: LDS segment LDS-mode (free), I-cache line Invalid. Accepted in
// t: L1 l2_req_valid_o t+4, LDS_REQ t+5 (A), answer A+2 = t+7, IC_REQ t+8
// (A'), answer A'+2 = t+10, L2 in t+11 (l2r loaded at edge t+11),
// l2_req_valid_o from t+12. CU 1, first MSHR: tag = {1, 0} = 1 << LT.
TEST(TxPathModel, MissEverywhereLdsModeAndNonTxLine) {
  {
    Bench b(load(kSmall));
    b.settle();
    EXPECT_EQ(cycles_to_l2(b, 1, 0x155, uint64_t{1} << b.p.l1_tag_bits), 12);
  }
  {
    // quad: + WL + WI = 20; CU 3: tag {3, 0}
    Bench b(load(kQuad));
    b.settle();
    EXPECT_EQ(cycles_to_l2(b, 3, 0x155, uint64_t{3} << b.p.l1_tag_bits), 20);
  }
}

// Tx-mode LDS segment and Tx I-cache line, neither holding it (segment and
// line 3 after setup_v0_in_icache; vpn 3 + 32 x 9): LDS miss in t+9, IC_REQ
// t+10 (A), I-cache miss valid from A+3+NG+1: NG = 1 (CP = X = 8, the
// document's example) -> t+15, L2 in t+16, l2r at edge t+16, l2_req_valid_o
// from t+17; NG = 4 (CP = 2) -> t+18, l2_req_valid_o from t+20.
TEST(TxPathModel, MissEverywhereTxSegmentAndTxLine) {
  {
    Bench b(load_small_cp8());
    setup_v0_in_icache(b);
    EXPECT_EQ(cycles_to_l2(b, 0, 3 + 32 * 9, 0u), 17);
  }
  {
    Bench b(load(kSmall));
    setup_v0_in_icache(b);
    EXPECT_EQ(cycles_to_l2(b, 0, 3 + 32 * 9, 0u), 20);
  }
}

// Tx-mode segment, non-Tx line: LDS miss t+9, IC_REQ t+10, answer t+12, L2
// t+13, l2_req_valid_o t+14. LDS-mode (allocated) segment, Tx line: LDS
// answer t+7, IC_REQ t+8, Tx miss A+3+NG+1: t+13 (CP = 8) / t+16 (CP = 2),
// l2_req_valid_o t+15 / t+18.
TEST(TxPathModel, MissEverywhereMixedModes) {
  {
    Bench b(load(kSmall));
    b.settle();
    for (uint64_t v : {0x40, 0x41, 0x42, 0x43, 0x44}) b.fetch(0, v);
    ASSERT_TRUE(b.m.in_lds(0, 0x40, 0, 0));
    ASSERT_EQ(b.m.icache(0).mode(0), IcacheTxModel::Mode::Invalid);
    EXPECT_EQ(cycles_to_l2(b, 0, 0x60, 0u), 14);
  }
  for (bool cp8 : {true, false}) {
    Bench b(cp8 ? load_small_cp8() : load(kSmall));
    b.settle();
    b.wg(0, false, 7, 1);
    b.push_down(0, {7 + 32});  // bypassed by the allocated segment, installed in line 7
    ASSERT_TRUE(b.m.in_icache(0, 7 + 32, 0, 0));
    EXPECT_EQ(cycles_to_l2(b, 0, 7 + 64, 0u), cp8 ? 15 : 18);
  }
}

// ===========================================================================
// 4. The numbered flows of Fig. 12
// ===========================================================================

// 1-2-4: an L1 victim into a free segment (initialise) and into a free way of
// a Tx segment.
TEST(TxPathModel, Flow_1_2_4) {
  Bench b(load(kSmall));
  b.settle();
  b.push_down(0, {5});
  EXPECT_TRUE(b.seen.flow_1_2_4);
  EXPECT_TRUE(b.m.in_lds(0, 5, 0, 0));
  EXPECT_FALSE(b.m.in_icache(0, 5, 0, 0));
  b.seen = TxPathEvents{};
  b.push_down(0, {5 + 32});
  EXPECT_TRUE(b.seen.flow_1_2_4);
  EXPECT_FALSE(b.seen.flow_1_2_4_5_6);
  EXPECT_TRUE(b.m.in_lds(0, 5, 0, 0));
  EXPECT_TRUE(b.m.in_lds(0, 5 + 32, 0, 0));
  EXPECT_TRUE(b.env.vics.empty());
}

// 1-2-4-5-6: the fourth translation of a 3-way segment evicts the segment's
// LRU translation (the first one), which the I-cache takes.
TEST(TxPathModel, Flow_1_2_4_5_6) {
  Bench b(load(kSmall));
  b.settle();
  b.push_down(0, {6, 6 + 32, 6 + 64});
  EXPECT_FALSE(b.seen.flow_1_2_4_5_6);
  b.push_down(0, {6 + 96});
  EXPECT_TRUE(b.seen.flow_1_2_4_5_6);
  EXPECT_TRUE(b.seen.lds_victim_to_icache);
  EXPECT_FALSE(b.m.in_lds(0, 6, 0, 0));
  EXPECT_TRUE(b.m.in_icache(0, 6, 0, 0));
  for (uint64_t v : {6 + 32, 6 + 64, 6 + 96}) EXPECT_TRUE(b.m.in_lds(0, v, 0, 0)) << v;
}

// 1-2-3-6: a work group holds the segment: the LDS hands the L1 victim on.
TEST(TxPathModel, Flow_1_2_3_6) {
  Bench b(load(kSmall));
  b.settle();
  b.wg(1, false, 8, 2);  // CU 1's segments 8 and 9
  b.push_down(1, {9});
  EXPECT_TRUE(b.seen.flow_1_2_3_6);
  EXPECT_FALSE(b.m.in_lds(1, 9, 0, 0));
  EXPECT_TRUE(b.m.in_icache(0, 9, 0, 0)) << "CU 1's I-cache is I-cache 0 (S = 2)";
}

// 1-2-3-6-7-8: bypassed by the LDS, installed by the I-cache: into an Invalid
// line (initialise) and into a Tx line with a free sub-entry.
TEST(TxPathModel, Flow_1_2_3_6_7_8) {
  Bench b(load(kSmall));
  b.settle();
  b.wg(0, false, 10, 1);
  b.push_down(0, {10});
  EXPECT_TRUE(b.seen.flow_1_2_3_6);
  EXPECT_TRUE(b.seen.flow_6_7_8);
  EXPECT_EQ(b.m.icache(0).mode(10), IcacheTxModel::Mode::Tx);
  b.seen = TxPathEvents{};
  b.push_down(0, {10 + 32});
  EXPECT_TRUE(b.seen.flow_6_7_8);
  EXPECT_FALSE(b.seen.flow_6_7_8_10_11);
  EXPECT_TRUE(b.m.in_icache(0, 10, 0, 0));
  EXPECT_TRUE(b.m.in_icache(0, 10 + 32, 0, 0));
  EXPECT_FALSE(b.m.in_lds(0, 10, 0, 0));
  EXPECT_TRUE(b.env.vics.empty());
}

// 1-2-3-6-7-8-10-11: nine translations of line 11 (vpn[19:9] equal, so they
// share the line's prefix) bypass the allocated segment 11; the ninth finds
// the 8-entry line full and evicts its LRU sub-entry (the first, 11), which
// goes to the L2 victim port with its translation.
TEST(TxPathModel, Flow_1_2_3_6_7_8_10_11) {
  Bench b(load(kSmall));
  b.settle();
  b.wg(0, false, 11, 1);
  std::vector<uint64_t> v;
  for (unsigned k = 0; k < 9; ++k) v.push_back(11 + 32 * k);
  b.push_down(0, std::vector<uint64_t>(v.begin(), v.begin() + 8));
  EXPECT_FALSE(b.seen.flow_6_7_8_10_11);
  EXPECT_TRUE(b.env.vics.empty());
  b.push_down(0, {v[8]});
  EXPECT_TRUE(b.seen.flow_6_7_8_10_11);
  EXPECT_TRUE(b.seen.icache_victim_to_l2);
  ASSERT_EQ(b.env.vics.size(), 1u);
  EXPECT_EQ(b.env.vics[0].vpn, 11u);
  EXPECT_EQ(b.env.vics[0].vmid, 0u);
  EXPECT_EQ(b.env.vics[0].ppn, env_ppn(b.p, 11, 0));
  EXPECT_EQ(b.env.vics[0].perm, env_perm(b.p, 11, 0));
  EXPECT_FALSE(b.m.in_icache(0, 11, 0, 0));
  for (unsigned k = 1; k < 9; ++k) EXPECT_TRUE(b.m.in_icache(0, v[k], 0, 0)) << k;
}

// 1-2-3-6-7-9-10: line 5 = set 5, way 0 holds instructions (the first
// instruction fill into the empty set 5 takes its LRU Invalid way, way 0);
// a translation of line 5 bypasses the allocated segment 5 and then the
// instruction line, to the L2 victim port.
TEST(TxPathModel, Flow_1_2_3_6_7_9_10) {
  Bench b(load(kSmall));
  b.settle();
  b.ifill(0, (uint64_t{0x1234} << (b.p.ic.offset_bits + b.p.ic.set_bits)) | (uint64_t{5} << b.p.ic.offset_bits));
  b.run(3);
  ASSERT_EQ(b.m.icache(0).mode(5), IcacheTxModel::Mode::Ic);
  b.wg(0, false, 5, 1);
  b.push_down(0, {5 + 32});
  EXPECT_TRUE(b.seen.flow_1_2_3_6);
  EXPECT_TRUE(b.seen.flow_6_7_9_10);
  EXPECT_FALSE(b.m.in_lds(0, 5 + 32, 0, 0));
  EXPECT_FALSE(b.m.in_icache(0, 5 + 32, 0, 0));
  EXPECT_TRUE(b.l2_victim(5 + 32, 0));
  EXPECT_EQ(b.m.icache(0).mode(5), IcacheTxModel::Mode::Ic);
}

// ===========================================================================
// 4b. The registers between the structures: lb (LDS -> I-cache) and vr
//     (I-cache -> L2 victim port)
// ===========================================================================

// Flow 1-2-4-5-6 cycle by cycle: segment 6 holds 6, 38, 70; the fill of 102
// evicts its LRU translation 6. The LDS shows the victim in v (VIC); lb is
// free, so vic_ready_i = 1 and lb takes it at edge v (the LDS leaves VIC);
// tf_valid_i = 1 from v+1, the idle I-cache takes it at edge v+1 (its fill
// ISSUE in v+2) - one cycle later than a combinational hand-over would
// (accepted in v).
TEST(TxPathModel, LdsVictimRegisterTiming) {
  Bench b(load(kSmall));
  b.settle();
  b.push_down(0, {6, 6 + 32, 6 + 64});
  std::map<uint64_t, bool> vic, vic6, ic_idle;
  std::map<uint64_t, TxPathModel::VictimReg> lb;
  b.record_events = true;
  b.hook = [&] {
    const LdsCtrlOut lo = lds_regs(b.m, 0);
    vic[b.cyc] = lo.vic_valid;
    vic6[b.cyc] = lo.vic_valid && lo.vic_vpn == 6;
    lb[b.cyc] = b.m.lds_victim_reg(0);
    ic_idle[b.cyc] = b.m.icache(0).idle();
  };
  b.push_down(0, {6 + 96});
  b.hook = nullptr;
  uint64_t v = 0;
  for (const auto& [c, on] : vic6)
    if (on) {
      v = c;
      break;
    }
  ASSERT_GT(v, 0u) << "the LDS handed out 6";
  EXPECT_FALSE(lb[v].valid);
  EXPECT_TRUE(b.ev_at[v].lds_victim_to_lb);
  EXPECT_TRUE(ic_idle[v]);
  EXPECT_FALSE(b.ev_at[v].lds_victim_to_icache) << "no combinational hand-over to the I-cache";
  EXPECT_FALSE(vic[v + 1]) << "the LDS's only victim left at edge v";
  EXPECT_TRUE(lb[v + 1].valid);
  EXPECT_FALSE(lb[v + 1].kill);
  EXPECT_EQ(lb[v + 1].vpn, 6u);
  EXPECT_EQ(lb[v + 1].ppn, env_ppn(b.p, 6, 0));
  EXPECT_TRUE(ic_idle[v + 1]);
  EXPECT_TRUE(b.ev_at[v + 1].lds_victim_to_icache) << "the I-cache takes lb in v+1";
  EXPECT_FALSE(lb[v + 2].valid);
  EXPECT_FALSE(ic_idle[v + 2]) << "the I-cache's fill ISSUE";
  EXPECT_TRUE(b.m.in_icache(0, 6, 0, 0));
  EXPECT_FALSE(b.m.in_lds(0, 6, 0, 0));
}

// Flow 1-2-3-6-7-8-10-11 cycle by cycle (line 11 full with 8 translations,
// the ninth evicts 11): the I-cache shows the victim in v; vr is free, so
// vic_ready_i = 1 and vr takes it at edge v; l2_vic_valid_o = 1 from v+1 with
// vr's fields (one cycle later than a combinational port would show it),
// taken at edge v+1 (l2_vic_ready_i = 1); vr is empty again in v+2.
TEST(TxPathModel, L2VictimRegisterTiming) {
  Bench b(load(kSmall));
  b.settle();
  b.wg(0, false, 11, 1);
  std::vector<uint64_t> v9;
  for (unsigned k = 0; k < 9; ++k) v9.push_back(11 + 32 * k);
  b.push_down(0, std::vector<uint64_t>(v9.begin(), v9.begin() + 8));
  ASSERT_TRUE(b.env.vics.empty());
  std::map<uint64_t, bool> vic11, l2v;
  std::map<uint64_t, TxPathModel::VictimReg> vr;
  std::map<uint64_t, uint64_t> l2vpn;
  b.record_events = true;
  b.hook = [&] {
    const IcacheTxOut io = ic_regs(b.m, 0);
    vic11[b.cyc] = io.vic_valid && io.vic_vpn == 11;
    vr[b.cyc] = b.m.l2_victim_reg();
    l2v[b.cyc] = b.out.l2_vic_valid;
    l2vpn[b.cyc] = b.out.l2_vic_vpn;
  };
  b.push_down(0, {v9[8]});
  b.hook = nullptr;
  uint64_t v = 0;
  for (const auto& [c, on] : vic11)
    if (on) {
      v = c;
      break;
    }
  ASSERT_GT(v, 0u);
  EXPECT_FALSE(vr[v].valid);
  EXPECT_FALSE(l2v[v]) << "the I-cache's victim is not on the port in v";
  EXPECT_TRUE(b.ev_at[v].icache_victim_to_vr);
  EXPECT_FALSE(vic11[v + 1]);
  EXPECT_TRUE(vr[v + 1].valid);
  EXPECT_EQ(vr[v + 1].vpn, 11u);
  EXPECT_TRUE(l2v[v + 1]);
  EXPECT_EQ(l2vpn[v + 1], 11u);
  EXPECT_TRUE(b.ev_at[v + 1].icache_victim_to_l2);
  EXPECT_FALSE(vr[v + 2].valid);
  EXPECT_FALSE(l2v[v + 2]);
  ASSERT_EQ(b.env.vics.size(), 1u);
  EXPECT_EQ(b.env.vics[0].cyc, v + 1);
  EXPECT_EQ(b.env.vics[0].ppn, env_ppn(b.p, 11, 0));
  EXPECT_EQ(b.m.l2_victim_pointer(), 0u) << "G = 1: vp stays 0";
}

// Setup of the lb tests (small, CU 0): LDS segments 6 = {6, 38, 70} and 7 =
// {7, 39, 71} full, the L1 holds (LRU first) 102, 103, f0, f1 and the LDS
// holds the fillers f2, f3 (fetching 102 and 103 evicted f0 and f1 into the
// LDS; fetching f0 and f1 again were LDS hits whose promotions evicted f2 and
// f3). Then the I-cache's flush port is held (flush_valid_i = 1: the engine
// stays IDLE, tf_ok = tl_ok = 0) and CU 0 asks for f2: an LDS hit whose
// promotion evicts 102 into segment 6, which hands out 6: lb = 6, held.
void setup_lb_held(Bench& b, std::vector<uint64_t>& f) {
  b.settle();
  f = b.push_down(0, {6, 38, 70, 7, 39, 71});
  for (uint64_t v : {6, 38, 70, 7, 39, 71}) ASSERT_TRUE(b.m.in_lds(0, v, 0, 0)) << v;
  b.fetch(0, 102);
  b.fetch(0, 103);
  b.fetch(0, f[0]);
  b.fetch(0, f[1]);
  ASSERT_TRUE(b.m.in_lds(0, f[2], 0, 0));
  ASSERT_TRUE(b.m.in_lds(0, f[3], 0, 0));
  ASSERT_TRUE(b.m.in_l1(0, 102, 0));
  ASSERT_TRUE(b.m.in_l1(0, 103, 0));
  b.in.flush_valid[0] = 1;
  b.request(0, f[2]);
  b.wait_fill(0, f[2]);
  for (unsigned n = 0; n < 100 && !b.m.lds_victim_reg(0).valid; ++n) b.step();
  b.run(4);
  ASSERT_TRUE(b.m.lds_victim_reg(0).valid);
  ASSERT_EQ(b.m.lds_victim_reg(0).vpn, 6u);
  ASSERT_FALSE(b.m.lds_victim_reg(0).kill);
  ASSERT_TRUE(b.m.lds(0).idle());
  ASSERT_FALSE(b.m.in_lds(0, 6, 0, 0));
  ASSERT_FALSE(b.m.in_icache(0, 6, 0, 0));
}

// lb full, the LDS's next victim waits; the cycle lb empties, the LDS hands
// it over. After setup_lb_held, CU 0 asks for f3 (LDS hit): its promotion
// evicts 103 into segment 7, which hands out 7: the LDS sits in VIC with
// vic_ready_i = 0 (lb full, not emptied). The flush port is released in r:
// the idle I-cache takes lb (6) at edge r, and as lb is emptied in r the
// LDS's vic_ready_i = 1: lb = 7 at the same edge. 7 then waits in lb until
// the I-cache has finished 6's fill and takes it.
TEST(TxPathModel, LdsVictimRegisterRefillsInTheCycleItEmpties) {
  Bench b(load(kSmall));
  std::vector<uint64_t> f;
  setup_lb_held(b, f);
  if (::testing::Test::HasFatalFailure()) return;
  b.record_events = true;
  b.request(0, f[3]);
  b.wait_fill(0, f[3]);
  for (unsigned n = 0; n < 100 && !lds_regs(b.m, 0).vic_valid; ++n) b.step();
  b.run(3);
  ASSERT_TRUE(lds_regs(b.m, 0).vic_valid);
  ASSERT_EQ(lds_regs(b.m, 0).vic_vpn, 7u);
  ASSERT_EQ(b.m.lds_victim_reg(0).vpn, 6u) << "lb still holds 6";
  EXPECT_TRUE(b.m.events().lds_victim_waits);
  EXPECT_FALSE(b.m.events().lds_victim_to_lb);
  const uint64_t r = b.cyc;
  b.in.flush_valid[0] = 0;
  b.step();
  EXPECT_TRUE(b.ev_at[r].lds_victim_to_icache) << "the I-cache takes 6 from lb in r";
  EXPECT_TRUE(b.ev_at[r].lds_victim_to_lb) << "the LDS hands 7 over in the cycle lb empties";
  EXPECT_TRUE(b.ev_at[r].lb_refill);
  EXPECT_TRUE(b.m.lds_victim_reg(0).valid);
  EXPECT_EQ(b.m.lds_victim_reg(0).vpn, 7u);
  EXPECT_FALSE(lds_regs(b.m, 0).vic_valid) << "the LDS left VIC";
  // 7 waits in lb while the I-cache serves 6, then goes
  uint64_t r2 = 0;
  bool idle_when_taken = false;
  for (unsigned n = 0; n < 100 && !r2; ++n) {
    const bool idle = b.m.icache(0).idle();
    b.step();
    if (b.m.events().lds_victim_to_icache) {
      r2 = b.cyc - 1;
      idle_when_taken = idle;
    }
  }
  ASSERT_GT(r2, r + 1);
  EXPECT_TRUE(idle_when_taken);
  EXPECT_FALSE(b.m.lds_victim_reg(0).valid);
  b.settle();
  EXPECT_TRUE(b.m.in_icache(0, 6, 0, 0));
  EXPECT_TRUE(b.m.in_icache(0, 7, 0, 0));
}

// The I-cache lookup of a CU waits while its lb is full. After
// setup_lb_held, CU 0 asks for 6 (the translation in lb): L1 miss, LDS miss
// (6 left segment 6), IC_REQ with tl_valid_i[0] = 0 while lb.valid. The
// flush port is released in r: the I-cache is idle, lb's fill is the only
// request (a lookup would have had priority over it and missed), taken at
// edge r; the lookup is accepted once the fill is done, hits 6, RET with
// hit_ic_o: 6 never goes to the L2-TLB.
TEST(TxPathModel, IcacheLookupWaitsForLdsVictimRegister) {
  Bench b(load(kSmall));
  std::vector<uint64_t> f;
  setup_lb_held(b, f);
  if (::testing::Test::HasFatalFailure()) return;
  b.record_events = true;
  std::map<uint64_t, Stage> st;
  std::vector<uint64_t> hits;
  b.hook = [&] {
    st[b.cyc] = b.m.stage(0);
    if (b.out.hit_ic[0]) hits.push_back(b.cyc);
    EXPECT_FALSE(b.out.hit_lds[0]);
  };
  const uint64_t t = b.request(0, 6);
  for (unsigned n = 0; n < 100 && b.m.stage(0) != Stage::IcReq; ++n) b.step();
  ASSERT_EQ(b.m.stage(0), Stage::IcReq);
  b.run(5);
  EXPECT_TRUE(b.m.events().lookup_waits_lb);
  EXPECT_EQ(b.m.stage(0), Stage::IcReq);
  const uint64_t r = b.cyc;
  b.in.flush_valid[0] = 0;
  const uint64_t fl = b.wait_fill(0, 6);
  EXPECT_EQ(st[r], Stage::IcReq);
  EXPECT_TRUE(b.ev_at[r].lookup_waits_lb);
  EXPECT_TRUE(b.ev_at[r].lds_victim_to_icache) << "lb's fill goes first";
  EXPECT_EQ(st[r + 1], Stage::IcReq) << "the lookup waits for the I-cache (busy with the fill)";
  bool hit = false;
  for (uint64_t c = r; c < fl; ++c) hit |= b.ev_at[c].ic_lookup_hit;
  EXPECT_TRUE(hit);
  ASSERT_EQ(hits.size(), 1u);
  EXPECT_EQ(st[hits[0]], Stage::Ret);
  EXPECT_EQ(fl, hits[0] + 4);
  EXPECT_FALSE(b.l2_requested(6, t));
  b.hook = nullptr;
  b.settle();
  EXPECT_TRUE(b.m.in_l1(0, 6, 0));
  EXPECT_FALSE(b.m.in_icache(0, 6, 0, 0)) << "move: removed from the I-cache";
}

// ===========================================================================
// 5. Fills before lookups
// ===========================================================================

// Setup: CU 0 fetches Y = 0x48 (segment 8), X = 0x49, b1..b3 (segments 10..12):
// b3's fill evicts Y into the LDS; the L1 holds X (LRU), b1, b2, b3.
// CU 0 asks for Y in t (LDS hit, as in the first test): RET in t+10, rml
// loaded at edge t+10, the LDS serves the remove from t+11 to t+16 (IDLE
// with sd_done in t+16). The promotion's write at edge t+12 evicts X, queued
// at edge t+13 (occ = 1 from t+14). CU 0 asks for X in t+11 (accepted: one
// MSHR free, the other still Y's until edge t+13): decide in t+13 (X gone at
// edge t+12) -> miss, MSHR at edge t+13, L2 choice t+14, l2_req_valid_o in
// t+15, IDLE takes it at edge t+15: LDS_REQ from t+16.
//   t+16: occ = 1 -> lk_valid_i = 0; the LDS (free again) takes the queued
//         fill of X (fill_valid_i and fill_ready_o).
//   t+17: occ = 0 -> lk_valid_i = 1, but the LDS is busy with the fill (free
//         segment 9: initialised in its ISSUE cycle t+17, IDLE in t+18).
//   t+18: lookup accepted (A), Tx hit answered in A+4 = t+22, RET t+23,
//         fill_valid_o for X in t+27; X is never requested from the L2.
// Without the occ = 0 condition the lookup (priority over fills) would have
// been accepted in t+16 and missed.
TEST(TxPathModel, FillsBeforeLookupsQueuedVictimFoundInLds) {
  Bench b(load(kSmall));
  b.settle();
  const uint64_t Y = 0x48, X = 0x49;
  for (uint64_t v : {Y, X, uint64_t{0x4a}, uint64_t{0x4b}, uint64_t{0x4c}}) b.fetch(0, v);
  ASSERT_TRUE(b.m.in_lds(0, Y, 0, 0));
  ASSERT_TRUE(b.m.in_l1(0, X, 0));
  std::map<uint64_t, Stage> st;
  std::map<uint64_t, unsigned> occ;
  b.hook = [&] {
    st[b.cyc] = b.m.stage(0);
    occ[b.cyc] = b.m.queue_occupancy(0);
  };
  b.record_events = true;
  const uint64_t t = b.request(0, Y);
  b.run(10);  // cycles t+1 .. t+10
  ASSERT_EQ(b.cyc, t + 11);
  const uint64_t tx = b.request(0, X);
  ASSERT_EQ(tx, t + 11) << "X accepted in t+11";
  const uint64_t fx = b.wait_fill(0, X);
  EXPECT_EQ(fx, t + 27);
  EXPECT_EQ(occ[t + 16], 1u);
  EXPECT_EQ(st[t + 16], Stage::LdsReq);
  EXPECT_EQ(st[t + 17], Stage::LdsReq);
  EXPECT_EQ(occ[t + 17], 0u);
  EXPECT_EQ(st[t + 18], Stage::LdsReq);
  EXPECT_EQ(st[t + 19], Stage::LdsWait);
  EXPECT_TRUE(b.ev_at[t + 16].lookup_waits_queue);
  EXPECT_TRUE(b.ev_at[t + 22].lds_lookup_hit);
  EXPECT_FALSE(b.l2_requested(X, t));
  b.hook = nullptr;
  b.settle();
  EXPECT_TRUE(b.m.in_l1(0, X, 0));
  EXPECT_FALSE(b.m.in_lds(0, X, 0, 0));
}

// ===========================================================================
// 6. The credit (D = 1)
// ===========================================================================

// Quad, CU 0 with a full L1 asks for two fresh VPNs m1, m2 (two MSHRs). The
// environment holds its answers until both requests were taken, then
// presents m1 (cycle f, taken: out = occ = 0 < 1) and m2 right after. m1's
// fill makes out = 1 from f+1 until edge f+4 (fill_valid_o in f+4); its
// write at edge f+2 evicts an entry, queued at edge f+3 (occ = 1 in f+4, the
// queue is full), taken by the idle LDS at edge f+4. So l2_resp_ready_o = 0
// for m2 in f+1 .. f+4 and 1 in f+5.
TEST(TxPathModel, CreditHoldsL2ResponseWhileQueueFull) {
  Bench b(load(kQuad));
  b.settle();
  for (uint64_t v : {0x20, 0x21, 0x22, 0x23}) b.fetch(0, v);
  b.env.hold = true;
  b.request(0, 0x30);
  b.request(0, 0x31);
  for (unsigned n = 0; n < 200 && b.env.pending.size() < 2; ++n) b.step();
  ASSERT_EQ(b.env.pending.size(), 2u);
  b.run(4);  // both answers due
  b.env.hold = false;
  std::map<uint64_t, bool> valid, ready;
  std::map<uint64_t, unsigned> occ, out;
  b.hook = [&] {
    valid[b.cyc] = b.in.l2_resp_valid;
    ready[b.cyc] = b.out.l2_resp_ready;
    occ[b.cyc] = b.m.queue_occupancy(0);
    out[b.cyc] = b.m.outstanding_fills(0);
    // l2_resp_ready_o = credit and not ret, credit = out + occ < D
    if (b.in.l2_resp_valid) {
      EXPECT_EQ(b.out.l2_resp_ready, b.m.outstanding_fills(0) + b.m.queue_occupancy(0) < 1 &&
                                         b.m.stage(0) != Stage::Ret);
    }
  };
  const uint64_t f = b.cyc;
  b.wait_fill(0, 0x31);
  b.hook = nullptr;
  EXPECT_TRUE(valid[f] && ready[f]) << "m1 taken at once";
  for (uint64_t c = f + 1; c <= f + 4; ++c) {
    EXPECT_TRUE(valid[c]) << c - f;
    EXPECT_FALSE(ready[c]) << c - f;
  }
  EXPECT_EQ(out[f + 4], 1u);
  EXPECT_EQ(occ[f + 4], 1u) << "the queue is full while the response waits";
  EXPECT_TRUE(ready[f + 5]);
  EXPECT_EQ(out[f + 5], 0u);
  EXPECT_EQ(occ[f + 5], 0u);
  EXPECT_TRUE(b.seen.credit_block);
  b.settle();
}

// hit_lds_o / hit_ic_o pulse with `ret`, not with st = RET. Quad (D = 1, WL
// = 3, copy): CU 0's full L1, H = 0x40 in its LDS. CU 0 asks for a fresh m
// (miss everywhere, held in the L2-TLB), then for H (LDS hit: WIRE for 3
// cycles, then RET). The L2 answer for m is released in H's first WIRE cycle
// w and taken at edge w (credit: out = occ = 0): out = 1 from w+1, m's fill
// evicts at edge w+2 (queued at edge w+3, occ = 1 from w+4, the idle LDS
// takes it at edge w+4), fill_valid_o at w+4 (out = 0 from w+5). RET from
// w+3: credit = (out + occ < 1) is 0 in w+3 and w+4, 1 in w+5: hit_lds_o[0]
// = 1 in w+5 only, RET left at edge w+5.
TEST(TxPathModel, HitPulseOnlyWhenRetSendsThePromotion) {
  Bench b(load(kQuad));
  b.settle();
  const uint64_t H = 0x40;
  for (uint64_t v : {0x40, 0x41, 0x42, 0x43, 0x44}) b.fetch(0, v);
  ASSERT_TRUE(b.m.in_lds(0, H, 0, 0));
  ASSERT_FALSE(b.m.in_l1(0, H, 0));
  b.env.hold = true;
  std::map<uint64_t, Stage> st;
  std::map<uint64_t, bool> hit;
  uint64_t w = 0;
  b.pre = [&] {
    if (!w && !b.env.pending.empty() && b.m.stage(0) == Stage::Wire) {  // H's (m already at the L2-TLB)
      w = b.cyc;
      b.env.hold = false;
    }
  };
  b.record_events = true;
  b.hook = [&] {
    st[b.cyc] = b.m.stage(0);
    hit[b.cyc] = b.out.hit_lds[0];
    for (unsigned u = 0; u < b.p.cus; ++u) {
      EXPECT_FALSE(b.out.hit_ic[u]);
      if (u) {
        EXPECT_FALSE(b.out.hit_lds[u]);
      }
    }
  };
  b.request(0, 0x150);
  b.request(0, H);
  b.wait_fill(0, H);
  b.pre = nullptr;
  b.hook = nullptr;
  ASSERT_GT(w, 0u);
  EXPECT_TRUE(b.ev_at[w].l2_fill);
  EXPECT_EQ(st[w + 3], Stage::Ret);
  EXPECT_EQ(st[w + 4], Stage::Ret);
  EXPECT_EQ(st[w + 5], Stage::Ret);
  EXPECT_EQ(st[w + 6], Stage::Idle);
  EXPECT_TRUE(b.ev_at[w + 3].credit_block);
  unsigned pulses = 0;
  for (const auto& [c, h] : hit) pulses += h;
  EXPECT_EQ(pulses, 1u) << "one pulse per promotion";
  EXPECT_FALSE(hit[w + 3]);
  EXPECT_FALSE(hit[w + 4]);
  EXPECT_TRUE(hit[w + 5]);
  EXPECT_TRUE(b.ev_at[w + 5].promotion_lds);
  b.settle();
}

// ===========================================================================
// 7. Shootdown racing a promotion and a queued victim
// ===========================================================================

// K = 0x123 (segment / line 3). CU 0 holds K in its LDS; CU 1 holds K in its
// L1-TLB as the LRU entry of a full L1. In t both ask: CU 0 for K (LDS hit,
// promotion in t+10, L1 fill t+14, remove of K afterwards), CU 1 for a fresh
// Z (miss everywhere: l2_req_valid_o in t+12, answered one cycle later, the
// fill evicts K at edge f+2 into CU 1's queue and down to CU 1's LDS). The
// shootdown of K (or of everything) is raised in t+d for d = 0 .. 44, held
// until sd_ready_o. Checked: the phase order (every LDS and I-cache done
// before the L1-TLB's shootdown starts), no victim of K on the L2 victim port
// from the cycle after the accept on, and at sd_done_o (and 60 cycles later,
// nothing asking for K again) K is nowhere: not in any L1-TLB, queue, lb or
// vr (not killed), LDS, I-cache or member victim buffer.
void shootdown_race(bool all, bool move) {
  for (unsigned d = 0; d <= 44; ++d) {
    config::Config cfg = load_cfg(kSmall);
    cfg.tx_path->promotion = move ? config::Promotion::Move : config::Promotion::Copy;
    Bench b(elab::elaborate_tx_path(cfg));
    b.env.lat_min = b.env.lat_max = 1;
    b.settle();
    const uint64_t K = 0x123, Z = 0x1c7;
    b.push_down(0, {K});
    b.fetch(1, K);
    b.fetch(1, 0x2a1);
    b.fetch(1, 0x2a2);
    b.fetch(1, 0x2a4);
    ASSERT_TRUE(b.m.in_lds(0, K, 0, 0));
    ASSERT_TRUE(b.m.in_l1(1, K, 0));
    SdWatch w(b);
    uint64_t accept = 0;
    bool accepted = false, done = false;
    b.hook = [&] {
      w.cycle();
      if (b.in.sd_valid && b.out.sd_ready) {
        accepted = true;
        accept = b.cyc;
      }
      if (b.out.sd_done) done = true;
      if (accepted && b.cyc > accept && b.out.l2_vic_valid &&
          (all || (b.out.l2_vic_vpn == K && b.out.l2_vic_vmid == 0)))
        ADD_FAILURE() << "d " << d << ": victim of K offered at cycle " << b.cyc;
    };
    const uint64_t t = b.cyc;
    b.seen = TxPathEvents{};
    b.in.req_valid[0] = b.in.req_valid[1] = 1;
    b.in.req_vpn[0] = K;
    b.in.req_vpn[1] = Z;
    for (unsigned n = 0; n < 300 && !done; ++n) {
      if (b.cyc == t + d) {
        b.in.sd_valid = 1;
        b.in.sd_all = all;
        b.in.sd_vpn = K;
        b.in.sd_vmid = 0;
      }
      b.step();
      for (unsigned u = 0; u < 2; ++u)
        if (b.out.req_ready[u]) b.in.req_valid[u] = 0;
      if (b.in.sd_valid && b.out.sd_ready) b.in.sd_valid = 0;  // held until accepted
    }
    b.in.req_valid[0] = b.in.req_valid[1] = 0;
    ASSERT_TRUE(done) << "d " << d;
    EXPECT_EQ(w.order_errors, 0u) << "d " << d;
    EXPECT_EQ(w.leftovers, 0u) << "d " << d;
    EXPECT_EQ(w.completed, 1u);
    b.run(60);
    std::string where;
    EXPECT_FALSE(anywhere(b.m, b.p, false, K, 0, &where)) << "d " << d << ": K back in" << where;
    b.hook = nullptr;
    b.settle();
    EXPECT_FALSE(anywhere(b.m, b.p, false, K, 0, &where)) << "d " << d << ": K back in" << where;
  }
}

TEST(TxPathModel, ShootdownRacingPromotionAndQueuedVictim) { shootdown_race(false, true); }
TEST(TxPathModel, ShootdownAllRacingPromotionAndQueuedVictim) { shootdown_race(true, true); }
TEST(TxPathModel, ShootdownRacingPromotionCopy) { shootdown_race(false, false); }

// The kill marking of a held entry. CU 0's L1 holds A = 0x50 (LRU), K =
// 0x123, 0x124, 0x125. Two misses m1, m2 are answered back to back: their
// fills evict A, then K, into the victim queue [A, K] while CU 0's LDS is
// kept busy by a stream of work-group operations (priority over everything;
// allocate / free of segment 30). A shootdown of K is accepted in e with K
// queued behind A: K gets kill = 1 at edge e (the accepted key marks at the
// accept edge; A, not matching, stays unmarked). The stream pauses only
// until the LDS has taken the sequencer's shootdown (its priority is above
// the fill's), then resumes until after sd_done_o, so A stays at the head
// and K, killed, is still queued when sdp.valid drops (the document: "a
// killed queue entry may still wait behind older entries"); it is dropped,
// not filled into the LDS, once the stream stops.
TEST(TxPathModel, KillMarkingDropsVictimQueuedBeforeTheShootdown) {
  Bench b(load(kSmall));
  b.settle();
  const uint64_t A = 0x50, K = 0x123;
  for (uint64_t v : {A, K, uint64_t{0x124}, uint64_t{0x125}}) b.fetch(0, v);
  b.env.hold = true;
  b.request(0, 0x61);
  b.request(0, 0x62);
  for (unsigned n = 0; n < 300 && !(b.env.pending.size() == 2 && b.m.stage(0) == Stage::Idle); ++n) b.step();
  ASSERT_EQ(b.env.pending.size(), 2u);
  b.run(4);
  // the work-group stream
  bool stream = true, lds_took_sd = false, alloc_next = true;
  b.pre = [&] {
    if (b.m.lds(0).shootdown_busy(nullptr)) lds_took_sd = true;
    const bool pause = b.m.shootdown_pending() && !lds_took_sd;
    b.in.wg_valid[0] = stream && !pause;
    b.in.wg_free[0] = !alloc_next;
    b.in.wg_base[0] = 30;
    b.in.wg_size[0] = 1;
  };
  b.hook = [&] {
    if (b.in.wg_valid[0] && b.out.wg_ready[0]) alloc_next = !alloc_next;
  };
  b.env.hold = false;
  for (unsigned n = 0; n < 100 && b.m.queue_occupancy(0) < 2; ++n) b.step();
  ASSERT_EQ(b.m.queue_occupancy(0), 2u);
  EXPECT_EQ(b.m.queue_entry(0, 0).vpn, A);
  EXPECT_EQ(b.m.queue_entry(0, 1).vpn, K);
  EXPECT_FALSE(b.m.queue_entry(0, 1).kill);
  b.in.sd_valid = 1;
  b.in.sd_vpn = K;
  b.in.sd_vmid = 0;
  b.step();
  ASSERT_TRUE(b.out.sd_ready) << "accepted at once (e)";
  b.in.sd_valid = 0;
  EXPECT_TRUE(b.m.events().queue_kill);
  ASSERT_EQ(b.m.queue_occupancy(0), 2u);
  EXPECT_FALSE(b.m.queue_entry(0, 0).kill) << "A does not match";
  EXPECT_TRUE(b.m.queue_entry(0, 1).kill) << "K killed at the accept edge e";
  bool done = false;
  for (unsigned n = 0; n < 300 && !done; ++n) {
    b.step();
    done = b.out.sd_done;
  }
  ASSERT_TRUE(done);
  EXPECT_TRUE(lds_took_sd);
  ASSERT_EQ(b.m.queue_occupancy(0), 2u) << "K still queued behind A after sd_done";
  EXPECT_TRUE(b.m.queue_entry(0, 1).kill);
  EXPECT_FALSE(b.m.queue_entry(0, 0).kill);
  stream = false;
  b.run(2);
  b.pre = nullptr;
  b.hook = nullptr;
  b.in.wg_valid[0] = 0;
  b.settle();
  if (!alloc_next) b.wg(0, true, 30, 1);
  std::string where;
  EXPECT_FALSE(anywhere(b.m, b.p, false, K, 0, &where)) << "K back in" << where;
  EXPECT_TRUE(b.m.in_lds(0, A, 0, 0));
  EXPECT_TRUE(b.seen.victim_dropped_stale);
}

// Kill marking at the accept edge with the ACCEPTED key: a victim written
// into the queue, lb or vr at the edge that accepts a shootdown of it gets
// kill = 1 at that edge, is never offered (fill_valid_i / tf_valid_i /
// l2_vic_valid_o = 0) and is dropped at the next edge. A victim held at the
// accept edge is killed at that edge as well. The shootdown is raised by the
// `pre` callback in the cycle the member's registered victim output (or the
// L1-TLB's eviction register) shows K, so the accept cycle is that cycle.
struct KillAtAccept {
  Bench& b;
  uint64_t K;
  std::function<bool()> trigger;  // in pre: raise the shootdown now
  bool sent = false;
  uint64_t acc = 0;
  explicit KillAtAccept(Bench& bb, uint64_t k) : b(bb), K(k) {}
  void arm() {
    b.pre = [this] {
      b.in.sd_valid = 0;
      if (!sent && trigger()) {
        b.in.sd_valid = 1;
        b.in.sd_all = 0;
        b.in.sd_vpn = K;
        b.in.sd_vmid = 0;
        sent = true;
        acc = b.cyc;
      }
    };
  }
};

// Queue: CU 0's L1 holds K = 0x123 as its LRU entry; a miss's fill evicts
// it: evict_valid_o in e, appended at edge e, the shootdown of K accepted in
// e. K is in the queue from e+1 with kill = 1 (the old reading marked it one
// edge later with the pre-edge sdp), the LDS never sees it, and it is dropped
// at edge e+1 (it is the head).
TEST(TxPathModel, KillAtAcceptEdgeQueueAppend) {
  Bench b(load(kSmall));
  b.settle();
  const uint64_t K = 0x123;
  for (uint64_t v : {K, uint64_t{0x124}, uint64_t{0x125}, uint64_t{0x126}}) b.fetch(0, v);
  KillAtAccept k(b, K);
  k.trigger = [&] {
    const L1tlbOut lo = l1_regs(b.m);
    return lo.evict_valid[0] && lo.evict_vpn[0] == K;
  };
  k.arm();
  b.record_events = true;
  std::map<uint64_t, unsigned> occ;
  std::map<uint64_t, TxPathModel::QueueEntry> tail;
  b.hook = [&] {
    if (b.cyc == k.acc && k.sent) {
      EXPECT_TRUE(b.in.sd_valid && b.out.sd_ready) << "accepted in e";
    }
    occ[b.cyc] = b.m.queue_occupancy(0);
    if (b.m.queue_occupancy(0)) tail[b.cyc] = b.m.queue_entry(0, b.m.queue_occupancy(0) - 1);
    EXPECT_FALSE(held_by(b.m.lds(0).in_flight(), K) || held_by(b.m.lds(0).held(), K)) << b.cyc;
  };
  b.fetch(0, 0x200);
  b.pre = nullptr;
  b.hook = nullptr;
  ASSERT_TRUE(k.sent);
  const uint64_t e = k.acc;
  EXPECT_TRUE(b.ev_at[e].l1_victim_queued);
  EXPECT_TRUE(b.ev_at[e].shootdown_accept);
  EXPECT_TRUE(b.ev_at[e].queue_kill) << "killed at the accept edge";
  EXPECT_EQ(occ[e], 0u);
  ASSERT_EQ(occ[e + 1], 1u);
  EXPECT_EQ(tail[e + 1].vpn, K);
  EXPECT_TRUE(tail[e + 1].kill);
  EXPECT_TRUE(b.ev_at[e + 1].victim_dropped_stale);
  EXPECT_EQ(occ[e + 2], 0u);
  std::string where;
  EXPECT_FALSE(anywhere(b.m, b.p, false, K, 0, &where)) << where;
}

// lb load: segment 6 = {6, 38, 70}; the fill of 102 makes the LDS hand out
// K = 6 in v; the shootdown of 6 is accepted in v: lb = 6 with kill = 1 from
// v+1, tf_valid_i = 0 (the idle I-cache takes nothing), dropped at edge v+1.
TEST(TxPathModel, KillAtAcceptEdgeLdsVictimRegisterLoad) {
  Bench b(load(kSmall));
  b.settle();
  b.push_down(0, {6, 6 + 32, 6 + 64});
  const uint64_t K = 6;
  KillAtAccept k(b, K);
  k.trigger = [&] {
    const LdsCtrlOut lo = lds_regs(b.m, 0);
    return lo.vic_valid && lo.vic_vpn == K;
  };
  k.arm();
  b.record_events = true;
  std::map<uint64_t, TxPathModel::VictimReg> lb;
  b.hook = [&] {
    lb[b.cyc] = b.m.lds_victim_reg(0);
    EXPECT_FALSE(held_by(b.m.icache(0).in_flight(), K) || held_by(b.m.icache(0).held(), K)) << b.cyc;
  };
  b.push_down(0, {6 + 96});
  b.pre = nullptr;
  b.hook = nullptr;
  ASSERT_TRUE(k.sent);
  const uint64_t v = k.acc;
  EXPECT_TRUE(b.ev_at[v].shootdown_accept);
  EXPECT_TRUE(b.ev_at[v].lds_victim_to_lb);
  EXPECT_TRUE(b.ev_at[v].lb_kill);
  EXPECT_FALSE(lb[v].valid);
  EXPECT_TRUE(lb[v + 1].valid);
  EXPECT_TRUE(lb[v + 1].kill);
  EXPECT_EQ(lb[v + 1].vpn, K);
  EXPECT_FALSE(b.ev_at[v + 1].lds_victim_to_icache);
  EXPECT_TRUE(b.ev_at[v + 1].lb_dropped);
  EXPECT_TRUE(b.ev_at[v + 1].victim_dropped_stale);
  EXPECT_FALSE(lb[v + 2].valid);
  EXPECT_FALSE(b.m.in_icache(0, K, 0, 0));
  EXPECT_FALSE(b.m.in_lds(0, K, 0, 0));
}

// A killed lb is never offered, also to an idle I-cache that is done with
// its shootdown. Segment 6 = {6, 38, 70}; the shootdown of 6 is accepted in
// e, the cycle the LDS accepts the fill of 102 from the queue head: the LDS
// serves the fill first (ISSUE .. WRITE, 6 evicted), hands out 6 in VIC while
// sdp.valid (lb = 6 with kill = 1), then takes the sequencer's shootdown;
// the I-cache (line 6 Invalid) took its own shootdown at once and is idle
// and done when lb is killed: tf_valid_i = 0 keeps 6 out of it, lb is
// dropped at the next edge.
TEST(TxPathModel, KilledLdsVictimRegisterNeverOfferedToIdleIcache) {
  Bench b(load(kSmall));
  b.settle();
  b.push_down(0, {6, 6 + 32, 6 + 64});
  const uint64_t K = 6;
  KillAtAccept k(b, K);
  k.trigger = [&] {
    return b.m.queue_occupancy(0) > 0 && b.m.queue_entry(0, 0).vpn == 102 && !b.m.queue_entry(0, 0).kill &&
           b.m.lds(0).idle() && b.m.stage(0) != Stage::LdsReq;
  };
  k.arm();
  b.record_events = true;
  std::map<uint64_t, TxPathModel::VictimReg> lb;
  std::map<uint64_t, bool> ic_idle, phase1;
  uint64_t ic_sd_done = 0;
  b.hook = [&] {
    if (!ic_sd_done && k.sent && ic_regs(b.m, 0).sd_done) ic_sd_done = b.cyc;
    lb[b.cyc] = b.m.lds_victim_reg(0);
    ic_idle[b.cyc] = b.m.icache(0).idle();
    phase1[b.cyc] = b.m.shootdown_pending() && b.m.lds_victim_reg(0).valid;
    EXPECT_FALSE(held_by(b.m.icache(0).in_flight(), K) || held_by(b.m.icache(0).held(), K)) << b.cyc;
  };
  b.push_down(0, {102});
  b.pre = nullptr;
  b.hook = nullptr;
  ASSERT_TRUE(k.sent);
  uint64_t v = 0;  // the edge lb took 6
  for (const auto& [c, e] : b.ev_at)
    if (c > k.acc && e.lds_victim_to_lb) {
      v = c;
      break;
    }
  ASSERT_GT(v, k.acc + 2) << "6 handed out after the LDS's fill";
  EXPECT_TRUE(b.ev_at[v].lb_kill);
  EXPECT_TRUE(lb[v + 1].valid && lb[v + 1].kill && lb[v + 1].vpn == K);
  EXPECT_TRUE(phase1[v + 1]) << "sdp.valid";
  EXPECT_TRUE(ic_idle[v + 1]) << "the I-cache is idle";
  EXPECT_FALSE(b.ev_at[v + 1].lds_victim_to_icache);
  EXPECT_TRUE(b.ev_at[v + 1].lb_dropped);
  ASSERT_GT(ic_sd_done, k.acc);
  EXPECT_LE(ic_sd_done, v) << "the I-cache finished its shootdown before lb was killed";
  EXPECT_FALSE(b.m.in_icache(0, K, 0, 0));
  EXPECT_FALSE(b.m.in_lds(0, K, 0, 0));
}

// lb held: after setup_lb_held (lb = 6, the I-cache's flush port held), the
// shootdown of 6 is accepted in a: lb.kill = 1 from a+1 and lb is emptied at
// edge a+1 although the I-cache still takes nothing (flush held).
TEST(TxPathModel, KillAtAcceptEdgeLdsVictimRegisterHeld) {
  Bench b(load(kSmall));
  std::vector<uint64_t> f;
  setup_lb_held(b, f);
  if (::testing::Test::HasFatalFailure()) return;
  b.record_events = true;
  ASSERT_TRUE(b.out.sd_ready);
  b.in.sd_valid = 1;
  b.in.sd_vpn = 6;
  b.in.sd_vmid = 0;
  const uint64_t a = b.cyc;
  b.step();
  b.in.sd_valid = 0;
  EXPECT_TRUE(b.ev_at[a].shootdown_accept);
  EXPECT_TRUE(b.ev_at[a].lb_kill);
  EXPECT_TRUE(b.m.lds_victim_reg(0).valid);
  EXPECT_TRUE(b.m.lds_victim_reg(0).kill);
  b.step();
  EXPECT_TRUE(b.ev_at[a + 1].lb_dropped);
  EXPECT_FALSE(b.ev_at[a + 1].lds_victim_to_icache);
  EXPECT_FALSE(b.m.lds_victim_reg(0).valid);
  b.in.flush_valid[0] = 0;
  b.settle();
  std::string where;
  EXPECT_FALSE(anywhere(b.m, b.p, false, 6, 0, &where)) << where;
}

// vr load and vr held (small, line 11 full with 8 translations, the ninth
// evicts 11). Load: the I-cache shows 11 in v, the shootdown of 11 is
// accepted in v: vr = 11 with kill = 1 from v+1, l2_vic_valid_o = 0, dropped
// at edge v+1; 11 never reaches the port. Held: with l2_vic_ready_i = 0, vr
// takes 11 and offers it; the shootdown accepted in a (still not ready)
// kills it at edge a: l2_vic_valid_o = 0 from a+1 although l2_vic_ready_i =
// 1 then; dropped at edge a+1.
void kill_vr(bool held) {
  Bench b(load(kSmall));
  b.settle();
  b.wg(0, false, 11, 1);
  std::vector<uint64_t> v9;
  for (unsigned k = 0; k < 9; ++k) v9.push_back(11 + 32 * k);
  b.push_down(0, std::vector<uint64_t>(v9.begin(), v9.begin() + 8));
  const uint64_t K = 11;
  KillAtAccept k(b, K);
  uint64_t loaded = 0;
  if (held) {
    b.env.vic_ready_p = 0.0;
    k.trigger = [&] {
      if (!loaded && b.m.l2_victim_reg().valid && b.m.l2_victim_reg().vpn == K) loaded = b.cyc;
      return loaded && b.cyc == loaded + 3;
    };
  } else {
    k.trigger = [&] {
      const IcacheTxOut io = ic_regs(b.m, 0);
      return io.vic_valid && io.vic_vpn == K;
    };
  }
  k.arm();
  const std::function<void()> kill_pre = b.pre;
  b.pre = [&] {
    kill_pre();
    if (held && k.sent && b.cyc > k.acc) b.env.vic_ready_p = 1.0;
  };
  b.record_events = true;
  std::map<uint64_t, TxPathModel::VictimReg> vr;
  std::map<uint64_t, bool> l2v, l2rdy;
  b.hook = [&] {
    vr[b.cyc] = b.m.l2_victim_reg();
    l2v[b.cyc] = b.out.l2_vic_valid;
    l2rdy[b.cyc] = b.in.l2_vic_ready;
  };
  b.push_down(0, {v9[8]});
  b.pre = nullptr;
  b.hook = nullptr;
  b.env.vic_ready_p = 1.0;
  ASSERT_TRUE(k.sent);
  const uint64_t a = k.acc;
  EXPECT_TRUE(b.ev_at[a].shootdown_accept);
  EXPECT_TRUE(b.ev_at[a].vr_kill);
  if (held) {
    EXPECT_GE(a, loaded + 3);
    EXPECT_TRUE(vr[a].valid && !vr[a].kill);
    EXPECT_TRUE(l2v[a]) << "offered in the accept cycle (not taken: ready 0)";
    EXPECT_FALSE(l2rdy[a]);
    EXPECT_TRUE(l2rdy[a + 1]);
  } else {
    EXPECT_TRUE(b.ev_at[a].icache_victim_to_vr);
    EXPECT_FALSE(vr[a].valid);
  }
  EXPECT_TRUE(vr[a + 1].valid);
  EXPECT_TRUE(vr[a + 1].kill);
  EXPECT_EQ(vr[a + 1].vpn, K);
  EXPECT_FALSE(l2v[a + 1]);
  EXPECT_TRUE(b.ev_at[a + 1].vr_dropped);
  EXPECT_FALSE(b.ev_at[a + 1].icache_victim_to_l2);
  EXPECT_FALSE(vr[a + 2].valid);
  EXPECT_TRUE(b.env.vics.empty()) << "11 never taken on the L2 victim port";
}
TEST(TxPathModel, KillAtAcceptEdgeL2VictimRegisterLoad) { kill_vr(false); }
TEST(TxPathModel, KillAtAcceptEdgeL2VictimRegisterHeld) { kill_vr(true); }

// Phase order in one run, cycle by cycle: a shootdown of a translation held
// by nothing (no remove pending) on the quad configuration: the path accepts
// in e; every LDS and both I-caches take the sequencer's request in e+1
// (LDS-mode segment: done in e+3; non-Tx line: done in e+3); the last ldone /
// idone registers are set at edge e+3, the L1-TLB's sd_valid_i in e+4 (its
// accept), sd_done_o of the L1-TLB in e+7, l1done at edge e+7, sdp cleared at
// edge e+8: sd_done_o in e+9.
TEST(TxPathModel, ShootdownPhaseOrderTiming) {
  Bench b(load(kQuad));
  b.settle();
  std::map<uint64_t, bool> l1sd1, phase1;
  b.hook = [&] {
    l1sd1[b.cyc] = b.m.l1().sd1_valid();
    phase1[b.cyc] = b.m.shootdown_phase1_done();
  };
  b.in.sd_valid = 1;
  b.in.sd_vpn = 0x777;
  b.step();
  const uint64_t e = b.cyc - 1;
  EXPECT_TRUE(b.out.sd_ready);
  b.in.sd_valid = 0;
  uint64_t done = 0;
  for (unsigned n = 0; n < 40 && !done; ++n) {
    b.step();
    if (b.out.sd_done) done = b.cyc - 1;
  }
  EXPECT_EQ(done, e + 9);
  EXPECT_FALSE(phase1[e + 3]);
  EXPECT_TRUE(phase1[e + 4]);
  EXPECT_FALSE(l1sd1[e + 4]);
  EXPECT_TRUE(l1sd1[e + 5]) << "L1-TLB shootdown accepted in e+4";
}

// ===========================================================================
// Removes of two sharers on one I-cache: round robin from rp
// ===========================================================================

// tx_path_small with WI = 4. P0 = 12 (CU 0) and P1 = 13 (CU 1) sit in I-cache
// lines 12 and 13 (bypassed by allocated LDS segments). Both CUs ask at once;
// the I-cache serves CU 0's lookup, then CU 1's; each CU waits WI cycles in
// WIRE before RET, so CU 0's remove register loads while the I-cache serves
// CU 1. The kernel flush port is held busy (flush_valid_i = 1 keeps
// sd_ready_o = 0; kernel_flush keeps Tx lines) from the first remove until
// both wait: then the winner is the first in rp, rp+1, ...: rp = 0 -> CU 0,
// then CU 1 (rp = 0 again). A second round after a lone remove of CU 0
// (rp = 1) serves CU 1 first.
TEST(TxPathModel, IcacheRemovesRoundRobin) {
  config::Config c = load_cfg(kSmall);
  c.tx_path->wire_icache = 4;
  Bench b(elab::elaborate_tx_path(c));
  b.settle();
  b.wg(0, false, 12, 1);
  b.wg(1, false, 13, 1);
  std::vector<int> order;  // CUs in the order their removes were accepted
  auto both_promote = [&](uint64_t p0, uint64_t p1) {
    b.push_down(0, {p0});
    b.push_down(1, {p1});
    ASSERT_TRUE(b.m.in_icache(0, p0, 0, 0));
    ASSERT_TRUE(b.m.in_icache(0, p1, 0, 0));
    order.clear();
    bool w0 = false, w1 = false;
    b.in.req_valid[0] = b.in.req_valid[1] = 1;
    b.in.req_vpn[0] = p0;
    b.in.req_vpn[1] = p1;
    bool contention = false;
    for (unsigned n = 0; n < 400 && order.size() < 2; ++n) {
      // hold the flush port while only one remove waits
      const bool r0 = b.m.ic_remove_waiting(0), r1 = b.m.ic_remove_waiting(1);
      b.in.flush_valid[0] = !(w0 && w1) && (r0 != r1);
      b.step();
      if (b.out.req_ready[0]) b.in.req_valid[0] = 0;
      if (b.out.req_ready[1]) b.in.req_valid[1] = 0;
      contention |= b.m.events().remove_ic_contention;
      if (r0 && !b.m.ic_remove_waiting(0)) order.push_back(0);
      if (r1 && !b.m.ic_remove_waiting(1)) order.push_back(1);
      if (r0 && r1) w0 = w1 = true;  // both waited together: stop holding the flush port
    }
    b.in.flush_valid[0] = 0;
    EXPECT_TRUE(contention);
    EXPECT_TRUE(w0 && w1) << "both removes waited together";
    b.settle();
    EXPECT_FALSE(b.m.in_icache(0, p0, 0, 0));
    EXPECT_FALSE(b.m.in_icache(0, p1, 0, 0));
  };
  both_promote(12, 13);
  ASSERT_EQ(order.size(), 2u);
  EXPECT_EQ(order[0], 0);
  EXPECT_EQ(order[1], 1);
  // a lone remove of CU 0: rp = 1 afterwards
  b.push_down(0, {12 + 32});
  b.fetch(0, 12 + 32);
  EXPECT_FALSE(b.m.in_icache(0, 12 + 32, 0, 0));
  both_promote(12 + 64, 13 + 64);
  ASSERT_EQ(order.size(), 2u);
  EXPECT_EQ(order[0], 1) << "rp = 1: CU 1's remove first";
  EXPECT_EQ(order[1], 0);
}

// ===========================================================================
// L2 request and L2 victim round robins
// ===========================================================================

// Quad. Every CU misses on a fresh page at once; l2_req_ready_i is held at 0
// until all four l2r registers are loaded; then the requests are taken one
// per cycle in the order lp, lp+1, ...: from reset lp = 0 (CUs 0, 1, 2, 3),
// lp = 0 again after CU 3. A lone request of CU 1 moves lp to 2; the next
// round is taken in the order 2, 3, 0, 1.
TEST(TxPathModel, L2RequestRoundRobin) {
  Bench b(load(kQuad));
  b.settle();
  std::vector<unsigned> order;
  b.hook = [&] {
    if (b.out.l2_req_valid && b.in.l2_req_ready) order.push_back(unsigned(b.out.l2_req_tag >> b.p.l1_tag_bits));
  };
  auto round = [&](uint64_t base) {
    order.clear();
    b.env.req_ready_p = 0.0;
    for (unsigned u = 0; u < 4; ++u) {
      b.in.req_valid[u] = 1;
      b.in.req_vpn[u] = base + u;
    }
    b.step();
    for (unsigned u = 0; u < 4; ++u) {
      EXPECT_TRUE(b.out.req_ready[u]);
      b.in.req_valid[u] = 0;
    }
    for (unsigned n = 0; n < 200; ++n) {
      bool all = true;
      for (unsigned u = 0; u < 4; ++u) all = all && b.m.l2r_valid(u);
      if (all) break;
      b.step();
    }
    b.env.req_ready_p = 1.0;
    b.run(4);
    b.settle();
  };
  round(0x100);
  ASSERT_EQ(order.size(), 4u);
  for (unsigned u = 0; u < 4; ++u) EXPECT_EQ(order[u], u);
  order.clear();
  b.fetch(1, 0x200);
  ASSERT_EQ(order.size(), 1u);
  round(0x300);
  ASSERT_EQ(order.size(), 4u);
  const unsigned want[4] = {2, 3, 0, 1};
  for (unsigned k = 0; k < 4; ++k) EXPECT_EQ(order[k], want[k]) << k;
}

// Quad (X = 1: a translation fill into a Tx line holding another translation
// evicts it). CU 0 (I-cache 0) and CU 2 (I-cache 1) keep segments 5 and 6
// allocated, so their L1 victims go straight to the I-caches; lines 5 and 6
// hold 5 and 6. With l2_vic_ready_i = 0:
//  - a first victim (the *plug*) goes into the free vr at once, vp = its
//    I-cache + 1, and is offered but not taken;
//  - then each I-cache gets a victim, which waits in its VIC (vr full):
//    two candidates, vic_ready_i = 0 for both.
// Released in r: vr (the plug) is taken at edge r and, as vr is emptied in
// r, the round-robin winner from vp goes into vr at the same edge; the other
// one at edge r+1: the port takes the three victims in r, r+1, r+2.
// Round 1 (plug 5 from I-cache 0, vp = 1): plug, I-cache 1's, I-cache 0's.
// Round 2 (plug 38 from I-cache 1, vp = 0): plug, I-cache 0's, I-cache 1's.
TEST(TxPathModel, L2VictimRoundRobin) {
  Bench b(load(kQuad));
  b.settle();
  b.wg(0, false, 5, 1);
  b.wg(2, false, 6, 1);
  b.push_down(0, {5});
  b.push_down(2, {6});
  ASSERT_TRUE(b.m.in_icache(0, 5, 0, 0));
  ASSERT_TRUE(b.m.in_icache(1, 6, 0, 0));
  ASSERT_TRUE(b.env.vics.empty());
  ASSERT_EQ(b.m.l2_victim_pointer(), 0u);
  b.record_events = true;
  // CU u fetches vpn and four fillers without waiting for the path to settle
  // (an I-cache stuck in VIC is not idle); the last filler's fill evicts vpn,
  // after its own lookups are done.
  auto push_nosettle = [&](unsigned u, uint64_t vpn) {
    std::vector<uint64_t> all{vpn};
    for (unsigned k = 0; k < 4; ++k) all.push_back(b.filler());
    for (uint64_t v : all) {
      b.request(u, v);
      b.wait_fill(u, v);
      b.run(8);
    }
    b.run(20);
  };
  // plug from CU pu (its I-cache), then victims of both I-caches; returns
  // the port's order and checks the cycles.
  auto round = [&](unsigned pu, uint64_t plug_new, uint64_t plug_old, unsigned first_u, uint64_t first_new,
                   unsigned second_u, uint64_t second_new) {
    b.env.vic_ready_p = 0.0;
    push_nosettle(pu, plug_new);
    EXPECT_TRUE(b.m.l2_victim_reg().valid);
    EXPECT_EQ(b.m.l2_victim_reg().vpn, plug_old);
    EXPECT_EQ(b.m.l2_victim_pointer(), (pu / 2 + 1) % 2);
    EXPECT_TRUE(b.m.icache(pu / 2).idle()) << "the plug left its I-cache";
    push_nosettle(first_u, first_new);
    push_nosettle(second_u, second_new);
    EXPECT_TRUE(b.m.events().l2_vic_overlap);
    EXPECT_TRUE(b.m.events().icache_victim_waits);
    EXPECT_TRUE(b.m.events().l2_vic_backpressure);
    EXPECT_TRUE(ic_regs(b.m, 0).vic_valid);
    EXPECT_TRUE(ic_regs(b.m, 1).vic_valid);
    const size_t n0 = b.env.vics.size();
    const uint64_t r = b.cyc;
    b.env.vic_ready_p = 1.0;
    b.run(6);
    EXPECT_TRUE(b.ev_at[r].vr_refill);
    EXPECT_TRUE(b.ev_at[r + 1].vr_refill);
    b.settle();
    std::vector<uint64_t> order;
    EXPECT_EQ(b.env.vics.size(), n0 + 3);
    for (size_t k = n0; k < b.env.vics.size(); ++k) {
      order.push_back(b.env.vics[k].vpn);
      EXPECT_EQ(b.env.vics[k].cyc, r + (k - n0)) << k - n0;
    }
    return order;
  };
  // round 1: plug 5 (I-cache 0; 5 + 32 replaces it), then I-cache 0: 5 + 32
  // replaced by 5 + 64, I-cache 1: 6 replaced by 6 + 32
  const std::vector<uint64_t> first = round(0, 5 + 32, 5, 0, 5 + 64, 2, 6 + 32);
  EXPECT_EQ(first, (std::vector<uint64_t>{5, 6, 5 + 32})) << "vp = 1 after the plug: I-cache 1 first";
  EXPECT_EQ(b.m.l2_victim_pointer(), 1u);
  // round 2: plug 6 + 32 (I-cache 1; vp = 0), then I-cache 1: 6 + 64 replaced
  // by 6 + 96, I-cache 0: 5 + 64 replaced by 5 + 96
  const std::vector<uint64_t> second = round(2, 6 + 64, 6 + 32, 2, 6 + 96, 0, 5 + 96);
  EXPECT_EQ(second, (std::vector<uint64_t>{6 + 32, 5 + 64, 6 + 64})) << "vp = 0 after the plug: I-cache 0 first";
  EXPECT_EQ(b.m.l2_victim_pointer(), 0u);
}

// ===========================================================================
// 8. LDS allocation drops translations
// ===========================================================================

// K = 0x2d (segment 13) in CU 0's LDS; CU 1 keeps missing on its own pages
// meanwhile. A work group allocated over segments 12..14 of CU 0 clears
// their mode bits: K is gone from the LDS, and CU 0's next miss on K goes to
// the L2-TLB (an LDS-mode answer, no hit).
TEST(TxPathModel, LdsAllocationDropsTranslationsInMidTraffic) {
  Bench b(load(kSmall));
  b.settle();
  const uint64_t K = 0x2d;
  b.push_down(0, {K});
  ASSERT_TRUE(b.m.in_lds(0, K, 0, 0));
  std::mt19937_64 rng(7);
  b.pre = [&] {
    b.in.req_valid[1] = rng() % 3 == 0;
    b.in.req_vpn[1] = 0x300 + rng() % 24;
  };
  b.run(40);
  b.wg(0, false, 12, 3);
  EXPECT_FALSE(b.m.in_lds(0, K, 0, 0));
  EXPECT_FALSE(b.m.lds(0).mode_bit(13));
  b.run(20);
  const uint64_t t = b.request(0, K);
  b.wait_fill(0, K);
  b.pre = nullptr;
  b.in.req_valid[1] = 0;
  b.settle();
  EXPECT_TRUE(b.l2_requested(K, t)) << "neither the LDS nor the I-cache had it";
  EXPECT_FALSE(b.m.in_lds(0, K, 0, 0));
}

// ===========================================================================
// 8b. Non-blocking lookup (tx_path.lookup_slots = K > 1)
// ===========================================================================

TxPathParams small_slots(unsigned slots, unsigned wire_lds, unsigned wire_icache) {
  config::Config c = load_cfg(kSmall);
  c.tx_path->lookup_slots = slots;
  c.tx_path->wire_lds = wire_lds;
  c.tx_path->wire_icache = wire_icache;
  return elab::elaborate_tx_path(c);
}

// CU 0's two slots, hit pulses, fills and events, cycle by cycle.
struct SlotTrace {
  std::map<uint64_t, Stage> s0, s1;
  std::vector<uint64_t> hit_lds, hit_ic;
  std::map<uint64_t, uint64_t> fill;  // vpn -> cycle of fill_valid_o[0]
  void attach(Bench& b) {
    b.record_events = true;
    b.hook = [this, &b] {
      s0[b.cyc] = b.m.stage(0, 0);
      s1[b.cyc] = b.m.params().slots > 1 ? b.m.stage(0, 1) : Stage::Idle;
      if (b.out.hit_lds[0]) hit_lds.push_back(b.cyc);
      if (b.out.hit_ic[0]) hit_ic.push_back(b.cyc);
      if (b.out.fill_valid[0]) fill[b.out.fill_vpn[0]] = b.cyc;
    };
  }
  // The cycle whose edge takes slot 0's miss in (IDLE -> LDS_REQ).
  uint64_t intake0(uint64_t from) const {
    for (const auto& [c, st] : s0)
      if (c > from && st == Stage::LdsReq) return c - 1;
    return 0;
  }
};

// Two misses of CU 0 requested in consecutive cycles ta, ta+1: A = 3 (after
// setup_v0_in_icache: an LDS miss in the Tx segment 3, an I-cache hit in
// line 3, compare group 0) and B = 35 (an LDS hit in segment 3).
constexpr uint64_t kA = 3, kB = 35;
void request_a_then_b(Bench& b, uint64_t& ta) {
  ta = b.request(0, kA);
  const uint64_t tb = b.request(0, kB);
  EXPECT_EQ(tb, ta + 1) << "the L1-TLB takes the two requests in consecutive cycles";
}

// A then B requested (ta: A's accept), traced for `cycles` cycles; returns
// t, the cycle whose edge takes A into slot 0.
uint64_t trace_a_then_b(Bench& b, SlotTrace& tr, uint64_t cycles, uint64_t& ta) {
  tr.attach(b);
  request_a_then_b(b, ta);
  b.run(cycles);
  b.hook = nullptr;
  return tr.intake0(ta);
}

// The section's cycle example (K = 2, WL = 100, WI = 0). The misses reach
// the stage in t (A, the lowest IDLE slot 0) and t+1 (B, slot 1), t = ta + 4
// (the L1's l2_req_valid_o). A's LDS lookup is accepted in t+1 and answered
// in t+5 (Tx segment: A+4); B's is accepted in t+6 (the LDS's lk_ready_o
// is 0 in its answer cycle) and answered in t+10. A leaves its wire in t+106
// (IC_REQ), B in t+111 (RET, hit_lds_o: B returns while the older A is in
// IC_WAIT, ret_overtakes). A's I-cache lookup (accepted t+106) is answered
// in t+111 (A'+5), A's RET in t+112 (hit_ic_o). Fills: B t+115, A t+116.
TEST(TxPathModel, SlotsCycleExampleWire100) {
  Bench b(small_slots(2, 100, 0));
  setup_v0_in_icache(b);
  if (::testing::Test::HasFatalFailure()) return;
  SlotTrace tr;
  uint64_t ta = 0;
  const uint64_t t = trace_a_then_b(b, tr, 130, ta);
  EXPECT_EQ(t, ta + 4);
  // A (slot 0)
  EXPECT_EQ(tr.s0[t], Stage::Idle);
  EXPECT_EQ(tr.s0[t + 1], Stage::LdsReq) << "A's LDS lookup accepted in t+1";
  for (uint64_t c = t + 2; c <= t + 5; ++c) EXPECT_EQ(tr.s0[c], Stage::LdsWait) << c - t;
  EXPECT_TRUE(b.ev_at[t + 5].lds_lookup_miss) << "A answered in t+5";
  for (uint64_t c = t + 6; c <= t + 105; ++c) EXPECT_EQ(tr.s0[c], Stage::Wire) << c - t;
  EXPECT_EQ(tr.s0[t + 106], Stage::IcReq) << "A leaves its wire in t+106";
  for (uint64_t c = t + 107; c <= t + 111; ++c) EXPECT_EQ(tr.s0[c], Stage::IcWait) << c - t;
  EXPECT_TRUE(b.ev_at[t + 111].ic_lookup_hit);
  EXPECT_EQ(tr.s0[t + 112], Stage::Ret);
  EXPECT_EQ(tr.s0[t + 113], Stage::Idle);
  // B (slot 1)
  EXPECT_EQ(tr.s1[t + 1], Stage::Idle);
  for (uint64_t c = t + 2; c <= t + 6; ++c) EXPECT_EQ(tr.s1[c], Stage::LdsReq) << c - t;
  for (uint64_t c = t + 7; c <= t + 10; ++c) EXPECT_EQ(tr.s1[c], Stage::LdsWait) << c - t;
  EXPECT_TRUE(b.ev_at[t + 10].lds_lookup_hit) << "B answered in t+10";
  for (uint64_t c = t + 11; c <= t + 110; ++c) EXPECT_EQ(tr.s1[c], Stage::Wire) << c - t;
  EXPECT_EQ(tr.s1[t + 111], Stage::Ret) << "B leaves its wire in t+111";
  EXPECT_EQ(tr.s1[t + 112], Stage::Idle);
  // B returns before A
  EXPECT_EQ(tr.hit_lds, std::vector<uint64_t>{t + 111});
  EXPECT_EQ(tr.hit_ic, std::vector<uint64_t>{t + 112});
  EXPECT_TRUE(b.ev_at[t + 111].ret_overtakes) << "B returned while the older A was not IDLE";
  EXPECT_FALSE(b.ev_at[t + 112].ret_overtakes);
  EXPECT_EQ(tr.fill[kB], t + 115);
  EXPECT_EQ(tr.fill[kA], t + 116);
  EXPECT_FALSE(b.l2_requested(kA, ta));
  EXPECT_FALSE(b.l2_requested(kB, ta));
  b.settle();
  EXPECT_TRUE(b.m.in_l1(0, kA, 0));
  EXPECT_TRUE(b.m.in_l1(0, kB, 0));
  EXPECT_FALSE(b.m.in_icache(0, kA, 0, 0)) << "move: A left the I-cache";
  EXPECT_FALSE(b.m.in_lds(0, kB, 0, 0)) << "move: B left the LDS";
}

// Out-of-order hits without a wire (small, K = 2): A's LDS miss is answered
// in t+5, its I-cache lookup accepted in t+6 and answered in t+11, RET t+12;
// B's LDS lookup is accepted in t+6, answered (hit) in t+10, RET t+11: the
// younger B, found in the LDS, returns before the older A, found in the
// I-cache. The blocking stage (K = 1) returns them in order: B's lookup
// starts only after A's RET.
TEST(TxPathModel, SlotsReturnLdsHitBeforeOlderIcacheHit) {
  for (unsigned K : {2u, 1u}) {
    Bench b(small_slots(K, 0, 0));
    setup_v0_in_icache(b);
    if (::testing::Test::HasFatalFailure()) return;
    SlotTrace tr;
    uint64_t ta = 0;
    const uint64_t t = trace_a_then_b(b, tr, 40, ta);
    ASSERT_EQ(tr.hit_lds.size(), 1u) << "K " << K;
    ASSERT_EQ(tr.hit_ic.size(), 1u) << "K " << K;
    bool overtook = false;
    for (const auto& [c, e] : b.ev_at) overtook |= c >= ta && e.ret_overtakes;
    if (K == 2) {
      EXPECT_EQ(tr.s1[t + 6], Stage::LdsReq);
      EXPECT_EQ(tr.s1[t + 7], Stage::LdsWait) << "B's LDS lookup accepted in t+6";
      EXPECT_EQ(tr.s0[t + 6], Stage::IcReq);
      EXPECT_EQ(tr.s0[t + 7], Stage::IcWait) << "A's I-cache lookup accepted in t+6";
      EXPECT_EQ(tr.hit_lds[0], t + 11) << "B's RET";
      EXPECT_EQ(tr.hit_ic[0], t + 12) << "A's RET";
      EXPECT_TRUE(b.ev_at[t + 11].ret_overtakes);
      EXPECT_LT(tr.fill[kB], tr.fill[kA]) << "the younger miss is filled first";
    } else {
      EXPECT_EQ(tr.hit_ic[0], t + 12) << "A's RET, as with slots";
      EXPECT_GT(tr.hit_lds[0], tr.hit_ic[0]) << "blocking: in order";
      EXPECT_FALSE(overtook);
      EXPECT_LT(tr.fill[kA], tr.fill[kB]);
    }
    b.settle();
    EXPECT_TRUE(b.m.in_l1(0, kA, 0));
    EXPECT_TRUE(b.m.in_l1(0, kB, 0));
  }
}

// $.tx_path.lookup_slots: 1-8 (default 1, the blocking stage), at most the
// L1-TLB's mshrs_per_cu; K sets the pointers' width clog2 K.
TEST(TxPathModel, LookupSlotsConfiguration) {
  const nlohmann::json base = config::read_json_file(std::string(TXGEN_SOURCE_DIR) + "/" + kSmall);
  const auto elaborate_with = [&](unsigned slots, unsigned mshrs) {
    nlohmann::json j = base;
    j["tx_path"]["lookup_slots"] = slots;
    j["tx_path"]["l1tlb"]["mshrs_per_cu"] = mshrs;
    return elab::elaborate_tx_path(config::parse_config(j));
  };
  const auto error_path = [&](unsigned slots, unsigned mshrs) -> std::string {
    try {
      elaborate_with(slots, mshrs);
    } catch (const ConfigError& e) {
      return e.path();
    }
    return "(accepted)";
  };
  EXPECT_EQ(load(kSmall).slots, 1u) << "default: the blocking stage";
  EXPECT_EQ(elaborate_with(2, 2).slots, 2u);
  EXPECT_EQ(elaborate_with(8, 8).slots, 8u);
  EXPECT_EQ(error_path(3, 2), "$.tx_path.lookup_slots") << "more slots than MSHRs per CU";
  EXPECT_EQ(error_path(8, 4), "$.tx_path.lookup_slots");
  EXPECT_EQ(error_path(9, 16), "$.tx_path.lookup_slots") << "above 8";
  EXPECT_EQ(error_path(0, 2), "$.tx_path.lookup_slots") << "below 1";
}

TEST(TxPathModel, SpeculativeL2Configuration) {
  nlohmann::json j = config::read_json_file(std::string(TXGEN_SOURCE_DIR) + "/" + kSmall);
  EXPECT_FALSE(elab::elaborate_tx_path(config::parse_config(j)).speculative) << "default: after the lookups";
  j["tx_path"]["speculative_l2"] = true;
  EXPECT_TRUE(elab::elaborate_tx_path(config::parse_config(j)).speculative);
  j["tx_path"]["speculative_l2"] = 1;
  try {
    config::parse_config(j);
    ADD_FAILURE() << "an integer accepted as a boolean";
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.path(), "$.tx_path.speculative_l2");
  }
}

// ===========================================================================
// 8c. Speculative L2 request (tx_path.speculative_l2 = true)
// ===========================================================================

TxPathParams small_spec(unsigned slots, unsigned wire_lds, unsigned wire_icache) {
  config::Config c = load_cfg(kSmall);
  c.tx_path->lookup_slots = slots;
  c.tx_path->wire_lds = wire_lds;
  c.tx_path->wire_icache = wire_icache;
  c.tx_path->speculative_l2 = true;
  return elab::elaborate_tx_path(c);
}

// CU 0's slot k (sent, ab), its cx, out and l2r, the L2 port and CU 0's hit
// pulses and fills, cycle by cycle.
struct SpecTrace {
  std::map<uint64_t, Stage> st;
  std::map<uint64_t, bool> sent, ab, l2r, req, resp, ready;
  std::map<uint64_t, uint64_t> cx, out, req_tag;
  std::vector<uint64_t> hits, fills;
  void attach(Bench& b, unsigned k = 0) {
    b.record_events = true;
    b.hook = [this, &b, k] {
      const uint64_t c = b.cyc;
      st[c] = b.m.stage(0, k);
      sent[c] = b.m.slot_sent(0, k);
      ab[c] = b.m.slot_ab(0, k);
      cx[c] = b.m.cancel_vector(0);
      out[c] = b.m.outstanding_fills(0);
      l2r[c] = b.m.l2r_valid(0);
      req[c] = b.out.l2_req_valid;
      req_tag[c] = b.out.l2_req_tag;
      resp[c] = b.in.l2_resp_valid;
      ready[c] = b.out.l2_resp_ready;
      if (b.out.hit_lds[0] || b.out.hit_ic[0]) hits.push_back(c);
      if (b.out.fill_valid[0]) fills.push_back(c);
    };
  }
  uint64_t first_req(uint64_t from) const {
    for (const auto& [c, v] : req)
      if (c >= from && v) return c;
    return 0;
  }
  // The cycle whose edge takes the L2 answer (l2_resp_valid_i and ready).
  uint64_t answer_taken(uint64_t from) const {
    for (const auto& [c, v] : resp)
      if (c >= from && v && ready.at(c)) return c;
    return 0;
  }
};

unsigned l2_requests_of(const Bench& b, uint64_t vpn, uint64_t from) {
  unsigned n = 0;
  for (const L2Env::Log& r : b.env.reqs) n += r.cyc >= from && r.vpn == vpn ? 1 : 0;
  return n;
}

// CU 0 fetches a0..a4: a0 ends in LDS segment 0 (a Tx segment), as in
// section 1.
constexpr uint64_t kA0 = 0x40;
void setup_a0_in_lds(Bench& b) {
  b.settle();
  for (uint64_t v : {kA0, kA0 + 1, kA0 + 2, kA0 + 3, kA0 + 4}) b.fetch(0, v);
  ASSERT_FALSE(b.m.in_l1(0, kA0, 0));
  ASSERT_TRUE(b.m.in_lds(0, kA0, 0, 0));
  b.seen = TxPathEvents{};
}

// The section's cycle example (K = 1, WL = WI = 0): the miss taken in at
// edge t+4 asks in t+5 (LDS_REQ), l2r loads at edge t+5 and l2_req_valid_o
// is 1 from t+6, against t+17 without speculation (a Tx segment and a Tx
// line that both miss, CP = X = 8, "Cycle examples"). The L2 answer is held
// back: the lookups go on unchanged (IC_REQ t+10, L2 t+16), and the slot,
// already sent, leaves L2 at edge t+16 without loading l2r again: one L2
// request. The answer then finds the slot IDLE: delivered, no early answer,
// no drop.
TEST(TxPathModel, SpeculativeCycleExampleSixCyclesToL2) {
  const uint64_t v = 3 + 32 * 9;
  for (bool spec : {false, true}) {
    config::Config c = load_cfg(kSmall);
    c.tx_path->icache_tx.comparators = 8;
    c.tx_path->speculative_l2 = spec;
    Bench b(elab::elaborate_tx_path(c));
    setup_v0_in_icache(b);
    if (::testing::Test::HasFatalFailure()) return;
    b.seen = TxPathEvents{};
    b.env.hold = true;
    SpecTrace tr;
    tr.attach(b);
    const uint64_t t = b.request(0, v);
    b.run(30);
    EXPECT_EQ(tr.first_req(t), t + (spec ? 6 : 17)) << "spec " << spec << ": cycles from the L1's accept";
    EXPECT_EQ(tr.req_tag[tr.first_req(t)] >> b.p.l1_tag_bits, 0u) << "CU 0";
    EXPECT_EQ(tr.st[t + 4], Stage::Idle);
    EXPECT_EQ(tr.st[t + 5], Stage::LdsReq);
    EXPECT_EQ(tr.st[t + 10], Stage::IcReq) << "the lookups below go on";
    EXPECT_EQ(tr.st[t + 16], Stage::L2);
    EXPECT_EQ(tr.st[t + 17], Stage::Idle);
    EXPECT_EQ(l2_requests_of(b, v, t), 1u) << "spec " << spec;
    if (spec) {
      EXPECT_FALSE(tr.sent[t + 5]);
      EXPECT_FALSE(tr.l2r[t + 5]);
      EXPECT_TRUE(tr.l2r[t + 6]) << "l2r loaded at edge t+5";
      EXPECT_TRUE(tr.sent[t + 6]);
      EXPECT_TRUE(tr.sent[t + 16]) << "in L2, already sent";
      for (uint64_t cy = t + 7; cy <= t + 20; ++cy) EXPECT_FALSE(tr.l2r[cy]) << "l2r loaded again in " << cy - t;
    }
    b.env.hold = false;
    const uint64_t f = b.wait_fill(0, v);
    EXPECT_EQ(f, tr.answer_taken(t) + 4) << "the L2's answer fills the L1";
    EXPECT_TRUE(b.seen.l2_fill);
    EXPECT_FALSE(b.seen.spec_drop);
    EXPECT_FALSE(b.seen.spec_early) << "the slot was IDLE when the answer came";
    EXPECT_TRUE(tr.hits.empty());
    b.hook = nullptr;
    b.settle();
    EXPECT_TRUE(b.m.in_l1(0, v, 0));
  }
}

// An LDS hit (K = 1, a0 in LDS segment 0): the request leaves in t+6, the
// promotion is unchanged (RET and hit_lds_o t+10, fill_valid_o t+14), and
// its RET edge sets cx[tag] since the slot was sent. The L2's answer is
// dropped whenever it comes: in the RET cycle t+10 (latency 4) it waits
// (l2_resp_ready_o = 0: ret; cx is still 0) and is dropped in t+11; held
// back to t+40, it is taken in its first cycle. Either way the L1-TLB
// receives nothing (no second fill, out unchanged), cx clears at the drop
// edge, and the promotion's remove takes a0 out of the LDS.
TEST(TxPathModel, SpeculativeLdsHitPromotesAndDropsTheAnswer) {
  for (bool late : {false, true}) {
    Bench b(small_spec(1, 0, 0));
    setup_a0_in_lds(b);
    if (::testing::Test::HasFatalFailure()) return;
    b.env.lat_min = b.env.lat_max = 4;
    b.env.hold = late;
    const TxPathStats s0 = b.m.stats();
    SpecTrace tr;
    tr.attach(b);
    const uint64_t t = b.request(0, kA0);
    while (b.cyc < t + 40) b.step();
    b.env.hold = false;
    b.run(30);
    const uint64_t tag = tr.req_tag[t + 6] & mask(b.p.l1_tag_bits);
    EXPECT_EQ(tr.first_req(t), t + 6);
    EXPECT_EQ(tr.hits, std::vector<uint64_t>{t + 10}) << "the promotion is unchanged";
    EXPECT_EQ(tr.fills, std::vector<uint64_t>{t + 14}) << "one fill: the promotion's";
    EXPECT_EQ(tr.cx[t + 10], 0u);
    EXPECT_EQ(tr.cx[t + 11], uint64_t{1} << tag) << "the RET edge of a sent slot sets cx[tag]";
    const uint64_t d = tr.answer_taken(t);
    EXPECT_EQ(d, late ? t + 40 : t + 11) << "late " << late;
    if (!late) {
      EXPECT_TRUE(tr.resp[t + 10]);
      EXPECT_FALSE(tr.ready[t + 10]) << "neither delivered nor dropped in the RET cycle";
    }
    EXPECT_TRUE(b.ev_at[d].spec_drop);
    EXPECT_FALSE(b.ev_at[d].l2_fill);
    EXPECT_EQ(tr.cx[d], uint64_t{1} << tag);
    EXPECT_EQ(tr.cx[d + 1], 0u) << "cleared at the drop edge";
    EXPECT_EQ(tr.out[d + 1] + (std::count(tr.fills.begin(), tr.fills.end(), d) ? 1u : 0u), tr.out[d])
        << "the L1-TLB's input was not valid for the dropped answer";
    EXPECT_EQ(b.m.stats().l2_fills, s0.l2_fills);
    EXPECT_EQ(b.m.stats().l2_drops, s0.l2_drops + 1);
    EXPECT_EQ(b.m.stats().promotions, s0.promotions + 1);
    EXPECT_FALSE(b.seen.spec_early);
    EXPECT_TRUE(b.env.idle()) << "the answer was consumed";
    b.hook = nullptr;
    b.settle();
    EXPECT_TRUE(b.m.in_l1(0, kA0, 0));
    EXPECT_FALSE(b.m.in_lds(0, kA0, 0, 0)) << "move: the promotion removed it";
  }
}

// The L2 answers first (WL = 50, a0 an LDS hit answered in t+9, RET would
// be t+60). Latency 10: the answer comes in t+16, in the slot's LDS wire:
// delivered (fill_valid_o t+20), the slot gets ab at edge t+16 and quits at
// the next edge (IDLE in t+18). Latency 1: the answer comes in t+7, in
// LDS_WAIT: the slot waits for the LDS's answer (t+9), discards it and is
// IDLE in t+10, its wire not counted. Neither promotes later: no hit
// pulse, no remove (a0 stays in the LDS as well), no drop.
TEST(TxPathModel, SpeculativeEarlyAnswerQuitsTheSlot) {
  for (unsigned lat : {10u, 1u}) {
    Bench b(small_spec(1, 50, 0));
    setup_a0_in_lds(b);
    if (::testing::Test::HasFatalFailure()) return;
    b.env.lat_min = b.env.lat_max = lat;
    const TxPathStats s0 = b.m.stats();
    SpecTrace tr;
    tr.attach(b);
    const uint64_t t = b.request(0, kA0);
    b.run(100);
    const uint64_t d = t + 6 + lat;  // the request is taken in t+6
    EXPECT_EQ(tr.first_req(t), t + 6);
    EXPECT_EQ(tr.answer_taken(t), d) << "lat " << lat;
    EXPECT_TRUE(b.ev_at[d].l2_fill) << "delivered";
    EXPECT_TRUE(b.ev_at[d].spec_early);
    EXPECT_EQ(tr.fills, std::vector<uint64_t>{d + 4}) << "the L2's answer, once";
    EXPECT_FALSE(tr.ab[d]);
    EXPECT_TRUE(tr.ab[d + 1]);
    if (lat == 10) {
      EXPECT_EQ(tr.st[d], Stage::Wire);
      EXPECT_EQ(tr.st[d + 1], Stage::Wire);
      EXPECT_EQ(tr.st[d + 2], Stage::Idle) << "quits at the next edge";
    } else {
      EXPECT_EQ(tr.st[d], Stage::LdsWait);
      EXPECT_EQ(tr.st[t + 9], Stage::LdsWait) << "waits for the LDS's answer";
      EXPECT_EQ(tr.st[t + 10], Stage::Idle) << "the answer discarded, the wire not counted";
    }
    EXPECT_TRUE(tr.hits.empty()) << "no promotion";
    EXPECT_FALSE(b.seen.spec_drop);
    EXPECT_EQ(b.m.stats().promotions, s0.promotions);
    EXPECT_EQ(b.m.stats().early_answers, s0.early_answers + 1);
    for (const auto& [c, v] : tr.cx) EXPECT_EQ(v, 0u) << "cycle " << c;
    b.hook = nullptr;
    b.settle();
    EXPECT_TRUE(b.m.in_l1(0, kA0, 0));
    EXPECT_TRUE(b.m.in_lds(0, kA0, 0, 0)) << "nothing promoted, nothing removed";
    EXPECT_FALSE(b.seen.remove_lds);
  }
}

// The L2's answer (latency 3, WL = 0) comes in t+9, the cycle the LDS
// answers a0's hit: delivered (fill_valid_o t+13); the slot still takes the
// LDS's answer at that edge and reaches RET with ab, where it may not
// return: no hit pulse, IDLE in t+11, one fill.
TEST(TxPathModel, SpeculativeEarlyAnswerInTheLdsAnswerCycleBlocksRet) {
  Bench b(small_spec(1, 0, 0));
  setup_a0_in_lds(b);
  if (::testing::Test::HasFatalFailure()) return;
  const TxPathStats s0 = b.m.stats();
  SpecTrace tr;
  tr.attach(b);
  const uint64_t t = b.request(0, kA0);
  b.run(40);
  EXPECT_EQ(tr.answer_taken(t), t + 9);
  EXPECT_TRUE(b.ev_at[t + 9].spec_early);
  EXPECT_EQ(tr.st[t + 9], Stage::LdsWait);
  EXPECT_EQ(tr.st[t + 10], Stage::Ret);
  EXPECT_TRUE(tr.ab[t + 10]);
  EXPECT_EQ(tr.st[t + 11], Stage::Idle);
  EXPECT_TRUE(tr.hits.empty()) << "RET needs not ab";
  EXPECT_EQ(tr.fills, std::vector<uint64_t>{t + 13});
  EXPECT_EQ(b.m.stats().promotions, s0.promotions);
  EXPECT_FALSE(b.seen.spec_drop);
  b.hook = nullptr;
  b.settle();
}

// Tag reuse (K = 1 and 2): a0's miss (L1 tag t) is promoted while its
// answer is held back, so cx[t] = 1. The L1-TLB reuses t for the next miss
// x (LDS and I-cache miss): its slot does not ask and waits in L2, without
// a request, until the stale answer comes (released in cycle r) and is
// dropped; then it asks (l2r at edge r+1, l2_req_valid_o from r+2) and the
// L1 gets x's own answer (the data check would catch a0's).
TEST(TxPathModel, SpeculativeTagReuseWaitsForTheStaleAnswer) {
  const uint64_t x = 0x155;
  for (unsigned K : {1u, 2u}) {
    Bench b(small_spec(K, 0, 0));
    setup_a0_in_lds(b);
    if (::testing::Test::HasFatalFailure()) return;
    b.env.hold = true;
    SpecTrace tr;
    tr.attach(b);
    const uint64_t t = b.request(0, kA0);
    EXPECT_EQ(b.wait_fill(0, kA0), t + 14);
    const uint64_t tag = tr.req_tag[t + 6] & mask(b.p.l1_tag_bits);
    while (b.cyc < t + 24) b.step();
    EXPECT_EQ(b.m.cancel_vector(0), uint64_t{1} << tag);
    const uint64_t tx = b.request(0, x);
    while (b.cyc < tx + 6) b.step();
    ASSERT_NE(tr.st[tx + 5], Stage::Idle);
    EXPECT_EQ(b.m.slot_tag(0, 0), tag) << "K " << K << ": the L1-TLB reused the tag";
    const uint64_t r = tx + 80;
    while (b.cyc < r) b.step();
    EXPECT_EQ(tr.first_req(tx), 0u) << "K " << K << ": x asked while cx[tag] = 1";
    for (uint64_t c = tx + 20; c < r; ++c) {
      EXPECT_EQ(tr.st[c], Stage::L2) << c - tx;
      EXPECT_FALSE(tr.sent[c]) << c - tx;
    }
    b.env.hold = false;
    const uint64_t f = b.wait_fill(0, x);
    EXPECT_EQ(tr.answer_taken(r), r) << "the stale answer";
    EXPECT_TRUE(b.ev_at[r].spec_drop);
    EXPECT_EQ(tr.cx[r + 1], 0u);
    EXPECT_EQ(tr.st[r + 1], Stage::L2) << "asks now";
    EXPECT_FALSE(tr.req[r + 1]);
    EXPECT_EQ(tr.first_req(r), r + 2);
    EXPECT_EQ(tr.req_tag[r + 2], tag) << "CU 0, the reused tag";
    EXPECT_EQ(tr.st[r + 2], Stage::Idle);
    EXPECT_EQ(f, r + 2 + 3 + 4) << "x's own answer (latency 3), in the L1 4 cycles later";
    EXPECT_EQ(std::count(tr.fills.begin(), tr.fills.end(), t + 14), 1);
    EXPECT_EQ(tr.fills.size(), 2u) << "a0's promotion and x's L2 fill";
    EXPECT_EQ(b.data_errors, 0u);
    b.hook = nullptr;
    b.settle();
    EXPECT_TRUE(b.m.in_l1(0, x, 0));
  }
}

// ===========================================================================
// 9. Random traffic and invariants
// ===========================================================================

struct Traffic {
  const TxPathParams& p;
  std::mt19937_64 rng;
  double p_req = 0.35, p_app = 0.03, p_wg = 0.004, p_if = 0.08, p_ifill = 0.004, p_flush = 0.0004, p_sd = 0.0008,
         p_sd_all = 0.1;
  std::vector<uint64_t> shared, hot;
  std::vector<std::vector<uint64_t>> priv;
  struct Alloc {
    uint32_t base, size;
  };
  std::vector<std::vector<Alloc>> allocs;
  struct WgReq {
    bool active = false, free = false;
    uint32_t base = 0, size = 0;
  };
  std::vector<WgReq> wg;
  std::vector<uint8_t> ifill_on, flush_on;
  bool sd_on = false;
  uint64_t shootdowns = 0;

  Traffic(const TxPathParams& pp, uint64_t seed, bool hot_line = false) : p(pp), rng(seed) {
    auto page = [&](unsigned seg_lo, unsigned seg_n) {
      const uint64_t seg = seg_lo + rng() % seg_n;
      const uint64_t k = rng() % 16;
      // a few pages far away: different prefixes (compression drops)
      return (rng() % 6 == 0 ? 0x10000 : 0) + seg + 32 * k;
    };
    // Shared pages over 4 segments / lines (more than 3 per segment: LDS
    // evictions to the I-cache), private pages over 4 more; every other seed
    // adds a hot line (16 pages of segment and line 2 with one prefix, VMID
    // 0: the I-cache line fills up and evicts to the L2).
    for (unsigned i = 0; i < 14; ++i) shared.push_back(page(0, 4));
    if (hot_line)
      for (unsigned k = 0; k < 16; ++k) hot.push_back(2 + 32 * k);
    priv.resize(p.cus);
    for (unsigned u = 0; u < p.cus; ++u)
      for (unsigned i = 0; i < 8; ++i) priv[u].push_back(page(4, 4));
    allocs.resize(p.cus);
    wg.resize(p.cus);
    pin();
    ifill_on.assign(p.icaches, 0);
    flush_on.assign(p.icaches, 0);
  }
  bool bern(double q) { return std::uniform_real_distribution<double>(0, 1)(rng) < q; }
  // With the hot line, every CU keeps segment 2 allocated (a work group never
  // freed): the LDS hands those pages straight to the I-cache.
  void pin() {
    if (hot.empty()) return;
    for (unsigned u = 0; u < p.cus; ++u) wg[u] = WgReq{true, false, 2, 1};
    pinning = true;
  }
  bool pinning = false;
  bool last_hot = false;
  uint64_t pick(unsigned u) {
    last_hot = !hot.empty() && bern(0.4);
    if (last_hot) return hot[rng() % hot.size()];
    const std::vector<uint64_t>& v = bern(0.6) ? shared : priv[u];
    return v[rng() % v.size()];
  }
  // VMID 1 now and then (hot-line pages keep VMID 0: the I-cache's shared-id
  // codec drops entries of another VMID, which would keep the line from filling)
  uint64_t pick_vmid() { return !last_hot && bern(0.1) ? 1 : 0; }

  void drive(TxPathIn& in) {
    const unsigned segs = p.lds.segments, spr = p.lds.segments_per_row, bps = p.lds.banks_per_segment;
    for (unsigned u = 0; u < p.cus; ++u) {
      in.req_valid[u] = bern(p_req);
      if (in.req_valid[u]) {
        in.req_vpn[u] = pick(u);
        in.req_vmid[u] = pick_vmid();
      }
      // application: mostly inside the CU's work groups
      in.app_valid[u] = bern(p_app);
      if (in.app_valid[u]) {
        unsigned seg = static_cast<unsigned>(rng() % segs);
        bool inside = false;
        if (!allocs[u].empty() && bern(0.8)) {
          const Alloc& a = allocs[u][rng() % allocs[u].size()];
          if (a.size > 0) {
            seg = std::min(segs - 1, a.base + static_cast<uint32_t>(rng() % a.size));
            inside = true;
          }
        }
        in.app_we[u] = bern(0.5);
        in.app_row[u] = seg / spr;
        in.app_bank_en[u] = inside ? (mask(bps) << ((seg % spr) * bps)) : (rng() & mask(p.lds.banks));
        if (in.app_bank_en[u] == 0) in.app_bank_en[u] = 1;
        for (uint32_t& w : in.app_wdata[u].words) w = static_cast<uint32_t>(rng());
        if (in.app_wdata[u].width % 32) in.app_wdata[u].words.back() &= (1u << (in.app_wdata[u].width % 32)) - 1;
      }
      // work groups: held until wg_ready_o
      if (!wg[u].active && bern(p_wg)) {
        if (!allocs[u].empty() && (allocs[u].size() >= p.lds.max_work_groups || bern(0.5))) {
          const Alloc& a = allocs[u][rng() % allocs[u].size()];
          wg[u] = WgReq{true, true, a.base, a.size};
        } else if (allocs[u].size() < p.lds.max_work_groups) {
          wg[u] = WgReq{true, false, static_cast<uint32_t>(rng() % segs), static_cast<uint32_t>(rng() % 4)};
        }
      }
      in.wg_valid[u] = wg[u].active;
      in.wg_free[u] = wg[u].free;
      in.wg_base[u] = wg[u].base;
      in.wg_size[u] = wg[u].size;
    }
    const unsigned ob = p.ic.offset_bits, si = p.ic.set_bits;
    for (unsigned g = 0; g < p.icaches; ++g) {
      in.if_valid[g] = bern(p_if);
      in.if_addr[g] = ((rng() % 4) << (ob + si)) | ((rng() % p.ic.sets) << ob);
      if (!ifill_on[g] && bern(p_ifill)) {
        ifill_on[g] = 1;
        // instructions in the upper half of the sets: lines 0 .. NS/2-1 (way
        // 0) keep their translations longer, lines of the private pages
        // (segments 4..7) meet instructions (bypass)
        in.ifill_addr[g] = ((rng() % 4) << (ob + si)) | ((p.ic.sets / 2 + rng() % (p.ic.sets / 2)) << ob);
        for (uint32_t& w : in.ifill_data[g].words) w = static_cast<uint32_t>(rng());
      }
      in.ifill_valid[g] = ifill_on[g];
      if (!flush_on[g] && bern(p_flush)) flush_on[g] = 1;
      in.flush_valid[g] = flush_on[g];
    }
    if (!sd_on && bern(p_sd)) {
      sd_on = true;
      in.sd_all = bern(p_sd_all);
      in.sd_vpn = pick(static_cast<unsigned>(rng() % p.cus));
      in.sd_vmid = pick_vmid();
    }
    in.sd_valid = sd_on;
  }
  void observe(const TxPathIn& in, const TxPathOut& out) {
    for (unsigned u = 0; u < p.cus; ++u)
      if (in.wg_valid[u] && out.wg_ready[u]) {
        if (pinning && !wg[u].free && wg[u].base == 2 && wg[u].size == 1) {
          wg[u].active = false;  // the pinned allocation: not in allocs, never freed
          continue;
        }
        if (wg[u].free) {
          for (size_t i = 0; i < allocs[u].size(); ++i)
            if (allocs[u][i].base == wg[u].base && allocs[u][i].size == wg[u].size) {
              allocs[u].erase(allocs[u].begin() + static_cast<long>(i));
              break;
            }
        } else {
          allocs[u].push_back(Alloc{wg[u].base, wg[u].size});
        }
        wg[u].active = false;
      }
    for (unsigned g = 0; g < p.icaches; ++g) {
      if (in.ifill_valid[g] && out.ifill_ready[g]) ifill_on[g] = 0;
      if (in.flush_valid[g] && out.flush_ready[g]) flush_on[g] = 0;
    }
    if (in.sd_valid && out.sd_ready) {
      sd_on = false;
      ++shootdowns;
    }
  }
  // No new work from now on (held requests still finish).
  void stop() { p_req = p_app = p_wg = p_if = p_ifill = p_flush = p_sd = 0; }
  void reset() {
    for (unsigned u = 0; u < p.cus; ++u) {
      allocs[u].clear();
      wg[u].active = false;
    }
    std::fill(ifill_on.begin(), ifill_on.end(), 0);
    std::fill(flush_on.begin(), flush_on.end(), 0);
    sd_on = false;
    pin();
  }
};

// The fill merge seen from outside ("Aggregated and clustered L1-TLBs"):
// glue u sends a fill to its cluster's L1 input in a cycle with its hit
// pulse (a promotion) or with its L2 answer taken and not dropped. Per
// cluster at most one glue sends per cycle, a glue's out equals its sends of
// the last four cycles (answered by d4 / fill_valid_o four cycles on), and
// the cluster's eviction in cycle t is the victim of the fill sent in t-3
// (Accounting queues it at that sender). A reset forgets the history.
struct FillWatch {
  const TxPathModel& m;
  unsigned U, N, C;
  std::vector<std::array<int, 4>> hist;  // [c][k]: local CU that sent k cycles before the last edge's cycle, or -1
  std::vector<uint8_t> promo;            // [u] hit pulse in the cycle
  int taken = -1;                        // CU whose L2 answer is taken in the cycle
  bool reset = false;
  uint64_t sends = 0;
  std::vector<uint64_t> sends_of;  // [u]

  explicit FillWatch(const TxPathModel& mm)
      : m(mm), U(mm.params().cus), N(mm.params().cluster_cus), C(mm.params().clusters), hist(C), promo(U, 0),
        sends_of(U, 0) {
    for (auto& h : hist) h.fill(-1);
  }
  // After outputs, before the edge.
  void before(const TxPathIn& in, const TxPathOut& o) {
    const TxPathParams& p = m.params();
    reset = !in.rst_n;
    for (unsigned u = 0; u < U; ++u) promo[u] = o.hit_lds[u] || o.hit_ic[u];
    const uint64_t f = in.l2_resp_tag >> p.l1_tag_bits;
    taken = in.l2_resp_valid && o.l2_resp_ready && f < U ? static_cast<int>(f) : -1;
  }
  // After the edge; spec_drop: the edge's event (the one L2 answer dropped).
  void after(uint64_t cyc, bool spec_drop) {
    for (auto& h : hist) {
      for (unsigned k = 3; k > 0; --k) h[k] = h[k - 1];
      h[0] = -1;
    }
    if (reset) {
      for (auto& h : hist) h.fill(-1);
      return;
    }
    for (unsigned u = 0; u < U; ++u) {
      const bool l2 = taken == static_cast<int>(u) && !spec_drop;
      if (!promo[u] && !l2) continue;
      if (promo[u] && l2) ADD_FAILURE() << "edge " << cyc << ": CU " << u << " promotes and takes an L2 answer";
      int& h0 = hist[u / N][0];
      if (h0 >= 0)
        ADD_FAILURE() << "edge " << cyc << ": CUs " << (u / N) * N + static_cast<unsigned>(h0) << " and " << u
                      << " both fill cluster " << u / N;
      h0 = static_cast<int>(u % N);
      ++sends;
      ++sends_of[u];
    }
    for (unsigned u = 0; u < U; ++u) {
      unsigned recent = 0;
      for (int i : hist[u / N]) recent += i == static_cast<int>(u % N) ? 1 : 0;
      if (m.outstanding_fills(u) != recent)
        ADD_FAILURE() << "edge " << cyc << ": CU " << u << " out " << m.outstanding_fills(u) << ", sent " << recent
                      << " in the last four cycles";
    }
  }
  // In cycle t (before its edge): did CU u send in cycle t-1-ago?
  bool sent(unsigned u, unsigned ago) const { return hist[u / N][ago] == static_cast<int>(u % N); }
  // After the edge of cycle t: the CU whose fill of cycle t-3 evicts in t, or -1.
  int evict_sender(unsigned c) const { return hist[c][3] < 0 ? -1 : static_cast<int>(c * N) + hist[c][3]; }
};

// Invariant (b), "no translation is lost while the chain holds space", as an
// accounting of keys k = (vpn, vmid, vrf):
//  - k becomes *live* at the edge where an L1-TLB eviction is appended to a
//    victim queue without kill (a victim appended with kill = stale is being
//    shot down and is not owed to anyone).
//  - Every cycle the whole path is enumerated: queue entries, the LDS victim
//    registers lb and the L2 victim register vr (vr has no VRF-ID: it stands
//    for its (vpn, vmid) with every VRF-ID), the valid entries of Tx-mode LDS
//    segments and I-cache lines (SRAM contents), and what the member engines
//    carry (an accepted fill not yet written, the victims left in VIC). Each
//    live key must be found; its locations are remembered for the next edge.
//  - A live key leaves the accounting only by a legitimate exit: it was
//    offered and taken on the L2 victim port (it was in vr); a shootdown
//    matching it was accepted (matching victims are then killed and dropped
//    on their way); or it was last seen in an LDS segment / I-cache
//    line that at this edge legitimately lost content: the segment's mode
//    bit went from Tx to LDS-mode (work-group allocation CLEAR, application
//    write, shootdown-all) or the line left Tx mode (instruction fill,
//    flush without kernel_flush, shootdown), or the member was executing a
//    shootdown by VPN (sequencer or a move-promotion remove, which also
//    removes other VRF-IDs and may discard entries that no longer compress)
//    or, in the I-cache, a lookup write-back (its discarded entries) on it.
//  - A reset clears the accounting. From a reset until an LDS is idle again
//    (its reset CLEAR sweep), its SRAM contents are not checked: the SRAM
//    has no reset, the application may write a Tx segment's banks during
//    the reset cycles, and the segment's mode bit is still set until the
//    sweep reaches it; the controller serves nothing from it meanwhile, and
//    after the sweep no segment may hold a translation.
// A key missing without one of these is a lost translation (a victim dropped
// by the glue, a handshake lost, a member handed a victim nobody took, ...).
// The exits are deliberately generous (a key leaving one place while also
// live elsewhere leaves the accounting), so the check never fails falsely;
// it still catches every loss of a translation held in a single place.
struct Accounting {
  const TxPathModel& m;
  const TxPathParams& p;
  const FillWatch* fills = nullptr;  // N > 1: which glue queues a cluster's eviction
  using Key = std::tuple<uint64_t, uint64_t, uint32_t>;
  enum : uint8_t { kQueue, kLds, kLdsEngine, kIc, kIcEngine, kLb, kVr };
  struct Loc {
    uint8_t kind;
    uint16_t inst;
    uint32_t index;
    bool operator<(const Loc& o) const { return std::tie(kind, inst, index) < std::tie(o.kind, o.inst, o.index); }
  };
  std::map<Key, std::vector<Loc>> prev;
  std::set<Key> live;
  // snapshots of the cycle (before the edge)
  std::vector<std::vector<uint8_t>> lds_mode, ic_tx;
  std::vector<int> lds_sd_seg, ic_busy_line;
  std::vector<uint8_t> lds_sweep;  // from a reset until the LDS is idle
  std::vector<uint8_t> evict_valid;
  std::vector<uint64_t> evict_vpn;
  bool vic_taken = false, sd_accept = false, sd_all = false, reset = false;
  uint64_t vic_vpn = 0, vic_vmid = 0, sd_vpn = 0, sd_vmid = 0;
  uint64_t adds = 0, exits_l2 = 0, exits_sd = 0, exits_drop = 0, losses = 0, data_errors = 0, max_live = 0;

  Accounting(const TxPathModel& mm, const TxPathParams& pp) : m(mm), p(pp) {
    lds_mode.assign(p.cus, std::vector<uint8_t>(p.lds.segments, 0));
    ic_tx.assign(p.icaches, std::vector<uint8_t>(p.ic.lines, 0));
    lds_sd_seg.assign(p.cus, -1);
    ic_busy_line.assign(p.icaches, -1);
    evict_valid.assign(p.l1.clusters, 0);
    evict_vpn.assign(p.l1.clusters, 0);
    lds_sweep.assign(p.cus, 0);
  }

  std::map<Key, std::vector<Loc>> enumerate() {
    std::map<Key, std::vector<Loc>> cur;
    auto add = [&](const Key& k, Loc l, uint64_t ppn, uint64_t perm, bool check) {
      cur[k].push_back(l);
      if (check && (ppn != env_ppn(p, std::get<0>(k), std::get<1>(k)) ||
                    perm != env_perm(p, std::get<0>(k), std::get<1>(k)))) {
        ++data_errors;
        ADD_FAILURE() << "translation of vpn " << std::get<0>(k) << " with a foreign ppn " << ppn << " (kind "
                      << int(l.kind) << ")";
      }
    };
    const uint64_t seg_mask = p.lds.segments - 1, line_mask = p.ic.lines - 1;
    for (unsigned u = 0; u < p.cus; ++u) {
      for (unsigned k = 0; k < m.queue_occupancy(u); ++k) {
        const TxPathModel::QueueEntry e = m.queue_entry(u, k);
        add(Key{e.vpn, e.vmid, e.vrf}, Loc{kQueue, static_cast<uint16_t>(u), 0}, e.ppn, e.perm, true);
      }
      if (lds_sweep[u] && m.lds(u).idle()) {
        lds_sweep[u] = 0;
        EXPECT_TRUE(m.lds(u).held().empty()) << "the reset sweep left translations in CU " << u << "'s LDS";
      }
      for (const LdsCtrlModel::HeldTx& h : m.lds(u).held())
        add(Key{h.vpn, h.vmid, h.vrf}, Loc{kLds, static_cast<uint16_t>(u), static_cast<uint32_t>(h.vpn & seg_mask)},
            h.ppn, h.perm, !lds_sweep[u]);
      for (const LdsCtrlModel::HeldTx& h : m.lds(u).in_flight())
        add(Key{h.vpn, h.vmid, h.vrf}, Loc{kLdsEngine, static_cast<uint16_t>(u), 0}, h.ppn, h.perm, true);
      const TxPathModel::VictimReg& lb = m.lds_victim_reg(u);
      if (lb.valid) add(Key{lb.vpn, lb.vmid, lb.vrf}, Loc{kLb, static_cast<uint16_t>(u), 0}, lb.ppn, lb.perm, true);
    }
    const TxPathModel::VictimReg& vr = m.l2_victim_reg();
    if (vr.valid)
      for (uint32_t f = 0; f < (1u << p.vrf_bits); ++f) add(Key{vr.vpn, vr.vmid, f}, Loc{kVr, 0, 0}, vr.ppn, vr.perm, true);
    for (unsigned g = 0; g < p.icaches; ++g) {
      for (const IcacheTxModel::HeldTx& h : m.icache(g).held())
        add(Key{h.vpn, h.vmid, h.vrf}, Loc{kIc, static_cast<uint16_t>(g), static_cast<uint32_t>(h.vpn & line_mask)},
            h.ppn, h.perm, true);
      for (const IcacheTxModel::HeldTx& h : m.icache(g).in_flight())
        add(Key{h.vpn, h.vmid, h.vrf}, Loc{kIcEngine, static_cast<uint16_t>(g), 0}, h.ppn, h.perm, true);
    }
    return cur;
  }

  // After outputs, before the edge.
  void before(const TxPathIn& in, const TxPathOut& out) {
    reset = !in.rst_n;
    for (unsigned u = 0; u < p.cus; ++u) {
      for (unsigned s = 0; s < p.lds.segments; ++s) lds_mode[u][s] = m.lds(u).mode_bit(s);
      unsigned seg = 0;
      lds_sd_seg[u] = m.lds(u).shootdown_busy(&seg) ? static_cast<int>(seg) : -1;
    }
    for (unsigned g = 0; g < p.icaches; ++g) {
      for (unsigned l = 0; l < p.ic.lines; ++l) ic_tx[g][l] = m.icache(g).mode(l) == IcacheTxModel::Mode::Tx;
      unsigned line = 0;
      ic_busy_line[g] = m.icache(g).repack_busy(&line) ? static_cast<int>(line) : -1;
    }
    // the L1-TLB's evict_* outputs are registers (input independent)
    const L1tlbOut lo = m.l1().outputs(m.l1().idle_inputs());
    for (unsigned c = 0; c < p.l1.clusters; ++c) {
      evict_valid[c] = lo.evict_valid[c];
      evict_vpn[c] = lo.evict_vpn[c];
    }
    vic_taken = out.l2_vic_valid && in.l2_vic_ready;
    vic_vpn = out.l2_vic_vpn;
    vic_vmid = out.l2_vic_vmid;
    sd_accept = in.sd_valid && out.sd_ready;
    sd_all = in.sd_all;
    sd_vpn = in.sd_vpn & mask(p.vpn_bits);
    sd_vmid = in.sd_vmid & mask(p.vmid_bits);
  }

  // After the edge.
  void after(uint64_t cyc) {
    if (reset) {
      live.clear();
      std::fill(lds_sweep.begin(), lds_sweep.end(), 1);
      prev = enumerate();
      return;
    }
    std::map<Key, std::vector<Loc>> cur = enumerate();
    // adds: the queue's new tail is the appended eviction (clusters: the
    // queue of the glue that sent the fill three cycles before)
    for (unsigned c = 0; c < p.l1.clusters; ++c) {
      if (!evict_valid[c]) continue;
      const int sender = p.cluster_cus == 1 ? static_cast<int>(c) : fills ? fills->evict_sender(c) : -1;
      if (sender < 0) {
        ADD_FAILURE() << "edge " << cyc << ": cluster " << c << " evicts, no fill sent three cycles before";
        continue;
      }
      const unsigned u = static_cast<unsigned>(sender);
      const unsigned occ = m.queue_occupancy(u);
      if (occ == 0) {
        ADD_FAILURE() << "edge " << cyc << ": eviction not queued at CU " << u;
        continue;
      }
      const TxPathModel::QueueEntry e = m.queue_entry(u, occ - 1);
      EXPECT_EQ(e.vpn, evict_vpn[c]) << "edge " << cyc << ": CU " << u << "'s queue tail";
      if (!e.kill) {
        live.insert(Key{e.vpn, e.vmid, e.vrf});
        ++adds;
      }
    }
    // exits: the L2 victim port, a shootdown accept
    if (vic_taken) {
      for (auto it = live.begin(); it != live.end();) {
        bool was_in_vr = false;
        auto pv = prev.find(*it);
        if (pv != prev.end())
          for (const Loc& l : pv->second) was_in_vr |= l.kind == kVr;
        if (std::get<0>(*it) == vic_vpn && std::get<1>(*it) == vic_vmid && was_in_vr) {
          it = live.erase(it);
          ++exits_l2;
        } else {
          ++it;
        }
      }
    }
    if (sd_accept) {
      for (auto it = live.begin(); it != live.end();) {
        if (sd_all || (std::get<0>(*it) == sd_vpn && std::get<1>(*it) == sd_vmid)) {
          it = live.erase(it);
          ++exits_sd;
        } else {
          ++it;
        }
      }
    }
    // places that legitimately lost content at this edge
    std::set<Loc> dropped;
    for (unsigned u = 0; u < p.cus; ++u) {
      for (unsigned s = 0; s < p.lds.segments; ++s)
        if (lds_mode[u][s] && !m.lds(u).mode_bit(s)) dropped.insert(Loc{kLds, static_cast<uint16_t>(u), s});
      if (lds_sd_seg[u] >= 0)
        dropped.insert(Loc{kLds, static_cast<uint16_t>(u), static_cast<uint32_t>(lds_sd_seg[u])});
    }
    for (unsigned g = 0; g < p.icaches; ++g) {
      for (unsigned l = 0; l < p.ic.lines; ++l)
        if (ic_tx[g][l] && m.icache(g).mode(l) != IcacheTxModel::Mode::Tx)
          dropped.insert(Loc{kIc, static_cast<uint16_t>(g), l});
      if (ic_busy_line[g] >= 0)
        dropped.insert(Loc{kIc, static_cast<uint16_t>(g), static_cast<uint32_t>(ic_busy_line[g])});
    }
    for (auto it = live.begin(); it != live.end();) {
      if (cur.count(*it)) {
        ++it;
        continue;
      }
      bool excused = false;
      auto pv = prev.find(*it);
      if (pv != prev.end())
        for (const Loc& l : pv->second) excused |= dropped.count(l) > 0;
      if (excused) {
        ++exits_drop;
      } else {
        ++losses;
        std::ostringstream os;
        if (pv != prev.end())
          for (const Loc& l : pv->second) os << " (" << int(l.kind) << "," << l.inst << "," << l.index << ")";
        ADD_FAILURE() << "edge " << cyc << ": translation vpn " << std::get<0>(*it) << " vmid " << std::get<1>(*it)
                      << " vrf " << std::get<2>(*it) << " lost; last seen at" << os.str();
      }
      it = live.erase(it);
    }
    max_live = std::max<uint64_t>(max_live, live.size());
    prev = std::move(cur);
  }
};

// The slot rules of "Non-blocking lookup", seen from the slots' states
// around each edge: per CU at most one slot makes each move, and the one
// that does is the rule's choice: intake (IDLE -> LDS_REQ) the lowest IDLE
// slot; LDS (LDS_REQ -> LDS_WAIT), I-cache (IC_REQ -> IC_WAIT), L2 register
// (L2 -> IDLE) and RET (RET -> IDLE) the first candidate from the pointer,
// which this watcher tracks from the grants it sees (reset 0, winner + 1).
// A RET candidate must also be ready (rm_free), which only the remove
// registers tell: the RET choice is checked in cycles without a waiting
// remove (always with copy). `rotated` counts the grants where the pointer
// decided (the winner is not the lowest candidate): there, an arbiter that
// ignores its pointer picks another slot.
// Speculative L2 request: a quitting slot (ab) is no candidate of the LDS,
// I-cache or RET rule, and the L2 register's grant is a slot that asks
// becoming sent (sent 0 -> 1), the first asking one from p2.
struct SlotWatch {
  enum Rule { kIntake, kLds, kIc, kL2, kRet, kRules };
  const TxPathModel& m;
  unsigned U, K;
  bool spec;
  std::vector<std::array<Stage, 8>> st;        // [u][k] in the cycle
  std::vector<std::array<uint8_t, 8>> ab, asks;  // [u][k] in the cycle: ab[k]; the slot asks the L2 (speculative)
  std::vector<std::array<unsigned, kRules>> ptr;  // [u][rule]; intake unused
  std::vector<uint8_t> rm_waiting;             // [u] a remove register valid in the cycle
  bool reset = false;
  uint64_t grants[kRules] = {}, rotated[kRules] = {}, ret_unchecked = 0;

  explicit SlotWatch(const TxPathModel& mm)
      : m(mm), U(mm.params().cus), K(mm.params().slots), spec(mm.params().speculative), st(U), ab(U), asks(U),
        ptr(U), rm_waiting(U, 0) {
    for (auto& p : ptr) p.fill(0);
  }
  // After outputs, before the edge.
  void before(const TxPathIn& in) {
    reset = !in.rst_n;
    for (unsigned u = 0; u < U; ++u) {
      for (unsigned k = 0; k < K; ++k) {
        st[u][k] = m.stage(u, k);
        ab[u][k] = m.slot_ab(u, k);
        asks[u][k] = spec && st[u][k] != Stage::Idle && st[u][k] != Stage::Ret && !m.slot_sent(u, k) &&
                     !ab[u][k] && !((m.cancel_vector(u) >> m.slot_tag(u, k)) & 1);
      }
      rm_waiting[u] = m.lds_remove_waiting(u) || m.ic_remove_waiting(u);
    }
  }
  // After the edge.
  void after(uint64_t cyc) {
    for (unsigned u = 0; u < U; ++u) {
      if (reset) {
        ptr[u].fill(0);
        continue;
      }
      check(u, kIntake, Stage::Idle, Stage::LdsReq, cyc);
      check(u, kLds, Stage::LdsReq, Stage::LdsWait, cyc);
      check(u, kIc, Stage::IcReq, Stage::IcWait, cyc);
      if (spec)
        check_asks(u, cyc);
      else
        check(u, kL2, Stage::L2, Stage::Idle, cyc);
      check(u, kRet, Stage::Ret, Stage::Idle, cyc);
    }
  }
  // Slot k: a candidate of rule r in the cycle, and whether it made the move.
  using Cand = std::array<std::pair<bool, bool>, 8>;
  void check(unsigned u, Rule r, Stage from, Stage to, uint64_t cyc) {
    Cand c{};
    for (unsigned k = 0; k < K; ++k) {
      const bool cand = st[u][k] == from && (r == kIntake || !ab[u][k]);
      c[k] = {cand, cand && m.stage(u, k) == to};
    }
    grant(u, r, c, cyc);
  }
  void check_asks(unsigned u, uint64_t cyc) {
    Cand c{};
    for (unsigned k = 0; k < K; ++k) c[k] = {asks[u][k] != 0, asks[u][k] && m.slot_sent(u, k)};
    grant(u, kL2, c, cyc);
  }
  void grant(unsigned u, Rule r, const Cand& c, uint64_t cyc) {
    int winner = -1, lowest = -1, expect = -1;
    unsigned moved = 0;
    const unsigned p = r == kIntake ? 0 : ptr[u][r];
    for (unsigned d = 0; d < K; ++d) {
      const unsigned k = (p + d) % K;
      if (!c[k].first) continue;
      if (expect < 0) expect = static_cast<int>(k);
      if (lowest < 0 || static_cast<int>(k) < lowest) lowest = static_cast<int>(k);
      if (c[k].second) {
        winner = static_cast<int>(k);
        ++moved;
      }
    }
    if (moved == 0) return;
    ++grants[r];
    if (winner != lowest) ++rotated[r];
    if (moved > 1)
      ADD_FAILURE() << "edge " << cyc << ": CU " << u << ": " << moved << " slots granted by rule " << r;
    if (r == kRet && rm_waiting[u])
      ++ret_unchecked;
    else if (winner != expect)
      ADD_FAILURE() << "edge " << cyc << ": CU " << u << ": rule " << r << " granted slot " << winner
                    << ", the first from " << p << " is " << expect;
    if (r != kIntake) ptr[u][r] = (static_cast<unsigned>(winner) + 1) % K;
  }
};

// Speculative: every L1 MSHR is answered exactly once. CU u's MSHR t is
// owed from the edge its miss enters a lookup slot (the L1-TLB's L2 request
// taken, rq.tag = t) until the L1-TLB's L2 input answers it, seen through
// out (out' = out + the input - fill_valid_o): the promotion of the slot
// leaving RET (not a quitting one), else the L2 answer taken for u. An L2
// answer taken and not passed on must be a drop (spec_drop), and so must
// one taken at a promotion's edge. A reset forgives everything.
struct MshrWatch {
  const TxPathModel& m;
  unsigned U, K;
  const FillWatch* fills = nullptr;  // N > 1: out's decrement is the glue's own fill of four cycles before
  std::vector<std::vector<uint8_t>> owed;       // [u][L1 tag]
  std::vector<std::array<Stage, 8>> st;         // [u][k] in the cycle
  std::vector<std::array<uint8_t, 8>> ret_live; // [u][k] in RET, not quitting
  std::vector<unsigned> out0;
  std::vector<uint8_t> fill;
  int taken_cu = -1;  // the CU whose L2 answer is taken in the cycle
  uint64_t taken_tag = 0;
  bool reset = false;
  uint64_t answered = 0, promoted = 0, delivered = 0, dropped = 0;

  explicit MshrWatch(const TxPathModel& mm)
      : m(mm), U(mm.params().cus), K(mm.params().slots),
        owed(U, std::vector<uint8_t>(size_t{1} << mm.params().l1_tag_bits, 0)), st(U), ret_live(U), out0(U),
        fill(U) {}
  // After outputs, before the edge.
  void before(const TxPathIn& in, const TxPathOut& o) {
    const TxPathParams& p = m.params();
    reset = !in.rst_n;
    for (unsigned u = 0; u < U; ++u) {
      out0[u] = m.outstanding_fills(u);
      fill[u] = p.cluster_cus > 1 && fills ? fills->sent(u, 3) : o.fill_valid[u];
      for (unsigned k = 0; k < K; ++k) {
        st[u][k] = m.stage(u, k);
        ret_live[u][k] = st[u][k] == Stage::Ret && !m.slot_ab(u, k);
      }
    }
    taken_cu = in.l2_resp_valid && o.l2_resp_ready ? static_cast<int>(in.l2_resp_tag >> p.l1_tag_bits) : -1;
    taken_tag = in.l2_resp_tag & mask(p.l1_tag_bits);
  }
  // After the edge; spec_drop: the edge's event.
  void after(uint64_t cyc, bool spec_drop) {
    for (unsigned u = 0; u < U; ++u) {
      if (reset) {
        std::fill(owed[u].begin(), owed[u].end(), 0);
        continue;
      }
      answers(u, cyc, spec_drop);
      for (unsigned k = 0; k < K; ++k) {
        if (st[u][k] != Stage::Idle || m.stage(u, k) == Stage::Idle) continue;
        uint8_t& o = owed[u][m.slot_tag(u, k)];
        if (o) ADD_FAILURE() << "edge " << cyc << ": CU " << u << " tag " << m.slot_tag(u, k) << " reused while owed";
        o = 1;
      }
    }
  }
  void answers(unsigned u, uint64_t cyc, bool spec_drop) {
    const int input = static_cast<int>(m.outstanding_fills(u)) - static_cast<int>(out0[u]) + fill[u];
    int promo = -1;
    for (unsigned k = 0; k < K; ++k)
      if (ret_live[u][k] && m.stage(u, k) != Stage::Ret) promo = static_cast<int>(m.slot_tag(u, k));
    const bool l2 = taken_cu == static_cast<int>(u);
    if (input < 0 || input > 1 || (promo >= 0 && input != 1)) {
      ADD_FAILURE() << "edge " << cyc << ": CU " << u << ": L1 input " << input << ", promotion tag " << promo;
      return;
    }
    if (l2 && (promo >= 0 || input == 0)) {
      if (!spec_drop) ADD_FAILURE() << "edge " << cyc << ": CU " << u << ": an L2 answer taken and lost";
      ++dropped;
    }
    if (input == 0) return;
    if (promo < 0 && !l2) {
      ADD_FAILURE() << "edge " << cyc << ": CU " << u << ": an L1 input from nowhere";
      return;
    }
    const uint64_t tag = promo >= 0 ? static_cast<uint64_t>(promo) : taken_tag;
    uint8_t& o = owed[u][tag];
    if (!o) ADD_FAILURE() << "edge " << cyc << ": CU " << u << " tag " << tag << " answered but not owed";
    o = 0;
    ++answered;
    ++(promo >= 0 ? promoted : delivered);
  }
  unsigned owed_count() const {
    unsigned n = 0;
    for (const auto& v : owed) n += static_cast<unsigned>(std::count(v.begin(), v.end(), 1));
    return n;
  }
};

// Which pages each CU waits for: its accepted requests (accept cycles per
// page) not yet answered. A hit answers the request accepted hit_latency
// cycles before; a fill in cycle F answers every request of its page
// accepted by F-4 (decided by the write edge F-2; a later one hits, or
// misses again after a suppressed write) and must answer at least one. And
// (without speculation, whose request may leave after the promotion
// answered) every L2 request's CU field names a CU waiting for its page: the
// glue of the miss's allocator (baseline: the cluster field, a CU of that
// cluster). Not with the L1's input buffer (a request waits there).
// With the document's latency (Z = l1_pad > 0) the accept that starts these
// timings is the L1's: zZ taken (zZ.valid and req_ready_o, which is then the
// L1's req_ready_o); and the Z registers of each CU must hold exactly the
// requests the path took (req_valid_i and req_ready_o) and the L1 has not,
// oldest in zZ, in order: none lost, none duplicated, none made up. With
// the model, the requests counted as the L1's accepts in a cycle must be the
// L1-TLB's own count of accepts at that edge (its statistics), so an
// advance that ignores the L1's ready is caught.
struct Waiters {
  using Key = std::pair<uint64_t, uint64_t>;
  const TxPathParams& p;
  bool baseline;
  const TxPathModel* m = nullptr;  // for Z > 0: its request registers
  std::vector<std::map<Key, std::vector<uint64_t>>> w;  // [u] (vpn, vmid) -> accepts
  std::vector<std::deque<Key>> zq;  // [u] Z > 0: taken by the path, not yet by the L1, oldest first
  uint64_t l2_checked = 0, fills_checked = 0, pad_checked = 0, pad_holds = 0;
  uint64_t l1_accepts_prev = 0;
  int64_t l1_accepts_expect = -1;  // the L1's accepts at the last edge, as seen here (-1: none)

  Waiters(const TxPathParams& pp, bool base, const TxPathModel* mm = nullptr)
      : p(pp), baseline(base), m(mm), w(pp.cus), zq(pp.cus) {
    if (p.l1_pad && !m) ADD_FAILURE() << "Waiters: Z > 0 needs the model";
  }
  bool waits(unsigned u, uint64_t vpn, uint64_t vmid) const { return w[u].count({vpn, vmid}) > 0; }
  // After outputs, before the edge.
  void cycle(const TxPathIn& in, const TxPathOut& o, uint64_t cyc) {
    if (!in.rst_n || p.l1.input_buffer) {
      for (auto& x : w) x.clear();
      for (auto& q : zq) q.clear();
      l1_accepts_expect = -1;  // the L1's statistics restart at a reset
      return;
    }
    if (m && l1_accepts_expect >= 0 &&
        m->l1().stats().accepts - l1_accepts_prev != static_cast<uint64_t>(l1_accepts_expect))
      ADD_FAILURE() << "edge " << cyc - 1 << ": the L1-TLB took " << m->l1().stats().accepts - l1_accepts_prev
                    << " requests, the path's req_ready_o / zZ said " << l1_accepts_expect;
    int64_t l1_takes = 0;
    if (o.l2_req_valid && in.l2_req_ready && !p.speculative) check_l2(o, cyc);
    for (unsigned u = 0; u < p.cus; ++u) {
      if (o.fill_valid[u]) fill(u, o.fill_vpn[u], o.fill_vmid[u], cyc);
      if (o.resp_valid[u]) answer(u, {o.resp_vpn[u], o.resp_vmid[u]}, cyc - p.l1.hit_latency, false);
      const Key k{in.req_vpn[u] & mask(p.vpn_bits), in.req_vmid[u] & mask(p.vmid_bits)};
      const bool taken = in.req_valid[u] && o.req_ready[u];
      if (p.l1_pad == 0) {
        if (taken) w[u][k].push_back(cyc);
        l1_takes += taken;
        continue;
      }
      l1_takes += pad(u, o, cyc);
      if (taken) zq[u].push_back(k);
    }
    if (m) {
      l1_accepts_prev = m->l1().stats().accepts;
      l1_accepts_expect = l1_takes;
    }
  }
  // Z > 0, CU u: the registers against the path's accepts, then the L1's
  // accept of zZ (returns 1 when the L1 takes it).
  bool pad(unsigned u, const TxPathOut& o, uint64_t cyc) {
    const unsigned Z = p.l1_pad;
    std::deque<Key> held;
    for (unsigned k = Z; k-- > 0;) {
      const TxPathModel::PadReg& z = m->pad_reg(u, k);
      if (z.valid) held.push_back({z.vpn, z.vmid});
    }
    ++pad_checked;
    if (held != zq[u]) {
      ADD_FAILURE() << "cycle " << cyc << ": CU " << u << "'s request registers hold " << held.size()
                    << " requests, the path took " << zq[u].size() << " the L1 has not (or in another order)";
      zq[u] = held;  // report once
    }
    const TxPathModel::PadReg& zZ = m->pad_reg(u, Z - 1);
    if (zZ.valid && !o.req_ready[u]) ++pad_holds;
    if (!(zZ.valid && o.req_ready[u])) return false;
    w[u][{zZ.vpn, zZ.vmid}].push_back(cyc);
    if (!zq[u].empty()) zq[u].pop_front();
    return true;
  }
  // Removes the accepts of key (exactly at `at`, or up to `at`); returns how many.
  unsigned answer(unsigned u, const std::pair<uint64_t, uint64_t>& key, uint64_t at, bool up_to) {
    auto it = w[u].find(key);
    if (it == w[u].end()) return 0;
    std::vector<uint64_t>& a = it->second;
    const auto gone = [&](uint64_t c) { return up_to ? c <= at : c == at; };
    const unsigned n = static_cast<unsigned>(std::count_if(a.begin(), a.end(), gone));
    a.erase(std::remove_if(a.begin(), a.end(), gone), a.end());
    if (a.empty()) w[u].erase(it);
    return n;
  }
  void fill(unsigned u, uint64_t vpn, uint64_t vmid, uint64_t cyc) {
    ++fills_checked;
    if (answer(u, {vpn, vmid}, cyc - 4, true) == 0)
      ADD_FAILURE() << "cycle " << cyc << ": CU " << u << " filled with vpn " << vpn << " it is not waiting for";
  }
  void check_l2(const TxPathOut& o, uint64_t cyc) {
    const unsigned f = static_cast<unsigned>(o.l2_req_tag >> p.l1_tag_bits);
    const unsigned lo = baseline ? f * p.cluster_cus : f, hi = baseline ? lo + p.cluster_cus : f + 1;
    bool ok = false;
    for (unsigned u = lo; u < hi && u < p.cus; ++u) ok |= waits(u, o.l2_req_vpn, o.l2_req_vmid);
    if (!ok)
      ADD_FAILURE() << "cycle " << cyc << ": L2 request of vpn " << o.l2_req_vpn << " with CU field " << f
                    << ", which waits for no such page";
    ++l2_checked;
  }
};

struct RandomResult {
  uint64_t cycles = 0;
  uint64_t ret_held = 0;  // cycles in RET without a hit pulse (ret = 0: credit)
  TxPathEvents seen;
  TxPathStats stats;
  uint64_t grants[SlotWatch::kRules] = {}, rotated[SlotWatch::kRules] = {};
  std::vector<uint64_t> sends_of;  // [u] fills each glue sent to its cluster's L1 input (FillWatch)
  uint64_t l2_checked = 0;         // L2 requests whose CU field was checked (Waiters)
  uint64_t pad_checked = 0, pad_holds = 0;  // Z > 0: register checks, cycles a zZ waited for the L1 (Waiters)
};

// l2_req_ready: the L2-TLB's readiness probability for a request.
RandomResult random_run(const TxPathParams& p, uint64_t seed, uint64_t cycles, bool checks = true,
                        double l2_req_ready = 0.7) {
  Bench b(p, false, seed);
  b.env.lat_min = 1;
  b.env.lat_max = 12;
  b.env.random_order = true;
  b.env.req_ready_p = l2_req_ready;
  b.env.vic_ready_p = 0.7;
  // Odd seeds: CUs of alternating VRF-IDs (sharers of one I-cache differ);
  // even seeds: one VRF-ID and a hot I-cache line.
  Traffic tr(p, seed * 7919 + 13, seed % 2 == 0);
  std::vector<uint32_t> vrf(p.cus, 0);
  for (unsigned u = 0; u < p.cus; ++u) vrf[u] = (seed & 1) ? (u & 1) : 0;
  b.in.vrf = vrf;
  Accounting acc(b.m, p);
  SdWatch sdw(b);
  SlotWatch slots(b.m);
  MshrWatch mshrs(b.m);  // speculative only
  FillWatch fills(b.m);
  Waiters waiters(p, false, &b.m);
  acc.fills = &fills;
  mshrs.fills = &fills;
  const uint64_t reset_at = cycles * 2 / 5;
  uint64_t dup_checks = 0;
  // hit_lds_o / hit_ic_o: a pulse only with a slot in RET, at most one of
  // the two, and one slot leaves RET at the edge of a pulse and none
  // without (the pulse is `ret`): one pulse per promotion.
  uint64_t hit_pulses = 0, ret_held = 0;
  std::vector<uint8_t> pulsed(p.cus, 0), in_ret(p.cus, 0);
  std::vector<std::vector<uint8_t>> ret_slot(p.cus, std::vector<uint8_t>(p.slots, 0));
  const uint64_t promotions0 = b.m.stats().promotions;
  b.hook = [&] {
    for (unsigned u = 0; u < p.cus; ++u) {
      const bool h = b.out.hit_lds[u] || b.out.hit_ic[u];
      EXPECT_FALSE(b.out.hit_lds[u] && b.out.hit_ic[u]);
      in_ret[u] = 0;
      for (unsigned k = 0; k < p.slots; ++k) {
        ret_slot[u][k] = b.in.rst_n && b.m.stage(u, k) == Stage::Ret && !b.m.slot_ab(u, k);  // ab: quits
        in_ret[u] |= ret_slot[u][k];
      }
      if (h && !in_ret[u]) ADD_FAILURE() << "cycle " << b.cyc << ": hit pulse of CU " << u << " outside RET";
      pulsed[u] = h;
      hit_pulses += h;
      ret_held += in_ret[u] && !h;
    }
    slots.before(b.in);
    if (p.speculative) mshrs.before(b.in, b.out);
    fills.before(b.in, b.out);
    if (!checks) return;
    waiters.cycle(b.in, b.out, b.cyc);
    sdw.cycle();
    acc.before(b.in, b.out);
    // (a) move: a translation never sits in CU u's L1 and CU u's LDS at once,
    // except while the remove of its promotion is waiting or being served.
    // Not with speculation: a miss the L2 answers before its LDS hit is
    // never promoted, so the LDS keeps its copy; nor with shared TLBs (a
    // fill's victim lands in its sender's LDS, whichever CU holds it).
    if (b.p.move && !b.p.speculative && b.p.tlbs == b.p.cus && b.cyc % 4 == 0) {
      for (unsigned u = 0; u < p.cus; ++u)
        for (unsigned w = 0; w < p.l1.ways; ++w) {
          if (!b.m.l1().entry_valid(u, 0, w)) continue;
          const uint64_t vpn = b.m.l1().entry_vpn(u, 0, w), vmid = b.m.l1().entry_vmid(u, 0, w);
          ++dup_checks;
          if (b.m.in_lds(u, vpn, vmid, vrf[u]) && !b.m.lds_remove_pending(u, vpn, vmid))
            ADD_FAILURE() << "cycle " << b.cyc << ": vpn " << vpn << " in CU " << u << "'s L1 and LDS";
        }
    }
  };
  const auto cycle = [&](bool in_reset) {
    if (in_reset) {
      b.in.rst_n = false;
      b.env.reset();
      tr.reset();
    } else {
      b.in.rst_n = true;
    }
    tr.drive(b.in);
    b.step();
    tr.observe(b.in, b.out);
    for (unsigned u = 0; u < p.cus; ++u) {
      unsigned left = 0;
      for (unsigned k = 0; k < p.slots; ++k) left += ret_slot[u][k] && b.m.stage(u, k) != Stage::Ret;
      if (in_ret[u] && left != pulsed[u])
        ADD_FAILURE() << "edge " << b.cyc - 1 << ": CU " << u << (pulsed[u] ? " pulsed" : " did not pulse") << ", "
                      << left << " slots left RET";
    }
    slots.after(b.cyc - 1);
    fills.after(b.cyc - 1, b.m.events().spec_drop);
    if (p.speculative) mshrs.after(b.cyc - 1, b.m.events().spec_drop);
    if (checks) acc.after(b.cyc - 1);
    if (::testing::Test::HasFailure()) {
      ADD_FAILURE() << "seed " << seed << " stopped at cycle " << b.cyc;
      return false;
    }
    return true;
  };
  for (uint64_t c = 0; c < cycles; ++c)
    if (!cycle(c >= reset_at && c < reset_at + 2)) break;
  // Speculative: drain (no new work, held requests finish) until the path
  // is quiet; then no MSHR is owed and no answer is left to drop.
  if (p.speculative && !::testing::Test::HasFailure()) {
    tr.stop();
    for (unsigned n = 0; n < 20000 && !b.quiet(); ++n)
      if (!cycle(false)) break;
    EXPECT_TRUE(b.quiet()) << "seed " << seed << ": not drained by cycle " << b.cyc;
    EXPECT_EQ(mshrs.owed_count(), 0u) << "seed " << seed << ": MSHRs never answered";
    for (unsigned u = 0; u < p.cus; ++u) EXPECT_EQ(b.m.cancel_vector(u), 0u);
    EXPECT_GT(mshrs.promoted, 100u);
    EXPECT_GT(mshrs.delivered, 100u);
    EXPECT_GT(mshrs.dropped, 100u);
    std::printf("  [seed %llu] MSHRs answered %llu (promoted %llu, L2 %llu), L2 answers dropped %llu\n",
                static_cast<unsigned long long>(seed), static_cast<unsigned long long>(mshrs.answered),
                static_cast<unsigned long long>(mshrs.promoted), static_cast<unsigned long long>(mshrs.delivered),
                static_cast<unsigned long long>(mshrs.dropped));
  }
  EXPECT_EQ(hit_pulses, b.m.stats().promotions - promotions0) << "one hit pulse per promotion";
  EXPECT_GT(hit_pulses, 100u);
  if (checks) {
    EXPECT_EQ(acc.losses, 0u);
    EXPECT_EQ(acc.data_errors, 0u);
    EXPECT_EQ(sdw.order_errors, 0u);
    EXPECT_EQ(sdw.stale_victims, 0u);
    EXPECT_EQ(sdw.leftovers, 0u);
    EXPECT_EQ(b.env.data_errors, 0u);
    EXPECT_GT(acc.adds, 100u);
    EXPECT_GT(acc.exits_l2, 0u);
    EXPECT_GT(acc.exits_drop, 0u);
    EXPECT_GT(sdw.completed, 5u);
    if (b.p.move && !b.p.speculative && b.p.tlbs == b.p.cus) {
      EXPECT_GT(dup_checks, 1000u);
    }
    if (!b.p.speculative) {
      EXPECT_GT(waiters.l2_checked, 100u);
    }
    std::printf("  [seed %llu] %llu cycles: %llu victims accounted (max live %llu), exits L2 %llu / shootdown %llu"
                " / dropped place %llu; %llu shootdowns\n",
                static_cast<unsigned long long>(seed), static_cast<unsigned long long>(cycles),
                static_cast<unsigned long long>(acc.adds), static_cast<unsigned long long>(acc.max_live),
                static_cast<unsigned long long>(acc.exits_l2), static_cast<unsigned long long>(acc.exits_sd),
                static_cast<unsigned long long>(acc.exits_drop), static_cast<unsigned long long>(sdw.completed));
  }
  RandomResult r;
  r.cycles = b.cyc;
  r.ret_held = ret_held;
  r.seen = b.seen;
  r.stats = b.m.stats();
  for (unsigned k = 0; k < SlotWatch::kRules; ++k) {
    r.grants[k] = slots.grants[k];
    r.rotated[k] = slots.rotated[k];
  }
  r.sends_of = fills.sends_of;
  r.l2_checked = waiters.l2_checked;
  r.pad_checked = waiters.pad_checked;
  r.pad_holds = waiters.pad_holds;
  return r;
}

void print_stats(const char* name, const RandomResult& r) {
  const TxPathStats& s = r.stats;
  std::printf("  %s: requests %llu, L1 hits %llu, LDS hits %llu / misses %llu, I-cache hits %llu / misses %llu,"
              " L2 requests %llu, L2 victims %llu, L1 victims %llu, stale drops %llu\n",
              name, static_cast<unsigned long long>(s.requests), static_cast<unsigned long long>(s.l1_hits),
              static_cast<unsigned long long>(s.lds_hits), static_cast<unsigned long long>(s.lds_misses),
              static_cast<unsigned long long>(s.ic_hits), static_cast<unsigned long long>(s.ic_misses),
              static_cast<unsigned long long>(s.l2_requests), static_cast<unsigned long long>(s.l2_victims),
              static_cast<unsigned long long>(s.l1_victims), static_cast<unsigned long long>(s.stale_drops));
}

// Coverage: every glue behaviour and every flow reached over the seeds.
// slots: K > 1 (returns out of order; with move a slot may reach RET while
// an earlier slot's remove still waits, see the four-slot tests).
void expect_coverage(const TxPathEvents& e, bool move, bool wire, bool bypass_ic, bool credit = true,
                     bool several_icaches = false, bool slots = false) {
  EXPECT_TRUE(e.lds_lookup_hit);
  EXPECT_TRUE(e.lds_lookup_miss);
  EXPECT_TRUE(e.ic_lookup_hit);
  EXPECT_TRUE(e.ic_lookup_miss);
  EXPECT_TRUE(e.l2_request);
  EXPECT_TRUE(e.l2_req_backpressure);
  EXPECT_TRUE(e.l2_req_overlap);
  EXPECT_TRUE(e.promotion_lds);
  EXPECT_TRUE(e.promotion_ic);
  EXPECT_TRUE(e.l2_fill);
  EXPECT_EQ(e.credit_block, credit);
  EXPECT_TRUE(e.l1_victim_queued);
  EXPECT_TRUE(e.victim_dropped_stale);
  EXPECT_TRUE(e.queue_kill);
  EXPECT_TRUE(e.lookup_waits_queue);
  EXPECT_TRUE(e.lookup_waits_lb);
  EXPECT_TRUE(e.lds_victim_to_lb);
  EXPECT_TRUE(e.lds_victim_waits);
  EXPECT_TRUE(e.lb_refill);
  EXPECT_TRUE(e.lb_kill);
  EXPECT_TRUE(e.lb_dropped);
  EXPECT_TRUE(e.lds_victim_to_icache);
  EXPECT_TRUE(e.icache_victim_to_vr);
  EXPECT_TRUE(e.icache_victim_waits);
  EXPECT_EQ(e.l2_vic_overlap, several_icaches);
  EXPECT_TRUE(e.vr_refill);
  EXPECT_TRUE(e.vr_kill);
  EXPECT_TRUE(e.vr_dropped);
  EXPECT_TRUE(e.icache_victim_to_l2);
  EXPECT_TRUE(e.l2_vic_backpressure);
  EXPECT_EQ(e.remove_lds, move);
  EXPECT_EQ(e.remove_ic, move);
  // The rm_free term of `ret` never holds a RET: a CU's next lookup of the
  // LDS (I-cache) is accepted only with that member's sd_valid_i = 0, i.e.
  // after its remove register was accepted (see the report). With slots
  // the next lookup may be accepted before the previous slot's RET edge.
  if (!slots || !move) {
    EXPECT_FALSE(e.ret_waits_remove);
  }
  EXPECT_EQ(e.ret_overtakes, slots);
  EXPECT_TRUE(e.shootdown_accept);
  EXPECT_TRUE(e.shootdown_l1);
  EXPECT_TRUE(e.shootdown_done);
  EXPECT_EQ(e.wire_wait, wire);
  EXPECT_TRUE(e.reset);
  EXPECT_TRUE(e.flow_1_2_4);
  EXPECT_TRUE(e.flow_1_2_4_5_6);
  EXPECT_TRUE(e.flow_1_2_3_6);
  EXPECT_TRUE(e.flow_6_7_8);
  EXPECT_TRUE(e.flow_6_7_8_10_11);
  EXPECT_EQ(e.flow_6_7_9_10, bypass_ic);
  // With move a CU's L1 victim is never already in its own LDS (the remove
  // of a promotion is served before any later fill); with copy it often is.
  EXPECT_EQ(e.lds_fill_update, !move);
  EXPECT_TRUE(e.lds_fill_dropped);
}

TEST(TxPathModel, RandomTrafficInvariantsSmall) {
  const TxPathParams p = load(kSmall);
  TxPathEvents seen;
  uint64_t ret_held = 0;
  for (uint64_t seed : {1, 2, 3}) {
    const RandomResult r = random_run(p, seed, 60000);
    or_events(seen, r.seen);
    ret_held += r.ret_held;
    print_stats("small", r);
  }
  EXPECT_GT(ret_held, 0u) << "RET cycles without a hit pulse (credit)";
  expect_coverage(seen, true, false, true);
  EXPECT_TRUE(seen.ic_fill_dropped);
}

// tx_path_small with wire latency (WL = 2, WI = 4) and D = 3: a CU waits in
// WIRE while the I-cache serves its sharer, so removes of both sharers meet.
TEST(TxPathModel, RandomTrafficInvariantsSmallWire) {
  config::Config c = load_cfg(kSmall);
  c.tx_path->wire_lds = 2;
  c.tx_path->wire_icache = 4;
  c.tx_path->victim_queue = 3;
  const TxPathParams p = elab::elaborate_tx_path(c);
  TxPathEvents seen;
  uint64_t ret_held = 0;
  for (uint64_t seed : {4, 5}) {
    const RandomResult r = random_run(p, seed, 50000);
    or_events(seen, r.seen);
    ret_held += r.ret_held;
    print_stats("small-wire", r);
  }
  if (ret_held > 0) {
    EXPECT_TRUE(seen.credit_block) << "a RET is held only by the credit (D = 3: rare)";
  }
  expect_coverage(seen, true, true, true, seen.credit_block);
}

TEST(TxPathModel, RandomTrafficInvariantsQuad) {
  const TxPathParams p = load(kQuad);
  TxPathEvents seen;
  uint64_t ret_held = 0;
  for (uint64_t seed : {1, 2, 3}) {
    const RandomResult r = random_run(p, seed, 50000);
    or_events(seen, r.seen);
    ret_held += r.ret_held;
    print_stats("quad", r);
  }
  EXPECT_GT(ret_held, 0u) << "RET cycles without a hit pulse (credit)";
  expect_coverage(seen, false, true, false, true, true);
}

// K = 4 slots (4 MSHRs per CU): the three invariants, the hit pulses and
// the slot rules (SlotWatch) with several misses of a CU below the L1. The
// pointers must decide some grants of the LDS, I-cache, L2 and RET rules,
// or an arbiter ignoring its pointer would pass.
TxPathParams four_slot_params(config::Config c) {
  c.tx_path->l1tlb.mshrs_per_cu = 4;
  c.tx_path->lookup_slots = 4;
  return elab::elaborate_tx_path(c);
}

void four_slot_run(const char* name, const config::Config& c, std::initializer_list<uint64_t> seeds,
                   uint64_t cycles) {
  const TxPathParams p = four_slot_params(c);
  ASSERT_EQ(p.slots, 4u);
  TxPathEvents seen;
  uint64_t grants[SlotWatch::kRules] = {}, rotated[SlotWatch::kRules] = {};
  for (uint64_t seed : seeds) {
    // slow L2-TLB on odd seeds: misses of a CU meet in L2 (the p2 round robin)
    const RandomResult r = random_run(p, seed, cycles, true, seed % 2 ? 0.15 : 0.7);
    or_events(seen, r.seen);
    for (unsigned k = 0; k < SlotWatch::kRules; ++k) {
      grants[k] += r.grants[k];
      rotated[k] += r.rotated[k];
    }
    print_stats(name, r);
  }
  std::printf("  %s slot grants (pointer decided): intake %llu (%llu), LDS %llu (%llu), I-cache %llu (%llu),"
              " L2 %llu (%llu), RET %llu (%llu)\n",
              name, static_cast<unsigned long long>(grants[0]), static_cast<unsigned long long>(rotated[0]),
              static_cast<unsigned long long>(grants[1]), static_cast<unsigned long long>(rotated[1]),
              static_cast<unsigned long long>(grants[2]), static_cast<unsigned long long>(rotated[2]),
              static_cast<unsigned long long>(grants[3]), static_cast<unsigned long long>(rotated[3]),
              static_cast<unsigned long long>(grants[4]), static_cast<unsigned long long>(rotated[4]));
  EXPECT_GT(rotated[SlotWatch::kLds], 0u);
  EXPECT_GT(rotated[SlotWatch::kIc], 0u);
  EXPECT_GT(rotated[SlotWatch::kL2], 0u);
  EXPECT_GT(rotated[SlotWatch::kRet], 0u);
  EXPECT_TRUE(seen.ret_overtakes);
  std::printf("  %s: a RET held by a busy remove register: %s\n", name, seen.ret_waits_remove ? "seen" : "never");
  const bool move = p.move, wire = p.wire_lds || p.wire_icache;
  expect_coverage(seen, move, wire, p.ic.variant == config::IcacheVariant::Aware, seen.credit_block,
                  p.icaches > 1, true);
}

TEST(TxPathModel, RandomTrafficInvariantsSmallFourSlots) {
  config::Config c = load_cfg(kSmall);
  c.tx_path->wire_lds = 2;
  c.tx_path->wire_icache = 4;
  four_slot_run("small-4-slots", c, {6, 7}, 50000);
}

TEST(TxPathModel, RandomTrafficInvariantsQuadFourSlots) {
  four_slot_run("quad-4-slots", load_cfg(kQuad), {4, 5}, 50000);
}

// Speculative L2 request on random traffic, K = 1 and K > 1: the random
// run's invariants (but (a), see random_run) with the model's own checks
// armed (cx set and cleared at one edge, one early answer matching two
// slots, a drop while a live sent slot holds the tag: each throws), every
// L1 MSHR answered exactly once (MshrWatch, drained at the end), and the
// slot rules with quitting slots and the asks round robin (SlotWatch).
void speculative_run(const char* name, config::Config c, unsigned slots, std::initializer_list<uint64_t> seeds,
                     uint64_t cycles) {
  c.tx_path->speculative_l2 = true;
  c.tx_path->lookup_slots = slots;
  if (c.tx_path->l1tlb.mshrs_per_cu < slots) c.tx_path->l1tlb.mshrs_per_cu = 4;
  const TxPathParams p = elab::elaborate_tx_path(c);
  ASSERT_TRUE(p.speculative);
  TxPathEvents seen;
  uint64_t rotated_l2 = 0, drops = 0, early = 0;
  for (uint64_t seed : seeds) {
    const RandomResult r = random_run(p, seed, cycles, true, seed % 2 ? 0.3 : 0.7);
    or_events(seen, r.seen);
    rotated_l2 += r.rotated[SlotWatch::kL2];
    drops += r.stats.l2_drops;
    early += r.stats.early_answers;
    print_stats(name, r);
  }
  std::printf("  %s: L2 answers dropped %llu, early answers %llu, L2 grants decided by p2 %llu\n", name,
              static_cast<unsigned long long>(drops), static_cast<unsigned long long>(early),
              static_cast<unsigned long long>(rotated_l2));
  EXPECT_TRUE(seen.spec_drop);
  EXPECT_TRUE(seen.spec_early);
  EXPECT_TRUE(seen.promotion_lds);
  EXPECT_TRUE(seen.promotion_ic);
  EXPECT_TRUE(seen.l2_fill);
  EXPECT_TRUE(seen.lds_lookup_hit);
  EXPECT_TRUE(seen.ic_lookup_miss);
  EXPECT_TRUE(seen.shootdown_done);
  EXPECT_TRUE(seen.reset);
  if (slots > 1) {
    EXPECT_GT(rotated_l2, 0u) << "the asks round robin p2 decided some grants";
    EXPECT_TRUE(seen.ret_overtakes);
  }
}

TEST(TxPathModel, RandomTrafficSpeculativeSmall) {
  speculative_run("small-spec", load_cfg(kSmall), 1, {1, 2}, 40000);
}

TEST(TxPathModel, RandomTrafficSpeculativeSmallWireFourSlots) {
  config::Config c = load_cfg(kSmall);
  c.tx_path->wire_lds = 2;
  c.tx_path->wire_icache = 4;
  speculative_run("small-wire-4-slots-spec", c, 4, {3, 4}, 40000);
}

TEST(TxPathModel, RandomTrafficSpeculativeQuadThreeSlots) {
  speculative_run("quad-3-slots-spec", load_cfg(kQuad), 3, {5, 6}, 40000);
}

TEST(TxPathModel, RandomTrafficSpeculativeQuad) {
  speculative_run("quad-spec", load_cfg(kQuad), 1, {7}, 40000);
}

// ===========================================================================
// 10. Baseline
// ===========================================================================

// tx_path_NAME_base_sys: the L1-TLBs straight on the L2 port. Every request
// the L1-TLBs miss on (an MSHR allocation) goes to the L2-TLB, every L1 fill
// is the L2's answer, the victim port stays silent, l2_resp_ready_o is 1 and
// the work-group port reports nothing; shootdowns go to the L1-TLB. Every
// fill answers a page its CU waits for and every L2 request's CU field names
// the cluster of a CU waiting for its page (Waiters).
void baseline_run(const TxPathParams& p) {
  Bench b(p, true, 5);
  b.env.lat_min = 1;
  b.env.lat_max = 10;
  b.env.random_order = true;
  b.env.req_ready_p = 0.7;
  Traffic tr(p, 99);
  tr.p_sd = 0.002;
  uint64_t sd_accepts = 0, sd_dones = 0;
  Waiters waiters(p, true, &b.m);
  b.hook = [&] {
    waiters.cycle(b.in, b.out, b.cyc);
    EXPECT_FALSE(b.out.l2_vic_valid);
    EXPECT_TRUE(b.out.l2_resp_ready);
    for (unsigned u = 0; u < p.cus; ++u) {
      EXPECT_FALSE(b.out.wg_ready[u]);
      EXPECT_FALSE(b.out.wg_done[u]);
      EXPECT_FALSE(b.out.hit_lds[u]) << "no hits below the L1 in the baseline";
      EXPECT_FALSE(b.out.hit_ic[u]);
    }
    if (b.in.sd_valid && b.out.sd_ready) ++sd_accepts;
    if (b.out.sd_done) ++sd_dones;
  };
  for (unsigned c = 0; c < 30000; ++c) {
    tr.drive(b.in);
    b.step();
    tr.observe(b.in, b.out);
  }
  for (unsigned u = 0; u < p.cus; ++u) b.in.req_valid[u] = 0;
  b.in.sd_valid = 0;
  b.hook = nullptr;
  b.settle();
  const L1tlbStats& ls = b.m.l1().stats();
  EXPECT_EQ(ls.lookup_misses, b.m.stats().l2_requests) << "every L1 miss is asked of the L2-TLB";
  EXPECT_EQ(b.m.stats().l2_fills, b.m.stats().l2_requests);
  EXPECT_EQ(ls.accepts, ls.hits + ls.lookup_misses + ls.mshr_hits);
  EXPECT_GT(ls.evictions, 100u);
  EXPECT_TRUE(b.env.vics.empty());
  EXPECT_EQ(b.m.stats().lds_hits + b.m.stats().ic_hits, 0u);
  EXPECT_GT(sd_accepts, 10u);
  EXPECT_EQ(sd_dones, sd_accepts);
  EXPECT_EQ(b.data_errors, 0u);
  EXPECT_GT(waiters.l2_checked, 100u);
  EXPECT_GT(waiters.fills_checked, 100u);
  if (p.l1_pad) {
    EXPECT_GT(waiters.pad_checked, 10000u);
    EXPECT_GT(waiters.pad_holds, 100u) << "Z > 0: some zZ waited for the L1";
  }
}

TEST(TxPathModel, BaselineAnswersEverythingFromTheL2) {
  baseline_run(load(kSmall));
  baseline_run(load(kQuad));
}

// The baseline's L2 request port is a round robin over the L1-TLBs: with
// every CU missing at once, the requests are taken in CU order from lp.
TEST(TxPathModel, BaselineL2RoundRobin) {
  Bench b(load(kQuad), true);
  b.settle();
  b.in.l2_req_ready = false;
  b.env.req_ready_p = 0.0;
  for (unsigned u = 0; u < 4; ++u) {
    b.in.req_valid[u] = 1;
    b.in.req_vpn[u] = 0x100 + u;
  }
  b.step();
  for (unsigned u = 0; u < 4; ++u) b.in.req_valid[u] = 0;
  b.run(6);
  b.env.req_ready_p = 1.0;
  std::vector<uint64_t> order;
  b.hook = [&] {
    if (b.out.l2_req_valid && b.in.l2_req_ready) order.push_back(b.out.l2_req_tag >> b.p.l1_tag_bits);
  };
  b.run(6);
  b.hook = nullptr;
  ASSERT_EQ(order.size(), 4u);
  for (unsigned u = 0; u < 4; ++u) EXPECT_EQ(order[u], u);
  b.settle();
}

// ===========================================================================
// 10b. Aggregated and clustered L1-TLBs (tx_path.l1tlb.tlbs = T < U)
// ===========================================================================

// A configuration with T L1-TLBs in C clusters ($.tx_path.l1tlb.tlbs,
// .clusters; C = T when clusters is 0), optionally edited further.
TxPathParams shared_l1(const char* rel, unsigned tlbs, unsigned clusters = 0,
                       const std::function<void(nlohmann::json&)>& more = nullptr) {
  nlohmann::json j = config::read_json_file(std::string(TXGEN_SOURCE_DIR) + "/" + rel);
  j["tx_path"]["l1tlb"]["tlbs"] = tlbs;
  if (clusters) j["tx_path"]["l1tlb"]["clusters"] = clusters;
  if (more) more(j);
  return elab::elaborate_tx_path(config::parse_config(j));
}

// The elaborated organisation: N = U/C CUs per cluster, CB = log2 N
// allocator bits below the path's ID in the L1's, LT = {TLB in cluster, MSHR}.
TEST(TxPathModel, SharedL1Configuration) {
  const TxPathParams agg = shared_l1(kQuad, 1);  // U = 4, one TLB of 4 sets, 8 MSHRs
  EXPECT_EQ(agg.tlbs, 1u);
  EXPECT_EQ(agg.clusters, 1u);
  EXPECT_EQ(agg.cluster_cus, 4u);
  EXPECT_EQ(agg.local_bits, 2u);
  EXPECT_EQ(agg.l1.iid_bits, agg.iid_bits + 2);
  EXPECT_EQ(agg.l1_tag_bits, 3u) << "MB = log2 8";
  const TxPathParams cl = shared_l1(kQuad, 4, 2);  // two clusters of two CUs and two TLBs
  EXPECT_EQ(cl.cluster_cus, 2u);
  EXPECT_EQ(cl.local_bits, 1u);
  EXPECT_EQ(cl.l1_tag_bits, 2u) << "HB 1 + MB 1";
  const TxPathParams priv = load(kQuad);
  EXPECT_EQ(priv.tlbs, 4u);
  EXPECT_EQ(priv.clusters, 4u);
  EXPECT_EQ(priv.cluster_cus, 1u);
  EXPECT_EQ(priv.local_bits, 0u);
}

// Quad with one aggregated TLB (T = C = 1, N = 4): set = vpn[1:0], PLRU, 4
// ways. CU 0 fetches 0x40 (set 0, LDS segment 0); CU 1 fetches 0x44, 0x48,
// 0x4c and 0x50 (set 0): the last fill, CU 1's, evicts 0x40 (way 0), which
// CU 0 brought in. Rule: the miss and its fill's victim go down the chain of
// the allocator, CU 1: 0x50's L2 request carries CU field 1, only CU 1's
// stage and queue move, and 0x40 lands in CU 1's LDS, not in CU 0's.
constexpr uint64_t kShared[5] = {0x40, 0x44, 0x48, 0x4c, 0x50};
void setup_victim_in_cu1_lds(Bench& b) {
  b.settle();
  b.fetch(0, kShared[0]);
  for (unsigned k = 1; k < 4; ++k) b.fetch(1, kShared[k]);
  ASSERT_TRUE(b.m.in_l1(0, kShared[0], 0));
  ASSERT_TRUE(b.m.in_l1(1, kShared[0], 0)) << "one TLB: CU 1 sees CU 0's entry";
  std::vector<uint64_t> l2_cu;
  bool cu0_moved = false, q0 = false, q1 = false;
  b.hook = [&] {
    if (b.out.l2_req_valid && b.in.l2_req_ready) l2_cu.push_back(b.out.l2_req_tag >> b.p.l1_tag_bits);
    cu0_moved |= !b.m.stage_idle(0);
    q0 |= b.m.queue_occupancy(0) > 0;
    q1 |= b.m.queue_occupancy(1) > 0;
  };
  b.fetch(1, kShared[4]);
  b.hook = nullptr;
  EXPECT_EQ(l2_cu, std::vector<uint64_t>{1}) << "CU 1's miss leaves from CU 1's glue";
  EXPECT_FALSE(cu0_moved);
  EXPECT_TRUE(q1) << "the victim of CU 1's fill enters CU 1's queue";
  EXPECT_FALSE(q0);
  ASSERT_FALSE(b.m.in_l1(1, kShared[0], 0)) << "0x40 was the victim";
  ASSERT_TRUE(b.m.in_lds(1, kShared[0], 0, 0));
  ASSERT_FALSE(b.m.in_lds(0, kShared[0], 0, 0));
}

// Then CU 1's miss on 0x40 is an LDS hit in its own LDS (14 + WL = 17
// cycles, no L2 request), while CU 0's misses its LDS and its I-cache (CU 1's
// copy is not in CU 0's chain) and goes to the L2; that fill's victim enters
// CU 0's LDS.
TEST(TxPathModel, AggregatedMissAndVictimGoDownTheAllocatorsChain) {
  const TxPathParams p = shared_l1(kQuad, 1);
  {
    Bench b(p);
    setup_victim_in_cu1_lds(b);
    if (::testing::Test::HasFatalFailure()) return;
    std::vector<uint64_t> hits1;
    b.hook = [&] {
      if (b.out.hit_lds[1]) hits1.push_back(b.cyc);
      EXPECT_FALSE(b.out.hit_lds[0] || b.out.hit_ic[0] || b.out.hit_ic[1]);
    };
    const uint64_t t = b.request(1, kShared[0]);
    const uint64_t f = b.wait_fill(1, kShared[0]);
    b.hook = nullptr;
    EXPECT_EQ(f, t + 17) << "an LDS hit with WL = 3, as with private L1s";
    EXPECT_EQ(hits1, std::vector<uint64_t>{t + 13});
    EXPECT_FALSE(b.l2_requested(kShared[0], t));
    b.settle();
    EXPECT_TRUE(b.m.in_l1(0, kShared[0], 0)) << "CU 1's promotion is in the TLB CU 0 uses too";
  }
  {
    Bench b(p);
    setup_victim_in_cu1_lds(b);
    if (::testing::Test::HasFatalFailure()) return;
    bool hit0 = false;
    std::vector<uint64_t> l2_cu;
    b.hook = [&] {
      hit0 |= b.out.hit_lds[0] || b.out.hit_ic[0];
      if (b.out.l2_req_valid && b.in.l2_req_ready) l2_cu.push_back(b.out.l2_req_tag >> b.p.l1_tag_bits);
    };
    const uint64_t t = b.request(0, kShared[0]);
    b.wait_fill(0, kShared[0]);
    b.settle();
    b.hook = nullptr;
    EXPECT_FALSE(hit0) << "CU 0's LDS and I-cache do not hold 0x40";
    EXPECT_TRUE(b.l2_requested(kShared[0], t));
    EXPECT_EQ(l2_cu, std::vector<uint64_t>{0});
    EXPECT_TRUE(b.m.in_lds(1, kShared[0], 0, 0)) << "copy: CU 1's chain keeps its copy";
    unsigned gone = 0;
    for (unsigned k = 1; k < 5; ++k) {
      if (b.m.in_l1(0, kShared[k], 0)) continue;
      ++gone;
      EXPECT_TRUE(b.m.in_lds(0, kShared[k], 0, 0)) << "CU 0's fill's victim in CU 0's LDS";
      EXPECT_FALSE(b.m.in_lds(1, kShared[k], 0, 0));
    }
    EXPECT_EQ(gone, 1u);
  }
}

// Two glues of one cluster want its L1 input in one cycle r: CU 0 with an
// L2 answer (of X, held until then), CU 1 with its LDS hit on 0x40 in RET.
// The first from fp gets it (l1_grant_wait), the other waits one cycle: a
// promotion without the grant sends nothing and pulses no hit; an answer
// without it is not taken (l2_resp_ready_o = 0). fp: the last fill before r
// was CU 1's (fp = 2: the order 2, 3, 0 reaches CU 0 first) or, after one
// more fetch of CU 0, CU 0's (fp = 1: CU 1 first).
TEST(TxPathModel, FillMergeOneGlueWaitsForTheGrant) {
  const TxPathParams p = shared_l1(kQuad, 1);
  for (bool cu1_first : {false, true}) {
    SCOPED_TRACE(cu1_first ? "CU 1 first" : "CU 0 first");
    Bench b(p);
    setup_victim_in_cu1_lds(b);
    if (::testing::Test::HasFatalFailure()) return;
    if (cu1_first) b.fetch(0, 0x61);  // set 1: evicts nothing
    ASSERT_EQ(b.m.fill_pointer(0), cu1_first ? 1u : 2u);
    const uint64_t X = 0x71;
    b.env.hold = true;
    b.request(0, X);
    for (unsigned n = 0; n < 100 && b.env.pending.empty(); ++n) b.step();
    ASSERT_EQ(b.env.pending.size(), 1u);
    const uint64_t waits0 = b.m.stats().grant_waits;
    uint64_t r = 0;
    std::map<uint64_t, bool> hit1, taken, ready;
    std::map<uint64_t, uint64_t> fill0, fill1;
    b.pre = [&] {
      if (r == 0 && b.m.stage(1) == Stage::Ret) {
        r = b.cyc;
        b.env.hold = false;  // X's answer, long due, is presented in r
      }
    };
    b.hook = [&] {
      hit1[b.cyc] = b.out.hit_lds[1];
      taken[b.cyc] = b.in.l2_resp_valid && b.out.l2_resp_ready;
      ready[b.cyc] = b.out.l2_resp_ready;
      if (b.out.fill_valid[0]) fill0[b.out.fill_vpn[0]] = b.cyc;
      if (b.out.fill_valid[1]) fill1[b.out.fill_vpn[1]] = b.cyc;
    };
    b.record_events = true;
    b.request(1, kShared[0]);
    b.run(40);
    b.pre = nullptr;
    b.hook = nullptr;
    ASSERT_GT(r, 0u);
    EXPECT_TRUE(b.ev_at[r].l1_grant_wait);
    EXPECT_FALSE(b.ev_at[r + 1].l1_grant_wait);
    EXPECT_EQ(b.m.stats().grant_waits, waits0 + 1);
    const uint64_t r1 = cu1_first ? r : r + 1, r0 = cu1_first ? r + 1 : r;  // CU 1's RET, CU 0's answer
    EXPECT_TRUE(hit1[r1]);
    EXPECT_FALSE(hit1[r0]) << "no hit pulse without the grant";
    EXPECT_TRUE(taken[r0]);
    EXPECT_FALSE(ready[r1]) << "the answer waits: l2_resp_ready_o = 0";
    EXPECT_EQ(fill1[kShared[0]], r1 + 4);
    EXPECT_EQ(fill0[X], r0 + 4);
    EXPECT_FALSE(b.l2_requested(kShared[0], r - 20));
    EXPECT_EQ(b.m.fill_pointer(0), cu1_first ? 1u : 2u) << "winner + 1 after both grants";
    b.settle();
    EXPECT_EQ(b.data_errors, 0u);
  }
}

// Random traffic on clustered and aggregated L1s: every invariant of the
// random run (the accounting queues each eviction at the glue that sent the
// fill three cycles before; FillWatch: at most one fill per cluster and
// cycle, out = the glue's own fills of the last four cycles; Waiters: every
// L2 request leaves from a CU that waits for its page) plus the model's own
// checks (an eviction without d3, out outside 0 .. D). Every glue must have
// sent fills and the merge must have made glues wait.
void shared_l1_run(const char* name, const TxPathParams& p, std::initializer_list<uint64_t> seeds, uint64_t cycles,
                   bool spec_checks = false) {
  TxPathEvents seen;
  std::vector<uint64_t> sends(p.cus, 0);
  uint64_t grant_waits = 0, pad_holds = 0, pad_checked = 0;
  for (uint64_t seed : seeds) {
    const RandomResult r = random_run(p, seed, cycles, true, seed % 2 ? 0.3 : 0.7);
    or_events(seen, r.seen);
    for (unsigned u = 0; u < p.cus; ++u) sends[u] += r.sends_of[u];
    grant_waits += r.stats.grant_waits;
    pad_holds += r.pad_holds;
    pad_checked += r.pad_checked;
    print_stats(name, r);
    if (::testing::Test::HasFailure()) return;
  }
  std::printf("  %s: grant waits %llu, fills sent per CU", name, static_cast<unsigned long long>(grant_waits));
  for (uint64_t n : sends) std::printf(" %llu", static_cast<unsigned long long>(n));
  std::printf("\n");
  for (unsigned u = 0; u < p.cus; ++u) EXPECT_GT(sends[u], 100u) << "CU " << u;
  EXPECT_TRUE(seen.l1_grant_wait);
  EXPECT_GT(grant_waits, 10u);
  EXPECT_TRUE(seen.promotion_lds);
  EXPECT_TRUE(seen.promotion_ic);
  EXPECT_TRUE(seen.l2_fill);
  EXPECT_TRUE(seen.l1_victim_queued);
  EXPECT_TRUE(seen.lds_lookup_hit);
  EXPECT_TRUE(seen.ic_lookup_hit);
  EXPECT_TRUE(seen.credit_block);
  EXPECT_TRUE(seen.flow_1_2_4_5_6);
  EXPECT_TRUE(seen.flow_6_7_8_10_11);
  EXPECT_TRUE(seen.shootdown_done);
  EXPECT_TRUE(seen.reset);
  // Z > 0: the request registers checked every cycle (Waiters), and held
  // while the L1 did not take zZ
  EXPECT_EQ(seen.l1_pad_hold, p.l1_pad > 0);
  if (p.l1_pad) {
    std::printf("  %s: Z = %u, register checks %llu, zZ held %llu cycles\n", name, p.l1_pad,
                static_cast<unsigned long long>(pad_checked), static_cast<unsigned long long>(pad_holds));
    EXPECT_GT(pad_holds, 1000u);
  }
  if (spec_checks) {
    EXPECT_TRUE(seen.spec_drop);
    EXPECT_TRUE(seen.spec_early);
  }
}

// T = 4 TLBs in C = 2 clusters of two CUs (cluster 0 = CUs 0, 1 = I-cache
// 0's sharers): a miss of either CU may allocate, the other merges.
TEST(TxPathModel, RandomTrafficClusteredQuad) {
  shared_l1_run("quad-t4-c2", shared_l1(kQuad, 4, 2), {1, 2}, 40000);
}

// One aggregated TLB for the two CUs of tx_path_small (move, D = 2).
TEST(TxPathModel, RandomTrafficAggregatedSmall) {
  shared_l1_run("small-t1", shared_l1(kSmall, 1), {3, 4}, 40000);
}

// Quad, T = 4 in one cluster (the four CUs across both I-caches), with four
// lookup slots and the speculative L2 request: the merge meets quitting
// slots, drops (no grant needed) and early answers.
TEST(TxPathModel, RandomTrafficOneClusterSlotsSpeculative) {
  const TxPathParams p = shared_l1(kQuad, 4, 1, [](nlohmann::json& j) {
    j["tx_path"]["l1tlb"]["mshrs_per_cu"] = 4;
    j["tx_path"]["lookup_slots"] = 4;
    j["tx_path"]["speculative_l2"] = true;
  });
  ASSERT_EQ(p.cluster_cus, 4u);
  shared_l1_run("quad-t4-c1-4-slots-spec", p, {5, 6}, 40000, true);
}

// The baseline with T < U: the cluster ports on the global one. Quad with T
// = C = 2 (CUs 0, 1 share TLB 0; CUs 2, 3 TLB 1). CU 1 misses P and CU 2
// misses Q in one cycle, CU 0 misses P a cycle later (merged into CU 1's
// MSHR): two L2 requests, tagged {cluster 0, .} for P and {cluster 1, .} for
// Q. Q is answered first: fill_valid_o[2] only, 4 cycles later; then P:
// fill_valid_o[0] and [1] together, never CU 3.
TEST(TxPathModel, BaselineSharedL1FillsTheRightCus) {
  const TxPathParams p = shared_l1(kQuad, 2);
  Bench b(p, true);
  b.settle();
  b.env.hold = true;
  const uint64_t P = 0x120, Q = 0x131;
  std::vector<std::pair<uint64_t, uint64_t>> reqs;  // (cluster field, vpn)
  std::map<uint64_t, std::vector<unsigned>> fills;  // vpn -> CUs, by cycle order
  std::map<uint64_t, uint64_t> fill_cyc;
  b.hook = [&] {
    if (b.out.l2_req_valid && b.in.l2_req_ready) reqs.push_back({b.out.l2_req_tag >> p.l1_tag_bits, b.out.l2_req_vpn});
    for (unsigned u = 0; u < p.cus; ++u)
      if (b.out.fill_valid[u]) {
        fills[b.out.fill_vpn[u]].push_back(u);
        fill_cyc[b.out.fill_vpn[u]] = b.cyc;
      }
  };
  b.in.req_valid[1] = b.in.req_valid[2] = 1;
  b.in.req_vpn[1] = P;
  b.in.req_vpn[2] = Q;
  b.step();
  EXPECT_TRUE(b.out.req_ready[1] && b.out.req_ready[2]);
  b.in.req_valid[1] = b.in.req_valid[2] = 0;
  b.request(0, P);
  b.run(10);
  ASSERT_EQ(reqs.size(), 2u);
  std::sort(reqs.begin(), reqs.end());
  EXPECT_EQ(reqs[0], std::make_pair(uint64_t{0}, P));
  EXPECT_EQ(reqs[1], std::make_pair(uint64_t{1}, Q));
  ASSERT_EQ(b.env.pending.size(), 2u);
  if (b.env.pending[0].vpn != Q) std::swap(b.env.pending[0], b.env.pending[1]);
  b.env.hold = false;
  b.run(20);
  b.hook = nullptr;
  EXPECT_EQ(fills[Q], std::vector<unsigned>{2});
  EXPECT_EQ(fills[P], (std::vector<unsigned>{0, 1})) << "one fill answers both waiters of cluster 0";
  EXPECT_LT(fill_cyc[Q], fill_cyc[P]);
  EXPECT_EQ(b.data_errors, 0u);
  b.settle();
}

// Baseline random traffic with shared L1s: aggregated (T = 1) and clustered
// (T = 4, C = 2), every L1 miss asked of the L2-TLB, every fill to a CU that
// waits for it (baseline_run's Waiters).
TEST(TxPathModel, BaselineSharedL1RandomTraffic) {
  baseline_run(shared_l1(kQuad, 1));
  baseline_run(shared_l1(kQuad, 4, 2));
  baseline_run(shared_l1(kSmall, 1));
}

// ===========================================================================
// 10c. The document's latency (tx_path.l1tlb.latency = "document")
// ===========================================================================

// shared_l1() with $.tx_path.l1tlb.latency set.
TxPathParams doc_latency(const char* rel, unsigned tlbs, unsigned clusters, const char* latency = "document",
                         const std::function<void(nlohmann::json&)>& more = nullptr) {
  return shared_l1(rel, tlbs, clusters, [&](nlohmann::json& j) {
    j["tx_path"]["l1tlb"]["latency"] = latency;
    if (more) more(j);
  });
}

// Z = max(0, max(1, 2 log2 S) + log2 N + log2 K - H), H = 3, S = U/T sets,
// N = U/C, K = T/C.
TEST(TxPathModel, DocumentLatencyConfiguration) {
  EXPECT_EQ(doc_latency(kQuad, 2, 1).l1_pad, 2u) << "S 2, N 4, K 2: 2 + 2 + 1 - 3";
  EXPECT_EQ(doc_latency(kQuad, 2, 1, "rtl").l1_pad, 0u);
  EXPECT_EQ(shared_l1(kQuad, 2, 1).l1_pad, 0u) << "rtl is the default";
  EXPECT_EQ(doc_latency(kQuad, 1, 1).l1_pad, 3u) << "S 4, N 4, K 1: 4 + 2 + 0 - 3";
  EXPECT_EQ(doc_latency(kQuad, 4, 2).l1_pad, 0u) << "S 1 (1 cycle), N 2, K 2: 1 + 1 + 1 - 3";
  const TxPathModel m(doc_latency(kQuad, 2, 1), false);
  EXPECT_EQ(m.pad_depth(), 2u);
  for (unsigned u = 0; u < 4; ++u)
    for (unsigned k = 0; k < 2; ++k) EXPECT_EQ(m.pad_reg(u, k), TxPathModel::PadReg{}) << "reset: valid and data 0";
}

// The cycles from the path's accept (req_valid_i and req_ready_o) of CU 0's
// miss on V (a fresh path) to its L2 request and to its fill, then from the
// accept of CU 1's request for V (a hit in the TLB the cluster shares) to
// resp_valid_o[1].
struct PadTiming {
  uint64_t l2 = 0, fill = 0, hit = 0;
};
PadTiming pad_timing(const TxPathParams& p, bool baseline) {
  Bench b(p, baseline);
  b.settle();
  const uint64_t V = 0x123;
  uint64_t l2 = 0;
  b.hook = [&] {
    if (!l2 && b.out.l2_req_valid && b.in.l2_req_ready && b.out.l2_req_vpn == V) l2 = b.cyc;
  };
  const uint64_t req0 = b.m.stats().requests, acc0 = b.m.l1().stats().accepts;
  const uint64_t t = b.request(0, V);
  // stats.requests: the path took the request; the L1 takes it Z cycles later
  EXPECT_EQ(b.m.stats().requests, req0 + 1);
  EXPECT_EQ(b.m.l1().stats().accepts, acc0 + (p.l1_pad ? 0 : 1));
  if (p.l1_pad) {
    EXPECT_TRUE(b.m.pad_reg(0, 0).valid) << "in z1 after the accept edge";
    EXPECT_EQ(b.m.pad_reg(0, 0).vpn, V);
    b.run(p.l1_pad - 1);
    EXPECT_EQ(b.m.l1().stats().accepts, acc0) << "not yet";
    EXPECT_TRUE(b.m.pad_reg(0, p.l1_pad - 1).valid) << "in zZ";
    b.step();
    EXPECT_EQ(b.m.l1().stats().accepts, acc0 + 1) << "the L1 takes zZ Z cycles after the path's accept";
  }
  const uint64_t f = b.wait_fill(0, V);
  b.hook = nullptr;
  EXPECT_GT(l2, t);
  PadTiming r;
  r.l2 = l2 - t;
  r.fill = f - t;
  b.settle();
  const uint64_t t2 = b.request(1, V);
  uint64_t h = 0;
  for (unsigned n = 0; n < 50 && !h; ++n) {
    b.step();
    if (b.out.resp_valid[1] && b.out.resp_vpn[1] == V) h = b.cyc - 1;
    EXPECT_FALSE(b.out.fill_valid[1]) << "a hit";
  }
  EXPECT_GT(h, t2);
  r.hit = h - t2;
  b.settle();
  EXPECT_EQ(b.data_errors, 0u);
  return r;
}

// Quad with T = 2 TLBs in one cluster: Z = 2. Latency "document" against
// "rtl": a hit answers Z cycles later, a miss asks the L2 (below the L1 in
// the path, straight from the L1 in the baseline) and is filled Z cycles
// later, all counted from the path's accept.
TEST(TxPathModel, DocumentLatencyHitAndMissPayZ) {
  const TxPathParams rtl = doc_latency(kQuad, 2, 1, "rtl"), doc = doc_latency(kQuad, 2, 1);
  ASSERT_EQ(rtl.l1_pad, 0u);
  ASSERT_EQ(doc.l1_pad, 2u);
  for (bool baseline : {false, true}) {
    SCOPED_TRACE(baseline ? "baseline" : "path");
    const PadTiming a = pad_timing(rtl, baseline), d = pad_timing(doc, baseline);
    std::printf("  %s: rtl hit %llu, L2 request %llu, fill %llu; document %llu, %llu, %llu\n",
                baseline ? "baseline" : "path", static_cast<unsigned long long>(a.hit),
                static_cast<unsigned long long>(a.l2), static_cast<unsigned long long>(a.fill),
                static_cast<unsigned long long>(d.hit), static_cast<unsigned long long>(d.l2),
                static_cast<unsigned long long>(d.fill));
    EXPECT_EQ(a.hit, rtl.l1.hit_latency) << "H = 3";
    EXPECT_EQ(d.hit, a.hit + doc.l1_pad);
    EXPECT_EQ(d.l2, a.l2 + doc.l1_pad);
    EXPECT_EQ(d.fill, a.fill + doc.l1_pad);
    if (baseline) {
      EXPECT_EQ(a.l2, 4u) << "the L1's l2_req_valid_o from t+4, on the port";
    }
  }
}

// Back-pressure with Z = 2 (quad, T = 2 in one cluster): CUs 0 and 1 ask
// for pages of TLB 0 (even VPNs) in every cycle, each holding its request
// until req_ready_o. The crossbar takes one request of TLB 0 per cycle, so
// the other CU's zZ waits: then its req_ready_o is 0 and every one of its
// registers holds. First 16 hits per CU (the 8 pages TLB 0 holds, each CU
// in its own order), then 12 fresh pages per CU against TLB 0's 4 MSHRs and
// a slow L2 answering in random order. Every request the path takes is
// answered exactly once at its CU (the hits in the order taken), and
// Waiters checks every cycle that the registers hold exactly the requests
// taken and not yet given to the L1, and the hit timing from the L1's take.
void pad_back_pressure(bool baseline) {
  const TxPathParams p = doc_latency(kQuad, 2, 1);
  ASSERT_EQ(p.l1_pad, 2u);
  const unsigned Z = p.l1_pad;
  Bench b(p, baseline, 7);
  b.settle();
  std::vector<uint64_t> hot;
  for (unsigned k = 0; k < 8; ++k) hot.push_back(0x100 + 2 * k);  // home TLB 0, sets 0 and 1 alternating
  for (uint64_t v : hot) b.fetch(0, v);
  for (uint64_t v : hot) ASSERT_TRUE(b.m.in_l1(1, v, 0)) << v;

  Waiters w(p, baseline, &b.m);
  std::vector<std::vector<uint64_t>> todo(2), taken(2), answered(2);
  std::vector<size_t> next(2, 0);
  std::vector<std::vector<TxPathModel::PadReg>> snap(2);
  uint64_t path_waits = 0, held_checked = 0;
  b.pre = [&] {
    for (unsigned u = 0; u < 2; ++u) {
      if (!snap[u].empty()) {  // the CU's zZ waited in the last cycle: every register held
        for (unsigned k = 0; k < Z; ++k)
          EXPECT_EQ(b.m.pad_reg(u, k), snap[u][k]) << "cycle " << b.cyc << ": CU " << u << " z" << k + 1;
        ++held_checked;
        snap[u].clear();
      }
      b.in.req_valid[u] = next[u] < todo[u].size();
      b.in.req_vpn[u] = b.in.req_valid[u] ? todo[u][next[u]] : 0;
      b.in.req_vmid[u] = 0;
    }
  };
  b.hook = [&] {
    w.cycle(b.in, b.out, b.cyc);
    for (unsigned u = 0; u < p.cus; ++u) {
      if (u >= 2) {
        EXPECT_FALSE(b.out.resp_valid[u] || b.out.fill_valid[u]) << "CU " << u << " asked for nothing";
        continue;
      }
      if (b.out.resp_valid[u]) answered[u].push_back(b.out.resp_vpn[u]);
      if (b.out.fill_valid[u]) answered[u].push_back(b.out.fill_vpn[u]);
    }
    for (unsigned u = 0; u < 2; ++u) {
      const bool zZ = b.m.pad_reg(u, Z - 1).valid;
      if (b.in.req_valid[u] && b.out.req_ready[u]) {
        taken[u].push_back(b.in.req_vpn[u]);
        ++next[u];
      }
      if (b.in.req_valid[u] && !b.out.req_ready[u]) ++path_waits;
      if (!zZ) {
        EXPECT_TRUE(b.out.req_ready[u]) << "cycle " << b.cyc << ": zZ empty, advance";
      }
      if (zZ && !b.out.req_ready[u]) {
        snap[u].clear();
        for (unsigned k = 0; k < Z; ++k) snap[u].push_back(b.m.pad_reg(u, k));
      }
    }
  };
  const auto phase = [&](const std::vector<uint64_t>& a, const std::vector<uint64_t>& c, unsigned limit) {
    for (unsigned u = 0; u < 2; ++u) {
      taken[u].clear();
      answered[u].clear();
      next[u] = 0;
    }
    todo[0] = a;
    todo[1] = c;
    for (unsigned n = 0; n < limit && (next[0] < a.size() || next[1] < c.size()); ++n) b.step();
    EXPECT_EQ(next[0], a.size());
    EXPECT_EQ(next[1], c.size());
    for (unsigned n = 0; n < 3000 && !b.quiet(); ++n) b.step();
    EXPECT_TRUE(b.quiet());
    b.run(4);
  };

  // hits
  std::vector<uint64_t> h0, h1;
  for (unsigned r = 0; r < 2; ++r)
    for (unsigned k = 0; k < 8; ++k) {
      h0.push_back(hot[k]);
      h1.push_back(hot[7 - k]);
    }
  const uint64_t holds0 = w.pad_holds;
  const uint64_t l1_acc0 = b.m.l1().stats().accepts, hits0 = b.m.l1().stats().hits;
  phase(h0, h1, 200);
  EXPECT_EQ(taken[0], h0);
  EXPECT_EQ(taken[1], h1);
  EXPECT_EQ(answered[0], h0) << "each hit answered once, in order";
  EXPECT_EQ(answered[1], h1);
  EXPECT_EQ(b.m.l1().stats().accepts - l1_acc0, 32u);
  EXPECT_EQ(b.m.l1().stats().hits - hits0, 32u);
  EXPECT_GE(w.pad_holds - holds0, 10u) << "one CU's zZ waits while the other's is taken";
  const uint64_t hit_holds = w.pad_holds - holds0;
  EXPECT_GE(path_waits, 10u) << "and the path's req_ready_o is 0 then";

  // misses
  b.env.lat_min = 5;
  b.env.lat_max = 40;
  b.env.random_order = true;
  b.env.req_ready_p = 0.5;
  std::vector<uint64_t> m0, m1;
  for (unsigned k = 0; k < 12; ++k) {
    m0.push_back(0x400 + 4 * k);
    m1.push_back(0x402 + 4 * k);
  }
  const uint64_t holds1 = w.pad_holds;
  phase(m0, m1, 3000);
  EXPECT_EQ(taken[0], m0);
  EXPECT_EQ(taken[1], m1);
  for (unsigned u = 0; u < 2; ++u) {
    std::vector<uint64_t> a = answered[u];
    std::sort(a.begin(), a.end());
    EXPECT_EQ(a, u ? m1 : m0) << "CU " << u << ": each miss answered once";
  }
  EXPECT_GE(w.pad_holds - holds1, 20u) << "zZ waits for MSHRs";
  std::printf("  %s: zZ held %llu cycles in the hits, %llu in the misses; %llu hold checks, path waits %llu\n",
              baseline ? "baseline" : "path", static_cast<unsigned long long>(hit_holds),
              static_cast<unsigned long long>(w.pad_holds - holds1), static_cast<unsigned long long>(held_checked),
              static_cast<unsigned long long>(path_waits));
  EXPECT_GT(held_checked, 30u);
  EXPECT_TRUE(b.seen.l1_pad_hold);
  b.pre = nullptr;
  b.hook = nullptr;
  b.settle();
  EXPECT_EQ(b.data_errors, 0u);
}

TEST(TxPathModel, DocumentLatencyRegistersHoldUnderBackPressure) {
  {
    SCOPED_TRACE("path");
    pad_back_pressure(false);
  }
  {
    SCOPED_TRACE("baseline");
    pad_back_pressure(true);
  }
}

// Random traffic with Z > 0 (every invariant of the random run; Waiters
// checks the registers every cycle and times the answers from the L1's
// take): quad with T = 2 in one cluster (Z = 2) and one aggregated TLB (Z =
// 3), and T = 4 in one cluster (Z = 2) with four slots and speculation.
TEST(TxPathModel, RandomTrafficDocumentLatency) {
  shared_l1_run("quad-t2-c1-doc", doc_latency(kQuad, 2, 1), {1, 2}, 40000);
  shared_l1_run("quad-t1-doc", doc_latency(kQuad, 1, 1), {3}, 40000);
}

TEST(TxPathModel, RandomTrafficDocumentLatencySlotsSpeculative) {
  const TxPathParams p = doc_latency(kQuad, 4, 1, "document", [](nlohmann::json& j) {
    j["tx_path"]["l1tlb"]["mshrs_per_cu"] = 4;
    j["tx_path"]["lookup_slots"] = 4;
    j["tx_path"]["speculative_l2"] = true;
  });
  ASSERT_EQ(p.l1_pad, 2u);
  shared_l1_run("quad-t4-c1-doc-4-slots-spec", p, {5}, 40000, true);
}

TEST(TxPathModel, BaselineDocumentLatencyRandomTraffic) {
  baseline_run(doc_latency(kQuad, 2, 1));
  baseline_run(doc_latency(kQuad, 1, 1));
}

// ===========================================================================
// 11. No allocation in the glue
// ===========================================================================

// The LDS and I-cache member models return their outputs by value (Bits,
// std::vector<bool>) and allocate inside posedge (candidate vectors, the
// SRAM port image), so a whole cycle allocates. The path's own glue must
// not: every member call is bracketed by the allocation probe, and the
// allocations of outputs() + posedge() minus those inside member calls must
// be zero. (The L1-TLB model's outputs(in, out) itself allocates nothing.)
// The evaluation skips cycles once a step changed no register
// (copy_registers / same_registers): the path is then at a fixed point and
// must stay there with the same inputs. On sparse random traffic with slow L2
// answers (so the path waits with MSHRs, stages and fills outstanding), every
// step that compares equal is replayed on a copy of the whole model for 40
// more cycles with its inputs: the outputs must not move and the registers
// must stay equal. A register left out of the comparison fails this.
bool same_outputs(const TxPathOut& a, const TxPathOut& b) {
  const auto key = [](const TxPathOut& o) {
    return std::tie(o.req_ready, o.resp_valid, o.resp_vpn, o.resp_vmid, o.resp_ppn, o.resp_perm, o.fill_valid,
                    o.fill_vpn, o.fill_vmid, o.fill_ppn, o.fill_perm, o.app_rvalid, o.app_rdata, o.wg_ready, o.wg_done,
                    o.if_ready, o.if_resp_valid, o.if_resp_hit, o.if_resp_data, o.ifill_ready, o.flush_ready,
                    o.flush_done, o.l2_req_valid, o.l2_req_vpn, o.l2_req_vmid, o.l2_req_tag, o.l2_resp_ready,
                    o.l2_vic_valid, o.l2_vic_vpn, o.l2_vic_vmid, o.l2_vic_ppn, o.l2_vic_perm, o.sd_ready, o.sd_done,
                    o.hit_lds, o.hit_ic);
  };
  return key(a) == key(b);
}

void fixed_point_run(const char* cfg, const TxPathParams& p) {
  Bench b(p, false, 11);
  b.env.lat_min = 20;
  b.env.lat_max = 80;
  Traffic tr(p, 23);
  tr.p_req = 0.03;
  tr.p_if = 0.01;
  TxPathModel before(p, false);
  uint64_t fixed = 0, moved = 0;
  for (uint64_t c = 0; c < 30000 && !::testing::Test::HasFailure(); ++c) {
    tr.drive(b.in);
    before.copy_registers(b.m);
    ASSERT_TRUE(before.same_registers(b.m));
    b.step();
    const TxPathIn in = b.in;
    tr.observe(b.in, b.out);
    if (!b.m.same_registers(before)) {
      ++moved;
      continue;
    }
    if (++fixed > 400) continue;  // enough replays; keep counting
    TxPathModel copy = b.m;
    TxPathOut o = copy.make_outputs();
    for (int k = 1; k <= 40; ++k) {
      copy.step(in, o);
      ASSERT_TRUE(same_outputs(o, b.out)) << cfg << ": cycle " << c << " compared equal, outputs moved " << k
                                          << " cycles later";
      ASSERT_TRUE(copy.same_registers(b.m)) << cfg << ": cycle " << c << ", registers moved " << k << " later";
    }
  }
  std::printf("  %s: %llu steps changed no register, %llu did\n", cfg, static_cast<unsigned long long>(fixed),
              static_cast<unsigned long long>(moved));
  EXPECT_GT(fixed, 400u);
  EXPECT_GT(moved, 1000u);
}

TEST(TxPathModel, UnchangedRegistersAreAFixedPoint) {
  for (const char* cfg : {kSmall, kQuad}) fixed_point_run(cfg, load(cfg));
}

// The same with four lookup slots (their registers and pointers).
TEST(TxPathModel, UnchangedRegistersAreAFixedPointFourSlots) {
  for (const char* cfg : {kSmall, kQuad}) fixed_point_run(cfg, four_slot_params(load_cfg(cfg)));
}

// The same with the speculative L2 request (sent, ab, cx), K = 1 and 4.
TxPathParams speculative_params(config::Config c, unsigned slots) {
  c.tx_path->speculative_l2 = true;
  if (slots > 1) return four_slot_params(c);
  return elab::elaborate_tx_path(c);
}

TEST(TxPathModel, UnchangedRegistersAreAFixedPointSpeculative) {
  for (const char* cfg : {kSmall, kQuad})
    for (unsigned slots : {1u, 4u}) fixed_point_run(cfg, speculative_params(load_cfg(cfg), slots));
}

// The same with shared L1s (fp, d1..d4).
TEST(TxPathModel, UnchangedRegistersAreAFixedPointSharedL1) {
  fixed_point_run("quad-t4-c2", shared_l1(kQuad, 4, 2));
  fixed_point_run("small-t1", shared_l1(kSmall, 1));
}

// The same with the document's latency (the request registers z1..zZ).
TEST(TxPathModel, UnchangedRegistersAreAFixedPointDocumentLatency) {
  fixed_point_run("quad-t2-c1-doc", doc_latency(kQuad, 2, 1));
  fixed_point_run("quad-t1-doc", doc_latency(kQuad, 1, 1));
}

void no_alloc_run(const char* cfg, const TxPathParams& p) {
  TxPathModel m(p, false);
  TxPathIn in = m.idle_inputs();
  TxPathOut out = m.make_outputs();
  L2Env env;
  env.p = &p;
  env.lat_min = 1;
  env.lat_max = 6;
  env.random_order = true;
  env.req_ready_p = 0.7;
  env.vic_ready_p = 0.7;
  env.pending.reserve(64);
  env.reqs.reserve(100000);
  env.vics.reserve(100000);
  Traffic tr(p, 3);
  for (unsigned c = 0; c < 3000; ++c) {  // warm up (fills, victims, shootdowns)
    tr.drive(in);
    env.drive(in, c);
    m.outputs(in, out);
    env.observe(in, out, c);
    m.posedge(in);
    tr.observe(in, out);
  }
  m.set_alloc_probe(&g_allocs);
  long total = 0;
  const long member0 = m.member_allocs();
  for (unsigned c = 3000; c < 13000; ++c) {
    tr.drive(in);
    env.drive(in, c);
    const long a0 = g_allocs;
    m.outputs(in, out);
    total += g_allocs - a0;
    env.observe(in, out, c);
    const long a1 = g_allocs;
    m.posedge(in);
    total += g_allocs - a1;
    tr.observe(in, out);
  }
  const long member = m.member_allocs() - member0;
  EXPECT_GT(member, 0) << "the member models do allocate (by-value outputs)";
  EXPECT_EQ(total - member, 0) << cfg << ": the glue allocated";
  m.set_alloc_probe(nullptr);
}

TEST(TxPathModel, GlueDoesNotAllocate) {
  for (const char* cfg : {kSmall, kQuad}) no_alloc_run(cfg, load(cfg));
}

TEST(TxPathModel, GlueDoesNotAllocateFourSlots) {
  for (const char* cfg : {kSmall, kQuad}) no_alloc_run(cfg, four_slot_params(load_cfg(cfg)));
}

TEST(TxPathModel, GlueDoesNotAllocateSharedL1) {
  no_alloc_run("quad-t4-c2", shared_l1(kQuad, 4, 2));
  no_alloc_run("small-t1", shared_l1(kSmall, 1));
}

TEST(TxPathModel, GlueDoesNotAllocateDocumentLatency) {
  no_alloc_run("quad-t2-c1-doc", doc_latency(kQuad, 2, 1));
}

TEST(TxPathModel, GlueDoesNotAllocateSpeculative) {
  for (const char* cfg : {kSmall, kQuad})
    for (unsigned slots : {1u, 4u}) no_alloc_run(cfg, speculative_params(load_cfg(cfg), slots));
}

// ===========================================================================
// Speed (reported, not asserted)
// ===========================================================================

TEST(TxPathModel, Speed) {
  for (const char* cfg : {kSmall, kQuad}) {
    const TxPathParams p = load(cfg);
    const auto t0 = std::chrono::steady_clock::now();
    const RandomResult r = random_run(p, 11, 40000, false);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("  %s: %.0f cycles/s (model + environment, no invariant checks)\n", cfg,
                static_cast<double>(r.cycles) / s);
  }
}

}  // namespace
}  // namespace txgen::model
