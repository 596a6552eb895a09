// SPDX-License-Identifier: Apache-2.0
#include "ref_model/common/descriptor.hpp"

#include <algorithm>
#include <cstdio>
#include <ostream>
#include <sstream>
#include <stdexcept>

#include "ref_model/common/bits.hpp"

namespace ni {

uint64_t ControlWord::pack() const {
  uint64_t w = 0;
  w |= uint64_t{size} << CtrlSizeLsb;
  w |= (uint64_t{prio} & 0xF) << CtrlPrioLsb;
  w |= (uint64_t(static_cast<uint8_t>(kind)) & 0x3) << CtrlKindLsb;
  w |= uint64_t{notify} << CtrlNotifyBit;
  w |= uint64_t{is_long} << CtrlLongBit;
  w |= uint64_t{read} << CtrlReadBit;
  w |= (uint64_t{rsvd} & mask_bits(CtrlRsvdW)) << CtrlRsvdLsb;
  w |= uint64_t{last} << CtrlLastBit;
  return w;
}

ControlWord ControlWord::unpack(uint64_t w) {
  ControlWord c;
  c.size = static_cast<uint32_t>(get_bits(w, CtrlSizeLsb, 32));
  c.prio = static_cast<uint8_t>(get_bits(w, CtrlPrioLsb, 4));
  c.kind = static_cast<Kind>(get_bits(w, CtrlKindLsb, 2));
  c.notify = get_bits(w, CtrlNotifyBit, 1) != 0;
  c.is_long = get_bits(w, CtrlLongBit, 1) != 0;
  c.read = get_bits(w, CtrlReadBit, 1) != 0;
  c.rsvd = static_cast<uint32_t>(get_bits(w, CtrlRsvdLsb, CtrlRsvdW));
  c.last = get_bits(w, CtrlLastBit, 1) != 0;
  return c;
}

bool ControlWord::operator==(const ControlWord& o) const {
  return size == o.size && prio == o.prio && kind == o.kind && notify == o.notify &&
         is_long == o.is_long && read == o.read && rsvd == o.rsvd && last == o.last;
}

namespace {

bool auto_long(Kind kind, bool notify, std::size_t payload_bytes) {
  if (is_memory(kind)) return notify;
  return payload_bytes > 16;
}

// Little-endian word of payload bytes [8*i, 8*i+8), zero beyond the vector.
uint64_t payload_word(const std::vector<uint8_t>& p, unsigned i) {
  uint64_t w = 0;
  for (unsigned b = 0; b < 8; ++b) {
    const std::size_t idx = 8 * i + b;
    if (idx < p.size()) w |= uint64_t{p[idx]} << (8 * b);
  }
  return w;
}

void append_payload_word(std::vector<uint8_t>& p, uint64_t w) {
  for (unsigned b = 0; b < 8; ++b) p.push_back(static_cast<uint8_t>(w >> (8 * b)));
}

}  // namespace

bool Descriptor::is_long() const {
  switch (long_mode) {
    case LongMode::Long:
      return true;
    case LongMode::Short:
      return false;
    case LongMode::Auto:
      break;
  }
  return auto_long(kind, notify, payload.size());
}

ControlWord Descriptor::control() const {
  ControlWord c;
  c.size = size;
  c.prio = prio & 0xF;
  c.kind = kind;
  c.notify = notify;
  c.read = read;
  c.is_long = is_long();
  c.last = !c.is_long;
  return c;
}

std::vector<uint64_t> Descriptor::encode() const {
  const bool lng = is_long();
  std::vector<uint64_t> w(lng ? 8 : 4, 0);
  if (is_memory()) {
    w[0] = src;
    w[1] = dst;
    w[2] = 0;
    if (lng) {
      w[4] = notify_addr;
      w[5] = notify_tag;
    }
  } else {
    w[0] = payload_word(payload, 0);
    w[1] = dst;
    w[2] = payload_word(payload, 1);
    if (lng) {
      w[4] = payload_word(payload, 2);
      w[5] = payload_word(payload, 3);
    }
  }
  w[3] = control().pack();
  if (lng) {
    w[6] = 0;
    w[7] = CtrlLast;
  }
  return w;
}

std::vector<Line> Descriptor::encode_lines() const {
  const std::vector<uint64_t> w = encode();
  std::vector<Line> lines;
  for (std::size_t l = 0; l * LineWords < w.size(); ++l) {
    Line line{};
    for (unsigned i = 0; i < LineWords; ++i) line[i] = w[l * LineWords + i];
    lines.push_back(line);
  }
  return lines;
}

Descriptor Descriptor::decode(unsigned page, unsigned channel, const std::vector<uint64_t>& words) {
  if (words.size() != 4 && words.size() != 8) {
    throw std::invalid_argument("Descriptor::decode: need 4 or 8 words");
  }
  const bool lng = words.size() == 8;
  const ControlWord c = ControlWord::unpack(words[3]);
  Descriptor d;
  d.page = page;
  d.channel = channel;
  d.kind = c.kind;
  d.size = c.size;
  d.prio = c.prio;
  d.notify = c.notify;
  d.read = c.read;
  d.dst = words[1];
  if (d.is_memory()) {
    d.src = words[0];
    if (lng) {
      d.notify_addr = words[4];
      d.notify_tag = words[5];
    }
  } else {
    append_payload_word(d.payload, words[0]);
    append_payload_word(d.payload, words[2]);
    if (lng) {
      append_payload_word(d.payload, words[4]);
      append_payload_word(d.payload, words[5]);
    }
    d.payload.resize(std::min<std::size_t>(d.payload.size(), d.size));
  }
  const bool autol = auto_long(d.kind, d.notify, d.payload.size());
  d.long_mode = autol == lng ? LongMode::Auto : (lng ? LongMode::Long : LongMode::Short);
  return d;
}

std::string Descriptor::to_string() const {
  std::ostringstream os;
  char buf[64];
  os << "desc{page=" << page << " ch=" << channel << " kind=" << ni::to_string(kind);
  std::snprintf(buf, sizeof buf, " src=0x%016llx", static_cast<unsigned long long>(src));
  if (is_memory()) os << buf;
  std::snprintf(buf, sizeof buf, " dst=0x%016llx", static_cast<unsigned long long>(dst));
  os << buf << " size=" << size << " prio=" << unsigned{prio} << " notify=" << notify
     << " long=" << is_long();
  if (read) os << " read=1";
  if (is_memory() && is_long()) {
    std::snprintf(buf, sizeof buf, " naddr=0x%016llx",
                  static_cast<unsigned long long>(notify_addr));
    os << buf;
    std::snprintf(buf, sizeof buf, " ntag=0x%016llx", static_cast<unsigned long long>(notify_tag));
    os << buf;
  }
  if (!is_memory()) {
    os << " payload=";
    for (uint8_t b : payload) {
      std::snprintf(buf, sizeof buf, "%02x", b);
      os << buf;
    }
  }
  os << "}";
  return os.str();
}

std::ostream& operator<<(std::ostream& os, const Descriptor& d) { return os << d.to_string(); }

bool Descriptor::operator==(const Descriptor& o) const {
  return page == o.page && channel == o.channel && kind == o.kind && src == o.src && dst == o.dst &&
         size == o.size && prio == o.prio && notify == o.notify && read == o.read &&
         notify_addr == o.notify_addr && notify_tag == o.notify_tag && payload == o.payload &&
         is_long() == o.is_long();
}

}  // namespace ni
