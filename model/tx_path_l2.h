// Golden model of tx_path_NAME_l2_sys (docs/blocks/tx_path.md, "The generated
// L2-TLB and IOMMU inside"): the path's model and the L2-TLB / IOMMU model
// joined port to port, with the top's shootdown sequencer (the path first,
// then the L2-TLB).
#pragma once

#include <cstdint>

#include "model/iommu.h"
#include "model/tx_path.h"
#include "txgen/elab/iommu.h"
#include "txgen/elab/tx_path.h"

namespace txgen::model {

// The top's inputs: the path's (but its L2 answer and victim inputs, which
// the join drives) and the L2-TLB's memory side (sys; its path-side fields
// are the join's). rst_n is path.rst_n.
struct TxPathL2In {
  TxPathIn path;
  IommuSysIn sys;
};

// The top's outputs: path (its L2 answer and victim outputs are internal
// signals; sd_ready and sd_done are the top's) and sys (the memory port and
// the observed counts; the path side is internal).
struct TxPathL2Out {
  TxPathOut path;
  IommuSysOut sys;
};

struct TxPathL2Events {
  bool sd_path_started = false;  // the top took a shootdown
  bool sd_l2_started = false;    // the path was done: the L2-TLB's shootdown presented
  bool sd_l2_waited = false;     // presented, not taken (the L2-TLB waits for walks)
  bool sd_taken_while_busy = false;  // a shootdown held while one was in progress
};

class TxPathL2Model {
 public:
  TxPathL2Model(const elab::TxPathParams& path, const elab::IommuParams& io);
  TxPathL2In idle_inputs() const;
  TxPathL2Out make_outputs() const;
  // The cycle's outputs; the joined signals settle by evaluating both sides in
  // turn (std::logic_error if they do not settle: a combinational loop).
  void outputs(const TxPathL2In& in, TxPathL2Out& out);
  void posedge(const TxPathL2In& in);
  void step(const TxPathL2In& in, TxPathL2Out& out);

  const TxPathModel& path() const { return path_; }
  const IommuSysModel& l2() const { return sys_; }
  const TxPathL2Events& events() const { return events_; }
  bool shootdown_busy() const { return sd_busy_; }

 private:
  struct Join;  // the signals between the two sides in a cycle
  void settle(const TxPathL2In& in, TxPathL2Out& out);
  void path_inputs(const TxPathL2In& in, const IommuSysOut& l2);
  void l2_inputs(const TxPathL2In& in, const TxPathOut& path);
  void top_outputs(const TxPathL2In& in, TxPathL2Out& out) const;

  elab::TxPathParams pp_;
  elab::IommuParams io_;
  TxPathModel path_;
  IommuSysModel sys_;
  TxPathL2Events events_;
  // the sequencer
  bool sd_busy_ = false, sd_l2_go_ = false, key_all_ = false;
  uint64_t key_vpn_ = 0, key_vmid_ = 0;
  // the members' inputs of the cycle, as outputs() settled them
  TxPathIn pin_;
  IommuSysIn sin_;
  TxPathOut pout_;
  IommuSysOut sout_;
  bool settled_ = false;
};

}  // namespace txgen::model
