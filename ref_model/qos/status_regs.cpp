// SPDX-License-Identifier: Apache-2.0
#include "ref_model/qos/status_regs.hpp"

namespace ni {

namespace {
bool finished(Status s) { return s == Status::Done || s == Status::Error; }
}  // namespace

void StatusRegs::reset() {
  st_.fill(Status::Idle);
  long_.reset();
}

void StatusRegs::change(unsigned wch, Status to) {
  const Status from = st_.at(wch);
  if (from == to) return;
  st_[wch] = to;
  if (listener_) listener_(wch, from, to);
}

Status StatusRegs::status(unsigned page, unsigned channel) const {
  return st_.at(wch_index(page, channel));
}

bool StatusRegs::live_long(unsigned page, unsigned even_channel) const {
  const unsigned wch = wch_index(page, even_channel & ~1u);
  return st_.at(wch) == Status::Busy && long_[wch / 2];
}

bool StatusRegs::set_busy(unsigned wch, bool is_long) {
  if (st_.at(wch) != Status::Idle) return false;
  if (wch % 2 == 0) long_[wch / 2] = is_long;
  change(wch, Status::Busy);
  return true;
}

bool StatusRegs::finish(unsigned wch, bool error) {
  if (st_.at(wch) != Status::Busy) return false;
  change(wch, error ? Status::Error : Status::Done);
  return true;
}

Status StatusRegs::read_single(unsigned page, unsigned channel) {
  const unsigned wch = wch_index(page, channel);
  const Status s = st_.at(wch);
  if (finished(s)) change(wch, Status::Idle);
  return s;
}

uint64_t StatusRegs::peek32(unsigned page, unsigned half) const {
  uint64_t v = 0;
  const unsigned base = wch_index(page, (half & 1) * 32);
  for (unsigned i = 0; i < 32; ++i) {
    v |= uint64_t{static_cast<uint8_t>(st_.at(base + i))} << (2 * i);
  }
  return v;
}

uint64_t StatusRegs::read32(unsigned page, unsigned half) {
  const uint64_t v = peek32(page, half);
  const unsigned base = wch_index(page, (half & 1) * 32);
  for (unsigned i = 0; i < 32; ++i) {
    if (finished(st_[base + i])) change(base + i, Status::Idle);
  }
  return v;
}

}  // namespace ni
