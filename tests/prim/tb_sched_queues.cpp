// SPDX-License-Identifier: Apache-2.0
// sched_queues: lockstep against a model of NumQueues FIFOs of nodes, plus directed cases
// for each hazard of the shared-link implementation.
//
// Model (rtl/sched_queues.sv header, docs/design.md section 5, thesis 3.7): one std::deque
// of (node, first) per queue.
//   * Enqueue: sources with enq_valid_i; the lowest-index valid source is granted
//     (enq_ready_o[s] = no source below s is valid, whatever s itself requests); the granted
//     entry goes to the tail of its queue at the edge and is visible (nonempty_o, deq
//     outputs) from the next cycle.
//   * Dequeue: deq_node_o/deq_first_o are the head of queue deq_qid_i, combinationally,
//     whenever that queue is non-empty (whether deq_i is high or not); with deq_i the head
//     leaves at the edge. Dequeue then enqueue: the last node of a queue can leave while a
//     node is enqueued to it.
//   * nonempty_o: one bit per queue; remain_o: the same less the queue whose last node a
//     dequeue takes in this cycle (this cycle's enqueue not counted).
// Input contract (the module's assertions): deq_i only for an in-range non-empty queue; the
// granted source's qid in range; a node is enqueued only when it is in no queue, or is the
// node dequeued in the same cycle. Non-granted sources may present anything.
//
// Two parameterisations: the engine's (34 queues, 2048 nodes, 4 sources) and a small one
// (3 queues, 8 nodes, 3 sources: model sched_queues_small) that lives in the corners.
#include <deque>

#include "Vsched_queues.h"
#include "Vsched_queues_small.h"
#include "tests/common/lockstep.hpp"

namespace {

using lockstep::Harness;
using lockstep::Rng;

constexpr const char* kBinary = "tb_sched_queues";

constexpr unsigned clog2(unsigned n) {
  unsigned w = 0;
  while ((1u << w) < n) ++w;
  return w;
}

struct Config {
  unsigned queues, nodes, srcs;
  unsigned node_w() const { return clog2(nodes); }
  unsigned qid_w() const { return clog2(queues); }
};

constexpr Config kEngine{34, 2048, 4};
constexpr Config kSmall{3, 8, 3};  // must match the -G flags of sched_queues_small

constexpr unsigned kMaxSrc = 4;

struct Inputs {
  bool rst = false;
  unsigned nsrc = 0;
  std::array<bool, kMaxSrc> valid{};
  std::array<unsigned, kMaxSrc> qid{};
  std::array<unsigned, kMaxSrc> node{};
  std::array<bool, kMaxSrc> first{};
  bool deq = false;
  unsigned deq_qid = 0;

  // The granted source, or -1.
  int granted() const {
    for (unsigned s = 0; s < nsrc; ++s) {
      if (valid[s]) return static_cast<int>(s);
    }
    return -1;
  }
  std::string describe() const {
    if (rst) return "reset";
    std::ostringstream os;
    const int g = granted();
    for (unsigned s = 0; s < nsrc; ++s) {
      if (valid[s]) {
        os << "enq" << s << "{q" << qid[s] << " n" << node[s] << (first[s] ? " F" : "")
           << (static_cast<int>(s) == g ? "}* " : "} ");
      }
    }
    if (deq)
      os << "deq q" << deq_qid;
    else
      os << "(deq_qid=" << deq_qid << ")";
    return os.str();
  }
};

struct Entry {
  unsigned node;
  bool first;
};

class Model {
 public:
  explicit Model(const Config& c) : cfg_(c), q_(c.queues), where_(c.nodes, -1) {}
  void reset() {
    for (auto& q : q_) q.clear();
    std::fill(where_.begin(), where_.end(), -1);
  }
  const std::deque<Entry>& queue(unsigned i) const { return q_.at(i); }
  std::uint64_t nonempty() const {
    std::uint64_t m = 0;
    for (unsigned i = 0; i < cfg_.queues; ++i) {
      if (!q_[i].empty()) m |= std::uint64_t{1} << i;
    }
    return m;
  }
  int where(unsigned node) const { return where_.at(node); }
  // The rising edge: dequeue, then enqueue.
  void step(const Inputs& in) {
    if (in.deq) {
      auto& q = q_.at(in.deq_qid);
      if (q.empty()) FAIL("test bug: dequeue from empty queue " << in.deq_qid);
      where_.at(q.front().node) = -1;
      q.pop_front();
    }
    const int g = in.granted();
    if (g >= 0) {
      const auto s = static_cast<unsigned>(g);
      if (where_.at(in.node[s]) != -1) FAIL("test bug: node " << in.node[s] << " enqueued twice");
      q_.at(in.qid[s]).push_back({in.node[s], in.first[s]});
      where_.at(in.node[s]) = static_cast<int>(in.qid[s]);
    }
  }

 private:
  Config cfg_;
  std::vector<std::deque<Entry>> q_;
  std::vector<int> where_;  // queue of each node, -1 when in none
};

// The nodes in no queue, with O(1) random pick and removal.
class FreeNodes {
 public:
  explicit FreeNodes(unsigned n) : pos_(n) { reset(); }
  void reset() {
    ids_.clear();
    for (unsigned i = 0; i < pos_.size(); ++i) add(i);
  }
  void add(unsigned id) {
    pos_[id] = ids_.size();
    ids_.push_back(id);
  }
  void remove(unsigned id) {
    const std::size_t p = pos_[id];
    ids_[p] = ids_.back();
    pos_[ids_[p]] = p;
    ids_.pop_back();
  }
  std::size_t size() const { return ids_.size(); }
  unsigned pick(Rng& rng) const { return ids_[rng.below(ids_.size())]; }

 private:
  std::vector<unsigned> ids_;
  std::vector<std::size_t> pos_;
};

template <class Dut>
void apply(Harness<Dut>& h, const Config& cfg, const Inputs& in) {
  std::uint64_t valid = 0, qid = 0, node = 0, first = 0;
  for (unsigned s = 0; s < cfg.srcs; ++s) {
    valid |= std::uint64_t{in.valid[s]} << s;
    qid |= std::uint64_t{in.qid[s]} << (s * cfg.qid_w());
    node |= std::uint64_t{in.node[s]} << (s * cfg.node_w());
    first |= std::uint64_t{in.first[s]} << s;
  }
  h->enq_valid_i = valid;
  h->enq_qid_i = qid;
  h->enq_node_i = node;
  h->enq_first_i = first;
  h->deq_i = in.deq;
  h->deq_qid_i = in.deq_qid;
}

// Random stimulus, biased to the hazards: phases with a few hot queues (deep queues and
// back-to-back dequeues of one queue), low occupancy (queues of 0..2 nodes, enqueue into the
// queue whose last node leaves), high occupancy (free nodes running out), and re-enqueue of
// the node being dequeued.
class Stimulus {
 public:
  Stimulus(const Config& c, Rng& rng) : cfg_(c), rng_(rng) { new_phase(); }

  void new_phase() {
    static constexpr unsigned kRates[] = {0, 20, 50, 80, 100};
    p_deq_ = kRates[rng_.below(5)];
    p_src_ = kRates[1 + rng_.below(4)];
    p_enq_ = kRates[rng_.below(5)];
    p_same_q_ = static_cast<unsigned>(rng_.range(0, 80));
    p_into_deq_q_ = static_cast<unsigned>(rng_.range(0, 60));
    p_reenq_ = static_cast<unsigned>(rng_.range(0, 30));
    const unsigned nhot = 1 + static_cast<unsigned>(rng_.below(3));
    hot_.clear();
    for (unsigned i = 0; i < nhot; ++i)
      hot_.push_back(static_cast<unsigned>(rng_.below(cfg_.queues)));
    p_hot_ = static_cast<unsigned>(rng_.range(0, 100));
    // Occupancy target: most phases keep few nodes queued so that queues empty often.
    static constexpr unsigned kTargets[] = {2, 4, 16, 64, 100000};
    target_ = kTargets[rng_.below(5)];
  }

  Inputs next(const Model& m, const FreeNodes& free, unsigned last_deq_q) {
    Inputs in;
    in.nsrc = cfg_.srcs;
    const std::uint64_t ne = m.nonempty();
    const std::size_t queued = cfg_.nodes - free.size();

    // Dequeue: same queue as last time, a queue with one node, or any non-empty one.
    if (ne != 0 && rng_.chance(queued > target_ ? std::max(p_deq_, 80u) : p_deq_)) {
      in.deq = true;
      if (((ne >> last_deq_q) & 1) != 0 && rng_.chance(p_same_q_)) {
        in.deq_qid = last_deq_q;
      } else if (rng_.chance(30) && pick_queue_with(m, 1, &in.deq_qid)) {
      } else {
        in.deq_qid = pick_set_bit(ne);
      }
    } else {
      // Not dequeuing: deq_qid_i still selects the head shown on the outputs; sometimes
      // out of range (ignored).
      in.deq_qid =
          static_cast<unsigned>(rng_.chance(5) ? rng_.bits(cfg_.qid_w()) : rng_.below(cfg_.queues));
    }

    // Enqueue sources: the granted one follows the contract; the others show anything.
    const bool want_enq = rng_.chance(queued > target_ ? p_enq_ / 4 : p_enq_);
    for (unsigned s = 0; s < cfg_.srcs; ++s) {
      in.valid[s] = want_enq ? rng_.chance(p_src_) : false;
      in.qid[s] = static_cast<unsigned>(rng_.bits(cfg_.qid_w()));
      in.node[s] = static_cast<unsigned>(rng_.bits(cfg_.node_w()));
      in.first[s] = rng_.coin();
    }
    if (want_enq && in.granted() < 0) in.valid[rng_.below(cfg_.srcs)] = true;
    const int g = in.granted();
    if (g >= 0) {
      const auto s = static_cast<unsigned>(g);
      const bool can_reenq = in.deq;  // the dequeued head may go straight back in
      if (can_reenq && (free.size() == 0 || rng_.chance(p_reenq_))) {
        in.node[s] = m.queue(in.deq_qid).front().node;
      } else if (free.size() != 0) {
        in.node[s] = free.pick(rng_);
      } else {
        in.valid = {};  // nothing may be enqueued this cycle
      }
      if (in.deq && rng_.chance(p_into_deq_q_)) {
        in.qid[s] = in.deq_qid;
      } else if (rng_.chance(p_hot_)) {
        in.qid[s] = hot_[rng_.below(hot_.size())];
      } else if (rng_.chance(30) && pick_queue_with(m, 0, &in.qid[s])) {
      } else {
        in.qid[s] = static_cast<unsigned>(rng_.below(cfg_.queues));
      }
    }
    return in;
  }

 private:
  unsigned pick_set_bit(std::uint64_t mask) {
    unsigned n = static_cast<unsigned>(__builtin_popcountll(mask));
    unsigned k = static_cast<unsigned>(rng_.below(n));
    for (unsigned i = 0; i < 64; ++i) {
      if (((mask >> i) & 1) != 0 && k-- == 0) return i;
    }
    return 0;
  }
  // A random queue holding exactly `len` nodes; false when none does.
  bool pick_queue_with(const Model& m, std::size_t len, unsigned* q) {
    std::uint64_t mask = 0;
    for (unsigned i = 0; i < cfg_.queues; ++i) {
      if (m.queue(i).size() == len) mask |= std::uint64_t{1} << i;
    }
    if (mask == 0) return false;
    *q = pick_set_bit(mask);
    return true;
  }

  Config cfg_;
  Rng& rng_;
  unsigned p_deq_ = 50, p_src_ = 50, p_enq_ = 50, p_same_q_ = 50, p_into_deq_q_ = 20;
  unsigned p_reenq_ = 10, p_hot_ = 50;
  std::size_t target_ = 4;
  std::vector<unsigned> hot_;
};

struct Coverage {
  std::uint64_t b2b = 0;                  // same queue dequeued in consecutive cycles
  std::uint64_t last_and_enq = 0;         // last node dequeued while that queue is enqueued to
  std::uint64_t empty_enq_other_deq = 0;  // enqueue into an empty queue, another dequeues
  std::uint64_t reenq = 0;                // the dequeued node enqueued in the same cycle
  std::uint64_t contention = 0;           // two or more sources valid
};

template <class Dut>
void lockstep_run(const Config& cfg, const char* what) {
  const std::uint32_t seed = lockstep::seed();
  const std::uint64_t n = lockstep::cycles();
  const std::string test = Catch::getResultCapture().getCurrentTestName();
  Rng rng(seed);
  Harness<Dut> h;
  lockstep::Checker<Inputs> chk(what, seed, lockstep::reproduce_cmd(kBinary, test, seed, n));
  Model model(cfg);
  FreeNodes free(cfg.nodes);
  Stimulus stim(cfg, rng);
  Coverage cov;
  lockstep::reset(h);

  bool last_deq = false;
  unsigned last_deq_q = 0;
  for (std::uint64_t c = 0; c < n; ++c) {
    if (rng.below(2000) == 0) stim.new_phase();
    Inputs in;
    if (rng.below(250000) == 0) {
      in.rst = true;
      chk.begin(c, in);
      h->rst_ni = 0;
      h.settle();
      h.posedge();
      h->rst_ni = 1;
      model.reset();
      free.reset();
      last_deq = false;
      chk.end(h.sva_failed());
      continue;
    }
    in = stim.next(model, free, last_deq_q);
    chk.begin(c, in);
    apply(h, cfg, in);
    h.settle();

    // Every output, every cycle.
    std::uint64_t want_ready = 0;
    bool higher_valid = false;
    for (unsigned s = 0; s < cfg.srcs; ++s) {
      if (!higher_valid) want_ready |= std::uint64_t{1} << s;
      higher_valid = higher_valid || in.valid[s];
    }
    chk.expect("enq_ready_o", want_ready, h->enq_ready_o);
    chk.expect("nonempty_o", model.nonempty(), h->nonempty_o);
    // The queues that keep a node once this cycle's dequeue is done (its enqueue not counted).
    std::uint64_t want_remain = model.nonempty();
    if (in.deq && in.deq_qid < cfg.queues && model.queue(in.deq_qid).size() == 1)
      want_remain &= ~(std::uint64_t{1} << in.deq_qid);
    chk.expect("remain_o", want_remain, h->remain_o);
    if (in.deq_qid < cfg.queues && !model.queue(in.deq_qid).empty()) {
      const Entry& e = model.queue(in.deq_qid).front();
      chk.expect("deq_node_o", e.node, h->deq_node_o);
      chk.expect("deq_first_o", e.first, h->deq_first_o);
    }
    h.posedge();

    // Coverage of the hazards, then the model's step.
    const int g = in.granted();
    unsigned contenders = 0;
    for (unsigned s = 0; s < cfg.srcs; ++s) contenders += in.valid[s] ? 1 : 0;
    cov.contention += contenders >= 2 ? 1 : 0;
    if (in.deq) {
      cov.b2b += (last_deq && last_deq_q == in.deq_qid) ? 1 : 0;
      if (g >= 0) {
        const auto s = static_cast<unsigned>(g);
        const auto& dq = model.queue(in.deq_qid);
        cov.last_and_enq += (dq.size() == 1 && in.qid[s] == in.deq_qid) ? 1 : 0;
        cov.empty_enq_other_deq +=
            (model.queue(in.qid[s]).empty() && in.qid[s] != in.deq_qid) ? 1 : 0;
        cov.reenq += in.node[s] == dq.front().node ? 1 : 0;
      }
      free.add(model.queue(in.deq_qid).front().node);
    }
    if (g >= 0) free.remove(in.node[static_cast<unsigned>(g)]);
    model.step(in);
    last_deq = in.deq;
    if (in.deq) last_deq_q = in.deq_qid;
    chk.end(h.sva_failed());
  }
  INFO("b2b " << cov.b2b << ", last+enq " << cov.last_and_enq << ", empty-enq/other-deq "
              << cov.empty_enq_other_deq << ", re-enqueue " << cov.reenq << ", contention "
              << cov.contention);
  CHECK(cov.b2b > n / 50);
  CHECK(cov.last_and_enq > n / 500);
  CHECK(cov.empty_enq_other_deq > n / 500);
  CHECK(cov.reenq > n / 500);
  CHECK(cov.contention > n / 50);
}

// ------------------------------------------------------------------------------------------
// Directed tests on the engine's parameters. Expected values are written out by hand.
// ------------------------------------------------------------------------------------------
class Directed {
 public:
  Directed() { lockstep::reset(h_); }

  // One source enqueue request (others idle).
  struct Enq {
    unsigned src, qid, node;
    bool first;
  };

  // One cycle. Before the edge, records the outputs for the checks of the caller.
  void cycle(std::vector<Enq> enqs, bool deq = false, unsigned deq_qid = 0) {
    Inputs in;
    in.nsrc = kEngine.srcs;
    for (const auto& e : enqs) {
      in.valid[e.src] = true;
      in.qid[e.src] = e.qid;
      in.node[e.src] = e.node;
      in.first[e.src] = e.first;
    }
    in.deq = deq;
    in.deq_qid = deq_qid;
    apply(h_, kEngine, in);
    h_.settle();
    ready_ = h_->enq_ready_o;
    node_ = h_->deq_node_o;
    first_ = h_->deq_first_o != 0;
    nonempty_ = h_->nonempty_o;
    h_.posedge();
    REQUIRE_FALSE(h_.sva_failed());
  }
  void idle() { cycle({}); }
  // Dequeue queue q; returns the node that left (checked before the edge).
  unsigned deq(unsigned q, std::vector<Enq> enqs = {}) {
    cycle(std::move(enqs), true, q);
    return node_;
  }
  // The current head of queue q (no edge).
  std::pair<unsigned, bool> head(unsigned q) {
    Inputs in;
    in.nsrc = kEngine.srcs;
    in.deq_qid = q;
    apply(h_, kEngine, in);
    h_.settle();
    return {h_->deq_node_o, h_->deq_first_o != 0};
  }
  std::uint64_t nonempty() {
    h_.settle();
    return h_->nonempty_o;
  }
  bool is_nonempty(unsigned q) { return ((nonempty() >> q) & 1) != 0; }

  Harness<Vsched_queues>& h() { return h_; }
  std::uint64_t ready_before_edge() const { return ready_; }
  bool first_before_edge() const { return first_; }
  std::uint64_t nonempty_before_edge() const { return nonempty_; }

 private:
  Harness<Vsched_queues> h_;
  std::uint64_t ready_ = 0, nonempty_ = 0;
  unsigned node_ = 0;
  bool first_ = false;
};

}  // namespace

TEST_CASE("sched_queues: lockstep random (34 queues 2048 nodes 4 sources)",
          "[sched_queues][lockstep]") {
  lockstep_run<Vsched_queues>(kEngine, "sched_queues NumQueues=34 NumNodes=2048 NumSrc=4");
}

TEST_CASE("sched_queues: lockstep random (3 queues 8 nodes 3 sources)",
          "[sched_queues][lockstep]") {
  lockstep_run<Vsched_queues_small>(kSmall, "sched_queues NumQueues=3 NumNodes=8 NumSrc=3");
}

TEST_CASE("sched_queues: empty after reset and an enqueue is visible the next cycle",
          "[sched_queues][directed]") {
  Directed d;
  CHECK(d.nonempty() == 0);
  d.cycle({{0, 5, 100, true}});
  CHECK(d.nonempty_before_edge() == 0);  // not in the cycle of the enqueue
  CHECK(d.nonempty() == (std::uint64_t{1} << 5));
  CHECK(d.head(5) == std::make_pair(100u, true));
  // The outputs show the head of deq_qid_i without a dequeue, and it stays.
  d.idle();
  CHECK(d.head(5) == std::make_pair(100u, true));
  CHECK(d.deq(5) == 100);
  CHECK(d.nonempty() == 0);
}

TEST_CASE("sched_queues: back-to-back dequeues from one queue", "[sched_queues][directed]") {
  Directed d;
  // Queue 7: nodes 10..19, first flag on the even ones.
  for (unsigned i = 0; i < 10; ++i) d.cycle({{1, 7, 10 + i, i % 2 == 0}});
  // Ten dequeues in ten consecutive cycles return them in order with their flags.
  for (unsigned i = 0; i < 10; ++i) {
    CHECK(d.deq(7) == 10 + i);
    CHECK(d.first_before_edge() == (i % 2 == 0));
    CHECK(((d.nonempty_before_edge() >> 7) & 1) == 1);
  }
  CHECK(d.nonempty() == 0);
  // Two queues interleaved, each dequeued back to back in bursts.
  for (unsigned i = 0; i < 4; ++i) d.cycle({{0, 3, 200 + i, false}});
  for (unsigned i = 0; i < 4; ++i) d.cycle({{0, 33, 300 + i, true}});
  CHECK(d.deq(3) == 200);
  CHECK(d.deq(3) == 201);
  CHECK(d.deq(33) == 300);
  CHECK(d.deq(3) == 202);
  CHECK(d.deq(33) == 301);
  CHECK(d.deq(33) == 302);
  CHECK(d.deq(3) == 203);
  CHECK(d.deq(33) == 303);
  CHECK(d.nonempty() == 0);
}

TEST_CASE("sched_queues: enqueue into an empty queue while another queue dequeues",
          "[sched_queues][directed]") {
  Directed d;
  d.cycle({{2, 1, 50, true}});
  d.cycle({{2, 1, 51, false}});
  // Queue 1 dequeues while node 60 enters empty queue 2.
  CHECK(d.deq(1, {{2, 2, 60, true}}) == 50);
  CHECK(d.nonempty() == ((std::uint64_t{1} << 1) | (std::uint64_t{1} << 2)));
  CHECK(d.head(2) == std::make_pair(60u, true));
  // Queue 1 dequeues back to back (its forwarded head) while node 61 enters empty queue 0.
  CHECK(d.deq(1, {{2, 0, 61, false}}) == 51);
  CHECK(d.nonempty() == ((std::uint64_t{1} << 0) | (std::uint64_t{1} << 2)));
  CHECK(d.deq(0) == 61);
  CHECK(d.deq(2) == 60);
  CHECK(d.nonempty() == 0);
}

TEST_CASE("sched_queues: the last node leaves while the queue is enqueued to",
          "[sched_queues][directed]") {
  Directed d;
  SECTION("queue of one node") {
    d.cycle({{0, 9, 1, true}});
    CHECK(d.deq(9, {{0, 9, 2, false}}) == 1);
    CHECK(d.is_nonempty(9));
    CHECK(d.head(9) == std::make_pair(2u, false));
    // And again, every cycle: the queue always holds exactly the node enqueued last.
    for (unsigned i = 3; i < 8; ++i) CHECK(d.deq(9, {{1, 9, i, i % 2 == 1}}) == i - 1);
    CHECK(d.head(9) == std::make_pair(7u, true));
    CHECK(d.deq(9) == 7);
    CHECK_FALSE(d.is_nonempty(9));
  }
  SECTION("last node reached by back-to-back dequeues") {
    d.cycle({{0, 9, 1, false}});
    d.cycle({{0, 9, 2, false}});
    CHECK(d.deq(9) == 1);
    // Node 2 is the forwarded head and the last node; node 3 arrives in the same cycle.
    CHECK(d.deq(9, {{3, 9, 3, true}}) == 2);
    CHECK(d.head(9) == std::make_pair(3u, true));
    CHECK(d.deq(9) == 3);
    CHECK_FALSE(d.is_nonempty(9));
  }
  SECTION("the node that leaves goes straight back in") {
    d.cycle({{0, 9, 1, false}});
    d.cycle({{0, 9, 2, false}});
    CHECK(d.deq(9, {{0, 9, 1, true}}) == 1);  // 1 leaves and re-enters at the tail
    CHECK(d.deq(9) == 2);
    CHECK(d.head(9) == std::make_pair(1u, true));
    CHECK(d.deq(9, {{0, 9, 1, false}}) == 1);  // last node, re-enqueued to itself
    CHECK(d.head(9) == std::make_pair(1u, false));
    CHECK(d.deq(9, {{0, 4, 1, true}}) == 1);  // last node, moved to queue 4
    CHECK(d.nonempty() == (std::uint64_t{1} << 4));
    CHECK(d.deq(4) == 1);
  }
  SECTION("a long queue drained while being filled") {
    for (unsigned i = 0; i < 3; ++i) d.cycle({{0, 20, 100 + i, false}});
    // Every cycle: dequeue the head and enqueue a new node at the tail.
    for (unsigned i = 0; i < 20; ++i) CHECK(d.deq(20, {{2, 20, 103 + i, false}}) == 100 + i);
    for (unsigned i = 0; i < 3; ++i) CHECK(d.deq(20) == 120 + i);
    CHECK(d.nonempty() == 0);
  }
}

TEST_CASE("sched_queues: enqueue arbitration among the 4 sources", "[sched_queues][directed]") {
  Directed d;
  // Every combination of valid sources: ready is high for the sources below which nothing
  // is valid; the lowest valid source is the one enqueued.
  unsigned node = 0;
  for (unsigned mask = 1; mask < 16; ++mask) {
    std::vector<Directed::Enq> enqs;
    for (unsigned s = 0; s < 4; ++s) {
      if ((mask >> s) & 1) enqs.push_back({s, 10 + s, node + s, s == 2});
    }
    d.cycle(enqs);
    unsigned lowest = 0;
    while (((mask >> lowest) & 1) == 0) ++lowest;
    std::uint64_t want_ready = 0;
    for (unsigned s = 0; s <= lowest; ++s) want_ready |= 1u << s;
    INFO("valid mask " << mask);
    CHECK(d.ready_before_edge() == want_ready);
    CHECK(d.nonempty() == (std::uint64_t{1} << (10 + lowest)));
    CHECK(d.head(10 + lowest) == std::make_pair(node + lowest, lowest == 2));
    CHECK(d.deq(10 + lowest) == node + lowest);
    node += 4;
  }
  // Ready does not depend on a source's own request: all idle -> all ready.
  d.idle();
  CHECK(d.ready_before_edge() == 0xF);
}

TEST_CASE("sched_queues: every node and every queue", "[sched_queues][directed]") {
  Directed d;
  // All 2048 nodes into the 34 queues round-robin, then drain queue by queue.
  for (unsigned n = 0; n < 2048; ++n) d.cycle({{n % 4, n % 34, n, (n & 1) != 0}});
  CHECK(d.nonempty() == (std::uint64_t{1} << 34) - 1);
  for (unsigned q = 0; q < 34; ++q) {
    for (unsigned n = q; n < 2048; n += 34) {
      REQUIRE(d.deq(q) == n);
      REQUIRE(d.first_before_edge() == ((n & 1) != 0));
    }
  }
  CHECK(d.nonempty() == 0);
}

// The contract is checked by the RTL's assertions: each violation must fire one.
TEST_CASE("sched_queues: contract violations fire the SVA assertions", "[sched_queues][sva]") {
  auto run = [](auto&& body) {
    Harness<Vsched_queues> h;
    lockstep::reset(h);
    body(h);
    return h.sva_failed();
  };
  auto step = [](Harness<Vsched_queues>& h, Inputs in) {
    in.nsrc = 4;
    apply(h, kEngine, in);
    h.cycle();
  };
  auto enq = [](unsigned q, unsigned node) {
    Inputs in;
    in.valid[0] = true;
    in.qid[0] = q;
    in.node[0] = node;
    return in;
  };
  SECTION("dequeue from an empty queue") {
    CHECK(run([&](auto& h) {
      Inputs in;
      in.deq = true;
      in.deq_qid = 3;
      step(h, in);
    }));
  }
  SECTION("dequeue from a queue index out of range") {
    CHECK(run([&](auto& h) {
      Inputs in;
      in.deq = true;
      in.deq_qid = 40;
      step(h, in);
    }));
  }
  SECTION("enqueue of a node already queued") {
    CHECK(run([&](auto& h) {
      step(h, enq(1, 7));
      step(h, enq(2, 7));
    }));
  }
  SECTION("enqueue to a queue index out of range") {
    CHECK(run([&](auto& h) { step(h, enq(50, 7)); }));
  }
  SECTION("legal traffic fires nothing") {
    CHECK_FALSE(run([&](auto& h) {
      step(h, enq(1, 7));
      Inputs in = enq(2, 7);  // 7 leaves queue 1 in this cycle: legal
      in.deq = true;
      in.deq_qid = 1;
      step(h, in);
    }));
  }
}
