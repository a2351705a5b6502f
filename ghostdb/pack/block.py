"""A block record, decoded only as far as a probe needs (`Block`): its layout is in
`ghostdb.pack.format`."""

from __future__ import annotations

import bisect
import zlib
from itertools import accumulate
from typing import Any, NamedTuple

try:  # zlib-ng inflates the same DEFLATE in a third of zlib's time; zlib where it is not
    from zlib_ng.zlib_ng import decompress as _inflate
    from zlib_ng.zlib_ng import error as _InflateError
except ImportError:  # pragma: no cover - a platform without its wheel
    from zlib import decompress as _inflate
    from zlib import error as _InflateError

from ghostdb.pack.format import NONE, RESTART, PackError, Record, get_varint

WARM = 64
"""Finds in one block after which all its keys are decoded (a find reads part of one
run, decoding every key costs about a hundred finds)."""
KEY_BYTES = 64
"""About what a decoded key costs in memory (a bytes object of about ten letters, and its
place in a list)."""


class Layout(NamedTuple):
    """Where a block record's columns lie (`Block.plain`)."""

    raw: bytes
    n: int
    drops: int
    """Where the n bytes each key drops begin; the n bytes each adds follow them."""
    rests: int
    """Where the bytes the keys add begin, one key's after another's."""
    reach: int
    """Where they end (and the reachable column begins)."""
    values: int
    """Where the value column's n low bytes begin; its n high bytes follow them."""


class Block:
    """A block's records, decoded only as far as a probe needs: the whole keys of its
    restarts (every `RESTART`-th key) to search, then one run's keys decoded up to the
    one looked for; a record's fields are read from the fixed-width columns when asked
    for.  A cold block costs an inflate and a few C-speed passes, not a Python loop a key
    (it is most of what a probe of a cold block costs, and of a fresh process's probe)."""

    __slots__ = (
        "_all",
        "_at",
        "_drops",
        "_finds",
        "_labels",
        "_lengths",
        "_raw",
        "_reach",
        "_restarts",
        "_rests",
        "_safe",
        "_starts",
        "_values",
        "n",
    )

    def __init__(self, raw: bytes) -> None:
        self._raw = raw
        n, at = get_varint(raw, 0)
        self.n = n
        self._at = at
        self._drops, at = _varints(raw, at, n)
        self._lengths, at = _varints(raw, at, n)
        self._rests = at
        tail = (n + 7) // 8 + 4 * n  # reachable, value, safe seats
        self._labels: list[str | None] | None = None
        if len(raw) - n - tail >= at and raw.count(0, len(raw) - n) == n:
            # No labels (the common case: a 0 each, the last n bytes).  Where the added
            # bytes end is found from the end: their sum is made when first needed.
            self._reach = len(raw) - n - tail
        else:
            self._reach = at + sum(self._lengths)
            at = self._reach + tail
            if at > len(raw):
                raise ValueError("its columns do not add up")
            labels: list[str | None] = []
            for _ in range(n):
                v, at = get_varint(raw, at)
                labels.append(None if v == 0 else raw[at : at + v - 1].decode())
                at += max(0, v - 1)
            if at != len(raw):
                raise ValueError("its columns do not add up")
            self._labels = labels
        at = self._reach + (n + 7) // 8
        self._values, self._safe = at, at + 2 * n  # low bytes, then high bytes, each
        self._starts: list[int] = []
        self._restarts: list[bytes] = []
        self._all: list[bytes] | None = None
        self._finds = 0

    def __len__(self) -> int:
        return self.n

    def _runs(self) -> None:
        """Where each run's added bytes start (a sum a run, in C), and each run's first
        key: made when first needed (a block read for a batch, `ghostdb.pack.search`,
        does without).  (The block's hash was checked before it was decoded; `ghostdb
        verify` reads every key in order.)"""
        lengths, runs = self._lengths, range(0, self.n, RESTART)
        starts = list(
            accumulate((sum(lengths[r : r + RESTART]) for r in runs), initial=self._rests)
        )
        if starts[-1] != self._reach:
            raise PackError("does not decode (its columns do not add up)")
        self._starts = starts
        self._restarts = [  # a restart drops all of the key before: its rest is all of it
            self._raw[starts[k] : starts[k] + lengths[r]] for k, r in enumerate(runs)
        ]

    @property
    def first(self) -> bytes:
        """Its first key (which drops nothing: all of it is its added bytes)."""
        return self._raw[self._rests : self._rests + self._lengths[0]] if self.n else b""

    def key(self, i: int) -> bytes:
        """Key ``i``: its restart's whole key, then the keys after it in its run."""
        first = i - i % RESTART
        return self._run(first, i + 1)[-1]

    @property
    def size(self) -> int:
        """About the bytes it holds decoded (what a pack's cache counts)."""
        return len(self._raw) + (0 if self._all is None else KEY_BYTES * self.n)

    def asked(self, finds: int) -> None:
        """Count ``finds`` made of it elsewhere (`ghostdb.pack.search`), toward `WARM`
        and toward joining (`ghostdb.pack.reader.JOIN_FROM`)."""
        self._finds += finds

    def forget(self) -> None:
        """Let the decoded keys go (a pack that keeps them elsewhere: `Pack.values`)."""
        self._all, self._finds = None, 0

    @property
    def finds(self) -> int:
        """The finds asked of it so far (up to `WARM`, after which its keys are decoded)."""
        return self._finds

    @property
    def keys(self) -> list[bytes]:
        """Every key, in order (decoded once, when first asked for)."""
        if self._all is None:
            self._all = [k for r in range(0, self.n, RESTART) for k in self._run(r)]
        return self._all

    def _run(self, first: int, end: int | None = None) -> list[bytes]:
        """The keys of the run from restart ``first`` (up to ``end``)."""
        end = min(first + RESTART, self.n) if end is None else end
        if not self._starts:
            self._runs()
        key = self._restarts[first // RESTART]
        found = [key]
        raw, drops, lengths = self._raw, self._drops, self._lengths
        at = self._starts[first // RESTART] + len(key)
        for j in range(first + 1, end):
            step = lengths[j]
            key = key[: len(key) - drops[j]] + raw[at : at + step]
            at += step
            found.append(key)
        return found

    def find(self, key: bytes) -> int:
        """The index of ``key`` in the block, or -1: a binary search of the restarts'
        whole keys, then one run read up to ``key`` (`_scan`); after `WARM` finds, a
        binary search of every key, decoded once."""
        if self._all is None:
            self._finds += 1
            if self._finds > WARM:
                self.keys  # noqa: B018 - decodes them all, once
        if self._all is not None:
            i = bisect.bisect_left(self._all, key)
            return i if i < self.n and self._all[i] == key else -1
        if not self._starts:
            self._runs()
        r = bisect.bisect_right(self._restarts, key) - 1
        if r < 0:
            return -1
        return self._scan(r, key)

    def _scan(self, r: int, key: bytes) -> int:
        """Find ``key`` in run ``r`` (whose restart is at most ``key``) without making the
        keys before it: only how much of ``key`` the key at hand shares (``m``) and its
        length are followed.  A key that keeps more than ``m`` bytes of the one before is
        still below ``key`` (its byte at ``m`` is the same, and below); one that keeps
        fewer is above (keys ascend); only one that keeps exactly ``m`` has its added
        bytes compared."""
        first = r * RESTART
        here = self._restarts[r]
        if here == key:
            return first
        m = _shared(here, key)
        length, size = len(here), len(key)
        raw, drops, lengths = self._raw, self._drops, self._lengths
        at = self._starts[r] + length
        end = min(first + RESTART, self.n)
        # (zip over the run's slices: a third faster than indexing each column a key)
        for j, step, drop in zip(
            range(first + 1, end), lengths[first + 1 : end], drops[first + 1 : end], strict=True
        ):
            kept = length - drop
            length = kept + step
            at += step
            if kept > m:
                continue
            if kept < m:
                return -1
            rest, want = raw[at - step : at], key[m : m + step]
            if rest == want:
                m = length
                if m == size:
                    return j
                continue  # a prefix of key: below it
            c = _shared(rest, want)
            if c < len(want) and (c == len(rest) or rest[c] < want[c]):
                m += c
                continue
            return -1  # above key: key is not here
        return -1

    def record(self, i: int, key: bytes | None = None) -> Record:
        """Position ``i``'s record (``key``: its key, where the caller has it already);
        its best play None (a pack does not hold it)."""
        if key is None:
            key = self._all[i] if self._all is not None else self.key(i)
        return (key.decode(), *self._fields(i))

    def records(self) -> list[Record]:
        return [(key.decode(), *self._fields(i)) for i, key in enumerate(self.keys)]

    def plain(self) -> Layout | None:
        """Where its columns lie, for `ghostdb.pack.search`; None unless every key
        drops and adds fewer than 128 bytes (a byte a number: the common case)."""
        if not (isinstance(self._drops, bytes) and isinstance(self._lengths, bytes)):
            return None
        return Layout(self._raw, self.n, self._at, self._rests, self._reach, self._values)

    def value_column(self) -> Any:
        """Every position's value column (see `value`), a numpy array of uint16."""
        import numpy as np

        raw, n, at = self._raw, self.n, self._values
        low = np.frombuffer(raw, np.uint8, n, at).astype(np.uint16)
        return low | np.frombuffer(raw, np.uint8, n, at + n).astype(np.uint16) << 8

    def columns(self) -> tuple[Any, Any, Any, list[str | None] | None]:
        """Every position's reachable flag (bool), value column and safe-seat mask
        (`NONE` for none; both uint16) as numpy arrays, and the labels (None where no
        position has one): a whole pass reads these, not a record a position."""
        import numpy as np

        raw, n = self._raw, self.n
        bits = np.frombuffer(raw, np.uint8, (n + 7) // 8, self._reach)
        reachable = np.unpackbits(bits, count=n, bitorder="little").astype(bool)
        low = np.frombuffer(raw, np.uint8, n, self._safe).astype(np.uint16)
        safe = low | np.frombuffer(raw, np.uint8, n, self._safe + n).astype(np.uint16) << 8
        return reachable, self.value_column(), safe, self._labels

    def value(self, i: int) -> int:
        """Position ``i``'s value column: the outcome's code in the low two bits, above
        them the game length + 1, or 0."""
        raw = self._raw
        return raw[self._values + i] | raw[self._values + self.n + i] << 8

    def _fields(self, i: int) -> tuple[bool, int, int | None, None, int | None, str | None]:
        raw, n = self._raw, self.n
        value = self.value(i)
        safe = raw[self._safe + i] | raw[self._safe + n + i] << 8
        return (
            bool(raw[self._reach + (i >> 3)] >> (i & 7) & 1),
            value & 3,
            None if value < 4 else (value >> 2) - 1,
            None,
            None if safe == NONE else safe,
            None if self._labels is None else self._labels[i],
        )


def _shared(a: bytes, b: bytes) -> int:
    """How many bytes ``a`` and ``b`` begin with alike."""
    n = min(len(a), len(b))
    i = 0
    while i < n and a[i] == b[i]:
        i += 1
    return i


def _varints(raw: bytes, at: int, n: int) -> tuple[bytes | list[int], int]:
    """``n`` varints from ``at``: the bytes themselves where none has its high bit set
    (the common case: a key drops and adds fewer than 128 bytes), else one by one."""
    chunk = raw[at : at + n]
    if len(chunk) == n and chunk.isascii():  # every byte below 0x80, checked in C
        return chunk, at + n
    found = []
    for _ in range(n):
        v, at = get_varint(raw, at)
        found.append(v)
    return found, at


def decode_block(data: bytes) -> Block:
    """A deflated block record, decoded; PackError if it does not decode."""
    try:
        return Block(_inflate(data, -15))
    except (zlib.error, _InflateError, IndexError, UnicodeDecodeError, ValueError) as exc:
        raise PackError(f"does not decode ({exc})") from None
