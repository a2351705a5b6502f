"""The check of the stored plans (`ghostdb.solvers.plans`): each plan rank against the
ranks one move away, and each stored plan move against the rank it claims."""

from __future__ import annotations

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
    (`ghostdb.store.answers.walks.plan_sizes`), so it is checked by checking that move."""
    n = graph.size
    has, numbers, rank, extra = _read_plans(conn, solution_id, graph, s, v)
    plan = played_numbers(graph, numbers)  # the node each stored plan move leads to
    v.found(
        "extra plan",
        len(extra),
        [f"{shown_key(f)} has a plan but is no reachable position" for f in extra[:EXAMPLES]],
    )
    wanted = s.present & s.reachable
    missing = np.flatnonzero(wanted & ~has)
    v.found(
        "missing plan",
        len(missing),
        [f"{shown_key(graph.keys[i])} is reachable but has no plan" for i in missing[:EXAMPLES]],
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
            f"{shown_key(graph.keys[i])}: stored plan {_plan(graph, rank[:, i], plan[i])}, "
            f"its moves give {_plan(graph, exp[:, i], exp_plan[i])}"
            for i in bad[:EXAMPLES].tolist()
        ],
    )


def _read_plans(
    conn: Connection, solution_id: int, graph: PositionGraph, s: StoredRows, v: Verdict
) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[str]]:
    """The stored plans aligned with the graph's nodes: which nodes have one, their
    move numbers (`NONE` for none), their three ranks, and the keys of rows that are no
    reachable position."""
    n = graph.size
    reach = np.flatnonzero(s.present & s.reachable)
    has = np.zeros(n, dtype=bool)
    rank = np.zeros((3, n), dtype=np.int64)
    numbers = np.full(n, NONE, dtype=np.int64)
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


def _plan(graph: PositionGraph, rank: np.ndarray, node: int) -> str:
    return f"{tuple(int(x) for x in rank)} to {shown_node(graph, node)}"
