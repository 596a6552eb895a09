// SPDX-License-Identifier: Apache-2.0
#include "ref_model/common/wire.hpp"

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <ostream>
#include <sstream>

#include "ref_model/common/bits.hpp"
#include "ref_model/common/crc32.hpp"
#include "ref_model/common/format_util.hpp"

namespace ni {

namespace {

namespace hf = ni_pkg::wire_hdr_t;
namespace bf = ni_pkg::wire_head_t;
namespace tf = ni_pkg::wire_tail_t;

// Header fields LSB first, the order of WireHead's header members.
constexpr PkgField kHdr[] = {hf::kind, hf::tid, hf::seq,   hf::len,  hf::notify,  hf::last,
                             hf::retx, hf::pd,  hf::npkts, hf::rsvd, hf::dst_addr};
static_assert(std::size(kHdr) == std::size(hf::fields), "every wire_hdr_t field");
static_assert(bf::payload.width == 8 * kShortPayload, "short payload is 32 bytes");
static_assert(ni_pkg::BeatBytes == kBeatBytes && ni_pkg::PktBytes == kPktBytes, "ni_pkg");

uint64_t line_of(uint64_t a) { return a & ~uint64_t{kBeatBytes - 1}; }

std::array<uint64_t, 11> hdr_values(const WireHead& h) {
  return {h.kind, h.tid, h.seq, h.len, h.notify, h.last, h.retx, h.pd, h.npkts, h.rsvd, h.dst_addr};
}

}  // namespace

const char* to_string(WireKind k) {
  switch (k) {
    case WireKind::Inline:
      return "inline";
    case WireKind::Ctrl:
      return "control";
    case WireKind::Data:
      return "data";
    case WireKind::Ack:
      return "ack";
    case WireKind::Nack:
      return "nack";
    case WireKind::ReadReq:
      return "rreq";
  }
  return "?";
}

Bits512 WireHead::pack() const {
  Bits512 b{};
  const auto v = hdr_values(*this);
  for (std::size_t i = 0; i < v.size(); ++i) set_field(b, kHdr[i], v[i]);
  for (unsigned i = 0; i < kShortPayload; ++i) set_byte(b, bf::payload.lsb / 8 + i, payload[i]);
  set_field(b, bf::hcrc, hcrc);
  set_field(b, bf::src_node, src_node);
  set_field(b, bf::xfer_id, xfer_id);
  set_field(b, bf::rsvd.lsb, 64, rsvd_hi[0]);
  set_field(b, bf::rsvd.lsb + 64, bf::rsvd.width - 64, rsvd_hi[1]);
  return b;
}

WireHead WireHead::unpack(const Bits512& b) {
  WireHead h;
  h.kind = static_cast<uint8_t>(get_field(b, hf::kind));
  h.tid = static_cast<uint16_t>(get_field(b, hf::tid));
  h.seq = static_cast<uint16_t>(get_field(b, hf::seq));
  h.len = static_cast<uint16_t>(get_field(b, hf::len));
  h.notify = get_field(b, hf::notify) != 0;
  h.last = get_field(b, hf::last) != 0;
  h.retx = get_field(b, hf::retx) != 0;
  h.pd = static_cast<uint8_t>(get_field(b, hf::pd));
  h.npkts = static_cast<uint8_t>(get_field(b, hf::npkts));
  h.rsvd = static_cast<uint16_t>(get_field(b, hf::rsvd));
  h.dst_addr = get_field(b, hf::dst_addr);
  for (unsigned i = 0; i < kShortPayload; ++i) h.payload[i] = get_byte(b, bf::payload.lsb / 8 + i);
  h.hcrc = static_cast<uint32_t>(get_field(b, bf::hcrc));
  h.src_node = static_cast<uint16_t>(get_field(b, bf::src_node));
  h.xfer_id = static_cast<uint16_t>(get_field(b, bf::xfer_id));
  h.rsvd_hi[0] = get_field(b, bf::rsvd.lsb, 64);
  h.rsvd_hi[1] = get_field(b, bf::rsvd.lsb + 64, bf::rsvd.width - 64);
  return h;
}

uint32_t head_crc(const Bits512& beat) {
  static_assert(bf::hcrc.lsb == 8 * 48 && bf::hcrc.width == 32, "hcrc sits at bytes 48-51");
  uint8_t msg[60];
  for (unsigned i = 0; i < 48; ++i) msg[i] = get_byte(beat, i);
  for (unsigned i = 52; i < 64; ++i) msg[i - 4] = get_byte(beat, i);
  return crc32(msg, sizeof msg);
}

bool head_crc_ok(const Bits512& beat) { return get_field(beat, bf::hcrc) == head_crc(beat); }

uint32_t WireHead::compute_hcrc() const { return head_crc(pack()); }

uint32_t payload_crc(const std::vector<Bits512>& beats) {
  uint32_t crc = 0;
  for (const auto& b : beats) {
    uint8_t bytes[kBeatBytes];
    get_bytes(b, 0, bytes, kBeatBytes);
    crc = crc32_update(crc, bytes, kBeatBytes);
  }
  return crc;
}

unsigned payload_beats(uint64_t a, unsigned len) {
  if (len == 0) return 0;
  return static_cast<unsigned>((line_of(a + len - 1) - line_of(a)) / kBeatBytes + 1);
}

// Lanes [lo, hi) of beat j that fall in [a, a + len); lo == hi when none.
static void beat_lanes(uint64_t a, unsigned len, unsigned j, unsigned& lo, unsigned& hi) {
  const uint64_t line = line_of(a) + uint64_t{kBeatBytes} * j;
  const uint64_t from = std::max(a, line);
  const uint64_t to = std::min(a + len, line + kBeatBytes);
  lo = from < to ? unsigned(from - line) : 0;
  hi = from < to ? unsigned(to - line) : 0;
}

uint64_t beat_strobe(uint64_t a, unsigned len, unsigned j) {
  unsigned lo, hi;
  beat_lanes(a, len, j, lo, hi);
  return mask_bits(hi - lo) << lo;
}

std::vector<Bits512> WirePacket::payload() const {
  if (beats.size() < 2) return {};
  return std::vector<Bits512>(beats.begin() + 1, beats.end() - 1);
}

std::vector<uint8_t> WirePacket::bytes() const {
  const WireHead h = head();
  std::vector<uint8_t> out;
  if (h.wire_kind() != WireKind::Data) {
    const unsigned n = std::min<unsigned>(h.len, kShortPayload);
    out.assign(h.payload.begin(), h.payload.begin() + n);
    return out;
  }
  const uint64_t a = h.dst48();
  out.assign(h.len, 0);  // bytes past the payload beats read as 0
  const std::size_t have = beats.size() < 2 ? 0 : beats.size() - 2;
  for (unsigned j = 0; j < have; ++j) {
    unsigned lo, hi;
    beat_lanes(a, h.len, j, lo, hi);
    if (hi == lo) break;  // past the packet's bytes
    const uint64_t line = line_of(a) + uint64_t{kBeatBytes} * j;
    get_bytes(beats[1 + j], lo, out.data() + (line + lo - a), hi - lo);
  }
  return out;
}

uint32_t WirePacket::pcrc() const {
  return beats.size() < 2 ? 0 : static_cast<uint32_t>(get_field(beats.back(), tf::pcrc));
}

bool WirePacket::pcrc_ok() const {
  const WireHead h = head();
  if (h.wire_kind() != WireKind::Data) return beats.size() == 1;
  if (beats.size() != payload_beats(h.dst48(), h.len) + 2) return false;
  Bits512 tail = beats.back();
  set_field(tail, tf::pcrc, 0);
  return tail == Bits512{} && pcrc() == payload_crc(payload());
}

WirePacket make_data_packet(WireHead h, const uint8_t* bytes) {
  h.kind = static_cast<uint8_t>(WireKind::Data);
  const uint64_t a = h.dst48();
  const unsigned n = payload_beats(a, h.len);
  WirePacket p;
  h.seal();
  p.beats.push_back(h.pack());
  std::vector<Bits512> pay;
  pay.reserve(n);
  for (unsigned j = 0; j < n; ++j) {
    Bits512 beat{};
    unsigned lo, hi;
    beat_lanes(a, h.len, j, lo, hi);
    const uint64_t line = line_of(a) + uint64_t{kBeatBytes} * j;
    set_bytes(beat, lo, bytes + (line + lo - a), hi - lo);
    pay.push_back(beat);
  }
  Bits512 tail{};
  set_field(tail, tf::pcrc, payload_crc(pay));
  p.beats.insert(p.beats.end(), pay.begin(), pay.end());
  p.beats.push_back(tail);
  return p;
}

WirePacket head_packet(const Packet& pk, uint16_t src_node) {
  WireHead h;
  // Engine kinds 0 inline, 1 control are wire kinds 0, 1; a read request (engine kind 2)
  // is READ_REQ with `last` from its payload (ICD 16).
  h.kind = pk.hdr.kind;
  if (pk.hdr.kind == PktKindRead) {
    h.kind = static_cast<uint8_t>(WireKind::ReadReq);
    h.last = ReadReqPayload::unpack(pk.payload).last;
  }
  h.tid = pk.hdr.tid;
  h.seq = pk.hdr.seq;
  h.len = pk.hdr.len;
  h.notify = pk.hdr.notify;
  h.pd = pk.hdr.pd;
  h.dst_addr = pk.hdr.dst_addr;
  h.payload = pk.payload;
  h.src_node = src_node;
  h.xfer_id = pk.hdr.xfer_id;
  h.seal();
  return WirePacket{{h.pack()}};
}

WirePacket make_response(WireKind kind, uint16_t tid, uint16_t seq, uint16_t to, uint16_t from) {
  WireHead h;
  h.kind = static_cast<uint8_t>(kind);
  h.tid = tid;
  h.seq = seq;
  h.dst_addr = uint64_t{to} << 48;
  h.src_node = from;
  h.seal();
  return WirePacket{{h.pack()}};
}

std::array<uint8_t, 16> notification_record(uint64_t tag, uint32_t size, uint16_t src_node) {
  namespace nf = ni_pkg::notify_rec_t;
  std::array<uint64_t, 2> w{};
  set_field(w, nf::tag, tag);
  set_field(w, nf::size, size);
  set_field(w, nf::src_node, src_node);
  set_field(w, nf::magic, ni_pkg::NotifyMagic);
  std::array<uint8_t, 16> r{};
  for (unsigned i = 0; i < 16; ++i) r[i] = get_byte(w, i);
  return r;
}

std::string to_string(const WireHead& h) {
  std::ostringstream os;
  os << to_string(h.wire_kind()) << " tid=" << h.tid << " seq=" << h.seq << " len=" << h.len
     << " notify=" << h.notify << " last=" << h.last << " retx=" << h.retx
     << " pd=" << unsigned{h.pd} << " npkts=" << unsigned{h.npkts}
     << " dst=" << detail::hex64(h.dst_addr) << " src_node=" << h.src_node << " xfer=" << h.xfer_id;
  char buf[16];
  std::snprintf(buf, sizeof buf, "%08x", h.hcrc);
  os << " hcrc=" << buf;
  if (h.rsvd || h.rsvd_hi[0] || h.rsvd_hi[1]) os << " rsvd!=0";
  return os.str();
}

std::ostream& operator<<(std::ostream& os, const WireHead& h) { return os << to_string(h); }

std::vector<std::string> diff(const WireHead& e, const WireHead& a) {
  std::vector<std::string> out;
  const auto ve = hdr_values(e), va = hdr_values(a);
  for (std::size_t i = 0; i < ve.size(); ++i)
    if (ve[i] != va[i])
      out.push_back(std::string(kHdr[i].name) + ": expected " +
                    detail::fmt_field(ve[i], kHdr[i].width) + ", actual " +
                    detail::fmt_field(va[i], kHdr[i].width));
  auto cmp = [&](const char* n, uint64_t x, uint64_t y, unsigned w) {
    if (x != y)
      out.push_back(std::string(n) + ": expected " + detail::fmt_field(x, w) + ", actual " +
                    detail::fmt_field(y, w));
  };
  for (unsigned i = 0; i < kShortPayload; ++i)
    if (e.payload[i] != a.payload[i]) {
      cmp(("payload byte " + std::to_string(i)).c_str(), e.payload[i], a.payload[i], 8);
      break;
    }
  cmp("hcrc", e.hcrc, a.hcrc, 32);
  cmp("src_node", e.src_node, a.src_node, 16);
  cmp("xfer_id", e.xfer_id, a.xfer_id, 11);
  cmp("reserved[511:443] low", e.rsvd_hi[0], a.rsvd_hi[0], 64);
  cmp("reserved[511:443] high", e.rsvd_hi[1], a.rsvd_hi[1], 64);
  return out;
}

std::vector<std::string> diff(const WirePacket& e, const WirePacket& a) {
  if (e.beats.empty() || a.beats.empty()) return {"packet without beats"};
  std::vector<std::string> out = diff(e.head(), a.head());
  if (e.beats.size() != a.beats.size()) {
    out.push_back("beats: expected " + std::to_string(e.beats.size()) + ", actual " +
                  std::to_string(a.beats.size()));
    return out;
  }
  bool payload_told = false;
  for (std::size_t j = 1; j < e.beats.size(); ++j) {
    const bool tail = j + 1 == e.beats.size();
    if (e.beats[j] == a.beats[j] || (!tail && payload_told)) continue;
    payload_told = payload_told || !tail;
    for (unsigned i = 0; i < kBeatBytes; ++i) {
      const uint8_t x = get_byte(e.beats[j], i), y = get_byte(a.beats[j], i);
      if (x != y) {
        char buf[96];
        std::snprintf(buf, sizeof buf, "%s beat %zu lane %u: expected %02x, actual %02x",
                      tail ? "tail" : "payload", j, i, x, y);
        out.emplace_back(buf);
        break;
      }
    }
  }
  return out;
}

}  // namespace ni
