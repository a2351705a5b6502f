"""Reads on the raw driver connection: a statement compiled once and run on the DB-API
connection (the hot lookup path, where SQLAlchemy's work an execution costs more than
SQLite's own), a whole solution streamed out, and reads done by threads ahead of their
use.  Parameters are always bound, never formatted into the SQL."""

from __future__ import annotations

import contextlib
import queue
import threading
from collections.abc import Callable, Iterator, Sequence
from itertools import count
from typing import Any

from sqlalchemy.engine import Connection, Engine
from sqlalchemy.pool import SingletonThreadPool


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


_CURSORS = count()
"""Numbers a PostgreSQL server-side cursor's name: one a stream, so two may be open."""


def stream(conn: Connection, stmt: Any, size: int) -> Iterator[list[Any]]:
    """The rows of ``stmt`` in lists of up to ``size``, fetched on ``conn``'s own DB-API
    connection, in its transaction: for reading out a whole solution (an export, a
    pack), millions of rows, where SQLAlchemy's work a row costs more than the
    database's.  On PostgreSQL a server-side cursor, so the rows are not all held at
    once.  Parameters are still bound."""
    query = FastQuery(stmt, conn.dialect)
    args: Any = [d for _, d in query.order] if query.order else query.defaults
    driver = conn.connection.driver_connection
    assert driver is not None
    named = conn.dialect.name == "postgresql"
    cursor = driver.cursor(name=f"ghostdb_stream_{next(_CURSORS)}") if named else driver.cursor()
    try:
        cursor.execute(query.sql, args)
        while rows := cursor.fetchmany(size):
            yield rows
    finally:
        cursor.close()


def stream_ahead(source: Any, stmt: Any, size: int, depth: int = 2) -> Iterator[list[Any]]:
    """`stream` in a thread that fetches up to ``depth`` batches ahead of their use:
    SQLite and psycopg wait for the database with the GIL released, so the next batch
    is read while this one is used.  ``source`` is an engine (the thread opens a
    connection of its own) or a connection the caller leaves alone until the iterator
    ends (to read in its transaction).  Closing the iterator (or an error, or Ctrl-C,
    in the caller) stops the thread; an error in the thread is raised in the caller.
    An in-memory SQLite database is read on the caller's thread: it is one database a
    thread, and its connection may not cross threads."""
    engine = source if isinstance(source, Engine) else source.engine
    if engine.dialect.name == "sqlite" and isinstance(engine.pool, SingletonThreadPool):
        with contextlib.ExitStack() as own:
            conn = own.enter_context(source.connect()) if source is engine else source
            yield from stream(conn, stmt, size)
        return
    box: queue.Queue[Any] = queue.Queue(maxsize=depth)
    stop = threading.Event()
    done = object()

    def put(item: Any) -> bool:
        while not stop.is_set():
            try:
                box.put(item, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def fetch() -> None:
        try:
            with contextlib.ExitStack() as own:
                conn = own.enter_context(source.connect()) if isinstance(source, Engine) else source
                for part in stream(conn, stmt, size):
                    if not put(part):
                        return
            put(done)
        except BaseException as exc:
            put(exc)

    thread = threading.Thread(target=fetch, name="ghostdb-stream", daemon=True)
    thread.start()
    try:
        while (item := box.get()) is not done:
            if isinstance(item, BaseException):
                raise item
            yield item
    finally:
        stop.set()
        _join(thread)


def _join(thread: threading.Thread) -> None:
    """Wait for ``thread`` to end, even through Ctrl-C (raised once it has: the thread
    may be reading on a connection its caller is about to let go)."""
    if thread is threading.current_thread():  # finalised by the thread itself: it is ending
        return
    interrupted: BaseException | None = None
    while thread.is_alive():
        try:
            thread.join(0.1)
        except KeyboardInterrupt as exc:
            interrupted = exc
    if interrupted is not None:
        raise interrupted


def run_each(
    engine: Engine,
    items: Sequence[Any],
    work: Callable[[Any, Any], Any],
    threads: int = 2,
    ahead: int = 8,
) -> Iterator[Any]:
    """``work(dbapi_connection, item)`` for each of ``items``, in their order, done by up
    to ``threads`` threads, each on a raw DB-API connection of its own (SQLite and
    psycopg wait for the database with the GIL released: two queries run on two cores
    while the caller works on the answer to a third), at most ``ahead`` items done or
    being done before the caller takes them.  An in-memory SQLite database is read on
    the caller's thread.  Closing the iterator (or an error, or Ctrl-C) stops the
    threads once their item is done; an error in a thread is raised in the caller."""
    if engine.dialect.name == "sqlite" and isinstance(engine.pool, SingletonThreadPool):
        with engine.connect() as conn:
            for item in items:
                yield work(conn.connection.driver_connection, item)
        return
    done: dict[int, Any] = {}
    failed: list[BaseException] = []
    todo = iter(enumerate(items))
    cond, stop, slots = threading.Condition(), threading.Event(), threading.Semaphore(ahead)

    def worker() -> None:
        try:
            with engine.connect() as conn:
                driver = conn.connection.driver_connection
                while not stop.is_set():
                    if not slots.acquire(timeout=0.1):
                        continue
                    with cond:
                        taken = next(todo, None)
                    if taken is None or stop.is_set():
                        return
                    found = work(driver, taken[1])
                    with cond:
                        done[taken[0]] = found
                        cond.notify_all()
        except BaseException as exc:
            with cond:
                failed.append(exc)
                cond.notify_all()

    workers = [
        threading.Thread(target=worker, name="ghostdb-read", daemon=True)
        for _ in range(max(1, min(threads, len(items))))
    ]
    for thread in workers:
        thread.start()
    try:
        for i in range(len(items)):
            with cond:
                while i not in done and not failed:
                    cond.wait(0.1)
                if failed:
                    raise failed[0]
                found = done.pop(i)
            slots.release()
            yield found
    finally:
        stop.set()
        for thread in workers:
            _join(thread)
