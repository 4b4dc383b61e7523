// Internal interface of the lds_ctrl emitter, split over lds_ctrl.cpp
// (control: handshake, allocation table, CLEAR, mode bits),
// lds_ctrl_datapath.cpp (segment read/compare/write, response, victims,
// engine state) and lds_ctrl_sim.cpp (baseline, SRAM model, co-simulation
// tops). docs/blocks/lds_ctrl.md is the behaviour.
//
// The pieces pass signals as members of the structs below, one handle per
// signal, named as in the RTL (registers without their _q): the function
// that declares a signal fills its member, the others read it, so a wrong
// name does not compile. A wire read before the function that computes it
// runs is declared by its first reader (where it appears in the RTL) and
// driven later; its comment names the driver.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "txgen/blocks/block.h"
#include "txgen/elab/lds_ctrl.h"
#include "txgen/hdl/lib.h"
#include "txgen/hdl/module.h"

namespace txgen::blocks::lds {

// Engine states and operations. CLEAR and the reset operation are zero so the
// asynchronous reset starts the post-reset clear of the mode bits.
enum State : unsigned { kClear = 0, kIdle = 1, kCmp = 2, kWrite = 3, kVic = 4, kIssue = 5, kDec = 6, kWg = 7 };
enum Op : unsigned { kOpReset = 0, kOpLookup = 1, kOpFill = 2, kOpShoot = 3, kOpAlloc = 4 };
constexpr unsigned kStateBits = 3;
constexpr unsigned kWordBits = 64;

// A module's ports in declaration order, each with the signal that connects
// to the controller's port of that name: the port itself, or in a
// co-simulation top the wire from the SRAM.
using PortList = std::vector<std::pair<std::string, hdl::Value>>;

struct AppPort {
  hdl::Value app_valid_i, app_we_i, app_row_i, app_bank_en_i, app_wdata_i;
  hdl::Wire app_rvalid_o, app_rdata_o;
};

struct TranslationPorts {
  hdl::Value wg_valid_i, wg_free_i, wg_base_i, wg_size_i;
  hdl::Wire wg_ready_o, wg_done_o;
  hdl::Value sd_valid_i, sd_all_i, sd_vpn_i, sd_vmid_i;
  hdl::Wire sd_ready_o, sd_done_o;
  hdl::Value lk_valid_i, lk_vpn_i, lk_vmid_i, lk_vrf_i, lk_resp_ready_i;
  hdl::Wire lk_ready_o, lk_resp_valid_o, lk_resp_hit_o, lk_resp_ppn_o, lk_resp_perm_o;
  hdl::Value fill_valid_i, fill_vpn_i, fill_vmid_i, fill_vrf_i, fill_ppn_i, fill_perm_i;
  hdl::Wire fill_ready_o;
  hdl::Value vic_ready_i;
  hdl::Wire vic_valid_o, vic_vpn_o, vic_vmid_o, vic_vrf_o, vic_ppn_o, vic_perm_o;
};

// The SRAM port as the controller drives it. sram_rdata_i is the read data:
// the input port, or in a co-simulation top the wire sram_rdata.
struct SramPort {
  hdl::Wire sram_en_o, sram_we_o, sram_row_o, sram_bank_en_o, sram_wdata_o;
  hdl::Value sram_rdata_i;
};

// A translation's fields, one value each: n ways wide where they hold a
// segment's entries, one entry wide for a key or a victim.
struct Entry {
  hdl::Value valid, lru, vmid, vrf, va, ppn, perm;
};

// The engine's registers that the control logic reads before the datapath
// computes their next states (engine_registers()).
struct EngineRegs {
  hdl::Reg state, op, seg;
  hdl::Reg key_vmid, key_vrf, key_va, key_ppn, key_perm;  // the request's key; ppn, perm: a fill's
  hdl::Reg resp_valid;
  Entry key() const;  // the key registers as an entry (no valid, no rank)
};

// ---- Control (lds_ctrl.cpp)

// Request acceptance and the registered work-group request.
struct Acceptance {
  hdl::Value st_idle, wg_fire, sd_fire, lk_fire, fill_fire, key_fire, sd_all_fire;
  hdl::Reg wgr_free, wgr_base, wgr_size;
  hdl::Value st_wg, wg_alloc_go, wg_free_go, wg_empty;
  hdl::Wire table_free;  // driven by allocation_table()
};

// The accepted request (acc_*), the mode bit of the registered segment and
// the ISSUE decision.
struct Decode {
  hdl::Value acc_vmid, acc_vrf, acc_seg, acc_va;
  hdl::Reg mode_seg;
  hdl::Value mode_cur;
  hdl::Wire alloc_hit;  // driven by allocation_table() (= its alloc_hit_q)
  hdl::Value st_issue, op_fill, op_lookup, op_shoot, issue_go, rd_fire, init_fire, bypass_fire;
};

// The allocation table: K (valid, base, end) ranges of allocated segments.
struct AllocTable {
  hdl::Reg wgr_end, tv, alloc_hit;
  hdl::Value tab_ins;  // the slot an allocation takes (the wire tab_ins = tab_ins_q)
  std::vector<hdl::Reg> tbase, tend;
};

// The CLEAR walker.
struct ClearWalker {
  hdl::Reg clr_g, clr_lo, clr_grp_n;
  hdl::Value clr_end, clr_end_g, st_clear, clr_g_ext, clr_g_next, clr_end_low, clear_last;
  hdl::Wire clr_local, clr_all;
};

// The mode bits and the application writes that clear them.
struct ModeBits {
  hdl::Reg mode;
  hdl::Value app_wr;
  hdl::Wire app_touched, app_clr;
};

// ---- Datapath (lds_ctrl_datapath.cpp), stage by stage

struct Datapath {
  // CMP: the segment read, unpacked (rd_*); DEC: its register (dec_*_q)
  Entry rd, dec;
  hdl::Value st_dec;
  hdl::Reg dec_match_sd, dec_hit_oh, dec_inv_oh, dec_lru_oh;
  // ranks and way choice
  hdl::Value lru_oh, hit_oh, any_hit, any_sd, full, way_oh, rank_upd, valid_upd;
  // the candidate (cand_*_q) and the segment image written
  hdl::Value st_cmp;
  Entry cand;
  hdl::Value pk_dropped, seg_image;
  hdl::Reg in_issue;
  // the SRAM port, the response, the victims
  hdl::Value st_write, tfree, wr_go, resp_cmp, wr_cancel_fill, st_vic, vic_last;
  Entry ev;
  hdl::Reg ev_flag, pend;
};

// The controller under construction: the module, its parameters and the
// signals of each piece.
class Ctl {
 public:
  Ctl(hdl::Module& module, const elab::LdsCtrlParams& params) : m(module), p(params) {}
  hdl::Module& m;
  const elab::LdsCtrlParams& p;

  PortList ports;
  hdl::Value clk_i, rst_ni;
  AppPort app;
  TranslationPorts tx;
  SramPort sram;
  EngineRegs eng;
  Acceptance accept;
  Decode decode;
  AllocTable table;
  ClearWalker clear;
  ModeBits modes;
  Datapath dp;

  // A port, entered in `ports`.
  hdl::Value input(const std::string& name, unsigned width, const std::string& comment = "");
  hdl::Wire output(const std::string& name, unsigned width, const std::string& comment = "");
  void clock_and_reset();  // clk_i, rst_ni
  // The engine's state and operation compared with a constant.
  hdl::Value state_is(State s) const;
  hdl::Value op_is(Op o) const;
};

std::string indexed(const std::string& base, unsigned i);  // base + i

void header(hdl::Module& m, const elab::LdsCtrlParams& p, const EmitContext& ctx, const std::string& role);
void app_ports(Ctl& c);
void translation_ports(Ctl& c);
// The SRAM port as seen from the controller (outputs, rdata input) or from
// the co-simulation top (outputs, rdata a wire from the SRAM).
enum class SramSide { Controller, SysTop };
void sram_ports(Ctl& c, SramSide side);
// app_rvalid_o register and app_rdata_o wire.
void app_read_path(Ctl& c);

void engine_registers(Ctl& c);  // lds_ctrl_datapath.cpp
void control(Ctl& c);           // lds_ctrl.cpp
void datapath(Ctl& c);          // lds_ctrl_datapath.cpp
void properties(Ctl& c);        // lds_ctrl_props.cpp: formal properties (txgen prove)

// The ports of the controller (module `name`) or of the baseline, to connect by name.
hdl::Interface inner_interface(const elab::LdsCtrlParams& p, const std::string& name, bool baseline);
std::unique_ptr<hdl::Module> emit_base(const elab::LdsCtrlParams& p, const EmitContext& ctx);
std::unique_ptr<hdl::Module> emit_sram(const elab::LdsCtrlParams& p, const EmitContext& ctx);
// The LDS banks beside `module` (one macro per bank: rows x bank width).
std::vector<SramArray> sram_arrays(const elab::LdsCtrlParams& p, const std::string& module);
std::unique_ptr<hdl::Module> emit_sys(const elab::LdsCtrlParams& p, const EmitContext& ctx, bool baseline);

nlohmann::json params_json(const elab::LdsCtrlParams& p);
nlohmann::json report_json(const config::Config& cfg);
std::string report_markdown(const config::Config& cfg);

}  // namespace txgen::blocks::lds
