// Storage report and registry entry of the L2-TLB and the IOMMU.
#include <sstream>

#include "txgen/blocks/iommu_emit.h"
#include "txgen/blocks/walk_sched_emit.h"
#include "txgen/ports/iommu.h"

namespace txgen::blocks {
namespace iommu {

using elab::IommuParams;
using nlohmann::json;

namespace {

struct Storage {
  unsigned array, plru, mshrs, waiters, walkers;
};

Storage storage(const IommuParams& p) {
  const elab::L2tlbParams& l = p.l2;
  const unsigned vm = p.vmid_bits, vpn = p.vpn_bits, tr = p.ppn_bits + p.perm_bits;
  Storage s{};
  s.array = l.entries * (1 + vm + l.tag_bits + tr);
  s.plru = l.sets * (l.ways - 1);
  s.mshrs = l.mshrs * (vpn + vm + p.iid_bits + tr + 4);
  s.waiters = l.waiters * (3 + l.port_bits + l.req_tag_bits + vpn + vm + l.mshr_bits + tr);
  s.walkers = p.walkers * (vm + vpn + p.level_bits + 1);
  return s;
}

}  // namespace

void header(hdl::Module& m, const IommuParams& p, const EmitContext& ctx, const std::string& role) {
  module_header(m, ctx, "iommu", role, params_json(p));
}

json params_json(const IommuParams& p) {
  const elab::L2tlbParams& l = p.l2;
  return {{"module_prefix", p.module_prefix}, {"l2_entries", l.entries},  {"l2_ways", l.ways},
          {"l2_ports", l.ports},             {"l2_tag_bits", l.req_tag_bits}, {"l2_mshrs", l.mshrs},
          {"l2_waiters", l.waiters},         {"l2_lookup_stages", l.stages}, {"l2_answer_register", l.answer_register}, {"policy", config::name_of(p.sched.policy)},
          {"buffer_entries", p.sched.entries}, {"walkers", p.walkers},     {"levels", p.levels},
          {"pwc_entries", p.sched.pwc_entries}, {"vpn_bits", p.vpn_bits},  {"vmid_bits", p.vmid_bits},
          {"iid_bits", p.iid_bits}};
}

json report_json(const config::Config& cfg) {
  const IommuParams p = elab::elaborate_iommu(cfg);
  const Storage s = storage(p);
  json sched = walk_sched::report_json(cfg)["storage_bits"];
  return {{"block", "iommu"},
          {"parameters", params_json(p)},
          {"hit_latency", p.l2.stages + 2},
          {"storage_bits",
           {{"l2_array", s.array},
            {"l2_plru", s.plru},
            {"l2_mshrs", s.mshrs},
            {"l2_waiters", s.waiters},
            {"iommu_walkers", s.walkers},
            {"iommu_scheduler", sched}}}};
}

std::string report_markdown(const config::Config& cfg) {
  const IommuParams p = elab::elaborate_iommu(cfg);
  const elab::L2tlbParams& l = p.l2;
  const Storage s = storage(p);
  std::ostringstream os;
  os << "## iommu (" << cfg.name << ")\n\n"
     << "| state | bits |\n|---|---:|\n"
     << "| L2-TLB array: " << l.entries << " x (valid, VMID " << p.vmid_bits << ", tag " << l.tag_bits << ", PPN "
     << p.ppn_bits << ", perm " << p.perm_bits << "), " << l.sets << " sets x " << l.ways << " ways | " << s.array
     << " |\n"
     << "| L2-TLB pseudo-LRU | " << s.plru << " |\n"
     << "| L2-TLB MSHRs: " << l.mshrs << " | " << s.mshrs << " |\n"
     << "| L2-TLB waiter slots: " << l.waiters << " | " << s.waiters << " |\n"
     << "| IOMMU walkers: " << p.walkers << " | " << s.walkers << " |\n\n"
     << "A hit is answered " << l.stages + 2 << " cycles after it is taken (" << l.stages
     << " lookup stages). The scheduler (`" << p.sched.module_prefix << "`, " << config::name_of(p.sched.policy)
     << ", " << p.sched.entries << " entries, on {VMID, VPN}):\n\n"
     << walk_sched::report_markdown(cfg).substr(walk_sched::report_markdown(cfg).find('|'));
  return os.str();
}

namespace {

BlockOutput emit_block(const config::Config& cfg, const EmitContext& ctx) {
  const IommuParams p = elab::elaborate_iommu(cfg);
  const auto sched = walk_sched::build_top(p.sched, ctx);
  const auto l2 = emit_l2tlb(p, ctx);
  const auto io = emit_iommu(p, ctx, sched->interface());
  const auto sys = emit_sys(p, ctx, l2->interface(), io->interface());
  BlockOutput out;
  for (const hdl::Module* m : {l2.get(), sched.get(), io.get(), sys.get()})
    out.files.push_back({m->name() + ".v", m->render()});
  out.parameters = params_json(p);
  return out;
}

std::vector<std::string> synth_tops(const config::Config& c) {
  const IommuParams p = elab::elaborate_iommu(c);
  return {p.l2.module_prefix, p.module_prefix};
}

// From the ports (docs/power.md): the IOMMU's memory requests are the page walks' PTE reads.
std::vector<power::Operation> power_operations(const config::Config& c) {
  const IommuParams p = elab::elaborate_iommu(c);
  const std::string& l2 = p.l2.module_prefix;
  const std::string& io = p.module_prefix;
  return {{l2, "lookup", {"req_valid_i", "req_ready_o"}},
          {l2, "response", {"resp_valid_o", "resp_ready_i"}},
          {l2, "walk request", {"walk_req_valid_o", "walk_req_ready_i"}},
          {l2, "insert", {"ins_valid_i", "ins_ready_o"}},
          {io, "translation request", {"req_valid_i", "req_ready_o"}},
          {io, "response", {"resp_valid_o"}},
          {io, "PTE read", {"mem_req_valid_o", "mem_req_ready_i"}}};
}

// The L2-TLB (an operation's way through its D stages and the answer after
// it), the scheduler (its own properties, its depth: a selection and the
// dispatch after it), then the IOMMU assuming the scheduler's.
std::vector<ProveTop> prove_tops(const config::Config& c) {
  const IommuParams p = elab::elaborate_iommu(c);
  return {{p.l2.module_prefix, p.l2.stages + 2},
          {p.sched.module_prefix, p.sched.select_latency + 3},
          {p.module_prefix, 6, true}};
}

std::vector<CosimTop> cosim_tops(const config::Config& c) {
  const IommuParams p = elab::elaborate_iommu(c);
  return {{"sys", p.module_prefix + "_sys", ports::iommu_sys_ports(p)}};
}

}  // namespace
}  // namespace iommu

BlockInfo iommu_block() {
  BlockInfo b;
  b.name = "iommu";
  b.summary = "shared L2-TLB with MSHRs and the IOMMU: walk_sched buffer and walkers (seed 002 II-B, Table I)";
  b.configured = [](const config::Config& c) { return c.iommu.has_value(); };
  b.emit = iommu::emit_block;
  b.report_json = iommu::report_json;
  b.report_markdown = iommu::report_markdown;
  b.synth_tops = iommu::synth_tops;
  b.prove_tops = iommu::prove_tops;
  b.cosim_tops = iommu::cosim_tops;
  b.power_operations = iommu::power_operations;
  return b;
}

}  // namespace txgen::blocks
