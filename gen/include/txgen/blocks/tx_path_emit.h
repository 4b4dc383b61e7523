// Internal interface of the tx_path emitter, split over tx_path.cpp (the
// per-CU glue), tx_path_top.cpp (the path top, the baseline path, the
// simulation tops and the registry entry) and tx_path_report.cpp.
// docs/blocks/tx_path.md is the behaviour.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "txgen/blocks/block.h"
#include "txgen/elab/iommu.h"
#include "txgen/elab/tx_path.h"
#include "txgen/hdl/module.h"

namespace txgen::blocks::tx_path {

using ModulePtr = std::unique_ptr<hdl::Module>;
using Conn = std::vector<std::pair<std::string, hdl::Value>>;

// A translation's fields as they travel between the structures.
struct Tx {
  hdl::Value vpn, vmid, vrf, ppn, perm;
};

// A shootdown key: `active` at an edge that accepts a shootdown (the
// accepted key) or while one is pending (the pending key); kills(x): active
// and matching x (docs/blocks/tx_path.md, "Dropping stale victims").
struct Shoot {
  hdl::Value active, all, vpn, vmid;
  hdl::Value kills(const hdl::Value& vpn_x, const hdl::Value& vmid_x) const {
    return active & (all | ((vpn_x == vpn) & (vmid_x == vmid)));
  }
};

void header(hdl::Module& m, const elab::TxPathParams& p, const EmitContext& ctx, const std::string& role);
// tx_path_NAME_cu: the glue of one CU.
ModulePtr emit_cu(const elab::TxPathParams& p, const EmitContext& ctx);
// tx_path_NAME (or _base): the path.
ModulePtr emit_top(const elab::TxPathParams& p, const EmitContext& ctx, bool baseline);
// A port of tx_path_NAME through which it reaches an LDS or I-cache SRAM.
bool is_sram_port(const std::string& name);
// tx_path_NAME_sys (or _base_sys): the path with every SRAM inside.
ModulePtr emit_sys(const elab::TxPathParams& p, const EmitContext& ctx, bool baseline);

// The L2-TLB and IOMMU of a configuration with an iommu section, checked to
// fit inside the path (elab::check_inside_path).
elab::IommuParams elaborate_l2_inside(const config::Config& cfg, const elab::TxPathParams& p);
// tx_path_NAME_l2 (or, `sim`, tx_path_NAME_l2_sys): the path (tx_path_NAME, or
// tx_path_NAME_sys) joined to iommu_NAME_sys (tx_path_l2.cpp).
ModulePtr emit_l2_top(const elab::TxPathParams& p, const elab::IommuParams& io, const EmitContext& ctx, bool sim);

nlohmann::json params_json(const elab::TxPathParams& p);
nlohmann::json report_json(const config::Config& cfg);
std::string report_markdown(const config::Config& cfg);

}  // namespace txgen::blocks::tx_path
