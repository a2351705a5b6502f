"""ghostdb: a persistent, database-backed solution store for the word game Ghost."""

from ghostdb.errors import (
    BadFragment,
    BadMove,
    DatabaseError,
    DeadFragment,
    GhostdbError,
    NameConflict,
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
    "DatabaseError",
    "DeadFragment",
    "GhostdbError",
    "Move",
    "NameConflict",
    "NotSolved",
    "Outcome",
    "Play",
    "Position",
    "Rules",
    "Store",
    "UnknownDictionary",
    "Variant",
    "WordListError",
    "open_store",
]
__version__ = "0.1.0"
