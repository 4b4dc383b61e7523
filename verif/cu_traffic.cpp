#include "cu_traffic.h"

#include <algorithm>
#include <unordered_map>

namespace txgen::verif {

namespace {
const std::vector<trace::Request> kNoRequests;
}  // namespace

void CuTraffic::start(const trace::Kernel& k, unsigned cu, uint64_t t) {
  k_ = &k;
  cu_ = cu;
  stream_ = cu < k.per_cu.size() ? &k.per_cu[cu] : &kNoRequests;
  presenting_ = false;
  in_flight_.clear();
  queue_.clear();
  next_ = 0;
  was_stalled_ = false;
  if (o_.model == IssueModel::kOutstanding) return;
  implicit_.clear();
  if (!k.has_instructions(cu)) {
    for (uint64_t i = 0; i < stream_->size(); ++i) implicit_.push_back({0, 1, i, 0});
    instrs_ = &implicit_;
  } else {
    instrs_ = &k.instructions[cu];
  }
  first_page_.assign(instrs_->size(), 0);
  waiting_.clear();
  std::unordered_map<uint32_t, size_t> wave_of;
  uint64_t page = 0;
  for (uint32_t i = 0; i < instrs_->size(); ++i) {
    const trace::Instruction& ins = (*instrs_)[i];
    first_page_[i] = page;
    page += ins.pages;
    const auto [it, added] = wave_of.emplace(ins.wavefront, waiting_.size());
    if (added) waiting_.push_back(Wave{ins.wavefront, {}, 0, 0, 0, 0, kNever});
    waiting_[it->second].instructions.push_back(i);
  }
  next_waiting_ = 0;
  slot_count_ = std::max(1u, o_.wavefront_slots != 0 ? o_.wavefront_slots : k.wavefronts);
  slots_.assign(slot_count_, Wave{});
  slot_used_.assign(slot_count_, false);
  resident_ = blocked_ = rr_ = 0;
  last_issue_ = kNever;
  accounted_ = t;
  admit(t);
}

uint64_t CuTraffic::gap_cycles(const Wave& w) const {
  return (*instrs_)[w.instructions[w.next]].compute_gap * o_.compute_cycles;
}

// Free slots take the next wavefronts; each runs its first instruction's
// compute gap from cycle t.
void CuTraffic::admit(uint64_t t) {
  for (unsigned s = 0; s < slot_count_ && next_waiting_ < waiting_.size(); ++s) {
    if (slot_used_[s]) continue;
    slots_[s] = std::move(waiting_[next_waiting_++]);
    slots_[s].gap_from = t;
    slots_[s].ready_at = t + gap_cycles(slots_[s]);
    slot_used_[s] = true;
    ++resident_;
  }
}

// At most one memory instruction a cycle, and only into an empty queue (the
// CU's coalescer takes one instruction at a time): the first ready wavefront
// from the round-robin pointer.
void CuTraffic::issue(uint64_t t) {
  if (last_issue_ == t || !queue_.empty()) return;
  for (unsigned i = 0; i < slot_count_; ++i) {
    const unsigned s = (rr_ + i) % slot_count_;
    Wave& w = slots_[s];
    if (!slot_used_[s] || w.awaited != 0 || w.next >= w.instructions.size() || w.ready_at > t) continue;
    const uint32_t index = w.instructions[w.next++];
    const trace::Instruction& ins = (*instrs_)[index];
    for (uint32_t p = 0; p < ins.pages; ++p) queue_.push_back({(*stream_)[first_page_[index] + p], s, index});
    w.awaited = ins.pages;
    w.issued_at = t;
    w.first_answer = kNever;
    rr_ = (s + 1) % slot_count_;
    last_issue_ = t;
    ++blocked_;
    set_stalled(stalled(), t);  // the fetch units' view
    return;
  }
}

CuTraffic::InFlight* CuTraffic::find_in_flight(uint64_t key) {
  for (InFlight& f : in_flight_)
    if (f.key == key) return &f;
  return nullptr;
}

const trace::Request* CuTraffic::offer_wavefront(uint64_t t) {
  account(t);
  issue(t);
  while (!queue_.empty()) {
    const Queued q = queue_.front();
    queue_.pop_front();
    if (InFlight* f = find_in_flight(page_key(q.page.vpn, q.page.vmid))) {
      f->waves.push_back(q.wave);  // joins the request in flight
      continue;
    }
    presenting_ = true;
    presented_ = q.page;
    presented_wave_ = q.wave;
    presented_instr_ = q.instr;
    presented_at_ = t;
    return &presented_;
  }
  return nullptr;
}

bool CuTraffic::outstanding_can_present() const {
  if (presenting_ || next_ >= stream_->size() || in_flight_.size() >= o_.outstanding) return false;
  const trace::Request& r = (*stream_)[next_];
  const uint64_t key = page_key(r.vpn, r.vmid);
  return std::none_of(in_flight_.begin(), in_flight_.end(), [&](const InFlight& f) { return f.key == key; });
}

const trace::Request* CuTraffic::offer_outstanding(uint64_t t) {
  if (!outstanding_can_present()) return nullptr;
  presenting_ = true;
  presented_instr_ = static_cast<uint32_t>(next_);
  presented_ = (*stream_)[next_++];
  presented_at_ = t;
  return &presented_;
}

const trace::Request* CuTraffic::offer(uint64_t t) {
  if (presenting_) return &presented_;
  if (k_ == nullptr) return nullptr;
  return o_.model == IssueModel::kOutstanding ? offer_outstanding(t) : offer_wavefront(t);
}

void CuTraffic::accepted(uint64_t t) {
  if (o_.model == IssueModel::kWavefront) account(t);
  presenting_ = false;
  ++f_.requests;
  InFlight f{page_key(presented_.vpn, presented_.vmid), presented_at_, {}};
  if (o_.model == IssueModel::kWavefront) f.waves.push_back(presented_wave_);
  in_flight_.push_back(std::move(f));
  if (o_.model == IssueModel::kOutstanding) set_stalled(stalled(), t);
}

void CuTraffic::answered(uint64_t vpn, uint64_t t) {
  if (o_.model == IssueModel::kWavefront) account(t + 1);
  for (size_t i = 0; i < in_flight_.size();) {
    if ((in_flight_[i].key >> 8) != vpn) {
      ++i;
      continue;
    }
    const InFlight f = std::move(in_flight_[i]);
    in_flight_.erase(in_flight_.begin() + static_cast<std::ptrdiff_t>(i));
    const uint64_t latency = t - f.presented_at;
    f_.request_latency.push_back(latency);
    if (o_.model == IssueModel::kOutstanding) {  // every request is an instruction
      ++f_.instructions;
      f_.instruction_latency.push_back(latency);
      f_.instruction_spread.push_back(0);
    }
    for (uint32_t s : f.waves) wave_answered(s, t);
  }
  set_stalled(stalled(), t);
}

// A page of the wavefront's instruction returned; the last one completes it.
void CuTraffic::wave_answered(uint32_t slot, uint64_t t) {
  Wave& w = slots_[slot];
  if (w.first_answer == kNever) w.first_answer = t;
  if (--w.awaited != 0) return;
  ++f_.instructions;
  f_.instruction_latency.push_back(t - w.issued_at);
  f_.instruction_spread.push_back(t - w.first_answer);
  --blocked_;
  if (w.next < w.instructions.size()) {
    w.gap_from = t + 1;
    w.ready_at = w.gap_from + gap_cycles(w);
    return;
  }
  slot_used_[slot] = false;  // retired: the next wavefront starts
  --resident_;
  admit(t + 1);
}

bool CuTraffic::stalled() const {
  if (o_.model == IssueModel::kOutstanding) return !in_flight_.empty() && !presenting_ && !outstanding_can_present();
  return resident_ > 0 && blocked_ == resident_;
}

// A change in cycle t holds from t + 1. The outstanding model counts its
// stall cycles here.
void CuTraffic::set_stalled(bool stalled_now, uint64_t t) {
  if (stalled_now && !was_stalled_) stalled_since_ = t + 1;
  if (!stalled_now && was_stalled_ && o_.model == IssueModel::kOutstanding)
    f_.stall_cycles += t + 1 - stalled_since_;
  was_stalled_ = stalled_now;
}

// Wavefront model: the stall cycles in [accounted_, end), from the state the
// last call left (nothing changes between calls but time; an answer counts
// its own cycle first, with the state before it). Every compute gap then
// started by accounted_ + 1, so the cycles after accounted_ are covered up to
// the latest gap's end; accounted_ itself may fall before a gap that starts in
// the next cycle, or be the cycle of an issue.
void CuTraffic::account(uint64_t end) {
  if (end <= accounted_) return;
  const uint64_t from = accounted_;
  accounted_ = end;
  if (resident_ == 0) return;
  bool from_covered = last_issue_ == from;
  uint64_t covered_to = from + 1;
  for (unsigned s = 0; s < slot_count_; ++s) {
    const Wave& w = slots_[s];
    if (!slot_used_[s] || w.awaited != 0 || w.next >= w.instructions.size()) continue;
    from_covered = from_covered || (w.gap_from <= from && from < w.ready_at);
    covered_to = std::max(covered_to, w.ready_at);
  }
  f_.stall_cycles += (from_covered ? 0 : 1) + (end > covered_to ? end - covered_to : 0);
}

uint64_t CuTraffic::next_offer(uint64_t t) const {
  if (k_ == nullptr) return kNever;
  if (presenting_) return t;
  if (o_.model == IssueModel::kOutstanding) return outstanding_can_present() ? t : kNever;
  if (!queue_.empty()) return t;
  const uint64_t earliest = last_issue_ != kNever && last_issue_ >= t ? t + 1 : t;
  uint64_t at = kNever;
  for (unsigned s = 0; s < slot_count_; ++s) {
    const Wave& w = slots_[s];
    if (slot_used_[s] && w.awaited == 0 && w.next < w.instructions.size()) at = std::min(at, std::max(earliest, w.ready_at));
  }
  return at;
}

bool CuTraffic::issuing(uint64_t t) const {
  if (o_.model == IssueModel::kOutstanding) return outstanding_can_present() || presented_first_at(t);
  return !finished() && !(was_stalled_ && stalled_since_ <= t);
}

bool CuTraffic::finished() const {
  if (k_ == nullptr) return true;
  if (presenting_ || !in_flight_.empty()) return false;
  if (o_.model == IssueModel::kOutstanding) return next_ >= stream_->size();
  return resident_ == 0 && next_waiting_ >= waiting_.size() && queue_.empty();
}

}  // namespace txgen::verif
