"""What a game declares, once, for every surface of ghostdb.

Pure: no database.  A game is two modules: its rule sets (a frozen dataclass whose fields
are the game's rule options, and the options as data, `Option`), which every command's
parser needs whatever game it plays, and a `Game` subclass that states the game's name,
title, rule options as data (`Option`), capabilities (played over a dictionary or not,
how many seats), notation, moves, how the page draws it and how to play it, and that turns
its rules into a `PositionGraph` for the solvers.  `ghostdb.games.registry` lists the
games; the command line's rule options, the web API's query parameters, the page's game
list and the parser of a stored rule key are all made from these declarations, so no code
outside ``ghostdb.games`` asks which game it is.

Values are stated for the player to move and coded so that a larger code is better for
that player: ``LOSS < DRAW < TIE < WIN``.  A tie is a final position where nobody wins; a
draw is a position from which neither side can force an end (only games with cycles).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Literal, Protocol, overload

from ghostdb.errors import BadMove, NotForThisGame

if TYPE_CHECKING:  # numpy is for building and solving: lookups start without it
    import numpy as np

LOSS, DRAW, TIE, WIN = 0, 1, 2, 3
NOT_FINAL = -1
VALUE_NAMES = ("loss", "draw", "tie", "win")
"""The stored text of each value code."""
FLIP = (WIN, DRAW, TIE, LOSS)
"""A child's value for its mover, seen by the player who moved there (by value code)."""

Spelling = Literal["flag", "keyword"]
"""How a message names a rule option: as the command line's flag (``--min-length``) or as
the keyword a Python caller gives (``min_length=``)."""


@dataclass(frozen=True)
class Option:
    """One rule option of a game, declared once.

    The command line's flag, the web API's query parameter, the page's control and the
    rule set's field are all made from it.  A bool option's flag turns its default
    around (``--misere`` sets True, ``--no-transfers`` sets False); the API takes the
    value itself (``misere=true``, ``transfers=false``).
    """

    name: str
    """The rule set's field and the API's parameter, e.g. ``min_length``."""
    flag: str
    """The command-line flag, e.g. ``--min-length``."""
    type: type
    """int, bool or str."""
    default: Any
    help: str
    low: int | None = None
    high: int | None = None
    choices: tuple[str, ...] = ()
    """The values a str option takes (a Ghost variant)."""
    short: str | None = None
    """A one-letter alias of the flag, e.g. ``-m``."""
    opposite: str | None = None
    """A bool option's flag back to its default (``--normal`` for ``--misere``); by default
    the flag with ``--no-`` added or taken away."""

    @property
    def opposite_flag(self) -> str:
        """The flag that sets a bool option back to its default."""
        if self.opposite:
            return self.opposite
        bare = self.flag.removeprefix("--")
        return f"--{bare.removeprefix('no-')}" if bare.startswith("no-") else f"--no-{bare}"

    def spelled(self, spelling: Spelling = "flag") -> str:
        """The option as a message names it: its flag, or its keyword (``min_length=``)."""
        return f"{self.name}=" if spelling == "keyword" else self.flag

    def check(self, value: Any, spelling: Spelling = "flag") -> Any:
        """The value as the rule set stores it; raise BadMove naming the option (its flag,
        or its keyword: ``spelling``) and its range."""
        said = self.spelled(spelling)
        if self.type is bool:
            if not isinstance(value, bool):
                either = "True or False" if spelling == "keyword" else "true or false"
                raise BadMove(f"{said} is {either}, not {value!r}")
            return value
        if self.type is int:
            try:
                number = int(value)
            except (TypeError, ValueError):
                raise BadMove(f"{said} takes a whole number, not {value!r}") from None
            if (self.low is not None and number < self.low) or (
                self.high is not None and number > self.high
            ):
                raise BadMove(f"{said} must be {self.range_text()}, not {number}")
            return number
        text = str(getattr(value, "value", value)).lower()
        if self.choices and text not in self.choices:
            raise BadMove(f"{said} is one of {', '.join(self.choices)}, not {value!r}")
        return text

    def range_text(self) -> str:
        if self.low is not None and self.high is not None:
            return f"from {self.low} to {self.high}"
        if self.low is not None:
            return f"at least {self.low}"
        return f"at most {self.high}"

    def flag_for(self, value: Any) -> str:
        """The command-line words that select ``value`` ('' for the default)."""
        value = getattr(value, "value", value)
        if value == getattr(self.default, "value", self.default):
            return ""
        return self.flag_selecting(value)

    def flag_selecting(self, value: Any) -> str:
        """The command-line words that select ``value`` even where it is the default (a
        switch's opposite flag), as the second side of a comparison needs."""
        value = getattr(value, "value", value)
        if self.type is bool:  # the flag turns the default around
            default = getattr(self.default, "value", self.default)
            return self.opposite_flag if value == default else self.flag
        return f"{self.flag} {value}"

    def as_dict(self) -> dict[str, Any]:
        """The declaration as the API and the page read it."""
        return {
            "name": self.name,
            "flag": self.flag,
            "type": self.type.__name__,
            "default": getattr(self.default, "value", self.default),
            "help": self.help,
            "low": self.low,
            "high": self.high,
            "choices": list(self.choices),
        }


class RuleSet(Protocol):
    """What every game's rule-set type gives: its game, a stored key, a description."""

    game: ClassVar[str]

    @property
    def key(self) -> str:
        """The key under which a solution is stored, e.g. ``ghost/3``, ``chopsticks/5``."""
        ...

    @property
    def players(self) -> int:
        """How many seats play (2 but in many-player Ghost)."""
        ...

    def describe(self) -> str: ...

    def flags(self) -> str: ...


def option_flags(rules: Any, options: Sequence[Option]) -> str:
    """The command-line flags that select ``rules`` (empty for the default), each with a
    leading space, as messages quote them: ``ghostdb solve NAME{flags}``."""
    words = [option.flag_for(getattr(rules, option.name)) for option in options]
    return "".join(f" {w}" for w in words if w)


class Keys(Protocol):
    """The keys of a graph's positions, in node order: a list, or anything that reads like
    one and can look up many keys at once.

    Ghost's builders keep their fragments packed as letter codes (millions of Python
    strings would be most of a solve's memory) and decode them a slice at a time, as the
    rows are written; the games built one position at a time give a `KeyList`.
    """

    def __len__(self) -> int: ...

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> list[str]: ...

    def __iter__(self) -> Iterator[str]: ...

    def take(self, indices: np.ndarray) -> list[str | None]:
        """The keys of nodes ``indices`` (a numpy array), None where an index is -1."""
        ...


class KeyList(list[str]):
    """A plain list of keys with `Keys.take`: what `PositionGraph` makes of a list."""

    def take(self, indices: np.ndarray) -> list[str | None]:
        key = self.__getitem__
        return [key(i) if i >= 0 else None for i in indices.tolist()]


class SortedWords(tuple[str, ...]):
    """Distinct words sorted by code point, each of at least ``min_length`` letters: what
    a store reads for a solve (`ghostdb.store.sql.queries.dictionary_words`), said once so
    that a game builds from them as they are.  Filtering and sorting Debian's 4 million
    Polish words again took half a second of a 10-second solve."""

    min_length: int

    def __new__(cls, words: Sequence[str], min_length: int) -> SortedWords:
        made = super().__new__(cls, words)
        made.min_length = min_length
        return made


@dataclass
class PositionGraph:
    """Every position of a rule set and every move between them, as arrays.

    Nodes are numbered in storage order (by level, then key).  Edges go from every
    position that is not final to each position one move away, one edge per distinct
    child (the first move in move order names it), sorted by parent then ``edge_rank``,
    which orders the moves of one position (the documented tie-break order).
    """

    keys: Keys
    """A plain list is made a `KeyList` (so every graph's keys have `Keys.take`)."""
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
    labels: Keys | None = None
    """Optional text shown for a position (Anagram Ghost: an arrangement to say)."""

    def __post_init__(self) -> None:
        if isinstance(self.keys, list) and not isinstance(self.keys, KeyList):
            self.keys = KeyList(self.keys)

    @property
    def size(self) -> int:
        return len(self.keys)


class Game(ABC):
    """One game under one rule set.  Subclasses declare the class attributes below and
    implement the abstract methods; the rest has defaults that fit most games."""

    name: ClassVar[str]
    """The game's name on the command line and in the API, e.g. ``chopsticks``."""
    title: ClassVar[str]
    rules_type: ClassVar[Any]
    """The rule-set type: a frozen dataclass whose fields are the `options`' names."""
    options: ClassVar[tuple[Option, ...]] = ()
    word_game: ClassVar[bool] = False
    """Played over a stored dictionary, with memorisable plans (``strategy``,
    ``openings --words``), word counts and the survey."""
    max_players: ClassVar[int] = 2
    position_noun: ClassVar[str] = "position"
    board: ClassVar[str] = "text"
    """How the page draws a position: ``letters``, ``hands``, ``grid`` or ``columns``."""
    marks: ClassVar[tuple[str, ...]] = ()
    """The marks of a board game's players, in seat order (``x``, ``o``): the page says
    who is who."""
    in_a_row: ClassVar[int | None] = None
    """How many of one mark in a line win (a board game): the page marks the line."""
    how_to_play: ClassVar[str] = ""
    """A few sentences for the page and the console."""
    example_positions: ClassVar[tuple[str, ...]] = ()
    children_extend_key: bool = False
    """Every move appends one character to the key (plain Ghost): a position's children
    are the keys of the next level that it begins, one range of the primary key."""

    def __init__(self, rules: Any = None) -> None:
        self.rules = self.rules_type() if rules is None else rules  # none given: the default
        self.key = self.rules.key
        """The rule set's key, e.g. ``chopsticks/5``."""

    # -- rule sets ---------------------------------------------------------------------------

    @classmethod
    def make_rules(cls, *, spelling: Spelling = "flag", **given: Any) -> Any:
        """The rule set of the options given (None: not given, so the default); an option
        of another game is refused in one line that lists this game's.  Messages name the
        options as the command line's flags, or (``spelling="keyword"``) as the keywords
        a Python caller gave."""
        own = {o.name: o for o in cls.options}
        stray = [k for k, v in given.items() if v is not None and k not in own]
        if stray:
            names = ", ".join(o.spelled(spelling) for o in cls.options) or "none"
            said, hint = _flag_of(stray[0]), ""
            if spelling == "keyword":
                # The command line's name for an option said as a keyword (``rules=``
                # for Ghost's ``--rules``): name the keyword that it is.
                meant = next((o for o in cls.options if o.flag == said), None)
                said = f"{stray[0]}="
                if meant is not None:
                    hint = f" (the command line's {meant.flag} is {meant.spelled(spelling)})"
            raise BadMove(
                f"{said} is not a rule option of {cls.name}{hint}: its rule options are {names}"
            )
        values = {
            name: option.default if given.get(name) is None else option.check(given[name], spelling)
            for name, option in own.items()
        }
        # A rule set is its options' values, by name (Ghost's turns its variant's name into
        # the variant: its own `from_options`).
        make = getattr(cls.rules_type, "from_options", cls.rules_type)
        return make(**values)

    @classmethod
    def owns_key(cls, key: str) -> bool:
        """Whether a stored rule key is one of this game's (its first part names it)."""
        return key.split("/", 1)[0] == cls.name

    def check_decisive(self) -> None:
        """Raise NotForThisGame unless `decider` works out decisive words for this rule
        set (a game without words has none)."""
        raise NotForThisGame(
            f"decisive words are a word-game question: {self.name} is played without words"
        )

    def decider(self, words: Sequence[str], values: Mapping[str, str]) -> Any:
        """What re-evaluates single-word edits from stored values (`decisive` words)."""
        self.check_decisive()

    @classmethod
    def standard_rule_sets(cls, misere: bool = False) -> list[Any]:
        """The rule sets ``solve --all`` solves (the default one unless a game says more)."""
        if misere:
            raise BadMove(f"--misere is not a rule option of {cls.name}")
        return [cls.make_rules()]

    def cost(self) -> int:
        """A rough order of solve times, to start the longest first."""
        return 1

    def positions_at_most(self, words: Sequence[str] | None) -> int | None:
        """A cheap upper bound on how many positions `build` makes (None: no bound known,
        or small enough not to matter): a solve asks `estimate_positions` only when this
        bound would not fit in memory."""
        return None

    def estimate_positions(self, words: Sequence[str] | None) -> int | None:
        """About how many positions `build` makes (None: not estimated), to refuse a solve
        that cannot fit in memory before it writes anything."""
        return None

    @property
    def keeps_plans(self) -> bool:
        """Solutions keep memorisable plans, and a principal line follows every tied best
        play: a word game for two players (with more, no one player can force a result;
        games with draws have no game length to tie on)."""
        return self.word_game and self.rules.players == 2

    @property
    def keys_are_words(self) -> bool:
        """A final position's key is the word it completes (a word game's, as a rule):
        what a puzzle's deciding word and the ``trap`` player weigh by frequency."""
        return self.word_game

    @property
    def plan_unit(self) -> str:
        """What one outcome of a plan is, as reports name it."""
        return "word"

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

    def moves_among(self, keys: Any) -> tuple[Any, Any] | None:
        """The moves between the positions ``keys`` (a pack's, in key order: a numpy
        array of fixed-width UTF-8 bytes, NUL-padded), found for all of them at once: two
        numpy arrays of rows, parent and child, one pair a distinct move (`candidates`
        where the child is among ``keys``), in any order.  None where the game has no
        such batch: `candidates` are asked a position at a time (a pack's check of a game
        it cannot rebuild from its final positions)."""
        return None

    @abstractmethod
    def clean_key(self, text: str) -> str:
        """A typed position in canonical form; raise BadFragment if it is not one."""

    def key_of(self, position: str | None) -> str:
        """The key of a position as a caller gives it: its text in canonical form, the
        start when empty (or None); TypeError for anything but text, BadFragment for text
        that is no position of the game."""
        if not position:
            if position is None or isinstance(position, str):
                return self.start()
        elif isinstance(position, str):
            return self.clean_key(position)
        example = next((p for p in reversed(self.example_positions) if p), "")
        raise TypeError(f"a {self.position_noun} is text, such as {example!r}, not {position!r}")

    def keys_of(self, positions: Sequence[str]) -> list[str]:
        """`key_of` each of ``positions`` (a list, not one text: TypeError)."""
        return [self.key_of(p) for p in listed(positions, self.position_noun)]

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
        """How to type a move, for prompts and error messages."""
        return "type a move"

    def ending(self, key: str) -> str:
        """Why the game is over at a final position, in a few words."""
        return "the game is over"

    def label(self, key: str) -> str:
        """The position as shown to people."""
        return key

    def explain(self) -> str:
        """How to play under these rules, in words (no flags): what the console says
        before the first move and the page shows beside the board."""
        return self.how_to_play

    def picture(self, key: str, players: Sequence[str], to_move: int) -> list[str]:
        """The position drawn for a terminal: its label on one line, or a board's rows
        (``grid``, ``columns``), cells spaced out and indented to stand apart from the
        messages around them.  ``players`` names each seat as the console shows it
        (``you``, ``computer``); ``to_move`` is the seat whose turn it is."""
        label = self.label(key)
        if self.board not in ("grid", "columns"):
            return [label]
        return ["    " + " ".join(row) for row in label.split("/")]

    def dead_play(self, after: str, continuations: Sequence[str]) -> str | None:
        """Why a typed move to ``after``, a position no game stores, loses at once, in a
        few words (``continuations``: the positions the legal moves reach); None when such
        a move is simply not legal and the player is asked again.  Only a word game lets a
        player make such a move: in the spoken game, a letter no word continues loses."""
        return None

    def can_become(self, key: str, word: str) -> bool:
        """Whether the dictionary word ``word`` answers a challenge at ``key``: long enough
        to count and one that the position can still become under the rules (Ghost: it
        begins with the fragment).  A room's referee asks this of a word named when
        challenged; only word games are challenged."""
        raise NotForThisGame(f"{self.name} is played without words: nobody is challenged")

    def not_stored(self, key: str, stored: Callable[[str], bool], name: str) -> str:
        """Why ``key`` is not a stored position, in one line (``stored(k)`` tells whether
        another key is); the store raises it as DeadFragment."""
        return (
            f"{key!r} is not a position a game of {self.rules.describe()} can reach from "
            f"the start ({self.start()})"
        )


def listed(positions: Sequence[Any], noun: str = "position") -> Sequence[Any]:
    """``positions``, a batch of them; TypeError for one text given in place of the list
    (which would be asked letter by letter)."""
    if isinstance(positions, (str, bytes)):
        raise TypeError(f"give a list of {noun}s, such as [{positions!r}], not one {noun} alone")
    return positions


def explore(
    start: str,
    moves: Callable[[str], Sequence[tuple[int, str]]],
    final: Callable[[str], int],
    level: Callable[[str], int],
    *,
    acyclic: bool,
) -> PositionGraph:
    """Every position reachable from ``start``, searched one position at a time: the one
    routine the stand-alone games share.  ``moves(key)`` gives ``(rank, child)`` for each
    move in move order (none at a final position); ``final(key)`` the value for the
    player to move at a final position, else NOT_FINAL."""
    import numpy as np  # building only: lookups start without numpy

    index = {start: 0}
    keys, edges, queue = [start], [], [start]
    while queue:
        key = queue.pop()
        parent = index[key]
        for rank, child in moves(key):
            found = index.get(child)
            if found is None:
                found = index[child] = len(keys)
                keys.append(child)
                queue.append(child)
            edges.append((parent, found, rank))
    finals = np.fromiter((final(k) for k in keys), dtype=np.int8, count=len(keys))
    levels = np.fromiter((level(k) for k in keys), dtype=np.int32, count=len(keys))
    return graph_from_edges(keys, levels, finals, edges, 0, acyclic=acyclic)


def _flag_of(name: str) -> str:
    return "--" + name.replace("_", "-")


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
