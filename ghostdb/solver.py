"""Solve a position graph: outcome, best move, game length and best plans for every node.

Pure computation on numpy arrays: a `ghostdb.graph.Graph` in, a `Solved` out; no
database.  Every play adds one letter, so positions fall into levels by length and every
level depends only on the next one: the solver sweeps the levels from the longest
fragment up to "" and does each level with whole-array operations.  Each fragment is
solved once, also where the Super variants reach it by many move orders.

Definitions (the stored values mean exactly this):

* A word (of the game's minimum length or more) ends the game: the player to move there
  has won (lost, in misère), and 0 moves are left.
* ``win`` at a fragment: the player to move can force a win.
* ``best``: for the winner, the winning play that ends the game soonest; for the loser,
  the play that lasts longest; ties go to the first play in move order.
* ``length``: moves left until a word is completed when both sides play ``best``.
* Plans: a plan for a strategist fixes one play at each of the strategist's turns and
  answers every play of the opponent; its outcomes are the words (in the Super variants,
  the sequences of fragments) the game can end on.  Plans are ranked by lossiness (0: the
  strategist wins at every outcome, 2: loses at every one, 1: mixed), then fewest outcomes,
  then fewest letters over all outcome words, then move order.  ``mover_*`` is the best
  plan's rank when the strategist is to move (and ``plan`` its play), ``waiter_*`` when
  the opponent is to move.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ghostdb.graph import Graph

SOLVER_VERSION = "1"

# Packing of the best-move key: (outcome class, length) above, move rank below.
_RANK_BITS = 20
_WIN_KEY = 1 << 14  # > any game length


@dataclass
class Solved:
    """Per-node results, indexed like the graph's fragments."""

    win: np.ndarray  # bool
    length: np.ndarray  # int32
    best: np.ndarray  # int32 child node, -1 at words
    winning_moves: np.ndarray  # int32
    reachable: np.ndarray  # bool
    plan: np.ndarray  # int32 child node, -1 at words
    mover_lossiness: np.ndarray  # int8
    mover_outcomes: np.ndarray  # int64
    mover_letters: np.ndarray  # int64
    waiter_lossiness: np.ndarray  # int8
    waiter_outcomes: np.ndarray  # int64
    waiter_letters: np.ndarray  # int64


def solve(
    graph: Graph,
    *,
    misere: bool = False,
    progress: Callable[[int], None] | None = None,
) -> Solved:
    """Solve every node of ``graph``.  ``progress(n)`` is called as n more nodes are done."""
    n = graph.size
    depth = graph.length
    is_word = graph.is_word
    win = np.zeros(n, dtype=bool)
    length = np.zeros(n, dtype=np.int32)
    best = np.full(n, -1, dtype=np.int32)
    winning_moves = np.zeros(n, dtype=np.int32)
    plan = np.full(n, -1, dtype=np.int32)
    mover_loss = np.zeros(n, dtype=np.int8)
    waiter_loss = np.zeros(n, dtype=np.int8)
    mover_out = np.zeros(n, dtype=np.int64)
    waiter_out = np.zeros(n, dtype=np.int64)
    mover_let = np.zeros(n, dtype=np.int64)
    waiter_let = np.zeros(n, dtype=np.int64)

    # Words are final: values fixed by the rules.
    win[is_word] = not misere
    mover_loss[is_word] = 2 if misere else 0
    waiter_loss[is_word] = 0 if misere else 2
    mover_out[is_word] = waiter_out[is_word] = 1
    mover_let[is_word] = waiter_let[is_word] = depth[is_word]

    # Edges grouped by their parent's level; within a level still by parent, then move.
    edge_depth = depth[graph.edge_parent]
    by_level = np.argsort(edge_depth, kind="stable")
    e_parent = graph.edge_parent[by_level]
    e_child = graph.edge_child[by_level]
    e_rank = graph.edge_rank[by_level].astype(np.int64)
    bounds = np.searchsorted(edge_depth[by_level], np.arange(depth.max() + 2))
    level_sizes = np.bincount(depth, minlength=depth.max() + 1)

    for d in range(int(depth.max()), -1, -1):
        lo, hi = bounds[d], bounds[d + 1]
        if hi > lo:
            _solve_level(
                e_parent[lo:hi],
                e_child[lo:hi],
                e_rank[lo:hi],
                win,
                length,
                best,
                winning_moves,
                plan,
                mover_loss,
                mover_out,
                mover_let,
                waiter_loss,
                waiter_out,
                waiter_let,
            )
        if progress:
            progress(int(level_sizes[d]))

    if (waiter_out < 0).any() or (waiter_let < 0).any():
        raise OverflowError("plan sizes overflow 64 bits")

    reachable = np.zeros(n, dtype=bool)
    reachable[0] = True
    for d in range(int(depth.max()) + 1):
        lo, hi = bounds[d], bounds[d + 1]
        p, c = e_parent[lo:hi], e_child[lo:hi]
        reachable[c[reachable[p]]] = True

    return Solved(
        win=win,
        length=length,
        best=best,
        winning_moves=winning_moves,
        reachable=reachable,
        plan=plan,
        mover_lossiness=mover_loss,
        mover_outcomes=mover_out,
        mover_letters=mover_let,
        waiter_lossiness=waiter_loss,
        waiter_outcomes=waiter_out,
        waiter_letters=waiter_let,
    )


def _solve_level(
    p: np.ndarray,
    c: np.ndarray,
    rank: np.ndarray,
    win: np.ndarray,
    length: np.ndarray,
    best: np.ndarray,
    winning_moves: np.ndarray,
    plan: np.ndarray,
    mover_loss: np.ndarray,
    mover_out: np.ndarray,
    mover_let: np.ndarray,
    waiter_loss: np.ndarray,
    waiter_out: np.ndarray,
    waiter_let: np.ndarray,
) -> None:
    """Solve the parents of one level's edges (sorted by parent, then move) in place."""
    starts = np.flatnonzero(np.r_[True, p[1:] != p[:-1]])
    parents = p[starts]
    group = np.repeat(np.arange(len(starts)), np.diff(np.r_[starts, len(p)]))

    # Outcome, best play and length: a losing child (for its mover) is a winning play.
    child_wins = win[c]
    child_len = length[c].astype(np.int64)
    key = np.where(child_wins, 2 * _WIN_KEY - child_len, child_len)
    packed = (key << _RANK_BITS) | rank
    group_min = np.minimum.reduceat(packed, starts)
    chosen = packed == group_min[group]
    best[parents] = c[chosen]
    win[parents] = (group_min >> _RANK_BITS) < _WIN_KEY
    length[parents] = length[c[chosen]] + 1
    winning_moves[parents] = np.add.reduceat((~child_wins).astype(np.int32), starts)

    # Strategist to move: the play whose resulting (opponent-to-move) plan ranks lowest.
    order = np.lexsort((rank, waiter_let[c], waiter_out[c], waiter_loss[c], p))
    pick = c[order[starts]]
    plan[parents] = pick
    mover_loss[parents] = waiter_loss[pick]
    mover_out[parents] = waiter_out[pick]
    mover_let[parents] = waiter_let[pick]

    # Opponent to move: every play is answered, so outcomes add up.
    child_loss = mover_loss[c]
    lo = np.minimum.reduceat(child_loss, starts)
    hi = np.maximum.reduceat(child_loss, starts)
    waiter_loss[parents] = np.where(lo == hi, lo, 1)
    waiter_out[parents] = np.add.reduceat(mover_out[c], starts)
    waiter_let[parents] = np.add.reduceat(mover_let[c], starts)
