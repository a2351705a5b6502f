"""A pack read whole into arrays, for `ghostdb verify FILE` (`ghostdb.pack.verify`).

Every block is read once, its hash checked (`Pack.blocks`), and its columns taken as
numpy arrays.  The keys are decoded by numpy too, many blocks at once: a key of a block
record keeps the first bytes of the key before and adds its own (`ghostdb.pack.format`),
so each key's added bytes are laid in its row of a matrix, and every byte it keeps is
copied down from the last row above that wrote that column.  Decoding a million keys one
at a time in Python took a second; this takes a few passes over the matrix.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

from ghostdb.pack.block import Block, Layout
from ghostdb.pack.format import RESTART, PackError
from ghostdb.pack.reader import Pack

CHUNK = 64
"""Blocks whose keys are decoded at once (about 130,000 keys: a few MB of matrix)."""


class Whole(NamedTuple):
    """Positions of a pack, a row each, in the pack's order (numpy arrays): every one
    (`read_whole`), or those of a few blocks (`chunks`)."""

    keys: Any
    """Each key, UTF-8, as fixed-width bytes (``S`` of the longest: numpy compares them
    as bytes, which is the pack's order, but drops a key's trailing NULs: see ``nul``)."""
    lengths: Any
    """Each key's length in bytes."""
    reachable: Any
    values: Any
    """The value column (`ghostdb.pack.block.Block.value`): the outcome's code in the low
    two bits, above them the game length + 1, or 0 for none."""
    safe: Any
    labels: list[str | None] | None
    """Each position's label; None where no position has one."""
    firsts: Any
    """The first row of each block read (and, last, the rows in all)."""
    numbers: Any
    """The number of each block read (a damaged one is not)."""

    @property
    def outcome(self) -> Any:
        return self.values & 3

    @property
    def length(self) -> Any:
        """Each game length, -1 for none (a draw)."""
        import numpy as np

        return (self.values >> 2).astype(np.int32) - 1

    @property
    def nul(self) -> bool:
        """Some key holds a NUL byte: its fixed-width bytes are not the key."""
        import numpy as np

        return bool(len(self.keys)) and bool((np.char.str_len(self.keys) != self.lengths).any())

    def raw(self, row: int) -> bytes:
        """Row ``row``'s key as it is held (UTF-8)."""
        return self.keys[row : row + 1].view("u1")[: int(self.lengths[row])].tobytes()  # type: ignore[no-any-return]

    def key(self, row: int) -> str:
        """Row ``row``'s key as text."""
        return self.raw(row).decode(errors="replace")

    def texts(self, rows: Any) -> list[str]:
        """The keys of ``rows`` (a mask) as text: joined and split in C, not a step a key
        (millions of final positions in a big word list)."""
        if self.nul:
            return [self.key(row) for row in rows.nonzero()[0].tolist()]
        return b"\n".join(self.keys[rows].tolist()).decode().split("\n") if rows.any() else []

    def block(self, row: int) -> int:
        """The number of the block row ``row`` was read from."""
        import numpy as np

        return int(self.numbers[np.searchsorted(self.firsts, row, side="right") - 1])


def chunks(pack: Pack, damaged: Callable[[str], None]) -> Iterator[Whole]:
    """The blocks of ``pack``, read and decoded `CHUNK` at a time; ``damaged(why)`` is
    told of each that is not whole (its rows are left out)."""
    import numpy as np

    pending: list[tuple[int, Block]] = []

    def decode() -> Whole | None:
        found = _keys_of(pending)
        if isinstance(found, str):
            damaged(found)
            return None
        columns = [block.columns() for _, block in pending]
        labels = None
        if any(c[3] is not None for c in columns):
            labels = [x for c in columns for x in c[3] or [None] * len(c[0])]
        counts = [len(block) for _, block in pending]
        return Whole(
            *found,
            *(np.concatenate([c[i] for c in columns]) for i in range(3)),
            labels,
            np.cumsum([0, *counts]),
            np.array([number for number, _ in pending]),
        )

    for number, block in enumerate(pack.blocks()):
        if isinstance(block, PackError):
            damaged(str(block))
            continue
        pending.append((number, block))
        if len(pending) == CHUNK:
            found = decode()
            pending.clear()
            if found is not None:
                yield found
    if pending and (found := decode()) is not None:
        yield found


def read_whole(pack: Pack, damaged: Callable[[str], None] = lambda _: None) -> Whole:
    """Every block of ``pack`` read and decoded (see `chunks`), in one `Whole`."""
    import numpy as np

    parts = list(chunks(pack, damaged))
    rows = sum(len(part.keys) for part in parts)
    width = max([1, *(part.keys.dtype.itemsize for part in parts)])
    keys = np.zeros(rows, f"S{width}")
    firsts, offset = [], 0
    for i, part in enumerate(parts):
        keys[offset : offset + len(part.keys)] = part.keys
        firsts.append(part.firsts[:-1] + offset)
        offset += len(part.keys)
        parts[i] = part._replace(keys=None)  # let each piece go once copied: most memory
    labels = None
    if any(part.labels is not None for part in parts):
        labels = [x for p in parts for x in (p.labels or [None] * len(p.lengths))]

    def joined(field: str, dtype: Any) -> Any:
        return np.concatenate([np.zeros(0, dtype), *(getattr(p, field) for p in parts)])

    return Whole(
        keys,
        joined("lengths", np.int32),
        joined("reachable", bool),
        joined("values", np.uint16),
        joined("safe", np.uint16),
        labels,
        np.concatenate([*firsts, [offset]]),
        joined("numbers", np.int64),
    )


def _keys_of(blocks: list[tuple[int, Block]]) -> tuple[Any, Any] | str:
    """The keys of ``blocks`` (fixed-width bytes) and their lengths; or why a block does
    not decode."""
    import numpy as np

    if not blocks:
        return np.zeros(0, "S1"), np.zeros(0, np.int64)
    layouts = [block.plain() for _, block in blocks]
    if any(layout is None for layout in layouts):  # a key of 128 bytes or more: rare
        return _python_keys(blocks)
    return _numpy_keys(blocks, layouts)  # type: ignore[arg-type]


def _python_keys(blocks: list[tuple[int, Block]]) -> tuple[Any, Any] | str:
    import numpy as np

    try:
        found = [key for _, block in blocks for key in block.keys]
    except (PackError, IndexError, ValueError) as exc:
        return f"a block of {blocks[0][0]} to {blocks[-1][0]} does not decode ({exc})"
    width = max([1, *map(len, found)])
    return np.array(found, f"S{width}"), np.array([len(k) for k in found], np.int32)


def _numpy_keys(blocks: list[tuple[int, Block]], layouts: list[Layout]) -> tuple[Any, Any] | str:
    """As `_keys_of`, for blocks whose keys each drop and add fewer than 128 bytes."""
    import numpy as np

    counts = np.array([layout.n for layout in layouts], np.int64)
    drops = np.frombuffer(b"".join(r[d : d + n] for r, n, d, *_ in layouts), np.uint8)
    adds = np.frombuffer(b"".join(r[d + n : d + 2 * n] for r, n, d, *_ in layouts), np.uint8)
    rests = np.frombuffer(b"".join(r[a:b] for r, _, _, a, b, _ in layouts), np.uint8)
    n = len(adds)
    first = np.zeros(len(counts), np.int64)  # each block's first row
    np.cumsum(counts[:-1], out=first[1:])
    block_of = np.repeat(np.arange(len(counts)), counts)
    within = np.arange(n) - first[block_of]
    # A key's length is its block's adds less its drops so far (a block starts afresh).
    delta = adds.astype(np.int64) - drops
    total = np.cumsum(delta)
    length = total - (total[first] - delta[first])[block_of]
    before = np.concatenate(([0], length[:-1]))
    before[first] = 0
    kept = before - drops
    spans = np.array([b - a for _, _, _, a, b, _ in layouts], np.int64)
    sums = np.add.reduceat(adds.astype(np.int64), first) if n else np.zeros(0, np.int64)
    bad = (kept < 0) | ((within % RESTART == 0) & (kept != 0))
    if bad.any() or (sums != spans).any():
        row = int(np.argmax(bad)) if bad.any() else int(first[np.argmax(sums != spans)])
        number = blocks[int(block_of[row])][0]
        return f"block {number} does not decode (its key columns do not add up)"
    width = max(1, int(length.max(initial=0)))
    columns = np.zeros((width, n), np.uint8)  # a key a column: each pass writes a row
    start = np.cumsum(adds, dtype=np.int64) - adds - kept  # byte j of a key's: start + j
    # Column by column, over the keys that reach it: byte j of a key is byte j of the
    # last key at or above it that wrote it (every key between reaches column j too,
    # keeping it), which wrote it at ``j - kept`` of its added bytes.
    rows = np.arange(n)
    for j in range(width):
        rows = rows[length[rows] > j]
        writer = np.where(kept[rows] <= j, np.arange(len(rows)), 0)
        np.maximum.accumulate(writer, out=writer)
        columns[j, rows] = rests[start[rows[writer]] + j]
    return np.ascontiguousarray(columns.T).view(f"S{width}").ravel(), length.astype(np.int32)
