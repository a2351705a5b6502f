"""Dictionaries, words, solve jobs and positions.

Revision ID: 0001
Revises:
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "dictionaries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("source", sa.Text(), nullable=False),
        sa.Column("sha256", sa.String(length=64), nullable=False),
        sa.Column("word_count", sa.Integer(), nullable=False),
        sa.Column("alphabet", sa.Text(), nullable=False),
        sa.Column("ingested_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("report", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_dictionaries"),
        sa.UniqueConstraint("name", name="uq_dictionaries_name"),
    )
    op.create_index("ix_dictionaries_sha256", "dictionaries", ["sha256"])
    op.create_table(
        "words",
        sa.Column("dictionary_id", sa.Integer(), nullable=False),
        sa.Column("word", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("dictionary_id", "word", name="pk_words"),
        sqlite_with_rowid=False,
    )
    op.create_table(
        "solutions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("dictionary_id", sa.Integer(), nullable=False),
        sa.Column("rules", sa.String(length=20), nullable=False),
        sa.Column("min_length", sa.Integer(), nullable=False),
        sa.Column("misere", sa.Boolean(), nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("solver_version", sa.String(length=20), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("word_count", sa.Integer(), nullable=True),
        sa.Column("fragment_count", sa.Integer(), nullable=True),
        sa.Column("reachable_count", sa.Integer(), nullable=True),
        sa.Column("seconds", sa.Float(), nullable=True),
        sa.Column("host", sa.String(length=255), nullable=True),
        sa.Column("pid", sa.Integer(), nullable=True),
        sa.Column("error", sa.Text(), nullable=True),
        sa.CheckConstraint(
            "status IN ('running', 'complete', 'failed', 'superseded')",
            name="ck_solutions_status",
        ),
        sa.CheckConstraint("rules IN ('ghost', 'super', 'superduper')", name="ck_solutions_rules"),
        sa.ForeignKeyConstraint(
            ["dictionary_id"],
            ["dictionaries.id"],
            name="fk_solutions_dictionary_id_dictionaries",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_solutions"),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_solutions_dictionary_id", "solutions", ["dictionary_id"])
    op.create_index(
        "ix_solutions_published",
        "solutions",
        ["dictionary_id", "rules", "min_length", "misere"],
        unique=True,
        sqlite_where=sa.text("status = 'complete'"),
        postgresql_where=sa.text("status = 'complete'"),
    )
    op.create_table(
        "positions",
        sa.Column("solution_id", sa.Integer(), nullable=False),
        sa.Column("fragment", sa.Text(), nullable=False),
        sa.Column("reachable", sa.Boolean(), nullable=False),
        sa.Column("outcome", sa.String(length=4), nullable=False),
        sa.Column("game_length", sa.SmallInteger(), nullable=False),
        sa.Column("best_next", sa.Text(), nullable=True),
        sa.Column("winning_moves", sa.SmallInteger(), nullable=False),
        sa.PrimaryKeyConstraint("solution_id", "fragment", name="pk_positions"),
        sqlite_with_rowid=False,
    )


def downgrade() -> None:
    op.drop_table("positions")
    op.drop_index("ix_solutions_published", table_name="solutions")
    op.drop_index("ix_solutions_dictionary_id", table_name="solutions")
    op.drop_table("solutions")
    op.drop_table("words")
    op.drop_index("ix_dictionaries_sha256", table_name="dictionaries")
    op.drop_table("dictionaries")
