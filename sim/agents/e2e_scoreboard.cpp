// SPDX-License-Identifier: Apache-2.0
#include "sim/agents/e2e_scoreboard.hpp"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <iterator>

#include "ref_model/common/types.hpp"

namespace sim {

namespace {
constexpr uint64_t kMask48 = (uint64_t{1} << 48) - 1;

std::string hex(uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%" PRIx64, v);
  return b;
}

// The bytes of the last block of a transfer of `size` bytes to `dst` (ICD 5: blocks aligned
// to the destination).
uint32_t last_block_bytes(uint64_t dst, uint32_t size) {
  const uint64_t end = dst + size;
  const uint64_t start = std::max(dst, (end - 1) & ~uint64_t{ni::BlockBytes - 1});
  return uint32_t(end - start);
}
}  // namespace

std::string E2eScoreboard::describe(const Xfer& x) {
  const ni::Descriptor& d = x.d;
  const std::string where = "(page " + std::to_string(d.page) + " channel " +
                            std::to_string(d.channel) + ", " + std::to_string(d.size) + " bytes ";
  if (x.read) {
    return std::string(ni::to_string(d.kind)) + " read of node " + std::to_string(x.issuer) + " " +
           where + "from node " + std::to_string(x.src) + " " + hex(d.src & kMask48) + " to " +
           hex(d.dst & kMask48) + ")";
  }
  return std::string(ni::to_string(d.kind)) + " transfer of node " + std::to_string(x.issuer) +
         (x.served ? " on a read channel " : " ") + where + "to node " +
         std::to_string(d.dst >> 48) + " " + hex(d.dst & kMask48) + ")";
}

// What node `node`'s bus tells the scoreboard.
struct E2eScoreboard::Tap : Listener {
  Tap(E2eScoreboard& s, unsigned n) : sb(s), node(n) {}
  void on_memwr(const MemWrEvent& e) override { sb.on_node_memwr(node, e); }
  void on_xfer(const XferEvent& e) override {
    if (e.what == XferEvent::What::Live) {
      sb.on_live(node, e.xfer, *e.desc, e.cycle);
    } else {
      sb.on_finish(node, e.xfer, e.what == XferEvent::What::Error, e.cycle);
    }
  }
  E2eScoreboard& sb;
  unsigned node;
};

E2eScoreboard::E2eScoreboard(std::vector<ni::MemImage*> images)
    : mem_(std::move(images)),
      buses_(mem_.size(), nullptr),
      ranges_(mem_.size()),
      ended_records_(mem_.size()),
      stats_(mem_.size()) {
  for (unsigned n = 0; n < mem_.size(); ++n) taps_.push_back(std::make_unique<Tap>(*this, n));
}

E2eScoreboard::~E2eScoreboard() = default;

void E2eScoreboard::attach(unsigned n, EventBus& bus) {
  bus.add(*taps_.at(n));
  buses_.at(n) = &bus;
}

void E2eScoreboard::fail(uint64_t cycle, std::string what, std::string detail) {
  if (!errors_.empty()) return;  // the first failure is the one that matters
  errors_.push_back(CheckFailure{cycle, std::move(what), std::move(detail)});
}

void E2eScoreboard::add_range(unsigned node, uint64_t a, uint64_t n, uint64_t id, bool notify) {
  auto& m = ranges_[node];
  // The next range may not start inside [a, a+n), nor the previous one end after a.
  auto it = m.upper_bound(a);
  if ((it != m.end() && it->first < a + n) || (it != m.begin() && std::prev(it)->second.end > a)) {
    fail(0, "harness: destination ranges of two live transfers overlap at node " +
                std::to_string(node) + " " + hex(a));
    return;
  }
  m.emplace(a, Range{a + n, id, notify});
}

void E2eScoreboard::on_live(unsigned node, unsigned xfer, const ni::Descriptor& d, uint64_t cycle) {
  Xfer x;
  x.d = d;
  x.issuer = node;
  x.read = d.read;
  x.served = ni::is_read_channel(xfer);
  // A write: from this node to node dst_addr[63:48]. A read: from the responder, node
  // src_addr[63:48], into this node (dst_addr[63:48] is ignored, ICD 16).
  x.src = x.read ? unsigned(d.src >> 48) : node;
  x.dst = x.read ? node : unsigned(d.dst >> 48);
  x.live_cycle = cycle;
  if (x.src >= mem_.size() || x.dst >= mem_.size()) {
    fail(cycle, "harness: " + describe(x) + " names a node that does not exist");
    return;
  }
  if (x.read && x.served) {
    fail(cycle, "harness: a read on a read channel: " + describe(x));
    return;
  }
  const uint64_t id = key(node, xfer);
  if (xfers_.count(id) != 0) {
    fail(cycle, "harness: transfer " + std::to_string(xfer) + " went live twice: " + describe(x));
    return;
  }
  const unsigned dst = x.dst;
  const bool served = x.served;
  xfers_.emplace(id, std::move(x));
  // A read channel's transfer writes one block of a live read's destination (and maybe its
  // record): the read's ranges cover it.
  if (served) return;
  add_range(dst, d.dst & kMask48, d.size, id, false);
  if (d.notify && d.is_memory()) add_range(dst, d.notify_addr & kMask48, 16, id, true);
}

void E2eScoreboard::on_node_memwr(unsigned node, const MemWrEvent& e) {
  auto& m = ranges_.at(node);
  for (const MemWrEvent::Run& r : e.runs) {
    auto it = m.upper_bound(r.addr);
    const bool inside = it != m.begin() && (--it, r.addr + r.data.size() <= it->second.end);
    if (!inside && ended_record(node, e.cycle, r)) continue;
    if (!inside) {
      ++stats_[node].stray_writes;
      if (!allow_stray_) {
        fail(e.cycle, "node " + std::to_string(node) + " memory written at " + hex(r.addr) + " (" +
                          std::to_string(r.data.size()) +
                          " bytes) outside every live transfer's destination");
      }
      continue;
    }
    if (!it->second.notify) continue;  // a data write inside its transfer's range
    Xfer& x = xfers_.at(it->second.xfer);
    // A record is written once its 16 bytes are (one burst, or two where it crosses a line
    // the receive unit writes separately).
    x.notify_bytes += r.data.size();
    if (x.notify_bytes < 16) continue;
    x.notify_bytes = 0;
    // "Written after the last data byte": when the first record lands, every data byte must
    // already be there (a late duplicate may rewrite data afterwards, the same bytes).
    if (x.notify_writes == 0) x.data_ok_at_notify = first_difference(x) < 0;
    ++x.notify_writes;
    record_written(node, e.cycle, it->first);
  }
}

void E2eScoreboard::record_written(unsigned node, uint64_t cycle, uint64_t addr) {
  ++stats_[node].notifications;
  EventBus* bus = buses_[node];
  if (bus == nullptr) return;
  const std::vector<uint8_t> rec = mem_[node]->read(addr, 16);
  uint64_t tag = 0;
  for (unsigned i = 0; i < 8; ++i) tag |= uint64_t{rec[i]} << (8 * i);
  const NotifyEvent e{cycle, addr, tag, unsigned(rec[12] | (rec[13] << 8))};
  bus->emit([&](Listener& l) { l.on_notify(e); });
}

bool E2eScoreboard::ended_record(unsigned node, uint64_t cycle, const MemWrEvent::Run& r) {
  auto& m = ended_records_[node];
  auto it = m.upper_bound(r.addr);
  if (it == m.begin() || r.addr + r.data.size() > (--it)->second.end) return false;
  it->second.bytes += unsigned(r.data.size());
  if (it->second.bytes >= 16) {
    it->second.bytes = 0;
    record_written(node, cycle, it->first);
  }
  return true;
}

long E2eScoreboard::first_difference(const Xfer& x) const {
  const ni::Descriptor& d = x.d;
  std::vector<uint8_t> want;
  if (d.is_memory()) {
    want = mem_[x.src]->read(d.src & kMask48, d.size);
  } else {
    want = d.payload;
    want.resize(d.size);
  }
  const std::vector<uint8_t> got = mem_[x.dst]->read(d.dst & kMask48, d.size);
  for (std::size_t i = 0; i < want.size(); ++i) {
    if (want[i] != got[i]) return long(i);
  }
  return -1;
}

std::vector<uint8_t> E2eScoreboard::expected_record(const Xfer& x) {
  const ni::Descriptor& d = x.d;
  // A read's record comes with the last block, which the responder served as a write
  // transfer of that block's bytes (ICD 16): its size, and the responder as src_node.
  const uint32_t size = x.read ? last_block_bytes(d.dst & kMask48, d.size) : d.size;
  std::vector<uint8_t> exp(16, 0);
  for (unsigned i = 0; i < 8; ++i) exp[i] = uint8_t(d.notify_tag >> (8 * i));
  for (unsigned i = 0; i < 4; ++i) exp[8 + i] = uint8_t(size >> (8 * i));
  exp[12] = uint8_t(x.src);
  exp[13] = uint8_t(x.src >> 8);
  exp[14] = 0x01;
  exp[15] = 0x00;
  return exp;
}

void E2eScoreboard::check_done(const Xfer& x, uint64_t cycle) {
  const ni::Descriptor& d = x.d;
  const uint64_t dst = d.dst & kMask48;
  const long bad = first_difference(x);
  if (bad >= 0) {
    ++data_mismatches_;
    const std::size_t i = std::size_t(bad);
    const uint8_t want = d.is_memory() ? mem_[x.src]->byte((d.src & kMask48) + i)
                                       : (i < d.payload.size() ? d.payload[i] : 0);
    char b[160];
    std::snprintf(b, sizeof b, "  byte %zu at node %u %s: expected %02x, memory holds %02x\n", i,
                  x.dst, hex(dst + i).c_str(), want, mem_[x.dst]->byte(dst + i));
    fail(cycle, "DONE but destination bytes differ from the source: " + describe(x), b);
    return;
  }
  // A read channel's block: its record, and the statistics, are the read's.
  if (x.served) return;
  stats_[x.dst].bytes_delivered += d.size;
  if (!(d.notify && d.is_memory())) return;
  const uint64_t na = d.notify_addr & kMask48;
  const std::vector<uint8_t> rec = mem_[x.dst]->read(na, 16);
  const std::vector<uint8_t> exp = expected_record(x);
  if (x.notify_writes == 0 || rec != exp) {
    std::string det = "  expected record";
    for (uint8_t v : exp) det += " " + hex(v).substr(2);
    det += "\n  memory holds   ";
    for (uint8_t v : rec) det += " " + hex(v).substr(2);
    fail(cycle,
         "DONE but the notification record at node " + std::to_string(x.dst) + " " + hex(na) +
             " is " + (x.notify_writes ? "wrong" : "missing") + ": " + describe(x),
         det + "\n");
    return;
  }
  if (!x.data_ok_at_notify) {
    fail(cycle,
         "the notification record was written before all of the transfer's data: " + describe(x));
  }
}

void E2eScoreboard::on_finish(unsigned node, unsigned xfer, bool error, uint64_t cycle) {
  const uint64_t id = key(node, xfer);
  auto it = xfers_.find(id);
  if (it == xfers_.end()) {
    fail(cycle, "harness: transfer " + std::to_string(xfer) + " of node " + std::to_string(node) +
                    " finished but never went live");
    return;
  }
  const Xfer& x = it->second;
  const ni::Descriptor& d = x.d;
  NodeStats& st = stats_[node];
  if (error) {
    if (!x.served) ++st.error;
    if (!allow_errors_) {
      fail(cycle, "transfer ended ERROR on a fault-free network: " + describe(x));
    }
  } else {
    if (!x.served) ++st.done;
    if (x.read) {
      ++st.reads;
      st.read_bytes += d.size;
    }
    if (check_data_) check_done(x, cycle);
  }
  if (x.served) {
    // Its lines belong to the read being served, checked and forgotten when that ends.
    xfers_.erase(it);
    return;
  }
  // Forget the transfer and its lines: they are never written again by a live transfer.
  const uint64_t dst = d.dst & kMask48;
  ranges_[x.dst].erase(dst);
  mem_[x.dst]->forget(dst, d.size);
  if (d.notify && d.is_memory()) {
    const uint64_t na = d.notify_addr & kMask48;
    ranges_[x.dst].erase(na);
    mem_[x.dst]->forget(na, 16);
    ended_records_[x.dst][na] = EndedRecord{na + 16};
  }
  xfers_.erase(it);
}

std::vector<std::string> E2eScoreboard::final_check(uint64_t cycle) {
  std::vector<std::string> p;
  for (const auto& [id, x] : xfers_) {
    (void)id;
    p.push_back("never finished: " + describe(x) + ", live since cycle " +
                std::to_string(x.live_cycle));
    if (p.size() >= 10) break;
  }
  if (!p.empty()) fail(cycle, std::to_string(xfers_.size()) + " transfer(s) never finished");
  return p;
}

}  // namespace sim
