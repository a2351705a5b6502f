"""Who is connected where, when several servers share the rooms (PostgreSQL).

A person's socket is held by one server; the others would take them for absent and,
after the grace period, play their turns for them.  So each server tells the others
which seats of each room it holds a socket of: on the channel ``ghostdb_presence``
(``NOTIFY``, like the commits in `ghostdb.web.rooms.relay`), at once when a seat comes
or goes, and every `HEARTBEAT` seconds for every room it holds a seat of.  What a server
heard holds for `EXPIRES` seconds without a word: a server that died stops holding its
seats then, and the computer plays for them after the grace period, as for anyone gone.

Presence is not kept in the database: it is how things are now, not what happened.  An
announcement is ``server|room:seat,seat|room:|…``: for each room, the seats that server
holds now (none: it holds none any more), never longer than PostgreSQL's payloads.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from ghostdb.store.rooms.announcements import MAX_ANNOUNCEMENT
from ghostdb.web.rooms.limits import ROOM_ID

if TYPE_CHECKING:
    from ghostdb.web.rooms.room import Room

CHANNEL = "ghostdb_presence"
"""The PostgreSQL channel of the servers' presence announcements."""
HEARTBEAT = 10.0
"""Seconds between a server's announcements of every seat it holds."""
EXPIRES = 3 * HEARTBEAT
"""Seconds another server's word holds without being said again."""

Seats = dict[str, frozenset[int]]
"""Seats held, by room id."""


def new_server_id() -> str:
    """This server's name in announcements (random: a restarted server is another)."""
    return secrets.token_hex(6)


def announcements(server: str, rooms: Iterable[tuple[str, Iterable[int]]]) -> list[str]:
    """The payloads that say, for each room, which seats ``server`` holds, each within
    `MAX_ANNOUNCEMENT` bytes (room ids and seat numbers are ASCII)."""
    found: list[str] = []
    current = server
    for room_id, seats in rooms:
        part = f"|{room_id}:{','.join(str(s) for s in sorted(seats))}"
        if len(current) + len(part) > MAX_ANNOUNCEMENT and current != server:
            found.append(current)
            current = server
        current += part
    if current != server:
        found.append(current)
    return found


def heard(payload: str) -> tuple[str, Seats] | None:
    """An announcement read back: (the server, the seats it holds by room), or None for
    a payload that is not one; a part that is not a room and seats is left out."""
    server, _, rest = payload.partition("|")
    if not server or not rest:
        return None
    found: Seats = {}
    for part in rest.split("|"):
        room_id, _, seats = part.partition(":")
        numbers = seats.split(",") if seats else []
        if ROOM_ID.match(room_id) and all(n.isdigit() and len(n) < 3 for n in numbers):
            found[room_id] = frozenset(int(n) for n in numbers)
    return server, found


class Presence:
    """This server's side of presence: what it tells the others, and what it hears."""

    def __init__(self) -> None:
        self.server = new_server_id()
        self._send: Callable[[Sequence[str]], None] | None = None
        self._rooms: Callable[[], Mapping[str, Room]] = dict
        self._changed: Callable[[Room, list[int]], None] = lambda room, before: None
        self._beat: asyncio.Task[None] | None = None

    def start(
        self,
        send: Callable[[Sequence[str]], None],
        rooms: Callable[[], Mapping[str, Room]],
        changed: Callable[[Room, list[int]], None],
    ) -> None:
        """Tell through ``send`` (run in a thread), keep the rooms of ``rooms`` informed,
        and call ``changed(room, online_before)`` when who is online there changed."""
        self._send, self._rooms, self._changed = send, rooms, changed
        self._beat = asyncio.create_task(self._heartbeat())

    def stop(self) -> None:
        if self._beat is not None:
            self._beat.cancel()
        self._send = None

    def tell(self, room: Room) -> None:
        """Say which seats of ``room`` this server holds now (a socket came or went)."""
        self._post(announcements(self.server, [(room.id, room.here())]))

    def hear(self, payload: str) -> None:
        """Another server's announcement: note it in each room held here."""
        found = heard(payload)
        if found is None or found[0] == self.server:
            return
        server, seats = found
        rooms, until = self._rooms(), time.time() + EXPIRES
        for room_id, held in seats.items():
            room = rooms.get(room_id)
            if room is None:
                continue  # read from its log later: the next heartbeat tells it
            before = room.online()
            if held:
                room.elsewhere[server] = (held, until)
            else:
                room.elsewhere.pop(server, None)
            if room.online() != before:
                self._changed(room, before)

    def _post(self, payloads: list[str]) -> None:
        if self._send is None or not payloads:
            return
        task = asyncio.ensure_future(asyncio.to_thread(self._send, payloads))
        task.add_done_callback(_ignored)

    def forget_silent(self, now: float | None = None) -> None:
        """Drop what servers said and have not said again within `EXPIRES` (a server
        stopped or cut off): their seats are absent from then on."""
        now = time.time() if now is None else now
        for room in list(self._rooms().values()):
            gone = [server for server, (_, until) in room.elsewhere.items() if until <= now]
            if not gone:
                continue
            before = set(room.online())
            for server in gone:
                before |= room.elsewhere.pop(server)[0]
            if room.online() != sorted(before):
                self._changed(room, sorted(before))

    async def _heartbeat(self) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT)
            rooms = list(self._rooms().values())
            self._post(announcements(self.server, [(r.id, r.here()) for r in rooms if r.here()]))
            self.forget_silent()


def _ignored(task: asyncio.Future[None]) -> None:
    """An announcement that could not be sent (the database away): the heartbeat says
    it again."""
    if not task.cancelled():
        task.exception()


__all__ = [
    "CHANNEL",
    "EXPIRES",
    "HEARTBEAT",
    "Presence",
    "announcements",
    "heard",
    "new_server_id",
]
