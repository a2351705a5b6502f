"""The result records of the store's answers other than lookups: what an ingest did, the
stored dictionaries and solve jobs, solutions' summaries, report rows and comparisons,
the survey's rows, decisive words.

Small immutable records (frozen dataclasses), kept apart from `ghostdb.values` so that
a lookup does not pay for making their classes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ghostdb.strategies import PlanSize, Strategy
    from ghostdb.values import Outcome


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
    lost: tuple[tuple[int, int] | None, tuple[int, int] | None] = (None, None)
    """How many outcomes of player 0's and player 1's best plan are lost, in a and in b
    (None: no plans)."""

    def as_dict(self) -> dict[str, Any]:
        lost_a, lost_b = (None if x is None else list(x) for x in self.lost)
        return {
            "a": {**self.a.as_dict(), "lost": lost_a},
            "b": {**self.b.as_dict(), "lost": lost_b},
            "common_fragments": self.common_fragments,
            "different_outcomes": self.different_outcomes,
            "different_reachable": self.different_reachable,
            "examples": [
                {
                    "position": d.fragment,
                    "fragment": d.fragment,
                    "a": d.outcomes[0].value,
                    "b": d.outcomes[1].value,
                }
                for d in self.examples
            ],
            "only_a": {"count": self.only_a, "examples": list(self.only_a_examples)},
            "only_b": {"count": self.only_b, "examples": list(self.only_b_examples)},
        }


@dataclass(frozen=True)
class SurveyRow:
    """One dictionary under one two-player word-game rule set, as `Store.survey` lists
    them: enough to say who wins in each language without opening every report."""

    language: str
    """The recorded ``--language`` tag ("" if none)."""
    options: dict[str, Any] | None
    """The recorded ingest options (None: ingested before options were stored)."""
    summary: SolutionSummary
    lost: tuple[int, int]
    """How many outcomes of player 0's and player 1's best plan are lost."""
    unit: str
    """What a plan's outcome is: a word (Ghost) or a sequence (the Super variants)."""

    @property
    def dictionary(self) -> str:
        return self.summary.dictionary

    @property
    def rules(self) -> str:
        return self.summary.rules

    def option(self, key: str) -> bool | None:
        """An ingest option as recorded (None: not recorded)."""
        return None if self.options is None else bool(self.options.get(key))

    def as_dict(self) -> dict[str, Any]:
        s = self.summary
        plans = s.plans or ()
        return {
            "dictionary": s.dictionary,
            "language": self.language or None,
            "fold_accents": self.option("fold_accents"),
            "keep_capitalised": self.option("keep_capitalised"),
            "rules": s.rules,
            "words": s.word_count,
            "winner": s.winner,
            "winning_first_moves": list(s.winning_first_moves),
            "plans": [
                {
                    "player": player,
                    "outcomes": size.outcomes,
                    "unit": self.unit,
                    "lost": self.lost[player],
                    "all_won": self.lost[player] == 0,
                }
                for player, size in enumerate(plans)
            ],
        }


@dataclass(frozen=True)
class IngestResult:
    """What `Store.ingest` did: ``added``, ``replaced``, ``updated`` (same words, new
    options) or ``unchanged``."""

    action: str
    dictionary: DictionaryInfo
    report: IngestReport
    message: str


@dataclass(frozen=True)
class DecisiveWords:
    """Which words decide the game at a position (`Solution.decisive`): every single
    deletion (and, with a pool, addition) that changes its outcome, each with the outcome
    it gives, and the fewest deletions that do."""

    name: str
    rules: str
    position: str
    outcome: str
    """The outcome now, for the player to move at the position."""
    to_move: int | None
    pool: str | None
    deletions: tuple[Any, ...]
    additions: tuple[Any, ...] | None
    """None without a pool."""
    fewest: Any

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "rules": self.rules,
            "position": self.position,
            "to_move": self.to_move,
            "outcome": self.outcome,
            "pool": self.pool,
            "deletions": [e.as_dict() for e in self.deletions],
            "additions": None if self.additions is None else [e.as_dict() for e in self.additions],
            "fewest": self.fewest.as_dict(),
        }


@dataclass(frozen=True)
class WhyDiffer:
    """Why two dictionaries' Ghost differ at the start (`Store.why`): the fewest word
    differences — words only in ``a`` deleted, words only in ``b`` added — that give
    ``a`` the outcome ``b`` has (None where the outcomes agree)."""

    a: str
    b: str
    rules: str
    outcome_a: str
    outcome_b: str
    only_a: int
    only_b: int
    fewest: Any

    def as_dict(self) -> dict[str, Any]:
        return {
            "a": self.a,
            "b": self.b,
            "rules": self.rules,
            "outcome_a": self.outcome_a,
            "outcome_b": self.outcome_b,
            "only_a": self.only_a,
            "only_b": self.only_b,
            "fewest": None if self.fewest is None else self.fewest.as_dict(),
        }


@dataclass(frozen=True)
class ReportRow:
    """One published rule set: who wins, how many positions have each outcome, and (word
    games) both players' best plans."""

    rules: Any
    fragment_count: int
    outcome: Outcome
    """The start's value for the first player."""
    winner: int | None
    game_length: int | None
    outcomes: dict[str, int]
    """Reachable positions by outcome for the player to move."""
    first: Strategy | None = None
    """Player 0's best plan from the start (word games)."""
    second: Strategy | None = None
    """Player 1's best plan from the start (word games)."""
    safe_seats: tuple[int, ...] | None = None
    """More than two players: the seats safe at the start."""
    levels: tuple[tuple[Any, ...], ...] = ()
    """Positions by level and outcome: (level, outcome, positions, of them reachable)."""

    def as_dict(self) -> dict[str, Any]:
        def plan(s: Strategy | None) -> dict[str, Any] | None:
            if s is None:
                return None
            return {
                "outcomes": len(s.endings),
                "wins": s.wins,
                "losses": s.losses,
                "words": [e.word for e in s.endings],
            }

        data: dict[str, Any] = {
            "rules": self.rules.key,
            "outcome": self.outcome.value,
            "winner": self.winner,
            "game_length": self.game_length,
            "positions_by_outcome": dict(self.outcomes),
            "fragments": self.fragment_count,
        }
        if self.levels:
            data["positions_by_level"] = [
                {"level": level, "outcome": outcome, "positions": n, "reachable": r}
                for level, outcome, n, r in self.levels
            ]
        if self.safe_seats is not None:
            data["safe_seats"] = list(self.safe_seats)
        if self.first is not None:
            data.update(
                shortest_word=self.rules.min_length,
                misere=self.rules.misere,
                first_player_plan=plan(self.first),
                second_player_plan=plan(self.second),
            )
        return data
