"""The level sweep: for graphs where every move raises the level (every Ghost variant,
tic-tac-toe).  Each level depends only on the levels above it, so the sweep solves the
deepest level first and each level with whole-array operations; every position is solved
once, also where many move orders reach it.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ghostdb.games.base import NOT_FINAL, PositionGraph
from ghostdb.solvers.core import Values, empty_values, reduce_moves


def edge_level_bounds(level: np.ndarray, edge_parent: np.ndarray) -> np.ndarray:
    """Where each parent level's edges start, and (last) where they end: edges are sorted
    by parent, and nodes by level, so one level's edges are contiguous.  Level ``d``'s
    edges are ``bounds[d]:bounds[d + 1]``."""
    top = int(level.max()) if len(level) else 0
    return np.searchsorted(level[edge_parent], np.arange(top + 2))


def level_bounds(graph: PositionGraph) -> tuple[np.ndarray, np.ndarray]:
    """`edge_level_bounds` of a graph, and the number of its nodes at each level."""
    bounds = edge_level_bounds(graph.level, graph.edge_parent)
    return bounds, np.bincount(graph.level, minlength=len(bounds) - 1)


def solve(graph: PositionGraph, progress: Callable[[int], None] | None = None) -> Values:
    """Solve every node; ``progress(n)`` is called as n more nodes are done."""
    values = empty_values(graph)
    if (np.diff(graph.level) < 0).any() or (
        graph.level[graph.edge_child] <= graph.level[graph.edge_parent]
    ).any():
        raise ValueError("the level sweep needs nodes in level order and moves that raise it")
    bounds, sizes = level_bounds(graph)
    for d in range(len(sizes) - 1, -1, -1):
        lo, hi = bounds[d], bounds[d + 1]
        if hi > lo:
            reduce_moves(
                graph.edge_parent[lo:hi],
                graph.edge_child[lo:hi],
                graph.edge_rank[lo:hi],
                values.value,
                values.length,
                values.best,
            )
        if progress:
            progress(int(sizes[d]))
    stuck = (graph.final == NOT_FINAL) & (np.bincount(graph.edge_parent, minlength=graph.size) == 0)
    if stuck.any():
        key = graph.keys[int(np.flatnonzero(stuck)[0])]
        raise ValueError(f"position {key!r} has no move but is not final")
    return values
