"""Strings as arrays of letter codes: word lists laid end to end as small codes (`CodedText`),
sorted and compared several letters at a time packed into one 64-bit integer, and the
fragments of a graph kept packed and decoded a slice at a time (`PackedKeys`: millions
of Python strings were most of a solve's memory).  Pure; the graph builders of
`ghostdb.games.ghost.graph` work on these.
"""

from __future__ import annotations

import operator
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import overload

import numpy as np

_SEPARATOR = "\0"  # follows every string laid out in a text; never a letter
KEY_SHIFT = 16  # a (node, letter) key is node << 16 | letter code


@dataclass
class CodedText:
    """Strings laid end to end as letter codes 1..len(alphabet), each followed by a 0.

    ``codes`` ends with a few more zeros so that a window of letters read at any
    string's end stays inside the array.
    """

    codes: np.ndarray  # uint8, or uint16 for alphabets of 255 letters or more
    alphabet: str
    code_points: np.ndarray  # uint32: the character of each code (0: the separator)
    starts: np.ndarray  # int64: where each string starts
    lengths: np.ndarray  # int64


_ENCODE_ROWS = 1 << 16
"""Strings joined and encoded at a time: the whole text as one Python string, then as
UTF-32 bytes, would cost several times its codes."""


def encode_strings(strings: Sequence[str]) -> CodedText:
    """The strings as a `CodedText`.  Two passes a block of strings at a time: one finds the
    letters (so their codes are known), the other writes each letter's code."""
    lengths = np.fromiter(map(len, strings), dtype=np.int64, count=len(strings))
    starts = np.cumsum(lengths + 1) - (lengths + 1)
    present = np.zeros(0x110000, dtype=bool)  # every code point
    present[0] = True  # the separator
    for points in _code_point_blocks(strings):
        present[points] = True
    code_points = np.flatnonzero(present).astype("<u4")  # the separator, then the letters
    alphabet = code_points[1:].tobytes().decode("utf-32-le")
    # Keep the largest value free: it pads rows of letters so that they sort last.  Past
    # one byte, codes are big-endian so that their bytes read in string order.
    dtype = np.dtype(np.uint8 if len(alphabet) < 255 else ">u2")
    code_of = np.zeros(int(code_points[-1]) + 1, dtype=dtype)
    code_of[code_points] = np.arange(len(code_points))
    size = int(lengths.sum()) + len(strings)
    codes = np.zeros(size + letters_per_key(dtype), dtype=dtype)
    at = 0
    for points in _code_point_blocks(strings):
        codes[at : at + len(points)] = code_of[points]
        at += len(points)
    return CodedText(codes, alphabet, code_points, starts, lengths)


def _code_point_blocks(strings: Sequence[str]) -> Iterator[np.ndarray]:
    """The code points of the strings, each followed by the separator, a block at a time."""
    for lo in range(0, len(strings), _ENCODE_ROWS):
        joined = _SEPARATOR.join(strings[lo : lo + _ENCODE_ROWS]) + _SEPARATOR
        yield np.frombuffer(joined.encode("utf-32-le"), dtype="<u4")


def letters_per_key(dtype: np.dtype | type) -> int:
    return 8 // np.dtype(dtype).itemsize


def _keep_masks(dtype: np.dtype) -> np.ndarray:
    """``masks[r]`` keeps the first r letters of a packed key and clears the rest."""
    per, bits = letters_per_key(dtype), 8 * np.dtype(dtype).itemsize
    full = (1 << 64) - 1
    return np.array([full ^ ((1 << (64 - r * bits)) - 1) for r in range(per + 1)], np.uint64)


def _letter_steps(dtype: np.dtype) -> np.ndarray:
    """The smallest key with a nonzero letter at each place from the right, but the last."""
    per, bits = letters_per_key(dtype), 8 * np.dtype(dtype).itemsize
    return np.array([1 << (k * bits) for k in range(1, per)], dtype=np.uint64)


def _packed_letters(codes: np.ndarray, starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """The first letters of each string (8 bytes' worth) packed into a uint64.

    Big-endian, with letters past the string's end cleared, so integer order is string
    order over those letters.  ``lengths`` may be 0 or negative (then the key is 0).
    """
    per = letters_per_key(codes.dtype)
    # Every 8-byte window of the text, read as one big-endian integer (a view, no copy).
    windows = np.ndarray(
        shape=(len(codes) - per + 1,), dtype=">u8", buffer=codes, strides=(codes.itemsize,)
    )
    keys = windows[np.minimum(starts, len(windows) - 1)].astype(np.uint64)
    return keys & _keep_masks(codes.dtype)[np.maximum(np.minimum(lengths, per), 0)]


def sort_strings(
    codes: np.ndarray, starts: np.ndarray, lengths: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Sort strings of a text: the order, and in that order whether each string differs
    from the one before (False marks a duplicate).

    Sorts by the first packed letters, then re-sorts only the runs still tied, by their
    next letters, until every run is either split or made of equal strings.  Each round
    works on the strings of the runs still tied only: a round over every string took
    two-thirds of SuperDuperGhost's build on Polish (54 million suffixes).
    """
    n = len(starts)
    if n < 2:
        return np.arange(n), np.ones(n, dtype=bool)
    per = letters_per_key(codes.dtype)
    keys = _packed_letters(codes, starts, lengths)
    # Stable: a word list's suffixes come in long sorted runs, which timsort merges (a
    # third of the time of the default quicksort on american-english-insane).
    order = np.argsort(keys, kind="stable")
    keys = keys[order]
    tied = keys[1:] == keys[:-1]  # tied[i]: places i and i + 1 agree over the letters compared
    # The places in a tie that may go on: the strings of ``per`` letters or more (a
    # shorter one's key holds it whole, so its tie is of equal strings).  Most suffixes
    # of an inflected language's words are short endings repeated many times.
    at = np.r_[tied, False] | np.r_[False, tied]
    at &= (keys & np.uint64(0xFF if codes.itemsize == 1 else 0xFFFF)) != 0
    at = np.flatnonzero(at)
    del keys
    offset = per
    while at.size:
        # A tie's places are consecutive; a place starts one unless tied with the place before.
        run = np.cumsum(np.r_[True, ~tied[at[1:] - 1]]) - 1
        members = order[at]
        # A tie whose strings all end here is of equal strings: it stays.
        goes_on = np.zeros(run[-1] + 1, dtype=bool)
        goes_on[run[lengths[members] > offset]] = True
        keep = goes_on[run]
        at, run, members = at[keep], run[keep], members[keep]
        more = _packed_letters(codes, starts[members] + offset, lengths[members] - offset)
        resort = np.lexsort((more, run))  # runs are contiguous: each stays in place
        order[at] = members[resort]
        more = more[resort]
        pair = np.flatnonzero(run[1:] == run[:-1])
        still = more[pair + 1] == more[pair]
        tied[at[pair]] = still
        in_tie = np.zeros(len(at), dtype=bool)
        in_tie[pair[still]] = True
        in_tie[pair[still] + 1] = True
        at = at[in_tie]
        offset += per
    return order, np.r_[True, ~tied]


def common_prefix_lengths(
    codes: np.ndarray, a: np.ndarray, b: np.ndarray, a_len: np.ndarray, b_len: np.ndarray
) -> np.ndarray:
    """How many leading letters each pair of strings (starts a, b) has in common."""
    per = letters_per_key(codes.dtype)
    common = np.minimum(a_len, b_len)  # where one string is a prefix of the other
    active = np.arange(len(a))
    offset = 0
    while active.size:
        first = offset == 0  # every pair: no need to gather
        aa, bb = (a, b) if first else (a[active], b[active])
        al, bl = (a_len, b_len) if first else (a_len[active], b_len[active])
        diff = _packed_letters(codes, aa + offset, al - offset)
        diff ^= _packed_letters(codes, bb + offset, bl - offset)
        differ = diff != 0
        # The first letter that differs is the first nonzero one of the big-endian key:
        # count the letters to its right by where the key falls among powers of 2.
        right = np.searchsorted(_letter_steps(codes.dtype), diff[differ], side="right")
        common[active[differ]] = offset + per - 1 - right
        active = active[~differ]
        active = active[common[active] > offset + per]
        offset += per
    return common


def offset_dtype(size: int) -> type:
    """The integer type of positions in a text of ``size`` codes: int32 where it fits
    (half the memory of the per-node positions a graph keeps)."""
    return np.int32 if size < 1 << 31 else np.int64


def gather_strings(
    codes: np.ndarray, src: np.ndarray, length: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The strings of ``length`` codes at positions ``src`` of ``codes``, laid end to end
    with a 0 after each, and where each starts in that buffer.

    Letter positions are made a block of strings at a time, in int32 where the text
    allows: they are the largest temporaries of a decode.
    """
    width = length.astype(np.int64) + 1
    begin = np.cumsum(width) - width
    buffer = np.empty(int(width.sum()), dtype=codes.dtype)
    position = np.int32 if len(codes) < 1 << 30 else np.int64  # int32: less to move
    block = 1 << 17  # strings at a time: bounds the memory of the letter positions
    for lo in range(0, len(src), block):
        w = width[lo : lo + block].astype(position)
        s = src[lo : lo + block].astype(position)
        local = (begin[lo : lo + block] - begin[lo]).astype(position)
        index = np.arange(int(w.sum()), dtype=position) + np.repeat(s - local, w)
        buffer[begin[lo] : begin[lo] + len(index)] = codes[index]
    buffer[begin + length] = 0
    return buffer, begin


def _decode(
    code_points: np.ndarray, codes: np.ndarray, src: np.ndarray, length: np.ndarray
) -> list[str]:
    """Python strings of ``length`` letters from positions ``src`` of ``codes``.

    All at once: the codes go into one buffer with a 0 after each string, become
    characters through the small table ``code_points`` (the text itself is never
    converted, so a few strings cost a few strings), and Python decodes and splits the
    buffer in C.
    """
    if not len(src):
        return []
    wide = int(code_points[-1]) > 255
    chars = code_points.astype("<u4" if wide else np.uint8)
    buffer, _ = gather_strings(codes, src, length)
    strings = chars[buffer].tobytes().decode("utf-32-le" if wide else "latin-1").split(_SEPARATOR)
    del strings[-1]
    return strings


_DECODE_ROWS = 1 << 16
"""Strings decoded at a time when many are asked for: bounds the decode's buffers."""


class PackedKeys(Sequence[str]):
    """Strings kept as letter codes and decoded only when asked for: a graph's keys (see
    `ghostdb.games.base.Keys`).

    String i is the ``lengths[i]`` letters at ``codes[src[i]:]``, code c standing for the
    character ``code_points[c]``.  A Ghost graph's fragments share the letters of the
    words they are part of, so a fragment costs 8 bytes here where a Python string costs
    50 to 100 and a list of them 8 more; writing a solution decodes a chunk at a time.
    Equal to a list (or tuple) of the same strings, as tests and verify compare them.
    """

    __hash__ = None  # type: ignore[assignment]  # equal to lists, so not hashable

    def __init__(
        self, codes: np.ndarray, code_points: np.ndarray, src: np.ndarray, lengths: np.ndarray
    ) -> None:
        self.codes = codes
        self.code_points = code_points
        self.src = src.astype(offset_dtype(len(codes)), copy=False)
        self.lengths = lengths.astype(np.int32, copy=False)

    def __len__(self) -> int:
        return len(self.src)

    def __repr__(self) -> str:
        return f"<PackedKeys: {len(self):,} strings>"

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> list[str]: ...

    def __getitem__(self, index: int | slice) -> str | list[str]:
        if isinstance(index, slice):
            return self._strings(self.src[index], self.lengths[index])
        i = operator.index(index)
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(f"key {index} of {len(self)}")
        start = int(self.src[i])
        letters = self.codes[start : start + int(self.lengths[i])]
        return self.code_points[letters].astype("<u4").tobytes().decode("utf-32-le")

    def __iter__(self) -> Iterator[str]:
        for lo in range(0, len(self), _DECODE_ROWS):
            yield from self[lo : lo + _DECODE_ROWS]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PackedKeys | list | tuple):
            return NotImplemented
        return len(self) == len(other) and all(map(operator.eq, self, other))

    def take(self, indices: np.ndarray) -> list[str | None]:
        """The strings at ``indices``, None where an index is -1 (no such node)."""
        indices = np.asarray(indices)
        found = indices >= 0
        if found.all():
            return self._strings(self.src[indices], self.lengths[indices])
        at = indices[found]
        out = np.full(len(indices), None, dtype=object)
        strings = np.empty(len(at), dtype=object)
        strings[:] = self._strings(self.src[at], self.lengths[at])
        out[found] = strings
        return out.tolist()

    def reorder(self, order: np.ndarray) -> PackedKeys:
        """The same strings in another order (string ``order[i]`` first), still packed."""
        return PackedKeys(self.codes, self.code_points, self.src[order], self.lengths[order])

    def _strings(self, src: np.ndarray, lengths: np.ndarray) -> list[str]:
        if len(src) <= _DECODE_ROWS:
            return _decode(self.code_points, self.codes, src, lengths)
        out: list[str] = []
        for lo in range(0, len(src), _DECODE_ROWS):
            hi = lo + _DECODE_ROWS
            out += _decode(self.code_points, self.codes, src[lo:hi], lengths[lo:hi])
        return out
