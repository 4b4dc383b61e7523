// Internal interface of the iommu emitter: the L2-TLB (iommu_l2tlb.cpp), the
// IOMMU with its walkers and the sys top (iommu.cpp), and the registry entry
// and storage report (iommu_report.cpp). docs/blocks/iommu.md is the
// behaviour.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "txgen/blocks/block.h"
#include "txgen/elab/iommu.h"
#include "txgen/hdl/module.h"

namespace txgen::blocks::iommu {

using ModulePtr = std::unique_ptr<hdl::Module>;

// A loop over n entries in a scope (the module's, or its formal region); with
// one entry its body in the scope itself, so that a one-bit vector is never
// indexed by a genvar.
inline void each_entry(hdl::Scope& s, const std::string& var, unsigned n, const std::string& label,
                       const std::function<void(hdl::Scope&, const hdl::Index&)>& body) {
  if (n == 1) body(s, hdl::Index(0));
  else s.generate_for(var, n, label, body);
}
inline void each_entry(hdl::Module& m, const std::string& var, unsigned n, const std::string& label,
                       const std::function<void(hdl::Scope&, const hdl::Index&)>& body) {
  each_entry(m.top(), var, n, label, body);
}

// iommu_NAME_l2tlb: the shared L2-TLB.
ModulePtr emit_l2tlb(const elab::IommuParams& p, const EmitContext& ctx);
// iommu_NAME: the IOMMU, instantiating `sched` (iommu_NAME_walk_sched).
ModulePtr emit_iommu(const elab::IommuParams& p, const EmitContext& ctx, const hdl::Interface& sched);
// iommu_NAME_sys: the two joined.
ModulePtr emit_sys(const elab::IommuParams& p, const EmitContext& ctx, const hdl::Interface& l2,
                   const hdl::Interface& iommu);

void header(hdl::Module& m, const elab::IommuParams& p, const EmitContext& ctx, const std::string& role);
nlohmann::json params_json(const elab::IommuParams& p);
nlohmann::json report_json(const config::Config& cfg);
std::string report_markdown(const config::Config& cfg);

}  // namespace txgen::blocks::iommu
