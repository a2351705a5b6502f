"""The store's side of a room: what the referee, the verdicts and the computer seats ask
of the room's published solution (`ghostdb.play.rooms.judge.Judge` and
`ghostdb.play.rooms.bots.Seats`, which `StoreJudge` is).

Every question is a lookup: a position is one indexed read of the positions table (as
`Solution.lookup_many` reads it: a key that is not stored costs no error message worked
out), and whether a word is in the dictionary is one indexed read of the ``words`` table,
by its primary key, on the lookups' own connection (one statement, no transaction: one
round trip on PostgreSQL).  A ruling on a challenge never reads a word list.

A server's rooms over one solution share one judge (`Judges`), and what it read: a round's
end grades every position of the round, which its moves have just read, and every room of
a busy server ends its rounds within the same few seconds.
"""

from __future__ import annotations

import dataclasses
import random
import threading
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from sqlalchemy import bindparam, select

from ghostdb.errors import BadFragment, BadMove, NotSolved, UnknownDictionary
from ghostdb.games.registry import parse_rules
from ghostdb.play.vocabulary import vocabulary_size
from ghostdb.store.answers.dictionaries import dictionary_row
from ghostdb.store.answers.solution import Solution
from ghostdb.store.sql import raw
from ghostdb.store.sql.schema import solutions, words

if TYPE_CHECKING:
    from ghostdb.games.base import Game, RuleSet
    from ghostdb.play.vocabulary import Vocabulary
    from ghostdb.values import Play, Position

MAX_LINE = 100
"""The most moves `StoreJudge.word_for` follows along a best line (no word is longer)."""
MAX_SEARCH = 500
"""The most positions `StoreJudge.word_for` reads looking for a word off the best line."""
UNSOLVED_SECONDS = 10.0
"""How long `StoreJudge.graded` trusts that a rule set for another number of players is
not solved before it looks again (a round's grading asks at every round's end)."""
KEPT = 8192
"""The most positions a judge keeps of those it has read (a stored position never changes
under its solution's id; a key not stored is kept too)."""
PUBLISHED_SECONDS = 1.0
"""How long a judge answers from what it kept without asking whether its solution is
still the published one (a solve with ``--force`` is seen by the rooms within this)."""
_NOT_KEPT = object()

# The words table's primary key is (dictionary_id, word): this is one probe of its index.
_IS_WORD = select(words.c.word).where(
    words.c.dictionary_id == bindparam("d"), words.c.word == bindparam("w")
)
# Whether a solution is still the published one: a probe of the solutions' primary key.
_PUBLISHED = select(solutions.c.id).where(
    solutions.c.id == bindparam("s"), solutions.c.status == "complete"
)


class Solutions(Protocol):
    """What hands out a published solution by name and rules (a `Store`)."""

    def solution(self, name: str, rules: RuleSet | None = None) -> Solution:
        """The published solution of ``name`` under ``rules``; raises if there is none."""
        ...


class StoreJudge:
    """The referee's `Judge` (and the computer seats' `Seats`) over one published solution:
    ``StoreJudge(store.solution(name, rules))``."""

    def __init__(self, solution: Solution) -> None:
        self.solution = solution
        self.game: Game = solution.game
        self._dictionary: tuple[int, int | None] | None = None  # (solution id, dictionary id)
        self._graded: dict[int, Solution] = {solution.rules.players: solution}
        self._unsolved: dict[int, float] = {}  # players: when found not solved
        self._is_word = _query(_IS_WORD, solution.engine.dialect)
        self._published = _query(_PUBLISHED, solution.engine.dialect)
        self._kept: dict[tuple[int, str], Position | None] = {}  # (solution id, key), oldest first
        self._checked: dict[int, float] = {}  # solution id: when last found published
        self._lock = threading.Lock()  # the rooms' threads share what was kept

    def __repr__(self) -> str:
        return f"StoreJudge({self.solution!r})"

    # -- the referee's questions ---------------------------------------------------------------

    def position(self, key: str) -> Position | None:
        """The stored position at ``key`` with its plays; None where none is stored (in a
        word game a bluff), or where the game cannot have such a key at all."""
        return self._read(self.solution, [key])[0]

    def positions(self, keys: Sequence[str]) -> list[Position | None]:
        """`position` of each key, in order, read in one snapshot (on PostgreSQL one
        round trip serves them all)."""
        return self._read(self.solution, keys)

    def is_word(self, word: str) -> bool:
        """Whether ``word`` is in the dictionary: one read of the words table by its
        primary key (False for a game played without a dictionary)."""
        dictionary = self._dictionary_id()
        if dictionary is None or not word:
            return False
        driver = self.solution.lookups.dbapi()
        return bool(self._is_word.run(driver, {"d": dictionary, "w": word}))

    def graded(self, players: int) -> Callable[[str], Position | None] | None:
        """Lookups in the solution of the same rules for ``players`` seats (this one when
        its rules are for that many); None when that rule set is not solved, or the game
        is not played by that many."""
        found = self._graded.get(players)
        if found is None:
            if time.monotonic() - self._unsolved.get(players, -UNSOLVED_SECONDS) < UNSOLVED_SECONDS:
                return None
            found = self._solution_for(players)
            if found is None:  # it may be solved while the room plays on: asked again later
                self._unsolved[players] = time.monotonic()
                return None
            self._graded[players] = found
        if found is self.solution:
            return self.position
        other = found
        return lambda key: self._read(other, [key])[0]

    # -- the computer seats' questions ---------------------------------------------------------

    def choose(self, position: Position, strategy: str, rng: random.Random) -> Play:
        """The stored play the computer ``strategy`` makes at ``position`` (see
        `Solution.choose`)."""
        return self.solution.choose(position, strategy, rng)

    def knows(self, strategy: str, key: str) -> bool:
        """Whether a seat playing ``strategy`` knows a word (a game: a line of play) that
        ``key`` can still become: the whole dictionary's strategies know every stored
        position; ``common:N`` only the positions of the game over its N words."""
        known = self.vocabulary(strategy)
        if known is not None:
            return key in known.values
        return self.position(key) is not None

    def word_for(self, strategy: str, key: str) -> str | None:
        """A word that ``strategy`` knows and the position at ``key`` can become, or None.
        The whole dictionary: where the stored best line from ``key`` ends (said as the
        final position's label where it has one: Anagram's keys are sorted letters).
        ``common:N``: the most common of its words that the position can become."""
        game = self.game
        if not game.word_game:
            return None
        known = self.vocabulary(strategy)
        if known is not None:
            return next((w for w in known.words if game.can_become(key, w)), None)
        return self._line_word(key)

    def vocabulary(self, strategy: str) -> Vocabulary | None:
        """The solved game over the words a ``common:N`` seat knows, made once (see
        `Solution.vocabularies`); None for a seat that knows the whole dictionary, and
        in a game without words."""
        if vocabulary_size(strategy) is None or not self.game.word_game:
            return None
        return self.solution.vocabularies([strategy])[strategy]

    # -- helpers -------------------------------------------------------------------------------

    def _read(self, solution: Solution, keys: Sequence[str]) -> list[Position | None]:
        """The positions at ``keys`` in ``solution`` (None for each not stored), from what
        this judge kept where it can.  A key not stored is most often a bluff, so a miss
        is not followed by finding the published solution again (`Solution.lookup_many`
        does, at the cost of a few queries): only when the solution read is no longer
        the published one, which one probe of its row tells, at most once in
        `PUBLISHED_SECONDS` (an answer from what was kept waits for that probe too)."""
        try:
            canonical = solution.game.keys_of(keys)
        except BadFragment:  # a key the game cannot have: none is stored there
            if len(keys) == 1:
                return [None]
            return [self._read(solution, [key])[0] for key in keys]
        ref = solution.ref
        with self._lock:
            kept = [self._kept.get((ref.id, key), _NOT_KEPT) for key in canonical]
        if _NOT_KEPT not in kept:
            if self._still_published(solution):
                return kept  # type: ignore[return-value]  # every one was kept
            return self._read_new(solution, canonical)
        found = solution.lookups.read_many(solution.name, ref, canonical)
        if None in found and not self._still_published(solution):
            return self._read_new(solution, canonical)
        self._keep(ref.id, canonical, found)
        return found

    def _still_published(self, solution: Solution) -> bool:
        """Whether ``solution``'s id is still the published one: one probe of its row, or
        none when one said so less than `PUBLISHED_SECONDS` ago."""
        ref_id, now = solution.ref.id, time.monotonic()
        if now - self._checked.get(ref_id, -PUBLISHED_SECONDS) < PUBLISHED_SECONDS:
            return True
        if self._published.run(solution.lookups.dbapi(), {"s": ref_id}):
            self._checked[ref_id] = now
            return True
        return solution.refresh().id == ref_id

    def _read_new(self, solution: Solution, canonical: list[str]) -> list[Position | None]:
        """``canonical`` read from the solution published since (``solution`` refreshed)."""
        found = solution.lookups.read_many(solution.name, solution.ref, canonical)
        self._keep(solution.ref.id, canonical, found)
        return found

    def _keep(self, ref_id: int, keys: Sequence[str], found: Sequence[Position | None]) -> None:
        with self._lock:
            kept = self._kept
            for key, pos in zip(keys, found, strict=True):
                kept[(ref_id, key)] = pos
            while len(kept) > KEPT:  # the oldest go first
                del kept[next(iter(kept))]

    def _line_word(self, key: str) -> str | None:
        """The word the stored best line from ``key`` ends on (as `analysis` names the
        word behind a mistake), if the rules let ``key`` become it; else the first such
        word a search of the stored positions beyond ``key`` meets (Anagram's label of a
        final position, or a line through a reversal, may not count for ``key``).  None
        from a position that is not stored."""
        can_become = self.game.can_become
        pos = self.position(key)
        if pos is None:
            return None
        if pos.is_final:
            word = pos.label or pos.fragment
            return word if can_become(key, word) else None
        for _ in range(MAX_LINE):
            play = next((p for p in pos.plays if p.move == pos.best_move), None)
            if play is None:
                break
            if play.is_final:
                word = play.label or play.fragment
                if can_become(key, word):
                    return word
                break
            nxt = self.position(play.fragment)
            if nxt is None:
                break
            pos = nxt
        return self._search_word(key)

    def _search_word(self, key: str) -> str | None:
        """A word ``key`` can become by the rules, from the final positions met searching
        the stored positions beyond it depth first (at most `MAX_SEARCH` read)."""
        can_become = self.game.can_become
        stack, seen = [key], {key}
        for _ in range(MAX_SEARCH):
            if not stack:
                break
            pos = self.position(stack.pop())
            if pos is None:
                continue
            for play in pos.plays:
                if play.is_final:
                    word = next(
                        (w for w in (play.label, play.fragment) if w and can_become(key, w)), None
                    )
                    if word is not None:
                        return word
                elif play.fragment not in seen:
                    seen.add(play.fragment)
                    stack.append(play.fragment)
        return None

    def _dictionary_id(self) -> int | None:
        """The id of the solution's dictionary, found once for each published solution
        (None for a game without one)."""
        solution = self.solution
        if not self.game.word_game:
            return None
        found = self._dictionary
        if found is None or found[0] != solution.id:
            try:
                with solution.engine.connect() as conn:
                    row = dictionary_row(conn, solution.name)
            except UnknownDictionary:
                return None
            found = self._dictionary = (solution.id, row.id)
        return found[1]

    def _solution_for(self, players: int) -> Solution | None:
        """The published solution of these rules for ``players`` seats, or None."""
        solution = self.solution
        rules = solution.rules
        if rules.players == players:
            return solution
        if not dataclasses.is_dataclass(rules) or "players" not in {
            f.name for f in dataclasses.fields(rules)
        }:
            return None  # a game for a fixed number of players
        try:
            other = dataclasses.replace(rules, players=players)  # type: ignore[type-var]
            ref = solution.lookups.ref(solution.name, other)
        except (NotSolved, BadMove):
            return None
        return Solution(
            solution.engine,
            solution.lookups,
            solution.name,
            other,
            ref,
            writable=solution.writable,
        )


_COMPILED: dict[tuple[int, str], raw.FastQuery] = {}


def _query(stmt: Any, dialect: Any) -> raw.FastQuery:
    """``stmt`` compiled once a process for each database (a compile costs as much as a
    lookup: a server makes a judge for each room)."""
    key = (id(stmt), dialect.name)
    found = _COMPILED.get(key)
    if found is None:
        found = _COMPILED[key] = raw.FastQuery(stmt, dialect)
    return found


def judge_for(store: Solutions, name: str, rules_key: str) -> StoreJudge:
    """The judge of a room over ``name`` under the rule set keyed ``rules_key`` (as a
    room's ``created`` event names them); raises BadMove, UnknownDictionary, NotSolved."""
    return StoreJudge(store.solution(name, parse_rules(rules_key)))


class Judges:
    """The judges of a server's rooms: one for each solution they play, made when first
    asked for, so that the rooms share what it has read (see the module)."""

    def __init__(self, store: Solutions) -> None:
        self.store = store
        self._made: dict[tuple[str, str], StoreJudge] = {}
        self._lock = threading.Lock()  # asked for from the rooms' threads

    def judge(self, name: str, rules_key: str) -> StoreJudge:
        """`judge_for` ``name`` under ``rules_key``, the same one each time; raises as it
        does (and then keeps nothing)."""
        with self._lock:
            found = self._made.get((name, rules_key))
        if found is None:
            made = judge_for(self.store, name, rules_key)
            with self._lock:
                found = self._made.setdefault((name, rules_key), made)
        return found


__all__ = ["Judges", "Solutions", "StoreJudge", "judge_for"]
