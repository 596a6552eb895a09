// SPDX-License-Identifier: Apache-2.0
// Constants, enums and index helpers of the QoS engine golden model.
//
// Mirrors rtl/ni_pkg.sv and ICD section 1. Everything in the model lives in namespace ni.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>

namespace ni {

// ---------------------------------------------------------------------------------------------
// Geometry (ICD section 1); fixed by the address map and the formats.
// ---------------------------------------------------------------------------------------------
constexpr unsigned NumPages = 16;
constexpr unsigned ChPerPage = 128;  // 0..63 write channels, 64..127 read channels
constexpr unsigned WrChPerPage = 64;
constexpr unsigned NumXfers = NumPages * ChPerPage;  // 2048 Transfer Table lines
constexpr unsigned NumWch = NumPages * WrChPerPage;  // 1024 write channels
constexpr unsigned NumTids = 1024;                   // Transaction Table entries
constexpr unsigned TidOnlyIds = 512;                 // TIDs 0..511 in the TID FIFO
constexpr unsigned FlowBlocks = 4;                   // TIDs per flow: (f<<2)..(f<<2)+3
constexpr unsigned Fid1Base = 128;                   // 1xFID pool 128..191
constexpr unsigned Fid1Count = 64;
constexpr unsigned Fid4Base = 192;  // 4xFID groups 192,196,..,252
constexpr unsigned Fid4Count = 16;
constexpr unsigned Fid4Stride = 4;
constexpr uint32_t BlockBytes = 65536;
constexpr unsigned BlockW = 16;  // log2(BlockBytes)
constexpr unsigned SeqW = 14;
constexpr uint32_t SeqMask = (1u << SeqW) - 1;
constexpr unsigned CntW = 18;  // block counts
constexpr unsigned NumStats = 13;
constexpr unsigned LineWords = 4;  // 64-bit words per Transfer Table line

// Defaults of the configurable parameters.
constexpr unsigned DefaultIntraPrios = 8;
constexpr unsigned DefaultMaxOutstanding = 2;
constexpr unsigned DefaultAccSets = 1;
constexpr uint64_t DefaultMaxRetries = 3;
constexpr uint64_t DefaultRetxTimeout = 0;  // 0 = off

// Parameters a model instance is built for.
struct Config {
  unsigned intra_prios = DefaultIntraPrios;  // 1, 2, 4, 8 or 16
  unsigned max_outstanding = DefaultMaxOutstanding;
  unsigned acc_sets = DefaultAccSets;  // 1 or 16
};

// ---------------------------------------------------------------------------------------------
// Enums
// ---------------------------------------------------------------------------------------------
enum class Kind : uint8_t { Tid = 0, OneFid = 1, FourFid = 2, Inline = 3 };
enum class Status : uint8_t { Idle = 0, Busy = 1, Done = 2, Error = 3 };

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
