// equivalence-check fixture: an internal net's unused bit differs (new)
`default_nettype none
module eq_hidden (
  input  wire clk_i,
  input  wire rst_ni,
  input  wire en_i,
  output wire [3:0] count_o
);
  wire [4:0] sum;
  reg  [3:0] count_q;
  assign sum = {1'b0, count_q} + 5'd17;
  assign count_o = count_q;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) count_q <= 4'd0;
    else if (en_i) count_q <= sum[3:0];
  end
endmodule
`default_nettype wire
