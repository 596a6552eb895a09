// SPDX-License-Identifier: Apache-2.0
// Constants, enums and index helpers of the golden models.
//
// The constants are those of rtl/common/ni_pkg.sv, through the header scripts/gen_pkg.py
// generates from it (ni_pkg_gen.hpp): the package is the one source of truth, and
// tests/ref_model/test_types.cpp checks it against the ICD. Everything in the models lives in
// namespace ni.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>

#include "ni_pkg_gen.hpp"

namespace ni {

// ---------------------------------------------------------------------------------------------
// Geometry (ICD section 1); fixed by the address map and the formats.
// ---------------------------------------------------------------------------------------------
constexpr unsigned NumPages = ni_pkg::NumPages;
constexpr unsigned ChPerPage = ni_pkg::ChPerPage;  // 0..63 write channels, 64..127 read channels
constexpr unsigned WrChPerPage = ni_pkg::WrChPerPage;
constexpr unsigned RdChPerPage = ni_pkg::RdChPerPage;  // read channels 64..127 (ICD 16)
constexpr unsigned NumXfers = ni_pkg::NumXfers;        // 2048 Transfer Table lines
constexpr unsigned NumWch = ni_pkg::NumWch;            // 1024 write channels
constexpr unsigned NumTids = ni_pkg::NumTids;          // Transaction Table entries
constexpr unsigned TidOnlyIds = ni_pkg::TidOnlyIds;    // TIDs 0..511 in the TID FIFO
constexpr unsigned FlowBlocks = ni_pkg::FlowBlocks;    // TIDs per flow: (f<<2)..(f<<2)+3
constexpr unsigned Fid1Base = ni_pkg::Fid1Base;        // 1xFID pool 128..191
constexpr unsigned Fid1Count = ni_pkg::Fid1Count;
constexpr unsigned Fid4Base = ni_pkg::Fid4Base;  // 4xFID groups 192,196,..,252
constexpr unsigned Fid4Count = ni_pkg::Fid4Count;
constexpr unsigned Fid4Stride = ni_pkg::FlowBlocks;
constexpr uint32_t BlockBytes = ni_pkg::BlockBytes;
constexpr unsigned BlockW = ni_pkg::BlockW;  // log2(BlockBytes)
constexpr unsigned SeqW = ni_pkg::SeqW;
constexpr uint32_t SeqMask = (1u << SeqW) - 1;
constexpr unsigned CntW = ni_pkg::CntW;  // block counts
constexpr unsigned NumStats = ni_pkg::NumStats;
constexpr unsigned LineWords = ni_pkg::LineW / 64;  // 64-bit words per Transfer Table line

// Defaults of the configurable parameters.
constexpr unsigned DefaultIntraPrios = 8;
constexpr unsigned DefaultMaxOutstanding = 2;
constexpr unsigned DefaultAccSets = 1;
constexpr uint64_t DefaultMaxRetries = ni_pkg::MaxRetriesReset;
constexpr uint64_t DefaultRetxTimeout = ni_pkg::RetxTimeoutReset;  // 0 = off
constexpr uint64_t DefaultRxIdle = ni_pkg::RxIdleReset;
constexpr unsigned NodeStatBase = ni_pkg::NodeStatBase;  // ni_node counters 16..26
constexpr unsigned NumNodeStats = ni_pkg::NumNodeStats;
constexpr unsigned RdStatBase = ni_pkg::RdStatBase;  // counters 27..29 (ICD 16)
constexpr unsigned NumRdStats = ni_pkg::NumRdStats;

// Parameters a model instance is built for.
struct Config {
  unsigned intra_prios = DefaultIntraPrios;  // 1, 2, 4, 8 or 16
  unsigned max_outstanding = DefaultMaxOutstanding;
  unsigned acc_sets = DefaultAccSets;  // 1 or 16
  // Inside ni_node (ICD 14): control words 2 (RxIdle, writable) and 3 (node id, read-only)
  // exist, and statistics counters 16-26 belong to the send and receive units.
  bool node_regs = false;
  uint16_t node_id = 0;
};

// ---------------------------------------------------------------------------------------------
// Enums
// ---------------------------------------------------------------------------------------------
enum class Kind : uint8_t {
  Tid = ni_pkg::kind_e::KindTid,
  OneFid = ni_pkg::kind_e::Kind1x,
  FourFid = ni_pkg::kind_e::Kind4x,
  Inline = ni_pkg::kind_e::KindInline
};
enum class Status : uint8_t {
  Idle = ni_pkg::status_e::StIdle,
  Busy = ni_pkg::status_e::StBusy,
  Done = ni_pkg::status_e::StDone,
  Error = ni_pkg::status_e::StError
};

// "tid", "1x", "4x", "inline" (the scenario file's names).
const char* to_string(Kind k);
// "IDLE", "BUSY", "DONE", "ERROR" (the log file's names).
const char* to_string(Status s);
std::optional<Kind> kind_from_string(const std::string& s);
std::optional<Status> status_from_string(const std::string& s);
std::ostream& operator<<(std::ostream& os, Kind k);
std::ostream& operator<<(std::ostream& os, Status s);

constexpr bool is_memory(Kind k) { return k != Kind::Inline; }
constexpr bool is_cm(Kind k) { return k == Kind::OneFid || k == Kind::FourFid; }

// ---------------------------------------------------------------------------------------------
// Index helpers
// ---------------------------------------------------------------------------------------------
// Transfer id = Transfer Table line index = page*128 + channel (11 bit).
constexpr unsigned xfer_id(unsigned page, unsigned channel) { return page * ChPerPage + channel; }
constexpr unsigned xfer_page(unsigned xfer) { return xfer / ChPerPage; }
constexpr unsigned xfer_channel(unsigned xfer) { return xfer % ChPerPage; }
// Channels 64..127 of a page are read channels (ICD 1, 16): the engine serves read requests
// there; they have no CPU-visible status.
constexpr bool is_read_channel(unsigned xfer) { return xfer_channel(xfer) >= WrChPerPage; }

// Write-channel index (status registers) = page*64 + channel, channel < 64 (10 bit).
constexpr unsigned wch_index(unsigned page, unsigned channel) {
  return page * WrChPerPage + channel;
}
constexpr unsigned wch_page(unsigned wch) { return wch / WrChPerPage; }
constexpr unsigned wch_channel(unsigned wch) { return wch % WrChPerPage; }
constexpr unsigned wch_of_xfer(unsigned xfer) {
  return wch_index(xfer_page(xfer), xfer_channel(xfer));
}

}  // namespace ni
