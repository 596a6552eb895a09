#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes the directed RDMA Read scenarios (ICD 16) of vectors/: ni_read_*.json.

Each scenario runs the full NI (ni_sim --scenario) and passes only when every check of the
golden models and the end-to-end scoreboard holds, every read turns DONE, and the counters and
status registers read in it hold the values given here (from the ICD's rules, not from a run):

  ni_read_edges        1 byte; across a 4 KiB line at either end; 64 KiB + 1 (two blocks);
                       loopback; each memory kind; a notifying two-block read
  ni_read_no_channel   65 requests for one page's 64 read channels: one dropped (27), its
                       issuer's timeout re-issues it, then it is served
  ni_read_reissue      a network duplicate (same seq) of a request being served is matched
                       and dropped (28); a re-issue (newer seq) of it is matched (28) and
                       answered with the newer seq
  ni_read_burst        three issuers' requests reach one responder back to back while its CPU
                       writes descriptors: requests wait behind stage A in its skid, served
                       transfers wait in both enqueue entries; all served, every read DONE
  ni_read_error_nack   the responder's transfer ends ERROR (its data corrupted twice, MaxRetries
                       1): NACK to the issuer, which re-issues the request; then DONE

Run: python3 vectors/gen_read_vectors.py (rewrites the files).
"""
import json
import pathlib

HERE = pathlib.Path(__file__).resolve().parent
HI = 1 << 47  # the random CPU's destinations; sources below


def hx(v):
    return f"0x{v:x}"


def stat_addr(idx):
    return 3 << 16 | idx << 4


def status_addr(page, ch):
    return 1 << 16 | page << 12 | ch << 5


class Sc:
    def __init__(self, name, description, config):
        self.name, self.description, self.config, self.events = name, description, config, []

    def ev(self, **kw):
        self.events.append(kw)

    def read_desc(self, at, node, page, ch, src_node, src, dst, size, kind="tid", notify=False,
                  notify_addr=0, notify_tag=0, prio=0):
        e = dict(at=at, node=node, op="descriptor", page=page, channel=ch, kind=kind, read=True,
                 src=hx(src_node << 48 | src), dst=hx(dst), size=size, prio=prio,
                 expect_resp="OKAY")
        if notify:
            e.update(notify=True, notify_addr=hx(notify_addr), notify_tag=hx(notify_tag))
        self.ev(**e)

    def expect_stat(self, at, node, idx, value):
        self.ev(at=at, node=node, op="read", addr=hx(stat_addr(idx)), expect=hx(value),
                expect_resp="OKAY")

    def expect_status(self, at, node, page, ch, code):
        self.ev(at=at, node=node, op="read", addr=hx(status_addr(page, ch)), expect=hx(code),
                expect_resp="OKAY")

    def save(self):
        self.events.sort(key=lambda e: e["at"])
        out = ['{', '  "format": "ni-scenario/1",',
               '  "description": ' + json.dumps(self.description) + ',',
               '  "config": ' + json.dumps(self.config) + ',', '  "events": [']
        out += ["    " + json.dumps(e) + ("," if i + 1 < len(self.events) else "")
                for i, e in enumerate(self.events)]
        out += ["  ]", "}", ""]
        (HERE / f"{self.name}.json").write_text("\n".join(out))


DONE = 2


def edges():
    s = Sc("ni_read_edges",
           "RDMA Read (ICD 16), 2 nodes: node 0 reads node 1's memory (and its own): 1 byte, "
           "across a 4 KiB line at the source's start and at the destination's end, 64 KiB + 1 "
           "bytes (two blocks), a loopback read, kinds 1x and 4x, and a notifying two-block read. "
           "Each turns DONE; node 1 served one request per block (counter 29), none dropped.",
           {"nodes": 2})
    reads = [  # (ch, src_node, src, dst, size, kind, notify)
        (0, 1, 0x1000, HI + 0x100, 1, "tid", False),
        (1, 1, 0x1FF0, HI + 0x20000, 64, "tid", False),            # source across 4 KiB
        (2, 1, 0x3000, HI + 0x40FE0, 64, "tid", False),            # destination across 4 KiB
        (3, 1, 0x10000, HI + 0x60000, 65537, "tid", False),        # two blocks
        (4, 0, 0x5000, HI + 0x90000, 3000, "tid", False),          # loopback
        (5, 1, 0x7000, HI + 0xA0000, 5000, "1x", False),
        (6, 1, 0x9000, HI + 0xB0000, 9000, "4x", False),
        (8, 1, 0x20000, HI + 0xC8000, 70000, "tid", True),         # notifying, two blocks
    ]
    at = 0
    blocks = {0: 0, 1: 0}
    for ch, sn, src, dst, size, kind, notify in reads:
        s.read_desc(at, 0, 0, ch, sn, src, dst, size, kind=kind, notify=notify,
                    notify_addr=HI + 0xF0000, notify_tag=0xC0FFEE)
        first = 0x10000 - (dst % 0x10000)
        blocks[sn] += 1 if size <= first else 1 + -(-(size - first) // 0x10000)
        at += 40
    end = 60000
    for ch, *_ in reads:
        s.expect_status(end, 0, 0, ch, DONE)
    s.expect_stat(end, 1, 29, blocks[1])  # served
    s.expect_stat(end, 1, 27, 0)
    s.expect_stat(end, 1, 28, 0)
    s.expect_stat(end, 0, 29, blocks[0])  # the loopback read's block
    s.expect_stat(end, 0, 25, 1)          # the notification, written at the issuer
    s.save()


def no_channel():
    # 3 nodes; fixed network latency keeps node 1's read channels busy.
    s = Sc("ni_read_no_channel",
           "RDMA Read (ICD 16), 3 nodes, network latency 1500: node 0 issues 64 one-block reads "
           "of node 1 on page 0, filling node 1's 64 read channels of page 0; node 2's read on "
           "page 0 arrives while they are busy and is dropped (node 1 counter 27 = 1, no "
           "response); node 2's timeout re-issues it and it is served: every read DONE, node 1 "
           "served 65 requests (29).",
           {"nodes": 3, "network": {"latency": [1500, 1500]},
            "retx": {"timeout": 20000, "max_retries": 3, "rx_idle": 150000}})
    for ch in range(64):
        s.read_desc(ch * 4, 0, 0, ch, 1, 0x100000 + ch * 0x1000, HI + ch * 0x1000, 256)
    s.read_desc(2000, 2, 0, 0, 1, 0x200000, HI + 0x100000, 256)
    end = 80000
    s.expect_stat(end, 1, 27, 1)
    s.expect_stat(end, 1, 29, 65)
    s.expect_stat(end, 1, 28, 0)
    s.expect_status(end, 2, 0, 0, DONE)
    s.expect_stat(end, 2, 13, 1)  # its timeout
    s.save()


def reissue():
    s = Sc("ni_read_reissue",
           "RDMA Read (ICD 16), 2 nodes, network latency 400, memory read latency 2000 (node 1 "
           "serves slowly): node 0's request is duplicated by the network, the copy (same seq) "
           "is matched to the busy read channel and dropped (node 1 counter 28); node 0's "
           "timeout (2200 cycles, node 1's off) re-issues the request while node 1 still serves "
           "it: the re-issue (newer seq) is matched (28) and answered with its seq, so the read "
           "is DONE with one transfer at node 1 (29 = 1) and one re-issue at node 0 (8, 13).",
           {"nodes": 2, "network": {"latency": [400, 400]},
            "memory": {"read_latency": [2000, 2000], "write_latency": [1, 1]},
            "retx": {"timeout": 0, "max_retries": 3, "rx_idle": 150000}})
    s.ev(at=0, node=0, op="net", action="dup", kind="rreq", **{"from": 0})
    s.ev(at=100, node=0, op="write", addr=hx(4 << 16), size=8, data=[hx(2200)],
         expect_resp="OKAY")  # node 0's retransmission timeout (control word 0)
    s.read_desc(200, 0, 0, 0, 1, 0x4000, HI + 0x1000, 128)
    end = 30000
    s.expect_status(end, 0, 0, 0, DONE)
    s.expect_stat(end, 1, 29, 1)
    s.expect_stat(end, 1, 28, 2)
    s.expect_stat(end, 1, 27, 0)
    s.expect_stat(end, 0, 8, 1)
    s.expect_stat(end, 0, 13, 1)
    s.save()


def error_nack():
    s = Sc("ni_read_error_nack",
           "RDMA Read (ICD 16), 2 nodes, MaxRetries 1: node 1's data packet for node 0's read is "
           "corrupted twice, so node 0 NACKs it twice and node 1's one-block transfer ends ERROR "
           "(counter 10 = 1); node 1 answers the read request with a NACK, node 0 re-issues the "
           "request (counter 8 = 1), node 1 serves it again (29 = 2) and the read is DONE.",
           {"nodes": 2, "retx": {"timeout": 0, "max_retries": 1, "rx_idle": 150000}})
    s.ev(at=0, node=0, op="net", action="corrupt", kind="data", **{"from": 1})
    s.ev(at=0, node=0, op="net", action="corrupt", kind="data", **{"from": 1})
    s.read_desc(0, 0, 0, 0, 1, 0x8000, HI + 0x3000, 512)
    end = 20000
    s.expect_status(end, 0, 0, 0, DONE)
    s.expect_stat(end, 1, 10, 1)
    s.expect_stat(end, 1, 29, 2)
    s.expect_stat(end, 0, 6, 1)   # the deferred NACK, accepted
    s.expect_stat(end, 0, 8, 1)   # the read request re-issued
    s.expect_stat(end, 0, 24, 2)  # node 0's NACKs of the corrupted data
    s.save()


def burst():
    s = Sc("ni_read_burst",
           "RDMA Read (ICD 16), 4 nodes, network latency 300: nodes 0, 2 and 3 each issue 16 "
           "one-block reads of node 1 on page 0 in the same cycles, so their requests reach "
           "node 1 back to back, while node 1's CPU writes 24 two-block write transfers (the "
           "Transfer Table port is taken, and their re-enqueues take the scheduling queues' "
           "grant): requests wait behind stage A in its skid and served transfers wait in both "
           "entries of the enqueue FIFO. Every read is DONE, node 1 served 48 requests (29), "
           "none dropped or matched.",
           {"nodes": 4, "network": {"latency": [300, 300]},
            "retx": {"timeout": 0, "max_retries": 3, "rx_idle": 150000}})
    for i in range(16):
        for n, base in ((0, 0x100000), (2, 0x200000), (3, 0x300000)):
            s.read_desc(i * 4, n, 0, i, 1, base + i * 0x1000, HI + 0x400000 + i * 0x1000, 64)
    # node 1's CPU starts as the first requests arrive: they leave their issuers at about cycle
    # 520 (after the ID FIFOs' initialisation) and take 300 cycles; each transfer's destination
    # crosses a 64 KiB boundary, so it is two blocks and the segmenter re-enqueues it once.
    at0 = 815
    for i in range(24):
        s.ev(at=at0 + i * 2, node=1, op="descriptor", page=1, channel=i, kind="tid",
             src=hx(0x800000 + i * 0x1000), dst=hx(HI + 0x600000 + i * 0x10000 + 0xFFC0),
             size=256, prio=0, expect_resp="OKAY")
    end = 30000
    for n in (0, 2, 3):
        for i in range(16):
            s.expect_status(end, n, 0, i, DONE)
    for i in range(24):
        s.expect_status(end, 1, 1, i, DONE)
    s.expect_stat(end, 1, 29, 48)
    s.expect_stat(end, 1, 27, 0)
    s.expect_stat(end, 1, 28, 0)
    s.save()


def main():
    burst()
    edges()
    no_channel()
    reissue()
    error_nack()


if __name__ == "__main__":
    main()
