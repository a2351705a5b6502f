"""The console game: prompts, keystrokes and messages around a `ghostdb.play.engine.Match`.

Plain text, so it reads the same on a terminal and through a pipe (the values in the move
list are coloured on a terminal only, and never where NO_COLOR is set).  When input comes
from a pipe the typed line is echoed after its prompt, so a transcript shows every move.

Nothing here knows which game is played: the game declares how to play it, how to type a
move and how a position reads (`ghostdb.games.base.Game`).  A position whose game draws
it as a board of cells (``grid``, ``columns``) is labelled row by row from the top, rows
separated by ``/``; the console draws those rows one under another, so a board reads as a
board in a terminal.  Every move is announced with the position after it, so a transcript
can be followed without the prompts.
"""

from __future__ import annotations

import sys
import textwrap
from collections.abc import Callable

from ghostdb.errors import BadMove
from ghostdb.games.base import Game
from ghostdb.play.engine import HUMAN, Match, Result, Turn
from ghostdb.text.common import for_stream
from ghostdb.text.matches import game_header, game_result, legal_moves

HELP = "? lists every legal move, quit ends the game"
"""The ways of drawing a position (`Game.board`) whose label is rows of cells."""
WIDTH = 88

Read = Callable[[str], str | None]
Write = Callable[[str], None]


def run(match: Match, read: Read | None = None, write: Write | None = None) -> Result:
    """Play ``match`` to the end; ``read(prompt)`` returns a line or None at end of input
    (a quit, so a script that runs out of moves ends cleanly)."""
    read = read or _read
    write = write or _write
    write(game_header(match))
    write(introduction(match.game))
    shown: str | None = None
    while match.result is None:
        if match.seat() != HUMAN:
            shown = _announce(match, match.computer_move(), write)
            continue
        _to_move(match, shown, write)
        turn = _human_move(match, read, write)
        shown = None if turn is None else _announce(match, turn, write)
    assert match.result is not None
    write(game_result(match))
    return match.result


def introduction(game: Game) -> str:
    """How to play (wrapped for a terminal) and how to type a move: what a player needs
    before the first prompt, whichever game it is."""
    lines = textwrap.wrap(game.explain(), WIDTH)
    lines += textwrap.wrap(f"To move, {game.move_hint()}; {HELP}.", WIDTH)
    return "\n".join(lines)


def picture(match: Match, key: str, to_move: int) -> list[str]:
    """The position as lines of a terminal (`ghostdb.games.base.Game.picture`), each
    seat named as its player knows it."""
    return match.game.picture(key, seat_names(match), to_move)


def seat_names(match: Match) -> list[str]:
    """``you`` and ``computer`` where one human plays one computer; else each seat's
    number and who sits in it (``player 1 (optimal)``)."""
    seats = [match.seat(p) for p in range(match.players)]
    humans = [s == "human" for s in seats]
    if len(seats) == 2 and sum(humans) == 1:
        return ["you" if h else f"computer ({s})" for h, s in zip(humans, seats, strict=True)]
    return [f"player {p} ({s})" for p, s in enumerate(seats)]


def _announce(match: Match, turn: Turn, write: Write) -> str:
    """Write the move just made with the position after it; return that position's key,
    which then needs no drawing again before the next prompt."""
    lines = picture(match, turn.fragment, (turn.player + 1) % match.players)
    head = f"player {turn.player} ({match.seat(turn.player)}) plays {turn.move}:"
    write(f"{head} {lines[0]}" if len(lines) == 1 else "\n".join([head, *lines]))
    return turn.fragment


def _to_move(match: Match, shown: str | None, write: Write) -> None:
    """Who is to move, with the position: a one-line label always (the transcript reads
    on), a board only when the last message did not just draw it."""
    lines = picture(match, match.fragment, match.to_move)
    who = f"player {match.to_move} ({match.seat()}) to move"
    if len(lines) == 1:
        write(f"{lines[0]}  —  {who}")
    elif shown == match.fragment:
        write(who)
    else:
        write("\n".join([*lines, who]))


def _human_move(match: Match, read: Read, write: Write) -> Turn | None:
    """Ask until the human makes a move (None: they quit, or input ended).  A line that
    is not a legal move gets a one-line reason and the same prompt again."""
    player = match.to_move
    while True:
        line = read(f"player {player}> ")
        if line is None or line.strip().lower() == "quit":
            match.quit()
            return None
        text = line.strip()
        if text == "?":
            write(legal_moves(match))
            continue
        try:
            return match.play(text)
        except BadMove as exc:
            write(f"{exc}; {HELP}")


def _read(prompt: str) -> str | None:
    try:
        if sys.stdin.isatty():
            return input(prompt)
        sys.stdout.write(prompt)
        sys.stdout.flush()
        line = sys.stdin.readline()
        if not line:
            sys.stdout.write("\n")
            return None
        sys.stdout.write(line if line.endswith("\n") else line + "\n")
        return line.rstrip("\n")
    except EOFError:
        sys.stdout.write("\n")
        return None


def _write(text: str) -> None:
    sys.stdout.write(for_stream(sys.stdout, text) + "\n")
    sys.stdout.flush()
