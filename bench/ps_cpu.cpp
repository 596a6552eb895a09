// SPDX-License-Identifier: Apache-2.0
#include "bench/ps_cpu.hpp"

#include <algorithm>
#include <cstdio>

namespace bench {

namespace {
std::string hex(uint32_t v) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%x", unsigned(v));
  return b;
}
}  // namespace

void PsCpu::at(uint64_t t, Action f) {
  timeline_.emplace(std::max(t, now_), std::move(f));
  if (!running_) run_due();
}

void PsCpu::run_due() {
  running_ = true;
  while (!timeline_.empty() && timeline_.begin()->first <= now_) {
    Action f = std::move(timeline_.begin()->second);
    timeline_.erase(timeline_.begin());
    f(now_);
  }
  running_ = false;
}

void PsCpu::post_edge(uint64_t cycle) {
  now_ = cycle + 1;
  run_due();
}

void PsCpu::store(uint64_t issue, sim::AxiWrite w) {
  ++in_flight_;
  at(issue + rtt_ / 2, [this, w](uint64_t) {
    axi_.write(w, [this](const sim::AxiWrite& t) {
      --in_flight_;
      if (t.resp != sim::kRespOkay && error_.empty()) {
        error_ =
            "store to " + hex(t.addr) + " answered SLVERR at cycle " + std::to_string(t.b_cycle);
      }
    });
  });
}

void PsCpu::load(uint64_t issue, sim::AxiRead r, LoadDone done) {
  ++in_flight_;
  at(issue + rtt_ / 2, [this, r, done](uint64_t) {
    axi_.read(r, [this, done](const sim::AxiRead& t) {
      --in_flight_;
      if ((t.resp.empty() || t.resp.front() != sim::kRespOkay || !t.last_ok) && error_.empty()) {
        error_ = "load from " + hex(t.addr) + " failed at cycle " + std::to_string(t.r_cycle);
      }
      at(t.r_cycle + (rtt_ - rtt_ / 2), [done, t](uint64_t now) { done(now, t); });
    });
  });
}

}  // namespace bench
