"""The SQL the store's concerns share, as SQLAlchemy Core statements over
`ghostdb.store.sql.schema`: dictionaries and their words, bulk writes,
solve jobs and the published solutions, and `FastQuery`.  SQL that serves one concern
sits in its module: `ghostdb.store.answers.lookups` (a position and its plays), `plan_rows`
(plans), `census` (counts), `comparing` (comparisons), and
`ghostdb.store.verification.stored` (whole solutions streamed).

Every statement runs on SQLite and PostgreSQL: no dialect-only syntax, parameters always
bound.  Functions take an open `Connection` and leave transactions to the caller.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from functools import cache
from itertools import chain, repeat
from typing import Any

from sqlalchemy import (
    Row,
    and_,
    delete,
    func,
    insert,
    literal_column,
    null,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection

from ghostdb.store.sql.schema import (
    decisive,
    decisive_words,
    dictionaries,
    kept_answers,
    positions,
    solutions,
    words,
)

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


def dictionary_by_sha(conn: Connection, sha256: str) -> Row[Any] | None:
    return conn.execute(select(dictionaries).where(dictionaries.c.sha256 == sha256)).first()


def all_dictionaries(conn: Connection) -> Sequence[Row[Any]]:
    return conn.execute(select(dictionaries).order_by(dictionaries.c.name)).all()


def insert_dictionary(conn: Connection, **values: Any) -> int:
    return conn.execute(insert(dictionaries).values(**values)).inserted_primary_key[0]


def update_dictionary(conn: Connection, dictionary_id: int, **values: Any) -> None:
    conn.execute(update(dictionaries).where(dictionaries.c.id == dictionary_id).values(**values))


def clear_dictionary(conn: Connection, dictionary_id: int) -> None:
    """Delete a dictionary's words and solutions with their positions, and the
    decisive words worked out from them or with additions from it."""
    ids = select(solutions.c.id).where(solutions.c.dictionary_id == dictionary_id)
    delete_decisive(conn, ids)
    for table in (decisive_words, decisive):
        conn.execute(delete(table).where(table.c.pool_id == dictionary_id))
    conn.execute(delete(positions).where(positions.c.solution_id.in_(ids)))
    conn.execute(delete(solutions).where(solutions.c.dictionary_id == dictionary_id))
    conn.execute(delete(words).where(words.c.dictionary_id == dictionary_id))


WORDS_A_READ = 1_000_000
"""How many words `dictionary_words` reads as one text."""


def dictionary_words(conn: Connection, dictionary_id: int, min_length: int = 1) -> list[str]:
    """The words of a dictionary with at least ``min_length`` letters, sorted by code
    point.

    Read `WORDS_A_READ` at a time, each piece as one text (its words joined by newlines,
    which no word holds) split in Python: a row a word takes half as long again
    (Debian's Polish list, 4 million words: 1.8 s against 1.2).  An aggregate's order is
    the database's to choose, so the words are sorted here (they come nearly in order:
    a tenth of a second for Polish)."""
    sqlite = conn.dialect.name == "sqlite"
    found: list[str] = []
    start: str | None = None  # a piece starts after the highest word of the one before
    while True:
        piece = (
            select(words.c.word)
            .where(words.c.dictionary_id == dictionary_id, func.length(words.c.word) >= min_length)
            .order_by(words.c.word)
            .limit(WORDS_A_READ)
        )
        if start is not None:
            piece = piece.where(words.c.word > start)
        sub = piece.subquery()
        # The highest word as the database orders them: SQLite compares UTF-8 bytes, as
        # Python compares code points (max in SQL would add a third to the read); a
        # server's collation may order otherwise.
        high = null() if sqlite else func.max(sub.c.word)
        joined = func.aggregate_strings(sub.c.word, "\n")
        joined_words, highest, count = conn.execute(select(joined, high, func.count())).one()
        if not count:
            break
        got = joined_words.split("\n")
        found += got
        if count < WORDS_A_READ:
            break
        following = max(got) if sqlite else highest
        if following == start:  # a piece that does not move on would be read forever
            raise RuntimeError(f"reading the words stopped at {start!r}")
        start = following
    found.sort()  # once, at the end: each piece's order is the database's to choose
    return found


# -- bulk writes -----------------------------------------------------------------------------


WORD_BITS = 62
"""SQLite: small whole-number columns are bound packed, several to one integer of at most
this many bits, each as wide as its largest value needs (`Columns.layout`)."""

Layout = tuple[tuple[str, int, int, int, bool], ...]
"""How each column is bound (`Columns.layout`)."""


class Columns:
    """Rows given column by column: each a list or tuple of ``count`` values, a numpy
    array (a masked array's masked entries are NULL), or one value for every row.  How a
    solve job hands over its arrays, so that no Python code runs per row on SQLite."""

    def __init__(self, count: int, columns: Sequence[Any]) -> None:
        self.count = count
        self.columns = columns
        self._bound: tuple[Layout, list[Any], list[Any]] | None = None

    def __len__(self) -> int:
        return self.count

    @staticmethod
    def _varies(column: Any) -> bool:
        return isinstance(column, list | tuple) or hasattr(column, "tolist")

    def layout(self, pack: bool) -> Layout:
        """How each column is bound: ``("one", 0, 0, 0, False)`` once a statement (one
        value for every row), ``("own", k, 0, 0, False)`` as the row's k-th value, or
        ``("pack", k, shift, bits, nullable)`` as ``bits`` bits from bit ``shift`` of the
        row's k-th value, an integer that carries several columns of non-negative whole
        numbers (with ``pack``: binding a value costs more than SQLite's unpacking it, and
        a solve's rows are mostly small numbers).  A column is as wide as its largest
        value needs, and one more value (all ones) for NULL if it has a masked entry;
        columns fill a value in order while they fit in `WORD_BITS`."""
        own = [i for i, c in enumerate(self.columns) if self._varies(c)]
        widths = {i: w for i in own if pack and (w := _field_bits(self.columns[i])) is not None}
        if len(widths) < 2:  # nothing saved
            widths = {}
        found: dict[int, tuple[str, int, int, int, bool]] = {}
        for i in own:
            if i not in widths:
                found[i] = ("own", len(found), 0, 0, False)
        word, shift = len(found) - 1, WORD_BITS
        for i, (bits, nullable) in widths.items():
            if shift + bits > WORD_BITS:
                word, shift = word + 1, 0
            found[i] = ("pack", word, shift, bits, nullable)
            shift += bits
        return tuple(found.get(i, ("one", 0, 0, 0, False)) for i in range(len(self.columns)))

    def prepared(self) -> tuple[Layout, list[Any], list[Any]]:
        """How SQLite binds these rows (`layout`) and the values it binds (`bound`),
        worked out once: a solve job works them out for a chunk in a worker thread while
        the chunk before is written (see `ghostdb.store.solving.jobs`)."""
        if self._bound is None:
            layout = self.layout(pack=True)
            if all(spec[0] == "one" for spec in layout):  # nothing left to make rows of
                layout = tuple(("own", k, 0, 0, False) for k in range(len(layout)))
            self._bound = (layout, *self.bound(layout))
        return self._bound

    def bound(self, layout: Layout) -> tuple[list[Any], list[Any]]:
        """The values bound once a statement, and those bound for each row, row after row
        (filled a column at a time by slice assignment, at C speed)."""
        shared = [c for c, spec in zip(self.columns, layout, strict=True) if spec[0] == "one"]
        lists: dict[int, Any] = {}
        words: dict[int, Any] = {}
        for column, (how, k, shift, bits, _) in zip(self.columns, layout, strict=True):
            if how == "own":  # one value for every row too, when all are
                lists[k] = _python(column) if self._varies(column) else [column] * self.count
            elif how == "pack":
                import numpy as np  # packs come only from arrays

                null = (1 << bits) - 1
                field = np.ma.filled(np.ma.asarray(column).astype(np.int64), null)
                words[k] = words.get(k, 0) | (field << shift)
        for k, word in words.items():
            lists[k] = word.tolist()
        width = len(lists)
        values: list[Any] = [None] * (self.count * width)
        for k, column in lists.items():
            values[k::width] = column
        return shared, values

    def rows(self) -> Iterable[tuple[Any, ...]]:
        return zip(
            *(_python(c) if self._varies(c) else repeat(c) for c in self.columns),
            strict=False,
        )


def _python(column: Any) -> Any:
    """A column's values as the driver binds them: a numpy array's as Python numbers."""
    return column.tolist() if hasattr(column, "tolist") else column


def _field_bits(column: Any) -> tuple[int, bool] | None:
    """The bits a packed column needs and whether it holds NULLs (masked entries), for a
    numpy array of non-negative integers or booleans that fits in `WORD_BITS`; else
    None (bound as it is)."""
    kind = getattr(getattr(column, "dtype", None), "kind", "")
    if kind not in ("b", "i", "u") or not len(column):
        return None
    import numpy as np  # only now: an ingest binds no array, and numpy takes 50 ms to load

    nullable = bool(np.ma.is_masked(column))
    if nullable and bool(np.ma.getmaskarray(column).all()):
        return 1, True
    low, high = int(column.min()), int(column.max())
    if low < 0:
        return None
    bits = max(1, (high + 1 if nullable else high).bit_length())
    return (bits, nullable) if bits <= WORD_BITS else None


def bulk_insert(
    conn: Connection,
    table: Any,
    columns: Sequence[str],
    rows: Iterable[Sequence[Any]] | Columns,
) -> None:
    """Insert many rows fast, inside the caller's transaction.

    SQLite: the driver's ``executemany`` of a many-row ``INSERT … VALUES (…), (…)``, up to
    999 parameters a statement (per-statement overhead, not SQLite's B-tree, bounds a plain
    ``executemany``: this is 40% faster, and about 3x faster than Core with a list of dicts).
    Binding is most of the time left, so `Columns` bind less
    (``INSERT … SELECT ?, column1, column2 & 63, … FROM (VALUES (?, ?), …)``): a column of
    one value once a statement, not once a row (storing Polish's 4 million words takes a
    quarter less time), and small whole numbers packed several to a value, each as wide as
    it needs (see `Columns.layout`: a solve's rows are written a third faster).
    PostgreSQL: ``COPY``.  Others: Core ``insert``.
    """
    if not isinstance(rows, Columns):
        rows = list(rows)
    if not len(rows):
        return
    dialect = conn.dialect.name
    if dialect == "sqlite":
        if isinstance(rows, Columns):
            layout, shared, flat = rows.prepared()
        else:
            layout = tuple(("own", k, 0, 0, False) for k in range(len(columns)))
            shared, flat = [], list(chain.from_iterable(rows))
        width = 1 + max((spec[1] for spec in layout if spec[0] != "one"), default=-1)
        per = max(1, (999 - len(shared)) // width)
        full, rest = divmod(len(rows), per)
        driver = conn.connection.driver_connection
        step = per * width
        if full:
            driver.executemany(  # type: ignore[union-attr]
                _many_rows_sql(table, tuple(columns), per, layout),
                (shared + flat[i : i + step] for i in range(0, full * step, step)),
            )
        if rest:
            sql = _many_rows_sql(table, tuple(columns), rest, layout)
            driver.execute(sql, shared + flat[full * step :])  # type: ignore[union-attr]
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
def _many_rows_sql(
    table: Any,
    columns: Sequence[str],
    count: int,
    layout: Layout,
) -> str:
    """``INSERT INTO table (columns) VALUES (?, …), …`` for ``count`` rows, parameters in
    row-major order; when some columns are bound once a statement or packed (see
    `Columns.layout`), ``INSERT INTO table (columns) SELECT ?, column1, (column2 >> 6) &
    3, … FROM (VALUES (?, …), …)``, the once-a-statement parameters first.  Written
    directly, not compiled by SQLAlchemy (0.3 s a solve); the names are the schema's own,
    every value a bound parameter."""
    assert set(columns) <= set(table.c.keys()), "columns of the table"
    head = f"INSERT INTO {table.name} ({', '.join(columns)})"
    width = 1 + max((spec[1] for spec in layout if spec[0] != "one"), default=-1)
    row = "(" + ", ".join("?" * width) + ")"
    if all(spec[0] == "own" for spec in layout):
        return f"{head} VALUES " + ", ".join([row] * count)

    def select(how: str, k: int, shift: int, bits: int, nullable: bool) -> str:
        if how == "one":
            return "?"
        if how == "own":
            return f"column{k + 1}"
        mask = (1 << bits) - 1
        field = f"(column{k + 1} >> {shift}) & {mask}" if shift else f"column{k + 1} & {mask}"
        return f"nullif({field}, {mask})" if nullable else field

    chosen = ", ".join(select(*spec) for spec in layout)
    return f"{head} SELECT {chosen} FROM (VALUES " + ", ".join([row] * count) + ")"


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


def solution_by_id(conn: Connection, solution_id: int) -> Row[Any] | None:
    """The row of solution ``solution_id`` while it is published; None once superseded."""
    stmt = select(solutions).where(solutions.c.id == solution_id, PUBLISHED)
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


def job_status(conn: Connection, job_id: int) -> str | None:
    """A solve job's status; None if its row is gone."""
    return conn.execute(select(solutions.c.status).where(solutions.c.id == job_id)).scalar()


def running_jobs(conn: Connection) -> Sequence[Row[Any]]:
    return conn.execute(select(solutions).where(solutions.c.status == "running")).all()


def delete_unpublished_rows(
    conn: Connection, game: str, dictionary_id: int | None, rules_key: str
) -> None:
    """Drop the positions of a rule set's failed and superseded jobs."""
    dead = select(solutions.c.id).where(
        subject_filter(game, dictionary_id, rules_key),
        solutions.c.status.in_(("failed", "superseded")),
    )
    conn.execute(delete(positions).where(positions.c.solution_id.in_(dead)))
    delete_decisive(conn, dead)


def delete_decisive(conn: Connection, solution_ids: Any) -> None:
    """Drop the answers worked out from these solutions (a select of ids): decisive
    words, and kept answers about them, alone or beside another (`ghostdb.store.answers.kept`)."""
    for table in (decisive_words, decisive):
        conn.execute(delete(table).where(table.c.solution_id.in_(solution_ids)))
    conn.execute(
        delete(kept_answers).where(
            or_(
                kept_answers.c.solution_id.in_(solution_ids),
                kept_answers.c.other_id.in_(solution_ids),
            )
        )
    )


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


# -- published solutions ---------------------------------------------------------------------


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


def publication_state(conn: Connection) -> str:
    """A token that changes whenever what the store publishes changes: a solution
    published or superseded (ids are never reused), a dictionary added or replaced."""
    published = conn.execute(select(func.max(solutions.c.id), func.count()).where(PUBLISHED))
    lists = conn.execute(select(func.max(dictionaries.c.ingested_at), func.count()))
    (top, count), (latest, words) = published.one(), lists.one()
    return f"{top or 0}.{count}.{words}.{latest or ''}"


def now() -> datetime:
    return datetime.now(UTC)
