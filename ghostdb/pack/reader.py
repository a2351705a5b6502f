"""Reading a pack: its header, a position as `lookup` answers it, and its checks."""

from __future__ import annotations

import bisect
import hashlib
import json
import mmap
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from ghostdb.errors import BadFragment, DeadFragment, GhostdbError
from ghostdb.games.registry import game_of, parse_rules
from ghostdb.pack.format import (
    END,
    HEAD,
    MAGIC,
    TAIL,
    VERSION,
    Block,
    BlockEntry,
    PackError,
    Record,
    decode_block,
    decode_index,
    root_hash,
)
from ghostdb.positions import position_from_rows
from ghostdb.values import Position

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
        if len(block) != entry.count or (len(block) and block.key(0) != entry.first):
            raise PackError(f"{str(self.path)!r} is damaged: {where} is not what its index says")
        return block

    def records(self) -> Iterator[Record]:
        """Every position's record, in key order."""
        for number in range(len(self.index)):
            yield from self._read_block(number, self.index[number]).records()

    def record(self, key: str) -> Record | None:
        """The record of (canonical) ``key``; None if the pack holds no such position."""
        return self._record_of(key.encode())

    def record_many(self, keys: Sequence[str]) -> list[Record | None]:
        """`record` of each (canonical) key, in order: read in key order, so that a
        batch reads each block it touches once."""
        raws = [k.encode() for k in keys]
        found: list[Record | None] = [None] * len(raws)
        for i in sorted(range(len(raws)), key=raws.__getitem__):
            found[i] = self._record_of(raws[i])
        return found

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
        pack does not hold."""
        game = self.game
        key = game.clean_key(position) if position else game.start()
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
        """`probe` of each, in order: a Position, or the error that position gives."""
        found: list[Position | GhostdbError] = []
        for position in positions:
            try:
                found.append(self.probe(position))
            except (BadFragment, DeadFragment) as exc:
                found.append(exc)
        return found
