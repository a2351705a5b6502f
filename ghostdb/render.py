"""Turning results into text and JSON for people and scripts.

Pure: values in, strings out.  Text is plain (no colour codes), so it reads the same on a
terminal, in a pipe and in a test.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from ghostdb.rules import Rules
from ghostdb.values import DictionaryInfo, IngestReport, Outcome, Position, SolutionInfo


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


def moves_left(n: int) -> str:
    return "game over" if n == 0 else f"{n} more move{'s' if n != 1 else ''}"


def ingest_report(report: IngestReport) -> str:
    lines = [f"accepted: {report.accepted:,} words ({report.encoding})"]
    for kind, count in report.left_out.items():
        examples = ", ".join(repr(e) for e in report.examples.get(kind, []))
        lines.append(f"left out: {count:,} {kind} (e.g. {examples})")
    lines.extend(f"warning: {w}" for w in report.warnings)
    return "\n".join(lines)


def position(pos: Position, rules: Rules) -> str:
    """A lookup: the position's values and every play with its own outcome and length."""
    title = f"{pos.fragment or '(empty)'!s}  —  {pos.dictionary}, {rules.describe()}"
    mover = f"player {pos.to_move}"
    if pos.is_word:
        verdict = (
            f"a word: the game is over; {mover} (to move) has "
            f"{'won' if pos.outcome is Outcome.WIN else 'lost'}"
        )
        lines = [title, verdict]
    else:
        verb = "wins" if pos.outcome is Outcome.WIN else "loses"
        lines = [
            title,
            f"{mover} to move {verb}; best move {pos.best_move}; "
            f"{moves_left(pos.game_length)} with best play",
            f"winning moves: {pos.winning_moves}",
        ]
    if not pos.reachable:
        lines.append("not reachable: an earlier fragment is already a word")
    if pos.plays:
        rows = [
            (
                p.move,
                p.fragment,
                "wins" if p.wins else "loses",
                moves_left(p.game_length) + (" (completes a word)" if p.is_word else ""),
            )
            for p in pos.plays
        ]
        lines.append("")
        lines.append(table(("play", "fragment", f"for player {pos.to_move}", "then"), rows))
    return "\n".join(lines)


def openings(pos: Position, rules: Rules) -> str:
    """Each first move and which player it wins for."""
    winners = [p.move for p in pos.plays if p.wins]
    if winners:
        head = f"the first player wins, with {', '.join(winners)}"
    else:
        head = "the first player loses: no first move wins"
    rows = [(p.move, f"player {0 if p.wins else 1}", moves_left(p.game_length)) for p in pos.plays]
    return "\n".join(
        [
            f"{pos.dictionary}, {rules.describe()}: {head}",
            "",
            table(("first move", "wins for", "then"), rows),
        ]
    )


def dictionaries(items: Sequence[DictionaryInfo]) -> str:
    if not items:
        return "no dictionaries stored: add one with `ghostdb ingest PATH`"
    rows = [
        (
            d.name,
            f"{d.word_count:,}",
            len(d.alphabet),
            d.source,
            d.sha256[:12],
            d.ingested_at.strftime("%Y-%m-%d %H:%M"),
        )
        for d in items
    ]
    return table(("name", "words", "letters", "source", "sha256", "ingested"), rows, right=(1, 2))


def solutions(items: Sequence[SolutionInfo]) -> str:
    if not items:
        return "no solutions stored: solve a dictionary with `ghostdb solve NAME`"
    rows = [
        (
            s.id,
            s.dictionary,
            s.rules,
            s.status,
            "" if s.fragment_count is None else f"{s.fragment_count:,}",
            "" if s.reachable_count is None else f"{s.reachable_count:,}",
            "" if s.seconds is None else f"{s.seconds:.2f}",
            s.started_at.strftime("%Y-%m-%d %H:%M"),
            s.error or "",
        )
        for s in items
    ]
    return table(
        (
            "id",
            "dictionary",
            "rules",
            "status",
            "fragments",
            "reachable",
            "seconds",
            "started",
            "error",
        ),
        rows,
        right=(0, 4, 5, 6),
    )
