"""What every game gives ghostdb: a position graph, moves with notation, final values.

Pure: no database.  A game module defines a rule-set type (a frozen dataclass with a
``key`` such as ``chopsticks/5`` and ``describe()``) and a `Game` subclass that turns those
rules into a `PositionGraph` for the solvers and answers the questions the store, the
play engine and the renderers ask about one position: its moves, whose turn it is, how a
typed move or position is read.  Nothing else about a game is special-cased elsewhere.

Values are stated for the player to move and coded so that a larger code is better for
that player: ``LOSS < DRAW < TIE < WIN``.  A tie is a final position where nobody wins; a
draw is a position from which neither side can force an end (only games with cycles).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from ghostdb.errors import BadMove

if TYPE_CHECKING:  # numpy is for building and solving: lookups start without it
    import numpy as np

LOSS, DRAW, TIE, WIN = 0, 1, 2, 3
NOT_FINAL = -1
VALUE_NAMES = ("loss", "draw", "tie", "win")
"""The stored text of each value code."""
FLIP = (WIN, DRAW, TIE, LOSS)
"""A child's value for its mover, seen by the player who moved there (by value code)."""


@dataclass
class PositionGraph:
    """Every position of a rule set and every move between them, as arrays.

    Nodes are numbered in storage order (by level, then key).  Edges go from every
    position that is not final to each position one move away, one edge per distinct
    child (the first move in move order names it), sorted by parent then ``edge_rank``,
    which orders the moves of one position (the documented tie-break order).
    """

    keys: list[str]
    level: np.ndarray  # int32: every move raises it (all 0 in a game with cycles)
    final: np.ndarray  # int8: the value for the player to move at a final position, else NOT_FINAL
    edge_parent: np.ndarray  # int32
    edge_child: np.ndarray  # int32
    edge_rank: np.ndarray  # int32
    start: int
    acyclic: bool
    """Every move raises the level, so the level sweep applies (else retrograde analysis)."""
    word_length: np.ndarray | None = None
    """Word games: the letters of each position, which plans count."""
    labels: list[str] | None = None
    """Optional text shown for a position (Anagram Ghost: an arrangement to say)."""

    @property
    def size(self) -> int:
        return len(self.keys)


class Game(ABC):
    """One game under one rule set.  Subclasses set ``name`` and implement the methods."""

    name: ClassVar[str]
    title: ClassVar[str]
    word_game: ClassVar[bool] = False
    """Word games have dictionaries and memorisable plans (``strategy``, ``openings --words``)."""
    position_noun: ClassVar[str] = "position"
    children_extend_key: bool = False
    """Every move appends one character to the key (plain Ghost): a position's children
    are the keys of the next level that it begins, one range of the primary key."""

    def __init__(self, rules: Any) -> None:
        self.rules = rules
        self.key = rules.key
        """The rule set's key, e.g. ``chopsticks/5``."""

    # -- the whole graph ---------------------------------------------------------------------

    @abstractmethod
    def build(self, words: Sequence[str] | None = None) -> PositionGraph:
        """Every position reachable from the start (word games: every fragment)."""

    # -- one position ------------------------------------------------------------------------

    @abstractmethod
    def start(self) -> str:
        """The key of the start position."""

    @abstractmethod
    def level(self, key: str) -> int:
        """The position's level (see `PositionGraph.level`)."""

    @abstractmethod
    def candidates(self, key: str) -> list[tuple[str, str]]:
        """``(notation, child key)`` for every move from ``key``, in move order, one per
        distinct child.  Word games list every letter: only stored children are legal."""

    @abstractmethod
    def clean_key(self, text: str) -> str:
        """A typed position in canonical form; raise BadFragment if it is not one."""

    def to_move(self, key: str, players: int | None = None) -> int | None:
        """The player to move (0 made the first move), if the key tells; else None."""
        return None

    def parse_move(self, key: str, text: str) -> tuple[str, str]:
        """``(notation, child key)`` of a typed move; raise BadMove with a hint."""
        wanted = text.strip().lower()
        for notation, child in self.candidates(key):
            if notation == wanted:
                return notation, child
        raise BadMove(f"{text.strip()!r} is not a move here: {self.move_hint()}")

    def describe_move(self, parent: str, child: str) -> str:
        """The notation of the first move that turns ``parent`` into ``child``."""
        for notation, candidate in self.candidates(parent):
            if candidate == child:
                return notation
        raise BadMove(f"no single move turns {parent!r} into {child!r}")

    def move_hint(self) -> str:
        return "type a move"

    def ending(self, key: str) -> str:
        """Why the game is over at a final position, in a few words."""
        return "the game is over"

    def label(self, key: str) -> str:
        """The position as shown to people."""
        return key


def graph_from_edges(
    keys: list[str],
    level: np.ndarray,
    final: np.ndarray,
    edges: list[tuple[int, int, int]],
    start: int,
    *,
    acyclic: bool,
) -> PositionGraph:
    """A `PositionGraph` from small games' Python lists: nodes renumbered into storage order
    (level, key), duplicate (parent, child) edges reduced to the first move."""
    import numpy as np

    order = sorted(range(len(keys)), key=lambda i: (int(level[i]), keys[i]))
    new = np.empty(len(keys), dtype=np.int32)
    new[order] = np.arange(len(keys), dtype=np.int32)
    arr = np.asarray(edges, dtype=np.int64).reshape(-1, 3)
    parent, child, rank = new[arr[:, 0]], new[arr[:, 1]], arr[:, 2].astype(np.int32)
    idx = np.lexsort((rank, child, parent))
    parent, child, rank = parent[idx], child[idx], rank[idx]
    keep = np.ones(len(parent), dtype=bool)
    keep[1:] = (parent[1:] != parent[:-1]) | (child[1:] != child[:-1])
    parent, child, rank = parent[keep], child[keep], rank[keep]
    idx = np.lexsort((rank, parent))
    return PositionGraph(
        keys=[keys[i] for i in order],
        level=np.asarray(level, dtype=np.int32)[order],
        final=np.asarray(final, dtype=np.int8)[order],
        edge_parent=parent[idx].astype(np.int32),
        edge_child=child[idx].astype(np.int32),
        edge_rank=rank[idx],
        start=int(new[start]),
        acyclic=acyclic,
    )
