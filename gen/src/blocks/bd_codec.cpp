// Emission of the base-delta tag codec (docs/blocks/bd_codec.md): the
// combinational pack/unpack cores and the valid/ready stages around them.
#include <memory>
#include <string>
#include <vector>

#include "txgen/blocks/block.h"
#include "txgen/blocks/bd_codec_layout.h"
#include "txgen/elab/bd_codec.h"
#include "txgen/hdl/lib.h"
#include "txgen/hdl/module.h"

namespace txgen::blocks {
namespace {

using elab::BdCodecParams;
using hdl::Module;
using hdl::Reg;
using hdl::Value;
using hdl::Wire;
using std::string;
using std::to_string;
using ModulePtr = std::unique_ptr<Module>;

bool is_arith(const BdCodecParams& p) { return p.encoding == config::CodecEncoding::Arith; }
bool is_pairwise(const BdCodecParams& p) { return p.compare == config::CompareStructure::Pairwise; }
string e(const string& base, unsigned i) { return base + "_e" + to_string(i); }
// The name of entry i's signal against entry j (pairwise compare).
string e(const string& base, unsigned i, unsigned j) { return e(base, i) + "r" + to_string(j); }

void add_header(Module& m, const BdCodecParams& p, const EmitContext& ctx, const string& role) {
  module_header(m, ctx, "bd_codec", role, bd_codec_params_json(p));
}

// The five tag vectors of a port list, entry i in field i of each.
template <typename T>
struct TagBus {
  T valid, lru, vmid, vrf, va;
};

struct TagField {
  string name;
  unsigned width;
  string comment;
};

std::vector<TagField> tag_fields(const BdCodecParams& p) {
  const string t = to_string(p.va_tag_bits);
  return {{"tag_valid", p.tags, "entry i at bit i"},
          {"tag_lru", p.tags * p.lru_bits, ""},
          {"tag_vmid", p.tags * p.vmid_bits, ""},
          {"tag_vrf", p.tags * p.vrf_bits, ""},
          {"tag_va", p.tags * p.va_tag_bits, "entry i at [(i+1)*" + t + "-1 -: " + t + "]"}};
}

// A tag bus of signals declared by make(field): ports or wires.
template <typename T, typename F>
TagBus<T> tag_bus(const BdCodecParams& p, F make) {
  std::vector<T> v;
  for (const auto& f : tag_fields(p)) v.push_back(make(f));
  return {v[0], v[1], v[2], v[3], v[4]};
}

TagBus<Value> tag_inputs(Module& m, const BdCodecParams& p) {
  return tag_bus<Value>(p, [&](const TagField& f) { return m.input(f.name + "_i", f.width, f.comment); });
}
TagBus<Wire> tag_outputs(Module& m, const BdCodecParams& p) {
  return tag_bus<Wire>(p, [&](const TagField& f) { return m.output(f.name + "_o", f.width, f.comment); });
}
// Named wires for the fields of a tag bus (the register inputs of decomp).
TagBus<Wire> tag_wires(Module& m, const BdCodecParams& p, const string& prefix) {
  return tag_bus<Wire>(p, [&](const TagField& f) { return m.wire(prefix + f.name, f.width); });
}

template <typename T>
std::vector<std::pair<string, Value>> tag_connections(const TagBus<T>& b, const string& sfx) {
  return {{"tag_valid" + sfx, b.valid}, {"tag_lru" + sfx, b.lru}, {"tag_vmid" + sfx, b.vmid},
          {"tag_vrf" + sfx, b.vrf}, {"tag_va" + sfx, b.va}};
}

// ---- pack: tags -> packed word ---------------------------------------------

// One tag's fields as named wires.
struct Entry {
  Value va, lru, vmid, vrf;
};

Entry pack_entry_inputs(Module& m, const BdCodecParams& p, const TagBus<Value>& in, unsigned i) {
  return {m.wire(e("va", i), in.va.field(i, p.va_tag_bits)),
          m.wire(e("lru", i), in.lru.field(i, p.lru_bits)),
          m.wire(e("vmid", i), in.vmid.field(i, p.vmid_bits)),
          m.wire(e("vrf", i), in.vrf.field(i, p.vrf_bits))};
}

// The reference entry: its one-hot select and the fields the base keeps
// (absent ones invalid).
struct Reference {
  Value sel, base, vmid, vrf;
};

// AND-OR select of one value per entry by the one-hot reference vector.
Value ref_mux(const Value& sel, const std::vector<Value>& picks) {
  std::vector<Value> terms;
  for (unsigned i = 0; i < picks.size(); ++i) terms.push_back(hdl::gate(sel.bit(i), picks[i]));
  return hdl::or_of(terms, hdl::zero(picks[0].width()));
}

template <typename F>
std::vector<Value> per_entry(const std::vector<Entry>& entries, F field) {
  std::vector<Value> v;
  for (const auto& en : entries) v.push_back(field(en));
  return v;
}

Reference pack_reference(Module& m, const BdCodecParams& p, const Value& valid,
                         const std::vector<Entry>& entries) {
  Reference r;
  // Without a prefix or shared ids every tag fits, and only the pairwise fit reads ref_sel.
  if (!p.base_value_bits && !p.ids_shared() && !is_pairwise(p)) return r;
  m.comment("reference entry: the lowest valid one (isolate the lowest set bit)");
  r.sel = m.wire("ref_sel", valid & (~valid + 1));
  if (p.base_value_bits) {
    const unsigned lsb = p.va_tag_bits - p.base_value_bits;
    r.base = m.wire("ref_base", ref_mux(r.sel, per_entry(entries, [&](const Entry& en) {
                                          return en.va.slice(lsb, p.base_value_bits);
                                        })));
  }
  if (p.ids_shared()) {
    r.vmid = m.wire("ref_vmid", ref_mux(r.sel, per_entry(entries, [](const Entry& en) { return en.vmid; })));
    r.vrf = m.wire("ref_vrf", ref_mux(r.sel, per_entry(entries, [](const Entry& en) { return en.vrf; })));
  }
  return r;
}

// Range check of a T-bit modular difference: the bits above the delta's sign
// bit all equal it.
Value in_delta_range(const BdCodecParams& p, const Value& diff) {
  const unsigned T = p.va_tag_bits, V = p.value_bits;
  if (V >= T) return hdl::one_bit(true);
  const Value upper = diff.slice(V - 1, T - V + 1);
  return ~hdl::any(upper) | hdl::all(upper);
}

// Prefix encoding: whether tag va has the upper Bv bits of `other_prefix`;
// always without a prefix.
Value prefix_equal(const BdCodecParams& p, const Value& va, const Value& other_prefix) {
  if (!p.base_value_bits) return hdl::one_bit(true);
  return va.slice(p.value_bits, p.base_value_bits) == other_prefix;
}
Value prefix_of(const BdCodecParams& p, const Value& va) { return va.slice(p.value_bits, p.base_value_bits); }

// `fit` and, with shared ids, equal ids.
Value and_ids_equal(const BdCodecParams& p, const Value& fit, const Value& vmid_a, const Value& vrf_a,
                    const Value& vmid_b, const Value& vrf_b) {
  if (!p.ids_shared()) return fit;
  return fit & (vmid_a == vmid_b) & (vrf_a == vrf_b);
}

// What an entry stores besides its metadata: the fit and the value field.
struct EntryFit {
  Value fit, value;
};

// mux structure: entry i against the muxed reference (before valid).
EntryFit pack_fit_vs_ref(Module& m, const BdCodecParams& p, const Reference& r, const Entry& en,
                         unsigned i) {
  Value fit, value;
  if (is_arith(p)) {
    const Value diff = m.wire(e("diff", i), en.va - r.base);
    fit = in_delta_range(p, diff);
    value = diff.slice(0, p.value_bits);
  } else {
    fit = prefix_equal(p, en.va, r.base);
    value = en.va.slice(0, p.value_bits);
  }
  return {and_ids_equal(p, fit, en.vmid, en.vrf, r.vmid, r.vrf), value};
}

// pairwise structure: entry i against every lower entry j, then the one-hot
// reference picks; the reference mux leaves the fit path.
EntryFit pack_fit_pairwise(Module& m, const BdCodecParams& p, const Reference& r,
                           const std::vector<Entry>& entries, unsigned i) {
  const Entry& en = entries[i];
  std::vector<Value> fit_terms{r.sel.bit(i)}, delta_terms;
  for (unsigned j = 0; j < i; ++j) {
    const Entry& ref = entries[j];
    Value near;
    if (is_arith(p)) {
      const Value diff = m.wire(e("diff", i, j), en.va - ref.va);
      near = in_delta_range(p, diff);
      delta_terms.push_back(hdl::gate(r.sel.bit(j), diff.slice(0, p.value_bits)));
    } else {
      near = p.base_value_bits ? prefix_equal(p, en.va, prefix_of(p, ref.va)) : hdl::one_bit(true);
    }
    near = m.wire(e("near", i, j), and_ids_equal(p, near, en.vmid, en.vrf, ref.vmid, ref.vrf));
    fit_terms.push_back(r.sel.bit(j) & near);
  }
  const Value fit = hdl::or_of(fit_terms, hdl::zero(1));
  if (!is_arith(p)) return {fit, en.va.slice(0, p.value_bits)};
  // The delta of entry i from the reference; zero when entry i is the reference.
  return {fit, m.wire(e("delta", i), hdl::or_of(delta_terms, hdl::zero(p.value_bits)))};
}

void pack_entry(Module& m, const BdCodecParams& p, const LayoutBd& lay, const Reference& r,
                const std::vector<Entry>& entries, const Value& valid, const Wire& dropped,
                const Wire& packed, unsigned i) {
  const Entry& en = entries[i];
  m.comment("entry " + to_string(i));
  const EntryFit f = is_pairwise(p) ? pack_fit_pairwise(m, p, r, entries, i) : pack_fit_vs_ref(m, p, r, en, i);
  const Value fit = m.wire(e("fit", i), f.fit);
  const Value keep = m.wire(e("keep", i), valid.bit(i) & fit);
  m.assign(dropped.bit(i), valid.bit(i) & ~fit);
  std::vector<Value> field;
  if (lay.entry_pad_bits) field.push_back(hdl::zero(lay.entry_pad_bits));
  field.push_back(f.value);
  if (!p.ids_shared()) field.insert(field.end(), {en.vrf, en.vmid});
  field.insert(field.end(), {en.lru, hdl::one_bit(true)});
  m.assign(packed.slice(lay.entry_lsb(i), p.entry_bits), hdl::mux(keep, hdl::cat(field), hdl::zero(p.entry_bits)));
}

void pack_base(Module& m, const BdCodecParams& p, const LayoutBd& lay, const Reference& r, const Wire& packed) {
  m.comment("base field");
  std::vector<Value> base;
  if (lay.base_pad_bits) base.push_back(hdl::zero(lay.base_pad_bits));
  if (p.ids_shared()) base.insert(base.end(), {r.vrf, r.vmid});
  if (p.base_value_bits) base.push_back(r.base);
  const bool empty = !p.ids_shared() && !p.base_value_bits;
  m.assign(packed.slice(0, p.base_bits), empty ? hdl::zero(p.base_bits) : hdl::cat(base));
}

// ---- properties of pack (txgen prove): unpack(pack(tags)) through a formal
// instance of the decompressor ------------------------------------------------

// The field of entry i of every tag vector, and whether all are equal / zero.
Value entry_equal(const BdCodecParams& p, const TagBus<Value>& a, const TagBus<Value>& b, unsigned i) {
  return (a.valid.bit(i) == b.valid.bit(i)) & (a.lru.field(i, p.lru_bits) == b.lru.field(i, p.lru_bits)) &
         (a.vmid.field(i, p.vmid_bits) == b.vmid.field(i, p.vmid_bits)) &
         (a.vrf.field(i, p.vrf_bits) == b.vrf.field(i, p.vrf_bits)) &
         (a.va.field(i, p.va_tag_bits) == b.va.field(i, p.va_tag_bits));
}
Value entry_zero(const BdCodecParams& p, const TagBus<Value>& a, unsigned i) {
  return ~a.valid.bit(i) & (a.lru.field(i, p.lru_bits) == 0) & (a.vmid.field(i, p.vmid_bits) == 0) &
         (a.vrf.field(i, p.vrf_bits) == 0) & (a.va.field(i, p.va_tag_bits) == 0);
}

void pack_properties(Module& m, const BdCodecParams& p, const LayoutBd& lay, const TagBus<Value>& in,
                     const Value& packed, const Value& fits, const Value& dropped, const hdl::Interface& unpack) {
  hdl::Scope& f = m.formal();
  const TagBus<Value> rt = tag_bus<Value>(p, [&](const TagField& t) { return f.wire("f_rt_" + t.name, t.width); });
  auto conn = tag_connections(rt, "_o");
  conn.insert(conn.begin(), {"packed_i", packed});
  f.instance(unpack, "u_f_unpack", conn);
  std::vector<Value> when_fits, kept, invalid_zero, fields_zero;
  for (unsigned i = 0; i < p.tags; ++i) {
    const Value valid = in.valid.bit(i), keep = valid & ~dropped.bit(i);
    when_fits.push_back(mux(valid, entry_equal(p, in, rt, i), entry_zero(p, rt, i)));
    kept.push_back(~keep | entry_equal(p, in, rt, i));
    invalid_zero.push_back(valid | entry_zero(p, rt, i));
    fields_zero.push_back(keep | (packed.slice(lay.entry_lsb(i), p.entry_bits) == 0));
  }
  const Value reference = in.valid & (~in.valid + 1);
  m.assert_always("round_trip_when_fits", ~fits | hdl::and_of(when_fits, hdl::one_bit(true)));
  m.assert_always("kept_tags_round_trip", hdl::and_of(kept, hdl::one_bit(true)));
  m.assert_always("drops_reported", dropped == (in.valid & ~rt.valid));
  m.assert_always("invalid_tags_unpack_to_zero", hdl::and_of(invalid_zero, hdl::one_bit(true)));
  m.assert_always("dropped_and_invalid_fields_zero", hdl::and_of(fields_zero, hdl::one_bit(true)));
  m.assert_always("fits_iff_none_dropped", fits == ~hdl::any(dropped));
  m.assert_always("reference_never_dropped", ~hdl::any(reference & dropped));
}

ModulePtr emit_pack(const BdCodecParams& p, const EmitContext& ctx, const hdl::Interface& unpack) {
  const LayoutBd lay(p);
  auto mp = std::make_unique<Module>(p.module_prefix + "_pack");
  Module& m = *mp;
  add_header(m, p, ctx, "combinational compressor, latency 0");
  const TagBus<Value> in = tag_inputs(m, p);
  const Wire packed = m.output("packed_o", p.packed_bits, "base at [B-1:0], entry i at [B+(i+1)d-1 -: d]");
  const Wire fits = m.output("fits_o", 1, "no valid entry dropped");
  const Wire dropped = m.output("dropped_o", p.tags, "valid entries left out of packed_o");
  std::vector<Entry> entries;
  for (unsigned i = 0; i < p.tags; ++i) entries.push_back(pack_entry_inputs(m, p, in, i));
  const Reference r = pack_reference(m, p, in.valid, entries);
  for (unsigned i = 0; i < p.tags; ++i) pack_entry(m, p, lay, r, entries, in.valid, dropped, packed, i);
  pack_base(m, p, lay, r, packed);
  fits.drive(~hdl::any(dropped));
  pack_properties(m, p, lay, in, packed, fits, dropped, unpack);
  return mp;
}

// ---- unpack: packed word -> tags ----------------------------------------------

// The base field's parts (absent ones invalid).
struct Base {
  Value value, vmid, vrf;
};

Base unpack_base(Module& m, const BdCodecParams& p, const Value& packed) {
  Base b;
  if (p.base_value_bits) b.value = m.wire("base_value", packed.slice(0, p.base_value_bits));
  if (p.ids_shared()) {
    b.vmid = m.wire("base_vmid", packed.slice(p.base_value_bits, p.vmid_bits));
    b.vrf = m.wire("base_vrf", packed.slice(p.base_value_bits + p.vmid_bits, p.vrf_bits));
  }
  return b;
}

// An entry's VA tag from the base and its value field.
Value unpack_va(const BdCodecParams& p, const Base& b, const Value& value) {
  const unsigned T = p.va_tag_bits, V = p.value_bits;
  if (!is_arith(p)) return p.base_value_bits ? hdl::cat({b.value, value}) : value;
  if (V == T) return b.value + value;
  return b.value + hdl::cat({hdl::rep(T - V, value.bit(V - 1)), value});
}

void unpack_entry(Module& m, const BdCodecParams& p, const LayoutBd& lay, const Value& packed,
                  const Base& b, const TagBus<Wire>& out, unsigned i) {
  const unsigned off = lay.entry_lsb(i);
  const unsigned id_lsb = off + 1 + p.lru_bits;
  m.comment("entry " + to_string(i));
  const Value valid = m.wire(e("valid", i), packed.bit(off));
  const Value value = m.wire(e("value", i), packed.slice(off + lay.entry_value_lsb, p.value_bits));
  m.assign(out.valid.bit(i), valid);
  auto masked = [&](const Wire& port, unsigned w, const Value& v) {
    m.assign(port.field(i, w), hdl::mux(valid, v, hdl::zero(w)));
  };
  masked(out.lru, p.lru_bits, packed.slice(off + 1, p.lru_bits));
  masked(out.vmid, p.vmid_bits, p.ids_shared() ? b.vmid : packed.slice(id_lsb, p.vmid_bits));
  masked(out.vrf, p.vrf_bits, p.ids_shared() ? b.vrf : packed.slice(id_lsb + p.vmid_bits, p.vrf_bits));
  masked(out.va, p.va_tag_bits, unpack_va(p, b, value));
}

// Padding bits carry no information; name them so lint sees them consumed.
void unpack_unused_padding(Module& m, const BdCodecParams& p, const LayoutBd& lay, const Value& packed) {
  std::vector<Value> pads;
  if (lay.base_pad_bits) pads.push_back(packed.slice(lay.base_used_bits, lay.base_pad_bits));
  for (unsigned i = 0; i < p.tags && lay.entry_pad_bits; ++i)
    pads.push_back(packed.slice(lay.entry_lsb(i) + p.entry_bits - lay.entry_pad_bits, lay.entry_pad_bits));
  if (!pads.empty()) m.unused("padding", hdl::parity(hdl::cat(pads)));
}

ModulePtr emit_unpack(const BdCodecParams& p, const EmitContext& ctx) {
  const LayoutBd lay(p);
  auto mp = std::make_unique<Module>(p.module_prefix + "_unpack");
  Module& m = *mp;
  add_header(m, p, ctx, "combinational decompressor, latency 0");
  const Value packed = m.input("packed_i", p.packed_bits, "base at [B-1:0], entry i at [B+(i+1)d-1 -: d]");
  const TagBus<Wire> out = tag_outputs(m, p);
  const Base b = unpack_base(m, p, packed);
  for (unsigned i = 0; i < p.tags; ++i) unpack_entry(m, p, lay, packed, b, out, i);
  unpack_unused_padding(m, p, lay, packed);
  return mp;
}

// ---- valid/ready stages ---------------------------------------------------------

// One-deep pipeline register: in_ready_o = !out_valid_q || out_ready_i.
struct Stage {
  Value in_valid;
  Wire in_ready;
  Wire out_valid;
  Value out_ready;
  Value accept;  // set by stage_control
};

Stage stage_handshake(Module& m) {
  Stage s;
  s.in_valid = m.input("in_valid_i", 1);
  s.in_ready = m.output("in_ready_o", 1, "combinational: output register free or draining");
  return s;
}

void stage_out_handshake(Module& m, Stage& s) {
  s.out_valid = m.output("out_valid_o", 1);
  s.out_ready = m.input("out_ready_i", 1);
}

void stage_control(Module& m, Stage& s) {
  const Reg out_valid = m.reg("out_valid", 1);
  s.accept = m.wire("accept", s.in_valid & s.in_ready);
  s.in_ready.drive(~out_valid | s.out_ready);
  out_valid.next(s.accept | (out_valid & ~s.out_ready));
  s.out_valid.drive(out_valid);
}

// name_q loads `from` on accept and drives `to`.
void stage_register(Module& m, const Stage& s, const string& name, const Value& from, const Wire& to) {
  const Reg r = m.reg(name, from.width());
  r.next_if(s.accept, from);
  to.drive(r);
}

ModulePtr emit_comp(const BdCodecParams& p, const EmitContext& ctx, const hdl::Interface& pack) {
  auto mp = std::make_unique<Module>(p.module_prefix + "_comp");
  Module& m = *mp;
  add_header(m, p, ctx, "compressor stage, valid/ready, latency 1 cycle");
  m.clock_and_reset();
  Stage s = stage_handshake(m);
  const TagBus<Value> in = tag_inputs(m, p);
  stage_out_handshake(m, s);
  const Wire packed = m.output("packed_o", p.packed_bits);
  const Wire fits = m.output("fits_o", 1);
  const Wire dropped = m.output("dropped_o", p.tags);
  const Wire pack_packed = m.wire("pack_packed", p.packed_bits);
  const Wire pack_fits = m.wire("pack_fits", 1);
  const Wire pack_dropped = m.wire("pack_dropped", p.tags);
  auto conn = tag_connections(in, "_i");
  conn.insert(conn.end(), {{"packed_o", pack_packed}, {"fits_o", pack_fits}, {"dropped_o", pack_dropped}});
  m.instance(pack, "u_pack", conn);
  stage_control(m, s);
  stage_register(m, s, "packed", pack_packed, packed);
  stage_register(m, s, "fits", pack_fits, fits);
  stage_register(m, s, "dropped", pack_dropped, dropped);
  return mp;
}

ModulePtr emit_decomp(const BdCodecParams& p, const EmitContext& ctx, const hdl::Interface& unpack) {
  auto mp = std::make_unique<Module>(p.module_prefix + "_decomp");
  Module& m = *mp;
  add_header(m, p, ctx, "decompressor stage, valid/ready, latency 1 cycle");
  m.clock_and_reset();
  Stage s = stage_handshake(m);
  const Value packed = m.input("packed_i", p.packed_bits);
  stage_out_handshake(m, s);
  const TagBus<Wire> out = tag_outputs(m, p);
  const TagBus<Wire> un = tag_wires(m, p, "unpack_");
  auto conn = tag_connections(un, "_o");
  conn.insert(conn.begin(), {"packed_i", packed});
  m.instance(unpack, "u_unpack", conn);
  stage_control(m, s);
  stage_register(m, s, "tag_valid", un.valid, out.valid);
  stage_register(m, s, "tag_lru", un.lru, out.lru);
  stage_register(m, s, "tag_vmid", un.vmid, out.vmid);
  stage_register(m, s, "tag_vrf", un.vrf, out.vrf);
  stage_register(m, s, "tag_va", un.va, out.va);
  return mp;
}

EmittedFile file_of(const Module& m) { return {m.name() + ".v", m.render()}; }

BlockOutput emit_bd_codec(const config::Config& cfg, const EmitContext& ctx) {
  const BdCodecParams p = elab::elaborate_bd_codec(cfg);
  const ModulePtr unpack = emit_unpack(p, ctx), pack = emit_pack(p, ctx, unpack->interface());
  BlockOutput out;
  out.files = {file_of(*pack), file_of(*unpack), file_of(*emit_comp(p, ctx, pack->interface())),
               file_of(*emit_decomp(p, ctx, unpack->interface()))};
  out.parameters = bd_codec_params_json(p);
  return out;
}

}  // namespace

std::vector<EmittedFile> bd_codec_core_files(const BdCodecParams& p, const EmitContext& ctx) {
  const ModulePtr unpack = emit_unpack(p, ctx);
  return {file_of(*emit_pack(p, ctx, unpack->interface())), file_of(*unpack)};
}

BlockInfo bd_codec_block() {
  BlockInfo b;
  b.name = "bd_codec";
  b.summary = "base-delta translation-tag compressor/decompressor (seed 000, Fig. 7 and 10)";
  b.configured = [](const config::Config& c) { return c.bd_codec.has_value(); };
  b.emit = emit_bd_codec;
  b.report_json = bd_codec_report_json;
  b.report_markdown = bd_codec_report_markdown;
  b.synth_tops = [](const config::Config& c) {
    const string prefix = "bd_codec_" + c.name;
    return std::vector<string>{prefix + "_comp", prefix + "_decomp"};
  };
  b.power_operations = [](const config::Config& c) {
    const string prefix = "bd_codec_" + c.name;
    return std::vector<power::Operation>{{prefix + "_comp", "tag set compressed", {"in_valid_i", "in_ready_o"}},
                                         {prefix + "_decomp", "tag set decompressed", {"in_valid_i", "in_ready_o"}}};
  };
  // the combinational core: one step covers every input, so BMC is the proof
  b.prove_tops = [](const config::Config& c) { return std::vector<ProveTop>{{"bd_codec_" + c.name + "_pack", 1}}; };
  return b;
}

}  // namespace txgen::blocks
