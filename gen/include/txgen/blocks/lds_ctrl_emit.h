// Internal interface of the lds_ctrl emitter, split over lds_ctrl.cpp
// (control: handshake, allocation table, CLEAR, mode bits),
// lds_ctrl_datapath.cpp (segment read/compare/write, response, victims,
// engine state) and lds_ctrl_sim.cpp (baseline, SRAM model, co-simulation
// tops). docs/blocks/lds_ctrl.md is the behaviour.
#pragma once

#include <map>
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

// The controller under construction: the module, its parameters and the
// signals shared between the emitter's functions, by name. Ports and
// registers (foo_q) are entered when declared; a wire used before the
// function that computes it runs is declared with later() and driven by def().
class Ctl {
 public:
  Ctl(hdl::Module& module, const elab::LdsCtrlParams& params) : m(module), p(params) {}
  hdl::Module& m;
  const elab::LdsCtrlParams& p;

  // A declared signal (port, wire or register output foo_q).
  hdl::Value operator[](const std::string& name) const;
  // name = v (a new wire, or one announced by later()).
  hdl::Value def(const std::string& name, const hdl::Value& v);
  // A wire of `width` bits driven by a later def(name, ...) or bit by bit.
  hdl::Wire later(const std::string& name, unsigned width);
  // A register foo_q / foo_d (reset to zero); reg(name) finds it again.
  hdl::Reg reg(const std::string& name, unsigned width);
  hdl::Reg reg_noreset(const std::string& name, unsigned width);
  const hdl::Reg& reg(const std::string& name) const;
  void input(const std::string& name, unsigned width, const std::string& comment = "");
  void output(const std::string& name, unsigned width, const std::string& comment = "");
  void clock_and_reset();  // clk_i, rst_ni
  // The engine's state and operation compared with a constant.
  hdl::Value state_is(State s) const;
  hdl::Value op_is(Op o) const;

 private:
  std::map<std::string, hdl::Value> sig_;
  std::map<std::string, hdl::Wire> pending_;
  std::map<std::string, hdl::Reg> regs_;
};

std::string indexed(const std::string& base, unsigned i);  // base + i

void header(hdl::Module& m, const elab::LdsCtrlParams& p, const EmitContext& ctx, const std::string& role);
void app_ports(Ctl& c);
void translation_ports(Ctl& c);
// The SRAM port as seen from the controller (outputs, rdata input), the SRAM
// (inputs, rdata output) or the co-simulation top (outputs, no rdata).
enum class SramSide { Controller, Sram, SysTop };
void sram_ports(Ctl& c, SramSide side);
// app_rvalid_o register and app_rdata_o wire.
void app_read_path(Ctl& c);

// The engine's registers that the control logic reads before the datapath
// computes their next states (state, operation, segment, key, response).
void engine_registers(Ctl& c);  // lds_ctrl_datapath.cpp
void control(Ctl& c);           // lds_ctrl.cpp
void datapath(Ctl& c);          // lds_ctrl_datapath.cpp
void properties(Ctl& c);        // lds_ctrl_props.cpp: formal properties (txgen prove)

// The ports of the controller (module `name`) or of the baseline, to connect by name.
hdl::Interface inner_interface(const elab::LdsCtrlParams& p, const std::string& name, bool baseline);
std::unique_ptr<hdl::Module> emit_base(const elab::LdsCtrlParams& p, const EmitContext& ctx);
std::unique_ptr<hdl::Module> emit_sram(const elab::LdsCtrlParams& p, const EmitContext& ctx);
std::unique_ptr<hdl::Module> emit_sys(const elab::LdsCtrlParams& p, const EmitContext& ctx, bool baseline);

nlohmann::json params_json(const elab::LdsCtrlParams& p);
nlohmann::json report_json(const config::Config& cfg);
std::string report_markdown(const config::Config& cfg);

}  // namespace txgen::blocks::lds
