// Every configuration rule, each with a bad value and the exact message.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "txgen/config/parse.h"
#include "txgen/elab/bd_codec.h"
#include "txgen/error.h"

using nlohmann::json;

namespace {

json lds_config() {
  return json::parse(R"({
    "name": "t",
    "system": {"va_bits": 48, "page_bytes": 4096, "vmid_bits": 2, "vrf_bits": 2},
    "lds": {"bytes": 65536, "segment_bytes": 32},
    "icache": {"bytes": 16384, "ways": 8, "line_bytes": 64, "tx_index": "set"},
    "bd_codec": {"host": "lds", "tags": 3, "base_bits": 16, "delta_bits": 48,
                 "encoding": "prefix", "ids": "per_entry"}})");
}

json with(json doc, const std::string& pointer, const json& value) {
  doc[json::json_pointer(pointer)] = value;
  return doc;
}

json without(json doc, const std::string& parent, const std::string& key) {
  doc[json::json_pointer(parent)].erase(key);
  return doc;
}

// Parses and elaborates; returns the error message, or "" when accepted.
std::string error_of(const json& doc) {
  try {
    const auto cfg = txgen::config::parse_config(doc);
    txgen::elab::elaborate_bd_codec(cfg);
  } catch (const txgen::ConfigError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(ConfigValidation, ShippedShapeIsAccepted) { EXPECT_EQ(error_of(lds_config()), ""); }

TEST(ConfigValidation, RootMustBeObject) { EXPECT_EQ(error_of(json::array()), "$ = []: must be an object"); }

TEST(ConfigValidation, MissingRequiredField) {
  EXPECT_EQ(error_of(without(lds_config(), "/system", "va_bits")),
            "$.system.va_bits = (missing): required field");
}

TEST(ConfigValidation, UnknownFieldIsRejected) {
  EXPECT_EQ(error_of(with(lds_config(), "/bd_codec/tag", 3)), "$.bd_codec.tag = 3: unknown field");
}

TEST(ConfigValidation, NameMustBeIdentifier) {
  EXPECT_EQ(error_of(with(lds_config(), "/name", "My-LDS")),
            "$.name = \"My-LDS\": must be a lower-case identifier ([a-z][a-z0-9_]*, at most 40 "
            "characters), it is part of every module name");
}

TEST(ConfigValidation, NameMustNotHaveDoubleUnderscore) {
  EXPECT_EQ(error_of(with(lds_config(), "/name", "a__b")),
            "$.name = \"a__b\": must be a lower-case identifier ([a-z][a-z0-9_]*, at most 40 "
            "characters), it is part of every module name; no \"__\" and no trailing '_'");
}

TEST(ConfigValidation, IntegerFieldRejectsString) {
  EXPECT_EQ(error_of(with(lds_config(), "/system/va_bits", "48")),
            "$.system.va_bits = \"48\": must be an integer");
}

TEST(ConfigValidation, VaBitsRange) {
  EXPECT_EQ(error_of(with(lds_config(), "/system/va_bits", 65)),
            "$.system.va_bits = 65: must be an integer in [16, 64]");
}

TEST(ConfigValidation, NegativeIntegerIsOutOfRange) {
  EXPECT_EQ(error_of(with(lds_config(), "/system/vmid_bits", -1)),
            "$.system.vmid_bits = -1: must be an integer in [1, 8]");
}

TEST(ConfigValidation, PageSizeMustBeSupported) {
  EXPECT_EQ(error_of(with(lds_config(), "/system/page_bytes", 8192)),
            "$.system.page_bytes = 8192: must be 4096, 65536 or 2097152 (4 KB, 64 KB, 2 MB pages)");
}

TEST(ConfigValidation, VrfBitsRange) {
  EXPECT_EQ(error_of(with(lds_config(), "/system/vrf_bits", 9)),
            "$.system.vrf_bits = 9: must be an integer in [1, 8]");
}

TEST(ConfigValidation, LdsBytesPowerOfTwo) {
  EXPECT_EQ(error_of(with(lds_config(), "/lds/bytes", 49152)),
            "$.lds.bytes = 49152: must be a power of two");
}

TEST(ConfigValidation, LdsSegmentBytes) {
  EXPECT_EQ(error_of(with(lds_config(), "/lds/segment_bytes", 48)),
            "$.lds.segment_bytes = 48: must be 32 or 64");
}

TEST(ConfigValidation, IcacheWaysPowerOfTwo) {
  EXPECT_EQ(error_of(with(lds_config(), "/icache/ways", 5)), "$.icache.ways = 5: must be a power of two");
}

TEST(ConfigValidation, IcacheLineBytesRange) {
  EXPECT_EQ(error_of(with(lds_config(), "/icache/line_bytes", 512)),
            "$.icache.line_bytes = 512: must be an integer in [16, 256]");
}

TEST(ConfigValidation, IcacheMustHoldOneSet) {
  json doc = with(lds_config(), "/icache/bytes", 1024);
  doc = with(doc, "/icache/ways", 32);
  EXPECT_EQ(error_of(doc), "$.icache.bytes = 1024: must hold at least one set: ways x line_bytes = 2048");
}

TEST(ConfigValidation, IcacheTxIndexChoice) {
  EXPECT_EQ(error_of(with(lds_config(), "/icache/tx_index", "hashed")),
            "$.icache.tx_index = \"hashed\": must be one of \"direct_mapped\" \"set\"");
}

TEST(ConfigValidation, CodecHostChoice) {
  EXPECT_EQ(error_of(with(lds_config(), "/bd_codec/host", "l2")),
            "$.bd_codec.host = \"l2\": must be one of \"lds\" \"icache\"");
}

TEST(ConfigValidation, CodecHostNeedsItsSection) {
  EXPECT_EQ(error_of(without(lds_config(), "", "lds")),
            "$.bd_codec.host = \"lds\": names the LDS, but there is no $.lds section");
  json doc = with(without(lds_config(), "", "icache"), "/bd_codec/host", "icache");
  EXPECT_EQ(error_of(doc), "$.bd_codec.host = \"icache\": names the I-cache, but there is no $.icache section");
}

TEST(ConfigValidation, TagsRange) {
  EXPECT_EQ(error_of(with(lds_config(), "/bd_codec/tags", 1)),
            "$.bd_codec.tags = 1: must be an integer in [2, 16]");
}

TEST(ConfigValidation, BaseBitsRange) {
  EXPECT_EQ(error_of(with(lds_config(), "/bd_codec/base_bits", 0)),
            "$.bd_codec.base_bits = 0: must be an integer in [1, 256]");
}

TEST(ConfigValidation, DeltaBitsMultipleOfTags) {
  EXPECT_EQ(error_of(with(lds_config(), "/bd_codec/delta_bits", 50)),
            "$.bd_codec.delta_bits = 50: must be a multiple of $.bd_codec.tags (3): each entry owns "
            "delta_bits / tags bits");
}

TEST(ConfigValidation, EncodingChoice) {
  EXPECT_EQ(error_of(with(lds_config(), "/bd_codec/encoding", "bdi")),
            "$.bd_codec.encoding = \"bdi\": must be one of \"prefix\" \"arith\"");
}

TEST(ConfigValidation, IdsChoice) {
  EXPECT_EQ(error_of(with(lds_config(), "/bd_codec/ids", "none")),
            "$.bd_codec.ids = \"none\": must be one of \"per_entry\" \"shared\"");
}

TEST(ConfigValidation, CompareChoice) {
  EXPECT_EQ(error_of(with(lds_config(), "/bd_codec/compare", "tree")),
            "$.bd_codec.compare = \"tree\": must be one of \"mux\" \"pairwise\"");
}

TEST(ConfigValidation, CompareDefaultsToPairwise) {
  const auto p = txgen::elab::elaborate_bd_codec(txgen::config::parse_config(lds_config()));
  EXPECT_EQ(p.compare, txgen::config::CompareStructure::Pairwise);
}

// ---- elaboration: budgets the documents state -------------------------------

TEST(ConfigElaboration, NoVaTagBitLeft) {
  json doc = with(lds_config(), "/system/va_bits", 23);
  EXPECT_EQ(error_of(doc),
            "$.system.va_bits = 23: leaves no VA tag bit: 23 - 12 page-offset bits - 11 index bits "
            "(log2(2048 LDS segments)) = 0");
}

TEST(ConfigElaboration, IcacheDocumentBudgetCannotHoldPerEntryIds) {
  json doc = with(lds_config(), "/bd_codec/host", "icache");
  doc = with(doc, "/bd_codec/tags", 8);
  doc = with(doc, "/bd_codec/base_bits", 32);
  doc = with(doc, "/bd_codec/delta_bits", 64);
  EXPECT_EQ(error_of(doc),
            "$.bd_codec.delta_bits = 64: too small: each of the 8 entries gets 64 / 8 = 8 bits, its "
            "metadata takes valid 1 + LRU 3 + VMID 2 + VRF 2 = 8, leaving 0 VA-tag bits where at "
            "least 3 are needed to tell 8 tags apart (ids: \"shared\" moves VMID/VRF into the base)");
}

TEST(ConfigElaboration, ArithNeedsWholeTagInBase) {
  EXPECT_EQ(error_of(with(lds_config(), "/bd_codec/encoding", "arith")),
            "$.bd_codec.base_bits = 16: too small: the arith encoding keeps the whole 25-bit VA tag "
            "in the base, 25 bits in all");
}

TEST(ConfigElaboration, Table1LdsWithDocumentBudgetIsInfeasible) {
  EXPECT_EQ(error_of(with(lds_config(), "/lds/bytes", 16384)),
            "$.bd_codec.base_bits = 16: too small: the prefix encoding keeps 27 - 9 = 18 VA-tag bits "
            "in the base, 18 bits in all");
}

TEST(ConfigElaboration, SharedIdsCountInTheBase) {
  json doc = with(lds_config(), "/lds/bytes", 16384);
  doc = with(doc, "/bd_codec/ids", "shared");
  EXPECT_EQ(error_of(doc),
            "$.bd_codec.base_bits = 16: too small: the prefix encoding keeps 27 - 13 = 14 VA-tag bits "
            "in the base, plus VMID 2 + VRF 2, 18 bits in all");
}

TEST(ConfigElaboration, LdsSegmentMustHoldTranslationsAndTags) {
  EXPECT_EQ(error_of(with(lds_config(), "/bd_codec/base_bits", 17)),
            "$.bd_codec.tags = 3: does not fit an LDS segment: 3 translations x 64 bits + 65 tag "
            "bits > 256 bits of a 32-byte segment");
}

TEST(ConfigElaboration, IcacheLineMustHoldTranslations) {
  json doc = with(lds_config(), "/bd_codec/host", "icache");
  doc = with(doc, "/icache/line_bytes", 32);
  doc = with(doc, "/bd_codec/tags", 8);
  doc = with(doc, "/bd_codec/delta_bits", 64);
  doc = with(doc, "/bd_codec/base_bits", 32);
  doc = with(doc, "/bd_codec/ids", "shared");
  EXPECT_EQ(error_of(doc), "$.bd_codec.tags = 8: does not fit an I-cache line: 8 translations x 64 bits > 256 bits");
}

TEST(ConfigElaboration, PresetWidthsMatchTheDocuments) {
  const auto p = txgen::elab::elaborate_bd_codec(txgen::config::parse_config(lds_config()));
  EXPECT_EQ(p.va_tag_bits, 25u);   // seed 000 section 4.2.4
  EXPECT_EQ(p.raw_tag_bits, 32u);  // Fig. 7a
  EXPECT_EQ(p.value_bits, 9u);
  EXPECT_EQ(p.base_value_bits, 16u);
  EXPECT_EQ(p.packed_bits, 64u);
  json ic = with(lds_config(), "/bd_codec/host", "icache");
  ic = with(ic, "/bd_codec/tags", 8);
  ic = with(ic, "/bd_codec/base_bits", 32);
  ic = with(ic, "/bd_codec/delta_bits", 64);
  ic = with(ic, "/bd_codec/ids", "shared");
  const auto q = txgen::elab::elaborate_bd_codec(txgen::config::parse_config(ic));
  EXPECT_EQ(q.va_tag_bits, 31u);   // 36 - 5 set-index bits
  EXPECT_EQ(q.raw_tag_bits, 39u);  // Fig. 10b
  EXPECT_EQ(q.value_bits, 4u);
  EXPECT_EQ(q.base_used_bits, 31u);
  EXPECT_EQ(q.packed_bits, 96u);
  const auto dm = txgen::elab::elaborate_bd_codec(
      txgen::config::parse_config(with(ic, "/icache/tx_index", "direct_mapped")));
  EXPECT_EQ(dm.va_tag_bits, 28u);  // Fig. 9 direct-mapped: 8 index bits
}
