// SPDX-License-Identifier: Apache-2.0
#include "bench/common.hpp"

#include "ni_pkg_gen.hpp"  // generated from rtl/common/ni_pkg.sv (scripts/gen_pkg.py)
#include "ref_model/qos/descriptor_write_model.hpp"

namespace bench {

ni::Descriptor memory_desc(unsigned page, unsigned ch, uint32_t size, uint64_t dst) {
  ni::Descriptor d;
  d.page = page;
  d.channel = ch;
  d.kind = ni::Kind::Tid;
  d.src = 0x0000000100000000ull + uint64_t(ch) * 0x1000;
  d.dst = dst;
  d.size = size;
  d.long_mode = ni::LongMode::Short;
  return d;
}

ni::Descriptor inline_desc(unsigned page, unsigned ch, uint32_t size, uint64_t dst) {
  ni::Descriptor d;
  d.page = page;
  d.channel = ch;
  d.kind = ni::Kind::Inline;
  d.dst = dst;
  d.size = size;
  d.payload.resize(size <= 16 ? 16 : 32);
  for (std::size_t i = 0; i < d.payload.size(); ++i) d.payload[i] = uint8_t(0x5A ^ (i * 7 + ch));
  d.long_mode = size <= 16 ? ni::LongMode::Short : ni::LongMode::Long;
  return d;
}

std::vector<sim::AxiWrite> descriptor_stores(const ni::Descriptor& d) {
  const std::vector<uint64_t> words = d.encode();
  std::vector<sim::AxiWrite> out;
  for (std::size_t i = 0; i + 1 < words.size(); i += 2) {
    const unsigned line = unsigned(i / 4);
    sim::AxiWrite w;
    w.addr = ni::desc_addr(d.page, d.channel + line, unsigned(i % 4));
    w.size = 4;
    w.beats.push_back(sim::AxiBeat{words[i], words[i + 1], 0xFFFF, true});
    out.push_back(std::move(w));
  }
  return out;
}

sim::AxiWrite descriptor_burst(const ni::Descriptor& d) {
  const std::vector<uint64_t> words = d.encode();
  sim::AxiWrite w;
  w.addr = ni::desc_addr(d.page, d.channel, 0);
  w.size = 4;
  for (std::size_t i = 0; i + 1 < words.size(); i += 2) {
    w.beats.push_back(sim::AxiBeat{words[i], words[i + 1], 0xFFFF, i + 2 == words.size()});
  }
  return w;
}

sim::AxiRead read_at(uint32_t addr) {
  sim::AxiRead r;
  r.addr = addr;
  r.size = 4;
  return r;
}

sim::Testbench::Options tb_options(bool auto_ack, unsigned ack_latency) {
  sim::Testbench::Options o;
  o.cfg.seed = 1;
  o.random_cpu = false;
  o.cfg.responder = sim::ResponderOptions{};
  o.cfg.responder.auto_mode = auto_ack;
  o.cfg.responder.lat_min = ack_latency;
  o.cfg.responder.lat_max = ack_latency;
  o.cfg.responder.reorder_window = 1;
  o.cfg.blk_stall = sim::StallOptions{};
  o.cfg.pkt_stall = sim::StallOptions{};
  return o;
}

void check(sim::Testbench& tb, const std::string& what) {
  if (tb.failed()) {
    const ni::ModelFailure& f = tb.model().failure();
    throw BenchError(what + ": golden model failure at cycle " + std::to_string(f.cycle) + ": " +
                     f.what + "\n" + f.detail);
  }
}

void run_until(sim::Testbench& tb, const std::function<bool()>& done, uint64_t max_cycles,
               const std::string& what) {
  const bool ok = tb.run_until(done, max_cycles);
  check(tb, what);
  if (!ok) throw BenchError(what + ": not done by cycle " + std::to_string(tb.cycle()));
}

void finish(sim::Testbench& tb, const std::string& what) {
  run_until(
      tb, [&] { return !tb.axi().busy() && !tb.responder().busy() && tb.model().quiescent(); },
      1000000, what + " (draining)");
  sim::RunResult r;
  tb.finish(r);
  if (!r.passed)
    throw BenchError(what + ": end-of-run checks failed: " + r.failure + "\n" + r.detail);
}

void Probe::on_block(const sim::BlockEvent& e) {
  const auto d = ni::ni_pkg::blk_desc_t::unpack(e.desc);  // the generated decoder
  blocks.push_back(Block{e.cycle, e.tid, unsigned(d.seq), uint32_t(d.len_m1 + 1)});
}

void Probe::on_packet(const sim::PacketEvent& e) {
  const auto h = ni::ni_pkg::pkt_hdr_t::unpack(e.data);  // the generated decoder
  packets.push_back(Pkt{e.cycle, unsigned(h.kind), unsigned(h.tid), unsigned(h.seq)});
}

void Probe::on_tap(const sim::TapEvent& t) {
  auto first = [&](uint64_t& slot, bool v) {
    if (v && slot == kNone) slot = t.cycle;
  };
  first(first_enq, t.enq);
  first(first_deq, t.deq);
  first(first_s2_fire, t.s2_fire);
  first(first_blk_valid, t.blk_valid);
  first(first_pkt_valid, t.pkt_valid);
}

uint64_t Probe::status_cycle(unsigned wch, unsigned code, uint64_t from) const {
  for (const sim::StatusEvent& s : status) {
    if (s.wch == wch && s.to == code && s.cycle >= from) return s.cycle;
  }
  return kNone;
}

}  // namespace bench
