"""The rooms under load: many rooms, three sockets each, a move a second in every room.

* One server on SQLite: ``ROOMS`` rooms of three people, each socket its own client, the
  seat to move sending a move every second for ``SECONDS``: the time from a move sent to
  each of the room's sockets receiving it (p50, p99), every event checked to arrive once
  and in order on every socket, and the server's peak memory.
* A restart: the server killed (SIGKILL) with the rooms in play and started again on the
  same file: the time until every room answers a new socket's hello.
* Two servers on PostgreSQL (``--postgres URL``): the same load, each room's sockets
  split between the two servers, so that every move crosses from one to the other.  The
  rooms an earlier run left in that scratch database are deleted first.
* The referee's ruling on a challenge answered with a word, on the Polish list's
  SuperDuperGhost/3 (a lookup, never a scan of the list): its time a ruling.

The load runs in a child process (asyncio, the `websockets` client) against a server run
as ``ghostdb serve``, so the server is measured as users meet it.
"""

from __future__ import annotations

import json
import signal
import socket
import statistics
import subprocess
import time
import urllib.request
from pathlib import Path
from typing import Any

from .runner import (
    POLISH,
    Bench,
    Row,
    Task,
    at_most,
    child,
    ghostdb,
    mb,
    ms,
    progress,
    run,
    secs,
)

ROOMS = 300
SECONDS = 20.0
P99_SQLITE, P99_POSTGRES = 0.050, 0.100
MEMORY_MB = 300.0
RESTART_SECONDS = 5.0
RULING_MS = 2.0


def rows(bench: Bench, postgres: str | None = None) -> list[Row]:
    """The rooms' rows (the two-server ones with ``postgres``, the ruling's with Polish)."""
    db = bench.fresh_db()
    source = Path(__file__).resolve().parents[2] / "wordlists" / "five.txt"
    for command in (("ingest", str(source)), ("solve", "five")):
        run([*ghostdb(*command), "--db", db])  # BenchError if it fails
    found = sqlite_load(db)
    if postgres:
        found += postgres_load(postgres, source)
    found += ruling(bench)
    return found


def sqlite_load(db: str) -> list[Row]:
    """One server on SQLite: the load, then a restart with every room in play."""
    port = free_port()
    server = start_server(db, port)
    try:
        data, _ = child("rooms_load", json.dumps([f"http://127.0.0.1:{port}"]), ROOMS, SECONDS)
        peak = peak_mb(server.pid)
        server.send_signal(signal.SIGKILL)
        server.wait()
        began = time.perf_counter()
        server = start_server(db, port)
        back, _ = child("rooms_back", f"http://127.0.0.1:{port}", json.dumps(data["rooms"]))
        restart = time.perf_counter() - began
    finally:
        server.kill()
        server.wait()
    label = f"{ROOMS} rooms x 3 sockets, a move a second each, one server on SQLite"
    return [
        *load_rows(label, data, P99_SQLITE),
        at_most(f"{label}: server peak memory", peak, MEMORY_MB, mb, "VmHWM"),
        at_most(
            f"restart (SIGKILL) with {ROOMS} rooms in play: every room answering",
            restart,
            RESTART_SECONDS,
            secs,
            f"{back['answered']} of {len(data['rooms'])} rooms answered their hello",
        ),
    ]


def postgres_load(url: str, source: Path) -> list[Row]:
    """Two servers on one PostgreSQL database, each room's sockets split between them."""
    for command in (("ingest", str(source)), ("solve", "five")):
        run([*ghostdb(*command), "--db", url])
    forget_rooms(url)
    ports = [free_port(), free_port()]
    servers = [start_server(url, port) for port in ports]
    try:
        bases = [f"http://127.0.0.1:{port}" for port in ports]
        data, _ = child("rooms_load", json.dumps(bases), ROOMS, SECONDS)
    finally:
        for server in servers:
            server.kill()
            server.wait()
    return load_rows(f"{ROOMS} rooms, two servers on PostgreSQL", data, P99_POSTGRES)


def forget_rooms(url: str) -> None:
    """Delete the rooms an earlier run left in the scratch database: a server takes up
    every unfinished room, and the rooms of several runs would pass its cap."""
    from sqlalchemy import delete

    from ghostdb.store.sql.db import make_engine
    from ghostdb.store.sql.schema import room_events, room_seats, rooms

    engine = make_engine(url)
    try:
        with engine.begin() as conn:
            for table in (room_events, room_seats, rooms):
                conn.execute(delete(table))
    finally:
        engine.dispose()


def load_rows(label: str, data: dict[str, Any], p99: float) -> list[Row]:
    note = (
        f"{data['receipts']:,} receipts of {data['moves']:,} moves "
        f"({data['refused']} refused); p50 {ms(data['p50'])}"
    )
    faults = data["lost"] + data["doubled"] + data["disordered"]
    return [
        at_most(f"{label}: p99, a move sent to each seat's receipt", data["p99"], p99, ms, note),
        Row(
            f"{label}: events lost, doubled or out of order",
            f"{data['lost']}, {data['doubled']}, {data['disordered']}",
            "0, 0, 0",
            faults == 0,
        ),
    ]


def ruling(bench: Bench) -> list[Row]:
    """The referee's ruling on a named word, on Polish SuperDuperGhost/3."""
    if not POLISH.exists():
        return [Row("a challenge's ruling, Polish SuperDuperGhost/3", note="no Polish list")]
    db = bench.fresh_db()
    progress("Polish SuperDuperGhost/3 for the ruling (a minute or two)")
    ingest = ("ingest", str(POLISH), "--name", "polish")
    for command in (ingest, ("solve", "polish", "--rules", "superduper")):
        run([*ghostdb(*command), "--db", db], timeout=1800)
    data, _ = child("rooms_ruling", db, "polish", "superduper/3")
    return [
        at_most(
            "a challenge's ruling (a word named), Polish SuperDuperGhost/3",
            data["p99"],
            RULING_MS / 1000,
            ms,
            f"p99 of {data['rulings']} rulings; median {ms(data['median'])}",
        ),
        Row(
            "the round's end after the ruling (its verdicts), Polish SuperDuperGhost/3",
            ms(data["end_p99"]),
            note=f"p99; median {ms(data['end_median'])}: every move graded, a word found",
        ),
    ]


# -- the servers -----------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(db: str, port: int) -> subprocess.Popen[bytes]:
    server = subprocess.Popen(
        [*ghostdb("serve", "--db", db, "--port", str(port), "--no-address-caps")],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games", timeout=1):
                return server
        except OSError:
            time.sleep(0.05)
    server.kill()
    raise RuntimeError(f"ghostdb serve did not answer on port {port}")


def peak_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


# -- the child's side -----------------------------------------------------------------------


def task_rooms_load(bases: str, rooms: str, seconds: str) -> dict[str, Any]:
    """Make the rooms, open three sockets each (spread over ``bases``), play, count."""
    import asyncio

    from .roomload import Load

    load = Load(json.loads(bases), int(rooms), float(seconds))
    return asyncio.run(load.run())


def task_rooms_back(base: str, rooms: str) -> dict[str, Any]:
    """Open a socket to every room and wait for each hello's welcome."""
    import asyncio

    from .roomload import answered

    return {"answered": asyncio.run(answered(base, json.loads(rooms)))}


def task_rooms_ruling(db: str, name: str, rules: str) -> dict[str, Any]:
    """Time the referee's ruling on a word named at 300 challenged positions, each
    reached by a few random stored moves in a room of two."""
    import random

    from ghostdb import open_store
    from ghostdb.play.rooms import referee
    from ghostdb.play.rooms.state import RoomState
    from ghostdb.store.rooms.judge import judge_for

    def commit(state: RoomState, events: list[dict[str, Any]]) -> None:
        for event in events:
            state.apply({**event, "v": state.version + 1, "at": 0.0})

    rng = random.Random(1)
    times: list[float] = []
    ends: list[float] = []
    with open_store(db, create=False, readonly=True) as store:
        judge = judge_for(store, name, rules)
        while len(times) < 300:
            state = RoomState("bench")
            commit(state, referee.new_room(judge.game, name, ["human", "human"], clock=None))
            while state.open_seats():
                commit(state, referee.join(state, "p")[1])
            for _ in range(rng.randint(1, 6)):
                assert state.round is not None
                here = judge.position(state.round.position)
                plays = [p for p in here.plays if not p.is_final] if here else []
                if not plays:
                    break
                move = {"op": "move", "move": rng.choice(plays).move}
                commit(state, referee.decide(state, state.round.turn, move, judge))
            assert state.round is not None
            commit(state, referee.decide(state, state.round.turn, {"op": "challenge"}, judge))
            position = state.round.position
            word = judge.word_for("optimal", position) or "x"
            began = time.perf_counter()
            # The ruling: is the position a bluff, and does the word answer it?
            judge.position(position)
            referee.answers(judge, position, word)
            ruled = time.perf_counter()
            referee.decide(state, state.round.turn, {"op": "word", "word": word}, judge)
            times.append(ruled - began)
            ends.append(time.perf_counter() - ruled)
    times.sort()
    ends.sort()
    return {
        "rulings": len(times),
        "median": statistics.median(times),
        "p99": times[int(len(times) * 0.99) - 1],
        "end_median": statistics.median(ends),
        "end_p99": ends[int(len(ends) * 0.99) - 1],
    }


TASKS: dict[str, Task] = {
    "rooms_load": task_rooms_load,
    "rooms_back": task_rooms_back,
    "rooms_ruling": task_rooms_ruling,
}
