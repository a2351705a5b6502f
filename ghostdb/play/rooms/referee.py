"""The room's referee: what a player's message makes happen, as events, or why not.

Pure: what it needs of the stored solution comes through a `Judge` the caller hands in
(the store's, in `ghostdb.store.rooms.log`): the position at a key (one indexed lookup) and
whether a word is in the dictionary (another).  It never scans a word list.  `decide`
takes the room's state and a message, and returns the events the message makes (without
their versions: the caller numbers them, commits them, then applies them to the state),
or raises `Refused` with a code and one line.

The rules of a word game's room (the manual's "Playing together" page says them for
players):

* A turn is a letter (any letter of the dictionary's alphabet, in any place the rule set
  allows) or a challenge of the previous player, never on a round's first move.
* A position that no word can become is a bluff, and stands until challenged.
* A move that completes a word of the minimum length or more ends the round at once: its
  player loses it (misère: wins it, and the others lose it).
* The challenged player names a word of the dictionary that the position can still become
  (`Game.can_become`), or concedes.  A valid word loses the round for the challenger,
  anything else for the challenged.  The player to move may also concede the round;
  a player whose clock runs out loses it.
* Each loser of a round takes the next letter of GHOST (of the room's lives); with every
  letter taken a player is out.  The next round is started by the round's loser (or the
  next player still in), and the last player with letters to spare wins the match.

Every other game plays its own rules: a match is one game, a move must be legal, and the
game's end decides the winners (nobody, for a tie or a repeated position).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import Any

from ghostdb.errors import BadFragment, BadMove, GhostdbError
from ghostdb.games.base import Game
from ghostdb.play.rooms.judge import Judge
from ghostdb.play.rooms.state import (
    ANSWER,
    HUMAN,
    LETTERS,
    MOVE,
    OVER,
    PLAYING,
    WAITING,
    Event,
    RoomState,
    Round,
)
from ghostdb.play.rooms.verdicts import grade
from ghostdb.play.seats import COMMON_SEAT, STRATEGIES, computer_seats
from ghostdb.play.vocabulary import vocabulary_size
from ghostdb.values import Outcome, Position

MAX_SEATS = 8
LIVES = tuple(sorted(LETTERS))
CLOCKS = (None, 30, 60, 300)
"""A turn's clock in seconds (None: off); 60 by default."""
MAX_POSITION = 64
"""The longest position a word game's room lets a letter make (no stored word is
longer): past it the next player can only challenge or concede."""
MAX_WORD = 64
OPS = ("move", "challenge", "word", "concede", "timeout")


class Refused(GhostdbError):
    """A message the referee will not take: ``code`` names why, the text says it."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


# -- a new room --------------------------------------------------------------------------------


def new_room(
    game: Game,
    name: str,
    seats: Sequence[str],
    *,
    lives: int = 5,
    clock: int | None = 60,
    seed: int = 0,
) -> list[Event]:
    """The ``created`` event of a room of ``game`` over the solution ``name``, with
    ``seats`` (``human`` or a computer strategy, in seat order); raise BadMove for a room
    the game cannot be played in."""
    if not 2 <= len(seats) <= MAX_SEATS:
        raise BadMove(f"a room has 2 to {MAX_SEATS} seats, not {len(seats)}")
    if not game.word_game and len(seats) != game.rules.players:
        raise BadMove(f"{game.title} is played by {game.rules.players}, not {len(seats)}")
    if lives not in LIVES:
        raise BadMove(f"lives are one of {', '.join(map(str, LIVES))}, not {lives}")
    if clock not in CLOCKS:
        raise BadMove(f"the clock is off, 30, 60 or 300 seconds, not {clock}")
    for player in seats:
        _check_player(game, player)
    if not game.word_game:
        lives = 1  # one game decides the match
    return [
        {
            "type": "created",
            "name": name,
            "rules": game.key,
            "game": game.name,
            "word_game": game.word_game,
            "start": game.start(),
            "seats": [{"seat": i, "player": p, "name": None} for i, p in enumerate(seats)],
            "lives": lives,
            "letters": LETTERS[lives],
            "clock": clock,
            "seed": seed,
        }
    ]


def _check_player(game: Game, player: str) -> None:
    """A seat is a person or a computer strategy the game can seat (a ``common:N``
    player knows words: word games only); else BadMove, before the room exists."""
    if player == HUMAN or player in STRATEGIES:
        return
    if vocabulary_size(player) is not None:
        if game.word_game:
            return
        raise BadMove(f"a {COMMON_SEAT} player knows words: {game.title} has none")
    raise BadMove(f"{player!r} is not a seat: use human or one of {computer_seats()}")


def join(state: RoomState, name: str) -> tuple[int, list[Event]]:
    """The seat a person called ``name`` takes and the events that makes (the match
    starts once every person's seat is taken); raise Refused when none is free."""
    if state.status == OVER:
        raise Refused("over", "the match is over: ask for a rematch")
    free = state.open_seats()
    if not free:
        raise Refused("room_full", "every seat of this room is taken: watch it instead")
    seat = free[0]
    events: list[Event] = [{"type": "joined", "seat": seat, "name": name}]
    if len(free) == 1 and state.status == WAITING:
        events += [{"type": "started"}, _round_event(state, 1, state.still_in()[0])]
    return seat, events


def start_if_ready(state: RoomState) -> list[Event]:
    """A room with no person's seat left to take starts at once (only computers, or the
    creator alone with them)."""
    if state.status == WAITING and not state.open_seats():
        return [{"type": "started"}, _round_event(state, 1, state.still_in()[0])]
    return []


# -- a message -----------------------------------------------------------------------------------


def decide(
    state: RoomState, seat: int, message: dict[str, Any], judge: Judge, now: float = 0.0
) -> list[Event]:
    """The events ``seat``'s message makes (``op``: move, challenge, word, concede; the
    server's own ``timeout``), or Refused.  ``now`` is the server's clock (seconds)."""
    op = message.get("op")
    if op not in OPS:
        raise Refused("unknown_op", f"{op!r} is not an op: use one of {', '.join(OPS[:4])}")
    if state.status == WAITING:
        raise Refused("not_started", "the match has not started: seats are still free")
    if state.status == OVER or state.round is None:
        raise Refused("over", "the match is over")
    rnd = state.round
    if op == "timeout":
        deadline = state.deadline()
        if deadline is None or now < deadline:
            raise Refused("too_early", "the clock has not run out")
        return [
            {"type": "timed_out", "seat": rnd.turn},
            *_over(state, judge, [rnd.turn], "timeout"),
        ]
    if seat != rnd.turn:
        whose = "to answer the challenge" if rnd.phase == ANSWER else "to move"
        raise Refused("not_your_turn", f"it is seat {rnd.turn}'s turn {whose}")
    ref = {"ref": message["id"]} if message.get("id") is not None else {}
    if op == "concede":
        return [{"type": "conceded", "seat": seat, **ref}, *_over(state, judge, [seat], "conceded")]
    if op == "word":
        return _answer(state, judge, seat, message.get("word"), ref)
    if rnd.phase == ANSWER:
        raise Refused("must_answer", "you are challenged: name a word, or concede")
    if op == "challenge":
        return _challenge(state, judge, seat, ref)
    return _move(state, judge, seat, message.get("move"), ref)


def _move(state: RoomState, judge: Judge, seat: int, text: Any, ref: dict[str, Any]) -> list[Event]:
    rnd, game = _round(state), judge.game
    if not isinstance(text, str) or not text.strip() or len(text) > 16:
        raise Refused("bad_message", f"a move is a short text: {game.move_hint()}")
    try:
        notation, child = game.parse_move(rnd.position, text)
    except (BadMove, BadFragment) as exc:
        raise Refused("illegal_move", str(exc)) from None
    moved = {"type": "moved", "seat": seat, "move": notation, "position": child,
             "text": game.label(child), **ref}  # fmt: skip
    if state.word_game:
        if len(child) > MAX_POSITION:
            raise Refused("illegal_move", "no word is that long: challenge, or concede")
        after = judge.position(child)
        if after is not None and after.is_final:
            return [moved, *_over(state, judge, _completers(rnd, seat, after), "word", moved)]
        return [moved]
    here = judge.position(rnd.position)
    play = next((p for p in (here.plays if here else ()) if p.fragment == child), None)
    if play is None:
        raise Refused("illegal_move", f"{text.strip()!r} is not a legal move here")
    if play.is_final:
        won = {Outcome.LOSS: True, Outcome.WIN: False}.get(play.outcome)
        losers = [] if won is None else [s for s in rnd.seats if (s == seat) != won]
        return [moved, *_over(state, judge, losers, "final", moved)]
    if child in rnd.seen:
        return [moved, *_over(state, judge, [], "repeat", moved)]
    return [moved]


def _completers(rnd: Round, seat: int, final: Position) -> list[int]:
    """Who loses a round that ``seat`` ended by completing a word: that player, or in
    misère (where the word wins: the stored final position is lost for its player to
    move) every other player in the round."""
    if final.outcome is Outcome.LOSS:
        return [s for s in rnd.seats if s != seat]
    return [seat]


def _challenge(state: RoomState, judge: Judge, seat: int, ref: dict[str, Any]) -> list[Event]:
    rnd = _round(state)
    if not state.word_game:
        raise Refused("illegal_move", f"nobody is challenged in {judge.game.title}")
    target = rnd.last_mover
    if target is None:
        raise Refused("illegal_move", "nothing to challenge: the round has just begun")
    return [{"type": "challenged", "seat": seat, "target": target, **ref}]


def _answer(
    state: RoomState, judge: Judge, seat: int, word: Any, ref: dict[str, Any]
) -> list[Event]:
    rnd = _round(state)
    if rnd.phase != ANSWER:
        raise Refused("not_challenged", "nobody has challenged you: move, or concede")
    if not isinstance(word, str) or len(word) > MAX_WORD:
        raise Refused("bad_message", f"a word is a text of at most {MAX_WORD} letters")
    said = unicodedata.normalize("NFC", word.strip()).lower()  # as stored words are
    valid = answers(judge, rnd.position, said)
    loser = rnd.challenger if valid else seat
    assert loser is not None
    answered = {"type": "answered", "seat": seat, "word": said, "valid": valid, **ref}
    return [answered, *_over(state, judge, [loser], "challenge", answered)]


def answers(judge: Judge, position: str, word: str) -> bool:
    """The ruling on a challenge: whether ``word`` (as said) is a word of the dictionary
    that ``position`` can still become.  A string test and one indexed lookup: never a
    scan of the word list (the round's verdicts are worked out after it)."""
    return bool(word) and judge.game.can_become(position, word) and judge.is_word(word)


# -- the end of a round --------------------------------------------------------------------------


def _over(
    state: RoomState,
    judge: Judge,
    losers: list[int],
    reason: str,
    last: Event | None = None,
) -> list[Event]:
    """The ``round_over`` event (and the next round's, or the match's end)."""
    rnd = _round(state)
    letters = [s.letters for s in state.seats]
    if state.word_game:
        for seat in losers:
            letters[seat] += 1
    out = [s for s in losers if letters[s] >= state.lives and state.word_game]
    ending = {"reason": reason, "losers": losers, "last": last}
    over: Event = {
        "type": "round_over",
        "round": rnd.number,
        "losers": losers,
        "reason": reason,
        "text": _say(state, judge.game, rnd, ending),
        "letters": letters,
        "out": out,
        "verdicts": grade(judge, state, rnd, ending),
    }
    still = [s.seat for s in state.seats if letters[s.seat] < state.lives]
    if not state.word_game or len(still) <= 1:
        if state.word_game:
            winners = still
        else:
            winners = [s for s in rnd.seats if s not in losers] if losers else []
        return [over, _match_over(state, winners)]
    starter = _next_starter(state, losers, still, rnd)
    nxt = _round_event(state, rnd.number + 1, starter, still)
    return [over, nxt]


def _next_starter(state: RoomState, losers: list[int], still: list[int], rnd: Round) -> int:
    """The round's first loser still in starts the next, else the next player still in
    after that loser."""
    first = losers[0] if losers else rnd.starter
    if first in still:
        return first
    n = len(state.seats)
    return next(s for s in ((first + k) % n for k in range(1, n + 1)) if s in still)


def _round_event(
    state: RoomState, number: int, starter: int, still: list[int] | None = None
) -> Event:
    playing = sorted(state.still_in() if still is None else still)
    at = playing.index(starter)
    return {
        "type": "round",
        "round": number,
        "starter": starter,
        "seats": playing[at:] + playing[:at],
        "position": state.start,
    }


def abandoned(state: RoomState) -> list[Event]:
    """The end of a room still waiting for players that nobody came to: over, with no
    winner (a server closes it after `ghostdb.web.rooms.limits.ABANDON_AFTER`, so that
    forgotten rooms do not hold the caps on open rooms for ever).  Nothing for a room
    being played: its clock, or the computer standing in for the absent, ends it."""
    if state.status != WAITING:
        return []
    text = "nobody came to play: the room is closed"
    return [{"type": "match_over", "winners": [], "reason": "abandoned", "text": text}]


def _match_over(state: RoomState, winners: list[int]) -> Event:
    if not winners:
        text = "the match ends with no winner"
    else:
        text = " and ".join(seat_name(state, s) for s in winners) + " won the match"
    return {"type": "match_over", "winners": winners, "text": text}


def _say(state: RoomState, game: Game, rnd: Round, ending: dict[str, Any]) -> str:
    """The round's end in one line, as the room announces it."""
    reason, losers, last = ending["reason"], ending["losers"], ending["last"]
    names = " and ".join(seat_name(state, s) for s in losers)
    if reason == "word":
        word = last["position"] if last else rnd.position
        mover = seat_name(state, last["seat"]) if last else names
        return f"{mover} completed {game.label(word)!r}: {names} {_lose(losers)} the round"
    if reason == "challenge":
        said = last["word"] if last else ""
        verdict = "is" if last and last.get("valid") else "is not"
        return f"{said!r} {verdict} a word that {rnd.position!r} can become: {names} loses"
    if reason == "conceded":
        return f"{names} conceded the round"
    if reason == "timeout":
        return f"{names} ran out of time"
    if reason == "repeat":
        return f"{game.label(rnd.position)} came again: a draw"
    if not losers:
        return f"{game.ending(last['position'] if last else rnd.position)}: nobody wins"
    return f"{game.ending(last['position'] if last else rnd.position)}: {names} lost"


def _lose(losers: list[int]) -> str:
    return "loses" if len(losers) == 1 else "lose"


def _round(state: RoomState) -> Round:
    if state.round is None or state.status != PLAYING:
        raise Refused("over", "the match is over")
    return state.round


def seat_name(state: RoomState, seat: int) -> str:
    """How the room names a seat: the person's name, or the computer's strategy."""
    s = state.seats[seat]
    return s.name or (f"computer ({s.player})" if s.player != HUMAN else f"seat {seat}")


def whose_turn(state: RoomState) -> tuple[int, str] | None:
    """The seat whose turn it is and what it must do (move or answer), if any."""
    if state.status != PLAYING or state.round is None:
        return None
    return state.round.turn, state.round.phase


__all__ = [
    "ANSWER",
    "CLOCKS",
    "LIVES",
    "MOVE",
    "Judge",
    "Refused",
    "abandoned",
    "answers",
    "decide",
    "join",
    "new_room",
    "seat_name",
    "start_if_ready",
    "whose_turn",
]
