"""Shared fixtures: word lists from ../shared/wordlists, fresh databases, solved enable1."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ghostdb import Rules, Store, open_store
from ghostdb.cli import app

ROOT = Path(__file__).resolve().parent.parent
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

    from ghostdb.store.schema import metadata

    engine = create_engine(url)
    try:
        with engine.begin() as conn:
            names = [*RETIRED_TABLES, *(t.name for t in reversed(metadata.sorted_tables))]
            for name in names:
                conn.execute(text(f"DROP TABLE IF EXISTS {name} CASCADE"))
    finally:
        engine.dispose()


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
    with open_store(str(db_path)) as s:
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


@pytest.fixture(scope="session")
def solved_enable1(tmp_path_factory: pytest.TempPathFactory, enable1: Path) -> Iterator[Store]:
    """enable1 ingested and solved for Ghost with minimum lengths 3 and 4 (slow: seconds)."""
    path = tmp_path_factory.mktemp("enable1") / "ghost.db"
    with open_store(str(path)) as s:
        s.ingest(enable1)
        s.solve("enable1", Rules(min_length=3))
        s.solve("enable1", Rules(min_length=4))
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
    with open_store(str(db)) as store:
        store.ingest(OWN_WORDLISTS / "five.txt")
        store.solve("five")
    return db


# -- the web server (tests/test_web.py, tests/test_browser.py) ----------------------------------


@pytest.fixture(scope="session")
def web_db(tmp_path_factory: pytest.TempPathFactory, solved_enable1: Store) -> Path:
    """A copy of solved_enable1's database with Chopsticks and tic-tac-toe solved beside it
    (a copy, so the games never show up in the other tests' listings)."""
    source = solved_enable1.engine.url.database
    path = tmp_path_factory.mktemp("web") / "ghost.db"
    with sqlite3.connect(source) as src, sqlite3.connect(path) as dst:
        src.backup(dst)
    with open_store(str(path)) as store:
        store.solve("chopsticks")
        store.solve("tictactoe")
    return path


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
    with open_store(str(path)) as store:
        store.ingest(OWN_WORDLISTS / "five.txt")
        for rules in (Rules(), Rules(min_length=4), Rules(Variant.SUPER), Rules(misere=True)):
            store.solve("five", rules)
        store.solve("chopsticks")
        store.solve("tictactoe")
    return path
