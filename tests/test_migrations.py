"""The models and the Alembic migrations agree; upgrades and downgrades work."""

from __future__ import annotations

from pathlib import Path

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory

from ghostdb import Store
from ghostdb.store import open_store
from ghostdb.store.sql.db import alembic_config, current_revision, make_engine, upgrade
from ghostdb.store.sql.schema import HEAD_REVISION, metadata


def test_single_head_matches_the_code() -> None:
    script = ScriptDirectory.from_config(alembic_config())
    assert script.get_heads() == [HEAD_REVISION]


def test_upgrade_of_an_empty_database_reaches_head_and_matches_models(tmp_path: Path) -> None:
    engine = make_engine(str(tmp_path / "m.db"))
    upgrade(engine)
    with engine.connect() as conn:
        assert current_revision(conn) == HEAD_REVISION
        context = MigrationContext.configure(conn, opts={"compare_type": True})
        assert compare_metadata(context, metadata) == []


def test_downgrade_to_base_and_back(tmp_path: Path) -> None:
    engine = make_engine(str(tmp_path / "m.db"))
    upgrade(engine)
    with engine.begin() as conn:
        command.downgrade(alembic_config(conn), "base")
    with engine.connect() as conn:
        assert current_revision(conn) is None
    upgrade(engine)
    with engine.connect() as conn:
        assert current_revision(conn) == HEAD_REVISION


def test_older_database_is_upgraded_when_opened(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    engine = make_engine(str(path))
    upgrade(engine, "0001")
    engine.dispose()
    with open_store(str(path), create=True) as store:
        assert store.schema_revision() == HEAD_REVISION


def test_a_database_of_the_previous_release_upgrades_and_answers_identically(
    tmp_path: Path,
) -> None:
    """``tests/data/release-0002.db`` was written by ghostdb at schema revision 0002 (see
    tests/data/README.md).  Upgraded in place, every stored position answers exactly as a
    fresh solve of the same lists does, and plans still work."""
    import shutil

    from conftest import OWN_WORDLISTS, write_list
    from sqlalchemy import select

    from ghostdb.games.registry import parse_rules
    from ghostdb.store.sql.schema import positions, solutions

    old = tmp_path / "old.db"
    shutil.copy(Path(__file__).parent / "data" / "release-0002.db", old)
    with (
        open_store(str(old), create=True) as upgraded,
        open_store(str(tmp_path / "fresh.db"), create=True) as fresh,
    ):
        assert upgraded.schema_revision() == HEAD_REVISION
        fresh.ingest(OWN_WORDLISTS / "five.txt")
        fresh.ingest(write_list(tmp_path, "acc ccaa", "acc"))
        with upgraded.engine.connect() as conn:
            published = conn.execute(
                select(solutions.c.id, solutions.c.rules, solutions.c.dictionary_id).where(
                    solutions.c.status == "complete"
                )
            ).all()
            assert len(published) == 8  # acc: 6 rule sets; five: ghost/3 and ghost/4
            compared = 0
            for sid, key, _ in published:
                rules = parse_rules(key)
                name = "five" if key.startswith("ghost/") and _has(conn, sid, "ghost") else "acc"
                fresh.solve(name, rules)
                frags = conn.execute(
                    select(positions.c.fragment).where(positions.c.solution_id == sid)
                ).scalars()
                for fragment in frags:
                    assert upgraded.solution(name, rules).lookup(fragment) == fresh.solution(
                        name, rules
                    ).lookup(fragment)
                    compared += 1
        assert compared > 50
        assert upgraded.solution("five").strategy(1) == fresh.solution("five").strategy(1)
        # Answers kept since revision 0011 are worked out on first request for solutions
        # published before it, and equal those kept when a fresh solve published.
        assert [r.as_dict() for r in upgraded.report("five")] == [
            r.as_dict() for r in fresh.report("five")
        ]
        assert [s.status for s in upgraded.solutions("five")] == [
            "superseded",
            "complete",
            "complete",
        ]
        # Decisive words (revision 0005) are worked out and kept on the upgraded file as
        # on a fresh one.
        assert (
            upgraded.solution("five").decisive("").as_dict()
            == fresh.solution("five").decisive("").as_dict()
        )
        # Every upgraded solution verifies clean; verify says what it could not check.
        verdicts = upgraded.verify()
        assert len(verdicts) == 8 and all(v.ok for v in verdicts)
        assert sum(v.decisive for v in verdicts) == 1
        assert all(any("input's hash" in n for n in v.notes) for v in verdicts)


def _has(conn, solution_id: int, fragment: str) -> bool:  # type: ignore[no-untyped-def]
    from sqlalchemy import select

    from ghostdb.store.sql.schema import positions

    stmt = select(positions.c.fragment).where(
        positions.c.solution_id == solution_id, positions.c.fragment == fragment
    )
    return conn.execute(stmt).first() is not None


def _normal(sql: str | None) -> list[str]:
    """A statement's lines (or a file's, statement by statement) with its constraints in
    sorted order, without trailing commas or blank lines: Alembic's batch mode writes a
    recreated table's constraints in an order that varies from run to run."""
    normal: list[str] = []
    for statement in (sql or "").split(";\n"):
        lines = [line.strip().rstrip(",") for line in statement.splitlines()]
        lines = [line for line in lines if line]
        constraints = sorted(line for line in lines if line.startswith("CONSTRAINT"))
        normal += [line for line in lines if not line.startswith("CONSTRAINT")] + constraints
    return normal


def _schema(path: Path) -> list[tuple[object, ...]]:
    engine = make_engine(str(path))
    try:
        with engine.connect() as conn:
            rows = conn.exec_driver_sql(
                # sqlite_sequence: SQLite's own, left behind by revision 0001
                "SELECT type, name, tbl_name, sql FROM sqlite_master "
                "WHERE name != 'sqlite_sequence' ORDER BY name"
            ).all()
            revision = current_revision(conn)
    finally:
        engine.dispose()
    return [(*r[:3], _normal(r[3])) for r in rows] + [("revision", revision)]


def test_a_new_sqlite_database_gets_the_schema_the_migrations_make(tmp_path: Path) -> None:
    """A fresh SQLite file is created from migrations/head.sqlite.sql, not by running the
    migrations; the two give the same tables, indexes and revision, and the file is what
    scripts/schema_sql.py writes from the migrations now."""
    from ghostdb.store.sql.db import HEAD_SQL, sqlite_head_sql

    saved = (Path(__file__).parent.parent / "migrations" / HEAD_SQL).read_text("utf-8")
    assert _normal(saved) == _normal(sqlite_head_sql()), (
        "run `python scripts/schema_sql.py` after a migration"
    )
    migrated = tmp_path / "migrated.db"
    upgrade(make_engine(str(migrated)))
    with open_store(str(tmp_path / "fresh.db"), create=True):
        pass
    assert _schema(tmp_path / "fresh.db") == _schema(migrated)
    assert ("revision", HEAD_REVISION) in _schema(migrated)


def test_a_new_sqlite_database_is_made_without_importing_alembic(tmp_path: Path) -> None:
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from ghostdb import open_store\n"
        f"with open_store({str(tmp_path / 'new.db')!r}, create=True) as store:\n"
        "    print(store.schema_revision(), 'alembic' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == [HEAD_REVISION, "False"]


def lookups_through_revision(store: Store, tmp: Path, old: str) -> int:
    """Solve small lists of every word-game variant and the other games, read every
    stored position and every plan from it, downgrade to revision ``old`` (0006: best
    moves as keys, outcomes as words; 0007: plans in a table of their own, their moves
    as keys; 0008: with both ranks; 0009: with one) and upgrade again: every position
    and plan answers as before, and verifies clean.  Returns how many positions were
    compared."""
    from conftest import write_list
    from sqlalchemy import select, text

    from ghostdb.games.registry import parse_rules
    from ghostdb.store.sql.db import alembic_config, writing
    from ghostdb.store.sql.schema import positions

    lists = {"acc": "acc ccaa cab abc bca", "tree": "tree trie tried tan green ghost"}
    for name, words in lists.items():
        store.ingest(write_list(tmp, words, name), replace=True)
    solved = [
        (name, parse_rules(key))
        for name in lists
        for key in ("ghost/3", "super/3/misere", "superduper/3", "insert/3", "anagram/3")
    ] + [("chopsticks", parse_rules("chopsticks/5")), ("tictactoe", parse_rules("tictactoe"))]
    for name, rules in solved:
        store.solve(name, rules, force=True)

    movers = {}  # (solution, level, key): the plan's rank with the strategist to move
    counts = {}  # (solution, key): the winning and drawing moves a lookup counts

    def answers() -> dict[tuple[str, str, str], object]:
        found = {}
        for name, rules in solved:
            solution = store.solution(name, rules)
            solution_id = solution.refresh().id
            with store.engine.connect() as conn:
                keys = conn.execute(
                    select(positions.c.fragment).where(positions.c.solution_id == solution_id)
                ).scalars()
                for key in keys:
                    found[(name, rules.key, key)] = pos = solution.lookup(key)
                    counts[(solution_id, key)] = (pos.winning_moves, pos.drawing_moves)
                    if solution.game.keeps_plans and pos.reachable:
                        plans = [solution.strategy(p, key) for p in (0, 1)]
                        found[(name, rules.key, key, "plans")] = [
                            (plan.as_dict(), plan.rank) for plan in plans
                        ]
                        rank = plans[pos.to_move].rank
                        movers[(solution_id, solution.game.level(key), key)] = (
                            rank.lossiness,
                            rank.outcomes,
                            rank.letters,
                        )
        return found

    before = answers()
    assert sum(key[-1] == "plans" for key in before) > 100
    keys = {
        "0006": "SELECT count(best_next) FROM positions",
        "0007": "SELECT count(plan_next) FROM plans",
        "0008": "SELECT count(mover_letters) FROM plans",
        "0009": "SELECT count(waiter_letters) FROM plans",
    }
    for revision in (old, "head"):
        with writing(store.engine) as conn:
            getattr(command, "downgrade" if revision == old else "upgrade")(
                alembic_config(conn), revision
            )
        if revision == old:
            with store.engine.connect() as conn:
                assert conn.execute(text(keys[old])).scalar()  # the older layout's column
                # Counts stored again on the way down (revision 0010) are the ones counted.
                rows = conn.execute(
                    text(
                        "SELECT solution_id, fragment, winning_moves, drawing_moves FROM positions"
                    )
                ).all()
                ours = {k[0] for k in counts}  # a server's store holds others too
                assert {(r[0], r[1]): (r[2], r[3]) for r in rows if r[0] in ours} == counts
                if old == "0008":  # the ranks a downgrade wrote back are the ones walks read
                    stored = conn.execute(
                        text(
                            "SELECT solution_id, level, fragment, mover_lossiness, "
                            "mover_outcomes, mover_letters FROM plans"
                        )
                    ).all()
                    found = {tuple(r[:3]): tuple(r[3:]) for r in stored if r[0] in ours}
                    assert found == movers
    store.lookups.close()
    assert answers() == before
    assert all(v.ok for v in store.verify())
    return len(before)


@pytest.mark.parametrize(
    "old", ["0006", *(pytest.param(o, marks=pytest.mark.long) for o in ("0007", "0008", "0009"))]
)
def test_revisions_0007_to_0010_keep_every_answer_through_a_downgrade(
    tmp_path: Path, old: str
) -> None:
    with open_store(str(tmp_path / "r.db"), create=True) as store:
        assert lookups_through_revision(store, tmp_path, old) > 500
