// icache_tx translation engine (docs/blocks/icache_tx.md, "Translation
// engine"): round-robin acceptance per CU, ISSUE on the registered line, the
// decompressed line register (DEC), grouped comparison with registered
// matches (CMP), the candidate, its packing (PACK) and write-back (WRITE),
// victims, the lookup response and the shootdowns.
#include <string>
#include <vector>

#include "txgen/blocks/icache_tx_emit.h"
#include "txgen/elab/bits.h"
#include "txgen/emit/structures.h"

namespace txgen::blocks::icache {
namespace {

using elab::IcacheTxParams;
using emit::Cases;
using emit::concat;
using emit::bit;
using emit::bit_field;
using emit::field;
using emit::lowest_one;
using emit::one_of;
using emit::Module;
using emit::onehot_select;
using emit::or_of;
using emit::priority;
using emit::repeat;
using emit::sized;
using emit::slice;
using std::string;
using std::to_string;

struct Field {
  string name;
  unsigned width;
};

// Fields of one sub-entry; the rank exists only with packed lines.
std::vector<Field> entry_fields(const IcacheTxParams& p) {
  std::vector<Field> f = {{"valid", 1}, {"vmid", p.vmid_bits}, {"vrf", p.vrf_bits}, {"va", p.va_tag_bits},
                          {"ppn", p.ppn_bits}, {"perm", p.perm_bits}};
  if (p.packed()) f.insert(f.begin() + 1, {"lru", p.rank_bits});
  return f;
}

string zeros_if(unsigned width) { return width ? sized(width, 0) : ""; }
string line_way(const IcacheTxParams& p) { return slice("line_q", p.set_bits, p.way_bits); }
string line_set(const IcacheTxParams& p) { return slice("line_q", 0, p.set_bits); }

// ---------------------------------------------------------------------------
// Acceptance: flush > shootdown > lookup > fill, round robin among CUs.

void grant(Module& m, const IcacheTxParams& p, const string& cls, const string& valid, const string& fire) {
  const unsigned s = p.sharers;
  if (s == 1) {  // the only CU is always the granted one
    m.wire_assign(cls + "_grant", 1, "1'b1");
    (void)fire;
    return;
  }
  // the pointer p is kept as the mask of the CUs below it (lt[c] = c < p;
  // zero at reset, p = 0), so the grant does not start with a comparison
  m.flop(cls + "_lt", s);
  m.wire_assign(cls + "_masked", s, valid + " & ~" + cls + "_lt_q");
  lowest_one(m, cls + "_gm", cls + "_masked", s);
  lowest_one(m, cls + "_ga", valid, s);
  m.wire_assign(cls + "_grant", s, "(|" + cls + "_masked) ? " + cls + "_gm : " + cls + "_ga");
  // p' = grant + 1 mod S: c < p' when c <= grant, none when grant = S - 1
  std::vector<string> next;
  for (unsigned c = s; c-- > 0;) {
    std::vector<string> at_or_above;
    for (unsigned g = c; g + 1 < s; ++g) at_or_above.push_back(slice(cls + "_grant", g, 1));
    next.push_back(at_or_above.empty() ? "1'b0" : "(" + or_of(at_or_above, "1'b0") + ")");
  }
  m.assign(cls + "_lt_d", fire + " ? " + concat(next) + " : " + cls + "_lt_q");
}

void acceptance(Module& m, const IcacheTxParams& p) {
  const unsigned s = p.sharers;
  m.comment("acceptance");
  m.wire_assign("eng_idle", 1, state_is(kIdle));
  m.assign("sd_ready_o", "eng_idle & ~flush_valid_i");
  m.wire_assign("sd_fire", 1, "sd_valid_i & sd_ready_o");
  m.wire_assign("sd_all_fire", 1, "sd_fire & sd_all_i");
  m.wire_assign("lk_ok", 1, "eng_idle & ~flush_valid_i & ~sd_valid_i & ~resp_valid_q");
  m.wire_assign("lk_fire", 1, "lk_ok & (|tl_valid_i)");
  m.wire_assign("tf_ok", 1, "eng_idle & ~flush_valid_i & ~sd_valid_i & ~lk_fire");
  m.wire_assign("tf_fire", 1, "tf_ok & (|tf_valid_i)");
  grant(m, p, "lk", "tl_valid_i", "lk_fire");
  grant(m, p, "tf", "tf_valid_i", "tf_fire");
  m.assign("tl_ready_o", repeat(s, "lk_ok") + " & lk_grant");
  m.assign("tf_ready_o", repeat(s, "tf_ok") + " & tf_grant");
  m.wire_assign("key_fire", 1, "(sd_fire & ~sd_all_i) | lk_fire | tf_fire");
}

// The accepted operation, registered: everything after it works from flops.
// The key registers load in every idle cycle, not only at the accept (whose
// enable is a late function of the request valids): the accept cycle is the
// last idle cycle, and nothing reads them while idle.
void request_registers(Module& m, const IcacheTxParams& p) {
  const unsigned s = p.sharers;
  auto pick = [&](const string& port, const string& g, unsigned w) {
    return s == 1 ? port : onehot_select(g, port, s, w);
  };
  // which request the key registers take, valid in an accept cycle: the
  // shootdown, else a lookup (lk_fire), else the fill (tf_fire needs ~lk_fire)
  m.wire_assign("lk_pick", 1, "(|tl_valid_i) & ~resp_valid_q");
  m.wire_assign("acc_vpn", p.vpn_bits,
                priority({{"sd_valid_i", "sd_vpn_i"}, {"lk_pick", pick("tl_vpn_i", "lk_grant", p.vpn_bits)}},
                         pick("tf_vpn_i", "tf_grant", p.vpn_bits)));
  m.flop("op", kOpBits);
  m.assign("op_d", priority({{"~eng_idle", "op_q"},
                             {"sd_valid_i", sized(kOpBits, kOpShoot)},
                             {"lk_pick", sized(kOpBits, kOpLookup)}},
                            sized(kOpBits, kOpFill)));
  m.flop("line", p.line_index_bits);
  m.assign("line_d", "eng_idle ? " + slice("acc_vpn", 0, p.line_index_bits) + " : line_q");
  // the line one-hot as well: ISSUE reads mode[L] with an AND-OR over the
  // lines instead of a NL-to-1 multiplexer behind a decoder
  m.flop("lsel", p.lines);
  m.assign("lsel_d", "eng_idle ? " + one_of(p.lines, slice("acc_vpn", 0, p.line_index_bits)) + " : lsel_q");
  if (p.tx_index_bits < p.line_index_bits) {
    // the way bits repeat in the VA tag (tx_index: set)
    m.wire_assign("unused_acc_way", p.line_index_bits - p.tx_index_bits,
                  slice("acc_vpn", p.tx_index_bits, p.line_index_bits - p.tx_index_bits));
  }
  m.flop("key_va", p.va_tag_bits);
  m.assign("key_va_d", "eng_idle ? " + slice("acc_vpn", p.tx_index_bits, p.va_tag_bits) + " : key_va_q");
  m.flop("key_vmid", p.vmid_bits);
  m.assign("key_vmid_d", priority({{"~eng_idle", "key_vmid_q"},
                                   {"sd_valid_i", "sd_vmid_i"},
                                   {"lk_pick", pick("tl_vmid_i", "lk_grant", p.vmid_bits)}},
                                  pick("tf_vmid_i", "tf_grant", p.vmid_bits)));
  m.flop("key_vrf", p.vrf_bits);
  m.assign("key_vrf_d", priority({{"~eng_idle", "key_vrf_q"}, {"lk_pick", pick("tl_vrf_i", "lk_grant", p.vrf_bits)}},
                                 pick("tf_vrf_i", "tf_grant", p.vrf_bits)));
  m.flop("key_ppn", p.ppn_bits);
  m.assign("key_ppn_d", "eng_idle ? " + pick("tf_ppn_i", "tf_grant", p.ppn_bits) + " : key_ppn_q");
  m.flop("key_perm", p.perm_bits);
  m.assign("key_perm_d", "eng_idle ? " + pick("tf_perm_i", "tf_grant", p.perm_bits) + " : key_perm_q");
  m.flop("key_cu", p.cu_bits);
  std::vector<string> cu;
  for (unsigned c = 0; c < s; ++c)
    cu.push_back("(" + repeat(p.cu_bits, slice("lk_grant", c, 1)) + " & " + sized(p.cu_bits, c) + ")");
  m.assign("key_cu_d", "eng_idle ? " + (s == 1 ? sized(p.cu_bits, 0) : or_of(cu, "")) + " : key_cu_q");
  if (s == 1) m.wire_assign("unused_lk_grant", 1, "lk_grant");
}

// ISSUE: decided on mode[L] of the cycle; port users wait for a free port.
void issue(Module& m, const IcacheTxParams& p) {
  m.comment("ISSUE");
  m.wire_assign("st_issue", 1, state_is(kIssue));
  m.wire_assign("op_lookup", 1, op_is(kOpLookup));
  m.wire_assign("op_fill", 1, op_is(kOpFill));
  m.wire_assign("op_shoot", 1, op_is(kOpShoot));
  m.wire_assign("l_tx", 1, "|(lv_q & ltx_q & lsel_q)");
  const bool naive = p.variant == config::IcacheVariant::Naive;
  if (!naive) {
    m.wire_assign("l_v", 1, "|(lv_q & lsel_q)");
    m.wire_assign("l_ic", 1, "|(lv_q & ~ltx_q & lsel_q)");
  }
  m.wire_assign("lk_miss_now", 1, "st_issue & op_lookup & ~l_tx");
  m.wire_assign("sd_none_now", 1, "st_issue & op_shoot & ~l_tx");
  m.wire_assign("bypass_now", 1, naive ? "1'b0" : "st_issue & op_fill & l_ic");
  m.wire_assign("init_ok", 1, "st_issue & op_fill & " + string(naive ? "~l_tx" : "~l_v"));
  m.wire_assign("init_fire", 1, "init_ok & port_free");
  m.wire_assign("rd_fire", 1, "st_issue & l_tx & port_free");
  m.wire_assign("eng_init", 1, "init_fire");
  m.flop("clob", 1);
  m.assign("clob_d", "rd_fire ? 1'b0 : (clob_q | (ifill_fire & (ifill_line == line_q)))");
}

// ---------------------------------------------------------------------------
// DEC: the way's tag entry unpacked and the line's slots, registered.

void line_read(Module& m, const IcacheTxParams& p) {
  const unsigned e = p.entry_bits, x = p.tx_per_line, t = p.va_tag_bits;
  m.comment("DEC: tag entry of way L and the slots of line L");
  std::vector<string> ways;
  for (unsigned w = 0; w < p.ways; ++w)
    ways.push_back("(" + repeat(e, "(" + line_way(p) + " == " + sized(p.way_bits, w) + ")") + " & " +
                   slice("tag_rdata_i", w * e, e) + ")");
  m.wire_assign("rd_entry", e, or_of(ways, ""));
  if (e > p.tx_tag_bits) m.wire_assign("unused_rd_entry", e - p.tx_tag_bits, slice("rd_entry", p.tx_tag_bits, e - p.tx_tag_bits));
  for (const Field& f : entry_fields(p))
    if (f.name != "ppn" && f.name != "perm") m.wire("rd_" + f.name, x * f.width);
  if (p.packed()) {
    m.instance(p.codec->module_prefix + "_unpack", "u_unpack",
               {{"packed_i", slice("rd_entry", 0, p.tx_tag_bits)},
                {"tag_valid_o", "rd_valid"},
                {"tag_lru_o", "rd_lru"},
                {"tag_vmid_o", "rd_vmid"},
                {"tag_vrf_o", "rd_vrf"},
                {"tag_va_o", "rd_va"}});
  } else {
    m.assign("rd_valid", "1'b1");
    m.assign("rd_va", slice("rd_entry", 0, t));
    m.assign("rd_vmid", slice("rd_entry", t, p.vmid_bits));
    m.assign("rd_vrf", slice("rd_entry", t + p.vmid_bits, p.vrf_bits));
  }
  std::vector<string> ppn, perm;
  for (unsigned i = x; i-- > 0;) {
    ppn.push_back(slice("data_rdata_i", i * kSlotBits, p.ppn_bits));
    perm.push_back(slice("data_rdata_i", i * kSlotBits + p.ppn_bits, p.perm_bits));
  }
  m.wire_assign("rd_ppn", x * p.ppn_bits, concat(ppn));
  m.wire_assign("rd_perm", x * p.perm_bits, concat(perm));
  m.wire_assign("st_dec", 1, state_is(kDec));
  for (const Field& f : entry_fields(p)) {
    m.flop("dec_" + f.name, x * f.width);
    m.assign("dec_" + f.name + "_d", "st_dec ? rd_" + f.name + " : dec_" + f.name + "_q");
  }
}

// ---------------------------------------------------------------------------
// CMP: CP comparators over group grp_q of the decompressed sub-entries, their
// matches registered; the decision is on the registered group (mg_q) one
// cycle later, so the comparators end at flip-flops.

string group_entry(const IcacheTxParams& p, const string& vec, unsigned c, unsigned w) {
  if (p.groups == 1) return bit_field(vec, c, p.tx_per_line, w);
  Cases cases;
  for (unsigned g = 0; g + 1 < p.groups; ++g)
    cases.push_back({"(grp_q == " + sized(p.group_bits, g) + ")", field(vec, g * p.comparators + c, w)});
  return "(" + priority(cases, field(vec, (p.groups - 1) * p.comparators + c, w)) + ")";
}

void compare(Module& m, const IcacheTxParams& p) {
  const unsigned cp = p.comparators, x = p.tx_per_line, gb = p.group_bits;
  m.comment("CMP: " + to_string(cp) + " comparators, " + to_string(p.groups) + " group(s)");
  m.wire_assign("st_cmp", 1, state_is(kCmp));
  m.flop("grp", gb);
  m.assign("grp_d", priority({{"st_dec", sized(gb, 0)}, {"st_cmp", "grp_q + " + sized(gb, 1)}}, "grp_q"));
  m.wire("gm_sd", cp);
  m.wire("gm", cp);
  for (unsigned c = 0; c < cp; ++c) {
    m.assign(bit("gm_sd", c, cp), group_entry(p, "dec_valid_q", c, 1) + " & (" +
                                       group_entry(p, "dec_va_q", c, p.va_tag_bits) + " == key_va_q) & (" +
                                       group_entry(p, "dec_vmid_q", c, p.vmid_bits) + " == key_vmid_q)");
    m.assign(bit("gm", c, cp), bit("gm_sd", c, cp) + " & (" + group_entry(p, "dec_vrf_q", c, p.vrf_bits) +
                                    " == key_vrf_q)");
  }
  m.flop("mq_v", 1);
  m.assign("mq_v_d", "st_cmp");
  m.flop_noreset("mg", gb);
  m.assign("mg_d", "grp_q");
  m.flop_noreset("mq", cp);
  m.assign("mq_d", "gm");
  m.flop_noreset("mq_sd", cp);
  m.assign("mq_sd_d", "gm_sd");
  m.wire_assign("grp_last", 1, "mg_q == " + sized(gb, p.groups - 1));
  lowest_one(m, "gm_first", "mq_q", cp);
  // Place the evaluated group's results at their sub-entry positions.
  auto placed = [&](const string& g) {
    std::vector<string> bits;
    for (unsigned i = x; i-- > 0;) {
      const string b = bit(g, i % cp, cp);
      bits.push_back(p.groups == 1 ? b : "((mg_q == " + sized(gb, i / cp) + ") & " + b + ")");
    }
    return concat(bits);
  };
  m.wire_assign("eval", 1, "st_cmp & mq_v_q");
  // not gated by eval: every user is (cmp_done, the candidate's load)
  m.wire_assign("hit_oh", x, repeat(x, "~op_shoot") + " & " + placed("gm_first"));
  m.wire_assign("sd_now", x, repeat(x, "op_shoot") + " & " + placed("mq_sd_q"));
  m.flop("sd_acc", x);
  m.assign("sd_acc_d", priority({{"st_dec", sized(x, 0)}, {"eval", "sd_acc_q | sd_now"}}, "sd_acc_q"));
  m.wire_assign("sd_match", x, "sd_acc_q | sd_now");
  // |hit_oh, straight from the registered matches (the placement is a permutation)
  m.wire_assign("any_hit", 1, "~op_shoot & (|mq_q)");
  m.wire_assign("any_sd", 1, "|sd_match");
  m.wire_assign("cmp_done", 1, "eval & (grp_last | any_hit)");
}

// Rank normalisation (docs/blocks/lds_ctrl.md) and the way a fill takes.
// prec_i_j: valid sub-entry j comes before i in (lru, index) order.
void way_choice(Module& m, const IcacheTxParams& p) {
  const unsigned x = p.tx_per_line, l = p.rank_bits;
  m.comment("ranks, LRU sub-entry and the fill's way");
  m.wire_assign("full", 1, "&dec_valid_q");
  if (!p.packed()) return m.wire_assign("lru_oh", 1, "1'b1");
  m.wire_assign("dec_invalid", x, "~dec_valid_q");
  lowest_one(m, "inv_oh", "dec_invalid", x);
  auto prec = [](unsigned i, unsigned j) { return "prec_" + to_string(i) + "_" + to_string(j); };
  for (unsigned i = 0; i < x; ++i)
    for (unsigned j = 0; j < x; ++j)
      if (j != i)
        m.wire_assign(prec(i, j), 1, slice("dec_valid_q", j, 1) + " & (" + field("dec_lru_q", j, l) +
                                         (j < i ? " <= " : " < ") + field("dec_lru_q", i, l) + ")");
  m.wire("lru_oh", x);
  m.wire("touch_inc", x);
  for (unsigned i = 0; i < x; ++i) {
    string sum, touch, last = slice("dec_valid_q", i, 1);
    for (unsigned j = 0; j < x; ++j) {
      if (j == i) continue;
      sum += (sum.empty() ? "" : " + ") + (l > 1 ? concat({sized(l - 1, 0), prec(i, j)}) : prec(i, j));
      touch += (touch.empty() ? "" : " | ") + string("(") + slice("hit_oh", j, 1) + " & " + prec(j, i) + ")";
      last += " & " + prec(i, j);
    }
    // registered: the line register is stable from DEC on and the first CMP
    // cycle never decides, so the rank sums come from flip-flops
    m.flop_noreset("rk" + to_string(i), l);
    m.assign("rk" + to_string(i) + "_d", sum);
    m.wire_assign("rank" + to_string(i), l, "rk" + to_string(i) + "_q");
    m.assign(slice("touch_inc", i, 1), touch);
    m.assign(slice("lru_oh", i, 1), last);
  }
  // the way a fill without a match takes, registered like the ranks
  m.flop_noreset("miss_way", x);
  m.assign("miss_way_d", "full ? lru_oh : inv_oh");
  m.wire_assign("way_oh", x, "any_hit ? hit_oh : miss_way_q");
  m.wire_assign("upd", 1, "~op_shoot");
  m.wire_assign("rank_inc", x, repeat(x, "upd") + " & (any_hit ? touch_inc : dec_valid_q)");
  std::vector<string> ranks;
  for (unsigned i = x; i-- > 0;) {
    const string inc = slice("rank_inc", i, 1);
    ranks.push_back("((upd & " + slice("way_oh", i, 1) + ") ? " + sized(l, 0) + " : rank" + to_string(i) + " + " +
                    (l > 1 ? concat({sized(l - 1, 0), inc}) : inc) + ")");
  }
  m.wire_assign("rank_upd", x * l, concat(ranks));
}

// The candidate line, loaded when CMP decides: for a fill the new translation
// in sub-entry 0 and the old sub-entry 0 moved to the chosen way.
void candidate(Module& m, const IcacheTxParams& p) {
  const unsigned x = p.tx_per_line;
  m.comment("candidate");
  m.wire_assign("valid_upd", x, "dec_valid_q & ~sd_match");
  for (const Field& f : entry_fields(p)) {
    auto updated = [&](unsigned i) {
      if (f.name == "valid") return bit("valid_upd", i, x);
      if (f.name == "lru") return field("rank_upd", i, f.width);
      return bit_field("dec_" + f.name + "_q", i, x, f.width);
    };
    const string fresh = f.name == "valid" ? "1'b1" : f.name == "lru" ? sized(f.width, 0) : "key_" + f.name + "_q";
    std::vector<string> parts;
    for (unsigned i = x; i-- > 0;) {
      if (i == 0) parts.push_back("(op_fill ? " + fresh + " : " + updated(0) + ")");
      else parts.push_back("((op_fill & " + slice("way_oh", i, 1) + ") ? " + updated(0) + " : " + updated(i) + ")");
    }
    m.flop("cand_" + f.name, x * f.width);
    // loaded at every evaluation: the last one is the decision's, and nothing
    // reads the candidate before the engine leaves CMP
    m.assign("cand_" + f.name + "_d", "eval ? " + concat(parts) + " : cand_" + f.name + "_q");
  }
}

// ---------------------------------------------------------------------------
// Written images: the Tx tag entry and the data line, for the candidate
// (packed in PACK, written in WRITE) and for a line initialised with the new
// translation alone (ISSUE).

// entry_TAG (E bits) and held_TAG (X bits: the slots that keep a translation).
void tag_entry(Module& m, const IcacheTxParams& p, const string& tag) {
  const unsigned x = p.tx_per_line, e = p.entry_bits;
  auto src = [&](const string& f) { return "src_" + f + "_" + tag; };
  string word;
  if (p.packed()) {
    m.wire("pk_packed_" + tag, p.tx_tag_bits);
    m.wire("unused_pk_fits_" + tag, 1);
    m.wire("pk_dropped_" + tag, x);
    m.instance(p.codec->module_prefix + "_pack", "u_pack_" + tag,
               {{"tag_valid_i", src("valid")}, {"tag_lru_i", src("lru")}, {"tag_vmid_i", src("vmid")},
                {"tag_vrf_i", src("vrf")}, {"tag_va_i", src("va")}, {"packed_o", "pk_packed_" + tag},
                {"fits_o", "unused_pk_fits_" + tag}, {"dropped_o", "pk_dropped_" + tag}});
    word = "pk_packed_" + tag;
  } else {
    word = "(" + repeat(p.tx_tag_bits, src("valid")) + " & " + concat({src("vrf"), src("vmid"), src("va")}) + ")";
  }
  m.wire_assign("entry_" + tag, e, concat({zeros_if(e - p.tx_tag_bits), word}));
  // Slots not holding a translation after the write (invalid or dropped) are zero.
  const string held = p.packed() ? src("valid") + " & ~pk_dropped_" + tag : src("valid");
  m.wire_assign("held_" + tag, x, held);
}

// The data line written: slot i = {zeros, perm_i, ppn_i} where `held` is set, zero elsewhere.
void slot_image(Module& m, const IcacheTxParams& p, const string& name, const string& held, const string& ppn,
                const string& perm) {
  const unsigned x = p.tx_per_line, tw = p.ppn_bits + p.perm_bits;
  std::vector<string> slots = {zeros_if(p.line_bits - x * kSlotBits)};
  for (unsigned i = x; i-- > 0;)
    slots.push_back(concat({zeros_if(kSlotBits - tw), "(" + repeat(tw, bit(held, i, x)) + " & " +
                                                          concat({field(perm, i, p.perm_bits),
                                                                  field(ppn, i, p.ppn_bits)}) + ")"}));
  m.wire_assign(name, p.line_bits, concat(slots));
}

void images(Module& m, const IcacheTxParams& p) {
  const unsigned x = p.tx_per_line;
  m.comment("written images");
  for (const Field& f : entry_fields(p)) {
    const string init = f.name == "valid" ? "1'b1" : f.name == "lru" ? sized(f.width, 0) : "key_" + f.name + "_q";
    m.wire_assign("src_" + f.name + "_init", x * f.width, concat({zeros_if((x - 1) * f.width), init}));
    // the candidate's slots go to the data line from their registers (slot_image)
    if (f.name != "ppn" && f.name != "perm") m.wire_assign("src_" + f.name + "_cand", x * f.width, "cand_" + f.name + "_q");
  }
  tag_entry(m, p, "init");
  slot_image(m, p, "image_init", "held_init", "src_ppn_init", "src_perm_init");
  tag_entry(m, p, "cand");
  // PACK: the compressor's results registered, so WRITE drives the tag SRAM from flops
  m.wire_assign("st_pack", 1, state_is(kPack));
  m.flop_noreset("wb_entry", p.entry_bits);
  m.assign("wb_entry_d", "st_pack ? entry_cand : wb_entry_q");
  m.flop_noreset("wb_held", x);
  m.assign("wb_held_d", "st_pack ? held_cand : wb_held_q");
  slot_image(m, p, "image_cand", "wb_held_q", "cand_ppn_q", "cand_perm_q");
}

// ---------------------------------------------------------------------------
// WRITE, the engine's port drive and its touches.

void write_back(Module& m, const IcacheTxParams& p) {
  const unsigned a = p.ways;
  m.comment("WRITE and the engine's SRAM drive");
  m.wire_assign("st_write", 1, state_is(kWrite));
  m.wire_assign("wr_go", 1, "st_write & port_free");
  m.wire_assign("wr_cancel", 1, "wr_go & clob_q");
  m.wire_assign("wr_commit", 1, "wr_go & ~clob_q");
  m.wire_assign("eng_tag_en", 1, "rd_fire | init_fire | wr_commit");
  m.wire_assign("eng_tag_we", 1, "init_fire | wr_commit");
  m.wire_assign("eng_tag_set", p.set_bits, line_set(p));
  m.wire_assign("eng_tag_way_en", a, "rd_fire ? " + repeat(a, "1'b1") + " : " + one_of(a, line_way(p)));
  m.wire_assign("eng_tag_entry", p.entry_bits, "st_issue ? entry_init : wb_entry_q");
  m.wire_assign("eng_data_en", 1, "rd_fire | init_fire | (wr_commit & op_fill)");
  m.wire_assign("eng_data_we", 1, "init_fire | (wr_commit & op_fill)");
  m.wire_assign("eng_data_line", p.line_index_bits, "line_q");
  m.wire_assign("eng_data_wdata", p.line_bits, "st_issue ? image_init : image_cand");
  m.wire_assign("eng_empty", 1, "wr_commit & op_shoot & ~(|cand_valid_q)");
  std::vector<string> sets;  // the set of L, one-hot: OR over the ways of the line one-hot
  for (unsigned w = 0; w < p.ways; ++w) sets.push_back(slice("lsel_q", w * p.sets, p.sets));
  // The engine's touch (initialise, a fill's write, a lookup hit) is pending
  // for one edge: its port_free term (instruction inputs of the cycle) must
  // not feed the recency of every set.
  m.flop("tp_v", 1);
  m.assign("tp_v_d", "init_fire | (wr_commit & op_fill) | (eval & op_lookup & (|mq_q))");
  m.flop_noreset("tp_sel", p.sets);
  m.assign("tp_sel_d", or_of(sets, ""));
  m.flop_noreset("tp_way", a);
  m.assign("tp_way_d", one_of(a, line_way(p)));
  m.wire_assign("te_hot", p.sets, repeat(p.sets, "tp_v_q") + " & tp_sel_q");
  m.wire_assign("te_way", a, "tp_way_q");
}

// ---------------------------------------------------------------------------
// Response, victims, done pulses and the engine state.

void response(Module& m, const IcacheTxParams& p) {
  m.comment("lookup response");
  m.flop("resp_valid", 1);
  m.flop("resp_cu", p.cu_bits);
  m.flop("resp_hit", 1);
  m.flop("resp_ppn", p.ppn_bits);
  m.flop("resp_perm", p.perm_bits);
  m.wire_assign("resp_cmp", 1, "cmp_done & op_lookup");
  m.wire_assign("resp_load", 1, "lk_miss_now | resp_cmp");
  m.assign("resp_valid_d", "resp_load | (resp_valid_q & ~tl_resp_ready_i)");
  m.assign("resp_cu_d", "resp_load ? key_cu_q : resp_cu_q");
  m.assign("resp_hit_d", "resp_load ? any_hit & resp_cmp : resp_hit_q");
  for (const Field& f : {Field{"ppn", p.ppn_bits}, Field{"perm", p.perm_bits}})
    m.assign("resp_" + f.name + "_d",
             priority({{"lk_miss_now", sized(f.width, 0)},
                       {"resp_cmp", onehot_select("hit_oh", "dec_" + f.name + "_q", p.tx_per_line, f.width)}},
                      "resp_" + f.name + "_q"));
  m.assign("tl_resp_valid_o", "resp_valid_q");
  m.assign("tl_resp_cu_o", "resp_cu_q");
  m.assign("tl_resp_hit_o", "resp_hit_q");
  m.assign("tl_resp_ppn_o", "resp_ppn_q");
  m.assign("tl_resp_perm_o", "resp_perm_q");
}

// pend bit 0: the ev register (LRU-evicted sub-entry, a bypassed fill or a
// fill whose write was cancelled); bit i >= 1: dropped candidate sub-entry i.
void victims(Module& m, const IcacheTxParams& p) {
  const unsigned x = p.tx_per_line;
  m.comment("victims towards the L2-TLB");
  m.wire_assign("self_vic", 1, "bypass_now | (wr_cancel & op_fill)");
  for (const Field& f : entry_fields(p)) {
    if (f.name == "valid" || f.name == "lru") continue;
    m.flop("ev_" + f.name, f.width);
    m.assign("ev_" + f.name + "_d",
             priority({{"self_vic", "key_" + f.name + "_q"},
                       {"st_cmp & op_fill", onehot_select("lru_oh", "dec_" + f.name + "_q", x, f.width)}},
                      "ev_" + f.name + "_q"));
  }
  m.flop("ev_flag", 1);
  m.assign("ev_flag_d", "(eval & op_fill) ? (full & ~any_hit) : ev_flag_q");
  m.wire_assign("st_vic", 1, state_is(kVic));
  m.flop("pend", x);
  lowest_one(m, "vic_first", "pend_q", x);
  string dropped = "ev_flag_q";
  if (p.packed()) {
    // registered by PACK: a valid candidate sub-entry that is not held was dropped
    m.wire_assign("wb_dropped", x, "cand_valid_q & ~wb_held_q");
    dropped = concat({slice("wb_dropped", 1, x - 1), "ev_flag_q"});
    m.wire_assign("unused_wb_dropped0", 1, slice("wb_dropped", 0, 1));
  }
  m.assign("pend_d", priority({{"self_vic", sized(x, 1)},
                               {"wr_commit & op_fill", dropped},
                               {"st_vic", "pend_q & ~(" + repeat(x, "vic_ready_i") + " & vic_first)"}},
                              "pend_q"));
  m.wire_assign("vic_last", 1, "st_vic & vic_ready_i & ((pend_q & ~vic_first) == " + sized(x, 0) + ")");
  m.assign("vic_valid_o", "st_vic");
  for (const Field& f : entry_fields(p)) {
    if (f.name == "valid" || f.name == "lru") continue;
    std::vector<string> terms = {"(" + repeat(f.width, bit("vic_first", 0, x)) + " & ev_" + f.name + "_q)"};
    for (unsigned i = 1; i < x; ++i)
      terms.push_back("(" + repeat(f.width, slice("vic_first", i, 1)) + " & " + field("cand_" + f.name + "_q", i, f.width) + ")");
    if (f.name == "va") m.wire("vic_va", f.width);
    m.assign(f.name == "va" ? "vic_va" : "vic_" + f.name + "_o", or_of(terms, ""));
  }
  m.assign("vic_vpn_o", concat({"vic_va", "(" + repeat(p.tx_index_bits, "st_vic") + " & " +
                                              slice("line_q", 0, p.tx_index_bits) + ")"}));
}

void engine_state(Module& m, const IcacheTxParams& p) {
  auto st = [](State s) { return sized(kStateBits, s); };
  m.comment("engine state and done pulses");
  m.flop("state", kStateBits);
  const string lookup_write = p.packed() ? "(op_lookup & any_hit)" : "1'b0";
  m.wire_assign("cmp_write", 1, "op_fill | " + lookup_write + " | (op_shoot & any_sd)");
  const string issue_next = "(" + priority({{"rd_fire", st(kDec)},
                                            {"bypass_now", st(kVic)},
                                            {"lk_miss_now | sd_none_now | init_fire", st(kIdle)}},
                                           st(kIssue)) + ")";
  const string write_next = "(" + priority({{"~port_free", st(kWrite)}, {"op_fill & (|pend_d)", st(kVic)}}, st(kIdle)) + ")";
  m.assign("state_d", priority({{"eng_idle", "(key_fire ? " + st(kIssue) + " : " + st(kIdle) + ")"},
                                {"st_issue", issue_next},
                                {"st_dec", st(kCmp)},
                                {"st_cmp", "(cmp_done ? (cmp_write ? " + st(kPack) + " : " + st(kIdle) + ") : " + st(kCmp) + ")"},
                                {"st_pack", st(kWrite)},
                                {"st_write", write_next},
                                {"st_vic", "(vic_last ? " + st(kIdle) + " : " + st(kVic) + ")"}},
                               st(kIdle)));
  m.flop("sd_done", 1);
  m.assign("sd_done_d", "sd_all_fire | sd_none_now | (cmp_done & op_shoot & ~any_sd) | (wr_go & op_shoot)");
  m.assign("sd_done_o", "sd_done_q");
}

}  // namespace

void engine(Module& m, const IcacheTxParams& p) {
  acceptance(m, p);
  request_registers(m, p);
  issue(m, p);
  line_read(m, p);
  compare(m, p);
  way_choice(m, p);
  candidate(m, p);
  images(m, p);
  write_back(m, p);
  response(m, p);
  victims(m, p);
  engine_state(m, p);
}

}  // namespace txgen::blocks::icache
