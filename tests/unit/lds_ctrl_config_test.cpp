// The LDS controller's configuration rules (docs/blocks/lds_ctrl.md,
// "Feasibility"), each with a bad value and the exact message, and the
// elaborated widths of the seed-000 configurations.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "txgen/config/parse.h"
#include "txgen/elab/lds_ctrl.h"
#include "txgen/error.h"
#include "config_edit.h"

using nlohmann::json;

namespace {

// Seed 000's Table 1 LDS: 16 KB, 32-byte segments (codec 19/45, see bd_codec.md).
json lds16k() {
  return json::parse(R"({
    "name": "t",
    "system": {"va_bits": 48, "page_bytes": 4096, "vmid_bits": 2, "vrf_bits": 2},
    "lds": {"bytes": 16384, "segment_bytes": 32, "banks": 32, "bank_bytes": 4},
    "bd_codec": {"host": "lds", "tags": 3, "base_bits": 19, "delta_bits": 45,
                 "encoding": "prefix", "ids": "per_entry"},
    "translation": {"ppn_bits": 36, "perm_bits": 6},
    "lds_ctrl": {"max_work_groups": 16, "clear_bits_per_cycle": 64}})");
}

using txgen::test::with;

json without(json doc, const std::string& key) {
  doc.erase(key);
  return doc;
}

std::string error_of(const json& doc) { return txgen::test::error_of(doc, txgen::elab::elaborate_lds_ctrl); }

txgen::elab::LdsCtrlParams params_of(const json& doc) {
  return txgen::elab::elaborate_lds_ctrl(txgen::config::parse_config(doc));
}

}  // namespace

TEST(LdsCtrlConfig, Table1ShapeIsAccepted) {
  const auto p = params_of(lds16k());
  EXPECT_EQ(p.segments, 512u);
  EXPECT_EQ(p.segment_index_bits, 9u);
  EXPECT_EQ(p.va_tag_bits, 27u);
  EXPECT_EQ(p.ways, 3u);
  EXPECT_EQ(p.tag_words, 1u);
  EXPECT_EQ(p.rows, 128u);
  EXPECT_EQ(p.segments_per_row, 4u);
  EXPECT_EQ(p.banks_per_segment, 8u);
  EXPECT_EQ(p.clear_groups, 8u);
}

TEST(LdsCtrlConfig, SixtyFourByteSegmentsTakeTwoTagWords) {
  json doc = with(lds16k(), "/lds/bytes", 65536);
  doc = with(doc, "/lds/segment_bytes", 64);
  doc = with(doc, "/bd_codec/tags", 6);
  doc = with(doc, "/bd_codec/base_bits", 32);
  doc = with(doc, "/bd_codec/delta_bits", 96);
  const auto p = params_of(doc);
  EXPECT_EQ(p.tag_words, 2u);
  EXPECT_EQ(p.ways, 6u);
  EXPECT_EQ(p.va_tag_bits, 26u);
}

TEST(LdsCtrlConfig, DefaultsForBanksAndControllerFields) {
  json doc = lds16k();
  doc["lds"].erase("banks");
  doc["lds"].erase("bank_bytes");
  doc["lds_ctrl"] = json::object();
  const auto p = params_of(doc);
  EXPECT_EQ(p.banks, 32u);
  EXPECT_EQ(p.bank_bytes, 4u);
  EXPECT_EQ(p.max_work_groups, 16u);
  EXPECT_EQ(p.clear_bits, 64u);
}

TEST(LdsCtrlConfig, NeedsTranslationSection) {
  EXPECT_EQ(error_of(without(lds16k(), "translation")),
            "$.translation = (missing): required by $.lds_ctrl: the PPN and permission bits of a "
            "cached translation");
}

TEST(LdsCtrlConfig, NeedsLdsHostedCodec) {
  EXPECT_EQ(error_of(without(lds16k(), "bd_codec")),
            "$.bd_codec = (missing): $.lds_ctrl needs a bd_codec section with \"host\": \"lds\" (its "
            "tag word)");
}

TEST(LdsCtrlConfig, TranslationMustFitEightBytes) {
  EXPECT_EQ(error_of(with(lds16k(), "/translation/perm_bits", 29)),
            "$.translation.perm_bits = 29: ppn_bits + perm_bits = 65 exceeds the 64-bit translation word");
}

TEST(LdsCtrlConfig, BankBytesWholeWords) {
  EXPECT_EQ(error_of(with(lds16k(), "/lds/bank_bytes", 3)),
            "$.lds.bank_bytes = 3: must be 1, 2, 4 or 8: an 8-byte tag or translation word is whole banks");
}

TEST(LdsCtrlConfig, RowMustHoldASegment) {
  EXPECT_EQ(error_of(with(lds16k(), "/lds/banks", 4)),
            "$.lds.banks = 4: an SRAM row (banks x bank_bytes = 16 B) must hold a segment (32 B)");
}

TEST(LdsCtrlConfig, TagWordMustBeWholeWords) {
  json doc = with(lds16k(), "/lds/segment_bytes", 64);
  doc = with(doc, "/bd_codec/base_bits", 48);
  doc = with(doc, "/bd_codec/delta_bits", 48);
  EXPECT_EQ(error_of(doc),
            "$.bd_codec.delta_bits = 48: the tag word (base_bits + delta_bits = 96) must be whole "
            "8-byte LDS words for $.lds_ctrl");
}

TEST(LdsCtrlConfig, ClearWidthAtMostTheModeBits) {
  EXPECT_EQ(error_of(with(lds16k(), "/lds_ctrl/clear_bits_per_cycle", 1024)),
            "$.lds_ctrl.clear_bits_per_cycle = 1024: exceeds the 512 segments (mode bits) of the LDS");
}

TEST(LdsCtrlConfig, ClearWidthPowerOfTwo) {
  EXPECT_EQ(error_of(with(lds16k(), "/lds_ctrl/clear_bits_per_cycle", 48)),
            "$.lds_ctrl.clear_bits_per_cycle = 48: must be a power of two");
}

TEST(LdsCtrlConfig, WorkGroupsRange) {
  EXPECT_EQ(error_of(with(lds16k(), "/lds_ctrl/max_work_groups", 0)),
            "$.lds_ctrl.max_work_groups = 0: must be an integer in [1, 64]");
}

TEST(LdsCtrlConfig, UnknownControllerField) {
  EXPECT_EQ(error_of(with(lds16k(), "/lds_ctrl/ways", 3)), "$.lds_ctrl.ways = 3: unknown field");
}
