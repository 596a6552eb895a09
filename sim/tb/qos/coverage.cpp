// SPDX-License-Identifier: Apache-2.0
#include "sim/tb/qos/coverage.hpp"

#include <algorithm>
#include <fstream>
#include <stdexcept>

#include "ref_model/qos/axi_rules.hpp"
#include "ref_model/qos/queues.hpp"
#include "ref_model/qos/segmentation.hpp"

namespace sim {

// ---------------------------------------------------------------------------------------------
// CoverageDb
// ---------------------------------------------------------------------------------------------
std::size_t CoverageDb::index(const std::string& group) {
  auto it = by_name_.find(group);
  if (it != by_name_.end()) return it->second;
  groups_.push_back(Group{group, "", {}, {}});
  by_name_[group] = groups_.size() - 1;
  return groups_.size() - 1;
}

void CoverageDb::declare(const std::string& group, const std::string& bin,
                         const std::string& unreachable) {
  Group& g = groups_[index(group)];
  if (g.by_name.count(bin))
    throw std::logic_error("coverage bin declared twice: " + group + "/" + bin);
  g.by_name[bin] = g.bins.size();
  g.bins.push_back(Bin{bin, 0, unreachable});
}

void CoverageDb::hit(const std::string& group, const std::string& bin, uint64_t n) {
  auto gi = by_name_.find(group);
  if (gi == by_name_.end()) throw std::logic_error("coverage group not declared: " + group);
  Group& g = groups_[gi->second];
  auto bi = g.by_name.find(bin);
  if (bi == g.by_name.end())
    throw std::logic_error("coverage bin not declared: " + group + "/" + bin);
  g.bins[bi->second].count += n;
}

nlohmann::json CoverageDb::to_json() const {
  nlohmann::json groups = nlohmann::json::array();
  for (const Group& g : groups_) {
    nlohmann::json bins = nlohmann::json::array();
    for (const Bin& b : g.bins) {
      nlohmann::json jb = {{"name", b.name}, {"count", b.count}};
      if (!b.unreachable.empty()) jb["unreachable"] = b.unreachable;
      bins.push_back(jb);
    }
    groups.push_back({{"name", g.name}, {"description", g.description}, {"bins", bins}});
  }
  return groups;
}

// ---------------------------------------------------------------------------------------------
// Bin names
// ---------------------------------------------------------------------------------------------
namespace {

using ni::Kind;
constexpr uint32_t kBB = ni::BlockBytes;
const char* const kMemKinds[] = {"tid", "1x", "4x"};
const char* const kAllKinds[] = {"tid", "1x", "4x", "inline"};
const char* const kMemSizes[] = {"1",       "2-16",    "17-32",   "33-65534",
                                 "65535",   "65536",   "65537",   "65538-1048574",
                                 "1048575", "1048576", ">1048576"};
const char* const kInlineSizes[] = {"1", "2-16", "17-32"};

std::string size_class(uint32_t s) {
  if (s == 1) return "1";
  if (s <= 16) return "2-16";
  if (s <= 32) return "17-32";
  if (s < 65535) return "33-65534";
  if (s == 65535) return "65535";
  if (s == 65536) return "65536";
  if (s == 65537) return "65537";
  if (s < 1048575) return "65538-1048574";
  if (s == 1048575) return "1048575";
  if (s == 1048576) return "1048576";
  return ">1048576";
}

const char* mh_name(ni::ModelObserver::Mh p) {
  using Mh = ni::ModelObserver::Mh;
  switch (p) {
    case Mh::RspAck:
      return "ack-accepted";
    case Mh::RspNack:
      return "nack-accepted";
    case Mh::RspDropStale:
      return "dropped-stale-seq";
    case Mh::RspDropUnknown:
      return "dropped-unknown-tid";
    case Mh::ResolveActive:
      return "resolve-while-queued-or-in-segmenter";
    case Mh::WakeMore:
      return "wake-more-to-own-queue";
    case Mh::WakeCtrl:
      return "wake-need-ctrl-to-control-queue";
    case Mh::NeedCtrlWait:
      return "need-ctrl-stays-parked";
    case Mh::NeedCtrlErrWait:
      return "need-ctrl-error-stays-parked";
    case Mh::NeedCtrlErrFinish:
      return "need-ctrl-error-finish";
    case Mh::WaitMore:
      return "wait-stays-parked";
    case Mh::FinishM2Done:
      return "finish-in-m2-done";
    case Mh::FinishM2Error:
      return "finish-in-m2-error";
    case Mh::FinishFifoDone:
      return "finish-via-segmenter-fifo-done";
    case Mh::FinishFifoError:
      return "finish-via-segmenter-fifo-error";
    case Mh::ArbTieSeg:
      return "arbiter-tie-segmenter-wins";
    case Mh::ArbTieMh:
      return "arbiter-tie-response-wins";
    case Mh::RecheckNone:
      return "recheck-not-parked";
    case Mh::RecheckWake:
      return "recheck-wake-more";
    case Mh::RecheckCtrl:
      return "recheck-wake-ctrl";
    case Mh::RecheckFinish:
      return "recheck-finish";
    case Mh::RecheckStay:
      return "recheck-stays-parked";
  }
  return "?";
}
constexpr unsigned kNumMh = unsigned(ni::ModelObserver::Mh::RecheckStay) + 1;

const char* s2_name(ni::ModelObserver::S2 p) {
  using S2 = ni::ModelObserver::S2;
  switch (p) {
    case S2::IssueFirst:
      return "issue-first-block";
    case S2::IssueNext:
      return "issue-next-block";
    case S2::IssueInline:
      return "issue-inline-packet";
    case S2::ReEnqueue:
      return "re-enqueue-own-queue";
    case S2::ParkMoreLimit:
      return "park-more-max-outstanding";
    case S2::TidBusy:
      return "tid-busy-park-more";
    case S2::ParkNeedCtrl:
      return "park-need-ctrl";
    case S2::ParkWaitLast:
      return "park-wait-last-block";
    case S2::CtrlDirect:
      return "control-packet-direct";
    case S2::CtrlFromQueue:
      return "control-packet-from-control-queue";
    case S2::CtrlError:
      return "control-queue-error-no-packet";
    case S2::CtrlFinish:
      return "control-queue-finish";
    case S2::CtrlWait:
      return "control-queue-park-wait";
    case S2::ErrFinish:
      return "error-drain-finish";
    case S2::ErrPark:
      return "error-drain-park-more";
    case S2::HoldPktFull:
      return "hold-packet-queue-full";
    case S2::HoldBlkBusy:
      return "hold-stage3-busy";
    case S2::HoldFinFull:
      return "hold-finish-fifo-full";
    case S2::HoldEnqLost:
      return "hold-enqueue-not-granted";
    case S2::HoldAxiYield:
      return "hold-yield-to-starving-axi";
    case S2::ReadNotifyWait:
      return "read-notify-last-waits";
    case S2::ParkPassed:
      return "park-passed-by-resolve";
  }
  return "?";
}
constexpr unsigned kNumS2 = unsigned(ni::ModelObserver::S2::ParkPassed) + 1;

// Queue classes (docs/design.md section 5).
std::string queue_class(unsigned q, unsigned L) {
  if (q == 0) return "ctrl";
  if (q == 1) return "tid";
  static const char* const groups[4] = {"1x-have", "1x-no", "4x-have", "4x-no"};
  return groups[(q - 2) / L];
}
const char* const kQueueClasses[] = {"ctrl", "tid", "1x-have", "1x-no", "4x-have", "4x-no"};
const char* const kDepths[] = {"1", "2-8", "9-64", ">64"};
const char* depth_class(unsigned d) {
  return d <= 1 ? "1" : d <= 8 ? "2-8" : d <= 64 ? "9-64" : ">64";
}

const char* stall_class(uint64_t n) { return n == 0 ? "none" : n <= 8 ? "short-1-8" : "long-9+"; }
const char* latency_class(uint64_t n) {
  return n <= 4 ? "1-4" : n <= 16 ? "5-16" : n <= 64 ? "17-64" : n <= 256 ? "65-256" : ">256";
}

uint32_t rsp_key(unsigned tid, unsigned seq) { return (uint32_t(tid) << 16) | seq; }

const char* status_name(uint8_t s) {
  static const char* const n[4] = {"IDLE", "BUSY", "DONE", "ERROR"};
  return n[s & 3];
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Bins
// ---------------------------------------------------------------------------------------------
FunctionalCoverage::FunctionalCoverage(const ni::EngineModel& model) : model_(model) {
  pend_.resize(model_.axi().desc().num_sets());
  declare_bins();
}

void FunctionalCoverage::declare_bins() {
  CoverageDb& d = db_;
  const unsigned L = model_.config().intra_prios;

  d.describe("desc.kind_size", "descriptors that went live: kind x size class (bytes)");
  for (const char* k : kMemKinds) {
    for (const char* s : kMemSizes) {
      d.declare("desc.kind_size", std::string(k) + "/" + s);
    }
  }
  for (const char* s : kInlineSizes) d.declare("desc.kind_size", std::string("inline/") + s);

  d.describe("desc.block_edges",
             "live memory descriptors: where the transfer starts and ends relative to the 64 KiB "
             "blocks (dst % 65536 and dst % 65536 + size)");
  for (const char* k : kMemKinds) {
    for (const char* e : {"single-block", "multi-block", "start-aligned", "first-block-1B",
                          "last-block-1B", "last-block-full", "last-block-65535B", "17+-blocks"}) {
      d.declare("desc.block_edges", std::string(k) + "/" + e);
    }
  }

  d.describe("desc.kind_notify_layout", "live descriptors: kind x notify x one or two lines");
  for (const char* k : kMemKinds) {
    for (const char* l : {"short", "long+notify", "long-no-notify"}) {
      d.declare("desc.kind_notify_layout", std::string(k) + "/" + l);
    }
  }
  for (const char* l : {"short", "short+notify", "long", "long+notify"}) {
    d.declare("desc.kind_notify_layout", std::string("inline/") + l);
  }

  d.describe("desc.kind_beat_width",
             "live descriptors: kind x how their words arrived (8-byte beats, full 16-byte beats, "
             "one word in a 16-byte beat, or a mix)");
  d.describe("desc.kind_word_order", "live descriptors: kind x word order within each line");
  d.describe("desc.kind_transactions",
             "live descriptors: kind x one AXI burst or several transactions");
  for (const char* k : kAllKinds) {
    for (const char* w : {"8B-beats", "16B-beats", "8B-in-16B-beats", "mixed"}) {
      d.declare("desc.kind_beat_width", std::string(k) + "/" + w);
    }
    for (const char* o : {"in-order", "out-of-order"})
      d.declare("desc.kind_word_order", std::string(k) + "/" + o);
    for (const char* t : {"one-burst", "several"})
      d.declare("desc.kind_transactions", std::string(k) + "/" + t);
  }

  d.describe("slverr.write",
             "every rule that makes a write answer SLVERR (docs/design.md section 3; R-numbers of "
             "ref_model/qos/validation.hpp), seen in the golden model's per-beat outcome");
  for (const char* r : {"aw-burst", "aw-size", "aw-align", "aw-region", "strobe", "wlast",
                        "ctrl-word", "interleave"}) {
    d.declare("slverr.write", r);
  }
  for (unsigned r = 1; r <= 11; ++r) d.declare("slverr.write", "first-line-R" + std::to_string(r));
  d.declare("slverr.write", "line1-R1",
            "line 1 is judged as line 1 only at an odd channel c whose line 0 (at c-1 < 64) is "
            "pending; c-1 <= 62, so c <= 63 and R1 (c >= 64) cannot fail on a line 1");
  for (unsigned r : {2u, 8u, 10u}) d.declare("slverr.write", "line1-R" + std::to_string(r));

  d.describe("write.path", "accepted writes and accumulator events");
  for (const char* p :
       {"short-descriptor-live", "long-line0-pending", "long-line1-live", "pending-long-abandoned",
        "pending-long-cancelled-by-short", "word-overwritten-in-partial-line", "empty-beat",
        "ctrl-reg-timeout-write", "ctrl-reg-max-retries-write"}) {
    d.declare("write.path", p);
  }

  d.describe("read.path", "AXI reads: legal kinds, status clears, every SLVERR rule");
  for (const char* p :
       {"status-single", "status-32", "stats", "ctrl", "single-IDLE", "single-BUSY",
        "single-DONE-cleared", "single-ERROR-cleared", "status-32-clears", "illegal-len",
        "illegal-size", "illegal-align", "illegal-region-0", "illegal-region-5-15"}) {
    d.declare("read.path", p);
  }

  d.describe("status.transition", "status register changes of a write channel");
  for (const char* t : {"IDLE->BUSY", "BUSY->DONE", "BUSY->ERROR", "DONE->IDLE", "ERROR->IDLE"}) {
    d.declare("status.transition", t);
  }

  d.describe("mh.path", "Message Handler paths (docs/design.md section 9), from the golden model");
  for (unsigned i = 0; i < kNumMh; ++i) {
    std::string why;
    if (Mh(i) == Mh::NeedCtrlWait && model_.config().max_outstanding <= 2) {
      why = "with MaxOutstanding = " + std::to_string(model_.config().max_outstanding) +
            " a transfer parks NEED_CTRL with at most 2 blocks unresolved (its last block and one "
            "other), so its next resolve leaves exactly one and always wakes it to the control "
            "queue (reachable with MaxOutstanding >= 3)";
    }
    d.declare("mh.path", mh_name(Mh(i)), why);
  }

  d.describe("s2.path",
             "Transfer Segmenter stage-2 decisions and stalls (docs/design.md section 6)");
  for (unsigned i = 0; i < kNumS2; ++i) d.declare("s2.path", s2_name(S2(i)));

  d.describe("rsp.order",
             "valid responses: ACK/NACK x in order or overtaking an older unresolved block");
  for (const char* k : {"ack", "nack"}) {
    for (const char* o : {"in-order", "overtaking"})
      d.declare("rsp.order", std::string(k) + "/" + o);
  }
  d.describe("rsp.latency",
             "valid responses: cycles from the block's / packet's issue to the response");
  for (const char* l : {"1-4", "5-16", "17-64", "65-256", ">256"}) d.declare("rsp.latency", l);

  d.describe("port.stall",
             "blk / pkt handshakes by the stall (valid && !ready cycles) just before them");
  for (const char* p : {"blk", "pkt"}) {
    for (const char* s : {"none", "short-1-8", "long-9+"})
      d.declare("port.stall", std::string(p) + "/" + s);
  }

  d.describe("fifo.state", "cycles in which a queue or FIFO is at an edge (golden model state)");
  for (const char* f :
       {"packet-queue-full", "tid-fifo-empty", "tid-fifo-one-left", "fid1-fifo-empty",
        "fid4-fifo-empty", "finish-fifo-full", "tid-queue-blocked-no-tid",
        "1x-no-queue-blocked-no-fid", "4x-no-queue-blocked-no-fid"}) {
    d.declare("fifo.state", f);
  }

  d.describe("queue.depth", "cycles by the deepest queue of each class (scheduling queues)");
  for (const char* c : kQueueClasses) {
    for (const char* k : kDepths) {
      std::string why;
      const std::string cls = c;
      if (cls == "1x-have" && std::string(k) == ">64") {
        why = "a transfer in a 1x have-FID queue holds one of the 64 1xFIDs";
      } else if (cls == "4x-have" && (std::string(k) == ">64")) {
        why = "a transfer in a 4x have-FID queue holds one of the 16 4xFID groups";
      }
      d.declare("queue.depth", cls + "/" + k, why);
    }
  }

  d.describe("sched.deq", "dequeues by queue (every priority level of every class)");
  for (unsigned q = 0; q < model_.queue_count(); ++q) d.declare("sched.deq", ni::queue_name(q, L));

  d.describe("sched.skid",
             "stage 1 takes a node or a re-issue request while stage 2 holds (it waits "
             "in the skid)");
  d.declare("sched.skid", "node");
  d.declare("sched.skid", "re-issue");

  d.describe("sched.pick",
             "stage 1's pick for the next cycle leaves out a queue that a pick after this "
             "cycle's dequeue with stage 2's reservation alone would take: its last node "
             "leaves now, or its IDs are reserved by this cycle's dequeue or by the skid's "
             "node");
  for (const char* b : {"last-node-left", "reserved-by-dequeue", "reserved-by-skid"}) {
    d.declare("sched.pick", b);
  }

  d.describe("sched.enq", "granted enqueues by source and queue class");
  for (const char* e : {"axi->tid", "axi->1x-no", "axi->4x-no", "seg->tid", "seg->1x-have",
                        "seg->4x-have", "mh->ctrl", "mh->tid", "mh->1x-have", "mh->4x-have"}) {
    d.declare("sched.enq", e);
  }
}

// ---------------------------------------------------------------------------------------------
// Attach and output
// ---------------------------------------------------------------------------------------------
void FunctionalCoverage::attach(EventBus& bus, ni::EngineModel& model) {
  bus.add(*this);
  model.set_observer(this);
}

void write_coverage_file(const std::string& path, const CoverageDb& db,
                         const nlohmann::json& source) {
  nlohmann::json j;
  j["format"] = "ni-fcov/1";
  j["sources"] = nlohmann::json::array({source});
  j["groups"] = db.to_json();
  std::ofstream out(path);
  if (!out) throw std::runtime_error("cannot write coverage file " + path);
  out << j.dump(1) << "\n";
}

void FunctionalCoverage::write(const std::string& path, const nlohmann::json& source) const {
  write_coverage_file(path, db_, source);
}

// ---------------------------------------------------------------------------------------------
// AXI writes: shapes and outcomes
// ---------------------------------------------------------------------------------------------
void FunctionalCoverage::on_aw(const AwEvent& e) {
  aw_.push_back(AwTrack{aw_serial_++, e.size, e.len, 0});
  // Transaction-level errors (the model reports them per beat as BeatError::AwError).
  const ni::AwError err = ni::check_aw(ni::AwFields{e.addr, e.len, e.size, e.burst, e.id});
  switch (err) {
    case ni::AwError::Burst:
      db_.hit("slverr.write", "aw-burst");
      break;
    case ni::AwError::Size:
      db_.hit("slverr.write", "aw-size");
      break;
    case ni::AwError::Align:
      db_.hit("slverr.write", "aw-align");
      break;
    case ni::AwError::Region:
      db_.hit("slverr.write", "aw-region");
      break;
    case ni::AwError::None:
      break;
  }
}

void FunctionalCoverage::on_w(const WEvent& e) {
  (void)e;
  if (aw_.empty()) return;  // the model flags this as a failure
  AwTrack& a = aw_.front();
  w_.push_back(WInfo{a.serial, a.size});
  if (++a.next > a.len) aw_.pop_front();
}

void FunctionalCoverage::on_beat(uint64_t cycle, const ni::WriteBeatOutcome& o) {
  (void)cycle;
  WInfo w{~uint64_t{0}, 0};
  if (!w_.empty()) {
    w = w_.front();
    w_.pop_front();
  }
  switch (o.decode.error) {
    case ni::BeatError::Strobe:
      db_.hit("slverr.write", "strobe");
      break;
    case ni::BeatError::Last:
      db_.hit("slverr.write", "wlast");
      break;
    case ni::BeatError::CtrlWord:
      db_.hit("slverr.write", "ctrl-word");
      break;
    default:
      break;
  }
  if (o.decode.dropped()) return;
  if (o.decode.words.empty()) {
    db_.hit("write.path", "empty-beat");
    return;
  }
  if (ni::region_of(o.decode.words.front().addr) == ni::RegionCtrl) {
    for (const ni::WordWrite& ww : o.decode.words) {
      const auto idx = ni::ctrl_write_index(ww.addr);
      if (idx)
        db_.hit("write.path", *idx == 0 ? "ctrl-reg-timeout-write" : "ctrl-reg-max-retries-write");
    }
    return;
  }
  if (o.desc.dropped) {
    db_.hit("slverr.write", "interleave");
    return;
  }
  // Words of this beat: all in one line.
  const ni::DescWordAddr a0 = ni::decode_desc_addr(o.decode.words.front().addr);
  const unsigned line = ni::xfer_id(a0.page, a0.channel);
  LineShape& ls = partial_[line];
  const unsigned width = w.size == 3 ? 1u : (o.decode.words.size() == 2 ? 2u : 4u);
  for (const ni::WordWrite& ww : o.decode.words) {
    const unsigned word = ni::decode_desc_addr(ww.addr).word;
    if (std::find(ls.order.begin(), ls.order.end(), word) != ls.order.end()) {
      db_.hit("write.path", "word-overwritten-in-partial-line");
    }
    ls.order.push_back(word);
  }
  ls.widths |= width;
  if (std::find(ls.txns.begin(), ls.txns.end(), w.serial) == ls.txns.end())
    ls.txns.push_back(w.serial);

  if (o.desc.line_complete) {
    complete_[line] = ls;
    partial_.erase(line);
    if (o.desc.verdict != ni::Verdict::Accept) {
      db_.hit("slverr.write", std::string(o.desc.line1 ? "line1-R" : "first-line-R") +
                                  std::to_string(ni::rule_number(o.desc.verdict)));
    } else if (o.desc.line1) {
      db_.hit("write.path", "long-line1-live");
    } else if (o.desc.live.empty()) {
      db_.hit("write.path", "long-line0-pending");
    } else {
      db_.hit("write.path", "short-descriptor-live");
    }
  }
  // Pending long descriptors: abandoned (a new line 0 replaced it) or cancelled (a short
  // descriptor overwrote its line 0).
  const auto& dm = model_.axi().desc();
  for (unsigned s = 0; s < pend_.size(); ++s) {
    const auto& now = dm.pending(s);
    const Pend& prev = pend_[s];
    if (prev.valid && now.valid && (prev.page != now.page || prev.channel != now.channel)) {
      db_.hit("write.path", "pending-long-abandoned");
    } else if (prev.valid && !now.valid && !o.desc.line1) {
      db_.hit("write.path", "pending-long-cancelled-by-short");
    }
    pend_[s] = Pend{now.valid, now.page, now.channel};
  }
  for (unsigned x : o.desc.live) descriptor_live(x);
}

void FunctionalCoverage::descriptor_live(unsigned x) {
  const ni::Descriptor d = model_.axi().desc().table_descriptor(x);
  const std::string k = ni::to_string(d.kind);
  const bool is_long = d.is_long();
  db_.hit("desc.kind_size", k + "/" + size_class(d.size));
  if (d.kind == Kind::Inline) {
    db_.hit("desc.kind_notify_layout",
            k + "/" + (is_long ? "long" : "short") + (d.notify ? "+notify" : ""));
  } else {
    db_.hit("desc.kind_notify_layout", k + "/" +
                                           (!is_long   ? "short"
                                            : d.notify ? "long+notify"
                                                       : "long-no-notify"));
    const uint64_t lo = (d.dst & 0xFFFFFFFFFFFFull) % kBB;
    const uint64_t end = lo + d.size;
    const uint64_t total = ni::total_blocks(d.dst, d.size);
    auto edge = [&](const char* e) { db_.hit("desc.block_edges", k + "/" + e); };
    edge(total == 1 ? "single-block" : "multi-block");
    if (total > 1 && lo == 0) edge("start-aligned");
    if (lo == kBB - 1 && d.size > 1) edge("first-block-1B");
    if (total > 1 && end % kBB == 1) edge("last-block-1B");
    if (total > 1 && end % kBB == 0) edge("last-block-full");
    if (total > 1 && end % kBB == kBB - 1) edge("last-block-65535B");
    if (total > 16) edge("17+-blocks");
  }
  // How its line(s) arrived.
  unsigned widths = 0;
  bool in_order = true;
  std::vector<uint64_t> txns;
  for (unsigned line : {x, x + 1}) {
    if (line == x + 1 && !is_long) break;
    auto it = complete_.find(line);
    if (it == complete_.end()) continue;
    const LineShape& ls = it->second;
    widths |= ls.widths;
    in_order = in_order && ls.order == std::vector<unsigned>{0, 1, 2, 3};
    for (uint64_t t : ls.txns) {
      if (std::find(txns.begin(), txns.end(), t) == txns.end()) txns.push_back(t);
    }
  }
  const char* w = widths == 1   ? "8B-beats"
                  : widths == 2 ? "16B-beats"
                  : widths == 4 ? "8B-in-16B-beats"
                                : "mixed";
  db_.hit("desc.kind_beat_width", k + "/" + w);
  db_.hit("desc.kind_word_order", k + "/" + (in_order ? "in-order" : "out-of-order"));
  db_.hit("desc.kind_transactions", k + "/" + (txns.size() == 1 ? "one-burst" : "several"));
}

// ---------------------------------------------------------------------------------------------
// Reads and status
// ---------------------------------------------------------------------------------------------
void FunctionalCoverage::on_ar(const ArEvent& e) {
  ar_addr_.push_back(e.addr);
  const ni::ArFields a{e.addr, e.len, e.size, e.burst, e.id};
  const unsigned region = ni::region_of(e.addr);
  if (!ni::read_is_legal(a)) {
    if (e.len != 0)
      db_.hit("read.path", "illegal-len");
    else if (e.size > 4)
      db_.hit("read.path", "illegal-size");
    else if ((e.addr & 0xF) != 0)
      db_.hit("read.path", "illegal-align");
    else
      db_.hit("read.path", region == 0 ? "illegal-region-0" : "illegal-region-5-15");
    ar_addr_.back() = ~uint32_t{0};  // no data to classify
    return;
  }
  static const char* const kRegion[] = {"", "status-single", "status-32", "stats", "ctrl"};
  db_.hit("read.path", kRegion[region]);
}

void FunctionalCoverage::on_r(const REvent& e) {
  if (!e.last || ar_addr_.empty()) return;
  const uint32_t addr = ar_addr_.front();
  ar_addr_.pop_front();
  if (addr == ~uint32_t{0}) return;
  const unsigned region = ni::region_of(addr);
  if (region == ni::RegionStatus1) {
    static const char* const kCode[] = {"single-IDLE", "single-BUSY", "single-DONE-cleared",
                                        "single-ERROR-cleared"};
    db_.hit("read.path", kCode[e.data & 3]);
  } else if (region == ni::RegionStatus32) {
    bool clears = false;
    for (unsigned i = 0; i < 32; ++i) clears = clears || ((e.data >> (2 * i)) & 3) >= 2;
    if (clears) db_.hit("read.path", "status-32-clears");
  }
}

void FunctionalCoverage::on_status(const StatusEvent& e) {
  db_.hit("status.transition", std::string(status_name(e.from)) + "->" + status_name(e.to));
}

// ---------------------------------------------------------------------------------------------
// Responses, ports, queues
// ---------------------------------------------------------------------------------------------
void FunctionalCoverage::on_rsp(const RspEvent& e) { rsp_.push_back(e); }

void FunctionalCoverage::on_tap(const TapEvent& e) {
  init_done_ = e.init_done;
  if (e.blk_valid && !e.blk_ready) ++blk_run_;
  if (e.blk_valid && e.blk_ready) {
    db_.hit("port.stall", std::string("blk/") + stall_class(blk_run_));
    blk_run_ = 0;
  }
  if (e.pkt_valid && !e.pkt_ready) ++pkt_run_;
  if (e.pkt_valid && e.pkt_ready) {
    db_.hit("port.stall", std::string("pkt/") + stall_class(pkt_run_));
    pkt_run_ = 0;
  }
  if (e.deq) db_.hit("sched.deq", ni::queue_name(e.deq_qid, model_.config().intra_prios));
  if (e.s2_hold && e.deq) db_.hit("sched.skid", "node");
  if (e.s2_hold && e.retx_pop) db_.hit("sched.skid", "re-issue");
  if (e.enq && e.enq_src <= 2) {
    static const char* const kSrc[] = {"mh->", "seg->", "axi->"};
    db_.hit("sched.enq", kSrc[e.enq_src] + queue_class(e.enq_qid, model_.config().intra_prios));
  }
}

void FunctionalCoverage::on_pick(uint64_t cycle, Pick p) {
  (void)cycle;
  switch (p) {
    case Pick::LastNodeLeft:
      db_.hit("sched.pick", "last-node-left");
      break;
    case Pick::ReservedByDequeue:
      db_.hit("sched.pick", "reserved-by-dequeue");
      break;
    case Pick::ReservedBySkid:
      db_.hit("sched.pick", "reserved-by-skid");
      break;
  }
}

void FunctionalCoverage::on_mh(uint64_t cycle, Mh path, unsigned xfer) {
  (void)cycle;
  (void)xfer;
  db_.hit("mh.path", mh_name(path));
}

void FunctionalCoverage::on_s2(uint64_t cycle, const S2Event& e) {
  db_.hit("s2.path", s2_name(e.path));
  if (e.path == S2::IssueFirst || e.path == S2::IssueNext || e.path == S2::IssueInline) {
    const uint32_t key = rsp_key(e.tid, e.seq);
    const uint64_t ord = issue_serial_++;
    auto old = out_.find(key);
    if (old != out_.end()) out_order_.erase(old->second.order);
    out_[key] = Outstanding{ord, cycle};
    out_order_[ord] = key;
  }
}

void FunctionalCoverage::end_of_cycle(uint64_t cycle) {
  // Responses of this cycle, after this cycle's issues were recorded (a response can only be
  // valid for a block issued before or in its handshake cycle).
  for (const RspEvent& r : rsp_) {
    auto it = out_.find(rsp_key(r.tid, r.seq));
    if (it == out_.end()) continue;  // dropped by the engine (the model reports it)
    const bool overtaking = out_order_.begin()->first != it->second.order;
    db_.hit("rsp.order",
            std::string(r.nack ? "nack/" : "ack/") + (overtaking ? "overtaking" : "in-order"));
    db_.hit("rsp.latency", latency_class(cycle - it->second.cycle));
    out_order_.erase(it->second.order);
    out_.erase(it);
  }
  rsp_.clear();
  if (!init_done_ || model_.failed()) return;

  // FIFO and queue edges (the model's state after this cycle).
  if (model_.pkt_queue_count() >= model_.pkt_queue_depth())
    db_.hit("fifo.state", "packet-queue-full");
  if (model_.tid_fifo_size() == 0) db_.hit("fifo.state", "tid-fifo-empty");
  if (model_.tid_fifo_size() == 1) db_.hit("fifo.state", "tid-fifo-one-left");
  if (model_.fid1_fifo_size() == 0) db_.hit("fifo.state", "fid1-fifo-empty");
  if (model_.fid4_fifo_size() == 0) db_.hit("fifo.state", "fid4-fifo-empty");
  if (model_.fin_fifo_size() >= 2) db_.hit("fifo.state", "finish-fifo-full");
  const unsigned L = model_.config().intra_prios;
  std::map<std::string, unsigned> deepest;
  bool blocked_tid = false, blocked_1x = false, blocked_4x = false;
  for (unsigned q = 0; q < model_.queue_count(); ++q) {
    const unsigned depth = model_.queue_depth(q);
    if (depth == 0) continue;
    const std::string cls = queue_class(q, L);
    unsigned& m = deepest[cls];
    m = std::max(m, depth);
    if (model_.queue_blocked(q)) {
      blocked_tid = blocked_tid || cls == "tid";
      blocked_1x = blocked_1x || cls == "1x-no";
      blocked_4x = blocked_4x || cls == "4x-no";
    }
  }
  for (const auto& [cls, depth] : deepest) db_.hit("queue.depth", cls + "/" + depth_class(depth));
  if (blocked_tid) db_.hit("fifo.state", "tid-queue-blocked-no-tid");
  if (blocked_1x) db_.hit("fifo.state", "1x-no-queue-blocked-no-fid");
  if (blocked_4x) db_.hit("fifo.state", "4x-no-queue-blocked-no-fid");
}

}  // namespace sim
