// SPDX-License-Identifier: Apache-2.0
// AXI4 slave transaction-level rules (ICD section 3, docs/design.md section 3), as pure
// functions: write-address checks, beat addresses, the WSTRB lane rule, WLAST, and the read
// checks. They turn a W beat into the word writes it carries, or a drop verdict.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "ref_model/common/addr_map.hpp"

namespace ni {

constexpr uint8_t AxiBurstFixed = 0;
constexpr uint8_t AxiBurstIncr = 1;
constexpr uint8_t AxiBurstWrap = 2;

enum class AxiResp : uint8_t { Okay = 0, Slverr = 2 };
const char* to_string(AxiResp r);  // "OKAY" / "SLVERR"

struct AwFields {
  uint32_t addr = 0;
  uint8_t len = 0;   // beats - 1
  uint8_t size = 3;  // log2(bytes per beat)
  uint8_t burst = AxiBurstIncr;
  uint8_t id = 0;
};
using ArFields = AwFields;

// Transaction-level write errors, decided at AW time (every beat then dropped, SLVERR).
enum class AwError : uint8_t { None, Burst, Size, Align, Region };
const char* to_string(AwError e);
AwError check_aw(const AwFields& aw);

// Byte address of beat n: beat 0 at AWADDR, beat n at align(AWADDR, 2^size) + n*2^size.
uint32_t beat_addr(const AwFields& aw, unsigned n);

struct WBeat {
  uint64_t data_lo = 0;  // WDATA[63:0]   (lane 0)
  uint64_t data_hi = 0;  // WDATA[127:64] (lane 1)
  uint16_t strb = 0;
  bool last = false;
};

// A 64-bit word write carried by a beat: byte address (addr[2:0] = 0) and value.
struct WordWrite {
  uint32_t addr = 0;
  uint64_t data = 0;
  bool operator==(const WordWrite& o) const { return addr == o.addr && data == o.data; }
};

enum class BeatError : uint8_t {
  None,
  AwError,   // the transaction failed its AW checks
  Strobe,    // a lane strobe not 0x00/0xFF, or a strobe outside the beat's window
  Last,      // WLAST disagrees with AWLEN
  CtrlWord,  // region 4: a word other than 0x40000 / 0x40010 written
};
const char* to_string(BeatError e);

// The word writes of one beat, lane 0 first: at most two (one per 64-bit lane), kept inline
// (a beat is decoded on every W handshake; a vector here was an allocation per beat).
class BeatWords {
 public:
  BeatWords() = default;
  BeatWords(std::initializer_list<WordWrite> words) {
    for (const WordWrite& w : words) push_back(w);
  }
  void push_back(const WordWrite& w) {
    if (n_ == w_.size()) throw std::length_error("BeatWords: a beat carries at most two words");
    w_[n_++] = w;
  }
  std::size_t size() const { return n_; }
  bool empty() const { return n_ == 0; }
  const WordWrite& front() const { return w_[0]; }
  const WordWrite* begin() const { return w_.data(); }
  const WordWrite* end() const { return w_.data() + n_; }
  bool operator==(const BeatWords& o) const {
    return std::equal(begin(), end(), o.begin(), o.end());
  }

 private:
  std::array<WordWrite, 2> w_{};
  std::size_t n_ = 0;
};

struct BeatDecode {
  BeatError error = BeatError::None;
  BeatWords words;  // empty when dropped; may be empty for a legal beat
  bool dropped() const { return error != BeatError::None; }
};

// Beat n (0..aw.len) of a write transaction: its word writes (lane 0 first) or a drop.
// `node_regs`: the ni_node register set (control word 2 writable).
BeatDecode decode_write_beat(const AwFields& aw, unsigned n, const WBeat& beat,
                             bool node_regs = false);

// Control register index of a region-4 word write address, nullopt when not writable
// (addr[15:0] = 0x0000 -> 0 timeout, 0x0010 -> 1 MaxRetries; with `node_regs` also
// 0x0020 -> 2 RxIdle).
std::optional<unsigned> ctrl_write_index(uint32_t addr, bool node_regs = false);

// Reads: ARLEN 0, ARSIZE <= 4, ARADDR[3:0] = 0, region 1..4; anything else answers SLVERR on
// every one of the ARLEN+1 beats with RDATA 0.
bool read_is_legal(const ArFields& ar);

}  // namespace ni
