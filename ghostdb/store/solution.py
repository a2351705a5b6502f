"""A handle on one published solution: a stored name under one rule set.

`Store.solution(name, rules)` checks the name and the rules once and hands this out;
its methods ask the questions of that solution without passing ``(name, rules)`` again.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ghostdb.games.base import Game, RuleSet
    from ghostdb.play.engine import Match, SelfPlay
    from ghostdb.reports import SolutionSummary
    from ghostdb.store.store import Store
    from ghostdb.strategies import Lines, OpeningPlans, Strategy
    from ghostdb.values import Position


class Solution:
    """The published solution of ``name`` under ``rules`` in ``store``."""

    def __init__(self, store: Store, name: str, rules: RuleSet) -> None:
        self.store = store
        self.name = name
        self.rules = rules

    def __repr__(self) -> str:
        return f"Solution({self.name!r}, {self.rules.key!r})"

    @property
    def game(self) -> Game:
        """The game object this solution is read with."""
        return self.store._ref(self.name, self.rules).game

    def lookup(self, position: str = "") -> Position:
        """The stored position (the start when empty) with its plays; raises BadFragment,
        DeadFragment (no such position), NotSolved."""
        return self.store.lookup(self.name, position, self.rules)

    def get(self, position: str, default: Any = None) -> Position | Any:
        """Like `lookup`, but ``default`` for a position that is not stored."""
        return self.store.get(self.name, position, self.rules, default)

    def openings(self) -> Position:
        """The start position: its plays are the first moves."""
        return self.store.openings(self.name, self.rules)

    def line(self, position: str = "") -> Lines:
        """The principal lines of best play from ``position``."""
        return self.store.line(self.name, position, self.rules)

    def strategy(self, player: int | None = None, position: str = "") -> Strategy:
        """``player``'s best plan from ``position`` (word games)."""
        return self.store.strategy(self.name, player, position, self.rules)

    def opening_plans(self) -> list[OpeningPlans]:
        """For every first move, the winning plan of the player who wins from there."""
        return self.store.opening_plans(self.name, self.rules)

    def summary(self) -> SolutionSummary:
        """The headline figures."""
        return self.store.summary(self.name, self.rules)

    def new_game(
        self,
        players: str | Sequence[str] = ("human", "optimal"),
        seed: int | None = None,
        rng: random.Random | None = None,
    ) -> Match:
        """A match from the start; ``players`` names each seat (see `ghostdb.play.engine`)."""
        return self.store.new_game(self.name, self.rules, players, seed, rng)

    def selfplay(
        self,
        players: str | Sequence[str] = ("optimal", "optimal"),
        games: int = 100,
        seed: int | None = None,
    ) -> SelfPlay:
        """``games`` games between computer players, tallied."""
        return self.store.selfplay(self.name, self.rules, players, games, seed)
