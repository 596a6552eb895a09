// SPDX-License-Identifier: Apache-2.0
#include "sim/core/log_writer.hpp"

#include <cinttypes>
#include <stdexcept>

#include "ref_model/common/packet.hpp"

namespace sim {

namespace {
const char* resp_name(uint8_t r) {
  return r == 0 ? "OKAY" : r == 2 ? "SLVERR" : r == 1 ? "EXOKAY" : "DECERR";
}
const char* status_name(uint8_t s) {
  static const char* const kNames[] = {"IDLE", "BUSY", "DONE", "ERROR"};
  return kNames[s & 3];
}
uint64_t bits(const std::array<uint64_t, 4>& d, unsigned lsb, unsigned w) {
  const unsigned i = lsb / 64, b = lsb % 64;
  uint64_t v = d[i] >> b;
  if (b + w > 64 && i + 1 < 4) v |= d[i + 1] << (64 - b);
  return w == 64 ? v : (v & ((uint64_t{1} << w) - 1));
}
}  // namespace

LogWriter::LogWriter(const std::string& path) {
  f_ = std::fopen(path.c_str(), "w");
  if (f_ == nullptr) throw std::runtime_error("cannot write log file " + path);
}

LogWriter::~LogWriter() {
  if (f_ != nullptr) std::fclose(f_);
}

void LogWriter::on_aw(const AwEvent& e) {
  std::fprintf(
      f_, "{\"cycle\":%" PRIu64 ",\"ev\":\"aw\",\"id\":%u,\"addr\":\"0x%" PRIx32 "\",\"len\":%u}\n",
      e.cycle, e.id, e.addr, e.len);
}

void LogWriter::on_b(const BEvent& e) {
  std::fprintf(f_, "{\"cycle\":%" PRIu64 ",\"ev\":\"bresp\",\"id\":%u,\"resp\":\"%s\"}\n", e.cycle,
               e.id, resp_name(e.resp));
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
  std::fprintf(f_,
               "{\"cycle\":%" PRIu64 ",\"ev\":\"rdata\",\"addr\":\"0x%" PRIx32
               "\",\"data\":\"0x%" PRIx64 "\",\"resp\":\"%s\"}\n",
               e.cycle, addr, e.data, resp_name(e.resp));
}

void LogWriter::on_block(const BlockEvent& e) {
  const auto& d = e.desc;
  std::fprintf(f_,
               "{\"cycle\":%" PRIu64 ",\"ev\":\"block\",\"tid\":%u,\"fid\":%" PRIu64
               ",\"seq\":%" PRIu64 ",\"xfer\":%" PRIu64 ",\"blk\":%" PRIu64 ",\"src\":\"0x%" PRIx64
               "\",\"dst\":\"0x%" PRIx64 "\",\"len\":%" PRIu64 ",\"cm\":%" PRIu64
               ",\"chained\":%" PRIu64 ",\"has_next\":%" PRIu64 ",\"notify\":%" PRIu64
               ",\"retx\":%" PRIu64 ",\"pd\":%" PRIu64 "}\n",
               e.cycle, e.tid, bits(d, 176, 8), bits(d, 144, 14), bits(d, 217, 11),
               bits(d, 204, 12), d[0], d[1], bits(d, 188, 16) + 1, bits(d, 174, 1), bits(d, 187, 1),
               bits(d, 216, 1), bits(d, 186, 1), bits(d, 184, 1), bits(d, 128, 16));
}

void LogWriter::on_packet(const PacketEvent& e) {
  const uint64_t h = e.data[0];
  const bool crc_ok = ni::check_crc(e.data);
  std::fprintf(f_,
               "{\"cycle\":%" PRIu64 ",\"ev\":\"packet\",\"kind\":\"%s\",\"tid\":%" PRIu64
               ",\"seq\":%" PRIu64 ",\"xfer\":%" PRIu64 ",\"len\":%" PRIu64 ",\"dst\":\"0x%" PRIx64
               "\",\"notify\":%" PRIu64 ",\"crc_ok\":%s}\n",
               e.cycle, (h & 0xF) == 0 ? "inline" : "control", (h >> 4) & 0x3FF, (h >> 14) & 0x3FFF,
               (h >> 39) & 0x7FF, (h >> 28) & 0x3F, e.data[1], (h >> 34) & 1,
               crc_ok ? "true" : "false");
}

void LogWriter::on_rsp(const RspEvent& e) {
  std::fprintf(f_, "{\"cycle\":%" PRIu64 ",\"ev\":\"rsp\",\"tid\":%u,\"seq\":%u,\"nack\":%u}\n",
               e.cycle, e.tid, e.seq, e.nack ? 1u : 0u);
}

void LogWriter::on_status(const StatusEvent& e) {
  std::fprintf(f_,
               "{\"cycle\":%" PRIu64
               ",\"ev\":\"status\",\"page\":%u,\"channel\":%u,\"status\":\"%s\"}\n",
               e.cycle, e.wch / 64u, e.wch % 64u, status_name(e.to));
}

}  // namespace sim
