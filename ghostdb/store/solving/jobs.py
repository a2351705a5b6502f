"""Solve jobs: build a game's positions, solve them, write every one, publish atomically.

A job is a ``solutions`` row.  It is committed as ``running`` first, so a crash leaves a
trace (unless another process held SQLite's write lock just then: the row is committed
with the rows instead, so that the job never waits to start); all positions (with, for
word games, their plans) are then written and the job flipped to ``complete`` in one
transaction, so a reader sees the previous complete solution or the new one, never part
of one.  A job that fails is marked ``failed`` (a killed one is found and marked on the
next solve), and its rows never become visible.
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
import socket
import time
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from sqlalchemy.engine import Engine

from ghostdb import memory
from ghostdb.errors import (
    Interrupted,
    KeepFailed,
    NotSolved,
    SolveFailed,
    UnknownDictionary,
)
from ghostdb.games.base import VALUE_NAMES, Game, PositionGraph, RuleSet, SortedWords
from ghostdb.games.registry import check_rules, game_of, parse_rules, played_as
from ghostdb.records import SolutionInfo
from ghostdb.solvers import SOLVER_VERSION, safety, solve
from ghostdb.solvers.puzzles import puzzles as find_puzzles
from ghostdb.store.answers.dictionaries import dictionary_row
from ghostdb.store.solving import bulk
from ghostdb.store.sql import queries as q
from ghostdb.store.sql.db import WriterBusy, serialise, writing
from ghostdb.store.sql.schema import positions, solutions

# (stage, units done so far, total units) for progress bars.  Stages, in order: "build",
# "solve", "write" (the position rows, with their plans), "publish", "keep" (the
# whole-solution answers, see ghostdb.store.answers.kept).
ProgressFn = Callable[[str, int, int], None]


@dataclass(frozen=True)
class SolveResult:
    job_id: int
    skipped: bool
    """True when the rule set was already solved and nothing was done."""
    fragment_count: int
    reachable_count: int
    word_count: int | None
    seconds: float


def input_sha256(rules: RuleSet, words_sha256: str | None) -> str:
    """What a solution was made from: the word list's hash, or the game's rule key's."""
    if words_sha256 is not None:
        return words_sha256
    return hashlib.sha256(rules.key.encode()).hexdigest()


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def interrupted(job: Any) -> bool:
    """Whether a ``running`` job's process on this host is gone (killed before publishing)."""
    return (
        job.status == "running"
        and job.host == socket.gethostname()
        and job.pid is not None
        and not _pid_alive(job.pid)
    )


def reap_interrupted(engine: Engine) -> int:
    """Mark ``failed`` the running jobs of this host whose process is gone; return how many.

    Looked for first without the write lock, which is usually held by a solve that is
    alive: only a dead job is worth waiting for the lock."""
    with engine.connect() as conn:
        if not any(interrupted(job) for job in q.running_jobs(conn)):
            return 0
    with writing(engine) as conn:
        dead = [job for job in q.running_jobs(conn) if interrupted(job)]
        for job in dead:
            q.update_job(
                conn,
                job.id,
                status="failed",
                finished_at=q.now(),
                error="interrupted: the solving process ended before publishing",
            )
    return len(dead)


@dataclass
class _Subject:
    """What a solve reads before it starts: the game's name, the dictionary's id, hash
    and alphabet (word games), the words to solve with, and the published solution."""

    game: str
    dictionary_id: int | None = None
    words_sha: str | None = None
    alphabet: str = ""
    language: str = ""
    """The language tag given at ingest ('' for none: English): puzzles weigh words by it."""
    words: SortedWords | None = None
    """Let go by `_compute` once the graph is built: a big list's strings are hundreds of
    megabytes that the solve and the write do not need."""
    word_count: int | None = None
    existing: Any = None


@dataclass
class _Solved:
    """A job's computed results, ready to write."""

    graph: PositionGraph
    rows: bulk.Rows
    reachable_count: int
    has_plans: bool
    census: list[list[Any]]
    """Positions by level and outcome (`ghostdb.store.answers.kept.Census`), kept at
    publish."""
    puzzles: tuple[dict[str, Any], float] | None = None
    """Two players: the solution's puzzles (`ghostdb.solvers.puzzles`) and the seconds
    finding them took, kept at publish."""


def run_solve(
    engine: Engine,
    name: str,
    rules: RuleSet,
    *,
    force: bool = False,
    progress: ProgressFn | None = None,
    workers: int = 1,
) -> SolveResult:
    """Solve ``name`` (a dictionary or a game) under ``rules`` and publish the result.

    ``workers``: how many solves run side by side, sharing the machine's memory.
    """
    check_rules(name, rules)
    reap_interrupted(engine)
    subject = _read_subject(engine, name, rules, force)
    existing = subject.existing
    if existing is not None and not force:
        _keep_missing(engine, name, rules, existing.id, progress)  # resumes a keep cut short
        return SolveResult(
            existing.id,
            True,
            existing.fragment_count,
            existing.reachable_count,
            existing.word_count,
            existing.seconds or 0.0,
        )
    # Before anything is written: a solve that cannot fit is refused in one line.
    memory.check(game_of(rules, subject.alphabet), subject.words, name, workers)
    job = {
        "game": subject.game,
        "dictionary_id": subject.dictionary_id,
        "rules": rules.key,
        "status": "running",
        "solver_version": SOLVER_VERSION,
        "input_sha256": input_sha256(rules, subject.words_sha),
        "started_at": q.now(),
        "host": socket.gethostname(),
        "pid": os.getpid(),
    }
    # From here a SIGTERM (a parent stopping its workers) fails the job like Ctrl-C.
    restore = _fail_on_sigterm()
    try:
        job_id = _record(engine, job)
    except BaseException:
        restore()
        raise
    recorded = job_id is not None  # committed already: a failure is marked on it
    started = time.perf_counter()
    try:
        solved = _compute(game_of(rules, subject.alphabet), subject, progress)
        job_id = _publish(engine, name, rules, subject, job, job_id, solved, progress, started)
    except BaseException as exc:
        if recorded:  # a row inserted with the rows was rolled back with them
            _mark_failed(engine, job_id, exc)
        if isinstance(exc, Exception) and not isinstance(exc, NotSolved):
            raise SolveFailed(f"solving {name} ({rules.key}) failed: {exc}") from exc
        if isinstance(exc, KeyboardInterrupt) and not isinstance(exc, Interrupted):
            raise Interrupted("interrupted: nothing was published") from exc
        raise
    finally:
        restore()
    # Published: an interrupted keep loses nothing (`solve` again keeps what is missing,
    # and a request works out what is not kept).
    _keep(engine, name, rules, job_id, solved.census, progress, solved.puzzles)
    seconds = time.perf_counter() - started
    return SolveResult(
        job_id, False, solved.graph.size, solved.reachable_count, subject.word_count, seconds
    )


def _read_subject(engine: Engine, name: str, rules: RuleSet, force: bool) -> _Subject:
    """Read what the solve needs, taking no lock: nothing here waits for another writer.
    The words are read only when there is something to solve."""
    game = played_as(name)
    with engine.connect() as conn:
        subject = _Subject(game.name)
        if game.word_game:
            dictionary = q.dictionary_by_name(conn, name)
            if dictionary is None:
                raise UnknownDictionary.named(name)
            subject.dictionary_id = dictionary.id
            subject.words_sha = dictionary.sha256
            subject.alphabet = dictionary.alphabet
            options = json.loads(dictionary.report).get("options") or {}
            subject.language = options.get("language") or ""
        subject.existing = q.published_solution(conn, game.name, subject.dictionary_id, rules.key)
        if subject.dictionary_id is not None and (subject.existing is None or force):
            subject.words = SortedWords(
                q.dictionary_words(conn, subject.dictionary_id, rules.min_length),
                rules.min_length,
            )
            subject.word_count = len(subject.words)
            if not subject.words:
                raise NotSolved(
                    f"{name} has no word of {rules.min_length} or more letters: "
                    "nothing to solve with that minimum length"
                )
    return subject


def _compute(game: Game, subject: _Subject, progress: ProgressFn | None) -> _Solved:
    """Build the game's graph from the subject's words (taken from it: they go once
    built), solve it (values, safe seats for more than two players, plans where the game
    keeps them) and gather every column to write."""
    if progress:
        progress("build", 0, 1)
    # Read meanwhile, for the puzzles (two players: with more there are none).
    zipfs = _zipfs(game, subject) if game.rules.players == 2 else None
    words, subject.words = subject.words, None
    graph = game.build(words)
    del words
    if progress:
        progress("solve", 0, graph.size)
    done = 0

    def tick(n: int) -> None:
        nonlocal done
        done += n
        if progress:
            progress("solve", min(done, graph.size), graph.size)

    rules = game.rules
    safe = None
    if rules.players > 2:
        values, safe = safety.values(graph, rules.players, rules.misere)
        tick(graph.size)
    else:
        values = solve(graph, tick)
    puzzles = None
    if safe is None:
        started = time.perf_counter()
        found = find_puzzles(graph, values, zipfs)
        puzzles = (found, time.perf_counter() - started)
    # The columns' sources are gathered here; each chunk's Python values are made as it
    # is written (`_chunks`).
    return _Solved(
        graph,
        bulk.position_rows(graph, values, game.keeps_plans, safe),
        int(values.reachable.sum()),
        game.keeps_plans,
        census(graph.level, values.value, values.reachable),
        puzzles,
    )


def _zipfs(game: Game, subject: _Subject) -> Callable[[Collection[str]], dict[str, float]] | None:
    """How common words are, for puzzles' difficulty: a game whose final keys are words,
    in a language wordfreq ranks (see `ghostdb.solvers.puzzles`)."""
    from ghostdb.play.vocabulary import word_zipfs

    return word_zipfs(subject.language) if game.keys_are_words else None


def census(level: np.ndarray, value: np.ndarray, reachable: np.ndarray) -> list[list[Any]]:
    """Positions by level and outcome code, and of them reachable, as
    `ghostdb.store.answers.census.census_of` counts them from the rows (in its order)."""
    kinds = len(VALUE_NAMES)
    code = level.astype(np.int64) * kinds + value
    total = np.bincount(code)
    reached = np.bincount(code, weights=reachable.astype(np.int64))
    return [
        [int(c // kinds), VALUE_NAMES[int(c % kinds)], int(total[c]), int(reached[c])]
        for c in np.flatnonzero(total)
    ]


def _keep(
    engine: Engine,
    name: str,
    rules: RuleSet,
    solution_id: int,
    counted: list[list[Any]] | None,
    progress: ProgressFn | None,
    puzzles: tuple[dict[str, Any], float] | None = None,
) -> None:
    """Keep the whole-solution answers of solution ``solution_id``, just published (see
    `ghostdb.store.answers.kept`), read back through a handle on it as any reader would.  One
    superseded meanwhile (another process solved the rule set again) is left alone: its
    rows are gone, and the solve that superseded it keeps its own answers."""
    from ghostdb.store.answers.handle import Handle
    from ghostdb.store.answers.keeping import keep_solution
    from ghostdb.store.answers.lookups import Lookups

    if progress:
        progress("keep", 0, 1)
    lookups = Lookups(engine)
    try:
        ref = lookups.ref(name, rules)
        if ref.id == solution_id:
            keep_solution(Handle(engine, lookups, name, rules, ref), counted, puzzles)
    except NotSolved:  # superseded, and the new one withdrawn: nothing to keep
        pass
    except Exception as exc:  # the solution stands: say so, and how to finish
        from ghostdb.store.sql.faults import describe

        raise KeepFailed(
            f"{name} is solved and published, but keeping its answers failed: "
            f"{describe(exc).removeprefix('error: ')} — then run `ghostdb solve {name}"
            f"{rules.flags()}` to keep them"
        ) from None  # described above: the CLI would otherwise describe only the cause
    finally:
        lookups.close()
    if progress:
        progress("keep", 1, 1)


def _keep_missing(
    engine: Engine, name: str, rules: RuleSet, solution_id: int, progress: ProgressFn | None
) -> None:
    """Keep a published solution's answers if they are not kept (a keep interrupted, or
    a solution published before answers were kept)."""
    from ghostdb.store.answers import kept
    from ghostdb.store.answers.kept import SUMMARY

    with engine.connect() as conn:
        if kept.read(conn, kept.Key(solution_id, SUMMARY)) is not None:
            return
    _keep(engine, name, rules, solution_id, None, progress)


def _publish(
    engine: Engine,
    name: str,
    rules: RuleSet,
    subject: _Subject,
    job: dict[str, Any],
    job_id: int | None,
    solved: _Solved,
    progress: ProgressFn | None,
    started: float,
) -> int:
    """Write the rows and publish the job in one transaction; return the job's id."""
    with writing(engine) as conn:
        _check_current(conn, name, subject.dictionary_id, subject.words_sha, job_id)
        if job_id is None:
            job_id = q.insert_job(conn, **job)
        bulk.write_rows(conn, solved.rows, solved.graph.size, job_id, progress)
        if progress:
            progress("publish", 0, 1)
        serialise(conn, solutions)  # publishers take turns
        q.supersede(conn, subject.game, subject.dictionary_id, rules.key, keep=job_id)
        q.update_job(
            conn,
            job_id,
            status="complete",
            finished_at=q.now(),
            word_count=subject.word_count,
            fragment_count=solved.graph.size,
            reachable_count=solved.reachable_count,
            seconds=time.perf_counter() - started,
            has_plans=solved.has_plans,
        )
        # The rows of the solution just superseded (and of failed jobs) go in the same
        # transaction: waiting for the lock a second time would hold up this worker.
        q.delete_unpublished_rows(conn, subject.game, subject.dictionary_id, rules.key)
        q.refresh_statistics(conn, positions)
    return job_id


def solve_in_workers(
    engine: Engine, name: str, rule_sets: Sequence[RuleSet], jobs: int, force: bool
) -> Iterator[tuple[RuleSet, SolveResult]]:
    """Solve ``rule_sets`` of ``name`` in ``jobs`` worker processes writing to the store
    of ``engine``; yield each rule set with its result as it finishes, the costliest
    started first."""
    from concurrent.futures import as_completed

    from ghostdb.store.solving import workers as processes

    url = engine.url.render_as_string(hide_password=False)
    order = sorted(rule_sets, key=lambda r: game_of(r).cost(), reverse=True)
    workers = min(jobs, len(order))
    pool = processes.pool(workers)
    try:
        futures = {pool.submit(solve_in_worker, url, name, r.key, force, workers): r for r in order}
        for future in as_completed(futures):
            yield futures[future], future.result()
    except BaseException:
        processes.stop(pool)
        raise
    pool.shutdown(wait=True)


def solve_in_worker(
    url: str,
    name: str,
    key: str,
    force: bool,
    workers: int,
    progress: ProgressFn | None = None,
) -> SolveResult:
    """One rule set solved in a worker process, on an engine of its own, beside
    ``workers`` - 1 others."""
    from ghostdb.store.sql.db import open_engine

    engine = open_engine(url)
    try:
        # On SQLite the workers take turns with the one write lock: one writes while the
        # others build and solve.  (Staging each worker's rows in memory first, to hold
        # the lock briefly, did a sixth more work and held a second copy of the rows.)
        rules = parse_rules(key)
        return run_solve(engine, name, rules, force=force, workers=workers, progress=progress)
    finally:
        engine.dispose()


def job_list(engine: Engine, name: str | None) -> list[SolutionInfo]:
    """Every solve job (of ``name``, if given), oldest first; a job whose process died
    before publishing shows as interrupted."""
    with engine.connect() as conn:
        if name is not None and played_as(name).word_game:
            dictionary_row(conn, name)  # raises UnknownDictionary
        return [_solution_info(r, interrupted(r)) for r in q.job_rows(conn, name)]


def _solution_info(row: Any, interrupted: bool) -> SolutionInfo:
    return SolutionInfo(
        id=row.id,
        name=row.name,
        game=row.game,
        rules=row.rules,
        status="interrupted" if interrupted else row.status,
        started_at=row.started_at,
        finished_at=row.finished_at,
        word_count=row.word_count,
        fragment_count=row.fragment_count,
        reachable_count=row.reachable_count,
        solver_version=row.solver_version,
        seconds=row.seconds,
        has_plans=bool(row.has_plans),
        error=(
            "interrupted: the solving process ended before publishing" if interrupted else row.error
        ),
    )


def _check_current(
    conn: Any, name: str, dictionary_id: int | None, words_sha: str | None, job_id: int | None
) -> None:
    """Under the write lock: the words solved are still the dictionary's, and the job's
    row is still there.  Reading and solving take no lock, and an `ingest --replace`
    meanwhile changes the words and drops the dictionary's jobs."""
    replaced = dictionary_id is not None and q.dictionary_sha256(conn, dictionary_id) != words_sha
    if replaced or (job_id is not None and q.job_status(conn, job_id) != "running"):
        raise NotSolved(
            f"{name} was replaced or its job removed while it was being solved: "
            "nothing was published; solve it again"
        )


def _record(engine: Engine, job: dict[str, Any]) -> int | None:
    """Commit the job's row as ``running`` before the work starts, so that a crash leaves
    a trace, and return its id.  None when another process holds SQLite's write lock:
    the job is then recorded together with its rows, rather than waiting to start (the
    workers of `solve --all --jobs N` would otherwise take turns to compute, not only to
    write)."""
    try:
        with writing(engine, wait=False) as conn:
            return q.insert_job(conn, **job)
    except WriterBusy:
        return None


def _mark_failed(engine: Engine, job_id: int, exc: BaseException) -> None:
    """Record the job as failed, with the one line the user was shown (a driver's error
    as `ghostdb.store.sql.faults.describe` words it, never its SQL and parameters)."""
    from ghostdb.store.sql.faults import describe

    if isinstance(exc, KeyboardInterrupt | SystemExit):
        reason = "interrupted"
    else:
        reason = " ".join(describe(exc).removeprefix("error: ").split())
    with writing(engine) as conn:
        if q.job_status(conn, job_id) == "running":  # not a row that is gone or published
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
