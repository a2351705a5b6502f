"""`ghostdb lookup` starts at the floor: a fresh process imports what reading one row and
printing it needs, and nothing else (issue #45; `scripts/bench.py --only startup` times it
against a bare SQLAlchemy read of the same row, target 1.15x).

What a lookup needs, and so may import: SQLAlchemy and its SQLite dialect (the engine;
the bare read pays for them too), the store's façade and its lookup machinery (a
plain-Ghost lookup reads through SQL text, without building the schema's tables: 3% of
the process), every game's rule sets (the package's top level exports Ghost's,
Chopsticks' and tic-tac-toe's), the looked-up game's moves, the command's entry
(`ghostdb.cli.start`, which reads a plain lookup's arguments by hand: Typer and Click
would be a fifth of the process) and its renderer (`ghostdb.text.positions`).  A lookup
with any other option is the command line's (`ghostdb.cli.lookups`), with Typer.

`FORBIDDEN` is what it does not need, each with why it would be there.  A module that
SQLAlchemy imports itself is the floor's, not ghostdb's: `asyncio` (SQLAlchemy 2.1's
``sqlalchemy.util.compat`` imports it), `email` and `urllib.request`, if a version does,
are allowed where the bare read imports them too (`floor`).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

FORBIDDEN = {
    # the web server (`serve`) and the rooms' client (`join`)
    "asyncio": "the web server's event loop",
    "fastapi": "the web server",
    "starlette": "the web server",
    "uvicorn": "the web server",
    "pydantic": "the web server's models",
    "websockets": "the rooms' sockets (`serve`, `join`)",
    "urllib.request": "`join`'s HTTP",
    "http.client": "`join`'s HTTP",
    "email": "`join`'s HTTP",
    # what solves, packs, exports, upgrades and tests use
    "numpy": "building and solving, packs",
    "zlib_ng": "packs",
    "pyarrow": "`export parquet`",
    "wordfreq": "the common:N players",
    "english_words": "the built-in word lists (`ingest builtin:...`)",
    "alembic": "schema upgrades (a read opens a database at the head revision)",
    "mako": "schema upgrades",
    "psycopg": "PostgreSQL (the lookup reads SQLite)",
    "sqlalchemy.dialects.postgresql": "PostgreSQL",
    "sqlalchemy.orm": "the ORM (the store uses Core)",
    "rich": "Typer's rich help and tracebacks (the help is plain, errors are one line)",
    "typer": "the command line's framework (a plain lookup's arguments are read by hand)",
    "click": "the command line's framework, under Typer",
    "ghostdb.cli.group": "the command line proper",
    "ghostdb.cli.options": "the command line's options",
    "ghostdb.cli.lookups": "the command line's `lookup`, for its other options",
    "hypothesis": "the tests",
    # ghostdb beside the lookup
    "ghostdb.solvers": "solving",
    "ghostdb.pack": "packs",
    "ghostdb.play": "play, puzzles, analysis and the rooms",
    "ghostdb.web": "the web server",
    "ghostdb.wordlists": "ingest",
    "ghostdb.wordfiles": "ingest",
    "ghostdb.strategies": "plans (`strategy`, `openings --words`)",
    "ghostdb.records": "the result records of reports and solves",
    "ghostdb.world": "`world`",
    "ghostdb.games.ghost.graph": "building Ghost's positions (solving)",
    "ghostdb.games.ghost.fragments": "building Ghost's positions (solving)",
    "ghostdb.games.ghost.letters": "building Ghost's positions (solving)",
    "ghostdb.games.ghost.decisive": "decisive words",
    "ghostdb.games.ghost.decisive.infix": "decisive words",
    "ghostdb.games.ghost.estimate": "a solve's memory check",
    # the other commands' modules and renderers
    **{
        f"ghostdb.cli.{name}": "another command's module"
        for name in (
            "dictionaries",
            "solving",
            "world",
            "packs",
            "exports",
            "reports",
            "playing",
            "serve",
            "schema",
            "join",
        )
    },
    **{
        f"ghostdb.text.{name}": "another command's renderer"
        for name in ("analysis", "matches", "plans", "reports", "rooms", "verdicts")
    },
}
"""Modules (and their submodules) a lookup must not import, and what needs them."""

STORE_BESIDE_LOOKUPS = (
    "jobs",
    "schedule",
    "workers",
    "bulk",
    "verify",
    "verify_base",
    "verify_plans",
    "comparing",
    "decisive",
    "exporting",
    "packing",
    "kept",
    "rooms",
    "room_judge",
    "walks",
    "plan_walks",
    "plan_rows",
    "memory",
    "puzzles",
)
"""The store's modules for solving, verifying, comparing, exporting, packing, kept
answers, rooms and walks, by their last name (wherever `ghostdb.store` files them)."""

GAME_MOVES = ("ghostdb.games.chopsticks", "ghostdb.games.tictactoe", "ghostdb.games.connectfour")
"""The moves of each stand-alone game (their rule sets are `<game>_rules`)."""

BARE_READ = """\
import sys
from sqlalchemy import create_engine, text
engine = create_engine(f"sqlite:///{sys.argv[1]}")
with engine.connect() as conn:
    conn.execute(text("SELECT * FROM positions WHERE solution_id = 1")).first()
"""


COMMAND = """\
import atexit, sys
atexit.register(lambda: print("loaded:", *sorted(sys.modules), file=sys.stderr))
from ghostdb.cli.start import main
main()
"""
"""The `ghostdb` command (`python -m ghostdb`), saying at its exit every module it loaded."""


def imported(*command: str) -> list[str]:
    """The modules a fresh Python imports running ``command`` (its arguments), in the order
    ``-X importtime`` reports them; the command must succeed."""
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", *command],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    found = [
        line.split("|")[2].strip()
        for line in proc.stderr.splitlines()
        if line.startswith("import time:") and "self [us]" not in line
    ]
    loaded = [line for line in proc.stderr.splitlines() if line.startswith("loaded: ")]
    if loaded:  # -X importtime misses what importlib.import_module imports: nothing of ours
        unseen = [m for m in loaded[0].split()[1:] if m.startswith("ghostdb") and m not in found]
        assert unseen == [], f"imported where -X importtime cannot see it: {unseen}"
    return found


def ghostdb(*args: str) -> list[str]:
    """The modules `ghostdb ARGS...` imports in a fresh process."""
    return imported("-c", COMMAND, *args)


def within(module: str, names: set[str]) -> bool:
    """Whether ``module`` is one of ``names`` or a submodule of one."""
    parts = module.split(".")
    return any(".".join(parts[:i]) in names for i in range(1, len(parts) + 1))


@pytest.fixture(scope="module")
def floor(small_web_db: Path) -> set[str]:
    """What SQLAlchemy's own read of a row imports: the bare read the lookup is timed
    against."""
    return set(imported("-c", BARE_READ, str(small_web_db)))


def needless(modules: list[str], floor: set[str], games: tuple[str, ...]) -> list[str]:
    """The modules of ``modules`` a lookup does not need: `FORBIDDEN` ones the floor does
    not import, the store's modules beside lookups, and the moves of ``games``."""
    found = []
    for module in modules:
        parts = module.split(".")
        if (
            (within(module, set(FORBIDDEN)) and module not in floor)
            or (parts[:2] == ["ghostdb", "store"] and parts[-1] in STORE_BESIDE_LOOKUPS)
            or within(module, set(games))
        ):
            found.append(module)
    return found


def test_a_lookup_imports_only_what_it_uses(small_web_db: Path, floor: set[str]) -> None:
    modules = ghostdb("lookup", "five", "gr", "--db", str(small_web_db))
    assert "ghostdb.cli.start" in modules and "ghostdb.text.positions" in modules
    assert "ghostdb.games.ghost" in modules
    assert needless(modules, floor, GAME_MOVES) == []
    tables = {
        "ghostdb.store.sql.schema",
        "ghostdb.store.sql.queries",
        "ghostdb.store.answers.dictionaries",
    }
    assert tables.isdisjoint(modules)  # SQL text: see test_the_lookups_sql_text_...


def test_a_lookup_of_another_game_imports_that_game_alone(
    small_web_db: Path, floor: set[str]
) -> None:
    """Chopsticks' moves, and no other stand-alone game's.  Ghost's package comes with its
    rule sets (`ghostdb.Rules`, and its options on every parser), as the word game."""
    modules = ghostdb("lookup", "chopsticks", "--db", str(small_web_db))
    assert "ghostdb.games.chopsticks" in modules
    others = tuple(g for g in GAME_MOVES if g != "ghostdb.games.chopsticks")
    assert needless(modules, floor, others) == []


def test_the_floor_is_what_the_forbidden_list_says(floor: set[str]) -> None:
    """The bare read imports SQLAlchemy and its SQLite dialect, and none of ghostdb."""
    assert {"sqlalchemy", "sqlalchemy.dialects.sqlite", "sqlite3"} <= floor
    assert not any(m.startswith(("ghostdb", "typer")) for m in floor)


def test_a_lookup_makes_only_its_own_command(five: Path) -> None:
    """`ghostdb lookup` makes (reads the signature of) only its own command of the 25,
    and loads nothing that solves, verifies or reports."""
    script = (
        "import sys\n"
        "from ghostdb.cli.group import app\n"
        "from ghostdb.cli.group import LazyTyper\n"
        "made = []\n"
        "make = LazyTyper.make_command\n"
        "LazyTyper.make_command = lambda self, name: made.append(name) or make(self, name)\n"
        "try:\n"
        f"    app(['lookup', 'five', 'gh', '--db', {str(five)!r}])\n"
        "except SystemExit as exc:\n"
        "    assert exc.code == 0, exc.code\n"
        "heavy = ['numpy', 'alembic', 'ghostdb.solvers', 'ghostdb.games.ghost.graph',\n"
        "         'ghostdb.store.solving.jobs', 'sqlalchemy.dialects.postgresql', 'fastapi',\n"
        "         'ghostdb.store.verification.solutions', 'ghostdb.wordlists',\n"
        "         'ghostdb.play.engine',\n"
        "         'ghostdb.strategies', 'ghostdb.records', 'ghostdb.text.plans',\n"
        "         'ghostdb.text.reports', 'ghostdb.text.matches', 'ghostdb.text.verdicts',\n"
        "         'rich']\n"
        "print([m for m in heavy if m in sys.modules], made)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().splitlines()[-1] == "[] ['lookup']"


def test_the_command_table_names_what_each_module_registers() -> None:
    """`ghostdb.cli.COMMANDS` (which module to import for a command) holds every command
    each module registers, and only those."""
    import importlib

    from ghostdb.cli import COMMANDS
    from ghostdb.cli.group import app

    for module, names in COMMANDS.items():
        before = {*app.lazy_commands, *(g.name for g in app.registered_groups)}
        importlib.import_module(module)
        after = {*app.lazy_commands, *(g.name for g in app.registered_groups)}
        if after == before:  # imported before this test: its commands are all there
            assert set(names) <= after, module
        else:
            assert after - before == set(names), module
    assert app.names() == [name for names in COMMANDS.values() for name in names]


def test_the_lookups_sql_text_reads_what_the_stores_queries_read(small_web_db: Path) -> None:
    """A lookup finds its solution with SQL text (`ghostdb.store.answers.lookups`: the schema's
    tables are not built in a lookup process); the store's Core queries find the same rows,
    missing ones included."""
    from ghostdb import open_store
    from ghostdb.store.answers import lookups
    from ghostdb.store.sql import queries
    from ghostdb.store.sql.schema import positions

    assert positions.name == lookups.POSITIONS
    with open_store(small_web_db, create=False) as store, store.engine.connect() as conn:
        for name in ("five", "nothing"):
            core = queries.dictionary_by_name(conn, name)
            text = conn.execute(lookups.DICTIONARY_SQL, {"name": name}).first()
            assert (core and (core.id, core.alphabet)) == (text and (text.id, text.alphabet))
        five = queries.dictionary_by_name(conn, "five").id
        subjects = [("ghost", five), ("ghost", five + 1), ("chopsticks", None), ("nim", None)]
        keys = ["ghost/3", "ghost/4", "super/3", "ghost/3/misere", "chopsticks/5", "tictactoe"]
        found = 0
        for game, dictionary_id in subjects:
            for key in keys:
                core = queries.published_solution(conn, game, dictionary_id, key)
                text = lookups.solution_ref(conn, game, dictionary_id, key)
                assert (core and (core.id, core.has_plans)) == (
                    text and (text.id, bool(text.has_plans))
                ), (game, dictionary_id, key)
                found += core is not None
        assert found == 5  # four rule sets of five, and Chopsticks


# -- the plain lookup, read by hand ------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["lookup", "five", "gr"],
        ["lookup", "five", "gr", "--json"],
        ["lookup", "--json", "five"],
        ["lookup", "five"],
        ["lookup", "chopsticks", "1111"],
        ["lookup", "tictactoe", "--json"],
        ["lookup", "five", "qz"],  # not a position: the command line's error
        ["lookup", "nosuch", "gr"],
        ["lookup", "five", "gr", "--min-length", "4"],  # another option: the command line
        ["--json", "lookup", "five", "gr"],
        ["lookup", "five", "gr", "extra"],
        ["lookup", "--help"],
    ],
)
def test_the_plain_lookup_answers_as_the_command_line_does(
    small_web_db: Path, args: list[str]
) -> None:
    """`ghostdb` (its entry, `ghostdb.cli.start`) against the command line proper
    (`ghostdb.cli.app`) in fresh processes: the same output, errors and exit status."""
    db = ["--db", str(small_web_db)] if args[-1] != "--help" else []
    proper = "from ghostdb.cli.group import app\napp(prog_name='ghostdb')\n"
    runs = [
        subprocess.run(
            [sys.executable, "-c", script, *args, *db],
            capture_output=True,
            text=True,
            timeout=60,
        )
        for script in ("from ghostdb.cli.start import main\nmain()\n", proper)
    ]
    entry, command_line = ((r.returncode, r.stdout, r.stderr) for r in runs)
    assert entry == command_line
    assert command_line[1] or command_line[2]


def test_only_a_plain_lookup_is_read_by_hand() -> None:
    from ghostdb.cli.start import parsed

    assert parsed(["lookup", "five", "gr", "--db", "x.db", "--json"]) == (
        "five",
        "gr",
        True,
        "x.db",
    )
    assert parsed(["lookup", "five", "--db=x.db"]) == ("five", "", False, "x.db")
    for args in (
        [],
        ["solve", "five"],
        ["lookup"],
        ["lookup", "five", "gr", "--rules", "super"],
        ["lookup", "five", "--db"],
        ["lookup", "five", "--db", "--json"],
        ["lookup", "five", "--json", "--json"],
        ["lookup", "five", "-h"],
        ["lookup", "five", "--", "-x"],
        ["lookup", "five", "--db=a", "--db=b"],
        ["--db", "x.db", "lookup", "five"],
    ):
        assert parsed(args) is None, args


def test_a_plain_lookup_interrupted_says_so(small_web_db: Path) -> None:
    script = (
        "import ghostdb.cli.start as start\n"
        "def interrupted(*args):\n"
        "    raise KeyboardInterrupt\n"
        "start.answer = interrupted\n"
        "start.main()\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", script, "lookup", "five", "--db", str(small_web_db)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (proc.returncode, proc.stdout, proc.stderr) == (130, "", "interrupted\n")


def test_a_plain_lookup_to_a_closed_pipe_says_so_as_the_command_line_does(
    small_web_db: Path,
) -> None:
    found = []
    for script in (
        "from ghostdb.cli.start import main\nmain()\n",
        "from ghostdb.cli.group import app\napp(prog_name='ghostdb')\n",
    ):
        proc = subprocess.Popen(
            [sys.executable, "-c", script, "lookup", "five", "--db", str(small_web_db)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        assert proc.stdout is not None and proc.stderr is not None
        proc.stdout.close()  # the reader went away, as `| head -0` does
        found.append((proc.wait(timeout=60), proc.stderr.read()))
        proc.stderr.close()
    assert found[0] == found[1]
    assert found[0][0] == 1 and found[0][1].startswith(b"error: ")
