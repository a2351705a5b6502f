"""A published solution written out as a pack (`ghostdb.pack`), and a pack checked
against the solution it came from."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from itertools import chain
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import BigInteger, Integer, String, bindparam, case, cast, func, select

from ghostdb.pack import write_pack
from ghostdb.pack.format import NONE, Columns, Record
from ghostdb.pack.sorting import SEPARATOR, Runs, Unsortable
from ghostdb.pack.writer import write_columns
from ghostdb.positions import FIELDS
from ghostdb.store.sql import queries as q
from ghostdb.store.sql import raw
from ghostdb.store.sql.schema import dictionaries, positions
from ghostdb.version import VERSION

if TYPE_CHECKING:
    from ghostdb.store.answers.handle import Handle

STREAM = 20_000
"""Rows fetched at a time while a solution is read out in key order."""


def pack_solution(solution: Handle, path: Path) -> tuple[int, int]:
    """Write ``solution`` (every stored position) to a pack at ``path``, read in one
    snapshot; (positions, bytes written)."""
    engine = solution.engine
    solution.refresh()
    with engine.connect() as conn, conn.begin():
        row = q.solution_by_id(conn, solution.id)
        if row is None:  # replaced or withdrawn since the refresh: ask again
            solution.refresh()
            row = q.solution_by_id(conn, solution.id)
        assert row is not None
        sha = None
        if row.dictionary_id is not None:
            sha = conn.execute(
                select(dictionaries.c.sha256).where(dictionaries.c.id == row.dictionary_id)
            ).scalar_one()
        header = {
            "game": solution.game.name,
            "name": solution.name,
            "rules": solution.rules.key,
            "alphabet": getattr(solution.game, "alphabet", ""),
            "solver_version": row.solver_version,
            "words_sha256": sha,
            "positions": row.fragment_count,
            "reachable": row.reachable_count,
            "solved_at": row.finished_at.isoformat() if row.finished_at else None,
            "packed_by": f"ghostdb {VERSION}",
        }
        try:
            size = write_columns(path, header, _parts(solution, row.id, conn))
        except _Otherwise:
            with stored_records(conn, row.id) as records:
                size = write_pack(path, header, records)
    return row.fragment_count, size


def _small(seats: bool) -> tuple[Any, int]:
    """A row's small columns as one number of fixed width in text (bit 0 reachable, 1-2
    the outcome, 3-18 the game length + 1, from 19 the safe seats + 1 where ``seats``;
    0 for null), and its width: 7 digits for two players (under 2 ** 19, 10 ** 6 added),
    12 with safe seats (under 2 ** 35, 10 ** 11 added).  numpy reads a range's numbers
    as a matrix of digits."""
    c, whole = positions.c, Integer()  # (a server does SMALLINT's sums in SMALLINT)
    number = (
        case((c.reachable, 1), else_=0)
        + cast(c.outcome, whole) * 2
        + func.coalesce(cast(c.game_length, whole) + 1, 0) * (1 << 3)
    )
    if not seats:
        return cast(number + 10**6, String), 7
    big = BigInteger()  # (a server's SMALLINT times 2 ** 19 does not fit in 32 bits)
    number = cast(number, big) + func.coalesce(cast(c.safe_seats, big) + 1, 0) * (1 << 19)
    return cast(number + 10**11, String), 12


class _Otherwise(Exception):
    """A solution `_parts` does not read: one with labels, or a key that holds a NUL or
    the separator, or a number out of its bits (none that a solve writes)."""


def _parts(solution: Handle, solution_id: int, conn: Any) -> Iterator[Columns]:
    """The solution's positions in key order, as columns: read a level and a first
    letter at a time (a range of the table's own order: nothing for the database to
    sort), each such range's keys and small columns as two texts the database joins (a
    few objects a range, not a few a row), by two threads on two connections, while
    numpy sorts the levels of the letter before (`ghostdb.pack.sorting`).  _Otherwise
    for a solution this way does not read."""
    c = positions.c
    # SQLAlchemy's aggregate_strings renders its separator into the SQL, which the raw
    # reads do not take: the two databases' own names, the separator bound.
    engine = solution.engine
    joined = func.group_concat if engine.dialect.name == "sqlite" else func.string_agg
    top = conn.execute(select(func.max(c.level)).where(c.solution_id == solution_id)).scalar()
    small, digits = _small(solution.rules.players > 2)
    stmt = select(
        func.count(),
        func.count(c.label),
        joined(c.fragment, chr(SEPARATOR)),
        joined(small, ""),
    ).where(
        c.solution_id == solution_id, c.level == bindparam("level"), c.fragment >= bindparam("lo")
    )
    last = raw.FastQuery(stmt, engine.dialect)
    within = raw.FastQuery(stmt.where(c.fragment < bindparam("hi")), engine.dialect)
    # Letter by letter: the keys below the first letter (the start among them), each
    # letter's, and those from the last letter on (every key in one range).
    letters = sorted(set(getattr(solution.game, "alphabet", "")))
    ranges = list(zip(["", *letters], [*letters, None], strict=True))
    levels = range(0 if top is None else top + 1)
    items = [(lo, hi, level) for lo, hi in ranges for level in levels]

    def read(driver: Any, item: tuple[str, str | None, int]) -> tuple[Any, ...]:
        lo, hi, level = item
        query = last if hi is None else within
        return (digits, *query.run(driver, {"lo": lo, "hi": hi, "level": level})[0])

    reading = raw.run_each(engine, items, read, ahead=2 * len(levels))
    try:
        runs, letter = Runs(), ""
        for (lo, _, _), row in zip(items, reading, strict=True):
            if lo != letter:
                yield from runs.parts()
                runs, letter = Runs(), lo
            _add(runs, *row)
        yield from runs.parts()
    except Unsortable:
        raise _Otherwise from None
    finally:
        reading.close()


def _add(
    runs: Runs, digits: int, count: int, labels: int, keys: str | None, small: str | None
) -> None:
    """A range's keys and numbers (`_small`, ``digits`` each), read by numpy, added to
    ``runs``."""
    import numpy as np

    if labels:
        raise _Otherwise
    if count == 0 or keys is None or small is None:
        return
    text = np.frombuffer(small.encode(), np.uint8) - 48  # "0" is 48: a digit, 0 to 9
    if len(text) != digits * count or not (text <= 9).all():  # (below "0" wraps: > 9)
        raise _Otherwise
    powers = 10 ** np.arange(digits - 1, -1, -1, dtype=np.int64)
    number = text.reshape(count, digits).astype(np.int64) @ powers - 10 ** (digits - 1)
    safe = (number >> 19).astype(np.int32)
    runs.add(
        keys.encode(),
        count,
        (number & 1).astype(bool),
        ((number >> 3 & 0xFFFF) << 2 | (number >> 1 & 3)).astype(np.int32),
        np.where(safe == 0, NONE, safe - 1),
    )


@contextlib.contextmanager
def stored_records(conn: Any, solution_id: int) -> Iterator[Iterator[Record]]:
    """Every position of a solution in key order (the key columns compare bytes: SQLite's
    BINARY, PostgreSQL's C collation, revision 0006), read on ``conn`` by a thread a
    batch ahead of their use, while the blocks are made; the thread is stopped on the
    way out, before ``conn`` may be used again."""
    stmt = (
        select(*(positions.c[f] for f in FIELDS))
        .where(positions.c.solution_id == solution_id)
        .order_by(positions.c.fragment)
    )
    # The raw connection's rows as they come (millions of them): SQLite's reachable is 0
    # or 1, which a pack takes as it takes False and True.
    ahead = raw.stream_ahead(conn, stmt, STREAM)
    try:
        yield chain.from_iterable(ahead)
    finally:
        ahead.close()
