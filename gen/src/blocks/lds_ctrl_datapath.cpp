// lds_ctrl engine datapath (docs/blocks/lds_ctrl.md, "Engine"): the segment
// read and compare (CMP), the candidate and its packed write-back, the SRAM
// port, the lookup response, the victim buffer and the engine state.
#include <string>
#include <vector>

#include "txgen/blocks/lds_ctrl_emit.h"
#include "txgen/elab/bits.h"

namespace txgen::blocks::lds {
namespace {

using elab::LdsCtrlParams;
using hdl::any;
using hdl::cat;
using hdl::gate;
using hdl::Interface;
using hdl::lit;
using hdl::mux;
using hdl::one_bit;
using hdl::onehot_select;
using hdl::or_of;
using hdl::priority;
using hdl::Reg;
using hdl::Value;
using hdl::Wire;
using hdl::zero;
using hdl::zext;
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
// The fields the bd_codec tag word holds.
std::vector<Field> tag_fields(const LdsCtrlParams& p) {
  const std::vector<Field> all = entry_fields(p);
  return {all.begin(), all.begin() + 5};
}
// The fields a victim carries.
std::vector<Field> victim_fields(const LdsCtrlParams& p) {
  const std::vector<Field> all = entry_fields(p);
  return {all.begin() + 2, all.end()};
}

unsigned pos_bits(const LdsCtrlParams& p) { return elab::log2_exact(p.segments_per_row); }
unsigned segment_bits(const LdsCtrlParams& p) { return p.segment_bytes * 8; }
unsigned pad_words(const LdsCtrlParams& p) { return p.segment_words - p.tag_words - p.ways; }
unsigned slot_pad_bits(const LdsCtrlParams& p) { return kWordBits - p.ppn_bits - p.perm_bits; }

// Bit mask of `count` banks starting at bank `first`.
unsigned long long bank_mask(unsigned first, unsigned count) {
  const unsigned long long ones = count >= 64 ? ~0ull : (1ull << count) - 1;
  return ones << first;
}

// The ports of the bd_codec pack (dir "_i", with packed_o, fits_o,
// dropped_o) or unpack (dir "_o", with packed_i) module.
Interface codec_interface(const LdsCtrlParams& p, bool pack) {
  const string dir = pack ? "_i" : "_o";
  Interface i{p.codec.module_prefix + (pack ? "_pack" : "_unpack"), {}};
  if (!pack) i.ports.push_back({"packed_i", false, p.codec.packed_bits});
  for (const Field& f : tag_fields(p)) i.ports.push_back({"tag_" + f.name + dir, !pack, p.ways * f.width});
  if (pack) {
    i.ports.push_back({"packed_o", true, p.codec.packed_bits});
    i.ports.push_back({"fits_o", true, 1});
    i.ports.push_back({"dropped_o", true, p.ways});
  }
  return i;
}

// Per-position selection: OR over segment positions j of ({w{pos == j}} & value(j)).
template <typename ValueOf>
Value by_position(const LdsCtrlParams& p, const Value& pos, unsigned width, ValueOf value_of) {
  if (p.segments_per_row == 1) return value_of(0u);
  std::vector<Value> terms;
  for (unsigned j = 0; j < p.segments_per_row; ++j) terms.push_back(gate(pos == j, value_of(j)));
  return or_of(terms, zero(width));
}

// The segment position within its SRAM row, when a row holds several.
Value position(Ctl& c, const string& name) {
  return c.p.segments_per_row > 1 ? c.def(name, c["seg_q"].slice(0, pos_bits(c.p))) : Value();
}

// A translation's "new entry" value of field f: valid, rank 0, or the key.
Value fresh(Ctl& c, const Field& f) {
  if (f.name == "valid") return one_bit(true);
  if (f.name == "lru") return zero(f.width);
  return c["key_" + f.name + "_q"];
}

// ---------------------------------------------------------------------------
// CMP: the segment read in the accept cycle, unpacked

void segment_read(Ctl& c) {
  const LdsCtrlParams& p = c.p;
  const unsigned sb = segment_bits(p), n = p.ways;
  c.m.comment("CMP: the segment of seg_q from the SRAM read data");
  const Value rd_pos = position(c, "rd_pos");
  const Value seg = c.def("seg_data", by_position(p, rd_pos, sb, [&](unsigned j) {
                            return c["sram_rdata_i"].slice(j * sb, sb);
                          }));
  std::vector<std::pair<string, Value>> conns = {{"packed_i", seg.slice(0, p.codec.packed_bits)}};
  for (const Field& f : entry_fields(p)) c.later("rd_" + f.name, n * f.width);
  for (const Field& f : tag_fields(p)) conns.push_back({"tag_" + f.name + "_o", c["rd_" + f.name]});
  c.m.instance(codec_interface(p, false), "u_unpack", conns);
  std::vector<Value> ppn, perm, unused;
  for (unsigned i = n; i-- > 0;) {
    const unsigned lsb = (p.tag_words + i) * kWordBits;
    ppn.push_back(seg.slice(lsb, p.ppn_bits));
    perm.push_back(seg.slice(lsb + p.ppn_bits, p.perm_bits));
    if (slot_pad_bits(p)) unused.push_back(seg.slice(lsb + p.ppn_bits + p.perm_bits, slot_pad_bits(p)));
  }
  c.def("rd_ppn", cat(ppn));
  c.def("rd_perm", cat(perm));
  if (pad_words(p)) unused.push_back(seg.slice((p.tag_words + n) * kWordBits, pad_words(p) * kWordBits));
  if (!unused.empty()) c.def("unused_seg_data", cat(unused));
}

// entry j comes before entry i in (lru, index) order
Value lru_before(const Value& lru, unsigned l, unsigned j, unsigned i) {
  const Value lru_j = lru.field(j, l), lru_i = lru.field(i, l);
  return j < i ? lru_j <= lru_i : lru_j < lru_i;
}

// The key comparisons of the read entries (a shootdown matches any VRF-ID):
// CMP then starts from registered match vectors.
void read_matches(Ctl& c) {
  const LdsCtrlParams& p = c.p;
  const Wire match_sd = c.later("rd_match_sd", p.ways), match = c.later("rd_match", p.ways);
  for (unsigned i = 0; i < p.ways; ++i) {
    c.m.assign(match_sd.bit(i), c["rd_valid"].bit(i) & (c["rd_va"].field(i, p.va_tag_bits) == c["key_va_q"]) &
                                    (c["rd_vmid"].field(i, p.vmid_bits) == c["key_vmid_q"]));
    c.m.assign(match.bit(i), match_sd.bit(i) & (c["rd_vrf"].field(i, p.vrf_bits) == c["key_vrf_q"]));
  }
}

// DEC: the unpacked entries and slots, registered (the decompression stage).
void decompressed_register(Ctl& c) {
  const unsigned n = c.p.ways, l = c.p.codec.lru_bits;
  c.m.comment("DEC: decompressed segment register");
  const Value st_dec = c.def("st_dec", c.state_is(kDec));
  for (const Field& f : entry_fields(c.p)) c.reg("dec_" + f.name, n * f.width).next_if(st_dec, c["rd_" + f.name]);
  read_matches(c);
  // and the LRU way (the valid entry every other valid entry comes before in
  // (lru, index) order; used when all are valid), off the CMP path.
  const Wire lru_oh = c.later("rd_lru_oh", n);
  for (unsigned i = 0; i < n; ++i) {
    Value all_before = c["rd_valid"].bit(i);
    for (unsigned j = 0; j < n; ++j)
      if (j != i) all_before = all_before & lru_before(c["rd_lru"], l, j, i);
    c.m.assign(lru_oh.bit(i), all_before);
  }
  const Value hit_oh = hdl::lowest_one(c.m.top(), "rd_hit_oh", c["rd_match"]);
  const Value inv_oh = hdl::lowest_one(c.m.top(), "rd_inv_oh", c.def("rd_invalid", ~c["rd_valid"]));
  const std::vector<std::pair<string, Value>> onehots = {
      {"match_sd", c["rd_match_sd"]}, {"hit_oh", hit_oh}, {"inv_oh", inv_oh}, {"lru_oh", lru_oh}};
  for (const auto& [name, v] : onehots) c.reg("dec_" + name, n).next_if(st_dec, v);
}

// Rank normalisation, matches, the way a fill takes and the updated ranks.
// prec_i_j = "valid entry j comes before entry i in (lru, index) order"; the
// normalised rank of i is the number of such j, the LRU way is the valid one
// all others precede, and an update increments exactly the entries whose
// rank is below the touched or inserted way's: for a touch of m those that
// precede m, for an insertion every valid entry. Deriving all three from the
// comparison matrix keeps the rank sums off the update path.
std::vector<Value> ranks(Ctl& c) {
  const unsigned n = c.p.ways, l = c.p.codec.lru_bits;
  std::vector<std::vector<Value>> prec(n, std::vector<Value>(n));
  for (unsigned i = 0; i < n; ++i)
    for (unsigned j = 0; j < n; ++j)
      if (j != i)
        prec[i][j] = c.def("prec_" + to_string(i) + "_" + to_string(j),
                           c["dec_valid_q"].bit(j) & lru_before(c["dec_lru_q"], l, j, i));
  const Wire touch_inc = c.later("touch_inc", n);
  std::vector<Value> rank;
  for (unsigned i = 0; i < n; ++i) {
    Value sum, touch;
    for (unsigned j = 0; j < n; ++j) {
      if (j == i) continue;
      sum = sum.valid() ? sum + zext(prec[i][j], l) : zext(prec[i][j], l);
      const Value touched_before = c["hit_oh"].bit(j) & prec[j][i];
      touch = touch.valid() ? touch | touched_before : touched_before;
    }
    rank.push_back(c.def(indexed("rank", i), sum));
    c.m.assign(touch_inc.bit(i), touch);
  }
  return rank;
}

void way_choice(Ctl& c) {
  const unsigned n = c.p.ways, l = c.p.codec.lru_bits;
  c.m.comment("ranks renumbered 0..v-1 in (lru, index) order; way choice and rank update");
  const Value lru_oh = c.def("lru_oh", c["dec_lru_oh_q"]);
  const Value match_sd = c.def("match_sd", c["dec_match_sd_q"]);
  const Value hit_oh = c.def("hit_oh", c["dec_hit_oh_q"]);
  const Value inv_oh = c.def("inv_oh", c["dec_inv_oh_q"]);
  const std::vector<Value> rank = ranks(c);
  const Value valid = c["dec_valid_q"];
  const Value any_hit = c.def("any_hit", any(hit_oh));
  c.def("any_sd", any(match_sd));
  const Value full = c.def("full", hdl::all(valid));
  const Value way_oh = c.def("way_oh", mux(any_hit, hit_oh, mux(full, lru_oh, inv_oh)));
  const Value upd = c.def("upd", ~c["op_shoot"]);
  const Value inc = c.def("rank_inc", gate(upd, mux(any_hit, c["touch_inc"], valid)));
  std::vector<Value> new_ranks;
  for (unsigned i = 0; i < n; ++i)
    new_ranks.push_back(mux(upd & way_oh.bit(i), zero(l), rank[i] + zext(inc.bit(i), l)));
  c.def("rank_upd", hdl::cat_lsb_first(new_ranks));
  c.def("valid_upd", valid & ~gate(c["op_shoot"], match_sd));
}

// The candidate segment: updated entries, and for a fill the new entry in way
// 0 with the old entry 0 moved to the chosen way.
void candidate(Ctl& c) {
  const unsigned n = c.p.ways;
  c.m.comment("candidate: loaded in CMP");
  const Value st_cmp = c.def("st_cmp", c.state_is(kCmp)), op_fill = c["op_fill"];
  for (const Field& f : entry_fields(c.p)) {
    auto updated = [&](unsigned i) {
      if (f.name == "valid") return c["valid_upd"].bit(i);
      if (f.name == "lru") return c["rank_upd"].field(i, f.width);
      return c["dec_" + f.name + "_q"].field(i, f.width);
    };
    std::vector<Value> ways = {mux(op_fill, fresh(c, f), updated(0))};
    for (unsigned i = 1; i < n; ++i) ways.push_back(mux(op_fill & c["way_oh"].bit(i), updated(0), updated(i)));
    c.reg("cand_" + f.name, n * f.width).next_if(st_cmp, hdl::cat_lsb_first(ways));
  }
}

// The word written back: bd_codec pack of the candidate (or, for a fill that
// initialises a free segment, of the new entry alone) and the segment image.
// One bd_codec pack instance and the segment image it gives, from per-entry
// source vectors src_<field>_<tag>.
void packed_image(Ctl& c, const string& tag) {
  const LdsCtrlParams& p = c.p;
  auto src = [&](const string& f) { return c["src_" + f + "_" + tag]; };
  const Wire packed = c.later("pk_packed_" + tag, p.codec.packed_bits);
  std::vector<std::pair<string, Value>> conns;
  for (const Field& f : tag_fields(p)) conns.push_back({"tag_" + f.name + "_i", src(f.name)});
  conns.push_back({"packed_o", packed});
  conns.push_back({"fits_o", c.later("unused_pk_fits_" + tag, 1)});
  conns.push_back({"dropped_o", c.later("pk_dropped_" + tag, p.ways)});
  c.m.instance(codec_interface(p, true), "u_pack_" + tag, conns);
  std::vector<Value> parts;
  if (pad_words(p)) parts.push_back(zero(pad_words(p) * kWordBits));
  for (unsigned i = p.ways; i-- > 0;) {
    if (slot_pad_bits(p)) parts.push_back(zero(slot_pad_bits(p)));
    parts.push_back(src("perm").field(i, p.perm_bits));
    parts.push_back(src("ppn").field(i, p.ppn_bits));
  }
  parts.push_back(packed);
  c.def("image_" + tag, cat(parts));
}

// The segment images written: the candidate's (WRITE), and for a fill that
// initialises a free segment the new entry alone (ISSUE). Two pack instances:
// the second sees constant valid bits and reduces to wiring in synthesis, and
// the state select sits after both instead of in front of one.
void pack_image(Ctl& c) {
  const unsigned n = c.p.ways;
  c.m.comment("segment images: packed tag word, slots, padding");
  for (const Field& f : entry_fields(c.p)) {
    c.def("src_" + f.name + "_init", zext(fresh(c, f), n * f.width));
    c.def("src_" + f.name + "_cand", c["cand_" + f.name + "_q"]);
  }
  packed_image(c, "init");
  packed_image(c, "cand");
  c.def("unused_pk_dropped_init", c["pk_dropped_init"]);
  c.def("pk_dropped", c["pk_dropped_cand"]);
  const Reg in_issue = c.reg("in_issue", 1);  // = next state is ISSUE: a register to select the image
  c.def("seg_image", mux(in_issue, c["image_init"], c["image_cand"]));
}

// ---------------------------------------------------------------------------
// SRAM port: the application first, the engine in idle cycles

// The engine's bank enables and write data for its segment's position.
void engine_access(Ctl& c) {
  const LdsCtrlParams& p = c.p;
  const unsigned nb = p.banks, bps = p.banks_per_segment, tag_banks = p.tag_words * p.banks_per_word;
  const Value pos = position(c, "eng_pos");
  const Value full = c.def("bank_full", by_position(p, pos, nb, [&](unsigned j) {
                             return lit(nb, bank_mask(j * bps, bps));
                           }));
  const Value tag = c.def("bank_tag", by_position(p, pos, nb, [&](unsigned j) {
                            return lit(nb, bank_mask(j * bps, tag_banks));
                          }));
  // Address and data are not gated by the enables: they matter only with
  // sram_en_o (address) and sram_we_o (data), and gating them would put the
  // mode-bit read on the 1000-bit data path.
  c.def("eng_bank", mux(c["st_write"] & ~c["op_fill"], tag, full));
  std::vector<Value> placed;
  for (unsigned j = p.segments_per_row; j-- > 0;)
    placed.push_back(p.segments_per_row == 1 ? c["seg_image"] : gate(pos == j, c["seg_image"]));
  c.def("eng_wdata", cat(placed));
  c.def("eng_row", c["seg_q"].slice(p.segment_index_bits - p.row_index_bits, p.row_index_bits));
}

void sram_drive(Ctl& c) {
  c.m.comment("SRAM port: application accesses always win");
  const Value st_write = c.def("st_write", c.state_is(kWrite));
  const Value app = c["app_valid_i"];
  const Value wr_go = c.def("wr_go", st_write & c.def("tfree", ~app));
  const Value wr_commit = c.def("wr_commit", wr_go & c["mode_cur"]);
  const Value eng_en = c.def("eng_en", c["rd_fire"] | c["init_fire"] | wr_commit);
  const Value eng_we = c.def("eng_we", c["init_fire"] | wr_commit);
  engine_access(c);
  c.def("sram_en_o", app | eng_en);
  c.def("sram_we_o", mux(app, c["app_we_i"], eng_we));
  c.def("sram_row_o", mux(app, c["app_row_i"], c["eng_row"]));
  c.def("sram_bank_en_o", mux(app, c["app_bank_en_i"], c["eng_bank"]));
  c.def("sram_wdata_o", mux(app, c["app_wdata_i"], c["eng_wdata"]));
}

// ---------------------------------------------------------------------------
// Lookup response register

void response(Ctl& c) {
  const LdsCtrlParams& p = c.p;
  c.m.comment("lookup response: miss/bypass at once for LDS-mode, else after CMP");
  const Reg valid = c.reg("resp_valid"), hit = c.reg("resp_hit", 1);
  const Value bypass = c.def("lk_bypass", c["issue_go"] & c["op_lookup"] & ~c["mode_cur"]);
  const Value cmp = c.def("resp_cmp", c["st_cmp"] & c["op_lookup"]);
  valid.next(bypass | cmp | (valid & ~c["lk_resp_ready_i"]));
  hit.next(priority({{bypass, one_bit(false)}, {cmp, c["any_hit"]}}, hit));
  for (const Field& f : {Field{"ppn", p.ppn_bits}, Field{"perm", p.perm_bits}}) {
    const Reg r = c.reg("resp_" + f.name, f.width);
    r.next(priority({{bypass, zero(f.width)},
                     {cmp, onehot_select(c["hit_oh"], c["dec_" + f.name + "_q"], p.ways, f.width)}},
                    r));
    c.def("lk_resp_" + f.name + "_o", r);
  }
  c.def("lk_resp_valid_o", valid);
  c.def("lk_resp_hit_o", hit);
}

// ---------------------------------------------------------------------------
// Victims: pend bit 0 is the ev register (LRU-evicted entry, a bypassed fill
// or a fill whose write was cancelled), bit i >= 1 the dropped candidate way i.

void evict_register(Ctl& c) {
  const Value cancel = c.def("wr_cancel_fill", c["wr_go"] & ~c["mode_cur"] & c["op_fill"]);
  const Value from_key = c["bypass_fire"] | cancel, cmp_fill = c["st_cmp"] & c["op_fill"];
  for (const Field& f : victim_fields(c.p)) {
    const Reg ev = c.reg("ev_" + f.name, f.width);
    ev.next(priority({{from_key, c["key_" + f.name + "_q"]},
                      {cmp_fill, onehot_select(c["lru_oh"], c["dec_" + f.name + "_q"], c.p.ways, f.width)}},
                     ev));
  }
  const Reg flag = c.reg("ev_flag", 1);
  flag.next_if(cmp_fill, c["full"] & ~c["any_hit"]);
}

// The victim's fields: ev for pend bit 0, the candidate's way i for bit i.
void victim_out(Ctl& c, const Value& first) {
  for (const Field& f : victim_fields(c.p)) {
    std::vector<Value> terms = {gate(first.bit(0), c["ev_" + f.name + "_q"])};
    for (unsigned i = 1; i < c.p.ways; ++i) terms.push_back(gate(first.bit(i), c["cand_" + f.name + "_q"].field(i, f.width)));
    c.def(f.name == "va" ? "vic_va" : "vic_" + f.name + "_o", or_of(terms, zero(f.width)));
  }
  c.def("vic_vpn_o", cat({c["vic_va"], gate(c["st_vic"], c["seg_q"])}));
}

void victims(Ctl& c) {
  const unsigned n = c.p.ways;
  c.m.comment("victims towards the I-cache, one per handshake");
  evict_register(c);
  const Value st_vic = c.def("st_vic", c.state_is(kVic));
  const Reg pend = c.reg("pend", n);
  const Value first = hdl::lowest_one(c.m.top(), "vic_first", pend);
  const Value wr_fill = c.def("wr_fill", c["wr_go"] & c["op_fill"]);
  const Value dropped = c["pk_dropped"], ready = c["vic_ready_i"];
  c.def("unused_pk_dropped0", dropped.bit(0));
  pend.next(priority({{c["bypass_fire"] | c["wr_cancel_fill"], lit(n, 1)},
                      {wr_fill, cat({dropped.slice(1, n - 1), c["ev_flag_q"]})},
                      {st_vic, pend & ~gate(ready, first)}},
                     pend));
  c.def("vic_last", st_vic & ready & ((pend & ~first) == 0));
  c.def("vic_valid_o", st_vic);
  victim_out(c, first);
}

// ---------------------------------------------------------------------------
// Engine state, request registers and done pulses

Value st(State s) { return lit(kStateBits, s); }

Value next_state(Ctl& c) {
  const Value idle_next =
      priority({{c["wg_fire"], st(kWg)}, {c["sd_all_fire"], st(kClear)}, {c["key_fire"], st(kIssue)}}, st(kIdle));
  const Value issue_next =
      priority({{~c["issue_go"], st(kIssue)}, {c["rd_fire"], st(kDec)}, {c["bypass_fire"], st(kVic)}}, st(kIdle));
  const Value write_next =
      priority({{~c["tfree"], st(kWrite)}, {c["op_fill"] & any(c.reg("pend").d()), st(kVic)}}, st(kIdle));
  return priority({{c["st_clear"], mux(c["clear_last"], st(kIdle), st(kClear))},
                   {c["st_idle"], idle_next},
                   {c["st_issue"], issue_next},
                   {c["st_wg"], mux(c["wg_alloc_go"] & ~c["wg_empty"], st(kClear), st(kIdle))},
                   {c["st_dec"], st(kCmp)},
                   {c["st_cmp"], mux(c["cmp_write"], st(kWrite), st(kIdle))},
                   {c["st_write"], write_next},
                   {c["st_vic"], mux(c["vic_last"], st(kIdle), st(kVic))}},
                  st(kIdle));
}

void engine_state(Ctl& c) {
  auto op = [](Op o) { return lit(kStateBits, o); };
  c.m.comment("engine state");
  c.def("cmp_write", c["op_fill"] | (c["op_lookup"] & c["any_hit"]) | (c["op_shoot"] & c["any_sd"]));
  const Reg state = c.reg("state");
  state.next(next_state(c));
  c.reg("in_issue").next(state.d() == kIssue);
  const Reg op_q = c.reg("op");
  op_q.next(priority({{c["wg_alloc_go"], op(kOpAlloc)}, {c["sd_fire"], op(kOpShoot)},
                      {c["lk_fire"], op(kOpLookup)}, {c["fill_fire"], op(kOpFill)}},
                     op_q));
  const Value key_fire = c["key_fire"];
  c.reg("seg").next_if(key_fire, c["acc_seg"]);
  for (const string f : {"va", "vmid", "vrf"}) c.reg("key_" + f).next_if(key_fire, c["acc_" + f]);
  for (const string f : {"ppn", "perm"}) c.reg("key_" + f).next_if(c["fill_fire"], c["fill_" + f + "_i"]);
}

void done_pulses(Ctl& c) {
  const Value shoot = c.op_is(kOpShoot), clear_last = c["clear_last"];
  const Reg wg_done = c.reg("wg_done", 1), sd_done = c.reg("sd_done", 1);
  wg_done.next((c["st_wg"] & (c["wgr_free_q"] | c["wg_empty"])) | (clear_last & c.op_is(kOpAlloc)));
  sd_done.next((c["issue_go"] & shoot & ~c["mode_cur"]) | (c["st_cmp"] & shoot & ~c["any_sd"]) |
               (c["wr_go"] & shoot) | (clear_last & shoot));
  c.def("wg_done_o", wg_done);
  c.def("sd_done_o", sd_done);
}

}  // namespace

void engine_registers(Ctl& c) {
  const LdsCtrlParams& p = c.p;
  c.reg("state", kStateBits);
  c.reg("op", kStateBits);
  c.reg("seg", p.segment_index_bits);
  for (const Field& f : victim_fields(p)) c.reg("key_" + f.name, f.width);
  c.reg("resp_valid", 1);
}

void datapath(Ctl& c) {
  segment_read(c);
  decompressed_register(c);
  way_choice(c);
  candidate(c);
  pack_image(c);
  sram_drive(c);
  response(c);
  victims(c);
  engine_state(c);
  done_pulses(c);
}

}  // namespace txgen::blocks::lds
