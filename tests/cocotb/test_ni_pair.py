# SPDX-License-Identifier: Apache-2.0
"""cocotb tests of two ni_node instances (toplevel ni_pair, tests/cocotb/ni_pair.sv: node ids
0 and 1) on one Python request network and one response network (docs/cocotb.md).

Each node's memory holds its own ICD 15 pattern, so a transfer's destination bytes show
which node's memory they were read from; every packet is checked as it leaves its node, and
responses travel back to the sender through the response network.
"""

import random

import cocotb
from cocotb.triggers import ClockCycles

import ni_ref as ref
from ni_ref import Descriptor
from tb import NiEnv, one_shot, random_descriptor

REGION = 1 << 47  # destinations and notification records
SRC = 0x0000_0333_0000


async def start(dut) -> NiEnv:
    env = NiEnv(dut, {0: "n0_", 1: "n1_"}, seed=random.getrandbits(32))
    await env.reset()
    return env


@cocotb.test()
async def test_pair_transfers(dut):
    """Both nodes at once: node 0 sends two blocks with notification to node 1, node 1 a
    notifying transfer to node 0, and each node one transfer to itself (inline at node 0,
    memory at node 1). Every transfer DONE at its sender, data and record in the receiver's
    memory from the sender's pattern, node ids in the registers and counters per node (the
    receiver ACKs and writes the notification)."""
    env = await start(dut)
    n0, n1 = env.nodes[0], env.nodes[1]
    for n in (n0, n1):
        assert await n.ctrl(ref.CTRL_NODE_ID) == n.id
    plan = [
        (n0, Descriptor(page=0, channel=0, kind=ref.KIND_1X, src=SRC | 0x11, size=0x2300,
                        dst=1 << 48 | REGION | 0x1_0000 - 0x700, notify=True,
                        notify_addr=REGION | 0x100, notify_tag=0xA0)),
        (n1, Descriptor(page=7, channel=2, kind=ref.KIND_TID, src=SRC | 0x2000, size=5000,
                        dst=0 << 48 | REGION | 0x4_0123, notify=True,
                        notify_addr=REGION | 0x200, notify_tag=0xB1)),
        (n0, Descriptor(page=1, channel=4, kind=ref.KIND_INLINE, size=24,
                        dst=0 << 48 | REGION | 0x8_0005, payload=bytes(range(24)))),
        (n1, Descriptor(page=2, channel=6, kind=ref.KIND_4X, src=SRC | 0x3F, size=777,
                        dst=1 << 48 | REGION | 0x9_0000)),
    ]
    transfers = [await node.submit(d) for node, d in plan]
    for t in transfers:
        await env.wait_done(t, max_cycles=8000)
    # node 0 made 2 transfers (3 blocks/packets issued: 2 blocks + 1 inline), received node
    # 1's one block (ACKs it, writes its record) and its own inline packet; node 1 the mirror
    await n0.expect_counters({ref.CNT_DESC_ACCEPTED: 2, ref.CNT_DONE: 2, ref.CNT_BLOCKS: 2,
                              ref.CNT_INLINE: 1, ref.CNT_CONTROL: 1, ref.CNT_ACKS: 3,
                              ref.CNT_ACKS_SENT: 2, ref.CNT_NOTIFICATIONS: 1})
    await n1.expect_counters({ref.CNT_DESC_ACCEPTED: 2, ref.CNT_DONE: 2, ref.CNT_BLOCKS: 2,
                              ref.CNT_INLINE: 0, ref.CNT_CONTROL: 1, ref.CNT_ACKS: 2,
                              ref.CNT_ACKS_SENT: 3, ref.CNT_NOTIFICATIONS: 1})
    await env.check_packet_counters()


@cocotb.test()
async def test_pair_random(dut):
    """30 random transfers from each node to a random node (tb.random_descriptor) under
    random back-pressure and network latency; one data packet from node 1 to node 0 arrives
    corrupted, so node 0 NACKs it across the response network and node 1 re-issues the
    block. Everything ends DONE and checked end to end."""
    env = await start(dut)
    rng = env.rng
    env.set_backpressure(mem_pct=20, cpu_pct=20, net_pct=20, net_latency=(1, 60))
    env.req.fault = one_shot(
        lambda h: h.kind == ref.WIRE_DATA and h.src_node == 1 and h.dst_node == 0,
        lambda beats: [beats[0], beats[1] ^ 1 << 7, *beats[2:]])
    slots = rng.sample([(p, c) for p in range(16) for c in range(0, 64, 2)], 30)
    transfers, i = [], 0
    for page, ch in slots:
        for node in env.nodes.values():
            i += 1
            d = random_descriptor(rng, page, ch, rng.randrange(2), REGION | i << 24)
            transfers.append(await node.submit(d, rng.choice(["burst", "burst8", "words"])))
        await ClockCycles(env.clk, rng.randrange(30))
    await env.wait_all_done(transfers)
    assert env.req.fault.hits == 1, "no data packet went from node 1 to node 0"
    await env.nodes[0].expect_counters({ref.CNT_DONE: 30, ref.CNT_PCRC_ERRORS: 1,
                                        ref.CNT_NACKS_SENT: 1})
    await env.nodes[1].expect_counters({ref.CNT_DONE: 30, ref.CNT_NACKS: 1})
    await env.check_packet_counters()
