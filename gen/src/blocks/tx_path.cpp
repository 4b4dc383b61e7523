// Emission of the L1-TLB -> LDS -> I-cache -> L2-TLB path (docs/blocks/tx_path.md):
// the member blocks (one l1tlb top for the U private L1-TLBs, an lds_ctrl
// controller per CU, an icache_tx controller per group of S CUs) emitted from
// their derived configurations, the per-CU glue (lookup stage, L2 register,
// victim queue with its credit, remove registers, the LDS shootdown port), and
// the path top with the L2 request and victim arbiters, the I-caches'
// shootdown-port arbiters and the shootdown sequencer. The baseline path and
// the simulation tops with every SRAM inside come from the same code.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "txgen/blocks/icache_tx_emit.h"
#include "txgen/blocks/l1tlb_emit.h"
#include "txgen/blocks/lds_ctrl_emit.h"
#include "txgen/blocks/tx_path_emit.h"
#include "txgen/elab/bits.h"
#include "txgen/hdl/lib.h"

namespace txgen::blocks::tx_path {

using elab::TxPathParams;
using hdl::any;
using hdl::cat;
using hdl::gate;
using hdl::lit;
using hdl::Module;
using hdl::mux;
using hdl::Reg;
using hdl::Value;
using hdl::Wire;
using hdl::zero;
using hdl::zext;
using std::string;
using std::to_string;

void header(Module& m, const TxPathParams& p, const EmitContext& ctx, const string& role) {
  module_header(m, ctx, "tx_path", role, params_json(p));
}

namespace {

// Lookup-stage states, one-hot (docs/blocks/tx_path.md, "Glue state").
enum St : unsigned { kIdle = 0, kLdsReq, kLdsWait, kIcReq, kIcWait, kRet, kL2, kWire, kStates };

// ---------------------------------------------------------------------------
// The glue of one CU.

struct Queue {
  std::vector<Reg> v, kill, vpn, vmid, vrf, ppn, perm;  // slot 0 is the head
};

// The victim queue: a shift register with the head in slot 0 (a thermometer of
// valid slots), the L1's evictions appended, killed entries dropped.
Value victim_queue(Module& m, const TxPathParams& p, const Shoot& kill, const Value& push, const Tx& in,
                   const Value& fill_ready, Wire& fill_valid_o, Tx& head_o) {
  const unsigned D = p.victim_queue;
  Queue q;
  for (unsigned i = 0; i < D; ++i) {
    const string s = "q" + to_string(i) + "_";
    q.v.push_back(m.reg(s + "v", 1));
    q.kill.push_back(m.reg(s + "kill", 1));
    q.vpn.push_back(m.reg(s + "vpn", p.vpn_bits));
    q.vmid.push_back(m.reg(s + "vmid", p.vmid_bits));
    q.vrf.push_back(m.reg(s + "vrf", p.vrf_bits));
    q.ppn.push_back(m.reg(s + "ppn", p.ppn_bits));
    q.perm.push_back(m.reg(s + "perm", p.perm_bits));
  }
  fill_valid_o.drive(q.v[0] & ~q.kill[0]);
  head_o = {q.vpn[0], q.vmid[0], q.vrf[0], q.ppn[0], q.perm[0]};
  Value pop = m.wire("q_pop", q.v[0] & (q.kill[0] | fill_ready));
  Value push_dead = m.wire("q_push_kill", kill.kills(in.vpn, in.vmid));
  for (unsigned i = 0; i < D; ++i) {
    // slot i after the pop, then the append into the lowest free slot
    auto after = [&](const std::vector<Reg>& r, const Value& none) {
      return i + 1 < D ? mux(pop, Value(r[i + 1]), Value(r[i])) : mux(pop, none, Value(r[i]));
    };
    Value av = m.wire("q" + to_string(i) + "_av", after(q.v, zero(1)));
    Value below = i == 0 ? lit(1, 1) : (i < D ? mux(pop, Value(q.v[i]), Value(q.v[i - 1])) : lit(1, 1));
    Value put = m.wire("q" + to_string(i) + "_put", push & ~av & below);
    Value avpn = after(q.vpn, zero(p.vpn_bits)), avmid = after(q.vmid, zero(p.vmid_bits));
    q.v[i].next(av | put);
    q.kill[i].next(mux(put, push_dead, after(q.kill, zero(1)) | kill.kills(avpn, avmid)));
    q.vpn[i].next(mux(put, in.vpn, avpn));
    q.vmid[i].next(mux(put, in.vmid, avmid));
    q.vrf[i].next(mux(put, in.vrf, after(q.vrf, zero(p.vrf_bits))));
    q.ppn[i].next(mux(put, in.ppn, after(q.ppn, zero(p.ppn_bits))));
    q.perm[i].next(mux(put, in.perm, after(q.perm, zero(p.perm_bits))));
  }
  return pop;
}

// A remove register (promotion `move`): loaded at the RET edge, cleared when
// its structure's shootdown port takes it.
struct Remove {
  Reg v, vpn, vmid;
};

Remove remove_register(Module& m, const TxPathParams& p, const string& name, const Value& load, const Value& taken,
                       const Value& vpn, const Value& vmid) {
  Remove r{m.reg(name + "_v", 1), m.reg(name + "_vpn", p.vpn_bits), m.reg(name + "_vmid", p.vmid_bits)};
  r.v.next(load | (r.v & ~taken));
  r.vpn.next(mux(load, vpn, r.vpn));
  r.vmid.next(mux(load, vmid, r.vmid));
  return r;
}

// One lookup slot's registers and the wires of its transitions
// (docs/blocks/tx_path.md, "Non-blocking lookup"); with one slot these are
// the blocking stage's own names.
struct Slot {
  Reg st, vpn, vmid, tag, iid, ppn, perm, ic;
  Reg sent, ab;  // speculative L2: requested, answered by the L2 before the lookup ended
  Value accept, lk_acc, tl_acc, lds_ans, ic_ans, go_ret, go_ic, go_l2, direct, to_ret, to_ic, to_l2, to_wire, ready,
      ret, l2_load;
  Value in(St s) const { return st.bit(s); }
};

// A grant among the slots: whether some slot asks, and which one (one-hot;
// with one slot, 1).
struct Grant {
  Value any, pick;
};

// The glue of one CU under construction (docs/blocks/tx_path.md, "Glue"):
// ports, registers and the wires its pieces share are members; each piece is
// a method, called in the order the RTL prints them.
class CuEmitter {
 public:
  CuEmitter(const TxPathParams& p, Module& m)
      : p_(p), m_(m), VPN(p.vpn_bits), VM(p.vmid_bits), R(p.vrf_bits), P(p.ppn_bits), Q(p.perm_bits),
        LT(p.l1_tag_bits), CB(p.count_bits), D(p.victim_queue), IW(p.iid_bits), K(p.slots),
        wire(p.wire_lds > 0 || p.wire_icache > 0), spec(p.speculative), shared(p.cluster_cus > 1) {}

  void build(const EmitContext& ctx) {
    header(m_, p_, ctx, "glue of one CU: lookup stage, L2 register, victim queue, credit, removes");
    m_.clock_and_reset();
    ports();
    l1_and_lds_ports();
    icache_and_l2_ports();
    lds_victim_registers();
    lookup_requests();
    lookup_answers();
    credit_and_removes();
    lookup_next_state();
    l2_register();
    l1_fill();
    victim_queue_port();
    lds_victim_port();
    lds_shootdown_port();
  }

 private:
  void ports();
  void l1_and_lds_ports();
  void icache_and_l2_ports();
  void lds_victim_registers();
  void slot_registers();
  void lookup_intake();
  void lookup_requests();
  void lookup_answers();
  void slot_answers(Slot& s);
  void wire_latency(Slot& s);
  void credit_and_removes();
  void l2_load_grant();
  void ret_grant();
  void removes();
  void lookup_next_state();
  void slot_next_state(Slot& s, unsigned k);
  void speculation();
  void l2_register();
  void l1_fill();
  void victim_queue_port();
  void lds_victim_port();
  void lds_shootdown_port();
  // a slot's request, unless it quits (speculation: the L2 answered first)
  Value live(const Slot& s, const Value& req) const { return spec ? req & ~s.ab : req; }
  string slot_name(unsigned k, const string& name) const { return K == 1 ? name : "s" + to_string(k) + "_" + name; }
  Grant arbitrate(const string& name, Value Slot::*req, Reg& ptr, const string& ptr_name);
  Value granted(const string& name, const Value& want);
  Value pick(const Grant& g, Reg Slot::*field, unsigned width) const;
  Value pick_of(const Grant& g, const std::vector<Value>& fields, unsigned width) const;

  const TxPathParams& p_;
  Module& m_;
  const unsigned VPN, VM, R, P, Q, LT, CB, D, IW, K;
  const bool wire;  // some structure's answer has a wire latency
  const bool spec;    // speculative L2 request
  const bool shared;  // the CU shares its L1 cluster: its fills to the L1 need the cluster's grant
  // ports
  Value vrf, sd_start, l1_req_valid, l1_req_vpn, l1_req_vmid, l1_req_tag, l1_fill_valid, ev_valid, lk_ready,
      lk_resp_valid, lk_resp_hit, lk_resp_ppn, lk_resp_perm, fill_ready, lsd_ready, lsd_done, lvic_valid, tf_ready,
      tl_ready, tl_resp_valid, tl_resp_hit, tl_resp_ppn, tl_resp_perm, l2_taken, l2_resp_valid, l2_resp_tag,
      l2_resp_ppn, l2_resp_perm, rmi_taken, l1_req_iid, l1_grant;
  Shoot sd, kill;
  Tx ev, lvic;
  Wire l1_req_ready_o, l1_resp_valid_o, l1_resp_tag_o, l1_resp_ppn_o, l1_resp_perm_o, lk_valid_o, lk_vpn_o, lk_vmid_o,
      lk_vrf_o, fill_valid_o, fill_vpn_o, fill_vmid_o, fill_vrf_o, fill_ppn_o, fill_perm_o, lsd_valid_o, lsd_all_o,
      lsd_vpn_o, lsd_vmid_o, lvic_ready_o, ldone_o, tf_valid_o, tf_vpn_o, tf_vmid_o, tf_vrf_o, tf_ppn_o, tf_perm_o,
      tl_valid_o, tl_vpn_o, tl_vmid_o, tl_vrf_o, l2_valid_o, l2_vpn_o, l2_vmid_o, l2_tag_o, l2_ok_o, hit_lds_o,
      hit_ic_o, rmi_valid_o, rmi_vpn_o, rmi_vmid_o, ret_w, l2_iid_o, l1_want_o;
  // registers
  Reg lb_v, lb_kill, lb_vpn, lb_vmid, lb_vrf, lb_ppn, lb_perm, occ, out, l2v, l2_vpn, l2_vmid, l2_tag, lsent, ldone,
      lown;
  Reg pl, pi, pr, p2;  // round-robin pointers over the slots (one-hot; K > 1)
  Reg cx;              // speculative L2: answers to drop, one bit per L1 tag
  std::vector<Slot> slots;
  Remove rml, rmi;
  // wires the pieces share
  Value lk_acc, tl_acc, l2_load, credit, lsd_acc, lreq, ret;
  Value ret_want;  // a slot would return (ret before the cluster's grant; ret itself when private)
  Value l2_take;   // an L2 answer for this CU may go to the L1 (credit, no return, the grant)
  Grant l2g, retg;
  Value ret_ic, ret_vpn, ret_vmid;  // the returning slot's source and page
  Value drop, deliver;              // speculative L2: this CU's L2 answer dropped / to the L1
};

void CuEmitter::ports() {
  vrf = m_.input("vrf_i", R, "this CU's virtual function");
  sd_start = m_.input("sd_start_i", 1, "a path shootdown is accepted at this edge");
  sd = {m_.input("sdp_valid_i", 1, "pending path shootdown"), m_.input("sdp_all_i", 1), m_.input("sdp_vpn_i", VPN),
        m_.input("sdp_vmid_i", VM)};
  kill = {m_.input("kill_i", 1, "victims matching the key are killed at this edge"), m_.input("kill_all_i", 1),
          m_.input("kill_vpn_i", VPN), m_.input("kill_vmid_i", VM)};
}

void CuEmitter::l1_and_lds_ports() {
  // L1-TLB side
  l1_req_valid = m_.input("l1_req_valid_i", 1, "the L1-TLB's miss (its L2 port)");
  l1_req_vpn = m_.input("l1_req_vpn_i", VPN), l1_req_vmid = m_.input("l1_req_vmid_i", VM);
  l1_req_tag = m_.input("l1_req_tag_i", LT);
  l1_req_ready_o = m_.output("l1_req_ready_o", 1);
  l1_resp_valid_o = m_.output("l1_resp_valid_o", 1, "fill to the L1-TLB: promotion or L2 answer");
  l1_resp_tag_o = m_.output("l1_resp_tag_o", LT);
  l1_resp_ppn_o = m_.output("l1_resp_ppn_o", P), l1_resp_perm_o = m_.output("l1_resp_perm_o", Q);
  l1_fill_valid = m_.input("l1_fill_valid_i", 1, "the L1-TLB answered a fill");
  if (shared) {
    l1_want_o = m_.output("l1_want_o", 1, "a fill for the cluster's L1 input: a promotion or an L2 answer");
    l1_grant = m_.input("l1_grant_i", 1, "the cluster's L1 input is this CU's in this cycle");
  }
  ev_valid = m_.input("l1_evict_valid_i", 1, "the L1-TLB's victim");
  ev = {m_.input("l1_evict_vpn_i", VPN), m_.input("l1_evict_vmid_i", VM), vrf, m_.input("l1_evict_ppn_i", P),
        m_.input("l1_evict_perm_i", Q)};
  // LDS ports
  lk_valid_o = m_.output("lds_lk_valid_o", 1), lk_vpn_o = m_.output("lds_lk_vpn_o", VPN);
  lk_vmid_o = m_.output("lds_lk_vmid_o", VM), lk_vrf_o = m_.output("lds_lk_vrf_o", R);
  lk_ready = m_.input("lds_lk_ready_i", 1);
  lk_resp_valid = m_.input("lds_lk_resp_valid_i", 1), lk_resp_hit = m_.input("lds_lk_resp_hit_i", 1);
  lk_resp_ppn = m_.input("lds_lk_resp_ppn_i", P), lk_resp_perm = m_.input("lds_lk_resp_perm_i", Q);
  fill_valid_o = m_.output("lds_fill_valid_o", 1, "head of the victim queue");
  fill_ready = m_.input("lds_fill_ready_i", 1);
  fill_vpn_o = m_.output("lds_fill_vpn_o", VPN), fill_vmid_o = m_.output("lds_fill_vmid_o", VM);
  fill_vrf_o = m_.output("lds_fill_vrf_o", R), fill_ppn_o = m_.output("lds_fill_ppn_o", P);
  fill_perm_o = m_.output("lds_fill_perm_o", Q);
  lsd_valid_o = m_.output("lds_sd_valid_o", 1, "the sequencer's shootdown or a remove");
  lsd_ready = m_.input("lds_sd_ready_i", 1);
  lsd_all_o = m_.output("lds_sd_all_o", 1), lsd_vpn_o = m_.output("lds_sd_vpn_o", VPN);
  lsd_vmid_o = m_.output("lds_sd_vmid_o", VM);
  lsd_done = m_.input("lds_sd_done_i", 1);
  lvic_valid = m_.input("lds_vic_valid_i", 1, "the LDS's victim, to the I-cache");
  lvic = {m_.input("lds_vic_vpn_i", VPN), m_.input("lds_vic_vmid_i", VM), m_.input("lds_vic_vrf_i", R),
          m_.input("lds_vic_ppn_i", P), m_.input("lds_vic_perm_i", Q)};
  lvic_ready_o = m_.output("lds_vic_ready_o", 1);
  ldone_o = m_.output("lds_sd_seq_done_o", 1, "this LDS finished the path's shootdown");
}

void CuEmitter::icache_and_l2_ports() {
  // I-cache ports (this CU's sharer slot)
  tf_valid_o = m_.output("ic_tf_valid_o", 1), tf_vpn_o = m_.output("ic_tf_vpn_o", VPN);
  tf_vmid_o = m_.output("ic_tf_vmid_o", VM), tf_vrf_o = m_.output("ic_tf_vrf_o", R);
  tf_ppn_o = m_.output("ic_tf_ppn_o", P), tf_perm_o = m_.output("ic_tf_perm_o", Q);
  tf_ready = m_.input("ic_tf_ready_i", 1);
  tl_valid_o = m_.output("ic_tl_valid_o", 1), tl_vpn_o = m_.output("ic_tl_vpn_o", VPN);
  tl_vmid_o = m_.output("ic_tl_vmid_o", VM), tl_vrf_o = m_.output("ic_tl_vrf_o", R);
  tl_ready = m_.input("ic_tl_ready_i", 1);
  tl_resp_valid = m_.input("ic_resp_valid_i", 1, "the I-cache answers this CU");
  tl_resp_hit = m_.input("ic_resp_hit_i", 1);
  tl_resp_ppn = m_.input("ic_resp_ppn_i", P), tl_resp_perm = m_.input("ic_resp_perm_i", Q);
  // L2 register and response
  l2_valid_o = m_.output("l2_valid_o", 1, "request for the L2-TLB"), l2_vpn_o = m_.output("l2_vpn_o", VPN);
  l2_vmid_o = m_.output("l2_vmid_o", VM), l2_tag_o = m_.output("l2_tag_o", LT);
  l2_taken = m_.input("l2_taken_i", 1, "the L2 port takes this CU's request");
  l2_resp_valid = m_.input("l2_resp_valid_i", 1, "an L2 answer names this CU");
  l2_resp_tag = m_.input("l2_resp_tag_i", LT);
  l2_resp_ppn = m_.input("l2_resp_ppn_i", P), l2_resp_perm = m_.input("l2_resp_perm_i", Q);
  l2_ok_o = m_.output("l2_ok_o", 1, "an L2 answer for this CU is taken in this cycle");
  hit_lds_o = m_.output("hit_lds_o", 1, "a translation from the LDS is promoted");
  hit_ic_o = m_.output("hit_ic_o", 1, "a translation from the I-cache is promoted");
  if (IW) {
    l1_req_iid = m_.input("l1_req_iid_i", IW, "the miss's instruction ID");
    l2_iid_o = m_.output("l2_iid_o", IW);
  }
}

// The LDS's victim on its way to the I-cache (lds_victim_port).
void CuEmitter::lds_victim_registers() {
  lb_v = m_.reg("lb_v", 1), lb_kill = m_.reg("lb_kill", 1);
  lb_vpn = m_.reg("lb_vpn", VPN), lb_vmid = m_.reg("lb_vmid", VM), lb_vrf = m_.reg("lb_vrf", R);
  lb_ppn = m_.reg("lb_ppn", P), lb_perm = m_.reg("lb_perm", Q);
}

// The winner among the slots asking (`req`) from the pointer, which moves past
// it where the grant is used; with one slot, that slot.
Grant CuEmitter::arbitrate(const string& name, Value Slot::*req, Reg& ptr, const string& ptr_name) {
  if (K == 1) return {slots[0].*req, lit(1, 1)};
  std::vector<Value> r;
  for (const Slot& s : slots) r.push_back(s.*req);
  ptr = m_.reg(ptr_name, K, 1);
  Value asks = m_.wire(name + "_req", hdl::cat_lsb_first(r));
  return {m_.wire(name + "_any", any(asks)), hdl::round_robin_pick(m_.top(), name + "_pick", asks, ptr)};
}

Value CuEmitter::pick_of(const Grant& g, const std::vector<Value>& fields, unsigned width) const {
  if (K == 1) return fields[0];
  return hdl::onehot_select(g.pick, hdl::cat_lsb_first(fields), K, width);
}

Value CuEmitter::pick(const Grant& g, Reg Slot::*field, unsigned width) const {
  std::vector<Value> f;
  for (const Slot& s : slots) f.push_back(s.*field);
  return pick_of(g, f, width);
}

void CuEmitter::slot_registers() {
  slots.resize(K);
  for (unsigned k = 0; k < K; ++k) {
    Slot& s = slots[k];
    s.st = m_.reg(slot_name(k, "st"), wire ? kStates : kWire, 1);
    s.vpn = m_.reg(slot_name(k, "rq_vpn"), VPN), s.vmid = m_.reg(slot_name(k, "rq_vmid"), VM);
    s.tag = m_.reg(slot_name(k, "rq_tag"), LT);
    s.ppn = m_.reg(slot_name(k, "ans_ppn"), P), s.perm = m_.reg(slot_name(k, "ans_perm"), Q);
    s.ic = m_.reg(slot_name(k, "ans_ic"), 1);
    if (spec) s.sent = m_.reg(slot_name(k, "sent"), 1), s.ab = m_.reg(slot_name(k, "ab"), 1);
  }
  if (spec) cx = m_.reg("cx", 1u << LT);
}

// A miss goes to the lowest idle slot.
void CuEmitter::lookup_intake() {
  if (K == 1) {
    slots[0].accept = m_.wire("accept", slots[0].in(kIdle) & l1_req_valid);
    l1_req_ready_o.drive(slots[0].in(kIdle));
    return;
  }
  std::vector<Value> idle;
  for (const Slot& s : slots) idle.push_back(s.in(kIdle));
  Value free = m_.wire("slot_idle", hdl::cat_lsb_first(idle));
  Value first = hdl::lowest_one(m_.top(), "intake_pick", free);
  for (unsigned k = 0; k < K; ++k) slots[k].accept = m_.wire(slot_name(k, "accept"), l1_req_valid & first.bit(k));
  l1_req_ready_o.drive(any(free));
}

// The lookup stage's state and requests: the LDS first, then the I-cache.
void CuEmitter::lookup_requests() {
  m_.comment(K == 1 ? "Lookup stage: LDS, then I-cache, then the L2 register; a hit below the L1 returns as a fill."
                    : "Lookup stage, " + to_string(K) +
                          " slots: each asks the LDS, then the I-cache, then the L2 register; hits return as fills.");
  slot_registers();
  lookup_intake();
  occ = m_.reg("occ", CB), out = m_.reg("out", CB);
  for (Slot& s : slots) s.ready = live(s, s.in(kLdsReq));
  Grant lg = arbitrate("lk", &Slot::ready, pl, "pl");
  Value lk_valid = m_.wire("lk_valid", lg.any & (occ == 0));
  lk_acc = m_.wire("lk_acc", lk_valid & lk_ready);
  if (K > 1) pl.next_if(lk_acc, hdl::rotate_left1(lg.pick));
  lk_valid_o.drive(lk_valid);
  lk_vpn_o.drive(pick(lg, &Slot::vpn, VPN));
  lk_vmid_o.drive(pick(lg, &Slot::vmid, VM));
  lk_vrf_o.drive(vrf);
  // the I-cache lookup waits for the CU's LDS victim to be in the I-cache
  for (Slot& s : slots) s.ready = live(s, s.in(kIcReq));
  Grant ig = arbitrate("tl", &Slot::ready, pi, "pi");
  Value tl_valid = m_.wire("tl_valid", ig.any & ~lb_v);
  tl_acc = m_.wire("tl_acc", tl_valid & tl_ready);
  if (K > 1) pi.next_if(tl_acc, hdl::rotate_left1(ig.pick));
  tl_valid_o.drive(tl_valid);
  tl_vpn_o.drive(pick(ig, &Slot::vpn, VPN));
  tl_vmid_o.drive(pick(ig, &Slot::vmid, VM));
  tl_vrf_o.drive(vrf);
  for (unsigned k = 0; k < K; ++k) {
    slots[k].lk_acc = K == 1 ? lk_acc : lk_acc & lg.pick.bit(k);
    slots[k].tl_acc = K == 1 ? tl_acc : tl_acc & ig.pick.bit(k);
  }
}

// The answers and the state they lead to: RET on a hit, IC_REQ after the LDS,
// L2 after the I-cache, directly or after the structure's wire latency. The
// LDS and the I-cache each have one lookup of this CU at most in flight, so
// their answer belongs to the one slot waiting for it.
void CuEmitter::lookup_answers() {
  for (unsigned k = 0; k < K; ++k) slot_answers(slots[k]);
}

void CuEmitter::slot_answers(Slot& s) {
  const unsigned k = static_cast<unsigned>(&s - slots.data());
  auto n = [&](const string& name) { return slot_name(k, name); };
  s.lds_ans = m_.wire(n("lds_ans"), s.in(kLdsWait) & lk_resp_valid);
  s.ic_ans = m_.wire(n("ic_ans"), s.in(kIcWait) & tl_resp_valid);
  Value hit = m_.wire(n("ans_hit"), mux(s.lds_ans, lk_resp_hit, tl_resp_hit));
  s.ppn.next(mux(s.lds_ans, lk_resp_ppn, mux(s.ic_ans, tl_resp_ppn, s.ppn)));
  s.perm.next(mux(s.lds_ans, lk_resp_perm, mux(s.ic_ans, tl_resp_perm, s.perm)));
  s.ic.next(mux(s.lds_ans, lit(1, 0), mux(s.ic_ans, lit(1, 1), s.ic)));
  s.go_ret = m_.wire(n("go_ret"), (s.lds_ans | s.ic_ans) & hit), s.go_ic = m_.wire(n("go_ic"), s.lds_ans & ~hit);
  s.go_l2 = m_.wire(n("go_l2"), s.ic_ans & ~hit);
  Value lds_direct = lit(1, p_.wire_lds == 0), ic_direct = lit(1, p_.wire_icache == 0);
  s.direct = m_.wire(n("direct"), (s.lds_ans & lds_direct) | (s.ic_ans & ic_direct));
  s.to_ret = s.go_ret & s.direct, s.to_ic = s.go_ic & s.direct, s.to_l2 = s.go_l2 & s.direct;
  s.to_wire = zero(1);
  if (wire) wire_latency(s);
}

void CuEmitter::wire_latency(Slot& s) {
  const unsigned k = static_cast<unsigned>(&s - slots.data());
  auto n = [&](const string& name) { return slot_name(k, name); };
  if (k == 0) m_.comment("Wire latency: WL (WI) cycles after the LDS (I-cache) answers.");
  Reg cnt = m_.reg(n("cnt"), p_.wire_bits), nxt = m_.reg(n("nxt"), 3);  // one-hot: RET, IC_REQ, L2
  s.to_wire = m_.wire(n("to_wire"), (s.lds_ans | s.ic_ans) & ~s.direct);
  Value wl = lit(p_.wire_bits, p_.wire_lds ? p_.wire_lds - 1 : 0);
  Value wi = lit(p_.wire_bits, p_.wire_icache ? p_.wire_icache - 1 : 0);
  Value exit = m_.wire(n("wire_exit"), s.in(kWire) & (cnt == 0));
  cnt.next(mux(s.to_wire, mux(s.lds_ans, wl, wi), mux(s.in(kWire), cnt - 1, cnt)));
  nxt.next(mux(s.to_wire, cat({s.go_l2, s.go_ic, s.go_ret}), nxt));
  s.to_ret = s.to_ret | (exit & nxt.bit(0));
  s.to_ic = s.to_ic | (exit & nxt.bit(1));
  s.to_l2 = s.to_l2 | (exit & nxt.bit(2));
  s.to_wire = s.to_wire | (s.in(kWire) & ~exit);
}

// The L2 register's load, the credit (every fill may evict one L1 entry into
// the queue), the removes and the RET that needs both.
void CuEmitter::credit_and_removes() {
  l2v = m_.reg("l2v", 1), l2_vpn = m_.reg("l2_vpn", VPN), l2_vmid = m_.reg("l2_vmid", VM);
  l2_tag = m_.reg("l2_tag", LT);
  l2_load_grant();
  credit = m_.wire("credit", zext(out, CB + 1) + zext(occ, CB + 1) < lit(CB + 1, D));
  if (p_.move) {
    rmi_valid_o = m_.output("rmi_valid_o", 1, "remove a promoted translation from the I-cache");
    rmi_vpn_o = m_.output("rmi_vpn_o", VPN);
    rmi_vmid_o = m_.output("rmi_vmid_o", VM);
    rmi_taken = m_.input("rmi_taken_i", 1);
  }
  ret_w = p_.move ? m_.wire("ret", 1) : Wire();
  lsd_acc = m_.wire("lsd_acc", lsd_valid_o & lsd_ready);
  lsent = m_.reg("lsent", 1), ldone = m_.reg("ldone", 1), lown = m_.reg("lown", 1);
  lreq = m_.wire("lreq", sd.active & ~lsent);
  ret_grant();
  l2_take = shared ? credit & ~ret_want & l1_grant : credit & ~ret;
  if (p_.move) ret_w.drive(ret);
  hit_lds_o.drive(ret & ~ret_ic);
  hit_ic_o.drive(ret & ret_ic);
}

// Without speculation a slot asks for the L2 register once both structures
// missed; with it, from the cycle after its intake until it is sent, returns
// or quits, and not while an answer with its tag is still to be dropped.
void CuEmitter::l2_load_grant() {
  for (unsigned k = 0; k < K; ++k) {
    Slot& s = slots[k];
    s.ready = s.in(kL2);
    if (spec)
      s.ready = m_.wire(slot_name(k, "asks"), ~s.in(kIdle) & ~s.in(kRet) & ~s.sent & ~s.ab &
                                                   ~any(cx & hdl::one_of(1u << LT, s.tag)));
  }
  l2g = arbitrate("l2s", &Slot::ready, p2, "p2");
  l2_load = m_.wire("l2_load", l2g.any & (~l2v | l2_taken));
  if (K > 1) p2.next_if(l2_load, hdl::rotate_left1(l2g.pick));
  for (unsigned k = 0; k < K; ++k) slots[k].l2_load = K == 1 ? l2_load : l2_load & l2g.pick.bit(k);
}

// A slot returns when it is in RET and its structure's remove register is
// free; one per cycle, and only with the credit.
void CuEmitter::ret_grant() {
  Wire ret_ic_w, ret_vpn_w, ret_vmid_w;  // the returning slot's, read by the remove registers
  if (K == 1) {
    ret_ic = slots[0].ic, ret_vpn = slots[0].vpn, ret_vmid = slots[0].vmid;
  } else {
    ret_ic_w = m_.wire("ret_ic", 1), ret_vpn_w = m_.wire("ret_vpn", VPN), ret_vmid_w = m_.wire("ret_vmid", VM);
    ret_ic = ret_ic_w, ret_vpn = ret_vpn_w, ret_vmid = ret_vmid_w;
  }
  if (p_.move) removes();
  Value rm_free = lit(1, 1);
  for (unsigned k = 0; k < K; ++k) {
    Slot& s = slots[k];
    if (p_.move) rm_free = m_.wire(slot_name(k, "rm_free"), mux(s.ic, ~rmi.v, ~rml.v));
    s.ready = live(s, s.in(kRet) & rm_free);
  }
  if (K == 1) {
    ret = granted("ret_go", live(slots[0], slots[0].in(kRet)) & credit & rm_free);
    slots[0].ret = ret;
    return;
  }
  retg = arbitrate("rt", &Slot::ready, pr, "pr");
  ret = granted("ret_go", retg.any & credit);
  pr.next_if(ret, hdl::rotate_left1(retg.pick));
  for (unsigned k = 0; k < K; ++k) slots[k].ret = ret & retg.pick.bit(k);
  ret_ic_w.drive(pick(retg, &Slot::ic, 1));
  ret_vpn_w.drive(pick(retg, &Slot::vpn, VPN));
  ret_vmid_w.drive(pick(retg, &Slot::vmid, VM));
}

// `ret_go`: with a shared cluster the return waits for the cluster's grant.
Value CuEmitter::granted(const string& name, const Value& want) {
  if (!shared) return ret_want = m_.wire(name, want);
  ret_want = m_.wire("ret_want", want);
  return m_.wire(name, ret_want & l1_grant);
}

void CuEmitter::removes() {
  m_.comment("Removes (promotion move): a shootdown by VPN of the structure the promotion came from.");
  rml = remove_register(m_, p_, "rml", ret_w & ~ret_ic, lsd_acc & ~lreq, ret_vpn, ret_vmid);
  rmi = remove_register(m_, p_, "rmi", ret_w & ret_ic, rmi_taken, ret_vpn, ret_vmid);
  rmi_valid_o.drive(rmi.v);
  rmi_vpn_o.drive(rmi.vpn);
  rmi_vmid_o.drive(rmi.vmid);
}

void CuEmitter::lookup_next_state() {
  if (spec) speculation();
  for (unsigned k = 0; k < K; ++k) slot_next_state(slots[k], k);
}

// A quitting slot (speculation: the L2 answered first) goes IDLE, once its
// structure has answered when it waits for one.
void CuEmitter::slot_next_state(Slot& s, unsigned k) {
  std::vector<Value> nx(wire ? kStates : kWire);
  Value l2_leave = s.l2_load;
  Value quit = zero(1);
  if (spec) {
    l2_leave = m_.wire(slot_name(k, "l2_leave"), s.in(kL2) & (s.l2_load | s.sent));
    quit = m_.wire(slot_name(k, "quit"),
                   s.ab & ((~s.in(kIdle) & ~s.in(kLdsWait) & ~s.in(kIcWait)) | s.lds_ans | s.ic_ans));
  }
  nx[kIdle] = (s.in(kIdle) & ~s.accept) | s.ret | l2_leave;
  if (spec) nx[kIdle] = nx[kIdle] | quit;
  nx[kLdsReq] = s.accept | (s.in(kLdsReq) & ~s.lk_acc);
  nx[kLdsWait] = s.lk_acc | (s.in(kLdsWait) & ~s.lds_ans);
  nx[kIcReq] = s.to_ic | (s.in(kIcReq) & ~s.tl_acc);
  nx[kIcWait] = s.tl_acc | (s.in(kIcWait) & ~s.ic_ans);
  nx[kRet] = s.to_ret | (s.in(kRet) & ~s.ret);
  nx[kL2] = s.to_l2 | (s.in(kL2) & ~l2_leave);
  if (wire) nx[kWire] = s.to_wire;
  if (spec)
    for (unsigned st = kLdsReq; st < nx.size(); ++st) nx[st] = nx[st] & ~quit;
  s.st.next(hdl::cat_lsb_first(nx));
  s.vpn.next(mux(s.accept, l1_req_vpn, s.vpn));
  s.vmid.next(mux(s.accept, l1_req_vmid, s.vmid));
  s.tag.next(mux(s.accept, l1_req_tag, s.tag));
  if (IW) {
    s.iid = m_.reg(slot_name(k, "rq_iid"), IW);
    s.iid.next(mux(s.accept, l1_req_iid, s.iid));
  }
}

// Speculative L2 request: the slots' sent and early-answer flags and the
// cancel vector (an answer to a promoted miss is dropped when it arrives).
void CuEmitter::speculation() {
  m_.comment("Speculative L2 request: answers of promoted misses are dropped; an early answer ends its lookup.");
  const unsigned NT = 1u << LT;
  Value resp_tag = hdl::one_of(NT, l2_resp_tag);
  drop = m_.wire("drop", l2_resp_valid & any(cx & resp_tag));
  deliver = m_.wire("deliver", l2_resp_valid & ~drop & l2_take);
  for (unsigned k = 0; k < K; ++k) {
    Slot& s = slots[k];
    Value early = m_.wire(slot_name(k, "early"), deliver & ~s.in(kIdle) & s.sent & ~s.ab & (s.tag == l2_resp_tag));
    s.sent.next(~s.accept & (s.sent | s.l2_load));
    s.ab.next(~s.accept & (s.ab | early));
  }
  Value ret_sent = K == 1 ? Value(slots[0].sent) : pick(retg, &Slot::sent, 1);
  Value ret_tag = K == 1 ? Value(slots[0].tag) : pick(retg, &Slot::tag, LT);
  Value set = m_.wire("cx_set", mux(ret & ret_sent, hdl::one_of(NT, ret_tag), zero(NT)));
  Value clear = m_.wire("cx_clear", mux(drop, resp_tag, zero(NT)));
  cx.next((cx & ~clear) | set);
}

void CuEmitter::l2_register() {
  l2v.next(l2_load | (l2v & ~l2_taken));
  l2_vpn.next(mux(l2_load, pick(l2g, &Slot::vpn, VPN), l2_vpn));
  l2_vmid.next(mux(l2_load, pick(l2g, &Slot::vmid, VM), l2_vmid));
  l2_tag.next(mux(l2_load, pick(l2g, &Slot::tag, LT), l2_tag));
  l2_valid_o.drive(l2v);
  l2_vpn_o.drive(l2_vpn);
  l2_vmid_o.drive(l2_vmid);
  l2_tag_o.drive(l2_tag);
  if (IW) {
    Reg l2_iid = m_.reg("l2_iid", IW);
    l2_iid.next(mux(l2_load, pick(l2g, &Slot::iid, IW), l2_iid));
    l2_iid_o.drive(l2_iid);
  }
}

// Fills to the L1-TLB: the promotion first, then an L2 answer.
void CuEmitter::l1_fill() {
  m_.comment(shared ? "Fill to the L1-TLB: the promotion wins; an L2 answer needs the credit; both the cluster's grant."
                    : "Fill to the L1-TLB: the promotion wins; an L2 answer needs the credit.");
  Value l2_ok = m_.wire("l2_ok", spec ? drop | l2_take : l2_take);
  if (shared) l1_want_o.drive(ret_want | (l2_resp_valid & credit & (spec ? ~drop : lit(1, 1))));
  l2_ok_o.drive(l2_ok);
  Value send = m_.wire("send", spec ? ret | deliver : ret | (l2_resp_valid & l2_ok));
  l1_resp_valid_o.drive(send);
  l1_resp_tag_o.drive(mux(ret, pick(retg, &Slot::tag, LT), l2_resp_tag));
  l1_resp_ppn_o.drive(mux(ret, pick(retg, &Slot::ppn, P), l2_resp_ppn));
  l1_resp_perm_o.drive(mux(ret, pick(retg, &Slot::perm, Q), l2_resp_perm));
  out.next(out + zext(send, CB) - zext(l1_fill_valid, CB));
}

// The victim queue into the LDS fill port.
void CuEmitter::victim_queue_port() {
  m_.comment("Victim queue: the L1-TLB's victims, oldest first, into the LDS; stale ones dropped.");
  Tx head;
  Value pop = victim_queue(m_, p_, kill, ev_valid, ev, fill_ready, fill_valid_o, head);
  occ.next(occ + zext(ev_valid, CB) - zext(pop, CB));
  fill_vpn_o.drive(head.vpn);
  fill_vmid_o.drive(head.vmid);
  fill_vrf_o.drive(head.vrf);
  fill_ppn_o.drive(head.ppn);
  fill_perm_o.drive(head.perm);
}

// The LDS's victim, through a register, into the I-cache fill port.
void CuEmitter::lds_victim_port() {
  m_.comment("LDS victim register: the LDS's victim on its way to the I-cache; killed ones dropped.");
  Value lb_pop = m_.wire("lb_pop", lb_v & (lb_kill | tf_ready));
  Value lb_take = m_.wire("lb_take", lvic_valid & (~lb_v | lb_pop));
  lvic_ready_o.drive(~lb_v | lb_pop);
  lb_v.next(lb_take | (lb_v & ~lb_pop));
  lb_kill.next(mux(lb_take, kill.kills(lvic.vpn, lvic.vmid), lb_kill | kill.kills(lb_vpn, lb_vmid)));
  lb_vpn.next(mux(lb_take, lvic.vpn, lb_vpn));
  lb_vmid.next(mux(lb_take, lvic.vmid, lb_vmid));
  lb_vrf.next(mux(lb_take, lvic.vrf, lb_vrf));
  lb_ppn.next(mux(lb_take, lvic.ppn, lb_ppn));
  lb_perm.next(mux(lb_take, lvic.perm, lb_perm));
  tf_valid_o.drive(lb_v & ~lb_kill);
  tf_vpn_o.drive(lb_vpn);
  tf_vmid_o.drive(lb_vmid);
  tf_vrf_o.drive(lb_vrf);
  tf_ppn_o.drive(lb_ppn);
  tf_perm_o.drive(lb_perm);
}

// The LDS's shootdown port: the sequencer first, then a remove.
void CuEmitter::lds_shootdown_port() {
  m_.comment("LDS shootdown port: the path's shootdown first, then a remove; done pulses go to their owner.");
  lsd_valid_o.drive(p_.move ? lreq | rml.v : lreq);
  lsd_all_o.drive(lreq & sd.all);
  lsd_vpn_o.drive(p_.move ? mux(lreq, sd.vpn, rml.vpn) : sd.vpn);
  lsd_vmid_o.drive(p_.move ? mux(lreq, sd.vmid, rml.vmid) : sd.vmid);
  lsent.next(~sd_start & (lsent | (lsd_acc & lreq)));
  lown.next(mux(lsd_acc, lreq, lown));
  ldone.next(~sd_start & (ldone | (lsd_done & lown)));
  ldone_o.drive(ldone);
}

}  // namespace

ModulePtr emit_cu(const TxPathParams& p, const EmitContext& ctx) {
  auto mod = std::make_unique<Module>(p.module_prefix + "_cu");
  CuEmitter(p, *mod).build(ctx);
  return mod;
}

}  // namespace txgen::blocks::tx_path
