// SPDX-License-Identifier: Apache-2.0
// Statistics counters (ICD section 8): NumCnt 64-bit saturating event counters, read by the
// AXI slave. Each counts 0, 1 or 2 events a cycle (ni_node's counters of both networks).
// Reads never clear them; indices at or above NumCnt read 0. A read takes two cycles: the
// index given in one cycle, the value out in the next (see `rd_val_o`).
`default_nettype none
`include "ni_assert.svh"

module stat_counters
  import ni_pkg::*;
#(
  parameter int unsigned NumCnt = NumStats,
  // Counter width: 64 (ICD 8). A narrower one exists for the synthesis report only, which
  // measures what the 64-bit width costs against the thesis's 32-bit counters (its reads
  // are zero-extended).
  parameter int unsigned CounterW = 64
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic [NumCnt-1:0][1:0] inc_i,  // events this cycle (0..2)
  input  logic [5:0]          rd_idx_i,   // a read's index, in the cycle of the read
  output logic [63:0]         rd_val_o    // the cycle after: the count at that index with
                                          // every event of the cycles before the read
);

  logic [NumCnt-1:0][CounterW-1:0] cnt_q;
  logic [NumCnt-1:0][1:0]          inc_q;

  // A count plus 0, 1 or 2 events, saturating. Both outcomes are computed from the count
  // alone and the events only pick one. One increment of bits 63:1 gives both: count + 2 is
  // it with bit 0 kept, count + 1 is it with bit 0 cleared when bit 0 was set, else bit 0
  // set. A count that would pass 2^64 - 1 stays there: +1 from all ones, +2 from bits 63:1
  // all ones (64 is CounterW). tests/formal/stat_counters.sby proves this equal to the plain
  // saturating add.
  function automatic logic [CounterW-1:0] count_plus(logic [CounterW-1:0] c, logic [1:0] n);
    unique case (n)
      2'd0:    count_plus = c;
      2'd1:    count_plus = (&c)                ? '1 :
                            c[0]                ? {c[CounterW-1:1] + 1'b1, 1'b0} :
                                                  {c[CounterW-1:1], 1'b1};
      default: count_plus = (&c[CounterW-1:1])  ? '1 :  // 2 (never 3: IncAtMostTwo)
                                                  {c[CounterW-1:1] + 1'b1, c[0]};
    endcase
  endfunction

  // The events are registered as they come (`inc_q`) and added in the next cycle, so no
  // event path ends in the 64-bit counts. A read's value is the count with its registered
  // events added (`cnt_next`, the sum the count takes at the next edge), which is what the
  // count would hold had they been added at once: a read sees every event of the cycles
  // before it (`a_read` in the formal harness). That sum is the count one cycle later, so the
  // read registers its index (`rd_idx_q`) and picks among the counts in the next cycle: no
  // carry chain on the read's path (docs/design.md section 20).
  logic [NumCnt-1:0][CounterW-1:0] cnt_next;
  always_comb begin
    for (int i = 0; i < NumCnt; i++) cnt_next[i] = count_plus(cnt_q[i], inc_q[i]);
  end

  logic [5:0] rd_idx_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cnt_q    <= '0;
      inc_q    <= '0;
      rd_idx_q <= '0;
    end else begin
      inc_q    <= inc_i;
      cnt_q    <= cnt_next;
      rd_idx_q <= rd_idx_i;
    end
  end

  always_comb begin
    rd_val_o = '0;
    for (int unsigned i = 0; i < NumCnt; i++) begin
      if (32'(rd_idx_q) == i) rd_val_o[CounterW-1:0] = cnt_q[i];
    end
  end

  // The contract: at most two events a counter a cycle (ICD 8: ni_node's counters of both
  // networks).
  for (genvar i = 0; i < NumCnt; i++) begin : gen_contract
    `NI_ASSERT(IncAtMostTwo, inc_i[i] != 2'd3)
    `NI_ASSERT(PendingAtMostTwo, inc_q[i] != 2'd3)
  end

  if (NumCnt > 64) begin : gen_bad_num_cnt
    $error("stat_counters: at most 64 counters (a 6-bit index)");
  end
  if (CounterW < 2 || CounterW > 64) begin : gen_bad_cnt_w
    $error("stat_counters: CounterW must be 2..64");
  end

endmodule

`default_nettype wire
