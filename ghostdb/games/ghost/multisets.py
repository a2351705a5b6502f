"""Anagram Ghost's moves among many positions at once, for a pack's check: its positions
are multisets of letters written sorted, and a play adds one letter anywhere.

A pack of Anagram Ghost cannot be rebuilt from its final positions (their keys are sorted
letters, not the dictionary's words), so its values are checked against its own moves.
Asking `Ghost.candidates` position by position sorts every letter of the alphabet into
every key in Python; here the moves come from the other side, in numpy: a position's
parents are the position without one of its letters, and a sorted key stays sorted when
a letter is taken out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np


def moves_among(keys: Sequence[str]) -> tuple[Any, Any]:
    """(parent rows, child rows) of every move between ``keys`` (sorted letters; the row
    of a key is its index): one pair for each position and each distinct letter of it
    whose removal leaves a key of ``keys``.  A key holds no NUL (it pads here)."""
    n = len(keys)
    width = max(1, max(map(len, keys), default=1))
    codes = np.array(keys, dtype=f"<U{width}").view(np.uint32).reshape(n, width)
    rows = _searchable(codes)
    sorter = np.argsort(rows, kind="stable")
    length = (codes != 0).sum(axis=1)
    parents, children = [], []
    for j in range(width):
        # Each distinct letter once: taking out any copy of a letter leaves one parent.
        first_copy = (length > j) & (codes[:, j] != codes[:, j - 1] if j else True)
        child = np.flatnonzero(first_copy)
        if not len(child):
            continue
        left = codes[child]
        parent_codes = np.zeros_like(left)
        parent_codes[:, :j] = left[:, :j]
        parent_codes[:, j : width - 1] = left[:, j + 1 :]
        sought = _searchable(parent_codes)
        at = np.minimum(np.searchsorted(rows, sought, sorter=sorter), n - 1)
        found = sorter[at]
        held = rows[found] == sought
        parents.append(found[held])
        children.append(child[held])
    if not parents:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    return np.concatenate(parents).astype(np.int64), np.concatenate(children).astype(np.int64)


def _searchable(codes: Any) -> Any:
    """Each row of code points (0 after the key's end) as one byte string that compares
    as the key does: big-endian, so bytes order as the code points."""
    big = np.ascontiguousarray(codes.astype(">u4"))
    return big.view(f"S{4 * codes.shape[1]}").ravel()


__all__ = ["moves_among"]
