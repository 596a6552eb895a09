// SPDX-License-Identifier: Apache-2.0
// Port binding for verilated tops: fills the bundles of sim/core/ports.hpp from a verilated
// model's port members by their ICD names, and wraps the model as a sim::Dut. Every top that
// has an interface under its ICD names (qos_engine, ni_node) binds it with the same function,
// so a new top needs only its own small adapter (sim/tb/<top>/).
#pragma once

#include <memory>
#include <string>

#include "sim/core/capture.hpp"
#include "sim/core/dut.hpp"
#include "sim/core/ports.hpp"
#include "verilated.h"
#include "verilated_fst_c.h"

namespace sim {

template <std::size_t W>
WideIn wide_in(VlWide<W>& v) {
  return WideIn{v.data(), W};
}
template <std::size_t W>
WideOut wide_out(const VlWide<W>& v) {
  return WideOut{v.data(), W};
}

// The CPU-side AXI4 slave, s_axi_* (ICD 2).
template <class V>
AxiSlavePorts bind_axi_slave(V& m) {
  AxiSlavePorts p;
  p.awvalid = &m.s_axi_awvalid_i;
  p.awready = &m.s_axi_awready_o;
  p.awid = &m.s_axi_awid_i;
  p.awaddr = &m.s_axi_awaddr_i;
  p.awlen = &m.s_axi_awlen_i;
  p.awsize = &m.s_axi_awsize_i;
  p.awburst = &m.s_axi_awburst_i;
  p.wvalid = &m.s_axi_wvalid_i;
  p.wready = &m.s_axi_wready_o;
  p.wdata = wide_in(m.s_axi_wdata_i);
  p.wstrb = &m.s_axi_wstrb_i;
  p.wlast = &m.s_axi_wlast_i;
  p.bvalid = &m.s_axi_bvalid_o;
  p.bready = &m.s_axi_bready_i;
  p.bid = &m.s_axi_bid_o;
  p.bresp = &m.s_axi_bresp_o;
  p.arvalid = &m.s_axi_arvalid_i;
  p.arready = &m.s_axi_arready_o;
  p.arid = &m.s_axi_arid_i;
  p.araddr = &m.s_axi_araddr_i;
  p.arlen = &m.s_axi_arlen_i;
  p.arsize = &m.s_axi_arsize_i;
  p.arburst = &m.s_axi_arburst_i;
  p.rvalid = &m.s_axi_rvalid_o;
  p.rready = &m.s_axi_rready_i;
  p.rid = &m.s_axi_rid_o;
  p.rdata = wide_out(m.s_axi_rdata_o);
  p.rresp = &m.s_axi_rresp_o;
  p.rlast = &m.s_axi_rlast_o;
  return p;
}

// The read channels (AR, R) of the memory AXI4 master into `p`.
template <class V>
void bind_axi_mem_ar_r(V& m, AxiMemPorts& p) {
  p.arvalid = &m.m_axi_arvalid_o;
  p.arready = &m.m_axi_arready_i;
  p.arid = &m.m_axi_arid_o;
  p.araddr = &m.m_axi_araddr_o;
  p.arlen = &m.m_axi_arlen_o;
  p.arsize = &m.m_axi_arsize_o;
  p.arburst = &m.m_axi_arburst_o;
  p.rvalid = &m.m_axi_rvalid_i;
  p.rready = &m.m_axi_rready_o;
  p.rid = &m.m_axi_rid_i;
  p.rdata = wide_in(m.m_axi_rdata_i);
  p.rresp = &m.m_axi_rresp_i;
  p.rlast = &m.m_axi_rlast_i;
}

// The write channels (AW, W, B) of the memory AXI4 master m_axi_* (ICD 10).
template <class V>
void bind_axi_mem_aw_w_b(V& m, AxiMemPorts& p) {
  p.awvalid = &m.m_axi_awvalid_o;
  p.awready = &m.m_axi_awready_i;
  p.awid = &m.m_axi_awid_o;
  p.awaddr = &m.m_axi_awaddr_o;
  p.awlen = &m.m_axi_awlen_o;
  p.awsize = &m.m_axi_awsize_o;
  p.awburst = &m.m_axi_awburst_o;
  p.wvalid = &m.m_axi_wvalid_o;
  p.wready = &m.m_axi_wready_i;
  p.wdata = wide_out(m.m_axi_wdata_o);
  p.wstrb = &m.m_axi_wstrb_o;
  p.wlast = &m.m_axi_wlast_o;
  p.bvalid = &m.m_axi_bvalid_i;
  p.bready = &m.m_axi_bready_o;
  p.bid = &m.m_axi_bid_i;
  p.bresp = &m.m_axi_bresp_i;
}

// The memory AXI4 master, m_axi_* (ICD 10), as the memory model's slave side.
template <class V>
AxiMemPorts bind_axi_mem(V& m) {
  AxiMemPorts p;
  bind_axi_mem_aw_w_b(m, p);
  bind_axi_mem_ar_r(m, p);
  return p;
}

// Where the unused channels of a one-way memory master are tied (AxiTie must outlive
// the bundle): the memory model sees idle requests and its outputs land in `sink`.
struct AxiTie {
  uint8_t zero = 0, sink = 0;
  uint64_t zero64 = 0;
  uint32_t words[16] = {};
};

// The memory master of a top that only writes (recv_unit): AW/W/B by name, AR/R tied off.
template <class V>
AxiMemPorts bind_axi_mem_write(V& m, AxiTie& t) {
  AxiMemPorts p{};
  bind_axi_mem_aw_w_b(m, p);
  p.arvalid = &t.zero;
  p.arready = &t.sink;
  p.arid = &t.zero;
  p.araddr = &t.zero64;
  p.arlen = &t.zero;
  p.arsize = &t.zero;
  p.arburst = &t.zero;
  p.rvalid = &t.sink;
  p.rready = &t.zero;
  p.rid = &t.sink;
  p.rdata = WideIn{t.words, 16};
  p.rresp = &t.sink;
  p.rlast = &t.sink;
  return p;
}

// The memory master of a top that only reads (send_unit): AR/R by name, AW/W/B tied off.
template <class V>
AxiMemPorts bind_axi_mem_read(V& m, AxiTie& t) {
  AxiMemPorts p{};
  p.awvalid = &t.zero;
  p.awready = &t.sink;
  p.awid = &t.zero;
  p.awaddr = &t.zero64;
  p.awlen = &t.zero;
  p.awsize = &t.zero;
  p.awburst = &t.zero;
  p.wvalid = &t.zero;
  p.wready = &t.sink;
  p.wdata = WideOut{t.words, 16};
  p.wstrb = &t.zero64;
  p.wlast = &t.zero;
  p.bvalid = &t.sink;
  p.bready = &t.zero;
  p.bid = &t.sink;
  p.bresp = &t.sink;
  bind_axi_mem_ar_r(m, p);
  return p;
}

// The CPU-side AXI4 slave's ports and rst_ni as capture columns (docs/simulator.md
// "Hardware captures").
template <class V>
std::vector<CaptureSignal> capture_axi_slave(const V& m) {
  return {
      {"rst_ni", 1, &m.rst_ni},
      {"s_axi_awvalid_i", 1, &m.s_axi_awvalid_i},
      {"s_axi_awready_o", 1, &m.s_axi_awready_o},
      {"s_axi_awid_i", 4, &m.s_axi_awid_i},
      {"s_axi_awaddr_i", 32, &m.s_axi_awaddr_i},
      {"s_axi_awlen_i", 8, &m.s_axi_awlen_i},
      {"s_axi_awsize_i", 3, &m.s_axi_awsize_i},
      {"s_axi_awburst_i", 2, &m.s_axi_awburst_i},
      {"s_axi_wvalid_i", 1, &m.s_axi_wvalid_i},
      {"s_axi_wready_o", 1, &m.s_axi_wready_o},
      {"s_axi_wdata_i", 128, m.s_axi_wdata_i.data()},
      {"s_axi_wstrb_i", 16, &m.s_axi_wstrb_i},
      {"s_axi_wlast_i", 1, &m.s_axi_wlast_i},
      {"s_axi_bvalid_o", 1, &m.s_axi_bvalid_o},
      {"s_axi_bready_i", 1, &m.s_axi_bready_i},
      {"s_axi_bid_o", 4, &m.s_axi_bid_o},
      {"s_axi_bresp_o", 2, &m.s_axi_bresp_o},
      {"s_axi_arvalid_i", 1, &m.s_axi_arvalid_i},
      {"s_axi_arready_o", 1, &m.s_axi_arready_o},
      {"s_axi_arid_i", 4, &m.s_axi_arid_i},
      {"s_axi_araddr_i", 32, &m.s_axi_araddr_i},
      {"s_axi_arlen_i", 8, &m.s_axi_arlen_i},
      {"s_axi_arsize_i", 3, &m.s_axi_arsize_i},
      {"s_axi_arburst_i", 2, &m.s_axi_arburst_i},
      {"s_axi_rvalid_o", 1, &m.s_axi_rvalid_o},
      {"s_axi_rready_i", 1, &m.s_axi_rready_i},
      {"s_axi_rid_o", 4, &m.s_axi_rid_o},
      {"s_axi_rdata_o", 128, m.s_axi_rdata_o.data()},
      {"s_axi_rresp_o", 2, &m.s_axi_rresp_o},
      {"s_axi_rlast_o", 1, &m.s_axi_rlast_o},
  };
}

// A verilated model as a Dut: clock clk_i, reset rst_ni.
template <class V>
class VerilatedDut : public Dut {
 public:
  VerilatedDut(VerilatedContext& ctx, const std::string& name)
      : m_(std::make_unique<V>(&ctx, name.c_str())), name_(name) {}
  V& model() { return *m_; }
  const V& model() const { return *m_; }

  void set_clk(bool high) override { m_->clk_i = high; }
  void set_rst_n(bool high) override { m_->rst_ni = high; }
  void eval() override { m_->eval(); }
  void trace(VerilatedFstC& fst, int levels) override { m_->trace(&fst, levels); }
  void final() override { m_->final(); }
  const std::string& name() const override { return name_; }

 private:
  std::unique_ptr<V> m_;
  std::string name_;
};

}  // namespace sim
