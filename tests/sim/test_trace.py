#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Waveforms: --trace writes an FST of a whole run; on a failure, --trace-window N reruns the
run from reset and dumps only the last N cycles before the failure. The FSTs must parse
(fst2vcd), cover the right time window, and hold the key signals, including every signal of
the GTKWave save file sim/tb/qos/qos_engine.gtkw (so the save file stays in step with the RTL)."""
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SIM = str(ROOT / "build" / "ni_sim")
KEY = ["qos_engine.s_axi_awvalid_i", "qos_engine.s_axi_wvalid_i", "qos_engine.blk_valid_o",
       "qos_engine.pkt_valid_o", "qos_engine.rsp_valid_i", "qos_engine.qos_engine.u_seg.s2_valid_q",
       "qos_engine.qos_engine.u_queues.head_q", "qos_engine.qos_engine.u_mh.m2_rsp_q",
       "qos_engine.qos_engine.u_status.status_q"]


def fst_info(path):
    p = subprocess.run(["fst2vcd", str(path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0 or "$enddefinitions" not in p.stdout:
        return None
    names, stack, times = set(), [], []
    for line in p.stdout.splitlines():
        if line.startswith("$scope"):
            stack.append(line.split()[2])
        elif line.startswith("$upscope"):
            stack.pop()
        elif line.startswith("$var"):
            f = line.split()
            names.add(".".join(stack + [f[4]]))
            if f[5].startswith("["):
                names.add(".".join(stack + [f[4]]) + f[5])
        elif line.startswith("#"):
            times.append(int(line[1:]))
    return names, times


def main():
    failures = 0

    def check(ok, what):
        nonlocal failures
        print(("ok   " if ok else "FAIL ") + what)
        failures += 0 if ok else 1

    with tempfile.TemporaryDirectory() as d:
        d = Path(d)
        # whole run
        fst = d / "run.fst"
        p = subprocess.run([SIM, "--quiet", "--seed", "4", "--transfers", "40", "--trace", str(fst)],
                           cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        info = fst_info(fst) if p.returncode == 0 else None
        check(info is not None, "--trace: whole-run FST parses with fst2vcd")
        if info:
            names, times = info
            check(all(k in names for k in KEY), "--trace: key signals present: " +
                  ", ".join(k for k in KEY if k not in names))
            check(times[0] == 0, f"--trace: starts at cycle 0 (time {times[0]})")
            gtkw = [l.strip() for l in open(ROOT / "sim" / "tb" / "qos" / "qos_engine.gtkw") if l.startswith("qos_engine.")]
            missing = [s for s in gtkw if s not in names]
            check(not missing, f"sim/tb/qos/qos_engine.gtkw: all {len(gtkw)} signals exist in the FST"
                  + (f" (missing: {missing})" if missing else ""))
        # failure -> trace window
        sc = json.load(open(ROOT / "vectors" / "notify_last_ack_first.json"))
        for e in sc["events"]:
            if e["op"] == "read" and e.get("expect") == "0x2":
                e["expect"] = "0x1"  # a wrong expectation: the run fails at this read
                break
        bad = d / "bad.json"
        bad.write_text(json.dumps(sc))
        fst = d / "fail.fst"
        p = subprocess.run([SIM, "--scenario", str(bad), "--trace-window", "100", "--trace", str(fst)],
                           cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        m = re.search(r"FAIL seed \d+ at cycle (\d+)", p.stdout)
        check(p.returncode == 1 and m is not None, "failing scenario reports its first failure")
        check("reproduce:" in p.stdout and "--trace-window" in p.stdout,
              "failure report has a reproduce command with a trace window")
        info = fst_info(fst)
        check(info is not None, "--trace-window: FST parses with fst2vcd")
        if m and info:
            fail = int(m.group(1))
            names, times = info
            lo, hi = times[0] // 10, times[-1] // 10
            check(fail - 100 <= lo <= fail - 99 and fail <= hi <= fail + 3,
                  f"--trace-window 100: FST covers cycles {lo}..{hi} around the failure at {fail}")
            check(all(k in names for k in KEY), "--trace-window: key signals present")

        # the full NI: one FST with a scope per node, and the save file ni_sim writes with it
        fst = d / "nodes.fst"
        p = subprocess.run([SIM, "--quiet", "--nodes", "3", "--seed", "2", "--transfers", "12",
                            "--max-size", "5000", "--trace", str(fst)],
                           cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        info = fst_info(fst) if p.returncode == 0 else None
        check(info is not None, "--nodes 3 --trace: FST parses with fst2vcd" + ("" if info else p.stdout))
        if info:
            names, times = info
            scopes = [f"node{i}.ni_node.u_send.req_tx_valid_o" for i in range(3)] + \
                     [f"node{i}.ni_node.u_recv.req_rx_valid_i" for i in range(3)]
            check(all(s in names for s in scopes), "--nodes 3: scopes node0..node2 with the send and receive units")
            gtkw_path = d / "nodes.gtkw"
            check(gtkw_path.exists(), "--nodes 3: a GTKWave save file next to the FST")
            if gtkw_path.exists():
                lines = open(gtkw_path).read().splitlines()
                sigs = [l.strip() for l in lines if l.startswith("node")]
                groups = [l[1:] for l in lines if l.startswith("-")]
                missing = [s for s in sigs if s not in names]
                check(sigs and not missing, f"nodes.gtkw: all {len(sigs)} signals exist in the FST"
                      + (f" (missing: {missing[:5]})" if missing else ""))
                check(all(f"node{i} {g}" in groups for i in range(3)
                          for g in ("send unit", "receive unit", "links")),
                      "nodes.gtkw: per-node groups for the send unit, receive unit and links")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
