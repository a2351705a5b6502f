"""Anagram Ghost's moves among many positions at once, for a pack's check: its positions
are multisets of letters written sorted, and a play adds one letter anywhere.

A pack of Anagram Ghost cannot be rebuilt from its final positions (their keys are sorted
letters, not the dictionary's words), so its values are checked against its own moves.
Asking `GhostGame.candidates` position by position sorts every letter of the alphabet
into every key in Python; here the moves come from the other side, in numpy: a position's
parents are the position without one of its letters, and a sorted key stays sorted when
a letter is taken out.
"""

from __future__ import annotations

from typing import Any

import numpy as np


def moves_among(keys: Any) -> tuple[Any, Any]:
    """(parent rows, child rows) of every move between ``keys`` (a numpy array of fixed
    width bytes: sorted letters in UTF-8, NUL after each, a row each): one pair for each
    position and each distinct letter of it whose removal leaves a key of ``keys``."""
    codes = _letters(keys)
    n, width = codes.shape
    rows = _searchable(codes)
    sorter = np.argsort(rows, kind="stable")
    length = (codes != 0).sum(axis=1)
    parents, children = [], []
    for j in range(width):
        # Each distinct letter once: taking out any copy of a letter leaves one parent.
        first_copy = (length > j) & (codes[:, j] != codes[:, j - 1] if j else True)
        child = np.flatnonzero(first_copy).astype(np.int32)
        if not len(child):
            continue
        parent_codes = np.zeros((len(child), width), codes.dtype)
        parent_codes[:, :j] = codes[child, :j]
        parent_codes[:, j : width - 1] = codes[child, j + 1 :]
        sought = _searchable(parent_codes)
        del parent_codes
        found = sorter[np.minimum(np.searchsorted(rows, sought, sorter=sorter), n - 1)]
        held = rows[found] == sought
        parents.append(found[held].astype(np.int32))
        children.append(child[held])
    if not parents:
        return np.zeros(0, np.int32), np.zeros(0, np.int32)
    return np.concatenate(parents), np.concatenate(children)


def _letters(keys: Any) -> Any:
    """The keys' letters as a matrix of code points, 0 after each key's end: the bytes
    themselves where every key is ASCII (a byte a letter), else decoded (four bytes)."""
    n, width = len(keys), max(keys.dtype.itemsize, 1)
    raw = np.frombuffer(np.ascontiguousarray(keys).tobytes(), np.uint8).reshape(n, width)
    if not n or raw.max() < 0x80:
        return raw
    text = [key.decode() for key in keys.tolist()]
    longest = max(1, max(map(len, text)))
    return np.array(text, dtype=f"<U{longest}").view(np.uint32).reshape(n, longest)


def _searchable(codes: Any) -> Any:
    """Each row of code points as one byte string that compares as the key does:
    big-endian, so bytes order as the code points (a NUL after the end pads it)."""
    big = np.ascontiguousarray(codes.astype(codes.dtype.newbyteorder(">")))
    return big.view(f"S{codes.dtype.itemsize * codes.shape[1]}").ravel()


__all__ = ["moves_among"]
