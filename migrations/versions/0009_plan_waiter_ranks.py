"""A plan row keeps one rank: ``plans.mover_*`` are dropped.

With the strategist to move, the best plan is the stored move's (``plan_play``), so its
rank is the opponent-to-move rank (``waiter_*``) of the position that move leads to; at a
final position it is the same word, lost by the other role.  The three columns repeated
what the next row holds: SuperDuperGhost keeps a plan at nearly every position, and they
were a tenth of its write and about 5 bytes a position on disk.  A walk reads the rank
from the next row (`ghostdb.store.answers.plan_rows.plan_sizes`), and verify checks the stored
move.

The table is rebuilt (set aside, made anew, filled, the old one dropped), as revision 0008
rebuilt it and for its reasons.  On the way down each position's dropped rank is read
back from the row its plan move leads to, found through the solution's graph
(`ghostdb.migrations.plays`).

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-26
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op
from ghostdb.migrations import plays

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

WAITER = (
    ("waiter_lossiness", sa.SmallInteger),
    ("waiter_outcomes", sa.BigInteger),
    ("waiter_letters", sa.BigInteger),
)
MOVER = (
    ("mover_lossiness", sa.SmallInteger),
    ("mover_outcomes", sa.BigInteger),
    ("mover_letters", sa.BigInteger),
)
WAITER_NAMES = ", ".join(name for name, _ in WAITER)


def _set_aside(old: str, ranks: tuple[tuple[str, Any], ...]) -> None:
    """Rename ``plans`` to ``old`` and make ``plans`` anew with ``ranks``."""
    bind = op.get_bind()
    op.rename_table("plans", old)
    if bind.dialect.name == "postgresql":  # one namespace for the keys' indexes there
        op.execute(f"ALTER TABLE {old} RENAME CONSTRAINT pk_plans TO pk_{old}")
    op.create_table(
        "plans",
        sa.Column("solution_id", sa.Integer(), nullable=False),
        sa.Column("level", sa.SmallInteger(), nullable=False),
        sa.Column(
            "fragment",
            sa.Text().with_variant(sa.Text(collation="C"), "postgresql"),  # revision 0006
            nullable=False,
        ),
        sa.Column("plan_play", sa.SmallInteger(), nullable=True),
        *(sa.Column(name, kind(), nullable=False) for name, kind in ranks),
        sa.PrimaryKeyConstraint("solution_id", "level", "fragment", name="pk_plans"),
        sqlite_with_rowid=False,
    )


def _done(old: str) -> None:
    op.drop_table(old)
    if op.get_bind().dialect.name == "postgresql":
        op.execute("ANALYZE plans")  # a new table has no statistics yet


def upgrade() -> None:
    _set_aside("plans_0008", WAITER)
    op.execute(
        f"INSERT INTO plans (solution_id, level, fragment, plan_play, {WAITER_NAMES}) "
        f"SELECT solution_id, level, fragment, plan_play, {WAITER_NAMES} FROM plans_0008 "
        "ORDER BY solution_id, level, fragment"
    )
    _done("plans_0008")


def downgrade() -> None:
    bind = op.get_bind()
    _set_aside("plans_0009", WAITER + MOVER)
    keys_sql = sa.text(
        "SELECT positions.level, positions.fragment, p.plan_play FROM positions "
        "LEFT JOIN plans_0009 p ON p.solution_id = positions.solution_id "
        "AND p.level = positions.level AND p.fragment = positions.fragment "
        "WHERE positions.solution_id = :s ORDER BY positions.level, positions.fragment"
    )
    rows_sql = sa.text(
        f"SELECT level, fragment, plan_play, {WAITER_NAMES} FROM plans_0009 "
        "WHERE solution_id = :s ORDER BY level, fragment"
    )
    mark = "?" if bind.dialect.name == "sqlite" else "%s"
    names = ", ".join(name for name, _ in WAITER + MOVER)
    insert = (
        f"INSERT INTO plans (solution_id, level, fragment, plan_play, {names}) "
        f"VALUES ({', '.join([mark] * 10)})"
    )
    cursor = bind.connection.driver_connection.cursor()
    for solution_id, game, words in plays.solutions(bind, "plans_0009"):
        positions = bind.execute(keys_sql, {"s": solution_id}).all()
        keys = [r[1] for r in positions]
        moves = plays.converted(game, words, keys, [r[2] for r in positions], False)
        following = dict(zip(keys, moves, strict=True))
        rows = bind.execute(rows_sql, {"s": solution_id}).all()
        waiter = {key: tuple(ranks) for _, key, _, *ranks in rows}
        batch = []
        for level, key, move, loss, outcomes, letters in rows:
            if move is None:  # final: the same word, lost by the other role
                mover: tuple[Any, ...] = (2 - loss, outcomes, letters)
            else:  # a row the graph cannot account for gets an empty rank; verify says so
                mover = waiter.get(following.get(key), (0, 0, 0))
            batch.append((solution_id, level, key, move, loss, outcomes, letters, *mover))
            if len(batch) == plays.BATCH:
                cursor.executemany(insert, batch)
                batch = []
        if batch:
            cursor.executemany(insert, batch)
    _done("plans_0009")
