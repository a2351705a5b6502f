"""A handle on one published solution: a stored name under one rule set.

`Store.solution(name, rules)` checks the name and the rules once and hands this out; its
methods ask the questions of that solution without passing ``(name, rules)`` again.  The
handle keeps the solution's id and game (`SolutionRef`) and finds them again when another
process publishes a new solution of the same rule set.

The examples run as tests (tests/test_doctests.py) with ``five`` the handle
``store.solution("five")``: ghost green tan tree tries, solved under Ghost's rules.

    >>> five.lookup("gho").best_move
    's'
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ghostdb.errors import BadMove
from ghostdb.store.answers.handle import Handle

if TYPE_CHECKING:
    from ghostdb.play.analysis import Analysis
    from ghostdb.play.engine import Match, SelfPlay
    from ghostdb.play.vocabulary import Vocabulary
    from ghostdb.records import DecisiveWords, SolutionSummary
    from ghostdb.strategies import Lines, OpeningPlans, Strategy
    from ghostdb.values import Play, Position


class Solution(Handle):
    """The published solution of ``name`` under ``rules``: the questions of `Handle`,
    and the answers the modules beneath work out from them (lines, plans, decisive
    words, figures, puzzles, games).

    In the examples ``five`` is ``store.solution("five")``: ghost green tan tree tries
    under Ghost's rules, where the player who starts loses.  `Handle`'s questions first,
    a position and its plays (`lookup`; `get` gives None for a position not stored):

        >>> position = five.lookup("t")
        >>> position.outcome, position.best_move, position.game_length
        (<Outcome.WIN: 'win'>, 'a', 2)
        >>> [(play.move, play.fragment, play.outcome.value) for play in position.plays]
        [('a', 'ta', 'loss'), ('r', 'tr', 'win')]
        >>> five.get("tx") is None
        True

    Many positions at once, in one snapshot (`lookup_many`), and the first moves
    (`openings`):

        >>> [p and p.outcome.value for p in five.lookup_many(["g", "gr", "gx"])]
        ['win', 'loss', None]
        >>> [play.move for play in five.openings().plays]
        ['g', 't']
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._known: dict[str, Vocabulary] = {}  # common:N vocabularies, made once

    # -- lines and plans ---------------------------------------------------------------------

    def line(self, position: str = "", *, limit: int | None = None) -> Lines:
        """The principal lines of best play from ``position`` (see
        `ghostdb.store.answers.walks`); TooLarge past ``limit`` positions.

            >>> [ending.word for ending in five.line().endings]
            ['ghost', 'green']
        """
        from ghostdb.store.answers import walks

        return walks.line(self, position, limit)

    def strategy(
        self,
        player: int | None = None,
        position: str = "",
        *,
        compute: bool | None = None,
        limit: int | None = None,
    ) -> Strategy:
        """``player``'s (by default the winner's) best plan from ``position``; word games
        for two players only.  From the start it is kept (see `ghostdb.store.answers.kept`:
        ``compute`` False raises NotWorkedOut when it is not kept yet; None: whether
        this store may write); from elsewhere it is walked, TooLarge past ``limit``
        positions.

            >>> [ending.word for ending in five.strategy().endings]  # the second player's
            ['ghost', 'tan']
            >>> plan = five.strategy(player=0)  # the first player's: t, lost if answered a
            >>> [(ending.word, ending.winner) for ending in plan.endings]
            [('tan', 1), ('tree', 0)]
        """
        from ghostdb.store.answers import plan_walks, plans

        if not position:
            return plans.start_plan(self, player, compute)
        return plan_walks.strategy(self, player, position, limit)

    def opening_plans(self, *, compute: bool | None = None) -> list[OpeningPlans]:
        """For every first move, the winning plan of the player who wins from there
        (kept, as `strategy` from the start is).

            >>> [(o.move, [e.word for e in o.plans[1].endings]) for o in five.opening_plans()]
            [('g', ['ghost']), ('t', ['tan'])]
        """
        from ghostdb.store.answers import plans

        return plans.opening_plans(self, compute)

    def opening_plan_dicts(self, *, compute: bool | None = None) -> list[dict[str, Any]]:
        """`opening_plans` as plain dicts (the API's and ``openings --words --json``'s
        form), read from what is kept without building the plans' trees.

            >>> [(o["move"], o["player_1"][0]["word"]) for o in five.opening_plan_dicts()]
            [('g', 'ghost'), ('t', 'tan')]
        """
        from ghostdb.store.answers import plans

        return plans.opening_plan_dicts(self, compute)

    def decisive(
        self, position: str = "", pool: str | None = None, *, compute: bool | None = None
    ) -> DecisiveWords:
        """The words that decide the game at ``position``: every single deletion (and,
        with ``pool``, another stored dictionary, every addition of its words) that
        changes the outcome there, and the fewest edits that do; worked out from the
        stored values on the first request and kept (see `ghostdb.store.answers.decisive`).
        With ``compute=False`` (None: when the store is read-only) an answer not kept
        yet raises NotWorkedOut.

            >>> words = five.decisive()  # without tan, the first player would win
            >>> words.outcome, words.fewest.delete, words.fewest.outcome
            ('loss', ('tan',), 'win')
        """
        from ghostdb.store.answers import decisive

        return decisive.decisive(
            self, position, pool, self.writable if compute is None else compute
        )

    # -- figures -----------------------------------------------------------------------------

    def summary(self, *, compute: bool | None = None) -> SolutionSummary:
        """The headline figures: positions, who wins and how soon, the winning first moves
        and the sizes of both players' plans (kept, as `strategy` from the start is).

            >>> figures = five.summary()
            >>> figures.fragment_count, figures.winner, figures.game_length
            (19, 1, 5)
        """
        from ghostdb.store.answers import figures

        return figures.summary(self, compute)

    # -- playing -----------------------------------------------------------------------------

    def new_game(
        self,
        seats: str | Sequence[str] = ("human", "optimal"),
        seed: int | None = None,
        rng: random.Random | None = None,
        *,
        players: str | Sequence[str] | None = None,
    ) -> Match:
        """A match from the start; ``seats`` names who plays each seat, in turn order
        (see `ghostdb.play.engine`), ``seed`` (or ``rng``) makes the computer seats'
        random choices.  (``players=`` is the old name of ``seats``: it still works, with
        a DeprecationWarning; a rule set's ``players`` is how many seats there are.)

            >>> game = five.new_game(seats="human,optimal", seed=1)
            >>> game.play("t"), game.computer_move()
            (Turn(player=0, move='t', fragment='t'), Turn(player=1, move='a', fragment='ta'))
        """
        return self._matches(_seats(seats, players))(rng or random.Random(seed))

    def _matches(self, players: str | Sequence[str]) -> Callable[[random.Random], Match]:
        """Matches from the start between ``players`` (checked now, the start read and any
        common player's vocabulary made once), one for each random generator given."""
        from ghostdb.play.engine import Match, parse_players

        seats = parse_players(players)
        start = self.lookup()
        self.vocabularies(seats)  # made now: a bad seat is refused before the first move

        def new_match(rng: random.Random) -> Match:
            return Match(
                self.lookup,
                self.name,
                self.rules,
                self.game,
                seats,
                rng,
                start,
                chooser=self.choose,
            )

        return new_match

    def against(self, position: Position, seat: str) -> dict[str, Any]:
        """Each move at ``position`` valued against the ``common:N`` player ``seat``, who
        moves next (see `ghostdb.play.vocabulary.against`).

            >>> valued = five.against(five.lookup(), "common:3")  # knows green tree tries
            >>> [(play["move"], play["outcome"], play["perfect_play"]) for play in valued["plays"]]
            [('g', 'loss', 'loss'), ('t', 'win', 'loss')]
        """
        from ghostdb.play.vocabulary import against, vocabulary_size

        if vocabulary_size(seat) is None:
            raise BadMove(f"{seat!r} is not a player to value moves against: give common:N")
        if getattr(self.rules, "players", 2) != 2:
            raise BadMove("moves are valued against a common player for two players")
        known = self.vocabularies([seat])[seat]
        valued = against(self.lookup, known, position)
        return {
            "player": seat,
            "plays": [
                {
                    "move": play.move,
                    "fragment": play.fragment,
                    "outcome": "win" if wins else "loss",
                    "game_length": length,
                    "perfect_play": play.category,
                }
                for play, wins, length in valued
            ],
        }

    def choose(self, position: Position, strategy: str, rng: random.Random) -> Play:
        """The move a computer ``strategy`` makes at ``position`` (a `ghostdb play` seat:
        the standard strategies, ``trap`` or ``common:N``), as a match's seat makes it.

            >>> import random
            >>> five.choose(five.lookup("t"), "fastest", random.Random(1)).move
            'a'
        """
        from ghostdb.play.engine import choose
        from ghostdb.play.vocabulary import (
            choose_known,
            choose_trap,
            vocabulary_size,
            word_rarity,
        )

        if vocabulary_size(strategy):
            return choose_known(self.vocabularies([strategy])[strategy], position, rng)
        if strategy == "trap":
            rarity = word_rarity(self.language()) if self.game.word_game else lambda _w: 0.0
            return choose_trap(self.lookup, position, rng, rarity)
        players = getattr(self.rules, "players", 2)
        return choose(strategy, position, rng, players, self.rules)

    def vocabularies(self, seats: Sequence[str]) -> dict[str, Vocabulary]:
        """Each ``common:N`` seat's vocabulary: the dictionary's N most common game words
        (wordfreq, in the dictionary's language; English if none was given at ingest;
        ranked once and kept: `ghostdb.store.answers.vocabularies`), the game over them solved
        (see `ghostdb.play.vocabulary`).

            >>> five.vocabularies(["common:3"])["common:3"].words
            ('green', 'tree', 'tries')
        """
        from ghostdb.play.vocabulary import vocabulary, vocabulary_size
        from ghostdb.store.answers.vocabularies import common_words

        wanted = {s: n for s in seats if (n := vocabulary_size(s)) and s not in self._known}
        if not wanted:
            return {s: self._known[s] for s in seats if s in self._known}
        if not self.game.word_game:
            raise BadMove(f"a common:N player knows words: {self.name} is no word game")
        for seat, n in wanted.items():
            self._known[seat] = vocabulary(self.game, tuple(common_words(self, n)))
        return {s: self._known[s] for s in seats if s in self._known}

    def rank_common_words(self, seats: Sequence[str]) -> None:
        """Rank and keep the words the ``common:N`` seats know, if they are not kept yet
        (NotWorkedOut from a store that may not write: see
        `ghostdb.store.answers.vocabularies`).

            >>> five.rank_common_words(["common:5"])  # ranked and kept; returns None
            >>> five.vocabularies(["common:5"])["common:5"].words  # from what is kept
            ('green', 'tree', 'tries', 'ghost', 'tan')
        """
        from ghostdb.play.vocabulary import vocabulary_size
        from ghostdb.store.answers.vocabularies import common_words

        sizes = [n for s in seats if (n := vocabulary_size(s))]
        if sizes and self.game.word_game:
            common_words(self, max(sizes), compute=False)

    def puzzle(self, difficulty: str | None = None, seed: int | None = None) -> dict[str, Any]:
        """A kept puzzle: a position where the mover has exactly one winning move (see
        `ghostdb.store.answers.puzzles`), with its answer.

            >>> puzzle = five.puzzle(seed=1)
            >>> puzzle["position"], puzzle["moves"], puzzle["answer"], puzzle["word"]
            ('t', ['a', 'r'], 'a', 'tan')
        """
        from ghostdb.store.answers.puzzles import puzzle

        return puzzle(self, difficulty, seed)

    def analyse(self, moves: Sequence[str], start: str = "") -> Analysis:
        """A played game's moves judged by the stored values (see `ghostdb.play.analysis`);
        BadMove naming the first move that is not one.

            >>> [(r.move, r.verdict) for r in five.analyse(["t", "r", "e", "e"]).reviews]
            [('t', 'good'), ('r', 'blunder'), ('e', 'best'), ('e', 'best')]
        """
        from ghostdb.play.analysis import analyse

        return analyse(self.name, self.game, self.lookup, moves, start)

    def selfplay(
        self,
        seats: str | Sequence[str] = ("optimal", "optimal"),
        games: int = 100,
        seed: int | None = None,
        *,
        players: str | Sequence[str] | None = None,
    ) -> SelfPlay:
        """``games`` games between computer players (``seats``, in turn order), tallied:
        each seat's wins and losses, and the words the games ended on.  (``players=``:
        the old name of ``seats``, as in `new_game`.)

            >>> tally = five.selfplay("optimal,optimal", games=10, seed=1)
            >>> tally.wins, tally.final_words
            ((0, 10), {'ghost': 4, 'green': 6})
        """
        from ghostdb.play.engine import parse_players, selfplay

        seated = parse_players(_seats(seats, players))
        return selfplay(self._matches(seated), self.name, self.rules, seated, games, seed)


def _seats(seats: str | Sequence[str], players: str | Sequence[str] | None) -> str | Sequence[str]:
    """The seats of `Solution.new_game` and `Solution.selfplay`: ``players``, the keyword's
    old name, where it is given (with a DeprecationWarning)."""
    if players is None:
        return seats
    import warnings

    warnings.warn(
        "players= names the seats under its old name: write seats= (a rule set's players "
        "is how many there are)",
        DeprecationWarning,
        stacklevel=3,
    )
    return players
