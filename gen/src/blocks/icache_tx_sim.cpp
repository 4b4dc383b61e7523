// icache_tx: behavioural tag and data SRAMs and the co-simulation tops
// (controller or baseline + both SRAMs). Not synthesized.
#include <string>
#include <vector>

#include "txgen/blocks/icache_tx_emit.h"

namespace txgen::blocks::icache {

using elab::IcacheTxParams;
using emit::Module;
using emit::sized;
using std::string;
using std::to_string;

namespace {

// Memory declaration, zero initialisation and the read register.
void memory(Module& m, unsigned width, unsigned depth) {
  m.raw_decl("reg  [" + to_string(width - 1) + ":0] mem [0:" + to_string(depth - 1) + "];");
  m.raw_decl("reg  [" + to_string(width - 1) + ":0] rdata_q;");
  m.raw_decl("integer k;");
  m.raw("initial begin\n    for (k = 0; k < " + to_string(depth) + "; k = k + 1) mem[k] = " + sized(width, 0) +
        ";\n    rdata_q = " + sized(width, 0) + ";\n  end");
}

}  // namespace

Module emit_tag_sram(const IcacheTxParams& p, const EmitContext& ctx, bool baseline) {
  const unsigned e = entry_width(p, baseline), w = p.ways * e;
  Module m(p.module_prefix + (baseline ? "_base" : "") + "_tag_sram");
  header(m, p, ctx, "behavioural tag SRAM, one word per set, way-enabled writes, 1-cycle read (simulation model)");
  m.input("clk_i", 1);
  m.input("en_i", 1);
  m.input("we_i", 1);
  m.input("set_i", p.set_bits);
  m.input("way_en_i", p.ways);
  m.input("wdata_i", w);
  m.output("rdata_o", w);
  memory(m, w, p.sets);
  string body = "always @(posedge clk_i) begin\n    if (en_i) begin\n";
  for (unsigned way = 0; way < p.ways; ++way) {
    const string sel = "[" + to_string(way * e + e - 1) + ":" + to_string(way * e) + "]";
    body += "      if (way_en_i[" + to_string(way) + "]) begin\n        if (we_i) mem[set_i]" + sel +
            " <= wdata_i" + sel + ";\n        else rdata_q" + sel + " <= mem[set_i]" + sel + ";\n      end\n";
  }
  m.raw(body + "    end\n  end");
  m.assign("rdata_o", "rdata_q");
  return m;
}

Module emit_data_sram(const IcacheTxParams& p, const EmitContext& ctx) {
  Module m(p.module_prefix + "_data_sram");
  header(m, p, ctx, "behavioural data SRAM, one word per line, 1-cycle read (simulation model)");
  m.input("clk_i", 1);
  m.input("en_i", 1);
  m.input("we_i", 1);
  m.input("line_i", p.line_index_bits);
  m.input("wdata_i", p.line_bits);
  m.output("rdata_o", p.line_bits);
  memory(m, p.line_bits, p.lines);
  m.raw("always @(posedge clk_i) begin\n    if (en_i) begin\n      if (we_i) mem[line_i] <= wdata_i;\n"
        "      else rdata_q <= mem[line_i];\n    end\n  end");
  m.assign("rdata_o", "rdata_q");
  return m;
}

Module emit_sys(const IcacheTxParams& p, const EmitContext& ctx, bool baseline) {
  const string inner = baseline ? p.module_prefix + "_base" : p.module_prefix;
  Module m(inner + "_sys");
  header(m, p, ctx, "co-simulation top: " + inner + " + behavioural SRAMs (not synthesized)");
  m.clock_and_reset();
  instruction_ports(m, p);
  if (!baseline) translation_ports(m, p);
  sram_ports(m, p, baseline, "_o", "");
  m.wire("tag_rdata", p.ways * entry_width(p, baseline));
  m.wire("data_rdata", p.line_bits);
  Module shape(inner);  // the inner module's port list, to connect by name
  shape.clock_and_reset();
  instruction_ports(shape, p);
  if (!baseline) translation_ports(shape, p);
  sram_ports(shape, p, baseline, "_o", "_i");
  std::vector<std::pair<string, string>> conn;
  for (const string& port : shape.port_names())
    conn.push_back({port, port == "tag_rdata_i" ? "tag_rdata" : port == "data_rdata_i" ? "data_rdata" : port});
  m.instance(inner, "u_ctrl", conn);
  m.instance(p.module_prefix + (baseline ? "_base" : "") + "_tag_sram", "u_tag",
             {{"clk_i", "clk_i"}, {"en_i", "tag_en_o"}, {"we_i", "tag_we_o"}, {"set_i", "tag_set_o"},
              {"way_en_i", "tag_way_en_o"}, {"wdata_i", "tag_wdata_o"}, {"rdata_o", "tag_rdata"}});
  m.instance(p.module_prefix + "_data_sram", "u_data",
             {{"clk_i", "clk_i"}, {"en_i", "data_en_o"}, {"we_i", "data_we_o"}, {"line_i", "data_line_o"},
              {"wdata_i", "data_wdata_o"}, {"rdata_o", "data_rdata"}});
  return m;
}

}  // namespace txgen::blocks::icache
