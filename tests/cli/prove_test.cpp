// `txgen prove` end to end on the small formal configurations: every
// property of each block is proven by induction, a codec with a planted bug
// fails with a counterexample, and bad options are invalid input.
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli_support.h"

namespace fs = std::filesystem;
using nlohmann::json;
using txgen::test::read_file;
using txgen::test::run_txgen;
using txgen::test::source;
using txgen::test::TempDir;

namespace {

bool have_formal_tools() {
  return txgen::test::run("command -v yosys && command -v yosys-smtbmc && command -v z3").exit_code == 0;
}

// result of each property in prove.json, across the block's modules
std::map<std::string, std::string> results_of(const fs::path& out) {
  std::map<std::string, std::string> results;
  const json doc = json::parse(read_file(out / "prove.json"));
  for (const json& top : doc["results"])
    for (const json& p : top["properties"]) results[p["name"]] = p["result"];
  return results;
}

// Proves the block and expects every property proven, the named ones among them.
void expect_all_proven(const std::string& config, const std::string& block, const std::vector<std::string>& named) {
  if (!have_formal_tools()) GTEST_SKIP() << "no yosys-smtbmc/z3";
  TempDir dir("prove_" + block);
  const auto r = run_txgen("prove --require-proof --config " + source("tests/configs/" + config + ".json") +
                           " --block " + block + " --out " + dir.str("p"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto results = results_of(dir.path() / "p");
  for (const auto& [name, result] : results) EXPECT_EQ(result, "proven") << name;
  for (const auto& name : named) EXPECT_EQ(results.count(name), 1u) << name;
}

}  // namespace

TEST(Prove, BdCodecRoundTripAndDropMask) {
  expect_all_proven("lds_formal", "bd_codec", {"round_trip_when_fits", "kept_tags_round_trip", "drops_reported"});
}

TEST(Prove, LdsCtrlSegmentModes) {
  expect_all_proven("lds_formal", "lds_ctrl",
                    {"tx_write_never_ldsmode", "lookup_hit_only_from_tx", "allocation_done_ldsmode"});
}

TEST(Prove, IcacheTxNaiveLineKinds) {
  expect_all_proven("icache_formal_naive", "icache_tx",
                    {"fetch_hits_only_ic_lines", "lookup_hit_only_from_tx", "ifill_victim_by_order"});
}

TEST(Prove, IcacheTxTxFirstVictimOrder) {
  expect_all_proven("icache_formal_txfirst", "icache_tx",
                    {"fetch_hits_only_ic_lines", "lookup_hit_only_from_tx", "ifill_victim_by_order"});
}

TEST(Prove, WalkSchedDispatchCountAndAging) {
  expect_all_proven("walk_formal", "walk_sched",
                    {"dispatch_only_valid", "dispatch_to_free_walker", "count_matches_valid", "aging_bound"});
}

TEST(Prove, DhslTwoEpochRuleAndSaturation) {
  expect_all_proven("dhsl_small", "dhsl",
                    {"trigger_only_after_two_flagged_epochs", "back_only_after_two_balanced_epochs",
                     "counters_saturate"});
}

// The L2-TLB, the scheduler's own properties, then the IOMMU's walkers
// assuming them; FCFS with three walkers, and one walker over a two-level
// table behind one MSHR (no two MSHRs to hold one page).
TEST(Prove, IommuWalkersAndRequestsConserved) {
  std::vector<std::string> named = {"one_operation_per_set", "mshr_credit_is_free_less_lookups", "slot_in_one_place",
                                    "waiting_slot_has_unfilled_mshr", "requests_conserved", "buffer_never_overflows",
                                    "dispatch_to_idle_walker", "one_read_per_walker", "walk_level_in_range"};
  expect_all_proven("iommu_tiny", "iommu", named);
  named.push_back("mshrs_hold_distinct_pages");
  expect_all_proven("iommu_fcfs", "iommu", named);
}

// Generates the configuration's RTL into dir/rtl and replaces `good` in one
// module by `bad`.
void plant_bug(const TempDir& dir, const std::string& config, const std::string& module, const std::string& good,
               const std::string& bad) {
  ASSERT_EQ(run_txgen("gen --config " + config + " --out " + dir.str("rtl")).exit_code, 0);
  const fs::path file = dir.path() / "rtl" / (module + ".v");
  std::string text = read_file(file);
  const size_t at = text.find(good);
  ASSERT_NE(at, std::string::npos) << module << " no longer has \"" << good << "\"; update the planted bug";
  text.replace(at, good.size(), bad);
  std::ofstream(file, std::ios::binary) << text;
}

// A compressor that packs invalid tags (the valid gate of one lane removed)
// must fail the codec's properties with a counterexample trace.
TEST(Prove, PlantedCodecBugFailsWithCounterexample) {
  if (!have_formal_tools()) GTEST_SKIP() << "no yosys-smtbmc/z3";
  TempDir dir("prove_bug");
  const std::string config = source("tests/configs/lds_formal.json");
  plant_bug(dir, config, "bd_codec_lds_formal_pack", "assign keep_e2 = tag_valid_i[2] & fit_e2;",
            "assign keep_e2 = fit_e2;");
  const auto r = run_txgen("prove --config " + config + " --block bd_codec --rtl " + dir.str("rtl") + " --out " +
                           dir.str("p"));
  EXPECT_EQ(r.exit_code, 1) << r.output;
  const auto results = results_of(dir.path() / "p");
  EXPECT_EQ(results.at("invalid_tags_unpack_to_zero"), "FAILED");
  EXPECT_EQ(results.at("dropped_and_invalid_fields_zero"), "FAILED");
  EXPECT_EQ(results.at("reference_never_dropped"), "proven");
  EXPECT_NE(r.output.find("FAILED at step 0"), std::string::npos) << r.output;
  const fs::path trace = dir.path() / "p" / "bd_codec_lds_formal_pack" / "bmc_invalid_tags_unpack_to_zero.vcd";
  EXPECT_NE(read_file(trace).find("$enddefinitions"), std::string::npos) << trace;
}

// A walker that keeps wanting its read after the memory request register
// took it (the issue term removed) would read twice: one_read_per_walker
// fails with a trace (a dispatch takes 6 steps from reset, beyond the
// bounded check: the deeper search finds it), the level bound stays proven.
TEST(Prove, PlantedWalkerReissueFails) {
  if (!have_formal_tools()) GTEST_SKIP() << "no yosys-smtbmc/z3";
  TempDir dir("prove_walker_bug");
  const std::string config = source("tests/configs/iommu_fcfs.json");
  plant_bug(dir, config, "iommu_iommu_fcfs", "(walker_want_q[gk] & ~mq_issue[gk])", "walker_want_q[gk]");
  const auto r = run_txgen("prove --config " + config +
                           " --block iommu --property one_read_per_walker --property walk_level_in_range --rtl " +
                           dir.str("rtl") + " --out " + dir.str("p"));
  EXPECT_EQ(r.exit_code, 1) << r.output;
  const auto results = results_of(dir.path() / "p");
  EXPECT_EQ(results.at("one_read_per_walker"), "FAILED");
  EXPECT_EQ(results.at("walk_level_in_range"), "proven");
  EXPECT_NE(read_file(dir.path() / "p" / "iommu_iommu_fcfs" / "search_one_read_per_walker.vcd").find("$enddefinitions"),
            std::string::npos);
}

// An L2-TLB whose fill enters without looking for an operation of its set in
// the pipeline, and one whose lookups give their MSHR credit back when they
// allocate: each fails its property from reset.
TEST(Prove, PlantedL2TlbBugsFail) {
  if (!have_formal_tools()) GTEST_SKIP() << "no yosys-smtbmc/z3";
  const std::string config = source("tests/configs/iommu_tiny.json");
  struct Bug {
    std::string good, bad, fails;
  };
  const Bug bugs[] = {{"assign go_fill = (|fill_cand) & ~fill_busy;", "assign go_fill = (|fill_cand);",
                       "one_operation_per_set"},
                      {"((act_lookup & ~(|alloc)) | (|fill_free))", "(act_lookup | (|fill_free))",
                       "mshr_credit_is_free_less_lookups"}};
  for (const Bug& bug : bugs) {
    TempDir dir("prove_l2_bug");
    plant_bug(dir, config, "iommu_iommu_tiny_l2tlb", bug.good, bug.bad);
    const auto r = run_txgen("prove --config " + config + " --block iommu --property " + bug.fails + " --rtl " +
                             dir.str("rtl") + " --out " + dir.str("p"));
    EXPECT_EQ(r.exit_code, 1) << bug.bad << "\n" << r.output;
    EXPECT_EQ(results_of(dir.path() / "p").at(bug.fails), "FAILED") << bug.bad;
  }
}

TEST(Prove, UnknownPropertyIsInvalidInputAndLeavesNoOutput) {
  if (!have_formal_tools()) GTEST_SKIP() << "no yosys-smtbmc/z3";
  TempDir dir("prove_bad");
  const auto r = run_txgen("prove --config " + source("tests/configs/lds_formal.json") +
                           " --block bd_codec --property nope --out " + dir.str("p"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("--property = \"nope\": no such property; the block has: "), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(dir.path() / "p"));
}

TEST(Prove, BlockWithoutPropertiesIsInvalidInput) {
  TempDir dir("prove_none");
  const auto r = run_txgen("prove --config " + source("tests/configs/l1tlb_base.json") + " --block l1tlb --out " +
                           dir.str("p"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("--block = \"l1tlb\": states no formal properties"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(dir.path() / "p"));
}

// A fetch that may hit a Tx-mode line (way 0's mode gate removed) needs a
// Tx line installed first: more steps than the induction length, so the
// counterexample comes from the deeper search after induction fails.
TEST(Prove, PlantedFetchBugFailsBeyondTheInductionLength) {
  if (!have_formal_tools()) GTEST_SKIP() << "no yosys-smtbmc/z3";
  TempDir dir("prove_fetch_bug");
  const std::string config = source("tests/configs/icache_formal_naive.json");
  plant_bug(dir, config, "icache_tx_icache_formal_naive", "|(lv_q[3:0] & ~ltx_q[3:0] & s1_sel_q)",
            "|(lv_q[3:0] & s1_sel_q)");
  const auto r = run_txgen("prove --config " + config + " --block icache_tx --property fetch_hits_only_ic_lines --rtl " +
                           dir.str("rtl") + " --out " + dir.str("p"));
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_EQ(results_of(dir.path() / "p").at("fetch_hits_only_ic_lines"), "FAILED");
  const fs::path trace = dir.path() / "p" / "icache_tx_icache_formal_naive" / "search_fetch_hits_only_ic_lines.vcd";
  EXPECT_NE(read_file(trace).find("$enddefinitions"), std::string::npos) << trace;
}
