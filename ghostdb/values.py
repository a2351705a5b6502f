"""Small immutable value types shared by the store, the renderers and the game engine."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, NamedTuple


class Outcome(enum.Enum):
    """The value of a position with perfect play, stated for the player to move."""

    WIN = "win"
    """The player to move can force a win (in Ghost: force the opponent to complete a word)."""
    LOSS = "loss"
    """Whatever the player to move does, the opponent can force a win."""
    TIE = "tie"
    """Neither side can force a win; the game ends with nobody winning (tic-tac-toe)."""
    DRAW = "draw"
    """Neither side can force the game to end (Chopsticks): play goes on for ever."""

    def flipped(self) -> Outcome:
        """The same position's value for the other player (2 players)."""
        return {Outcome.WIN: Outcome.LOSS, Outcome.LOSS: Outcome.WIN}.get(self, self)


CATEGORY = {Outcome.LOSS: "win", Outcome.WIN: "lose", Outcome.TIE: "tie", Outcome.DRAW: "draw"}
"""A move's category for the player who makes it, from the outcome of where it leads."""
_PREFERENCE = {"win": 0, "tie": 1, "draw": 2, "lose": 3}


class Play(NamedTuple):
    """A legal move and the position it leads to (a NamedTuple: lookups make many)."""

    move: str
    """The move in the game's notation."""
    fragment: str
    """The position after the move (its text key)."""
    outcome: Outcome
    """Outcome of the new position for the player to move there (the opponent)."""
    game_length: int | None
    """Moves left after the move under best play (0 if it ends the game; None: a draw)."""
    is_final: bool
    """Whether the move ends the game (in Ghost: completes a word)."""
    safe_seats: tuple[int, ...] | None = None
    """More than two players: the seats that can still avoid losing after the move."""
    label: str | None = None
    """How the mover says the new position (Anagram Ghost: an arrangement of its letters)."""

    @property
    def wins(self) -> bool:
        """Whether the move wins for the player who makes it."""
        return self.outcome is Outcome.LOSS

    @property
    def is_word(self) -> bool:
        """Ghost's name for a move that ends the game: it completes a word."""
        return self.is_final

    @property
    def category(self) -> str:
        """win / lose / tie / draw for the player who makes the move."""
        return CATEGORY[self.outcome]

    def sort_key(self) -> tuple[int, int]:
        """Best first for the mover: wins soonest, ties soonest, draws, losses latest."""
        rank = _PREFERENCE[self.category]
        length = self.game_length if self.game_length is not None else 0
        return rank, -length if rank == 3 else length

    def as_dict(self) -> dict[str, Any]:
        data = {
            "move": self.move,
            "fragment": self.fragment,
            "outcome": self.outcome.value,
            "category": self.category,
            "wins": self.wins,
            "game_length": self.game_length,
            "final": self.is_final,
        }
        if self.safe_seats is not None:
            data["safe_seats"] = list(self.safe_seats)
        if self.label is not None:
            data["say"] = self.label
        return data


class Position(NamedTuple):
    """A stored position with its solved values and its legal moves (a NamedTuple, not a
    frozen dataclass: lookups make one each, and this builds several times faster)."""

    name: str
    """The dictionary (word games) or the game it belongs to."""
    game: str
    rules: str
    """The rule set's key, e.g. ``ghost/3``, ``superduper/4/misere``, ``chopsticks/5``."""
    fragment: str
    """The position's text key: Ghost letters, Chopsticks hands, a tic-tac-toe board."""
    outcome: Outcome
    game_length: int | None
    """Moves left with best play (see `ghostdb.solvers`); None for a draw."""
    best_move: str | None
    winning_moves: int
    drawing_moves: int
    is_final: bool
    """The game is over here; its outcome is decided by the rules."""
    ending: str | None
    """Why the game is over here (None if it is not)."""
    reachable: bool
    """Whether a real game can arrive here (Ghost: no earlier fragment was a word)."""
    to_move: int | None
    """Index of the player to move (0 made the first move); None where the position does
    not tell (Chopsticks: the same for both players)."""
    plays: tuple[Play, ...] = ()
    """The legal moves, in move order."""
    safe_seats: tuple[int, ...] | None = None
    """More than two players: the seats that can avoid losing from here whatever the
    others do together (None for two players)."""
    label: str | None = None
    """How the position is said (Anagram Ghost: an arrangement of its letters)."""

    @property
    def safe_moves(self) -> list[Play]:
        """More than two players: the moves after which the mover is still safe."""
        if self.to_move is None or self.safe_seats is None:
            return []
        return [p for p in self.plays if p.safe_seats and self.to_move in p.safe_seats]

    @property
    def dictionary(self) -> str:
        return self.name

    @property
    def is_word(self) -> bool:
        return self.is_final

    @property
    def winner(self) -> int | None:
        """The player who wins from here with perfect play, where one does and the
        position says whose turn it is."""
        if self.to_move is None or self.outcome not in (Outcome.WIN, Outcome.LOSS):
            return None
        if self.safe_seats is not None:
            return None  # more than two players: see safe_seats
        return self.to_move if self.outcome is Outcome.WIN else 1 - self.to_move

    def ranked_plays(self) -> list[Play]:
        """The moves best first for the mover (ties keep move order)."""
        return sorted(self.plays, key=Play.sort_key)

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "game": self.game,
            "rules": self.rules,
            "fragment": self.fragment,
            "to_move": self.to_move,
            "outcome": self.outcome.value,
            "winner": self.winner,
            "game_length": self.game_length,
            "best_move": self.best_move,
            "winning_moves": self.winning_moves,
            "drawing_moves": self.drawing_moves,
            "final": self.is_final,
            "ending": self.ending,
            "reachable": self.reachable,
            **({} if self.label is None else {"say": self.label}),
            **({} if self.safe_seats is None else {"safe_seats": list(self.safe_seats)}),
            "plays": [p.as_dict() for p in self.ranked_plays()],
        }


@dataclass(frozen=True)
class IngestReport:
    """What an ingest accepted and what it left out, with a few examples of each."""

    accepted: int
    left_out: dict[str, int]
    examples: dict[str, list[str]]
    encoding: str
    warnings: tuple[str, ...] = ()
    folded: int = 0
    """Words whose accents were folded (``--fold-accents``), duplicates included."""
    notes: tuple[str, ...] = ()
    """Plain-word remarks, e.g. that the capitalised words left out look like nouns."""
    options: dict[str, Any] = field(default_factory=dict)
    """The ingest options (keep_capitalised, fold_accents, language), stored with it."""

    def as_dict(self) -> dict[str, Any]:
        return {
            "accepted": self.accepted,
            "left_out": dict(self.left_out),
            "examples": {k: list(v) for k, v in self.examples.items()},
            "encoding": self.encoding,
            "warnings": list(self.warnings),
            "folded": self.folded,
            "notes": list(self.notes),
            "options": dict(self.options),
        }


@dataclass(frozen=True)
class DictionaryInfo:
    """A stored dictionary."""

    name: str
    source: str
    sha256: str
    word_count: int
    alphabet: str
    ingested_at: datetime
    report: dict[str, Any]


@dataclass(frozen=True)
class SolutionInfo:
    """A solve job's row: what was solved, how it went and how long it took."""

    id: int
    name: str
    """The dictionary, or the game without one."""
    game: str
    rules: str
    status: str
    started_at: datetime
    finished_at: datetime | None
    word_count: int | None
    fragment_count: int | None
    reachable_count: int | None
    solver_version: str
    seconds: float | None
    has_plans: bool
    error: str | None


@dataclass(frozen=True)
class PlanSize:
    """The stored rank of a player's best plan from the start: lossiness (0 all outcomes
    won, 1 mixed, 2 all lost), how many outcomes and their letters."""

    lossiness: int
    outcomes: int
    letters: int

    def as_dict(self) -> dict[str, int]:
        return {"lossiness": self.lossiness, "outcomes": self.outcomes, "letters": self.letters}


@dataclass(frozen=True)
class SolutionSummary:
    """The headline figures of a published solution."""

    dictionary: str
    """The dictionary or the game."""
    rules: str
    word_count: int | None
    """Words that end the game (of the minimum length or more); None for other games."""
    fragment_count: int
    reachable_count: int
    outcome: Outcome
    """The start's value for the first player."""
    winner: int | None
    """The player who wins from the start with perfect play (None: a tie or a draw)."""
    winning_first_moves: tuple[str, ...]
    game_length: int | None
    plans: tuple[PlanSize, PlanSize] | None
    """Best plan from the start for player 0 and for player 1 (word games)."""

    def as_dict(self) -> dict[str, Any]:
        return {
            "dictionary": self.dictionary,
            "rules": self.rules,
            "outcome": self.outcome.value,
            "words": self.word_count,
            "fragments": self.fragment_count,
            "reachable": self.reachable_count,
            "winner": self.winner,
            "winning_first_moves": list(self.winning_first_moves),
            "game_length": self.game_length,
            "plans": None if self.plans is None else [p.as_dict() for p in self.plans],
        }


@dataclass(frozen=True)
class Disagreement:
    """A fragment stored in both solutions with different outcomes."""

    fragment: str
    outcomes: tuple[Outcome, Outcome]


@dataclass(frozen=True)
class Comparison:
    """Two published solutions side by side, and where they differ."""

    a: SolutionSummary
    b: SolutionSummary
    common_fragments: int
    different_outcomes: int
    """Fragments stored in both whose outcome differs."""
    different_reachable: int
    """Of those, the ones reachable in both."""
    examples: tuple[Disagreement, ...]
    only_a: int
    """Game words of a that b lacks."""
    only_a_examples: tuple[str, ...]
    only_b: int
    only_b_examples: tuple[str, ...]

    def as_dict(self) -> dict[str, Any]:
        return {
            "a": self.a.as_dict(),
            "b": self.b.as_dict(),
            "common_fragments": self.common_fragments,
            "different_outcomes": self.different_outcomes,
            "different_reachable": self.different_reachable,
            "examples": [
                {"fragment": d.fragment, "a": d.outcomes[0].value, "b": d.outcomes[1].value}
                for d in self.examples
            ],
            "only_a": {"count": self.only_a, "examples": list(self.only_a_examples)},
            "only_b": {"count": self.only_b, "examples": list(self.only_b_examples)},
        }
