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
from typing import Any

import numpy as np
from sqlalchemy.engine import Connection, Engine

from ghostdb import memory
from ghostdb.games.base import (
    DRAW,
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
from ghostdb.solvers import SOLVER_VERSION, group_starts
from ghostdb.store.answers.dictionaries import subject
from ghostdb.store.answers.lookups import checked_rules, solution_row
from ghostdb.store.answers.puzzles import PUZZLES
from ghostdb.store.sql import queries as q
from ghostdb.store.verification.levels import read_levels
from ghostdb.store.verification.plans import check_plans
from ghostdb.store.verification.stored import (
    BIG,
    EXAMPLES,
    FLIPPED,
    KINDS,
    NONE,
    Finding,
    StoredRows,
    Verdict,
    pieces,
    shown_key,
    shown_length,
    shown_node,
    shown_seats,
    stored_plans,
)
from ghostdb.wordlists import content_sha256


def verify_store(
    engine: Engine, name: str | None, rules: RuleSet | str | None, every: bool
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
    from ghostdb.store.answers.handle import Handle
    from ghostdb.store.answers.lookups import Lookups
    from ghostdb.store.verification.kept import check_kept

    if any(kind != "kept answer" for kind in verdict.findings):
        return
    started = time.perf_counter()
    lookups = Lookups(engine)

    def handle(solution_id: int) -> Handle | None:
        if solution_id not in names:
            return None
        name, key = names[solution_id]
        rules = parse_rules(key)
        return Handle(engine, lookups, name, rules, lookups.ref(name, rules))

    try:
        verdict.kept, problems = check_kept(
            engine, verdict.solution_id, handle, checked, verdict.kept_done
        )
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
    words = _check_input(verdict, conn, solution, dictionary)
    game = game_of(rules, dictionary.alphabet if dictionary is not None else "")
    if words is not None:  # the words that end a game under these rules, still in order
        words = SortedWords([w for w in words if len(w) >= rules.min_length], rules.min_length)
    # The words are let go once the moves are made of them (millions of strings: half of
    # the memory of a big list's solve), and read again for decisive answers, if any.
    graph = game.build(words)
    del words
    puzzles = _kept_puzzles(conn, solution.id)
    wanted: dict[int, set[str]] = {}  # the puzzles' keys, by level
    for key, *_ in puzzles["puzzles"] if puzzles else ():
        wanted.setdefault(game.level(key), set()).add(key)
    how = {"seats": rules.players > 2, "kept": bool(solution.has_plans)}
    stored = read_levels(conn, solution.id, graph, verdict, wanted, **how)
    if stored is None:  # row by row, the labels decoded to compare each
        graph = _decoded(graph)
        stored = StoredRows.read(conn, solution.id, graph, verdict, wanted)
    _check_positions(verdict, conn, solution, graph, stored)
    if verdict.ok and puzzles is not None:  # (sound rows: else it would repeat the above)
        from ghostdb.store.verification.kept import check_puzzles_over

        problems = check_puzzles_over(graph, stored, puzzles)
        verdict.found("kept answer", len(problems), problems)
        verdict.kept_done.append(PUZZLES)
    del graph, stored
    memory.give_back()  # the graph's memory, before the answers are worked out again
    if dictionary is not None:
        from ghostdb.store.verification.decisive import check_answers

        verdict.decisive, problems = check_answers(
            conn, solution.id, game, lambda: _words(conn, dictionary, rules)
        )
        verdict.found("decisive", len(problems), problems)
    verdict.seconds = time.perf_counter() - started
    return verdict


def _check_input(
    verdict: Verdict, conn: Connection, solution: Any, dictionary: Any
) -> list[str] | None:
    """The stored words against their hash (a game without words: its rule key's); the
    words, sorted by code point (None for a game without)."""
    if dictionary is not None:
        words = q.dictionary_words(conn, dictionary.id)
        _check_dictionary(verdict, solution, dictionary, words)
        return words
    recorded = hashlib.sha256(solution.rules.encode()).hexdigest()
    if solution.input_sha256 not in (None, recorded):
        verdict.found(
            "dictionary",
            1,
            [
                f"the solution records input {solution.input_sha256[:12]}…"
                f" but {solution.rules} hashes to {recorded[:12]}…"
            ],
        )
    return None


def _words(conn: Connection, dictionary: Any, rules: Any) -> SortedWords | None:
    """The words that end a game under ``rules``, in order; None for a game without."""
    if dictionary is None:
        return None
    return SortedWords(q.dictionary_words(conn, dictionary.id, rules.min_length), rules.min_length)


def _check_positions(
    verdict: Verdict, conn: Connection, solution: Any, graph: PositionGraph, stored: StoredRows
) -> None:
    """Every stored position's fields against the positions one move on, and its plan."""
    rules = parse_rules(solution.rules)
    if rules.players > 2:  # as the solve job: safe seats, in Ghost for more players
        _check_seats(verdict, graph, stored, rules.players, rules.misere)
    else:
        _check_values(verdict, graph, stored)
    _check_reachable(verdict, graph, stored)
    _check_labels(verdict, graph, stored)
    if solution.has_plans:
        check_plans(verdict, conn, solution.id, graph, stored)
        return
    # A solution without plans has no plan columns set anywhere.
    if stored.plans is not None:
        extra = [graph.keys[i] for i in np.flatnonzero(stored.plans.has)[:EXAMPLES].tolist()]
        count = int(stored.plans.has.sum())
    else:
        found = stored_plans(conn, solution.id)
        extra, count = [r[1] for r in found[:EXAMPLES]], len(found)
    verdict.found(
        "extra plan", count, [f"{shown_key(k)} has a plan but its game keeps none" for k in extra]
    )


def _kept_puzzles(conn: Connection, solution_id: int) -> dict[str, Any] | None:
    """The kept puzzles of the solution, checked over the arrays its rows are read into
    (`ghostdb.store.verification.kept.check_puzzles_over`), not a lookup a puzzle."""
    from ghostdb.store.answers import kept

    return kept.read(conn, kept.Key(solution_id, PUZZLES))  # type: ignore[no-any-return]


def _decoded(graph: PositionGraph) -> PositionGraph:
    """The graph with its labels as a list (Anagram Ghost's: verify compares every one).
    Its keys stay as the game made them (`Keys`: Ghost's packed, a million of them 30 MB
    where Python strings would be 70): each check reads them a piece at a time."""
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


def _moves(graph: PositionGraph, s: StoredRows) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(edge start indices, their parents, which parents can be checked): a parent can be
    when it and every position one move away are stored with readable values."""
    parent, child = graph.edge_parent, graph.edge_child
    starts = group_starts(parent)
    parents = parent[starts]
    known = s.value[child] >= 0  # (-1: not stored, or unreadable)
    checkable = np.zeros(graph.size, dtype=bool)
    if len(starts):
        checkable[parents] = np.logical_and.reduceat(known, starts)
    checkable &= s.present
    return starts, parents, checkable


def _expected_values(graph: PositionGraph, s: StoredRows) -> tuple[np.ndarray, ...]:
    """From the stored values one move on: (the positions whose moves can all be
    checked, their value, game length, best move)."""
    n = graph.size
    final = graph.final != NOT_FINAL
    value = np.where(final, graph.final, np.int8(-1))
    length = np.full(n, NONE, dtype=s.length.dtype)
    length[final] = 0
    best = np.full(n, NONE, dtype=np.int32)
    parent, child = graph.edge_parent, graph.edge_child
    checkable = np.zeros(n, dtype=bool)
    for lo, hi, runs in pieces(parent, group_starts(parent)):
        here, moved = parent[lo:hi], child[lo:hi]
        parents = here[runs]
        known = s.value[moved] >= 0  # (-1: not stored, or unreadable)
        checkable[parents] = np.logical_and.reduceat(known, runs)
        mine = FLIPPED[s.value[moved]]  # each move's value for its mover
        value[parents] = np.maximum.reduceat(mine, runs)
        achieves = mine == value[here]
        clen = s.length[moved]
        shortest = np.minimum.reduceat(np.where(achieves, clen, BIG), runs)
        longest = np.maximum.reduceat(np.where(achieves, clen, -BIG), runs)
        wanted = value[parents]
        length[parents] = np.where(
            wanted == DRAW, NONE, np.where(wanted == LOSS, longest, shortest) + 1
        )
        # The best move: the first in move order that achieves the value and the length.
        achieves &= (value[here] == DRAW) | (clen + 1 == length[here])
        edge = np.minimum.reduceat(np.where(achieves, np.arange(hi - lo), hi - lo), runs)
        best[parents] = moved[np.minimum(edge, hi - lo - 1)]
    return checkable & s.present, value, length, best


def _check_values(v: Verdict, graph: PositionGraph, s: StoredRows) -> None:
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
            f"{shown_key(graph.keys[i])} is stored as a {value_text(a)}; "
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
            f"{shown_key(graph.keys[i])}: stored length {shown_length(a)}, "
            f"its moves give {shown_length(b)}"
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
            f"{shown_key(graph.keys[i])}: stored best move to {shown_node(graph, a)}, "
            f"the first move keeping its value and length goes to {shown_node(graph, b)}"
        ),
    )


def _expected_seats(
    graph: PositionGraph, s: StoredRows, players: int, misere: bool
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """From the stored safe seats one move on: (the positions whose moves can all be
    checked, their safe seats, and the first move keeping the mover safe)."""
    n = graph.size
    everyone = (1 << players) - 1
    final = graph.final != NOT_FINAL
    completer = np.left_shift(1, (graph.level.astype(np.int64) - 1) % players)
    safe = np.where(final, completer if misere else everyone & ~completer, NONE)
    mover = np.left_shift(1, graph.level.astype(np.int64) % players)
    best = np.full(n, NONE, dtype=np.int64)
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


def _check_seats(
    v: Verdict, graph: PositionGraph, s: StoredRows, players: int, misere: bool
) -> None:
    """More than two players: the safe seats, and the values derived from them."""
    checkable, safe, best = _expected_seats(graph, s, players, misere)
    mover = np.left_shift(1, graph.level.astype(np.int64) % players)
    value = np.where((s.safe >= 0) & ((s.safe & mover) != 0), WIN, LOSS).astype(np.int8)
    length = np.where(graph.final != NOT_FINAL, 0, NONE)
    _compare(
        v,
        "safe seats",
        graph,
        checkable,
        s.safe,
        safe,
        lambda i, a, b: (
            f"{shown_key(graph.keys[i])}: stored safe seats {shown_seats(a)}, "
            f"its moves make them {shown_seats(b)}"
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
            f"{shown_key(graph.keys[i])}: stored {VALUE_NAMES[a] if a >= 0 else '?'}"
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
            f"{shown_key(graph.keys[i])}: stored length {shown_length(a)}, "
            f"expected {shown_length(b)}"
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
            f"{shown_key(graph.keys[i])}: stored best move to {shown_node(graph, a)}, "
            f"the first move keeping the mover safe goes to {shown_node(graph, b)}"
        ),
    )


def _check_reachable(v: Verdict, graph: PositionGraph, s: StoredRows) -> None:
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
            f"{shown_key(graph.keys[i])} is stored as "
            + ("reachable" if a else "unreachable")
            + (" but no reachable position moves to it" if a else " but a game can reach it")
        ),
    )


def _check_labels(v: Verdict, graph: PositionGraph, s: StoredRows) -> None:
    if s.labels is None:  # read where none is stored and the graph has none
        return
    expected = np.array(graph.labels or [None] * graph.size, dtype=object)
    wrong = np.flatnonzero(s.present & (s.labels != expected)).tolist()
    v.found(
        "label",
        len(wrong),
        [
            f"{shown_key(graph.keys[i])} is labelled {s.labels[i]!r}, not {expected[i]!r}"
            for i in wrong[:EXAMPLES]
        ],
    )


__all__ = ["KINDS", "Finding", "Verdict", "verify_solution", "verify_store"]


# -- SQL ----------------------------------------------------------------------------------------
