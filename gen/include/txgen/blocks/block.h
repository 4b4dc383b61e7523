// What every block offers the CLI: emission, a storage/layout report and its
// synthesis tops. Blocks register here; the CLI iterates the registry.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "txgen/config/config.h"
#include "txgen/hdl/module.h"
#include "txgen/ports/ports.h"
#include "txgen/power/operation.h"
#include "txgen/synth/sram_macro.h"

namespace txgen::blocks {

struct EmitContext {
  std::string version;      // generator version
  std::string config_hash;  // hash of the configuration document
};

// The header every emitted module starts with: the generator's version and
// "do not edit", the block and the module's role, the configuration hash, and
// the elaborated parameters that shaped it (the manifest's, name=value; the
// writer wraps them at 100 columns).
void module_header(hdl::Module& m, const EmitContext& ctx, const std::string& block, const std::string& role,
                   const nlohmann::json& params);

struct EmittedFile {
  std::string name;  // file name, = module name + ".v"
  std::string text;
};

struct BlockOutput {
  std::vector<EmittedFile> files;
  nlohmann::json parameters;  // elaborated parameters, for the manifest
};

// A module whose formal properties `txgen prove` proves, and the default
// depth (BMC steps from reset and induction length) for it. With
// assume_members, the properties of the modules it instantiates are its
// assumptions (each member must then be a ProveTop of the same run, listed
// before it, so that they are proven too); otherwise they are removed.
struct ProveTop {
  std::string module;
  unsigned depth;
  bool assume_members = false;
};

// A module the block's lock-step harness drives: its role in the
// co-simulation ("sys"; "base" for the baseline top; "comp" / "decomp"), its
// name and its declared ports (txgen/ports/<block>.h).
struct CosimTop {
  std::string role, module;
  std::vector<ports::Port> ports;
};

// The blocks' behavioural SRAMs, which the whole structure's cost counts
// with the module's logic through the macro model.
using synth::SramArray;

struct BlockInfo {
  std::string name;
  std::string summary;
  bool (*configured)(const config::Config&);
  // Throws ConfigError when the configuration cannot be built.
  BlockOutput (*emit)(const config::Config&, const EmitContext&);
  nlohmann::json (*report_json)(const config::Config&);
  std::string (*report_markdown)(const config::Config&);
  std::vector<std::string> (*synth_tops)(const config::Config&);  // modules with a clock
  // Modules with formal properties; null for a block that states none.
  std::vector<ProveTop> (*prove_tops)(const config::Config&) = nullptr;
  // The modules the lock-step harness drives, with their ports.
  std::vector<CosimTop> (*cosim_tops)(const config::Config&) = nullptr;
  // The SRAM arrays beside its synthesized modules; null for a block with none.
  std::vector<SramArray> (*sram_arrays)(const config::Config&) = nullptr;
  // What `txgen power` counts in its modules' RTL: operations for the energy
  // per operation, and "<array> read" / "<array> write" for each SRAM array
  // of sram_arrays; null for a block that declares none.
  std::vector<power::Operation> (*power_operations)(const config::Config&) = nullptr;
};

const std::vector<BlockInfo>& registry();
const BlockInfo* find_block(const std::string& name);
std::string block_names();  // "bd_codec, ..." for help texts

// Per-block entries (one per block source file).
BlockInfo bd_codec_block();
BlockInfo lds_ctrl_block();
BlockInfo dhsl_block();
BlockInfo walk_sched_block();
BlockInfo icache_tx_block();
BlockInfo l1tlb_block();
BlockInfo ata_block();
BlockInfo tx_path_block();
BlockInfo iommu_block();

}  // namespace txgen::blocks
