"""Analysis, puzzles and common players on the word list's Ghost/3: `ghostdb analyse` in
a fresh process against `ghostdb lookup`, an analysis and a puzzle over the web API, a
common:50,000 player made and then read from the store, and the share of a solve job
that finding its puzzles takes."""

from __future__ import annotations

import functools
import sqlite3
import statistics
import time
from pathlib import Path
from typing import Any

from .runner import (
    READ_PAIRS,
    SOLVE_TIMEOUT,
    Bench,
    BenchError,
    Row,
    Task,
    at_most,
    child,
    ghostdb,
    ms,
    pct,
    run,
    secs,
    side_by_side,
    times,
)
from .solving import ingest


def learning(bench: Bench) -> list[Row]:
    """Analysis, puzzles and common players on the word list's Ghost/3: `analyse` in a
    fresh process against `lookup`, both side by side; over the API, an analysis and a
    puzzle; a common:50,000 player made the first time."""
    db = bench.fresh_db()
    name, _ = ingest(db, bench.wordlist)
    run(ghostdb("solve", name, "--db", db), SOLVE_TIMEOUT)
    record = _a_whole_game(bench.wordlist)
    analyse = ghostdb("analyse", name, *record, "--db", db)
    lookup = ghostdb("lookup", name, "gho", "--db", db)
    ours, theirs = side_by_side(
        functools.partial(run, analyse), functools.partial(run, lookup), READ_PAIRS
    )
    a = statistics.median(r.seconds for r in ours)
    b = statistics.median(r.seconds for r in theirs)
    note = f"{len(record)} moves: {secs(a)} against {secs(b)}, medians of {READ_PAIRS}"
    rows = [at_most("analyse / lookup, fresh processes", a / b, 1.2, times, note)]
    data, _ = child("learning_api", db, name, ",".join(record))
    rows.append(
        at_most("analyse over the API", data["analyse"], 0.005, ms, f"{len(record)} moves, median")
    )
    rows.append(at_most("a puzzle over the API", data["puzzle"], 0.005, ms, "median"))
    rows.append(at_most("common:50000 player, made the first time", data["common"], 1.0, secs))
    against = ghostdb("lookup", name, "q", "--against", "common:50000", "--db", db)
    with sqlite3.connect(db) as conn:  # the ranking the API child kept: gone again
        conn.execute("DELETE FROM kept_answers WHERE question = 'common words'")
    first = run(against).seconds  # ranks the words and keeps them
    then = statistics.median(run(against).seconds for _ in range(3))
    rows.append(
        at_most(
            "lookup --against common:50000, fresh process, from the store",
            then,
            first,
            secs,
            f"the first (ranked and kept) took {secs(first)}",
        )
    )
    for length in (3, 4):
        data, _ = child("puzzle_share", str(bench.wordlist), str(length))
        note = f"{ms(data['puzzles'])} of the solve job's {secs(data['solve'])}"
        rows.append(
            at_most(
                f"puzzles found, Ghost/{length}: share of the solve", data["share"], 0.1, pct, note
            )
        )
    return rows


def _a_whole_game(wordlist: Path) -> list[str]:
    """A game of 20 moves: the first 20 letters of a word none of whose shorter prefixes
    (of 3 letters or more) is a word, so that no move before the last ends the game."""
    words = set(wordlist.read_text(encoding="utf-8", errors="replace").split())
    for word in sorted(words, key=len, reverse=True):
        if len(word) >= 20 and not any(word[:k] in words for k in range(3, 20)):
            return list(word[:20])
    raise BenchError(f"no word of {wordlist} makes a 20-move game")


# -- the child's side ----------------------------------------------------------------------


def task_puzzle_share(wordlist: str, min_length: str) -> dict[str, float]:
    """A solve job of Ghost/N on a fresh store: its seconds, and those its puzzles took
    (found with word frequencies, kept with them)."""
    import tempfile

    from sqlalchemy import select

    from ghostdb import Rules, open_store
    from ghostdb.store.answers.puzzles import PUZZLES
    from ghostdb.store.sql.schema import kept_answers

    with (
        tempfile.TemporaryDirectory() as folder,
        open_store(f"{folder}/s.db", create=True) as store,
    ):
        name = store.ingest(Path(wordlist)).dictionary.name
        solved = store.solve(name, Rules(min_length=int(min_length)))
        with store.engine.connect() as conn:
            taken = conn.execute(
                select(kept_answers.c.seconds).where(
                    kept_answers.c.solution_id == solved.job_id, kept_answers.c.question == PUZZLES
                )
            ).scalar_one()
    return {"solve": solved.seconds, "puzzles": taken, "share": taken / solved.seconds}


def task_learning_api(db: str, name: str, record: str) -> dict[str, Any]:
    from fastapi.testclient import TestClient

    from ghostdb import open_store
    from ghostdb.web import create_app

    with open_store(db, create=False) as store, TestClient(create_app(store)) as client:

        def median_of(url: str) -> float:
            client.get(url)  # read once: the measure is of an answer, not a cold start
            times = []
            for _ in range(50):
                start = time.perf_counter()
                assert client.get(url).status_code == 200
                times.append(time.perf_counter() - start)
            return statistics.median(times)

        analyse = median_of(f"/api/{name}/analyse?moves={record}")
        puzzle = median_of(f"/api/{name}/puzzle")
        start = time.perf_counter()
        store.solution(name).vocabularies(["common:50000"])
        common = time.perf_counter() - start
    return {"analyse": analyse, "puzzle": puzzle, "common": common}


TASKS: dict[str, Task] = {"learning_api": task_learning_api, "puzzle_share": task_puzzle_share}
