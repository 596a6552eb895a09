// SPDX-License-Identifier: Apache-2.0
// A piece of the test bench plugged into SimCtrl: drives some DUT inputs and/or watches
// some outputs. Each cycle SimCtrl calls drive() on every component (in registration order),
// settles every DUT's combinational logic with the clock low, calls sample() on every
// component (handshakes are `valid && ready` at this point), raises the clock and calls
// post_edge() on every component. Only drive() writes DUT inputs: sample() and post_edge()
// read the DUT (SimCtrl's split evaluation, see Dut::split_eval, relies on the inputs not
// changing between the two clock phases).
#pragma once

#include <cstdint>

namespace sim {

class Component {
 public:
  virtual ~Component() = default;
  // Called once while reset is asserted: put every driven input in its idle state.
  virtual void on_reset() {}
  // Set the DUT inputs this component drives for the edge that ends `cycle`.
  virtual void drive(uint64_t cycle) { (void)cycle; }
  // Observe the settled DUT before the edge that ends `cycle`.
  virtual void sample(uint64_t cycle) { (void)cycle; }
  // Observe registered state right after the edge that ends `cycle`.
  virtual void post_edge(uint64_t cycle) { (void)cycle; }
  // True while the component still has work outstanding (the run is not over).
  virtual bool busy() const { return false; }
};

}  // namespace sim
