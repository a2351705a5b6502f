"""Writing a pack (see `ghostdb.pack.format`): from records, or from columns, in key
order, to a file made whole or not at all."""

from __future__ import annotations

import contextlib
import hashlib
import os
from collections import deque
from collections.abc import Iterable, Iterator
from itertools import islice
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ghostdb.pack.format import (
    BLOCK,
    END,
    HEAD,
    MAGIC,
    TAIL,
    VERSION,
    BlockEntry,
    Columns,
    PackError,
    Record,
    block_records,
    columns_of,
    deflate,
    encode_header,
    encode_index,
    root_hash,
)

if TYPE_CHECKING:
    from concurrent.futures import Future

AHEAD = 64
"""Blocks being deflated at once, at most (a few MB)."""
PIECE = 64
"""Blocks whose columns are made at once."""


def write_pack(path: Path, header: dict[str, Any], records: Iterable[Record]) -> int:
    """Write ``records`` (every position, in key order as UTF-8 bytes) to a pack at
    ``path`` under ``header`` (which gives ``positions`` and ``reachable``: the records
    must agree); returns the file's size.  See `write_columns`."""
    return write_columns(path, header, _blocks_of(records))


def _blocks_of(records: Iterable[Record]) -> Iterator[Columns]:
    stream = iter(records)
    while block := list(islice(stream, BLOCK)):
        yield columns_of(block)


def write_columns(path: Path, header: dict[str, Any], parts: Iterable[Columns]) -> int:
    """Write the positions of ``parts`` (each in key order, each after the one before;
    of any size) to a pack at ``path`` under ``header``; returns the file's size.  The
    file is written beside ``path`` under another name and renamed over it only once
    whole and flushed to disk: a failure, or Ctrl-C, leaves no file (and any earlier
    one at ``path`` as it was)."""
    header = {**header, "format": VERSION, "block": BLOCK}
    head = encode_header(header)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.partial")
    try:
        with open(temporary, "wb") as out:
            out.write(HEAD.pack(MAGIC, VERSION, 0, len(head)) + head)
            entries, counted = _write_blocks(out, parts)
            if counted != (header["positions"], header["reachable"]):
                raise PackError(
                    f"the solution changed while it was packed ({counted[0]:,} positions "
                    f"read, {header['positions']:,} published): pack it again"
                )
            index = encode_index(entries)
            at = out.tell()
            out.write(index)
            out.write(TAIL.pack(at, len(index), root_hash(head, index), END))
            out.flush()
            os.fsync(out.fileno())
            size = out.tell()
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise
    return size


def _write_blocks(out: Any, parts: Iterable[Columns]) -> tuple[list[BlockEntry], tuple[int, int]]:
    """Cut ``parts`` into blocks and write them, deflated by threads while the next are
    made (zlib lets go of the GIL), in order; their index entries, and the positions and
    reachable ones counted."""
    from concurrent.futures import ThreadPoolExecutor  # (not for a probe's import)

    entries: list[BlockEntry] = []
    counted = [0, 0]
    workers = max(1, min(4, os.cpu_count() or 1))
    pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="ghostdb-deflate")
    pending: deque[tuple[Future[bytes], int, bytes]] = deque()

    def drain(keep: int) -> None:
        while len(pending) > keep:
            done, count, first = pending.popleft()
            data = done.result()
            digest = hashlib.sha256(data).digest()
            entries.append(BlockEntry(out.tell(), len(data), count, digest, first))
            out.write(data)

    try:
        for cols, records in _cut(parts):
            for at, record in zip(range(0, len(cols), BLOCK), records, strict=True):
                count = min(BLOCK, len(cols) - at)
                pending.append((pool.submit(deflate, record), count, cols.key(at)))
                drain(AHEAD)
            counted[0] += len(cols)
            counted[1] += int(cols.reachable.sum())
        drain(0)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    if len(entries) > 2**32 - 1:  # the index counts blocks in a u32
        raise PackError("too many positions for one pack")
    return entries, (counted[0], counted[1])


def _cut(parts: Iterable[Columns]) -> Iterator[tuple[Columns, list[bytes]]]:
    """`_pieces` and their block records, each piece's first key checked above the last
    key before it (block_records checks the rest)."""
    last: bytes | None = None
    for piece in _pieces(parts):
        if last is not None and piece.key(0) <= last:
            raise PackError(
                f"positions out of order at {piece.key(0).decode(errors='replace')!r}: "
                "a pack is in key order"
            )
        last = piece.key(len(piece) - 1)
        yield piece, block_records(piece, BLOCK)


def _pieces(parts: Iterable[Columns]) -> Iterator[Columns]:
    """The rows of ``parts`` in pieces of whole blocks, `PIECE` blocks at most (a block's
    columns are made a piece at a time: a few MB, used again and again, not a part's
    hundreds): a part's rows past its last whole block are carried into the next part
    (the last part's are a block of their own)."""
    carry: Columns | None = None
    for part in parts:
        if carry is not None:  # the carried rows and the part's first make a block
            head = min(len(part), BLOCK - len(carry))
            carry, part = join(carry, take(part, 0, head)), take(part, head, len(part))
            if len(carry) < BLOCK:
                continue
            yield carry
            carry = None
        whole = len(part) - len(part) % BLOCK
        for a in range(0, whole, PIECE * BLOCK):
            yield take(part, a, min(a + PIECE * BLOCK, whole))
        if whole < len(part):
            carry = take(part, whole, len(part))
    if carry is not None:
        yield carry


def take(cols: Columns, a: int, b: int) -> Columns:
    """Rows ``a`` to ``b`` of ``cols``."""
    labels = None if cols.labels is None else cols.labels[a:b]
    return Columns(
        cols.keys[a:b], cols.lengths[a:b], cols.reachable[a:b], cols.values[a:b],
        cols.safe[a:b], labels,
    )  # fmt: skip


def join(a: Columns, b: Columns) -> Columns:
    """``a``'s rows, then ``b``'s (keys padded to the wider)."""
    import numpy as np

    width = max(a.keys.shape[1], b.keys.shape[1])
    keys = np.zeros((len(a) + len(b), width), dtype=np.uint8)
    keys[: len(a), : a.keys.shape[1]] = a.keys
    keys[len(a) :, : b.keys.shape[1]] = b.keys
    labels = None
    if a.labels is not None or b.labels is not None:
        labels = [*(a.labels or [None] * len(a)), *(b.labels or [None] * len(b))]
    return Columns(
        keys,
        np.concatenate((a.lengths, b.lengths)),
        np.concatenate((a.reachable, b.reachable)),
        np.concatenate((a.values, b.values)),
        np.concatenate((a.safe, b.safe)),
        labels,
    )
