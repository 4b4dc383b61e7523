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

// One per-entry field of a translation: its name in the RTL, width and
// member of an Entry.
struct Field {
  string name;
  unsigned width;
  Value Entry::*of;
};

std::vector<Field> entry_fields(const LdsCtrlParams& p) {
  return {{"valid", 1, &Entry::valid},         {"lru", p.codec.lru_bits, &Entry::lru},
          {"vmid", p.vmid_bits, &Entry::vmid}, {"vrf", p.vrf_bits, &Entry::vrf},
          {"va", p.va_tag_bits, &Entry::va},   {"ppn", p.ppn_bits, &Entry::ppn},
          {"perm", p.perm_bits, &Entry::perm}};
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
  return c.p.segments_per_row > 1 ? c.m.wire(name, c.eng.seg.slice(0, pos_bits(c.p))) : Value();
}

// A translation's "new entry" value of field f: valid, rank 0, or the key.
Value fresh(const Ctl& c, const Field& f) {
  if (f.of == &Entry::valid) return one_bit(true);
  if (f.of == &Entry::lru) return zero(f.width);
  return c.eng.key().*f.of;
}

// A register loading v when `enable`.
Reg loaded(Ctl& c, const string& name, const Value& enable, const Value& v) {
  const Reg r = c.m.reg(name, v.width());
  r.next_if(enable, v);
  return r;
}

// ---------------------------------------------------------------------------
// CMP: the segment read in the accept cycle, unpacked

void segment_read(Ctl& c) {
  const LdsCtrlParams& p = c.p;
  Entry& rd = c.dp.rd;
  const unsigned sb = segment_bits(p), n = p.ways;
  c.m.comment("CMP: the segment of seg_q from the SRAM read data");
  const Value rd_pos = position(c, "rd_pos");
  const Value seg = c.m.wire("seg_data", by_position(p, rd_pos, sb, [&](unsigned j) {
                               return c.sram.sram_rdata_i.slice(j * sb, sb);
                             }));
  std::vector<std::pair<string, Value>> conns = {{"packed_i", seg.slice(0, p.codec.packed_bits)}};
  // the tag fields from the unpack instance, ppn and perm from the slots below
  for (const Field& f : entry_fields(p)) rd.*f.of = c.m.wire("rd_" + f.name, n * f.width);
  for (const Field& f : tag_fields(p)) conns.push_back({"tag_" + f.name + "_o", rd.*f.of});
  c.m.instance(codec_interface(p, false), "u_unpack", conns);
  std::vector<Value> ppn, perm, unused;
  for (unsigned i = n; i-- > 0;) {
    const unsigned lsb = (p.tag_words + i) * kWordBits;
    ppn.push_back(seg.slice(lsb, p.ppn_bits));
    perm.push_back(seg.slice(lsb + p.ppn_bits, p.perm_bits));
    if (slot_pad_bits(p)) unused.push_back(seg.slice(lsb + p.ppn_bits + p.perm_bits, slot_pad_bits(p)));
  }
  c.m.assign(rd.ppn, cat(ppn));
  c.m.assign(rd.perm, cat(perm));
  if (pad_words(p)) unused.push_back(seg.slice((p.tag_words + n) * kWordBits, pad_words(p) * kWordBits));
  if (!unused.empty()) c.m.wire("unused_seg_data", cat(unused));
}

// entry j comes before entry i in (lru, index) order
Value lru_before(const Value& lru, unsigned l, unsigned j, unsigned i) {
  const Value lru_j = lru.field(j, l), lru_i = lru.field(i, l);
  return j < i ? lru_j <= lru_i : lru_j < lru_i;
}

// The key comparisons of the read entries (a shootdown matches any VRF-ID):
// CMP then starts from registered match vectors. Returns {rd_match_sd, rd_match}.
std::pair<Value, Value> read_matches(Ctl& c) {
  const LdsCtrlParams& p = c.p;
  const Entry& rd = c.dp.rd;
  const EngineRegs& e = c.eng;
  const Wire match_sd = c.m.wire("rd_match_sd", p.ways), match = c.m.wire("rd_match", p.ways);
  for (unsigned i = 0; i < p.ways; ++i) {
    c.m.assign(match_sd.bit(i), rd.valid.bit(i) & (rd.va.field(i, p.va_tag_bits) == e.key_va) &
                                    (rd.vmid.field(i, p.vmid_bits) == e.key_vmid));
    c.m.assign(match.bit(i), match_sd.bit(i) & (rd.vrf.field(i, p.vrf_bits) == e.key_vrf));
  }
  return {match_sd, match};
}

// DEC: the unpacked entries and slots, registered (the decompression stage).
void decompressed_register(Ctl& c) {
  const unsigned n = c.p.ways, l = c.p.codec.lru_bits;
  Datapath& d = c.dp;
  c.m.comment("DEC: decompressed segment register");
  const Value st_dec = d.st_dec = c.m.wire("st_dec", c.state_is(kDec));
  for (const Field& f : entry_fields(c.p)) d.dec.*f.of = loaded(c, "dec_" + f.name, st_dec, d.rd.*f.of);
  const auto [match_sd, match] = read_matches(c);
  // and the LRU way (the valid entry every other valid entry comes before in
  // (lru, index) order; used when all are valid), off the CMP path.
  const Wire lru_oh = c.m.wire("rd_lru_oh", n);
  for (unsigned i = 0; i < n; ++i) {
    Value all_before = d.rd.valid.bit(i);
    for (unsigned j = 0; j < n; ++j)
      if (j != i) all_before = all_before & lru_before(d.rd.lru, l, j, i);
    c.m.assign(lru_oh.bit(i), all_before);
  }
  const Value hit_oh = hdl::lowest_one(c.m.top(), "rd_hit_oh", match);
  const Value inv_oh = hdl::lowest_one(c.m.top(), "rd_inv_oh", c.m.wire("rd_invalid", ~d.rd.valid));
  d.dec_match_sd = loaded(c, "dec_match_sd", st_dec, match_sd);
  d.dec_hit_oh = loaded(c, "dec_hit_oh", st_dec, hit_oh);
  d.dec_inv_oh = loaded(c, "dec_inv_oh", st_dec, inv_oh);
  d.dec_lru_oh = loaded(c, "dec_lru_oh", st_dec, lru_oh);
}

// The normalised ranks rank<i> and the entries a touch increments (touch_inc).
struct Ranks {
  std::vector<Value> rank;
  Value touch_inc;
};

// Rank normalisation, matches, the way a fill takes and the updated ranks.
// prec_i_j = "valid entry j comes before entry i in (lru, index) order"; the
// normalised rank of i is the number of such j, the LRU way is the valid one
// all others precede, and an update increments exactly the entries whose
// rank is below the touched or inserted way's: for a touch of m those that
// precede m, for an insertion every valid entry. Deriving all three from the
// comparison matrix keeps the rank sums off the update path.
Ranks ranks(Ctl& c) {
  const unsigned n = c.p.ways, l = c.p.codec.lru_bits;
  const Datapath& d = c.dp;
  std::vector<std::vector<Value>> prec(n, std::vector<Value>(n));
  for (unsigned i = 0; i < n; ++i)
    for (unsigned j = 0; j < n; ++j)
      if (j != i)
        prec[i][j] = c.m.wire("prec_" + to_string(i) + "_" + to_string(j),
                              d.dec.valid.bit(j) & lru_before(d.dec.lru, l, j, i));
  const Wire touch_inc = c.m.wire("touch_inc", n);
  std::vector<Value> rank;
  for (unsigned i = 0; i < n; ++i) {
    Value sum, touch;
    for (unsigned j = 0; j < n; ++j) {
      if (j == i) continue;
      sum = sum.valid() ? sum + zext(prec[i][j], l) : zext(prec[i][j], l);
      const Value touched_before = d.hit_oh.bit(j) & prec[j][i];
      touch = touch.valid() ? touch | touched_before : touched_before;
    }
    rank.push_back(c.m.wire(indexed("rank", i), sum));
    c.m.assign(touch_inc.bit(i), touch);
  }
  return {rank, touch_inc};
}

void way_choice(Ctl& c) {
  const unsigned n = c.p.ways, l = c.p.codec.lru_bits;
  Datapath& d = c.dp;
  const Value op_shoot = c.decode.op_shoot;
  c.m.comment("ranks renumbered 0..v-1 in (lru, index) order; way choice and rank update");
  d.lru_oh = c.m.wire("lru_oh", d.dec_lru_oh);
  const Value match_sd = c.m.wire("match_sd", d.dec_match_sd);
  d.hit_oh = c.m.wire("hit_oh", d.dec_hit_oh);
  const Value inv_oh = c.m.wire("inv_oh", d.dec_inv_oh);
  const Ranks r = ranks(c);
  const Value valid = d.dec.valid;
  const Value any_hit = d.any_hit = c.m.wire("any_hit", any(d.hit_oh));
  d.any_sd = c.m.wire("any_sd", any(match_sd));
  d.full = c.m.wire("full", hdl::all(valid));
  const Value way_oh = d.way_oh = c.m.wire("way_oh", mux(any_hit, d.hit_oh, mux(d.full, d.lru_oh, inv_oh)));
  const Value upd = c.m.wire("upd", ~op_shoot);
  const Value inc = c.m.wire("rank_inc", gate(upd, mux(any_hit, r.touch_inc, valid)));
  std::vector<Value> new_ranks;
  for (unsigned i = 0; i < n; ++i)
    new_ranks.push_back(mux(upd & way_oh.bit(i), zero(l), r.rank[i] + zext(inc.bit(i), l)));
  d.rank_upd = c.m.wire("rank_upd", hdl::cat_lsb_first(new_ranks));
  d.valid_upd = c.m.wire("valid_upd", valid & ~gate(op_shoot, match_sd));
}

// The candidate segment: updated entries, and for a fill the new entry in way
// 0 with the old entry 0 moved to the chosen way.
void candidate(Ctl& c) {
  const unsigned n = c.p.ways;
  Datapath& d = c.dp;
  c.m.comment("candidate: loaded in CMP");
  const Value st_cmp = d.st_cmp = c.m.wire("st_cmp", c.state_is(kCmp)), op_fill = c.decode.op_fill;
  for (const Field& f : entry_fields(c.p)) {
    auto updated = [&](unsigned i) {
      if (f.of == &Entry::valid) return d.valid_upd.bit(i);
      if (f.of == &Entry::lru) return d.rank_upd.field(i, f.width);
      return (d.dec.*f.of).field(i, f.width);
    };
    std::vector<Value> ways = {mux(op_fill, fresh(c, f), updated(0))};
    for (unsigned i = 1; i < n; ++i) ways.push_back(mux(op_fill & d.way_oh.bit(i), updated(0), updated(i)));
    d.cand.*f.of = loaded(c, "cand_" + f.name, st_cmp, hdl::cat_lsb_first(ways));
  }
}

// One bd_codec pack instance and the segment image it gives.
struct PackedImage {
  Value image, dropped;  // image_<tag>, pk_dropped_<tag>
};

// The word written back: bd_codec pack of the candidate (or, for a fill that
// initialises a free segment, of the new entry alone) and the segment image,
// from per-entry source vectors src (src_<field>_<tag>).
PackedImage packed_image(Ctl& c, const string& tag, const Entry& src) {
  const LdsCtrlParams& p = c.p;
  const Wire packed = c.m.wire("pk_packed_" + tag, p.codec.packed_bits);
  std::vector<std::pair<string, Value>> conns;
  for (const Field& f : tag_fields(p)) conns.push_back({"tag_" + f.name + "_i", src.*f.of});
  conns.push_back({"packed_o", packed});
  conns.push_back({"fits_o", c.m.wire("unused_pk_fits_" + tag, 1)});
  const Wire dropped = c.m.wire("pk_dropped_" + tag, p.ways);
  conns.push_back({"dropped_o", dropped});
  c.m.instance(codec_interface(p, true), "u_pack_" + tag, conns);
  std::vector<Value> parts;
  if (pad_words(p)) parts.push_back(zero(pad_words(p) * kWordBits));
  for (unsigned i = p.ways; i-- > 0;) {
    if (slot_pad_bits(p)) parts.push_back(zero(slot_pad_bits(p)));
    parts.push_back(src.perm.field(i, p.perm_bits));
    parts.push_back(src.ppn.field(i, p.ppn_bits));
  }
  parts.push_back(packed);
  return {c.m.wire("image_" + tag, cat(parts)), dropped};
}

// The segment images written: the candidate's (WRITE), and for a fill that
// initialises a free segment the new entry alone (ISSUE). Two pack instances:
// the second sees constant valid bits and reduces to wiring in synthesis, and
// the state select sits after both instead of in front of one.
void pack_image(Ctl& c) {
  const unsigned n = c.p.ways;
  Datapath& d = c.dp;
  c.m.comment("segment images: packed tag word, slots, padding");
  Entry init, cand;
  for (const Field& f : entry_fields(c.p)) {
    init.*f.of = c.m.wire("src_" + f.name + "_init", zext(fresh(c, f), n * f.width));
    cand.*f.of = c.m.wire("src_" + f.name + "_cand", d.cand.*f.of);
  }
  const PackedImage of_init = packed_image(c, "init", init);
  const PackedImage of_cand = packed_image(c, "cand", cand);
  c.m.wire("unused_pk_dropped_init", of_init.dropped);
  d.pk_dropped = c.m.wire("pk_dropped", of_cand.dropped);
  d.in_issue = c.m.reg("in_issue", 1);  // = next state is ISSUE: a register to select the image
  d.seg_image = c.m.wire("seg_image", mux(d.in_issue, of_init.image, of_cand.image));
}

// ---------------------------------------------------------------------------
// SRAM port: the application first, the engine in idle cycles

// The engine's bank enables, write data and row.
struct EngineAccess {
  Value bank, wdata, row;
};

// The engine's bank enables and write data for its segment's position.
EngineAccess engine_access(Ctl& c) {
  const LdsCtrlParams& p = c.p;
  const Datapath& d = c.dp;
  const unsigned nb = p.banks, bps = p.banks_per_segment, tag_banks = p.tag_words * p.banks_per_word;
  const Value pos = position(c, "eng_pos");
  const Value full = c.m.wire("bank_full", by_position(p, pos, nb, [&](unsigned j) {
                                return lit(nb, bank_mask(j * bps, bps));
                              }));
  const Value tag = c.m.wire("bank_tag", by_position(p, pos, nb, [&](unsigned j) {
                               return lit(nb, bank_mask(j * bps, tag_banks));
                             }));
  // Address and data are not gated by the enables: they matter only with
  // sram_en_o (address) and sram_we_o (data), and gating them would put the
  // mode-bit read on the 1000-bit data path.
  EngineAccess e;
  e.bank = c.m.wire("eng_bank", mux(d.st_write & ~c.decode.op_fill, tag, full));
  std::vector<Value> placed;
  for (unsigned j = p.segments_per_row; j-- > 0;)
    placed.push_back(p.segments_per_row == 1 ? d.seg_image : gate(pos == j, d.seg_image));
  e.wdata = c.m.wire("eng_wdata", cat(placed));
  e.row = c.m.wire("eng_row", c.eng.seg.slice(p.segment_index_bits - p.row_index_bits, p.row_index_bits));
  return e;
}

void sram_drive(Ctl& c) {
  Datapath& d = c.dp;
  const Decode& dc = c.decode;
  const AppPort& a = c.app;
  const SramPort& s = c.sram;
  c.m.comment("SRAM port: application accesses always win");
  d.st_write = c.m.wire("st_write", c.state_is(kWrite));
  const Value app = a.app_valid_i;
  d.tfree = c.m.wire("tfree", ~app);
  d.wr_go = c.m.wire("wr_go", d.st_write & d.tfree);
  const Value wr_commit = c.m.wire("wr_commit", d.wr_go & dc.mode_cur);
  const Value eng_en = c.m.wire("eng_en", dc.rd_fire | dc.init_fire | wr_commit);
  const Value eng_we = c.m.wire("eng_we", dc.init_fire | wr_commit);
  const EngineAccess eng = engine_access(c);
  s.sram_en_o.drive(app | eng_en);
  s.sram_we_o.drive(mux(app, a.app_we_i, eng_we));
  s.sram_row_o.drive(mux(app, a.app_row_i, eng.row));
  s.sram_bank_en_o.drive(mux(app, a.app_bank_en_i, eng.bank));
  s.sram_wdata_o.drive(mux(app, a.app_wdata_i, eng.wdata));
}

// ---------------------------------------------------------------------------
// Lookup response register

void response(Ctl& c) {
  const LdsCtrlParams& p = c.p;
  Datapath& d = c.dp;
  const Decode& dc = c.decode;
  const TranslationPorts& t = c.tx;
  c.m.comment("lookup response: miss/bypass at once for LDS-mode, else after CMP");
  const Reg& valid = c.eng.resp_valid;
  const Reg hit = c.m.reg("resp_hit", 1);
  const Value bypass = c.m.wire("lk_bypass", dc.issue_go & dc.op_lookup & ~dc.mode_cur);
  const Value cmp = d.resp_cmp = c.m.wire("resp_cmp", d.st_cmp & dc.op_lookup);
  valid.next(bypass | cmp | (valid & ~t.lk_resp_ready_i));
  hit.next(priority({{bypass, one_bit(false)}, {cmp, d.any_hit}}, hit));
  auto field = [&](const Field& f, const Wire& port) {
    const Reg r = c.m.reg("resp_" + f.name, f.width);
    r.next(priority({{bypass, zero(f.width)}, {cmp, onehot_select(d.hit_oh, d.dec.*f.of, p.ways, f.width)}}, r));
    port.drive(r);
  };
  field({"ppn", p.ppn_bits, &Entry::ppn}, t.lk_resp_ppn_o);
  field({"perm", p.perm_bits, &Entry::perm}, t.lk_resp_perm_o);
  t.lk_resp_valid_o.drive(valid);
  t.lk_resp_hit_o.drive(hit);
}

// ---------------------------------------------------------------------------
// Victims: pend bit 0 is the ev register (LRU-evicted entry, a bypassed fill
// or a fill whose write was cancelled), bit i >= 1 the dropped candidate way i.

void evict_register(Ctl& c) {
  Datapath& d = c.dp;
  const Decode& dc = c.decode;
  const Value cancel = d.wr_cancel_fill = c.m.wire("wr_cancel_fill", d.wr_go & ~dc.mode_cur & dc.op_fill);
  const Value from_key = dc.bypass_fire | cancel, cmp_fill = d.st_cmp & dc.op_fill;
  const Entry key = c.eng.key();
  for (const Field& f : victim_fields(c.p)) {
    const Reg ev = c.m.reg("ev_" + f.name, f.width);
    ev.next(priority({{from_key, key.*f.of}, {cmp_fill, onehot_select(d.lru_oh, d.dec.*f.of, c.p.ways, f.width)}}, ev));
    d.ev.*f.of = ev;
  }
  d.ev_flag = c.m.reg("ev_flag", 1);
  d.ev_flag.next_if(cmp_fill, d.full & ~d.any_hit);
}

// The victim's fields: ev for pend bit 0, the candidate's way i for bit i.
void victim_out(Ctl& c, const Value& first) {
  const LdsCtrlParams& p = c.p;
  const Datapath& d = c.dp;
  const TranslationPorts& t = c.tx;
  auto victim = [&](Value Entry::*of, unsigned width) {
    std::vector<Value> terms = {gate(first.bit(0), d.ev.*of)};
    for (unsigned i = 1; i < p.ways; ++i) terms.push_back(gate(first.bit(i), (d.cand.*of).field(i, width)));
    return or_of(terms, zero(width));
  };
  t.vic_vmid_o.drive(victim(&Entry::vmid, p.vmid_bits));
  t.vic_vrf_o.drive(victim(&Entry::vrf, p.vrf_bits));
  const Value va = c.m.wire("vic_va", victim(&Entry::va, p.va_tag_bits));
  t.vic_ppn_o.drive(victim(&Entry::ppn, p.ppn_bits));
  t.vic_perm_o.drive(victim(&Entry::perm, p.perm_bits));
  t.vic_vpn_o.drive(cat({va, gate(d.st_vic, c.eng.seg)}));
}

void victims(Ctl& c) {
  const unsigned n = c.p.ways;
  Datapath& d = c.dp;
  const Decode& dc = c.decode;
  c.m.comment("victims towards the I-cache, one per handshake");
  evict_register(c);
  const Value st_vic = d.st_vic = c.m.wire("st_vic", c.state_is(kVic));
  const Reg pend = d.pend = c.m.reg("pend", n);
  const Value first = hdl::lowest_one(c.m.top(), "vic_first", pend);
  const Value wr_fill = c.m.wire("wr_fill", d.wr_go & dc.op_fill);
  const Value dropped = d.pk_dropped, ready = c.tx.vic_ready_i;
  c.m.wire("unused_pk_dropped0", dropped.bit(0));
  pend.next(priority({{dc.bypass_fire | d.wr_cancel_fill, lit(n, 1)},
                      {wr_fill, cat({dropped.slice(1, n - 1), d.ev_flag})},
                      {st_vic, pend & ~gate(ready, first)}},
                     pend));
  d.vic_last = c.m.wire("vic_last", st_vic & ready & ((pend & ~first) == 0));
  c.tx.vic_valid_o.drive(st_vic);
  victim_out(c, first);
}

// ---------------------------------------------------------------------------
// Engine state, request registers and done pulses

Value st(State s) { return lit(kStateBits, s); }

Value next_state(const Ctl& c, const Value& cmp_write) {
  const Acceptance& a = c.accept;
  const Decode& dc = c.decode;
  const ClearWalker& cl = c.clear;
  const Datapath& d = c.dp;
  const Value idle_next =
      priority({{a.wg_fire, st(kWg)}, {a.sd_all_fire, st(kClear)}, {a.key_fire, st(kIssue)}}, st(kIdle));
  const Value issue_next =
      priority({{~dc.issue_go, st(kIssue)}, {dc.rd_fire, st(kDec)}, {dc.bypass_fire, st(kVic)}}, st(kIdle));
  const Value write_next =
      priority({{~d.tfree, st(kWrite)}, {dc.op_fill & any(d.pend.d()), st(kVic)}}, st(kIdle));
  return priority({{cl.st_clear, mux(cl.clear_last, st(kIdle), st(kClear))},
                   {a.st_idle, idle_next},
                   {dc.st_issue, issue_next},
                   {a.st_wg, mux(a.wg_alloc_go & ~a.wg_empty, st(kClear), st(kIdle))},
                   {d.st_dec, st(kCmp)},
                   {d.st_cmp, mux(cmp_write, st(kWrite), st(kIdle))},
                   {d.st_write, write_next},
                   {d.st_vic, mux(d.vic_last, st(kIdle), st(kVic))}},
                  st(kIdle));
}

void engine_state(Ctl& c) {
  auto op = [](Op o) { return lit(kStateBits, o); };
  const EngineRegs& e = c.eng;
  const Acceptance& a = c.accept;
  const Decode& dc = c.decode;
  c.m.comment("engine state");
  const Value cmp_write =
      c.m.wire("cmp_write", dc.op_fill | (dc.op_lookup & c.dp.any_hit) | (dc.op_shoot & c.dp.any_sd));
  e.state.next(next_state(c, cmp_write));
  c.dp.in_issue.next(e.state.d() == kIssue);
  e.op.next(priority({{a.wg_alloc_go, op(kOpAlloc)}, {a.sd_fire, op(kOpShoot)},
                      {a.lk_fire, op(kOpLookup)}, {a.fill_fire, op(kOpFill)}},
                     e.op));
  const Value key_fire = a.key_fire;
  e.seg.next_if(key_fire, dc.acc_seg);
  e.key_va.next_if(key_fire, dc.acc_va);
  e.key_vmid.next_if(key_fire, dc.acc_vmid);
  e.key_vrf.next_if(key_fire, dc.acc_vrf);
  e.key_ppn.next_if(a.fill_fire, c.tx.fill_ppn_i);
  e.key_perm.next_if(a.fill_fire, c.tx.fill_perm_i);
}

void done_pulses(Ctl& c) {
  const Acceptance& a = c.accept;
  const Decode& dc = c.decode;
  const Datapath& d = c.dp;
  const Value shoot = c.op_is(kOpShoot), clear_last = c.clear.clear_last;
  const Reg wg_done = c.m.reg("wg_done", 1), sd_done = c.m.reg("sd_done", 1);
  wg_done.next((a.st_wg & (a.wgr_free | a.wg_empty)) | (clear_last & c.op_is(kOpAlloc)));
  sd_done.next((dc.issue_go & shoot & ~dc.mode_cur) | (d.st_cmp & shoot & ~d.any_sd) | (d.wr_go & shoot) |
               (clear_last & shoot));
  c.tx.wg_done_o.drive(wg_done);
  c.tx.sd_done_o.drive(sd_done);
}

}  // namespace

Entry EngineRegs::key() const {
  Entry e;
  e.vmid = key_vmid;
  e.vrf = key_vrf;
  e.va = key_va;
  e.ppn = key_ppn;
  e.perm = key_perm;
  return e;
}

void engine_registers(Ctl& c) {
  const LdsCtrlParams& p = c.p;
  EngineRegs& e = c.eng;
  e.state = c.m.reg("state", kStateBits);
  e.op = c.m.reg("op", kStateBits);
  e.seg = c.m.reg("seg", p.segment_index_bits);
  e.key_vmid = c.m.reg("key_vmid", p.vmid_bits);
  e.key_vrf = c.m.reg("key_vrf", p.vrf_bits);
  e.key_va = c.m.reg("key_va", p.va_tag_bits);
  e.key_ppn = c.m.reg("key_ppn", p.ppn_bits);
  e.key_perm = c.m.reg("key_perm", p.perm_bits);
  e.resp_valid = c.m.reg("resp_valid", 1);
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
