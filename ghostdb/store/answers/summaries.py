"""Summaries across solutions: every published rule set of a name (`report`), every
dictionary of the store (`survey`) and the catalogue the page starts from.  One
solution's figures are `ghostdb.store.answers.figures`'s; two side by side,
`ghostdb.store.answers.comparing`'s.

Each row is a solution's kept figures (`ghostdb.store.answers.kept`), read back.
``compute`` (None: whether the store may write) says what to do when an answer is not
kept yet: work it out and keep it, or raise NotWorkedOut naming the command that does.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from ghostdb.errors import NotSolved
from ghostdb.games import registry as g
from ghostdb.store.answers import kept
from ghostdb.store.answers.dictionaries import subject
from ghostdb.store.answers.figures import figures
from ghostdb.store.answers.kept import (
    SUMMARY,
)
from ghostdb.store.answers.plans import start_plan
from ghostdb.store.answers.report_rows import report_row
from ghostdb.store.sql import queries as q

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine

    from ghostdb.games.base import RuleSet
    from ghostdb.records import ReportRow, SurveyRow
    from ghostdb.store.answers.handle import Handle, Opener

H = TypeVar("H", bound="Handle")  # a handle, or the `Solution` the façade hands out

# -- one solution ------------------------------------------------------------------------------


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
    from ghostdb.records import SurveyRow

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
