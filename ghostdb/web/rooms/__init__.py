"""Rooms over the web: several people (and computer seats) play one match together, over
a WebSocket, refereed by `ghostdb.play.rooms` and kept in the store's log of events
(`ghostdb.store.rooms.log`), which is the only thing the web server writes.

* `hub`: the rooms this process holds (state, judge, lock, sockets, timer): every change
  is decided, committed to the log, and only then applied and sent; computer seats,
  stand-ins for absent people and the turn clock play through the same path; a server
  that starts takes up every unfinished room from its log.
* `writer`: the rooms' appends to their logs, queued and committed together.
* `room`: one room as the server holds it (state, judge, lock, sockets, recent
  messages), when its next turn without a message falls due, the computer's turn.
* `socket`: the WebSocket endpoint and the protocol, described in full in its docstring.
* `routes`: the HTTP routes (make, join, look at, download, rematch), in the OpenAPI
  schema.
* `wire`: the protocol's messages, checked or made, and one socket's send queue.
* `limits`: the caps and the per-socket rate limit, as data.
* `relay`: rooms shared by several servers (PostgreSQL's announcements of commits; on
  SQLite, one server a file).
* `presence`: which seats each of several servers holds a socket of, told to the others.
* `rematches`: a finished match's one rematch room, and each seat given in it.
* `page`: the room's link (``/rooms/{id}``) serves the page.
"""

from __future__ import annotations

from collections.abc import Sequence

from fastapi import FastAPI

from ghostdb.store import Store
from ghostdb.web.rooms.hub import Hub
from ghostdb.web.rooms.routes import add_room_routes
from ghostdb.web.rooms.socket import add_socket


def add_rooms(
    app: FastAPI, store: Store, cors: Sequence[str] = (), *, address_caps: bool = True
) -> Hub:
    """The rooms' routes and socket on ``app``, and their `Hub` (also ``app.state.hub``);
    the app's lifespan starts and stops it.  Without ``address_caps`` only the caps in
    all hold (a server behind a proxy sees every client at the proxy's address)."""
    hub = Hub(store, address_caps=address_caps)
    app.state.hub = hub
    add_room_routes(app, hub, cors)
    add_socket(app, hub, cors)
    return hub


__all__ = ["Hub", "add_rooms"]
