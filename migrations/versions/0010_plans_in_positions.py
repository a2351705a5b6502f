"""Plans become columns of their position's row, and the counts of winning and drawing
moves are no longer stored.

A plan row repeated its position's whole key (solution, level, fragment) to hold four
small numbers, and SuperDuperGhost keeps a plan at nearly every position: on Debian's
Polish list the two tables took 63 bytes a position on SQLite.  ``positions`` gains
``plan_play``, ``waiter_lossiness``, ``waiter_outcomes`` and ``waiter_letters`` (NULL
where no plan is kept: unreachable positions, games without plans), with the meanings
``plans`` gave them (revision 0009).  ``winning_moves`` and ``drawing_moves`` are
dropped: a lookup reads every play's outcome anyway and counts them
(`ghostdb.store.answers.lookups`).  One table of fewer columns: 38 bytes a position.

The table is rebuilt (set aside, made anew, filled in key order, the old one dropped), as
revisions 0007 to 0009 rebuilt theirs: an UPDATE of every row would leave the old rows
dead on a server, and SQLite's pages half full.  On the way down the plan rows are
written back from the positions that hold one, and each position's counts are counted
from its plays through the solution's graph, as a lookup counts them.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-26
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op
from ghostdb.migrations import plays

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

KEY = "solution_id, level, fragment"
VALUES = "reachable, outcome, game_length, best_play, safe_seats, label"
COUNTS = "winning_moves, drawing_moves"
PLAN = "plan_play, waiter_lossiness, waiter_outcomes, waiter_letters"
LOSS, DRAW = 0, 1  # the value codes of revision 0007


def _key_text() -> Any:
    return sa.Text().with_variant(sa.Text(collation="C"), "postgresql")  # revision 0006


def _key_columns() -> list[sa.Column[Any]]:
    return [
        sa.Column("solution_id", sa.Integer(), nullable=False),
        sa.Column("level", sa.SmallInteger(), nullable=False),
        sa.Column("fragment", _key_text(), nullable=False),
    ]


def _plan_columns(nullable: bool) -> list[sa.Column[Any]]:
    return [
        sa.Column("plan_play", sa.SmallInteger(), nullable=True),
        sa.Column("waiter_lossiness", sa.SmallInteger(), nullable=nullable),
        sa.Column("waiter_outcomes", sa.BigInteger(), nullable=nullable),
        sa.Column("waiter_letters", sa.BigInteger(), nullable=nullable),
    ]


def _positions_table(head: bool) -> None:
    counts = [
        sa.Column("winning_moves", sa.SmallInteger(), nullable=False),
        sa.Column("drawing_moves", sa.SmallInteger(), server_default=sa.text("0"), nullable=False),
    ]
    op.create_table(
        "positions",
        *_key_columns(),
        sa.Column("reachable", sa.Boolean(), nullable=False),
        sa.Column("outcome", sa.SmallInteger(), nullable=False),
        sa.Column("game_length", sa.SmallInteger(), nullable=True),
        sa.Column("best_play", sa.SmallInteger(), nullable=True),
        *([] if head else counts),
        sa.Column("safe_seats", sa.SmallInteger(), nullable=True),
        sa.Column("label", sa.Text(), nullable=True),
        *(_plan_columns(nullable=True) if head else []),
        sa.PrimaryKeyConstraint("solution_id", "level", "fragment", name="pk_positions"),
        sqlite_with_rowid=False,
    )


def _set_aside(table: str, old: str) -> None:
    """Rename ``table`` to ``old`` and free its key's name (PostgreSQL names a primary
    key's index in one namespace for all tables)."""
    op.rename_table(table, old)
    if op.get_bind().dialect.name == "postgresql":
        op.execute(f"ALTER TABLE {old} RENAME CONSTRAINT pk_{table} TO pk_{old}")


def _analyze(*tables: str) -> None:
    if op.get_bind().dialect.name == "postgresql":
        for table in tables:
            op.execute(f"ANALYZE {table}")  # a new table has no statistics yet


def upgrade() -> None:
    _set_aside("positions", "positions_0009")
    _positions_table(head=True)
    plan = ", ".join(f"p.{name}" for name in PLAN.split(", "))
    op.execute(
        f"INSERT INTO positions ({KEY}, {VALUES}, {PLAN}) "
        f"SELECT o.solution_id, o.level, o.fragment, {VALUES}, {plan} FROM positions_0009 o "
        "LEFT JOIN plans p ON p.solution_id = o.solution_id AND p.level = o.level "
        "AND p.fragment = o.fragment ORDER BY o.solution_id, o.level, o.fragment"
    )
    op.drop_table("positions_0009")
    op.drop_table("plans")
    _analyze("positions")


def downgrade() -> None:
    op.create_table(
        "plans",
        *_key_columns(),
        *_plan_columns(nullable=False),
        sa.PrimaryKeyConstraint("solution_id", "level", "fragment", name="pk_plans"),
        sqlite_with_rowid=False,
    )
    op.execute(
        f"INSERT INTO plans ({KEY}, {PLAN}) SELECT {KEY}, {PLAN} FROM positions "
        f"WHERE waiter_lossiness IS NOT NULL ORDER BY {KEY}"
    )
    _set_aside("positions", "positions_0010")
    _positions_table(head=False)
    _copy_counting()
    op.drop_table("positions_0010")
    _analyze("positions", "plans")


def _copy_counting() -> None:
    """Copy every row of ``positions_0010`` back, with its counts of winning and drawing
    moves counted from its plays (`_counts`)."""
    bind = op.get_bind()
    rows_sql = sa.text(
        f"SELECT {KEY}, {VALUES} FROM positions_0010 WHERE solution_id = :s ORDER BY {KEY}"
    )
    mark = "?" if bind.dialect.name == "sqlite" else "%s"
    insert = f"INSERT INTO positions ({KEY}, {VALUES}, {COUNTS}) VALUES ({', '.join([mark] * 11)})"
    cursor = bind.connection.driver_connection.cursor()
    for solution_id, game, words in plays.solutions(bind, "positions_0010"):
        rows = bind.execute(rows_sql, {"s": solution_id}).all()
        counts = _counts(game, words, rows)
        batch = [(*row, *count) for row, count in zip(rows, counts, strict=True)]
        for lo in range(0, len(batch), plays.BATCH):
            cursor.executemany(insert, batch[lo : lo + plays.BATCH])


def _counts(game: Any, words: list[str] | None, rows: list[Any]) -> list[tuple[int, int]]:
    """(winning moves, drawing moves) of each row (key, then `VALUES`), counted from its
    plays: the stored positions one move away, through the solution's graph where it
    accounts for the rows, else from the game's moves as a lookup lists them.  A move
    wins when it leaves the opponent lost, or with more than two players when the mover
    is still safe after it (bit ``to_move`` of its safe seats); it draws when it leads to
    a draw."""
    keys = [r[2] for r in rows]
    at = {key: i for i, key in enumerate(keys)}
    buildable = game.word_game == bool(words)  # a word game's dictionary has its words
    graph = game.build(words) if buildable else None
    if graph is not None and keys == list(graph.keys):
        edges = zip(graph.edge_parent.tolist(), graph.edge_child.tolist(), strict=True)
    else:
        edges = (
            (i, at[child])
            for i, key in enumerate(keys)
            for _, child in game.candidates(key)
            if child in at and child != key
        )
    counts = [[0, 0] for _ in rows]
    for parent, child in edges:
        if rows[parent][5] == 0 or child == parent:  # final (no plays), or no play
            continue
        outcome, seats = rows[child][4], rows[child][7]
        if seats is not None:
            counts[parent][0] += seats >> game.to_move(keys[parent]) & 1
        else:
            counts[parent][0] += outcome == LOSS
            counts[parent][1] += outcome == DRAW
    return [(w, d) for w, d in counts]  # as tuples: the driver binds them as one row
