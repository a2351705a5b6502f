"""Alembic environment for ghostdb.

ghostdb runs migrations from code on its own connection (``config.attributes["connection"]``);
the ``alembic`` command line also works from the project root with ``alembic.ini``
(database from ``GHOSTDB_URL``, default ``./ghost.db``).
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import engine_from_config, pool

from ghostdb.store.sql.db import resolve_url
from ghostdb.store.sql.schema import metadata

config = context.config
target_metadata = metadata


def run_migrations(connection) -> None:  # type: ignore[no-untyped-def]
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=True,  # SQLite cannot ALTER most things: copy-and-move instead
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


connection = config.attributes.get("connection")
if connection is not None:
    run_migrations(connection)
elif context.is_offline_mode():
    context.configure(url=resolve_url(None), target_metadata=target_metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()
else:
    engine = engine_from_config(
        {"sqlalchemy.url": resolve_url(None)}, prefix="sqlalchemy.", poolclass=pool.NullPool
    )
    with engine.connect() as conn:
        run_migrations(conn)
