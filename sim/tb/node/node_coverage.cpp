// SPDX-License-Identifier: Apache-2.0
#include "sim/tb/node/node_coverage.hpp"

namespace sim {

namespace {

const char* npkts_bin(unsigned n) {
  return n == 1 ? "1" : n < 8 ? "2-7" : n < 32 ? "8-31" : n < 64 ? "32-63" : "64";
}
const char* len_bin(unsigned n) {
  return n == 1 ? "1" : n < 64 ? "2-63" : n == 64 ? "64" : n < 1024 ? "65-1023" : "1024";
}
const char* open_bin(unsigned n) {
  return n <= 1 ? "1" : n < 4 ? "2-3" : n < 16 ? "4-15" : n < 64 ? "16-63" : "64+";
}
}  // namespace

// What one bus tells the coverage: node `node`'s, or the networks' (node unused).
struct NodeCoverage::Tap : Listener {
  Tap(NodeCoverage& c, unsigned n) : cov(c), node(n) {}
  void on_tx(const TxEvent& e) override { cov.on_tx(e.net == Net::Rsp, node, e.packet); }
  void on_rx(const RxEvent& e) override { cov.on_rx(e.net == Net::Rsp, node, e.packet); }
  void on_memwr(const MemWrEvent& e) override { cov.on_memwr(e); }
  void on_net(const NetEvent& e) override { cov.on_net(e); }
  void on_rreq_decision(const RreqDecisionEvent& e) override {
    cov.db_.hit("ni.read", e.action == RreqAction::Serve  ? "serve"
                           : e.action == RreqAction::Drop ? "drop-no-channel"
                                                          : "reissue-matched");
  }
  void on_drsp(const DrspEvent& e) override {
    if (e.taken) cov.db_.hit("ni.read", e.nack ? "answer-nack" : "answer-ack");
  }
  NodeCoverage& cov;
  unsigned node;
};

NodeCoverage::NodeCoverage(std::vector<const NiNodePorts*> nodes, const Network& req,
                           const Network& rsp)
    : nodes_(std::move(nodes)), req_(req), rsp_(rsp) {
  declare();
  for (unsigned i = 0; i <= nodes_.size(); ++i) taps_.push_back(std::make_unique<Tap>(*this, i));
}

NodeCoverage::~NodeCoverage() = default;

void NodeCoverage::attach(unsigned node, EventBus& bus) { bus.add(*taps_.at(node)); }

void NodeCoverage::attach_networks(EventBus& bus) { bus.add(*taps_.back()); }

void NodeCoverage::sample(uint64_t) {
  for (const NiNodePorts* io : nodes_) {
    if (*io->req_rx.valid && !*io->req_rx.ready) db_.hit("ni.net", "req-rx-stall");
    if (*io->rsp_rx.valid && !*io->rsp_rx.ready) db_.hit("ni.net", "rsp-rx-stall");
  }
  const uint64_t f = req_.counts().full_stalls + rsp_.counts().full_stalls;
  if (f != full_) db_.hit("ni.net", "tx-full-stall");
  full_ = f;
}

void NodeCoverage::declare() {
  db_.describe("ni.tx.kind", "packets put on the networks, by wire kind");
  // NACKs and bad CRCs come from the fault runs (retransmission recovers them) and the
  // vectors' injected packets (vectors/ni_*.json).
  // READ_REQ (ICD 16) is hit only by runs with traffic.read_pct > 0 on the RTL that has reads.
  for (unsigned k = 0; k < ni::kNumWireKinds; ++k)
    db_.declare("ni.tx.kind", ni::to_string(ni::WireKind(k)));
  db_.describe("ni.tx.npkts", "data packets by the packet count of their block");
  for (const char* b : {"1", "2-7", "8-31", "32-63", "64"}) db_.declare("ni.tx.npkts", b);
  db_.describe("ni.tx.len", "data packets by payload length");
  for (const char* b : {"1", "2-63", "64", "65-1023", "1024"}) db_.declare("ni.tx.len", b);
  db_.describe("ni.tx.align", "data packets by destination alignment and payload beats");
  for (const char* b :
       {"dst-line-aligned", "dst-unaligned", "ends-mid-line", "beats-1", "beats-16"}) {
    db_.declare("ni.tx.align", b);
  }
  db_.describe("ni.tx.flags", "head flags of data packets");
  db_.declare("ni.tx.flags", "last");
  db_.declare("ni.tx.flags", "notify");
  db_.declare("ni.tx.flags", "retx");
  db_.describe("ni.rx.order", "data packets arriving at their receiver relative to their block");
  for (const char* b : {"in-order", "overtaken", "overtaken-by-2+", "duplicate-slot"}) {
    db_.declare("ni.rx.order", b);
  }
  db_.describe("ni.rx.ctrl", "a notifying block's control packet arriving at the receiver");
  for (const char* b : {"before-data", "between-data", "after-data"}) db_.declare("ni.rx.ctrl", b);
  db_.describe("ni.rx.open", "blocks partly arrived at one node at once (receive contexts)");
  for (const char* b : {"1", "2-3", "4-15", "16-63"}) db_.declare("ni.rx.open", b);
  db_.declare("ni.rx.open", "64+",
              "more blocks partly received at one node than RxContexts needs more concurrent "
              "senders and blocks than the coverage runs' 2-4 nodes produce (the drop and its "
              "recovery are tested directly: tests/top, contexts exhausted)");
  db_.describe("ni.rx.bad", "packets arriving with a bad CRC");
  db_.declare("ni.rx.bad", "hcrc");
  db_.declare("ni.rx.bad", "pcrc");
  db_.describe("ni.net", "network actions and back-pressure");
  for (const char* b : {"deliver", "dup", "tx-full-stall", "req-rx-stall", "rsp-rx-stall"}) {
    db_.declare("ni.net", b);
  }
  db_.declare("ni.net", "drop");
  db_.declare("ni.net", "corrupt");
  db_.describe("ni.read",
               "RDMA Read (ICD 16): the responders' decisions and answers, the requests' kinds");
  for (const char* b : {"serve", "drop-no-channel", "reissue-matched", "answer-ack", "answer-nack",
                        "request-last-block", "request-not-last-block", "request-notify",
                        "request-retx-timeout", "loopback"}) {
    db_.declare("ni.read", b);
  }
  db_.describe("ni.mem.write", "receive-side memory writes by strobed bytes");
  for (const char* b : {"1-15", "16", "17-63", "64-1023", "1024"}) db_.declare("ni.mem.write", b);
}

void NodeCoverage::on_tx(bool rsp, unsigned from, const ni::WirePacket& p) {
  (void)from;
  const ni::WireHead h = p.head();
  if (h.kind < ni::kNumWireKinds) db_.hit("ni.tx.kind", ni::to_string(ni::WireKind(h.kind)));
  if (!rsp && h.wire_kind() == ni::WireKind::ReadReq) {
    const ni::ReadReqPayload r = ni::ReadReqPayload::unpack(h.payload);
    const auto key = std::make_tuple(from, unsigned(h.tid), r.local_dst);
    // a block's first request (the last block of its read, or an earlier one of a
    // multi-block read); a later one with the same TID and destination is a re-issue
    if (rreq_seen_.count(key) != 0) {
      db_.hit("ni.read", "request-retx-timeout");
    } else {
      rreq_seen_.insert(key);
      db_.hit("ni.read", r.last ? "request-last-block" : "request-not-last-block");
    }
    if (h.notify) db_.hit("ni.read", "request-notify");
    if (h.dst_node() == from) db_.hit("ni.read", "loopback");
  }
  if (rsp || h.wire_kind() != ni::WireKind::Data) return;
  db_.hit("ni.tx.npkts", npkts_bin(h.npkts));
  db_.hit("ni.tx.len", len_bin(h.len));
  const uint64_t a = h.dst48();
  db_.hit("ni.tx.align", (a & 63) == 0 ? "dst-line-aligned" : "dst-unaligned");
  if (((a + h.len) & 63) != 0) db_.hit("ni.tx.align", "ends-mid-line");
  const std::size_t beats = p.beats.size() - 2;
  if (beats == 1) db_.hit("ni.tx.align", "beats-1");
  if (beats == 16) db_.hit("ni.tx.align", "beats-16");
  if (h.last) db_.hit("ni.tx.flags", "last");
  if (h.notify) db_.hit("ni.tx.flags", "notify");
  if (h.retx) db_.hit("ni.tx.flags", "retx");
}

void NodeCoverage::on_rx(bool rsp, unsigned to, const ni::WirePacket& p) {
  if (!p.hcrc_ok()) {
    db_.hit("ni.rx.bad", "hcrc");
    return;
  }
  const ni::WireHead h = p.head();
  if (rsp) return;
  const Key k{to, h.src_node, h.tid, h.seq};
  if (h.wire_kind() == ni::WireKind::Ctrl) {
    Block& b = blocks_[k];
    b.ctrl = true;
    const char* when = !b.any ? "before-data" : (b.got < b.npkts ? "between-data" : "after-data");
    db_.hit("ni.rx.ctrl", when);
    if (b.any && b.got >= b.npkts) blocks_.erase(k);
    return;
  }
  if (h.wire_kind() != ni::WireKind::Data) return;
  if (!p.pcrc_ok()) {
    db_.hit("ni.rx.bad", "pcrc");
    return;
  }
  Block& b = blocks_[k];
  const unsigned slot = unsigned((h.dst48() >> 10) & 63);
  if (!b.any) {
    b.any = true;
    b.npkts = h.npkts;
    db_.hit("ni.rx.open", open_bin(++open_at_[to]));
  }
  if (!b.slots.insert(slot).second) {
    db_.hit("ni.rx.order", "duplicate-slot");
  } else {
    unsigned later = 0;  // slots already here that come after this one
    for (unsigned s : b.slots) later += s > slot;
    db_.hit("ni.rx.order", later == 0 ? "in-order" : later == 1 ? "overtaken" : "overtaken-by-2+");
    ++b.got;
  }
  if (b.got >= b.npkts) {
    if (open_at_[to] != 0) --open_at_[to];
    if (!h.notify || b.ctrl) blocks_.erase(k);
  }
}

void NodeCoverage::on_net(const NetEvent& e) { db_.hit("ni.net", to_string(e.action)); }

void NodeCoverage::on_memwr(const MemWrEvent& e) {
  const uint64_t n = e.bytes;
  db_.hit("ni.mem.write", n < 16     ? "1-15"
                          : n == 16  ? "16"
                          : n < 64   ? "17-63"
                          : n < 1024 ? "64-1023"
                                     : "1024");
}

void NodeCoverage::write(const std::string& path, const nlohmann::json& source) const {
  write_coverage_file(path, db_, source);
}

}  // namespace sim
