// The evaluation's energy per workload (verif/eval_energy.h) against figures
// worked by hand: the DDR3 read and background from the datasheet currents,
// a run's array, page-walk and background energies from its counts, and the
// arrays a path configuration declares.
#include "eval_energy.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "txgen/config/parse.h"
#include "txgen/elab/tx_path.h"

namespace txgen::verif {
namespace {

TEST(EvalEnergy, Ddr3ReadAndBackgroundFromTheDatasheetCurrents) {
  const DramDevice d;
  // act + pre: (70 x 38 - (45 x 28 + 45 x 10)) mA clocks = 950 mA clocks
  //            x 1.5 V x 1.25 ns = 1781.25 pJ
  // read:      (140 - 45) mA x 1.5 V x 4 clocks x 1.25 ns = 712.5 pJ
  // I/O:       (4.6 + 15.5) mW x 5 ns = 100.5 pJ
  // per device 2594.25 pJ, a rank of 8: 20.754 nJ
  EXPECT_NEAR(dram_read_nj(d), 20.754, 1e-9);
  // IDD2N 45 mA x 1.5 V x 8 devices
  EXPECT_NEAR(dram_background_mw(d), 540.0, 1e-9);
}

// Two arrays with hand-set figures.
std::vector<EnergyArray> hand_arrays() {
  EnergyArray lds{"LDS bank", 2, {}, false};
  lds.macro.read_energy_pj = 2.0;
  lds.macro.write_energy_pj = 3.0;
  lds.macro.leakage_uw = 1000.0;  // 1 mW each
  EnergyArray l2{"L2-TLB", 1, {}, true};
  l2.macro.read_energy_pj = 10.0;
  l2.macro.write_energy_pj = 100.0;
  l2.macro.lane_write_energy_pj = 7.0;  // an install writes one way
  return {lds, l2};
}

EvalStats hand_run() {
  EvalStats s;
  s.sram_counted = true;
  s.cycles = 400000;  // 1 ms at 2.5 ns
  s.lds_bank_reads = 1000;
  s.lds_bank_writes = 10;
  s.l2_requests = 50;
  s.walks = 5;
  s.l2_victims = 3;
  s.pte_reads = 17;
  return s;
}

TEST(EvalEnergy, ArraysWalksAndBackgroundFromTheCounts) {
  EnergyOptions o;
  o.dram_read_nj = 20.0;
  o.dram_background_mw = 100.0;
  o.dram_channels = 2;
  o.walk_dram_reads = 2;
  const WorkloadEnergy w = workload_energy(hand_run(), hand_arrays(), LogicEnergy{}, o);
  ASSERT_EQ(w.arrays.size(), 2u);
  // LDS: (1000 x 2 + 10 x 3) pJ = 2.03 nJ; leakage 2 x 1 mW x 1 ms = 2 uJ
  EXPECT_EQ(w.arrays[0].reads, 1000u);
  EXPECT_NEAR(w.arrays[0].dynamic_nj, 2.03, 1e-9);
  EXPECT_NEAR(w.arrays[0].leakage_nj, 2000.0, 1e-6);
  // L2-TLB: 50 lookups x 10 pJ + (5 fills + 3 victims) x 7 pJ = 0.556 nJ
  EXPECT_EQ(w.arrays[1].writes, 8u);
  EXPECT_NEAR(w.arrays[1].dynamic_nj, 0.556, 1e-9);
  // behavioural L2: 5 walks x 2 reads x 20 nJ
  EXPECT_EQ(w.dram_reads, 10u);
  EXPECT_NEAR(w.dram_read_nj, 200.0, 1e-9);
  // 2 channels x 100 mW x 1 ms = 200 uJ
  EXPECT_NEAR(w.dram_background_nj, 200000.0, 1e-6);
  EXPECT_NEAR(w.total_nj(), 2.03 + 2000.0 + 0.556 + 200.0 + 200000.0, 1e-6);
}

TEST(EvalEnergy, TheGeneratedL2CountsItsPteReads) {
  EvalStats s = hand_run();
  s.generated_l2 = true;
  EnergyOptions o;
  o.dram_read_nj = 20.0;
  o.walk_dram_reads = 2;  // not used: the IOMMU's own reads
  EXPECT_EQ(workload_energy(s, hand_arrays(), LogicEnergy{}, o).dram_reads, 17u);
}

TEST(EvalEnergy, AnEngineWithoutSramCountsIsRefused) {
  EvalStats s = hand_run();
  s.sram_counted = false;
  EXPECT_THROW(workload_energy(s, hand_arrays(), LogicEnergy{}, EnergyOptions{}), std::runtime_error);
}

// A power report of one module as `txgen power` writes it (the fields read).
std::string power_report(const std::string& dir, unsigned requests) {
  std::filesystem::create_directories(dir);
  const std::string file = dir + "/tx_path.power.json";
  std::ofstream(file) << R"([{"module": "tx_path_x", "test": "T", "cycles": 1000, "period_ns": 2.5,
    "clock_pins_w": 0.4, "leakage_w": 0.001, "logic_w": 0.5,
    "operations": [{"name": "translation request", "count": )"
                      << requests << R"(, "energy_pj": 0, "active_energy_pj": 0}]}])";
  return file;
}

TEST(EvalEnergy, LogicFromAPowerRunPerCyclePerRequestAndLeakage) {
  const std::string file = power_report(testing::TempDir() + "/eval_energy_logic", 100);
  const LogicEnergy l = logic_energy_of(file, "tx_path_x");
  ASSERT_TRUE(l.known);
  EXPECT_NEAR(l.clock_pj_per_cycle, 1000.0, 1e-9);  // 0.4 W x 2.5 ns
  EXPECT_NEAR(l.leakage_mw, 1.0, 1e-12);
  // (0.5 - 0.4 - 0.001) W x 1000 cycles x 2.5 ns / 100 requests = 2475 pJ
  EXPECT_NEAR(l.request_pj, 2475.0, 1e-6);
  EvalStats s = hand_run();  // 1 ms
  s.requests = 200;
  const WorkloadEnergy w = workload_energy(s, {}, l, EnergyOptions{});
  // 400,000 cycles x 1 nJ + 200 x 2.475 nJ + 1 mW x 1 ms
  EXPECT_NEAR(w.logic_nj, 400000.0 + 495.0 + 1000.0, 1e-6);
  EXPECT_NEAR(w.structures_nj(), w.logic_nj, 1e-9);
}

TEST(EvalEnergy, APowerReportWithoutTheModuleOrItsRequestsIsRefused) {
  const std::string dir = testing::TempDir() + "/eval_energy_refused";
  EXPECT_THROW(logic_energy_of(power_report(dir, 100), "tx_path_y"), std::runtime_error);
  EXPECT_THROW(logic_energy_of(power_report(dir, 0), "tx_path_x"), std::runtime_error);
  EXPECT_THROW(logic_energy_of(dir + "/missing.json", "tx_path_x"), std::runtime_error);
}

TEST(EvalEnergy, ThePathsArraysAreItsSynthesizedOnesAndTheL2TlbsSets) {
  const config::Config cfg = config::load_config_file(std::string(TXGEN_SOURCE_DIR) + "/tests/configs/tx_path_small.json");
  const elab::TxPathParams p = elab::elaborate_tx_path(cfg);
  EvalOptions o;  // behavioural L2: 512 entries, 16 ways
  const std::vector<EnergyArray> path = energy_arrays(cfg, p, false, o);
  const std::vector<EnergyArray> base = energy_arrays(cfg, p, true, o);
  ASSERT_EQ(path.size(), 4u);
  EXPECT_EQ(path[0].name, "LDS bank");
  EXPECT_EQ(path[0].count, 32u);  // 16 banks x 2 CUs
  EXPECT_EQ(path[1].name, "tag array");
  EXPECT_EQ(path[3].name, "L2-TLB");
  // 32 sets of 16 ways; an entry: tag 20 - 5 = 15, VMID 1, PPN 20, permissions 4, valid 1 = 41 bits
  EXPECT_EQ(path[3].macro.geometry.words, 32u);
  EXPECT_EQ(path[3].macro.geometry.bits, 16u * 41u);
  EXPECT_LT(path[3].write_pj(), path[3].macro.write_energy_pj);  // one way of the set
  // the baseline's tag entries are the plain tags: narrower
  EXPECT_LT(base[1].macro.geometry.bits, path[1].macro.geometry.bits);
}

}  // namespace
}  // namespace txgen::verif
