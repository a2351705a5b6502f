"""Reads of the word list's stored solutions over the Python API: whole plans of player 1
(min length 3 and 4), a comparison of the two rule sets, and 1,000 games of self-play."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any

from .runner import Bench, Row, Task, at_most, child, ms, secs


def reads(bench: Bench) -> list[Row]:
    """Whole plans, a comparison and self-play over the stored ENABLE solutions."""
    data, _ = child("reads", bench.enable_db, bench.name)
    rows = [
        at_most(
            f"whole plan, player 1, min length {n} ({words} words)", seconds, 0.1, ms, "median of 5"
        )
        for n, words, seconds in data["plans"]
    ]
    rows.append(at_most("compare min length 3 with 4", data["compare"], 2.0, secs, "median of 3"))
    label = f"selfplay, 1,000 optimal games ({data['moves']:,} moves)"
    rows.append(at_most(label, data["selfplay"], 10.0, secs))
    return rows


# -- the child's side ----------------------------------------------------------------------


def task_reads(db: str, name: str) -> dict[str, Any]:
    from ghostdb import Rules, open_store

    def median_time(fn: Callable[[], object], runs: int) -> float:
        fn()
        spent = []
        for _ in range(runs):
            start = time.perf_counter()
            fn()
            spent.append(time.perf_counter() - start)
        return statistics.median(spent)

    three, four = Rules(min_length=3), Rules(min_length=4)
    with open_store(db, create=False) as store:
        store.solve(name, four)
        plans = []
        for rules in (three, four):
            solution = store.solution(name, rules)
            size = len(solution.strategy(1).endings)
            seconds = median_time(lambda s=solution: s.strategy(1), 5)
            plans.append((rules.min_length, size, seconds))
        compare = median_time(lambda: store.compare(name, rules=three, vs_rules=four), 3)
        start = time.perf_counter()
        report = store.solution(name, three).selfplay("optimal,optimal", games=1000, seed=0)
        selfplay = time.perf_counter() - start
    moves = sum(len(word) * n for word, n in report.final_words.items())
    return {"plans": plans, "compare": compare, "selfplay": selfplay, "moves": moves}


TASKS: dict[str, Task] = {"reads": task_reads}
