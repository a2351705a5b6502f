"""Retrograde analysis: for graphs whose moves can cycle (Chopsticks).

Works backwards from the final positions, one game length at a time, with whole-array
operations:

1. wins and losses: a position with a move to a position lost for its mover is won; a
   position all of whose moves lead to positions won for their movers is lost (each
   position counts its undecided moves down).  Processing game lengths in increasing
   order makes a win's length 1 + the shortest losing move's and a loss's 1 + the longest;
2. ties: among the rest, a position with a move to a tie is a tie, the nearest first;
3. whatever is never decided is a draw: neither side can force an end.

The best moves and move counts then come from the children's values, by the same rule as
the level sweep (`ghostdb.solvers.reduce_moves`), which must agree with the values found
here.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ghostdb.games.base import DRAW, LOSS, NOT_FINAL, TIE, WIN, PositionGraph
from ghostdb.solvers.core import NO_LENGTH, Values, distinct, empty_values, reduce_moves


def _gather(
    bounds: np.ndarray, items: np.ndarray, nodes: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """For CSR ``bounds``/``items``: every item of every node, and the node it came from."""
    lo, hi = bounds[nodes], bounds[nodes + 1]
    counts = hi - lo
    total = int(counts.sum())
    if total == 0:
        return np.zeros(0, dtype=items.dtype), np.zeros(0, dtype=nodes.dtype)
    offsets = np.repeat(lo - np.r_[0, np.cumsum(counts)[:-1]], counts)
    return items[np.arange(total) + offsets], np.repeat(nodes, counts)


def solve(graph: PositionGraph, progress: Callable[[int], None] | None = None) -> Values:
    n = graph.size
    values = empty_values(graph)
    value, length = values.value, values.length
    final = graph.final != NOT_FINAL
    out_degree = np.bincount(graph.edge_parent, minlength=n)
    stuck = ~final & (out_degree == 0)
    if stuck.any():
        key = graph.keys[int(np.flatnonzero(stuck)[0])]
        raise ValueError(f"position {key!r} has no move but is not final")
    order = np.argsort(graph.edge_child, kind="stable")
    parents_of = graph.edge_parent[order]
    bounds = np.searchsorted(graph.edge_child[order], np.arange(n + 1))
    decided = final.copy()
    remaining = out_degree.copy()

    # 1. Wins and losses.
    frontier = np.flatnonzero(final & ((graph.final == WIN) | (graph.final == LOSS)))
    steps = 0
    while len(frontier):
        if progress:
            progress(len(frontier))
        parents, via = _gather(bounds, parents_of, frontier)
        via_loss = value[via] == LOSS
        won = distinct(parents[via_loss])
        won = won[~decided[won]]
        value[won], length[won], decided[won] = WIN, steps + 1, True
        counted = parents[~via_loss]
        remaining -= np.bincount(counted, minlength=n)
        lost = distinct(counted)
        lost = lost[(remaining[lost] == 0) & ~decided[lost]]
        value[lost], length[lost], decided[lost] = LOSS, steps + 1, True
        frontier = np.r_[won, lost]
        steps += 1

    # 2. Ties, the nearest first.
    frontier = np.flatnonzero(final & (graph.final == TIE))
    steps = 0
    while len(frontier):
        if progress:
            progress(len(frontier))
        parents, _ = _gather(bounds, parents_of, frontier)
        tied = distinct(parents)
        tied = tied[~decided[tied]]
        value[tied], length[tied], decided[tied] = TIE, steps + 1, True
        frontier = tied
        steps += 1

    # 3. Draws.
    value[~decided], length[~decided] = DRAW, NO_LENGTH
    if progress:
        progress(int((~decided).sum()))

    found_value, found_length = value.copy(), length.copy()
    reduce_moves(
        graph.edge_parent,
        graph.edge_child,
        graph.edge_rank,
        value,
        length,
        values.best,
    )
    if not (np.array_equal(found_value, value) and np.array_equal(found_length, length)):
        raise AssertionError("retrograde values disagree with their children's")
    return values
