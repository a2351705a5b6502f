"""`ghostdb join URL`: a seat of a room played from a terminal, over the room's protocol.

The same protocol as the page and any bot (the manual's "Rooms: the protocol"): HTTP to
take a seat, then JSON over the room's WebSocket.  A thread reads the socket and prints
what happens; the main thread reads what is typed.  A dropped socket is opened again
with ``since`` (the last version seen), so nothing is missed or shown twice.  The seat's
token stays in this process: it is never printed, put in a URL or written anywhere.
"""

from __future__ import annotations

import json
import re
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any
from urllib.parse import urlsplit

import typer

from ghostdb.cli.group import app, fail, stop
from ghostdb.errors import Interrupted

if TYPE_CHECKING:
    import queue

    from ghostdb.games.base import Game

ROOM_PATH = re.compile(r"^/(?:api/)?rooms/([A-Za-z0-9_-]{8,64})/?$")
RECONNECTS = 5
PROMPT_AFTER = 0.05
"""Seconds of quiet on the socket before the turn is prompted: a move that ends the round
is followed at once by the round's end, and the prompt would be for a turn that is not."""
HELP = (
    "type a move on your turn (a letter; in a board game, a square or column as the board "
    "numbers it), ! (or challenge) to challenge the last move, "
    "a word when challenged, concede to give up the round, ? for this help"
)


@dataclass
class Seat:
    """What the client knows of the room: enough to read what is typed rightly."""

    seat: int
    names: list[str] = field(default_factory=list)
    v: int = 0
    order: list[int] = field(default_factory=list)
    turn: int | None = None
    answering: bool = False
    over: bool = False
    winners: list[int] = field(default_factory=list)
    game: Game | None = None
    """The room's game where it is played on a board (drawn after each move), else None."""

    def read_state(self, state: dict[str, Any]) -> None:
        from ghostdb.text.rooms import seat_names

        self.names = seat_names(state["seats"], self.seat)
        self.game = None if state.get("word_game") else _board_game(state.get("rules"))
        rnd = state.get("round")
        self.order = list(rnd["seats"]) if rnd else []
        self.turn = rnd["turn"] if rnd else None
        self.answering = bool(rnd and rnd["phase"] == "answer")
        self.over = state["status"] == "over"
        self.winners = list(state.get("winners") or [])

    def read_event(self, event: dict[str, Any]) -> None:
        kind = event.get("type")
        if kind == "joined" and 0 <= event["seat"] < len(self.names):
            if event["seat"] != self.seat:
                self.names[event["seat"]] = str(event["name"])
        elif kind == "round":
            self.order, self.turn, self.answering = list(event["seats"]), event["starter"], False
        elif kind == "moved" and event["seat"] in self.order:
            order = self.order
            self.turn = order[(order.index(event["seat"]) + 1) % len(order)]
        elif kind == "challenged":
            self.turn, self.answering = event["target"], True
        elif kind in ("round_over", "answered"):
            self.answering = False
            self.turn = None if kind == "round_over" else self.turn
        elif kind == "match_over":
            self.over, self.winners, self.turn = True, list(event["winners"]), None


def _board_game(rules: Any) -> Game | None:
    """The game a room's rule key names (None for one this version does not know)."""
    from ghostdb.errors import BadMove
    from ghostdb.games.registry import game_of, parse_rules

    try:
        return game_of(parse_rules(str(rules)))
    except (BadMove, ValueError, KeyError):
        return None


def split_url(url: str) -> tuple[str, str, str]:
    """(HTTP base, WebSocket base, room id) of a room's link; raise ValueError."""
    parts = urlsplit(url.strip())
    match = ROOM_PATH.match(parts.path)
    if parts.scheme not in ("http", "https") or not parts.netloc or not match:
        raise ValueError(
            f"{url!r} is not a room's link: give the one the room shows, "
            "e.g. http://127.0.0.1:8000/rooms/ROOM"
        )
    ws = "wss" if parts.scheme == "https" else "ws"
    return f"{parts.scheme}://{parts.netloc}", f"{ws}://{parts.netloc}", match[1]


def take_seat(base: str, room: str, name: str) -> dict[str, Any]:
    """POST the join; the reply's seat and token, or a one-line failure."""
    import urllib.error  # here, not at the top: HTTP is 5 ms of every command's start
    import urllib.request

    body = json.dumps({"name": name}).encode()
    request = urllib.request.Request(
        f"{base}/api/rooms/{room}/join",
        data=body,
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as reply:
            return json.loads(reply.read())
    except urllib.error.HTTPError as exc:
        try:
            message = json.loads(exc.read()).get("error") or exc.reason
        except ValueError:
            message = exc.reason
        fail(f"the room refused to seat you: {message}")
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        fail(f"cannot reach {base}: {reason} (is `ghostdb serve` running there?)")
    raise AssertionError("unreachable")


@app.command()
def join(
    url: Annotated[str, typer.Argument(help="The room's link, as the room shows it.")],
    name: Annotated[
        str | None,
        typer.Option(help="Your name in the room, 1-40 characters; by default your login name."),
    ] = None,
) -> None:
    """Take a seat in a room (made on the page or with POST /api/rooms) and play it from
    the terminal; everybody else in the room sees your moves as you make them."""
    try:
        base, ws_base, room = split_url(url)
    except ValueError as exc:
        fail(str(exc))
    if name is None:
        import getpass

        name = getpass.getuser()
    if not 1 <= len(name.strip()) <= 40:
        fail("--name is 1 to 40 characters")
    seat = take_seat(base, room, name.strip())
    client = Client(f"{ws_base}/api/rooms/{room}/socket", seat["token"], Seat(seat["seat"]))
    print(f"you are seat {seat['seat']} of room {room}; {HELP}", flush=True)
    try:
        client.run()
    except KeyboardInterrupt:
        stop(Interrupted("left the room: the computer plays your seat until you are back"))
    if not client.seat.over:
        fail("left the room before the match ended: the computer plays your seat")


def _read_lines(lines: queue.Queue[str | None]) -> None:
    for line in sys.stdin:
        lines.put(line)
    lines.put(None)


class Client:
    """The socket, read by a thread, written by the main thread."""

    def __init__(self, url: str, token: str, seat: Seat) -> None:
        self.url, self.token, self.seat = url, token, seat
        self.socket: Any = None
        self.ready = threading.Event()
        self.done = threading.Event()
        self.lock = threading.Lock()
        self.count = 0

    def run(self) -> None:
        reader = threading.Thread(target=self._read_forever, daemon=True)
        reader.start()
        if not self.ready.wait(15):
            fail(f"no answer from {self.url}: is the server running?")
        # Typed lines come through a thread of their own, so that the match's end is
        # noticed while the terminal waits for a line that will never be typed.
        import queue

        lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=_read_lines, args=(lines,), daemon=True).start()
        while not self.done.is_set():
            try:
                line = lines.get(timeout=0.2)
            except queue.Empty:
                continue
            if line is None:  # standard input ended (a pipe): play on till the end
                self.done.wait()
                break
            self.send_line(line.strip())

    def send_line(self, text: str) -> None:
        if not text:
            return
        if text == "?":
            game = self.seat.game
            print(HELP + (f"; here, {game.move_hint()}" if game else ""), flush=True)
            return
        self.count += 1
        message: dict[str, Any] = {"id": f"t{self.count}"}
        if text in ("!", "challenge"):
            message["op"] = "challenge"
        elif text == "concede":
            message["op"] = "concede"
        elif self.seat.answering and self.seat.turn == self.seat.seat:
            message.update(op="word", word=text)
        else:
            message.update(op="move", move=text)
        self.send(message)

    def send(self, message: dict[str, Any]) -> None:
        with self.lock:
            try:
                self.socket.send(json.dumps(message))
            except Exception:  # a dropped socket: the reader thread reconnects
                print("not sent: the connection dropped; type it again", flush=True)

    def _read_forever(self) -> None:
        from websockets.exceptions import ConnectionClosed, InvalidHandshake

        tries = 0
        while not self.done.is_set():
            try:
                self._session()
                tries = 0
            except (ConnectionClosed, InvalidHandshake, OSError, TimeoutError) as exc:
                tries += 1
                if tries > RECONNECTS:
                    print(f"the room's connection failed: {exc}", file=sys.stderr, flush=True)
                    self.done.set()
                    break
                time.sleep(min(0.5 * 2**tries, 5))

    def _session(self) -> None:
        from websockets.exceptions import ConnectionClosedOK
        from websockets.sync.client import connect

        with connect(self.url, open_timeout=10, max_size=2**20) as socket:
            self.socket = socket
            socket.send(json.dumps({"op": "hello", "token": self.token, "since": self.seat.v}))
            due = False
            while not self.done.is_set():
                try:
                    raw = socket.recv(timeout=PROMPT_AFTER if due else None)
                except TimeoutError:  # nothing more came at once: the turn is settled
                    self._prompt()
                    due = False
                    continue
                except ConnectionClosedOK:
                    return
                due = self._receive(json.loads(raw)) or due

    def _receive(self, message: dict[str, Any]) -> bool:
        """Print what ``message`` says; whether the turn is to be prompted (once nothing
        more follows at once)."""
        from ghostdb.text.rooms import describe, standing

        seat = self.seat
        if message.get("type") == "welcome":
            if "state" in message:
                seat.read_state(message["state"])
                self._state = message["state"]
                rnd = message["state"].get("round") or {}
                self._draw(str(rnd.get("position", "")))
            seat.v = max(seat.v, int(message.get("v", 0)))
            self.ready.set()
            return True
        v = message.get("v")
        if message.get("type") not in ("error", "ack", "presence") and isinstance(v, int):
            if v <= seat.v:
                return False  # seen before the reconnection
            seat.v = v
        seat.read_event(message)
        drawn = seat.game is not None and message.get("type") in ("round", "moved")
        for line in describe(message, seat.names, drawn=drawn):
            print(line, flush=True)
        if drawn:
            self._draw(str(message.get("position", "")))
        if message.get("type") == "round_over" and seat.game is None:  # a word game's letters
            state = getattr(self, "_state", None)
            if state:
                for s, count in zip(state["seats"], message["letters"], strict=False):
                    s["letters"] = count
                print(standing(state["seats"], seat.names, state["letters"], state["lives"]))
        if seat.over:
            self.done.set()
            return False
        return message.get("type") in ("round", "moved", "challenged", "round_over")

    def _draw(self, position: str) -> None:
        """A board game's position drawn, its players named in the round's order."""
        from ghostdb.text.rooms import board

        seat = self.seat
        for line in board(seat.game, position, seat.names, seat.order, seat.turn):
            print(line, flush=True)

    def _prompt(self) -> None:
        seat = self.seat
        if seat.turn == seat.seat and not seat.over:
            what = "name a word (or concede)" if seat.answering else "your move"
            print(f"{what}>", flush=True)
