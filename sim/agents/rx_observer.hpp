// SPDX-License-Identifier: Apache-2.0
// What a node's receive unit decided in one cycle, seen at its ports, in the order the
// receive-unit golden model (ref_model/recv RecvChecker) takes it: a response offered on
// rsp_tx (reported once, at its first valid cycle), write bursts complete (AW paired with its
// W beats in order), B responses. Header-only, on the port bundles of sim/core/ports.hpp, so
// the directed tests, the benchmarks and ni_sim's RecvUnitChecker observe alike.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <string>
#include <utility>
#include <vector>

#include "ref_model/common/wire.hpp"
#include "ref_model/recv/recv_model.hpp"
#include "sim/core/ports.hpp"

namespace sim {

class RxObserver {
 public:
  RxObserver(const AxiMemPorts& mem, const StreamTxPorts& rsp_tx) : mem_(mem), rsp_tx_(rsp_tx) {}

  // Feeds this cycle's decisions to `chk`; returns its mismatches.
  std::vector<std::string> watch(ni::RecvChecker& chk, uint64_t cycle) {
    std::vector<std::string> out;
    auto add = [&out](std::vector<std::string> v) {
      for (auto& e : v) out.push_back(std::move(e));
    };
    if (*rsp_tx_.valid && !rsp_offered_) {
      rsp_offered_ = true;
      add(chk.on_rsp_tx(ni::WirePacket{{rsp_tx_.data.get<8>()}}, cycle));
    }
    if (*rsp_tx_.valid && *rsp_tx_.ready) rsp_offered_ = false;
    if (*mem_.awvalid && !aw_offered_) {
      aw_offered_ = true;
      aw_first_ = cycle;
    }
    if (*mem_.awvalid && *mem_.awready) {
      aw_offered_ = false;
      ni::RxBurst b;
      b.aw_cycle = aw_first_;
      b.done_cycle = cycle;
      b.addr = *mem_.awaddr;
      b.len = *mem_.awlen;
      b.size = *mem_.awsize;
      b.burst = *mem_.awburst;
      aws_.push_back(b);
    }
    if (*mem_.wvalid && *mem_.wready) {
      w_cur_.data.push_back(mem_.wdata.get<8>());
      w_cur_.strb.push_back(*mem_.wstrb);
      w_cur_.done_cycle = cycle;
      if (*mem_.wlast) {
        ws_.push_back(std::move(w_cur_));
        w_cur_ = ni::RxBurst{};
      }
    }
    while (!aws_.empty() && !ws_.empty()) {
      ni::RxBurst b = aws_.front();
      b.data = std::move(ws_.front().data);
      b.strb = std::move(ws_.front().strb);
      b.done_cycle = std::max(b.done_cycle, ws_.front().done_cycle);
      b.wlast_ok = b.data.size() == b.len + 1;
      aws_.pop_front();
      ws_.pop_front();
      add(chk.on_burst(b));
    }
    if (*mem_.bvalid && *mem_.bready) add(chk.on_b(cycle));
    return out;
  }
  // A burst still being assembled (AW without its W beats, or the reverse).
  bool pending() const { return !aws_.empty() || !ws_.empty() || !w_cur_.data.empty(); }

 private:
  AxiMemPorts mem_;
  StreamTxPorts rsp_tx_;
  bool rsp_offered_ = false, aw_offered_ = false;
  uint64_t aw_first_ = 0;
  std::deque<ni::RxBurst> aws_;  // AW handshakes awaiting their W beats
  std::deque<ni::RxBurst> ws_;   // complete W bursts awaiting their AW
  ni::RxBurst w_cur_;
};

}  // namespace sim
