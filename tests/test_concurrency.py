"""Several ghostdb processes on one database at once: writers queue, nobody fails.

Real processes (``python -m ghostdb``) started together on enable1, whose solve takes
seconds, so that their transactions overlap.  Each test runs on SQLite and, when
``GHOSTDB_TEST_POSTGRES_URL`` names a scratch database, on PostgreSQL too.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import OWN_WORDLISTS, POSTGRES_SKIP, reset_postgres
from sqlalchemy import func, select

from ghostdb import Rules, open_store
from ghostdb.store.sql.db import WAITING_MESSAGE
from ghostdb.store.sql.schema import HEAD_REVISION, positions

PG_URL = os.environ.get("GHOSTDB_TEST_POSTGRES_URL", "")
BACKENDS = [
    "sqlite",
    pytest.param(
        "postgresql",
        marks=pytest.mark.skipif(not PG_URL, reason=POSTGRES_SKIP),
    ),
]
pytestmark = pytest.mark.slow

FRAGMENTS = {3: 387_878, 4: 387_844, 5: 386_989, 6: 382_549}  # enable1's, by min length


def start(*args: str, db: str, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "ghostdb", *args, "--db", db],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
        env={**os.environ, **(env or {})},
    )


def finish(*procs: subprocess.Popen[str]) -> list[str]:
    """Wait for every process; each must exit 0 with nothing on stderr."""
    outs = []
    for proc in procs:
        out, err = proc.communicate(timeout=600)
        assert (proc.returncode, err) == (0, ""), (proc.args, err)
        outs.append(out)
    return outs


@pytest.fixture(scope="module")
def enable1_db(tmp_path_factory: pytest.TempPathFactory, enable1: Path) -> Path:
    """A SQLite database with enable1 ingested, nothing solved (copied by each test)."""
    path = tmp_path_factory.mktemp("concurrency") / "enable1.db"
    with open_store(str(path), create=True) as store:
        store.ingest(enable1)
    return path


@pytest.fixture
def database(
    request: pytest.FixtureRequest, enable1_db: Path, enable1: Path, tmp_path: Path
) -> Iterator[str]:
    """The --db of a database holding enable1, unsolved, on the backend under test."""
    if request.param == "sqlite":
        db = tmp_path / "ghost.db"
        shutil.copy(enable1_db, db)
        yield str(db)
        return
    reset_postgres(PG_URL)
    with open_store(PG_URL, create=True) as store:
        store.ingest(enable1)
    yield PG_URL
    reset_postgres(PG_URL)


def published(db: str) -> dict[int, int]:
    """{min length: fragments} of the published enable1 solutions, after checking that
    each published solution has all its rows and that no other solution has any."""
    with open_store(db, readonly=True) as store:
        jobs = store.solutions("enable1")
        complete = [j for j in jobs if j.status == "complete"]
        with store.engine.connect() as conn:
            counts = {
                name: dict(
                    conn.execute(
                        select(positions.c.solution_id, func.count())
                        .where(*where)
                        .group_by(positions.c.solution_id)
                    ).all()
                )
                for name, where in (
                    ("positions", ()),
                    ("plans", (positions.c.waiter_lossiness.is_not(None),)),
                )
            }
        assert sorted(counts["positions"]) == sorted(j.id for j in complete)
        assert sorted(counts["plans"]) == sorted(j.id for j in complete)
        result = {}
        for job in complete:
            assert counts["positions"][job.id] == job.fragment_count
            assert counts["plans"][job.id] == job.reachable_count
            result[Rules.from_key(job.rules).min_length] = job.fragment_count
        assert all(j.status in ("complete", "superseded") for j in jobs), jobs
        if 3 in result:
            assert store.solution("enable1").lookup("gho").best_move == "s"
        return result


@pytest.mark.parametrize("database", BACKENDS, indirect=True)
def test_two_solves_of_one_rule_set_at_once(database: str) -> None:
    outs = finish(*(start("solve", "enable1", "-q", db=database) for _ in range(2)))
    assert all("solved enable1" in out for out in outs)
    assert published(database) == {3: FRAGMENTS[3]}
    with open_store(database, readonly=True) as store:
        statuses = sorted(j.status for j in store.solutions("enable1"))
    assert statuses == ["complete", "superseded"]  # the later one replaced the earlier


@pytest.mark.parametrize("database", BACKENDS, indirect=True)
def test_two_solves_of_different_rule_sets_at_once(database: str) -> None:
    finish(*(start("solve", "enable1", "-m", str(m), "-q", db=database) for m in (3, 4)))
    assert published(database) == {3: FRAGMENTS[3], 4: FRAGMENTS[4]}


@pytest.mark.parametrize("database", BACKENDS, indirect=True)
def test_four_solves_at_once(database: str) -> None:
    finish(*(start("solve", "enable1", "-m", str(m), "-q", db=database) for m in FRAGMENTS))
    assert published(database) == FRAGMENTS


@pytest.mark.parametrize("database", BACKENDS, indirect=True)
def test_ingests_during_a_solve(database: str, enable1: Path, tmp_path: Path) -> None:
    other = tmp_path / "other.txt"  # as long to store as enable1, but not the same list
    other.write_text("\n".join(enable1.read_text().split()[1:]) + "\n")
    solve = start("solve", "enable1", "-q", db=database)
    wait_for_a_running_job(database)
    # On SQLite, make sure that the ingests meet a writer: hold the write lock (after a
    # real write) while they start, and let go while the solve is still solving.
    holder = hold_write_lock(database)
    ingests = [
        start("ingest", str(other), db=database),
        start("ingest", str(OWN_WORDLISTS / "five.txt"), db=database),
        start("ingest", str(OWN_WORDLISTS / "five.txt"), db=database),  # the same at once
    ]
    if holder is not None:
        time.sleep(3)  # for every ingest to have read its list and begun to store it
        holder.execute("COMMIT")
        holder.close()
    outs = finish(solve, *ingests)
    assert "stored other: 172,819 words" in outs[1]
    assert sorted(out.splitlines()[0] for out in outs[2:]) == [
        "five is already stored with identical content: nothing to do",
        "stored five: 5 words from five.txt",
    ]
    assert published(database) == {3: FRAGMENTS[3]}
    with open_store(database, readonly=True) as store:
        assert sorted(d.name for d in store.dictionaries()) == ["enable1", "five", "other"]


def wait_for_a_running_job(db: str) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        with open_store(db, readonly=True) as store:
            if any(j.status == "running" for j in store.solutions()):
                return
        time.sleep(0.05)
    raise AssertionError("the solve never started")


def hold_write_lock(db: str) -> sqlite3.Connection | None:
    """On SQLite, a connection holding the write lock after a real (no-op) write."""
    if "://" in db:
        return None
    conn = sqlite3.connect(db, isolation_level=None, timeout=60)
    conn.execute("BEGIN IMMEDIATE")
    conn.execute("UPDATE alembic_version SET version_num = version_num")
    return conn


@pytest.mark.parametrize("backend", BACKENDS)
def test_processes_opening_a_fresh_database_at_once(backend: str, tmp_path: Path) -> None:
    """Several first opens at the same instant create the schema once, and nobody fails."""
    if backend == "sqlite":
        db = str(tmp_path / "fresh.db")
    else:
        reset_postgres(PG_URL)
        db = PG_URL
    five = str(OWN_WORDLISTS / "five.txt")
    procs = [start("ingest", five, db=db) for _ in range(3)]
    procs += [start("db", "upgrade", db=db), start("solutions", db=db)]
    # `solutions` may run before the schema exists ("no database", "empty") or after.
    reader = procs.pop()
    outs = finish(*procs)
    assert sum(out.startswith("stored five") for out in outs) == 1
    reader.communicate(timeout=120)
    assert reader.returncode in (0, 1)
    with open_store(db, readonly=True) as store:
        assert store.schema_revision() == HEAD_REVISION
        assert [d.name for d in store.dictionaries()] == ["five"]
    if backend == "postgresql":
        reset_postgres(PG_URL)


def test_a_writer_waits_for_the_lock_and_says_so_on_a_terminal(tmp_path: Path) -> None:
    """While another process holds the write lock an ingest waits (saying so once on a
    terminal), then goes on as soon as the lock is free."""
    pexpect = pytest.importorskip("pexpect", reason="needs pexpect: pip install -e '.[dev]'")
    db = tmp_path / "ghost.db"
    with open_store(str(db), create=True) as store:
        store.ingest(OWN_WORDLISTS / "five.txt")
    holder = hold_write_lock(str(db))
    assert holder is not None
    child = pexpect.spawn(
        sys.executable,
        ["-m", "ghostdb", "ingest", str(OWN_WORDLISTS / "mixed.txt"), "--db", str(db)],
        env={**os.environ, "GHOSTDB_LOCK_TIMEOUT": "60"},
        timeout=30,
        encoding="utf-8",
    )
    child.expect_exact(WAITING_MESSAGE)
    time.sleep(1)
    assert child.isalive()  # still waiting
    holder.execute("COMMIT")
    holder.close()
    child.expect_exact("stored mixed: 4 words")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert child.before.count(WAITING_MESSAGE) == 0  # said once, before the wait


def test_a_writer_that_is_not_on_a_terminal_waits_silently(tmp_path: Path) -> None:
    db = tmp_path / "ghost.db"
    with open_store(str(db), create=True) as store:
        store.ingest(OWN_WORDLISTS / "five.txt")
    holder = hold_write_lock(str(db))
    assert holder is not None
    proc = start("ingest", str(OWN_WORDLISTS / "mixed.txt"), db=str(db))
    time.sleep(1.5)
    assert proc.poll() is None
    holder.execute("COMMIT")
    holder.close()
    (out,) = finish(proc)
    assert out.startswith("stored mixed")
