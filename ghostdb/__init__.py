"""ghostdb: a persistent, database-backed solution store for Ghost and other finite games."""

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
from ghostdb.games.chopsticks_rules import ChopsticksRules
from ghostdb.games.ghost.rules import Move, Rules, Variant
from ghostdb.games.tictactoe_rules import TicTacToeRules
from ghostdb.store import Store, open_store
from ghostdb.values import Outcome, Play, Position
from ghostdb.version import VERSION

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
__version__ = VERSION
