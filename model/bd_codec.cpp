// Golden model of the base-delta tag codec, from docs/blocks/bd_codec.md only.
#include "model/bd_codec.h"

#include "model/util.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace txgen::model {

// ---------------------------------------------------------------------------
// 64-bit helpers. Every field may be up to 64 bits wide, and C++ shifts by
// the operand width are undefined, so all shifts go through these.

namespace {

uint64_t low_mask(unsigned bits) { return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }

uint64_t shift_left(uint64_t x, unsigned n) { return n >= 64 ? 0 : x << n; }

uint64_t shift_right(uint64_t x, unsigned n) { return n >= 64 ? 0 : x >> n; }

uint64_t sub_mod(uint64_t a, uint64_t b, unsigned t) { return (a - b) & low_mask(t); }

// True when `delta`, a t-bit two's-complement number, lies in
// [-2^(v-1), 2^(v-1) - 1], i.e. bits [t-1 : v-1] are all equal.
bool fits_signed(uint64_t delta, unsigned t, unsigned v) {
  if (v >= t) return true;
  if (v == 0) return delta == 0;  // a zero-width delta can only say "same tag"
  const uint64_t upper = shift_right(delta, v - 1);
  return upper == 0 || upper == low_mask(t - v + 1);
}

// Sign-extends the v-bit value to t bits (v <= t).
uint64_t sign_extend(uint64_t value, unsigned v, unsigned t) {
  if (v == 0) return 0;
  value &= low_mask(v);
  if (v >= t || ((value >> (v - 1)) & 1) == 0) return value;
  return (value | ~low_mask(v)) & low_mask(t);
}

const Require require{"bd_codec model"};

}  // namespace

// ---------------------------------------------------------------------------
// Layout: every bit position, derived here from the document's bit maps.

namespace {

using elab::BdCodecParams;

bool is_prefix(const BdCodecParams& p) { return p.encoding == config::CodecEncoding::Prefix; }

unsigned entry_lsb(const BdCodecParams& p, unsigned i) { return p.base_bits + i * p.entry_bits; }

// Within an entry field: valid at 0, lru at 1, then ids (per entry), then value.
constexpr unsigned kValidOffset = 0;
constexpr unsigned kLruOffset = 1;
unsigned entry_vmid_offset(const BdCodecParams& p) { return 1 + p.lru_bits; }
unsigned entry_vrf_offset(const BdCodecParams& p) { return 1 + p.lru_bits + p.vmid_bits; }
unsigned entry_value_offset(const BdCodecParams& p) {
  return 1 + p.lru_bits + (p.ids_shared() ? 0 : p.vmid_bits + p.vrf_bits);
}

// Within the base field (bit 0 of the word): base value, then shared ids.
constexpr unsigned kBaseValueLsb = 0;
unsigned base_vmid_lsb(const BdCodecParams& p) { return p.base_value_bits; }
unsigned base_vrf_lsb(const BdCodecParams& p) { return p.base_value_bits + p.vmid_bits; }

// Checks that the widths are the document's derivation, so a mis-elaborated
// (or mistyped, in a test) parameter set fails loudly instead of silently
// agreeing with a wrong emitter.
void validate(const BdCodecParams& p) {
  const unsigned n = p.tags;
  require(n >= 1 && n <= 32, "tags must be in [1, 32] (dropped is a 32-bit mask)");
  require(p.va_tag_bits >= 1 && p.va_tag_bits <= 64, "va_tag_bits must be in [1, 64]");
  require(p.lru_bits == ceil_log2(n), "lru_bits != ceil(log2(tags))");
  require(p.lru_bits <= 32 && p.vmid_bits <= 32 && p.vrf_bits <= 32, "lru/vmid/vrf wider than 32");
  require(p.delta_bits == n * p.entry_bits, "delta_bits != tags * entry_bits");
  require(p.packed_bits == p.base_bits + p.delta_bits, "packed_bits != base_bits + delta_bits");
  require(p.entry_meta_bits == entry_value_offset(p), "entry_meta_bits != 1 + L (+ M + R)");
  require(p.entry_meta_bits <= p.entry_bits, "entry metadata wider than the entry");
  const unsigned room = p.entry_bits - p.entry_meta_bits;
  require(p.value_bits == (room < p.va_tag_bits ? room : p.va_tag_bits), "value_bits != min(d - m, T)");
  const unsigned bv = is_prefix(p) ? p.va_tag_bits - p.value_bits : p.va_tag_bits;
  require(p.base_value_bits == bv, "base_value_bits != T - V (prefix) / T (arith)");
  require(bv <= 64, "base value wider than 64");
  const unsigned used = bv + (p.ids_shared() ? p.vmid_bits + p.vrf_bits : 0);
  require(p.base_used_bits == used, "base_used_bits != Bv (+ M + R when shared)");
  require(used <= p.base_bits, "base field overflows base_bits");
}

// Inputs narrowed to their port widths, as the hardware sees them.
BdTag to_port_widths(const BdCodecParams& p, const BdTag& t) {
  BdTag n;
  n.valid = t.valid;
  n.lru = static_cast<uint32_t>(t.lru & low_mask(p.lru_bits));
  n.vmid = static_cast<uint32_t>(t.vmid & low_mask(p.vmid_bits));
  n.vrf = static_cast<uint32_t>(t.vrf & low_mask(p.vrf_bits));
  n.va = t.va & low_mask(p.va_tag_bits);
  return n;
}

int reference_index(const std::vector<BdTag>& tags) {
  for (unsigned i = 0; i < tags.size(); ++i) {
    if (tags[i].valid) return static_cast<int>(i);
  }
  return -1;
}

uint64_t base_value_of(const BdCodecParams& p, const BdTag& t) {
  return is_prefix(p) ? shift_right(t.va, p.value_bits) : t.va;
}

uint64_t entry_value_of(const BdCodecParams& p, const BdTag& t, const BdTag& ref) {
  const uint64_t raw = is_prefix(p) ? t.va : sub_mod(t.va, ref.va, p.va_tag_bits);
  return raw & low_mask(p.value_bits);
}

bool va_fits(const BdCodecParams& p, const BdTag& t, const BdTag& ref) {
  if (is_prefix(p)) return base_value_of(p, t) == base_value_of(p, ref);
  return fits_signed(sub_mod(t.va, ref.va, p.va_tag_bits), p.va_tag_bits, p.value_bits);
}

bool ids_fit(const BdCodecParams& p, const BdTag& t, const BdTag& ref) {
  return !p.ids_shared() || (t.vmid == ref.vmid && t.vrf == ref.vrf);
}

void write_base(const BdCodecParams& p, const BdTag& ref, Bits& word) {
  word.set_field(kBaseValueLsb, p.base_value_bits, base_value_of(p, ref));
  if (!p.ids_shared()) return;
  word.set_field(base_vmid_lsb(p), p.vmid_bits, ref.vmid);
  word.set_field(base_vrf_lsb(p), p.vrf_bits, ref.vrf);
}

void write_entry(const BdCodecParams& p, unsigned i, const BdTag& t, const BdTag& ref, Bits& word) {
  const unsigned lsb = entry_lsb(p, i);
  word.set(lsb + kValidOffset, true);
  word.set_field(lsb + kLruOffset, p.lru_bits, t.lru);
  if (!p.ids_shared()) {
    word.set_field(lsb + entry_vmid_offset(p), p.vmid_bits, t.vmid);
    word.set_field(lsb + entry_vrf_offset(p), p.vrf_bits, t.vrf);
  }
  word.set_field(lsb + entry_value_offset(p), p.value_bits, entry_value_of(p, t, ref));
}

uint64_t decode_va(const BdCodecParams& p, uint64_t base, uint64_t value) {
  const unsigned t = p.va_tag_bits;
  if (is_prefix(p)) return (shift_left(base, p.value_bits) | value) & low_mask(t);
  return (base + sign_extend(value, p.value_bits, t)) & low_mask(t);
}

BdTag read_entry(const BdCodecParams& p, const Bits& word, unsigned i) {
  const unsigned lsb = entry_lsb(p, i);
  BdTag t;
  if (!word.get(lsb + kValidOffset)) return t;  // invalid: canonical zero
  t.valid = true;
  t.lru = static_cast<uint32_t>(word.field(lsb + kLruOffset, p.lru_bits));
  if (p.ids_shared()) {
    t.vmid = static_cast<uint32_t>(word.field(base_vmid_lsb(p), p.vmid_bits));
    t.vrf = static_cast<uint32_t>(word.field(base_vrf_lsb(p), p.vrf_bits));
  } else {
    t.vmid = static_cast<uint32_t>(word.field(lsb + entry_vmid_offset(p), p.vmid_bits));
    t.vrf = static_cast<uint32_t>(word.field(lsb + entry_vrf_offset(p), p.vrf_bits));
  }
  const uint64_t base = word.field(kBaseValueLsb, p.base_value_bits);
  const uint64_t value = word.field(lsb + entry_value_offset(p), p.value_bits);
  t.va = decode_va(p, base, value);
  return t;
}

}  // namespace

// ---------------------------------------------------------------------------
// Untimed codec

BdCodecModel::BdCodecModel(const elab::BdCodecParams& p) : p_(p) { validate(p_); }

// Each entry is narrowed to its port widths where it is read (no copy of the
// input: the co-simulation compresses every cycle).
BdCompressed BdCodecModel::compress(const std::vector<BdTag>& tags) const {
  require(tags.size() == p_.tags, "compress needs exactly N tags");
  BdCompressed out;
  out.packed = Bits(p_.packed_bits);
  const int r = reference_index(tags);
  if (r < 0) return out;  // nothing valid: all-zero word, fits, nothing dropped
  const BdTag ref = to_port_widths(p_, tags[static_cast<unsigned>(r)]);
  write_base(p_, ref, out.packed);
  for (unsigned i = 0; i < p_.tags; ++i) {
    if (!tags[i].valid) continue;  // invalid entries stay all-zero
    const BdTag t = to_port_widths(p_, tags[i]);
    if (va_fits(p_, t, ref) && ids_fit(p_, t, ref)) {
      write_entry(p_, i, t, ref, out.packed);
    } else {
      out.dropped |= uint32_t{1} << i;
    }
  }
  out.fits = out.dropped == 0;
  return out;
}

std::vector<BdTag> BdCodecModel::decompress(const Bits& packed) const {
  std::vector<BdTag> tags;
  decompress(packed, tags);
  return tags;
}

void BdCodecModel::decompress(const Bits& packed, std::vector<BdTag>& tags) const {
  require(packed.width == p_.packed_bits, "decompress needs a W-bit word");
  tags.resize(p_.tags);
  for (unsigned i = 0; i < p_.tags; ++i) tags[i] = read_entry(p_, packed, i);
}

// ---------------------------------------------------------------------------
// Cycle models. Reset state is "all registers zero": note fits_o resets to 0,
// not to the untimed "nothing valid fits" value.

namespace {

BdCompressed zero_compressed(const elab::BdCodecParams& p) {
  BdCompressed z;
  z.packed = Bits(p.packed_bits);
  z.fits = false;
  z.dropped = 0;
  return z;
}

std::vector<BdTag> zero_tags(const elab::BdCodecParams& p) { return std::vector<BdTag>(p.tags); }

}  // namespace

BdCompStage::BdCompStage(const elab::BdCodecParams& p)
    : codec_(p), data_q_(zero_compressed(codec_.params())) {}

BdCompOut BdCompStage::outputs(const BdCompIn& in) {
  BdCompOut out;
  outputs(in, out);
  return out;
}

void BdCompStage::outputs(const BdCompIn& in, BdCompOut& out) {
  if (!in.rst_n) {  // asynchronous reset: visible before any edge
    out_valid_q_ = false;
    data_q_ = zero_compressed(codec_.params());
  }
  out.in_ready = !out_valid_q_ || in.out_ready;
  out.out_valid = out_valid_q_;
  out.result = data_q_;
}

void BdCompStage::posedge(const BdCompIn& in) {
  if (!in.rst_n) {
    out_valid_q_ = false;
    data_q_ = zero_compressed(codec_.params());
    return;
  }
  const bool in_ready = !out_valid_q_ || in.out_ready;
  if (in.in_valid && in_ready) {
    data_q_ = codec_.compress(in.tags);
    out_valid_q_ = true;
  } else if (in.out_ready) {
    out_valid_q_ = false;  // data registers hold their last value
  }
}

BdDecompStage::BdDecompStage(const elab::BdCodecParams& p)
    : codec_(p), data_q_(zero_tags(codec_.params())) {}

BdDecompOut BdDecompStage::outputs(const BdDecompIn& in) {
  BdDecompOut out;
  outputs(in, out);
  return out;
}

void BdDecompStage::outputs(const BdDecompIn& in, BdDecompOut& out) {
  if (!in.rst_n) reset();
  out.in_ready = !out_valid_q_ || in.out_ready;
  out.out_valid = out_valid_q_;
  out.tags = data_q_;
}

void BdDecompStage::posedge(const BdDecompIn& in) {
  if (!in.rst_n) {
    reset();
    return;
  }
  const bool in_ready = !out_valid_q_ || in.out_ready;
  if (in.in_valid && in_ready) {
    codec_.decompress(in.packed, data_q_);
    out_valid_q_ = true;
  } else if (in.out_ready) {
    out_valid_q_ = false;
  }
}

void BdDecompStage::reset() {
  out_valid_q_ = false;
  std::fill(data_q_.begin(), data_q_.end(), BdTag{});
}

}  // namespace txgen::model
