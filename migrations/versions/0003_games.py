"""Games beside Ghost: solutions of a game with or without a dictionary, four outcomes,
more than two players.

* ``solutions``: a ``game`` column; ``dictionary_id`` may be NULL; ``rules`` holds the
  whole rule key (``ghost/3/misere``), replacing ``min_length`` and ``misere``;
  ``input_sha256`` records what was solved.  Existing Ghost solutions get
  ``game = 'ghost'`` and their key, and keep answering as before.
* ``positions`` and ``plans``: keyed by (solution, level, fragment); positions gain
  ``drawing_moves``, ``safe_seats`` (more than two players) and ``label`` (how a position
  is said, for Anagram Ghost), and ``game_length`` may be NULL (a draw).  Existing rows get
  ``level = length(fragment)``, which is a Ghost fragment's level.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

PUBLISHED = "status = 'complete' AND dictionary_id IS NOT NULL"
PUBLISHED_GAME = "status = 'complete' AND dictionary_id IS NULL"

PLAN_COLUMNS = (
    "plan_next, mover_lossiness, mover_outcomes, mover_letters, "
    "waiter_lossiness, waiter_outcomes, waiter_letters"
)


def _plans_table(name: str, with_level: bool) -> None:
    key = ["solution_id", "level", "fragment"] if with_level else ["solution_id", "fragment"]
    level = [sa.Column("level", sa.SmallInteger(), nullable=False)] if with_level else []
    op.create_table(
        name,
        sa.Column("solution_id", sa.Integer(), nullable=False),
        *level,
        sa.Column("fragment", sa.Text(), nullable=False),
        sa.Column("plan_next", sa.Text(), nullable=True),
        sa.Column("mover_lossiness", sa.SmallInteger(), nullable=False),
        sa.Column("mover_outcomes", sa.BigInteger(), nullable=False),
        sa.Column("mover_letters", sa.BigInteger(), nullable=False),
        sa.Column("waiter_lossiness", sa.SmallInteger(), nullable=False),
        sa.Column("waiter_outcomes", sa.BigInteger(), nullable=False),
        sa.Column("waiter_letters", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint(*key, name="pk_plans"),
        sqlite_with_rowid=False,
    )


def _rename_key(table: str, old: str, new: str) -> None:
    """PostgreSQL names a primary key's index in one namespace for all tables: free the
    name before a new table takes it (SQLite keeps constraint names per table)."""
    if op.get_bind().dialect.name == "postgresql":
        op.execute(f"ALTER TABLE {table} RENAME CONSTRAINT {old} TO {new}")


def upgrade() -> None:
    op.drop_index("ix_solutions_published", table_name="solutions")
    with op.batch_alter_table("solutions") as batch:
        batch.add_column(
            sa.Column("game", sa.String(20), server_default=sa.text("'ghost'"), nullable=False)
        )
        batch.add_column(sa.Column("input_sha256", sa.String(64), nullable=True))
        batch.alter_column("rules", type_=sa.String(60), existing_type=sa.String(20))
        batch.alter_column("dictionary_id", nullable=True, existing_type=sa.Integer())
        batch.drop_constraint("ck_solutions_rules", type_="check")
    op.execute(
        "UPDATE solutions SET rules = rules || '/' || CAST(min_length AS VARCHAR(10)) "
        "|| CASE WHEN misere THEN '/misere' ELSE '' END"
    )
    with op.batch_alter_table("solutions") as batch:
        batch.drop_column("min_length")
        batch.drop_column("misere")
    op.create_index(
        "ix_solutions_published",
        "solutions",
        ["dictionary_id", "rules"],
        unique=True,
        sqlite_where=sa.text(PUBLISHED),
        postgresql_where=sa.text(PUBLISHED),
    )
    op.create_index(
        "ix_solutions_published_game",
        "solutions",
        ["game", "rules"],
        unique=True,
        sqlite_where=sa.text(PUBLISHED_GAME),
        postgresql_where=sa.text(PUBLISHED_GAME),
    )

    # positions and plans: a new primary key, so a new table and one copy of the rows.
    op.rename_table("positions", "positions_0002")
    _rename_key("positions_0002", "pk_positions", "pk_positions_0002")
    op.create_table(
        "positions",
        sa.Column("solution_id", sa.Integer(), nullable=False),
        sa.Column("level", sa.SmallInteger(), nullable=False),
        sa.Column("fragment", sa.Text(), nullable=False),
        sa.Column("reachable", sa.Boolean(), nullable=False),
        sa.Column("outcome", sa.String(length=4), nullable=False),
        sa.Column("game_length", sa.SmallInteger(), nullable=True),
        sa.Column("best_next", sa.Text(), nullable=True),
        sa.Column("winning_moves", sa.SmallInteger(), nullable=False),
        sa.Column("drawing_moves", sa.SmallInteger(), server_default=sa.text("0"), nullable=False),
        sa.Column("safe_seats", sa.SmallInteger(), nullable=True),
        sa.Column("label", sa.Text(), nullable=True),
        sa.PrimaryKeyConstraint("solution_id", "level", "fragment", name="pk_positions"),
        sqlite_with_rowid=False,
    )
    op.execute(
        "INSERT INTO positions (solution_id, level, fragment, reachable, outcome, game_length, "
        "best_next, winning_moves, drawing_moves) SELECT solution_id, length(fragment), "
        "fragment, reachable, outcome, game_length, best_next, winning_moves, 0 "
        "FROM positions_0002"
    )
    op.drop_table("positions_0002")
    op.rename_table("plans", "plans_0002")
    _rename_key("plans_0002", "pk_plans", "pk_plans_0002")
    _plans_table("plans", with_level=True)
    op.execute(
        f"INSERT INTO plans (solution_id, level, fragment, {PLAN_COLUMNS}) "
        f"SELECT solution_id, length(fragment), fragment, {PLAN_COLUMNS} FROM plans_0002"
    )
    op.drop_table("plans_0002")


def downgrade() -> None:
    # Only Ghost solutions existed before: the others are dropped with their rows.
    op.execute(
        "DELETE FROM positions WHERE solution_id IN "
        "(SELECT id FROM solutions WHERE dictionary_id IS NULL)"
    )
    op.execute(
        "DELETE FROM plans WHERE solution_id IN "
        "(SELECT id FROM solutions WHERE dictionary_id IS NULL)"
    )
    op.execute("DELETE FROM solutions WHERE dictionary_id IS NULL")
    op.rename_table("plans", "plans_0003")
    _rename_key("plans_0003", "pk_plans", "pk_plans_0003")
    _plans_table("plans", with_level=False)
    op.execute(
        f"INSERT INTO plans (solution_id, fragment, {PLAN_COLUMNS}) "
        f"SELECT solution_id, fragment, {PLAN_COLUMNS} FROM plans_0003"
    )
    op.drop_table("plans_0003")
    op.rename_table("positions", "positions_0003")
    _rename_key("positions_0003", "pk_positions", "pk_positions_0003")
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
    op.execute(
        "INSERT INTO positions (solution_id, fragment, reachable, outcome, game_length, "
        "best_next, winning_moves) SELECT solution_id, fragment, reachable, outcome, "
        "game_length, best_next, winning_moves FROM positions_0003"
    )
    op.drop_table("positions_0003")
    op.drop_index("ix_solutions_published_game", table_name="solutions")
    op.drop_index("ix_solutions_published", table_name="solutions")
    with op.batch_alter_table("solutions") as batch:
        batch.add_column(sa.Column("min_length", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("misere", sa.Boolean(), nullable=True))
    # rules 'ghost/3/misere' -> rules 'ghost', min_length 3, misere true
    rows = op.get_bind().execute(sa.text("SELECT id, rules FROM solutions")).all()
    for row_id, key in rows:
        parts = key.split("/")
        op.get_bind().execute(
            sa.text("UPDATE solutions SET rules = :r, min_length = :m, misere = :x WHERE id = :i"),
            {"r": parts[0], "m": int(parts[1]), "x": parts[2:] == ["misere"], "i": row_id},
        )
    with op.batch_alter_table("solutions") as batch:
        batch.alter_column("min_length", nullable=False, existing_type=sa.Integer())
        batch.alter_column("misere", nullable=False, existing_type=sa.Boolean())
        batch.alter_column("rules", type_=sa.String(20), existing_type=sa.String(60))
        batch.alter_column("dictionary_id", nullable=False, existing_type=sa.Integer())
        batch.drop_column("input_sha256")
        batch.drop_column("game")
        batch.create_check_constraint("rules", "rules IN ('ghost', 'super', 'superduper')")
    op.create_index(
        "ix_solutions_published",
        "solutions",
        ["dictionary_id", "rules", "min_length", "misere"],
        unique=True,
        sqlite_where=sa.text("status = 'complete'"),
        postgresql_where=sa.text("status = 'complete'"),
    )
