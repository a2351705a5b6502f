"""Connect Four's rule sets: the options (the board's width and height) and the rule-set
type, which every command's parser and the API need, without the game's moves
(`ghostdb.games.connectfour`), so that playing another game does not import those.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from math import comb
from typing import ClassVar

from ghostdb.errors import BadMove
from ghostdb.games.base import Option, option_flags

MAX_CELLS = 20
"""The largest board stored here (5 × 4 and 4 × 5: about 4 million positions, 2 GB at the
peak of a solve); the next sizes have tens to hundreds of millions of positions."""

OPTIONS = (
    Option("width", "--width", int, 4, "Connect Four: columns of the board.", 4, 7),
    Option("height", "--height", int, 4, "Connect Four: rows of the board.", 4, 7),
)
_KEY_RE = re.compile(r"^connectfour/(\d)x(\d)$")


def position_bound(width: int, height: int) -> int:
    """An upper bound on the positions of a board: every way to fill the columns to some
    heights, times every split of those discs between the players (wins not counted)."""
    ways = {0: 1}  # discs -> ways to choose the column heights
    for _ in range(width):
        grown: dict[int, int] = {}
        for discs, count in ways.items():
            for h in range(height + 1):
                grown[discs + h] = grown.get(discs + h, 0) + count
        ways = grown
    return sum(count * comb(discs, (discs + 1) // 2) for discs, count in ways.items())


@dataclass(frozen=True)
class ConnectFourRules:
    """Connect Four's rule options: the board's width and height."""

    width: int = 4
    height: int = 4
    game: ClassVar[str] = "connectfour"
    players: ClassVar[int] = 2

    def __post_init__(self) -> None:
        OPTIONS[0].check(self.width)
        OPTIONS[1].check(self.height)
        if self.width * self.height > MAX_CELLS:
            bound = position_bound(self.width, self.height)
            raise BadMove(
                f"Connect Four {self.width} × {self.height} has up to {_millions(bound)} "
                f"positions: more than fit in this machine's memory to solve (boards of at "
                f"most {MAX_CELLS} cells fit: 4 × 4, 5 × 4, 4 × 5)"
            )

    @property
    def key(self) -> str:
        """E.g. ``connectfour/4x4`` (width, then height)."""
        return f"connectfour/{self.width}x{self.height}"

    @classmethod
    def from_key(cls, key: str) -> ConnectFourRules:
        """The rules of a stored key such as ``connectfour/5x4``."""
        match = _KEY_RE.match(key)
        if not match:
            raise BadMove(f"{key!r} is not a Connect Four rule set: write e.g. connectfour/5x4")
        return cls(int(match[1]), int(match[2]))

    def describe(self) -> str:
        return f"Connect Four, {self.width} columns × {self.height} rows"

    def flags(self) -> str:
        """The command-line flags that select these rules (empty for the default)."""
        return option_flags(self, OPTIONS)


def _millions(n: int) -> str:
    for size, word in ((1e12, "trillion"), (1e9, "billion"), (1e6, "million")):
        if n >= size:
            return f"{n / size:,.0f} {word}"
    return f"{n:,}"
