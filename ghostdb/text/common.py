"""What every renderer shares: JSON, aligned tables and the words for players and results.

Pure: values in, strings out.  Text is plain (no colour codes), so it reads the same on a
terminal, in a pipe and in a test.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from ghostdb.values import Outcome


def to_json(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False, default=str)


def table(
    headers: Sequence[str], rows: Sequence[Sequence[Any]], *, right: Sequence[int] = ()
) -> str:
    """A plain aligned table; columns listed in ``right`` are right-aligned."""
    cells = [[str(h) for h in headers]] + [["" if c is None else str(c) for c in r] for r in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]

    def line(row: list[str]) -> str:
        parts = [
            cell.rjust(w) if i in right else cell.ljust(w)
            for i, (cell, w) in enumerate(zip(row, widths, strict=True))
        ]
        return "  ".join(parts).rstrip()

    return "\n".join([line(cells[0]), line(["-" * w for w in widths]), *map(line, cells[1:])])


def label(fragment: str) -> str:
    """A fragment as shown to people: ``(start)`` for the empty one."""
    return fragment or "(start)"


def moves_left(n: int | None) -> str:
    if n is None:
        return "no end (a draw)"
    return "game over" if n == 0 else f"{n} more move{'s' if n != 1 else ''}"


VERBS = {Outcome.WIN: "wins", Outcome.LOSS: "loses", Outcome.TIE: "ties", Outcome.DRAW: "draws"}
CATEGORY_VERBS = {"win": "wins", "loss": "loses", "tie": "ties", "draw": "draws"}


def mover(to_move: int | None) -> str:
    return "the player to move" if to_move is None else f"player {to_move}"


def for_mover(to_move: int | None) -> str:
    return "for the mover" if to_move is None else f"for player {to_move}"


def seat_list(seats: Sequence[int] | None) -> str:
    """Seat numbers, e.g. ``0, 2`` (``none`` for none)."""
    return ", ".join(map(str, seats or ())) or "none"


def count(n: int | None) -> str:
    """A figure with thousands separators; ``-`` where there is none."""
    return "-" if n is None else f"{n:,}"
