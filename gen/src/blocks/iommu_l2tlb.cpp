// The shared L2-TLB iommu_NAME_l2tlb (docs/blocks/iommu.md, "The L2-TLB"):
// entry arbitration, the lookup pipeline (read the set, compare, act), the
// array, the MSHRs, the waiter slots, the answer registers and the walk port.
// No two operations of one set are in flight, so the set read in the read
// stage is still the set when the operation acts.
#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "txgen/blocks/iommu_emit.h"
#include "txgen/elab/bits.h"
#include "txgen/hdl/lib.h"
#include "txgen/hdl/port_decl.h"
#include "txgen/hdl/replacement.h"
#include "txgen/ports/iommu.h"

namespace txgen::blocks::iommu {

using elab::IommuParams;
using elab::L2tlbParams;
using hdl::cat;
using hdl::Index;
using hdl::lit;
using hdl::Module;
using hdl::Reg;
using hdl::Scope;
using hdl::Value;
using hdl::Wire;
using hdl::zero;
using std::string;
using std::to_string;

namespace {

TXGEN_PORT_HANDLES(L2Ports, TXGEN_IOMMU_L2TLB_PORTS)

enum Kind : uint64_t { kLookup = 0, kFill = 1, kInsert = 2, kShootdown = 3 };

// One field of the stage registers: element k is stage k + 1.
struct StageField {
  Reg reg;
  unsigned width = 0;
  Value at(unsigned k) const { return reg.field(k, width); }
};

// The operation entering stage 1 in this cycle.
struct Entering {
  Value valid, kind, vpn, vmid, iid, slot, mshr, ppn, perm, all;
};

class L2Emitter {
 public:
  L2Emitter(const IommuParams& p, Module& m)
      : p_(p), l_(p.l2), m_(m), VPN(p.vpn_bits), VM(p.vmid_bits), PPN(p.ppn_bits), Q(p.perm_bits),
        IW(p.iid_bits), S(l_.sets), W(l_.ways), SI(l_.set_bits), TB(l_.tag_bits), P(l_.ports), T(l_.req_tag_bits),
        M(l_.mshrs), MB(l_.mshr_bits), R(l_.waiters), RB(l_.waiter_bits), D(l_.stages) {}

  void build() {
    m_.clock_and_reset();
    TXGEN_DECLARE_PORTS(TXGEN_IOMMU_L2TLB_PORTS, m_, p_, io_);
    state();
    walk_answer();
    entry();
    read_stage();
    compare_stage();
    act_stage();
    array();
    mshr_update();
    answers();
    waiters();
    walk_request();
    stages();
    properties();
  }

 private:
  // ---- helpers
  Value set_of(const Value& vpn) const { return SI ? vpn.slice(0, SI) : Value(); }
  Value tag_of(const Value& vpn) const { return vpn.top(TB); }
  Value set_onehot(const string& name, const Value& vpn) {
    return hdl::vector_wire(m_.top(), name, S == 1 ? hdl::one_bit(true) : hdl::one_of(S, set_of(vpn)));
  }
  void each(const string& var, unsigned n, const string& label,
            const std::function<void(Scope&, const Index&)>& body) {
    each_entry(m_, var, n, label, body);
  }
  Value popcount(const string& name, const Value& bits, unsigned width) {
    std::vector<Value> terms;
    const Value named = bits.node().op == hdl::Op::Ref ? bits : m_.wire(name + "_of", bits);
    for (const Value& b : hdl::bits_of(named)) terms.push_back(hdl::zext(b, width));
    if (terms.size() == 1) return m_.wire(name, terms[0]);
    return hdl::sum_tree(m_.top(), name, terms, width);
  }
  // a valid MSHR holding (vpn, vmid), one bit per MSHR
  Value mshr_cam(const string& name, const Value& vpn, const Value& vmid) {
    Wire hit = m_.wire(name, M, true);
    each("gc_" + name, M, "g_" + name, [&](Scope& sc, const Index& i) {
      sc.assign(hit.bit(i), mv_.bit(i) & (m_vpn_.field(i, VPN) == vpn) & (m_vmid_.field(i, VM) == vmid));
    });
    return hit;
  }
  // stage k + 1 holds an operation of this kind
  Value stage_holds(unsigned k, Kind kind) const { return st_valid_.at(k) & (st_kind_.at(k) == lit(2, kind)); }
  // stage k + 1's operation, if valid, is a shootdown of everything
  Value flushes_all(unsigned k) const { return st_all_.at(k) & (st_kind_.at(k) == lit(2, kShootdown)); }
  // an operation of vpn's set is in flight (a shootdown of everything is of every set)
  Value busy(const string& name, const Value& vpn) {
    std::vector<Value> terms;
    for (unsigned k = 0; k < D; ++k) {
      terms.push_back(SI ? st_valid_.at(k) & (flushes_all(k) | (set_of(st_vpn_.at(k)) == set_of(vpn)))
                         : st_valid_.at(k));
    }
    return m_.wire(name, hdl::or_tree(terms));
  }
  StageField stage_reg(const string& name, unsigned width, bool reset) {
    return {reset ? m_.reg(name, D * width) : m_.reg_noreset(name, D * width), width};
  }

  // ---- state
  void state() {
    const unsigned N = l_.entries;
    arr_valid_ = m_.reg("arr_valid", N);
    arr_vmid_ = m_.reg_noreset("arr_vmid", N * VM);
    arr_tag_ = m_.reg_noreset("arr_tag", N * TB);
    arr_ppn_ = m_.reg_noreset("arr_ppn", N * PPN);
    arr_perm_ = m_.reg_noreset("arr_perm", N * Q);
    if (W > 1) plru_ = m_.reg("plru", S * (W - 1));
    st_valid_ = stage_reg("st_valid", 1, true);
    st_kind_ = stage_reg("st_kind", 2, true);
    st_all_ = stage_reg("st_all", 1, true);
    st_vpn_ = stage_reg("st_vpn", VPN, false);
    st_vmid_ = stage_reg("st_vmid", VM, false);
    st_iid_ = stage_reg("st_iid", IW, false);
    st_slot_ = stage_reg("st_slot", RB, false);
    st_mshr_ = stage_reg("st_mshr", MB, false);
    st_ppn_ = stage_reg("st_ppn", PPN, false);
    st_perm_ = stage_reg("st_perm", Q, false);
    mv_ = m_.reg("mshr_valid", M);
    m_issued_ = m_.reg("mshr_issued", M);
    m_filled_ = m_.reg("mshr_filled", M);
    m_entered_ = m_.reg("mshr_entered", M);
    m_vpn_ = m_.reg_noreset("mshr_vpn", M * VPN);
    m_vmid_ = m_.reg_noreset("mshr_vmid", M * VM);
    m_iid_ = m_.reg_noreset("mshr_iid", M * IW);
    m_ppn_ = m_.reg_noreset("mshr_ppn", M * PPN);
    m_perm_ = m_.reg_noreset("mshr_perm", M * Q);
    w_valid_ = m_.reg("wait_valid", R);
    w_ready_ = m_.reg("wait_ready", R);
    w_wait_ = m_.reg("wait_waiting", R);
    w_port_ = m_.reg_noreset("wait_port", R * l_.port_bits);
    w_tag_ = m_.reg_noreset("wait_tag", R * T);
    w_vpn_ = m_.reg_noreset("wait_vpn", R * VPN);
    w_vmid_ = m_.reg_noreset("wait_vmid", R * VM);
    w_mshr_ = m_.reg_noreset("wait_mshr", R * MB);
    w_ppn_ = m_.reg_noreset("wait_ppn", R * PPN);
    w_perm_ = m_.reg_noreset("wait_perm", R * Q);
    freed_ = m_.wire("wait_freed", R);
    issue_oh_ = m_.wire("wq_issue", M);
  }

  // ---- the walk answer: the MSHR it fills (one-hot) and that MSHR's index.
  // With the answer register (docs/blocks/iommu.md, "The walk port") the
  // compare of every MSHR is the arrival cycle's work and the fill and the
  // broadcast to the waiter slots act at the next edge; the MSHR matched is
  // the one the registered answer would match, as it is neither filled nor
  // freed meanwhile.
  void walk_answer() {
    m_.comment(string("walk answer: the issued, unfilled MSHR of its translation") +
               (l_.answer_register ? ", registered with the PPN" : ""));
    resp_cam_ = mshr_cam("resp_cam", io_.walk_resp_vpn_i, io_.walk_resp_vmid_i);
    const Value match = gate(io_.walk_resp_valid_i, resp_cam_ & m_issued_ & ~m_filled_);
    if (l_.answer_register) {
      const Reg fill = m_.reg("resp_fill", M), ppn = m_.reg_noreset("resp_ppn", PPN),
                perm = m_.reg_noreset("resp_perm", Q);
      fill.next(match);
      ppn.next_if(io_.walk_resp_valid_i, io_.walk_resp_ppn_i);
      perm.next_if(io_.walk_resp_valid_i, io_.walk_resp_perm_i);
      resp_oh_ = fill;
      resp_ppn_ = ppn;
      resp_perm_ = perm;
    } else {
      resp_oh_ = m_.wire("resp_fill", match);
      resp_ppn_ = io_.walk_resp_ppn_i;
      resp_perm_ = io_.walk_resp_perm_i;
    }
    resp_any_ = m_.wire("resp_any", any(resp_oh_));
    resp_idx_ = m_.wire("resp_index", hdl::onehot_index(resp_oh_, MB));
  }

  // ---- entry: fill, shootdown, insert, then a lookup by round robin
  void entry() {
    m_.comment("entry: one operation per cycle (fill, shootdown, insert, lookup); never two of one set");
    const Value fill_cand = m_.wire("fill_cand", mv_ & m_filled_ & ~m_entered_);
    const Value f_pick = hdl::lowest_one_halves(m_.top(), "fill_pick", fill_cand);
    const Value f_vpn = m_.wire("fill_vpn", hdl::onehot_select(f_pick, m_vpn_, M, VPN));
    const Value go_fill = m_.wire("go_fill", any(fill_cand) & ~busy("fill_busy", f_vpn));
    fill_enter_ = gate(go_fill, f_pick);
    const Value empty = m_.wire("empty", ~any(st_valid_.reg));
    const Value sd_cam = mshr_cam("sd_cam", io_.sd_vpn_i, io_.sd_vmid_i);
    const Value sd_walks = m_.wire("sd_walks", mux(io_.sd_all_i, any(mv_), any(sd_cam)));
    const Value go_sd = m_.wire("go_sd", ~go_fill & io_.sd_valid_i & empty & ~sd_walks);
    const Value go_ins =
        m_.wire("go_ins", ~go_fill & ~io_.sd_valid_i & io_.ins_valid_i & ~busy("ins_busy", io_.ins_vpn_i));
    const Value slot_pick = hdl::lowest_one_halves(m_.top(), "slot_pick", m_.wire("slot_free", ~w_valid_));
    credit_ = m_.reg("mshr_credit", elab::clog2(uint64_t{M} + 1), M);
    const Value lk_ok = m_.wire("lookup_ok", ~go_fill & ~go_ins & ~io_.sd_valid_i & any(~w_valid_) &
                                                 (credit_ != lit(credit_.width(), 0)));
    std::vector<Value> elig;
    for (unsigned q = 0; q < P; ++q)
      elig.push_back(io_.req_valid_i.bit(q) &
                     ~busy("req_busy" + to_string(q), io_.req_vpn_i.field(q, VPN)));
    const Value eligible = m_.wire("req_eligible", hdl::cat_lsb_first(elig));
    Value pick = eligible;
    if (P > 1) {
      const Reg rr = m_.reg("rr", P, 1);
      pick = hdl::round_robin_pick(m_.top(), "req_pick", eligible, rr);
      rr.next_if(lk_ok & any(eligible), hdl::rotate_left1(pick));
    }
    io_.req_ready_o.drive(gate(lk_ok, pick));
    io_.sd_ready_o.drive(go_sd);
    io_.ins_ready_o.drive(go_ins);
    go_lk_ = m_.wire("go_lookup", lk_ok & any(eligible));
    slot_alloc_ = m_.wire("slot_alloc", gate(go_lk_, slot_pick));
    slot_pick_ = slot_pick;
    const Value lk_vpn = hdl::onehot_select(pick, io_.req_vpn_i, P, VPN);
    const Value lk_vmid = hdl::onehot_select(pick, io_.req_vmid_i, P, VM);
    lk_port_ = m_.wire("lookup_port", hdl::onehot_index(pick, l_.port_bits));
    lk_tag_ = m_.wire("lookup_tag", hdl::onehot_select(pick, io_.req_tag_i, P, T));
    lk_vpn_ = m_.wire("lookup_vpn", lk_vpn);
    lk_vmid_ = m_.wire("lookup_vmid", lk_vmid);
    Entering& e = in_;
    e.valid = go_fill | go_sd | go_ins | go_lk_;
    e.kind = hdl::priority({{go_fill, lit(2, kFill)}, {go_sd, lit(2, kShootdown)}, {go_ins, lit(2, kInsert)}},
                           lit(2, kLookup));
    e.vpn = m_.wire("enter_vpn", hdl::priority({{go_fill, f_vpn}, {go_sd, io_.sd_vpn_i}, {go_ins, io_.ins_vpn_i}},
                                                lk_vpn));
    e.vmid = m_.wire("enter_vmid", hdl::priority({{go_fill, hdl::onehot_select(f_pick, m_vmid_, M, VM)},
                                                  {go_sd, io_.sd_vmid_i},
                                                  {go_ins, io_.ins_vmid_i}},
                                                 lk_vmid));
    e.iid = hdl::onehot_select(pick, io_.req_iid_i, P, IW);
    e.slot = hdl::onehot_index(slot_pick, RB);
    e.mshr = hdl::onehot_index(f_pick, MB);
    e.ppn = mux(go_fill, hdl::onehot_select(f_pick, m_ppn_, M, PPN), io_.ins_ppn_i);
    e.perm = mux(go_fill, hdl::onehot_select(f_pick, m_perm_, M, Q), io_.ins_perm_i);
    e.all = io_.sd_all_i;
  }

  // ---- read stage (D - 2): the operation's set, registered
  void read_stage() {
    const unsigned k = D - 3;
    m_.comment("read stage " + to_string(k + 1) + ": the set's ways");
    const Value oh = S == 1 ? Value() : set_onehot("rd_set", st_vpn_.at(k));
    auto row = [&](const string& name, const Value& arr, unsigned width) {
      const Reg r = m_.reg_noreset(name, W * width);
      r.next(hdl::onehot_select_tree(oh, arr, S, W * width));
      return Value(r);
    };
    rd_valid_ = m_.reg("rd_valid", W);
    rd_valid_.next(hdl::onehot_select_tree(oh, arr_valid_, S, W));
    rd_vmid_ = row("rd_vmid", arr_vmid_, VM);
    rd_tag_ = row("rd_tag", arr_tag_, TB);
    rd_ppn_ = row("rd_ppn", arr_ppn_, PPN);
    rd_perm_ = row("rd_perm", arr_perm_, Q);
    if (W > 1) {
      const Reg r = m_.reg_noreset("rd_plru", W - 1);
      r.next(hdl::onehot_select_tree(oh, plru_, S, W - 1));
      rd_plru_ = r;
    }
  }

  // ---- compare stage (D - 1): hit, way, victim and the MSHR of the page
  void compare_stage() {
    const unsigned k = D - 2;
    m_.comment("compare stage " + to_string(k + 1) + ": hit way, victim, the page's MSHR");
    const Value vpn = st_vpn_.at(k), vmid = st_vmid_.at(k);
    Wire match = m_.wire("cmp_match", W, true);
    each("gw", W, "g_cmp", [&](Scope& sc, const Index& w) {
      sc.assign(match.bit(w), rd_valid_.bit(w) & (rd_vmid_.field(w, VM) == vmid) &
                                  (rd_tag_.field(w, TB) == tag_of(vpn)));
    });
    Value victim = hdl::one_bit(true);
    if (W > 1)
      victim = hdl::plru_victim_among(m_.top(), "cmp_victim", hdl::vector_wire(m_.top(), "cmp_plru", rd_plru_),
                                      {m_.wire("cmp_invalid", ~rd_valid_)}, m_.wire("cmp_any", hdl::ones(W)), W);
    c_hit_ = m_.reg("c_hit", 1);
    c_hit_.next(any(match));
    c_way_ = m_.reg("c_way", W);
    c_way_.next(match);
    c_victim_ = m_.reg("c_victim", W);
    c_victim_.next(victim);
    c_ppn_ = m_.reg_noreset("c_ppn", PPN);
    c_ppn_.next(hdl::onehot_select(match, rd_ppn_, W, PPN));
    c_perm_ = m_.reg_noreset("c_perm", Q);
    c_perm_.next(hdl::onehot_select(match, rd_perm_, W, Q));
    c_mshr_ = m_.reg("c_mshr", M);
    c_mshr_.next(mshr_cam("cmp_mshr", vpn, vmid));
  }

  // ---- action stage (D)
  void act_stage() {
    const unsigned k = D - 1;
    m_.comment("action stage " + to_string(k + 1));
    const Value v = st_valid_.at(k), kind = st_kind_.at(k);
    a_vpn_ = st_vpn_.at(k);
    a_vmid_ = st_vmid_.at(k);
    a_set_ = set_onehot("act_set", a_vpn_);
    a_lookup_ = m_.wire("act_lookup", v & (kind == lit(2, kLookup)));
    a_write_ = m_.wire("act_write", v & ((kind == lit(2, kFill)) | (kind == lit(2, kInsert))));
    const Value sd = v & (kind == lit(2, kShootdown));
    a_flush_ = m_.wire("act_flush", sd & st_all_.at(k));
    a_inval_ = hdl::vector_wire(m_.top(), "act_inval", gate(sd & ~st_all_.at(k), c_way_));
    a_way_ = hdl::vector_wire(m_.top(), "act_way", mux(c_hit_, c_way_, c_victim_));
    a_ppn_ = st_ppn_.at(k);
    a_perm_ = st_perm_.at(k);
    free_oh_ = m_.wire("fill_free", gate(v & (kind == lit(2, kFill)), hdl::one_of(M, st_mshr_.at(k))));
    const Reg done = m_.reg("sd_done", 1);
    done.next(sd);
    io_.sd_done_o.drive(done);
    // a lookup that misses: merge with the page's MSHR or allocate one
    const Value miss = m_.wire("act_miss", a_lookup_ & ~c_hit_);
    const Value merge = m_.wire("act_merge", miss & any(c_mshr_));
    const Value free_pick = hdl::lowest_one_halves(m_.top(), "alloc_pick", m_.wire("mshr_free", ~mv_));
    alloc_oh_ = m_.wire("alloc", gate(miss & ~any(c_mshr_), free_pick));
    const Value now_filled = any(c_mshr_ & (m_filled_ | resp_oh_));
    const Value same_edge = any(c_mshr_ & resp_oh_);
    const Value m_ppn = mux(same_edge, resp_ppn_, hdl::onehot_select(c_mshr_, m_ppn_, M, PPN));
    const Value m_perm = mux(same_edge, resp_perm_, hdl::onehot_select(c_mshr_, m_perm_, M, Q));
    act_ready_ = m_.wire("act_ready", a_lookup_ & (c_hit_ | (merge & now_filled)));
    act_wait_ = m_.wire("act_wait", miss & ~(merge & now_filled));
    act_ppn_ = m_.wire("act_ppn", mux(c_hit_, c_ppn_, m_ppn));
    act_perm_ = m_.wire("act_perm", mux(c_hit_, c_perm_, m_perm));
    act_mshr_ = m_.wire("act_mshr", mux(merge, hdl::onehot_index(c_mshr_, MB), hdl::onehot_index(alloc_oh_, MB)));
    act_slot_ = m_.wire("act_slot", gate(a_lookup_, hdl::one_of(R, st_slot_.at(k))));
  }

  // ---- the array and its pseudo-LRU
  void array() {
    m_.comment("array: writes of fills and inserts, invalidations of shootdowns");
    const unsigned N = l_.entries;
    const Value tag = tag_of(a_vpn_);
    each("ge", N, "g_entry", [&](Scope& sc, const Index& e) {
      const Value in_set = a_set_.bit(e / Index(W));
      const Index way = e % Index(W);
      const Value we = sc.wire("we", a_write_ & in_set & a_way_.bit(way));
      const Value inv = a_inval_.bit(way) & in_set;
      sc.assign(arr_valid_.d().bit(e), ~a_flush_ & ((arr_valid_.bit(e) & ~inv) | we));
      sc.assign(arr_vmid_.d().field(e, VM), mux(we, a_vmid_, arr_vmid_.field(e, VM)));
      sc.assign(arr_tag_.d().field(e, TB), mux(we, tag, arr_tag_.field(e, TB)));
      sc.assign(arr_ppn_.d().field(e, PPN), mux(we, a_ppn_, arr_ppn_.field(e, PPN)));
      sc.assign(arr_perm_.d().field(e, Q), mux(we, a_perm_, arr_perm_.field(e, Q)));
    });
    if (W == 1) return;
    const Value touch = m_.wire("touch_way", gate(a_lookup_ & c_hit_, c_way_) | gate(a_write_, a_way_));
    hdl::Touch t{hdl::Touch::kTouch, Value(), a_set_, touch, "ts", {}};
    const Value tree = hdl::vector_wire(m_.top(), "plru_w", plru_);
    plru_.next(hdl::plru_next(m_.top(), "plru_next", tree, S, W, {t}));
  }

  // ---- MSHRs
  // The MSHRs free less the lookups in flight (entry admits a lookup while it
  // is non-zero), counted rather than summed each cycle: a lookup takes one
  // at entry and gives it back in stage D unless it allocates; a fill gives
  // its MSHR back. The sum of 2 x M bits was the critical path at M = 32.
  void mshr_credit() {
    const unsigned cb = credit_.width();
    const Value back = (a_lookup_ & ~any(alloc_oh_)) | any(free_oh_);
    credit_.next(credit_ - zext(go_lk_, cb) + zext(back, cb));
  }

  void mshr_update() {
    mshr_credit();
    m_.comment("MSHRs: allocated by a missing lookup, issued, filled by the walk answer, freed by the fill");
    mv_.next((mv_ & ~free_oh_) | alloc_oh_);
    m_issued_.next(~alloc_oh_ & (m_issued_ | issue_oh_));
    m_filled_.next(~alloc_oh_ & (m_filled_ | resp_oh_));
    m_entered_.next(~alloc_oh_ & (m_entered_ | fill_enter_));
    const Value iid = st_iid_.at(D - 1);
    each("gm", M, "g_mshr", [&](Scope& sc, const Index& i) {
      const Value a = alloc_oh_.bit(i), f = resp_oh_.bit(i);
      sc.assign(m_vpn_.d().field(i, VPN), mux(a, a_vpn_, m_vpn_.field(i, VPN)));
      sc.assign(m_vmid_.d().field(i, VM), mux(a, a_vmid_, m_vmid_.field(i, VM)));
      sc.assign(m_iid_.d().field(i, IW), mux(a, iid, m_iid_.field(i, IW)));
      sc.assign(m_ppn_.d().field(i, PPN), mux(f, resp_ppn_, m_ppn_.field(i, PPN)));
      sc.assign(m_perm_.d().field(i, Q), mux(f, resp_perm_, m_perm_.field(i, Q)));
    });
    io_.mshrs_o.drive(popcount("mshr_count", mv_, l_.mshr_count_bits));
  }

  // ---- waiter slots
  void waiters() {
    m_.comment("waiter slots: taken at entry, answered by the action or the walk answer, freed by the answer");
    const unsigned PB = l_.port_bits;
    each("gs", R, "g_slot", [&](Scope& sc, const Index& i) {
      const Value alloc = slot_alloc_.bit(i), act = act_slot_.bit(i);
      const Value bcast = sc.wire("bcast", w_wait_.bit(i) & resp_any_ & (w_mshr_.field(i, MB) == resp_idx_));
      const Value answer = act & act_ready_;
      sc.assign(w_valid_.d().bit(i), alloc | (w_valid_.bit(i) & ~freed_.bit(i)));
      sc.assign(w_ready_.d().bit(i), ~alloc & (w_ready_.bit(i) | answer | bcast));
      sc.assign(w_wait_.d().bit(i), ~alloc & ((w_wait_.bit(i) & ~bcast) | (act & act_wait_)));
      // the lowest free slot takes the lookup's fields whether or not it
      // enters (a free slot's fields are read by nothing), so their enables
      // wait for no entry decision
      const Value load = slot_pick_.bit(i);
      sc.assign(w_port_.d().field(i, PB), mux(load, lk_port_, w_port_.field(i, PB)));
      sc.assign(w_tag_.d().field(i, T), mux(load, lk_tag_, w_tag_.field(i, T)));
      sc.assign(w_vpn_.d().field(i, VPN), mux(load, lk_vpn_, w_vpn_.field(i, VPN)));
      sc.assign(w_vmid_.d().field(i, VM), mux(load, lk_vmid_, w_vmid_.field(i, VM)));
      sc.assign(w_mshr_.d().field(i, MB), mux(act & act_wait_, act_mshr_, w_mshr_.field(i, MB)));
      sc.assign(w_ppn_.d().field(i, PPN),
                mux(answer, act_ppn_, mux(bcast, resp_ppn_, w_ppn_.field(i, PPN))));
      sc.assign(w_perm_.d().field(i, Q),
                mux(answer, act_perm_, mux(bcast, resp_perm_, w_perm_.field(i, Q))));
    });
  }

  // ---- answer registers, one per port
  void answers() {
    m_.comment("answers: per port the lowest ready waiter slot of the port");
    const unsigned PB = l_.port_bits;
    const Reg valid = m_.reg("ans_valid", P), tag = m_.reg("ans_tag", P * T), vpn = m_.reg("ans_vpn", P * VPN),
              vmid = m_.reg("ans_vmid", P * VM), ppn = m_.reg("ans_ppn", P * PPN), perm = m_.reg("ans_perm", P * Q);
    std::vector<Value> freed, v_next, tag_next, vpn_next, vmid_next, ppn_next, perm_next;
    for (unsigned q = 0; q < P; ++q) {
      const string a = "ans" + to_string(q) + "_";
      Wire cand = m_.wire(a + "cand", R, true);
      each("ga" + to_string(q), R, "g_" + a + "cand", [&](Scope& sc, const Index& i) {
        sc.assign(cand.bit(i), w_valid_.bit(i) & w_ready_.bit(i) & (w_port_.field(i, PB) == lit(PB, q)));
      });
      const Value pick = hdl::lowest_one_halves(m_.top(), a + "pick", cand);
      const Value load = m_.wire(a + "load", ~valid.bit(q) | io_.resp_ready_i.bit(q));
      const Value take = m_.wire(a + "take", load & any(cand));
      freed.push_back(gate(load, pick));
      v_next.push_back(mux(load, any(cand), valid.bit(q)));
      auto field = [&](const Reg& r, const Reg& slots, unsigned width) {
        return mux(take, hdl::onehot_select(pick, slots, R, width), r.field(q, width));
      };
      tag_next.push_back(field(tag, w_tag_, T));
      vpn_next.push_back(field(vpn, w_vpn_, VPN));
      vmid_next.push_back(field(vmid, w_vmid_, VM));
      ppn_next.push_back(field(ppn, w_ppn_, PPN));
      perm_next.push_back(field(perm, w_perm_, Q));
    }
    freed_.drive(hdl::or_tree(freed));
    valid.next(hdl::cat_lsb_first(v_next));
    tag.next(hdl::cat_lsb_first(tag_next));
    vpn.next(hdl::cat_lsb_first(vpn_next));
    vmid.next(hdl::cat_lsb_first(vmid_next));
    ppn.next(hdl::cat_lsb_first(ppn_next));
    perm.next(hdl::cat_lsb_first(perm_next));
    io_.resp_valid_o.drive(valid);
    io_.resp_tag_o.drive(tag);
    io_.resp_vpn_o.drive(vpn);
    io_.resp_vmid_o.drive(vmid);
    io_.resp_ppn_o.drive(ppn);
    io_.resp_perm_o.drive(perm);
  }

  // ---- the walk request register: the lowest MSHR not yet issued
  void walk_request() {
    m_.comment("walk request: the lowest MSHR not yet issued");
    const Reg valid = m_.reg("wq_valid", 1), vpn = m_.reg("wq_vpn", VPN), vmid = m_.reg("wq_vmid", VM),
              iid = m_.reg("wq_iid", IW);
    const Value cand = m_.wire("wq_cand", mv_ & ~m_issued_);
    const Value pick = hdl::lowest_one_halves(m_.top(), "wq_pick", cand);
    const Value load = m_.wire("wq_load", ~valid | io_.walk_req_ready_i);
    const Value take = m_.wire("wq_take", load & any(cand));
    issue_oh_.drive(gate(load, pick));
    valid.next(mux(load, any(cand), valid));
    vpn.next_if(take, hdl::onehot_select(pick, m_vpn_, M, VPN));
    vmid.next_if(take, hdl::onehot_select(pick, m_vmid_, M, VM));
    iid.next_if(take, hdl::onehot_select(pick, m_iid_, M, IW));
    io_.walk_req_valid_o.drive(valid);
    io_.walk_req_vpn_o.drive(vpn);
    io_.walk_req_vmid_o.drive(vmid);
    io_.walk_req_iid_o.drive(iid);
  }

  // ---- the stage registers: stage k + 1 takes stage k, stage 1 the entering operation
  void stages() {
    auto shift = [&](const StageField& f, const Value& first) {
      f.reg.next(D == 1 ? first : cat({f.reg.slice(0, (D - 1) * f.width), first}));
    };
    shift(st_valid_, in_.valid);
    shift(st_kind_, in_.kind);
    shift(st_all_, in_.all);
    shift(st_vpn_, in_.vpn);
    shift(st_vmid_, in_.vmid);
    shift(st_iid_, in_.iid);
    shift(st_slot_, in_.slot);
    shift(st_mshr_, in_.mshr);
    shift(st_ppn_, in_.ppn);
    shift(st_perm_, in_.perm);
  }

  // ---- formal properties (txgen prove; docs/blocks/iommu.md, "Formal
  // properties"). Together: an operation never meets another of its set in
  // the pipeline, a missing lookup always finds an MSHR, one walk per page,
  // and every request taken is in exactly one place (the pipeline, waiting
  // on an unfilled MSHR, or ready to answer) until its answer leaves.
  void properties() {
    // the walk port answers only an issued walk it has not answered yet
    const Value answered = l_.answer_register ? resp_oh_ : zero(M);
    m_.assume_always("walk_answers_issued_walks",
                     ~io_.walk_resp_valid_i | any(resp_cam_ & mv_ & m_issued_ & ~m_filled_ & ~answered));
    m_.assert_always("one_operation_per_set", ~m_.formal().wire("f_set_clash", set_clash()));
    credit_property();
    mshr_properties();
    slot_properties();
  }

  // some bit set in two of the width-bit vectors
  static Value in_two(const std::vector<Value>& vectors, unsigned width) {
    std::vector<Value> twice;
    for (size_t k = 0; k < vectors.size(); ++k)
      for (size_t j = k + 1; j < vectors.size(); ++j) twice.push_back(vectors[k] & vectors[j]);
    return any(hdl::or_of(twice, zero(width)));
  }

  Value set_clash() {
    std::vector<Value> clash;
    for (unsigned k = 0; k < D; ++k)
      for (unsigned j = k + 1; j < D; ++j) {
        const Value same = SI ? set_of(st_vpn_.at(k)) == set_of(st_vpn_.at(j)) : hdl::one_bit(true);
        clash.push_back(st_valid_.at(k) & st_valid_.at(j) & (flushes_all(k) | flushes_all(j) | same));
      }
    return hdl::or_of(clash, hdl::one_bit(false));
  }

  // the credit is the MSHRs free less the lookups in the pipeline, so it
  // never wraps and a lookup that misses in stage D always finds a free MSHR
  void credit_property() {
    const unsigned cw = credit_.width() + elab::clog2(uint64_t{D} + 1);  // no wrap from any register value
    std::vector<Value> lookups{zext(credit_, cw)};
    for (unsigned k = 0; k < D; ++k)
      lookups.push_back(zext(stage_holds(k, kLookup), cw));
    Scope& f = m_.formal();
    m_.assert_always("mshr_credit_is_free_less_lookups",
                     f.wire("f_credit_and_lookups", hdl::sum_of(lookups)) == formal_count("f_mshrs_free", ~mv_, cw));
  }

  // the ones of `bits` as a width-bit count, in groups of 16 named wires so
  // that no expression is longer than a few dozen terms at M = 1024
  Value formal_count(const string& name, const Value& bits, unsigned width) {
    std::vector<Value> groups;
    const Value named = m_.formal().wire(name + "_of", bits);
    for (unsigned lo = 0; lo < bits.width(); lo += 16) {
      std::vector<Value> ones;
      for (unsigned i = lo; i < std::min(lo + 16, bits.width()); ++i) ones.push_back(zext(named.bit(i), width));
      groups.push_back(m_.formal().wire(name + "_g" + to_string(lo / 16), hdl::sum_of(ones)));
    }
    return m_.formal().wire(name, groups.size() == 1 ? groups[0] : hdl::sum_of(groups));
  }

  // a valid MSHR's walk is issued before it is filled, filled before its fill
  // enters, and its fill is in the pipeline from entry to stage D; no two
  // valid MSHRs hold one page (one walk per page)
  void mshr_properties() {
    m_.assert_always("mshr_states_ordered", ~any(mv_ & ((m_filled_ & ~m_issued_) | (m_entered_ & ~m_filled_))));
    Scope& f = m_.formal();
    std::vector<Value> fills;
    for (unsigned k = 0; k < D; ++k)
      fills.push_back(f.wire("f_fill_in_stage" + to_string(k + 1),
                             gate(stage_holds(k, kFill), hdl::one_of(M, st_mshr_.at(k)))));
    m_.assert_always("fill_in_pipeline_iff_entered",
                     (hdl::or_of(fills, zero(M)) == (mv_ & m_entered_)) & ~in_two(fills, M));
    if (M == 1) return;
    // every MSHR i against each other one, k = j or j + 1 (skipping i): two
    // loops in the text, M x (M - 1) compares for the solver
    Wire dup = f.wire("f_mshr_dup", M * (M - 1), true);
    each_entry(m_.formal(), "gfi", M, "g_f_dup", [&](Scope& si, const Index& i) {
      si.generate_for("gfj", M - 1, "g_f_dup_other", [&](Scope& sj, const Index& j) {
        const Index k = hdl::select(j < i, j, j + 1);
        sj.assign(dup.bit(i * Index(M - 1) + j), mv_.bit(i) & mv_.bit(k) &
                                                   (m_vpn_.field(i, VPN) == m_vpn_.field(k, VPN)) &
                                                   (m_vmid_.field(i, VM) == m_vmid_.field(k, VM)));
      });
    });
    m_.assert_always("mshrs_hold_distinct_pages", ~any(dup));
  }

  // each waiter slot in use is in exactly one place: in stage k of the
  // pipeline (one vector per stage), waiting, or ready and not yet taken by
  // its answer register; a free slot in none.
  // A waiting slot's MSHR is valid and unfilled, so its walk answer reaches it.
  void slot_properties() {
    Scope& f = m_.formal();
    std::vector<Value> places;
    for (unsigned k = 0; k < D; ++k)
      places.push_back(f.wire("f_slot_in_stage" + to_string(k + 1),
                              gate(stage_holds(k, kLookup), hdl::one_of(R, st_slot_.at(k)))));
    places.push_back(w_wait_);
    places.push_back(f.wire("f_slot_ready", w_ready_ & w_valid_));  // a freed slot keeps its ready bit
    m_.assert_always("slot_in_one_place", (hdl::or_of(places, zero(R)) == w_valid_) & ~in_two(places, R));
    const Value open = f.wire("f_mshr_open", mv_ & ~m_filled_);
    Wire ok = f.wire("f_wait_ok", R, true);
    each_entry(m_.formal(), "gfw", R, "g_f_wait", [&](Scope& sc, const Index& i) {
      sc.assign(ok.bit(i), ~w_wait_.bit(i) | any(hdl::one_of(M, w_mshr_.field(i, MB)) & open));
    });
    m_.assert_always("waiting_slot_has_unfilled_mshr", hdl::all(ok));
  }

  const IommuParams& p_;
  const L2tlbParams& l_;
  Module& m_;
  const unsigned VPN, VM, PPN, Q, IW, S, W, SI, TB, P, T, M, MB, R, RB, D;
  L2Ports io_;
  Reg arr_valid_, arr_vmid_, arr_tag_, arr_ppn_, arr_perm_, plru_;
  StageField st_valid_, st_kind_, st_all_, st_vpn_, st_vmid_, st_iid_, st_slot_, st_mshr_, st_ppn_, st_perm_;
  Reg mv_, m_issued_, m_filled_, m_entered_, m_vpn_, m_vmid_, m_iid_, m_ppn_, m_perm_;
  Reg w_valid_, w_ready_, w_wait_, w_port_, w_tag_, w_vpn_, w_vmid_, w_mshr_, w_ppn_, w_perm_;
  Reg rd_valid_, c_hit_, c_way_, c_victim_, c_ppn_, c_perm_, c_mshr_;
  Value rd_vmid_, rd_tag_, rd_ppn_, rd_perm_, rd_plru_;
  Wire freed_, issue_oh_;
  Reg credit_;
  Value slot_pick_, resp_cam_, resp_oh_, resp_ppn_, resp_perm_, resp_any_, resp_idx_;
  Value fill_enter_, go_lk_, slot_alloc_, lk_port_, lk_tag_, lk_vpn_, lk_vmid_;
  Value a_vpn_, a_vmid_, a_set_, a_lookup_, a_write_, a_flush_, a_inval_, a_way_, a_ppn_, a_perm_, free_oh_;
  Value alloc_oh_, act_ready_, act_wait_, act_ppn_, act_perm_, act_mshr_, act_slot_;
  Entering in_;
};

}  // namespace

ModulePtr emit_l2tlb(const IommuParams& p, const EmitContext& ctx) {
  auto m = std::make_unique<Module>(p.l2.module_prefix);
  header(*m, p, ctx, "shared L2-TLB: " + to_string(p.l2.entries) + " entries, " + to_string(p.l2.ways) + " ways");
  L2Emitter(p, *m).build();
  return m;
}

}  // namespace txgen::blocks::iommu
