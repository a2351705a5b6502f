"""Ghost's variants in the store: hand-checked small lists (SuperGhost, SuperDuperGhost,
Insert, Anagram, misère), notation, rule sets side by side, and `solve --all`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import dump, run, write_list
from sqlalchemy import select

from ghostdb import Rules, Store, open_store
from ghostdb.errors import BadMove
from ghostdb.games.ghost.rules import STANDARD_VARIANTS, Form, Move, Variant, standard_rule_sets
from ghostdb.store.sql.schema import positions

GHOST, SUPER, SUPERDUPER = Variant.GHOST, Variant.SUPER, Variant.SUPERDUPER

# "acc ccaa", words of 3+ letters.  Fragments: prefixes (Ghost) or infixes (Super): a c
# ac cc ca aa acc cca caa ccaa.
#
# * Ghost: a-c-c ends on acc, completed by player 0; c-c-a-a on ccaa, by player 1.  So
#   c wins for player 0, and a wins in misère.
# * Super: after a, player 1 answers ac (+c can only complete acc: player 0 loses; in
#   misère player 1 answers aa instead: player 0 must play caa and player 1 completes
#   ccaa).  After c, ac again (misère: ca, after which both caa and cca let player 1
#   complete ccaa).  No first move wins, either way.
# * SuperDuper: player 0 may reverse ac to ca and add a: caa, after which player 1 must
#   complete ccaa.  So after a, every answer (ac, aa, ca) lets player 0 reach caa: a wins;
#   so does c.  In misère, c wins (every answer lets player 0 complete acc: ac by c+, cc
#   by +a, ca by reversing to ac and c+), and a does not (aa: player 0 must play caa and
#   player 1 completes ccaa).
EXPECTED_FIRST_MOVES = {
    (GHOST, False): ["c"],
    (GHOST, True): ["a"],
    (SUPER, False): [],
    (SUPER, True): [],
    (SUPERDUPER, False): ["a", "c"],
    (SUPERDUPER, True): ["c"],
}


@pytest.fixture
def acc(store: Store, tmp_path: Path) -> Store:
    store.ingest(write_list(tmp_path, "acc ccaa", "acc"))
    for variant in STANDARD_VARIANTS:
        for misere in (False, True):
            store.solve("acc", Rules(variant, 3, misere))
    return store


@pytest.mark.parametrize(("variant", "misere"), list(EXPECTED_FIRST_MOVES))
def test_hand_checked_first_moves(acc: Store, variant: Variant, misere: bool) -> None:
    start = acc.solution("acc", Rules(variant, 3, misere)).openings()
    winning = sorted(p.fragment for p in start.plays if p.wins)
    assert winning == EXPECTED_FIRST_MOVES[variant, misere]


def test_superduper_reversal_is_the_winning_move(acc: Store) -> None:
    pos = acc.solution("acc", Rules(SUPERDUPER)).lookup("ac")
    assert pos.best_move == "~a+"  # reverse to ca, append a: caa
    by_move = {p.move: p for p in pos.plays}
    assert set(by_move) == {"c+", "~a+", "+c~"}
    assert by_move["~a+"].fragment == "caa" and by_move["~a+"].wins
    assert by_move["c+"].is_word and not by_move["c+"].wins
    # Plain Super has no reversal: the only play completes acc.
    assert [p.move for p in acc.solution("acc", Rules(SUPER)).lookup("ac").plays] == ["c+"]


def test_super_plans_are_sequences(acc: Store) -> None:
    plan = acc.solution("acc", Rules(SUPER)).strategy(1)
    assert plan.winning and plan.unit == "sequence"
    # Each outcome is a path of fragments, one letter longer each time.
    for ending in plan.endings:
        assert [len(f) for f in ending.path] == list(range(len(ending.path)))
    assert len(plan.endings) == plan.rank.outcomes


def test_ghost_and_misere_side_by_side(store: Store, tmp_path: Path) -> None:
    store.ingest(write_list(tmp_path, "ghost green tan tree tries", "five"))
    store.solve("five")
    ghost_rows = _rows(store, Rules())
    store.solve("five", Rules(misere=True))
    store.solve("five", Rules(misere=True), force=True)  # republish misère only
    assert _rows(store, Rules()) == ghost_rows
    normal = store.solution("five").lookup("ta")
    misere = store.solution("five", Rules(misere=True)).lookup("ta")
    # n completes tan: a loss for its player in Ghost, a win in misère.
    assert [p.wins for p in normal.plays] == [False]
    assert [p.wins for p in misere.plays] == [True]
    assert {s.rules for s in store.solutions("five") if s.status == "complete"} == {
        "ghost/3",
        "ghost/3/misere",
    }


def _rows(store: Store, rules: Rules) -> list[tuple[object, ...]]:
    ref = store.solution("five", rules).refresh()
    with store.engine.connect() as conn:
        stmt = select(positions).where(positions.c.solution_id == ref.id)
        return [tuple(r) for r in conn.execute(stmt.order_by(positions.c.fragment))]


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("s", Move("s")),
        ("s+", Move("s")),
        ("+s", Move("s", Form.PREPEND)),
        ("~s+", Move("s", Form.REVERSE_APPEND)),
        ("+s~", Move("s", Form.REVERSE_PREPEND)),
        (" S+ ", Move("s")),
    ],
)
def test_notation_round_trip(text: str, move: Move) -> None:
    rules = Rules(SUPERDUPER)
    assert rules.parse_move(text) == move
    assert rules.parse_move(move.notation(SUPERDUPER)) == move


@pytest.mark.parametrize(
    ("variant", "text", "message"),
    [
        (GHOST, "+s", "not allowed in Ghost"),
        (SUPER, "~s+", "not allowed in SuperGhost"),
        (SUPERDUPER, "+s+", "both prepends and appends"),
        (SUPERDUPER, "~s", "say where the letter goes"),
        (GHOST, "1", "is not a move"),
        (GHOST, "ab", "is not a move"),
    ],
)
def test_bad_notation(variant: Variant, text: str, message: str) -> None:
    with pytest.raises(BadMove, match=message):
        Rules(variant).parse_move(text)


def test_rule_set_keys() -> None:
    for rules in standard_rule_sets() + standard_rule_sets(misere=True):
        assert Rules.from_key(rules.key) == rules
    with pytest.raises(BadMove, match="not a rule set"):
        Rules.from_key("ghost/x")


def test_solve_all_then_report(tmp_path: Path) -> None:
    db = tmp_path / "ghost.db"
    assert run("ingest", str(write_list(tmp_path, "acc ccaa", "acc")), db=db)[0] == 0
    code, out, _ = run("solve", "acc", "--all", db=db)
    assert code == 0 and out.count("solved acc") == 6
    code, out, _ = run("report", "acc", db=db)
    lines = out.splitlines()[2:]
    assert [line.split()[:2] for line in lines] == [
        [variant, n] for variant in ("ghost", "super", "superduper") for n in ("3", "4")
    ]
    assert all("?" not in line and "None" not in line for line in lines)
    before = dump(db)
    code, _, err = run("solve", "acc", "--all", "--min-length", "4", db=db)
    assert code == 1 and err.startswith("error: --all") and dump(db) == before


def test_variant_options_on_every_reading_command(acc: Store, tmp_path: Path) -> None:
    db = Path(str(acc.engine.url.database))
    for command in (
        ["lookup", "acc", "ac"],
        ["openings", "acc"],
        ["strategy", "acc"],
        ["line", "acc", "a"],
        ["compare", "acc", "--vs-rules", "super"],
    ):
        code, out, err = run(*command, "--rules", "superduper", "--misere", db=db)
        assert code == 0, (command, err)
        assert out
    code, out, _ = run("lookup", "acc", "ac", "--rules", "superduper", db=db)
    assert "~a+" in out and "caa" in out


def test_solve_all_in_worker_processes_stores_the_same(tmp_path: Path) -> None:
    one, two = tmp_path / "one.db", tmp_path / "two.db"
    words = write_list(tmp_path, "acc ccaa ghost green tan tree tries", "mix")
    for db, jobs in ((one, "1"), (two, "2")):
        assert run("ingest", str(words), db=db)[0] == 0
        code, out, err = run("solve", "mix", "--all", "--jobs", jobs, db=db)
        assert code == 0 and out.count("solved mix") == 6, err
    # The workers take turns with the write lock: each one's rows are whole and its own.
    for rules in standard_rule_sets():
        with open_store(str(one), create=True) as a, open_store(str(two), create=True) as b:
            assert _all_rows(a, "mix", rules, positions) == _all_rows(b, "mix", rules, positions)
            assert all(v.ok for v in b.verify("mix", every=True))


def _all_rows(store: Store, name: str, rules: Rules, table: Any) -> list[tuple[object, ...]]:
    ref = store.solution(name, rules).refresh()
    with store.engine.connect() as conn:
        stmt = select(table).where(table.c.solution_id == ref.id)
        return [tuple(r)[1:] for r in conn.execute(stmt.order_by(table.c.level, table.c.fragment))]


# Insert and Anagram Ghost on "acc ccaa", words of 3+ letters, by hand.
#
# * Insert: from ac the only insertion that stays part of a word is acc (c before it
#   makes cac, a anywhere aac or aca: no word holds them), so the mover at ac completes
#   acc and loses.  Player 1 answers both a and c with ac: no first move wins.  In misère
#   ac wins for its mover instead, so player 1 answers with ca, whose insertions are cca
#   and caa, each completed to ccaa by player 1: again no first move wins.
# * Anagram: positions are multisets, written sorted: a c aa ac cc aac acc aacc.  Only
#   aacc is final: acc may be said cca and aac caa, which are parts of ccaa but no words.
#   aac and acc lead only to aacc, so their movers (player 1) complete it: aa, ac and cc
#   win for player 0, who wins with a and with c.  In misère player 1 completes aacc and
#   wins: no first move wins.
HAND_CHECKED = {
    (Variant.INSERT, False): [],
    (Variant.INSERT, True): [],
    (Variant.ANAGRAM, False): ["a", "c"],
    (Variant.ANAGRAM, True): [],
}


@pytest.mark.parametrize(("variant", "misere"), list(HAND_CHECKED))
def test_hand_checked_insert_and_anagram(
    store: Store, tmp_path: Path, variant: Variant, misere: bool
) -> None:
    store.ingest(write_list(tmp_path, "acc ccaa", "acc"))
    rules = Rules(variant, 3, misere)
    store.solve("acc", rules)
    start = store.solution("acc", rules).openings()
    assert sorted(p.fragment for p in start.plays if p.wins) == HAND_CHECKED[variant, misere]
    if variant is Variant.INSERT:
        ac = store.solution("acc", rules).lookup("ac")
        assert [p.fragment for p in ac.plays] == ["acc"]
        assert ac.outcome.value == ("win" if misere else "loss")
        ca = store.solution("acc", rules).lookup("ca")
        assert sorted(p.fragment for p in ca.plays) == ["caa", "cca"]
    else:
        ac = store.solution("acc", rules).lookup("ac")
        said = {p.fragment: p.label for p in ac.plays}
        assert said == {"aac": "caa", "acc": "cca"}
        assert not any(p.is_final for p in ac.plays)
        assert store.solution("acc", rules).lookup("acc").plays[0].is_final
