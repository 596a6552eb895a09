// SPDX-License-Identifier: Apache-2.0
// The network side: acknowledges every issued block and inline packet after a random
// latency, out of order within a reorder window, and injects NACKs, duplicate, stale-seq and
// unknown-TID responses on request. In script mode it sends only the responses it is given.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <vector>

#include "sim/core/component.hpp"
#include "sim/core/events.hpp"
#include "sim/core/ports.hpp"
#include "sim/core/rng.hpp"

namespace sim {

struct ResponderOptions {
  bool auto_mode = true;
  unsigned lat_min = 1;  // cycles from the block/packet handshake to the response
  unsigned lat_max = 1;
  unsigned reorder_window = 1;  // choose among the first N ready responses
  double nack_pct = 0;          // real responses that are NACKs (percent, fractions allowed)
  double dup_pct = 0;           // extra duplicate of a response already sent
  double stale_pct = 0;         // extra response with a wrong seq for a pending TID
  double unknown_pct = 0;       // extra response for a TID with nothing pending
  unsigned idle_pct = 0;        // chance of not offering a response in a cycle
  // Fault modes for retransmission (ICD 14; they need a timeout, else a transfer waits for
  // ever): a lost response is never sent; a NACK storm turns `storm_len` responses in a row
  // into NACKs; a late response comes `late_delay` cycles after its due time (so, with a
  // short timeout, after the block's re-issue: a stale ACK).
  double lose_pct = 0;                    // real responses lost
  double storm_pct = 0;                   // real responses that start a NACK storm
  unsigned storm_min = 1, storm_max = 1;  // responses NACKed by one storm
  double late_pct = 0;                    // real responses delayed
  unsigned late_min = 1, late_max = 1;    // the delay, cycles
};

class Responder : public Component, public Listener {
 public:
  Responder(const RspInPorts& port, Rng& rng, ResponderOptions opt);
  // rsp_t {seq, tid, nack} as the port carries it.
  static uint32_t encode(uint16_t tid, uint16_t seq, bool nack);

  void set_options(const ResponderOptions& o) { opt_ = o; }
  const ResponderOptions& options() const { return opt_; }
  // A raw response: sent at `at` or as soon as the port is free after it, before any
  // automatic response (script mode sends only these).
  void script(uint64_t at, uint16_t tid, uint16_t seq, bool nack);
  // Called whenever a response starts being offered (the recorder's view).
  using PresentHook = std::function<void(uint64_t cycle, uint16_t tid, uint16_t seq, bool nack)>;
  void on_present(PresentHook h) { on_present_ = std::move(h); }

  // Listener: learn about issued blocks and packets.
  void on_block(const BlockEvent& e) override;
  void on_packet(const PacketEvent& e) override;

  void on_reset() override;
  void drive(uint64_t cycle) override;
  void sample(uint64_t cycle) override;
  bool busy() const override { return !pending_.empty() || !script_.empty() || presenting_; }

  // Statistics: deepest reordering seen (how many older responses a response overtook).
  unsigned max_overtake() const { return max_overtake_; }
  uint64_t sent() const { return sent_; }
  uint64_t injected() const { return injected_; }
  uint64_t lost() const { return lost_; }
  uint64_t late() const { return late_; }

 private:
  struct Pending {
    uint64_t ready;  // earliest cycle
    uint64_t order;  // issue order
    uint16_t tid;
    uint16_t seq;
    bool nack;
  };
  void expect(uint64_t cycle, uint16_t tid, uint16_t seq);

  RspInPorts p_;
  Rng& rng_;
  ResponderOptions opt_;
  std::vector<Pending> pending_;  // auto mode, sorted by issue order
  std::deque<Pending> script_;    // script mode, in `at` order
  std::vector<Pending> recent_;   // recently answered (for duplicates)
  bool presenting_ = false;
  Pending cur_{};
  bool cur_real_ = false;  // cur_ comes from pending_ (not an injected extra)
  uint64_t order_ = 0;
  unsigned max_overtake_ = 0;
  uint64_t sent_ = 0;
  uint64_t injected_ = 0;
  uint64_t lost_ = 0, late_ = 0;
  unsigned storm_left_ = 0;  // NACKs still to come in the current storm
  PresentHook on_present_;
  std::vector<std::size_t> scratch_;  // reused every cycle
};

}  // namespace sim
