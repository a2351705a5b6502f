"""The check of the stored plans (`ghostdb.solvers.plans`): each plan rank against the
ranks one move away, and each stored plan move against the rank it claims."""

from __future__ import annotations

from typing import Any

import numpy as np
from sqlalchemy import text
from sqlalchemy.engine import Connection

from ghostdb.games.base import (
    NOT_FINAL,
    WIN,
    PositionGraph,
)
from ghostdb.solvers import group_starts
from ghostdb.store.verification.stored import (
    ANY_PLAN,
    EXAMPLES,
    NONE,
    STORED_PLAN_FIELDS,
    StoredRows,
    Verdict,
    joined_keys_equal,
    pieces,
    played_numbers,
    shown_key,
    shown_node,
    stored_plans,
    unpacked_numbers,
)


def check_plans(
    v: Verdict, conn: Connection, solution_id: int, graph: PositionGraph, s: StoredRows
) -> None:
    """Plan ranks (see `ghostdb.solvers.plans`): at a final position, its word; with the
    opponent to move, every answer's outcomes added up; with the strategist to move, the
    move to the best-ranked position for the opponent, first in move order among equals.
    The strategist-to-move rank is not stored: it is read from the stored move's position
    (`ghostdb.store.answers.plan_rows.plan_sizes`), so it is checked by checking that move."""
    has, numbers, rank, extra = _read_plans(conn, solution_id, graph, s, v)
    plan = played_numbers(graph, numbers)  # the node each stored plan move leads to
    v.found(
        "extra plan",
        extra[0],
        [f"{shown_key(f)} has a plan but is no reachable position" for f in extra[1]],
    )
    wanted = s.present & s.reachable
    missing = np.flatnonzero(wanted & ~has)
    v.found(
        "missing plan",
        len(missing),
        [f"{shown_key(graph.keys[i])} is reachable but has no plan" for i in missing[:EXAMPLES]],
    )
    check, exp, exp_plan = _expected(graph, s, has, plan, rank)
    wrong = check & (plan != exp_plan)
    for stored, expected in zip(rank, exp, strict=True):
        wrong |= check & (stored != expected)
    bad = np.flatnonzero(wrong)
    v.found(
        "plan",
        len(bad),
        [
            f"{shown_key(graph.keys[i])}: stored plan "
            f"{_plan(graph, [r[i] for r in rank], plan[i])}, "
            f"its moves give {_plan(graph, [e[i] for e in exp], exp_plan[i])}"
            for i in bad[:EXAMPLES].tolist()
        ],
    )


def _expected(
    graph: PositionGraph, s: StoredRows, has: np.ndarray, plan: np.ndarray, rank: list[np.ndarray]
) -> tuple[np.ndarray, list[np.ndarray], np.ndarray]:
    """From the plans one move on: which positions can be checked, their three ranks and
    the node their plan's move leads to (see `check_plans`)."""
    n = graph.size
    final = graph.final != NOT_FINAL
    wins = s.value == WIN  # at a final position: the strategist, to move there, has won
    words = np.zeros(n, np.int32) if graph.word_length is None else graph.word_length * final
    exp = [np.where(final & wins, 2, 0).astype(np.int8), final.astype(np.int32), words]
    exp_plan = np.full(n, -1, dtype=np.int32)
    ok = np.zeros(n, dtype=bool)
    parent, child = graph.edge_parent, graph.edge_child
    for lo, hi, runs in pieces(parent, group_starts(parent)):
        moves = child[lo:hi]
        parents = parent[lo:hi][runs]
        ok[parents] = np.logical_and.reduceat(has[moves], runs)
        exp_plan[parents] = moves[_first_best(runs, moves, rank)]
        loss, out, let = _strategist(moves, final, has, plan, rank)
        low, high = np.minimum.reduceat(loss, runs), np.maximum.reduceat(loss, runs)
        exp[0][parents] = np.where(low == high, low, 1)
        for k, column in ((1, out), (2, let)):
            sums = np.add.reduceat(column, runs, dtype=np.int64)
            if sums.size and sums.max() > np.iinfo(exp[k].dtype).max:
                exp[k] = exp[k].astype(np.int64)  # (a count past 32 bits)
            exp[k][parents] = sums
    return has & (final | ok), exp, exp_plan


def _strategist(
    nodes: np.ndarray, final: np.ndarray, has: np.ndarray, plan: np.ndarray, rank: list[Any]
) -> list[np.ndarray]:
    """The strategist-to-move ranks of ``nodes`` as a walk reads them: the stored plan
    move's position's, or at a final position the same word lost by the other role (its
    lossiness turned round); none for a move missing."""
    w_loss, w_out, w_let = rank
    at, to = final[nodes], plan[nodes]
    moved = to >= 0
    found = [
        np.where(at & has[nodes], 2 - w_loss[nodes], 0),
        np.where(at, w_out[nodes], 0),
        np.where(at, w_let[nodes], 0),
    ]
    for column, stored in zip(found, rank, strict=True):
        column[moved] = stored[to[moved]]
    return found


def _first_best(runs: np.ndarray, moves: np.ndarray, ranks: list[np.ndarray]) -> np.ndarray:
    """The edge of each run (from ``runs``) whose child's ``ranks`` are the least,
    compared in order, the first among equals (a run's edges are in move order): a rank
    at a time over the edges still in the running, not a sort of them all."""
    size = len(moves)
    counts = np.diff(np.r_[runs, size])
    running = np.ones(size, dtype=bool)
    for rank in ranks:
        masked = np.where(running, rank[moves], np.iinfo(rank.dtype).max)
        running &= masked == np.repeat(np.minimum.reduceat(masked, runs), counts)
    return np.minimum.reduceat(np.where(running, np.arange(size), size), runs)  # type: ignore[no-any-return]


def _read_plans(
    conn: Connection, solution_id: int, graph: PositionGraph, s: StoredRows, v: Verdict
) -> tuple[np.ndarray, np.ndarray, list[np.ndarray], tuple[int, list[str]]]:
    """The stored plans aligned with the graph's nodes: which reachable nodes have one,
    their move numbers (`NONE` for none), their three ranks, and how many rows hold a plan
    though no reachable position, with a few of their keys."""
    n = graph.size
    reach = s.present & s.reachable
    if s.plans is not None:  # read with the positions
        found = s.plans
        v.plans = int(found.has.sum())
        has = found.has & reach
        extra = np.flatnonzero(found.has & ~reach)
        for column in found.rank:  # (read for this check alone: changed in place)
            column[~has] = 0
        found.numbers[~has] = NONE
        keys = [graph.keys[i] for i in extra[:EXAMPLES].tolist()]
        return has, found.numbers, found.rank, (len(extra), keys)
    reach = np.flatnonzero(reach)
    has = np.zeros(n, dtype=bool)
    ranks = np.zeros((3, n), dtype=np.int64)
    numbers = np.full(n, NONE, dtype=np.int64)
    packed = _packed_plans(conn, solution_id, graph, reach)
    if packed is not None:  # the rows are exactly the reachable positions', in order
        v.plans, numbers[reach], ranks[:, reach] = packed
        has[reach] = True
        return has, numbers, list(ranks), (0, [])
    rows = stored_plans(conn, solution_id)
    v.plans = len(rows)
    cols = list(zip(*rows, strict=True)) if rows else [()] * len(STORED_PLAN_FIELDS)
    level, fragment, number = cols[:3]
    # Rows come in key order: when they are exactly the reachable positions (a store
    # read row by row, as on PostgreSQL), no index of every key is needed.
    if (
        len(fragment) == len(reach)
        and np.array_equal(level, graph.level[reach])
        and joined_keys_equal("\n".join(fragment) if fragment else None, graph.keys, reach)
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
        ranks[:, at] = np.array(cols[3:], dtype=np.int64)[:, pick]
        numbers[at] = np.array(number, dtype=np.int64)[pick]
    return has, numbers, list(ranks), (len(extra), extra[:EXAMPLES])


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
        f"group_concat(coalesce(plan_play, {NONE})), "
        f"group_concat(coalesce(waiter_lossiness, {NONE})), "
        f"group_concat(coalesce(waiter_outcomes, {NONE})), "
        f"group_concat(coalesce(waiter_letters, {NONE})), count(*) "
        "FROM (SELECT * FROM positions WHERE solution_id = :solution_id "
        f"AND {ANY_PLAN} ORDER BY level, fragment)"
    )
    row = conn.execute(text(sql), {"solution_id": solution_id}).one()
    if row[-1] != len(reach) or not joined_keys_equal(row[0], graph.keys, reach):
        return None
    columns = [unpacked_numbers(packed, len(reach)) for packed in row[1:6]]
    if not np.array_equal(columns[0], graph.level[reach]):
        return None
    return int(row[-1]), columns[1], np.array(columns[2:])


def _plan(graph: PositionGraph, rank: list[Any], node: int) -> str:
    return f"{tuple(int(x) for x in rank)} to {shown_node(graph, node)}"
