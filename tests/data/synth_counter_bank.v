// Small hierarchical design for the boundary-buffer test: eight instances of
// synth_counter (tests/data/synth_counter.v) share the enable input, which
// no module's mapping sees as one net with eight submodule loads. The top's
// own flip-flop registers whether any counter wrapped.
`default_nettype none
module synth_counter_bank (
  input  wire        clk_i,
  input  wire        rst_ni,
  input  wire        en_i,
  output wire [63:0] count_o,
  output wire [7:0]  wrap_o,
  output wire        any_wrap_o
);
  reg any_wrap_q;
  genvar i;
  generate
    for (i = 0; i < 8; i = i + 1) begin : g_counter
      synth_counter u_counter (
        .clk_i(clk_i), .rst_ni(rst_ni), .en_i(en_i), .count_o(count_o[8 * i +: 8]), .wrap_o(wrap_o[i])
      );
    end
  endgenerate

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) any_wrap_q <= 1'b0;
    else         any_wrap_q <= |wrap_o;
  end
  assign any_wrap_o = any_wrap_q;
endmodule
`default_nettype wire
