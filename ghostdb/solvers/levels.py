"""The level sweep: for graphs where every move raises the level (every Ghost variant,
tic-tac-toe).  Each level depends only on the levels above it, so the sweep solves the
deepest level first and each level with whole-array operations; every position is solved
once, also where many move orders reach it.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ghostdb.games.base import NOT_FINAL, PositionGraph
from ghostdb.solvers import Values, empty_values, reduce_moves


def level_bounds(graph: PositionGraph) -> tuple[np.ndarray, np.ndarray]:
    """Edge index bounds of each parent level (edges are sorted by parent, and nodes by
    level, so one level's edges are contiguous), and the number of nodes per level."""
    top = int(graph.level.max()) if graph.size else 0
    edge_level = graph.level[graph.edge_parent]
    bounds = np.searchsorted(edge_level, np.arange(top + 2))
    sizes = np.bincount(graph.level, minlength=top + 1)
    return bounds, sizes


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
