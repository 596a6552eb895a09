// SPDX-License-Identifier: Apache-2.0
#include "sim/agents/responder.hpp"

#include <algorithm>

#include "ni_pkg_gen.hpp"
#include "ref_model/common/bits.hpp"

namespace sim {

namespace pkg = ni::ni_pkg;

Responder::Responder(const RspInPorts& port, Rng& rng, ResponderOptions opt)
    : p_(port), rng_(rng), opt_(opt) {}

uint32_t Responder::encode(uint16_t tid, uint16_t seq, bool nack) {
  uint64_t v = 0;
  v = ni::put_bits(v, pkg::rsp_t::seq, seq);
  v = ni::put_bits(v, pkg::rsp_t::tid, tid);
  v = ni::put_bits(v, pkg::rsp_t::nack, nack);
  return static_cast<uint32_t>(v);
}

void Responder::script(uint64_t at, uint16_t tid, uint16_t seq, bool nack) {
  script_.push_back(Pending{at, order_++, tid, seq, nack});
}

void Responder::expect(uint64_t cycle, uint16_t tid, uint16_t seq) {
  if (!opt_.auto_mode) return;
  uint64_t lat = rng_.range(opt_.lat_min, std::max(opt_.lat_min, opt_.lat_max));
  bool nack = rng_.chance(opt_.nack_pct);
  // Fault modes (each draws only when configured, so other runs keep their random streams).
  if (opt_.lose_pct > 0 && rng_.chance(opt_.lose_pct)) {
    ++lost_;
    return;
  }
  if (storm_left_ == 0 && opt_.storm_pct > 0 && rng_.chance(opt_.storm_pct)) {
    storm_left_ = unsigned(rng_.range(opt_.storm_min, std::max(opt_.storm_min, opt_.storm_max)));
  }
  if (storm_left_ > 0) {
    --storm_left_;
    nack = true;
  }
  if (opt_.late_pct > 0 && rng_.chance(opt_.late_pct)) {
    lat += rng_.range(opt_.late_min, std::max(opt_.late_min, opt_.late_max));
    ++late_;
  }
  pending_.push_back(Pending{cycle + lat, order_++, tid, seq, nack});
}

void Responder::on_block(const BlockEvent& e) {
  const auto seq = ni::get_field(e.desc, pkg::blk_desc_t::seq);
  expect(e.cycle, e.tid, uint16_t(seq));
}

void Responder::on_packet(const PacketEvent& e) {
  const uint64_t h = e.data[0];  // header bits 63:0
  const uint64_t kind = ni::take_bits(h, pkg::pkt_hdr_t::kind);
  if (kind != pkg::PktKindInline && kind != pkg::PktKindRead) {
    return;  // control packets are not acknowledged; inline packets and read requests are
  }
  expect(e.cycle, uint16_t(ni::take_bits(h, pkg::pkt_hdr_t::tid)),
         uint16_t(ni::take_bits(h, pkg::pkt_hdr_t::seq)));
}

void Responder::on_reset() {
  *p_.valid = 0;
  *p_.rsp = 0;
  presenting_ = false;
}

void Responder::drive(uint64_t cycle) {
  if (!presenting_) {
    if (!script_.empty() && script_.front().ready <= cycle) {
      cur_ = script_.front();
      script_.pop_front();
      presenting_ = true;
      cur_real_ = false;
    } else if (opt_.auto_mode && !rng_.percent(opt_.idle_pct)) {
      // Extras first: one draw decides whether this cycle offers a duplicate, a stale or an
      // unknown response (their shares are percentages of the cycles), none when all are 0.
      bool dup = false, stale = false, unknown = false;
      const double extra = opt_.dup_pct + opt_.stale_pct + opt_.unknown_pct;
      if (extra > 0) {
        const double r = double(rng_.range(0, 99999999)) / 1e6;  // [0, 100)
        if (r < opt_.dup_pct) {
          dup = !recent_.empty();
        } else if (r < opt_.dup_pct + opt_.stale_pct) {
          stale = !pending_.empty();
        } else if (r < extra) {
          unknown = true;
        }
      }
      if (dup) {
        cur_ = recent_[rng_.range(0, recent_.size() - 1)];
        presenting_ = true;
        cur_real_ = false;
      } else if (stale) {
        cur_ = pending_[rng_.range(0, pending_.size() - 1)];
        cur_.seq = uint16_t((cur_.seq + 1 + rng_.range(0, 0x3FFD)) & 0x3FFF);
        presenting_ = true;
        cur_real_ = false;
      } else if (unknown) {
        // A TID with nothing pending in the engine: the 4xFID range above any base in use is
        // not guaranteed free, so pick any TID the responder is not waiting for.
        uint16_t tid = uint16_t(rng_.range(0, 1023));
        for (int tries = 0; tries < 8; ++tries) {
          const bool used = std::any_of(pending_.begin(), pending_.end(),
                                        [&](const Pending& p) { return p.tid == tid; });
          if (!used) break;
          tid = uint16_t(rng_.range(0, 1023));
        }
        cur_ = Pending{cycle, 0, tid, uint16_t(rng_.range(0, 0x3FFF)), false};
        presenting_ = true;
        cur_real_ = false;
      } else {
        // Real responses: choose among the first `reorder_window` that are ready.
        std::vector<std::size_t>& ready = scratch_;
        ready.clear();
        for (std::size_t i = 0; i < pending_.size() && ready.size() < opt_.reorder_window; ++i) {
          if (pending_[i].ready <= cycle) ready.push_back(i);
        }
        if (!ready.empty()) {
          const std::size_t pick = ready[rng_.range(0, ready.size() - 1)];
          cur_ = pending_[pick];
          cur_real_ = true;
          presenting_ = true;
          max_overtake_ = std::max<unsigned>(max_overtake_, unsigned(pick));
          pending_.erase(pending_.begin() + std::ptrdiff_t(pick));
        }
      }
      if (presenting_ && !cur_real_) ++injected_;
    }
    if (presenting_ && on_present_) on_present_(cycle, cur_.tid, cur_.seq, cur_.nack);
  }
  *p_.valid = presenting_;
  *p_.rsp = presenting_ ? encode(cur_.tid, cur_.seq, cur_.nack) : 0;
}

void Responder::sample(uint64_t cycle) {
  (void)cycle;
  if (presenting_ && *p_.ready) {
    presenting_ = false;
    ++sent_;
    if (cur_real_) {
      recent_.push_back(cur_);
      if (recent_.size() > 64) recent_.erase(recent_.begin());
    }
  }
}

}  // namespace sim
