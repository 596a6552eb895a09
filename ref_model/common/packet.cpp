// SPDX-License-Identifier: Apache-2.0
#include "ref_model/common/packet.hpp"

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <ostream>

#include "ref_model/common/bits.hpp"
#include "ref_model/common/crc32.hpp"
#include "ref_model/common/format_util.hpp"
#include "ref_model/qos/segmentation.hpp"

namespace ni {

namespace {

// The header layout of ni_pkg::pkt_hdr_t, LSB first (the order of PacketHeader's members).
namespace hf = ni_pkg::pkt_hdr_t;
using HdrField = ni_pkg::Field;
constexpr HdrField kHdrFields[] = {hf::kind, hf::tid,     hf::seq,  hf::len,     hf::notify,
                                   hf::pd,   hf::xfer_id, hf::rsvd, hf::dst_addr};
static_assert(std::size(kHdrFields) == std::size(hf::fields), "every pkt_hdr_t field");
namespace cf = ni_pkg::ctrl_payload_t;
namespace rf = ni_pkg::rreq_payload_t;

uint64_t payload_word(const std::array<uint8_t, PktPayloadBytes>& p, unsigned i) {
  uint64_t w = 0;
  for (unsigned b = 0; b < 8; ++b) w |= uint64_t{p[8 * i + b]} << (8 * b);
  return w;
}

}  // namespace

Bits128 PacketHeader::pack() const {
  Bits128 b{};
  const uint64_t v[] = {kind, tid, seq, len, notify, pd, xfer_id, rsvd, dst_addr};
  for (std::size_t i = 0; i < 9; ++i) set_field(b, kHdrFields[i].lsb, kHdrFields[i].width, v[i]);
  return b;
}

PacketHeader PacketHeader::unpack(const Bits128& b) {
  auto g = [&](std::size_t i) { return get_field(b, kHdrFields[i].lsb, kHdrFields[i].width); };
  PacketHeader h;
  h.kind = static_cast<uint8_t>(g(0));
  h.tid = static_cast<uint16_t>(g(1));
  h.seq = static_cast<uint16_t>(g(2));
  h.len = static_cast<uint8_t>(g(3));
  h.notify = g(4) != 0;
  h.pd = static_cast<uint8_t>(g(5));
  h.xfer_id = static_cast<uint16_t>(g(6));
  h.rsvd = static_cast<uint16_t>(g(7));
  h.dst_addr = g(8);
  return h;
}

std::array<uint8_t, PktPayloadBytes> CtrlPayload::pack() const {
  std::array<uint64_t, 4> w{};
  set_field(w, cf::notify_addr, notify_addr);
  set_field(w, cf::notify_tag, notify_tag);
  set_field(w, cf::size, size);
  set_field(w, cf::total_blocks, total_blocks);
  std::array<uint8_t, PktPayloadBytes> p{};
  for (unsigned i = 0; i < PktPayloadBytes; ++i) p[i] = get_byte(w, i);
  return p;
}

CtrlPayload CtrlPayload::unpack(const std::array<uint8_t, PktPayloadBytes>& p) {
  std::array<uint64_t, 4> w{};
  for (unsigned i = 0; i < PktPayloadBytes; ++i) set_byte(w, i, p[i]);
  CtrlPayload c;
  c.notify_addr = get_field(w, cf::notify_addr);
  c.notify_tag = get_field(w, cf::notify_tag);
  c.size = static_cast<uint32_t>(get_field(w, cf::size));
  c.total_blocks = static_cast<uint32_t>(get_field(w, cf::total_blocks));
  return c;
}

std::array<uint8_t, PktPayloadBytes> ReadReqPayload::pack() const {
  std::array<uint64_t, 4> w{};
  set_field(w, rf::local_dst, local_dst);
  set_field(w, rf::notify_addr, notify_addr);
  set_field(w, rf::notify_tag, notify_tag);
  set_field(w, rf::bytes, bytes);
  set_field(w, rf::kind, static_cast<uint64_t>(kind));
  set_field(w, rf::prio, prio);
  set_field(w, rf::last, last);
  std::array<uint8_t, PktPayloadBytes> p{};
  for (unsigned i = 0; i < PktPayloadBytes; ++i) p[i] = get_byte(w, i);
  return p;
}

ReadReqPayload ReadReqPayload::unpack(const std::array<uint8_t, PktPayloadBytes>& p) {
  std::array<uint64_t, 4> w{};
  for (unsigned i = 0; i < PktPayloadBytes; ++i) set_byte(w, i, p[i]);
  ReadReqPayload r;
  r.local_dst = get_field(w, rf::local_dst);
  r.notify_addr = get_field(w, rf::notify_addr);
  r.notify_tag = get_field(w, rf::notify_tag);
  r.bytes = static_cast<uint32_t>(get_field(w, rf::bytes));
  r.kind = static_cast<Kind>(get_field(w, rf::kind));
  r.prio = static_cast<uint8_t>(get_field(w, rf::prio));
  r.last = get_field(w, rf::last) != 0;
  return r;
}

Bits512 Packet::pack() const {
  Bits512 b{};
  const Bits128 h = hdr.pack();
  b[0] = h[0];
  b[1] = h[1];
  for (unsigned i = 0; i < PktPayloadBytes; ++i) set_byte(b, PktHeaderBytes + i, payload[i]);
  set_field(b, 384, 32, crc);
  set_field(b, 416, 32, footer_rsvd_lo);
  set_field(b, 448, 64, footer_rsvd_hi);
  return b;
}

Packet Packet::unpack(const Bits512& b) {
  Packet p;
  p.hdr = PacketHeader::unpack(Bits128{b[0], b[1]});
  for (unsigned i = 0; i < PktPayloadBytes; ++i) p.payload[i] = get_byte(b, PktHeaderBytes + i);
  p.crc = static_cast<uint32_t>(get_field(b, 384, 32));
  p.footer_rsvd_lo = static_cast<uint32_t>(get_field(b, 416, 32));
  p.footer_rsvd_hi = get_field(b, 448, 64);
  return p;
}

uint32_t packet_crc(const Bits512& pkt) {
  uint8_t bytes[PktHeaderBytes + PktPayloadBytes];
  for (unsigned i = 0; i < sizeof bytes; ++i) bytes[i] = get_byte(pkt, i);
  const unsigned len = static_cast<unsigned>(get_field(pkt, 28, 6));
  return crc32(bytes, PktHeaderBytes + std::min(len, PktPayloadBytes));
}

uint32_t Packet::compute_crc() const { return packet_crc(pack()); }

bool check_crc(const Bits512& pkt) {
  return static_cast<uint32_t>(get_field(pkt, 384, 32)) == packet_crc(pkt);
}

bool check_crc(const Packet& pkt) { return check_crc(pkt.pack()); }

Packet make_inline_packet(const Descriptor& d, uint16_t tid, uint16_t seq) {
  Packet p;
  p.hdr.kind = PktKindInline;
  p.hdr.tid = tid;
  p.hdr.seq = static_cast<uint16_t>(seq & SeqMask);
  p.hdr.len = static_cast<uint8_t>(d.size);
  p.hdr.notify = d.notify;
  p.hdr.pd = static_cast<uint8_t>(d.page);
  p.hdr.xfer_id = static_cast<uint16_t>(d.xfer());
  p.hdr.dst_addr = d.dst;
  // The descriptor carries 16 (short) or 32 (long) payload bytes; the packet keeps `len`.
  const std::size_t carried = d.is_long() ? 32 : 16;
  const std::size_t n = std::min<std::size_t>({d.payload.size(), carried, d.size, PktPayloadBytes});
  for (std::size_t i = 0; i < n; ++i) p.payload[i] = d.payload[i];
  p.seal();
  return p;
}

Packet make_control_packet(const Descriptor& d, uint16_t tid, uint16_t seq) {
  Packet p;
  p.hdr.kind = PktKindCtrl;
  p.hdr.tid = tid;
  p.hdr.seq = static_cast<uint16_t>(seq & SeqMask);
  p.hdr.len = PktPayloadBytes;
  p.hdr.notify = true;
  p.hdr.pd = static_cast<uint8_t>(d.page);
  p.hdr.xfer_id = static_cast<uint16_t>(d.xfer());
  p.hdr.dst_addr = d.dst;
  CtrlPayload c;
  c.notify_addr = d.notify_addr;
  c.notify_tag = d.notify_tag;
  c.size = d.size;
  c.total_blocks = total_blocks(d.dst, d.size);
  p.payload = c.pack();
  p.seal();
  return p;
}

Packet make_read_packet(const Descriptor& d, uint32_t k, uint16_t tid, uint16_t seq,
                        uint16_t node_id) {
  const Block b = block_of(d.src, d.dst, d.size, k);
  const bool last = k + 1 == total_blocks(d.dst, d.size);
  Packet p;
  p.hdr.kind = PktKindRead;
  p.hdr.tid = tid;
  p.hdr.seq = static_cast<uint16_t>(seq & SeqMask);
  p.hdr.len = PktPayloadBytes;
  p.hdr.notify = d.notify && last;
  p.hdr.pd = static_cast<uint8_t>(d.page);
  p.hdr.xfer_id = static_cast<uint16_t>(d.xfer());
  p.hdr.dst_addr = b.src;
  ReadReqPayload r;
  r.local_dst = (uint64_t{node_id} << 48) | (b.dst & mask_bits(48));
  if (p.hdr.notify) {
    r.notify_addr = d.notify_addr;
    r.notify_tag = d.notify_tag;
  }
  r.bytes = b.len;
  r.kind = d.kind;
  r.prio = static_cast<uint8_t>(d.prio & 0xF);
  r.last = last;
  p.payload = r.pack();
  p.seal();
  return p;
}

std::string to_string(const Packet& p) {
  const Bits128 h = p.hdr.pack();
  std::string s;
  for (const HdrField& f : kHdrFields) {
    if (!s.empty()) s += ' ';
    s += f.name;
    s += '=';
    s += detail::fmt_field(get_field(h, f.lsb, f.width), f.width);
  }
  s += " payload=";
  char buf[48];
  for (uint8_t b : p.payload) {
    std::snprintf(buf, sizeof buf, "%02x", b);
    s += buf;
  }
  if (p.hdr.kind == PktKindCtrl) {
    const CtrlPayload c = CtrlPayload::unpack(p.payload);
    s += " {notify_addr=" + detail::hex64(c.notify_addr) +
         " notify_tag=" + detail::hex64(c.notify_tag) + " size=" + std::to_string(c.size) +
         " total_blocks=" + std::to_string(c.total_blocks) + "}";
  }
  std::snprintf(buf, sizeof buf, " crc32=0x%08x", p.crc);
  s += buf;
  if (p.footer_rsvd_lo != 0 || p.footer_rsvd_hi != 0) {
    s += " footer_rsvd=" + detail::fmt_field(p.footer_rsvd_hi, 64) + ":" +
         detail::fmt_field(p.footer_rsvd_lo, 32);
  }
  return s;
}

std::ostream& operator<<(std::ostream& os, const Packet& p) { return os << to_string(p); }

std::vector<std::string> diff(const Packet& expected, const Packet& actual) {
  // Every value compared below is a function of the packed 512 bits: equal packets, no diff.
  if (expected.pack() == actual.pack()) return {};
  std::vector<std::string> out;
  auto add = [&](const std::string& name, uint64_t e, uint64_t a, unsigned width) {
    if (e != a) {
      out.push_back(name + ": expected " + detail::fmt_field(e, width) + ", actual " +
                    detail::fmt_field(a, width));
    }
  };
  const Bits128 he = expected.hdr.pack();
  const Bits128 ha = actual.hdr.pack();
  for (const HdrField& f : kHdrFields) {
    add(f.name, get_field(he, f.lsb, f.width), get_field(ha, f.lsb, f.width), f.width);
  }
  if (expected.hdr.kind == PktKindCtrl) {
    const CtrlPayload ce = CtrlPayload::unpack(expected.payload);
    const CtrlPayload ca = CtrlPayload::unpack(actual.payload);
    add("payload.notify_addr", ce.notify_addr, ca.notify_addr, 64);
    add("payload.notify_tag", ce.notify_tag, ca.notify_tag, 64);
    add("payload.size", ce.size, ca.size, 32);
    add("payload.total_blocks", ce.total_blocks, ca.total_blocks, CntW);
    // bits 255:178 of the payload must be zero
    std::array<uint64_t, 4> we{}, wa{};
    for (unsigned i = 0; i < PktPayloadBytes; ++i) {
      set_byte(we, i, expected.payload[i]);
      set_byte(wa, i, actual.payload[i]);
    }
    for (unsigned lsb = 178; lsb < 256; lsb += 64) {
      const unsigned w = std::min(64u, 256 - lsb);
      add("payload.rsvd[" + std::to_string(lsb + w - 1) + ":" + std::to_string(lsb) + "]",
          get_field(we, lsb, w), get_field(wa, lsb, w), 64);
    }
  } else {
    for (unsigned i = 0; i < 4; ++i) {
      add("payload.w" + std::to_string(i), payload_word(expected.payload, i),
          payload_word(actual.payload, i), 64);
    }
  }
  add("crc32", expected.crc, actual.crc, 32);
  add("footer_rsvd_lo", expected.footer_rsvd_lo, actual.footer_rsvd_lo, 32);
  add("footer_rsvd_hi", expected.footer_rsvd_hi, actual.footer_rsvd_hi, 64);
  return out;
}

}  // namespace ni
