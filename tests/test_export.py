"""`ghostdb export parquet`: every position of a solution as a Parquet row, read back by
pyarrow and DuckDB as the store answers; the manual's DuckDB query run as printed."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from conftest import OWN_WORDLISTS, ROOT, run, shared_list

from ghostdb import Rules, open_store
from ghostdb.games.registry import GAMES, default_rules

pq = pytest.importorskip("pyarrow.parquet", reason="the Parquet export needs pyarrow")
duckdb = pytest.importorskip("duckdb", reason="the manual's query needs duckdb")


def test_every_game_exports_every_position_as_the_store_holds_it(tmp_path: Path) -> None:
    db = tmp_path / "ghost.db"
    with open_store(db) as store:
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
    with open_store(db) as store:
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
    with open_store(db) as store:
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
