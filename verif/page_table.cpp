#include "page_table.h"

#include <stdexcept>
#include <string>

#include "cosim_util.h"

namespace txgen::verif {

PageTable::PageTable(unsigned levels, unsigned index_bits, unsigned vpn_bits, unsigned ppn_bits, unsigned perm_bits,
                     unsigned page_bytes)
    : levels_(levels), index_bits_(index_bits), vpn_bits_(vpn_bits), page_shift_(0), ppn_mask_(low_mask(ppn_bits)),
      perm_mask_(low_mask(perm_bits)) {
  if (levels < 1 || levels > 5 || vpn_bits > 48 || (levels - 1) * index_bits >= vpn_bits)
    throw std::invalid_argument("page table: " + std::to_string(levels) + " levels of " +
                                std::to_string(index_bits) + " index bits do not fit a " + std::to_string(vpn_bits) +
                                "-bit VPN (at most 5 levels, 48 bits)");
  while ((1u << page_shift_) < page_bytes) ++page_shift_;
}

uint64_t PageTable::index_at(uint64_t vpn, unsigned level) const {
  const unsigned shift = (levels_ - level) * index_bits_;
  const uint64_t index = vpn >> shift;
  return level == 1 ? index : index & low_mask(index_bits_);
}

// A table is named by its address space, its level and the VPN bits above
// that level's index (the path from the root to it); the key packs them into
// 64 bits: {VMID, level (3 bits), prefix (VPN bits)}.
uint64_t PageTable::table_key(uint64_t vmid, uint64_t vpn, unsigned level) const {
  const unsigned shift = (levels_ - level + 1) * index_bits_;
  const uint64_t prefix = level == 1 ? 0 : vpn >> shift;
  return (((vmid << 3) | level) << vpn_bits_) | prefix;
}

uint64_t PageTable::frame_of_table(uint64_t key) {
  auto [it, added] = tables_.try_emplace(key, next_frame_);
  if (added) ++next_frame_;
  return it->second;
}

uint64_t PageTable::pte_address(uint64_t vmid, uint64_t vpn, unsigned level) {
  if (level < 1 || level > levels_)
    throw std::logic_error("page table: level " + std::to_string(level) + " read (the table has " +
                           std::to_string(levels_) + ")");
  // the tables above are made first, as a walk (or the OS) meets them
  for (unsigned l = 1; l < level; ++l) frame_of_table(table_key(vmid, vpn, l));
  const uint64_t frame = frame_of_table(table_key(vmid, vpn, level));
  if (level == levels_) ppn(vmid, vpn);
  return (frame << page_shift_) | (index_at(vpn, level) * 8);
}

uint64_t PageTable::ppn(uint64_t vmid, uint64_t vpn) {
  auto [it, added] = pages_.try_emplace((vmid << vpn_bits_) | vpn, next_frame_);
  if (added) ++next_frame_;
  return it->second & ppn_mask_;
}

// Present, readable and writable, the rest of the permission bits from the VPN.
uint64_t PageTable::perm(uint64_t /*vmid*/, uint64_t vpn) const { return (vpn | 0x3) & perm_mask_; }

int64_t PageTable::mapped_ppn(uint64_t vmid, uint64_t vpn) const {
  const auto it = pages_.find((vmid << vpn_bits_) | vpn);
  return it == pages_.end() ? -1 : static_cast<int64_t>(it->second & ppn_mask_);
}

}  // namespace txgen::verif
