#include "txgen/blocks/block.h"

namespace txgen::blocks {

const std::vector<BlockInfo>& registry() {
  static const std::vector<BlockInfo> blocks = {bd_codec_block(), lds_ctrl_block(), dhsl_block(), walk_sched_block(),
                                                  icache_tx_block(), l1tlb_block(), ata_block(),
                                                  tx_path_block()};
  return blocks;
}

const BlockInfo* find_block(const std::string& name) {
  for (const auto& b : registry())
    if (b.name == name) return &b;
  return nullptr;
}

std::string block_names() {
  std::string s;
  for (const auto& b : registry()) s += (s.empty() ? "" : ", ") + b.name;
  return s;
}

}  // namespace txgen::blocks
