"""What a room asks of its stored solution (`Judge`): the referee to rule, the verdicts
to grade, the computer seats to play.  A protocol, so that the pure referee names no
store: the store's side is `ghostdb.store.rooms.judge.StoreJudge`, a test's a dict."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from ghostdb.games.base import Game
    from ghostdb.values import Position


class Judge(Protocol):
    """What the referee asks of the room's stored solution."""

    game: Game

    def position(self, key: str) -> Position | None:
        """The stored position at ``key`` with its plays; None where none is stored (in a
        word game: a position no word can become, a bluff)."""
        ...

    def positions(self, keys: Sequence[str]) -> list[Position | None]:
        """`position` of each key, in order, read together (a round's grading asks for
        every position of the round at once)."""
        ...

    def is_word(self, word: str) -> bool:
        """Whether ``word`` is in the room's dictionary."""
        ...

    def graded(self, players: int) -> Callable[[str], Position | None] | None:
        """Lookups in the solution of the room's rules for ``players`` seats, which grade
        a round played by that many (None: not solved for that many)."""
        ...

    def word_for(self, strategy: str, key: str) -> str | None:
        """A word that a seat playing ``strategy`` knows and the position at ``key`` can
        become (None: it knows none): with ``optimal``, the word the stored best line
        ends on, which the verdicts name when a challenge was wrong."""
        ...
