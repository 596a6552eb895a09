// SPDX-License-Identifier: Apache-2.0
// RDMA Read (ICD 16) as the harness encodes and recognises it, in one place: the control
// word's read bit, the engine-packet and wire kinds of a read request, the read channels,
// the wire kinds' names, and whether a descriptor the engine model announced is a read.
#pragma once

#include <cstdint>
#include <vector>

#include "ref_model/common/descriptor.hpp"
#include "ref_model/common/packet.hpp"
#include "ref_model/common/types.hpp"

namespace sim::rdma_read {

// Control word w3 bit 40 (ICD 4): the descriptor is an RDMA Read.
constexpr unsigned kCtrlReadBit = 40;
constexpr uint64_t kCtrlRead = uint64_t{1} << kCtrlReadBit;
// Engine packet header kind 2 (ICD 7): a read request.
constexpr unsigned kPktKindRead = ni::PktKindRead;
// Wire kind 5 (ICD 11): READ_REQ, on the request network.
constexpr unsigned kWireKindReadReq = 5;
// Channels 64..127 of a page are read channels (ICD 1, 16): a transfer there was created by
// the node's engine to serve a read request, it has no CPU-visible status.
constexpr unsigned kFirstReadChannel = ni::WrChPerPage;
static_assert(kFirstReadChannel == 64, "read channels are 64..127 (ICD 16)");
constexpr bool is_read_channel(unsigned xfer) {
  return ni::xfer_channel(xfer) >= kFirstReadChannel;
}

// The wire kinds by number (ICD 11), as the log, the scenarios and the coverage name them.
constexpr const char* kWireKindNames[] = {"inline", "control", "data", "ack", "nack", "rreq"};
constexpr unsigned kNumWireKinds = sizeof(kWireKindNames) / sizeof(kWireKindNames[0]);
inline const char* wire_kind_name(unsigned k) {
  return k < kNumWireKinds ? kWireKindNames[k] : "?";
}

// Whether a descriptor is a read (ICD 16: control word bit 40), and setting it.
inline bool is_read(const ni::Descriptor& d) { return d.read; }
inline void set_read(ni::Descriptor& d, bool read) { d.read = read; }

// The descriptor's words (ni::Descriptor::encode) with the read bit of w3 as `read` says.
inline std::vector<uint64_t> encode(const ni::Descriptor& d, bool read) {
  std::vector<uint64_t> w = d.encode();
  w[3] = read ? (w[3] | kCtrlRead) : (w[3] & ~kCtrlRead);
  return w;
}

// Whether a control word (w3) has the read bit.
constexpr bool ctrl_is_read(uint64_t w3) { return (w3 & kCtrlRead) != 0; }

}  // namespace sim::rdma_read
