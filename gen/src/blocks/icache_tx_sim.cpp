// icache_tx: behavioural tag and data SRAMs and the co-simulation tops
// (controller or baseline + both SRAMs). Not synthesized.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "txgen/blocks/icache_tx_emit.h"

namespace txgen::blocks::icache {

using elab::IcacheTxParams;
using hdl::Module;
using hdl::SramSpec;
using hdl::Value;
using std::string;

namespace {

string tag_sram_name(const IcacheTxParams& p, bool baseline) {
  return p.module_prefix + (baseline ? "_base" : "") + "_tag_sram";
}

// The SRAM ports shared by both memories: clock, enable, write enable.
SramSpec sram_control(Module& m) {
  SramSpec s;
  s.clk = m.input("clk_i", 1);
  s.en = m.input("en_i", 1);
  s.we = m.input("we_i", 1);
  return s;
}

}  // namespace

std::unique_ptr<Module> emit_tag_sram(const IcacheTxParams& p, const EmitContext& ctx, bool baseline) {
  const unsigned e = entry_width(p, baseline);
  auto mod = std::make_unique<Module>(tag_sram_name(p, baseline));
  Module& m = *mod;
  header(m, p, ctx, "behavioural tag SRAM, one word per set, way-enabled writes, 1-cycle read (simulation model)");
  SramSpec s = sram_control(m);
  s.depth = p.sets;
  s.lanes = p.ways;
  s.lane_bits = e;
  s.addr = m.input("set_i", p.set_bits);
  s.lane_en = m.input("way_en_i", p.ways);
  s.wdata = m.input("wdata_i", p.ways * e);
  m.output("rdata_o", p.ways * e).drive(m.sram(s));
  return mod;
}

std::unique_ptr<Module> emit_data_sram(const IcacheTxParams& p, const EmitContext& ctx) {
  auto mod = std::make_unique<Module>(p.module_prefix + "_data_sram");
  Module& m = *mod;
  header(m, p, ctx, "behavioural data SRAM, one word per line, 1-cycle read (simulation model)");
  SramSpec s = sram_control(m);
  s.depth = p.lines;
  s.lane_bits = p.line_bits;
  s.addr = m.input("line_i", p.line_index_bits);
  s.wdata = m.input("wdata_i", p.line_bits);
  m.output("rdata_o", p.line_bits).drive(m.sram(s));
  return mod;
}

hdl::Interface ctrl_interface(const IcacheTxParams& p, const string& name, bool baseline) {
  Module shape(name);
  Io io(shape);
  shape.clock_and_reset();
  instruction_ports(io, p);
  if (!baseline) translation_ports(io, p);
  sram_ports(io, p, baseline, SramSide::Controller);
  return shape.interface();
}

std::unique_ptr<Module> emit_sys(const IcacheTxParams& p, const EmitContext& ctx, bool baseline) {
  const string inner = baseline ? p.module_prefix + "_base" : p.module_prefix;
  const hdl::Interface ctrl = ctrl_interface(p, inner, baseline);
  const hdl::Interface tag = emit_tag_sram(p, ctx, baseline)->interface();
  const hdl::Interface data = emit_data_sram(p, ctx)->interface();
  auto mod = std::make_unique<Module>(inner + "_sys");
  Module& m = *mod;
  header(m, p, ctx, "co-simulation top: " + inner + " + behavioural SRAMs (not synthesized)");
  Io io(m);
  const Value clk = io.input("clk_i", 1);
  io.input("rst_ni", 1, "asynchronous, active low");
  instruction_ports(io, p);
  if (!baseline) translation_ports(io, p);
  sram_ports(io, p, baseline, SramSide::SysTop);
  // every port of the controller, by name: the top's own, and the SRAMs' read data
  m.instance(ctrl, "u_ctrl", io.ports);
  const SramPorts& s = io.sram;
  m.instance(tag, "u_tag",
             {{"clk_i", clk}, {"en_i", s.tag_en_o}, {"we_i", s.tag_we_o}, {"set_i", s.tag_set_o},
              {"way_en_i", s.tag_way_en_o}, {"wdata_i", s.tag_wdata_o}, {"rdata_o", s.tag_rdata_i}});
  m.instance(data, "u_data",
             {{"clk_i", clk}, {"en_i", s.data_en_o}, {"we_i", s.data_we_o}, {"line_i", s.data_line_o},
              {"wdata_i", s.data_wdata_o}, {"rdata_o", s.data_rdata_i}});
  return mod;
}

}  // namespace txgen::blocks::icache
