"""A solution's rows read from SQLite a level at a time (`read_levels`), each column of a
level packed by SQL into one text that numpy parses, and the plans of the level's rows
that hold one beside them.

Making a Python object of every value of millions of rows costs more than the reading,
and so would joining every row of the solution into texts at once (hundreds of MB of
text held together); a level's texts are let go as soon as they are parsed.  The keys
are compared with the graph's, a level at a time (`joined_keys_equal`): the rows are
used only when they are exactly the graph's positions, in its order, with exactly the
labels the graph gives (Anagram Ghost's: compared the same way) or none where it gives
none; otherwise the caller reads them row by row (`StoredRows.read`) and names what
differs.
Plans likewise: the rows holding one must be exactly the level's reachable positions,
or `check_plans` reads them row by row.
"""

from __future__ import annotations

import bisect
from collections.abc import Collection, Mapping
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

POSITION = (
    ("reachable", np.bool_),
    ("outcome", np.int8),
    (f"coalesce(game_length, {NONE})", np.int32),
    (f"coalesce(best_play, {NONE})", np.int32),
)
"""The numbers read of each row (NULL as `NONE`), each with the type it is kept in (a
number too big for it widens its column to 64 bits)."""
SEATS = ((f"coalesce(safe_seats, {NONE})", np.int32),)
"""Read only where more than two play (none is stored, or checked, for two)."""
PLAN = (
    (f"coalesce(plan_play, {NONE})", np.int32),
    (f"coalesce(waiter_lossiness, {NONE})", np.int32),
    (f"coalesce(waiter_outcomes, {NONE})", np.int32),
    (f"coalesce(waiter_letters, {NONE})", np.int32),
)
"""The plan columns of a row that holds any (all of them, or the plan is wrong)."""
OUTSIDE = (
    "SELECT count(*) FROM positions WHERE solution_id = :solution_id "
    "AND (level < :low OR level > :high)"
)
AT = "SELECT count(*) FROM positions WHERE solution_id = :solution_id AND level = :level"


def _level(columns: tuple[tuple[str, Any], ...], where: str = "", labels: bool = False) -> str:
    """The query of one level's rows (that ``where`` holds for): its fragments joined by
    newlines, each of ``columns`` joined by commas, the labels and the rows counted, and
    with ``labels`` the labels joined by newlines last.

    Every aggregate of one query reads the rows in the same order, which SQLite takes
    from the primary key's (level, fragment) here.  No ORDER BY says so: as a subquery it
    would copy every row first, two thirds again the time (Debian's Polish list), and
    the keys are compared with the graph's in order anyway: rows in any other order are
    read again row by row, never taken for other positions."""
    return (
        "SELECT group_concat(fragment, char(10)), "
        + ", ".join(f"group_concat({c})" for c, _ in columns)
        + ", count(label), count(*)"
        + (", group_concat(label, char(10))" if labels else "")
        + f" FROM positions WHERE solution_id = :solution_id AND level = :level {where}"
    )


def read_levels(
    conn: Connection,
    solution_id: int,
    graph: PositionGraph,
    v: Verdict,
    wanted: Mapping[int, Collection[str]] | None = None,
    *,
    seats: bool = False,
    kept: bool = True,
) -> StoredRows | None:
    """SQLite: the rows of a solution, a level at a time, when they are exactly the
    graph's positions in its order and carry exactly its labels (none where it has none:
    the labels are then checked); else None.
    With ``seats``, the safe seats too; with ``kept`` (a solution that keeps plans), the
    plans of the reachable positions, else that no row holds one.  The nodes of the keys
    ``wanted`` (by level) are noted as each level's keys go by (`StoredRows.nodes`)."""
    wanted = wanted or {}
    if conn.dialect.name != "sqlite":
        return None
    if not _only_levels(conn, solution_id, graph):
        return None
    n = graph.size
    columns = POSITION + (SEATS if seats else ())
    numbers = [np.empty(n, dtype) for _, dtype in columns]
    plans: list[np.ndarray] | None = [np.full(n, NONE, dtype) for _, dtype in PLAN]
    has = np.zeros(n, dtype=bool)
    nodes: dict[str, int] = {}
    labelled = graph.labels is not None
    query, plan_query = _level(columns, labels=labelled), _level(PLAN, f"AND {ANY_PLAN}")
    for lo, hi in _runs(graph.level):
        params = {"solution_id": solution_id, "level": int(graph.level[lo])}
        row = list(conn.execute(text(query), params).one())
        labels = row.pop() if labelled else None
        if row[-2] != (hi - lo if labelled else 0) or row[-1] != hi - lo:
            return None  # labels where the graph has none (or not all), or other positions
        if not joined_keys_equal(row[0], graph.keys, np.arange(lo, hi)):
            return None
        if labelled and not joined_keys_equal(labels, graph.labels, np.arange(lo, hi)):
            return None  # (`StoredRows.read` names the labels that differ)
        sought = wanted.get(int(graph.level[lo]))
        if sought:  # (the level's keys are in code point order: Python's own)
            keys = row[0].split("\n")
            for key in sought:
                i = bisect.bisect_left(keys, key)
                if i < len(keys) and keys[i] == key:
                    nodes[key] = lo + i
        row[0] = None
        _parse(row, numbers, lo, hi)
        if plans is not None:  # the plans: at the level's reachable positions, in order
            row = list(conn.execute(text(plan_query), params).one())
            reach = lo + np.flatnonzero(numbers[0][lo:hi]) if kept else np.zeros(0, int)
            if row[-1] != len(reach) or not joined_keys_equal(row[0], graph.keys, reach):
                plans = None  # (`check_plans` reads them row by row, and says why)
            else:
                has[reach] = True
                _parse(row, plans, reach)
    reachable, outcome, length, best, *safe = numbers
    v.positions = n
    return StoredRows(
        present=np.ones(n, dtype=bool),
        value=codes(outcome),
        length=length,
        best=played_numbers(graph, best),
        reachable=reachable,
        safe=safe[0] if safe else np.full(n, NONE, dtype=np.int8),
        labels=None,  # (the graph's, each one: compared above)
        plans=None if plans is None else StoredPlans(has, plans[0], plans[1:]),
        nodes=nodes,
    )


def _only_levels(conn: Connection, solution_id: int, graph: PositionGraph) -> bool:
    """Whether the solution has no row at a level the graph has none at (the levels it
    has are read and counted one by one)."""
    if not graph.size:
        return False
    low, high = int(graph.level[0]), int(graph.level[-1])
    params = {"solution_id": solution_id, "low": low, "high": high}
    if conn.execute(text(OUTSIDE), params).scalar():
        return False
    held = set(np.unique(graph.level).tolist())
    return not any(
        conn.execute(text(AT), {"solution_id": solution_id, "level": level}).scalar()
        for level in range(low, high + 1)
        if level not in held
    )


def _runs(level: np.ndarray) -> list[tuple[int, int]]:
    """Where each level's nodes begin and end (the nodes are in level order)."""
    starts = np.flatnonzero(np.r_[True, level[1:] != level[:-1]]).tolist()
    return list(zip(starts, [*starts[1:], len(level)], strict=True))


def _parse(row: list[Any], columns: list[np.ndarray], lo: int, hi: int | None = None) -> None:
    """The texts of ``row`` after its fragments, a column each, into ``columns`` at rows
    ``lo`` to ``hi`` (or at the rows ``lo``, an array); a column too narrow for a number
    widened to 64 bits."""
    at: Any = slice(lo, hi) if hi is not None else lo
    count = hi - lo if hi is not None else len(lo)
    for c, column in enumerate(columns):
        found = unpacked_numbers(row[c + 1], count) if count else np.zeros(0, np.int64)
        row[c + 1] = None  # (each text let go once parsed)
        if column.dtype != np.bool_ and len(found):
            limits = np.iinfo(column.dtype)
            if found.min() < limits.min or found.max() > limits.max:
                column = columns[c] = column.astype(np.int64)
        column[at] = found
