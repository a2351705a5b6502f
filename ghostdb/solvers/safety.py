"""Ghost for more than two players: which seats are safe at every position.

With N seats moving in turn, whoever completes a word loses and the others share the
win (in misère, whoever completes a word wins and the others lose).  A seat is **safe**
at a position when it can avoid losing whatever all the other seats do together: at its
own turn some move keeps it safe; at another seat's turn every move does.  That is a
two-player solve per seat (the seat against a coalition of the rest), done for all seats
at once on bit masks, level by level: bit s of ``safe[p]`` is seat s's answer at p.
The seat to move at a fragment of length L is L mod N, so the graph's levels say whose
turn it is.
"""

from __future__ import annotations

import numpy as np

from ghostdb.games.base import LOSS, NOT_FINAL, WIN, PositionGraph
from ghostdb.solvers.core import NO_LENGTH, Values, group_starts, reachable
from ghostdb.solvers.levels import level_bounds


def solve(graph: PositionGraph, players: int, misere: bool = False) -> np.ndarray:
    """``safe[p]``: a bit mask of the seats safe at each node (int16)."""
    everyone = (1 << players) - 1
    safe = np.zeros(graph.size, dtype=np.int16)
    final = graph.final != NOT_FINAL
    completer = (graph.level[final] - 1) % players  # who made the last move
    bit = (1 << completer).astype(np.int16)
    safe[final] = bit if misere else everyone & ~bit
    bounds, sizes = level_bounds(graph)
    for d in range(len(sizes) - 1, -1, -1):
        lo, hi = bounds[d], bounds[d + 1]
        if hi == lo:
            continue
        parent, child = graph.edge_parent[lo:hi], graph.edge_child[lo:hi]
        starts = group_starts(parent)
        masks = safe[child]
        some = np.bitwise_or.reduceat(masks, starts)
        every = np.bitwise_and.reduceat(masks, starts)
        mover = np.int16(1 << (d % players))
        safe[parent[starts]] = (every & ~mover) | (some & mover)
    return safe


def best_moves(graph: PositionGraph, safe: np.ndarray, players: int) -> np.ndarray:
    """For each node: the first move (in move order) that keeps its mover safe, or the
    first move when none does (-1 at finals).  How many keep the mover safe is counted at
    lookup, from the plays read (`ghostdb.store.answers.lookups`)."""
    best = np.full(graph.size, -1, dtype=np.int32)
    parent, child = graph.edge_parent, graph.edge_child
    if len(parent) == 0:
        return best
    starts = group_starts(parent)
    mover_bit = (1 << (graph.level[parent] % players)).astype(np.int16)
    keeps = (safe[child] & mover_bit) != 0
    # The first keeping move of each run: rank keeping moves before the others, stable.
    order = np.lexsort((np.arange(len(parent)), ~keeps, parent))
    best[parent[starts]] = child[order[starts]]
    return best


def values(graph: PositionGraph, players: int, misere: bool = False) -> tuple[Values, np.ndarray]:
    """The stored values of an N-player solution, and the safe-seat masks: the outcome is
    a win where the mover is safe, a loss where not; the game length is 0 at a final
    position and none elsewhere (with a coalition against each seat there is no single
    line of best play to count); the best move is the first that keeps the mover safe."""
    safe = solve(graph, players, misere)
    mover = (1 << (graph.level % players)).astype(np.int16)
    final = graph.final != NOT_FINAL
    return (
        Values(
            value=np.where((safe & mover) != 0, WIN, LOSS).astype(np.int8),
            length=np.where(final, 0, NO_LENGTH).astype(np.int32),
            best=best_moves(graph, safe, players),
            reachable=reachable(graph),
        ),
        safe,
    )
