"""A committed append, announced to every server (PostgreSQL's ``NOTIFY``): what
`ghostdb.store.rooms.log.RoomLog` sends in the committing transaction, and what each
server's relay (`ghostdb.web.rooms.relay`) reads back."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from sqlalchemy import text

CHANNEL = "ghostdb_rooms"
"""The PostgreSQL channel a committed append is announced on (`announcement`)."""
NOTIFY_ALL = text("SELECT pg_notify(:channel, p) FROM unnest(CAST(:payloads AS text[])) AS p")
"""Every announcement of a batch, in one statement (PostgreSQL only)."""
MAX_ANNOUNCEMENT = 7900
"""The longest announcement that carries its events: PostgreSQL's payloads end at 8,000
bytes; a longer append is announced by its room and version alone."""


def announcement(room_id: str, version: int, rows: Sequence[dict[str, Any]]) -> str:
    """What a committed append announces on `CHANNEL`: ``room_id:version:[events]``, the
    events as stored, so that no server has to read them back; ``room_id:version`` alone
    when they would pass `MAX_ANNOUNCEMENT` (a round's verdicts can)."""
    head = f"{room_id}:{version}"
    events = "[" + ",".join(r["body"] for r in rows) + "]"
    if len(head) + 1 + len(events.encode("utf-8")) > MAX_ANNOUNCEMENT:
        return head
    return f"{head}:{events}"


def announced(payload: str) -> tuple[str, int, list[dict[str, Any]] | None] | None:
    """An announcement read back: (room id, version, its events or None when it carries
    none); None for a payload that is not one (another program on the channel)."""
    room_id, _, rest = payload.partition(":")
    version, _, events = rest.partition(":")
    if not room_id or not version.isdigit():
        return None
    if not events:
        return room_id, int(version), None
    try:
        found = json.loads(events)
    except ValueError:
        return room_id, int(version), None
    if not isinstance(found, list) or not all(isinstance(e, dict) for e in found):
        return room_id, int(version), None
    return room_id, int(version), found


__all__ = ["CHANNEL", "MAX_ANNOUNCEMENT", "NOTIFY_ALL", "announced", "announcement"]
