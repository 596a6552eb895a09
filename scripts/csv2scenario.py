#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Turn a CSV capture of the QoS engine's, or one ni_node's, top-level ports into a scenario.

The CSV is what a logic analyzer exports (and what `ni_sim --capture` writes):
  * a header row of signal names; buses may carry their range ("s_axi_awaddr_i[31:0]");
    names are the qos_engine port names, with or without the _i/_o suffix, any case;
    a first column named Sample/Time/"Sample in Buffer" is the sample index; unknown columns
    are ignored;
  * optionally a radix row ("Radix,bin,hex,..." or Vivado ILA's "Radix - HEX,BINARY,...");
    per column: hex, bin/binary, dec/unsigned, oct (default: bin for 1-bit, hex otherwise);
  * one row per sampled clock, sampled just before the rising edge (a handshake is
    valid && ready in one row). Values x/z read as 0.

Reconstructed from the handshakes: AXI writes (AW + its W beats, in AXI order), AXI reads,
responses (rsp_valid && rsp_ready), and stalls (runs of blk_ready_i / pkt_ready_i low). Each
event's "at" is the cycle its valid first rose. Cycle 0 is the first row with rst_ni high
(when an rst_ni column exists), else the first data row.

Required columns: s_axi_aw{valid,ready,addr,len,size,burst}, s_axi_w{valid,ready,data,strb,last},
s_axi_ar{valid,ready,addr,len,size,burst}, rsp_valid_i, rsp_ready_o, rsp_i (or rsp_tid/rsp_seq/
rsp_nack), blk_ready_i, pkt_ready_i. Optional: s_axi_awid/arid (default 0), rst_ni.

A capture of one ni_node (ICD 10; `ni_sim --nodes N --capture FILE --capture-node K` writes
one) has network columns instead of the engine's rsp/blk/pkt ones: req_rx_{valid,ready,last,
data}_i/o and rsp_rx_{valid,ready,data}_i/o (required), the tx streams (ignored). Every packet
that entered the node (a handshake per beat, up to `last`) becomes a "packet" event into its
req_rx or rsp_rx, the CPU port's transactions write/read events, all for node --node K, and
the scenario's config runs --nodes N (default K+1) open-loop: "network": {"drop_pct": 100}, so
what the node sends leaves the simulation and only the captured traffic enters it.

Usage: csv2scenario.py CAPTURE.csv OUT.json [--description TEXT] [--node K] [--nodes N]
"""
import argparse
import csv
import json
import re
import sys

RADIXES = {"hex": 16, "h": 16, "bin": 2, "binary": 2, "b": 2, "dec": 10, "unsigned": 10,
           "u": 10, "d": 10, "oct": 8, "octal": 8}
SAMPLE_COLS = {"sample", "time", "sample in buffer", "sample in window", "cycle", "#"}
REQUIRED = ["s_axi_awvalid_i", "s_axi_awready_o", "s_axi_awaddr_i", "s_axi_awlen_i", "s_axi_awsize_i",
            "s_axi_awburst_i", "s_axi_wvalid_i", "s_axi_wready_o", "s_axi_wdata_i", "s_axi_wstrb_i",
            "s_axi_wlast_i", "s_axi_arvalid_i", "s_axi_arready_o", "s_axi_araddr_i", "s_axi_arlen_i",
            "s_axi_arsize_i", "s_axi_arburst_i", "rsp_valid_i", "rsp_ready_o", "blk_ready_i", "pkt_ready_i"]
NET = ["req_rx_valid_i", "req_rx_ready_o", "req_rx_last_i", "req_rx_data_i", "rsp_rx_valid_i",
       "rsp_rx_ready_o", "rsp_rx_data_i"]
REQUIRED_NODE = REQUIRED[:17] + NET
KNOWN = REQUIRED + NET + ["s_axi_awid_i", "s_axi_arid_i", "rst_ni", "rsp_i", "rsp_tid", "rsp_seq",
                          "rsp_nack"]


class CaptureError(Exception):
    pass


def canonical(name):
    """'S_AXI_AWADDR[31:0]' -> 's_axi_awaddr_i' (port name with its suffix)."""
    base = re.sub(r"\[.*\]$", "", name.strip()).strip().lower()
    base = base.split("/")[-1].split(".")[-1]  # hierarchical names from ILA exports
    if base in KNOWN:
        return base
    for k in KNOWN:
        if k.rsplit("_", 1)[0] == base and k.endswith(("_i", "_o")):
            return k
    return base


def parse_value(text, radix, path, row, col):
    t = text.strip().lower().replace("_", "")
    if t in ("", "x", "z") or set(t) <= {"x", "z"}:
        return 0
    t = t.replace("x", "0").replace("z", "0") if not t.startswith("0x") else t
    try:
        if t.startswith("0x"):
            return int(t[2:], 16)
        if t.startswith("'h"):
            return int(t[2:], 16)
        return int(t, radix)
    except ValueError:
        raise CaptureError(f"{path}: line {row}: column '{col}': cannot read '{text}' as base {radix}")


def load(path):
    with open(path, newline="") as f:
        rows = [r for r in csv.reader(f) if r and any(c.strip() for c in r)]
    if len(rows) < 2:
        raise CaptureError(f"{path}: needs a header row and data rows")
    header = rows[0]
    cols = [canonical(h) for h in header]
    widths = []
    for h in header:
        m = re.search(r"\[(\d+):(\d+)\]", h)
        widths.append(abs(int(m.group(1)) - int(m.group(2))) + 1 if m else 1)
    radix = [2 if w == 1 else 16 for w in widths]
    data = rows[1:]
    first_line = 2  # file line of data[0]
    first = data[0][0].strip().lower()
    if first.startswith("radix") or all(c.strip().lower() in RADIXES for c in data[0][1:] if c.strip()):
        rr = data[0]
        if first.startswith("radix - "):  # Vivado ILA: the first cell holds the first radix
            rr = [first[len("radix - "):]] + rr[1:]
            start = 0
        else:
            start = 1
        for i in range(start, min(len(rr), len(cols))):
            r = rr[i].strip().lower()
            if r:
                if r not in RADIXES:
                    raise CaptureError(f"{path}: radix row: column '{header[i]}': unknown radix '{rr[i]}'")
                radix[i] = RADIXES[r]
        data = data[1:]
        first_line = 3
    node_mode = "req_rx_valid_i" in cols
    missing = [c for c in (REQUIRED_NODE if node_mode else REQUIRED) if c not in cols]
    if not node_mode and "rsp_i" not in cols and \
            not all(c in cols for c in ("rsp_tid", "rsp_seq", "rsp_nack")):
        missing.append("rsp_i (or rsp_tid, rsp_seq, rsp_nack)")
    if missing:
        raise CaptureError(f"{path}: missing column(s): {', '.join(missing)}")
    idx = {c: i for i, c in enumerate(cols) if c in KNOWN}
    out = []
    for n, r in enumerate(data):
        if len(r) < len(cols):
            raise CaptureError(f"{path}: line {n + first_line}: {len(r)} values for {len(cols)} columns")
        out.append({c: parse_value(r[i], radix[i], path, n + first_line, header[i]) for c, i in idx.items()})
    return out


def convert(rows, description, node=0, nodes=None):
    if "rst_ni" in rows[0]:
        start = next((i for i, r in enumerate(rows) if r["rst_ni"]), None)
        if start is None:
            raise CaptureError("rst_ni never goes high")
        rows = rows[start:]
    events = []
    aws, beats, writes = [], [], []
    since = {}  # channel -> cycle its valid rose
    runs = {"blk": None, "pkt": None}
    node_mode = "req_rx_valid_i" in rows[0]
    pkt = {"req": None, "rsp": None}  # packet being received: [at, beats]
    for c, r in enumerate(rows):
        if node_mode:
            for net in ("req", "rsp"):
                v, rdy = r[f"{net}_rx_valid_i"], r[f"{net}_rx_ready_o"]
                if v and f"{net}_rx" not in since:
                    since[f"{net}_rx"] = c
                if v and rdy:
                    if pkt[net] is None:
                        pkt[net] = [since.get(f"{net}_rx", c), []]
                    pkt[net][1].append("0x%0128x" % r[f"{net}_rx_data_i"])
                    since.pop(f"{net}_rx", None)
                    if net == "rsp" or r["req_rx_last_i"]:
                        events.append({"at": pkt[net][0], "op": "packet", "node": node,
                                       "port": f"{net}_rx", "beats": pkt[net][1]})
                        pkt[net] = None
                elif not v:
                    since.pop(f"{net}_rx", None)
        if r["s_axi_awvalid_i"] and "aw" not in since:
            since["aw"] = c
        if r["s_axi_awvalid_i"] and r["s_axi_awready_o"]:
            aws.append({"at": since.pop("aw", c), "addr": r["s_axi_awaddr_i"], "len": r["s_axi_awlen_i"],
                        "size": r["s_axi_awsize_i"], "burst": r["s_axi_awburst_i"],
                        "id": r.get("s_axi_awid_i", 0)})
        elif not r["s_axi_awvalid_i"]:
            since.pop("aw", None)
        if r["s_axi_wvalid_i"] and r["s_axi_wready_o"]:
            d = r["s_axi_wdata_i"]
            beats.append({"lo": d & (2 ** 64 - 1), "hi": d >> 64, "strb": r["s_axi_wstrb_i"],
                          "last": bool(r["s_axi_wlast_i"])})
        if r["s_axi_arvalid_i"] and "ar" not in since:
            since["ar"] = c
        if r["s_axi_arvalid_i"] and r["s_axi_arready_o"]:
            ev = {"at": since.pop("ar", c), "op": "read", "addr": hex(r["s_axi_araddr_i"])}
            if r["s_axi_arlen_i"]:
                ev["len"] = r["s_axi_arlen_i"]
            if r["s_axi_arsize_i"] != 4:
                ev["size"] = 1 << r["s_axi_arsize_i"]
            if r["s_axi_arburst_i"] != 1:
                ev["burst"] = ["FIXED", "INCR", "WRAP", "RESERVED"][r["s_axi_arburst_i"]]
            if r.get("s_axi_arid_i", 0):
                ev["id"] = r["s_axi_arid_i"]
            events.append(ev)
        elif not r["s_axi_arvalid_i"]:
            since.pop("ar", None)
        if node_mode:
            continue
        if r["rsp_valid_i"] and "rsp" not in since:
            since["rsp"] = c
        if r["rsp_valid_i"] and r["rsp_ready_o"]:
            if "rsp_i" in r:
                v = r["rsp_i"]
                tid, seq, nack = (v >> 1) & 0x3FF, (v >> 11) & 0x3FFF, v & 1
            else:
                tid, seq, nack = r["rsp_tid"], r["rsp_seq"], r["rsp_nack"]
            events.append({"at": since.pop("rsp", c), "op": "ack", "tid": tid, "seq": seq, "nack": bool(nack)})
        elif not r["rsp_valid_i"]:
            since.pop("rsp", None)
        for port in ("blk", "pkt"):
            low = not r[f"{port}_ready_i"]
            if low and runs[port] is None:
                runs[port] = c
            if not low and runs[port] is not None:
                events.append({"at": runs[port], "op": "stall", "port": port, "cycles": c - runs[port]})
                runs[port] = None
    for port in ("blk", "pkt"):
        if runs[port] is not None:
            events.append({"at": runs[port], "op": "stall", "port": port, "cycles": len(rows) - runs[port]})
    # W beats belong to the write addresses in order (AXI write data ordering).
    b = 0
    for aw in aws:
        n = aw["len"] + 1
        if b + n > len(beats):
            break  # capture ended inside this write
        bs = beats[b:b + n]
        b += n
        ev = {"at": aw["at"], "op": "write", "addr": hex(aw["addr"]), "size": 1 << aw["size"],
              "beats": [{"lo": hex(x["lo"]), "hi": hex(x["hi"]), "strb": hex(x["strb"]), "last": x["last"]}
                        for x in bs]}
        if aw["burst"] != 1:
            ev["burst"] = ["FIXED", "INCR", "WRAP", "RESERVED"][aw["burst"]]
        if aw["id"]:
            ev["id"] = aw["id"]
        events.append(ev)
    order = {"write": 0, "read": 1, "ack": 2, "stall": 3, "packet": 4}
    if node_mode:
        for e in events:
            e["node"] = node
    events.sort(key=lambda e: (e["at"], order[e["op"]]))
    config = {"responder": {"mode": "script"}}
    if node_mode:
        config = {"nodes": nodes if nodes else node + 1, "network": {"drop_pct": 100}}
    return {"format": "ni-scenario/1", "description": description, "config": config,
            "events": events}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("capture")
    ap.add_argument("out")
    ap.add_argument("--description", default=None)
    ap.add_argument("--node", type=int, default=0, help="ni_node captures: the node it was (default 0)")
    ap.add_argument("--nodes", type=int, default=None,
                    help="ni_node captures: nodes of the replay (default node+1)")
    a = ap.parse_args()
    if a.nodes is not None and a.node >= a.nodes:
        print(f"csv2scenario: error: --node {a.node} does not exist with --nodes {a.nodes}", file=sys.stderr)
        return 2
    try:
        rows = load(a.capture)
        sc = convert(rows, a.description or f"imported from the capture {a.capture}", a.node, a.nodes)
    except (CaptureError, OSError) as e:
        print(f"csv2scenario: error: {e}", file=sys.stderr)
        return 2
    with open(a.out, "w") as f:
        f.write('{\n  "format": "ni-scenario/1",\n  "description": ' + json.dumps(sc["description"]) +
                ',\n  "config": ' + json.dumps(sc["config"]) + ',\n  "events": [\n')
        f.write(",\n".join("    " + json.dumps(e) for e in sc["events"]))
        f.write("\n  ]\n}\n")
    print(f"csv2scenario: {len(rows)} samples -> {len(sc['events'])} events in {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
