// SPDX-License-Identifier: Apache-2.0
// The one Catch2 (v2) main shared by every test binary; compiled once (build/obj/tests/).
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
