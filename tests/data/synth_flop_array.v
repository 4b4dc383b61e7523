// Flip-flop arrays of two sizes for the SRAM macro model's upper bound
// (tests/unit/sram_macro_test.cpp): DEPTH words of WIDTH bits, one
// read/write port, read data from the address registered at the last edge,
// as the blocks' behavioural SRAMs read.
module synth_flop_array #(parameter DEPTH = 32, parameter WIDTH = 8, parameter AW = 5) (
  input  wire             clk_i,
  input  wire             en_i,
  input  wire             we_i,
  input  wire [AW-1:0]    addr_i,
  input  wire [WIDTH-1:0] wdata_i,
  output wire [WIDTH-1:0] rdata_o
);
  reg [WIDTH-1:0] mem [0:DEPTH-1];
  reg [AW-1:0] addr_q;
  always @(posedge clk_i) begin
    if (en_i && we_i) mem[addr_i] <= wdata_i;
    if (en_i) addr_q <= addr_i;
  end
  assign rdata_o = mem[addr_q];
endmodule

module synth_flop_array_32x8 (
  input  wire       clk_i,
  input  wire       en_i,
  input  wire       we_i,
  input  wire [4:0] addr_i,
  input  wire [7:0] wdata_i,
  output wire [7:0] rdata_o
);
  synth_flop_array #(.DEPTH(32), .WIDTH(8), .AW(5)) u_array (
    .clk_i(clk_i), .en_i(en_i), .we_i(we_i), .addr_i(addr_i), .wdata_i(wdata_i), .rdata_o(rdata_o));
endmodule

module synth_flop_array_64x16 (
  input  wire        clk_i,
  input  wire        en_i,
  input  wire        we_i,
  input  wire [5:0]  addr_i,
  input  wire [15:0] wdata_i,
  output wire [15:0] rdata_o
);
  synth_flop_array #(.DEPTH(64), .WIDTH(16), .AW(6)) u_array (
    .clk_i(clk_i), .en_i(en_i), .we_i(we_i), .addr_i(addr_i), .wdata_i(wdata_i), .rdata_o(rdata_o));
endmodule
