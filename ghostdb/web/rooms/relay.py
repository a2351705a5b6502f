"""Rooms shared by several servers: each commit announced, every server told.

On PostgreSQL, `ghostdb.store.rooms.log.RoomLog.append` announces every committed append on
the channel ``ghostdb_rooms`` (``NOTIFY``, delivered at commit and only then).  Each
server runs one `Relay`: a thread holding a connection that ``LISTEN``s there and hands
each announcement to the server's hub on its event loop, which sends the room's new
events to its own sockets.  An announcement carries the events as they were committed
(`ghostdb.store.rooms.log.announcement`), so a server applies them without reading the
log back; it reads the log when they are too long to carry, or when a gap in the
versions shows it missed some.  The log stays the only truth: an announcement is sent
by the committing transaction and delivered only once it has committed.  The same
connection hears the servers' presence (`ghostdb.web.rooms.presence`).

A relay whose connection drops (a restarted database, ``pg_terminate_backend``, a
network cut) connects again and asks the hub to resynchronise every room it holds from
the log, since announcements made meanwhile are lost.  The same happens when it first
listens, so nothing committed before it was listening is missed.

SQLite has no such channel: one server a database file.  `FileClaim` tells a server
that another one already serves rooms from the same file.
"""

from __future__ import annotations

import asyncio
import fcntl
import logging
import os
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ghostdb.store.rooms.announcements import CHANNEL, announced
from ghostdb.web.rooms.presence import CHANNEL as PRESENCE

log = logging.getLogger("ghostdb.rooms")

RETRY_SECONDS = (0.2, 0.5, 1.0, 2.0, 5.0)
"""How long a relay waits before connecting again, after each failure in a row."""
APP = "ghostdb-relay"
"""The relay connection's application_name."""
POLL_SECONDS = 0.5
"""How often the listening thread looks up from waiting (to notice it is stopped)."""


class Relay:
    """Announcements of commits to the rooms, from any server, handed to this one's hub.

    ``on_commit(room_id, version, events)`` (``events`` None when the announcement did
    not carry them) and ``on_resync()`` are called on ``loop``, never on the relay's
    thread.
    """

    def __init__(
        self,
        url: str,
        loop: asyncio.AbstractEventLoop,
        on_commit: Callable[[str, int, list[dict[str, Any]] | None], Any],
        on_resync: Callable[[], Any],
        on_presence: Callable[[str], Any] = lambda payload: None,
    ) -> None:
        from sqlalchemy.engine import make_url

        # libpq reads the URL without SQLAlchemy's driver name (host=/socket folders too).
        bare = make_url(url).set(drivername="postgresql")
        self.conninfo = bare.render_as_string(hide_password=False)
        self.loop, self.on_commit, self.on_resync = loop, on_commit, on_resync
        self.on_presence = on_presence
        self.stopped = threading.Event()
        self.listening = threading.Event()
        """Set while a connection is listening (tests wait for it)."""
        self.connects = 0
        """How many times a connection has started listening (1 + reconnections)."""
        self.backend_pid: int | None = None
        self.thread = threading.Thread(target=self._run, name="ghostdb-relay", daemon=True)

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> None:
        self.stopped.set()
        self.thread.join(timeout=5)

    def _run(self) -> None:
        failures = 0
        while not self.stopped.is_set():
            try:
                self._listen()
                failures = 0
            except Exception:  # a dropped or refused connection: connect again
                self.listening.clear()
                wait = RETRY_SECONDS[min(failures, len(RETRY_SECONDS) - 1)]
                failures += 1
                self.stopped.wait(wait)

    def _listen(self) -> None:
        import psycopg

        # Named, so that an operator (or a test) finds the relays in pg_stat_activity.
        with psycopg.connect(self.conninfo, autocommit=True, application_name=APP) as conn:
            conn.execute(f"LISTEN {CHANNEL}")
            conn.execute(f"LISTEN {PRESENCE}")
            self.backend_pid = conn.info.backend_pid
            self.connects += 1
            self.listening.set()
            self._call(self.on_resync)  # what was committed while nobody listened
            while not self.stopped.is_set():
                for note in conn.notifies(timeout=POLL_SECONDS):
                    if note.channel == PRESENCE:
                        self._call(self.on_presence, note.payload)
                        continue
                    found = announced(note.payload)
                    if found is not None:
                        self._call(self.on_commit, *found)
                # A connection killed while idle is only noticed when used.
                conn.execute("SELECT 1")

    def _call(self, function: Callable[..., Any], *args: Any) -> None:
        def run() -> None:
            result = function(*args)
            if asyncio.iscoroutine(result):
                self.loop.create_task(result)

        try:
            self.loop.call_soon_threadsafe(run)
        except RuntimeError:  # the loop has closed: the server is stopping
            self.stopped.set()


def share(
    url: Any,
    loop: asyncio.AbstractEventLoop,
    on_commit: Callable[[str, int, list[dict[str, Any]] | None], Any],
    on_resync: Callable[[], Any],
    on_presence: Callable[[str], Any] = lambda payload: None,
) -> Relay | FileClaim | None:
    """What lets this server share its rooms, to stop when it stops: on PostgreSQL a
    started `Relay`; on SQLite a `FileClaim` on the database file, after a warning when
    another server holds one already."""
    if url.get_backend_name() == "postgresql":
        relay = Relay(
            url.render_as_string(hide_password=False), loop, on_commit, on_resync, on_presence
        )
        relay.start()
        return relay
    if not url.database or url.database == ":memory:":
        return None
    claim = FileClaim(Path(url.database))
    if claim.warning:
        log.warning("%s", claim.warning)
        print(f"warning: {claim.warning}", file=sys.stderr, flush=True)
    return claim


class FileClaim:
    """On SQLite, this server's claim to play the rooms of a database file: ``flock`` on
    the file itself, independent of SQLite's own byte-range locks, gone with the process
    however it ends, and no file created.  ``warning`` says what to tell the user when
    another server holds it already."""

    def __init__(self, database: Path) -> None:
        self.fd: int | None = None
        self.warning: str | None = None
        try:
            fd = os.open(database, os.O_RDONLY)
        except OSError:
            return
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            self.warning = (
                f"another ghostdb serve already plays rooms on {database.name}: on SQLite "
                "one server holds the rooms, and moves made through the other are not "
                "relayed here; serve from PostgreSQL to share rooms between servers"
            )
            return
        self.fd = fd

    def stop(self) -> None:
        if self.fd is not None:
            os.close(self.fd)  # the lock goes with the descriptor
            self.fd = None
