// SPDX-License-Identifier: Apache-2.0
#include "ref_model/qos/engine_scoreboard.hpp"

#include "ref_model/common/format_util.hpp"

namespace ni {

namespace {
std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& l : v) s += "  " + l + "\n";
  return s;
}
}  // namespace

void EngineScoreboard::check(uint64_t c) {
  left_.clear();
  for (const BlkIn& b : blk_) {
    if (exp_blk_.empty()) {
      st_.fail(c, "unexpected block descriptor, tid " + std::to_string(b.tid),
               to_string(BlockDesc::unpack(b.desc)));
      return;
    }
    const ExpBlock e = exp_blk_.front();
    exp_blk_.pop_front();
    left_.push_back(Left{e.tid, true, e.issued == c});
    if (e.tid == b.tid && e.bits == b.desc) continue;  // the common case: identical
    const BlockDesc act = BlockDesc::unpack(b.desc);
    std::vector<std::string> d = diff(e.desc, act);
    if (e.tid != b.tid)
      d.insert(d.begin(),
               "tid: expected " + std::to_string(e.tid) + ", actual " + std::to_string(b.tid));
    if (!d.empty()) {
      st_.fail(c,
               "block descriptor mismatch (transfer " + std::to_string(e.xfer) + ", block " +
                   std::to_string(e.desc.block_idx) + ")",
               join(d) + "  transfer: " + st_.xf[e.xfer].d.to_string(), int(e.xfer));
      return;
    }
  }
  for (const Bits512& raw : pkt_) {
    if (exp_pkt_.empty()) {
      st_.fail(c, "unexpected packet", to_string(Packet::unpack(raw)));
      return;
    }
    const ExpPacket e = exp_pkt_.front();
    exp_pkt_.pop_front();
    if (e.pkt.hdr.kind == PktKindInline || e.pkt.hdr.kind == PktKindRead) {
      left_.push_back(Left{e.pkt.hdr.tid, false, false});
    }
    // Identical to the expected packet (whose CRC the model computed with Boost.CRC over the
    // expected header and payload) means every field and the CRC are right.
    if (e.bits == raw) continue;
    const Packet act = Packet::unpack(raw);
    std::vector<std::string> d = diff(e.pkt, act);
    if (!check_crc(raw)) d.push_back("crc32: footer does not match the header and payload");
    if (!d.empty()) {
      st_.fail(c, "packet mismatch (transfer " + std::to_string(e.xfer) + ")",
               join(d) + "  transfer: " + st_.xf[e.xfer].d.to_string(), int(e.xfer));
      return;
    }
  }
  for (const ExpB& b : b_) {
    if (exp_b_.empty()) {
      st_.fail(c, "unexpected B response");
      return;
    }
    const ExpB e = exp_b_.front();
    exp_b_.pop_front();
    if (e.id != b.id || e.resp != b.resp) {
      st_.fail(c, std::string("B response: expected id ") + std::to_string(e.id) + " " +
                      to_string(e.resp) + ", actual id " + std::to_string(b.id) + " " +
                      to_string(b.resp));
      return;
    }
  }
  for (const RIn& r : r_) {
    if (exp_r_.empty()) {
      st_.fail(c, "unexpected R beat");
      return;
    }
    const ExpR e = exp_r_.front();
    exp_r_.pop_front();
    if (e.id != r.id || (!e.any_data && e.data != r.data) || e.resp != r.resp || e.last != r.last) {
      st_.fail(c, "read of " + e.what + ": expected " + detail::hex64(e.data) + " " +
                      to_string(e.resp) + (e.last ? " last" : "") + ", actual " +
                      detail::hex64(r.data) + " " + to_string(r.resp) + (r.last ? " last" : ""));
      return;
    }
  }
}

void EngineScoreboard::end_cycle() {
  blk_.clear();
  pkt_.clear();
  b_.clear();
  r_.clear();
}

void EngineScoreboard::final_problems(std::vector<std::string>& p) const {
  if (!exp_blk_.empty())
    p.push_back(std::to_string(exp_blk_.size()) + " block(s) never left the blk port");
  if (!exp_pkt_.empty())
    p.push_back(std::to_string(exp_pkt_.size()) + " packet(s) never left the pkt port");
  if (!exp_b_.empty()) p.push_back(std::to_string(exp_b_.size()) + " B response(s) missing");
  if (!exp_r_.empty()) p.push_back(std::to_string(exp_r_.size()) + " R beat(s) missing");
}

}  // namespace ni
