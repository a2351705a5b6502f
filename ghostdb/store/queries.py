"""All of ghostdb's SQL, as SQLAlchemy Core statements over `ghostdb.store.schema`.

Every statement runs on SQLite and PostgreSQL: no dialect-only syntax, parameters always
bound.  Functions take an open `Connection` and leave transactions to the caller.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from functools import cache
from itertools import chain, repeat
from typing import Any

from sqlalchemy import (
    Integer,
    Row,
    Text,
    and_,
    bindparam,
    case,
    cast,
    delete,
    func,
    insert,
    literal,
    literal_column,
    or_,
    select,
    text,
    true,
    union_all,
    update,
)
from sqlalchemy.engine import Connection
from sqlalchemy.sql import Select

from ghostdb.games.ghost.rules import Form
from ghostdb.store.schema import dictionaries, plans, positions, solutions, words

# The status is written into the SQL, not bound: a bound value compared with the column
# of a partial index makes SQLite prepare the statement again on every execution.
PUBLISHED = solutions.c.status == literal_column("'complete'")

# -- dictionaries ----------------------------------------------------------------------------


def dictionary_by_name(conn: Connection, name: str) -> Row[Any] | None:
    return conn.execute(select(dictionaries).where(dictionaries.c.name == name)).first()


def dictionary_sha256(conn: Connection, dictionary_id: int) -> str | None:
    """The recorded hash of a dictionary's words; None if it is gone."""
    stmt = select(dictionaries.c.sha256).where(dictionaries.c.id == dictionary_id)
    return conn.execute(stmt).scalar()


def job_status(conn: Connection, job_id: int) -> str | None:
    """A solve job's status; None if its row is gone."""
    return conn.execute(select(solutions.c.status).where(solutions.c.id == job_id)).scalar()


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


class Columns:
    """Rows given column by column (each a sequence of ``count`` values, or one value for
    every row): how a solve job hands over its arrays, so that no Python code runs per row
    on SQLite."""

    def __init__(self, count: int, columns: Sequence[Any]) -> None:
        self.count = count
        self.columns = columns

    def __len__(self) -> int:
        return self.count

    def flat(self) -> list[Any]:
        """All values, row after row (filled column by column by slice assignment, at C
        speed and without numpy)."""
        width = len(self.columns)
        values: list[Any] = [None] * (self.count * width)
        for j, column in enumerate(self.columns):
            if isinstance(column, list | tuple):
                values[j::width] = column
            elif isinstance(column, str | int | float | bytes):
                values[j::width] = repeat(column, self.count)
            elif column is not None:  # the driver binds Python values only
                raise TypeError(f"a column is a list, a tuple or one value, not {column!r}")
        return values

    def rows(self) -> Iterable[tuple[Any, ...]]:
        return zip(
            *(
                c if isinstance(c, Sequence) and not isinstance(c, str) else repeat(c)
                for c in self.columns
            ),
            strict=False,
        )


def bulk_insert(
    conn: Connection,
    table: Any,
    columns: Sequence[str],
    rows: Iterable[Sequence[Any]] | Columns,
    *,
    staged: bool = False,
) -> None:
    """Insert many rows fast, inside the caller's transaction.

    SQLite: the driver's ``executemany`` of a many-row ``INSERT … VALUES (…), (…)``, up to
    999 parameters a statement (per-statement overhead, not SQLite's B-tree, bounds a plain
    ``executemany``: this is 40% faster, and about 3x faster than Core with a list of dicts).
    PostgreSQL: ``COPY``.  Others: Core ``insert``.  ``staged``: into the table's copy in
    the connection's stage (SQLite; see `open_stage`).
    """
    if not isinstance(rows, Columns):
        rows = list(rows)
    if not len(rows):
        return
    dialect = conn.dialect.name
    if dialect == "sqlite":
        width = len(columns)
        per = max(1, 999 // width)
        flat = rows.flat() if isinstance(rows, Columns) else list(chain.from_iterable(rows))
        full, rest = divmod(len(rows), per)
        driver = conn.connection.driver_connection
        step = per * width
        if full:
            driver.executemany(  # type: ignore[union-attr]
                _many_rows_sql(table, columns, per, staged),
                (flat[i : i + step] for i in range(0, full * step, step)),
            )
        if rest:
            sql = _many_rows_sql(table, columns, rest, staged)
            driver.execute(sql, flat[full * step :])  # type: ignore[union-attr]
    elif dialect == "postgresql":
        cols = ", ".join(columns)
        cursor = conn.connection.driver_connection.cursor()  # type: ignore[union-attr]
        with cursor.copy(f"COPY {table.name} ({cols}) FROM STDIN") as copy:
            for row in rows.rows() if isinstance(rows, Columns) else rows:
                copy.write_row(row)
    else:  # pragma: no cover - only SQLite and PostgreSQL are supported
        data = rows.rows() if isinstance(rows, Columns) else rows
        conn.execute(insert(table), [dict(zip(columns, r, strict=True)) for r in data])


@cache
def _many_rows_sql(table: Any, columns: Sequence[str], count: int, staged: bool = False) -> str:
    """``INSERT INTO table (columns) VALUES (?, …), …`` for ``count`` rows, parameters in
    row-major order.  Written directly, not compiled by SQLAlchemy (0.3 s a solve); the
    names are the schema's own, every value a bound parameter."""
    assert set(columns) <= set(table.c.keys()), "columns of the table"
    row = "(" + ", ".join("?" * len(columns)) + ")"
    into = f"{STAGE}.{table.name}" if staged else table.name
    return f"INSERT INTO {into} ({', '.join(columns)}) VALUES " + ", ".join([row] * count)


# -- staged writes (SQLite) ------------------------------------------------------------------
#
# SQLite has one writer at a time, and binding a solve's values to INSERT statements is
# most of a write.  Solves that run side by side (`solve --all --jobs N`) write their rows
# first to a private in-memory schema attached to their connection, which needs no lock,
# and then copy them into the store in the write transaction with one INSERT … SELECT a
# table, at C speed: the lock is held a fifth as long.

STAGE = "stage"


def open_stage(conn: Connection, tables: Sequence[tuple[Any, Sequence[str]]]) -> None:
    """Attach an empty in-memory schema `STAGE` to ``conn``, with a plain table for each
    (table, columns) of the store's (not in a transaction)."""
    driver: Any = conn.connection.driver_connection
    driver.execute(f"ATTACH DATABASE ':memory:' AS {STAGE}")
    for table, columns in tables:
        assert set(columns) <= set(table.c.keys()), "columns of the table"
        driver.execute(
            f"CREATE TABLE {STAGE}.{table.name} AS "
            f"SELECT {', '.join(columns)} FROM main.{table.name} WHERE 0"
        )


def copy_stage(
    conn: Connection, tables: Sequence[tuple[Any, Sequence[str]]], solution_id: int
) -> None:
    """Inside the caller's write transaction: every staged row into the store's table,
    as the rows of ``solution_id``, in the order they were staged (key order)."""
    driver: Any = conn.connection.driver_connection
    for table, columns in tables:
        names = ", ".join(columns)
        driver.execute(
            f"INSERT INTO main.{table.name} (solution_id, {names}) "
            f"SELECT ?, {names} FROM {STAGE}.{table.name} ORDER BY rowid",
            (solution_id,),
        )


def close_stage(conn: Connection) -> None:
    """Detach the stage, if attached (its memory is freed), ending any transaction left
    open.  Never raises: a connection that cannot be cleaned is dropped from the pool, so
    that no later user finds a stage on it."""
    driver: Any = conn.connection.driver_connection
    try:
        if driver.in_transaction:
            driver.rollback()
        attached = {row[1] for row in driver.execute("PRAGMA database_list")}
        if STAGE in attached:
            driver.execute(f"DETACH DATABASE {STAGE}")
    except sqlite3.Error:
        conn.invalidate()


def refresh_statistics(conn: Connection, *tables: Any) -> None:
    """Let the planner see a bulk load.  PostgreSQL plans the comparison joins badly
    (nested loops, minutes instead of a second) from the statistics of an empty table
    until autovacuum gets round to it; SQLite's planner needs no statistics here."""
    if conn.dialect.name == "postgresql":
        for table in tables:
            conn.execute(text(f"ANALYZE {table.name}"))  # a table of the schema, not input


# -- solve jobs ------------------------------------------------------------------------------


def subject_filter(game: str, dictionary_id: int | None, rules_key: str) -> Any:
    """The solutions of one rule set: of a dictionary (word games) or of a game."""
    owner = (
        solutions.c.dictionary_id.is_(None) & (solutions.c.game == game)
        if dictionary_id is None
        else solutions.c.dictionary_id == dictionary_id
    )
    return and_(owner, solutions.c.rules == rules_key)


def published_solution(
    conn: Connection, game: str, dictionary_id: int | None, rules_key: str
) -> Row[Any] | None:
    stmt = select(solutions).where(subject_filter(game, dictionary_id, rules_key), PUBLISHED)
    return conn.execute(stmt).first()


def insert_job(conn: Connection, **values: Any) -> int:
    return conn.execute(insert(solutions).values(**values)).inserted_primary_key[0]


def update_job(conn: Connection, job_id: int, **values: Any) -> None:
    conn.execute(update(solutions).where(solutions.c.id == job_id).values(**values))


def supersede(
    conn: Connection, game: str, dictionary_id: int | None, rules_key: str, keep: int
) -> None:
    """Mark the published solution of a rule set (other than ``keep``) superseded."""
    conn.execute(
        update(solutions)
        .where(
            subject_filter(game, dictionary_id, rules_key),
            PUBLISHED,
            solutions.c.id != keep,
        )
        .values(status="superseded")
    )


def running_jobs(conn: Connection) -> Sequence[Row[Any]]:
    return conn.execute(select(solutions).where(solutions.c.status == "running")).all()


def delete_unpublished_rows(
    conn: Connection, game: str, dictionary_id: int | None, rules_key: str
) -> None:
    """Drop the positions and plans of a rule set's failed and superseded jobs."""
    dead = select(solutions.c.id).where(
        subject_filter(game, dictionary_id, rules_key),
        solutions.c.status.in_(("failed", "superseded")),
    )
    conn.execute(delete(plans).where(plans.c.solution_id.in_(dead)))
    conn.execute(delete(positions).where(positions.c.solution_id.in_(dead)))


def job_rows(conn: Connection, name: str | None = None) -> Sequence[Row[Any]]:
    """Solve jobs, oldest first, with ``name``: the dictionary's name or the game's."""
    label = func.coalesce(dictionaries.c.name, solutions.c.game).label("name")
    stmt = (
        select(solutions, label)
        .outerjoin(dictionaries, dictionaries.c.id == solutions.c.dictionary_id)
        .order_by(solutions.c.id)
    )
    if name is not None:
        stmt = stmt.where(label == name)
    return conn.execute(stmt).all()


# -- lookups ---------------------------------------------------------------------------------
#
# Plays are not stored: a play is a stored fragment one letter longer.  A lookup asks for
# the fragment and every candidate the rules' move forms make from it with the
# dictionary's alphabet, in one query through the primary key.


# What a lookup reads of a position (and of each position one move away).
POSITION_FIELDS = (
    "fragment",
    "reachable",
    "outcome",
    "game_length",
    "best_next",
    "winning_moves",
    "drawing_moves",
    "safe_seats",
    "label",
)


def solution_ref(
    conn: Connection, game: str, dictionary_id: int | None, rules_key: str
) -> Row[Any] | None:
    """The published solution of a rule set: ``id`` and ``has_plans``."""
    stmt = select(solutions.c.id, solutions.c.has_plans).where(
        subject_filter(game, dictionary_id, rules_key), PUBLISHED
    )
    return conn.execute(stmt).first()


# A lookup reads by a solution id the store cached when it was published.  It needs no
# check that the solution is still the published one: a superseded solution's rows stay
# whole until the one transaction that deletes them all, so a stale id reads the old
# complete solution or finds nothing (and the store then asks for the new id).


def _position_rows(level: str, match: Any) -> Select[Any]:
    return select(*(positions.c[f] for f in POSITION_FIELDS)).where(
        positions.c.solution_id == bindparam("solution_id", type_=Integer),
        positions.c.level == bindparam(level, type_=Integer),
        match,
    )


def positions_statement(count: int) -> Any:
    """The position ``f`` at level ``level`` and the positions ``c0`` … ``c{count-1}`` at
    level ``child_level`` of solution ``solution_id``."""
    head = _position_rows("level", positions.c.fragment == bindparam("f"))
    if count == 0:
        return head
    children = _position_rows(
        "child_level", positions.c.fragment.in_([bindparam(f"c{i}") for i in range(count)])
    )
    return union_all(head, children)


def extended_positions_sql() -> str:
    """SQLite only: the position ``?3`` at level ``?2`` of solution ``?1``, then every
    position of the next level between ``?3`` and ``?4`` (``?3`` followed by the highest
    character): in plain Ghost, its plays, read as one range of the primary key.  SQLite
    compares text byte by byte, as the range needs (a PostgreSQL database's collation
    may not).

    SQL text rather than a Core statement: compiling one costs every `ghostdb lookup`
    process a millisecond, and numbered parameters spare each lookup binding seven."""
    rows = f"SELECT {', '.join(POSITION_FIELDS)} FROM {positions.name} WHERE solution_id = ?1"
    head = f"{rows} AND level = ?2 AND fragment = ?3"
    return f"{head} UNION ALL {rows} AND level = ?2 + 1 AND fragment > ?3 AND fragment < ?4"


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


# -- plans and lines ------------------------------------------------------------------------
#
# Both walk the stored positions with WITH RECURSIVE from a start fragment.  A step joins
# each row with the moves (every letter of the dictionary's alphabet in every move form
# of the rules) and keeps the candidates that are stored positions: the plays.  Rows carry
# the reversed fragment too, since SQLite has no reverse(): the SuperDuper forms need it.
# UNION, not UNION ALL: two forms that make the same fragment ("a" on either side of
# "aa") give one play.


def _moves(alphabet: str, forms: Sequence[Form]) -> Any:
    """A derived table of every (letter, form) pair: the moves of a rule set."""
    rows = [
        select(
            cast(literal(letter), Text).label("letter"),
            literal_column(str(int(form)), Integer).label("form"),
        )
        for letter in alphabet
        for form in forms
    ]
    return union_all(*rows).subquery("moves")


def _walk(alphabet: str, forms: Sequence[Form], with_plans: bool, keep: Any) -> Select[Any]:
    """Paths from bound ``start`` through plays for which ``keep(walk, child, plan)`` holds.

    Rows: ``path`` (its fragments joined by spaces), ``fragment``, ``outcome``,
    ``game_length``.  Bound parameters: ``solution_id`` (only a published solution is
    walked), ``start``, ``start_rev``.
    """
    sid = bindparam("solution_id", type_=Integer)
    seed_plan = plans.alias("seed_plan")
    seed_cols = [
        positions.c.fragment.label("path"),
        positions.c.level,
        positions.c.fragment,
        cast(bindparam("start_rev"), Text).label("rev"),
        positions.c.outcome,
        positions.c.game_length,
        literal_column("0", Integer).label("steps"),
    ]
    seed_from: Any = positions.join(solutions, solutions.c.id == positions.c.solution_id)
    if with_plans:
        seed_cols.append(seed_plan.c.plan_next)
        seed_from = seed_from.join(
            seed_plan,
            and_(
                seed_plan.c.solution_id == positions.c.solution_id,
                seed_plan.c.level == positions.c.level,
                seed_plan.c.fragment == positions.c.fragment,
            ),
        )
    seed = (
        select(*seed_cols)
        .select_from(seed_from)
        .where(
            solutions.c.id == sid,
            PUBLISHED,
            positions.c.solution_id == sid,
            positions.c.level == func.length(bindparam("start", type_=Text)),
            positions.c.fragment == bindparam("start", type_=Text),
        )
    )
    walk = seed.cte("walk", recursive=True)
    moves = _moves(alphabet, forms)
    letter, form = moves.c.letter, moves.c.form
    child_fragment = case(
        (form == int(Form.APPEND), walk.c.fragment + letter),
        (form == int(Form.PREPEND), letter + walk.c.fragment),
        (form == int(Form.REVERSE_APPEND), walk.c.rev + letter),
        else_=letter + walk.c.rev,
    )
    child_rev = case(
        (form == int(Form.APPEND), letter + walk.c.rev),
        (form == int(Form.PREPEND), walk.c.rev + letter),
        (form == int(Form.REVERSE_APPEND), letter + walk.c.fragment),
        else_=walk.c.fragment + letter,
    )
    child = positions.alias("child")
    step_cols = [
        (walk.c.path + literal_column("' '", Text) + child.c.fragment).label("path"),
        child.c.level,
        child.c.fragment,
        child_rev.label("rev"),
        child.c.outcome,
        child.c.game_length,
        (walk.c.steps + 1).label("steps"),
    ]
    # LEFT JOIN (moves is never empty, so it joins every row): it keeps SQLite's planner
    # from putting the walk innermost, which turns each step into a scan of the solution.
    step_from: Any = walk.outerjoin(moves, true()).join(
        child,
        and_(
            child.c.solution_id == sid,
            # A fragment's level is its length.  Written from the move, not from the
            # walk's level, so that the planner must join the moves before the child
            # (else SQLite scans a whole level of the solution for each step).
            child.c.level == func.length(child_fragment),
            child.c.fragment == child_fragment,
        ),
    )
    child_plan = plans.alias("child_plan")
    if with_plans:
        step_cols.append(child_plan.c.plan_next)
        step_from = step_from.join(
            child_plan,
            and_(
                child_plan.c.solution_id == sid,
                child_plan.c.level == child.c.level,
                child_plan.c.fragment == child.c.fragment,
            ),
        )
    step = (
        select(*step_cols).select_from(step_from).where(walk.c.game_length > 0, keep(walk, child))
    )
    walk = walk.union(step)
    return select(walk.c.path, walk.c.fragment, walk.c.outcome, walk.c.game_length)


def plan_statement(alphabet: str, forms: Sequence[Form]) -> Select[Any]:
    """A plan's paths: the stored plan play at the strategist's turns, every play at the
    opponent's.  Extra bound parameter ``strategist_parity``: the strategist is to move
    where the number of steps from the start has this parity."""

    def keep(walk: Any, child: Any) -> Any:
        return or_(
            walk.c.steps % 2 != bindparam("strategist_parity", type_=Integer),
            child.c.fragment == walk.c.plan_next,
        )

    return _walk(alphabet, forms, True, keep)


def line_statement(alphabet: str, forms: Sequence[Form]) -> Select[Any]:
    """The principal lines' paths: the plays that keep the outcome and use up exactly one
    move of the game length (winning plays that end soonest, losing plays that last
    longest), all of them where several tie."""

    def keep(walk: Any, child: Any) -> Any:
        return and_(
            child.c.outcome != walk.c.outcome,
            child.c.game_length == walk.c.game_length - 1,
        )

    return _walk(alphabet, forms, False, keep)


def walk_rows(
    conn: Connection, stmt: Select[Any], solution_id: int, start: str, **params: Any
) -> Sequence[Row[Any]]:
    return conn.execute(
        stmt, {"solution_id": solution_id, "start": start, "start_rev": start[::-1], **params}
    ).all()


def plan_rank(conn: Connection, solution_id: int, fragment: str) -> Row[Any] | None:
    """The stored best-plan ranks at a word game's position (None if it has none: not
    reachable)."""
    stmt = select(plans).where(
        plans.c.solution_id == solution_id,
        plans.c.level == len(fragment),
        plans.c.fragment == fragment,
    )
    return conn.execute(stmt).first()


# -- comparisons -----------------------------------------------------------------------------


def published_solutions(
    conn: Connection, game: str, dictionary_id: int | None
) -> Sequence[Row[Any]]:
    """The published solutions of a dictionary (or of a game without one), by id."""
    owner = (
        solutions.c.dictionary_id.is_(None) & (solutions.c.game == game)
        if dictionary_id is None
        else solutions.c.dictionary_id == dictionary_id
    )
    stmt = select(solutions).where(owner, PUBLISHED).order_by(solutions.c.id)
    return conn.execute(stmt).all()


def all_published(conn: Connection) -> Sequence[Row[Any]]:
    """Every published solution with ``name`` (dictionary or game), by name then id."""
    label = func.coalesce(dictionaries.c.name, solutions.c.game).label("name")
    stmt = (
        select(solutions, label)
        .outerjoin(dictionaries, dictionaries.c.id == solutions.c.dictionary_id)
        .where(PUBLISHED)
        .order_by(label, solutions.c.id)
    )
    return conn.execute(stmt).all()


def outcome_counts(conn: Connection, solution_id: int) -> dict[str, int]:
    """How many reachable positions have each outcome (for the player to move)."""
    stmt = (
        select(positions.c.outcome, func.count())
        .where(positions.c.solution_id == solution_id, positions.c.reachable.is_(True))
        .group_by(positions.c.outcome)
    )
    return {outcome: int(n) for outcome, n in conn.execute(stmt).all()}


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


def position_exists(conn: Connection, solution_id: int, level: int, fragment: str) -> bool:
    stmt = select(positions.c.outcome).where(
        positions.c.solution_id == solution_id,
        positions.c.level == level,
        positions.c.fragment == fragment,
    )
    return conn.execute(stmt).first() is not None


def now() -> datetime:
    return datetime.now(UTC)


# -- verification ----------------------------------------------------------------------------

STORED_POSITION_FIELDS = ("level", *POSITION_FIELDS)
STORED_PLAN_FIELDS = tuple(plans.c.keys())[1:]  # all but solution_id, in table order


def _stream(conn: Connection, table: Any, fields: Sequence[Any], solution_id: int) -> list[Any]:
    """Every row of one solution in ``table``, read through the raw driver connection
    (millions of rows: SQLAlchemy's per-row work would cost more than the reading)."""
    stmt = (
        select(*(table.c[f] if isinstance(f, str) else f for f in fields))
        .where(table.c.solution_id == bindparam("solution_id", type_=Integer))
        .order_by(table.c.level, table.c.fragment)  # the primary key's order
    )
    conn.execute(select(literal(1)))  # begin the transaction the driver then reads in
    query = FastQuery(stmt, conn.dialect)
    return query.run(conn.connection.driver_connection, {"solution_id": solution_id})


def stored_positions(conn: Connection, solution_id: int, value_names: Sequence[str]) -> list[Any]:
    """Every position row of a solution, as tuples of `STORED_POSITION_FIELDS`, with the
    outcome as its index in ``value_names`` (-1 if none): a small integer costs less to
    read than a string."""
    code = case(
        *(
            (positions.c.outcome == literal_column(f"'{name}'"), i)
            for i, name in enumerate(value_names)
        ),
        else_=-1,
    )
    fields = [code if f == "outcome" else f for f in STORED_POSITION_FIELDS]
    return _stream(conn, positions, fields, solution_id)


def stored_plans(conn: Connection, solution_id: int) -> list[Any]:
    """Every plan row of a solution, as tuples of `STORED_PLAN_FIELDS`."""
    return _stream(conn, plans, STORED_PLAN_FIELDS, solution_id)


def packed_positions(conn: Connection, solution_id: int, value_names: Sequence[str]) -> Any:
    """SQLite only: every position row of a solution packed into one text per column
    (fragments and best moves joined by newlines, numbers by commas, NULL as -1 or
    empty), in key order, with the count of labels and of rows; None without rows.

    Aggregated in SQL because making a Python object of every value of millions of rows
    costs more than the reading.  The caller checks the order: the packed fragments must
    equal the keys it expects, joined the same way."""
    code = " ".join(f"WHEN '{name}' THEN {i}" for i, name in enumerate(value_names))
    sql = (
        "SELECT group_concat(fragment, char(10)), group_concat(level), "
        "group_concat(reachable), "
        f"group_concat(CASE outcome {code} ELSE -1 END), "
        "group_concat(coalesce(game_length, -1)), "
        "group_concat(coalesce(best_next, ''), char(10)), "
        "group_concat(winning_moves), group_concat(drawing_moves), "
        "group_concat(coalesce(safe_seats, -1)), count(label), count(*) "
        "FROM (SELECT * FROM positions WHERE solution_id = :solution_id "
        "ORDER BY level, fragment)"
    )
    row = conn.execute(text(sql), {"solution_id": solution_id}).one()
    return None if not row[-1] else row
