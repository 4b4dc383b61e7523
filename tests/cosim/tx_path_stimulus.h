// The CU side of the path's random traffic (translation requests from page
// pools, work groups, LDS accesses, instruction fetches, fills and kernel
// flushes), shared by the path's co-simulation with the L2-TLB outside
// (tx_path_test.cpp) and inside (tx_path_l2_test.cpp).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "cosim_util.h"
#include "model/tx_path.h"
#include "txgen/elab/tx_path.h"

namespace txgen::verif {

struct PathTraffic {
  unsigned load = 40;         // % of cycles a CU without a request issues one
  unsigned shared = 50;       // % of requests to the shared pool
  unsigned pool = 0;          // pages per pool (0: from the configuration's reach)
  bool mixed_ids = true;      // CUs of two virtual functions, a few requests of VMID 1
  unsigned hot = 2;           // LDS segments (and I-cache lines) that half the pages crowd
  unsigned ifill_permille = 20;  // instruction fills per I-cache per 1000 cycles
};

// A VPN in LDS segment `seg` (its low SI bits) whose I-cache translation line
// is `seg` too when the index widths allow; `tag` fills the bits above.
inline uint64_t path_vpn_in(const elab::TxPathParams& p, unsigned seg, uint64_t tag) {
  const unsigned low = std::max(p.lds.segment_index_bits, p.ic.tx_index_bits);
  return ((tag << low) | seg) & low_mask(p.vpn_bits);
}

// The pages: a pool shared by the CUs, half of it crowding a few LDS
// segments (and I-cache lines) so that segments and lines overflow, and per-CU
// pools derived from it.
class PathPages {
 public:
  PathPages(const elab::TxPathParams& p, const PathTraffic& t, Rng& rng)
      : p_(p), t_(t), rng_(rng), shared_(t.pool ? t.pool : std::max(40u, p.l1.ways * 3)) {
    for (size_t k = 0; k < shared_.size(); ++k)
      shared_[k] = k % 2 ? path_vpn_in(p, static_cast<unsigned>(rng.below(t.hot)), rng.bits(4)) : rng.bits(p.vpn_bits);
  }
  uint64_t pick(unsigned u) {
    const uint64_t v = shared_[rng_.below(shared_.size())];
    if (rng_.chance(t_.shared)) return v;
    return (v ^ (uint64_t{u + 1} << (p_.vpn_bits - 3))) & low_mask(p_.vpn_bits);
  }
  const std::vector<uint64_t>& shared() const { return shared_; }

 private:
  const elab::TxPathParams& p_;
  const PathTraffic& t_;
  Rng& rng_;
  std::vector<uint64_t> shared_;
};

// One cycle of the CU side on inputs whose handshakes the bench clears.
inline void path_cu_side(model::TxPathIn& in, const elab::TxPathParams& p, const PathTraffic& t, Rng& rng,
                         PathPages& pages) {
  for (unsigned u = 0; u < p.cus; ++u) {
    if (!in.req_valid[u] && rng.chance(t.load)) {
      in.req_valid[u] = 1;
      in.req_vpn[u] = pages.pick(u);
      in.req_vmid[u] = t.mixed_ids && rng.chance(5) ? 1 : 0;
    }
    if (!in.wg_valid[u] && rng.chance(1)) {
      in.wg_valid[u] = 1;
      in.wg_free[u] = rng.chance(50);
      in.wg_base[u] = static_cast<uint32_t>(rng.below(p.lds.segments));
      in.wg_size[u] = static_cast<uint32_t>(rng.below(4));
    }
    if (rng.chance(3)) {
      in.app_valid[u] = 1;
      in.app_we[u] = rng.chance(30);
      in.app_row[u] = static_cast<uint32_t>(rng.below(p.lds.rows));
      in.app_bank_en[u] = rng.bits(p.lds.banks);
      in.app_wdata[u] = bits_from_u64(p.lds.row_bits, rng.next());
    }
    in.vrf[u] = t.mixed_ids ? u % 2 : 0;
  }
  for (unsigned g = 0; g < p.icaches; ++g) {
    const uint64_t addr = (rng.below(4 * p.ic.ways) << (p.ic.offset_bits + p.ic.set_bits)) |
                          (rng.below(p.ic.sets) << p.ic.offset_bits);
    if (!in.if_valid[g] && rng.chance(5)) {
      in.if_valid[g] = 1;
      in.if_addr[g] = addr & low_mask(p.ic.va_bits);
    }
    if (!in.ifill_valid[g] && rng.below(1000) < t.ifill_permille) {
      in.ifill_valid[g] = 1;
      in.ifill_addr[g] = addr & low_mask(p.ic.va_bits);
      in.ifill_data[g] = bits_from_u64(p.ic.line_bits, rng.next());
    }
    if (!in.flush_valid[g] && rng.chance(1) && rng.chance(10)) in.flush_valid[g] = 1;
  }
}

// The CU side's handshakes of a cycle: what was taken is no longer offered.
inline void path_cu_side_taken(model::TxPathIn& in, const model::TxPathOut& out, const elab::TxPathParams& p) {
  for (unsigned u = 0; u < p.cus; ++u) {
    if (in.req_valid[u] && out.req_ready[u]) in.req_valid[u] = 0;
    if (in.wg_valid[u] && out.wg_ready[u]) in.wg_valid[u] = 0;
    in.app_valid[u] = 0;
  }
  for (unsigned g = 0; g < p.icaches; ++g) {
    if (in.ifill_valid[g] && out.ifill_ready[g]) in.ifill_valid[g] = 0;
    if (in.if_valid[g] && out.if_ready[g]) in.if_valid[g] = 0;
    if (in.flush_valid[g] && out.flush_ready[g]) in.flush_valid[g] = 0;
  }
}

}  // namespace txgen::verif
