"""Decisive words on the word list's stored solutions: Ghost/3 with TWL06 as the pool
(every single deletion and addition, the fewest edits, the kept answer read again), and
SuperDuperGhost/3's single deletions."""

from __future__ import annotations

import statistics
import time
from typing import Any

from .runner import SHARED, Bench, Row, Task, at_most, child, mb, ms, secs
from .solving import ingest, rules_of


def decisive(bench: Bench) -> list[Row]:
    """Decisive words on the stored ENABLE solutions: Ghost/3 with TWL06 as the pool
    (worked out, then read back), and SuperDuperGhost/3's single deletions."""
    pool = SHARED / "wordlists" / "twl06.txt"
    pool_name, _ = ingest(bench.enable_db, pool)
    data, _ = child("decisive", bench.enable_db, bench.name, pool_name)
    name, n = bench.name, data["words"]
    rows = [
        at_most(
            f"{name} Ghost/3: every single deletion ({n:,}) and {pool_name} addition "
            f"({data['pool']:,})",
            data["singles"],
            3.0,
            secs,
            f"reading the stored rows {secs(data['read'])} of it; "
            f"{data['flips']} change the winner",
        ),
        at_most(f"{name} Ghost/3: the fewest edits, exact", data["fewest"], 1.0, secs),
        at_most(
            f"{name} Ghost/3: decisive words kept, read again",
            data["kept"],
            0.05,
            ms,
            f"median of 5; worked out and kept in {secs(data['first'])}",
        ),
    ]
    if bench.duper_db:
        data, done = child("duper_decisive", bench.duper_db, bench.name)
        rows.append(
            at_most(
                f"{name} SuperDuperGhost/3: every single deletion ({data['words']:,})",
                data["singles"],
                60.0,
                secs,
                f"peak memory {mb(done.peak_mb)}; the fewest (a bound, "
                f"{data['fewest']}) {secs(data['bound'])}",
            )
        )
    return rows


# -- the child's side ----------------------------------------------------------------------


def task_decisive(db: str, name: str, pool: str) -> dict[str, Any]:
    """Decisive words of Ghost/3: each step timed, then the whole first request (worked
    out and kept), then the kept answer read back."""
    from ghostdb import Rules, open_store
    from ghostdb.store.answers import decisive, dictionaries

    with open_store(db, create=False) as store:
        solution = store.solution(name, Rules(min_length=3))
        start = time.perf_counter()
        words = dictionaries.words(solution.engine, name, 3)
        pool_words = dictionaries.words(solution.engine, pool, 3)
        values = decisive.values(solution)
        read = time.perf_counter() - start
        decider = solution.game.decider(words, values)
        flips = decider.single_deletions("") + decider.single_additions("", pool_words)
        singles = time.perf_counter() - start
        start = time.perf_counter()
        decider.fewest("", pool_words)
        fewest = time.perf_counter() - start
        start = time.perf_counter()
        solution.decisive("", pool)
        first = time.perf_counter() - start
        spent = []
        for _ in range(5):
            start = time.perf_counter()
            solution.decisive("", pool, compute=False)
            spent.append(time.perf_counter() - start)
    return {
        "words": len(words),
        "pool": len(set(pool_words) - set(words)),
        "read": read,
        "singles": singles,
        "flips": len(flips),
        "fewest": fewest,
        "first": first,
        "kept": statistics.median(spent),
    }


def task_duper_decisive(db: str, name: str) -> dict[str, Any]:
    """SuperDuperGhost/3's single deletions at the start, from the stored rows read."""
    from ghostdb import open_store
    from ghostdb.store.answers import decisive, dictionaries

    with open_store(db, create=False) as store:
        solution = store.solution(name, rules_of("superduper/3"))
        start = time.perf_counter()
        words = dictionaries.words(solution.engine, name, 3)
        decider = solution.game.decider(words, decisive.values(solution))
        decider.single_deletions("")
        singles = time.perf_counter() - start
        start = time.perf_counter()
        bound = decider.fewest("")
        seconds = time.perf_counter() - start
    return {
        "words": len(words),
        "singles": singles,
        "bound": seconds,
        "fewest": f"at most {bound.count}" if bound.count else "none found",
    }


TASKS: dict[str, Task] = {"decisive": task_decisive, "duper_decisive": task_duper_decisive}
