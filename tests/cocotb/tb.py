# SPDX-License-Identifier: Apache-2.0
"""cocotb testbench of `ni_node` (docs/cocotb.md): bus models, memory, network, checkers.

  NiEnv          the DUT's nodes (one ni_node in loopback, or the two of ni_pair): clock and
                 reset, a Node per node, the request and response networks, the checker;
                 status polling and the end-to-end checks.
  Node           one node's CPU port (cocotbext-axi AxiMaster), memory (AxiRam over
                 PatternMemory) and CPU helpers (descriptors, status, counters, control
                 registers).
  PatternMemory  sparse 2^48-byte memory holding the ICD 15 pattern until written.
  Network        one network: takes packets from every tx port and delivers each to the rx
                 port of its destination node after a random latency, with optional
                 back-pressure and fault injection.
  WireChecker    every packet on req_tx and rsp_tx against the ICD 11/12 reference
                 (ni_ref.py), and per transfer what was sent and acknowledged.

Signal access: only toplevel ports, each looked up by its exact name (see axi_bus); nothing
iterates over the DUT's handles (docs/cocotb.md, "Verilator and handles").
"""

from __future__ import annotations

import bisect
import dataclasses
import logging
import random
import warnings
from collections import deque
from typing import Callable, Iterator, Optional

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, RisingEdge
from cocotbext.axi import (AxiAWBus, AxiARBus, AxiBBus, AxiBus, AxiMaster, AxiRam, AxiRBus,
                           AxiReadBus, AxiResp, AxiWBus, AxiWriteBus)
from cocotbext.axi.sparse_memory import SparseMemory

import ni_ref as ref

CLK_PERIOD_NS = 4

# cocotbext-axi 0.1.28 still uses cocotb 1.x calls that cocotb 2 deprecates (setimmediatevalue,
# Edge); they work, and their warnings would fill every test's log.
warnings.filterwarnings("ignore", category=DeprecationWarning, module=r"cocotbext\.axi")

# ---- AXI buses: explicit port names -------------------------------------------------------

# Signals of each AXI4 channel that ni_node has (no lock/cache/prot/qos/region/user).
AXI_CHANNELS = {
    AxiAWBus: ["awid", "awaddr", "awlen", "awsize", "awburst", "awvalid", "awready"],
    AxiWBus: ["wdata", "wstrb", "wlast", "wvalid", "wready"],
    AxiBBus: ["bid", "bresp", "bvalid", "bready"],
    AxiARBus: ["arid", "araddr", "arlen", "arsize", "arburst", "arvalid", "arready"],
    AxiRBus: ["rid", "rdata", "rresp", "rlast", "rvalid", "rready"],
}
# Signals an AXI master drives; the slave drives the rest.
AXI_MASTER_DRIVEN = {"awid", "awaddr", "awlen", "awsize", "awburst", "awvalid", "wdata",
                     "wstrb", "wlast", "wvalid", "bready", "arid", "araddr", "arlen",
                     "arsize", "arburst", "arvalid", "rready"}


def axi_bus(dut, prefix: str, dut_is_master: bool) -> AxiBus:
    """An AxiBus over ni_node's ports `<prefix>_<signal>_i/_o` (the suffix is the port's
    direction seen from ni_node), so AxiBus.from_prefix cannot find them. Each channel is a
    subclass of cocotbext-axi's channel bus whose signal list maps the model's names to the
    port names, with no optional signals and case-sensitive lookup: cocotb-bus then takes
    every handle with getattr(dut, exact_name) and never calls dir(dut), whose handle
    discovery can hand back a module-internal copy of a port on Verilator."""
    def port(sig: str) -> str:
        driven_by_dut = (sig in AXI_MASTER_DRIVEN) == dut_is_master
        return f"{prefix}_{sig}_{'o' if driven_by_dut else 'i'}"

    chans = {}
    for base, sigs in AXI_CHANNELS.items():
        cls = type(f"{base.__name__}Ports", (base,),
                   {"_signals": {s: port(s) for s in sigs}, "_optional_signals": {}})
        chans[base] = cls(dut, None, case_insensitive=False)
    return AxiBus(AxiWriteBus(chans[AxiAWBus], chans[AxiWBus], chans[AxiBBus]),
                  AxiReadBus(chans[AxiARBus], chans[AxiRBus]))


def check_memory_bursts(ram: AxiRam) -> None:
    """ICD 10's rules for the memory master, checked on every AW and AR the AxiRam takes:
    INCR bursts of 64-byte beats (AxSIZE 6), at most 16 beats. (AxiRam itself asserts that
    no burst crosses 4 KiB and that WLAST ends each write burst.)"""
    for channel, x in ((ram.write_if.aw_channel, "aw"), (ram.read_if.ar_channel, "ar")):
        def checked(recv=channel.recv, x=x):
            async def recv_checked():
                a = await recv()
                size, length, burst = (int(getattr(a, x + f)) for f in ("size", "len", "burst"))
                assert size == 6 and burst == 1 and length < 16, \
                    f"memory {x.upper()} burst 0x{int(getattr(a, x + 'addr')):x}: size {size}, " \
                    f"len {length}, burst {burst} (ICD 10: INCR, AxSIZE 6, at most 16 beats)"
                return a
            return recv_checked
        channel.recv = checked()


def stall_generator(rng: random.Random, pct: int) -> Iterator[bool]:
    """Pause pattern for cocotbext-axi channels: paused in `pct` % of the cycles."""
    while True:
        yield rng.randrange(100) < pct


# ---- Memory: the ICD 15 pattern, sparse -----------------------------------------------------


class PatternMemory(SparseMemory):
    """The memory of node `node` (ICD 15): 2^48 bytes that read as the SplitMix64 pattern
    until written. Kept in 4 KiB pages like cocotbext-axi's SparseMemory, but a page is
    filled with the pattern (not zeros) the first time it is read or written."""

    PAGE = 4096

    def __init__(self, node: int):
        super().__init__(1 << 48)
        self.node = node

    def _page(self, page_addr: int) -> bytearray:
        page = self.segs.get(page_addr)
        if page is None:
            page = self.segs[page_addr] = bytearray(
                ref.pattern_bytes(self.node, page_addr, self.PAGE))
        return page

    def read(self, address: int, length: int, **kwargs) -> bytes:
        out = bytearray()
        while length > 0:
            off = address % self.PAGE
            n = min(self.PAGE - off, length)
            out += self._page(address - off)[off:off + n]
            address, length = address + n, length - n
        return bytes(out)

    def write(self, address: int, data, **kwargs) -> None:
        data, pos = bytes(data), 0
        while pos < len(data):
            off = address % self.PAGE
            n = min(self.PAGE - off, len(data) - pos)
            self._page(address - off)[off:off + n] = data[pos:pos + n]
            address, pos = address + n, pos + n


# ---- Network ----------------------------------------------------------------------------------


class _NetPorts:
    """One node's tx and rx ports on one network, and its rx side's state."""

    def __init__(self, dut, prefix: str, tx: str, rx: str, has_last: bool):
        def port(name: str):
            return getattr(dut, prefix + name)

        self.tx_valid, self.tx_ready = port(f"{tx}_valid_o"), port(f"{tx}_ready_i")
        self.tx_data = port(f"{tx}_data_o")
        self.tx_last = port(f"{tx}_last_o") if has_last else None
        self.rx_valid, self.rx_ready = port(f"{rx}_valid_i"), port(f"{rx}_ready_o")
        self.rx_data = port(f"{rx}_data_i")
        self.rx_last = port(f"{rx}_last_i") if has_last else None
        self.tx_beats: list[int] = []  # packet leaving, beats so far
        self.tx_ready_now = False  # tx ready driven in the current cycle
        self.queue: deque[tuple[int, list[int]]] = deque()  # (deliver cycle, beats)
        self.cur: Optional[list[int]] = None  # packet being delivered
        self.idx = 0  # its beat on rx
        self.delivered = 0
        for sig in (self.tx_ready, self.rx_valid, self.rx_data, self.rx_last):
            if sig is not None:
                sig.value = 0


class Network:
    """One network (request or response) between the nodes: valid/ready/data[511:0] ports,
    with `last` on the request network (without it every beat is a packet). A packet is
    handed to `observe(src_node, beats)` when its last beat has left its node, then to
    `fault` (returns the beats to deliver, possibly altered, or None to drop the packet),
    and delivered whole to the node its head names (dst_addr[63:48], as sent) after a random
    latency, in order per destination. A packet for a node that does not exist is dropped
    (ICD 15). Back-pressure: tx ready low in `stall_pct` % of the cycles, and always while
    `paused`."""

    def __init__(self, dut, prefixes: dict[int, str], tx: str, rx: str, has_last: bool,
                 rng: random.Random, observe: Callable[[int, list[int]], None]):
        self.clk = dut.clk_i
        self.ports = {n: _NetPorts(dut, p, tx, rx, has_last) for n, p in prefixes.items()}
        self.rng = rng
        self.observe = observe
        self.fault: Optional[Callable[[list[int]], Optional[list[int]]]] = None
        self.stall_pct = 0
        self.latency = (1, 1)  # cycles from a packet's last beat out to its first beat in
        self.paused = False
        self.dropped = 0

    @property
    def idle(self) -> bool:
        """No packet waiting for or in delivery."""
        return all(not p.queue and p.cur is None for p in self.ports.values())

    def delivered(self, node: int) -> int:
        return self.ports[node].delivered

    async def run(self) -> None:
        cycle = 0
        while True:
            await RisingEdge(self.clk)
            cycle += 1
            # The cycle that just ended: handshakes on every port.
            for node, p in self.ports.items():
                if p.tx_ready_now and p.tx_valid.value:
                    p.tx_beats.append(int(p.tx_data.value))
                    if p.tx_last is None or p.tx_last.value:
                        self._route(cycle, node, p.tx_beats)
                        p.tx_beats = []
                if p.cur is not None and p.rx_ready.value:
                    p.idx += 1
                    if p.idx == len(p.cur):
                        p.cur = None
                        p.delivered += 1
            # The next cycle.
            for p in self.ports.values():
                p.tx_ready_now = not self.paused and self.rng.randrange(100) >= self.stall_pct
                p.tx_ready.value = int(p.tx_ready_now)
                if p.cur is None and p.queue and p.queue[0][0] <= cycle:
                    p.cur, p.idx = p.queue.popleft()[1], 0
                p.rx_valid.value = int(p.cur is not None)
                if p.cur is not None:
                    p.rx_data.value = p.cur[p.idx]
                    if p.rx_last is not None:
                        p.rx_last.value = int(p.idx == len(p.cur) - 1)

    def _route(self, cycle: int, src: int, beats: list[int]) -> None:
        self.observe(src, beats)
        dst = self.ports.get(ref.WireHead.unpack(beats[0]).dst_node)
        if self.fault is not None:
            beats = self.fault(beats)
        if beats is None or dst is None:
            self.dropped += 1
            return
        due = cycle + self.rng.randint(*self.latency)
        if dst.queue:
            due = max(due, dst.queue[-1][0])
        dst.queue.append((due, beats))


def one_shot(match: Callable[[ref.WireHead], bool],
             action: Callable[[list[int]], Optional[list[int]]]):
    """A Network fault that applies `action` to the first packet whose head matches, once;
    `.hits` counts the packets it changed (0 or 1)."""
    def fault(beats: list[int]) -> Optional[list[int]]:
        if fault.hits == 0 and match(ref.WireHead.unpack(beats[0])):
            fault.hits += 1
            return action(beats)
        return beats
    fault.hits = 0
    return fault


# ---- Wire checker ------------------------------------------------------------------------


@dataclasses.dataclass
class Transfer:
    """A transfer a node's CPU made live, and what the wire showed of it."""
    desc: ref.Descriptor
    src_node: int
    blocks: list[tuple[int, int]]  # (offset, length); inline: one pseudo-block
    tids: dict[int, int] = dataclasses.field(default_factory=dict)  # block -> its TID
    next_pkt: dict[tuple[int, int], int] = dataclasses.field(default_factory=dict)  # (block, seq)
    sent: dict[int, list[int]] = dataclasses.field(default_factory=dict)  # block -> seqs sent whole
    ctrl: list[tuple[int, int]] = dataclasses.field(default_factory=list)  # control (tid, seq)

    @property
    def total_packets(self) -> int:
        """Data packets of one issue of every block (inline: 1)."""
        if not self.desc.is_memory:
            return 1
        return sum(len(ref.block_packets(self.desc.dst48 + o, n)) for o, n in self.blocks)


class WireChecker:
    """Checks every packet a node sends against the reference: head fields, hcrc, payload
    beats, pcrc (rebuilt with ni_ref from the transfer and the sender's source pattern and
    compared beat for beat), packet order within a block issue, TIDs kept across re-issues,
    retx flags; responses against the (tid, seq) pairs their destination sent."""

    def __init__(self):
        self.transfers: dict[tuple[int, int], Transfer] = {}  # (node, xfer_id) -> latest
        self.issued: dict[tuple[int, int, int], Transfer] = {}  # (node, tid, seq) -> transfer
        self.acks: set[tuple[int, int, int]] = set()  # (node acknowledged, tid, seq)
        self.nacks: set[tuple[int, int, int]] = set()
        self.packets: dict[int, dict[int, int]] = {}  # sending node -> wire kind -> packets

    def expect(self, node: int, desc: ref.Descriptor) -> Transfer:
        blks = ref.blocks(desc.dst, desc.size) if desc.is_memory else [(0, desc.size)]
        t = Transfer(desc, node, blks)
        self.transfers[(node, desc.xfer_id)] = t
        return t

    def sent_by(self, node: int, kind: Optional[int] = None) -> int:
        """Packets node `node` sent (of wire kind `kind`, or all)."""
        counts = self.packets.get(node, {})
        return counts.get(kind, 0) if kind is not None else sum(counts.values())

    # -- request network -------------------------------------------------------------------
    def on_req(self, node: int, beats: list[int]) -> None:
        h = self._head(node, beats[0])
        t = self.transfers.get((node, h.xfer_id))
        assert t is not None, f"node {node}: packet of no live transfer: {h}"
        d = t.desc
        if h.kind == ref.WIRE_DATA:
            assert d.is_memory, f"data packet of inline transfer {d}: {h}"
            want, k = self._expected_data(t, h)
        elif h.kind == ref.WIRE_INLINE:
            assert not d.is_memory, f"inline packet of memory transfer {d}: {h}"
            k = 0
            want = [ref.WireHead(kind=ref.WIRE_INLINE, tid=h.tid, seq=h.seq, len=d.size,
                                 notify=int(d.notify), pd=d.page, dst_addr=d.dst,
                                 payload=d.payload[:d.size].ljust(32, b"\0"),
                                 src_node=node, xfer_id=d.xfer_id).seal().pack()]
            t.tids.setdefault(0, h.tid)
            t.sent.setdefault(0, []).append(h.seq)
        elif h.kind == ref.WIRE_CTRL:
            assert d.is_memory and d.notify, f"control packet of {d}: {h}"
            k = None
            want = [ref.WireHead(kind=ref.WIRE_CTRL, tid=h.tid, seq=h.seq, len=32, notify=1,
                                 pd=d.page, dst_addr=d.dst, src_node=node, xfer_id=d.xfer_id,
                                 payload=ref.control_payload(d.notify_addr, d.notify_tag,
                                                             d.size, len(t.blocks))
                                 ).seal().pack()]
            t.ctrl.append((h.tid, h.seq))
        else:
            raise AssertionError(f"node {node}: kind {h.kind} on the request network: {h}")
        self._compare(want, beats, h)
        if k is not None:
            assert t.tids[k] == h.tid, \
                f"block {k} of {d}: TID {h.tid}, earlier packets had {t.tids[k]}"
            self.issued[(node, h.tid, h.seq)] = t
        self._count(node, h.kind)

    def _expected_data(self, t: Transfer, h: ref.WireHead) -> tuple[list[int], int]:
        """The data packet the reference sends where `h` says it is, and its block."""
        d = t.desc
        off = h.dst48 - d.dst48
        assert h.dst_node == d.dst_node and 0 <= off < d.size, \
            f"data packet outside transfer {d}: {h}"
        k = bisect.bisect_right([o for o, _ in t.blocks], off) - 1
        boff, blen = t.blocks[k]
        pkts = ref.block_packets(d.dst48 + boff, blen)
        starts = [boff + o for o, _ in pkts]
        assert off in starts, f"data packet does not start at a 1 KiB cut of block {k}: {h}"
        p = starts.index(off)
        plen = pkts[p][1]
        # Order and TIDs: packets of one issue (block, seq) leave in order; every issue of a
        # block keeps its TID; only the first issue has retx 0.
        t.tids.setdefault(k, h.tid)
        seqs = [s for b, s in t.next_pkt if b == k]  # this block's issues, oldest first
        first_issue = not seqs or seqs[0] == h.seq
        key = (k, h.seq)
        assert t.next_pkt.setdefault(key, 0) == p, \
            f"block {k} seq {h.seq}: packet {p} arrived, expected packet {t.next_pkt[key]}"
        t.next_pkt[key] = p + 1
        if p == len(pkts) - 1:
            t.sent.setdefault(k, []).append(h.seq)
        head = ref.WireHead(tid=h.tid, seq=h.seq, notify=int(d.notify and k == len(t.blocks) - 1),
                            last=int(p == len(pkts) - 1), retx=int(not first_issue), pd=d.page,
                            npkts=len(pkts), dst_addr=(d.dst_node << 48) | (d.dst48 + off),
                            src_node=t.src_node, xfer_id=d.xfer_id)
        data = ref.pattern_bytes(t.src_node, d.src48 + off, plen)
        return ref.make_data_packet(head, data), k

    # -- response network ------------------------------------------------------------------
    def on_rsp(self, node: int, beats: list[int]) -> None:
        assert len(beats) == 1, f"node {node}: {len(beats)}-beat packet on the response network"
        h = self._head(node, beats[0])
        assert h.kind in (ref.WIRE_ACK, ref.WIRE_NACK), f"node {node}: kind {h.kind} on rsp_tx: {h}"
        key = (h.dst_node, h.tid, h.seq)
        assert key in self.issued, f"node {node}: response for a (tid, seq) never sent: {h}"
        self._compare([ref.make_response(h.kind, h.tid, h.seq, h.dst_node, node)], beats, h)
        (self.acks if h.kind == ref.WIRE_ACK else self.nacks).add(key)
        self._count(node, h.kind)

    # -- at the end of a transfer ----------------------------------------------------------
    def check_done(self, t: Transfer) -> None:
        """A DONE transfer: every block was sent whole and one of its issues ACKed; a
        notifying one sent a control packet carrying its last block's TID and one of that
        block's seqs."""
        for k in range(len(t.blocks)):
            sent = t.sent.get(k, [])
            assert sent, f"{t.desc}: block {k} never sent whole"
            assert any((t.src_node, t.tids[k], s) in self.acks for s in sent), \
                f"{t.desc}: no ACK for block {k} (TID {t.tids[k]}, seqs {sent})"
        if t.desc.is_memory and t.desc.notify:
            last = len(t.blocks) - 1
            assert t.ctrl, f"{t.desc}: no control packet"
            for tid, seq in t.ctrl:
                assert tid == t.tids[last] and seq in {s for b, s in t.next_pkt if b == last}, \
                    f"{t.desc}: control packet (tid {tid}, seq {seq}) is not the last block's"

    # -- helpers ---------------------------------------------------------------------------
    def _count(self, node: int, kind: int) -> None:
        counts = self.packets.setdefault(node, {})
        counts[kind] = counts.get(kind, 0) + 1

    @staticmethod
    def _head(node: int, beat: int) -> ref.WireHead:
        h = ref.WireHead.unpack(beat)
        assert ref.head_crc_ok(beat), f"node {node}: bad hcrc: {h}"
        assert h.src_node == node, f"node {node} sent src_node {h.src_node}: {h}"
        return h

    @staticmethod
    def _compare(want: list[int], got: list[int], h: ref.WireHead) -> None:
        assert len(got) == len(want), f"{h}: {len(got)} beats, expected {len(want)}"
        for j, (w, g) in enumerate(zip(want, got)):
            if w != g:
                wb, gb = w.to_bytes(64, "little"), g.to_bytes(64, "little")
                lane = next(i for i in range(64) if wb[i] != gb[i])
                what = "head" if j == 0 else "tail" if j == len(want) - 1 else f"payload beat {j}"
                raise AssertionError(f"{h}: {what} byte {lane}: expected {wb[lane]:02x}, "
                                     f"got {gb[lane]:02x}\n  expected {w:0128x}\n"
                                     f"  got      {g:0128x}")


# ---- A node: CPU port and memory ----------------------------------------------------------


class Node:
    """One ni_node's CPU port (AxiMaster) and memory (AxiRam over PatternMemory), and CPU
    helpers: descriptors, status, counters, control registers. Its toplevel ports are
    named `prefix` + the ni_node port name."""

    def __init__(self, dut, prefix: str, node_id: int, rng: random.Random, checker: WireChecker):
        self.id = node_id
        self.rng = rng
        self.checker = checker
        clk, rst = dut.clk_i, dut.rst_ni
        self.mem = PatternMemory(node_id)
        self.ram = AxiRam(axi_bus(dut, prefix + "m_axi", dut_is_master=True), clk, rst,
                          reset_active_level=False, size=1 << 48, mem=self.mem)
        check_memory_bursts(self.ram)
        self.cpu = AxiMaster(axi_bus(dut, prefix + "s_axi", dut_is_master=False), clk, rst,
                             reset_active_level=False)
        self.init_done = getattr(dut, prefix + "init_done_o")

    def set_stalls(self, mem_pct: int, cpu_pct: int) -> None:
        """Random stalls on every channel of the memory slave and of the CPU master."""
        for ch in (self.ram.write_if.aw_channel, self.ram.write_if.w_channel,
                   self.ram.write_if.b_channel, self.ram.read_if.ar_channel,
                   self.ram.read_if.r_channel):
            ch.set_pause_generator(stall_generator(self.rng, mem_pct))
        for ch in (self.cpu.write_if.aw_channel, self.cpu.write_if.w_channel,
                   self.cpu.write_if.b_channel, self.cpu.read_if.ar_channel,
                   self.cpu.read_if.r_channel):
            ch.set_pause_generator(stall_generator(self.rng, cpu_pct))

    async def write_words(self, addr: int, words: list[int], size: Optional[int] = None) -> AxiResp:
        """One AXI write transaction of 64-bit words from `addr` (16-byte beats unless
        `size` says 3 = 8-byte beats)."""
        data = b"".join((w & ref.MASK64).to_bytes(8, "little") for w in words)
        return (await self.cpu.write(addr, data, size=size)).resp

    async def read64(self, addr: int) -> tuple[int, AxiResp]:
        """One 16-byte read (ARLEN 0): the 64-bit value in RDATA[63:0], and RRESP."""
        r = await self.cpu.read(addr, 8)
        return int.from_bytes(r.data, "little"), r.resp

    async def counter(self, index: int) -> int:
        value, resp = await self.read64(ref.stat_addr(index))
        assert resp == AxiResp.OKAY, f"node {self.id} counter {index}: {resp}"
        return value

    async def counters(self, *indices: int) -> dict[int, int]:
        return {i: await self.counter(i) for i in indices}

    async def expect_counters(self, want: dict[int, int]) -> None:
        got = await self.counters(*want)
        assert got == want, f"node {self.id}: counters {got}, expected {want}"

    async def ctrl(self, word: int) -> int:
        value, resp = await self.read64(ref.ctrl_addr(word))
        assert resp == AxiResp.OKAY, f"node {self.id} control word {word}: {resp}"
        return value

    async def set_ctrl(self, word: int, value: int) -> None:
        resp = await self.write_words(ref.ctrl_addr(word), [value], size=3)
        assert resp == AxiResp.OKAY, f"node {self.id} control word {word} write: {resp}"

    async def submit(self, desc: ref.Descriptor, style: str = "burst") -> Transfer:
        """Write a legal descriptor (expects OKAY), registered with the checker first (its
        packets may leave before the B response); `style` as for write_descriptor."""
        t = self.checker.expect(self.id, desc)
        resp = await self.write_descriptor(desc, style)
        assert resp == AxiResp.OKAY, f"node {self.id} {desc}: {resp}"
        return t

    async def write_descriptor(self, desc: ref.Descriptor, style: str = "burst",
                               words: Optional[list[int]] = None) -> AxiResp:
        """Write `words` (default: the descriptor's encoding) at the descriptor's line(s), in
        one of the ways ICD 3/4 allow: "burst" one transaction of 16-byte beats, "burst8" one
        transaction of 8-byte beats, "words" every word its own 8-byte write, in random order
        within each line. Returns the worst response."""
        words = desc.words() if words is None else words
        base = ref.desc_addr(desc.page, desc.channel)
        if style in ("burst", "burst8"):
            return await self.write_words(base, words, size=3 if style == "burst8" else None)
        assert style == "words", style
        worst = AxiResp.OKAY
        for line in range(0, len(words), 4):
            order = list(range(line, line + 4))
            self.rng.shuffle(order)
            for i in order:
                resp = await self.write_words(base + 8 * i, [words[i]], size=3)
                worst = max(worst, resp)
        return worst

    async def status(self, page: int, channel: int) -> int:
        """Single-channel status read (ICD 3): turns DONE/ERROR into IDLE."""
        value, resp = await self.read64(ref.status_addr(page, channel))
        assert resp == AxiResp.OKAY and value >> 2 == 0, f"status read: {resp} 0x{value:x}"
        return value & 3

    async def status32(self, page: int, half: int) -> list[int]:
        """The 32-channel status read (ICD 3): codes of channels 32*half .. 32*half+31;
        turns every DONE/ERROR it reports into IDLE."""
        value, resp = await self.read64(ref.status32_addr(page, half))
        assert resp == AxiResp.OKAY, f"status32 read: {resp}"
        return [value >> (2 * i) & 3 for i in range(32)]


# ---- The system: nodes, networks, clock and reset -----------------------------------------


class NiEnv:
    """The DUT's nodes on a request and a response network. `prefixes` maps each node id
    to the prefix of its toplevel ports: {NODE: ""} for a lone ni_node (loopback: it sends
    to itself; node_id_i is driven with NODE), {0: "n0_", 1: "n1_"} for ni_pair (node ids
    set inside the wrapper)."""

    def __init__(self, dut, prefixes: dict[int, str], seed: int):
        self.dut = dut
        self.clk = dut.clk_i
        self.rng = random.Random(seed)
        # The bus models log every burst at INFO: show only their warnings.
        for name in (f"cocotb.{dut._name}", f"cocotb.{dut._name}.None"):
            logging.getLogger(name).setLevel(logging.WARNING)
        dut.rst_ni.value = 0
        if list(prefixes.values()) == [""]:
            dut.node_id_i.value = next(iter(prefixes))
        Clock(self.clk, CLK_PERIOD_NS, unit="ns").start()
        self.checker = WireChecker()
        self.nodes = {n: Node(dut, p, n, self.rng, self.checker) for n, p in prefixes.items()}
        self.req = Network(dut, prefixes, "req_tx", "req_rx", True, self.rng, self.checker.on_req)
        self.rsp = Network(dut, prefixes, "rsp_tx", "rsp_rx", False, self.rng, self.checker.on_rsp)
        cocotb.start_soon(self.req.run())
        cocotb.start_soon(self.rsp.run())

    async def reset(self) -> None:
        """Reset, then wait for every init_done_o (the ID FIFOs filled: 512 cycles,
        docs/design.md 2)."""
        self.dut.rst_ni.value = 0
        await ClockCycles(self.clk, 4)
        self.dut.rst_ni.value = 1
        for _ in range(1000):
            await RisingEdge(self.clk)
            if all(n.init_done.value for n in self.nodes.values()):
                return
        raise AssertionError("init_done_o did not rise within 1000 cycles of reset")

    def set_backpressure(self, mem_pct: int, cpu_pct: int, net_pct: int,
                         net_latency: tuple[int, int]) -> None:
        """Random stalls on every memory and CPU channel of every node, ready low on the
        networks' tx ports, and a random network latency."""
        for n in self.nodes.values():
            n.set_stalls(mem_pct, cpu_pct)
        for net in (self.req, self.rsp):
            net.stall_pct, net.latency = net_pct, net_latency

    async def wait_done(self, t: Transfer, max_cycles: int = 20000, poll: int = 32) -> None:
        """Poll the transfer's status at its sender until it leaves BUSY; it must be DONE,
        its data (and notification) in the destination's memory and its packets and ACKs as
        the checker expects."""
        await self.wait_final(t, ref.DONE, max_cycles, poll)

    async def wait_final(self, t: Transfer, want: int, max_cycles: int, poll: int = 32) -> None:
        d, node = t.desc, self.nodes[t.src_node]
        for _ in range(0, max_cycles, poll):
            st = await node.status(d.page, d.channel)
            if st != ref.BUSY:
                assert st == want, \
                    f"{d}: status {ref.STATUS_NAMES[st]}, expected {ref.STATUS_NAMES[want]}"
                if want == ref.DONE:
                    self.check_delivered(t)
                return
            await ClockCycles(self.clk, poll)
        raise AssertionError(f"{d}: still BUSY after {max_cycles} cycles")

    def check_delivered(self, t: Transfer) -> None:
        """End to end: the destination bytes equal the sender's source pattern (memory) or
        the payload (inline), the bytes around them are untouched, the notification record
        is where the descriptor said; and the wire checker saw every block sent and ACKed."""
        d = t.desc
        mem = self.nodes[d.dst_node].mem
        want = (ref.pattern_bytes(t.src_node, d.src48, d.size) if d.is_memory
                else d.payload[:d.size])
        got = mem.read(d.dst48, d.size)
        if got != want:
            i = next(i for i in range(d.size) if got[i] != want[i])
            raise AssertionError(f"{d}: destination byte {i} (0x{d.dst48 + i:x}) is "
                                 f"{got[i]:02x}, expected {want[i]:02x}")
        for a in (d.dst48 - 1, d.dst48 + d.size):
            assert mem.read(a, 1) == ref.pattern_bytes(d.dst_node, a, 1), \
                f"{d}: byte 0x{a:x} next to the destination was written"
        if d.is_memory and d.notify:
            rec = mem.read(d.notify_addr & ref.MASK48, 16)
            assert rec == ref.notification_record(d.notify_tag, d.size, t.src_node), \
                f"{d}: notification record {rec.hex()}"
        self.checker.check_done(t)

    async def check_packet_counters(self, max_cycles: int = 4000) -> None:
        """Once both networks are empty, for every node: counter 16 (packets sent on req_tx
        and rsp_tx) equals the packets the checker saw leave it, counter 17 (received) the
        packets the networks delivered to it."""
        for _ in range(max_cycles):
            if self.req.idle and self.rsp.idle:
                break
            await RisingEdge(self.clk)
        else:
            raise AssertionError(f"networks still busy after {max_cycles} cycles")
        await ClockCycles(self.clk, 4)  # the counters see a packet a cycle or two later
        for n, node in self.nodes.items():
            sent = await node.counter(ref.CNT_PKTS_SENT)
            received = await node.counter(ref.CNT_PKTS_RECEIVED)
            assert sent == self.checker.sent_by(n), \
                f"node {n}: counter 16 (packets sent) {sent}, the networks took " \
                f"{self.checker.packets.get(n)}"
            delivered = self.req.delivered(n) + self.rsp.delivered(n)
            assert received == delivered, \
                f"node {n}: counter 17 (packets received) {received}, delivered {delivered}"

    async def wait_all_done(self, transfers: list[Transfer], max_polls: int = 400,
                            poll: int = 100) -> None:
        """Poll the 32-channel status words (ICD 3) of the senders until every transfer has
        reported DONE once (then checked end to end); a channel that carries none of them
        must read IDLE, one that does BUSY or DONE."""
        pending = {(t.src_node, t.desc.page, t.desc.channel): t for t in transfers}
        for _ in range(max_polls):
            for n, page, half in sorted({(n, p, c // 32) for n, p, c in pending}):
                for i, code in enumerate(await self.nodes[n].status32(page, half)):
                    key = (n, page, 32 * half + i)
                    if key in pending:
                        assert code in (ref.BUSY, ref.DONE), f"{pending[key].desc}: status {code}"
                        if code == ref.DONE:
                            self.check_delivered(pending.pop(key))
                    else:
                        assert code == ref.IDLE, f"node {n} page {page} channel {key[2]}: {code}"
            if not pending:
                return
            await ClockCycles(self.clk, poll)
        raise AssertionError(f"still BUSY: {[str(t.desc) for t in pending.values()]}")


def random_descriptor(rng: random.Random, page: int, channel: int, dst_node: int,
                      region: int) -> ref.Descriptor:
    """A random legal descriptor on (page, channel), every kind alike: inline of 1-32 bytes,
    or memory of 1 B to 5 KiB, a third of them starting just below a 64 KiB destination
    boundary (two blocks), with random priority and notification. Destination and
    notification record lie in the 16 MiB at `region` (48-bit, at or above 2^47) of node
    `dst_node`; the source below 2^47, with junk in its ignored bits 63:48 (ICD 10)."""
    kind = rng.choice([ref.KIND_TID, ref.KIND_1X, ref.KIND_4X, ref.KIND_INLINE])
    dst = dst_node << 48 | region
    if kind == ref.KIND_INLINE:
        size = rng.randint(1, 32)
        return ref.Descriptor(page, channel, kind, dst=dst | rng.randrange(0x10000), size=size,
                              payload=rng.randbytes(size), notify=rng.random() < 0.3)
    across = rng.random() < 0.3
    size = rng.randint(0x400, 0x1400) if across else rng.randint(1, 5000)
    off = 0x10000 - rng.randint(1, 0x400) if across else rng.randrange(0x10000)
    src = rng.getrandbits(16) << 48 | rng.randrange(1 << 46)
    return ref.Descriptor(page, channel, kind, src=src, dst=dst | off, size=size,
                          prio=rng.randrange(16), notify=rng.random() < 0.5,
                          notify_addr=region | 0x80_0000 | rng.randrange(0x1000) << 4,
                          notify_tag=rng.getrandbits(64))
