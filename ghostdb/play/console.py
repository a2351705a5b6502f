"""The console game: prompts, keystrokes and messages around a `ghostdb.play.engine.Game`.

Plain text only, so it reads the same on a terminal and through a pipe.  When input comes
from a pipe the typed line is echoed after its prompt, so a transcript shows every move.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from ghostdb.errors import BadMove
from ghostdb.play.engine import HUMAN, Game, Result
from ghostdb.text.common import label
from ghostdb.text.matches import game_header, game_result, legal_moves

HELP = "? lists every legal move, quit ends the game"


def run(
    game: Game,
    read: Callable[[str], str | None] | None = None,
    write: Callable[[str], None] | None = None,
) -> Result:
    """Play ``game`` to the end; ``read(prompt)`` returns a line or None at end of input."""
    read = read or _read
    write = write or _write
    write(game_header(game))
    write(f"type a move ({game.rules.move_hint()}); {HELP}")
    while game.result is None:
        player = game.to_move
        seat = game.seat()
        if seat != HUMAN:
            turn = game.computer_move()
            write(f"player {player} ({seat}) plays {turn.move}: {label(turn.fragment)}")
            continue
        write(f"{label(game.fragment)}  —  player {player} ({seat}) to move")
        while True:
            line = read(f"player {player}> ")
            if line is None or line.strip().lower() == "quit":
                game.quit()
                break
            text = line.strip()
            if text == "?":
                write(legal_moves(game))
                continue
            try:
                game.play(text)
            except BadMove as exc:
                write(f"{exc}; {HELP}")
                continue
            break
    assert game.result is not None
    write(game_result(game))
    return game.result


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
    sys.stdout.write(text + "\n")
    sys.stdout.flush()
