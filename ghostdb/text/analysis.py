"""A played game's analysis (`ghostdb analyse`) as text.  Pure: values in, strings out."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ghostdb.text.common import table

if TYPE_CHECKING:
    from ghostdb.play.analysis import Analysis, Review

MARK = {"win": "W", "loss": "L", "tie": "T", "draw": "D"}


def value(outcome: str, length: int | None) -> str:
    """A value for the player making the move, as the page marks it: W3 (wins, 3 moves
    left), D (draws)."""
    return MARK[outcome] + ("" if length is None else str(length))


def analysis(found: Analysis) -> str:
    """The moves judged, a table; then each mistake and blunder in words; then each
    player's accuracy and where the game was decided."""
    game = found.game
    rows = [
        [
            r.number,
            f"player {r.player}",
            r.move,
            game.label(r.before),
            value(r.value_before, r.length_before),
            value(r.value_after, r.length_after),
            r.verdict,
            " ".join(r.best[:4]) + (" …" if len(r.best) > 4 else ""),
        ]
        for r in found.reviews
    ]
    lines = [
        f"{found.name}, {game.rules.describe()}: {len(found.reviews)} moves from "
        f"{game.label(found.start)} (values for the player making the move: W wins, "
        "L loses, T ties, D draws; the number is the moves left with best play)",
        table(["#", "by", "move", "from", "before", "after", "verdict", "best"], rows, right=[0]),
    ]
    lines += [f"move {r.number}: {r.note(game)}" for r in found.reviews if r.note(game)]
    shares = [
        f"player {a['player']} {a['kept']}/{a['moves']}"
        + ("" if a["accuracy"] is None else f" ({a['accuracy']:.0%})")
        for a in found.accuracy
    ]
    lines.append("moves that kept the value: " + ", ".join(shares))
    lines.append(decided(found.decisive))
    return "\n".join(lines)


def decided(review: Review | None) -> str:
    if review is None:
        return "no move changed the value: the game went as best play has it"
    return f"decided at move {review.number}, by player {review.player}'s {review.verdict}"
