"""Presence across servers (`ghostdb.web.rooms.presence`): each server tells the others
which seats it holds a socket of, so that none plays for a person connected elsewhere;
what a server stops saying expires.  The two-server case needs PostgreSQL."""

from __future__ import annotations

import asyncio
import os
import time
from typing import Any

import pytest
from conftest import OWN_WORDLISTS, POSTGRES_SKIP, reset_postgres

from ghostdb import open_store
from ghostdb.play.rooms.state import RoomState
from ghostdb.store.rooms.announcements import MAX_ANNOUNCEMENT
from ghostdb.web.rooms import Hub
from ghostdb.web.rooms.presence import EXPIRES, Presence, announcements, heard
from ghostdb.web.rooms.room import Room
from ghostdb.web.rooms.wire import Client

URL = os.environ.get("GHOSTDB_TEST_POSTGRES_URL")
ROOM_A, ROOM_B = "A" * 22, "B" * 22


def test_announcements_say_each_rooms_seats_within_a_payload() -> None:
    rooms = [(f"{i:022d}", [2, 0]) for i in range(1000)]
    said = announcements("srv1", rooms)
    assert len(said) > 1 and all(len(p) <= MAX_ANNOUNCEMENT for p in said)
    back: dict[str, frozenset[int]] = {}
    for payload in said:
        found = heard(payload)
        assert found is not None and found[0] == "srv1"
        back.update(found[1])
    assert back == {r: frozenset({0, 2}) for r, _ in rooms}
    assert heard(announcements("srv1", [(ROOM_A, [])])[0]) == ("srv1", {ROOM_A: frozenset()})
    assert announcements("srv1", []) == []


@pytest.mark.parametrize(
    "junk", ["", "srv1", "|AAAA:1", "srv1|", "srv1|bad room:1", "srv1|" + ROOM_A + ":x,1"]
)
def test_a_payload_that_is_not_an_announcement_says_nothing(junk: str) -> None:
    found = heard(junk)
    assert found is None or found[1] == {}


def room(room_id: str) -> Room:
    return Room(RoomState(room_id), judge=None)  # type: ignore[arg-type]


def test_what_another_server_says_is_online_until_it_stops_saying_it() -> None:
    rooms = {ROOM_A: room(ROOM_A), ROOM_B: room(ROOM_B)}
    changes: list[tuple[str, list[int], list[int]]] = []
    presence = Presence()
    presence._rooms = lambda: rooms
    presence._changed = lambda r, before: changes.append((r.id, before, r.online()))
    presence.hear(announcements(presence.server, [(ROOM_A, [0])])[0])  # its own: ignored
    assert rooms[ROOM_A].online() == [] and changes == []
    presence.hear(announcements("other", [(ROOM_A, [1]), ("C" * 22, [0])])[0])
    assert rooms[ROOM_A].online() == [1]
    assert changes == [(ROOM_A, [], [1])]
    presence.hear(announcements("other", [(ROOM_A, [1])])[0])  # said again: no change
    assert len(changes) == 1
    presence.hear(announcements("third", [(ROOM_A, [2])])[0])
    presence.hear(announcements("other", [(ROOM_A, [])])[0])  # seat 1 left that server
    assert rooms[ROOM_A].online() == [2] and changes[-1] == (ROOM_A, [1, 2], [2])
    presence.forget_silent(time.time() + EXPIRES + 1)  # "third" said nothing since
    assert rooms[ROOM_A].online() == [] and changes[-1] == (ROOM_A, [2], [])
    assert rooms[ROOM_A].elsewhere == {}


@pytest.mark.skipif(not URL, reason=POSTGRES_SKIP)
def test_a_person_on_one_server_is_not_played_for_by_the_other() -> None:
    """Two servers (hubs) on one PostgreSQL database, a short grace: Ann's socket is on
    the first, Bob's on the second.  Neither server takes the other's person for absent,
    so nobody's turn is played by the computer; once Bob's socket goes, both know."""
    assert URL is not None
    reset_postgres(URL)
    with open_store(URL, create=True) as store:
        store.ingest(OWN_WORDLISTS / "five.txt")
        store.solve("five")
    with open_store(URL) as one, open_store(URL) as two:
        asyncio.run(_two_servers(Hub(one, grace=0.4, bot_delay=0.05),
                                 Hub(two, grace=0.4, bot_delay=0.05)))  # fmt: skip


async def _until(condition: Any, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "not within the time"
        await asyncio.sleep(0.02)


async def _two_servers(a: Hub, b: Hub) -> None:
    await a.start()
    await b.start()
    try:
        for hub in (a, b):
            await asyncio.to_thread(hub.relay.listening.wait, 10)  # type: ignore[union-attr]
        made = await a.create(
            "five", None, ["human", "human"], lives=5, clock=None, player="Ann", address="t"
        )
        room_a = await a.room(made["room"])
        room_b = await b.room(made["room"])
        assert room_a is not None and room_b is not None
        bob = await b.join(room_b, "Bob")
        ann_socket, bob_socket = Client("t"), Client("t")
        await a.hello(room_a, ann_socket, made["token"], None)
        await b.hello(room_b, bob_socket, bob["token"], None)
        await _until(lambda: room_a.online() == [0, 1] and room_b.online() == [0, 1])
        await _until(lambda: room_a.state.round is not None and room_b.state.round is not None)
        await asyncio.sleep(1.5)  # past the grace three times over: nobody stands in
        events = await asyncio.to_thread(a.log.events, made["room"])
        assert not any(e.get("auto") for e in events), [e for e in events if e.get("auto")]
        assert room_a.absent_since == {} and room_b.absent_since == {}
        b.leave(room_b, bob_socket)  # Bob goes: the first server hears it
        await _until(lambda: 1 in room_a.absent_since and room_a.online() == [0])
    finally:
        await a.stop()
        await b.stop()
