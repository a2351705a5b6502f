"""A room's values as the tables keep them, checked and serialised before any
transaction begins (`ghostdb.store.rooms.log`): a value the tables cannot hold, or a token
passed where its hash goes, fails before anything is written, the same on SQLite (which
would store it) and PostgreSQL (which would refuse it mid-transaction)."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

STATUSES = ("waiting", "playing", "over")
"""What ``rooms.status`` may be: waiting for players, being played, over."""
HASH = re.compile(r"[0-9a-f]{64}")
"""A SHA-256 hex digest, as `token_hash` makes it."""


def token_hash(token: str) -> str:
    """The SHA-256 (hex) of a seat's token: what is stored and compared in its place."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Append:
    """One room's events to append (`RoomLog.append`), checked and serialised: made by
    `Append.of` before any transaction, so a value the tables cannot hold fails first."""

    room_id: str
    rows: list[dict[str, Any]]
    status: str | None
    claims: list[tuple[int, str, str]]
    rematch: str | None

    @classmethod
    def of(
        cls,
        room_id: str,
        events: Sequence[dict[str, Any]],
        *,
        status: str | None = None,
        seat_updates: Sequence[tuple[int, str, str]] = (),
    ) -> Append:
        """Raises ValueError (TypeError for a body that is not JSON) as `RoomLog.append`."""
        if not events:
            raise ValueError("append needs at least one event: the version moves on with them")
        first = events[0].get("v")
        if not isinstance(first, int) or isinstance(first, bool) or first < 1:
            raise ValueError(f"an event's v must be a whole number from 1, not {first!r}")
        rows = event_rows(room_id, events, first=first)
        if status is not None and status not in STATUSES:
            raise ValueError(f"a room's status is one of {', '.join(STATUSES)}, not {status!r}")
        claims = [claim(*update_) for update_ in seat_updates]
        # The last rematch event names the room (a log holds one, but the last one wins).
        rematch = None
        for event in events:
            if event.get("type") == "rematch" and event.get("room") is not None:
                rematch = event["room"]
                check_size(rematch, 32, "a rematch room's id")
        return cls(room_id, rows, status, claims, rematch)


def dumps(value: Any) -> str:
    # Compact, and not escaped to ASCII: bodies are read back by json.loads, not by eye.
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def check_size(value: object, size: int, what: str) -> None:
    """Refuse a value longer than its column: PostgreSQL would refuse it too, but SQLite
    would store it, and the two must agree."""
    if not isinstance(value, str) or not value or len(value) > size:
        raise ValueError(f"{what} must be text of 1 to {size} characters, not {value!r}")


def check_hash(value: object) -> None:
    """Refuse anything but a SHA-256 hex digest where a token's hash goes: a token passed
    by mistake must never be stored in clear."""
    if not isinstance(value, str) or not HASH.fullmatch(value):
        raise ValueError("a seat's token_hash must be token_hash(token), never the token")


def seat_row(
    room_id: str, seat: int, player: str, name: str | None, hashed: str | None
) -> dict[str, Any]:
    check_size(player, 40, "a seat's player")
    if name is not None:
        check_size(name, 40, "a seat's name")
    if hashed is not None:
        check_hash(hashed)
    return {"room_id": room_id, "seat": seat, "player": player, "name": name, "token_hash": hashed}


def claim(seat: int, name: str, hashed: str) -> tuple[int, str, str]:
    if not isinstance(seat, int) or isinstance(seat, bool) or seat < 0:
        raise ValueError(f"a seat is a whole number from 0, not {seat!r}")
    check_size(name, 40, "a seat's name")
    check_hash(hashed)
    return seat, name, hashed


def event_rows(
    room_id: str, events: Sequence[dict[str, Any]], *, first: int
) -> list[dict[str, Any]]:
    """The rows of ``events``, checked to be numbered ``first``, ``first`` + 1, … and to
    have a type; serialised before the transaction, so a body that is not JSON fails
    before anything is written."""
    rows = []
    for number, event in enumerate(events, start=first):
        if not isinstance(event, dict):
            raise ValueError(f"an event is a JSON object, not {event!r}")
        v = event.get("v")
        if v != number or isinstance(v, bool):
            raise ValueError(f"event {number} of room {room_id!r} is numbered {v!r}")
        kind = event.get("type")
        check_size(kind, 24, "an event's type")
        rows.append({"room_id": room_id, "v": number, "type": kind, "body": dumps(event)})
    return rows


__all__ = [
    "HASH",
    "STATUSES",
    "Append",
    "check_hash",
    "check_size",
    "claim",
    "dumps",
    "event_rows",
    "seat_row",
    "token_hash",
]
