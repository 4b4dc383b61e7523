#include "tx_path_env.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

#include "cosim_util.h"

namespace txgen::verif {

namespace {

bool any(const std::vector<uint8_t>& v) {
  return std::any_of(v.begin(), v.end(), [](uint8_t b) { return b != 0; });
}

}  // namespace

// ---------------------------------------------------------------------------
// L2-TLB

L2TlbModel::L2TlbModel(unsigned entries, unsigned ways)
    : ways_(ways), sets_(std::max(1u, entries / std::max(1u, ways)), std::vector<Way>(ways)) {}

std::vector<L2TlbModel::Way>& L2TlbModel::set_of(uint64_t key) { return sets_[(key >> 8) % sets_.size()]; }

bool L2TlbModel::lookup(uint64_t vpn, uint64_t vmid, uint64_t now) {
  const uint64_t key = page_key(vpn, vmid);
  for (Way& w : set_of(key))
    if (w.valid && w.key == key) {
      w.used = now;
      return true;
    }
  return false;
}

void L2TlbModel::insert(uint64_t vpn, uint64_t vmid, uint64_t now) {
  if (lookup(vpn, vmid, now)) return;
  auto& set = set_of(page_key(vpn, vmid));
  Way* victim = &set.front();
  for (Way& w : set) {
    if (!w.valid) {
      victim = &w;
      break;
    }
    if (w.used < victim->used) victim = &w;
  }
  *victim = {true, page_key(vpn, vmid), now};
}

// ---------------------------------------------------------------------------
// The environment

PathEnvironment::PathEnvironment(const elab::TxPathParams& p, const trace::Trace& t, const EvalOptions& o,
                                 bool baseline)
    : p_(p), trace_(t), o_(o), baseline_(baseline), in_(model::TxPathModel(p, baseline).idle_inputs()),
      l2_(o.l2_entries, o.l2_ways), cu_(p.cus, Cu(o.traffic)), fetch_(p.icaches), instruction_of_(p.cus) {
  in_.l2_req_ready = true;
  in_.l2_vic_ready = true;
  if (o.iommu) {
    IommuEvalOptions io = o.iommu_eval;
    io.l2_latency = o.l2_latency;
    behind_ = std::make_unique<IommuBehind>(*o.iommu, p, io);
  }
  // A bound on how long anything stays inside the path with no valid on any
  // port: a lookup's or a victim's way down the chain, with the wires. The
  // replay of every workload with and without skipping must agree
  // (tests/cosim/CMakeLists.txt), so a bound too short shows there.
  drain_ = 2 * (uint64_t{p.wire_lds} + p.wire_icache) + 4 * (uint64_t{p.ic.groups} + p.victim_queue) + 64;
  settle_ = 2 + (baseline ? 0 : p.lds.clear_groups) + drain_;
}

uint64_t PathEnvironment::code_addr(unsigned g) const {
  const auto& ic = p_.ic;
  const trace::Kernel& k = trace_.kernels[kernel_];
  const uint64_t lines = std::max<uint64_t>(1, k.code_bytes / ic.line_bytes);
  const uint64_t base = (uint64_t{1} << (ic.va_bits - 2)) + (uint64_t{k.id} << 20);
  return (base + (fetch_[g].pc % lines) * ic.line_bytes) & low_mask(ic.va_bits);
}

void PathEnvironment::start_kernel(uint64_t cycle) {
  kernel_started_ = true;
  const bool flush = flushes_at(trace_.kernels, kernel_, o_.flush_every_kernel);
  for (unsigned g = 0; g < p_.icaches; ++g) {
    fetch_[g] = Fetch{};
    fetch_[g].flushing = flush;
    fetch_[g].next_at = cycle;
  }
  for (unsigned u = 0; u < p_.cus; ++u) {
    Cu& c = cu_[u];
    c.traffic.start(trace_.kernels[kernel_], u, cycle);
    c.wg_free_sent = c.held == 0 || baseline_;
    c.wg_alloc_sent = trace_.kernels[kernel_].lds_segments == 0 || baseline_;
  }
}

// The CU presents a request the path refused in an earlier cycle (its
// L1-TLB's MSHRs are full).
bool PathEnvironment::refused(unsigned u, uint64_t cycle) const {
  return cu_[u].traffic.presenting() && !cu_[u].traffic.presented_first_at(cycle);
}

// A CU whose wavefronts all wait on translations (or have finished) issues
// no instructions, so its I-cache's fetch unit fetches only while one of its
// CUs issues in `cycle`.
bool PathEnvironment::fetch_allowed(unsigned g, uint64_t cycle) const {
  if (o_.fetch_when_stalled) return true;
  for (unsigned u = g * p_.sharers; u < (g + 1) * p_.sharers; ++u)
    if (cu_[u].traffic.issuing(cycle)) return true;
  return false;
}

void PathEnvironment::drive_cu(unsigned u, uint64_t cycle) {
  Cu& c = cu_[u];
  const trace::Request* r = c.traffic.offer(cycle);
  in_.req_valid[u] = r != nullptr;
  if (r) {
    in_.req_vpn[u] = r->vpn;
    in_.req_vmid[u] = r->vmid;
    in_.req_iid[u] = instruction_id(u) & low_mask(p_.iid_bits);  // a path behind the IOMMU carries it
  }
  // work groups: free the previous kernel's segments, then hold this kernel's
  in_.wg_valid[u] = !c.wg_free_sent || !c.wg_alloc_sent;
  in_.wg_free[u] = !c.wg_free_sent;
  in_.wg_base[u] = 0;
  in_.wg_size[u] = c.wg_free_sent ? trace_.kernels[kernel_].lds_segments : c.held;
}

void PathEnvironment::drive_fetch(unsigned g, uint64_t cycle) {
  Fetch& f = fetch_[g];
  in_.flush_valid[g] = f.flushing;
  in_.if_valid[g] = !f.flushing && !f.waiting && !f.filling && cycle >= f.next_at && fetch_allowed(g, cycle);
  in_.if_addr[g] = code_addr(g);
  in_.ifill_valid[g] = f.filling && cycle >= f.fill_at;
  in_.ifill_addr[g] = f.miss_addr;
}

void PathEnvironment::drive_l2(uint64_t cycle) {
  if (in_.l2_resp_valid) return;  // held until taken
  size_t best = l2q_.size();
  for (size_t i = 0; i < l2q_.size(); ++i)
    if (l2q_[i].due <= cycle && (best == l2q_.size() || l2q_[i].due < l2q_[best].due)) best = i;
  if (best == l2q_.size()) return;
  answering_ = best;
  const Pending& r = l2q_[best];
  in_.l2_resp_valid = true;
  in_.l2_resp_tag = r.tag;
  in_.l2_resp_ppn = (r.vpn * 0x9E3779B97F4A7C15ull >> 7) & low_mask(p_.ppn_bits);
  in_.l2_resp_perm = r.vpn & low_mask(p_.perm_bits);
}

const model::TxPathIn& PathEnvironment::inputs(uint64_t cycle) {
  in_.rst_n = cycle >= 2;  // two reset cycles
  if (!done() && !kernel_started_ && in_.rst_n) start_kernel(cycle);
  if (done() || !kernel_started_) {
    std::fill(in_.req_valid.begin(), in_.req_valid.end(), 0);
    return in_;
  }
  for (unsigned u = 0; u < p_.cus; ++u) drive_cu(u, cycle);
  for (unsigned g = 0; g < p_.icaches; ++g) drive_fetch(g, cycle);
  if (behind_) behind_->drive(cycle, in_);
  else drive_l2(cycle);
  return in_;
}

bool PathEnvironment::kernel_finished() const {
  return std::all_of(cu_.begin(), cu_.end(), [](const Cu& c) { return c.traffic.finished(); });
}

// A CU's instruction: index x U + CU (its low bits tell apart the
// instructions in flight at once).
uint64_t PathEnvironment::instruction_id(unsigned u) const {
  return uint64_t{cu_[u].traffic.presented_instruction()} * p_.cus + u;
}

// The instruction of the page the path asks the L2-TLB for, {kernel,
// instruction_id}. A path that carries the ID (behind the generated IOMMU)
// names it: the last instruction with those low bits. Otherwise the one whose
// request for the page the CU's L1-TLB took last (recorded at the accept,
// dropped at the answer, so the map holds the requests in flight).
uint64_t PathEnvironment::l2_request_instruction(const model::TxPathOut& out) const {
  if (!out.l2_req_valid) return 0;
  if (p_.iid_bits) {
    const auto full = full_instruction_.find(out.l2_req_iid);
    return full == full_instruction_.end() ? out.l2_req_iid : full->second;
  }
  const uint64_t cu = out.l2_req_tag >> p_.l1_tag_bits;
  if (cu >= p_.cus) return 0;
  const auto& m = instruction_of_[cu];
  const auto it = m.find(page_key(out.l2_req_vpn, out.l2_req_vmid));
  return it == m.end() ? 0 : it->second;
}

// With the generated L2-TLB every answer the path gives a CU must carry the
// page table's PPN: the translation travelled memory -> IOMMU -> L2-TLB ->
// path intact.
void PathEnvironment::check_translation(unsigned u, uint64_t vpn, uint64_t vmid, uint64_t ppn) const {
  const int64_t want = behind_->page_table().mapped_ppn(vmid, vpn);
  if (want != static_cast<int64_t>(ppn))
    throw std::runtime_error("CU " + std::to_string(u) + " got PPN " + std::to_string(ppn) + " for VPN " +
                             std::to_string(vpn) + " (VMID " + std::to_string(vmid) + "); the page table holds " +
                             (want < 0 ? std::string("no mapping") : std::to_string(want)));
}

void PathEnvironment::observe(uint64_t cycle, const model::TxPathOut& out) {
  if (behind_) behind_->step(cycle, in_, out, l2_request_instruction(out));
  if (!in_.rst_n || done() || !kernel_started_) return;
  count_owed_done(out);
  quiet_ = active(cycle, out) ? 0 : quiet_ + 1;  // before the handshakes below clear what was driven
  for (unsigned u = 0; u < p_.cus; ++u) {
    Cu& c = cu_[u];
    if (in_.req_valid[u] && out.req_ready[u]) {
      const uint64_t instruction = (uint64_t{kernel_} << 40) | instruction_id(u);
      instruction_of_[u][page_key(in_.req_vpn[u], in_.req_vmid[u])] = instruction;
      if (p_.iid_bits) full_instruction_[instruction & low_mask(p_.iid_bits)] = instruction;
      c.traffic.accepted(cycle);
      ++s_.requests;
    }
    if (out.resp_valid[u]) {
      ++s_.l1_hits;
      if (behind_) check_translation(u, out.resp_vpn[u], out.resp_vmid[u], out.resp_ppn[u]);
      instruction_of_[u].erase(page_key(out.resp_vpn[u], out.resp_vmid[u]));
      c.traffic.answered(out.resp_vpn[u], cycle);
    }
    if (out.fill_valid[u]) {
      ++s_.l1_misses;
      if (behind_) check_translation(u, out.fill_vpn[u], out.fill_vmid[u], out.fill_ppn[u]);
      instruction_of_[u].erase(page_key(out.fill_vpn[u], out.fill_vmid[u]));
      c.traffic.answered(out.fill_vpn[u], cycle);
    }
    if (!baseline_) {
      s_.lds_hits += out.hit_lds[u];
      s_.icache_hits += out.hit_ic[u];
      if (in_.wg_valid[u] && out.wg_ready[u]) {
        if (!c.wg_free_sent) {
          c.wg_free_sent = true;
          c.held = 0;
        } else {
          c.wg_alloc_sent = true;
          c.held = trace_.kernels[kernel_].lds_segments;
        }
      }
    }
  }
  for (unsigned g = 0; g < p_.icaches; ++g) {
    Fetch& f = fetch_[g];
    if (in_.flush_valid[g] && out.flush_ready[g]) f.flushing = false;
    if (in_.if_valid[g] && out.if_ready[g]) {
      f.waiting = true;
      ++s_.ifetches;
    }
    if (out.if_resp_valid[g] && f.waiting) {
      f.waiting = false;
      if (out.if_resp_hit[g]) {
        ++f.pc;
        f.next_at = cycle + o_.fetch_interval;
      } else {
        ++s_.ifetch_misses;
        f.filling = true;
        f.fill_at = cycle + o_.ifill_latency;
        f.miss_addr = code_addr(g);
      }
    }
    if (in_.ifill_valid[g] && out.ifill_ready[g]) {
      f.filling = false;
      f.next_at = cycle + 1;  // fetch the filled line again
    }
  }
  if (out.l2_req_valid && in_.l2_req_ready) ++s_.l2_requests;
  if (!baseline_ && out.l2_vic_valid && in_.l2_vic_ready) ++s_.l2_victims;
  if (!behind_) observe_behavioural_l2(cycle, out);
  if (kernel_finished()) {
    if (behind_) behind_->close_instructions();
    full_instruction_.clear();
    ++kernel_;
    kernel_started_ = false;
    if (done()) s_.cycles = cycle + 1;
  }
}

void PathEnvironment::observe_behavioural_l2(uint64_t cycle, const model::TxPathOut& out) {
  if (out.l2_req_valid && in_.l2_req_ready) {
    const uint64_t key = page_key(out.l2_req_vpn, out.l2_req_vmid);
    uint64_t due = cycle + o_.l2_latency;
    bool walks = false;
    if (l2_.lookup(out.l2_req_vpn, out.l2_req_vmid, cycle)) {
      ++s_.l2_hits;
    } else if (walking_.count(key)) {
      due = std::max(due, walking_[key]);  // joins the walk in flight
    } else {
      ++s_.walks;
      due += o_.walk_latency;
      walking_[key] = due;
      walks = true;
    }
    l2q_.push_back({out.l2_req_tag, out.l2_req_vpn, out.l2_req_vmid, due, walks});
  }
  if (in_.l2_resp_valid && out.l2_resp_ready) {
    const Pending r = l2q_[answering_];
    if (r.walks) {
      l2_.insert(r.vpn, r.vmid, cycle);
      walking_.erase(page_key(r.vpn, r.vmid));
    }
    l2q_.erase(l2q_.begin() + static_cast<long>(answering_));
    in_.l2_resp_valid = false;
  }
  if (!baseline_ && out.l2_vic_valid && in_.l2_vic_ready) {
    l2_.insert(out.l2_vic_vpn, out.l2_vic_vmid, cycle);
  }
}

// Work-group and flush operations run on inside the path after their
// handshake (an LDS clear, an I-cache flush) until their done pulse.
void PathEnvironment::count_owed_done(const model::TxPathOut& out) {
  for (unsigned u = 0; u < p_.cus; ++u) {
    done_owed_ += in_.wg_valid[u] && out.wg_ready[u];
    done_owed_ -= out.wg_done[u];
  }
  for (unsigned g = 0; g < p_.icaches; ++g) {
    done_owed_ += in_.flush_valid[g] && out.flush_ready[g];
    done_owed_ -= out.flush_done[g];
  }
}

// A valid on any port, or an operation owing its done pulse. A request the
// path keeps refusing is waiting, not activity.
bool PathEnvironment::active(uint64_t cycle, const model::TxPathOut& out) const {
  for (unsigned u = 0; u < p_.cus; ++u)
    if (in_.req_valid[u] && (out.req_ready[u] || !refused(u, cycle))) return true;
  return done_owed_ > 0 || any(in_.wg_valid) || any(in_.if_valid) || any(in_.ifill_valid) ||
         any(in_.flush_valid) || in_.l2_resp_valid || in_.sd_valid || any(out.resp_valid) || any(out.fill_valid) ||
         any(out.app_rvalid) || any(out.wg_done) || any(out.if_resp_valid) || any(out.flush_done) ||
         out.l2_req_valid || out.l2_vic_valid || out.sd_done || any(out.hit_lds) || any(out.hit_ic) ||
         (behind_ && behind_->busy());
}

// The first cycle at which the environment drives a valid again by itself:
// an L2-TLB answer falls due, a fetch unit's next fetch or line fill; now when
// a CU has a request to present.
uint64_t PathEnvironment::next_event(uint64_t cycle) const {
  uint64_t at = UINT64_MAX;
  for (const Cu& c : cu_) {
    if (!c.wg_free_sent || !c.wg_alloc_sent) return 0;
    at = std::min(at, c.traffic.next_offer(cycle));
  }
  for (const Pending& r : l2q_) at = std::min(at, r.due);
  if (behind_) at = std::min(at, behind_->next_event(cycle));
  for (unsigned g = 0; g < p_.icaches; ++g) {
    const Fetch& f = fetch_[g];
    if (f.flushing) return 0;
    if (f.filling) at = std::min(at, f.fill_at);
    else if (!f.waiting && fetch_allowed(g, cycle)) at = std::min(at, f.next_at);
  }
  return at;
}

bool PathEnvironment::watch_next() const {
  // Checked from 4 quiet cycles on (Table 1's GUPS and ATAX replays: first
  // checks at 1, 2, 4, 8 or 16 cycles take 1.45, 1.25, 1.05, 1.0, 1.05x the
  // time of 8, one run each; a check copies and compares about 20 KB of
  // registers there).
  return o_.skip_idle && kernel_started_ && quiet_ >= 4 && (quiet_ & (quiet_ - 1)) == 0;
}

uint64_t PathEnvironment::next_cycle(uint64_t cycle, std::optional<bool> fixed_point) {
  const uint64_t next = cycle + 1;
  const bool settled = fixed_point ? *fixed_point && quiet_ > 0 : quiet_ >= drain_ && next >= settle_;
  if (!o_.skip_idle || !settled || done() || !kernel_started_) return next;
  const uint64_t at = next_event(next);
  if (at == UINT64_MAX || at <= next) return next;  // nothing due (a deadlock runs to max_cycles) or due now
  skipped_ += at - next;
  return at;
}

void mean_and_p99(std::vector<uint64_t> l, double& mean, uint64_t& p99) {
  if (l.empty()) return;
  std::sort(l.begin(), l.end());
  mean = std::accumulate(l.begin(), l.end(), 0.0) / static_cast<double>(l.size());
  p99 = l[std::min(l.size() - 1, l.size() * 99 / 100)];
}

void summarise_traffic(const std::vector<const TrafficFigures*>& cus, EvalStats& s) {
  std::vector<uint64_t> requests, instructions, spread;
  s.instructions = s.stall_cycles = 0;
  for (const TrafficFigures* f : cus) {
    requests.insert(requests.end(), f->request_latency.begin(), f->request_latency.end());
    instructions.insert(instructions.end(), f->instruction_latency.begin(), f->instruction_latency.end());
    spread.insert(spread.end(), f->instruction_spread.begin(), f->instruction_spread.end());
    s.instructions += f->instructions;
    s.stall_cycles += f->stall_cycles;
  }
  mean_and_p99(std::move(requests), s.latency_mean, s.latency_p99);
  mean_and_p99(std::move(instructions), s.instruction_latency_mean, s.instruction_latency_p99);
  mean_and_p99(std::move(spread), s.spread_mean, s.spread_p99);
}

// Seed 000 4.3.3 and 6.1.2: no kernel flush between launches of one kernel
// (its code stays valid); a different kernel gets one (or every boundary).
bool flushes_at(const std::vector<trace::Kernel>& kernels, size_t next, bool every_kernel) {
  if (next == 0) return false;
  return every_kernel || kernels[next].id != kernels[next - 1].id;
}

void summarise_iommu(const IommuFigures& f, EvalStats& s) {
  s.generated_l2 = true;
  s.l2_hits = f.l2_hits;
  s.l2_merges = f.l2_merges;
  s.walks = f.walks;
  s.pte_reads = f.pte_reads;
  s.buffer_max = f.buffer_max;
  s.buffer_mean = s.cycles ? static_cast<double>(f.buffer_sum) / static_cast<double>(s.cycles) : 0;
  s.walk_gap_instructions = f.walk_gap.size();
  mean_and_p99(f.walk_gap, s.walk_gap_mean, s.walk_gap_p99);
}

EvalStats PathEnvironment::stats() const {
  EvalStats s = s_;
  s.finished = done();
  summarise_cus(cu_, s);
  if (behind_) summarise_iommu(behind_->figures(), s);
  return s;
}

}  // namespace txgen::verif
