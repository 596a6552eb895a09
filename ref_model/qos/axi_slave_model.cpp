// SPDX-License-Identifier: Apache-2.0
#include "ref_model/qos/axi_slave_model.hpp"

#include <stdexcept>

namespace ni {

AxiSlaveModel::AxiSlaveModel(const Config& cfg)
    : desc_(cfg), ctrl_(cfg.node_regs, cfg.node_id), node_regs_(cfg.node_regs) {}

void AxiSlaveModel::reset() {
  desc_.reset();
  ctrl_.reset();
  stats_.reset();
  aw_q_.clear();
}

void AxiSlaveModel::write_address(const AwFields& aw) {
  OpenWrite w;
  w.aw = aw;
  w.slverr = check_aw(aw) != AwError::None;
  aw_q_.push_back(w);
}

WriteBeatOutcome AxiSlaveModel::write_beat(const WBeat& beat) {
  if (aw_q_.empty()) throw std::logic_error("AxiSlaveModel::write_beat without write address");
  OpenWrite& t = aw_q_.front();
  WriteBeatOutcome o;
  o.id = t.aw.id;
  o.beat = t.next_beat;
  o.decode = decode_write_beat(t.aw, t.next_beat, beat, node_regs_);
  if (o.decode.dropped()) {
    o.slverr = true;
  } else if (region_of(t.aw.addr) == RegionCtrl) {
    for (const WordWrite& w : o.decode.words) ctrl_.write_word(w.addr, w.data);
  } else {
    o.desc = desc_.apply_beat(o.decode.words);
    o.slverr = o.desc.slverr;
    stats_.inc(Stat::DescAccepted, o.desc.live.size());
  }
  t.slverr = t.slverr || o.slverr;
  ++t.next_beat;
  if (t.next_beat > t.aw.len) {
    o.txn_done = true;
    o.resp = t.slverr ? AxiResp::Slverr : AxiResp::Okay;
    if (t.slverr) stats_.inc(Stat::WriteRejected);
    aw_q_.pop_front();
  }
  return o;
}

AxiResp AxiSlaveModel::write(const AwFields& aw, const std::vector<WBeat>& beats,
                             std::vector<WriteBeatOutcome>* outcomes) {
  write_address(aw);
  AxiResp resp = AxiResp::Okay;
  for (const WBeat& b : beats) {
    WriteBeatOutcome o = write_beat(b);
    if (o.txn_done) resp = o.resp;
    if (outcomes) outcomes->push_back(std::move(o));
  }
  return resp;
}

ReadOutcome AxiSlaveModel::read(const ArFields& ar) {
  ReadOutcome o;
  o.id = ar.id;
  if (!read_is_legal(ar)) {
    o.resp = AxiResp::Slverr;
    o.data.assign(unsigned{ar.len} + 1, 0);
    return o;
  }
  const uint32_t a = ar.addr;
  const unsigned page = (a >> 12) & 0xF;
  uint64_t v = 0;
  switch (region_of(a)) {
    case RegionStatus1:
      v = static_cast<uint64_t>(desc_.status().read_single(page, (a >> 5) & 0x3F));
      break;
    case RegionStatus32:
      v = desc_.status().read32(page, (a >> 10) & 1);
      break;
    case RegionStats:
      v = stats_.read((a >> 4) & 0x3F);
      break;
    case RegionCtrl:
      v = ctrl_.read(a);
      break;
    default:
      break;
  }
  o.data.push_back(v);
  return o;
}

}  // namespace ni
