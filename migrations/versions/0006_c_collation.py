"""PostgreSQL: position keys compared byte by byte (``COLLATE "C"``), as SQLite does.

A plain-Ghost lookup reads a fragment and its plays as one range of the primary key —
the fragment, then every key of the next level between it and it followed by the highest
character.  That range is the plays only where text sorts by code point; a database's
default collation (``en_US.UTF-8``) sorts otherwise, so PostgreSQL read the plays with
an IN-list of every candidate key instead, at a quarter of the speed.  With the key
columns in the C collation (UTF-8 bytes in order are code points in order) the server
reads the same one range.  SQLite compares bytes already: nothing to do there.

On a server the upgrade rewrites both tables and their keys under an exclusive lock:
readers wait for it (about a second a million positions), once.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-25
"""

from __future__ import annotations

from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

COLUMNS = (("positions", "fragment"), ("plans", "fragment"))


def _collate(collation: str) -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    for table, column in COLUMNS:
        op.execute(f'ALTER TABLE {table} ALTER COLUMN {column} TYPE text COLLATE "{collation}"')
    # The rewrite drops the planner's statistics of the tables it rewrote.
    op.execute(f"ANALYZE {', '.join(table for table, _ in COLUMNS)}")


def upgrade() -> None:
    _collate("C")


def downgrade() -> None:
    _collate("default")
