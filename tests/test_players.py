"""Ghost for more than two players: safe seats stored for every position, checked against
an independent brute force (tests/brute.py), and the store, CLI and players using them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from brute import brute_force, brute_safe
from conftest import run, write_list
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from ghostdb import NotForThisGame, Rules, Store, open_store
from ghostdb.games.base import WIN
from ghostdb.games.ghost.rules import Variant
from ghostdb.store.sql.schema import positions

word_lists = st.lists(
    st.text(alphabet="abc", min_size=1, max_size=6), min_size=1, max_size=8, unique=True
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    words=word_lists,
    variant=st.sampled_from(list(Variant)),
    min_length=st.sampled_from([1, 2, 3]),
    misere=st.booleans(),
    players=st.integers(3, 5),
)
def test_stored_safe_seats_match_brute_force(
    tmp_path_factory: pytest.TempPathFactory,
    words: list[str],
    variant: Variant,
    min_length: int,
    misere: bool,
    players: int,
) -> None:
    if not any(len(w) >= min_length for w in words):
        return
    rules = Rules(variant, min_length, misere, players)
    tmp = tmp_path_factory.mktemp("players")
    with open_store(str(tmp / "g.db"), create=True) as store:
        store.ingest(write_list(tmp, " ".join(words), "small"))
        store.solve("small", rules)
        safe = brute_safe(words, rules)
        base = brute_force(words, Rules(variant, min_length, misere))
        ref = store.solution("small", rules).ref
        with store.engine.connect() as conn:
            rows = conn.execute(
                select(positions.c.fragment, positions.c.safe_seats, positions.c.outcome).where(
                    positions.c.solution_id == ref.id
                )
            ).all()
        assert rows
        for fragment, mask, outcome in rows:
            expected = safe(fragment)
            assert {s for s in range(players) if mask >> s & 1} == expected, fragment
            mover = len(fragment) % players
            if fragment not in base.game_words:
                assert (outcome == WIN) == (mover in expected), fragment
        # A lookup lists each move's safe seats and the mover's safe moves.
        start = store.solution("small", rules).lookup()
        assert set(start.safe_seats) == safe("")
        for play in start.plays:
            assert set(play.safe_seats) == safe(play.fragment)
        assert [p.fragment for p in start.safe_moves] == [
            p.fragment for p in start.plays if 0 in safe(p.fragment)
        ]


# "abc abd abcd" with 3 players, words of 3+: the third letter completes abc or abd, so
# seat 2 must complete a word and lose whatever happens: seats 0 and 1 are safe from the
# start.  In misère the one who completes a word wins: seat 2 is the only safe seat.
def test_hand_checked_three_players(store: Store, tmp_path: Path) -> None:
    store.ingest(write_list(tmp_path, "abc abd abcd", "three"))
    for misere, safe in ((False, (0, 1)), (True, (2,))):
        rules = Rules(min_length=3, misere=misere, players=3)
        store.solve("three", rules)
        assert store.solution("three", rules).lookup().safe_seats == safe
    game = store.solution("three", Rules(players=3)).new_game(
        seats="rational,rational,rational", seed=1
    )
    while game.result is None:
        game.computer_move()
    assert game.result.losers == (2,) and game.result.winners == (0, 1)
    with pytest.raises(NotForThisGame, match="two players"):
        store.solution("three", Rules(players=3)).strategy(0)


def test_cli_with_players(tmp_path: Path) -> None:
    db = tmp_path / "ghost.db"
    assert run("ingest", str(write_list(tmp_path, "abc abd abcd bcd", "three")), db=db)[0] == 0
    assert run("solve", "three", "--players", "3", db=db)[0] == 0
    code, out, _ = run("lookup", "three", "ab", "--players", "3", "--json", db=db)
    data = json.loads(out)
    assert code == 0 and data["rules"] == "ghost/3/3p" and data["safe_seats"] == [0, 1]
    code, out, _ = run("lookup", "three", "--players", "3", db=db)
    assert code == 0 and "safe seats" in out
    code, out, _ = run("report", "three", db=db)
    assert code == 0 and "3p" in out
    code, out, _ = run(
        "selfplay", "three", "--players", "rational,rational,random", "--games", "10", db=db
    )
    assert code == 0, out
    code, _, err = run("selfplay", "three", "--players", "rational,rational,random,random", db=db)
    assert code == 1 and "--players 4" in err
