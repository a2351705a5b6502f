"""Opening databases: URLs, SQLite settings, and keeping the schema at the head revision.

The only module that creates engines.  Opening compares the database's Alembic revision
with `ghostdb.schema.HEAD_REVISION`; only when they differ is Alembic imported to upgrade
(or, for a database from a newer ghostdb, the open is refused).
"""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, event, inspect, text
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import ArgumentError

from ghostdb.errors import DatabaseError
from ghostdb.schema import HEAD_REVISION

DEFAULT_URL = "sqlite:///ghost.db"
URL_ENV = "GHOSTDB_URL"


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


def _sqlite_settings(dbapi_connection: Any, _record: Any) -> None:
    # Autocommit off at the driver level: SQLAlchemy issues BEGIN itself (see below), so
    # bulk writes through the raw connection stay inside the same transaction.
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")  # readers keep reading during a solve
    cursor.execute("PRAGMA synchronous=NORMAL")  # safe in WAL mode against crashes
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.close()


def _sqlite_begin(conn: Connection) -> None:
    conn.exec_driver_sql("BEGIN")


def make_engine(url: str | None = None, *, create: bool = True) -> Engine:
    """An engine for ``url`` (see `resolve_url`).

    With ``create=False`` a SQLite file that does not exist is an error, so read-only
    commands never leave an empty database behind.
    """
    url = resolve_url(url)
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise DatabaseError(
            f"{url!r} is not a database URL: use a file path or sqlite:///PATH"
        ) from None
    path = sqlite_path(url)
    if path is not None:
        if not create and not path.exists():
            raise DatabaseError(
                f"no database at {str(path)!r}: ingest a word list first (ghostdb ingest PATH)"
            )
        if path.exists() and path.is_dir():
            raise DatabaseError(f"{str(path)!r} is a directory, not a database file")
        if not path.parent.exists():
            raise DatabaseError(f"no folder {str(path.parent)!r} for the database: create it first")
    try:
        engine = create_engine(parsed)
    except ModuleNotFoundError as exc:
        raise DatabaseError(
            f"the driver for {parsed.get_backend_name()} is not installed ({exc.name}): "
            "install ghostdb[postgres]"
        ) from None
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_settings)
        event.listen(engine, "begin", _sqlite_begin)
    return engine


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


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Upgrade the schema to ``revision`` in one transaction."""
    from alembic import command

    with engine.begin() as conn:
        command.upgrade(alembic_config(conn), revision)


def ensure_schema(engine: Engine) -> None:
    """Bring the database to the head revision; refuse one written by a newer ghostdb."""
    with engine.connect() as conn:
        revision = current_revision(conn)
    if revision == HEAD_REVISION:
        return
    from alembic.script import ScriptDirectory

    known = {s.revision for s in ScriptDirectory.from_config(alembic_config()).walk_revisions()}
    if revision is not None and revision not in known:
        raise DatabaseError(
            f"the database has schema revision {revision!r}, newer than this ghostdb knows: "
            "upgrade ghostdb"
        )
    upgrade(engine)


def inspect_revision(url: str | None) -> tuple[str | None, str]:
    """(the database's revision, the head revision), without changing anything."""
    engine = make_engine(url, create=False)
    try:
        with engine.connect() as conn:
            return current_revision(conn), HEAD_REVISION
    finally:
        engine.dispose()
