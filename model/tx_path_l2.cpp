#include "model/tx_path_l2.h"

#include <stdexcept>
#include <tuple>

namespace txgen::model {
namespace {

uint64_t low_bits(uint64_t v, unsigned bits) { return bits >= 64 ? v : v & ((uint64_t{1} << bits) - 1); }

}  // namespace

struct TxPathL2Model::Join {
  // path -> L2-TLB
  bool req_valid, resp_ready, vic_valid;
  uint64_t req_vpn, req_vmid, req_tag, vic_vpn, vic_vmid, vic_ppn, vic_perm;
  // L2-TLB -> path
  bool req_ready, resp_valid, ins_ready;
  uint64_t resp_tag, resp_ppn, resp_perm;

  static Join of(const TxPathOut& p, const IommuSysOut& l) {
    return {p.l2_req_valid, p.l2_resp_ready, p.l2_vic_valid, p.l2_req_vpn, p.l2_req_vmid, p.l2_req_tag,
            p.l2_vic_vpn,   p.l2_vic_vmid,   p.l2_vic_ppn,   p.l2_vic_perm, l.req_ready[0] != 0,
            l.resp_valid[0] != 0, l.ins_ready, l.resp_tag[0], l.resp_ppn[0], l.resp_perm[0]};
  }
  auto key() const {
    return std::tie(req_valid, resp_ready, vic_valid, req_vpn, req_vmid, req_tag, vic_vpn, vic_vmid, vic_ppn,
                    vic_perm, req_ready, resp_valid, ins_ready, resp_tag, resp_ppn, resp_perm);
  }
  bool operator==(const Join& o) const { return key() == o.key(); }
};

TxPathL2Model::TxPathL2Model(const elab::TxPathParams& path, const elab::IommuParams& io)
    : pp_(path), io_(io), path_(path, false), sys_(io), pin_(path_.idle_inputs()), sin_(sys_.idle_inputs()),
      pout_(path_.make_outputs()), sout_(sys_.make_outputs()) {
  if (io.l2.ports != 1) throw std::invalid_argument("the L2-TLB inside the path needs exactly one request port");
}

TxPathL2In TxPathL2Model::idle_inputs() const { return {path_.idle_inputs(), sys_.idle_inputs()}; }

TxPathL2Out TxPathL2Model::make_outputs() const { return {path_.make_outputs(), sys_.make_outputs()}; }

// The path's inputs: the top's, with the L2-TLB's answers, insert readiness
// and request readiness, and the shootdown gated by the sequencer.
void TxPathL2Model::path_inputs(const TxPathL2In& in, const IommuSysOut& l2) {
  const bool busy = in.path.rst_n && sd_busy_;
  pin_ = in.path;
  pin_.l2_req_ready = l2.req_ready[0] != 0;
  pin_.l2_resp_valid = l2.resp_valid[0] != 0;
  pin_.l2_resp_tag = low_bits(l2.resp_tag[0], pp_.l2_tag_bits);
  pin_.l2_resp_ppn = l2.resp_ppn[0];
  pin_.l2_resp_perm = l2.resp_perm[0];
  pin_.l2_vic_ready = l2.ins_ready;
  pin_.sd_valid = in.path.sd_valid && !busy;
}

// The L2-TLB's inputs: the path's request (with its instruction ID), answer
// readiness and victims, the sequencer's shootdown, the top's memory side.
void TxPathL2Model::l2_inputs(const TxPathL2In& in, const TxPathOut& path) {
  const bool live = in.path.rst_n;
  sin_ = in.sys;
  sin_.rst_n = in.path.rst_n;
  sin_.req_valid[0] = path.l2_req_valid;
  sin_.req_vpn[0] = path.l2_req_vpn;
  sin_.req_vmid[0] = path.l2_req_vmid;
  sin_.req_tag[0] = path.l2_req_tag;
  sin_.req_iid[0] = path.l2_req_iid;
  sin_.resp_ready[0] = path.l2_resp_ready;
  sin_.ins_valid = path.l2_vic_valid;
  sin_.ins_vpn = path.l2_vic_vpn;
  sin_.ins_vmid = path.l2_vic_vmid;
  sin_.ins_ppn = path.l2_vic_ppn;
  sin_.ins_perm = path.l2_vic_perm;
  sin_.sd_valid = live && sd_l2_go_;
  sin_.sd_all = live && key_all_;
  sin_.sd_vpn = live ? key_vpn_ : 0;
  sin_.sd_vmid = live ? key_vmid_ : 0;
}

// Both sides evaluated in turn, each from the other's last outputs, until the
// joined signals repeat: then each side's last inputs are the ones the other's
// final outputs give (pin_ reads only joined fields of sout_).
void TxPathL2Model::settle(const TxPathL2In& in, TxPathL2Out& out) {
  Join last{};
  for (int round = 0; round < 8; ++round) {
    path_inputs(in, sout_);
    path_.outputs(pin_, pout_);
    l2_inputs(in, pout_);
    sys_.outputs(sin_, sout_);
    const Join now = Join::of(pout_, sout_);
    if (round > 0 && now == last) {
      settled_ = true;
      top_outputs(in, out);
      return;
    }
    last = now;
  }
  throw std::logic_error("tx_path with the L2-TLB inside: the joined signals do not settle");
}

void TxPathL2Model::top_outputs(const TxPathL2In& in, TxPathL2Out& out) const {
  const bool busy = in.path.rst_n && sd_busy_;
  out.path = pout_;
  out.path.sd_ready = pout_.sd_ready && !busy;
  out.path.sd_done = sout_.sd_done;
  out.sys = sout_;
}

void TxPathL2Model::outputs(const TxPathL2In& in, TxPathL2Out& out) { settle(in, out); }

void TxPathL2Model::posedge(const TxPathL2In& in) {
  if (!settled_) {
    TxPathL2Out scratch = make_outputs();
    settle(in, scratch);
  }
  settled_ = false;
  const bool accept = in.path.sd_valid && pout_.sd_ready && !sd_busy_;
  const bool path_done = pout_.sd_done, l2_take = sd_l2_go_ && sout_.sd_ready, l2_done = sout_.sd_done;
  path_.posedge_after_outputs(pin_);  // its last outputs() had these inputs
  sys_.posedge(sin_);
  events_ = {};
  if (!in.path.rst_n) {
    sd_busy_ = sd_l2_go_ = key_all_ = false;
    key_vpn_ = key_vmid_ = 0;
    return;
  }
  events_.sd_path_started = accept;
  events_.sd_l2_started = path_done;
  events_.sd_l2_waited = sd_l2_go_ && !sout_.sd_ready;
  events_.sd_taken_while_busy = in.path.sd_valid && sd_busy_;
  if (accept) {
    key_all_ = in.path.sd_all;
    key_vpn_ = in.path.sd_vpn;
    key_vmid_ = in.path.sd_vmid;
  }
  sd_busy_ = accept || (sd_busy_ && !l2_done);
  sd_l2_go_ = path_done || (sd_l2_go_ && !l2_take);
}

void TxPathL2Model::step(const TxPathL2In& in, TxPathL2Out& out) {
  outputs(in, out);
  posedge(in);
}

}  // namespace txgen::model
