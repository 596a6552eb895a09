// SPDX-License-Identifier: Apache-2.0
// The AXI slave's descriptor path (docs/design.md section 3): word accumulation in AccSets
// accumulator sets, line validation, pending long descriptors, Transfer Table writes, and the
// status registers / long flags it drives.
//
// Input is one W beat at a time, already reduced to its word writes by decode_write_beat()
// (strobe-legal, region 0). Each call returns what that beat did.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "ref_model/common/addr_map.hpp"
#include "ref_model/common/descriptor.hpp"
#include "ref_model/common/types.hpp"
#include "ref_model/qos/axi_rules.hpp"
#include "ref_model/qos/status_regs.hpp"
#include "ref_model/qos/validation.hpp"

namespace ni {

// A Transfer Table line as the Table stores it (for memory kinds, line 0's w2 holds SegInfo).
struct TableWrite {
  unsigned line = 0;  // = xfer id of that line
  Line words{};
  bool operator==(const TableWrite& o) const { return line == o.line && words == o.words; }
};

struct BeatResult {
  bool dropped = false;        // interleaving: no word of the beat was written
  bool slverr = false;         // this beat makes the transaction answer SLVERR
  bool line_complete = false;  // the beat completed a line (then `verdict` is meaningful)
  bool line1 = false;          // ... and it was judged as line 1 of a long descriptor
  Verdict verdict = Verdict::Accept;
  std::vector<unsigned> live;            // xfer ids that went live, in order
  std::vector<TableWrite> table_writes;  // Transfer Table lines written

  std::string to_string() const;
};

// Region-0 word address decode: page addr[15:12], channel addr[11:5], word addr[4:3].
struct DescWordAddr {
  unsigned page;
  unsigned channel;  // 0..127
  unsigned word;     // 0..3, word in line
};
DescWordAddr decode_desc_addr(uint32_t addr);

class DescriptorWriteModel {
 public:
  // One partly accumulated line of a set.
  struct Partial {
    bool valid = false;
    unsigned page = 0;
    unsigned channel = 0;
    uint8_t mask = 0;  // words received, bit i = word i
    Line words{};
  };
  // The line-0 half of a long descriptor waiting for its line 1.
  struct PendingLong {
    bool valid = false;
    unsigned page = 0;
    unsigned channel = 0;  // even channel of line 0
  };

  explicit DescriptorWriteModel(const Config& cfg = Config{});
  void reset();

  // Applies one beat's word writes (all in one 16-byte window of region 0). An empty list is a
  // legal beat that does nothing.
  BeatResult apply_beat(const BeatWords& words);

  unsigned num_sets() const { return cfg_.acc_sets; }
  unsigned set_of(unsigned page) const { return cfg_.acc_sets == 1 ? 0 : page; }
  const Partial& partial(unsigned set) const { return sets_.at(set).partial; }
  const PendingLong& pending(unsigned set) const { return sets_.at(set).pending; }

  StatusRegs& status() { return status_; }
  const StatusRegs& status() const { return status_; }

  // The Transfer Table as written so far (lines never written read as zeros).
  const Line& table_line(unsigned xfer) const { return table_.at(xfer); }
  // The descriptor at `xfer` decoded from the Table (two lines when line 0 says long); the
  // seg-info in w2 of a memory descriptor is not part of the result.
  Descriptor table_descriptor(unsigned xfer) const;

 private:
  struct AccSet {
    Partial partial;
    PendingLong pending;
  };

  void judge_complete(AccSet& set, BeatResult& r);

  Config cfg_;
  std::vector<AccSet> sets_;
  StatusRegs status_;
  std::vector<Line> table_;
};

}  // namespace ni
