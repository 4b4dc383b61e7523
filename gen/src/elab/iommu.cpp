#include "txgen/elab/iommu.h"

#include <algorithm>
#include <string>

#include "txgen/elab/bits.h"
#include "txgen/error.h"

namespace txgen::elab {

using std::to_string;

namespace {

void require(bool present, const char* section, const char* why) {
  if (!present) throw ConfigError(std::string("$.") + section, "(missing)", why);
}

L2tlbParams elaborate_l2tlb(const config::Config& cfg, const config::L2tlbConfig& c, unsigned iid_bits) {
  L2tlbParams p;
  p.module_prefix = "iommu_" + cfg.name + "_l2tlb";
  p.entries = c.entries;
  p.ways = c.ways;
  p.sets = c.entries / c.ways;
  p.set_bits = log2_exact(p.sets);
  p.vpn_bits = cfg.system.va_bits - log2_exact(cfg.system.page_bytes);
  if (p.set_bits >= p.vpn_bits)
    throw ConfigError("$.iommu.l2tlb.entries", to_string(c.entries),
                      to_string(p.sets) + " sets need " + to_string(p.set_bits) + " index bits of a " +
                          to_string(p.vpn_bits) + "-bit VPN, leaving no tag");
  p.tag_bits = p.vpn_bits - p.set_bits;
  p.ports = c.ports;
  p.port_bits = std::max(1u, clog2(c.ports));
  p.req_tag_bits = c.tag_bits;
  p.mshrs = c.mshrs;
  p.mshr_bits = std::max(1u, clog2(c.mshrs));
  p.mshr_count_bits = clog2(uint64_t{c.mshrs} + 1);
  p.waiters = c.waiters;
  p.waiter_bits = std::max(1u, clog2(c.waiters));
  p.stages = c.lookup_stages;
  p.answer_register = c.answer_register;
  p.vmid_bits = cfg.system.vmid_bits;
  p.ppn_bits = cfg.translation->ppn_bits;
  p.perm_bits = cfg.translation->perm_bits;
  p.iid_bits = iid_bits;
  return p;
}

}  // namespace

IommuParams elaborate_iommu(const config::Config& cfg) {
  require(cfg.walk_sched.has_value(), "walk_sched",
          "the iommu block schedules its walks with the walk_sched section's buffer, policy and PWCs");
  require(cfg.translation.has_value(), "translation", "the iommu block caches translations of this PPN width");
  IommuParams p;
  p.module_prefix = "iommu_" + cfg.name;
  p.sched = elaborate_walk_sched(cfg);
  p.vpn_bits = p.sched.vpn_bits;
  p.vmid_bits = cfg.system.vmid_bits;
  // the scheduler sees {VMID, VPN}: its PWC tags hold the VMID above the prefix
  p.sched.module_prefix = p.module_prefix + "_walk_sched";
  p.sched.vpn_bits += p.vmid_bits;
  for (unsigned& t : p.sched.pwc_tag_bits) t += p.vmid_bits;
  p.ppn_bits = cfg.translation->ppn_bits;
  p.perm_bits = cfg.translation->perm_bits;
  p.iid_bits = p.sched.iid_bits;
  p.walkers = p.sched.walkers;
  p.walker_bits = p.sched.walker_bits;
  p.levels = p.sched.levels;
  p.l2 = elaborate_l2tlb(cfg, cfg.iommu->l2tlb, p.iid_bits);
  return p;
}

namespace {

void check_path_widths(const IommuParams& io, unsigned path_l2_tag_bits, unsigned path_vpn_bits,
                       unsigned path_ppn_bits) {
  if (path_l2_tag_bits > io.l2.req_tag_bits)
    throw ConfigError("$.iommu.l2tlb.tag_bits", std::to_string(io.l2.req_tag_bits),
                      "cannot carry the path's " + std::to_string(path_l2_tag_bits) + "-bit L2 tag ({CU, L1 tag})");
  if (path_vpn_bits != io.vpn_bits || path_ppn_bits != io.ppn_bits)
    throw ConfigError("$.translation", std::to_string(io.ppn_bits),
                      "the path and the IOMMU disagree on the VPN or PPN width");
}

}  // namespace

void check_inside_path(const IommuParams& io, unsigned path_l2_tag_bits, unsigned path_vpn_bits,
                       unsigned path_ppn_bits) {
  check_path_widths(io, path_l2_tag_bits, path_vpn_bits, path_ppn_bits);
  if (io.l2.ports != 1)
    throw ConfigError("$.iommu.l2tlb.ports", std::to_string(io.l2.ports),
                      "the path has one L2 port: the L2-TLB inside it (tx_path_<name>_l2) needs exactly 1");
}

void check_behind_path(const IommuParams& io, unsigned path_l2_tag_bits, unsigned path_vpn_bits,
                       unsigned path_ppn_bits, unsigned l2_latency) {
  check_path_widths(io, path_l2_tag_bits, path_vpn_bits, path_ppn_bits);
  const unsigned inside = io.l2.stages + 2;
  if (l2_latency < inside + 2)
    throw ConfigError("--l2-latency", std::to_string(l2_latency),
                      "shorter than the L2-TLB's own " + std::to_string(inside) + " cycles and a wire cycle each way");
}

}  // namespace txgen::elab
