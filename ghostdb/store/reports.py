"""Summaries across solutions: one solution's headline figures, two side by side, every
rule set of a name, and every dictionary of the store (the survey).

Read from the stored rows, through the solution handles for anything a position or a
plan answers; the SQL that counts and compares whole solutions is here.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from sqlalchemy import and_, case, func, select
from sqlalchemy.engine import Connection, Row

from ghostdb.errors import BadMove, NotSolved
from ghostdb.games import registry as g
from ghostdb.games.base import VALUE_NAMES
from ghostdb.store import queries as q
from ghostdb.store.lookups import checked_rules, solution_row, subject
from ghostdb.store.schema import positions, words
from ghostdb.store.walks import missing_plans, plan_sizes
from ghostdb.values import Outcome

if TYPE_CHECKING:
    from ghostdb.games.base import RuleSet
    from ghostdb.reports import Comparison, PlanSize, SolutionSummary, SurveyRow
    from ghostdb.store.solution import Solution
    from ghostdb.store.store import Store
    from ghostdb.strategies import ReportRow


def summary(solution: Solution) -> tuple[SolutionSummary, Any]:
    """The headline figures of a solution, and the solution row they came from."""
    from ghostdb.reports import SolutionSummary

    start = solution.openings()
    sizes = None
    with solution.engine.connect() as conn:
        row = solution_row(conn, solution.name, solution.rules)
        if solution.game.keeps_plans:
            sizes = plan_sizes(conn, row.id, solution.game, start) if row.has_plans else None
            if sizes is None:
                raise missing_plans(solution.name, solution.rules)
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
    return found, row


def compare(
    store: Store, a: str, b: str, rules: RuleSet | None, vs_rules: RuleSet | None, examples: int
) -> Comparison:
    """See `Store.compare`."""
    from ghostdb.reports import Comparison, Disagreement

    rules = checked_rules(a, rules)
    vs_rules = checked_rules(b, vs_rules or rules)
    if (a, rules) == (b, vs_rules):
        options = g.played_as(a).options
        other = (
            f"other rules with {', '.join('--vs-' + o.flag.removeprefix('--') for o in options)}"
            if options
            else f"{a} has one rule set"
        )
        raise BadMove(f"nothing to compare: give a second name, or {other}")
    left_solution, right_solution = store.solution(a, rules), store.solution(b, vs_rules)
    left, sa = summary(left_solution)
    right, sb = summary(right_solution)
    only = {"a": (0, ()), "b": (0, ())}
    with store.engine.connect() as conn:
        common, different, different_reachable = outcome_agreement(conn, sa.id, sb.id)
        shown = outcome_disagreements(conn, sa.id, sb.id, examples)
        if left_solution.game.word_game and right_solution.game.word_game:
            da, db = sa.dictionary_id, sb.dictionary_id
            ma, mb = left_solution.rules.min_length, right_solution.rules.min_length
            only = {
                "a": (
                    count_words_lacking(conn, da, ma, db, mb),
                    tuple(words_lacking(conn, da, ma, db, mb, examples)),
                ),
                "b": (
                    count_words_lacking(conn, db, mb, da, ma),
                    tuple(words_lacking(conn, db, mb, da, ma, examples)),
                ),
            }
    return Comparison(
        a=left,
        b=right,
        common_fragments=common,
        different_outcomes=different,
        different_reachable=different_reachable,
        examples=tuple(
            Disagreement(r[0], (Outcome(VALUE_NAMES[r[1]]), Outcome(VALUE_NAMES[r[2]])))
            for r in shown
        ),
        only_a=only["a"][0],
        only_a_examples=only["a"][1],
        only_b=only["b"][0],
        only_b_examples=only["b"][1],
    )


def report(store: Store, name: str) -> list[ReportRow]:
    """See `Store.report`."""
    from ghostdb.strategies import ReportRow

    with store.engine.connect() as conn:
        rows = q.published_solutions(conn, *subject(conn, name))
        counts = {row.id: outcome_counts(conn, row.id) for row in rows}
    found = []
    for row in rows:
        solution = store.solution(name, g.parse_rules(row.rules))
        start = solution.openings()
        first = second = None
        if solution.game.keeps_plans:
            first, second = solution.strategy(0), solution.strategy(1)
        found.append(
            ReportRow(
                solution.rules,
                row.fragment_count,
                start.outcome,
                start.winner,
                start.game_length,
                counts[row.id],
                first,
                second,
                start.safe_seats,
            )
        )
    return found


def survey(store: Store) -> list[SurveyRow]:
    """See `Store.survey`."""
    from ghostdb.reports import SurveyRow

    with store.engine.connect() as conn:
        stored = {d.name: json.loads(d.report) for d in q.all_dictionaries(conn)}
        published = q.all_published(conn)
    if not stored:
        raise NotSolved(
            "no dictionaries are stored: add one with `ghostdb ingest PATH` and solve it "
            "with `ghostdb solve NAME`"
        )
    found = []
    for row in published:
        if row.dictionary_id is None:
            continue
        solution = store.solution(row.name, g.parse_rules(row.rules))
        if not solution.game.keeps_plans:  # many players: no single winner (see `report`)
            continue
        figures = solution.summary()
        assert figures.plans is not None  # games that keep plans have them
        options = stored[row.name].get("options")
        found.append(
            SurveyRow(
                language=(options or {}).get("language") or "",
                options=options,
                summary=figures,
                lost=(_lost(solution, 0, figures.plans[0]), _lost(solution, 1, figures.plans[1])),
                unit=solution.game.plan_unit,
            )
        )
    if not found:
        raise NotSolved(
            "no dictionary is solved for two-player Ghost: run `ghostdb solve NAME` "
            "(`ghostdb dictionaries` lists them)"
        )
    return sorted(found, key=_survey_order)


def _lost(solution: Solution, player: int, size: PlanSize) -> int:
    """How many outcomes ``player``'s best plan loses: the stored rank tells all but how
    many a mixed plan loses, for which the plan is walked."""
    if size.lossiness == 1:
        return solution.strategy(player).losses
    return 0 if size.lossiness == 0 else size.outcomes


def _survey_order(row: SurveyRow) -> tuple[Any, ...]:
    """Tagged languages first, by language, dictionary, then the rule options in the
    order the game declares them."""
    rules = g.parse_rules(row.rules)
    options = g.game_named(rules.game).options
    values = tuple(
        getattr(getattr(rules, o.name), "value", getattr(rules, o.name)) for o in options
    )
    return (not row.language, row.language, row.dictionary, *values)


def catalogue(store: Store) -> list[dict[str, Any]]:
    """See `Store.catalogue`."""
    with store.engine.connect() as conn:
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


def outcome_counts(conn: Connection, solution_id: int) -> dict[str, int]:
    """How many reachable positions have each outcome (for the player to move)."""
    stmt = (
        select(positions.c.outcome, func.count())
        .where(positions.c.solution_id == solution_id, positions.c.reachable.is_(True))
        .group_by(positions.c.outcome)
    )
    return {VALUE_NAMES[code]: int(n) for code, n in conn.execute(stmt).all()}


def _both(a_id: int, b_id: int) -> tuple[Any, Any, Any]:
    """Positions of solution ``a_id`` joined with the same fragment in ``b_id``."""
    a, b = positions.alias("a"), positions.alias("b")
    joined = a.join(
        b,
        and_(b.c.solution_id == b_id, b.c.level == a.c.level, b.c.fragment == a.c.fragment),
    )
    return a, b, joined


def outcome_agreement(conn: Connection, a_id: int, b_id: int) -> tuple[int, int, int]:
    """(fragments in both, of them with different outcomes, of those reachable in both)."""
    a, b, joined = _both(a_id, b_id)
    differs = a.c.outcome != b.c.outcome
    reachable = and_(differs, a.c.reachable.is_(True), b.c.reachable.is_(True))
    stmt = (
        select(
            func.count(),
            func.coalesce(func.sum(case((differs, 1), else_=0)), 0),
            func.coalesce(func.sum(case((reachable, 1), else_=0)), 0),
        )
        .select_from(joined)
        .where(a.c.solution_id == a_id)
    )
    common, different, different_reachable = conn.execute(stmt).one()
    return int(common), int(different), int(different_reachable)


def outcome_disagreements(conn: Connection, a_id: int, b_id: int, limit: int) -> Sequence[Row[Any]]:
    """The shortest fragments stored in both with different outcomes: (fragment, a, b)."""
    a, b, joined = _both(a_id, b_id)
    stmt = (
        select(a.c.fragment, a.c.outcome, b.c.outcome.label("b_outcome"))
        .select_from(joined)
        .where(a.c.solution_id == a_id, a.c.outcome != b.c.outcome)
        .order_by(a.c.level, a.c.fragment)
        .limit(limit)
    )
    return conn.execute(stmt).all()


def _words_lacking(a_dict: int, a_min: int, b_dict: int, b_min: int) -> Any:
    """The game words of dictionary ``a_dict`` that are not game words of ``b_dict``."""
    w, v = words.alias("w"), words.alias("v")
    other = select(v.c.word).where(
        v.c.dictionary_id == b_dict, v.c.word == w.c.word, func.length(v.c.word) >= b_min
    )
    return (
        w,
        and_(w.c.dictionary_id == a_dict, func.length(w.c.word) >= a_min, ~other.exists()),
    )


def count_words_lacking(conn: Connection, a_dict: int, a_min: int, b_dict: int, b_min: int) -> int:
    w, where = _words_lacking(a_dict, a_min, b_dict, b_min)
    return conn.execute(select(func.count()).select_from(w).where(where)).scalar_one()


def words_lacking(
    conn: Connection, a_dict: int, a_min: int, b_dict: int, b_min: int, limit: int
) -> list[str]:
    w, where = _words_lacking(a_dict, a_min, b_dict, b_min)
    stmt = select(w.c.word).where(where).order_by(w.c.word).limit(limit)
    return list(conn.execute(stmt).scalars())
