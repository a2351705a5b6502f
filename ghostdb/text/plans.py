"""Plans and lines: a player's best plan as words, a tree or a Graphviz graph, the plans
after each first move, and the principal lines of best play.

Pure: values in, strings out.
"""

from __future__ import annotations

import json
import shutil
import textwrap
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ghostdb.games.registry import game_of
from ghostdb.text.common import VERBS, label, mover, table
from ghostdb.values import Outcome

if TYPE_CHECKING:
    from ghostdb.strategies import Ending, Lines, Node, OpeningPlans, Strategy


def word_is_path(rules: Any) -> bool:
    """Whether every move appends one letter (plain Ghost), so that an outcome's word
    tells the whole path to it; elsewhere the path of positions is shown too."""
    return game_of(rules).children_extend_key


def _path(ending: Ending) -> str:
    """The fragments after the start, e.g. ``u → qu → qua → quag``."""
    return " → ".join(ending.path[1:])


def strategy_words(plan: Strategy) -> str:
    """The summary line, then each outcome with win or loss for the strategist (and, where
    the word does not tell it, the sequence of fragments that leads there)."""
    rows = [(e.word, "win" if e.winner == plan.player else "loss", _path(e)) for e in plan.endings]
    lines = [plan.summary()]
    width = max((len(r[0]) for r in rows), default=0)
    words_only = word_is_path(plan.rules)
    for word, result, path in rows:
        if words_only:
            lines.append(f"{word.ljust(width)}  {result}")
        else:
            lines.append(f"{word.ljust(width)}  {result.ljust(4)}  {path}")
    return "\n".join(lines)


def tree(root: Node, rules: Any) -> str:
    """One line per position, indented by depth; words are leaves."""
    show_move = not word_is_path(rules)
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
            lines.append(f"  {node_id(node.fragment)} [{_dot_attributes(node, player)}];")
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


def _dot_attributes(node: Node, player: int | None) -> str:
    """A node's DOT attributes: its label, and a word's colour for ``player``."""
    attrs = {"label": f"{label(node.fragment)}\nplayer {node.to_move}"}
    if node.is_word:
        attrs["label"] = node.fragment
        attrs["style"] = "filled"
        if player is not None:
            attrs["fillcolor"] = "palegreen" if node.winner() == player else "lightpink"
        else:
            attrs["fillcolor"] = "lightgrey"
    return ", ".join(f"{k}={json.dumps(v, ensure_ascii=False)}" for k, v in attrs.items())


def strategy_dot(plan: Strategy) -> str:
    title = f"{plan.dictionary}, {plan.rules.describe()}: {plan.summary()}"
    return dot(plan.tree, title, plan.player)


def principal_lines(found: Lines) -> str:
    """The verdict at the start, then every principal line's end and moves."""
    root = found.tree
    start = f"from {found.start!r}" if found.start else "from the start"
    head = f"{found.dictionary}, {found.rules.describe()}, {start}: "
    if root.is_word:
        return head + "the game is over here"
    count = len(found.endings)
    lines = [
        head + _verdict(root) + f"; {count} principal line{'s' if count != 1 else ''}",
        "",
    ]
    game = game_of(found.rules)
    if game.word_game:
        lines.append(_word_lines(found, words_only=game.children_extend_key))
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


def _verdict(root: Node) -> str:
    """Who wins from the start of the lines, and in how many moves."""
    moves = f"{root.game_length} move" + "s" * (root.game_length != 1)
    if root.outcome in (Outcome.WIN, Outcome.LOSS) and root.to_move is not None:
        return f"player {root.winner()} wins in {moves}"
    if root.outcome is Outcome.DRAW:
        return "a draw: neither side can force an end"
    if root.outcome is Outcome.TIE:
        return f"a tie in {moves}"
    return f"{mover(root.to_move)} {VERBS[root.outcome]} in {root.game_length} moves"


def _word_lines(found: Lines, *, words_only: bool) -> str:
    """A word game's lines: the word each ends on, its moves (or, where the word does not
    tell them, its path), who completed it and who won."""
    return table(
        ("word", "moves" if words_only else "path", "completed by", "winner"),
        [
            (
                e.word,
                " ".join(e.moves) if words_only else _path(e),
                f"player {e.completed_by}",
                f"player {e.winner}",
            )
            for e in found.endings
        ],
    )


def opening_plans(
    items: Sequence[OpeningPlans], rules: Any, name: str, width: int | None = None
) -> str:
    """For every first move, who wins from there and the outcomes of their plan (see
    `opening_plans_of`)."""
    return opening_plans_of([opening_plan_dict(i) for i in items], rules, name, width)


def opening_plans_of(
    items: Sequence[dict[str, Any]], rules: Any, name: str, width: int | None = None
) -> str:
    """For every first move (`opening_plan_dict`'s form, as kept), who wins from there
    and the outcomes of their plan: the words, wrapped to the terminal's ``width`` under
    the move (a table row of them would run to hundreds of characters), or how many
    sequences."""
    width = width or min(shutil.get_terminal_size().columns, 100)
    words_only = word_is_path(rules)
    lines = textwrap.wrap(
        f"{name}, {rules.describe()}: the words each player must know to win after each first move",
        width,
    )
    lines.append("")
    pad = max((len(item["move"]) for item in items), default=1) + 2
    for item in items:
        player = next((p for p in (0, 1) if item[f"player_{p}"] is not None), None)
        if player is None:
            lines.append(f"{item['move']:<{pad}}no plan: neither player can force a win")
            continue
        endings = item[f"player_{player}"]
        count = len(endings)
        if not words_only:
            lines.append(f"{item['move']:<{pad}}player {player} wins: {count:,} sequences")
            continue
        noun = "word" if count == 1 else "words"
        lines.append(f"{item['move']:<{pad}}player {player} wins knowing {count:,} {noun}:")
        lines += textwrap.wrap(
            " ".join(e["word"] for e in endings),
            width,
            initial_indent=" " * pad,
            subsequent_indent=" " * pad,
            break_on_hyphens=False,
        )
    return "\n".join(lines)


def opening_plan_dict(item: OpeningPlans) -> dict[str, Any]:
    def plan(p: Strategy | None) -> Any:
        return None if p is None else [e.as_dict() for e in p.endings]

    return {
        "move": item.move,
        "fragment": item.fragment,
        "player_0": plan(item.plans[0]),
        "player_1": plan(item.plans[1]),
    }
