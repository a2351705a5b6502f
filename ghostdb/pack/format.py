"""The pack format, version 3: one solution in one file, every position's key and values.

Byte by byte (integers little-endian; a *varint* is LEB128: 7 bits a byte, low first, the
high bit set on every byte but the last)::

    offset 0   8 bytes   magic  b"GHOSTPAK"
               u16       format version (3)
               u16       0 (reserved)
               u32       H, the header's length
    16         H bytes   header: UTF-8 JSON, keys sorted (see below)
    16 + H     blocks, one after another, each raw DEFLATE (RFC 1951) of a block record
    I          index: u32 block count, then per block
                   u64 offset of the block, u32 its compressed length,
                   u32 its positions, 32 bytes SHA-256 of its compressed bytes,
                   u16 length of its first key, its first key (UTF-8)
    end - 56   u64 I, u64 the index's length,
               32 bytes root hash: SHA-256 of the header's bytes followed by the index's,
               8 bytes magic b"GHOSTEND"

A block record holds `BLOCK` positions (the last block fewer), in key order (keys compared
as UTF-8 bytes), column by column so that DEFLATE finds each column's repeats, the value
columns of fixed width so that a probe reads one position without decoding the rest::

    varint n
    keys, front-coded as three columns (every 128th key, a *restart*, whole: it drops
    all of the key before, so that a probe searches the restarts and decodes one run):
        n varints: the bytes of the key before that this key drops (0 for the first)
        n varints: the length of the rest, the bytes this key adds
        the rests' bytes, one after another
    reachable:   ceil(n / 8) bytes, bit i of byte i // 8 (low bit first)
    value:       n u16, the outcome's code (0 loss, 1 draw, 2 tie, 3 win) in the low two
                 bits, above them 0 for no game length (a draw) else the length + 1
    safe seats:  n u16, 65535 for none (two players), else the seats' bit mask
    (each u16 column as its n low bytes, then its n high bytes: the high ones are nearly
    all 0 or 255, and DEFLATE makes little of them; the outcome beside the length, as
    for two players one tells the other)
    label:       n varints, 0 for none else its UTF-8 length + 1, followed by the bytes

Every position of a word game begins with every shorter one of its own stored
prefixes, so a key mostly drops nothing or a letter or two and adds one letter: three
columns of small repeated numbers, which DEFLATE codes in a few bits each.

The best move is not held: as GamesmanOne's records and Syzygy's tables, a pack holds a
position's value and game length, and the best move is read from the positions one move
on, which a probe reads anyway, by the solvers' own rule (`ghostdb.solvers`;
`ghostdb.positions.derived_best`): for two players the first play in move order among
those that achieve the value and the length; with more, the first play that keeps the
mover safe, else the first play.  `ghostdb verify FILE --db` and the tests hold every
derived best move to the stored one.

The header says what the pack is: ``format``, ``game``, ``name`` (the dictionary or the
game), ``rules`` (the rule set's key), ``alphabet``, ``solver_version``,
``words_sha256`` (the word list's, or null), ``positions``, ``reachable``, ``block``
(positions a block), ``solved_at`` and ``packed_by``.  The root hash covers the header
and the index, and the index covers every block: one flipped bit anywhere is found.
"""

from __future__ import annotations

import hashlib
import json
import struct
import zlib
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

MAGIC = b"GHOSTPAK"
END = b"GHOSTEND"
VERSION = 3
RESTART = 128
"""Every 128th key of a block (its 0th, 128th, …) drops all of the key before: a probe
of a block it has not read much searches those whole keys and decodes one run of at most
128 (each restart costs about 0.05 bytes a position)."""
BLOCK = 2048
"""Positions a block: a probe inflates a block (a few KB) for each key it reads that is
not in a block it holds already."""
NONE = 0xFFFF
"""A u16 column's "none"."""
HEAD = struct.Struct("<8sHHI")
TAIL = struct.Struct("<QQ32s8s")
ENTRY = struct.Struct("<QII32sH")

Record = tuple[str, bool, int, "int | None", "int | None", "int | None", "str | None"]
"""A position as a pack holds it: key, reachable, outcome code, game length, best play,
safe-seat mask, label (the fields of `ghostdb.positions.FIELDS`, in that order)."""


class PackError(Exception):
    """A file that is not a pack, or one that is damaged (the message says where)."""


class BlockEntry(NamedTuple):
    """One block of the index (a NamedTuple: opening a pack makes one a block, thousands
    of them, and a frozen dataclass takes four times as long to make)."""

    offset: int
    length: int
    count: int
    sha256: bytes
    first: bytes
    """The block's first key, UTF-8 (as the keys are compared)."""


# -- varints -----------------------------------------------------------------------------


def put_varint(out: bytearray, n: int) -> None:
    while n >= 0x80:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)


def get_varint(data: bytes | memoryview, at: int) -> tuple[int, int]:
    """The varint at ``at`` and the offset after it."""
    n = shift = 0
    while True:
        byte = data[at]
        at += 1
        n |= (byte & 0x7F) << shift
        if byte < 0x80:
            return n, at
        shift += 7


# -- blocks ------------------------------------------------------------------------------


class Columns(NamedTuple):
    """Positions in key order, column by column (numpy arrays, one row a position): what
    a block record is made of, for as many blocks as a writer hands over at once."""

    keys: Any
    """uint8, one row a key (UTF-8), padded with zeros to the longest."""
    lengths: Any
    """Each key's length in bytes."""
    reachable: Any
    """bool."""
    values: Any
    """The value column's numbers: the outcome's code in the low two bits, above them 0
    for no game length, else the length + 1."""
    safe: Any
    """The safe seats' masks, `NONE` for none."""
    labels: list[str | None] | None = None
    """Each position's label; None where no position has one."""

    def __len__(self) -> int:
        return len(self.lengths)

    def key(self, i: int) -> bytes:
        return self.keys[i, : self.lengths[i]].tobytes()  # type: ignore[no-any-return]


def columns_of(records: Sequence[Record], keys: list[bytes] | None = None) -> Columns:
    """``records`` (in key order; ``keys``: their keys as UTF-8, where the caller has
    them) as columns: their best plays are dropped (the format's docstring says why)."""
    import numpy as np

    n = len(records)
    columns = list(zip(*records, strict=True)) if n else [()] * 7
    if keys is None:
        keys = [k.encode() for k in columns[0]]
    lengths = np.array([len(k) for k in keys], dtype=np.int64)
    width = int(lengths.max()) if n else 0
    matrix = np.frombuffer(b"".join([k.ljust(width, b"\0") for k in keys]), np.uint8)
    values = [
        (0 if length is None else length + 1) << 2 | outcome
        for outcome, length in zip(columns[2], columns[3], strict=True)
    ]
    safe = [NONE if v is None else v for v in columns[5]]
    labels = list(columns[6]) if any(label is not None for label in columns[6]) else None
    return Columns(
        matrix.reshape(n, width),
        lengths,
        np.array(columns[1], dtype=bool),
        np.array(values, dtype=np.int64),
        np.array(safe, dtype=np.int64),
        labels,
    )


def encode_block(records: Sequence[Record], keys: list[bytes] | None = None) -> bytes:
    """A block record of ``records`` (at most `BLOCK`, in key order), deflated."""
    found = block_records(columns_of(records, keys))
    return deflate(found[0] if found else bytes(1))  # none: a count of 0, and nothing


def deflate(record: bytes) -> bytes:
    """A block record as a pack holds it: raw DEFLATE at zlib's default level, 6 (level
    9 takes 2.9 times as long for 1.7 % fewer bytes; zlib lets go of the GIL while it
    works: a writer deflates blocks in threads)."""
    packer = zlib.compressobj(6, zlib.DEFLATED, -15, 8)
    return packer.compress(record) + packer.flush()


def block_records(cols: Columns, block: int = BLOCK) -> list[bytes]:
    """The block records (not yet deflated) of ``cols``, whose first row begins a block:
    one a ``block`` rows, the last one fewer.  Every column is made for all the rows
    at once, by numpy, and cut a block at a time: a loop a position would be most of a
    pack's time.  PackError for keys out of order, or a number too big for its column."""
    import numpy as np

    n = len(cols)
    if n == 0:
        return []
    keys, lengths = cols.keys, cols.lengths
    shared = _shared_before(keys, lengths)
    shared[np.arange(n) % block % RESTART == 0] = 0  # a restart: each block's own
    before = np.concatenate(([0], lengths[:-1]))
    before[::block] = 0  # a block's first key drops nothing: there is none before it
    drops, adds = before - shared, lengths - shared
    # The bytes each key adds, one after another: read from the rows by index (as many
    # as there are such bytes, not a pass over the whole padded matrix).
    width = keys.shape[1]
    ends = np.concatenate(([0], np.cumsum(adds)))
    where = np.repeat(np.arange(n) * width + shared - ends[:-1], adds) + np.arange(ends[-1])
    rests = keys.reshape(-1)[where].tobytes()
    cuts = [*range(0, n, block), n]
    ends = dict(zip(cuts, ends[cuts].tolist(), strict=True))
    if cols.values.size and int(cols.values.max()) > NONE:
        raise PackError(
            f"a position's game length is too big for a pack ({(NONE >> 2) - 1:,} at most)"
        )
    if cols.safe.size and int(cols.safe.max()) > NONE:
        raise PackError(f"a position's safe seats is too big for a pack ({NONE - 1:,} at most)")
    values, safe = _planes(cols.values), _planes(cols.safe)
    small = bool(drops.max() < 0x80 and adds.max() < 0x80)
    drops8, adds8 = drops.astype(np.uint8), adds.astype(np.uint8)
    found = []
    for a in range(0, n, block):
        b = min(a + block, n)
        out = bytearray()
        put_varint(out, b - a)
        if small:  # the common case: a byte each
            out += drops8[a:b].tobytes()
            out += adds8[a:b].tobytes()
        else:
            for column in (drops, adds):
                for number in column[a:b].tolist():
                    put_varint(out, number)
        out += rests[ends[a] : ends[b]]
        out += np.packbits(cols.reachable[a:b], bitorder="little").tobytes()
        for low, high in (values, safe):
            out += low[a:b].tobytes()
            out += high[a:b].tobytes()
        _put_labels(out, None if cols.labels is None else cols.labels[a:b], b - a)
        found.append(bytes(out))
    return found


def _shared_before(keys: Any, lengths: Any) -> Any:
    """How many bytes each key shares with the one before (the first none), for all
    the rows at once: where each row first differs from the row before (compared 8
    bytes at a time), within the shorter key (what lies past a key's end is never
    compared).  PackError at the first key not above the one before."""
    import numpy as np

    n, width = keys.shape
    shared = np.zeros(n, dtype=np.int64)
    if n < 2:
        return shared
    if width % 8 or not width or not keys.flags.c_contiguous:
        padded = np.zeros((n, max(8, -(-width // 8) * 8)), dtype=np.uint8)
        padded[:, :width] = keys
        keys = padded
    words = keys.view("<u8")
    xor = words[1:] ^ words[:-1]
    differ = xor != 0
    word = differ.argmax(axis=1)
    rows = np.arange(n - 1)
    x = xor[rows, word]
    # The lowest byte that differs in the first word that does (the words are read
    # little-endian: their first byte is the lowest): its lowest set bit, a power of two
    # a float holds exactly.
    low = x & (~x + np.uint64(1))
    byte = np.log2(np.maximum(low, 1).astype(np.float64)).astype(np.int64) >> 3
    first = np.where(x != 0, word * 8 + byte, 1 << 30)
    shorter = np.minimum(lengths[1:], lengths[:-1])
    # Above the key before: a greater byte where they first differ within the shorter,
    # else longer.
    within = first < shorter
    column = np.where(within, first, 0)
    above = np.where(
        within, keys[rows + 1, column] > keys[rows, column], lengths[1:] > lengths[:-1]
    )
    if not above.all():
        at = int(np.argmin(above)) + 1
        key = keys[at, : lengths[at]].tobytes().decode(errors="replace")
        raise PackError(f"positions out of order at {key!r}: a pack is in key order")
    shared[1:] = np.minimum(first, shorter)
    return shared


def _planes(numbers: Any) -> tuple[Any, Any]:
    """A u16 column as its low bytes and its high bytes (nearly all 0 or 255: DEFLATE
    makes little of them)."""
    import numpy as np

    return (numbers & 0xFF).astype(np.uint8), (numbers >> 8).astype(np.uint8)


def _put_labels(out: bytearray, labels: Sequence[str | None] | None, n: int) -> None:
    if labels is None:  # the common case: no labels, a 0 each
        out += bytes(n)
        return
    for label in labels:
        if label is None:
            out.append(0)
        else:
            raw = label.encode()
            put_varint(out, len(raw) + 1)
            out += raw


# -- the header, the index and the tail ---------------------------------------------------


def encode_header(header: dict[str, Any]) -> bytes:
    return json.dumps(header, ensure_ascii=False, sort_keys=True).encode()


def encode_index(entries: Iterable[BlockEntry]) -> bytes:
    entries = list(entries)
    out = bytearray(struct.pack("<I", len(entries)))
    for e in entries:
        first = e.first
        out += ENTRY.pack(e.offset, e.length, e.count, e.sha256, len(first)) + first
    return bytes(out)


def decode_index(data: bytes) -> list[BlockEntry]:
    try:
        (count,) = struct.unpack_from("<I", data, 0)
        at, entries = 4, []
        unpack, fixed = ENTRY.unpack_from, ENTRY.size
        for _ in range(count):  # a fresh process's probe waits for this: kept lean
            offset, length, n, digest, size = unpack(data, at)
            at += fixed
            entries.append(BlockEntry(offset, length, n, digest, data[at : at + size]))
            at += size
    except struct.error as exc:
        raise PackError(f"its index does not decode ({exc})") from None
    if at != len(data):
        raise PackError("its index does not decode (bytes left over)")
    return entries


def root_hash(header: bytes, index: bytes) -> bytes:
    return hashlib.sha256(header + index).digest()
