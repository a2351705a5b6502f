"""What every renderer shares: JSON, aligned tables and the words for players and results.

Pure: values in, strings out.  Text is plain but for the values in tables, which carry
ANSI colour codes; whoever prints it keeps them only on a terminal without NO_COLOR
(`colour_wanted`), so it reads the same in a pipe and in a test.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from ghostdb.values import Outcome


def to_json(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False, default=str)


def to_csv(rows: Sequence[dict[str, Any]]) -> str:
    """Rows as CSV: a header of every key (in first-seen order), then a line a row; a
    list or an object in a cell is written as its JSON."""
    import csv
    import io

    columns = list(dict.fromkeys(key for row in rows for key in row))
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    for row in rows:
        writer.writerow([_cell(row.get(key)) for key in columns])
    return out.getvalue().rstrip("\n")


def to_lines(rows: Sequence[dict[str, Any]]) -> str:
    """Rows as newline-delimited JSON: one compact object a line."""
    return "\n".join(json.dumps(row, ensure_ascii=False, default=str) for row in rows)


def _cell(value: Any) -> Any:
    if isinstance(value, (dict, list, tuple)):
        return json.dumps(value, ensure_ascii=False, default=str)
    return "" if value is None else value


def table(
    headers: Sequence[str], rows: Sequence[Sequence[Any]], *, right: Sequence[int] = ()
) -> str:
    """A plain aligned table; columns listed in ``right`` are right-aligned."""
    cells = [[str(h) for h in headers]] + [["" if c is None else str(c) for c in r] for r in rows]
    widths = [max(shown_len(row[i]) for row in cells) for i in range(len(headers))]

    def line(row: list[str]) -> str:
        parts = []
        for i, (cell, w) in enumerate(zip(row, widths, strict=True)):
            pad = " " * (w - shown_len(cell))  # colour codes take no room on the screen
            parts.append(pad + cell if i in right else cell + pad)
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
_ANSI = re.compile(r"\x1b\[[0-9;]*m")
CATEGORY_COLOURS = {"win": "34", "loss": "31", "tie": "90", "draw": "33"}
"""ANSI colours of the values in tables, as the page's (blue, vermillion, grey, yellow).
The command line strips them where the output is no terminal or NO_COLOR is set."""


def shown_len(text: str) -> int:
    """The width of ``text`` on a terminal: its colour codes take none."""
    return len(_ANSI.sub("", text)) if "\x1b" in text else len(text)


def without_colour(text: str) -> str:
    return _ANSI.sub("", text)


def colour_wanted(stream: Any) -> bool:
    """Whether to keep colour codes on ``stream``: a terminal, and NO_COLOR not set
    (https://no-color.org)."""
    import os

    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty()) and not os.environ.get("NO_COLOR")


def for_stream(stream: Any, text: str) -> str:
    """``text`` as it is printed on ``stream``: its colours kept only where they are
    wanted (`colour_wanted`).  The command line's one rule for its output."""
    return text if colour_wanted(stream) else without_colour(text)


def category_word(category: str) -> str:
    """A move's value for its mover as a table shows it: the verb, in its colour."""
    return f"\x1b[{CATEGORY_COLOURS[category]}m{CATEGORY_VERBS[category]}\x1b[0m"


def mover(to_move: int | None) -> str:
    return "the player to move" if to_move is None else f"player {to_move}"


def for_mover(to_move: int | None) -> str:
    return "for the player to move" if to_move is None else f"for player {to_move}"


def plan_verdict(outcomes: int, lost: int) -> str:
    """How a best plan's outcomes end, as every surface says it: all won, all lost, or
    how many are lost."""
    return "all won" if lost == 0 else "all lost" if lost == outcomes else f"{lost:,} lost"


def seat_list(seats: Sequence[int] | None) -> str:
    """Seat numbers, e.g. ``0, 2`` (``none`` for none)."""
    return ", ".join(map(str, seats or ())) or "none"


def count(n: int | None) -> str:
    """A figure with thousands separators; ``-`` where there is none."""
    return "-" if n is None else f"{n:,}"
