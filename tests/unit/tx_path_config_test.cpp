// The tx_path block's configuration rules (docs/blocks/tx_path.md,
// "Organisation"): the member blocks elaborate from the derived
// configurations, their errors name the path's fields, and the path's own
// widths and reach come out of seed 000's Table 1.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "txgen/config/parse.h"
#include "txgen/elab/tx_path.h"
#include "txgen/error.h"
#include "config_edit.h"

using nlohmann::json;

namespace {

json table1() {
  return txgen::config::read_json_file(std::string(TXGEN_SOURCE_DIR) + "/configs/seed000_table1_path.json");
}

using txgen::test::with;

std::string error_of(const json& doc) { return txgen::test::error_of(doc, txgen::elab::elaborate_tx_path); }

txgen::elab::TxPathParams elab(const json& doc) {
  return txgen::elab::elaborate_tx_path(txgen::config::parse_config(doc));
}

}  // namespace

TEST(TxPathConfig, TableOneMembersAndWidths) {
  const auto p = elab(table1());
  EXPECT_EQ(p.module_prefix, "tx_path_seed000_table1_path");
  EXPECT_EQ(p.cus, 8u);
  EXPECT_EQ(p.sharers, 4u);
  EXPECT_EQ(p.icaches, 2u);
  EXPECT_EQ(p.l1.module_prefix, "l1tlb_seed000_table1_path");
  EXPECT_EQ(p.l1.cus, 8u);
  EXPECT_EQ(p.l1.tlbs, 8u);
  EXPECT_EQ(p.l1.clusters, 8u);
  EXPECT_EQ(p.l1.ways, 32u);
  EXPECT_EQ(p.l1.sets, 1u);
  EXPECT_EQ(p.lds.module_prefix, "lds_ctrl_seed000_table1_path_lds");
  EXPECT_EQ(p.lds.codec.module_prefix, "bd_codec_seed000_table1_path_lds");
  EXPECT_EQ(p.ic.module_prefix, "icache_tx_seed000_table1_path_ic");
  EXPECT_EQ(p.vpn_bits, 36u);
  EXPECT_EQ(p.l1_tag_bits, 2u);  // 4 MSHRs
  EXPECT_EQ(p.cu_bits, 3u);
  EXPECT_EQ(p.l2_tag_bits, 5u);
  EXPECT_EQ(p.count_bits, 2u);  // 0 .. 2
  // reach: 32 L1 entries per CU, 512 segments x 3 ways per LDS, 256 lines x 8 per I-cache
  EXPECT_EQ(p.l1_entries, 32u);
  EXPECT_EQ(p.lds_entries, 1536u);
  EXPECT_EQ(p.icache_entries, 2048u);
}

TEST(TxPathConfig, SharersMustDivideTheCus) {
  EXPECT_EQ(error_of(with(table1(), "/tx_path/icache_tx/sharers", 3)),
            "$.tx_path.icache_tx.sharers = 3: must divide $.tx_path.cus (8): each I-cache serves sharers CUs");
}

TEST(TxPathConfig, MemberErrorsNameThePathsFields) {
  // Table 1's LDS with Fig. 7's 16/48 word cannot hold 27-bit tags (docs/blocks/bd_codec.md)
  const std::string lds = error_of(with(with(table1(), "/tx_path/lds_codec/base_bits", 16), "/tx_path/lds_codec/delta_bits", 48));
  EXPECT_EQ(lds.rfind("$.tx_path.lds_codec", 0), 0u) << lds;
  EXPECT_EQ(lds.find("$.bd_codec"), std::string::npos) << lds;
  json no_codec = table1();
  no_codec["tx_path"].erase("icache_codec");
  const std::string ic = error_of(no_codec);
  EXPECT_NE(ic.find("$.tx_path.icache_codec"), std::string::npos) << ic;
  EXPECT_EQ(ic.find("$.bd_codec"), std::string::npos) << ic;
}

TEST(TxPathConfig, FieldRules) {
  EXPECT_EQ(error_of(with(table1(), "/tx_path/cus", 6)), "$.tx_path.cus = 6: must be a power of two");
  EXPECT_EQ(error_of(with(table1(), "/tx_path/victim_queue", 0)),
            "$.tx_path.victim_queue = 0: must be an integer in [1, 8]");
  EXPECT_EQ(error_of(with(table1(), "/tx_path/wire_latency/lds", 1024)),
            "$.tx_path.wire_latency.lds = 1024: must be an integer in [0, 1023]");
  EXPECT_EQ(error_of(with(table1(), "/tx_path/promotion", "swap")),
            "$.tx_path.promotion = \"swap\": must be one of \"move\" \"copy\"");
  EXPECT_EQ(error_of(with(table1(), "/tx_path/l1tlb/sets", 2)), "$.tx_path.l1tlb.sets = 2: unknown field");
  EXPECT_EQ(error_of(with(table1(), "/tx_path/l1tlb/latency", "gem5")),
            "$.tx_path.l1tlb.latency = \"gem5\": must be one of \"rtl\" \"document\"");
  json no_lds = table1();
  no_lds.erase("lds");
  EXPECT_EQ(error_of(no_lds), "$.lds = (missing): required by $.tx_path (the structures on the path)");
}

TEST(TxPathConfig, SmallConfigurationsElaborate) {
  for (const char* name : {"tx_path_small", "tx_path_quad"}) {
    const auto p = elab(txgen::config::read_json_file(std::string(TXGEN_SOURCE_DIR) + "/tests/configs/" + name + ".json"));
    EXPECT_EQ(p.icaches * p.sharers, p.cus) << name;
  }
  const auto q = elab(txgen::config::read_json_file(std::string(TXGEN_SOURCE_DIR) + "/tests/configs/tx_path_quad.json"));
  EXPECT_FALSE(q.move);
  EXPECT_EQ(q.wire_bits, 3u);  // counts down from 4
  EXPECT_EQ(q.ic.tx_per_line, 1u);
}

// Seed 001's shared L1-TLBs on the path ("Aggregated and clustered L1-TLBs"):
// T TLBs in C clusters, the allocating CU in the L1's instruction ID, the
// document's latency as request registers.
TEST(TxPathConfig, SharedL1Organisations) {
  const auto agg = elab(with(table1(), "/tx_path/l1tlb/tlbs", 2));
  EXPECT_EQ(agg.tlbs, 2u);
  EXPECT_EQ(agg.clusters, 2u);  // C defaults to T: aggregated
  EXPECT_EQ(agg.cluster_cus, 4u);
  EXPECT_EQ(agg.local_bits, 2u);
  EXPECT_EQ(agg.l1.sets, 4u);
  EXPECT_EQ(agg.l1.iid_bits, 2u);  // the allocating CU
  EXPECT_EQ(agg.l1.mshrs, 16u);    // 4 CUs x 4
  EXPECT_EQ(agg.l1_tag_bits, 4u);
  EXPECT_EQ(agg.l1_pad, 0u);
  const auto clu = elab(with(with(with(table1(), "/tx_path/l1tlb/tlbs", 4), "/tx_path/l1tlb/clusters", 1),
                             "/tx_path/l1tlb/latency", "document"));
  EXPECT_EQ(clu.cluster_cus, 8u);
  EXPECT_EQ(clu.l1.tlbs_per_cluster, 4u);
  // 2 log2 2 + log2 8 + log2 4 = 7 cycles modelled, 3 generated
  EXPECT_EQ(clu.l1_pad, 4u);
  const auto priv = elab(with(table1(), "/tx_path/l1tlb/latency", "document"));
  EXPECT_EQ(priv.l1_pad, 0u);  // a private 1-set TLB: 1 cycle modelled
  EXPECT_EQ(priv.local_bits, 0u);
  EXPECT_EQ(priv.l1.iid_bits, 0u);
  EXPECT_EQ(error_of(with(table1(), "/tx_path/l1tlb/tlbs", 16)),
            "$.tx_path.l1tlb.tlbs = 16: must divide $.tx_path.cus (8): each TLB serves cus / tlbs CUs");
  EXPECT_EQ(error_of(with(with(table1(), "/tx_path/l1tlb/tlbs", 2), "/tx_path/l1tlb/clusters", 4)).rfind(
                "$.tx_path.l1tlb.clusters = 4", 0),
            0u);
}
