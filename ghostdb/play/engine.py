"""The game engine and the computer strategies, for every game the store holds.

A `Match` holds the position, the seats (human or a computer strategy) and whose turn it
is.  Every position comes from the stored solution through a lookup function the store
hands in (one indexed query): a computer move reads the position it is to move in, a
human's move is checked against the same plays, so a match costs one query per move and
never solves anything.  The engine knows no database: it imports no store.

Strategies (a computer seat):

* ``optimal``: if it can win, a random move among all its winning moves; if it cannot,
  a random move among those that hold a tie (the nearest), else a draw; if it will lose,
  a random move among those that make the game last longest (when the opponent then wins
  as fast as possible).  Two players only.
* ``fastest``: always the stored best move: the winning move that ends soonest, or the
  losing move that lasts longest (ties broken by move order).  Two players only.
* ``rational``: two players: a random winning move if there is one, otherwise any legal
  move at random.  More players: a random safe move (one after which it can still avoid
  losing whatever the others do) if there is one; otherwise it never completes a word
  (misère: completes one if it can) when another move exists.
* ``random``: any legal move, at random.

A legal move is a stored play (in Ghost: one that some word continues, completing a word
included).  In Ghost a human may also type a letter that no word continues: that player
loses, as in the spoken game.  With more than two players, the player who completes a
word (or makes a play no word continues) loses and the game ends; in misère, completing a
word wins.  A game whose moves can cycle (Chopsticks) ends in a draw as soon as a
position repeats.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ghostdb.errors import BadMove, DeadFragment
from ghostdb.games.base import Game
from ghostdb.play.seats import STRATEGIES, computer_seats
from ghostdb.play.vocabulary import vocabulary_size
from ghostdb.values import Outcome, Play, Position

Lookup = Callable[[str], Position]
Chooser = Callable[[Position, str, random.Random], Play]
"""A seat's move: (position, seat, random generator) to the play it makes."""
"""The stored position at a key, from the solution a match is played on."""

HUMAN = "human"
TWO_PLAYER_ONLY = ("optimal", "fastest", "trap")
ALIASES = {"computer": "optimal"}


def split_moves(text: str) -> list[str]:
    """A game's moves as `ghostdb play` prints them, ``t r e n``, in a list; commas also
    separate (``t,r,e,n``, the API's older form), so every surface takes either."""
    return text.replace(",", " ").split()


def parse_players(text: str | Sequence[str]) -> tuple[str, ...]:
    """Seats from ``human,computer`` (``computer`` means ``optimal``); raise BadMove."""
    names = text.split(",") if isinstance(text, str) else list(text)
    seats = tuple(ALIASES.get(n.strip().lower(), n.strip().lower()) for n in names)
    known = (HUMAN, *STRATEGIES)
    for seat in seats:
        if seat not in known and vocabulary_size(seat) is None:
            raise BadMove(
                f"{seat!r} is not a player: use human, computer, one of "
                f"{', '.join(STRATEGIES)} or common:N (comma-separated, one per seat)"
            )
    if len(seats) < 2:
        raise BadMove("a game needs at least two players, e.g. --seats human,computer")
    if len(seats) > 2:
        two_only = [s for s in seats if s in TWO_PLAYER_ONLY or vocabulary_size(s)]
        if two_only:
            raise BadMove(
                f"{two_only[0]} play is solved for two players only: with {len(seats)} "
                "players use human, rational or random"
            )
    return seats


@dataclass(frozen=True)
class Turn:
    """One move of a game."""

    player: int
    move: str
    """In ghostdb notation."""
    fragment: str
    """The fragment after the move."""


@dataclass(frozen=True)
class Result:
    """How a game ended: the player who made the last move, and what it did."""

    player: int
    """The player whose move ended the game (or who quit)."""
    kind: str
    """``word`` (completed a word), ``dead`` (a play no word continues), ``final`` (another
    game's end), ``repeat`` (a position came again: a draw) or ``quit``."""
    fragment: str
    won: bool | None
    """Whether that player won by it (completing a word in misère); None: nobody won."""
    reason: str
    """E.g. "completed the word 'ghost'"."""
    players: int

    @property
    def winners(self) -> tuple[int, ...]:
        if self.won is None:
            return ()
        if self.won:
            return (self.player,)
        return tuple(p for p in range(self.players) if p != self.player)

    @property
    def losers(self) -> tuple[int, ...]:
        if self.won is None:
            return ()
        if self.won:
            return tuple(p for p in range(self.players) if p != self.player)
        return (self.player,)

    def as_dict(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "kind": self.kind,
            "fragment": self.fragment,
            "won": self.won,
            "reason": self.reason,
            "winners": list(self.winners),
            "losers": list(self.losers),
        }


@dataclass
class Match:
    """A game in progress.  Create one with `Solution.new_game`."""

    lookup: Lookup
    name: str
    rules: Any
    game: Game
    seats: tuple[str, ...]
    rng: random.Random
    position: Position
    history: list[Turn] = field(default_factory=list)
    result: Result | None = None
    seen: set[str] = field(default_factory=set)
    chooser: Chooser | None = None
    """How a computer seat chooses its move (`Solution.choose`: the ``trap`` and
    ``common:N`` seats need the store); by default `choose`."""

    def __post_init__(self) -> None:
        self.seen.add(self.position.fragment)

    @property
    def dictionary(self) -> str:
        return self.name

    @property
    def fragment(self) -> str:
        return self.position.fragment

    @property
    def to_move(self) -> int:
        return len(self.history) % len(self.seats)

    @property
    def players(self) -> int:
        return len(self.seats)

    def seat(self, player: int | None = None) -> str:
        return self.seats[self.to_move if player is None else player]

    def plays(self) -> tuple[Play, ...]:
        """The legal moves here (each with its stored outcome and game length)."""
        return self.position.plays

    # -- moves ---------------------------------------------------------------------------

    def play(self, text: str) -> Turn:
        """Make the move typed as ``text`` for the player to move; raise BadMove (and
        change nothing) if it is not a move in the game's notation."""
        self._check_running()
        notation, after = self.game.parse_move(self.fragment, text)
        for play in self.plays():
            if play.fragment == after:
                return self._advance(play)
        reason = self.game.dead_play(after, [p.fragment for p in self.plays()])
        if reason is None:
            raise BadMove(f"{text.strip()!r} is not a legal move here: {self.game.move_hint()}")
        return self._dead(notation, after, reason)

    def computer_move(self) -> Turn:
        """The move of the computer strategy in the seat to move."""
        self._check_running()
        seat = self.seat()
        if seat == HUMAN:
            raise BadMove(f"player {self.to_move} is human: it is their turn")
        if self.chooser is not None:
            return self._advance(self.chooser(self.position, seat, self.rng))
        return self._advance(choose(seat, self.position, self.rng, self.players, self.rules))

    def quit(self) -> Result:
        self._check_running()
        self.result = Result(
            self.to_move, "quit", self.fragment, None, "quit the game", self.players
        )
        return self.result

    def _advance(self, play: Play) -> Turn:
        player = self.to_move
        turn = Turn(player, play.move, play.fragment)
        self.history.append(turn)
        if play.is_final:
            self.position = _final_position(
                self.position, play, self.game.ending(play.fragment), self.players
            )
            self.result = self._final_result(player, play)
        elif play.fragment in self.seen:
            self.position = self.lookup(play.fragment)
            reason = f"{self.game.label(play.fragment)} came again: a draw"
            self.result = Result(player, "repeat", play.fragment, None, reason, self.players)
        else:
            self.seen.add(play.fragment)
            self.position = self.lookup(play.fragment)
        return turn

    def _final_result(self, player: int, play: Play) -> Result:
        """The result of a move that ends the game; ``play.outcome`` is the value for the
        player to move next, so a loss there is a win for ``player``."""
        reason = self.game.ending(play.fragment)
        won = {Outcome.LOSS: True, Outcome.WIN: False}.get(play.outcome)
        kind = "word" if self.game.word_game else "final"
        return Result(player, kind, play.fragment, won, reason, self.players)

    def _dead(self, notation: str, after: str, reason: str) -> Turn:
        """A move to a position no game reaches, which the game says loses at once (in
        Ghost: a letter no word continues)."""
        player = self.to_move
        turn = Turn(player, notation, after)
        self.history.append(turn)
        self.result = Result(player, "dead", after, False, reason, self.players)
        return turn

    def _check_running(self) -> None:
        if self.result is not None:
            raise BadMove("the game is over")

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "game": self.game.name,
            "rules": self.rules.key,
            "players": list(self.seats),
            "moves": [t.move for t in self.history],
            "fragment": self.fragment if self.result is None else self.result.fragment,
            "to_move": None if self.result else self.to_move,
            "result": None if self.result is None else self.result.as_dict(),
        }


def _final_position(before: Position, play: Play, ending: str, players: int = 2) -> Position:
    """The position that ends the game, from the play's stored values (no query)."""
    return Position(
        name=before.name,
        game=before.game,
        rules=before.rules,
        fragment=play.fragment,
        outcome=play.outcome,
        game_length=0,
        best_move=None,
        winning_moves=0,
        drawing_moves=0,
        is_final=True,
        ending=ending,
        reachable=True,
        to_move=None if before.to_move is None else (before.to_move + 1) % players,
    )


# -- strategies ----------------------------------------------------------------------------


def choose(
    strategy: str,
    position: Position,
    rng: random.Random,
    players: int,
    rules: Any,
    skill: float = 1.0,
) -> Play:
    """The play that ``strategy`` makes at ``position``; with ``skill`` < 1, a random legal
    move instead with probability 1 - skill."""
    plays = list(position.plays)
    if not plays:
        raise DeadFragment(f"{position.fragment!r} is a finished game: there is no move")
    if skill < 1.0 and rng.random() >= skill:
        return rng.choice(plays)
    if strategy == "random":
        return rng.choice(plays)
    if strategy == "rational":
        if players == 2:
            winning = [p for p in plays if p.wins]
            return rng.choice(winning or plays)
        safe = position.safe_moves
        if safe:
            return rng.choice(safe)
        words = [p for p in plays if p.is_word]
        if getattr(rules, "misere", False):
            return rng.choice(words or plays)
        return rng.choice([p for p in plays if not p.is_word] or plays)
    if strategy == "fastest":
        return next(p for p in plays if p.move == position.best_move)
    if strategy == "optimal":
        if position.outcome is Outcome.WIN:
            return rng.choice([p for p in plays if p.wins])
        if position.outcome is Outcome.TIE:
            ties = [p for p in plays if p.outcome is Outcome.TIE]
            return rng.choice([p for p in ties if p.game_length == position.game_length - 1])
        if position.outcome is Outcome.DRAW:
            return rng.choice([p for p in plays if p.outcome is Outcome.DRAW])
        longest = max(p.game_length or 0 for p in plays)
        return rng.choice([p for p in plays if p.game_length == longest])
    raise BadMove(f"{strategy!r} is not a computer strategy: use one of {', '.join(STRATEGIES)}")


# -- self-play -----------------------------------------------------------------------------


@dataclass(frozen=True)
class SelfPlay:
    """The results of many computer-only games."""

    dictionary: str
    rules: Any
    seats: tuple[str, ...]
    games: int
    seed: int | None
    wins: tuple[int, ...]
    """Games won by each player."""
    losses: tuple[int, ...]
    final_words: dict[str, int]
    """How often each game ended on each position (a word, a play no word continues, a
    final or a repeated position)."""
    draws: int = 0
    """Games nobody won (ties and repeated positions)."""

    def as_dict(self) -> dict[str, Any]:
        return {
            "dictionary": self.dictionary,
            "rules": self.rules.key,
            "players": list(self.seats),
            "games": self.games,
            "seed": self.seed,
            "wins": list(self.wins),
            "losses": list(self.losses),
            "draws": self.draws,
            "final_words": dict(sorted(self.final_words.items(), key=lambda kv: (-kv[1], kv[0]))),
        }


def selfplay(
    new_match: Callable[[random.Random], Match],
    name: str,
    rules: Any,
    seats: Sequence[str],
    games: int,
    seed: int | None = None,
) -> SelfPlay:
    """Play ``games`` games between computer strategies; one RNG, seeded, for all.
    ``new_match(rng)`` sets up a match from the start."""
    if HUMAN in seats:
        raise BadMove(f"self-play is for computer players: use {computer_seats()}")
    rng = random.Random(seed)
    wins = [0] * len(seats)
    losses = [0] * len(seats)
    draws = 0
    finals: dict[str, int] = {}
    for _ in range(games):
        match = new_match(rng)
        while match.result is None:
            match.computer_move()
        result = match.result
        for p in result.winners:
            wins[p] += 1
        for p in result.losers:
            losses[p] += 1
        draws += result.won is None
        finals[result.fragment] = finals.get(result.fragment, 0) + 1
    return SelfPlay(
        name, rules, tuple(seats), games, seed, tuple(wins), tuple(losses), finals, draws
    )
