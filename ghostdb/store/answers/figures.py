"""One solution's headline figures (`ghostdb report`'s rows, the census of positions by
level and outcome), kept when the solution is published and read back after."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from sqlalchemy import case, func, select
from sqlalchemy.engine import Connection

from ghostdb.errors import NotSolved
from ghostdb.games.base import VALUE_NAMES
from ghostdb.store.answers import kept
from ghostdb.store.answers.kept import Key
from ghostdb.store.answers.plan_rows import missing_plans, plan_sizes
from ghostdb.store.sql import queries as q
from ghostdb.store.sql.schema import positions

if TYPE_CHECKING:
    from ghostdb.records import ReportRow, SolutionSummary
    from ghostdb.store.answers.handle import Handle
    from ghostdb.strategies import PlanSize, Strategy

from ghostdb.store.answers.kept import SUMMARY, Census, may_compute
from ghostdb.store.answers.plans import start_plan


def _report_command(solution: Handle) -> str:
    return f"ghostdb report {solution.name}"


def figures(solution: Handle, compute: bool | None = None) -> dict[str, Any]:
    """A solution's kept figures: its summary (`SolutionSummary` as a dict), its
    census, how many outcomes each player's best plan loses, and the start's safe seats."""
    return kept.answer(
        solution.engine,
        Key(solution.id, SUMMARY),
        lambda: work_out_figures(solution),
        compute=may_compute(solution, compute),
        what=f"the report of {solution.name} under {solution.rules.key}",
        command=_report_command(solution),
    )


def summary(solution: Handle, compute: bool | None = None) -> SolutionSummary:
    """The headline figures of a solution (kept)."""
    return kept.summary_from(figures(solution, compute)["summary"])


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


def report_row(
    solution: Handle, body: dict[str, Any], first: Strategy | None, second: Strategy | None
) -> ReportRow:
    """One rule set's report row from its kept figures and both plans from the start."""
    from ghostdb.records import ReportRow

    start = kept.summary_from(body["summary"])
    safe = body["safe_seats"]
    return ReportRow(
        solution.rules,
        start.fragment_count,
        start.outcome,
        start.winner,
        start.game_length,
        outcomes_of(body["census"]),
        first,
        second,
        None if safe is None else tuple(safe),
        tuple(tuple(c) for c in body["census"]),
    )


def _lost(plan: Strategy, size: PlanSize) -> int:
    """How many outcomes a best plan loses: the stored rank tells all but how many a
    mixed plan loses, for which the plan is walked."""
    if size.lossiness == 1:
        return plan.losses
    return 0 if size.lossiness == 0 else size.outcomes


def outcomes_of(census: Census) -> dict[str, int]:
    """Reachable positions by outcome for the player to move, in outcome-code order."""
    counts = [0] * len(VALUE_NAMES)
    for _level, outcome, _positions, reachable in census:
        counts[VALUE_NAMES.index(outcome)] += reachable
    return {VALUE_NAMES[code]: n for code, n in enumerate(counts) if n}


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
