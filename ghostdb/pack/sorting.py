"""Positions that arrive in runs, in any order, put in key order for a pack's writer: a
store reads a solution a level at a time (its own order, nothing to sort), each level's
keys as one text, and numpy sorts them, one first byte at a time (so that no more than
a share of the keys is ever held as a padded matrix)."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import pairwise
from typing import Any

from ghostdb.pack.format import Columns

SEPARATOR = 0x1E
"""The byte between two keys of a run's text (ASCII's record separator)."""


SHARE = 1 << 19
"""Keys sorted at once, at most, where their first two bytes allow (each key is a row as
wide as the longest: a share of them at a time)."""


class Unsortable(ValueError):
    """Keys this way cannot take: one that holds a NUL or the separator (the caller
    reads the positions another way)."""


class Runs:
    """Keys and their columns, added a run at a time (`add`), given back in key order
    as `Columns` (`parts`)."""

    def __init__(self) -> None:
        self._texts: list[Any] = []
        self._starts: list[Any] = []
        self._lengths: list[Any] = []
        self._columns: list[tuple[Any, Any, Any]] = []
        self._size = 0

    def add(self, keys: bytes, count: int, reachable: Any, values: Any, safe: Any) -> None:
        """A run of ``count`` keys (UTF-8, ``SEPARATOR`` between them) and their columns
        (the arrays of `Columns`, a row a key, in the same order).  Unsortable if a key
        holds a NUL, or the keys are not ``count``."""
        import numpy as np

        if count == 0:
            return
        if 0 in keys:
            raise Unsortable("a key holds a NUL")
        text = np.frombuffer(keys, np.uint8).copy()
        ends = np.flatnonzero(text == SEPARATOR)
        if len(ends) != count - 1:
            raise Unsortable("a key holds the separator")
        # A key's end is a NUL: in a row read from this text, the bytes past a key are
        # never compared (keys hold no NUL, so a key ends below any key it begins).
        text[ends] = 0
        starts = np.concatenate(([0], ends + 1))
        self._texts.append(text)
        self._starts.append(starts + self._size)
        self._lengths.append((np.concatenate((ends, [len(text)])) - starts).astype(np.int32))
        self._columns.append((reachable, values, safe))
        self._size += len(text) + 1
        self._texts.append(np.zeros(1, np.uint8))

    def parts(self) -> Iterator[Columns]:
        """Every key added, in key order (UTF-8 bytes), a first byte at a time."""
        import numpy as np

        if not self._starts:
            return
        starts, lengths = np.concatenate(self._starts), np.concatenate(self._lengths)
        reachable, values, safe = (np.concatenate(c) for c in zip(*self._columns, strict=True))
        self._starts, self._lengths, self._columns = [], [], []
        width = -(-max(8, int(lengths.max())) // 8) * 8
        text = np.concatenate([*self._texts, np.zeros(width, np.uint8)])
        self._texts = []
        window = np.lib.stride_tricks.sliding_window_view(text, width)
        if len(starts) <= SHARE:
            order, bounds = np.arange(len(starts)), [0, len(starts)]
        else:
            order, bounds = _shares(text, starts, lengths)
        for a, b in pairwise(bounds):
            rows = order[a:b]
            keys = window[starts[rows]]
            # The runs are each in key order: a stable sort (a merge of runs) finds them.
            within = np.argsort(keys.view(f"S{width}").ravel(), kind="stable")
            rows = rows[within]
            yield Columns(
                keys[within], lengths[rows], reachable[rows], values[rows], safe[rows], None
            )


def _shares(text: Any, starts: Any, lengths: Any) -> tuple[Any, list[int]]:
    """The keys in order of their first two bytes (a key's end reads as a NUL, below
    any byte a key holds; the empty key first), and where to cut that order into shares
    of about `SHARE` keys (a share holds every key of the two bytes it begins with)."""
    import numpy as np

    pairs = np.where(
        lengths > 0,
        text[starts].astype(np.uint16) << 8 | text[starts + 1].astype(np.uint16),
        0,
    ).astype(np.uint16)
    order = np.argsort(pairs, kind="stable")  # (16 bits: a radix sort)
    counts = np.bincount(pairs, minlength=1 << 16)
    bounds, size, at = [0], 0, 0
    for count in counts[counts > 0].tolist():
        if size and size + count > SHARE:
            bounds.append(at)
            size = 0
        size += count
        at += count
    bounds.append(at)
    return order, bounds
