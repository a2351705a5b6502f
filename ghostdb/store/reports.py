"""Summaries across solutions: one solution's headline figures, every rule set of a name,
and every dictionary of the store (the survey); two side by side are
`ghostdb.store.comparing`'s.

These are the whole-solution questions, and each is kept (`ghostdb.store.kept`): a
solution's figures, its plans from the start, its openings' plans and its puzzles are
kept when it is published (`keep_solution`); every later request reads them back.  The
SQL that counts a whole solution is here; plans are walked through the solution handles.

``compute`` (None: whether the store may write) says what to do when an answer is not
kept yet: work it out and keep it, or raise NotWorkedOut naming the command that does.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from sqlalchemy import case, func, select
from sqlalchemy.engine import Connection

from ghostdb.errors import BadMove, NotSolved
from ghostdb.games import registry as g
from ghostdb.games.base import VALUE_NAMES
from ghostdb.store import kept
from ghostdb.store import queries as q
from ghostdb.store.kept import Key
from ghostdb.store.lookups import subject
from ghostdb.store.schema import positions
from ghostdb.store.walks import missing_plans, plan_sizes

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine

    from ghostdb.games.base import RuleSet
    from ghostdb.reports import PlanSize, SolutionSummary, SurveyRow
    from ghostdb.store.handle import Handle, Opener
    from ghostdb.strategies import OpeningPlans, ReportRow, Strategy

H = TypeVar("H", bound="Handle")  # a handle, or the `Solution` the façade hands out

SUMMARY, OPENINGS, COMPARE = "summary", "openings", "compare"
"""The questions kept (with ``plan/0`` and ``plan/1``, see `plan_question`)."""

KEPT_EXAMPLES = 100
"""A comparison keeps at least this many examples of each difference (the API's most)."""

Census = list[list[Any]]
"""Positions by level and outcome: [level, outcome, positions, of them reachable], in
level then outcome-code order."""


def plan_question(player: int) -> str:
    return f"plan/{player}"


def may_compute(solution: Handle, compute: bool | None) -> bool:
    return solution.writable if compute is None else compute


def _report_command(solution: Handle) -> str:
    return f"ghostdb report {solution.name}"


# -- one solution ------------------------------------------------------------------------------


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
    from ghostdb.reports import SolutionSummary

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
    from ghostdb.strategies import ReportRow

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


def start_plan(
    solution: Handle, player: int | None = None, compute: bool | None = None
) -> Strategy:
    """``player``'s (by default the winner's) best plan from the start (kept)."""
    from ghostdb.store import walks

    player = _strategist(solution, player)
    body = kept.answer(
        solution.engine,
        Key(solution.id, plan_question(player)),
        lambda: kept.strategy_body(walks.strategy(solution, player, "")),
        compute=may_compute(solution, compute),
        **_plan_words(solution, player),
    )
    return kept.strategy_from(body, solution.rules)


def start_plan_text(solution: Handle, player: int | None = None) -> str:
    """The kept plan from the start as the API's JSON text (`Strategy.as_dict`), read
    only: NotWorkedOut when it is not kept."""
    player = _strategist(solution, player)
    key = Key(solution.id, plan_question(player))
    return kept.answer_text(solution.engine, key, **_plan_words(solution, player))


def _strategist(solution: Handle, player: int | None) -> int:
    """The player whose plan is asked for: by default the winner from the start."""
    solution.require_plans("plans to memorise")
    if player is None:
        player = solution.openings().winner
    if player not in (0, 1):
        raise BadMove(f"a plan is for player 0 or 1, not {player!r}")
    return player


def _plan_words(solution: Handle, player: int) -> dict[str, str]:
    """What a kept plan is called, and the command that works it out."""
    name, rules = solution.name, solution.rules
    return {
        "what": f"player {player}'s plan for {name} under {rules.key}",
        "command": f"ghostdb strategy {name}{rules.flags()} --player {player}",
    }


def opening_plans(solution: Handle, compute: bool | None = None) -> list[OpeningPlans]:
    """For every first move, the winning plan of the player who wins from there (kept)."""
    from ghostdb.strategies import OpeningPlans

    body = _openings(solution, compute)
    found = []
    for move, fragment, winner, plan in body:
        strategy = kept.strategy_from(plan, solution.rules)
        pair = (strategy, None) if winner == 0 else (None, strategy)
        found.append(OpeningPlans(move, fragment, pair))
    return found


def opening_plan_dicts(solution: Handle, compute: bool | None = False) -> list[dict[str, Any]]:
    """The kept openings' plans as the API answers them (``openings --words --json``),
    made from the kept JSON without building a tree (read only unless ``compute``, as
    `opening_plans`)."""
    found = []
    for move, fragment, winner, plan in _openings(solution, compute):
        endings = plan["endings"]
        found.append(
            {
                "move": move,
                "fragment": fragment,
                "player_0": endings if winner == 0 else None,
                "player_1": endings if winner == 1 else None,
            }
        )
    return found


def _openings(solution: Handle, compute: bool | None) -> list[list[Any]]:
    solution.require_plans("plans to memorise")
    return kept.answer(
        solution.engine,
        Key(solution.id, OPENINGS),
        lambda: work_out_openings(solution),
        compute=may_compute(solution, compute),
        what=f"the plan after each opening of {solution.name} under {solution.rules.key}",
        command=f"ghostdb openings {solution.name}{solution.rules.flags()} --words",
    )


def work_out_openings(solution: Handle) -> list[list[Any]]:
    """Each first move with its winner's plan from there, walked."""
    from ghostdb.store import walks

    found = []
    for play in solution.openings().plays:
        winner = 0 if play.wins else 1
        plan = walks.strategy(solution, winner, play.fragment)
        found.append([play.move, play.fragment, winner, kept.strategy_body(plan)])
    return found


def keep_solution(
    solution: Handle,
    census: Census | None = None,
    puzzles: tuple[dict[str, Any], float] | None = None,
) -> float:
    """Work out every answer kept about one solution and keep them in one transaction
    (a solve job calls this as soon as it has published, with the census and puzzles it
    found over its arrays, and the seconds they took); returns the seconds taken."""
    from ghostdb.store.puzzles import PUZZLES

    started = time.perf_counter()
    answers: dict[Key, tuple[Any, float]] = {}
    if puzzles is not None:
        answers[Key(solution.id, PUZZLES)] = puzzles
    plans = None
    if solution.game.keeps_plans:
        from ghostdb.store import walks

        plans = []
        for player in (0, 1):
            t = time.perf_counter()
            plans.append(walks.strategy(solution, player, ""))
            body = kept.strategy_body(plans[-1])
            answers[Key(solution.id, plan_question(player))] = (body, time.perf_counter() - t)
        t = time.perf_counter()
        answers[Key(solution.id, OPENINGS)] = (
            work_out_openings(solution),
            time.perf_counter() - t,
        )
    t = time.perf_counter()
    body = work_out_figures(solution, census, plans)
    answers[Key(solution.id, SUMMARY)] = (body, time.perf_counter() - t)
    kept.keep(solution.engine, answers)
    return time.perf_counter() - started


def work_out(solution: Handle, question: str) -> Any:
    """Work out a kept question about one solution again, from its positions (`verify`)."""
    from ghostdb.store import walks

    if question == SUMMARY:
        return work_out_figures(solution)
    if question == OPENINGS:
        return work_out_openings(solution)
    if question.startswith("plan/"):
        return kept.strategy_body(walks.strategy(solution, int(question[5:]), ""))
    raise BadMove(f"{question!r} is not a question kept about one solution")


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


# -- every rule set of a name, every dictionary ------------------------------------------------


def report(
    engine: Engine, open_solution: Opener, name: str, compute: bool | None = None
) -> list[ReportRow]:
    """See `Store.report`."""
    found = []
    for solution in published(engine, open_solution, name):
        body = figures(solution, compute)
        first = second = None
        if solution.game.keeps_plans:
            first, second = (start_plan(solution, p, compute) for p in (0, 1))
        found.append(report_row(solution, body, first, second))
    return found


def report_dicts(solutions: Sequence[Handle]) -> list[dict[str, Any]]:
    """The report's rows of these solutions (`published`) as the API answers them
    (``report --json``), read only from the kept figures (NotWorkedOut when one is not
    kept)."""
    return [figures(solution, False)["report"] for solution in solutions]


def published(engine: Engine, open_solution: Callable[[str, RuleSet], H], name: str) -> list[H]:
    """A handle on every published solution of ``name``, in the order they were solved."""
    with engine.connect() as conn:
        rows = q.published_solutions(conn, *subject(conn, name))
    found = []
    for row in rows:
        solution = open_solution(name, g.parse_rules(row.rules))
        if solution.id != row.id:  # published again since the handle was made
            solution.refresh()
        found.append(solution)
    return found


def survey(engine: Engine, open_solution: Opener, compute: bool | None = None) -> list[SurveyRow]:
    """See `Store.survey`: read from the kept figures of every solution, in one query
    when all are kept."""
    from ghostdb.reports import SurveyRow

    with engine.connect() as conn:
        stored = {d.name: json.loads(d.report) for d in q.all_dictionaries(conn)}
        published = [
            (row, g.parse_rules(row.rules))
            for row in q.all_published(conn)
            if row.dictionary_id is not None
        ]
        # Many players: no single winner (see `report`).
        published = [(row, rules) for row, rules in published if g.game_of(rules).keeps_plans]
        bodies = kept.read_many(conn, [row.id for row, _ in published], SUMMARY)
    if not stored:
        raise NotSolved(
            "no dictionaries are stored: add one with `ghostdb ingest PATH` and solve it "
            "with `ghostdb solve NAME`"
        )
    found = []
    for row, rules in published:
        body = bodies.get(row.id)
        if body is None:
            body = figures(open_solution(row.name, rules), compute)
        options = stored[row.name].get("options")
        found.append(
            SurveyRow(
                language=(options or {}).get("language") or "",
                options=options,
                summary=kept.summary_from(body["summary"]),
                lost=tuple(body["lost"]),
                unit=g.game_of(rules).plan_unit,
            )
        )
    if not found:
        raise NotSolved(
            "no dictionary is solved for two-player Ghost: run `ghostdb solve NAME` "
            "(`ghostdb dictionaries` lists them)"
        )
    return sorted(found, key=_survey_order)


def _survey_order(row: SurveyRow) -> tuple[Any, ...]:
    """Tagged languages first, by language, dictionary, then the rule options in the
    order the game declares them."""
    rules = g.parse_rules(row.rules)
    options = g.game_named(rules.game).options
    values = tuple(
        getattr(getattr(rules, o.name), "value", getattr(rules, o.name)) for o in options
    )
    return (not row.language, row.language, row.dictionary, *values)


def catalogue(engine: Engine) -> list[dict[str, Any]]:
    """See `Store.catalogue`."""
    with engine.connect() as conn:
        published = q.all_published(conn)
        dictionaries = q.all_dictionaries(conn)
    word_game = g.WORD_GAME.name
    by_name: dict[str, dict[str, Any]] = {}
    for d in dictionaries:
        by_name[d.name] = {"name": d.name, "game": word_game, "words": d.word_count, "rules": []}
    for r in published:
        entry = by_name.setdefault(
            r.name, {"name": r.name, "game": r.game, "words": None, "rules": []}
        )
        entry["rules"].append(r.rules)
    return [by_name[k] for k in sorted(by_name)]


# -- SQL -----------------------------------------------------------------------------------


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
