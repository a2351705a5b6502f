"""`ghostdb verify FILE`: a pack checked whole, without the store it came from.

Every block is read (`ghostdb.pack.whole`): its hash against the index (the root hash
over the header and the index is checked on opening), its record decoded, its keys in
order across the whole file and the counts against the header.  Then, for two players,
every position is checked against the moves of its rule set by whole arrays
(`ghostdb.pack.moves`): the positions held are exactly the rule set's (made from the
rules, or from the words that are the pack's final positions), each final one has the
value its rules give, every other one the outcome (the best of its moves' outcomes for
the mover) and game length (the shortest win, the longest loss; none for a draw) the
positions one move on give, as the solver works them out and as `ghostdb verify` checks
a store, and each its reachable flag.  A pack holds no best move: a probe reads it from
those same values.  Which words there are, a pack does not hold: `--db` compares the
pack with the stored solution position for position, each best move the pack gives
against the stored one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import pairwise

from ghostdb.pack.format import NONE
from ghostdb.pack.moves import EXAMPLES, check_by_candidates, check_graph, graph_of
from ghostdb.pack.reader import Pack
from ghostdb.pack.whole import chunks, read_whole


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
        self.add(kind, 1, [example])

    def add(self, kind: str, count: int, examples: list[str]) -> None:
        """``count`` problems of ``kind``, of which ``examples`` (a few are kept)."""
        if not count:
            return
        self.counts[kind] = self.counts.get(kind, 0) + count
        kept = self.problems.setdefault(kind, [])
        kept.extend(examples[: EXAMPLES - len(kept)])

    @property
    def ok(self) -> bool:
        return not self.counts


def verify_pack(
    pack: Pack, *, moves: bool = True, progress: Callable[[int, int], None] | None = None
) -> PackVerdict:
    """Check ``pack`` whole (see the module's docstring); with ``moves`` (the default),
    every position against its moves too (about as long as the solve took)."""
    verdict = PackVerdict()
    words, nul = _check_blocks(pack, verdict)
    if not (moves and verdict.ok and getattr(pack.rules, "players", 2) == 2):
        return verdict
    # The moves are made before the keys are read again, whole: the two need not be
    # held at once (a solve's memory, not more).
    graph = None if nul else graph_of(pack.game, words, verdict.add)
    del words
    whole = read_whole(pack)
    verdict.moves_checked = True
    # the positions where the game is over (a game length of 0, or safe seats: the
    # word list says), which the rules value and no move checks
    verdict.final = int(((whole.length == 0) | (whole.safe != NONE)).sum())
    if graph is not None:
        verdict.checked = check_graph(graph, whole, verdict.add)
    elif verdict.ok:
        verdict.checked = check_by_candidates(pack.game, whole, verdict.add, progress)
    return verdict


def _check_blocks(pack: Pack, verdict: PackVerdict) -> tuple[list[str], bool]:
    """Every block read, decoded and checked, a few at a time: its keys above the one
    before across the whole file, the counts against the header.  The final positions'
    keys (a game length of 0), which a word game's moves are made from, and whether a
    key holds a NUL."""
    import numpy as np

    words: list[str] = []
    nul = False
    last: bytes | None = None
    positions = reachable = 0
    for part in chunks(pack, lambda why: verdict.found("damaged block", why)):
        nul |= part.nul
        keys = part.keys
        if part.nul:  # fixed-width bytes drop a NUL at the end: compare the keys
            raw = [part.raw(row) for row in range(len(keys))]
            above = np.array([b > a for a, b in pairwise(raw)], bool)
        else:
            above = keys[1:] > keys[:-1]
        wrong = (np.flatnonzero(~above) + 1).tolist()
        if last is not None and len(keys) and not part.raw(0) > last:
            wrong.insert(0, 0)
        verdict.add(
            "order",
            len(wrong),
            [
                f"block {part.block(row)}: {part.key(row)!r} is out of key order"
                for row in wrong[:EXAMPLES]
            ],
        )
        if len(keys):
            last = part.raw(len(keys) - 1)
        words += part.texts(part.values >> 2 == 1)  # the final positions: game length 0
        positions += len(keys)
        reachable += int(part.reachable.sum())
    verdict.positions = positions
    expected = (pack.header.get("positions"), pack.header.get("reachable"))
    if verdict.ok and (positions, reachable) != expected:
        verdict.found(
            "counts",
            f"the header says {expected[0]:,} positions ({expected[1]:,} reachable), the "
            f"blocks hold {positions:,} ({reachable:,})",
        )
    return words, nul
