"""The world store (`ghostdb world --jobs 2`, the shared lists added) on SQLite and on a
PostgreSQL server: its build + verify time, the machine's peak memory in use, its size,
and the survey of it against a lookup."""

from __future__ import annotations

import statistics
import threading
from pathlib import Path
from typing import Any

from .runner import (
    READ_PAIRS,
    SHARED,
    SHARED_LISTS,
    Bench,
    Row,
    Task,
    at_most,
    child,
    ghostdb,
    mb,
    measure,
    run,
    secs,
    side_by_side,
    times,
)

WORLD_DATABASE = "ghostdb_bench_world"
"""The database the world store is built in on a PostgreSQL server (made anew)."""


def used_memory() -> int:
    """Bytes in use on the machine now (MemTotal - MemAvailable), to follow the memory
    of a command whose worker processes the command's own rusage does not add up."""
    fields = {}
    for line in Path("/proc/meminfo").read_text().splitlines():
        key, value = line.split(":", 1)
        fields[key] = int(value.split()[0]) * 1024
    return fields["MemTotal"] - fields["MemAvailable"]


def world_store(bench: Bench, server: str | None = None) -> list[Row]:
    """`ghostdb world --jobs 2` with the four shared lists added: every Debian list
    installed under five rule sets, each verified, in a fresh store (SQLite, or a new
    database on the PostgreSQL ``server``); the machine's memory in use sampled every half
    second (the workers are separate processes, and so is the server); then the survey of
    the whole store in a fresh process against `ghostdb lookup`."""
    lists, _ = child("world_lists")
    present, absent = lists["present"], lists["absent"]
    db, where = (bench.fresh_db(), "") if server is None else (fresh_server_db(server), "PG ")
    shared = [SHARED / "wordlists" / f for f in SHARED_LISTS]
    added = [a for path in shared if path.is_file() for a in ("--add", str(path))]
    base, peak, stop = used_memory(), [0], threading.Event()

    def sample() -> None:
        while not stop.wait(0.5):
            peak[0] = max(peak[0], used_memory() - base)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    try:
        done = run(ghostdb("world", "--jobs", "2", *added, "--db", db, "-q"), 3 * 3600)
    finally:
        stop.set()
        sampler.join()
    note = f"{present + len(added) // 2} lists x 5 rule sets, verified; " + (
        f"not installed: {' '.join(absent)}" if absent else "every Debian list"
    )
    size = child("db_size", db)[0]["bytes"] / 2**30
    rows = [
        at_most(f"{where}world store: build + verify, --jobs 2", done.seconds, 1800.0, secs, note),
        at_most(
            f"{where}world store: peak memory in use",
            peak[0] / 2**20,
            20_000,
            mb,
            f"{size:.1f} GB stored",
        ),
    ]
    ours, base_runs = side_by_side(
        lambda: run(ghostdb("survey", "--db", db)),
        lambda: run(ghostdb("lookup", "polish", "--db", db)),
        READ_PAIRS,
    )
    a = statistics.median(r.seconds for r in ours)
    b = statistics.median(r.seconds for r in base_runs)
    note = f"{secs(a)} against {secs(b)}, medians of {READ_PAIRS}"
    rows.append(at_most(f"{where}world store: survey (kept) / lookup", a / b, 1.3, times, note))
    return rows


def world_rows(bench: Bench, server: str | None, *, sqlite: bool = True) -> list[Row]:
    """The world store on SQLite, and on the PostgreSQL ``server`` if given."""
    rows = measure("the world store", lambda: world_store(bench)) if sqlite else []
    if server:
        rows += measure("the world store on PostgreSQL", lambda: world_store(bench, server))
    return rows


def fresh_server_db(url: str) -> str:
    """A new, empty database `WORLD_DATABASE` on the server of ``url``; its URL."""
    return child("fresh_server_db", url)[0]["url"]


# -- the child's side ----------------------------------------------------------------------


def task_world_lists() -> dict[str, Any]:
    """How many of the world's Debian lists are installed, and the packages missing."""
    from ghostdb.world import DEBIAN_LISTS, DICT_DIR

    present = [e for e in DEBIAN_LISTS if (DICT_DIR / e.file).is_file()]
    missing = {e.package for e in DEBIAN_LISTS} - {e.package for e in present}
    return {"present": len(present), "absent": sorted(missing)}


def task_fresh_server_db(url: str) -> dict[str, Any]:
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    engine = create_engine(url, isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.execute(text(f"DROP DATABASE IF EXISTS {WORLD_DATABASE}"))
        conn.execute(text(f"CREATE DATABASE {WORLD_DATABASE}"))
    engine.dispose()
    made = make_url(url).set(database=WORLD_DATABASE)
    return {"url": made.render_as_string(hide_password=False)}


def task_db_size(url: str) -> dict[str, Any]:
    """The bytes a store takes: its SQLite file, or its PostgreSQL database."""
    from sqlalchemy import create_engine, text

    if "://" not in url:
        return {"bytes": Path(url).stat().st_size}
    engine = create_engine(url)
    with engine.connect() as conn:
        size = conn.execute(text("SELECT pg_database_size(current_database())")).scalar_one()
    engine.dispose()
    return {"bytes": int(size)}


TASKS: dict[str, Task] = {
    "world_lists": task_world_lists,
    "fresh_server_db": task_fresh_server_db,
    "db_size": task_db_size,
}
