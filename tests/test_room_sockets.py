"""Rooms over the web (`ghostdb.web.rooms`): the HTTP routes and the WebSocket protocol,
through Starlette's test client over a fresh copy of five.txt's database each test.

A whole match of three people, every refusal code, reconnection with ``since``, repeated
message ids, the Origin check, computer seats, stand-ins, the clock, a restart over the
same file, two servers racing, and a fuzz of the socket."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from itertools import cycle
from pathlib import Path
from typing import Any

import anyio
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import WebSocketDenialResponse
from starlette.websockets import WebSocketDisconnect

from ghostdb import open_store
from ghostdb.play.rooms.state import RoomState
from ghostdb.web import create_app
from ghostdb.web.rooms import Hub
from ghostdb.web.rooms.limits import GRACE, MAX_FRAME

WORDS = ("ghost", "green", "tan", "tree", "tries")  # tests/../wordlists/five.txt
LETTERS = "aeghinorst"
NO_ROOM = "AAAAAAAAAAAAAAAAAAAAAA"


# -- the server, its sockets, and the test's own fold of the room -------------------------------


@pytest.fixture
def db(rooms_db: Path) -> Path:
    return rooms_db


def hub_of(app: Any) -> Hub:
    """The `Hub` of an app made by `create_app` (under the conventions and fast lane)."""
    while not isinstance(app, FastAPI):
        app = app.app
    return app.state.hub


@contextmanager
def served(
    db: Path, *, cors: tuple[str, ...] = (), bot_delay: float = 0.0, grace: float = GRACE
) -> Iterator[tuple[TestClient, Hub]]:
    """The app over ``db`` opened read-only, as ``ghostdb serve`` opens it."""
    with open_store(str(db), create=False, readonly=True) as store:
        app = create_app(store, cors)
        hub = hub_of(app)
        hub.bot_delay, hub.grace = bot_delay, grace
        with TestClient(app) as client:
            OPEN[client] = []
            try:
                yield client, hub
            finally:  # a failed test's sockets too: the client waits for every one
                while OPEN[client]:
                    OPEN[client][-1].close()
                del OPEN[client]


OPEN: dict[TestClient, list[Socket]] = {}
"""Each client's sockets not closed yet (`served` closes them all)."""


class Socket:
    """One WebSocket of the test client, read with a timeout."""

    def __init__(self, client: TestClient, room: str, headers: dict[str, str] | None = None):
        self.cm = client.websocket_connect(f"/api/rooms/{room}/socket", headers=headers or {})
        self.ws = self.cm.__enter__()
        self.open = True
        self.opened = OPEN[client]
        self.opened.append(self)

    def send(self, **message: Any) -> None:
        self.ws.send_json(message)

    def raw(self, text: str) -> None:
        self.ws.send_text(text)

    def recv(self, timeout: float = 10.0) -> dict[str, Any]:
        """The next message (WebSocketDisconnect when the server closed the socket)."""

        async def within() -> Any:
            with anyio.fail_after(timeout):
                return await self.ws._send_rx.receive()

        message = self.ws.portal.call(within)
        self.ws._raise_on_close(message)
        return json.loads(message["text"])

    def next(self, timeout: float = 10.0) -> dict[str, Any]:
        """The next message that is not a presence notice."""
        while True:
            message = self.recv(timeout)
            if message["type"] != "presence":
                return message

    def quiet(self, within: float = 0.3) -> None:
        """Nothing but presence arrives for ``within`` seconds."""
        with pytest.raises(TimeoutError):
            self.next(within)

    def hello(self, token: str | None = None, since: int | None = None) -> dict[str, Any]:
        message: dict[str, Any] = {"op": "hello"}
        if token is not None:
            message["token"] = token
        if since is not None:
            message["since"] = since
        self.send(**message)
        welcome = self.next()
        assert welcome["type"] == "welcome", welcome
        return welcome

    def close(self) -> None:
        if self.open:
            self.open = False
            self.opened.remove(self)
            with contextlib.suppress(BaseException):  # a socket the server closed already
                self.cm.__exit__(None, None, None)


def settle(done: Any, within: float = 5.0) -> None:
    """Wait for ``done()`` (what the server does once a socket has gone)."""
    deadline = time.monotonic() + within
    while not done():
        assert time.monotonic() < deadline, "the server did not settle"
        time.sleep(0.02)


def make_room(client: TestClient, seats: list[str], player: str | None = "Ann", **extra: Any):
    body = {"name": "five", "seats": seats, "player": player, "clock": None, **extra}
    response = client.post("/api/rooms", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def join(client: TestClient, room: str, name: str) -> dict[str, Any]:
    response = client.post(f"/api/rooms/{room}/join", json={"name": name})
    assert response.status_code == 200, response.text
    return response.json()


def fold(client: TestClient, room: str) -> RoomState:
    """The room as the test's own client folds it from the record."""
    record = client.get(f"/api/rooms/{room}/record").json()
    return RoomState.replay(room, record["events"])


def stored(message: dict[str, Any]) -> dict[str, Any]:
    """An event as the log keeps it (the deadline is sent, not stored)."""
    return {k: v for k, v in message.items() if k != "deadline"}


class Table:
    """Three (or two) people at one room: their sockets, and the test's fold of it."""

    def __init__(self, client: TestClient, room: str, tokens: dict[int, str]) -> None:
        self.client, self.room, self.tokens = client, room, tokens
        self.state = fold(client, room)
        self.sockets: dict[int, Socket] = {}
        self.heard: dict[int, list[dict[str, Any]]] = {seat: [] for seat in tokens}
        self.count = 0
        for seat in tokens:
            self.connect(seat, since=self.state.version)

    def connect(self, seat: int, since: int) -> dict[str, Any]:
        self.sockets[seat] = Socket(self.client, self.room)
        return self.sockets[seat].hello(self.tokens[seat], since)

    def act(self, seat: int, op: str, **fields: Any) -> list[dict[str, Any]]:
        """``seat`` sends ``op``: its events come to every socket, then the sender's ack."""
        self.count += 1
        ref = f"m{self.count}"
        self.sockets[seat].send(op=op, id=ref, **fields)
        events = []
        while (message := self.sockets[seat].next())["type"] != "ack":
            assert message["type"] not in ("error", "welcome"), message
            events.append(message)
        assert message == {"type": "ack", "v": self.state.version + 1, "id": ref}
        for other, socket in self.sockets.items():
            if other != seat:
                assert [socket.next() for _ in events] == events
        for seat_, _ in self.sockets.items():
            self.heard[seat_] += events
        for event in events:
            self.state.apply(stored(event))
        return events

    def turn(self) -> int:
        assert self.state.round is not None
        return self.state.round.turn

    def close(self) -> None:
        for socket in self.sockets.values():
            socket.close()


def play_until(table: Table, seat: int, letters: str, least: int = 0) -> None:
    """Play ``letters`` in turn until it is ``seat``'s turn with ``least`` moves made."""
    for letter in letters:
        rnd = table.state.round
        assert rnd is not None
        if rnd.turn == seat and len(rnd.moves) >= least:
            return
        table.act(rnd.turn, "move", move=letter)
    assert table.turn() == seat


def lose_round(table: Table, loser: int, how: str) -> dict[str, Any]:
    """Make ``loser`` lose the round in play, ``how``: completing a word, challenging a
    real fragment, bluffing and being caught, or conceding; the round's end."""
    rnd = table.state.round
    assert rnd is not None
    order = list(rnd.seats)
    if how == "word":
        # The seat that plays a word's last letter loses: pick the word that lands there.
        word = next(w for w in WORDS if order[(len(w) - 1) % len(order)] == loser)
        events = [e for letter in word for e in table.act(table.turn(), "move", move=letter)]
    elif how == "challenge":
        play_until(table, loser, "ghost", least=1)
        table.act(loser, "challenge")
        events = table.act(table.turn(), "word", word="ghost")  # a word: the challenger loses
    elif how == "bluff":
        play_until(table, loser, "tr")
        here = table.state.round.position
        bluff = next(c for c in LETTERS if not any(w.startswith(here + c) for w in WORDS))
        table.act(loser, "move", move=bluff)
        table.act(table.turn(), "challenge")
        events = table.act(loser, "word", word="tail")  # no word of five.txt: the bluffer loses
    else:
        play_until(table, loser, "gh")
        events = table.act(loser, "concede")
    over = next(e for e in events if e["type"] == "round_over")
    assert over["losers"] == [loser], (how, over)
    return over


# -- a whole match -------------------------------------------------------------------------------


def test_three_people_play_a_whole_match(db: Path) -> None:
    """Ann, Bob and Cy play Ghost to the end: words, challenges, bluffs, concessions;
    Bob drops mid-round and gets exactly what he missed; two spell GHOST, Ann wins."""
    with served(db) as (client, hub):
        made = make_room(client, ["human", "human", "human"])
        room, tokens = made["room"], {0: made["token"]}
        assert made["seat"] == 0 and made["url"] == f"/rooms/{room}"
        tokens[1] = join(client, room, "Bob")["token"]
        tokens[2] = join(client, room, "Cy")["token"]
        view = client.get(f"/api/rooms/{room}").json()
        assert view["status"] == "playing" and [s["name"] for s in view["seats"]] == [
            "Ann",
            "Bob",
            "Cy",
        ]
        table = Table(client, room, tokens)
        try:
            hows = cycle(["word", "challenge", "bluff", "concede"])
            seen_reasons = set()
            rounds = 0
            while table.state.status == "playing":
                rounds += 1
                if rounds == 4:
                    reconnect_mid_round(table)
                    continue
                alive = [s for s in (1, 2) if s in table.state.round.seats]
                loser = min(alive, key=lambda s: (table.state.seats[s].letters, s))
                seen_reasons.add(lose_round(table, loser, next(hows))["reason"])
            assert seen_reasons == {"word", "challenge", "conceded"}
            assert table.state.winners == (0,)
            letters = [s.letters for s in table.state.seats]
            assert letters[1] == letters[2] == 5 and letters[0] <= 1
            assert hub.rooms[room].state.as_dict() == table.state.as_dict()
            # After the match: an error, and nothing changes.
            version = table.state.version
            table.sockets[0].send(op="move", move="g", id="late")
            late = table.sockets[0].next()
            assert (late["type"], late["code"], late["id"]) == ("error", "over", "late")
            assert client.get(f"/api/rooms/{room}").json()["v"] == version
        finally:
            table.close()
        record = client.get(f"/api/rooms/{room}/record")
        assert record.headers["content-disposition"].startswith("attachment;")
        events = record.json()["events"]
        assert [e["v"] for e in events] == list(range(1, len(events) + 1))
        assert events[-1]["type"] == "match_over" and events[-1]["winners"] == [0]
        assert len(record.json()["rounds"]) == len(table.state.rounds)


def reconnect_mid_round(table: Table) -> None:
    """Bob moves, drops, the others play on; back with ``since``, he is sent each event
    he missed once, in order, and nothing else; then he plays on."""
    play_until(table, 1, "gh")
    table.act(1, "move", move="ghost"[len(table.state.round.position)])
    bob = table.sockets.pop(1)
    last_seen = table.state.version
    bob.close()
    missed = []
    while table.state.status == "playing" and table.turn() != 1:
        position = table.state.round.position
        letter = "ghost"[len(position)] if "ghost".startswith(position) else "g"
        missed += table.act(table.turn(), "move", move=letter)
    assert missed
    welcome = table.connect(1, since=last_seen)
    assert "state" not in welcome and welcome["v"] == last_seen + len(missed)
    again = [table.sockets[1].next() for _ in missed]
    assert again == missed
    table.sockets[1].quiet()
    table.act(1, "concede")  # and the round ends as the script's rounds do, Bob losing
    # A client that asks from nothing gets the whole state instead of events.
    watcher = Socket(table.client, table.room)
    whole = watcher.hello(since=0)
    assert whole["state"]["v"] == table.state.version and whole["seat"] is None
    watcher.close()


def test_a_repeated_id_is_answered_with_its_first_ack_and_changes_nothing(db: Path) -> None:
    with served(db) as (client, hub):
        made = make_room(client, ["human", "human"])
        room = made["room"]
        bob = join(client, room, "Bob")
        ann, other = Socket(client, room), Socket(client, room)
        ann.hello(made["token"], since=bob["v"])
        other.hello(bob["token"], since=bob["v"])
        ann.send(op="move", move="t", id=7)
        moved = ann.next()
        first = ann.next()
        assert moved["type"] == "moved" and first == {"type": "ack", "v": moved["v"], "id": 7}
        assert other.next() == moved
        version = hub.rooms[room].state.version
        for _ in range(3):
            ann.send(op="move", move="a", id=7)  # a different move, the same id
            assert ann.next() == first
        assert hub.rooms[room].state.version == version
        other.quiet()
        ann.send(op="move", move="a", id="7")  # another id (a text, not the number)
        assert ann.next()["code"] == "not_your_turn"
        ann.close()
        other.close()


# -- every refusal -------------------------------------------------------------------------------


@pytest.fixture
def duel(db: Path) -> Iterator[tuple[TestClient, Hub, str, dict[int, str]]]:
    """A room of Ann and Bob, started, nobody connected."""
    with served(db) as (client, hub):
        made = make_room(client, ["human", "human"])
        bob = join(client, made["room"], "Bob")
        yield client, hub, made["room"], {0: made["token"], 1: bob["token"]}


def refused(socket: Socket, code: str) -> dict[str, Any]:
    message = socket.next()
    assert message["type"] == "error" and message["code"] == code, message
    assert message["message"] and "\n" not in message["message"]
    return message


def test_each_refusal_has_its_code_and_changes_nothing(duel: Any) -> None:
    client, hub, room, tokens = duel
    version = hub.rooms[room].state.version
    ann = Socket(client, room)
    ann.send(op="move", move="g", id="early")
    assert refused(ann, "hello_first")["id"] == "early"
    for text in ("not json", "[1, 2]", '"hello"', "{}", '{"op": 5}', '{"op": "move", "id": [1]}'):
        ann.raw(text)
        refused(ann, "bad_message")
    ann.send(op="dance")
    refused(ann, "unknown_op")
    ann.send(op="timeout")  # the server's own op
    refused(ann, "unknown_op")
    ann.hello(tokens[0], since=version)
    ann.send(op="hello", token=tokens[0])
    refused(ann, "bad_message")
    for bad in ({"move": 5}, {"move": ""}, {"move": "g" * 40}):
        ann.send(op="move", **bad)
        refused(ann, "bad_message")
    ann.send(op="word", word=["ghost"])
    refused(ann, "bad_message")
    ann.send(op="challenge", id="c1")
    assert refused(ann, "illegal_move")["id"] == "c1"  # nothing to challenge yet
    ann.send(op="move", move="7")
    refused(ann, "illegal_move")
    ann.send(op="word", word="ghost")
    refused(ann, "not_challenged")
    bob = Socket(client, room)
    bob.hello(tokens[1], since=version)
    bob.send(op="move", move="g")
    refused(bob, "not_your_turn")
    watcher = Socket(client, room)
    watcher.hello()
    watcher.send(op="concede", id=1)
    refused(watcher, "spectator")
    assert hub.rooms[room].state.version == version
    # Challenged, Ann must answer.
    ann.send(op="move", move="g", id="g")
    assert [ann.next()["type"], ann.next()["type"]] == ["moved", "ack"]
    bob.next()
    bob.send(op="challenge", id="b")
    assert [bob.next()["type"], bob.next()["type"]] == ["challenged", "ack"]
    ann.next()
    ann.send(op="move", move="h")
    refused(ann, "must_answer")
    for socket in (ann, bob, watcher):
        socket.close()


def test_a_bad_token_is_refused_and_the_socket_closed(duel: Any) -> None:
    client, hub, room, _ = duel
    other = make_room(client, ["human", "human"], player="Zed")
    for token in ("not-a-token", other["token"], "x" * 500):
        socket = Socket(client, room)
        socket.send(op="hello", token=token, id="h")
        message = refused(socket, "bad_token")
        assert message["id"] == "h"
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.recv()
        assert closed.value.code == 1008
        socket.close()
    settle(lambda: hub.rooms[room].clients == set())


def test_a_frame_over_4_kib_is_refused_and_the_socket_closed(duel: Any) -> None:
    client, _, room, _ = duel
    for frame in ("x" * (MAX_FRAME + 1), json.dumps({"op": "hello", "token": "é" * 2100})):
        socket = Socket(client, room)
        socket.raw(frame)
        refused(socket, "too_large")
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.recv()
        assert closed.value.code == 1009
        socket.close()
    socket = Socket(client, room)
    socket.raw(json.dumps({"op": "hello", "pad": "x" * (MAX_FRAME - 40)}))  # just under
    assert socket.next()["type"] == "welcome"
    socket.close()


def test_a_flood_is_refused_too_fast_and_at_length_closed(duel: Any) -> None:
    client, hub, room, tokens = duel
    version = hub.rooms[room].state.version
    socket = Socket(client, room)
    socket.hello(tokens[1], since=version)
    for i in range(200):
        socket.send(op="move", move="g", id=i)  # not Bob's turn, and too many
    codes, closed = [], None
    try:
        while True:
            codes.append(socket.next(2)["code"])
    except WebSocketDisconnect as exc:
        closed = exc.code  # a hundred refused for speed in a row: the socket closes
    except TimeoutError:
        assert len(codes) == 200  # the machine was slow enough for the bucket to refill
    assert closed in (None, 1008)
    assert "too_fast" in codes and set(codes) <= {"too_fast", "not_your_turn"}
    assert codes.count("not_your_turn") < 100
    assert hub.rooms[room].state.version == version
    socket.close()


def test_not_started_room_full_and_stale(db: Path) -> None:
    with served(db) as (client, _):
        made = make_room(client, ["human", "human"])
        room = made["room"]
        ann = Socket(client, room)
        assert ann.hello(made["token"])["state"]["status"] == "waiting"
        ann.send(op="move", move="g")
        refused(ann, "not_started")
        bob = join(client, room, "Bob")
        full = client.post(f"/api/rooms/{room}/join", json={"name": "Cy"})
        assert full.status_code == 409 and set(full.json()) == {"error"}
        assert [ann.next()["type"] for _ in range(3)] == ["joined", "started", "round"]
        # A second server over the same file moves first: this one is stale.
        with served(db) as (client2, _):
            ann2 = Socket(client2, room)
            ann2.hello(made["token"], since=bob["v"])
            ann2.send(op="move", move="g", id="there")
            assert ann2.next()["type"] == "moved"
            ann2.close()
        ann.send(op="move", move="t", id="here")
        caught_up = ann.next()
        assert (caught_up["type"], caught_up["move"], caught_up["v"]) == (
            "moved",
            "g",
            bob["v"] + 1,
        )
        assert refused(ann, "stale")["id"] == "here"
        ann.send(op="move", move="t", id="here")
        refused(ann, "not_your_turn")  # it is Bob's turn now, as the log says
        ann.close()
    # Spectators are capped.
    with served(db) as (client, _):
        import ghostdb.web.rooms.hub as hub_module

        watchers = []
        old, hub_module.MAX_SPECTATORS = hub_module.MAX_SPECTATORS, 2
        try:
            for _ in range(2):
                watchers.append(Socket(client, room))
                watchers[-1].hello()
            extra = Socket(client, room)
            extra.send(op="hello")
            refused(extra, "room_full")
            extra.close()
        finally:
            hub_module.MAX_SPECTATORS = old
            for w in watchers:
                w.close()


# -- the handshake and the routes ----------------------------------------------------------------


def test_the_origin_is_checked_at_the_handshake(db: Path) -> None:
    with served(db, cors=("https://friend.example",)) as (client, hub):
        made = make_room(client, ["human", "human"])
        room = made["room"]
        for origin in ("https://evil.example", "http://testserver.evil", "null"):
            with (
                pytest.raises(WebSocketDenialResponse) as denied,
                client.websocket_connect(f"/api/rooms/{room}/socket", headers={"origin": origin}),
            ):
                pass
            assert denied.value.status_code == 403
            posted = client.post(
                "/api/rooms",
                json={"name": "five", "seats": ["human", "optimal"]},
                headers={"origin": origin},
            )
            assert posted.status_code == 403 and set(posted.json()) == {"error"}
        for origin in ("http://testserver", "https://testserver", "https://friend.example", None):
            socket = Socket(client, room, {"origin": origin} if origin else None)
            assert socket.hello()["room"] == room
            socket.close()
        settle(lambda: hub.counts.sockets == {})


def test_an_unknown_room_is_refused_never_made(db: Path) -> None:
    with served(db) as (client, hub):
        rooms = hub.log.count()
        for room in (NO_ROOM, "x" * 40, "bad%20id"):
            with (
                pytest.raises(WebSocketDenialResponse) as denied,
                client.websocket_connect(f"/api/rooms/{room}/socket"),
            ):
                pass
            assert denied.value.status_code in (403, 404)
        assert client.get(f"/api/rooms/{NO_ROOM}").status_code == 404
        assert client.post(f"/api/rooms/{NO_ROOM}/join", json={"name": "Bo"}).status_code == 404
        assert client.get(f"/api/rooms/{NO_ROOM}/record").status_code == 404
        rematch = client.post(f"/api/rooms/{NO_ROOM}/rematch", json={"token": "x"})
        assert rematch.status_code == 404
        assert hub.log.count() == rooms and NO_ROOM not in hub.rooms


@pytest.mark.parametrize(
    "body",
    [
        {"name": "five", "seats": ["human"]},
        {"name": "five", "seats": ["human"] * 9},
        {"name": "five", "seats": ["human", "genius"]},
        {"name": "five", "seats": ["human", "human"], "lives": 4},
        {"name": "five", "seats": ["human", "human"], "clock": 10},
        {"name": "five", "seats": ["human", "human"], "player": ""},
        {"name": "five", "seats": ["human", "human"], "player": "a\nb"},
        {"name": "five", "seats": ["human", "human"], "player": "x" * 41},
        {"name": "five", "seats": ["human", "human"], "extra": 1},
        {"name": "../x", "seats": ["human", "human"]},
    ],
)
def test_a_bad_room_is_refused_422(db: Path, body: dict[str, Any]) -> None:
    with served(db) as (client, _):
        response = client.post("/api/rooms", json=body)
        assert response.status_code == 422, response.text
        assert set(response.json()) == {"error"}


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"name": "nope", "seats": ["human", "human"]}, 404),
        ({"name": "five", "rules": "ghost/6", "seats": ["human", "human"]}, 404),  # not solved
        ({"name": "five", "rules": "chopsticks/5", "seats": ["human", "human"]}, 400),
        ({"name": "tictactoe", "seats": ["human", "human", "human"]}, 400),
    ],
)
def test_a_room_that_cannot_be_played_is_refused(
    db: Path, body: dict[str, Any], status: int
) -> None:
    with served(db) as (client, hub):
        rooms = hub.log.count()
        response = client.post("/api/rooms", json=body)
        assert response.status_code == status, response.text
        assert set(response.json()) == {"error"}
        assert hub.log.count() == rooms


def test_the_routes_are_in_the_schema_and_never_cached(db: Path) -> None:
    with served(db) as (client, _):
        spec = client.get("/openapi.json").json()
        for path in (
            "/api/rooms",
            "/api/rooms/{room_id}",
            "/api/rooms/{room_id}/join",
            "/api/rooms/{room_id}/record",
            "/api/rooms/{room_id}/rematch",
        ):
            assert path in spec["paths"], path
        made = make_room(client, ["human", "human"])
        view = client.get(f"/api/rooms/{made['room']}")
        assert view.headers["cache-control"] == "no-store" and "etag" not in view.headers
        join(client, made["room"], "Bob")
        assert client.get(f"/api/rooms/{made['room']}").json()["status"] == "playing"


def test_too_many_rooms_from_one_address(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import ghostdb.web.rooms.hub as hub_module

    monkeypatch.setattr(hub_module, "MAX_ROOMS_PER_ADDRESS", 2)
    with served(db) as (client, _):
        make_room(client, ["human", "human"])
        make_room(client, ["human", "human"])
        response = client.post("/api/rooms", json={"name": "five", "seats": ["human", "human"]})
        assert response.status_code == 429 and set(response.json()) == {"error"}


# -- the computer ---------------------------------------------------------------------------------


def test_a_computer_seat_answers(db: Path) -> None:
    with served(db) as (client, _):
        made = make_room(client, ["human", "optimal"])
        ann = Socket(client, made["room"])
        welcome = ann.hello(made["token"])
        assert welcome["state"]["status"] == "playing"
        ann.send(op="move", move="t", id=1)
        assert ann.next()["type"] == "moved" and ann.next()["type"] == "ack"
        reply = ann.next()
        assert reply["seat"] == 1 and reply["type"] in ("moved", "challenged"), reply
        ann.close()


def test_computers_alone_play_a_match_to_its_end(db: Path) -> None:
    with served(db) as (client, hub):
        made = make_room(client, ["optimal", "random", "trap"], player=None)
        assert made["seat"] is None and made["token"] is None
        watcher = Socket(client, made["room"])
        watcher.hello()
        while (message := watcher.next(20))["type"] != "match_over":
            assert message["type"] != "error"
        assert len(message["winners"]) == 1
        assert hub.log.room(made["room"]).status == "over"
        watcher.close()


def test_an_absent_person_is_played_for_after_the_grace(db: Path) -> None:
    with served(db, grace=0.3) as (client, hub):
        made = make_room(client, ["human", "human"])
        ann = Socket(client, made["room"])
        ann.hello(made["token"])  # here before the match starts: nobody plays for her
        join(client, made["room"], "Bob")  # Bob never connects
        assert [ann.next()["type"] for _ in range(3)] == ["joined", "started", "round"]
        ann.send(op="move", move="t", id=1)
        assert ann.next()["type"] == "moved" and ann.next()["type"] == "ack"
        stand_in = ann.next()
        assert stand_in["seat"] == 1 and stand_in["auto"] is True, stand_in
        assert stand_in["at"] >= hub.log.room(made["room"]).seats[1].joined_at.timestamp() + 0.3
        ann.close()


def test_presence_shows_who_is_here_and_who_is_away(duel: Any) -> None:
    client, hub, room, tokens = duel
    version = hub.rooms[room].state.version
    ann = Socket(client, room)
    ann.send(op="hello", token=tokens[0], since=version)
    assert ann.recv()["type"] == "welcome"
    here = ann.recv()
    assert here["type"] == "presence" and here["online"] == [0] and "1" in here["absent_since"]
    assert here["v"] == version and here["grace"] == GRACE
    bob = Socket(client, room)
    bob.send(op="hello", token=tokens[1], since=version)
    assert ann.recv() == {**here, "online": [0, 1], "absent_since": {}}
    bob.close()
    gone = ann.recv()
    assert gone["online"] == [0] and "1" in gone["absent_since"]
    ann.close()


def test_the_clock_runs_out(db: Path) -> None:
    with served(db) as (client, hub):
        made = make_room(client, ["human", "human"], clock=30)
        bob = join(client, made["room"], "Bob")
        ann = Socket(client, made["room"])
        ann.hello(made["token"], since=bob["v"])
        room = hub.rooms[made["room"]]
        assert room.state.deadline() == pytest.approx(room.state.turn_since + 30)

        async def thirty_seconds_later() -> None:
            room.state.turn_since -= 31
            hub._schedule(room)

        client.portal.call(thirty_seconds_later)
        timed_out = ann.next()
        assert (timed_out["type"], timed_out["seat"]) == ("timed_out", 0)
        over = ann.next()
        assert over["type"] == "round_over" and over["reason"] == "timeout"
        assert ann.next()["type"] == "round"
        ann.close()


# -- rematch, restart ----------------------------------------------------------------------------


def test_a_rematch_is_one_room_for_everyone_who_asks(db: Path) -> None:
    with served(db) as (client, hub):
        made = make_room(client, ["human", "human"], lives=1)
        room = made["room"]
        bob = join(client, room, "Bob")
        early = client.post(f"/api/rooms/{room}/rematch", json={"token": made["token"]})
        assert early.status_code == 409
        ann = Socket(client, room)
        ann.hello(made["token"], since=bob["v"])
        ann.send(op="concede")
        while ann.next()["type"] != "ack":
            pass
        assert client.post(f"/api/rooms/{room}/rematch", json={"token": "x"}).status_code == 403
        first = client.post(f"/api/rooms/{room}/rematch", json={"token": bob["token"]}).json()
        assert first["seat"] == 1
        rematch = ann.next()
        assert rematch == {**rematch, "type": "rematch", "room": first["room"]}
        again = client.post(f"/api/rooms/{room}/rematch", json={"token": bob["token"]}).json()
        assert again == first
        second = client.post(f"/api/rooms/{room}/rematch", json={"token": made["token"]}).json()
        assert (second["room"], second["seat"]) == (first["room"], 0)
        view = client.get(f"/api/rooms/{first['room']}").json()
        assert view["status"] == "playing" and [s["name"] for s in view["seats"]] == [
            "Ann",
            "Bob",
        ]
        assert hub.log.room(room).rematch == first["room"]
        late = client.post(f"/api/rooms/{room}/join", json={"name": "Cy"})
        assert late.status_code == 409 and "over" in late.json()["error"]
        ann.close()


def test_a_restarted_server_takes_up_the_room(db: Path) -> None:
    with served(db) as (client, hub):
        made = make_room(client, ["human", "human", "human"])
        room = made["room"]
        tokens = {0: made["token"]}
        tokens[1] = join(client, room, "Bob")["token"]
        tokens[2] = join(client, room, "Cy")["token"]
        table = Table(client, room, tokens)
        table.act(0, "move", move="g")
        table.act(1, "move", move="h")
        before = table.state.version
        table.close()
    with served(db) as (client, hub):
        assert room in hub.rooms  # restored at start-up, before anyone asked
        cy = Socket(client, room)
        welcome = cy.hello(tokens[2], since=before - 2)
        assert welcome["v"] == before and "state" not in welcome
        assert [m["type"] for m in (cy.next(), cy.next())] == ["moved", "moved"]
        cy.send(op="move", move="o", id="after")
        moved = cy.next()
        assert moved["v"] == before + 1 and cy.next() == {
            "type": "ack",
            "v": before + 1,
            "id": "after",
        }
        cy.send(op="move", move="o", id="after")  # the same id after the restart
        assert cy.next()["v"] == before + 1
        cy.close()
        events = client.get(f"/api/rooms/{room}/record").json()["events"]
        assert [e["v"] for e in events] == list(range(1, before + 2))


# -- a fuzz ----------------------------------------------------------------------------------------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
OPS = st.sampled_from(["hello", "move", "challenge", "word", "concede", "timeout", "", "HELLO"])


def frames(other_token: str, bob_token: str) -> st.SearchStrategy[str]:
    fields = {
        "id": JSON,
        "move": st.sampled_from(["g", "t", "zz", "7", "", "g" * 20]) | JSON,
        "word": st.sampled_from(["ghost", "tan", ""]) | JSON,
        "token": st.sampled_from([other_token, bob_token, "x", "y" * 200]) | JSON,
        "since": st.integers(-5, 10**12) | JSON,
    }
    messages = st.fixed_dictionaries({"op": OPS | JSON}, optional=fields).map(json.dumps)
    huge = st.sampled_from(["x" * (MAX_FRAME + 1), "[" * 3000, "9" * 4000, "y" * 2**20])
    tokens = st.sampled_from([other_token, bob_token, "x", "y" * 200, ""]) | JSON
    hellos = tokens.map(lambda token: json.dumps({"op": "hello", "token": token}))
    plays = st.sampled_from(
        [
            {"op": "move", "move": "g"},
            {"op": "challenge"},
            {"op": "word", "word": "ghost"},
            {"op": "concede", "id": 1},
            {"op": "move", "move": "t", "id": "x"},
        ]
    ).map(json.dumps)
    return st.one_of(messages, hellos, plays, JSON.map(json.dumps), st.text(max_size=60), huge)


def test_a_fuzzed_socket_gets_errors_or_a_close_and_the_room_never_changes(db: Path) -> None:
    with served(db) as (client, hub):
        made = make_room(client, ["human", "human"], lives=1)
        room = made["room"]
        bob = join(client, room, "Bob")["token"]  # Bob is not on turn: nothing he sends passes
        other = make_room(client, ["human", "human"], player="Zed")["token"]
        finished = make_room(client, ["human", "human"], lives=1)
        done_bob = join(client, finished["room"], "Dee")["token"]
        ender = Socket(client, finished["room"])
        ender.hello(finished["token"])
        ender.send(op="concede")
        while ender.next()["type"] != "match_over":
            pass
        ender.close()

        def version_of(room_id: str) -> int:
            return client.get(f"/api/rooms/{room_id}").json()["v"]

        versions = {r: version_of(r) for r in (room, finished["room"])}
        sent: list[int] = []
        codes: set[str] = set()

        @settings(
            max_examples=150,
            deadline=None,
            derandomize=True,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
        @given(
            which=st.sampled_from([room, finished["room"]]),
            greet=st.sampled_from(["bob", "watch", "none"]),
            batch=st.lists(frames(other, bob), max_size=10),
        )
        def check(which: str, greet: str, batch: list[str]) -> None:
            socket = Socket(client, which)
            try:
                token = bob if which == room else done_bob
                if greet != "none":
                    socket.hello(token if greet == "bob" else None)
                for frame in batch:
                    socket.raw(frame)
                socket.send(op="dance", id="end")
                while True:
                    message = socket.next()
                    assert message["type"] in ("error", "welcome"), message
                    if message["type"] == "error":
                        assert message["message"] and "\n" not in message["message"]
                        codes.add(message["code"])
                    if message.get("id") == "end":
                        break
            except WebSocketDisconnect as closed:
                assert closed.code in (1008, 1009)
            finally:
                socket.close()
            sent.append(len(batch))
            assert {r: version_of(r) for r in versions} == versions

        check()
        assert len(sent) == 150
        assert {"bad_message", "unknown_op", "hello_first", "bad_token", "too_large"} <= codes
        assert {"not_your_turn", "over", "spectator"} <= codes, codes
        settle(lambda: hub.counts.sockets == {} and not hub.rooms[room].clients)
        assert client.get(f"/api/rooms/{room}").json()["v"] == versions[room]


def test_a_client_too_far_behind_gets_the_whole_state(
    duel: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import ghostdb.web.rooms.room as room_module

    client, hub, room, tokens = duel
    monkeypatch.setattr(room_module, "MAX_BEHIND", 2)
    version = hub.rooms[room].state.version
    ann = Socket(client, room)
    assert ann.hello(tokens[0], since=version)["v"] == version
    ann.send(op="move", move="g")
    assert [ann.next()["type"], ann.next()["type"]] == ["moved", "ack"]
    bob = Socket(client, room)
    bob.hello(tokens[1], since=version)
    bob.next()
    bob.send(op="move", move="h")
    assert [bob.next()["type"], bob.next()["type"]] == ["moved", "ack"]
    watcher = Socket(client, room)
    near = watcher.hello(since=version)  # two behind: sent the two events
    assert "state" not in near and [watcher.next()["v"], watcher.next()["v"]] == [
        version + 1,
        version + 2,
    ]
    far = Socket(client, room).hello(since=version - 1)  # three behind: the whole state
    assert far["state"]["round"]["position"] == "gh"
    ahead = Socket(client, room).hello(since=version + 50)  # a version the room never had
    assert ahead["state"]["v"] == version + 2


def test_sockets_are_capped_by_address(duel: Any) -> None:
    client, hub, room, _ = duel
    hub.counts.max_sockets_per_address = 2
    first, second = Socket(client, room), Socket(client, room)
    with (
        pytest.raises(WebSocketDenialResponse) as denied,
        client.websocket_connect(f"/api/rooms/{room}/socket"),
    ):
        pass
    assert denied.value.status_code == 429
    first.close()
    settle(lambda: sum(hub.counts.sockets.values()) == 1)
    third = Socket(client, room)
    assert third.hello()["room"] == room
    second.close()
    third.close()


def test_other_origins_may_make_rooms_when_served_with_cors(db: Path) -> None:
    with served(db, cors=("https://friend.example",)) as (client, _):
        preflight = client.options(
            "/api/rooms",
            headers={
                "origin": "https://friend.example",
                "access-control-request-method": "POST",
                "access-control-request-headers": "content-type",
            },
        )
        assert preflight.status_code == 204
        assert "POST" in preflight.headers["access-control-allow-methods"]
        made = client.post(
            "/api/rooms",
            json={"name": "five", "seats": ["human", "human"], "player": "Ann"},
            headers={"origin": "https://friend.example"},
        )
        assert made.status_code == 201
        assert made.headers["access-control-allow-origin"] == "https://friend.example"


def test_a_socket_that_never_says_hello_is_closed(
    duel: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import ghostdb.web.rooms.socket as socket_module

    client, hub, room, _ = duel
    monkeypatch.setattr(socket_module, "HELLO_WITHIN", 0.3)
    silent = Socket(client, room)
    refused(silent, "hello_first")
    with pytest.raises(WebSocketDisconnect) as closed:
        silent.recv()
    assert closed.value.code == 1008
    silent.close()
    settle(lambda: hub.counts.sockets == {})
