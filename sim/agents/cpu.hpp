// SPDX-License-Identifier: Apache-2.0
// The simulated CPU of random runs: issues random transfer descriptors to free write
// channels over the AXI master (64- and 128-bit beats, bursts, random legal word orders),
// a configurable share of deliberately illegal writes, and polls the status of its live
// transfers with single-channel and 32-channel reads. It never needs the model: it learns
// whether a descriptor went live from the B responses and when it finished from the polls.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "ref_model/common/descriptor.hpp"
#include "sim/agents/axi_master.hpp"
#include "sim/core/component.hpp"
#include "sim/core/rng.hpp"

namespace sim {

struct TrafficConfig {
  uint64_t transfers = 1000;     // legal transfers to complete
  uint32_t max_size = 1u << 20;  // largest memory transfer, bytes
  // kind shares (relative weights)
  unsigned w_tid = 30, w_1x = 25, w_4x = 20, w_inline = 25;
  unsigned notify_pct = 20;       // memory transfers with a completion notification
  unsigned inline_long_pct = 10;  // inline transfers of <= 16 bytes written as long
  unsigned illegal_pct = 5;       // deliberately illegal descriptor writes / AXI errors
  unsigned illegal_read_pct = 2;  // illegal reads among the polls
  unsigned stat_read_pct = 2;     // statistics / control register reads among the polls
  std::vector<unsigned> pages = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
  unsigned prio_max = 15;
  // size classes (relative weights) and alignment
  unsigned w_edge = 10, w_small = 30, w_medium = 30, w_large = 30;
  unsigned aligned_pct = 25;  // dst aligned to a block boundary
  // AXI write shapes
  unsigned wide_pct = 70;   // 16-byte beats (else 8-byte)
  unsigned burst_pct = 50;  // one burst per descriptor (else one transaction per beat)
  // polling
  unsigned poll_interval = 8;      // cycles between status reads
  unsigned multi_pct = 50;         // 32-channel reads (else single-channel)
  unsigned max_live = 512;         // live transfers at once
  unsigned max_queued_writes = 8;  // AXI writes waiting in the master
  // RDMA Read (ICD 16): the share of memory transfers (tid, 1x, 4x) that are reads. Drawn
  // only when above 0, so 0 keeps every seed's random stream as it was before reads.
  unsigned read_pct = 0;
  // Full NI (ICD 15), set by the N-node test bench, not by the configuration file: with
  // `nodes` >= 1 the destination node is drawn among 0..nodes-1, sources lie below 2^47 and
  // destinations and notification addresses at or above 2^47, each in lines of its own that
  // no other transfer of the run writes (this CPU owns [2^47 + self_node * 2^40, +2^40)).
  unsigned nodes = 0;
  unsigned self_node = 0;
};

class Cpu : public Component {
 public:
  Cpu(AxiMaster& axi, Rng& rng, TrafficConfig cfg, unsigned acc_sets);

  void drive(uint64_t cycle) override;
  bool busy() const override { return !done(); }
  // Every requested transfer went live and was seen finished.
  bool done() const { return live_ >= cfg_.transfers && busy_count_ == 0 && writing_ == 0; }

  uint64_t transfers_live() const { return live_; }
  uint64_t seen_done() const { return seen_done_; }
  uint64_t seen_error() const { return seen_error_; }
  uint64_t illegal_sent() const { return illegal_sent_; }
  uint64_t illegal_rejected() const { return illegal_rejected_; }
  uint64_t unexpected_rejects() const { return unexpected_rejects_; }
  uint64_t reads() const { return reads_; }
  // Stops issuing anything (descriptors, polls): the end of a run, before its read-back.
  void stop() { stopped_ = true; }

  // One random descriptor as the CPU draws it for a legal transfer (public for the unit
  // tests); its `read` marks an RDMA Read (ICD 16), whose words carry control bit 40.
  ni::Descriptor random_descriptor(unsigned page, unsigned ch);

 private:
  enum class Ch : uint8_t { Free, Writing, Busy, Reserved };

  void issue_descriptor(uint64_t cycle, bool intruder);
  // A write channel of a page.
  struct Target {
    unsigned page, ch;
  };
  void issue_illegal(uint64_t cycle);
  std::vector<uint64_t> illegal_line(unsigned kind, const ni::Descriptor& d, Target& t,
                                     std::string& how);
  bool illegal_busy_channel(const ni::Descriptor& d);
  void illegal_axi(unsigned kind, const ni::Descriptor& d, const Target& t);
  void count_illegal(bool accepted);
  void issue_poll(uint64_t cycle);
  bool pick_channel(bool need_even_pair, unsigned& page, unsigned& ch);
  uint32_t random_size(bool inline_kind);
  // Writes the descriptor's words; `done(ok)` when every write has answered.
  void write_words(unsigned page, unsigned ch, const std::vector<uint64_t>& words,
                   std::function<void(bool ok)> done);
  void finish_channel(unsigned wch, bool error);
  // [a, a+n) in lines of its own in this CPU's destination region (nodes >= 1).
  uint64_t alloc_dst(uint64_t n, bool block_aligned);

  AxiMaster& axi_;
  Rng& rng_;
  TrafficConfig cfg_;
  unsigned acc_sets_;
  std::array<Ch, 1024> ch_{};
  std::array<bool, 1024> long_{};
  std::array<uint8_t, 1024> early_{};  // code seen by a 32-channel read before the B response
  std::array<uint8_t, 1024> hold_{};   // writes in flight that rely on the channel staying non-IDLE
  uint64_t live_ = 0;                  // transfers that went live
  unsigned busy_count_ = 0;            // live, not yet seen finished
  unsigned writing_ = 0;               // descriptors with writes in flight
  uint64_t seen_done_ = 0, seen_error_ = 0;
  uint64_t illegal_sent_ = 0, illegal_rejected_ = 0, unexpected_rejects_ = 0;
  uint64_t reads_ = 0;
  bool read_pending_ = false;
  uint64_t next_poll_ = 0;
  uint64_t dst_next_ = 0;
  bool stopped_ = false;  // next free byte of the destination region (nodes >= 1)
};

}  // namespace sim
