"""Many solves in worker processes, scheduled by the memory each is estimated to need.

`solve --all --jobs N` of one name lets each worker check its own share of the memory;
a store of many dictionaries (`ghostdb world`) has solves of every size, from a few
megabytes to gigabytes, so here the parent estimates each solve's peak first (`plan`)
and starts one only while the estimates of those running leave room for it
(`run`): the biggest first, and small ones beside a big one.  What is published already
is left out, so a run that was interrupted resumes where it stopped.  A worker can also
verify what it has just solved (verify needs more memory than the solve: `VERIFY_FACTOR`).
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ghostdb.games.base import SortedWords
from ghostdb.games.registry import game_of, parse_rules
from ghostdb.store import memory
from ghostdb.store import queries as q

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine

    from ghostdb.games.base import RuleSet
    from ghostdb.store.jobs import SolveResult
    from ghostdb.store.verify import Verdict

VERIFY_FACTOR = 2.5
"""Verify's peak against the solve's (measured: Polish SuperDuperGhost/3, 6.7 GB against
2.9 GB), as verify rebuilds the graph and reads every stored row beside it."""

SMALL = 64 * 2**20
"""A solve whose cheap bound is under this is not estimated more closely."""


@dataclass(frozen=True)
class Task:
    """One solve to run: a stored name under a rule set, with its estimated peak."""

    name: str
    rules: RuleSet
    peak: int
    """Bytes at the peak, estimated (verify included when the run verifies)."""


@dataclass(frozen=True)
class Done:
    """A task's end: its solve's result and verdict, or the one-line error it failed with."""

    task: Task
    result: SolveResult | None
    verdict: Verdict | None
    error: str | None
    seconds: float


def budget() -> int:
    """The memory the running tasks may share: what the machine (or its limits) leaves."""
    room = [free for free, _, _ in memory.available()]
    return min(room) if room else 2**62


def plan(
    engine: Engine,
    names: Sequence[str],
    rule_keys: Sequence[str],
    *,
    force: bool = False,
    verify: bool = False,
    share: int = 1,
) -> tuple[list[Task], int]:
    """The solves to run of ``names`` (stored dictionaries) under ``rule_keys``, each with
    its estimated peak (a cheap bound where it is under `SMALL` or within a ``share`` of
    the budget, else the sampled estimate), biggest first; and how many were left out
    as published already (all of them solved again with ``force``)."""
    from ghostdb.store import kept
    from ghostdb.store.reports import SUMMARY

    with engine.connect() as conn:
        rows = q.all_published(conn)
        answered = kept.read_many(conn, [r.id for r in rows], SUMMARY)
        dictionaries = {d.name: d for d in q.all_dictionaries(conn)}
    published = {(r.name, r.rules) for r in rows}
    tasks, skipped = [], 0
    # Published, but its answers not kept (a keep cut short): solving it again is a no-op
    # that keeps them, cheap beside a solve.
    unkept = {(r.name, r.rules) for r in rows if r.id not in answered}
    for name in names:
        for key in rule_keys:
            if not force and (name, key) in unkept:
                tasks.append(Task(name, parse_rules(key), 0))
    room = budget() // max(1, share)
    for name in names:
        wanted = [k for k in rule_keys if force or (name, k) not in published]
        skipped += len(rule_keys) - len(wanted)
        if not wanted:
            continue
        d = dictionaries[name]
        with engine.connect() as conn:
            stored = q.dictionary_words(conn, d.id)
        for key in wanted:
            rules = parse_rules(key)
            words = SortedWords([w for w in stored if len(w) >= rules.min_length], rules.min_length)
            peak = _peak(game_of(rules, d.alphabet), words, room)
            factor = VERIFY_FACTOR if verify else 1.0
            tasks.append(Task(name, rules, int(peak * factor)))
    tasks.sort(key=lambda t: t.peak, reverse=True)
    return tasks, skipped


def _peak(game: object, words: SortedWords, room: int) -> int:
    per = memory.RESIDENT_PER_POSITION
    most = game.positions_at_most(words) or 0  # type: ignore[attr-defined]
    if most * per < min(SMALL, room):
        return most * per
    estimate = game.estimate_positions(words) or most  # type: ignore[attr-defined]
    return min(estimate, most) * per


def run(
    engine: Engine, tasks: Sequence[Task], jobs: int, *, force: bool = False, verify: bool = False
) -> Iterator[Done]:
    """Run ``tasks`` in up to ``jobs`` worker processes writing to the store of
    ``engine``, starting a task only while the estimated peaks of those running leave it
    room (one runs alone whatever its estimate: its own check refuses it if it cannot
    fit); yield each as it ends.  A task that fails is reported, not raised: the others
    go on.  Ctrl-C stops every worker (their jobs end failed, nothing half published)."""
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    url = engine.url.render_as_string(hide_password=False)
    pending = list(tasks)
    room = budget()
    # spawn, not fork: a worker must not inherit this process's open connections.
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max(1, min(jobs, len(pending))), mp_context=context) as pool:
        running: dict[object, tuple[Task, float]] = {}
        try:
            while pending or running:
                while len(running) < jobs:
                    peaks = [task.peak for task, _ in running.values()]
                    task = next_task(pending, peaks, room)
                    if task is None:
                        break
                    pending.remove(task)
                    future = pool.submit(work, url, task.name, task.rules.key, force, verify)
                    running[future] = (task, time.perf_counter())
                finished, _ = wait(list(running), return_when=FIRST_COMPLETED)
                for future in finished:
                    task, started = running.pop(future)
                    yield _ended(future, task, time.perf_counter() - started)
        except BaseException:
            pool.shutdown(wait=True, cancel_futures=True)
            raise


def next_task(pending: Sequence[Task], running: Sequence[int], room: int) -> Task | None:
    """The task to start beside those running (their estimated peaks): the first of
    ``pending`` (biggest first) whose peak fits in ``room`` with theirs; with none running,
    the first whatever its peak."""
    used = sum(running)
    for task in pending:
        if not running or used + task.peak <= room:
            return task
    return None


def _ended(future: object, task: Task, seconds: float) -> Done:
    from ghostdb.errors import GhostdbError
    from ghostdb.store.faults import describe

    try:
        result, verdict = future.result()  # type: ignore[attr-defined]
    except (GhostdbError, MemoryError, OSError) as exc:
        return Done(task, None, None, describe(exc).removeprefix("error: "), seconds)
    return Done(task, result, verdict, None, seconds)


def work(
    url: str, name: str, key: str, force: bool, verify: bool
) -> tuple[SolveResult, Verdict | None]:
    """One task in a worker process: solve (a no-op if published), then verify."""
    from ghostdb.store.jobs import solve_in_worker

    result = solve_in_worker(url, name, key, force, 1)
    if not verify:
        return result, None
    from ghostdb.store.db import open_engine
    from ghostdb.store.verify import verify_store

    engine = open_engine(url)
    try:
        return result, verify_store(engine, name, parse_rules(key), False)[0]
    finally:
        engine.dispose()
