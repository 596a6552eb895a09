// SPDX-License-Identifier: Apache-2.0
// Constants and index helpers (ICD section 1, docs/design.md section 1).
#include <catch2/catch.hpp>

#include "ref_model/common/types.hpp"

using namespace ni;

TEST_CASE("geometry constants mirror ni_pkg and ICD section 1", "[types]") {
  CHECK(NumPages == 16);
  CHECK(ChPerPage == 128);
  CHECK(NumXfers == 2048);
  CHECK(NumWch == 1024);
  CHECK(NumTids == 1024);
  CHECK(TidOnlyIds == 512);
  CHECK(FlowBlocks == 4);
  CHECK(Fid1Base == 128);
  CHECK(Fid1Base + Fid1Count - 1 == 191);
  CHECK(Fid4Base == 192);
  CHECK(Fid4Base + Fid4Stride * (Fid4Count - 1) == 252);
  CHECK(BlockBytes == 65536);
  CHECK(SeqW == 14);
  CHECK(SeqMask == 0x3FFF);
  CHECK(DefaultIntraPrios == 8);
  CHECK(DefaultMaxOutstanding == 2);
  CHECK(NumStats == 13);
}

TEST_CASE("enum values match the ICD codes", "[types]") {
  CHECK(static_cast<int>(Kind::Tid) == 0);
  CHECK(static_cast<int>(Kind::OneFid) == 1);
  CHECK(static_cast<int>(Kind::FourFid) == 2);
  CHECK(static_cast<int>(Kind::Inline) == 3);
  CHECK(static_cast<int>(Status::Idle) == 0);
  CHECK(static_cast<int>(Status::Busy) == 1);
  CHECK(static_cast<int>(Status::Done) == 2);
  CHECK(static_cast<int>(Status::Error) == 3);
}

TEST_CASE("xfer id and write-channel index", "[types]") {
  CHECK(xfer_id(0, 0) == 0);
  CHECK(xfer_id(3, 5) == 389);      // 3*128 + 5
  CHECK(xfer_id(15, 127) == 2047);  // last Transfer Table line
  CHECK(xfer_page(389) == 3);
  CHECK(xfer_channel(389) == 5);
  CHECK(wch_index(3, 5) == 197);  // 3*64 + 5
  CHECK(wch_index(15, 63) == 1023);
  CHECK(wch_page(197) == 3);
  CHECK(wch_channel(197) == 5);
  CHECK(wch_of_xfer(389) == 197);
}

TEST_CASE("names", "[types]") {
  CHECK(std::string(to_string(Kind::Tid)) == "tid");
  CHECK(std::string(to_string(Kind::OneFid)) == "1x");
  CHECK(std::string(to_string(Kind::FourFid)) == "4x");
  CHECK(std::string(to_string(Kind::Inline)) == "inline");
  CHECK(std::string(to_string(Status::Error)) == "ERROR");
  CHECK(kind_from_string("4x") == Kind::FourFid);
  CHECK_FALSE(kind_from_string("8x").has_value());
  CHECK(status_from_string("DONE") == Status::Done);
  CHECK(is_cm(Kind::OneFid));
  CHECK_FALSE(is_cm(Kind::Tid));
  CHECK_FALSE(is_memory(Kind::Inline));
}
