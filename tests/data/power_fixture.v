// txgen power's flow test (tests/unit/power_test.cpp): an inverter into a
// flip-flop, written the way Yosys writes a mapped osu018 netlist.
module power_fixture(clk_i, a_i, y_o);
  input clk_i;
  input a_i;
  output y_o;
  wire n1;
  INVX1 u1 (
    .A(a_i),
    .Y(n1)
  );
  DFFPOSX1 \y_q_reg  (
    .CLK(clk_i),
    .D(n1),
    .Q(y_o)
  );
endmodule
