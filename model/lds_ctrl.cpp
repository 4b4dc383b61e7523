// Golden cycle model of the reconfigurable LDS controller and its behavioural
// SRAM (lds_ctrl_NAME_sys), from docs/blocks/lds_ctrl.md only. Quotations in
// the comments are from that document; "READING:" marks a place where the
// document left a choice and the most literal reading was taken.
#include "model/lds_ctrl.h"

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

const Require require{"lds_ctrl model"};

}  // namespace

// ---------------------------------------------------------------------------
// Construction and parameter checks

void LdsCtrlModel::validate() const {
  const auto& p = p_;
  const auto& c = p.codec;
  require(p.segment_bytes >= 8 && p.segment_bytes % 8 == 0, "segment_bytes must be a multiple of 8");
  require(p.lds_bytes % p.segment_bytes == 0, "lds_bytes not a multiple of segment_bytes");
  require(p.segments == p.lds_bytes / p.segment_bytes, "segments != lds_bytes / segment_bytes");
  require(is_pow2(p.segments), "segments must be a power of two");
  require(p.segment_index_bits == floor_log2(p.segments), "segment_index_bits != log2 S");
  require(p.ways == c.tags && p.ways >= 1, "ways != codec.tags");
  require(c.packed_bits % 64 == 0, "packed word W not a multiple of 64");
  require(p.tag_words == c.packed_bits / 64, "tag_words != W / 64");
  require(p.segment_words == p.segment_bytes / 8, "segment_words != SB / 8");
  require(p.tag_words + p.ways <= p.segment_words, "TW + N > SB / 8");
  require(p.bank_bytes == 1 || p.bank_bytes == 2 || p.bank_bytes == 4 || p.bank_bytes == 8,
          "bank_bytes not in {1, 2, 4, 8}");
  require(is_pow2(p.banks) && p.banks <= 64, "banks must be a power of two <= 64");
  require(p.row_bytes == p.banks * p.bank_bytes, "row_bytes != NB x BB");
  require(p.row_bits == p.row_bytes * 8, "row_bits != RB x 8");
  require(p.row_bytes % 8 == 0 && p.segment_bytes <= p.row_bytes, "SB must be <= RB");
  require(p.lds_bytes % p.row_bytes == 0 && p.rows == p.lds_bytes / p.row_bytes, "rows != bytes / RB");
  const unsigned ri = p.rows > 1 ? floor_log2(p.rows) : 0;
  require(p.row_index_bits == (ri < 1 ? 1 : ri), "row_index_bits != max(1, log2 ROWS)");
  require(p.segments_per_row == p.row_bytes / p.segment_bytes, "segments_per_row != RB / SB");
  require(p.banks_per_segment == p.segment_bytes / p.bank_bytes, "banks_per_segment != SB / BB");
  require(p.banks_per_word == 8 / p.bank_bytes, "banks_per_word != 8 / BB");
  require(p.vpn_bits <= 64 && p.vpn_bits > p.segment_index_bits, "vpn_bits out of range");
  require(p.va_tag_bits == p.vpn_bits - p.segment_index_bits, "va_tag_bits != VPN - SI");
  require(c.va_tag_bits == p.va_tag_bits, "codec va_tag_bits != T");
  require(c.vmid_bits == p.vmid_bits && c.vrf_bits == p.vrf_bits, "codec ids != M, R");
  require(p.ppn_bits + p.perm_bits <= 64, "P + Q > 64");
  require(is_pow2(p.clear_bits) && p.clear_bits <= p.segments, "G must be a power of two <= S");
  require(p.clear_groups == p.segments / p.clear_bits, "clear_groups != S / G");
  require(p.max_work_groups >= 1 && p.max_work_groups <= 64, "K not in [1, 64]");
  require(p.size_bits == p.segment_index_bits + 1, "size_bits != SI + 1");
}

LdsCtrlModel::LdsCtrlModel(const elab::LdsCtrlParams& p) : p_(p), codec_(p.codec) {
  validate();
  wpr_ = p_.row_bytes / 8;
  wps_ = p_.segment_bytes / 8;
  bank_word_.resize(p_.banks);
  bank_mask_.resize(p_.banks);
  for (unsigned b = 0; b < p_.banks; ++b) {
    const unsigned byte = b * p_.bank_bytes;
    bank_word_[b] = byte / 8;
    bank_mask_[b] = shl(low_mask(p_.bank_bytes * 8), (byte % 8) * 8);
  }
  // Reset state: CLEAR over [0, S) with no done pulse, everything else zero.
  reset_regs_.st = Eng::Clear;
  reset_regs_.op = Op::Reset;
  reset_regs_.clear_lo = 0;
  reset_regs_.clear_hi = p_.segments;
  reset_regs_.clear_group = 0;
  reset_regs_.clear_last = p_.clear_groups - 1;
  reset_regs_.dec_e.assign(p_.ways, BdTag{});
  reset_regs_.dec_ppn.assign(p_.ways, 0);
  reset_regs_.dec_perm.assign(p_.ways, 0);
  reset_regs_.image.assign(wps_, 0);
  reset_regs_.pend.assign(p_.ways, Victim{});
  reset_regs_.vic.assign(p_.ways, Victim{});
  reset_regs_.table.assign(p_.max_work_groups, TableEntry{});
  regs_ = reset_regs_;
  mode_.assign(p_.segments, 0);
  mem_.assign(static_cast<size_t>(p_.rows) * wpr_, 0);
  rdata_.assign(wpr_, 0);
  scratch_.assign(wpr_, 0);
}

// ---------------------------------------------------------------------------
// Small helpers

unsigned LdsCtrlModel::seg_of(uint64_t vpn) const {
  return static_cast<unsigned>(vpn & low_mask(p_.segment_index_bits));
}

uint64_t LdsCtrlModel::tag_of(uint64_t vpn) const {
  return shr(vpn & low_mask(p_.vpn_bits), p_.segment_index_bits) & low_mask(p_.va_tag_bits);
}

uint64_t LdsCtrlModel::segment_banks(unsigned segment) const {
  return shl(low_mask(p_.banks_per_segment), (segment % p_.segments_per_row) * p_.banks_per_segment);
}

uint64_t LdsCtrlModel::tag_word_banks(unsigned segment) const {
  return shl(low_mask(p_.tag_words * p_.banks_per_word),
             (segment % p_.segments_per_row) * p_.banks_per_segment);
}

bool LdsCtrlModel::allocated_in(const Regs& r, unsigned segment) const {
  for (const TableEntry& e : r.table) {
    if (e.valid && e.base <= segment && segment < e.end) return true;
  }
  return false;
}

// "The operation needs the SRAM when it is a lookup or shootdown-by-VPN with
// mode[s] = 1, or a fill of a segment that is not allocated."
// READING: evaluated in every ISSUE cycle with that cycle's mode bit (the
// table cannot change while the engine is busy), so an application write
// that turns s LDS-mode while a Tx-mode lookup or shootdown waits makes the
// next ISSUE cycle its issue cycle (a bypass / no-op), even under traffic.
bool LdsCtrlModel::needs_sram(const Regs& r) const {
  switch (r.op) {
    case Op::Lookup:
    case Op::SdVpn:
      return mode_[r.seg] != 0;
    case Op::Fill:
      return !allocated_in(r, r.seg);
    default:
      return false;
  }
}

Bits LdsCtrlModel::row_bits_of(const uint64_t* words) const {
  Bits b;
  row_bits_of(words, b);
  return b;
}

void LdsCtrlModel::row_bits_of(const uint64_t* words, Bits& b) const {
  b.assign_zero(p_.row_bits);
  for (unsigned w = 0; w < wpr_; ++w) {
    b.words[2 * w] = static_cast<uint32_t>(words[w]);
    b.words[2 * w + 1] = static_cast<uint32_t>(words[w] >> 32);
  }
}

// Segment image: tag words = the packed word, slot i = {zeros, perm_i, ppn_i},
// padding words zero.
uint32_t LdsCtrlModel::make_image(const std::vector<BdTag>& cand, const uint64_t* ppn,
                                  const uint64_t* perm, std::vector<uint64_t>& image) const {
  const BdCompressed c = codec_.compress(cand);
  image.assign(wps_, 0);
  for (unsigned k = 0; k < p_.tag_words; ++k) image[k] = c.packed.field(64 * k, 64);
  for (unsigned i = 0; i < p_.ways; ++i) {
    image[p_.tag_words + i] =
        (ppn[i] & low_mask(p_.ppn_bits)) | shl(perm[i] & low_mask(p_.perm_bits), p_.ppn_bits);
  }
  return c.dropped;
}

// The image a fill into a free segment writes in its issue cycle, from the
// registered request: entry 0 is the new entry (valid, lru 0) with its data
// in slot 0; every other entry invalid and every other slot zero.
void LdsCtrlModel::init_image(const Regs& r, std::vector<uint64_t>& image) const {
  std::vector<BdTag> cand(p_.ways);
  std::vector<uint64_t> ppn(p_.ways, 0), perm(p_.ways, 0);
  cand[0].valid = true;
  cand[0].lru = 0;
  cand[0].vmid = r.vmid;
  cand[0].vrf = r.vrf;
  cand[0].va = r.tag;
  ppn[0] = r.ppn;
  perm[0] = r.perm;
  make_image(cand, ppn.data(), perm.data(), image);
}

// ---------------------------------------------------------------------------
// Combinational part: ready rules and the SRAM port mux.

LdsCtrlModel::Comb LdsCtrlModel::comb(const Regs& r, const LdsCtrlIn& in) const {
  Comb c;
  // Ready rules: no application term any more (accepting only registers).
  const bool free = r.st == Eng::Idle;
  c.wg_ready = free && (in.wg_free || r.table_valid < p_.max_work_groups);
  c.wg_fire = in.wg_valid && c.wg_ready;
  c.sd_ready = free && !c.wg_fire;
  c.sd_fire = in.sd_valid && c.sd_ready;
  c.lk_ready = free && !c.wg_fire && !in.sd_valid && !r.resp_valid;
  c.lk_fire = in.lk_valid && c.lk_ready;
  c.fill_ready = free && !c.wg_fire && !in.sd_valid && !c.lk_fire;
  c.fill_fire = in.fill_valid && c.fill_ready;

  // ISSUE: an operation that needs the SRAM waits while app_valid = 1; every
  // other case, and the first cycle with app_valid = 0, is the issue cycle.
  c.issue = r.st == Eng::Issue && !(in.app_valid && needs_sram(r));

  if (in.app_valid) {
    c.port = Port::App;  // the application always wins
  } else if (c.issue) {
    // Decided with mode[s] and "s allocated" in I, from registered values.
    c.seg = r.seg;
    switch (r.op) {
      case Op::Lookup:
      case Op::SdVpn:
        if (mode_[r.seg]) c.port = Port::Read;
        break;
      case Op::Fill:
        if (allocated_in(r, r.seg)) {
          c.port = Port::None;  // bypass
        } else if (!mode_[r.seg]) {
          c.port = Port::Init;
        } else {
          c.port = Port::Read;
        }
        break;
      default:
        break;
    }
  } else if (r.st == Eng::Write && mode_[r.seg]) {
    c.seg = r.seg;
    c.port = Port::Write;
  }
  return c;
}

LdsCtrlOut LdsCtrlModel::outputs(const LdsCtrlIn& in) const {
  LdsCtrlOut o;
  outputs(in, o);
  return o;
}

void LdsCtrlModel::outputs(const LdsCtrlIn& in, LdsCtrlOut& o) const {
  // Asynchronous reset: while rst_n is low the registers show their reset
  // values; the SRAM (and so app_rdata) is not reset.
  const Regs& r = in.rst_n ? regs_ : reset_regs_;
  const Comb c = comb(r, in);
  {  // every field to its default, the two rows keeping their storage (rewritten below)
    LdsCtrlOut fresh;
    std::swap(fresh.app_rdata, o.app_rdata);
    std::swap(fresh.sram_wdata, o.sram_wdata);
    o = std::move(fresh);
  }
  o.app_rvalid = r.app_rvalid;
  row_bits_of(rdata_.data(), o.app_rdata);
  o.wg_ready = c.wg_ready;
  o.wg_done = r.wg_done;
  o.sd_ready = c.sd_ready;
  o.sd_done = r.sd_done;
  o.lk_ready = c.lk_ready;
  o.lk_resp_valid = r.resp_valid;
  o.lk_resp_hit = r.resp_hit;
  o.lk_resp_ppn = r.resp_ppn;
  o.lk_resp_perm = r.resp_perm;
  o.fill_ready = c.fill_ready;
  if (r.st == Eng::Vic && r.vic_head < r.vic_n) {
    const Victim& v = r.vic[r.vic_head];
    o.vic_valid = true;
    o.vic_vpn = v.vpn;
    o.vic_vmid = v.vmid;
    o.vic_vrf = v.vrf;
    o.vic_ppn = v.ppn;
    o.vic_perm = v.perm;
  }
  o.sram_wdata.assign_zero(p_.row_bits);
  const unsigned seg_word = (c.seg % p_.segments_per_row) * wps_;
  switch (c.port) {
    case Port::None:
      break;
    case Port::App: {
      o.sram_en = true;
      o.sram_we = in.app_we;
      o.sram_row = static_cast<uint32_t>(in.app_row & low_mask(p_.row_index_bits));
      o.sram_bank_en = in.app_bank_en & low_mask(p_.banks);
      // wdata verbatim, even for reads (narrowed to the port width)
      const size_t n = std::min(o.sram_wdata.words.size(), in.app_wdata.words.size());
      for (size_t k = 0; k < n; ++k) o.sram_wdata.words[k] = in.app_wdata.words[k];
      break;
    }
    case Port::Read:
      o.sram_en = true;
      o.sram_we = false;
      o.sram_row = c.seg / p_.segments_per_row;
      o.sram_bank_en = segment_banks(c.seg);
      break;
    case Port::Init: {
      std::vector<uint64_t> image;
      init_image(r, image);
      o.sram_en = true;
      o.sram_we = true;
      o.sram_row = c.seg / p_.segments_per_row;
      o.sram_bank_en = segment_banks(c.seg);
      for (unsigned k = 0; k < wps_; ++k) o.sram_wdata.set_field(64 * (seg_word + k), 64, image[k]);
      break;
    }
    case Port::Write:
      o.sram_en = true;
      o.sram_we = true;
      o.sram_row = c.seg / p_.segments_per_row;
      o.sram_bank_en = r.image_banks;
      // READING: "wdata = the segment image of the packed candidate" -- the
      // whole image (slots included) is driven even when only the tag-word
      // banks are enabled (lookup hit, shootdown); bits outside the segment
      // are zero.
      for (unsigned k = 0; k < wps_; ++k) o.sram_wdata.set_field(64 * (seg_word + k), 64, r.image[k]);
      break;
  }
}

// ---------------------------------------------------------------------------
// Behavioural SRAM: at an edge with en = 1, for every enabled bank,
// we ? mem <= wdata : rdata <= mem. Banks not enabled keep their rdata.

void LdsCtrlModel::sram_access(uint32_t row, uint64_t bank_en, bool we, const uint64_t* wdata_row) {
  // READING: a row beyond ROWS (possible only when ROWS = 1 and RI = 1) is
  // not addressed: writes are dropped and rdata keeps its value.
  bank_en &= low_mask(p_.banks);
  bank_accesses_.add(we, static_cast<uint64_t>(__builtin_popcountll(bank_en)));
  if (row >= p_.rows) return;
  uint64_t* mem = &mem_[static_cast<size_t>(row) * wpr_];
  if (we) ++sram_writes_;
  for (unsigned b = 0; bank_en != 0; ++b, bank_en >>= 1) {
    if (!(bank_en & 1)) continue;
    const unsigned w = bank_word_[b];
    const uint64_t m = bank_mask_[b];
    if (we) {
      mem[w] = (mem[w] & ~m) | (wdata_row[w] & m);
    } else {
      rdata_[w] = (rdata_[w] & ~m) | (mem[w] & m);
    }
  }
}

// The application's write data as 64-bit words (missing words read as zero).
void LdsCtrlModel::load_app_wdata(const LdsCtrlIn& in) {
  const BitWords& src = in.app_wdata.words;
  for (unsigned w = 0; w < wpr_; ++w) {
    uint64_t x = 0;
    if (2 * w < src.size()) x = src[2 * w];
    if (2 * w + 1 < src.size()) x |= uint64_t{src[2 * w + 1]} << 32;
    scratch_[w] = x;
  }
}

// ---------------------------------------------------------------------------
// DEC (I+1): the segment read in I is on sram_rdata_i (the SRAM read
// register, pre-edge); "the tag word is unpacked (bd_codec decompression) and
// the entries and slots are registered". An application read in I+1 changes
// the read register at this same edge, after the capture.

void LdsCtrlModel::do_dec(Regs& r) const {
  const unsigned n = p_.ways;
  const unsigned base = (r.seg % p_.segments_per_row) * wps_;
  Bits word(p_.codec.packed_bits);
  for (unsigned k = 0; k < p_.tag_words; ++k) word.set_field(64 * k, 64, rdata_[base + k]);
  codec_.decompress(word, r.dec_e);
  for (unsigned i = 0; i < n; ++i) {
    const uint64_t slot = rdata_[base + p_.tag_words + i];
    r.dec_ppn[i] = slot & low_mask(p_.ppn_bits);
    r.dec_perm[i] = shr(slot, p_.ppn_bits) & low_mask(p_.perm_bits);
  }
}

// ---------------------------------------------------------------------------
// CMP (I+2): works on the DEC register only.

// The working copies live in kept scratch vectors (copy-assigned: no
// allocation per operation).
void LdsCtrlModel::do_cmp(Regs& r, bool& sd_done) {
  const unsigned n = p_.ways;
  std::vector<BdTag>& e = cmp_.e;
  std::vector<uint64_t>& ppn = cmp_.ppn;
  std::vector<uint64_t>& perm = cmp_.perm;
  e = r.dec_e;
  ppn = r.dec_ppn;
  perm = r.dec_perm;
  // Rank normalisation: r[i] = number of valid j with lru[j] < lru[i], or
  // lru[j] = lru[i] and j < i.
  std::vector<unsigned>& rank = cmp_.rank;
  rank.assign(n, 0);
  unsigned v = 0;
  for (unsigned i = 0; i < n; ++i) {
    if (!e[i].valid) continue;
    ++v;
    for (unsigned j = 0; j < n; ++j) {
      if (e[j].valid && (e[j].lru < e[i].lru || (e[j].lru == e[i].lru && j < i))) ++rank[i];
    }
  }
  auto matches = [&](unsigned i, uint32_t vmid, uint32_t vrf, bool any_vrf) {
    return e[i].valid && e[i].va == r.tag && e[i].vmid == vmid && (any_vrf || e[i].vrf == vrf);
  };
  // Candidate entries with lru = rank (invalid entries canonical zero).
  auto candidate = [&]() -> std::vector<BdTag>& {
    std::vector<BdTag>& cand = cmp_.cand;
    cand.assign(n, BdTag{});
    for (unsigned i = 0; i < n; ++i) {
      if (!e[i].valid) continue;
      cand[i] = e[i];
      cand[i].lru = rank[i];
    }
    return cand;
  };

  switch (r.op) {
    case Op::Lookup: {
      int m = -1;
      for (unsigned i = 0; i < n && m < 0; ++i) {
        if (matches(i, r.vmid, r.vrf, false)) m = static_cast<int>(i);
      }
      r.resp_valid = true;
      if (m < 0) {
        r.resp_hit = false;
        r.resp_ppn = 0;
        r.resp_perm = 0;
        r.st = Eng::Idle;
        events_.lookup_miss = true;
        return;
      }
      const unsigned mm = static_cast<unsigned>(m);
      r.resp_hit = true;
      r.resp_ppn = ppn[mm];
      r.resp_perm = perm[mm];
      events_.lookup_hit = true;
      // Touch: every other valid entry with r < k gets r + 1; m gets 0.
      const unsigned k = rank[mm];
      for (unsigned i = 0; i < n; ++i) {
        if (i != mm && e[i].valid && rank[i] < k) ++rank[i];
      }
      rank[mm] = 0;
      // READING: compression cannot drop here (same valid set, same
      // reference); were it to, the entry would be left out silently.
      make_image(candidate(), ppn.data(), perm.data(), r.image);
      r.image_banks = tag_word_banks(r.seg);
      r.image_dropped = false;
      r.pend_n = 0;
      r.st = Eng::Write;
      return;
    }
    case Op::SdVpn: {
      bool any = false;
      for (unsigned i = 0; i < n; ++i) {
        if (matches(i, r.vmid, 0, true)) {
          any = true;
          e[i] = BdTag{};  // made invalid (all-zero)
        }
      }
      if (!any) {
        r.st = Eng::Idle;
        sd_done = true;
        events_.sd_vpn_miss = true;
        return;
      }
      events_.sd_vpn_hit = true;
      // The others keep their normalised ranks (gaps are closed at the next
      // read). READING: with arith encoding the reference may change and an
      // entry may not fit any more; it is then left out of the packed word
      // and lost (victims are handed out only by fills).
      make_image(candidate(), ppn.data(), perm.data(), r.image);
      r.image_banks = tag_word_banks(r.seg);
      r.image_dropped = false;
      r.pend_n = 0;
      r.st = Eng::Write;
      return;
    }
    case Op::Fill: {
      // 1. way w and its rank k.
      int w = -1;
      unsigned k = 0;
      bool evict = false;
      for (unsigned i = 0; i < n && w < 0; ++i) {
        if (matches(i, r.vmid, r.vrf, false)) w = static_cast<int>(i);
      }
      if (w >= 0) {
        k = rank[static_cast<unsigned>(w)];
        events_.fill_update = true;
      } else {
        for (unsigned i = 0; i < n && w < 0; ++i) {
          if (!e[i].valid) w = static_cast<int>(i);
        }
        if (w >= 0) {
          k = v;
          events_.fill_insert_invalid = true;
        } else {
          for (unsigned i = 0; i < n && w < 0; ++i) {
            if (rank[i] == n - 1) w = static_cast<int>(i);
          }
          k = n - 1;
          evict = true;
          events_.fill_evict_lru = true;
        }
      }
      const unsigned ww = static_cast<unsigned>(w);
      r.pend_n = 0;
      if (evict) {
        Victim& x = r.pend[r.pend_n++];
        x.vpn = shl(e[ww].va, p_.segment_index_bits) | r.seg;
        x.vmid = e[ww].vmid;
        x.vrf = e[ww].vrf;
        x.ppn = ppn[ww];
        x.perm = perm[ww];
      }
      // 2. every valid entry i != w with r[i] < k gets r[i] + 1.
      for (unsigned i = 0; i < n; ++i) {
        if (i != ww && e[i].valid && rank[i] < k) ++rank[i];
      }
      std::vector<BdTag>& cand = candidate();
      // 3. placement: the old entry 0 (valid or not, with its rank and its
      // slot data) moves to way w; n goes to way 0 with its data in slot 0.
      if (ww != 0) {
        cand[ww] = cand[0];
        ppn[ww] = ppn[0];
        perm[ww] = perm[0];
      }
      cand[0].valid = true;
      cand[0].lru = 0;
      cand[0].vmid = r.vmid;
      cand[0].vrf = r.vrf;
      cand[0].va = r.tag;
      ppn[0] = r.ppn;
      perm[0] = r.perm;
      // 4. pack; the entries that do not fit become victims, in slot order.
      const uint32_t dropped = make_image(cand, ppn.data(), perm.data(), r.image);
      for (unsigned i = 0; i < n; ++i) {
        if (!((dropped >> i) & 1u)) continue;
        Victim& x = r.pend[r.pend_n++];
        x.vpn = shl(cand[i].va, p_.segment_index_bits) | r.seg;
        x.vmid = cand[i].vmid;
        x.vrf = cand[i].vrf;
        x.ppn = ppn[i] & low_mask(p_.ppn_bits);
        x.perm = perm[i] & low_mask(p_.perm_bits);
      }
      r.image_banks = segment_banks(r.seg);
      r.image_dropped = dropped != 0;
      r.st = Eng::Write;
      return;
    }
    default:
      r.st = Eng::Idle;  // unreachable
      return;
  }
}

// ---------------------------------------------------------------------------
// One rising edge.

void LdsCtrlModel::posedge(const LdsCtrlIn& in) {
  events_ = LdsCtrlEvents{};
  if (!in.rst_n) {
    // READING: the reset is the controller's; the application port is a
    // combinational pass-through to the SRAM, which has no reset, so an
    // application access during reset still reaches the SRAM.
    if (in.app_valid) {
      load_app_wdata(in);
      sram_access(static_cast<uint32_t>(in.app_row & low_mask(p_.row_index_bits)), in.app_bank_en,
                  in.app_we, scratch_.data());
    }
    regs_ = reset_regs_;
    return;
  }

  const Comb c = comb(regs_, in);
  Regs& r = regs_;
  const Eng st = r.st;
  bool wg_done = false, sd_done = false;

  // Response register: valid drops when consumed (hit/ppn/perm hold); a load
  // below (only possible while it is empty) overrides.
  if (r.resp_valid && in.lk_resp_ready) r.resp_valid = false;

  // The SRAM port's write data and the engine's segment image (for Init).
  // Computed before the state update, from the pre-edge state.
  const Port port = c.port;
  if (port == Port::App) {
    load_app_wdata(in);
  } else if (port == Port::Init || port == Port::Write) {
    std::fill(scratch_.begin(), scratch_.end(), 0);
    const unsigned seg_word = (c.seg % p_.segments_per_row) * wps_;
    if (port == Port::Init) {
      std::vector<uint64_t> image;
      init_image(r, image);
      for (unsigned k = 0; k < wps_; ++k) scratch_[seg_word + k] = image[k];
    } else {
      for (unsigned k = 0; k < wps_; ++k) scratch_[seg_word + k] = r.image[k];
    }
  }

  switch (st) {
    case Eng::Idle:
      if (c.wg_fire) {
        // "Work-group requests are registered at A's edge (the dispatcher's
        // inputs then reach only flops) and carried out in the next cycle,
        // state WG (A+1)". Nothing else happens at A's edge.
        r.st = Eng::Wg;
        r.op = in.wg_free ? Op::Free : Op::Alloc;
        r.wg_base = static_cast<uint32_t>(in.wg_base & low_mask(p_.segment_index_bits));
        r.wg_size = static_cast<uint32_t>(in.wg_size & low_mask(p_.size_bits));
      } else if (c.sd_fire) {
        if (in.sd_all) {
          events_.sd_all = true;
          r.st = Eng::Clear;
          r.op = Op::SdAll;
          r.clear_lo = 0;
          r.clear_hi = p_.segments;
          r.clear_group = 0;
          r.clear_last = p_.clear_groups - 1;
        } else {
          // "a shootdown registers no VRF-ID and ignores it": r.vrf keeps
          // whatever it held (never used by a shootdown).
          r.st = Eng::Issue;
          r.op = Op::SdVpn;
          r.seg = seg_of(in.sd_vpn);
          r.tag = tag_of(in.sd_vpn);
          r.vmid = static_cast<uint32_t>(in.sd_vmid & low_mask(p_.vmid_bits));
        }
      } else if (c.lk_fire) {
        r.st = Eng::Issue;
        r.op = Op::Lookup;
        r.seg = seg_of(in.lk_vpn);
        r.tag = tag_of(in.lk_vpn);
        r.vmid = static_cast<uint32_t>(in.lk_vmid & low_mask(p_.vmid_bits));
        r.vrf = static_cast<uint32_t>(in.lk_vrf & low_mask(p_.vrf_bits));
      } else if (c.fill_fire) {
        r.st = Eng::Issue;
        r.op = Op::Fill;
        r.seg = seg_of(in.fill_vpn);
        r.tag = tag_of(in.fill_vpn);
        r.vmid = static_cast<uint32_t>(in.fill_vmid & low_mask(p_.vmid_bits));
        r.vrf = static_cast<uint32_t>(in.fill_vrf & low_mask(p_.vrf_bits));
        r.ppn = in.fill_ppn & low_mask(p_.ppn_bits);
        r.perm = in.fill_perm & low_mask(p_.perm_bits);
      }
      break;

    case Eng::Issue:
      if (!c.issue) break;  // needs the SRAM and the application has it
      switch (r.op) {
        case Op::Lookup:
          if (!mode_[r.seg]) {
            // miss/bypass: the response register loads hit = 0, 0, 0
            events_.lookup_bypass = true;
            r.resp_valid = true;
            r.resp_hit = false;
            r.resp_ppn = 0;
            r.resp_perm = 0;
            r.st = Eng::Idle;
          } else {
            r.st = Eng::Dec;  // read s in I (port Read)
          }
          break;
        case Op::SdVpn:
          if (!mode_[r.seg]) {
            events_.sd_vpn_miss = true;
            sd_done = true;
            r.st = Eng::Idle;
          } else {
            r.st = Eng::Dec;
          }
          break;
        case Op::Fill:
          if (allocated_in(r, r.seg)) {
            // bypass: the victim buffer takes the fill unchanged
            events_.fill_bypass = true;
            Victim& x = r.vic[0];
            x.vpn = shl(r.tag, p_.segment_index_bits) | r.seg;
            x.vmid = r.vmid;
            x.vrf = r.vrf;
            x.ppn = r.ppn;
            x.perm = r.perm;
            r.vic_n = 1;
            r.vic_head = 0;
            r.st = Eng::Vic;
          } else if (!mode_[r.seg]) {
            events_.fill_init = true;
            mode_[r.seg] = 1;  // the write itself is done below (port Init)
            r.st = Eng::Idle;
          } else {
            r.st = Eng::Dec;
          }
          break;
        default:
          r.st = Eng::Idle;  // unreachable
          break;
      }
      break;

    case Eng::Wg: {
      // A+1: the table entry is written (allocate) or released (free) at this
      // edge, from the registered request. The table cannot have changed since
      // A (the engine was busy), so an allocation always finds the invalid
      // entry wg_ready_o saw.
      const uint32_t base = r.wg_base;
      const uint32_t size = r.wg_size;
      const uint32_t end = static_cast<uint32_t>(std::min<uint64_t>(uint64_t{base} + size, p_.segments));
      if (r.op == Op::Alloc) {
        events_.alloc = true;
        // An empty range still takes a table entry ("also for an empty
        // range (a later free of the same base and size releases it)").
        for (TableEntry& t : r.table) {
          if (!t.valid) {
            t.valid = true;
            t.base = base;
            t.size = size;
            t.end = end;
            ++r.table_valid;
            break;
          }
        }
        if (end > base) {
          // CLEAR over [base, end) from A+2.
          r.st = Eng::Clear;
          r.clear_lo = base;
          r.clear_hi = end;
          r.clear_group = base / p_.clear_bits;
          r.clear_last = (end - 1) / p_.clear_bits;
        } else {
          // empty range: IDLE with wg_done_o = 1 in A+2
          r.st = Eng::Idle;
          r.op = Op::None;
          wg_done = true;
        }
      } else {
        events_.free_op = true;
        // "the lowest valid table entry allocated with the same base and
        // the same size becomes invalid": the size as allocated, not the
        // clamped end (two sizes may clamp to the same end).
        for (TableEntry& t : r.table) {
          if (t.valid && t.base == base && t.size == size) {
            t.valid = false;
            --r.table_valid;
            break;
          }
        }
        // A+2: IDLE, wg_done_o = 1; mode bits do not change.
        r.st = Eng::Idle;
        r.op = Op::None;
        wg_done = true;
      }
      break;
    }

    case Eng::Clear: {
      const uint32_t g = r.clear_group;
      const uint32_t from = std::max(g * p_.clear_bits, r.clear_lo);
      const uint32_t to = std::min(g * p_.clear_bits + p_.clear_bits, r.clear_hi);
      bool turned = false;
      for (uint32_t i = from; i < to; ++i) {
        turned = turned || mode_[i];
        mode_[i] = 0;
      }
      if (turned && r.op == Op::Alloc) events_.alloc_over_tx = true;
      if (g == r.clear_last) {
        r.st = Eng::Idle;
        if (r.op == Op::Alloc) wg_done = true;
        if (r.op == Op::SdAll) sd_done = true;
        r.op = Op::None;
      } else {
        ++r.clear_group;
      }
      break;
    }

    case Eng::Dec:
      do_dec(r);
      r.st = Eng::Cmp;
      break;

    case Eng::Cmp:
      do_cmp(r, sd_done);
      break;

    case Eng::Write:
      if (in.app_valid) {
        events_.write_stalled = true;  // application accesses starve it
      } else if (mode_[r.seg]) {
        // mode_ holds every application write since the read in I (at I+1,
        // I+2 and the stalled WRITE cycles), each applied at its own edge.
        // the write itself is done below (port Write)
        if (r.op == Op::Fill) {
          if (r.image_dropped) events_.fill_dropped = true;
          for (unsigned i = 0; i < r.pend_n; ++i) r.vic[i] = r.pend[i];
          r.vic_n = r.pend_n;
          r.vic_head = 0;
          r.st = r.vic_n > 0 ? Eng::Vic : Eng::Idle;
        } else {
          if (r.op == Op::SdVpn) sd_done = true;
          r.st = Eng::Idle;
        }
      } else {
        // "an application write reached the segment after the read": nothing
        // is written; a fill hands out its own new translation.
        events_.write_cancelled = true;
        if (r.op == Op::Fill) {
          Victim& x = r.vic[0];
          x.vpn = shl(r.tag, p_.segment_index_bits) | r.seg;
          x.vmid = r.vmid;
          x.vrf = r.vrf;
          x.ppn = r.ppn;
          x.perm = r.perm;
          r.vic_n = 1;
          r.vic_head = 0;
          r.st = Eng::Vic;
        } else {
          if (r.op == Op::SdVpn) sd_done = true;
          r.st = Eng::Idle;
        }
      }
      break;

    case Eng::Vic:
      if (in.vic_ready) {
        events_.victim_out = true;
        if (++r.vic_head >= r.vic_n) {
          r.vic_n = 0;
          r.vic_head = 0;
          r.st = Eng::Idle;
        }
      } else {
        events_.victim_stalled = true;
      }
      break;
  }

  // The SRAM access of this edge (DEC above has used the pre-edge rdata).
  switch (port) {
    case Port::None:
      break;
    case Port::App:
      sram_access(static_cast<uint32_t>(in.app_row & low_mask(p_.row_index_bits)), in.app_bank_en,
                  in.app_we, scratch_.data());
      break;
    case Port::Read:
      sram_access(c.seg / p_.segments_per_row, segment_banks(c.seg), false, scratch_.data());
      break;
    case Port::Init:
      sram_access(c.seg / p_.segments_per_row, segment_banks(c.seg), true, scratch_.data());
      break;
    case Port::Write:
      sram_access(c.seg / p_.segments_per_row, r.image_banks, true, scratch_.data());
      break;
  }

  // Application writes clear the mode bits of every segment of the row with
  // at least one bank enabled.
  if (in.app_valid && in.app_we) {
    const uint64_t row = in.app_row & low_mask(p_.row_index_bits);
    const uint64_t bank_en = in.app_bank_en & low_mask(p_.banks);
    if (row < p_.rows) {
      for (unsigned j = 0; j < p_.segments_per_row; ++j) {
        if (!(shr(bank_en, j * p_.banks_per_segment) & low_mask(p_.banks_per_segment))) continue;
        const size_t s = row * p_.segments_per_row + j;
        if (mode_[s]) events_.app_write_over_tx = true;
        mode_[s] = 0;
      }
    }
  }

  r.wg_done = wg_done;
  r.sd_done = sd_done;
  r.app_rvalid = in.app_valid && !in.app_we;
}

// ---------------------------------------------------------------------------
// Inspection

bool LdsCtrlModel::mode_bit(unsigned segment) const {
  if (segment >= p_.segments) throw std::out_of_range("lds_ctrl model: segment");
  return mode_[segment] != 0;
}

bool LdsCtrlModel::allocated(unsigned segment) const {
  if (segment >= p_.segments) throw std::out_of_range("lds_ctrl model: segment");
  return allocated_in(regs_, segment);
}

Bits LdsCtrlModel::sram_row_data(unsigned row) const {
  if (row >= p_.rows) throw std::out_of_range("lds_ctrl model: row");
  return row_bits_of(&mem_[static_cast<size_t>(row) * wpr_]);
}

bool LdsCtrlModel::idle() const { return regs_.st == Eng::Idle; }

std::vector<LdsCtrlModel::HeldTx> LdsCtrlModel::held() const {
  std::vector<HeldTx> v;
  for (unsigned s = 0; s < p_.segments; ++s) {
    if (!mode_[s]) continue;
    const uint64_t* mem = &mem_[static_cast<size_t>(s / p_.segments_per_row) * wpr_ + (s % p_.segments_per_row) * wps_];
    Bits word(p_.codec.packed_bits);
    for (unsigned k = 0; k < p_.tag_words; ++k) word.set_field(64 * k, 64, mem[k]);
    const std::vector<BdTag> e = codec_.decompress(word);
    for (unsigned i = 0; i < p_.ways; ++i) {
      if (!e[i].valid) continue;
      const uint64_t slot = mem[p_.tag_words + i];
      HeldTx h;
      h.vpn = shl(e[i].va, p_.segment_index_bits) | s;
      h.vmid = e[i].vmid;
      h.vrf = e[i].vrf;
      h.ppn = slot & low_mask(p_.ppn_bits);
      h.perm = shr(slot, p_.ppn_bits) & low_mask(p_.perm_bits);
      v.push_back(h);
    }
  }
  return v;
}

bool LdsCtrlModel::holds(uint64_t vpn, uint32_t vmid, uint32_t vrf) const {
  const unsigned s = seg_of(vpn);
  if (!mode_[s]) return false;
  const uint64_t* mem = &mem_[static_cast<size_t>(s / p_.segments_per_row) * wpr_ + (s % p_.segments_per_row) * wps_];
  Bits word(p_.codec.packed_bits);
  for (unsigned k = 0; k < p_.tag_words; ++k) word.set_field(64 * k, 64, mem[k]);
  const std::vector<BdTag> e = codec_.decompress(word);
  const uint64_t t = tag_of(vpn);
  for (unsigned i = 0; i < p_.ways; ++i) {
    if (e[i].valid && e[i].va == t && e[i].vmid == vmid && e[i].vrf == vrf) return true;
  }
  return false;
}

std::vector<LdsCtrlModel::HeldTx> LdsCtrlModel::in_flight() const {
  std::vector<HeldTx> v;
  const Regs& r = regs_;
  const bool fill_pending = r.op == Op::Fill && (r.st == Eng::Issue || r.st == Eng::Dec || r.st == Eng::Cmp ||
                                                  r.st == Eng::Write);
  if (fill_pending) v.push_back(HeldTx{shl(r.tag, p_.segment_index_bits) | r.seg, r.vmid, r.vrf, r.ppn, r.perm});
  if (r.st == Eng::Vic) {
    for (unsigned i = r.vic_head; i < r.vic_n; ++i) {
      const Victim& x = r.vic[i];
      v.push_back(HeldTx{x.vpn, x.vmid, x.vrf, x.ppn, x.perm});
    }
  }
  return v;
}

bool LdsCtrlModel::shootdown_busy(unsigned* segment) const {
  const Regs& r = regs_;
  const bool busy = r.op == Op::SdVpn && (r.st == Eng::Issue || r.st == Eng::Dec || r.st == Eng::Cmp ||
                                           r.st == Eng::Write);
  if (busy && segment) *segment = r.seg;
  return busy;
}

void LdsCtrlModel::copy_registers(const LdsCtrlModel& from) { registers_of(*this) = registers_of(from); }

bool LdsCtrlModel::same_registers(const LdsCtrlModel& o) const { return registers_of(*this) == registers_of(o); }

}  // namespace txgen::model
