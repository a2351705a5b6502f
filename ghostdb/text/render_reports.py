"""Text for the commands beyond lookups and listings: plans and lines, comparisons,
reports and the survey, games played, verify's verdicts.

Part of `ghostdb.text.render` (which gives these names too), apart so that a lookup does not
compile it.  Pure: values in, strings out.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ghostdb.games.ghost.rules import Rules, Variant
from ghostdb.text.render import (
    VERBS,
    label,
    mover,
    plays_many,
    plays_table,
    position,
    seat_list,
    table,
)
from ghostdb.values import Outcome, Position

if TYPE_CHECKING:
    from ghostdb.play.engine import Match, SelfPlay, Turn
    from ghostdb.reports import Comparison, SurveyRow
    from ghostdb.store.verify import Verdict
    from ghostdb.strategies import Ending, Lines, Node, OpeningPlans, ReportRow, Strategy


# -- plans, lines, comparisons -------------------------------------------------------------------


def _path(ending: Ending) -> str:
    """The fragments after the start, e.g. ``u → qu → qua → quag``."""
    return " → ".join(ending.path[1:])


def strategy_words(plan: Strategy) -> str:
    """The summary line, then each outcome with win or loss for the strategist (and, in
    the Super variants, the sequence of fragments that leads there)."""
    rows = [(e.word, "win" if e.winner == plan.player else "loss", _path(e)) for e in plan.endings]
    lines = [plan.summary()]
    width = max((len(r[0]) for r in rows), default=0)
    for word, result, path in rows:
        if plan.rules.variant is Variant.GHOST:
            lines.append(f"{word.ljust(width)}  {result}")
        else:
            lines.append(f"{word.ljust(width)}  {result.ljust(4)}  {path}")
    return "\n".join(lines)


def tree(root: Node, rules: Any) -> str:
    """One line per position, indented by depth; words are leaves."""
    show_move = rules.variant is not Variant.GHOST
    lines: list[str] = []

    def visit(node: Node, depth: int) -> None:
        text = "  " * depth + label(node.fragment)
        if show_move and node.move:
            text += f"  [{node.move}]"
        if node.is_word:
            text += f"  (word: player {node.winner()} wins)"
        else:
            text += f"  ({mover(node.to_move)} to move)"
        lines.append(text)
        for child in node.children:
            visit(child, depth + 1)

    visit(root, 0)
    return "\n".join(lines)


def dot(root: Node, title: str, player: int | None = None) -> str:
    """Graphviz DOT: one node per fragment (the Super variants share them), edges labelled
    with moves; words are green where ``player`` wins and red where they lose."""

    def node_id(fragment: str) -> str:
        return json.dumps("f:" + fragment, ensure_ascii=False)

    lines = [
        "digraph ghost {",
        f"  label={json.dumps(title, ensure_ascii=False)};",
        "  labelloc=t;",
        "  rankdir=LR;",
        '  node [shape=box, fontname="Helvetica"];',
        '  edge [fontname="Helvetica"];',
    ]
    seen_nodes: set[str] = set()
    seen_edges: set[tuple[str, str]] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        stack.extend(reversed(node.children))
        if node.fragment not in seen_nodes:
            seen_nodes.add(node.fragment)
            attrs = {"label": f"{label(node.fragment)}\nplayer {node.to_move}"}
            if node.is_word:
                attrs["label"] = node.fragment
                attrs["style"] = "filled"
                if player is not None:
                    attrs["fillcolor"] = "palegreen" if node.winner() == player else "lightpink"
                else:
                    attrs["fillcolor"] = "lightgrey"
            body = ", ".join(f"{k}={json.dumps(v, ensure_ascii=False)}" for k, v in attrs.items())
            lines.append(f"  {node_id(node.fragment)} [{body}];")
        for child in node.children:
            edge = (node.fragment, child.fragment)
            if edge not in seen_edges:
                seen_edges.add(edge)
                move = json.dumps(child.move or "", ensure_ascii=False)
                lines.append(
                    f"  {node_id(node.fragment)} -> {node_id(child.fragment)} [label={move}];"
                )
    lines.append("}")
    return "\n".join(lines)


def strategy_dot(plan: Strategy) -> str:
    title = f"{plan.dictionary}, {plan.rules.describe()}: {plan.summary()}"
    return dot(plan.tree, title, plan.player)


def principal_lines(found: Lines) -> str:
    """The verdict at the start, then every principal line's end and moves."""
    root = found.tree
    start = f"from {found.start!r}" if found.start else "from the start"
    head = f"{found.dictionary}, {found.rules.describe()}, {start}: "
    ghost = isinstance(found.rules, Rules)
    if root.is_word:
        return head + "the game is over here"
    count = len(found.endings)
    if root.outcome in (Outcome.WIN, Outcome.LOSS) and root.to_move is not None:
        verdict = f"player {root.winner()} wins in {root.game_length} move" + "s" * (
            root.game_length != 1
        )
    elif root.outcome is Outcome.DRAW:
        verdict = "a draw: neither side can force an end"
    elif root.outcome is Outcome.TIE:
        verdict = f"a tie in {root.game_length} move" + "s" * (root.game_length != 1)
    else:
        verdict = f"{mover(root.to_move)} {VERBS[root.outcome]} in {root.game_length} moves"
    lines = [
        head + verdict + f"; {count} principal line{'s' if count != 1 else ''}",
        "",
    ]
    if ghost:
        lines.append(
            table(
                (
                    "word",
                    "moves" if found.rules.variant is Variant.GHOST else "path",
                    "completed by",
                    "winner",
                ),
                [
                    (
                        e.word,
                        " ".join(e.moves) if found.rules.variant is Variant.GHOST else _path(e),
                        f"player {e.completed_by}",
                        f"player {e.winner}",
                    )
                    for e in found.endings
                ],
            )
        )
        return "\n".join(lines)
    for e in found.endings:
        lines.append("  ".join(f"{m} {f}" for m, f in zip(e.moves, e.path[1:], strict=True)))
    end = found.endings[-1].path[-1] if found.endings else found.start
    if found.cycle:
        lines.append(f"(cycle: {end} came again; with best play the game never ends)")
    elif found.endings:
        winner = found.endings[-1].winner
        lines.append(
            f"(ends at {end}: " + ("a tie" if winner is None else f"player {winner} wins") + ")"
        )
    return "\n".join(lines)


def opening_plans(items: Sequence[OpeningPlans], rules: Any, name: str) -> str:
    """For every first move, the winner's plan outcomes (the loser's column stays empty)."""

    def cell(plan: Strategy | None) -> str:
        if plan is None:
            return ""
        if rules.variant is Variant.GHOST:
            return " ".join(e.word for e in plan.endings)
        return f"{len(plan.endings):,} sequences"

    rows = [(item.move, cell(item.plans[0]), cell(item.plans[1])) for item in items]
    return "\n".join(
        [
            f"{name}, {rules.describe()}: the words each player must know to win after each "
            "first move",
            "",
            table(("first move", "player 0 wins with", "player 1 wins with"), rows),
        ]
    )


def opening_plan_dict(item: OpeningPlans) -> dict[str, Any]:
    def plan(p: Strategy | None) -> Any:
        return None if p is None else [e.as_dict() for e in p.endings]

    return {
        "move": item.move,
        "fragment": item.fragment,
        "player_0": plan(item.plans[0]),
        "player_1": plan(item.plans[1]),
    }


def comparison(c: Comparison) -> str:
    a, b = c.a, c.b

    def plan(sizes: Any, player: int) -> str:
        if sizes is None:
            return "-"
        size = sizes[player]
        return f"{size.outcomes:,} ({('all won', 'mixed', 'all lost')[size.lossiness]})"

    def winner(summary: Any) -> str:
        return f"player {summary.winner}" if summary.winner is not None else summary.outcome.value

    rows = [
        ("dictionary", a.dictionary, b.dictionary),
        ("rules", a.rules, b.rules),
        ("game words", _count(a.word_count), _count(b.word_count)),
        ("fragments", f"{a.fragment_count:,}", f"{b.fragment_count:,}"),
        ("reachable", f"{a.reachable_count:,}", f"{b.reachable_count:,}"),
        ("winner", winner(a), winner(b)),
        (
            "winning first moves",
            " ".join(a.winning_first_moves) or "none",
            " ".join(b.winning_first_moves) or "none",
        ),
        ("game length from start", _count(a.game_length), _count(b.game_length)),
        ("player 0's best plan", plan(a.plans, 0), plan(b.plans, 0)),
        ("player 1's best plan", plan(a.plans, 1), plan(b.plans, 1)),
    ]
    lines = [table(("", "a", "b"), rows)]
    lines.append("")
    lines.append(
        f"fragments in both: {c.common_fragments:,}; with different outcomes: "
        f"{c.different_outcomes:,} ({c.different_reachable:,} reachable in both)"
    )
    if c.examples:
        shown = ", ".join(
            f"{label(d.fragment)} ({d.outcomes[0].value}/{d.outcomes[1].value})" for d in c.examples
        )
        lines.append(f"  e.g. {shown}  (outcome for the player to move, a/b)")
    for heading, count, examples in (
        ("game words only in a", c.only_a, c.only_a_examples),
        ("game words only in b", c.only_b, c.only_b_examples),
    ):
        more = f": {' '.join(examples)}" + (" …" if count > len(examples) else "")
        lines.append(f"{heading}: {count:,}{more if count else ''}")
    return "\n".join(lines)


def _count(n: int | None) -> str:
    return "-" if n is None else f"{n:,}"


def report(rows: Sequence[ReportRow], name: str) -> str:
    if not rows:
        return f"{name} has no published solution: run `ghostdb solve {name}` (or --all)"
    if not isinstance(rows[0].rules, Rules):
        body = [
            (
                r.rules.key,
                r.outcome.value,
                _count(r.game_length),
                *(f"{r.outcomes.get(o, 0):,}" for o in ("win", "loss", "tie", "draw")),
                f"{r.fragment_count:,}",
            )
            for r in rows
        ]
        return table(
            ("rules", "first player", "length", "win", "loss", "tie", "draw", "positions"),
            body,
            right=(2, 3, 4, 5, 6, 7),
        )

    def plan(p: Strategy, list_words: bool) -> str:
        count = len(p.endings)
        unit = p.unit + ("s" if count != 1 else "")
        verdict = "all won" if p.losses == 0 else f"{p.losses:,} lost"
        text = f"{count:,} {unit}, {verdict}"
        if list_words and p.rules.variant is Variant.GHOST and count <= 8:
            text += ": " + " ".join(e.word for e in p.endings)
        return text

    body = [
        (
            r.rules.variant.value
            + (" misère" if r.rules.misere else "")
            + (f" {r.rules.players}p" if r.rules.players != 2 else ""),
            r.rules.min_length,
            f"player {r.winner}" if r.safe_seats is None else f"safe: {seat_list(r.safe_seats)}",
            plan(r.first, True) if r.first else "-",
            plan(r.second, False) if r.second else "-",
            f"{r.fragment_count:,}",
        )
        for r in rows
    ]
    return table(
        (
            "rules",
            "shortest word",
            "winner",
            "first player's plan",
            "second player's plan",
            "fragments",
        ),
        body,
        right=(1, 5),
    )


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
        count = r.summary.plans[player].outcomes if r.summary.plans else 0
        lost = r.lost[player]
        verdict = "all won" if lost == 0 else "all lost" if lost == count else f"{lost:,} lost"
        return f"{count:,} {r.unit}{'s' if count != 1 else ''}, {verdict}"

    def winner(r: SurveyRow) -> str:
        s = r.summary
        return f"player {s.winner}" if s.winner is not None else s.outcome.value

    body = [
        (
            r.language or "-",
            r.dictionary,
            ingest(r),
            r.rules,
            _count(r.summary.word_count),
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


# -- games -------------------------------------------------------------------------------------


def seat(game: Match, player: int) -> str:
    return f"player {player} ({game.seats[player]})"


def game_header(game: Match) -> str:
    seats = ", ".join(seat(game, p) for p in range(game.players))
    return f"{game.name}, {game.rules.describe()}: {seats}"


def legal_moves(game: Match) -> str:
    """Every legal move with its outcome for the mover and the game length after it."""
    plays = game.plays()
    if game.players == 2:
        return plays_table(plays, game.to_move, "move", game.game.word_game)
    return plays_many(plays)


def game_result(game: Match) -> str:
    result = game.result
    assert result is not None
    who = seat(game, result.player)
    moves = " ".join(t.move for t in game.history) or "none"
    if result.kind == "quit":
        return f"{who} quit at {label(game.fragment)}; moves: {moves}"
    if result.won is None:
        return f"nobody wins: {result.reason}\nmoves: {moves}"
    if result.kind == "final":
        verb = "wins" if result.won else "loses"
        return f"{who} {verb}: {result.reason}\nmoves: {moves}"
    verb = "wins" if result.won else "loses"
    line = f"{who} {verb}: {result.reason}"
    if game.players == 2:
        other = result.winners[0] if not result.won else result.losers[0]
        line += f"; {seat(game, other)} {'wins' if not result.won else 'loses'}"
    return f"{line}\nmoves: {moves}"


def replay(game: Match, before: Position, reply: Turn | None) -> str:
    """`play --moves` as text: the position after the given moves and the reply."""
    lines = [game_header(game)]
    if reply is None and game.result is not None:
        lines.append(game_result(game))
        return "\n".join(lines)
    lines.append(position(before, game.rules))
    if reply is not None:
        lines.append("")
        lines.append(f"{seat(game, reply.player)} replies {reply.move}: {label(reply.fragment)}")
        if game.result is not None:
            lines.append(game_result(game))
    return "\n".join(lines)


def selfplay(report: SelfPlay, top: int = 10) -> str:
    seats = " vs ".join(f"{s} (player {i})" for i, s in enumerate(report.seats))
    seed = "" if report.seed is None else f", seed {report.seed}"
    rows = [
        (f"player {i}", s, f"{report.wins[i]:,}", f"{report.losses[i]:,}")
        for i, s in enumerate(report.seats)
    ]
    finals = sorted(report.final_words.items(), key=lambda kv: (-kv[1], kv[0]))
    noun = "word" if isinstance(report.rules, Rules) else "position"
    lines = [
        f"{report.dictionary}, {report.rules.describe()}: {report.games:,} games, {seats}{seed}",
        "",
        table(("player", "strategy", "won", "lost"), rows, right=(2, 3)),
        *([f"nobody won: {report.draws:,} (ties and repeated positions)"] if report.draws else []),
        "",
        f"final {noun}s ({len(finals):,} different, most frequent first):",
        table((noun, "games"), [(w, f"{n:,}") for w, n in finals[:top]], right=(1,)),
    ]
    if len(finals) > top:
        lines.append(f"… and {len(finals) - top:,} more (--json lists them all)")
    return "\n".join(lines)


def verdicts(items: Sequence[Verdict]) -> str:
    """What `ghostdb verify` found: one line per solution, then each inconsistency."""
    if not items:
        return "no published solution to verify: solve one with `ghostdb solve NAME`"
    lines = []
    for v in items:
        checked = f"{v.positions:,} positions" + (f", {v.plans:,} plans" if v.plans else "")
        state = "ok" if v.ok else f"{v.problems:,} inconsistent"
        lines.append(f"{v.name} {v.rules}: {state} ({checked} checked in {v.seconds:.2f} s)")
        for note in v.notes:
            lines.append(f"  note: {note}")
        for finding in v.inconsistencies():
            lines.append(f"  {finding.kind}: {finding.count:,}")
            lines.extend(f"    {example}" for example in finding.examples)
    return "\n".join(lines)
