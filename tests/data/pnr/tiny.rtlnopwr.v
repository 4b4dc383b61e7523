module tiny (clk_i, in_i, out_o);

input clk_i;
input in_i;
output [1:0] out_o;

wire vdd = 1'b1;
wire gnd = 1'b0;

INVX1 INVX1_1 ( .A(in_i), .Y(_5_) );
NAND2X1 NAND2X1_1 ( .A(_5_), .B(in_i), .Y(out_o[1]) );
NAND2X1 NAND2X1_2 ( .A(vdd), .B(_5_), .Y(_6_) );
BUFX2 BUFX2_1 ( .A(_5_), .Y(out_o[0]) );
FILL FILL_0_0_0 ( .gnd(gnd), .vdd(vdd) );
endmodule
