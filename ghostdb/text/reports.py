"""What is stored and what it says: an ingest, the listings of dictionaries, solutions and
games, a comparison of two solutions, a name's report and the survey.

Pure: values in, strings out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ghostdb import wordlists
from ghostdb.games.registry import game_of, parse_rules
from ghostdb.text.common import CATEGORY_VERBS, count, label, plan_verdict, seat_list, table
from ghostdb.text.plans import word_is_path

if TYPE_CHECKING:
    from ghostdb.records import (
        Comparison,
        DecisiveWords,
        DictionaryInfo,
        IngestReport,
        ReportRow,
        SolutionInfo,
        SurveyRow,
        WhyDiffer,
    )
    from ghostdb.strategies import Strategy


def ingest_report(report: IngestReport) -> str:
    """What an ingest kept and left out; its warnings are the caller's (they go to stderr)."""
    lines = [f"accepted: {report.accepted:,} words ({report.encoding})"]
    options = wordlists.describe_options(report.options)
    if options:
        lines.append(f"options: {options}")
    if report.folded:
        examples = ", ".join(report.examples.get(wordlists.FOLDED_ACCENTS, []))
        lines.append(f"accents folded: {report.folded:,} words (e.g. {examples})")
    for kind, n in report.left_out.items():
        examples = ", ".join(repr(e) for e in report.examples.get(kind, []))
        lines.append(f"left out: {n:,} {kind} (e.g. {examples})")
    lines.extend(f"note: {n}" for n in report.notes)
    return "\n".join(lines)


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
    headers = (
        "id",
        "name",
        "rules",
        "status",
        "fragments",
        "reachable",
        "seconds",
        "started",
        "error",
    )
    return table(headers, rows, right=(0, 4, 5, 6))


def comparison(c: Comparison) -> str:
    a, b = c.a, c.b

    def plan(summary: Any, lost: tuple[int, int] | None, player: int) -> str:
        if summary.plans is None or lost is None:
            return "-"
        n = summary.plans[player].outcomes
        unit = game_of(parse_rules(summary.rules)).plan_unit + ("s" if n != 1 else "")
        return f"{n:,} {unit}, {plan_verdict(n, lost[player])}"

    def winner(summary: Any) -> str:
        return f"player {summary.winner}" if summary.winner is not None else summary.outcome.value

    rows = [
        ("dictionary", a.dictionary, b.dictionary),
        ("rules", a.rules, b.rules),
        ("game words", count(a.word_count), count(b.word_count)),
        ("fragments", f"{a.fragment_count:,}", f"{b.fragment_count:,}"),
        ("reachable", f"{a.reachable_count:,}", f"{b.reachable_count:,}"),
        ("winner", winner(a), winner(b)),
        (
            "winning first moves",
            " ".join(a.winning_first_moves) or "none",
            " ".join(b.winning_first_moves) or "none",
        ),
        ("game length from start", count(a.game_length), count(b.game_length)),
        ("player 0's best plan", plan(a, c.lost[0], 0), plan(b, c.lost[1], 0)),
        ("player 1's best plan", plan(a, c.lost[0], 1), plan(b, c.lost[1], 1)),
    ]
    lines = [table(("", "a", "b"), rows), ""]
    lines.append(
        f"fragments in both: {c.common_fragments:,}; with different outcomes: "
        f"{c.different_outcomes:,} ({c.different_reachable:,} reachable in both)"
    )
    if c.examples:
        shown = ", ".join(
            f"{label(d.fragment)} ({d.outcomes[0].value}/{d.outcomes[1].value})" for d in c.examples
        )
        lines.append(f"  e.g. {shown}  (outcome for the player to move, a/b)")
    for heading, n, examples in (
        ("game words only in a", c.only_a, c.only_a_examples),
        ("game words only in b", c.only_b, c.only_b_examples),
    ):
        more = f": {' '.join(examples)}" + (" …" if n > len(examples) else "")
        lines.append(f"{heading}: {n:,}{more if n else ''}")
    return "\n".join(lines)


def report(rows: Sequence[ReportRow], name: str) -> str:
    """One row per solved rule set: a word game's with both players' plans, another
    game's with its positions by outcome."""
    if not rows:
        return f"{name} has no published solution: run `ghostdb solve {name}` (or --all)"
    if not game_of(rows[0].rules).word_game:
        body = [
            (
                r.rules.key,
                r.outcome.value,
                count(r.game_length),
                *(f"{r.outcomes.get(o, 0):,}" for o in ("win", "loss", "tie", "draw")),
                f"{r.fragment_count:,}",
            )
            for r in rows
        ]
        return table(
            ("rules", "player 0", "length", "win", "loss", "tie", "draw", "positions"),
            body,
            right=(2, 3, 4, 5, 6, 7),
        )
    return _word_game_report(rows)


def _word_game_report(rows: Sequence[ReportRow]) -> str:
    def plan(p: Strategy, list_words: bool) -> str:
        n = len(p.endings)
        unit = p.unit + ("s" if n != 1 else "")
        text = f"{n:,} {unit}, {plan_verdict(n, p.losses)}"
        if list_words and n <= 8 and word_is_path(p.rules):
            text += ": " + " ".join(e.word for e in p.endings)
        return text

    # More than two players have safe seats, not a winner: the seats show in the rules.
    body = [
        (
            r.rules.variant.value
            + (" misère" if r.rules.misere else "")
            + ("" if r.safe_seats is None else f" {r.rules.players}p"),
            r.rules.min_length,
            f"player {r.winner}" if r.safe_seats is None else f"safe: {seat_list(r.safe_seats)}",
            plan(r.first, True) if r.first else "-",
            plan(r.second, False) if r.second else "-",
            f"{r.fragment_count:,}",
        )
        for r in rows
    ]
    headers = (
        "rules",
        "shortest word",
        "winner",
        "player 0's plan",
        "player 1's plan",
        "fragments",
    )
    return table(headers, body, right=(1, 5))


SURVEY_HEADERS = (
    "language",
    "dictionary",
    "ingest",
    "rules",
    "game words",
    "winner",
    "winning first moves",
    "player 0's best plan",
    "player 1's best plan",
)


def survey(rows: Sequence[SurveyRow], *, markdown: bool = False) -> str:
    """`Store.survey` as a plain table, or as a Markdown one for a README."""

    def ingest(r: SurveyRow) -> str:
        folded = r.option("fold_accents")
        text = "?" if folded is None else "accents folded" if folded else "accents kept"
        return text + ("; capitalised words kept" if r.option("keep_capitalised") else "")

    def plan(r: SurveyRow, player: int) -> str:
        n = r.summary.plans[player].outcomes if r.summary.plans else 0
        lost = r.lost[player]
        return f"{n:,} {r.unit}{'s' if n != 1 else ''}, {plan_verdict(n, lost)}"

    def winner(r: SurveyRow) -> str:
        s = r.summary
        return f"player {s.winner}" if s.winner is not None else s.outcome.value

    body = [
        (
            r.language or "-",
            r.dictionary,
            ingest(r),
            r.rules,
            count(r.summary.word_count),
            winner(r),
            " ".join(r.summary.winning_first_moves) or "none",
            plan(r, 0),
            plan(r, 1),
        )
        for r in rows
    ]
    if not markdown:
        return table(SURVEY_HEADERS, body, right=(4,))
    align = ["---:" if i == 4 else "---" for i in range(len(SURVEY_HEADERS))]
    lines = [SURVEY_HEADERS, align, *body]
    return "\n".join("| " + " | ".join(cells) + " |" for cells in lines)


def decisive_words(found: DecisiveWords, rules: Any, shown: int = 40) -> str:
    """The words that decide the game at a position: single deletions, single additions
    from the pool, and the fewest edits, each with the outcome it gives and the move it
    changes."""
    who = "the player to move" if found.to_move is None else f"player {found.to_move} to move"
    lines = [
        f"{found.name}, {rules.describe()}, at {label(found.position)}: {who} "
        f"{CATEGORY_VERBS[found.outcome]}"
    ]

    def listed(edits: Sequence[Any]) -> str:
        items = [f"{e.word} ({e.outcome}; {_move_change(e)})" for e in edits[:shown]]
        more = (
            f" … and {len(edits) - shown:,} more (--json lists them all)"
            if len(edits) > shown
            else ""
        )
        return ", ".join(items) + more

    lines.append(
        f"deleting one word changes it: {_words(len(found.deletions))}"
        + (f": {listed(found.deletions)}" if found.deletions else "")
    )
    if found.additions is not None:
        lines.append(
            f"adding one word of {found.pool} changes it: {_words(len(found.additions))}"
            + (f": {listed(found.additions)}" if found.additions else "")
        )
    fewest = found.fewest
    edits = "deletions" if found.pool is None else f"deletions and additions from {found.pool}"
    if fewest.count is None:
        lines.append(f"no set of {edits} changes it (each leaves no game, or the same)")
    else:
        bound = "" if fewest.exact else "at most "
        lines.append(
            f"fewest edits that change it: {bound}{fewest.count:,}, "
            f"then {fewest.outcome} for the player to move:"
        )
        lines += [_edit_line(e) for e in fewest.edits]
    return "\n".join(lines)


def why_differ(found: WhyDiffer) -> str:
    """`compare --why`: the fewest word differences behind a different outcome, a line a
    word saying which move it changes."""
    head = f"why: {found.a} and {found.b} ({found.rules}) differ at the start"
    if found.fewest is None:
        return (
            f"why: {found.a} and {found.b} agree at the start ({found.outcome_a}): "
            "nothing to explain"
        )
    fewest = found.fewest
    if fewest.count is None:
        return (
            f"{head} ({found.outcome_a} / {found.outcome_b} for player 0), but no set of their "
            f"{found.only_a + found.only_b:,} differing words alone accounts for it"
        )
    bound = "" if fewest.exact else "at most "
    lines = [
        f"{head}: {found.outcome_a} for player 0 in {found.a}, {found.outcome_b} in {found.b}; "
        f"{bound}{fewest.count:,} of their {found.only_a + found.only_b:,} differing words "
        f"account{'s' if fewest.count == 1 else ''} for it:"
    ]
    for e in fewest.edits:
        where = f"only in {found.b}" if e.added else f"only in {found.a}"
        lines.append(f"{_edit_line(e)} ({where})")
    return "\n".join(lines)


_AS_MOVE = {"loss": "winning", "win": "losing", "gone": "gone", "tie": "tying", "draw": "drawing"}
"""A move's state for whoever plays it, from the stored state for the player to move
after it."""


def _move_change(edit: Any) -> str:
    """The move an edit changes, for whoever plays it: ``h: losing → winning``."""
    return f"{label(edit.move)}: {_AS_MOVE[edit.move_before]} → {_AS_MOVE[edit.move_after]}"


def _edit_line(edit: Any) -> str:
    verb = "add" if edit.added else "delete"
    return f"  {verb} {edit.word}: the move {_move_change(edit)}"


def _words(n: int) -> str:
    return f"{n:,} word{'' if n == 1 else 's'}"
