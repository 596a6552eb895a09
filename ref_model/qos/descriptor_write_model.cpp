// SPDX-License-Identifier: Apache-2.0
#include "ref_model/qos/descriptor_write_model.hpp"

#include <sstream>
#include <stdexcept>

#include "ref_model/qos/segmentation.hpp"

namespace ni {

std::string BeatResult::to_string() const {
  std::ostringstream os;
  os << "beat{";
  if (dropped) os << "dropped ";
  if (slverr) os << "SLVERR ";
  if (line_complete) os << (line1 ? "line1 " : "line ") << ni::to_string(verdict) << " ";
  for (unsigned x : live) os << "live=" << x << " ";
  for (const TableWrite& t : table_writes) os << "tt[" << t.line << "] ";
  os << "}";
  return os.str();
}

DescWordAddr decode_desc_addr(uint32_t addr) {
  return {(addr >> 12) & 0xF, (addr >> 5) & 0x7F, (addr >> 3) & 0x3};
}

DescriptorWriteModel::DescriptorWriteModel(const Config& cfg) : cfg_(cfg) {
  if (cfg_.acc_sets != 1 && cfg_.acc_sets != NumPages) {
    throw std::invalid_argument("AccSets must be 1 or 16");
  }
  reset();
}

void DescriptorWriteModel::reset() {
  sets_.assign(cfg_.acc_sets, AccSet{});
  status_.reset();
  table_.assign(NumXfers, Line{});
}

BeatResult DescriptorWriteModel::apply_beat(const BeatWords& words) {
  BeatResult r;
  if (words.empty()) return r;
  const DescWordAddr a0 = decode_desc_addr(words.front().addr);
  for (const WordWrite& w : words) {
    const DescWordAddr a = decode_desc_addr(w.addr);
    if (a.page != a0.page || a.channel != a0.channel) {
      throw std::invalid_argument("apply_beat: words of one beat must be in one line");
    }
  }
  AccSet& set = sets_.at(set_of(a0.page));
  Partial& p = set.partial;
  if (p.valid && (p.page != a0.page || p.channel != a0.channel)) {
    // Interleaving: the whole beat is dropped, the partial line kept.
    r.dropped = true;
    r.slverr = true;
    return r;
  }
  if (!p.valid) {
    p = Partial{};
    p.valid = true;
    p.page = a0.page;
    p.channel = a0.channel;
  }
  for (const WordWrite& w : words) {
    const unsigned i = decode_desc_addr(w.addr).word;
    p.words[i] = w.data;
    p.mask |= static_cast<uint8_t>(1u << i);
  }
  if (p.mask == 0xF) judge_complete(set, r);
  return r;
}

void DescriptorWriteModel::judge_complete(AccSet& set, BeatResult& r) {
  const Partial line = set.partial;
  set.partial = Partial{};  // complete lines leave the accumulator, accepted or not
  r.line_complete = true;
  const unsigned p = line.page;
  const unsigned c = line.channel;
  PendingLong& pend = set.pending;
  r.line1 = (c & 1) && pend.valid && pend.page == p && pend.channel == c - 1;
  r.verdict = r.line1 ? judge_line1(p, c, line.words, status_)
                      : judge_first_line(p, c, line.words, status_);
  if (r.verdict != Verdict::Accept) {
    r.slverr = true;
    return;
  }
  TableWrite tw{xfer_id(p, c), line.words};
  if (r.line1) {
    table_[tw.line] = tw.words;
    r.table_writes.push_back(tw);
    status_.set_busy(wch_index(p, c - 1), true);
    r.live.push_back(xfer_id(p, c - 1));
    pend = PendingLong{};
    return;
  }
  const ControlWord ctrl = ControlWord::unpack(line.words[3]);
  if (is_memory(ctrl.kind)) tw.words[2] = seg_info(line.words[1], ctrl.size).pack();
  table_[tw.line] = tw.words;
  r.table_writes.push_back(tw);
  if (ctrl.is_long) {
    pend.valid = true;  // a previous pending long descriptor of this set is abandoned
    pend.page = p;
    pend.channel = c;
  } else {
    status_.set_busy(wch_index(p, c), false);
    r.live.push_back(xfer_id(p, c));
    if (pend.valid && pend.page == p && pend.channel == c) pend = PendingLong{};
  }
}

Descriptor DescriptorWriteModel::table_descriptor(unsigned xfer) const {
  const Line& l0 = table_.at(xfer);
  const ControlWord ctrl = ControlWord::unpack(l0[3]);
  std::vector<uint64_t> w(l0.begin(), l0.end());
  if (ctrl.is_long && xfer + 1 < NumXfers) {
    const Line& l1 = table_[xfer + 1];
    w.insert(w.end(), l1.begin(), l1.end());
  }
  if (is_memory(ctrl.kind)) w[2] = 0;
  return Descriptor::decode(xfer_page(xfer), xfer_channel(xfer), w);
}

}  // namespace ni
