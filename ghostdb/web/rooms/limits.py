"""The rooms' caps and the per-socket rate limit, as data: every number a room or a socket
is held to is here, so that the protocol's page, the tests and the code name the same.

Nothing here touches the network or the store: `Counts` counts what the hub holds, and
`TokenBucket` decides whether one more message may pass.
"""

from __future__ import annotations

import re
import time
from collections import Counter
from dataclasses import dataclass, field

MAX_FRAME = 4096
"""The largest message a socket takes (bytes of UTF-8): a bigger one is answered
``too_large`` and the socket closed with 1009."""
RATE = 10.0
"""Messages a second a socket may send, on average."""
BURST = 20
"""Messages a socket may send at once before `RATE` holds it back."""
FLOOD = 100
"""Refusals for speed in a row after which the socket is closed: a client that keeps
sending past its limit is not listening to the answers."""
MAX_ROOMS = 1000
"""Rooms open (not over) in this server, in all."""
MAX_ROOMS_PER_ADDRESS = 20
"""Open rooms that one address may have made."""
MAX_SOCKETS = 2000
"""Sockets open in this server, in all."""
MAX_SOCKETS_PER_ADDRESS = 50
"""Sockets open from one address."""
MAX_SPECTATORS = 50
"""Sockets that watch one room without a seat."""
ABANDON_AFTER = 3600.0
"""Seconds a room may wait for players with nothing happening and nobody connected
before the server closes it (`ghostdb.play.rooms.referee.abandoned`)."""
SWEEP_EVERY = 300.0
"""Seconds between a server's looks for such rooms."""
STALE_TRIES = 3
"""Times a join is tried again on a newer state before it is refused ``stale``."""
GRACE = 40.0
"""Seconds an absent person's seat waits before the computer plays it, until they return."""
HELLO_WITHIN = 10.0
"""Seconds a new socket has to say hello before it is closed: an idle socket holds a
place under the caps."""
MAX_BEHIND = 500
"""Events a reconnecting client may have missed and still be sent them one by one;
further behind, it is sent the whole state."""
SEND_QUEUE = 1000
"""Messages that may wait for a slow client; past them it is closed (1008), so that one
reader who does not read never holds the room's memory."""
BOT_DELAY = 0.4
"""Seconds a computer seat waits before it plays, so that people see each move."""
MAX_ID = 64
"""The longest message ``id`` (a text; or a whole number)."""
MAX_TOKEN = 100
"""The longest token a hello may carry (ours are 43 characters)."""
NAME_LENGTH = 40
"""A display name: 1 to 40 printable characters."""
ROOM_ID = re.compile(r"^[A-Za-z0-9_-]{1,32}$")
"""A room id as the log may hold one (ours are `secrets.token_urlsafe(16)`, 22
characters): anything else is no room, without asking the database."""


def clean_name(name: str) -> str:
    """A display name with the spaces around it taken off; ValueError unless it is 1 to
    `NAME_LENGTH` printable characters."""
    cleaned = name.strip()
    if not 1 <= len(cleaned) <= NAME_LENGTH or not cleaned.isprintable():
        raise ValueError(f"a name is 1 to {NAME_LENGTH} printable characters")
    return cleaned


@dataclass
class TokenBucket:
    """A socket's rate limit: `BURST` messages at once, refilled at `RATE` a second."""

    rate: float = RATE
    burst: float = BURST
    tokens: float = BURST
    stamp: float = field(default_factory=time.monotonic)

    def take(self, now: float | None = None) -> bool:
        """Whether one more message may pass now (it takes a token if so)."""
        now = time.monotonic() if now is None else now
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


@dataclass
class Counts:
    """What is open, in all and by address: sockets, and the rooms each address made."""

    sockets: Counter[str] = field(default_factory=Counter)
    max_sockets: int = MAX_SOCKETS
    max_sockets_per_address: int = MAX_SOCKETS_PER_ADDRESS

    def socket_refusal(self, address: str) -> str | None:
        """Why one more socket from ``address`` may not open (None: it may)."""
        if sum(self.sockets.values()) >= self.max_sockets:
            return "the server holds as many sockets as it may: try again later"
        if self.sockets[address] >= self.max_sockets_per_address:
            return f"an address may hold {self.max_sockets_per_address} sockets at once"
        return None

    def opened(self, address: str) -> None:
        self.sockets[address] += 1

    def closed(self, address: str) -> None:
        self.sockets[address] -= 1
        if self.sockets[address] <= 0:
            del self.sockets[address]


__all__ = [
    "ABANDON_AFTER",
    "BOT_DELAY",
    "BURST",
    "GRACE",
    "MAX_BEHIND",
    "MAX_FRAME",
    "MAX_ROOMS",
    "MAX_SOCKETS",
    "MAX_SPECTATORS",
    "RATE",
    "STALE_TRIES",
    "SWEEP_EVERY",
    "Counts",
    "TokenBucket",
    "clean_name",
]
