// SPDX-License-Identifier: Apache-2.0
#include "sim/env/log_writer.hpp"

#include <cinttypes>
#include <stdexcept>

#include "ni_pkg_gen.hpp"  // generated from rtl/common/ni_pkg.sv (scripts/gen_pkg.py)
#include "ref_model/common/crc32.hpp"
#include "ref_model/common/packet.hpp"
#include "ref_model/common/wire.hpp"

namespace sim {

namespace pkg = ni::ni_pkg;  // the generated layouts and decoders (scripts/gen_pkg.py)

namespace {
const char* resp_name(uint8_t r) {
  return r == 0 ? "OKAY" : r == 2 ? "SLVERR" : r == 1 ? "EXOKAY" : "DECERR";
}
const char* status_name(uint8_t s) {
  static const char* const kNames[] = {"IDLE", "BUSY", "DONE", "ERROR"};
  return kNames[s & 3];
}
// Engine packet kinds (ICD 7): 0 inline, 1 control, 2 read request (ICD 16).
const char* pkt_kind_name(uint64_t k) {
  if (k == pkg::PktKindInline) return "inline";
  if (k == pkg::PktKindRead) return "read";
  return "control";
}
}  // namespace

LogWriter::LogWriter(const std::string& path) : own_(true) {
  f_ = std::fopen(path.c_str(), "w");
  if (f_ == nullptr) throw std::runtime_error("cannot write log file " + path);
}

LogWriter::LogWriter(LogWriter& file, unsigned node) : f_(file.f_), node_(int(node)) {}

LogWriter::~LogWriter() {
  if (own_ && f_ != nullptr) std::fclose(f_);
}

void LogWriter::head(uint64_t cycle, const char* ev) {
  if (node_ < 0) {
    std::fprintf(f_, "{\"cycle\":%" PRIu64 ",\"ev\":\"%s\",", cycle, ev);
  } else {
    std::fprintf(f_, "{\"cycle\":%" PRIu64 ",\"ev\":\"%s\",\"node\":%d,", cycle, ev, node_);
  }
}

void LogWriter::on_aw(const AwEvent& e) {
  head(e.cycle, "aw");
  std::fprintf(f_, "\"id\":%u,\"addr\":\"0x%" PRIx32 "\",\"len\":%u}\n", e.id, e.addr, e.len);
}

void LogWriter::on_b(const BEvent& e) {
  head(e.cycle, "bresp");
  std::fprintf(f_, "\"id\":%u,\"resp\":\"%s\"}\n", e.id, resp_name(e.resp));
}

void LogWriter::on_ar(const ArEvent& e) {
  for (unsigned i = 0; i <= e.len; ++i) read_addr_.push_back(e.addr);
}

void LogWriter::on_r(const REvent& e) {
  uint32_t addr = 0;
  if (!read_addr_.empty()) {
    addr = read_addr_.front();
    read_addr_.pop_front();
  }
  head(e.cycle, "rdata");
  std::fprintf(f_, "\"addr\":\"0x%" PRIx32 "\",\"data\":\"0x%" PRIx64 "\",\"resp\":\"%s\"}\n", addr,
               e.data, resp_name(e.resp));
}

void LogWriter::on_block(const BlockEvent& e) {
  const pkg::blk_desc_t::Value d = pkg::blk_desc_t::unpack(e.desc);
  head(e.cycle, "block");
  std::fprintf(f_,
               "\"tid\":%u,\"fid\":%" PRIu64 ",\"seq\":%" PRIu64 ",\"xfer\":%" PRIu64
               ",\"blk\":%" PRIu64 ",\"src\":\"0x%" PRIx64 "\",\"dst\":\"0x%" PRIx64
               "\",\"len\":%" PRIu64 ",\"cm\":%" PRIu64 ",\"chained\":%" PRIu64
               ",\"has_next\":%" PRIu64 ",\"notify\":%" PRIu64 ",\"retx\":%" PRIu64
               ",\"pd\":%" PRIu64 "}\n",
               e.tid, d.fid, d.seq, d.xfer_id, d.block_idx, d.src_addr, d.dst_addr, d.len_m1 + 1,
               d.cm, d.chained, d.has_next, d.notify, d.retx, d.pd_id);
}

void LogWriter::on_packet(const PacketEvent& e) {
  const pkg::pkt_hdr_t::Value h = pkg::pkt_hdr_t::unpack(e.data);
  const bool crc_ok = ni::check_crc(e.data);
  head(e.cycle, "packet");
  std::fprintf(f_,
               "\"kind\":\"%s\",\"tid\":%" PRIu64 ",\"seq\":%" PRIu64 ",\"xfer\":%" PRIu64
               ",\"len\":%" PRIu64 ",\"dst\":\"0x%" PRIx64 "\",\"notify\":%" PRIu64
               ",\"crc_ok\":%s}\n",
               pkt_kind_name(h.kind), h.tid, h.seq, h.xfer_id, h.len, h.dst_addr, h.notify,
               crc_ok ? "true" : "false");
}

void LogWriter::on_rsp(const RspEvent& e) {
  head(e.cycle, "rsp");
  std::fprintf(f_, "\"tid\":%u,\"seq\":%u,\"nack\":%u}\n", e.tid, e.seq, e.nack ? 1u : 0u);
}

void LogWriter::on_status(const StatusEvent& e) {
  head(e.cycle, "status");
  std::fprintf(f_, "\"page\":%u,\"channel\":%u,\"status\":\"%s\"}\n", e.wch / 64u, e.wch % 64u,
               status_name(e.to));
}

void LogWriter::on_memwr(const MemWrEvent& e) {
  // ICD 15: crc32 over the strobed bytes in address order.
  uint32_t crc = 0;
  for (const MemWrEvent::Run& r : e.runs) crc = ni::crc32_update(crc, r.data.data(), r.data.size());
  head(e.cycle, "memwr");
  std::fprintf(f_,
               "\"addr\":\"0x%" PRIx64 "\",\"bytes\":%" PRIu64 ",\"crc32\":\"0x%08" PRIx32 "\"}\n",
               e.addr, e.bytes, crc);
}

void LogWriter::on_tx(const TxEvent& e) {
  const ni::WirePacket& p = e.packet;
  const ni::WireHead h = p.head();
  head(e.cycle, "tx");
  std::fprintf(
      f_,
      "\"net\":\"%s\",\"kind\":\"%s\",\"tid\":%u,\"seq\":%u,\"len\":%u,\"dst\":\"0x%" PRIx64
      "\",\"src_node\":%u,\"npkts\":%u,\"last\":%u,\"retx\":%u,\"notify\":%u,\"beats\":%zu,"
      "\"hcrc_ok\":%s,\"pcrc_ok\":%s}\n",
      to_string(e.net), ni::to_string(ni::WireKind(h.kind)), h.tid, h.seq, h.len, h.dst_addr,
      h.src_node, h.npkts, h.last ? 1u : 0u, h.retx ? 1u : 0u, h.notify ? 1u : 0u, p.beats.size(),
      p.hcrc_ok() ? "true" : "false", (!p.is_data() || p.pcrc_ok()) ? "true" : "false");
}

void LogWriter::on_net(const NetEvent& e) {
  std::fprintf(f_,
               "{\"cycle\":%" PRIu64
               ",\"ev\":\"net\",\"action\":\"%s\",\"from\":%u,\"to\":%u,"
               "\"kind\":\"%s\",\"tid\":%u,\"seq\":%u}\n",
               e.cycle, to_string(e.action), e.from, e.to, ni::to_string(ni::WireKind(e.kind)),
               e.tid, e.seq);
}

void LogWriter::on_notify(const NotifyEvent& e) {
  head(e.cycle, "notify");
  std::fprintf(f_, "\"addr\":\"0x%" PRIx64 "\",\"tag\":\"0x%" PRIx64 "\",\"src_node\":%u}\n",
               e.addr, e.tag, e.src_node);
}

void LogWriter::on_rreq_decision(const RreqDecisionEvent& e) {
  rreq(e.cycle, unsigned(node_ < 0 ? 0 : node_), e.from, e.tid, e.seq, e.channel, e.action);
}

void LogWriter::rreq(uint64_t cycle, unsigned node, unsigned from, unsigned tid, unsigned seq,
                     int channel, RreqAction action) {
  std::fprintf(f_,
               "{\"cycle\":%" PRIu64
               ",\"ev\":\"rreq\",\"node\":%u,\"from\":%u,\"tid\":%u,\"seq\":%u,"
               "\"channel\":%d,\"action\":\"%s\"}\n",
               cycle, node, from, tid, seq, action == RreqAction::Drop ? -1 : channel,
               to_string(action));
}

}  // namespace sim
