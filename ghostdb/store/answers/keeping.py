"""What a solution keeps when it is published (`keep_solution`: its figures, plans,
openings and puzzles, in one transaction), and each kept question worked out again from
the positions (`work_out`, for `verify`)."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from ghostdb.errors import BadMove
from ghostdb.store.answers import kept
from ghostdb.store.answers.kept import Key

if TYPE_CHECKING:
    from ghostdb.store.answers.handle import Handle

from ghostdb.store.answers.census import work_out_figures
from ghostdb.store.answers.kept import OPENINGS, SUMMARY, Census, plan_question
from ghostdb.store.answers.plans import work_out_openings


def keep_solution(
    solution: Handle,
    census: Census | None = None,
    puzzles: tuple[dict[str, Any], float] | None = None,
) -> float:
    """Work out every answer kept about one solution and keep them in one transaction
    (a solve job calls this as soon as it has published, with the census and puzzles it
    found over its arrays, and the seconds they took); returns the seconds taken."""
    from ghostdb.store.answers.puzzles import PUZZLES

    started = time.perf_counter()
    answers: dict[Key, tuple[Any, float]] = {}
    if puzzles is not None:
        answers[Key(solution.id, PUZZLES)] = puzzles
    plans = None
    if solution.game.keeps_plans:
        from ghostdb.store.answers import plan_walks

        plans = []
        for player in (0, 1):
            t = time.perf_counter()
            plans.append(plan_walks.strategy(solution, player, ""))
            body = plans[-1].as_dict()
            answers[Key(solution.id, plan_question(player))] = (body, time.perf_counter() - t)
        t = time.perf_counter()
        answers[Key(solution.id, OPENINGS)] = (
            work_out_openings(solution),
            time.perf_counter() - t,
        )
    t = time.perf_counter()
    body = work_out_figures(solution, census, plans)
    answers[Key(solution.id, SUMMARY)] = (body, time.perf_counter() - t)
    kept.keep(solution.engine, answers)
    return time.perf_counter() - started


def work_out(solution: Handle, question: str) -> Any:
    """Work out a kept question about one solution again, from its positions (`verify`)."""
    from ghostdb.store.answers import plan_walks

    if question == SUMMARY:
        return work_out_figures(solution)
    if question == OPENINGS:
        return work_out_openings(solution)
    if question.startswith("plan/"):
        return plan_walks.strategy(solution, int(question[5:]), "").as_dict()
    raise BadMove(f"{question!r} is not a question kept about one solution")
