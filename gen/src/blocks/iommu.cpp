// The IOMMU iommu_NAME (docs/blocks/iommu.md, "The IOMMU"): the walk_sched
// block as its request buffer and scheduler, K walkers reading one level per
// memory access through one round-robin memory port, and the answer register;
// and iommu_NAME_sys, the L2-TLB joined to it.
#include <functional>
#include <string>
#include <vector>

#include "txgen/blocks/iommu_emit.h"
#include "txgen/hdl/lib.h"
#include "txgen/hdl/port_decl.h"
#include "txgen/ports/iommu.h"

namespace txgen::blocks::iommu {

using elab::IommuParams;
using hdl::cat;
using hdl::Index;
using hdl::lit;
using hdl::Module;
using hdl::Reg;
using hdl::Scope;
using hdl::Value;
using hdl::Wire;
using std::string;

namespace {

TXGEN_PORT_HANDLES(IommuPorts, TXGEN_IOMMU_PORTS)
TXGEN_PORT_HANDLES(SysPorts, TXGEN_IOMMU_SYS_PORTS)

// The scheduler's outputs inside the IOMMU.
struct Sched {
  Wire ready, disp_valid, disp_walker, disp_vpn, disp_iid, disp_acc, count, busy;
};

class IommuEmitter {
 public:
  IommuEmitter(const IommuParams& p, Module& m)
      : p_(p), m_(m), K(p.walkers), KB(p.walker_bits), VS(p.vmid_bits + p.vpn_bits), LB(p.level_bits) {}

  void build(const hdl::Interface& sched) {
    const Module::ClockReset cr = m_.clock_and_reset();
    TXGEN_DECLARE_PORTS(TXGEN_IOMMU_PORTS, m_, p_, io_);
    walker_state();
    memory_answer();
    scheduler(sched, cr);
    walkers();
    memory_request();
    answer();
    properties();
  }

 private:
  void each(const string& var, unsigned n, const string& label,
            const std::function<void(Scope&, const Index&)>& body) {
    each_entry(m_, var, n, label, body);
  }

  void walker_state() {
    wk_vpn_ = m_.reg_noreset("walker_vpn", K * VS);
    wk_level_ = m_.reg("walker_level", K * LB);
    wk_want_ = m_.reg("walker_want", K);
    issued_ = m_.wire("mq_issue", K);
  }

  // a leaf answer completes the walk: the scheduler's done and the answer register
  void memory_answer() {
    m_.comment("memory answer: the next level, or (the leaf) the walk's completion");
    const Value of = m_.wire("resp_walker_oh", hdl::one_of(K, io_.mem_resp_walker_i));
    resp_oh_ = of;
    const Value level = m_.wire("resp_level", hdl::onehot_select(of, wk_level_, K, LB));
    leaf_ = m_.wire("resp_leaf", io_.mem_resp_valid_i & (level == lit(LB, p_.levels)));
    next_level_ = hdl::vector_wire(m_.top(), "resp_next_level", gate(io_.mem_resp_valid_i & ~leaf_, of));
    done_vpn_ = m_.wire("done_vpn", hdl::onehot_select(of, wk_vpn_, K, VS));
  }

  void scheduler(const hdl::Interface& of, const Module::ClockReset& cr) {
    m_.comment("the page-walk request buffer and scheduler (walk_sched), on {VMID, VPN}");
    const auto& sp = p_.sched;
    s_.ready = m_.wire("sched_req_ready", 1);
    s_.disp_valid = m_.wire("sched_disp_valid", 1);
    s_.disp_walker = m_.wire("sched_disp_walker", sp.walker_bits);
    s_.disp_vpn = m_.wire("sched_disp_vpn", sp.vpn_bits);
    s_.disp_iid = m_.wire("sched_disp_iid", sp.iid_bits);
    s_.disp_acc = m_.wire("sched_disp_acc", sp.acc_bits);
    s_.count = m_.wire("sched_count", sp.count_bits);
    s_.busy = m_.wire("sched_busy", sp.walkers);
    m_.instance(of, "u_sched",
                {{"clk_i", cr.clk},
                 {"rst_ni", cr.rst_n},
                 {"req_valid_i", io_.req_valid_i},
                 {"req_ready_o", s_.ready},
                 {"req_vpn_i", cat({io_.req_vmid_i, io_.req_vpn_i})},
                 {"req_iid_i", io_.req_iid_i},
                 {"done_valid_i", leaf_},
                 {"done_walker_i", io_.mem_resp_walker_i},
                 {"done_vpn_i", done_vpn_},
                 {"disp_valid_o", s_.disp_valid},
                 {"disp_walker_o", s_.disp_walker},
                 {"disp_vpn_o", s_.disp_vpn},
                 {"disp_iid_o", s_.disp_iid},
                 {"disp_acc_o", s_.disp_acc},
                 {"count_o", s_.count},
                 {"busy_o", s_.busy}});
    // the walker returns the translation, not the instruction: the ID only orders walks
    m_.unused("sched_disp_iid", s_.disp_iid);
    io_.req_ready_o.drive(s_.ready);
    io_.count_o.drive(s_.count);
    io_.busy_o.drive(s_.busy);
  }

  // a dispatch starts a walker at level LV - acc + 1; an answer below the leaf moves it down
  void walkers() {
    m_.comment("walkers: one read at a time, from the first level the PWCs do not cover to the leaf");
    const Value start = hdl::vector_wire(m_.top(), "disp_walker_oh",
                                         gate(s_.disp_valid, hdl::one_of(K, s_.disp_walker)));
    start_ = start;
    const Value first = m_.wire("disp_level", lit(LB, p_.levels + 1) - s_.disp_acc);
    each("gk", K, "g_walker", [&](Scope& sc, const Index& k) {
      const Value go = start.bit(k), down = next_level_.bit(k), level = wk_level_.field(k, LB);
      sc.assign(wk_vpn_.d().field(k, VS), mux(go, s_.disp_vpn, wk_vpn_.field(k, VS)));
      sc.assign(wk_level_.d().field(k, LB), mux(go, first, mux(down, level + 1, level)));
      sc.assign(wk_want_.d().bit(k), go | down | (wk_want_.bit(k) & ~issued_.bit(k)));
    });
  }

  void memory_request() {
    m_.comment("memory request: round robin over the walkers with a read to issue");
    const Reg valid = m_.reg("mq_valid", 1), walker = m_.reg("mq_walker", KB), level = m_.reg("mq_level", LB),
              vpn = m_.reg("mq_vpn", VS);
    const Value load = m_.wire("mq_load", ~valid | io_.mem_req_ready_i);
    Value pick = wk_want_;
    if (K > 1) {
      const Reg ptr = m_.reg("mq_ptr", K, 1);
      pick = hdl::round_robin_pick(m_.top(), "mq_pick", wk_want_, ptr);
      ptr.next_if(load & any(wk_want_), hdl::rotate_left1(pick));
    }
    const Value take = m_.wire("mq_take", load & any(wk_want_));
    issued_.drive(gate(load, pick));
    valid.next(mux(load, any(wk_want_), valid));
    walker.next_if(take, hdl::onehot_index(pick, KB));
    level.next_if(take, hdl::onehot_select(pick, wk_level_, K, LB));
    vpn.next_if(take, hdl::onehot_select(pick, wk_vpn_, K, VS));
    mq_valid_ = valid;
    mq_walker_ = walker;
    io_.mem_req_valid_o.drive(valid);
    io_.mem_req_walker_o.drive(walker);
    io_.mem_req_level_o.drive(level);
    io_.mem_req_vpn_o.drive(vpn.slice(0, p_.vpn_bits));
    io_.mem_req_vmid_o.drive(vpn.top(p_.vmid_bits));
  }

  void answer() {
    m_.comment("answer: the completed walk's translation, for one cycle");
    const Reg valid = m_.reg("ans_valid", 1), vpn = m_.reg("ans_vpn", p_.vpn_bits),
              vmid = m_.reg("ans_vmid", p_.vmid_bits), ppn = m_.reg("ans_ppn", p_.ppn_bits),
              perm = m_.reg("ans_perm", p_.perm_bits);
    valid.next(leaf_);
    vpn.next_if(leaf_, done_vpn_.slice(0, p_.vpn_bits));
    vmid.next_if(leaf_, done_vpn_.top(p_.vmid_bits));
    ppn.next_if(leaf_, io_.mem_resp_ppn_i);
    perm.next_if(leaf_, io_.mem_resp_perm_i);
    io_.resp_valid_o.drive(valid);
    io_.resp_vpn_o.drive(vpn);
    io_.resp_vmid_o.drive(vmid);
    io_.resp_ppn_o.drive(ppn);
    io_.resp_perm_o.drive(perm);
  }

  // Formal properties (txgen prove; docs/blocks/iommu.md, "Formal
  // properties"), with the scheduler's (requests_conserved: none lost in the
  // buffer) as assumptions. f_read_out: the walker's read memory took and has
  // not answered; f_walking: the walker between its dispatch and its leaf
  // answer.
  void properties() {
    hdl::Scope& f = m_.formal();
    const Reg out = m_.formal_reg("f_read_out", K), walking = m_.formal_reg("f_walking", K);
    const Value taken = f.wire("f_read_taken", gate(mq_valid_ & io_.mem_req_ready_i, hdl::one_of(K, mq_walker_)));
    const Value answered = f.wire("f_read_answered", gate(io_.mem_resp_valid_i, resp_oh_));
    out.next((out & ~answered) | taken);
    walking.next((walking & ~gate(leaf_, resp_oh_)) | start_);
    m_.assume_always("memory_answers_reads_taken", ~io_.mem_resp_valid_i | hdl::any(resp_oh_ & out));
    m_.assert_always("dispatch_to_idle_walker",
                     ~s_.disp_valid | (hdl::any(start_) & ~hdl::any(start_ & walking)));
    // the scheduler marks a walker busy at its dispatch edge, two cycles before disp_valid_o
    m_.assert_always("inv_walking_is_busy", ~hdl::any(walking & ~s_.busy));
    walker_properties(f, out, walking);
  }

  // Each walking walker has exactly one read: to issue (want), in the memory
  // request register, or taken by memory; its level stays within 1 .. LV, so
  // a walk ends after at most LV reads.
  void walker_properties(hdl::Scope& f, const Value& out, const Value& walking) {
    const Value queued = f.wire("f_read_queued", gate(mq_valid_, hdl::one_of(K, mq_walker_)));
    const Value want = wk_want_;
    m_.assert_always("one_read_per_walker", ~hdl::any((want & queued) | (want & out) | (queued & out)));
    m_.assert_always("inv_walking_has_a_read", walking == (want | queued | out));
    std::vector<Value> in_range;
    for (unsigned k = 0; k < K; ++k) {
      const Value level = wk_level_.field(Index(k), LB);
      in_range.push_back(~walking.bit(Index(k)) | ((level != lit(LB, 0)) & (level <= lit(LB, p_.levels))));
    }
    m_.assert_always("walk_level_in_range", hdl::and_of(in_range, lit(1, 1)));
  }

  const IommuParams& p_;
  Module& m_;
  const unsigned K, KB, VS, LB;
  IommuPorts io_;
  Sched s_;
  Reg wk_vpn_, wk_level_, wk_want_;
  Value leaf_, next_level_, done_vpn_, resp_oh_, start_, mq_valid_, mq_walker_;
  Wire issued_;  // the walker whose read the memory request register takes
};

using Conn = std::vector<std::pair<string, Value>>;

// Connections of a member's ports by name, from `first`, else `second`.
Conn connect(const hdl::Interface& of, const Conn& first, const Conn& second) {
  Conn c;
  for (const hdl::PortSpec& ps : of.ports) {
    bool found = false;
    for (const Conn* list : {&first, &second})
      for (const auto& [name, v] : *list)
        if (!found && name == ps.name) {
          c.push_back({ps.name, v});
          found = true;
        }
    if (!found) hdl::fail(of.module + ": port " + ps.name + " is not connected");
  }
  return c;
}

}  // namespace

ModulePtr emit_iommu(const IommuParams& p, const EmitContext& ctx, const hdl::Interface& sched) {
  auto m = std::make_unique<Module>(p.module_prefix);
  header(*m, p, ctx, "IOMMU: page-walk buffer and scheduler (" + string(config::name_of(p.sched.policy)) + "), " +
                         std::to_string(p.walkers) + " walkers");
  IommuEmitter(p, *m).build(sched);
  return m;
}

ModulePtr emit_sys(const IommuParams& params, const EmitContext& ctx, const hdl::Interface& l2,
                   const hdl::Interface& iommu) {
  auto m = std::make_unique<Module>(params.module_prefix + "_sys");
  header(*m, params, ctx, "the L2-TLB and the IOMMU joined");
  const Module::ClockReset cr = m->clock_and_reset();
  SysPorts io;
  TXGEN_DECLARE_PORTS(TXGEN_IOMMU_SYS_PORTS, *m, params, io);
  // every sys port by name (the members' ports of the same name)
  Conn top = {{"clk_i", cr.clk}, {"rst_ni", cr.rst_n}};
#define TXGEN_SYS_CONN(port, ...) top.push_back({#port, io.port});
  TXGEN_IOMMU_SYS_PORTS(TXGEN_SYS_CONN, TXGEN_SYS_CONN, TXGEN_SYS_CONN)
#undef TXGEN_SYS_CONN
  const unsigned VPN = params.vpn_bits, VM = params.vmid_bits;
  const Value wv = m->wire("walk_req_valid", 1), wr = m->wire("walk_req_ready", 1),
              wvpn = m->wire("walk_req_vpn", VPN), wvmid = m->wire("walk_req_vmid", VM),
              wiid = m->wire("walk_req_iid", params.iid_bits), av = m->wire("walk_resp_valid", 1),
              avpn = m->wire("walk_resp_vpn", VPN), avmid = m->wire("walk_resp_vmid", VM),
              appn = m->wire("walk_resp_ppn", params.ppn_bits), aperm = m->wire("walk_resp_perm", params.perm_bits);
  const Conn l2_inner = {{"walk_req_valid_o", wv},  {"walk_req_ready_i", wr},   {"walk_req_vpn_o", wvpn},
                         {"walk_req_vmid_o", wvmid}, {"walk_req_iid_o", wiid},   {"walk_resp_valid_i", av},
                         {"walk_resp_vpn_i", avpn},  {"walk_resp_vmid_i", avmid}, {"walk_resp_ppn_i", appn},
                         {"walk_resp_perm_i", aperm}};
  const Conn io_inner = {{"req_valid_i", wv},    {"req_ready_o", wr},     {"req_vpn_i", wvpn},
                         {"req_vmid_i", wvmid},  {"req_iid_i", wiid},     {"resp_valid_o", av},
                         {"resp_vpn_o", avpn},   {"resp_vmid_o", avmid},  {"resp_ppn_o", appn},
                         {"resp_perm_o", aperm}, {"count_o", io.walk_count_o}, {"busy_o", io.walk_busy_o}};
  m->instance(l2, "u_l2tlb", connect(l2, top, l2_inner));
  m->instance(iommu, "u_iommu", connect(iommu, io_inner, top));
  return m;
}

}  // namespace txgen::blocks::iommu
