"""Lookups of the word list's stored Ghost/3: the Python API's rate one at a time and a
thousand at a time, and the start-up of `ghostdb lookup NAME gho` as a fresh process
side by side with a bare Python process that opens an SQLAlchemy engine on the file and
reads the same row (the start-up ratio; alone: `--only startup`)."""

from __future__ import annotations

import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from typing import Any

from .runner import (
    GHOST,
    Bench,
    Row,
    Run,
    Task,
    at_least,
    child,
    ghostdb,
    rate,
    run,
    side_by_side,
    times,
    versus,
)
from .solving import solve_list

LOOKUP_PAIRS = 21  # a fresh process varies by a tenth: the start-up ratio's median of more
STARTUP_TARGET = 1.15  # issue #45: `ghostdb lookup` at most 1.15 x the bare read
STARTUP_FRAGMENT = "gho"

BARE_READ = """\
import sys
from sqlalchemy import create_engine, text
db, solution, fragment = sys.argv[1:]
engine = create_engine(f"sqlite:///{db}")
with engine.connect() as conn:
    row = conn.execute(
        text("SELECT * FROM positions WHERE solution_id = :s AND level = :l AND fragment = :f"),
        {"s": int(solution), "l": len(fragment), "f": fragment},
    ).first()
sys.exit(row is None)
"""
"""The floor of a lookup: SQLAlchemy imported, an engine made on the file, the position's
row read by its whole primary key (in plain Ghost a fragment's level is its length).  The
baseline before read by (solution, fragment) with sqlite3 alone: without the level
SQLite scans the solution's part of the key, 29 ms on ENABLE, a tenth of the process."""


def api_lookups(bench: Bench, db: str, name: str, label: str, limit: float) -> list[Row]:
    """Lookups of random reachable fragments (with their plays) through the Python API:
    one at a time (`Solution.lookup`) and a thousand at a time (`Solution.lookup_many`),
    both against ``limit``."""
    data, _ = child("lookups", db, name, bench.lookups)
    note = (
        f"median of 3 rounds of {bench.lookups:,} random fragments "
        f"of {data['reachable']:,} reachable"
    )
    rows = [
        at_least(f"{label}, one at a time", data["rate"], limit, rate, note),
        at_least(f"{label}, 1,000 at a time", data["batch_rate"], limit, rate, "lookup_many"),
    ]
    if "round_trip" in data:
        rows.append(Row(f"{label}: one round trip (SELECT 1)", rate(data["round_trip"])))
    return rows


def lookups(bench: Bench) -> list[Row]:
    """The API's rate, and the command's start-up against a bare Python process."""
    return [
        *api_lookups(
            bench,
            bench.enable_db,
            bench.name,
            f"{bench.name} lookups through the Python API",
            100_000,
        ),
        *startup_rows(bench.enable_db, bench.name),
    ]


def startup(bench: Bench) -> list[Row]:
    """`--only startup`: the word list solved for Ghost/3, then the start-up ratio."""
    if not bench.enable_db:
        bench.enable_db = bench.fresh_db()
        solve_list(bench, bench.wordlist, GHOST, bench.enable_db)
    return startup_rows(bench.enable_db, bench.name)


def startup_rows(db: str, name: str) -> list[Row]:
    """`ghostdb lookup NAME gho` as a fresh process against `BARE_READ` of the same row,
    alternating which goes first, median of `LOOKUP_PAIRS` pairs, beside `STARTUP_TARGET`;
    the note gives the ratio of their CPU times too (steadier on a busy machine), and
    with valgrind installed a row gives the ratio of the instructions each runs, which
    the machine's load does not move."""
    solution = str(child("solution", db, name, GHOST)[0]["id"])
    ours = ghostdb("lookup", name, STARTUP_FRAGMENT, "--db", db)
    theirs = [sys.executable, "-c", BARE_READ, db, solution, STARTUP_FRAGMENT]
    a, b = side_by_side(lambda: run(ours), lambda: run(theirs), LOOKUP_PAIRS)
    title = f"`ghostdb lookup {name} {STARTUP_FRAGMENT}`"
    rows = versus(
        title,
        ("a fresh process", a),
        ("bare Python: an SQLAlchemy engine reads the row", b),
        STARTUP_TARGET,
        f"CPU time {times(_cpu(a) / _cpu(b))} (medians {_cpu(a):.2f} s / {_cpu(b):.2f} s)",
    )
    counted = [instructions(ours), instructions(theirs)]
    if None in counted:
        rows.append(Row(f"{title}: instructions, ratio", note="not counted: no valgrind"))
    else:
        mine, bare = (n / 1e6 for n in counted if n is not None)
        note = f"{mine:,.0f} M / {bare:,.0f} M instructions (valgrind --tool=callgrind)"
        rows.append(Row(f"{title}: instructions, ratio", times(mine / bare), note=note))
    return rows


def instructions(cmd: list[str]) -> int | None:
    """The instructions ``cmd`` runs, counted by valgrind's callgrind (about 50 times
    slower than the command); None without valgrind.  String hashing is seeded, so that
    the count is the same from run to run."""
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        return None
    proc = subprocess.run(
        [valgrind, "--tool=callgrind", "--callgrind-out-file=/dev/null", *cmd],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONHASHSEED": "0"},
        timeout=300,
        check=True,
    )
    found = re.search(r"Collected : (\d+)", proc.stderr)
    return int(found[1]) if found else None


def _cpu(runs: list[Run]) -> float:
    return statistics.median(r.cpu for r in runs)


# -- the child's side ----------------------------------------------------------------------


def task_solution(db: str, name: str, key: str) -> dict[str, Any]:
    from ghostdb import open_store

    with open_store(db, create=False) as store:
        (info,) = (s for s in store.solutions(name) if s.rules == key and s.status == "complete")
    return {"id": info.id}


def task_lookups(db: str, name: str, count: str) -> dict[str, Any]:
    """Random reachable fragments: prefixes of game words up to the first word they hold."""
    import random

    from ghostdb import Rules, open_store

    rules = Rules()
    with open_store(db, create=False) as store:
        words = set(store.words(name, rules.min_length))
        reachable = set()
        for word in words:
            for end in range(len(word) + 1):
                reachable.add(word[:end])
                if word[:end] in words:
                    break
        sample = random.Random(0).choices(sorted(reachable), k=int(count))
        solution = store.solution(name, rules)
        solution.lookup()  # the one warm-up
        rates, batch_rates = [], []
        for _ in range(3):
            start = time.perf_counter()
            for fragment in sample:
                solution.lookup(fragment)
            rates.append(len(sample) / (time.perf_counter() - start))
            start = time.perf_counter()
            for lo in range(0, len(sample), 1000):
                solution.lookup_many(sample[lo : lo + 1000])
            batch_rates.append(len(sample) / (time.perf_counter() - start))
        found = {
            "rate": statistics.median(rates),
            "batch_rate": statistics.median(batch_rates),
            "reachable": len(reachable),
        }
        if store.engine.dialect.name == "postgresql":  # what one lookup cannot beat
            with store.engine.connect() as conn:
                driver = conn.connection.driver_connection
                start = time.perf_counter()
                for _ in range(20_000):
                    driver.execute("SELECT 1").fetchall()
                found["round_trip"] = 20_000 / (time.perf_counter() - start)
    return found


TASKS: dict[str, Task] = {"solution": task_solution, "lookups": task_lookups}
