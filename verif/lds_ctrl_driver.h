// Transaction-level driving of the lds_ctrl co-simulation: blocking
// operations for directed tests (each cycle still goes through the lock-step
// harness) and the constrained-random traffic generator.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "cosim_util.h"
#include "lds_ctrl_harness.h"

namespace txgen::verif {

// One translation: key (VPN, VMID, VRF-ID) and its word (PPN, permissions).
struct LdsTranslation {
  uint64_t vpn = 0;
  uint32_t vmid = 0, vrf = 0;
  uint64_t ppn = 0, perm = 0;
  bool operator==(const LdsTranslation& o) const {
    return vpn == o.vpn && vmid == o.vmid && vrf == o.vrf && ppn == o.ppn && perm == o.perm;
  }
};

inline std::string format_translation(const LdsTranslation& t) {
  return "{vpn=" + to_hex(64, t.vpn) + " vmid=" + std::to_string(t.vmid) + " vrf=" +
         std::to_string(t.vrf) + " ppn=" + to_hex(64, t.ppn) + " perm=" + to_hex(64, t.perm) + "}";
}

// The word a translation carries in the tests: a function of its key, so any
// hit can be checked against the key alone.
inline LdsTranslation translation_for(const elab::LdsCtrlParams& p, uint64_t vpn, uint32_t vmid,
                                      uint32_t vrf) {
  const uint64_t h = (vpn * 0x9e3779b97f4a7c15ULL) ^ (uint64_t{vmid} << 7) ^ (uint64_t{vrf} << 13);
  return {vpn, vmid, vrf, (h >> 3) & low_mask(p.ppn_bits), (h >> 41) & low_mask(p.perm_bits)};
}

struct LdsLookupResult {
  bool hit = false;
  uint64_t ppn = 0, perm = 0;
  uint64_t latency = 0;  // cycles from the accept cycle to the first cycle the response is valid
};

template <class Dut>
class LdsDriver {
 public:
  explicit LdsDriver(LdsHarness<Dut>& h) : h_(h), p_(h.params()) { in_ = quiet(); }

  model::LdsCtrlIn quiet() const {
    model::LdsCtrlIn in;
    in.app_wdata = Bits(p_.row_bits);
    in.lk_resp_ready = true;
    in.vic_ready = true;
    return in;
  }
  model::LdsCtrlIn& in() { return in_; }
  const model::LdsCtrlOut& out() const { return out_; }
  uint64_t cycle() const { return h_.session().cycle(); }  // the cycle step() runs next
  uint64_t last() const { return cycle() - 1; }             // the cycle step() ran last

  const model::LdsCtrlOut& step() {
    out_ = h_.step(in_);
    collect_victim();
    return out_;
  }
  void steps(unsigned n) {
    for (unsigned i = 0; i < n; ++i) step();
  }

  // Reset for two cycles, then wait for the post-reset clear to finish.
  void reset() {
    in_ = quiet();
    in_.rst_n = false;
    steps(2);
    in_.rst_n = true;
    wait_idle();
  }

  void wait_idle(unsigned limit = 100000) {
    for (unsigned i = 0; i < limit; ++i) {
      if (h_.model().idle() && !out_.vic_valid) return;
      step();
    }
    h_.session().fail("engine", "idle", "busy after " + std::to_string(limit) + " cycles");
  }

  // --- blocking operations; each returns when the operation is complete ---

  LdsLookupResult lookup(uint64_t vpn, uint32_t vmid, uint32_t vrf) {
    in_.lk_valid = true;
    in_.lk_vpn = vpn;
    in_.lk_vmid = vmid;
    in_.lk_vrf = vrf;
    const uint64_t accept = until_fired([&] { return out_.lk_ready; });
    in_.lk_valid = false;
    while (!out_.lk_resp_valid) step();
    LdsLookupResult r{out_.lk_resp_hit, out_.lk_resp_ppn, out_.lk_resp_perm, last() - accept};
    step();  // lk_resp_ready is high: the response is taken
    wait_idle();
    return r;
  }

  // Returns the victims the fill produced, in output order.
  std::vector<LdsTranslation> fill(const LdsTranslation& t) {
    start_fill(t);
    wait_idle();
    return victims_;
  }

  // Returns once the fill is accepted, with the engine at work on it.
  void start_fill(const LdsTranslation& t) {
    victims_.clear();
    in_.fill_valid = true;
    in_.fill_vpn = t.vpn;
    in_.fill_vmid = t.vmid;
    in_.fill_vrf = t.vrf;
    in_.fill_ppn = t.ppn;
    in_.fill_perm = t.perm;
    fill_accept_ = until_fired([&] { return out_.fill_ready; });
    in_.fill_valid = false;
  }
  uint64_t last_fill_accept() const { return fill_accept_; }
  const std::vector<uint64_t>& victim_cycles() const { return victim_cycles_; }

  uint64_t work_group(bool free_op, uint32_t base, uint32_t size) {
    in_.wg_valid = true;
    in_.wg_free = free_op;
    in_.wg_base = base;
    in_.wg_size = size;
    const uint64_t accept = until_fired([&] { return out_.wg_ready; });
    in_.wg_valid = false;
    return cycles_to_pulse(&model::LdsCtrlOut::wg_done, accept);
  }

  uint64_t shootdown(bool all, uint64_t vpn, uint32_t vmid) {
    in_.sd_valid = true;
    in_.sd_all = all;
    in_.sd_vpn = vpn;
    in_.sd_vmid = vmid;
    const uint64_t accept = until_fired([&] { return out_.sd_ready; });
    in_.sd_valid = false;
    return cycles_to_pulse(&model::LdsCtrlOut::sd_done, accept);
  }

  void app_write(uint32_t row, uint64_t bank_en, const Bits& data) {
    app_access(true, row, bank_en, data);
    step();
    app_idle();
  }

  Bits app_read(uint32_t row, uint64_t bank_en) {
    app_access(false, row, bank_en, Bits(p_.row_bits));
    step();
    app_idle();
    step();  // read data is valid the cycle after the read
    if (!out_.app_rvalid) h_.session().fail("app_rvalid_o", "1", "0", "the cycle after a read");
    return out_.app_rdata;
  }

  void app_access(bool write, uint32_t row, uint64_t bank_en, const Bits& data) {
    in_.app_valid = true;
    in_.app_we = write;
    in_.app_row = row;
    in_.app_bank_en = bank_en;
    in_.app_wdata = data;
  }
  void app_idle() {
    in_.app_valid = false;
    in_.app_we = false;
    in_.app_bank_en = 0;
    in_.app_wdata = Bits(p_.row_bits);
  }

 private:
  // Steps until the request is accepted; returns the accept cycle.
  template <class Ready>
  uint64_t until_fired(Ready ready) {
    for (unsigned i = 0; i < 100000; ++i) {
      const uint64_t now = cycle();
      step();
      if (ready()) return now;
    }
    h_.session().fail("request", "accepted", "never accepted");
  }

  // Steps to the done pulse; returns its distance from the accept cycle.
  uint64_t cycles_to_pulse(bool model::LdsCtrlOut::*pulse, uint64_t accept) {
    while (!(out_.*pulse)) step();
    const uint64_t done = last() - accept;
    step();
    return done;
  }

  void collect_victim() {
    if (out_.vic_valid && in_.vic_ready) {
      victims_.push_back({out_.vic_vpn, out_.vic_vmid, out_.vic_vrf, out_.vic_ppn, out_.vic_perm});
      victim_cycles_.push_back(last());
    }
  }

  LdsHarness<Dut>& h_;
  const elab::LdsCtrlParams& p_;
  model::LdsCtrlIn in_;
  model::LdsCtrlOut out_;
  std::vector<LdsTranslation> victims_;
  std::vector<uint64_t> victim_cycles_;
  uint64_t fill_accept_ = 0;
};

// ---------------------------------------------------------------------------
// Constrained-random traffic: work-group alloc/free over a few hot segments,
// application reads and writes, lookups, fills and shootdowns on a small pool
// of VPNs whose VA tags share or differ in their compression prefix, random
// back-pressure and rare resets. Requests hold until accepted.

class LdsTraffic {
 public:
  // One reset is forced at a random cycle in the middle of `cycles`; others
  // come at random, rarely.
  LdsTraffic(const elab::LdsCtrlParams& p, uint64_t seed, uint64_t cycles) : p_(p), rng_(seed) {
    forced_reset_at_ = cycles / 4 + rng_.below(cycles / 2 + 1);
    for (unsigned i = 0; i < 6; ++i) hot_.push_back(static_cast<uint32_t>(rng_.below(p.segments)));
    const unsigned v = p.codec.value_bits, t = p.va_tag_bits;
    for (unsigned prefix = 0; prefix < 2; ++prefix)
      for (unsigned low = 0; low < 3; ++low) {
        const uint64_t pre = t > v ? (rng_.bits(t - v) << v) : 0;
        tags_.push_back((prefix ? pre : 0) | (rng_.bits(v) & low_mask(t)));
      }
  }

  model::LdsCtrlIn next(const model::LdsCtrlOut& prev_out);
  // Updates request state from the outputs of the cycle just stepped.
  void observe(const model::LdsCtrlIn& in, const model::LdsCtrlOut& out);
  // The key of the lookup whose response is pending (checked against translation_for).
  bool has_lookup_key() const { return resp_key_valid_; }
  LdsTranslation lookup_key() const { return resp_key_; }

 private:
  uint64_t random_vpn() {
    const uint32_t seg = rng_.chance(90) ? rng_.pick(hot_) : static_cast<uint32_t>(rng_.below(p_.segments));
    return (rng_.pick(tags_) << p_.segment_index_bits) | seg;
  }
  LdsTranslation random_translation() {
    return translation_for(p_, random_vpn(), static_cast<uint32_t>(rng_.below(2) & low_mask(p_.vmid_bits)),
                           static_cast<uint32_t>(rng_.below(2) & low_mask(p_.vrf_bits)));
  }
  void new_requests();
  void new_app_access();

  const elab::LdsCtrlParams& p_;
  Rng rng_;
  std::vector<uint32_t> hot_;
  std::vector<uint64_t> tags_;
  std::vector<std::pair<uint32_t, uint32_t>> allocations_;  // (base, size) issued and not freed
  std::vector<LdsTranslation> filled_;
  model::LdsCtrlIn in_;
  unsigned reset_cycles_ = 0;
  uint64_t cycle_ = 0, forced_reset_at_ = 0;
  bool resp_key_valid_ = false;
  LdsTranslation resp_key_, lk_key_;
};

inline model::LdsCtrlIn LdsTraffic::next(const model::LdsCtrlOut&) {
  ++cycle_;
  if (in_.app_wdata.width != p_.row_bits) in_.app_wdata = Bits(p_.row_bits);
  if (reset_cycles_ > 0) {
    --reset_cycles_;
    in_.rst_n = reset_cycles_ == 0;
  } else if (cycle_ == forced_reset_at_ || rng_.below(40000) == 0) {
    reset_cycles_ = 1 + static_cast<unsigned>(rng_.below(3));
    in_.rst_n = false;
  }
  new_requests();
  new_app_access();
  in_.lk_resp_ready = rng_.chance(75);
  in_.vic_ready = rng_.chance(70);
  return in_;
}

inline void LdsTraffic::new_requests() {
  if (!in_.wg_valid && rng_.chance(2)) {
    const bool can_free = !allocations_.empty();
    in_.wg_valid = true;
    in_.wg_free = can_free && (allocations_.size() >= p_.max_work_groups || rng_.chance(50));
    if (in_.wg_free) {
      const auto& a = allocations_[rng_.below(allocations_.size())];
      const bool bogus = rng_.chance(5);  // a free matching no allocation changes nothing
      in_.wg_base = a.first;
      in_.wg_size = bogus ? a.second + 1 : a.second;
    } else {
      in_.wg_base = rng_.chance(80) ? rng_.pick(hot_) : static_cast<uint32_t>(rng_.below(p_.segments));
      in_.wg_size = rng_.chance(5) ? 0 : 1 + static_cast<uint32_t>(rng_.below(rng_.chance(10) ? p_.segments : 4));
    }
  }
  if (!in_.sd_valid && rng_.chance(1)) {
    in_.sd_valid = true;
    in_.sd_all = rng_.below(30) == 0;
    const LdsTranslation t = filled_.empty() || rng_.chance(30) ? random_translation() : rng_.pick(filled_);
    in_.sd_vpn = t.vpn;
    in_.sd_vmid = t.vmid;
  }
  if (!in_.lk_valid && rng_.chance(25)) {
    lk_key_ = filled_.empty() || rng_.chance(30) ? random_translation() : rng_.pick(filled_);
    in_.lk_valid = true;
    in_.lk_vpn = lk_key_.vpn;
    in_.lk_vmid = lk_key_.vmid;
    in_.lk_vrf = lk_key_.vrf;
  }
  if (!in_.fill_valid && rng_.chance(25)) {
    const LdsTranslation t = random_translation();
    in_.fill_valid = true;
    in_.fill_vpn = t.vpn;
    in_.fill_vmid = t.vmid;
    in_.fill_vrf = t.vrf;
    in_.fill_ppn = t.ppn;
    in_.fill_perm = t.perm;
    if (filled_.size() < 64) filled_.push_back(t);
    else filled_[rng_.below(filled_.size())] = t;
  }
}

inline void LdsTraffic::new_app_access() {
  in_.app_valid = rng_.chance(rng_.chance(1) ? 100 : 30);
  if (!in_.app_valid) {
    in_.app_we = false;
    in_.app_bank_en = 0;
    return;
  }
  in_.app_we = rng_.chance(40);
  uint32_t seg = static_cast<uint32_t>(rng_.below(p_.segments));
  if (!allocations_.empty() && rng_.chance(85)) {  // applications write their own allocations
    const auto& a = rng_.pick(allocations_);
    seg = std::min(p_.segments - 1, a.first + static_cast<uint32_t>(rng_.below(std::max(1u, a.second))));
  } else if (rng_.chance(50)) {
    seg = rng_.pick(hot_);
  }
  in_.app_row = seg / p_.segments_per_row;
  in_.app_bank_en = rng_.bits(p_.banks);
  if (in_.app_bank_en == 0) in_.app_bank_en = 1;
  in_.app_wdata = rng_.random_bits(p_.row_bits);
}

inline void LdsTraffic::observe(const model::LdsCtrlIn& in, const model::LdsCtrlOut& out) {
  if (!in.rst_n) {  // a reset empties the allocation table; requests restart
    allocations_.clear();
    in_.wg_valid = in_.sd_valid = in_.lk_valid = in_.fill_valid = false;
    resp_key_valid_ = false;
    return;
  }
  if (in.wg_valid && out.wg_ready) {
    in_.wg_valid = false;
    if (!in.wg_free) {
      allocations_.push_back({in.wg_base, in.wg_size});
    } else {
      auto it = std::find(allocations_.begin(), allocations_.end(), std::make_pair(in.wg_base, in.wg_size));
      if (it != allocations_.end()) allocations_.erase(it);
    }
  }
  if (in.sd_valid && out.sd_ready) in_.sd_valid = false;
  if (in.lk_valid && out.lk_ready) {
    in_.lk_valid = false;
    resp_key_ = lk_key_;
    resp_key_valid_ = true;
  }
  if (in.fill_valid && out.fill_ready) in_.fill_valid = false;
  if (out.lk_resp_valid && in.lk_resp_ready) resp_key_valid_ = false;
}

}  // namespace txgen::verif
