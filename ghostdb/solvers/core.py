"""What the solvers share: the `Values` they compute, the rule that picks a position's
value and best move from its moves' (`reduce_moves`), and helpers over a graph's runs of
edges.  See `ghostdb.solvers` for the rules themselves."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ghostdb.games.base import DRAW, FLIP, LOSS, NOT_FINAL, WIN, PositionGraph

SOLVER_VERSION = "2"

NO_LENGTH = -1
_FLIP = np.array(FLIP, dtype=np.int8)


def group_starts(parent: np.ndarray) -> np.ndarray:
    """Indices where each run of equal values in a sorted array starts."""
    if len(parent) == 0:
        return np.zeros(0, dtype=np.int64)
    return np.flatnonzero(np.r_[True, parent[1:] != parent[:-1]])


def group_of(starts: np.ndarray, n: int) -> np.ndarray:
    """The run each of ``n`` items belongs to, from where the runs start (`group_starts`):
    how a per-run result (a `reduceat`) is spread back over the run's items."""
    return np.repeat(np.arange(len(starts)), np.diff(np.r_[starts, n]))


_RANK_BITS = 24
_LENGTH_BITS = 24


@dataclass
class Values:
    """Per-node results, indexed like the graph's keys.  How many moves win or draw is not
    among them: a lookup counts that from the plays it reads (revision 0010)."""

    value: np.ndarray  # int8 value code for the player to move
    length: np.ndarray  # int32 game length; NO_LENGTH for a draw
    best: np.ndarray  # int32 child node of the best move; -1 at final positions
    reachable: np.ndarray  # bool: can arise in a game from the start


def reduce_moves(
    parent: np.ndarray,
    child: np.ndarray,
    rank: np.ndarray,
    value: np.ndarray,
    length: np.ndarray,
    best: np.ndarray,
) -> None:
    """Decide the parents of edges (sorted by parent) from their children's values, in place.

    One key per edge packs (how good the move is for the mover, how its length ranks,
    the move's rank); the smallest key of each parent's run is its best move.
    """
    starts = group_starts(parent)
    if len(starts) == 0:
        return
    group = group_of(starts, len(parent))
    mine = _FLIP[value[child]].astype(np.int64)  # each move's value for the mover
    child_len = length[child].astype(np.int64)
    # Wins and ties: the shortest first; losses: the longest first; draws: no length.
    length_key = np.where(mine == LOSS, (1 << _LENGTH_BITS) - 1 - child_len, child_len)
    length_key = np.where(mine == DRAW, 0, length_key)
    key = ((WIN - mine) << (_RANK_BITS + _LENGTH_BITS)) | (length_key << _RANK_BITS) | rank
    smallest = np.minimum.reduceat(key, starts)
    chosen = np.flatnonzero(key == smallest[group])
    parents = parent[starts]
    best[parents] = child[chosen]
    decided = mine[chosen].astype(np.int8)
    value[parents] = decided
    length[parents] = np.where(decided == DRAW, NO_LENGTH, length[child[chosen]] + 1)


def play_numbers(graph: PositionGraph) -> np.ndarray:
    """Each edge's place among its parent's plays in move order, 0 the first, as a lookup
    lists them (a move back to the same position is no play: -1).  How a stored position
    names its best move (``positions.best_play``)."""
    parent, child = graph.edge_parent, graph.edge_child
    starts = group_starts(parent)
    play = child != parent
    before = np.cumsum(play, dtype=np.int64) - play  # plays before each edge, overall
    first = before[starts][group_of(starts, len(parent))]
    return np.where(play, before - first, -1).astype(np.int32)


def best_plays(graph: PositionGraph, best: np.ndarray) -> np.ndarray:
    """The play number of each node's best move, from its child node (``Values.best``);
    -1 where there is none.  As `play_numbers` numbers the chosen edges, but counted for
    those edges only: `play_numbers`' whole-edge temporaries were a solve's peak memory
    (200 MB for SuperDuperGhost on 3 million positions)."""
    out = np.full(graph.size, -1, dtype=np.int32)
    parent, child = graph.edge_parent, graph.edge_child
    chosen = np.flatnonzero(child == best[parent])  # one edge per distinct child
    play = child != parent
    plays = np.cumsum(play, dtype=np.int64 if len(play) >= 1 << 31 else np.int32)
    plays -= play  # plays before each edge, overall
    del play
    starts = group_starts(parent)
    first = starts[np.searchsorted(starts, chosen, side="right") - 1]  # the edge's parent's
    out[parent[chosen]] = plays[chosen] - plays[first]
    return out


def empty_values(graph: PositionGraph) -> Values:
    """Final positions decided by the rules; everything else still to solve."""
    n = graph.size
    final = graph.final
    value = np.where(final == NOT_FINAL, LOSS, final).astype(np.int8)
    return Values(
        value=value,
        length=np.zeros(n, dtype=np.int32),
        best=np.full(n, -1, dtype=np.int32),
        reachable=reachable(graph),
    )


def distinct(a: np.ndarray) -> np.ndarray:
    """The distinct values of a 1-D array, sorted: `np.unique` without its first call's
    import of numpy.ma (30 ms, a tenth of a small solve's start)."""
    a = np.sort(a)
    return a[np.r_[True, a[1:] != a[:-1]]] if len(a) else a


def reachable(graph: PositionGraph) -> np.ndarray:
    """Which nodes a game from the start can reach (there are no moves out of finals)."""
    n = graph.size
    seen = np.zeros(n, dtype=bool)
    seen[graph.start] = True
    order = np.argsort(graph.edge_parent, kind="stable")
    parents = graph.edge_parent[order]
    children = graph.edge_child[order]
    bounds = np.zeros(n + 1, dtype=np.int64)  # each node's edges: counted, not searched for
    np.cumsum(np.bincount(parents, minlength=n), out=bounds[1:])
    frontier = np.array([graph.start])
    while len(frontier):
        lo, hi = bounds[frontier], bounds[frontier + 1]
        counts = hi - lo
        if counts.sum() == 0:
            break
        offsets = np.repeat(lo - np.r_[0, np.cumsum(counts)[:-1]], counts)
        nxt = children[np.arange(counts.sum()) + offsets]
        nxt = distinct(nxt[~seen[nxt]])
        seen[nxt] = True
        frontier = nxt
    return seen
