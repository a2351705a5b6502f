"""A plan's move as a play number: ``plans.plan_play`` replaces ``plans.plan_next``.

A plan row named the plan's move by the whole key of the position it leads to.
SuperDuperGhost keeps a plan at nearly every position, and those keys were a seventh of
its bytes on disk (Debian's Polish list: 82 bytes a position with its plans, 71 now).
Now the move is its place among the position's plays in move order (0 for the first;
NULL at a final position), as revision 0007 made of the best move; a plan walk reads the
plays anyway.  Plans stay a table of their own: plain Ghost reaches one position in
thirty, and seven plan columns NULL in the other rows of ``positions`` made its write a
third slower.

The table is rebuilt (set aside, made anew, filled, the old one dropped), on SQLite as
on PostgreSQL: SQLite before 3.35 cannot drop a column, and on a server an UPDATE of
every row would leave the old rows as dead ones, the bytes saved only after a VACUUM
FULL.  Each solution's play numbers are worked out from its graph
(`ghostdb.migrations.plays`), and the keys back from them on the way down.

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

RANKS = (
    ("mover_lossiness", sa.SmallInteger),
    ("mover_outcomes", sa.BigInteger),
    ("mover_letters", sa.BigInteger),
    ("waiter_lossiness", sa.SmallInteger),
    ("waiter_outcomes", sa.BigInteger),
    ("waiter_letters", sa.BigInteger),
)
RANK_NAMES = ", ".join(name for name, _ in RANKS)


def _plans_table(move: sa.Column) -> None:
    op.create_table(
        "plans",
        sa.Column("solution_id", sa.Integer(), nullable=False),
        sa.Column("level", sa.SmallInteger(), nullable=False),
        sa.Column(
            "fragment",
            sa.Text().with_variant(sa.Text(collation="C"), "postgresql"),  # revision 0006
            nullable=False,
        ),
        move,
        *(sa.Column(name, kind(), nullable=False) for name, kind in RANKS),
        sa.PrimaryKeyConstraint("solution_id", "level", "fragment", name="pk_plans"),
        sqlite_with_rowid=False,
    )


def _rebuild(old: str, source: str, target: str, move: sa.Column, to_play: bool) -> None:
    """Set ``plans`` aside as ``old``, make it anew with ``move`` for ``source``, and fill
    it solution by solution with each move in the other form."""
    bind = op.get_bind()
    op.rename_table("plans", old)
    if bind.dialect.name == "postgresql":  # one namespace for the keys' indexes there
        op.execute(f"ALTER TABLE {old} RENAME CONSTRAINT pk_plans TO pk_{old}")
    _plans_table(move)
    keys_sql = sa.text(
        f"SELECT positions.level, positions.fragment, p.{source} FROM positions "
        f"LEFT JOIN {old} p ON p.solution_id = positions.solution_id "
        "AND p.level = positions.level AND p.fragment = positions.fragment "
        "WHERE positions.solution_id = :s ORDER BY positions.level, positions.fragment"
    )
    rows_sql = sa.text(
        f"SELECT level, fragment, {RANK_NAMES} FROM {old} WHERE solution_id = :s "
        "ORDER BY level, fragment"
    )
    mark = "?" if bind.dialect.name == "sqlite" else "%s"
    insert = (
        f"INSERT INTO plans (solution_id, level, fragment, {target}, {RANK_NAMES}) "
        f"VALUES ({', '.join([mark] * (4 + len(RANKS)))})"
    )
    cursor = bind.connection.driver_connection.cursor()
    for solution_id, game, words in plays.solutions(bind, old):
        positions = bind.execute(keys_sql, {"s": solution_id}).all()
        keys = [r[1] for r in positions]
        found = plays.converted(game, words, keys, [r[2] for r in positions], to_play)
        batch: list[tuple[Any, ...]] = []
        stored = bind.execute(rows_sql, {"s": solution_id})
        for (level, key, *ranks), move in _moves(stored, positions, found):
            batch.append((solution_id, level, key, move, *ranks))
            if len(batch) == plays.BATCH:
                cursor.executemany(insert, batch)
                batch = []
        if batch:
            cursor.executemany(insert, batch)
    op.drop_table(old)
    if bind.dialect.name == "postgresql":
        op.execute("ANALYZE plans")  # a new table has no statistics yet


def _moves(stored: Any, positions: list[Any], found: list[Any]) -> Any:
    """Each stored plan row with its move in the other form: ``positions`` (level, key,
    move) and ``found`` are every position of the solution, in the key order the plan
    rows come in too, so the two are walked side by side.  A plan row of no stored
    position (a store written inconsistently) gets no move."""
    at = 0
    for row in stored:
        i = at
        while i < len(positions) and (positions[i][0], positions[i][1]) != (row[0], row[1]):
            i += 1
        if i < len(positions):
            at = i
            yield row, found[i]
        else:
            yield row, None


def upgrade() -> None:
    move = sa.Column("plan_play", sa.SmallInteger(), nullable=True)
    _rebuild("plans_0007", "plan_next", "plan_play", move, to_play=True)


def downgrade() -> None:
    move = sa.Column("plan_next", sa.Text(), nullable=True)
    _rebuild("plans_0008", "plan_play", "plan_next", move, to_play=False)
