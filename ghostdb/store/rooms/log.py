"""Rooms: matches played by several people over the web, kept as append-only logs.

A room's state is event-sourced: the pure referee (`ghostdb.play.rooms`) turns what the
players do into events, JSON objects numbered ``v`` = 1, 2, 3, … within the room, and the
room is whatever its events add up to.  This module only keeps them: the rooms, their
seats and their events, in the tables ``rooms``, ``room_seats`` and ``room_events``
(`ghostdb.store.sql.schema`).  The bodies are opaque here, but for their ``v``, their
``type`` (kept in a column of its own) and a rematch's ``room``.

Writers of one room may run in several threads, processes or servers at once.  Each
writes only on top of the version it read: `RoomLog.append` moves ``rooms.version`` on
with ``UPDATE … WHERE version = :old`` and adds the events under the key (room, v), in
one transaction, so of two writers of the same version exactly one wins and the other
gets `Stale`, its transaction rolled back whole.  On PostgreSQL the second UPDATE waits
for the first writer's row lock and then finds the version moved on; on SQLite `writing`
takes the one write lock first.  The database is the referee between writers, not a lock
in this process: that is what makes it safe across processes and servers.

A seat's token is a secret of the person who holds the seat: only its SHA-256 is stored
(`ghostdb.store.rooms.rows.token_hash`), and `RoomLog.seat_of` compares hashes in
constant time, so neither a copy of the database nor the timing of a guess gives a seat
away.

These are the only tables the web server writes, and it opens its store read-only: a
read-only `Store` hands out a `RoomLog` over an engine of its own that may write (see
`ghostdb.store.store.Store.room_log`).
"""

from __future__ import annotations

import hmac
import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import bindparam, func, insert, inspect, select, text, update
from sqlalchemy.exc import IntegrityError

from ghostdb.errors import NoRooms, Stale
from ghostdb.store.rooms.announcements import CHANNEL, NOTIFY_ALL, announcement
from ghostdb.store.rooms.rows import (
    Append,
    check_size,
    dumps,
    event_rows,
    seat_row,
    token_hash,
)
from ghostdb.store.sql.db import current_revision, display_name, writing
from ghostdb.store.sql.schema import room_events, room_seats, rooms

if TYPE_CHECKING:
    from sqlalchemy.engine import Connection, Engine

"""What ``rooms.status`` may be: waiting for players, being played, over."""

TABLES = (rooms.name, room_seats.name, room_events.name)


@dataclass(frozen=True)
class SeatRow:
    """One seat of a room: its number (0 first), who plays it (``human`` or a computer
    strategy), the display name of the person who joined it, the SHA-256 of its token
    (None while nobody holds it) and when it was taken."""

    seat: int
    player: str
    name: str | None
    token_hash: str | None
    joined_at: datetime | None


@dataclass(frozen=True)
class RoomRow:
    """A room as stored: what is played (``name``, the dictionary or game, and ``rules``,
    the rule set's key), its settings, its status, the ``v`` of its last event
    (``version``), its timestamps (UTC), the id of its rematch room, and its seats."""

    id: str
    name: str
    rules: str
    settings: dict[str, Any]
    status: str
    version: int
    created_at: datetime
    updated_at: datetime
    rematch: str | None
    seats: tuple[SeatRow, ...]


class RoomLog:
    """The rooms of one database, their seats and their logs of events (SQL Core only,
    every value bound: the same statements on SQLite and PostgreSQL).  Safe to share
    between threads: it holds no state but the engine and whether the tables exist."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        # Set once the tables are found: a database is never downgraded under a running
        # server, so the check is made once, not at every request.
        self._ready = False

    # -- writing ---------------------------------------------------------------------------

    def create(
        self,
        room_id: str,
        name: str,
        rules: str,
        settings: dict[str, Any],
        seats: Sequence[tuple[str, str | None, str | None]],
        events: Sequence[dict[str, Any]],
    ) -> None:
        """Store a new room, status ``waiting``: its seats, given as (player, name,
        token_hash) in seat order, and its first events (``v`` 1, 2, …), in one
        transaction.  Raises `Stale` when a room of that id exists already (ids are
        random: make another), ValueError for values the tables cannot hold."""
        check_size(room_id, 32, "a room id")
        check_size(name, 100, "a room's name")
        check_size(rules, 200, "a room's rules")
        settings_json = dumps(settings)
        seat_rows = [seat_row(room_id, seat, *spec) for seat, spec in enumerate(seats)]
        first_rows = event_rows(room_id, events, first=1)
        self._check_tables()
        at = _now()
        for row in seat_rows:
            row["joined_at"] = at if row["name"] is not None or row["token_hash"] else None
        room = {
            "id": room_id,
            "name": name,
            "rules": rules,
            "settings": settings_json,
            "status": "waiting",
            "version": len(first_rows),
            "created_at": at,
            "updated_at": at,
            "rematch": None,
        }
        try:
            with writing(self.engine) as conn:
                conn.execute(insert(rooms), room)
                if seat_rows:
                    conn.execute(insert(room_seats), seat_rows)
                if first_rows:
                    conn.execute(insert(room_events), [{**r, "at": at} for r in first_rows])
        except IntegrityError:
            # Rolled back already (the `with` ended on the exception): nothing was stored.
            raise Stale(
                f"a room {room_id!r} exists already: make the new room another id"
            ) from None

    def append(
        self,
        room_id: str,
        events: Sequence[dict[str, Any]],
        *,
        status: str | None = None,
        seat_updates: Sequence[tuple[int, str, str]] = (),
    ) -> None:
        """Append ``events`` to the room's log, the first numbered one past the room's
        version, and in the same transaction move the version on, set ``status`` (if
        given) and the rematch room (from a ``rematch`` event's ``room``), and claim the
        seats of ``seat_updates``, each (seat, name, token_hash) and free until now.

        Raises `Stale`, changing nothing, when another writer got there first: the room
        is past the version these events follow, one of them is stored already, a seat
        was claimed meanwhile, or another rematch room was set.  Raises LookupError for a
        room or seat that does not exist, ValueError for events out of sequence or values
        the tables cannot hold."""
        prepared = Append.of(room_id, events, status=status, seat_updates=seat_updates)
        self._check_tables()
        self._alone(prepared)

    def append_many(self, appends: Sequence[Append]) -> list[Exception | None]:
        """Several rooms' appends (`Append.of`) in one transaction: what a server's rooms
        asked to write while its last write was committed.  For each, in order, None if
        it was written, else the exception `append` would have raised for it alone: one
        refused leaves the others.  The rooms are written in order of their ids, so that
        two servers' batches take the rooms' row locks in the same order and never
        deadlock.  An error of the whole transaction (the database gone) is raised, and
        nothing is written."""
        results: list[Exception | None] = [None] * len(appends)
        if not appends:
            return results
        self._check_tables()
        at = _now()
        order = sorted(range(len(appends)), key=lambda i: appends[i].room_id)
        try:
            with writing(self.engine) as conn:
                if self._moved_together(conn, appends, results, at):
                    self._add_events(
                        conn, [a for a, r in zip(appends, results, strict=True) if not r], at
                    )
                    return results
                written = []
                for i in order:
                    try:
                        if appends[i].claims:  # a seat found taken undoes the version's move
                            with conn.begin_nested():
                                self._move_on(conn, appends[i], at)
                        else:  # refused before it changes anything
                            self._move_on(conn, appends[i], at)
                    except (Stale, LookupError) as exc:
                        results[i] = exc
                        continue
                    written.append(appends[i])
                self._add_events(conn, written, at)
        except IntegrityError:
            # An event stored already: a log past its room's version, which the version's
            # check rules out unless the tables were changed by hand.  Each alone, then,
            # so that only the rooms at fault are refused.
            return [self._tried_alone(append) for append in appends]
        return results

    def _moved_together(
        self,
        conn: Connection,
        appends: Sequence[Append],
        results: list[Exception | None],
        at: datetime,
    ) -> bool:
        """Move on the versions of a batch of plain appends (a move, a word: no seat
        claimed, no rematch named, one a room) in one statement, noting in ``results``
        the rooms refused; False, having done nothing, for a batch that is not plain (it
        is written a room at a time, in the rooms' order, as `append_many` says).  A
        statement a room would cost a round trip and SQLAlchemy's work each: the busier
        the server, the bigger the batch, and the longer its transaction would hold the
        rooms it has moved."""
        ids = [a.room_id for a in appends]
        if len(set(ids)) != len(ids) or any(a.claims or a.rematch for a in appends):
            return False
        params: dict[str, Any] = {"at": at}
        values = []
        for k, append in enumerate(appends):
            values.append(
                f"(CAST(:i{k} AS VARCHAR(32)), CAST(:o{k} AS INTEGER), "
                f"CAST(:n{k} AS INTEGER), CAST(:s{k} AS VARCHAR(16)))"
            )
            params.update(
                {
                    f"i{k}": append.room_id,
                    f"o{k}": append.rows[0]["v"] - 1,
                    f"n{k}": append.rows[-1]["v"],
                    f"s{k}": append.status,
                }
            )
        # VALUES' columns are column1, column2, … on SQLite and PostgreSQL alike.
        stmt = text(
            f"UPDATE {rooms.name} SET version = v.column3, updated_at = :at, "
            f"status = COALESCE(v.column4, {rooms.name}.status) "
            f"FROM (VALUES {', '.join(values)}) AS v "
            f"WHERE {rooms.name}.id = v.column1 AND {rooms.name}.version = v.column2 "
            f"RETURNING {rooms.name}.id"
        ).bindparams(bindparam("at", type_=rooms.c.updated_at.type))
        moved = set(conn.execute(stmt, params).scalars())
        for k, append in enumerate(appends):
            if append.room_id not in moved:
                try:
                    self._stale_or_missing(conn, append.room_id)
                except (Stale, LookupError) as exc:
                    results[k] = exc
        return True

    def _alone(self, append: Append) -> None:
        """One append in a transaction of its own (see `append`)."""
        try:
            with writing(self.engine) as conn:
                at = _now()
                self._move_on(conn, append, at)
                self._add_events(conn, [append], at)
        except IntegrityError:
            raise _stale(append.room_id) from None

    def _tried_alone(self, append: Append) -> Exception | None:
        try:
            self._alone(append)
        except (Stale, LookupError) as exc:
            return exc
        return None

    def _move_on(self, conn: Connection, append: Append, at: datetime) -> None:
        """Move the room's version on past the append's events, and claim its seats;
        Stale (or LookupError) when another writer got there first (see `append`)."""
        room_id, rows = append.room_id, append.rows
        old, new = rows[0]["v"] - 1, rows[-1]["v"]
        values: dict[str, Any] = {"version": new, "updated_at": at}
        if append.status is not None:
            values["status"] = append.status
        where = [rooms.c.id == room_id, rooms.c.version == old]
        if append.rematch is not None:
            values["rematch"] = append.rematch
            # Idempotent: the same rematch room again is no conflict, another one is.
            where.append((rooms.c.rematch.is_(None)) | (rooms.c.rematch == append.rematch))
        # First, so that on PostgreSQL a second writer of this room waits here for the
        # first one's row lock and then finds the version moved on.
        moved = conn.execute(update(rooms).where(*where).values(values)).rowcount
        if moved != 1:
            self._stale_or_missing(conn, room_id)
        for seat, name, hashed in append.claims:
            stmt = (
                update(room_seats)
                .where(
                    room_seats.c.room_id == room_id,
                    room_seats.c.seat == seat,
                    room_seats.c.token_hash.is_(None),  # only a free seat is claimed
                )
                .values(name=name, token_hash=hashed, joined_at=at)
            )
            if conn.execute(stmt).rowcount != 1:
                self._seat_taken_or_missing(conn, room_id, seat)

    def _add_events(self, conn: Connection, appends: Sequence[Append], at: datetime) -> None:
        """Store the events of appends whose versions have moved on, in one statement, and
        on PostgreSQL announce each append in one more."""
        if not appends:
            return
        # A duplicate (room_id, v) here means the log is past the version the room row
        # says: the key refuses it, and the whole transaction rolls back.
        conn.execute(insert(room_events), [{**r, "at": at} for a in appends for r in a.rows])
        if conn.dialect.name == "postgresql":
            # Delivered at commit, and only then: every server's relay
            # (`ghostdb.web.rooms.relay`) applies the events each carries, or reads them.
            payloads = [announcement(a.room_id, a.rows[-1]["v"], a.rows) for a in appends]
            conn.execute(NOTIFY_ALL, {"channel": CHANNEL, "payloads": payloads})

    def announce(self, channel: str, payloads: Sequence[str]) -> None:
        """Send ``payloads`` on a PostgreSQL ``channel`` (``NOTIFY``): word between
        servers that is not kept (see `ghostdb.web.rooms.presence`)."""
        with self.engine.begin() as conn:
            conn.execute(NOTIFY_ALL, {"channel": channel, "payloads": list(payloads)})

    def set_rematch(self, room_id: str, rematch_id: str) -> bool:
        """Name ``rematch_id`` the room's rematch unless one is named already; whether this
        call named it (when not, `room` tells which room is the rematch; False also for
        a room that does not exist).  Two players asking for a rematch at once thus end
        up in the same room."""
        check_size(rematch_id, 32, "a rematch room's id")
        self._check_tables()
        stmt = (
            update(rooms)
            .where(rooms.c.id == room_id, rooms.c.rematch.is_(None))
            .values(rematch=rematch_id, updated_at=_now())
        )
        with writing(self.engine) as conn:
            return conn.execute(stmt).rowcount == 1

    # -- reading ---------------------------------------------------------------------------

    def events(
        self, room_id: str, since: int = 0, limit: int | None = None
    ) -> list[dict[str, Any]]:
        """The events of the room numbered past ``since``, in order (at most ``limit``):
        their bodies as stored.  Empty for a room that does not exist."""
        if limit is not None and limit < 0:
            raise ValueError(f"limit must not be negative, not {limit}")
        self._check_tables()
        stmt = (
            select(room_events.c.body)
            .where(room_events.c.room_id == room_id, room_events.c.v > since)
            .order_by(room_events.c.v)
            .limit(limit)
        )
        with self.engine.connect() as conn:
            return [json.loads(body) for body in conn.execute(stmt).scalars()]

    def room(self, room_id: str) -> RoomRow | None:
        """The room and its seats, or None if there is no such room."""
        self._check_tables()
        # One statement, so that the room and its seats are read in one snapshot on
        # PostgreSQL too (two would each see the writers committed before them).
        stmt = (
            select(
                rooms,
                room_seats.c.seat,
                room_seats.c.player,
                room_seats.c.name.label("seat_name"),
                room_seats.c.token_hash,
                room_seats.c.joined_at,
            )
            .select_from(rooms.outerjoin(room_seats, room_seats.c.room_id == rooms.c.id))
            .where(rooms.c.id == room_id)
            .order_by(room_seats.c.seat)
        )
        with self.engine.connect() as conn:
            rows = conn.execute(stmt).all()
        if not rows:
            return None
        top = rows[0]
        seats = tuple(
            SeatRow(
                r.seat,
                r.player,
                r.seat_name,
                r.token_hash,
                None if r.joined_at is None else _utc(r.joined_at),
            )
            for r in rows
            if r.seat is not None  # a room without seats: the outer join's one empty row
        )
        return RoomRow(
            id=top.id,
            name=top.name,
            rules=top.rules,
            settings=json.loads(top.settings),
            status=top.status,
            version=top.version,
            created_at=_utc(top.created_at),
            updated_at=_utc(top.updated_at),
            rematch=top.rematch,
            seats=seats,
        )

    def seat_of(self, room_id: str, token: str) -> int | None:
        """The seat of the room that ``token`` holds, or None (no such seat or room).

        Every seat's hash is compared, each in constant time, so how long the answer
        takes says nothing of how close a guess came, nor which seat it matched."""
        self._check_tables()
        stmt = select(room_seats.c.seat, room_seats.c.token_hash).where(
            room_seats.c.room_id == room_id
        )
        with self.engine.connect() as conn:
            stored = conn.execute(stmt).all()
        wanted = token_hash(token).encode("ascii")
        found = None
        for seat, hashed in stored:
            # A free seat is compared with a hash no token has, to take the same time.
            theirs = (hashed or "-" * 64).encode("ascii")
            if hmac.compare_digest(wanted, theirs) and found is None:
                found = seat
        return found

    def unfinished(self) -> list[str]:
        """The ids of the rooms not over yet, oldest first: what a restarted server takes
        up again."""
        self._check_tables()
        stmt = (
            select(rooms.c.id)
            .where(rooms.c.status != "over")
            .order_by(rooms.c.created_at, rooms.c.id)
        )
        with self.engine.connect() as conn:
            return list(conn.execute(stmt).scalars())

    def count(self, status: str | None = None) -> int:
        """How many rooms there are (with ``status``, if given)."""
        self._check_tables()
        stmt = select(func.count()).select_from(rooms)
        if status is not None:
            stmt = stmt.where(rooms.c.status == status)
        with self.engine.connect() as conn:
            return int(conn.execute(stmt).scalar_one())

    # -- checks ----------------------------------------------------------------------------

    def _check_tables(self) -> None:
        """Raise NoRooms for a database whose schema predates the rooms' tables: its own
        message rather than the driver's ``no such table``, saying what to do."""
        if self._ready:
            return
        with self.engine.connect() as conn:
            found = inspect(conn)
            if all(found.has_table(name) for name in TABLES):
                self._ready = True
                return
            revision = current_revision(conn)
        raise NoRooms(
            f"the database {display_name(str(self.engine.url))} (schema revision "
            f"{revision or 'none'}) predates rooms: run `ghostdb db upgrade` first"
        )

    def _stale_or_missing(self, conn: Connection, room_id: str) -> None:
        """Why the version did not move: no such room (LookupError), else another writer
        (Stale).  Raises either way, within the transaction, which then rolls back."""
        found = conn.execute(select(rooms.c.version).where(rooms.c.id == room_id)).first()
        if found is None:
            raise LookupError(f"no room {room_id!r} is stored")
        raise _stale(room_id)

    def _seat_taken_or_missing(self, conn: Connection, room_id: str, seat: int) -> None:
        """Why a seat was not claimed: no such seat (LookupError), else taken (Stale)."""
        stmt = select(room_seats.c.seat).where(
            room_seats.c.room_id == room_id, room_seats.c.seat == seat
        )
        if conn.execute(stmt).first() is None:
            raise LookupError(f"room {room_id!r} has no seat {seat}")
        raise Stale(
            f"seat {seat} of room {room_id!r} was taken meanwhile: read the room's new "
            "events and try again"
        )


# -- values ------------------------------------------------------------------------------------


def _now() -> datetime:
    return datetime.now(UTC)


def _utc(value: datetime) -> datetime:
    """A stored time as an aware UTC datetime: SQLite gives it back naive (it was written
    in UTC), PostgreSQL in the session's time zone."""
    if value.tzinfo is None:
        return value.replace(tzinfo=UTC)
    return value.astimezone(UTC)


def _stale(room_id: str) -> Stale:
    return Stale(
        f"another writer changed room {room_id!r} first: read its new events and try again"
    )
