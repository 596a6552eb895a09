// SPDX-License-Identifier: Apache-2.0
// Functional coverage of a run (ni_sim --coverage FILE): a Listener on the monitor's events
// plus an observer of the golden model's decisions (ref_model ModelObserver). Every bin is
// declared up front, so a report lists what was never hit; bins that cannot be reached by
// construction carry the reason. scripts/coverage_report.py merges the JSON files of several
// runs and writes the readable report.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <unordered_map>
#include <vector>

#include "ref_model/qos/engine_model.hpp"
#include "sim/core/events.hpp"

namespace sim {

// Named groups of named counters.
class CoverageDb {
 public:
  // Declares a bin (count 0). `unreachable`: why the bin cannot be hit (then it is listed
  // apart and not counted as a hole).
  void declare(const std::string& group, const std::string& bin,
               const std::string& unreachable = "");
  void describe(const std::string& group, const std::string& text) {
    groups_[index(group)].description = text;
  }
  // Counts a hit; a bin that was not declared is an error (std::logic_error).
  void hit(const std::string& group, const std::string& bin, uint64_t n = 1);
  nlohmann::json to_json() const;

 private:
  struct Bin {
    std::string name;
    uint64_t count = 0;
    std::string unreachable;
  };
  struct Group {
    std::string name;
    std::string description;
    std::vector<Bin> bins;
    std::unordered_map<std::string, std::size_t> by_name;
  };
  std::size_t index(const std::string& group);
  std::vector<Group> groups_;
  std::unordered_map<std::string, std::size_t> by_name_;
};

// Writes `db` as a coverage file ("ni-fcov/1"); `source` says which run it comes from.
void write_coverage_file(const std::string& path, const CoverageDb& db,
                         const nlohmann::json& source);

class FunctionalCoverage : public Listener, public ni::ModelObserver {
 public:
  explicit FunctionalCoverage(const ni::EngineModel& model);
  // Subscribes to the engine's event bus and observes its golden model.
  void attach(EventBus& bus, ni::EngineModel& model);
  // Writes the coverage as JSON; `source` says which run it comes from.
  void write(const std::string& path, const nlohmann::json& source) const;
  const CoverageDb& db() const { return db_; }

  // Listener
  void on_aw(const AwEvent& e) override;
  void on_w(const WEvent& e) override;
  void on_ar(const ArEvent& e) override;
  void on_r(const REvent& e) override;
  void on_rsp(const RspEvent& e) override;
  void on_status(const StatusEvent& e) override;
  void on_tap(const TapEvent& e) override;
  void end_of_cycle(uint64_t cycle) override;

  // ni::ModelObserver
  void on_beat(uint64_t cycle, const ni::WriteBeatOutcome& o) override;
  void on_mh(uint64_t cycle, Mh path, unsigned xfer) override;
  void on_s2(uint64_t cycle, const S2Event& e) override;
  void on_pick(uint64_t cycle, Pick p) override;

 private:
  void declare_bins();
  void descriptor_live(unsigned xfer);

  // How the words of one Transfer Table line arrived.
  struct LineShape {
    unsigned widths =
        0;  // bit 0: 8-byte beat, 1: 16-byte beat (both lanes), 2: one lane of a 16-byte beat
    std::vector<unsigned> order;  // word indices in arrival order
    std::vector<uint64_t> txns;   // write transactions (serials) that carried its words
  };
  struct AwTrack {
    uint64_t serial;
    uint8_t size, len;
    unsigned next = 0;
  };
  struct WInfo {
    uint64_t serial;
    uint8_t size;
  };
  struct Outstanding {
    uint64_t order;
    uint64_t cycle;
  };

  const ni::EngineModel& model_;
  CoverageDb db_;
  // AXI write shapes
  std::deque<AwTrack> aw_;
  uint64_t aw_serial_ = 0;
  std::deque<WInfo> w_;                    // W beats of this cycle, waiting for the model's outcome
  std::map<unsigned, LineShape> partial_;  // line (xfer id) -> words so far
  std::map<unsigned, LineShape> complete_;  // line -> shape of its last completed write
  struct Pend {
    bool valid = false;
    unsigned page = 0, channel = 0;
  };
  std::vector<Pend> pend_;  // pending long descriptor per accumulator set, as last seen
  // reads
  std::deque<uint32_t> ar_addr_;
  // responses: issued (tid, seq) -> issue order and cycle
  std::unordered_map<uint32_t, Outstanding> out_;
  std::map<uint64_t, uint32_t> out_order_;
  uint64_t issue_serial_ = 0;
  std::vector<RspEvent> rsp_;  // handshakes of this cycle
  // stalls
  uint64_t blk_run_ = 0, pkt_run_ = 0;
  bool init_done_ = false;
};

}  // namespace sim
