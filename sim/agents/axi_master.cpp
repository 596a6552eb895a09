// SPDX-License-Identifier: Apache-2.0
#include "sim/agents/axi_master.hpp"

#include <stdexcept>

namespace sim {

AxiMaster::AxiMaster(const AxiSlavePorts& port, Rng& rng, Options opt)
    : p_(port), rng_(rng), opt_(opt) {}

void AxiMaster::write(AxiWrite w, WriteDone done) {
  if (w.beats.empty()) throw std::invalid_argument("AXI write without beats");
  if (on_submit_write_) on_submit_write_(w);
  auto p = std::make_unique<Wr>();
  p->t = std::move(w);
  p->done = std::move(done);
  wr_.push_back(std::move(p));
}

void AxiMaster::read(AxiRead r, ReadDone done) {
  if (on_submit_read_) on_submit_read_(r);
  auto p = std::make_unique<Rd>();
  p->t = std::move(r);
  p->done = std::move(done);
  rd_.push_back(std::move(p));
}

void AxiMaster::on_reset() {
  *p_.awvalid = 0;
  *p_.wvalid = 0;
  *p_.bready = 0;
  *p_.arvalid = 0;
  *p_.rready = 0;
  aw_drv_ = w_drv_ = nullptr;
  ar_drv_ = nullptr;
}

AxiMaster::Wr* AxiMaster::aw_candidate() {
  for (auto& w : wr_) {
    if (!w->aw_done) return w.get();
  }
  return nullptr;
}

AxiMaster::Wr* AxiMaster::w_candidate() {
  for (auto& w : wr_) {
    if (w->beats_sent < w->t.beats.size()) {
      if (w->aw_done || opt_.w_with_aw) return w.get();
      return nullptr;
    }
  }
  return nullptr;
}

void AxiMaster::drive(uint64_t cycle) {
  (void)cycle;
  // AW: keep a presented address until it is accepted.
  if (aw_drv_ == nullptr) {
    Wr* c = aw_candidate();
    if (c != nullptr && !rng_.percent(opt_.aw_gap_pct)) aw_drv_ = c;
  }
  if (aw_drv_ != nullptr) {
    const AxiWrite& t = aw_drv_->t;
    *p_.awvalid = 1;
    *p_.awaddr = t.addr;
    *p_.awlen = static_cast<uint8_t>(t.len >= 0 ? t.len : int(t.beats.size()) - 1);
    *p_.awsize = t.size;
    *p_.awburst = t.burst;
    *p_.awid = t.id;
  } else {
    *p_.awvalid = 0;
  }

  // W
  if (w_drv_ == nullptr) {
    Wr* c = w_candidate();
    if (c != nullptr && !rng_.percent(opt_.w_gap_pct)) w_drv_ = c;
  }
  if (w_drv_ != nullptr) {
    const AxiBeat& b = w_drv_->t.beats[w_drv_->beats_sent];
    *p_.wvalid = 1;
    p_.wdata.set<2>(std::array<uint64_t, 2>{b.lo, b.hi});
    *p_.wstrb = b.strb;
    *p_.wlast = b.last;
  } else {
    *p_.wvalid = 0;
  }

  bready_ = !rng_.percent(opt_.bready_low_pct);
  *p_.bready = bready_;

  // AR
  if (ar_drv_ == nullptr) {
    for (auto& r : rd_) {
      if (!r->ar_done) {
        ar_drv_ = r.get();
        break;
      }
    }
  }
  if (ar_drv_ != nullptr) {
    const AxiRead& t = ar_drv_->t;
    *p_.arvalid = 1;
    *p_.araddr = t.addr;
    *p_.arlen = t.len;
    *p_.arsize = t.size;
    *p_.arburst = t.burst;
    *p_.arid = t.id;
  } else {
    *p_.arvalid = 0;
  }
  rready_ = !rng_.percent(opt_.rready_low_pct);
  *p_.rready = rready_;
}

void AxiMaster::sample(uint64_t cycle) {
  if (aw_drv_ != nullptr && *p_.awready) {
    aw_drv_->aw_done = true;
    aw_drv_->t.aw_cycle = cycle;
    if (on_aw_) on_aw_(aw_drv_->t, cycle);
    aw_drv_ = nullptr;
  }
  if (w_drv_ != nullptr && *p_.wready) {
    ++w_drv_->beats_sent;
    w_drv_ = nullptr;
  }
  if (*p_.bvalid && bready_) {
    Wr* match = nullptr;
    for (auto& w : wr_) {
      if (!w->b_done && w->aw_done && w->beats_sent == w->t.beats.size() && w->t.id == *p_.bid) {
        match = w.get();
        break;
      }
    }
    if (match == nullptr) throw std::runtime_error("AXI B response without a matching write");
    match->b_done = true;
    match->t.resp = *p_.bresp;
    match->t.b_cycle = cycle;
  }
  while (!wr_.empty() && wr_.front()->b_done) {
    auto w = std::move(wr_.front());
    wr_.pop_front();
    if (w->done) w->done(w->t);
  }

  if (ar_drv_ != nullptr && *p_.arready) {
    ar_drv_->ar_done = true;
    ar_drv_->t.ar_cycle = cycle;
    ar_drv_ = nullptr;
  }
  if (*p_.rvalid && rready_) {
    Rd* r = nullptr;
    for (auto& c : rd_) {
      if (c->ar_done) {
        r = c.get();
        break;
      }
    }
    if (r == nullptr) throw std::runtime_error("AXI R beat without a read in flight");
    const auto data = p_.rdata.get<2>();
    r->t.data.push_back(data[0]);
    r->t.resp.push_back(*p_.rresp);
    const bool last_expected = r->t.data.size() == std::size_t(r->t.len) + 1;
    if (bool(*p_.rlast) != last_expected) r->t.last_ok = false;
    if (*p_.rlast || last_expected) {
      r->t.r_cycle = cycle;
      auto done = std::move(rd_.front());
      rd_.pop_front();
      if (done->done) done->done(done->t);
    }
  }
}

}  // namespace sim
