// Emission of the aggregated / clustered L1-TLBs (docs/blocks/l1tlb.md): one
// TLB module (the credit of its crossbar output port, the compare and decide
// stages, LRU or tree-PLRU replacement, the MSHRs and the three fill stages)
// instantiated T times by the top, which adds per TLB the port's round-robin,
// per cluster the L2 request register and its round-robin, and the per-CU
// response registers and the shootdown sequencer. Built from typed signals
// (txgen/hdl); per-entry and per-MSHR logic are generate loops, so the RTL
// size does not grow with the entry count.
#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "txgen/blocks/l1tlb_emit.h"
#include "txgen/elab/bits.h"
#include "txgen/hdl/lib.h"
#include "txgen/hdl/module.h"
#include "txgen/hdl/port_decl.h"
#include "txgen/ports/l1tlb.h"

namespace txgen::blocks::l1tlb {

using elab::L1tlbParams;
using hdl::all;
using hdl::any;
using hdl::cat;
using hdl::gate;
using hdl::Index;
using hdl::lit;
using hdl::Module;
using hdl::mux;
using hdl::Reg;
using hdl::Scope;
using hdl::Value;
using hdl::Wire;
using hdl::zero;
using hdl::zext;
using std::string;
using std::to_string;

namespace {

// A balanced OR of the terms.
Value or_tree(const std::vector<Value>& t, size_t lo, size_t hi) {
  if (hi - lo == 1) return t[lo];
  const size_t mid = lo + (hi - lo) / 2;
  return or_tree(t, lo, mid) | or_tree(t, mid, hi);
}

// AND-OR selection of `count` fields of `width` bits by a one-hot mask, as a
// balanced tree (the field itself when count is 1).
Value sel(const Value& onehot, const Value& vec, unsigned count, unsigned width) {
  if (count == 1) return vec;
  std::vector<Value> terms;
  for (unsigned i = 0; i < count; ++i) terms.push_back(gate(onehot.bit(i), vec.field(i, width)));
  return or_tree(terms, 0, terms.size());
}

// sel() with the fields' low `lo_bits` selected by `onehot_lo` and the rest
// by `onehot_hi`: two copies of one select, each driving half the loads.
Value sel_halves(const Value& onehot_lo, const Value& onehot_hi, const Value& vec, unsigned count, unsigned width,
                 unsigned lo_bits) {
  std::vector<Value> lo, hi;
  for (unsigned i = 0; i < count; ++i) {
    lo.push_back(gate(onehot_lo.bit(i), vec.field(i, width).slice(0, lo_bits)));
    hi.push_back(gate(onehot_hi.bit(i), vec.field(i, width).slice(lo_bits, width - lo_bits)));
  }
  return cat({or_tree(hi, 0, hi.size()), or_tree(lo, 0, lo.size())});
}

// The lowest set bit of v[lo, hi) as a one-hot, and whether there is one,
// as a balanced tree: the upper half's one-hot is cleared when the lower half
// has a bit. ABC keeps this log-depth form; hdl::lowest_one's overlapping
// prefix ORs it rebuilds as a ripple chain (64 bits: 9 cells against 27).
struct Lowest {
  Value any, onehot;
};
Lowest lowest_tree(Scope& s, const string& name, const Value& v, unsigned lo, unsigned hi) {
  if (hi - lo == 1) return {v.bit(lo), v.bit(lo)};
  const unsigned mid = lo + (hi - lo) / 2;
  const Lowest l = lowest_tree(s, name, v, lo, mid), r = lowest_tree(s, name, v, mid, hi);
  const string node = name + "_" + to_string(lo) + "_" + to_string(hi);
  const bool top_half = hi == v.width();  // no lower-half use of its `any`
  return {top_half ? l.any | r.any : s.wire(node + "_any", l.any | r.any),
          s.wire(node, cat({gate(~l.any, r.onehot), l.onehot}))};
}
Value lowest_one_tree(Scope& s, const string& name, const Value& v) {
  return hdl::vector_wire(s, name, lowest_tree(s, name, v, 0, v.width()).onehot);
}

// Whether the one-hot (or zero) x has its bit below every set bit of v in
// [lo, hi), and whether v has one there: a tree like lowest_tree's, so x
// passes one AND-OR per level while v's ORs run beside it (a prefix OR of v
// ABC rebuilds as a ripple chain).
struct BelowAll {
  Value first, any_v;
};
BelowAll one_hot_below_all(const Value& x, const Value& v, unsigned lo, unsigned hi) {
  if (hi - lo == 1) return {x.bit(lo) & ~v.bit(lo), v.bit(lo)};
  const unsigned mid = lo + (hi - lo) / 2;
  const BelowAll l = one_hot_below_all(x, v, lo, mid), r = one_hot_below_all(x, v, mid, hi);
  return {l.first | (r.first & ~l.any_v), l.any_v | r.any_v};
}

// A queue of MSHR indices (`mshr_alloc: fifo`, docs/blocks/l1tlb.md: the
// free queue and the send queue), held as a shift register: the head as a
// one-hot and a binary index, the entries behind it as binary indices in
// NAME_slot1 .. NAME_slot{M-1}, moved one place down by a pop. A push lands at position
// `count` (one less with a pop). Every next value is one of four (pop, push)
// cases computed from registers, and the later of the two decisions selects
// last: no scan over the MSHRs follows the allocation or the take.
struct ShiftQueue {
  Reg head_oh, head_idx;  // the head (zero / any when empty)
  std::vector<Reg> at;    // at[k], 1 <= k < M: the entry k places behind the head
};
ShiftQueue shift_queue(Module& m, const string& name, const Reg& head_oh, unsigned M, unsigned MB,
                       bool reset_in_order) {
  ShiftQueue q{head_oh, m.reg(name + "_head_index", MB), std::vector<Reg>(M)};
  for (unsigned k = 1; k < M; ++k) q.at[k] = m.reg(name + "_slot" + to_string(k), MB, reset_in_order ? k : 0);
  return q;
}
struct QueueEdge {
  Value pop, push;          // this edge
  Value push_oh, push_idx;  // the pushed MSHR
  Value count;              // entries before this edge
  bool pop_late;            // which of the two is decided later: it selects last
};
// A next value from its four cases, (pop, push) = 00, 01, 10, 11, the later
// decision selecting last.
Value by_pop_push(const QueueEdge& e, const Value& v00, const Value& v01, const Value& v10, const Value& v11) {
  if (e.pop_late) return mux(e.pop, mux(e.push, v11, v10), mux(e.push, v01, v00));
  return mux(e.push, mux(e.pop, v11, v01), mux(e.pop, v10, v00));
}
void shift_queue_next(Module& m, const string& name, const ShiftQueue& q, const QueueEdge& e, unsigned M) {
  const unsigned FB = e.count.width();
  std::vector<Value> is(M + 1);  // is[k]: the queue holds k entries before this edge
  for (unsigned k = 0; k <= M; ++k) is[k] = m.wire(name + "_holds" + to_string(k), e.count == lit(FB, k));
  for (unsigned k = 1; k < M; ++k) {
    Value behind = k + 1 < M ? Value(q.at[k + 1]) : Value(q.at[k]);
    q.at[k].next(by_pop_push(e, q.at[k], mux(is[k], e.push_idx, q.at[k]), behind,
                             mux(is[k + 1], e.push_idx, behind)));
  }
  Value second = m.wire(name + "_second", hdl::one_of(M, q.at[1]));
  q.head_oh.next(by_pop_push(e, q.head_oh, mux(is[0], e.push_oh, q.head_oh), gate(~is[1], second),
                             mux(is[1], e.push_oh, second)));
  q.head_idx.next(by_pop_push(e, q.head_idx, mux(is[0], e.push_idx, q.head_idx), q.at[1],
                              mux(is[1], e.push_idx, q.at[1])));
}

// The LRU way after this edge's touches (at most two ways: the hit `a_oh`,
// then the fill's): touched ways become the youngest and the others keep
// their order, so it is the oldest untouched of the three oldest ways before
// the edge; with two ways both touched, the hit's. Whether the way with age
// W-1-k is touched (k = 0, 1): `touched_old[k]` when given (known from the
// touches' ages), else an OR over the ways of the `touched` row.
Value lru_victim_after_touches(Module& m, const Value& ages, const Value& touched,
                               const std::vector<Value>& touched_old, const Value& a_oh, unsigned W, unsigned AB) {
  const unsigned depth = std::min(W, 3u);
  std::vector<Value> oldest;  // oldest[k]: one-hot of the way with age W-1-k
  for (unsigned k = 0; k < depth; ++k) {
    std::vector<Value> bits;
    for (unsigned w = 0; w < W; ++w) bits.push_back(ages.field(w, AB) == lit(AB, W - 1 - k));
    oldest.push_back(m.wire("f1_old" + to_string(k), hdl::cat_lsb_first(bits)));
  }
  Value pick = W >= 3 ? oldest[2] : a_oh;
  for (unsigned k = 2; k-- > 0;)
    pick = mux(touched_old.empty() ? any(oldest[k] & touched) : touched_old[k], pick, oldest[k]);
  return m.wire("f1_repl", pick);
}

// One edge's updates of the LRU ages, in order: a touch (`hit`) or an untouch
// (`unt`) of way `way` in set `setv` (each way compares its age with that
// way's, AgeWay below); then the fill's touch of `vict` in `fill_setv` (`young`: the ways younger
// than the victim, every way but it); then a flush-all.
struct AgeUpdates {
  Value hit, unt, setv, way, fill, fill_setv, vict, young, flush;
};
struct AgeEdge : AgeUpdates {
  Value same, va, same_u;  // derived: touch / untouch in the fill's set, the touched way the victim
};
// `vict_is_way`, when given, stands for any(vict & way) wherever the touch is
// in the fill's set (next_edge: the touched way's registered age is the oldest).
AgeEdge age_edge(Module& m, const string& name, const AgeUpdates& u, const Value& vict_is_way = Value()) {
  AgeEdge e;
  static_cast<AgeUpdates&>(e) = u;
  Value fill_here = any(e.setv & e.fill_setv);
  e.same = m.wire(name + "_same_set", e.hit & fill_here);
  e.va = m.wire(name + "_vict_is_hit", vict_is_way.valid() ? vict_is_way : any(e.vict & e.way));
  e.same_u = m.wire(name + "_same_set_u", e.unt & fill_here);
  return e;
}
// One way's age after the edge, if its age is below the touched way's and if
// not (that compare arrives last, so both outcomes are built and it selects).
// `is_t`, `is_v`, `young`: the way is the touched one, the victim, younger
// than the victim; `hs`, `us`, `fs`: the touch, untouch and fill are in its set.
struct AgeWay {
  Value a, a1, a2, is_t, is_v, young, hs, us, fs, reset;  // a1, a2: a + 1, a + 2
};
std::pair<Value, Value> ages_after(Scope& sc, const AgeWay& w, const AgeEdge& e, unsigned AB) {
  const Value &a1 = w.a1, &a2 = w.a2;
  Value am1 = sc.wire("am1", w.a - 1);
  // lt: younger than the victim after the touch (same set: the touched way
  // is youngest; a touched victim is youngest of all)
  Value k1 = sc.wire("k1", ~(e.same & e.va)), k2 = sc.wire("k2", e.same & ~e.va & w.is_t);
  // an untouched way other than the victim is older than the victim
  Value k3 = sc.wire("k3", ~(e.same_u & w.is_t & ~w.is_v));
  Value lt = sc.wire("lt", ((w.young & k1) | k2) & k3);
  Value fv = sc.wire("fv", w.fs & w.is_v);
  // Ages in a set are distinct, so a way other than the touched one that is
  // not younger than it is older.
  auto next_age = [&](const string& sfx, bool younger_than_hit) {
    // x1: after the touch or the untouch; x1p = x1 + 1
    Value x1 = sc.wire("x1" + sfx, mux(w.hs, mux(w.is_t, zero(AB), younger_than_hit ? a1 : w.a),
                                       mux(w.us, mux(w.is_t, hdl::ones(AB), younger_than_hit ? w.a : am1), w.a)));
    Value x1p = sc.wire("x1p" + sfx, mux(w.hs, mux(w.is_t, lit(AB, 1), younger_than_hit ? a2 : a1),
                                         mux(w.us, mux(w.is_t, zero(AB), younger_than_hit ? a1 : w.a), a1)));
    Value y1 = mux(fv, zero(AB), mux(w.fs, x1p, x1)), y0 = mux(fv, zero(AB), x1);
    return sc.wire("n" + sfx, mux(e.flush, w.reset, mux(lt, y1, y0)));
  };
  return {next_age("_y", true), next_age("_o", false)};
}

// The LRU order matrix of one set: bit (i, j), i < j, is 1 when way i was
// used more recently than way j; the pairs are packed i-major (i = 0 with
// j = 1 .. W-1 first). Reset and flush-all: all zeros, the ages' reset order.
unsigned pair_index(unsigned i, unsigned j, unsigned W) { return i * W - i * (i + 1) / 2 + (j - i - 1); }

// Way i used less recently than way j, in one set's packed row.
Value less_recent(const Value& row, unsigned i, unsigned j, unsigned W) {
  return i < j ? ~row.bit(pair_index(i, j, W)) : row.bit(pair_index(j, i, W));
}

// This edge's updates of the order, per set: the decide stage's touch (way
// `hit_way`, row `hit_set`) or a one-VPN invalidation's untouch (the same row
// and way), then the fill's touch (`vict`, `fill_set`), then a flush-all.
// Each pair bit is a mux of one-hot inputs: no age compare on the path.
struct OrderUpdates {
  Value hit, untouch, hit_set, hit_way, fill, fill_set, vict, flush;
};
Value lru_matrix_next(Module& m, const Value& lm, const OrderUpdates& u, unsigned S, unsigned W) {
  const unsigned P = W * (W - 1) / 2;
  Wire next = m.wire("lru_matrix_next", S * P, true);
  m.generate_for("gs", S, "g_lru_m", [&](Scope& sc, const Index& s) {
    Value hs = sc.wire("hs", u.hit & u.hit_set.bit(s));
    Value us = sc.wire("us", u.untouch & u.hit_set.bit(s));
    Value fs = sc.wire("fs", u.fill & u.fill_set.bit(s));
    for (unsigned i = 0; i < W; ++i) {
      for (unsigned j = i + 1; j < W; ++j) {
        const Index q = s * Index(P) + Index(pair_index(i, j, W));
        Value hi = u.hit_way.bit(i), hj = u.hit_way.bit(j);
        Value vi = u.vict.bit(i), vj = u.vict.bit(j);
        // a touched way becomes more recent than the other, an untouched one less
        Value b1 = mux(hs & (hi | hj), hi, mux(us & (hi | hj), hj, lm.bit(q)));
        sc.assign(next.bit(q), ~u.flush & mux(fs & (vi | vj), vi, b1));
      }
    }
  });
  return next;
}

// The LRU way of one set after this edge's touches (`touched`, at most two
// ways; the others keep their order): the untouched way older than every
// other untouched way. With two ways both touched, the hit's (`hit_way`).
Value lru_matrix_victim(Module& m, const Value& row, const Value& touched, const Value& hit_way, unsigned W) {
  Wire v = m.wire("f1_repl", W, true);
  Scope& top = m.top();
  for (unsigned i = 0; i < W; ++i) {
    std::vector<Value> terms{~touched.bit(i)};
    for (unsigned j = 0; j < W; ++j)
      if (j != i) terms.push_back(touched.bit(j) | less_recent(row, i, j, W));
    top.assign(v.bit(i), hdl::and_of(terms, lit(1, 1)));
  }
  if (W > 2) return v;
  return m.wire("f1_repl_h", mux(any(v), Value(v), hit_way));
}

// One set's tree-PLRU node bits after this edge: the hit's touch (`hs`) or
// the untouch (`us`) of way `a`, then the fill's touch (`fs`) of way `v`,
// then a flush-all. `tree` and `next` hold the set's W-1 nodes from `base`.
// `a_at` and `v_at` (when given) hold per level l the decoded node that a's
// (v's) way lies under (bit q of a_at[l]), and last the way's binary index,
// so a node tests one bit instead of an OR over the one-hot a (v).
struct PlruUpdates {
  Value hs, us, fs, flush, a, v;
  std::vector<Value> a_at, v_at;
};

// Whether the one-hot `way` lies under node q of level l of the tree, and
// whether in its lower half (the latter used only under the former).
std::pair<Value, Value> plru_under(const Value& way, const std::vector<Value>& at, unsigned l, const Index& q,
                                   unsigned size, unsigned AB) {
  const Index lo = q * Index(size);
  if (at.empty()) return {any(way.part(lo, size)), any(way.part(lo, size / 2))};
  return {l == 0 ? at[0] : at[l].bit(q), ~at.back().bit(AB - 1 - l)};
}
void plru_set_next(Scope& sc, const string& name, const Value& tree, const Value& next, const Index& base,
                   const PlruUpdates& u, unsigned W, unsigned AB) {
  for (unsigned l = 0; l < AB; ++l) {
    const unsigned size = W >> l;
    sc.generate_for(name + to_string(l), 1u << l, "g_" + name + "_level" + to_string(l),
                    [&](Scope& sq, const Index& q) {
                      const Index n = base + Index((1u << l) - 1) + q;
                      const auto [on_a, low_a] = plru_under(u.a, u.a_at, l, q, size, AB);
                      const auto [on_v, low_v] = plru_under(u.v, u.v_at, l, q, size, AB);
                      Value b1 = mux(u.hs & on_a, low_a, mux(u.us & on_a, ~low_a, tree.bit(n)));
                      sq.assign(next.bit(n), ~u.flush & mux(u.fs & on_v, low_v, b1));
                    });
  }
}

// A way's registered binary index (`idx`; valid when `any_way`, always when
// that is not given) decoded per tree level for PlruUpdates::a_at / v_at; the
// index itself last.
std::vector<Value> plru_index_decode(Module& m, const string& name, const Value& idx, const Value& any_way,
                                     unsigned AB) {
  std::vector<Value> at = {any_way.valid() ? any_way : lit(1, 1)};
  for (unsigned l = 1; l < AB; ++l) {
    Value dec = hdl::one_of(1u << l, idx.top(l));
    at.push_back(m.wire(name + to_string(l), any_way.valid() ? gate(any_way, dec) : dec));
  }
  at.push_back(idx);
  return at;
}

// The tree-PLRU victim of one set's W-1 node bits: from the root, the child
// the node bit points at (0: lower half).
Value plru_victim(Module& m, const Value& row, unsigned W, unsigned AB) {
  std::vector<Value> dirs;  // dirs[l] bit w: way w lies in the upper half of its level-l node
  for (unsigned l = 0; l < AB; ++l) {
    const unsigned h = W >> (l + 1);
    dirs.push_back(m.wire("plru_dir" + to_string(l), hdl::rep(1u << l, cat({hdl::ones(h), zero(h)}))));
  }
  Wire v = m.wire("f1_repl", W, true);
  m.generate_for("gv", W, "g_plru_victim", [&](Scope& sc, const Index& w) {
    std::vector<Value> terms;
    for (unsigned l = 0; l < AB; ++l) {
      const Index node = Index((1u << l) - 1) + w / Index(W >> l);
      terms.push_back(~(row.bit(node) ^ dirs[l].bit(w)));
    }
    sc.assign(v.bit(w), hdl::and_of(terms, lit(1, 1)));
  });
  return v;
}


}  // namespace

namespace {

// One TLB module under construction (docs/blocks/l1tlb.md, "Hardware"): its
// ports, its registers and the wires the stages share are members; each
// pipeline stage is a method, called in the order the RTL prints them.
class TlbEmitter {
 public:
  TlbEmitter(const L1tlbParams& p, Module& m)
      : p_(p), m_(m), top_(m.top()), N(p.cus_per_cluster), S(p.sets), W(p.ways), M(p.mshrs), VPN(p.vpn_bits),
        VM(p.vmid_bits), PPN(p.ppn_bits), PERM(p.perm_bits), HB(p.home_bits), SB(p.set_bits), TG(p.vpn_tag_bits),
        TAG(p.tag_bits), VH(p.vpn_hi_bits), CB(p.cu_bits), MB(p.mshr_bits), AB(p.age_bits),
        FB(std::max(2u, elab::clog2(M + 1))), IW(p.iid_bits), late(p.lru_touch_next), fifo(p.mshr_fifo),
        plru_index(p.plru_index) {}

  void build(const EmitContext& ctx) {
    module_header(m_, ctx, "l1tlb", "one L1-TLB: crossbar port, compare/decide, replacement, MSHRs, fill "
                  "(docs/blocks/l1tlb.md)", params_json(p_));
    m_.clock_and_reset();
    ports();
    lookup_registers();
    replacement_registers();
    mshr_and_fill_registers();
    views();
    crossbar_port();
    fill_stages();
    fill_write_enable();
    replacement_state();
    compare_stage();
    decide_stage();
    if (fifo)
      mshr_queues();
    else
      lowest_candidate();
    mshr_next();
    mshr_counts();
    if (!fifo) free_low_next();
    entries();
    eviction();
    replacement();
    next_victim();
  }

 private:
  void ports();
  void lookup_registers();
  void replacement_registers();
  void mshr_and_fill_registers();
  void views();
  void crossbar_port();
  void fill_stages();
  void fill_write_enable();
  void replacement_state();
  void compare_stage();
  void decide_stage();
  void mshr_queues();
  void lowest_candidate();
  void mshr_next();
  void mshr_counts();
  void free_low_next();
  void entries();
  void eviction();
  void replacement();
  void lru_ages();
  void late_touch_next(const Value& ha_set, const AgeEdge& e);
  void plru_trees();
  void next_victim();
  Value lru_next_victim();
  Value plru_next_victim();

  // The one-hot set of a VPN (or of a VPN's upper bits) whose set bits start at lsb.
  Value set_of(const Value& vpn_hi_or_vpn, unsigned lsb) const {
    return S == 1 ? lit(1, 1) : hdl::one_of(S, vpn_hi_or_vpn.slice(lsb, SB));
  }
  // a < lt_age from lt_age's registered parts: a < lt_b, or a equal to lt_b
  // (lt_b1) with j >= 1 (j = 2). Ages never exceed W-1, so lt_b + j does not wrap.
  Value below_lt_age(Scope& sc, const string& name, const Value& a) const {
    return sc.wire(name, ~lt_fz & ((a < lt_b) | (lt_le & (a == lt_b)) | (lt_le1 & (a == lt_b1))));
  }
  // One set's row of a way-major W x S x width vector (the ages and their next values).
  Value read_rows(const Value& vec, const string& name, const Value& set_oh, unsigned width) {
    Wire row = m_.wire(name, W * width);
    m_.generate_for("g" + name, W, "g_" + name, [&](Scope& sc, const Index& w) {
      Value vw = sc.wire("vw", vec.part(w * Index(S * width), S * width));
      sc.assign(row.part(w * Index(width), width), sel(set_oh, vw, S, width));
    });
    return Value(row);
  }

  const L1tlbParams& p_;
  Module& m_;
  Scope& top_;
  const unsigned N, S, W, M, VPN, VM, PPN, PERM, HB, SB, TG, TAG, VH, CB, MB, AB, FB;
  const unsigned IW;      // instruction ID bits (0: none)
  const bool late;        // `lru_touch: next_edge`
  const bool fifo;        // `mshr_alloc: fifo`
  const bool plru_index;  // PLRU touches from registered binary indices

  // ports
  Value home, pick, accept, pick_hi, req_vpn, req_vmid, req_iid, sd_acc, sd_vpn, sd_vmid, sd_all_next, l2_take, l2_valid,
      l2_mshr, l2_ppn, l2_perm;
  Wire credit_o, r1_v_o, hit_o, hit_vpn_o, hit_vmid_o, hit_ppn_o, hit_perm_o, cand_valid_o, cand_mshr_o, cand_vh_o,
      cand_vmid_o, cand_iid_o, fill_o, fill_vh_o, fill_vmid_o, fill_ppn_o, fill_perm_o, evict_o, evict_vh_o, evict_vmid_o,
      evict_ppn_o, evict_perm_o;
  // registers (named as in the RTL, without _q)
  Reg free, sd_all_q, r1_v, r1_sd, r1_i, r1_vpn, r1_vmid, r1_set, r2_v, r2_sd, r2_i, r2_vpn, r2_vmid, r2_set, r2_match,
      r2_any, r2_hidx, r1_iid, r2_iid, mshr_iid;
  Reg lt_hit, lt_unt, lt_set, lt_way, lt_b, lt_b1, lt_fz, lt_le, lt_le1, lt_oldest, f2_vidx;
  Reg entry_valid, entry_tag, entry_ppn, entry_perm, mshr_valid, mshr_pending, mshr_sent, mshr_killed, mshr_vpn_hi,
      mshr_vmid, mshr_waiters, r2_cam, sent, flo;
  Reg f1_v, f1_moh, f1_vh, f1_vmid, f1_ppn, f1_perm, f1_set, f2_v, f2_moh, f2_vh, f2_vmid, f2_ppn, f2_perm, f2_set;
  Reg f2_vict, f2_kill, f2_sdm, f2_we_ev, f2_ev_vict, f2_ev_set, r2_sd_match, f1_same_r2, f1_same_f2, f2_same_r2;
  Reg f1_iv, f2_young, f3_v, f3_moh, f3_vh, f3_vmid, f3_ppn, f3_perm, credit, lru_matrix_q, plru;
  // wires the stages share
  Value sd_all, f1_setv, r1_setv, r2_setv, f2_setv, lt_setv, lt_age, mshr_valid_w, mshr_pending_w, mshr_vpn_hi_w,
      mshr_vmid_w, mshr_waiters_w, mshr_sent_w, mshr_killed_w, f2_moh_w, f3_moh_w;
  Value f0_same_r1, r2_vh, f2_sdm_n, we_one, we, f_tag, vict, hit, dec_i, cam, miss, alloc, flo_w, sent_w, unt;
  Value entry_ppn_next_w,
      entry_perm_next_w;  // the entries' next PPN and permissions, assigned after the eviction reads
  std::optional<hdl::LruAges> ages;
  Value age;     // LRU ages: W x S x AB, way-major
  Value lru_matrix;   // LRU matrix: S x W (W-1) / 2, set-major
  Value plru_v;  // PLRU: every set's W-1 tree bits, set-major
  std::vector<Value> hit_at, vict_at;
};

void TlbEmitter::ports() {
  home = HB ? m_.input("home_i", HB, "this TLB's index in its cluster") : Value();
  pick = m_.input("pick_i", N, "the crossbar's round-robin winner among this TLB's requesters (one-hot or none)");
  accept = m_.input("accept_i", 1, "the winner is taken: some requester, the credit open, no shootdown");
  // the winner also selects r1's 40-odd bits of VPN, VMID and set: with one
  // port its buffer tree here (3 levels at N = 16) followed the top's
  // arbitration; the top drives the same one-hot into two ports, and the
  // upper half of the VPN takes the second
  pick_hi = N > 1 ? m_.input("pick_hi_i", N, "pick_i again, for the upper half of the VPN select") : Value();
  if (N == 1) m_.unused("pick_i", pick);  // one requester: its VPN needs no select
  req_vpn = m_.input("req_vpn_i", N * VPN);
  req_vmid = m_.input("req_vmid_i", N * VM);
  req_iid = IW ? m_.input("req_iid_i", N * IW, "the requesters' SIMD instruction IDs") : Value();
  sd_acc = m_.input("sd_acc_i", 1, "a one-VPN shootdown is accepted this cycle");
  sd_vpn = m_.input("sd_vpn_i", VPN);
  sd_vmid = m_.input("sd_vmid_i", VM);
  sd_all_next = m_.input("sd_all_next_i", 1, "a flush-all takes effect at the next edge (sd1 now)");
  l2_take = m_.input("l2_take_i", 1,
                     "the L2 request register loads and no TLB ahead of this one has a candidate: "
                     "the candidate MSHR, if any, is loaded");
  l2_valid = m_.input("l2_resp_valid_i", 1);
  l2_mshr = m_.input("l2_resp_mshr_i", MB);
  l2_ppn = m_.input("l2_resp_ppn_i", PPN);
  l2_perm = m_.input("l2_resp_perm_i", PERM);
  credit_o = m_.output("credit_o", 1, "more free MSHRs than lookups in flight (registered)");
  r1_v_o = m_.output("r1_v_o", 1, "the compare stage holds a lookup (registered)");
  hit_o = m_.output("hit_o", N, "decide-stage hit for CU i");
  hit_vpn_o = m_.output("hit_vpn_o", VPN);
  hit_vmid_o = m_.output("hit_vmid_o", VM);
  hit_ppn_o = m_.output("hit_ppn_o", PPN);
  hit_perm_o = m_.output("hit_perm_o", PERM);
  cand_valid_o = m_.output("cand_valid_o", 1, "an MSHR waits for its L2 request");
  cand_mshr_o = m_.output("cand_mshr_o", MB);
  cand_vh_o = m_.output("cand_vh_o", VH);
  cand_vmid_o = m_.output("cand_vmid_o", VM);
  cand_iid_o = IW ? m_.output("cand_iid_o", IW, "the candidate MSHR's instruction ID") : Wire();
  fill_o = m_.output("fill_o", N, "fill answer for CU i (f3)");
  fill_vh_o = m_.output("fill_vh_o", VH);
  fill_vmid_o = m_.output("fill_vmid_o", VM);
  fill_ppn_o = m_.output("fill_ppn_o", PPN);
  fill_perm_o = m_.output("fill_perm_o", PERM);
  evict_o = m_.output("evict_o", 1, "the f2 write replaces a valid entry");
  evict_vh_o = m_.output("evict_vh_o", VH);
  evict_vmid_o = m_.output("evict_vmid_o", VM);
  evict_ppn_o = m_.output("evict_ppn_o", PPN);
  evict_perm_o = m_.output("evict_perm_o", PERM);
}

// The MSHR count, the flush-all's copy and the lookup stages r1 (compare) and r2 (decide).
void TlbEmitter::lookup_registers() {
  free = m_.reg("free", FB, M);  // free MSHRs
  // a flush-all takes effect at this edge (sd2): each TLB's own copy, so its
  // fan-out into every entry, MSHR and age starts from a register here
  sd_all_q = m_.reg("sd_all", 1);
  sd_all_q.next(sd_all_next);
  sd_all = sd_all_q;
  r1_v = m_.reg("r1_v", 1), r1_sd = m_.reg("r1_sd", 1);
  r1_i = CB ? m_.reg("r1_i", CB) : Reg();
  r1_vpn = m_.reg("r1_vpn", VPN), r1_vmid = m_.reg("r1_vmid", VM);
  r1_set = S > 1 ? m_.reg("r1_set", S) : Reg();
  r2_v = m_.reg("r2_v", 1), r2_sd = m_.reg("r2_sd", 1);
  r2_i = CB ? m_.reg("r2_i", CB) : Reg();
  r2_vpn = m_.reg("r2_vpn", VPN), r2_vmid = m_.reg("r2_vmid", VM);
  r2_set = S > 1 ? m_.reg("r2_set", S) : Reg();
  r2_match = m_.reg("r2_match", W);
  // the instruction ID rides beside the lookup, unreset: only an allocation reads it
  r1_iid = IW ? m_.reg_noreset("r1_iid", IW) : Reg();
  r2_iid = IW ? m_.reg_noreset("r2_iid", IW) : Reg();
  // whether r2_match has a bit, registered beside it: the hit / miss /
  // allocation decision and its wide fan-out start without the OR of the row
  r2_any = m_.reg("r2_any", 1);
}

// PLRU indices and the late LRU touch.
void TlbEmitter::replacement_registers() {
  // PLRU (`plru_index`): r2_match's and f2_vict's binary indices, so the
  // touches of a tree node test decoded index bits instead of ORs over the
  // one-hot rows
  r2_hidx = plru_index ? m_.reg("r2_hidx", AB) : Reg();
  // LRU ages with `lru_touch: next_edge`: the touch or untouch the next edge
  // applies (the decide stage's of this cycle), its set, way and the age that
  // way has after this edge, so the next edge's compare starts from a register
  lt_hit = late ? m_.reg("lt_hit", 1) : Reg(), lt_unt = late ? m_.reg("lt_unt", 1) : Reg();
  lt_set = late && S > 1 ? m_.reg("lt_set", S) : Reg();
  lt_way = late ? m_.reg("lt_way", W) : Reg();
  // that way's age after this edge, lt_age = lt_b + j (j = 0, 1 or 2: the
  // late touch's + 1, then the fill's), or 0 if the fill takes the way
  // (lt_fz). lt_b is the read age (0 if the late touch takes the way) and
  // lt_b1 = lt_b + 1, both ready before the compare; the compare only sets
  // lt_le (j >= 1) and lt_le1 (j = 2), so it drives no adder or select
  lt_b = late ? m_.reg("lt_b", AB) : Reg(), lt_b1 = late ? m_.reg("lt_b1", AB) : Reg();
  lt_fz = late ? m_.reg("lt_fz", 1) : Reg(), lt_le = late ? m_.reg("lt_le", 1) : Reg();
  lt_le1 = late ? m_.reg("lt_le1", 1) : Reg();
  // whether that age is W-1 (the oldest), registered apart: the flags fan out
  // to every way's compare, so a select by them would start this bit's path late
  lt_oldest = late ? m_.reg("lt_oldest", 1) : Reg();
  f2_vidx = plru_index ? m_.reg("f2_vidx", AB) : Reg();
}

// The entries, the MSHRs and the fill stages f1 .. f3.
void TlbEmitter::mshr_and_fill_registers() {
  entry_valid = m_.reg("entry_valid", S * W), entry_tag = m_.reg("entry_tag", S * W * TAG);
  entry_ppn = m_.reg("entry_ppn", S * W * PPN), entry_perm = m_.reg("entry_perm", S * W * PERM);
  // sent bits: the send queue (fifo) holds the pending MSHRs not yet sent instead
  mshr_valid = m_.reg("mshr_valid", M), mshr_pending = m_.reg("mshr_pending", M),
  mshr_sent = fifo ? Reg() : m_.reg("mshr_sent", M), mshr_killed = m_.reg("mshr_killed", M);
  mshr_vpn_hi = m_.reg("mshr_vpn_hi", M * VH), mshr_vmid = m_.reg("mshr_vmid", M * VM),
  mshr_waiters = m_.reg("mshr_waiters", M * N);
  mshr_iid = IW ? m_.reg("mshr_iid", M * IW) : Reg();  // the ID of the miss that allocated it
  // the MSHR CAM's tag compare, done in the compare stage (patched for the
  // decide stage's allocation at that edge); valid and pending are ANDed in decide
  r2_cam = m_.reg("r2_cam", M);
  // the MSHR the L2 request register took at the last edge (one-hot): its
  // sent bit is set one edge late, and it is no candidate meanwhile
  sent = fifo ? Reg() : m_.reg("sent", M);
  // the MSHR the next allocation takes (one-hot): the lowest free one, or the
  // free queue's head, kept as the state changes: the decide stage's
  // allocation needs no scan of the valid bits
  flo = m_.reg("free_low", M, 1);
  f1_v = m_.reg("f1_v", 1), f1_moh = m_.reg("f1_moh", M), f1_vh = m_.reg("f1_vh", VH),
  f1_vmid = m_.reg("f1_vmid", VM), f1_ppn = m_.reg("f1_ppn", PPN), f1_perm = m_.reg("f1_perm", PERM);
  f1_set = S > 1 ? m_.reg("f1_set", S) : Reg();
  f2_v = m_.reg("f2_v", 1), f2_moh = m_.reg("f2_moh", M), f2_vh = m_.reg("f2_vh", VH),
  f2_vmid = m_.reg("f2_vmid", VM), f2_ppn = m_.reg("f2_ppn", PPN), f2_perm = m_.reg("f2_perm", PERM);
  f2_set = S > 1 ? m_.reg("f2_set", S) : Reg();
  // the f2 write's victim and "younger than the victim" row, computed in f1
  // from the set as it is after the f1 edge (docs/blocks/l1tlb.md, hardware)
  f2_vict = m_.reg("f2_vict", W);
  // f2's suppression terms, registered from f1: its MSHR killed, or a one-VPN
  // shootdown in sd2 naming it (sd_all is added in f2)
  f2_kill = m_.reg("f2_kill", 1), f2_sdm = m_.reg("f2_sdm", 1);
  f2_we_ev = m_.reg("f2_we_ev", 1);  // equals `we` (below)
  // the eviction's own copies of f2's victim and set: the originals fan out to
  // every entry and age, and their buffer trees would stand in front of the
  // eviction's valid. Zero without a fill in f1, so they are no duplicates
  // for synthesis to merge (the eviction needs them only after a fill).
  f2_ev_vict = m_.reg("f2_ev_vict", W);
  f2_ev_set = S > 1 ? m_.reg("f2_ev_set", S) : Reg();
  // and r2's match for the eviction's shootdown test, zero unless r2 holds a
  // shootdown: r2_match fans out to every entry and the hit's reads
  r2_sd_match = m_.reg("r2_sd_match", W);
  // f1's set equals r2's / f2's (registered as the sets are)
  f1_same_r2 = S > 1 && !late ? m_.reg("f1_same_r2", 1) : Reg();  // next_edge: the late touch's set instead
  f1_same_f2 = S > 1 ? m_.reg("f1_same_f2", 1) : Reg();
  // r2's set equals f2's, for the eviction: r2_set itself fans out to every
  // row the decide stage reads
  f2_same_r2 = S > 1 ? m_.reg("f2_same_r2", 1) : Reg();
  // the ways of the f1 set a one-VPN shootdown (sd2) invalidates at the next edge
  f1_iv = late ? Reg() : m_.reg("f1_iv", W);
  f2_young = p_.plru() || p_.lru_matrix ? Reg() : m_.reg("f2_young", W);
  f3_v = m_.reg("f3_v", 1), f3_moh = m_.reg("f3_moh", M), f3_vh = m_.reg("f3_vh", VH),
  f3_vmid = m_.reg("f3_vmid", VM), f3_ppn = m_.reg("f3_ppn", PPN), f3_perm = m_.reg("f3_perm", PERM);
}

// Vector views of the sets and MSHR fields for the generate loops (one set or
// one MSHR of one bit would be declared as a scalar), and the late touch's age.
void TlbEmitter::views() {
  f1_setv = S > 1 ? hdl::vector_wire(top_, "f1_set_w", f1_set) : lit(1, 1);
  r1_setv = hdl::vector_wire(top_, "r1_set_w", S > 1 ? Value(r1_set) : lit(1, 1));
  r2_setv = hdl::vector_wire(top_, "r2_set_w", S > 1 ? Value(r2_set) : lit(1, 1));
  f2_setv = hdl::vector_wire(top_, "f2_set_w", S > 1 ? Value(f2_set) : lit(1, 1));
  lt_setv = late ? hdl::vector_wire(top_, "lt_set_w", S > 1 ? Value(lt_set) : lit(1, 1)) : Value();
  if (late) {
    // j = 2 needs two ways below this one, so at W = 2 (one age bit) j is 0 or 1
    const Value j = cat({lt_le1, lt_le & ~lt_le1});
    lt_age = m_.wire("lt_age", mux(lt_fz, zero(AB), lt_b + (AB >= 2 ? zext(j, AB) : j.slice(0, AB))));
  }
  mshr_valid_w = hdl::vector_wire(top_, "mshr_valid_w", mshr_valid),
  mshr_pending_w = hdl::vector_wire(top_, "mshr_pending_w", mshr_pending);
  mshr_vpn_hi_w = hdl::vector_wire(top_, "mshr_vpn_hi_w", mshr_vpn_hi),
  mshr_vmid_w = hdl::vector_wire(top_, "mshr_vmid_w", mshr_vmid),
  mshr_waiters_w = hdl::vector_wire(top_, "mshr_waiters_w", mshr_waiters);
  mshr_sent_w = fifo ? Value() : hdl::vector_wire(top_, "mshr_sent_w", mshr_sent),
  mshr_killed_w = hdl::vector_wire(top_, "mshr_killed_w", mshr_killed);
  f2_moh_w = hdl::vector_wire(top_, "f2_moh_w", f2_moh), f3_moh_w = hdl::vector_wire(top_, "f3_moh_w", f3_moh);
}

// Crossbar output port (cycle t): the top arbitrates (its grant feeds the
// input buffer's pop without crossing this module), this TLB takes the winner.
void TlbEmitter::crossbar_port() {
  m_.comment("Crossbar port: the top's round-robin winner, taken with the credit open.");
  // credit: more free MSHRs than lookups in r1 and r2, registered (its next
  // value is set with the count's), so the grants see one flip-flop
  credit = m_.reg("credit", 1, 1);
  credit_o.drive(credit);
  Value sd_load = m_.wire("sd_load", HB ? sd_acc & (sd_vpn.slice(0, HB) == home) : sd_acc);
  Value a_vpn = m_.wire("acc_vpn", mux(sd_load, sd_vpn, N > 1 ? sel_halves(pick, pick_hi, req_vpn, N, VPN, VPN / 2)
                                                                : req_vpn));
  Value a_vmid = m_.wire("acc_vmid", mux(sd_load, sd_vmid, sel(pick, req_vmid, N, VM)));
  r1_v.next(accept);
  r1_sd.next(sd_load);
  if (CB) r1_i.next(hdl::onehot_index(pick, CB));
  r1_vpn.next(a_vpn);
  r1_vmid.next(a_vmid);
  if (IW) r1_iid.next(sel(pick, req_iid, N, IW));
  // each requester's set decoded beside the arbitration, so the grant only
  // selects (r1's set is not read while r1 holds nothing)
  if (S > 1) {
    std::vector<Value> req_sets;
    for (unsigned i = 0; i < N; ++i) req_sets.push_back(set_of(req_vpn.slice(i * VPN, VPN), HB));
    Value rs = m_.wire("req_set", hdl::cat_lsb_first(req_sets));
    r1_set.next(mux(sd_load, set_of(sd_vpn, HB), sel(pick, rs, N, S)));
  }
}

// Fill f1 (read the MSHR), f2 (victim, write), f3 (answer, free). The MSHR is
// read as the response arrives (its vh and vmid are fixed while it is
// pending), so f1 knows the set and can prepare f2's victim.
void TlbEmitter::fill_stages() {
  m_.comment(
      "Fill: the response reads the MSHR, f1 prepares the victim, f2 writes the entry, f3 answers the waiters and "
      "frees the MSHR.");
  Value moh0 = m_.wire("f0_moh", M == 1 ? lit(1, 1) : hdl::one_of(M, l2_mshr));
  if (M == 1) m_.unused("l2_resp_mshr_i", l2_mshr);
  Value vh0 = m_.wire("f0_vh", sel(moh0, mshr_vpn_hi, M, VH));
  f1_v.next(l2_valid);
  f1_moh.next(moh0);
  f1_vh.next(vh0);
  f1_vmid.next(sel(moh0, mshr_vmid, M, VM));
  f1_ppn.next(l2_ppn);
  f1_perm.next(l2_perm);
  Value set0 = S > 1 ? m_.wire("f0_set", set_of(vh0, 0)) : lit(1, 1);
  // whether the responding MSHR's set is r1's / f1's: compared per MSHR from
  // registers, so the response's tag only selects a bit
  f0_same_r1 = lit(1, 1);
  Value f0_same_f1 = lit(1, 1);
  if (S > 1) {
    // (next_edge: no r1 term; the f1 victim takes the late touch's set)
    Wire eq_r1 = late ? Wire() : m_.wire("mset_is_r1", M, true), eq_f1 = m_.wire("mset_is_f1", M, true);
    m_.generate_for("gq", M, "g_mshr_set", [&](Scope& sc, const Index& i) {
      Value mset = sc.wire("mset", mshr_vpn_hi_w.part(i * Index(VH), SB));
      if (!late) sc.assign(eq_r1.bit(i), mset == r1_vpn.slice(HB, SB));
      sc.assign(eq_f1.bit(i), mset == f1_vh.slice(0, SB));
    });
    if (!late) f0_same_r1 = m_.wire("f0_same_r1", any(moh0 & eq_r1));
    f0_same_f1 = m_.wire("f0_same_f1", any(moh0 & eq_f1));
    f1_set.next(set0);
    if (!late) f1_same_r2.next(f0_same_r1);
    f1_same_f2.next(f0_same_f1);
    f2_same_r2.next(any(r1_setv & f1_setv));
  }
  f2_v.next(f1_v);
  f2_moh.next(f1_moh);
  f2_vh.next(f1_vh);
  f2_vmid.next(f1_vmid);
  f2_ppn.next(f1_ppn);
  f2_perm.next(f1_perm);
  if (S > 1) {
    f2_set.next(f1_set);
    f2_ev_set.next(gate(f1_v, f1_set));
  }
  f3_v.next(f2_v);
  // zero unless f3 is valid, so the MSHR free logic starts from the register alone
  f3_moh.next(gate(f2_v, f2_moh));
  f3_vh.next(f2_vh);
  f3_vmid.next(f2_vmid);
  f3_ppn.next(f2_ppn);
  f3_perm.next(f2_perm);
  fill_o.drive(gate(f3_v, sel(f3_moh, mshr_waiters, M, N)));
  fill_vh_o.drive(f3_vh);
  fill_vmid_o.drive(f3_vmid);
  fill_ppn_o.drive(f3_ppn);
  fill_perm_o.drive(f3_perm);
}

// Whether f2 writes its entry: not killed, not named by a one-VPN shootdown in
// sd2, and (`we`) no flush-all.
void TlbEmitter::fill_write_enable() {
  r2_vh = m_.wire("r2_vh", r2_vpn.top(VH));
  f2_sdm_n = m_.wire("f2_sdm_next", r1_sd & (r1_vpn.top(VH) == f1_vh) & (r1_vmid == f1_vmid));
  f2_sdm.next(f2_sdm_n);
  we_one = m_.wire("we_one", f2_v & ~f2_kill & ~f2_sdm);  // unless a flush-all
  we = m_.wire("we", we_one & ~sd_all);
  f_tag = m_.wire("f2_tag", cat({f2_vmid, f2_vh.top(TG)}));
}

// The replacement state: the LRU order matrix, LRU ages (one register per
// way, sets packed) or PLRU trees.
void TlbEmitter::replacement_state() {
  if (p_.lru_matrix) {
    lru_matrix_q = m_.reg("lru_matrix", S * (W * (W - 1) / 2));
    lru_matrix = hdl::vector_wire(top_, "lru_matrix_w", lru_matrix_q);
  } else if (!p_.plru()) {
    ages.emplace(m_, "", W, S, AB);
    age = ages->all();
  } else {
    plru = m_.reg("plru", S * (W - 1));
    plru_v = hdl::vector_wire(top_, "plru_w", plru);
  }
  vict = hdl::vector_wire(top_, "vict", f2_vict);
}

// Compare stage (r1): the set, patched with a same-edge fill.
void TlbEmitter::compare_stage() {
  m_.comment("Compare stage: tags of the r1 set, way `vict` patched when the fill writes that set at this edge.");
  Value c_valid = m_.wire("c_valid", sel(r1_setv, entry_valid, S, W));
  Value c_tag = m_.wire("c_tag", sel(r1_setv, entry_tag, S, W * TAG));
  Value key = m_.wire("c_key", cat({r1_vmid, r1_vpn.top(TG)}));
  Value c_feq = m_.wire("c_feq", f_tag == key);
  Value c_patch = m_.wire("c_patch", we & any(r1_setv & f2_setv));
  Wire match = m_.wire("match", W);
  m_.generate_for("gc", W, "g_cmp", [&](Scope& sc, const Index& w) {
    Value own = c_valid.bit(w) & (c_tag.part(w * Index(TAG), TAG) == key);
    sc.assign(match.bit(w), mux(c_patch & vict.bit(w), c_feq, own));
  });
  r2_v.next(r1_v);
  r2_sd.next(r1_sd);
  if (CB) r2_i.next(r1_i);
  r2_vpn.next(r1_vpn);
  r2_vmid.next(r1_vmid);
  if (IW) r2_iid.next(r1_iid);
  if (S > 1) r2_set.next(r1_set);
  r2_match.next(match);
  r2_sd_match.next(gate(r1_sd, match));
  r2_any.next(any(match));
  if (plru_index) r2_hidx.next(hdl::onehot_index(match, AB));
  if (!late) f1_iv.next(gate(r1_sd & f0_same_r1, match));
  // for the top's "lookup pipelines busy" register (with this edge's acceptances)
  r1_v_o.drive(r1_v);
}

// Decide stage (r2): hit response, MSHR CAM, merge / allocate.
void TlbEmitter::decide_stage() {
  m_.comment(string("Decide stage: hit (PPN read one-hot), else merge into the pending MSHR or allocate ") +
             (fifo ? "the free queue's head." : "the lowest free."));
  hit = m_.wire("hit", r2_v & r2_any);
  dec_i = m_.wire("r2_cu", CB ? hdl::one_of(N, r2_i) : lit(1, 1));
  hit_o.drive(gate(hit, dec_i));
  hit_vpn_o.drive(r2_vpn);
  hit_vmid_o.drive(r2_vmid);
  Value h_ppn_row = m_.wire("h_ppn_row", sel(r2_setv, entry_ppn, S, W * PPN));
  Value h_perm_row = m_.wire("h_perm_row", sel(r2_setv, entry_perm, S, W * PERM));
  hit_ppn_o.drive(sel(r2_match, h_ppn_row, W, PPN));
  hit_perm_o.drive(sel(r2_match, h_perm_row, W, PERM));
  cam = hdl::vector_wire(top_, "cam", mshr_valid & mshr_pending & r2_cam);
  miss = m_.wire("miss", r2_v & ~r2_any);
  alloc = m_.wire("alloc", miss & ~any(cam));
}

// `mshr_alloc: fifo`: the free queue (allocation order) and the send queue
// (L2 order) of MSHR indices.
void TlbEmitter::mshr_queues() {
  flo_w = hdl::vector_wire(top_, "free_low_w", flo);
  m_.comment("Free queue (allocation order) and send queue (L2 order): shift registers of MSHR indices.");
  const ShiftQueue fq = shift_queue(m_, "free_queue", flo, M, MB, true);
  const ShiftQueue sq = shift_queue(m_, "send_queue", m_.reg("send_queue_head", M), M, MB, false);
  Reg send_queue_count = m_.reg("send_queue_count", FB);
  // "the send queue is not empty" as a register of its own: the cluster's
  // round-robin over the candidates, and the take it returns, start from it
  Reg has_cand = m_.reg("cand_any", 1);
  cand_valid_o.drive(has_cand);
  cand_mshr_o.drive(gate(has_cand, sq.head_idx));  // 0 without a candidate, as the registers' reset
  // an empty queue's head one-hot is zero
  cand_vh_o.drive(hdl::onehot_select(sq.head_oh, mshr_vpn_hi, M, VH));
  cand_vmid_o.drive(hdl::onehot_select(sq.head_oh, mshr_vmid, M, VM));
  if (IW) cand_iid_o.drive(hdl::onehot_select(sq.head_oh, mshr_iid, M, IW));
  Value freed_idx = m_.wire("free_queue_in", hdl::onehot_index(f3_moh, MB));
  shift_queue_next(m_, "free_queue", fq, QueueEdge{alloc, f3_v, f3_moh, freed_idx, free, true}, M);
  // the take a TLB receives does not look at its own candidate (the cluster's round-robin)
  Value pop = m_.wire("send_queue_pop", l2_take & has_cand);
  shift_queue_next(m_, "send_queue", sq, QueueEdge{pop, alloc, flo, fq.head_idx, send_queue_count, false}, M);
  send_queue_count.next(mux(alloc, mux(pop, send_queue_count, send_queue_count + lit(FB, 1)),
                            mux(pop, send_queue_count - lit(FB, 1), send_queue_count)));
  has_cand.next(alloc | mux(pop, send_queue_count != lit(FB, 1), has_cand));
}

// `mshr_alloc: lowest`: the candidate is the lowest pending unsent MSHR.
void TlbEmitter::lowest_candidate() {
  Value cv = m_.wire("cand", mshr_valid & mshr_pending & ~mshr_sent & ~sent);
  sent_w = hdl::vector_wire(top_, "sent_w", sent);
  flo_w = hdl::vector_wire(top_, "free_low_w", flo);
  // the same MSHR through a mux tree: its index and data need no one-hot
  std::vector<Value> cdata;
  for (unsigned i = 0; i < M; ++i) {
    const Value key = cat({mshr_vmid.field(i, VM), mshr_vpn_hi.field(i, VH)});
    cdata.push_back(IW ? cat({mshr_iid.field(i, IW), key}) : key);
  }
  const hdl::First first = hdl::first_of(top_, "cand_first", cv, hdl::cat_lsb_first(cdata), MB);
  cand_valid_o.drive(first.any);
  cand_mshr_o.drive(gate(first.any, first.index));  // 0 without a candidate, as the registers' reset
  cand_vh_o.drive(gate(first.any, first.data.slice(0, VH)));
  cand_vmid_o.drive(gate(first.any, first.data.slice(VH, VM)));
  if (IW) cand_iid_o.drive(gate(first.any, first.data.slice(VH + VM, IW)));
  // the candidate's one-hot from its own tree (beside first_of's), not a
  // decode of first_of's index, which would come after that tree
  sent.next(gate(l2_take, M == 1 ? cv : lowest_one_tree(top_, "cand_oh", cv)));
}

// Every MSHR's next state, in the same-edge order: decide, shootdown kill,
// f2 pending clear, f3 free, L2 sent.
void TlbEmitter::mshr_next() {
  Value r1_vh = r1_vpn.top(VH);
  Value same_key = m_.wire("r1_key_is_r2", (r1_vh == r2_vh) & (r1_vmid == r2_vmid));
  m_.comment("MSHRs, in the same-edge order: decide, shootdown kill, f2 pending clear, f3 free, L2 sent.");
  Wire mshr_valid_next = m_.wire("mshr_valid_next", M, true), mshr_pending_next = m_.wire("mshr_pending_next", M, true);
  Wire mshr_sent_next = fifo ? Wire() : m_.wire("mshr_sent_next", M, true);
  Wire mshr_killed_next = m_.wire("mshr_killed_next", M, true);
  Wire mshr_vpn_hi_next = m_.wire("mshr_vpn_hi_next", M * VH, true),
       mshr_vmid_next = m_.wire("mshr_vmid_next", M * VM, true);
  Wire mshr_waiters_next = m_.wire("mshr_waiters_next", M * N, true);
  Wire mshr_iid_next = IW ? m_.wire("mshr_iid_next", M * IW, true) : Wire();
  const Value mshr_iid_w = IW ? hdl::vector_wire(top_, "mshr_iid_w", mshr_iid) : Value();
  Wire cam_n = m_.wire("r2_cam_next", M, true);
  m_.generate_for("gn", M, "g_mshr", [&](Scope& sc, const Index& i) {
    Value al = sc.wire("al", alloc & flo_w.bit(i));
    Value mg = sc.wire("mg", miss & cam.bit(i));
    Value kl = sc.wire("kl", mshr_pending_w.bit(i) & (sd_all | (r2_sd & cam.bit(i))));
    Value pc = sc.wire("pc", f2_v & f2_moh_w.bit(i));
    Value fr = sc.wire("fr", f3_moh_w.bit(i));
    sc.assign(mshr_valid_next.bit(i), ~fr & (al | mshr_valid_w.bit(i)));
    sc.assign(mshr_pending_next.bit(i), ~fr & ~pc & (al | mshr_pending_w.bit(i)));
    if (!fifo) sc.assign(mshr_sent_next.bit(i), ~fr & (sent_w.bit(i) | (~al & mshr_sent_w.bit(i))));
    // a killed MSHR is valid (kill needs pending), so an allocation never
    // finds its kill bit set: the bit needs no allocation term
    sc.assign(mshr_killed_next.bit(i), ~fr & (kl | mshr_killed_w.bit(i)));
    const Index vho = i * Index(VH), vmo = i * Index(VM), wo = i * Index(N);
    // r1's tag against this MSHR as it is after this edge (an allocation writes r2's)
    Value tag_eq = (mshr_vpn_hi_w.part(vho, VH) == r1_vh) & (mshr_vmid_w.part(vmo, VM) == r1_vmid);
    sc.assign(cam_n.bit(i), mux(al, same_key, tag_eq));
    sc.assign(mshr_vpn_hi_next.part(vho, VH), mux(al, r2_vh, mshr_vpn_hi_w.part(vho, VH)));
    sc.assign(mshr_vmid_next.part(vmo, VM), mux(al, r2_vmid, mshr_vmid_w.part(vmo, VM)));
    Value wt = mshr_waiters_w.part(wo, N);
    // a free MSHR's waiter mask is empty, so an allocation adds the CU as a merge does
    sc.assign(mshr_waiters_next.part(wo, N), gate(~fr, wt | gate(al | mg, dec_i)));
    // a merge keeps the ID of the miss that allocated the MSHR
    if (IW) sc.assign(mshr_iid_next.part(i * Index(IW), IW), mux(al, r2_iid, mshr_iid_w.part(i * Index(IW), IW)));
  });
  mshr_valid.next(mshr_valid_next);
  mshr_pending.next(mshr_pending_next);
  if (!fifo) mshr_sent.next(mshr_sent_next);
  mshr_killed.next(mshr_killed_next);
  Value f2_kill_n = m_.wire("f2_kill_next", any(mshr_killed_next & f1_moh));
  f2_kill.next(f2_kill_n);
  // `we` registered apart for the eviction output alone: `we` itself fans out
  // to every entry and age, and the eviction would wait at the end of its
  // buffer tree before the top's eviction registers
  f2_we_ev.next(f1_v & ~f2_kill_n & ~f2_sdm_n & ~sd_all_next);
  mshr_vpn_hi.next(mshr_vpn_hi_next);
  mshr_vmid.next(mshr_vmid_next);
  mshr_waiters.next(mshr_waiters_next);
  if (IW) mshr_iid.next(mshr_iid_next);
  r2_cam.next(cam_n);
}

// The free count and the credit, both from registers; the allocation, decided
// late, only picks one.
void TlbEmitter::mshr_counts() {
  Value freed = m_.wire("free_plus", free + zext(f3_v, FB));
  Value freed_less = m_.wire("free_plus_minus", freed - lit(FB, 1));
  free.next(mux(alloc, freed_less, freed));
  // after this edge r1 holds the acceptance and r2 holds r1
  const auto at_least = [&](unsigned k) { return mux(alloc, freed_less >= lit(FB, k), freed >= lit(FB, k)); };
  credit.next(mux(accept, mux(r1_v, at_least(3), at_least(2)), mux(r1_v, at_least(2), at_least(1))));
}

// The lowest free MSHR after this edge: among this edge's free and the free
// MSHRs, less the one allocated (without an allocation, free_low itself).
// The MSHR f3 frees (one-hot or none, and never free already) wins when no
// free MSHR lies at or below it: its one-hot passes one AND-OR per level of
// a tree whose ORs of the free MSHRs start from registers.
void TlbEmitter::free_low_next() {
  Value fr_oh = m_.wire("free_oh", f3_moh);
  auto lowest_after_free = [&](const string& name, const Value& free_now, const Value& lowest_now) {
    return mux(m_.wire(name + "_fr", one_hot_below_all(fr_oh, free_now, 0, M).first), fr_oh, lowest_now);
  };
  Value lo_keep = lowest_after_free("free_keep", m_.wire("free_keep", ~mshr_valid), flo);
  Value free_alloc = m_.wire("free_alloc", ~mshr_valid & ~flo);
  Value lo_alloc = lowest_after_free("free_alloc", free_alloc, lowest_one_tree(top_, "free_alloc_lo", free_alloc));
  flo.next(mux(alloc, lo_alloc, lo_keep));
}

// Entries: shootdown invalidation, then the fill write.
void TlbEmitter::entries() {
  m_.comment("Entries: invalidation by sd2 (all, or the home TLB's match), then the fill's write.");
  Wire entry_valid_next = m_.wire("entry_valid_next", S * W), entry_tag_next = m_.wire("entry_tag_next", S * W * TAG);
  Wire entry_ppn_next = m_.wire("entry_ppn_next", S * W * PPN),
       entry_perm_next = m_.wire("entry_perm_next", S * W * PERM);
  hit_at = plru_index ? plru_index_decode(m_, "hit_node", r2_hidx, r2_any, AB) : std::vector<Value>{};
  // f2_vict is one-hot from the first edge on, before any fill can touch
  vict_at = plru_index ? plru_index_decode(m_, "vict_node", f2_vidx, Value(), AB) : std::vector<Value>{};
  m_.generate_for("ge", S * W, "g_entry", [&](Scope& sc, const Index& e) {
    const Index s = e / Index(W), w = e % Index(W);
    Value wr = sc.wire("wr", we & f2_setv.bit(s) & vict.bit(w));
    Value iv = sc.wire("iv", sd_all | (r2_sd & r2_setv.bit(s) & r2_match.bit(w)));
    sc.assign(entry_valid_next.bit(e), wr | (~iv & entry_valid.bit(e)));
    const Index to = e * Index(TAG), po = e * Index(PPN), qo = e * Index(PERM);
    sc.assign(entry_tag_next.part(to, TAG), mux(wr, f_tag, entry_tag.part(to, TAG)));
    sc.assign(entry_ppn_next.part(po, PPN), mux(wr, f2_ppn, entry_ppn.part(po, PPN)));
    sc.assign(entry_perm_next.part(qo, PERM), mux(wr, f2_perm, entry_perm.part(qo, PERM)));
  });
  entry_valid.next(entry_valid_next);
  entry_tag.next(entry_tag_next);
  entry_ppn_next_w = entry_ppn_next;
  entry_perm_next_w = entry_perm_next;
}

// Eviction: the valid entry the f2 write replaces, unless sd2 removes it at this edge.
void TlbEmitter::eviction() {
  m_.comment("Eviction: the f2 write's victim way held a valid entry that no shootdown removes at this edge.");
  // each set's victim valid first, the set last: no row select precedes the OR over the ways
  std::vector<Value> e_valid_set;
  for (unsigned s = 0; s < S; ++s) e_valid_set.push_back(any(entry_valid.slice(s * W, W) & f2_ev_vict));
  Value e_valid = m_.wire("e_valid", hdl::cat_lsb_first(e_valid_set));
  Value e_shot = m_.wire("e_shot", (S > 1 ? Value(f2_same_r2) : lit(1, 1)) & any(r2_sd_match & f2_ev_vict));
  evict_o.drive(f2_we_ev & any(S > 1 ? e_valid & f2_ev_set : e_valid) & ~e_shot);
  Value e_tag = m_.wire("e_tag", sel(vict, m_.wire("e_tag_row", sel(f2_setv, entry_tag, S, W * TAG)), W, TAG));
  evict_vh_o.drive(SB ? cat({e_tag.slice(0, TG), f2_vh.slice(0, SB)}) : e_tag.slice(0, TG));
  evict_vmid_o.drive(e_tag.slice(TG, VM));
  evict_ppn_o.drive(sel(vict, m_.wire("e_ppn_row", sel(f2_setv, entry_ppn, S, W * PPN)), W, PPN));
  evict_perm_o.drive(sel(vict, m_.wire("e_perm_row", sel(f2_setv, entry_perm, S, W * PERM)), W, PERM));
  entry_ppn.next(entry_ppn_next_w);
  entry_perm.next(entry_perm_next_w);
}

// Replacement: the hit's (or the late) touch, then the fill's touch.
void TlbEmitter::replacement() {
  m_.comment(late ? "Replacement: the last cycle's touch or untouch, then the fill's touch (same edge, in that order)."
                  : "Replacement: the decide stage's touch, then the fill's touch (same edge, in that order).");
  // an invalidation makes its way the least recent (docs/blocks/l1tlb.md, Replacement)
  unt = m_.wire("untouch", r2_sd & ~sd_all & r2_any);
  if (p_.lru_matrix)
    lru_matrix_q.next(lru_matrix_next(m_, lru_matrix, {hit, unt, r2_setv, r2_match, we, f2_setv, vict, sd_all}, S, W));
  else if (!p_.plru())
    lru_ages();
  else
    plru_trees();
}

// LRU ages: every way's age after this edge's touch (or untouch), the fill's
// touch and a flush-all.
void TlbEmitter::lru_ages() {
  // a flush-all returns every age to its reset value W-1-w
  std::vector<Value> resets;
  for (unsigned w = 0; w < W; ++w) resets.push_back(lit(AB, W - 1 - w));
  Value way_reset = m_.wire("age_reset", hdl::cat_lsb_first(resets));
  // the touch or untouch this edge applies: the decide stage's, or the
  // last cycle's (next_edge)
  // next_edge: the fill's victim is the oldest way of its set (age W-1) after
  // the last edge, and lt_age is the late-touched way's age then, so a
  // compare of registers says whether that way is the victim, not a W-way OR
  const AgeEdge e = late ? age_edge(m_, "age", {lt_hit, lt_unt, lt_setv, lt_way, we, f2_setv, vict, f2_young, sd_all},
                                    lt_oldest)
                         : age_edge(m_, "age", {hit, unt, r2_setv, r2_match, we, f2_setv, vict, f2_young, sd_all});
  // the hit (or invalidated) way's age, read in every set (only r2's is
  // used): decide_edge compares every age with it, with no set select and
  // 1/S of the fan-out; next_edge compares it with lt_age after the set
  // select, so r2_set's fan-out into every row read is not on that path
  Wire ha_set = m_.wire("h_age_a", S * AB);
  m_.generate_for("gh", S, "g_hit_age", [&](Scope& sc, const Index& s) {
    std::vector<Value> row;
    for (unsigned w = 0; w < W; ++w) row.push_back(age.part(Index(w * S * AB) + s * Index(AB), AB));
    Value r = sc.wire("row", hdl::cat_lsb_first(row));
    sc.assign(ha_set.part(s * Index(AB), AB), sel(r2_match, r, W, AB));
  });
  Wire age_n = m_.wire("age_next", W * S * AB);
  m_.generate_for("ga", W * S, "g_age", [&](Scope& sc, const Index& q) {
    const Index w = q / Index(S), s = q % Index(S);
    const Index ao = q * Index(AB);
    Value a = sc.wire("a", age.part(ao, AB));
    Value ha = late ? Value() : ha_set.part(s * Index(AB), AB);
    Value a1 = sc.wire("a1", a + 1), a2 = sc.wire("a2", a1 + 1);
    const AgeWay in = {a, a1, a2, e.way.bit(w), vict.bit(w), f2_young.bit(w), sc.wire("hs", e.hit & e.setv.bit(s)),
                       sc.wire("us", e.unt & e.setv.bit(s)), sc.wire("fs", we & f2_setv.bit(s)),
                       way_reset.part(w * Index(AB), AB)};
    const auto [n_younger, n_older] = ages_after(sc, in, e, AB);
    // next_edge: compared with lt_age's register parts (lt_age itself has an adder)
    Value lh = late ? below_lt_age(sc, "below_lt", a) : a < ha;
    sc.assign(age_n.part(ao, AB), mux(sc.wire("lh", lh), n_younger, n_older));
  });
  ages->next(age_n);
  if (late) late_touch_next(ha_set, e);
}

// lt_age's parts for r2's way h (hit, or invalidated) after this edge. This
// edge's late update is a touch or nothing: a late untouch never meets a valid
// r2 (a shootdown waits for empty pipelines and blocks requests until its sd2
// has passed), nor does a flush-all. The age is read set by set and the set
// selected last (r2_set's fan-out stays off the path); its + 1 runs beside the compare.
void TlbEmitter::late_touch_next(const Value& ha_set, const AgeEdge& e) {
  Value a = m_.wire("h_age", sel(r2_setv, ha_set, S, AB));
  Value a1 = m_.wire("h_age_p1", a + 1);
  Value ts = m_.wire("h_late_touch", lt_hit & any(lt_setv & r2_setv));
  Value is_t = m_.wire("h_is_late", any(r2_match & lt_way));
  Value lh = below_lt_age(top_, "h_below_late", a);
  Value taken = m_.wire("h_late_taken", ts & is_t);
  lt_b.next(gate(~taken, a));
  lt_b1.next(mux(taken, lit(AB, 1), a1));
  // the late touch adds 1 to a way below the touched one
  Value inc = m_.wire("h_late_inc", ts & ~is_t & lh);
  // the fill's touch: h the victim (0), or younger than it after the late touch (+ 1)
  Value fs = m_.wire("h_fill_set", we & any(r2_setv & f2_setv));
  Value is_v = m_.wire("h_is_vict", any(r2_match & vict));
  Value young = any(r2_match & f2_young);
  Value fz = m_.wire("h_fill_zero", fs & is_v);
  Value fi = m_.wire("h_fill_inc", fs & ~is_v & ((young & ~(e.same & e.va)) | (e.same & ~e.va & is_t)));
  lt_fz.next(fz);
  lt_le.next(~fz & (inc | fi));
  lt_le1.next(~fz & inc & fi);
  // lt_age == W-1 after this edge, from the touches' selects over compares
  // of the read age (a + k == W-1: a == W-1-k mod W)
  auto oldest = [&](unsigned k) { return a == lit(AB, (2 * W - 1 - k) % W); };
  Value x1_old = mux(ts, mux(is_t, lit(1, 0), mux(lh, oldest(1), oldest(0))), oldest(0));
  Value x1p_old = mux(ts, mux(is_t, lit(1, W == 2), mux(lh, oldest(2), oldest(1))), oldest(1));
  lt_oldest.next(~fz & mux(fi, x1p_old, x1_old));
  lt_hit.next(hit);
  lt_unt.next(unt);
  lt_way.next(r2_match);
  if (S > 1) lt_set.next(r2_set);
}

// Tree PLRU: every set's node bits after the touch (or untouch), the fill's
// touch and a flush-all.
void TlbEmitter::plru_trees() {
  Wire pl_n = m_.wire("plru_next", S * (W - 1), true);
  m_.generate_for("gs", S, "g_plru", [&](Scope& sc, const Index& s) {
    Value hs = sc.wire("hs", hit & r2_setv.bit(s));
    Value us = sc.wire("us", unt & r2_setv.bit(s));
    Value fs = sc.wire("fs", we & f2_setv.bit(s));
    const PlruUpdates u = {hs, us, fs, sd_all, r2_match, vict, hit_at, vict_at};
    plru_set_next(sc, "gq", plru_v, pl_n, s * Index(W - 1), u, W, AB);
  });
  plru.next(pl_n);
}

// f1: the next write's victim, from the f1 set as it is after this edge. The
// victim is the least recent way: invalid ways are the least recent (an
// invalidation untouches its way; a flush-all resets the order, way 0 least
// recent), so no scan of the valid bits is needed.
void TlbEmitter::next_victim() {
  m_.comment("f1: the victim of the next write: the least recent way of the f1 set after this edge.");
  Value repl_n = p_.plru() ? plru_next_victim() : lru_next_victim();
  Value vict_n = m_.wire("f2_vict_next", mux(sd_all, lit(W, 1), repl_n));
  f2_vict.next(vict_n);
  f2_ev_vict.next(gate(f1_v, vict_n));
  if (plru_index) f2_vidx.next(gate(~sd_all, hdl::onehot_index(repl_n, AB)));
}

// Exact LRU (ages or the order matrix): an untouched way, else the least
// recent way after this edge's touches.
Value TlbEmitter::lru_next_victim() {
  Value same_r2 = S > 1 && !late ? Value(f1_same_r2) : lit(1, 1);
  Value same_f2 = S > 1 ? Value(f1_same_f2) : lit(1, 1);
  // this edge's write in the f1 set
  Value f1_wr = m_.wire("f1_wr", gate(we_one & same_f2, vict));
  // a way untouched at this edge, unless this edge's write takes it, is the
  // least recent after it: invalidated at this edge, or (next_edge) at the last
  Value same_lt = late && S > 1 ? m_.wire("f1_same_lt", any(f1_setv & lt_setv)) : lit(1, 1);
  Value f1_unt = m_.wire("f1_untouched", (late ? gate(lt_unt & same_lt, lt_way) : Value(f1_iv)) & ~f1_wr);
  // the order of the f1 set before this edge's touches
  Value order = p_.lru_matrix ? m_.wire("f1_lru_matrix", sel(f1_setv, lru_matrix, S, W * (W - 1) / 2))
                              : read_rows(age, "f1_age", f1_setv, AB);
  // ways touched at this edge in the f1 set: younger than every untouched way after it
  // (the hit's way is r2_match itself: gating it by `hit` would put the OR of
  // the match row on this path for nothing)
  Value touched = late ? Value() : m_.wire("f1_touched", gate(r2_v & same_r2, r2_match) | f1_wr);
  // next_edge: which of the two oldest ways this edge touches, from the late
  // touch's registered age; the write's way is f2_vict, the least recent of
  // its set in this cycle (f1 chose it as the set is after the last edge)
  std::vector<Value> touched_old;
  if (late) {
    Value lt_f1 = m_.wire("f1_lt_hit", lt_hit & same_lt);
    touched_old.push_back(m_.wire("f1_touch_old0", (lt_f1 & lt_oldest) | (we_one & same_f2)));
    touched_old.push_back(m_.wire("f1_touch_old1", lt_f1 & (lt_age == lit(AB, W - 2))));
  }
  Value lru = p_.lru_matrix
                  ? lru_matrix_victim(m_, order, touched, r2_match, W)
                  : lru_victim_after_touches(m_, order, touched, touched_old, late ? lt_way : r2_match, W, AB);
  // whether a way is untouched: lt_way is one-hot, so the write takes it only
  // if its way is the victim, a compare of registers; the write enable
  // (f2_v's path) then gates one bit rather than a 128-way OR
  Value any_unt = late ? m_.wire("f1_any_untouched",
                                 lt_unt & same_lt & ~(we_one & same_f2 & m_.wire("f1_lt_is_vict", any(lt_way & vict))))
                       : any(f1_unt);
  Value repl_n = mux(any_unt, f1_unt, lru);
  if (!p_.lru_matrix) f2_young.next(~mux(sd_all, lit(W, 1), repl_n));
  return repl_n;
}

// Tree PLRU: the f1 set's tree is selected from the registers and updated as
// its set is, so the set select runs beside the hit, not after it.
Value TlbEmitter::plru_next_victim() {
  Value same_r2 = S > 1 && !late ? Value(f1_same_r2) : lit(1, 1);
  Value same_f2 = S > 1 ? Value(f1_same_f2) : lit(1, 1);
  Value row = hdl::vector_wire(top_, "f1_plru_q", sel(f1_setv, plru_v, S, W - 1));  // indexed even at W = 2
  Wire row_n = m_.wire("f1_plru", W - 1, true);
  Value unt1 = m_.wire("f1_untouch", unt & same_r2);
  const PlruUpdates u = {hit & same_r2, unt1, we & same_f2, sd_all, r2_match, vict, hit_at, vict_at};
  plru_set_next(top_, "gf", row, row_n, 0, u, W, AB);
  Value repl_n = plru_victim(m_, row_n, W, AB);
  m_.unused("unused_f1_iv", f1_iv);
  return repl_n;
}

}  // namespace

std::string emit_tlb(const L1tlbParams& p, const EmitContext& ctx) {
  Module m(p.module_prefix + "_tlb");
  TlbEmitter(p, m).build(ctx);
  return m.render();
}

namespace {

// What the crossbar arbitrates: the ports, or the input buffer's heads (with
// `pop`, the heads it accepts, assigned once the grants are known).
struct Crossbar {
  Value valid, vpn, vmid;
  Wire pop;
  Value home;  // ring input buffer (K > 1): per CU and TLB k, the head is valid with home k (U x K); valid unset
  Value iid;   // the requests' instruction IDs (iid_bits > 0)
};

// Per CU a two-entry FIFO (docs/blocks/l1tlb.md, "Input buffer") for one TLB
// per cluster: entry 0 is the head, read without a multiplexer (its VPN picks
// the set); ready is "entry 1 free", a register, so no port-to-port path runs
// through the arbitration. Drives req_ready_o.
Crossbar input_buffer_shift(Module& m, const L1tlbParams& p, const Value& req_valid, const Value& req_vpn,
                      const Value& req_vmid, const Value& req_iid, Wire& req_ready) {
  const unsigned U = p.cus, VPN = p.vpn_bits, VM = p.vmid_bits, IW = p.iid_bits;
  m.comment("Input buffer: two entries per CU; the crossbar arbitrates the heads, ready is entry 1 free.");
  Reg v0 = m.reg("ib0_v", U), v1 = m.reg("ib1_v", U);
  Reg a0 = m.reg("ib0_vpn", U * VPN), a1 = m.reg("ib1_vpn", U * VPN);
  Reg i0 = m.reg("ib0_vmid", U * VM), i1 = m.reg("ib1_vmid", U * VM);
  Reg d0 = IW ? m.reg("ib0_iid", U * IW) : Reg(), d1 = IW ? m.reg("ib1_iid", U * IW) : Reg();
  Scope& top = m.top();
  Wire pop = m.wire("ib_pop", U, true);
  Value v0w = hdl::vector_wire(top, "ib0_v_w", v0), v1w = hdl::vector_wire(top, "ib1_v_w", v1);
  Value pw = hdl::vector_wire(top, "ib_pop_w", pop), rv = hdl::vector_wire(top, "req_valid_w", req_valid);
  Wire v0n = m.wire("ib0_v_next", U, true), v1n = m.wire("ib1_v_next", U, true);
  Wire a0n = m.wire("ib0_vpn_next", U * VPN, true), a1n = m.wire("ib1_vpn_next", U * VPN, true);
  Wire i0n = m.wire("ib0_vmid_next", U * VM, true), i1n = m.wire("ib1_vmid_next", U * VM, true);
  Wire d0n = IW ? m.wire("ib0_iid_next", U * IW, true) : Wire(), d1n = IW ? m.wire("ib1_iid_next", U * IW, true) : Wire();
  m.generate_for("gb", U, "g_ibuf", [&](Scope& sc, const Index& u) {
    Value push = sc.wire("push", rv.bit(u) & ~v1w.bit(u));
    // the head after this edge comes from a stored entry (1 after a pop, 0
    // otherwise), or else from the port
    Value stored = sc.wire("stored", mux(pw.bit(u), v1w.bit(u), v0w.bit(u)));
    sc.assign(v0n.bit(u), stored | push);
    sc.assign(v1n.bit(u), ~pw.bit(u) & (v1w.bit(u) | (push & v0w.bit(u))));
    const Index ao = u * Index(VPN), io = u * Index(VM);
    const auto next = [&](const Value& e0, const Value& e1, const Value& in, const Wire& n0, const Wire& n1,
                          const Index& o, unsigned w) {
      sc.assign(n0.part(o, w), mux(stored, mux(pw.bit(u), e1.part(o, w), e0.part(o, w)), in.part(o, w)));
      // entry 1 loads the port whenever it is free (valid only after a push onto entry 0)
      sc.assign(n1.part(o, w), mux(v1w.bit(u), e1.part(o, w), in.part(o, w)));
    };
    next(a0, a1, req_vpn, a0n, a1n, ao, VPN);
    next(i0, i1, req_vmid, i0n, i1n, io, VM);
    if (IW) next(d0, d1, req_iid, d0n, d1n, u * Index(IW), IW);
  });
  v0.next(v0n);
  v1.next(v1n);
  a0.next(a0n);
  a1.next(a1n);
  i0.next(i0n);
  i1.next(i1n);
  if (IW) {
    d0.next(d0n);
    d1.next(d1n);
  }
  req_ready.drive(~v1);
  return {v0, a0, i0, pop, Value(), IW ? Value(d0) : Value()};
}

// Per CU a two-entry FIFO (docs/blocks/l1tlb.md, "Input buffer") for several
// TLBs per cluster, as a ring: a push writes the entry at the write pointer,
// a pop clears the head's valid bit and moves the read pointer, so no entry
// moves and the pop (the end of the arbitration) drives a few flip-flops per
// CU, not every entry bit. Each entry keeps its home TLB decoded as it
// enters, and the head's "valid and home k" bits are a register of their own
// (the entry the pointer will name after the edge), so the arbitration starts
// from flip-flops, not from the head's VPN or the read pointer's multiplexer.
// Ready is "an entry free", from registers, so no port-to-port path runs
// through the arbitration. Drives req_ready_o.
Crossbar input_buffer_ring(Module& m, const L1tlbParams& p, const Value& req_valid, const Value& req_vpn,
                      const Value& req_vmid, const Value& req_iid, Wire& req_ready) {
  const unsigned U = p.cus, VPN = p.vpn_bits, VM = p.vmid_bits, K = p.tlbs_per_cluster, HB = p.home_bits;
  const unsigned IW = p.iid_bits;
  m.comment("Input buffer: a two-entry ring per CU; the crossbar arbitrates the heads, ready is an entry free.");
  Reg v0 = m.reg("ib0_v", U), v1 = m.reg("ib1_v", U), rd = m.reg("ib_rd", U), wr = m.reg("ib_wr", U);
  Reg a0 = m.reg("ib0_vpn", U * VPN), a1 = m.reg("ib1_vpn", U * VPN);
  Reg i0 = m.reg("ib0_vmid", U * VM), i1 = m.reg("ib1_vmid", U * VM);
  Reg h0 = m.reg("ib0_home", U * K), h1 = m.reg("ib1_home", U * K);
  Reg d0 = IW ? m.reg("ib0_iid", U * IW) : Reg(), d1 = IW ? m.reg("ib1_iid", U * IW) : Reg();
  Wire hd = IW ? m.wire("ib_head_iid", U * IW, true) : Wire();
  Wire d0n = IW ? m.wire("ib0_iid_next", U * IW, true) : Wire(), d1n = IW ? m.wire("ib1_iid_next", U * IW, true) : Wire();
  Scope& top = m.top();
  Wire pop = m.wire("ib_pop", U, true);
  Value v0w = hdl::vector_wire(top, "ib0_v_w", v0), v1w = hdl::vector_wire(top, "ib1_v_w", v1);
  Value rdw = hdl::vector_wire(top, "ib_rd_w", rd), wrw = hdl::vector_wire(top, "ib_wr_w", wr);
  Value pw = hdl::vector_wire(top, "ib_pop_w", pop), rv = hdl::vector_wire(top, "req_valid_w", req_valid);
  Wire v0n = m.wire("ib0_v_next", U, true), v1n = m.wire("ib1_v_next", U, true);
  Wire ha = m.wire("ib_head_vpn", U * VPN, true);
  Wire hi = m.wire("ib_head_vmid", U * VM, true);
  Wire a0n = m.wire("ib0_vpn_next", U * VPN, true), a1n = m.wire("ib1_vpn_next", U * VPN, true);
  Wire i0n = m.wire("ib0_vmid_next", U * VM, true), i1n = m.wire("ib1_vmid_next", U * VM, true);
  Reg hk = m.reg("ib_head_home", U * K);
  Wire hkn = m.wire("ib_head_home_next", U * K, true), home_in = m.wire("ib_home_in", U * K, true);
  Wire h0n = m.wire("ib0_home_next", U * K, true), h1n = m.wire("ib1_home_next", U * K, true);
  Wire ready = m.wire("ib_ready", U, true);
  m.generate_for("gb", U, "g_ibuf", [&](Scope& sc, const Index& u) {
    Value free = sc.wire("free", ~(v0w.bit(u) & v1w.bit(u)));
    sc.assign(ready.bit(u), free);
    Value push = sc.wire("push", rv.bit(u) & free);
    Value push0 = sc.wire("push0", push & ~wrw.bit(u)), push1 = sc.wire("push1", push & wrw.bit(u));
    Value pop0 = sc.wire("pop0", pw.bit(u) & ~rdw.bit(u)), pop1 = sc.wire("pop1", pw.bit(u) & rdw.bit(u));
    // a push never writes the entry a pop clears at the same edge: with one
    // entry held the pointers differ, and with none nothing pops
    sc.assign(v0n.bit(u), push0 | (v0w.bit(u) & ~pop0));
    sc.assign(v1n.bit(u), push1 | (v1w.bit(u) & ~pop1));
    // each entry's next value: the port's field if the push writes it
    const auto store = [&](const Value& e0, const Value& e1, const Value& in, const Wire& n0, const Wire& n1,
                           unsigned w) {
      const Index o = u * Index(w);
      sc.assign(n0.part(o, w), mux(push0, in.part(o, w), e0.part(o, w)));
      sc.assign(n1.part(o, w), mux(push1, in.part(o, w), e1.part(o, w)));
    };
    // a data field: stored, and read at the head through the read pointer
    const auto entries = [&](const Value& e0, const Value& e1, const Value& in, const Wire& n0, const Wire& n1,
                             const Wire& head, unsigned w) {
      store(e0, e1, in, n0, n1, w);
      const Index o = u * Index(w);
      sc.assign(head.part(o, w), mux(rdw.bit(u), e1.part(o, w), e0.part(o, w)));
    };
    const Index ao = u * Index(VPN);
    entries(a0, a1, req_vpn, a0n, a1n, ha, VPN);
    entries(i0, i1, req_vmid, i0n, i1n, hi, VM);
    if (IW) entries(d0, d1, req_iid, d0n, d1n, hd, IW);
    const Index ko = u * Index(K);
    sc.assign(home_in.part(ko, K), hdl::one_of(K, req_vpn.part(ao, HB)));
    // the head requests TLB k after the edge: the entry the pointer names
    // then, valid with home k; the pop (the grant) selects last
    store(h0, h1, home_in, h0n, h1n, K);
    Value e0 = sc.wire("e0_req", gate(v0w.bit(u) | push0, h0n.part(ko, K)));
    Value e1 = sc.wire("e1_req", gate(v1w.bit(u) | push1, h1n.part(ko, K)));
    Value stay = sc.wire("head_stay", mux(rdw.bit(u), e1, e0)), moved = sc.wire("head_moved", mux(rdw.bit(u), e0, e1));
    sc.assign(hkn.part(ko, K), mux(pw.bit(u), moved, stay));
  });
  v0.next(v0n);
  v1.next(v1n);
  rd.next(rd ^ pop);
  wr.next(wr ^ (req_valid & ready));
  a0.next(a0n);
  a1.next(a1n);
  i0.next(i0n);
  i1.next(i1n);
  h0.next(h0n);
  h1.next(h1n);
  hk.next(hkn);
  if (IW) {
    d0.next(d0n);
    d1.next(d1n);
  }
  req_ready.drive(ready);
  return {Value(), ha, hi, pop, hk, IW ? Value(hd) : Value()};
}

// The input buffer's heads of cluster c whose home is TLB k (N bits).
Value home_reqs(Module& m, const L1tlbParams& p, const Value& home, unsigned c, unsigned k) {
  const unsigned N = p.cus_per_cluster, K = p.tlbs_per_cluster;
  std::vector<Value> bits;
  for (unsigned i = 0; i < N; ++i) bits.push_back(home.bit((c * N + i) * K + k));
  return m.wire("c" + to_string(c) + "_t" + to_string(k) + "_req", hdl::cat_lsb_first(bits));
}

struct Crossport {
  Value req, pick, accept, grant;  // requesters, round-robin winner, taken, the CUs' ready (winner while taken)
};

// One TLB's crossbar output port, in the top: its requesters (the CUs whose
// home is TLB k, or `home_req` from the input buffer), round-robin from a
// thermometer pointer (the CUs at or above it, so no decode before the mask),
// taken while `open`. The grant reaches the CUs' ready (or the buffer's pop)
// without the winner's select fan-out inside the TLB.
Crossport crossport(Module& m, const L1tlbParams& p, const string& prefix, const Value& valid, const Value& home_req,
                    const Value& vpn, unsigned k, const Value& open) {
  const unsigned N = p.cus_per_cluster, HB = p.home_bits, VPN = p.vpn_bits;
  Value req = home_req;
  if (!req.valid()) {
    std::vector<Value> reqs;
    for (unsigned i = 0; i < N; ++i)
      reqs.push_back(HB ? valid.bit(i) & (vpn.slice(i * VPN, HB) == lit(HB, k)) : valid.bit(i));
    req = m.wire(prefix + "req", hdl::cat_lsb_first(reqs));
  }
  Value accept = m.wire(prefix + "accept", any(req) & open);
  Value pick = req;
  if (N > 1) {
    Reg ptr_ge = m.reg(prefix + "ptr_ge", N, N == 64 ? ~uint64_t{0} : (uint64_t{1} << N) - 1);
    const hdl::RoundRobin rr = hdl::round_robin_thermo(m.top(), prefix + "win", req, ptr_ge);
    pick = rr.grant;
    ptr_ge.next_if(accept, rr.next_ge);
  }
  return {req, pick, accept, m.wire(prefix + "grant", gate(open, pick))};
}

}  // namespace

std::string emit_top(const L1tlbParams& p, const EmitContext& ctx) { return build_top(p, ctx)->render(); }

hdl::Interface top_interface(const L1tlbParams& p, const EmitContext& ctx) { return build_top(p, ctx)->interface(); }

namespace {

TXGEN_PORT_HANDLES(TopPorts, TXGEN_L1TLB_PORTS)

// The block top under construction: the shootdown sequencer, the optional
// input buffer, per cluster the TLBs, their crossbar ports and the L2 request
// register, and the per-CU and per-cluster output registers.
class TopEmitter {
 public:
  TopEmitter(const L1tlbParams& p, Module& m, const hdl::Interface& tlb)
      : p_(p), m_(m), tif_(tlb), U(p.cus), C(p.clusters), N(p.cus_per_cluster), K(p.tlbs_per_cluster),
        VPN(p.vpn_bits), VM(p.vmid_bits), PPN(p.ppn_bits), PERM(p.perm_bits), HB(p.home_bits), VH(p.vpn_hi_bits),
        MB(p.mshr_bits), LT(p.l2_tag_bits), IW(p.iid_bits), ready_bits(U), resp_v(U), resp_vpn(U), resp_vmid(U), resp_ppn(U),
        resp_perm(U), fill_v(U), fill_vpn(U), fill_vmid(U), fill_ppn(U), fill_perm(U), q_valid(C), q_vpn(C), q_vmid(C),
        q_tag(C), q_iid(C), evict_v(C), evict_vpn(C), evict_vmid(C), evict_ppn(C), evict_perm(C) {}

  void build(const EmitContext& ctx) {
    module_header(m_, ctx, "l1tlb", "aggregated / clustered L1-TLBs with CU-to-TLB crossbars (docs/blocks/l1tlb.md)",
                  params_json(p_));
    cr_ = m_.clock_and_reset();
    TXGEN_DECLARE_PORTS(TXGEN_L1TLB_PORTS, m_, p_, io);
    shootdown();
    // the optional input buffer: the crossbar sees its heads instead of the ports
    xin_ = {io.req_valid_i, io.req_vpn_i, io.req_vmid_i, Wire(), Value(), io.req_iid_i};
    if (p_.input_buffer)
      xin_ = HB ? input_buffer_ring(m_, p_, io.req_valid_i, io.req_vpn_i, io.req_vmid_i, io.req_iid_i, io.req_ready_o)
                : input_buffer_shift(m_, p_, io.req_valid_i, io.req_vpn_i, io.req_vmid_i, io.req_iid_i, io.req_ready_o);
    for (unsigned c = 0; c < C; ++c) cluster(c);
    // without the buffer a grant is the port's ready; with it, the head's pop
    if (p_.input_buffer)
      m_.assign(xin_.pop, hdl::cat_lsb_first(ready_bits));
    else
      io.req_ready_o.drive(hdl::cat_lsb_first(ready_bits));
    io.l2_req_valid_o.drive(hdl::cat_lsb_first(q_valid));
    io.l2_req_vpn_o.drive(hdl::cat_lsb_first(q_vpn));
    io.l2_req_vmid_o.drive(hdl::cat_lsb_first(q_vmid));
    io.l2_req_tag_o.drive(hdl::cat_lsb_first(q_tag));
    if (IW) io.l2_req_iid_o.drive(hdl::cat_lsb_first(q_iid));
    response_registers();
    eviction_registers();
  }

 private:
  // One TLB instance's outputs, as the top's wires t<j>_*.
  struct TlbOut {
    Wire credit, hit, hvpn, hvmid, hppn, hperm, cv, cm, cvh, cvm, civ, fill, fvh, fvm, fppn, fperm, r1v;
    Wire ev, evh, evm, eppn, eperm;
  };
  // A cluster's L2 request register and its round-robin over the TLBs.
  struct L2Request {
    Value cand, load;
    Reg lp;
  };

  void shootdown();
  void cluster(unsigned c);
  TlbOut tlb_wires(unsigned j);
  L2Request l2_request(unsigned c, const std::vector<TlbOut>& t);
  // Returns the port's grant (the CUs' ready, or the buffer's pop).
  Value tlb_instance(unsigned c, unsigned k, const TlbOut& x, const L2Request& q, const Value& rtag);
  void cluster_eviction(unsigned c, const std::vector<TlbOut>& t);
  void cu_responses(unsigned c, const std::vector<TlbOut>& t, const std::vector<Value>& grants);
  void response_registers();
  void eviction_registers();
  // A register per entry, loaded when its valid is set, held otherwise, driving `port`.
  void out_regs(const string& name, Wire& port, const std::vector<Value>& valid, const std::vector<Value>& data,
                unsigned width);

  const L1tlbParams& p_;
  Module& m_;
  const hdl::Interface& tif_;
  const unsigned U, C, N, K, VPN, VM, PPN, PERM, HB, VH, MB, LT, IW;
  Module::ClockReset cr_;
  Crossbar xin_;
  TopPorts io;
  // the shootdown sequencer's signals the TLBs take
  Wire r1_busy, bids;
  Value sd_block, sd_one, sd_flush_next;
  // per CU and per cluster, before the output registers
  std::vector<Value> ready_bits, resp_v, resp_vpn, resp_vmid, resp_ppn, resp_perm, fill_v, fill_vpn, fill_vmid,
      fill_ppn, fill_perm, q_valid, q_vpn, q_vmid, q_tag, q_iid, evict_v, evict_vpn, evict_vmid, evict_ppn, evict_perm;
};

void TopEmitter::shootdown() {
  m_.comment("Shootdown: accepted when every lookup pipeline is empty; sd1 compares, sd2 invalidates, then done.");
  Reg sd1_v = m_.reg("sd1_v", 1), sd1_all = m_.reg("sd1_all", 1), sd2_v = m_.reg("sd2_v", 1),
      done = m_.reg("sd_done", 1);
  // "some TLB's compare or decide stage is valid", registered, so the
  // acceptance starts from flip-flops: after this edge r2 holds r1, and r1
  // an acceptance, which needs some requester, the credit and no shootdown.
  // The requesters' OR is taken here apart from the crossbar ports' accept,
  // whose fan-out into the pointers and the TLBs' r1 would come first.
  r1_busy = m_.wire("r1_busy", p_.tlbs, true), bids = m_.wire("tlb_bid", p_.tlbs, true);
  Reg busy = m_.reg("tlb_busy", 1);
  Value sd_ready = m_.wire("sd_ready", ~sd1_v & ~sd2_v & ~busy);
  Value sd_acc = m_.wire("sd_acc", io.sd_valid_i & sd_ready);
  sd_block = m_.wire("sd_block", io.sd_valid_i | sd1_v | sd2_v);
  busy.next((~sd_block & any(bids)) | any(r1_busy));
  sd_one = m_.wire("sd_one", sd_acc & ~io.sd_all_i);
  // sd2's flush-all is registered in each TLB, from this
  sd_flush_next = m_.wire("sd_flush_next", sd1_v & sd1_all);
  sd1_v.next(sd_acc);
  sd1_all.next(sd_acc & io.sd_all_i);
  sd2_v.next(sd1_v);
  done.next(sd2_v);
  io.sd_ready_o.drive(sd_ready);
  io.sd_done_o.drive(done);
}

// Cluster c: its TLBs (their outputs as wires first), the L2 request
// register, the instances, the eviction and the per-CU responses.
void TopEmitter::cluster(unsigned c) {
  Value rtag = m_.wire("c" + to_string(c) + "_rtag", io.l2_resp_tag_i.field(c, LT));
  std::vector<TlbOut> t;
  for (unsigned k = 0; k < K; ++k) {
    t.push_back(tlb_wires(c * K + k));
    m_.assign(r1_busy.bit(c * K + k), t.back().r1v);
  }
  const L2Request q = l2_request(c, t);
  std::vector<Value> grants(K);
  for (unsigned k = 0; k < K; ++k) grants[k] = tlb_instance(c, k, t[k], q, rtag);
  cluster_eviction(c, t);
  cu_responses(c, t, grants);
}

TopEmitter::TlbOut TopEmitter::tlb_wires(unsigned j) {
  const string js = "t" + to_string(j) + "_";
  TlbOut x;
  x.credit = m_.wire(js + "credit", 1);
  x.r1v = m_.wire(js + "r1_v", 1);
  x.hit = m_.wire(js + "hit", N);
  x.hvpn = m_.wire(js + "hit_vpn", VPN);
  x.hvmid = m_.wire(js + "hit_vmid", VM);
  x.hppn = m_.wire(js + "hit_ppn", PPN);
  x.hperm = m_.wire(js + "hit_perm", PERM);
  x.cv = m_.wire(js + "cand_valid", 1);
  x.cm = m_.wire(js + "cand_mshr", MB);
  x.cvh = m_.wire(js + "cand_vh", VH);
  x.cvm = m_.wire(js + "cand_vmid", VM);
  if (IW) x.civ = m_.wire(js + "cand_iid", IW);
  x.fill = m_.wire(js + "fill", N);
  x.fvh = m_.wire(js + "fill_vh", VH);
  x.fvm = m_.wire(js + "fill_vmid", VM);
  x.fppn = m_.wire(js + "fill_ppn", PPN);
  x.fperm = m_.wire(js + "fill_perm", PERM);
  x.ev = m_.wire(js + "evict", 1);
  x.evh = m_.wire(js + "evict_vh", VH);
  x.evm = m_.wire(js + "evict_vmid", VM);
  x.eppn = m_.wire(js + "evict_ppn", PPN);
  x.eperm = m_.wire(js + "evict_perm", PERM);
  return x;
}

// L2 request register of cluster c: round-robin over its TLBs from lp.
TopEmitter::L2Request TopEmitter::l2_request(unsigned c, const std::vector<TlbOut>& t) {
  const string cs = to_string(c);
  std::vector<Value> cands;
  for (const TlbOut& x : t) cands.push_back(x.cv);
  m_.comment("Cluster " + cs + ": L2 request register, round-robin over the TLBs' lowest unsent pending MSHRs.");
  Reg qv = m_.reg("q" + cs + "_v", 1), qm = m_.reg("q" + cs + "_mshr", MB), qvh = m_.reg("q" + cs + "_vh", VH),
      qvm = m_.reg("q" + cs + "_vmid", VM);
  Reg qiv = IW ? m_.reg("q" + cs + "_iid", IW) : Reg();
  Reg qk = HB ? m_.reg("q" + cs + "_k", HB) : Reg();
  L2Request q;
  q.cand = m_.wire("c" + cs + "_cand", hdl::cat_lsb_first(cands));
  Value pick = q.cand;
  if (K > 1) {
    q.lp = m_.reg("lp" + cs, K, 1);
    pick = hdl::round_robin_pick(m_.top(), "c" + cs + "_pick", q.cand, q.lp);
  }
  q.load = m_.wire("c" + cs + "_load", ~qv | io.l2_req_ready_i.bit(c));
  Value chosen = m_.wire("c" + cs + "_chosen", any(q.cand));
  if (K > 1) q.lp.next_if(q.load & chosen, hdl::rotate_left1(pick));
  std::vector<Value> cm, cvh, cvm, civ;
  for (const TlbOut& x : t) {
    cm.push_back(x.cm);
    cvh.push_back(x.cvh);
    cvm.push_back(x.cvm);
    if (IW) civ.push_back(x.civ);
  }
  qv.next(mux(q.load, chosen, qv));
  // the output data registers hold while nothing new is chosen
  Value take = m_.wire("c" + cs + "_take", q.load & chosen);
  qm.next(mux(take, sel(pick, m_.wire("c" + cs + "_cand_mshr", hdl::cat_lsb_first(cm)), K, MB), qm));
  qvh.next(mux(take, sel(pick, m_.wire("c" + cs + "_cand_vh", hdl::cat_lsb_first(cvh)), K, VH), qvh));
  qvm.next(mux(take, sel(pick, m_.wire("c" + cs + "_cand_vmid", hdl::cat_lsb_first(cvm)), K, VM), qvm));
  if (IW) qiv.next(mux(take, sel(pick, m_.wire("c" + cs + "_cand_iid", hdl::cat_lsb_first(civ)), K, IW), qiv));
  if (HB) qk.next(mux(take, hdl::onehot_index(pick, HB), qk));
  q_iid[c] = qiv;
  q_valid[c] = qv;
  q_vpn[c] = HB ? cat({qvh, qk}) : Value(qvh);
  q_vmid[c] = qvm;
  q_tag[c] = HB ? cat({qk, qm}) : Value(qm);
  return q;
}

// TLB k of cluster c (TLB j = c K + k): its crossbar port and its instance.
Value TopEmitter::tlb_instance(unsigned c, unsigned k, const TlbOut& x, const L2Request& q, const Value& rtag) {
  const unsigned j = c * K + k;
  Value cl_valid = xin_.valid.valid() ? xin_.valid.slice(c * N, N) : Value();
  Value cl_vpn = xin_.vpn.slice(c * N * VPN, N * VPN);
  Value cl_vmid = xin_.vmid.slice(c * N * VM, N * VM);
  Value rmshr = rtag.slice(0, MB);
  Value rk = HB ? rtag.slice(MB, HB) : Value();
  std::vector<std::pair<string, Value>> conn = {{"clk_i", cr_.clk}, {"rst_ni", cr_.rst_n}};
  // this TLB's own candidate bit is implied by its sent one-hot: only the TLBs ahead matter
  Value tlb_take = K == 1 ? q.load : q.load & ~hdl::round_robin_ahead(q.cand, q.lp, k);
  if (HB) conn.push_back({"home_i", lit(HB, k)});
  Value rv = HB ? io.l2_resp_valid_i.bit(c) & (rk == lit(HB, k)) : io.l2_resp_valid_i.bit(c);
  const Crossport xp = crossport(m_, p_, "t" + to_string(j) + "_", xin_.home.valid() ? Value() : cl_valid,
                                 xin_.home.valid() ? home_reqs(m_, p_, xin_.home, c, k) : Value(), cl_vpn, k,
                                 x.credit & ~sd_block);
  m_.assign(bids.bit(j), any(xp.req) & x.credit);
  std::vector<std::pair<string, Value>> rest = {
      {"pick_i", xp.pick}, {"accept_i", xp.accept}, {"req_vpn_i", cl_vpn}, {"req_vmid_i", cl_vmid},
      {"sd_acc_i", sd_one}, {"sd_vpn_i", io.sd_vpn_i}, {"sd_vmid_i", io.sd_vmid_i},
      {"sd_all_next_i", sd_flush_next}, {"l2_take_i", tlb_take}, {"l2_resp_valid_i", rv},
      {"l2_resp_mshr_i", rmshr}, {"l2_resp_ppn_i", io.l2_resp_ppn_i.field(c, PPN)},
      {"l2_resp_perm_i", io.l2_resp_perm_i.field(c, PERM)}, {"credit_o", x.credit}, {"r1_v_o", x.r1v},
      {"hit_o", x.hit}, {"hit_vpn_o", x.hvpn}, {"hit_vmid_o", x.hvmid}, {"hit_ppn_o", x.hppn},
      {"hit_perm_o", x.hperm}, {"cand_valid_o", x.cv}, {"cand_mshr_o", x.cm}, {"cand_vh_o", x.cvh},
      {"cand_vmid_o", x.cvm}, {"fill_o", x.fill}, {"fill_vh_o", x.fvh}, {"fill_vmid_o", x.fvm},
      {"fill_ppn_o", x.fppn}, {"fill_perm_o", x.fperm}, {"evict_o", x.ev}, {"evict_vh_o", x.evh},
      {"evict_vmid_o", x.evm}, {"evict_ppn_o", x.eppn}, {"evict_perm_o", x.eperm}};
  conn.insert(conn.end(), rest.begin(), rest.end());
  if (N > 1) conn.push_back({"pick_hi_i", xp.pick});
  if (IW) {
    conn.push_back({"req_iid_i", xin_.iid.slice(c * N * IW, N * IW)});
    conn.push_back({"cand_iid_o", x.civ});
  }
  m_.instance(tif_, "u_tlb" + to_string(j), conn);
  return xp.grant;
}

// The cluster's eviction: one fill per cluster per cycle, so one TLB at most.
void TopEmitter::cluster_eviction(unsigned c, const std::vector<TlbOut>& t) {
  const string cs = to_string(c);
  std::vector<Value> e, ev, em, ep, eq;
  for (unsigned k = 0; k < K; ++k) {
    e.push_back(t[k].ev);
    ev.push_back(HB ? cat({t[k].evh, lit(HB, k)}) : Value(t[k].evh));
    em.push_back(t[k].evm);
    ep.push_back(t[k].eppn);
    eq.push_back(t[k].eperm);
  }
  Value eoh = m_.wire("c" + cs + "_evict", hdl::cat_lsb_first(e));
  auto pick_k = [&](const string& name, const std::vector<Value>& v, unsigned width) {
    return sel(eoh, K == 1 ? v[0] : m_.wire("c" + cs + "_" + name, hdl::cat_lsb_first(v)), K, width);
  };
  evict_v[c] = any(eoh);
  evict_vpn[c] = pick_k("evict_vpn", ev, VPN);
  evict_vmid[c] = pick_k("evict_vmid", em, VM);
  evict_ppn[c] = pick_k("evict_ppn", ep, PPN);
  evict_perm[c] = pick_k("evict_perm", eq, PERM);
}

// Per CU of cluster c: ready, hit and fill responses (one TLB at most each).
void TopEmitter::cu_responses(unsigned c, const std::vector<TlbOut>& t, const std::vector<Value>& grants) {
  for (unsigned i = 0; i < N; ++i) {
    const unsigned u = c * N + i;
    std::vector<Value> g, h, f, hv, hm, hp, hq, fv, fm, fp, fq;
    for (unsigned k = 0; k < K; ++k) {
      g.push_back(grants[k].bit(i));
      h.push_back(t[k].hit.bit(i));
      f.push_back(t[k].fill.bit(i));
      hv.push_back(t[k].hvpn);
      hm.push_back(t[k].hvmid);
      hp.push_back(t[k].hppn);
      hq.push_back(t[k].hperm);
      fv.push_back(HB ? cat({t[k].fvh, lit(HB, k)}) : Value(t[k].fvh));
      fm.push_back(t[k].fvm);
      fp.push_back(t[k].fppn);
      fq.push_back(t[k].fperm);
    }
    const string us = "u" + to_string(u) + "_";
    // one TLB's field, else the one-hot's select over the cluster's TLBs
    auto pick_k = [&](const Value& oh, const string& name, const std::vector<Value>& v, unsigned width) {
      return sel(oh, K == 1 ? v[0] : m_.wire(us + name, hdl::cat_lsb_first(v)), K, width);
    };
    ready_bits[u] = hdl::or_of(g, zero(1));
    Value hoh = m_.wire(us + "hit", hdl::cat_lsb_first(h));
    Value foh = m_.wire(us + "fill", hdl::cat_lsb_first(f));
    resp_v[u] = any(hoh);
    resp_vpn[u] = pick_k(hoh, "hit_vpn", hv, VPN);
    resp_vmid[u] = pick_k(hoh, "hit_vmid", hm, VM);
    resp_ppn[u] = pick_k(hoh, "hit_ppn", hp, PPN);
    resp_perm[u] = pick_k(hoh, "hit_perm", hq, PERM);
    fill_v[u] = any(foh);
    fill_vpn[u] = pick_k(foh, "fill_vpn", fv, VPN);
    fill_vmid[u] = pick_k(foh, "fill_vmid", fm, VM);
    fill_ppn[u] = pick_k(foh, "fill_ppn", fp, PPN);
    fill_perm[u] = pick_k(foh, "fill_perm", fq, PERM);
  }
}

void TopEmitter::out_regs(const string& name, Wire& port, const std::vector<Value>& valid,
                          const std::vector<Value>& data, unsigned width) {
  const unsigned n = static_cast<unsigned>(valid.size());
  Reg r = m_.reg(name, n * width);
  std::vector<Value> next;
  for (unsigned u = 0; u < n; ++u) next.push_back(mux(valid[u], data[u], r.field(u, width)));
  r.next(hdl::cat_lsb_first(next));
  port.drive(r);
}

// Per-CU output registers: loaded when valid, held otherwise.
void TopEmitter::response_registers() {
  m_.comment("Per-CU response registers: data loaded only with its valid.");
  Value rv_n = m_.wire("resp_valid_next", hdl::cat_lsb_first(resp_v));
  Value fv_n = m_.wire("fill_valid_next", hdl::cat_lsb_first(fill_v));
  Reg resp_valid = m_.reg("resp_valid", U), fill_valid = m_.reg("fill_valid", U);
  resp_valid.next(rv_n);
  fill_valid.next(fv_n);
  io.resp_valid_o.drive(resp_valid);
  io.fill_valid_o.drive(fill_valid);
  std::vector<Value> rvb = hdl::bits_of(rv_n), fvb = hdl::bits_of(fv_n);
  out_regs("resp_vpn", io.resp_vpn_o, rvb, resp_vpn, VPN);
  out_regs("resp_vmid", io.resp_vmid_o, rvb, resp_vmid, VM);
  out_regs("resp_ppn", io.resp_ppn_o, rvb, resp_ppn, PPN);
  out_regs("resp_perm", io.resp_perm_o, rvb, resp_perm, PERM);
  out_regs("fill_vpn", io.fill_vpn_o, fvb, fill_vpn, VPN);
  out_regs("fill_vmid", io.fill_vmid_o, fvb, fill_vmid, VM);
  out_regs("fill_ppn", io.fill_ppn_o, fvb, fill_ppn, PPN);
  out_regs("fill_perm", io.fill_perm_o, fvb, fill_perm, PERM);
}

// Per-cluster eviction registers: loaded when valid, held otherwise.
void TopEmitter::eviction_registers() {
  m_.comment("Per-cluster eviction registers: data loaded only with its valid.");
  Value ev_n = m_.wire("evict_valid_next", hdl::cat_lsb_first(evict_v));
  Reg evict_valid = m_.reg("evict_valid", C);
  evict_valid.next(ev_n);
  io.evict_valid_o.drive(evict_valid);
  std::vector<Value> evb = hdl::bits_of(ev_n);
  out_regs("evict_vpn", io.evict_vpn_o, evb, evict_vpn, VPN);
  out_regs("evict_vmid", io.evict_vmid_o, evb, evict_vmid, VM);
  out_regs("evict_ppn", io.evict_ppn_o, evb, evict_ppn, PPN);
  out_regs("evict_perm", io.evict_perm_o, evb, evict_perm, PERM);
}

}  // namespace

std::unique_ptr<Module> build_top(const L1tlbParams& p, const EmitContext& ctx) {
  Module tlb(p.module_prefix + "_tlb");
  TlbEmitter(p, tlb).build(ctx);
  auto top = std::make_unique<Module>(p.module_prefix);
  TopEmitter(p, *top, tlb.interface()).build(ctx);
  return top;
}

namespace {

BlockOutput emit_l1tlb(const config::Config& cfg, const EmitContext& ctx) {
  const L1tlbParams p = elab::elaborate_l1tlb(cfg);
  BlockOutput out;
  out.files.push_back({p.module_prefix + "_tlb.v", emit_tlb(p, ctx)});
  out.files.push_back({p.module_prefix + ".v", emit_top(p, ctx)});
  out.parameters = params_json(p);
  return out;
}

std::vector<std::string> synth_tops(const config::Config& c) { return {elab::elaborate_l1tlb(c).module_prefix}; }

std::vector<CosimTop> cosim_tops(const config::Config& c) {
  const L1tlbParams p = elab::elaborate_l1tlb(c);
  return {{"sys", p.module_prefix, ports::l1tlb_ports(p)}};
}

// Per CU and per cluster, from the ports (docs/power.md).
std::vector<power::Operation> power_operations(const config::Config& c) {
  const std::string m = elab::elaborate_l1tlb(c).module_prefix;
  return {{m, "lookup", {"req_valid_i", "req_ready_o"}},
          {m, "translation served", {"resp_valid_o|fill_valid_o"}},
          {m, "hit", {"resp_valid_o"}},
          {m, "fill", {"fill_valid_o"}},
          {m, "L2-TLB request", {"l2_req_valid_o", "l2_req_ready_i"}}};
}

}  // namespace
}  // namespace txgen::blocks::l1tlb

namespace txgen::blocks {

BlockInfo l1tlb_block() {
  BlockInfo b;
  b.name = "l1tlb";
  b.summary = "aggregated / clustered L1-TLBs with CU-to-TLB crossbars, MSHRs, L2 ports, shootdown (seed 001, 4-6)";
  b.configured = [](const config::Config& c) { return c.l1tlb.has_value(); };
  b.emit = l1tlb::emit_l1tlb;
  b.report_json = l1tlb::report_json;
  b.report_markdown = l1tlb::report_markdown;
  b.synth_tops = l1tlb::synth_tops;
  b.cosim_tops = l1tlb::cosim_tops;
  b.power_operations = l1tlb::power_operations;
  return b;
}

}  // namespace txgen::blocks
