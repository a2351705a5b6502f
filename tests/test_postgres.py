"""The same store on PostgreSQL: every query of the SQLite tests, on a server.

Runs only when ``GHOSTDB_TEST_POSTGRES_URL`` names a scratch database (its ghostdb tables
are dropped first), e.g. ``postgresql+psycopg://postgres@/scratch?host=/tmp``; needs
``pip install -e '.[postgres]'``.
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from brute import brute_force
from conftest import OWN_WORDLISTS, POSTGRES_SKIP, reset_postgres, write_list
from sqlalchemy import select, text

from ghostdb import Rules, Store, open_store
from ghostdb.games.ghost.rules import STANDARD_VARIANTS, Variant
from ghostdb.store.answers import lookups
from ghostdb.store.sql.schema import positions

PG_URL = os.environ.get("GHOSTDB_TEST_POSTGRES_URL", "")
pytestmark = [
    pytest.mark.skipif(not PG_URL, reason=POSTGRES_SKIP),
    pytest.mark.slow,
]


@pytest.fixture(scope="module")
def pg(enable1: Path) -> Iterator[Store]:
    reset_postgres(PG_URL)
    with open_store(PG_URL, create=True) as store:
        store.ingest(OWN_WORDLISTS / "five.txt")
        store.ingest(enable1)
        for min_length in (3, 4):
            store.solve("enable1", Rules(min_length=min_length))
        for variant in STANDARD_VARIANTS:
            for misere in (False, True):
                store.solve("five", Rules(variant, 3, misere))
        yield store


def test_every_stored_row_matches_sqlite(pg: Store, store: Store) -> None:
    store.ingest(OWN_WORDLISTS / "five.txt")
    for variant in STANDARD_VARIANTS:
        for misere in (False, True):
            rules = Rules(variant, 3, misere)
            store.solve("five", rules)
            assert _rows(pg, rules) == _rows(store, rules)


def _rows(store: Store, rules: Rules) -> dict[str, tuple[object, ...]]:
    ref = store.solution("five", rules).refresh()
    with store.engine.connect() as conn:
        stmt = select(positions).where(positions.c.solution_id == ref.id)
        return {r.fragment: tuple(r)[1:] for r in conn.execute(stmt)}


def test_enable1_figures(pg: Store, solved_enable1: Store) -> None:
    assert pg.solution("enable1").lookup("gho").best_move == "s"
    second = pg.solution("enable1").strategy(1)
    assert (len(second.endings), second.losses) == (55, 0)
    first = pg.solution("enable1", Rules(min_length=4)).strategy(0)
    assert [e.word for e in first.endings] == [
        "naan", "nene", "ngultrum", "nirvanic", "nolo", "null", "nyctalopia",
    ]  # fmt: skip
    assert [e.word for e in pg.solution("enable1", Rules(min_length=4)).line("n").endings] == [
        "nyctalopia"
    ]
    rule_sets = {"rules": Rules(min_length=3), "vs_rules": Rules(min_length=4)}
    found = pg.compare("enable1", **rule_sets)
    on_sqlite = solved_enable1.compare("enable1", **rule_sets)
    assert found.a == on_sqlite.a and found.b == on_sqlite.b
    assert (found.common_fragments, found.different_outcomes, found.only_a, found.only_b) == (
        on_sqlite.common_fragments,
        on_sqlite.different_outcomes,
        on_sqlite.only_a,
        on_sqlite.only_b,
    )
    report = pg.solution("enable1", Rules()).selfplay("optimal,optimal", games=200, seed=1)
    assert report.wins == (0, 200)


def test_plans_and_lines_match_brute_force(pg: Store, tmp_path: Path) -> None:
    words = ["abc", "abd", "bca", "cab", "cabd", "bb"]
    pg.ingest(write_list(tmp_path, " ".join(words), "small"))
    for variant in STANDARD_VARIANTS:
        rules = Rules(variant, 2)
        pg.solve("small", rules)
        brute = brute_force(words, rules)
        for fragment in ["", "a", "b", "c", "ab", "ca", "bc"]:
            if not brute.is_fragment(fragment) or fragment in brute.game_words:
                continue
            pos = pg.solution("small", rules).lookup(fragment)
            assert (pos.outcome.value == "win", pos.game_length) == brute.value(fragment)
            for player in (0, 1):
                plan = pg.solution("small", rules).strategy(player, fragment)
                expected = brute.plan(fragment, pos.to_move == player)
                assert (len(plan.endings), plan.letters) == expected[1:]


@pytest.mark.long  # ENABLE verified through the server
def test_verify_on_the_server(pg: Store) -> None:
    """Every stored solution verifies clean on PostgreSQL (whose text order is its
    collation's, not the code points'), and tampering is named there too."""
    found = pg.verify()
    assert {v.rules for v in found if v.name == "enable1"} >= {"ghost/3", "ghost/4"}
    for v in found:
        assert v.ok, (v.name, v.rules, [f.as_dict() for f in v.inconsistencies()])
    ref = pg.solution("five", Rules()).refresh()
    with pg.engine.begin() as conn:
        conn.execute(
            text(
                "UPDATE positions SET outcome = CASE outcome WHEN 3 THEN 0 ELSE 3 END "
                "WHERE solution_id = :sid AND fragment = 'g'"
            ),
            {"sid": ref.id},
        )
    (bad,) = pg.verify("five", Rules())
    assert any("'g'" in e for e in bad.findings["outcome"].examples)
    pg.solve("five", Rules(), force=True)
    assert all(v.ok for v in pg.verify("five", every=True))


@pytest.mark.long  # ENABLE's decisive words worked out on the server
def test_decisive_words_on_the_server(pg: Store, solved_enable1: Store, tmp_path: Path) -> None:
    """Decisive words worked out, kept and read back on PostgreSQL give what SQLite gives,
    in the same order (code points, whatever the server's collation); a Super variant
    and compare --why too; verify re-checks them there."""
    rules = Rules()
    here = pg.solution("enable1", rules).decisive("").as_dict()
    assert here == solved_enable1.solution("enable1", rules).decisive("").as_dict()
    assert pg.solution("enable1", rules).decisive("", compute=False).as_dict() == here
    assert {e["word"] for e in here["deletions"]} == {"hmm", "jnana", "nth"}
    pg.ingest(write_list(tmp_path, "ghost green toga tree tries abcd", "pool"))
    super_rules = Rules(variant=STANDARD_VARIANTS[1])
    found = pg.solution("five", super_rules).decisive("", "pool").as_dict()
    assert found == pg.solution("five", super_rules).decisive("", "pool", compute=False).as_dict()
    why = pg.why("five", "enable1", rules)
    assert why.as_dict() == pg.why("five", "enable1", rules, compute=False).as_dict()
    checked = {(v.name, v.rules): v for v in pg.verify()}
    for key in (("enable1", "ghost/3"), ("five", super_rules.key)):
        assert checked[key].decisive == 1 and checked[key].ok, key


def test_lookups_read_the_same_plays_as_sqlite_whatever_the_letters(
    pg: Store, store: Store, tmp_path: Path
) -> None:
    """The server reads a fragment and its plays as one key range (its key columns
    compare by code point, revision 0006): with accented letters, letters beyond the
    Basic Multilingual Plane and letters a locale would sort elsewhere, every lookup
    answers as SQLite's."""
    words = "zoë zoo zoa żal ząb zaa zab zebra zeal zee zéro zé𝒜a 𝒜𝒜𝒜 ñam nam nbm"
    path = write_list(tmp_path, words, "letters")
    for s in (pg, store):
        s.ingest(path)
        s.solve("letters", Rules())
    fragments = {w[:k] for w in words.split() for k in range(len(w))}
    for fragment in sorted(fragments):
        assert pg.solution("letters").lookup(fragment) == store.solution("letters").lookup(
            fragment
        ), fragment
    asked = [*sorted(fragments), "żą", "qq"]
    assert pg.solution("letters").lookup_many(asked) == store.solution("letters").lookup_many(asked)
    # Whatever the server's own locale (this one's may sort by code point anyway).
    with pg.engine.connect() as conn:
        collations = conn.execute(
            text(
                "SELECT table_name, collation_name FROM information_schema.columns "
                "WHERE column_name = 'fragment' ORDER BY table_name"
            )
        ).all()
    assert collations == [("positions", "C")]


def test_lookup_many_reads_as_get(pg: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """Many positions in statements of a few keys each, in the order asked, repeats and
    unstored ones too; the variants read a position at a time in the same snapshot."""
    monkeypatch.setattr(lookups, "BATCH_KEYS", 7)
    rng = random.Random(2)
    for name, rules in (("enable1", Rules()), ("five", Rules(Variant.SUPERDUPER, 3, True))):
        solution = pg.solution(name, rules)
        words = pg.words(name, 3)
        asked = [w[: rng.randint(0, len(w))] for w in rng.sample(words, min(30, len(words)))]
        asked += ["ab", "ab", "xq", "zzzz", ""]
        assert solution.lookup_many(asked) == [solution.get(k) for k in asked], name


@pytest.mark.long  # every game's every row through the server
def test_parquet_from_the_server_is_every_stored_row(pg: Store, tmp_path: Path) -> None:
    """The export reads its rows on the raw connection with a server-side cursor and its
    small columns packed by the server: every column of every row as stored, two
    players and three (safe seats), in 100-row batches so that the cursor is read
    in many pieces."""
    import pyarrow.parquet as pq
    from test_export import stored_rows

    from ghostdb.store.exports import parquet

    pg.solve("five", Rules(players=3))
    for name, rules in (("enable1", Rules()), ("five", Rules(players=3))):
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(parquet, "BATCH", 100 if name == "five" else parquet.BATCH)
            path, rows = pg.export_parquet(name, rules, tmp_path / "out")
        table = pq.read_table(path).to_pylist()
        found = [{k: v for k, v in row.items() if k not in ("name", "rules")} for row in table]
        assert rows == len(found) and found == stored_rows(pg, pg.solution(name, rules).id)


@pytest.mark.long  # every game packed from the server
def test_a_pack_from_the_server_is_its_solution(
    pg: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A pack reads the server's rows a level and a letter at a time (string_agg, on two
    connections) and sorts them by their bytes: it holds every position as stored (the
    pack's own check against the store, best moves included), a probe answers as a
    lookup, and the file is the one read row by row in key order (a server-side cursor,
    by the C collation) makes."""
    from ghostdb.pack import open_pack
    from ghostdb.store.exports import packs

    path = tmp_path / "enable1.ghostpack"
    positions, _ = pg.pack("enable1", Rules(), path)
    with open_pack(path) as pack:
        assert positions == pack.positions > 300_000
        assert pg.check_pack(pack) == []
        for key in ("", "gho", "qi", "zyzz"):
            assert pack.probe(key).as_dict() == pg.solution("enable1").lookup(key).as_dict()

    def otherwise(*_: object) -> Iterator[object]:
        raise packs._Otherwise
        yield

    monkeypatch.setattr(packs, "_parts", otherwise)
    pg.pack("enable1", Rules(), tmp_path / "rows.ghostpack")
    assert (tmp_path / "rows.ghostpack").read_bytes() == path.read_bytes()


@pytest.mark.long  # a minute each: ENABLE's rows migrated down and up on the server
@pytest.mark.parametrize("old", ["0006", "0007", "0008", "0009"])
def test_revisions_0007_to_0010_keep_every_answer_through_a_downgrade(
    pg: Store, tmp_path: Path, old: str
) -> None:
    """The compact rows' migration (0007), the plans' moves as play numbers (0008),
    plans without the strategist-to-move rank (0009) and plans in the position rows
    (0010), down and up again on the server with rows in it."""
    from test_migrations import lookups_through_revision

    assert lookups_through_revision(pg, tmp_path, old) > 500


def test_words_read_a_piece_at_a_time_as_on_sqlite(
    pg: Store, store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server may order text by its own collation, not by code point (ICU's puts "ą"
    beside "a"): the pieces still join up to every word once, sorted by code point as
    SQLite's are, at every piece size.  The words' column is put in ICU's root collation
    for the test, whatever the server's own, and its order is checked to differ."""
    from ghostdb.store.sql import queries

    words = "zebra żółw zz ab abc abd ąb ącz łódź lody ósmy osa ćma cma 日本語 本日 ą aa"
    path = write_list(tmp_path, words, "accents")
    pg.ingest(path, replace=True)
    store.ingest(path)
    expected = store.words("accents")
    alter = 'ALTER TABLE words ALTER COLUMN word TYPE text COLLATE "{}"'
    with pg.engine.begin() as conn:
        conn.execute(text(alter.format("und-x-icu")))
    try:
        with pg.engine.connect() as conn:
            ordered = conn.execute(
                text(
                    "SELECT word FROM words WHERE dictionary_id = "
                    "(SELECT id FROM dictionaries WHERE name = 'accents') ORDER BY word"
                )
            ).scalars()
            assert list(ordered) != expected  # the server's order is not code points'
        for piece in (1, 2, 3, 7, 1_000_000):
            monkeypatch.setattr(queries, "WORDS_A_READ", piece)
            for shortest in (1, 3):
                assert pg.words("accents", shortest) == store.words("accents", shortest), piece
    finally:
        with pg.engine.begin() as conn:
            conn.execute(text(alter.format("default")))


def test_kept_answers_on_the_server_are_the_positions_and_sqlites(tmp_path: Path) -> None:
    """Kept answers are the same JSON on the server as on SQLite, and what the server's
    positions give when worked out again; a comparison is kept there too, and retired
    with its solution.  On a server database of its own (the migration tests above take
    the module's down and up again, and its kept answers with it)."""
    from test_kept import assert_kept_equal_fresh

    from ghostdb.store.answers import kept

    rule_sets = (Rules(), Rules(min_length=4), Rules(Variant.SUPERDUPER))
    reset_postgres(PG_URL)
    with (
        open_store(PG_URL, create=True) as pg,
        open_store(tmp_path / "ghost.db", create=True) as lite,
    ):
        for store in (pg, lite):
            store.ingest(OWN_WORDLISTS / "five.txt")
            for rules in rule_sets:
                store.solve("five", rules)
        pg.compare("five", None, Rules(), Rules(min_length=4))
        assert assert_kept_equal_fresh(pg) == 5 * len(rule_sets) + 1  # with the puzzles
        for rules in rule_sets:
            kept_here = []
            for store in (pg, lite):
                with store.engine.connect() as conn:
                    answers = kept.stored(conn, store.solution("five", rules).id)
                kept_here.append([(k.question, body) for k, body in answers if not k.other_id])
            assert kept.same(*kept_here)
        old = pg.solution("five", Rules(min_length=4)).id
        pg.solve("five", Rules(min_length=4), force=True)
        with pg.engine.connect() as conn:
            assert not kept.stored(conn, old)
            first = pg.solution("five").id
            assert not any(k.other_id for k, _ in kept.stored(conn, first))


def test_the_server_going_away_mid_solve_is_one_line(enable1: Path) -> None:
    """The server ends the connection while a solve copies its rows in: the command
    says so in one line, exit 1 (psycopg's own log line about the broken copy kept off
    the terminal), and the store answers as before: nothing of that solve published."""
    import subprocess
    import sys
    import time

    reset_postgres(PG_URL)
    pg = open_store(PG_URL, create=True)
    pg.ingest(enable1)
    pg.solve("enable1")
    before = pg.solution("enable1").lookup("qu")
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "ghostdb",
            "solve",
            "enable1",
            "--rules",
            "superduper",
            "--min-length",
            "4",
            "--db",
            PG_URL,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    killed = False
    deadline = time.monotonic() + 300
    while not killed and proc.poll() is None and time.monotonic() < deadline:
        with pg.engine.connect() as conn:
            copying = (
                conn.execute(
                    text(
                        # This database's only: another test worker copies into its own.
                        "SELECT pid FROM pg_stat_activity WHERE query ILIKE 'COPY%' "
                        "AND state = 'active' AND pid <> pg_backend_pid() "
                        "AND datname = current_database()"
                    )
                )
                .scalars()
                .all()
            )
            for pid in copying:
                conn.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
                killed = True
        time.sleep(0.02)
    _, err = proc.communicate(timeout=300)
    assert killed, "the solve never copied rows in while it was watched"
    assert proc.returncode == 1 and err.startswith("error: ") and err.count("\n") == 1, err
    assert "was lost during the command" in err
    assert "error ignored" not in err and "psycopg.Copy" not in err and "Traceback" not in err
    assert pg.solution("enable1").lookup("qu") == before
    statuses = {(s.rules, s.status) for s in pg.solutions("enable1")}
    assert ("superduper/4", "complete") not in statuses and ("ghost/3", "complete") in statuses
    pg.close()
