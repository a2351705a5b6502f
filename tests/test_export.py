"""`ghostdb export parquet`: every position of a solution as a Parquet row, read back by
pyarrow and DuckDB as the store answers; the manual's DuckDB query run as printed."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from conftest import OWN_WORDLISTS, ROOT, run, shared_list

from ghostdb import Rules, Store, open_store
from ghostdb.games.ghost.rules import Variant
from ghostdb.games.registry import GAMES, default_rules

pq = pytest.importorskip(
    "pyarrow.parquet", reason="the Parquet export needs pyarrow: pip install -e '.[dev]'"
)
duckdb = pytest.importorskip(
    "duckdb", reason="the manual's query needs duckdb: pip install -e '.[dev]'"
)


def test_every_game_exports_every_position_as_the_store_holds_it(tmp_path: Path) -> None:
    db = tmp_path / "ghost.db"
    with open_store(db, create=True) as store:
        store.ingest(OWN_WORDLISTS / "five.txt")
        names = ["five", *(g.name for g in GAMES if not g.word_game)]
        for name in names:
            store.solve(name)
        for name in names:
            rules = default_rules(name)
            path, rows = store.export_parquet(name, rules, tmp_path / "out")
            table = pq.read_table(path).to_pylist()
            solution = store.solution(name, rules)
            info = next(s for s in store.solutions(name) if s.status == "complete")
            assert rows == len(table) == info.fragment_count
            for row in random.Random(5).sample(table, min(300, len(table))):
                pos = solution.lookup(row["fragment"])
                assert (row["name"], row["rules"]) == (name, rules.key)
                assert row["outcome"] == pos.outcome.value
                assert row["game_length"] == pos.game_length
                assert row["reachable"] == pos.reachable
                best = None if row["best_play"] is None else pos.plays[row["best_play"]].move
                assert best == pos.best_move


def test_a_failed_export_leaves_nothing(tmp_path: Path) -> None:
    db = tmp_path / "ghost.db"
    with open_store(db, create=True) as store:
        store.ingest(OWN_WORDLISTS / "five.txt")
    code, out, err = run("export", "parquet", "five", "-o", str(tmp_path / "out"), db=db)
    assert (code, out) == (1, "") and "ghostdb solve five" in err, err
    assert not (tmp_path / "out").exists()


@pytest.mark.slow
def test_the_manuals_duckdb_query_compares_two_dictionaries(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    section = (ROOT / "docs" / "guide" / "packs.md").read_text().split("## Parquet", 1)[1]
    query = re.search(r"```sql\n(.*?)```", section, re.S)[1]  # type: ignore[index]
    db = tmp_path / "ghost.db"
    with open_store(db, create=True) as store:
        for name in ("enable1", "twl06"):
            store.ingest(shared_list(f"{name}.txt"))
            store.solve(name)
            store.export_parquet(name, Rules(), tmp_path / "exports")
        monkeypatch.chdir(tmp_path)
        shown = duckdb.sql(query).fetchall()
        everything = duckdb.sql(query.replace("LIMIT 5", "")).fetchall()
        comparison = store.compare("enable1", "twl06", Rules(), Rules())
        assert len(everything) == comparison.different_reachable > 0
        assert shown == everything[:5]
        for fragment, a, b in shown:
            assert a == store.solution("enable1").lookup(fragment).outcome.value
            assert b == store.solution("twl06").lookup(fragment).outcome.value != a


def stored_rows(store: Store, solution_id: int) -> list[dict[str, object]]:
    """Every stored row of a solution through SQLAlchemy, as the export's schema has it."""
    from sqlalchemy import select

    from ghostdb.games.base import VALUE_NAMES
    from ghostdb.positions import seats
    from ghostdb.store.sql.schema import positions

    fields = ("fragment", "level", "reachable", "outcome", "game_length", "best_play")
    stmt = (
        select(*(positions.c[f] for f in (*fields, "safe_seats", "label")))
        .where(positions.c.solution_id == solution_id)
        .order_by(positions.c.level, positions.c.fragment)
    )
    with store.engine.connect() as conn:
        rows = conn.execute(stmt).all()
    return [
        {
            "fragment": f,
            "level": level,
            "reachable": bool(reachable),
            "outcome": VALUE_NAMES[outcome],
            "game_length": length,
            "best_play": best,
            "safe_seats": None if (s := seats(safe)) is None else list(s),
            "label": label,
        }
        for f, level, reachable, outcome, length, best, safe, label in rows
    ]


@pytest.mark.parametrize(
    "rules",
    [Rules(), Rules(players=3), Rules(Variant.ANAGRAM), Rules(Variant.SUPERDUPER, misere=True)],
    ids=lambda r: r.key,
)
def test_every_column_of_every_row_is_the_stored_one(tmp_path: Path, rules: Rules) -> None:
    """Each exported row, column by column, against the stored row read plainly: the
    export reads its small columns packed into one integer (levels, lengths, best plays,
    nulls), safe seats (three players) and labels (Anagram)."""
    with open_store(tmp_path / "ghost.db", create=True) as store:
        store.ingest(OWN_WORDLISTS / "five.txt")
        store.solve("five", rules)
        path, rows = store.export_parquet("five", rules, tmp_path / "out")
        table = pq.read_table(path).to_pylist()
        expected = stored_rows(store, store.solution("five", rules).id)
    assert rows == len(table) == len(expected) > 10
    found = [{k: v for k, v in row.items() if k not in ("name", "rules")} for row in table]
    assert found == expected
    assert any(r["game_length"] is None or r["best_play"] is None for r in expected)


def test_rows_read_ahead_stop_with_their_reader_and_carry_its_errors(tmp_path: Path) -> None:
    """The export's reading thread (`raw.stream_ahead`) stops when its reader stops
    early, and an error of the database is raised to the reader, not lost in it."""
    import sqlite3
    import threading

    from sqlalchemy import select, text

    from ghostdb.store.sql import raw
    from ghostdb.store.sql.schema import positions

    def readers() -> list[threading.Thread]:
        return [t for t in threading.enumerate() if t.name == "ghostdb-stream"]

    with open_store(tmp_path / "ghost.db", create=True) as store:
        store.ingest(OWN_WORDLISTS / "five.txt")
        store.solve("five")
        stmt = select(positions.c.fragment).order_by(positions.c.fragment)
        ahead = raw.stream_ahead(store.engine, stmt, 5)
        assert len(next(ahead)) == 5
        ahead.close()
        assert readers() == []
        whole = [row for part in raw.stream_ahead(store.engine, stmt, 7) for row in part]
        with store.engine.connect() as conn:
            assert whole == [tuple(r) for r in conn.execute(stmt)]
        with pytest.raises(sqlite3.OperationalError, match="no such table"):
            list(raw.stream_ahead(store.engine, text("SELECT x FROM nowhere"), 5))
        assert readers() == []


def test_an_in_memory_store_exports_and_packs(tmp_path: Path) -> None:
    """An in-memory SQLite database is one database a thread: its rows are read on the
    caller's thread, not a reading thread's (which would find no tables)."""
    from ghostdb.pack import open_pack

    with open_store("sqlite://", create=True) as store:
        store.ingest(OWN_WORDLISTS / "five.txt")
        store.solve("five")
        _, rows = store.export_parquet("five", None, tmp_path / "out")
        assert rows > 10
        positions, _ = store.pack("five", None, tmp_path / "five.ghostpack")
        assert positions == rows
        with open_pack(tmp_path / "five.ghostpack") as pack:
            assert store.check_pack(pack) == []
