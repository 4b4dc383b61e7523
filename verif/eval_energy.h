// Energy per workload of the trace-driven evaluation (docs/energy.md): the
// translation structures' SRAM arrays from their access counts and the macro
// model's per-access energies and leakage (txgen/synth/sram_macro.h), and the
// page-walk memory reads and DRAM background power from a DDR3 device's
// datasheet currents, in DRAMPower's way.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tx_path_env.h"
#include "txgen/config/config.h"
#include "txgen/elab/tx_path.h"
#include "txgen/synth/sram_macro.h"

namespace txgen::verif {

// One DDR3 device as DRAMPower's memspec describes it, and its rank. Defaults:
// DRAMPower's MICRON_1Gb_DDR3-1600_8bit_G (Micron MT41J128M8, 1 Gb x8,
// DDR3-1600), eight to a 64-bit rank, so a 64-byte line is one BL8 burst.
struct DramDevice {
  double vdd_v = 1.5, tck_ns = 1.25;
  double idd0_ma = 70, idd2n_ma = 45, idd3n_ma = 45, idd4r_ma = 140;
  unsigned trc_clocks = 38, tras_clocks = 28, burst_clocks = 4;  // BL8: 4 clocks of data
  double io_mw = 4.6, term_read_mw = 15.5;                       // one device while it drives a burst
  unsigned devices_per_rank = 8;
};

// One closed-page 64-byte read of a rank: activate and precharge (IDD0 over
// tRC above the standby currents), the read burst (IDD4R above IDD3N) and
// the I/O and termination power during it, every device of the rank.
double dram_read_nj(const DramDevice& d);
// The rank's background power with its banks precharged (IDD2N), paid for
// the whole run whether or not anything is read.
double dram_background_mw(const DramDevice& d);

struct EnergyOptions {
  double period_ns = 2.5;            // the path's clock (constraints/, docs/synthesis.md)
  double dram_read_nj = 0;           // one page-walk read; 0: dram_read_nj(DramDevice{})
  double dram_background_mw = 0;     // per channel; 0: dram_background_mw(DramDevice{})
  unsigned dram_channels = 2;        // channels whose background counts (the generated IOMMU's pte_channels)
  unsigned walk_dram_reads = 1;      // behavioural L2-TLB: memory reads per walk
};

// One kind of array of a design: `count` identical macros.
struct EnergyArray {
  std::string name;  // "LDS bank", "tag array", "data array", "L2-TLB"
  unsigned count = 1;
  synth::SramFigures macro;
  bool lane_writes = false;  // a write enables one lane (an L2-TLB install: one way of the set)
  double write_pj() const { return lane_writes ? macro.lane_write_energy_pj : macro.write_energy_pj; }
};

// The arrays of the baseline or the path (tx_path's sram_arrays, the ones
// `txgen synth` adds) and the L2-TLB behind it, as one SRAM macro of its sets
// (each access reads or writes a whole set): the generated one's geometry
// when `iommu`, otherwise the behavioural one's (`l2_entries`, `l2_ways`).
std::vector<EnergyArray> energy_arrays(const config::Config& cfg, const elab::TxPathParams& p, bool baseline,
                                       const EvalOptions& o);

// A design's logic (L1-TLBs, the path's glue, the LDS and I-cache
// controllers) from a `txgen power` run of its module (docs/power.md): what it
// pays every cycle (the flip-flops' clock pins), its leakage, and its dynamic
// energy above that per translation request of that run.
struct LogicEnergy {
  bool known = false;
  double clock_pj_per_cycle = 0, leakage_mw = 0, request_pj = 0;
  std::string source;  // "<module> in <file>: <test>, <cycles> cycles"
};
// The entry of `module` in a <block>.power.json; throws std::runtime_error
// naming the file when it is unreadable, lacks the module, or the module's
// run had no translation request.
LogicEnergy logic_energy_of(const std::string& power_json, const std::string& module);

struct ArrayEnergy {
  std::string name;
  unsigned count = 0;
  uint64_t reads = 0, writes = 0;
  double dynamic_nj = 0, leakage_nj = 0;
  double total_nj() const { return dynamic_nj + leakage_nj; }
};

struct WorkloadEnergy {
  std::vector<ArrayEnergy> arrays;  // in energy_arrays' order
  bool logic_known = false;
  double logic_nj = 0;              // with a power run: clock pins, leakage and requests
  uint64_t dram_reads = 0;          // page-walk reads
  double dram_read_nj = 0, dram_background_nj = 0;
  double arrays_nj() const;
  double structures_nj() const { return arrays_nj() + logic_nj; }
  double dram_nj() const { return dram_read_nj + dram_background_nj; }
  double total_nj() const { return structures_nj() + dram_nj(); }
};

// The run's energy; throws std::runtime_error when `s` has no SRAM counts
// (an engine that cannot count them).
WorkloadEnergy workload_energy(const EvalStats& s, const std::vector<EnergyArray>& arrays, const LogicEnergy& logic,
                               const EnergyOptions& o);

}  // namespace txgen::verif

namespace txgen::verif {

// A design's arrays and logic.
struct DesignEnergy {
  std::vector<EnergyArray> arrays;
  LogicEnergy logic;
};

// One replay's row of the energy table.
struct EnergyRow {
  std::string workload, design, policy;  // design "baseline" or "path"
  EvalStats stats;
};

// eval_energy.md, .csv and .json in `out`: per replay its arrays' energy,
// page-walk DRAM and background, and each path row against its baseline's
// (same workload and policy), with each design's arrays and logic. Returns
// the markdown table.
std::string write_energy_tables(const std::string& out, const std::vector<EnergyRow>& rows,
                                const DesignEnergy& baseline, const DesignEnergy& path, const EnergyOptions& o);

}  // namespace txgen::verif
