// SPDX-License-Identifier: Apache-2.0
// Receive-unit throughput (issue 13): one ni_node as ni_sim builds it (NodeAgents), the
// network model offering 1 KiB data packets of a peer's blocks back to back on req_rx (built
// by the send unit's golden model, ni::block_packets -> ni::make_data_packet, and injected),
// the memory model on the node's AXI master, rsp_tx ready unless the bench holds it off. The
// node's checkers (the receive unit's golden model, ref_model/recv, on every write burst, B,
// ACK and packet decision; the memory's protocol) check the run as it goes; at the end every
// destination byte is compared with the peer's source pattern and every block must have been
// ACKed.
//
//   steady: 64 blocks of 16 KiB (1,024 packets of 18 beats) at a write latency; the figure is
//           the beats accepted per cycle from the 128th packet's first beat to the last beat
//           (goal 1.0) and the cycles req_rx stalled (valid and not ready).
//   hold:   256 one-packet blocks, rsp_tx held low for the first kHold cycles: the ACKs back
//           up, then the buffers fill and req_rx stalls; after the release it recovers.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "bench/units/unit_bench.hpp"
#include "ref_model/common/mem_image.hpp"
#include "ref_model/common/wire.hpp"
#include "ref_model/send/send_model.hpp"
#include "sim/agents/network.hpp"
#include "sim/core/rng.hpp"
#include "sim/core/sim_ctrl.hpp"
#include "sim/tb/node/node_agents.hpp"
#include "verilated.h"

namespace unit_bench {
namespace {

using ni::WirePacket;

constexpr uint16_t kNode = 0;
constexpr uint16_t kPeer = 5;
constexpr uint64_t kDstBase = uint64_t{1} << 47;

sim::NodeAgents::Options agent_options(const sim::MemOptions& mo) {
  sim::NodeAgents::Options o;
  o.memory = mo;
  return o;
}

// The node as ni_sim builds it (NodeAgents: its checkers check the run) on the network model:
// the peer's packets are injected into req_rx back to back, the ACKs to the peer (a node
// the network does not have) leave rsp_tx and are dropped.
class RecvRig {
 public:
  RecvRig(const sim::MemOptions& mo, uint64_t seed)
      : rng_(seed),
        net_rng_(seed + 1),
        a_(ctx_, kNode, rng_, rng_, agent_options(mo)),
        ctrl_(ctx_),
        req_(sim::Net::Req, {a_.net_port(sim::Net::Req)}, net_bus_, net_rng_, sim::NetOptions{}),
        rsp_(sim::Net::Rsp, {a_.net_port(sim::Net::Rsp)}, net_bus_, net_rng_, sim::NetOptions{}),
        watch_(a_.ports()) {
    ctrl_.add_dut(a_.dut());
    a_.add_stimulus(ctrl_);
    ctrl_.add(req_);
    ctrl_.add(rsp_);
    a_.add_monitors(ctrl_);
    ctrl_.add(watch_);
    a_.bus().add(watch_);
    ctrl_.reset();
    if (!ctrl_.run_until([&] { return *a_.ports().init_done != 0; }, 5000))
      throw BenchError("ni_node: no init_done");
  }

  void inject(const WirePacket& p) { req_.inject(kNode, p, ctrl_.cycle()); }
  void hold_rsp(bool h) { rsp_.hold(kNode, h); }
  bool run_until(const std::function<bool()>& done, uint64_t limit) {
    return ctrl_.run_until(done, limit);
  }
  bool quiet() const {
    const sim::NiNodePorts& io = a_.ports();
    return !req_.busy() && !a_.mem().busy() && !*io.rx_busy && !*io.rsp_tx.valid;
  }
  uint64_t cycle() const { return ctrl_.cycle(); }
  sim::MemModel& mem() { return a_.mem(); }
  // The node's checkers' end-of-run checks and every mismatch they found, "checker: what".
  std::vector<std::string> finish() {
    std::vector<std::string> v;
    for (const std::string& e : a_.recv().final_check(cycle())) v.push_back(e);
    for (const sim::Checker* c : a_.checkers()) {
      for (const sim::CheckFailure& f : c->errors()) v.push_back(c->name() + ": " + f.what);
    }
    return v;
  }
  // Cycle of every beat accepted on req_rx; cycles req_rx stalled (valid, not ready).
  const std::vector<uint64_t>& beats() const { return watch_.beats; }
  const std::vector<uint64_t>& stalls() const { return watch_.stalls; }
  uint64_t acks() const { return watch_.acks; }

 private:
  // req_rx beat by beat; the ACKs that leave rsp_tx.
  struct Watch : sim::Component, sim::Listener {
    explicit Watch(const sim::NiNodePorts& io) : rx(io.req_rx) {}
    void sample(uint64_t cycle) override {
      if (!*rx.valid) return;
      (*rx.ready ? beats : stalls).push_back(cycle);
    }
    void on_tx(const sim::TxEvent& e) override {
      if (e.net == sim::Net::Rsp)
        acks += e.packet.hcrc_ok() && e.packet.head().wire_kind() == ni::WireKind::Ack;
    }
    sim::StreamRxPorts rx;
    std::vector<uint64_t> beats, stalls;
    uint64_t acks = 0;
  };

  sim::Rng rng_, net_rng_;
  VerilatedContext ctx_;
  sim::NodeAgents a_;
  sim::SimCtrl ctrl_;
  sim::EventBus net_bus_;
  sim::Network req_, rsp_;
  Watch watch_;
};

struct Latency {
  const char* name;
  unsigned lo, hi;
  bool ooo;
};

ni::BlockDesc peer_block(uint64_t src, uint64_t dst_off, uint32_t len, uint16_t seq) {
  ni::BlockDesc b;
  b.src_addr = src;
  b.dst_addr = (uint64_t{kNode} << 48) | kDstBase | dst_off;
  b.len_m1 = uint16_t(len - 1);
  b.seq = seq;
  return b;
}

// Injects `blocks` blocks of `bytes` each (tids 0.., seq 1..), destinations one after the
// other from 1 MiB; returns them.
std::vector<ni::BlockDesc> inject_blocks(RecvRig& rig, const ni::MemImage& peer, unsigned blocks,
                                         uint32_t bytes) {
  std::vector<ni::BlockDesc> v;
  for (unsigned i = 0; i < blocks; ++i) {
    v.push_back(peer_block(0x200000 + uint64_t{bytes} * i, 0x100000 + uint64_t{bytes} * i, bytes,
                           uint16_t(i + 1)));
    for (const auto& p : ni::block_packets(v.back(), uint16_t(i % 1024), kPeer, peer))
      rig.inject(p);
  }
  return v;
}

// Drains the node, then the end-of-run checks: golden model, memory protocol, every block's
// destination bytes, one ACK per block.
void finish(RecvRig& rig, const ni::MemImage& peer, const std::vector<ni::BlockDesc>& blocks,
            const std::string& what) {
  if (!rig.run_until([&] { return rig.quiet(); }, 500000))
    throw BenchError(what + ": the node did not drain");
  rig.run_until([] { return false; }, 200);
  for (const auto& e : rig.finish()) throw BenchError(what + ": " + e);
  for (const auto& b : blocks) {
    const uint32_t len = uint32_t(b.len_m1) + 1;
    if (rig.mem().image().read(b.dst_addr, len) != peer.read(b.src_addr, len))
      throw BenchError(what + ": destination bytes of block seq " + std::to_string(b.seq) +
                       " differ from the source");
  }
  if (rig.acks() != blocks.size())
    throw BenchError(what + ": " + std::to_string(rig.acks()) + " ACKs for " +
                     std::to_string(blocks.size()) + " blocks");
}

nlohmann::json steady(const Latency& lat) {
  sim::MemOptions mo;
  mo.wr_lat_min = lat.lo;
  mo.wr_lat_max = lat.hi;
  mo.ooo = lat.ooo;
  RecvRig rig(mo, 11 + lat.hi);
  ni::MemImage peer(kPeer);
  const auto blocks = inject_blocks(rig, peer, 64, 16384);
  const std::string what = std::string("receive unit, write latency ") + lat.name;
  finish(rig, peer, blocks, what);
  const auto& b = rig.beats();
  const std::size_t from = 128 * 18;  // first beat of the 128th packet
  const uint64_t t0 = b[from], t1 = b.back();
  const double rate = double(b.size() - 1 - from) / double(t1 - t0);
  uint64_t in_window = 0;
  for (uint64_t c : rig.stalls()) in_window += c >= t0 && c <= t1;
  return {{"write_latency", lat.name},
          {"packets", 1024},
          {"beats", b.size()},
          {"window_cycles", t1 - t0},
          {"beats_per_cycle", rate},
          {"bytes_per_cycle", rate * 64.0},
          {"req_rx_stall_cycles", rig.stalls().size()},
          {"req_rx_stall_cycles_steady", in_window},
          {"first_beat_cycle", b.front()},
          {"last_beat_cycle", t1}};
}

nlohmann::json hold() {
  constexpr uint64_t kHold = 4000;
  sim::MemOptions mo;
  mo.wr_lat_min = mo.wr_lat_max = 64;
  RecvRig rig(mo, 99);
  ni::MemImage peer(kPeer);
  rig.hold_rsp(true);
  const auto blocks = inject_blocks(rig, peer, 256, 1024);
  rig.run_until([] { return false; }, kHold);
  const uint64_t release = rig.cycle();
  const uint64_t beats_held = rig.beats().size();
  const uint64_t stalls_held = rig.stalls().size();
  const uint64_t first_stall = rig.stalls().empty() ? 0 : rig.stalls().front();
  rig.hold_rsp(false);
  finish(rig, peer, blocks, "receive unit, rsp_tx held off");
  const auto& b = rig.beats();
  const uint64_t resume = b.size() > beats_held ? b[beats_held] : 0;
  // after the release: the rate from the first beat accepted again to the last beat
  const double rate = double(b.size() - 1 - beats_held) / double(b.back() - resume);
  uint64_t stalls_after = 0;
  for (uint64_t c : rig.stalls()) stalls_after += c >= resume;
  return {{"write_latency", "64"},
          {"blocks", blocks.size()},
          {"packet_bytes", 1024},
          {"rsp_tx_held_cycles", kHold},
          {"beats_accepted_while_held", beats_held},
          {"packets_accepted_while_held", beats_held / 18},
          {"first_stall_cycle", first_stall},
          {"req_rx_stall_cycles_while_held", stalls_held},
          {"release_cycle", release},
          {"first_beat_after_release_cycle", resume},
          {"beats_per_cycle_after_release", rate},
          {"req_rx_stall_cycles_after_release", stalls_after}};
}

}  // namespace

nlohmann::json recv_rate() {
  const Latency lats[] = {{"1", 1, 1, false},
                          {"64", 64, 64, false},
                          {"128", 128, 128, false},
                          {"random 1..128, out of order", 1, 128, true}};
  nlohmann::json runs = nlohmann::json::array();
  double worst = 1e9;
  uint64_t stalls = 0;  // req_rx stall cycles in the steady windows: the goal is none
  for (const auto& l : lats) {
    auto r = steady(l);
    worst = std::min(worst, r["beats_per_cycle"].get<double>());
    stalls += r["req_rx_stall_cycles_steady"].get<uint64_t>();
    runs.push_back(std::move(r));
  }
  return {{"goal_beats_per_cycle", 1.0},
          {"met", stalls == 0},
          {"worst_beats_per_cycle", worst},
          {"runs", runs},
          {"rsp_tx_held", hold()}};
}

}  // namespace unit_bench
