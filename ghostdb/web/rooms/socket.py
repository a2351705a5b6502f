"""The room's WebSocket, ``/api/rooms/{id}/socket``: JSON messages, one a text frame.

The handshake is refused (before it is accepted: 403, 404, 429 or 503 where the server
can answer a handshake with HTTP, else a close with 1008 or 1013) for an ``Origin`` that
is neither the server's own (the ``Host`` it was asked as, over http or https) nor one
of ``--cors`` (a client that sends none, a program, may connect); for a room that does
not exist (rooms are made by ``POST /api/rooms``, never by asking); and past the caps of
sockets in all and by address (`ghostdb.web.rooms.limits`).

A client sends (any other field is ignored):

* ``{"op": "hello", "token": T, "since": V}`` first: ``token`` is the seat's (absent or
  null: to watch), ``since`` the last version the client saw (0 or absent: none).  The
  token travels here, never in a URL, and is compared in constant time.
* ``{"op": "move", "move": M, "id": I}``, ``{"op": "challenge", "id": I}``,
  ``{"op": "word", "word": W, "id": I}``, ``{"op": "concede", "id": I}``.  ``id`` (a
  text of 1 to 64 characters or a whole number; optional) names the message: sent again
  from the same seat, it is answered with its first ``ack`` and changes nothing.

The server sends, each message with the room's version ``v``:

* ``welcome``: ``v``, ``seat`` (null: watching), ``room``, ``deadline``, ``grace`` and,
  when ``since`` was 0, absent, ahead of the room or more than 500 events behind,
  ``state`` (the room as ``GET /api/rooms/{id}`` gives it); otherwise each event after
  ``since`` follows, once and in order.
* every event of the room's log as it is committed (``created``, ``joined``,
  ``started``, ``round``, ``moved``, ``challenged``, ``answered``, ``conceded``,
  ``timed_out``, ``round_over``, ``match_over``, ``rematch``: see
  `ghostdb.play.rooms.state`), with ``deadline``: when the turn after it runs out.
* ``ack``: ``v`` (the version of the message's first event) and ``id``.
* ``error``: ``v``, ``code``, ``message`` (one line) and ``id``, to the sender alone.
  Codes: ``bad_message``, ``unknown_op``, ``hello_first``, ``bad_token`` (the socket
  closes), ``spectator``, ``not_your_turn``, ``illegal_move``, ``must_answer``,
  ``not_challenged``, ``not_started``, ``over``, ``stale``, ``too_large`` (the socket
  closes with 1009), ``too_fast``, ``room_full`` (too many watch), ``unavailable``.
* ``presence``: ``v``, ``online`` (the seats with a socket), ``absent_since`` (seat to
  the server's time when its person left) and ``grace`` (seconds after which the
  computer plays an absent person's turns), whenever a socket comes or goes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Sequence
from typing import Any
from urllib.parse import urlsplit

from fastapi import FastAPI, WebSocket
from fastapi.responses import JSONResponse
from starlette.websockets import WebSocketDisconnect

from ghostdb.play.rooms.referee import Refused
from ghostdb.web.rooms.hub import Hub, Room
from ghostdb.web.rooms.limits import FLOOD, HELLO_WITHIN, MAX_FRAME, TokenBucket
from ghostdb.web.rooms.wire import (
    Client,
    ack,
    command,
    error,
    hello_fields,
    message_id,
    op_of,
    read,
)

log = logging.getLogger("ghostdb.rooms")

PATH = "/api/rooms/{room_id}/socket"
TOO_LARGE = 1009
POLICY = 1008
TRY_LATER = 1013
FLUSH_WITHIN = 5.0
"""Seconds a closing socket's last messages may take to leave."""


def add_socket(app: FastAPI, hub: Hub, cors: Sequence[str] = ()) -> None:
    """The room's WebSocket route on ``app`` (``cors``: the other origins allowed)."""
    allowed = tuple(origin.lower() for origin in cors)

    @app.websocket(PATH)
    async def room_socket(websocket: WebSocket, room_id: str) -> None:
        await serve_socket(websocket, hub, allowed, room_id)


def origin_allowed(headers: Any, cors: Sequence[str]) -> bool:
    """Whether a handshake's ``Origin`` may open a socket: none (not a browser), one of
    ``cors`` (``*``: any), or the server's own, the ``Host`` it was asked as."""
    origin = headers.get("origin")
    if origin is None:
        return True
    origin = origin.strip().lower()
    if "*" in cors or origin in cors:
        return True
    host = (headers.get("host") or "").strip().lower()
    try:
        parts = urlsplit(origin)
    except ValueError:
        return False
    own = parts.scheme in ("http", "https") and parts.netloc == host
    return bool(host) and own and not parts.path and not parts.query


async def deny(websocket: WebSocket, status: int, text: str) -> None:
    """Refuse a handshake: an HTTP answer where the server can give one, else a close."""
    if "websocket.http.response" in websocket.scope.get("extensions", {}):
        await websocket.send_denial_response(JSONResponse({"error": text}, status))
    else:
        await websocket.close(TRY_LATER if status >= 500 else POLICY, text[:120])


async def serve_socket(websocket: WebSocket, hub: Hub, cors: Sequence[str], room_id: str) -> None:
    """One socket from handshake to close (see the module for the protocol)."""
    if not origin_allowed(websocket.headers, cors):
        await deny(websocket, 403, "this page's origin may not play here")
        return
    try:
        room = await hub.room(room_id)
    except Exception as exc:  # the database: the client tries again later
        log.warning("room %s not read: %s", room_id[:40], str(exc).splitlines()[:1])
        await deny(websocket, 503, "the database did not answer: try again later")
        return
    if room is None:
        await deny(websocket, 404, "no such room: make one with POST /api/rooms")
        return
    address = websocket.client.host if websocket.client else "unknown"
    refusal = hub.counts.socket_refusal(address)
    if refusal is not None:
        await deny(websocket, 429, refusal)
        return
    hub.counts.opened(address)
    client = Client(address)
    try:
        await websocket.accept()
        await _converse(websocket, hub, room, client)
    except Exception as exc:  # never a traceback from a socket: it is closed, and that is all
        log.warning("room %s: a socket failed: %s", room.id, str(exc).splitlines()[:1])
    finally:
        client.closed = True
        hub.counts.closed(address)
        hub.leave(room, client)


async def _converse(websocket: WebSocket, hub: Hub, room: Room, client: Client) -> None:
    """Read on this task and write on another, until the client goes or is told to: the
    reading ends at once when the client goes (nothing is left to clean up but the
    writer), and lets the writer send what is queued, then the close, when it closed
    the socket itself (a bad token, a frame too large)."""
    writer = asyncio.create_task(_write(websocket, client))
    try:
        await _read(websocket, hub, room, client)
        if client.closed and not writer.done():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(writer), FLUSH_WITHIN)
    finally:
        writer.cancel()


async def _write(websocket: WebSocket, client: Client) -> None:
    """Send the client's queued frames in order, and the close when it comes."""
    try:
        while True:
            item = await client.queue.get()
            if isinstance(item, str):
                await websocket.send_text(item)
            else:
                _, code, reason = item  # (CLOSE, code, reason)
                await websocket.close(code, reason)
                return
    except (WebSocketDisconnect, RuntimeError, OSError):
        return  # the client went: the reader finds out too


async def _read(websocket: WebSocket, hub: Hub, room: Room, client: Client) -> None:
    """Take the client's frames one at a time: size, then rate, then the message."""
    bucket = TokenBucket()
    flooded = 0
    while not client.closed:
        try:
            wait = None if client.greeted else HELLO_WITHIN
            frame = await asyncio.wait_for(websocket.receive(), wait)
        except TimeoutError:
            _refuse(client, room, Refused("hello_first", "say hello first: the socket closes"))
            client.close(POLICY, "no hello")
            return
        except (WebSocketDisconnect, RuntimeError, OSError):
            return
        if frame["type"] != "websocket.receive":
            return  # websocket.disconnect
        text = _text_of(frame)
        if text is None:
            _refuse(client, room, Refused("too_large", f"a message is at most {MAX_FRAME} bytes"))
            client.close(TOO_LARGE, "message too large")
            return
        if not bucket.take():
            flooded += 1
            if flooded >= FLOOD:
                client.close(POLICY, "too many messages")
                return
            _refuse(client, room, Refused("too_fast", "too many messages: slow down"))
            continue
        flooded = 0
        await _handle(hub, room, client, text)


def _text_of(frame: dict[str, Any]) -> str | None:
    """A frame's text (a binary frame read as UTF-8; one that is not: ``""``, a bad
    message); None for a frame over `MAX_FRAME` bytes."""
    text = frame.get("text")
    if text is None:
        data = frame.get("bytes") or b""
        if len(data) > MAX_FRAME:
            return None
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            return ""
    if len(text) > MAX_FRAME or len(text.encode("utf-8", "surrogatepass")) > MAX_FRAME:
        return None
    return text


async def _handle(hub: Hub, room: Room, client: Client, text: str) -> None:
    """One message: hello, or a player's op; refused with an error to the sender."""
    ref = None
    try:
        message = read(text)
        ref = message_id(message)
        op = op_of(message)
        if op == "hello":
            if client.greeted:
                raise Refused("bad_message", "hello is said once: reconnect to start again")
            token, since = hello_fields(message)
            await hub.hello(room, client, token, since)
            return
        if not client.greeted:
            raise Refused("hello_first", 'say hello first: {"op": "hello", "token": …}')
        if client.seat is None:
            raise Refused("spectator", "you are watching: join the room to play")
        v = await hub.submit(room, client.seat, command(op, message, ref))
        client.send(ack(v, ref))
    except Refused as exc:
        _refuse(client, room, exc, ref)
        if exc.code == "bad_token":
            client.close(POLICY, "bad token")
    except Exception as exc:  # a bug or the database: an error, never a dead socket
        log.warning("room %s: a message failed: %s", room.id, str(exc).splitlines()[:1])
        failed = Refused("unavailable", "the server could not do that: try again")
        _refuse(client, room, failed, ref)


def _refuse(client: Client, room: Room, exc: Refused, ref: str | int | None = None) -> None:
    client.send(error(room.state.version, exc.code, str(exc), ref))


__all__ = ["PATH", "add_socket", "origin_allowed", "serve_socket"]
