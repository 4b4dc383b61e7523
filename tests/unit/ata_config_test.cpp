// The ata block's configuration rules, each with a bad value and the exact
// message, the widths of seed 003's Table II, and the storage / structure
// report (docs/blocks/ata.md).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "txgen/blocks/ata_emit.h"
#include "txgen/config/parse.h"
#include "txgen/elab/ata.h"
#include "txgen/error.h"
#include "config_edit.h"

using nlohmann::json;

namespace {

// seed 003 Table II: 10 cores per cluster, 64 KB 64-way L1s, 128 B lines, 32 B sectors.
json table2() {
  return json::parse(R"({
    "name": "t",
    "system": {"va_bits": 48, "page_bytes": 4096, "vmid_bits": 1, "vrf_bits": 1},
    "ata": {"cores": 10}})");
}

using txgen::test::with;

std::string error_of(const json& doc) { return txgen::test::error_of(doc, txgen::elab::elaborate_ata); }

txgen::elab::AtaParams elab(const json& doc) { return txgen::elab::elaborate_ata(txgen::config::parse_config(doc)); }

}  // namespace

TEST(AtaConfig, TableTwoDefaults) {
  const auto p = elab(table2());
  EXPECT_EQ(p.cores, 10u);
  EXPECT_EQ(p.ways, 64u);
  EXPECT_EQ(p.sets, 8u);  // 64 KB / (128 B x 64)
  EXPECT_EQ(p.sectors, 4u);
  EXPECT_EQ(p.offset_bits, 7u);
  EXPECT_EQ(p.sector_bits, 2u);
  EXPECT_EQ(p.set_bits, 3u);
  EXPECT_EQ(p.tag_bits, 30u);  // 40 - 7 - 3
  EXPECT_EQ(p.core_bits, 4u);
  EXPECT_EQ(p.way_bits, 6u);
  EXPECT_EQ(p.repl_bits_per_set, 64u * 6u);
  EXPECT_TRUE(p.aggregated());
  EXPECT_FALSE(p.round_robin());
  EXPECT_FALSE(p.plru());
}

TEST(AtaConfig, BadValuesNameTheField) {
  EXPECT_EQ(error_of(with(table2(), "/ata/cores", 17)), "$.ata.cores = 17: must be an integer in [1, 16]");
  EXPECT_EQ(error_of(with(table2(), "/ata/ways", 48)), "$.ata.ways = 48: must be a power of two");
  EXPECT_EQ(error_of(with(table2(), "/ata/sector_bytes", 4)),
            "$.ata.sector_bytes = 4: must be a power of two dividing $.ata.line_bytes (128) into at most 16 sectors");
  EXPECT_EQ(error_of(with(table2(), "/ata/l1_bytes", 4096)),
            "$.ata.l1_bytes = 4096: must be a power of two holding at least one set of $.ata.ways x "
            "$.ata.line_bytes = 8192 bytes");
  EXPECT_EQ(error_of(with(with(with(table2(), "/ata/addr_bits", 16), "/ata/l1_bytes", 1048576), "/ata/ways", 2)),
            "$.ata.addr_bits = 16: too narrow: 7 line-offset bits and 12 set bits leave no tag bit");
  EXPECT_EQ(error_of(with(table2(), "/ata/mode", "shared")),
            "$.ata.mode = \"shared\": must be one of \"ata\" \"private\"");
  EXPECT_EQ(error_of(with(table2(), "/ata/banks", 4)), "$.ata.banks = 4: unknown field");
}

TEST(AtaConfig, ReportCountsComparatorsAndSelectors) {
  const json r = txgen::blocks::ata::report_json(txgen::config::parse_config(table2()));
  // per array: 512 entries x (valid + 30 tag + 4 sectors + dirty) + 8 sets x 64 x 6 LRU bits
  EXPECT_EQ(r["storage_bits"]["per_array"]["total"], 512u * (1 + 30 + 4 + 1) + 8u * 384u);
  EXPECT_EQ(r["storage_bits"]["total"], 10u * (512u * 36 + 8u * 384u));
  EXPECT_EQ(r["structure"]["ata"]["comparator_groups"], 100u);
  EXPECT_EQ(r["structure"]["ata"]["tag_comparators"], 6400u);  // N x N x W
  EXPECT_EQ(r["structure"]["private"]["tag_comparators"], 640u);
  EXPECT_EQ(r["structure"]["ata"]["bits_per_selector"], 64u * (30 + 4 + 2));
  EXPECT_EQ(r["cycles"]["local_hit"], 4u);
  EXPECT_EQ(r["cycles"]["remote_hit"], 5u);
}
