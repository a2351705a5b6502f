"""Two solutions side by side (`ghostdb compare`), and every kept answer checked against
its positions (`verify`): a comparison is kept on its first request (`ghostdb.store.answers.kept`)
and read back after, so its SQL — joins over two solutions' positions and words — runs
once.  One solution's figures, a name's report and the survey are
`ghostdb.store.answers.summaries`'.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from sqlalchemy import and_, case, func, select
from sqlalchemy.engine import Connection, Row

from ghostdb.errors import BadMove, NotWorkedOut
from ghostdb.games import registry as g
from ghostdb.games.base import VALUE_NAMES
from ghostdb.store.answers import kept
from ghostdb.store.answers.census import published_row
from ghostdb.store.answers.figures import figures
from ghostdb.store.answers.kept import COMPARE, KEPT_EXAMPLES, Key, may_compute
from ghostdb.store.answers.lookups import checked_rules
from ghostdb.store.sql.schema import positions, words
from ghostdb.values import Outcome

if TYPE_CHECKING:
    from ghostdb.games.base import RuleSet
    from ghostdb.records import Comparison
    from ghostdb.store.answers.handle import Handle, Opener


# -- two solutions -----------------------------------------------------------------------------


def compare(
    open_solution: Opener,
    a: str,
    b: str,
    rules: RuleSet | str | None,
    vs_rules: RuleSet | str | None,
    examples: int,
    compute: bool | None = None,
) -> Comparison:
    """See `Store.compare`."""
    from ghostdb.records import Comparison, Disagreement

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
    left, right = open_solution(a, rules), open_solution(b, vs_rules)
    body = _pair(left, right, examples, may_compute(left, compute))
    kept_a, kept_b = figures(left, compute), figures(right, compute)
    return Comparison(
        a=kept.summary_from(kept_a["summary"]),
        b=kept.summary_from(kept_b["summary"]),
        lost=(_pair_of(kept_a["lost"]), _pair_of(kept_b["lost"])),
        common_fragments=body["common"],
        different_outcomes=body["different"],
        different_reachable=body["different_reachable"],
        examples=tuple(
            Disagreement(f, (Outcome(x), Outcome(y))) for f, x, y in body["examples"][:examples]
        ),
        only_a=body["only_a"],
        only_a_examples=tuple(body["only_a_examples"][:examples]),
        only_b=body["only_b"],
        only_b_examples=tuple(body["only_b_examples"][:examples]),
    )


def _pair_of(lost: list[int] | None) -> tuple[int, int] | None:
    return None if lost is None else (lost[0], lost[1])


def _pair(left: Handle, right: Handle, examples: int, compute: bool) -> dict[str, Any]:
    """The kept comparison of two solutions with at least ``examples`` examples of each
    difference (one kept the other way round serves, its sides swapped)."""
    with left.engine.connect() as conn:
        found = kept.read(conn, Key(left.id, COMPARE, right.id))
        if found is None:
            found = kept.read(conn, Key(right.id, COMPARE, left.id))
            found = None if found is None else _swapped(found)
    if found is not None and _enough(found, examples):
        return found
    if not compute:
        raise NotWorkedOut(
            f"the comparison of {left.name} ({left.rules.key}) with {right.name} "
            f"({right.rules.key}) is not worked out yet: run `{compare_command(left, right)}` "
            "to work it out and keep it"
        )
    started = time.perf_counter()
    body = work_out_pair(left, right, max(examples, KEPT_EXAMPLES))
    kept.keep(left.engine, {Key(left.id, COMPARE, right.id): (body, time.perf_counter() - started)})
    return body


def compare_command(left: Handle, right: Handle) -> str:
    """The command that compares two solutions: the second side's rule options as
    ``--vs-…`` where they differ from the first's (as `ghostdb compare` reads them)."""
    words = ["ghostdb compare", left.name]
    if right.name != left.name:
        words.append(right.name)
    words.append(left.rules.flags().strip())
    for option in g.played_as(left.name).options:
        mine, theirs = getattr(left.rules, option.name), getattr(right.rules, option.name)
        if getattr(mine, "value", mine) == getattr(theirs, "value", theirs):
            continue
        words.append("--vs-" + option.flag_selecting(theirs).removeprefix("--"))
    return " ".join(w for w in words if w)


def _enough(body: dict[str, Any], examples: int) -> bool:
    """Whether a kept comparison holds ``examples`` examples of each difference (or
    every one there is)."""
    limit = body["limit"]
    return examples <= limit or all(
        len(body[k]) < limit for k in ("examples", "only_a_examples", "only_b_examples")
    )


def _swapped(body: dict[str, Any]) -> dict[str, Any]:
    """A comparison of b with a, as one of a with b."""
    return {
        **body,
        "examples": [[f, y, x] for f, x, y in body["examples"]],
        "only_a": body["only_b"],
        "only_a_examples": body["only_b_examples"],
        "only_b": body["only_a"],
        "only_b_examples": body["only_a_examples"],
    }


def work_out_pair(left: Handle, right: Handle, limit: int) -> dict[str, Any]:
    """Compare two solutions row by row (joins over their positions and words), keeping
    ``limit`` examples of each difference."""
    with left.engine.connect() as conn:
        sa, sb = published_row(conn, left), published_row(conn, right)
        common, different, different_reachable = outcome_agreement(conn, sa.id, sb.id)
        shown = outcome_disagreements(conn, sa.id, sb.id, limit)
        body: dict[str, Any] = {
            "limit": limit,
            "common": common,
            "different": different,
            "different_reachable": different_reachable,
            "examples": [[r[0], VALUE_NAMES[r[1]], VALUE_NAMES[r[2]]] for r in shown],
            "only_a": 0,
            "only_a_examples": [],
            "only_b": 0,
            "only_b_examples": [],
        }
        if left.game.word_game and right.game.word_game:
            da, db = sa.dictionary_id, sb.dictionary_id
            ma, mb = left.rules.min_length, right.rules.min_length
            body["only_a"] = count_words_lacking(conn, da, ma, db, mb)
            body["only_a_examples"] = words_lacking(conn, da, ma, db, mb, limit)
            body["only_b"] = count_words_lacking(conn, db, mb, da, ma)
            body["only_b_examples"] = words_lacking(conn, db, mb, da, ma, limit)
    return body


# -- SQL ---------------------------------------------------------------------------------------


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
