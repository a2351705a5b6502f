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
(so the upgrade takes about as long and as much memory as verifying every solution,
once); the downgrade works the keys back out the same way.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-25
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

NAMES = ("loss", "draw", "tie", "win")  # the value codes 0..3, as revision 0007 defines
KEPT = "solution_id, level, fragment, reachable, game_length, winning_moves, drawing_moves, "
KEPT += "safe_seats, label"
BATCH = 50_000


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


def _solutions(bind: Any, table: str) -> Iterator[tuple[int, Any, list[str] | None]]:
    """Each solution that has rows in ``table``: its id, its game under its rule set and,
    for a word game, the words of its dictionary."""
    from ghostdb.games.registry import game_of, parse_rules

    rows = bind.execute(
        sa.text(
            "SELECT s.id, s.rules, s.dictionary_id, d.alphabet FROM solutions s "
            "LEFT JOIN dictionaries d ON d.id = s.dictionary_id "
            f"WHERE s.id IN (SELECT DISTINCT solution_id FROM {table})"
        )
    ).all()
    for solution_id, rules, dictionary_id, alphabet in rows:
        words = None
        if dictionary_id is not None:
            words = list(
                bind.execute(
                    sa.text("SELECT word FROM words WHERE dictionary_id = :d ORDER BY word"),
                    {"d": dictionary_id},
                ).scalars()
            )
        yield solution_id, game_of(parse_rules(rules), alphabet or ""), words


def _convert(old: str, to_play: bool) -> None:
    """Fill ``best_play`` (or ``best_next``) of the new table from ``old``'s other form.

    Each solution's graph is built again (from its dictionary's words, or its rules), as
    `verify` does, and the stored best moves are matched with its edges in arrays; a row
    the graph does not account for (a solution stored inconsistently) is worked out from
    the game's moves alone, as a lookup lists them."""
    import numpy as np

    from ghostdb.solvers import play_numbers

    bind = op.get_bind()
    source, target = ("best_next", "best_play") if to_play else ("best_play", "best_next")
    for solution_id, game, words in _solutions(bind, old):
        rows = bind.execute(
            sa.text(
                f"SELECT level, fragment, {source} FROM {old} WHERE solution_id = :s "
                "ORDER BY level, fragment"
            ),
            {"s": solution_id},
        ).all()
        levels, keys, stored = (list(c) for c in zip(*rows, strict=True)) if rows else ([],) * 3
        found: list[Any] = [None] * len(rows)
        buildable = game.word_game == bool(words)  # a word game's dictionary has its words
        graph = game.build(words) if buildable else None
        if graph is not None and keys == list(graph.keys):
            parent, child = graph.edge_parent, graph.edge_child
            numbers = play_numbers(graph)
            if to_play:
                nodes = np.array(keys, dtype=object)
                hit = nodes[child] == np.array(stored, dtype=object)[parent]
                out = np.full(len(rows), -1, dtype=np.int64)
                out[parent[hit]] = numbers[hit]
                found = [None if x < 0 else x for x in out.tolist()]
            else:
                wanted = np.array([-2 if x is None else x for x in stored], dtype=np.int64)
                hit = (numbers == wanted[parent]) & (numbers >= 0)
                for p, c in zip(parent[hit].tolist(), child[hit].tolist(), strict=True):
                    found[p] = keys[c]
        unaccounted = [i for i in range(len(keys)) if stored[i] is not None and found[i] is None]
        if unaccounted:  # rows the graph did not account for
            present = set(keys)
            for i in unaccounted:
                found[i] = _from_moves(game, keys[i], stored[i], present, to_play)
        _write(bind, target, solution_id, levels, keys, stored, found)


def _from_moves(game: Any, key: str, best: Any, stored: set[str], to_play: bool) -> Any:
    """One position's best move in the other form, from the plays a lookup lists."""
    plays = [child for _, child in game.candidates(key) if child in stored and child != key]
    if to_play:
        return plays.index(best) if best in plays else None
    return plays[best] if 0 <= best < len(plays) else None


def _write(
    bind: Any,
    target: str,
    solution_id: int,
    levels: list[int],
    keys: list[str],
    stored: list[Any],
    found: list[Any],
) -> None:
    """Set ``target`` in the rows that had a best move, straight through the driver (a
    million rows through SQLAlchemy's parameter handling would take half a minute)."""
    mark = "?" if bind.dialect.name == "sqlite" else "%s"
    sql = (
        f"UPDATE positions SET {target} = {mark} "
        f"WHERE solution_id = {mark} AND level = {mark} AND fragment = {mark}"
    )
    params = [
        (found[i], solution_id, levels[i], keys[i])
        for i in range(len(keys))
        if stored[i] is not None
    ]
    cursor = bind.connection.driver_connection.cursor()
    for lo in range(0, len(params), BATCH):
        cursor.executemany(sql, params[lo : lo + BATCH])


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
