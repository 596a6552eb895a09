// SPDX-License-Identifier: Apache-2.0
// AXI4 master driving a top's CPU-side AXI4 slave port (AxiSlavePorts): queues write and read
// transactions and plays them out with optional random stalls. Write data follows AXI ordering (W
// in AW order) and may be presented in the same cycle as its address.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <vector>

#include "sim/core/component.hpp"
#include "sim/core/ports.hpp"
#include "sim/core/rng.hpp"

namespace sim {

enum : uint8_t { kRespOkay = 0, kRespSlverr = 2 };

struct AxiBeat {
  uint64_t lo = 0;  // WDATA[63:0]
  uint64_t hi = 0;  // WDATA[127:64]
  uint16_t strb = 0;
  bool last = false;
};

struct AxiWrite {
  uint32_t addr = 0;
  uint8_t size = 4;   // AWSIZE
  uint8_t burst = 1;  // AWBURST (1 = INCR)
  uint8_t id = 0;
  int len = -1;  // AWLEN; -1 = beats.size() - 1
  std::vector<AxiBeat> beats;
  // filled in by the master
  uint8_t resp = 0;
  uint64_t aw_cycle = 0;
  uint64_t b_cycle = 0;
};

struct AxiRead {
  uint32_t addr = 0;
  uint8_t size = 4;
  uint8_t burst = 1;
  uint8_t id = 0;
  uint8_t len = 0;
  // filled in by the master
  std::vector<uint64_t> data;  // RDATA[63:0] of each beat
  std::vector<uint8_t> resp;   // RRESP of each beat
  bool last_ok = true;         // RLAST came exactly on the last beat
  uint64_t ar_cycle = 0;
  uint64_t r_cycle = 0;  // cycle of the last beat
};

class AxiMaster : public Component {
 public:
  struct Options {
    bool w_with_aw = true;        // present W beats before/with their AW
    unsigned w_gap_pct = 0;       // chance of an idle cycle before a W beat
    unsigned aw_gap_pct = 0;      // chance of an idle cycle before an AW
    unsigned bready_low_pct = 0;  // chance of BREADY low in a cycle
    unsigned rready_low_pct = 0;  // chance of RREADY low in a cycle
  };
  using WriteDone = std::function<void(const AxiWrite&)>;
  using ReadDone = std::function<void(const AxiRead&)>;
  using AwSeen = std::function<void(const AxiWrite&, uint64_t cycle)>;

  AxiMaster(const AxiSlavePorts& port, Rng& rng, Options opt);
  AxiMaster(const AxiSlavePorts& port, Rng& rng) : AxiMaster(port, rng, Options{}) {}

  void write(AxiWrite w, WriteDone done = nullptr);
  void read(AxiRead r, ReadDone done = nullptr);
  void on_aw(AwSeen cb) { on_aw_ = std::move(cb); }
  // Called for every transaction handed to the master (the recorder's view of the CPU).
  void on_submit(std::function<void(const AxiWrite&)> w, std::function<void(const AxiRead&)> r) {
    on_submit_write_ = std::move(w);
    on_submit_read_ = std::move(r);
  }
  void set_options(const Options& o) { opt_ = o; }

  std::size_t writes_pending() const { return wr_.size(); }

  void on_reset() override;
  void drive(uint64_t cycle) override;
  void sample(uint64_t cycle) override;
  bool busy() const override { return !wr_.empty() || !rd_.empty(); }

 private:
  struct Wr {
    AxiWrite t;
    WriteDone done;
    bool aw_done = false;
    std::size_t beats_sent = 0;
    bool b_done = false;
  };
  struct Rd {
    AxiRead t;
    ReadDone done;
    bool ar_done = false;
  };

  Wr* aw_candidate();
  Wr* w_candidate();

  AxiSlavePorts p_;
  Rng& rng_;
  Options opt_;
  AwSeen on_aw_;
  std::function<void(const AxiWrite&)> on_submit_write_;
  std::function<void(const AxiRead&)> on_submit_read_;
  std::deque<std::unique_ptr<Wr>> wr_;
  std::deque<std::unique_ptr<Rd>> rd_;
  // what was driven this cycle (valid must hold until the handshake)
  Wr* aw_drv_ = nullptr;
  Wr* w_drv_ = nullptr;
  Rd* ar_drv_ = nullptr;
  bool bready_ = true;
  bool rready_ = true;
};

}  // namespace sim
