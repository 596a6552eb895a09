// SPDX-License-Identifier: Apache-2.0
// One ni_node and what every harness of it puts around it (ICD 10, 15): the verilated node
// (NiNodeDut), the AXI master on its CPU port, the memory model on its memory master, the
// monitors of its ports and trace taps on its event bus, and the three unit checkers
// subscribed to that bus: the QoS engine's golden model over the trace port (EngineChecker,
// which also announces the transfers its model decides), the send unit's (SendUnitChecker)
// and the receive unit's (RecvUnitChecker). ni_sim's N-node wiring builds N of them on the
// two networks (sim/agents/network); tests/top and bench/units build one the same way.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "ref_model/qos/engine_model.hpp"
#include "sim/agents/axi_master.hpp"
#include "sim/agents/engine_checker.hpp"
#include "sim/agents/mem_model.hpp"
#include "sim/agents/monitors.hpp"
#include "sim/agents/network.hpp"
#include "sim/agents/recv_unit_checker.hpp"
#include "sim/agents/rx_monitor.hpp"
#include "sim/agents/send_checker.hpp"
#include "sim/core/events.hpp"
#include "sim/core/rng.hpp"
#include "sim/core/sim_ctrl.hpp"
#include "sim/tb/node/ni_node_dut.hpp"

class VerilatedContext;

namespace sim {

class NodeAgents {
 public:
  struct Options {
    AxiMaster::Options axi;    // the CPU port's master
    MemOptions memory;         // the memory's latencies and back-pressure
    uint64_t rx_idle = 65536;  // RxIdle (control word 2) as the node will hold it
  };
  // Node `id` (its node_id_i) in `ctx`, its scope named node<id>; the AXI master draws from
  // `axi_rng`, the memory from `mem_rng`.
  NodeAgents(VerilatedContext& ctx, unsigned id, Rng& axi_rng, Rng& mem_rng, const Options& opt);
  ~NodeAgents();
  NodeAgents(const NodeAgents&) = delete;
  NodeAgents& operator=(const NodeAgents&) = delete;

  // The parameters the node's engine is built with (its defaults), as its golden model has them.
  static ni::Config engine_config(unsigned id);

  // Registration with the clock, in the order of a cycle: the stimulus (AXI master, memory)
  // before the networks, the monitors and the bus after them (the receive side's monitor
  // first, see RxMonitor).
  void add_stimulus(SimCtrl& ctrl);
  void add_monitors(SimCtrl& ctrl);
  // The checkers, in the order a verdict looks at them: engine, send unit, memory protocol,
  // receive unit.
  std::vector<Checker*> checkers();
  // This node's side of network `net`: its ports and its bus.
  Network::Port net_port(Net net);

  unsigned id() const { return id_; }
  NiNodeDut& dut() { return *dut_; }
  const NiNodePorts& ports() const { return dut_->ports(); }
  EventBus& bus() { return bus_; }
  AxiMaster& axi() { return *axi_; }
  const AxiMaster& axi() const { return *axi_; }
  MemModel& mem() { return *mem_; }
  const MemModel& mem() const { return *mem_; }
  ni::EngineModel& model() { return *model_; }
  const ni::EngineModel& model() const { return *model_; }
  EngineChecker& engine() { return *engine_; }
  SendUnitChecker& send() { return *send_; }
  const SendUnitChecker& send() const { return *send_; }
  RecvUnitChecker& recv() { return *recv_; }

 private:
  unsigned id_;
  std::unique_ptr<NiNodeDut> dut_;
  EventBus bus_;
  std::unique_ptr<AxiMaster> axi_;
  std::unique_ptr<MemModel> mem_;
  std::unique_ptr<RxMonitor> rx_mon_;
  std::unique_ptr<ReadMonitor> rd_mon_;
  std::unique_ptr<QosTraceMonitor> trace_mon_;
  std::unique_ptr<AxiSlaveMonitor> axi_mon_;
  std::unique_ptr<RspInMonitor> rsp_mon_;
  std::unique_ptr<BlkMonitor> blk_mon_;
  std::unique_ptr<PktMonitor> pkt_mon_;
  std::unique_ptr<ni::EngineModel> model_;
  std::unique_ptr<EngineChecker> engine_;
  std::unique_ptr<SendUnitChecker> send_;
  std::unique_ptr<RecvUnitChecker> recv_;
};

}  // namespace sim
