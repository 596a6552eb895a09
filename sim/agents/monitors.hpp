// SPDX-License-Identifier: Apache-2.0
// One monitor per interface: each watches one port bundle and hands what it sees to an
// EventBus. Register them with SimCtrl in the order their events should reach listeners
// within a cycle (the log's order), and the bus after them.
#pragma once

#include <array>
#include <cstdint>

#include "sim/core/component.hpp"
#include "sim/core/events.hpp"
#include "sim/core/ports.hpp"

namespace sim {

// CPU-side AXI4 slave: AW, W, B, AR and R handshakes.
class AxiSlaveMonitor : public Component {
 public:
  AxiSlaveMonitor(const AxiSlavePorts& port, EventBus& bus) : p_(port), bus_(bus) {}
  void sample(uint64_t cycle) override;

 private:
  AxiSlavePorts p_;
  EventBus& bus_;
};

// qos_engine's block descriptor port.
class BlkMonitor : public Component {
 public:
  BlkMonitor(const BlkPorts& port, EventBus& bus) : p_(port), bus_(bus) {}
  void sample(uint64_t cycle) override;

 private:
  BlkPorts p_;
  EventBus& bus_;
};

// qos_engine's packet port.
class PktMonitor : public Component {
 public:
  PktMonitor(const PktPorts& port, EventBus& bus) : p_(port), bus_(bus) {}
  void sample(uint64_t cycle) override;

 private:
  PktPorts p_;
  EventBus& bus_;
};

// qos_engine's response input (rsp_t).
class RspInMonitor : public Component {
 public:
  RspInMonitor(const RspInPorts& port, EventBus& bus) : p_(port), bus_(bus) {}
  void sample(uint64_t cycle) override;

 private:
  RspInPorts p_;
  EventBus& bus_;
};

// ni_node's read-request hand-offs and the engine's deferred responses (ICD 16).
class ReadMonitor : public Component {
 public:
  ReadMonitor(const ReadPorts& port, EventBus& bus) : p_(port), bus_(bus) {}
  void sample(uint64_t cycle) override;

 private:
  ReadPorts p_;
  EventBus& bus_;
};

// qos_engine's trace port (qos_trace_t): the scheduling events of each cycle (with the
// handshake bits of the engine's own ports) as a TapEvent, and every write channel's status
// change, decoded after the clock edge.
class QosTraceMonitor : public Component {
 public:
  struct Ports {
    WideOut trace;  // qos_trace_t
    BlkPorts blk;
    PktPorts pkt;
    RspInPorts rsp;
    const uint8_t* init_done;
  };
  QosTraceMonitor(const Ports& port, EventBus& bus) : p_(port), bus_(bus) {}

  void on_reset() override;
  void sample(uint64_t cycle) override;
  void post_edge(uint64_t cycle) override;

  // Current status code of a write channel, as the engine holds it.
  uint8_t status(unsigned wch) const { return status_[wch]; }

 private:
  Ports p_;
  EventBus& bus_;
  std::array<uint8_t, 1024> status_{};
  std::array<uint32_t, 64> raw_{};  // the status words as last seen
};

}  // namespace sim
