"""Which solver a graph needs: the level sweep where every move raises the level,
retrograde analysis where moves can cycle."""

from __future__ import annotations

from collections.abc import Callable

from ghostdb.games.base import PositionGraph
from ghostdb.solvers import levels, retrograde
from ghostdb.solvers.core import Values


def solve(graph: PositionGraph, progress: Callable[[int], None] | None = None) -> Values:
    """Values of every node, by the level sweep when the graph allows it."""
    if graph.acyclic:
        return levels.solve(graph, progress)
    return retrograde.solve(graph, progress)
