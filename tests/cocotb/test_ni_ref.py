# SPDX-License-Identifier: Apache-2.0
"""The Python reference (ni_ref.py) against the known values of the C++ golden model's tests
(tests/ref_model/test_wire.cpp, test_descriptor.cpp, test_formats.cpp): both must encode the
ICD's formats identically. Plain pytest, no simulator; `make cocotb` runs it first."""

import ni_ref as ref


def word(beat: int, i: int) -> int:
    """64-bit word i of a 512-bit beat (the C++ tests index Bits512 this way)."""
    return (beat >> (64 * i)) & ref.MASK64


def test_memory_pattern():
    # test_wire.cpp "memory pattern": SplitMix64's first output, node 0 bytes 0..11, node 1, 3
    assert ref.splitmix64(0) == 0xE220A8397B1DCDAF
    assert ref.pattern_bytes(0, 0, 12) == bytes.fromhex("afcd1d7b39a820e2c15c0289")
    assert ref.pattern_bytes(1, 0, 4)[0] == 0x50 and ref.pattern_bytes(1, 0, 4)[3] == 0xDE
    assert ref.pattern_bytes(3, 0x800000000005, 1) == b"\x98"
    # unaligned reads and ignored address bits 63:48 (test_wire.cpp "memory image")
    assert ref.pattern_bytes(0, 6, 4) == bytes([0x20, 0xE2, 0xC1, 0x5C])
    assert ref.pattern_bytes(0, (7 << 48) | 6, 4) == ref.pattern_bytes(0, 6, 4)


def test_crc32():
    assert ref.crc32(b"123456789") == 0xCBF43926


def test_head_beat_fields_and_hcrc():
    # test_wire.cpp "head beat: fields at the ICD 11 positions"
    h = ref.WireHead(kind=2, tid=5, seq=7, len=1024, notify=1, retx=1, pd=3, npkts=4,
                     dst_addr=(1 << 48) | 0x800000000400, src_node=2, xfer_id=9)
    b = h.pack()
    assert word(b, 0) == (2 | 5 << 4 | 7 << 14 | 1024 << 28 | 1 << 39 | 1 << 41 | 3 << 42
                          | 4 << 46)
    assert word(b, 1) == h.dst_addr
    assert word(b, 6) == (2 << 32 | 9 << 48)
    assert ref.head_crc(b) == 0x0A420214
    sealed = h.seal().pack()
    assert ref.head_crc_ok(sealed)
    assert ref.WireHead.unpack(sealed) == h
    assert not ref.head_crc_ok(sealed ^ (1 << 511))  # a reserved bit is covered


def test_ack_nack():
    # test_wire.cpp "ACK and NACK"
    a = ref.WireHead.unpack(ref.make_response(ref.WIRE_ACK, 17, 100, 5, 7))
    assert (a.kind, a.tid, a.seq, a.len, a.dst_addr, a.src_node) == (3, 17, 100, 0, 5 << 48, 7)
    assert a.hcrc == 0xDB44467D


def test_data_packet():
    # test_wire.cpp "data packet": 8 bytes at line offset 0x3c span two payload beats
    assert ref.payload_beats(0x3C, 8) == 2
    assert ref.payload_beats(0x401, 1023) == 16
    assert ref.payload_beats(0x7FF, 1) == 1
    p = ref.make_data_packet(ref.WireHead(dst_addr=0x800000000000 | 0x3C), bytes(range(1, 9)))
    assert len(p) == 4
    assert ref.WireHead.unpack(p[0]).kind == ref.WIRE_DATA
    assert word(p[1], 7) == 0x0403020100000000
    assert word(p[2], 0) == 0x0000000008070605
    assert p[3] == 0xD8E63B17
    assert ref.payload_crc(p[1:3]) == p[3]


def test_notification_record():
    assert ref.notification_record(0x1122334455667788, 0x1000, 3) == bytes(
        [0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,
         0x00, 0x10, 0x00, 0x00, 0x03, 0x00, 0x01, 0x00])


def test_control_payload():
    # test_formats.cpp "control packet": payload words 2..5 of the engine packet
    p = int.from_bytes(ref.control_payload(0x1111222233334444, 0xCAFEF00D00000042,
                                           0x18000, 2), "little")
    assert [(p >> (64 * i)) & ref.MASK64 for i in range(4)] == [
        0x1111222233334444, 0xCAFEF00D00000042, 0x0000000200018000, 0]


def test_descriptor_words():
    # test_descriptor.cpp: control word bit positions
    assert ref.control_word(0x1234, 0xA, ref.KIND_4X, True, True, False) == 0x000000EA00001234
    assert ref.control_word(5, 3, ref.KIND_INLINE, False, False, True) == 0x8000003300000005
    # a long memory descriptor
    d = ref.Descriptor(page=2, channel=6, kind=ref.KIND_1X, src=0x0000123400005000,
                       dst=0x0007000000010000, size=0x30000, prio=5, notify=True,
                       notify_addr=0xDEAD0000, notify_tag=0x0123456789ABCDEF)
    assert d.words() == [0x0000123400005000, 0x0007000000010000, 0, 0x000000D500030000,
                         0xDEAD0000, 0x0123456789ABCDEF, 0, 0x8000000000000000]
    assert ref.desc_addr(2, 6) == 0x020C0
    # a short memory descriptor
    s = ref.Descriptor(page=0, channel=0, kind=ref.KIND_TID, src=0x1000, dst=0x2000, size=64)
    assert s.words() == [0x1000, 0x2000, 0, 0x8000000000000040]
    # inline, short (12 bytes) and long (20 bytes)
    i = ref.Descriptor(page=1, channel=3, kind=ref.KIND_INLINE, dst=0x0009000000000100,
                       size=12, payload=bytes(range(1, 13)))
    assert i.words() == [0x0807060504030201, 0x0009000000000100, 0x000000000C0B0A09,
                         0x800000300000000C]
    i = ref.Descriptor(page=1, channel=3, kind=ref.KIND_INLINE, dst=0x0009000000000100,
                       size=20, payload=bytes(range(1, 21)))
    assert i.words() == [0x0807060504030201, 0x0009000000000100, 0x100F0E0D0C0B0A09,
                         0x000000B000000014, 0x0000000014131211, 0, 0, 0x8000000000000000]


def test_blocks_and_packets():
    # ICD 5: first block up to the next 64 KiB destination boundary
    assert ref.blocks(0x8000, 0x18000) == [(0, 0x8000), (0x8000, 0x10000)]
    assert ref.blocks(0x10000, 0x10000) == [(0, 0x10000)]
    # test_wire.cpp "packetization": 2048 bytes at 0x300 -> 256, 1024, 768
    assert ref.block_packets(0x800000000300, 2048) == [(0, 256), (256, 1024), (1280, 768)]
    assert len(ref.block_packets(0x10000, 65536)) == 64
    assert ref.block_packets(0x3FF, 2) == [(0, 1), (1, 1)]
