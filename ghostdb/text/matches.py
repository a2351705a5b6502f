"""Games played: a match's header, its legal moves, its result, a replay of given moves,
and the tally of computer-against-computer games.

Pure: values in, strings out; the match and tally types are the play layer's, named here
for annotations only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ghostdb.games.registry import game_of
from ghostdb.text.common import label, table
from ghostdb.text.positions import plays_many, plays_table, position
from ghostdb.values import Play

if TYPE_CHECKING:
    from ghostdb.play.engine import Match, SelfPlay, Turn
    from ghostdb.values import Position


def seat(game: Match, player: int) -> str:
    return f"player {player} ({game.seats[player]})"


def game_header(game: Match) -> str:
    seats = ", ".join(seat(game, p) for p in range(game.players))
    return f"{game.name}, {game.rules.describe()}: {seats}"


def legal_moves(game: Match) -> str:
    """Every legal move with its outcome for the mover and the game length after it (with
    more than two players, the seats each move leaves safe)."""
    plays = game.plays()
    if any(p.safe_seats is not None for p in plays):
        return plays_many(plays)
    ranked = sorted(plays, key=Play.sort_key)  # best first, as lookups and the API list them
    return plays_table(ranked, game.to_move, "move", game.game.position_noun)


def game_result(game: Match) -> str:
    result = game.result
    assert result is not None
    who = seat(game, result.player)
    moves = " ".join(t.move for t in game.history) or "none"
    if result.kind == "quit":
        return f"{who} quit at {game.game.label(game.fragment)}; moves: {moves}"
    if result.won is None:
        return f"nobody wins: {result.reason}\nmoves: {moves}"
    verb = "wins" if result.won else "loses"
    line = f"{who} {verb}: {result.reason}"
    if result.kind != "final":
        # The other side, where it is one player (two seats): it won what this one lost.
        others = result.losers if result.won else result.winners
        if len(others) == 1:
            line += f"; {seat(game, others[0])} {'loses' if result.won else 'wins'}"
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
    # A word game ends on a word; other games on a position.
    noun = "word" if game_of(report.rules).word_game else "position"
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
