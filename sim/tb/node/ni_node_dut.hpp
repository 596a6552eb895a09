// SPDX-License-Identifier: Apache-2.0
// Adapter of the ni_node top (ICD 10): the verilated model as a sim::Dut and its port
// bundles. The only place of the N-node harness that names the verilated class Vni_node
// (with ni_node_dut.cpp); everything else binds to NiNodePorts.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "sim/core/capture.hpp"
#include "sim/core/dut.hpp"
#include "sim/core/ports.hpp"

class VerilatedContext;

namespace sim {

struct NiNodePorts {
  AxiSlavePorts axi;  // CPU port
  AxiMemPorts mem;    // memory master
  StreamTxPorts req_tx, rsp_tx;
  StreamTxPorts rx_rsp;  // the receive unit's responses before they share rsp_tx (trace)
  ReadPorts rd;          // read requests to the engine, its deferred responses (trace)
  StreamRxPorts req_rx, rsp_rx;
  uint16_t* node_id;
  const uint8_t* init_done;
  // Trace port: the engine's qos_trace_t and taps of the engine <-> unit interfaces. The
  // taps are outputs of ni_node; they use the engine's port bundles (whose ready/valid
  // members are inputs of qos_engine) for the monitors, which only read them.
  WideOut trace;
  BlkPorts blk;
  PktPorts pkt;
  RspInPorts rsp;
  const uint8_t* rx_busy;  // the receive unit holds a context or a packet
};

class NiNodeDut : public Dut {
 public:
  NiNodeDut(VerilatedContext& ctx, const std::string& name);
  ~NiNodeDut() override;
  NiNodeDut(const NiNodeDut&) = delete;
  NiNodeDut& operator=(const NiNodeDut&) = delete;

  const NiNodePorts& ports() const { return ports_; }
  // The top-level ports a probe on one NI sees (CPU port, the four network streams), as
  // capture columns (docs/simulator.md "Hardware captures").
  std::vector<CaptureSignal> capture_columns() const;
  // The GTKWave save file of an N-node trace `fst` (scopes node0, node1, ...), beside it
  // with the extension .gtkw.
  static void write_save_file(const std::string& fst, unsigned nodes);

  void set_clk(bool high) override;
  void set_rst_n(bool high) override;
  void eval() override;
  bool split_eval(bool on) override;
  void trace(VerilatedFstC& fst, int levels) override;
  void final() override;
  const std::string& name() const override;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  NiNodePorts ports_;
};

}  // namespace sim
