"""The rooms' store (`ghostdb.store.rooms.log`): rooms, seats and append-only logs of events,
written atomically, and of two writers of one version exactly one wins.

The core tests run on SQLite and, when ``GHOSTDB_TEST_POSTGRES_URL`` names a scratch
database (its ghostdb tables are dropped first), on PostgreSQL too.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from conftest import POSTGRES_SKIP, dump, reset_postgres
from sqlalchemy import delete, insert, select, text
from sqlalchemy.exc import OperationalError

from ghostdb import open_store
from ghostdb.errors import DatabaseError, GhostdbError, NoRooms, Stale
from ghostdb.store.rooms.announcements import announced, announcement
from ghostdb.store.rooms.log import RoomLog, RoomRow, SeatRow
from ghostdb.store.rooms.rows import Append, token_hash
from ghostdb.store.sql.db import make_engine, upgrade
from ghostdb.store.sql.schema import room_events, room_seats, rooms

PG_URL = os.environ.get("GHOSTDB_TEST_POSTGRES_URL", "")

ALICE, BOB, CAROL = "alice-token-Zq3", "bob-token-Xy9", "carol-token-Wv7"


@pytest.fixture(scope="module")
def pg_ready() -> bool:
    """The scratch PostgreSQL database, its ghostdb tables dropped once and the schema
    made again (each test then empties the rooms' tables)."""
    if not PG_URL:
        pytest.skip(POSTGRES_SKIP)
    reset_postgres(PG_URL)
    with open_store(PG_URL, create=True):
        pass
    return True


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A database at the head revision with no room in it, on each backend."""
    if request.param == "sqlite":
        path = tmp_path / "ghost.db"
        with open_store(path, create=True):
            pass
        return str(path)
    request.getfixturevalue("pg_ready")
    engine = make_engine(PG_URL)
    try:
        with engine.begin() as conn:
            for table in (room_events, room_seats, rooms):
                conn.execute(delete(table))
    finally:
        engine.dispose()
    return PG_URL


@pytest.fixture
def log(url: str) -> Iterator[RoomLog]:
    with open_store(url, create=True) as store:
        yield store.rooms


def new_room(log: RoomLog, room_id: str = "r1", *, seats: int = 2) -> None:
    """A room of ``seats`` human seats, the first one Alice's, with one event."""
    specs: list[tuple[str, str | None, str | None]] = [("human", "Alice", token_hash(ALICE))]
    specs += [("human", None, None)] * (seats - 1)
    log.create(
        room_id,
        "five",
        "ghost/3",
        {"clock": 30, "names": ["Ålice"]},
        specs,
        [{"v": 1, "type": "created", "by": 0}],
    )


def snapshot(log: RoomLog) -> list[list[tuple[Any, ...]]]:
    """Every row of the rooms' tables: equal snapshots, equal rooms."""
    with log.engine.connect() as conn:
        return [
            sorted((tuple(r) for r in conn.execute(select(table))), key=repr)
            for table in (rooms, room_seats, room_events)
        ]


def unchanged(log: RoomLog, url: str) -> Callable[[], None]:
    """A check that nothing in the database changed since this call (on SQLite the whole
    file's dump, elsewhere the rooms' tables)."""
    before = snapshot(log)
    before_dump = dump(Path(url)) if not url.startswith("postgresql") else None

    def check() -> None:
        assert snapshot(log) == before
        if before_dump is not None:
            assert dump(Path(url)) == before_dump

    return check


# -- the core, on each backend --------------------------------------------------------------


def test_a_room_is_created_and_read_back(log: RoomLog) -> None:
    new_room(log, seats=3)
    room = log.room("r1")
    assert isinstance(room, RoomRow)
    assert (room.id, room.name, room.rules, room.status, room.version, room.rematch) == (
        "r1",
        "five",
        "ghost/3",
        "waiting",
        1,
        None,
    )
    assert room.settings == {"clock": 30, "names": ["Ålice"]}
    assert [(s.seat, s.player, s.name, s.token_hash) for s in room.seats] == [
        (0, "human", "Alice", token_hash(ALICE)),
        (1, "human", None, None),
        (2, "human", None, None),
    ]
    assert all(isinstance(s, SeatRow) for s in room.seats)
    assert room.seats[0].joined_at is not None and room.seats[1].joined_at is None
    for moment in (room.created_at, room.updated_at, room.seats[0].joined_at):
        assert moment.tzinfo is not None and moment.utcoffset().total_seconds() == 0
        assert moment.tzinfo == UTC
    assert log.events("r1") == [{"v": 1, "type": "created", "by": 0}]
    assert log.room("nope") is None and log.events("nope") == []


def test_a_room_without_seats_or_events(log: RoomLog) -> None:
    log.create("empty", "chopsticks", "chopsticks/5", {}, [], [])
    room = log.room("empty")
    assert room is not None and room.seats == () and room.version == 0
    log.append("empty", [{"v": 1, "type": "started"}], status="playing")
    assert log.room("empty").version == 1  # type: ignore[union-attr]


def test_append_moves_the_version_status_and_seats_on_together(log: RoomLog) -> None:
    new_room(log)
    created = log.room("r1")
    assert created is not None
    log.append(
        "r1",
        [{"v": 2, "type": "joined", "seat": 1}, {"v": 3, "type": "started"}],
        status="playing",
        seat_updates=[(1, "Bob", token_hash(BOB))],
    )
    room = log.room("r1")
    assert room is not None
    assert (room.version, room.status) == (3, "playing")
    assert room.updated_at >= created.updated_at and room.created_at == created.created_at
    assert (room.seats[1].name, room.seats[1].token_hash) == ("Bob", token_hash(BOB))
    assert room.seats[1].joined_at is not None
    log.append("r1", [{"v": 4, "type": "move", "letter": "g", "note": "ß → ẞ"}])
    assert [e["v"] for e in log.events("r1")] == [1, 2, 3, 4]
    assert log.events("r1", since=2) == [
        {"v": 3, "type": "started"},
        {"v": 4, "type": "move", "letter": "g", "note": "ß → ẞ"},
    ]
    assert [e["v"] for e in log.events("r1", since=1, limit=2)] == [2, 3]
    assert log.events("r1", since=4) == [] and log.events("r1", limit=0) == []
    assert log.room("r1").status == "playing"  # type: ignore[union-attr]  # kept
    with log.engine.connect() as conn:
        types = conn.execute(
            select(room_events.c.type).where(room_events.c.room_id == "r1").order_by("v")
        ).scalars()
        assert list(types) == ["created", "joined", "started", "move"]


def test_seat_of_finds_the_seat_of_a_token(log: RoomLog) -> None:
    new_room(log, seats=3)
    log.append("r1", [{"v": 2, "type": "joined"}], seat_updates=[(2, "Carol", token_hash(CAROL))])
    assert log.seat_of("r1", ALICE) == 0
    assert log.seat_of("r1", CAROL) == 2
    assert log.seat_of("r1", BOB) is None  # seat 1 is free: no token matches it
    assert log.seat_of("r1", "") is None
    assert log.seat_of("r1", token_hash(ALICE)) is None  # the hash is not the token
    assert log.seat_of("nope", ALICE) is None


def test_unfinished_and_count(log: RoomLog) -> None:
    assert (log.count(), log.unfinished()) == (0, [])
    for room_id in ("a", "b", "c"):
        new_room(log, room_id)
    log.append("b", [{"v": 2, "type": "started"}], status="playing")
    log.append("c", [{"v": 2, "type": "over"}], status="over")
    assert log.unfinished() == ["a", "b"]
    assert log.count() == 3
    assert [log.count(s) for s in ("waiting", "playing", "over")] == [1, 1, 1]


def test_set_rematch_sets_it_once(log: RoomLog) -> None:
    new_room(log)
    assert log.set_rematch("r1", "r2") is True
    assert log.set_rematch("r1", "r3") is False
    assert log.room("r1").rematch == "r2"  # type: ignore[union-attr]
    assert log.set_rematch("nope", "r2") is False


def test_a_rematch_event_names_the_rematch_room(log: RoomLog, url: str) -> None:
    new_room(log)
    log.append("r1", [{"v": 2, "type": "rematch", "room": "r2"}], status="over")
    assert log.room("r1").rematch == "r2"  # type: ignore[union-attr]
    assert log.set_rematch("r1", "r3") is False
    # The same room again is no conflict; another one is: Stale, and nothing changes.
    log.append("r1", [{"v": 3, "type": "rematch", "room": "r2"}])
    check = unchanged(log, url)
    with pytest.raises(Stale):
        log.append("r1", [{"v": 4, "type": "rematch", "room": "r9"}])
    check()


def test_a_wrong_version_is_stale_and_changes_nothing(log: RoomLog, url: str) -> None:
    new_room(log)
    log.append("r1", [{"v": 2, "type": "joined"}])
    check = unchanged(log, url)
    for events in ([{"v": 2, "type": "late"}], [{"v": 4, "type": "early"}]):
        with pytest.raises(Stale, match="read its new events and try again"):
            log.append("r1", events, status="over", seat_updates=[(1, "Bob", token_hash(BOB))])
    check()


def test_a_duplicate_event_is_stale_and_changes_nothing(log: RoomLog, url: str) -> None:
    """A log already past the room's version (a row written by another writer) refuses
    the duplicate by its key; the room's version and seats roll back with it."""
    new_room(log)
    with log.engine.begin() as conn:
        conn.execute(
            insert(room_events).values(
                room_id="r1", v=3, type="stray", body='{"v":3,"type":"stray"}', at=datetime.now(UTC)
            )
        )
    check = unchanged(log, url)
    with pytest.raises(Stale):
        log.append(
            "r1",
            [{"v": 2, "type": "joined"}, {"v": 3, "type": "started"}],
            status="playing",
            seat_updates=[(1, "Bob", token_hash(BOB))],
        )
    check()
    assert log.room("r1").version == 1  # type: ignore[union-attr]


def test_a_taken_seat_is_stale_and_changes_nothing(log: RoomLog, url: str) -> None:
    new_room(log)
    check = unchanged(log, url)
    with pytest.raises(Stale, match="seat 0"):
        log.append("r1", [{"v": 2, "type": "joined"}], seat_updates=[(0, "Eve", token_hash(BOB))])
    check()
    assert log.seat_of("r1", ALICE) == 0 and log.seat_of("r1", BOB) is None


def test_a_batch_writes_each_room_or_refuses_it_alone(log: RoomLog, url: str) -> None:
    """`append_many`: a stale room, a missing one and a seat taken meanwhile are refused
    each as `append` would refuse it; the other rooms of the batch are written."""
    for room in ("a", "b", "c", "d"):
        new_room(log, room)
    batch = [
        Append.of("d", [{"v": 2, "type": "moved"}], status="playing"),
        Append.of("b", [{"v": 5, "type": "late"}]),  # stale: b is at version 1
        Append.of("zz", [{"v": 2, "type": "moved"}]),  # no such room
        Append.of("c", [{"v": 2, "type": "joined"}], seat_updates=[(0, "Eve", token_hash(BOB))]),
        Append.of("a", [{"v": 2, "type": "joined"}, {"v": 3, "type": "started"}],
                  seat_updates=[(1, "Bob", token_hash(BOB))]),
    ]  # fmt: skip
    found = log.append_many(batch)
    assert found[0] is None and found[4] is None
    assert isinstance(found[1], Stale) and "'b'" in str(found[1])
    assert isinstance(found[2], LookupError) and "'zz'" in str(found[2])
    assert isinstance(found[3], Stale) and "seat 0" in str(found[3])
    assert [e["type"] for e in log.events("a")] == ["created", "joined", "started"]
    assert log.seat_of("a", BOB) == 1 and log.seat_of("c", BOB) is None
    assert log.room("d").status == "playing" and log.room("d").version == 2  # type: ignore[union-attr]
    for room in ("b", "c"):  # refused: as they were
        assert log.room(room).version == 1 and len(log.events(room)) == 1  # type: ignore[union-attr]
    assert log.append_many([]) == []


def test_a_batch_of_moves_moves_every_room_on_in_one_statement(log: RoomLog, url: str) -> None:
    """Plain appends (no seat claimed, no rematch) move on together: each room written
    or refused as alone, its status and time set, its events stored."""
    for room in ("a", "b", "c"):
        new_room(log, room)
    before = log.room("a").updated_at  # type: ignore[union-attr]
    batch = [
        Append.of("c", [{"v": 2, "type": "moved"}, {"v": 3, "type": "over"}], status="over"),
        Append.of("b", [{"v": 3, "type": "late"}]),  # stale: b is at version 1
        Append.of("zz", [{"v": 2, "type": "moved"}]),  # no such room
        Append.of("a", [{"v": 2, "type": "moved"}]),
    ]
    found = log.append_many(batch)
    assert found[0] is None and found[3] is None
    assert isinstance(found[1], Stale) and isinstance(found[2], LookupError)
    a, b, c = (log.room(r) for r in ("a", "b", "c"))
    assert a is not None and b is not None and c is not None
    assert (a.version, a.status, b.version, c.version, c.status) == (2, "waiting", 1, 3, "over")
    assert a.updated_at >= before and a.updated_at.tzinfo is not None
    assert [e["type"] for e in log.events("c")] == ["created", "moved", "over"]
    assert len(log.events("b")) == 1 and log.unfinished() == ["a", "b"]


def test_a_batch_with_an_event_stored_already_writes_the_others(log: RoomLog, url: str) -> None:
    """A log past its room's version makes the batch's one INSERT fail: every append is
    then tried alone, so only that room is refused."""
    for room in ("a", "b"):
        new_room(log, room)
    with log.engine.begin() as conn:
        conn.execute(
            insert(room_events).values(
                room_id="a", v=2, type="stray", body='{"v":2,"type":"stray"}', at=datetime.now(UTC)
            )
        )
    found = log.append_many([Append.of(r, [{"v": 2, "type": "moved"}]) for r in ("a", "b")])
    assert isinstance(found[0], Stale) and found[1] is None
    assert log.room("a").version == 1 and log.room("b").version == 2  # type: ignore[union-attr]


def test_an_announcement_carries_its_events_unless_too_long() -> None:
    rows = [{"body": '{"v":7,"type":"moved","note":"ß:x"}'}]
    said = announcement("r1", 7, rows)
    assert announced(said) == ("r1", 7, [{"v": 7, "type": "moved", "note": "ß:x"}])
    long = [{"body": '{"v":7,"pad":"' + "é" * 4000 + '"}'}]  # 8,000 bytes in UTF-8
    assert announcement("r1", 7, long) == "r1:7"
    assert announced("r1:7") == ("r1", 7, None)
    for junk in ("", "r1", ":7", "r1:x", "r1:7:{not json"):
        found = announced(junk)
        assert found is None or found[2] is None


def test_a_room_id_is_created_once(log: RoomLog, url: str) -> None:
    new_room(log)
    check = unchanged(log, url)
    with pytest.raises(Stale, match="exists already"):
        new_room(log)
    check()


def test_mistakes_are_refused_before_anything_is_written(log: RoomLog, url: str) -> None:
    new_room(log)
    check = unchanged(log, url)
    joined = [{"v": 2, "type": "joined"}]
    mistakes: list[tuple[type[Exception], Callable[[], object]]] = [
        (ValueError, lambda: log.append("r1", [])),
        (ValueError, lambda: log.append("r1", [{"v": 2, "type": "a"}, {"v": 4, "type": "b"}])),
        (ValueError, lambda: log.append("r1", [{"v": 2}])),  # no type
        (ValueError, lambda: log.append("r1", [{"v": 2, "type": "x" * 25}])),
        (TypeError, lambda: log.append("r1", [{"v": 2, "type": "a", "f": {1}}])),  # not JSON
        (ValueError, lambda: log.append("r1", joined, status="paused")),
        (ValueError, lambda: log.append("r1", joined, seat_updates=[(1, "B", BOB)])),  # clear
        (LookupError, lambda: log.append("r1", joined, seat_updates=[(5, "B", token_hash(BOB))])),
        (LookupError, lambda: log.append("nope", joined)),
        (ValueError, lambda: log.create("r2", "five", "ghost/3", {}, [("human", "A", ALICE)], [])),
        (ValueError, lambda: log.create("r2", "five", "ghost/3", {}, [], joined)),  # not from 1
        (ValueError, lambda: log.create("x" * 33, "five", "ghost/3", {}, [], [])),
        (ValueError, lambda: log.events("r1", limit=-1)),
    ]
    for error, mistake in mistakes:
        with pytest.raises(error):
            mistake()
    assert not issubclass(Stale, LookupError)  # a missing room is not a lost race
    check()


# -- concurrent writers ----------------------------------------------------------------------


def race(count: int, attempt: Callable[[int], None]) -> list[str]:
    """Run ``attempt(i)`` in ``count`` threads let go together: each one's outcome."""
    barrier = threading.Barrier(count)
    outcomes: list[str] = [""] * count

    def run(i: int) -> None:
        barrier.wait()
        try:
            attempt(i)
            outcomes[i] = "won"
        except Stale:
            outcomes[i] = "stale"
        except Exception as exc:  # reported, not swallowed
            outcomes[i] = f"{type(exc).__name__}: {exc}"

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return outcomes


def test_two_threads_appending_one_version_one_wins(log: RoomLog) -> None:
    new_room(log)
    outcomes = race(2, lambda i: log.append("r1", [{"v": 2, "type": "say", "who": i}]))
    assert sorted(outcomes) == ["stale", "won"]
    assert log.events("r1", since=1) == [{"v": 2, "type": "say", "who": outcomes.index("won")}]
    assert log.room("r1").version == 2  # type: ignore[union-attr]


def test_many_threads_appending_one_version_one_wins(log: RoomLog) -> None:
    new_room(log)
    outcomes = race(
        8,
        lambda i: log.append(
            "r1", [{"v": 2, "type": "say", "who": i}, {"v": 3, "type": "say", "who": i}]
        ),
    )
    assert sorted(outcomes) == ["stale"] * 7 + ["won"]
    winner = outcomes.index("won")
    assert [e["who"] for e in log.events("r1", since=1)] == [winner, winner]


def test_a_seat_claimed_by_two_at_once_goes_to_one(log: RoomLog) -> None:
    new_room(log)
    tokens = [f"token-{i}-qwerty" for i in range(4)]
    outcomes = race(
        4,
        lambda i: log.append(
            "r1",
            [{"v": 2, "type": "joined", "seat": 1, "name": f"P{i}"}],
            seat_updates=[(1, f"P{i}", token_hash(tokens[i]))],
        ),
    )
    assert sorted(outcomes) == ["stale"] * 3 + ["won"]
    winner = outcomes.index("won")
    assert [log.seat_of("r1", t) for t in tokens] == [1 if i == winner else None for i in range(4)]
    assert log.room("r1").seats[1].name == f"P{winner}"  # type: ignore[union-attr]


CONTENDER = """
import os, sys, time
from ghostdb.errors import Stale
from ghostdb.store.sql.db import make_engine
from ghostdb.store.rooms.log import RoomLog

url, room, who, go = sys.argv[1:]
log = RoomLog(make_engine(url, create=False))
log.count()  # connected and checked before the start
print("ready", flush=True)
while not os.path.exists(go):
    time.sleep(0.001)
try:
    log.append(room, [{"v": 2, "type": "say", "who": int(who)}])
    print("won", flush=True)
except Stale:
    print("stale", flush=True)
"""


def test_processes_appending_one_version_one_wins(log: RoomLog, url: str, tmp_path: Path) -> None:
    """Across processes (on PostgreSQL, as across servers): the database decides."""
    new_room(log)
    go = tmp_path / "go"
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", CONTENDER, url, "r1", str(i), str(go)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for i in range(4)
    ]
    try:
        for proc in procs:
            assert proc.stdout is not None
            assert proc.stdout.readline().strip() == "ready", proc.stderr.read()  # type: ignore[union-attr]
        go.touch()
        outcomes = [proc.communicate(timeout=60)[0].strip() for proc in procs]
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
    assert sorted(outcomes) == ["stale"] * 3 + ["won"], outcomes
    assert log.events("r1", since=1) == [{"v": 2, "type": "say", "who": outcomes.index("won")}]


# -- a read-only store, and tokens -----------------------------------------------------------


def test_a_read_only_store_writes_rooms_through_an_engine_of_its_own(
    url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`ghostdb serve` opens the store read-only; rooms are the tables it may write."""
    with open_store(url, create=False, readonly=True) as store:
        log = store.room_log()
        assert store.rooms is log and store.room_log() is log
        assert log.engine is not store.engine
        new_room(log)
        log.append("r1", [{"v": 2, "type": "joined"}], seat_updates=[(1, "Bob", token_hash(BOB))])
        assert store.rooms.room("r1").version == 2  # type: ignore[union-attr]
        if not url.startswith("postgresql"):
            with pytest.raises(OperationalError), store.engine.connect() as conn:
                conn.execute(text("DELETE FROM rooms"))  # the store's own engine still may not
        disposed: list[bool] = []
        real = log.engine.dispose
        monkeypatch.setattr(log.engine, "dispose", lambda *a, **k: disposed.append(True) or real())
    assert disposed == [True]
    with open_store(url, create=False, readonly=True) as store:
        assert store.rooms.seat_of("r1", BOB) == 1
    with open_store(url, create=True) as store:  # a writable store's log shares its engine
        assert store.rooms.engine is store.engine


def test_the_token_is_never_stored_in_clear(tmp_path: Path) -> None:
    path = tmp_path / "ghost.db"
    with open_store(path, create=True) as store:
        new_room(store.rooms)
        store.rooms.append(
            "r1", [{"v": 2, "type": "joined"}], seat_updates=[(1, "Bob", token_hash(BOB))]
        )
        assert store.rooms.seat_of("r1", BOB) == 1
        files = [p for p in tmp_path.iterdir() if p.name.startswith("ghost.db")]
        stored = b"".join(p.read_bytes() for p in files)  # the WAL file too
    assert len(files) >= 2  # the database and its WAL
    assert token_hash(BOB).encode() in stored  # what is searched for can be found
    for token in (ALICE, BOB):
        assert token.encode() not in stored
    stored = b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.name.startswith("ghost.db"))
    assert ALICE.encode() not in stored and BOB.encode() not in stored  # checkpointed


def test_token_hash_is_sha256() -> None:
    import hashlib

    assert token_hash("abc") == hashlib.sha256(b"abc").hexdigest()
    assert len(token_hash("")) == 64


# -- schemas ---------------------------------------------------------------------------------


def test_a_database_older_than_rooms_says_to_upgrade(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    engine = make_engine(str(path))
    upgrade(engine, "0011")
    try:
        log = RoomLog(engine)
        for ask in (lambda: log.room("r1"), lambda: log.count(), lambda: new_room(log)):
            with pytest.raises(NoRooms) as found:
                ask()
            message = str(found.value)
            assert isinstance(found.value, GhostdbError) and "\n" not in message
            assert "predates rooms" in message and "run `ghostdb db upgrade`" in message
            assert "0011" in message
    finally:
        engine.dispose()
    with pytest.raises(DatabaseError, match="ghostdb db upgrade"):
        open_store(path, create=False, readonly=True)  # what `ghostdb serve` does
    with open_store(path, create=True) as store:  # a writable open upgrades it
        new_room(store.rooms)
        assert store.rooms.count() == 1


def test_a_lookup_does_not_import_the_rooms(tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "from ghostdb import open_store\n"
        f"with open_store({str(tmp_path / 'l.db')!r}, create=True) as store:\n"
        "    store.games()\n"
        "print('ghostdb.store.rooms.log' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False"]


def test_waiting_for_the_lock_is_not_stale(tmp_path: Path) -> None:
    """On SQLite a writer queues for the write lock held by another process's writer
    (here a long transaction), then writes: a busy database is not a lost race."""
    path = tmp_path / "ghost.db"
    with open_store(path, create=True) as store:
        new_room(store.rooms)
        holder = sqlite3.connect(path, isolation_level=None)
        try:
            holder.execute("BEGIN IMMEDIATE")
            done: list[str] = []
            writer = threading.Thread(
                target=lambda: done.append(
                    store.rooms.append("r1", [{"v": 2, "type": "say"}]) or "written"
                )
            )
            writer.start()
            time.sleep(0.5)
            assert done == []  # queued behind the lock
            holder.execute("COMMIT")
            writer.join(timeout=30)
            assert done == ["written"]
        finally:
            holder.close()
