// Internal interface of the icache_tx emitter, split over icache_tx.cpp
// (ports, instruction side, line modes, recency, flush, arbitration, the
// registry entry), icache_tx_engine.cpp (the translation engine) and
// icache_tx_sim.cpp (behavioural SRAMs and co-simulation tops).
// docs/blocks/icache_tx.md is the behaviour.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "txgen/blocks/block.h"
#include "txgen/elab/icache_tx.h"
#include "txgen/hdl/lib.h"

namespace txgen::blocks::icache {

// Engine states; IDLE is zero so the reset leaves the engine idle.
enum State : unsigned { kIdle = 0, kIssue = 1, kDec = 2, kCmp = 3, kWrite = 4, kVic = 5, kPack = 6 };
enum Op : unsigned { kOpLookup = 0, kOpFill = 1, kOpShoot = 2 };
constexpr unsigned kStateBits = 3;
constexpr unsigned kOpBits = 2;
constexpr unsigned kSlotBits = 64;

// Tag SRAM entry width of the controller (E) or of the baseline (TB).
unsigned entry_width(const elab::IcacheTxParams& p, bool baseline);

// A module's ports in declaration order, each with the signal that connects
// to the controller's port of that name: the port itself, or in a
// co-simulation top the read data wire from an SRAM.
using PortList = std::vector<std::pair<std::string, hdl::Value>>;

struct InstructionPorts {
  hdl::Value if_valid_i, if_addr_i;
  hdl::Wire if_ready_o, if_resp_valid_o, if_resp_hit_o, if_resp_data_o;
  hdl::Value ifill_valid_i, ifill_addr_i, ifill_data_i;
  hdl::Wire ifill_ready_o;
  hdl::Value flush_valid_i;
  hdl::Wire flush_ready_o, flush_done_o;
};

struct TranslationPorts {
  hdl::Value tl_valid_i, tl_vpn_i, tl_vmid_i, tl_vrf_i, tl_resp_ready_i;
  hdl::Wire tl_ready_o, tl_resp_valid_o, tl_resp_cu_o, tl_resp_hit_o, tl_resp_ppn_o, tl_resp_perm_o;
  hdl::Value tf_valid_i, tf_vpn_i, tf_vmid_i, tf_vrf_i, tf_ppn_i, tf_perm_i;
  hdl::Wire tf_ready_o;
  hdl::Value vic_ready_i;
  hdl::Wire vic_valid_o, vic_vpn_o, vic_vmid_o, vic_vrf_o, vic_ppn_o, vic_perm_o;
  hdl::Value sd_valid_i, sd_all_i, sd_vpn_i, sd_vmid_i;
  hdl::Wire sd_ready_o, sd_done_o;
};

// The tag and data SRAM ports as the controller drives them. The read data:
// input ports, or in a co-simulation top the wires tag_rdata and data_rdata.
struct SramPorts {
  hdl::Wire tag_en_o, tag_we_o, tag_set_o, tag_way_en_o, tag_wdata_o;
  hdl::Value tag_rdata_i;
  hdl::Wire data_en_o, data_we_o, data_line_o, data_wdata_o;
  hdl::Value data_rdata_i;
};

// The ports of a controller, its interface or a co-simulation top.
struct Io {
  explicit Io(hdl::Module& mod) : m(mod) {}
  hdl::Module& m;
  PortList ports;
  InstructionPorts ins;
  TranslationPorts tx;
  SramPorts sram;
  // A port, entered in `ports`.
  hdl::Value input(const std::string& name, unsigned width, const std::string& comment = "");
  hdl::Wire output(const std::string& name, unsigned width, const std::string& comment = "");
};

void header(hdl::Module& m, const elab::IcacheTxParams& p, const EmitContext& ctx, const std::string& role);
void instruction_ports(Io& io, const elab::IcacheTxParams& p);
void translation_ports(Io& io, const elab::IcacheTxParams& p);
// Tag and data SRAM ports as the controller sees them (drive "_o", read "_i"),
// or as a co-simulation top brings them out (the read data from the SRAMs).
enum class SramSide { Controller, SysTop };
void sram_ports(Io& io, const elab::IcacheTxParams& p, bool baseline, SramSide side);

// The controller's signals that cross from one section to another.
struct Ctl {
  Ctl(hdl::Module& mod, const elab::IcacheTxParams& params, bool base)
      : m(mod), p(params), baseline(base), io(mod) {}
  hdl::Module& m;
  const elab::IcacheTxParams& p;
  bool baseline;
  Io io;
  // state read before the section that sets it
  hdl::Reg lv, ltx, age;
  // instruction side, read by the engine and the SRAM ports
  hdl::Value f2, ifill_fire, if_fire, if_set, f1_any, f1_way, port_free, ifill_line;
  hdl::Value tk_hot, tk_way, tf_hot, tf_way, flush_fire;
  hdl::Reg s1_valid, s1_set, s1_sel, fs, fset, fsel, fway;
  // engine, read by the instruction side
  hdl::Value eng_idle, sd_all_fire, eng_init, eng_empty, te_hot, te_way;
  hdl::Value eng_tag_en, eng_tag_we, eng_tag_set, eng_tag_way_en, eng_tag_entry;
  hdl::Value eng_data_en, eng_data_we, eng_data_line, eng_data_wdata;
  hdl::Reg lsel;
};

// icache_tx.cpp: instruction fetch and fill (before the engine), then flush,
// line modes, recency and the SRAM ports (after it).
void instruction_side(Ctl& c);
void modes_and_ports(Ctl& c);
// icache_tx_engine.cpp: arbitration, the engine, response, victims, shootdown.
void engine(Ctl& c);
// Formal properties of the instruction side (icache_tx.cpp; the engine's are
// stated in engine()).
void instruction_properties(Ctl& c);

// The ports of the controller (module `name`) or of the baseline, to connect by name.
hdl::Interface ctrl_interface(const elab::IcacheTxParams& p, const std::string& name, bool baseline);
std::unique_ptr<hdl::Module> emit_tag_sram(const elab::IcacheTxParams& p, const EmitContext& ctx, bool baseline);
std::unique_ptr<hdl::Module> emit_data_sram(const elab::IcacheTxParams& p, const EmitContext& ctx);
// The tag array (one word of A entries per set; the baseline's entries are
// narrower) and the data array beside `module`.
std::vector<SramArray> sram_arrays(const elab::IcacheTxParams& p, const std::string& module, bool baseline);
std::unique_ptr<hdl::Module> emit_sys(const elab::IcacheTxParams& p, const EmitContext& ctx, bool baseline);

nlohmann::json params_json(const elab::IcacheTxParams& p);
nlohmann::json report_json(const config::Config& cfg);
std::string report_markdown(const config::Config& cfg);

}  // namespace txgen::blocks::icache
