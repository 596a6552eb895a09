// SPDX-License-Identifier: Apache-2.0
// Port bundles: one struct of pointers per interface of a verilated top, filled by that top's
// adapter (sim/tb/<top>/), so that the agents of sim/agents/ drive and watch any top, and
// several instances of one, without naming a verilated class (OpenTitan's
// verilated_toplevel idea).
//
// The pointers point into the verilated model's port members. Verilator stores a port of
// 1..8 bits in a uint8_t, 9..16 in a uint16_t, 17..32 in a uint32_t, 33..64 in a uint64_t and
// anything wider as an array of uint32_t words (word 0 = bits 31:0), which is what `Wide`
// points to. Inputs (driven by the harness) are non-const, outputs const.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace sim {

// A port wider than 64 bits: `words` 32-bit words, word 0 = bits 31:0.
template <typename T>
struct WidePort {
  T* p = nullptr;
  std::size_t words = 0;

  // The low N 64-bit words (N * 64 <= the port's width rounded up to 64).
  template <std::size_t N>
  std::array<uint64_t, N> get() const {
    std::array<uint64_t, N> r{};
    for (std::size_t i = 0; i < N; ++i) {
      const uint64_t lo = 2 * i < words ? p[2 * i] : 0;
      const uint64_t hi = 2 * i + 1 < words ? p[2 * i + 1] : 0;
      r[i] = lo | (hi << 32);
    }
    return r;
  }
  template <std::size_t N>
  void set(const std::array<uint64_t, N>& v) const {
    for (std::size_t i = 0; i < words; ++i) {
      const uint64_t w = i / 2 < N ? v[i / 2] : 0;
      p[i] = static_cast<uint32_t>(i % 2 ? (w >> 32) : w);
    }
  }
  void clear() const {
    for (std::size_t i = 0; i < words; ++i) p[i] = 0;
  }
};
using WideIn = WidePort<uint32_t>;
using WideOut = WidePort<const uint32_t>;

// CPU-side AXI4 slave (ICD sections 2-3): 128-bit data, 32-bit address, 4-bit IDs.
struct AxiSlavePorts {
  uint8_t* awvalid;
  const uint8_t* awready;
  uint8_t* awid;
  uint32_t* awaddr;
  uint8_t* awlen;
  uint8_t* awsize;
  uint8_t* awburst;
  uint8_t* wvalid;
  const uint8_t* wready;
  WideIn wdata;  // 128 bits
  uint16_t* wstrb;
  uint8_t* wlast;
  const uint8_t* bvalid;
  uint8_t* bready;
  const uint8_t* bid;
  const uint8_t* bresp;
  uint8_t* arvalid;
  const uint8_t* arready;
  uint8_t* arid;
  uint32_t* araddr;
  uint8_t* arlen;
  uint8_t* arsize;
  uint8_t* arburst;
  const uint8_t* rvalid;
  uint8_t* rready;
  const uint8_t* rid;
  WideOut rdata;  // 128 bits
  const uint8_t* rresp;
  const uint8_t* rlast;
};

// qos_engine's block descriptor output (ICD section 2).
struct BlkPorts {
  const uint8_t* valid;
  uint8_t* ready;
  const uint16_t* tid;
  WideOut desc;  // 256 bits
};

// qos_engine's packet queue output: one whole packet per beat.
struct PktPorts {
  const uint8_t* valid;
  uint8_t* ready;
  WideOut data;  // 512 bits
};

// qos_engine's response input: rsp_t {seq, tid, nack}.
struct RspInPorts {
  uint8_t* valid;
  const uint8_t* ready;
  uint32_t* rsp;
};

// ni_node's read-request interface between the receive unit and the engine, and the engine's
// deferred responses (ICD 16), as trace outputs.
struct ReadPorts {
  const uint8_t* rreq_valid;
  const uint8_t* rreq_ready;
  WideOut rreq;  // 512 bits: the READ_REQ head beat
  const uint8_t* drsp_valid;
  const uint8_t* drsp_ready;
  const uint32_t* drsp;  // rsp_t {seq, tid, nack}
  const uint16_t* drsp_node;
};

// A 512-bit network stream (ICD 10), seen from the node: `Tx` leaves the node, `Rx` enters.
struct StreamTxPorts {
  const uint8_t* valid;
  uint8_t* ready;
  WideOut data;
  const uint8_t* last;  // nullptr: one-beat packets only (rsp_tx)
};
struct StreamRxPorts {
  uint8_t* valid;
  const uint8_t* ready;
  WideIn data;
  uint8_t* last;  // nullptr: one-beat packets only (rsp_rx)
};

// Memory-side AXI4 master of ni_node (ICD 10): 512-bit data, 48-bit address, 4-bit IDs.
struct AxiMemPorts {
  const uint8_t* awvalid;
  uint8_t* awready;
  const uint8_t* awid;
  const uint64_t* awaddr;
  const uint8_t* awlen;
  const uint8_t* awsize;
  const uint8_t* awburst;
  const uint8_t* wvalid;
  uint8_t* wready;
  WideOut wdata;  // 512 bits
  const uint64_t* wstrb;
  const uint8_t* wlast;
  uint8_t* bvalid;
  const uint8_t* bready;
  uint8_t* bid;
  uint8_t* bresp;
  const uint8_t* arvalid;
  uint8_t* arready;
  const uint8_t* arid;
  const uint64_t* araddr;
  const uint8_t* arlen;
  const uint8_t* arsize;
  const uint8_t* arburst;
  uint8_t* rvalid;
  const uint8_t* rready;
  uint8_t* rid;
  WideIn rdata;  // 512 bits
  uint8_t* rresp;
  uint8_t* rlast;
};

}  // namespace sim
