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
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ghostdb import memory
from ghostdb.games.base import SortedWords
from ghostdb.games.registry import game_of, parse_rules
from ghostdb.store.sql import queries as q

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine

    from ghostdb.games.base import RuleSet
    from ghostdb.store.solving.jobs import SolveResult
    from ghostdb.store.verification.solutions import Verdict

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
    keep_only: bool = False
    """Published already, its answers not kept (a keep cut short): the task keeps them."""


@dataclass(frozen=True)
class Done:
    """A task's end: its solve's result and verdict, or the one-line error it failed with."""

    task: Task
    result: SolveResult | None
    verdict: Verdict | None
    error: str | None
    seconds: float


WORKER_DIED = (
    "a worker process was killed (out of memory?) while this ran: run again to retry it "
    "(with --jobs 1 it has all the memory)"
)


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
    as published already (all of them solved again with ``force``).  A published
    solution whose answers are not kept is not left out: its task only keeps them."""
    from ghostdb.store.answers import kept
    from ghostdb.store.answers.kept import SUMMARY

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
                tasks.append(Task(name, parse_rules(key), 0, keep_only=True))
    room = budget() // max(1, share)
    for name in names:
        wanted = [k for k in rule_keys if force or (name, k) not in published]
        skipped += sum(
            1 for k in rule_keys if k not in wanted and (force or (name, k) not in unkept)
        )
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
    engine: Engine,
    tasks: Sequence[Task],
    jobs: int,
    *,
    force: bool = False,
    verify: bool = False,
    progress: Callable[[Task, str, int, int], None] | None = None,
) -> Iterator[Done]:
    """Run ``tasks`` in up to ``jobs`` worker processes writing to the store of
    ``engine``, starting a task only while the estimated peaks of those running leave it
    room (one runs alone whatever its estimate: its own check refuses it if it cannot
    fit); yield each as it ends.  A task that fails is reported, not raised: the others
    go on, in new workers if one was killed (out of memory).  Ctrl-C stops every worker
    (their jobs end failed, nothing half published).  ``progress(task, stage, done,
    total)`` hears each running task's stages (build, solve, write, publish, keep, verify),
    from a thread of this process."""
    from ghostdb.store.solving import workers

    listener = None
    if progress is not None:
        listener = workers.Listener(lambda tag, *report: progress(tasks[tag], *report))
    pending = list(range(len(tasks)))
    try:
        while pending:  # a pool, and a new one if a worker was killed
            yield from _pool_run(engine, tasks, pending, jobs, force, verify, listener)
    finally:
        if listener is not None:
            listener.close()


def _pool_run(
    engine: Engine,
    tasks: Sequence[Task],
    pending: list[int],
    jobs: int,
    force: bool,
    verify: bool,
    listener: Any,
) -> Iterator[Done]:
    """Run the ``pending`` tasks (indices, taken off as they start) in one pool until they
    end or a worker dies (the pool is then broken: the rest wait for the next)."""
    from concurrent.futures import FIRST_COMPLETED, wait
    from concurrent.futures.process import BrokenProcessPool

    from ghostdb.store.solving import workers

    url = engine.url.render_as_string(hide_password=False)
    room = budget()
    reports = listener.reports if listener is not None else None
    pool = workers.pool(min(jobs, len(pending)), reports)
    running: dict[Any, tuple[int, float]] = {}
    try:
        broken = False
        while (pending and not broken) or running:
            while len(running) < jobs and not broken:
                peaks = [tasks[i].peak for i, _ in running.values()]
                chosen = next_task([tasks[i] for i in pending], peaks, room)
                if chosen is None:
                    break
                i = next(i for i in pending if tasks[i] is chosen)
                pending.remove(i)
                future = pool.submit(work, url, chosen.name, chosen.rules.key, force, verify, i)
                running[future] = (i, time.perf_counter())
            finished, _ = wait(list(running), return_when=FIRST_COMPLETED)
            for future in finished:
                i, started = running.pop(future)
                broken = broken or isinstance(future.exception(), BrokenProcessPool)
                yield _ended(future, tasks[i], time.perf_counter() - started)
    except BaseException:
        workers.stop(pool)
        raise
    pool.shutdown(wait=True)


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
    from concurrent.futures.process import BrokenProcessPool

    from ghostdb.errors import GhostdbError
    from ghostdb.store.sql.faults import describe

    try:
        result, verdict = future.result()  # type: ignore[attr-defined]
    except BrokenProcessPool:  # a worker died: the system killed it, for memory most often
        return Done(task, None, None, WORKER_DIED, seconds)
    except (GhostdbError, MemoryError, OSError) as exc:
        return Done(task, None, None, describe(exc).removeprefix("error: "), seconds)
    return Done(task, result, verdict, None, seconds)


def work(
    url: str, name: str, key: str, force: bool, verify: bool, tag: int = 0
) -> tuple[SolveResult, Verdict | None]:
    """One task in a worker process: solve (a no-op if published), then verify; its
    stages reported to the pool's listener under ``tag``."""
    from ghostdb.store.solving import workers
    from ghostdb.store.solving.jobs import solve_in_worker

    report = workers.reporter(tag)
    result = solve_in_worker(url, name, key, force, 1, report)
    if not verify:
        return result, None
    from ghostdb.store.sql.db import open_engine
    from ghostdb.store.verification.solutions import verify_store

    engine = open_engine(url)
    try:
        if report:
            report("verify", 0, 1)
        verdict = verify_store(engine, name, parse_rules(key), False)[0]
        if report:
            report("verify", 1, 1)
        return result, verdict
    finally:
        engine.dispose()
