"""A plan as the positions' rows keep it: at each reachable position the rank of the best
plan with the opponent to move and, where the game goes on, the best plan's play there.
`plan_sizes` reads both players' ranks at a position from them, and `plan_plays` is what
a plan's walk (`ghostdb.store.answers.plan_walks`) follows.

A solution stored before schema revision 0002 has no plans (`missing_plans`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sqlalchemy import select
from sqlalchemy.engine import Connection

from ghostdb.errors import MissingPlans
from ghostdb.store.answers.walks import Follow, Republished
from ghostdb.store.sql.schema import HAS_PLAN, PLAN_FIELDS, positions

if TYPE_CHECKING:
    from ghostdb.games.base import Game, RuleSet
    from ghostdb.store.answers.lookups import Lookups, SolutionRef
    from ghostdb.strategies import PlanSize
    from ghostdb.values import Play, Position


def missing_plans(name: str, rules: RuleSet) -> MissingPlans:
    """A solution stored before schema revision 0002 has no plans until solved again."""
    return MissingPlans(
        f"the stored solution of {name} for {rules.describe()} has no plans (it predates "
        f"them): run `ghostdb solve {name}{rules.flags()} --force`"
    )


def plan_plays(lookups: Lookups, ref: SolutionRef, name: str, parity: int) -> Follow:
    """Where the strategist is to move (at the depths of ``parity``) a plan follows the
    stored plan's move; elsewhere every play."""

    def follow(pos: Position, depth: int) -> list[Play]:
        if depth % 2 != parity:
            return list(pos.plays)
        number = lookups.plan_play(ref, pos.fragment)
        if number is None or not 0 <= number < len(pos.plays):
            # A reachable position that is not final has its plan's move stored.
            raise Republished(f"the solution of {name} changed during the walk")
        return [pos.plays[number]]

    return follow


def plan_sizes(
    conn: Connection, solution_id: int, game: Game, start: Position
) -> tuple[PlanSize, PlanSize] | None:
    """The best plans' ranks at ``start`` (as looked up): (strategist to move, opponent
    to move); None if it has no plan (not reachable, or the solution was replaced).

    A position keeps its plan's opponent-to-move rank only (revision 0009): with the
    strategist to move, the best plan is the stored move's, so its rank is the
    opponent-to-move rank of the position that move leads to; at a final position the
    game is over and the one outcome is the same word, lost by the other player.
    """
    from ghostdb.strategies import PlanSize

    here = _plan_row(conn, solution_id, game, start.fragment)
    if here is None:
        return None
    waiter = PlanSize(*here[1:])
    if here[0] is None:  # final: won for one role exactly when lost for the other
        return PlanSize(2 - waiter.lossiness, waiter.outcomes, waiter.letters), waiter
    if not 0 <= here[0] < len(start.plays):
        return None
    after = _plan_row(conn, solution_id, game, start.plays[here[0]].fragment)
    if after is None:
        return None
    return PlanSize(*after[1:]), waiter


def _plan_row(conn: Connection, solution_id: int, game: Game, key: str) -> Any | None:
    """(plan_play, waiter_lossiness, waiter_outcomes, waiter_letters) of one position;
    None if it has no plan (or is no position)."""
    stmt = select(*(positions.c[f] for f in PLAN_FIELDS)).where(
        positions.c.solution_id == solution_id,
        positions.c.level == game.level(key),
        positions.c.fragment == key,
        HAS_PLAN,
    )
    return conn.execute(stmt).first()
