#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Mutation testing of the verification environment: apply deliberate RTL bugs one at a time
(in a scratch copy of rtl/ under build/mutants/), rebuild build/ni_sim against each, and run
the default simulation checks of `make test` (random runs with the default and heavy configs,
and the directed scenarios in vectors/). Every mutant must be killed (some check fails).

Usage: mutants.py [-k NAME] [--list]
Not part of CI (each mutant needs its own verilated model: about a minute to build).
Exit status 0 only when every mutant was killed.
"""
import argparse
import glob
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "build" / "mutants"

# (name, file, original text, mutated text, what the bug is)
MUTANTS = [
    ("last-block-len", "rtl/common/ni_pkg.sv",
     "return dst_lo + size_lo - BlockW'(1);", "return dst_lo + size_lo;",
     "off-by-one in the last block's length"),
    ("tid-wrap-1x", "rtl/qos/transfer_segmenter.sv",
     "blk_tid = {fid_cur, k[1:0]};", "blk_tid = {fid_cur, k[2:1]};",
     "wrong TID wrap inside a unipath flow"),
    ("tid-wrap-4x", "rtl/qos/transfer_segmenter.sv",
     "blk_tid = {fid_cur[FidW-1:2], k[1:0], k[3:2]};", "blk_tid = {fid_cur[FidW-1:2], k[3:2], k[1:0]};",
     "multipath TIDs in the wrong (non frog-leap) order"),
    ("skip-reenqueue", "rtl/qos/transfer_segmenter.sv",
     "(32'(inflight) + 1 < MaxOutstanding);", "(32'(inflight) + 2 < MaxOutstanding);",
     "segmenter skips the outstanding-block re-enqueue"),
    ("outstanding-limit", "rtl/qos/transfer_segmenter.sv",
     "(32'(inflight) + 1 < MaxOutstanding);", "(32'(inflight) < MaxOutstanding);",
     "one more block in flight than MaxOutstanding"),
    ("priority-swap", "rtl/qos/transfer_segmenter.sv",
     "for (int q = NumQueues - 1; q >= 0; q--) begin", "for (int q = 0; q < NumQueues; q++) begin",
     "lowest-priority eligible queue served first"),
    ("missed-fid-return", "rtl/qos/msg_handler.sv",
     "assign fid4_push_o   = finish_o && (fin_kind == Kind4x);",
     "assign fid4_push_o   = finish_o && (fin_kind == Kind4x) && !m2_fin_q;",
     "4xFID base not returned when the segmenter finishes the transfer"),
    ("lost-pkt-stall", "rtl/qos/transfer_segmenter.sv",
     "assign no_other_stall = !(need_pkt && pkt_full_i) &&", "assign no_other_stall = 1'b1 &&",
     "segmenter ignores a full packet queue"),
    ("lost-blk-stall", "rtl/qos/transfer_segmenter.sv",
     "assign blk_slot_ok    = !s3_valid_q || blk_ready_i;", "assign blk_slot_ok    = 1'b1;",
     "segmenter ignores back-pressure on the blk port"),
    ("stale-ack-accepted", "rtl/qos/msg_handler.sv",
     "assign m1_accept      = m1_rsp_q && m1_valid_entry && (m1_entry.seq == m1_r_q.seq);",
     "assign m1_accept      = m1_rsp_q && m1_valid_entry;",
     "ACK with a stale seq accepted"),
    ("wake-ctrl-early", "rtl/qos/msg_handler.sv",
     "else if (resolved_new + cnt_t'(1) == m2_e_q.target) wake_ctrl = 1'b1;",
     "else if (resolved_new + cnt_t'(2) == m2_e_q.target) wake_ctrl = 1'b1;",
     "control packet queued one ACK too early"),
    ("multi-read-clears-busy", "rtl/qos/status_regs.sv",
     "if (finished(status_q[{multi_grp, 5'(i)}])) status_d[{multi_grp, 5'(i)}] = StIdle;",
     "if (status_q[{multi_grp, 5'(i)}] != StIdle) status_d[{multi_grp, 5'(i)}] = StIdle;",
     "32-channel status read also clears BUSY channels"),
    ("dst-overflow-edge", "rtl/qos/axi_slave.sv",
     "(dst_end[48] && (dst_end[47:0] != '0)) ||", "(dst_end[48]) ||",
     "R9 rejects a transfer that ends exactly at 2^48"),
    ("interleave-unchecked", "rtl/qos/axi_slave.sv",
     "(acc_page_q[set] != beat_page || acc_ch_q[set] != beat_ch);", "(acc_page_q[set] != beat_page);",
     "a write to another channel of the same page does not count as interleaving"),
    ("crc-no-final-xor", "rtl/common/ni_pkg.sv",
     "    return ~c;\n  endfunction", "    return c;\n  endfunction",
     "CRC-32 without the final XOR"),
    ("crc-odd-length", "rtl/common/ni_pkg.sv",
     "      if (back[i]) c = r;", "      if (back[i] && i != 0) c = r;",
     "CRC-32 of a packet whose payload length is odd not taken back its last byte"),
    ("seq-on-ctrl", "rtl/qos/transfer_segmenter.sv",
     ".take_i(s2_fire && act_issue),", ".take_i(s2_fire && (act_issue || act_ctrl)),",
     "control packets consume a sequence number"),
    ("axi-starvation", "rtl/qos/qos_engine.sv",
     ".axi_starving_i  (axi_starving),", ".axi_starving_i  (1'b0),",
     "segmenter re-enqueues while the AXI slave's enqueue is starving"),
    ("tid-busy-ignored", "rtl/qos/transfer_segmenter.sv",
     "assign tid_busy = k_cm && ptt_valid_i[blk_tid] && !(ptt_clr_i && ptt_clr_tid_i == blk_tid);",
     "assign tid_busy = 1'b0;",
     "a congestion-managed TID is reused while its previous block is unacknowledged"),
    ("has-next-on-last", "rtl/qos/transfer_segmenter.sv",
     "s2_desc.has_next  = k_cm && !is_last;", "s2_desc.has_next  = k_cm;",
     "has_next set on the last block of a flow"),
]

CHECKS = [
    ["--seed", "1", "--transfers", "2000"],
    ["--seed", "3", "--transfers", "2000", "--config", "sim/configs/regress.json"],
    ["--seed", "5", "--transfers", "2000", "--config", "sim/configs/heavy_reorder.json"],
    ["--seed", "7", "--transfers", "2000", "--config", "sim/configs/heavy_stall.json"],
    ["--seed", "9", "--transfers", "2000", "--config", "sim/configs/heavy_illegal.json"],
]


def sh(argv, cwd=ROOT, log=None):
    p = subprocess.run(argv, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if log is not None:
        log.write(f"$ {' '.join(map(str, argv))}\n{p.stdout}\n")
    return p.returncode, p.stdout


def run_parallel(cmds, log, jobs=2):
    """Runs the commands `jobs` at a time; False (output in the log) if one fails."""
    ok = True
    for i in range(0, len(cmds), jobs):
        procs = [subprocess.Popen(c, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
                 for c in cmds[i:i + jobs]]
        for p in procs:
            out, _ = p.communicate()
            if p.returncode:
                log.write(out)
                ok = False
    return ok


def snapshot(log):
    """Copies sim/ and ref_model/ once and compiles the model library from that copy, so that
    every mutant binary is built from one consistent set of sources even if the tree changes
    while the (long) run goes on."""
    src = BUILD / "src"
    shutil.rmtree(src, ignore_errors=True)
    for d in ("sim", "ref_model"):
        shutil.copytree(ROOT / d, src / d)
    objs, cmds = [], []
    for cpp in sorted(glob.glob(str(src / "ref_model" / "*.cpp"))):
        o = str(src / (Path(cpp).stem + ".o"))
        objs.append(o)
        cmds.append(["g++", "-std=c++17", "-O2", f"-I{src}", f"-I{src / 'ref_model'}", "-c", cpp, "-o", o])
    if not run_parallel(cmds, log):
        return None
    lib = src / "libref_model.a"
    code, _ = sh(["ar", "rcs", str(lib)] + objs, log=log)
    return src if code == 0 else None


def build(name, file, old, new, log, srcdir):
    d = BUILD / name
    shutil.rmtree(d, ignore_errors=True)
    shutil.copytree(ROOT / "rtl", d / "rtl")
    src = (d / file).read_text()
    if src.count(old) != 1:
        raise RuntimeError(f"{name}: the text to mutate occurs {src.count(old)} times in {file}")
    (d / file).write_text(src.replace(old, new))
    rtl = sorted(glob.glob(str(d / "rtl" / "*.sv")))
    pkg = str(d / "rtl" / "ni_pkg.sv")
    rtl = [pkg] + [f for f in rtl if f != pkg]
    obj = d / "obj"
    code, _ = sh(["verilator", "--cc", "--top-module", "qos_engine", "--prefix", "Vqos_engine", "-Wno-fatal",
                  "--assert", "--trace-fst", f"-I{d / 'rtl'}", "-Mdir", str(obj)] + rtl, log=log)
    if code:
        return None
    code, _ = sh(["make", "-s", "-j2", "-C", str(obj), "-f", "Vqos_engine.mk", "-f", str(ROOT / "scripts" / "vl_runtime.mk"),
                  "Vqos_engine__ALL.a", "vl_runtime.a", "OPT_FAST=-O1", "OPT_SLOW=-O0"], log=log)
    if code:
        return None
    objs = []
    sim_srcs = sorted(glob.glob(str(srcdir / "sim" / "*.cpp")))
    for cpp in sim_srcs:
        o = d / (Path(cpp).stem + ".o")
        objs.append(str(o))
    cmds = [["g++", "-std=c++17", "-O1", "-DVM_TRACE=1", "-DVM_TRACE_FST=1", f"-I{srcdir}", f"-I{srcdir / 'ref_model'}",
             "-isystem", str(obj), "-isystem", "/usr/share/verilator/include",
             "-isystem", "/usr/share/verilator/include/vltstd", "-c", cpp, "-o", o]
            for cpp, o in zip(sim_srcs, objs)]
    if not run_parallel(cmds, log):
        return None
    binary = d / "ni_sim"
    code, _ = sh(["g++", "-o", str(binary)] + objs + [str(srcdir / "libref_model.a"),
                 str(obj / "Vqos_engine__ALL.a"), str(obj / "vl_runtime.a"), "-pthread", "-lz"], log=log)
    return binary if code == 0 else None


class Crash(Exception):
    pass


def killed_by(binary, log):
    """(check, first failure) of the first check that fails; raises Crash if the harness
    itself crashed (a DUT bug must give a failure report, never a crash)."""
    for args in CHECKS:
        code, out = sh([str(binary), "--quiet"] + args, log=log)
        if code < 0 or code > 2:
            raise Crash(f"{' '.join(args)}: exit status {code}")
        if code != 0:
            first = next((l for l in out.splitlines() if l.startswith("FAIL")), out.strip().splitlines()[-1:] or [""])
            return " ".join(args), first if isinstance(first, str) else first[0]
    for v in sorted(glob.glob(str(ROOT / "vectors" / "*.json"))):
        code, out = sh([str(binary), "--quiet", "--scenario", v], log=log)
        if code < 0 or code > 2:
            raise Crash(f"vector {Path(v).name}: exit status {code}")
        if code != 0:
            first = next((l for l in out.splitlines() if l.startswith("FAIL")), "")
            return f"vector {Path(v).name}", first
    return None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-k", action="append", default=[], help="only mutants whose name contains this")
    ap.add_argument("--list", action="store_true")
    a = ap.parse_args()
    todo = [m for m in MUTANTS if not a.k or any(k in m[0] for k in a.k)]
    if a.list:
        for m in todo:
            print(f"{m[0]:24s} {m[4]}")
        return 0
    BUILD.mkdir(parents=True, exist_ok=True)
    with open(BUILD / "snapshot.log", "w") as log:
        src = snapshot(log)
    if src is None:
        print("mutants: could not build the model library (see build/mutants/snapshot.log)", file=sys.stderr)
        return 2
    survived, broken, crashed = [], [], []
    t0 = time.monotonic()
    for name, file, old, new, what in todo:
        t = time.monotonic()
        with open(BUILD / f"{name}.log", "w") as log:
            binary = build(name, file, old, new, log, src)
            if binary is None:
                broken.append(name)
                print(f"BUILD FAILED {name:24s} (see build/mutants/{name}.log)", flush=True)
                continue
            try:
                k = killed_by(binary, log)
            except Crash as e:
                crashed.append(name)
                print(f"CRASHED  {name:24s} the harness crashed instead of reporting: {e}", flush=True)
                continue
        secs = time.monotonic() - t
        if k:
            print(f"KILLED   {name:24s} {secs:5.0f} s  by {k[0]}: {k[1][:110]}", flush=True)
        else:
            survived.append(name)
            print(f"SURVIVED {name:24s} {secs:5.0f} s  ({what})", flush=True)
    n = len(todo)
    print(f"{n - len(survived) - len(broken) - len(crashed)} of {n} mutants killed in {time.monotonic() - t0:.0f} s"
          + (f"; survived: {' '.join(survived)}" if survived else "")
          + (f"; harness crashed: {' '.join(crashed)}" if crashed else "")
          + (f"; failed to build: {' '.join(broken)}" if broken else ""))
    return 0 if not survived and not broken and not crashed else 1


if __name__ == "__main__":
    sys.exit(main())
