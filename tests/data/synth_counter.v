// Small fixed design for the synthesis-flow unit test: an 8-bit counter with
// enable and asynchronous active-low reset, plus a registered terminal-count
// flag. Known sequential content: 8 counter bits + 1 flag = 9 flip-flops.
`default_nettype none
module synth_counter (
  input  wire       clk_i,
  input  wire       rst_ni,
  input  wire       en_i,
  output wire [7:0] count_o,
  output wire       wrap_o
);
  reg [7:0] count_q;
  reg       wrap_q;

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      count_q <= 8'd0;
      wrap_q  <= 1'b0;
    end else begin
      if (en_i) begin
        count_q <= count_q + 8'd1;
      end
      wrap_q <= en_i && (count_q == 8'hff);
    end
  end

  assign count_o = count_q;
  assign wrap_o  = wrap_q;
endmodule
`default_nettype wire
