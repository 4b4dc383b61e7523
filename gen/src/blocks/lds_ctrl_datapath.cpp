// lds_ctrl engine datapath (docs/blocks/lds_ctrl.md, "Engine"): the segment
// read and compare (CMP), the candidate and its packed write-back, the SRAM
// port, the lookup response, the victim buffer and the engine state.
#include <string>
#include <vector>

#include "txgen/blocks/lds_ctrl_emit.h"
#include "txgen/elab/bits.h"
#include "txgen/emit/structures.h"

namespace txgen::blocks::lds {
namespace {

using elab::LdsCtrlParams;
using emit::concat;
using emit::lowest_one;
using emit::Module;
using emit::repeat;
using emit::sized;
using emit::slice;
using std::string;
using std::to_string;

// One per-entry field of a translation: name and width.
struct Field {
  string name;
  unsigned width;
};

std::vector<Field> entry_fields(const LdsCtrlParams& p) {
  return {{"valid", 1},          {"lru", p.codec.lru_bits}, {"vmid", p.vmid_bits},
          {"vrf", p.vrf_bits},   {"va", p.va_tag_bits},     {"ppn", p.ppn_bits},
          {"perm", p.perm_bits}};
}

unsigned pos_bits(const LdsCtrlParams& p) { return elab::log2_exact(p.segments_per_row); }
unsigned segment_bits(const LdsCtrlParams& p) { return p.segment_bytes * 8; }
unsigned pad_words(const LdsCtrlParams& p) { return p.segment_words - p.tag_words - p.ways; }
unsigned slot_pad_bits(const LdsCtrlParams& p) { return kWordBits - p.ppn_bits - p.perm_bits; }
string zeros_if(unsigned width) { return width ? sized(width, 0) : ""; }

// Bit mask of `count` banks starting at bank `first`.
unsigned long long bank_mask(unsigned first, unsigned count) {
  const unsigned long long ones = count >= 64 ? ~0ull : (1ull << count) - 1;
  return ones << first;
}

// Per-position selection: OR over segment positions j of ({w{pos == j}} & value(j)).
template <typename ValueOf>
string by_position(const LdsCtrlParams& p, const string& pos, unsigned width, ValueOf value_of) {
  if (p.segments_per_row == 1) return value_of(0u);
  std::vector<string> terms;
  for (unsigned j = 0; j < p.segments_per_row; ++j)
    terms.push_back("(" + repeat(width, "(" + pos + " == " + sized(pos_bits(p), j) + ")") + " & " +
                    value_of(j) + ")");
  return or_of(terms, sized(width, 0));
}

// ---------------------------------------------------------------------------
// CMP: the segment read in the accept cycle, unpacked

void segment_read(Module& m, const LdsCtrlParams& p) {
  const unsigned sb = segment_bits(p), n = p.ways;
  m.comment("CMP: the segment of seg_q from the SRAM read data");
  if (p.segments_per_row > 1) m.wire_assign("rd_pos", pos_bits(p), slice("seg_q", 0, pos_bits(p)));
  m.wire_assign("seg_data", sb, by_position(p, "rd_pos", sb, [&](unsigned j) {
                  return slice("sram_rdata_i", j * sb, sb);
                }));
  for (const Field& f : entry_fields(p)) m.wire("rd_" + f.name, n * f.width);
  m.instance(p.codec.module_prefix + "_unpack", "u_unpack",
             {{"packed_i", slice("seg_data", 0, p.codec.packed_bits)},
              {"tag_valid_o", "rd_valid"},
              {"tag_lru_o", "rd_lru"},
              {"tag_vmid_o", "rd_vmid"},
              {"tag_vrf_o", "rd_vrf"},
              {"tag_va_o", "rd_va"}});
  std::vector<string> ppn, perm, unused;
  for (unsigned i = n; i-- > 0;) {
    const unsigned lsb = (p.tag_words + i) * kWordBits;
    ppn.push_back(slice("seg_data", lsb, p.ppn_bits));
    perm.push_back(slice("seg_data", lsb + p.ppn_bits, p.perm_bits));
    if (slot_pad_bits(p)) unused.push_back(slice("seg_data", lsb + p.ppn_bits + p.perm_bits, slot_pad_bits(p)));
  }
  m.assign("rd_ppn", concat(ppn));
  m.assign("rd_perm", concat(perm));
  if (pad_words(p))
    unused.push_back(slice("seg_data", (p.tag_words + n) * kWordBits, pad_words(p) * kWordBits));
  if (!unused.empty()) {
    unsigned w = pad_words(p) * kWordBits + n * slot_pad_bits(p);
    m.wire_assign("unused_seg_data", w, concat(unused));
  }
}

// DEC: the unpacked entries and slots, registered (the decompression stage).
void decompressed_register(Module& m, const LdsCtrlParams& p) {
  m.comment("DEC: decompressed segment register");
  m.wire_assign("st_dec", 1, state_is(kDec));
  for (const Field& f : entry_fields(p)) {
    m.flop("dec_" + f.name, p.ways * f.width);
    m.assign("dec_" + f.name + "_d", "st_dec ? rd_" + f.name + " : dec_" + f.name + "_q");
  }
  // The key comparisons too (a shootdown matches any VRF-ID): CMP then starts
  // from registered match vectors.
  const unsigned n = p.ways;
  m.wire("rd_match_sd", n);
  m.wire("rd_match", n);
  for (unsigned i = 0; i < n; ++i) {
    m.assign(slice("rd_match_sd", i, 1), slice("rd_valid", i, 1) + " & (" +
                                             field("rd_va", i, p.va_tag_bits) + " == key_va_q) & (" +
                                             field("rd_vmid", i, p.vmid_bits) + " == key_vmid_q)");
    m.assign(slice("rd_match", i, 1), slice("rd_match_sd", i, 1) + " & (" +
                                          field("rd_vrf", i, p.vrf_bits) + " == key_vrf_q)");
  }
  // and the LRU way (the valid entry every other valid entry comes before in
  // (lru, index) order; used when all are valid), off the CMP path.
  m.wire("rd_lru_oh", n);
  const unsigned l = p.codec.lru_bits;
  for (unsigned i = 0; i < n; ++i) {
    string all_before = slice("rd_valid", i, 1);
    for (unsigned j = 0; j < n; ++j)
      if (j != i)
        all_before += " & (" + field("rd_lru", j, l) + (j < i ? " <= " : " < ") + field("rd_lru", i, l) + ")";
    m.assign(slice("rd_lru_oh", i, 1), all_before);
  }
  lowest_one(m, "rd_hit_oh", "rd_match", n);
  m.wire_assign("rd_invalid", n, "~rd_valid");
  lowest_one(m, "rd_inv_oh", "rd_invalid", n);
  for (const string f : {"match_sd", "hit_oh", "inv_oh", "lru_oh"}) {
    m.flop("dec_" + f, n);
    m.assign("dec_" + f + "_d", "st_dec ? rd_" + f + " : dec_" + f + "_q");
  }
}

// Rank normalisation, matches, the way a fill takes and the updated ranks.
// prec_i_j = "valid entry j comes before entry i in (lru, index) order"; the
// normalised rank of i is the number of such j, the LRU way is the valid one
// all others precede, and an update increments exactly the entries whose
// rank is below the touched or inserted way's: for a touch of m those that
// precede m, for an insertion every valid entry. Deriving all three from the
// comparison matrix keeps the rank sums off the update path.
void way_choice(Module& m, const LdsCtrlParams& p) {
  const unsigned n = p.ways, l = p.codec.lru_bits;
  m.comment("ranks renumbered 0..v-1 in (lru, index) order; way choice and rank update");
  auto prec = [](unsigned i, unsigned j) { return "prec_" + to_string(i) + "_" + to_string(j); };
  for (unsigned i = 0; i < n; ++i)
    for (unsigned j = 0; j < n; ++j)
      if (j != i)
        m.wire_assign(prec(i, j), 1, slice("dec_valid_q", j, 1) + " & (" + field("dec_lru_q", j, l) +
                                         (j < i ? " <= " : " < ") + field("dec_lru_q", i, l) + ")");
  m.wire("touch_inc", n);
  for (unsigned i = 0; i < n; ++i) {
    string sum, touch;
    for (unsigned j = 0; j < n; ++j) {
      if (j == i) continue;
      sum += (sum.empty() ? "" : " + ") + (l > 1 ? concat({sized(l - 1, 0), prec(i, j)}) : prec(i, j));
      touch += (touch.empty() ? "" : " | ") + string("(") + slice("hit_oh", j, 1) + " & " + prec(j, i) + ")";
    }
    m.wire_assign(indexed("rank", i), l, sum);
    m.assign(slice("touch_inc", i, 1), touch);
  }
  m.wire_assign("lru_oh", n, "dec_lru_oh_q");
  m.wire_assign("match_sd", n, "dec_match_sd_q");
  m.wire_assign("hit_oh", n, "dec_hit_oh_q");
  m.wire_assign("inv_oh", n, "dec_inv_oh_q");
  m.wire_assign("any_hit", 1, "|hit_oh");
  m.wire_assign("any_sd", 1, "|match_sd");
  m.wire_assign("full", 1, "&dec_valid_q");
  m.wire_assign("way_oh", n, "any_hit ? hit_oh : (full ? lru_oh : inv_oh)");
  m.wire_assign("upd", 1, "~op_shoot");
  m.wire_assign("rank_inc", n, repeat(n, "upd") + " & (any_hit ? touch_inc : dec_valid_q)");
  std::vector<string> new_ranks;
  for (unsigned i = 0; i < n; ++i) {
    const string inc = slice("rank_inc", i, 1);
    new_ranks.insert(new_ranks.begin(),
                     "((upd & " + slice("way_oh", i, 1) + ") ? " + sized(l, 0) + " : " + indexed("rank", i) +
                         " + " + (l > 1 ? concat({sized(l - 1, 0), inc}) : inc) + ")");
  }
  m.wire_assign("rank_upd", n * l, concat(new_ranks));
  m.wire_assign("valid_upd", n, "dec_valid_q & ~(" + repeat(n, "op_shoot") + " & match_sd)");
}

// The candidate segment: updated entries, and for a fill the new entry in way
// 0 with the old entry 0 moved to the chosen way.
void candidate(Module& m, const LdsCtrlParams& p) {
  const unsigned n = p.ways;
  m.comment("candidate: loaded in CMP");
  m.wire_assign("st_cmp", 1, state_is(kCmp));
  for (const Field& f : entry_fields(p)) {
    auto updated = [&](unsigned i) {
      if (f.name == "valid") return slice("valid_upd", i, 1);
      if (f.name == "lru") return field("rank_upd", i, f.width);
      return field("dec_" + f.name + "_q", i, f.width);
    };
    const string fresh = f.name == "valid" ? "1'b1" : f.name == "lru" ? sized(f.width, 0)
                                                                       : "key_" + f.name + "_q";
    std::vector<string> parts;
    for (unsigned i = n; i-- > 0;) {
      if (i == 0)
        parts.push_back("(op_fill ? " + fresh + " : " + updated(0) + ")");
      else
        parts.push_back("((op_fill & " + slice("way_oh", i, 1) + ") ? " + updated(0) + " : " +
                        updated(i) + ")");
    }
    const string name = "cand_" + f.name;
    m.flop(name, n * f.width);
    m.assign(name + "_d", "st_cmp ? " + concat(parts) + " : " + name + "_q");
  }
}

// The word written back: bd_codec pack of the candidate (or, for a fill that
// initialises a free segment, of the new entry alone) and the segment image.
// One bd_codec pack instance and the segment image it gives, from per-entry
// source vectors src_<field>_<tag>.
void packed_image(Module& m, const LdsCtrlParams& p, const string& tag) {
  const unsigned n = p.ways;
  auto src = [&](const string& f) { return "src_" + f + "_" + tag; };
  m.wire("pk_packed_" + tag, p.codec.packed_bits);
  m.wire("unused_pk_fits_" + tag, 1);
  m.wire("pk_dropped_" + tag, n);
  m.instance(p.codec.module_prefix + "_pack", "u_pack_" + tag,
             {{"tag_valid_i", src("valid")},
              {"tag_lru_i", src("lru")},
              {"tag_vmid_i", src("vmid")},
              {"tag_vrf_i", src("vrf")},
              {"tag_va_i", src("va")},
              {"packed_o", "pk_packed_" + tag},
              {"fits_o", "unused_pk_fits_" + tag},
              {"dropped_o", "pk_dropped_" + tag}});
  std::vector<string> parts = {zeros_if(pad_words(p) * kWordBits)};
  for (unsigned i = n; i-- > 0;)
    parts.push_back(concat({zeros_if(slot_pad_bits(p)), field(src("perm"), i, p.perm_bits),
                            field(src("ppn"), i, p.ppn_bits)}));
  parts.push_back("pk_packed_" + tag);
  m.wire_assign("image_" + tag, segment_bits(p), concat(parts));
}

// The segment images written: the candidate's (WRITE), and for a fill that
// initialises a free segment the new entry alone (ISSUE). Two pack instances:
// the second sees constant valid bits and reduces to wiring in synthesis, and
// the state select sits after both instead of in front of one.
void pack_image(Module& m, const LdsCtrlParams& p) {
  const unsigned n = p.ways;
  m.comment("segment images: packed tag word, slots, padding");
  for (const Field& f : entry_fields(p)) {
    const string init = f.name == "valid" ? "1'b1" : f.name == "lru" ? sized(f.width, 0) : "key_" + f.name + "_q";
    m.wire_assign("src_" + f.name + "_init", n * f.width, concat({zeros_if((n - 1) * f.width), init}));
    m.wire_assign("src_" + f.name + "_cand", n * f.width, "cand_" + f.name + "_q");
  }
  packed_image(m, p, "init");
  packed_image(m, p, "cand");
  m.wire_assign("unused_pk_dropped_init", n, "pk_dropped_init");
  m.wire_assign("pk_dropped", n, "pk_dropped_cand");
  m.flop("in_issue", 1);  // = next state is ISSUE: a register to select the image
  m.wire_assign("seg_image", segment_bits(p), "in_issue_q ? image_init : image_cand");
}

// ---------------------------------------------------------------------------
// SRAM port: the application first, the engine in idle cycles

void sram_drive(Module& m, const LdsCtrlParams& p) {
  const unsigned sb = segment_bits(p), nb = p.banks, si = p.segment_index_bits;
  m.comment("SRAM port: application accesses always win");
  m.wire_assign("st_write", 1, state_is(kWrite));
  m.wire_assign("tfree", 1, "~app_valid_i");
  m.wire_assign("wr_go", 1, "st_write & tfree");
  m.wire_assign("wr_commit", 1, "wr_go & mode_cur");
  m.wire_assign("eng_en", 1, "rd_fire | init_fire | wr_commit");
  m.wire_assign("eng_we", 1, "init_fire | wr_commit");
  if (p.segments_per_row > 1) m.wire_assign("eng_pos", pos_bits(p), slice("seg_q", 0, pos_bits(p)));
  const unsigned bps = p.banks_per_segment, tag_banks = p.tag_words * p.banks_per_word;
  m.wire_assign("bank_full", nb, by_position(p, "eng_pos", nb, [&](unsigned j) {
                  return sized(nb, bank_mask(j * bps, bps));
                }));
  m.wire_assign("bank_tag", nb, by_position(p, "eng_pos", nb, [&](unsigned j) {
                  return sized(nb, bank_mask(j * bps, tag_banks));
                }));
  // Address and data are not gated by the enables: they matter only with
  // sram_en_o (address) and sram_we_o (data), and gating them would put the
  // mode-bit read on the 1000-bit data path.
  m.wire_assign("eng_bank", nb, "(st_write & ~op_fill) ? bank_tag : bank_full");
  std::vector<string> placed;
  for (unsigned j = p.segments_per_row; j-- > 0;)
    placed.push_back(p.segments_per_row == 1
                         ? "seg_image"
                         : "(" + repeat(sb, "(eng_pos == " + sized(pos_bits(p), j) + ")") + " & seg_image)");
  m.wire_assign("eng_wdata", p.row_bits, concat(placed));
  const unsigned ri = p.row_index_bits;
  m.wire_assign("eng_row", ri, slice("seg_q", si - ri, ri));
  m.assign("sram_en_o", "app_valid_i | eng_en");
  m.assign("sram_we_o", "app_valid_i ? app_we_i : eng_we");
  m.assign("sram_row_o", "app_valid_i ? app_row_i : eng_row");
  m.assign("sram_bank_en_o", "app_valid_i ? app_bank_en_i : eng_bank");
  m.assign("sram_wdata_o", "app_valid_i ? app_wdata_i : eng_wdata");
}

// ---------------------------------------------------------------------------
// Lookup response register

void response(Module& m, const LdsCtrlParams& p) {
  m.comment("lookup response: miss/bypass at once for LDS-mode, else after CMP");
  m.flop("resp_valid", 1);
  m.flop("resp_hit", 1);
  m.flop("resp_ppn", p.ppn_bits);
  m.flop("resp_perm", p.perm_bits);
  m.wire_assign("lk_bypass", 1, "issue_go & op_lookup & ~mode_cur");
  m.wire_assign("resp_cmp", 1, "st_cmp & op_lookup");
  m.assign("resp_valid_d", "lk_bypass | resp_cmp | (resp_valid_q & ~lk_resp_ready_i)");
  m.assign("resp_hit_d", priority({{"lk_bypass", "1'b0"}, {"resp_cmp", "any_hit"}}, "resp_hit_q"));
  for (const auto& [f, w] : {std::pair<string, unsigned>{"ppn", p.ppn_bits}, {"perm", p.perm_bits}})
    m.assign("resp_" + f + "_d",
             priority({{"lk_bypass", sized(w, 0)},
                       {"resp_cmp", onehot_select("hit_oh", "dec_" + f + "_q", p.ways, w)}},
                      "resp_" + f + "_q"));
  m.assign("lk_resp_valid_o", "resp_valid_q");
  m.assign("lk_resp_hit_o", "resp_hit_q");
  m.assign("lk_resp_ppn_o", "resp_ppn_q");
  m.assign("lk_resp_perm_o", "resp_perm_q");
}

// ---------------------------------------------------------------------------
// Victims: pend bit 0 is the ev register (LRU-evicted entry, a bypassed fill
// or a fill whose write was cancelled), bit i >= 1 the dropped candidate way i.

void evict_register(Module& m, const LdsCtrlParams& p) {
  m.wire_assign("wr_cancel_fill", 1, "wr_go & ~mode_cur & op_fill");
  for (const Field& f : entry_fields(p)) {
    if (f.name == "valid" || f.name == "lru") continue;
    m.flop("ev_" + f.name, f.width);
    m.assign("ev_" + f.name + "_d",
             priority({{"bypass_fire | wr_cancel_fill", "key_" + f.name + "_q"},
                       {"st_cmp & op_fill", onehot_select("lru_oh", "dec_" + f.name + "_q", p.ways, f.width)}},
                      "ev_" + f.name + "_q"));
  }
  m.flop("ev_flag", 1);
  m.assign("ev_flag_d", "(st_cmp & op_fill) ? (full & ~any_hit) : ev_flag_q");
}

void victims(Module& m, const LdsCtrlParams& p) {
  const unsigned n = p.ways;
  m.comment("victims towards the I-cache, one per handshake");
  evict_register(m, p);
  m.wire_assign("st_vic", 1, state_is(kVic));
  m.flop("pend", n);
  lowest_one(m, "vic_first", "pend_q", n);
  m.wire_assign("wr_fill", 1, "wr_go & op_fill");
  m.wire_assign("unused_pk_dropped0", 1, slice("pk_dropped", 0, 1));
  m.assign("pend_d", priority({{"bypass_fire | wr_cancel_fill", sized(n, 1)},
                               {"wr_fill", concat({slice("pk_dropped", 1, n - 1), "ev_flag_q"})},
                               {"st_vic", "pend_q & ~(" + repeat(n, "vic_ready_i") + " & vic_first)"}},
                              "pend_q"));
  m.wire_assign("vic_last", 1, "st_vic & vic_ready_i & ((pend_q & ~vic_first) == " + sized(n, 0) + ")");
  m.assign("vic_valid_o", "st_vic");
  for (const Field& f : entry_fields(p)) {
    if (f.name == "valid" || f.name == "lru") continue;
    std::vector<string> terms = {"(" + repeat(f.width, slice("vic_first", 0, 1)) + " & ev_" + f.name + "_q)"};
    for (unsigned i = 1; i < n; ++i)
      terms.push_back("(" + repeat(f.width, slice("vic_first", i, 1)) + " & " +
                      field("cand_" + f.name + "_q", i, f.width) + ")");
    const string out = f.name == "va" ? "vic_va" : "vic_" + f.name + "_o";
    if (f.name == "va") m.wire("vic_va", f.width);
    m.assign(out, or_of(terms, ""));
  }
  m.assign("vic_vpn_o", concat({"vic_va", "(" + repeat(p.segment_index_bits, "st_vic") + " & seg_q)"}));
}

// ---------------------------------------------------------------------------
// Engine state, request registers and done pulses

void engine_state(Module& m, const LdsCtrlParams& p) {
  auto st = [](State s) { return sized(kStateBits, s); };
  auto op = [](Op o) { return sized(kStateBits, o); };
  m.comment("engine state");
  m.flop("state", kStateBits);
  m.flop("op", kStateBits);
  m.wire_assign("cmp_write", 1, "op_fill | (op_lookup & any_hit) | (op_shoot & any_sd)");
  const string idle_next = "(" + priority({{"wg_fire", st(kWg)},
                                           {"sd_all_fire", st(kClear)},
                                           {"key_fire", st(kIssue)}},
                                          st(kIdle)) + ")";
  const string issue_next = "(" + priority({{"~issue_go", st(kIssue)},
                                            {"rd_fire", st(kDec)},
                                            {"bypass_fire", st(kVic)}},
                                           st(kIdle)) + ")";
  const string write_next = "(" + priority({{"~tfree", st(kWrite)}, {"op_fill & (|pend_d)", st(kVic)}},
                                           st(kIdle)) + ")";
  m.assign("in_issue_d", "state_d == " + st(kIssue));
  m.assign("state_d", priority({{"st_clear", "(clear_last ? " + st(kIdle) + " : " + st(kClear) + ")"},
                                {"st_idle", idle_next},
                                {"st_issue", issue_next},
                                {"st_wg", "((wg_alloc_go & ~wg_empty) ? " + st(kClear) + " : " + st(kIdle) + ")"},
                                {"st_dec", st(kCmp)},
                                {"st_cmp", "(cmp_write ? " + st(kWrite) + " : " + st(kIdle) + ")"},
                                {"st_write", write_next},
                                {"st_vic", "(vic_last ? " + st(kIdle) + " : " + st(kVic) + ")"}},
                               st(kIdle)));
  m.assign("op_d", priority({{"wg_alloc_go", op(kOpAlloc)}, {"sd_fire", op(kOpShoot)},
                             {"lk_fire", op(kOpLookup)}, {"fill_fire", op(kOpFill)}},
                            "op_q"));
  m.flop("seg", p.segment_index_bits);
  m.assign("seg_d", "key_fire ? acc_seg : seg_q");
  const Cases keys = {{"va", "acc_va"}, {"vmid", "acc_vmid"}, {"vrf", "acc_vrf"}};
  const unsigned widths[] = {p.va_tag_bits, p.vmid_bits, p.vrf_bits};
  for (unsigned i = 0; i < keys.size(); ++i) {
    m.flop("key_" + keys[i].first, widths[i]);
    m.assign("key_" + keys[i].first + "_d", "key_fire ? " + keys[i].second + " : key_" + keys[i].first + "_q");
  }
  m.flop("key_ppn", p.ppn_bits);
  m.assign("key_ppn_d", "fill_fire ? fill_ppn_i : key_ppn_q");
  m.flop("key_perm", p.perm_bits);
  m.assign("key_perm_d", "fill_fire ? fill_perm_i : key_perm_q");
}

void done_pulses(Module& m) {
  m.flop("wg_done", 1);
  m.flop("sd_done", 1);
  const string shoot = op_is(kOpShoot);
  m.assign("wg_done_d", "(st_wg & (wgr_free_q | wg_empty)) | (clear_last & " + op_is(kOpAlloc) + ")");
  m.assign("sd_done_d", "(issue_go & " + shoot + " & ~mode_cur) | (st_cmp & " + shoot +
                            " & ~any_sd) | (wr_go & " + shoot + ") | (clear_last & " + shoot + ")");
  m.assign("wg_done_o", "wg_done_q");
  m.assign("sd_done_o", "sd_done_q");
}

}  // namespace

void datapath(Module& m, const LdsCtrlParams& p) {
  segment_read(m, p);
  decompressed_register(m, p);
  way_choice(m, p);
  candidate(m, p);
  pack_image(m, p);
  sram_drive(m, p);
  response(m, p);
  victims(m, p);
  engine_state(m, p);
  done_pulses(m);
}

}  // namespace txgen::blocks::lds
