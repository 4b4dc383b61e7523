// The path with the generated L2-TLB and IOMMU inside (docs/blocks/tx_path.md,
// "The generated L2-TLB and IOMMU inside"): tx_path_NAME_l2 (the path top and
// iommu_NAME_sys, the path's SRAM ports outside) and tx_path_NAME_l2_sys (the
// simulation top with every SRAM inside), joined by the same builder: the
// path's L2 request, answer and victim ports meet the L2-TLB's request port 0,
// answer port and insert port, and a sequencer shoots the L2-TLB down after
// the path.
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "txgen/blocks/tx_path_emit.h"
#include "txgen/hdl/lib.h"
#include "txgen/ports/iommu.h"
#include "txgen/ports/tx_path.h"

namespace txgen::blocks::tx_path {

using elab::IommuParams;
using elab::TxPathParams;
using hdl::cat;
using hdl::lit;
using hdl::Module;
using hdl::mux;
using hdl::Reg;
using hdl::Value;
using hdl::Wire;
using std::string;

namespace {

// A member's interface from its port declaration (PortDeclaration's test holds
// the emitted module to it).
hdl::Interface interface_of(const string& module, const std::vector<ports::Port>& list) {
  hdl::Interface i{module, {{"clk_i", false, 1}, {"rst_ni", false, 1}}};
  for (const ports::Port& q : list)
    if (q.width() > 0) i.ports.push_back({q.name, q.output, q.width()});
  return i;
}

// A member's connections: its clock and reset, then each port from `inner`,
// else this top's port of the same name.
Conn by_name(const hdl::Interface& of, const Module::ClockReset& cr, const std::map<string, Value>& inner,
             const std::map<string, Value>& top) {
  Conn conn = {{"clk_i", cr.clk}, {"rst_ni", cr.rst_n}};
  for (const hdl::PortSpec& ps : of.ports) {
    if (ps.name == "clk_i" || ps.name == "rst_ni") continue;
    const auto it = inner.find(ps.name);
    conn.push_back({ps.name, it != inner.end() ? it->second : top.at(ps.name)});
  }
  return conn;
}

class L2TopBuilder {
 public:
  L2TopBuilder(Module& m, const TxPathParams& p, const IommuParams& io, const hdl::Interface& path)
      : m_(m), p_(p), io_(io), path_(path) {}

  void build() {
    cr_ = m_.clock_and_reset();
    declare_ports();
    internal_wires();
    shootdown_sequencer();
    path_instance();
    l2_instance();
  }

 private:
  // The declared ports in order (path part, then the IOMMU part), then the
  // SRAM ports of a path that has them; every port by name.
  void declare_ports() {
    for (const auto& list : {ports::tx_path_on_l2_ports(p_), ports::tx_path_l2_iommu_ports(io_)})
      for (const ports::Port& q : list)
        if (q.width() > 0) add_port(q.name, q.output, q.width(), q.meaning);
    for (const hdl::PortSpec& ps : path_.ports)
      if (is_sram_port(ps.name)) add_port(ps.name, ps.is_output, ps.width, "");
  }

  void add_port(const string& name, bool output, unsigned width, const string& meaning) {
    if (output) {
      out_[name] = m_.output(name, width, meaning);
      sig_[name] = out_[name];
    } else {
      sig_[name] = m_.input(name, width, meaning);
    }
  }

  void internal_wires() {
    const unsigned VPN = p_.vpn_bits, VM = p_.vmid_bits, PPN = p_.ppn_bits, Q = p_.perm_bits;
    for (const auto& [name, width] : std::vector<std::pair<string, unsigned>>{
             {"l2_req_ready", 1}, {"l2_resp_valid", 1}, {"l2_resp_ready", 1},
             {"l2_resp_tag", io_.l2.req_tag_bits}, {"l2_resp_vpn", VPN}, {"l2_resp_vmid", VM},
             {"l2_resp_ppn", PPN}, {"l2_resp_perm", Q}, {"l2_vic_valid", 1}, {"l2_vic_ready", 1},
             {"l2_vic_vpn", VPN}, {"l2_vic_vmid", VM}, {"l2_vic_ppn", PPN}, {"l2_vic_perm", Q},
             {"path_sd_valid", 1}, {"path_sd_ready", 1}, {"path_sd_done", 1}, {"l2_sd_ready", 1}})
      w_[name] = m_.wire(name, width);
  }

  // The path first, then the L2-TLB (the path's environment rule, made
  // hardware): a shootdown is taken when the path takes it and none is in
  // progress; the L2-TLB's starts at the path's done; its done is the top's.
  void shootdown_sequencer() {
    m_.comment("shootdown sequencer: the path, then the L2-TLB (once the path is done)");
    const Value valid = sig_.at("sd_valid_i");
    Reg busy = m_.reg("sd_busy", 1), go = m_.reg("sd_l2_go", 1);
    key_all_ = m_.reg("sd_key_all", 1);
    key_vpn_ = m_.reg("sd_key_vpn", p_.vpn_bits);
    key_vmid_ = m_.reg("sd_key_vmid", p_.vmid_bits);
    l2_sd_valid_ = go;
    w_.at("path_sd_valid").drive(valid & ~busy);
    out_.at("sd_ready_o").drive(w_.at("path_sd_ready") & ~busy);
    const Value accept = m_.wire("sd_accept", valid & w_.at("path_sd_ready") & ~busy);
    const Value l2_done = m_.wire("l2_sd_done", 1);
    l2_sd_done_ = l2_done;
    busy.next(mux(accept, lit(1, 1), mux(l2_done, lit(1, 0), busy)));
    go.next(mux(w_.at("path_sd_done"), lit(1, 1), mux(go & w_.at("l2_sd_ready"), lit(1, 0), go)));
    key_all_.next_if(accept, sig_.at("sd_all_i"));
    key_vpn_.next_if(accept, sig_.at("sd_vpn_i"));
    key_vmid_.next_if(accept, sig_.at("sd_vmid_i"));
    out_.at("sd_done_o").drive(l2_done);
  }

  void path_instance() {
    const unsigned PT = p_.l2_tag_bits;
    const std::map<string, Value> inner = {
        {"l2_req_ready_i", w_.at("l2_req_ready")},   {"l2_resp_valid_i", w_.at("l2_resp_valid")},
        {"l2_resp_ready_o", w_.at("l2_resp_ready")}, {"l2_resp_tag_i", w_.at("l2_resp_tag").slice(0, PT)},
        {"l2_resp_ppn_i", w_.at("l2_resp_ppn")},     {"l2_resp_perm_i", w_.at("l2_resp_perm")},
        {"l2_vic_valid_o", w_.at("l2_vic_valid")},   {"l2_vic_ready_i", w_.at("l2_vic_ready")},
        {"l2_vic_vpn_o", w_.at("l2_vic_vpn")},       {"l2_vic_vmid_o", w_.at("l2_vic_vmid")},
        {"l2_vic_ppn_o", w_.at("l2_vic_ppn")},       {"l2_vic_perm_o", w_.at("l2_vic_perm")},
        {"sd_valid_i", w_.at("path_sd_valid")},      {"sd_ready_o", w_.at("path_sd_ready")},
        {"sd_done_o", w_.at("path_sd_done")}};
    m_.instance(path_, "u_path", by_name(path_, cr_, inner, sig_));
    if (io_.l2.req_tag_bits > PT) m_.unused("l2_resp_tag_hi", w_.at("l2_resp_tag").slice(PT, io_.l2.req_tag_bits - PT));
    m_.unused("l2_resp_key", cat({w_.at("l2_resp_vpn"), w_.at("l2_resp_vmid")}));
  }

  void l2_instance() {
    const unsigned T = io_.l2.req_tag_bits, PT = p_.l2_tag_bits;
    const Value tag = T > PT ? cat({lit(T - PT, 0), sig_.at("l2_req_tag_o")}) : sig_.at("l2_req_tag_o");
    const std::map<string, Value> inner = {
        {"req_valid_i", sig_.at("l2_req_valid_o")}, {"req_ready_o", w_.at("l2_req_ready")},
        {"req_vpn_i", sig_.at("l2_req_vpn_o")},     {"req_vmid_i", sig_.at("l2_req_vmid_o")},
        {"req_iid_i", sig_.at("l2_req_iid_o")},     {"req_tag_i", tag},
        {"resp_valid_o", w_.at("l2_resp_valid")},   {"resp_ready_i", w_.at("l2_resp_ready")},
        {"resp_tag_o", w_.at("l2_resp_tag")},       {"resp_vpn_o", w_.at("l2_resp_vpn")},
        {"resp_vmid_o", w_.at("l2_resp_vmid")},     {"resp_ppn_o", w_.at("l2_resp_ppn")},
        {"resp_perm_o", w_.at("l2_resp_perm")},     {"ins_valid_i", w_.at("l2_vic_valid")},
        {"ins_ready_o", w_.at("l2_vic_ready")},     {"ins_vpn_i", w_.at("l2_vic_vpn")},
        {"ins_vmid_i", w_.at("l2_vic_vmid")},       {"ins_ppn_i", w_.at("l2_vic_ppn")},
        {"ins_perm_i", w_.at("l2_vic_perm")},       {"sd_valid_i", l2_sd_valid_},
        {"sd_ready_o", w_.at("l2_sd_ready")},       {"sd_all_i", key_all_},
        {"sd_vpn_i", key_vpn_},                     {"sd_vmid_i", key_vmid_},
        {"sd_done_o", l2_sd_done_}};
    const hdl::Interface sys = interface_of(io_.module_prefix + "_sys", ports::iommu_sys_ports(io_));
    m_.instance(sys, "u_l2", by_name(sys, cr_, inner, sig_));
  }

  Module& m_;
  const TxPathParams& p_;
  const IommuParams& io_;
  const hdl::Interface& path_;
  Module::ClockReset cr_;
  std::map<string, Value> sig_;  // this top's ports
  std::map<string, Wire> out_;   // its outputs
  std::map<string, Wire> w_;     // between the path and the L2-TLB
  Reg key_all_, key_vpn_, key_vmid_;
  Value l2_sd_valid_, l2_sd_done_;
};

}  // namespace

elab::IommuParams elaborate_l2_inside(const config::Config& cfg, const TxPathParams& p) {
  elab::IommuParams io = elab::elaborate_iommu(cfg);
  elab::check_inside_path(io, p.l2_tag_bits, p.vpn_bits, p.ppn_bits);
  return io;
}

ModulePtr emit_l2_top(const TxPathParams& p, const IommuParams& io, const EmitContext& ctx, bool sim) {
  const hdl::Interface path = sim ? emit_sys(p, ctx, false)->interface() : emit_top(p, ctx, false)->interface();
  auto mod = std::make_unique<Module>(p.module_prefix + (sim ? "_l2_sys" : "_l2"));
  header(*mod, p, ctx,
         sim ? "simulation top: the path and its generated L2-TLB and IOMMU, every SRAM inside (not synthesized)"
             : "the path with its generated L2-TLB and IOMMU (" + io.module_prefix + "_sys) behind it");
  L2TopBuilder(*mod, p, io, path).build();
  return mod;
}

}  // namespace txgen::blocks::tx_path
