// SPDX-License-Identifier: Apache-2.0
// Packets (ICD section 7, docs/design.md section 10): one 512-bit beat on pkt_data_o.
// [127:0] header, [383:128] payload, [511:384] footer (crc32 in 415:384, zeros above).
#pragma once

#include <array>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "ref_model/common/descriptor.hpp"

namespace ni {

using Bits128 = std::array<uint64_t, 2>;
using Bits512 = std::array<uint64_t, 8>;  // word 0 = bits 63:0

constexpr uint8_t PktKindInline = 0;
constexpr uint8_t PktKindCtrl = 1;
constexpr uint8_t PktKindRead = 2;  // read request (ICD 16)
constexpr unsigned PktHeaderBytes = 16;
constexpr unsigned PktPayloadBytes = 32;

// Header [127:0]: kind4, tid10, seq14, len6, notify1, pd4, xfer_id11, reserved14, dst_addr64.
struct PacketHeader {
  uint8_t kind = 0;       // 3:0
  uint16_t tid = 0;       // 13:4
  uint16_t seq = 0;       // 27:14
  uint8_t len = 0;        // 33:28, payload bytes 0..32
  bool notify = false;    // 34
  uint8_t pd = 0;         // 38:35
  uint16_t xfer_id = 0;   // 49:39
  uint16_t rsvd = 0;      // 63:50
  uint64_t dst_addr = 0;  // 127:64

  Bits128 pack() const;
  static PacketHeader unpack(const Bits128& b);
  bool operator==(const PacketHeader& o) const { return pack() == o.pack(); }
};

// Control packet payload (ICD 7): notify_addr64, notify_tag64, size32, total_blocks18, zeros.
struct CtrlPayload {
  uint64_t notify_addr = 0;
  uint64_t notify_tag = 0;
  uint32_t size = 0;
  uint32_t total_blocks = 0;  // 18 bit
  std::array<uint8_t, PktPayloadBytes> pack() const;
  static CtrlPayload unpack(const std::array<uint8_t, PktPayloadBytes>& p);
};

// Read-request payload (ICD 16): local destination of the block (bits 63:48 = the issuer's
// node id), notification address and tag (0 unless the packet has notify), block bytes,
// transfer kind, prio, last (last block of the read).
struct ReadReqPayload {
  uint64_t local_dst = 0;
  uint64_t notify_addr = 0;
  uint64_t notify_tag = 0;
  uint32_t bytes = 0;
  Kind kind = Kind::Tid;
  uint8_t prio = 0;
  bool last = false;
  std::array<uint8_t, PktPayloadBytes> pack() const;
  static ReadReqPayload unpack(const std::array<uint8_t, PktPayloadBytes>& p);
};

struct Packet {
  PacketHeader hdr;
  std::array<uint8_t, PktPayloadBytes> payload{};  // byte 0 at bit 128
  uint32_t crc = 0;                                // 415:384
  uint32_t footer_rsvd_lo = 0;                     // 447:416
  uint64_t footer_rsvd_hi = 0;                     // 511:448

  Bits512 pack() const;
  static Packet unpack(const Bits512& b);
  bool operator==(const Packet& o) const { return pack() == o.pack(); }
  bool operator!=(const Packet& o) const { return !(*this == o); }

  // CRC over the 16 header bytes and the first `hdr.len` payload bytes (at most 32).
  uint32_t compute_crc() const;
  // Sets `crc` to compute_crc().
  void seal() { crc = compute_crc(); }
};

// CRC-32 of a packed packet: 16 header bytes then `len` payload bytes, in byte order
// (len is capped at 32, as the RTL covers at most 48 bytes).
uint32_t packet_crc(const Bits512& pkt);
// The footer's crc32 equals packet_crc().
bool check_crc(const Bits512& pkt);
bool check_crc(const Packet& pkt);

// Inline packet of inline transfer `d` (design.md section 10): kind 0, tid, seq, len = size,
// notify = d.notify, pd = page, xfer, dst_addr = d.dst, payload bytes masked to len, CRC set.
Packet make_inline_packet(const Descriptor& d, uint16_t tid, uint16_t seq);
// Control packet of memory transfer `d`: kind 1, the last block's tid/seq, len 32, notify 1,
// pd, xfer, dst_addr = d.dst, payload = notify_addr, notify_tag, size, total blocks. CRC set.
Packet make_control_packet(const Descriptor& d, uint16_t tid, uint16_t seq);
// Read-request packet of block k of read transfer `d` (ICD 16): kind 2, tid, seq, len 32,
// notify on the last block of a notifying read, pd, xfer, dst_addr = the block's remote
// source address; payload as ReadReqPayload with local_dst[63:48] = node_id. CRC set.
Packet make_read_packet(const Descriptor& d, uint32_t k, uint16_t tid, uint16_t seq,
                        uint16_t node_id);

// Every field on one line (payload as 64 hex digits, byte 0 first; control packets also
// decode the control payload).
std::string to_string(const Packet& p);
std::ostream& operator<<(std::ostream& os, const Packet& p);
// "field: expected X, actual Y" per differing field. The payload is compared as control
// payload fields when the expected packet is a control packet, else as four 64-bit words.
std::vector<std::string> diff(const Packet& expected, const Packet& actual);

}  // namespace ni
