"""HTTP conventions around the whole app: validators and caching, and opt-in CORS.

Every answer of the API is read from published rows, and a published solution never
changes: an answer is valid for as long as what the store publishes stays the same.  So
each cacheable answer carries a strong ``ETag`` made of the store's publication state
(`ghostdb.store.Store.publication_state`) and the request itself, and ``Cache-Control:
public, max-age=…``; a request whose ``If-None-Match`` names the current tag is answered
``304`` before any lookup, so a revalidation costs less than the lookup it saves.  The
publication state is read at most once every `STATE_SECONDS` (a new solve is seen within
that time; a cache in front may in any case serve an answer for ``max-age``).  A
computer's move without a ``seed`` is a random draw: ``no-store``.

The answers themselves are held too, by the same tag, in a cache of `CACHE_BYTES` (the
least recently used go first, and all of them when the publication state changes): a
plan, a report or a comparison asked again is sent from memory, without a read or the
JSON made again.  The cache is the event loop's alone, so it takes no lock.

CORS is off unless ``ghostdb serve --cors ORIGIN`` names the origins (``*`` for any) whose
pages may read the API; the API only reads, so only GET and HEAD are allowed, but for the
rooms' routes (``/api/rooms``), which change with every move (never cached) and take a
POST to make, join or rematch a room.  WebSockets pass through untouched.
"""

from __future__ import annotations

import hashlib
import time
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from ghostdb.web.answers import Answers

MAX_AGE = 300
"""Seconds a cache may serve an answer without asking again."""
STATE_SECONDS = 1.0
"""How long the store's publication state is taken as known before it is read again."""
PREFLIGHT_MAX_AGE = 86_400
CACHE_BYTES = 64 * 2**20
"""The answers' bytes the server holds ready (its memory stays well under 500 MB)."""
CACHE_ENTRY = 4 * 2**20
"""The largest answer held (a SuperDuperGhost solution's openings' plans: half a MB)."""
ROOMS = "/api/rooms"
"""The rooms' routes (`ghostdb.web.rooms`): live state, and the only POSTs."""


class AnswerCache:
    """Whole answers (status 200) by their ETag, least recently used dropped first."""

    def __init__(self, limit: int = CACHE_BYTES) -> None:
        self.limit = limit
        self.size = 0
        self.state = ""
        self.entries: OrderedDict[bytes, tuple[list[tuple[bytes, bytes]], bytes]] = OrderedDict()

    def get(self, tag: bytes) -> tuple[list[tuple[bytes, bytes]], bytes] | None:
        found = self.entries.get(tag)
        if found is not None:
            self.entries.move_to_end(tag)
        return found

    def put(self, state: str, tag: bytes, headers: list[tuple[bytes, bytes]], body: bytes) -> None:
        if state != self.state:  # all made under another state: none can be asked for again
            self.entries.clear()
            self.size, self.state = 0, state
        if len(body) > CACHE_ENTRY or tag in self.entries:
            return
        self.entries[tag] = (headers, body)
        self.size += len(body)
        while self.size > self.limit:
            _, (_, dropped) = self.entries.popitem(last=False)
            self.size -= len(dropped)


def _header(scope: dict[str, Any], name: bytes) -> bytes | None:
    for key, value in scope["headers"]:
        if key == name:
            return value
    return None


class Conventions:
    """ASGI: ETag / 304 / Cache-Control on the API's answers, and CORS when asked."""

    def __init__(self, app: Any, answers: Answers, cors: Sequence[str] = ()) -> None:
        self.app = app
        self.answers = answers
        self.cors = tuple(cors)
        self._state = ""
        self._state_read = float("-inf")
        self.cache = AnswerCache()

    def state(self) -> str:
        """The store's publication state, read again once `STATE_SECONDS` have passed."""
        now = time.monotonic()
        if now - self._state_read >= STATE_SECONDS:
            self._state = self.answers.store.publication_state()
            self._state_read = now
        return self._state

    def etag(self, scope: dict[str, Any]) -> bytes:
        request = scope["path"].encode() + b"?" + scope["query_string"]
        digest = hashlib.sha256(self.state().encode() + b"\n" + request).hexdigest()[:32]
        return f'"{digest}"'.encode()

    def cors_headers(self, scope: dict[str, Any]) -> list[tuple[bytes, bytes]]:
        origin = _header(scope, b"origin")
        if not self.cors or origin is None:
            return []
        if "*" in self.cors:
            allowed = b"*"
        elif origin.decode("latin-1") in self.cors:
            allowed = origin
        else:
            return []
        headers = [(b"access-control-allow-origin", allowed), (b"vary", b"Origin")]
        return [*headers, (b"access-control-expose-headers", b"ETag")]

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http" or not scope["path"].startswith("/api/"):
            await self.app(scope, receive, send)
            return
        extra = self.cors_headers(scope)
        method = scope["method"]
        live = scope["path"] == ROOMS or scope["path"].startswith(ROOMS + "/")
        if method == "OPTIONS" and extra:  # a CORS preflight
            await _respond(send, 204, extra + _preflight(live))
            return
        if live:  # a room changes with every move: never cached (its routes say no-store)
            await self.app(scope, receive, _with(send, extra))
            return
        if method not in ("GET", "HEAD"):
            await self.app(scope, receive, send)
            return
        if scope["path"].endswith("/move") and b"seed=" not in scope["query_string"]:
            extra.append((b"cache-control", b"no-store"))  # a random draw
        else:
            try:
                tag = self.etag(scope)
            except Exception:  # the database: the route answers why, as it would have
                await self.app(scope, receive, _with(send, extra))
                return
            extra += [(b"etag", tag), (b"cache-control", f"public, max-age={MAX_AGE}".encode())]
            wanted = _header(scope, b"if-none-match")
            if wanted is not None and _matches(wanted, tag):
                await _respond(send, 304, extra)
                return
            if method == "GET":
                await self._cached(scope, receive, send, tag, extra)
                return
        await self.app(scope, receive, _with(send, extra))

    async def _cached(
        self, scope: dict[str, Any], receive: Any, send: Any, tag: bytes, extra: list[Any]
    ) -> None:
        """The answer under ``tag``: from the cache, else from the app and kept."""
        found = self.cache.get(tag)
        if found is not None:
            headers, body = found
            start = {"type": "http.response.start", "status": 200, "headers": headers + extra}
            await send(start)
            await send({"type": "http.response.body", "body": body})
            return
        state, seen, parts = self._state, {}, []

        async def keeping(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                seen.update(message)
            elif message["type"] == "http.response.body" and seen.get("status") == 200:
                parts.append(message.get("body", b""))
                if not message.get("more_body", False):
                    headers = list(seen.get("headers", ()))
                    self.cache.put(state, tag, headers, b"".join(parts))
            await sending(message)

        sending = _with(send, extra)
        await self.app(scope, receive, keeping)


def _preflight(live: bool = False) -> list[tuple[bytes, bytes]]:
    """A preflight's answer: the API reads (GET, HEAD); the rooms' routes also take a
    POST of JSON (``live``)."""
    if live:
        methods, headers = b"GET, HEAD, POST", b"Content-Type"
    else:
        methods, headers = b"GET, HEAD", b"If-None-Match"
    return [
        (b"access-control-allow-methods", methods),
        (b"access-control-allow-headers", headers),
        (b"access-control-max-age", str(PREFLIGHT_MAX_AGE).encode()),
    ]


def _matches(wanted: bytes, tag: bytes) -> bool:
    """Whether an If-None-Match header names ``tag`` (or is ``*``); weak tags compare
    weakly, as RFC 9110 says for If-None-Match."""
    for item in wanted.split(b","):
        item = item.strip()
        if item == b"*" or item.removeprefix(b"W/") == tag:
            return True
    return False


def _with(send: Any, extra: list[tuple[bytes, bytes]]) -> Any:
    """``send`` with ``extra`` headers added to a successful answer (an error is no
    answer to keep: it gets the CORS headers alone)."""
    if not extra:
        return send
    always = [h for h in extra if h[0].startswith(b"access-control") or h[0] == b"vary"]

    async def sending(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            added = extra if message["status"] == 200 else always
            message = {**message, "headers": [*message.get("headers", ()), *added]}
        await send(message)

    return sending


async def _respond(send: Any, status: int, headers: list[tuple[bytes, bytes]]) -> None:
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": b""})
