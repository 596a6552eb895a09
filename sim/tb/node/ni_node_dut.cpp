// SPDX-License-Identifier: Apache-2.0
#include "sim/tb/node/ni_node_dut.hpp"

#include "Vni_node.h"
#include "sim/tb/bind.hpp"

namespace sim {

struct NiNodeDut::Impl {
  VerilatedDut<Vni_node> dut;
  Impl(VerilatedContext& ctx, const std::string& name) : dut(ctx, name) {}
};

namespace {
// An output used where the bundle has an input member: the monitors only read it.
template <typename T>
T* tap(const T& out) {
  return const_cast<T*>(&out);
}
}  // namespace

NiNodeDut::NiNodeDut(VerilatedContext& ctx, const std::string& name)
    : impl_(std::make_unique<Impl>(ctx, name)) {
  Vni_node& m = impl_->dut.model();
  ports_.axi = bind_axi_slave(m);
  ports_.mem = bind_axi_mem(m);
  ports_.req_tx = StreamTxPorts{&m.req_tx_valid_o, &m.req_tx_ready_i, wide_out(m.req_tx_data_o),
                                &m.req_tx_last_o};
  ports_.rsp_tx =
      StreamTxPorts{&m.rsp_tx_valid_o, &m.rsp_tx_ready_i, wide_out(m.rsp_tx_data_o), nullptr};
  ports_.req_rx = StreamRxPorts{&m.req_rx_valid_i, &m.req_rx_ready_o, wide_in(m.req_rx_data_i),
                                &m.req_rx_last_i};
  ports_.rsp_rx =
      StreamRxPorts{&m.rsp_rx_valid_i, &m.rsp_rx_ready_o, wide_in(m.rsp_rx_data_i), nullptr};
  ports_.node_id = &m.node_id_i;
  ports_.init_done = &m.init_done_o;
  ports_.trace = wide_out(m.trace_qos_o);
  ports_.blk = BlkPorts{&m.trace_blk_valid_o, tap(m.trace_blk_ready_o), &m.trace_blk_tid_o,
                        wide_out(m.trace_blk_desc_o)};
  ports_.pkt =
      PktPorts{&m.trace_pkt_valid_o, tap(m.trace_pkt_ready_o), wide_out(m.trace_pkt_data_o)};
  ports_.rsp = RspInPorts{tap(m.trace_rsp_valid_o), &m.trace_rsp_ready_o, tap(m.trace_rsp_o)};
  ports_.rx_busy = &m.trace_rx_busy_o;
}

NiNodeDut::~NiNodeDut() = default;

std::vector<CaptureSignal> NiNodeDut::capture_columns() const {
  const Vni_node& m = impl_->dut.model();
  std::vector<CaptureSignal> c = capture_axi_slave(m);
  c.insert(c.end(), {
                        {"req_tx_valid_o", 1, &m.req_tx_valid_o},
                        {"req_tx_ready_i", 1, &m.req_tx_ready_i},
                        {"req_tx_last_o", 1, &m.req_tx_last_o},
                        {"req_tx_data_o", 512, m.req_tx_data_o.data()},
                        {"req_rx_valid_i", 1, &m.req_rx_valid_i},
                        {"req_rx_ready_o", 1, &m.req_rx_ready_o},
                        {"req_rx_last_i", 1, &m.req_rx_last_i},
                        {"req_rx_data_i", 512, m.req_rx_data_i.data()},
                        {"rsp_tx_valid_o", 1, &m.rsp_tx_valid_o},
                        {"rsp_tx_ready_i", 1, &m.rsp_tx_ready_i},
                        {"rsp_tx_data_o", 512, m.rsp_tx_data_o.data()},
                        {"rsp_rx_valid_i", 1, &m.rsp_rx_valid_i},
                        {"rsp_rx_ready_o", 1, &m.rsp_rx_ready_o},
                        {"rsp_rx_data_i", 512, m.rsp_rx_data_i.data()},
                        {"init_done_o", 1, &m.init_done_o},
                    });
  return c;
}

void NiNodeDut::set_clk(bool high) { impl_->dut.set_clk(high); }
void NiNodeDut::set_rst_n(bool high) { impl_->dut.set_rst_n(high); }
void NiNodeDut::eval() { impl_->dut.eval(); }
void NiNodeDut::trace(VerilatedFstC& fst, int levels) { impl_->dut.trace(fst, levels); }
void NiNodeDut::final() { impl_->dut.final(); }
const std::string& NiNodeDut::name() const { return impl_->dut.name(); }

}  // namespace sim
