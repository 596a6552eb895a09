// SPDX-License-Identifier: Apache-2.0
// The engine's outputs the model expects, in order: block descriptors on `blk`, packets on
// `pkt`, B responses and R beats on the CPU port. The other parts of the model push what
// they predict; each cycle the DUT's outputs are compared with the heads, field by field on
// a mismatch. Expected outputs keep their packed form too: a match is one array comparison.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "ref_model/common/block_desc.hpp"
#include "ref_model/common/packet.hpp"
#include "ref_model/qos/axi_rules.hpp"
#include "ref_model/qos/engine_state.hpp"

namespace ni {

class EngineScoreboard {
 public:
  explicit EngineScoreboard(EngineState& st) : st_(st) {}

  // ---- predictions ------------------------------------------------------------------------
  // `cycle`: when stage 2 issued it (a block that leaves in that cycle bypassed stage 3).
  void expect_block(unsigned tid, const BlockDesc& d, unsigned xfer, uint64_t cycle) {
    exp_blk_.emplace_back(tid, d, xfer, cycle);
  }
  void expect_packet(const Packet& p, unsigned xfer) { exp_pkt_.emplace_back(p, xfer); }
  void expect_b(uint8_t id, AxiResp resp) { exp_b_.push_back(ExpB{id, resp}); }
  void expect_r(uint8_t id, uint64_t data, AxiResp resp, bool last, std::string what) {
    exp_r_.push_back(ExpR{id, data, resp, last, std::move(what), false});
  }
  // A read whose data another checker owns (ni_node's counters 16-26): id, response and
  // last are checked, the data is not.
  void expect_r_any_data(uint8_t id, AxiResp resp, bool last, std::string what) {
    exp_r_.push_back(ExpR{id, 0, resp, last, std::move(what), true});
  }

  // ---- the DUT's outputs of the current cycle ----------------------------------------------
  void block(unsigned tid, const Bits256& desc) { blk_.push_back({tid, desc}); }
  void packet(const Bits512& data) { pkt_.push_back(data); }
  void b(uint8_t id, AxiResp resp) { b_.push_back({id, resp}); }
  void r(uint8_t id, uint64_t data, AxiResp resp, bool last) {
    r_.push_back({id, data, resp, last});
  }

  // Stage 3 of the segmenter is occupied and not draining: a block waits for `blk` and none
  // left this cycle.
  bool blk_stage_busy() const { return !exp_blk_.empty() && blk_.empty(); }
  // Blocks issued and not yet out of the blk port.
  unsigned blocks_waiting() const { return unsigned(exp_blk_.size()); }
  // Packets in the packet queue.
  unsigned pkt_queue_count() const { return unsigned(exp_pkt_.size()); }

  // Compares this cycle's outputs with the expected heads.
  void check(uint64_t c);
  void end_cycle();
  bool idle() const {
    return exp_blk_.empty() && exp_pkt_.empty() && exp_b_.empty() && exp_r_.empty();
  }
  void final_problems(std::vector<std::string>& p) const;

  // What left the engine in this cycle (after check()): blocks and inline packets, by TID.
  struct Left {
    unsigned tid;
    bool blk;     // a block (else an inline packet)
    bool bypass;  // a block issued in this very cycle
  };
  const std::vector<Left>& left() const { return left_; }

 private:
  struct ExpBlock {
    unsigned tid;
    BlockDesc desc;
    unsigned xfer;
    Bits256 bits;
    uint64_t issued;
    ExpBlock(unsigned t, const BlockDesc& d, unsigned x, uint64_t c)
        : tid(t), desc(d), xfer(x), bits(d.pack()), issued(c) {}
  };
  struct ExpPacket {
    Packet pkt;
    unsigned xfer;
    Bits512 bits;
    ExpPacket(const Packet& p, unsigned x) : pkt(p), xfer(x), bits(p.pack()) {}
  };
  struct ExpB {
    uint8_t id;
    AxiResp resp;
  };
  struct ExpR {
    uint8_t id;
    uint64_t data;
    AxiResp resp;
    bool last;
    std::string what;
    bool any_data;
  };
  struct BlkIn {
    unsigned tid;
    Bits256 desc;
  };
  struct RIn {
    uint8_t id;
    uint64_t data;
    AxiResp resp;
    bool last;
  };

  EngineState& st_;
  std::deque<ExpBlock> exp_blk_;   // issued, not yet out of the blk port
  std::deque<ExpPacket> exp_pkt_;  // written, not yet out of the pkt port
  std::deque<ExpB> exp_b_;
  std::deque<ExpR> exp_r_;
  std::vector<BlkIn> blk_;
  std::vector<Bits512> pkt_;
  std::vector<ExpB> b_;
  std::vector<RIn> r_;
  std::vector<Left> left_;
};

}  // namespace ni
