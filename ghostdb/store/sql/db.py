"""Opening databases: URLs, SQLite settings, the schema revision, and write transactions.

The only module that creates engines.  Opening compares the database's Alembic revision
with `HEAD_REVISION`; only when they differ is Alembic imported to upgrade (or, for a
database from a newer ghostdb, the open is refused).  A read-only open never
creates, upgrades or otherwise changes anything.

Any number of ghostdb processes may share one SQLite database.  Readers use plain
(deferred) transactions: in WAL mode they read while a writer writes.  Writers use
`writing`, which takes SQLite's write lock when the transaction begins and waits its
turn for it.  A deferred transaction that reads and then writes cannot wait: SQLite
answers ``database is locked`` at once when another writer committed since the read.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import sys
import threading
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, event, inspect, text
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import ArgumentError, SAWarning, SQLAlchemyError

from ghostdb.errors import DatabaseError, LockTimeout
from ghostdb.store.sql.faults import describe

HEAD_REVISION = "0012"
"""The schema revision this ghostdb reads and writes: the last migration's, bumped with
every new one (a test checks it).  Here rather than beside the tables
(`ghostdb.store.sql.schema`, which names it too): opening a database builds none of them."""

DEFAULT_URL = "sqlite:///ghost.db"
URL_ENV = "GHOSTDB_URL"
LOCK_TIMEOUT_ENV = "GHOSTDB_LOCK_TIMEOUT"
DEFAULT_LOCK_TIMEOUT = 600.0  # seconds: longer than any solve's write of a real list
BUSY_TIMEOUT_MS = 10_000  # readers and connection set-up: brief waits (checkpoints, WAL set-up)
LOCK_POLL = 0.25  # seconds SQLite waits per try, so Ctrl-C is noticed while queued
WAITING_MESSAGE = "waiting for another writer…"
# Serialises schema creation and upgrades on PostgreSQL (any constant unique to ghostdb).
SCHEMA_LOCK_KEY = 0x6768_6F73
HEAD_SQL = "head.sqlite.sql"  # in ghostdb.migrations: see `_create_sqlite_head`


def resolve_url(url: str | None) -> str:
    """The database URL: given, else ``$GHOSTDB_URL``, else ``./ghost.db``.

    A bare path (no ``://``) means a SQLite file.
    """
    url = url or os.environ.get(URL_ENV) or DEFAULT_URL
    if "://" not in url:
        url = f"sqlite:///{url}"
    return url


def sqlite_path(url: str) -> Path | None:
    """The file of a SQLite URL, or None for other databases and in-memory SQLite."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    return Path(parsed.database)


def warm(engine: Engine) -> int:
    """Read a SQLite database's file through once, in a background thread at the lowest
    priority, so that the system caches its pages, where the file fits in half the
    memory available; the bytes it will read (0: not SQLite, or too big).

    A server that has just started would otherwise read each page on first request, one
    random read at a time: on a store of many gigabytes its first minutes answer several
    times slower than the rest (PostgreSQL's ``pg_prewarm`` does the same for its own
    buffers).  Nothing waits for the reading, and the pages stay the kernel's: a process
    that needs the memory gets it back.  (``posix_fadvise(WILLNEED)`` asks the same
    without a thread, but some kernels read only the first megabytes of it.)"""
    from ghostdb.memory import available

    path = sqlite_path(engine.url.render_as_string(hide_password=False))
    if path is None or not path.is_file():
        return 0
    size = path.stat().st_size
    room = min((free for free, _, _ in available()), default=0)
    if size > room // 2:
        return 0
    threading.Thread(target=_read_through, args=(path,), daemon=True, name="ghostdb-warm").start()
    return size


def _read_through(path: Path) -> None:
    with contextlib.suppress(OSError, AttributeError):  # a thread's nice: Linux only
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 19)
    chunk = bytearray(2**20)
    with contextlib.suppress(OSError), open(path, "rb", buffering=0) as file:
        while file.readinto(chunk):
            pass


def display_name(url: str | None) -> str:
    """How messages name a database: its file path, or its URL without the password."""
    url = resolve_url(url)
    try:
        path = sqlite_path(url)
        return str(path) if path is not None else make_url(url).render_as_string()
    except (ArgumentError, ValueError):
        return url


def _sqlite_connect(readonly: bool) -> Any:
    def settings(dbapi_connection: Any, _record: Any) -> None:
        # Autocommit off at the driver level: SQLAlchemy issues BEGIN itself (see below),
        # so bulk writes through the raw connection stay inside the same transaction.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        # First, so that setting WAL on a brand-new file waits for a concurrent opener.
        cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        if readonly:
            # Reading works in any journal mode; setting one would write the file.
            cursor.execute("PRAGMA query_only=ON")
        else:
            cursor.execute("PRAGMA journal_mode=WAL")  # readers keep reading during a solve
        cursor.execute("PRAGMA synchronous=NORMAL")  # safe in WAL mode against crashes
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    return settings


def _sqlite_begin(conn: Connection) -> None:
    # `writing` has begun the transaction already (BEGIN IMMEDIATE) on the driver.
    if not conn.connection.driver_connection.in_transaction:  # type: ignore[union-attr]
        conn.exec_driver_sql("BEGIN")


def make_engine(url: str | None = None, *, create: bool = True, readonly: bool = False) -> Engine:
    """An engine for ``url`` (see `resolve_url`); nothing is connected yet.

    With ``create=False`` a SQLite file that does not exist is an error, so commands that
    need data never leave an empty database behind.  A ``readonly`` engine's SQLite
    connections refuse to write.  Raises DatabaseError for a URL that cannot work.
    """
    url = resolve_url(url)
    try:
        parsed = make_url(url)
    except (ArgumentError, ValueError) as exc:
        raise DatabaseError(describe(exc, url)) from None
    try:
        with warnings.catch_warnings():
            # e.g. URL options the driver ignores: a mistake to point out, not to skip.
            warnings.simplefilter("error", SAWarning)
            engine = create_engine(parsed)
    except (ArgumentError, ImportError, SAWarning) as exc:
        raise DatabaseError(describe(exc, url)) from None
    path = sqlite_path(url)
    if path is not None:
        if (readonly or not create) and not path.exists():
            raise DatabaseError(
                f"no database at {str(path)!r}: ingest a word list first (ghostdb ingest "
                "PATH; from Python, open_store(PATH, create=True) makes an empty one)"
            )
        if path.is_dir():
            raise DatabaseError(f"{str(path)!r} is a directory, not a database file")
        if not path.parent.is_dir():
            raise DatabaseError(f"no folder {str(path.parent)!r} for the database: create it first")
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_connect(readonly))
        event.listen(engine, "begin", _sqlite_begin)
    return engine


# -- write transactions ------------------------------------------------------------------------


def lock_timeout() -> float:
    """Seconds a writer waits for the write lock: ``$GHOSTDB_LOCK_TIMEOUT``, else 10 minutes."""
    value = os.environ.get(LOCK_TIMEOUT_ENV, "")
    try:
        seconds = float(value) if value.strip() else DEFAULT_LOCK_TIMEOUT
    except ValueError:
        raise DatabaseError(
            f"{LOCK_TIMEOUT_ENV}={value!r} is not a number of seconds: set it to e.g. 600"
        ) from None
    if not seconds >= 0:  # also refuses nan
        raise DatabaseError(f"{LOCK_TIMEOUT_ENV}={value!r} is negative: set it to e.g. 600")
    return seconds


class WriterBusy(Exception):
    """Another process holds SQLite's write lock (from ``writing(engine, wait=False)``)."""


@contextmanager
def writing(engine: Engine, *, wait: bool = True) -> Iterator[Connection]:
    """A write transaction: use it instead of ``engine.begin()`` wherever a transaction
    writes, so that writers queue instead of failing.

    On SQLite the transaction begins with ``BEGIN IMMEDIATE``: it holds the write lock
    from its first statement, so its reads see what it will write over, and it waits
    (up to `lock_timeout`, saying so on a terminal) while another process holds the lock.
    When the lock is free this costs nothing beyond the BEGIN.  Elsewhere it is
    ``engine.begin()``: PostgreSQL writers run in parallel.  Commits on success, rolls
    back on any exception (Ctrl-C included).  With ``wait=False`` a SQLite lock held by
    another process raises WriterBusy at once instead.
    """
    if engine.dialect.name != "sqlite":
        with engine.connect() as conn, conn.begin():
            yield conn
        return
    queue = _writers(engine)
    _enter(queue, engine, wait)
    try:
        with engine.connect() as conn:
            driver = conn.connection.driver_connection
            _lock(driver, engine, wait)
            try:
                transaction = conn.begin()
            except BaseException:
                driver.rollback()  # type: ignore[union-attr]
                raise
            with transaction:
                yield conn
    finally:
        queue.release()


_QUEUES: dict[str, threading.RLock] = {}
_QUEUES_LOCK = threading.Lock()


def _writers(engine: Engine) -> threading.RLock:
    """The queue of this process's writers of one SQLite file.  SQLite's own lock makes
    a writer that finds it taken sleep and try again (1, 2, 5 … 100 ms): threads of one
    process (a server's rooms) would wait far longer than the write they wait for.  So
    they queue here first, each woken the moment the one before commits, and only other
    processes are met at SQLite's lock.  Re-entrant: a thread that nests writers meets
    SQLite's lock, and its timeout, as before."""
    key = str(engine.url.database or "")
    with _QUEUES_LOCK:
        return _QUEUES.setdefault(key, threading.RLock())


def _enter(queue: threading.RLock, engine: Engine, wait: bool) -> None:
    if not wait:
        if not queue.acquire(blocking=False):
            raise WriterBusy(display_name(str(engine.url)))
        return
    # Short waits, so that Ctrl-C is noticed while queued (as at SQLite's lock).
    timeout = lock_timeout()
    deadline = time.monotonic() + timeout
    while not queue.acquire(timeout=LOCK_POLL):
        if time.monotonic() > deadline:
            raise _kept_locked(engine, "another writer", timeout)


def _kept_locked(engine: Engine, who: str, timeout: float) -> LockTimeout:
    return LockTimeout(
        f"{who} kept {display_name(str(engine.url))} locked for writing for all of the "
        f"{timeout:g} s this one may wait: try again when it has finished, or let ghostdb "
        f"wait longer with {LOCK_TIMEOUT_ENV}=SECONDS"
    )


def _lock(driver: Any, engine: Engine, wait: bool = True) -> None:
    """``BEGIN IMMEDIATE``, retried in short waits until `lock_timeout` has passed (or,
    unless ``wait``, WriterBusy when the first try finds the lock taken)."""
    timeout = lock_timeout()  # a bad setting is an error even when nobody else writes
    driver.execute("PRAGMA busy_timeout=0")  # the first try never waits
    try:
        try:
            driver.execute("BEGIN IMMEDIATE")
            return
        except sqlite3.OperationalError as exc:
            if not _busy(exc):
                raise
            if not wait:
                raise WriterBusy(display_name(str(engine.url))) from None
        deadline = time.monotonic() + timeout
        if sys.stderr.isatty():
            print(WAITING_MESSAGE, file=sys.stderr, flush=True)
        while (left := deadline - time.monotonic()) > 0:
            driver.execute(f"PRAGMA busy_timeout={max(1, int(min(left, LOCK_POLL) * 1000))}")
            try:
                driver.execute("BEGIN IMMEDIATE")
                return
            except sqlite3.OperationalError as exc:
                if not _busy(exc):
                    raise
        raise _kept_locked(engine, "another process", timeout)
    finally:
        driver.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")


def _busy(exc: sqlite3.Error) -> bool:
    code = getattr(exc, "sqlite_errorcode", 0) & 0xFF
    return code in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)


def serialise(conn: Connection, table: Any) -> None:
    """Make transactions that call this for the same ``table`` take turns, from here to
    their end.  Call it before the "is it there already?" read of a write that must not
    happen twice: publishing a solution (``solutions``), storing a dictionary.

    Otherwise two solves of one rule set publishing at the same moment both pass the
    "nothing else is published" point and then collide on the unique index of published
    solutions (two ingests of one name, on the unique name).  On SQLite `writing` holds
    the only write lock already.  On PostgreSQL this lock mode conflicts with itself and
    with row writes to ``table``, not with reads, so readers carry on.
    """
    if conn.dialect.name == "postgresql":
        conn.execute(text(f"LOCK TABLE {table.name} IN SHARE ROW EXCLUSIVE MODE"))


# -- schema ------------------------------------------------------------------------------------


def current_revision(conn: Connection) -> str | None:
    """The database's Alembic revision, or None if it has no schema yet."""
    if not inspect(conn).has_table("alembic_version"):
        return None
    return conn.execute(text("SELECT version_num FROM alembic_version")).scalar()


def alembic_config(connection: Connection | None = None) -> Any:
    """An Alembic config pointing at the packaged migrations (found beside the code)."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(resources.files("ghostdb.migrations")))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def known_revisions() -> set[str]:
    """Every revision this ghostdb's migrations know."""
    from alembic.script import ScriptDirectory

    return {s.revision for s in ScriptDirectory.from_config(alembic_config()).walk_revisions()}


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Upgrade the schema to ``revision`` in one write transaction."""
    from alembic import command

    with writing(engine) as conn:
        _lock_schema(conn)
        command.upgrade(alembic_config(conn), revision)


def _lock_schema(conn: Connection) -> None:
    # SQLite: `writing` holds the write lock.  PostgreSQL: concurrent CREATE TABLEs of one
    # name fail rather than wait, so openers of a fresh database take turns here.
    if conn.dialect.name == "postgresql":
        conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": SCHEMA_LOCK_KEY})


@dataclass(frozen=True)
class SchemaState:
    """Where a database's schema stands: ``head``, ``older``, ``newer`` or ``empty``
    (no schema; ``foreign`` tells whether it holds tables of something else)."""

    revision: str | None
    head: str
    state: str
    foreign: bool = False


def schema_state(conn: Connection) -> SchemaState:
    revision = current_revision(conn)
    if revision == HEAD_REVISION:
        return SchemaState(revision, HEAD_REVISION, "head")
    if revision is None:
        foreign = bool(inspect(conn).get_table_names())
        return SchemaState(None, HEAD_REVISION, "empty", foreign)
    state = "older" if revision in known_revisions() else "newer"
    return SchemaState(revision, HEAD_REVISION, state)


def _newer(state: SchemaState) -> DatabaseError:
    return DatabaseError(
        f"the database has schema revision {state.revision!r}, newer than this ghostdb "
        f"knows ({state.head}): upgrade ghostdb"
    )


def _foreign(where: str) -> DatabaseError:
    return DatabaseError(
        f"{where} holds tables of something other than ghostdb: give --db a new file instead"
    )


def _empty(where: str) -> DatabaseError:
    return DatabaseError(
        f"the database {where} is empty: ingest a word list first (ghostdb ingest PATH)"
    )


def ensure_schema(engine: Engine, *, create: bool = True) -> None:
    """Bring the database to the head revision; refuse one written by a newer ghostdb,
    and (unless ``create``) one with no schema yet.

    Checked again under the write lock, so that processes opening a fresh database at
    the same moment create its schema once.
    """
    with engine.connect() as conn:
        if schema_state(conn).state == "head":
            return
    with writing(engine) as conn:
        _lock_schema(conn)
        state = schema_state(conn)
        if state.state == "head":
            return
        if state.state == "newer":
            raise _newer(state)
        if state.foreign:
            raise _foreign(display_name(str(engine.url)))
        if state.state == "empty" and not create:
            raise _empty(display_name(str(engine.url)))
        if state.state == "empty" and conn.dialect.name == "sqlite":
            _create_sqlite_head(conn)
            return
        from alembic import command

        command.upgrade(alembic_config(conn), "head")


def _create_sqlite_head(conn: Connection) -> None:
    """Create the head schema in an empty SQLite database from `HEAD_SQL`: the statements
    that running every migration leaves in it, saved beside the migrations.  Importing and
    running Alembic is most of a first ingest's start (0.2 s); a test checks that the file
    and the migrations give the same schema."""
    sql = resources.files("ghostdb.migrations").joinpath(HEAD_SQL).read_text("utf-8")
    driver = conn.connection.driver_connection
    for statement in sql.split(";\n"):
        if statement.strip():
            driver.execute(statement)  # type: ignore[union-attr]


def sqlite_head_sql() -> str:
    """The text of `HEAD_SQL`: every migration run on an empty in-memory SQLite database,
    and the statements that created what it holds, in order (``scripts/schema_sql.py``
    writes it after a new migration)."""
    engine = make_engine("sqlite://")
    try:
        with engine.begin() as conn:
            from alembic import command

            command.upgrade(alembic_config(conn), "head")
            statements = conn.exec_driver_sql(
                "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL "
                "AND name != 'sqlite_sequence' ORDER BY rowid"
            ).scalars()
            revision = current_revision(conn)
            body = "".join(f"{s.strip()};\n" for s in statements)
    finally:
        engine.dispose()
    return (
        f"-- ghostdb's schema at revision {revision} on SQLite, as its migrations create it.\n"
        "-- Generated by scripts/schema_sql.py: do not edit.\n"
        f"{body}INSERT INTO alembic_version (version_num) VALUES ('{revision}');\n"
    )


def check_schema(engine: Engine) -> None:
    """Refuse, changing nothing, a database whose schema is not at the head revision."""
    where = display_name(str(engine.url))
    with engine.connect() as conn:
        state = schema_state(conn)
    if state.state == "head":
        return
    if state.state == "newer":
        raise _newer(state)
    if state.foreign:
        raise _foreign(where)
    if state.state == "empty":
        raise _empty(where)
    raise DatabaseError(
        f"the database {where} has schema revision {state.revision!r} from an older "
        "ghostdb: run `ghostdb db upgrade` first"
    )


def open_engine(url: str | None = None, *, create: bool = True, readonly: bool = False) -> Engine:
    """An engine for a database ready to use, or DatabaseError saying why not.

    ``readonly``: the database must exist at the head revision, and nothing is written.
    Otherwise it is upgraded as needed, and created (file and schema) only if ``create``.
    """
    engine = make_engine(url, create=create, readonly=readonly)
    try:
        if readonly:
            check_schema(engine)
        else:
            ensure_schema(engine, create=create)
    except (SQLAlchemyError, sqlite3.Error, OSError) as exc:
        engine.dispose()
        raise DatabaseError(describe(exc, str(engine.url))) from exc
    except BaseException:
        engine.dispose()
        raise
    return engine


def inspect_schema(url: str | None) -> SchemaState:
    """The schema state of an existing database, without changing anything."""
    engine = make_engine(url, readonly=True)
    try:
        with engine.connect() as conn:
            return schema_state(conn)
    except (SQLAlchemyError, sqlite3.Error, OSError) as exc:
        raise DatabaseError(describe(exc, str(engine.url))) from exc
    finally:
        engine.dispose()
