"""One room as a server holds it (`Room`), and what its turns need beside the hub: the
ids and tokens a room is made with, when its next turn without a message falls due,
the computer's turn, and the referee's ruling run off the event loop.

Every call to the store here runs in a thread (it is synchronous); the `Hub`
(`ghostdb.web.rooms.hub`) holds the rooms and changes them under their locks.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from ghostdb.errors import GhostdbError
from ghostdb.play.rooms import bots
from ghostdb.play.rooms.judge import Judge
from ghostdb.play.rooms.referee import Refused, decide, whose_turn
from ghostdb.play.rooms.state import Event, RoomState
from ghostdb.web.rooms.limits import MAX_BEHIND
from ghostdb.web.rooms.wire import Client

log = logging.getLogger("ghostdb.rooms")

OWN_ACTS = ("moved", "challenged", "answered", "conceded")
"""The events a seat's own message makes: marked ``auto`` when the computer stood in."""


def new_room_id() -> str:
    """A room's id: 128 random bits, URL-safe (22 characters)."""
    return secrets.token_urlsafe(16)


def new_token() -> str:
    """A seat's token: 256 random bits, URL-safe; only its hash is stored."""
    return secrets.token_urlsafe(32)


@dataclass(eq=False)
class Room:
    """One room held in memory: its state, the judge of its solution, the lock every
    change takes, its sockets, its recent messages and the timer of its next turn."""

    state: RoomState
    judge: Judge
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    clients: set[Client] = field(default_factory=set)
    recent: deque[tuple[int, str]] = field(default_factory=lambda: deque(maxlen=MAX_BEHIND))
    """The last events as they were sent (version, frame): what a client that reconnects
    missed is sent from here."""
    absent_since: dict[int, float] = field(default_factory=dict)
    """Each taken person's seat without a socket, and since when (the server's clock)."""
    elsewhere: dict[str, tuple[frozenset[int], float]] = field(default_factory=dict)
    """The seats other servers hold a socket of (`ghostdb.web.rooms.presence`), by
    server, and until when that holds unless said again."""
    last_commit: float = field(default_factory=time.time)
    timer: asyncio.Task[None] | None = None
    acting: bool = False
    """Whether the timer is playing a turn: it is not cancelled then (it looks again)."""
    address: str | None = None
    """Who made the room (the per-address cap of open rooms)."""

    @property
    def id(self) -> str:
        return self.state.id

    def here(self) -> list[int]:
        """The seats with a socket on this server, in seat order."""
        return sorted({c.seat for c in self.clients if c.seat is not None})

    def online(self) -> list[int]:
        """The seats with a socket here or, as last heard, on another server."""
        now, found = time.time(), set(self.here())
        for seats, until in self.elsewhere.values():
            if until > now:
                found |= seats
        return sorted(found)

    def spectators(self) -> int:
        return sum(1 for c in self.clients if c.seat is None)

    def missed(self, since: int | None) -> list[str] | None:
        """The frames of the events after ``since`` (None: send the whole state)."""
        version = self.state.version
        if not since or since > version or version - since > MAX_BEHIND:
            return None
        if since == version:
            return []
        if not self.recent or self.recent[0][0] > since + 1:
            return None
        return [text for v, text in self.recent if v > since]

    def due(self, bot_delay: float, grace: float) -> tuple[float, str] | None:
        """When the room's next turn without a message falls due, and what it is: the
        clock (``timeout``), a computer seat (``bot``, ``bot_delay`` after the last
        commit) or an absent person's (``stand_in``, ``grace`` after they left)."""
        state = self.state
        turn = whose_turn(state)
        if turn is None:
            return None
        seat = turn[0]
        found: list[tuple[float, str]] = []
        deadline = state.deadline()
        if deadline is not None:
            found.append((deadline, "timeout"))
        soonest = self.last_commit + bot_delay
        if not state.seats[seat].human:
            found.append((soonest, "bot"))
        elif seat in self.absent_since:
            found.append((max(self.absent_since[seat] + grace, soonest), "stand_in"))
        return min(found) if found else None


def computer_turn(state: RoomState, seat: int, judge: Judge) -> list[Event]:
    """The events of the computer's turn at ``seat`` (in a thread: it reads the store);
    a message the referee refuses (never, but for a bug) becomes a concession, so that a
    room never waits on a computer that cannot move."""
    now = time.time()
    try:
        message = bots.command(state, seat, judge, bots.rng_for(state, seat))  # type: ignore[arg-type]
        return decide(state, seat, message, judge, now)
    except (Refused, GhostdbError, ValueError, AttributeError, LookupError) as exc:
        log.warning("room %s: the computer at seat %s concedes: %s", state.id, seat, exc)
        return decide(state, seat, {"op": "concede"}, judge, now)


async def ruling(fn: Any, *args: Any) -> list[Event]:
    """The referee's ruling, in a thread (it reads the store): Refused as it is, the
    library's errors as ``illegal_move``, anything else (the database) ``unavailable``."""
    try:
        return await asyncio.to_thread(fn, *args)
    except Refused:
        raise
    except GhostdbError as exc:
        raise Refused("illegal_move", str(exc)) from None
    except Exception as exc:
        log.warning("a ruling failed: %s", line_of(exc))
        raise Refused("unavailable", "the database did not answer: try again") from None


def sent(state: RoomState, event: Event) -> Event:
    """An event as it is sent: with the deadline of the turn after it (not stored)."""
    return {**event, "deadline": state.deadline()}


def new_seed() -> int:
    """A new room's seed: what its computer seats draw their choices from."""
    return secrets.randbits(31)


def line_of(exc: BaseException) -> str:
    """An error in one line, for a warning (never a token: none is in any message)."""
    return (str(exc).splitlines() or [type(exc).__name__])[0][:200]


def retrieved(task: asyncio.Future[Any]) -> None:
    """Take a shielded write's outcome, so an abandoned one's error is not reported as
    never retrieved (the error went to its caller, or the caller had gone)."""
    if not task.cancelled():
        task.exception()


__all__ = [
    "OWN_ACTS",
    "Room",
    "computer_turn",
    "line_of",
    "new_room_id",
    "new_seed",
    "new_token",
    "retrieved",
    "ruling",
    "sent",
]
