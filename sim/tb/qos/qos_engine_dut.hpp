// SPDX-License-Identifier: Apache-2.0
// Adapter of the qos_engine top: the verilated model as a sim::Dut and its port bundles.
// The only place of the harness that names the verilated class Vqos_engine (with
// qos_engine_dut.cpp); everything else binds to QosEnginePorts.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "sim/core/capture.hpp"
#include "sim/core/dut.hpp"
#include "sim/core/ports.hpp"

class VerilatedContext;

namespace sim {

struct QosEnginePorts {
  AxiSlavePorts axi;
  BlkPorts blk;
  PktPorts pkt;
  RspInPorts rsp;
  const uint8_t* init_done;
  WideOut trace;  // qos_trace_t
};

class QosEngineDut : public Dut {
 public:
  QosEngineDut(VerilatedContext& ctx, const std::string& name);
  ~QosEngineDut() override;
  QosEngineDut(const QosEngineDut&) = delete;
  QosEngineDut& operator=(const QosEngineDut&) = delete;

  const QosEnginePorts& ports() const { return ports_; }
  // The top-level ports as capture columns (docs/simulator.md "Hardware captures").
  std::vector<CaptureSignal> capture_columns() const;

  void set_clk(bool high) override;
  void set_rst_n(bool high) override;
  void eval() override;
  void trace(VerilatedFstC& fst, int levels) override;
  void final() override;
  const std::string& name() const override;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  QosEnginePorts ports_;
};

}  // namespace sim
