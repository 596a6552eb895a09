// SPDX-License-Identifier: Apache-2.0
#include "ref_model/send/send_model.hpp"

#include <algorithm>

namespace ni {

namespace {
constexpr uint64_t kAddr48 = (uint64_t{1} << 48) - 1;
}

unsigned block_npkts(uint64_t dst, uint32_t len) {
  dst &= kAddr48;
  return static_cast<unsigned>(((dst + len - 1) >> 10) - (dst >> 10) + 1);
}

std::vector<PacketSpan> block_spans(const BlockDesc& b) {
  const uint64_t dst = b.dst_addr & kAddr48;
  const uint64_t src = b.src_addr & kAddr48;
  const uint64_t len = uint64_t{b.len_m1} + 1;
  const uint64_t base = dst & ~uint64_t{kPktBytes - 1};
  const unsigned n = block_npkts(dst, static_cast<uint32_t>(len));
  std::vector<PacketSpan> v;
  v.reserve(n);
  for (unsigned p = 0; p < n; ++p) {
    const uint64_t lo = std::max(dst, base + uint64_t{kPktBytes} * p);
    const uint64_t hi = std::min(dst + len, base + uint64_t{kPktBytes} * (p + 1));
    v.push_back(PacketSpan{p, lo, (src + (lo - dst)) & kAddr48, static_cast<unsigned>(hi - lo)});
  }
  return v;
}

std::vector<WirePacket> block_packets(const BlockDesc& b, uint16_t tid, uint16_t src_node,
                                      const MemImage& mem) {
  const auto spans = block_spans(b);
  std::vector<WirePacket> out;
  out.reserve(spans.size());
  for (const auto& s : spans) {
    WireHead h;
    h.kind = static_cast<uint8_t>(WireKind::Data);
    h.tid = tid;
    h.seq = b.seq;
    h.len = static_cast<uint16_t>(s.len);
    h.notify = b.notify;
    h.last = s.idx + 1 == spans.size();
    h.retx = b.retx;
    h.pd = static_cast<uint8_t>(b.pd_id & 0xF);
    h.npkts = static_cast<uint8_t>(spans.size());
    h.dst_addr = (b.dst_addr & ~kAddr48) | s.dst;
    h.src_node = src_node;
    h.xfer_id = b.xfer_id;
    const auto bytes = mem.read(s.src, s.len);
    out.push_back(make_data_packet(h, bytes.data()));
  }
  return out;
}

void SendChecker::on_block(const BlockDesc& b, uint16_t tid) {
  for (auto& p : block_packets(b, tid, node_, mem_)) data_.push_back(std::move(p));
}

void SendChecker::on_engine_packet(const Packet& p) { heads_.push_back(head_packet(p, node_)); }

std::vector<std::string> SendChecker::on_tx(const WirePacket& p) {
  ++checked_;
  const bool data = !p.beats.empty() && p.is_data();
  auto& q = data ? data_ : heads_;
  if (q.empty())
    return {std::string("unexpected ") + (data ? "data" : "head-only") +
            " packet on req_tx: " + to_string(p.head())};
  auto d = diff(q.front(), p);
  if (!d.empty()) d.insert(d.begin(), "expected " + to_string(q.front().head()));
  q.pop_front();
  return d;
}

}  // namespace ni
