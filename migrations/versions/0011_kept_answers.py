"""Kept answers: whole-solution answers worked out once and read back.

* ``kept_answers``: one row per answer of a published solution (its summary: who wins,
  the plans' sizes, the positions by outcome and level; each player's plan from the
  start; every opening's plans) or of a pair of them (``other_id``: a comparison), its
  body the answer as JSON.

Nothing is filled in: a solve job keeps its solution's answers when it publishes, and
solutions published before this revision get theirs on first request.  Rows go with
their solution (superseded, failed, or its dictionary replaced).

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "kept_answers",
        sa.Column("solution_id", sa.Integer(), nullable=False),
        sa.Column("other_id", sa.Integer(), nullable=False),
        sa.Column("question", sa.String(16), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("seconds", sa.Float(), nullable=False),
        sa.Column("worked_out_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("solution_id", "other_id", "question", name="pk_kept_answers"),
        sqlite_with_rowid=False,
    )
    op.create_index("ix_kept_answers_other_id", "kept_answers", ["other_id"])


def downgrade() -> None:
    op.drop_index("ix_kept_answers_other_id", table_name="kept_answers")
    op.drop_table("kept_answers")
