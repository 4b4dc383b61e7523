// Unit tests of the golden L2-TLB / IOMMU models (docs/blocks/iommu.md).
// Parameters are filled by hand; every expected cycle and value is worked out
// by hand from the document in the comments (never read back from the model).
// "cN" is the N-th cycle after construction (c0 first); "edge N" ends cN;
// inputs scripted at cN are driven in cN, registers written at edge N are
// visible from c(N+1).
//
// Recurring timing facts (D = 3, fcfs scheduler with B = 4, L = 1, memory
// answering every taken read in the next cycle), for a lookup of a page
// with no translation and no MSHR taken in cycle t:
//  - stage 1 in t+1 ... stage D in t+3: miss, MSHR allocated at edge t+3;
//  - the walk request register loads it at edge t+4 (walk_req_valid t+5),
//    the scheduler accepts it at edge t+5 (a1 in t+6), bypasses at edge t+6
//    (busy from t+7, d in t+7), disp_valid in t+8;
//  - the walker is set at edge t+8, the memory register loads it at edge
//    t+9: reads of a full walk (LV = 3) are on mem_req_valid in t+10, t+13,
//    t+16 (answered in t+11, t+14, t+17);
//  - the leaf answer in t+17 is done_valid (busy 0 from t+18) and the IOMMU's
//    resp_valid in t+18: the MSHR is filled and its waiters ready at edge
//    t+18, the answer register loads at edge t+19: resp_valid in t+20;
//  - the fill enters at edge t+19 (stages in t+20 .. t+22), writes the array
//    and frees the MSHR at edge t+22 (mshrs_o = 1 in t+4 .. t+22);
//  - the PWCs hold the walk's prefixes from t+20 (done t+17 -> f t+18 ->
//    g t+19 -> write at edge t+19).
// A hit taken in t is answered in t+D+2.
#include "model/iommu.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <functional>
#include <iostream>
#include <map>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace txgen::model {
namespace {

using config::WalkPolicy;
using elab::IommuParams;
using elab::L2tlbParams;

unsigned clog2(uint64_t x) {
  unsigned n = 0;
  while ((uint64_t{1} << n) < x) ++n;
  return n;
}

uint64_t mask(unsigned bits) { return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }

// The configuration in the document's symbols; mk() derives every width.
struct Shape {
  unsigned n = 16, w = 4, ports = 2, tag = 4, mshrs = 4, waiters = 8, stages = 3;
  unsigned vpn = 12, vm = 2, ppn = 10, perm = 3, iid = 6;
  unsigned walkers = 2, levels = 3, x = 4;
  std::vector<unsigned> pwc{2, 2};
  WalkPolicy policy = WalkPolicy::Fcfs;
  unsigned b = 4, g = 2;  // scheduler buffer and tree levels per stage: L = ceil(log2 B / G)
  uint64_t at = 1000;
  unsigned mw = 16;
  bool answer_register = false;  // the walk answer acts in its own cycle (the header's timing)
};

IommuParams mk(const Shape& s) {
  IommuParams p;
  p.module_prefix = "iommu_test";
  L2tlbParams& l = p.l2;
  l.module_prefix = "iommu_test_l2tlb";
  l.entries = s.n;
  l.ways = s.w;
  l.sets = s.n / s.w;
  l.set_bits = clog2(l.sets);
  l.tag_bits = s.vpn - l.set_bits;
  l.ports = s.ports;
  l.port_bits = std::max(1u, clog2(s.ports));
  l.req_tag_bits = s.tag;
  l.mshrs = s.mshrs;
  l.mshr_bits = std::max(1u, clog2(s.mshrs));
  l.mshr_count_bits = clog2(uint64_t{s.mshrs} + 1);
  l.waiters = s.waiters;
  l.waiter_bits = std::max(1u, clog2(s.waiters));
  l.stages = s.stages;
  l.answer_register = s.answer_register;
  l.vpn_bits = s.vpn;
  l.vmid_bits = s.vm;
  l.ppn_bits = s.ppn;
  l.perm_bits = s.perm;
  l.iid_bits = s.iid;
  elab::WalkSchedParams& q = p.sched;
  q.module_prefix = "iommu_test_walk_sched";
  q.policy = s.policy;
  q.entries = s.b;
  q.index_bits = clog2(s.b);
  q.count_bits = clog2(uint64_t{s.b} + 1);
  q.iid_bits = s.iid;
  q.walkers = s.walkers;
  q.walker_bits = std::max(1u, clog2(s.walkers));
  q.levels = s.levels;
  q.level_bits = s.x;
  q.vpn_bits = s.vm + s.vpn;  // the scheduler's VPN is {VMID, VPN}
  q.pwc_entries = s.pwc;
  for (unsigned lv = 1; lv < s.levels; ++lv) q.pwc_tag_bits.push_back(q.vpn_bits - (s.levels - lv) * s.x);
  q.wavefront = s.mw;
  q.score_bits = clog2(uint64_t{s.mw} * s.levels + 1);
  q.aging_threshold = s.at;
  q.credit_bits = clog2(s.at + 1);
  q.levels_per_cycle = s.g;
  q.select_latency = (q.index_bits + s.g - 1) / s.g;
  q.cooldown_bits = clog2(uint64_t{q.select_latency} + 1);
  q.acc_bits = 3;
  p.vpn_bits = s.vpn;
  p.vmid_bits = s.vm;
  p.ppn_bits = s.ppn;
  p.perm_bits = s.perm;
  p.iid_bits = s.iid;
  p.walkers = s.walkers;
  p.walker_bits = std::max(1u, clog2(s.walkers));
  p.levels = s.levels;
  p.level_bits = 3;
  return p;
}

Shape with_d(unsigned d) {
  Shape s;
  s.stages = d;
  return s;
}

// VPN of the default geometry (LV 3, X 4) from its table indices, root
// first; its L2 set (S = 4) is c & 3.
uint64_t V(uint64_t a, uint64_t b, uint64_t c) { return (a << 8) | (b << 4) | c; }

// The environment's page table: a fixed pseudo-random PPN per (VMID, VPN).
uint64_t ppn_of(uint64_t vmid, uint64_t vpn, unsigned bits, uint64_t version = 0) {
  uint64_t h = (vpn + 1) * 0x9E3779B97F4A7C15ull ^ (vmid + 7) * 0xC2B2AE3D27D4EB4Full ^ version * 0x165667B19E3779F9ull;
  h ^= h >> 29;
  return h & mask(bits);
}
uint64_t perm_of(uint64_t vmid, uint64_t vpn, unsigned bits, uint64_t version = 0) {
  return ppn_of(vmid + 3, vpn ^ 0x55, bits, version) & mask(bits);
}

// ===========================================================================
// Scripted driver of iommu_NAME_sys with a memory that answers each taken
// read `mem_delay` cycles later (in order) from the page table above.

struct Sys {
  IommuParams p;
  IommuSysModel m;
  unsigned cyc = 0;
  unsigned mem_delay = 1;
  std::function<bool(unsigned, unsigned)> resp_ready = [](unsigned, unsigned) { return true; };
  std::function<bool(unsigned)> mem_ready = [](unsigned) { return true; };
  std::set<unsigned> resets;  // cycles driven with rst_n = 0

  struct Req {
    unsigned port;
    uint64_t vpn, vmid, tag, iid;
    unsigned from;
    int taken = -1;
  };
  struct Ins {
    uint64_t vpn, vmid, ppn, perm;
    unsigned from;
    int taken = -1;
  };
  struct Sd {
    bool all;
    uint64_t vpn, vmid;
    unsigned from;
    int taken = -1;
  };
  struct Read {
    unsigned cycle, walker, level;
    uint64_t vpn, vmid;
  };
  struct Ans {
    unsigned cycle, port;
    uint64_t tag, vpn, vmid, ppn, perm;
  };
  std::vector<Req> reqs;
  std::vector<Ins> inss;
  std::vector<Sd> sds;
  std::vector<Read> reads;  // every read taken, in order
  std::deque<std::pair<unsigned, Read>> pending;  // (answer cycle, read)
  std::vector<Ans> answers;
  std::vector<IommuSysOut> out;  // out[c]: the outputs in cc
  std::vector<IommuEvents> ev;   // ev[c]: the events of edge c

  explicit Sys(const Shape& s) : p(mk(s)), m(p) {}

  size_t req(unsigned from, unsigned port, uint64_t vpn, uint64_t vmid, uint64_t tag, uint64_t iid = 0) {
    reqs.push_back(Req{port, vpn, vmid, tag, iid, from});
    return reqs.size() - 1;
  }
  size_t ins(unsigned from, uint64_t vpn, uint64_t vmid, uint64_t ppn, uint64_t perm = 1) {
    inss.push_back(Ins{vpn, vmid, ppn, perm, from});
    return inss.size() - 1;
  }
  size_t sd(unsigned from, bool all, uint64_t vpn = 0, uint64_t vmid = 0) {
    sds.push_back(Sd{all, vpn, vmid, from});
    return sds.size() - 1;
  }
  uint64_t ppn(uint64_t vmid, uint64_t vpn) const { return ppn_of(vmid, vpn, p.ppn_bits); }
  uint64_t perm(uint64_t vmid, uint64_t vpn) const { return perm_of(vmid, vpn, p.perm_bits); }

  // The first not yet taken item of a queue that is due: held until taken.
  template <class T, class Pred>
  static T* head(std::vector<T>& v, unsigned c, Pred pred) {
    for (T& x : v) {
      if (x.taken < 0 && pred(x)) return x.from <= c ? &x : nullptr;
    }
    return nullptr;
  }

  IommuSysIn input() {
    IommuSysIn in = m.idle_inputs();
    in.rst_n = !resets.count(cyc);
    for (unsigned q = 0; q < p.l2.ports; ++q) {
      in.resp_ready[q] = resp_ready(cyc, q);
      if (Req* r = head(reqs, cyc, [q](const Req& x) { return x.port == q; })) {
        in.req_valid[q] = 1;
        in.req_vpn[q] = r->vpn;
        in.req_vmid[q] = r->vmid;
        in.req_tag[q] = r->tag;
        in.req_iid[q] = r->iid;
      }
    }
    if (Ins* i = head(inss, cyc, [](const Ins&) { return true; })) {
      in.ins_valid = true;
      in.ins_vpn = i->vpn;
      in.ins_vmid = i->vmid;
      in.ins_ppn = i->ppn;
      in.ins_perm = i->perm;
    }
    if (Sd* s = head(sds, cyc, [](const Sd&) { return true; })) {
      in.sd_valid = true;
      in.sd_all = s->all;
      in.sd_vpn = s->vpn;
      in.sd_vmid = s->vmid;
    }
    in.mem_req_ready = mem_ready(cyc);
    if (!pending.empty() && pending.front().first <= cyc) {
      const Read& r = pending.front().second;
      in.mem_resp_valid = true;
      in.mem_resp_walker = r.walker;
      in.mem_resp_ppn = ppn(r.vmid, r.vpn);
      in.mem_resp_perm = perm(r.vmid, r.vpn);
    }
    return in;
  }

  void handshakes(const IommuSysIn& in, const IommuSysOut& o) {
    for (unsigned q = 0; q < p.l2.ports; ++q) {
      if (in.req_valid[q] && o.req_ready[q]) head(reqs, cyc, [q](const Req& x) { return x.port == q; })->taken = static_cast<int>(cyc);
      if (o.resp_valid[q] && in.resp_ready[q])
        answers.push_back(Ans{cyc, q, o.resp_tag[q], o.resp_vpn[q], o.resp_vmid[q], o.resp_ppn[q], o.resp_perm[q]});
    }
    if (in.ins_valid && o.ins_ready) head(inss, cyc, [](const Ins&) { return true; })->taken = static_cast<int>(cyc);
    if (in.sd_valid && o.sd_ready) head(sds, cyc, [](const Sd&) { return true; })->taken = static_cast<int>(cyc);
    if (in.mem_resp_valid) pending.pop_front();
    if (o.mem_req_valid && in.mem_req_ready) {
      const Read r{cyc, static_cast<unsigned>(o.mem_req_walker), static_cast<unsigned>(o.mem_req_level), o.mem_req_vpn,
                   o.mem_req_vmid};
      reads.push_back(r);
      pending.emplace_back(cyc + mem_delay, r);
    }
  }

  void step() {
    const IommuSysIn in = input();
    const IommuSysOut o = m.outputs(in);
    out.push_back(o);
    if (in.rst_n) {
      handshakes(in, o);
    } else {
      pending.clear();  // reads in flight are lost with the walkers
    }
    m.posedge(in);
    ev.push_back(m.events());
    ++cyc;
  }
  void run_to(unsigned c) {
    while (cyc < c) step();
  }
  // Cycles in which an output flag was set.
  std::vector<unsigned> cycles(const std::function<bool(const IommuSysOut&)>& f) const {
    std::vector<unsigned> v;
    for (unsigned c = 0; c < out.size(); ++c) {
      if (f(out[c])) v.push_back(c);
    }
    return v;
  }
  std::vector<unsigned> ev_cycles(bool IommuEvents::*e) const {
    std::vector<unsigned> v;
    for (unsigned c = 0; c < ev.size(); ++c) {
      if (ev[c].*e) v.push_back(c);
    }
    return v;
  }
  std::vector<unsigned> ready_cycles(unsigned port) const {
    return cycles([port](const IommuSysOut& o) { return o.req_ready[port] != 0; });
  }
  std::vector<unsigned> resp_cycles(unsigned port) const {
    return cycles([port](const IommuSysOut& o) { return o.resp_valid[port] != 0; });
  }
  std::vector<unsigned> read_cycles() const {
    std::vector<unsigned> v;
    for (const Read& r : reads) v.push_back(r.cycle);
    return v;
  }
  std::vector<unsigned> read_levels() const {
    std::vector<unsigned> v;
    for (const Read& r : reads) v.push_back(r.level);
    return v;
  }
  const Ans* answer(unsigned port, uint64_t tag) const {
    for (const Ans& a : answers) {
      if (a.port == port && a.tag == tag) return &a;
    }
    return nullptr;
  }
};

using Cycles = std::vector<unsigned>;

Cycles range(unsigned from, unsigned to) {  // from .. to inclusive
  Cycles v;
  for (unsigned c = from; c <= to; ++c) v.push_back(c);
  return v;
}

// ===========================================================================
// Parameters

TEST(IommuParams, ValidatesTheDerivedWidths) {
  EXPECT_NO_THROW(IommuSysModel{mk(Shape{})});
  auto bad = [](IommuParams p, const char* what) {
    try {
      IommuSysModel m(p);
      ADD_FAILURE() << "accepted: " << what;
    } catch (const std::invalid_argument& e) {
      SUCCEED() << e.what();
    }
  };
  IommuParams p = mk(Shape{});
  p.l2.sets = 8;
  bad(p, "S != N / W");
  p = mk(Shape{});
  p.l2.tag_bits = 12;
  bad(p, "tag bits != VPN - SI");
  Shape s;
  s.waiters = 1;  // "R ... at least P" (P = 2)
  bad(mk(s), "R < P");
  s = Shape{};
  s.stages = 2;  // "D | lookup pipeline stages (3-16)"
  bad(mk(s), "D = 2");
  p = mk(Shape{});
  p.sched.vpn_bits = 12;  // must be VM + VPN = 14
  bad(p, "scheduler VPN without the VMID");
  p = mk(Shape{});
  p.l2.mshr_count_bits = 2;  // clog2(M + 1) = clog2(5) = 3
  bad(p, "mshr_count_bits");
}

// ===========================================================================
// Hits and misses

// Insert X at c0 (it enters at c0: nothing else competes; stages c1 .. cD,
// written at edge D). A lookup of X driven from c0 loses c0 to the insert
// (one operation per cycle, insert before lookup) and its set is busy in c1
// .. cD, so it is taken in c(D+1) and answered in c(D+1) + D + 2 = c(2D+3),
// with the inserted PPN (not the page table's), for one cycle.
TEST(IommuL2, HitIsAnsweredDPlus2CyclesAfterItIsTaken) {
  for (unsigned d : {3u, 5u}) {
    SCOPED_TRACE("D = " + std::to_string(d));
    Sys s(with_d(d));
    const uint64_t x = V(1, 2, 3);
    s.ins(0, x, 1, 0x2A5, 5);
    s.req(0, 0, x, 1, 9);
    s.run_to(2 * d + 8);
    EXPECT_EQ(s.cycles([](const IommuSysOut& o) { return o.ins_ready; }), Cycles{0});
    EXPECT_EQ(s.ready_cycles(0), Cycles{d + 1});
    EXPECT_EQ(s.ev_cycles(&IommuEvents::l2_hit), Cycles{2 * d + 1});
    EXPECT_EQ(s.resp_cycles(0), Cycles{2 * d + 3});
    const IommuSysOut& o = s.out.at(2 * d + 3);
    EXPECT_EQ(o.resp_tag[0], 9u);
    EXPECT_EQ(o.resp_vpn[0], x);
    EXPECT_EQ(o.resp_vmid[0], 1u);
    EXPECT_EQ(o.resp_ppn[0], 0x2A5u);
    EXPECT_EQ(o.resp_perm[0], 5u);
    EXPECT_TRUE(s.reads.empty()) << "a hit reads no memory";
    EXPECT_EQ(s.cycles([](const IommuSysOut& y) { return y.mshrs != 0; }), Cycles{});
    EXPECT_EQ(s.m.l2().valid_waiters(), 0u) << "the slot is freed when the answer register loads";
  }
}

// The whole miss path of the header's timeline with t = 0, X = V(1, 2, 3),
// VMID 1 (set 3).
TEST(IommuSys, MissWalksEveryLevelAnswersTheWaiterAndFillsTheArray) {
  Sys s{Shape{}};
  const uint64_t x = V(1, 2, 3);
  s.req(0, 0, x, 1, 6, 17);
  s.run_to(30);
  EXPECT_EQ(s.ready_cycles(0), Cycles{0});
  EXPECT_EQ(s.ev_cycles(&IommuEvents::l2_miss_alloc), Cycles{3});
  EXPECT_EQ(s.cycles([](const IommuSysOut& o) { return o.mshrs == 1; }), range(4, 22));
  EXPECT_EQ(s.ev_cycles(&IommuEvents::iommu_sched_bypass), Cycles{6});
  EXPECT_EQ(s.ev_cycles(&IommuEvents::iommu_walk_full), Cycles{8}) << "empty PWCs: acc = LV";
  EXPECT_EQ(s.cycles([](const IommuSysOut& o) { return o.walk_busy == 1; }), range(7, 17));
  EXPECT_EQ(s.read_cycles(), (Cycles{10, 13, 16}));
  EXPECT_EQ(s.read_levels(), (Cycles{1, 2, 3}));
  for (const auto& r : s.reads) {
    EXPECT_EQ(r.walker, 0u);
    EXPECT_EQ(r.vpn, x);
    EXPECT_EQ(r.vmid, 1u);
  }
  // The memory request register keeps its fields when it becomes empty.
  EXPECT_FALSE(s.out.at(17).mem_req_valid);
  EXPECT_EQ(s.out.at(17).mem_req_level, 3u);
  EXPECT_EQ(s.out.at(17).mem_req_vpn, x);
  EXPECT_EQ(s.ev_cycles(&IommuEvents::iommu_leaf_answer), Cycles{17});
  EXPECT_EQ(s.ev_cycles(&IommuEvents::l2_fill_enter), Cycles{19});
  EXPECT_EQ(s.resp_cycles(0), Cycles{20});
  const IommuSysOut& o = s.out.at(20);
  EXPECT_EQ(o.resp_tag[0], 6u);
  EXPECT_EQ(o.resp_ppn[0], s.ppn(1, x));
  EXPECT_EQ(o.resp_perm[0], s.perm(1, x));
  EXPECT_EQ(s.out.at(21).resp_ppn[0], s.ppn(1, x)) << "the answer register keeps its fields";
  // The array: written at edge 22 into way 0 (an empty set: every node's
  // bit is 0, both sides invalid -> the lower side).
  EXPECT_EQ(s.ev_cycles(&IommuEvents::l2_fill_write_victim), Cycles{22});
  EXPECT_EQ(s.ev_cycles(&IommuEvents::l2_victim_invalid_way), Cycles{22});
  EXPECT_TRUE(s.m.l2().way_valid(3, 0));
  EXPECT_EQ(s.m.l2().way_vpn(3, 0), x);
  EXPECT_EQ(s.m.l2().way_ppn(3, 0), s.ppn(1, x));
  // Touching way 0: node 1 -> 1 (upper half LRU), node 2 -> 1 (way 1).
  EXPECT_EQ(s.m.l2().plru_bit(3, 1), 1u);
  EXPECT_EQ(s.m.l2().plru_bit(3, 2), 1u);
  EXPECT_EQ(s.m.l2().plru_bit(3, 3), 0u);
  EXPECT_EQ(s.m.l2().valid_mshrs(), 0u);
  EXPECT_EQ(s.m.iommu().sched().pwc_acc((uint64_t{1} << 12) | V(1, 2, 9)), 1u);
}

// The same miss with the walk answer register: the IOMMU's answer in c18 is
// in the register in c19, so everything after it is a cycle later: MSHR
// filled and the waiter ready at edge 19, the fill entering at edge 20, the
// answer in c21, the array written at edge 23 (mshrs_o = 1 in c4 .. c23).
TEST(IommuSys, AnswerRegisterActsOnTheWalkAnswerACycleLater) {
  Shape sh;
  sh.answer_register = true;
  Sys s{sh};
  const uint64_t x = V(1, 2, 3);
  s.req(0, 0, x, 1, 6, 17);
  s.run_to(30);
  EXPECT_EQ(s.read_cycles(), (Cycles{10, 13, 16}));
  EXPECT_EQ(s.ev_cycles(&IommuEvents::iommu_leaf_answer), Cycles{17});
  EXPECT_EQ(s.ev_cycles(&IommuEvents::l2_fill_enter), Cycles{20});
  EXPECT_EQ(s.resp_cycles(0), Cycles{21});
  EXPECT_EQ(s.out.at(21).resp_ppn[0], s.ppn(1, x));
  EXPECT_EQ(s.cycles([](const IommuSysOut& o) { return o.mshrs == 1; }), range(4, 23));
  EXPECT_EQ(s.ev_cycles(&IommuEvents::l2_fill_write_victim), Cycles{23});
  EXPECT_EQ(s.m.l2().way_ppn(3, 0), s.ppn(1, x));
}

// After X = V(1, 2, 3)'s walk (PWC level 1 {1, 1}, level 2 {1, 1, 2} from
// c20), three more misses, each taken at t and timed as in the header:
//  - Y = V(1, 2, 4) at t = 25: level 2 hits, acc = 1 (dispatch pulse t+8 =
//    c33): the walker starts at level 3; one read in t+10 = c35, answered c36,
//    IOMMU resp c37, filled at edge 37, answer c39;
//  - Z = V(1, 5, 6) at t = 45: level 1 hits, acc = 2: reads at level 2 in
//    c55 and level 3 in c58 (answered c59), answer c62;
//  - X with VMID 2 at t = 70: the PWC tags hold the VMID, so acc = 3: reads
//    in c80, c83, c86, answer c90. Its set 3 holds X (VMID 1) in way 0: node
//    1 = 1 -> the upper half, node 3 = 0 with both invalid -> way 2.
TEST(IommuSys, PageWalkCachesShortenANeighboursWalk) {
  Sys s{Shape{}};
  const uint64_t x = V(1, 2, 3), y = V(1, 2, 4), z = V(1, 5, 6);
  s.req(0, 0, x, 1, 1);
  s.req(25, 0, y, 1, 2);
  s.req(45, 0, z, 1, 3);
  s.req(70, 0, x, 2, 4);
  s.run_to(95);
  EXPECT_EQ(s.ready_cycles(0), (Cycles{0, 25, 45, 70}));
  EXPECT_EQ(s.read_cycles(), (Cycles{10, 13, 16, 35, 55, 58, 80, 83, 86}));
  EXPECT_EQ(s.read_levels(), (Cycles{1, 2, 3, 3, 2, 3, 1, 2, 3}));
  EXPECT_EQ(s.ev_cycles(&IommuEvents::iommu_walk_leaf_first_read), Cycles{33});
  EXPECT_EQ(s.ev_cycles(&IommuEvents::iommu_walk_partial), Cycles{53});
  EXPECT_EQ(s.ev_cycles(&IommuEvents::iommu_walk_full), (Cycles{8, 78}));
  EXPECT_EQ(s.resp_cycles(0), (Cycles{20, 39, 62, 90}));
  EXPECT_EQ(s.out.at(39).resp_ppn[0], s.ppn(1, y));
  EXPECT_EQ(s.out.at(62).resp_ppn[0], s.ppn(1, z));
  EXPECT_EQ(s.out.at(90).resp_ppn[0], s.ppn(2, x));
  EXPECT_EQ(s.out.at(90).resp_vmid[0], 2u);
  EXPECT_EQ(s.m.l2().way_vpn(3, 2), x);
  EXPECT_EQ(s.m.l2().way_vmid(3, 2), 2u);
  EXPECT_EQ(s.m.l2().find(x, 1), 0);
}

// ===========================================================================
// MSHR merge

// Both ports ask for X from c0. Port 0 is taken at c0 (rr = 0); port 1's set
// is busy in c1 .. c3, taken at c4; at its stage D (c7) the MSHR allocated at
// edge 3 is valid and unfilled: the slot records it. The walk answer (c18)
// readies both slots, both answer registers load at edge 19: one walk, two
// answers in c20.
TEST(IommuSys, MergeOfTwoPortsRequestsMakesOneWalkAndTwoAnswers) {
  Sys s{Shape{}};
  const uint64_t x = V(1, 2, 3);
  s.req(0, 0, x, 1, 1);
  s.req(0, 1, x, 1, 2);
  s.run_to(30);
  EXPECT_EQ(s.ready_cycles(0), Cycles{0});
  EXPECT_EQ(s.ready_cycles(1), Cycles{4});
  EXPECT_EQ(s.ev_cycles(&IommuEvents::l2_set_busy_stall), range(1, 3));
  EXPECT_EQ(s.ev_cycles(&IommuEvents::l2_miss_alloc), Cycles{3});
  EXPECT_EQ(s.ev_cycles(&IommuEvents::l2_merge_waiting), Cycles{7});
  EXPECT_EQ(s.ev_cycles(&IommuEvents::l2_walk_answer_many), Cycles{18});
  EXPECT_EQ(s.ev_cycles(&IommuEvents::l2_two_answers), Cycles{19});
  EXPECT_EQ(s.read_cycles(), (Cycles{10, 13, 16})) << "one walk";
  EXPECT_EQ(s.resp_cycles(0), Cycles{20});
  EXPECT_EQ(s.resp_cycles(1), Cycles{20});
  EXPECT_EQ(s.out.at(20).resp_tag[1], 2u);
  EXPECT_EQ(s.out.at(20).resp_ppn[1], s.ppn(1, x));
  EXPECT_EQ(s.cycles([](const IommuSysOut& o) { return o.mshrs > 1; }), Cycles{});
}

// Port 0 asks for X at c0 (walk answer in c18, MSHR filled at edge 18).
// Port 1 asks for X at t, set free, so stage D is t+3:
//  - t = 14: stage D c17, MSHR unfilled: records it; readied at edge 18,
//    answered c20;
//  - t = 15: stage D c18, "filled (also by this edge's walk answer)": ready
//    at edge 18 with the answer's PPN, answered c20; the set is free in c19,
//    the fill enters at edge 19;
//  - t = 16: stage D c19, MSHR filled before: ready at edge 19, answered c21;
//    the lookup holds the set in c19, so the fill waits and enters at edge
//    20 (written at edge 23).
TEST(IommuSys, MergeAtTheEdgeOfTheWalkAnswer) {
  const uint64_t x = V(1, 2, 3);
  struct Case {
    unsigned t, resp, fill_enter;
    bool same_edge, waiting;
  };
  for (const Case& k : {Case{14, 20, 19, false, true}, Case{15, 20, 19, true, false}, Case{16, 21, 20, false, false}}) {
    SCOPED_TRACE("t = " + std::to_string(k.t));
    Sys s{Shape{}};
    s.req(0, 0, x, 1, 1);
    s.req(k.t, 1, x, 1, 2);
    s.run_to(30);
    EXPECT_EQ(s.ready_cycles(1), Cycles{k.t});
    EXPECT_EQ(s.resp_cycles(0), Cycles{20});
    EXPECT_EQ(s.resp_cycles(1), Cycles{k.resp});
    EXPECT_EQ(s.out.at(k.resp).resp_ppn[1], s.ppn(1, x));
    EXPECT_EQ(s.out.at(k.resp).resp_perm[1], s.perm(1, x));
    EXPECT_EQ(s.ev_cycles(&IommuEvents::l2_merge_same_edge_answer), k.same_edge ? Cycles{18} : Cycles{});
    EXPECT_EQ(s.ev_cycles(&IommuEvents::l2_merge_waiting), k.waiting ? Cycles{17} : Cycles{});
    EXPECT_EQ(s.ev_cycles(&IommuEvents::l2_merge_filled).size(), k.waiting ? 0u : 1u);
    EXPECT_EQ(s.ev_cycles(&IommuEvents::l2_fill_enter), Cycles{k.fill_enter});
    EXPECT_EQ(s.ev_cycles(&IommuEvents::l2_fill_set_busy), k.fill_enter == 20 ? Cycles{19} : Cycles{});
    EXPECT_EQ(s.read_cycles().size(), 3u) << "one walk";
  }
}

// ===========================================================================
// Entry rules

// Two requests of one set (V(1, 2, 0), V(1, 3, 0): set 0): the first taken at
// c0 holds its set in c1 .. cD, the second is taken in c(D+1). Two of
// different sets (set 0 and set 1) are taken in c0 and c1.
TEST(IommuL2, SetBusyRuleSerializesOneSetOnly) {
  for (unsigned d : {3u, 5u}) {
    SCOPED_TRACE("D = " + std::to_string(d));
    Sys same(with_d(d));
    same.req(0, 0, V(1, 2, 0), 1, 1);
    same.req(0, 1, V(1, 3, 0), 1, 2);
    same.run_to(d + 4);
    EXPECT_EQ(same.ready_cycles(0), Cycles{0});
    EXPECT_EQ(same.ready_cycles(1), Cycles{d + 1});
    EXPECT_EQ(same.ev_cycles(&IommuEvents::l2_set_busy_stall), range(1, d));
    Sys diff(with_d(d));
    diff.req(0, 0, V(1, 2, 0), 1, 1);
    diff.req(0, 1, V(1, 2, 1), 1, 2);
    diff.run_to(4);
    EXPECT_EQ(diff.ready_cycles(0), Cycles{0});
    EXPECT_EQ(diff.ready_cycles(1), Cycles{1});
  }
}

// The round-robin: three requests of different sets on port 1 and one on
// port 0, all valid from c0. c0: rr = 0 -> port 0 (rr = 1); c1: port 1
// (rr = 0); c2: port 0 is idle, the first valid at or after rr = 0 is port
// 1 (an rr skip, rr = 0 again); c3: port 1 again, another skip.
TEST(IommuL2, RoundRobinOverThePorts) {
  Sys s{Shape{}};
  s.req(0, 0, V(1, 1, 0), 1, 1);
  s.req(0, 1, V(1, 1, 1), 1, 2);
  s.req(0, 1, V(1, 1, 2), 1, 3);
  s.req(0, 1, V(1, 1, 3), 1, 4);
  s.run_to(5);
  EXPECT_EQ(s.ready_cycles(0), Cycles{0});
  EXPECT_EQ(s.ready_cycles(1), (Cycles{1, 2, 3}));
  EXPECT_EQ(s.ev_cycles(&IommuEvents::l2_rr_skip), (Cycles{2, 3}));
  EXPECT_EQ(s.m.l2().rr(), 0u);
}

// "free_mshrs > lookups": port 0 asks for A (set 0), port 1 for B (set 1),
// both from c0. With M = 2, B is taken at c1 (2 free > 1 lookup). With M =
// 1: in c1 .. c3 one lookup is in flight (1 free, not > 1); from edge 3 the
// MSHR is taken (0 free) until A's fill frees it at edge 22: B is taken in
// c23.
TEST(IommuL2, MshrAdmissionRule) {
  for (unsigned m : {1u, 2u}) {
    SCOPED_TRACE("M = " + std::to_string(m));
    Shape sh;
    sh.mshrs = m;
    Sys s(sh);
    s.req(0, 0, V(1, 2, 0), 1, 1);
    s.req(0, 1, V(1, 2, 1), 1, 2);
    s.run_to(60);
    EXPECT_EQ(s.ready_cycles(0), Cycles{0});
    const unsigned b = m == 1 ? 23 : 1;
    EXPECT_EQ(s.ready_cycles(1), Cycles{b});
    EXPECT_EQ(s.ev_cycles(&IommuEvents::l2_mshr_stall), m == 1 ? range(1, 22) : Cycles{});
    ASSERT_NE(s.answer(1, 2), nullptr);
    EXPECT_EQ(s.answer(1, 2)->ppn, s.ppn(1, V(1, 2, 1)));
  }
}

// P = R = M = 1. Inserts of A, C, E (sets 0, 1, 2) enter at c0, c1, c2.
// Lookups of A, C, E in turn from c6 (tags 1, 2, 3); resp_ready = 0 in
// c11 .. c19:
//  - A taken c6, ready at edge 9 (hit), the empty answer register loads it
//    at edge 10 (slot freed): resp_valid from c11, held to c20 (taken c20);
//  - C waits for the slot in c7 .. c10 (waiter stall), taken c11, ready at
//    edge 14; the answer register is held, so the slot stays valid;
//  - E waits in c12 .. c20; at edge 20 the register takes C (slot freed),
//    E is taken c21; C's answer is in c21 (taken); E ready at edge 24,
//    loaded at edge 25: resp_valid c26.
TEST(IommuL2, WaiterExhaustionAndAnswerBackPressure) {
  Shape sh;
  sh.ports = 1;
  sh.waiters = 1;
  sh.mshrs = 1;
  Sys s(sh);
  const uint64_t a = V(1, 2, 0), c = V(1, 2, 1), e = V(1, 2, 2);
  s.ins(0, a, 1, 0x101);
  s.ins(0, c, 1, 0x102);
  s.ins(0, e, 1, 0x103);
  s.req(6, 0, a, 1, 1);
  s.req(6, 0, c, 1, 2);
  s.req(6, 0, e, 1, 3);
  s.resp_ready = [](unsigned cy, unsigned) { return cy < 11 || cy > 19; };
  s.run_to(30);
  EXPECT_EQ(s.cycles([](const IommuSysOut& o) { return o.ins_ready; }), (Cycles{0, 1, 2}));
  EXPECT_EQ(s.ready_cycles(0), (Cycles{6, 11, 21}));
  Cycles stall = range(7, 10);
  for (unsigned cy = 12; cy <= 20; ++cy) stall.push_back(cy);
  EXPECT_EQ(s.ev_cycles(&IommuEvents::l2_waiter_stall), stall);
  EXPECT_EQ(s.ev_cycles(&IommuEvents::l2_resp_backpressure), range(11, 19));
  Cycles valid = range(11, 21);
  valid.push_back(26);
  EXPECT_EQ(s.resp_cycles(0), valid);
  for (unsigned cy = 11; cy <= 20; ++cy) {
    EXPECT_EQ(s.out.at(cy).resp_tag[0], 1u) << "c" << cy;
    EXPECT_EQ(s.out.at(cy).resp_ppn[0], 0x101u) << "c" << cy;
  }
  EXPECT_EQ(s.out.at(21).resp_tag[0], 2u);
  EXPECT_EQ(s.out.at(21).resp_ppn[0], 0x102u);
  EXPECT_EQ(s.out.at(23).resp_tag[0], 2u) << "an empty answer register keeps its fields";
  EXPECT_EQ(s.out.at(26).resp_tag[0], 3u);
  EXPECT_EQ(s.out.at(26).resp_ppn[0], 0x103u);
  ASSERT_EQ(s.answers.size(), 3u);
  EXPECT_EQ(s.answers[0].cycle, 20u);
}

// ===========================================================================
// Inserts and shootdowns

// Insert A (PPN 0x100) at c0 (written at edge 3); insert A again (PPN 0x200)
// from c1: the set is busy in c1 .. c3, taken c4 (before the lookup of A
// driven from c1: insert before lookup), written at edge 7 over the present
// way; the lookup is taken c8 and answered c13 with 0x200. One way holds A.
TEST(IommuL2, InsertThenLookupHitsAndAnInsertReplacesAPresentTranslation) {
  Sys s{Shape{}};
  const uint64_t a = V(1, 2, 0);
  s.ins(0, a, 1, 0x100, 1);
  s.ins(1, a, 1, 0x200, 2);
  s.req(1, 0, a, 1, 5);
  s.run_to(16);
  EXPECT_EQ(s.cycles([](const IommuSysOut& o) { return o.ins_ready; }), (Cycles{0, 4}));
  EXPECT_EQ(s.ev_cycles(&IommuEvents::l2_fill_write_victim), Cycles{3});
  EXPECT_EQ(s.ev_cycles(&IommuEvents::l2_fill_write_hit), Cycles{7});
  EXPECT_EQ(s.ready_cycles(0), Cycles{8});
  EXPECT_EQ(s.resp_cycles(0), Cycles{13});
  EXPECT_EQ(s.out.at(13).resp_ppn[0], 0x200u);
  EXPECT_EQ(s.out.at(13).resp_perm[0], 2u);
  unsigned copies = 0;
  for (unsigned w = 0; w < 4; ++w) copies += s.m.l2().way_valid(0, w);
  EXPECT_EQ(copies, 1u);
  EXPECT_TRUE(s.reads.empty());
}

// X's lookup at c0 (walk as in the header). The shootdown of X, driven from
// c5, waits: the MSHR is valid until edge 22 (c5 .. c19 with an empty
// pipeline: l2_sd_waits_for_walk), the fill enters at c19 (fill first) and
// is in flight in c20 .. c22; the shootdown enters c23, acts at edge 26
// (sd_done in c27 only). Y (set 1) on port 1 from c6 is held back by
// sd_valid until c23 and taken c24.
TEST(IommuL2, ShootdownOfOneVpnWaitsForItsWalkThenInvalidates) {
  Sys s{Shape{}};
  const uint64_t x = V(1, 2, 3), y = V(1, 2, 1);
  s.req(0, 0, x, 1, 1);
  s.sd(5, false, x, 1);
  s.req(6, 1, y, 1, 2);
  s.run_to(26);
  EXPECT_TRUE(s.m.l2().way_valid(3, 0)) << "written at edge 22, still valid in c26";
  s.run_to(32);
  EXPECT_EQ(s.ev_cycles(&IommuEvents::l2_sd_waits_for_walk), range(5, 19));
  EXPECT_EQ(s.cycles([](const IommuSysOut& o) { return o.sd_ready; }), Cycles{23});
  EXPECT_EQ(s.ev_cycles(&IommuEvents::l2_shootdown_one_hit), Cycles{26});
  EXPECT_EQ(s.cycles([](const IommuSysOut& o) { return o.sd_done; }), Cycles{27});
  EXPECT_EQ(s.ready_cycles(1), Cycles{24});
  EXPECT_EQ(s.resp_cycles(0), Cycles{20}) << "answers are not held by a shootdown";
  EXPECT_FALSE(s.m.l2().way_valid(3, 0));
  EXPECT_EQ(s.m.l2().find(x, 1), -1);
}

// Inserts A (set 0) at c0 and B (set 1) at c1; X (set 3) asked at c2 (walk
// of the header with t = 2: MSHR valid until edge 24). A shootdown of
// everything from c6 waits for it and enters c25 (pipeline empty, no valid
// MSHR), acting at edge 28 (sd_done c29). A's lookup on port 1 from c7 is
// held by sd_valid until c25, then by every set being busy in c26 .. c28:
// taken c29, a miss (walk).
TEST(IommuL2, ShootdownOfEverything) {
  Sys s{Shape{}};
  const uint64_t a = V(1, 2, 0), b = V(1, 2, 1), x = V(1, 2, 3);
  s.ins(0, a, 1, 0x10);
  s.ins(0, b, 1, 0x11);
  s.req(2, 0, x, 1, 1);
  s.sd(6, true);
  s.req(7, 1, a, 1, 2);
  s.run_to(28);
  std::vector<unsigned> plru;
  for (unsigned set = 0; set < 4; ++set)
    for (unsigned n = 1; n < 4; ++n) plru.push_back(s.m.l2().plru_bit(set, n));
  EXPECT_TRUE(s.m.l2().way_valid(3, 0));
  s.run_to(30);
  EXPECT_EQ(s.cycles([](const IommuSysOut& o) { return o.sd_ready; }), Cycles{25});
  EXPECT_EQ(s.ev_cycles(&IommuEvents::l2_shootdown_all), Cycles{28});
  EXPECT_EQ(s.cycles([](const IommuSysOut& o) { return o.sd_done; }), Cycles{29});
  for (unsigned set = 0; set < 4; ++set)
    for (unsigned w = 0; w < 4; ++w) EXPECT_FALSE(s.m.l2().way_valid(set, w));
  std::vector<unsigned> after;
  for (unsigned set = 0; set < 4; ++set)
    for (unsigned n = 1; n < 4; ++n) after.push_back(s.m.l2().plru_bit(set, n));
  EXPECT_EQ(after, plru) << "the pseudo-LRU is unchanged";
  s.run_to(60);
  EXPECT_EQ(s.resp_cycles(0), Cycles{22});
  EXPECT_EQ(s.ready_cycles(1), Cycles{29});
  EXPECT_EQ(s.ev_cycles(&IommuEvents::l2_miss_alloc), (Cycles{5, 32}));
  ASSERT_NE(s.answer(1, 2), nullptr);
  EXPECT_EQ(s.answer(1, 2)->ppn, s.ppn(1, a)) << "after the shootdown A is walked again";
}

// Inserts of P0 .. P6 = V(1, i, 0), all set 0, taken D + 1 = 4 cycles apart
// (c0, 4, 8, 12, 16), then a lookup of P1 (c20, after P4's set is free;
// touches P1's way at edge 23), P5 at c24, P6 at c28. Hand walk of the tree
// (node bits 1, 2, 3; 1 = upper half less recently used):
//  P0: all invalid, bits 0 -> way 0; touch: 1, 1, 0.
//  P1: both halves hold invalid ways -> node 1 bit 1 -> upper; node 3 both
//      invalid, bit 0 -> way 2; touch: 0, 1, 1.
//  P2: both halves hold invalid -> lower; node 2: only way 1 invalid -> way 1;
//      touch: 1, 0, 1.
//  P3: only the upper half holds an invalid way -> upper; only way 3 -> way
//      3; touch: 0, 0, 0.
//  P4: full: 0 -> lower, node 2 = 0 -> way 0 (P0 out); touch: 1, 1, 0.
//  lookup P1 (way 2): touch: 0, 1, 1.
//  P5: 0 -> lower, node 2 = 1 -> way 1 (P2 out); touch: 1, 0, 1.
//  P6: 1 -> upper, node 3 = 1 -> way 3 (P3 out); touch: 0, 0, 0.
// Then a shootdown of P6 (c32, acts at edge 35, bits unchanged) and P7 from
// c33 (set busy to c35, taken c36, written at edge 39): node 1 says lower
// but only the upper half has an invalid way; node 3 says way 2 but way 3 is
// invalid -> way 3.
TEST(IommuL2, VictimIsAnInvalidWayFirstThenThePseudoLruOne) {
  Sys s{Shape{}};
  auto P = [](uint64_t i) { return V(1, i, 0); };
  for (unsigned i = 0; i <= 4; ++i) s.ins(0, P(i), 1, 0x40 + i);
  s.req(17, 0, P(1), 1, 1);
  s.ins(24, P(5), 1, 0x45);
  s.ins(28, P(6), 1, 0x46);
  s.sd(32, false, P(6), 1);
  s.ins(33, P(7), 1, 0x47);
  s.run_to(32);
  EXPECT_EQ(s.cycles([](const IommuSysOut& o) { return o.ins_ready; }), (Cycles{0, 4, 8, 12, 16, 24, 28}));
  EXPECT_EQ(s.ready_cycles(0), Cycles{20});
  EXPECT_EQ(s.ev_cycles(&IommuEvents::l2_victim_invalid_way), (Cycles{3, 7, 11, 15}));
  EXPECT_EQ(s.ev_cycles(&IommuEvents::l2_victim_plru), (Cycles{19, 27, 31}));
  const L2tlbModel& l2 = s.m.l2();
  EXPECT_EQ(l2.way_vpn(0, 0), P(4));
  EXPECT_EQ(l2.way_vpn(0, 1), P(5));
  EXPECT_EQ(l2.way_vpn(0, 2), P(1));
  EXPECT_EQ(l2.way_vpn(0, 3), P(6));
  EXPECT_EQ(l2.plru_bit(0, 1), 0u);
  EXPECT_EQ(l2.plru_bit(0, 2), 0u);
  EXPECT_EQ(l2.plru_bit(0, 3), 0u);
  EXPECT_EQ(s.resp_cycles(0), Cycles{25});
  EXPECT_EQ(s.out.at(25).resp_ppn[0], 0x41u);
  s.run_to(41);
  EXPECT_EQ(s.cycles([](const IommuSysOut& o) { return o.sd_ready; }), Cycles{32});
  EXPECT_EQ(s.cycles([](const IommuSysOut& o) { return o.ins_ready; }).back(), 36u);
  EXPECT_EQ(s.ev_cycles(&IommuEvents::l2_victim_mixed), Cycles{39});
  EXPECT_EQ(l2.way_vpn(0, 3), P(7));
  EXPECT_TRUE(l2.way_valid(0, 3));
  EXPECT_EQ(l2.way_vpn(0, 2), P(1));
}

// ===========================================================================
// The IOMMU's memory port

// K = 3. Lookups X0, X1, X2 (sets 0, 1, 2) taken c0 (port 0), c1 (port 1),
// c2 (port 0): MSHRs at edges 3, 4, 5. The walk request register: M0 at
// edge 4 (accepted edge 5), M1 at edge 5, held in c6 (a1 full: fcfs ready =
// a1 empty), accepted edge 7, M2 valid c8, held, accepted edge 9. Bypasses
// at edges 6, 8, 10 to walkers 0, 1, 2: pulses c8, c10, c12, wants from c9,
// c11, c13. The memory register loads w0 at edge 9 (wr = 1); memory is not
// ready in c10 .. c18, so (w0, level 1) is held with its fields while w1
// (c11) and w2 (c13) wait (two want in c13 .. c19). From c19 reads are taken every cycle in the
// round-robin order w1, w2 after w0 (wr), each answered in the next cycle:
// 19 w0 L1, 20 w1 L1, 21 w2 L1, 22 w0 L2, 23 w1 L2, 24 w2 L2, 25 w0 L3, 26
// w1 L3, 27 w2 L3. Leaf answers c26, c27, c28 -> MSHRs filled at edges 27,
// 28, 29 -> answers: port 0 X0 c29, port 1 X1 c30, port 0 X2 c31 (the port 0
// register reloads at edge 29, before X2's slot is ready).
TEST(IommuSys, MemoryBackPressureAndTheWalkersRoundRobin) {
  Shape sh;
  sh.walkers = 3;
  Sys s(sh);
  const uint64_t x0 = V(1, 1, 0), x1 = V(1, 1, 1), x2 = V(1, 1, 2);
  s.req(0, 0, x0, 1, 1);
  s.req(0, 1, x1, 1, 2);
  s.req(0, 0, x2, 1, 3);
  s.mem_ready = [](unsigned c) { return c < 10 || c > 18; };
  s.run_to(40);
  EXPECT_EQ(s.ready_cycles(0), (Cycles{0, 2}));
  EXPECT_EQ(s.ready_cycles(1), Cycles{1});
  EXPECT_EQ(s.ev_cycles(&IommuEvents::l2_walk_backpressure), (Cycles{6, 8}));
  EXPECT_EQ(s.ev_cycles(&IommuEvents::iommu_sched_bypass), (Cycles{6, 8, 10}));
  EXPECT_EQ(s.ev_cycles(&IommuEvents::iommu_mem_backpressure), range(10, 18));
  EXPECT_EQ(s.ev_cycles(&IommuEvents::iommu_two_walkers_want), range(13, 19));
  for (unsigned c = 10; c <= 18; ++c) {
    const IommuSysOut& o = s.out.at(c);
    EXPECT_TRUE(o.mem_req_valid) << "c" << c;
    EXPECT_EQ(o.mem_req_walker, 0u) << "c" << c;
    EXPECT_EQ(o.mem_req_level, 1u) << "c" << c;
    EXPECT_EQ(o.mem_req_vpn, x0) << "c" << c;
    EXPECT_EQ(o.mem_req_vmid, 1u) << "c" << c;
  }
  EXPECT_EQ(s.read_cycles(), range(19, 27));
  std::vector<unsigned> walkers;
  for (const auto& r : s.reads) walkers.push_back(r.walker);
  EXPECT_EQ(walkers, (Cycles{0, 1, 2, 0, 1, 2, 0, 1, 2}));
  EXPECT_EQ(s.read_levels(), (Cycles{1, 1, 1, 2, 2, 2, 3, 3, 3}));
  EXPECT_EQ(s.resp_cycles(0), (Cycles{29, 31}));
  EXPECT_EQ(s.resp_cycles(1), Cycles{30});
  EXPECT_EQ(s.out.at(31).resp_ppn[0], s.ppn(1, x2));
  EXPECT_EQ(s.out.at(7).walk_busy, 1u);
  EXPECT_EQ(s.out.at(11).walk_busy, 7u);
}

// ===========================================================================
// Reset

// X's walk is under way in c12 (its level-1 read was answered in c11). With
// rst_n = 0 in c12 every output shows the reset state in that very cycle
// (asynchronous), and after edge 12 everything is 0 again: the old request
// is never answered. X asked again at c20 runs the header's timeline from t
// = 20: reads c30, c33, c36, answer c40.
TEST(IommuSys, ResetInTheMiddleClearsEverything) {
  Sys s{Shape{}};
  const uint64_t x = V(1, 2, 3);
  s.req(0, 0, x, 1, 1);
  s.req(20, 0, x, 1, 2);
  s.resets.insert(12);
  s.run_to(12);
  EXPECT_EQ(s.out.at(11).mshrs, 1u);
  EXPECT_EQ(s.out.at(11).walk_busy, 1u);
  s.run_to(13);
  const IommuSysOut& r = s.out.at(12);
  EXPECT_EQ(r.mshrs, 0u);
  EXPECT_EQ(r.walk_busy, 0u);
  EXPECT_FALSE(r.mem_req_valid);
  EXPECT_EQ(r.mem_req_vpn, 0u);
  EXPECT_TRUE(s.ev.at(12).reset);
  EXPECT_EQ(s.m.l2().valid_mshrs(), 0u);
  EXPECT_EQ(s.m.l2().valid_waiters(), 0u);
  EXPECT_TRUE(s.m.l2().pipeline_empty());
  EXPECT_FALSE(s.m.l2().walk_req_valid());
  EXPECT_EQ(s.m.iommu().walker_level(0), 0u);
  EXPECT_FALSE(s.m.iommu().walker_want(0));
  EXPECT_EQ(s.m.iommu().sched().count(), 0u);
  s.run_to(45);
  EXPECT_EQ(s.read_cycles(), (Cycles{10, 30, 33, 36}));
  EXPECT_EQ(s.resp_cycles(0), Cycles{40});
  EXPECT_EQ(s.out.at(40).resp_tag[0], 2u);
  EXPECT_EQ(s.answers.size(), 1u);
}

// ===========================================================================
// The L2-TLB alone, with a scripted walk port

struct L2Sim {
  L2tlbModel m;
  unsigned cyc = 0;
  std::map<unsigned, std::function<void(L2tlbIn&)>> script;
  std::vector<L2tlbOut> out;
  explicit L2Sim(const L2tlbParams& p) : m(p) {}
  void at(unsigned c, std::function<void(L2tlbIn&)> f) { script[c] = std::move(f); }
  void step() {
    L2tlbIn in = m.idle_inputs();
    auto it = script.find(cyc);
    if (it != script.end()) it->second(in);
    out.push_back(m.outputs(in));
    m.posedge(in);
    ++cyc;
  }
  void run_to(unsigned c) {
    while (cyc < c) step();
  }
};

// P = 1, walk_req_ready = 1. C = V(1, 2, 0) taken c0: MSHR 0 at edge 3,
// loaded into the walk request register at edge 4 (issued at edge 4).
//  - c4: an answer for C while MSHR 0 is valid but not issued: "the valid,
//    issued, not yet filled MSHR" -> no match, nothing changes;
//  - c5: an answer for a page with no MSHR: nothing changes;
//  - B = V(1, 2, 1) taken c6 into slot 1, whose MSHR index reads 0 (reset)
//    while its lookup is in stages 1 .. 3 (c7 .. c9);
//  - c7: C's real answer: MSHR 0 filled, slot 0 (recording MSHR 0) ready;
//    slot 1 is not "recording" MSHR 0 (READING in iommu.cpp) and stays not
//    ready; at its stage D (c9) B misses and allocates MSHR 1.
TEST(IommuL2, WalkAnswerRulesAndAFreshSlotIsNotRecording) {
  Shape sh;
  sh.ports = 1;
  L2Sim s(mk(sh).l2);
  const uint64_t c = V(1, 2, 0), b = V(1, 2, 1);
  auto answer = [](uint64_t vpn, uint64_t ppn) {
    return [vpn, ppn](L2tlbIn& in) {
      in.walk_resp_valid = true;
      in.walk_resp_vpn = vpn;
      in.walk_resp_vmid = 1;
      in.walk_resp_ppn = ppn;
      in.walk_resp_perm = 2;
    };
  };
  s.at(0, [c](L2tlbIn& in) {
    in.req_valid[0] = 1;
    in.req_vpn[0] = c;
    in.req_vmid[0] = 1;
    in.req_tag[0] = 3;
  });
  s.at(4, answer(c, 0x77));
  s.at(5, answer(V(3, 3, 3), 0x78));
  s.at(6, [b](L2tlbIn& in) {
    in.req_valid[0] = 1;
    in.req_vpn[0] = b;
    in.req_vmid[0] = 1;
    in.req_tag[0] = 4;
  });
  s.at(7, answer(c, 0x79));
  s.run_to(5);
  EXPECT_TRUE(s.m.mshr_issued(0));
  EXPECT_FALSE(s.m.mshr_filled(0)) << "an answer before the MSHR was issued matches nothing";
  EXPECT_TRUE(s.m.waiter_waiting(0));
  s.run_to(7);
  EXPECT_TRUE(s.out.at(6).req_ready[0]);
  EXPECT_EQ(s.m.valid_mshrs(), 1u);
  EXPECT_TRUE(s.m.waiter_valid(1));
  EXPECT_EQ(s.m.waiter_mshr(1), 0u) << "the fresh slot's index field reads MSHR 0";
  s.run_to(8);
  EXPECT_TRUE(s.m.mshr_filled(0));
  EXPECT_EQ(s.m.mshr_ppn(0), 0x79u);
  EXPECT_TRUE(s.m.waiter_ready(0));
  EXPECT_FALSE(s.m.waiter_ready(1)) << "a slot still in the pipeline records no MSHR";
  s.run_to(10);
  EXPECT_TRUE(s.m.mshr_valid(1));
  EXPECT_EQ(s.m.mshr_vpn(1), b);
  EXPECT_TRUE(s.m.waiter_waiting(1));
  EXPECT_EQ(s.m.waiter_mshr(1), 1u);
  s.run_to(12);
  EXPECT_TRUE(s.out.at(9).resp_valid[0]);
  EXPECT_EQ(s.out.at(9).resp_ppn[0], 0x79u);
  EXPECT_EQ(s.out.at(9).resp_tag[0], 3u);
  for (unsigned cy = 10; cy < 12; ++cy) EXPECT_FALSE(s.out.at(cy).resp_valid[0]);
}

// The IOMMU alone rejects a memory answer for a walker with no read taken.
TEST(IommuWalkers, RejectsAMemoryAnswerWithoutARead) {
  IommuModel m(mk(Shape{}));
  IommuIn in = m.idle_inputs();
  in.mem_resp_valid = true;
  EXPECT_THROW(m.posedge(in), std::invalid_argument);
  in.mem_resp_walker = 3;  // walker_bits = 1: cut to walker 1, which has no read either
  EXPECT_THROW(m.posedge(in), std::invalid_argument);
}

// ===========================================================================
// Constrained random traffic against a page-table environment

struct RandomSetup {
  const char* name;
  Shape shape;
  unsigned cycles;
  double req_rate, resp_ready, mem_ready;
  unsigned max_delay;  // a taken read is answered 1 .. max_delay cycles later (one answer per cycle)
  double ins_rate, sd_rate;
  unsigned roots;      // top-level prefixes of the page pool (12 pages each)
  bool reset;          // one reset in the middle
};

struct Coverage {
  std::map<std::string, uint64_t> n;
  void add(const IommuEvents& e) {
#define TXGEN_IOMMU_COUNT(name, meaning) \
  if (e.name) ++n[#name];
    TXGEN_IOMMU_EVENTS(TXGEN_IOMMU_COUNT)
#undef TXGEN_IOMMU_COUNT
  }
};

class RandomRun {
 public:
  RandomRun(const RandomSetup& su, uint64_t seed) : su_(su), p_(mk(su.shape)), m_(p_), rng_(seed) {
    make_pool();
    outstanding_.resize(p_.l2.ports);
    cur_.resize(p_.l2.ports);
    walks_.resize(p_.walkers);
    prev_ = m_.make_outputs();
    prev_in_ = m_.idle_inputs();
  }
  void run(Coverage& cov);

 private:
  struct Page {
    uint64_t vpn = 0, vmid = 0;
    bool operator<(const Page& o) const { return vmid != o.vmid ? vmid < o.vmid : vpn < o.vpn; }
  };
  struct Request {
    bool valid = false;
    Page page;
    uint64_t tag = 0, iid = 0, min_version = 0;
    unsigned taken = 0;
  };
  struct Read {
    unsigned due, walker, level;
    Page page;
  };
  struct Walk {  // the reads of one walker's walk as seen on the memory port
    bool active = false;
    unsigned level = 0;
    Page page;
  };

  uint64_t version(const Page& pg) const {
    auto it = version_.find(pg);
    return it == version_.end() ? 0 : it->second;
  }
  bool chance(double p) { return std::uniform_real_distribution<double>(0, 1)(rng_) < p; }
  unsigned pick(size_t n) { return std::uniform_int_distribution<unsigned>(0, static_cast<unsigned>(n) - 1)(rng_); }
  const Page& any_page() { return pool_[pick(pool_.size())]; }
  std::string at() const { return std::string(su_.name) + " c" + std::to_string(cyc_); }

  void make_pool();
  void drive_requests(IommuSysIn& in, bool draining);
  void drive_ins_sd(IommuSysIn& in, bool draining);
  void drive_memory(IommuSysIn& in, bool draining);
  void check_holds(const IommuSysOut& o) const;
  void observe_walk_port();
  void take_request(unsigned q);
  void take_answer(unsigned q, const IommuSysOut& o);
  void take_read(const IommuSysOut& o);
  void handshakes(const IommuSysIn& in, const IommuSysOut& o);
  void check_array() const;
  void after_reset();
  bool idle() const;
  void final_checks() const;

  RandomSetup su_;
  IommuParams p_;
  IommuSysModel m_;
  std::mt19937_64 rng_;
  unsigned cyc_ = 0;
  std::vector<Page> pool_;
  std::map<Page, uint64_t> version_;  // remapped by one-page shootdowns
  std::vector<std::map<uint64_t, Request>> outstanding_;  // per port, by tag
  std::vector<Request> cur_;          // per port: the request held until taken
  bool ins_valid_ = false, sd_valid_ = false;
  IommuSysIn held_;                   // the held insert / shootdown fields
  std::deque<Read> reads_;
  std::vector<Walk> walks_;           // per walker
  std::set<Page> active_walks_;       // walk requests the IOMMU took and has not answered
  IommuSysOut prev_;
  IommuSysIn prev_in_;
  bool prev_live_ = false;
  uint64_t accepted_ = 0, answered_ = 0, walk_requests_ = 0, miss_allocs_ = 0;
};

// Pages with shared prefixes so that the PWCs hit: per root three middle
// tables (LV >= 3) of four leaves each; VMID 1 or 2 (0 or 1 with VM = 1).
void RandomRun::make_pool() {
  const unsigned x = su_.shape.x, vpn = su_.shape.vpn;
  for (unsigned r = 0; r < su_.roots; ++r) {
    const uint64_t root = rng_() & mask(vpn);
    for (unsigned mid = 0; mid < 3; ++mid) {
      uint64_t base = root;
      if (su_.shape.levels >= 3) base = (base & ~(mask(x) << x)) | ((rng_() & mask(x)) << x);
      for (unsigned leaf = 0; leaf < 4; ++leaf) {
        Page pg;
        pg.vpn = ((base & ~mask(x)) | (rng_() & mask(x))) & mask(vpn);
        pg.vmid = (rng_() % 2 + 1) & mask(su_.shape.vm);
        pool_.push_back(pg);
      }
    }
  }
}

void RandomRun::drive_requests(IommuSysIn& in, bool draining) {
  const unsigned tags = 1u << std::min(p_.l2.req_tag_bits, 10u);
  for (unsigned q = 0; q < p_.l2.ports; ++q) {
    in.resp_ready[q] = draining || chance(su_.resp_ready);
    Request& r = cur_[q];
    if (!r.valid && !draining && outstanding_[q].size() < tags && chance(su_.req_rate)) {
      r = Request{};
      r.valid = true;
      r.page = any_page();
      r.tag = rng_() % tags;
      while (outstanding_[q].count(r.tag)) r.tag = (r.tag + 1) % tags;
      r.iid = rng_() % 8;
    }
    if (!r.valid) continue;
    in.req_valid[q] = 1;
    in.req_vpn[q] = r.page.vpn;
    in.req_vmid[q] = r.page.vmid;
    in.req_tag[q] = r.tag;
    in.req_iid[q] = r.iid;
  }
}

// Inserts carry the current translation; a one-page shootdown remaps its
// page (a new version) when it is raised. Never both pending: an insert held
// over a remap would write the stale translation back.
void RandomRun::drive_ins_sd(IommuSysIn& in, bool draining) {
  const bool free = !ins_valid_ && !sd_valid_ && !draining;
  if (free && chance(su_.ins_rate)) {
    const Page pg = any_page();
    ins_valid_ = true;
    held_.ins_vpn = pg.vpn;
    held_.ins_vmid = pg.vmid;
    held_.ins_ppn = ppn_of(pg.vmid, pg.vpn, p_.ppn_bits, version(pg));
    held_.ins_perm = perm_of(pg.vmid, pg.vpn, p_.perm_bits, version(pg));
  } else if (free && chance(su_.sd_rate)) {
    const Page pg = any_page();
    sd_valid_ = true;
    held_.sd_all = chance(0.25);
    held_.sd_vpn = pg.vpn;
    held_.sd_vmid = pg.vmid;
    if (!held_.sd_all) ++version_[pg];
  }
  in.ins_valid = ins_valid_;
  in.ins_vpn = held_.ins_vpn;
  in.ins_vmid = held_.ins_vmid;
  in.ins_ppn = held_.ins_ppn;
  in.ins_perm = held_.ins_perm;
  in.sd_valid = sd_valid_;
  in.sd_all = held_.sd_all;
  in.sd_vpn = held_.sd_vpn;
  in.sd_vmid = held_.sd_vmid;
}

// One answer per cycle: a random read among those due (so walkers' reads
// come back out of order), with the page table's current translation.
void RandomRun::drive_memory(IommuSysIn& in, bool draining) {
  in.mem_req_ready = draining || chance(su_.mem_ready);
  std::vector<size_t> due;
  for (size_t i = 0; i < reads_.size(); ++i) {
    if (reads_[i].due <= cyc_) due.push_back(i);
  }
  if (due.empty()) return;
  const size_t i = due[pick(due.size())];
  const Read r = reads_[i];
  reads_.erase(reads_.begin() + static_cast<std::ptrdiff_t>(i));
  in.mem_resp_valid = true;
  in.mem_resp_walker = r.walker;
  in.mem_resp_ppn = ppn_of(r.page.vmid, r.page.vpn, p_.ppn_bits, version(r.page));
  in.mem_resp_perm = perm_of(r.page.vmid, r.page.vpn, p_.perm_bits, version(r.page));
  if (r.level == p_.levels) walks_[r.walker].active = false;
}

// A held answer keeps its fields; so does a held memory request.
void RandomRun::check_holds(const IommuSysOut& o) const {
  if (!prev_live_) return;
  for (unsigned q = 0; q < p_.l2.ports; ++q) {
    if (!prev_.resp_valid[q] || prev_in_.resp_ready[q]) continue;
    EXPECT_TRUE(o.resp_valid[q] && o.resp_tag[q] == prev_.resp_tag[q] && o.resp_vpn[q] == prev_.resp_vpn[q] &&
                o.resp_vmid[q] == prev_.resp_vmid[q] && o.resp_ppn[q] == prev_.resp_ppn[q] &&
                o.resp_perm[q] == prev_.resp_perm[q])
        << at() << ": a held answer changed on port " << q;
  }
  if (prev_.mem_req_valid && !prev_in_.mem_req_ready) {
    EXPECT_TRUE(o.mem_req_valid && o.mem_req_walker == prev_.mem_req_walker && o.mem_req_level == prev_.mem_req_level &&
                o.mem_req_vpn == prev_.mem_req_vpn && o.mem_req_vmid == prev_.mem_req_vmid)
        << at() << ": a held memory request changed";
  }
}

// The walk port inside the sys: a request the IOMMU takes must be for a page
// with no walk under way; the IOMMU's answer ends that page's walk.
void RandomRun::observe_walk_port() {
  const L2tlbModel& l2 = m_.l2();
  const IommuModel& io = m_.iommu();
  const IommuOut io_out = io.outputs(io.idle_inputs());
  if (io_out.resp_valid) {
    const Page pg{io_out.resp_vpn, io_out.resp_vmid};
    EXPECT_EQ(active_walks_.erase(pg), 1u) << at() << ": a walk answer without its walk request";
  }
  if (l2.walk_req_valid() && io_out.req_ready) {
    const Page pg{l2.walk_req_vpn(), l2.walk_req_vmid()};
    EXPECT_TRUE(active_walks_.insert(pg).second) << at() << ": two walks of one page at once";
    ++walk_requests_;
  }
}

void RandomRun::take_request(unsigned q) {
  Request r = cur_[q];
  cur_[q].valid = false;
  r.min_version = version(r.page);
  r.taken = cyc_;
  outstanding_[q][r.tag] = r;
  ++accepted_;
}

// Every answer is for an outstanding request of its port and tag, with its
// page, no earlier than D + 2 cycles after it was taken, and the translation
// of a version at least the one current when it was taken.
void RandomRun::take_answer(unsigned q, const IommuSysOut& o) {
  auto it = outstanding_[q].find(o.resp_tag[q]);
  if (it == outstanding_[q].end()) {
    ADD_FAILURE() << at() << ": an answer on port " << q << " with tag " << o.resp_tag[q] << " and no request";
    return;
  }
  const Request& r = it->second;
  EXPECT_EQ(o.resp_vpn[q], r.page.vpn) << at();
  EXPECT_EQ(o.resp_vmid[q], r.page.vmid) << at();
  EXPECT_GE(cyc_, r.taken + p_.l2.stages + 2) << at() << ": answered faster than a hit";
  bool ok = false;
  for (uint64_t v = r.min_version; v <= version(r.page) && !ok; ++v) {
    ok = o.resp_ppn[q] == ppn_of(r.page.vmid, r.page.vpn, p_.ppn_bits, v) &&
         o.resp_perm[q] == perm_of(r.page.vmid, r.page.vpn, p_.perm_bits, v);
  }
  EXPECT_TRUE(ok) << at() << ": port " << q << " tag " << r.tag << " answered PPN " << o.resp_ppn[q]
                  << ", not the page table's";
  outstanding_[q].erase(it);
  ++answered_;
}

// A walker reads levels start, start + 1, .., LV of one page whose walk the
// IOMMU took.
void RandomRun::take_read(const IommuSysOut& o) {
  const unsigned k = static_cast<unsigned>(o.mem_req_walker), level = static_cast<unsigned>(o.mem_req_level);
  ASSERT_LT(k, p_.walkers) << at();
  ASSERT_TRUE(level >= 1 && level <= p_.levels) << at();
  Walk& w = walks_[k];
  const Page pg{o.mem_req_vpn, o.mem_req_vmid};
  if (!w.active) {
    EXPECT_TRUE(active_walks_.count(pg)) << at() << ": a read for a page with no walk";
    w.active = true;
    w.page = pg;
  } else {
    EXPECT_EQ(level, w.level + 1) << at() << ": walker " << k << " skipped a level";
    EXPECT_FALSE(pg < w.page || w.page < pg) << at() << ": walker " << k << " changed page mid-walk";
  }
  w.level = level;
  reads_.push_back(Read{cyc_ + 1 + pick(su_.max_delay), k, level, pg});
}

void RandomRun::handshakes(const IommuSysIn& in, const IommuSysOut& o) {
  unsigned entering = (in.ins_valid && o.ins_ready) + (in.sd_valid && o.sd_ready);
  for (unsigned q = 0; q < p_.l2.ports; ++q) {
    EXPECT_TRUE(!o.req_ready[q] || in.req_valid[q]) << at() << ": req_ready without req_valid";
    if (in.req_valid[q] && o.req_ready[q]) {
      take_request(q);
      ++entering;
    }
    if (o.resp_valid[q] && in.resp_ready[q]) take_answer(q, o);
  }
  EXPECT_LE(entering, 1u) << at() << ": two operations entered in one cycle";
  if (in.ins_valid && o.ins_ready) ins_valid_ = false;
  if (in.sd_valid && o.sd_ready) sd_valid_ = false;
  if (o.mem_req_valid && in.mem_req_ready) take_read(o);
}

// The array never holds two copies of one translation in a set.
void RandomRun::check_array() const {
  const L2tlbModel& l2 = m_.l2();
  for (unsigned s = 0; s < p_.l2.sets; ++s) {
    for (unsigned a = 0; a < p_.l2.ways; ++a) {
      if (!l2.way_valid(s, a)) continue;
      for (unsigned b = a + 1; b < p_.l2.ways; ++b) {
        EXPECT_FALSE(l2.way_valid(s, b) && l2.way_vmid(s, a) == l2.way_vmid(s, b) && l2.way_tag(s, a) == l2.way_tag(s, b))
            << at() << ": set " << s << " holds one translation twice";
      }
    }
  }
}

// The requests taken before a reset are lost; held ones stay held.
void RandomRun::after_reset() {
  for (auto& o : outstanding_) o.clear();
  reads_.clear();
  for (Walk& w : walks_) w.active = false;
  active_walks_.clear();
  walk_requests_ = miss_allocs_ = 0;
}

bool RandomRun::idle() const {
  for (unsigned q = 0; q < p_.l2.ports; ++q) {
    if (cur_[q].valid || !outstanding_[q].empty()) return false;
  }
  return !ins_valid_ && !sd_valid_ && reads_.empty() && m_.l2().valid_mshrs() == 0 && m_.l2().pipeline_empty();
}

void RandomRun::final_checks() const {
  EXPECT_EQ(walk_requests_, miss_allocs_) << su_.name << ": one walk per MSHR allocated";
  EXPECT_TRUE(active_walks_.empty()) << su_.name;
  EXPECT_EQ(m_.l2().valid_waiters(), 0u) << su_.name;
  EXPECT_EQ(m_.iommu().sched().count(), 0u) << su_.name;
  EXPECT_GT(answered_, su_.cycles / 40) << su_.name << ": too little traffic";
  std::cout << "  " << su_.name << ": " << accepted_ << " requests, " << answered_ << " answers in " << cyc_
            << " cycles\n";
}

void RandomRun::run(Coverage& cov) {
  const unsigned reset_at = su_.reset ? su_.cycles / 2 : ~0u;
  const unsigned limit = su_.cycles + 20000;
  const bool check_every = p_.l2.entries <= 64;
  for (cyc_ = 0; cyc_ < limit && !::testing::Test::HasFailure(); ++cyc_) {
    const bool draining = cyc_ >= su_.cycles;
    if (draining && idle()) break;
    IommuSysIn in = m_.idle_inputs();
    drive_requests(in, draining);
    drive_ins_sd(in, draining);
    drive_memory(in, draining);
    in.rst_n = cyc_ != reset_at;
    const IommuSysOut o = m_.outputs(in);
    if (in.rst_n) {
      check_holds(o);
      observe_walk_port();
      handshakes(in, o);
    }
    m_.posedge(in);
    cov.add(m_.events());
    miss_allocs_ += m_.events().l2_miss_alloc;
    if (!in.rst_n) after_reset();
    if (check_every || cyc_ % 32 == 0) check_array();
    for (unsigned q = 0; q < p_.l2.ports && cyc_ % 512 == 0; ++q) {
      for (const auto& [tag, r] : outstanding_[q]) EXPECT_LT(cyc_ - r.taken, 20000u) << at() << ": starved";
    }
    prev_ = o;
    prev_in_ = in;
    prev_live_ = in.rst_n;
  }
  EXPECT_LT(cyc_, limit) << su_.name << ": did not drain";
  if (!::testing::Test::HasFailure()) final_checks();
}

Shape shape(unsigned n, unsigned w, unsigned ports, unsigned mshrs, unsigned waiters, unsigned d, unsigned k) {
  Shape s;
  s.n = n;
  s.w = w;
  s.ports = ports;
  s.mshrs = mshrs;
  s.waiters = waiters;
  s.stages = d;
  s.walkers = k;
  return s;
}

std::vector<RandomSetup> setups() {
  std::vector<RandomSetup> v;
  v.push_back({"small", Shape{}, 30000, 0.3, 0.8, 0.7, 6, 0.02, 0.01, 2, true});
  Shape deg = shape(1, 1, 1, 1, 1, 3, 1);  // 1 set, 1 way, 1 port, 1 MSHR, 1 waiter, 1 walker
  deg.tag = 1;
  deg.levels = 2;
  deg.vpn = 6;
  deg.vm = 1;
  deg.pwc = {1};
  v.push_back({"degenerate", deg, 20000, 0.5, 0.7, 0.6, 4, 0.03, 0.02, 1, true});
  Shape one = shape(8, 8, 3, 2, 3, 4, 1);  // one set, simt
  one.tag = 3;
  one.policy = WalkPolicy::Simt;
  one.b = 8;
  one.g = 1;
  one.at = 20;
  v.push_back({"one_set_simt", one, 20000, 0.4, 0.7, 0.8, 5, 0.02, 0.01, 2, false});
  Shape four = shape(64, 4, 4, 8, 16, 5, 4);
  four.tag = 3;
  four.levels = 4;
  four.x = 3;
  four.vpn = 14;
  four.pwc = {2, 4, 4};
  four.policy = WalkPolicy::Random;
  four.b = 8;
  four.g = 1;
  v.push_back({"four_port_random", four, 30000, 0.35, 0.75, 0.5, 8, 0.02, 0.01, 4, true});
  Shape dm = shape(32, 1, 2, 3, 4, 3, 3);  // direct mapped
  dm.policy = WalkPolicy::Simt;
  v.push_back({"direct_mapped", dm, 20000, 0.4, 0.6, 0.9, 3, 0.03, 0.01, 3, false});
  Shape t1 = shape(512, 16, 2, 32, 64, 3, 8);  // Table I-like widths
  t1.tag = 8;
  t1.vpn = 36;
  t1.vm = 4;
  t1.ppn = 28;
  t1.perm = 4;
  t1.iid = 20;
  t1.levels = 4;
  t1.x = 9;
  t1.pwc = {4, 8, 32};
  t1.policy = WalkPolicy::Simt;
  t1.b = 256;
  t1.g = 1;
  t1.at = 2000000;
  t1.mw = 64;
  v.push_back({"table1", t1, 15000, 0.5, 0.9, 0.6, 40, 0.01, 0.002, 25, false});
  return v;
}

TEST(IommuRandom, EveryRequestIsAnsweredOnceWithThePageTablesTranslation) {
  Coverage cov;
  for (const RandomSetup& su : setups()) {
    for (uint64_t seed : {1u, 2u}) {
      SCOPED_TRACE(std::string(su.name) + " seed " + std::to_string(seed));
      RandomRun run(su, seed * 7919 + su.cycles);
      run.run(cov);
      if (::testing::Test::HasFailure()) return;
    }
  }
  const char* required[] = {
      "reset", "l2_hit", "l2_miss_alloc", "l2_merge_waiting", "l2_merge_filled", "l2_merge_same_edge_answer",
      "l2_fill_write_victim", "l2_fill_write_hit", "l2_victim_invalid_way", "l2_victim_plru", "l2_insert",
      "l2_fill_enter", "l2_shootdown_one", "l2_shootdown_all", "l2_sd_waits_for_walk", "l2_set_busy_stall",
      "l2_mshr_stall", "l2_waiter_stall", "l2_resp_backpressure", "l2_walk_backpressure", "l2_rr_skip",
      "l2_walk_answer_many", "iommu_walk_leaf_first_read", "iommu_walk_partial", "iommu_walk_full",
      "iommu_mem_backpressure", "iommu_two_walkers_want", "iommu_wr_skip", "iommu_sched_bypass",
      "iommu_sched_selection"};
  for (const char* e : required) EXPECT_GT(cov.n[e], 0u) << "never covered: " << e;
  for (const auto& [name, count] : cov.n) std::cout << "  " << name << " " << count << "\n";
}

}  // namespace
}  // namespace txgen::model
