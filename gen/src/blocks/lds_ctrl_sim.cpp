// lds_ctrl: the controller top, the baseline LDS port, the behavioural banked
// SRAM and the co-simulation tops (controller or baseline + SRAM), and the
// block's registry entry.
#include <memory>
#include <string>
#include <vector>

#include "txgen/blocks/bd_codec_layout.h"
#include "txgen/blocks/lds_ctrl_emit.h"

namespace txgen::blocks {
namespace lds {

using elab::LdsCtrlParams;
using hdl::Value;
using std::string;
using ModulePtr = std::unique_ptr<hdl::Module>;

void app_ports(Ctl& c) {
  AppPort& a = c.app;
  a.app_valid_i = c.input("app_valid_i", 1, "application LDS access; always wins the SRAM");
  a.app_we_i = c.input("app_we_i", 1);
  a.app_row_i = c.input("app_row_i", c.p.row_index_bits);
  a.app_bank_en_i = c.input("app_bank_en_i", c.p.banks);
  a.app_wdata_i = c.input("app_wdata_i", c.p.row_bits);
  a.app_rvalid_o = c.output("app_rvalid_o", 1, "read data valid (the cycle after a read)");
  a.app_rdata_o = c.output("app_rdata_o", c.p.row_bits);
}

void sram_ports(Ctl& c, SramSide side) {
  SramPort& s = c.sram;
  s.sram_en_o = c.output("sram_en_o", 1);
  s.sram_we_o = c.output("sram_we_o", 1);
  s.sram_row_o = c.output("sram_row_o", c.p.row_index_bits);
  s.sram_bank_en_o = c.output("sram_bank_en_o", c.p.banks);
  s.sram_wdata_o = c.output("sram_wdata_o", c.p.row_bits);
  if (side == SramSide::Controller) {
    s.sram_rdata_i = c.input("sram_rdata_i", c.p.row_bits, "one cycle after a read");
    return;
  }
  // the co-simulation top: the read data comes from the SRAM instance
  s.sram_rdata_i = c.m.wire("sram_rdata", c.p.row_bits);
  c.ports.push_back({"sram_rdata_i", s.sram_rdata_i});
}

void app_read_path(Ctl& c) {
  const hdl::Reg rvalid = c.m.reg("app_rvalid", 1);
  rvalid.next(c.app.app_valid_i & ~c.app.app_we_i);
  c.app.app_rvalid_o.drive(rvalid);
  c.app.app_rdata_o.drive(c.sram.sram_rdata_i);
}

namespace {

ModulePtr emit_ctrl(const LdsCtrlParams& p, const EmitContext& ctx) {
  auto m = std::make_unique<hdl::Module>(p.module_prefix);
  Ctl c(*m, p);
  header(*m, p, ctx, "controller (lookup latency 4 cycles, 2 for an LDS-mode segment)");
  c.clock_and_reset();
  app_ports(c);
  translation_ports(c);
  sram_ports(c, SramSide::Controller);
  app_read_path(c);
  engine_registers(c);
  control(c);
  datapath(c);
  properties(c);
  return m;
}

}  // namespace

hdl::Interface inner_interface(const LdsCtrlParams& p, const string& name, bool baseline) {
  hdl::Module shape(name);
  Ctl c(shape, p);
  c.clock_and_reset();
  app_ports(c);
  if (!baseline) translation_ports(c);
  sram_ports(c, SramSide::Controller);
  return shape.interface();
}

ModulePtr emit_base(const LdsCtrlParams& p, const EmitContext& ctx) {
  auto m = std::make_unique<hdl::Module>(p.module_prefix + "_base");
  Ctl c(*m, p);
  header(*m, p, ctx, "baseline LDS port, no translation caching");
  c.clock_and_reset();
  app_ports(c);
  sram_ports(c, SramSide::Controller);
  app_read_path(c);
  const AppPort& a = c.app;
  c.sram.sram_en_o.drive(a.app_valid_i);
  c.sram.sram_we_o.drive(a.app_valid_i & a.app_we_i);
  c.sram.sram_row_o.drive(a.app_row_i);
  c.sram.sram_bank_en_o.drive(a.app_bank_en_i);
  c.sram.sram_wdata_o.drive(a.app_wdata_i);
  return m;
}

ModulePtr emit_sram(const LdsCtrlParams& p, const EmitContext& ctx) {
  auto m = std::make_unique<hdl::Module>(p.module_prefix + "_sram");
  header(*m, p, ctx, "behavioural banked SRAM, 1-cycle read (simulation model, not synthesized)");
  hdl::SramSpec s;
  s.depth = p.rows;
  s.lanes = p.banks;
  s.lane_bits = p.bank_bytes * 8;
  s.clk = m->input("clk_i", 1);
  s.en = m->input("en_i", 1);
  s.we = m->input("we_i", 1);
  s.addr = m->input("row_i", p.row_index_bits);
  s.lane_en = m->input("bank_en_i", p.banks);
  s.wdata = m->input("wdata_i", p.row_bits);
  s.init_var = "row";
  m->output("rdata_o", p.row_bits).drive(m->sram(s));
  return m;
}

ModulePtr emit_sys(const LdsCtrlParams& p, const EmitContext& ctx, bool baseline) {
  const string inner = baseline ? p.module_prefix + "_base" : p.module_prefix;
  const hdl::Interface ctrl = inner_interface(p, inner, baseline);
  const hdl::Interface sram = emit_sram(p, ctx)->interface();
  auto m = std::make_unique<hdl::Module>(inner + "_sys");
  Ctl c(*m, p);
  header(*m, p, ctx, "co-simulation top: " + inner + " + behavioural SRAM (not synthesized)");
  c.clock_and_reset();
  app_ports(c);
  if (!baseline) translation_ports(c);
  sram_ports(c, SramSide::SysTop);
  // every port of the controller, by name: the top's own, and the SRAM's read data
  m->instance(ctrl, "u_ctrl", c.ports);
  const SramPort& s = c.sram;
  m->instance(sram, "u_sram",
              {{"clk_i", c.clk_i}, {"en_i", s.sram_en_o}, {"we_i", s.sram_we_o}, {"row_i", s.sram_row_o},
               {"bank_en_i", s.sram_bank_en_o}, {"wdata_i", s.sram_wdata_o}, {"rdata_o", s.sram_rdata_i}});
  return m;
}

namespace {

BlockOutput emit_lds_ctrl(const config::Config& cfg, const EmitContext& ctx) {
  const LdsCtrlParams p = elab::elaborate_lds_ctrl(cfg);
  BlockOutput out;
  out.files = bd_codec_core_files(p.codec, ctx);
  std::vector<ModulePtr> modules;
  modules.push_back(emit_ctrl(p, ctx));
  modules.push_back(emit_base(p, ctx));
  modules.push_back(emit_sram(p, ctx));
  modules.push_back(emit_sys(p, ctx, false));
  modules.push_back(emit_sys(p, ctx, true));
  for (const ModulePtr& m : modules) out.files.push_back({m->name() + ".v", m->render()});
  out.parameters = params_json(p);
  return out;
}

}  // namespace

std::vector<SramArray> sram_arrays(const LdsCtrlParams& p, const std::string& module) {
  return {{module, "LDS bank", p.banks, {p.rows, p.bank_bytes * 8, 1}}};
}

// Per bank, from the SRAM port both modules share (docs/power.md).
std::vector<power::Operation> bank_accesses(const std::string& module) {
  return power::sram_accesses(module, "LDS bank", {"sram_en_o", "sram_bank_en_o"}, "sram_we_o");
}

std::vector<power::Operation> power_operations(const LdsCtrlParams& p) {
  const std::string& m = p.module_prefix;
  std::vector<power::Operation> ops = {{m, "application access", {"app_valid_i"}},
                                       {m, "translation lookup", {"lk_valid_i", "lk_ready_o"}},
                                       {m, "translation hit", {"lk_resp_valid_o", "lk_resp_ready_i", "lk_resp_hit_o"}},
                                       {m, "translation fill", {"fill_valid_i", "fill_ready_o"}},
                                       {m + "_base", "application access", {"app_valid_i"}}};
  for (const std::string& module : {m, m + "_base"})
    for (power::Operation& op : bank_accesses(module)) ops.push_back(std::move(op));
  return ops;
}

}  // namespace lds

BlockInfo lds_ctrl_block() {
  BlockInfo b;
  b.name = "lds_ctrl";
  b.summary = "reconfigurable LDS controller caching translations in idle segments (seed 000, 4.2)";
  b.configured = [](const config::Config& c) { return c.lds_ctrl.has_value(); };
  b.emit = lds::emit_lds_ctrl;
  b.report_json = lds::report_json;
  b.report_markdown = lds::report_markdown;
  b.synth_tops = [](const config::Config& c) {
    const std::string prefix = "lds_ctrl_" + c.name;
    return std::vector<std::string>{prefix, prefix + "_base"};
  };
  // the properties close at k = 2
  b.prove_tops = [](const config::Config& c) { return std::vector<ProveTop>{{"lds_ctrl_" + c.name, 4}}; };
  // the controller and the pass-through sit beside the same banks
  b.sram_arrays = [](const config::Config& c) {
    const elab::LdsCtrlParams p = elab::elaborate_lds_ctrl(c);
    std::vector<SramArray> arrays = lds::sram_arrays(p, p.module_prefix);
    for (const SramArray& a : lds::sram_arrays(p, p.module_prefix + "_base")) arrays.push_back(a);
    return arrays;
  };
  b.power_operations = [](const config::Config& c) { return lds::power_operations(elab::elaborate_lds_ctrl(c)); };
  return b;
}

}  // namespace txgen::blocks
