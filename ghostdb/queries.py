"""All of ghostdb's SQL, as SQLAlchemy Core statements over `ghostdb.schema`.

Every statement runs on SQLite and PostgreSQL: no dialect-only syntax, parameters always
bound.  Functions take an open `Connection` and leave transactions to the caller.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    Row,
    and_,
    bindparam,
    delete,
    func,
    insert,
    literal_column,
    select,
    update,
)
from sqlalchemy.engine import Connection
from sqlalchemy.sql import Select

from ghostdb.rules import Rules
from ghostdb.schema import dictionaries, plans, positions, solutions, words

# The status is written into the SQL, not bound: a bound value compared with the column
# of a partial index makes SQLite prepare the statement again on every execution.
PUBLISHED = solutions.c.status == literal_column("'complete'")

# -- dictionaries ----------------------------------------------------------------------------


def dictionary_by_name(conn: Connection, name: str) -> Row[Any] | None:
    return conn.execute(select(dictionaries).where(dictionaries.c.name == name)).first()


def dictionary_by_sha(conn: Connection, sha256: str) -> Row[Any] | None:
    return conn.execute(select(dictionaries).where(dictionaries.c.sha256 == sha256)).first()


def all_dictionaries(conn: Connection) -> Sequence[Row[Any]]:
    return conn.execute(select(dictionaries).order_by(dictionaries.c.name)).all()


def insert_dictionary(conn: Connection, **values: Any) -> int:
    return conn.execute(insert(dictionaries).values(**values)).inserted_primary_key[0]


def update_dictionary(conn: Connection, dictionary_id: int, **values: Any) -> None:
    conn.execute(update(dictionaries).where(dictionaries.c.id == dictionary_id).values(**values))


def clear_dictionary(conn: Connection, dictionary_id: int) -> None:
    """Delete a dictionary's words and solutions with their positions and plans."""
    ids = select(solutions.c.id).where(solutions.c.dictionary_id == dictionary_id)
    conn.execute(delete(plans).where(plans.c.solution_id.in_(ids)))
    conn.execute(delete(positions).where(positions.c.solution_id.in_(ids)))
    conn.execute(delete(solutions).where(solutions.c.dictionary_id == dictionary_id))
    conn.execute(delete(words).where(words.c.dictionary_id == dictionary_id))


def dictionary_words(conn: Connection, dictionary_id: int, min_length: int = 1) -> list[str]:
    """The words of a dictionary with at least ``min_length`` letters, sorted."""
    stmt = (
        select(words.c.word)
        .where(words.c.dictionary_id == dictionary_id, func.length(words.c.word) >= min_length)
        .order_by(words.c.word)
    )
    # Straight from the driver: SQLAlchemy's per-row work would triple the time.
    query = FastQuery(stmt, conn.dialect)
    rows = query.run(conn.connection.driver_connection, {})
    return [r[0] for r in rows]


# -- bulk writes -----------------------------------------------------------------------------


def bulk_insert(
    conn: Connection, table: Any, columns: Sequence[str], rows: Iterable[Sequence[Any]]
) -> None:
    """Insert many rows fast, inside the caller's transaction.

    SQLite: the driver's ``executemany`` with positional parameters (about 3x faster than
    Core with a list of dicts).  PostgreSQL: ``COPY``.  Others: Core ``insert``.
    """
    rows = list(rows)
    if not rows:
        return
    dialect = conn.dialect.name
    if dialect == "sqlite":
        stmt = insert(table).values({c: bindparam(c) for c in columns})
        sql = str(stmt.compile(dialect=conn.dialect))
        conn.connection.driver_connection.executemany(sql, rows)  # type: ignore[union-attr]
    elif dialect == "postgresql":
        cols = ", ".join(columns)
        cursor = conn.connection.driver_connection.cursor()  # type: ignore[union-attr]
        with cursor.copy(f"COPY {table.name} ({cols}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row)
    else:  # pragma: no cover - only SQLite and PostgreSQL are supported
        conn.execute(insert(table), [dict(zip(columns, r, strict=True)) for r in rows])


# -- solve jobs ------------------------------------------------------------------------------


def rules_filter(rules: Rules) -> Any:
    return and_(
        solutions.c.rules == rules.variant.value,
        solutions.c.min_length == rules.min_length,
        solutions.c.misere == rules.misere,
    )


def published_solution(conn: Connection, dictionary_id: int, rules: Rules) -> Row[Any] | None:
    stmt = select(solutions).where(
        solutions.c.dictionary_id == dictionary_id,
        rules_filter(rules),
        PUBLISHED,
    )
    return conn.execute(stmt).first()


def insert_job(conn: Connection, **values: Any) -> int:
    return conn.execute(insert(solutions).values(**values)).inserted_primary_key[0]


def update_job(conn: Connection, job_id: int, **values: Any) -> None:
    conn.execute(update(solutions).where(solutions.c.id == job_id).values(**values))


def supersede(conn: Connection, dictionary_id: int, rules: Rules, keep: int) -> None:
    """Mark the published solution of a rule set (other than ``keep``) superseded."""
    conn.execute(
        update(solutions)
        .where(
            solutions.c.dictionary_id == dictionary_id,
            rules_filter(rules),
            PUBLISHED,
            solutions.c.id != keep,
        )
        .values(status="superseded")
    )


def running_jobs(conn: Connection) -> Sequence[Row[Any]]:
    return conn.execute(select(solutions).where(solutions.c.status == "running")).all()


def delete_unpublished_rows(conn: Connection, dictionary_id: int, rules: Rules) -> None:
    """Drop the positions and plans of a rule set's failed and superseded jobs."""
    dead = select(solutions.c.id).where(
        solutions.c.dictionary_id == dictionary_id,
        rules_filter(rules),
        solutions.c.status.in_(("failed", "superseded")),
    )
    conn.execute(delete(plans).where(plans.c.solution_id.in_(dead)))
    conn.execute(delete(positions).where(positions.c.solution_id.in_(dead)))


def job_rows(conn: Connection, dictionary: str | None = None) -> Sequence[Row[Any]]:
    stmt = (
        select(solutions, dictionaries.c.name.label("dictionary"))
        .join(dictionaries, dictionaries.c.id == solutions.c.dictionary_id)
        .order_by(solutions.c.id)
    )
    if dictionary is not None:
        stmt = stmt.where(dictionaries.c.name == dictionary)
    return conn.execute(stmt).all()


# -- lookups ---------------------------------------------------------------------------------
#
# Plays are not stored: a play is a stored fragment one letter longer.  A lookup asks for
# the fragment and every candidate the rules' move forms make from it with the
# dictionary's alphabet, in one query through the primary key.


def published(name: Any, rules: Rules | None = None) -> Select[Any]:
    """The published solution of dictionary ``name`` (under ``rules``, or bound parameters
    ``variant``, ``min_length``, ``misere``): columns ``id`` and ``dictionary_id``."""
    if rules is None:
        match = and_(
            solutions.c.rules == bindparam("variant"),
            solutions.c.min_length == bindparam("min_length"),
            solutions.c.misere == bindparam("misere"),
        )
    else:
        match = rules_filter(rules)
    return (
        select(solutions.c.id, solutions.c.dictionary_id)
        .join(dictionaries, dictionaries.c.id == solutions.c.dictionary_id)
        .where(dictionaries.c.name == name, PUBLISHED, match)
    )


# What a lookup reads of a position (and of each position one play away).
POSITION_FIELDS = ("fragment", "reachable", "outcome", "game_length", "best_next", "winning_moves")


def solution_ref(conn: Connection, name: str, rules: Rules) -> Row[Any] | None:
    """The published solution's id with its dictionary's alphabet (``id``, ``alphabet``)."""
    sol = published(name, rules).subquery()
    stmt = select(sol.c.id, dictionaries.c.alphabet).join(
        dictionaries, dictionaries.c.id == sol.c.dictionary_id
    )
    return conn.execute(stmt).first()


def positions_statement(count: int) -> Select[Any]:
    """Positions ``fragment`` in ``f0`` … ``f{count-1}`` of solution ``solution_id``, if that
    solution is still the published one (so a stale id finds nothing)."""
    return (
        select(*(positions.c[f] for f in POSITION_FIELDS))
        .join(solutions, solutions.c.id == positions.c.solution_id)
        .where(
            solutions.c.id == bindparam("solution_id"),
            PUBLISHED,
            positions.c.solution_id == bindparam("solution_id"),
            positions.c.fragment.in_([bindparam(f"f{i}") for i in range(count)]),
        )
    )


class FastQuery:
    """A Core statement compiled once for a dialect, run on a raw DB-API connection.

    For the hot lookup path only: SQLAlchemy's per-execution work costs more than
    SQLite's own for a small indexed query.  Parameters are still bound, never
    formatted into the SQL.
    """

    def __init__(self, stmt: Any, dialect: Any) -> None:
        compiled = stmt.compile(dialect=dialect)
        self.sql = str(compiled)
        defaults = {k: b.value for k, b in compiled.binds.items()}
        # Positional paramstyles (SQLite's qmark) take a list in this order.
        self.order = [(k, defaults[k]) for k in compiled.positiontup or ()]
        self.defaults = defaults

    def run(self, dbapi_connection: Any, params: dict[str, Any]) -> list[Any]:
        if self.order:
            args: Any = [params.get(k, d) for k, d in self.order]
        else:
            args = {**self.defaults, **params}
        return dbapi_connection.execute(self.sql, args).fetchall()


def position_exists(conn: Connection, solution_id: int, fragment: str) -> bool:
    stmt = select(positions.c.outcome).where(
        positions.c.solution_id == solution_id, positions.c.fragment == fragment
    )
    return conn.execute(stmt).first() is not None


def now() -> datetime:

    return datetime.now(UTC)
