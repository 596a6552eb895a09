// SPDX-License-Identifier: Apache-2.0
#include "ref_model/common/block_desc.hpp"

#include <array>
#include <iterator>
#include <ostream>
#include <utility>

#include "ref_model/common/bits.hpp"
#include "ref_model/common/format_util.hpp"
#include "ref_model/qos/segmentation.hpp"

namespace ni {

namespace {

constexpr std::array<FieldSpec, 17> kFields = {{
    {"src_addr", 0, 64},
    {"dst_addr", 64, 64},
    {"pd_id", 128, 16},
    {"seq", 144, 14},
    {"bytes_sent", 158, 16},
    {"cm", 174, 1},
    {"initialized", 175, 1},
    {"fid", 176, 8},
    {"retx", 184, 1},
    {"done", 185, 1},
    {"notify", 186, 1},
    {"chained", 187, 1},
    {"len_m1", 188, 16},
    {"block_idx", 204, 12},
    {"has_next", 216, 1},
    {"xfer_id", 217, 11},
    {"rsvd", 228, 28},
}};

// Every field at its constant position: the shifts and masks fold at compile time (the golden
// model packs every block it expects).
template <std::size_t... I>
void pack_fields(Bits256& b, const uint64_t (&v)[sizeof...(I)], std::index_sequence<I...>) {
  (set_field(b, kFields[I].lsb, kFields[I].width, v[I]), ...);
}

}  // namespace

const std::vector<FieldSpec>& block_desc_fields() {
  static const std::vector<FieldSpec> f(kFields.begin(), kFields.end());
  return f;
}

Bits256 BlockDesc::pack() const {
  Bits256 b{};
  const uint64_t v[kFields.size()] = {
      src_addr, dst_addr, pd_id,   seq,    bytes_sent, cm,       initialized, fid, retx,
      done,     notify,   chained, len_m1, block_idx,  has_next, xfer_id,     rsvd};
  pack_fields(b, v, std::make_index_sequence<kFields.size()>{});
  return b;
}

BlockDesc BlockDesc::unpack(const Bits256& b) {
  const auto& f = block_desc_fields();
  auto g = [&](std::size_t i) { return get_field(b, f[i].lsb, f[i].width); };
  BlockDesc d;
  d.src_addr = g(0);
  d.dst_addr = g(1);
  d.pd_id = static_cast<uint16_t>(g(2));
  d.seq = static_cast<uint16_t>(g(3));
  d.bytes_sent = static_cast<uint16_t>(g(4));
  d.cm = g(5) != 0;
  d.initialized = g(6) != 0;
  d.fid = static_cast<uint8_t>(g(7));
  d.retx = g(8) != 0;
  d.done = g(9) != 0;
  d.notify = g(10) != 0;
  d.chained = g(11) != 0;
  d.len_m1 = static_cast<uint16_t>(g(12));
  d.block_idx = static_cast<uint16_t>(g(13));
  d.has_next = g(14) != 0;
  d.xfer_id = static_cast<uint16_t>(g(15));
  d.rsvd = static_cast<uint32_t>(g(16));
  return d;
}

std::string to_string(const BlockDesc& d) {
  const Bits256 b = d.pack();
  std::string s;
  for (const FieldSpec& f : block_desc_fields()) {
    if (!s.empty()) s += ' ';
    s += f.name;
    s += '=';
    s += detail::fmt_field(get_field(b, f.lsb, f.width), f.width);
  }
  return s;
}

std::ostream& operator<<(std::ostream& os, const BlockDesc& b) { return os << to_string(b); }

std::vector<std::string> diff(const BlockDesc& expected, const BlockDesc& actual) {
  const Bits256 e = expected.pack();
  const Bits256 a = actual.pack();
  if (e == a) return {};  // the fields cover all 256 bits: nothing can differ
  std::vector<std::string> out;
  for (const FieldSpec& f : block_desc_fields()) {
    const uint64_t ev = get_field(e, f.lsb, f.width);
    const uint64_t av = get_field(a, f.lsb, f.width);
    if (ev != av) {
      out.push_back(std::string(f.name) + ": expected " + detail::fmt_field(ev, f.width) +
                    ", actual " + detail::fmt_field(av, f.width));
    }
  }
  return out;
}

BlockDesc expected_block_desc(const Descriptor& d, uint32_t k, unsigned flow, uint16_t seq,
                              bool retx) {
  const Block blk = block_of(d.src, d.dst, d.size, k);
  const uint32_t total = total_blocks(d.dst, d.size);
  const bool last = k + 1 == total;
  const bool cm = is_cm(d.kind);
  BlockDesc b;
  b.src_addr = blk.src;
  b.dst_addr = blk.dst;
  b.pd_id = static_cast<uint16_t>(d.page);
  b.seq = static_cast<uint16_t>(seq & SeqMask);
  b.bytes_sent = 0;
  b.cm = cm;
  b.initialized = false;
  b.fid = static_cast<uint8_t>(block_fid(d.kind, flow, k));
  b.retx = retx;
  b.done = false;
  b.notify = d.notify && last;
  b.chained = cm && k > 0;
  b.len_m1 = static_cast<uint16_t>(blk.len - 1);
  b.block_idx = static_cast<uint16_t>(k % 4096);
  b.has_next = cm && !last;
  b.xfer_id = static_cast<uint16_t>(d.xfer());
  b.rsvd = 0;
  return b;
}

}  // namespace ni
