"""A solve's position rows, made and written in bulk: its arrays turned into the rows of
``positions`` (with the plans, for games that keep them) a chunk at a time, each chunk's
Python values made while the one before is written (`ahead`)."""

from __future__ import annotations

from collections.abc import Callable, Generator
from contextlib import closing
from typing import Any

import numpy as np

from ghostdb import memory
from ghostdb.games.base import PositionGraph
from ghostdb.solvers import Values, best_plays
from ghostdb.solvers import plans as plan_solver
from ghostdb.store.sql import queries as q
from ghostdb.store.sql.schema import PLAN_FIELDS, positions

CHUNK_ROWS = 50_000
ProgressFn = Callable[[str, int, int], None]


Rows = tuple[tuple[str, ...], list[Any]]
"""The position rows to write: (column names, columns); see `part` for what a column may
be."""
Chunk = tuple[tuple[str, ...], "q.Columns"]
"""Some of those rows as written: (column names, the solution's id first, their values)."""


def position_rows(
    graph: PositionGraph,
    v: Values,
    keeps_plans: bool,
    safe: np.ndarray | None = None,
) -> Rows:
    """The position rows in key order, column by column (the solution's id, not known
    yet, is added by `chunks`), with their plans where the game keeps plans.

    Columns stay numpy arrays and packed keys until `chunks` makes each chunk's Python
    values: whole-table lists of every column were most of a solve's peak memory.  The
    plans are worked out here, before the write lock is taken: the workers of `solve
    --all --jobs N` take turns with SQLite's one writer, and a worker working out its
    plans with the lock held would keep the others waiting.
    """
    keys = graph.keys
    best = best_plays(graph, v.best)
    position_columns = {
        "level": graph.level,
        "fragment": keys,
        "reachable": v.reachable,
        "outcome": v.value,
        "game_length": nullable(v.length),
        "best_play": nullable(best),
        "safe_seats": safe,
        "label": graph.labels,
    }
    # A column that is NULL in every row (two players, no labels: all of plain Ghost) is
    # left out of the INSERT: binding it costs as much as a real column.
    written = tuple(k for k, c in position_columns.items() if c is not None)
    columns = [position_columns[k] for k in written]
    if keeps_plans:
        written += PLAN_FIELDS
        columns += plan_columns(graph, v)
    return written, columns


def plan_columns(graph: PositionGraph, v: Values) -> list[Any]:
    """The plan columns (`PLAN_FIELDS`) of every position, NULL (masked) where it is not
    reachable: the plans' own arrays, masked, not copies.  The plan solver's temporaries
    are handed back to the system before the rows are made."""
    p = plan_solver.solve(graph, v)
    memory.give_back()
    unreachable = ~v.reachable
    # The move as a play number, first: `best_plays`' temporaries are a SuperDuperGhost
    # solve's peak if the rank columns below are already made.
    play = best_plays(graph, p.plan)
    found = {
        "plan_play": np.ma.masked_array(play, mask=unreachable | (play < 0)),
        "waiter_lossiness": np.ma.masked_array(p.waiter_lossiness, mask=unreachable),
        "waiter_outcomes": np.ma.masked_array(p.waiter_outcomes, mask=unreachable),
        "waiter_letters": np.ma.masked_array(p.waiter_letters, mask=unreachable),
    }
    del p, play
    memory.give_back()
    return [found[k] for k in PLAN_FIELDS]


def nullable(column: np.ndarray) -> np.ndarray:
    """A column whose negative values (no length, no best move) are written as NULL:
    masked, as `part` reads it."""
    if not (column < 0).any():
        return column
    return np.ma.masked_array(column, mask=column < 0)


def part(column: Any, lo: int, hi: int) -> Any:
    """Rows ``lo:hi`` of a column as `ghostdb.store.sql.queries.Columns` takes them: a numpy
    array's slice (a masked array's masked entries are NULL), a list's or keys' slice;
    anything else (a string, a number, None) is one value for every row."""
    if isinstance(column, np.ndarray):
        return column[lo:hi]  # `ghostdb.store.sql.queries.Columns` binds it
    if column is None or isinstance(column, str | int | float | bytes):
        return column
    return column[lo:hi]


def chunks(
    names: tuple[str, ...], columns: list[Any], n: int, job_id: int
) -> Generator[Chunk, None, None]:
    """The ``n`` rows in chunks, for progress and memory, with the solution's id: each
    chunk's Python values are made here, as it is written."""
    for lo in range(0, n, CHUNK_ROWS):
        hi = min(lo + CHUNK_ROWS, n)
        values = [job_id, *(part(c, lo, hi) for c in columns)]
        yield ("solution_id", *names), q.Columns(hi - lo, values)


def write_rows(conn: Any, rows: Rows, n: int, job_id: int, progress: ProgressFn | None) -> None:
    """The ``n`` position rows, a chunk at a time."""
    written = 0
    made = chunks(*rows, n, job_id)
    if conn.dialect.name == "sqlite":
        made = ahead(made)
    # Closed however the loop ends, so that a failed or interrupted write lets its worker
    # go at once rather than whenever the generator is collected.
    with closing(made):
        for names, chunk in made:
            q.bulk_insert(conn, positions, names, chunk)
            written += len(chunk)
            if progress:
                progress("write", written, n)


def ahead(chunks: Generator[Chunk, None, None]) -> Generator[Chunk, None, None]:
    """``chunks``, each made and bound (`q.Columns.prepared`) in a worker thread while
    the caller writes the one before.  SQLite works without the GIL, and making a chunk's
    values in Python is a fifth of a write: the two overlap on a second core."""

    def make() -> Chunk | None:
        found = next(chunks, None)
        if found is not None:
            found[1].prepared()
        return found

    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1, thread_name_prefix="ghostdb-write") as worker:
        coming = worker.submit(make)
        try:
            while (found := coming.result()) is not None:
                coming = worker.submit(make)
                yield found
        finally:
            coming.cancel()  # not started yet: never started
