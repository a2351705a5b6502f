"""Writing a pack (see `ghostdb.pack.format`): from records in key order, to a file made
whole or not at all."""

from __future__ import annotations

import contextlib
import hashlib
import os
from collections.abc import Iterable
from itertools import islice
from operator import itemgetter
from pathlib import Path
from typing import Any

from ghostdb.pack.format import (
    BLOCK,
    END,
    HEAD,
    MAGIC,
    TAIL,
    VERSION,
    BlockEntry,
    PackError,
    Record,
    encode_block,
    encode_header,
    encode_index,
    root_hash,
)


def write_pack(path: Path, header: dict[str, Any], records: Iterable[Record]) -> int:
    """Write ``records`` (every position, in key order as UTF-8 bytes) to a pack at
    ``path`` under ``header`` (which gives ``positions`` and ``reachable``: the records
    must agree); returns the file's size.  The file is written beside ``path`` under
    another name and renamed over it only once whole and flushed to disk: a failure, or
    Ctrl-C, leaves no file (and any earlier one at ``path`` as it was)."""
    header = {**header, "format": VERSION, "block": BLOCK}
    head = encode_header(header)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.partial")
    try:
        with open(temporary, "wb") as out:
            out.write(HEAD.pack(MAGIC, VERSION, 0, len(head)) + head)
            entries, counted = _blocks(out, records)
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


def _blocks(out: Any, records: Iterable[Record]) -> tuple[list[BlockEntry], tuple[int, int]]:
    """Write the blocks; their index entries, and the positions and reachable ones."""
    entries: list[BlockEntry] = []
    positions = reachable = 0
    last = b""
    stream = iter(records)
    # A block's records taken at once, and checked in order a block at a time (in C):
    # a loop a position is what made packing slow.
    while block := list(islice(stream, BLOCK)):
        keys = [r[0].encode() for r in block]
        if (positions and keys[0] <= last) or not all(map(bytes.__lt__, keys, keys[1:])):
            at = _disorder(last if positions else None, keys)
            raise PackError(f"positions out of order at {at!r}: a pack is in key order")
        last = keys[-1]
        data = encode_block(block, keys)
        digest = hashlib.sha256(data).digest()
        entries.append(BlockEntry(out.tell(), len(data), len(block), digest, keys[0]))
        out.write(data)
        positions += len(block)
        reachable += sum(map(bool, map(itemgetter(1), block)))
    if len(entries) > 2**32 - 1:  # the index counts blocks in a u32
        raise PackError("too many positions for one pack")
    return entries, (positions, reachable)


def _disorder(last: bytes | None, keys: list[bytes]) -> str:
    """The first of ``keys`` (after ``last``, None for none) not above the one before it."""
    before = keys[:-1] if last is None else [last, *keys[:-1]]
    after = keys[1:] if last is None else keys
    return next(k for a, k in zip(before, after, strict=True) if k <= a).decode()
