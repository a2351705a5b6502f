"""A solution's rows read from SQLite a level at a time (`read_levels`), each column of a
level packed by SQL into one text that numpy parses: the positions' columns and the
plans' in one pass over the rows.

Making a Python object of every value of millions of rows costs more than the reading,
and so would joining every row of the solution into texts at once (hundreds of MB of
text held together); a level's texts are let go as soon as they are parsed.  The keys
are compared with the graph's, a level at a time (`joined_keys_equal`): the rows are
used only when they are exactly the graph's positions, in its order, without labels;
otherwise the caller reads them row by row (`StoredRows.read`) and names what differs.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

import numpy as np
from sqlalchemy import text
from sqlalchemy.engine import Connection

from ghostdb.games.base import PositionGraph
from ghostdb.store.verification.stored import (
    ANY_PLAN,
    NONE,
    StoredPlans,
    StoredRows,
    Verdict,
    codes,
    joined_keys_equal,
    played_numbers,
    unpacked_numbers,
)

COLUMNS = (
    ("reachable", np.bool_),
    ("outcome", np.int8),
    (f"coalesce(game_length, {NONE})", np.int32),
    (f"coalesce(best_play, {NONE})", np.int32),
    (f"coalesce(safe_seats, {NONE})", np.int32),
    (ANY_PLAN, np.bool_),
    (f"coalesce(plan_play, {NONE})", np.int32),
    (f"coalesce(waiter_lossiness, {NONE})", np.int32),
    (f"coalesce(waiter_outcomes, {NONE})", np.int32),
    (f"coalesce(waiter_letters, {NONE})", np.int32),
)
"""The numbers read of each row, in order (NULL as `NONE`; whether it holds any plan
column, as 1 or 0), each with the type it is kept in (a number too big for it widens
its column to 64 bits)."""
LEVEL = (
    "SELECT group_concat(fragment, char(10)), "
    + ", ".join(f"group_concat({c})" for c, _ in COLUMNS)
    + ", count(label), count(*) FROM (SELECT * FROM positions "
    "WHERE solution_id = :solution_id AND level = :level ORDER BY fragment)"
)
ROWS = "SELECT count(*) FROM positions WHERE solution_id = :solution_id"


def read_levels(
    conn: Connection,
    solution_id: int,
    graph: PositionGraph,
    v: Verdict,
    wanted: Collection[str] = (),
) -> StoredRows | None:
    """SQLite: the rows of a solution whose graph has no labels, a level at a time, when
    they are exactly the graph's positions in its order and carry no labels; else None.
    The nodes of the keys ``wanted`` are noted as each level's keys go by
    (`StoredRows.nodes`)."""
    if conn.dialect.name != "sqlite" or graph.labels is not None:
        return None
    n = graph.size
    if conn.execute(text(ROWS), {"solution_id": solution_id}).scalar() != n:
        return None
    numbers = [np.empty(n, dtype) for _, dtype in COLUMNS]
    nodes: dict[str, int] = {}
    level = graph.level
    starts = np.flatnonzero(np.r_[True, level[1:] != level[:-1]]) if n else np.zeros(0, int)
    for lo, hi in zip(starts.tolist(), [*starts[1:].tolist(), n], strict=True):
        params = {"solution_id": solution_id, "level": int(level[lo])}
        row = list(conn.execute(text(LEVEL), params).one())
        if row[-2] or row[-1] != hi - lo:  # labels, or not the level's positions
            return None
        if not joined_keys_equal(row[0], graph.keys, np.arange(lo, hi)):
            return None
        if wanted:
            for i, key in enumerate(row[0].split("\n")):
                if key in wanted:
                    nodes[key] = lo + i
        for c, column in enumerate(numbers):
            found = unpacked_numbers(row[c + 1], hi - lo)
            row[c + 1] = None  # (each text let go once parsed)
            if column.dtype != np.bool_ and len(found) and not _fits(found, column.dtype):
                column = numbers[c] = column.astype(np.int64)
            column[lo:hi] = found
    reachable, outcome, length, best, safe, has, plan, *rank = numbers
    v.positions = n
    return StoredRows(
        present=np.ones(n, dtype=bool),
        value=codes(outcome),
        length=length,
        best=played_numbers(graph, best),
        reachable=reachable,
        safe=safe,
        labels=None,
        plans=StoredPlans(has, plan, rank),
        nodes=nodes,
    )


def _fits(found: np.ndarray, dtype: Any) -> bool:
    limits = np.iinfo(dtype)
    return bool(limits.min <= found.min() and found.max() <= limits.max)
