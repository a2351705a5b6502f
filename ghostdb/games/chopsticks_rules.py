"""Chopsticks' rule sets: the options and the rule-set type, which every command's parser,
the API and the package's top level (`ghostdb.ChopsticksRules`) need, without the game's
moves (`ghostdb.games.chopsticks`), so that playing another game does not import those.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ghostdb.errors import BadMove
from ghostdb.games.base import Option, option_flags

OPTIONS = (
    Option("fingers", "--fingers", int, 5, "Chopsticks: a hand dies at this many fingers.", 2, 9),
    Option(
        "rollover", "--rollover", bool, False, "Chopsticks: a hand keeps the remainder, dying at 0."
    ),
    Option("transfers", "--no-transfers", bool, True, "Chopsticks: taps only, no transfers."),
)


@dataclass(frozen=True)
class ChopsticksRules:
    """Chopsticks' rule options: the count at which a hand dies, rollover, transfers."""

    fingers: int = 5
    rollover: bool = False
    transfers: bool = True
    game: ClassVar[str] = "chopsticks"
    players: ClassVar[int] = 2

    def __post_init__(self) -> None:
        OPTIONS[0].check(self.fingers)

    @property
    def key(self) -> str:
        """E.g. ``chopsticks/5`` or ``chopsticks/4/rollover/no-transfers``."""
        parts = ["chopsticks", str(self.fingers)]
        if self.rollover:
            parts.append("rollover")
        if not self.transfers:
            parts.append("no-transfers")
        return "/".join(parts)

    @classmethod
    def from_key(cls, key: str) -> ChopsticksRules:
        """The rules of a stored key such as ``chopsticks/4/rollover``."""
        parts = key.split("/")
        try:
            if parts[0] != "chopsticks" or not set(parts[2:]) <= {"rollover", "no-transfers"}:
                raise ValueError(key)
            return cls(int(parts[1]), "rollover" in parts[2:], "no-transfers" not in parts[2:])
        except (ValueError, IndexError):
            raise BadMove(
                f"{key!r} is not a Chopsticks rule set: write e.g. chopsticks/5/rollover"
            ) from None

    def describe(self) -> str:
        text = f"Chopsticks, a hand dies at {self.fingers}"
        if self.rollover:
            text = f"Chopsticks, a hand rolls over at {self.fingers}"
        return text + ("" if self.transfers else ", taps only")

    def flags(self) -> str:
        """The command-line flags that select these rules (empty for the default)."""
        return option_flags(self, OPTIONS)
