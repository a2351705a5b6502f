"""Kept answers: whole-solution questions worked out once and read back ever after.

A report's figures, each player's plan from the start, every opening's plans, and two
solutions compared take seconds to work out on a large solution (a scan of millions of
rows, or a walk of thousands), and their answers never change while the solution stands.
So each is stored as JSON in ``kept_answers``, keyed by the ids of the solutions it was
worked out from, and every later request reads one row.

* A solve job keeps its solution's answers as soon as it has published it
  (`ghostdb.store.answers.keeping.keep_solution`).  A solution published before revision
  0011, or whose keeping was interrupted, gets each answer on its first request from a store that
  may write; a reader that may not (the web server) gets NotWorkedOut naming the command
  that works it out, as decisive words do.
* Solution ids are never reused, so an answer can never be read for a solution it was
  not worked out from; its rows are deleted with the solutions they came from
  (`ghostdb.store.sql.queries.delete_decisive`), and an answer worked out while its
  solution was being replaced is returned but not kept.
* `ghostdb.store.verification.kept` works every kept answer out again and compares.

This module holds the questions' names, the table's reads and writes and the JSON form
of a solution's summary (a plan reads its own back: `Strategy.from_dict`); how each
question is worked out is `census`', `plans`' and `comparing`'s, and `keeping` keeps
them at publish.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import and_, delete, insert, or_, select

from ghostdb.errors import NotWorkedOut
from ghostdb.store.sql.db import serialise, writing
from ghostdb.store.sql.queries import job_status, now
from ghostdb.store.sql.schema import kept_answers
from ghostdb.values import Outcome

if TYPE_CHECKING:
    from sqlalchemy.engine import Connection, Engine

    from ghostdb.records import SolutionSummary
    from ghostdb.store.answers.handle import Handle
    from ghostdb.strategies import PlanSize


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


@dataclass(frozen=True)
class Key:
    """What an answer is about: a solution, a question, and for a question about two
    solutions the other one (0 for none)."""

    solution_id: int
    question: str
    other_id: int = 0

    def where(self) -> list[Any]:
        return [
            kept_answers.c.solution_id == self.solution_id,
            kept_answers.c.other_id == self.other_id,
            kept_answers.c.question == self.question,
        ]


def read(conn: Connection, key: Key) -> Any | None:
    """The kept answer's body, or None."""
    body = read_text(conn, key)
    return None if body is None else json.loads(body)


def read_text(conn: Connection, key: Key) -> str | None:
    """The kept answer's body as its JSON text (what a server can send as it is)."""
    return conn.execute(select(kept_answers.c.body).where(*key.where())).scalar()


def read_many(conn: Connection, solution_ids: list[int], question: str) -> dict[int, Any]:
    """The kept answers to one question about each of several solutions (alone), by id."""
    if not solution_ids:
        return {}
    stmt = select(kept_answers.c.solution_id, kept_answers.c.body).where(
        kept_answers.c.solution_id.in_(solution_ids),
        kept_answers.c.other_id == 0,
        kept_answers.c.question == question,
    )
    return {sid: json.loads(body) for sid, body in conn.execute(stmt).all()}


def keep(engine: Engine, answers: dict[Key, tuple[Any, float]]) -> int:
    """Store answers (each key with its body and the seconds it took) in one transaction,
    replacing any kept under the same key; an answer about a solution that is no longer
    the published one is dropped (it was worked out while that solution was replaced).
    Returns how many were kept."""
    kept = 0
    with writing(engine) as conn:
        serialise(conn, kept_answers)
        published: dict[int, bool] = {}
        for key, (body, seconds) in answers.items():
            ids = (key.solution_id, key.other_id) if key.other_id else (key.solution_id,)
            for sid in ids:
                if sid not in published:
                    published[sid] = job_status(conn, sid) == "complete"
            if not all(published[sid] for sid in ids):
                continue
            conn.execute(delete(kept_answers).where(*key.where()))
            conn.execute(
                insert(kept_answers).values(
                    solution_id=key.solution_id,
                    other_id=key.other_id,
                    question=key.question,
                    body=encode(body),
                    seconds=seconds,
                    worked_out_at=now(),
                )
            )
            kept += 1
    return kept


def answer(
    engine: Engine,
    key: Key,
    work_out: Callable[[], Any],
    *,
    compute: bool,
    what: str,
    command: str,
) -> Any:
    """The answer kept under ``key``; if none, worked out (``work_out()``, a body) and kept
    when ``compute``, else NotWorkedOut saying that ``what`` is not worked out yet and
    that ``command`` works it out."""
    with engine.connect() as conn:
        found = read(conn, key)
    if found is not None:
        return found
    if not compute:
        raise not_worked_out(what, command)
    started = time.perf_counter()
    body = work_out()
    keep(engine, {key: (body, time.perf_counter() - started)})
    return body


def answer_text(engine: Engine, key: Key, *, what: str, command: str) -> str:
    """The answer kept under ``key`` as its JSON text, for a reader that sends it as it is
    (the web server); NotWorkedOut (naming ``command``) when it is not kept."""
    with engine.connect() as conn:
        found = read_text(conn, key)
    if found is None:
        raise not_worked_out(what, command)
    return found


def not_worked_out(what: str, command: str) -> NotWorkedOut:
    return NotWorkedOut(f"{what} is not worked out yet: run `{command}` to work it out and keep it")


def stored(
    conn: Connection, solution_id: int, checked: Collection[int] = ()
) -> list[tuple[Key, Any]]:
    """Every answer kept about a solution, alone or as either of two (for `verify`); a
    comparison whose first solution is in ``checked`` is left to that solution's check."""
    return [(key, json.loads(text)) for key, text in stored_texts(conn, solution_id, checked)]


def stored_texts(
    conn: Connection, solution_id: int, checked: Collection[int] = ()
) -> list[tuple[Key, str]]:
    """`stored`, each body as its JSON text: a big answer (an Anagram Ghost's openings:
    megabytes of JSON, ten times that as Python objects) is read when it is compared."""
    c = kept_answers.c
    stmt = (
        select(c.solution_id, c.other_id, c.question, c.body)
        .where(
            or_(
                c.solution_id == solution_id,
                and_(c.other_id == solution_id, c.solution_id.not_in(list(checked) or [-1])),
            )
        )
        .order_by(c.solution_id, c.other_id, c.question)
    )
    return [
        (Key(first, question, other), body)
        for first, other, question, body in conn.execute(stmt).all()
    ]


def encode(body: Any) -> str:
    """An answer's JSON, compact and in one form (what verify compares)."""
    return json.dumps(body, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def same(a: Any, b: Any) -> bool:
    """Two bodies are the same answer (compared as stored: tuples become lists)."""
    return encode(a) == encode(b)


def same_as_kept(text: str, fresh: Any) -> bool:
    """Whether ``fresh`` is the answer kept as ``text``: the text itself where it is kept
    as `encode` writes it, else read and written again (a database may hand back JSON in
    a form of its own)."""
    written = encode(fresh)
    return written == text or written == encode(json.loads(text))


# -- the JSON form of a solution's summary ------------------------------------------------------


def summary_body(s: SolutionSummary) -> dict[str, Any]:
    return s.as_dict()


def summary_from(body: dict[str, Any]) -> SolutionSummary:
    from ghostdb.records import SolutionSummary

    plans = body["plans"]
    return SolutionSummary(
        dictionary=body["dictionary"],
        rules=body["rules"],
        word_count=body["words"],
        fragment_count=body["fragments"],
        reachable_count=body["reachable"],
        outcome=Outcome(body["outcome"]),
        winner=body["winner"],
        winning_first_moves=tuple(body["winning_first_moves"]),
        game_length=body["game_length"],
        plans=None if plans is None else (_plan_size(plans[0]), _plan_size(plans[1])),
    )


def _plan_size(body: dict[str, int]) -> PlanSize:
    from ghostdb.strategies import PlanSize

    return PlanSize(body["lossiness"], body["outcomes"], body["letters"])
