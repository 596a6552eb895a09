// SPDX-License-Identifier: Apache-2.0
// What the end-to-end scoreboard's tests share (tests/agents): three nodes' memories, their
// event buses and a scoreboard over them; memory written directly (MemImage::write, as the
// memory model does) and each write reported on the node's bus (on_memwr), and addresses
// with their node in bits 63:48 (ICD 15).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "ref_model/common/descriptor.hpp"
#include "ref_model/common/mem_image.hpp"
#include "sim/agents/e2e_scoreboard.hpp"

namespace e2e_test {

// Address `a` of node `node` (ICD 15: the node in bits 63:48).
inline uint64_t at(unsigned node, uint64_t a) { return (uint64_t{node} << 48) | a; }

class Fixture {
 public:
  Fixture() {
    for (unsigned n = 0; n < 3; ++n) sb.attach(n, bus[n]);
  }
  Fixture(const Fixture&) = delete;
  Fixture& operator=(const Fixture&) = delete;

  ni::MemImage& mem(unsigned n) { return n == 0 ? m0 : n == 1 ? m1 : m2; }

  // `data` written at `a` of node `node` and reported as one burst of one run.
  void write(unsigned node, uint64_t a, const std::vector<uint8_t>& data, uint64_t cycle = 0) {
    mem(node).write(a, data.data(), data.size());
    sim::MemWrEvent e{};
    e.cycle = cycle;
    e.awaddr = a & ~uint64_t{63};
    e.addr = a;
    e.bytes = data.size();
    e.runs.push_back(sim::MemWrEvent::Run{a, data});
    bus[node].emit([&](sim::Listener& l) { l.on_memwr(e); });
  }

  // Bytes [off, off+n) of `src` written at `a` of `node`, in bursts of at most `chunk`.
  void put(unsigned node, uint64_t a, const std::vector<uint8_t>& src, std::size_t off,
           std::size_t n, std::size_t chunk = 64) {
    for (std::size_t i = off; i < off + n; i += chunk) {
      const std::size_t k = std::min(chunk, off + n - i);
      write(node, a + (i - off),
            std::vector<uint8_t>(src.begin() + long(i), src.begin() + long(i + k)));
    }
  }

  // The source bytes of memory transfer `d` of node `src` into its destination, in bursts of
  // at most `chunk` bytes; `flip` >= 0 inverts that byte on the way.
  void copy(unsigned src, const ni::Descriptor& d, std::size_t chunk = 64, long flip = -1) {
    std::vector<uint8_t> b = mem(src).read(d.src, d.size);
    if (flip >= 0) b[std::size_t(flip)] ^= 0xff;
    put(unsigned(d.dst >> 48), d.dst & ((uint64_t{1} << 48) - 1), b, 0, b.size(), chunk);
  }

  ni::MemImage m0{0}, m1{1}, m2{2};
  sim::E2eScoreboard sb{{&m0, &m1, &m2}};
  sim::EventBus bus[3];
};

}  // namespace e2e_test
