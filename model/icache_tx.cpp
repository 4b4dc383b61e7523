// Golden cycle model of the instruction-aware I-cache with translation ways
// and its two behavioural SRAMs (icache_tx_NAME_sys / _base_sys), written from
// docs/blocks/icache_tx.md alone (with the sections of docs/blocks/lds_ctrl.md
// and docs/blocks/bd_codec.md it refers to). Quotations in the comments are
// from icache_tx.md. It reuses the bd_codec model's compress/decompress.
//
// READINGS: places where the document left a choice; the most literal reading
// was taken (each is also marked "READING:" where it is implemented).
//  R1 Grant with S > 1 and no valid request: "the first CU c ... with its
//     valid set" does not exist, so no c is the grant and every tl_ready_o[c]
//     (tf_ready_o[c]) is 0. With S = 1 "the grant is CU 0" unconditionally, so
//     tl_ready_o[0] = lk_ok (tf_ready_o[0] = tf_ok) whatever tl_valid_i holds.
//  R2 if_resp_hit_o while if_resp_valid_o = 0: the document defines s2 only
//     for a valid s1 ("At the edge s2 = (1, hit, s1.set, h)"). The model loads
//     s2 = (s1.valid, s1.valid & hit, s1.set, h) at every edge, so the hit
//     output is 0 when no response is valid (set and way matter only on a hit).
//  R3 Data slots a fill's WRITE stores: "slot i = {zeros, perm_i, ppn_i}" of
//     the candidate, and "slots not holding a translation are zero when
//     written". A slot holds a translation when the packed word written with
//     it has that sub-entry valid: slots of invalid candidate entries AND of
//     entries the compression dropped are written zero. (The initialise write
//     is slot 0 = the new translation, other slots zero, as the document says.)
//  R4 Shootdown-all and an instruction fill accepted at the same edge: the
//     sd-all clears the Tx lines first and the fill's line is IC after the
//     edge (the document states this order only for a flush and a fill).
//  R5 Reset: outputs under rst_n = 0 are the combinational outputs of the
//     reset state for the inputs held (e.g. ifill_ready_o = 0 since fs = 0,
//     if_ready_o = 1, tag_en_o = 1 for a fetch request). The SRAMs have no
//     reset, so a fetch's tag read driven during reset does reach the rdata
//     registers at the edge; no controller state changes.
//  R6 "Port free" is evaluated on the requests (if_valid_i, ifill_valid_i) and
//     s1.valid exactly as written, not on accepted requests.
//  R7 ISSUE cases that need no port (lookup or shootdown of a non-Tx line,
//     bypass) are decided in any ISSUE cycle, also while the port is busy; a
//     case that needs the port and waits is re-decided every cycle from that
//     cycle's mode[L] (an instruction fill that takes L meanwhile turns a
//     waiting Tx read into the non-Tx case, a waiting initialise into bypass).
//  R8 A clobbered WRITE also waits for the first free cycle ("In the first
//     free cycle: clobbered: nothing is written ..."), and then uses no port.
//  R9 A fill that matches sub-entry w takes k = r[w] (lds_ctrl "Fill
//     insertion" step 1: "way w and its rank k").
//  R10 "A shootdown whose candidate has no valid sub-entry": the candidate
//     before packing (the reference, its lowest valid entry, is never dropped,
//     so the packed word is empty exactly then).
//  R11 The instruction fill's clobber check uses the engine state of the
//     cycle of the fill (DEC, CMP, PACK or WRITE before the edge).
//  R12 With X = 1 the lookup hit goes to IDLE (no WRITE); its set touch is
//     registered at the CMP edge like for X > 1 (applied one edge later).
//  R13 Baseline (_base_sys): flush_ready_o = 1 (the engine is always idle)
//     and every translation output (sd_ready_o included) is 0.
//  R14 A shootdown that empties the line still performs its WRITE (the tag
//     SRAM writes the all-zero entry, way L[LI-1:SI]) in that cycle, and
//     mode[L] becomes Invalid at the same edge. A lookup hit's WRITE (X > 1)
//     does not touch the set again (only the CMP edge registers a touch).
//  R15 Rank ties in a stored word (never produced by this controller) are
//     broken by index, as the normalisation formula says.
//  R16 A shootdown by VPN is decided like the other operations, at the edge
//     of CMP cycle NG (the evaluation of the last group): "(NG cycles)" counts
//     the comparisons; none -> IDLE with sd_done_o in CMP cycle NG + 1.
//  R17 Instruction fill stage: ifill_valid_i = 0 returns fs to 0 in every
//     stage, F1 included (no victim is kept). If the requester changed
//     ifill_addr_i while holding the request, the captured set and F1's way
//     are still written, with the tag of the address of the accept cycle.
#include "model/icache_tx.h"

#include "model/util.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

namespace txgen::model {

namespace {

uint64_t low_mask(unsigned bits) { return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }
uint64_t shl(uint64_t x, unsigned n) { return n >= 64 ? 0 : x << n; }
uint64_t shr(uint64_t x, unsigned n) { return n >= 64 ? 0 : x >> n; }

const Require require{"icache_tx model"};

bool bit_at(const std::vector<bool>& v, size_t i) { return i < v.size() && v[i]; }
template <class T>
T val_at(const std::vector<T>& v, size_t i) {
  return i < v.size() ? v[i] : T{};
}

// Copies src into a Bits of `width` (truncating or zero-extending).
Bits sized(const Bits& src, unsigned width) {
  Bits b(width);
  for (size_t k = 0; k < b.words.size() && k < src.words.size(); ++k) b.words[k] = src.words[k];
  if (width % 32 != 0 && !b.words.empty()) b.words.back() &= (1u << (width % 32)) - 1u;
  return b;
}

// Round-robin grant: the first c in p, p + 1, ... (mod S) with its valid set;
// -1 when none (READING R1). S = 1: CU 0.
int grant_of(const std::vector<bool>& valid, unsigned p, unsigned s) {
  if (s == 1) return 0;
  for (unsigned k = 0; k < s; ++k) {
    const unsigned c = (p + k) % s;
    if (bit_at(valid, c)) return static_cast<int>(c);
  }
  return -1;
}

}  // namespace

// ---------------------------------------------------------------------------
// Inputs

IcacheTxIn IcacheTxIn::idle(const elab::IcacheTxParams& p) {
  IcacheTxIn in;
  in.ifill_data = Bits(p.line_bits);
  const unsigned s = p.sharers;
  in.tl_valid.assign(s, false);
  in.tl_vpn.assign(s, 0);
  in.tl_vmid.assign(s, 0);
  in.tl_vrf.assign(s, 0);
  in.tf_valid.assign(s, false);
  in.tf_vpn.assign(s, 0);
  in.tf_vmid.assign(s, 0);
  in.tf_vrf.assign(s, 0);
  in.tf_ppn.assign(s, 0);
  in.tf_perm.assign(s, 0);
  return in;
}

// ---------------------------------------------------------------------------
// Construction: the widths must be the document's derivation.

void IcacheTxModel::validate() const {
  const auto& p = p_;
  require(p.ways >= 1 && is_pow2(p.ways), "ways must be a power of two");
  require(p.line_bytes >= 8 && is_pow2(p.line_bytes), "line_bytes must be a power of two >= 8");
  require(p.line_bits == p.line_bytes * 8, "line_bits != LB x 8");
  require(p.lines == p.bytes / p.line_bytes && p.lines * p.line_bytes == p.bytes, "NL != C / LB");
  require(p.sets == p.lines / p.ways && p.sets * p.ways == p.lines, "NS != NL / A");
  require(p.sets >= 2 && is_pow2(p.sets), "NS must be a power of two >= 2");
  require(p.offset_bits == ceil_log2(p.line_bytes), "OB != log2 LB");
  require(p.set_bits == ceil_log2(p.sets), "SI != log2 NS");
  require(p.way_bits == ceil_log2(p.ways), "WI != log2 A");
  require(p.line_index_bits == p.set_bits + p.way_bits, "LI != SI + WI");
  require(p.va_bits <= 64 && p.va_bits > p.offset_bits + p.set_bits, "va_bits out of range");
  require(p.itag_bits == p.va_bits - p.offset_bits - p.set_bits, "IT != VA - OB - SI");
  require(p.itag_bits <= p.base_tag_bits, "IT > TB");
  require(p.vpn_bits >= 1 && p.vpn_bits <= 64 && p.vpn_bits < p.va_bits, "vpn_bits out of range");
  require(p.tx_index_bits == p.line_index_bits || p.tx_index_bits == p.set_bits, "XI not LI or SI");
  require(p.vpn_bits > p.tx_index_bits && p.vpn_bits >= p.line_index_bits, "VPN too narrow");
  require(p.va_tag_bits == p.vpn_bits - p.tx_index_bits, "T != VPN - XI");
  require(p.vmid_bits <= 32 && p.vrf_bits <= 32, "VMID/VRF wider than 32");
  require(p.ppn_bits + p.perm_bits <= 64, "P + Q > 64");
  require(p.tx_per_line >= 1 && p.tx_per_line * 64 <= p.line_bits, "X x 8 > LB");
  require(p.rank_bits == ceil_log2(p.tx_per_line), "rank bits != clog2 X");
  require(p.comparators >= 1 && p.tx_per_line % p.comparators == 0, "CP does not divide X");
  require(p.groups == p.tx_per_line / p.comparators, "NG != X / CP");
  require(p.sharers >= 1 && p.sharers <= 8, "S not in [1, 8]");
  require(p.cu_bits == std::max(1u, ceil_log2(p.sharers)), "CB != max(1, clog2 S)");
  if (p.tx_per_line > 1) {
    require(p.codec.has_value(), "X > 1 needs the codec");
    const auto& c = *p.codec;
    require(c.tags == p.tx_per_line, "codec tags != X");
    require(c.va_tag_bits == p.va_tag_bits, "codec T != T");
    require(c.vmid_bits == p.vmid_bits && c.vrf_bits == p.vrf_bits, "codec ids != M, R");
    require(c.lru_bits == p.rank_bits, "codec L != clog2 X");
    require(p.tx_tag_bits == c.base_bits + c.delta_bits && c.packed_bits == p.tx_tag_bits,
            "W != base + delta");
  } else {
    require(p.tx_tag_bits == p.va_tag_bits + p.vmid_bits + p.vrf_bits, "X = 1: W != T + M + R");
  }
  require(p.entry_bits == std::max(p.base_tag_bits, p.tx_tag_bits), "E != max(TB, W)");
}

IcacheTxModel::IcacheTxModel(const elab::IcacheTxParams& p, bool baseline) : p_(p), baseline_(baseline) {
  validate();
  if (p_.tx_per_line > 1) codec_.emplace(*p_.codec);
  entry_bits_ = baseline_ ? p_.base_tag_bits : p_.entry_bits;

  Regs& r = reset_regs_;
  r.mode.assign(p_.lines, static_cast<uint8_t>(Mode::Invalid));
  // "Reset: way 0 least recent, way A-1 most recent."
  r.rec.resize(static_cast<size_t>(p_.sets) * p_.ways);
  for (unsigned s = 0; s < p_.sets; ++s) {
    for (unsigned w = 0; w < p_.ways; ++w) r.rec[static_cast<size_t>(s) * p_.ways + w] = static_cast<uint8_t>(w);
  }
  r.dec.assign(p_.tx_per_line, Sub{});
  r.cand.assign(p_.tx_per_line, Sub{});
  r.packed_entry = Bits(entry_bits_);
  regs_ = reset_regs_;

  tag_mem_.assign(static_cast<size_t>(p_.sets) * p_.ways, Bits(entry_bits_));
  tag_rdata_.assign(p_.ways, Bits(entry_bits_));
  data_mem_.assign(p_.lines, Bits(p_.line_bits));
  data_rdata_ = Bits(p_.line_bits);
}

// ---------------------------------------------------------------------------
// Address fields

// "set = a[OB+SI-1 : OB], instruction tag = a[VA-1 : OB+SI]"
unsigned IcacheTxModel::addr_set(uint64_t a) const {
  return static_cast<unsigned>(shr(a, p_.offset_bits) & low_mask(p_.set_bits));
}
uint64_t IcacheTxModel::addr_tag(uint64_t a) const {
  return shr(a & low_mask(p_.va_bits), p_.offset_bits + p_.set_bits) & low_mask(p_.itag_bits);
}
// "Its line is L = VPN[LI-1:0] ... Its VA tag is VPN[VPN-1 : XI]"
unsigned IcacheTxModel::vpn_line(uint64_t vpn) const {
  return static_cast<unsigned>(vpn & low_mask(p_.line_index_bits));
}
uint64_t IcacheTxModel::vpn_tag(uint64_t vpn) const {
  return shr(vpn & low_mask(p_.vpn_bits), p_.tx_index_bits) & low_mask(p_.va_tag_bits);
}
// "Its VPN is rebuilt as {VA tag, L[XI-1:0]}"
uint64_t IcacheTxModel::rebuild_vpn(uint64_t va_tag, unsigned line) const {
  return (shl(va_tag, p_.tx_index_bits) | (line & low_mask(p_.tx_index_bits))) & low_mask(p_.vpn_bits);
}

// ---------------------------------------------------------------------------
// Recency and instruction victims

unsigned IcacheTxModel::lru_of(const Regs& r, unsigned set, uint64_t way_mask) const {
  const uint8_t* order = &r.rec[static_cast<size_t>(set) * p_.ways];
  for (unsigned i = 0; i < p_.ways; ++i) {
    if ((way_mask >> order[i]) & 1u) return order[i];
  }
  return 0;  // empty mask: unused
}

uint64_t IcacheTxModel::ways_in_mode(const Regs& r, unsigned set, Mode m) const {
  uint64_t mask = 0;
  for (unsigned w = 0; w < p_.ways; ++w) {
    if (r.mode[(w << p_.set_bits) | set] == static_cast<uint8_t>(m)) mask |= uint64_t{1} << w;
  }
  return mask;
}

unsigned IcacheTxModel::ifill_victim(const Regs& r, unsigned set) const {
  const uint64_t inv = ways_in_mode(r, set, Mode::Invalid);
  const uint64_t tx = ways_in_mode(r, set, Mode::Tx);
  const uint64_t all = low_mask(p_.ways);
  const bool aware = !baseline_ && p_.variant == config::IcacheVariant::Aware;
  if (aware && p_.ifill_order == config::IfillOrder::TxFirst) {
    // "the LRU Tx way; if none, the LRU Invalid way; if none, the LRU way"
    if (tx) return lru_of(r, set, tx);
    if (inv) return lru_of(r, set, inv);
    return lru_of(r, set, all);
  }
  if (aware) {
    // "the LRU way among the Invalid ways of s; if none, the LRU Tx way; if
    // none, the LRU way (all are IC)"
    if (inv) return lru_of(r, set, inv);
    if (tx) return lru_of(r, set, tx);
    return lru_of(r, set, all);
  }
  // naive and the baseline: "the LRU Invalid way; if none, the LRU way"
  if (inv) return lru_of(r, set, inv);
  return lru_of(r, set, all);
}

// "Touching a way makes it the most recent."
void IcacheTxModel::touch(Regs& r, unsigned set, unsigned way) const {
  uint8_t* order = &r.rec[static_cast<size_t>(set) * p_.ways];
  unsigned i = 0;
  while (i < p_.ways && order[i] != way) ++i;
  for (; i + 1 < p_.ways; ++i) order[i] = order[i + 1];
  order[p_.ways - 1] = static_cast<uint8_t>(way);
}

// "Where the engine ... says 'the set touches the way' at the edge of cycle t
// ..., the touch is registered at that edge as the pending touch (set, way)
// and applied at the edge of t + 1".
void IcacheTxModel::register_engine_touch(Regs& r) const {
  r.pending_touch.valid = true;
  r.pending_touch.set = r.line & static_cast<uint32_t>(low_mask(p_.set_bits));
  r.pending_touch.way = r.line >> p_.set_bits;
}

// ---------------------------------------------------------------------------
// Tag entries and data lines

// "IC-mode: the instruction tag in [IT-1:0], zeros above."
Bits IcacheTxModel::itag_entry(uint64_t tag) const {
  Bits e(entry_bits_);
  e.set_field(0, p_.itag_bits, tag & low_mask(p_.itag_bits));
  return e;
}

// Tx entry of a candidate: X > 1: the packed word in [W-1:0]; X = 1:
// {VRF-ID, VMID, VA tag} of sub-entry 0, or zero when it is invalid.
Bits IcacheTxModel::tx_entry(const std::vector<Sub>& cand, uint32_t& dropped) const {
  Bits e(entry_bits_);
  dropped = 0;
  if (p_.tx_per_line > 1) {
    std::vector<BdTag> tags(p_.tx_per_line);
    for (unsigned i = 0; i < p_.tx_per_line; ++i) {
      if (!cand[i].valid) continue;  // invalid: canonical zero
      tags[i].valid = true;
      tags[i].lru = cand[i].rank;
      tags[i].vmid = cand[i].vmid;
      tags[i].vrf = cand[i].vrf;
      tags[i].va = cand[i].va;
    }
    const BdCompressed c = codec_->compress(tags);
    dropped = c.dropped;
    for (unsigned b = 0; b < c.packed.width; b += 64) {
      const unsigned n = std::min(64u, c.packed.width - b);
      e.set_field(b, n, c.packed.field(b, n));
    }
  } else if (cand[0].valid) {
    e.set_field(0, p_.va_tag_bits, cand[0].va & low_mask(p_.va_tag_bits));
    e.set_field(p_.va_tag_bits, p_.vmid_bits, cand[0].vmid);
    e.set_field(p_.va_tag_bits + p_.vmid_bits, p_.vrf_bits, cand[0].vrf);
  }
  return e;
}

// Data line of a candidate: slot i = {zeros, perm_i, ppn_i} for the sub-entries
// in `keep` (valid and stored), zero otherwise (READING R3).
Bits IcacheTxModel::tx_line(const std::vector<Sub>& cand, uint32_t keep) const {
  Bits l(p_.line_bits);
  for (unsigned i = 0; i < p_.tx_per_line; ++i) {
    if (!((keep >> i) & 1u)) continue;
    l.set_field(64 * i, p_.ppn_bits, cand[i].ppn & low_mask(p_.ppn_bits));
    l.set_field(64 * i + p_.ppn_bits, p_.perm_bits, cand[i].perm & low_mask(p_.perm_bits));
  }
  return l;
}

// "a line whose sub-entry 0 is the new translation (valid, rank 0) and every
// other sub-entry invalid"
std::vector<IcacheTxModel::Sub> IcacheTxModel::init_candidate(const Regs& r) const {
  std::vector<Sub> cand(p_.tx_per_line);
  cand[0].valid = true;
  cand[0].rank = 0;
  cand[0].va = r.tag;
  cand[0].vmid = r.vmid;
  cand[0].vrf = r.vrf;
  cand[0].ppn = r.ppn;
  cand[0].perm = r.perm;
  return cand;
}

// ---------------------------------------------------------------------------
// Combinational decisions

IcacheTxModel::Comb IcacheTxModel::comb(const Regs& r, const IcacheTxIn& in) const {
  Comb c;
  // F2: "ifill_ready_o = ~s1.valid"; "ifill_ready_o = 0 whenever fs != 2"
  c.ifill_ready = r.fs == 2 && !r.s1_valid;
  c.ifill_fire = in.ifill_valid && c.ifill_ready;
  // "if_ready_o = ~(ifill_valid_i & ifill_ready_o)"
  c.if_ready = !c.ifill_fire;
  c.if_fire = in.if_valid && c.if_ready;
  // F1: "the victim way v of the captured set is chosen from the state of this cycle"
  if (r.fs == 1) c.f1_way = ifill_victim(r, r.fs_set);
  if (c.ifill_fire) {
    c.ifill_set = r.fs_set;
    c.ifill_way = r.fs_way;
    c.ifill_tag = addr_tag(in.ifill_addr);  // "the instruction tag of ifill_addr_i in that cycle"
  }
  // I1: "way w hits when mode[s1.set, w] = IC and entry w of tag_rdata_i has
  // [IT-1:0] = s1.tag. ... the hit way h is the lowest."
  if (r.s1_valid) {
    for (unsigned w = 0; w < p_.ways; ++w) {
      if (r.mode[(w << p_.set_bits) | r.s1_set] == static_cast<uint8_t>(Mode::Ic) &&
          tag_rdata_[w].field(0, p_.itag_bits) == r.s1_tag) {
        c.i1_hit = true;
        c.i1_way = w;
        break;
      }
    }
  }
  // READING R6.
  c.port_free = !in.if_valid && !in.ifill_valid && !r.s1_valid;

  const bool idle = baseline_ || r.st == Eng::Idle;
  c.flush_ready = idle;
  c.flush_fire = in.flush_valid && c.flush_ready;
  if (baseline_) return c;

  const unsigned s = p_.sharers;
  c.sd_ready = idle && !in.flush_valid;
  c.sd_fire = in.sd_valid && c.sd_ready;
  c.lk_ok = idle && !in.flush_valid && !in.sd_valid && !r.resp_valid;
  c.lk_grant = grant_of(in.tl_valid, r.rr_lk, s);
  c.lk_fire = c.lk_ok && c.lk_grant >= 0 && bit_at(in.tl_valid, static_cast<size_t>(c.lk_grant));
  bool any_tl = false;
  for (unsigned k = 0; k < s; ++k) any_tl = any_tl || bit_at(in.tl_valid, k);
  c.tf_ok = idle && !in.flush_valid && !in.sd_valid && !(any_tl && c.lk_ok);
  c.tf_grant = grant_of(in.tf_valid, r.rr_tf, s);
  c.tf_fire = c.tf_ok && c.tf_grant >= 0 && bit_at(in.tf_valid, static_cast<size_t>(c.tf_grant));

  // The engine's use of the ports in this cycle.
  if (r.st == Eng::Issue && c.port_free) {
    const Mode m = static_cast<Mode>(r.mode[r.line]);
    if (m == Mode::Tx) {
      c.eport = EPort::Read;  // lookup, fill or shootdown: read
    } else if (r.op == Op::Fill &&
               (m == Mode::Invalid || p_.variant == config::IcacheVariant::Naive)) {
      c.eport = EPort::Init;  // initialise
    }
  } else if (r.st == Eng::Write && c.port_free && !r.clobber) {
    c.eport = EPort::Write;
  }
  return c;
}

// The SRAM ports of the cycle ("never two users").
void IcacheTxModel::drive_ports(const Regs& r, const IcacheTxIn& in, const Comb& c, IcacheTxOut& o) const {
  o.tag_wdata.assign_zero(p_.ways * entry_bits_);
  o.data_wdata.assign_zero(p_.line_bits);
  const uint64_t all_ways = low_mask(p_.ways);
  auto tag_write = [&](unsigned set, unsigned way, const Bits& entry) {
    o.tag_en = true;
    o.tag_we = true;
    o.tag_set = set;
    o.tag_way_en = uint64_t{1} << way;
    // "Writes replicate the written entry into every way of wdata"
    for (unsigned w = 0; w < p_.ways; ++w) {
      for (unsigned b = 0; b < entry_bits_; b += 64) {
        const unsigned n = std::min(64u, entry_bits_ - b);
        o.tag_wdata.set_field(w * entry_bits_ + b, n, entry.field(b, n));
      }
    }
  };
  auto tag_read = [&](unsigned set) {
    o.tag_en = true;
    o.tag_we = false;
    o.tag_set = set;
    o.tag_way_en = all_ways;  // "Reads drive way_en = all ones."
  };
  auto data_access = [&](unsigned line, bool we, const Bits* wdata) {
    o.data_en = true;
    o.data_we = we;
    o.data_line = line;
    if (we) o.data_wdata = *wdata;
  };

  if (c.ifill_fire) {
    // "the tag SRAM writes way v of the captured set s (entry = the instruction
    // tag of ifill_addr_i in that cycle) and the data SRAM writes line {v, s}"
    tag_write(c.ifill_set, c.ifill_way, itag_entry(c.ifill_tag));
    const Bits d = sized(in.ifill_data, p_.line_bits);
    data_access((c.ifill_way << p_.set_bits) | c.ifill_set, true, &d);
    return;
  }
  if (c.if_fire) tag_read(addr_set(in.if_addr));
  if (r.s1_valid && c.i1_hit) data_access((c.i1_way << p_.set_bits) | r.s1_set, false, nullptr);

  const unsigned lset = r.line & static_cast<unsigned>(low_mask(p_.set_bits));
  const unsigned lway = r.line >> p_.set_bits;
  switch (c.eport) {
    case EPort::None:
      break;
    case EPort::Read:
      tag_read(lset);
      data_access(r.line, false, nullptr);
      break;
    case EPort::Init: {
      const std::vector<Sub> cand = init_candidate(r);
      uint32_t dropped = 0;
      tag_write(lset, lway, tx_entry(cand, dropped));
      const Bits d = tx_line(cand, 1u);
      data_access(r.line, true, &d);
      break;
    }
    case EPort::Write: {
      // "the tag SRAM writes the entry registered by PACK"
      tag_write(lset, lway, r.packed_entry);
      if (r.op == Op::Fill) {
        const Bits d = written_line(r);
        data_access(r.line, true, &d);
      }
      break;
    }
  }
}

// ---------------------------------------------------------------------------
// Outputs

IcacheTxOut IcacheTxModel::outputs(const IcacheTxIn& in) const {
  IcacheTxOut o;
  outputs(in, o);
  return o;
}

namespace {

// Every field back to its default; the Bits and vectors keep their storage
// (outputs() rewrites each of them whole).
void clear_keeping_storage(IcacheTxOut& o) {
  IcacheTxOut fresh;
  std::swap(fresh.if_resp_data, o.if_resp_data);
  std::swap(fresh.tag_wdata, o.tag_wdata);
  std::swap(fresh.data_wdata, o.data_wdata);
  std::swap(fresh.tl_ready, o.tl_ready);
  std::swap(fresh.tf_ready, o.tf_ready);
  o = std::move(fresh);
}

}  // namespace

void IcacheTxModel::outputs(const IcacheTxIn& in, IcacheTxOut& o) const {
  // Asynchronous reset: the reset state's outputs (the SRAMs keep theirs).
  const Regs& r = in.rst_n ? regs_ : reset_regs_;
  const Comb c = comb(r, in);
  clear_keeping_storage(o);
  o.if_ready = c.if_ready;
  o.if_resp_valid = r.s2_valid;
  o.if_resp_hit = r.s2_hit;
  o.if_resp_data = data_rdata_;
  o.ifill_ready = c.ifill_ready;
  o.flush_ready = c.flush_ready;
  o.flush_done = r.flush_done;
  o.tl_ready.assign(p_.sharers, false);
  o.tf_ready.assign(p_.sharers, false);
  if (!baseline_) {
    if (c.lk_ok && c.lk_grant >= 0) o.tl_ready[static_cast<size_t>(c.lk_grant)] = true;
    if (c.tf_ok && c.tf_grant >= 0) o.tf_ready[static_cast<size_t>(c.tf_grant)] = true;
    o.tl_resp_valid = r.resp_valid;
    o.tl_resp_cu = r.resp_cu;
    o.tl_resp_hit = r.resp_hit;
    o.tl_resp_ppn = r.resp_ppn;
    o.tl_resp_perm = r.resp_perm;
    if (r.st == Eng::Vic && r.vic_head < r.vic.size()) {
      const Victim& v = r.vic[r.vic_head];
      o.vic_valid = true;
      o.vic_vpn = v.vpn;
      o.vic_vmid = v.vmid;
      o.vic_vrf = v.vrf;
      o.vic_ppn = v.ppn;
      o.vic_perm = v.perm;
    }
    o.sd_ready = c.sd_ready;
    o.sd_done = r.sd_done;
  }
  drive_ports(r, in, c, o);
}

// ---------------------------------------------------------------------------
// Engine steps

// DEC: "entry L[LI-1:SI] of tag_rdata_i is unpacked ... and the X slots of
// data_rdata_i (ppn, perm) are registered. Ranks are normalised".
void IcacheTxModel::unpack(Regs& r) const {
  const unsigned x = p_.tx_per_line;
  const Bits& entry = tag_rdata_[r.line >> p_.set_bits];
  std::vector<Sub>& d = r.dec;
  d.assign(x, Sub{});
  if (x > 1) {
    Bits word(p_.codec->packed_bits);
    for (unsigned b = 0; b < word.width; b += 64) {
      const unsigned n = std::min(64u, word.width - b);
      word.set_field(b, n, entry.field(b, n));
    }
    const std::vector<BdTag> tags = codec_->decompress(word);
    for (unsigned i = 0; i < x; ++i) {
      d[i].valid = tags[i].valid;
      d[i].rank = tags[i].lru;  // raw LRU field, normalised below
      d[i].va = tags[i].va;
      d[i].vmid = tags[i].vmid;
      d[i].vrf = tags[i].vrf;
    }
  } else {
    // "for X = 1 sub-entry 0 is valid, rank 0, with the fields of the entry"
    d[0].valid = true;
    d[0].rank = 0;
    d[0].va = entry.field(0, p_.va_tag_bits);
    d[0].vmid = static_cast<uint32_t>(entry.field(p_.va_tag_bits, p_.vmid_bits));
    d[0].vrf = static_cast<uint32_t>(entry.field(p_.va_tag_bits + p_.vmid_bits, p_.vrf_bits));
  }
  for (unsigned i = 0; i < x; ++i) {
    d[i].ppn = data_rdata_.field(64 * i, p_.ppn_bits);
    d[i].perm = data_rdata_.field(64 * i + p_.ppn_bits, p_.perm_bits);
  }
  // "r[i] = number of valid j with lru[j] < lru[i], or equal and j < i"
  std::vector<uint32_t> rank(x, 0);
  for (unsigned i = 0; i < x; ++i) {
    if (!d[i].valid) continue;
    for (unsigned j = 0; j < x; ++j) {
      if (!d[j].valid) continue;
      if (d[j].rank < d[i].rank || (d[j].rank == d[i].rank && j < i)) ++rank[i];
    }
  }
  for (unsigned i = 0; i < x; ++i) d[i].rank = rank[i];
}

// The decision: the candidate is registered and packed by PACK; `evicted` is
// the sub-entry of dec a fill evicts (-1: none).
void IcacheTxModel::decide(Regs& r, std::vector<Sub> cand, int evicted) const {
  r.cand = std::move(cand);
  r.cand_evicted = evicted;
  r.st = Eng::Pack;
}

// PACK: "the packed entry and the compression's dropped mask are registered
// at the edge; WRITE."
void IcacheTxModel::pack(Regs& r) const {
  r.packed_entry = tx_entry(r.cand, r.packed_dropped);
  r.st = Eng::Write;
}

// Data line of a fill's WRITE: the candidate's slots that the packed entry
// keeps (READING R3).
Bits IcacheTxModel::written_line(const Regs& r) const {
  uint32_t keep = 0;
  for (unsigned i = 0; i < p_.tx_per_line; ++i) {
    if (r.cand[i].valid && !((r.packed_dropped >> i) & 1u)) keep |= 1u << i;
  }
  return tx_line(r.cand, keep);
}

// "victims: the evicted sub-entry first, then the sub-entries the compression
// dropped (the dropped mask registered by PACK) in increasing slot order"
std::vector<IcacheTxModel::Victim> IcacheTxModel::write_victims(const Regs& r) const {
  std::vector<Victim> v;
  if (r.cand_evicted >= 0) {
    const Sub& e = r.dec[static_cast<unsigned>(r.cand_evicted)];
    v.push_back(Victim{rebuild_vpn(e.va, r.line), e.vmid, e.vrf, e.ppn, e.perm});
  }
  for (unsigned i = 0; i < p_.tx_per_line; ++i) {
    if (!((r.packed_dropped >> i) & 1u)) continue;
    const Sub& e = r.cand[i];
    v.push_back(Victim{rebuild_vpn(e.va, r.line), e.vmid, e.vrf, e.ppn & low_mask(p_.ppn_bits),
                       e.perm & low_mask(p_.perm_bits)});
  }
  return v;
}

// Matches of group g, as a mask over sub-entries: "valid and (VA tag, VMID,
// VRF-ID) equal the operation's (a shootdown ignores the VRF-ID)".
uint32_t IcacheTxModel::compare_group(const Regs& r, unsigned g) const {
  const bool ignore_vrf = r.op == Op::SdVpn;
  uint32_t m = 0;
  for (unsigned i = g * p_.comparators; i < (g + 1) * p_.comparators; ++i) {
    const Sub& d = r.dec[i];
    if (d.valid && d.va == r.tag && d.vmid == r.vmid && (ignore_vrf || d.vrf == r.vrf)) m |= 1u << i;
  }
  return m;
}

// CMP cycle c: group c - 1 is evaluated from the matches registered at the
// previous edge (c >= 1); unless that leaves CMP, group c is compared and
// registered (c < NG). Leaving discards this cycle's comparison.
void IcacheTxModel::do_cmp(Regs& r, bool& sd_done) {
  const unsigned c = r.cmp_cycle;
  if (c >= 1) {
    switch (r.op) {
      case Op::Lookup: eval_lookup(r, c - 1); break;
      case Op::Fill: eval_fill(r, c - 1); break;
      case Op::SdVpn: eval_shootdown(r, c - 1, sd_done); break;
      case Op::None: r.st = Eng::Idle; break;  // unreachable
    }
  }
  if (r.st != Eng::Cmp) return;
  r.cmp_match = c < p_.groups ? compare_group(r, c) : 0;
  r.cmp_cycle = c + 1;
}

// A lookup answered with a miss: response (1, cu, 0, 0, 0), engine IDLE.
void IcacheTxModel::load_miss_response(Regs& r) {
  r.resp_valid = true;
  r.resp_cu = r.cu;
  r.resp_hit = false;
  r.resp_ppn = 0;
  r.resp_perm = 0;
  r.st = Eng::Idle;
}

void IcacheTxModel::eval_lookup(Regs& r, unsigned g) {
  const bool last = g + 1 >= p_.groups;
  if (r.cmp_match == 0) {
    if (!last) return;
    // "a miss (response (1, cu, 0, 0, 0)), IDLE"
    events_.lookup_miss_tx = true;
    load_miss_response(r);
    return;
  }
  const unsigned m = static_cast<unsigned>(__builtin_ctz(r.cmp_match));  // the lowest match
  const std::vector<Sub>& d = r.dec;
  events_.lookup_hit = true;
  events_.lookup_hit_late_group = g > 0;
  r.resp_valid = true;
  r.resp_cu = r.cu;
  r.resp_hit = true;
  r.resp_ppn = d[m].ppn;
  r.resp_perm = d[m].perm;
  register_engine_touch(r);  // "the line's set touches its way" (one edge late)
  if (p_.tx_per_line == 1) {
    r.st = Eng::Idle;  // READING R12
    return;
  }
  // "every valid entry with r < r[m] gets r + 1, m gets 0"
  std::vector<Sub> cand = d;
  for (unsigned i = 0; i < p_.tx_per_line; ++i) {
    if (i != m && cand[i].valid && cand[i].rank < d[m].rank) ++cand[i].rank;
  }
  cand[m].rank = 0;
  decide(r, std::move(cand), -1);
}

void IcacheTxModel::eval_fill(Regs& r, unsigned g) {
  const unsigned x = p_.tx_per_line;
  const std::vector<Sub>& d = r.dec;
  int w = -1;
  unsigned k = 0;
  bool evict = false;
  if (r.cmp_match != 0) {
    w = __builtin_ctz(r.cmp_match);  // the lowest match: replaced, no eviction
    k = d[static_cast<unsigned>(w)].rank;  // READING R9
    events_.fill_replaced_same = true;
  } else if (g + 1 < p_.groups) {
    return;  // CMP goes on
  } else {
    unsigned v = 0;
    for (unsigned i = 0; i < x; ++i) v += d[i].valid ? 1 : 0;
    for (unsigned i = 0; i < x && w < 0; ++i) {
      if (!d[i].valid) w = static_cast<int>(i);
    }
    k = v;
    if (w < 0) {
      // "else the sub-entry with r = X - 1, which is evicted"
      for (unsigned i = 0; i < x && w < 0; ++i) {
        if (d[i].rank == x - 1) w = static_cast<int>(i);
      }
      if (w < 0) w = 0;  // unreachable: normalised ranks of X valid entries are 0..X-1
      k = x - 1;
      evict = true;
      events_.fill_evicted_lru = true;
    }
  }
  events_.fill_into_tx = true;
  const unsigned ww = static_cast<unsigned>(w);
  // lds_ctrl "Fill insertion" 2: every valid i != w with r[i] < k gets +1.
  std::vector<Sub> cand = d;
  for (unsigned i = 0; i < x; ++i) {
    if (i != ww && cand[i].valid && cand[i].rank < k) ++cand[i].rank;
  }
  // 3: the old way 0 (with its rank and slot) moves to way w; the new
  // translation takes rank 0 and way 0 with its data in slot 0.
  if (ww != 0) cand[ww] = cand[0];
  cand[0] = init_candidate(r)[0];
  decide(r, std::move(cand), evict ? w : -1);
}

void IcacheTxModel::eval_shootdown(Regs& r, unsigned g, bool& sd_done) {
  r.sd_match |= r.cmp_match;  // "accumulating the matches"
  if (g + 1 < p_.groups) return;
  if (r.sd_match == 0) {
    r.st = Eng::Idle;  // READING R16
    sd_done = true;
    return;
  }
  events_.sd_vpn_hit = true;
  std::vector<Sub> cand = r.dec;
  for (unsigned i = 0; i < p_.tx_per_line; ++i) {
    if ((r.sd_match >> i) & 1u) cand[i] = Sub{};  // invalid (all-zero)
  }
  decide(r, std::move(cand), -1);
}

// WRITE in a free cycle (the write itself is driven on the SRAM ports).
void IcacheTxModel::do_write(Regs& r, const Comb& c, bool& sd_done) {
  if (!c.port_free) {
    events_.engine_port_wait = true;
    return;
  }
  if (r.clobber) {
    // "clobbered: nothing is written. A fill hands out its own new
    // translation as the only victim (VIC); a lookup goes IDLE; a shootdown
    // goes IDLE with sd_done_o next cycle."
    events_.clobbered = true;
    if (r.op == Op::Fill) {
      r.vic.assign(1, Victim{rebuild_vpn(r.tag, r.line), r.vmid, r.vrf, r.ppn, r.perm});
      r.vic_head = 0;
      r.st = Eng::Vic;
      return;
    }
    sd_done = r.op == Op::SdVpn;
    r.st = Eng::Idle;
    return;
  }
  if (r.op == Op::Fill) {
    register_engine_touch(r);  // "at the edge the set touches the way" (one edge late)
    if (r.packed_dropped != 0) events_.fill_dropped = true;
    r.vic = write_victims(r);
    r.vic_head = 0;
    r.st = r.vic.empty() ? Eng::Idle : Eng::Vic;
    return;
  }
  if (r.op == Op::SdVpn) {
    // READING R10: the candidate before packing
    const bool empty = std::none_of(r.cand.begin(), r.cand.end(), [](const Sub& e) { return e.valid; });
    if (empty) {
      events_.sd_emptied_line = true;
      r.mode[r.line] = static_cast<uint8_t>(Mode::Invalid);
    }
    sd_done = true;
  }
  r.st = Eng::Idle;
}

// Instruction fill stage at the edge: F0 captures the set, F1 registers its
// victim, F2 waits for the accept; a cycle without the request returns to F0.
void IcacheTxModel::step_fill_stage(Regs& r, const IcacheTxIn& in, const Comb& c) const {
  if (!in.ifill_valid || c.ifill_fire) {
    r.fs = 0;
  } else if (r.fs == 0) {
    r.fs_set = addr_set(in.ifill_addr);
    r.fs = 1;
  } else if (r.fs == 1) {
    r.fs_way = c.f1_way;
    r.fs = 2;
  }
}

// Fetch pipeline at the edge: I1's compare is registered into s2 (its touch
// is I2's, applied in posedge), I0's request into s1.
void IcacheTxModel::step_fetch_pipeline(Regs& r, const IcacheTxIn& in, const Comb& c) {
  if (r.s1_valid) {
    events_.fetch_hit = c.i1_hit;
    events_.fetch_miss = !c.i1_hit;
  }
  // "At the edge s2 = (1, hit, s1.set, h)" (READING R2)
  r.s2_valid = r.s1_valid;
  r.s2_hit = r.s1_valid && c.i1_hit;
  r.s2_set = r.s1_set;
  r.s2_way = c.i1_way;
  r.s1_valid = c.if_fire;
  if (c.if_fire) {
    r.s1_set = addr_set(in.if_addr);
    r.s1_tag = addr_tag(in.if_addr);
  }
}

// ---------------------------------------------------------------------------
// One rising edge

void IcacheTxModel::posedge(const IcacheTxIn& in) {
  events_ = IcacheTxEvents{};
  if (!in.rst_n) {
    // READING R5: the SRAMs see the reset state's port outputs.
    const Comb c = comb(reset_regs_, in);
    IcacheTxOut ports;
    drive_ports(reset_regs_, in, c, ports);
    regs_ = reset_regs_;
    apply_ports(ports);
    return;
  }

  const Comb c = comb(regs_, in);
  IcacheTxOut ports;
  drive_ports(regs_, in, c, ports);  // from the pre-edge state
  Regs& r = regs_;
  const Eng pre_st = r.st;
  bool sd_done = false, flush_done = false;
  // The instruction fill's victim line as the accept cycle saw it (events).
  Mode ifill_pre_mode = Mode::Invalid;
  bool ifill_set_had_tx = false;
  if (c.ifill_fire) {
    ifill_pre_mode = static_cast<Mode>(r.mode[(c.ifill_way << p_.set_bits) | c.ifill_set]);
    ifill_set_had_tx = ways_in_mode(r, c.ifill_set, Mode::Tx) != 0;
    events_.ifill_victim_stale = ifill_victim(r, c.ifill_set) != c.ifill_way;
  }

  // Lookup response register: "holds until an edge with tl_resp_ready_i = 1
  // and tl_resp_valid_o = 1 (valid drops; the other fields keep their values)"
  if (!baseline_ && r.resp_valid) {
    if (in.tl_resp_ready) {
      r.resp_valid = false;
    } else {
      events_.resp_stalled = true;
    }
  }

  // The pending touch registered at the previous edge is applied at this one;
  // it stays valid only if the engine touches again at this edge.
  const PendingTouch engine_touch = r.pending_touch;
  r.pending_touch = PendingTouch{};

  // --- translation engine (its mode changes come first) ---
  if (!baseline_) {
    switch (pre_st) {
      case Eng::Idle:
        if (c.flush_fire) {
          // handled below
        } else if (c.sd_fire) {
          if (in.sd_all) {
            // "at its accept edge every Tx line becomes Invalid and sd_done_o
            // = 1 in A + 1; the engine stays IDLE" (READING R4: before a fill)
            events_.sd_all = true;
            for (uint8_t& m : r.mode) {
              if (m == static_cast<uint8_t>(Mode::Tx)) m = static_cast<uint8_t>(Mode::Invalid);
            }
            sd_done = true;
          } else {
            r.st = Eng::Issue;
            r.op = Op::SdVpn;
            r.line = vpn_line(in.sd_vpn);
            r.tag = vpn_tag(in.sd_vpn);
            r.vmid = static_cast<uint32_t>(in.sd_vmid & low_mask(p_.vmid_bits));
          }
        } else if (c.lk_fire) {
          const unsigned g = static_cast<unsigned>(c.lk_grant);
          r.st = Eng::Issue;
          r.op = Op::Lookup;
          r.line = vpn_line(val_at(in.tl_vpn, g));
          r.tag = vpn_tag(val_at(in.tl_vpn, g));
          r.vmid = static_cast<uint32_t>(val_at(in.tl_vmid, g) & low_mask(p_.vmid_bits));
          r.vrf = static_cast<uint32_t>(val_at(in.tl_vrf, g) & low_mask(p_.vrf_bits));
          r.cu = g;
          r.rr_lk = (g + 1) % p_.sharers;
        } else if (c.tf_fire) {
          const unsigned g = static_cast<unsigned>(c.tf_grant);
          r.st = Eng::Issue;
          r.op = Op::Fill;
          r.line = vpn_line(val_at(in.tf_vpn, g));
          r.tag = vpn_tag(val_at(in.tf_vpn, g));
          r.vmid = static_cast<uint32_t>(val_at(in.tf_vmid, g) & low_mask(p_.vmid_bits));
          r.vrf = static_cast<uint32_t>(val_at(in.tf_vrf, g) & low_mask(p_.vrf_bits));
          r.ppn = val_at(in.tf_ppn, g) & low_mask(p_.ppn_bits);
          r.perm = val_at(in.tf_perm, g) & low_mask(p_.perm_bits);
          r.cu = g;
          r.rr_tf = (g + 1) % p_.sharers;
        }
        break;

      case Eng::Issue: {
        const Mode m = static_cast<Mode>(r.mode[r.line]);
        if (r.op == Op::Lookup && m != Mode::Tx) {
          // "the response register loads (1, cu, hit 0, ppn 0, perm 0); IDLE"
          events_.lookup_miss_not_tx = true;
          load_miss_response(r);
        } else if (r.op == Op::SdVpn && m != Mode::Tx) {
          r.st = Eng::Idle;
          sd_done = true;
        } else if (r.op == Op::Fill && m == Mode::Ic && p_.variant == config::IcacheVariant::Aware) {
          // bypass: "the victims are the fill itself; VIC from the next cycle"
          events_.fill_bypass_ic = true;
          r.vic.assign(1, Victim{rebuild_vpn(r.tag, r.line), r.vmid, r.vrf, r.ppn, r.perm});
          r.vic_head = 0;
          r.st = Eng::Vic;
        } else if (c.eport == EPort::Init) {
          // initialise: "At the edge mode[L] = Tx and the set touches the way"
          if (m == Mode::Invalid) {
            events_.fill_init_invalid = true;
          } else {
            events_.fill_init_over_ic = true;
          }
          r.mode[r.line] = static_cast<uint8_t>(Mode::Tx);
          register_engine_touch(r);  // applied at the next edge
          r.st = Eng::Idle;
        } else if (c.eport == EPort::Read) {
          // read: "At the edge the clobber flag is cleared; DEC."
          r.clobber = false;
          r.st = Eng::Dec;
        } else {
          events_.engine_port_wait = true;  // needs the ports, not free
        }
        break;
      }

      case Eng::Dec:
        unpack(r);
        r.cmp_cycle = 0;
        r.cmp_match = 0;
        r.sd_match = 0;
        r.st = Eng::Cmp;
        break;

      case Eng::Cmp:
        do_cmp(r, sd_done);
        break;

      case Eng::Pack:
        pack(r);
        break;

      case Eng::Write:
        do_write(r, c, sd_done);
        break;

      case Eng::Vic:
        if (in.vic_ready) {
          events_.victim_out = true;
          if (++r.vic_head >= r.vic.size()) {
            r.vic.clear();
            r.vic_head = 0;
            r.st = Eng::Idle;
          }
        } else {
          events_.victim_stalled = true;
        }
        break;
    }
  }

  // --- kernel flush (clears before the fill's line becomes IC) ---
  if (c.flush_fire) {
    events_.flush = true;
    flush_done = true;
    const bool keep_tx = !baseline_ && p_.kernel_flush;
    for (uint8_t& m : r.mode) {
      if (keep_tx && m == static_cast<uint8_t>(Mode::Tx)) {
        events_.flush_kept_tx = true;
        continue;
      }
      m = static_cast<uint8_t>(Mode::Invalid);
    }
  }

  // --- touches of one edge: "the translation engine's pending touch ...,
  // then the fetch's (I2), then the instruction fill's" ---
  if (engine_touch.valid) touch(r, engine_touch.set, engine_touch.way);
  // fetch I2: "On a hit, at the edge set s2.set touches way s2.h"
  if (r.s2_valid && r.s2_hit) touch(r, r.s2_set, r.s2_way);

  // --- instruction fill (its touch is last: the filled way ends most recent) ---
  if (c.ifill_fire) {
    const unsigned line = (c.ifill_way << p_.set_bits) | c.ifill_set;
    if (ifill_pre_mode == Mode::Invalid) {
      events_.ifill_took_invalid = true;
    } else if (ifill_pre_mode == Mode::Tx) {
      events_.ifill_evicted_tx = true;
    } else {
      events_.ifill_evicted_ic = true;
      if (ifill_set_had_tx) events_.ifill_evicted_ic_over_tx = true;
    }
    // "Every instruction fill that writes line L while the engine is in DEC,
    // CMP, PACK or WRITE sets the clobber flag at its edge." (READING R11)
    const bool engine_holds_line =
        pre_st == Eng::Dec || pre_st == Eng::Cmp || pre_st == Eng::Pack || pre_st == Eng::Write;
    if (!baseline_ && line == r.line && engine_holds_line) {
      r.clobber = true;
    }
    // "At the edge mode[s, v] = IC and s touches v."
    r.mode[line] = static_cast<uint8_t>(Mode::Ic);
    touch(r, c.ifill_set, c.ifill_way);
  }
  step_fill_stage(r, in, c);

  step_fetch_pipeline(r, in, c);

  // --- victim / done registers ---
  r.flush_done = flush_done;
  r.sd_done = sd_done;

  // --- the SRAMs, from the ports of the cycle (DEC above used the old rdata) ---
  apply_ports(ports);
}

// Behavioural SRAMs: "at an edge with en = 1, for every way w with way_en[w]:
// we ? mem[set][w] <= wdata entry w : rdata entry w <= mem[set][w]";
// "we ? mem[line] <= wdata : rdata <= mem[line]".
void IcacheTxModel::apply_ports(const IcacheTxOut& ports) {
  if (ports.tag_en) tag_accesses_.add(ports.tag_we);
  if (ports.data_en) data_accesses_.add(ports.data_we);
  if (ports.tag_en && ports.tag_set < p_.sets) {
    for (unsigned w = 0; w < p_.ways; ++w) {
      if (!((ports.tag_way_en >> w) & 1u)) continue;
      Bits& cell = tag_mem_[static_cast<size_t>(ports.tag_set) * p_.ways + w];
      if (ports.tag_we) {
        ++sram_writes_;
        for (unsigned b = 0; b < entry_bits_; b += 64) {
          const unsigned n = std::min(64u, entry_bits_ - b);
          cell.set_field(b, n, ports.tag_wdata.field(w * entry_bits_ + b, n));
        }
      } else {
        tag_rdata_[w] = cell;
      }
    }
  }
  if (ports.data_en && ports.data_line < p_.lines) {
    if (ports.data_we) {
      ++sram_writes_;
      data_mem_[ports.data_line] = ports.data_wdata;
    } else {
      data_rdata_ = data_mem_[ports.data_line];
    }
  }
}

// ---------------------------------------------------------------------------
// Inspection

IcacheTxModel::Mode IcacheTxModel::mode(unsigned line) const {
  if (line >= p_.lines) throw std::out_of_range("icache_tx model: line");
  return static_cast<Mode>(regs_.mode[line]);
}

std::vector<unsigned> IcacheTxModel::recency(unsigned set) const {
  if (set >= p_.sets) throw std::out_of_range("icache_tx model: set");
  std::vector<unsigned> v;
  for (unsigned i = 0; i < p_.ways; ++i) v.push_back(regs_.rec[static_cast<size_t>(set) * p_.ways + i]);
  return v;
}

Bits IcacheTxModel::tag_entry(unsigned set, unsigned way) const {
  if (set >= p_.sets || way >= p_.ways) throw std::out_of_range("icache_tx model: tag entry");
  return tag_mem_[static_cast<size_t>(set) * p_.ways + way];
}

Bits IcacheTxModel::data_line(unsigned line) const {
  if (line >= p_.lines) throw std::out_of_range("icache_tx model: line");
  return data_mem_[line];
}

bool IcacheTxModel::idle() const { return baseline_ || regs_.st == Eng::Idle; }

void IcacheTxModel::held_of_line(unsigned line, std::vector<HeldTx>& v) const {
  if (baseline_ || regs_.mode[line] != static_cast<uint8_t>(Mode::Tx)) return;
  const unsigned set = line & static_cast<unsigned>(low_mask(p_.set_bits));
  const unsigned way = line >> p_.set_bits;
  const Bits& entry = tag_mem_[static_cast<size_t>(set) * p_.ways + way];
  const Bits& data = data_mem_[line];
  const unsigned x = p_.tx_per_line;
  std::vector<BdTag> tags(x);
  if (x > 1) {
    Bits word(p_.codec->packed_bits);
    for (unsigned b = 0; b < word.width; b += 64) {
      const unsigned n = std::min(64u, word.width - b);
      word.set_field(b, n, entry.field(b, n));
    }
    tags = codec_->decompress(word);
  } else {
    tags[0].valid = true;
    tags[0].va = entry.field(0, p_.va_tag_bits);
    tags[0].vmid = static_cast<uint32_t>(entry.field(p_.va_tag_bits, p_.vmid_bits));
    tags[0].vrf = static_cast<uint32_t>(entry.field(p_.va_tag_bits + p_.vmid_bits, p_.vrf_bits));
  }
  for (unsigned i = 0; i < x; ++i) {
    if (!tags[i].valid) continue;
    HeldTx h;
    h.vpn = rebuild_vpn(tags[i].va, line);
    h.vmid = tags[i].vmid;
    h.vrf = tags[i].vrf;
    h.ppn = data.field(64 * i, p_.ppn_bits);
    h.perm = data.field(64 * i + p_.ppn_bits, p_.perm_bits);
    v.push_back(h);
  }
}

std::vector<IcacheTxModel::HeldTx> IcacheTxModel::held() const {
  std::vector<HeldTx> v;
  for (unsigned l = 0; l < p_.lines; ++l) held_of_line(l, v);
  return v;
}

bool IcacheTxModel::holds(uint64_t vpn, uint32_t vmid, uint32_t vrf) const {
  std::vector<HeldTx> v;
  held_of_line(vpn_line(vpn), v);
  const uint64_t full = vpn & low_mask(p_.vpn_bits);
  for (const HeldTx& h : v) {
    if (h.vpn == full && h.vmid == vmid && h.vrf == vrf) return true;
  }
  return false;
}

std::vector<IcacheTxModel::HeldTx> IcacheTxModel::in_flight() const {
  std::vector<HeldTx> v;
  if (baseline_) return v;
  const Regs& r = regs_;
  const bool fill_pending = r.op == Op::Fill && (r.st == Eng::Issue || r.st == Eng::Dec || r.st == Eng::Cmp ||
                                                  r.st == Eng::Pack || r.st == Eng::Write);
  if (fill_pending) v.push_back(HeldTx{rebuild_vpn(r.tag, r.line), r.vmid, r.vrf, r.ppn, r.perm});
  if (r.st == Eng::Vic) {
    for (size_t i = r.vic_head; i < r.vic.size(); ++i) {
      const Victim& x = r.vic[i];
      v.push_back(HeldTx{x.vpn, x.vmid, x.vrf, x.ppn, x.perm});
    }
  }
  return v;
}

bool IcacheTxModel::repack_busy(unsigned* line) const {
  if (baseline_) return false;
  const Regs& r = regs_;
  const bool busy = (r.op == Op::Lookup || r.op == Op::SdVpn) &&
                    (r.st == Eng::Issue || r.st == Eng::Dec || r.st == Eng::Cmp || r.st == Eng::Pack ||
                     r.st == Eng::Write);
  if (busy && line) *line = r.line;
  return busy;
}

void IcacheTxModel::copy_registers(const IcacheTxModel& from) { registers_of(*this) = registers_of(from); }

bool IcacheTxModel::same_registers(const IcacheTxModel& o) const { return registers_of(*this) == registers_of(o); }

}  // namespace txgen::model
