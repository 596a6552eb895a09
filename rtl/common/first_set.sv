// SPDX-License-Identifier: Apache-2.0
// The lowest set bit of a vector (the lowest matching or free entry of a table), found by a
// balanced tree: log2(Width) levels, each choosing between two halves, instead of a priority
// chain from one end, which synthesizes to a mux chain as long as the vector.
`default_nettype none

module first_set #(
  parameter int unsigned Width = 64,
  localparam int unsigned IdxW = (Width > 1) ? $clog2(Width) : 1
) (
  input  logic [Width-1:0] in_i,
  output logic             any_o,  // some bit is set
  output logic [IdxW-1:0]  idx_o   // the lowest set bit; 0 when none is
);

  localparam int unsigned N = 1 << IdxW;  // Width rounded up to a power of two

  always_comb begin
    logic [N-1:0]           any;   // level k: group g of 2^k bits has a bit set
    logic [IdxW-1:0]        idx [N];  // ... its lowest, from the group's start (unpacked:
                                      // a simulator reads a group's offset without shifts)
    logic [IdxW-1:0]        half;  // the upper half's offset at level k: 2^k
    any              = '0;
    any[Width-1:0]   = in_i;
    idx              = '{default: '0};
    for (int unsigned k = 0; k < IdxW; k++) begin
      half    = '0;
      half[k] = 1'b1;
      // group g of level k+1 from groups 2g and 2g+1 of level k (read before they are
      // overwritten: g < 2g for every g after the first)
      for (int unsigned g = 0; g < (N >> (k + 1)); g++) begin
        idx[g] = (any[2*g] || !any[2*g+1]) ? idx[2*g] : (idx[2*g+1] | half);
        any[g] = any[2*g] || any[2*g+1];
      end
    end
    any_o = any[0];
    idx_o = idx[0];
  end

endmodule

`default_nettype wire
