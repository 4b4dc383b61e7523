// Golden cycle model of the MGvm home-slice selection and dHSL switching logic
// (docs/blocks/dhsl.md): the dhsl_NAME_sys co-simulation top, plus the
// combinational HSL and routing functions for model-level tests. Written
// from the block document alone; shares only the elaborated widths
// (txgen/elab/dhsl.h) with the generator.
#pragma once

#include <cstdint>
#include <vector>

#include "txgen/elab/dhsl.h"

namespace txgen::model {

// Inputs of dhsl_NAME_sys for one cycle; per-chiplet vectors have N entries.
struct DhslIn {
  bool rst_n = true;
  std::vector<bool> rtu_in, rtu_out, l2_access, l2_hit;
  std::vector<uint32_t> l2_cid;
  bool launch = false;
  uint32_t launch_shift = 0;
  std::vector<bool> rtu_sync, l2_sync;
  std::vector<uint64_t> q_vpn;
};

struct DhslOut {
  bool mode = false;
  bool switch_pulse = false;
  std::vector<bool> trigger, possible, epoch, back;
  std::vector<bool> rtu_fine, l2_fine;
  std::vector<uint32_t> rtu_home;
  std::vector<bool> rtu_local, l2_walk;
};

// What the edge just stepped did, for coverage.
struct DhslEvents {
  unsigned epochs_ended = 0;     // RTU monitors that ended an epoch
  unsigned possible_flags = 0;   // of those, flagged a possible imbalance
  unsigned triggers = 0;
  unsigned balanced_epochs = 0;  // L2 monitors that found the epoch balanced
  unsigned backs = 0;
  bool gather = false;           // the CP gathered on a trigger
  bool decide_imbalance_high = false;  // a decision found imbalance and a high hit rate
  bool decide_first = false;     // ... the first of two (prevImbalance set)
  bool decide_reset = false;     // a decision that reset prevImbalance
  bool switch_to_fine = false;
  bool switch_to_coarse = false;
  bool counter_saturated = false;  // some counter held at 2^W - 1
  unsigned syncs = 0;            // HSL registers that took the CP's mode
  bool launch = false;
};

// home(vpn) of the HSL function for a register (fine, shift).
uint32_t dhsl_home(const elab::DhslParams& p, uint64_t vpn, bool fine, uint32_t shift, uint32_t local);

class DhslModel {
 public:
  explicit DhslModel(const elab::DhslParams& p);
  DhslIn idle_inputs() const;  // every vector sized N, all zero
  DhslOut outputs(const DhslIn& in) const;
  void outputs(const DhslIn& in, DhslOut& out) const;  // no allocation once out is sized
  void posedge(const DhslIn& in);
  const DhslEvents& events() const { return events_; }
  const elab::DhslParams& params() const { return p_; }

 private:
  elab::DhslParams p_;
  DhslEvents events_;

  // RTU monitor of one chiplet (W-bit counters, 1-bit streak and pulses).
  struct Rtu {
    uint32_t epoch = 0, in = 0, out = 0, prev_in = 0, prev_out = 0;
    bool streak = false, epoch_p = false, trig = false;
  };
  // L2-slice monitor of one chiplet. The balance check is one countdown:
  // check_left = J + 2 at the epoch edge X, the decision at the edge where it
  // is 1 (X + J + 2), 0 when no check is in flight.
  struct L2 {
    uint32_t hits = 0, acc = 0, prev_hits = 0, prev_acc = 0;
    std::vector<uint32_t> cnt, prev_cnt;  // N counters each
    unsigned check_left = 0;
    bool streak = false, back = false;
  };
  // HSL register (fine_q, shift_q).
  struct Reg {
    bool fine = false;
    uint32_t shift = 0;
  };
  // Command-processor decision unit: Arm -> armed, Gather -> pending with the
  // snapshot (N values of each input) and decide_left = J + 2, Decide at the
  // edge where decide_left is 1 (T + J + 3).
  struct Cp {
    bool mode = false, prev_imb = false, armed = false, pending = false, sw = false;
    unsigned decide_left = 0;
    std::vector<uint32_t> prev_in, prev_hits, prev_acc;  // N each
  };
  struct State {
    std::vector<Rtu> rtu;
    std::vector<L2> l2;
    std::vector<Reg> rtu_reg, l2_reg;
    Cp cp;
  };

  void validate() const;
  void check_inputs(const DhslIn& in) const;
  uint32_t sat_add(uint32_t x, bool inc, bool& clipped) const;
  void step_registers(const DhslIn& in, State& nx);
  void step_rtu(unsigned c, const DhslIn& in, State& nx, bool& clipped);
  void step_l2(unsigned c, const DhslIn& in, State& nx, bool& clipped);
  bool l2_balanced(const L2& l) const;
  void l2_decide(const L2& l, L2& q);
  void step_cp(State& nx);
  void cp_gather(Cp& q);
  void cp_decide(const Cp& cp, Cp& q);
  // Self-check after every edge: every W-bit counter and snapshot value
  // <= 2^W - 1, countdowns within J + 2 and consistent with their flags;
  // throws std::logic_error otherwise.
  void check_state() const;

  uint32_t cmax_ = 0;  // 2^W - 1
  State reset_;
  State s_;
  State next_;                  // the state after the edge, built in kept storage
  std::vector<uint32_t> cnt1_;  // step_l2's counters after this cycle's access
};

}  // namespace txgen::model
