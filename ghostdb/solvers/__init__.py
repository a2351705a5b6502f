"""Solvers: a `ghostdb.games.base.PositionGraph` in, values out.  Pure: no database.

`solve` (from `dispatch`) picks the value solver a graph needs:

* `levels.solve` — the level sweep, for graphs where every move raises the level (every
  Ghost variant, tic-tac-toe): each level depends only on the levels above it.
* `retrograde.solve` — retrograde analysis, for graphs with cycles (Chopsticks).

Beside them, over the same graphs:

* `safety.solve` — Ghost for more than two players: which seats are safe at every
  position (each seat against a coalition of the others).
* `plans.solve` — the best memorisable plans of word games.
* `puzzles` — the positions where the mover has exactly one winning move, and how hard
  each is.

What they share is in `core`: the `Values` they compute and the rule that picks a
position's value and best move from its moves' (`reduce_moves`).

Both value solvers compute the same things (see `Values`) by the same rules, stated for
the player to move, who prefers win > tie > draw > loss:

* game length (remoteness): the winner ends the game as soon as possible, the loser makes
  it last as long as possible, a tie is reached as soon as possible; none for a draw;
* best move: the move that achieves the value and the length, the first in move order
  (``edge_rank``) among equals; at a draw, the first move that keeps the draw.
"""

from ghostdb.solvers.core import (
    NO_LENGTH,
    SOLVER_VERSION,
    Values,
    best_plays,
    distinct,
    empty_values,
    group_of,
    group_starts,
    play_numbers,
    reachable,
    reduce_moves,
)
from ghostdb.solvers.dispatch import solve

__all__ = [
    "NO_LENGTH",
    "SOLVER_VERSION",
    "Values",
    "best_plays",
    "distinct",
    "empty_values",
    "group_of",
    "group_starts",
    "play_numbers",
    "reachable",
    "reduce_moves",
    "solve",
]
