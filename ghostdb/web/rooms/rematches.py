"""A finished match's rematch: one new room for everyone who asks, however many ask at
once and however often.

The first person to ask makes the rematch room (the same solution, seats, lives and
clock) and names it in the old room's log (a ``rematch`` event, under the old room's
lock): everyone after, on this server or another, finds it there.  Each is seated at
the seat they had where it is free, and asked again, gets the same answer.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any, Protocol

from ghostdb.play.rooms.judge import Judge
from ghostdb.play.rooms.referee import Refused, new_room, start_if_ready
from ghostdb.play.rooms.state import OVER, Event
from ghostdb.store.rooms.rows import token_hash
from ghostdb.web.rooms.limits import STALE_TRIES
from ghostdb.web.rooms.room import Room, new_seed, new_token


class Rooms(Protocol):
    """What a rematch asks of the server's rooms (`ghostdb.web.rooms.hub.Hub`)."""

    async def room(self, room_id: str) -> Room | None:
        """The room ``room_id``, from memory or its log (None: no such room)."""
        ...

    async def store_new(
        self, judge: Judge, created: list[Event], player: str | None, address: str | None
    ) -> tuple[Room, int | None, str | None]:
        """Store a new room under a fresh id: it, and its creator's seat and token."""
        ...

    async def commit(
        self, room: Room, events: list[Event], seat_updates: Sequence[tuple[int, str, str]] = ()
    ) -> int:
        """Append ``events`` to the room's log, then apply and send them."""
        ...


class Rematches:
    """The rematches of one server's finished rooms, and each seat given in them."""

    def __init__(self, hub: Rooms) -> None:
        self.hub = hub
        self.given: dict[tuple[str, int], dict[str, Any]] = {}
        """What each (room, seat) was given, so that asking again gives the same."""

    async def seat(self, room: Room, seat: int) -> dict[str, Any]:
        """A seat in the finished room's rematch for the person at ``seat``: the first
        caller makes the rematch room (the same solution, seats, lives and clock), every
        caller is seated in it, at the same seat where it is free.  Asked again, the
        same answer.  Refused ``not_over``, ``room_full``."""
        async with room.lock:
            state = room.state
            if state.status != OVER:
                raise Refused("not_over", "the match is not over: finish it first")
            kept = self.given.get((room.id, seat))
            if kept is not None:
                return kept
            new_id = state.rematch or await self._make(room)
        again = await self.hub.room(new_id)
        if again is None:
            raise Refused("over", "the rematch room is gone")
        name = state.seats[seat].name or f"seat {seat}"
        taken = await self._take_seat(again, seat, name)
        self.given[(room.id, seat)] = taken
        return taken

    async def _make(self, room: Room) -> str:
        """Make the rematch room and name it in the old room's log (under its lock); if
        another server named one first, that one."""
        state = room.state
        players = [s.player for s in state.seats]
        created = new_room(
            room.judge.game, state.name, players, lives=state.lives, clock=state.clock,
            seed=new_seed(),
        )  # fmt: skip
        again, _, _ = await self.hub.store_new(room.judge, created, None, room.address)
        try:
            await self.hub.commit(room, [{"type": "rematch", "room": again.id}])
        except Refused as exc:
            if exc.code != "stale" or room.state.rematch is None:
                raise
        return room.state.rematch or again.id

    async def _take_seat(self, room: Room, seat: int, name: str) -> dict[str, Any]:
        """Seat ``name`` at ``seat`` if it is free, else at the first free seat."""
        for _ in range(STALE_TRIES):
            async with room.lock:
                state = room.state
                free = state.open_seats()
                if not free:
                    raise Refused("room_full", "every seat of the rematch is taken: watch it")
                chosen = seat if seat in free else free[0]
                events: list[Event] = [{"type": "joined", "seat": chosen, "name": name}]
                trial = copy.deepcopy(state)
                trial.apply({**events[0], "v": trial.version + 1})
                events += start_if_ready(trial)
                token = new_token()
                taken = [(chosen, name, token_hash(token))]
                try:
                    await self.hub.commit(room, events, seat_updates=taken)
                except Refused as exc:
                    if exc.code == "stale":
                        continue
                    raise
                return {"room": room.id, "seat": chosen, "token": token, "v": room.state.version}
        raise Refused("stale", "the room kept changing: try again")


__all__ = ["Rematches"]
