"""What the checks of a stored solution share: the verdict and its findings,
the stored rows read into arrays (`StoredRows`), how a position is shown in a finding, and
the SQL that reads a solution's rows."""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping, Sequence
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
from ghostdb.solvers import group_starts, play_numbers
from ghostdb.store.answers.lookups import POSITION_FIELDS
from ghostdb.store.sql import raw
from ghostdb.store.sql.schema import PLAN_FIELDS, positions

EXAMPLES = 5
"""How many examples of each kind of inconsistency a report keeps."""

EDGES = 1 << 19
"""About how many edges a whole-array check takes at once (`pieces`): each step holds a
few columns that long, a few MB, not a few of the graph's every edge."""


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


BIG = 1 << 30
"""Above any game length or plan rank an int32 column holds."""


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
class StoredPlans:
    """A solution's stored plan columns, aligned with the graph's nodes (read with the
    positions, `ghostdb.store.verification.levels`)."""

    has: np.ndarray  # bool: any plan column set
    numbers: np.ndarray  # the plan's play number; NONE for NULL
    rank: list[np.ndarray]  # waiter_lossiness, waiter_outcomes, waiter_letters; NONE for NULL


@dataclass
class StoredRows:
    """A solution's stored position rows, aligned with the graph's nodes."""

    present: np.ndarray  # bool
    value: np.ndarray  # int8 value code; -1 if missing or unreadable
    length: np.ndarray  # int32 (int64 if one is bigger); NONE for NULL
    best: np.ndarray  # int32: the node the stored best play leads to (see `played_numbers`)
    reachable: np.ndarray  # bool
    safe: np.ndarray  # int32 (int64 if one is bigger); NONE for NULL
    labels: np.ndarray | None  # object; None where none is stored and the graph has none
    plans: StoredPlans | None = None
    """The plan columns, where they were read with the positions (else `check_plans`
    reads them)."""
    nodes: dict[str, int] = field(default_factory=dict)
    """The node of each of the keys `read` was asked for that is stored."""

    @classmethod
    def read(
        cls,
        conn: Connection,
        solution_id: int,
        graph: PositionGraph,
        v: Verdict,
        wanted: Mapping[int, Collection[str]] | None = None,
    ) -> StoredRows:
        """Every row of the solution, read row by row; those that are no position of the
        graph (or at another level) are reported extra, the positions not stored
        missing.  The nodes of the keys ``wanted`` (by level) are noted (`nodes`)."""
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

        sought = {key for keys in (wanted or {}).values() for key in keys}
        nodes = {fragment[r]: int(i) for i, r in zip(at.tolist(), pick.tolist(), strict=True)
                 if fragment[r] in sought} if sought else {}  # fmt: skip
        return cls(
            present=present,
            value=codes(column(outcome, -1)),
            length=column(length, NONE),
            best=played_numbers(graph, column(best, NONE)),
            reachable=column(reachable, 0).astype(bool),
            safe=column(safe, NONE),
            labels=column(label, None, object),
            nodes=nodes,
        )


def pieces(
    parent: np.ndarray, starts: np.ndarray, edges: int | None = None
) -> Iterator[tuple[int, int, np.ndarray]]:
    """The edges, grouped by parent in runs that begin at ``starts``, in pieces of whole
    runs of about ``edges`` edges (`EDGES`): each piece's first edge, its end, and where
    its runs begin within it."""
    edges = edges or EDGES
    at, total = 0, len(parent)
    while at < len(starts):
        lo = int(starts[at])
        end = max(at + 1, int(np.searchsorted(starts, lo + edges)))
        hi = int(starts[end]) if end < len(starts) else total
        yield lo, hi, starts[at:end] - lo
        at = end


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


def codes(stored: np.ndarray) -> np.ndarray:
    """Stored outcome codes as value codes; -1 for one that is none (unreadable)."""
    known = (stored >= 0) & (stored < len(VALUE_NAMES))
    return np.where(known, stored, -1).astype(np.int8)


def played_numbers(graph: PositionGraph, numbers: np.ndarray) -> np.ndarray:
    """The node each position's stored best play number leads to: -1 where none is stored
    (NULL), `_NO_PLAY` where the position has no play of that number."""
    out = np.where(numbers == NONE, -1, _NO_PLAY).astype(np.int32)
    parent, child = graph.edge_parent, graph.edge_child
    if (child != parent).all():  # no move back to its own position: play i is edge i
        starts = group_starts(parent)
        parents = parent[starts]
        plays = np.diff(np.r_[starts, len(parent)])
        wanted = numbers[parents]
        has = (wanted >= 0) & (wanted < plays)
        out[parents[has]] = child[starts[has] + wanted[has]]
        return out
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
