"""Rooms shared by two `ghostdb serve` processes on one PostgreSQL database: players on
different servers play one match (each commit announced with NOTIFY, relayed by the other
server to its sockets), and a server whose listening connection is killed
(``pg_terminate_backend``) connects again and resynchronises its rooms from the log.

Needs a PostgreSQL server: GHOSTDB_TEST_POSTGRES_URL, as for tests/test_postgres.py."""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Iterator

import pytest
from conftest import OWN_WORDLISTS, POSTGRES_SKIP, reset_postgres
from test_room_server import Player, Server, act

from ghostdb import open_store
from ghostdb.web.rooms.relay import APP

URL = os.environ.get("GHOSTDB_TEST_POSTGRES_URL")
pytestmark = pytest.mark.skipif(
    not URL,
    reason=POSTGRES_SKIP,
)


@pytest.fixture
def servers() -> Iterator[tuple[Server, Server]]:
    assert URL is not None
    reset_postgres(URL)
    with open_store(URL, create=True) as store:
        store.ingest(OWN_WORDLISTS / "five.txt")
        store.solve("five")
    pair = (Server(URL), Server(URL))  # type: ignore[arg-type]
    for server in pair:
        server.start()
    try:
        yield pair
    finally:
        for server in pair:
            server.sockets.close()
            server.stop()
    for server in pair:
        assert not any("Traceback" in err for err in server.errors), server.errors


def listeners() -> list[int]:
    """The backends of the servers' relays (each LISTENs on the rooms' channel)."""
    import psycopg
    from sqlalchemy.engine import make_url

    assert URL is not None
    info = make_url(URL).set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(info, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT pid FROM pg_stat_activity WHERE application_name = %s "
            "AND datname = current_database()",  # another test worker has its own
            (APP,),
        ).fetchall()
    return [row[0] for row in rows]


def kill_listeners() -> int:
    import psycopg
    from sqlalchemy.engine import make_url

    assert URL is not None
    info = make_url(URL).set(drivername="postgresql").render_as_string(hide_password=False)
    pids = listeners()
    with psycopg.connect(info, autocommit=True) as conn:
        for pid in pids:
            conn.execute("SELECT pg_terminate_backend(%s)", (pid,))
    return len(pids)


def wait_for(condition, seconds: float = 20.0) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def seat(a: Server, b: Server) -> tuple[str, list[Player]]:
    """A room of three made on ``a``: Ann and Cy play through ``a``, Bob through ``b``."""
    made = a.post(
        "/api/rooms",
        {"name": "five", "seats": ["human"] * 3, "lives": 1, "clock": None, "player": "Ann"},
    )
    room = made["room"]
    bob = b.post(f"/api/rooms/{room}/join", {"name": "Bob"})
    cy = a.post(f"/api/rooms/{room}/join", {"name": "Cy"})
    v = a.get(f"/api/rooms/{room}")["v"]
    # Bob's server hears of Cy's joining through the relay: a client that knows more
    # than its server is sent the whole state, which `Player` takes for a fault.
    wait_for(lambda: b.get(f"/api/rooms/{room}")["v"] == v)
    return room, [
        Player(a, room, made["token"], v),
        Player(b, room, bob["token"], v),
        Player(a, room, cy["token"], v),
    ]


def test_players_on_two_servers_play_one_match(servers: tuple[Server, Server]) -> None:
    a, b = servers
    wait_for(lambda: len(listeners()) == 2)
    room, players = seat(a, b)
    # g (Ann), h (Bob, through the other server), o (Cy), s (Ann), t (Bob): Bob completes
    # "ghost" and is out; every event reaches every socket on both servers, in order.
    for number, letter in enumerate("ghost"):
        act(players, number % 3, "move", move=letter)
    assert players[0].events[-1]["type"] == "round"
    starter = players[0].events[-1]["starter"]
    assert starter == 2  # Bob is out: the next player still in starts
    act(players, starter, "concede")
    over = players[1].events[-1]
    assert over["type"] == "match_over" and over["winners"] == [0]
    for player in players:
        versions = [e["v"] for e in player.events]
        assert versions == list(range(versions[0], versions[0] + len(versions)))
    # Both servers' state agree with the log.
    assert a.get(f"/api/rooms/{room}") | {"online": None} == b.get(f"/api/rooms/{room}") | {
        "online": None
    }


def test_a_killed_listener_resynchronises(servers: tuple[Server, Server]) -> None:
    a, b = servers
    wait_for(lambda: len(listeners()) == 2)
    room, players = seat(a, b)
    act(players, 0, "move", move="t")
    assert kill_listeners() == 2
    # Ann moves on server a while the relays are down: Bob, on server b, still gets the
    # move once the relay is back (read from the log, not from the lost announcement).
    players[1].ws.send(json.dumps({"op": "move", "move": "a", "id": "bob-1"}))
    sent = [players[1].read() for _ in range(2)]
    assert [m["type"] for m in sent] == ["moved", "ack"]
    got = players[0].read()
    assert (got["type"], got["move"], got["v"]) == ("moved", "a", sent[0]["v"])
    wait_for(lambda: len(listeners()) == 2)
    players[2].ws.send(json.dumps({"op": "move", "move": "n", "id": "cy-1"}))
    # "tan" is a word: Cy loses the round; Bob, on the other server, sees it all.
    events = []
    while not events or events[-1]["type"] != "round":
        events.append(players[1].read())
    assert [e["type"] for e in events] == ["moved", "round_over", "round"]
    assert events[1]["losers"] == [2]
    assert room


def race(a: Player, b: Player, letters: str) -> list[dict[str, object]]:
    """``a`` and ``b`` (one seat, on two servers) each send a move at the same moment;
    each socket's answer to its own move (its ack, or the error refusing it)."""
    start = threading.Barrier(2)

    def send(player: Player, letter: str) -> None:
        start.wait()
        player.ws.send(json.dumps({"op": "move", "id": f"race-{letter}", "move": letter}))

    threads = [threading.Thread(target=send, args=p) for p in ((a, letters[0]), (b, letters[1]))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    answers = []
    for player in (a, b):
        while (message := player.read())["type"] not in ("ack", "error"):
            pass
        answers.append(message)
    return answers


def test_one_seat_moving_on_both_servers_at_once_makes_one_move(
    servers: tuple[Server, Server],
) -> None:
    """Ann, at her turn, sends a move through each server at once: the log takes one (its
    append is conditional on the room's version), the other is refused — ``stale`` when
    both reached the database before either heard of the other, ``not_your_turn`` when
    the relay was quicker — and every socket on both servers sees the one move."""
    a, b = servers
    wait_for(lambda: len(listeners()) == 2)
    codes = []
    for _attempt in range(10):
        room, players = seat(a, b)
        twin = Player(b, room, players[0].token, players[0].since)
        answers = race(players[0], twin, "gt")
        kinds = sorted(str(m["type"]) for m in answers)
        assert kinds == ["ack", "error"], answers
        refusal = next(m for m in answers if m["type"] == "error")
        assert refusal["code"] in ("stale", "not_your_turn"), refusal
        codes.append(refusal["code"])
        # One move in the log, the same on both servers and at every socket.
        state_a, state_b = (s.get(f"/api/rooms/{room}") for s in (a, b))
        assert state_a | {"online": None} == state_b | {"online": None}
        assert [m["move"] for m in state_a["round"]["moves"]] in (["g"], ["t"]), state_a
        for player in (*players, twin):
            while not any(e.get("type") == "moved" for e in player.events):
                player.read()
            assert [e["move"] for e in player.events if e.get("type") == "moved"] in (["g"], ["t"])
    assert "stale" in codes, codes  # the race was run for real at least once
