"""Puzzles: positions a game can reach where the player to move has exactly one winning
move and at least one other, found over a solved graph at once (for two players).

A puzzle's difficulty is what finding the move takes: how long the win still is (the
moves to the end with best play: a longer win is harder to see through) and how many
other moves there are to reject.  ``easy``: a win in at most 3 moves; ``hard``: one of 7
or more, or of 5 or more among 8 or more other moves; ``medium`` the rest.
"""

from __future__ import annotations

import numpy as np

from ghostdb.games.base import LOSS, NOT_FINAL, WIN, PositionGraph
from ghostdb.solvers import Values

DIFFICULTIES = ("easy", "medium", "hard")
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


def difficulty(length: int, others: int) -> str:
    """See the module's docstring."""
    if length <= 3:
        return "easy"
    if length >= 7 or (length >= 5 and others >= 8):
        return "hard"
    return "medium"


def puzzles(graph: PositionGraph, values: Values) -> dict[str, object]:
    """The kept body: how many puzzles there are, and up to `KEPT` of them as
    ``[key, game length, other moves, difficulty]``, in node order."""
    nodes, plays = puzzle_nodes(graph, values)
    total = len(nodes)
    if total > KEPT:
        nodes = nodes[np.linspace(0, total - 1, KEPT).astype(np.int64)]
    keys = graph.keys.take(nodes)
    lengths = values.length[nodes].tolist()
    others = (plays[nodes] - 1).tolist()
    return {
        "count": total,
        "puzzles": [
            [key, length, other, difficulty(length, other)]
            for key, length, other in zip(keys, lengths, others, strict=True)
        ],
    }
