// SPDX-License-Identifier: Apache-2.0
#include "sim/env/config.hpp"

#include <fstream>
#include <set>
#include <sstream>

namespace sim {

using nlohmann::json;

namespace {

// A view of one JSON object that checks its keys and values.
class Obj {
 public:
  Obj(const json& j, std::string where, std::string path)
      : j_(j), where_(std::move(where)), path_(std::move(path)) {
    if (!j_.is_object())
      error(path_.empty() ? "the configuration" : "'" + path_ + "'", "must be an object");
  }

  void allow(std::initializer_list<const char*> keys) {
    std::set<std::string> ok(keys.begin(), keys.end());
    for (auto it = j_.begin(); it != j_.end(); ++it) {
      if (!ok.count(it.key())) {
        std::string list;
        for (const auto& k : ok) list += (list.empty() ? "" : ", ") + k;
        error("key '" + key(it.key()) + "'", "is not known (expected one of: " + list + ")");
      }
    }
  }

  bool has(const char* k) const { return j_.contains(k); }

  template <typename T>
  void get_uint(const char* k, T& out, uint64_t lo, uint64_t hi) const {
    if (!has(k)) return;
    const json& v = j_.at(k);
    if (!v.is_number_unsigned() && !(v.is_number_integer() && v.get<int64_t>() >= 0)) {
      error("key '" + key(k) + "'", "must be a non-negative integer, got " + v.dump());
    }
    const uint64_t x = v.get<uint64_t>();
    if (x < lo || x > hi) {
      error("key '" + key(k) + "'", "= " + std::to_string(x) + " is out of range [" +
                                        std::to_string(lo) + ", " + std::to_string(hi) + "]");
    }
    out = static_cast<T>(x);
  }

  void get_pct(const char* k, unsigned& out) const { get_uint(k, out, 0, 100); }

  void get_double_pct(const char* k, double& out) const {
    if (!has(k)) return;
    const json& v = j_.at(k);
    if (!v.is_number()) error("key '" + key(k) + "'", "must be a number, got " + v.dump());
    const double x = v.get<double>();
    if (x < 0 || x > 100)
      error("key '" + key(k) + "'", "= " + v.dump() + " is out of range [0, 100]");
    out = x;
  }

  void get_bool(const char* k, bool& out) const {
    if (!has(k)) return;
    const json& v = j_.at(k);
    if (!v.is_boolean()) error("key '" + key(k) + "'", "must be true or false, got " + v.dump());
    out = v.get<bool>();
  }

  // [lo, hi] pair of unsigned values.
  void get_range(const char* k, unsigned& lo, unsigned& hi, unsigned max) const {
    if (!has(k)) return;
    const json& v = j_.at(k);
    if (!v.is_array() || v.size() != 2 || !v[0].is_number_unsigned() ||
        !v[1].is_number_unsigned()) {
      error("key '" + key(k) + "'",
            "must be a pair [min, max] of non-negative integers, got " + v.dump());
    }
    const uint64_t a = v[0].get<uint64_t>(), b = v[1].get<uint64_t>();
    if (a > b || b > max) {
      error("key '" + key(k) + "'",
            "= " + v.dump() + " must satisfy min <= max <= " + std::to_string(max));
    }
    lo = unsigned(a);
    hi = unsigned(b);
  }

  Obj sub(const char* k) const { return Obj(j_.at(k), where_, key(k)); }

  [[noreturn]] void error(const std::string& what, const std::string& msg) const {
    throw ConfigError(where_ + ": " + what + " " + msg);
  }

  const json& raw() const { return j_; }
  std::string key(const std::string& k) const { return path_.empty() ? k : path_ + "." + k; }

 private:
  const json& j_;
  std::string where_;
  std::string path_;
};

}  // namespace

json read_json_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw ConfigError(path + ": cannot open file");
  try {
    return json::parse(in);
  } catch (const json::parse_error& e) {
    throw ConfigError(path + ": not valid JSON: " + e.what());
  }
}

void SimConfig::apply(const json& j, const std::string& where) {
  Obj o(j, where, "");
  o.allow({"seed", "transfers", "max_size", "max_cycles", "traffic", "axi", "responder", "stalls",
           "nodes", "memory", "network", "retx"});
  o.get_uint("nodes", nodes, 0, 64);
  if (o.has("memory")) {
    Obj m = o.sub("memory");
    m.allow(
        {"read_latency", "write_latency", "ooo", "ar_stall_pct", "aw_stall_pct", "w_stall_pct"});
    m.get_range("read_latency", memory.rd_lat_min, memory.rd_lat_max, 100000);
    m.get_range("write_latency", memory.wr_lat_min, memory.wr_lat_max, 100000);
    if (memory.rd_lat_min == 0 || memory.wr_lat_min == 0)
      m.error("key 'memory.read_latency'/'memory.write_latency'", "must start at 1 or more");
    m.get_bool("ooo", memory.ooo);
    m.get_pct("ar_stall_pct", memory.ar_stall_pct);
    m.get_pct("aw_stall_pct", memory.aw_stall_pct);
    m.get_pct("w_stall_pct", memory.w_stall_pct);
    if (memory.ar_stall_pct == 100 || memory.aw_stall_pct == 100 || memory.w_stall_pct == 100)
      m.error("a memory stall percentage", "of 100 would stall forever");
  }
  if (o.has("network")) {
    Obj n = o.sub("network");
    n.allow({"latency", "drop_pct", "corrupt_pct", "dup_pct", "tx_stall_pct", "buffer"});
    n.get_uint("buffer", network.buffer, 0, 1000000);
    n.get_range("latency", network.lat_min, network.lat_max, 1000000);
    if (network.lat_min == 0) n.error("key 'network.latency'", "must start at 1 or more");
    n.get_double_pct("drop_pct", network.drop_pct);
    n.get_double_pct("corrupt_pct", network.corrupt_pct);
    n.get_double_pct("dup_pct", network.dup_pct);
    n.get_double_pct("tx_stall_pct", network.tx_stall_pct);
    if (network.tx_stall_pct >= 100)
      n.error("key 'network.tx_stall_pct'", "of 100 would stall forever");
  }
  if (o.has("retx")) {
    Obj r = o.sub("retx");
    r.allow({"timeout", "max_retries", "rx_idle"});
    uint64_t v = 0;
    if (r.has("timeout")) {
      r.get_uint("timeout", v, 0, ~uint64_t{0});
      retx.timeout = v;
    }
    if (r.has("max_retries")) {
      r.get_uint("max_retries", v, 0, ~uint64_t{0});
      retx.max_retries = v;
    }
    if (r.has("rx_idle")) {
      r.get_uint("rx_idle", v, 0, ~uint64_t{0});
      retx.rx_idle = v;
    }
  }
  o.get_uint("seed", seed, 0, ~uint64_t{0});
  o.get_uint("transfers", traffic.transfers, 0, uint64_t{1} << 40);
  o.get_uint("max_size", traffic.max_size, 1, 0xFFFFFFFFull);
  o.get_uint("max_cycles", max_cycles, 0, ~uint64_t{0});
  if (o.has("traffic")) {
    Obj t = o.sub("traffic");
    t.allow({"mix", "notify_pct", "inline_long_pct", "illegal_pct", "illegal_read_pct",
             "stat_read_pct", "pages", "prio_max", "sizes", "aligned_pct", "wide_pct", "burst_pct",
             "poll_interval", "multi_pct", "max_live", "max_queued_writes", "read_pct"});
    if (t.has("mix")) {
      Obj m = t.sub("mix");
      m.allow({"tid", "1x", "4x", "inline"});
      m.get_uint("tid", traffic.w_tid, 0, 1000000);
      m.get_uint("1x", traffic.w_1x, 0, 1000000);
      m.get_uint("4x", traffic.w_4x, 0, 1000000);
      m.get_uint("inline", traffic.w_inline, 0, 1000000);
      if (traffic.w_tid + traffic.w_1x + traffic.w_4x + traffic.w_inline == 0) {
        m.error("key 'traffic.mix'", "gives every kind weight 0");
      }
    }
    t.get_pct("notify_pct", traffic.notify_pct);
    t.get_pct("inline_long_pct", traffic.inline_long_pct);
    t.get_pct("illegal_pct", traffic.illegal_pct);
    t.get_pct("illegal_read_pct", traffic.illegal_read_pct);
    t.get_pct("stat_read_pct", traffic.stat_read_pct);
    t.get_pct("read_pct", traffic.read_pct);
    if (t.has("pages")) {
      const json& p = t.raw().at("pages");
      if (!p.is_array() || p.empty())
        t.error("key 'traffic.pages'", "must be a non-empty list of pages 0..15");
      traffic.pages.clear();
      for (const auto& e : p) {
        if (!e.is_number_unsigned() || e.get<uint64_t>() > 15) {
          t.error("key 'traffic.pages'", "has " + e.dump() + ", pages are 0..15");
        }
        traffic.pages.push_back(e.get<unsigned>());
      }
    }
    t.get_uint("prio_max", traffic.prio_max, 0, 15);
    if (t.has("sizes")) {
      Obj s = t.sub("sizes");
      s.allow({"edge", "small", "medium", "large"});
      s.get_uint("edge", traffic.w_edge, 0, 1000000);
      s.get_uint("small", traffic.w_small, 0, 1000000);
      s.get_uint("medium", traffic.w_medium, 0, 1000000);
      s.get_uint("large", traffic.w_large, 0, 1000000);
    }
    t.get_pct("aligned_pct", traffic.aligned_pct);
    t.get_pct("wide_pct", traffic.wide_pct);
    t.get_pct("burst_pct", traffic.burst_pct);
    t.get_uint("poll_interval", traffic.poll_interval, 1, 1000000);
    t.get_pct("multi_pct", traffic.multi_pct);
    t.get_uint("max_live", traffic.max_live, 1, 1024);
    t.get_uint("max_queued_writes", traffic.max_queued_writes, 1, 1024);
  }
  if (o.has("axi")) {
    Obj a = o.sub("axi");
    a.allow({"w_with_aw", "w_gap_pct", "aw_gap_pct", "bready_low_pct", "rready_low_pct"});
    a.get_bool("w_with_aw", axi.w_with_aw);
    a.get_pct("w_gap_pct", axi.w_gap_pct);
    a.get_pct("aw_gap_pct", axi.aw_gap_pct);
    a.get_pct("bready_low_pct", axi.bready_low_pct);
    a.get_pct("rready_low_pct", axi.rready_low_pct);
  }
  if (o.has("responder")) {
    Obj r = o.sub("responder");
    r.allow({"mode", "latency", "reorder_window", "nack_pct", "dup_pct", "stale_pct", "unknown_pct",
             "idle_pct", "lose_pct", "storm_pct", "storm_len", "late_pct", "late_delay"});
    if (r.has("mode")) {
      const json& m = r.raw().at("mode");
      if (!m.is_string() || (m != "auto" && m != "script")) {
        r.error("key 'responder.mode'", "must be \"auto\" or \"script\", got " + m.dump());
      }
      responder.auto_mode = (m == "auto");
    }
    r.get_range("latency", responder.lat_min, responder.lat_max, 1000000);
    r.get_uint("reorder_window", responder.reorder_window, 1, 4096);
    r.get_double_pct("nack_pct", responder.nack_pct);
    r.get_double_pct("dup_pct", responder.dup_pct);
    r.get_double_pct("stale_pct", responder.stale_pct);
    r.get_double_pct("unknown_pct", responder.unknown_pct);
    r.get_pct("idle_pct", responder.idle_pct);
    r.get_double_pct("lose_pct", responder.lose_pct);
    r.get_double_pct("storm_pct", responder.storm_pct);
    r.get_range("storm_len", responder.storm_min, responder.storm_max, 1000000);
    r.get_double_pct("late_pct", responder.late_pct);
    r.get_range("late_delay", responder.late_min, responder.late_max, 100000000);
  }
  if (o.has("stalls")) {
    Obj s = o.sub("stalls");
    s.allow({"blk", "pkt"});
    for (const char* port : {"blk", "pkt"}) {
      if (!s.has(port)) continue;
      Obj p = s.sub(port);
      p.allow({"start_pct", "len"});
      StallOptions& so = std::string(port) == "blk" ? blk_stall : pkt_stall;
      p.get_pct("start_pct", so.start_pct);
      p.get_range("len", so.len_min, so.len_max, 1000000);
      if (so.len_min == 0)
        p.error("key 'stalls." + std::string(port) + ".len'", "must start at 1 or more");
    }
  }
}

json SimConfig::to_json() const {
  const TrafficConfig& t = traffic;
  json j;
  j["seed"] = seed;
  j["transfers"] = t.transfers;
  j["max_size"] = t.max_size;
  j["max_cycles"] = max_cycles;
  j["traffic"] = {
      {"mix", {{"tid", t.w_tid}, {"1x", t.w_1x}, {"4x", t.w_4x}, {"inline", t.w_inline}}},
      {"notify_pct", t.notify_pct},
      {"inline_long_pct", t.inline_long_pct},
      {"illegal_pct", t.illegal_pct},
      {"illegal_read_pct", t.illegal_read_pct},
      {"stat_read_pct", t.stat_read_pct},
      {"pages", t.pages},
      {"prio_max", t.prio_max},
      {"sizes",
       {{"edge", t.w_edge}, {"small", t.w_small}, {"medium", t.w_medium}, {"large", t.w_large}}},
      {"aligned_pct", t.aligned_pct},
      {"wide_pct", t.wide_pct},
      {"burst_pct", t.burst_pct},
      {"poll_interval", t.poll_interval},
      {"multi_pct", t.multi_pct},
      {"max_live", t.max_live},
      {"max_queued_writes", t.max_queued_writes},
      {"read_pct", t.read_pct}};
  j["axi"] = {{"w_with_aw", axi.w_with_aw},
              {"w_gap_pct", axi.w_gap_pct},
              {"aw_gap_pct", axi.aw_gap_pct},
              {"bready_low_pct", axi.bready_low_pct},
              {"rready_low_pct", axi.rready_low_pct}};
  j["responder"] = {{"mode", responder.auto_mode ? "auto" : "script"},
                    {"latency", {responder.lat_min, responder.lat_max}},
                    {"reorder_window", responder.reorder_window},
                    {"nack_pct", responder.nack_pct},
                    {"dup_pct", responder.dup_pct},
                    {"stale_pct", responder.stale_pct},
                    {"unknown_pct", responder.unknown_pct},
                    {"idle_pct", responder.idle_pct},
                    {"lose_pct", responder.lose_pct},
                    {"storm_pct", responder.storm_pct},
                    {"storm_len", {responder.storm_min, responder.storm_max}},
                    {"late_pct", responder.late_pct},
                    {"late_delay", {responder.late_min, responder.late_max}}};
  j["stalls"] = {
      {"blk",
       {{"start_pct", blk_stall.start_pct}, {"len", {blk_stall.len_min, blk_stall.len_max}}}},
      {"pkt",
       {{"start_pct", pkt_stall.start_pct}, {"len", {pkt_stall.len_min, pkt_stall.len_max}}}}};
  // The full-NI keys only where they mean something, so that the engine-alone records stay
  // as they were.
  if (nodes != 0) {
    j["nodes"] = nodes;
    j["memory"] = {{"read_latency", {memory.rd_lat_min, memory.rd_lat_max}},
                   {"write_latency", {memory.wr_lat_min, memory.wr_lat_max}},
                   {"ooo", memory.ooo},
                   {"ar_stall_pct", memory.ar_stall_pct},
                   {"aw_stall_pct", memory.aw_stall_pct},
                   {"w_stall_pct", memory.w_stall_pct}};
    j["network"] = {{"latency", {network.lat_min, network.lat_max}},
                    {"drop_pct", network.drop_pct},
                    {"corrupt_pct", network.corrupt_pct},
                    {"dup_pct", network.dup_pct},
                    {"tx_stall_pct", network.tx_stall_pct},
                    {"buffer", network.buffer}};
  }
  if (retx.any()) {
    json r = json::object();
    if (retx.timeout) r["timeout"] = *retx.timeout;
    if (retx.max_retries) r["max_retries"] = *retx.max_retries;
    if (retx.rx_idle) r["rx_idle"] = *retx.rx_idle;
    j["retx"] = r;
  }
  return j;
}

}  // namespace sim
