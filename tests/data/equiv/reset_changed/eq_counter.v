// equivalence-check fixture (reset value changed)
`default_nettype none
module eq_counter (
  input  wire clk_i,
  input  wire rst_ni,
  input  wire en_i,
  output wire [3:0] count_o
);
  wire [3:0] count_d;
  reg  [3:0] count_q;
  assign count_d = en_i ? count_q + 4'd1 : count_q;
  assign count_o = count_q;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) count_q <= 4'd1;
    else count_q <= count_d;
  end
endmodule
`default_nettype wire
