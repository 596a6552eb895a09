// SPDX-License-Identifier: Apache-2.0
#include "sim/tb/node/node_agents.hpp"

#include <string>

namespace sim {

ni::Config NodeAgents::engine_config(unsigned id) {
  ni::Config mc;  // the parameters ni_node is built with (its defaults)
  mc.node_regs = true;
  mc.node_id = uint16_t(id);
  return mc;
}

NodeAgents::NodeAgents(VerilatedContext& ctx, unsigned id, Rng& axi_rng, Rng& mem_rng,
                       const Options& opt)
    : id_(id) {
  dut_ = std::make_unique<NiNodeDut>(ctx, "node" + std::to_string(id));
  const NiNodePorts& io = dut_->ports();
  *io.node_id = uint16_t(id);
  axi_ = std::make_unique<AxiMaster>(io.axi, axi_rng, opt.axi);
  mem_ = std::make_unique<MemModel>(io.mem, mem_rng, opt.memory, uint16_t(id), bus_);
  rx_mon_ =
      std::make_unique<RxMonitor>(RxMonitor::Ports{io.mem, io.rx_rsp, io.req_rx, io.rsp_rx}, bus_);
  rd_mon_ = std::make_unique<ReadMonitor>(io.rd, bus_);
  trace_mon_ = std::make_unique<QosTraceMonitor>(
      QosTraceMonitor::Ports{io.trace, io.blk, io.pkt, io.rsp, io.init_done}, bus_);
  axi_mon_ = std::make_unique<AxiSlaveMonitor>(io.axi, bus_);
  rsp_mon_ = std::make_unique<RspInMonitor>(io.rsp, bus_);
  blk_mon_ = std::make_unique<BlkMonitor>(io.blk, bus_);
  pkt_mon_ = std::make_unique<PktMonitor>(io.pkt, bus_);
  model_ = std::make_unique<ni::EngineModel>(engine_config(id), 16);
  engine_ = std::make_unique<EngineChecker>(*model_, "node" + std::to_string(id) + " engine");
  send_ = std::make_unique<SendUnitChecker>(uint16_t(id), mem_->image());
  recv_ = std::make_unique<RecvUnitChecker>(*rx_mon_, uint16_t(id), 64, opt.rx_idle);
  bus_.add(*engine_);
  bus_.add(*send_);
  bus_.add(*recv_);
  engine_->announce_transfers(bus_);
}

NodeAgents::~NodeAgents() = default;

void NodeAgents::add_stimulus(SimCtrl& ctrl) {
  ctrl.add(*axi_);
  ctrl.add(*mem_);
}

void NodeAgents::add_monitors(SimCtrl& ctrl) {
  ctrl.add(*rx_mon_);
  ctrl.add(*rd_mon_);
  ctrl.add(*trace_mon_);
  ctrl.add(*axi_mon_);
  ctrl.add(*rsp_mon_);
  ctrl.add(*blk_mon_);
  ctrl.add(*pkt_mon_);
  ctrl.add(bus_);
}

std::vector<Checker*> NodeAgents::checkers() {
  return {engine_.get(), send_.get(), mem_.get(), recv_.get()};
}

Network::Port NodeAgents::net_port(Net net) {
  const NiNodePorts& io = dut_->ports();
  if (net == Net::Req) return Network::Port{io.req_tx, io.req_rx, &bus_};
  return Network::Port{io.rsp_tx, io.rsp_rx, &bus_};
}

}  // namespace sim
