// Golden cycle model of tx_path_NAME_sys / _base_sys (docs/blocks/tx_path.md).
// See tx_path.h. Quotations in the comments are from tx_path.md.
//
// READINGS (places where the document leaves a choice; each is also marked
// "READING" where it is implemented):
//  P1 `lk_resp_ready_i` = 1 and `tl_resp_ready_i` = 1 in every cycle (the
//     document lists them under LDS_WAIT / IC_WAIT but says "in every
//     cycle"); the member only answers the lookup of LDS_WAIT / IC_WAIT, so
//     the two readings are the same.
//  P2 Every register and flag update reads the values of the cycle (before
//     the edge): lown / iown when taking sd_done, the kill key (the accepted
//     key in the accept cycle, sdp while sdp.valid) for every kill bit,
//     l1done for the done step. "Taken in this cycle" for the L2 stage is the
//     l2_req handshake of the same cycle; "emptied in this cycle" for lb / vr
//     is the emptying condition of the same cycle.
//  P3 The shootdown accept edge clears lsent, ldone, isent, idone, l1sent,
//     l1done after every other update of that edge (nothing else can set
//     them then: a new shootdown is accepted only with sdp.valid = 0).
//  P4 A handshake needs the valid: IC_REQ leaves for IC_WAIT at an edge with
//     tl_valid_i[i] and tl_ready_o[i], LDS_REQ for LDS_WAIT with lk_valid_i
//     and lk_ready_o, the queue head is filled with fill_valid_i and
//     fill_ready_o (with S = 1 the I-cache's grant is CU 0 whether or not its
//     valid is set, so tl_ready_o[0] = 1 alone, e.g. while lb is full, is no
//     accept). lb is emptied when lb.valid and (lb.kill or tf_ready_o[i]), as
//     written: a killed lb has tf_valid_i = 0, so the I-cache takes nothing.
//  P5 The CU field of `l2_resp_tag_i` is tag[PT-1:LT]; with U = 1 (CUB = 1)
//     the value 1 names no CU and `l2_resp_ready_o` is 0 for it.
//  P6 Baseline: the LDS is the translation-free controller (its application
//     port only; every translation and work-group input 0), wg_ready_o =
//     wg_done_o = 0, l2_resp_ready_o = 1, l2_vic_valid_o = 0 with zero data,
//     hit_lds_o = hit_ic_o = 0, sd_ready_o / sd_done_o the L1-TLB's, the
//     shootdown inputs straight on the L1-TLB; vrf_i is ignored.
//  P7 The victim fields taken into the queue, lb and vr and the accepted
//     shootdown key are compared at their widths (VPN, VM bits); vr keeps no
//     VRF-ID (the document's vr has none, nor has the L2 victim port).
//  P8 Non-blocking lookup (K slots): every slot choice of a cycle (the
//     intake's lowest IDLE slot, kl, ki, kr, k2) is made from the registers
//     of the cycle, so a slot freed at an edge (RET, L2) takes no miss at
//     that edge (l2_req_ready_i was 0 for it) and a slot that reaches L2 at
//     an edge is not loaded into l2r at the same edge. With no slot in
//     LDS_REQ (IC_REQ) the lookup port's data fields show slot 0's rq (the
//     blocking stage's, valid 0). The event ret_overtakes compares the
//     other slots' states of the cycle (an older slot leaving L2 at the RET
//     edge still counts as overtaken).
//  P9 Speculative L2 request: every choice and flag of a cycle (asks, k2,
//     drop, deliver, the slot an early answer marks) reads the registers of
//     the cycle. The early answer marks its slot (ab = 1) at the edge even
//     when the slot leaves at that edge (a sent slot in L2, or a slot whose
//     lookup ends); a slot reaching RET with ab then quits at the next edge,
//     and ab / sent of an IDLE slot decide nothing (the intake clears them).
//     A slot that is sent at the edge it reaches L2 goes IDLE at the next
//     edge ("already sent"). A discarded LDS / I-cache answer (a quitting
//     slot in LDS_WAIT / IC_WAIT) raises no lookup event and no statistic.
//     spec_early is raised when the early answer marks a slot not in L2 (a
//     sent slot in L2 leaves at that edge anyway).
// P10 Clusters (N = U/C > 1): `want`, like `drop`, needs l2_resp_valid_i
//     ("names this CU"), so in a cycle without an L2 answer no glue wants it
//     and l2_resp_ready_o = drop or (credit and not ret and grant) is 0.
//     With N = 1 there is no grant port (grant = 1: the old formula). The
//     baseline drives the L1 as the path does ({req_iid_i, i}) and its
//     l2_req_iid_o drops the CB allocator bits (IW bits, as the path's).
//     d1 of a cycle without a grant is (0, local CU 0).
// P11 The document's latency (Z = l1_pad > 0): z1 loads the CU's fields at
//     every advance edge, whether or not req_valid_i is set ("z1 = (the
//     CU's req_valid_i[u], its fields)"); vpn and vmid at their widths, the
//     ID at IW bits (the L1's req_iid_i = {zZ.iid, u mod N}, as with Z = 0
//     from the path's). stats.requests counts the path's accept (req_valid_i
//     and req_ready_o = advance), the L1's own accepts are its statistics.
//     The registers are in the baseline too, and a reset clears them (valid
//     and data 0).
#include "model/tx_path.h"

#include <stdexcept>
#include <string>

namespace txgen::model {
namespace {

uint64_t mask_of(unsigned bits) { return bits >= 64 ? ~uint64_t{0} : ((uint64_t{1} << bits) - 1); }

// "The first from p": the first k in the order p, p+1, ..., p+K-1 (mod K)
// with ok(k), or -1.
template <class Ok>
int first_from(unsigned p, unsigned K, Ok ok) {
  for (unsigned d = 0; d < K; ++d) {
    const unsigned k = (p + d) % K;
    if (ok(k)) return static_cast<int>(k);
  }
  return -1;
}

}  // namespace

TxPathModel::TxPathModel(const elab::TxPathParams& p, bool baseline)
    : p_(p), baseline_(baseline), l1_(p.l1) {
  U_ = p_.cus;
  S_ = p_.sharers;
  G_ = p_.icaches;
  D_ = p_.victim_queue;
  WL_ = p_.wire_lds;
  WI_ = p_.wire_icache;
  K_ = p_.slots;
  move_ = p_.move;
  spec_ = p_.speculative;
  if (U_ < 1 || S_ < 1 || U_ % S_ != 0 || G_ != U_ / S_)
    throw std::invalid_argument("TxPathModel: cus / sharers / icaches inconsistent");
  if (D_ < 1 || D_ > 8) throw std::invalid_argument("TxPathModel: victim_queue must be 1-8");
  if (K_ < 1 || K_ > kMaxSlots) throw std::invalid_argument("TxPathModel: lookup_slots must be 1-8");
  C_ = p_.clusters;
  N_ = p_.cluster_cus;
  CB_ = p_.local_bits;
  Z_ = p_.l1_pad;
  if (p_.l1.cus != U_ || p_.l1.clusters != C_ || p_.l1.cus_per_cluster != N_ || C_ * N_ != U_ ||
      (1u << CB_) != N_ || p_.l1.iid_bits != p_.iid_bits + CB_)
    throw std::invalid_argument("TxPathModel: the L1-TLB's U, C, N or instruction ID do not match the path's");
  if (p_.ic.sharers != S_) throw std::invalid_argument("TxPathModel: I-cache sharers != S");
  if (p_.l1_tag_bits != p_.l1.l2_tag_bits) throw std::invalid_argument("TxPathModel: LT != the L1-TLB's L2 tag");
  if (spec_ && p_.l1_tag_bits > 6) throw std::invalid_argument("TxPathModel: cx needs 2^LT <= 64 bits");
  vpn_mask_ = mask_of(p_.vpn_bits);
  vmid_mask_ = mask_of(p_.vmid_bits);
  ppn_mask_ = mask_of(p_.ppn_bits);
  perm_mask_ = mask_of(p_.perm_bits);
  lt_mask_ = mask_of(p_.l1_tag_bits);
  cu_field_mask_ = mask_of(p_.cu_bits);
  local_mask_ = mask_of(CB_);
  iid_mask_ = mask_of(p_.iid_bits);

  lds_.reserve(U_);
  for (unsigned u = 0; u < U_; ++u) lds_.emplace_back(p_.lds);
  ic_.reserve(G_);
  for (unsigned g = 0; g < G_; ++g) ic_.emplace_back(p_.ic, baseline_);

  reset_g_.cu.assign(U_, Cu{});
  reset_g_.ic.assign(G_, Ic{});
  reset_g_.cl.assign(C_, Cl{});
  reset_g_.z.assign(U_ * Z_, PadReg{});
  g_ = reset_g_;

  // Scratch, sized once.
  l1_in_ = l1_.idle_inputs();
  l1_out_ = l1_.make_outputs();
  lds_in_.resize(U_);
  for (LdsCtrlIn& li : lds_in_) li.app_wdata = Bits(p_.lds.row_bits);
  lds_out_.resize(U_);
  for (LdsCtrlOut& lo : lds_out_) {
    lo.app_rdata = Bits(p_.lds.row_bits);
    lo.sram_wdata = Bits(p_.lds.row_bits);
  }
  ic_in_.assign(G_, IcacheTxIn::idle(p_.ic));
  ic_out_.resize(G_);
  cc_.assign(U_, CuComb{});
  gc_.assign(G_, IcComb{});
  lc_.assign(C_, ClComb{});
  stats_.fills.assign(U_, 0);
}

TxPathIn TxPathModel::idle_inputs() const {
  TxPathIn in;
  in.rst_n = true;
  in.req_valid.assign(U_, 0);
  in.req_vpn.assign(U_, 0);
  in.req_vmid.assign(U_, 0);
  in.req_iid.assign(U_, 0);
  in.vrf.assign(U_, 0);
  in.app_valid.assign(U_, 0);
  in.app_we.assign(U_, 0);
  in.app_row.assign(U_, 0);
  in.app_bank_en.assign(U_, 0);
  in.app_wdata.assign(U_, Bits(p_.lds.row_bits));
  in.wg_valid.assign(U_, 0);
  in.wg_free.assign(U_, 0);
  in.wg_base.assign(U_, 0);
  in.wg_size.assign(U_, 0);
  in.if_valid.assign(G_, 0);
  in.if_addr.assign(G_, 0);
  in.ifill_valid.assign(G_, 0);
  in.ifill_addr.assign(G_, 0);
  in.ifill_data.assign(G_, Bits(p_.ic.line_bits));
  in.flush_valid.assign(G_, 0);
  in.l2_req_ready = true;
  in.l2_resp_valid = false;
  in.l2_vic_ready = true;
  in.sd_valid = false;
  return in;
}

TxPathOut TxPathModel::make_outputs() const {
  TxPathOut o;
  o.req_ready.assign(U_, 0);
  o.resp_valid.assign(U_, 0);
  o.resp_vpn.assign(U_, 0);
  o.resp_vmid.assign(U_, 0);
  o.resp_ppn.assign(U_, 0);
  o.resp_perm.assign(U_, 0);
  o.fill_valid.assign(U_, 0);
  o.fill_vpn.assign(U_, 0);
  o.fill_vmid.assign(U_, 0);
  o.fill_ppn.assign(U_, 0);
  o.fill_perm.assign(U_, 0);
  o.app_rvalid.assign(U_, 0);
  o.app_rdata.assign(U_, Bits(p_.lds.row_bits));
  o.wg_ready.assign(U_, 0);
  o.wg_done.assign(U_, 0);
  o.if_ready.assign(G_, 0);
  o.if_resp_valid.assign(G_, 0);
  o.if_resp_hit.assign(G_, 0);
  o.if_resp_data.assign(G_, Bits(p_.ic.line_bits));
  o.ifill_ready.assign(G_, 0);
  o.flush_ready.assign(G_, 0);
  o.flush_done.assign(G_, 0);
  o.hit_lds.assign(U_, 0);
  o.hit_ic.assign(U_, 0);
  return o;
}

void TxPathModel::check_inputs(const TxPathIn& in) const {
  if (in.req_valid.size() != U_ || in.req_vpn.size() != U_ || in.req_vmid.size() != U_ || in.vrf.size() != U_ ||
      in.app_valid.size() != U_ || in.app_we.size() != U_ || in.app_row.size() != U_ ||
      in.app_bank_en.size() != U_ || in.app_wdata.size() != U_ || in.wg_valid.size() != U_ ||
      in.wg_free.size() != U_ || in.wg_base.size() != U_ || in.wg_size.size() != U_ ||
      in.if_valid.size() != G_ || in.if_addr.size() != G_ || in.ifill_valid.size() != G_ ||
      in.ifill_addr.size() != G_ || in.ifill_data.size() != G_ || in.flush_valid.size() != G_)
    throw std::invalid_argument("TxPathModel: input vector sizes do not match the parameters");
}

// ---------------------------------------------------------------------------
// The combinational view of a cycle: glue values from the registers, then the
// members' inputs and outputs in dependency order. Fills the scratch members.

void TxPathModel::comb(const TxPathIn& in) const {
  check_inputs(in);
  const Glue& G = in.rst_n ? g_ : reset_g_;  // asynchronous reset: registers at their reset values

  // L2 response: the CU (baseline: the cluster) its tag names (READING P5).
  {
    const uint64_t f = (in.l2_resp_tag >> p_.l1_tag_bits) & cu_field_mask_;
    resp_cu_ = f < (baseline_ ? C_ : U_) ? static_cast<int>(f) : -1;
  }
  eval_l1(in, G);
  if (baseline_) arbitrate_l2_request_baseline(in, G);
  for (unsigned u = 0; u < U_; ++u) eval_lds(in, G, u);
  for (unsigned g = 0; g < G_; ++g) eval_icache(in, G, g);
  if (baseline_) return;

  // ---- inputs no member output depends on ----
  lds_vic_ready(G);
  icache_vic_ready(in, G);
  kill_key(in, G);
  arbitrate_l2_request(G);
}

// ---- L1-TLB: its inputs, then its outputs ----
void TxPathModel::eval_l1(const TxPathIn& in, const Glue& G) const {
  l1_request_inputs(in, G);
  l1_in_.rst_n = in.rst_n;
  if (baseline_) {
    l1_inputs_baseline(in);
  } else {
    for (unsigned u = 0; u < U_; ++u) {
      pick_slots(G, u);
      fill_wants(in, G, u);
    }
    for (unsigned c = 0; c < C_; ++c) merge_fills(in, G, c);
    l1_shootdown_input(G);
  }
  const long t0 = probe();
  l1_.outputs(l1_in_, l1_out_);
  member_allocs_ += probe() - t0;
  // l2_req_ready_i is read only at the L1's edge: set from its l2_req_iid_o
  if (!baseline_) route_l1_requests();
}

// The CUs' requests (Z > 0: "the L1's req_valid_i[u] and its fields are
// zZ's"); the L1's req_iid_i[u] = {ID (IW, high), u mod N (CB, low)}
// ("Allocator tag"; CB = 0: the ID alone), the ID the path's req_iid_i[u]
// or zZ's.
void TxPathModel::l1_request_inputs(const TxPathIn& in, const Glue& G) const {
  for (unsigned u = 0; u < U_; ++u) {
    uint64_t iid = 0;
    if (Z_ > 0) {
      const PadReg& z = G.z[u * Z_ + Z_ - 1];
      l1_in_.req_valid[u] = z.valid;
      l1_in_.req_vpn[u] = z.vpn;
      l1_in_.req_vmid[u] = z.vmid;
      iid = z.iid;
    } else {
      l1_in_.req_valid[u] = in.req_valid[u];
      l1_in_.req_vpn[u] = in.req_vpn[u];
      l1_in_.req_vmid[u] = in.req_vmid[u];
      iid = p_.iid_bits ? in.req_iid[u] & iid_mask_ : 0;
    }
    if (!p_.l1.iid_bits) continue;
    l1_in_.req_iid[u] = (iid << CB_) | (u % N_);
  }
}

// "The L1's l2_req_ready_i[c] = the l1_req_ready_o of glue c*N+a"; a glue's
// ready: some slot IDLE (K = 1: st = IDLE).
void TxPathModel::route_l1_requests() const {
  for (unsigned c = 0; c < C_; ++c) l1_in_.l2_req_ready[c] = cc_[c * N_ + allocator(c)].k_in >= 0;
}

void TxPathModel::l1_inputs_baseline(const TxPathIn& in) const {
  for (unsigned c = 0; c < C_; ++c) {
    // "the response goes to the L1's input of the CU its tag names" (T < U:
    // "the cluster its tag names")
    l1_in_.l2_resp_valid[c] = in.l2_resp_valid && resp_cu_ == static_cast<int>(c);
    l1_in_.l2_resp_tag[c] = in.l2_resp_tag & lt_mask_;
    l1_in_.l2_resp_ppn[c] = in.l2_resp_ppn;
    l1_in_.l2_resp_perm[c] = in.l2_resp_perm;
    l1_in_.l2_req_ready[c] = 0;  // set by arbitrate_l2_request_baseline() from the L1's own l2_req_valid_o
  }
  // "the shootdown goes straight to the L1-TLB"
  l1_in_.sd_valid = in.sd_valid;
  l1_in_.sd_all = in.sd_all;
  l1_in_.sd_vpn = in.sd_vpn;
  l1_in_.sd_vmid = in.sd_vmid;
}

// CU u's slot choices of the cycle ("Non-blocking lookup"; K = 1: slot 0
// or none). A slot is ready to return when st = RET and rm_free; kr is the
// first ready from pr. At most one slot waits for each of the LDS and the
// I-cache: both take one lookup at a time, so a second one is a broken
// contract, not a case to model.
// A quitting slot (ab, speculative) asks for nothing: no lookup, RET or L2.
void TxPathModel::pick_slots(const Glue& G, unsigned u) const {
  const Cu& c = G.cu[u];
  CuComb& k = cc_[u];
  const auto in_stage = [&](Stage st) { return [&c, st](unsigned s) { return c.s[s].st == st; }; };
  const auto live_in = [&](Stage st) { return [&c, st](unsigned s) { return c.s[s].st == st && !c.s[s].ab; }; };
  k.k_in = first_from(0, K_, in_stage(Stage::Idle));  // the lowest IDLE slot
  k.kl = first_from(c.pl, K_, live_in(Stage::LdsReq));
  k.ki = first_from(c.pi, K_, live_in(Stage::IcReq));
  if (spec_)
    k.k2 = first_from(c.p2, K_, [&](unsigned s) { return asks(c, c.s[s]); });
  else
    k.k2 = first_from(c.p2, K_, in_stage(Stage::L2));
  k.kr = first_from(c.pr, K_, [&](unsigned s) { return live_in(Stage::Ret)(s) && rm_free(c, c.s[s]); });
  k.ret_ready = k.kr >= 0;
  k.ret_rm_busy = false;
  unsigned lds_wait = 0, ic_wait = 0;
  for (unsigned s = 0; s < K_; ++s) {
    const Slot& x = c.s[s];
    k.ret_rm_busy |= x.st == Stage::Ret && !x.ab && !rm_free(c, x);
    lds_wait += x.st == Stage::LdsWait ? 1 : 0;
    ic_wait += x.st == Stage::IcWait ? 1 : 0;
  }
  if (lds_wait > 1 || ic_wait > 1)
    throw std::logic_error("TxPathModel: two slots of CU " + std::to_string(u) +
                           " wait for one LDS / I-cache answer (contract broken)");
}

// CU u's wants ("Fill merge"): ret_want = some slot ready to return and
// the credit (out + occ < D; the `ret` of "Lookup"), l2_want = the path's
// L2 answer names u, the credit, not ret_want and (speculative) not drop.
void TxPathModel::fill_wants(const TxPathIn& in, const Glue& G, unsigned u) const {
  const Cu& c = G.cu[u];
  CuComb& k = cc_[u];
  k.credit = c.out + c.occ < D_;
  k.ret_want = k.ret_ready && k.credit;
  const bool names_u = in.l2_resp_valid && resp_cu_ == static_cast<int>(u);
  const uint64_t tag = in.l2_resp_tag & lt_mask_;
  k.drop = spec_ && names_u && ((c.cx >> tag) & 1);
  k.l2_want = !k.ret_want && names_u && !k.drop && k.credit;
}

// Cluster c's fill merge: the first glue with a want from fp gets the grant
// (N = 1: no grant port, grant = 1). ret and the delivery need the grant; a
// speculative drop does not.
void TxPathModel::merge_fills(const TxPathIn& in, const Glue& G, unsigned c) const {
  ClComb& m = lc_[c];
  const auto wants = [&](unsigned i) {
    const CuComb& k = cc_[c * N_ + i];
    return k.ret_want || k.l2_want;
  };
  m.winner = first_from(G.cl[c].fp, N_, wants);
  m.wants = 0;
  const uint64_t tag = in.l2_resp_tag & lt_mask_;
  for (unsigned i = 0; i < N_; ++i) {
    const unsigned u = c * N_ + i;
    CuComb& k = cc_[u];
    m.wants += wants(i) ? 1 : 0;
    k.grant = N_ == 1 || m.winner == static_cast<int>(i);
    k.ret = k.ret_want && k.grant;
    k.l2_to_u = k.l2_want && k.grant;
    k.l1_in_valid = k.ret || k.l2_to_u;
    speculation_comb(G, u, tag);
  }
  l1_cluster_fill_input(in, G, c);
}

// The L1-TLB's L2 input of cluster c = the winner's: its promotion (1,
// rq[kr].tag, ans[kr]) or its L2 answer (1, the L1 tag field, the answer's
// data); valid 0 without a winner (data: the L2 response's fields).
void TxPathModel::l1_cluster_fill_input(const TxPathIn& in, const Glue& G, unsigned c) const {
  const int w = lc_[c].winner;
  const unsigned u = c * N_ + static_cast<unsigned>(std::max(w, 0));
  const CuComb& k = cc_[u];
  l1_in_.l2_resp_valid[c] = w >= 0 && k.l1_in_valid;
  if (w >= 0 && k.ret) {
    const Slot& r = G.cu[u].s[static_cast<unsigned>(k.kr)];
    l1_in_.l2_resp_tag[c] = r.rq_tag;
    l1_in_.l2_resp_ppn[c] = r.ans_ppn;
    l1_in_.l2_resp_perm[c] = r.ans_perm;
  } else {
    l1_in_.l2_resp_tag[c] = in.l2_resp_tag & lt_mask_;
    l1_in_.l2_resp_ppn[c] = in.l2_resp_ppn;
    l1_in_.l2_resp_perm[c] = in.l2_resp_perm;
  }
}

// Speculative, CU u: the cx bits of the edge (set by a sent slot's RET,
// cleared by a drop) and the slot an early answer marks. Checks the
// document's safety argument: a drop never takes a live miss's answer (no
// slot below the L1 holds a live sent request with that tag).
void TxPathModel::speculation_comb(const Glue& G, unsigned u, uint64_t tag) const {
  CuComb& k = cc_[u];
  k.cx_set = k.cx_clear = 0;
  k.k_ab = -1;
  if (!spec_) return;
  const Cu& c = G.cu[u];
  if (k.ret) {
    const Slot& r = c.s[static_cast<unsigned>(k.kr)];
    if (r.sent) k.cx_set = uint64_t{1} << r.rq_tag;
  }
  if (k.drop) {
    k.cx_clear = uint64_t{1} << tag;
    for (unsigned s = 0; s < K_; ++s) {
      const Slot& x = c.s[s];
      if (x.st != Stage::Idle && x.sent && !x.ab && x.rq_tag == tag)
        throw std::logic_error("TxPathModel: CU " + std::to_string(u) + " drops the answer of tag " +
                               std::to_string(tag) + " while slot " + std::to_string(s) + " waits for it");
    }
  }
  if (k.l2_to_u) k.k_ab = early_slot(c, u, tag);
}

// The slot a delivered answer with L1 tag `tag` finds below the L1: st not
// IDLE, sent, not ab, rq.tag = tag (at most one: each holds a live MSHR).
int TxPathModel::early_slot(const Cu& c, unsigned u, uint64_t tag) const {
  int found = -1;
  for (unsigned s = 0; s < K_; ++s) {
    const Slot& x = c.s[s];
    if (x.st == Stage::Idle || !x.sent || x.ab || x.rq_tag != tag) continue;
    if (found >= 0)
      throw std::logic_error("TxPathModel: one early answer of CU " + std::to_string(u) + " matches slots " +
                             std::to_string(found) + " and " + std::to_string(s));
    found = static_cast<int>(s);
  }
  return found;
}

// Shootdown phase 2: "the L1-TLB's sd_valid_i = sdp.valid and all ldone
// and all idone and not l1sent, key sdp".
void TxPathModel::l1_shootdown_input(const Glue& G) const {
  bool all_done = G.sdp_valid && !G.l1sent;
  for (unsigned u = 0; u < U_ && all_done; ++u) all_done = G.cu[u].ldone;
  for (unsigned g = 0; g < G_ && all_done; ++g) all_done = G.ic[g].idone;
  l1_in_.sd_valid = all_done;
  l1_in_.sd_all = G.sdp_all;
  l1_in_.sd_vpn = G.sdp_vpn;
  l1_in_.sd_vmid = G.sdp_vmid;
}

// "the candidates are the L1's l2_req_valid_o[u], the winner chosen from
// lp as above, the L1's l2_req_ready_i[u] = (u = winner and l2_req_ready_i)"
// (T < U: the C cluster ports, lp over the C clusters)
void TxPathModel::arbitrate_l2_request_baseline(const TxPathIn& in, const Glue& G) const {
  l2_winner_ = -1;
  l2_cands_ = 0;
  for (unsigned d = 0; d < C_; ++d) {
    const unsigned c = (G.lp + d) % C_;
    if (!l1_out_.l2_req_valid[c]) continue;
    ++l2_cands_;
    if (l2_winner_ < 0) l2_winner_ = static_cast<int>(c);
  }
  for (unsigned c = 0; c < C_; ++c)
    l1_in_.l2_req_ready[c] = (static_cast<int>(c) == l2_winner_ && in.l2_req_ready) ? 1 : 0;
}

// ---- LDS controller of CU u: its inputs, then its outputs ----
void TxPathModel::eval_lds(const TxPathIn& in, const Glue& G, unsigned u) const {
  LdsCtrlIn& li = lds_in_[u];
  li.rst_n = in.rst_n;
  li.app_valid = in.app_valid[u];
  li.app_we = in.app_we[u];
  li.app_row = in.app_row[u];
  li.app_bank_en = in.app_bank_en[u];
  li.app_wdata = in.app_wdata[u];
  if (baseline_)
    lds_inputs_baseline(u);
  else
    lds_inputs_path(in, G, u);
  const long t0 = probe();
  lds_[u].outputs(li, lds_out_[u]);
  member_allocs_ += probe() - t0;
}

// READING P6: the baseline LDS port has no translation or work-group ports;
// the translation-free controller behaves as it with these at 0.
void TxPathModel::lds_inputs_baseline(unsigned u) const {
  LdsCtrlIn& li = lds_in_[u];
  li.wg_valid = li.wg_free = false;
  li.wg_base = li.wg_size = 0;
  li.sd_valid = li.sd_all = false;
  li.lk_valid = false;
  li.lk_resp_ready = true;
  li.fill_valid = false;
  li.vic_ready = true;
}

void TxPathModel::lds_inputs_path(const TxPathIn& in, const Glue& G, unsigned u) const {
  LdsCtrlIn& li = lds_in_[u];
  li.wg_valid = in.wg_valid[u];
  li.wg_free = in.wg_free[u];
  li.wg_base = in.wg_base[u];
  li.wg_size = in.wg_size[u];
  lds_shootdown_input(G, u);
  lds_lookup_input(in, G, u);
  lds_fill_input(G, u);
  li.vic_ready = false;  // set by lds_vic_ready() from lb and the I-cache's tf_ready_o
}

// Sequencer request lreq = sdp.valid and not lsent[u]; sd_valid_i =
// lreq or rml.valid; key = lreq ? sdp : (0, rml.vpn, rml.vmid).
void TxPathModel::lds_shootdown_input(const Glue& G, unsigned u) const {
  const Cu& c = G.cu[u];
  CuComb& k = cc_[u];
  LdsCtrlIn& li = lds_in_[u];
  k.lreq = G.sdp_valid && !c.lsent;
  k.lds_sd_valid = k.lreq || c.rml_valid;
  li.sd_valid = k.lds_sd_valid;
  li.sd_all = k.lreq ? G.sdp_all : false;
  li.sd_vpn = k.lreq ? G.sdp_vpn : c.rml_vpn;
  li.sd_vmid = static_cast<uint32_t>(k.lreq ? G.sdp_vmid : c.rml_vmid);
}

// LDS_REQ: lk_valid_i = some slot in LDS_REQ and occ = 0, with rq[kl]'s
// fields (READING P8: slot 0's without a request).
void TxPathModel::lds_lookup_input(const TxPathIn& in, const Glue& G, unsigned u) const {
  const Cu& c = G.cu[u];
  CuComb& k = cc_[u];
  LdsCtrlIn& li = lds_in_[u];
  const Slot& s = c.s[k.kl >= 0 ? static_cast<unsigned>(k.kl) : 0];
  k.lk_valid = k.kl >= 0 && c.occ == 0;
  li.lk_valid = k.lk_valid;
  li.lk_vpn = s.rq_vpn;
  li.lk_vmid = static_cast<uint32_t>(s.rq_vmid);
  li.lk_vrf = in.vrf[u];
  li.lk_resp_ready = true;  // READING P1
}

// queue -> LDS fill port: fill_valid_i = occ > 0 and not h.kill;
// fill_*_i = h's fields.
void TxPathModel::lds_fill_input(const Glue& G, unsigned u) const {
  const Cu& c = G.cu[u];
  CuComb& k = cc_[u];
  LdsCtrlIn& li = lds_in_[u];
  if (c.occ > 0) {
    const QueueEntry& h = c.vq[c.vq_head];
    k.fill_valid = !h.kill;
    li.fill_vpn = h.vpn;
    li.fill_vmid = static_cast<uint32_t>(h.vmid);
    li.fill_vrf = h.vrf;
    li.fill_ppn = h.ppn;
    li.fill_perm = h.perm;
  } else {
    k.fill_valid = false;
  }
  li.fill_valid = k.fill_valid;
}

// ---- I-cache g: its inputs, then its outputs ----
void TxPathModel::eval_icache(const TxPathIn& in, const Glue& G, unsigned g) const {
  IcacheTxIn& ii = ic_in_[g];
  ii.rst_n = in.rst_n;
  ii.if_valid = in.if_valid[g];
  ii.if_addr = in.if_addr[g];
  ii.ifill_valid = in.ifill_valid[g];
  ii.ifill_addr = in.ifill_addr[g];
  ii.ifill_data = in.ifill_data[g];
  ii.flush_valid = in.flush_valid[g];
  if (!baseline_) {
    for (unsigned i = 0; i < S_; ++i) icache_sharer_inputs(in, G, g, i);
    ii.tl_resp_ready = true;  // READING P1
    icache_shootdown_input(G, g);
    ii.vic_ready = false;  // set by icache_vic_ready() from vr and the round robin
  }
  const long t0 = probe();
  ic_[g].outputs(ii, ic_out_[g]);
  member_allocs_ += probe() - t0;
}

// Sharer i of I-cache g: its lookup port and its fill port from lb.
void TxPathModel::icache_sharer_inputs(const TxPathIn& in, const Glue& G, unsigned g, unsigned i) const {
  const unsigned u = g * S_ + i;
  const Cu& c = G.cu[u];
  CuComb& k = cc_[u];
  IcacheTxIn& ii = ic_in_[g];
  // IC_REQ: tl_valid_i[i] = some slot in IC_REQ and not lb.valid; tl_vpn_i,
  // tl_vmid_i = rq[ki] (READING P8: slot 0's without a request), tl_vrf_i =
  // vrf_i[u].
  const Slot& s = c.s[k.ki >= 0 ? static_cast<unsigned>(k.ki) : 0];
  k.tl_valid = k.ki >= 0 && !c.lb.valid;
  ii.tl_valid[i] = k.tl_valid;
  ii.tl_vpn[i] = s.rq_vpn;
  ii.tl_vmid[i] = static_cast<uint32_t>(s.rq_vmid);
  ii.tl_vrf[i] = in.vrf[u];
  // lb -> I-cache fill port: tf_valid_i[i] = lb.valid and not lb.kill,
  // tf_*_i[i] = lb's fields.
  k.tf_valid = c.lb.valid && !c.lb.kill;
  ii.tf_valid[i] = k.tf_valid;
  ii.tf_vpn[i] = c.lb.vpn;
  ii.tf_vmid[i] = static_cast<uint32_t>(c.lb.vmid);
  ii.tf_vrf[i] = c.lb.vrf;
  ii.tf_ppn[i] = c.lb.ppn;
  ii.tf_perm[i] = c.lb.perm;
}

// Sequencer request ireq = sdp.valid and not isent[g]; remove winner:
// the first sharer with rmi.valid in the order rp, rp+1, ...
void TxPathModel::icache_shootdown_input(const Glue& G, unsigned g) const {
  IcComb& gk = gc_[g];
  const Ic& ic = G.ic[g];
  IcacheTxIn& ii = ic_in_[g];
  gk.ireq = G.sdp_valid && !ic.isent;
  gk.rm_winner = -1;
  gk.rm_count = 0;
  for (unsigned d = 0; d < S_; ++d) {
    const unsigned i = (ic.rp + d) % S_;
    if (!G.cu[g * S_ + i].rmi_valid) continue;
    ++gk.rm_count;
    if (gk.rm_winner < 0) gk.rm_winner = static_cast<int>(i);
  }
  gk.sd_valid = gk.ireq || gk.rm_winner >= 0;
  ii.sd_valid = gk.sd_valid;
  if (gk.ireq) {
    ii.sd_all = G.sdp_all;
    ii.sd_vpn = G.sdp_vpn;
    ii.sd_vmid = static_cast<uint32_t>(G.sdp_vmid);
  } else if (gk.rm_winner >= 0) {
    const Cu& w = G.cu[g * S_ + static_cast<unsigned>(gk.rm_winner)];
    ii.sd_all = false;
    ii.sd_vpn = w.rmi_vpn;
    ii.sd_vmid = static_cast<uint32_t>(w.rmi_vmid);
  } else {
    ii.sd_all = false;
    ii.sd_vpn = 0;
    ii.sd_vmid = 0;
  }
}

// lb is emptied when lb.valid and (lb.kill or tf_ready_o[i]) (READING P4);
// the LDS's vic_ready_i = not lb.valid, or lb is emptied in this cycle.
void TxPathModel::lds_vic_ready(const Glue& G) const {
  for (unsigned u = 0; u < U_; ++u) {
    const unsigned g = u / S_, i = u % S_;
    const Cu& c = G.cu[u];
    CuComb& k = cc_[u];
    k.lb_empty = c.lb.valid && (c.lb.kill || ic_out_[g].tf_ready[i]);
    lds_in_[u].vic_ready = !c.lb.valid || k.lb_empty;
  }
}

// I-cache victim -> vr: candidates are the I-caches with vic_valid_o, the
// winner the first from vp; vr is emptied when vr.valid and (vr.kill or
// l2_vic_ready_i); vic_ready_i = (g = winner) and (vr free or emptied).
void TxPathModel::icache_vic_ready(const TxPathIn& in, const Glue& G) const {
  vr_empty_ = G.vr.valid && (G.vr.kill || in.l2_vic_ready);
  vic_winner_ = -1;
  vic_cands_ = 0;
  for (unsigned d = 0; d < G_; ++d) {
    const unsigned g = (G.vp + d) % G_;
    if (!ic_out_[g].vic_valid) continue;
    ++vic_cands_;
    if (vic_winner_ < 0) vic_winner_ = static_cast<int>(g);
  }
  const bool vr_free = !G.vr.valid || vr_empty_;
  for (unsigned g = 0; g < G_; ++g) ic_in_[g].vic_ready = static_cast<int>(g) == vic_winner_ && vr_free;
}

// The kill key of the cycle (READING P7: at the key's widths).
void TxPathModel::kill_key(const TxPathIn& in, const Glue& G) const {
  sd_accept_ = in.sd_valid && !G.sdp_valid;
  if (sd_accept_) {
    kk_valid_ = true;
    kk_all_ = in.sd_all;
    kk_vpn_ = in.sd_vpn & vpn_mask_;
    kk_vmid_ = in.sd_vmid & vmid_mask_;
  } else {
    kk_valid_ = G.sdp_valid;
    kk_all_ = G.sdp_all;
    kk_vpn_ = G.sdp_vpn;
    kk_vmid_ = G.sdp_vmid;
  }
}

// L2 request: candidates are the CUs with l2r.valid, winner from lp.
void TxPathModel::arbitrate_l2_request(const Glue& G) const {
  l2_winner_ = -1;
  l2_cands_ = 0;
  for (unsigned d = 0; d < U_; ++d) {
    const unsigned u = (G.lp + d) % U_;
    if (!G.cu[u].l2r_valid) continue;
    ++l2_cands_;
    if (l2_winner_ < 0) l2_winner_ = static_cast<int>(u);
  }
}

// ---------------------------------------------------------------------------
// Outputs

void TxPathModel::outputs(const TxPathIn& in, TxPathOut& o) const {
  comb(in);
  const Glue& G = in.rst_n ? g_ : reset_g_;
  if (o.req_ready.size() != U_ || o.if_ready.size() != G_ || o.hit_lds.size() != U_ || o.hit_ic.size() != U_)
    o = make_outputs();
  for (unsigned u = 0; u < U_; ++u) {
    o.req_ready[u] = advance(G, u);  // "the path's req_ready_o[u] = advance"
    o.resp_valid[u] = l1_out_.resp_valid[u];
    o.resp_vpn[u] = l1_out_.resp_vpn[u];
    o.resp_vmid[u] = l1_out_.resp_vmid[u];
    o.resp_ppn[u] = l1_out_.resp_ppn[u];
    o.resp_perm[u] = l1_out_.resp_perm[u];
    o.fill_valid[u] = l1_out_.fill_valid[u];
    o.fill_vpn[u] = l1_out_.fill_vpn[u];
    o.fill_vmid[u] = l1_out_.fill_vmid[u];
    o.fill_ppn[u] = l1_out_.fill_ppn[u];
    o.fill_perm[u] = l1_out_.fill_perm[u];
    const LdsCtrlOut& lo = lds_out_[u];
    o.app_rvalid[u] = lo.app_rvalid;
    o.app_rdata[u] = lo.app_rdata;
    o.wg_ready[u] = baseline_ ? 0 : lo.wg_ready;
    o.wg_done[u] = baseline_ ? 0 : lo.wg_done;
    // hit_lds_o = ret and ans[kr].src = LDS, hit_ic_o = ret and ans[kr].src = IC
    const bool ret = !baseline_ && cc_[u].ret;
    const bool from_ic = ret && G.cu[u].s[static_cast<unsigned>(cc_[u].kr)].ans_ic;
    o.hit_lds[u] = ret && !from_ic;
    o.hit_ic[u] = from_ic;
  }
  for (unsigned g = 0; g < G_; ++g) {
    const IcacheTxOut& io = ic_out_[g];
    o.if_ready[g] = io.if_ready;
    o.if_resp_valid[g] = io.if_resp_valid;
    o.if_resp_hit[g] = io.if_resp_hit;
    o.if_resp_data[g] = io.if_resp_data;
    o.ifill_ready[g] = io.ifill_ready;
    o.flush_ready[g] = io.flush_ready;
    o.flush_done[g] = io.flush_done;
  }
  // L2 request: the winner's l2r (baseline: the winner's L1 request); all
  // data 0 without a candidate.
  o.l2_req_valid = l2_winner_ >= 0;
  if (l2_winner_ >= 0) {
    const unsigned w = static_cast<unsigned>(l2_winner_);
    if (baseline_) {
      o.l2_req_vpn = l1_out_.l2_req_vpn[w];
      o.l2_req_vmid = l1_out_.l2_req_vmid[w];
      o.l2_req_tag = (uint64_t{w} << p_.l1_tag_bits) | (l1_out_.l2_req_tag[w] & lt_mask_);
      o.l2_req_iid = l1_out_.l2_req_iid[w] >> CB_;  // READING P10: the allocator bits stay inside
    } else {
      const Cu& c = G.cu[w];
      o.l2_req_vpn = c.l2r_vpn;
      o.l2_req_vmid = c.l2r_vmid;
      o.l2_req_tag = (uint64_t{w} << p_.l1_tag_bits) | c.l2r_tag;
      o.l2_req_iid = c.l2r_iid;
    }
  } else {
    o.l2_req_vpn = o.l2_req_vmid = o.l2_req_tag = o.l2_req_iid = 0;
  }
  if (baseline_) {
    o.l2_resp_ready = true;
    o.l2_vic_valid = false;
    o.l2_vic_vpn = o.l2_vic_vmid = o.l2_vic_ppn = o.l2_vic_perm = 0;
    o.sd_ready = l1_out_.sd_ready;
    o.sd_done = l1_out_.sd_done;
    return;
  }
  // "l2_resp_ready_o = credit and not ret of the CU that l2_resp_tag_i names
  // (0 when the CU field names no CU)"; speculative: that CU's l2_ok = drop
  // or (credit and not ret); clusters: the credit term needs the grant
  if (resp_cu_ >= 0) {
    const CuComb& k = cc_[static_cast<unsigned>(resp_cu_)];
    o.l2_resp_ready = k.drop || (k.credit && !k.ret && k.grant);
  } else {
    o.l2_resp_ready = false;
  }
  // "l2_vic_valid_o = vr.valid and not vr.kill, l2_vic_*_o = vr's fields"
  o.l2_vic_valid = G.vr.valid && !G.vr.kill;
  o.l2_vic_vpn = G.vr.vpn;
  o.l2_vic_vmid = G.vr.vmid;
  o.l2_vic_ppn = G.vr.ppn;
  o.l2_vic_perm = G.vr.perm;
  o.sd_ready = !G.sdp_valid;  // "sd_ready_o = not sdp.valid"
  o.sd_done = G.done;
}

// ---------------------------------------------------------------------------
// The edge

void TxPathModel::posedge(const TxPathIn& in) {
  comb(in);
  edge(in);
}

void TxPathModel::step(const TxPathIn& in, TxPathOut& out) {
  outputs(in, out);  // runs comb(in)
  edge(in);
}

void TxPathModel::edge(const TxPathIn& in) {
  events_ = TxPathEvents{};
  step_members();
  if (!in.rst_n) {
    g_ = reset_g_;  // copy-assign of equally sized vectors: no allocation
    events_.reset = true;
    return;
  }
  collect_flow_events();
  count_cu_side(in);
  pad_edge(in);
  if (baseline_)
    posedge_baseline(in);
  else
    posedge_path(in);
}

// Members first, with exactly the inputs of the cycle.
void TxPathModel::step_members() {
  const long t0 = probe();
  l1_.posedge(l1_in_);
  for (unsigned u = 0; u < U_; ++u) lds_[u].posedge(lds_in_[u]);
  for (unsigned g = 0; g < G_; ++g) ic_[g].posedge(ic_in_[g]);
  member_allocs_ += probe() - t0;
}

// Flow events from the member models (this edge).
void TxPathModel::collect_flow_events() {
  for (unsigned u = 0; u < U_; ++u) {
    const LdsCtrlEvents& e = lds_[u].events();
    events_.flow_1_2_4 |= e.fill_init || e.fill_insert_invalid;
    events_.flow_1_2_4_5_6 |= e.fill_evict_lru;
    events_.flow_1_2_3_6 |= e.fill_bypass;
    events_.lds_fill_update |= e.fill_update;
    events_.lds_fill_dropped |= e.fill_dropped;
  }
  for (unsigned g = 0; g < G_; ++g) {
    const IcacheTxEvents& e = ic_[g].events();
    events_.flow_6_7_8 |= e.fill_init_invalid || e.fill_init_over_ic || (e.fill_into_tx && !e.fill_evicted_lru);
    events_.flow_6_7_8_10_11 |= e.fill_evicted_lru;
    events_.flow_6_7_9_10 |= e.fill_bypass_ic;
    events_.ic_fill_dropped |= e.fill_dropped;
  }
}

// Statistics of the CU side: the path's accepts (READING P11), the L1's
// hits and fills.
void TxPathModel::count_cu_side(const TxPathIn& in) {
  for (unsigned u = 0; u < U_; ++u) {
    if (in.req_valid[u] && advance(g_, u)) ++stats_.requests;
    if (l1_out_.resp_valid[u]) ++stats_.l1_hits;
    if (l1_out_.fill_valid[u]) ++stats_.fills[u];
  }
}

// The request registers (Z > 0; path and baseline): "at an edge with
// advance, z1 = (the CU's req_valid_i[u], its fields) and zk = z(k-1) for k
// = 2..Z; otherwise every zk holds" (READING P11: the fields load whatever
// the valid).
void TxPathModel::pad_edge(const TxPathIn& in) {
  if (Z_ == 0) return;
  for (unsigned u = 0; u < U_; ++u) {
    PadReg* z = &g_.z[u * Z_];
    if (!advance(g_, u)) {
      events_.l1_pad_hold = true;  // zZ.valid and the L1 did not take it
      continue;
    }
    for (unsigned k = Z_ - 1; k > 0; --k) z[k] = z[k - 1];
    z[0].valid = in.req_valid[u] != 0;
    z[0].vpn = in.req_vpn[u] & vpn_mask_;
    z[0].vmid = in.req_vmid[u] & vmid_mask_;
    z[0].iid = p_.iid_bits ? in.req_iid[u] & iid_mask_ : 0;
  }
}

// The glue's edge. The order matters where a step reads a register an
// earlier one wrote: the L2 stage reloads an l2r taken at this edge, and the
// shootdown accept comes last (READING P3).
void TxPathModel::posedge_path(const TxPathIn& in) {
  // Values of the cycle read below after they may change (READING P2); the
  // kill key of the cycle is kk_* (comb()).
  const bool sdp_valid = g_.sdp_valid;
  const bool l1done_pre = g_.l1done;

  take_l2_request(in);
  for (unsigned u = 0; u < U_; ++u) {
    lds_shootdown_port(u);
    update_cancels(u);
    lookup_stage(u);
    l1_fill_and_credit(in, u);
    victim_queue(in, u);
    update_lb(u);
  }
  for (unsigned c = 0; c < C_; ++c) fill_merge_edge(c);  // after every glue read d3, d4
  for (unsigned g = 0; g < G_; ++g) icache_shootdown_port(g);
  // Note on the order above: a RET edge loads rmi only when rmi.valid was 0
  // in the cycle, and an accept clears only a remove that was valid in the
  // cycle, so the two never meet on one register.

  l2_victim_port(in);
  update_vr();
  shootdown_sequencer(in, sdp_valid, l1done_pre);
}

// ---- L2 request handshake: the winner's l2r is taken, lp = winner + 1 ----
void TxPathModel::take_l2_request(const TxPathIn& in) {
  if (l2_winner_ < 0) return;
  if (l2_cands_ >= 2) events_.l2_req_overlap = true;
  if (in.l2_req_ready) {
    const unsigned w = static_cast<unsigned>(l2_winner_);
    g_.cu[w].l2r_valid = false;  // "valid 0 unless its stage loads it again at this edge"
    g_.lp = (w + 1) % U_;
    events_.l2_request = true;
    ++stats_.l2_requests;
  } else {
    events_.l2_req_backpressure = true;
  }
}

// ---- LDS shootdown port of CU u: remove or sequencer ----
void TxPathModel::lds_shootdown_port(unsigned u) {
  Cu& c = g_.cu[u];
  const CuComb& k = cc_[u];
  const LdsCtrlOut& lo = lds_out_[u];
  if (lo.sd_done && c.lown) c.ldone = true;  // lown of the cycle
  if (lo.sd_done && !c.lown) c.lrm_busy = false;
  if (!(k.lds_sd_valid && lo.sd_ready)) return;
  if (k.lreq) {
    c.lsent = true;
    c.lown = true;
  } else {
    c.lrm_busy = true;
    c.lrm_vpn = c.rml_vpn;
    c.lrm_vmid = c.rml_vmid;
    c.rml_valid = false;
    c.lown = false;
    events_.remove_lds = true;
  }
}

// ---- lookup stage of CU u: every slot from its state of the cycle ----
// The winners kl, ki, kr, k2 and the intake slot were chosen in comb()
// from the registers (READING P8); each slot writes only itself and the
// pointer of the rule that granted it, so the order of the slots is free.
void TxPathModel::lookup_stage(unsigned u) {
  lookup_events(u);
  for (unsigned k = 0; k < K_; ++k) lookup_slot(u, k);
}

// Why a CU's slots wait, and an overtaking return (states of the cycle).
void TxPathModel::lookup_events(unsigned u) {
  const Cu& c = g_.cu[u];
  const CuComb& k = cc_[u];
  if (k.kl >= 0 && !k.lk_valid) events_.lookup_waits_queue = true;
  if (k.ki >= 0 && c.lb.valid) events_.lookup_waits_lb = true;
  if (k.ret_ready && !k.credit) events_.credit_block = true;
  if (k.ret_rm_busy && k.credit) events_.ret_waits_remove = true;
  if (k.ret && older_slot_busy(c, static_cast<unsigned>(k.kr))) events_.ret_overtakes = true;
}

// Another slot of the CU holds a miss taken in before slot k's.
bool TxPathModel::older_slot_busy(const Cu& c, unsigned k) const {
  for (unsigned j = 0; j < K_; ++j)
    if (j != k && c.s[j].st != Stage::Idle && c.s[j].seq < c.s[k].seq) return true;
  return false;
}

// Each slot from its state of the cycle `st`: the L2 register's grant
// (k2) first, then the slot's own rule ("the slot's state moves on as it
// would have"), then the early answer's mark.
void TxPathModel::lookup_slot(unsigned u, unsigned k) {
  Slot& s = g_.cu[u].s[k];
  const CuComb& cc = cc_[u];
  const int me = static_cast<int>(k);
  const Stage st = s.st;
  const bool sent = s.sent;
  if (s.ab && st != Stage::Idle) {
    quit(u, k);  // never k2, kl, ki, kr or k_ab (they need not ab)
    return;
  }
  if (me == cc.k2) load_l2r(u, k);
  switch (st) {
    case Stage::Idle:
      if (me == cc.k_in) lookup_idle(u, k);
      break;
    case Stage::LdsReq:
      if (me == cc.kl) lds_request(u, k);
      break;
    case Stage::LdsWait:
      take_lds_answer(u, k);  // the only slot in LDS_WAIT (pick_slots)
      break;
    case Stage::IcReq:
      if (me == cc.ki) ic_request(u, k);
      break;
    case Stage::IcWait:
      take_ic_answer(u, k);  // the only slot in IC_WAIT (pick_slots)
      break;
    case Stage::Wire:
      // each slot counts its own WL or WI cycles
      events_.wire_wait = true;
      if (s.cnt == 0)
        s.st = s.nxt;
      else
        --s.cnt;
      break;
    case Stage::L2:
      // without speculation the grant above left L2; with it, a slot
      // already sent goes IDLE now
      if (spec_ && sent) s.st = Stage::Idle;
      break;
    case Stage::Ret:
      if (cc.ret && me == cc.kr) promote(u, k);
      break;
  }
  if (me == cc.k_ab) {
    s.ab = true;  // the L2 answered it first (READING P9)
    if (st != Stage::L2) {
      events_.spec_early = true;
      ++stats_.early_answers;
    }
  }
}

// Quit (ab = 1): IDLE at this edge, except in LDS_WAIT / IC_WAIT, where the
// structure's answer (discarded, no wire) ends the wait.
void TxPathModel::quit(unsigned u, unsigned k) {
  Slot& s = g_.cu[u].s[k];
  const IcacheTxOut& io = ic_out_[u / S_];
  bool done = true;
  if (s.st == Stage::LdsWait) done = lds_out_[u].lk_resp_valid;
  if (s.st == Stage::IcWait) done = io.tl_resp_valid && io.tl_resp_cu == u % S_;
  if (done) s.st = Stage::Idle;
}

// Speculative cancel vector of CU u at the edge: a sent slot's RET sets
// cx[rq.tag] (its answer is still to come), a drop clears cx[tag]. Never
// both on one bit: a slot with tag t is sent only while cx[t] = 0.
void TxPathModel::update_cancels(unsigned u) {
  const CuComb& k = cc_[u];
  if ((k.cx_set | k.cx_clear) == 0) return;
  if (k.cx_set & k.cx_clear)
    throw std::logic_error("TxPathModel: CU " + std::to_string(u) + " sets and clears one cx bit at one edge");
  Cu& c = g_.cu[u];
  c.cx = (c.cx | k.cx_set) & ~k.cx_clear;
  if (k.cx_clear) {
    events_.spec_drop = true;
    ++stats_.l2_drops;
  }
}

// Intake: "the IDLE slot with the lowest index k loads rq[k] and goes to
// LDS_REQ" at an edge with the L1-TLB's l2_req_valid_o[u] (its
// l2_req_ready_i is 1 while a slot is IDLE).
// Clusters: glue c*N+i's request is the cluster's when its allocator a = i,
// with the ID's high bits.
void TxPathModel::lookup_idle(unsigned u, unsigned k) {
  if (!l1_request(u)) return;
  const unsigned cl = u / N_;
  Cu& c = g_.cu[u];
  Slot& s = c.s[k];
  s.rq_vpn = l1_out_.l2_req_vpn[cl] & vpn_mask_;
  s.rq_vmid = l1_out_.l2_req_vmid[cl] & vmid_mask_;
  s.rq_tag = l1_out_.l2_req_tag[cl] & lt_mask_;
  s.rq_iid = l1_out_.l2_req_iid[cl] >> CB_;
  s.sent = s.ab = false;
  s.seq = ++c.intakes;
  s.st = Stage::LdsReq;
}

// LDS lookup winner kl: accepted (lk_valid_i and lk_ready_o) -> LDS_WAIT,
// pl = kl + 1 mod K.
void TxPathModel::lds_request(unsigned u, unsigned k) {
  if (!(cc_[u].lk_valid && lds_out_[u].lk_ready)) return;
  Cu& c = g_.cu[u];
  c.s[k].st = Stage::LdsWait;
  c.pl = (k + 1) % K_;
}

// I-cache lookup winner ki: accepted (tl_valid_i[i] and tl_ready_o[i],
// READING P4) -> IC_WAIT, pi = ki + 1 mod K.
void TxPathModel::ic_request(unsigned u, unsigned k) {
  if (!(cc_[u].tl_valid && ic_out_[u / S_].tl_ready[u % S_])) return;
  Cu& c = g_.cu[u];
  c.s[k].st = Stage::IcWait;
  c.pi = (k + 1) % K_;
}

// LDS_WAIT: the LDS's answer; RET on a hit, IC_REQ on a miss.
void TxPathModel::take_lds_answer(unsigned u, unsigned k) {
  const LdsCtrlOut& lo = lds_out_[u];
  if (!lo.lk_resp_valid) return;
  Slot& s = g_.cu[u].s[k];
  s.ans_ppn = lo.lk_resp_ppn;
  s.ans_perm = lo.lk_resp_perm;
  s.ans_ic = false;
  if (lo.lk_resp_hit) {
    events_.lds_lookup_hit = true;
    ++stats_.lds_hits;
  } else {
    events_.lds_lookup_miss = true;
    ++stats_.lds_misses;
  }
  after_answer(s, lo.lk_resp_hit ? Stage::Ret : Stage::IcReq, WL_);
}

// IC_WAIT: the I-cache's answer to this sharer; RET on a hit, L2 on a miss.
void TxPathModel::take_ic_answer(unsigned u, unsigned k) {
  const IcacheTxOut& io = ic_out_[u / S_];
  if (!(io.tl_resp_valid && io.tl_resp_cu == u % S_)) return;
  Slot& s = g_.cu[u].s[k];
  s.ans_ppn = io.tl_resp_ppn;
  s.ans_perm = io.tl_resp_perm;
  s.ans_ic = true;
  if (io.tl_resp_hit) {
    events_.ic_lookup_hit = true;
    ++stats_.ic_hits;
  } else {
    events_.ic_lookup_miss = true;
    ++stats_.ic_misses;
  }
  after_answer(s, io.tl_resp_hit ? Stage::Ret : Stage::L2, WI_);
}

// The stage after an answer: `next` at once with no wire latency, else
// through WIRE for `wire` cycles.
void TxPathModel::after_answer(Slot& s, Stage next, unsigned wire) {
  if (wire == 0) {
    s.st = next;
  } else {
    s.st = Stage::Wire;
    s.cnt = wire - 1;
    s.nxt = next;
  }
}

// L2 register winner k2: "if l2r is free or taken in this cycle: l2r = (1,
// rq[k2]), st[k2] = IDLE, p2 = k2 + 1 mod K" (taken: cleared by
// take_l2_request() at the handshake of this cycle). Speculative: k2 is
// the first that asks, sent[k2] = 1, and only a slot in L2 goes IDLE.
void TxPathModel::load_l2r(unsigned u, unsigned k) {
  Cu& c = g_.cu[u];
  if (c.l2r_valid) return;
  Slot& s = c.s[k];
  c.l2r_valid = true;
  c.l2r_vpn = s.rq_vpn;
  c.l2r_vmid = s.rq_vmid;
  c.l2r_tag = s.rq_tag;
  c.l2r_iid = s.rq_iid;
  if (s.st == Stage::L2) s.st = Stage::Idle;
  if (spec_) s.sent = true;
  c.p2 = (k + 1) % K_;
}

// The RET edge of winner kr: st[kr] = IDLE, pr = kr + 1 mod K; with `move`
// the remove register of ans[kr].src loads (1, rq[kr].vpn, rq[kr].vmid).
void TxPathModel::promote(unsigned u, unsigned k) {
  Cu& c = g_.cu[u];
  Slot& s = c.s[k];
  s.st = Stage::Idle;
  c.pr = (k + 1) % K_;
  ++stats_.promotions;
  if (s.ans_ic)
    events_.promotion_ic = true;
  else
    events_.promotion_lds = true;
  if (!move_) return;
  if (s.ans_ic) {
    c.rmi_valid = true;
    c.rmi_vpn = s.rq_vpn;
    c.rmi_vmid = s.rq_vmid;
  } else {
    c.rml_valid = true;
    c.rml_vpn = s.rq_vpn;
    c.rml_vmid = s.rq_vmid;
  }
}

// ---- L2 response to CU u, and the credit's count of fills in flight ----
void TxPathModel::l1_fill_and_credit(const TxPathIn& in, unsigned u) {
  Cu& c = g_.cu[u];
  const CuComb& k = cc_[u];
  if (k.l2_to_u) {
    events_.l2_fill = true;
    ++stats_.l2_fills;
  } else if (in.l2_resp_valid && resp_cu_ == static_cast<int>(u) && !k.drop && !k.credit) {
    events_.credit_block = true;
  }
  // "out = out + (the L1 input valid) - (fill_valid_o[u] of the L1-TLB)"
  // (clusters: d4 naming u)
  const int nout = static_cast<int>(c.out) + (k.l1_in_valid ? 1 : 0) - (l1_answered(u) ? 1 : 0);
  if (nout < 0 || nout > static_cast<int>(D_))
    throw std::logic_error("TxPathModel: out left 0 .. D for CU " + std::to_string(u));
  c.out = static_cast<unsigned>(nout);
}

// Glue u's L1 answer (the decrement of out): N = 1 the L1's fill_valid_o[u];
// else d4 names u (the waiters' fill_valid_o also pulses for others' fills).
bool TxPathModel::l1_answered(unsigned u) const {
  if (N_ == 1) return l1_out_.fill_valid[u];
  const Delay& d4 = g_.cl[u / N_].d[3];
  return d4.valid && d4.i == u % N_;
}

// Glue u's L1 victim input: N = 1 evict_valid_o[u]; else evict_valid_o[c]
// and d3 names u (the fill's sender).
bool TxPathModel::l1_victim(unsigned u) const {
  const unsigned c = u / N_;
  if (N_ == 1) return l1_out_.evict_valid[c];
  const Delay& d3 = g_.cl[c].d[2];
  return l1_out_.evict_valid[c] && d3.valid && d3.i == u % N_;
}

// ---- fill merge of cluster c (N > 1) at the edge ----
// "fp = winner + 1 mod N" at a grant; "d1 = (a grant, the winner), d2 = d1,
// d3 = d2, d4 = d3" (READING P10: d1 = (0, local CU 0) without a grant).
void TxPathModel::fill_merge_edge(unsigned c) {
  if (N_ == 1) return;
  Cl& cl = g_.cl[c];
  const ClComb& m = lc_[c];
  // every eviction is the victim of a fill sent three cycles before
  if (l1_out_.evict_valid[c] && !cl.d[2].valid)
    throw std::logic_error("TxPathModel: cluster " + std::to_string(c) + " evicts with d3 empty (no fill sent in f)");
  if (m.wants >= 2) {
    events_.l1_grant_wait = true;
    stats_.grant_waits += m.wants - 1;
  }
  for (unsigned k = 3; k > 0; --k) cl.d[k] = cl.d[k - 1];
  cl.d[0].valid = m.winner >= 0;
  cl.d[0].i = m.winner >= 0 ? static_cast<unsigned>(m.winner) : 0;
  if (m.winner >= 0) cl.fp = (static_cast<unsigned>(m.winner) + 1) % N_;
}

// ---- victim queue of CU u ----
// The head is removed when it was accepted or killed; an appended entry
// gets kill = kills(x) of the cycle; every entry held gets kill = kill or
// kills(x).
void TxPathModel::victim_queue(const TxPathIn& in, unsigned u) {
  pop_queue_head(u);
  if (l1_victim(u)) push_l1_victim(in, u);
  if (kk_valid_) mark_queue_kills(u);
}

void TxPathModel::pop_queue_head(unsigned u) {
  Cu& c = g_.cu[u];
  if (c.occ == 0) return;
  const QueueEntry& h = c.vq[c.vq_head];
  if (!(h.kill || (cc_[u].fill_valid && lds_out_[u].fill_ready))) return;
  if (h.kill) {
    events_.victim_dropped_stale = true;
    ++stats_.stale_drops;
  }
  c.vq_head = (c.vq_head + 1) % D_;
  --c.occ;
}

void TxPathModel::push_l1_victim(const TxPathIn& in, unsigned u) {
  Cu& c = g_.cu[u];
  if (c.occ >= D_)
    throw std::logic_error("TxPathModel: victim queue overflow (credit broken) on CU " + std::to_string(u));
  QueueEntry& x = c.vq[(c.vq_head + c.occ) % D_];
  const unsigned cl = u / N_;  // the cluster's victim fields
  x.vpn = l1_out_.evict_vpn[cl] & vpn_mask_;
  x.vmid = l1_out_.evict_vmid[cl] & vmid_mask_;
  x.vrf = in.vrf[u];
  x.ppn = l1_out_.evict_ppn[cl];
  x.perm = l1_out_.evict_perm[cl];
  x.kill = kills(x.vpn, x.vmid);
  if (x.kill) events_.queue_kill = true;
  ++c.occ;
  events_.l1_victim_queued = true;
  ++stats_.l1_victims;
}

void TxPathModel::mark_queue_kills(unsigned u) {
  Cu& c = g_.cu[u];
  for (unsigned n = 0; n < c.occ; ++n) {
    QueueEntry& x = c.vq[(c.vq_head + n) % D_];
    if (!x.kill && kills(x.vpn, x.vmid)) {
      x.kill = true;
      events_.queue_kill = true;
    }
  }
}

// ---- LDS victim -> lb -> I-cache (CU u) ----
void TxPathModel::update_lb(unsigned u) {
  Cu& c = g_.cu[u];
  const CuComb& k = cc_[u];
  const LdsCtrlOut& lo = lds_out_[u];
  if (k.lb_empty) count_lb_emptied(c.lb);
  const bool lb_held = c.lb.valid && !k.lb_empty;
  if (lo.vic_valid && lds_in_[u].vic_ready) {
    if (k.lb_empty) events_.lb_refill = true;
    load_lb(u);
  } else if (lb_held) {
    if (!c.lb.kill && kills(c.lb.vpn, c.lb.vmid)) {
      c.lb.kill = true;
      events_.lb_kill = true;
    }
  } else {
    c.lb.valid = false;  // emptied (or was empty); the fields keep their values
    c.lb.kill = false;
  }
  if (lo.vic_valid && !lds_in_[u].vic_ready) events_.lds_victim_waits = true;
}

// lb emptied at this edge: dropped when killed, else taken by the I-cache.
void TxPathModel::count_lb_emptied(const VictimReg& lb) {
  if (lb.kill) {
    events_.victim_dropped_stale = true;
    events_.lb_dropped = true;
    ++stats_.stale_drops;
  } else {
    events_.lds_victim_to_icache = true;  // tf_valid_i and tf_ready_o
    ++stats_.lds_victims;
  }
}

// "at an edge with the LDS's vic_valid_o and vic_ready_i, lb = (1, the
// LDS's vic_*_o)"; written: kill = kills(its translation)
void TxPathModel::load_lb(unsigned u) {
  const LdsCtrlOut& lo = lds_out_[u];
  VictimReg& lb = g_.cu[u].lb;
  lb.valid = true;
  lb.vpn = lo.vic_vpn & vpn_mask_;
  lb.vmid = lo.vic_vmid & vmid_mask_;
  lb.vrf = lo.vic_vrf;
  lb.ppn = lo.vic_ppn;
  lb.perm = lo.vic_perm;
  lb.kill = kills(lb.vpn, lb.vmid);
  if (lb.kill) events_.lb_kill = true;
  events_.lds_victim_to_lb = true;
}

// ---- I-cache g's shootdown port: the sequencer or the sharers' removes ----
void TxPathModel::icache_shootdown_port(unsigned g) {
  Ic& ic = g_.ic[g];
  const IcComb& gk = gc_[g];
  const IcacheTxOut& io = ic_out_[g];
  if (io.sd_done && ic.iown) ic.idone = true;  // iown of the cycle
  if (io.sd_done && !ic.iown && ic.irm_cu >= 0) {
    g_.cu[static_cast<unsigned>(ic.irm_cu)].irm_busy = false;
    ic.irm_cu = -1;
  }
  if (gk.rm_count >= 2) events_.remove_ic_contention = true;
  if (gk.sd_valid && io.sd_ready) {
    if (gk.ireq) {
      ic.isent = true;
      ic.iown = true;
    } else {
      accept_icache_remove(g);
    }
  }
}

// The remove winner's rmi is taken: rmi.valid = 0, rp = winner + 1 mod S,
// iown = 0.
void TxPathModel::accept_icache_remove(unsigned g) {
  Ic& ic = g_.ic[g];
  const unsigned w = static_cast<unsigned>(gc_[g].rm_winner);
  Cu& c = g_.cu[g * S_ + w];
  c.irm_busy = true;
  c.irm_vpn = c.rmi_vpn;
  c.irm_vmid = c.rmi_vmid;
  ic.irm_cu = static_cast<int>(g * S_ + w);
  c.rmi_valid = false;
  ic.rp = (w + 1) % S_;
  ic.iown = false;
  events_.remove_ic = true;
}

// ---- vr -> L2 victim port ----
void TxPathModel::l2_victim_port(const TxPathIn& in) {
  const VictimReg& vr = g_.vr;
  if (vr.valid && !vr.kill) {  // offered (l2_vic_valid_o)
    if (in.l2_vic_ready) {
      events_.icache_victim_to_l2 = true;
      ++stats_.l2_victims;
    } else {
      events_.l2_vic_backpressure = true;
    }
  }
  if (vr_empty_ && vr.kill) {
    events_.victim_dropped_stale = true;
    events_.vr_dropped = true;
    ++stats_.stale_drops;
  }
}

// ---- I-cache victim -> vr ----
void TxPathModel::update_vr() {
  VictimReg& vr = g_.vr;
  for (unsigned g = 0; g < G_; ++g)
    if (ic_out_[g].vic_valid && !ic_in_[g].vic_ready) events_.icache_victim_waits = true;
  if (vic_cands_ >= 2) events_.l2_vic_overlap = true;
  const bool vr_held = vr.valid && !vr_empty_;
  if (vic_winner_ >= 0 && ic_in_[static_cast<unsigned>(vic_winner_)].vic_ready) {
    if (vr_empty_) events_.vr_refill = true;
    load_vr();
  } else if (vr_held) {
    if (!vr.kill && kills(vr.vpn, vr.vmid)) {
      vr.kill = true;
      events_.vr_kill = true;
    }
  } else {
    vr.valid = false;
    vr.kill = false;
  }
}

// "at such an edge with a candidate, vr = (1, the winner's translation)
// and vp = winner + 1 mod G"; written: kill = kills(its translation)
void TxPathModel::load_vr() {
  const IcacheTxOut& io = ic_out_[static_cast<unsigned>(vic_winner_)];
  VictimReg& vr = g_.vr;
  vr.valid = true;
  vr.vpn = io.vic_vpn & vpn_mask_;
  vr.vmid = io.vic_vmid & vmid_mask_;
  vr.vrf = 0;  // READING P7
  vr.ppn = io.vic_ppn;
  vr.perm = io.vic_perm;
  vr.kill = kills(vr.vpn, vr.vmid);
  if (vr.kill) events_.vr_kill = true;
  g_.vp = (static_cast<unsigned>(vic_winner_) + 1) % G_;
  events_.icache_victim_to_vr = true;
}

// ---- shootdown sequencer ----
// sdp_valid, l1done_pre: sdp.valid and l1done of the cycle (READING P2).
void TxPathModel::shootdown_sequencer(const TxPathIn& in, bool sdp_valid, bool l1done_pre) {
  Glue& G = g_;
  if (l1_in_.sd_valid && l1_out_.sd_ready) {
    G.l1sent = true;
    events_.shootdown_l1 = true;
  }
  if (l1_out_.sd_done) G.l1done = true;
  // "In a cycle with sdp.valid and l1done: at the edge sdp.valid = 0 and the
  // done register = 1"
  G.done = sdp_valid && l1done_pre;
  if (G.done) {
    G.sdp_valid = false;
    events_.shootdown_done = true;
    ++stats_.shootdowns;
  }
  if (sd_accept_) accept_shootdown(in);  // READING P3: last
}

// "sd_ready_o = not sdp.valid. At the accept edge: sdp = (1, sd_all_i,
// sd_vpn_i, sd_vmid_i); lsent, ldone, isent, idone, l1sent, l1done = 0."
// (READING P3: last of the edge.)
void TxPathModel::accept_shootdown(const TxPathIn& in) {
  Glue& G = g_;
  G.sdp_valid = true;
  G.sdp_all = in.sd_all;
  G.sdp_vpn = in.sd_vpn & vpn_mask_;
  G.sdp_vmid = in.sd_vmid & vmid_mask_;
  for (Cu& c : G.cu) c.lsent = c.ldone = false;
  for (Ic& ic : G.ic) ic.isent = ic.idone = false;
  G.l1sent = G.l1done = false;
  events_.shootdown_accept = true;
}

void TxPathModel::posedge_baseline(const TxPathIn& in) {
  Glue& G = g_;
  if (l2_winner_ >= 0) {
    if (l2_cands_ >= 2) events_.l2_req_overlap = true;
    if (in.l2_req_ready) {
      G.lp = (static_cast<unsigned>(l2_winner_) + 1) % C_;
      events_.l2_request = true;
      ++stats_.l2_requests;
    } else {
      events_.l2_req_backpressure = true;
    }
  }
  if (in.l2_resp_valid && resp_cu_ >= 0) {
    events_.l2_fill = true;
    ++stats_.l2_fills;
  }
  if (in.sd_valid && l1_out_.sd_ready) events_.shootdown_accept = true;
  if (l1_out_.sd_done) {
    events_.shootdown_done = true;
    ++stats_.shootdowns;
  }
}

// ---------------------------------------------------------------------------
// Inspection

TxPathSramAccesses TxPathModel::sram_accesses() const {
  TxPathSramAccesses a;
  for (const LdsCtrlModel& l : lds_) a.lds_banks += l.bank_accesses();
  for (const IcacheTxModel& c : ic_) {
    a.ic_tags += c.tag_accesses();
    a.ic_data += c.data_accesses();
  }
  return a;
}

bool TxPathModel::in_l1(unsigned u, uint64_t vpn, uint64_t vmid) const {
  return l1_.find(u / N_, vpn & vpn_mask_, vmid & vmid_mask_) >= 0;
}

bool TxPathModel::in_lds(unsigned u, uint64_t vpn, uint64_t vmid, uint32_t vrf) const {
  if (baseline_) return false;
  return lds_[u].holds(vpn & vpn_mask_, static_cast<uint32_t>(vmid & vmid_mask_), vrf);
}

bool TxPathModel::in_icache(unsigned g, uint64_t vpn, uint64_t vmid, uint32_t vrf) const {
  if (baseline_) return false;
  return ic_[g].holds(vpn & vpn_mask_, static_cast<uint32_t>(vmid & vmid_mask_), vrf);
}

bool TxPathModel::shootdown_phase1_done() const {
  for (const Cu& c : g_.cu)
    if (!c.ldone) return false;
  for (const Ic& ic : g_.ic)
    if (!ic.idone) return false;
  return true;
}

unsigned TxPathModel::slots_busy(unsigned u) const {
  unsigned n = 0;
  for (unsigned k = 0; k < K_; ++k) n += g_.cu[u].s[k].st != Stage::Idle ? 1 : 0;
  return n;
}

// The round-robin pointers keep their values at rest (they hold no work).
bool TxPathModel::glue_quiet() const {
  if (g_.sdp_valid || g_.done) return false;
  for (const PadReg& z : g_.z)
    if (z.valid) return false;
  for (unsigned u = 0; u < U_; ++u) {
    const Cu& c = g_.cu[u];
    if (slots_busy(u) || c.l2r_valid || c.cx || c.occ || c.lb.valid || c.out || c.rml_valid || c.rmi_valid ||
        c.lrm_busy || c.irm_busy)
      return false;
  }
  return !g_.vr.valid;
}

// g_ includes the model-only intake numbers (Slot::seq, Cu::intakes):
// a copy must raise ret_overtakes as the original would.
void TxPathModel::copy_registers(const TxPathModel& from) {
  g_ = from.g_;
  l1_.copy_registers(from.l1_);
  for (unsigned u = 0; u < U_; ++u) lds_[u].copy_registers(from.lds_[u]);
  for (unsigned g = 0; g < G_; ++g) ic_[g].copy_registers(from.ic_[g]);
}

bool TxPathModel::same_registers(const TxPathModel& o) const {
  if (!(g_ == o.g_) || !l1_.same_registers(o.l1_)) return false;
  for (unsigned u = 0; u < U_; ++u)
    if (!lds_[u].same_registers(o.lds_[u])) return false;
  for (unsigned g = 0; g < G_; ++g)
    if (!ic_[g].same_registers(o.ic_[g])) return false;
  return true;
}

TxPathModel::QueueEntry TxPathModel::queue_entry(unsigned u, unsigned k) const {
  const Cu& c = g_.cu[u];
  if (k >= c.occ) throw std::out_of_range("TxPathModel: queue entry");
  return c.vq[(c.vq_head + k) % D_];
}

bool TxPathModel::lds_remove_pending(unsigned u, uint64_t vpn, uint64_t vmid) const {
  const Cu& c = g_.cu[u];
  vpn &= vpn_mask_;
  vmid &= vmid_mask_;
  return (c.rml_valid && c.rml_vpn == vpn && c.rml_vmid == vmid) ||
         (c.lrm_busy && c.lrm_vpn == vpn && c.lrm_vmid == vmid);
}

bool TxPathModel::ic_remove_pending(unsigned u, uint64_t vpn, uint64_t vmid) const {
  const Cu& c = g_.cu[u];
  vpn &= vpn_mask_;
  vmid &= vmid_mask_;
  return (c.rmi_valid && c.rmi_vpn == vpn && c.rmi_vmid == vmid) ||
         (c.irm_busy && c.irm_vpn == vpn && c.irm_vmid == vmid);
}

}  // namespace txgen::model
