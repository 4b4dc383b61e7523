// scripts/equiv_check.sh: an $adff becomes a $dff whose D takes the reset
// value, so the reset acts at the clock edge. Both sides of the check are
// mapped alike and the reset values are compared as part of the next state;
// the flip-flop keeps its name, so registers still pair up by name.
module \$adff (CLK, ARST, D, Q);
  parameter WIDTH = 1;
  parameter CLK_POLARITY = 1'b1;
  parameter ARST_POLARITY = 1'b1;
  parameter ARST_VALUE = 0;
  input CLK, ARST;
  input [WIDTH-1:0] D;
  output [WIDTH-1:0] Q;
  wire reset = ARST_POLARITY ? ARST : ~ARST;
  wire [WIDTH-1:0] reset_value = ARST_VALUE;
  \$dff #(.WIDTH(WIDTH), .CLK_POLARITY(CLK_POLARITY)) _TECHMAP_REPLACE_ (.CLK(CLK), .D(reset ? reset_value : D), .Q(Q));
endmodule
