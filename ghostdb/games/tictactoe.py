"""Tic-tac-toe: a game whose play can end with nobody winning (a tie).

3×3, X moves first; a player who completes a line of three wins, so the position after
it is lost for the player to move; a full board with no line is a tie.  A position is
nine characters, ``x``, ``o`` or ``.``, row by row from the top left (the start is
``.........``).  A move is the number of the square, 1–9 row by row from the top left;
moves are ordered by square.  The level of a position is the number of marks.
"""

from __future__ import annotations

from collections.abc import Sequence

from ghostdb.errors import BadFragment, BadMove
from ghostdb.games.base import LOSS, NOT_FINAL, TIE, Game, PositionGraph, explore
from ghostdb.games.tictactoe_rules import TicTacToeRules

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


def winner_mark(board: str) -> str | None:
    """The mark with three in a row, if any."""
    for a, b, c in LINES:
        if board[a] != "." and board[a] == board[b] == board[c]:
            return board[a]
    return None


class TicTacToe(Game):
    name = "tictactoe"
    title = "tic-tac-toe"
    rules_type = TicTacToeRules
    board = "grid"
    marks = ("x", "o")
    in_a_row = 3
    how_to_play = (
        "Two players take turns marking an empty square of a 3×3 grid, X first. Three of "
        "your marks in a row, a column or a diagonal win; a full board without a line is a "
        "tie. Squares are numbered 1–9 row by row from the top left."
    )
    example_positions = (".........", "x...o....")

    def start(self) -> str:
        return "." * 9

    def level(self, key: str) -> int:
        return 9 - key.count(".")

    def to_move(self, key: str, players: int | None = None) -> int | None:
        return self.level(key) % 2

    def _final(self, key: str) -> int:
        if winner_mark(key):
            return LOSS
        return TIE if "." not in key else NOT_FINAL

    def candidates(self, key: str) -> list[tuple[str, str]]:
        if self._final(key) != NOT_FINAL:
            return []
        mark = "xo"[self.level(key) % 2]
        return [(str(i + 1), key[:i] + mark + key[i + 1 :]) for i, c in enumerate(key) if c == "."]

    def parse_move(self, key: str, text: str) -> tuple[str, str]:
        wanted = text.strip()
        for notation, child in self.candidates(key):
            if notation == wanted:
                return notation, child
        if wanted in {str(i) for i in range(1, 10)}:
            raise BadMove(f"square {wanted} is taken: {self.move_hint()}")
        raise BadMove(f"{wanted!r} is not a move: {self.move_hint()}")

    def move_hint(self) -> str:
        return "type the number of an empty square, 1-9 row by row from the top left"

    def clean_key(self, text: str) -> str:
        board = text.strip().lower().replace("-", ".").replace("_", ".").replace(" ", "")
        if len(board) != 9 or set(board) - set("xo."):
            raise BadFragment(
                f"{text!r} is not a tic-tac-toe board: write nine of x, o and '.' row by "
                "row, e.g. x...o...."
            )
        if board.count("x") - board.count("o") not in (0, 1):
            raise BadFragment(f"{text!r} cannot arise: X moves first and the players alternate")
        return board

    def ending(self, key: str) -> str:
        mark = winner_mark(key)
        return f"{mark.upper()} completed a line" if mark else "the board is full"

    def label(self, key: str) -> str:
        return "/".join(key[i : i + 3] for i in (0, 3, 6))

    def build(self, words: Sequence[str] | None = None) -> PositionGraph:
        def moves(key: str) -> list[tuple[int, str]]:
            return [(int(notation), child) for notation, child in self.candidates(key)]

        return explore(self.start(), moves, self._final, self.level, acyclic=True)
