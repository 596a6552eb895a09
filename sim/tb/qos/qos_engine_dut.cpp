// SPDX-License-Identifier: Apache-2.0
#include "sim/tb/qos/qos_engine_dut.hpp"

#include "Vqos_engine.h"
#include "sim/tb/bind.hpp"

namespace sim {

struct QosEngineDut::Impl {
  VerilatedDut<Vqos_engine> dut;
  Impl(VerilatedContext& ctx, const std::string& name) : dut(ctx, name) {}
};

QosEngineDut::QosEngineDut(VerilatedContext& ctx, const std::string& name)
    : impl_(std::make_unique<Impl>(ctx, name)) {
  Vqos_engine& m = impl_->dut.model();
  ports_.axi = bind_axi_slave(m);
  ports_.blk = BlkPorts{&m.blk_valid_o, &m.blk_ready_i, &m.blk_tid_o, wide_out(m.blk_desc_o)};
  ports_.pkt = PktPorts{&m.pkt_valid_o, &m.pkt_ready_i, wide_out(m.pkt_data_o)};
  ports_.rsp = RspInPorts{&m.rsp_valid_i, &m.rsp_ready_o, &m.rsp_i};
  ports_.init_done = &m.init_done_o;
  ports_.trace = wide_out(m.trace_o);
}

QosEngineDut::~QosEngineDut() = default;

std::vector<CaptureSignal> QosEngineDut::capture_columns() const {
  const Vqos_engine& m = impl_->dut.model();
  std::vector<CaptureSignal> c = capture_axi_slave(m);
  c.insert(c.end(), {
                        {"blk_valid_o", 1, &m.blk_valid_o},
                        {"blk_ready_i", 1, &m.blk_ready_i},
                        {"blk_tid_o", 10, &m.blk_tid_o},
                        {"pkt_valid_o", 1, &m.pkt_valid_o},
                        {"pkt_ready_i", 1, &m.pkt_ready_i},
                        {"rsp_valid_i", 1, &m.rsp_valid_i},
                        {"rsp_ready_o", 1, &m.rsp_ready_o},
                        {"rsp_i", 25, &m.rsp_i},
                        {"init_done_o", 1, &m.init_done_o},
                    });
  return c;
}

void QosEngineDut::set_clk(bool high) { impl_->dut.set_clk(high); }
void QosEngineDut::set_rst_n(bool high) { impl_->dut.set_rst_n(high); }
void QosEngineDut::eval() { impl_->dut.eval(); }
void QosEngineDut::trace(VerilatedFstC& fst, int levels) { impl_->dut.trace(fst, levels); }
void QosEngineDut::final() { impl_->dut.final(); }
const std::string& QosEngineDut::name() const { return impl_->dut.name(); }

}  // namespace sim
