"""The store façade on small lists: ingest, solve, lookup, errors, atomicity."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from conftest import dump, write_list

from ghostdb import (
    BadFragment,
    DeadFragment,
    NameConflict,
    NotSolved,
    Outcome,
    Rules,
    Store,
    UnknownDictionary,
    open_store,
)

FIVE = "ghost green tan tree tries"


def test_ingest_is_idempotent_and_refuses_conflicts(store: Store, tmp_path: Path) -> None:
    path = write_list(tmp_path, FIVE)
    assert store.ingest(path).action == "added"
    again = store.ingest(path)
    assert again.action == "unchanged"
    assert "nothing to do" in again.message
    other = write_list(tmp_path / "..", "cat camel gecko", name="small")
    with pytest.raises(NameConflict, match="--replace"):
        store.ingest(other)
    assert store.words("small") == sorted(FIVE.split())


def test_same_content_under_a_new_name_is_a_no_op(store: Store, tmp_path: Path) -> None:
    store.ingest(write_list(tmp_path, FIVE))
    result = store.ingest(write_list(tmp_path, FIVE.upper(), name="upper"))
    assert result.action == "unchanged"
    assert "'small'" in result.message
    assert [d.name for d in store.dictionaries()] == ["small"]


def test_replace_drops_solutions(store: Store, tmp_path: Path) -> None:
    store.ingest(write_list(tmp_path, FIVE))
    store.solve("small")
    other = tmp_path / "other"
    other.mkdir()
    result = store.ingest(write_list(other, "cat camel gecko", name="small"), replace=True)
    assert result.action == "replaced"
    with pytest.raises(NotSolved):
        store.solution("small").lookup("c")
    assert store.solutions("small") == []
    store.solve("small")
    assert store.solution("small").lookup().outcome is Outcome.LOSS


def test_lookup_of_the_five_word_list(store: Store, tmp_path: Path) -> None:
    store.ingest(write_list(tmp_path, FIVE))
    result = store.solve("small")
    assert not result.skipped
    # Fragments: "", g gh gho ghos ghost gr gre gree green, t ta tan tr tre tree tri trie
    # tries = 19.
    assert result.fragment_count == 19
    root = store.solution("small").lookup()
    assert [p.move for p in root.plays] == ["g", "t"]
    tr = store.solution("small").lookup("tr")
    assert tr.to_move == 0
    assert [(p.move, p.fragment) for p in tr.plays] == [("e", "tre"), ("i", "tri")]
    tre = store.solution("small").lookup("tre")
    assert tre.plays[0].fragment == "tree" and tre.plays[0].is_word
    assert tre.outcome is Outcome.LOSS and tre.game_length == 1
    tree = store.solution("small").lookup("tree")
    assert tree.is_word and tree.outcome is Outcome.WIN and tree.plays == ()
    assert store.solve("small").skipped
    assert not store.solve("small", force=True).skipped


def test_unreachable_fragment_beyond_a_word(store: Store, tmp_path: Path) -> None:
    store.ingest(write_list(tmp_path, "cat cats catsup dog"))
    store.solve("small")
    assert store.solution("small").lookup("cat").reachable
    assert not store.solution("small").lookup("cats").reachable
    assert not store.solution("small").lookup("catsu").reachable


def test_lookup_errors(store: Store, tmp_path: Path) -> None:
    store.ingest(write_list(tmp_path, FIVE))
    with pytest.raises(UnknownDictionary, match="ghostdb ingest"):
        store.solution("nope").lookup("g")
    with pytest.raises(NotSolved, match="ghostdb solve small`"):
        store.solution("small").lookup("g")
    store.solve("small")
    with pytest.raises(NotSolved, match="--min-length 4"):
        store.solution("small", Rules(min_length=4)).lookup("g")
    with pytest.raises(BadFragment, match="not a letter"):
        store.solution("small").lookup("g-h")
    with pytest.raises(DeadFragment, match="whoever played the t has lost"):
        store.solution("small").lookup("ghot")
    with pytest.raises(DeadFragment, match="lost at 'gt'"):
        store.solution("small").lookup("gtre")
    assert store.solution("small").get("ghot") is None
    with pytest.raises(DeadFragment, match="'x' is in no word of the dictionary"):
        store.solution("small").lookup("ghox")  # a letter of no word: a typo
    assert store.solution("small").get("ghox") is None


def test_lookup_never_calls_the_solver(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store.ingest(write_list(tmp_path, FIVE))
    store.solve("small")
    import ghostdb.games.ghost.graph
    import ghostdb.solvers
    import ghostdb.solvers.levels

    def forbidden(*_a: object, **_k: object) -> None:
        raise AssertionError("a lookup must not solve")

    monkeypatch.setattr(ghostdb.solvers, "solve", forbidden)
    monkeypatch.setattr(ghostdb.solvers.levels, "solve", forbidden)
    monkeypatch.setattr(ghostdb.games.ghost.graph, "build_graph", forbidden)
    with open_store(str(store.engine.url.database)) as fresh:
        assert fresh.solution("small").lookup("gho").best_move == "s"
        assert fresh.solution("small").openings().plays


def test_lookups_see_a_republished_solution(store: Store, tmp_path: Path) -> None:
    """A store that cached a solution id keeps answering after another solve replaces it."""
    store.ingest(write_list(tmp_path, FIVE))
    store.solve("small")
    with open_store(str(store.engine.url.database)) as reader:
        before = reader.solution("small").lookup("gh")
        store.solve("small", force=True)
        assert reader.solution("small").lookup("gh") == before


def test_a_solution_handle_answers_across_a_republish(store: Store, tmp_path: Path) -> None:
    """A handle keeps its solution's id and game; when another process publishes anew,
    its lookups, lines and plans find the new one and answer as before."""
    store.ingest(write_list(tmp_path, FIVE))
    store.solve("small")
    with open_store(str(store.engine.url.database)) as reader:
        solution = reader.solution("small")
        assert reader.solution("small") is solution  # one handle a solution
        assert (solution.name, solution.rules, solution.game.name) == ("small", Rules(), "ghost")
        first_id = solution.id
        before = (solution.lookup("gh"), solution.line(), solution.strategy(1), solution.summary())
        store.solve("small", force=True)
        after = (solution.strategy(1), solution.line(), solution.lookup("gh"), solution.summary())
        assert solution.id != first_id
        assert after[:3] == (before[2], before[1], before[0])
        assert after[3] == before[3]
        assert solution.get("ght") is None


def test_range_read_agrees_with_the_general_read(store: Store, tmp_path: Path) -> None:
    """Plain Ghost on SQLite reads a position's plays as one range of keys and builds the
    Position from plain tuples; the general read (every candidate by name) must agree."""
    words = "cat cats catsup dog dot dote zebra zèbre ñu ñus"
    store.ingest(write_list(tmp_path, words))
    rule_sets = [Rules(), Rules(min_length=4, misere=True), Rules(players=3)]
    for rules in rule_sets:
        store.solve("small", rules)
    general = open_store(str(store.engine.url.database))
    general.lookups.range_sql = None  # every lookup takes the general path
    fragments = {w[:i] for w in store.words("small") for i in range(len(w) + 1)}
    with general:
        for fragment in sorted(fragments):
            for rules in rule_sets:  # alternating rule sets: each lookup finds its own
                expected = general.solution("small", rules).get(fragment)
                assert store.solution("small", rules).get(fragment) == expected
                assert expected is None or expected.rules == rules.key
        assert store.solution("small").lookup("zè").plays[0].fragment == "zèb"
        assert store.solution("small").lookup("ZÈB") == general.solution("small").lookup("zèb")


KILL_SCRIPT = textwrap.dedent(
    """
    import os, signal, sys
    from ghostdb import open_store, Rules
    from ghostdb.store.sql import queries

    real = queries.bulk_insert
    calls = 0

    def dying_insert(*args, **kwargs):
        global calls
        real(*args, **kwargs)
        calls += 1
        if calls == 2:  # some rows written, far from all
            os.kill(os.getpid(), signal.SIGKILL)

    queries.bulk_insert = dying_insert
    with open_store(sys.argv[1], create=True) as store:
        store.solve("enable1", Rules(min_length=3), force=True)
    """
)


@pytest.mark.slow
def test_killed_solve_leaves_nothing_partial(tmp_path: Path, enable1: Path) -> None:
    db = tmp_path / "ghost.db"
    with open_store(str(db), create=True) as store:
        store.ingest(enable1)
        store.solve("enable1", Rules(min_length=3))
        before = store.solution("enable1").lookup("gho")
    proc = subprocess.run(
        [sys.executable, "-c", KILL_SCRIPT, str(db)], capture_output=True, timeout=300
    )
    assert proc.returncode == -signal.SIGKILL, proc.stderr.decode()
    with open_store(str(db), create=True) as store:
        # The old solution is still the one published, complete, and nothing else shows.
        assert store.solution("enable1").lookup("gho") == before
        with store.engine.connect() as conn:
            from sqlalchemy import func, select

            from ghostdb.store.sql.schema import positions

            counts = dict(
                conn.execute(
                    select(positions.c.solution_id, func.count()).group_by(positions.c.solution_id)
                ).all()
            )
        assert list(counts.values()) == [387_878]
        result = store.solve("enable1", Rules(min_length=3), force=True)
        assert not result.skipped
        statuses = [s.status for s in store.solutions("enable1")]
        assert statuses == ["superseded", "failed", "complete"]
        assert store.solution("enable1").lookup("gho") == before


def test_failed_commands_leave_the_database_unchanged(store: Store, tmp_path: Path) -> None:
    store.ingest(write_list(tmp_path, FIVE))
    store.solve("small")
    db = Path(store.engine.url.database)
    before = dump(db)
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    for attempt in (
        lambda: store.ingest(empty),
        lambda: store.ingest(tmp_path / "missing.txt"),
        lambda: store.solution("small").lookup("zz"),
        lambda: store.solve("nope"),
    ):
        with pytest.raises(Exception):  # noqa: B017 - each raises its own error
            attempt()
    assert dump(db) == before


def test_read_commands_do_not_create_a_database(tmp_path: Path) -> None:
    from ghostdb import DatabaseError

    with pytest.raises(DatabaseError, match="no database"):
        open_store(str(tmp_path / "none.db"), create=False)
    assert not (tmp_path / "none.db").exists()
    assert not os.listdir(tmp_path)


def test_a_path_opens_a_store(tmp_path: Path) -> None:
    """A `pathlib.Path` is a file path as a string is (Python callers pass either)."""
    with open_store(tmp_path / "p.db", create=True) as made:
        assert made.dictionaries() == []
    with open_store(tmp_path / "p.db", create=False, readonly=True) as again:
        assert again.dictionaries() == []
    assert sorted(os.listdir(tmp_path)) == ["p.db"]


def test_a_replaced_and_solved_again_dictionary_answers_anew(store: Store, tmp_path: Path) -> None:
    """`ingest --replace` drops a dictionary's solutions; the next solve's id must not be
    the one a reader cached for the old words (solution ids are never reused)."""
    from ghostdb.games.ghost.rules import Variant

    rules = Rules(variant=Variant.SUPER)
    store.ingest(write_list(tmp_path, FIVE))
    store.solve("small", rules)
    store.solution("small", rules).openings()  # the solution is cached from here on
    other = tmp_path / "other"
    other.mkdir()
    words = "abbey zebra"
    store.ingest(write_list(other, words), replace=True)
    store.solve("small", rules)
    fresh_folder = tmp_path / "fresh"
    fresh_folder.mkdir()
    with open_store(str(fresh_folder / "fresh.db"), create=True) as fresh:
        fresh.ingest(write_list(fresh_folder, words))
        fresh.solve("small", rules)
        assert (
            store.solution("small", rules).openings() == fresh.solution("small", rules).openings()
        )


def test_bulk_insert_binds_a_column_of_one_value_once_a_statement(store: Store) -> None:
    """Rows from `Columns` with a column of one value (bound once a statement, not once
    a row), over several full statements and a last short one, keep their values; all
    columns of one value still make every row."""
    from ghostdb.store.sql import queries as q
    from ghostdb.store.sql.db import writing

    words = [f"w{i:05d}" for i in range(2500, 0, -1)]  # not in key order
    with writing(store.engine) as conn:
        columns = ("dictionary_id", "word")
        q.bulk_insert(conn, q.words, columns, q.Columns(len(words), [7, words]))
        q.bulk_insert(conn, q.words, columns, q.Columns(1, [8, "one"]))
        driver = conn.connection.driver_connection
        rows = driver.execute("SELECT dictionary_id, word FROM words").fetchall()
    assert rows == sorted([(7, w) for w in words] + [(8, "one")])


def test_bulk_insert_packs_small_whole_numbers_and_keeps_every_value(store: Store) -> None:
    """SQLite binds columns of non-negative whole numbers several to a value, each as wide
    as it needs (`Columns.layout`): every value comes back as given, NULLs (masked
    entries) included; a column with a negative value, or a list, is bound as it is."""
    import numpy as np

    from ghostdb.store.sql import queries as q
    from ghostdb.store.sql.db import writing
    from ghostdb.store.sql.schema import positions

    n = 2345
    rng = np.random.default_rng(7)
    limit = (1 << 15) - 1
    length = np.ma.masked_array(rng.integers(0, limit, n), mask=rng.random(n) < 0.3)
    length[0] = limit  # the largest value, and NULL one more: 16 bits
    wins = rng.integers(0, 1 << 40, n)
    wins[1] = 1 << 40  # 41 bits
    columns = {
        "level": np.arange(n) % 40,
        "fragment": [f"f{i:05d}" for i in range(n)],
        "reachable": rng.random(n) < 0.5,
        "outcome": rng.integers(0, 4, n),
        "game_length": length,
        "best_play": np.ma.masked_array(np.full(n, limit - 1), mask=np.arange(n) % 3 == 0),
        "waiter_letters": wins,  # not in the first value with the others
        "waiter_outcomes": rng.integers(-3, 3, n),  # negative: not packed
        "safe_seats": np.zeros(n, dtype=np.int64),
    }
    rows = q.Columns(n, [1, *columns.values()])
    layout = rows.layout(pack=True)
    packed = [spec for spec in layout if spec[0] == "pack"]
    assert len(packed) == 7 and len({spec[1] for spec in packed}) == 2
    assert [spec[3] for spec in packed] == [6, 1, 2, 16, 15, 41, 1]
    with writing(store.engine) as conn:
        q.bulk_insert(conn, positions, ("solution_id", *columns), rows)
        driver = conn.connection.driver_connection
        names = ", ".join(columns)
        stored = driver.execute(
            f"SELECT {names} FROM positions WHERE solution_id = 1 ORDER BY fragment"
        ).fetchall()
        conn.rollback()
    for i, row in enumerate(stored):
        expected = [
            None if v is np.ma.masked else (v.item() if hasattr(v, "item") else v)
            for v in (c[i] for c in columns.values())
        ]
        expected[2] = int(expected[2])
        assert list(row) == expected, i


@pytest.mark.parametrize("piece", [1, 2, 3, 1000])
def test_words_are_read_a_piece_at_a_time_and_sorted_by_code_point(
    store: Store, db_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, piece: int
) -> None:
    """`dictionary_words` reads ``WORDS_A_READ`` words at a time as one text: whatever the
    piece's size, every stored word comes once, in code point order (letters beyond the
    Basic Multilingual Plane too), without the words shorter than asked."""
    import sqlite3

    from ghostdb.store.sql import queries

    monkeypatch.setattr(queries, "WORDS_A_READ", piece)
    store.ingest(
        write_list(tmp_path, "żółw zebra ab abc abd łódź 日本語 本日 ą 𝔞𝔟𝔠 aa zz", "mixed")
    )
    with sqlite3.connect(db_path) as con:
        stored = sorted(row[0] for row in con.execute("SELECT word FROM words"))
    assert len(stored) >= 10
    assert store.words("mixed") == stored
    for shortest in (2, 3, 4, 9):
        assert store.words("mixed", shortest) == [w for w in stored if len(w) >= shortest]
