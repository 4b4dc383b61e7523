#include "iommu_behind.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "cosim_util.h"

namespace txgen::verif {

namespace {

void require(bool ok, const std::string& what) {
  if (!ok) throw std::invalid_argument("the generated L2-TLB behind the path: " + what);
}

}  // namespace

// A page-table table is one page of 8-byte PTEs: page bytes = 8 << index bits.
IommuBehind::IommuBehind(const elab::IommuParams& p, const elab::TxPathParams& path, const IommuEvalOptions& o)
    : p_(p), o_(o), wire_req_(0), wire_resp_(0), sys_(p), sin_(sys_.idle_inputs()), sout_(sys_.make_outputs()),
      pt_(p.levels, p.sched.level_bits, p.vpn_bits, p.ppn_bits, p.perm_bits, 8u << p.sched.level_bits),
      channel_free_(std::max(1u, o.pte_channels), 0), iid_mask_(low_mask(p.iid_bits)) {
  elab::check_behind_path(p, path.l2_tag_bits, path.vpn_bits, path.ppn_bits, o.l2_latency);
  // an L2-TLB hit: request wire, D + 2 cycles inside (take to answer), answer wire
  const unsigned inside = p.l2.stages + 2;
  require(o.pte_latency >= 1 && o.pte_interval >= 1 && o.pte_channels >= 1,
          "PTE latency, interval and channels must be at least 1");
  wire_req_ = (o.l2_latency - inside) / 2;
  wire_resp_ = o.l2_latency - inside - wire_req_;
}

unsigned IommuBehind::channel_of(uint64_t vmid, uint64_t vpn, unsigned level) {
  return static_cast<unsigned>((pt_.pte_address(vmid, vpn, level) >> 6) % channel_free_.size());
}

// The path sees wires: requests and victims always enter them (the L2-TLB's
// back-pressure holds the wire's head, and the path's MSHRs bound the
// requests); an answer arrives when its wire delivers it, held until taken.
void IommuBehind::drive(uint64_t cycle, model::TxPathIn& in) {
  in.l2_req_ready = true;
  in.l2_vic_ready = vic_wire_.size() < 64;
  in.l2_resp_valid = !resp_wire_.empty() && resp_wire_.front().due <= cycle;
  if (in.l2_resp_valid) {
    in.l2_resp_tag = resp_wire_.front().tag;
    in.l2_resp_ppn = resp_wire_.front().ppn;
    in.l2_resp_perm = resp_wire_.front().perm;
  }
}

void IommuBehind::drive_sys(uint64_t cycle) {
  sin_.req_valid[0] = !req_wire_.empty() && req_wire_.front().due <= cycle;
  if (sin_.req_valid[0]) {
    const Request& r = req_wire_.front();
    sin_.req_vpn[0] = r.vpn;
    sin_.req_vmid[0] = r.vmid;
    sin_.req_tag[0] = r.tag;
    sin_.req_iid[0] = r.iid & iid_mask_;
  }
  sin_.ins_valid = !vic_wire_.empty() && vic_wire_.front().due <= cycle;
  if (sin_.ins_valid) {
    const Victim& v = vic_wire_.front();
    sin_.ins_vpn = v.vpn;
    sin_.ins_vmid = v.vmid;
    sin_.ins_ppn = v.ppn;
    sin_.ins_perm = v.perm;
  }
  // memory takes the registered read when its channel is free
  const model::IommuModel& io = sys_.iommu();
  sin_.mem_req_ready = true;
  if (io.mem_req_valid()) {
    const uint64_t walk = io.mem_req_walk_vpn();
    const unsigned ch = channel_of(walk >> p_.vpn_bits, walk & low_mask(p_.vpn_bits), io.mem_req_level());
    sin_.mem_req_ready = channel_free_[ch] <= cycle;
  }
  // one answer a cycle: the read due first
  answering_ = -1;
  for (size_t i = 0; i < reads_.size(); ++i)
    if (reads_[i].due <= cycle && (answering_ < 0 || reads_[i].due < reads_[static_cast<size_t>(answering_)].due))
      answering_ = static_cast<int>(i);
  sin_.mem_resp_valid = answering_ >= 0;
  if (answering_ >= 0) {
    const Read& r = reads_[static_cast<size_t>(answering_)];
    const bool leaf = r.level == p_.levels;
    sin_.mem_resp_walker = r.walker;
    sin_.mem_resp_ppn = leaf ? pt_.ppn(r.vmid, r.vpn) : 0;
    sin_.mem_resp_perm = leaf ? pt_.perm(r.vmid, r.vpn) : 0;
  }
}

void IommuBehind::take_path(uint64_t cycle, const model::TxPathIn& in, const model::TxPathOut& out,
                            uint64_t instruction) {
  if (out.l2_req_valid && in.l2_req_ready)
    req_wire_.push_back({cycle + wire_req_, out.l2_req_vpn, out.l2_req_vmid, out.l2_req_tag, instruction});
  if (out.l2_vic_valid && in.l2_vic_ready)
    vic_wire_.push_back({cycle + wire_req_, out.l2_vic_vpn, out.l2_vic_vmid, out.l2_vic_ppn, out.l2_vic_perm});
  if (in.l2_resp_valid && out.l2_resp_ready) resp_wire_.pop_front();
}

// The handshakes of the L2-TLB and the IOMMU with the wires and memory.
void IommuBehind::take_sys(uint64_t cycle) {
  if (sin_.req_valid[0] && sout_.req_ready[0]) {
    full_instruction_[req_wire_.front().iid & iid_mask_] = req_wire_.front().iid;
    req_wire_.pop_front();
  }
  if (sin_.ins_valid && sout_.ins_ready) vic_wire_.pop_front();
  if (sout_.resp_valid[0] && sin_.resp_ready[0])
    resp_wire_.push_back({cycle + wire_resp_, sout_.resp_tag[0], sout_.resp_ppn[0], sout_.resp_perm[0]});
  if (sout_.mem_req_valid && sin_.mem_req_ready) {
    ++f_.pte_reads;
    const unsigned level = static_cast<unsigned>(sout_.mem_req_level);
    channel_free_[channel_of(sout_.mem_req_vmid, sout_.mem_req_vpn, level)] = cycle + o_.pte_interval;
    reads_.push_back({cycle + o_.pte_latency, static_cast<unsigned>(sout_.mem_req_walker), level, sout_.mem_req_vpn,
                      sout_.mem_req_vmid});
  }
  if (answering_ >= 0) {
    const Read r = reads_[static_cast<size_t>(answering_)];
    reads_.erase(reads_.begin() + answering_);
    if (r.level == p_.levels) note_leaf(r, cycle);
  }
}

// The walk request register names the instruction of the walk's first
// requester (the MSHR's); recorded while it waits for the IOMMU.
void IommuBehind::note_walk_request() {
  const model::L2tlbModel& l2 = sys_.l2();
  if (!l2.walk_req_valid()) return;
  walk_instruction_[(l2.walk_req_vmid() << p_.vpn_bits) | l2.walk_req_vpn()] = l2.walk_req_iid();
}

void IommuBehind::note_leaf(const Read& r, uint64_t cycle) {
  ++f_.walks;
  const auto it = walk_instruction_.find((r.vmid << p_.vpn_bits) | r.vpn);
  if (it == walk_instruction_.end()) return;
  Gap& g = gaps_[full_instruction_[it->second]];
  if (g.walks++ == 0) g.first = cycle;
  g.last = cycle;
  walk_instruction_.erase(it);
}

void IommuBehind::step(uint64_t cycle, const model::TxPathIn& in, const model::TxPathOut& out,
                       uint64_t instruction) {
  take_path(cycle, in, out, instruction);
  sin_.rst_n = in.rst_n;  // reset with the path
  drive_sys(cycle);
  sys_.outputs(sin_, sout_);
  f_.buffer_sum += sout_.walk_count;
  f_.buffer_max = std::max(f_.buffer_max, sout_.walk_count);
  note_walk_request();
  take_sys(cycle);
  sys_.posedge(sin_);
  f_.l2_hits += sys_.events().l2_hit;
  f_.l2_merges += sys_.events().l2_merge_waiting || sys_.events().l2_merge_filled;
}

bool IommuBehind::sys_idle() const {
  const model::L2tlbModel& l2 = sys_.l2();
  const model::IommuModel& io = sys_.iommu();
  if (!l2.pipeline_empty() || l2.valid_mshrs() || l2.valid_waiters() || l2.walk_req_valid() || io.mem_req_valid())
    return false;
  for (unsigned k = 0; k < p_.walkers; ++k)
    if (io.walker_want(k) || io.read_outstanding(k)) return false;
  return sout_.walk_count == 0 && sout_.walk_busy == 0;
}

// Working: memory has reads, or the L2-TLB or the IOMMU holds anything, or
// (random policy) always, since its LFSR moves every cycle. Requests,
// victims and answers in a wire are not work: the wire only delivers them.
bool IommuBehind::busy() const { return p_.sched.random() || !reads_.empty() || !sys_idle(); }

uint64_t IommuBehind::next_event(uint64_t cycle) const {
  if (busy()) return cycle;
  uint64_t at = UINT64_MAX;
  if (!req_wire_.empty()) at = std::min(at, req_wire_.front().due);
  if (!vic_wire_.empty()) at = std::min(at, vic_wire_.front().due);
  if (!resp_wire_.empty()) at = std::min(at, resp_wire_.front().due);
  return std::max(at, cycle);
}

void IommuBehind::close_instructions() {
  for (const auto& [instruction, g] : gaps_)
    if (g.walks >= 2) f_.walk_gap.push_back(g.last - g.first);
  gaps_.clear();
  full_instruction_.clear();
}

const IommuFigures& IommuBehind::figures() {
  close_instructions();
  return f_;
}

}  // namespace txgen::verif
