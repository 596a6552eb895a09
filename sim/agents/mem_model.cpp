// SPDX-License-Identifier: Apache-2.0
#include "sim/agents/mem_model.hpp"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

namespace sim {

namespace {
constexpr unsigned kBeatBytes = 64;
constexpr uint64_t kAddrMask = (uint64_t{1} << 48) - 1;

std::string hex(uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%" PRIx64, v);
  return b;
}
}  // namespace

MemModel::MemModel(const AxiMemPorts& port, Rng& rng, MemOptions opt, uint16_t node, EventBus& bus)
    : p_(port), rng_(rng), opt_(opt), node_(node), bus_(bus), mem_(node) {}

void MemModel::fail(uint64_t cycle, const std::string& what) {
  errors_.push_back(CheckFailure{cycle, "node " + std::to_string(node_) + " memory: " + what, ""});
}

void MemModel::on_reset() {
  *p_.arready = 0;
  *p_.awready = 0;
  *p_.wready = 0;
  *p_.rvalid = 0;
  *p_.bvalid = 0;
  p_.rdata.clear();
  *p_.rid = 0;
  *p_.rresp = 0;
  *p_.rlast = 0;
  *p_.bid = 0;
  *p_.bresp = 0;
  rd_.clear();
  wr_data_.clear();
  wr_resp_.clear();
  r_cur_ = b_cur_ = -1;
}

bool MemModel::busy() const { return !rd_.empty() || !wr_data_.empty() || !wr_resp_.empty(); }

// ICD 10: INCR bursts of 64-byte beats, at most 16 beats, never across a 4 KiB boundary.
bool MemModel::check_burst(uint64_t cycle, const char* ch, uint64_t addr, unsigned len,
                           unsigned size, unsigned burst) {
  auto what = [&] { return std::string(ch) + " " + hex(addr) + " len " + std::to_string(len); };
  if (burst != 1) {
    fail(cycle, what() + ": burst type " + std::to_string(burst) + " (must be INCR)");
    return false;
  }
  if (size != 6) {
    fail(cycle, what() + ": AxSIZE " + std::to_string(size) + " (must be 6, 64-byte beats)");
    return false;
  }
  if (len > 15) {
    fail(cycle, what() + ": " + std::to_string(len + 1) + " beats (at most 16)");
    return false;
  }
  const uint64_t first = addr & ~uint64_t{kBeatBytes - 1};
  const uint64_t last = first + uint64_t{len} * kBeatBytes;
  if ((first >> 12) != (last >> 12)) {
    fail(cycle, what() + ": crosses a 4 KiB boundary");
    return false;
  }
  if (addr > kAddrMask) {
    fail(cycle, what() + ": address above 48 bits");
    return false;
  }
  return true;
}

int MemModel::pick(const std::deque<Burst>& q, uint64_t cycle) {
  // Candidates: ready bursts that are the oldest of their ID.
  std::vector<int>& cand = cand_;
  cand.clear();
  for (std::size_t i = 0; i < q.size(); ++i) {
    if (q[i].ready > cycle) {
      if (!opt_.ooo) break;  // in order: only the oldest may go
      continue;
    }
    bool oldest = true;
    for (std::size_t j = 0; j < i; ++j) oldest = oldest && q[j].id != q[i].id;
    if (oldest) cand.push_back(int(i));
    if (!opt_.ooo) break;
  }
  if (cand.empty()) return -1;
  if (!opt_.ooo || cand.size() == 1) return cand.front();
  return cand[rng_.range(0, cand.size() - 1)];
}

void MemModel::drive(uint64_t cycle) {
  arready_ = !rng_.percent(opt_.ar_stall_pct);
  awready_ = !rng_.percent(opt_.aw_stall_pct);
  // W beats are taken once their burst's address is known (a slave may wait for AW).
  wready_ = !wr_data_.empty() && !rng_.percent(opt_.w_stall_pct);
  *p_.arready = arready_;
  *p_.awready = awready_;
  *p_.wready = wready_;

  // R: keep a burst's beats together; a new burst when the previous one is done.
  if (r_cur_ < 0) r_cur_ = pick(rd_, cycle);
  if (r_cur_ >= 0) {
    const Burst& r = rd_[std::size_t(r_cur_)];
    const uint64_t a = (r.addr & ~uint64_t{kBeatBytes - 1}) + uint64_t{r.done} * kBeatBytes;
    const std::array<uint64_t, 8> words = mem_.line_words(a);
    *p_.rvalid = 1;
    *p_.rid = r.id;
    *p_.rresp = 0;
    *p_.rlast = r.done + 1 == r.beats;
    p_.rdata.set<8>(words);
  } else {
    *p_.rvalid = 0;
    *p_.rlast = 0;
  }

  // B
  if (b_cur_ < 0) b_cur_ = pick(wr_resp_, cycle);
  if (b_cur_ >= 0) {
    *p_.bvalid = 1;
    *p_.bid = wr_resp_[std::size_t(b_cur_)].id;
    *p_.bresp = 0;
  } else {
    *p_.bvalid = 0;
  }
}

void MemModel::sample(uint64_t cycle) {
  // AR
  if (*p_.arvalid && arready_) {
    const uint64_t addr = *p_.araddr;
    if (check_burst(cycle, "AR", addr, *p_.arlen, *p_.arsize, *p_.arburst)) {
      const uint64_t lat = rng_.range(opt_.rd_lat_min, std::max(opt_.rd_lat_min, opt_.rd_lat_max));
      rd_.push_back(
          Burst{*p_.arid, addr, unsigned(*p_.arlen) + 1, cycle + lat, order_++, 0, {}, {}});
      ++n_reads_;
    }
  }
  // R
  if (r_cur_ >= 0 && *p_.rready) {
    Burst& r = rd_[std::size_t(r_cur_)];
    if (++r.done == r.beats) {
      rd_.erase(rd_.begin() + r_cur_);
      r_cur_ = -1;
    }
  }
  // AW
  if (*p_.awvalid && awready_) {
    const uint64_t addr = *p_.awaddr;
    if (check_burst(cycle, "AW", addr, *p_.awlen, *p_.awsize, *p_.awburst)) {
      if ((addr & (kBeatBytes - 1)) != 0) {
        fail(cycle, "AW " + hex(addr) + ": not aligned to a 64-byte line (ICD 13)");
      }
      wr_data_.push_back(Burst{*p_.awid, addr, unsigned(*p_.awlen) + 1, 0, order_++, 0, {}, {}});
    }
  }
  // W (in AW order; no write interleaving in AXI4)
  if (*p_.wvalid && wready_) {
    if (wr_data_.empty()) {
      fail(cycle, "W beat without a write address");
    } else {
      Burst& w = wr_data_.front();
      const auto words = p_.wdata.get<8>();
      const uint64_t strb = *p_.wstrb;
      const std::size_t at = w.data.size();
      w.data.resize(at + kBeatBytes);
      for (unsigned q = 0; q < 8; ++q) {
        for (unsigned b = 0; b < 8; ++b) w.data[at + 8 * q + b] = uint8_t(words[q] >> (8 * b));
      }
      w.strb.push_back(strb);
      ++w.done;
      const bool last = w.done == w.beats;
      if (bool(*p_.wlast) != last) {
        fail(cycle, "AW " + hex(w.addr) + ": WLAST " + (last ? "missing on" : "on") + " beat " +
                        std::to_string(w.done - 1) + " of " + std::to_string(w.beats));
      }
      if (strb == 0) {
        fail(cycle, "AW " + hex(w.addr) + ": beat " + std::to_string(w.done - 1) +
                        " writes no byte (WSTRB 0)");
      }
      if (last) {
        w.ready = cycle + rng_.range(opt_.wr_lat_min, std::max(opt_.wr_lat_min, opt_.wr_lat_max));
        wr_resp_.push_back(std::move(w));
        wr_data_.pop_front();
        if (b_cur_ >= 0) {
          // indices into wr_resp_ are stable: it only grows at the back here
        }
      }
    }
  }
  // B
  if (b_cur_ >= 0 && *p_.bready) {
    const Burst w = std::move(wr_resp_[std::size_t(b_cur_)]);
    wr_resp_.erase(wr_resp_.begin() + b_cur_);
    b_cur_ = -1;
    complete_write(cycle, w);
  }
}

void MemModel::complete_write(uint64_t cycle, const Burst& w) {
  ++n_writes_;
  MemWrEvent e;
  e.cycle = cycle;
  e.awaddr = w.addr;
  e.addr = 0;
  e.bytes = 0;
  const uint64_t base = w.addr & ~uint64_t{kBeatBytes - 1};
  for (unsigned b = 0; b < w.beats; ++b) {
    const uint64_t line = base + uint64_t{b} * kBeatBytes;
    const uint8_t* data = &w.data[std::size_t(b) * kBeatBytes];
    uint64_t strb = w.strb[b];
    mem_.write_line(line, data, strb);
    // each run of set strobe bits: bytes [i, i + n) of the beat
    while (strb != 0) {
      const unsigned i = unsigned(__builtin_ctzll(strb));
      const uint64_t from_i = strb >> i;
      const unsigned n = ~from_i == 0 ? 64 - i : unsigned(__builtin_ctzll(~from_i));
      strb = n + i >= 64 ? 0 : strb & ~(((uint64_t{1} << n) - 1) << i);
      const uint64_t a = line + i;
      if (e.bytes == 0) e.addr = a;
      if (e.runs.empty() || e.runs.back().addr + e.runs.back().data.size() != a) {
        e.runs.push_back(MemWrEvent::Run{a, {}});
      }
      e.runs.back().data.insert(e.runs.back().data.end(), data + i, data + i + n);
      e.bytes += n;
    }
  }
  bus_.emit([&](Listener& l) { l.on_memwr(e); });
}

std::vector<std::string> MemModel::final_check(uint64_t cycle) {
  std::vector<std::string> p;
  if (!rd_.empty()) p.push_back(std::to_string(rd_.size()) + " read burst(s) not completed");
  if (!wr_data_.empty()) p.push_back(std::to_string(wr_data_.size()) + " write(s) missing W beats");
  if (!wr_resp_.empty()) p.push_back(std::to_string(wr_resp_.size()) + " B response(s) not taken");
  for (const auto& s : p) fail(cycle, "end of run: " + s);
  return p;
}

}  // namespace sim
