// Formal properties of the LDS controller (txgen prove; docs/verification.md,
// "Formal proofs"): translation traffic never writes an LDS-mode segment, a
// lookup hit comes only from a segment read in Tx-mode, and an allocation
// leaves none of its segments Tx-mode; with the invariants that make them
// inductive (inv_*).
#include "txgen/blocks/lds_ctrl_emit.h"
#include "txgen/elab/bits.h"

namespace txgen::blocks::lds {
namespace {

using hdl::bit_at;
using hdl::mux;
using hdl::Index;
using hdl::Scope;
using hdl::Value;
using hdl::Wire;

// f_alloc[s]: segment s is allocated (a valid table entry with base <= s < end).
Value allocated(Ctl& c) {
  const unsigned s = c.p.segments, eb = c.p.size_bits;
  Scope& f = c.m.formal();
  const Wire alloc = f.wire("f_alloc", s, true);
  f.generate_for("fs", s, "g_f_alloc", [&](Scope& g, const Index& seg) {
    const Value at = g.param("F_SEG", eb + 1, seg);
    std::vector<Value> hits;
    for (unsigned k = 0; k < c.p.max_work_groups; ++k)
      hits.push_back(c.table.tv.bit(k) & (hdl::zext(c.table.tbase[k], eb + 1) <= at) & (at < c.table.tend[k]));
    g.assign(alloc.bit(seg), hdl::or_of(hits, hdl::zero(1)));
  });
  return alloc;
}

// f_pending[s]: the CLEAR in progress has yet to reach segment s (s in
// [max(lo, g G), end) while in CLEAR).
Value pending_clear(Ctl& c) {
  const unsigned s = c.p.segments, eb = c.p.size_bits, si = c.p.segment_index_bits;
  const unsigned gs = elab::log2_exact(c.p.clear_bits), gb = elab::log2_exact(c.p.clear_groups);
  Scope& f = c.m.formal();
  const Wire pending = f.wire("f_pending", s, true);
  f.generate_for("fp", s, "g_f_pending", [&](Scope& g, const Index& seg) {
    const Value at = g.param("F_SEG", eb + 1, seg);
    Value v = c.clear.st_clear & (at < c.clear.clr_end);
    if (gb) v = v & (at.slice(gs, gb) >= c.clear.clr_g);
    if (gs) v = v & (at.slice(0, si) >= c.clear.clr_lo);
    g.assign(pending.bit(seg), v);
  });
  return pending;
}

// The current group of the CLEAR walker is among those its mask clears.
Value clear_group_selected(Ctl& c) {
  if (c.p.clear_groups == 1) return ~c.clear.clr_grp_n;
  return ~bit_at(c.clear.clr_grp_n, c.clear.clr_g);
}

// f_app_wr[s]: an application write reaches segment s this cycle (its row,
// one of its banks).
Value app_writes(Ctl& c) {
  const unsigned spr = c.p.segments_per_row, bps = c.p.banks_per_segment, ri = c.p.row_index_bits;
  Scope& f = c.m.formal();
  const Wire wr = f.wire("f_app_wr", c.p.segments, true);
  const AppPort& app = c.app;
  const Value write = app.app_valid_i & app.app_we_i;
  f.generate_for("fw", c.p.segments, "g_f_app_wr", [&](Scope& g, const Index& seg) {
    const Value row = g.param("F_ROW", ri, seg / Index(spr));
    const Value banks = app.app_bank_en_i.part((seg % Index(spr)) * Index(bps), bps);
    g.assign(wr.bit(seg), write & (app.app_row_i == row) & hdl::any(banks));
  });
  return wr;
}

}  // namespace

void properties(Ctl& c) {
  hdl::Module& m = c.m;
  const unsigned n = c.p.segments;
  const Decode& dc = c.decode;
  const Datapath& d = c.dp;
  const Value seg = c.eng.seg, seg_oh = hdl::one_of(n, seg);
  const Value alloc = allocated(c), pending = pending_clear(c), app_wr = app_writes(c);
  const Value mode = c.modes.mode, engine_write = c.sram.sram_we_o & ~c.app.app_valid_i;
  // f_tx[s]: the engine wrote segment s and the application has not written
  // it since: Tx-mode by the segment's history, whatever its mode bit says
  const hdl::Reg tx = m.formal_reg("f_tx", n);
  tx.next((tx | hdl::gate(engine_write, seg_oh)) & ~app_wr);
  // the history of the segment the engine read last: Tx-mode at the read, an
  // application write since
  const hdl::Reg rd_tx = m.formal_reg("f_rd_tx", 1), app_since_read = m.formal_reg("f_app_since_read", 1);
  rd_tx.next(hdl::priority({{c.accept.key_fire, hdl::zero(1)}, {dc.rd_fire, bit_at(tx, seg)}}, rd_tx));
  app_since_read.next(mux(dc.rd_fire, hdl::zero(1), app_since_read | bit_at(app_wr, seg)));
  const Value in_op = dc.st_issue | d.st_dec | d.st_cmp | d.st_write;
  const Value initialise = dc.st_issue & dc.op_fill;
  m.assert_always("tx_write_never_ldsmode", ~engine_write | (~bit_at(alloc, seg) & (bit_at(tx, seg) | initialise)));
  m.assert_always("write_back_not_after_app_write", ~(engine_write & d.st_write) | ~app_since_read);
  m.assert_always("lookup_hit_only_from_tx", ~(d.resp_cmp & d.any_hit) | rd_tx);
  m.assert_always("allocated_segments_ldsmode", ~hdl::any(alloc & mode & ~pending));
  m.assert_always("allocation_done_ldsmode", ~c.tx.wg_done_o | ~hdl::any(alloc & mode));
  m.assert_always("inv_mode_bits_tx", ~hdl::any(mode & ~tx & ~pending));
  m.assert_always("inv_mode_seg", ~in_op | (dc.mode_seg == bit_at(mode, seg)));
  m.assert_always("inv_mode_since_read", ~(d.st_dec | d.st_cmp | d.st_write) | (dc.mode_seg == ~app_since_read));
  m.assert_always("inv_fill_alloc_hit", ~initialise | (c.table.alloc_hit == bit_at(alloc, seg)));
  m.assert_always("inv_read_tx", ~((d.st_dec | d.st_cmp) & dc.op_lookup) | rd_tx);
  m.assert_always("inv_clear_group_selected", ~c.clear.st_clear | clear_group_selected(c));
}

}  // namespace txgen::blocks::lds
