"""Solution ids are never reused on SQLite.

Revision 0001 made ``solutions.id`` AUTOINCREMENT, but the table copies of later SQLite
migrations (Alembic's batch mode) left it a plain rowid, which SQLite may hand out again
once the highest row is deleted (``ingest --replace`` drops a dictionary's solutions).  A
reader that cached the id of a published solution could then read another solution's
rows under the old name.  This copies the table once more, AUTOINCREMENT again.
PostgreSQL's ids come from a sequence and are never reused: nothing to do there.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

PUBLISHED = "status = 'complete' AND dictionary_id IS NOT NULL"
PUBLISHED_GAME = "status = 'complete' AND dictionary_id IS NULL"


def _published_indexes(create: bool) -> None:
    """The partial unique indexes of published solutions: dropped around the copy and made
    again after it, since batch mode would copy them without their WHERE clauses."""
    for name, columns, where in (
        ("ix_solutions_published", ["dictionary_id", "rules"], PUBLISHED),
        ("ix_solutions_published_game", ["game", "rules"], PUBLISHED_GAME),
    ):
        if create:
            op.create_index(name, "solutions", columns, unique=True, sqlite_where=sa.text(where))
        else:
            op.drop_index(name, table_name="solutions")


def _copy(autoincrement: bool) -> None:
    if op.get_bind().dialect.name != "sqlite":
        return
    _published_indexes(create=False)
    with op.batch_alter_table(
        "solutions", recreate="always", table_kwargs={"sqlite_autoincrement": autoincrement}
    ):
        pass
    _published_indexes(create=True)


def upgrade() -> None:
    _copy(autoincrement=True)


def downgrade() -> None:
    _copy(autoincrement=False)
