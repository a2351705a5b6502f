"""What the areas share to make a solution to measure: a list ingested, then solved, each
in a child process, and the child tasks that do it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .runner import SOLVE_TIMEOUT, Bench, Solved, Task, child, list_name


def ingest(db: str, path: Path) -> tuple[str, int]:
    """Store ``path`` in ``db``: the dictionary's name (on a server, identical content may
    already be stored under another) and its word count."""
    data, _ = child("ingest", db, path, list_name(path))
    return data["name"], data["words"]


def solve_list(
    bench: Bench, path: Path, key: str, db: str | None = None, *, drop: bool = False
) -> Solved:
    """Ingest ``path`` into a fresh database (or ``db``) and solve it in a child process;
    ``drop``: delete the fresh database once measured (a big list's takes gigabytes)."""
    if db is None and (path, key) in bench.solved:
        return bench.solved[(path, key)]
    target = db or bench.fresh_db()
    try:
        name, words = ingest(target, path)
        data, done = child("solve", target, name, key, timeout=SOLVE_TIMEOUT)
        files = [Path(target + suffix) for suffix in ("", "-wal")]
        db_mb = sum(f.stat().st_size for f in files if f.is_file()) / 2**20
    finally:
        if drop and db is None:
            for suffix in ("", "-wal", "-shm"):
                Path(target + suffix).unlink(missing_ok=True)
    result = Solved(
        name, words, data["positions"], data["seconds"], done.seconds, done.peak_mb, db_mb
    )
    bench.solved[(path, key)] = result  # (also in a given database: later rows read it)
    return result


# -- the child's side ----------------------------------------------------------------------


def rules_of(key: str) -> Any:
    from ghostdb.games.registry import parse_rules

    return parse_rules(key)


def task_ingest(db: str, path: str, name: str) -> dict[str, Any]:
    from ghostdb import open_store

    with open_store(db, create=True) as store:
        info = store.ingest(path, name=name).dictionary
    return {"name": info.name, "words": info.word_count}


def task_solve(db: str, name: str, key: str) -> dict[str, Any]:
    from ghostdb import open_store

    with open_store(db, create=True) as store:
        result = store.solve(name, rules_of(key), force=True)
    return {"positions": result.fragment_count, "seconds": result.seconds}


TASKS: dict[str, Task] = {"ingest": task_ingest, "solve": task_solve}
