"""Each finished round of a room graded by the store, as its ``round_over`` event keeps it.

The verdicts are worked out once, when the round ends (`grade`, which the referee calls),
and ride on the ``round_over`` event: nobody sees them while the round is played, so they
never tell a bluff before its challenge.  They are a list of JSON objects:

* one a move, in order: ``seat``, ``move`` (the game's notation), ``position`` (the key
  after it) and ``bluff`` (word games: the move left a stored position for one that no
  word continues).  Where the stored solution was solved for as many players as played
  the round (any game but a word game always is) and the position before the move is
  stored, also ``value_before`` and ``value_after`` (the mover's value: win, tie, draw or
  loss; with more than two players, win: the mover can still avoid losing), ``verdict``
  (best, good, mistake or blunder, exactly as `ghostdb.play.analysis` judges a move; a
  bluff loses at once, as a letter no word continues does there), ``best`` (the moves
  that kept the value and the game's length) and ``missed`` (the moves that won, when
  the one made did not; else empty).
* one for the round's end: ``ending`` (the reason: word, challenge, conceded, timeout,
  final or repeat), ``losers``, and ``position``.  After a challenge (answered,
  conceded or timed out): ``challenger``, ``target`` (the player challenged), ``right``
  (the position challenged was a bluff: no word continues it), ``word`` (the word named,
  or null), ``valid`` (it counted) and ``example`` (when the challenge was wrong, a word
  the position can become: where the stored best line from it ends).  After a completed
  word: ``seat`` (who completed it) and ``word``.

Pure: the positions come from the room's `Judge`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ghostdb.play.analysis import best_moves, mover_values, verdict
from ghostdb.play.rooms.state import ANSWER
from ghostdb.values import Position

if TYPE_CHECKING:
    from ghostdb.play.rooms.judge import Judge
    from ghostdb.play.rooms.state import Event, RoomState, Round

Lookup = Callable[[str], Position | None]
"""A stored position by its key (None: not stored)."""


def grade(
    judge: Judge, state: RoomState, rnd: Round, ending: dict[str, Any]
) -> list[dict[str, Any]]:
    """The verdicts of a round that has just ended (see the module's list): one a move,
    then one for its end.  ``ending`` is the referee's: ``reason``, ``losers`` and
    ``last``, the event that ended the round (a ``moved`` event not yet folded into
    ``rnd``, an ``answered`` event, or None)."""
    moves = round_moves(rnd, ending.get("last"))
    keys = list(dict.fromkeys([judge.game.start(), *(e["position"] for e in moves)]))
    stored = _memo(judge.position, dict(zip(keys, judge.positions(keys), strict=True)))
    look = judge.graded(len(rnd.seats))
    if look is None and not state.word_game:
        look = judge.position  # a game is played by as many as its solution
    graded = None if look is None else (stored if look == judge.position else _memo(look))
    before = judge.game.start()
    found = []
    for event in moves:
        found.append(_move_verdict(judge, state, event, before, stored, graded, len(rnd.seats)))
        before = event["position"]
    return [*found, _end_verdict(judge, rnd, ending, moves, stored)]


def round_moves(rnd: Round, last: Event | None) -> list[Event]:
    """The round's ``moved`` events, with the move that ended it: the referee grades a
    round before folding in the events that end it."""
    moves = list(rnd.moves)
    if last is not None and last.get("type") == "moved" and (not moves or moves[-1] is not last):
        moves.append(last)
    return moves


def _move_verdict(
    judge: Judge,
    state: RoomState,
    event: Event,
    before: str,
    stored: Lookup,
    graded: Lookup | None,
    players: int,
) -> dict[str, Any]:
    """One move's verdict (see the module)."""
    after = event["position"]
    found: dict[str, Any] = {"seat": event["seat"], "move": event["move"], "position": after}
    was_stored = stored(before) is not None
    found["bluff"] = bool(state.word_game and was_stored and stored(after) is None)
    pos = None if graded is None or not was_stored else graded(before)
    if pos is None:
        return found
    play = next((p for p in pos.plays if p.fragment == after), None)
    value_before, value_after = mover_values(pos, play, players)
    best = best_moves(pos)
    winning = [p.move for p in pos.plays if mover_values(pos, p, players)[1] == "win"]
    found.update(
        value_before=value_before,
        value_after=value_after,
        # A move to a position no word continues (a bluff) loses at once: no stored play.
        verdict=verdict(value_before, value_after, play is not None and play.move in best),
        best=list(best),
        missed=winning if value_after != "win" else [],
    )
    return found


def _end_verdict(
    judge: Judge, rnd: Round, ending: dict[str, Any], moves: list[Event], stored: Lookup
) -> dict[str, Any]:
    """The round's end: the challenge judged, or the word completed."""
    reason, last = ending["reason"], ending.get("last")
    position = moves[-1]["position"] if moves else judge.game.start()
    found: dict[str, Any] = {
        "ending": reason,
        "losers": list(ending["losers"]),
        "position": position,
    }
    if rnd.phase == ANSWER and rnd.challenger is not None:
        # A challenge ends the round whether it is answered, conceded or timed out.
        right = stored(rnd.position) is None
        answered = last if last is not None and last.get("type") == "answered" else None
        found.update(
            challenger=rnd.challenger,
            target=rnd.last_mover,
            right=right,
            word=None if answered is None else answered["word"],
            valid=bool(answered and answered.get("valid")),
            example=None if right else judge.word_for("optimal", rnd.position),
        )
    elif reason == "word" and last is not None:
        final = stored(position)
        found.update(seat=last["seat"], word=(final.label if final else None) or position)
    return found


def _memo(lookup: Lookup, known: dict[str, Position | None] | None = None) -> Lookup:
    """``lookup`` asked once a key (those ``known`` read already): a round's grading asks
    of most positions twice."""
    seen: dict[str, Position | None] = dict(known or {})

    def remembered(key: str) -> Position | None:
        if key not in seen:
            seen[key] = lookup(key)
        return seen[key]

    return remembered


__all__ = ["grade", "round_moves"]
