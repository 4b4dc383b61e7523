// icache_tx translation engine (docs/blocks/icache_tx.md, "Translation
// engine"): round-robin acceptance per CU, ISSUE on the registered line, the
// decompressed line register (DEC), grouped comparison with registered
// matches (CMP), the candidate, its packing (PACK) and write-back (WRITE),
// victims, the lookup response and the shootdowns.
#include <string>
#include <utility>
#include <vector>

#include "txgen/blocks/icache_tx_emit.h"
#include "txgen/elab/bits.h"

namespace txgen::blocks::icache {
namespace {

using elab::IcacheTxParams;
using hdl::any;
using hdl::Cases;
using hdl::cat;
using hdl::gate;
using hdl::lit;
using hdl::Module;
using hdl::onehot_select;
using hdl::or_of;
using hdl::priority;
using hdl::Reg;
using hdl::Value;
using hdl::Wire;
using hdl::zero;
using std::string;
using std::to_string;

// A translation's fields, one value each: X sub-entries wide for a line,
// one wide for a key or a victim.
struct Entry {
  Value valid, lru, vmid, vrf, va, ppn, perm;
};

// A field of a sub-entry: its name in the RTL, width and member of an Entry.
struct Field {
  string name;
  unsigned width;
  Value Entry::*of;
};

// Fields of one sub-entry; the rank exists only with packed lines.
std::vector<Field> entry_fields(const IcacheTxParams& p) {
  std::vector<Field> f = {{"valid", 1, &Entry::valid}, {"vmid", p.vmid_bits, &Entry::vmid},
                          {"vrf", p.vrf_bits, &Entry::vrf}, {"va", p.va_tag_bits, &Entry::va},
                          {"ppn", p.ppn_bits, &Entry::ppn}, {"perm", p.perm_bits, &Entry::perm}};
  if (p.packed()) f.insert(f.begin() + 1, {"lru", p.rank_bits, &Entry::lru});
  return f;
}

bool in_tag(const Field& f) { return f.of != &Entry::ppn && f.of != &Entry::perm; }
bool in_victim(const Field& f) { return f.of != &Entry::valid && f.of != &Entry::lru; }

// A new translation's value of field f: valid, rank 0, or the key.
Value fresh(const Field& f, const Entry& key) {
  if (f.of == &Entry::valid) return hdl::one_bit(true);
  if (f.of == &Entry::lru) return zero(f.width);
  return key.*f.of;
}

// The codec cores the engine instantiates (bd_codec: pack and unpack).
hdl::Interface codec_interface(const elab::BdCodecParams& k, bool pack) {
  const string sfx = pack ? "_i" : "_o";
  hdl::Interface i{k.module_prefix + (pack ? "_pack" : "_unpack"), {}};
  if (!pack) i.ports.push_back({"packed_i", false, k.packed_bits});
  const std::vector<std::pair<string, unsigned>> tag_ports = {{"tag_valid", k.tags},
                                                              {"tag_lru", k.tags * k.lru_bits},
                                                              {"tag_vmid", k.tags * k.vmid_bits},
                                                              {"tag_vrf", k.tags * k.vrf_bits},
                                                              {"tag_va", k.tags * k.va_tag_bits}};
  for (const auto& [name, width] : tag_ports) i.ports.push_back({name + sfx, !pack, width});
  if (pack) {
    i.ports.push_back({"packed_o", true, k.packed_bits});
    i.ports.push_back({"fits_o", true, 1});
    i.ports.push_back({"dropped_o", true, k.tags});
  }
  return i;
}

// The engine's signals shared between its stages.
struct Eng {
  explicit Eng(Ctl& ctl) : c(ctl), m(ctl.m), p(ctl.p) {}
  Ctl& c;
  Module& m;
  const IcacheTxParams& p;
  const TranslationPorts& tx() const { return c.io.tx; }
  Value state_is(State s) const { return state == s; }

  Reg state, resp_valid, op, line, clob, grp, mq, pend;
  Entry key, dec, cand;  // key_*_q, dec_*_q, cand_*_q
  Value key_cu;
  Value sd_fire, lk_fire, tf_fire, lk_grant, tf_grant, key_fire, lk_pick, acc_vpn;
  Value st_issue, op_lookup, op_fill, op_shoot, l_tx, lk_miss_now, sd_none_now, bypass_now, init_fire, rd_fire;
  Value st_dec, st_cmp, eval, hit_oh, sd_match, any_hit, any_sd, cmp_done;
  Value full, lru_oh, way_oh, rank_upd;
  Value image_init, image_cand, entry_init;
  Reg wb_entry, wb_held;
  Value st_pack, st_write, wr_go, wr_cancel, wr_commit, st_vic, vic_last;

  Value line_way() const { return line.slice(p.set_bits, p.way_bits); }
};

// ---------------------------------------------------------------------------
// Acceptance: flush > shootdown > lookup > fill, round robin among CUs.

Value grant(Eng& e, const string& cls, const Value& valid, const Value& fire) {
  Module& m = e.m;
  const unsigned s = e.p.sharers;
  if (s == 1) return m.wire(cls + "_grant", hdl::one_bit(true));  // the only CU is always the granted one
  // the pointer p is kept as the mask of the CUs below it (lt[c] = c < p;
  // zero at reset, p = 0), so the grant does not start with a comparison
  Reg lt = m.reg(cls + "_lt", s);
  Value masked = m.wire(cls + "_masked", valid & ~lt);
  Value gm = hdl::lowest_one(m.top(), cls + "_gm", masked);
  Value ga = hdl::lowest_one(m.top(), cls + "_ga", valid);
  Value g = m.wire(cls + "_grant", mux(any(masked), gm, ga));
  // p' = grant + 1 mod S: c < p' when c <= grant, none when grant = S - 1
  std::vector<Value> next;
  for (unsigned cu = s; cu-- > 0;) {
    std::vector<Value> at_or_above;
    for (unsigned k = cu; k + 1 < s; ++k) at_or_above.push_back(g.bit(k));
    next.push_back(or_of(at_or_above, zero(1)));
  }
  lt.next_if(fire, cat(next));
  return g;
}

void acceptance(Eng& e) {
  Module& m = e.m;
  Ctl& c = e.c;
  const TranslationPorts& t = e.tx();
  const Value flush_valid = c.io.ins.flush_valid_i, sd_valid = t.sd_valid_i;
  m.comment("acceptance");
  c.eng_idle = m.wire("eng_idle", e.state_is(kIdle));
  t.sd_ready_o.drive(c.eng_idle & ~flush_valid);
  e.sd_fire = m.wire("sd_fire", sd_valid & t.sd_ready_o);
  c.sd_all_fire = m.wire("sd_all_fire", e.sd_fire & t.sd_all_i);
  Value lk_ok = m.wire("lk_ok", c.eng_idle & ~flush_valid & ~sd_valid & ~e.resp_valid);
  e.lk_fire = m.wire("lk_fire", lk_ok & any(t.tl_valid_i));
  Value tf_ok = m.wire("tf_ok", c.eng_idle & ~flush_valid & ~sd_valid & ~e.lk_fire);
  e.tf_fire = m.wire("tf_fire", tf_ok & any(t.tf_valid_i));
  e.lk_grant = grant(e, "lk", t.tl_valid_i, e.lk_fire);
  e.tf_grant = grant(e, "tf", t.tf_valid_i, e.tf_fire);
  t.tl_ready_o.drive(gate(lk_ok, e.lk_grant));
  t.tf_ready_o.drive(gate(tf_ok, e.tf_grant));
  e.key_fire = m.wire("key_fire", (e.sd_fire & ~t.sd_all_i) | e.lk_fire | e.tf_fire);
}

// The accepted operation, registered: everything after it works from flops.
// The key registers load in every idle cycle, not only at the accept (whose
// enable is a late function of the request valids): the accept cycle is the
// last idle cycle, and nothing reads them while idle.
void request_registers(Eng& e) {
  Module& m = e.m;
  const IcacheTxParams& p = e.p;
  const TranslationPorts& t = e.tx();
  const unsigned s = p.sharers, li = p.line_index_bits, xi = p.tx_index_bits;
  const Value idle = e.c.eng_idle, sd_valid = t.sd_valid_i;
  auto pick = [&](const Value& port, const Value& g, unsigned w) {
    return s == 1 ? port : onehot_select(g, port, s, w);
  };
  // which request the key registers take, valid in an accept cycle: the
  // shootdown, else a lookup (lk_fire), else the fill (tf_fire needs ~lk_fire)
  e.lk_pick = m.wire("lk_pick", any(t.tl_valid_i) & ~e.resp_valid);
  e.acc_vpn = m.wire("acc_vpn", priority({{sd_valid, t.sd_vpn_i},
                                          {e.lk_pick, pick(t.tl_vpn_i, e.lk_grant, p.vpn_bits)}},
                                         pick(t.tf_vpn_i, e.tf_grant, p.vpn_bits)));
  e.op = m.reg("op", kOpBits);
  e.op.next(priority({{~idle, e.op}, {sd_valid, lit(kOpBits, kOpShoot)}, {e.lk_pick, lit(kOpBits, kOpLookup)}},
                     lit(kOpBits, kOpFill)));
  e.line = m.reg("line", li);
  e.line.next_if(idle, e.acc_vpn.slice(0, li));
  // the line one-hot as well: ISSUE reads mode[L] with an AND-OR over the
  // lines instead of a NL-to-1 multiplexer behind a decoder
  e.c.lsel = m.reg("lsel", p.lines);
  e.c.lsel.next_if(idle, hdl::one_of(p.lines, e.acc_vpn.slice(0, li)));
  if (xi < li) m.unused("acc_way", e.acc_vpn.slice(xi, li - xi));  // the way bits repeat in the VA tag
  auto key = [&](Value& field, const string& name, unsigned w) {
    const Reg r = m.reg(name, w);
    field = r;
    return r;
  };
  const Reg va = key(e.key.va, "key_va", p.va_tag_bits), vmid = key(e.key.vmid, "key_vmid", p.vmid_bits);
  const Reg vrf = key(e.key.vrf, "key_vrf", p.vrf_bits), ppn = key(e.key.ppn, "key_ppn", p.ppn_bits);
  const Reg perm = key(e.key.perm, "key_perm", p.perm_bits);
  va.next_if(idle, e.acc_vpn.slice(xi, p.va_tag_bits));
  vmid.next(priority({{~idle, vmid}, {sd_valid, t.sd_vmid_i}, {e.lk_pick, pick(t.tl_vmid_i, e.lk_grant, p.vmid_bits)}},
                     pick(t.tf_vmid_i, e.tf_grant, p.vmid_bits)));
  vrf.next(priority({{~idle, vrf}, {e.lk_pick, pick(t.tl_vrf_i, e.lk_grant, p.vrf_bits)}},
                    pick(t.tf_vrf_i, e.tf_grant, p.vrf_bits)));
  ppn.next_if(idle, pick(t.tf_ppn_i, e.tf_grant, p.ppn_bits));
  perm.next_if(idle, pick(t.tf_perm_i, e.tf_grant, p.perm_bits));
  const Reg cu = key(e.key_cu, "key_cu", p.cu_bits);
  std::vector<Value> granted;
  for (unsigned k = 0; k < s; ++k) granted.push_back(gate(e.lk_grant.bit(k), lit(p.cu_bits, k)));
  cu.next_if(idle, s == 1 ? zero(p.cu_bits) : or_of(granted, zero(p.cu_bits)));
  if (s == 1) m.unused("lk_grant", e.lk_grant);
}

// ISSUE: decided on mode[L] of the cycle; port users wait for a free port.
void issue(Eng& e) {
  Module& m = e.m;
  const Ctl& c = e.c;
  m.comment("ISSUE");
  e.st_issue = m.wire("st_issue", e.state_is(kIssue));
  e.op_lookup = m.wire("op_lookup", e.op == kOpLookup);
  e.op_fill = m.wire("op_fill", e.op == kOpFill);
  e.op_shoot = m.wire("op_shoot", e.op == kOpShoot);
  e.l_tx = m.wire("l_tx", any(c.lv & c.ltx & c.lsel));
  const bool naive = e.p.variant == config::IcacheVariant::Naive;
  Value l_v, l_ic;
  if (!naive) {
    l_v = m.wire("l_v", any(c.lv & c.lsel));
    l_ic = m.wire("l_ic", any(c.lv & ~c.ltx & c.lsel));
  }
  e.lk_miss_now = m.wire("lk_miss_now", e.st_issue & e.op_lookup & ~e.l_tx);
  e.sd_none_now = m.wire("sd_none_now", e.st_issue & e.op_shoot & ~e.l_tx);
  e.bypass_now = m.wire("bypass_now", naive ? zero(1) : e.st_issue & e.op_fill & l_ic);
  Value init_ok = m.wire("init_ok", e.st_issue & e.op_fill & (naive ? ~e.l_tx : ~l_v));
  e.init_fire = m.wire("init_fire", init_ok & c.port_free);
  e.rd_fire = m.wire("rd_fire", e.st_issue & e.l_tx & c.port_free);
  e.c.eng_init = m.wire("eng_init", e.init_fire);
  e.clob = m.reg("clob", 1);
  e.clob.next(mux(e.rd_fire, zero(1), e.clob | (c.ifill_fire & (c.ifill_line == e.line))));
}

// ---------------------------------------------------------------------------
// DEC: the way's tag entry unpacked and the line's slots, registered.

Value way_entry(Eng& e) {
  const unsigned ew = e.p.entry_bits;
  std::vector<Value> ways;
  const Value rdata = e.c.io.sram.tag_rdata_i;
  for (unsigned w = 0; w < e.p.ways; ++w) ways.push_back(gate(e.line_way() == w, rdata.slice(w * ew, ew)));
  Value rd_entry = e.m.wire("rd_entry", or_of(ways, zero(ew)));
  if (ew > e.p.tx_tag_bits) e.m.unused("rd_entry", rd_entry.slice(e.p.tx_tag_bits, ew - e.p.tx_tag_bits));
  return rd_entry;
}

void line_read(Eng& e) {
  Module& m = e.m;
  const IcacheTxParams& p = e.p;
  const unsigned x = p.tx_per_line, t = p.va_tag_bits;
  m.comment("DEC: tag entry of way L and the slots of line L");
  const Value rd_entry = way_entry(e);
  // the tag fields (wires rd_*), from the unpack instance or the plain entry
  Entry rd;
  for (const Field& f : entry_fields(p))
    if (in_tag(f)) rd.*f.of = m.wire("rd_" + f.name, x * f.width);
  if (p.packed()) {
    m.instance(codec_interface(*p.codec, false), "u_unpack",
               {{"packed_i", rd_entry.slice(0, p.tx_tag_bits)},
                {"tag_valid_o", rd.valid},
                {"tag_lru_o", rd.lru},
                {"tag_vmid_o", rd.vmid},
                {"tag_vrf_o", rd.vrf},
                {"tag_va_o", rd.va}});
  } else {
    m.assign(rd.valid, hdl::one_bit(true));
    m.assign(rd.va, rd_entry.slice(0, t));
    m.assign(rd.vmid, rd_entry.slice(t, p.vmid_bits));
    m.assign(rd.vrf, rd_entry.slice(t + p.vmid_bits, p.vrf_bits));
  }
  std::vector<Value> ppn, perm;
  const Value data = e.c.io.sram.data_rdata_i;
  for (unsigned i = x; i-- > 0;) {
    ppn.push_back(data.slice(i * kSlotBits, p.ppn_bits));
    perm.push_back(data.slice(i * kSlotBits + p.ppn_bits, p.perm_bits));
  }
  rd.ppn = m.wire("rd_ppn", cat(ppn));
  rd.perm = m.wire("rd_perm", cat(perm));
  e.st_dec = m.wire("st_dec", e.state_is(kDec));
  for (const Field& f : entry_fields(p)) {
    const Reg r = m.reg("dec_" + f.name, x * f.width);
    r.next_if(e.st_dec, rd.*f.of);
    e.dec.*f.of = r;
  }
}

// ---------------------------------------------------------------------------
// CMP: CP comparators over group grp_q of the decompressed sub-entries, their
// matches registered; the decision is on the registered group (mg_q) one
// cycle later, so the comparators end at flip-flops.

Value group_entry(const Eng& e, const Value& vec, unsigned c, unsigned w) {
  const IcacheTxParams& p = e.p;
  if (p.groups == 1) return vec.field(c, w);
  Cases cases;
  for (unsigned g = 0; g + 1 < p.groups; ++g) cases.push_back({e.grp == g, vec.field(g * p.comparators + c, w)});
  return priority(cases, vec.field((p.groups - 1) * p.comparators + c, w));
}

// The comparators of the evaluated group: gm_sd (VA and VMID, shootdowns) and gm (also the VRF).
std::pair<Value, Value> comparators(Eng& e) {
  const IcacheTxParams& p = e.p;
  Wire gm_sd = e.m.wire("gm_sd", p.comparators), gm = e.m.wire("gm", p.comparators);
  for (unsigned c = 0; c < p.comparators; ++c) {
    e.m.assign(gm_sd.bit(c), group_entry(e, e.dec.valid, c, 1) &
                                 (group_entry(e, e.dec.va, c, p.va_tag_bits) == e.key.va) &
                                 (group_entry(e, e.dec.vmid, c, p.vmid_bits) == e.key.vmid));
    e.m.assign(gm.bit(c), gm_sd.bit(c) & (group_entry(e, e.dec.vrf, c, p.vrf_bits) == e.key.vrf));
  }
  return {gm_sd, gm};
}

void compare(Eng& e) {
  Module& m = e.m;
  const IcacheTxParams& p = e.p;
  const unsigned cp = p.comparators, x = p.tx_per_line, gb = p.group_bits;
  m.comment("CMP: " + to_string(cp) + " comparators, " + to_string(p.groups) + " group(s)");
  e.st_cmp = m.wire("st_cmp", e.state_is(kCmp));
  e.grp = m.reg("grp", gb);
  e.grp.next(priority({{e.st_dec, zero(gb)}, {e.st_cmp, e.grp + 1}}, e.grp));
  const auto [gm_sd, gm] = comparators(e);
  Reg mq_v = m.reg("mq_v", 1);
  mq_v.next(e.st_cmp);
  Reg mg = m.reg_noreset("mg", gb);
  mg.next(e.grp);
  e.mq = m.reg_noreset("mq", cp);
  e.mq.next(gm);
  Reg mq_sd = m.reg_noreset("mq_sd", cp);
  mq_sd.next(gm_sd);
  Value grp_last = m.wire("grp_last", mg == p.groups - 1);
  Value gm_first = hdl::lowest_one(m.top(), "gm_first", e.mq);
  // Place the evaluated group's results at their sub-entry positions.
  auto placed = [&](const Value& g) {
    std::vector<Value> bits;
    for (unsigned i = x; i-- > 0;) bits.push_back(p.groups == 1 ? g.bit(i % cp) : (mg == i / cp) & g.bit(i % cp));
    return cat(bits);
  };
  e.eval = m.wire("eval", e.st_cmp & mq_v);
  // not gated by eval: every user is (cmp_done, the candidate's load)
  e.hit_oh = m.wire("hit_oh", gate(~e.op_shoot, placed(gm_first)));
  Value sd_now = m.wire("sd_now", gate(e.op_shoot, placed(mq_sd)));
  Reg sd_acc = m.reg("sd_acc", x);
  sd_acc.next(priority({{e.st_dec, zero(x)}, {e.eval, sd_acc | sd_now}}, sd_acc));
  e.sd_match = m.wire("sd_match", sd_acc | sd_now);
  // |hit_oh, straight from the registered matches (the placement is a permutation)
  e.any_hit = m.wire("any_hit", ~e.op_shoot & any(e.mq));
  e.any_sd = m.wire("any_sd", any(e.sd_match));
  e.cmp_done = m.wire("cmp_done", e.eval & (grp_last | e.any_hit));
}

// Rank normalisation (docs/blocks/lds_ctrl.md) and the way a fill takes.
// prec_i_j: valid sub-entry j comes before i in (lru, index) order.
std::vector<std::vector<Value>> precedence(Eng& e) {
  const unsigned x = e.p.tx_per_line, l = e.p.rank_bits;
  const Value valid = e.dec.valid, lru = e.dec.lru;
  std::vector<std::vector<Value>> prec(x, std::vector<Value>(x));
  for (unsigned i = 0; i < x; ++i)
    for (unsigned j = 0; j < x; ++j)
      if (j != i) {
        const Value before = j < i ? lru.field(j, l) <= lru.field(i, l) : lru.field(j, l) < lru.field(i, l);
        prec[i][j] = e.m.wire("prec_" + to_string(i) + "_" + to_string(j), valid.bit(j) & before);
      }
  return prec;
}

void way_choice(Eng& e) {
  Module& m = e.m;
  const unsigned x = e.p.tx_per_line, l = e.p.rank_bits;
  const Value valid = e.dec.valid;
  m.comment("ranks, LRU sub-entry and the fill's way");
  e.full = m.wire("full", hdl::all(valid));
  if (!e.p.packed()) {
    e.lru_oh = m.wire("lru_oh", hdl::one_bit(true));
    return;
  }
  Value dec_invalid = m.wire("dec_invalid", ~valid);
  Value inv_oh = hdl::lowest_one(m.top(), "inv_oh", dec_invalid);
  const auto prec = precedence(e);
  Wire lru_oh = m.wire("lru_oh", x), touch_inc = m.wire("touch_inc", x);
  std::vector<Value> rank(x);
  for (unsigned i = 0; i < x; ++i) {
    std::vector<Value> sum, touch, last = {valid.bit(i)};
    for (unsigned j = 0; j < x; ++j) {
      if (j == i) continue;
      sum.push_back(hdl::zext(prec[i][j], l));
      touch.push_back(e.hit_oh.bit(j) & prec[j][i]);
      last.push_back(prec[i][j]);
    }
    // registered: the line register is stable from DEC on and the first CMP
    // cycle never decides, so the rank sums come from flip-flops
    Reg rk = m.reg_noreset("rk" + to_string(i), l);
    Value total = sum[0];
    for (size_t k = 1; k < sum.size(); ++k) total = total + sum[k];
    rk.next(total);
    rank[i] = m.wire("rank" + to_string(i), rk);
    m.assign(touch_inc.bit(i), or_of(touch, zero(1)));
    m.assign(lru_oh.bit(i), hdl::and_of(last, zero(1)));
  }
  e.lru_oh = lru_oh;
  // the way a fill without a match takes, registered like the ranks
  Reg miss_way = m.reg_noreset("miss_way", x);
  miss_way.next(mux(e.full, lru_oh, inv_oh));
  e.way_oh = m.wire("way_oh", mux(e.any_hit, e.hit_oh, miss_way));
  Value upd = m.wire("upd", ~e.op_shoot);
  Value rank_inc = m.wire("rank_inc", gate(upd, mux(e.any_hit, touch_inc, valid)));
  std::vector<Value> ranks;
  for (unsigned i = x; i-- > 0;)
    ranks.push_back(mux(upd & e.way_oh.bit(i), zero(l), rank[i] + hdl::zext(rank_inc.bit(i), l)));
  e.rank_upd = m.wire("rank_upd", cat(ranks));
}

// The candidate line, loaded when CMP decides: for a fill the new translation
// in sub-entry 0 and the old sub-entry 0 moved to the chosen way.
void candidate(Eng& e) {
  Module& m = e.m;
  const unsigned x = e.p.tx_per_line;
  m.comment("candidate");
  Value valid_upd = m.wire("valid_upd", e.dec.valid & ~e.sd_match);
  for (const Field& f : entry_fields(e.p)) {
    auto updated = [&](unsigned i) {
      if (f.of == &Entry::valid) return valid_upd.bit(i);
      if (f.of == &Entry::lru) return e.rank_upd.field(i, f.width);
      return (e.dec.*f.of).field(i, f.width);
    };
    std::vector<Value> parts;
    for (unsigned i = x; i-- > 0;)
      parts.push_back(i == 0 ? mux(e.op_fill, fresh(f, e.key), updated(0))
                             : mux(e.op_fill & e.way_oh.bit(i), updated(0), updated(i)));
    Reg r = m.reg("cand_" + f.name, x * f.width);
    // loaded at every evaluation: the last one is the decision's, and nothing
    // reads the candidate before the engine leaves CMP
    r.next_if(e.eval, cat(parts));
    e.cand.*f.of = r;
  }
}

// ---------------------------------------------------------------------------
// Written images: the Tx tag entry and the data line, for the candidate
// (packed in PACK, written in WRITE) and for a line initialised with the new
// translation alone (ISSUE).

// entry_TAG (E bits) and held_TAG (X bits: the slots that keep a translation).
std::pair<Value, Value> tag_entry(Eng& e, const string& tag, const Entry& src) {
  Module& m = e.m;
  const IcacheTxParams& p = e.p;
  Value word, held = src.valid;
  if (p.packed()) {
    Wire packed = m.wire("pk_packed_" + tag, p.tx_tag_bits);
    Wire fits = m.wire("unused_pk_fits_" + tag, 1);
    Wire dropped = m.wire("pk_dropped_" + tag, p.tx_per_line);
    m.instance(codec_interface(*p.codec, true), "u_pack_" + tag,
               {{"tag_valid_i", src.valid}, {"tag_lru_i", src.lru}, {"tag_vmid_i", src.vmid},
                {"tag_vrf_i", src.vrf}, {"tag_va_i", src.va}, {"packed_o", packed},
                {"fits_o", fits}, {"dropped_o", dropped}});
    word = packed;
    held = held & ~dropped;  // slots not holding a translation after the write (invalid or dropped) are zero
  } else {
    word = gate(src.valid, cat({src.vrf, src.vmid, src.va}));
  }
  return {m.wire("entry_" + tag, hdl::zext(word, p.entry_bits)), m.wire("held_" + tag, held)};
}

// The data line written: slot i = {zeros, perm_i, ppn_i} where `held` is set, zero elsewhere.
Value slot_image(Eng& e, const string& name, const Value& held, const Value& ppn, const Value& perm) {
  const IcacheTxParams& p = e.p;
  const unsigned x = p.tx_per_line;
  std::vector<Value> slots;
  if (p.line_bits > x * kSlotBits) slots.push_back(zero(p.line_bits - x * kSlotBits));
  for (unsigned i = x; i-- > 0;)
    slots.push_back(hdl::zext(gate(held.bit(i), cat({perm.field(i, p.perm_bits), ppn.field(i, p.ppn_bits)})), kSlotBits));
  return e.m.wire(name, cat(slots));
}

void images(Eng& e) {
  Module& m = e.m;
  const unsigned x = e.p.tx_per_line;
  m.comment("written images");
  Entry init, cand;
  for (const Field& f : entry_fields(e.p)) {
    init.*f.of = m.wire("src_" + f.name + "_init", hdl::zext(fresh(f, e.key), x * f.width));
    // the candidate's slots go to the data line from their registers (slot_image)
    if (in_tag(f)) cand.*f.of = m.wire("src_" + f.name + "_cand", e.cand.*f.of);
  }
  const auto [entry_init, held_init] = tag_entry(e, "init", init);
  e.entry_init = entry_init;
  e.image_init = slot_image(e, "image_init", held_init, init.ppn, init.perm);
  const auto [entry_cand, held_cand] = tag_entry(e, "cand", cand);
  // PACK: the compressor's results registered, so WRITE drives the tag SRAM from flops
  const Value st_pack = e.st_pack = m.wire("st_pack", e.state_is(kPack));
  e.wb_entry = m.reg_noreset("wb_entry", e.p.entry_bits);
  e.wb_entry.next_if(st_pack, entry_cand);
  e.wb_held = m.reg_noreset("wb_held", x);
  e.wb_held.next_if(st_pack, held_cand);
  e.image_cand = slot_image(e, "image_cand", e.wb_held, e.cand.ppn, e.cand.perm);
}

// ---------------------------------------------------------------------------
// WRITE, the engine's port drive and its touches.

void write_back(Eng& e) {
  Module& m = e.m;
  Ctl& c = e.c;
  const unsigned a = e.p.ways;
  m.comment("WRITE and the engine's SRAM drive");
  const Value st_write = e.st_write = m.wire("st_write", e.state_is(kWrite));
  e.wr_go = m.wire("wr_go", st_write & c.port_free);
  e.wr_cancel = m.wire("wr_cancel", e.wr_go & e.clob);
  e.wr_commit = m.wire("wr_commit", e.wr_go & ~e.clob);
  const Value fill_write = e.wr_commit & e.op_fill;
  c.eng_tag_en = m.wire("eng_tag_en", e.rd_fire | e.init_fire | e.wr_commit);
  c.eng_tag_we = m.wire("eng_tag_we", e.init_fire | e.wr_commit);
  c.eng_tag_set = m.wire("eng_tag_set", e.line.slice(0, e.p.set_bits));
  c.eng_tag_way_en = m.wire("eng_tag_way_en", mux(e.rd_fire, hdl::ones(a), hdl::one_of(a, e.line_way())));
  c.eng_tag_entry = m.wire("eng_tag_entry", mux(e.st_issue, e.entry_init, e.wb_entry));
  c.eng_data_en = m.wire("eng_data_en", e.rd_fire | e.init_fire | fill_write);
  c.eng_data_we = m.wire("eng_data_we", e.init_fire | fill_write);
  c.eng_data_line = m.wire("eng_data_line", e.line);
  c.eng_data_wdata = m.wire("eng_data_wdata", mux(e.st_issue, e.image_init, e.image_cand));
  c.eng_empty = m.wire("eng_empty", e.wr_commit & e.op_shoot & ~any(e.cand.valid));
  // the set of L, one-hot: OR over the ways of the line one-hot
  std::vector<Value> sets;
  for (unsigned w = 0; w < a; ++w) sets.push_back(c.lsel.slice(w * e.p.sets, e.p.sets));
  // The engine's touch (initialise, a fill's write, a lookup hit) is pending
  // for one edge: its port_free term (instruction inputs of the cycle) must
  // not feed the recency of every set.
  Reg tp_v = m.reg("tp_v", 1);
  tp_v.next(e.init_fire | fill_write | (e.eval & e.op_lookup & any(e.mq)));
  Reg tp_sel = m.reg_noreset("tp_sel", e.p.sets);
  tp_sel.next(or_of(sets, zero(e.p.sets)));
  Reg tp_way = m.reg_noreset("tp_way", a);
  tp_way.next(hdl::one_of(a, e.line_way()));
  c.te_hot = m.wire("te_hot", gate(tp_v, tp_sel));
  c.te_way = m.wire("te_way", tp_way);
}

// ---------------------------------------------------------------------------
// Response, victims, done pulses and the engine state.

void response(Eng& e) {
  Module& m = e.m;
  const IcacheTxParams& p = e.p;
  const TranslationPorts& t = e.tx();
  m.comment("lookup response");
  Reg cu = m.reg("resp_cu", p.cu_bits), hit = m.reg("resp_hit", 1);
  Value resp_cmp = m.wire("resp_cmp", e.cmp_done & e.op_lookup);
  Value load = m.wire("resp_load", e.lk_miss_now | resp_cmp);
  e.resp_valid.next(load | (e.resp_valid & ~t.tl_resp_ready_i));
  cu.next_if(load, e.key_cu);
  hit.next_if(load, e.any_hit & resp_cmp);
  t.tl_resp_valid_o.drive(e.resp_valid);
  t.tl_resp_cu_o.drive(cu);
  t.tl_resp_hit_o.drive(hit);
  auto field = [&](const Field& f, const Wire& port) {
    Reg r = m.reg("resp_" + f.name, f.width);
    r.next(priority({{e.lk_miss_now, zero(f.width)},
                     {resp_cmp, onehot_select(e.hit_oh, e.dec.*f.of, p.tx_per_line, f.width)}},
                    r));
    port.drive(r);
  };
  field({"ppn", p.ppn_bits, &Entry::ppn}, t.tl_resp_ppn_o);
  field({"perm", p.perm_bits, &Entry::perm}, t.tl_resp_perm_o);
}

// The victim's fields: ev for pend bit 0, the candidate's sub-entry i for bit i.
void victim_out(Eng& e, const Entry& ev, const Value& first) {
  const IcacheTxParams& p = e.p;
  const TranslationPorts& t = e.tx();
  auto victim = [&](Value Entry::*of, unsigned width) {
    std::vector<Value> terms = {gate(first.bit(0), ev.*of)};
    for (unsigned i = 1; i < p.tx_per_line; ++i) terms.push_back(gate(first.bit(i), (e.cand.*of).field(i, width)));
    return or_of(terms, zero(width));
  };
  t.vic_vmid_o.drive(victim(&Entry::vmid, p.vmid_bits));
  t.vic_vrf_o.drive(victim(&Entry::vrf, p.vrf_bits));
  const Value vic_va = e.m.wire("vic_va", victim(&Entry::va, p.va_tag_bits));
  t.vic_ppn_o.drive(victim(&Entry::ppn, p.ppn_bits));
  t.vic_perm_o.drive(victim(&Entry::perm, p.perm_bits));
  t.vic_vpn_o.drive(cat({vic_va, gate(e.st_vic, e.line.slice(0, p.tx_index_bits))}));
}

// pend bit 0: the ev register (LRU-evicted sub-entry, a bypassed fill or a
// fill whose write was cancelled); bit i >= 1: dropped candidate sub-entry i.
void victims(Eng& e) {
  Module& m = e.m;
  const IcacheTxParams& p = e.p;
  const unsigned x = p.tx_per_line;
  const Value ready = e.tx().vic_ready_i;
  m.comment("victims towards the L2-TLB");
  Value self_vic = m.wire("self_vic", e.bypass_now | (e.wr_cancel & e.op_fill));
  Entry ev;
  for (const Field& f : entry_fields(p)) {
    if (!in_victim(f)) continue;
    Reg r = m.reg("ev_" + f.name, f.width);
    r.next(priority({{self_vic, e.key.*f.of},
                     {e.st_cmp & e.op_fill, onehot_select(e.lru_oh, e.dec.*f.of, x, f.width)}},
                    r));
    ev.*f.of = r;
  }
  Reg ev_flag = m.reg("ev_flag", 1);
  ev_flag.next(mux(e.eval & e.op_fill, e.full & ~e.any_hit, ev_flag));
  const Value st_vic = e.st_vic = m.wire("st_vic", e.state_is(kVic));
  e.pend = m.reg("pend", x);
  Value vic_first = hdl::lowest_one(m.top(), "vic_first", e.pend);
  Value dropped = ev_flag;
  if (p.packed()) {
    // registered by PACK: a valid candidate sub-entry that is not held was dropped
    Value wb_dropped = m.wire("wb_dropped", e.cand.valid & ~e.wb_held);
    dropped = cat({wb_dropped.slice(1, x - 1), ev_flag});
    m.unused("wb_dropped0", wb_dropped.bit(0));
  }
  e.pend.next(priority({{self_vic, lit(x, 1)},
                        {e.wr_commit & e.op_fill, dropped},
                        {st_vic, e.pend & ~gate(ready, vic_first)}},
                       e.pend));
  e.vic_last = m.wire("vic_last", st_vic & ready & ((e.pend & ~vic_first) == 0));
  e.tx().vic_valid_o.drive(st_vic);
  victim_out(e, ev, vic_first);
}

void engine_state(Eng& e) {
  Module& m = e.m;
  auto st = [](State s) { return lit(kStateBits, s); };
  m.comment("engine state and done pulses");
  const Value lookup_write = e.p.packed() ? e.op_lookup & e.any_hit : zero(1);
  Value cmp_write = m.wire("cmp_write", e.op_fill | lookup_write | (e.op_shoot & e.any_sd));
  const Value issue_next = priority({{e.rd_fire, st(kDec)},
                                     {e.bypass_now, st(kVic)},
                                     {e.lk_miss_now | e.sd_none_now | e.init_fire, st(kIdle)}},
                                    st(kIssue));
  const Value write_next =
      priority({{~e.c.port_free, st(kWrite)}, {e.op_fill & any(e.pend.d()), st(kVic)}}, st(kIdle));
  e.state.next(priority({{e.c.eng_idle, mux(e.key_fire, st(kIssue), st(kIdle))},
                         {e.st_issue, issue_next},
                         {e.st_dec, st(kCmp)},
                         {e.st_cmp, mux(e.cmp_done, mux(cmp_write, st(kPack), st(kIdle)), st(kCmp))},
                         {e.st_pack, st(kWrite)},
                         {e.st_write, write_next},
                         {e.st_vic, mux(e.vic_last, st(kIdle), st(kVic))}},
                        st(kIdle)));
  Reg sd_done = m.reg("sd_done", 1);
  sd_done.next(e.c.sd_all_fire | e.sd_none_now | (e.cmp_done & e.op_shoot & ~e.any_sd) | (e.wr_go & e.op_shoot));
  e.tx().sd_done_o.drive(sd_done);
}

// Formal properties of the engine (txgen prove): a lookup answers a hit only
// from a line it read in Tx-mode, and a translation write reaches only the
// Tx-mode line it read.
void properties(Eng& e) {
  Module& m = e.m;
  const Ctl& c = e.c;
  const Value line_tx = hdl::bit_at(m.formal().wire("f_tx_lines", c.lv & c.ltx), e.line);
  const Reg rd_tx = m.formal_reg("f_rd_tx", 1);
  rd_tx.next(priority({{e.key_fire, zero(1)}, {e.rd_fire, line_tx}}, rd_tx));
  const Value after_read = e.st_dec | e.st_cmp | e.st_pack | e.st_write;
  m.assert_always("lookup_hit_only_from_tx", ~(e.cmp_done & e.op_lookup & e.any_hit) | rd_tx);
  m.assert_always("tx_write_only_tx_lines", ~e.wr_commit | line_tx);
  m.assert_always("inv_read_tx", ~(e.st_dec | e.st_cmp) | rd_tx);
  m.assert_always("inv_unclobbered_tx", ~after_read | e.clob | line_tx);
  m.assert_always("inv_line_sel", c.eng_idle | (c.lsel == hdl::one_of(e.p.lines, e.line)));
}

}  // namespace

void engine(Ctl& c) {
  Eng e(c);
  e.state = c.m.reg("state", kStateBits);
  e.resp_valid = c.m.reg("resp_valid", 1);
  acceptance(e);
  request_registers(e);
  issue(e);
  line_read(e);
  compare(e);
  way_choice(e);
  candidate(e);
  images(e);
  write_back(e);
  response(e);
  victims(e);
  engine_state(e);
  properties(e);
}

}  // namespace txgen::blocks::icache
