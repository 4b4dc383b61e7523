// mutation-point fixture (tests/cli/mutate_test.cpp)
`default_nettype none
module mut_fixture (
  input  wire clk_i,
  input  wire rst_ni,
  input  wire en_i,
  input  wire [3:0] a_i,
  input  wire [3:0] b_i,
  output wire [3:0] sum_o,
  output wire hit_o
);
  wire [3:0] sum_d;
  reg  [3:0] sum_q;
  wire [3:0] pick;
  assign pick = hit_o ? a_i : b_i;
  assign sum_d = pick == 4'd3 ? sum_q : sum_q + a_i;
  assign hit_o = ~en_i & a_i[sum_q[1:0] + 2'd1];
  assign sum_o = sum_q;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sum_q <= 4'd5;
    end else if (en_i) begin
      sum_q <= sum_d;
    end
  end
`ifdef FORMAL
  always @* sum_small: assert (sum_q < 4'd9);
`endif
endmodule
`default_nettype wire
