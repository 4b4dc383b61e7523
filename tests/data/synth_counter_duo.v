// Small hierarchical design whose top has no logic of its own: two instances
// of synth_counter (tests/data/synth_counter.v) side by side, every top port
// wired straight to one of them.
`default_nettype none
module synth_counter_duo (
  input  wire        clk_i,
  input  wire        rst_ni,
  input  wire [1:0]  en_i,
  output wire [15:0] count_o,
  output wire [1:0]  wrap_o
);
  synth_counter u_a (.clk_i(clk_i), .rst_ni(rst_ni), .en_i(en_i[0]), .count_o(count_o[7:0]), .wrap_o(wrap_o[0]));
  synth_counter u_b (.clk_i(clk_i), .rst_ni(rst_ni), .en_i(en_i[1]), .count_o(count_o[15:8]), .wrap_o(wrap_o[1]));
endmodule
`default_nettype wire
