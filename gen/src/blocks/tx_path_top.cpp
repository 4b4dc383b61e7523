// The tx_path top (docs/blocks/tx_path.md): the member instances, the per-CU
// glue instances, the L2 request and victim ports with their round-robins,
// the I-caches' shootdown-port arbiters and the shootdown sequencer; the
// baseline path from the same ports; the simulation tops with every SRAM
// inside; the block's emission and registry entry.
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "txgen/blocks/icache_tx_emit.h"
#include "txgen/blocks/l1tlb_emit.h"
#include "txgen/blocks/lds_ctrl_emit.h"
#include "txgen/blocks/tx_path_emit.h"
#include "txgen/hdl/lib.h"
#include "txgen/ports/tx_path.h"

namespace txgen::blocks::tx_path {

using elab::TxPathParams;
using hdl::any;
using hdl::cat;
using hdl::gate;
using hdl::lit;
using hdl::Module;
using hdl::mux;
using hdl::Reg;
using hdl::rep;
using hdl::Value;
using hdl::Wire;
using hdl::zero;
using std::string;
using std::to_string;

namespace {

// A round-robin choice among `req` from a one-hot pointer register `name`
// (reset: element 0), moved past the winner at an edge with `advance`.
Value rr_pick(Module& m, const string& name, const Value& req, const Value& advance) {
  if (req.width() == 1) return req;
  Reg ptr = m.reg(name, req.width(), 1);
  Value win = hdl::round_robin_pick(m.top(), name + "_win", req, ptr);
  ptr.next_if(advance, hdl::rotate_left1(win));
  return win;
}

Value pick(const Value& onehot, const std::vector<Value>& fields, unsigned width) {
  if (fields.size() == 1) return fields[0];
  return hdl::onehot_select(onehot, hdl::cat_lsb_first(fields), static_cast<unsigned>(fields.size()), width);
}

// Wires named prefix + name, declared from a table (width per entry).
struct WireSpec {
  Wire* wire;
  const char* name;
  unsigned width;
};
void declare(Module& m, const string& prefix, std::initializer_list<WireSpec> specs) {
  for (const WireSpec& s : specs) *s.wire = m.wire(prefix + s.name, s.width);
}

// The members' interfaces (controllers, or their baselines, and the SRAMs).
struct Members {
  hdl::Interface l1, lds, ic, cu, lds_sram, ic_tag_sram, ic_data_sram;
};

Members members(const TxPathParams& p, const EmitContext& ctx, bool baseline) {
  Members mb;
  mb.l1 = l1tlb::top_interface(p.l1, ctx);
  mb.lds = lds::inner_interface(p.lds, p.lds.module_prefix + (baseline ? "_base" : ""), baseline);
  mb.ic = icache::ctrl_interface(p.ic, p.ic.module_prefix + (baseline ? "_base" : ""), baseline);
  if (!baseline) mb.cu = emit_cu(p, ctx)->interface();
  mb.lds_sram = lds::emit_sram(p.lds, ctx)->interface();
  mb.ic_tag_sram = icache::emit_tag_sram(p.ic, ctx, baseline)->interface();
  mb.ic_data_sram = icache::emit_data_sram(p.ic, ctx)->interface();
  return mb;
}

const hdl::PortSpec& port_of(const hdl::Interface& of, const string& name) {
  for (const auto& port : of.ports)
    if (port.name == name) return port;
  hdl::fail(of.module + " has no port " + name);
}

// Ports of a member that the top passes through: member port `name` of
// instance i is element i of the top's vector port `prefix + name`.
class PassThrough {
 public:
  PassThrough(Module& m, const hdl::Interface& of, unsigned count, string prefix)
      : m_(m), of_(of), count_(count), prefix_(std::move(prefix)) {}
  void declare(const std::vector<string>& names) {
    for (const auto& name : names) {
      const hdl::PortSpec& ps = port_of(of_, name);
      if (ps.is_output) {
        outs_.push_back({name, std::vector<Value>(count_)});
      } else {
        ins_[name] = m_.input(prefix_ + name, ps.width * count_);
      }
    }
  }
  // The connections of instance i; its outputs get wires `wire_prefix + name`.
  void connect(Conn& conn, const string& wire_prefix, unsigned i) {
    for (auto& [name, parts] : outs_) {
      const string base = name.substr(0, name.size() - 2);
      parts[i] = m_.wire(wire_prefix + prefix_ + base, port_of(of_, name).width);
      conn.push_back({name, parts[i]});
    }
    for (const auto& [name, v] : ins_) conn.push_back({name, v.field(i, port_of(of_, name).width)});
  }
  // Output `name` of instance i (after connect).
  Value part(const string& name, unsigned i) const {
    for (const auto& [n, parts] : outs_)
      if (n == name) return parts[i];
    hdl::fail("no pass-through output " + name);
  }
  // Drives the top's output vectors (after every instance is connected).
  void finish() {
    for (const auto& [name, parts] : outs_)
      m_.output(prefix_ + name, port_of(of_, name).width * count_).drive(hdl::cat_lsb_first(parts));
  }

 private:
  Module& m_;
  const hdl::Interface& of_;
  unsigned count_;
  string prefix_;
  std::map<string, Value> ins_;
  std::vector<std::pair<string, std::vector<Value>>> outs_;
};

const std::vector<string> kL1Ports = {"req_valid_i",  "req_ready_o",  "req_vpn_i",    "req_vmid_i",  "resp_valid_o",
                                      "resp_vpn_o",   "resp_vmid_o",  "resp_ppn_o",   "resp_perm_o", "fill_valid_o",
                                      "fill_vpn_o",   "fill_vmid_o",  "fill_ppn_o",   "fill_perm_o"};
const std::vector<string> kL1Answers(kL1Ports.begin() + 4, kL1Ports.end());  // all but the requests
const std::vector<string> kAppPorts = {"app_valid_i", "app_we_i",     "app_row_i",   "app_bank_en_i",
                                       "app_wdata_i", "app_rvalid_o", "app_rdata_o"};
const std::vector<string> kWgPorts = {"wg_valid_i", "wg_ready_o", "wg_free_i", "wg_base_i", "wg_size_i", "wg_done_o"};
const std::vector<string> kLdsSram = {"sram_en_o",      "sram_we_o",    "sram_row_o",
                                      "sram_bank_en_o", "sram_wdata_o", "sram_rdata_i"};
const std::vector<string> kIfPorts = {"if_valid_i",     "if_ready_o",    "if_addr_i",     "if_resp_valid_o", "if_resp_hit_o",
                                      "if_resp_data_o", "ifill_valid_i", "ifill_ready_o", "ifill_addr_i",    "ifill_data_i",
                                      "flush_valid_i",  "flush_ready_o", "flush_done_o"};
const std::vector<string> kIcSram = {"tag_en_o",    "tag_we_o",    "tag_set_o", "tag_way_en_o", "tag_wdata_o",  "tag_rdata_i",
                                     "data_en_o",   "data_we_o",   "data_line_o", "data_wdata_o", "data_rdata_i"};

// Per-CU wires between the glue, its LDS, its I-cache slot and the top.
struct CuWires {
  Wire l1_ready, l1_rv, l1_rtag, l1_rppn, l1_rperm;
  Wire lk_valid, lk_ready, lk_vpn, lk_vmid, lk_vrf, lk_rv, lk_hit, lk_ppn, lk_perm;
  Wire fill_valid, fill_ready, fill_vpn, fill_vmid, fill_vrf, fill_ppn, fill_perm;
  Wire sd_valid, sd_ready, sd_all, sd_vpn, sd_vmid, sd_done, ldone;
  Wire vic_valid, vic_ready, vic_vpn, vic_vmid, vic_vrf, vic_ppn, vic_perm;
  Wire tf_valid, tf_ready, tf_vpn, tf_vmid, tf_vrf, tf_ppn, tf_perm;
  Wire tl_valid, tl_ready, tl_vpn, tl_vmid, tl_vrf, ic_rv;
  Wire rmi_valid, rmi_vpn, rmi_vmid, rmi_taken;
  Wire l2_valid, l2_vpn, l2_vmid, l2_tag, l2_taken, l2_rv, l2_ok, hit_lds, hit_ic;
  Wire l2_iid;  // with the instruction ID
  Wire l1_want, l1_grant;  // a shared L1 cluster
};

// What the glue of one CU sees of the L1-TLB: its cluster's port when it is
// the CU that allocated the MSHR, the cluster's victims of its own fills.
struct L1Side {
  Value req_valid, req_vpn, req_vmid, req_tag, req_iid, fill_done, ev_valid, ev_vpn, ev_vmid, ev_ppn, ev_perm;
};

// Per-I-cache wires.
struct IcWires {
  Wire tl_ready, tl_resp_valid, tl_resp_cu, tl_resp_hit, tl_resp_ppn, tl_resp_perm, tf_ready;
  Wire vic_valid, vic_ready, vic_vpn, vic_vmid, vic_vrf, vic_ppn, vic_perm;
  Wire sd_valid, sd_ready, sd_all, sd_vpn, sd_vmid, sd_done, idone;
};

class TopBuilder {
 public:
  TopBuilder(Module& mod, const TxPathParams& params, const Members& members, bool base)
      : m(mod), p(params), mb(members), baseline(base), l1io(mod, members.l1, 1, ""),
        lds_io(mod, members.lds, params.cus, ""), lds_sram(mod, members.lds, params.cus, "lds_"),
        ic_io(mod, members.ic, params.icaches, ""), ic_sram(mod, members.ic, params.icaches, "ic_") {}

  void build() {
    cr = m.clock_and_reset();
    ports();
    l1_instance();
    if (baseline) {
      baseline_members();
    } else {
      for (unsigned u = 0; u < p.cus; ++u) cu_wires(u);
      for (unsigned g = 0; g < p.icaches; ++g) ic_wires(g);
      l1_sides();
      if (p.cluster_cus > 1)
        for (unsigned c = 0; c < p.clusters; ++c) cluster_fill_merge(c);
      sequencer();
      for (unsigned u = 0; u < p.cus; ++u) cu_instances(u);
      for (unsigned g = 0; g < p.icaches; ++g) icache_instance(g);
      l1_inputs();
      l2_victim_port();
    }
    l2_request_port();
    l2_response_port();
    // the request registers' ready sits where the L1's would (the declared port order)
    if (p.l1_pad) m.output("req_ready_o", p.cus, "per CU: the request registers take the request").drive(req_taken);
    for (PassThrough* pt : {&l1io, &lds_io, &lds_sram, &ic_io, &ic_sram}) pt->finish();
  }

 private:
  void ports();
  void l1_instance();
  Value l1_request_ids(const std::vector<Value>& iid) const;
  void l1_request_registers(Conn& conn);
  void l1_sides();
  void cluster_fill_merge(unsigned c);
  void cu_wires(unsigned u);
  void ic_wires(unsigned g);
  void sequencer();
  void cu_instances(unsigned u);
  void icache_instance(unsigned g);
  void icache_shootdown_port(unsigned g);
  void l1_inputs();
  void l2_victim_port();
  void l2_request_port();
  void l2_response_port();
  void baseline_members();

  Module& m;
  const TxPathParams& p;
  const Members& mb;
  bool baseline;
  Module::ClockReset cr;
  PassThrough l1io, lds_io, lds_sram, ic_io, ic_sram;
  Value vrf, l2_req_ready, l2_resp_valid, l2_resp_tag, l2_resp_ppn, l2_resp_perm, l2_vic_ready;
  Value sd_valid, sd_all, sd_vpn, sd_vmid;
  Wire l2_req_valid_o, l2_req_vpn_o, l2_req_vmid_o, l2_req_tag_o, l2_req_iid_o, l2_resp_ready_o;
  Wire l2_vic_valid_o, l2_vic_vpn_o, l2_vic_vmid_o, l2_vic_ppn_o, l2_vic_perm_o;
  Wire sd_ready_o, sd_done_o, hit_lds_o, hit_ic_o;
  // the L1-TLB instance's vectors
  Wire l1_l2v, l1_l2_vpn, l1_l2_vmid, l1_l2_tag, l1_l2_iid, l1_l2_ready, l1_rv, l1_rtag, l1_rppn, l1_rperm;
  Wire l1_ev, l1_evpn, l1_evmid, l1_eppn, l1_eperm, l1_sd_valid, l1_sd_ready, l1_sd_done;
  Wire l1_sd_all, l1_sd_vpn, l1_sd_vmid;
  Value l1_fill;
  Value path_iid;             // the CUs' instruction IDs (shared clusters: not the L1's own)
  Value req_valid, req_vpn, req_vmid;  // the CUs' requests (request registers: not the L1's own)
  Value req_taken;  // the request registers take each CU's request (driven as req_ready_o)
  std::vector<L1Side> side;   // per CU
  std::vector<Value> fill_win;  // per shared cluster: the CU whose fill the L1 takes (one-hot)
  // the pending path shootdown
  Shoot sdp, kill;
  Value sd_start;
  std::vector<CuWires> cu;
  std::vector<IcWires> ic;
};

void TopBuilder::ports() {
  const unsigned VPN = p.vpn_bits, VM = p.vmid_bits, P = p.ppn_bits, Q = p.perm_bits, PT = p.l2_tag_bits;
  if (p.l1_pad) {
    req_valid = m.input("req_valid_i", p.cus, "per CU: a translation request");
    req_vpn = m.input("req_vpn_i", p.cus * VPN);
    req_vmid = m.input("req_vmid_i", p.cus * VM);
  }
  l1io.declare(p.l1_pad ? kL1Answers : kL1Ports);
  const bool own_iid = p.local_bits || p.l1_pad;  // the L1's req_iid_i is not the CUs'
  if (p.iid_bits && !own_iid) l1io.declare({"req_iid_i"});
  if (p.iid_bits && own_iid)
    path_iid = m.input("req_iid_i", p.cus * p.iid_bits, "per CU: the request's instruction ID");
  if (!baseline) {
    hit_lds_o = m.output("hit_lds_o", p.cus, "per CU: a translation from its LDS is promoted");
    hit_ic_o = m.output("hit_ic_o", p.cus, "per CU: a translation from its I-cache is promoted");
    vrf = m.input("vrf_i", p.cus * p.vrf_bits, "per CU: its virtual function (VRF-ID)");
  }
  lds_io.declare(kAppPorts);
  if (!baseline) lds_io.declare(kWgPorts);
  lds_sram.declare(kLdsSram);
  ic_io.declare(kIfPorts);
  ic_sram.declare(kIcSram);
  l2_req_valid_o = m.output("l2_req_valid_o", 1, "to the L2-TLB");
  l2_req_ready = m.input("l2_req_ready_i", 1);
  l2_req_vpn_o = m.output("l2_req_vpn_o", VPN);
  l2_req_vmid_o = m.output("l2_req_vmid_o", VM);
  l2_req_tag_o = m.output("l2_req_tag_o", PT, "{CU, the L1-TLB's tag}");
  if (p.iid_bits) l2_req_iid_o = m.output("l2_req_iid_o", p.iid_bits, "the instruction ID of the miss");
  l2_resp_valid = m.input("l2_resp_valid_i", 1);
  l2_resp_ready_o = m.output("l2_resp_ready_o", 1, "for the CU that l2_resp_tag_i names");
  l2_resp_tag = m.input("l2_resp_tag_i", PT);
  l2_resp_ppn = m.input("l2_resp_ppn_i", P);
  l2_resp_perm = m.input("l2_resp_perm_i", Q);
  if (!baseline) {
    l2_vic_valid_o = m.output("l2_vic_valid_o", 1, "translations leaving the path for the L2-TLB");
    l2_vic_ready = m.input("l2_vic_ready_i", 1);
    l2_vic_vpn_o = m.output("l2_vic_vpn_o", VPN);
    l2_vic_vmid_o = m.output("l2_vic_vmid_o", VM);
    l2_vic_ppn_o = m.output("l2_vic_ppn_o", P);
    l2_vic_perm_o = m.output("l2_vic_perm_o", Q);
  }
  sd_valid = m.input("sd_valid_i", 1, "translation shootdown");
  sd_ready_o = m.output("sd_ready_o", 1);
  sd_all = m.input("sd_all_i", 1);
  sd_vpn = m.input("sd_vpn_i", VPN);
  sd_vmid = m.input("sd_vmid_i", VM);
  sd_done_o = m.output("sd_done_o", 1);
}

void TopBuilder::l1_instance() {
  const unsigned U = p.clusters, VPN = p.vpn_bits, VM = p.vmid_bits, P = p.ppn_bits, Q = p.perm_bits;
  const unsigned LT = p.l1_tag_bits;
  declare(m, "l1_",
          {{&l1_l2v, "l2_req_valid", U},     {&l1_l2_vpn, "l2_req_vpn", U * VPN},  {&l1_l2_vmid, "l2_req_vmid", U * VM},
           {&l1_l2_tag, "l2_req_tag", U * LT}, {&l1_l2_ready, "l2_req_ready", U},   {&l1_rv, "l2_resp_valid", U},
           {&l1_rtag, "l2_resp_tag", U * LT},  {&l1_rppn, "l2_resp_ppn", U * P},    {&l1_rperm, "l2_resp_perm", U * Q},
           {&l1_ev, "evict_valid", U},        {&l1_evpn, "evict_vpn", U * VPN},    {&l1_evmid, "evict_vmid", U * VM},
           {&l1_eppn, "evict_ppn", U * P},     {&l1_eperm, "evict_perm", U * Q},    {&l1_sd_valid, "sd_valid", 1},
           {&l1_sd_ready, "sd_ready", 1},      {&l1_sd_done, "sd_done", 1},         {&l1_sd_all, "sd_all", 1},
           {&l1_sd_vpn, "sd_vpn", VPN},        {&l1_sd_vmid, "sd_vmid", VM}});
  Conn conn = {{"clk_i", cr.clk}, {"rst_ni", cr.rst_n}};
  l1io.connect(conn, "l1_", 0);
  l1_fill = l1io.part("fill_valid_o", 0);
  const Conn rest = {{"l2_req_valid_o", l1_l2v},    {"l2_req_ready_i", l1_l2_ready}, {"l2_req_vpn_o", l1_l2_vpn},
                     {"l2_req_vmid_o", l1_l2_vmid}, {"l2_req_tag_o", l1_l2_tag},    {"l2_resp_valid_i", l1_rv},
                     {"l2_resp_tag_i", l1_rtag},    {"l2_resp_ppn_i", l1_rppn},     {"l2_resp_perm_i", l1_rperm},
                     {"evict_valid_o", l1_ev},      {"evict_vpn_o", l1_evpn},       {"evict_vmid_o", l1_evmid},
                     {"evict_ppn_o", l1_eppn},      {"evict_perm_o", l1_eperm},     {"sd_valid_i", l1_sd_valid},
                     {"sd_ready_o", l1_sd_ready},   {"sd_all_i", l1_sd_all},        {"sd_vpn_i", l1_sd_vpn},
                     {"sd_vmid_i", l1_sd_vmid},     {"sd_done_o", l1_sd_done}};
  conn.insert(conn.end(), rest.begin(), rest.end());
  if (p.l1.iid_bits) {
    l1_l2_iid = m.wire("l1_l2_req_iid", U * p.l1.iid_bits);
    conn.push_back({"l2_req_iid_o", l1_l2_iid});
  }
  if (p.l1_pad) {
    l1_request_registers(conn);
  } else if (p.local_bits) {
    std::vector<Value> iid;
    for (unsigned u = 0; u < p.cus; ++u) iid.push_back(p.iid_bits ? path_iid.field(u, p.iid_bits) : Value());
    conn.push_back({"req_iid_i", l1_request_ids(iid)});
  }
  m.instance(mb.l1, "u_l1", conn);
}

// Seed 001's latency model (tx_path.l1tlb.latency "document"): Z registers in
// front of each CU's L1 request, which advance together unless the last one
// waits for the L1.
void TopBuilder::l1_request_registers(Conn& conn) {
  const unsigned VPN = p.vpn_bits, VM = p.vmid_bits, IW = p.iid_bits;
  m.comment("L1-TLB request registers: " + to_string(p.l1_pad) + " per CU (seed 001's crossbar and access latency).");
  Wire l1_ready = m.wire("l1_req_ready", p.cus);
  std::vector<Value> valid, vpn, vmid, iid, advance;
  for (unsigned u = 0; u < p.cus; ++u) {
    Wire adv = m.wire("c" + to_string(u) + "_z_advance", 1);
    Value v = req_valid.bit(u), a = req_vpn.field(u, VPN), b = req_vmid.field(u, VM);
    Value id = IW ? path_iid.field(u, IW) : Value();
    for (unsigned k = 1; k <= p.l1_pad; ++k) {
      const string z = "c" + to_string(u) + "_z" + to_string(k) + "_";
      Reg rv = m.reg(z + "v", 1), rvpn = m.reg(z + "vpn", VPN), rvmid = m.reg(z + "vmid", VM);
      rv.next_if(adv, v), rvpn.next_if(adv, a), rvmid.next_if(adv, b);
      v = rv, a = rvpn, b = rvmid;
      if (IW) {
        Reg rid = m.reg(z + "iid", IW);
        rid.next_if(adv, id);
        id = rid;
      }
    }
    adv.drive(~v | l1_ready.bit(u));
    advance.push_back(adv), valid.push_back(v), vpn.push_back(a), vmid.push_back(b), iid.push_back(id);
  }
  req_taken = m.wire("req_taken", hdl::cat_lsb_first(advance));
  conn.push_back({"req_valid_i", hdl::cat_lsb_first(valid)});
  conn.push_back({"req_ready_o", l1_ready});
  conn.push_back({"req_vpn_i", hdl::cat_lsb_first(vpn)});
  conn.push_back({"req_vmid_i", hdl::cat_lsb_first(vmid)});
  if (p.local_bits) {
    conn.push_back({"req_iid_i", l1_request_ids(iid)});
  } else if (IW) {
    conn.push_back({"req_iid_i", hdl::cat_lsb_first(iid)});
  }
}

// A shared cluster's requests carry {the CU's instruction ID, the CU within
// its cluster}: the L1's l2_req_iid_o then names the CU that allocated the MSHR.
Value TopBuilder::l1_request_ids(const std::vector<Value>& iid) const {
  std::vector<Value> ids;
  for (unsigned u = 0; u < p.cus; ++u) {
    const Value local = lit(p.local_bits, u % p.cluster_cus);
    ids.push_back(p.iid_bits ? cat({iid[u], local}) : local);
  }
  return m.wire("l1_req_iid", hdl::cat_lsb_first(ids));
}

// Each CU's view of the L1-TLB: with private TLBs its own ports; in a shared
// cluster the cluster's miss when the CU allocated it, and the cluster's
// victims and answers of the fills it sent (the d3 / d4 registers).
void TopBuilder::l1_sides() {
  const unsigned VPN = p.vpn_bits, VM = p.vmid_bits, P = p.ppn_bits, Q = p.perm_bits, LT = p.l1_tag_bits;
  const unsigned N = p.cluster_cus, IW = p.iid_bits;
  for (unsigned u = 0; u < p.cus; ++u) {
    const unsigned c = u / N, i = u % N;
    L1Side s;
    s.req_vpn = l1_l2_vpn.field(c, VPN), s.req_vmid = l1_l2_vmid.field(c, VM), s.req_tag = l1_l2_tag.field(c, LT);
    s.ev_vpn = l1_evpn.field(c, VPN), s.ev_vmid = l1_evmid.field(c, VM);
    s.ev_ppn = l1_eppn.field(c, P), s.ev_perm = l1_eperm.field(c, Q);
    if (N == 1) {
      s.req_valid = l1_l2v.bit(c), s.fill_done = l1_fill.bit(u), s.ev_valid = l1_ev.bit(c);
      if (IW) s.req_iid = l1_l2_iid.field(c, IW);
    } else {
      const Value id = l1_l2_iid.field(c, p.l1.iid_bits);
      const Value mine = id.slice(0, p.local_bits) == lit(p.local_bits, i);
      s.req_valid = m.wire("c" + to_string(u) + "_l1_req_valid", l1_l2v.bit(c) & mine);
      if (IW) s.req_iid = id.slice(p.local_bits, IW);
    }
    side.push_back(s);
  }
}

// A shared cluster's L1 input takes one fill per cycle: round-robin over its
// CUs' wants. d1..d4 carry the winner to its fill's victim (d3) and answer (d4).
void TopBuilder::cluster_fill_merge(unsigned c) {
  const unsigned N = p.cluster_cus;
  const string k = "k" + to_string(c) + "_";
  m.comment("L1 cluster " + to_string(c) +
            ": one fill per cycle from its CUs; the sender named to its victim and answer.");
  std::vector<Value> want;
  for (unsigned i = 0; i < N; ++i) want.push_back(cu[c * N + i].l1_want);
  Value req = m.wire(k + "want", hdl::cat_lsb_first(want));
  Value win = m.wire(k + "win", rr_pick(m, k + "fp", req, any(req)));
  Value d = win;
  for (unsigned stage = 1; stage <= 4; ++stage) {
    Reg r = m.reg(k + "d" + to_string(stage), N);
    r.next(d);
    d = r;
    for (unsigned i = 0; i < N; ++i) {
      if (stage == 3) side[c * N + i].ev_valid = l1_ev.bit(c) & r.bit(i);
      if (stage == 4) side[c * N + i].fill_done = r.bit(i);
    }
  }
  for (unsigned i = 0; i < N; ++i) cu[c * N + i].l1_grant.drive(win.bit(i));
  fill_win.push_back(win);
}

void TopBuilder::cu_wires(unsigned u) {
  const unsigned VPN = p.vpn_bits, VM = p.vmid_bits, R = p.vrf_bits, P = p.ppn_bits, Q = p.perm_bits;
  const unsigned LT = p.l1_tag_bits;
  CuWires w;
  declare(m, "c" + to_string(u) + "_",
          {{&w.l1_ready, "l1_ready", 1},       {&w.l1_rv, "l1_resp_valid", 1},   {&w.l1_rtag, "l1_resp_tag", LT},
           {&w.l1_rppn, "l1_resp_ppn", P},     {&w.l1_rperm, "l1_resp_perm", Q}, {&w.lk_valid, "lk_valid", 1},
           {&w.lk_ready, "lk_ready", 1},       {&w.lk_vpn, "lk_vpn", VPN},       {&w.lk_vmid, "lk_vmid", VM},
           {&w.lk_vrf, "lk_vrf", R},           {&w.lk_rv, "lk_resp_valid", 1},   {&w.lk_hit, "lk_resp_hit", 1},
           {&w.lk_ppn, "lk_resp_ppn", P},      {&w.lk_perm, "lk_resp_perm", Q},  {&w.fill_valid, "fill_valid", 1},
           {&w.fill_ready, "fill_ready", 1},   {&w.fill_vpn, "fill_vpn", VPN},   {&w.fill_vmid, "fill_vmid", VM},
           {&w.fill_vrf, "fill_vrf", R},       {&w.fill_ppn, "fill_ppn", P},     {&w.fill_perm, "fill_perm", Q},
           {&w.sd_valid, "sd_valid", 1},       {&w.sd_ready, "sd_ready", 1},     {&w.sd_all, "sd_all", 1},
           {&w.sd_vpn, "sd_vpn", VPN},         {&w.sd_vmid, "sd_vmid", VM},      {&w.sd_done, "sd_done", 1},
           {&w.ldone, "ldone", 1},             {&w.vic_valid, "vic_valid", 1},   {&w.vic_ready, "vic_ready", 1},
           {&w.vic_vpn, "vic_vpn", VPN},       {&w.vic_vmid, "vic_vmid", VM},    {&w.vic_vrf, "vic_vrf", R},
           {&w.vic_ppn, "vic_ppn", P},         {&w.vic_perm, "vic_perm", Q},     {&w.tf_valid, "tf_valid", 1},
           {&w.tf_ready, "tf_ready", 1},       {&w.tf_vpn, "tf_vpn", VPN},       {&w.tf_vmid, "tf_vmid", VM},
           {&w.tf_vrf, "tf_vrf", R},           {&w.tf_ppn, "tf_ppn", P},         {&w.tf_perm, "tf_perm", Q},
           {&w.tl_valid, "tl_valid", 1},       {&w.tl_ready, "tl_ready", 1},     {&w.tl_vpn, "tl_vpn", VPN},
           {&w.tl_vmid, "tl_vmid", VM},        {&w.tl_vrf, "tl_vrf", R},         {&w.ic_rv, "ic_resp_valid", 1}});
  if (p.move)
    declare(m, "c" + to_string(u) + "_",
            {{&w.rmi_valid, "rmi_valid", 1}, {&w.rmi_vpn, "rmi_vpn", VPN}, {&w.rmi_vmid, "rmi_vmid", VM},
             {&w.rmi_taken, "rmi_taken", 1}});
  declare(m, "c" + to_string(u) + "_",
          {{&w.l2_valid, "l2_valid", 1},       {&w.l2_vpn, "l2_vpn", VPN},       {&w.l2_vmid, "l2_vmid", VM},
           {&w.l2_tag, "l2_tag", LT},          {&w.l2_taken, "l2_taken", 1},     {&w.l2_rv, "l2_resp_valid", 1},
           {&w.l2_ok, "l2_ok", 1},             {&w.hit_lds, "hit_lds", 1},       {&w.hit_ic, "hit_ic", 1}});
  if (p.iid_bits) w.l2_iid = m.wire("c" + to_string(u) + "_l2_iid", p.iid_bits);
  if (p.cluster_cus > 1)
    declare(m, "c" + to_string(u) + "_", {{&w.l1_want, "l1_want", 1}, {&w.l1_grant, "l1_grant", 1}});
  cu.push_back(w);
}

void TopBuilder::ic_wires(unsigned g) {
  const unsigned VPN = p.vpn_bits, VM = p.vmid_bits, R = p.vrf_bits, P = p.ppn_bits, Q = p.perm_bits;
  IcWires w;
  declare(m, "g" + to_string(g) + "_",
          {{&w.tl_ready, "tl_ready", p.sharers},  {&w.tf_ready, "tf_ready", p.sharers},
           {&w.tl_resp_valid, "tl_resp_valid", 1}, {&w.tl_resp_cu, "tl_resp_cu", p.sharer_bits},
           {&w.tl_resp_hit, "tl_resp_hit", 1},     {&w.tl_resp_ppn, "tl_resp_ppn", P},
           {&w.tl_resp_perm, "tl_resp_perm", Q},   {&w.vic_valid, "vic_valid", 1},
           {&w.vic_ready, "vic_ready", 1},         {&w.vic_vpn, "vic_vpn", VPN},
           {&w.vic_vmid, "vic_vmid", VM},          {&w.vic_vrf, "vic_vrf", R},
           {&w.vic_ppn, "vic_ppn", P},             {&w.vic_perm, "vic_perm", Q},
           {&w.sd_valid, "sd_valid", 1},           {&w.sd_ready, "sd_ready", 1},
           {&w.sd_all, "sd_all", 1},               {&w.sd_vpn, "sd_vpn", VPN},
           {&w.sd_vmid, "sd_vmid", VM},            {&w.sd_done, "sd_done", 1},
           {&w.idone, "idone", 1}});
  ic.push_back(w);
}

// The shootdown sequencer: every LDS and I-cache first, then the L1-TLBs.
void TopBuilder::sequencer() {
  m.comment("Shootdown sequencer: every LDS and I-cache first, the L1-TLBs last, then done.");
  Reg v = m.reg("sdp_v", 1), all = m.reg("sdp_all", 1);
  Reg vpn = m.reg("sdp_vpn", p.vpn_bits), vmid = m.reg("sdp_vmid", p.vmid_bits);
  Reg l1sent = m.reg("l1sent", 1), l1done = m.reg("l1done", 1), done = m.reg("sd_done", 1);
  sdp = {v, all, vpn, vmid};
  sd_start = m.wire("sd_start", sd_valid & ~v);
  // the key that kills victims at this edge: the accepted one, else the pending one
  kill = {m.wire("kill", sd_start | v), m.wire("kill_all", mux(sd_start, sd_all, all)),
          m.wire("kill_vpn", mux(sd_start, sd_vpn, vpn)), m.wire("kill_vmid", mux(sd_start, sd_vmid, vmid))};
  sd_ready_o.drive(~v);
  all.next(mux(sd_start, sd_all, all));
  vpn.next(mux(sd_start, sd_vpn, vpn));
  vmid.next(mux(sd_start, sd_vmid, vmid));
  v.next(sd_start | (v & ~l1done));
  done.next(v & l1done);
  sd_done_o.drive(done);
  std::vector<Value> below;
  for (const auto& w : cu) below.push_back(w.ldone);
  for (const auto& w : ic) below.push_back(w.idone);
  Value below_done = m.wire("below_done", hdl::and_of(below, lit(1, 1)));
  l1_sd_valid.drive(v & below_done & ~l1sent);
  l1_sd_all.drive(all);
  l1_sd_vpn.drive(vpn);
  l1_sd_vmid.drive(vmid);
  l1sent.next(~sd_start & (l1sent | (l1_sd_valid & l1_sd_ready)));
  l1done.next(~sd_start & (l1done | l1_sd_done));
}

void TopBuilder::cu_instances(unsigned u) {
  const unsigned R = p.vrf_bits, LT = p.l1_tag_bits;
  const CuWires& w = cu[u];
  const L1Side& l1s = side[u];
  const string c = "c" + to_string(u) + "_";
  Conn lds = {{"clk_i", cr.clk}, {"rst_ni", cr.rst_n}};
  lds_io.connect(lds, c, u);
  lds_sram.connect(lds, c, u);
  const Conn lds_tx = {
      {"sd_valid_i", w.sd_valid},   {"sd_ready_o", w.sd_ready},     {"sd_all_i", w.sd_all},       {"sd_vpn_i", w.sd_vpn},
      {"sd_vmid_i", w.sd_vmid},     {"sd_done_o", w.sd_done},       {"lk_valid_i", w.lk_valid},   {"lk_ready_o", w.lk_ready},
      {"lk_vpn_i", w.lk_vpn},       {"lk_vmid_i", w.lk_vmid},       {"lk_vrf_i", w.lk_vrf},       {"lk_resp_valid_o", w.lk_rv},
      {"lk_resp_ready_i", lit(1, 1)}, {"lk_resp_hit_o", w.lk_hit},  {"lk_resp_ppn_o", w.lk_ppn},  {"lk_resp_perm_o", w.lk_perm},
      {"fill_valid_i", w.fill_valid}, {"fill_ready_o", w.fill_ready}, {"fill_vpn_i", w.fill_vpn}, {"fill_vmid_i", w.fill_vmid},
      {"fill_vrf_i", w.fill_vrf},   {"fill_ppn_i", w.fill_ppn},     {"fill_perm_i", w.fill_perm}, {"vic_valid_o", w.vic_valid},
      {"vic_ready_i", w.vic_ready}, {"vic_vpn_o", w.vic_vpn},       {"vic_vmid_o", w.vic_vmid},   {"vic_vrf_o", w.vic_vrf},
      {"vic_ppn_o", w.vic_ppn},     {"vic_perm_o", w.vic_perm}};
  lds.insert(lds.end(), lds_tx.begin(), lds_tx.end());
  m.instance(mb.lds, "u_lds" + to_string(u), lds);

  const unsigned g = u / p.sharers, i = u % p.sharers;
  const IcWires& x = ic[g];
  w.tl_ready.drive(x.tl_ready.bit(i));
  w.tf_ready.drive(x.tf_ready.bit(i));
  w.ic_rv.drive(x.tl_resp_valid & (x.tl_resp_cu == lit(p.sharer_bits, i)));
  Conn glue = {
      {"clk_i", cr.clk}, {"rst_ni", cr.rst_n}, {"vrf_i", vrf.field(u, R)}, {"sd_start_i", sd_start},
      {"sdp_valid_i", sdp.active}, {"sdp_all_i", sdp.all}, {"sdp_vpn_i", sdp.vpn}, {"sdp_vmid_i", sdp.vmid},
      {"kill_i", kill.active}, {"kill_all_i", kill.all}, {"kill_vpn_i", kill.vpn}, {"kill_vmid_i", kill.vmid},
      {"l1_req_valid_i", l1s.req_valid}, {"l1_req_vpn_i", l1s.req_vpn},
      {"l1_req_vmid_i", l1s.req_vmid}, {"l1_req_tag_i", l1s.req_tag},
      {"l1_req_ready_o", w.l1_ready}, {"l1_resp_valid_o", w.l1_rv}, {"l1_resp_tag_o", w.l1_rtag},
      {"l1_resp_ppn_o", w.l1_rppn}, {"l1_resp_perm_o", w.l1_rperm}, {"l1_fill_valid_i", l1s.fill_done},
      {"l1_evict_valid_i", l1s.ev_valid}, {"l1_evict_vpn_i", l1s.ev_vpn},
      {"l1_evict_vmid_i", l1s.ev_vmid}, {"l1_evict_ppn_i", l1s.ev_ppn},
      {"l1_evict_perm_i", l1s.ev_perm},
      {"lds_lk_valid_o", w.lk_valid}, {"lds_lk_vpn_o", w.lk_vpn}, {"lds_lk_vmid_o", w.lk_vmid},
      {"lds_lk_vrf_o", w.lk_vrf}, {"lds_lk_ready_i", w.lk_ready}, {"lds_lk_resp_valid_i", w.lk_rv},
      {"lds_lk_resp_hit_i", w.lk_hit}, {"lds_lk_resp_ppn_i", w.lk_ppn}, {"lds_lk_resp_perm_i", w.lk_perm},
      {"lds_fill_valid_o", w.fill_valid}, {"lds_fill_ready_i", w.fill_ready}, {"lds_fill_vpn_o", w.fill_vpn},
      {"lds_fill_vmid_o", w.fill_vmid}, {"lds_fill_vrf_o", w.fill_vrf}, {"lds_fill_ppn_o", w.fill_ppn},
      {"lds_fill_perm_o", w.fill_perm}, {"lds_sd_valid_o", w.sd_valid}, {"lds_sd_ready_i", w.sd_ready},
      {"lds_sd_all_o", w.sd_all}, {"lds_sd_vpn_o", w.sd_vpn}, {"lds_sd_vmid_o", w.sd_vmid},
      {"lds_sd_done_i", w.sd_done}, {"lds_vic_valid_i", w.vic_valid}, {"lds_vic_vpn_i", w.vic_vpn},
      {"lds_vic_vmid_i", w.vic_vmid}, {"lds_vic_vrf_i", w.vic_vrf}, {"lds_vic_ppn_i", w.vic_ppn},
      {"lds_vic_perm_i", w.vic_perm}, {"lds_vic_ready_o", w.vic_ready}, {"lds_sd_seq_done_o", w.ldone},
      {"ic_tf_valid_o", w.tf_valid}, {"ic_tf_vpn_o", w.tf_vpn}, {"ic_tf_vmid_o", w.tf_vmid}, {"ic_tf_vrf_o", w.tf_vrf},
      {"ic_tf_ppn_o", w.tf_ppn}, {"ic_tf_perm_o", w.tf_perm}, {"ic_tf_ready_i", w.tf_ready},
      {"ic_tl_valid_o", w.tl_valid}, {"ic_tl_vpn_o", w.tl_vpn}, {"ic_tl_vmid_o", w.tl_vmid}, {"ic_tl_vrf_o", w.tl_vrf},
      {"ic_tl_ready_i", w.tl_ready}, {"ic_resp_valid_i", w.ic_rv}, {"ic_resp_hit_i", x.tl_resp_hit},
      {"ic_resp_ppn_i", x.tl_resp_ppn}, {"ic_resp_perm_i", x.tl_resp_perm},
      {"l2_valid_o", w.l2_valid}, {"l2_vpn_o", w.l2_vpn}, {"l2_vmid_o", w.l2_vmid}, {"l2_tag_o", w.l2_tag},
      {"l2_taken_i", w.l2_taken}, {"l2_resp_valid_i", w.l2_rv}, {"l2_resp_tag_i", l2_resp_tag.slice(0, LT)},
      {"l2_resp_ppn_i", l2_resp_ppn}, {"l2_resp_perm_i", l2_resp_perm}, {"l2_ok_o", w.l2_ok},
      {"hit_lds_o", w.hit_lds}, {"hit_ic_o", w.hit_ic}};
  if (p.iid_bits) {
    glue.push_back({"l1_req_iid_i", l1s.req_iid});
    glue.push_back({"l2_iid_o", w.l2_iid});
  }
  if (p.cluster_cus > 1) {
    glue.push_back({"l1_want_o", w.l1_want});
    glue.push_back({"l1_grant_i", w.l1_grant});
  }
  if (p.move) {
    const Conn rm = {{"rmi_valid_o", w.rmi_valid}, {"rmi_vpn_o", w.rmi_vpn}, {"rmi_vmid_o", w.rmi_vmid},
                     {"rmi_taken_i", w.rmi_taken}};
    glue.insert(glue.end(), rm.begin(), rm.end());
  }
  m.instance(mb.cu, "u_cu" + to_string(u), glue);
}

// The L1-TLB's per-cluster inputs from the glue: a private CU's own, a shared
// cluster's from the CU that allocated the miss (ready) and from the winner
// of the fill merge (fill).
void TopBuilder::l1_inputs() {
  const unsigned N = p.cluster_cus, LT = p.l1_tag_bits, P = p.ppn_bits, Q = p.perm_bits;
  std::vector<Value> ready, rv, rtag, rppn, rperm, hl, hi;
  for (const auto& w : cu) {
    hl.push_back(w.hit_lds);
    hi.push_back(w.hit_ic);
  }
  for (unsigned c = 0; c < p.clusters; ++c) {
    if (N == 1) {
      const CuWires& w = cu[c];
      ready.push_back(w.l1_ready), rv.push_back(w.l1_rv), rtag.push_back(w.l1_rtag);
      rppn.push_back(w.l1_rppn), rperm.push_back(w.l1_rperm);
      continue;
    }
    std::vector<Value> cready, crv, ctag, cppn, cperm;
    for (unsigned i = 0; i < N; ++i) {
      const CuWires& w = cu[c * N + i];
      cready.push_back(side[c * N + i].req_valid & w.l1_ready);
      crv.push_back(w.l1_rv), ctag.push_back(w.l1_rtag), cppn.push_back(w.l1_rppn), cperm.push_back(w.l1_rperm);
    }
    ready.push_back(any(hdl::cat_lsb_first(cready)));
    rv.push_back(any(hdl::cat_lsb_first(crv)));
    rtag.push_back(pick(fill_win[c], ctag, LT));
    rppn.push_back(pick(fill_win[c], cppn, P));
    rperm.push_back(pick(fill_win[c], cperm, Q));
  }
  l1_l2_ready.drive(hdl::cat_lsb_first(ready));
  l1_rv.drive(hdl::cat_lsb_first(rv));
  l1_rtag.drive(hdl::cat_lsb_first(rtag));
  l1_rppn.drive(hdl::cat_lsb_first(rppn));
  l1_rperm.drive(hdl::cat_lsb_first(rperm));
  hit_lds_o.drive(hdl::cat_lsb_first(hl));
  hit_ic_o.drive(hdl::cat_lsb_first(hi));
}

void TopBuilder::icache_instance(unsigned g) {
  const IcWires& x = ic[g];
  const string c = "g" + to_string(g) + "_";
  std::vector<Value> tl_v, tl_vpn, tl_vmid, tl_vrf, tf_v, tf_vpn, tf_vmid, tf_vrf, tf_ppn, tf_perm;
  for (unsigned i = 0; i < p.sharers; ++i) {
    const CuWires& w = cu[g * p.sharers + i];
    tl_v.push_back(w.tl_valid);
    tl_vpn.push_back(w.tl_vpn);
    tl_vmid.push_back(w.tl_vmid);
    tl_vrf.push_back(w.tl_vrf);
    tf_v.push_back(w.tf_valid);
    tf_vpn.push_back(w.tf_vpn);
    tf_vmid.push_back(w.tf_vmid);
    tf_vrf.push_back(w.tf_vrf);
    tf_ppn.push_back(w.tf_ppn);
    tf_perm.push_back(w.tf_perm);
  }
  using hdl::cat_lsb_first;
  Conn conn = {{"clk_i", cr.clk}, {"rst_ni", cr.rst_n}};
  ic_io.connect(conn, c, g);
  ic_sram.connect(conn, c, g);
  const Conn tx = {
      {"tl_valid_i", cat_lsb_first(tl_v)}, {"tl_ready_o", x.tl_ready}, {"tl_vpn_i", cat_lsb_first(tl_vpn)},
      {"tl_vmid_i", cat_lsb_first(tl_vmid)}, {"tl_vrf_i", cat_lsb_first(tl_vrf)},
      {"tl_resp_valid_o", x.tl_resp_valid}, {"tl_resp_ready_i", lit(1, 1)}, {"tl_resp_cu_o", x.tl_resp_cu},
      {"tl_resp_hit_o", x.tl_resp_hit}, {"tl_resp_ppn_o", x.tl_resp_ppn}, {"tl_resp_perm_o", x.tl_resp_perm},
      {"tf_valid_i", cat_lsb_first(tf_v)}, {"tf_ready_o", x.tf_ready}, {"tf_vpn_i", cat_lsb_first(tf_vpn)},
      {"tf_vmid_i", cat_lsb_first(tf_vmid)}, {"tf_vrf_i", cat_lsb_first(tf_vrf)},
      {"tf_ppn_i", cat_lsb_first(tf_ppn)}, {"tf_perm_i", cat_lsb_first(tf_perm)},
      {"vic_valid_o", x.vic_valid}, {"vic_ready_i", x.vic_ready}, {"vic_vpn_o", x.vic_vpn},
      {"vic_vmid_o", x.vic_vmid}, {"vic_vrf_o", x.vic_vrf}, {"vic_ppn_o", x.vic_ppn}, {"vic_perm_o", x.vic_perm},
      {"sd_valid_i", x.sd_valid}, {"sd_ready_o", x.sd_ready}, {"sd_all_i", x.sd_all}, {"sd_vpn_i", x.sd_vpn},
      {"sd_vmid_i", x.sd_vmid}, {"sd_done_o", x.sd_done}};
  conn.insert(conn.end(), tx.begin(), tx.end());
  m.instance(mb.ic, "u_ic" + to_string(g), conn);
  icache_shootdown_port(g);
}

// I-cache g's shootdown port: the sequencer first, then its sharers'
// removes in round-robin order; done pulses go to their owner.
void TopBuilder::icache_shootdown_port(unsigned g) {
  const IcWires& x = ic[g];
  const string c = "g" + to_string(g) + "_";
  m.comment("I-cache " + to_string(g) + " shootdown port: the path's shootdown first, then the sharers' removes.");
  Reg isent = m.reg(c + "isent", 1), iown = m.reg(c + "iown", 1), idone = m.reg(c + "idone_r", 1);
  Value ireq = m.wire(c + "ireq", sdp.active & ~isent);
  Value acc = m.wire(c + "sd_acc", x.sd_valid & x.sd_ready);
  Value all = sdp.all, vpn = sdp.vpn, vmid = sdp.vmid, rm_any = zero(1);
  if (p.move) {
    std::vector<Value> req, rvpn, rvmid;
    for (unsigned i = 0; i < p.sharers; ++i) {
      const CuWires& w = cu[g * p.sharers + i];
      req.push_back(w.rmi_valid);
      rvpn.push_back(w.rmi_vpn);
      rvmid.push_back(w.rmi_vmid);
    }
    Value cand = m.wire(c + "rm_cand", hdl::cat_lsb_first(req));
    rm_any = any(cand);
    Value win = m.wire(c + "rm_win", rr_pick(m, c + "rp", cand, acc & ~ireq));
    for (unsigned i = 0; i < p.sharers; ++i) cu[g * p.sharers + i].rmi_taken.drive(acc & ~ireq & win.bit(i));
    all = ireq & sdp.all;
    vpn = mux(ireq, sdp.vpn, pick(win, rvpn, p.vpn_bits));
    vmid = mux(ireq, sdp.vmid, pick(win, rvmid, p.vmid_bits));
  }
  x.sd_valid.drive(ireq | rm_any);
  x.sd_all.drive(all);
  x.sd_vpn.drive(vpn);
  x.sd_vmid.drive(vmid);
  isent.next(~sd_start & (isent | (acc & ireq)));
  iown.next(mux(acc, ireq, iown));
  idone.next(~sd_start & (idone | (x.sd_done & iown)));
  x.idone.drive(idone);
}

// Victims of the I-caches to the L2-TLB: round-robin into the L2 victim
// register, whose killed contents are dropped instead of offered.
void TopBuilder::l2_victim_port() {
  m.comment("L2-TLB victim port: round-robin over the I-caches into the victim register; killed victims dropped.");
  const unsigned VPN = p.vpn_bits, VM = p.vmid_bits, P = p.ppn_bits, Q = p.perm_bits;
  std::vector<Value> cand, vpn, vmid, ppn, perm;
  for (unsigned g = 0; g < p.icaches; ++g) {
    const IcWires& x = ic[g];
    cand.push_back(x.vic_valid);
    vpn.push_back(x.vic_vpn);
    vmid.push_back(x.vic_vmid);
    ppn.push_back(x.vic_ppn);
    perm.push_back(x.vic_perm);
    m.unused("unused_g" + to_string(g) + "_vic_vrf", x.vic_vrf);
  }
  Reg v = m.reg("vr_v", 1), k = m.reg("vr_kill", 1), rvpn = m.reg("vr_vpn", VPN), rvmid = m.reg("vr_vmid", VM);
  Reg rppn = m.reg("vr_ppn", P), rperm = m.reg("vr_perm", Q);
  Value out = m.wire("vr_out", v & (k | l2_vic_ready));
  Value free = m.wire("vr_free", ~v | out);
  Value c = m.wire("vic_cand", hdl::cat_lsb_first(cand));
  Value take = m.wire("vr_take", any(c) & free);
  Value win = m.wire("vic_win", rr_pick(m, "vp", c, take));
  Value tvpn = pick(win, vpn, VPN), tvmid = pick(win, vmid, VM);
  v.next(take | (v & ~out));
  k.next(mux(take, kill.kills(tvpn, tvmid), k | kill.kills(rvpn, rvmid)));
  rvpn.next(mux(take, tvpn, rvpn));
  rvmid.next(mux(take, tvmid, rvmid));
  rppn.next(mux(take, pick(win, ppn, P), rppn));
  rperm.next(mux(take, pick(win, perm, Q), rperm));
  l2_vic_valid_o.drive(v & ~k);
  l2_vic_vpn_o.drive(rvpn);
  l2_vic_vmid_o.drive(rvmid);
  l2_vic_ppn_o.drive(rppn);
  l2_vic_perm_o.drive(rperm);
  for (unsigned g = 0; g < p.icaches; ++g) ic[g].vic_ready.drive(win.bit(g) & free);
}

// The L2-TLB request port: round-robin over the CUs' L2 registers (the
// L1-TLB's own, one per cluster, in the baseline); data 0 without a request.
void TopBuilder::l2_request_port() {
  const unsigned U = baseline ? p.clusters : p.cus, VPN = p.vpn_bits, VM = p.vmid_bits, LT = p.l1_tag_bits;
  const unsigned CUB = p.cu_bits;
  m.comment(baseline && p.clusters < p.cus ? "L2-TLB request port: round-robin over the L1 clusters."
                                           : "L2-TLB request port: round-robin over the CUs.");
  std::vector<Value> v(U), vpn(U), vmid(U), tag(U), iid(U);
  for (unsigned u = 0; u < U; ++u) {
    if (p.iid_bits)
      iid[u] = baseline ? l1_l2_iid.field(u, p.l1.iid_bits).slice(p.local_bits, p.iid_bits) : Value(cu[u].l2_iid);
    v[u] = baseline ? l1_l2v.bit(u) : Value(cu[u].l2_valid);
    vpn[u] = baseline ? l1_l2_vpn.field(u, VPN) : Value(cu[u].l2_vpn);
    vmid[u] = baseline ? l1_l2_vmid.field(u, VM) : Value(cu[u].l2_vmid);
    tag[u] = cat({lit(CUB, u), baseline ? l1_l2_tag.field(u, LT) : Value(cu[u].l2_tag)});
  }
  Value cand = m.wire("l2_cand", hdl::cat_lsb_first(v));
  Value fire = any(cand) & l2_req_ready;
  Value win = m.wire("l2_win", rr_pick(m, "lp", cand, fire));
  l2_req_valid_o.drive(any(cand));
  // the port's data are 0 without a candidate; pick passes one CU's fields through
  const auto data = [&](const std::vector<Value>& fields, unsigned width) {
    return U == 1 ? gate(win, fields[0]) : pick(win, fields, width);
  };
  l2_req_vpn_o.drive(data(vpn, VPN));
  l2_req_vmid_o.drive(data(vmid, VM));
  l2_req_tag_o.drive(data(tag, p.l2_tag_bits));
  if (p.iid_bits) l2_req_iid_o.drive(data(iid, p.iid_bits));
  Value taken = m.wire("l2_taken", gate(l2_req_ready, win));
  if (baseline) {
    l1_l2_ready.drive(taken);
    return;
  }
  for (unsigned u = 0; u < U; ++u) cu[u].l2_taken.drive(taken.bit(u));
}

// The L2-TLB response port: the answer goes to the CU its tag names.
void TopBuilder::l2_response_port() {
  const unsigned U = baseline ? p.clusters : p.cus, LT = p.l1_tag_bits, CUB = p.cu_bits;
  Value names = m.wire("l2_resp_names", hdl::one_of(U, l2_resp_tag.slice(LT, CUB)));
  Value for_cu = m.wire("l2_resp_for", gate(l2_resp_valid, names));
  if (baseline) {
    l1_rv.drive(for_cu);
    l1_rtag.drive(rep(U, l2_resp_tag.slice(0, LT)));
    l1_rppn.drive(rep(U, l2_resp_ppn));
    l1_rperm.drive(rep(U, l2_resp_perm));
    l2_resp_ready_o.drive(lit(1, 1));
    return;
  }
  std::vector<Value> ok;
  for (unsigned u = 0; u < U; ++u) {
    cu[u].l2_rv.drive(for_cu.bit(u));
    ok.push_back(cu[u].l2_ok);
  }
  l2_resp_ready_o.drive(any(names & hdl::cat_lsb_first(ok)));
}

// The baseline: each CU's LDS port and each group's I-cache without
// translations; the L1-TLBs' shootdown straight from the port.
void TopBuilder::baseline_members() {
  for (unsigned u = 0; u < p.cus; ++u) {
    const string c = "c" + to_string(u) + "_";
    Conn conn = {{"clk_i", cr.clk}, {"rst_ni", cr.rst_n}};
    lds_io.connect(conn, c, u);
    lds_sram.connect(conn, c, u);
    m.instance(mb.lds, "u_lds" + to_string(u), conn);
  }
  for (unsigned g = 0; g < p.icaches; ++g) {
    const string c = "g" + to_string(g) + "_";
    Conn conn = {{"clk_i", cr.clk}, {"rst_ni", cr.rst_n}};
    ic_io.connect(conn, c, g);
    ic_sram.connect(conn, c, g);
    m.instance(mb.ic, "u_ic" + to_string(g), conn);
  }
  l1_sd_valid.drive(sd_valid);
  l1_sd_all.drive(sd_all);
  l1_sd_vpn.drive(sd_vpn);
  l1_sd_vmid.drive(sd_vmid);
  sd_ready_o.drive(l1_sd_ready);
  sd_done_o.drive(l1_sd_done);
  m.unused("unused_l1_evict", cat({l1_ev, l1_evpn, l1_evmid, l1_eppn, l1_eperm}));
  if (p.local_bits) m.unused("unused_l1_alloc", l1_l2_iid);  // the allocating CU names no chain here
}

}  // namespace

ModulePtr emit_top(const TxPathParams& p, const EmitContext& ctx, bool baseline) {
  const Members mb = members(p, ctx, baseline);
  auto mod = std::make_unique<Module>(p.module_prefix + (baseline ? "_base" : ""));
  header(*mod, p, ctx,
         baseline ? "baseline path: the L1-TLBs straight to the L2-TLB port"
                  : "the path: L1-TLB -> LDS -> I-cache -> L2-TLB (LDS hit 14 cycles, I-cache hit 20)");
  TopBuilder(*mod, p, mb, baseline).build();
  return mod;
}

}  // namespace txgen::blocks::tx_path

namespace txgen::blocks::tx_path {

bool is_sram_port(const std::string& name) {
  return name.rfind("lds_sram_", 0) == 0 || name.rfind("ic_tag_", 0) == 0 || name.rfind("ic_data_", 0) == 0;
}

ModulePtr emit_sys(const TxPathParams& p, const EmitContext& ctx, bool baseline) {
  const hdl::Interface path = emit_top(p, ctx, baseline)->interface();
  const hdl::Interface lsram = lds::emit_sram(p.lds, ctx)->interface();
  const hdl::Interface tsram = icache::emit_tag_sram(p.ic, ctx, baseline)->interface();
  const hdl::Interface dsram = icache::emit_data_sram(p.ic, ctx)->interface();
  auto mod = std::make_unique<Module>(path.module + "_sys");
  Module& m = *mod;
  header(m, p, ctx, "simulation top: " + path.module + " with every SRAM inside (not synthesized)");
  const auto cr = m.clock_and_reset();
  std::map<string, Value> sig = {{"clk_i", cr.clk}, {"rst_ni", cr.rst_n}};
  std::map<string, Wire> rdata;  // the path's SRAM read-data inputs, driven by the SRAMs
  for (const auto& port : path.ports) {
    if (sig.count(port.name)) continue;
    if (is_sram_port(port.name)) {
      Wire w = m.wire(port.name, port.width);
      sig[port.name] = w;
      if (!port.is_output) rdata[port.name] = w;
    } else {
      sig[port.name] = port.is_output ? Value(m.output(port.name, port.width)) : m.input(port.name, port.width);
    }
  }
  Conn conn;
  for (const auto& port : path.ports) conn.push_back({port.name, sig.at(port.name)});
  m.instance(path, "u_path", conn);
  // one SRAM per LDS and two per I-cache; their read data gathered into the path's inputs
  auto memories = [&](const hdl::Interface& mem, const string& prefix, unsigned count, const string& inst,
                      const std::map<string, string>& ports) {
    std::vector<Value> out;
    for (unsigned i = 0; i < count; ++i) {
      Conn c = {{"clk_i", cr.clk}};
      for (const auto& [mem_port, path_port] : ports) {
        const unsigned w = port_of(mem, mem_port).width;
        c.push_back({mem_port, sig.at(path_port).field(i, w)});
      }
      out.push_back(m.wire(inst + to_string(i) + "_rdata", port_of(mem, "rdata_o").width));
      c.push_back({"rdata_o", out.back()});
      m.instance(mem, "u_" + inst + to_string(i), c);
    }
    rdata.at(prefix + "rdata_i").drive(hdl::cat_lsb_first(out));
  };
  memories(lsram, "lds_sram_", p.cus, "lds_sram",
           {{"en_i", "lds_sram_en_o"}, {"we_i", "lds_sram_we_o"}, {"row_i", "lds_sram_row_o"},
            {"bank_en_i", "lds_sram_bank_en_o"}, {"wdata_i", "lds_sram_wdata_o"}});
  memories(tsram, "ic_tag_", p.icaches, "ic_tag_sram",
           {{"en_i", "ic_tag_en_o"}, {"we_i", "ic_tag_we_o"}, {"set_i", "ic_tag_set_o"},
            {"way_en_i", "ic_tag_way_en_o"}, {"wdata_i", "ic_tag_wdata_o"}});
  memories(dsram, "ic_data_", p.icaches, "ic_data_sram",
           {{"en_i", "ic_data_en_o"}, {"we_i", "ic_data_we_o"}, {"line_i", "ic_data_line_o"},
            {"wdata_i", "ic_data_wdata_o"}});
  return mod;
}

namespace {

// The member modules the path instantiates: everything of their blocks but
// their own simulation tops.
std::vector<EmittedFile> member_files(const string& block, const config::Config& cfg, const EmitContext& ctx) {
  std::vector<EmittedFile> files;
  for (const auto& f : find_block(block)->emit(cfg, ctx).files)
    if (f.name.size() < 6 || f.name.compare(f.name.size() - 6, 6, "_sys.v") != 0) files.push_back(f);
  return files;
}

BlockOutput emit_tx_path(const config::Config& cfg, const EmitContext& ctx) {
  const TxPathParams p = elab::elaborate_tx_path(cfg);
  BlockOutput out;
  const std::pair<string, const config::Config*> members[] = {
      {"l1tlb", &p.l1_cfg}, {"lds_ctrl", &p.lds_cfg}, {"icache_tx", &p.ic_cfg}};
  for (const auto& [block, member] : members)
    for (auto& f : member_files(block, *member, ctx)) out.files.push_back(std::move(f));
  std::vector<ModulePtr> modules;
  modules.push_back(emit_cu(p, ctx));
  modules.push_back(emit_top(p, ctx, false));
  modules.push_back(emit_top(p, ctx, true));
  modules.push_back(emit_sys(p, ctx, false));
  modules.push_back(emit_sys(p, ctx, true));
  if (cfg.iommu) {
    // the L2-TLB and IOMMU inside: every iommu module, then the joined tops
    const elab::IommuParams io = elaborate_l2_inside(cfg, p);
    for (auto& f : find_block("iommu")->emit(cfg, ctx).files) out.files.push_back(std::move(f));
    modules.push_back(emit_l2_top(p, io, ctx, false));
    modules.push_back(emit_l2_top(p, io, ctx, true));
  }
  for (const auto& m : modules) out.files.push_back({m->name() + ".v", m->render()});
  out.parameters = params_json(p);
  return out;
}

}  // namespace
}  // namespace txgen::blocks::tx_path

namespace txgen::blocks {

namespace {

// Both paths sit beside every CU's LDS banks and every group's I-cache arrays;
// the baseline's I-cache tags are the plain ones.
std::vector<SramArray> path_sram_arrays(const elab::TxPathParams& p) {
  std::vector<SramArray> arrays;
  for (const bool baseline : {false, true}) {
    const std::string module = p.module_prefix + (baseline ? "_base" : "");
    for (SramArray a : lds::sram_arrays(p.lds, module)) {
      a.count *= p.cus;
      arrays.push_back(a);
    }
    for (SramArray a : icache::sram_arrays(p.ic, module, baseline)) {
      a.count *= p.icaches;
      arrays.push_back(a);
    }
  }
  return arrays;
}

// Per CU and per I-cache, from the path's ports; the SRAMs' through the same
// memory ports as lds_ctrl's and icache_tx's, prefixed (docs/power.md).
std::vector<power::Operation> path_power_operations(const elab::TxPathParams& p) {
  std::vector<power::Operation> ops;
  for (const bool baseline : {false, true}) {
    const std::string m = p.module_prefix + (baseline ? "_base" : "");
    ops.push_back({m, "translation request", {"req_valid_i", "req_ready_o"}});
    ops.push_back({m, "translation served", {"resp_valid_o|fill_valid_o"}});
    ops.push_back({m, "L2-TLB request", {"l2_req_valid_o", "l2_req_ready_i"}});
    const auto add = [&](std::vector<power::Operation> more) { ops.insert(ops.end(), more.begin(), more.end()); };
    add(power::sram_accesses(m, "LDS bank", {"lds_sram_en_o", "lds_sram_bank_en_o"}, "lds_sram_we_o"));
    add(power::sram_accesses(m, "tag array", {"ic_tag_en_o"}, "ic_tag_we_o"));
    add(power::sram_accesses(m, "data array", {"ic_data_en_o"}, "ic_data_we_o"));
  }
  return ops;
}

}  // namespace

BlockInfo tx_path_block() {
  BlockInfo b;
  b.name = "tx_path";
  b.summary = "the L1-TLB -> LDS -> I-cache -> L2-TLB translation path (seed 000, 4.4, Fig. 12)";
  b.configured = [](const config::Config& c) { return c.tx_path.has_value(); };
  b.emit = tx_path::emit_tx_path;
  b.report_json = tx_path::report_json;
  b.report_markdown = tx_path::report_markdown;
  b.synth_tops = [](const config::Config& c) {
    const std::string prefix = "tx_path_" + c.name;
    return std::vector<std::string>{prefix, prefix + "_base", prefix + "_cu"};
  };
  // the simulation tops (every SRAM inside) the lock-step harness drives
  b.cosim_tops = [](const config::Config& c) {
    const elab::TxPathParams p = elab::elaborate_tx_path(c);
    std::vector<CosimTop> tops = {{"sys", p.module_prefix + "_sys", ports::tx_path_ports(p)},
                                  {"base", p.module_prefix + "_base_sys", ports::tx_path_base_ports(p)}};
    if (c.iommu)
      tops.push_back({"l2", p.module_prefix + "_l2_sys", ports::tx_path_l2_ports(p, tx_path::elaborate_l2_inside(c, p))});
    return tops;
  };
  b.sram_arrays = [](const config::Config& c) { return path_sram_arrays(elab::elaborate_tx_path(c)); };
  b.power_operations = [](const config::Config& c) { return path_power_operations(elab::elaborate_tx_path(c)); };
  return b;
}

}  // namespace txgen::blocks
