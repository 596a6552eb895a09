// SPDX-License-Identifier: Apache-2.0
#include "sim/tb/node/ni_node_dut.hpp"

#include <cstdio>

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

// The GTKWave save file of an N-node trace: per node, groups for its CPU port, send unit
// (blocks and engine packets in, memory reads, req_tx), receive unit (req_rx, memory writes,
// rsp_tx, responses to the engine) and links, all from ni_node's ports and trace taps.
void NiNodeDut::write_save_file(const std::string& fst, unsigned nodes) {
  std::string path = fst;
  if (path.size() > 4 && path.compare(path.size() - 4, 4, ".fst") == 0)
    path.resize(path.size() - 4);
  path += ".gtkw";
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (f == nullptr) return;
  std::fprintf(f,
               "[*] GTKWave save file of an ni_sim --nodes %u trace (written by ni_sim)\n"
               "[*] Time: cycle c of the log spans 10c .. 10c+9; its rising edge is at 10c+5.\n"
               "[dumpfile] \"%s\"\n[timestart] 0\n[size] 1800 1000\n[sst_width] 260\n"
               "[signals_width] 360\n",
               nodes, fst.c_str());
  struct Sig {
    const char* name;
    unsigned width;
  };
  auto group = [f](const std::string& title, const std::string& n, std::vector<Sig> sigs,
                   bool closed) {
    std::fprintf(f, "@%s\n-%s\n", closed ? "c00200" : "800200", title.c_str());
    for (const Sig& s : sigs) {
      if (s.width == 1) {
        std::fprintf(f, "@28\n%s.%s\n", n.c_str(), s.name);
      } else {
        std::fprintf(f, "@22\n%s.%s[%u:0]\n", n.c_str(), s.name, s.width - 1);
      }
    }
    std::fprintf(f, "@%s\n-%s\n", closed ? "1401200" : "1000200", title.c_str());
  };
  for (unsigned i = 0; i < nodes; ++i) {
    const std::string n = "node" + std::to_string(i);
    std::fprintf(f, "@28\n%s.clk_i\n%s.rst_ni\n%s.init_done_o\n", n.c_str(), n.c_str(), n.c_str());
    group(n + " CPU port", n,
          {{"s_axi_awvalid_i", 1},
           {"s_axi_awready_o", 1},
           {"s_axi_awaddr_i", 32},
           {"s_axi_wvalid_i", 1},
           {"s_axi_wready_o", 1},
           {"s_axi_wdata_i", 128},
           {"s_axi_bvalid_o", 1},
           {"s_axi_bresp_o", 2},
           {"s_axi_arvalid_i", 1},
           {"s_axi_arready_o", 1},
           {"s_axi_araddr_i", 32},
           {"s_axi_rvalid_o", 1},
           {"s_axi_rdata_o", 128}},
          i != 0);
    group(n + " send unit", n,
          {{"trace_blk_valid_o", 1},
           {"trace_blk_ready_o", 1},
           {"trace_blk_tid_o", 10},
           {"trace_pkt_valid_o", 1},
           {"trace_pkt_ready_o", 1},
           {"m_axi_arvalid_o", 1},
           {"m_axi_arready_i", 1},
           {"m_axi_araddr_o", 48},
           {"m_axi_arlen_o", 8},
           {"m_axi_rvalid_i", 1},
           {"m_axi_rready_o", 1},
           {"m_axi_rlast_i", 1},
           {"req_tx_valid_o", 1},
           {"req_tx_ready_i", 1},
           {"req_tx_last_o", 1}},
          false);
    group(n + " receive unit", n,
          {{"req_rx_valid_i", 1},
           {"req_rx_ready_o", 1},
           {"req_rx_last_i", 1},
           {"m_axi_awvalid_o", 1},
           {"m_axi_awready_i", 1},
           {"m_axi_awaddr_o", 48},
           {"m_axi_awlen_o", 8},
           {"m_axi_wvalid_o", 1},
           {"m_axi_wready_i", 1},
           {"m_axi_wlast_o", 1},
           {"m_axi_wstrb_o", 64},
           {"m_axi_bvalid_i", 1},
           {"m_axi_bready_o", 1},
           {"rsp_tx_valid_o", 1},
           {"rsp_tx_ready_i", 1},
           {"trace_rsp_valid_o", 1},
           {"trace_rsp_ready_o", 1},
           {"trace_rx_busy_o", 1}},
          false);
    group(n + " links", n,
          {{"req_tx_data_o", 512},
           {"req_rx_data_i", 512},
           {"rsp_tx_data_o", 512},
           {"rsp_rx_valid_i", 1},
           {"rsp_rx_ready_o", 1},
           {"rsp_rx_data_i", 512}},
          true);
  }
  std::fclose(f);
}

void NiNodeDut::set_clk(bool high) { impl_->dut.set_clk(high); }
void NiNodeDut::set_rst_n(bool high) { impl_->dut.set_rst_n(high); }
void NiNodeDut::eval() { impl_->dut.eval(); }
void NiNodeDut::trace(VerilatedFstC& fst, int levels) { impl_->dut.trace(fst, levels); }
void NiNodeDut::final() { impl_->dut.final(); }
const std::string& NiNodeDut::name() const { return impl_->dut.name(); }

}  // namespace sim
