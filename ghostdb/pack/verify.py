"""`ghostdb verify FILE`: a pack checked whole, without the store it came from.

Every block is read: its hash against the index (the root hash over the header and the
index is checked on opening), its record decoded, its keys in order across the whole
file and the counts against the header.  Then, for two players, every position that is
not final is worked out again from the positions one move on, as the solver works it
out and as `ghostdb verify` checks a store: its outcome (the best of its moves' outcomes
for the mover) and its game length (the shortest win, the longest loss; none for a
draw).  A pack holds no best move: a probe reads it from those same values.  Whether a
position is final, and the values of final ones, come from the word list, which a pack
does not hold: `--db` compares the pack with the stored solution position for position,
each best move the pack gives against the stored one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ghostdb.games.base import VALUE_NAMES
from ghostdb.pack.format import PackError, Record
from ghostdb.pack.reader import Pack

FLIP = (3, 1, 2, 0)
"""A move's value for its mover from the value of the position it leads to (codes of
`ghostdb.games.base.VALUE_NAMES`: loss, draw, tie, win)."""
LOSS, DRAW = 0, 1
EXAMPLES = 5


@dataclass
class PackVerdict:
    """What `verify_pack` found: problems by kind, with a few examples each."""

    positions: int = 0
    checked: int = 0
    """Positions whose values were worked out again from their moves."""
    final: int = 0
    """Positions where the game is over: the rules value them, there are no moves to
    check them against (``verify FILE --db`` compares them with the store)."""
    moves_checked: bool = False
    """Whether the values were checked against the moves (two players, blocks whole)."""
    problems: dict[str, list[str]] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)

    def found(self, kind: str, example: str) -> None:
        self.counts[kind] = self.counts.get(kind, 0) + 1
        examples = self.problems.setdefault(kind, [])
        if len(examples) < EXAMPLES:
            examples.append(example)

    @property
    def ok(self) -> bool:
        return not self.counts


def verify_pack(
    pack: Pack, *, moves: bool = True, progress: Callable[[int, int], None] | None = None
) -> PackVerdict:
    """Check ``pack`` whole (see the module's docstring); with ``moves`` (the default),
    every position against its moves too (a hundred candidate moves a position under
    SuperDuperGhost: about 100 s for ENABLE's million positions)."""
    verdict = PackVerdict()
    held = _check_blocks(pack, verdict)
    if moves and verdict.ok and getattr(pack.rules, "players", 2) == 2:
        verdict.moves_checked = True
        _check_values(pack, verdict, held, progress)
    return verdict


def _check_blocks(pack: Pack, verdict: PackVerdict) -> dict[str, tuple[int, int | None]]:
    """Every block read and checked; every position's (outcome, game length), which the
    check of the values reads (one pass over the blocks, not two)."""
    held: dict[str, tuple[int, int | None]] = {}
    before: bytes | None = None
    reachable = 0
    for number in range(len(pack.index)):
        try:
            records = pack.block(number).records()
        except PackError as exc:
            verdict.found("damaged block", str(exc))
            continue
        for record in records:
            key = record[0].encode()
            if before is not None and key <= before:
                verdict.found("order", f"block {number}: {record[0]!r} is out of key order")
            before = key
            reachable += record[1]
            held[record[0]] = (record[2], record[3])
        verdict.positions += len(records)
    expected = (pack.header.get("positions"), pack.header.get("reachable"))
    if verdict.ok and (verdict.positions, reachable) != expected:
        verdict.found(
            "counts",
            f"the header says {expected[0]:,} positions ({expected[1]:,} reachable), the "
            f"blocks hold {verdict.positions:,} ({reachable:,})",
        )
    return held


def _check_values(
    pack: Pack,
    verdict: PackVerdict,
    held: dict[str, tuple[int, int | None]],
    progress: Callable[[int, int], None] | None,
) -> None:
    """Every position not final against the positions one move on, read from ``held``,
    every position's outcome and length (a probe a move would read blocks over and over)."""
    game = pack.game
    for n, record in enumerate(pack.records()):
        if progress and n % 65_536 == 0:
            progress(n, verdict.positions)
        key, length, safe = record[0], record[3], record[5]
        if length == 0 or safe is not None:  # final: the word list says (see --db)
            verdict.final += 1
            continue
        plays = [
            found
            for _, child in game.candidates(key)
            if child != key and (found := held.get(child)) is not None
        ]
        if not plays:
            verdict.found("moves", f"{key!r} is not final, yet no position one move on is held")
            continue
        verdict.checked += 1
        _check_one(verdict, record, plays)


def _check_one(verdict: PackVerdict, record: Record, plays: list[tuple[int, int | None]]) -> None:
    """One position against its moves' (outcome, game length), in move order."""
    key, _, outcome, length, _, _, _ = record
    mine = [FLIP[p[0]] for p in plays]
    value = max(mine)
    achieving = [p[1] for p, m in zip(plays, mine, strict=True) if m == value]
    if value == DRAW:
        expected_length = None
    elif value == LOSS:
        expected_length = max(x or 0 for x in achieving) + 1
    else:
        expected_length = min(x or 0 for x in achieving) + 1
    names = VALUE_NAMES
    if outcome != value:
        verdict.found(
            "outcome", f"{key!r} is held as a {names[outcome]}; its moves make it a {names[value]}"
        )
    elif length != expected_length:
        verdict.found(
            "game length", f"{key!r}: held length {length}, its moves give {expected_length}"
        )
