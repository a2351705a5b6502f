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
    """Whole blocks' rows and their block records: a part's rows past its last whole
    block are carried into the next part (the last part's are a block of their own);
    each key is checked above the one before, across parts too."""
    carry: Columns | None = None
    last: bytes | None = None
    for part in parts:
        if carry is not None:  # the carried rows and the part's first make a block
            head = min(len(part), BLOCK - len(carry))
            part, carry = take(part, head, len(part)), join(carry, take(part, 0, head))
            if len(carry) < BLOCK:
                continue
            last = carry.key(BLOCK - 1)
            yield carry, block_records(carry, BLOCK)
            carry = None
        if last is not None and len(part) and part.key(0) <= last:
            raise PackError(
                f"positions out of order at {part.key(0).decode(errors='replace')!r}: "
                "a pack is in key order"
            )
        whole = len(part) - len(part) % BLOCK
        carry = take(part, whole, len(part)) if whole < len(part) else None
        if whole:
            cols = take(part, 0, whole)
            last = cols.key(whole - 1)
            yield cols, block_records(cols, BLOCK)
    if carry is not None:
        if last is not None and carry.key(0) <= last:
            raise PackError(
                f"positions out of order at {carry.key(0).decode(errors='replace')!r}: "
                "a pack is in key order"
            )
        yield carry, block_records(carry, BLOCK)


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
