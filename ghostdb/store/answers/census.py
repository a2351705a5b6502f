"""One solution's figures worked out from its stored rows (`work_out_figures`): the census
of positions by level and outcome, the start's figures, both players' plan ranks there
and how many outcomes each best plan loses.  `ghostdb.store.answers.figures` keeps them
and reads them back."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from sqlalchemy import case, func, select
from sqlalchemy.engine import Connection

from ghostdb.errors import NotSolved
from ghostdb.games.base import VALUE_NAMES
from ghostdb.store.answers import kept
from ghostdb.store.answers.plan_rows import missing_plans, plan_sizes
from ghostdb.store.answers.plans import start_plan
from ghostdb.store.answers.report_rows import report_row
from ghostdb.store.sql import queries as q
from ghostdb.store.sql.schema import positions

if TYPE_CHECKING:
    from ghostdb.store.answers.handle import Handle
    from ghostdb.store.answers.kept import Census
    from ghostdb.strategies import PlanSize, Strategy


def work_out_figures(
    solution: Handle,
    census: Census | None = None,
    plans: Sequence[Strategy] | None = None,
) -> dict[str, Any]:
    """Work out a solution's figures (see `figures`); ``census`` and ``plans`` when
    already at hand (a solve job counts the census from its arrays)."""
    from ghostdb.records import SolutionSummary

    start = solution.openings()
    sizes = None
    with solution.engine.connect() as conn:
        row = published_row(conn, solution)
        if solution.game.keeps_plans:
            sizes = plan_sizes(conn, row.id, solution.game, start) if row.has_plans else None
            if sizes is None:
                raise missing_plans(solution.name, solution.rules)
        if census is None:
            census = census_of(conn, row.id)
    found = SolutionSummary(
        dictionary=solution.name,
        rules=solution.rules.key,
        word_count=row.word_count,
        fragment_count=row.fragment_count,
        reachable_count=row.reachable_count,
        outcome=start.outcome,
        winner=start.winner,
        winning_first_moves=tuple(p.move for p in start.plays if p.wins),
        game_length=start.game_length,
        plans=sizes,
    )
    lost = None
    if sizes is not None:
        if plans is None:
            plans = [start_plan(solution, player) for player in (0, 1)]
        lost = [_lost(plans[player], sizes[player]) for player in (0, 1)]
    body = {
        "summary": kept.summary_body(found),
        "census": census,
        "lost": lost,
        "safe_seats": None if start.safe_seats is None else list(start.safe_seats),
    }
    # The report's row as the API answers it, so the server sends it without a plan read.
    first, second = plans if plans is not None else (None, None)
    body["report"] = report_row(solution, body, first, second).as_dict()
    return body


def _lost(plan: Strategy, size: PlanSize) -> int:
    """How many outcomes a best plan loses: the stored rank tells all but how many a
    mixed plan loses, for which the plan is walked."""
    if size.lossiness == 1:
        return plan.losses
    return 0 if size.lossiness == 0 else size.outcomes


def published_row(conn: Any, solution: Handle) -> Any:
    """The row of the solution ``solution`` handles, read by its id: by name, a solve of
    the same rule set published by another process meanwhile would be read in its place,
    beside positions read at the old id.  A handle whose solution was replaced is moved
    to the new one first (its caller reads everything else after this)."""
    row = q.solution_by_id(conn, solution.id)
    if row is None:  # replaced since the handle was made (NotSolved if withdrawn)
        solution.refresh()
        row = q.solution_by_id(conn, solution.id)
    if row is None:
        raise NotSolved(f"{solution.name} ({solution.rules.key}) is being solved again: ask again")
    return row


def census_of(conn: Connection, solution_id: int) -> Census:
    """How many positions (and of them reachable) have each outcome for the player to
    move, level by level: one scan of the solution's rows."""
    reachable = func.coalesce(func.sum(case((positions.c.reachable.is_(True), 1), else_=0)), 0)
    stmt = (
        select(positions.c.level, positions.c.outcome, func.count(), reachable)
        .where(positions.c.solution_id == solution_id)
        .group_by(positions.c.level, positions.c.outcome)
        .order_by(positions.c.level, positions.c.outcome)
    )
    return [
        [int(level), VALUE_NAMES[code], int(n), int(r)]
        for level, code, n, r in conn.execute(stmt).all()
    ]
