"""The best memorisable plans of a word game, for both roles at every reachable position.

A plan for a strategist fixes one move at each of the strategist's turns and answers
every move of the opponent; its outcomes are the words (in the Super variants, the
sequences of fragments) the game can end on.  Plans are ranked by lossiness (0: the
strategist wins at every outcome, 2: loses at every one, 1: mixed), then fewest outcomes,
then fewest letters over all outcome words, then move order.  ``plan`` is the best plan's
move when the strategist is to move, ``waiter_*`` its rank when the opponent is to move
(what `solve` gives at an unreachable position is not a plan: the caller leaves it out).
The rank with the strategist to move is the ``waiter_*`` rank of the position ``plan``
leads to (at a final position: the same word, lost by the other role); it is worked out
level by level but not returned, as it is not stored.  Like the level sweep, this goes
from the deepest level up.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ghostdb.games.base import NOT_FINAL, WIN, PositionGraph
from ghostdb.solvers.core import Values, group_of, group_starts
from ghostdb.solvers.levels import edge_level_bounds

SPARSE = 0.5
"""Plans are worked out on the reachable positions alone, renumbered, when they are fewer
than this share of the positions (see `solve`)."""


@dataclass
class Plans:
    """Per-node best plans, indexed like the graph's keys."""

    plan: np.ndarray  # int32 child node; -1 at final (and some unreachable) positions
    waiter_lossiness: np.ndarray  # int8
    waiter_outcomes: np.ndarray  # int64
    waiter_letters: np.ndarray  # int64


@dataclass
class _Ranks:
    """Per-node ranks of the best plan with the strategist to move."""

    lossiness: np.ndarray  # int8
    outcomes: np.ndarray  # int64
    letters: np.ndarray  # int64


def solve(graph: PositionGraph, values: Values) -> Plans:
    """The best plans at every reachable position (elsewhere: none, -1 and zero ranks).

    A move from a reachable position that is not final leads to a reachable one, so
    plans never leave the reachable positions, and only theirs are worked out.  Where
    they are few (plain Ghost reaches one position in thirty) they are worked out on
    their own, renumbered, and spread back: the ranks of every position were most of
    the time (memory first touched costs more than the sweep itself)."""
    if graph.word_length is None or not graph.acyclic:
        raise ValueError("plans are for word games")
    reach = values.reachable
    nodes = np.flatnonzero(reach) if np.count_nonzero(reach) < SPARSE * graph.size else None
    if nodes is None:  # nearly all of them: the graph as it is, no copies
        parent, child, rank = graph.edge_parent, graph.edge_child, graph.edge_rank
        level, final, length = graph.level, graph.final, graph.word_length
        value = values.value
    else:
        local = np.full(graph.size, -1, dtype=np.int32)
        local[nodes] = np.arange(len(nodes), dtype=np.int32)
        keep = reach[graph.edge_parent]  # edges stay sorted by parent, then move
        parent, child = local[graph.edge_parent[keep]], local[graph.edge_child[keep]]
        rank = graph.edge_rank[keep]
        level, final, length = graph.level[nodes], graph.final[nodes], graph.word_length[nodes]
        value = values.value[nodes]
    p = _sweep(parent, child, rank, level, final != NOT_FINAL, length, value)
    if (p.waiter_outcomes < 0).any() or (p.waiter_letters < 0).any():
        raise OverflowError("plan sizes overflow 64 bits")
    if nodes is None:
        return p
    whole = Plans(
        plan=np.full(graph.size, -1, dtype=np.int32),
        waiter_lossiness=np.zeros(graph.size, dtype=np.int8),
        waiter_outcomes=np.zeros(graph.size, dtype=np.int64),
        waiter_letters=np.zeros(graph.size, dtype=np.int64),
    )
    whole.plan[nodes] = np.where(p.plan >= 0, nodes[p.plan], -1)
    whole.waiter_lossiness[nodes] = p.waiter_lossiness
    whole.waiter_outcomes[nodes] = p.waiter_outcomes
    whole.waiter_letters[nodes] = p.waiter_letters
    return whole


def _sweep(
    parent: np.ndarray,
    child: np.ndarray,
    rank: np.ndarray,
    level: np.ndarray,
    final: np.ndarray,
    word_length: np.ndarray,
    value: np.ndarray,
) -> Plans:
    """The plans of a graph given as its edges (sorted by parent, then move) and its
    nodes' levels (ascending), final flags, word lengths and values: from the deepest
    level up, each level's parents from their children's ranks."""
    n = len(level)
    strategist_wins = value == WIN  # at a final position, for the player to move
    p = Plans(
        plan=np.full(n, -1, dtype=np.int32),
        waiter_lossiness=np.where(final & strategist_wins, 2, 0).astype(np.int8),
        waiter_outcomes=final.astype(np.int64),
        waiter_letters=np.where(final, word_length, 0).astype(np.int64),
    )
    mover = _Ranks(
        np.where(final & ~strategist_wins, 2, 0).astype(np.int8),
        p.waiter_outcomes.copy(),
        p.waiter_letters.copy(),
    )
    bounds = edge_level_bounds(level, parent)
    for d in range(len(bounds) - 2, -1, -1):
        lo, hi = bounds[d], bounds[d + 1]
        if hi > lo:
            _level(parent[lo:hi], child[lo:hi], rank[lo:hi], p, mover)
    return p


def _level(
    parent: np.ndarray, child: np.ndarray, rank: np.ndarray, p: Plans, mover: _Ranks
) -> None:
    """The plans of one level's parents (edges sorted by parent, then move); ``mover``:
    every node's rank with the strategist to move."""
    starts = group_starts(parent)
    parents = parent[starts]
    group = group_of(starts, len(parent))
    # Strategist to move: the move whose resulting (opponent-to-move) plan ranks lowest,
    # by lossiness, outcomes, letters, then move order.  The moves still in the running
    # are narrowed a field at a time by a minimum over each parent's edges: a sort of
    # every edge by five keys took three times as long (a second of SuperDuperGhost on
    # american-english-insane).
    best = np.ones(len(parent), dtype=bool)
    for field in (
        p.waiter_lossiness[child],
        p.waiter_outcomes[child],
        p.waiter_letters[child],
        rank,
    ):
        field = np.where(best, field, np.iinfo(field.dtype).max)
        best &= field == np.minimum.reduceat(field, starts)[group]
    # The first of any edges still tied (one per move: none are), as a stable sort would.
    at = np.minimum.reduceat(np.where(best, np.arange(len(parent)), len(parent)), starts)
    pick = child[at]
    p.plan[parents] = pick
    mover.lossiness[parents] = p.waiter_lossiness[pick]
    mover.outcomes[parents] = p.waiter_outcomes[pick]
    mover.letters[parents] = p.waiter_letters[pick]
    # Opponent to move: every move is answered, so outcomes add up.
    child_loss = mover.lossiness[child]
    lo = np.minimum.reduceat(child_loss, starts)
    hi = np.maximum.reduceat(child_loss, starts)
    p.waiter_lossiness[parents] = np.where(lo == hi, lo, 1)
    p.waiter_outcomes[parents] = np.add.reduceat(mover.outcomes[child], starts)
    p.waiter_letters[parents] = np.add.reduceat(mover.letters[child], starts)
