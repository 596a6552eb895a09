// SPDX-License-Identifier: Apache-2.0
#include "sim/agents/network.hpp"

#include <algorithm>

namespace sim {

Network::Network(Net net, std::vector<Port> ports, EventBus& events, Rng& rng, NetOptions opt)
    : net_(net),
      events_(events),
      rng_(rng),
      opt_(opt),
      asm_(ports.size()),
      tx_ready_(ports.size(), 0),
      held_(ports.size(), 0),
      port_(ports.size()),
      sent_by_(ports.size(), 0),
      delivered_to_(ports.size(), 0),
      from_(ports.size()),
      queued_(ports.size(), 0) {
  for (const Port& p : ports) {
    tx_.push_back(p.tx);
    rx_.push_back(p.rx);
    bus_.push_back(p.bus);
  }
  if (opt_.lat_min < 1) opt_.lat_min = 1;
  if (opt_.lat_max < opt_.lat_min) opt_.lat_max = opt_.lat_min;
}

void Network::on_reset() {
  for (std::size_t i = 0; i < tx_.size(); ++i) *tx_[i].ready = 0;
  for (std::size_t i = 0; i < rx_.size(); ++i) {
    *rx_[i].valid = 0;
    rx_[i].data.clear();
    if (rx_[i].last) *rx_[i].last = 0;
  }
}

std::size_t Network::in_flight() const {
  std::size_t n = 0;
  for (const RxPort& p : port_) n += p.q.size() + (p.cur ? 1 : 0);
  return n;
}

bool Network::busy() const {
  if (in_flight() != 0) return true;
  for (const ni::WirePacket& a : asm_) {
    if (!a.beats.empty()) return true;
  }
  return false;
}

void Network::inject(unsigned to, ni::WirePacket p, uint64_t at) {
  Flight f;
  const ni::WireHead h = p.head();
  f.head = NetEvent{0, NetEvent::Action::Deliver, to, to, h.kind, h.tid, h.seq};
  f.from = to;
  f.pkt = std::move(p);
  ++counts_.injected;
  port_.at(to).q.emplace(std::make_pair(at, order_++), std::move(f));
}

void Network::drive(uint64_t cycle) {
  for (std::size_t i = 0; i < tx_.size(); ++i) {
    // The draw comes first and always: holding a port does not shift the random stream.
    tx_ready_[i] = !rng_.chance(opt_.tx_stall_pct) && !held_[i];
    // A head beat waits while its destination's buffer is full (valid and data of a stream
    // do not depend on ready, so they are settled here).
    if (tx_ready_[i] && opt_.buffer != 0 && asm_[i].beats.empty() && *tx_[i].valid) {
      const unsigned dst = ni::WireHead::unpack(tx_[i].data.get<8>()).dst_node();
      if (dst < queued_.size() && queued_[dst] >= opt_.buffer) {
        tx_ready_[i] = 0;
        ++counts_.full_stalls;
      }
    }
    *tx_[i].ready = tx_ready_[i];
  }
  for (std::size_t i = 0; i < rx_.size(); ++i) {
    RxPort& p = port_[i];
    if (!p.cur && !p.q.empty() && p.q.begin()->first.first <= cycle) {
      p.cur = std::move(p.q.begin()->second);
      p.q.erase(p.q.begin());
      p.beat = 0;
    }
    *rx_[i].valid = p.cur ? 1 : 0;
    if (p.cur) {
      rx_[i].data.set<8>(p.cur->pkt.beats[p.beat]);
      if (rx_[i].last) *rx_[i].last = p.beat + 1 == p.cur->pkt.beats.size();
    }
  }
}

void Network::sample(uint64_t cycle) {
  for (std::size_t i = 0; i < rx_.size(); ++i) {
    RxPort& p = port_[i];
    if (!p.cur || !*rx_[i].valid || !*rx_[i].ready) continue;
    if (++p.beat == p.cur->pkt.beats.size()) {
      ++delivered_to_[i];
      if (p.cur->routed) --queued_[i];
      ++counts_.delivered;
      emit(p.cur->head, NetEvent::Action::Deliver, cycle);
      p.cur.reset();
    }
  }
  for (std::size_t i = 0; i < tx_.size(); ++i) {
    if (!*tx_[i].valid || !tx_ready_[i]) continue;
    asm_[i].beats.push_back(tx_[i].data.get<8>());
    if (tx_[i].last == nullptr || *tx_[i].last) {
      ni::WirePacket p = std::move(asm_[i]);
      asm_[i] = ni::WirePacket{};
      ++sent_by_[i];
      ++from_[i].sent;
      ++counts_.sent;
      if (bus_[i] != nullptr) {
        const TxEvent e{cycle, net_, p};
        bus_[i]->emit([&](Listener& l) { l.on_tx(e); });
      }
      route(unsigned(i), std::move(p), cycle);
    }
  }
}

void Network::emit(NetEvent e, NetEvent::Action a, uint64_t cycle) {
  e.action = a;
  e.cycle = cycle;
  events_.emit([&](Listener& l) { l.on_net(e); });
}

std::optional<NetFault> Network::armed_fault(const NetEvent& h) {
  for (auto it = armed_.begin(); it != armed_.end(); ++it) {
    NetFault& f = *it;
    if ((f.kind && *f.kind != h.kind) || (f.tid && *f.tid != h.tid) || (f.seq && *f.seq != h.seq) ||
        (f.from && *f.from != h.from)) {
      continue;
    }
    if (f.skip != 0) {
      --f.skip;
      continue;
    }
    const NetFault taken = f;
    armed_.erase(it);
    return taken;
  }
  return std::nullopt;
}

void Network::route(unsigned from, ni::WirePacket p, uint64_t cycle) {
  const ni::WireHead h = p.head();
  NetEvent ev{cycle, NetEvent::Action::Deliver, from, h.dst_node(), h.kind, h.tid, h.seq};
  if (h.dst_node() >= rx_.size()) {
    ++counts_.no_node;
    if (from < from_.size()) ++from_[from].no_node;
    emit(ev, NetEvent::Action::Drop, cycle);
    return;
  }
  // A scenario's aimed fault replaces the random draws for this packet.
  bool drop = false, corrupt = false, dup = false;
  const std::optional<NetFault> aimed = armed_fault(ev);
  if (aimed) {
    drop = aimed->action == NetEvent::Action::Drop;
    corrupt = aimed->action == NetEvent::Action::Corrupt;
    dup = aimed->action == NetEvent::Action::Dup;
  } else {
    drop = rng_.chance(opt_.drop_pct);
    corrupt = !drop && rng_.chance(opt_.corrupt_pct);
    dup = !drop && rng_.chance(opt_.dup_pct);
  }
  if (drop) {
    ++counts_.dropped;
    if (from < from_.size()) ++from_[from].dropped;
    emit(ev, NetEvent::Action::Drop, cycle);
    return;
  }
  const unsigned copies = dup ? 2 : 1;
  if (dup) {
    ++counts_.duplicated;
    if (from < from_.size()) ++from_[from].duplicated;
    emit(ev, NetEvent::Action::Dup, cycle);
  }
  for (unsigned c = 0; c < copies; ++c) {
    Flight f;
    f.pkt = p;
    f.from = from;
    f.head = ev;
    f.routed = true;
    if (corrupt && c == 0) {
      // One random bit of one random beat (the first copy only: a duplicate is a second,
      // independent transmission), or the one an aimed fault names.
      const bool chosen = aimed && aimed->beat && aimed->bit;
      const std::size_t beat = chosen ? std::min<std::size_t>(*aimed->beat, f.pkt.beats.size() - 1)
                                      : std::size_t(rng_.range(0, f.pkt.beats.size() - 1));
      const unsigned bit = chosen ? *aimed->bit % 512 : unsigned(rng_.range(0, 511));
      f.pkt.beats[beat][bit / 64] ^= uint64_t{1} << (bit % 64);
      ++counts_.corrupted;
      if (from < from_.size()) ++from_[from].corrupted;
      emit(ev, NetEvent::Action::Corrupt, cycle);
    }
    const uint64_t at = cycle + rng_.range(opt_.lat_min, opt_.lat_max);
    ++queued_[ev.to];
    port_[ev.to].q.emplace(std::make_pair(at, order_++), std::move(f));
  }
}

}  // namespace sim
