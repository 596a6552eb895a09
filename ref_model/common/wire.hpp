// SPDX-License-Identifier: Apache-2.0
// The wire format of the full NI (ICD 11): every packet is a 512-bit head beat; a data
// packet adds destination-aligned payload beats and a tail beat with the payload CRC. Field
// positions come from ni_pkg (wire_hdr_t, wire_head_t, wire_tail_t through ni_pkg_gen.hpp).
#pragma once

#include <array>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "ref_model/common/packet.hpp"

namespace ni {

enum class WireKind : uint8_t { Inline = 0, Ctrl = 1, Data = 2, Ack = 3, Nack = 4, ReadReq = 5 };
constexpr unsigned kNumWireKinds = 6;
static_assert(kNumWireKinds == unsigned(WireKind::ReadReq) + 1,
              "kNumWireKinds counts the kinds of WireKind (ReadReq is the last)");
const char* to_string(WireKind k);  // "?" for a kind the ICD does not define

constexpr unsigned kBeatBytes = 64;
constexpr unsigned kPktBytes = 1024;  // largest data-packet payload
constexpr unsigned kShortPayload = 32;

// The head beat (ICD 11), fields LSB first.
struct WireHead {
  // header [127:0]
  uint8_t kind = 0;       // 3:0
  uint16_t tid = 0;       // 13:4
  uint16_t seq = 0;       // 27:14
  uint16_t len = 0;       // 38:28: inline 1-32, control 32, data 1-1024, ACK/NACK 0
  bool notify = false;    // 39
  bool last = false;      // 40: data: last packet of its block
  bool retx = false;      // 41: data: packet of a re-issued block
  uint8_t pd = 0;         // 45:42
  uint8_t npkts = 0;      // 52:46: data: packets in its block (1..64)
  uint16_t rsvd = 0;      // 63:53
  uint64_t dst_addr = 0;  // 127:64: [63:48] destination node
  std::array<uint8_t, kShortPayload> payload{};  // 383:128
  uint32_t hcrc = 0;                             // 415:384
  uint16_t src_node = 0;                         // 431:416
  uint16_t xfer_id = 0;                          // 442:432
  std::array<uint64_t, 2> rsvd_hi{};             // 511:443 (69 bits), must be 0

  WireKind wire_kind() const { return static_cast<WireKind>(kind); }
  uint16_t dst_node() const { return static_cast<uint16_t>(dst_addr >> 48); }
  uint64_t dst48() const { return dst_addr & ((uint64_t{1} << 48) - 1); }

  Bits512 pack() const;
  static WireHead unpack(const Bits512& b);
  // hcrc over the packed beat's bytes 0-47 then 52-63.
  uint32_t compute_hcrc() const;
  void seal() { hcrc = compute_hcrc(); }
  bool operator==(const WireHead& o) const { return pack() == o.pack(); }
  bool operator!=(const WireHead& o) const { return !(*this == o); }
};

// CRC-32 over bytes 0-47 and 52-63 of a head beat (the hcrc field excluded).
uint32_t head_crc(const Bits512& beat);
bool head_crc_ok(const Bits512& beat);
// CRC-32 over a data packet's payload beats, 64 bytes each, in order.
uint32_t payload_crc(const std::vector<Bits512>& beats);

// Payload beats of a data packet at destination address `a` (48-bit) of `len` bytes: the
// number of 64-byte lines [a, a+len) touches.
unsigned payload_beats(uint64_t a, unsigned len);
// WSTRB-style mask of payload beat j: bit i set when lane i of destination line
// (a & ~63) + 64*j lies inside [a, a+len).
uint64_t beat_strobe(uint64_t a, unsigned len, unsigned j);

// One packet as it crosses a link: beats[0] is the head beat; a data packet continues with
// its payload beats and the tail beat.
struct WirePacket {
  std::vector<Bits512> beats;

  WireHead head() const { return WireHead::unpack(beats.at(0)); }
  bool is_data() const { return head().wire_kind() == WireKind::Data; }
  // Payload beats (data packets), without head and tail.
  std::vector<Bits512> payload() const;
  // The `len` payload bytes in order: a data packet's lanes [a, a+len), or the short payload.
  std::vector<uint8_t> bytes() const;
  uint32_t pcrc() const;  // the tail beat's pcrc field (data packets)
  // hcrc (and for data packets pcrc, beat count and the tail's reserved bits) as ICD 11 says.
  bool hcrc_ok() const { return head_crc_ok(beats.at(0)); }
  bool pcrc_ok() const;
  bool operator==(const WirePacket& o) const { return beats == o.beats; }
  bool operator!=(const WirePacket& o) const { return beats != o.beats; }
};

// A data packet: `h` (kind, len, dst_addr ... set by the caller; hcrc sealed here) carrying
// `bytes` (h.len of them) at destination h.dst48().
WirePacket make_data_packet(WireHead h, const uint8_t* bytes);
// Head beat of an engine packet (ICD 7) as the send unit re-encodes it (ICD 12): fields
// copied, len widened, last/retx/npkts 0, src_node added, hcrc sealed.
WirePacket head_packet(const Packet& p, uint16_t src_node);
// ACK or NACK for (tid, seq) from node `from` to node `to` (ICD 11, 13): len 0, every other
// header field 0, dst_addr = to << 48, xfer_id 0 (the receiver does not know it).
WirePacket make_response(WireKind kind, uint16_t tid, uint16_t seq, uint16_t to, uint16_t from);

// The 16-byte completion notification record (ICD 13), little-endian.
std::array<uint8_t, 16> notification_record(uint64_t tag, uint32_t size, uint16_t src_node);

std::string to_string(const WireHead& h);
std::ostream& operator<<(std::ostream& os, const WireHead& h);
// "field: expected X, actual Y" per differing head field.
std::vector<std::string> diff(const WireHead& expected, const WireHead& actual);
// Head fields, then beat count, then the first differing payload byte and the tail.
std::vector<std::string> diff(const WirePacket& expected, const WirePacket& actual);

}  // namespace ni
