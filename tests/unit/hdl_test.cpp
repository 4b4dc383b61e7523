// The typed signal layer: width checks, range checks over generate loops,
// driver checks, printing with the parentheses precedence needs, and the
// structures built on it.
#include <gtest/gtest.h>

#include <string>

#include "txgen/emit/print.h"
#include "txgen/hdl/lib.h"

#include "hdl_error.h"

namespace {

using namespace txgen::hdl;
using txgen::test::error_of;
using txgen::emit::print;

TEST(Hdl, WidthMismatchNamesModuleAndOperands) {
  Module m("blk_widths");
  Value a = m.input("a_i", 8), b = m.input("b_i", 4);
  const std::string e = error_of([&] { (void)(a & b); });
  EXPECT_NE(e.find("blk_widths"), std::string::npos) << e;
  EXPECT_NE(e.find("`a_i` (8 bits)"), std::string::npos) << e;
  EXPECT_NE(e.find("`b_i` (4 bits)"), std::string::npos) << e;
  EXPECT_NE(error_of([&] { (void)mux(a.slice(0, 2), a, a); }), "");  // two-bit condition
  EXPECT_NE(error_of([&] { (void)mux(a.bit(0), a, b); }), "");
  EXPECT_NE(error_of([&] { m.assign(m.wire("w", 4), a); }), "");
  EXPECT_NE(error_of([&] { (void)lit(3, 8); }), "");  // 8 does not fit in 3 bits
}

TEST(Hdl, SlicesAreRangeChecked) {
  Module m("blk_slices");
  Value a = m.input("a_i", 8);
  EXPECT_EQ(print(a.slice(2, 3)), "a_i[4:2]");
  EXPECT_EQ(print(a.bit(7)), "a_i[7]");
  EXPECT_EQ(print(a.slice(2, 4).slice(1, 2)), "a_i[4:3]");  // folded
  EXPECT_NE(error_of([&] { (void)a.slice(6, 3); }).find("out of range"), std::string::npos);
  EXPECT_NE(error_of([&] { (void)(a + a).slice(0, 2); }).find("unnamed expression"), std::string::npos);
  // a slice through a concatenation selects its parts
  Value b = m.input("b_i", 4);
  EXPECT_EQ(print(cat({a, b}).slice(2, 4)), "{a_i[1:0], b_i[3:2]}");
  // a one-bit signal's bit 0 is the signal itself (scalars cannot be indexed)
  Value c = m.input("c_i", 1);
  EXPECT_EQ(print(c.bit(0)), "c_i");
}

TEST(Hdl, GenerateSelectsAreCheckedOnEveryIteration) {
  Module m("blk_gen");
  Value a = m.input("a_i", 8);
  Wire w = m.wire("w", 4);
  m.generate_for("gi", 5, "g_w", [&](Scope& s, const Index& i) { s.assign(w.bit(i), a.bit(i)); });
  const std::string e = error_of([&] { (void)m.render(); });
  EXPECT_NE(e.find("out of range"), std::string::npos) << e;
  EXPECT_NE(e.find("gi = 4"), std::string::npos) << e;
}

TEST(Hdl, LoopLocalWireDrivenInsideGenerateIf) {
  Module m("blk_genif");
  Value a = m.input("a_i", 4);
  Wire out = m.wire("out", 4);
  m.generate_for("gi", 4, "g_e", [&](Scope& s, const Index& i) {
    Wire below = s.wire("below", 1);
    s.generate_if(i == 3, "g_last", [&](Scope& t) { t.assign(below, lit(1, 0)); },
                  "g_cmp", [&](Scope& t) { t.assign(below, a.bit(i + 1)); });
    s.assign(out.bit(i), below);
  });
  m.output("out_o", 4).drive(out);
  EXPECT_EQ(error_of([&] { (void)m.render(); }), "");
}

TEST(Hdl, EveryBitDrivenExactlyOnce) {
  {
    Module m("blk_twice");
    Wire w = m.wire("w", 4);
    m.assign(w, lit(4, 1));
    m.assign(w.bit(2), lit(1, 0));
    EXPECT_NE(error_of([&] { (void)m.render(); }).find("bit 2 of `w` driven twice"), std::string::npos);
  }
  {
    Module m("blk_never");
    Wire w = m.wire("w", 4);
    m.assign(w.slice(0, 3), lit(3, 1));
    EXPECT_NE(error_of([&] { (void)m.render(); }).find("bit 3 of `w` is never driven"), std::string::npos);
  }
  {
    Module m("blk_reg");
    Reg r = m.reg("r", 2);
    (void)r;
    EXPECT_NE(error_of([&] { (void)m.render(); }).find("`r_d` is never driven"), std::string::npos);
  }
  {
    Module m("blk_input");
    Value a = m.input("a_i", 1);
    EXPECT_NE(error_of([&] {
                m.assign(a, lit(1, 0));
                (void)m.render();
              }).find("cannot be assigned"),
              std::string::npos);
  }
  {
    Module m("blk_dup");
    m.wire("x", 1);
    EXPECT_NE(error_of([&] { m.wire("x", 2); }).find("declared twice"), std::string::npos);
  }
}

TEST(Hdl, PrintsParenthesesWherePrecedenceNeedsThemOrOperatorsMix) {
  Module m("blk_print");
  Value a = m.input("a_i", 4), b = m.input("b_i", 4), c = m.input("c_i", 4), s = m.input("s_i", 1);
  EXPECT_EQ(print((a & b) | c), "(a_i & b_i) | c_i");  // mixed operators: parenthesised
  EXPECT_EQ(print(a & (b | c)), "a_i & (b_i | c_i)");
  EXPECT_EQ(print(a - (b - c)), "a_i - (b_i - c_i)");
  EXPECT_EQ(print((a - b) - c), "a_i - b_i - c_i");
  EXPECT_EQ(print(a + (b + c)), "a_i + b_i + c_i");
  EXPECT_EQ(print(~(a & b)), "~(a_i & b_i)");
  EXPECT_EQ(print(any(a) & s), "(|a_i) & s_i");
  EXPECT_EQ(print(mux(s, a, mux(a == b, b, c))), "s_i ? a_i : (a_i == b_i) ? b_i : c_i");
  EXPECT_EQ(print(mux(s, mux(s, a, b), c)), "s_i ? (s_i ? a_i : b_i) : c_i");
  EXPECT_EQ(print(mux(s & any(a), a, b)), "(s_i & (|a_i)) ? a_i : b_i");
  EXPECT_EQ(print((a == b) & (a + b == c)), "(a_i == b_i) & ((a_i + b_i) == c_i)");
  EXPECT_EQ(print(lit(96, 5)), "96'h5");  // wide constants without leading zeros
  EXPECT_EQ(print(rep(3, s)), "{3{s_i}}");
  EXPECT_EQ(print(lit(1, 1)), "1'b1");
  EXPECT_EQ(print(lit(6, 9)), "6'd9");
  EXPECT_EQ(print(ones(68)), "68'hfffffffffffffffff");
  EXPECT_EQ(print(a.part(Index::var("g") * 2, 2)), "a_i[g * 2 +: 2]");
  EXPECT_EQ(print(a.bit(select(Index::var("g") == 0, 0, Index::var("g") - 1))), "a_i[(g == 0) ? 0 : (g - 1)]");
}

TEST(Hdl, RendersRegistersGenerateAndInstances) {
  Module child("blk_child");
  child.input("x_i", 3);
  child.output("y_o", 3).drive(child.top().wire("unused_x", lit(3, 0)));
  Module m("blk_top");
  m.clock_and_reset();
  Value a = m.input("a_i", 6), en = m.input("en_i", 1);
  Reg acc = m.reg("acc", 6, 5);
  acc.next_if(en, acc + a);
  Reg raw = m.reg_noreset("raw", 6);
  raw.next(a);
  Wire y = m.wire("y", 3);
  m.instance(child.interface(), "u_child", {{"x_i", acc.slice(0, 3)}, {"y_o", y}});
  Wire t = m.wire("t", 3);
  m.generate_for("gi", 3, "g_t", [&](Scope& s, const Index& i) {
    Value x = s.wire("x", a.part(i * 2, 2) == raw.part(i * 2, 2));
    s.assign(t.bit(i), x & y.bit(i));
  });
  m.output("t_o", 3).drive(t);
  const std::string v = m.render();
  EXPECT_NE(v.find("acc_q <= 6'd5;"), std::string::npos) << v;
  EXPECT_NE(v.find("assign acc_d = en_i ? acc_q + a_i : acc_q;"), std::string::npos) << v;
  EXPECT_NE(v.find("always @(posedge clk_i) begin\n    raw_q <= raw_d;"), std::string::npos) << v;
  EXPECT_NE(v.find("blk_child u_child (\n    .x_i(acc_q[2:0]),\n    .y_o(y)\n  );"), std::string::npos) << v;
  EXPECT_NE(v.find("for (gi = 0; gi < 3; gi = gi + 1) begin : g_t\n      wire x;"), std::string::npos) << v;
  EXPECT_EQ(v, m.render());  // deterministic
  // ports are checked against the child's interface
  Module bad("blk_bad");
  Value w4 = bad.input("w_i", 4);
  EXPECT_NE(error_of([&] { bad.instance(child.interface(), "u", {{"x_i", w4}}); }).find("port `x_i` is 3 bits"),
            std::string::npos);
}

TEST(Hdl, StructuresComputeWhatTheySay) {
  Module m("blk_lib");
  Value oh = m.input("oh_i", 4), v = m.input("v_i", 12), idx = m.input("idx_i", 2);
  EXPECT_EQ(print(onehot_index(oh, 2)), "{oh_i[2] | oh_i[3], oh_i[1] | oh_i[3]}");
  EXPECT_EQ(print(one_of(4, idx)), "4'd1 << idx_i");
  EXPECT_EQ(onehot_select(oh, v, 4, 3).width(), 3u);
  EXPECT_NE(error_of([&] { (void)onehot_select(oh, v, 3, 4); }), "");
  EXPECT_EQ(print(priority({{oh.bit(0), idx}, {oh.bit(1), ~idx}}, zero(2))),
            "oh_i[0] ? idx_i : oh_i[1] ? ~idx_i : 2'd0");
  EXPECT_EQ(print(cat_lsb_first({oh.bit(0), oh.bit(1)})), "{oh_i[1], oh_i[0]}");
}

// Five entries: a lone last node at the first level is carried up with a 0
// index bit, so entry 4 ends at index 3'b100.
TEST(Hdl, FirstOfAndThermometerRoundRobinShapes) {
  Module m("blk_first");
  Value v = m.input("v_i", 5), d = m.input("d_i", 15), ge = m.input("ge_i", 5);
  const First f = first_of(m.top(), "f", v, d, 3);
  EXPECT_EQ(f.any.width(), 1u);
  EXPECT_EQ(f.index.width(), 3u);
  EXPECT_EQ(f.data.width(), 3u);
  EXPECT_NE(error_of([&] { (void)first_of(m.top(), "g", v, d, 2); }).find("index_bits too small"), std::string::npos);
  EXPECT_NE(error_of([&] { (void)first_of(m.top(), "h", v, m.input("e_i", 14), 3); }).find("not 5 fields"),
            std::string::npos);
  const RoundRobin rr = round_robin_thermo(m.top(), "rr", v, ge);
  EXPECT_EQ(rr.grant.width(), 5u);
  EXPECT_EQ(rr.next_ge.width(), 5u);
}

// A small counter; with_properties adds a formal region and properties.
std::string counter_module(bool with_properties) {
  Module m("blk_formal");
  m.clock_and_reset();
  Value en = m.input("en_i", 1);
  Reg cnt = m.reg("cnt", 3);
  cnt.next_if(en & (cnt != 7), cnt + 1);
  m.output("cnt_o", 3).drive(cnt);
  if (with_properties) {
    const Value last = m.past("f_last", cnt);
    const Value pick = m.formal_any("f_pick", 1);
    m.formal().wire("f_step", cnt - last);
    m.assume_always("env_pick", ~pick | en);
    m.assert_always("never_wraps", ~((cnt == 0) & (last == 7)));
  }
  return m.render();
}

TEST(Hdl, PropertiesPrintOnlyInsideTheFormalRegion) {
  const std::string plain = counter_module(false), v = counter_module(true);
  EXPECT_EQ(plain.find("FORMAL"), std::string::npos) << plain;
  for (const char* s : {"(* anyseq *) wire f_pick;", "reg  [2:0] f_last_q;", "assign f_last_d = cnt_q;",
                        "assign f_step = cnt_q - f_last_q;", "initial assume (!rst_ni);",
                        "env_pick: assume (~f_pick | en_i);",
                        "never_wraps: assert (~((cnt_q == 3'd0) & (f_last_q == 3'd7)));"})
    EXPECT_NE(v.find(s), std::string::npos) << s << "\n" << v;
  // outside the region the text is exactly the module without properties
  const size_t begin = v.find("`ifdef FORMAL\n"), end = v.find("`endif\n");
  ASSERT_TRUE(begin != std::string::npos && end != std::string::npos && begin < end) << v;
  EXPECT_EQ(v.substr(0, begin) + v.substr(end + 7), plain);
  EXPECT_EQ(v, counter_module(true));  // deterministic
}

TEST(Hdl, PropertiesAreChecked) {
  Module m("blk_props");
  m.clock_and_reset();
  Value a = m.input("a_i", 2);
  const Value f = m.formal_any("f_x", 2);
  EXPECT_NE(error_of([&] { m.assert_always("wide", a); }).find("property `wide` is not one bit"), std::string::npos);
  EXPECT_NE(error_of([&] { m.assert_always("1st", any(a)); }).find("is not an identifier"), std::string::npos);
  m.assert_always("p", any(a));
  EXPECT_NE(error_of([&] { m.assume_always("p", any(a)); }).find("property `p` stated twice"), std::string::npos);
  // the circuit may not read the formal region
  m.output("y_o", 2).drive(a & f);
  EXPECT_NE(error_of([&] { (void)m.render(); }).find("the circuit reads `f_x`, a signal of the formal region"),
            std::string::npos);
}

}  // namespace
