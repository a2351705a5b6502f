"""The protocol's messages on the wire: what a client may send, checked field by field,
what the server sends back, and `Client`, one socket's queue of messages to send.

Every message is one JSON object in one text frame.  A client sends ``op`` messages
(see `CLIENT_OPS`); the server sends ``type`` messages, each with the room's version
``v``: the room's events as the log holds them (plus ``deadline``), and ``welcome``,
``ack``, ``error`` and ``presence``, which are not events and never move ``v`` on.  The
manual's protocol page and `ghostdb.web.rooms.socket` describe each one.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from typing import Any

from ghostdb.play.rooms.referee import MAX_WORD, Refused
from ghostdb.play.rooms.state import RoomState
from ghostdb.web.rooms.limits import MAX_ID, MAX_TOKEN, SEND_QUEUE

CLIENT_OPS = ("hello", "move", "challenge", "word", "concede")
"""What a client may send (the referee's ``timeout`` is the server's own)."""
MAX_MOVE = 16
"""The longest move text (the referee refuses longer ones too)."""
MAX_LINE = 200
"""The longest error message: one line."""
MAX_SAFE = 2**53
"""Whole-number ids beyond this are not exact in JavaScript: refused."""

Message = dict[str, Any]
CLOSE = "close"


def encode(message: Message) -> str:
    """A message as its frame: compact JSON, not escaped to ASCII."""
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))


def one_line(text: str) -> str:
    """An error's text as the protocol sends it: its first line, at most `MAX_LINE`."""
    line = (str(text).splitlines() or ["refused"])[0]
    return line if len(line) <= MAX_LINE else line[: MAX_LINE - 1] + "…"


# -- what a client sends ---------------------------------------------------------------------


def read(text: str) -> Message:
    """The JSON object of a frame; Refused ``bad_message`` for anything else."""
    try:
        message = json.loads(text)
    except (ValueError, RecursionError):  # RecursionError: nesting too deep for the parser
        raise Refused("bad_message", 'a message is one JSON object, e.g. {"op": "hello"}') from None
    if not isinstance(message, dict):
        raise Refused("bad_message", 'a message is a JSON object, e.g. {"op": "hello"}')
    return message


def message_id(message: Message) -> str | int | None:
    """The message's ``id`` (None: none given); Refused ``bad_message`` for one that is
    not a text of 1 to `MAX_ID` characters or a whole number."""
    ref = message.get("id")
    if ref is None:
        return None
    if isinstance(ref, str) and 1 <= len(ref) <= MAX_ID:
        return ref
    if isinstance(ref, int) and not isinstance(ref, bool) and -MAX_SAFE < ref < MAX_SAFE:
        return ref
    raise Refused("bad_message", f"an id is a text of 1 to {MAX_ID} characters or a whole number")


def op_of(message: Message) -> str:
    """The message's ``op``; Refused ``bad_message`` (no text) or ``unknown_op``."""
    op = message.get("op")
    if not isinstance(op, str):
        raise Refused("bad_message", f"a message names its op: one of {', '.join(CLIENT_OPS)}")
    if op not in CLIENT_OPS:
        shown = op if len(op) <= 20 else op[:20] + "…"
        raise Refused("unknown_op", f"{shown!r} is not an op: use one of {', '.join(CLIENT_OPS)}")
    return op


def hello_fields(message: Message) -> tuple[str | None, int | None]:
    """A hello's ``token`` (None: a spectator) and ``since`` (None: from nothing)."""
    token, since = message.get("token"), message.get("since")
    if token is not None and not isinstance(token, str):
        raise Refused("bad_message", "a token is the text the room gave your seat")
    if token is not None and not 1 <= len(token) <= MAX_TOKEN:
        raise Refused("bad_token", "that token holds no seat of this room")
    if since is not None and (not isinstance(since, int) or isinstance(since, bool) or since < 0):
        raise Refused("bad_message", "since is the version you last saw: a whole number from 0")
    return token, since


def command(op: str, message: Message, ref: str | int | None) -> Message:
    """The referee's message for a player's ``op``, with only the fields it reads, each
    checked for its type (Refused ``bad_message``)."""
    found: Message = {"op": op}
    if ref is not None:
        found["id"] = ref
    if op == "move":
        move = message.get("move")
        if not isinstance(move, str) or not 1 <= len(move) <= MAX_MOVE:
            raise Refused("bad_message", f"a move is a text of 1 to {MAX_MOVE} characters")
        found["move"] = move
    elif op == "word":
        word = message.get("word")
        if not isinstance(word, str) or len(word) > MAX_WORD:
            raise Refused("bad_message", f"a word is a text of at most {MAX_WORD} letters")
        found["word"] = word
    return found


# -- what the server sends -------------------------------------------------------------------


def welcome(state: RoomState, seat: int | None, whole: bool, grace: float) -> Message:
    """The answer to a hello: the version, the seat (None: watching), and the whole state
    when the client is sent it rather than the events it missed."""
    message: Message = {
        "type": "welcome",
        "v": state.version,
        "seat": seat,
        "room": state.id,
        "deadline": state.deadline(),
        "grace": grace,
    }
    if whole:
        message["state"] = state.as_dict()
    return message


def ack(v: int, ref: str | int | None) -> Message:
    """A message taken: ``v`` is the version of the first event it made."""
    return {"type": "ack", "v": v, "id": ref}


def error(v: int, code: str, text: str, ref: str | int | None = None) -> Message:
    """A message refused, to its sender alone: a code and one line."""
    return {"type": "error", "v": v, "code": code, "message": one_line(text), "id": ref}


def presence(v: int, online: list[int], absent_since: dict[int, float], grace: float) -> Message:
    """Who is here: the seats with a socket, and since when each absent person has been
    away (the computer plays for them ``grace`` seconds after)."""
    return {
        "type": "presence",
        "v": v,
        "online": online,
        "absent_since": {str(seat): at for seat, at in sorted(absent_since.items())},
        "grace": grace,
    }


# -- one socket ------------------------------------------------------------------------------


@dataclass(eq=False)
class Client:
    """One socket of a room: who it is (``seat``; None: watching) and the frames waiting
    to be sent, which its writer sends in order.  Sending never waits: a client too slow
    to read `SEND_QUEUE` messages is closed rather than let the room wait for it."""

    address: str
    seat: int | None = None
    greeted: bool = False
    closed: bool = False
    queue: asyncio.Queue[str | tuple[str, int, str]] = field(
        default_factory=lambda: asyncio.Queue(SEND_QUEUE)
    )

    def send(self, message: Message) -> None:
        """Queue one message."""
        self.send_text(encode(message))

    def send_text(self, text: str) -> None:
        """Queue one frame made already (a broadcast encodes once for every socket)."""
        if self.closed:
            return
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.close(1008, "too slow: reconnect with since")

    def close(self, code: int, reason: str) -> None:
        """Close after what is queued (a slow client's queue is dropped first)."""
        if self.closed:
            return
        self.closed = True
        if self.queue.full():
            while not self.queue.empty():
                self.queue.get_nowait()
        self.queue.put_nowait((CLOSE, code, reason))


__all__ = [
    "CLIENT_OPS",
    "Client",
    "ack",
    "command",
    "encode",
    "error",
    "hello_fields",
    "message_id",
    "op_of",
    "presence",
    "read",
    "welcome",
]
