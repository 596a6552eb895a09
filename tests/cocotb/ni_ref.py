# SPDX-License-Identifier: Apache-2.0
"""Python reference of the formats the cocotb testbench checks (docs/cocotb.md).

Written from the ICD (../shared/spec/ICD.md) and cross-checked against the known values of
the C++ golden model's tests (tests/cocotb/test_ni_ref.py):

  * section 3   CPU address map and status codes;
  * section 4   transfer descriptor words;
  * section 5   blocks of a memory transfer (64 KiB, aligned to the destination);
  * section 7   the control packet's short payload;
  * section 11  wire format: head beat fields, hcrc, destination-aligned payload beats, pcrc;
  * section 12  packets of a block (cut at 1 KiB destination boundaries);
  * section 13  the 16-byte notification record;
  * section 15  the memory pattern (SplitMix64 of (node << 48) ^ (a >> 3)).

Beats are Python ints of 512 bits, byte i of a beat = bits 8i+7..8i (little-endian).
"""

from __future__ import annotations

import dataclasses
import zlib
from typing import Optional

MASK48 = (1 << 48) - 1
MASK64 = (1 << 64) - 1
BEAT_BYTES = 64
PKT_BYTES = 1024  # largest data-packet payload (ICD 10 PktBytes)
BLOCK_BYTES = 65536  # ICD 1 BlockBytes
SHORT_PAYLOAD = 32  # bytes of the head beat's short payload

# ---- CRC-32 and the memory pattern --------------------------------------------------------


def crc32(data: bytes) -> int:
    """CRC-32 of ICD 7: IEEE 802.3, reflected, init and final XOR 0xFFFFFFFF (= zlib's)."""
    return zlib.crc32(data) & 0xFFFFFFFF


def splitmix64(x: int) -> int:
    """The SplitMix64 finaliser of ICD 15."""
    z = (x + 0x9E3779B97F4A7C15) & MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def pattern_bytes(node: int, addr: int, n: int) -> bytes:
    """Bytes [addr, addr+n) of node `node`'s memory before anything is written (ICD 15):
    byte a is byte (a mod 8), little-endian, of splitmix64((node << 48) ^ (a >> 3)).
    Address bits 63:48 are ignored (ICD 10)."""
    addr &= MASK48
    first, last = addr >> 3, (addr + n + 7) >> 3
    words = b"".join(splitmix64((node << 48) ^ w).to_bytes(8, "little")
                     for w in range(first, last))
    off = addr & 7
    return words[off:off + n]


# ---- CPU address map (ICD 3) and control registers (ICD 14) -------------------------------

REGION_DESC, REGION_STATUS1, REGION_STATUS32, REGION_STATS, REGION_CTRL = 0, 1, 2, 3, 4
IDLE, BUSY, DONE, ERROR = 0, 1, 2, 3
STATUS_NAMES = {IDLE: "IDLE", BUSY: "BUSY", DONE: "DONE", ERROR: "ERROR"}

CTRL_RETX_TIMEOUT, CTRL_MAX_RETRIES, CTRL_RX_IDLE, CTRL_NODE_ID = 0, 1, 2, 3
CTRL_RESET = {CTRL_RETX_TIMEOUT: 0, CTRL_MAX_RETRIES: 3, CTRL_RX_IDLE: 65536}

# Statistics counters (ICD 8) the tests read.
CNT_DESC_ACCEPTED = 0
CNT_DESC_REJECTED = 1
CNT_BLOCKS = 2
CNT_INLINE = 3
CNT_CONTROL = 4
CNT_ACKS = 5
CNT_NACKS = 6
CNT_RETX = 8
CNT_DONE = 9
CNT_ERROR = 10
CNT_TIMEOUTS = 13
CNT_PKTS_SENT = 16
CNT_PKTS_RECEIVED = 17
CNT_PCRC_ERRORS = 19
CNT_ACKS_SENT = 23
CNT_NACKS_SENT = 24
CNT_NOTIFICATIONS = 25


def desc_addr(page: int, channel: int, word: int = 0) -> int:
    return (REGION_DESC << 16) | (page << 12) | (channel << 5) | (word << 3)


def status_addr(page: int, channel: int) -> int:
    return (REGION_STATUS1 << 16) | (page << 12) | (channel << 5)


def status32_addr(page: int, half: int) -> int:
    return (REGION_STATUS32 << 16) | (page << 12) | (half << 10)


def stat_addr(index: int) -> int:
    return (REGION_STATS << 16) | (index << 4)


def ctrl_addr(word: int) -> int:
    return (REGION_CTRL << 16) | (word << 4)


# ---- Transfer descriptor (ICD 4) ----------------------------------------------------------

KIND_TID, KIND_1X, KIND_4X, KIND_INLINE = 0, 1, 2, 3
CTRL_LAST = 1 << 63


def control_word(size: int, prio: int, kind: int, notify: bool, is_long: bool, last: bool,
                 rsvd: int = 0) -> int:
    """Control word w3: size[31:0], prio[35:32], kind[37:36], notify[38], long[39],
    reserved[62:40] (`rsvd`, for negative tests), last[63]."""
    return ((size & 0xFFFFFFFF) | (prio & 0xF) << 32 | (kind & 3) << 36 | int(notify) << 38
            | int(is_long) << 39 | (rsvd & ((1 << 23) - 1)) << 40 | int(last) << 63)


@dataclasses.dataclass
class Descriptor:
    """A transfer as the CPU means it; words() encodes it as ICD 4's table says."""
    page: int
    channel: int
    kind: int
    dst: int  # [63:48] destination node
    size: int
    src: int = 0  # memory kinds
    prio: int = 0
    notify: bool = False
    notify_addr: int = 0  # memory kinds, long descriptor only
    notify_tag: int = 0
    payload: bytes = b""  # inline: byte 0 first
    force_long: Optional[bool] = None  # None: long for a memory notify or inline > 16 bytes

    @property
    def is_memory(self) -> bool:
        return self.kind != KIND_INLINE

    @property
    def is_long(self) -> bool:
        if self.force_long is not None:
            return self.force_long
        return self.notify if self.is_memory else len(self.payload) > 16

    @property
    def xfer_id(self) -> int:
        return self.page * 128 + self.channel

    @property
    def dst_node(self) -> int:
        return self.dst >> 48

    @property
    def dst48(self) -> int:
        return self.dst & MASK48

    @property
    def src48(self) -> int:
        return self.src & MASK48

    def __str__(self) -> str:
        kind = {KIND_TID: "tid", KIND_1X: "1x", KIND_4X: "4x", KIND_INLINE: "inline"}[self.kind]
        s = f"desc(page {self.page} ch {self.channel} {kind}"
        if self.is_memory:
            s += f" src 0x{self.src:016x}"
        s += f" dst 0x{self.dst:016x} size {self.size}"
        if self.notify:
            s += f" notify 0x{self.notify_addr:x} tag 0x{self.notify_tag:x}"
        return s + ")"

    def words(self) -> list[int]:
        """w0..w3 (short) or w0..w7 (long)."""
        lng = self.is_long
        w = [0] * (8 if lng else 4)
        if self.is_memory:
            w[0] = self.src
            if lng:
                w[4], w[5] = self.notify_addr, self.notify_tag
        else:
            pay = self.payload.ljust(32, b"\0")
            w[0], w[2] = (int.from_bytes(pay[i:i + 8], "little") for i in (0, 8))
            if lng:
                w[4], w[5] = (int.from_bytes(pay[i:i + 8], "little") for i in (16, 24))
        w[1] = self.dst
        w[3] = control_word(self.size, self.prio, self.kind, self.notify, lng, not lng)
        if lng:
            w[7] = CTRL_LAST
        return w


# ---- Blocks (ICD 5) and packets (ICD 12) --------------------------------------------------


def blocks(dst: int, size: int) -> list[tuple[int, int]]:
    """(offset, length) of each block of a memory transfer: the first ends at the next 64 KiB
    destination boundary, then full blocks, the last takes the remainder."""
    out, off = [], 0
    first = min(size, BLOCK_BYTES - (dst & MASK48) % BLOCK_BYTES)
    while off < size:
        n = first if off == 0 else min(BLOCK_BYTES, size - off)
        out.append((off, n))
        off += n
    return out


def block_packets(dst: int, length: int) -> list[tuple[int, int]]:
    """(offset in the block, length) of each data packet of a block at destination `dst`:
    the range is cut at 1 KiB-aligned destination addresses."""
    a, end, out = dst & MASK48, (dst & MASK48) + length, []
    while a < end:
        n = min(end, (a // PKT_BYTES + 1) * PKT_BYTES) - a
        out.append((a - (dst & MASK48), n))
        a += n
    return out


# ---- Wire format (ICD 11) -----------------------------------------------------------------

WIRE_INLINE, WIRE_CTRL, WIRE_DATA, WIRE_ACK, WIRE_NACK = 0, 1, 2, 3, 4
WIRE_KIND_NAMES = {0: "inline", 1: "control", 2: "data", 3: "ack", 4: "nack"}

# Header fields [127:0], LSB first: (name, width). dst_addr fills bits 127:64.
HEADER_FIELDS = [("kind", 4), ("tid", 10), ("seq", 14), ("len", 11), ("notify", 1),
                 ("last", 1), ("retx", 1), ("pd", 4), ("npkts", 7), ("rsvd", 11),
                 ("dst_addr", 64)]
HCRC_LSB, SRC_NODE_LSB, XFER_ID_LSB, RSVD_HI_LSB = 384, 416, 432, 443


@dataclasses.dataclass
class WireHead:
    """The head beat of every packet (ICD 11)."""
    kind: int = 0
    tid: int = 0
    seq: int = 0
    len: int = 0
    notify: int = 0
    last: int = 0
    retx: int = 0
    pd: int = 0
    npkts: int = 0
    rsvd: int = 0  # header bits 63:53, must be 0
    dst_addr: int = 0
    payload: bytes = bytes(SHORT_PAYLOAD)  # bits 383:128
    hcrc: int = 0
    src_node: int = 0
    xfer_id: int = 0
    rsvd_hi: int = 0  # bits 511:443, must be 0

    @property
    def dst_node(self) -> int:
        return self.dst_addr >> 48

    @property
    def dst48(self) -> int:
        return self.dst_addr & MASK48

    def pack(self) -> int:
        beat, lsb = 0, 0
        for name, width in HEADER_FIELDS:
            beat |= (getattr(self, name) & ((1 << width) - 1)) << lsb
            lsb += width
        beat |= int.from_bytes(self.payload, "little") << 128
        beat |= (self.hcrc & 0xFFFFFFFF) << HCRC_LSB
        beat |= (self.src_node & 0xFFFF) << SRC_NODE_LSB
        beat |= (self.xfer_id & 0x7FF) << XFER_ID_LSB
        beat |= self.rsvd_hi << RSVD_HI_LSB
        return beat

    @classmethod
    def unpack(cls, beat: int) -> "WireHead":
        h, lsb = cls(), 0
        for name, width in HEADER_FIELDS:
            setattr(h, name, (beat >> lsb) & ((1 << width) - 1))
            lsb += width
        h.payload = ((beat >> 128) & ((1 << 256) - 1)).to_bytes(SHORT_PAYLOAD, "little")
        h.hcrc = (beat >> HCRC_LSB) & 0xFFFFFFFF
        h.src_node = (beat >> SRC_NODE_LSB) & 0xFFFF
        h.xfer_id = (beat >> XFER_ID_LSB) & 0x7FF
        h.rsvd_hi = beat >> RSVD_HI_LSB
        return h

    def seal(self) -> "WireHead":
        self.hcrc = head_crc(self.pack())
        return self

    def __str__(self) -> str:
        return (f"{WIRE_KIND_NAMES.get(self.kind, self.kind)} tid={self.tid} seq={self.seq} "
                f"len={self.len} notify={self.notify} last={self.last} retx={self.retx} "
                f"pd={self.pd} npkts={self.npkts} dst=0x{self.dst_addr:016x} "
                f"src_node={self.src_node} xfer={self.xfer_id}")


def head_crc(beat: int) -> int:
    """hcrc: CRC-32 over head-beat bytes 0-47 then 52-63 (the hcrc field excluded)."""
    b = beat.to_bytes(BEAT_BYTES, "little")
    return crc32(b[0:48] + b[52:64])


def head_crc_ok(beat: int) -> bool:
    return (beat >> HCRC_LSB) & 0xFFFFFFFF == head_crc(beat)


def payload_crc(beats: list[int]) -> int:
    """pcrc: CRC-32 over the payload beats, 64 bytes each (zero lanes included)."""
    return crc32(b"".join(b.to_bytes(BEAT_BYTES, "little") for b in beats))


def payload_beats(addr: int, length: int) -> int:
    """Number of 64-byte destination lines that [addr, addr+length) touches."""
    return 0 if length == 0 else ((addr + length - 1) // BEAT_BYTES) - (addr // BEAT_BYTES) + 1


def data_beats(addr: int, data: bytes) -> list[int]:
    """Destination-aligned payload beats carrying `data` at destination `addr` (48-bit):
    beat j is line (addr & ~63) + 64j, lanes outside [addr, addr+len) zero."""
    off = addr % BEAT_BYTES
    raw = bytes(off) + data
    raw += bytes(-len(raw) % BEAT_BYTES)
    return [int.from_bytes(raw[i:i + BEAT_BYTES], "little")
            for i in range(0, len(raw), BEAT_BYTES)]


def make_data_packet(head: WireHead, data: bytes) -> list[int]:
    """Head beat (kind data, len, sealed hcrc), payload beats and the pcrc tail beat."""
    head = dataclasses.replace(head, kind=WIRE_DATA, len=len(data)).seal()
    pay = data_beats(head.dst48, data)
    return [head.pack(), *pay, payload_crc(pay)]


def make_response(kind: int, tid: int, seq: int, to: int, src: int) -> int:
    """ACK or NACK head beat for (tid, seq) from node `src` to node `to` (ICD 11, 13)."""
    return WireHead(kind=kind, tid=tid, seq=seq, dst_addr=to << 48, src_node=src).seal().pack()


def control_payload(notify_addr: int, tag: int, size: int, total_blocks: int) -> bytes:
    """Short payload of a control packet (ICD 7): notification address 64, tag 64, size 32,
    total_blocks 18, zeros."""
    v = (notify_addr & MASK64) | (tag & MASK64) << 64 | (size & 0xFFFFFFFF) << 128 \
        | (total_blocks & 0x3FFFF) << 160
    return v.to_bytes(SHORT_PAYLOAD, "little")


def notification_record(tag: int, size: int, src_node: int) -> bytes:
    """The 16 bytes the receiver writes at the notification address (ICD 13): tag [63:0],
    size [95:64], src_node [111:96], 0x0001 [127:112]."""
    v = (tag & MASK64) | (size & 0xFFFFFFFF) << 64 | (src_node & 0xFFFF) << 96 | 1 << 112
    return v.to_bytes(16, "little")
