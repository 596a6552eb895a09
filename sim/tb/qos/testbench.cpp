// SPDX-License-Identifier: Apache-2.0
#include "sim/tb/qos/testbench.hpp"

namespace sim {

Testbench::Testbench(Options opt)
    : opt_(std::move(opt)),
      env_(opt_, engine_wiring(opt_.random_cpu)),
      w_(static_cast<EngineWiring&>(env_.wiring())) {}

}  // namespace sim
