// SPDX-License-Identifier: Apache-2.0
// dp_ram: lockstep against a model of a simple dual-port RAM, plus directed cases.
//
// Model (rtl/dp_ram.sv header): one write port and one synchronous read port on one clock.
// At a rising edge with re_i, rdata_o takes the word at raddr_i as it was *before* that
// edge's write (read-first); with re_i low rdata_o holds. Nothing is reset: a word never
// written, and rdata_o before the first read, hold unknown values, which the model tracks
// and does not compare.
//
// Two parameterisations: the default (Depth 1024, Width 32) and a small one (Depth 8,
// Width 12, model dp_ram_d8) where reads and writes of one address collide all the time.
#include <optional>

#include "Vdp_ram.h"
#include "Vdp_ram_d8.h"
#include "tests/common/lockstep.hpp"

namespace {

using lockstep::Harness;
using lockstep::Rng;

constexpr const char* kBinary = "tb_dp_ram";

struct Inputs {
  bool we = false;
  std::uint32_t waddr = 0;
  std::uint32_t wdata = 0;
  bool re = false;
  std::uint32_t raddr = 0;
  std::string describe() const {
    std::ostringstream os;
    os << "we=" << we << " waddr=" << waddr << " wdata=" << lockstep::hex(wdata) << " re=" << re
       << " raddr=" << raddr << (we && re && waddr == raddr ? "  (same address)" : "");
    return os.str();
  }
};

class Model {
 public:
  explicit Model(unsigned depth) : mem_(depth) {}
  const std::optional<std::uint32_t>& rdata() const { return rdata_; }
  void step(const Inputs& in) {
    if (in.re) rdata_ = mem_.at(in.raddr);  // read-first: the word before this edge's write
    if (in.we) mem_.at(in.waddr) = in.wdata;
  }

 private:
  std::vector<std::optional<std::uint32_t>> mem_;
  std::optional<std::uint32_t> rdata_;
};

template <class Dut>
void apply(Harness<Dut>& h, const Inputs& in) {
  h->we_i = in.we;
  h->waddr_i = in.waddr;
  h->wdata_i = in.wdata;
  h->re_i = in.re;
  h->raddr_i = in.raddr;
}

template <class Dut>
void lockstep_run(unsigned depth, unsigned width, const char* what) {
  const std::uint32_t seed = lockstep::seed();
  const std::uint64_t n = lockstep::cycles();
  const std::string test = Catch::getResultCapture().getCurrentTestName();
  Rng rng(seed);
  Harness<Dut> h;
  Model model(depth);
  lockstep::Checker<Inputs> chk(what, seed, lockstep::reproduce_cmd(kBinary, test, seed, n));

  unsigned p_we = 50, p_re = 50, p_hot = 50, p_same = 20;
  std::vector<std::uint32_t> hot(4);
  std::uint64_t same_addr = 0, compared = 0;
  for (std::uint64_t c = 0; c < n; ++c) {
    if (c % 1000 == 0) {  // new phase: rates and a new set of hot addresses
      static constexpr unsigned kRates[] = {0, 10, 50, 90, 100};
      p_we = kRates[rng.below(5)];
      p_re = kRates[rng.below(5)];
      p_hot = static_cast<unsigned>(rng.range(0, 100));
      p_same = static_cast<unsigned>(rng.range(0, 50));
      for (auto& a : hot) a = static_cast<std::uint32_t>(rng.below(depth));
    }
    auto addr = [&] {
      return rng.chance(p_hot) ? hot[rng.below(hot.size())]
                               : static_cast<std::uint32_t>(rng.below(depth));
    };
    Inputs in;
    in.we = rng.chance(p_we);
    in.waddr = addr();
    in.wdata = static_cast<std::uint32_t>(rng.bits(width));
    in.re = rng.chance(p_re);
    in.raddr = rng.chance(p_same) ? in.waddr : addr();
    chk.begin(c, in);
    apply(h, in);
    h.settle();
    if (model.rdata()) {
      chk.expect("rdata_o", *model.rdata(), h->rdata_o);
      ++compared;
    }
    h.posedge();
    model.step(in);
    same_addr += (in.we && in.re && in.waddr == in.raddr) ? 1 : 0;
    chk.end(h.sva_failed());
  }
  CHECK(same_addr > n / 100);
  CHECK(compared > n / 2);
}

// One cycle: apply, settle, return rdata_o before the edge; then the edge.
template <class Dut>
std::uint32_t ram_cycle(Harness<Dut>& h, const Inputs& in) {
  apply(h, in);
  h.settle();
  const std::uint32_t before = h->rdata_o;
  h.posedge();
  return before;
}

template <class Dut>
std::uint32_t rdata_now(Harness<Dut>& h) {
  h.settle();
  return h->rdata_o;
}

Inputs wr(std::uint32_t a, std::uint32_t d) { return {true, a, d, false, 0}; }
Inputs rd(std::uint32_t a) { return {false, 0, 0, true, a}; }
Inputs wr_rd(std::uint32_t wa, std::uint32_t d, std::uint32_t ra) {
  return {true, wa, d, true, ra};
}
Inputs idle() { return {}; }

}  // namespace

TEST_CASE("dp_ram: lockstep random (Depth 1024 Width 32)", "[dp_ram][lockstep]") {
  lockstep_run<Vdp_ram>(1024, 32, "dp_ram Depth=1024 Width=32");
}

TEST_CASE("dp_ram: lockstep random (Depth 8 Width 12)", "[dp_ram][lockstep]") {
  lockstep_run<Vdp_ram_d8>(8, 12, "dp_ram Depth=8 Width=12");
}

TEST_CASE("dp_ram: same-address read and write return the old word", "[dp_ram][directed]") {
  Harness<Vdp_ram> h;
  ram_cycle(h, wr(5, 0x11111111));
  ram_cycle(h, wr_rd(5, 0x22222222, 5));  // read-first: the read sees 0x11111111
  CHECK(rdata_now(h) == 0x11111111u);
  ram_cycle(h, rd(5));  // the write has landed
  CHECK(rdata_now(h) == 0x22222222u);
  // Back-to-back writes to one address, each read in the same cycle: always one behind.
  ram_cycle(h, wr_rd(5, 0x33333333, 5));
  CHECK(rdata_now(h) == 0x22222222u);
  ram_cycle(h, wr_rd(5, 0x44444444, 5));
  CHECK(rdata_now(h) == 0x33333333u);
  ram_cycle(h, rd(5));
  CHECK(rdata_now(h) == 0x44444444u);
  REQUIRE_FALSE(h.sva_failed());
}

TEST_CASE("dp_ram: a read returns the word in the next cycle and not before",
          "[dp_ram][directed]") {
  Harness<Vdp_ram> h;
  ram_cycle(h, wr(0, 0xAAAA0000));
  ram_cycle(h, wr(1023, 0xBBBB03FF));
  ram_cycle(h, rd(0));
  CHECK(rdata_now(h) == 0xAAAA0000u);
  // Changing raddr_i does not change rdata_o before the edge (synchronous read).
  h->raddr_i = 1023;
  h->re_i = 1;
  CHECK(rdata_now(h) == 0xAAAA0000u);
  h.posedge();
  CHECK(rdata_now(h) == 0xBBBB03FFu);
  REQUIRE_FALSE(h.sva_failed());
}

TEST_CASE("dp_ram: read data holds while re_i is low", "[dp_ram][directed]") {
  Harness<Vdp_ram> h;
  ram_cycle(h, wr(7, 0x07070707));
  ram_cycle(h, wr(8, 0x08080808));
  ram_cycle(h, rd(7));
  REQUIRE(rdata_now(h) == 0x07070707u);
  // re_i low: writes to the address last read, other addresses, raddr_i moving: rdata_o holds.
  const std::uint32_t writes[][2] = {{7, 0xDEADBEEF}, {8, 0x12345678}, {7, 0x0BADF00D}};
  std::uint32_t raddr = 8;
  for (const auto& w : writes) {
    Inputs in = wr(w[0], w[1]);
    in.raddr = raddr++;  // re stays low
    ram_cycle(h, in);
    CHECK(rdata_now(h) == 0x07070707u);
  }
  for (int i = 0; i < 10; ++i) ram_cycle(h, idle());
  CHECK(rdata_now(h) == 0x07070707u);
  // The next read returns the newest word.
  ram_cycle(h, rd(7));
  CHECK(rdata_now(h) == 0x0BADF00Du);
  REQUIRE_FALSE(h.sva_failed());
}

TEST_CASE("dp_ram: every word of a small RAM is independent", "[dp_ram][directed]") {
  Harness<Vdp_ram_d8> h;
  for (std::uint32_t a = 0; a < 8; ++a) ram_cycle(h, wr(a, 0x100 + a * 0x11));
  // Read every address while overwriting the one read (read-first at every step).
  for (std::uint32_t a = 0; a < 8; ++a) {
    ram_cycle(h, wr_rd(a, 0xF00 + a, a));
    CHECK(rdata_now(h) == 0x100 + a * 0x11);
  }
  for (std::uint32_t a = 0; a < 8; ++a) {
    ram_cycle(h, rd(a));
    CHECK(rdata_now(h) == 0xF00 + a);
  }
  REQUIRE_FALSE(h.sva_failed());
}
