// The l1tlb block's configuration rules, each with a bad value and the exact
// message, the widths of seed 001's configurations, and the storage/latency
// report (docs/blocks/l1tlb.md).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "txgen/blocks/l1tlb_emit.h"
#include "txgen/config/parse.h"
#include "txgen/elab/l1tlb.h"
#include "txgen/error.h"
#include "config_edit.h"

using nlohmann::json;

namespace {

// seed 001 Table 4.1: 64 private 128-entry fully associative TLBs, 4 MSHRs each.
json table41() {
  return json::parse(R"({
    "name": "t",
    "system": {"va_bits": 48, "page_bytes": 4096, "vmid_bits": 2, "vrf_bits": 2},
    "translation": {"ppn_bits": 36, "perm_bits": 6},
    "l1tlb": {"cus": 64, "tlbs": 64, "clusters": 64}})");
}

using txgen::test::with;

std::string error_of(const json& doc) { return txgen::test::error_of(doc, txgen::elab::elaborate_l1tlb); }

txgen::elab::L1tlbParams elab(const json& doc) {
  return txgen::elab::elaborate_l1tlb(txgen::config::parse_config(doc));
}

json clustered(unsigned t, unsigned c) {
  return with(with(table41(), "/l1tlb/tlbs", t), "/l1tlb/clusters", c);
}

}  // namespace

TEST(L1tlbConfig, TableFourOneDefaults) {
  const auto p = elab(table41());
  EXPECT_EQ(p.sets, 1u);
  EXPECT_EQ(p.ways, 128u);
  EXPECT_EQ(p.entries_per_tlb, 128u);
  EXPECT_EQ(p.entries_total, 8192u);
  EXPECT_EQ(p.mshrs, 4u);
  EXPECT_EQ(p.cus_per_cluster, 1u);
  EXPECT_EQ(p.tlbs_per_cluster, 1u);
  EXPECT_EQ(p.home_bits, 0u);
  EXPECT_EQ(p.set_bits, 0u);
  EXPECT_EQ(p.cu_bits, 0u);
  EXPECT_EQ(p.vpn_bits, 36u);
  EXPECT_EQ(p.vpn_tag_bits, 36u);
  EXPECT_EQ(p.tag_bits, 38u);
  EXPECT_EQ(p.mshr_bits, 2u);
  EXPECT_EQ(p.l2_tag_bits, 2u);
  EXPECT_EQ(p.age_bits, 7u);
  EXPECT_EQ(p.repl_bits_per_set, 128u * 7u);
  EXPECT_FALSE(p.plru());
  EXPECT_EQ(p.hit_latency, 3u);
}

TEST(L1tlbConfig, AggregatedAndClustered) {
  const auto a = elab(clustered(16, 16));  // Table 5.1 row T = 16
  EXPECT_EQ(a.sets, 4u);
  EXPECT_EQ(a.entries_per_tlb, 512u);
  EXPECT_EQ(a.mshrs, 16u);
  EXPECT_EQ(a.cus_per_cluster, 4u);
  EXPECT_EQ(a.tlbs_per_cluster, 1u);
  EXPECT_EQ(a.set_bits, 2u);
  EXPECT_EQ(a.vpn_tag_bits, 34u);
  EXPECT_EQ(a.l2_tag_bits, 4u);
  const auto c = elab(clustered(16, 4));  // Table 6.1 row T = 16, C = 4: 16 x 4
  EXPECT_EQ(c.cus_per_cluster, 16u);
  EXPECT_EQ(c.tlbs_per_cluster, 4u);
  EXPECT_EQ(c.home_bits, 2u);
  EXPECT_EQ(c.set_bits, 2u);
  EXPECT_EQ(c.vpn_tag_bits, 32u);
  EXPECT_EQ(c.vpn_hi_bits, 34u);
  EXPECT_EQ(c.cu_bits, 4u);
  EXPECT_EQ(c.l2_tag_bits, 6u);
  const auto one = elab(clustered(1, 1));  // Table 5.1 row T = 1: 64 sets, 256 MSHRs
  EXPECT_EQ(one.sets, 64u);
  EXPECT_EQ(one.mshrs, 256u);
  EXPECT_EQ(one.mshr_bits, 8u);
  const auto odd = elab(with(clustered(16, 4), "/l1tlb/mshrs_per_cu", 3));
  EXPECT_EQ(odd.mshrs, 12u);
  EXPECT_EQ(odd.mshr_bits, 4u);
  const auto plru = elab(with(clustered(16, 4), "/l1tlb/replacement", "plru"));
  EXPECT_EQ(plru.repl_bits_per_set, 127u);
}

TEST(L1tlbConfig, PowersOfTwo) {
  EXPECT_EQ(error_of(with(table41(), "/l1tlb/cus", 48)), "$.l1tlb.cus = 48: must be a power of two");
  EXPECT_EQ(error_of(clustered(12, 4)), "$.l1tlb.tlbs = 12: must be a power of two");
  EXPECT_EQ(error_of(clustered(16, 3)), "$.l1tlb.clusters = 3: must be a power of two");
  EXPECT_EQ(error_of(with(table41(), "/l1tlb/ways", 96)), "$.l1tlb.ways = 96: must be a power of two in [2, 256]");
}

TEST(L1tlbConfig, Ranges) {
  EXPECT_EQ(error_of(with(clustered(64, 64), "/l1tlb/cus", 128)),
            "$.l1tlb.cus = 128: must be an integer in [1, 64]");
  EXPECT_EQ(error_of(with(table41(), "/l1tlb/ways", 1)), "$.l1tlb.ways = 1: must be an integer in [2, 256]");
  EXPECT_EQ(error_of(with(table41(), "/l1tlb/mshrs_per_cu", 0)),
            "$.l1tlb.mshrs_per_cu = 0: must be an integer in [1, 64]");
}

TEST(L1tlbConfig, TlbsDivideCus) {
  EXPECT_EQ(error_of(with(clustered(16, 4), "/l1tlb/cus", 8)),
            "$.l1tlb.tlbs = 16: must divide $.l1tlb.cus (8): each TLB serves cus / tlbs CUs");
}

TEST(L1tlbConfig, ClustersDivideTlbs) {
  EXPECT_EQ(error_of(clustered(4, 8)),
            "$.l1tlb.clusters = 8: must divide $.l1tlb.tlbs (4): each cluster holds tlbs / clusters TLBs "
            "(1 <= C <= T)");
}

TEST(L1tlbConfig, NamedChoices) {
  EXPECT_EQ(error_of(with(table41(), "/l1tlb/replacement", "fifo")),
            "$.l1tlb.replacement = \"fifo\": must be one of \"lru\" \"plru\"");
  EXPECT_EQ(error_of(with(table41(), "/l1tlb/l2_ports", "tlb")),
            "$.l1tlb.l2_ports = \"tlb\": must be one of \"cluster\"");
  EXPECT_EQ(error_of(with(table41(), "/l1tlb/banks", 2)), "$.l1tlb.banks = 2: unknown field");
}

// auto: the order matrix up to 16 ways, ages above; either can be asked for
// (the matrix up to 32 ways), and neither with PLRU.
TEST(L1tlbConfig, LruStateChoosesTheOrderEncoding) {
  const auto ages = elab(table41());  // 128 ways
  EXPECT_FALSE(ages.lru_matrix);
  const auto small = elab(with(clustered(16, 4), "/l1tlb/ways", 16));
  EXPECT_TRUE(small.lru_matrix);
  EXPECT_EQ(small.repl_bits_per_set, 16u * 15u / 2u);
  const auto asked_ages = elab(with(with(clustered(16, 4), "/l1tlb/ways", 16), "/l1tlb/lru_state", "ages"));
  EXPECT_FALSE(asked_ages.lru_matrix);
  EXPECT_EQ(asked_ages.repl_bits_per_set, 16u * 4u);
  const auto asked_matrix = elab(with(with(clustered(16, 4), "/l1tlb/ways", 32), "/l1tlb/lru_state", "matrix"));
  EXPECT_TRUE(asked_matrix.lru_matrix);
  EXPECT_EQ(asked_matrix.repl_bits_per_set, 32u * 31u / 2u);
  EXPECT_FALSE(elab(with(with(clustered(16, 4), "/l1tlb/ways", 8), "/l1tlb/replacement", "plru")).lru_matrix);
  EXPECT_EQ(error_of(with(table41(), "/l1tlb/lru_state", "matrix")),
            "$.l1tlb.lru_state = \"matrix\": the order matrix needs ways (128) x (ways - 1) / 2 bits per set: "
            "offered up to 32 ways; use \"ages\"");
  EXPECT_EQ(error_of(with(with(table41(), "/l1tlb/replacement", "plru"), "/l1tlb/lru_state", "ages")),
            "$.l1tlb.lru_state = \"ages\": applies to replacement \"lru\" only (this TLB uses \"plru\")");
  EXPECT_EQ(error_of(with(table41(), "/l1tlb/lru_state", "tree")),
            "$.l1tlb.lru_state = \"tree\": must be one of \"auto\" \"ages\" \"matrix\"");
}

// auto: the touch one edge late with ages, at the decide edge with the matrix;
// next_edge is offered with ages only.
TEST(L1tlbConfig, LruTouchFollowsTheEncoding) {
  EXPECT_TRUE(elab(table41()).lru_touch_next);  // 128 ways: ages
  EXPECT_FALSE(elab(with(table41(), "/l1tlb/lru_touch", "decide_edge")).lru_touch_next);
  const auto small = with(clustered(16, 4), "/l1tlb/ways", 16);
  EXPECT_FALSE(elab(small).lru_touch_next);
  EXPECT_TRUE(elab(with(with(small, "/l1tlb/lru_state", "ages"), "/l1tlb/lru_touch", "next_edge")).lru_touch_next);
  EXPECT_EQ(error_of(with(small, "/l1tlb/lru_touch", "next_edge")),
            "$.l1tlb.lru_touch = \"next_edge\": offered with the LRU ages only (lru_state \"ages\", or above 16 "
            "ways); this TLB keeps the order matrix");
  EXPECT_EQ(error_of(with(with(table41(), "/l1tlb/replacement", "plru"), "/l1tlb/lru_touch", "next_edge")),
            "$.l1tlb.lru_touch = \"next_edge\": applies to replacement \"lru\" only (this TLB uses \"plru\")");
  EXPECT_EQ(error_of(with(table41(), "/l1tlb/lru_touch", "later")),
            "$.l1tlb.lru_touch = \"later\": must be one of \"auto\" \"decide_edge\" \"next_edge\"");
}

// PLRU touches from registered binary way indices: from 64 ways unless the
// configuration says; with LRU the field is an error.
TEST(L1tlbConfig, PlruIndexFromSixtyFourWaysOrAsAsked) {
  const auto plru = [](unsigned ways) {
    return with(with(clustered(16, 4), "/l1tlb/ways", ways), "/l1tlb/replacement", "plru");
  };
  EXPECT_TRUE(elab(with(table41(), "/l1tlb/replacement", "plru")).plru_index);  // 128 ways
  EXPECT_TRUE(elab(plru(64)).plru_index);
  EXPECT_FALSE(elab(plru(32)).plru_index);
  EXPECT_TRUE(elab(with(plru(8), "/l1tlb/plru_index", true)).plru_index);
  EXPECT_FALSE(elab(with(plru(64), "/l1tlb/plru_index", false)).plru_index);
  EXPECT_FALSE(elab(with(clustered(16, 4), "/l1tlb/ways", 64)).plru_index);  // LRU
  EXPECT_EQ(error_of(with(table41(), "/l1tlb/plru_index", true)),
            "$.l1tlb.plru_index = true: applies to replacement \"plru\" only (this TLB uses \"lru\")");
}

// Which free MSHR a miss takes: auto is the free queue from 32 MSHRs per TLB
// (64 CUs on 8 TLBs: 8 x 4), the lowest free one below; one MSHR has no order.
TEST(L1tlbConfig, MshrAllocFifoFromThirtyTwoMshrsOrAsAsked) {
  EXPECT_FALSE(elab(table41()).mshr_fifo);                                     // 4 MSHRs
  EXPECT_FALSE(elab(clustered(16, 4)).mshr_fifo);                              // 16
  EXPECT_TRUE(elab(clustered(8, 8)).mshr_fifo);                                // 32
  EXPECT_TRUE(elab(with(table41(), "/l1tlb/mshr_alloc", "fifo")).mshr_fifo);
  EXPECT_FALSE(elab(with(clustered(1, 1), "/l1tlb/mshr_alloc", "lowest")).mshr_fifo);
  EXPECT_FALSE(elab(with(with(table41(), "/l1tlb/mshrs_per_cu", 1), "/l1tlb/mshr_alloc", "fifo")).mshr_fifo);
  EXPECT_EQ(error_of(with(table41(), "/l1tlb/mshr_alloc", "random")),
            "$.l1tlb.mshr_alloc = \"random\": must be one of \"auto\" \"lowest\" \"fifo\"");
}

TEST(L1tlbConfig, NeedsTranslation) {
  json doc = table41();
  doc.erase("translation");
  EXPECT_EQ(error_of(doc), "$.translation = (missing): required by $.l1tlb: the PPN and permission widths");
}

TEST(L1tlbConfig, VpnHoldsHomeSetAndTag) {
  // 2 MB pages: VPN = va_bits - 21; T = 16 in C = 4 needs 2 home + 2 set bits + 1 tag bit.
  const json doc = with(with(clustered(16, 4), "/system/va_bits", 25), "/system/page_bytes", 2097152);
  EXPECT_EQ(error_of(doc),
            "$.system.va_bits = 25: too narrow for $.l1tlb: the VPN (va_bits - 21 page-offset bits) must hold "
            "2 home-TLB bits, 2 set bits and at least 1 tag bit");
  EXPECT_NE(error_of(with(doc, "/system/va_bits", 16)), "");  // narrower than the page offset
  EXPECT_EQ(elab(with(doc, "/system/va_bits", 26)).vpn_tag_bits, 1u);
  EXPECT_EQ(elab(with(doc, "/system/va_bits", 27)).vpn_bits, 6u);
}

TEST(L1tlbReport, StorageAndLatency) {
  const json r = txgen::blocks::l1tlb::report_json(txgen::config::parse_config(clustered(16, 4)));
  EXPECT_EQ(r["block"], "l1tlb");
  const json& s = r["storage_bits"]["per_tlb"];
  EXPECT_EQ(s["valid"], 512);
  EXPECT_EQ(s["tag"], 512 * 34);      // 32 VPN tag bits + 2 VMID bits
  EXPECT_EQ(s["ppn"], 512 * 36);
  EXPECT_EQ(s["perm"], 512 * 6);
  EXPECT_EQ(s["replacement"], 4 * 128 * 7);
  EXPECT_EQ(s["mshr_entry"], 4 + 34 + 2 + 16);
  EXPECT_EQ(s["mshr"], 16 * 56);
  EXPECT_EQ(r["storage_bits"]["total"], 16 * s["total"].get<int>());
  EXPECT_EQ(r["crossbar"]["inputs"], 16);
  EXPECT_EQ(r["crossbar"]["outputs"], 4);
  EXPECT_EQ(r["latency"]["document_model"]["access_cycles"], 4);
  EXPECT_EQ(r["latency"]["document_model"]["xbar_cycles"], 6);
  EXPECT_EQ(r["latency"]["rtl_at_2_5ns"]["hit_latency"], 3);
}

// The input buffer: a boolean; one cycle more in the crossbar, the hit and the
// miss-to-L2 time; its flip-flops counted beside the TLBs' storage.
TEST(L1tlbReport, InputBufferAddsACycleAndItsStorage) {
  EXPECT_EQ(error_of(with(table41(), "/l1tlb/input_buffer", 1)), "$.l1tlb.input_buffer = 1: must be true or false");
  const json plain = txgen::blocks::l1tlb::report_json(txgen::config::parse_config(clustered(16, 4)));
  const json doc = with(clustered(16, 4), "/l1tlb/input_buffer", true);
  const json r = txgen::blocks::l1tlb::report_json(txgen::config::parse_config(doc));
  const json& rtl = r["latency"]["rtl_at_2_5ns"];
  EXPECT_EQ(rtl["xbar_cycles"], plain["latency"]["rtl_at_2_5ns"]["xbar_cycles"].get<int>() + 1);
  EXPECT_EQ(rtl["hit_latency"], 4);
  EXPECT_EQ(rtl["miss_to_l2_request"], plain["latency"]["rtl_at_2_5ns"]["miss_to_l2_request"].get<int>() + 1);
  EXPECT_EQ(r["storage_bits"]["input_buffers"], 64 * 2 * (1 + 36 + 2));  // 64 CUs x 2 x (valid, VPN, VMID)
  EXPECT_EQ(plain["storage_bits"]["input_buffers"], 0);
  const std::string md = txgen::blocks::l1tlb::report_markdown(txgen::config::parse_config(doc));
  EXPECT_NE(md.find("| 2 (input buffer, arbitrate, register) |"), std::string::npos) << md;
}

// The fifo order's two queues of M MSHR indices count as TLB storage.
TEST(L1tlbReport, MshrQueuesCountedWithFifo) {
  const json lowest = txgen::blocks::l1tlb::report_json(txgen::config::parse_config(clustered(16, 4)));
  EXPECT_EQ(lowest["storage_bits"]["per_tlb"]["mshr_queues"], 0);
  const json doc = with(clustered(16, 4), "/l1tlb/mshr_alloc", "fifo");
  const json r = txgen::blocks::l1tlb::report_json(txgen::config::parse_config(doc));
  EXPECT_EQ(r["storage_bits"]["per_tlb"]["mshr_queues"], 2 * 16 * 4);  // 16 MSHRs, 4 index bits
  EXPECT_EQ(r["storage_bits"]["per_tlb"]["mshr_entry"], 3 + 34 + 2 + 16);  // no sent bit: the send queue
  EXPECT_EQ(r["storage_bits"]["per_tlb"]["total"],
            lowest["storage_bits"]["per_tlb"]["total"].get<int>() + 2 * 16 * 4 - 16);
  EXPECT_EQ(r["parameters"]["mshr_alloc"], "fifo");
  const std::string md = txgen::blocks::l1tlb::report_markdown(txgen::config::parse_config(doc));
  EXPECT_NE(md.find("| MSHR free and send queues: 2 x 16 x 4 | 128 |"), std::string::npos) << md;
}

TEST(L1tlbReport, DocumentTablesFlagTheirDisagreements) {
  const json r = txgen::blocks::l1tlb::report_json(txgen::config::parse_config(table41()));
  const json& t51 = r["document_tables"]["table_5_1"];
  const json& t61 = r["document_tables"]["table_6_1"];
  ASSERT_EQ(t51.size(), 7u);
  ASSERT_EQ(t61.size(), 28u);
  std::vector<std::string> bad;
  for (const json& row : t51)
    if (!row["agrees"].get<bool>()) bad.push_back("5.1 T=" + row["tlbs"].dump());
  for (const json& row : t61)
    if (!row["agrees"].get<bool>()) bad.push_back("6.1 T=" + row["tlbs"].dump() + " C=" + row["clusters"].dump());
  // T = 64: one set, 2 log2 1 = 0 but printed 1 cycle; T = 32, C = 1: 64 x 32 is 6 + 5 = 11, printed 10.
  EXPECT_EQ(bad, (std::vector<std::string>{"5.1 T=64", "6.1 T=32 C=1"}));
  const std::string md = txgen::blocks::l1tlb::report_markdown(txgen::config::parse_config(table41()));
  EXPECT_NE(md.find("| 32 | 1 | 64x32 | 64x32 | 10 | 11 | **disagrees** |"), std::string::npos) << md;
  EXPECT_NE(md.find("2 log2 1 = 0 (printed as 1 cycle)"), std::string::npos) << md;
}

TEST(L1tlbConfig, PresetsElaborate) {
  for (const char* f : {"configs/seed001_table41.json", "configs/seed001_aggregated.json",
                        "configs/seed001_clustered.json", "tests/configs/l1tlb_base.json",
                        "tests/configs/l1tlb_agg.json", "tests/configs/l1tlb_clus.json",
                        "tests/configs/l1tlb_plru.json"}) {
    const auto cfg = txgen::config::load_config_file(std::string(TXGEN_SOURCE_DIR) + "/" + f);
    EXPECT_NO_THROW(txgen::blocks::l1tlb::report_markdown(cfg)) << f;
  }
  const auto clus = elab(txgen::config::read_json_file(std::string(TXGEN_SOURCE_DIR) + "/tests/configs/l1tlb_clus.json"));
  EXPECT_EQ(clus.mshrs, 6u);
  EXPECT_EQ(clus.vpn_bits, 12u);
  EXPECT_EQ(clus.vpn_tag_bits, 10u);
}
