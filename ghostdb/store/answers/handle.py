"""The reading core of one published solution, which every concern module beneath the
façade is handed: its database, its name and rules, and its positions.

`Solution` (``ghostdb.store.answers.solution``) is this handle with the questions the concern
modules answer (lines, plans, decisive words, figures, puzzles, games); those modules take
a `Handle`, so they never reach back up to the handle that calls them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ghostdb.errors import DeadFragment, NotForThisGame

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine

    from ghostdb.games.base import Game, RuleSet
    from ghostdb.store.answers.lookups import Lookups, SolutionRef
    from ghostdb.values import Position


class Handle:
    """One published solution: ``name`` (a dictionary or a game) under ``rules``."""

    def __init__(
        self,
        engine: Engine,
        lookups: Lookups,
        name: str,
        rules: RuleSet,
        ref: SolutionRef,
        *,
        writable: bool = True,
    ) -> None:
        self.engine = engine
        self.lookups = lookups
        self.name = name
        self.rules = rules
        self.ref = ref
        # Whether an answer not kept yet may be worked out and kept (see
        # `ghostdb.store.answers.kept`); a read-only store raises NotWorkedOut instead.
        self.writable = writable
        self._language: str | None = None

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r}, {self.rules.key!r})"

    @property
    def game(self) -> Game:
        """The game object this solution is read with."""
        return self.ref.game

    @property
    def id(self) -> int:
        """The id of the solution row read (a new one once another is published)."""
        return self.ref.id

    def refresh(self) -> SolutionRef:
        """Find the published solution again (after a read found nothing at its id)."""
        self.ref = self.lookups.ref(self.name, self.rules, refresh=True)
        return self.ref

    # -- positions ---------------------------------------------------------------------------

    def lookup(self, position: str = "") -> Position:
        """The stored position (the start when empty) with its plays; raises BadFragment,
        DeadFragment (no such position), TypeError (a position that is not text),
        NotSolved."""
        ref = self.ref
        key = ref.game.key_of(position)
        found = self.lookups.read(self.name, ref, key)
        if found is None:  # not a position, or the solution was republished meanwhile
            ref = self.refresh()
            found = self.lookups.read(self.name, ref, key)
            if found is None:
                raise self.lookups.not_stored(self.name, self.rules, ref, key)
        return found

    def lookup_many(self, positions: Sequence[str]) -> list[Position | None]:
        """`lookup` of each position, in order, None for one that is not stored; all read
        in one snapshot (a solution published meanwhile is seen by all or none) and
        faster than one at a time: on PostgreSQL a round trip serves a thousand.  Raises
        BadFragment (a position the game cannot have), TypeError (a position that is not
        text, or one text in place of the list), NotSolved."""
        ref = self.ref
        keys = ref.game.keys_of(positions)
        found = self.lookups.read_many(self.name, ref, keys)
        if None in found and self.refresh().id != ref.id:  # republished meanwhile
            found = self.lookups.read_many(self.name, self.ref, keys)
        return found

    def get(self, position: str, default: Any = None) -> Position | Any:
        """Like `lookup`, but ``default`` for a position that is not stored."""
        try:
            return self.lookup(position)
        except DeadFragment:
            return default

    def openings(self) -> Position:
        """The start position: its plays are the first moves."""
        return self.lookup("")

    def require_plans(self, what: str) -> None:
        """Raise NotForThisGame unless this game keeps plans (`Game.keeps_plans`)."""
        game, name, rules = self.game, self.name, self.rules
        if not game.word_game:
            raise NotForThisGame(
                f"{what} are a word-game notion: {name} has none; "
                f"`ghostdb line {name}` shows the best line of play"
            )
        if not game.keeps_plans:
            raise NotForThisGame(
                f"{what} are for two players: with {rules.players}, `ghostdb lookup {name}"
                f"{rules.flags()}` shows the safe seats and their safe moves"
            )

    def language(self) -> str:
        """The language tag the dictionary was ingested with ('' if none was given)."""
        if self._language is None:
            from ghostdb.store.answers import dictionaries

            info = dictionaries.dictionary(self.engine, self.name)
            self._language = (info.report.get("options") or {}).get("language") or ""
        return self._language


# What hands out the handle of a published solution by name and rules (`Store.solution`):
# the modules that answer questions of several solutions are given it, not the `Store`.
Opener = Callable[[str, "RuleSet"], Handle]
