"""Solve jobs: read a stored dictionary, solve it, write every position, publish atomically.

A job is a ``solutions`` row.  It is committed as ``running`` first, so a crash leaves a
trace; all positions and plans are then written and the job flipped to ``complete`` in
one transaction, so a reader sees the previous complete solution or the new one, never
part of one.  A job that fails is marked ``failed`` (a killed one is found and marked on
the next solve), and its rows never become visible.
"""

from __future__ import annotations

import os
import signal
import socket
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import repeat
from typing import Any

import numpy as np
from sqlalchemy.engine import Engine

from ghostdb import queries as q
from ghostdb.db import serialise, writing
from ghostdb.errors import Interrupted, NotSolved, SolveFailed, UnknownDictionary
from ghostdb.graph import Graph, build_graph
from ghostdb.rules import Rules
from ghostdb.schema import plans, positions, solutions
from ghostdb.solver import SOLVER_VERSION, Solved, solve

# (stage, units done so far, total units) for progress bars.
ProgressFn = Callable[[str, int, int], None]

CHUNK_ROWS = 50_000

POSITION_COLUMNS = (
    "solution_id",
    "fragment",
    "reachable",
    "outcome",
    "game_length",
    "best_next",
    "winning_moves",
)
PLAN_COLUMNS = (
    "solution_id",
    "fragment",
    "plan_next",
    "mover_lossiness",
    "mover_outcomes",
    "mover_letters",
    "waiter_lossiness",
    "waiter_outcomes",
    "waiter_letters",
)


@dataclass(frozen=True)
class SolveResult:
    job_id: int
    skipped: bool
    """True when the rule set was already solved and nothing was done."""
    fragment_count: int
    reachable_count: int
    word_count: int
    seconds: float


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def reap_interrupted(engine: Engine) -> int:
    """Mark ``failed`` the running jobs of this host whose process is gone; return how many."""
    host = socket.gethostname()
    with writing(engine) as conn:
        dead = [
            job
            for job in q.running_jobs(conn)
            if job.host == host and job.pid is not None and not _pid_alive(job.pid)
        ]
        for job in dead:
            q.update_job(
                conn,
                job.id,
                status="failed",
                finished_at=q.now(),
                error="interrupted: the solving process ended before publishing",
            )
    return len(dead)


def run_solve(
    engine: Engine,
    name: str,
    rules: Rules,
    *,
    force: bool = False,
    progress: ProgressFn | None = None,
) -> SolveResult:
    """Solve dictionary ``name`` under ``rules`` and publish the result (see module doc)."""
    reap_interrupted(engine)
    with writing(engine) as conn:
        dictionary = q.dictionary_by_name(conn, name)
        if dictionary is None:
            raise UnknownDictionary.named(name)
        existing = q.published_solution(conn, dictionary.id, rules)
        if existing is not None and not force:
            return SolveResult(
                existing.id,
                True,
                existing.fragment_count,
                existing.reachable_count,
                existing.word_count,
                existing.seconds or 0.0,
            )
        job_id = q.insert_job(
            conn,
            dictionary_id=dictionary.id,
            rules=rules.variant.value,
            min_length=rules.min_length,
            misere=rules.misere,
            status="running",
            solver_version=SOLVER_VERSION,
            started_at=q.now(),
            host=socket.gethostname(),
            pid=os.getpid(),
        )
        all_words = q.dictionary_words(conn, dictionary.id, rules.min_length)

    started = time.perf_counter()
    restore = _fail_on_sigterm()
    try:
        if not all_words:
            raise NotSolved(
                f"{name} has no word of {rules.min_length} or more letters: "
                "nothing to solve with that minimum length"
            )
        graph = build_graph(all_words, rules)
        if progress:
            progress("solve", 0, graph.size)
        done = 0

        def tick(n: int) -> None:
            nonlocal done
            done += n
            if progress:
                progress("solve", done, graph.size)

        solved = solve(graph, misere=rules.misere, progress=tick)
        reachable_count = int(solved.reachable.sum())
        with writing(engine) as conn:
            written = 0
            total = graph.size + reachable_count
            for table, columns, chunk in _rows(job_id, graph, solved):
                q.bulk_insert(conn, table, columns, chunk)
                written += len(chunk)
                if progress:
                    progress("write", written, total)
            serialise(conn, solutions)  # publishers take turns
            q.supersede(conn, dictionary.id, rules, keep=job_id)
            q.update_job(
                conn,
                job_id,
                status="complete",
                finished_at=q.now(),
                word_count=len(all_words),
                fragment_count=graph.size,
                reachable_count=reachable_count,
                seconds=time.perf_counter() - started,
                has_plans=True,
            )
    except BaseException as exc:
        _mark_failed(engine, job_id, exc)
        if isinstance(exc, Exception) and not isinstance(exc, NotSolved):
            raise SolveFailed(f"solving {name} ({rules.key}) failed: {exc}") from exc
        if isinstance(exc, KeyboardInterrupt) and not isinstance(exc, Interrupted):
            raise Interrupted("interrupted: nothing was published") from exc
        raise
    finally:
        restore()
    seconds = time.perf_counter() - started
    with writing(engine) as conn:
        q.delete_unpublished_rows(conn, dictionary.id, rules)
        q.refresh_statistics(conn, positions, plans)
    return SolveResult(job_id, False, graph.size, reachable_count, len(all_words), seconds)


def _mark_failed(engine: Engine, job_id: int, exc: BaseException) -> None:
    reason = "interrupted" if isinstance(exc, KeyboardInterrupt | SystemExit) else str(exc)
    with writing(engine) as conn:
        q.update_job(
            conn,
            job_id,
            status="failed",
            finished_at=q.now(),
            error=reason or type(exc).__name__,
        )


def _fail_on_sigterm() -> Callable[[], None]:
    """Turn SIGTERM into KeyboardInterrupt while a job runs, so it is marked failed."""

    def handler(_signum: int, _frame: Any) -> None:
        raise KeyboardInterrupt

    try:
        previous = signal.signal(signal.SIGTERM, handler)
    except ValueError:  # not the main thread: leave signals alone
        return lambda: None
    return lambda: signal.signal(signal.SIGTERM, previous)


def _rows(job_id: int, graph: Graph, s: Solved) -> Iterator[tuple[Any, tuple[str, ...], list]]:
    """(table, columns, rows): position rows, then plan rows, in key order and in chunks.

    Built from whole-array ``tolist`` calls and shared string objects: the per-row
    Python work, not SQLite, bounds the write speed.
    """
    fragments = graph.fragments
    names = ("loss", "win")
    position_columns = [
        fragments,
        s.reachable.tolist(),
        [names[w] for w in s.win.tolist()],
        s.length.tolist(),
        [fragments[b] if b >= 0 else None for b in s.best.tolist()],
        s.winning_moves.tolist(),
    ]
    yield from _chunks(job_id, positions, POSITION_COLUMNS, position_columns)
    reach = np.flatnonzero(s.reachable)
    plan_columns = [
        [fragments[i] for i in reach.tolist()],
        [fragments[b] if b >= 0 else None for b in s.plan[reach].tolist()],
        s.mover_lossiness[reach].tolist(),
        s.mover_outcomes[reach].tolist(),
        s.mover_letters[reach].tolist(),
        s.waiter_lossiness[reach].tolist(),
        s.waiter_outcomes[reach].tolist(),
        s.waiter_letters[reach].tolist(),
    ]
    yield from _chunks(job_id, plans, PLAN_COLUMNS, plan_columns)


def _chunks(
    job_id: int, table: Any, names: tuple[str, ...], columns: list[list[Any]]
) -> Iterator[tuple[Any, tuple[str, ...], list]]:
    n = len(columns[0])
    for lo in range(0, n, CHUNK_ROWS):
        hi = min(lo + CHUNK_ROWS, n)
        yield (
            table,
            names,
            list(zip(repeat(job_id, hi - lo), *(c[lo:hi] for c in columns), strict=True)),
        )
