"""Compact position rows: the outcome as a small integer, the best move as a play number.

A stored position named its best move by the whole key of the position it leads to
(``best_next``) and its outcome by a word (``outcome`` 'win').  On the biggest lists
those were a fifth of the table: Debian's Polish list took 43 bytes a position for Ghost
and 50 for SuperDuperGhost on SQLite.  Now:

* ``outcome`` is the solver's value code for the player to move: 0 loss, 1 draw, 2 tie,
  3 win (`ghostdb.games.base.VALUE_NAMES`);
* ``best_play`` replaces ``best_next``: the best move's place among the position's plays
  in move order (0 for the first), NULL at a final position.  A lookup reads the plays
  anyway, so it finds the move without a key to match.

The rows are copied once into a new table.  The play numbers of existing rows are worked
out one solution at a time from the solution's graph, built again as `verify` builds it
(`ghostdb.migrations.plays`: the upgrade takes about as long and as much memory as
verifying every solution, once); the downgrade works the keys back out the same way.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-25
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op
from ghostdb.migrations import plays

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

NAMES = ("loss", "draw", "tie", "win")  # the value codes 0..3, as revision 0007 defines
KEPT = "solution_id, level, fragment, reachable, game_length, winning_moves, drawing_moves, "
KEPT += "safe_seats, label"


def _key_text() -> Any:
    return sa.Text().with_variant(sa.Text(collation="C"), "postgresql")  # revision 0006


def _positions_table(compact: bool) -> None:
    values = (
        [
            sa.Column("outcome", sa.SmallInteger(), nullable=False),
            sa.Column("game_length", sa.SmallInteger(), nullable=True),
            sa.Column("best_play", sa.SmallInteger(), nullable=True),
        ]
        if compact
        else [
            sa.Column("outcome", sa.String(length=4), nullable=False),
            sa.Column("game_length", sa.SmallInteger(), nullable=True),
            sa.Column("best_next", sa.Text(), nullable=True),
        ]
    )
    op.create_table(
        "positions",
        sa.Column("solution_id", sa.Integer(), nullable=False),
        sa.Column("level", sa.SmallInteger(), nullable=False),
        sa.Column("fragment", _key_text(), nullable=False),
        sa.Column("reachable", sa.Boolean(), nullable=False),
        *values,
        sa.Column("winning_moves", sa.SmallInteger(), nullable=False),
        sa.Column("drawing_moves", sa.SmallInteger(), server_default=sa.text("0"), nullable=False),
        sa.Column("safe_seats", sa.SmallInteger(), nullable=True),
        sa.Column("label", sa.Text(), nullable=True),
        sa.PrimaryKeyConstraint("solution_id", "level", "fragment", name="pk_positions"),
        sqlite_with_rowid=False,
    )


def _set_aside(old: str) -> None:
    """Rename the table and free its key's name (PostgreSQL names a primary key's index in
    one namespace for all tables; SQLite keeps constraint names per table)."""
    op.rename_table("positions", old)
    if op.get_bind().dialect.name == "postgresql":
        op.execute(f"ALTER TABLE {old} RENAME CONSTRAINT pk_positions TO pk_{old}")


def _convert(old: str, to_play: bool) -> None:
    """Fill ``best_play`` (or ``best_next``) of the new table from ``old``'s other form
    (see `ghostdb.migrations.plays`)."""
    bind = op.get_bind()
    source, target = ("best_next", "best_play") if to_play else ("best_play", "best_next")
    for solution_id, game, words in plays.solutions(bind, old):
        rows = bind.execute(
            sa.text(
                f"SELECT level, fragment, {source} FROM {old} WHERE solution_id = :s "
                "ORDER BY level, fragment"
            ),
            {"s": solution_id},
        ).all()
        keys, stored = [r[1] for r in rows], [r[2] for r in rows]
        found = plays.converted(game, words, keys, stored, to_play)
        plays.write(bind, "positions", target, solution_id, rows, found)


def _analyze() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("ANALYZE positions")  # a new table has no statistics yet


def _rebuild(compact: bool) -> None:
    """Copy the rows into a new table of the other form, then drop the old one."""
    old = "positions_0006" if compact else "positions_0007"
    _set_aside(old)
    _positions_table(compact)
    pairs = [(f"'{name}'", str(code)) for code, name in enumerate(NAMES)]
    case = " ".join(f"WHEN {a} THEN {b}" for a, b in (pairs if compact else map(reversed, pairs)))
    op.execute(
        f"INSERT INTO positions ({KEPT}, outcome) SELECT {KEPT}, CASE outcome {case} END FROM {old}"
    )
    _convert(old, to_play=compact)
    op.drop_table(old)
    _analyze()


def upgrade() -> None:
    _rebuild(compact=True)


def downgrade() -> None:
    _rebuild(compact=False)
