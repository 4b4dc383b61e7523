// lds_ctrl: the controller top, the baseline LDS port, the behavioural banked
// SRAM and the co-simulation tops (controller or baseline + SRAM), and the
// block's registry entry.
#include <string>
#include <vector>

#include "txgen/blocks/bd_codec_layout.h"
#include "txgen/blocks/lds_ctrl_emit.h"

namespace txgen::blocks {
namespace lds {

using elab::LdsCtrlParams;
using emit::Module;
using emit::sized;
using emit::slice;
using std::string;
using std::to_string;

void app_ports(Module& m, const LdsCtrlParams& p) {
  m.input("app_valid_i", 1, "application LDS access; always wins the SRAM");
  m.input("app_we_i", 1);
  m.input("app_row_i", p.row_index_bits);
  m.input("app_bank_en_i", p.banks);
  m.input("app_wdata_i", p.row_bits);
  m.output("app_rvalid_o", 1, "read data valid (the cycle after a read)");
  m.output("app_rdata_o", p.row_bits);
}

void sram_ports(Module& m, const LdsCtrlParams& p, const string& prefix, const string& drive_sfx,
                const string& read_sfx) {
  auto drive = [&](const string& name, unsigned w) {
    drive_sfx == "_o" ? m.output(prefix + name + drive_sfx, w) : m.input(prefix + name + drive_sfx, w);
  };
  drive("en", 1);
  drive("we", 1);
  drive("row", p.row_index_bits);
  drive("bank_en", p.banks);
  drive("wdata", p.row_bits);
  if (read_sfx == "_i")
    m.input(prefix + "rdata" + read_sfx, p.row_bits, "one cycle after a read");
  else if (!read_sfx.empty())
    m.output(prefix + "rdata" + read_sfx, p.row_bits);
}

void app_read_path(Module& m) {
  m.flop("app_rvalid", 1);
  m.assign("app_rvalid_d", "app_valid_i & ~app_we_i");
  m.assign("app_rvalid_o", "app_rvalid_q");
  m.assign("app_rdata_o", "sram_rdata_i");
}

namespace {

Module emit_ctrl(const LdsCtrlParams& p, const EmitContext& ctx) {
  Module m(p.module_prefix);
  header(m, p, ctx, "controller (lookup latency 4 cycles, 2 for an LDS-mode segment)");
  m.clock_and_reset();
  app_ports(m, p);
  translation_ports(m, p);
  sram_ports(m, p, "sram_", "_o", "_i");
  app_read_path(m);
  control(m, p);
  datapath(m, p);
  return m;
}

}  // namespace

Module emit_base(const LdsCtrlParams& p, const EmitContext& ctx) {
  Module m(p.module_prefix + "_base");
  header(m, p, ctx, "baseline LDS port, no translation caching");
  m.clock_and_reset();
  app_ports(m, p);
  sram_ports(m, p, "sram_", "_o", "_i");
  app_read_path(m);
  m.assign("sram_en_o", "app_valid_i");
  m.assign("sram_we_o", "app_valid_i & app_we_i");
  m.assign("sram_row_o", "app_row_i");
  m.assign("sram_bank_en_o", "app_bank_en_i");
  m.assign("sram_wdata_o", "app_wdata_i");
  return m;
}

Module emit_sram(const LdsCtrlParams& p, const EmitContext& ctx) {
  Module m(p.module_prefix + "_sram");
  header(m, p, ctx, "behavioural banked SRAM, 1-cycle read (simulation model, not synthesized)");
  m.input("clk_i", 1);
  sram_ports(m, p, "", "_i", "_o");
  const unsigned bw = p.bank_bytes * 8, w = p.row_bits;
  m.raw_decl("reg  [" + to_string(w - 1) + ":0] mem [0:" + to_string(p.rows - 1) + "];");
  m.raw_decl("reg  [" + to_string(w - 1) + ":0] rdata_q;");
  m.raw_decl("integer row;");
  m.raw("initial begin\n    for (row = 0; row < " + to_string(p.rows) + "; row = row + 1) mem[row] = " +
        sized(w, 0) + ";\n    rdata_q = " + sized(w, 0) + ";\n  end");
  string body = "always @(posedge clk_i) begin\n    if (en_i) begin\n";
  for (unsigned b = 0; b < p.banks; ++b) {
    const string sel = "[" + to_string(b * bw + bw - 1) + ":" + to_string(b * bw) + "]";
    body += "      if (bank_en_i[" + to_string(b) + "]) begin\n        if (we_i) mem[row_i]" + sel +
            " <= wdata_i" + sel + ";\n        else rdata_q" + sel + " <= mem[row_i]" + sel +
            ";\n      end\n";
  }
  m.raw(body + "    end\n  end");
  m.assign("rdata_o", "rdata_q");
  return m;
}

Module emit_sys(const LdsCtrlParams& p, const EmitContext& ctx, bool baseline) {
  const string inner = baseline ? p.module_prefix + "_base" : p.module_prefix;
  Module m(inner + "_sys");
  header(m, p, ctx, "co-simulation top: " + inner + " + behavioural SRAM (not synthesized)");
  m.clock_and_reset();
  app_ports(m, p);
  if (!baseline) translation_ports(m, p);
  sram_ports(m, p, "sram_", "_o", "");
  m.wire("sram_rdata", p.row_bits);
  Module shape(inner);  // the inner module's port list, to connect by name
  shape.clock_and_reset();
  app_ports(shape, p);
  if (!baseline) translation_ports(shape, p);
  sram_ports(shape, p, "sram_", "_o", "_i");
  std::vector<std::pair<string, string>> conn;
  for (const string& port : shape.port_names())
    conn.push_back({port, port == "sram_rdata_i" ? "sram_rdata" : port});
  m.instance(inner, "u_ctrl", conn);
  m.instance(p.module_prefix + "_sram", "u_sram",
             {{"clk_i", "clk_i"}, {"en_i", "sram_en_o"}, {"we_i", "sram_we_o"}, {"row_i", "sram_row_o"},
              {"bank_en_i", "sram_bank_en_o"}, {"wdata_i", "sram_wdata_o"}, {"rdata_o", "sram_rdata"}});
  return m;
}

namespace {

BlockOutput emit_lds_ctrl(const config::Config& cfg, const EmitContext& ctx) {
  const LdsCtrlParams p = elab::elaborate_lds_ctrl(cfg);
  BlockOutput out;
  out.files = bd_codec_core_files(p.codec, ctx);
  for (const Module& m : {emit_ctrl(p, ctx), emit_base(p, ctx), emit_sram(p, ctx),
                          emit_sys(p, ctx, false), emit_sys(p, ctx, true)})
    out.files.push_back({m.name() + ".v", m.render()});
  out.parameters = params_json(p);
  return out;
}

}  // namespace
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
  return b;
}

}  // namespace txgen::blocks
