// Lock-step harness of bd_codec_NAME_comp and bd_codec_NAME_decomp
// (docs/blocks/bd_codec.md) against model::BdCompStage / BdDecompStage.
// Each cycle: drive the inputs, settle, compare every DUT output with the
// model's outputs(), then the rising edge on both. Templates over the
// Verilated classes so one harness serves every configuration.
#pragma once

#include <deque>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "cosim_util.h"
#include "model/bd_codec.h"
#include "txgen/elab/bd_codec.h"

namespace txgen::verif {

using model::BdTag;

// ---------------------------------------------------------------------------
// Flat tag vectors (entry i at [(i+1)*X-1 : i*X]) <-> per-entry tags.

struct BdTagVectors {
  Bits valid, lru, vmid, vrf, va;
};

inline BdTagVectors flatten_tags(const elab::BdCodecParams& p, const std::vector<BdTag>& tags) {
  const unsigned n = p.tags;
  BdTagVectors flat{Bits(n), Bits(n * p.lru_bits), Bits(n * p.vmid_bits), Bits(n * p.vrf_bits),
                    Bits(n * p.va_tag_bits)};
  for (unsigned i = 0; i < n && i < tags.size(); ++i) {
    flat.valid.set_field(i, 1, tags[i].valid);
    flat.lru.set_field(i * p.lru_bits, p.lru_bits, tags[i].lru);
    flat.vmid.set_field(i * p.vmid_bits, p.vmid_bits, tags[i].vmid);
    flat.vrf.set_field(i * p.vrf_bits, p.vrf_bits, tags[i].vrf);
    flat.va.set_field(i * p.va_tag_bits, p.va_tag_bits, tags[i].va);
  }
  return flat;
}

inline std::vector<BdTag> split_tags(const elab::BdCodecParams& p, const BdTagVectors& flat) {
  std::vector<BdTag> tags(p.tags);
  for (unsigned i = 0; i < p.tags; ++i) {
    tags[i].valid = flat.valid.field(i, 1) != 0;
    tags[i].lru = static_cast<uint32_t>(flat.lru.field(i * p.lru_bits, p.lru_bits));
    tags[i].vmid = static_cast<uint32_t>(flat.vmid.field(i * p.vmid_bits, p.vmid_bits));
    tags[i].vrf = static_cast<uint32_t>(flat.vrf.field(i * p.vrf_bits, p.vrf_bits));
    tags[i].va = flat.va.field(i * p.va_tag_bits, p.va_tag_bits);
  }
  return tags;
}

// The same layout straight on the five Verilated tag ports (no Bits in
// between: the harness converts them every cycle).
template <class Valid, class Lru, class Vmid, class Vrf, class Va>
void check_tag_ports(const elab::BdCodecParams& p) {
  const unsigned n = p.tags;
  check_port_width(n, port_bits<Valid>());
  check_port_width(n * p.lru_bits, port_bits<Lru>());
  check_port_width(n * p.vmid_bits, port_bits<Vmid>());
  check_port_width(n * p.vrf_bits, port_bits<Vrf>());
  check_port_width(n * p.va_tag_bits, port_bits<Va>());
}

template <class Valid, class Lru, class Vmid, class Vrf, class Va>
void tags_to_ports(const elab::BdCodecParams& p, const std::vector<BdTag>& tags, Valid& valid, Lru& lru, Vmid& vmid,
                   Vrf& vrf, Va& va) {
  const unsigned n = p.tags;
  const auto field = [&](auto BdTag::*member) {  // entries missing from `tags` are zero
    return [&tags, member](unsigned i) { return i < tags.size() ? uint64_t{tags[i].*member} : 0; };
  };
  fields_to_port(valid, n, 1, field(&BdTag::valid));
  fields_to_port(lru, n, p.lru_bits, field(&BdTag::lru));
  fields_to_port(vmid, n, p.vmid_bits, field(&BdTag::vmid));
  fields_to_port(vrf, n, p.vrf_bits, field(&BdTag::vrf));
  fields_to_port(va, n, p.va_tag_bits, field(&BdTag::va));
}

template <class Valid, class Lru, class Vmid, class Vrf, class Va>
void tags_from_ports(const elab::BdCodecParams& p, const Valid& valid, const Lru& lru, const Vmid& vmid,
                     const Vrf& vrf, const Va& va, std::vector<BdTag>& tags) {
  const unsigned n = p.tags;
  check_tag_ports<Valid, Lru, Vmid, Vrf, Va>(p);
  tags.resize(n);
  for (unsigned i = 0; i < n; ++i) {
    tags[i].valid = port_field(valid, i, 1) != 0;
    tags[i].lru = static_cast<uint32_t>(port_field(lru, i * p.lru_bits, p.lru_bits));
    tags[i].vmid = static_cast<uint32_t>(port_field(vmid, i * p.vmid_bits, p.vmid_bits));
    tags[i].vrf = static_cast<uint32_t>(port_field(vrf, i * p.vrf_bits, p.vrf_bits));
    tags[i].va = port_field(va, i * p.va_tag_bits, p.va_tag_bits);
  }
}

inline std::string format_tag(const BdTag& tag) {
  std::ostringstream out;
  out << "{valid=" << tag.valid << " lru=" << tag.lru << " vmid=" << tag.vmid << " vrf=" << tag.vrf
      << " va=0x" << std::hex << tag.va << "}";
  return out.str();
}

inline std::string format_tags(const std::vector<BdTag>& tags) {
  std::string text;
  for (std::size_t i = 0; i < tags.size(); ++i)
    text += "[" + std::to_string(i) + "]" + format_tag(tags[i]) + (i + 1 < tags.size() ? " " : "");
  return text;
}

// ---------------------------------------------------------------------------
// Spec arithmetic used to build corner stimulus and to count coverage (never
// to compute expected outputs: those come from the model or from the tests).

// Signed distance of va from the reference as the encoding sees it: the plain
// difference for prefix, the T-bit ring difference for arith.
inline int64_t bd_delta(const elab::BdCodecParams& p, uint64_t ref_va, uint64_t va) {
  const unsigned t = p.va_tag_bits;
  if (p.encoding == config::CodecEncoding::Prefix)
    return static_cast<int64_t>(va) - static_cast<int64_t>(ref_va);
  const uint64_t ring = (va - ref_va) & low_mask(t);
  const bool negative = t < 64 && ((ring >> (t - 1)) & 1u);
  return negative ? static_cast<int64_t>(ring) - static_cast<int64_t>(uint64_t{1} << t)
                  : static_cast<int64_t>(ring);
}

// Deltas [lo, hi] from the reference whose VA fits (ids aside).
struct BdDeltaWindow {
  int64_t lo = 0;
  int64_t hi = 0;
};

inline BdDeltaWindow bd_delta_window(const elab::BdCodecParams& p, uint64_t ref_va) {
  const unsigned v = p.value_bits;
  if (p.encoding == config::CodecEncoding::Prefix) {
    const int64_t low = static_cast<int64_t>(ref_va & low_mask(v));
    return {-low, static_cast<int64_t>(low_mask(v)) - low};
  }
  return {-(int64_t{1} << (v - 1)), (int64_t{1} << (v - 1)) - 1};
}

// VA at a signed distance from the reference (ring arithmetic mod 2^T).
inline uint64_t bd_va_at(const elab::BdCodecParams& p, uint64_t ref_va, int64_t delta) {
  return (ref_va + static_cast<uint64_t>(delta)) & low_mask(p.va_tag_bits);
}

// Whether a VA one step outside the window exists (else over/under limit
// cannot be stimulated): prefix needs a prefix (Bv > 0), arith a narrower delta.
inline bool bd_window_can_overflow(const elab::BdCodecParams& p) {
  return p.encoding == config::CodecEncoding::Prefix ? p.base_value_bits > 0
                                                     : p.value_bits < p.va_tag_bits;
}

inline int bd_reference_index(const std::vector<BdTag>& tags) {
  for (std::size_t i = 0; i < tags.size(); ++i)
    if (tags[i].valid) return static_cast<int>(i);
  return -1;
}

// Bits a canonical packed word holds at zero: padding of valid entries, whole
// fields of invalid entries, unused base bits, everything when no entry is valid.
inline bool bd_is_canonical(const elab::BdCodecParams& p, const Bits& packed) {
  const unsigned used = p.entry_meta_bits + p.value_bits;
  bool any_valid = false;
  for (unsigned i = 0; i < p.tags; ++i) {
    const unsigned lsb = p.base_bits + i * p.entry_bits;
    const uint64_t field = packed.field(lsb, p.entry_bits);
    const bool valid = field & 1u;
    any_valid |= valid;
    if (!valid && field != 0) return false;
    if (valid && (field >> used) != 0) return false;
  }
  const uint64_t base = packed.field(0, p.base_bits);
  if (!any_valid) return base == 0;
  return (base >> p.base_used_bits) == 0;
}

inline std::string describe_packed_difference(const elab::BdCodecParams& p, const Bits& expected,
                                              const Bits& actual) {
  std::string text;
  if (expected.field(0, p.base_bits) != actual.field(0, p.base_bits))
    text += "base field: expected " + to_hex(p.base_bits, expected.field(0, p.base_bits)) +
            " actual " + to_hex(p.base_bits, actual.field(0, p.base_bits)) + "; ";
  for (unsigned i = 0; i < p.tags; ++i) {
    const unsigned lsb = p.base_bits + i * p.entry_bits;
    const uint64_t e = expected.field(lsb, p.entry_bits), a = actual.field(lsb, p.entry_bits);
    if (e != a)
      text += "entry " + std::to_string(i) + ": expected " + to_hex(p.entry_bits, e) + " actual " +
              to_hex(p.entry_bits, a) + "; ";
  }
  return text;
}

// ---------------------------------------------------------------------------
// Comparison helpers shared by both stages.

// Names which entries of a flat vector differ.
inline std::string describe_entry_difference(const Bits& expected, const Bits& actual,
                                             unsigned field_bits, unsigned count) {
  const auto e = unpack_entries(expected, field_bits, count);
  const auto a = unpack_entries(actual, field_bits, count);
  std::string text;
  for (unsigned i = 0; i < count; ++i)
    if (e[i] != a[i])
      text += "entry " + std::to_string(i) + ": expected " + to_hex(field_bits, e[i]) + " actual " +
              to_hex(field_bits, a[i]) + "; ";
  return text;
}

// ---------------------------------------------------------------------------
// Coverage. Counter names carry the stage ("comp.fits") so a chain of both
// stages keeps them apart; ids are looked up once.

// Handshake events of a valid/ready stage.
class StageCoverage {
 public:
  StageCoverage(CoverageCounters& c, const std::string& stage)
      : c_(c), reset_(c.declare(stage + ".reset")), stall_(c.declare(stage + ".backpressure_stall")) {}

  template <class In, class Out>
  void count(const In& in, const Out& out) {
    if (!in.rst_n && !in_reset_) c_.hit(reset_);
    in_reset_ = !in.rst_n;
    if (in.rst_n && out.out_valid && !in.out_ready) c_.hit(stall_);
  }

 private:
  CoverageCounters& c_;
  CoverageCounters::Id reset_, stall_;
  bool in_reset_ = false;
};

// The compressor's input space, counted when the stage takes a vector, and
// its results, counted when its output is taken.
class CompCoverage {
 public:
  CompCoverage(CoverageCounters& c, const elab::BdCodecParams& p, const std::string& stage)
      : c_(c), p_(p), handshake_(c, stage) {
    const auto id = [&](const char* name) { return c.declare(stage + "." + name); };
    accepted_ = id("accepted"), all_invalid_ = id("all_invalid"), invalid_entry_ = id("invalid_entry");
    fits_ = id("fits"), dropped_ = id("dropped");
    max_pos_ = id("max_positive_delta"), max_neg_ = id("max_negative_delta");
    over_pos_ = id("over_positive_limit"), under_neg_ = id("under_negative_limit");
    if (p.ids_shared()) ids_mismatch_ = id("ids_mismatch");
    if (p.encoding == config::CodecEncoding::Arith) wrap_ = id("wrap_around");
  }

  void count(const model::BdCompIn& in, const model::BdCompOut& out) {
    handshake_.count(in, out);
    if (!in.rst_n) return;
    if (in.in_valid && out.in_ready) count_input(in.tags);
    if (out.out_valid && in.out_ready) c_.hit(out.result.fits ? fits_ : dropped_);
  }

 private:
  void count_input(const std::vector<BdTag>& tags) {
    c_.hit(accepted_);
    const int ref = bd_reference_index(tags);
    if (ref < 0) c_.hit(all_invalid_);
    for (std::size_t i = 0; i < tags.size(); ++i) {
      if (!tags[i].valid) c_.hit(invalid_entry_);
      else if (static_cast<int>(i) != ref) count_entry(tags[ref], tags[i]);
    }
  }

  void count_entry(const BdTag& ref, const BdTag& tag) {
    if (p_.ids_shared() && (tag.vmid != ref.vmid || tag.vrf != ref.vrf)) {
      c_.hit(ids_mismatch_);
      return;  // dropped for its ids: its delta says nothing about the VA window
    }
    const int64_t delta = bd_delta(p_, ref.va, tag.va);
    const BdDeltaWindow window = bd_delta_window(p_, ref.va);
    if (delta == window.hi) c_.hit(max_pos_);
    if (delta == window.lo) c_.hit(max_neg_);
    if (delta == window.hi + 1) c_.hit(over_pos_);
    if (delta == window.lo - 1) c_.hit(under_neg_);
    const int64_t sum = static_cast<int64_t>(ref.va) + delta;
    const bool inside = delta >= window.lo && delta <= window.hi;
    if (p_.encoding == config::CodecEncoding::Arith && inside &&
        (sum < 0 || sum > static_cast<int64_t>(low_mask(p_.va_tag_bits))))
      c_.hit(wrap_);
  }

  CoverageCounters& c_;
  const elab::BdCodecParams& p_;
  StageCoverage handshake_;
  CoverageCounters::Id accepted_, all_invalid_, invalid_entry_, fits_, dropped_, max_pos_, max_neg_,
      over_pos_, under_neg_, ids_mismatch_ = 0, wrap_ = 0;
};

// Counters a healthy random run of the compressor must hit (a stimulus
// regression fails the test).
// Whether any valid entry can ever be left out: a VA outside the window, or
// (shared ids) an address space other than the reference's.
inline bool bd_can_drop(const elab::BdCodecParams& p) { return bd_window_can_overflow(p) || p.ids_shared(); }

inline std::vector<std::string> required_comp_coverage(const elab::BdCodecParams& p,
                                                       const std::string& stage = "comp") {
  std::vector<std::string> names = {"accepted", "all_invalid", "invalid_entry", "fits",
                                    "max_positive_delta", "max_negative_delta",
                                    "backpressure_stall", "reset"};
  if (bd_can_drop(p)) names.push_back("dropped");
  if (bd_window_can_overflow(p)) {
    names.push_back("over_positive_limit");
    names.push_back("under_negative_limit");
  }
  if (p.ids_shared()) names.push_back("ids_mismatch");
  if (p.encoding == config::CodecEncoding::Arith) names.push_back("wrap_around");
  for (std::string& name : names) name = stage + "." + name;
  return names;
}

// The decompressor's input words, counted when the stage takes one.
class DecompCoverage {
 public:
  DecompCoverage(CoverageCounters& c, const elab::BdCodecParams& p, const std::string& stage)
      : c_(c), p_(p), handshake_(c, stage) {
    const auto id = [&](const char* name) { return c.declare(stage + "." + name); };
    accepted_ = id("accepted"), all_invalid_ = id("all_invalid_word"), all_valid_ = id("all_valid_word");
    noncanonical_ = id("noncanonical_word"), valid_entry_ = id("valid_entry");
  }

  void count(const model::BdDecompIn& in, const model::BdDecompOut& out) {
    handshake_.count(in, out);
    if (in.rst_n && in.in_valid && out.in_ready) count_input(in.packed);
  }

 private:
  void count_input(const Bits& packed) {
    c_.hit(accepted_);
    unsigned valid = 0;
    for (unsigned i = 0; i < p_.tags; ++i) valid += packed.get(p_.base_bits + i * p_.entry_bits);
    c_.hit(valid_entry_, valid);
    if (valid == 0) c_.hit(all_invalid_);
    if (valid == p_.tags) c_.hit(all_valid_);
    if (!bd_is_canonical(p_, packed)) c_.hit(noncanonical_);
  }

  CoverageCounters& c_;
  const elab::BdCodecParams& p_;
  StageCoverage handshake_;
  CoverageCounters::Id accepted_, all_invalid_, all_valid_, noncanonical_, valid_entry_;
};

inline std::vector<std::string> required_decomp_coverage(const std::string& stage = "decomp") {
  std::vector<std::string> names = {"accepted", "all_invalid_word", "all_valid_word",
                                    "noncanonical_word", "valid_entry", "backpressure_stall", "reset"};
  for (std::string& name : names) name = stage + "." + name;
  return names;
}

// ---------------------------------------------------------------------------
// bd_codec_NAME_comp


template <class Dut>
class BdCompHarness {
 public:
  BdCompHarness(CosimSession& session, const elab::BdCodecParams& p, const char* instance = "comp")
      : session_(session),
        p_(p),
        model_(p),
        dut_(session, instance),
        coverage_(session.coverage(), p_, instance),
        tape_(bench_tape<BdCompHarness, model::BdCompIn>(session, p)) {}
  BdCompHarness(const BdCompHarness&) = delete;  // the coverage refers to p_
  BdCompHarness& operator=(const BdCompHarness&) = delete;

  // Drives the inputs with the clock low and settles the combinational outputs.
  void drive(const model::BdCompIn& in) {
    in_ = in;
    drive_rtl(in);
  }

  void drive_rtl(const model::BdCompIn& in) {
    Dut& d = *dut_;
    d.clk_i = 0;
    d.rst_ni = in.rst_n;
    d.in_valid_i = in.in_valid;
    d.out_ready_i = in.out_ready;
    tags_to_ports(p_, in.tags, d.tag_valid_i, d.tag_lru_i, d.tag_vmid_i, d.tag_vrf_i, d.tag_va_i);
    d.eval();
  }

  void dut_outputs(model::BdCompOut& out) const {
    out.in_ready = dut_->in_ready_o;
    out.out_valid = dut_->out_valid_o;
    from_port(dut_->packed_o, p_.packed_bits, out.result.packed);
    out.result.fits = dut_->fits_o;
    check_port_width(p_.tags, port_bits<std::decay_t<decltype(dut_->dropped_o)>>());
    out.result.dropped = static_cast<uint32_t>(port_field(dut_->dropped_o, 0, p_.tags));
  }
  model::BdCompOut dut_outputs() const {
    model::BdCompOut out;
    dut_outputs(out);
    return out;
  }

  // Compares every output with the model for the inputs last driven; returns
  // the DUT's (kept until the next check).
  const model::BdCompOut& check() {
    model_.outputs(in_, want_);
    dut_outputs(got_);
    const model::BdCompOut& expected = want_;
    const model::BdCompOut& actual = got_;
    compare_bit(session_, "comp.in_ready_o", expected.in_ready, actual.in_ready);
    compare_bit(session_, "comp.out_valid_o", expected.out_valid, actual.out_valid);
    if (expected.result.packed != actual.result.packed)
      compare_bits(session_, "comp.packed_o", expected.result.packed, actual.result.packed,
                   describe_packed_difference(p_, expected.result.packed, actual.result.packed) +
                       held_input());
    compare_bit(session_, "comp.fits_o", expected.result.fits, actual.result.fits);
    if (expected.result.dropped != actual.result.dropped)
      session_.fail("comp.dropped_o", to_hex(p_.tags, expected.result.dropped),
                    to_hex(p_.tags, actual.result.dropped), held_input());
    coverage_.count(in_, actual);
    return got_;
  }

  void rising_edge() {
    if (!in_.rst_n) taken_.clear();
    else if (in_.in_valid && dut_->in_ready_o) taken_ = in_.tags;
    rtl_edge();
    model_.posedge(in_);
    record(tape_, in_);
  }

  void rtl_edge() {
    dut_->clk_i = 1;
    dut_->eval();
  }

  void model_cycle(const model::BdCompIn& in) {
    model_.outputs(in, want_);
    model_.posedge(in);
  }

  // One whole cycle when this stage runs alone in its session.
  const model::BdCompOut& step(const model::BdCompIn& in) { return step_alone(*this, session_, in); }

 private:
  // The output registers show the last vector taken, not the current input.
  std::string held_input() const {
    return taken_.empty() ? "no vector taken since reset" : "from input " + format_tags(taken_);
  }

  CosimSession& session_;
  elab::BdCodecParams p_;
  model::BdCompStage model_;
  SessionDut<Dut> dut_;
  CompCoverage coverage_;
  BenchTape<model::BdCompIn> tape_;
  model::BdCompIn in_;
  model::BdCompOut want_, got_;
  std::vector<BdTag> taken_;
};

// ---------------------------------------------------------------------------
// bd_codec_NAME_decomp

template <class Dut>
class BdDecompHarness {
 public:
  BdDecompHarness(CosimSession& session, const elab::BdCodecParams& p, const char* instance = "decomp")
      : session_(session),
        p_(p),
        model_(p),
        dut_(session, instance),
        coverage_(session.coverage(), p_, instance),
        tape_(bench_tape<BdDecompHarness, model::BdDecompIn>(session, p)) {}
  BdDecompHarness(const BdDecompHarness&) = delete;  // the coverage refers to p_
  BdDecompHarness& operator=(const BdDecompHarness&) = delete;

  void drive(const model::BdDecompIn& in) {
    in_ = in;
    drive_rtl(in);
  }

  void drive_rtl(const model::BdDecompIn& in) {
    dut_->clk_i = 0;
    dut_->rst_ni = in.rst_n;
    dut_->in_valid_i = in.in_valid;
    dut_->out_ready_i = in.out_ready;
    to_port(dut_->packed_i, in.packed);
    dut_->eval();
  }

  BdTagVectors dut_tag_vectors() const {
    return {from_port(dut_->tag_valid_o, p_.tags), from_port(dut_->tag_lru_o, p_.tags * p_.lru_bits),
            from_port(dut_->tag_vmid_o, p_.tags * p_.vmid_bits),
            from_port(dut_->tag_vrf_o, p_.tags * p_.vrf_bits),
            from_port(dut_->tag_va_o, p_.tags * p_.va_tag_bits)};
  }

  void dut_outputs(model::BdDecompOut& out) const {
    const Dut& d = *dut_;
    out.in_ready = d.in_ready_o;
    out.out_valid = d.out_valid_o;
    tags_from_ports(p_, d.tag_valid_o, d.tag_lru_o, d.tag_vmid_o, d.tag_vrf_o, d.tag_va_o, out.tags);
  }
  model::BdDecompOut dut_outputs() const {
    model::BdDecompOut out;
    dut_outputs(out);
    return out;
  }
  bool dut_in_ready() const { return dut_->in_ready_o; }

  // Compares every output with the model; returns the DUT's (kept until the
  // next check: no allocation per cycle).
  const model::BdDecompOut& check() {
    model_.outputs(in_, want_);
    dut_outputs(got_);
    compare_bit(session_, "decomp.in_ready_o", want_.in_ready, got_.in_ready);
    compare_bit(session_, "decomp.out_valid_o", want_.out_valid, got_.out_valid);
    if (want_.tags != got_.tags) report_tag_mismatch(want_.tags);
    coverage_.count(in_, got_);
    return got_;
  }

  void rising_edge() {
    if (!in_.rst_n) taken_.reset();
    else if (in_.in_valid && dut_->in_ready_o) taken_ = in_.packed;
    rtl_edge();
    model_.posedge(in_);
    record(tape_, in_);
  }

  void rtl_edge() {
    dut_->clk_i = 1;
    dut_->eval();
  }

  void model_cycle(const model::BdDecompIn& in) {
    model_.outputs(in, want_);
    model_.posedge(in);
  }

  const model::BdDecompOut& step(const model::BdDecompIn& in) { return step_alone(*this, session_, in); }

 private:
  // Names the first differing output vector, per entry.
  void report_tag_mismatch(const std::vector<BdTag>& expected_tags) {
    const BdTagVectors want = flatten_tags(p_, expected_tags);
    const BdTagVectors got = dut_tag_vectors();
    compare_field(want.valid, got.valid, "decomp.tag_valid_o", 1);
    compare_field(want.lru, got.lru, "decomp.tag_lru_o", p_.lru_bits);
    compare_field(want.vmid, got.vmid, "decomp.tag_vmid_o", p_.vmid_bits);
    compare_field(want.vrf, got.vrf, "decomp.tag_vrf_o", p_.vrf_bits);
    compare_field(want.va, got.va, "decomp.tag_va_o", p_.va_tag_bits);
    // Out-of-range model fields (wider than the port) differ only here.
    session_.fail("decomp tags", format_tags(expected_tags), format_tags(dut_outputs().tags));
  }

  void compare_field(const Bits& want, const Bits& got, const char* signal, unsigned field_bits) {
    if (want != got)
      compare_bits(session_, signal, want, got,
                   describe_entry_difference(want, got, field_bits, p_.tags) +
                       (taken_ ? "from packed_i=" + to_hex(*taken_) : "no word taken since reset"));
  }

  CosimSession& session_;
  elab::BdCodecParams p_;
  model::BdDecompStage model_;
  SessionDut<Dut> dut_;
  DecompCoverage coverage_;
  BenchTape<model::BdDecompIn> tape_;
  model::BdDecompIn in_;
  model::BdDecompOut want_, got_;
  std::optional<Bits> taken_;  // the word the output registers hold
};

// ---------------------------------------------------------------------------
// comp -> decomp chain: the compressor's packed word feeds the decompressor,
// decomp.in_ready_o back-pressures the compressor. Each stage is compared with
// its own model on the inputs it actually saw.

struct BdChainIn {
  bool rst_n = true;
  bool in_valid = false;
  std::vector<BdTag> tags;
  bool out_ready = true;
};

struct BdChainOut {
  model::BdCompOut comp;
  model::BdDecompOut decomp;
  bool comp_accepts = false;    // comp takes in.tags at this edge
  bool comp_hands_over = false; // decomp takes comp's word at this edge
  bool decomp_delivers = false; // decomp's output is taken at this edge
};

template <class CompDut, class DecompDut>
class BdChainHarness {
 public:
  BdChainHarness(CosimSession& session, const elab::BdCodecParams& p)
      : session_(session), comp_(session, p), decomp_(session, p) {}

  // The outputs are kept until the next step (no allocation per cycle).
  const BdChainOut& step(const BdChainIn& in) {
    model::BdCompIn& comp_in = comp_in_;  // kept: its tags' storage is reused
    comp_in.rst_n = in.rst_n;
    comp_in.in_valid = in.in_valid;
    comp_in.tags = in.tags;
    comp_in.out_ready = false;
    comp_.drive(comp_in);  // registered outputs do not depend on out_ready
    comp_.dut_outputs(comp_regs_);
    decomp_.drive({in.rst_n, comp_regs_.out_valid, comp_regs_.result.packed, in.out_ready});
    comp_in.out_ready = decomp_.dut_in_ready();
    comp_.drive(comp_in);
    session_.sample();
    BdChainOut& out = out_;
    out.comp = comp_.check();
    out.decomp = decomp_.check();
    out.comp_accepts = in.rst_n && in.in_valid && out.comp.in_ready;
    out.comp_hands_over = in.rst_n && out.comp.out_valid && out.decomp.in_ready;
    out.decomp_delivers = in.rst_n && out.decomp.out_valid && in.out_ready;
    comp_.rising_edge();
    decomp_.rising_edge();
    session_.sample();
    session_.end_cycle();
    return out;
  }

 private:
  CosimSession& session_;
  BdCompHarness<CompDut> comp_;
  BdDecompHarness<DecompDut> decomp_;
  model::BdCompIn comp_in_;
  model::BdCompOut comp_regs_;
  BdChainOut out_;
};

// ---------------------------------------------------------------------------
// Round-trip scoreboard of the chain: every vector the compressor takes must
// come out of the decompressor as itself on entries kept (valid and not
// dropped), and all-zero on the others; optional per-vector expectations
// written by a test are checked on the compressor's output.

struct BdExpectation {
  bool fits = true;
  uint32_t dropped = 0;
};

class BdRoundTripScoreboard {
 public:
  BdRoundTripScoreboard(CosimSession& session, const elab::BdCodecParams& p)
      : session_(session),
        p_(p),
        checked_id_(session.coverage().declare("roundtrip.checked")),
        fits_id_(session.coverage().declare("roundtrip.fits")),
        dropped_id_(session.coverage().declare("roundtrip.dropped")) {}

  // Call once per chain step with the stimulus that step used.
  void observe(const BdChainIn& in, const BdChainOut& out,
               const std::optional<BdExpectation>& expectation = std::nullopt) {
    if (!in.rst_n) {  // reset empties both stages
      in_comp_.clear();
      in_decomp_.clear();
      return;
    }
    if (out.decomp_delivers) check_delivery(out.decomp);
    if (out.comp_hands_over) hand_over(out.comp);
    if (out.comp_accepts) in_comp_.push_back({in.tags, expectation, Bits(0), true, 0});
  }

  std::size_t in_flight() const { return in_comp_.size() + in_decomp_.size(); }
  uint64_t checked() const { return checked_; }

 private:
  struct Item {
    std::vector<BdTag> tags;
    std::optional<BdExpectation> expectation;
    Bits packed;
    bool fits;
    uint32_t dropped;
  };

  void hand_over(const model::BdCompOut& comp) {
    if (in_comp_.empty()) session_.fail("comp.out_valid_o", "no vector in flight", "a transfer");
    Item item = in_comp_.front();
    in_comp_.pop_front();
    item.packed = comp.result.packed;
    item.fits = comp.result.fits;
    item.dropped = comp.result.dropped;
    check_expectation(item);
    check_canonical_zeros(item);
    in_decomp_.push_back(item);
  }

  void check_expectation(const Item& item) {
    if (!item.expectation) return;
    const std::string vector = "input " + format_tags(item.tags);
    session_.expect_equal("comp.fits_o (test expectation)", std::to_string(item.expectation->fits),
                          std::to_string(item.fits), vector);
    session_.expect_equal("comp.dropped_o (test expectation)",
                          to_hex(p_.tags, item.expectation->dropped), to_hex(p_.tags, item.dropped),
                          vector);
  }

  // Spec rule 5: an invalid or dropped entry's field is all-zero; no valid
  // entry at all makes the whole word zero.
  void check_canonical_zeros(const Item& item) {
    const bool none_valid = bd_reference_index(item.tags) < 0;
    if (none_valid && item.packed != Bits(p_.packed_bits))
      session_.fail("comp.packed_o (all entries invalid)", to_hex(Bits(p_.packed_bits)),
                    to_hex(item.packed));
    for (unsigned i = 0; i < p_.tags; ++i) {
      const bool kept = item.tags[i].valid && !((item.dropped >> i) & 1u);
      const uint64_t field = item.packed.field(p_.base_bits + i * p_.entry_bits, p_.entry_bits);
      if (!kept && field != 0)
        session_.fail("comp.packed_o entry " + std::to_string(i) + " (invalid or dropped)",
                      to_hex(p_.entry_bits, 0), to_hex(p_.entry_bits, field),
                      "input " + format_tags(item.tags));
    }
  }

  void check_delivery(const model::BdDecompOut& decomp) {
    if (in_decomp_.empty()) session_.fail("decomp.out_valid_o", "no word in flight", "a transfer");
    const Item item = in_decomp_.front();
    in_decomp_.pop_front();
    for (unsigned i = 0; i < p_.tags; ++i) {
      const bool kept = item.tags[i].valid && !((item.dropped >> i) & 1u);
      const BdTag want = kept ? item.tags[i] : BdTag{};
      if (!(decomp.tags[i] == want))
        session_.fail("decomp tag " + std::to_string(i) + " (round trip)", format_tag(want),
                      format_tag(decomp.tags[i]),
                      "input " + format_tags(item.tags) + " packed " + to_hex(item.packed));
    }
    ++checked_;
    session_.coverage().hit(checked_id_);
    session_.coverage().hit(item.fits ? fits_id_ : dropped_id_);
  }

  CosimSession& session_;
  elab::BdCodecParams p_;
  std::deque<Item> in_comp_;
  std::deque<Item> in_decomp_;
  uint64_t checked_ = 0;
  CoverageCounters::Id checked_id_, fits_id_, dropped_id_;
};

}  // namespace txgen::verif
