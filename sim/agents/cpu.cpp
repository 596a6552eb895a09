// SPDX-License-Identifier: Apache-2.0
#include "sim/agents/cpu.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>

#include "ref_model/qos/descriptor_write_model.hpp"

namespace sim {

namespace {
constexpr uint64_t kAddrSpace = uint64_t{1} << 48;

}  // namespace

Cpu::Cpu(AxiMaster& axi, Rng& rng, TrafficConfig cfg, unsigned acc_sets)
    : axi_(axi), rng_(rng), cfg_(std::move(cfg)), acc_sets_(acc_sets) {
  ch_.fill(Ch::Free);
  long_.fill(false);
  early_.fill(0);
  hold_.fill(0);
  if (cfg_.pages.empty()) cfg_.pages.push_back(0);
}

void Cpu::drive(uint64_t cycle) {
  if (stopped_) return;
  if (axi_.writes_pending() < cfg_.max_queued_writes) {
    if (cfg_.illegal_pct != 0 && rng_.percent(cfg_.illegal_pct) && live_ < cfg_.transfers) {
      // a sixth of the illegal writes are intruders inside a legal descriptor's line
      if (rng_.percent(16)) {
        issue_descriptor(cycle, true);
      } else {
        issue_illegal(cycle);
      }
    } else {
      issue_descriptor(cycle, false);
    }
  }
  issue_poll(cycle);
}

// ---------------------------------------------------------------------------------------------
// Random descriptors
// ---------------------------------------------------------------------------------------------
uint32_t Cpu::random_size(bool inline_kind) {
  if (inline_kind) {
    static constexpr uint32_t kEdges[] = {1, 8, 15, 16, 17, 31, 32};
    if (rng_.percent(40)) return kEdges[rng_.range(0, 6)];
    return uint32_t(rng_.range(1, 32));
  }
  const uint32_t mx = std::max<uint32_t>(cfg_.max_size, 1);
  const unsigned total = cfg_.w_edge + cfg_.w_small + cfg_.w_medium + cfg_.w_large;
  uint64_t pick = rng_.range(0, std::max(total, 1u) - 1);
  if (pick < cfg_.w_edge || total == 0) {
    static constexpr uint32_t kEdges[] = {1,      2,      15,         16,        17,    31,
                                          32,     33,     65535,      65536,     65537, 131071,
                                          131072, 131073, 0xFFFFFFFF, 0xFFFFFFFE};
    uint32_t s = kEdges[rng_.range(0, 15)];
    if (s >= 0xFFFFFFFE) s = mx - (s == 0xFFFFFFFF ? 0 : 1);  // max and max-1
    return std::clamp<uint32_t>(s, 1, mx);
  }
  pick -= cfg_.w_edge;
  if (pick < cfg_.w_small) return uint32_t(rng_.range(1, std::min<uint32_t>(512, mx)));
  pick -= cfg_.w_small;
  if (pick < cfg_.w_medium)
    return uint32_t(rng_.range(std::min<uint32_t>(513, mx), std::min<uint32_t>(65536, mx)));
  return uint32_t(rng_.range(std::min<uint32_t>(65537, mx), mx));
}

ni::Descriptor Cpu::random_descriptor(unsigned page, unsigned ch) {
  ni::Descriptor d;
  d.page = page;
  d.channel = ch;
  const unsigned total = cfg_.w_tid + cfg_.w_1x + cfg_.w_4x + cfg_.w_inline;
  uint64_t k = rng_.range(0, std::max(total, 1u) - 1);
  if (k < cfg_.w_tid)
    d.kind = ni::Kind::Tid;
  else if ((k -= cfg_.w_tid) < cfg_.w_1x)
    d.kind = ni::Kind::OneFid;
  else if ((k -= cfg_.w_1x) < cfg_.w_4x)
    d.kind = ni::Kind::FourFid;
  else
    d.kind = ni::Kind::Inline;
  d.prio = uint8_t(rng_.range(0, std::min(cfg_.prio_max, 15u)));
  d.size = random_size(d.kind == ni::Kind::Inline);
  d.notify = rng_.percent(cfg_.notify_pct);
  // RDMA Read (ICD 16): memory kinds only; drawn only when configured, so that read_pct 0
  // leaves the random stream as it was.
  const bool read = cfg_.read_pct != 0 && d.kind != ni::Kind::Inline && rng_.percent(cfg_.read_pct);
  d.read = read;
  if (cfg_.nodes != 0) {
    // Full NI: a real destination node, a destination nobody else writes, a source below
    // 2^47 (its bits 63:48 random half the time: the NI ignores them, ICD 10). A read: the
    // node drawn is the responder, whose source (below 2^47, the pattern) it names in
    // src_addr[63:48]; the bytes land in this node's own memory, at a destination of its own
    // (dst_addr[63:48], ignored by the NI, names this node); the notification too.
    const uint64_t node = rng_.range(0, cfg_.nodes - 1) << 48;
    const uint64_t self = uint64_t{cfg_.self_node} << 48;
    d.dst = (read ? self : node) | alloc_dst(d.size, rng_.percent(cfg_.aligned_pct));
    if (d.kind == ni::Kind::Inline) {
      d.payload.resize(d.size);
      for (auto& b : d.payload) b = uint8_t(rng_.range(0, 255));
      if (d.size <= 16 && rng_.percent(cfg_.inline_long_pct)) d.long_mode = ni::LongMode::Long;
    } else {
      const uint64_t half = kAddrSpace / 2;
      uint64_t s = rng_.range(0, half - d.size);
      if (rng_.percent(cfg_.aligned_pct)) s &= ~uint64_t{0x3F};
      if (read) {
        s |= node;
      } else if (rng_.percent(50)) {
        s |= rng_.range(1, 0xFFFF) << 48;
      }
      d.src = s;
      if (d.notify) {
        d.notify_addr = (rng_.range(0, 0xFFFF) << 48) | alloc_dst(16, false);
        d.notify_tag = rng_.bits64();
      }
    }
    return d;
  }
  const uint64_t node = rng_.range(0, 0xFFFF) << 48;
  uint64_t a48 = rng_.range(0, kAddrSpace - 1);
  if (rng_.percent(cfg_.aligned_pct)) a48 &= ~uint64_t{0xFFFF};
  if (a48 + d.size > kAddrSpace)
    a48 = kAddrSpace - d.size - rng_.range(0, 0xFFFF) % (kAddrSpace - d.size + 1);
  d.dst = node | a48;
  if (d.kind == ni::Kind::Inline) {
    d.payload.resize(d.size);
    for (auto& b : d.payload) b = uint8_t(rng_.range(0, 255));
    if (d.size <= 16 && rng_.percent(cfg_.inline_long_pct)) d.long_mode = ni::LongMode::Long;
  } else {
    d.src = rng_.bits64();
    // A read's source may not cross 2^48 (ICD 16); its node bits name the responder.
    if (read && (d.src & (kAddrSpace - 1)) + d.size > kAddrSpace)
      d.src =
          (d.src & ~(kAddrSpace - 1)) | ((d.src & (kAddrSpace - 1)) % (kAddrSpace - d.size + 1));
    if (d.notify) {
      d.notify_addr = rng_.bits64();
      d.notify_tag = rng_.bits64();
    }
  }
  return d;
}

uint64_t Cpu::alloc_dst(uint64_t n, bool block_aligned) {
  constexpr uint64_t kRegion = uint64_t{1} << 40;
  const uint64_t base = kAddrSpace / 2 + uint64_t{cfg_.self_node} * kRegion;
  // Start in a fresh line (a few lines of gap), at a random byte of it or a 64 KiB boundary.
  uint64_t a = (dst_next_ + 63) / 64 * 64 + 64 * rng_.range(0, 3);
  if (block_aligned) {
    a = (a + 0xFFFF) & ~uint64_t{0xFFFF};
  } else {
    a += rng_.range(0, 63);
  }
  dst_next_ = a + n;
  if (dst_next_ > kRegion) {
    std::fprintf(stderr, "ni_sim: node %u: destination region of 2^40 bytes exhausted\n",
                 cfg_.self_node);
    std::abort();
  }
  return base + a;
}

bool Cpu::pick_channel(bool need_even_pair, unsigned& page, unsigned& ch) {
  for (int tries = 0; tries < 16; ++tries) {
    page = cfg_.pages[rng_.range(0, cfg_.pages.size() - 1)];
    ch = unsigned(rng_.range(0, 63));
    if (need_even_pair) ch &= ~1u;
    const unsigned w = ni::wch_index(page, ch);
    if (ch_[w] != Ch::Free) continue;
    if (need_even_pair && ch_[w + 1] != Ch::Free) continue;
    return true;
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// AXI shapes
// ---------------------------------------------------------------------------------------------
void Cpu::write_words(unsigned page, unsigned ch, const std::vector<uint64_t>& words,
                      std::function<void(bool ok)> done) {
  struct Track {
    unsigned left = 0;
    bool ok = true;
    std::function<void(bool)> done;
  };
  auto track = std::make_shared<Track>();
  track->done = std::move(done);
  std::vector<AxiWrite> writes;
  const bool wide = rng_.percent(cfg_.wide_pct);
  const bool burst = rng_.percent(cfg_.burst_pct);
  const unsigned n = unsigned(words.size());
  auto addr = [&](unsigned i) { return ni::desc_addr(page, ch + i / 4, i % 4); };
  if (burst) {
    AxiWrite w;
    w.addr = addr(0);
    w.size = wide ? 4 : 3;
    if (wide) {
      for (unsigned i = 0; i < n; i += 2)
        w.beats.push_back(AxiBeat{words[i], words[i + 1], 0xFFFF, false});
    } else {
      for (unsigned i = 0; i < n; ++i) {
        const bool upper = (addr(i) >> 3) & 1;
        w.beats.push_back(upper ? AxiBeat{0, words[i], 0xFF00, false}
                                : AxiBeat{words[i], 0, 0x00FF, false});
      }
    }
    w.beats.back().last = true;
    writes.push_back(std::move(w));
  } else {
    for (unsigned line = 0; line < n / 4; ++line) {
      if (wide) {
        std::vector<unsigned> pairs = {0, 2};
        if (rng_.percent(50)) std::swap(pairs[0], pairs[1]);
        for (unsigned p : pairs) {
          const unsigned i = line * 4 + p;
          AxiWrite w;
          w.addr = addr(i);
          w.size = 4;
          w.beats.push_back(AxiBeat{words[i], words[i + 1], 0xFFFF, true});
          writes.push_back(std::move(w));
        }
      } else {
        std::vector<unsigned> order = {0, 1, 2, 3};
        for (unsigned i = 3; i > 0; --i) std::swap(order[i], order[rng_.range(0, i)]);
        for (unsigned o : order) {
          const unsigned i = line * 4 + o;
          AxiWrite w;
          w.addr = addr(i);
          const bool upper = (addr(i) >> 3) & 1;
          // an 8-byte word either as an 8-byte beat or as one lane of a 16-byte beat
          w.size = rng_.percent(30) ? 4 : 3;
          w.beats.push_back(upper ? AxiBeat{0, words[i], 0xFF00, true}
                                  : AxiBeat{words[i], 0, 0x00FF, true});
          writes.push_back(std::move(w));
        }
      }
    }
  }
  track->left = unsigned(writes.size());
  for (auto& w : writes) {
    axi_.write(std::move(w), [track](const AxiWrite& t) {
      if (t.resp != kRespOkay) track->ok = false;
      if (--track->left == 0 && track->done) track->done(track->ok);
    });
  }
}

void Cpu::issue_descriptor(uint64_t cycle, bool intruder) {
  (void)cycle;
  if (live_ + writing_ >= cfg_.transfers) return;
  if (busy_count_ + writing_ >= cfg_.max_live) return;
  unsigned page = 0, ch = 0;
  // Decide the shape before the channel: long descriptors need an even pair.
  ni::Descriptor d = random_descriptor(0, 0);
  if (!pick_channel(d.is_long(), page, ch)) return;
  d.page = page;
  d.channel = ch;
  const unsigned w = d.wch();
  const bool is_long = d.is_long();
  ch_[w] = Ch::Writing;
  if (is_long) ch_[w + 1] = Ch::Reserved;
  long_[w] = is_long;
  early_[w] = 0;
  ++writing_;
  auto on_done = [this, w, is_long](bool ok) {
    --writing_;
    if (!ok) {
      ++unexpected_rejects_;
      ch_[w] = Ch::Free;
      if (is_long) ch_[w + 1] = Ch::Free;
      return;
    }
    ++live_;
    ++busy_count_;
    ch_[w] = Ch::Busy;
    if (early_[w] != 0) finish_channel(w, early_[w] == 3);  // a 32-channel read saw it end
  };
  const std::vector<uint64_t> words = d.encode();
  if (!intruder) {
    write_words(page, ch, words, on_done);
    return;
  }
  // An intruding word write after the first word of the line: a word of another line of the
  // same accumulator set (for a long descriptor, often its own line 1: thesis figure 3.4's
  // illegal order). The intruder is dropped with SLVERR, the descriptor still goes live.
  ++illegal_sent_;
  const bool own_line1 = is_long && rng_.percent(50);
  unsigned ipage = acc_sets_ == 1 ? cfg_.pages[rng_.range(0, cfg_.pages.size() - 1)] : page;
  unsigned ich = own_line1 ? ch + 1 : unsigned(rng_.range(0, 127));
  if (ipage == page && ich == ch) ich = (ch + 2) % 128;
  struct Track {
    unsigned left = 0;
    bool ok = true;
  };
  auto track = std::make_shared<Track>();
  track->left = unsigned(words.size());
  auto word_write = [&](uint32_t addr, uint64_t v, std::function<void(const AxiWrite&)> cb) {
    AxiWrite wr;
    wr.addr = addr;
    wr.size = 3;
    const bool upper = (addr >> 3) & 1;
    wr.beats.push_back(upper ? AxiBeat{0, v, 0xFF00, true} : AxiBeat{v, 0, 0x00FF, true});
    axi_.write(std::move(wr), std::move(cb));
  };
  auto own = [track, on_done](const AxiWrite& t) {
    if (t.resp != kRespOkay) track->ok = false;
    if (--track->left == 0) on_done(track->ok);
  };
  word_write(ni::desc_addr(page, ch, 0), words[0], own);
  word_write(ni::desc_addr(ipage, ich, unsigned(rng_.range(0, 3))), rng_.bits64(),
             [this](const AxiWrite& t) {
               if (t.resp != kRespOkay) ++illegal_rejected_;
             });
  for (unsigned i = 1; i < words.size(); ++i) {
    word_write(ni::desc_addr(page, ch + i / 4, i % 4), words[i], own);
  }
}

// ---------------------------------------------------------------------------------------------
// Deliberately illegal writes: each one leaves no partial line behind. One of 14 kinds, drawn
// uniformly: the descriptor rules R1, R2, R4..R10 of docs/design.md section 3 as whole lines,
// then five kinds of AXI-level errors; with reads configured (read_pct > 0) two more, ICD 16's
// read rules: a read of kind inline, a read whose source crosses 2^48.
// ---------------------------------------------------------------------------------------------
void Cpu::issue_illegal(uint64_t cycle) {
  ++illegal_sent_;
  const unsigned page = cfg_.pages[rng_.range(0, cfg_.pages.size() - 1)];
  Target t{page, 0};
  // A free channel when there is one (otherwise the write also breaks R2, still illegal).
  pick_channel(false, t.page, t.ch);
  ni::Descriptor d = random_descriptor(t.page, t.ch);
  d.read = false;
  d.notify = false;
  d.long_mode = ni::LongMode::Short;
  if (d.kind == ni::Kind::Inline) {
    d.size = std::min<uint32_t>(d.size, 16);
    d.payload.resize(d.size);
  }
  // The read kinds only with reads configured: without them the stream is as it was.
  const unsigned kind = unsigned(rng_.range(0, cfg_.read_pct != 0 ? 15 : 13));
  if (kind == 1) {
    if (!illegal_busy_channel(d)) {
      // No channel can be relied on to stay busy: draw again.
      --illegal_sent_;
      issue_illegal(cycle);
    }
    return;
  }
  if (kind >= 9 && kind <= 13) {
    illegal_axi(kind, d, t);
    return;
  }
  std::string how;
  const std::vector<uint64_t> words = illegal_line(kind, d, t, how);
  // Descriptor-rule cases: whole lines, so nothing stays in the accumulator.
  write_words(t.page, t.ch, words, [this](bool ok) { count_illegal(ok); });
}

void Cpu::count_illegal(bool accepted) {
  if (!accepted) ++illegal_rejected_;
}

// The words of a line that breaks descriptor rule `kind` (0, 2..8, 14, 15); may move the
// target.
std::vector<uint64_t> Cpu::illegal_line(unsigned kind, const ni::Descriptor& d, Target& t,
                                        std::string& how) {
  std::vector<uint64_t> words;
  ni::Descriptor e = d;
  switch (kind) {
    case 0:  // R1: read channel
      how = "R1 read channel";
      t.ch = 64 + unsigned(rng_.range(0, 63));
      return d.encode();
    case 2:  // R4: size 0
      how = "R4 size 0";
      words = d.encode();
      words[3] &= ~uint64_t{0xFFFFFFFF};
      return words;
    case 3:  // R5: inline too large for a short descriptor
      how = "R5 inline size";
      e.kind = ni::Kind::Inline;
      e.size = 17 + unsigned(rng_.range(0, 15));
      e.payload.assign(e.size, 0x5A);
      e.long_mode = ni::LongMode::Short;
      return e.encode();
    case 4:  // R6: memory notify without long
      how = "R6 notify short";
      if (e.kind == ni::Kind::Inline) {
        e.kind = ni::Kind::Tid;
        e.size = 64;
        e.payload.clear();
      }
      e.notify = true;
      e.long_mode = ni::LongMode::Short;
      return e.encode();
    case 5:  // R7: long on an odd channel (line 1 then lands on an even channel: size 0)
      how = "R7 long odd";
      e.long_mode = ni::LongMode::Long;
      t.ch |= 1u;
      if (t.ch >= 63) t.ch = 61;
      return e.encode();
    case 6:  // R8: last missing
      how = "R8 last";
      words = d.encode();
      words[3] &= ~ni::CtrlLast;
      return words;
    case 7:  // R9: destination overflow
      how = "R9 dst overflow";
      if (e.kind == ni::Kind::Inline) {
        e.kind = ni::Kind::Tid;
        e.payload.clear();
      }
      e.size = 2 + uint32_t(rng_.range(0, 1u << 20));
      e.dst = (e.dst & 0xFFFF000000000000ull) | (kAddrSpace - 1 - rng_.range(0, e.size - 2));
      return e.encode();
    case 8: {  // R10: reserved bits
      how = "R10 reserved";
      words = d.encode();
      if (d.kind != ni::Kind::Inline && rng_.percent(50)) {
        words[2] = uint64_t{1} << rng_.range(0, 63);
      } else {
        // Bits 62:40 of w3; bit 40 is `read` (ICD 16), legal on a memory transfer: there the
        // draw that names it sets bit 62 instead (the same draws as before reads).
        unsigned bit = 40 + unsigned(rng_.range(0, 22));
        if (bit == ni::CtrlReadBit && d.kind != ni::Kind::Inline) bit = 62;
        words[3] |= uint64_t{1} << bit;
      }
      return words;
    }
    case 14:  // ICD 16: a read of kind inline
      how = "R16 read inline";
      e.kind = ni::Kind::Inline;
      e.size = std::clamp<uint32_t>(e.size, 1, 16);
      e.payload.assign(e.size, 0xA5);
      e.src = 0;
      e.read = true;
      return e.encode();
    default:  // 15, ICD 16: a read whose src_addr[47:0] + size crosses 2^48
      how = "R16 read src overflow";
      if (e.kind == ni::Kind::Inline) {
        e.kind = ni::Kind::Tid;
        e.payload.clear();
      }
      e.size = std::max<uint32_t>(e.size, 2);
      e.src = (e.src & 0xFFFF000000000000ull) | (kAddrSpace - 1 - rng_.range(0, e.size - 2));
      e.read = true;
      return e.encode();
  }
}

// R2: a descriptor for a channel that is not IDLE. False when none can be used.
bool Cpu::illegal_busy_channel(const ni::Descriptor& d) {
  const unsigned start = unsigned(rng_.range(0, 1023));
  unsigned busy = 1024;
  for (unsigned i = 0; i < 1024; ++i) {
    const unsigned w = (start + i) % 1024;
    if (ch_[w] == Ch::Busy) {
      busy = w;
      break;
    }
  }
  // A status read in flight could clear the channel before the write is judged.
  if (busy == 1024 || read_pending_) return false;
  // Until this write is judged the channel must stay non-IDLE: no status read may clear it.
  ++hold_[busy];
  write_words(ni::wch_page(busy), ni::wch_channel(busy), d.encode(), [this, busy](bool ok) {
    --hold_[busy];
    count_illegal(ok);
  });
  return true;
}

// AXI-level errors (kind 9..13): every beat of the transaction is dropped.
void Cpu::illegal_axi(unsigned kind, const ni::Descriptor& d, const Target& t) {
  auto single = [&](uint32_t addr, uint8_t size, AxiBeat b) {
    AxiWrite w;
    w.addr = addr;
    w.size = size;
    w.beats.push_back(b);
    axi_.write(std::move(w), [this](const AxiWrite& r) { count_illegal(r.resp == kRespOkay); });
  };
  const uint32_t line = ni::desc_addr(t.page, t.ch, 0);
  std::string how;
  switch (kind) {
    case 9: {  // burst FIXED/WRAP, or 4-byte beats
      how = "AXI burst/size";
      const std::vector<uint64_t> words = d.encode();
      AxiWrite w;
      w.addr = line;
      const bool bad_size = rng_.percent(50);
      w.size = bad_size ? 2 : 4;
      w.burst =
          bad_size ? ni::AxiBurstIncr : (rng_.percent(50) ? ni::AxiBurstFixed : ni::AxiBurstWrap);
      for (unsigned i = 0; i < words.size(); i += 2)
        w.beats.push_back(AxiBeat{words[i], words[i + 1], 0xFFFF, false});
      w.beats.back().last = true;
      axi_.write(std::move(w), [this](const AxiWrite& r) { count_illegal(r.resp == kRespOkay); });
      break;
    }
    case 10:  // misaligned address
      how = "AXI align";
      single(line | 4, 3, AxiBeat{d.encode()[0], 0, 0x00FF, true});
      break;
    case 11: {  // strobe not all-ones over a word, or outside the beat
      how = "AXI strobe";
      static constexpr uint16_t kBad[] = {0x000F, 0x00F0, 0x0FF0, 0xFF0F, 0x0001, 0x8000};
      const bool narrow = rng_.percent(50);
      const uint16_t s = narrow ? uint16_t(0xFF00) : kBad[rng_.range(0, 5)];
      single(line, narrow ? 3 : 4, AxiBeat{1, 2, s, true});
      break;
    }
    case 12:  // WLAST on the wrong beat
      how = "AXI wlast";
      single(line, 4, AxiBeat{1, 2, 0xFFFF, false});
      break;
    default:  // 13: a write to a read-only region
      how = "AXI region";
      single(ni::region_base(ni::RegionStatus1 + unsigned(rng_.range(0, 2))) | (t.page << 12), 4,
             AxiBeat{1, 2, 0xFFFF, true});
      break;
  }
}

// ---------------------------------------------------------------------------------------------
// Status polling
// ---------------------------------------------------------------------------------------------
void Cpu::finish_channel(unsigned w, bool error) {
  ch_[w] = Ch::Free;
  if (long_[w]) ch_[w + 1] = Ch::Free;
  long_[w] = false;
  early_[w] = 0;
  --busy_count_;
  ++(error ? seen_error_ : seen_done_);
}

void Cpu::issue_poll(uint64_t cycle) {
  if (read_pending_ || cycle < next_poll_) return;
  AxiRead r;
  r.id = 1;
  if (rng_.percent(cfg_.illegal_read_pct)) {
    switch (rng_.range(0, 3)) {
      case 0:
        r.addr = ni::status_addr(0, 0);
        r.len = uint8_t(rng_.range(1, 3));
        break;
      case 1:
        r.addr = ni::status_addr(0, 0);
        r.size = 5;
        break;
      case 2:
        r.addr = ni::status_addr(0, 0) | 8;
        break;
      default:
        r.addr =
            ni::region_base(rng_.percent(50) ? ni::RegionDesc : 5 + unsigned(rng_.range(0, 10)));
        break;
    }
  } else if (rng_.percent(cfg_.stat_read_pct)) {
    r.addr = rng_.percent(80) ? ni::stat_addr(unsigned(rng_.range(0, 15)))
                              : ni::ctrl_addr(unsigned(rng_.range(0, 2)));
  } else {
    if (busy_count_ == 0) return;
    unsigned start = unsigned(rng_.range(0, 1023));
    unsigned w = 1024;
    for (unsigned i = 0; i < 1024; ++i) {
      const unsigned c = (start + i) % 1024;
      if (ch_[c] == Ch::Busy && hold_[c] == 0) {
        w = c;
        break;
      }
    }
    if (w == 1024) return;
    const unsigned page = ni::wch_page(w), ch = ni::wch_channel(w);
    bool half_held = false;
    for (unsigned i = 0; i < 32; ++i)
      half_held |= hold_[ni::wch_index(page, (ch / 32) * 32 + i)] != 0;
    if (!half_held && rng_.percent(cfg_.multi_pct)) {
      const unsigned half = ch / 32;
      r.addr = ni::status32_addr(page, half);
      read_pending_ = true;
      ++reads_;
      axi_.read(r, [this, page, half](const AxiRead& t) {
        read_pending_ = false;
        for (unsigned i = 0; i < 32; ++i) {
          const unsigned code = unsigned(t.data[0] >> (2 * i)) & 3u;
          const unsigned c = ni::wch_index(page, half * 32 + i);
          if (code < 2) continue;
          if (ch_[c] == Ch::Busy) {
            finish_channel(c, code == 3);
          } else if (ch_[c] == Ch::Writing) {
            early_[c] = uint8_t(code);  // finished before its B response came back
          }
        }
      });
      next_poll_ = cycle + cfg_.poll_interval;
      return;
    }
    r.addr = ni::status_addr(page, ch);
    read_pending_ = true;
    ++reads_;
    axi_.read(r, [this, w](const AxiRead& t) {
      read_pending_ = false;
      const unsigned code = unsigned(t.data[0]) & 3u;
      if (code >= 2 && ch_[w] == Ch::Busy) finish_channel(w, code == 3);
    });
    next_poll_ = cycle + cfg_.poll_interval;
    return;
  }
  read_pending_ = true;
  ++reads_;
  axi_.read(r, [this](const AxiRead&) { read_pending_ = false; });
  next_poll_ = cycle + cfg_.poll_interval;
}

}  // namespace sim
