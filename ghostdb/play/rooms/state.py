"""A room's state, made by folding its events: nothing else changes it.

Every event is a JSON object with a ``type`` and a version ``v`` (1, 2, 3, … in the room);
the log of them is the room (`ghostdb.store.rooms.log` keeps it).  `RoomState.apply` reads
one event into the state without asking anything of the store, so a server that starts
rebuilds every room from its log, and every server that reads the same log holds the
same state.  The referee (`ghostdb.play.rooms.referee`) decides which events a player's
message makes; this module only reads them.

The events, with the fields each carries beside ``type`` and ``v`` (and ``at``, the
server's clock in seconds when it was committed):

* ``created``: ``name``, ``rules``, ``game``, ``word_game``, ``start``, ``seats`` (each
  ``{"seat", "player", "name"}``), ``lives``, ``letters``, ``clock`` (seconds a turn, or
  null), ``seed``.
* ``joined``: ``seat``, ``name``.  ``started``: every seat is taken.
* ``round``: ``round`` (from 1), ``starter``, ``seats`` (those in play, in turn order).
* ``moved``: ``seat``, ``move`` (the game's notation), ``position`` (the new key),
  ``text`` (how it is shown), ``auto`` (the computer played for an absent person).
* ``challenged``: ``seat`` (the challenger), ``target`` (the player challenged).
* ``answered``: ``seat``, ``word``.  ``conceded``: ``seat``.  ``timed_out``: ``seat``.
* ``round_over``: ``round``, ``losers``, ``reason``, ``text`` (one line), ``letters``
  (every seat's count after it), ``out`` (seats out now), ``verdicts``.
* ``match_over``: ``winners``, ``text``, and ``reason`` ``abandoned`` when nobody came
  to a waiting room.  ``rematch``: ``room`` (the new room's id).

A message's ``id`` (see the protocol) rides on the event it made as ``ref``, so a
repeated message is known even after a restart.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

Event = dict[str, Any]

HUMAN = "human"
LETTERS = {1: "G", 3: "PIG", 5: "GHOST"}
"""The letters a word game's loser takes, by the number of lives: five spell GHOST."""
WAITING, PLAYING, OVER = "waiting", "playing", "over"
MOVE, ANSWER = "move", "answer"
"""What the player whose turn it is must do: move (or challenge, or concede), or answer a
challenge with a word (or concede)."""


@dataclass
class Seat:
    """One seat of a room: a person (``human``) or a computer strategy."""

    seat: int
    player: str
    name: str | None = None
    letters: int = 0

    @property
    def human(self) -> bool:
        return self.player == HUMAN

    def as_dict(self, lives: int, word: str) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "player": self.player,
            "name": self.name,
            "letters": self.letters,
            "spelled": word[: self.letters],
            "out": self.letters >= lives,
        }


@dataclass
class Round:
    """The round in play: its position, whose turn it is, and what was played in it."""

    number: int
    starter: int
    seats: tuple[int, ...]
    """The seats in play this round, in turn order from the starter."""
    position: str
    turn: int
    phase: str = MOVE
    moves: list[Event] = field(default_factory=list)
    """The round's ``moved`` events."""
    challenger: int | None = None
    seen: set[str] = field(default_factory=set)
    """Positions met this round (a game that can cycle ends in a draw on a repeat)."""

    @property
    def last_mover(self) -> int | None:
        return self.moves[-1]["seat"] if self.moves else None

    def after(self, seat: int) -> int:
        """The seat in play after ``seat``."""
        order = self.seats
        return order[(order.index(seat) + 1) % len(order)]

    def as_dict(self) -> dict[str, Any]:
        return {
            "round": self.number,
            "starter": self.starter,
            "seats": list(self.seats),
            "position": self.position,
            "turn": self.turn,
            "phase": self.phase,
            "challenger": self.challenger,
            "moves": [
                {k: e[k] for k in ("seat", "move", "position", "text") if k in e}
                for e in self.moves
            ],
        }


@dataclass
class RoomState:
    """A room as its events made it (see the module's list of events)."""

    id: str
    name: str = ""
    rules: str = ""
    game: str = ""
    word_game: bool = False
    start: str = ""
    """The game's start position, where every round begins."""
    seats: list[Seat] = field(default_factory=list)
    lives: int = 5
    letters: str = "GHOST"
    clock: int | None = None
    seed: int = 0
    status: str = WAITING
    version: int = 0
    round: Round | None = None
    rounds: list[Event] = field(default_factory=list)
    """Every ``round_over`` event: the match's record, verdicts included."""
    winners: tuple[int, ...] | None = None
    rematch: str | None = None
    turn_since: float = 0.0
    """When the turn in play began (the clock counts from it)."""
    refs: dict[tuple[int, str], int] = field(default_factory=dict)
    """(seat, message id) to the version of the first event that message made."""

    # -- reading events ----------------------------------------------------------------------

    @classmethod
    def replay(cls, room_id: str, events: list[Event]) -> RoomState:
        """The room after ``events``, in order (a log read back from the store)."""
        state = cls(room_id)
        for event in events:
            state.apply(event)
        return state

    def apply(self, event: Event) -> None:
        """Read one event into the state; its ``v`` must be the next version."""
        v = event["v"]
        if v != self.version + 1:
            raise ValueError(f"room {self.id}: event {v} follows version {self.version}")
        self.version = v
        kind = event["type"]
        handler = getattr(self, f"_on_{kind}", None)
        if handler is None:
            raise ValueError(f"room {self.id}: unknown event type {kind!r}")
        handler(event)
        if "ref" in event and "seat" in event:
            self.refs.setdefault((event["seat"], event["ref"]), v)
        if kind in ("round", "moved", "challenged"):
            self.turn_since = event.get("at", 0.0)

    def _on_created(self, e: Event) -> None:
        self.name, self.rules, self.game = e["name"], e["rules"], e["game"]
        self.word_game, self.lives, self.letters = e["word_game"], e["lives"], e["letters"]
        self.clock, self.seed, self.start = e["clock"], e["seed"], e.get("start", "")
        self.seats = [Seat(s["seat"], s["player"], s.get("name")) for s in e["seats"]]

    def _on_joined(self, e: Event) -> None:
        self.seats[e["seat"]].name = e["name"]

    def _on_started(self, _e: Event) -> None:
        self.status = PLAYING

    def _on_round(self, e: Event) -> None:
        seats = tuple(e["seats"])
        self.round = Round(e["round"], e["starter"], seats, e["position"], e["starter"])
        self.round.seen.add(e["position"])

    def _on_moved(self, e: Event) -> None:
        rnd = self._in_round()
        rnd.moves.append(e)
        rnd.position = e["position"]
        rnd.seen.add(e["position"])
        rnd.turn = rnd.after(e["seat"])

    def _on_challenged(self, e: Event) -> None:
        rnd = self._in_round()
        rnd.phase, rnd.challenger, rnd.turn = ANSWER, e["seat"], e["target"]

    def _on_answered(self, _e: Event) -> None:
        self._in_round()

    def _on_conceded(self, _e: Event) -> None:
        self._in_round()

    def _on_timed_out(self, _e: Event) -> None:
        self._in_round()

    def _on_round_over(self, e: Event) -> None:
        for seat, count in enumerate(e["letters"]):
            self.seats[seat].letters = count
        self.rounds.append(e)
        self.round = None

    def _on_match_over(self, e: Event) -> None:
        self.status, self.winners, self.round = OVER, tuple(e["winners"]), None

    def _on_rematch(self, e: Event) -> None:
        self.rematch = e["room"]

    def _in_round(self) -> Round:
        if self.round is None:
            raise ValueError(f"room {self.id}: a round's event outside a round")
        return self.round

    # -- questions ---------------------------------------------------------------------------

    def still_in(self) -> list[int]:
        """The seats with letters to spare, in seat order."""
        return [s.seat for s in self.seats if s.letters < self.lives]

    def open_seats(self) -> list[int]:
        """Seats for people that nobody has taken yet."""
        return [s.seat for s in self.seats if s.human and s.name is None]

    def deadline(self) -> float | None:
        """When the player whose turn it is runs out of time (None: no clock, no turn)."""
        if self.clock is None or self.round is None or self.status != PLAYING:
            return None
        return self.turn_since + self.clock

    def as_dict(self) -> dict[str, Any]:
        """The whole state, as a client that joins (or has missed too much) is sent it.
        Verdicts are only in finished rounds: nothing tells a bluff before its round ends."""
        return {
            "room": self.id,
            "v": self.version,
            "name": self.name,
            "rules": self.rules,
            "game": self.game,
            "word_game": self.word_game,
            "status": self.status,
            "lives": self.lives,
            "letters": self.letters,
            "clock": self.clock,
            "seats": [s.as_dict(self.lives, self.letters) for s in self.seats],
            "round": None if self.round is None else self.round.as_dict(),
            "deadline": self.deadline(),
            "rounds": self.rounds,
            "winners": None if self.winners is None else list(self.winners),
            "rematch": self.rematch,
        }
