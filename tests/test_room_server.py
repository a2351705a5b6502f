"""Rooms on ``ghostdb serve`` as a process, over real WebSockets (the ``websockets``
client library): a short match of three, the server killed (SIGKILL) mid-round and
started again on the same file, every client back with ``since``: each room continues
from its last event, and nothing is lost or doubled."""

from __future__ import annotations

import contextlib
import json
import signal
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_web import free_port, wait_ready
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect


@pytest.fixture
def db(rooms_db: Path) -> Path:
    return rooms_db


class Server:
    """``ghostdb serve`` on one port; started again on the same port after a kill."""

    def __init__(self, db: Path) -> None:
        self.db, self.port = db, free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.errors: list[str] = []
        self.proc: subprocess.Popen[str] | None = None
        self.sockets = contextlib.ExitStack()

    def start(self) -> None:
        command = [sys.executable, "-m", "ghostdb", "serve", "--db", str(self.db)]
        self.proc = subprocess.Popen(
            [*command, "--port", str(self.port)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        wait_ready(f"{self.base}/api/solutions", self.proc, 30)

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        _, err = self.proc.communicate(timeout=10)
        self.errors.append(err)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            _, err = self.proc.communicate(timeout=15)
            self.errors.append(err)

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        request = urllib.request.Request(
            self.base + path,
            json.dumps(body).encode(),
            {"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.load(response)

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(self.base + path, timeout=10) as response:
            return json.load(response)

    def socket(self, room: str, **headers: str) -> ClientConnection:
        url = f"ws://127.0.0.1:{self.port}/api/rooms/{room}/socket"
        # Entered here and closed with the server: each test's sockets end with it.
        return self.sockets.enter_context(
            connect(url, additional_headers=headers or None, open_timeout=10)
        )


@pytest.fixture
def server(db: Path) -> Iterator[Server]:
    found = Server(db)
    found.start()
    try:
        yield found
    finally:
        found.sockets.close()
        found.stop()
    assert not any("Traceback" in err for err in found.errors), found.errors


class Player:
    """A person's client: it reconnects with the last version it saw, and keeps every
    event it was sent, by version."""

    def __init__(self, server: Server, room: str, token: str, since: int) -> None:
        self.server, self.room, self.token, self.since = server, room, token, since
        self.events: list[dict[str, Any]] = []
        self.ws = self.connect()

    def connect(self) -> ClientConnection:
        ws = self.server.socket(self.room)
        ws.send(json.dumps({"op": "hello", "token": self.token, "since": self.since}))
        welcome = self.read(ws)
        assert welcome["type"] == "welcome" and "state" not in welcome, welcome
        return ws

    def read(self, ws: ClientConnection | None = None) -> dict[str, Any]:
        while True:
            message = json.loads((ws or self.ws).recv(timeout=10))
            if message["type"] == "presence":
                continue
            if message["type"] not in ("welcome", "ack", "error"):
                self.events.append(message)
                self.since = message["v"]
            return message

    def reconnect(self) -> dict[str, Any]:
        self.ws = self.server.socket(self.room)
        self.ws.send(json.dumps({"op": "hello", "token": self.token, "since": self.since}))
        return self.read()


def act(players: list[Player], seat: int, op: str, **fields: Any) -> list[dict[str, Any]]:
    """``seat`` sends ``op``; its events reach every player of the room, then its ack."""
    sender = players[seat]
    sender.ws.send(json.dumps({"op": op, "id": f"{seat}-{sender.since}", **fields}))
    events = []
    while (message := sender.read())["type"] != "ack":
        assert message["type"] != "error", message
        events.append(message)
    for player in players:
        if player is not sender:
            assert [player.read() for _ in events] == events
    return events


def seat_players(server: Server, seats: int) -> tuple[str, list[Player]]:
    made = server.post(
        "/api/rooms",
        {"name": "five", "seats": ["human"] * seats, "lives": 1, "clock": None, "player": "Ann"},
    )
    tokens = [made["token"]]
    for name in ("Bob", "Cy")[: seats - 1]:
        tokens.append(server.post(f"/api/rooms/{made['room']}/join", {"name": name})["token"])
    v = server.get(f"/api/rooms/{made['room']}")["v"]
    return made["room"], [Player(server, made["room"], token, v) for token in tokens]


def test_a_match_survives_a_killed_server(server: Server) -> None:
    room, three = seat_players(server, 3)
    other, two = seat_players(server, 2)
    act(three, 0, "move", move="t")
    act(three, 1, "move", move="a")
    over = act(three, 2, "move", move="n")  # "tan": Cy loses and, with one life, is out
    assert [e["type"] for e in over] == ["moved", "round_over", "round"]
    act(three, 0, "move", move="g")
    act(three, 1, "move", move="h")  # mid-round
    act(two, 0, "move", move="g")
    server.kill()
    for player in three + two:
        with pytest.raises((ConnectionClosed, TimeoutError, OSError)):
            player.ws.recv(timeout=5)
    server.start()  # again, on the same file and port
    for player in three + two:
        welcome = player.reconnect()
        assert welcome["type"] == "welcome" and welcome["v"] == player.since
        assert "state" not in welcome  # nothing was missed: nothing lost
    act(two, 1, "move", move="h")
    act(three, 0, "move", move="o")
    act(three, 1, "move", move="s")
    end = act(three, 0, "move", move="t")  # "ghost": Ann loses; Bob wins
    assert end[-1]["type"] == "match_over" and end[-1]["winners"] == [1]
    for room_id, players in ((room, three), (other, two)):
        events = server.get(f"/api/rooms/{room_id}/record")["events"]
        assert [e["v"] for e in events] == list(range(1, len(events) + 1))
        for player in players:
            heard = [{k: v for k, v in e.items() if k != "deadline"} for e in player.events]
            first = heard[0]["v"]
            assert heard == events[first - 1 :]  # each once, in order, none lost
            player.ws.close()


def test_the_real_server_refuses_a_foreign_origin_and_a_big_frame(server: Server) -> None:
    room, players = seat_players(server, 2)
    with pytest.raises(InvalidStatus) as refused:
        server.socket(room, Origin="https://evil.example")
    assert refused.value.response.status_code == 403
    with pytest.raises(InvalidStatus) as unknown:
        server.socket("AAAAAAAAAAAAAAAAAAAAAA")
    assert unknown.value.response.status_code == 404
    own = server.socket(room, Origin=server.base)
    own.send("x" * 5000)
    error = json.loads(own.recv(timeout=10))
    assert (error["type"], error["code"]) == ("error", "too_large")
    with pytest.raises(ConnectionClosed) as closed:
        own.recv(timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    with pytest.raises(urllib.error.HTTPError) as posted:
        request = urllib.request.Request(
            server.base + "/api/rooms",
            b'{"name": "five", "seats": ["human", "optimal"]}',
            {"Content-Type": "application/json", "Origin": "https://evil.example"},
        )
        urllib.request.urlopen(request, timeout=10)
    assert posted.value.code == 403
    for player in players:
        player.ws.close()
