"""Verify a stored solution: re-derive every stored value from the rows one move on.

A solution is checked against what it was made from and against itself, never by
trusting or re-running the solver that wrote it:

* **input**: the SHA-256 of the dictionary's stored words against the hash recorded at
  ingest and by the solve (a word inserted, deleted or changed since), or, for a game
  without a dictionary, the hash of its rule key;
* **structure**: the stored positions are exactly those the words (or the game's rules)
  produce, each at its level: none missing, none extra;
* **values**: every stored outcome, game length, best move, safe seats (more than two
  players) and reachable flag agrees with the stored values of the positions one move
  away, by the rules stated in `ghostdb.solvers`; and every stored plan rank with the
  plan ranks one move away (`ghostdb.solvers.plans`).  (The counts of winning and
  drawing moves are not stored: a lookup counts them from the plays it reads.)

Local agreement everywhere is enough: final positions are checked against the rules,
and a stored game length must fall by one along the best move, so by induction on the
true game length every win, loss and tie is right and what is left, a draw, is too.

The checks are whole-array operations over the graph's edges (numpy), after one read of
the solution's rows.
"""

from __future__ import annotations

import hashlib
import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from sqlalchemy import Integer, bindparam, func, literal, select, text
from sqlalchemy.engine import Connection, Engine

from ghostdb.games.base import (
    DRAW,
    FLIP,
    LOSS,
    NOT_FINAL,
    VALUE_NAMES,
    WIN,
    KeyList,
    PositionGraph,
    RuleSet,
    SortedWords,
)
from ghostdb.games.registry import game_of, parse_rules
from ghostdb.solvers import SOLVER_VERSION, group_starts, play_numbers
from ghostdb.store import queries as q
from ghostdb.store.lookups import POSITION_FIELDS, checked_rules, solution_row, subject
from ghostdb.store.schema import PLAN_FIELDS, positions
from ghostdb.wordlists import content_sha256

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

_FLIP = np.array([*FLIP, -1], dtype=np.int8)  # index -1 (an unreadable value) stays -1
_NONE = -1  # a NULL length or seat mask
_NO_PLAY = -2  # a stored best play number that no play of the position has
_BIG = 1 << 40


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
    """Kept decisive-word answers re-checked (`ghostdb.store.decisive.check_answers`)."""
    kept: int = 0
    """Kept whole-solution answers worked out again (`ghostdb.store.comparing.check_kept`)."""
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


def verify_store(
    engine: Engine, name: str | None, rules: RuleSet | None, every: bool
) -> list[Verdict]:
    """Verify published solutions, read in one snapshot: of the whole store when ``name``
    is None, else every one of ``name`` (``every``) or the one of ``rules`` (default: the
    default rule set)."""
    conn = engine.connect()
    if engine.dialect.name == "postgresql":
        conn = conn.execution_options(isolation_level="REPEATABLE READ")
    with conn:
        chosen = list(q.all_published(conn))
        if name is not None:
            subject(conn, name)  # raises UnknownDictionary
            chosen = [r for r in chosen if r.name == name]
            if not every:
                rules = checked_rules(name, rules)
                chosen = [r for r in chosen if r.rules == rules.key]
                if not chosen:
                    solution_row(conn, name, rules)  # raises the right error
        by_id = {d.id: d for d in q.all_dictionaries(conn)}
        verdicts = [
            verify_solution(conn, row, row.name, by_id.get(row.dictionary_id)) for row in chosen
        ]
        names = {r.id: (r.name, r.rules) for r in q.all_published(conn)}
    checked = {row.id for row in chosen}
    for verdict in verdicts:
        _check_kept(engine, verdict, names, checked)
    return verdicts


def _check_kept(
    engine: Engine, verdict: Verdict, names: dict[int, tuple[str, str]], checked: set[int]
) -> None:
    """Work the solution's kept answers out again and compare (when its positions are
    sound: answers worked out from wrong rows would only repeat what is found)."""
    from ghostdb.store.comparing import check_kept
    from ghostdb.store.lookups import Lookups
    from ghostdb.store.solution import Solution

    if not verdict.ok:
        return
    started = time.perf_counter()
    lookups = Lookups(engine)

    def handle(solution_id: int) -> Solution | None:
        if solution_id not in names:
            return None
        name, key = names[solution_id]
        rules = parse_rules(key)
        return Solution(engine, lookups, name, rules, lookups.ref(name, rules))

    try:
        verdict.kept, problems = check_kept(engine, verdict.solution_id, handle, checked)
    finally:
        lookups.close()
    verdict.found("kept answer", len(problems), problems)
    verdict.seconds += time.perf_counter() - started


def verify_solution(conn: Connection, solution: Any, name: str, dictionary: Any) -> Verdict:
    """Check one published solution (a ``solutions`` row) of ``name``; ``dictionary`` is
    its ``dictionaries`` row, or None for a game without one."""
    started = time.perf_counter()
    rules = parse_rules(solution.rules)
    verdict = Verdict(name, solution.rules, solution.id)
    if solution.solver_version != SOLVER_VERSION:
        verdict.notes.append(
            f"made by solver version {solution.solver_version} (this is {SOLVER_VERSION})"
        )
    words = None
    if dictionary is not None:
        stored = q.dictionary_words(conn, dictionary.id)  # sorted by code point
        _check_dictionary(verdict, solution, dictionary, stored)
        # The words that end a game under these rules, still in order.
        long_enough = (w for w in stored if len(w) >= rules.min_length)
        words = SortedWords(long_enough, rules.min_length)
    else:
        recorded = hashlib.sha256(rules.key.encode()).hexdigest()
        if solution.input_sha256 not in (None, recorded):
            verdict.found(
                "dictionary",
                1,
                [
                    f"the solution records input {solution.input_sha256[:12]}…"
                    f" but {rules.key} hashes to {recorded[:12]}…"
                ],
            )
    game = game_of(rules, dictionary.alphabet if dictionary is not None else "")
    graph = _decoded(game.build(words))
    stored = _Stored.read(conn, solution.id, graph, verdict)
    if rules.players > 2:  # as the solve job: safe seats, in Ghost for more players
        _check_seats(verdict, graph, stored, rules.players, rules.misere)
    else:
        _check_values(verdict, graph, stored)
    _check_reachable(verdict, graph, stored)
    _check_labels(verdict, graph, stored)
    if solution.has_plans:
        _check_plans(verdict, conn, solution.id, graph, stored)
    else:  # a solution without plans has no plan columns set anywhere
        extra = stored_plans(conn, solution.id)
        verdict.found(
            "extra plan",
            len(extra),
            [f"{_show(r[1])} has a plan but its game keeps none" for r in extra[:EXAMPLES]],
        )
    if words is not None:
        from ghostdb.store.decisive import check_answers

        verdict.decisive, problems = check_answers(conn, solution.id, game, words)
        verdict.found("decisive", len(problems), problems)
    verdict.seconds = time.perf_counter() - started
    return verdict


def _decoded(graph: PositionGraph) -> PositionGraph:
    """The graph with its keys and labels as lists: verify compares, joins, indexes and
    looks them up many times over, so packed keys (`Keys`) are decoded once, here."""
    graph.keys = KeyList(graph.keys)
    if graph.labels is not None:
        graph.labels = KeyList(graph.labels)
    return graph


def _check_dictionary(verdict: Verdict, solution: Any, dictionary: Any, stored: list[str]) -> None:
    found = content_sha256(stored)
    if found != dictionary.sha256:
        change = len(stored) - dictionary.word_count
        how = (
            f"{change:+,} words since ingest"
            if change
            else "as many words as at ingest, but not the same ones"
        )
        verdict.found(
            "dictionary",
            1,
            [
                f"the stored words of {verdict.name} hash to {found[:12]}…, ingest recorded "
                f"{dictionary.sha256[:12]}… ({how}): a word was inserted, deleted or changed"
            ],
        )
    if solution.input_sha256 is None:
        verdict.notes.append("solved before solutions recorded their input's hash")
    elif solution.input_sha256 != dictionary.sha256:
        verdict.found(
            "dictionary",
            1,
            [
                f"solved from words hashing to {solution.input_sha256[:12]}…, but the "
                f"dictionary's hash is {dictionary.sha256[:12]}…"
            ],
        )


@dataclass
class _Stored:
    """A solution's stored position rows, aligned with the graph's nodes."""

    present: np.ndarray  # bool
    value: np.ndarray  # int8 value code; -1 if missing or unreadable
    length: np.ndarray  # int64; _NONE for NULL
    best: np.ndarray  # int64: the node the stored best play leads to (see `_played`)
    reachable: np.ndarray  # bool
    safe: np.ndarray  # int64; _NONE for NULL
    labels: np.ndarray  # object

    @classmethod
    def read(cls, conn: Connection, solution_id: int, graph: PositionGraph, v: Verdict) -> _Stored:
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
                f"{_show(graph.keys[i])} (level {graph.level[i]}) is not stored"
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
            length=column(length, _NONE),
            best=_played(graph, column(best, _NONE)),
            reachable=column(reachable, 0).astype(bool),
            safe=column(safe, _NONE),
            labels=column(label, None, object),
        )

    @classmethod
    def _packed(
        cls, conn: Connection, solution_id: int, graph: PositionGraph, v: Verdict
    ) -> _Stored | None:
        """The rows read packed (see `packed_positions`) when they are exactly the
        graph's positions in its order and carry no labels; else None."""
        row = packed_positions(conn, solution_id)
        if row is None or row[-2] or row[-1] != graph.size:
            return None
        if not _joined_keys_equal(row[0], graph.keys):
            return None

        def numbers(packed: str) -> np.ndarray:
            return _numbers(packed, graph.size)

        if not np.array_equal(numbers(row[1]), graph.level):
            return None
        v.positions = int(row[-1])
        return cls(
            present=np.ones(graph.size, dtype=bool),
            value=_codes(numbers(row[3])),
            length=numbers(row[4]),
            best=_played(graph, numbers(row[5])),
            reachable=numbers(row[2]).astype(bool),
            safe=numbers(row[6]),
            labels=np.full(graph.size, None, dtype=object),
        )


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
        return f"{_show(fragment)} (level {level}) is no position of these rules"
    return f"{_show(fragment)} is stored at level {level}, not {graph.level[i]}"


def _show(key: str) -> str:
    return repr(key) if key else "the start ('')"


def _compare(
    v: Verdict,
    kind: str,
    graph: PositionGraph,
    check: np.ndarray,
    stored: np.ndarray,
    expected: np.ndarray,
    say: Any,
) -> None:
    """Report the nodes where ``check`` holds and ``stored`` differs from ``expected``;
    ``say(node, stored, expected)`` words an example."""
    wrong = np.flatnonzero(check & (stored != expected))
    v.found(
        kind,
        len(wrong),
        [say(i, stored[i], expected[i]) for i in wrong[:EXAMPLES].tolist()],
    )


def _moves(graph: PositionGraph, s: _Stored) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(edge start indices, their parents, which parents can be checked): a parent can be
    when it and every position one move away are stored with readable values."""
    parent, child = graph.edge_parent, graph.edge_child
    starts = group_starts(parent)
    parents = parent[starts]
    bad = (~s.present[child]) | (s.value[child] < 0)
    checkable = np.zeros(graph.size, dtype=bool)
    if len(starts):
        checkable[parents] = np.add.reduceat(bad.astype(np.int32), starts) == 0
    checkable &= s.present
    return starts, parents, checkable


def _expected_values(graph: PositionGraph, s: _Stored) -> tuple[np.ndarray, ...]:
    """From the stored values one move on: (the positions whose moves can all be
    checked, their value, game length, best move)."""
    n = graph.size
    final = graph.final != NOT_FINAL
    value = np.where(final, graph.final, -1).astype(np.int8)
    length = np.where(final, 0, _NONE).astype(np.int64)
    best = np.full(n, _NONE, dtype=np.int64)
    starts, parents, checkable = _moves(graph, s)
    parent, child = graph.edge_parent, graph.edge_child
    if len(starts):
        mine = _FLIP[s.value[child]]  # each move's value for its mover
        value[parents] = np.maximum.reduceat(mine, starts)
        decided = value[parent]
        achieves = mine == decided
        clen = s.length[child]
        shortest = np.minimum.reduceat(np.where(achieves, clen, _BIG), starts)
        longest = np.maximum.reduceat(np.where(achieves, clen, -_BIG), starts)
        wanted = value[parents]
        length[parents] = np.where(
            wanted == DRAW, _NONE, np.where(wanted == LOSS, longest, shortest) + 1
        )
        # The best move: the first in move order that achieves the value and the length.
        keeps = achieves & ((decided == DRAW) | (clen + 1 == length[parent]))
        edge = np.minimum.reduceat(np.where(keeps, np.arange(len(child)), len(child)), starts)
        best[parents] = child[np.minimum(edge, len(child) - 1)]
    return checkable, value, length, best


def _check_values(v: Verdict, graph: PositionGraph, s: _Stored) -> None:
    """Two players: every stored value against the values one move on."""
    checkable, value, length, best = _expected_values(graph, s)
    final = graph.final != NOT_FINAL
    check = checkable | (s.present & final)
    names = ("loss", "draw", "tie", "win")

    def value_text(code: int) -> str:
        return names[code] if 0 <= code < len(names) else "unreadable"

    _compare(
        v,
        "outcome",
        graph,
        check,
        s.value,
        value,
        lambda i, a, b: (
            f"{_show(graph.keys[i])} is stored as a {value_text(a)}; "
            + ("the rules make it" if final[i] else "its moves make it")
            + f" a {value_text(b)}"
        ),
    )
    _compare(
        v,
        "game length",
        graph,
        check,
        s.length,
        length,
        lambda i, a, b: (
            f"{_show(graph.keys[i])}: stored length {_length(a)}, its moves give {_length(b)}"
        ),
    )
    _compare(
        v,
        "best move",
        graph,
        check,
        s.best,
        best,
        lambda i, a, b: (
            f"{_show(graph.keys[i])}: stored best move to {_node(graph, a)}, "
            f"the first move keeping its value and length goes to {_node(graph, b)}"
        ),
    )


def _expected_seats(
    graph: PositionGraph, s: _Stored, players: int, misere: bool
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """From the stored safe seats one move on: (the positions whose moves can all be
    checked, their safe seats, and the first move keeping the mover safe)."""
    n = graph.size
    everyone = (1 << players) - 1
    final = graph.final != NOT_FINAL
    completer = np.left_shift(1, (graph.level.astype(np.int64) - 1) % players)
    safe = np.where(final, completer if misere else everyone & ~completer, _NONE)
    mover = np.left_shift(1, graph.level.astype(np.int64) % players)
    best = np.full(n, _NONE, dtype=np.int64)
    starts, parents, _ = _moves(graph, s)
    parent, child = graph.edge_parent, graph.edge_child
    checkable = s.present.copy()
    if len(starts):
        masks = s.safe[child]
        unknown = (~s.present[child]) | (masks < 0)
        checkable[parents] &= np.add.reduceat(unknown.astype(np.int32), starts) == 0
        masks = np.where(masks < 0, 0, masks)
        some = np.bitwise_or.reduceat(masks, starts)
        every = np.bitwise_and.reduceat(masks, starts)
        safe[parents] = (every & ~mover[parents]) | (some & mover[parents])
        keeps = (masks & mover[parent]) != 0
        first_keeping = np.minimum.reduceat(
            np.where(keeps, np.arange(len(child)), len(child)), starts
        )
        best[parents] = child[np.where(first_keeping < len(child), first_keeping, starts)]
    return checkable, safe, best


def _check_seats(v: Verdict, graph: PositionGraph, s: _Stored, players: int, misere: bool) -> None:
    """More than two players: the safe seats, and the values derived from them."""
    checkable, safe, best = _expected_seats(graph, s, players, misere)
    mover = np.left_shift(1, graph.level.astype(np.int64) % players)
    value = np.where((s.safe >= 0) & ((s.safe & mover) != 0), WIN, LOSS).astype(np.int8)
    length = np.where(graph.final != NOT_FINAL, 0, _NONE)
    _compare(
        v,
        "safe seats",
        graph,
        checkable,
        s.safe,
        safe,
        lambda i, a, b: (
            f"{_show(graph.keys[i])}: stored safe seats {_seats(a)}, "
            f"its moves make them {_seats(b)}"
        ),
    )
    present = s.present
    _compare(
        v,
        "outcome",
        graph,
        present,
        s.value,
        value,
        lambda i, a, b: (
            f"{_show(graph.keys[i])}: stored {VALUE_NAMES[a] if a >= 0 else '?'}"
            f", its safe seats make it a {VALUE_NAMES[b]} for the mover"
        ),
    )
    _compare(
        v,
        "game length",
        graph,
        present,
        s.length,
        length,
        lambda i, a, b: (
            f"{_show(graph.keys[i])}: stored length {_length(a)}, expected {_length(b)}"
        ),
    )
    _compare(
        v,
        "best move",
        graph,
        checkable,
        s.best,
        best,
        lambda i, a, b: (
            f"{_show(graph.keys[i])}: stored best move to {_node(graph, a)}, "
            f"the first move keeping the mover safe goes to {_node(graph, b)}"
        ),
    )


def _check_reachable(v: Verdict, graph: PositionGraph, s: _Stored) -> None:
    """Reachable: the start, and every position one move from a reachable one.  Where
    every move raises the level that local rule decides it; with cycles, a search from
    the start does."""
    n = graph.size
    parent, child = graph.edge_parent, graph.edge_child
    if graph.acyclic:
        expected = np.zeros(n, dtype=bool)
        expected[child[s.reachable[parent]]] = True
        has_missing_parent = np.zeros(n, dtype=bool)
        has_missing_parent[child[~s.present[parent]]] = True
        check = s.present & ~has_missing_parent
    else:
        expected = np.zeros(n, dtype=bool)
        order = np.argsort(parent, kind="stable")
        bounds = np.searchsorted(parent[order], np.arange(n + 1))
        targets = child[order]
        todo = deque([graph.start])
        expected[graph.start] = True
        while todo:
            node = todo.popleft()
            for nxt in targets[bounds[node] : bounds[node + 1]].tolist():
                if not expected[nxt]:
                    expected[nxt] = True
                    todo.append(nxt)
        check = s.present.copy()
    expected[graph.start] = True
    _compare(
        v,
        "reachable",
        graph,
        check,
        s.reachable,
        expected,
        lambda i, a, b: (
            f"{_show(graph.keys[i])} is stored as "
            + ("reachable" if a else "unreachable")
            + (" but no reachable position moves to it" if a else " but a game can reach it")
        ),
    )


def _check_labels(v: Verdict, graph: PositionGraph, s: _Stored) -> None:
    expected = np.array(graph.labels or [None] * graph.size, dtype=object)
    wrong = np.flatnonzero(s.present & (s.labels != expected)).tolist()
    v.found(
        "label",
        len(wrong),
        [
            f"{_show(graph.keys[i])} is labelled {s.labels[i]!r}, not {expected[i]!r}"
            for i in wrong[:EXAMPLES]
        ],
    )


def _check_plans(
    v: Verdict, conn: Connection, solution_id: int, graph: PositionGraph, s: _Stored
) -> None:
    """Plan ranks (see `ghostdb.solvers.plans`): at a final position, its word; with the
    opponent to move, every answer's outcomes added up; with the strategist to move, the
    move to the best-ranked position for the opponent, first in move order among equals.
    The strategist-to-move rank is not stored: it is read from the stored move's position
    (`ghostdb.store.walks.plan_sizes`), so it is checked by checking that move."""
    n = graph.size
    has, numbers, rank, extra = _read_plans(conn, solution_id, graph, s, v)
    plan = _played(graph, numbers)  # the node each stored plan move leads to
    v.found(
        "extra plan",
        len(extra),
        [f"{_show(f)} has a plan but is no reachable position" for f in extra[:EXAMPLES]],
    )
    wanted = s.present & s.reachable
    missing = np.flatnonzero(wanted & ~has)
    v.found(
        "missing plan",
        len(missing),
        [f"{_show(graph.keys[i])} is reachable but has no plan" for i in missing[:EXAMPLES]],
    )
    w_loss, w_out, w_let = rank
    final = graph.final != NOT_FINAL
    # The strategist-to-move ranks as a walk reads them: the stored move's position's, or
    # at a final position the same word lost by the other role; none for a move missing.
    moved = plan >= 0
    m_loss = np.where(final & has, 2 - w_loss, 0)
    m_out, m_let = np.where(final, w_out, 0), np.where(final, w_let, 0)
    for derived, stored in ((m_loss, w_loss), (m_out, w_out), (m_let, w_let)):
        derived[moved] = stored[plan[moved]]
    wins = s.value == WIN  # at a final position: the strategist, to move there, has won
    words = graph.word_length if graph.word_length is not None else np.zeros(n)
    exp = np.zeros((3, n), dtype=np.int64)
    exp[0] = np.where(final & wins, 2, 0)
    exp[1] = final
    exp[2] = np.where(final, words, 0)
    exp_plan = np.full(n, -1, dtype=np.int64)
    parent, child, order_rank = graph.edge_parent, graph.edge_child, graph.edge_rank
    starts = group_starts(parent)
    check = has & final
    if len(starts):
        parents = parent[starts]
        ok = np.zeros(n, dtype=bool)
        ok[parents] = np.add.reduceat((~has[child]).astype(np.int32), starts) == 0
        lo = np.minimum.reduceat(m_loss[child], starts)
        hi = np.maximum.reduceat(m_loss[child], starts)
        exp[0][parents] = np.where(lo == hi, lo, 1)
        exp[1][parents] = np.add.reduceat(m_out[child], starts)
        exp[2][parents] = np.add.reduceat(m_let[child], starts)
        order = np.lexsort((order_rank, w_let[child], w_out[child], w_loss[child], parent))
        exp_plan[parents] = child[order[starts]]
        check = has & (final | ok)
    wrong = check & ((rank != exp).any(axis=0) | (plan != exp_plan))
    bad = np.flatnonzero(wrong)
    v.found(
        "plan",
        len(bad),
        [
            f"{_show(graph.keys[i])}: stored plan {_plan(graph, rank[:, i], plan[i])}, "
            f"its moves give {_plan(graph, exp[:, i], exp_plan[i])}"
            for i in bad[:EXAMPLES].tolist()
        ],
    )


def _read_plans(
    conn: Connection, solution_id: int, graph: PositionGraph, s: _Stored, v: Verdict
) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[str]]:
    """The stored plans aligned with the graph's nodes: which nodes have one, their
    move numbers (`_NONE` for none), their three ranks, and the keys of rows that are no
    reachable position."""
    n = graph.size
    reach = np.flatnonzero(s.present & s.reachable)
    has = np.zeros(n, dtype=bool)
    rank = np.zeros((3, n), dtype=np.int64)
    numbers = np.full(n, _NONE, dtype=np.int64)
    packed = _packed_plans(conn, solution_id, graph, reach)
    if packed is not None:  # the rows are exactly the reachable positions', in order
        v.plans, numbers[reach], rank[:, reach] = packed
        has[reach] = True
        return has, numbers, rank, []
    rows = stored_plans(conn, solution_id)
    v.plans = len(rows)
    cols = list(zip(*rows, strict=True)) if rows else [()] * len(STORED_PLAN_FIELDS)
    level, fragment, number = cols[:3]
    # Rows come in key order: when they are exactly the reachable positions (a store
    # read row by row, as on PostgreSQL), no index of every key is needed.
    if (
        len(fragment) == len(reach)
        and np.array_equal(level, graph.level[reach])
        and _joined_keys_equal("\n".join(fragment) if fragment else None, graph.keys, reach)
    ):
        at, pick, extra = reach, np.arange(len(reach)), []
    else:
        index = {key: i for i, key in enumerate(graph.keys)}
        node = np.array([index.get(f, -1) for f in fragment], dtype=np.int64)
        ok = node >= 0
        ok[ok] = (graph.level[node[ok]] == np.array(level)[ok]) & s.reachable[node[ok]]
        at, pick = node[ok], np.flatnonzero(ok)
        extra = [fragment[i] for i in np.flatnonzero(~ok)]
    has[at] = True
    if rows:
        rank[:, at] = np.array(cols[3:], dtype=np.int64)[:, pick]
        numbers[at] = np.array(number, dtype=np.int64)[pick]
    return has, numbers, rank, extra


def _packed_plans(
    conn: Connection, solution_id: int, graph: PositionGraph, reach: np.ndarray
) -> tuple[int, np.ndarray, np.ndarray] | None:
    """SQLite: the plans read packed, as the positions are (see `packed_positions`),
    when they are exactly the positions ``reach`` in key order: (rows, move numbers,
    ranks); else None, and the rows are read one by one."""
    if conn.dialect.name != "sqlite" or not len(reach):
        return None
    sql = (
        "SELECT group_concat(fragment, char(10)), group_concat(level), "
        f"group_concat(coalesce(plan_play, {_NONE})), "
        f"group_concat(coalesce(waiter_lossiness, {_NONE})), "
        f"group_concat(coalesce(waiter_outcomes, {_NONE})), "
        f"group_concat(coalesce(waiter_letters, {_NONE})), count(*) "
        "FROM (SELECT * FROM positions WHERE solution_id = :solution_id "
        f"AND {_ANY_PLAN} ORDER BY level, fragment)"
    )
    row = conn.execute(text(sql), {"solution_id": solution_id}).one()
    if row[-1] != len(reach) or not _joined_keys_equal(row[0], graph.keys, reach):
        return None
    columns = [_numbers(packed, len(reach)) for packed in row[1:6]]
    if not np.array_equal(columns[0], graph.level[reach]):
        return None
    return int(row[-1]), columns[1], np.array(columns[2:])


def _numbers(packed: str, count: int) -> np.ndarray:
    """A column of whole numbers that SQL joined with commas."""
    found = np.fromstring(packed, dtype=np.int64, sep=",")  # C-speed parsing
    if len(found) != count:  # cannot happen with integers from SQL
        raise ValueError("a packed column does not hold one number a row")
    return found


_KEYS_A_PIECE = 1 << 18


def _joined_keys_equal(packed: str | None, keys: Any, nodes: np.ndarray | None = None) -> bool:
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


def _plan(graph: PositionGraph, rank: np.ndarray, node: int) -> str:
    return f"{tuple(int(x) for x in rank)} to {_node(graph, node)}"


def _key(key: str | None) -> str:
    return "nothing" if key is None else _show(key)


def _codes(stored: np.ndarray) -> np.ndarray:
    """Stored outcome codes as value codes; -1 for one that is none (unreadable)."""
    known = (stored >= 0) & (stored < len(VALUE_NAMES))
    return np.where(known, stored, -1).astype(np.int8)


def _played(graph: PositionGraph, numbers: np.ndarray) -> np.ndarray:
    """The node each position's stored best play number leads to: -1 where none is stored
    (NULL), `_NO_PLAY` where the position has no play of that number."""
    out = np.where(numbers == _NONE, -1, _NO_PLAY).astype(np.int64)
    parent = graph.edge_parent
    wanted = numbers[parent]
    hit = (play_numbers(graph) == wanted) & (wanted >= 0)
    out[parent[hit]] = graph.edge_child[hit]
    return out


def _node(graph: PositionGraph, node: int) -> str:
    if node == _NO_PLAY:
        return "a play it does not have"
    return _key(None if node < 0 else graph.keys[node])


def _length(length: int) -> str:
    return "none" if length == _NONE else str(length)


def _seats(mask: int) -> str:
    if mask == _NONE:
        return "none recorded"
    return "{" + ", ".join(str(s + 1) for s in range(16) if mask >> s & 1) + "}"


__all__ = ["KINDS", "Finding", "Verdict", "verify_solution", "verify_store"]


# -- SQL ----------------------------------------------------------------------------------------

STORED_POSITION_FIELDS = ("level", *POSITION_FIELDS)
STORED_PLAN_FIELDS = (
    "level",
    "fragment",
    func.coalesce(positions.c.plan_play, _NONE),  # none when final
    *(func.coalesce(positions.c[f], _NONE) for f in PLAN_FIELDS[1:]),  # all there, or wrong
)
_ANY_PLAN = "(" + " OR ".join(f"{f} IS NOT NULL" for f in PLAN_FIELDS) + ")"
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
    query = q.FastQuery(stmt, conn.dialect)
    return query.run(conn.connection.driver_connection, {"solution_id": solution_id})


def stored_positions(conn: Connection, solution_id: int) -> list[Any]:
    """Every position row of a solution, as tuples of `STORED_POSITION_FIELDS`."""
    return _stream(conn, STORED_POSITION_FIELDS, solution_id)


def stored_plans(conn: Connection, solution_id: int) -> list[Any]:
    """Every position of a solution that holds a plan, as tuples of
    `STORED_PLAN_FIELDS`."""
    return _stream(conn, STORED_PLAN_FIELDS, solution_id, text(_ANY_PLAN))


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
