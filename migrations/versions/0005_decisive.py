"""Decisive words, stored: which single-word edits change the outcome at a position, and
the fewest edits that do (`ghostdb decisive`), and why two dictionaries differ
(`ghostdb compare A B --why`), kept beside the solution they were worked out from.

* ``decisive``: one row per question asked of a solution — ``question`` is ``edits``
  (decisive words at ``position``, with additions from the dictionary ``pool_id``, 0 for
  none) or ``why`` (the fewest differences from dictionary ``pool_id``, at the start) —
  with the outcome now, the outcome aimed at and the size of the fewest set.
* ``decisive_words``: its words, one row each: a single deletion or addition that
  changes the outcome, or a member of the fewest set; with the outcome the edit gives
  and where it matters (the move from the position whose value it changes, before and
  after).

Nothing is filled in: answers are worked out on first request and kept.  Rows go with
their solution, and with their pool dictionary when it is replaced.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

KEY = ("solution_id", "question", "position", "pool_id")


def _key_columns() -> list[sa.Column]:
    return [
        sa.Column("solution_id", sa.Integer(), nullable=False),
        sa.Column("question", sa.String(8), nullable=False),
        sa.Column("position", sa.Text(), nullable=False),
        sa.Column("pool_id", sa.Integer(), nullable=False),
    ]


def upgrade() -> None:
    op.create_table(
        "decisive",
        *_key_columns(),
        sa.Column("outcome", sa.String(4), nullable=False),
        sa.Column("target", sa.String(4), nullable=False),
        sa.Column("fewest_count", sa.Integer(), nullable=True),
        sa.Column("exact", sa.Boolean(), nullable=False),
        sa.Column("only_here", sa.Integer(), nullable=True),
        sa.Column("only_pool", sa.Integer(), nullable=True),
        sa.Column("seconds", sa.Float(), nullable=False),
        sa.Column("worked_out_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint(*KEY, name="pk_decisive"),
        sqlite_with_rowid=False,
    )
    op.create_table(
        "decisive_words",
        *_key_columns(),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("word", sa.Text(), nullable=False),
        sa.Column("outcome", sa.String(4), nullable=False),
        sa.Column("move", sa.Text(), nullable=False),
        sa.Column("move_before", sa.String(4), nullable=False),
        sa.Column("move_after", sa.String(4), nullable=False),
        sa.PrimaryKeyConstraint(*KEY, "kind", "word", name="pk_decisive_words"),
        sqlite_with_rowid=False,
    )
    op.create_index("ix_decisive_pool_id", "decisive", ["pool_id"])


def downgrade() -> None:
    op.drop_index("ix_decisive_pool_id", table_name="decisive")
    op.drop_table("decisive_words")
    op.drop_table("decisive")
