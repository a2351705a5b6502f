"""`ghostdb verify`: every solution the store can make verifies clean, and every kind of
tampering through raw SQL is named, with the position it happened at."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import OWN_WORDLISTS, copy_db, run, shared_list

from ghostdb import Rules, open_store
from ghostdb.games.ghost.rules import Variant
from ghostdb.store.verification.solutions import KINDS, Verdict

# Real words (ENABLE's words beginning with "ca" and ending with "e" or "s"): positions
# with several moves, wins, losses and plans of more than one word.
CA = shared_list("enable1.txt")
RULE_SETS = [
    Rules(),
    Rules(min_length=4),
    Rules(Variant.SUPER),
    Rules(Variant.SUPERDUPER, misere=True),
    Rules(Variant.INSERT),
    Rules(Variant.ANAGRAM),
    Rules(min_length=4, players=3),
]


@pytest.fixture(scope="module")
def solved(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """'ca' under every kind of rule set, with Chopsticks and tic-tac-toe."""
    folder = tmp_path_factory.mktemp("verify")
    words = [
        w for w in CA.read_text().split() if w.startswith("ca") and w[-1] in "es" and len(w) <= 7
    ]
    path = folder / "ca.txt"
    path.write_text("\n".join(words) + "\n")
    db = folder / "ghost.db"
    with open_store(str(db), create=True) as store:
        store.ingest(path)
        store.ingest(OWN_WORDLISTS / "five.txt")
        for rules in RULE_SETS:
            store.solve("ca", rules)
        store.solve("five")
        store.solve("chopsticks")
        store.solve("chopsticks", store.rules_for("chopsticks", rollover=True))
        store.solve("tictactoe")
    return db


@pytest.fixture
def copy(solved: Path, tmp_path: Path) -> Path:
    """A copy of the solved database to tamper with."""
    db = tmp_path / "ghost.db"
    copy_db(solved, db)
    return db


def verdicts(db: Path, name: str | None = None, **options: object) -> list[Verdict]:
    with open_store(str(db), create=False) as store:
        rules = store.rules_for(name, **options) if name and options else None
        return store.verify(name, rules, every=name is not None and not options)


def test_every_solution_verifies_clean(solved: Path) -> None:
    found = verdicts(solved)
    assert {(v.name, v.rules) for v in found} >= {
        ("ca", "ghost/3"),
        ("ca", "anagram/3"),
        ("ca", "ghost/4/3p"),
        ("chopsticks", "chopsticks/5"),
        ("tictactoe", "tictactoe"),
    }
    assert len(found) == len(RULE_SETS) + 4
    for v in found:
        assert v.ok, (v.rules, [f.as_dict() for f in v.inconsistencies()])
        assert v.positions > 0
        assert not v.notes
    plans = {v.rules: v.plans for v in found if v.name == "ca"}
    assert plans["ghost/3"] > 0 and plans["ghost/4/3p"] == 0


@pytest.mark.parametrize("variant", [Variant.SUPER, Variant.ANAGRAM])
def test_a_clean_word_game_is_read_packed_not_row_by_row(
    solved: Path, monkeypatch: pytest.MonkeyPatch, variant: Variant
) -> None:
    """On SQLite the rows of a word game are read packed by SQL, not made Python tuples
    one by one (gigabytes for millions of rows), Anagram Ghost's labels too."""
    from ghostdb.store.verification import plans, solutions, stored

    def by_rows(*args: object) -> None:
        raise AssertionError("read row by row")

    monkeypatch.setattr(stored, "stored_positions", by_rows)
    monkeypatch.setattr(plans, "stored_plans", by_rows)
    monkeypatch.setattr(solutions, "stored_plans", by_rows)
    found = verdicts(solved, "ca", variant=variant)
    assert [v.ok for v in found] == [True] and found[0].plans > 1000


def test_the_cli_says_ok_and_exits_0(solved: Path) -> None:
    code, out, err = run("verify", db=solved)
    assert code == 0, err
    assert "ca ghost/3: ok" in out and "tictactoe tictactoe: ok" in out
    code, out, err = run("verify", "ca", "--rules", "super", "--json", db=solved)
    assert code == 0, err
    report = json.loads(out)
    assert report["ok"] is True
    assert [s["rules"] for s in report["solutions"]] == ["super/3"]
    assert report["solutions"][0]["positions_checked"] > 0


def test_unknown_names_and_unsolved_rule_sets_are_one_line(solved: Path) -> None:
    for args, says in (
        (("verify", "nosuch"), "nosuch"),
        (("verify", "five", "--min-length", "5"), "not solved"),
        (("verify", "--all"), "need a NAME"),
    ):
        code, _, err = run(*args, db=solved)
        assert code == 1
        assert err.startswith("error:") and err.count("\n") == 1 and says in err


# -- tampering ---------------------------------------------------------------------------------


def sql(db: Path, statement: str, *params: object) -> None:
    with sqlite3.connect(db) as conn:
        changed = conn.execute(statement, params).rowcount
    assert changed == 1, statement


def one(db: Path, query: str, *params: object) -> tuple[object, ...]:
    with sqlite3.connect(db) as conn:
        row = conn.execute(query, params).fetchone()
    assert row is not None, query
    return row


def solution_id(db: Path, rules: str, name: str = "ca") -> int:
    column = "game" if name in ("chopsticks", "tictactoe") else "dictionary_id"
    owner = (
        f"game = '{name}' AND dictionary_id IS NULL"
        if column == "game"
        else f"dictionary_id = (SELECT id FROM dictionaries WHERE name = '{name}')"
    )
    (sid,) = one(
        db, f"SELECT id FROM solutions WHERE {owner} AND rules = ? AND status = 'complete'", rules
    )
    return int(sid)  # type: ignore[call-overload]


def inner(db: Path, sid: int, where: str = "1 = 1") -> tuple[str, int]:
    """A position with at least two moves: (fragment, level)."""
    fragment, level = one(
        db,
        "SELECT p.fragment, p.level FROM positions p WHERE p.solution_id = ? AND p.best_play "
        f"IS NOT NULL AND p.reachable AND {where} AND (SELECT count(*) FROM positions c WHERE "
        "c.solution_id = p.solution_id AND c.level = p.level + 1 AND "
        "substr(c.fragment, 1, length(p.fragment)) = p.fragment) >= 2 ORDER BY p.level DESC, "
        "p.fragment LIMIT 1",
        sid,
    )
    return str(fragment), int(level)  # type: ignore[call-overload]


def one_value(
    name: str,
    rules: str,
    kind: str,
    assignment: str,
    table: str = "positions",
    where: str = "1 = 1",
) -> Callable[[Path], tuple[str, str, str]]:
    """A tampering that sets ``assignment`` in one row of ``table`` at a position with at
    least two moves (``where`` narrows it), and the kind of inconsistency it makes."""

    def tamper(db: Path) -> tuple[str, str, str]:
        sid = solution_id(db, rules)
        fragment, level = inner(db, sid, where)
        sql(
            db,
            f"UPDATE {table} SET {assignment} WHERE solution_id = ? AND level = ? AND fragment = ?",
            sid,
            level,
            fragment,
        )
        return rules, kind, fragment

    tamper.__name__ = name
    return tamper


flip_outcome = one_value(
    "flip_outcome",
    "ghost/3",
    "outcome",
    "outcome = CASE outcome WHEN 3 THEN 0 ELSE 3 END",
)
lengthen = one_value(
    "lengthen", "super/3", "game length", "game_length = game_length + 2", where="p.level >= 1"
)
unreachable = one_value(
    "unreachable", "ghost/3", "reachable", "reachable = 0", where="p.level >= 1"
)
plan_rank = one_value("plan_rank", "ghost/3", "plan", "waiter_outcomes = waiter_outcomes + 1")
other_plan_move = one_value(
    "other_plan_move",
    "ghost/3",
    "plan",
    "plan_play = CASE plan_play WHEN 0 THEN 1 ELSE 0 END",
)
no_plan_move = one_value("no_plan_move", "ghost/3", "plan", "plan_play = NULL")
half_a_plan = one_value("half_a_plan", "ghost/3", "plan", "waiter_letters = NULL")
no_lossiness = one_value("no_lossiness", "ghost/3", "plan", "waiter_lossiness = NULL")
plan_in_a_game_without = one_value(
    "plan_in_a_game_without", "ghost/4/3p", "extra plan", "waiter_outcomes = 1"
)
safe_seats = one_value(
    "safe_seats", "ghost/4/3p", "safe seats", "safe_seats = (safe_seats | 2) - (safe_seats & 2)"
)


def other_best_move(db: Path) -> tuple[str, str, str]:
    """The best play of a position with two or more plays made another of them."""
    sid = solution_id(db, "ghost/3")
    fragment, level = inner(db, sid)
    sql(
        db,
        "UPDATE positions SET best_play = CASE best_play WHEN 0 THEN 1 ELSE 0 END "
        "WHERE solution_id = ? AND level = ? AND fragment = ?",
        sid,
        level,
        fragment,
    )
    return "ghost/3", "best move", fragment


def no_such_play(db: Path) -> tuple[str, str, str]:
    """A best play numbered past the position's plays."""
    sid = solution_id(db, "super/3")
    fragment, level = inner(db, sid, where="p.level >= 1")
    sql(
        db,
        "UPDATE positions SET best_play = 99 WHERE solution_id = ? AND level = ? AND fragment = ?",
        sid,
        level,
        fragment,
    )
    return "super/3", "best move", fragment


def final_with_a_play(db: Path) -> tuple[str, str, str]:
    """A best play stored at a final position, which has none."""
    sid = solution_id(db, "ghost/3")
    (fragment, level) = one(
        db,
        "SELECT fragment, level FROM positions WHERE solution_id = ? AND game_length = 0 "
        "ORDER BY level DESC, fragment LIMIT 1",
        sid,
    )
    sql(
        db,
        "UPDATE positions SET best_play = 0 WHERE solution_id = ? AND level = ? AND fragment = ?",
        sid,
        level,
        fragment,
    )
    return "ghost/3", "best move", str(fragment)


def delete_position(db: Path) -> tuple[str, str, str]:
    sid = solution_id(db, "ghost/3")
    fragment, level = one(
        db,
        "SELECT fragment, level FROM positions WHERE solution_id = ? AND best_play IS NULL "
        "ORDER BY level, fragment LIMIT 1",
        sid,
    )
    sql(
        db,
        "DELETE FROM positions WHERE solution_id = ? AND level = ? AND fragment = ?",
        sid,
        level,
        fragment,
    )
    return "ghost/3", "missing position", str(fragment)


def stray_position(db: Path) -> tuple[str, str, str]:
    sid = solution_id(db, "ghost/3")
    sql(
        db,
        "INSERT INTO positions (solution_id, level, fragment, reachable, outcome, game_length) "
        "VALUES (?, 3, 'cqz', 1, 3, 1)",
        sid,
    )
    return "ghost/3", "extra position", "cqz"


def delete_plan(db: Path) -> tuple[str, str, str]:
    """A reachable position's plan taken away: the plans are read one by one then."""
    sid = solution_id(db, "super/3")
    fragment, level = inner(db, sid, "p.level >= 1")
    sql(
        db,
        "UPDATE positions SET plan_play = NULL, waiter_lossiness = NULL, "
        "waiter_outcomes = NULL, waiter_letters = NULL "
        "WHERE solution_id = ? AND level = ? AND fragment = ?",
        sid,
        level,
        fragment,
    )
    return "super/3", "missing plan", fragment


def stray_plan(db: Path) -> tuple[str, str, str]:
    """A plan at a position no game reaches."""
    sid = solution_id(db, "ghost/3")
    fragment, level = one(
        db,
        "SELECT fragment, level FROM positions WHERE solution_id = ? AND NOT reachable "
        "ORDER BY level, fragment LIMIT 1",
        sid,
    )
    sql(
        db,
        "UPDATE positions SET plan_play = NULL, waiter_lossiness = 0, waiter_outcomes = 1, "
        "waiter_letters = 3 WHERE solution_id = ? AND level = ? AND fragment = ?",
        sid,
        level,
        fragment,
    )
    return "ghost/3", "extra plan", str(fragment)


def anagram_label(db: Path) -> tuple[str, str, str]:
    sid = solution_id(db, "anagram/3")
    fragment, level = one(
        db,
        "SELECT fragment, level FROM positions WHERE solution_id = ? AND level = 3 "
        "AND label IS NOT NULL LIMIT 1",
        sid,
    )
    sql(
        db,
        "UPDATE positions SET label = 'zzz' WHERE solution_id = ? AND level = ? AND fragment = ?",
        sid,
        level,
        fragment,
    )
    return "anagram/3", "label", str(fragment)


def chopsticks_draw(db: Path) -> tuple[str, str, str]:
    sid = solution_id(db, "chopsticks/5", "chopsticks")
    (fragment,) = one(
        db,
        "SELECT fragment FROM positions WHERE solution_id = ? AND outcome = 1 "
        "ORDER BY fragment LIMIT 1",
        sid,
    )
    sql(
        db,
        "UPDATE positions SET outcome = 3, game_length = 3 WHERE solution_id = ? AND fragment = ?",
        sid,
        fragment,
    )
    return "chopsticks/5", "outcome", str(fragment)


TAMPERING: list[Callable[[Path], tuple[str, str, str]]] = [
    flip_outcome,
    lengthen,
    other_best_move,
    no_such_play,
    final_with_a_play,
    delete_position,
    stray_position,
    unreachable,
    plan_rank,
    other_plan_move,
    no_plan_move,
    half_a_plan,
    no_lossiness,
    plan_in_a_game_without,
    delete_plan,
    stray_plan,
    safe_seats,
    anagram_label,
    chopsticks_draw,
]


@pytest.mark.parametrize("tamper", TAMPERING, ids=lambda f: f.__name__)
def test_tampering_is_named_where_it_happened(
    copy: Path, tamper: Callable[..., tuple[str, str, str]]
) -> None:
    rules, kind, fragment = tamper(copy)
    assert kind in KINDS
    found = {(v.name, v.rules): v for v in verdicts(copy)}
    name = "chopsticks" if rules.startswith("chopsticks") else "ca"
    bad = found[(name, rules)]
    assert kind in bad.findings, [f.as_dict() for f in bad.inconsistencies()]
    assert any(repr(fragment) in e for e in bad.findings[kind].examples), bad.findings[kind]
    # Nothing else is blamed.
    assert [key for key, v in found.items() if not v.ok] == [(name, rules)]
    code, out, err = run("verify", db=copy)
    assert code == 1
    assert f"{kind}: " in out
    assert err.startswith("error:") and err.count("\n") == 1 and "--force" in err


def test_an_inserted_word_is_named(copy: Path) -> None:
    sql(
        copy,
        "INSERT INTO words (dictionary_id, word) SELECT id, 'cxzes' FROM dictionaries "
        "WHERE name = 'ca'",
    )
    for v in verdicts(copy, "ca"):
        assert "dictionary" in v.findings
        assert "+1 words since ingest" in v.findings["dictionary"].examples[0]
        assert "missing position" in v.findings, v.rules
        if v.rules == "ghost/3":
            assert any("'cx'" in e for e in v.findings["missing position"].examples)
    assert all(v.ok for v in verdicts(copy, "five"))


def test_a_deleted_word_is_named(copy: Path) -> None:
    (word,) = one(
        copy,
        "SELECT word FROM words w JOIN dictionaries d ON d.id = w.dictionary_id "
        "WHERE d.name = 'ca' AND length(word) = 7 ORDER BY word DESC LIMIT 1",
    )
    sql(
        copy,
        "DELETE FROM words WHERE word = ? AND dictionary_id = (SELECT id FROM "
        "dictionaries WHERE name = 'ca')",
        word,
    )
    v = verdicts(copy, "ca", min_length=3)[0]
    assert "-1 words since ingest" in v.findings["dictionary"].examples[0]
    assert any(repr(word) in e for e in v.findings["extra position"].examples)


def test_a_changed_game_solution_is_named(copy: Path) -> None:
    sid = solution_id(copy, "tictactoe", "tictactoe")
    sql(copy, "UPDATE solutions SET input_sha256 = ? WHERE id = ?", "0" * 64, sid)
    (v,) = verdicts(copy, "tictactoe")
    assert "dictionary" in v.findings


@pytest.mark.slow
def test_enable1_and_the_games_verify_clean(web_db: Path) -> None:
    with open_store(str(web_db), create=False) as store:
        found = store.verify()
    assert {v.rules for v in found} >= {"ghost/3", "ghost/4", "chopsticks/5", "tictactoe"}
    for v in found:
        assert v.ok, (v.rules, [f.as_dict() for f in v.inconsistencies()])
    ghost3 = next(v for v in found if v.rules == "ghost/3")
    assert ghost3.positions == 387_878


def test_verify_reads_but_never_writes(solved: Path) -> None:
    from conftest import dump

    before = dump(solved)
    assert run("verify", db=solved)[0] == 0
    assert dump(solved) == before


@pytest.mark.parametrize("piece", [1, 2, 3, 1 << 18])
def test_keys_are_compared_with_the_packed_rows_a_piece_at_a_time(
    monkeypatch: pytest.MonkeyPatch, piece: int
) -> None:
    """Verify compares the keys SQL joined with the graph's a piece at a time (millions of
    keys are not made strings at once): any key changed, missing or extra is a mismatch,
    at every piece size."""
    import numpy as np

    from ghostdb.games.base import KeyList
    from ghostdb.store.verification import stored

    monkeypatch.setattr(stored, "_KEYS_A_PIECE", piece)
    keys = KeyList(["", "a", "ab", "abc", "b", "ba", "bab"])
    every = "\n".join(keys)
    assert stored.joined_keys_equal(every, keys)
    some = np.array([1, 2, 5])
    assert stored.joined_keys_equal("a\nab\nba", keys, some)
    for wrong in (every + "\n", every[:-1], every.replace("ab", "ac"), "\n" + every, None):
        assert not stored.joined_keys_equal(wrong, keys)
    for wrong in ("a\nab", "a\nab\nba\nbab", "a\nabba", "a\nab\nbb"):
        assert not stored.joined_keys_equal(wrong, keys, some)
    assert stored.joined_keys_equal(None, keys, np.array([], dtype=np.int64))


def test_the_checks_by_pieces_of_edges_find_the_same(
    copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The checks over the edges take a few hundred thousand at a time
    (`stored.pieces`): with pieces of a run or two, every solution still verifies clean,
    and a changed best move, plan rank and game length are still named."""
    from ghostdb.store.verification import stored

    monkeypatch.setattr(stored, "EDGES", 2)
    assert all(v.ok for v in verdicts(copy))
    named = [tamper(copy) for tamper in (other_best_move, plan_rank, lengthen, no_such_play)]
    found = {v.rules: v for v in verdicts(copy, "ca")}
    for rules, kind, fragment in named:
        assert any(repr(fragment) in e for e in found[rules].findings[kind].examples), kind


def test_the_first_best_edge_is_the_lexsorts() -> None:
    """The plan's best move (`plans._first_best`: a rank at a time over the edges still
    in the running) is the first in move order of those with the least ranks, compared
    in order, as a sort of every edge by (parent, ranks, move order) finds it."""
    import numpy as np

    from ghostdb.store.verification import plans

    rng = np.random.default_rng(5)
    for _ in range(200):
        counts = rng.integers(1, 6, rng.integers(1, 30))
        parent = np.repeat(np.arange(len(counts)), counts)
        child = rng.integers(0, 12, len(parent)).astype(np.int32)
        ranks = [rng.integers(-1, 3, 12).astype(np.int32) for _ in range(3)]
        starts = np.flatnonzero(np.r_[True, parent[1:] != parent[:-1]])
        order = np.lexsort((np.arange(len(parent)), *(r[child] for r in reversed(ranks)), parent))
        assert plans._first_best(starts, child, ranks).tolist() == order[starts].tolist()


def test_a_best_play_number_leads_where_the_moves_say(solved: Path) -> None:
    """A stored best play number is read as the node it leads to (`played_numbers`):
    counted from each position's first edge where no move leads back to its own
    position, as the play numbers of `ghostdb.solvers.play_numbers` count them."""
    import numpy as np

    from ghostdb.games.registry import game_of
    from ghostdb.solvers import play_numbers
    from ghostdb.store.verification.stored import NONE, played_numbers

    words = [w for w in CA.read_text().split() if w.startswith("ca") and len(w) <= 6]
    graph = game_of(Rules(Variant.SUPER), "abcdefghijklmnopqrstuvwxyz").build(words)
    numbers = np.random.default_rng(3).integers(-1, 8, graph.size)
    numbers[numbers == 7] = 99  # no such play
    expected = np.where(numbers == NONE, -1, -2)
    hit = play_numbers(graph) == numbers[graph.edge_parent]
    expected[graph.edge_parent[hit]] = graph.edge_child[hit]
    assert played_numbers(graph, numbers).tolist() == expected.tolist()


def test_a_kept_puzzle_is_checked_over_the_rows_read(copy: Path) -> None:
    """The kept puzzles are checked over the arrays the rows were read into, not a lookup
    each: one whose game length is changed is no puzzle, one of a position not stored is
    named so, and the other kept answers are still checked."""
    sid = solution_id(copy, "ghost/3")
    (body,) = one(copy, "SELECT body FROM kept_answers WHERE solution_id = ? AND "
                  "question = 'puzzles'", sid)  # fmt: skip
    found = json.loads(str(body))
    (key, length, others, level), *rest = found["puzzles"]
    found["puzzles"] = [[key, length + 2, others, level], ["cz", 1, 1, "easy"], *rest]
    sql(copy, "UPDATE kept_answers SET body = ? WHERE solution_id = ? AND question = "
        "'puzzles'", json.dumps(found), sid)  # fmt: skip
    (v,) = verdicts(copy, "ca", min_length=3)
    examples = v.findings["kept answer"].examples
    assert list(v.findings) == ["kept answer"] and v.findings["kept answer"].count == 2
    assert f"the kept puzzle {key!r} is not one" in examples[0]
    assert "'cz' is not a stored position" in examples[1]
    assert v.kept >= 3  # the plans, openings and summary worked out again too
