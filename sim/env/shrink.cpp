// SPDX-License-Identifier: Apache-2.0
#include "sim/env/shrink.hpp"

#include <cctype>
#include <fstream>

namespace sim {

std::string failure_signature(const std::string& failure) {
  std::string out;
  for (std::size_t i = 0; i < failure.size();) {
    if (std::isdigit(static_cast<unsigned char>(failure[i]))) {
      // a number, decimal or 0x-hex
      if (failure[i] == '0' && i + 1 < failure.size() &&
          (failure[i + 1] == 'x' || failure[i + 1] == 'X'))
        i += 2;
      while (i < failure.size() && std::isxdigit(static_cast<unsigned char>(failure[i]))) ++i;
      out += '#';
    } else {
      out += failure[i++];
    }
  }
  return out;
}

ShrinkResult shrink_scenario(const Scenario& sc, const std::string& signature,
                             const std::function<std::string(const Scenario&)>& fails,
                             std::size_t max_runs,
                             const std::function<void(const std::string&)>& progress) {
  ShrinkResult res;
  res.scenario = sc;
  std::vector<ScenarioEvent> cur = sc.events;
  auto still_fails = [&](const std::vector<ScenarioEvent>& ev) {
    Scenario cand = sc;
    cand.events = ev;
    ++res.runs;
    const std::string f = fails(cand);
    return !f.empty() && failure_signature(f) == signature;
  };
  std::size_t n = 2;
  while (cur.size() >= 2) {
    if (res.runs >= max_runs) {
      res.hit_limit = true;
      break;
    }
    const std::size_t chunk = (cur.size() + n - 1) / n;
    bool reduced = false;
    for (std::size_t start = 0; start < cur.size() && res.runs < max_runs; start += chunk) {
      std::vector<ScenarioEvent> without;
      without.reserve(cur.size());
      for (std::size_t i = 0; i < cur.size(); ++i) {
        if (i < start || i >= start + chunk) without.push_back(cur[i]);
      }
      if (without.empty()) continue;
      if (still_fails(without)) {
        cur = std::move(without);
        n = std::max<std::size_t>(n - 1, 2);
        reduced = true;
        if (progress)
          progress(std::to_string(cur.size()) + " events, " + std::to_string(res.runs) + " runs");
        break;
      }
    }
    if (!reduced) {
      if (n >= cur.size()) break;
      n = std::min(cur.size(), 2 * n);
    }
  }
  res.scenario.events = cur;
  return res;
}

void save_scenario(const Scenario& sc, const std::string& path, const std::string& description) {
  std::ofstream out(path);
  if (!out) throw ScenarioError("cannot write " + path);
  out << "{\n  \"format\": \"ni-scenario/1\",\n  \"description\": "
      << nlohmann::json(description).dump();
  if (sc.config.is_object()) out << ",\n  \"config\": " << sc.config.dump();
  out << ",\n  \"events\": [\n";
  for (std::size_t i = 0; i < sc.events.size(); ++i) {
    out << "    " << sc.events[i].raw.dump() << (i + 1 < sc.events.size() ? ",\n" : "\n");
  }
  out << "  ]\n}\n";
}

}  // namespace sim
