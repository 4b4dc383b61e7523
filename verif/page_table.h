// The evaluation's page table (docs/verification.md, "The generated L2-TLB
// and IOMMU behind the path"): an x86-64-style radix table per address space
// (VMID), LV levels of X index bits each (the root takes the VPN's remaining
// top bits), built as the trace first touches its pages. Every table and
// every data page is a physical frame handed out in first-touch order, so a
// PTE's address (its table's frame, its index x 8 bytes) follows the trace's
// address space: pages that share upper-level tables share their PTEs' lines.
#pragma once

#include <cstdint>
#include <unordered_map>

namespace txgen::verif {

class PageTable {
 public:
  // levels LV >= 1, index_bits X per level below the root, page_bytes per frame.
  PageTable(unsigned levels, unsigned index_bits, unsigned vpn_bits, unsigned ppn_bits, unsigned perm_bits,
            unsigned page_bytes);
  // The byte address of the PTE that a walk of (vmid, vpn) reads at `level`
  // (1 = the root), mapping the page and its tables on first touch.
  uint64_t pte_address(uint64_t vmid, uint64_t vpn, unsigned level);
  // The leaf PTE's PPN and permissions (maps the page on first touch).
  uint64_t ppn(uint64_t vmid, uint64_t vpn);
  uint64_t perm(uint64_t vmid, uint64_t vpn) const;
  // The PPN of a page already mapped, or -1 when the trace has not touched it.
  int64_t mapped_ppn(uint64_t vmid, uint64_t vpn) const;
  uint64_t frames() const { return next_frame_; }  // tables and pages mapped
  uint64_t tables() const { return tables_.size(); }

 private:
  // The VPN bits above `level`'s index: the table that level's PTE sits in.
  uint64_t table_key(uint64_t vmid, uint64_t vpn, unsigned level) const;
  uint64_t index_at(uint64_t vpn, unsigned level) const;
  uint64_t frame_of_table(uint64_t key);

  unsigned levels_, index_bits_, vpn_bits_, page_shift_;
  uint64_t ppn_mask_, perm_mask_;
  uint64_t next_frame_ = 1;  // frame 0 stays unmapped
  std::unordered_map<uint64_t, uint64_t> tables_;  // table key -> frame
  std::unordered_map<uint64_t, uint64_t> pages_;   // {VMID, VPN} -> frame
};

}  // namespace txgen::verif
