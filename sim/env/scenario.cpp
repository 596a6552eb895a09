// SPDX-License-Identifier: Apache-2.0
#include "sim/env/scenario.hpp"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <fstream>
#include <set>

#include "ref_model/common/addr_map.hpp"
#include "ref_model/common/wire.hpp"
#include "ref_model/qos/descriptor_write_model.hpp"

namespace sim {

using nlohmann::json;

namespace {

std::string hexs(uint64_t v) {
  char b[32];
  std::snprintf(b, sizeof b, "0x%" PRIx64, v);
  return b;
}

const char* op_name(ScenarioEvent::Op op) {
  switch (op) {
    case ScenarioEvent::Op::Write:
      return "write";
    case ScenarioEvent::Op::Read:
      return "read";
    case ScenarioEvent::Op::Descriptor:
      return "descriptor";
    case ScenarioEvent::Op::Ack:
      return "ack";
    case ScenarioEvent::Op::Stall:
      return "stall";
    case ScenarioEvent::Op::Responder:
      return "responder";
    case ScenarioEvent::Op::Net:
      return "net";
    case ScenarioEvent::Op::Packet:
      return "packet";
  }
  return "?";
}

// Checked access to one event object.
class Ev {
 public:
  Ev(const json& j, std::string where, std::size_t idx, std::string op)
      : j_(j), where_(std::move(where)), idx_(idx), op_(std::move(op)) {}

  [[noreturn]] void error(const std::string& field, const std::string& msg) const {
    throw ScenarioError(where_ + ": event #" + std::to_string(idx_) +
                        (op_.empty() ? "" : " (" + op_ + ")") +
                        (field.empty() ? "" : ": field '" + field + "'") + ": " + msg);
  }

  void allow(std::initializer_list<const char*> keys) const {
    std::set<std::string> ok(keys.begin(), keys.end());
    ok.insert({"at", "op", "comment", "node"});
    for (auto it = j_.begin(); it != j_.end(); ++it) {
      if (!ok.count(it.key())) {
        std::string list;
        for (const auto& k : ok) list += (list.empty() ? "" : ", ") + k;
        error(it.key(), "is not a field of this op (fields: " + list + ")");
      }
    }
  }

  bool has(const char* k) const { return j_.contains(k); }
  const json& at(const char* k) const {
    if (!has(k)) error(k, "is required");
    return j_.at(k);
  }

  // Hex string ("0x1f") or non-negative integer.
  uint64_t num(const char* k, uint64_t max) const {
    const json& v = at(k);
    uint64_t x = 0;
    if (v.is_number_unsigned() || (v.is_number_integer() && v.get<int64_t>() >= 0)) {
      x = v.get<uint64_t>();
    } else if (v.is_string()) {
      const std::string s = v.get<std::string>();
      if (s.size() < 3 || s.size() > 18 || (s.rfind("0x", 0) != 0 && s.rfind("0X", 0) != 0) ||
          s.find_first_not_of("0123456789abcdefABCDEF", 2) != std::string::npos) {
        error(k, "must be a hex string like \"0x1f\" (at most 16 digits), got " + v.dump());
      }
      x = std::stoull(s.substr(2), nullptr, 16);
    } else {
      error(k, "must be a hex string or a non-negative integer, got " + v.dump());
    }
    if (x > max) error(k, "= " + hexs(x) + " is out of range (max " + hexs(max) + ")");
    return x;
  }
  uint64_t num_or(const char* k, uint64_t max, uint64_t dflt) const {
    return has(k) ? num(k, max) : dflt;
  }

  bool flag(const char* k, bool dflt) const {
    if (!has(k)) return dflt;
    const json& v = j_.at(k);
    if (v.is_boolean()) return v.get<bool>();
    if (v.is_number_unsigned() && v.get<uint64_t>() <= 1) return v.get<uint64_t>() == 1;
    error(k, "must be true/false (or 0/1), got " + v.dump());
  }

  std::string str(const char* k) const {
    const json& v = at(k);
    if (!v.is_string()) error(k, "must be a string, got " + v.dump());
    return v.get<std::string>();
  }

  uint8_t resp(const char* k) const {
    const std::string s = str(k);
    if (s == "OKAY") return kRespOkay;
    if (s == "SLVERR") return kRespSlverr;
    error(k, "must be \"OKAY\" or \"SLVERR\", got \"" + s + "\"");
  }

  double pct(const char* k) const {
    const json& v = at(k);
    if (!v.is_number() || v.get<double>() < 0 || v.get<double>() > 100) {
      error(k, "must be a percentage 0..100, got " + v.dump());
    }
    return v.get<double>();
  }

  const json& raw() const { return j_; }
  const std::string& where() const { return where_; }
  std::size_t index() const { return idx_; }
  const std::string& op() const { return op_; }

 private:
  const json& j_;
  std::string where_;
  std::size_t idx_;
  std::string op_;
};

// AXI size in bytes (a power of two, 1..128) -> AxSIZE code.
std::optional<uint8_t> size_code(uint64_t bytes) {
  for (uint8_t c = 0; c < 8; ++c) {
    if (bytes == (uint64_t{1} << c)) return c;
  }
  return std::nullopt;
}

std::optional<uint8_t> burst_code(const std::string& b) {
  if (b == "FIXED") return 0;
  if (b == "INCR") return 1;
  if (b == "WRAP") return 2;
  return std::nullopt;
}

const char* burst_name(uint8_t b) {
  return b == 0 ? "FIXED" : b == 1 ? "INCR" : b == 2 ? "WRAP" : "RESERVED";
}

// Beats of a write given as 64-bit words at consecutive addresses from `addr`.
std::vector<AxiBeat> beats_from_words(uint32_t addr, unsigned size,
                                      const std::vector<uint64_t>& words) {
  std::vector<AxiBeat> beats;
  const uint32_t first_window = addr & ~uint32_t(size - 1);
  for (std::size_t i = 0; i < words.size(); ++i) {
    const uint32_t a = addr + uint32_t(8 * i);
    const std::size_t b = size == 16 ? (a - first_window) / 16 : i;
    if (beats.size() <= b) beats.resize(b + 1);
    const bool upper = (a >> 3) & 1;
    if (upper) {
      beats[b].hi = words[i];
      beats[b].strb |= 0xFF00;
    } else {
      beats[b].lo = words[i];
      beats[b].strb |= 0x00FF;
    }
  }
  if (!beats.empty()) beats.back().last = true;
  return beats;
}

}  // namespace

std::string ScenarioEvent::what() const {
  std::string s = "event #" + std::to_string(index) + " (" + op_name(op);
  if (op == Op::Write) s += " at " + hexs(write.addr);
  if (op == Op::Read) s += " at " + hexs(read.addr);
  if (op == Op::Descriptor)
    s += " page " + std::to_string(desc.page) + " channel " + std::to_string(desc.channel);
  return s + ", at cycle " + std::to_string(at) + ")";
}

AxiWrite descriptor_write(const ni::Descriptor& d, unsigned width) {
  AxiWrite w;
  w.addr = ni::desc_addr(d.page, d.channel, 0);
  w.size = width == 16 ? 4 : 3;
  w.beats = beats_from_words(w.addr, width, d.encode());
  return w;
}

namespace {

// ---- one function per op: each reads its fields from `v` into `ev` --------------------------
void parse_write(const Ev& v, ScenarioEvent& ev) {
  ev.op = ScenarioEvent::Op::Write;
  v.allow({"addr", "size", "data", "beats", "expect_resp", "burst", "len", "id"});
  ev.write.addr = uint32_t(v.num("addr", 0xFFFFFFFFull));
  const uint64_t size = v.num_or("size", 128, 8);
  if (size != 8 && size != 16 && !v.has("beats"))
    v.error("size", "must be 8 or 16, got " + std::to_string(size));
  const auto code = size_code(size);
  if (!code)
    v.error("size", "must be a power of two (bytes per beat), got " + std::to_string(size));
  ev.write.size = *code;
  if (v.has("beats")) {
    if (v.has("data")) v.error("beats", "give either \"data\" or \"beats\", not both");
    const json& bs = v.at("beats");
    if (!bs.is_array() || bs.empty()) v.error("beats", "must be a non-empty list");
    for (std::size_t b = 0; b < bs.size(); ++b) {
      Ev bv(bs[b], v.where(), v.index(), v.op());
      if (!bs[b].is_object()) v.error("beats", "entry " + std::to_string(b) + " must be an object");
      AxiBeat beat;
      beat.lo = bv.num_or("lo", ~uint64_t{0}, 0);
      beat.hi = bv.num_or("hi", ~uint64_t{0}, 0);
      beat.strb = uint16_t(bv.num_or("strb", 0xFFFF, 0xFFFF));
      beat.last = bv.flag("last", b + 1 == bs.size());
      ev.write.beats.push_back(beat);
    }
  } else {
    const json& d = v.at("data");
    if (!d.is_array() || d.empty()) v.error("data", "must be a non-empty list of hex words");
    if (d.size() > 512) v.error("data", "has " + std::to_string(d.size()) + " words (at most 512)");
    std::vector<uint64_t> words;
    for (std::size_t k = 0; k < d.size(); ++k) {
      json tmp = {{"w", d[k]}};
      Ev wv(tmp, v.where(), v.index(), v.op());
      try {
        words.push_back(wv.num("w", ~uint64_t{0}));
      } catch (const ScenarioError&) {
        v.error("data", "word " + std::to_string(k) + " must be a hex string, got " + d[k].dump());
      }
    }
    ev.write.beats = beats_from_words(ev.write.addr, unsigned(size), words);
    if (ev.write.beats.size() > 256) v.error("data", "needs more than 256 beats");
  }
  if (v.has("burst")) {
    const std::string b = v.str("burst");
    const auto bc = burst_code(b);
    if (!bc) v.error("burst", "must be \"FIXED\", \"INCR\" or \"WRAP\", got \"" + b + "\"");
    ev.write.burst = *bc;
  }
  if (v.has("len")) ev.write.len = int(v.num("len", 255));
  ev.write.id = uint8_t(v.num_or("id", 15, 0));
  if (v.has("expect_resp")) ev.expect_resp = v.resp("expect_resp");
}

void parse_read(const Ev& v, ScenarioEvent& ev) {
  ev.op = ScenarioEvent::Op::Read;
  v.allow({"addr", "expect", "expect_resp", "len", "size", "burst", "id"});
  ev.read.addr = uint32_t(v.num("addr", 0xFFFFFFFFull));
  ev.read.len = uint8_t(v.num_or("len", 255, 0));
  const auto rcode = size_code(v.num_or("size", 128, 16));
  if (!rcode) v.error("size", "must be a power of two (bytes per beat)");
  ev.read.size = *rcode;
  if (v.has("burst")) {
    const std::string b = v.str("burst");
    const auto bc = burst_code(b);
    if (!bc) v.error("burst", "must be \"FIXED\", \"INCR\" or \"WRAP\", got \"" + b + "\"");
    ev.read.burst = *bc;
  }
  ev.read.id = uint8_t(v.num_or("id", 15, 0));
  if (v.has("expect")) ev.expect = v.num("expect", ~uint64_t{0});
  if (v.has("expect_resp")) ev.expect_resp = v.resp("expect_resp");
}

void parse_descriptor(const Ev& v, ScenarioEvent& ev) {
  ev.op = ScenarioEvent::Op::Descriptor;
  v.allow({"page", "channel", "kind", "src", "dst", "size", "prio", "notify", "notify_addr",
           "notify_tag", "payload", "width", "expect_resp", "long", "read"});
  ni::Descriptor& d = ev.desc;
  d.page = unsigned(v.num("page", 15));
  d.channel = unsigned(v.num("channel", 127));
  const std::string kind = v.str("kind");
  const auto k = ni::kind_from_string(kind);
  if (!k) v.error("kind", "must be \"tid\", \"1x\", \"4x\" or \"inline\", got \"" + kind + "\"");
  d.kind = *k;
  d.src = v.num_or("src", ~uint64_t{0}, 0);
  d.dst = v.num_or("dst", ~uint64_t{0}, 0);
  d.prio = uint8_t(v.num_or("prio", 15, 0));
  d.notify = v.flag("notify", false);
  // An RDMA Read (ICD 16): encoded as given, also where the ICD rejects it (kind inline, a
  // source crossing 2^48), so that a scenario can check the rejection.
  d.read = v.flag("read", false);
  d.notify_addr = v.num_or("notify_addr", ~uint64_t{0}, 0);
  d.notify_tag = v.num_or("notify_tag", ~uint64_t{0}, 0);
  if (v.has("payload")) {
    const std::string p = v.str("payload");
    std::string hex = p.rfind("0x", 0) == 0 ? p.substr(2) : p;
    if (hex.size() % 2 != 0 ||
        hex.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos) {
      v.error("payload", "must be a hex string of whole bytes, byte 0 first, got \"" + p + "\"");
    }
    if (hex.size() > 64)
      v.error("payload", "has " + std::to_string(hex.size() / 2) + " bytes (at most 32)");
    for (std::size_t b = 0; b < hex.size(); b += 2)
      d.payload.push_back(uint8_t(std::stoul(hex.substr(b, 2), nullptr, 16)));
    if (d.kind != ni::Kind::Inline) v.error("payload", "is only for kind \"inline\"");
  }
  d.size = uint32_t(v.has("size") ? v.num("size", 0xFFFFFFFFull) : d.payload.size());
  if (v.has("long")) {
    const std::string l = v.str("long");
    if (l == "auto")
      d.long_mode = ni::LongMode::Auto;
    else if (l == "long")
      d.long_mode = ni::LongMode::Long;
    else if (l == "short")
      d.long_mode = ni::LongMode::Short;
    else
      v.error("long", "must be \"auto\", \"long\" or \"short\", got \"" + l + "\"");
  }
  ev.width = unsigned(v.num_or("width", 16, 16));
  if (ev.width != 8 && ev.width != 16)
    v.error("width", "must be 8 or 16, got " + std::to_string(ev.width));
  if (v.has("expect_resp")) ev.expect_resp = v.resp("expect_resp");
  ev.write = descriptor_write(d, ev.width);
}

void parse_ack(const Ev& v, ScenarioEvent& ev) {
  ev.op = ScenarioEvent::Op::Ack;
  v.allow({"tid", "seq", "nack"});
  ev.tid = uint16_t(v.num("tid", 1023));
  ev.seq = uint16_t(v.num("seq", 16383));
  ev.nack = v.flag("nack", false);
}

void parse_stall(const Ev& v, ScenarioEvent& ev) {
  ev.op = ScenarioEvent::Op::Stall;
  v.allow({"port", "cycles"});
  const std::string p = v.str("port");
  if (p == "blk")
    ev.port = StallInjector::Port::Blk;
  else if (p == "pkt")
    ev.port = StallInjector::Port::Pkt;
  else
    v.error("port", "must be \"blk\" or \"pkt\", got \"" + p + "\"");
  ev.cycles = v.num("cycles", uint64_t{1} << 40);
  if (ev.cycles == 0) v.error("cycles", "must be at least 1");
}

std::optional<unsigned> wire_kind(const std::string& s) {
  for (unsigned k = 0; k < ni::kNumWireKinds; ++k) {
    if (s == ni::to_string(ni::WireKind(k))) return k;
  }
  return std::nullopt;
}

// ACK and NACK travel on the response network, everything else (READ_REQ included) on the
// request network (ICD 11, 16).
bool rsp_kind(unsigned k) {
  return k == unsigned(ni::WireKind::Ack) || k == unsigned(ni::WireKind::Nack);
}

void parse_net(const Ev& v, ScenarioEvent& ev) {
  ev.op = ScenarioEvent::Op::Net;
  v.allow({"action", "kind", "tid", "seq", "from", "net"});
  const std::string a = v.str("action");
  if (a == "drop")
    ev.fault.action = NetEvent::Action::Drop;
  else if (a == "corrupt")
    ev.fault.action = NetEvent::Action::Corrupt;
  else if (a == "dup")
    ev.fault.action = NetEvent::Action::Dup;
  else
    v.error("action", "must be \"drop\", \"corrupt\" or \"dup\", got \"" + a + "\"");
  if (v.has("kind")) {
    const auto k = wire_kind(v.str("kind"));
    if (!k) v.error("kind", "must be one of inline, control, data, ack, nack, rreq");
    ev.fault.kind = *k;
  }
  if (v.has("tid")) ev.fault.tid = unsigned(v.num("tid", 1023));
  if (v.has("seq")) ev.fault.seq = unsigned(v.num("seq", 16383));
  if (v.has("from")) ev.fault.from = unsigned(v.num("from", 0xFFFF));
  // Which network: given, or from the kind (ACK/NACK travel on the response network).
  ev.rsp_net = ev.fault.kind && rsp_kind(*ev.fault.kind);
  if (v.has("net")) {
    const std::string n = v.str("net");
    if (n != "req" && n != "rsp") v.error("net", "must be \"req\" or \"rsp\", got \"" + n + "\"");
    ev.rsp_net = n == "rsp";
  }
}

// A 512-bit beat as a hex string (at most 128 digits, bit 0 = the last digit's LSB).
std::array<uint64_t, 8> wide_hex(const Ev& v, const char* field, const json& s) {
  const std::string t = s.is_string() ? s.get<std::string>() : "";
  if (t.size() < 3 || t.size() > 130 || (t.rfind("0x", 0) != 0 && t.rfind("0X", 0) != 0) ||
      t.find_first_not_of("0123456789abcdefABCDEF", 2) != std::string::npos) {
    v.error(field, "each beat must be a hex string of at most 128 digits, got " + s.dump());
  }
  std::array<uint64_t, 8> b{};
  const std::string d = t.substr(2);
  for (std::size_t i = 0; i < d.size(); ++i) {
    const char c = d[d.size() - 1 - i];
    const uint64_t x = uint64_t(std::stoul(std::string(1, c), nullptr, 16));
    b[i / 16] |= x << (4 * (i % 16));
  }
  return b;
}

void parse_packet(const Ev& v, ScenarioEvent& ev) {
  ev.op = ScenarioEvent::Op::Packet;
  v.allow({"port", "beats"});
  const json& bs = v.at("beats");
  if (!bs.is_array() || bs.empty()) v.error("beats", "must be a non-empty list of hex strings");
  for (const json& b : bs) ev.beats.push_back(wide_hex(v, "beats", b));
  ev.rsp_net = rsp_kind(unsigned(ev.beats[0][0] & 0xF));  // ACK/NACK heads: rsp_rx by default
  if (v.has("port")) {
    const std::string p = v.str("port");
    if (p != "req_rx" && p != "rsp_rx")
      v.error("port", "must be \"req_rx\" or \"rsp_rx\", got \"" + p + "\"");
    ev.rsp_net = p == "rsp_rx";
  }
  if (ev.rsp_net && ev.beats.size() != 1)
    v.error("beats", "rsp_rx takes one-beat packets, got " + std::to_string(ev.beats.size()));
  if (ev.beats.size() > 18)
    v.error("beats", "a packet has at most 18 beats, got " + std::to_string(ev.beats.size()));
}

// `resp` carries the responder's settings from one responder event to the next.
void parse_responder(const Ev& v, ScenarioEvent& ev, ResponderOptions& resp) {
  ev.op = ScenarioEvent::Op::Responder;
  // Accepted spellings: the ICD names the knobs only informally ("latency range, reorder
  // window, NACK percent").
  v.allow({"mode", "latency", "latency_min", "latency_max", "min_latency", "max_latency",
           "reorder_window", "reorder", "nack_pct", "nack_percent", "nack", "dup_pct", "stale_pct",
           "unknown_pct", "idle_pct"});
  ev.have_resp_opts = true;
  if (v.has("mode")) {
    const std::string m = v.str("mode");
    if (m != "auto" && m != "script")
      v.error("mode", "must be \"auto\" or \"script\", got \"" + m + "\"");
    resp.auto_mode = m == "auto";
  }
  if (v.has("latency")) {
    const json& l = v.at("latency");
    if (l.is_number_unsigned()) {
      resp.lat_min = resp.lat_max = l.get<unsigned>();
    } else if (!l.is_array() || l.size() != 2 || !l[0].is_number_unsigned() ||
               !l[1].is_number_unsigned() || l[0].get<uint64_t>() > l[1].get<uint64_t>()) {
      v.error("latency",
              "must be [min, max] with 0 <= min <= max (or one number), got " + l.dump());
    } else {
      resp.lat_min = l[0].get<unsigned>();
      resp.lat_max = l[1].get<unsigned>();
    }
  }
  for (const char* k : {"latency_min", "min_latency"}) {
    if (v.has(k)) resp.lat_min = unsigned(v.num(k, 1000000));
  }
  for (const char* k : {"latency_max", "max_latency"}) {
    if (v.has(k)) resp.lat_max = unsigned(v.num(k, 1000000));
  }
  if (resp.lat_min > resp.lat_max) v.error("latency", "minimum above maximum");
  for (const char* k : {"reorder_window", "reorder"}) {
    if (v.has(k)) {
      resp.reorder_window = unsigned(v.num(k, 4096));
      if (resp.reorder_window == 0) v.error(k, "must be at least 1");
    }
  }
  for (const char* k : {"nack_pct", "nack_percent", "nack"}) {
    if (v.has(k)) resp.nack_pct = v.pct(k);
  }
  if (v.has("dup_pct")) resp.dup_pct = v.pct("dup_pct");
  if (v.has("stale_pct")) resp.stale_pct = v.pct("stale_pct");
  if (v.has("unknown_pct")) resp.unknown_pct = v.pct("unknown_pct");
  if (v.has("idle_pct")) resp.idle_pct = unsigned(v.pct("idle_pct"));
  ev.resp = resp;
}

// The top level: format, description, config, events (a list).
void parse_header(const json& j, const std::string& where, Scenario& sc) {
  if (!j.is_object()) throw ScenarioError(where + ": a scenario must be a JSON object");
  for (auto it = j.begin(); it != j.end(); ++it) {
    static const std::set<std::string> kTop = {"format", "description", "config", "events"};
    if (!kTop.count(it.key())) {
      throw ScenarioError(where + ": top-level key '" + it.key() +
                          "' is not known (expected format, description, config, events)");
    }
  }
  if (!j.contains("format") || j["format"] != "ni-scenario/1") {
    throw ScenarioError(where + ": \"format\" must be \"ni-scenario/1\"");
  }
  if (j.contains("description")) {
    if (!j["description"].is_string())
      throw ScenarioError(where + ": \"description\" must be a string");
    sc.description = j["description"].get<std::string>();
  }
  if (j.contains("config")) {
    if (!j["config"].is_object()) throw ScenarioError(where + ": \"config\" must be an object");
    sc.config = j["config"];
  }
  if (!j.contains("events") || !j["events"].is_array()) {
    throw ScenarioError(where + ": \"events\" must be a list");
  }
}

}  // namespace

Scenario parse_scenario(const json& j, const std::string& where,
                        const ResponderOptions& base_resp) {
  Scenario sc;
  sc.path = where;
  parse_header(j, where, sc);
  ResponderOptions resp = base_resp;
  if (sc.config.is_object() && sc.config.contains("responder") &&
      sc.config["responder"].contains("mode")) {
    resp.auto_mode = sc.config["responder"]["mode"] == "auto";
  }
  uint64_t last_at = 0;
  const json& evs = j["events"];
  for (std::size_t i = 0; i < evs.size(); ++i) {
    const json& e = evs[i];
    if (!e.is_object()) Ev(e, where, i, "").error("", "must be an object");
    const std::string op = Ev(e, where, i, "").str("op");
    const Ev v(e, where, i, op);
    ScenarioEvent ev;
    ev.index = i;
    ev.raw = e;
    ev.at = v.num("at", ~uint64_t{0});
    if (ev.at < last_at) {
      v.error("at", std::to_string(ev.at) + " is before the previous event's " +
                        std::to_string(last_at) + " (\"at\" must not decrease)");
    }
    last_at = ev.at;
    if (e.contains("node")) {
      ev.node = unsigned(v.num("node", 0xFFFF));
      ev.has_node = true;
    }
    if (op == "write") {
      parse_write(v, ev);
    } else if (op == "read") {
      parse_read(v, ev);
    } else if (op == "descriptor") {
      parse_descriptor(v, ev);
    } else if (op == "ack") {
      parse_ack(v, ev);
    } else if (op == "stall") {
      parse_stall(v, ev);
    } else if (op == "responder") {
      parse_responder(v, ev, resp);
    } else if (op == "net") {
      parse_net(v, ev);
    } else if (op == "packet") {
      parse_packet(v, ev);
    } else {
      v.error("op", "\"" + op +
                        "\" is not an op (write, read, descriptor, ack, stall, responder, net, "
                        "packet)");
    }
    sc.events.push_back(std::move(ev));
  }
  return sc;
}

bool writes_ctrl_regs(const Scenario& sc, unsigned node) {
  for (const ScenarioEvent& e : sc.events) {
    if (e.op == ScenarioEvent::Op::Write && e.node == node &&
        ((e.write.addr >> 16) & 0xF) == ni::RegionCtrl) {
      return true;
    }
  }
  return false;
}

void check_scenario_nodes(const Scenario& sc, unsigned nodes) {
  for (const ScenarioEvent& e : sc.events) {
    const Ev v(e.raw, sc.path, e.index, op_name(e.op));
    if (nodes == 0) {
      if (e.has_node)
        v.error("node", "names a node, but the run simulates the QoS engine alone (nodes 0)");
      if (e.op == ScenarioEvent::Op::Net || e.op == ScenarioEvent::Op::Packet)
        v.error("op", "needs the full NI (\"nodes\" >= 1 or --nodes N)");
      continue;
    }
    if (e.node >= nodes) {
      v.error("node", "node " + std::to_string(e.node) + " does not exist (the run has " +
                          std::to_string(nodes) + " node" + (nodes == 1 ? "" : "s") + ")");
    }
    if (e.op == ScenarioEvent::Op::Net && e.fault.from && *e.fault.from >= nodes) {
      v.error("from", "node " + std::to_string(*e.fault.from) + " does not exist");
    }
    if (e.op == ScenarioEvent::Op::Ack || e.op == ScenarioEvent::Op::Stall ||
        e.op == ScenarioEvent::Op::Responder) {
      v.error("op",
              "drives the engine-alone harness's ports; with nodes the network carries "
              "the responses (use \"net\" or \"packet\")");
    }
  }
}

Scenario load_scenario(const std::string& path, const ResponderOptions& base_resp) {
  std::ifstream in(path);
  if (!in) throw ScenarioError(path + ": cannot open file");
  json j;
  try {
    j = json::parse(in);
  } catch (const json::parse_error& e) {
    throw ScenarioError(path + ": not valid JSON: " + e.what());
  }
  return parse_scenario(j, path, base_resp);
}

// ---------------------------------------------------------------------------------------------
// Driver
// ---------------------------------------------------------------------------------------------
ScenarioDriver::ScenarioDriver(const Scenario& sc, AxiMaster& axi, Responder& rsp,
                               StallInjector& blk, StallInjector& pkt)
    : sc_(sc), axi_(axi), rsp_(&rsp), blk_(&blk), pkt_(&pkt), end_(end_of_mine()) {}

ScenarioDriver::ScenarioDriver(const Scenario& sc, AxiMaster& axi, unsigned node)
    : sc_(sc), axi_(axi), node_(int(node)), end_(end_of_mine()) {}

bool ScenarioDriver::mine(const ScenarioEvent& e) const {
  if (node_ < 0) return true;
  return int(e.node) == node_ &&
         (e.op == ScenarioEvent::Op::Write || e.op == ScenarioEvent::Op::Read ||
          e.op == ScenarioEvent::Op::Descriptor);
}

std::size_t ScenarioDriver::end_of_mine() const {
  for (std::size_t i = sc_.events.size(); i > 0; --i) {
    if (mine(sc_.events[i - 1])) return i;
  }
  return 0;
}

bool ScenarioDriver::done() const { return next_ >= end_; }

void ScenarioDriver::drive(uint64_t cycle) {
  while (next_ < sc_.events.size() && sc_.events[next_].at <= cycle) {
    const ScenarioEvent& e = sc_.events[next_++];
    if (!mine(e)) continue;
    auto fail = [this](const std::string& msg, uint64_t c) {
      if (failure_.empty()) {
        failure_ = msg;
        failure_cycle_ = c;
      }
    };
    switch (e.op) {
      case ScenarioEvent::Op::Write:
      case ScenarioEvent::Op::Descriptor: {
        const std::string what = sc_.path + ": " + e.what();
        const auto expect = e.expect_resp;
        axi_.write(e.write, [expect, what, fail](const AxiWrite& w) {
          if (expect && *expect != w.resp) {
            fail(what + ": expected response " + (*expect == kRespOkay ? "OKAY" : "SLVERR") +
                     ", got " + (w.resp == kRespOkay ? "OKAY" : "SLVERR"),
                 w.b_cycle);
          }
        });
        break;
      }
      case ScenarioEvent::Op::Read: {
        const std::string what = sc_.path + ": " + e.what();
        const auto expect = e.expect;
        const auto expect_resp = e.expect_resp;
        axi_.read(e.read, [expect, expect_resp, what, fail](const AxiRead& r) {
          if (expect_resp && !r.resp.empty() && r.resp[0] != *expect_resp) {
            fail(what + ": expected response " + (*expect_resp == kRespOkay ? "OKAY" : "SLVERR") +
                     ", got " + (r.resp[0] == kRespOkay ? "OKAY" : "SLVERR"),
                 r.r_cycle);
          }
          if (expect && !r.data.empty() && r.data[0] != *expect) {
            fail(what + ": expected data " + hexs(*expect) + ", got " + hexs(r.data[0]), r.r_cycle);
          }
        });
        break;
      }
      case ScenarioEvent::Op::Ack:
        if (rsp_) rsp_->script(cycle, e.tid, e.seq, e.nack);
        break;
      case ScenarioEvent::Op::Stall:
        if (blk_ && pkt_)
          (e.port == StallInjector::Port::Blk ? blk_ : pkt_)->force(cycle, e.cycles);
        break;
      case ScenarioEvent::Op::Responder:
        if (rsp_) rsp_->set_options(e.resp);
        break;
      case ScenarioEvent::Op::Net:
      case ScenarioEvent::Op::Packet:
        break;  // played by the N-node system's network driver
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Recorder
// ---------------------------------------------------------------------------------------------
void Recorder::write(uint64_t at, const AxiWrite& w, int node) {
  json e = {{"at", at}, {"op", "write"}, {"addr", hexs(w.addr)}};
  if (node >= 0) e["node"] = node;
  const unsigned size = 1u << w.size;
  // The compact "data" form when it reproduces the beats exactly.
  bool regular = (w.size == 3 || w.size == 4) && w.burst == 1 && w.id == 0 &&
                 (w.len < 0 || std::size_t(w.len) + 1 == w.beats.size());
  std::vector<uint64_t> words;
  if (regular) {
    for (const AxiBeat& b : w.beats) {
      if (b.strb & 0x00FF) words.push_back(b.lo);
      if (b.strb & 0xFF00) words.push_back(b.hi);
    }
    const std::vector<AxiBeat> again = beats_from_words(w.addr, size, words);
    regular = !words.empty() && again.size() == w.beats.size();
    for (std::size_t i = 0; regular && i < again.size(); ++i) {
      regular = again[i].lo == w.beats[i].lo && again[i].hi == w.beats[i].hi &&
                again[i].strb == w.beats[i].strb && again[i].last == w.beats[i].last;
    }
  }
  e["size"] = size;
  if (regular) {
    json d = json::array();
    for (uint64_t x : words) d.push_back(hexs(x));
    e["data"] = d;
  } else {
    json bs = json::array();
    for (std::size_t i = 0; i < w.beats.size(); ++i) {
      const AxiBeat& b = w.beats[i];
      json bj = {{"lo", hexs(b.lo)}, {"hi", hexs(b.hi)}, {"strb", hexs(b.strb)}};
      if (b.last != (i + 1 == w.beats.size())) bj["last"] = b.last;
      bs.push_back(bj);
    }
    e["beats"] = bs;
    if (w.burst != 1) e["burst"] = burst_name(w.burst);
    if (w.len >= 0 && std::size_t(w.len) + 1 != w.beats.size()) e["len"] = w.len;
    if (w.id != 0) e["id"] = w.id;
  }
  events_.push_back(std::move(e));
}

void Recorder::read(uint64_t at, const AxiRead& r, int node) {
  json e = {{"at", at}, {"op", "read"}, {"addr", hexs(r.addr)}};
  if (node >= 0) e["node"] = node;
  if (r.len != 0) e["len"] = r.len;
  if (r.size != 4) e["size"] = 1u << r.size;
  if (r.burst != 1) e["burst"] = burst_name(r.burst);
  if (r.id != 0) e["id"] = r.id;
  events_.push_back(std::move(e));
}

void Recorder::ack(uint64_t at, uint16_t tid, uint16_t seq, bool nack) {
  events_.push_back({{"at", at}, {"op", "ack"}, {"tid", tid}, {"seq", seq}, {"nack", nack}});
}

void Recorder::stall(uint64_t at, StallInjector::Port port, uint64_t cycles) {
  events_.push_back({{"at", at},
                     {"op", "stall"},
                     {"port", port == StallInjector::Port::Blk ? "blk" : "pkt"},
                     {"cycles", cycles}});
}

void Recorder::save(const std::string& path, json config, const std::string& description) const {
  if (!config.contains("nodes")) config["responder"] = {{"mode", "script"}};
  config.erase("stalls");
  config.erase("traffic");
  config.erase("transfers");
  config.erase("max_size");
  json j;
  j["format"] = "ni-scenario/1";
  j["description"] = description;
  j["config"] = config;
  std::vector<json> ev = events_;
  std::stable_sort(ev.begin(), ev.end(), [](const json& a, const json& b) {
    return a["at"].get<uint64_t>() < b["at"].get<uint64_t>();
  });
  j["events"] = ev;
  std::ofstream out(path);
  if (!out) throw ScenarioError("cannot write " + path);
  // One event per line: diff-friendly and still valid JSON.
  out << "{\n  \"format\": \"ni-scenario/1\",\n  \"description\": " << json(description).dump()
      << ",\n  \"config\": " << j["config"].dump() << ",\n  \"events\": [\n";
  for (std::size_t i = 0; i < ev.size(); ++i) {
    out << "    " << ev[i].dump() << (i + 1 < ev.size() ? ",\n" : "\n");
  }
  out << "  ]\n}\n";
}

}  // namespace sim
