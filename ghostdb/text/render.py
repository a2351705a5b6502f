"""Turning results into text and JSON for people and scripts.

Pure: values in, strings out.  Text is plain (no colour codes), so it reads the same on a
terminal, in a pipe and in a test.  Positions, listings and the helpers are here; the
text of plans, lines, comparisons, reports, games and verdicts is in
`ghostdb.text.render_reports`, which this module gives as its own when first asked for.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ghostdb.values import Outcome, Position

if TYPE_CHECKING:  # types only: a lookup imports none of these modules
    from ghostdb.reports import DictionaryInfo, IngestReport, SolutionInfo


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


def moves_left(n: int | None) -> str:
    if n is None:
        return "no end (a draw)"
    return "game over" if n == 0 else f"{n} more move{'s' if n != 1 else ''}"


VERBS = {Outcome.WIN: "wins", Outcome.LOSS: "loses", Outcome.TIE: "ties", Outcome.DRAW: "draws"}
CATEGORY_VERBS = {"win": "wins", "lose": "loses", "tie": "ties", "draw": "draws"}


def mover(to_move: int | None) -> str:
    return "the player to move" if to_move is None else f"player {to_move}"


def for_mover(to_move: int | None) -> str:
    return "for the mover" if to_move is None else f"for player {to_move}"


def ingest_report(report: IngestReport) -> str:
    """What an ingest kept and left out; its warnings are the caller's (they go to stderr)."""
    from ghostdb import wordlists

    lines = [f"accepted: {report.accepted:,} words ({report.encoding})"]
    options = wordlists.describe_options(report.options)
    if options:
        lines.append(f"options: {options}")
    if report.folded:
        examples = ", ".join(report.examples.get(wordlists.FOLDED_ACCENTS, []))
        lines.append(f"accents folded: {report.folded:,} words (e.g. {examples})")
    for kind, count in report.left_out.items():
        examples = ", ".join(repr(e) for e in report.examples.get(kind, []))
        lines.append(f"left out: {count:,} {kind} (e.g. {examples})")
    lines.extend(f"note: {n}" for n in report.notes)
    return "\n".join(lines)


def position(pos: Position, rules: Any) -> str:
    """A lookup: the position's values and every move with its own outcome and length."""
    title = f"{label(pos.fragment)}  —  {pos.name}, {rules.describe()}"
    if pos.label is not None and pos.label != pos.fragment:
        title += f"  (said as {pos.label!r})"
    who = mover(pos.to_move)
    if pos.safe_seats is not None:
        return _many_players(pos, title)
    if pos.is_final:
        result = {Outcome.WIN: "won", Outcome.LOSS: "lost"}.get(pos.outcome, "tied")
        what = "a word" if pos.game == "ghost" else "the game is over"
        verdict = f"{what}: {pos.ending}; {who} (to move) has {result}"
        if pos.game == "ghost":
            verdict = f"a word: the game is over; {who} (to move) has {result}"
        lines = [title, verdict]
    else:
        lines = [
            title,
            f"{who if pos.to_move is None else who + ' to move'} {VERBS[pos.outcome]}; "
            f"best move {pos.best_move}; "
            f"{moves_left(pos.game_length)} with best play",
            f"winning moves: {pos.winning_moves}"
            + (f"; drawing moves: {pos.drawing_moves}" if pos.outcome is Outcome.DRAW else ""),
        ]
    if not pos.reachable:
        lines.append("not reachable: an earlier fragment is already a word")
    if pos.plays:
        lines.append("")
        lines.append(plays_table(pos.plays, pos.to_move, "play", pos.game == "ghost"))
    return "\n".join(lines)


def seat_list(seats: Sequence[int] | None) -> str:
    """Seat numbers, e.g. ``0, 2`` (``none`` for none)."""
    return ", ".join(map(str, seats or ())) or "none"


def _many_players(pos: Position, title: str) -> str:
    """A lookup with more than two players: who is safe, and each move's safe seats."""
    lines = [title]
    if pos.is_final:
        lines.append(f"a word: the game is over; safe (won): {seat_list(pos.safe_seats)}")
        return "\n".join(lines)
    safe_moves = " ".join(p.move for p in pos.safe_moves) or "none"
    lines += [
        f"player {pos.to_move} to move; safe seats: {seat_list(pos.safe_seats)} (each can avoid "
        "losing whatever the others do together)",
        f"safe moves for player {pos.to_move}: {safe_moves}",
        "",
        plays_many(pos.plays),
    ]
    return "\n".join(lines)


def plays_many(plays: Sequence[Any]) -> str:
    rows = [
        (p.move, p.fragment, seat_list(p.safe_seats), "completes a word" if p.is_final else "")
        for p in plays
    ]
    return table(("move", "fragment", "safe seats after it", ""), rows)


def plays_table(
    plays: Sequence[Any], to_move: int | None, heading: str = "move", ghost: bool = True
) -> str:
    """Every move with what it does for its mover and the game length after it (and, in
    Anagram Ghost, the arrangement the mover says)."""
    said = any(p.label is not None for p in plays)
    rows = [
        (
            p.move,
            p.fragment,
            *((p.label,) if said else ()),
            CATEGORY_VERBS[p.category],
            moves_left(p.game_length) + (" (completes a word)" if p.is_final else ""),
        )
        for p in plays
    ]
    heads = (heading, "fragment" if ghost else "position", *(("say",) if said else ()))
    return table((*heads, for_mover(to_move), "then"), rows)


def openings(pos: Position, rules: Any) -> str:
    """Each first move and what it brings the first player."""
    if pos.game != "ghost":
        head = f"the first player {VERBS[pos.outcome]}"
        if pos.outcome is Outcome.WIN:
            head += f", with {', '.join(p.move for p in pos.plays if p.wins)}"
        rows = [(p.move, CATEGORY_VERBS[p.category], moves_left(p.game_length)) for p in pos.plays]
        return "\n".join(
            [
                f"{pos.name}, {rules.describe()}: {head}",
                "",
                table(("first move", "for the first player", "then"), rows),
            ]
        )
    winners = [p.move for p in pos.plays if p.wins]
    if winners:
        head = f"the first player wins, with {', '.join(winners)}"
    else:
        head = "the first player loses: no first move wins"
    rows = [(p.move, f"player {0 if p.wins else 1}", moves_left(p.game_length)) for p in pos.plays]
    return "\n".join(
        [
            f"{pos.name}, {rules.describe()}: {head}",
            "",
            table(("first move", "wins for", "then"), rows),
        ]
    )


def dictionaries(items: Sequence[DictionaryInfo]) -> str:
    from ghostdb import wordlists

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
            wordlists.describe_options(d.report.get("options")),
        )
        for d in items
    ]
    return table(
        ("name", "words", "letters", "source", "sha256", "ingested", "options"), rows, right=(1, 2)
    )


def games(items: Sequence[dict[str, Any]]) -> str:
    rows = [
        (
            i["game"],
            i["title"],
            "over a dictionary" if i["played_over"] else "stand-alone",
            " ".join(i["rule_options"]) or "none",
            " ".join(i["solved"]) or "-",
        )
        for i in items
    ]
    return table(("game", "title", "played", "rule options", "solved rule sets"), rows)


def solutions(items: Sequence[SolutionInfo]) -> str:
    if not items:
        return "no solutions stored: solve a dictionary with `ghostdb solve NAME`"
    rows = [
        (
            s.id,
            s.name,
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
            "name",
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


def label(fragment: str) -> str:
    """A fragment as shown to people: ``(start)`` for the empty one."""
    return fragment or "(start)"


# Imported when first asked for: a lookup does not compile `ghostdb.text.render_reports`.
_REPORTS = frozenset(
    {
        "SURVEY_HEADERS",
        "comparison",
        "dot",
        "game_header",
        "game_result",
        "legal_moves",
        "opening_plan_dict",
        "opening_plans",
        "principal_lines",
        "replay",
        "report",
        "seat",
        "selfplay",
        "strategy_dot",
        "strategy_words",
        "survey",
        "tree",
        "verdicts",
    }
)


def __getattr__(name: str) -> Any:
    """The renderers kept in `ghostdb.text.render_reports`, loaded when first asked for."""
    if name in _REPORTS:
        from ghostdb.text import render_reports

        return getattr(render_reports, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
