// SPDX-License-Identifier: Apache-2.0
// Constants and index helpers (ICD section 1, docs/design.md section 1), and the package's
// formats against the ICD. The C++ constants and field layouts are generated from
// rtl/common/ni_pkg.sv (ni_pkg_gen.hpp, scripts/gen_pkg.py elaborates the package with
// pyslang): the expected values below are the ICD's, written out by hand.
#include <catch2/catch.hpp>
#include <string>

#include "ni_pkg_gen.hpp"
#include "ref_model/common/types.hpp"

using namespace ni;

namespace {
// A field of the package: (lsb, width) as written in the ICD.
bool at(ni_pkg::Field f, unsigned lsb, unsigned width) {
  INFO(f.name << ": package has [" << f.lsb + f.width - 1 << ":" << f.lsb << "]");
  CHECK(f.lsb == lsb);
  CHECK(f.width == width);
  return f.lsb == lsb && f.width == width;
}
}  // namespace

TEST_CASE("ni_pkg formats match the ICD (read through the header generated from ni_pkg)",
          "[types]") {
  namespace pkg = ni_pkg;
  SECTION("control word w3 (ICD 4)") {
    at(pkg::ctrl_word_t::size, 0, 32);
    at(pkg::ctrl_word_t::prio, 32, 4);
    at(pkg::ctrl_word_t::kind, 36, 2);
    at(pkg::ctrl_word_t::notify, 38, 1);
    at(pkg::ctrl_word_t::is_long, 39, 1);
    at(pkg::ctrl_word_t::read, 40, 1);
    at(pkg::ctrl_word_t::rsvd, 41, 22);
    at(pkg::ctrl_word_t::last, 63, 1);
  }
  SECTION("block descriptor (ICD 6)") {
    namespace b = pkg::blk_desc_t;
    CHECK(b::width == 256);
    at(b::src_addr, 0, 64);
    at(b::dst_addr, 64, 64);
    at(b::pd_id, 128, 16);
    at(b::seq, 144, 14);
    at(b::bytes_sent, 158, 16);
    at(b::cm, 174, 1);
    at(b::initialized, 175, 1);
    at(b::fid, 176, 8);
    at(b::retx, 184, 1);
    at(b::done, 185, 1);
    at(b::notify, 186, 1);
    at(b::chained, 187, 1);
    at(b::len_m1, 188, 16);
    at(b::block_idx, 204, 12);
    at(b::has_next, 216, 1);
    at(b::xfer_id, 217, 11);
    at(b::rsvd, 228, 28);
  }
  SECTION("engine packet header and control payload (ICD 7)") {
    namespace h = pkg::pkt_hdr_t;
    at(h::kind, 0, 4);
    at(h::tid, 4, 10);
    at(h::seq, 14, 14);
    at(h::len, 28, 6);
    at(h::notify, 34, 1);
    at(h::pd, 35, 4);
    at(h::xfer_id, 39, 11);
    at(h::rsvd, 50, 14);
    at(h::dst_addr, 64, 64);
    at(pkg::ctrl_payload_t::notify_addr, 0, 64);
    at(pkg::ctrl_payload_t::notify_tag, 64, 64);
    at(pkg::ctrl_payload_t::size, 128, 32);
    at(pkg::ctrl_payload_t::total_blocks, 160, 18);
    CHECK(pkg::PktKindInline == 0);
    CHECK(pkg::PktKindCtrl == 1);
  }
  SECTION("response rsp_t (ICD 2)") {
    at(pkg::rsp_t::nack, 0, 1);
    at(pkg::rsp_t::tid, 1, 10);
    at(pkg::rsp_t::seq, 11, 14);
  }
  SECTION("wire head beat and tail (ICD 11)") {
    namespace w = pkg::wire_hdr_t;
    at(w::kind, 0, 4);
    at(w::tid, 4, 10);
    at(w::seq, 14, 14);
    at(w::len, 28, 11);
    at(w::notify, 39, 1);
    at(w::last, 40, 1);
    at(w::retx, 41, 1);
    at(w::pd, 42, 4);
    at(w::npkts, 46, 7);
    at(w::rsvd, 53, 11);
    at(w::dst_addr, 64, 64);
    CHECK(pkg::wire_head_t::width == 512);
    at(pkg::wire_head_t::hdr, 0, 128);
    at(pkg::wire_head_t::payload, 128, 256);
    at(pkg::wire_head_t::hcrc, 384, 32);
    at(pkg::wire_head_t::src_node, 416, 16);
    at(pkg::wire_head_t::xfer_id, 432, 11);
    at(pkg::wire_head_t::rsvd, 443, 69);
    at(pkg::wire_tail_t::pcrc, 0, 32);
    CHECK(pkg::wire_kind_e::WkInline == 0);
    CHECK(pkg::wire_kind_e::WkCtrl == 1);
    CHECK(pkg::wire_kind_e::WkData == 2);
    CHECK(pkg::wire_kind_e::WkAck == 3);
    CHECK(pkg::wire_kind_e::WkNack == 4);
  }
  SECTION("notification record (ICD 13)") {
    at(pkg::notify_rec_t::tag, 0, 64);
    at(pkg::notify_rec_t::size, 64, 32);
    at(pkg::notify_rec_t::src_node, 96, 16);
    at(pkg::notify_rec_t::magic, 112, 16);
    CHECK(pkg::NotifyMagic == 1);
  }
  SECTION("address map and control registers (ICD 3, 14)") {
    CHECK(pkg::RegionDesc == 0);
    CHECK(pkg::RegionStatus1 == 1);
    CHECK(pkg::RegionStatus32 == 2);
    CHECK(pkg::RegionStats == 3);
    CHECK(pkg::RegionCtrl == 4);
    CHECK(pkg::CtrlRetxTimeout == 0);
    CHECK(pkg::CtrlMaxRetries == 1);
    CHECK(pkg::CtrlRxIdle == 2);
    CHECK(pkg::CtrlNodeId == 3);
    CHECK(pkg::RetxTimeoutReset == 0);
    CHECK(pkg::MaxRetriesReset == 3);
    CHECK(pkg::RxIdleReset == 65536);
  }
  SECTION("full NI parameters (ICD 10)") {
    CHECK(pkg::NodeW == 16);
    CHECK(pkg::PktBytes == 1024);
    CHECK(pkg::MaxNpkts == 64);
  }
}

TEST_CASE("geometry constants come from ni_pkg and match ICD section 1", "[types]") {
  CHECK(ni_pkg::NumPages == 16);
  CHECK(ni_pkg::ChPerPage == 128);
  CHECK(ni_pkg::TidW == 10);
  CHECK(ni_pkg::XferW == 11);
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
  CHECK(NumStats == 14);
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
