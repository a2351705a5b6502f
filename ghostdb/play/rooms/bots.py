"""The computer seats of a room: the message a computer sends when it is its turn, as a
person's client would send it, for the referee to rule on like any other.

Each seat knows its own vocabulary: a seat playing ``optimal`` (or ``fastest``,
``rational``, ``random``, ``trap``) knows the whole dictionary, every stored position; a
``common:N`` seat knows the N most common words, the positions of the game over them.
In a word game a computer seat (the manual's "Playing together" page says these):

* **challenges** the previous player when the round has moves and it knows no word the
  fragment can become (so a seat that knows the whole dictionary challenges every bluff
  and never a real fragment);
* **answers** a challenge with a word it knows that the fragment can become (the whole
  dictionary: where the best line from there ends; ``common:N``: its most common such
  word), and concedes when it knows none;
* **moves** as its strategy chooses among the stored plays, but never completes a word
  while another move it knows does not (in misère, where a word wins, it may);
* **bluffs** only when every move it knows loses: then, one time in two, it plays a
  letter that no word continues (and that is no word), hoping nobody challenges;
  otherwise the known move that holds out longest.

In any other game a computer seat plays its strategy's move.  A person who is away has
their seat played by `substitute`'s strategy.  Every choice is drawn from `rng_for`,
seeded by the room's seed, its version and the seat: replaying a room's log makes the
same moves.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Protocol

from ghostdb.games.base import FLIP, LOSS
from ghostdb.games.registry import parse_rules
from ghostdb.play.analysis import mover_values
from ghostdb.play.engine import TWO_PLAYER_ONLY
from ghostdb.play.rooms.judge import Judge
from ghostdb.play.rooms.referee import MAX_POSITION
from ghostdb.play.rooms.state import ANSWER, HUMAN, PLAYING, RoomState
from ghostdb.play.vocabulary import Vocabulary, known_choices, vocabulary_size
from ghostdb.values import Play, Position

if TYPE_CHECKING:
    from collections.abc import Sequence

BLUFF_CHANCE = 0.5
"""How often a seat whose every known move loses bluffs instead of holding out."""
BLUFF_TRIES = 8
"""The most letters a bluff tries (each asks the dictionary whether it is a word)."""
ABSENT_TWO, ABSENT_MORE = "optimal", "rational"
"""Who plays an absent person's seat: with two players' rules, and with more."""


class Seats(Judge, Protocol):
    """What a computer seat asks of the room's solution, beside the referee's questions."""

    def choose(self, position: Position, strategy: str, rng: random.Random) -> Play:
        """The stored play that ``strategy`` makes at ``position``."""
        ...

    def knows(self, strategy: str, key: str) -> bool:
        """Whether a seat playing ``strategy`` knows a word (a game: a line of play) that
        the position at ``key`` can still become."""
        ...

    def vocabulary(self, strategy: str) -> Vocabulary | None:
        """The solved game over the words a ``common:N`` seat knows (None: the seat knows
        the whole dictionary)."""
        ...


def substitute(player: str, players: int = 2) -> str:
    """The strategy that plays a seat of ``player`` (``human`` or a strategy) under rules
    for ``players``: a computer its own (``rational`` for one of two players only, with
    more), an absent person ``optimal`` with two players and ``rational`` with more."""
    two_only = player in TWO_PLAYER_ONLY or vocabulary_size(player) is not None
    if player == HUMAN:
        return ABSENT_TWO if players == 2 else ABSENT_MORE
    return ABSENT_MORE if players != 2 and two_only else player


def rng_for(state: RoomState, seat: int) -> random.Random:
    """The random generator of ``seat``'s next choice: seeded by the room's seed, its
    version and the seat, so a room replayed from its log makes the same moves."""
    return random.Random(f"room:{state.seed}:{state.version}:{seat}")


def strategy_of(state: RoomState, seat: int) -> str:
    """The strategy a computer plays ``seat`` with (a person's seat: `substitute`'s)."""
    players = parse_rules(state.rules).players
    player = substitute(state.seats[seat].player, players)
    if not state.word_game and vocabulary_size(player) is not None:
        return ABSENT_TWO  # a game without words has no common words to know
    return player


def command(state: RoomState, seat: int, judge: Seats, rng: random.Random) -> dict[str, Any]:
    """The message ``seat`` sends on its turn (``{"op": "move", "move": notation}``,
    ``{"op": "challenge"}``, ``{"op": "word", "word": w}`` or ``{"op": "concede"}``), as
    the module's policies say; ValueError when it is not that seat's turn."""
    rnd = state.round
    if state.status != PLAYING or rnd is None or rnd.turn != seat:
        raise ValueError(f"room {state.id}: it is not seat {seat}'s turn")
    strategy = strategy_of(state, seat)
    if rnd.phase == ANSWER:
        word = judge.word_for(strategy, rnd.position)
        return {"op": "concede"} if word is None else {"op": "word", "word": word}
    if state.word_game and rnd.moves and not judge.knows(strategy, rnd.position):
        return {"op": "challenge"}
    position = judge.position(rnd.position)
    if position is None or not position.plays:
        return {"op": "concede"}  # nothing stored to play (never in a round begun well)
    if not state.word_game:
        return {"op": "move", "move": judge.choose(position, strategy, rng).move}
    return {"op": "move", "move": word_move(judge, strategy, position, rng)}


def word_move(judge: Seats, strategy: str, position: Position, rng: random.Random) -> str:
    """The notation of the move a seat playing ``strategy`` makes at ``position`` in a
    word game: a bluff or the longest hold-out where every move it knows loses, else its
    strategy's choice, never a word while another known move is none (but in misère)."""
    known = judge.vocabulary(strategy) if vocabulary_size(strategy) is not None else None
    plays = known_plays(position, known)
    if plays and every_loses(position, plays, known):
        if rng.random() < BLUFF_CHANCE:
            bluff = bluff_move(judge, position, rng)
            if bluff is not None:
                return bluff
        return best_known(position, plays, known, rng).move
    play = judge.choose(position, strategy, rng)
    if play.is_final and not getattr(judge.game.rules, "misere", False):
        others = [p for p in plays if not p.is_final]
        if others:
            play = best_known(position, others, known, rng)
    return play.move


def known_plays(position: Position, known: Vocabulary | None) -> list[Play]:
    """The stored plays a seat knows: every one (the whole dictionary), or those to
    positions of its vocabulary's game."""
    if known is None:
        return list(position.plays)
    return [p for p in position.plays if p.fragment in known.values]


def every_loses(position: Position, plays: Sequence[Play], known: Vocabulary | None) -> bool:
    """Whether each of ``plays`` loses for its mover, as the seat knows the game: by the
    stored values (the whole dictionary), or by its vocabulary's game."""
    if known is None:
        return all(mover_values(position, p, 2)[1] == "loss" for p in plays)
    return all(FLIP[known.values[p.fragment][0]] == LOSS for p in plays)


def best_known(
    position: Position, plays: Sequence[Play], known: Vocabulary | None, rng: random.Random
) -> Play:
    """The best of ``plays`` for its mover as the seat knows the game (a win soonest,
    else a loss latest; ties drawn from ``rng``)."""
    if known is not None:
        return rng.choice(known_choices(known, position._replace(plays=tuple(plays))))
    top = min(p.sort_key() for p in plays)
    return rng.choice([p for p in plays if p.sort_key() == top])


def bluff_move(judge: Judge, position: Position, rng: random.Random) -> str | None:
    """A move to a position that no word continues and that is no word itself, drawn
    from ``rng`` (None: the seat found none to try)."""
    stored = {p.fragment for p in position.plays}
    options = [
        (notation, child)
        for notation, child in judge.game.candidates(position.fragment)
        if child not in stored and len(child) <= MAX_POSITION
    ]
    rng.shuffle(options)
    for notation, child in options[:BLUFF_TRIES]:
        if not judge.is_word(child):
            return notation
    return None


__all__ = [
    "Seats",
    "best_known",
    "bluff_move",
    "command",
    "every_loses",
    "known_plays",
    "rng_for",
    "strategy_of",
    "substitute",
    "word_move",
]
