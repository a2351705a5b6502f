"""Every position of a pack against the positions one move on, by whole arrays (for
`ghostdb.pack.verify`), as the solvers work over a graph's edges and as `ghostdb verify`
checks a store: no loop a position.

The moves come from the game's own rules, never from the solver that wrote the values:
`Game.build` makes every position and move of the rule set, from the rules alone
(a game without words) or from the words the pack's final positions are (a word game
whose final keys are its words: each word of the dictionary long enough to end a game is
a final position).  The pack must hold exactly those positions; each final one must have
the value its rules give it, each other one the value and game length worked out from
the positions one move on (the best of its moves' outcomes for the mover; the shortest
win, the longest loss, no length for a draw), and the reachable flag the start and the
reachable positions' moves give.  A word game whose keys are not its words (Anagram
Ghost: sorted letters) is checked a position at a time from the game's candidate moves
(`check_by_candidates`), its final positions taken as held.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ghostdb.errors import GhostdbError
from ghostdb.games.base import DRAW, FLIP, LOSS, NOT_FINAL, VALUE_NAMES, Game, PositionGraph
from ghostdb.pack.format import NONE
from ghostdb.pack.whole import Whole

Found = Callable[[str, int, list[str]], None]
"""How a check tells of problems: ``found(kind, how many, a few examples)``."""

PIECE = 1 << 16
"""Keys of the graph looked up in the pack at once (made Python strings a piece at a
time, a few MB: all at once they would be most of the memory)."""
BIG = 1 << 30
"""Above any game length (an int32 column holds it)."""
NO_LENGTH = -1
"""A position's game length where it has none (a draw)."""
EXAMPLES = 5


def graph_of(game: Game, words: list[str], found: Found) -> PositionGraph | None:
    """Every position and move of ``game``'s rule set, from its rules, or from ``words``
    (the pack's final positions, in key order) for a word game; None where they cannot be
    made that way (a word game whose keys are not its words)."""
    if game.word_game and not game.keys_are_words:
        return None
    try:
        return game.build(words if game.word_game else None)
    except GhostdbError as exc:
        found("moves", 1, [f"the moves of {game.rules.describe()} cannot be made: {exc}"])
        return None


def rows_of(graph: PositionGraph, whole: Whole) -> Any:
    """The pack's row of each node of ``graph``, -1 for a position it does not hold."""
    import numpy as np

    held, width = whole.keys, whole.keys.dtype.itemsize
    rows = np.full(graph.size, -1, np.int32)
    if not len(held):
        return rows
    for lo in range(0, graph.size, PIECE):
        hi = min(lo + PIECE, graph.size)
        sought, fits = _fixed(graph.keys.take(np.arange(lo, hi)), width)
        at = np.minimum(np.searchsorted(held, sought), len(held) - 1)
        rows[lo:hi] = np.where(fits & (held[at] == sought), at, -1)
    return rows


def _fixed(keys: list[str], width: int) -> tuple[Any, Any]:
    """``keys`` as UTF-8 in fixed-width bytes of ``width``, and whether each fits: one
    text encoded and cut by numpy, not a Python step a key."""
    import numpy as np

    text = np.frombuffer("\n".join(keys).encode() + b"\n", np.uint8)
    ends = np.flatnonzero(text == 10)  # (a key holds no newline: a game's never does)
    starts = np.concatenate(([0], ends[:-1] + 1))
    lengths = ends - starts
    fits = lengths <= width
    take = np.minimum(lengths, width)
    matrix = np.zeros(len(keys) * width + 1, np.uint8)
    where = np.repeat(np.arange(len(keys)) * width - np.cumsum(take) + take, take)
    where += np.arange(len(where))
    inside = np.repeat(starts - np.cumsum(take) + take, take) + np.arange(len(where))
    matrix[where] = text[inside]
    return matrix[:-1].view(f"S{width}"), fits & (len(ends) == len(keys))


def check_graph(graph: PositionGraph, whole: Whole, found: Found) -> int:
    """Check the pack against ``graph`` (see the module's docstring); the positions whose
    values were worked out from their moves."""
    import numpy as np

    rows = rows_of(graph, whole)
    present = rows >= 0
    missing = np.flatnonzero(~present)
    found(
        "missing position",
        len(missing),
        [f"{shown(graph.keys[i])} is a position of the rules" for i in missing[:EXAMPLES]],
    )  # (in the graph's order: level by level, the pack holds none of them)
    extra = np.ones(len(whole.keys), bool)
    extra[rows[present]] = False
    extra = np.flatnonzero(extra)
    found(
        "extra position",
        len(extra),
        [f"{shown(whole.key(i))} is no position of the rules" for i in extra[:EXAMPLES]],
    )
    value = np.where(present, whole.outcome[rows], -1).astype(np.int8)
    length = np.where(present, whole.length[rows], NO_LENGTH).astype(np.int32)
    final = graph.final != NOT_FINAL
    checkable, expected, expected_length = derive(
        graph.size, graph.edge_parent, graph.edge_child, value, length
    )
    expected = np.where(final, graph.final, expected)
    expected_length = np.where(final, 0, expected_length)
    check = (checkable | final) & present
    compare(found, check, (value, length), (expected, expected_length), final, graph.keys, rows)
    _check_reachable(graph, rows, whole, found)
    if whole.labels is not None and graph.labels is None:
        labelled = [i for i, label in enumerate(whole.labels) if label is not None]
        found(
            "label",
            len(labelled),
            [f"{shown(whole.key(i))} is labelled, yet the rules label nothing" for i in labelled],
        )
    return int((checkable & present & ~final).sum())


def best_plays(game: Game, graph: PositionGraph, whole: Whole) -> Any:
    """The number of the play a probe of each of the pack's rows gives as its best move
    (`ghostdb.positions.derived_best`), for every row at once: the plays of a position
    are its moves to other positions the pack holds, in move order; for two players the
    first that achieves the best outcome and length for the mover (wins soonest, then
    ties soonest, draws, losses latest), with more the first after which the mover is
    still safe, else the first.  -1 where a row has no play, -2 for a row that is no
    position of ``graph`` (its plays are not known here)."""
    import numpy as np

    rows = rows_of(graph, whole)
    found = np.full(len(whole.keys), -2, np.int32)
    found[rows[rows >= 0]] = -1
    parent, child = graph.edge_parent, graph.edge_child
    play = (rows[child] >= 0) & (rows[parent] >= 0) & (child != parent)
    parent, child = parent[play], child[play]
    if not len(parent):
        return found
    starts = np.flatnonzero(np.r_[True, parent[1:] != parent[:-1]])
    counts = np.diff(np.r_[starts, len(parent)])
    moved = rows[child]
    if getattr(game.rules, "players", 2) == 2:  # each play's rank for the mover
        outcome = whole.outcome[moved].astype(np.int64)
        length = whole.length[moved].astype(np.int64)
        kind = np.array([0, 2, 1, 3])[outcome]  # a win, a tie, a draw, a loss for the mover
        length = np.where(kind == 2, 0, np.where(kind == 3, -length, length))
        rank = kind << 32 | (length + (1 << 31))
        best = rank == np.repeat(np.minimum.reduceat(rank, starts), counts)
    else:  # more: the plays after which the mover is still safe
        heads = rows[parent[starts]]
        movers = [game.to_move(key) for key in whole.texts(_mask(len(whole.keys), heads))]
        order = np.argsort(heads)  # (the texts come in the rows' order)
        mover = np.empty(len(heads), np.int64)
        mover[order] = movers
        best = (whole.safe[moved].astype(np.int64) >> np.repeat(mover, counts) & 1) == 1
    first = np.minimum.reduceat(np.where(best, np.arange(len(parent)), len(parent)), starts)
    found[rows[parent[starts]]] = np.where(first < len(parent), first - starts, 0)
    return found


def _mask(size: int, rows: Any) -> Any:
    import numpy as np

    mask = np.zeros(size, bool)
    mask[rows] = True
    return mask


def derive(n: int, parent: Any, child: Any, value: Any, length: Any) -> tuple[Any, Any, Any]:
    """From the values held one move on, along edges (``parent``, ``child``) grouped by
    parent over ``n`` positions: whether each position's moves are all held, and its
    value and game length by the rules of `ghostdb.solvers` (-1 and `NO_LENGTH` where it has
    no move).  ``value`` is -1 where a position is not held."""
    import numpy as np

    expected = np.full(n, -1, np.int8)
    expected_length = np.full(n, NO_LENGTH, np.int32)
    checkable = np.zeros(n, bool)
    if not len(parent):
        return checkable, expected, expected_length
    starts = np.flatnonzero(np.r_[True, parent[1:] != parent[:-1]])
    parents = parent[starts]
    mine = np.array([*FLIP, -1], np.int8)[value[child]]  # each move's value for its mover
    checkable[parents] = np.minimum.reduceat(mine, starts) >= 0
    expected[parents] = best = np.maximum.reduceat(mine, starts)
    achieves = mine == expected[parent]
    moved = length[child]
    shortest = np.minimum.reduceat(np.where(achieves, moved, BIG), starts)
    longest = np.maximum.reduceat(np.where(achieves, moved, -BIG), starts)
    expected_length[parents] = np.where(
        best == DRAW, NO_LENGTH, np.where(best == LOSS, longest, shortest) + 1
    )
    return checkable, expected, expected_length


def compare(
    found: Found,
    check: Any,
    held: tuple[Any, Any],
    made: tuple[Any, Any],
    final: Any,
    keys: Sequence[str],
    rows: Any,
) -> None:
    """Tell of each position where ``check`` holds whose outcome, or else game length
    (``held``: the two columns), is not the one expected (``made``); ``keys`` and the
    pack's ``rows`` of the positions, whose order the examples follow."""
    import numpy as np

    (value, length), (expected, expected_length) = held, made
    wrong = check & (value != expected)
    at = np.flatnonzero(wrong)
    found(
        "outcome",
        len(at),
        [
            f"{shown(keys[i])} is held as a {_named(value[i])}; "
            f"{'the rules make' if final[i] else 'its moves make'} it a {_named(expected[i])}"
            for i in first(at, rows)
        ],
    )
    at = np.flatnonzero(check & ~wrong & (length != expected_length))
    found(
        "game length",
        len(at),
        [
            f"{shown(keys[i])}: held length {_length(length[i])}, "
            f"{'the rules give' if final[i] else 'its moves give'} {_length(expected_length[i])}"
            for i in first(at, rows)
        ],
    )


def first(at: Any, rows: Any) -> list[int]:
    """The first few of positions ``at`` in the pack's order (``rows``: their rows)."""
    import numpy as np

    return at[np.argsort(rows[at], kind="stable")[:EXAMPLES]].tolist()  # type: ignore[no-any-return]


def _check_reachable(graph: PositionGraph, rows: Any, whole: Whole, found: Found) -> None:
    """The start is reachable, and so is every position one move from a reachable one:
    where every move raises the level, that local rule decides each position whose
    every parent is held; with cycles, a search from the start does."""
    import numpy as np

    present = rows >= 0
    held = np.where(present, whole.reachable[rows], False)
    parent, child = graph.edge_parent, graph.edge_child
    expected = np.zeros(graph.size, bool)
    expected[graph.start] = True
    if graph.acyclic:
        expected[child[held[parent]]] = True
        orphaned = np.zeros(graph.size, bool)
        orphaned[child[~present[parent]]] = True
        check = present & ~orphaned
    else:
        order = np.argsort(parent, kind="stable")
        bounds = np.searchsorted(parent[order], np.arange(graph.size + 1))
        frontier = np.array([graph.start])
        while len(frontier):
            lo, counts = bounds[frontier], bounds[frontier + 1] - bounds[frontier]
            ends = np.cumsum(counts)
            edges = np.repeat(lo - ends + counts, counts) + np.arange(int(ends[-1]))
            reached = child[order[edges]]
            frontier = np.unique(reached[~expected[reached]])
            expected[frontier] = True
        check = present
    wrong = np.flatnonzero(check & (held != expected))
    found(
        "reachable",
        len(wrong),
        [
            f"{shown(graph.keys[i])} is held as "
            + ("reachable but no reachable position moves to it" if held[i] else
               "unreachable but a game can reach it")
            for i in first(wrong, rows)
        ],
    )  # fmt: skip


def check_by_candidates(
    game: Game, whole: Whole, found: Found, progress: Callable[[int, int], None] | None
) -> int:
    """Every position that is not final (game length 0, or safe seats: the word list
    says, which a pack does not hold) against the held positions among the game's
    candidate moves: found for all at once where the game can (`Game.moves_among`),
    else a position at a time; the positions checked."""
    import numpy as np

    n = len(whole.keys)
    length = whole.length
    is_open = (length != 0) & (whole.safe == NONE)
    batch = None if whole.nul else game.moves_among(whole.keys)
    if batch is None:
        if whole.nul:  # fixed-width bytes drop a NUL at a key's end
            texts = [whole.key(row) for row in range(n)]
        else:
            texts = [key.decode() for key in whole.keys.tolist()]
        keys: Sequence[str] = texts
        parent, child = _candidate_moves(game, texts, np.flatnonzero(is_open).tolist(), progress)
    else:
        keys = _Keys(whole)  # (only the examples of a problem are read as text)
        parent, child = batch
        keep = is_open[parent]
        parent, child = parent[keep], child[keep]
        order = np.argsort(parent, kind="stable")  # grouped by parent, as derive asks
        parent, child = parent[order], child[order]
    moving = np.zeros(n, bool)
    moving[parent] = True
    stuck = np.flatnonzero(is_open & ~moving)
    found(
        "moves",
        len(stuck),
        [f"{keys[i]!r} is not final, yet no position one move on is held" for i in stuck[:5]],
    )
    value = whole.outcome.astype(np.int64)
    checkable, expected, expected_length = derive(n, parent, child, value, length)
    final = np.zeros(n, bool)
    rows = np.arange(n)
    compare(found, checkable, (value, length), (expected, expected_length), final, keys, rows)
    return int(checkable.sum())


class _Keys(Sequence[str]):
    """A pack's keys as text, one read when asked for (a problem's example)."""

    def __init__(self, whole: Whole) -> None:
        self.whole = whole

    def __getitem__(self, row: int) -> str:
        return self.whole.key(row)

    def __len__(self) -> int:
        return len(self.whole.keys)


def _candidate_moves(
    game: Game, keys: list[str], open_: list[int], progress: Callable[[int, int], None] | None
) -> tuple[Any, Any]:
    """(parent rows, child rows) of the moves from each of ``open_`` to a held position,
    from the game's candidates a position at a time, grouped by parent."""
    import numpy as np

    index = {key: row for row, key in enumerate(keys)}
    parents: list[int] = []
    children: list[int] = []
    for n, row in enumerate(open_):
        if progress and n % 65_536 == 0:
            progress(n, len(open_))
        plays = {
            i for _, child in game.candidates(keys[row])
            if child != keys[row] and (i := index.get(child)) is not None
        }  # fmt: skip
        parents += [row] * len(plays)
        children += plays
    return np.array(parents, np.int64), np.array(children, np.int64)


def shown(key: str) -> str:
    return repr(key) if key else "the start ('')"


def _named(code: int) -> str:
    return VALUE_NAMES[code] if 0 <= code < len(VALUE_NAMES) else "nothing held"


def _length(length: int) -> str:
    return "none" if length == NO_LENGTH else str(length)
