// The dhsl block's configuration rules, each with a bad value and the exact
// message, and the widths of seed 004's Table I configuration.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "txgen/config/parse.h"
#include "txgen/elab/dhsl.h"
#include "txgen/error.h"
#include "config_edit.h"

using nlohmann::json;

namespace {

json table1() {
  return json::parse(R"({
    "name": "t",
    "system": {"va_bits": 48, "page_bytes": 4096, "vmid_bits": 2, "vrf_bits": 2},
    "dhsl": {"policy": "mgvm", "chiplets": 4}})");
}

using txgen::test::with;

std::string error_of(const json& doc) { return txgen::test::error_of(doc, txgen::elab::elaborate_dhsl); }

}  // namespace

TEST(DhslConfig, TableOneDefaults) {
  const auto p = txgen::elab::elaborate_dhsl(txgen::config::parse_config(table1()));
  EXPECT_EQ(p.chiplets, 4u);
  EXPECT_EQ(p.chiplet_bits, 2u);
  EXPECT_EQ(p.vpn_bits, 36u);
  EXPECT_EQ(p.coarse_shift, 9u);  // 2 MB of 4 KB pages
  EXPECT_EQ(p.counter_bits, 32u);
  EXPECT_EQ(p.epoch_requests, 5000u);
  EXPECT_EQ(p.imbalance_num, 4u);
  EXPECT_EQ(p.imbalance_den, 5u);
}

TEST(DhslConfig, NonPowerOfTwoChipletsWork) {
  const auto p = txgen::elab::elaborate_dhsl(txgen::config::parse_config(with(table1(), "/dhsl/chiplets", 3)));
  EXPECT_EQ(p.chiplet_bits, 2u);
}

TEST(DhslConfig, PolicyChoice) {
  EXPECT_EQ(error_of(with(table1(), "/dhsl/policy", "smart")),
            "$.dhsl.policy = \"smart\": must be one of \"private\" \"shared_static\" \"mgvm_coarse\" \"mgvm\"");
}

TEST(DhslConfig, ChipletsRange) {
  EXPECT_EQ(error_of(with(table1(), "/dhsl/chiplets", 9)), "$.dhsl.chiplets = 9: must be an integer in [2, 8]");
}

TEST(DhslConfig, CoarseGranularityPowerOfTwo) {
  EXPECT_EQ(error_of(with(table1(), "/dhsl/coarse_bytes", 6291456)),
            "$.dhsl.coarse_bytes = 6291456: must be a power of two");
}

TEST(DhslConfig, CoarseGranularityNotBelowAPage) {
  json doc = with(table1(), "/system/page_bytes", 65536);
  doc = with(doc, "/dhsl/coarse_bytes", 16384);
  EXPECT_EQ(error_of(doc), "$.dhsl.coarse_bytes = 16384: smaller than a page (65536 B)");
}

TEST(DhslConfig, CoarseBlockWithinTheVaSpace) {
  json doc = with(table1(), "/system/va_bits", 32);
  doc = with(doc, "/dhsl/coarse_bytes", 4294967296);
  EXPECT_EQ(error_of(doc),
            "$.dhsl.coarse_bytes = 4294967296: a block of 2^20 pages covers the whole 32-bit VA space: "
            "every address would have one home");
}

TEST(DhslConfig, EpochFitsTheCounters) {
  json doc = with(table1(), "/dhsl/counter_bits", 8);
  EXPECT_EQ(error_of(doc), "$.dhsl.counter_bits = 8: too narrow for the default epoch of 5000 requests");
  doc = with(doc, "/dhsl/epoch_requests", 300);
  EXPECT_EQ(error_of(doc), "$.dhsl.epoch_requests = 300: must be an integer in [8, 255]");
}

// The digit-serial switch-back check takes J + 2 cycles (J = ceil(W / 4))
// and epochs are at least ceil(E / 2) cycles apart.
TEST(DhslConfig, EpochOutlastsTheSwitchBackCheck) {
  EXPECT_EQ(error_of(with(table1(), "/dhsl/epoch_requests", 21)),
            "$.dhsl.epoch_requests = 21: shorter than 22 requests: the switch-back check of 32-bit counters "
            "takes 10 cycles and must end before the next epoch");
  EXPECT_EQ(txgen::elab::elaborate_dhsl(txgen::config::parse_config(with(table1(), "/dhsl/epoch_requests", 22))).check_steps,
            8u);
  json narrow = with(with(table1(), "/dhsl/counter_bits", 8), "/dhsl/epoch_requests", 9);
  EXPECT_EQ(error_of(narrow),
            "$.dhsl.epoch_requests = 9: shorter than 10 requests: the switch-back check of 8-bit counters "
            "takes 4 cycles and must end before the next epoch");
}

TEST(DhslConfig, ThresholdBelowOne) {
  EXPECT_EQ(error_of(with(table1(), "/dhsl/hit_rate", json::parse(R"({"num": 10, "den": 10})"))),
            "$.dhsl.hit_rate.num = 10: must be below den (10): a threshold is a fraction below 1");
}
