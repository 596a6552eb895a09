// SPDX-License-Identifier: Apache-2.0
#include "ref_model/recv/recv_model.hpp"

#include <algorithm>
#include <cstdio>
#include <limits>

#include "ref_model/common/bits.hpp"

namespace ni {

namespace {

constexpr uint64_t kAddr48 = (uint64_t{1} << 48) - 1;
constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();
constexpr unsigned kSeqBits = 14;
constexpr unsigned kMaxNpkts = 64;
// Cycles beyond one full scan (RxContexts cycles) that a reclaim may be late: the scanner
// skips a context while the FSM writes or checks it (docs/design.md 15.x).
constexpr uint64_t kReclaimSlack = 8;
// Packets one explanation may decide silently before giving up (the descriptor FIFO holds
// fewer; the bound only stops a runaway search).
constexpr unsigned kMaxChain = 4096;

std::string hex(uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

std::string resp_text(const WireHead& h) {
  return std::string(to_string(h.wire_kind())) + " tid=" + std::to_string(h.tid) +
         " seq=" + std::to_string(h.seq) + " to node " + std::to_string(h.dst_node());
}

// A data head the unit can take (recv_unit data_head_sane): len 1..1024 inside one 1 KiB
// destination window, npkts 1..64.
// A read request for this node with a good hcrc, one beat: the receive unit hands it to the
// engine's read-channel allocator (ICD 16).
bool is_rreq(const WirePacket& p, uint16_t node) {
  if (p.beats.size() != 1 || !p.hcrc_ok()) return false;
  const WireHead h = p.head();
  return h.wire_kind() == WireKind::ReadReq && h.dst_node() == node;
}

bool data_head_sane(const WireHead& h) {
  const uint64_t a = h.dst48();
  return h.len != 0 && h.len <= kPktBytes && h.npkts != 0 && h.npkts <= kMaxNpkts &&
         ((a + h.len - 1) >> 10) == (a >> 10);
}

// Keeps the first of each group of equal states (in order), then at most kMaxStates.
void cap_states(std::vector<RecvModel>& v) {
  std::size_t kept = v.empty() ? 0 : 1;
  for (std::size_t i = 1; i < v.size(); ++i) {
    if (std::find(v.begin(), v.begin() + std::ptrdiff_t(kept), v[i]) !=
        v.begin() + std::ptrdiff_t(kept))
      continue;
    if (kept != i) v[kept] = std::move(v[i]);
    ++kept;
  }
  v.erase(v.begin() + std::ptrdiff_t(std::min<std::size_t>(kept, RecvChecker::kMaxStates)),
          v.end());
}

}  // namespace

RecvModel::RecvModel(uint16_t node, unsigned contexts, uint64_t rx_idle)
    : node_(node), cap_(contexts), rx_idle_(rx_idle) {}

bool RecvModel::seq_newer(uint16_t b, uint16_t a) {
  const unsigned d = (unsigned{b} - unsigned{a}) & ((1u << kSeqBits) - 1);
  return d != 0 && (d >> (kSeqBits - 1)) == 0;
}

bool RecvModel::block_done(const Context& c) const {
  return c.npkts != 0 && c.cnt == c.npkts && c.pend == 0;
}
bool RecvModel::needs_record(const Context& c) const {
  return block_done(c) && c.notify && c.have_ctrl && !c.nf_issued;
}
bool RecvModel::needs_ack(const Context& c) const {
  return block_done(c) && (!c.notify || (c.have_ctrl && c.nf_issued));
}

std::array<uint64_t, 2> RecvModel::reclaim_window(const Context& c) const {
  if (rx_idle_ == 0 || c.pend != 0 || needs_record(c) || needs_ack(c)) return {kNever, kNever};
  const uint64_t lo = std::max(c.seen_lo + rx_idle_, c.last_b + 1) + 1;
  const uint64_t hi = std::max(c.seen_hi + rx_idle_, c.last_b + 1) + cap_ + kReclaimSlack;
  return {lo, hi};
}

void RecvModel::reclaim_certain(uint64_t before) {
  for (auto it = ctx_.begin(); it != ctx_.end();) {
    if (reclaim_window(it->second)[1] <= before) {
      it = ctx_.erase(it);
      ++ctr_[kCtrReclaim];
    } else {
      ++it;
    }
  }
}

RecvModel::Arrival RecvModel::ingress(const WirePacket& p, uint16_t node, uint64_t cycle) {
  Arrival a;
  if (p.beats.empty() || !p.hcrc_ok()) return a;  // Verdict::Hcrc
  const WireHead h = p.head();
  const auto k = h.wire_kind();
  if (is_rreq(p, node)) {  // handed to the engine (RecvChecker::on_req_rx)
    a.verdict = Arrival::Verdict::Handed;
    return a;
  }
  if (h.dst_node() != node || h.kind > static_cast<uint8_t>(WireKind::Data)) {
    a.verdict = Arrival::Verdict::Misroute;  // another node's, a response on the request
    return a;                                // network, or a read request of more than one beat
  }
  a.verdict = Arrival::Verdict::Waits;
  Waiting& w = a.w;
  w.head = h;
  w.arrived = cycle;
  if (k == WireKind::Data) {
    w.good = data_head_sane(h) && p.pcrc_ok();
    if (w.good) w.payload = std::make_shared<const std::vector<Bits512>>(p.payload());
  } else {
    w.good = p.beats.size() == 1 && (k == WireKind::Ctrl || h.len != 0);
  }
  return a;
}

void RecvModel::admit(const Arrival& a) {
  ++ctr_[kCtrRx];
  switch (a.verdict) {
    case Arrival::Verdict::Hcrc:
      ++ctr_[kCtrHcrc];
      break;
    case Arrival::Verdict::Handed:
      break;
    case Arrival::Verdict::Misroute:
      ++ctr_[kCtrMisroute];
      break;
    case Arrival::Verdict::Waits:
      queue_.push_back(a.w);
      break;
  }
}

void RecvModel::arrive(const WirePacket& p, uint64_t cycle) { admit(ingress(p, node_, cycle)); }

bool RecvModel::Context::operator==(const Context& o) const {
  return src == o.src && tid == o.tid && seq == o.seq && npkts == o.npkts && cnt == o.cnt &&
         bitmap == o.bitmap && notify == o.notify && have_ctrl == o.have_ctrl &&
         nf_issued == o.nf_issued && naddr == o.naddr && ntag == o.ntag && nsize == o.nsize &&
         pend == o.pend && seen_lo == o.seen_lo && seen_hi == o.seen_hi && last_b == o.last_b;
}

bool RecvModel::operator==(const RecvModel& o) const {
  return node_ == o.node_ && cap_ == o.cap_ && rx_idle_ == o.rx_idle_ && next_lo_ == o.next_lo_ &&
         next_wr_lo_ == o.next_wr_lo_ && last_done_ == o.last_done_ && ctr_ == o.ctr_ &&
         ctx_.size() == o.ctx_.size() && queue_.size() == o.queue_.size() && tags_ == o.tags_ &&
         ackq_ == o.ackq_ && ctx_ == o.ctx_ && cur_ == o.cur_ && queue_ == o.queue_;
}

std::vector<RecvModel::Expected> RecvModel::short_write(uint64_t a, const uint8_t* bytes,
                                                        unsigned len, const Tag& tag) {
  a &= kAddr48;
  std::array<Bits512, 2> data{};
  std::array<uint64_t, 2> strb{};
  for (unsigned i = 0; i < len; ++i) {
    const unsigned pos = unsigned(a % kBeatBytes) + i;
    set_byte(data[pos / kBeatBytes], pos % kBeatBytes, bytes[i]);
    strb[pos / kBeatBytes] |= uint64_t{1} << (pos % kBeatBytes);
  }
  const unsigned n = strb[1] != 0 ? 2 : 1;
  std::vector<Expected> v;
  for (unsigned l = 0; l < n; ++l) {
    Expected e;
    e.addr = (a & ~uint64_t{kBeatBytes - 1}) + uint64_t{kBeatBytes} * l;
    e.data = {data[l]};
    e.strb = {strb[l]};
    e.tag = tag;
    if (tag.kind != TagKind::Ctx) e.tag.kind = l + 1 == n ? TagKind::InlineLast : TagKind::Inline;
    v.push_back(std::move(e));
  }
  return v;
}

RecvModel::Outcome RecvModel::apply(const Waiting& w, uint64_t lo, uint64_t hi) {
  next_lo_ = lo;
  next_wr_lo_ = lo;
  last_writes_.clear();
  const WireHead& h = w.head;
  if (!w.good) {  // bad pcrc (or a malformed packet) behind a good head
    ++ctr_[kCtrPcrc];
    ++ctr_[kCtrNack];
    last_nack_ = make_response(WireKind::Nack, h.tid, h.seq, h.src_node, node_);
    return Outcome::Nack;
  }
  if (h.wire_kind() == WireKind::Inline) {
    const unsigned n = std::min<unsigned>(h.len, kShortPayload);
    Tag t{TagKind::InlineLast, 0, h.src_node, h.tid, h.seq};
    last_writes_ = short_write(h.dst48(), h.payload.data(), n, t);
    return Outcome::Write;
  }
  const uint32_t key = key_of(h.src_node, h.tid);
  const auto it = ctx_.find(key);
  const bool hit = it != ctx_.end();
  if (!hit && ctx_.size() >= cap_) {
    ++ctr_[kCtrNoCtx];  // no context free: dropped, no NACK
    return Outcome::Silent;
  }
  const bool same = hit && h.seq == it->second.seq;
  const bool newer = hit && seq_newer(h.seq, it->second.seq);
  if (hit && !same && !newer) {
    ++ctr_[kCtrDup];  // older seq: stale
    return Outcome::Silent;
  }
  Context n;
  if (hit && same) {
    n = it->second;
  } else {  // a new context, or a newer seq restarting one (its writes in flight stay)
    n.src = h.src_node;
    n.tid = h.tid;
    n.seq = h.seq;
    if (newer) {
      n.pend = it->second.pend;
      n.last_b = it->second.last_b;
    }
  }
  n.seen_lo = lo;
  n.seen_hi = hi;
  Outcome out = Outcome::Silent;
  if (h.wire_kind() == WireKind::Data) {
    const unsigned slot = unsigned(h.dst48() >> 10) & 63;
    const bool dup = same && ((it->second.bitmap >> slot) & 1);
    n.bitmap |= uint64_t{1} << slot;
    n.npkts = h.npkts;
    n.notify = n.notify || h.notify;
    if (dup) {
      ++ctr_[kCtrDup];
    } else {
      ++n.cnt;
      ++n.pend;
      Expected e;
      e.addr = h.dst48() & ~uint64_t{kBeatBytes - 1};
      e.data = *w.payload;
      for (unsigned j = 0; j < w.payload->size(); ++j)
        e.strb.push_back(beat_strobe(h.dst48(), h.len, j));
      e.tag = Tag{TagKind::Ctx, key, h.src_node, h.tid, h.seq};
      last_writes_ = {std::move(e)};
      out = Outcome::Write;
    }
  } else if (same && it->second.have_ctrl) {
    ++ctr_[kCtrDup];  // the control packet again
  } else {
    const CtrlPayload cp = CtrlPayload::unpack(h.payload);
    n.have_ctrl = true;
    n.notify = true;
    n.naddr = cp.notify_addr & kAddr48;
    n.ntag = cp.notify_tag;
    n.nsize = cp.size;
  }
  ctx_[key] = n;
  return out;
}

std::vector<RecvModel> RecvModel::decide_next(uint64_t hi, std::vector<Outcome>& out) const {
  out.clear();
  if (queue_.empty()) return {};
  const Waiting& head = queue_.front();
  const uint64_t lo = std::max(next_lo_, head.arrived + 1);
  const uint64_t lo_wr = std::max(next_wr_lo_, head.arrived + 1);
  std::vector<RecvModel> v;
  if (lo_wr < lo && head.good && head.head.wire_kind() == WireKind::Data) {
    // While the previous data packet was being written, this one may have gone into the
    // writer's slot (only a write does): its writes, decided from lo_wr, stand for every
    // write outcome; the other outcomes are decided from lo, with the writer idle.
    std::vector<RecvModel> wv, sv;
    std::vector<Outcome> wo, so;
    decide_from(lo_wr, hi, wv, wo);
    if (lo <= hi) decide_from(lo, hi, sv, so);
    for (std::size_t i = 0; i < wv.size(); ++i)
      if (wo[i] == Outcome::Write) {
        v.push_back(std::move(wv[i]));
        out.push_back(wo[i]);
      }
    for (std::size_t i = 0; i < sv.size(); ++i)
      if (so[i] != Outcome::Write) {
        v.push_back(std::move(sv[i]));
        out.push_back(so[i]);
      }
    return v;
  }
  if (lo > hi) return {};
  decide_from(lo, hi, v, out);
  return v;
}

void RecvModel::decide_from(uint64_t lo, uint64_t hi, std::vector<RecvModel>& v,
                            std::vector<Outcome>& out) const {
  if (lo > hi) return;
  RecvModel base = *this;
  base.reclaim_certain(lo);
  const Waiting w = base.queue_.front();
  base.queue_.pop_front();
  // An idle reclaim that may or may not have come first: the packet's own context, or any
  // one when the table is full and the packet needs a new one.
  const auto k = w.head.wire_kind();
  if (w.good && (k == WireKind::Data || k == WireKind::Ctrl)) {
    const uint32_t key = key_of(w.head.src_node, w.head.tid);
    const auto it = base.ctx_.find(key);
    uint32_t victim = 0;
    bool maybe = false;
    if (it != base.ctx_.end()) {
      maybe = base.reclaim_window(it->second)[0] <= hi;
      victim = key;
    } else if (base.ctx_.size() >= cap_) {
      uint64_t best = kNever;
      for (const auto& [ck, c] : base.ctx_) {
        const uint64_t e = base.reclaim_window(c)[0];
        if (e <= hi && e < best) {
          best = e;
          victim = ck;
          maybe = true;
        }
      }
    }
    if (maybe) {
      RecvModel alt = base;
      alt.ctx_.erase(victim);
      ++alt.ctr_[kCtrReclaim];
      out.push_back(alt.apply(w, lo, hi));
      v.push_back(std::move(alt));
    }
  }
  out.push_back(base.apply(w, lo, hi));
  v.push_back(std::move(base));
}

std::string RecvModel::match(const Expected& e, const RxBurst& b) {
  if (b.addr != e.addr) return "write address: expected " + hex(e.addr) + ", actual " + hex(b.addr);
  if (b.data.size() != e.data.size())
    return "write at " + hex(e.addr) + ": expected " + std::to_string(e.data.size()) +
           " beats, actual " + std::to_string(b.data.size());
  for (std::size_t j = 0; j < e.data.size(); ++j) {
    if (b.strb[j] != e.strb[j])
      return "write at " + hex(e.addr) + " beat " + std::to_string(j) + " strobe: expected " +
             hex(e.strb[j]) + ", actual " + hex(b.strb[j]);
    // the strobed lanes, a word (8 lanes) at a time; the first differing lane is named
    for (unsigned w = 0; w < kBeatBytes / 8; ++w) {
      uint64_t lanes = 0;
      for (unsigned k = 0; k < 8; ++k)
        if ((e.strb[j] >> (8 * w + k)) & 1) lanes |= uint64_t{0xFF} << (8 * k);
      const uint64_t diff = (b.data[j][w] ^ e.data[j][w]) & lanes;
      if (diff == 0) continue;
      const unsigned i = 8 * w + unsigned(__builtin_ctzll(diff)) / 8;
      return "write at " + hex(e.addr) + " beat " + std::to_string(j) + " lane " +
             std::to_string(i) + ": expected " + hex(get_byte(e.data[j], i)) + ", actual " +
             hex(get_byte(b.data[j], i));
    }
  }
  return {};
}

std::string RecvModel::start_write(std::vector<Expected> bursts, const RxBurst& b, bool slot) {
  if (bursts.empty()) return "no write";
  auto err = match(bursts.front(), b);
  if (!err.empty()) return err;
  tags_.push_back(bursts.front().tag);
  cur_.assign(bursts.begin() + 1, bursts.end());
  // The next data packet's write may be decided into the slot from the cycle after this
  // decision (next_lo_ is its lower bound here), once this one has left the slot: after the
  // previous burst's last handshake. Anything else waits for the writer to be idle.
  const uint64_t prev_done = last_done_;
  last_done_ = b.done_cycle;
  const uint64_t wr_lo = std::max(next_lo_ + 1, prev_done + 1);
  next_lo_ = std::max(next_lo_, b.done_cycle + 1);
  next_wr_lo_ = slot ? std::min(wr_lo, next_lo_) : next_lo_;
  return {};
}

std::vector<RecvModel> RecvModel::explain_burst(const RxBurst& b, std::string& why) const {
  std::vector<RecvModel> res;
  if (!cur_.empty()) {  // the next line of a short write
    RecvModel s = *this;
    why = match(s.cur_.front(), b);
    if (!why.empty()) return {};
    s.tags_.push_back(s.cur_.front().tag);
    s.cur_.pop_front();
    s.last_done_ = b.done_cycle;
    s.next_lo_ = std::max(s.next_lo_, b.done_cycle + 1);
    s.next_wr_lo_ = s.next_lo_;
    return {std::move(s)};
  }
  // A notification record of a complete block (its control packet possibly decided just
  // before), or the next packet that writes, after those whose decision is invisible.
  auto record = [&](const RecvModel& from) {
    for (const auto& [key, c] : from.ctx_) {
      if (!from.needs_record(c)) continue;
      const auto rec = notification_record(c.ntag, c.nsize, c.src);
      auto bursts =
          short_write(c.naddr, rec.data(), 16, Tag{TagKind::Ctx, key, c.src, c.tid, c.seq});
      RecvModel s = from;
      auto& sc = s.ctx_[key];
      sc.nf_issued = true;
      sc.pend += unsigned(bursts.size());
      ++s.ctr_[kCtrNotify];  // counter 25: every record written
      if (s.start_write(std::move(bursts), b, false).empty()) res.push_back(std::move(s));
    }
  };
  const uint64_t hi = b.aw_cycle == 0 ? 0 : b.aw_cycle - 1;
  std::vector<RecvModel> frontier{*this};
  std::string err;
  for (unsigned n = 0; n < kMaxChain && !frontier.empty(); ++n) {
    std::vector<RecvModel> next;
    for (const auto& s : frontier) {
      record(s);
      std::vector<Outcome> out;
      auto succ = s.decide_next(hi, out);
      if (succ.empty() && err.empty())
        err = s.queue_.empty() ? "no packet waiting, no notification due"
                               : "no packet that arrived before it writes";
      for (std::size_t i = 0; i < succ.size(); ++i) {
        if (out[i] == Outcome::Silent) {
          next.push_back(std::move(succ[i]));
        } else if (out[i] == Outcome::Nack) {
          if (err.empty()) err = "expected " + resp_text(succ[i].last_nack_.head()) + " first";
        } else {
          const bool slot = succ[i].last_writes_.size() == 1 &&
                            succ[i].last_writes_.front().tag.kind == TagKind::Ctx;
          auto e = succ[i].start_write(succ[i].last_writes_, b, slot);
          if (e.empty())
            res.push_back(std::move(succ[i]));
          else if (err.empty())
            err = e;
        }
      }
    }
    cap_states(next);
    frontier = std::move(next);
  }
  if (res.empty()) why = err.empty() ? "no decision explains it" : err;
  cap_states(res);
  return res;
}

std::vector<RecvModel> RecvModel::explain_rsp(const WirePacket& p, uint64_t first_valid,
                                              std::string& why) const {
  if (!cur_.empty()) {
    why = "a response while a short write still has a line to issue";
    return {};
  }
  const uint64_t d = first_valid == 0 ? 0 : first_valid - 1;  // the decision's cycle
  std::vector<RecvModel> res;
  auto after = [&](RecvModel& s) {
    ++s.ctr_[kCtrRspSent];
    s.next_lo_ = std::max(s.next_lo_, d + 1);
    s.next_wr_lo_ = s.next_lo_;
    res.push_back(std::move(s));
  };
  // an inline packet's ACK (queued in B order)
  if (!ackq_.empty()) {
    const Tag& t = ackq_.front();
    if (p == make_response(WireKind::Ack, t.tid, t.seq, t.src, node_)) {
      RecvModel s = *this;
      s.ackq_.pop_front();
      ++s.ctr_[kCtrAck];
      after(s);
    }
  }
  // a complete block's ACK; the context is freed
  for (const auto& [key, c] : ctx_) {
    if (!needs_ack(c) || p != make_response(WireKind::Ack, c.tid, c.seq, c.src, node_)) continue;
    // (structured bindings are captured through named copies: C++17 cannot capture them)
    auto ack = [&, key = key, seq = c.seq](RecvModel& s) {
      const auto it = s.ctx_.find(key);
      if (it == s.ctx_.end() || !s.needs_ack(it->second) || it->second.seq != seq) return;
      ++s.ctr_[kCtrAck];
      s.ctx_.erase(it);
      after(s);
    };
    RecvModel lazy = *this;
    ack(lazy);
    // Waiting packets that arrived in time may have been decided before this ACK: any
    // number of them, in order (a duplicate dropped just before the ACK, the next one
    // written into a new context just after). It matters for one of the same key or one
    // that needs a context while the table is full: the ACK is tried after each of those.
    std::vector<bool> matters;
    for (std::size_t i = 0; i < queue_.size(); ++i) {
      const Waiting& w = queue_[i];
      if (w.arrived + 2 > d) break;
      const auto k = w.head.wire_kind();
      const uint32_t wk = key_of(w.head.src_node, w.head.tid);
      matters.push_back(w.good && (k == WireKind::Data || k == WireKind::Ctrl) &&
                        (wk == key || (!ctx_.count(wk) && ctx_.size() >= cap_)));
    }
    while (!matters.empty() && !matters.back()) matters.pop_back();
    std::vector<RecvModel> eager{*this};
    for (std::size_t i = 0; i < matters.size() && !eager.empty(); ++i) {
      std::vector<RecvModel> next;
      for (const auto& s : eager) {
        std::vector<Outcome> out;
        auto succ = s.decide_next(d - 1, out);
        for (std::size_t j = 0; j < succ.size(); ++j)
          if (out[j] == Outcome::Silent) next.push_back(std::move(succ[j]));
      }
      cap_states(next);
      eager = std::move(next);
      if (!matters[i]) continue;
      for (const auto& s : eager) {
        RecvModel a = s;
        ack(a);
      }
    }
  }
  // a NACK: the next packet to decide, after those whose decision is invisible
  std::vector<RecvModel> frontier{*this};
  std::string err;
  for (unsigned n = 0; n < kMaxChain && !frontier.empty(); ++n) {
    std::vector<RecvModel> next;
    for (const auto& s : frontier) {
      std::vector<Outcome> out;
      auto succ = s.decide_next(d, out);
      for (std::size_t i = 0; i < succ.size(); ++i) {
        if (out[i] == Outcome::Silent) {
          next.push_back(std::move(succ[i]));
        } else if (out[i] == Outcome::Nack && p == succ[i].last_nack_) {
          after(succ[i]);
        } else if (err.empty()) {
          err = out[i] == Outcome::Nack ? "expected " + resp_text(succ[i].last_nack_.head())
                                        : "expected a write first";
        }
      }
    }
    cap_states(next);
    frontier = std::move(next);
  }
  if (res.empty()) {
    why = "no ACK or NACK due";
    if (!err.empty()) why += " (next packet: " + err + ")";
  }
  cap_states(res);
  return res;
}

bool RecvModel::on_b(uint64_t cycle) {
  if (tags_.empty()) return false;
  const Tag t = tags_.front();
  tags_.pop_front();
  if (t.kind == TagKind::InlineLast) ackq_.push_back(t);
  if (t.kind != TagKind::Ctx) return true;
  const auto it = ctx_.find(t.key);
  if (it == ctx_.end() || it->second.pend == 0) return false;
  if (--it->second.pend == 0) it->second.last_b = cycle;
  return true;
}

std::vector<RecvModel> RecvModel::settle(uint64_t now) const {
  std::vector<RecvModel> res, frontier{*this};
  for (unsigned n = 0; n < kMaxChain && !frontier.empty(); ++n) {
    std::vector<RecvModel> next;
    for (auto& s : frontier) {
      std::vector<Outcome> out;
      auto succ = s.decide_next(now, out);
      const bool silent = !succ.empty() && std::all_of(out.begin(), out.end(), [](Outcome o) {
        return o == Outcome::Silent;
      });
      if (silent) {
        for (auto& x : succ) next.push_back(std::move(x));
      } else {
        s.reclaim_certain(now);
        res.push_back(std::move(s));
      }
    }
    cap_states(next);
    frontier = std::move(next);
  }
  cap_states(res);
  return res;
}

std::vector<std::string> RecvModel::leftovers(uint64_t now) const {
  (void)now;
  std::vector<std::string> v;
  for (const auto& w : queue_)
    v.push_back("packet never decided (its write or NACK not seen): " + to_string(w.head));
  for (const auto& e : cur_) v.push_back("write at " + hex(e.addr) + " never issued");
  if (!tags_.empty()) v.push_back(std::to_string(tags_.size()) + " write(s) without B");
  for (const auto& t : ackq_)
    v.push_back("inline ACK tid=" + std::to_string(t.tid) + " seq=" + std::to_string(t.seq) +
                " never sent");
  for (const auto& [key, c] : ctx_) {
    (void)key;
    const std::string id = "tid=" + std::to_string(c.tid) + " seq=" + std::to_string(c.seq) +
                           " from node " + std::to_string(c.src);
    if (needs_record(c)) v.push_back("notification record of " + id + " never written");
    if (needs_ack(c)) v.push_back("ACK " + id + " never sent");
  }
  return v;
}

std::array<uint64_t, 2> RecvModel::counter(unsigned idx, uint64_t now) const {
  if (idx >= ctr_.size()) return {0, 0};
  if (idx != kCtrReclaim) return {ctr_[idx], ctr_[idx]};
  uint64_t lo = ctr_[idx], hi = ctr_[idx];
  for (const auto& kv : ctx_) {
    const auto w = reclaim_window(kv.second);
    if (w[1] <= now) ++lo;
    if (w[0] <= now) ++hi;
  }
  return {lo, hi};
}

bool RecvModel::quiet() const {
  if (!queue_.empty() || !cur_.empty() || !tags_.empty() || !ackq_.empty()) return false;
  for (const auto& kv : ctx_)
    if (needs_record(kv.second) || needs_ack(kv.second)) return false;
  return true;
}

// ---------------------------------------------------------------------------------------
// RecvChecker
// ---------------------------------------------------------------------------------------

RecvChecker::RecvChecker(uint16_t node, unsigned contexts, uint64_t rx_idle)
    : node_(node), states_{RecvModel(node, contexts, rx_idle)} {}

void RecvChecker::set_rx_idle(uint64_t cycles) {
  for (auto& s : states_) s.set_rx_idle(cycles);
}

std::vector<std::string> RecvChecker::keep(std::vector<RecvModel> next, const std::string& why,
                                           const std::string& what) {
  if (next.empty()) return {what + ": " + why};
  cap_states(next);
  states_ = std::move(next);
  return {};
}

std::vector<std::string> RecvChecker::on_req_rx(const WirePacket& p, uint64_t cycle) {
  const RecvModel::Arrival a = RecvModel::ingress(p, node_, cycle);
  for (auto& s : states_) s.admit(a);
  if (is_rreq(p, node_)) rreq_.push_back(p.beats.front());
  return {};
}

std::vector<std::string> RecvChecker::on_rreq(const Bits512& head) {
  if (rreq_.empty()) {
    return {"read request handed to the engine, none received: " +
            to_string(WireHead::unpack(head))};
  }
  const Bits512 e = rreq_.front();
  rreq_.pop_front();
  if (e != head) {
    return {"read request handed to the engine: expected " + to_string(WireHead::unpack(e)) +
            ", got " + to_string(WireHead::unpack(head))};
  }
  return {};
}

std::vector<std::string> RecvChecker::on_rsp_tx(const WirePacket& p, uint64_t first_valid) {
  ++rsp_sent_;
  std::vector<RecvModel> next;
  std::string why;
  for (const auto& s : states_) {
    std::string w;
    auto v = s.explain_rsp(p, first_valid, w);
    if (why.empty()) why = w;
    for (auto& x : v) next.push_back(std::move(x));
  }
  return keep(std::move(next), why,
              "rsp_tx at cycle " + std::to_string(first_valid) + ": unexpected " +
                  (p.beats.empty() ? std::string("empty packet") : to_string(p.head())));
}

std::vector<std::string> RecvChecker::on_burst(const RxBurst& b) {
  std::vector<std::string> errs;
  const std::string at = "write burst " + hex(b.addr) + " len " + std::to_string(b.len);
  if (b.size != 6) errs.push_back(at + ": AWSIZE " + std::to_string(b.size) + ", expected 6");
  if (b.burst != 1) errs.push_back(at + ": not INCR");
  if (b.len >= 16) errs.push_back(at + ": more than 16 beats");
  if (b.addr % kBeatBytes != 0) errs.push_back(at + ": not 64-byte aligned");
  if ((b.addr & 0xFFF) + uint64_t{kBeatBytes} * (b.len + 1) > 0x1000)
    errs.push_back(at + ": crosses a 4 KiB boundary");
  if (b.data.size() != b.len + 1 || b.strb.size() != b.data.size() || !b.wlast_ok)
    errs.push_back(at + ": W beats or WLAST do not match AWLEN");
  if (!errs.empty()) return errs;
  std::vector<RecvModel> next;
  std::string why;
  for (const auto& s : states_) {
    std::string w;
    auto v = s.explain_burst(b, w);
    if (why.empty()) why = w;
    for (auto& x : v) next.push_back(std::move(x));
  }
  return keep(std::move(next), why, "unexpected " + at);
}

std::vector<std::string> RecvChecker::on_b(uint64_t cycle) {
  // One explanation (the common case): applied in place, without copying the state. When it
  // fails the run fails, whatever the state is left as.
  if (states_.size() == 1) {
    if (states_.front().on_b(cycle)) return {};
    return {"B at cycle " + std::to_string(cycle) + " without a write awaiting it"};
  }
  std::vector<RecvModel> ok;
  for (auto& s : states_) {
    RecvModel c = s;
    if (c.on_b(cycle)) ok.push_back(std::move(c));
  }
  if (ok.empty()) return {"B at cycle " + std::to_string(cycle) + " without a write awaiting it"};
  cap_states(ok);
  states_ = std::move(ok);
  return {};
}

std::vector<std::string> RecvChecker::on_rsp_rx(const WirePacket& p, uint64_t cycle) {
  (void)cycle;
  ++rsp_rx_;
  if (p.beats.empty() || !p.hcrc_ok()) {
    ++rsp_hcrc_;
    return {};
  }
  const WireHead h = p.head();
  const auto k = h.wire_kind();
  if (h.dst_node() != node_ || (k != WireKind::Ack && k != WireKind::Nack)) {
    ++rsp_misroute_;
    return {};
  }
  to_engine_.push_back({h.tid, h.seq, k == WireKind::Nack ? 1u : 0u});
  return {};
}

std::vector<std::string> RecvChecker::on_engine_rsp(uint16_t tid, uint16_t seq, bool nack) {
  const std::array<unsigned, 3> got{tid, seq, nack ? 1u : 0u};
  const std::string g = std::string(nack ? "NACK" : "ACK") + " tid=" + std::to_string(tid) +
                        " seq=" + std::to_string(seq);
  if (to_engine_.empty()) return {"engine rsp port: unexpected " + g};
  const auto want = to_engine_.front();
  to_engine_.pop_front();
  if (want != got)
    return {"engine rsp port: expected " + std::string(want[2] ? "NACK" : "ACK") + " tid=" +
            std::to_string(want[0]) + " seq=" + std::to_string(want[1]) + ", actual " + g};
  return {};
}

bool RecvChecker::idle() const {
  for (const auto& s : states_)
    if (s.quiet()) return to_engine_.empty();
  return false;
}

std::vector<std::string> RecvChecker::finish(uint64_t now) {
  std::vector<RecvModel> settled;
  for (const auto& s : states_)
    for (auto& x : s.settle(now)) settled.push_back(std::move(x));
  cap_states(settled);
  std::vector<std::string> first;
  for (std::size_t i = 0; i < settled.size(); ++i) {
    auto left = settled[i].leftovers(now);
    if (left.empty()) {
      states_ = {settled[i]};
      first.clear();
      break;
    }
    if (i == 0) first = std::move(left);
  }
  for (const auto& t : to_engine_)
    first.push_back("response tid=" + std::to_string(t[0]) + " seq=" + std::to_string(t[1]) +
                    " never reached the engine");
  for (const Bits512& r : rreq_)
    first.push_back("read request " + to_string(WireHead::unpack(r)) + " never reached the engine");
  return first;
}

std::vector<std::string> RecvChecker::compare_counters(uint64_t now,
                                                       const std::array<uint64_t, 11>& v) {
  static const char* const kNames[] = {
      "packets sent",       "packets received",   "head-CRC errors",   "payload-CRC errors",
      "no receive context", "stale or duplicate", "misrouted",         "ACKs sent",
      "NACKs sent",         "notifications",      "contexts reclaimed"};
  std::vector<std::string> first;
  std::vector<RecvModel> cand = states_, match;
  for (const auto& s : states_)
    for (auto& x : s.settle(now)) cand.push_back(std::move(x));
  for (std::size_t i = 0; i < cand.size(); ++i) {
    std::vector<std::string> errs;
    for (unsigned idx = kCtrRx; idx <= kCtrReclaim; ++idx) {
      auto r = cand[i].counter(idx, now);
      uint64_t extra = 0;
      if (idx == kCtrRx) extra = rsp_rx_;
      if (idx == kCtrHcrc) extra = rsp_hcrc_;
      if (idx == kCtrMisroute) extra = rsp_misroute_;
      if (idx == kCtrAck) extra = drsp_[0];  // the engine's deferred responses (ICD 16)
      if (idx == kCtrNack) extra = drsp_[1];
      r[0] += extra;
      r[1] += extra;
      const uint64_t got = v[idx - 16];
      if (got < r[0] || got > r[1])
        errs.push_back("counter " + std::to_string(idx) + " (" + kNames[idx - 16] + "): expected " +
                       std::to_string(r[0]) +
                       (r[1] != r[0] ? ".." + std::to_string(r[1]) : std::string()) + ", actual " +
                       std::to_string(got));
    }
    if (errs.empty()) {
      match.push_back(cand[i]);
      continue;
    }
    if (first.empty()) first = std::move(errs);
  }
  if (match.empty()) return first;
  // the counters are an observation too: keep the states that explain them
  cap_states(match);
  states_ = std::move(match);
  return {};
}

}  // namespace ni
