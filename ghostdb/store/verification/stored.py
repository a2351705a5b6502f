"""What the checks of a stored solution share: the verdict and its findings,
the stored rows read into arrays (`StoredRows`), how a position is shown in a finding, and
the SQL that reads a solution's rows."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from sqlalchemy import Integer, bindparam, func, literal, select, text
from sqlalchemy.engine import Connection

from ghostdb.games.base import (
    FLIP,
    VALUE_NAMES,
    PositionGraph,
)
from ghostdb.solvers import play_numbers
from ghostdb.store.answers.lookups import POSITION_FIELDS
from ghostdb.store.sql import raw
from ghostdb.store.sql.schema import PLAN_FIELDS, positions

EXAMPLES = 5
"""How many examples of each kind of inconsistency a report keeps."""


KINDS = (
    "dictionary",
    "missing position",
    "extra position",
    "outcome",
    "game length",
    "best move",
    "safe seats",
    "reachable",
    "label",
    "missing plan",
    "extra plan",
    "plan",
    "decisive",
    "kept answer",
)
"""Every kind of inconsistency, in the order reports list them."""


FLIPPED = np.array([*FLIP, -1], dtype=np.int8)  # index -1 (an unreadable value) stays -1


NONE = -1  # a NULL length or seat mask


_NO_PLAY = -2  # a stored best play number that no play of the position has


BIG = 1 << 40


@dataclass
class Finding:
    """One kind of inconsistency: how many rows show it, and a few of them."""

    kind: str
    count: int = 0
    examples: list[str] = field(default_factory=list)

    def add(self, count: int, examples: list[str]) -> None:
        self.count += count
        self.examples.extend(examples[: EXAMPLES - len(self.examples)])

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "count": self.count, "examples": self.examples}


@dataclass
class Verdict:
    """What `verify_solution` found about one published solution."""

    name: str
    rules: str
    solution_id: int
    positions: int = 0
    plans: int = 0
    decisive: int = 0
    """Kept decisive-word answers re-checked
    (`ghostdb.store.verification.decisive.check_answers`)."""
    kept: int = 0
    """Kept whole-solution answers worked out again
    (`ghostdb.store.verification.kept.check_kept`)."""
    kept_done: list[str] = field(default_factory=list)
    """The solution's own kept questions checked already, over the arrays its positions
    were read into (the puzzles): the check of the kept answers leaves them out."""
    seconds: float = 0.0
    findings: dict[str, Finding] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    """Facts that make no answer wrong (an older solver version, an unrecorded input)."""

    @property
    def problems(self) -> int:
        return sum(f.count for f in self.findings.values())

    @property
    def ok(self) -> bool:
        return not self.findings

    def inconsistencies(self) -> list[Finding]:
        """The findings in the order of `KINDS`."""
        return [self.findings[k] for k in KINDS if k in self.findings]

    def found(self, kind: str, count: int, examples: list[str]) -> None:
        if count:
            self.findings.setdefault(kind, Finding(kind)).add(count, examples)

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "rules": self.rules,
            "solution_id": self.solution_id,
            "ok": self.ok,
            "positions_checked": self.positions,
            "plans_checked": self.plans,
            "decisive_checked": self.decisive,
            "kept_checked": self.kept,
            "seconds": round(self.seconds, 3),
            "inconsistencies": [f.as_dict() for f in self.inconsistencies()],
            "notes": self.notes,
        }


@dataclass
class StoredRows:
    """A solution's stored position rows, aligned with the graph's nodes."""

    present: np.ndarray  # bool
    value: np.ndarray  # int8 value code; -1 if missing or unreadable
    length: np.ndarray  # int64; NONE for NULL
    best: np.ndarray  # int64: the node the stored best play leads to (see `played_numbers`)
    reachable: np.ndarray  # bool
    safe: np.ndarray  # int64; NONE for NULL
    labels: np.ndarray  # object

    @classmethod
    def read(
        cls, conn: Connection, solution_id: int, graph: PositionGraph, v: Verdict
    ) -> StoredRows:
        if conn.dialect.name == "sqlite" and graph.labels is None:
            packed = cls._packed(conn, solution_id, graph, v)
            if packed is not None:
                return packed
        rows = stored_positions(conn, solution_id)
        v.positions = len(rows)
        n = graph.size
        cols = list(zip(*rows, strict=True)) if rows else [()] * len(STORED_POSITION_FIELDS)
        level, fragment, reachable, outcome, length, best, safe, label = cols
        # Rows come in key order, which is the graph's node order when nothing is missing
        # or extra (and the database compares text by code point, as SQLite does).
        if list(fragment) == graph.keys and np.array_equal(level, graph.level):
            pick = at = np.arange(n)
        else:
            at, pick = _align(fragment, level, graph, v)
        present = np.zeros(n, dtype=bool)
        present[at] = True
        missing = np.flatnonzero(~present)
        v.found(
            "missing position",
            len(missing),
            [
                f"{shown_key(graph.keys[i])} (level {graph.level[i]}) is not stored"
                for i in missing[:EXAMPLES]
            ],
        )

        def column(values: tuple[Any, ...], fill: Any, dtype: Any = np.int64) -> np.ndarray:
            if dtype is object:
                data = np.array(values, dtype=object)
            else:  # NULL (None) becomes NaN, then the fill value
                data = np.nan_to_num(np.array(values, dtype=np.float64), nan=fill)
            out = np.full(n, fill, dtype=dtype)
            out[at] = data[pick] if len(data) else data
            return out

        return cls(
            present=present,
            value=_codes(column(outcome, -1)),
            length=column(length, NONE),
            best=played_numbers(graph, column(best, NONE)),
            reachable=column(reachable, 0).astype(bool),
            safe=column(safe, NONE),
            labels=column(label, None, object),
        )

    @classmethod
    def _packed(
        cls, conn: Connection, solution_id: int, graph: PositionGraph, v: Verdict
    ) -> StoredRows | None:
        """The rows read packed (see `packed_positions`) when they are exactly the
        graph's positions in its order and carry no labels; else None."""
        row = packed_positions(conn, solution_id)
        if row is None or row[-2] or row[-1] != graph.size:
            return None
        if not joined_keys_equal(row[0], graph.keys):
            return None

        def numbers(packed: str) -> np.ndarray:
            return unpacked_numbers(packed, graph.size)

        if not np.array_equal(numbers(row[1]), graph.level):
            return None
        v.positions = int(row[-1])
        return cls(
            present=np.ones(graph.size, dtype=bool),
            value=_codes(numbers(row[3])),
            length=numbers(row[4]),
            best=played_numbers(graph, numbers(row[5])),
            reachable=numbers(row[2]).astype(bool),
            safe=numbers(row[6]),
            labels=np.full(graph.size, None, dtype=object),
        )


def shown_key(key: str) -> str:
    return repr(key) if key else "the start ('')"


def _key(key: str | None) -> str:
    return "nothing" if key is None else shown_key(key)


def shown_node(graph: PositionGraph, node: int) -> str:
    if node == _NO_PLAY:
        return "a play it does not have"
    return _key(None if node < 0 else graph.keys[node])


def shown_length(length: int) -> str:
    return "none" if length == NONE else str(length)


def shown_seats(mask: int) -> str:
    if mask == NONE:
        return "none recorded"
    return "{" + ", ".join(str(s + 1) for s in range(16) if mask >> s & 1) + "}"


def _codes(stored: np.ndarray) -> np.ndarray:
    """Stored outcome codes as value codes; -1 for one that is none (unreadable)."""
    known = (stored >= 0) & (stored < len(VALUE_NAMES))
    return np.where(known, stored, -1).astype(np.int8)


def played_numbers(graph: PositionGraph, numbers: np.ndarray) -> np.ndarray:
    """The node each position's stored best play number leads to: -1 where none is stored
    (NULL), `_NO_PLAY` where the position has no play of that number."""
    out = np.where(numbers == NONE, -1, _NO_PLAY).astype(np.int64)
    parent = graph.edge_parent
    wanted = numbers[parent]
    hit = (play_numbers(graph) == wanted) & (wanted >= 0)
    out[parent[hit]] = graph.edge_child[hit]
    return out


STORED_POSITION_FIELDS = ("level", *POSITION_FIELDS)


STORED_PLAN_FIELDS = (
    "level",
    "fragment",
    func.coalesce(positions.c.plan_play, NONE),  # none when final
    *(func.coalesce(positions.c[f], NONE) for f in PLAN_FIELDS[1:]),  # all there, or wrong
)


ANY_PLAN = "(" + " OR ".join(f"{f} IS NOT NULL" for f in PLAN_FIELDS) + ")"
"""A position holds a plan when any of its plan columns is set (a partial one is wrong)."""


def _stream(conn: Connection, fields: Sequence[Any], solution_id: int, *where: Any) -> list[Any]:
    """Every position row of one solution (that ``where`` holds for), read through the
    raw driver connection (millions of rows: SQLAlchemy's per-row work would cost more
    than the reading)."""
    stmt = (
        select(*(positions.c[f] if isinstance(f, str) else f for f in fields))
        .where(positions.c.solution_id == bindparam("solution_id", type_=Integer), *where)
        .order_by(positions.c.level, positions.c.fragment)  # the primary key's order
    )
    conn.execute(select(literal(1)))  # begin the transaction the driver then reads in
    query = raw.FastQuery(stmt, conn.dialect)
    return query.run(conn.connection.driver_connection, {"solution_id": solution_id})


def stored_positions(conn: Connection, solution_id: int) -> list[Any]:
    """Every position row of a solution, as tuples of `STORED_POSITION_FIELDS`."""
    return _stream(conn, STORED_POSITION_FIELDS, solution_id)


def stored_plans(conn: Connection, solution_id: int) -> list[Any]:
    """Every position of a solution that holds a plan, as tuples of
    `STORED_PLAN_FIELDS`."""
    return _stream(conn, STORED_PLAN_FIELDS, solution_id, text(ANY_PLAN))


def packed_positions(conn: Connection, solution_id: int) -> Any:
    """SQLite only: every position row of a solution packed into one text per column
    (fragments joined by newlines, numbers by commas, NULL as -1), in key order, with
    the count of labels and of rows; None without rows.

    Aggregated in SQL because making a Python object of every value of millions of rows
    costs more than the reading.  The caller checks the order: the packed fragments must
    equal the keys it expects, joined the same way."""
    sql = (
        "SELECT group_concat(fragment, char(10)), group_concat(level), "
        "group_concat(reachable), group_concat(outcome), "
        "group_concat(coalesce(game_length, -1)), "
        "group_concat(coalesce(best_play, -1)), "
        "group_concat(coalesce(safe_seats, -1)), count(label), count(*) "
        "FROM (SELECT * FROM positions WHERE solution_id = :solution_id "
        "ORDER BY level, fragment)"
    )
    row = conn.execute(text(sql), {"solution_id": solution_id}).one()
    return None if not row[-1] else row


def unpacked_numbers(packed: str, count: int) -> np.ndarray:
    """A column of whole numbers that SQL joined with commas."""
    found = np.fromstring(packed, dtype=np.int64, sep=",")  # C-speed parsing
    if len(found) != count:  # cannot happen with integers from SQL
        raise ValueError("a packed column does not hold one number a row")
    return found


_KEYS_A_PIECE = 1 << 18


def joined_keys_equal(packed: str | None, keys: Any, nodes: np.ndarray | None = None) -> bool:
    """Whether ``packed`` is the keys of ``nodes`` (every node, if None) joined by newlines.
    Compared a piece at a time: millions of keys made Python strings all at once are
    gigabytes (Polish SuperDuperGhost: 19 million)."""
    count = len(keys) if nodes is None else len(nodes)
    if packed is None:
        return count == 0
    at = 0
    for lo in range(0, count, _KEYS_A_PIECE):
        hi = min(lo + _KEYS_A_PIECE, count)
        piece = np.arange(lo, hi) if nodes is None else nodes[lo:hi]
        joined = ("\n" if lo else "") + "\n".join(keys.take(piece))
        if not packed.startswith(joined, at):
            return False
        at += len(joined)
    return at == len(packed)


def _align(
    fragment: tuple[str, ...], level: tuple[int, ...], graph: PositionGraph, v: Verdict
) -> tuple[np.ndarray, np.ndarray]:
    """(node, row) pairs of the rows that are positions of the graph at their level; the
    other rows are reported as extra."""
    index = {key: i for i, key in enumerate(graph.keys)}
    node = np.array([index.get(f, -1) for f in fragment], dtype=np.int64)
    ok = node >= 0
    ok[ok] = graph.level[node[ok]] == np.array(level, dtype=np.int64)[ok]
    extra = np.flatnonzero(~ok)
    v.found(
        "extra position",
        len(extra),
        [_extra(fragment[i], level[i], index, graph) for i in extra[:EXAMPLES]],
    )
    return node[ok], np.flatnonzero(ok)


def _extra(fragment: str, level: int, index: dict[str, int], graph: PositionGraph) -> str:
    i = index.get(fragment)
    if i is None:
        return f"{shown_key(fragment)} (level {level}) is no position of these rules"
    return f"{shown_key(fragment)} is stored at level {level}, not {graph.level[i]}"
