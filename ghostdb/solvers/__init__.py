"""Solvers: a `ghostdb.games.base.PositionGraph` in, values out.  Pure: no database.

* `levels.solve` — the level sweep, for graphs where every move raises the level (every
  Ghost variant, tic-tac-toe): each level depends only on the levels above it.
* `retrograde.solve` — retrograde analysis, for graphs with cycles (Chopsticks).
* `plans.solve` — the best memorisable plans of word games.

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
