"""Small immutable value types shared by the store, the renderers and the game engine."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, NamedTuple


class Outcome(enum.Enum):
    """Who wins a position under perfect play, stated for the player to move."""

    WIN = "win"
    """The player to move can force the opponent to complete a word."""
    LOSS = "loss"
    """Whatever the player to move does, the opponent can force a win."""

    def flipped(self) -> Outcome:
        return Outcome.LOSS if self is Outcome.WIN else Outcome.WIN


class Play(NamedTuple):
    """A legal play and the position it leads to (a NamedTuple: lookups make many)."""

    move: str
    """The move in ghostdb notation (see `ghostdb.rules`)."""
    fragment: str
    """The fragment after the play."""
    outcome: Outcome
    """Outcome of the new position for the player to move there (the opponent)."""
    game_length: int
    """Moves left after the play under best play (0 if the play completes a word)."""
    is_word: bool
    """Whether the play completes a word (and so ends the game)."""

    @property
    def wins(self) -> bool:
        """Whether the play wins for the player who makes it."""
        return self.outcome is Outcome.LOSS


@dataclass(frozen=True)
class Position:
    """A stored position with its solved values and its legal plays."""

    dictionary: str
    rules: str
    """The rule set's key, e.g. ``ghost/3`` or ``superduper/4/misere``."""
    fragment: str
    outcome: Outcome
    game_length: int
    """Moves left until a word is completed when the winner hurries and the loser stalls."""
    best_move: str | None
    """Winner: the winning move that ends soonest; loser: the one that lasts longest."""
    winning_moves: int
    is_word: bool
    """A completed word: the game is over and the player to move has won (lost, misère)."""
    reachable: bool
    """Whether a real game can arrive here (no earlier fragment was already a word)."""
    to_move: int
    """Index of the player to move (0 is the player who made the first move)."""
    plays: tuple[Play, ...] = field(default=())

    @property
    def winner(self) -> int:
        """The player who wins from here with perfect play (two players)."""
        return self.to_move if self.outcome is Outcome.WIN else 1 - self.to_move

    def as_dict(self) -> dict[str, Any]:
        return {
            "dictionary": self.dictionary,
            "rules": self.rules,
            "fragment": self.fragment,
            "to_move": self.to_move,
            "outcome": self.outcome.value,
            "winner": self.winner,
            "game_length": self.game_length,
            "best_move": self.best_move,
            "winning_moves": self.winning_moves,
            "is_word": self.is_word,
            "reachable": self.reachable,
            "plays": [
                {
                    "move": p.move,
                    "fragment": p.fragment,
                    "outcome": p.outcome.value,
                    "wins": p.wins,
                    "game_length": p.game_length,
                    "is_word": p.is_word,
                }
                for p in self.plays
            ],
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
    dictionary: str
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
    rules: str
    word_count: int
    """Words that end the game (of the minimum length or more)."""
    fragment_count: int
    reachable_count: int
    winner: int
    """The player who wins from the start with perfect play."""
    winning_first_moves: tuple[str, ...]
    game_length: int
    plans: tuple[PlanSize, PlanSize]
    """Best plan from the start for player 0 and for player 1."""

    def as_dict(self) -> dict[str, Any]:
        return {
            "dictionary": self.dictionary,
            "rules": self.rules,
            "words": self.word_count,
            "fragments": self.fragment_count,
            "reachable": self.reachable_count,
            "winner": self.winner,
            "winning_first_moves": list(self.winning_first_moves),
            "game_length": self.game_length,
            "plans": [p.as_dict() for p in self.plans],
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
