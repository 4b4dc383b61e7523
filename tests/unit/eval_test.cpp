// The evaluator of hdl::Module signals (hdl/eval.h) against hand-computed
// values: every operator at narrow and multi-word widths, generate loops and
// ifs with their locals, use before the driving assignment, registers,
// instances, the formal region, and its errors.
#include <gtest/gtest.h>

#include <string>

#include "txgen/hdl/eval.h"
#include "txgen/hdl/lib.h"

#include "hdl_error.h"

namespace {

using namespace txgen::hdl;
using txgen::test::error_of;

Bits wide(uint64_t hi, uint64_t lo) { return Bits::from_words(100, {lo, hi}); }

TEST(Eval, EveryOperatorOnBytes) {
  Module m("ev_ops");
  const Value a = m.input("a", 8), b = m.input("b", 8), s = m.input("s", 3), c = m.input("c", 1);
  const Value i = m.input("i", 3);
  m.output("not_o", 8).drive(~a);
  m.output("and_o", 8).drive(a & b);
  m.output("or_o", 8).drive(a | b);
  m.output("xor_o", 8).drive(a ^ b);
  m.output("add_o", 8).drive(a + b);
  m.output("sub_o", 8).drive(b - a);
  m.output("mul_o", 8).drive(a * b);
  m.output("mod_o", 8).drive(a % b);
  m.output("cmp_o", 6).drive(cat({a == b, a != b, a < b, a <= b, a > b, a >= b}));
  m.output("eqself_o", 3).drive(cat({a == a, a <= a, a >= a}));
  m.output("shl_o", 8).drive(a << s);
  m.output("shr_o", 8).drive(a >> s);
  m.output("shl_const_o", 8).drive(a << 3u);
  m.output("red_o", 3).drive(cat({all(a), any(a), parity(a)}));
  m.output("red_b_o", 3).drive(cat({all(ones(8) | b), any(zero(8) & b), parity(b)}));
  m.output("mux_o", 8).drive(mux(c, a, b));
  m.output("cat_o", 12).drive(cat({a.slice(4, 4), b}));
  m.output("rep_o", 8).drive(rep(2, b.slice(0, 4)));
  m.output("bitat_o", 1).drive(bit_at(a, i));
  m.output("const_o", 8).drive(lit(8, 0x5e));
  Evaluator e(m);
  e.set("a", 0xA5);
  e.set("b", 0x3C);
  e.set("s", 3);
  e.set("c", 0);
  e.set("i", 5);
  e.run();
  EXPECT_EQ(e.value("not_o"), 0x5Au);
  EXPECT_EQ(e.value("and_o"), 0x24u);
  EXPECT_EQ(e.value("or_o"), 0xBDu);
  EXPECT_EQ(e.value("xor_o"), 0x99u);
  EXPECT_EQ(e.value("add_o"), 0xE1u);    // 165 + 60 = 225
  EXPECT_EQ(e.value("sub_o"), 0x97u);    // 60 - 165 wraps to 151
  EXPECT_EQ(e.value("mul_o"), 0xACu);    // 9900 = 0x26ac
  EXPECT_EQ(e.value("mod_o"), 0x2Du);    // 165 mod 60 = 45
  EXPECT_EQ(e.value("cmp_o"), 0b010011u);  // a > b: !=, >, >=
  EXPECT_EQ(e.value("eqself_o"), 0b111u);
  EXPECT_EQ(e.value("shl_o"), 0x28u);    // 0x528 cut to 8 bits
  EXPECT_EQ(e.value("shr_o"), 0x14u);
  EXPECT_EQ(e.value("shl_const_o"), 0x28u);
  EXPECT_EQ(e.value("red_o"), 0b010u);   // four ones: not all, any, even parity
  EXPECT_EQ(e.value("red_b_o"), 0b100u);
  EXPECT_EQ(e.value("mux_o"), 0x3Cu);
  EXPECT_EQ(e.value("cat_o"), 0xA3Cu);
  EXPECT_EQ(e.value("rep_o"), 0xCCu);
  EXPECT_EQ(e.value("bitat_o"), 1u);     // bit 5 of 1010_0101
  EXPECT_EQ(e.value("const_o"), 0x5Eu);
  // the other arm, a shift by the width or more, a run-time select of a zero bit
  e.set("c", 1);
  e.set("s", 7);
  e.set("i", 1);
  e.set("b", 0xA5);
  e.run();
  EXPECT_EQ(e.value("mux_o"), 0xA5u);
  EXPECT_EQ(e.value("shl_o"), 0x80u);
  EXPECT_EQ(e.value("shr_o"), 0x01u);
  EXPECT_EQ(e.value("bitat_o"), 0u);
  EXPECT_EQ(e.value("cmp_o"), 0b100101u);  // equal: ==, <=, >=
  EXPECT_EQ(e.value("mod_o"), 0u);
}

TEST(Eval, ShiftByAWideAmountClears) {
  Module m("ev_shift");
  const Value a = m.input("a", 4), s = m.input("s", 70);
  m.output("y", 4).drive(a << s);
  Evaluator e(m);
  e.set("a", 0xF);
  e.set("s", Bits::from_words(70, {1, 1}));  // 2^64 + 1
  e.run();
  EXPECT_EQ(e.value("y"), 0u);
}

TEST(Eval, MultiWordArithmetic) {
  Module m("ev_wide");
  const Value a = m.input("a", 100), b = m.input("b", 100);
  m.output("add_o", 100).drive(a + b);
  m.output("sub_o", 100).drive(b - a);
  m.output("mul_o", 100).drive(a * b);
  m.output("mod_o", 100).drive(a % b);
  m.output("lt_o", 1).drive(a < b);
  m.output("not_o", 100).drive(~a);
  m.output("ones_o", 100).drive(ones(100));
  m.output("cat_o", 100).drive(cat({b.slice(0, 36), a.slice(36, 64)}));
  m.output("shl_o", 100).drive(a << 40u);
  m.output("shr_o", 100).drive(a >> 40u);
  Evaluator e(m);
  // a = 2^99 + 2^64 - 1, b = 1: the carry crosses the word boundary
  e.set("a", wide(0x800000000, ~uint64_t{0}));
  e.set("b", wide(0, 1));
  e.run();
  EXPECT_EQ(e.get("add_o"), wide(0x800000001, 0));
  EXPECT_EQ(e.get("lt_o"), Bits(1, 0));
  EXPECT_EQ(e.get("not_o"), wide(0x7ffffffff, 0));
  EXPECT_EQ(e.get("ones_o"), wide(0xfffffffff, ~uint64_t{0}));
  EXPECT_EQ(e.get("cat_o"), wide(1, 0x800000000fffffff));  // b's low 36 bits over a's bits 99..36
  EXPECT_EQ(e.get("shl_o"), wide(0xfffffffff, 0xffffff0000000000));  // bits 40..99
  EXPECT_EQ(e.get("shr_o"), wide(0, 0x0800000000ffffff));  // 2^59 + 2^24 - 1
  // (2^64 + 3)(2^64 + 5) = 2^128 + 8 x 2^64 + 15, mod 2^100
  e.set("a", wide(1, 3));
  e.set("b", wide(1, 5));
  e.run();
  EXPECT_EQ(e.get("mul_o"), wide(8, 15));
  EXPECT_EQ(e.get("sub_o"), wide(0, 2));
  EXPECT_EQ(e.get("lt_o"), Bits(1, 1));
  // 3 - (2^64 + 5) wraps: 2^100 - 2^64 - 2
  e.set("a", wide(1, 5));
  e.set("b", wide(0, 3));
  e.run();
  EXPECT_EQ(e.get("sub_o"), wide(0xffffffffe, 0xfffffffffffffffe));
  // (2^99 + 7) mod (2^64 + 1): 2^99 = -2^35 modulo 2^64 + 1, so 2^64 + 1 + 7 - 2^35
  e.set("a", wide(0x800000000, 7));
  e.set("b", wide(1, 1));
  e.run();
  EXPECT_EQ(e.get("mod_o"), wide(0, 0xfffffff800000008));
}

TEST(Eval, GenerateLoopsIfsParamsAndUseBeforeDrive) {
  Module m("ev_gen");
  const Value v = m.input("v", 8);
  Wire rev = m.wire("rev", 8), pair = m.wire("pair", 4), last = m.wire("last", 1);
  // used before the loop that drives it
  m.output("rev_o", 8).drive(rev);
  m.generate_for("gi", 8, "g_rev", [&](Scope& s, const Index& i) {
    const Value x = s.wire("x", v.bit(Index(7) - i));
    s.assign(rev.bit(i), x);
  });
  // a local of the outer loop read in a nested loop; a genvar as a value
  m.generate_for("gp", 4, "g_pair", [&](Scope& s, const Index& p) {
    const Value both = s.wire("both", v.part(p * 2, 2));
    const Value idx = s.param("IDX", 2, p);
    Wire acc = s.wire("acc", 2, true);
    s.generate_for("gb", 2, "g_bit", [&](Scope& t, const Index& b) { t.assign(acc.bit(b), both.bit(b) ^ idx.bit(b)); });
    s.assign(pair.bit(p), any(acc));
  });
  m.top().generate_if(
      Index(3) < Index(2), "g_never", [&](Scope& s) { s.assign(last, v.bit(0)); }, "g_always",
      [&](Scope& s) { s.assign(last, v.bit(7)); });
  m.output("pair_o", 4).drive(pair);
  m.output("last_o", 1).drive(last);
  Evaluator e(m);
  e.set("v", 0b11010010);
  e.run();
  EXPECT_EQ(e.value("rev_o"), 0b01001011u);
  // pairs (lsb first) 10, 00, 01, 11 against their index 0, 1, 2, 3: 10^00, 00^01, 01^10, 11^11
  EXPECT_EQ(e.value("pair_o"), 0b0111u);
  EXPECT_EQ(e.value("last_o"), 1u);
  EXPECT_EQ(e.value("g_pair[2].IDX"), 2u);
  EXPECT_EQ(e.value("g_pair[2].acc"), 0b11u);
  EXPECT_EQ(e.value("g_rev[0].x"), 1u);
  EXPECT_EQ(e.eval(v.slice(4, 4) + lit(4, 1)), Bits(4, 0xE));
}

TEST(Eval, BitsOfOneVectorDependOnEachOther) {
  // a ripple chain inside one vector: bit k reads bit k - 1 of the same wire
  Module m("ev_chain");
  const Value v = m.input("v", 6);
  Wire run = m.wire("run", 6);
  for (unsigned k = 6; k-- > 0;) m.assign(run.bit(k), k == 0 ? v.bit(0) : v.bit(k) | run.bit(k - 1));
  m.output("y", 6).drive(run);
  Evaluator e(m);
  e.set("v", 0b000100);
  e.run();
  EXPECT_EQ(e.value("y"), 0b111100u);
}

TEST(Eval, RegistersResetAndStep) {
  Module m("ev_regs");
  m.clock_and_reset();
  const Value en = m.input("en", 1);
  const Reg count = m.reg("count", 3, 5);
  const Reg keep = m.reg_noreset("keep", 3);
  count.next_if(en, count + 1);
  keep.next(count);
  m.output("count_o", 3).drive(count);
  m.output("keep_o", 3).drive(keep);
  Evaluator e(m);
  e.reset();
  e.set("en", 1);
  EXPECT_NE(error_of([&] { e.run(); }).find("keep_q"), std::string::npos);  // read, never set
  e.set("keep_q", 0);
  e.run();
  EXPECT_EQ(e.value("count_d"), 6u);
  e.step();
  e.run();
  EXPECT_EQ(e.value("count_o"), 6u);
  EXPECT_EQ(e.value("keep_q"), 5u);
  e.step();
  e.step();
  e.run();
  EXPECT_EQ(e.value("count_o"), 7u);  // the second step took count_d of the last run: 7
}

TEST(Eval, BoundInstances) {
  Module child("ev_child");
  const Value x = child.input("x", 4);
  const Reg r = child.reg("r", 4, 9);
  r.next(x);
  child.output("y", 4).drive(x + r);
  Module top("ev_top");
  const Value a = top.input("a", 4);
  Wire y0 = top.wire("y0", 4), y1 = top.wire("y1", 4);
  top.instance(child.interface(), "u1", {{"x", y0}, {"y", y1}});  // fed by the other instance
  top.instance(child.interface(), "u0", {{"x", a}, {"y", y0}});
  top.output("y", 4).drive(y1);
  Evaluator e(top);
  EXPECT_NE(error_of([&] { e.run(); }).find("ev_child"), std::string::npos);  // not bound
  Evaluator b(top);
  b.bind(child);
  b.reset();
  b.set("a", 3);
  b.run();
  EXPECT_EQ(b.value("y0"), 12u);  // 3 + 9
  EXPECT_EQ(b.value("y"), 5u);    // 12 + 9 wraps
  b.set("u0.r_q", 1);
  b.run();
  EXPECT_EQ(b.value("y"), 13u);   // 3 + 1 + 9
  EXPECT_EQ(b.value("u1.r_d"), 4u);
}

TEST(Eval, FormalRegionAndProperties) {
  Module m("ev_formal");
  m.clock_and_reset();
  const Value a = m.input("a", 4);
  const Value pick = m.formal_any("f_pick", 4);
  const Value bigger = m.formal().wire("f_bigger", a > pick);
  m.assert_always("bigger", bigger);
  m.output("y", 4).drive(a);
  Evaluator plain(m);
  plain.set("a", 3);
  plain.run();
  EXPECT_NE(error_of([&] { (void)plain.holds("bigger"); }), "");
  Evaluator e(m, true);
  e.set("a", 3);
  e.set("f_pick", 2);
  e.run();
  EXPECT_TRUE(e.holds("bigger"));
  e.set("f_pick", 3);
  e.run();
  EXPECT_FALSE(e.holds("bigger"));
}

TEST(Eval, ErrorsNameTheSignal) {
  Module loop("ev_loop");
  const Value a = loop.input("a", 1);
  Wire w = loop.wire("w", 1);
  w.drive(~w ^ a);
  Evaluator l(loop);
  l.set("a", 0);
  EXPECT_NE(error_of([&] { l.run(); }).find("does not settle"), std::string::npos);

  Module open("ev_open");
  Wire u = open.wire("u", 2);
  open.assign(u.bit(0), lit(1, 1));
  open.output("y", 2).drive(u);
  Evaluator o(open);
  EXPECT_NE(error_of([&] { o.run(); }).find("bit 1 of `u`"), std::string::npos);

  Module m("ev_errs");
  const Value x = m.input("x", 3);
  m.output("y", 3).drive(x);
  Evaluator e(m);
  EXPECT_NE(error_of([&] { e.set("y", 1); }).find("computed"), std::string::npos);
  EXPECT_NE(error_of([&] { e.set("x", Bits(4, 1)); }).find("3 bits"), std::string::npos);
  EXPECT_NE(error_of([&] { e.set("nope", 1); }).find("nope"), std::string::npos);
  EXPECT_NE(error_of([&] { (void)e.get("y"); }).find("before run"), std::string::npos);
  EXPECT_NE(error_of([&] { e.run(); }).find("`x`"), std::string::npos);
}

TEST(Eval, BitsBasics) {
  Bits b(70, 5);
  b.set_bit(69, true);
  EXPECT_EQ(b.hex(), "70'h200000000000000005");
  EXPECT_EQ(b.slice(0, 3), Bits(3, 5));
  EXPECT_EQ(b.slice(68, 2), Bits(2, 2));
  EXPECT_NE(error_of([&] { (void)b.to_u64(); }), "");
  EXPECT_NE(error_of([&] { (void)Bits(3, 8); }), "");
}

}  // namespace
