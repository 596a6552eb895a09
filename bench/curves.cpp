// SPDX-License-Identifier: Apache-2.0
#include "bench/curves.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>
#include <string>

#include "bench/common.hpp"
#include "bench/ps_cpu.hpp"

namespace bench {

namespace {

constexpr uint64_t kDstBase = 0x0001000000000000ull;  // node 1
constexpr unsigned kDone = 2, kError = 3;

// Destination of channel `ch`: block aligned, 16 MiB apart (sizes up to 4 MiB never overlap).
uint64_t dst_of(unsigned ch) { return kDstBase + uint64_t(ch) * (uint64_t{1} << 24); }

ni::Descriptor desc_of(const CurveOptions& o, unsigned ch, uint32_t size, bool inline_kind) {
  return inline_kind ? inline_desc(o.page, ch, size, dst_of(ch))
                     : memory_desc(o.page, ch, size, dst_of(ch));
}

// Channels a transfer of this kind occupies: a long descriptor (inline over 16 bytes) takes an
// even channel and the odd one above it.
unsigned stride_of(uint32_t size, bool inline_kind) {
  return desc_of(CurveOptions{}, 0, size, inline_kind).is_long() ? 2 : 1;
}

// The engine in the harness with the send unit and the CPU model plugged in.
struct Env {
  explicit Env(const CurveOptions& o)
      : tb(tb_options(false)), send(tb.ports(), tb.responder(), o.send) {
    tb.bus().add(send);
    tb.ctrl().add(send);
    tb.start();
    cpu = std::make_unique<PsCpu>(tb.axi(), o.rtt, tb.cycle());
    tb.ctrl().add(*cpu);
  }
  sim::Testbench tb;
  SendUnit send;
  std::unique_ptr<PsCpu> cpu;
};

std::string what(const char* prog, uint32_t size, bool inline_kind) {
  return std::string(prog) + " " + (inline_kind ? "inline " : "") + std::to_string(size) + " B";
}

// Runs the program until done and checks everything; fills the common fields of `r`.
template <typename Prog>
void run_program(Env& e, Prog& p, const std::string& name, uint64_t max_cycles, ProgramRun& r) {
  const uint64_t busy0 = e.send.busy_cycles();
  p.start(e.cpu->now());
  const uint64_t t0 = e.cpu->now();
  run_until(
      e.tb, [&] { return p.done() || !e.cpu->error().empty() || !p.error().empty(); }, max_cycles,
      name);
  if (!e.cpu->error().empty()) throw BenchError(name + ": " + e.cpu->error());
  if (!p.error().empty()) throw BenchError(name + ": " + p.error());
  r.cycles = p.end() - t0;
  r.polls = p.polls();
  r.datapath_busy = double(e.send.busy_cycles() - busy0) / double(r.cycles);
  finish(e.tb, name);
}

class OneAtATime {
 public:
  OneAtATime(PsCpu& cpu, const CurveOptions& o, uint32_t size, bool inline_kind, unsigned n)
      : cpu_(cpu),
        o_(o),
        size_(size),
        inline_(inline_kind),
        n_(n),
        stride_(stride_of(size, inline_kind)) {}
  void start(uint64_t t) { begin(t); }
  bool done() const { return i_ == n_; }
  uint64_t end() const { return end_; }
  uint64_t polls() const { return polls_; }
  const std::string& error() const { return error_; }
  const std::vector<uint64_t>& latencies() const { return lat_; }

 private:
  void begin(uint64_t t) {
    t0_ = t;
    ch_ = (i_ * stride_) % 64;
    uint64_t ti = t;
    for (sim::AxiWrite& w : descriptor_stores(desc_of(o_, ch_, size_, inline_))) {
      cpu_.store(ti, std::move(w));
      ti += o_.issue_interval;
    }
    poll(ti);
  }
  void poll(uint64_t t) {
    ++polls_;
    cpu_.load(t, read_at(status_addr(o_.page, ch_)), [this](uint64_t now, const sim::AxiRead& r) {
      const unsigned code = r.data.empty() ? 0 : unsigned(r.data.front() & 3);
      if (code == kError) {
        error_ = "channel " + std::to_string(ch_) + " finished with ERROR";
      } else if (code == kDone) {
        lat_.push_back(now - t0_);
        if (++i_ < n_) {
          begin(now);
        } else {
          end_ = now;
        }
      } else {
        poll(now);
      }
    });
  }

  PsCpu& cpu_;
  const CurveOptions& o_;
  uint32_t size_;
  bool inline_;
  unsigned n_;
  unsigned stride_;
  unsigned i_ = 0;
  unsigned ch_ = 0;
  uint64_t t0_ = 0, end_ = 0, polls_ = 0;
  std::vector<uint64_t> lat_;
  std::string error_;
};

class Outstanding {
 public:
  Outstanding(PsCpu& cpu, const CurveOptions& o, uint32_t size, bool inline_kind, unsigned n,
              unsigned batches)
      : cpu_(cpu),
        o_(o),
        size_(size),
        inline_(inline_kind),
        n_(n),
        batches_(batches),
        stride_(stride_of(size, inline_kind)) {
    if (n_ * stride_ > 64) throw BenchError("more outstanding transfers than channels");
  }
  void start(uint64_t t) { batch(t); }
  bool done() const { return done_batches_ == batches_; }
  uint64_t end() const { return end_; }
  uint64_t polls() const { return polls_; }
  const std::string& error() const { return error_; }

 private:
  void batch(uint64_t t) {
    uint64_t ti = t;
    for (unsigned i = 0; i < n_; ++i) {
      for (sim::AxiWrite& w : descriptor_stores(desc_of(o_, i * stride_, size_, inline_))) {
        cpu_.store(ti, std::move(w));
        ti += o_.issue_interval;
      }
    }
    seen_.assign(64, false);
    left_ = n_;
    round(ti);
  }
  void round(uint64_t t) {
    pending_ = 2;
    for (unsigned half = 0; half < 2; ++half) {
      ++polls_;
      cpu_.load(t + half * o_.issue_interval, read_at(status32_addr(o_.page, half)),
                [this, half](uint64_t now, const sim::AxiRead& r) { seen(now, half, r); });
    }
  }
  void seen(uint64_t now, unsigned half, const sim::AxiRead& r) {
    const uint64_t v = r.data.empty() ? 0 : r.data.front();
    for (unsigned i = 0; i < 32; ++i) {
      const unsigned ch = half * 32 + i;
      const unsigned code = unsigned(v >> (2 * i)) & 3;
      if (ch >= n_ * stride_ || ch % stride_ != 0) continue;
      if (code == kError) error_ = "channel " + std::to_string(ch) + " finished with ERROR";
      if (code == kDone && !seen_[ch]) {
        seen_[ch] = true;
        --left_;
      }
    }
    if (--pending_ != 0) return;
    if (left_ != 0) {
      round(now);
    } else if (++done_batches_ < batches_) {
      batch(now);
    } else {
      end_ = now;
    }
  }

  PsCpu& cpu_;
  const CurveOptions& o_;
  uint32_t size_;
  bool inline_;
  unsigned n_;
  unsigned batches_;
  unsigned stride_;
  unsigned done_batches_ = 0;
  std::vector<bool> seen_;
  unsigned left_ = 0;
  unsigned pending_ = 0;
  uint64_t end_ = 0, polls_ = 0;
  std::string error_;
};

double est_send_cycles(uint32_t size) { return double(size) / kLineRateBytesPerCycle; }

unsigned clamp_count(double v, unsigned lo, unsigned hi) {
  return unsigned(std::clamp(v, double(lo), double(hi)));
}

double to_ns(double cycles) { return cycles * 1000.0 / kClockMHz; }
double to_gbps(double bytes_per_cycle) { return bytes_per_cycle * 8.0 * kClockMHz / 1000.0; }
double frac(double bytes_per_cycle) { return bytes_per_cycle / kLineRateBytesPerCycle; }

nlohmann::json run_json(const ProgramRun& r) {
  return {{"transfers", r.transfers}, {"cycles", r.cycles}, {"latency_cycles", r.latency},
          {"polls", r.polls},         {"bytes", r.bytes},   {"datapath_busy", r.datapath_busy}};
}

}  // namespace

ProgramRun one_at_a_time(const CurveOptions& o, uint32_t size, bool inline_kind, unsigned n) {
  const std::string name = what("one at a time", size, inline_kind);
  Env e(o);
  OneAtATime p(*e.cpu, o, size, inline_kind, n);
  ProgramRun r;
  run_program(e, p, name, 100000 + uint64_t(4 * n * (est_send_cycles(size) + 400)), r);
  r.transfers = n;
  r.bytes = uint64_t(n) * size;
  const auto& l = p.latencies();
  r.latency = double(std::accumulate(l.begin(), l.end(), uint64_t{0})) / double(l.size());
  r.min_latency = *std::min_element(l.begin(), l.end());
  r.max_latency = *std::max_element(l.begin(), l.end());
  return r;
}

ProgramRun outstanding(const CurveOptions& o, uint32_t size, bool inline_kind, unsigned n,
                       unsigned batches) {
  const std::string name = what("outstanding", size, inline_kind);
  Env e(o);
  Outstanding p(*e.cpu, o, size, inline_kind, n, batches);
  ProgramRun r;
  run_program(e, p, name, 100000 + uint64_t(4 * batches * (n * est_send_cycles(size) + 1000)), r);
  r.transfers = n * batches;
  r.bytes = uint64_t(r.transfers) * size;
  r.latency = double(r.cycles) / double(r.transfers);
  return r;
}

nlohmann::json curves(CurveOptions o) {
  if (o.sizes.empty()) {
    for (uint32_t s = 8; s <= (4u << 20); s *= 2) o.sizes.push_back(s);
  }
  if (o.inline_sizes.empty()) o.inline_sizes = {8, 16, 32};
  if (o.delay_sweep.empty()) o.delay_sweep = {0, 10, 20, 50, 100};
  const double budget = double(o.budget_cycles);
  // Transfer counts: enough for a stable average, few for the large sizes.
  auto count_a = [&](uint32_t size) {
    return clamp_count(budget / (est_send_cycles(size) + 120), 3, 128);
  };
  auto count_b = [&](uint32_t size, unsigned& batches) {
    const unsigned n = clamp_count(budget / (est_send_cycles(size) + 4), 4, 64);
    batches = clamp_count(budget / (n * (est_send_cycles(size) + 4) + 150), 1, 4);
    return n;
  };

  nlohmann::json lat = nlohmann::json::array(), thr = nlohmann::json::array(),
                 runs = nlohmann::json::array();
  std::vector<std::pair<uint32_t, double>> small;  // one-at-a-time latency of sizes <= 512 B
  nlohmann::json line_rate_size = nullptr;
  for (uint32_t size : o.sizes) {
    const ProgramRun a = one_at_a_time(o, size, false, count_a(size));
    unsigned batches = 1;
    const unsigned nb = count_b(size, batches);
    const ProgramRun b = outstanding(o, size, false, nb, batches);
    const double fa = frac(double(size) / a.latency);
    const double fb = frac(double(b.bytes) / double(b.cycles));
    lat.push_back({{"size", size},
                   {"one_at_a_time_cycles", a.latency},
                   {"outstanding_cycles", b.latency},
                   {"one_at_a_time_ns", to_ns(a.latency)},
                   {"outstanding_ns", to_ns(b.latency)}});
    thr.push_back({{"size", size},
                   {"one_at_a_time_frac", fa},
                   {"outstanding_frac", fb},
                   {"one_at_a_time_gbps", to_gbps(double(size) / a.latency)},
                   {"outstanding_gbps", to_gbps(double(b.bytes) / double(b.cycles))}});
    runs.push_back({{"size", size}, {"one_at_a_time", run_json(a)}, {"outstanding", run_json(b)}});
    if (size <= 512) small.emplace_back(size, a.latency);
    if (line_rate_size.is_null() && fb >= 0.95) line_rate_size = size;
  }

  nlohmann::json inl = nlohmann::json::array();
  for (uint32_t size : o.inline_sizes) {
    const ProgramRun a = one_at_a_time(o, size, true, 128);
    const ProgramRun b = outstanding(o, size, true, 64 / stride_of(size, true), 4);
    inl.push_back({{"size", size},
                   {"one_at_a_time_cycles", a.latency},
                   {"outstanding_cycles", b.latency},
                   {"one_at_a_time_ns", to_ns(a.latency)},
                   {"outstanding_ns", to_ns(b.latency)},
                   {"one_at_a_time_frac", frac(double(size) / a.latency)},
                   {"outstanding_frac", frac(double(b.bytes) / double(b.cycles))},
                   {"one_at_a_time", run_json(a)},
                   {"outstanding", run_json(b)}});
  }

  // The small-transfer latency against the network + receiver delay (64-byte transfers).
  nlohmann::json sweep = nlohmann::json::array();
  for (unsigned d : o.delay_sweep) {
    CurveOptions od = o;
    od.send.net_delay = d;
    const ProgramRun a = one_at_a_time(od, 64, false, 64);
    sweep.push_back({{"net_delay", d},
                     {"latency_cycles", a.latency},
                     {"latency_ns", to_ns(a.latency)},
                     {"polls_per_transfer", double(a.polls) / double(a.transfers)}});
  }

  double small_sum = 0;
  for (const auto& s : small) small_sum += s.second;
  const double small_mean = small.empty() ? 0.0 : small_sum / double(small.size());
  return {{"latency_curve", lat},
          {"throughput_curve", thr},
          {"inline_curve", inl},
          {"line_rate_size_bytes", line_rate_size},
          {"small_transfer_latency_cycles", small_mean},
          {"small_transfer_latency_ns", to_ns(small_mean)},
          {"net_delay_sweep", sweep},
          {"runs", runs},
          {"parameters",
           {{"clock_mhz", kClockMHz},
            {"line_rate_bytes_per_cycle", kLineRateBytesPerCycle},
            {"line_rate_gbps", to_gbps(kLineRateBytesPerCycle)},
            {"rtt_cycles", o.rtt},
            {"issue_interval_cycles", o.issue_interval},
            {"net_delay_cycles", o.send.net_delay},
            {"send_blk_queue", o.send.blk_queue},
            {"send_pkt_queue", o.send.pkt_queue},
            {"max_packet_payload", o.send.max_payload},
            {"packet_overhead_cycles", o.send.overhead},
            {"budget_cycles", o.budget_cycles}}}};
}

}  // namespace bench
