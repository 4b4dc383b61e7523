// The block sections of a configuration: one parser per block, next to the
// block (gen/src/config/<block>.cpp), each checking the rules local to its
// section; rules across sections and across fields of the derived sizes are
// checked once, at elaboration (gen/src/elab/<block>.cpp).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "txgen/config/config.h"
#include "txgen/config/reader.h"

namespace txgen::config {

// The parser of a block's section: reads $.<key> into cfg. A section may read
// the sections parsed before it (a codec its host).
struct Section {
  const char* key;
  void (*parse)(const nlohmann::json& section, Config& cfg);
};
// Every block section, in the order parse_config() reads them.
const std::vector<Section>& block_sections();

void parse_bd_codec_section(const nlohmann::json& j, Config& cfg);
void parse_lds_ctrl_section(const nlohmann::json& j, Config& cfg);
void parse_dhsl_section(const nlohmann::json& j, Config& cfg);
void parse_walk_sched_section(const nlohmann::json& j, Config& cfg);
void parse_icache_tx_section(const nlohmann::json& j, Config& cfg);
void parse_l1tlb_section(const nlohmann::json& j, Config& cfg);
void parse_ata_section(const nlohmann::json& j, Config& cfg);
void parse_tx_path_section(const nlohmann::json& j, Config& cfg);
void parse_iommu_section(const nlohmann::json& j, Config& cfg);

// Pieces the path's sections share with the blocks' own.
void parse_codec_fields(ObjectReader& r, const std::string& path, BdCodecConfig& b);
LdsCtrlConfig parse_lds_ctrl(const nlohmann::json& j, const std::string& path);
IcacheTxConfig parse_icache_tx(const nlohmann::json& j, const std::string& path);
// replacement, plru_index, lru_touch and lru_state of an L1-TLB section
void parse_l1tlb_replacement(ObjectReader& r, L1tlbConfig& c);
// $.tx_path.l1tlb: the per-CU private L1-TLB of a path of `cus` CUs
L1tlbConfig parse_path_l1tlb(const nlohmann::json& j, unsigned cus);

}  // namespace txgen::config
