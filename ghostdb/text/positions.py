"""A looked-up position and its moves, and the first moves of a game.

The lookup path: `ghostdb lookup` imports this module and `ghostdb.text.common`, no
other renderer.  Pure: values in, strings out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ghostdb.games.registry import game_named
from ghostdb.text.common import (
    VERBS,
    category_word,
    for_mover,
    label,
    mover,
    moves_left,
    seat_list,
    table,
)
from ghostdb.values import Outcome, Play, Position


def position(pos: Position, rules: Any) -> str:
    """A lookup: the position's values and every move with its own outcome and length."""
    title = f"{label(pos.fragment)}  —  {pos.name}, {rules.describe()}"
    if pos.label is not None and pos.label != pos.fragment:
        title += f"  (said as {pos.label!r})"
    if pos.safe_seats is not None:
        return _many_players(pos, title)
    game = game_named(pos.game)
    who = mover(pos.to_move)
    if pos.is_final:
        result = {Outcome.WIN: "won", Outcome.LOSS: "lost"}.get(pos.outcome, "tied")
        # A word game ends on a word, which says why; other games give their ending.
        ending = "a word: the game is over" if game.word_game else f"the game is over: {pos.ending}"
        lines = [title, f"{ending}; {who} (to move) has {result}"]
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
        lines.append(plays_table(pos.ranked_plays(), pos.to_move, "play", game.position_noun))
    return "\n".join(lines)


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
        plays_many(pos.ranked_plays()),
    ]
    return "\n".join(lines)


def plays_many(plays: Sequence[Play]) -> str:
    """The moves of a game of more than two players, with the seats safe after each."""
    rows = [
        (p.move, p.fragment, seat_list(p.safe_seats), "completes a word" if p.is_final else "")
        for p in plays
    ]
    return table(("move", "fragment", "safe seats after it", ""), rows)


def plays_table(
    plays: Sequence[Play], to_move: int | None, heading: str = "move", noun: str = "fragment"
) -> str:
    """Every move with what it does for its mover and the game length after it (and, in
    Anagram Ghost, the arrangement the mover says); ``noun`` heads the positions."""
    said = any(p.label is not None for p in plays)
    rows = [
        (
            p.move,
            p.fragment,
            *((p.label,) if said else ()),
            category_word(p.category),
            moves_left(p.game_length) + (" (completes a word)" if p.is_final else ""),
        )
        for p in plays
    ]
    heads = (heading, noun, *(("say",) if said else ()))
    return table((*heads, for_mover(to_move), "then"), rows)


def openings(pos: Position, rules: Any) -> str:
    """Each first move, best first, and what it brings player 0 (who moves first)."""
    plays = pos.ranked_plays()
    if not game_named(pos.game).word_game:
        # Games that can end in a tie or a draw: each move's result for player 0.
        head = f"player 0 {VERBS[pos.outcome]}"
        if pos.outcome is Outcome.WIN:
            head += f", with {', '.join(p.move for p in pos.plays if p.wins)}"
        rows = [(p.move, category_word(p.category), moves_left(p.game_length)) for p in plays]
        return "\n".join(
            [
                f"{pos.name}, {rules.describe()}: {head}",
                "",
                table(("first move", "for player 0", "then"), rows),
            ]
        )
    winners = [p.move for p in pos.plays if p.wins]
    if winners:
        head = f"player 0 wins, with {', '.join(winners)}"
    else:
        head = "player 0 loses: no first move wins"
    rows = [(p.move, f"player {0 if p.wins else 1}", moves_left(p.game_length)) for p in plays]
    return "\n".join(
        [
            f"{pos.name}, {rules.describe()}: {head}",
            "",
            table(("first move", "wins for", "then"), rows),
        ]
    )


def against(found: dict[str, Any]) -> str:
    """Each move's value for its mover against a common:N player, beside its value
    against perfect play: the moves that win in practice."""
    rows = [
        [p["move"], p["fragment"], p["outcome"], p["game_length"], p["perfect_play"]]
        for p in sorted(found["plays"], key=lambda p: (p["outcome"] != "win", p["game_length"]))
    ]
    head = f"against {found['player']} (who moves next), for the player to move:"
    return head + "\n" + table(["move", "leads to", "against it", "moves", "perfect play"], rows)
