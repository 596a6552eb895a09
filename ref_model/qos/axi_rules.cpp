// SPDX-License-Identifier: Apache-2.0
#include "ref_model/qos/axi_rules.hpp"

namespace ni {

const char* to_string(AxiResp r) { return r == AxiResp::Okay ? "OKAY" : "SLVERR"; }

const char* to_string(AwError e) {
  switch (e) {
    case AwError::None:
      return "none";
    case AwError::Burst:
      return "AWBURST not INCR";
    case AwError::Size:
      return "AWSIZE not 3 or 4";
    case AwError::Align:
      return "AWADDR[2:0] != 0";
    case AwError::Region:
      return "region not 0 or 4";
  }
  return "?";
}

const char* to_string(BeatError e) {
  switch (e) {
    case BeatError::None:
      return "none";
    case BeatError::AwError:
      return "transaction AW error";
    case BeatError::Strobe:
      return "WSTRB rule";
    case BeatError::Last:
      return "WLAST disagrees with AWLEN";
    case BeatError::CtrlWord:
      return "region-4 word not writable";
  }
  return "?";
}

AwError check_aw(const AwFields& aw) {
  if (aw.burst != AxiBurstIncr) return AwError::Burst;
  if (aw.size != 3 && aw.size != 4) return AwError::Size;
  if (aw.addr & 0x7) return AwError::Align;
  const unsigned r = region_of(aw.addr);
  if (r != RegionDesc && r != RegionCtrl) return AwError::Region;
  return AwError::None;
}

uint32_t beat_addr(const AwFields& aw, unsigned n) {
  if (n == 0) return aw.addr;
  const uint32_t bytes = 1u << aw.size;
  return (aw.addr & ~(bytes - 1)) + n * bytes;
}

std::optional<unsigned> ctrl_write_index(uint32_t addr, bool node_regs) {
  switch (addr & 0xFFFF) {
    case 0x0000:
      return 0;
    case 0x0010:
      return 1;
    case 0x0020:
      if (node_regs) return 2;
      return std::nullopt;
    default:
      return std::nullopt;
  }
}

BeatDecode decode_write_beat(const AwFields& aw, unsigned n, const WBeat& beat, bool node_regs) {
  BeatDecode d;
  if (check_aw(aw) != AwError::None) {
    d.error = BeatError::AwError;
    return d;
  }
  const uint32_t a = beat_addr(aw, n);
  // Lanes of the beat's window: 16-byte beats cover both lanes of the aligned window (only the
  // upper one for an unaligned first beat); 8-byte beats the lane addr[3].
  bool in_window[2];
  if (aw.size == 4) {
    in_window[0] = (a & 0x8) == 0;
    in_window[1] = true;
  } else {
    in_window[0] = (a & 0x8) == 0;
    in_window[1] = (a & 0x8) != 0;
  }
  const uint32_t base = a & ~0xFu;
  BeatWords words;
  for (unsigned lane = 0; lane < 2; ++lane) {
    const uint8_t s = static_cast<uint8_t>(beat.strb >> (8 * lane));
    if (s != 0x00 && s != 0xFF) {
      d.error = BeatError::Strobe;
      return d;
    }
    if (s == 0xFF) {
      if (!in_window[lane]) {
        d.error = BeatError::Strobe;
        return d;
      }
      words.push_back({base + 8 * lane, lane ? beat.data_hi : beat.data_lo});
    }
  }
  if (beat.last != (n == aw.len)) {
    d.error = BeatError::Last;
    return d;
  }
  if (region_of(aw.addr) == RegionCtrl) {
    for (const WordWrite& w : words) {
      if (!ctrl_write_index(w.addr, node_regs)) {
        d.error = BeatError::CtrlWord;
        return d;
      }
    }
  }
  d.words = words;
  return d;
}

bool read_is_legal(const ArFields& ar) {
  if (ar.len != 0 || ar.size > 4 || (ar.addr & 0xF) != 0) return false;
  const unsigned r = region_of(ar.addr);
  return r >= RegionStatus1 && r <= RegionCtrl;
}

}  // namespace ni
