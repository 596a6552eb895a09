#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Bad input is rejected before simulation with a clear message and a nonzero exit:
unknown flags, bad values, unknown or out-of-range config keys, and malformed scenarios
(the message names the file, the event index and the field)."""
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SIM = sys.argv[1] if len(sys.argv) > 1 else str(ROOT / "build" / "ni_sim")

GOOD_EVENT = {"at": 0, "op": "descriptor", "page": 0, "channel": 0, "kind": "tid",
              "src": "0x1000", "dst": "0x2000", "size": 64}


def scenario(events, **top):
    s = {"format": "ni-scenario/1", "events": events}
    s.update(top)
    return s


# (name, argv builder(tmpdir) -> args, substrings the error must contain)
CASES = [
    ("unknown flag", lambda d: ["--sed", "1"], ["unknown flag '--sed'"]),
    ("bad number", lambda d: ["--seed", "12x"], ["--seed", "12x"]),
    ("missing value", lambda d: ["--transfers"], ["--transfers", "missing"]),
    ("zero max-size", lambda d: ["--max-size", "0"], ["--max-size"]),
    ("missing config file", lambda d: ["--config", str(d / "nope.json")], ["nope.json", "cannot open"]),
    ("config not JSON", lambda d: ["--config", write(d, "c.json", "{oops")], ["c.json", "not valid JSON"]),
    ("unknown config key", lambda d: ["--config", write(d, "c.json", {"traffic": {"mixx": {}}})],
     ["c.json", "traffic.mixx", "not known"]),
    ("config out of range", lambda d: ["--config", write(d, "c.json", {"traffic": {"notify_pct": 101}})],
     ["c.json", "traffic.notify_pct", "out of range"]),
    ("config wrong type", lambda d: ["--config", write(d, "c.json", {"responder": {"latency": 5}})],
     ["c.json", "responder.latency"]),
    ("scenario bad format", lambda d: ["--scenario", write(d, "s.json", {"format": "x", "events": []})],
     ["s.json", "format"]),
    ("scenario unknown op", lambda d: ["--scenario", write(d, "s.json", scenario([{"at": 0, "op": "jump"}]))],
     ["s.json", "event #0", "op", "jump"]),
    ("scenario unknown field", lambda d: ["--scenario", write(d, "s.json", scenario(
        [GOOD_EVENT, dict(GOOD_EVENT, at=5, colour="red")]))], ["s.json", "event #1", "colour"]),
    ("scenario at decreasing", lambda d: ["--scenario", write(d, "s.json", scenario(
        [dict(GOOD_EVENT, at=10), dict(GOOD_EVENT, at=3)]))], ["s.json", "event #1", "'at'", "decrease"]),
    ("scenario out of range", lambda d: ["--scenario", write(d, "s.json", scenario(
        [dict(GOOD_EVENT, page=16)]))], ["s.json", "event #0", "'page'", "out of range"]),
    ("scenario bad kind", lambda d: ["--scenario", write(d, "s.json", scenario(
        [dict(GOOD_EVENT, kind="8x")]))], ["s.json", "event #0", "'kind'"]),
    ("scenario bad hex", lambda d: ["--scenario", write(d, "s.json", scenario(
        [{"at": 0, "op": "write", "addr": "0xZZ", "size": 8, "data": ["0x1"]}]))],
     ["s.json", "event #0", "'addr'"]),
    ("scenario missing field", lambda d: ["--scenario", write(d, "s.json", scenario(
        [{"at": 0, "op": "ack", "tid": 3}]))], ["s.json", "event #0", "'seq'", "required"]),
    ("scenario bad size", lambda d: ["--scenario", write(d, "s.json", scenario(
        [{"at": 0, "op": "write", "addr": "0x0", "size": 12, "data": ["0x1"]}]))],
     ["s.json", "event #0", "'size'"]),
    ("scenario payload too long", lambda d: ["--scenario", write(d, "s.json", scenario(
        [dict(GOOD_EVENT, kind="inline", payload="00" * 33)]))], ["s.json", "event #0", "'payload'"]),
    ("unknown network key", lambda d: ["--config", write(d, "c.json", {"nodes": 2, "network": {"loss_pct": 1}})],
     ["c.json", "network.loss_pct", "not known"]),
    ("network pct out of range", lambda d: ["--config", write(d, "c.json", {"network": {"drop_pct": 150}})],
     ["c.json", "network.drop_pct", "out of range"]),
    ("memory latency zero", lambda d: ["--config", write(d, "c.json", {"memory": {"read_latency": [0, 4]}})],
     ["c.json", "memory"]),
    ("unknown retx key", lambda d: ["--config", write(d, "c.json", {"retx": {"timeout_cycles": 5}})],
     ["c.json", "retx.timeout_cycles", "not known"]),
    ("responder storm_len min > max", lambda d: ["--config", write(d, "c.json",
        {"responder": {"storm_len": [5, 2]}})], ["c.json", "responder.storm_len"]),
    ("responder lose_pct out of range", lambda d: ["--config", write(d, "c.json",
        {"responder": {"lose_pct": 101}})], ["c.json", "responder.lose_pct", "out of range"]),
    ("read_pct out of range", lambda d: ["--config", write(d, "c.json", {"traffic": {"read_pct": 101}})],
     ["c.json", "traffic.read_pct", "out of range"]),
    ("read_pct wrong type", lambda d: ["--config", write(d, "c.json", {"traffic": {"read_pct": "10"}})],
     ["c.json", "traffic.read_pct", "non-negative integer"]),
    ("scenario bad read flag", lambda d: ["--scenario", write(d, "s.json", scenario(
        [GOOD_EVENT, dict(GOOD_EVENT, at=5, channel=2, read="yes")]))],
     ["s.json", "event #1", "(descriptor)", "field 'read'", "true/false"]),
    ("scenario bad net kind", lambda d: ["--scenario", write(d, "s.json", scenario(
        [{"at": 0, "op": "net", "action": "drop", "kind": "rread"}], config={"nodes": 2}))],
     ["s.json", "event #0", "field 'kind'", "rreq"]),
    ("too many nodes", lambda d: ["--nodes", "65"], ["--nodes"]),
    ("shrink without scenario", lambda d: ["--shrink", str(d / "o.json")], ["--shrink", "--scenario"]),
]


def write(d, name, content):
    p = Path(d) / name
    p.write_text(content if isinstance(content, str) else json.dumps(content))
    return str(p)


def main():
    failures = 0
    with tempfile.TemporaryDirectory() as d:
        for name, args, needles in CASES:
            p = subprocess.run([SIM] + args(Path(d)), cwd=ROOT, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, timeout=60)
            missing = [n for n in needles if n not in p.stdout]
            if p.returncode != 2 or missing or "PASS" in p.stdout:
                print(f"FAIL {name}: exit {p.returncode}, missing {missing} in:\n{p.stdout}")
                failures += 1
            else:
                print(f"ok   {name}: {p.stdout.strip().splitlines()[-1]}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
