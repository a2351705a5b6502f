"""One solution's headline figures (`ghostdb report`'s rows, the census of positions by
level and outcome), kept when the solution is published and read back after; worked out
by `ghostdb.store.answers.census`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ghostdb.store.answers import kept
from ghostdb.store.answers.census import work_out_figures
from ghostdb.store.answers.kept import SUMMARY, Key, may_compute

if TYPE_CHECKING:
    from ghostdb.records import SolutionSummary
    from ghostdb.store.answers.handle import Handle


def figures(solution: Handle, compute: bool | None = None) -> dict[str, Any]:
    """A solution's kept figures: its summary (`SolutionSummary` as a dict), its
    census, how many outcomes each player's best plan loses, and the start's safe seats."""
    return kept.answer(
        solution.engine,
        Key(solution.id, SUMMARY),
        lambda: work_out_figures(solution),
        compute=may_compute(solution, compute),
        what=f"the report of {solution.name} under {solution.rules.key}",
        command=f"ghostdb report {solution.name}",
    )


def summary(solution: Handle, compute: bool | None = None) -> SolutionSummary:
    """The headline figures of a solution (kept)."""
    return kept.summary_from(figures(solution, compute)["summary"])
