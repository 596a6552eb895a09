# SPDX-License-Identifier: Apache-2.0
"""cocotb tests of one ni_node in loopback (docs/cocotb.md lists what each checks).

Every test resets the node, drives node_id_i = NODE and sends to itself (destination node
= NODE). Sources lie below 2^47 (their bits 63:48 are set to a junk value, which the NI must
ignore, ICD 10), destinations and notification records at or above 2^47, so sources keep
the ICD 15 pattern. The wire checker (tb.WireChecker) checks every packet on req_tx and
rsp_tx as it leaves; NiEnv.wait_done checks status, memory and acknowledgements at the end.
"""

import random

import cocotb
from cocotb.triggers import ClockCycles
from cocotbext.axi import AxiResp

import ni_ref as ref
from ni_ref import Descriptor
from tb import NiEnv, Node, one_shot, random_descriptor

NODE = 0x02A5
SRC = (0xBEEF << 48) | 0x0000_1234_0000  # bits 63:48 are ignored for sources
DST = (NODE << 48) | (1 << 47)  # this node, upper half of the address space
NOTIFY = 1 << 47 | 0x7F00_0000  # notification records (48-bit)
MIX_TRANSFERS = 40  # transfers of test_random_mix


async def start(dut) -> tuple[NiEnv, Node]:
    """The lone ni_node as node NODE, reset and initialised."""
    env = NiEnv(dut, {NODE: ""}, seed=random.getrandbits(32))
    await env.reset()
    return env, env.nodes[NODE]


@cocotb.test()
@cocotb.parametrize(notify=[False, True])
async def test_single_block(dut, notify: bool):
    """One TID-only block of 3000 bytes, source and destination misaligned differently (four
    packets cut at 1 KiB destination boundaries), with and without notification."""
    env, node = await start(dut)
    d = Descriptor(page=1, channel=4, kind=ref.KIND_TID, src=SRC | 0x1003, dst=DST | 0x2345,
                   size=3000, prio=2, notify=notify, notify_addr=NOTIFY | 0x40,
                   notify_tag=0x0123_4567_89AB_CDEF)
    t = await node.submit(d)
    await env.wait_done(t, max_cycles=5000)
    assert t.total_packets == 4 and env.checker.sent_by(NODE, ref.WIRE_DATA) == 4
    await node.expect_counters({
        ref.CNT_DESC_ACCEPTED: 1, ref.CNT_DESC_REJECTED: 0, ref.CNT_BLOCKS: 1,
        ref.CNT_CONTROL: int(notify), ref.CNT_ACKS: 1, ref.CNT_DONE: 1, ref.CNT_ERROR: 0,
        ref.CNT_ACKS_SENT: 1, ref.CNT_NOTIFICATIONS: int(notify)})
    await env.check_packet_counters()


@cocotb.test()
@cocotb.parametrize((("kind", "notify", "style"),
                     [(ref.KIND_1X, True, "burst"), (ref.KIND_4X, False, "words"),
                      (ref.KIND_TID, True, "burst8")]))
async def test_multi_block(dut, kind: int, notify: bool, style: str):
    """Three blocks: the destination starts 0x280 bytes before a 64 KiB boundary, so block 0
    is 0x280 bytes, block 1 a full 64 KiB, block 2 0x1c0 bytes (ICD 5); unipath, multipath
    and TID-only, with and without notification; descriptors written as a burst of 16-byte
    beats, word by word in random order, or a burst of 8-byte beats."""
    env, node = await start(dut)
    d = Descriptor(page=3, channel=10, kind=kind, src=SRC | 0x5_0031,
                   dst=DST | (0x3_0000 - 0x280), size=0x280 + 0x10000 + 0x1C0, prio=9,
                   notify=notify, notify_addr=NOTIFY | 0x1000, notify_tag=0xFEED_0000_0000_0003)
    t = await node.submit(d, style)
    assert len(t.blocks) == 3
    await env.wait_done(t, max_cycles=20000)
    await node.expect_counters({
        ref.CNT_DESC_ACCEPTED: 1, ref.CNT_BLOCKS: 3, ref.CNT_CONTROL: int(notify),
        ref.CNT_ACKS: 3, ref.CNT_DONE: 1, ref.CNT_ACKS_SENT: 3,
        ref.CNT_NOTIFICATIONS: int(notify)})
    await env.check_packet_counters()


@cocotb.test()
async def test_inline(dut):
    """Inline transfers: 13 bytes in a short descriptor, 29 in a long one (with its notify
    bit, which an inline transfer carries but does not act on: no control packet, no
    record), and 16 bytes forced into a long descriptor."""
    env, node = await start(dut)
    descs = [
        Descriptor(page=0, channel=2, kind=ref.KIND_INLINE, dst=DST | 0x100_0007, size=13,
                   payload=bytes(range(0xA0, 0xAD))),
        Descriptor(page=0, channel=6, kind=ref.KIND_INLINE, dst=DST | 0x100_013D, size=29,
                   notify=True, payload=bytes(range(0x40, 0x5D))),
        Descriptor(page=5, channel=8, kind=ref.KIND_INLINE, dst=DST | 0x100_0FF8, size=16,
                   payload=bytes(range(0x10, 0x20)), force_long=True),
    ]
    transfers = [await node.submit(d) for d in descs]
    for t in transfers:
        await env.wait_done(t, max_cycles=2000)
    assert env.checker.sent_by(NODE, ref.WIRE_INLINE) == 3
    await node.expect_counters({
        ref.CNT_DESC_ACCEPTED: 3, ref.CNT_INLINE: 3, ref.CNT_CONTROL: 0, ref.CNT_ACKS: 3,
        ref.CNT_DONE: 3, ref.CNT_ACKS_SENT: 3, ref.CNT_NOTIFICATIONS: 0})
    await env.check_packet_counters()


@cocotb.test()
async def test_edges(dut):
    """Boundary cases, all at once: a 1-byte transfer into the last byte of a 1 KiB window
    whose notification record straddles a 4 KiB boundary (two write bursts), a transfer
    ending exactly at 2^48 (legal: R9 rejects only crossing it), a full 64 KiB block
    aligned to its boundary (64 packets, multipath, notification), an inline transfer on
    the last channel pair of the last page; the long descriptor leaves its second channel
    IDLE."""
    env, node = await start(dut)
    descs = [
        Descriptor(page=0, channel=0, kind=ref.KIND_TID, src=SRC | 0x3F, dst=DST | 0x1_03FF,
                   size=1, notify=True, notify_addr=NOTIFY | 0x2FFA, notify_tag=0x77),
        Descriptor(page=0, channel=2, kind=ref.KIND_1X, src=SRC | 0x100,
                   dst=(NODE << 48) | ((1 << 48) - 100), size=100),
        Descriptor(page=0, channel=4, kind=ref.KIND_4X, src=SRC | 0x2_0000, dst=DST | 0x10_0000,
                   size=0x10000, notify=True, notify_addr=NOTIFY | 0x3000, notify_tag=1),
        Descriptor(page=15, channel=62, kind=ref.KIND_INLINE,
                   dst=(NODE << 48) | ((1 << 48) - 0x220), size=32, payload=bytes(range(32))),
    ]
    transfers = [await node.submit(d) for d in descs]
    assert await node.status(0, 5) == ref.IDLE
    for t in transfers:
        await env.wait_done(t, max_cycles=20000)
    assert transfers[2].total_packets == 64
    await node.expect_counters({ref.CNT_DESC_ACCEPTED: 4, ref.CNT_DONE: 4, ref.CNT_BLOCKS: 3,
                                ref.CNT_NOTIFICATIONS: 2})
    await env.check_packet_counters()


@cocotb.test()
async def test_control_registers(dut):
    """ICD 14: reset values, read-back of words 0-2, word 3 = node_id_i and read-only, other
    words read 0 and refuse writes; ICD 3: reads that break the rules answer SLVERR; every
    refused write transaction is counted (counter 1); reset restores the defaults."""
    env, node = await start(dut)
    want = dict(ref.CTRL_RESET)
    want[ref.CTRL_NODE_ID] = NODE
    for word, value in want.items():
        assert await node.ctrl(word) == value, f"control word {word} after reset"
    new = {ref.CTRL_RETX_TIMEOUT: 0x1234_5678, ref.CTRL_MAX_RETRIES: 7,
           ref.CTRL_RX_IDLE: 0xFFFF_FFFF_0000_0001}
    for word, value in new.items():
        await node.set_ctrl(word, value)
    for word, value in new.items():
        assert await node.ctrl(word) == value, f"control word {word} read-back"
    # word 3 (node id) is read-only; word 9 does not exist: both refuse writes, read as before
    for word in (ref.CTRL_NODE_ID, 9):
        resp = await node.write_words(ref.ctrl_addr(word), [0x55], size=3)
        assert resp == AxiResp.SLVERR, f"write to control word {word}: {resp}"
    assert await node.ctrl(ref.CTRL_NODE_ID) == NODE
    assert await node.ctrl(9) == 0
    # reads: not 16-byte aligned, or more than one beat -> SLVERR
    _, resp = await node.read64(ref.ctrl_addr(0) + 8)
    assert resp == AxiResp.SLVERR, f"unaligned read: {resp}"
    r = await node.cpu.read(ref.ctrl_addr(0), 32)
    assert r.resp == AxiResp.SLVERR, f"2-beat read: {r.resp}"
    await node.expect_counters({ref.CNT_DESC_REJECTED: 2, ref.CNT_DESC_ACCEPTED: 0})
    await env.reset()
    for word, value in want.items():
        assert await node.ctrl(word) == value, f"control word {word} after a second reset"


def _illegal_cases() -> list[tuple[str, Descriptor, list[int]]]:
    """(rule, descriptor, words written) of descriptors ICD 4 rejects."""
    def mem(**kw) -> Descriptor:
        args = dict(page=2, channel=12, kind=ref.KIND_TID, src=SRC | 0x800, dst=DST | 0x20_0000,
                    size=512)
        args.update(kw)
        return Descriptor(**args)

    cases = []
    for rule, d in [
        ("write channel >= 64", mem(channel=64)),
        ("size 0", mem(size=0)),
        ("inline > 16 bytes in a short descriptor",
         mem(kind=ref.KIND_INLINE, size=20, payload=bytes(20), force_long=False)),
        ("memory notify without long", mem(notify=True, force_long=False)),
        ("long descriptor on an odd channel", mem(channel=13, notify=True)),
        ("dst_addr + size crosses 2^48", mem(dst=(NODE << 48) | ((1 << 48) - 256))),
    ]:
        cases.append((rule, d, d.words()))
    d = mem()
    w = d.words()
    cases.append(("nonzero reserved bit 62 of the control word", d, [*w[:3], w[3] | 1 << 62]))
    cases.append(("nonzero reserved word w2 of a memory descriptor", d, [w[0], w[1], 1, w[3]]))
    cases.append(("last missing on a short descriptor", d, [*w[:3], w[3] & ~ref.CTRL_LAST]))
    return cases


@cocotb.test()
async def test_illegal_descriptors(dut):
    """ICD 4: each illegal descriptor is answered SLVERR, counted (counter 1), and leaves
    the channel IDLE with nothing sent; a descriptor on a BUSY channel is refused and the
    transfer on it finishes untouched; afterwards legal descriptors on the same channels
    are accepted and complete (no partial line or pending long descriptor was left)."""
    env, node = await start(dut)
    rejected = 0
    for rule, d, words in _illegal_cases():
        resp = await node.write_descriptor(d, words=words)
        rejected += 1
        assert resp == AxiResp.SLVERR, f"{rule}: {resp}"
        if d.channel < 64:
            for ch in (d.channel, d.channel + 1):
                assert await node.status(d.page, ch) == ref.IDLE, f"{rule}: channel {ch}"
        await node.expect_counters({ref.CNT_DESC_REJECTED: rejected, ref.CNT_DESC_ACCEPTED: 0})
    # R2: a descriptor for a BUSY channel. The request network holds the first transfer's
    # packets, so it stays BUSY while the second is written.
    env.req.paused = True
    first = await node.submit(Descriptor(page=2, channel=12, kind=ref.KIND_TID, src=SRC | 0x800,
                                         dst=DST | 0x20_0000, size=512))
    assert await node.status(2, 12) == ref.BUSY
    second = Descriptor(page=2, channel=12, kind=ref.KIND_TID, src=SRC | 0x9000,
                        dst=DST | 0x30_0000, size=64)
    resp = await node.write_descriptor(second)
    assert resp == AxiResp.SLVERR, f"descriptor on a BUSY channel: {resp}"
    env.req.paused = False
    await env.wait_done(first, max_cycles=3000)
    assert node.mem.read(second.dst48, second.size) == \
        ref.pattern_bytes(NODE, second.dst48, second.size), "the refused transfer wrote"
    # The channels the illegal descriptors used take legal ones (short on 12 and 13, long on
    # 14: a long one on 12 would own line 13 and rightly refuse the descriptor on 13).
    legal = [await node.submit(Descriptor(page=2, channel=ch, kind=ref.KIND_1X,
                                          src=SRC | (0x4000 * ch), dst=DST | 0x40_0000 | ch << 12,
                                          size=100 + ch, notify=ch == 14,
                                          notify_addr=NOTIFY | ch << 4, notify_tag=ch))
             for ch in (12, 13, 14)]
    for t in legal:
        await env.wait_done(t, max_cycles=3000)
    await node.expect_counters({ref.CNT_DESC_REJECTED: rejected + 1, ref.CNT_DESC_ACCEPTED: 4,
                                ref.CNT_DONE: 4})


@cocotb.test()
async def test_random_mix(dut):
    """MIX_TRANSFERS random transfers (tb.random_descriptor: every kind, 1 B to 5 KiB, some
    across a 64 KiB boundary, random notification; descriptors as 16- or 8-byte-beat bursts
    or shuffled word writes) under random back-pressure on every memory and CPU channel and
    on both networks, with random network latency; written back to back, then polled
    through the 32-channel status region (ICD 3) until every one is DONE and checked end to
    end."""
    env, node = await start(dut)
    rng = env.rng
    env.set_backpressure(mem_pct=25, cpu_pct=20, net_pct=25, net_latency=(1, 40))
    slots = rng.sample([(p, c) for p in range(16) for c in range(0, 64, 2)], MIX_TRANSFERS)
    transfers = []
    for i, (page, ch) in enumerate(slots):
        # 16 MiB of destination per transfer: no two share a line
        d = random_descriptor(rng, page, ch, NODE, 1 << 47 | (i + 1) << 24)
        transfers.append(await node.submit(d, rng.choice(["burst", "burst8", "words"])))
        await ClockCycles(env.clk, rng.randrange(40))
    await env.wait_all_done(transfers)
    await node.expect_counters({ref.CNT_DESC_ACCEPTED: MIX_TRANSFERS,
                                ref.CNT_DONE: MIX_TRANSFERS, ref.CNT_ERROR: 0,
                                ref.CNT_DESC_REJECTED: 0})
    await env.check_packet_counters()


def _is_packet(xfer: int, index: int):
    """Head match: data packet `index` (0-based, by destination) of transfer `xfer`'s
    first block (its dst is 64 B-aligned on a 1 KiB boundary: packet i starts at i KiB)."""
    def match(h: ref.WireHead) -> bool:
        return h.kind == ref.WIRE_DATA and h.xfer_id == xfer and h.dst48 % 0x10000 == index * 1024
    return match


def _corrupt(beats: list[int]) -> list[int]:
    """Flip one bit of the first payload beat: hcrc still good, pcrc bad."""
    return [beats[0], beats[1] ^ (1 << 100), *beats[2:]]


@cocotb.test()
@cocotb.parametrize(fault=["drop", "corrupt", "corrupt_no_retries"])
async def test_retransmission(dut, fault: str):
    """ICD 13/14 recovery: one data packet of a notifying one-block transfer is
    - drop: lost in the network; with the timeout register at 400 cycles the block is
      re-issued (same TID, new seq, retx) and its control packet sent again with the new
      seq (counters 13 and 8);
    - corrupt: delivered with a payload bit flipped; the receiver NACKs it (counters 19, 24),
      the engine re-issues the block at once (counters 6, 8);
    - corrupt_no_retries: the same with MaxRetries 0: the transfer ends ERROR (counter 10).
    DONE transfers have their data and notification in memory."""
    env, node = await start(dut)
    if fault == "drop":
        await node.set_ctrl(ref.CTRL_RETX_TIMEOUT, 400)
    if fault == "corrupt_no_retries":
        await node.set_ctrl(ref.CTRL_MAX_RETRIES, 0)
    d = Descriptor(page=4, channel=20, kind=ref.KIND_TID, src=SRC | 0x7_0000,
                   dst=DST | 0x50_0000, size=4000, notify=True, notify_addr=NOTIFY | 0x5000,
                   notify_tag=0xABCD)
    env.req.fault = one_shot(_is_packet(d.xfer_id, 1),
                             (lambda beats: None) if fault == "drop" else _corrupt)
    t = await node.submit(d)
    if fault == "corrupt_no_retries":
        await env.wait_final(t, ref.ERROR, max_cycles=5000)
        await node.expect_counters({ref.CNT_NACKS: 1, ref.CNT_RETX: 0, ref.CNT_ERROR: 1,
                                    ref.CNT_DONE: 0, ref.CNT_PCRC_ERRORS: 1,
                                    ref.CNT_NACKS_SENT: 1})
        assert len(env.checker.nacks) == 1 and not env.checker.acks
        await env.check_packet_counters()
        return
    await env.wait_done(t, max_cycles=6000)
    assert env.req.fault.hits == 1
    seqs = t.sent[0]
    assert len(seqs) >= 2, f"block sent {len(seqs)} time(s)"
    c = await node.counters(ref.CNT_RETX, ref.CNT_TIMEOUTS, ref.CNT_NACKS, ref.CNT_PCRC_ERRORS,
                           ref.CNT_NACKS_SENT, ref.CNT_DONE, ref.CNT_ERROR)
    assert c[ref.CNT_RETX] == len(seqs) - 1, f"counters {c}, block sent with seqs {seqs}"
    assert (c[ref.CNT_DONE], c[ref.CNT_ERROR]) == (1, 0), f"counters {c}"
    if fault == "drop":
        assert env.req.dropped == 1
        assert c[ref.CNT_TIMEOUTS] >= 1 and c[ref.CNT_NACKS] == 0, f"counters {c}"
        # The control packet went out before the timeout, so the re-issue sends it again.
        assert len(t.ctrl) >= 2 and t.ctrl[-1][1] == seqs[-1], \
            f"control packets {t.ctrl}, block seqs {seqs}"
    else:
        assert c[ref.CNT_TIMEOUTS] == 0 and c[ref.CNT_NACKS] == 1, f"counters {c}"
        assert (c[ref.CNT_PCRC_ERRORS], c[ref.CNT_NACKS_SENT]) == (1, 1), f"counters {c}"
        assert len(env.checker.nacks) == 1
    await env.check_packet_counters()
