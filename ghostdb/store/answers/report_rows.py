"""A rule set's row of `ghostdb report`, made from its kept figures and both plans from the
start: what `report` reads back, and what working the figures out keeps as the API's
answer (`ghostdb.store.answers.census`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ghostdb.games.base import VALUE_NAMES
from ghostdb.store.answers import kept

if TYPE_CHECKING:
    from ghostdb.records import ReportRow
    from ghostdb.store.answers.handle import Handle
    from ghostdb.store.answers.kept import Census
    from ghostdb.strategies import Strategy


def report_row(
    solution: Handle, body: dict[str, Any], first: Strategy | None, second: Strategy | None
) -> ReportRow:
    """One rule set's report row from its kept figures and both plans from the start."""
    from ghostdb.records import ReportRow

    start = kept.summary_from(body["summary"])
    safe = body["safe_seats"]
    return ReportRow(
        solution.rules,
        start.fragment_count,
        start.outcome,
        start.winner,
        start.game_length,
        outcomes_of(body["census"]),
        first,
        second,
        None if safe is None else tuple(safe),
        tuple(tuple(c) for c in body["census"]),
    )


def outcomes_of(census: Census) -> dict[str, int]:
    """Reachable positions by outcome for the player to move, in outcome-code order."""
    counts = [0] * len(VALUE_NAMES)
    for _level, outcome, _positions, reachable in census:
        counts[VALUE_NAMES.index(outcome)] += reachable
    return {VALUE_NAMES[code]: n for code, n in enumerate(counts) if n}
