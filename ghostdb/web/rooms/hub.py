"""The rooms this server holds: each one's state, judge, lock, sockets and timer.

A room's state is folded from its log (`ghostdb.store.rooms.log.RoomLog`) and changes only
here, under the room's lock, in one way: the referee decides what a message makes
(`ghostdb.play.rooms.referee.decide`), the events are numbered past the room's version
and appended to the log (with other rooms' appends, in one transaction:
`ghostdb.web.rooms.writer`), and only once they are committed are they applied
to the state and sent to every socket of the room.  Another writer of the same room (a
second server) makes the append `Stale`: the room then reads what it missed from the log
(`Hub.sync`) and the sender is told ``stale``, to try again on the new state.

The computer plays from the same path: after each commit one timer task a room sleeps
until the next thing that happens without a message (a computer seat's turn, after
`BOT_DELAY`; an absent person's turn, `GRACE` after they left; the turn's clock running
out), then decides and commits as for any message.  A server that starts rebuilds every
unfinished room from its log (`Hub.restore`), and its clients reconnect by themselves.

Every call to the store runs in a thread (`asyncio.to_thread`): they are synchronous.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections import deque
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ghostdb.errors import Stale
from ghostdb.play.rooms.judge import Judge
from ghostdb.play.rooms.referee import (
    Refused,
    abandoned,
    decide,
    join,
    new_room,
    start_if_ready,
)
from ghostdb.play.rooms.state import OVER, WAITING, Event, RoomState
from ghostdb.store.rooms.judge import Judges
from ghostdb.store.rooms.rows import token_hash
from ghostdb.web import library
from ghostdb.web.rooms.limits import (
    ABANDON_AFTER,
    BOT_DELAY,
    GRACE,
    MAX_BEHIND,
    MAX_ROOMS,
    MAX_ROOMS_PER_ADDRESS,
    MAX_SOCKETS,
    MAX_SPECTATORS,
    ROOM_ID,
    STALE_TRIES,
    SWEEP_EVERY,
    Counts,
)
from ghostdb.web.rooms.presence import CHANNEL as PRESENCE
from ghostdb.web.rooms.presence import Presence
from ghostdb.web.rooms.relay import FileClaim, Relay, share
from ghostdb.web.rooms.rematches import Rematches
from ghostdb.web.rooms.room import (
    OWN_ACTS,
    Room,
    computer_turn,
    line_of,
    new_room_id,
    new_seed,
    new_token,
    retrieved,
    ruling,
    sent,
)
from ghostdb.web.rooms.wire import Client, encode, presence, welcome
from ghostdb.web.rooms.writer import Writer

if TYPE_CHECKING:
    from ghostdb.store import Store
    from ghostdb.store.rooms.log import RoomLog

log = logging.getLogger("ghostdb.rooms")

RETRY = 1.0
"""Seconds a room's timer waits after a failed turn (the database busy) before it tries
again."""


class Hub:
    """The rooms of this process, by id, and what happens in them (see the module)."""

    def __init__(
        self,
        store: Store,
        *,
        bot_delay: float = BOT_DELAY,
        grace: float = GRACE,
        address_caps: bool = True,
    ) -> None:
        self.store = store
        self.judges = Judges(store)
        """One judge for each solution the rooms play, shared by them."""
        self.bot_delay = bot_delay
        self.grace = grace
        self.rooms: dict[str, Room] = {}
        self.counts = Counts() if address_caps else Counts(max_sockets_per_address=MAX_SOCKETS)
        self.rooms_per_address = MAX_ROOMS_PER_ADDRESS if address_caps else MAX_ROOMS
        self.running = False
        """Whether timers run: only between `start` and `stop` (an app served without
        its lifespan, as a schema fuzz calls it, plays no computer turns)."""
        self._loading = asyncio.Lock()
        self.rematches = Rematches(self)
        self.writer = Writer(lambda: self.log)
        """Every append to a room's log, committed in batches (`ghostdb.web.rooms.writer`)."""
        self.relay: Relay | FileClaim | None = None
        """Other servers' commits, announced (PostgreSQL; see `ghostdb.web.rooms.relay`)."""
        self._sweeper: asyncio.Task[None] | None = None
        self.presence = Presence()
        """Who is connected to the other servers (`ghostdb.web.rooms.presence`)."""

    @property
    def log(self) -> RoomLog:
        return self.store.room_log()

    # -- start and stop ----------------------------------------------------------------------

    async def start(self) -> None:
        """Run the timers, and take up every unfinished room of the log."""
        self.running = True
        self._loading = asyncio.Lock()  # made on the loop that serves
        log = await asyncio.to_thread(self.store.room_log)  # its engine made off the loop
        await self.restore()
        self._sweeper = asyncio.create_task(self._sweep_every())
        loop = asyncio.get_running_loop()
        self.relay = share(log.engine.url, loop, self.on_commit, self.resync, self.presence.hear)
        if isinstance(self.relay, Relay):
            tell = functools.partial(log.announce, PRESENCE)
            self.presence.start(tell, lambda: self.rooms, self.seen_elsewhere)

    async def stop(self) -> None:
        """Stop the timers and close every socket (clients reconnect with ``since``)."""
        self.running = False
        if self._sweeper is not None:
            self._sweeper.cancel()
        self.presence.stop()
        self.writer.close()
        if self.relay is not None:
            await asyncio.to_thread(self.relay.stop)
        for room in list(self.rooms.values()):
            if room.timer is not None:
                room.timer.cancel()
            for client in list(room.clients):
                client.close(1012, "the server restarts: reconnect with since")

    async def restore(self) -> int:
        """Rebuild every unfinished room from its log (`RoomState.replay`); how many.  A
        room that cannot be rebuilt (its solution deleted) is left out, with a warning:
        a server starts whatever one room's log holds."""
        try:
            ids = await asyncio.to_thread(self.log.unfinished)
        except Exception as exc:  # a database without the rooms' tables: rooms answer 503
            log.warning("rooms not restored: %s", line_of(exc))
            return 0
        restored = 0
        for room_id in ids:
            try:
                room = await self.room(room_id)
                if room is not None:
                    async with room.lock:
                        # A room made but not started (the server stopped in between).
                        await self.commit(room, start_if_ready(room.state))
                    restored += 1
            except Exception as exc:
                log.warning("room %s not restored: %s", room_id, line_of(exc))
        return restored

    # -- finding a room ----------------------------------------------------------------------

    async def room(self, room_id: str) -> Room | None:
        """The room ``room_id``, from memory or else from its log (None: there is no such
        room; a room is never made by asking for it)."""
        if not ROOM_ID.match(room_id):
            return None
        found = self.rooms.get(room_id)
        if found is not None:
            return found
        async with self._loading:  # one read of a room's log, however many ask at once
            found = self.rooms.get(room_id)
            if found is None:
                found = await asyncio.to_thread(self._load, room_id)
                if found is None:
                    return None
                self.rooms[room_id] = found
                self._schedule(found)
        return found

    def _load(self, room_id: str) -> Room | None:
        """A room rebuilt from its whole log (in a thread)."""
        events = self.log.events(room_id)
        if not events:
            return None
        state = RoomState(room_id)
        recent: deque[tuple[int, str]] = deque(maxlen=MAX_BEHIND)
        for event in events:
            state.apply(event)
            recent.append((event["v"], encode(sent(state, event))))
        judge = self.judges.judge(state.name, state.rules)
        room = Room(state, judge, recent=recent, last_commit=events[-1].get("at") or time.time())
        now = time.time()
        # Nobody is connected to a room just read: each person has the grace to return.
        room.absent_since = {s.seat: now for s in state.seats if s.human and s.name}
        return room

    async def sweep(self, now: float | None = None) -> int:
        """Close every room still waiting for players where nothing has happened for
        `ABANDON_AFTER` and nobody is connected (`abandoned`): its seats and its place
        under the caps on open rooms are freed.  How many were closed."""
        now = time.time() if now is None else now
        closed = 0
        for room in list(self.rooms.values()):
            if room.state.status != WAITING or room.clients or room.online():
                continue
            async with room.lock:
                if room.state.status != WAITING or now - room.last_commit < ABANDON_AFTER:
                    continue
                try:
                    await self.commit(room, abandoned(room.state))
                except Refused:  # another server moved it on: looked at next time
                    continue
            closed += 1
            self.forget_if_idle(room)
        return closed

    async def _sweep_every(self) -> None:
        while self.running:
            await self.sweep()
            await asyncio.sleep(SWEEP_EVERY)

    def forget_if_idle(self, room: Room) -> None:
        """Drop a finished room nobody watches from memory (its log keeps it)."""
        idle = room.state.status == OVER and not room.clients and not room.lock.locked()
        if idle and self.rooms.get(room.id) is room:
            del self.rooms[room.id]

    # -- making and joining rooms ------------------------------------------------------------

    def open_rooms(self, address: str | None = None) -> int:
        """Rooms not over in memory (made from ``address``, if given)."""
        return sum(
            1
            for r in self.rooms.values()
            if r.state.status != OVER and (address is None or r.address == address)
        )

    async def create(
        self,
        name: str,
        rules: str | None,
        seats: Sequence[str],
        *,
        lives: int,
        clock: int | None,
        player: str | None,
        address: str,
    ) -> dict[str, Any]:
        """Make a room over the solution ``name`` (under ``rules``: a choice or a key;
        None: the game's default) with ``seats``; the creator ``player`` takes the first
        person's seat.  Refused ``too_many_rooms``; BadMove, NotSolved and the like for a
        room that cannot be played."""
        if self.open_rooms() >= MAX_ROOMS:
            raise Refused("too_many_rooms", "the server holds as many rooms as it may")
        if self.open_rooms(address) >= self.rooms_per_address:
            raise Refused(
                "too_many_rooms", f"an address may have {self.rooms_per_address} rooms open"
            )
        judge = await asyncio.to_thread(self._judge, name, rules)
        created = new_room(judge.game, name, seats, lives=lives, clock=clock, seed=new_seed())
        room, seat, token = await self.store_new(judge, created, player, address)
        async with room.lock:
            await self.commit(room, start_if_ready(room.state))
            v = room.state.version
        return {"room": room.id, "seat": seat, "token": token, "v": v, "url": f"/rooms/{room.id}"}

    def _judge(self, name: str, rules: str | None) -> Judge:
        chosen = library.rules_for(self.store, name, rules)
        return self.judges.judge(name, chosen.key)

    async def store_new(
        self, judge: Judge, created: list[Event], player: str | None, address: str | None
    ) -> tuple[Room, int | None, str | None]:
        """Store a new room (its creator seated, if a person), under a fresh id."""
        for _ in range(STALE_TRIES):
            state = RoomState(new_room_id())
            at = time.time()
            events = [{**created[0], "v": 1, "at": at}]
            state.apply(events[0])
            seat = token = None
            seats: list[tuple[str, str | None, str | None]] = [
                (s.player, None, None) for s in state.seats
            ]
            if player is not None and state.open_seats():
                seat, joined = join(state, player)
                token = new_token()
                events.append({**joined[0], "v": 2, "at": at})
                state.apply(events[1])
                seats[seat] = (seats[seat][0], player, token_hash(token))
            first = events[0]
            try:
                await asyncio.to_thread(
                    self.log.create, state.id, first["name"], first["rules"],
                    {k: first[k] for k in ("seats", "lives", "clock", "seed")}, seats, events,
                )  # fmt: skip
            except Stale:  # the id was taken: 128 random bits, so never twice
                continue
            room = Room(state, judge, address=address)
            room.recent.extend((e["v"], encode(sent(state, e))) for e in events)
            if seat is not None:
                room.absent_since[seat] = at
            self.rooms[state.id] = room
            return room, seat, token
        raise Refused("stale", "no free room id was found: try again")

    async def join(self, room: Room, name: str) -> dict[str, Any]:
        """Seat a person called ``name`` in the room's first free seat: its number, token
        and the room's version after it (the ``since`` of the seat's hello).  Refused
        ``room_full``, ``over`` (or ``stale`` when writers kept racing)."""
        for _ in range(STALE_TRIES):
            async with room.lock:
                seat, events = join(room.state, name)
                token = new_token()
                try:
                    await self.commit(room, events, seat_updates=[(seat, name, token_hash(token))])
                except Refused as exc:
                    if exc.code == "stale":
                        continue
                    raise
                return {"room": room.id, "seat": seat, "token": token, "v": room.state.version}
        raise Refused("stale", "the room kept changing: try again")

    async def seat_of(self, room: Room, token: str) -> int | None:
        """The seat ``token`` holds in the room (compared in constant time by the log)."""
        return await asyncio.to_thread(self.log.seat_of, room.id, token)

    async def rematch(self, room: Room, seat: int) -> dict[str, Any]:
        """A seat in the finished room's rematch for the person at ``seat`` (see
        `ghostdb.web.rooms.rematches.Rematches.seat`)."""
        return await self.rematches.seat(room, seat)

    # -- messages ----------------------------------------------------------------------------

    async def hello(self, room: Room, client: Client, token: str | None, since: int | None) -> None:
        """Greet a socket: its seat (from ``token``; None: watching), then either the
        whole state or each event it missed since ``since``, once and in order; then it
        hears every event.  Refused ``bad_token``, ``room_full`` (spectators)."""
        seat = None
        if token is not None:
            seat = await self.seat_of(room, token)
            if seat is None:
                raise Refused("bad_token", "that token holds no seat of this room")
        elif room.spectators() >= MAX_SPECTATORS:
            raise Refused("room_full", f"{MAX_SPECTATORS} watch this room already: try later")
        async with room.lock:  # no event is committed between what it is sent and after
            state = room.state
            missed = room.missed(since)
            client.seat, client.greeted = seat, True
            client.send(welcome(state, seat, missed is None, self.grace))
            for text in missed or ():
                client.send_text(text)
            room.clients.add(client)
            if seat is not None:
                room.absent_since.pop(seat, None)
                self.presence.tell(room)
            self._presence(room)
            self._schedule(room)

    def leave(self, room: Room, client: Client) -> None:
        """A socket went: its seat is absent once no other socket holds it.  No lock and
        no wait, so that a socket's end never waits on the room (what it changes, the
        sockets and who is absent, no locked section reads across a wait)."""
        if client not in room.clients:
            return
        room.clients.discard(client)
        seat = client.seat
        if seat is not None and seat not in room.here():
            self.presence.tell(room)
            if seat not in room.online():  # nor on another server
                room.absent_since[seat] = time.time()
        self._presence(room)
        self._schedule(room)
        self.forget_if_idle(room)

    async def submit(self, room: Room, seat: int, message: dict[str, Any]) -> int:
        """What ``seat``'s message makes, committed: the version of its first event (a
        message ``id`` the seat has used already: that message's, and nothing changes).
        Refused with the referee's code, ``stale`` or ``unavailable``."""
        ref = message.get("id")
        async with room.lock:
            if ref is not None and (seat, ref) in room.state.refs:
                return room.state.refs[(seat, ref)]
            events = await ruling(decide, room.state, seat, message, room.judge, time.time())
            return await self.commit(room, events)

    async def sync(self, room_id: str) -> None:
        """Read what other writers appended to the room's log, apply and send it."""
        room = self.rooms.get(room_id)
        if room is not None:
            async with room.lock:
                await self._catch_up(room)

    async def on_commit(
        self, room_id: str, version: int, events: list[Event] | None = None
    ) -> None:
        """Another server (or this one) committed ``room_id`` up to ``version``: apply
        what this server has not applied yet, from the announced ``events`` when they
        follow on from the room's version, else read from the log."""
        room = self.rooms.get(room_id)
        if room is None or version <= room.state.version:
            return
        async with room.lock:  # this server's own commit applies under it: look again
            have = room.state.version
            if version <= have:
                return
            first = events[0].get("v") if events else None
            if isinstance(first, int) and first <= have + 1:
                self._apply(room, events or [])
            else:
                await self._catch_up(room)

    async def resync(self) -> None:
        """`sync` every room held (when announcements of other servers' commits may
        have been missed)."""
        for room_id in list(self.rooms):
            await self.sync(room_id)

    # -- committing --------------------------------------------------------------------------

    async def commit(
        self, room: Room, events: list[Event], seat_updates: Sequence[tuple[int, str, str]] = ()
    ) -> int:
        """Number ``events`` past the room's version, append them to the log, then apply
        and send them; the version of the first (the room's, for none).  Called under
        the room's lock.  Shielded: a caller cancelled mid-write (a socket gone) leaves
        the write to finish and be applied, never half done."""
        state = room.state
        if not events:
            return state.version
        at = time.time()
        numbered = [{**e, "v": state.version + i, "at": at} for i, e in enumerate(events, 1)]
        task = asyncio.ensure_future(self._write(room, numbered, list(seat_updates)))
        task.add_done_callback(retrieved)
        return await asyncio.shield(task)

    async def _write(
        self, room: Room, events: list[Event], seat_updates: list[tuple[int, str, str]]
    ) -> int:
        status = None
        kinds = {e["type"] for e in events}
        if "match_over" in kinds:
            status = "over"
        elif "started" in kinds:
            status = "playing"
        try:
            await self.writer.append(room.id, events, status=status, seat_updates=seat_updates)
        except Stale:
            await self._catch_up(room)
            raise Refused("stale", "another move was made first: look again and retry") from None
        except Exception as exc:
            log.warning("room %s: not written: %s", room.id, line_of(exc))
            raise Refused("unavailable", "the database did not take it: try again") from None
        self._apply(room, events)
        return events[0]["v"]

    async def _catch_up(self, room: Room) -> None:
        try:
            events = await asyncio.to_thread(self.log.events, room.id, room.state.version)
        except Exception as exc:
            log.warning("room %s: not read: %s", room.id, line_of(exc))
            return
        self._apply(room, events)

    def _apply(self, room: Room, events: list[Event]) -> None:
        """Apply committed events (those the room has already: skipped) and send each to
        every socket of the room, as its own message with the turn's deadline."""
        state = room.state
        now = time.time()
        joined = False
        for event in events:
            if event["v"] <= state.version:
                continue
            try:
                state.apply(event)
            except (ValueError, KeyError, IndexError, TypeError) as exc:
                log.warning("room %s: event %s not applied: %s", room.id, event.get("v"), exc)
                break
            text = encode(sent(state, event))
            room.recent.append((event["v"], text))
            for client in list(room.clients):
                client.send_text(text)
            seat = event.get("seat")
            if event["type"] == "joined" and seat not in room.online():
                room.absent_since[seat] = now
                joined = True
        room.last_commit = now
        if joined:  # the newcomer is away until their socket says hello: the room sees it
            self._presence(room)
        self._schedule(room)

    def seen_elsewhere(self, room: Room, before: list[int]) -> None:
        """Who is online in ``room`` changed on another server: a seat now held by no
        server is absent from now, one held again is not; the room is told."""
        now, online = time.time(), room.online()
        for seat in set(before) - set(online):
            room.absent_since.setdefault(seat, now)
        for seat in online:
            room.absent_since.pop(seat, None)
        self._presence(room)
        self._schedule(room)

    def _presence(self, room: Room) -> None:
        online = room.online()
        absent = {s: t for s, t in room.absent_since.items() if s not in online}
        text = encode(presence(room.state.version, online, absent, self.grace))
        for client in list(room.clients):
            client.send_text(text)

    # -- turns without a message -------------------------------------------------------------

    def _schedule(self, room: Room) -> None:
        """(Re)start the room's timer after anything that may change what falls due."""
        if not self.running:
            return
        if room.timer is not None and (room.acting or room.timer is asyncio.current_task()):
            return  # the timer is playing a turn: its loop looks again after it
        if room.timer is not None:
            room.timer.cancel()
            room.timer = None
        if room.due(self.bot_delay, self.grace) is not None:
            room.timer = asyncio.create_task(self._run_timer(room))

    async def _run_timer(self, room: Room) -> None:
        try:
            while self.running:
                due = room.due(self.bot_delay, self.grace)
                if due is None:
                    return
                wait = due[0] - time.time()
                if wait > 0:
                    await asyncio.sleep(wait)
                    continue
                async with room.lock:
                    due = room.due(self.bot_delay, self.grace)
                    if due is None or due[0] > time.time():
                        continue
                    room.acting = True
                    try:
                        done = await self._act(room, due[1])
                    finally:
                        room.acting = False
                if not done:
                    await asyncio.sleep(RETRY)
        finally:
            if room.timer is asyncio.current_task():
                room.timer = None

    async def _act(self, room: Room, what: str) -> bool:
        """Play the turn that fell due (under the room's lock); whether it was played."""
        state, judge = room.state, room.judge
        seat = state.round.turn if state.round is not None else -1
        version = state.version
        try:
            if what == "timeout":
                message = {"op": "timeout"}
                events = await ruling(decide, state, seat, message, judge, time.time())
            else:
                events = await asyncio.to_thread(computer_turn, state, seat, judge)
                if what == "stand_in":
                    events = [
                        {**e, "auto": True} if e["type"] in OWN_ACTS and e.get("seat") == seat
                        else e
                        for e in events
                    ]  # fmt: skip
            await self.commit(room, events)
        except Refused as exc:
            if exc.code == "stale":  # read the room again: the timer looks at the new state
                return room.state.version != version
            log.warning("room %s: %s turn refused: %s", room.id, what, exc)
            return False
        except Exception as exc:
            log.warning("room %s: %s turn failed: %s", room.id, what, line_of(exc))
            return False
        return True


__all__ = ["Hub"]
