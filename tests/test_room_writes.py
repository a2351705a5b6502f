"""How a server's rooms write and read under load: appends queued and committed in
batches (`ghostdb.web.rooms.writer`), the writers of one SQLite file queued in the process
(`ghostdb.store.sql.db.writing`), a judge that reads a bluff without finding the solution
again (`ghostdb.store.rooms.judge`), and announced events applied without a read."""

from __future__ import annotations

import asyncio
import copy
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from ghostdb import open_store
from ghostdb.errors import LockTimeout, Stale
from ghostdb.games.ghost.rules import Rules
from ghostdb.play.rooms.referee import join
from ghostdb.store import Store
from ghostdb.store.rooms.judge import Judges, judge_for
from ghostdb.store.rooms.rows import Append
from ghostdb.store.sql.db import WriterBusy, writing
from ghostdb.web.rooms import Hub
from ghostdb.web.rooms.wire import Client
from ghostdb.web.rooms.writer import MAX_BATCH, Writer


@pytest.fixture
def db(rooms_db: Path) -> Path:
    return rooms_db


# -- the writer's batches -----------------------------------------------------------------------


class FakeLog:
    """A log that records each batch it is given and refuses the rooms named ``stale``."""

    def __init__(self, fail: Exception | None = None) -> None:
        self.batches: list[list[str]] = []
        self.fail = fail

    def append_many(self, appends: Sequence[Append]) -> list[Exception | None]:
        time.sleep(0.02)  # a commit's time: meanwhile the next appends queue
        self.batches.append([a.room_id for a in appends])
        if self.fail is not None:
            raise self.fail
        return [Stale(f"{a.room_id} moved on") if a.room_id.startswith("stale") else None
                for a in appends]  # fmt: skip


def appends(writer: Writer, rooms: Sequence[str], first: int = 0) -> list[BaseException | None]:
    """Append to each room at once, the ``first`` few of them a moment before the rest
    (while the writer is writing them)."""

    async def one(room: str) -> None:
        await writer.append(room, [{"v": 2, "type": "moved"}])

    async def all_of() -> list[BaseException | None]:
        early = [asyncio.ensure_future(one(r)) for r in rooms[:first]]
        await asyncio.sleep(0.005)  # the writer's thread has the first ones
        late = [asyncio.ensure_future(one(r)) for r in rooms[first:]]
        found = await asyncio.gather(*early, *late, return_exceptions=True)
        return list(found)

    return asyncio.run(all_of())


def test_appends_made_while_one_is_written_go_in_one_batch() -> None:
    log = FakeLog()
    rooms = [f"r{i}" for i in range(30)] + ["stale1"]
    found = appends(Writer(lambda: log), rooms, first=1)  # type: ignore[arg-type,return-value]
    # The first append is written at once; the others queued meanwhile go together.
    assert log.batches == [["r0"], [*rooms[1:]]]
    assert found[:30] == [None] * 30
    assert isinstance(found[30], Stale)


def test_a_batch_is_at_most_max_batch() -> None:
    log = FakeLog()
    rooms = [f"r{i}" for i in range(2 * MAX_BATCH + 1)]
    found = appends(Writer(lambda: log), rooms)  # type: ignore[arg-type,return-value]
    assert [len(b) for b in log.batches] == [MAX_BATCH, MAX_BATCH, 1]
    assert [r for b in log.batches for r in b] == rooms  # in the order they came
    assert found == [None] * len(rooms)


def test_a_failed_transaction_refuses_every_append_of_its_batch() -> None:
    log = FakeLog(fail=sqlite3.OperationalError("disk I/O error"))
    found = appends(Writer(lambda: log), ["a", "b", "c"])  # type: ignore[arg-type,return-value]
    assert all(isinstance(e, sqlite3.OperationalError) for e in found)


def test_an_append_the_tables_cannot_hold_is_refused_before_it_queues() -> None:
    log = FakeLog()
    writer = Writer(lambda: log)  # type: ignore[arg-type,return-value]

    async def bad() -> None:
        await writer.append("r1", [{"v": 0, "type": "moved"}])

    with pytest.raises(ValueError, match="whole number from 1"):
        asyncio.run(bad())
    assert log.batches == []


# -- the writers of one SQLite file ------------------------------------------------------------


def test_threads_of_one_process_queue_for_the_write_lock(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A thread that finds another writing waits in the process's queue: without waiting
    (``wait=False``) it is told at once, and past the lock's timeout it gives up with
    the timeout's message; once the writer commits the next one writes."""
    monkeypatch.setenv("GHOSTDB_LOCK_TIMEOUT", "0.3")
    with open_store(db) as store:
        engine = store.engine
        holding, release = threading.Event(), threading.Event()

        def hold() -> None:
            with writing(engine) as conn:
                conn.exec_driver_sql("CREATE TABLE IF NOT EXISTS held (x)")
                holding.set()
                release.wait(10)

        writer = threading.Thread(target=hold)
        writer.start()
        try:
            assert holding.wait(10)
            with pytest.raises(WriterBusy), writing(engine, wait=False):
                pass
            began = time.monotonic()
            with pytest.raises(LockTimeout, match="GHOSTDB_LOCK_TIMEOUT"), writing(engine):
                pass
            assert time.monotonic() - began < 5
        finally:
            release.set()
            writer.join()
        with writing(engine) as conn:  # the lock is free again
            conn.exec_driver_sql("INSERT INTO held VALUES (1)")


def test_many_threads_writing_one_file_all_commit(db: Path) -> None:
    with open_store(db) as store:
        engine = store.engine
        with writing(engine) as conn:
            conn.exec_driver_sql("CREATE TABLE counted (n)")

        def add() -> None:
            for _ in range(20):
                with writing(engine) as conn:
                    conn.exec_driver_sql("INSERT INTO counted VALUES (1)")

        threads = [threading.Thread(target=add) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        with engine.connect() as conn:
            assert conn.exec_driver_sql("SELECT count(*) FROM counted").scalar() == 160


# -- the judge's reads ----------------------------------------------------------------------------


def test_a_bluff_is_read_without_finding_the_solution_again(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with open_store(db, readonly=True) as store:
        judge = judge_for(store, "five", "ghost/3")
        refreshed: list[int] = []
        found_again = judge.solution.refresh
        monkeypatch.setattr(judge.solution, "refresh", lambda: refreshed.append(1) or found_again())
        assert judge.position("gh") is not None
        assert judge.position("qzx") is None  # a bluff: no word goes on from it
        assert judge.position("") is not None
        assert refreshed == []


def test_the_rooms_share_a_judge_that_answers_what_it_read_again_from_memory(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with open_store(db, readonly=True) as store:
        judges = Judges(store)
        judge = judges.judge("five", "ghost/3")
        assert judges.judge("five", "ghost/3") is judge
        assert judges.judge("five", "ghost/4") is not judge
        first = judge.positions(["gh", "qzx", ""])  # a miss: its solution found published
        assert first[0] is not None and first[1] is None
        read: list[Any] = []
        monkeypatch.setattr(judge.solution.lookups, "read_many", lambda *a: read.append(a))
        assert judge.positions(["gh", "qzx", ""]) == first  # a round's grading, say
        assert read == []
        with pytest.raises(TypeError):  # a key never read is read (here, broken on purpose)
            judge.positions(["gha"])
        assert len(read) == 1


def test_a_judge_reads_a_solution_published_again_during_the_room(db: Path) -> None:
    with open_store(db, readonly=True) as reader:
        judge = judge_for(reader, "five", "ghost/3")
        first = judge.solution.id
        assert judge.position("gh") is not None
        with open_store(db) as writer:
            writer.solve("five", Rules(), force=True)  # the old id's rows are gone
        assert judge.position("gh") is not None  # read again from the new solution
        assert judge.solution.id != first
        assert judge.position("qzx") is None


def test_a_rule_set_for_more_players_not_solved_is_asked_again_later(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ghostdb.store.rooms import judge as judges

    with open_store(db) as store:
        judge = judge_for(store, "five", "ghost/3")
        assert judge.graded(3) is None
        asked: list[int] = []
        look_for = judge._solution_for
        monkeypatch.setattr(judge, "_solution_for", lambda n: asked.append(n) or look_for(n))
        assert judge.graded(3) is None and asked == []  # trusted for a while
        monkeypatch.setattr(judges, "UNSOLVED_SECONDS", 0.0)
        store.solve("five", Rules(players=3))
        assert judge.graded(3) is not None and asked == [3]


# -- announced events ---------------------------------------------------------------------------


@pytest.fixture
def hub(db: Path) -> Iterator[tuple[Hub, Store]]:
    with open_store(db) as store:
        yield Hub(store), store


def test_announced_events_are_applied_and_a_gap_is_read_from_the_log(
    hub: tuple[Hub, Store], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another server's commit comes with its events: they are applied as they come when
    they follow on from the room's version (no read of the log), read from the log when
    some were missed, and skipped when this server has them already."""
    server, store = hub
    reads: list[str] = []
    catch_up = server._catch_up

    async def counted(room: Any) -> None:
        reads.append(room.id)
        await catch_up(room)

    monkeypatch.setattr(server, "_catch_up", counted)

    async def elsewhere(room: Any, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """``events`` numbered on and committed by another server."""
        log = store.room_log()
        v = (await asyncio.to_thread(log.room, room.id)).version  # type: ignore[union-attr]
        numbered = [{**e, "v": v + i, "at": 0.0} for i, e in enumerate(events, 1)]
        await asyncio.to_thread(log.append, room.id, numbered)
        return numbered

    async def play() -> None:
        made = await server.create(
            "five", None, ["human"] * 3, lives=5, clock=None, player="Ann", address="t"
        )
        room = await server.room(made["room"])
        assert room is not None
        trial = copy.deepcopy(room.state)
        seat, joined = join(trial, "Bob")
        bob = await elsewhere(room, joined)
        await server.on_commit(room.id, bob[-1]["v"], bob)  # follows on: applied
        assert room.state.version == bob[-1]["v"] and reads == []
        assert room.state.seats[seat].name == "Bob"
        _, joined = join(copy.deepcopy(room.state), "Cy")  # joined, started, round
        cy = await elsewhere(room, joined)
        assert len(cy) >= 2
        await server.on_commit(room.id, cy[-1]["v"], cy[1:])  # a gap: read
        assert room.state.version == cy[-1]["v"] and reads == [room.id]
        await server.on_commit(room.id, cy[-1]["v"], cy)  # had them: nothing
        assert reads == [room.id]
        at = room.state.version
        await server.on_commit(room.id, at + 5, None)  # events the log does not hold
        assert room.state.version == at and reads == [room.id, room.id]

    asyncio.run(play())


# -- rooms nobody came to ------------------------------------------------------------------------


def test_a_waiting_room_nobody_came_to_is_closed(hub: tuple[Hub, Store]) -> None:
    """After `ABANDON_AFTER` with nothing happening and nobody connected, a room still
    waiting for players is over (no winner, ``abandoned``), freeing the caps; a room
    somebody watches, or one being played, is left; a server that reads a room from its
    log knows when it last changed."""
    from ghostdb.web.rooms.limits import ABANDON_AFTER

    server, store = hub

    async def play() -> None:
        made = [
            await server.create(
                "five", None, ["human", "human"], lives=5, clock=None, player=p, address="t"
            )
            for p in ("Ann", "Bea", "Cy")
        ]
        left, watched, played = [await server.room(m["room"]) for m in made]
        assert left and watched and played
        await server.join(played, "Dee")  # two seats taken: the match starts
        await server.hello(watched, Client("t"), None, None)
        assert server.open_rooms() == 3
        assert await server.sweep() == 0  # nothing is old yet
        later = time.time() + ABANDON_AFTER + 1
        assert await server.sweep(later) == 1
        assert left.state.status == "over" and left.id not in server.rooms
        assert watched.state.status == "waiting" and played.state.status == "playing"
        assert server.open_rooms() == 2
        events = await asyncio.to_thread(store.room_log().events, left.id)
        assert events[-1]["type"] == "match_over" and events[-1]["reason"] == "abandoned"
        assert events[-1]["winners"] == []
        again = Hub(store)  # another server reads the watched room from its log
        found = await again.room(watched.id)
        logged = await asyncio.to_thread(store.room_log().events, watched.id)
        assert found is not None and found.last_commit == logged[-1]["at"] < time.time()
        assert await again.sweep(later) == 1

    asyncio.run(play())
