"""ghostdb: a persistent, database-backed solution store for Ghost and other finite games.

The names below are the library's face: `open_store` and the `Store` it opens (whose
`Store.solution` hands out a handle on one published solution), the rule sets, what a
lookup answers (`Position`, `Play`, `Outcome`) and the errors.  Beneath them, in layers
whose imports point down (import-linter's contracts in pyproject.toml; the manual's
"How it works" maps the files):

- the front ends: `cli`, the ``ghostdb`` command line (``python -m ghostdb`` runs it
  too), and `web`, ``ghostdb serve``'s JSON API, page and rooms;
- `store`: the database — the `Store` façade over solving, verification, rooms, exports
  and the questions a published solution answers, on SQLAlchemy;
- the pure core, which imports no database, web or command-line library: `play` (the
  match engine, the computer players, a game's analysis, the rooms' referee) and `pack`
  (a solution in one checksummed file, read without a database); `text` (the plain-text
  renderers); `strategies` (plans and lines as trees), `wordlists` (a list normalised
  into game words), `positions` (a `Position` built from stored fields, the store's or a
  pack's) and `memory` (whether a solve fits, asked before it writes); `solvers` (a
  position graph in, values out); `games` (what each game declares, and the one list of
  them); `values` (what a lookup answers), `records` (the store's other results) and
  `wordfiles` (reading a word-list file); at the bottom `errors` (the mistakes a user can
  make, each said in one line), `world` (Debian's word lists and the rule sets ``ghostdb
  world`` solves them under) and `version`.
"""

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
