"""Tic-tac-toe's rule set (it has one, without options): what the registry and the
package's top level (`ghostdb.TicTacToeRules`) need, without the game's moves
(`ghostdb.games.tictactoe`), so that playing another game does not import those.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ghostdb.errors import BadMove


@dataclass(frozen=True)
class TicTacToeRules:
    """Tic-tac-toe has no rule options."""

    game: ClassVar[str] = "tictactoe"
    players: ClassVar[int] = 2

    @property
    def key(self) -> str:
        return "tictactoe"

    @classmethod
    def from_key(cls, key: str) -> TicTacToeRules:
        if key != "tictactoe":
            raise BadMove(f"{key!r} is not a tic-tac-toe rule set: it has one, tictactoe")
        return cls()

    def describe(self) -> str:
        return "tic-tac-toe"

    def flags(self) -> str:
        return ""
