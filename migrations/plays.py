"""Best moves named two ways, for the migrations that change how: by the key of the
position a move leads to, or by its play number (its place among the position's plays in
move order, 0 for the first; see `ghostdb.solvers.play_numbers`).

Revision 0007 turned the best move into a play number, revision 0008 the plan's move.
Both need each stored solution's graph again: it is built as `verify` builds it, from
the dictionary's stored words (or the game's rules), and the stored moves are matched
with its edges in arrays.  A row the graph does not account for (a solution stored
inconsistently) is worked out from the game's moves alone, as a lookup lists them.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import sqlalchemy as sa

BATCH = 50_000


def solutions(bind: Any, table: str) -> Iterator[tuple[int, Any, list[str] | None]]:
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


def converted(
    game: Any, words: list[str] | None, keys: list[str], stored: list[Any], to_play: bool
) -> list[Any]:
    """``stored`` moves (None for none) of the positions ``keys`` — every stored position
    of the solution, in key order — in the other form: play numbers from keys
    (``to_play``), or keys from play numbers."""
    import numpy as np

    from ghostdb.solvers import play_numbers

    found: list[Any] = [None] * len(keys)
    buildable = game.word_game == bool(words)  # a word game's dictionary has its words
    graph = game.build(words) if buildable else None
    if graph is not None and keys == list(graph.keys):
        parent, child = graph.edge_parent, graph.edge_child
        numbers = play_numbers(graph)
        if to_play:
            nodes = np.array(keys, dtype=object)
            hit = nodes[child] == np.array(stored, dtype=object)[parent]
            out = np.full(len(keys), -1, dtype=np.int64)
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
    return found


def _from_moves(game: Any, key: str, best: Any, stored: set[str], to_play: bool) -> Any:
    """One position's move in the other form, from the plays a lookup lists."""
    plays = [child for _, child in game.candidates(key) if child in stored and child != key]
    if to_play:
        return plays.index(best) if best in plays else None
    return plays[best] if 0 <= best < len(plays) else None


def write(
    bind: Any,
    table: str,
    target: str,
    solution_id: int,
    rows: list[tuple[int, str, Any]],
    found: list[Any],
) -> None:
    """Set ``target`` in ``table``'s rows (level, key, stored move) that had a move,
    straight through the driver (a million rows through SQLAlchemy's parameter handling
    would take half a minute)."""
    mark = "?" if bind.dialect.name == "sqlite" else "%s"
    sql = (
        f"UPDATE {table} SET {target} = {mark} "
        f"WHERE solution_id = {mark} AND level = {mark} AND fragment = {mark}"
    )
    params = [
        (found[i], solution_id, level, key)
        for i, (level, key, stored) in enumerate(rows)
        if stored is not None
    ]
    cursor = bind.connection.driver_connection.cursor()
    for lo in range(0, len(params), BATCH):
        cursor.executemany(sql, params[lo : lo + BATCH])
