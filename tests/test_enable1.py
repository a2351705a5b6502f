"""Published results on ENABLE (../shared/wordlists/enable1.txt), from the stored rows."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from ghostdb import Outcome, Rules, Store
from ghostdb.schema import positions, solutions

pytestmark = pytest.mark.slow


def counts(store: Store, min_length: int) -> tuple[int, int, int]:
    """(game words, stored fragments, reachable fragments) of a published solution."""
    with store.engine.connect() as conn:
        sol = conn.execute(
            select(solutions).where(
                solutions.c.min_length == min_length, solutions.c.status == "complete"
            )
        ).one()
        stored = conn.execute(
            select(func.count()).where(positions.c.solution_id == sol.id)
        ).scalar_one()
        reachable = conn.execute(
            select(func.count()).where(
                positions.c.solution_id == sol.id, positions.c.reachable.is_(True)
            )
        ).scalar_one()
    return sol.word_count, stored, reachable


def test_min_length_3_counts(solved_enable1: Store) -> None:
    assert counts(solved_enable1, 3) == (172_724, 387_878, 80_120)


def test_min_length_3_first_player_loses(solved_enable1: Store) -> None:
    root = solved_enable1.lookup("enable1", "")
    assert root.outcome is Outcome.LOSS
    assert [p.move for p in root.plays if p.wins] == []
    assert len(root.plays) == 26


@pytest.mark.parametrize(
    ("fragment", "plays"),
    [
        ("gho", ["ghos", "ghou"]),
        ("ew", ["ewe"]),
        ("th", ["tha", "the", "thi", "tho", "thr", "thu", "thw", "thy"]),
    ],
)
def test_legal_plays(solved_enable1: Store, fragment: str, plays: list[str]) -> None:
    assert [p.fragment for p in solved_enable1.lookup("enable1", fragment).plays] == plays


def test_min_length_4(solved_enable1: Store) -> None:
    assert counts(solved_enable1, 4)[1] == 387_844
    root = solved_enable1.lookup("enable1", "", Rules(min_length=4))
    assert root.outcome is Outcome.WIN
    assert [p.move for p in root.plays if p.wins] == ["h", "n"]
    assert root.winning_moves == 2
    assert root.best_move in ("h", "n")


def test_stored_values_are_minimax_of_children(solved_enable1: Store) -> None:
    """Spot-check the stored rows against their children's stored rows."""
    for fragment in ["", "g", "gh", "gho", "q", "qu", "n", "ew", "th", "zy"]:
        pos = solved_enable1.lookup("enable1", fragment)
        if pos.is_word:
            continue
        wins = [p for p in pos.plays if p.wins]
        assert (pos.outcome is Outcome.WIN) == bool(wins)
        assert pos.winning_moves == len(wins)
        if wins:
            assert pos.game_length == 1 + min(p.game_length for p in wins)
        else:
            assert pos.game_length == 1 + max(p.game_length for p in pos.plays)
