"""ghostdb: a persistent, database-backed solution store for Ghost and other finite games."""

from typing import Any

from ghostdb.errors import (
    BadFragment,
    BadMove,
    DatabaseError,
    DeadFragment,
    GhostdbError,
    NameConflict,
    NotForThisGame,
    NotSolved,
    UnknownDictionary,
    WordListError,
)
from ghostdb.rules import Move, Rules, Variant
from ghostdb.store import Store, open_store
from ghostdb.values import Outcome, Play, Position

__all__ = [
    "BadFragment",
    "BadMove",
    "ChopsticksRules",
    "DatabaseError",
    "DeadFragment",
    "GhostdbError",
    "Move",
    "NameConflict",
    "NotForThisGame",
    "NotSolved",
    "Outcome",
    "Play",
    "Position",
    "Rules",
    "Store",
    "TicTacToeRules",
    "UnknownDictionary",
    "Variant",
    "WordListError",
    "open_store",
]
__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    """The stand-alone games' rules, imported when first asked for (see `ghostdb.games`)."""
    if name in ("ChopsticksRules", "TicTacToeRules"):
        from ghostdb import games

        return getattr(games, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
