// dhsl: the co-simulation top (every unit of every chiplet wired together,
// docs/blocks/dhsl.md "Co-simulation top") and the block's registry entry.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "txgen/blocks/dhsl_emit.h"
#include "txgen/hdl/port_decl.h"
#include "txgen/ports/dhsl.h"

namespace txgen::blocks {
namespace dhsl {

using elab::DhslParams;
using hdl::Module;
using hdl::Value;
using hdl::Wire;
using std::string;
using std::to_string;
using Conn = std::vector<std::pair<string, Value>>;

namespace {

TXGEN_PORT_HANDLES(SysPorts, TXGEN_DHSL_PORTS)

// The top's ports (those of the policy: txgen/ports/dhsl.h) and the
// per-chiplet vectors between its units; a field of a vector is chiplet c's
// signal.
struct Sys {
  Clock clock;
  SysPorts io;
  Wire prev_in, prev_hits, prev_acc;
};

Sys sys_ports(Module& m, const DhslParams& params) {
  Sys s;
  s.clock = m.clock_and_reset();
  TXGEN_DECLARE_PORTS(TXGEN_DHSL_PORTS, m, params, s.io);
  return s;
}

void monitors(Module& m, const DhslParams& p, const Units& u, const Sys& s, unsigned c) {
  const unsigned w = p.counter_bits, cb = p.chiplet_bits;
  const string i = to_string(c);
  const Wire prev_out = m.wire("unused_prev_out" + i, w);
  m.instance(u.rtu_mon, "u_rtu_mon" + i,
             {{"clk_i", s.clock.clk}, {"rst_ni", s.clock.rst_n}, {"in_i", s.io.rtu_in_i.bit(c)},
              {"out_i", s.io.rtu_out_i.bit(c)}, {"epoch_o", s.io.epoch_o.bit(c)}, {"trigger_o", s.io.trigger_o.bit(c)},
              {"possible_o", s.io.possible_o.bit(c)}, {"prev_in_o", s.prev_in.field(c, w)}, {"prev_out_o", prev_out}});
  m.instance(u.l2_mon, "u_l2_mon" + i,
             {{"clk_i", s.clock.clk}, {"rst_ni", s.clock.rst_n}, {"access_i", s.io.l2_access_i.bit(c)},
              {"hit_i", s.io.l2_hit_i.bit(c)}, {"cid_i", s.io.l2_cid_i.field(c, cb)}, {"epoch_i", s.io.epoch_o.bit(c)},
              {"back_o", s.io.back_o.bit(c)}, {"prev_hits_o", s.prev_hits.field(c, w)},
              {"prev_acc_o", s.prev_acc.field(c, w)}});
}

void registers_and_router(Module& m, const DhslParams& p, const Units& u, const Sys& s, unsigned c) {
  const string i = to_string(c);
  Conn router = {{"local_i", hdl::lit(p.chiplet_bits, c)}, {"vpn_i", s.io.q_vpn_i.field(c, p.vpn_bits)}};
  if (p.has_registers()) {
    for (const string who : {"rtu", "l2"}) {
      const Wire fine = who == "rtu" ? s.io.rtu_fine_o : s.io.l2_fine_o;
      const Wire shift = m.wire(who + "_shift" + i, p.shift_bits);
      Conn conn = {{"clk_i", s.clock.clk}, {"rst_ni", s.clock.rst_n}, {"launch_i", s.io.launch_i},
                   {"launch_shift_i", s.io.launch_shift_i}};
      if (p.has_monitors())
        conn.insert(conn.end(), {{"sync_i", (who == "rtu" ? s.io.rtu_sync_i : s.io.l2_sync_i).bit(c)}, {"mode_i", s.io.mode_o}});
      conn.insert(conn.end(), {{"fine_o", fine.bit(c)}, {"shift_o", shift}});
      m.instance(u.hsl_reg, "u_" + who + "_reg" + i, conn);
      router.insert(router.end(), {{who + "_fine_i", fine.bit(c)}, {who + "_shift_i", shift}});
    }
  }
  router.insert(router.end(), {{"rtu_home_o", s.io.rtu_home_o.field(c, p.chiplet_bits)},
                               {"rtu_local_o", s.io.rtu_local_o.bit(c)}, {"l2_walk_o", s.io.l2_walk_o.bit(c)}});
  m.instance(u.router, "u_router" + i, router);
}

}  // namespace

ModulePtr emit_sys(const DhslParams& p, const EmitContext& ctx, const Units& u) {
  auto m = std::make_unique<Module>(p.module_prefix + "_sys");
  header(*m, p, ctx, "co-simulation top, every unit of every chiplet (not synthesized)");
  Sys s = sys_ports(*m, p);
  const unsigned n = p.chiplets, w = p.counter_bits;
  if (p.has_monitors()) {
    s.prev_in = m->wire("prev_in", n * w);
    s.prev_hits = m->wire("prev_hits", n * w);
    s.prev_acc = m->wire("prev_acc", n * w);
    for (unsigned c = 0; c < n; ++c) monitors(*m, p, u, s, c);
    m->instance(u.cp, "u_cp",
                {{"clk_i", s.clock.clk}, {"rst_ni", s.clock.rst_n}, {"trigger_i", s.io.trigger_o}, {"back_i", s.io.back_o},
                 {"prev_in_i", s.prev_in}, {"prev_hits_i", s.prev_hits}, {"prev_acc_i", s.prev_acc},
                 {"mode_o", s.io.mode_o}, {"switch_o", s.io.switch_o}});
  }
  if (!p.has_registers()) m->unused("clk_rst", s.clock.clk & s.clock.rst_n);
  for (unsigned c = 0; c < n; ++c) registers_and_router(*m, p, u, s, c);
  return m;
}

namespace {

BlockOutput emit_dhsl(const config::Config& cfg, const EmitContext& ctx) {
  const DhslParams p = elab::elaborate_dhsl(cfg);
  BlockOutput out;
  // render each unit as soon as it is built; keep its ports for its parents
  auto add = [&out](const ModulePtr& m) {
    out.files.push_back({m->name() + ".v", m->render()});
    return m->interface();
  };
  Units u;
  u.hsl = add(emit_hsl(p, ctx));
  if (p.has_registers()) u.hsl_reg = add(emit_hsl_reg(p, ctx));
  if (p.has_monitors()) {
    u.rtu_mon = add(emit_rtu_mon(p, ctx));
    u.l2_mon = add(emit_l2_mon(p, ctx));
    u.cp = add(emit_cp(p, ctx));
  }
  u.router = add(emit_router(p, ctx, u.hsl));
  add(emit_hsl_stage(p, ctx, u.hsl, u.hsl_reg));
  add(emit_sys(p, ctx, u));
  out.parameters = params_json(p);
  return out;
}

std::vector<std::string> synth_tops(const config::Config& c) {
  const DhslParams p = elab::elaborate_dhsl(c);
  std::vector<std::string> tops;
  if (p.has_monitors())
    for (const string u : {"_rtu_mon", "_l2_mon", "_cp"}) tops.push_back(p.module_prefix + u);
  tops.push_back(p.module_prefix + "_hsl_stage");
  return tops;
}

// The monitors and the decision unit (mgvm only). The induction closes once
// its window holds a whole digit-serial check (J + 2 edges after the epoch
// edge; J + 3 after the decision unit's gather).
std::vector<ProveTop> prove_tops(const config::Config& c) {
  const DhslParams p = elab::elaborate_dhsl(c);
  if (!p.has_monitors()) return {};
  return {{p.module_prefix + "_rtu_mon", 3},
          {p.module_prefix + "_l2_mon", p.check_steps + 5},
          {p.module_prefix + "_cp", p.check_steps + 6}};
}

// From the ports (docs/power.md): what the monitors count and the decision
// unit's switches (the HSL stage has no scope of its own in the co-simulation:
// Verilator inlines it, docs/power.md).
std::vector<power::Operation> power_operations(const config::Config& c) {
  const DhslParams p = elab::elaborate_dhsl(c);
  std::vector<power::Operation> ops;
  if (p.has_monitors()) {
    ops.push_back({p.module_prefix + "_rtu_mon", "remote request counted", {"in_i|out_i"}});
    ops.push_back({p.module_prefix + "_l2_mon", "L2-TLB access counted", {"access_i"}});
    ops.push_back({p.module_prefix + "_cp", "mode switch", {"switch_o"}});
  }
  return ops;
}

std::vector<CosimTop> cosim_tops(const config::Config& c) {
  const DhslParams p = elab::elaborate_dhsl(c);
  return {{"sys", p.module_prefix + "_sys", ports::dhsl_ports(p)}};
}

}  // namespace
}  // namespace dhsl

BlockInfo dhsl_block() {
  BlockInfo b;
  b.name = "dhsl";
  b.summary = "MGvm home-slice selection and dHSL switching counters (seed 004, V)";
  b.configured = [](const config::Config& c) { return c.dhsl.has_value(); };
  b.emit = dhsl::emit_dhsl;
  b.report_json = dhsl::report_json;
  b.report_markdown = dhsl::report_markdown;
  b.synth_tops = dhsl::synth_tops;
  b.prove_tops = dhsl::prove_tops;
  b.cosim_tops = dhsl::cosim_tops;
  b.power_operations = dhsl::power_operations;
  return b;
}

}  // namespace txgen::blocks
