"""A plan's move as a play number: ``plans.plan_play`` replaces ``plans.plan_next``.

A plan row named the plan's move by the whole key of the position it leads to.
SuperDuperGhost keeps a plan at nearly every position, and those keys were a fifth of
its bytes on disk (Debian's Polish list: 82 bytes a position with its plans).  Now the
move is its place among the position's plays in move order (0 for the first; NULL at a
final position), as revision 0007 made of the best move; a plan walk reads the plays
anyway.

The play numbers of existing plans are worked out one solution at a time from its graph
(`ghostdb.migrations.plays`), and the keys back from them on the way down.  Plans stay in
a table of their own: plain Ghost reaches one position in thirty, and seven plan columns
NULL in the other rows of ``positions`` made its write a third slower.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-25
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op
from ghostdb.migrations import plays

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

SAME_KEY = "p.solution_id = positions.solution_id AND p.level = positions.level "
SAME_KEY += "AND p.fragment = positions.fragment"


def _convert(bind: Any, source: str, target: str, to_play: bool) -> None:
    """Fill ``plans.target`` from ``plans.source``, solution by solution."""
    sql = (
        f"SELECT positions.level, positions.fragment, p.{source} FROM positions "
        f"LEFT JOIN plans p ON {SAME_KEY} WHERE positions.solution_id = :s "
        "ORDER BY positions.level, positions.fragment"
    )
    for solution_id, game, words in plays.solutions(bind, "plans"):
        rows = bind.execute(sa.text(sql), {"s": solution_id}).all()
        keys, stored = [r[1] for r in rows], [r[2] for r in rows]
        found = plays.converted(game, words, keys, stored, to_play)
        plays.write(bind, "plans", target, solution_id, rows, found)


def _analyze(bind: Any) -> None:
    if bind.dialect.name == "postgresql":
        op.execute("ANALYZE plans")  # the rewrite dropped its statistics


def upgrade() -> None:
    bind = op.get_bind()
    op.add_column("plans", sa.Column("plan_play", sa.SmallInteger(), nullable=True))
    _convert(bind, "plan_next", "plan_play", to_play=True)
    op.execute("ALTER TABLE plans DROP COLUMN plan_next")  # SQLite 3.35 and later
    _analyze(bind)


def downgrade() -> None:
    bind = op.get_bind()
    op.add_column("plans", sa.Column("plan_next", sa.Text(), nullable=True))
    _convert(bind, "plan_play", "plan_next", to_play=False)
    op.execute("ALTER TABLE plans DROP COLUMN plan_play")
    _analyze(bind)
