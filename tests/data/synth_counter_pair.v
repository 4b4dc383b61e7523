// Small hierarchical design for the hierarchical synthesis test: two
// instances of synth_counter (tests/data/synth_counter.v) and a registered
// sum of their counts in the top, so the worst path runs from a flip-flop
// inside an instance to one in the top. Every register reaches an output, so
// flattening removes none: 2 x 9 counter flip-flops + 9 sum bits = 27.
`default_nettype none
module synth_counter_pair (
  input  wire       clk_i,
  input  wire       rst_ni,
  input  wire       en_i,
  input  wire       sel_i,
  output wire [7:0] count_a_o,
  output wire [7:0] count_b_o,
  output wire [1:0] wrap_o,
  output wire [8:0] sum_o
);
  wire [7:0] count_a, count_b;
  reg  [8:0] sum_q;

  synth_counter u_a (
    .clk_i(clk_i), .rst_ni(rst_ni), .en_i(en_i), .count_o(count_a), .wrap_o(wrap_o[0])
  );
  synth_counter u_b (
    .clk_i(clk_i), .rst_ni(rst_ni), .en_i(en_i & sel_i), .count_o(count_b), .wrap_o(wrap_o[1])
  );

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) sum_q <= 9'd0;
    else         sum_q <= {1'b0, count_a} + {1'b0, count_b};
  end

  assign count_a_o = count_a;
  assign count_b_o = count_b;
  assign sum_o     = sum_q;
endmodule
`default_nettype wire
