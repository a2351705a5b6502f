"""Shared fixtures: word lists from ../shared/wordlists, fresh databases, solved enable1."""

from __future__ import annotations

import contextlib
import os
import signal
import sqlite3
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from ghostdb import Rules, Store, open_store
from ghostdb.cli.group import app

ROOT = Path(__file__).resolve().parent.parent
POSTGRES_SKIP = (
    "GHOSTDB_TEST_POSTGRES_URL is not set: to run this, point it at a scratch PostgreSQL "
    "database (the tests drop its tables), e.g. GHOSTDB_TEST_POSTGRES_URL="
    "'postgresql+psycopg://USER:PASSWORD@HOST/DB' or 'postgresql+psycopg://USER@/DB?host="
    "/run/postgresql', with the driver installed: pip install -e '.[dev,postgres]' "
    "(.ci/run starts a server)"
)
"""Why a PostgreSQL test is skipped, and how to run it (.ci/run greps its first words)."""
SHARED_WORDLISTS = ROOT.parent / "shared" / "wordlists"
OWN_WORDLISTS = ROOT / "wordlists"


RETIRED_TABLES = (
    "alembic_version",
    "positions_0006",
    "positions_0007",
    "positions_0009",
    "positions_0010",
    "plans",
    "plans_0008",
    "plans_0009",
)
"""Tables a ghostdb database had at earlier revisions (or mid-migration), beside those of
the models."""


def reset_postgres(url: str) -> None:
    """Drop every ghostdb table of the scratch server database ``url``, of any revision."""
    from sqlalchemy import create_engine, text

    from ghostdb.store.sql.schema import metadata

    engine = create_engine(url)
    try:
        with engine.begin() as conn:
            names = [*RETIRED_TABLES, *(t.name for t in reversed(metadata.sorted_tables))]
            for name in names:
                conn.execute(text(f"DROP TABLE IF EXISTS {name} CASCADE"))
    finally:
        engine.dispose()


def pytest_configure(config: pytest.Config) -> None:
    """Under pytest-xdist, give each worker its own scratch PostgreSQL database; and let
    Ctrl-C through to the commands the tests start.

    The server tests drop and recreate every ghostdb table of GHOSTDB_TEST_POSTGRES_URL's
    database; two workers sharing one would drop each other's tables mid-test.  Each worker
    (gw0, gw1, ...) uses ``<database>_<worker>`` on the same server instead, created here
    when missing, before any test module reads the variable.
    """
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    url = os.environ.get("GHOSTDB_TEST_POSTGRES_URL")
    if worker and url:
        os.environ["GHOSTDB_TEST_POSTGRES_URL"] = worker_database(url, worker)
    # A shell starts a background job (`pytest &`, nohup, a CI script's `&`) with Ctrl-C
    # ignored, and a command inherits an ignored signal: the tests that press Ctrl-C on
    # the commands they start would find it ignored.  Python's own handler is not kept
    # across exec, so the commands start with the default again.
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def worker_database(url: str, worker: str) -> str:
    """The URL of ``url``'s database with ``_<worker>`` appended, created if missing."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    base = make_url(url)
    name = f"{base.database}_{worker}"
    engine = create_engine(base.set(database="postgres"), isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            found = conn.execute(text("SELECT 1 FROM pg_database WHERE datname = :n"), {"n": name})
            if found.first() is None:
                conn.execute(text(f'CREATE DATABASE "{name}"'))
    except Exception as exc:
        raise pytest.UsageError(
            f"cannot create the PostgreSQL database {name} for the test worker {worker} "
            f"({exc.__class__.__name__}: {exc}); run the tests serially with -n 0"
        ) from exc
    finally:
        engine.dispose()
    return base.set(database=name).render_as_string(hide_password=False)


def shared_list(name: str) -> Path:
    """A real word list beside the project; fail (not skip) if it is missing."""
    path = SHARED_WORDLISTS / name
    if not path.is_file():
        pytest.fail(
            f"{path} is missing: the real word lists must sit in ../shared/wordlists "
            "beside the project root"
        )
    return path


@pytest.fixture(scope="session")
def enable1() -> Path:
    return shared_list("enable1.txt")


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "ghost.db"


@pytest.fixture
def store(db_path: Path) -> Iterator[Store]:
    with open_store(str(db_path), create=True) as s:
        yield s


def write_list(directory: Path, words: str, name: str = "small") -> Path:
    path = directory / f"{name}.txt"
    path.write_text("\n".join(words.split()) + "\n", encoding="utf-8")
    return path


def dump(db_path: Path) -> list[str]:
    """Every statement needed to rebuild the database: equal dumps, equal databases."""
    if not db_path.exists():
        return []
    with sqlite3.connect(db_path) as conn:
        return list(conn.iterdump())


def copy_db(source: Path, target: Path) -> None:
    """SQLite's online backup of ``source`` into ``target`` (its write-ahead log included)."""
    with (
        contextlib.closing(sqlite3.connect(source)) as src,
        contextlib.closing(sqlite3.connect(target)) as dst,
    ):
        src.backup(dst)


def built_once(factory: pytest.TempPathFactory, name: str, build: Callable[[Path], None]) -> Path:
    """A database of this worker's own that ``build(path)`` filled, built once a test run.

    Under pytest-xdist the first worker that asks builds it in the run's temporary folder,
    which the workers share (the others wait for it, under a lock), and every worker gets
    a copy of its own to open and write to; in a single process it is built in place.
    """
    own = factory.mktemp(name) / "ghost.db"
    try:
        import fcntl
    except ImportError:  # no flock (Windows): each worker builds its own
        fcntl = None
    if not os.environ.get("PYTEST_XDIST_WORKER") or fcntl is None:
        build(own)
        return own
    shared = factory.getbasetemp().parent / f"built-once-{name}"
    shared.mkdir(exist_ok=True)
    done = shared / "built"  # holds the path of the database, once it is whole
    with open(shared / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if not done.exists():
            built = Path(tempfile.mkdtemp(dir=shared)) / "ghost.db"  # a failed try's aside
            build(built)
            done.write_text(str(built))
    copy_db(Path(done.read_text()), own)
    return own


@pytest.fixture(scope="session")
def solved_enable1_db(tmp_path_factory: pytest.TempPathFactory, enable1: Path) -> Path:
    """The database of solved_enable1: solved once a test run (see built_once)."""

    def build(path: Path) -> None:
        with open_store(str(path), create=True) as s:
            s.ingest(enable1)
            s.solve("enable1", Rules(min_length=3))
            s.solve("enable1", Rules(min_length=4))

    return built_once(tmp_path_factory, "enable1", build)


@pytest.fixture(scope="session")
def solved_enable1(solved_enable1_db: Path) -> Iterator[Store]:
    """enable1 ingested and solved for Ghost with minimum lengths 3 and 4 (slow: seconds)."""
    with open_store(str(solved_enable1_db)) as s:
        yield s


_runner = CliRunner()


def run(*args: str, db: Path) -> tuple[int, str, str]:
    """Run the command line in-process: (exit status, stdout, stderr)."""
    result = _runner.invoke(app, [*args, "--db", str(db)])
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def five(tmp_path: Path) -> Path:
    """A database with ghost green tan tree tries, solved for Ghost with words of 3+."""
    db = tmp_path / "ghost.db"
    with open_store(str(db), create=True) as store:
        store.ingest(OWN_WORDLISTS / "five.txt")
        store.solve("five")
    return db


# -- the web server (tests/test_web.py, tests/test_browser.py) ----------------------------------


@pytest.fixture(scope="session")
def web_db(tmp_path_factory: pytest.TempPathFactory, solved_enable1_db: Path) -> Path:
    """A copy of solved_enable1's database with Chopsticks and tic-tac-toe solved beside it
    (a copy, so the games never show up in the other tests' listings)."""

    def build(path: Path) -> None:
        copy_db(solved_enable1_db, path)
        with open_store(str(path), create=True) as store:
            store.solve("chopsticks")
            store.solve("tictactoe")

    return built_once(tmp_path_factory, "web", build)


@pytest.fixture(scope="session")
def web_store(web_db: Path) -> Iterator[Store]:
    with open_store(str(web_db), create=False) as store:
        yield store


@pytest.fixture(scope="session")
def small_web_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """five.txt under four rule sets, with Chopsticks and tic-tac-toe: every route in
    milliseconds (plans of a whole dictionary take seconds)."""
    from ghostdb.games.ghost.rules import Variant

    path = tmp_path_factory.mktemp("small-web") / "ghost.db"
    with open_store(str(path), create=True) as store:
        store.ingest(OWN_WORDLISTS / "five.txt")
        for rules in (Rules(), Rules(min_length=4), Rules(Variant.SUPER), Rules(misere=True)):
            store.solve("five", rules)
        store.solve("chopsticks")
        store.solve("tictactoe")
    return path


@pytest.fixture
def rooms_db(small_web_db: Path, tmp_path: Path) -> Path:
    """A copy of the session's small database: rooms write, so each test has its own."""
    path = tmp_path / "rooms.db"
    copy_db(small_web_db, path)
    return path


SLOW_GAMES = ("connectfour",)
"""Games whose whole solution takes tens of seconds a test (Connect Four 4 × 4): a test
run once a registered game marks their case `long`, which CI runs after the rest."""


def each_game(games: Any) -> list[Any]:
    """``games`` (registered games, or (name, …) tuples) as pytest parameters, those of
    `SLOW_GAMES` marked `long`."""

    def name(item: Any) -> str:
        return item[0] if isinstance(item, tuple) else item.name

    def slow(item: Any) -> Any:
        values = item if isinstance(item, tuple) else (item,)
        return pytest.param(*values, marks=pytest.mark.long)

    return [slow(g) if name(g) in SLOW_GAMES else g for g in games]
