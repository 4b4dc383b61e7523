// The walk_sched block's configuration rules, each with a bad value and the
// exact message, and the widths of seed 002's Table I configuration.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "txgen/config/parse.h"
#include "txgen/elab/walk_sched.h"
#include "txgen/error.h"
#include "config_edit.h"

using nlohmann::json;

namespace {

json table1() {
  return json::parse(R"({
    "name": "t",
    "system": {"va_bits": 48, "page_bytes": 4096, "vmid_bits": 2, "vrf_bits": 2},
    "walk_sched": {"policy": "simt"}})");
}

using txgen::test::with;

std::string error_of(const json& doc) { return txgen::test::error_of(doc, txgen::elab::elaborate_walk_sched); }

}  // namespace

TEST(WalkSchedConfig, TableOneDefaults) {
  const auto p = txgen::elab::elaborate_walk_sched(txgen::config::parse_config(table1()));
  EXPECT_EQ(p.entries, 256u);
  EXPECT_EQ(p.index_bits, 8u);
  EXPECT_EQ(p.count_bits, 9u);
  EXPECT_EQ(p.walkers, 8u);
  EXPECT_EQ(p.walker_bits, 3u);
  EXPECT_EQ(p.vpn_bits, 36u);
  EXPECT_EQ(p.level_bits, 9u);
  EXPECT_EQ(p.pwc_tag_bits, (std::vector<unsigned>{9, 18, 27}));
  EXPECT_EQ(p.score_bits, 9u);    // scores up to 64 x 4 = 256
  EXPECT_EQ(p.credit_bits, 21u);  // 2,000,000 passes
  EXPECT_EQ(p.select_latency, 8u);
}

TEST(WalkSchedConfig, EntriesPowerOfTwo) {
  EXPECT_EQ(error_of(with(table1(), "/walk_sched/entries", 100)),
            "$.walk_sched.entries = 100: must be a power of two");
}

TEST(WalkSchedConfig, OnePwcPerUpperLevel) {
  EXPECT_EQ(error_of(with(table1(), "/walk_sched/pwc_entries", json::array({4, 8}))),
            "$.walk_sched.pwc_entries = 2 levels: must list one PWC per upper page-table level (3)");
  EXPECT_EQ(error_of(with(table1(), "/walk_sched/pwc_entries", json::array({4, 12, 32}))),
            "$.walk_sched.pwc_entries[1] = 12: must be a power of two in [1, 64]");
}

TEST(WalkSchedConfig, LevelsFitTheVpn) {
  json doc = with(with(table1(), "/system/va_bits", 32), "/walk_sched/levels", 5);
  doc = with(doc, "/walk_sched/pwc_entries", json::array({4, 4, 8, 32}));
  EXPECT_EQ(error_of(doc),
            "$.walk_sched.levels = 5: a 20-bit VPN cannot hold 4 lower levels of 9 index bits and a root index");
}

TEST(WalkSchedConfig, PolicyIsNamed) {
  EXPECT_EQ(error_of(with(table1(), "/walk_sched/policy", "sjf")),
            "$.walk_sched.policy = \"sjf\": must be one of \"fcfs\" \"random\" \"simt\"");
}
