"""Puzzles: positions a game can reach where the player to move has exactly one winning
move and at least one other, found over a solved graph at once (for two players).

A puzzle's difficulty is what finding the move takes: how long the win still is (the
moves to the end with best play: a longer win is harder to see through) and how many
other moves there are to reject.  ``easy``: a win in at most 3 moves; ``hard``: one of 7
or more, or of 5 or more among 8 or more other moves; ``medium`` the rest.  In a word
game whose language has word frequencies, the word the winning line ends on moves it one
step: a rare word (Zipf frequency below `RARE`, or unknown) one harder, a common one
(`COMMON` or more) one easier: seeing a win through *ottava* (unknown to wordfreq) is harder
than one through *queen*.
"""

from __future__ import annotations

from collections.abc import Callable, Collection

import numpy as np

from ghostdb.games.base import LOSS, NOT_FINAL, WIN, PositionGraph
from ghostdb.solvers.core import Values

DIFFICULTIES = ("easy", "medium", "hard")
RARE = 1.0
"""Zipf frequency (log10 of uses in a billion words) below which a word is rare: about
one use in 100 million words or fewer, or none wordfreq knows (half of the words ENABLE's
puzzles end on)."""
COMMON = 3.0
"""Zipf frequency from which a word is common: a use in a million words or more
(*queen* 4.9, *hmm* 4.1; a tenth of ENABLE's puzzles)."""
KEPT = 20_000
"""The most puzzles kept for one solution: spread evenly over its positions in order."""


def puzzle_nodes(graph: PositionGraph, values: Values) -> tuple[np.ndarray, np.ndarray]:
    """The nodes that are puzzles: reachable, not final, a win for the mover by exactly
    one move (its child a loss for the opponent) with at least one other move; and every
    node's number of plays."""
    parent, child = graph.edge_parent, graph.edge_child
    play = child != parent  # a move back to the same position is no play
    n = graph.size
    plays = np.bincount(parent[play], minlength=n)
    winning = np.bincount(parent[play & (values.value[child] == LOSS)], minlength=n)
    found = (
        (winning == 1)
        & (plays >= 2)
        & (values.value == WIN)
        & values.reachable
        & (graph.final == NOT_FINAL)
    )
    return np.flatnonzero(found), plays


def difficulty(length: int, others: int, zipf: float | None = None) -> str:
    """See the module's docstring (``zipf``: the deciding word's Zipf frequency, None
    where there is no word or no frequency to weigh)."""
    if length <= 3:
        step = 0
    elif length >= 7 or (length >= 5 and others >= 8):
        step = 2
    else:
        step = 1
    if zipf is not None:
        step += 1 if zipf < RARE else -1 if zipf >= COMMON else 0
    return DIFFICULTIES[min(max(step, 0), len(DIFFICULTIES) - 1)]


def line_ends(graph: PositionGraph, values: Values, nodes: np.ndarray) -> np.ndarray:
    """Where best play from each of ``nodes`` ends: a final node (-1 where a line has no
    end: a draw's), all walked together one move a step."""
    at = nodes.astype(np.int64, copy=True)
    for _ in range(int(values.length[nodes].max(initial=0)) + 1):
        going = (at >= 0) & (graph.final[np.maximum(at, 0)] == NOT_FINAL)
        if not going.any():
            break
        at[going] = values.best[at[going]]
    return at


def puzzles(
    graph: PositionGraph,
    values: Values,
    zipfs: Callable[[Collection[str]], dict[str, float]] | None = None,
) -> dict[str, object]:
    """The kept body: how many puzzles there are, and up to `KEPT` of them as
    ``[key, game length, other moves, difficulty]``, in node order.  ``zipfs`` gives
    words' Zipf frequencies (a word game in a language with frequencies): the word each
    winning line ends on then weighs in its difficulty."""
    nodes, plays = puzzle_nodes(graph, values)
    total = len(nodes)
    if total > KEPT:
        nodes = nodes[np.linspace(0, total - 1, KEPT).astype(np.int64)]
    keys = graph.keys.take(nodes)
    lengths = values.length[nodes].tolist()
    others = (plays[nodes] - 1).tolist()
    if zipfs is None:
        weights: list[float | None] = [None] * len(nodes)
    else:
        words = graph.keys.take(line_ends(graph, values, nodes))
        zipf = zipfs({w for w in words if w is not None})
        weights = [None if w is None else zipf.get(w) for w in words]
    return {
        "count": total,
        "puzzles": [
            [key, length, other, difficulty(length, other, weight)]
            for key, length, other, weight in zip(keys, lengths, others, weights, strict=True)
        ],
    }
