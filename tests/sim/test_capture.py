#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Hardware-capture import: `ni_sim --capture` writes a logic-analyzer style CSV of the top-level
ports; scripts/csv2scenario.py turns it into a scenario whose replay gives the same --log,
byte for byte. The importer must not depend on the exact export layout: the same capture
without its radix row, with shuffled columns, decimal radixes, upper-case names without the
_i/_o suffix and extra columns converts to the same scenario. Bad captures are rejected with
the file and column named."""
import csv
import filecmp
import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SIM = str(ROOT / "build" / "ni_sim")
CONV = [sys.executable, str(ROOT / "scripts" / "csv2scenario.py")]


def run(argv):
    p = subprocess.run(argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return p.returncode, p.stdout


def reformat(src, dst, rnd):
    rows = list(csv.reader(open(src)))
    header, radix, data = rows[0], rows[1], rows[2:]
    n = len(header)
    perm = [0] + rnd.sample(range(1, n), n - 1)
    new_header, new_radix = [], []
    for i in perm:
        h = header[i]
        if i and rnd.random() < 0.5:
            base, _, rng = h.partition("[")
            if base.endswith(("_i", "_o")):
                base = base[:-2]
            h = base.upper() + ("[" + rng if rng else "")
        new_header.append(h)
        new_radix.append(radix[i])
    # decimal for a few buses
    dec = {j for j, i in enumerate(perm) if i and radix[i] == "hex" and rnd.random() < 0.4}
    out = [new_header + ["probe_unrelated[3:0]"], ["Radix"] + ["dec" if j in dec else new_radix[j]
                                                             for j in range(1, n)] + ["hex"]]
    for r in data:
        vals = [r[i] for i in perm]
        for j in dec:
            vals[j] = str(int(vals[j], 16))
        out.append(vals + ["a"])
    with open(dst, "w", newline="") as f:
        csv.writer(f).writerows(out)


def main():
    failures = 0
    with tempfile.TemporaryDirectory() as d:
        d = Path(d)
        for seed, cfg in [(21, "sim/configs/heavy_reorder.json"), (22, "sim/configs/heavy_illegal.json")]:
            cap, log1, log2, sc, sc2 = (d / f"{seed}.{x}" for x in ("csv", "1.jsonl", "2.jsonl", "json", "b.json"))
            code, out = run([SIM, "--quiet", "--seed", str(seed), "--transfers", "300", "--config", cfg,
                             "--capture", str(cap), "--log", str(log1)])
            if code:
                print(f"FAIL seed {seed}: capture run failed\n{out}")
                failures += 1
                continue
            code, out = run(CONV + [str(cap), str(sc)])
            code2, out2 = run([SIM, "--quiet", "--scenario", str(sc), "--log", str(log2)])
            if code or code2 or not filecmp.cmp(log1, log2, shallow=False):
                print(f"FAIL seed {seed}: imported capture does not replay identically\n{out}\n{out2}")
                failures += 1
                continue
            print(f"ok   seed {seed}: {out.strip()}; replay log identical")
            # the same capture in other export layouts
            rows = list(csv.reader(open(cap)))
            variants = {"no radix row": [rows[0]] + rows[2:]}
            for name, rws in variants.items():
                p = d / "v.csv"
                with open(p, "w", newline="") as f:
                    csv.writer(f).writerows(rws)
                run(CONV + [str(p), str(sc2)])
                same = json.load(open(sc))["events"] == json.load(open(sc2))["events"]
                print(("ok   " if same else "FAIL ") + f"seed {seed}: {name}")
                failures += 0 if same else 1
            rnd = random.Random(seed)
            p = d / "v.csv"
            reformat(cap, p, rnd)
            code, out = run(CONV + [str(p), str(sc2)])
            same = code == 0 and json.load(open(sc))["events"] == json.load(open(sc2))["events"]
            print(("ok   " if same else "FAIL ") + f"seed {seed}: shuffled columns, decimal radixes, "
                  f"renamed signals, extra column" + ("" if same else f"\n{out}"))
            failures += 0 if same else 1
        # bad captures
        bad = d / "bad.csv"
        bad.write_text("Sample,s_axi_awvalid_i\n0,1\n")
        code, out = run(CONV + [str(bad), str(d / "o.json")])
        ok = code == 2 and "bad.csv" in out and "missing column" in out and "s_axi_wdata_i" in out
        print(("ok   " if ok else "FAIL ") + "missing columns rejected: " + out.strip())
        failures += 0 if ok else 1
        rows = list(csv.reader(open(d / "21.csv")))
        rows[5][3] = "2x"
        with open(bad, "w", newline="") as f:
            csv.writer(f).writerows(rows)
        code, out = run(CONV + [str(bad), str(d / "o.json")])
        ok = code == 2 and "line 6" in out and rows[0][3] in out
        print(("ok   " if ok else "FAIL ") + "bad value rejected: " + out.strip())
        failures += 0 if ok else 1

        # the full NI: a capture of node 1 of a 2-node run replays open-loop (its CPU port
        # and every packet that entered it), with every checker of the node passing. A
        # scenario's write carries its beats, not their cycles (ICD 9: issued as soon as its
        # port is free), so the capture's CPU leaves no random idle cycle between beats or
        # before B and R (regress_ni's `axi` knobs set to 0): a W beat the captured CPU held
        # back a cycle would go a cycle earlier in the replay, and the responses that entered
        # the node at their captured cycles would then meet other TIDs and seqs.
        cfg = json.load(open(ROOT / "sim" / "configs" / "regress_ni.json"))
        cfg["axi"] = {k: 0 for k in ("w_gap_pct", "bready_low_pct", "rready_low_pct")}
        cfg_path = d / "regress_ni_no_gaps.json"
        cfg_path.write_text(json.dumps(cfg))
        cap = d / "node1.csv"
        code, out = run([SIM, "--quiet", "--nodes", "2", "--config", str(cfg_path),
                         "--seed", "3", "--transfers", "40", "--max-size", "20000",
                         "--capture", str(cap), "--capture-node", "1", "--report", str(d / "r1.json")])
        sc = d / "node1.json"
        code2, out2 = run(CONV + [str(cap), str(sc), "--node", "1", "--nodes", "2"])
        ok = code == 0 and code2 == 0
        if ok:
            s = json.load(open(sc))
            pk = [e for e in s["events"] if e["op"] == "packet"]
            ok = (s["config"] == {"nodes": 2, "network": {"drop_pct": 100}} and pk and
                  all(e["node"] == 1 for e in s["events"]) and
                  {e["port"] for e in pk} == {"req_rx", "rsp_rx"})
        code3, out3 = run([SIM, "--quiet", "--scenario", str(sc), "--report", str(d / "r2.json")])
        if ok and code3 == 0:
            r1, r2 = json.load(open(d / "r1.json")), json.load(open(d / "r2.json"))
            n1 = r1["per_node"][1]
            n2 = r2["per_node"][1]
            ok = (n2["completed"] == n1["completed"] and n2["transfers"] == n1["transfers"] and
                  n2["counters"]["packets_received"] == n1["counters"]["packets_received"] and
                  n2["notifications"] == n1["notifications"])
        else:
            ok = False
        print(("ok   " if ok else "FAIL ") + "ni_node capture of node 1 -> packet events -> open-loop "
              "replay: same transfers completed, packets received and notifications"
              + ("" if ok else f"\n{out}{out2}{out3}"))
        failures += 0 if ok else 1
        bad = d / "badnode.csv"
        rows = list(csv.reader(open(cap)))
        i = rows[0].index("rsp_rx_data_i[511:0]")
        rows = [r[:i] + r[i + 1:] for r in rows]
        with open(bad, "w", newline="") as f:
            csv.writer(f).writerows(rows)
        code, out = run(CONV + [str(bad), str(d / "o.json"), "--node", "1"])
        ok = code == 2 and "missing column" in out and "rsp_rx_data_i" in out
        print(("ok   " if ok else "FAIL ") + "ni_node capture without rsp_rx_data rejected: " + out.strip())
        failures += 0 if ok else 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
