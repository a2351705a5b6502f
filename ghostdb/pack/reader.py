"""Reading a pack: its header, a position as `lookup` answers it, and its checks."""

from __future__ import annotations

import bisect
import hashlib
import json
import mmap
from collections import OrderedDict
from collections.abc import Collection, Iterator, Sequence
from itertools import pairwise
from pathlib import Path
from typing import Any, NamedTuple

from ghostdb.errors import BadFragment, DeadFragment, GhostdbError
from ghostdb.games.base import listed
from ghostdb.games.registry import game_of, parse_rules
from ghostdb.pack.block import Block, decode_block
from ghostdb.pack.format import (
    END,
    HEAD,
    MAGIC,
    TAIL,
    VERSION,
    BlockEntry,
    PackError,
    Record,
    decode_index,
    root_hash,
)
from ghostdb.positions import position_from_rows
from ghostdb.values import Position

JOIN_FROM = 32
"""Keys asked of a block (over the batches, `Pack.values`) from which its keys are
decoded whole and joined with those of other such blocks, to be searched together."""


class _Joined(NamedTuple):
    """The keys and values of blocks often asked for in batches, side by side."""

    keys: Any
    """Every key of those blocks, in key order, as fixed-width bytes (numpy)."""
    values: Any
    """Each key's value column (uint16: see `Block.value`)."""
    numbers: list[int]
    """The blocks, in order."""
    starts: list[int]
    """Where each block's keys begin (and, last, the end)."""
    member: Any
    """A bool a block of the pack: whether it is joined."""


class Values(NamedTuple):
    """A batch's answers (`Pack.values`), a numpy array each, a row a key."""

    outcome: Any
    """The outcome's code for the player to move (0 loss, 1 draw, 2 tie, 3 win, as
    `ghostdb.games.base.VALUE_NAMES` names them); -1 for a key the pack does not hold."""
    length: Any
    """The game length with best play; -1 for none (a draw, or a key not held)."""


CACHE_BYTES = 256 << 20
"""About how many bytes of decoded blocks a pack keeps (those read most recently): all
of Polish SuperDuperGhost/3's 19 million positions take about 160 MB."""


class Pack:
    """An open pack file (see `ghostdb.pack.format`); use as a context manager, or call
    `close`.  Opening reads the header and the index and checks the root hash over them;
    a block's own hash is checked when it is first read."""

    def __init__(self, path: Path, cache_bytes: int = CACHE_BYTES) -> None:
        self.path = Path(path)
        self.cache_bytes = cache_bytes
        try:
            with open(self.path, "rb") as file:
                self._map = mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ)
        except ValueError:  # an empty file cannot be mapped
            raise PackError(f"{str(self.path)!r} is empty, not a pack") from None
        try:
            self._open()
        except BaseException:
            self._map.close()
            raise
        # The blocks kept, with their `Block.size` as last counted (a block grows when
        # it decodes all its keys), and the sum of those.
        self._blocks: OrderedDict[int, tuple[Block, int]] = OrderedDict()
        self._held = 0
        self._joined: _Joined | None = None
        self._firsts_as: dict[int, Any] = {}
        self._first_width = 0  # the longest first key: found when a batch first needs it

    def _open(self) -> None:
        data = self._map
        if len(data) < HEAD.size + TAIL.size or data[:8] != MAGIC:
            raise PackError(f"{str(self.path)!r} is not a ghostdb pack (no pack header)")
        _, version, reserved, size = HEAD.unpack_from(data, 0)
        if version != VERSION:
            raise PackError(
                f"{str(self.path)!r} is a pack of format {version}, which this ghostdb does "
                f"not read (it reads format {VERSION}): a newer ghostdb's, or a damaged file"
            )
        if reserved != 0:  # the head is not under the root hash: every bit of it is checked
            raise PackError(f"{str(self.path)!r} is damaged: its head has a bit set that is not")
        at, length, root, end = TAIL.unpack_from(data, len(data) - TAIL.size)
        head_end = HEAD.size + size
        if end != END or not head_end <= at <= at + length <= len(data) - TAIL.size:
            raise PackError(f"{str(self.path)!r} is cut short or damaged at its end")
        self.header_bytes = bytes(data[HEAD.size : head_end])
        index = bytes(data[at : at + length])
        if root_hash(self.header_bytes, index) != root:
            raise PackError(
                f"{str(self.path)!r} is damaged: its header or index does not match its root hash"
            )
        try:
            self.header: dict[str, Any] = json.loads(self.header_bytes)
        except ValueError:
            raise PackError(f"{str(self.path)!r} is damaged: its header is not JSON") from None
        self.index: list[BlockEntry] = decode_index(index)
        self._firsts = [e.first for e in self.index]
        self._data_end = at
        self.root = root
        rules = parse_rules(self.header["rules"])
        self.rules = rules
        self.game = game_of(rules, self.header.get("alphabet", ""))
        self.name: str = self.header["name"]

    def close(self) -> None:
        self._map.close()

    def __enter__(self) -> Pack:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    @property
    def positions(self) -> int:
        return int(self.header["positions"])

    # -- blocks ------------------------------------------------------------------------------

    def block(self, number: int) -> Block:
        """Block ``number``, decoded, its hash checked when it is first read; those
        read most recently are kept, up to ``cache_bytes``."""
        blocks = self._blocks
        kept = blocks.get(number)
        if kept is not None:
            found, counted = kept
            blocks.move_to_end(number)
            if found.size == counted:
                return found
        else:
            found, counted = self._read_block(number, self.index[number]), 0
        blocks[number] = (found, found.size)
        self._held += found.size - counted
        while self._held > self.cache_bytes and len(blocks) > 1:
            self._held -= blocks.popitem(last=False)[1][1]
        return found

    def _read_block(self, number: int, entry: BlockEntry) -> Block:
        where = f"block {number} (positions from {entry.first.decode(errors='replace')!r})"
        end = entry.offset + entry.length
        if not HEAD.size <= entry.offset <= end <= self._data_end:
            raise PackError(f"{str(self.path)!r} is damaged: {where} lies outside the file")
        data = bytes(self._map[entry.offset : end])
        if hashlib.sha256(data).digest() != entry.sha256:
            raise PackError(f"{str(self.path)!r} is damaged: {where} does not match its hash")
        try:
            block = decode_block(data)
        except PackError as exc:
            raise PackError(f"{str(self.path)!r} is damaged: {where} {exc}") from None
        if len(block) != entry.count or block.first != entry.first:
            raise PackError(f"{str(self.path)!r} is damaged: {where} is not what its index says")
        return block

    def records(self) -> Iterator[Record]:
        """Every position's record, in key order."""
        for number in range(len(self.index)):
            yield from self._read_block(number, self.index[number]).records()

    def blocks(self) -> Iterator[Block | PackError]:
        """Every block in order, its hash checked, or the PackError that says how it is
        damaged: read once each and not kept (a pass over the whole pack would otherwise
        fill the cache with blocks it never reads again)."""
        for number, entry in enumerate(self.index):
            try:
                yield self._read_block(number, entry)
            except PackError as exc:
                yield exc

    def record(self, key: str) -> Record | None:
        """The record of (canonical) ``key``; None if the pack holds no such position."""
        return self._record_of(key.encode())

    def record_many(self, keys: Sequence[str]) -> list[Record | None]:
        """`record` of each (canonical) key, in order: read in key order, so that a
        batch reads each block it touches once."""
        raws = _encoded(keys)
        found: list[Record | None] = [None] * len(raws)
        for i in sorted(range(len(raws)), key=raws.__getitem__):
            found[i] = self._record_of(raws[i])
        return found

    def values(self, keys: Sequence[str]) -> Values:
        """The outcome and game length of each (canonical) key, for a batch at once.

        A key in a block asked for often (`JOIN_FROM` keys, over the batches) is
        searched with every other such key at once, in one array of the keys of all such
        blocks side by side (`_Joined`, made again when more blocks join it).  The keys
        in other blocks step through those blocks' runs all at once
        (`ghostdb.pack.search`): a block read for only a few keys is not decoded whole,
        which would cost more than the finds.  TypeError for a key that is not text, or
        one text in place of the list."""
        import numpy as np

        raws = _encoded(keys)
        found = Values(np.full(len(raws), -1, np.int8), np.full(len(raws), -1, np.int32))
        if not raws:
            return found
        if any(0 in raw for raw in raws):  # fixed-width bytes end at a NUL: one by one
            for row, raw in enumerate(raws):
                self._value_of(found, row, raw)
            return found
        width = max([1, *map(len, raws)])
        wanted = np.array(raws, dtype=f"S{width}")
        numbers = self._numbers(wanted)
        joined = self._joined
        inside = np.zeros(len(raws), bool) if joined is None else joined.member[numbers]
        inside &= numbers >= 0
        alone = np.flatnonzero(~inside & (numbers >= 0))
        order = alone[np.argsort(numbers[alone], kind="stable")]
        ordered = numbers[order]
        cuts = [0, *(np.flatnonzero(ordered[1:] != ordered[:-1]) + 1).tolist(), len(order)]
        joining: dict[int, Block] = {}
        scanned: list[Block] = []
        lanes: list[Any] = []
        for a, b in pairwise(cuts):
            if a == b:
                continue
            rows, number = order[a:b], int(ordered[a])
            block = self.block(number)
            if block.finds + b - a >= JOIN_FROM:
                joining[number] = block
            elif block.plain() is None:
                for row in rows.tolist():
                    self._value_of(found, row, raws[row], block)
            else:
                block.asked(b - a)
                scanned.append(block)
                lanes.append(rows)
        if scanned:
            self._scan(found, scanned, lanes, wanted)
        if joining:
            # the joined blocks this batch already counts on stay joined, whatever the
            # room: a row found inside above is answered by the search below only
            self._join(joining, keep=set(numbers[inside].tolist()))
            inside = self._joined.member[numbers] & (numbers >= 0)  # type: ignore[union-attr]
        if inside.any():
            self._search(found, np.flatnonzero(inside), wanted)
        return found

    def _scan(self, found: Values, blocks: list[Block], lanes: list[Any], wanted: Any) -> None:
        """Look the keys of ``lanes`` (rows of ``wanted``, a list a block) up in
        ``blocks``, all at once (`ghostdb.pack.search.find_many`)."""
        import numpy as np

        from ghostdb.pack.search import find_many

        rows = np.concatenate(lanes)
        which = np.repeat(np.arange(len(blocks)), [len(r) for r in lanes])
        _, value = find_many(blocks, which, wanted[rows])
        found.outcome[rows] = np.where(value >= 0, value & 3, -1)
        found.length[rows] = np.where(value >= 4, (value >> 2) - 1, -1)

    def _numbers(self, wanted: Any) -> Any:
        """The block each of ``wanted`` (fixed-width bytes) would be in; -1 for none."""
        import numpy as np

        if not self._first_width:
            self._first_width = max((len(f) for f in self._firsts), default=1) or 1
        size = max(wanted.dtype.itemsize, self._first_width)
        firsts = self._firsts_as.get(size)
        if firsts is None:
            firsts = self._firsts_as[size] = np.array(self._firsts, dtype=f"S{size}")
        return np.searchsorted(firsts, wanted.astype(f"S{size}"), side="right") - 1

    def _search(self, found: Values, rows: Any, wanted: Any) -> None:
        """Look ``rows`` of ``wanted`` up in the joined blocks, which hold their blocks."""
        import numpy as np

        joined = self._joined
        assert joined is not None
        size = joined.keys.dtype.itemsize
        lengths = np.char.str_len(wanted[rows])
        sought = wanted[rows].astype(f"S{size}")  # (a key longer than any held: not held)
        # In order: each search starts where the one before ended, in memory just read.
        order = np.argsort(sought)
        at = np.empty(len(rows), np.int64)
        at[order] = np.searchsorted(joined.keys, sought[order])
        at = np.minimum(at, len(joined.keys) - 1)
        hit = (joined.keys[at] == sought) & (lengths <= size)
        value = joined.values[at].astype(np.int32)
        found.outcome[rows] = np.where(hit, value & 3, -1)
        found.length[rows] = np.where(hit & (value >= 4), (value >> 2) - 1, -1)

    def _join(self, blocks: dict[int, Block], keep: Collection[int] = ()) -> None:
        """Lay the keys and values of ``blocks`` (by number) side by side with those
        joined before (those of ``keep``, and as many others as `cache_bytes` leaves room
        for), in key order."""
        import numpy as np

        parts = {}
        for number, block in blocks.items():
            keys = block.keys
            size = max([1, *map(len, keys)])
            parts[number] = (np.array(keys, dtype=f"S{size}"), block.value_column())
            block.forget()  # (kept here now; the cache counts it smaller when next read)
        room = self.cache_bytes - sum(k.nbytes + v.nbytes for k, v in parts.values())
        old = self._joined
        if old is not None:
            for i, number in enumerate(old.numbers):
                a, b = old.starts[i], old.starts[i + 1]
                cost = (b - a) * (old.keys.dtype.itemsize + 2)
                if number not in parts and (cost <= room or number in keep):
                    parts[number] = (old.keys[a:b], old.values[a:b])
                    room -= cost
        chosen = sorted(parts)
        size = max(parts[n][0].dtype.itemsize for n in chosen)
        keys = np.concatenate([parts[n][0].astype(f"S{size}") for n in chosen])
        values = np.concatenate([parts[n][1] for n in chosen])
        starts = np.concatenate(([0], np.cumsum([len(parts[n][1]) for n in chosen])))
        member = np.zeros(len(self.index), bool)
        member[chosen] = True
        self._joined = _Joined(keys, values, chosen, starts.tolist(), member)

    def _value_of(self, found: Values, row: int, raw: bytes, block: Block | None = None) -> None:
        if block is None:
            number = bisect.bisect_right(self._firsts, raw) - 1
            if number < 0:
                return
            block = self.block(number)
        i = block.find(raw)
        if i >= 0:
            value = block.value(i)
            found.outcome[row] = value & 3
            found.length[row] = (value >> 2) - 1 if value >= 4 else -1

    def _record_of(self, raw: bytes) -> Record | None:
        number = bisect.bisect_right(self._firsts, raw) - 1
        if number < 0:
            return None
        block = self.block(number)
        i = block.find(raw)
        return None if i < 0 else block.record(i, raw)

    # -- positions ----------------------------------------------------------------------------

    def probe(self, position: str = "") -> Position:
        """The position as ``ghostdb lookup`` answers it (the start when empty): its
        outcome, game length, best move and every legal move with its own values.
        BadFragment for text that is no position of the game, DeadFragment for one the
        pack does not hold, TypeError for a position that is not text."""
        game = self.game
        key = game.key_of(position)
        head = self.record(key)
        if head is None:
            raise DeadFragment(
                game.not_stored(key, lambda k: self.record(k) is not None, self.name)
            )
        candidates = game.candidates(key)
        rows: list[Sequence[Any]] = [head]
        for _, child in candidates:
            found = self.record(child)
            if found is not None:
                rows.append(found)
        return position_from_rows(self.name, game, key, rows, candidates, derive_best=True)

    def probe_many(self, positions: Sequence[str]) -> list[Position | GhostdbError]:
        """`probe` of each, in order: a Position, or the error that position gives
        (TypeError, raised, for a position that is not text or one text in place of the
        list)."""
        found: list[Position | GhostdbError] = []
        for position in listed(positions, self.game.position_noun):
            try:
                found.append(self.probe(position))
            except (BadFragment, DeadFragment) as exc:
                found.append(exc)
        return found


def _encoded(keys: Sequence[str]) -> list[bytes]:
    """Each key's bytes; TypeError (one line) for a key that is not text."""
    try:
        return [k.encode() for k in listed(keys, "key")]
    except AttributeError:
        bad = next(k for k in keys if not isinstance(k, str))
        raise TypeError(f"a key is text, not {bad!r}") from None
