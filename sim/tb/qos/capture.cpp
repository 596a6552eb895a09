// SPDX-License-Identifier: Apache-2.0
#include "sim/tb/qos/capture.hpp"

#include <cinttypes>
#include <stdexcept>

#include "Vqos_engine.h"

namespace sim {

namespace {
struct Col {
  const char* name;
  unsigned width;
};
// Column order of the capture (inputs and outputs of qos_engine).
constexpr Col kCols[] = {
    {"rst_ni", 1},          {"s_axi_awvalid_i", 1}, {"s_axi_awready_o", 1}, {"s_axi_awid_i", 4},
    {"s_axi_awaddr_i", 32}, {"s_axi_awlen_i", 8},   {"s_axi_awsize_i", 3},  {"s_axi_awburst_i", 2},
    {"s_axi_wvalid_i", 1},  {"s_axi_wready_o", 1},  {"s_axi_wdata_i", 128}, {"s_axi_wstrb_i", 16},
    {"s_axi_wlast_i", 1},   {"s_axi_bvalid_o", 1},  {"s_axi_bready_i", 1},  {"s_axi_bid_o", 4},
    {"s_axi_bresp_o", 2},   {"s_axi_arvalid_i", 1}, {"s_axi_arready_o", 1}, {"s_axi_arid_i", 4},
    {"s_axi_araddr_i", 32}, {"s_axi_arlen_i", 8},   {"s_axi_arsize_i", 3},  {"s_axi_arburst_i", 2},
    {"s_axi_rvalid_o", 1},  {"s_axi_rready_i", 1},  {"s_axi_rid_o", 4},     {"s_axi_rdata_o", 128},
    {"s_axi_rresp_o", 2},   {"s_axi_rlast_o", 1},   {"blk_valid_o", 1},     {"blk_ready_i", 1},
    {"blk_tid_o", 10},      {"pkt_valid_o", 1},     {"pkt_ready_i", 1},     {"rsp_valid_i", 1},
    {"rsp_ready_o", 1},     {"rsp_i", 25},          {"init_done_o", 1},
};

void put_hex(std::string& row, uint64_t v, unsigned width) {
  char b[24];
  std::snprintf(b, sizeof b, "%0*" PRIx64, int((width + 3) / 4), v);
  row += b;
}

template <std::size_t W>
void put_wide(std::string& row, const VlWide<W>& v, unsigned width) {
  // most significant word first
  const unsigned words = (width + 31) / 32;
  for (unsigned i = words; i-- > 0;) {
    char b[16];
    std::snprintf(b, sizeof b, "%08" PRIx32, v[i]);
    row += b;
  }
}
}  // namespace

CaptureWriter::CaptureWriter(Vqos_engine& dut, const std::string& path) : dut_(dut) {
  f_ = std::fopen(path.c_str(), "w");
  if (f_ == nullptr) throw std::runtime_error("cannot write capture file " + path);
  std::string head = "Sample", radix = "Radix";
  for (const Col& c : kCols) {
    head += ",";
    head += c.name;
    if (c.width > 1) head += "[" + std::to_string(c.width - 1) + ":0]";
    radix += c.width > 1 ? ",hex" : ",bin";
  }
  std::fprintf(f_, "%s\n%s\n", head.c_str(), radix.c_str());
}

CaptureWriter::~CaptureWriter() {
  if (f_ != nullptr) std::fclose(f_);
}

void CaptureWriter::sample(uint64_t cycle) {
  Vqos_engine& d = dut_;
  row_.clear();
  row_ += std::to_string(cycle);
  auto bit = [&](uint64_t v) { row_ += v ? ",1" : ",0"; };
  auto hexv = [&](uint64_t v, unsigned w) {
    row_ += ",";
    put_hex(row_, v, w);
  };
  bit(d.rst_ni);
  bit(d.s_axi_awvalid_i);
  bit(d.s_axi_awready_o);
  hexv(d.s_axi_awid_i, 4);
  hexv(d.s_axi_awaddr_i, 32);
  hexv(d.s_axi_awlen_i, 8);
  hexv(d.s_axi_awsize_i, 3);
  hexv(d.s_axi_awburst_i, 2);
  bit(d.s_axi_wvalid_i);
  bit(d.s_axi_wready_o);
  row_ += ",";
  put_wide(row_, d.s_axi_wdata_i, 128);
  hexv(d.s_axi_wstrb_i, 16);
  bit(d.s_axi_wlast_i);
  bit(d.s_axi_bvalid_o);
  bit(d.s_axi_bready_i);
  hexv(d.s_axi_bid_o, 4);
  hexv(d.s_axi_bresp_o, 2);
  bit(d.s_axi_arvalid_i);
  bit(d.s_axi_arready_o);
  hexv(d.s_axi_arid_i, 4);
  hexv(d.s_axi_araddr_i, 32);
  hexv(d.s_axi_arlen_i, 8);
  hexv(d.s_axi_arsize_i, 3);
  hexv(d.s_axi_arburst_i, 2);
  bit(d.s_axi_rvalid_o);
  bit(d.s_axi_rready_i);
  hexv(d.s_axi_rid_o, 4);
  row_ += ",";
  put_wide(row_, d.s_axi_rdata_o, 128);
  hexv(d.s_axi_rresp_o, 2);
  bit(d.s_axi_rlast_o);
  bit(d.blk_valid_o);
  bit(d.blk_ready_i);
  hexv(d.blk_tid_o, 10);
  bit(d.pkt_valid_o);
  bit(d.pkt_ready_i);
  bit(d.rsp_valid_i);
  bit(d.rsp_ready_o);
  hexv(d.rsp_i, 25);
  bit(d.init_done_o);
  row_ += "\n";
  std::fputs(row_.c_str(), f_);
}

}  // namespace sim
