// SPDX-License-Identifier: Apache-2.0
#include "ref_model/qos/cpu_port_model.hpp"

#include <algorithm>

#include "ref_model/common/format_util.hpp"
#include "ref_model/qos/queues.hpp"
#include "ref_model/qos/segmentation.hpp"

namespace ni {

CpuPortModel::CpuPortModel(EngineState& st, EngineScoreboard& sb) : st_(st), sb_(sb), axi_(st.cfg) {
  axi_.status().set_listener([this](unsigned wch, Status from, Status to) {
    model_changes_.push_back(StIn{wch, from, to});
  });
}

void CpuPortModel::reads(uint64_t c) {
  (void)c;
  for (const ArFields& a : ar_) {
    ++st_.metrics.reads;
    if (!read_is_legal(a)) {
      for (unsigned i = 0; i <= a.len; ++i) {
        sb_.expect_r(a.id, 0, AxiResp::Slverr, i == a.len, "illegal read " + detail::hex64(a.addr));
      }
      continue;
    }
    const unsigned region = region_of(a.addr);
    const unsigned page = (a.addr >> 12) & 0xF;
    uint64_t v = 0;
    std::string what;
    if (region == RegionStatus1) {
      const unsigned ch = (a.addr >> 5) & 0x3F;
      v = static_cast<uint64_t>(axi_.status().get(wch_index(page, ch)));
      read_clears_.push_back(ReadClear{true, page, ch});
      what = "status of page " + std::to_string(page) + " channel " + std::to_string(ch);
    } else if (region == RegionStatus32) {
      const unsigned half = (a.addr >> 10) & 1;
      v = axi_.status().peek32(page, half);
      read_clears_.push_back(ReadClear{false, page, half});
      what = "32-channel status of page " + std::to_string(page) + " half " + std::to_string(half);
    } else if (region == RegionStats) {
      const unsigned idx = (a.addr >> 4) & 0x3F;
      if (st_.cfg.node_regs && idx >= NodeStatBase && idx < NodeStatBase + NumNodeStats) {
        sb_.expect_r_any_data(a.id, AxiResp::Okay, true,
                              "statistics counter " + std::to_string(idx) + " (node)");
        continue;
      }
      v = st_.stats.read(idx);
      what = "statistics counter " + std::to_string(idx) +
             (idx < NumStats ? std::string(" (") + to_string(Stat(idx)) + ")" : "");
      if (st_.cfg.node_regs && idx >= RdStatBase && idx < RdStatBase + NumRdStats) {
        v = st_.rd_ctr[idx - RdStatBase];  // the read-channel allocator's (ICD 16)
        what = "statistics counter " + std::to_string(idx) + " (read-channel allocator)";
      }
    } else {
      v = axi_.ctrl().read(a.addr);
      what = "control register " + detail::hex64(a.addr);
    }
    sb_.expect_r(a.id, v, AxiResp::Okay, true, what);
  }
}

void CpuPortModel::writes(uint64_t c) {
  // The register's request, as it stood at the start of the cycle: granted when neither the
  // Message Handler nor the segmenter enqueues in this cycle (they were seen before this).
  const std::optional<Enq> held = enq_pend_;
  const bool pend_at_start = held.has_value();
  if (st_.taps.axi_enq_req != pend_at_start) {
    st_.fail(c, std::string("AXI slave ") + (st_.taps.axi_enq_req
                                                 ? "requests an enqueue, none expected"
                                                 : "requests no enqueue, one expected (transfer " +
                                                       std::to_string(held->xfer) + ")"));
    return;
  }
  if (enq_pend_ && st_.exp_enq.empty()) {
    st_.exp_enq.push_back(*enq_pend_);
    enq_pend_.reset();
  }
  for (const AwFields& a : aw_) axi_.write_address(a);
  if (w_.size() > 1) st_.fail(c, "more than one W beat in a cycle");
  for (const WBeat& wb : w_) {
    if (!axi_.write_open()) {
      st_.fail(c, "W beat accepted without an open write address");
      return;
    }
    const WriteBeatOutcome out = axi_.write_beat(wb);
    if (st_.observer) st_.observer->on_beat(c, out);
    for (unsigned x : out.desc.live) {
      Xfer& X = st_.xf[x];
      if (X.where != Where::Idle) {
        st_.fail(c, "transfer " + std::to_string(x) + " went live while still active", "", int(x));
      }
      X = Xfer{};
      X.d = axi_.desc().table_descriptor(x);
      X.total = X.d.kind == Kind::Inline ? 1 : total_blocks(X.d.dst, X.d.size);
      X.own_qid = queue_index(X.d.kind, X.d.prio, true, st_.cfg.intra_prios);
      X.live_cycle = c;
      if (pend_at_start) {
        st_.fail(c,
                 "transfer " + std::to_string(x) +
                     " went live while the AXI slave's enqueue register still held transfer " +
                     std::to_string(held->xfer),
                 "", int(x));
      }
      enq_pend_ = Enq{2, queue_index(X.d.kind, X.d.prio, false, st_.cfg.intra_prios), x};
      X.where = Where::Queued;
      st_.stats.inc(Stat::DescAccepted);
      ++st_.metrics.live;
      ++st_.metrics.live_now;
      if (live_hook_) live_hook_(x, X.d, c);
    }
    if (out.txn_done) {
      sb_.expect_b(out.id, out.resp);
      if (out.resp == AxiResp::Slverr) {
        st_.stats.inc(Stat::WriteRejected);
        ++st_.metrics.slverr;
      }
    }
  }
}

void CpuPortModel::apply_status(uint64_t c) {
  StatusRegs& regs = axi_.status();
  // Go-live changes were made by the AXI model in writes(); reads clear what they reported
  // (DONE/ERROR at the start of the cycle), then the handler's finishes land. The status
  // listener collects every change in model_changes_.
  for (const ReadClear& r : read_clears_) {
    if (r.single) {
      regs.read_single(r.page, r.index);
    } else {
      regs.read32(r.page, r.index);
    }
  }
  for (const auto& [wch, to] : st_.finishes) {
    if (!regs.finish(wch, to == Status::Error)) {
      st_.fail(c, "finish of write channel " + std::to_string(wch) + " that is not BUSY");
      return;
    }
  }
  if (model_changes_.empty() && dut_changes_.empty()) return;  // most cycles
  auto by_wch = [](const StIn& a, const StIn& b) { return a.wch < b.wch; };
  std::sort(model_changes_.begin(), model_changes_.end(), by_wch);
  std::sort(dut_changes_.begin(), dut_changes_.end(), by_wch);
  bool same = model_changes_.size() == dut_changes_.size();
  for (std::size_t i = 0; same && i < model_changes_.size(); ++i) {
    const StIn& m = model_changes_[i];
    const StIn& a = dut_changes_[i];
    same = m.wch == a.wch && m.from == a.from && m.to == a.to;
  }
  if (!same) {
    auto list = [](const std::vector<StIn>& v) {
      std::string s;
      for (const auto& x : v) {
        s += " ch" + std::to_string(x.wch) + " " + to_string(x.from) + "->" + to_string(x.to);
      }
      return s;
    };
    st_.fail(c, "status changes differ",
             "  expected:" + list(model_changes_) + "\n  actual:  " + list(dut_changes_) + "\n");
  }
}

void CpuPortModel::end_cycle() {
  aw_.clear();
  w_.clear();
  ar_.clear();
  dut_changes_.clear();
  model_changes_.clear();
  read_clears_.clear();
}

}  // namespace ni
