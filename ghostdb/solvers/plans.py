"""The best memorisable plans of a word game, for both roles at every position.

A plan for a strategist fixes one move at each of the strategist's turns and answers
every move of the opponent; its outcomes are the words (in the Super variants, the
sequences of fragments) the game can end on.  Plans are ranked by lossiness (0: the
strategist wins at every outcome, 2: loses at every one, 1: mixed), then fewest outcomes,
then fewest letters over all outcome words, then move order.  ``plan`` is the best plan's
move when the strategist is to move, ``waiter_*`` its rank when the opponent is to move.
The rank with the strategist to move is the ``waiter_*`` rank of the position ``plan``
leads to (at a final position: the same word, lost by the other role); it is worked out
level by level but not returned, as it is not stored.  Like the level sweep, this goes
from the deepest level up.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ghostdb.games.base import NOT_FINAL, WIN, PositionGraph
from ghostdb.solvers import Values, group_of, group_starts
from ghostdb.solvers.levels import level_bounds


@dataclass
class Plans:
    """Per-node best plans, indexed like the graph's keys."""

    plan: np.ndarray  # int32 child node; -1 at final positions
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
    if graph.word_length is None or not graph.acyclic:
        raise ValueError("plans are for word games")
    n = graph.size
    final = graph.final != NOT_FINAL
    strategist_wins = values.value == WIN  # at a final position, for the player to move
    p = Plans(
        plan=np.full(n, -1, dtype=np.int32),
        waiter_lossiness=np.where(final & strategist_wins, 2, 0).astype(np.int8),
        waiter_outcomes=final.astype(np.int64),
        waiter_letters=np.where(final, graph.word_length, 0).astype(np.int64),
    )
    mover = _Ranks(
        np.where(final & ~strategist_wins, 2, 0).astype(np.int8),
        p.waiter_outcomes.copy(),
        p.waiter_letters.copy(),
    )
    bounds, sizes = level_bounds(graph)
    for d in range(len(sizes) - 1, -1, -1):
        lo, hi = bounds[d], bounds[d + 1]
        if hi > lo:
            edges = graph.edge_parent[lo:hi], graph.edge_child[lo:hi], graph.edge_rank[lo:hi]
            _level(*edges, p, mover)
    if (p.waiter_outcomes < 0).any() or (p.waiter_letters < 0).any():
        raise OverflowError("plan sizes overflow 64 bits")
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
