"""Every failure a user can cause or meet is one line on stderr starting ``error:``, exit
status 1, and the database exactly as it was; Ctrl-C is one line and exit status 130.

A table of bad databases, URLs, locks, full disks, damaged files and exhausted memory
across the commands, run in-process; then the faults that need real processes: read-only
files and folders, a small real file system that fills up, a memory limit, Ctrl-C.
"""

from __future__ import annotations

import hashlib
import os
import re
import resource
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, closing, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import typer
from conftest import OWN_WORDLISTS, dump
from sqlalchemy import event
from sqlalchemy.pool import Pool
from typer.testing import CliRunner

from ghostdb.cli.group import app
from ghostdb.store.sql.db import make_engine, upgrade
from ghostdb.store.sql.faults import describe
from ghostdb.store.sql.schema import HEAD_REVISION

FIVE = str(OWN_WORDLISTS / "five.txt")
MIXED = str(OWN_WORDLISTS / "mixed.txt")
ONE_LINE = re.compile(r"error: [^\n]+\n\Z")


def invoke(args: list[str], env: dict[str, str] | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, args, env=env)
    return result.exit_code, result.stdout, result.stderr


def state(path: Path) -> Any:
    """What a failed command must leave as it was: the database's dump, or its bytes (with
    its write-ahead log) where SQLite cannot read it."""
    if not path.is_file():
        return None
    conn = sqlite3.connect(path)
    try:
        return list(conn.iterdump())  # as conftest.dump, but closed at once (no -wal left)
    except sqlite3.DatabaseError:
        wal = path.with_name(path.name + "-wal")
        data = path.read_bytes() + (wal.read_bytes() if wal.exists() else b"")
        return hashlib.sha256(data).hexdigest()
    finally:
        conn.close()


def tree(folder: Path) -> dict[str, Any]:
    """The state of every file under ``folder`` (SQLite's -wal and -shm files aside)."""
    return {
        str(p.relative_to(folder)): state(p)
        for p in sorted(folder.rglob("*"))
        if not p.name.endswith(("-wal", "-shm", "-journal"))
    }


def corrupt(db: Path, table: str) -> None:
    """Overwrite the first page of ``table`` with garbage (an invalid page type first), as a
    failing disk might: SQLite notices when it reads that page."""
    conn = sqlite3.connect(db)
    root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = ?", (table,)).fetchone()
    size = conn.execute("PRAGMA page_size").fetchone()[0]
    conn.close()
    with db.open("r+b") as f:
        f.seek((root[0] - 1) * size)
        f.write(b"\x07" * size)


def sql(db: Path, *statements: str) -> None:
    conn = sqlite3.connect(db, isolation_level=None)
    for statement in statements:
        conn.execute(statement)
    conn.close()


@contextmanager
def page_limit(extra_pages: int = 0) -> Iterator[None]:
    """A disk that fills up: every new connection may grow its database by so many pages."""

    def limit(dbapi_connection: Any, _record: Any) -> None:
        pages = dbapi_connection.execute("PRAGMA page_count").fetchone()[0]
        dbapi_connection.execute(f"PRAGMA max_page_count={pages + extra_pages}")

    event.listen(Pool, "connect", limit)
    try:
        yield
    finally:
        event.remove(Pool, "connect", limit)


def word_list(path: Path, count: int) -> Path:
    """``count`` made-up words of four to six letters: enough rows to fill pages."""
    letters = "abcdefghijklmnopqrstuvwxyz"
    words = [
        letters[i % 26] + letters[i // 26 % 26] + letters[i // 676 % 26] + "xyz"[: 1 + i % 3]
        for i in range(count)
    ]
    path.write_text("\n".join(words) + "\n")
    return path


@dataclass
class Setup:
    """The scene of one row: the temporary folder, the solved `five` database in it, and
    a stack for what must be undone after the command."""

    tmp: Path
    five: Path
    stack: ExitStack
    monkeypatch: pytest.MonkeyPatch
    env: dict[str, str]


def _five(s: Setup) -> str:
    return str(s.five)


def _missing(s: Setup) -> str:
    return str(s.tmp / "none.db")


def _directory(s: Setup) -> str:
    (s.tmp / "folder.db").mkdir()
    return str(s.tmp / "folder.db")


def _no_folder(s: Setup) -> str:
    return str(s.tmp / "no" / "such" / "ghost.db")


def _empty(s: Setup) -> str:
    (s.tmp / "empty.db").write_bytes(b"")
    return str(s.tmp / "empty.db")


def _text(s: Setup) -> str:
    (s.tmp / "notes.db").write_text("hello, this is not a database\n" * 200)
    return str(s.tmp / "notes.db")


def _binary(s: Setup) -> str:
    (s.tmp / "photo.db").write_bytes(bytes(range(256)) * 40)
    return str(s.tmp / "photo.db")


def _newer(s: Setup) -> str:
    sql(s.five, "UPDATE alembic_version SET version_num = '9999'")
    return str(s.five)


def _older(s: Setup) -> str:
    path = s.tmp / "old.db"
    engine = make_engine(str(path))
    upgrade(engine, "0001")
    engine.dispose()
    return str(path)


def _foreign(s: Setup) -> str:
    path = s.tmp / "other-app.db"
    sql(path, "CREATE TABLE notes (body TEXT)", "INSERT INTO notes VALUES ('keep me')")
    return str(path)


def _corrupt(table: str) -> Callable[[Setup], str]:
    def setup(s: Setup) -> str:
        corrupt(s.five, table)
        return str(s.five)

    return setup


def _locked(s: Setup) -> str:
    holder = sqlite3.connect(s.five, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    s.stack.callback(holder.close)
    s.stack.callback(holder.execute, "ROLLBACK")
    s.env["GHOSTDB_LOCK_TIMEOUT"] = "0.3"
    return str(s.five)


def _bad_timeout(s: Setup) -> str:
    s.env["GHOSTDB_LOCK_TIMEOUT"] = "soon"
    return str(s.five)


def _full(s: Setup) -> str:
    s.stack.enter_context(page_limit())
    return str(s.five)


def _full_old(s: Setup) -> str:
    path = _older(s)
    s.stack.enter_context(page_limit())
    return path


def _out_of_memory(target: str) -> Callable[[Setup], str]:
    def setup(s: Setup) -> str:
        def exhausted(*_args: Any, **_kwargs: Any) -> Any:
            raise MemoryError

        s.monkeypatch.setattr(target, exhausted)
        return str(s.five)

    return setup


def _url(url: str) -> Callable[[Setup], str]:
    return lambda s: url.replace("TMP", str(s.tmp))


def _env_url(s: Setup) -> str:
    s.env["GHOSTDB_URL"] = "foo://bar/baz"
    return ""  # no --db: the environment names the database


BAD_PORT = "postgresql+psycopg://u@:notaport/x"
NOT_A_DATABASE = "is a damaged database"
TEXT = "is a text file, not a ghostdb database: give --db a database file"
NEWER = f"newer than this ghostdb knows ({HEAD_REVISION}): upgrade ghostdb"
LOCKED = "locked for writing for all of the 0.3 s"
FULL = "is full: free some space and run the command again"
OOM = "out of memory"

SOLVE = ["solve", "five", "--force", "-q"]
SOLVE4 = ["solve", "five", "-m", "4", "-q"]
INGEST = ["ingest", MIXED]
LOOKUP = ["lookup", "five", "gr"]

# (setup, command, what the one line says)
ROWS: list[tuple[Callable[[Setup], str], list[str], str]] = [
    # URLs that cannot work: nothing may be created anywhere
    (_url(BAD_PORT), LOOKUP, "is not a database URL that ghostdb can use"),
    (_url(BAD_PORT), INGEST, "invalid literal for int()"),
    (_url(BAD_PORT), SOLVE, "use a file path, sqlite:///PATH or postgresql+psycopg://"),
    (_url(BAD_PORT), ["db", "current"], "is not a database URL"),
    (_url("foo://bar/baz"), ["dictionaries"], "names a kind of database ghostdb cannot use (foo)"),
    (_url("foo://bar/baz"), INGEST, "cannot use (foo)"),
    (_url("foo://bar/baz"), ["db", "upgrade"], "cannot use (foo)"),
    (_url("://nothing"), ["report", "five"], "is not a database URL"),
    (_url("mysql+mysqldb://u@localhost/x"), LOOKUP, "the driver for mysql is not installed"),
    (_url("sqlite:///TMP/x.db?bogus=1"), INGEST, "'bogus' are not accepted"),
    (_url("sqlite:///TMP/x.db?bogus=1"), ["dictionaries"], "'bogus' are not accepted"),
    (_url("postgresql+psycopg://u@127.0.0.1:1/x"), ["dictionaries"], "cannot connect to"),
    (_url("postgresql+psycopg://u:secret@127.0.0.1:1/x"), SOLVE, "u:***@127.0.0.1:1/x"),
    (_env_url, ["dictionaries"], "names a kind of database ghostdb cannot use"),
    # files that are not (yet) ghostdb databases
    (_missing, LOOKUP, "no database at"),
    (_missing, SOLVE, "no database at"),
    (_missing, ["solutions"], "ingest a word list first"),
    (_missing, ["db", "current"], "no database at"),
    (_directory, INGEST, "is a directory, not a database file"),
    (_directory, LOOKUP, "is a directory"),
    (_no_folder, INGEST, "for the database: create it first"),
    (_no_folder, ["db", "upgrade"], "create it first"),
    (_empty, LOOKUP, "is empty: ingest a word list first"),
    (_empty, ["dictionaries"], "is empty"),
    (_empty, ["openings", "five"], "is empty"),
    (_empty, SOLVE, "is empty"),
    (_text, ["dictionaries"], TEXT),
    (_text, INGEST, TEXT),
    (_text, SOLVE, TEXT),
    (_text, ["db", "upgrade"], TEXT),
    (_text, ["db", "current"], TEXT),
    (_binary, LOOKUP, "is some other kind of file, not a ghostdb database"),
    (_foreign, LOOKUP, "holds tables of something other than ghostdb"),
    (_foreign, INGEST, "holds tables of something other than ghostdb"),
    (_foreign, ["db", "upgrade"], "something other than ghostdb"),
    # schema revisions
    (_newer, LOOKUP, NEWER),
    (_newer, INGEST, NEWER),
    (_newer, SOLVE, NEWER),
    (_newer, ["db", "upgrade"], NEWER),
    (_older, LOOKUP, "from an older ghostdb: run `ghostdb db upgrade` first"),
    (_older, ["dictionaries"], "run `ghostdb db upgrade` first"),
    # damaged pages: found where they are read
    (_corrupt("positions"), LOOKUP, NOT_A_DATABASE),
    (_corrupt("positions"), ["openings", "five"], NOT_A_DATABASE),
    (_corrupt("positions"), ["strategy", "five"], NOT_A_DATABASE),
    (_corrupt("positions"), ["line", "five"], NOT_A_DATABASE),
    (_corrupt("kept_answers"), ["report", "five"], NOT_A_DATABASE),  # read from kept answers
    (_corrupt("positions"), ["selfplay", "five", "--games", "3"], NOT_A_DATABASE),
    (_corrupt("positions"), ["play", "five", "--moves", "t"], NOT_A_DATABASE),
    (_corrupt("words"), SOLVE, NOT_A_DATABASE),
    (_corrupt("words"), SOLVE4, NOT_A_DATABASE),
    (_corrupt("solutions"), ["solutions"], NOT_A_DATABASE),
    (_corrupt("solutions"), LOOKUP, NOT_A_DATABASE),
    (_corrupt("dictionaries"), INGEST, NOT_A_DATABASE),
    # another writer holds the lock for longer than we may wait
    (_locked, INGEST, LOCKED),
    (_locked, SOLVE4, LOCKED),
    (_bad_timeout, INGEST, "GHOSTDB_LOCK_TIMEOUT='soon' is not a number of seconds"),
    # a full disk
    (_full, ["ingest", "WORDS"], FULL),
    (_full, ["ingest", "WORDS", "--name", "five", "--replace"], FULL),
    (_full_old, ["db", "upgrade"], FULL),
    # out of memory wherever it happens
    (_out_of_memory("ghostdb.cli.group.open_store"), LOOKUP, OOM),
    (_out_of_memory("ghostdb.store.sql.queries.bulk_insert"), INGEST, OOM),
    (_out_of_memory("ghostdb.store.sql.queries.dictionary_words"), SOLVE, OOM),
    (_out_of_memory("ghostdb.store.answers.solution.Solution.strategy"), ["strategy", "five"], OOM),
    (_out_of_memory("ghostdb.text.positions.position"), LOOKUP, OOM),
    # usage mistakes
    (_five, [*LOOKUP, "--bogus"], "No such option: --bogus (`ghostdb lookup --help`"),
    (_five, [*LOOKUP, "-m", "x"], "Invalid value for '--min-length'"),
    (_five, [*LOOKUP, "--rules", "nope"], "Invalid value for '--rules'"),
    (_five, ["strategy", "five", "--player", "2"], "Invalid value for '--player'"),
    (_five, ["solve"], "Missing argument"),
    (_five, ["bogus"], "No such command 'bogus'"),
    (_five, ["db", "current", "--bogus"], "(`ghostdb db current --help` shows the usage)"),
]


def _row_id(row: tuple[Callable[[Setup], str], list[str], str]) -> str:
    setup, args, _ = row
    name = getattr(setup, "__qualname__", "").split(".")[0].strip("_<>") or "url"
    return f"{name}-{'-'.join(a for a in args[:2] if '/' not in a)}"


@pytest.mark.parametrize(("setup", "args", "message"), ROWS, ids=[_row_id(r) for r in ROWS])
def test_every_failure_is_one_line_exit_1_and_changes_nothing(
    setup: Callable[[Setup], str],
    args: list[str],
    message: str,
    five: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    words = word_list(tmp_path / "words.txt", 3000)
    args = [str(words) if a == "WORDS" else a for a in args]
    with ExitStack() as stack:
        scene = Setup(tmp_path, five, stack, monkeypatch, {})
        db = setup(scene)
        before = tree(tmp_path)
        code, out, err = invoke([*args, *(["--db", db] if db else [])], env=scene.env)
        after = tree(tmp_path)
    assert (code, out) == (1, ""), err
    assert ONE_LINE.match(err), err
    assert message in err, err
    assert after == before


def test_the_table_covers_every_kind_of_fault() -> None:
    assert len(ROWS) >= 40
    commands = {args[0] for _, args, _ in ROWS}
    assert {"ingest", "solve", "lookup", "dictionaries", "solutions", "db"} <= commands


# -- schema revisions --------------------------------------------------------------------------


def test_db_current_tells_which_to_upgrade(five: Path, tmp_path: Path) -> None:
    code, out, _ = invoke(["db", "current", "--db", str(five)])
    assert (code, out) == (0, f"{HEAD_REVISION} (head)\n")
    old = _older(Setup(tmp_path, five, ExitStack(), pytest.MonkeyPatch(), {}))
    code, out, _ = invoke(["db", "current", "--db", old])
    assert code == 0 and "0001" in out and "run `ghostdb db upgrade`" in out
    assert invoke(["db", "upgrade", "--db", old])[:2] == (
        0,
        f"schema at revision {HEAD_REVISION}\n",
    )
    sql(five, "UPDATE alembic_version SET version_num = '9999'")
    before = state(five)
    code, out, _ = invoke(["db", "current", "--db", str(five)])
    assert code == 0 and "9999" in out and "upgrade ghostdb" in out
    assert "db upgrade" not in out  # which would refuse
    assert state(five) == before


def test_read_commands_change_no_byte_not_even_the_journal_mode(five: Path) -> None:
    sql(five, "PRAGMA journal_mode=DELETE")
    before = five.read_bytes()
    for args in (LOOKUP, ["openings", "five"], ["dictionaries"], ["db", "current"]):
        code, _, err = invoke([*args, "--db", str(five)])
        assert code == 0, err
    assert five.read_bytes() == before
    assert sorted(p.name for p in five.parent.iterdir()) == ["ghost.db"]


# -- a full disk -------------------------------------------------------------------------------


def failed_job_only(before: list[str], after: list[str]) -> bool:
    """Whether ``after`` is ``before`` plus the row of a failed solve job (the trace the
    job log keeps by design) and the id counter it used."""
    added, removed = set(after) - set(before), set(before) - set(after)
    counters = {line for line in removed | added if "sqlite_sequence" in line}
    jobs = added - counters
    return (
        removed <= counters
        and all(j.startswith('INSERT INTO "solutions"') and "'failed'" in j for j in jobs)
        and len(jobs) <= 1
    )


FILLS_UP = {
    "at once": lambda needed: 0,
    "after a page": lambda needed: 1,
    "after eight pages": lambda needed: 8,
    "a third of the way": lambda needed: needed // 3,
    "two thirds of the way": lambda needed: needed * 2 // 3,
    "a page short": lambda needed: needed - 1,
}


@pytest.mark.parametrize("where", FILLS_UP)
def test_a_disk_that_fills_up_during_a_solve(where: str, tmp_path: Path) -> None:
    """Wherever the disk fills, the solve fails in one line, the published solutions stay
    as they were, and the database works once there is space again."""
    db = tmp_path / "ghost.db"
    words = word_list(tmp_path / "words.txt", 3000)
    assert invoke(["ingest", str(words), "--db", str(db)])[0] == 0
    needed = pages_a_solve_adds(db, tmp_path / "probe.db")
    assert needed > 60  # several chunks of rows
    before = dump(db)
    with page_limit(FILLS_UP[where](needed)):
        code, out, err = invoke(["solve", "words", "-q", "--db", str(db)])
    assert (code, out) == (1, ""), err
    assert ONE_LINE.match(err) and FULL in err, err
    assert failed_job_only(before, dump(db))
    code, out, err = invoke(["solve", "words", "-q", "--db", str(db)])
    assert code == 0, err
    assert invoke(["lookup", "words", "ab", "--db", str(db)])[0] == 0


def pages_a_solve_adds(db: Path, probe: Path) -> int:
    """How many pages publishing a solve of the list in ``db`` adds to it, measured on a
    copy: the pages of the answers kept after publishing are left out."""
    import shutil

    shutil.copy(db, probe)

    def pages() -> int:
        with closing(sqlite3.connect(probe)) as con:
            return int(con.execute("PRAGMA page_count").fetchone()[0])

    before = pages()
    assert invoke(["solve", "words", "-q", "--db", str(probe)])[0] == 0
    with closing(sqlite3.connect(probe)) as con:
        kept = con.execute(
            "SELECT count(*) FROM dbstat WHERE name LIKE '%kept_answers%'"
        ).fetchone()[0]
    return pages() - before - int(kept)


def test_a_disk_that_fills_up_while_answers_are_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The solution is published; the one line says so and how to keep its answers, and
    solving again keeps them."""
    from ghostdb.store.answers import kept

    db = tmp_path / "ghost.db"
    words = word_list(tmp_path / "words.txt", 3000)
    assert invoke(["ingest", str(words), "--db", str(db)])[0] == 0

    def full(*_args: Any) -> None:
        raise sqlite3.OperationalError("database or disk is full")

    with monkeypatch.context() as patch:
        patch.setattr(kept, "keep", full)
        code, out, err = invoke(["solve", "words", "-q", "--db", str(db)])
    assert (code, out) == (1, ""), err
    assert ONE_LINE.match(err) and "solved and published" in err, err
    assert "ghostdb solve words` to keep them" in err, err
    with closing(sqlite3.connect(db)) as con:
        assert con.execute("SELECT count(*) FROM kept_answers").fetchone() == (0,)
    assert invoke(["lookup", "words", "ab", "--db", str(db)])[0] == 0
    code, out, err = invoke(["solve", "words", "--db", str(db)])
    assert code == 0 and "already solved" in out, err
    with closing(sqlite3.connect(db)) as con:
        assert con.execute("SELECT count(*) FROM kept_answers").fetchone()[0] >= 4


@contextmanager
def small_disk(folder: Path, size: str) -> Iterator[Path]:
    """A tmpfs of ``size`` mounted on ``folder`` (root only)."""
    if os.geteuid() != 0:
        pytest.skip("mounting a small file system needs root")
    folder.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size},mode=0755", "tmpfs", str(folder)],
        capture_output=True,
        text=True,
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def fill(folder: Path, leave: int) -> Path:
    """A file that leaves about ``leave`` bytes free on ``folder``'s file system."""
    stat = os.statvfs(folder)
    filler = folder / "filler"
    size = stat.f_bavail * stat.f_frsize - leave
    if size > 0:
        with filler.open("wb") as f:
            os.posix_fallocate(f.fileno(), 0, size)
    return filler


def ghostdb(*args: str, **kwargs: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ghostdb", *args],
        capture_output=True,
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
        **kwargs,
    )


@pytest.mark.slow
@pytest.mark.parametrize("free", [0, 40_000, 400_000, 2_000_000])
def test_a_real_disk_that_is_full(free: int, tmp_path: Path, enable1: Path) -> None:
    """A real file system with ``free`` bytes left: ingest and solve fail in one line, the
    data stays as it was, and everything works again once space is freed."""
    mid = tmp_path / "mid.txt"  # every 8th word of enable1: a solve writes about 4 MB
    mid.write_text("\n".join(enable1.read_text().split()[::8]) + "\n")
    with small_disk(tmp_path / "disk", "16m") as disk:
        db = disk / "ghost.db"
        assert ghostdb("ingest", str(mid), "--db", str(db)).returncode == 0
        before = dump(db)
        for args, may_leave_a_failed_job in (
            (["solve", "mid", "-q"], True),
            (["ingest", str(enable1)], False),
        ):
            sql(db, "PRAGMA wal_checkpoint(TRUNCATE)")  # no room left over in the log
            filler = fill(disk, free)
            proc = ghostdb(*args, "--db", str(db))
            assert proc.returncode == 1, (args, proc.stdout, proc.stderr)
            assert ONE_LINE.match(proc.stderr) and FULL in proc.stderr, proc.stderr
            filler.unlink(missing_ok=True)  # reading needs a little space
            after = dump(db)
            assert after == before or (may_leave_a_failed_job and failed_job_only(before, after))
            before = after
        assert sqlite3.connect(db).execute("PRAGMA integrity_check").fetchone() == ("ok",)
        proc = ghostdb("solve", "mid", "-q", "--db", str(db))
        assert proc.returncode == 0, proc.stderr


# -- read-only files and folders ---------------------------------------------------------------


@contextmanager
def read_only(path: Path) -> Iterator[None]:
    """``path`` read-only: by its permissions, or for root (whom they do not stop) by the
    file system's immutable attribute."""
    if os.geteuid() != 0:
        mode = path.stat().st_mode
        path.chmod(0o555 if path.is_dir() else 0o444)
        try:
            yield
        finally:
            path.chmod(mode)
        return
    done = subprocess.run(["chattr", "+i", str(path)], capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot make {path} read-only for root: {done.stderr.strip()}")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(path)], check=True)


def test_a_read_only_file(five: Path) -> None:
    before = state(five)
    with read_only(five):
        for args in (INGEST, SOLVE4):
            proc = ghostdb(*args, "--db", str(five))
            assert proc.returncode == 1, proc.stderr
            assert ONE_LINE.match(proc.stderr) and "is read-only" in proc.stderr, proc.stderr
        proc = ghostdb(*LOOKUP, "--db", str(five))  # reading works
        assert proc.returncode == 0 and "gre" in proc.stdout, proc.stderr
    assert state(five) == before


def test_a_read_only_folder(five: Path) -> None:
    folder = five.parent
    before = tree(folder)
    assert sorted(p.name for p in folder.iterdir()) == ["ghost.db"]  # not in use
    with read_only(folder):
        for args in (INGEST, SOLVE4, LOOKUP):
            proc = ghostdb(*args, "--db", str(five))
            assert proc.returncode == 1, (args, proc.stdout, proc.stderr)
            assert ONE_LINE.match(proc.stderr), proc.stderr
            assert f"the folder {folder} is read-only" in proc.stderr
        proc = ghostdb(*INGEST, "--db", str(folder / "new.db"))
        assert proc.returncode == 1 and ONE_LINE.match(proc.stderr), proc.stderr
        assert f"the folder {folder} is read-only" in proc.stderr
    assert tree(folder) == before


def test_a_pack_into_a_read_only_folder(five: Path, tmp_path: Path) -> None:
    folder = tmp_path / "packs"
    folder.mkdir()
    before = state(five)
    with read_only(folder):
        proc = ghostdb("pack", "five", "-o", str(folder / "five.ghostpack"), "--db", str(five))
        assert proc.returncode == 1 and ONE_LINE.match(proc.stderr), proc.stderr
        assert "cannot write" in proc.stderr and "five.ghostpack" in proc.stderr
    assert list(folder.iterdir()) == [] and state(five) == before


# -- memory ------------------------------------------------------------------------------------


def test_running_out_of_memory_for_real(five: Path) -> None:
    """An endless word list under a memory limit: one line, nothing stored."""
    limit = 512 * 2**20

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    before = state(five)
    proc = ghostdb(
        "ingest",
        "/dev/zero",
        "--db",
        str(five),
        preexec_fn=limited,
        env={**os.environ, "OPENBLAS_NUM_THREADS": "1"},
    )
    assert proc.returncode == 1 and ONE_LINE.match(proc.stderr), proc.stderr
    assert state(five) == before


# -- Ctrl-C ------------------------------------------------------------------------------------


def wait_until(condition: Callable[[], bool], seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def job_statuses(db: Path) -> list[str]:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return [row[0] for row in conn.execute("SELECT status FROM solutions ORDER BY id")]
    finally:
        conn.close()


@pytest.mark.slow
def test_ctrl_c_during_a_solve(tmp_path: Path, enable1: Path) -> None:
    db = tmp_path / "ghost.db"
    assert ghostdb("ingest", str(enable1), "--db", str(db)).returncode == 0
    before = dump(db)
    proc = subprocess.Popen(
        [sys.executable, "-m", "ghostdb", "solve", "enable1", "-q", "--db", str(db)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    wait_until(lambda: job_statuses(db) == ["running"])
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    # 130, or death by the SIGINT itself after the message (rarely, when the signal lands
    # while the interpreter unwinds): a shell reports both as exit status 130.
    assert proc.returncode in (130, -signal.SIGINT)
    assert (out, err) == ("", "interrupted: nothing was published\n")
    assert job_statuses(db) == ["failed"]
    assert failed_job_only(before, dump(db))


def group_gone(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return True
    return False


@pytest.mark.slow
@pytest.mark.long  # six ENABLE solves after the interrupt
def test_ctrl_c_stops_every_worker_of_a_solve_in_workers(tmp_path: Path, enable1: Path) -> None:
    db = tmp_path / "ghost.db"
    assert ghostdb("ingest", str(enable1), "--db", str(db)).returncode == 0
    args = ["solve", "enable1", "--all", "-j", "4", "-q", "--db", str(db)]
    proc = subprocess.Popen(
        [sys.executable, "-m", "ghostdb", *args],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # a process group of its own, as a terminal's job is
    )
    wait_until(lambda: "running" in job_statuses(db))
    os.killpg(proc.pid, signal.SIGINT)  # as Ctrl-C does: the workers get it too
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert err.startswith("interrupted: what was published is kept;") and err.count("\n") == 1
    wait_until(lambda: group_gone(proc.pid), seconds=30)  # no worker outlives it
    # A worker stopped between recording its job and taking SIGTERM over leaves the job
    # "running" with a dead process: the next solve marks it failed (`reap_interrupted`).
    again = ghostdb(*args)
    assert again.returncode == 0, again.stderr
    statuses = job_statuses(db)
    assert statuses.count("complete") == 6 and "running" not in statuses


def test_ctrl_c_elsewhere(five: Path) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "ghostdb", "play", "five", "--db", str(five)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    wait_until(lambda: "to move" in proc.stdout.readline())  # waiting for a move
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert (proc.returncode, err) == (130, "interrupted\n")


# -- help --------------------------------------------------------------------------------------


def every_command() -> list[tuple[list[str], Any]]:
    group = typer.main.get_command(app)
    found: list[tuple[list[str], Any]] = [([], group)]
    for name, command in group.commands.items():  # type: ignore[attr-defined]
        found.append(([name], command))
        for sub, inner in getattr(command, "commands", {}).items():
            found.append(([name, sub], inner))
    return found


@pytest.mark.parametrize(("path", "command"), every_command(), ids=lambda v: str(v))
def test_help_shows_every_default_and_every_word(path: list[str], command: Any) -> None:
    result = CliRunner().invoke(app, [*path, "--help"], env={"COLUMNS": "80"})
    assert result.exit_code == 0
    shown = " ".join(result.stdout.split())
    for param in command.params:
        text = " ".join((getattr(param, "help", None) or "").split())
        assert text in shown, (path, param.name)  # nothing eaten, wrapped lines intact
        if param.param_type_name != "option" or param.name == "help":
            continue
        if param.is_flag and not param.secondary_opts:
            continue  # a plain switch: off unless given
        assert "[default: " in shown or "default" in text, (path, param.name)
        if param.default is not None and not param.is_flag:
            value = getattr(param.default, "value", param.default)
            assert f"default: {value}" in shown, (path, param.name)
    assert not re.search(r"[\w)] [.,;:](\s|$)", shown), shown  # where markup ate a note


def test_help_of_a_command_with_notes_in_brackets() -> None:
    shown = " ".join(CliRunner().invoke(app, ["lookup", "--help"]).stdout.split())
    assert "Ghost variant [default: ghost]." in shown
    assert "SQLite file path [default: ./ghost.db]" in shown
    shown = " ".join(CliRunner().invoke(app, ["ingest", "--help"]).stdout.split())
    assert "Dictionary name [default: file stem]." in shown


# -- the messages themselves -------------------------------------------------------------------


def test_describe_gives_one_line_for_anything() -> None:
    assert describe(ValueError("two\nlines")).count("\n") == 0
    assert "bug in ghostdb" in describe(ZeroDivisionError("division by zero"))
    assert describe(OSError(28, "No space left on device", "/x/ghost.db")).startswith(
        "the disk holding /x/ghost.db is full"
    )
    for url in ("postgresql+psycopg://u:pw@h:x/d", "postgresql+psycopg://u:pw@h:1/d"):
        message = describe(ValueError("bad port"), url)
        assert "u:***@h" in message and "pw" not in message
