"""Published results on ENABLE (../shared/wordlists/enable1.txt), from the stored rows."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import func, select

from ghostdb import Outcome, Rules, Store, open_store
from ghostdb.cli import console
from ghostdb.games.ghost.rules import Variant
from ghostdb.play.engine import Game
from ghostdb.store.sql.schema import positions, solutions

pytestmark = pytest.mark.slow


def counts(store: Store, min_length: int) -> tuple[int, int, int]:
    """(game words, stored fragments, reachable fragments) of a published solution."""
    with store.engine.connect() as conn:
        sol = conn.execute(
            select(solutions).where(
                solutions.c.rules == f"ghost/{min_length}", solutions.c.status == "complete"
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
    root = solved_enable1.solution("enable1").lookup()
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
    assert [p.fragment for p in solved_enable1.solution("enable1").lookup(fragment).plays] == plays


def test_min_length_4(solved_enable1: Store) -> None:
    assert counts(solved_enable1, 4)[1] == 387_844
    root = solved_enable1.solution("enable1", Rules(min_length=4)).lookup()
    assert root.outcome is Outcome.WIN
    assert [p.move for p in root.plays if p.wins] == ["h", "n"]
    assert root.winning_moves == 2
    assert root.best_move in ("h", "n")


def test_stored_values_are_minimax_of_children(solved_enable1: Store) -> None:
    """Spot-check the stored rows against their children's stored rows."""
    for fragment in ["", "g", "gh", "gho", "q", "qu", "n", "ew", "th", "zy"]:
        pos = solved_enable1.solution("enable1").lookup(fragment)
        if pos.is_word:
            continue
        wins = [p for p in pos.plays if p.wins]
        assert (pos.outcome is Outcome.WIN) == bool(wins)
        assert pos.winning_moves == len(wins)
        if wins:
            assert pos.game_length == 1 + min(p.game_length for p in wins)
        else:
            assert pos.game_length == 1 + max(p.game_length for p in pos.plays)


# -- plans (memorisable strategies), lines, comparisons ----------------------------------------


def test_min_length_3_plans(solved_enable1: Store) -> None:
    second = solved_enable1.solution("enable1").strategy(1)
    assert len(second.endings) == 55 and second.losses == 0
    first = solved_enable1.solution("enable1").strategy(0)
    assert len(first.endings) == 6
    assert all(e.word.startswith("q") for e in first.endings)
    assert first.losses == 1
    # The stored ranks agree with the extracted trees.
    assert (second.rank.outcomes, second.rank.lossiness) == (55, 0)
    assert (first.rank.outcomes, first.rank.lossiness) == (6, 1)


def test_min_length_4_plans(solved_enable1: Store) -> None:
    rules = Rules(min_length=4)
    first = solved_enable1.solution("enable1", rules).strategy(0)
    assert [e.word for e in first.endings] == [
        "naan", "nene", "ngultrum", "nirvanic", "nolo", "null", "nyctalopia",
    ]  # fmt: skip
    assert first.losses == 0
    second = solved_enable1.solution("enable1", rules).strategy(1)
    assert (len(second.endings), second.losses) == (85, 4)


def test_openings_words_min_length_4(solved_enable1: Store) -> None:
    items = {
        i.move: i for i in solved_enable1.solution("enable1", Rules(min_length=4)).opening_plans()
    }
    assert len(items) == 26
    n = items["n"].plans
    assert n[1] is None and n[0] is not None
    assert len(n[0].endings) == 7
    # After a losing first move, player 0 has no plan and player 1 has one.
    assert items["a"].plans[0] is None and items["a"].plans[1] is not None


def test_line_from_n(solved_enable1: Store) -> None:
    found = solved_enable1.solution("enable1", Rules(min_length=4)).line("n")
    root = solved_enable1.solution("enable1", Rules(min_length=4)).lookup("n")
    assert found.endings
    for ending in found.endings:
        # Each line uses exactly the stored game length, and the winner wins it.
        assert len(ending.path) - 1 == root.game_length
        assert ending.winner == 0


def test_compare_min_lengths(solved_enable1: Store) -> None:
    found = solved_enable1.compare(
        "enable1", rules=Rules(min_length=3), vs_rules=Rules(min_length=4)
    )
    assert (found.a.winner, found.b.winner) == (1, 0)
    assert found.b.winning_first_moves == ("h", "n")
    # Independently: every stored outcome of both solutions, compared in Python.
    with solved_enable1.engine.connect() as conn:
        outcome = {}
        for min_length in (3, 4):
            sol = conn.execute(
                select(solutions.c.id).where(
                    solutions.c.rules == f"ghost/{min_length}", solutions.c.status == "complete"
                )
            ).scalar_one()
            outcome[min_length] = dict(
                conn.execute(
                    select(positions.c.fragment, positions.c.outcome).where(
                        positions.c.solution_id == sol
                    )
                ).all()
            )
    common = outcome[3].keys() & outcome[4].keys()
    differ = {f for f in common if outcome[3][f] != outcome[4][f]}
    assert found.common_fragments == len(common)
    assert found.different_outcomes == len(differ)
    assert [d.fragment for d in found.examples] == sorted(differ, key=lambda f: (len(f), f))[:10]
    three_letter = [w for w in solved_enable1.words("enable1", 3) if len(w) == 3]
    assert found.only_a == len(three_letter) and found.only_b == 0


def test_report(solved_enable1: Store) -> None:
    rows = solved_enable1.report("enable1")
    assert [(r.rules.key, r.winner) for r in rows] == [("ghost/3", 1), ("ghost/4", 0)]
    assert [len(r.second.endings) for r in rows] == [55, 85]


# -- SuperGhost and SuperDuperGhost ------------------------------------------------------------


@pytest.fixture(scope="module")
def solved_super(tmp_path_factory: pytest.TempPathFactory, enable1: Path) -> Iterator[Store]:
    """enable1 solved for SuperGhost and SuperDuperGhost, words of 3+ and 4+ (slow)."""
    path = tmp_path_factory.mktemp("enable1-super") / "ghost.db"
    with open_store(str(path), create=True) as store:
        store.ingest(enable1)
        for variant in (Variant.SUPER, Variant.SUPERDUPER):
            for min_length in (3, 4):
                store.solve("enable1", Rules(variant, min_length))
        yield store


@pytest.mark.parametrize(
    ("variant", "min_length", "fragments", "first_moves"),
    [  # ENABLE solved in the Super variants: a minute and a half of fixture
        pytest.param(Variant.SUPER, 3, 1_076_434, "i s u y", marks=pytest.mark.long),
        pytest.param(Variant.SUPER, 4, 1_076_431, "a i s u y", marks=pytest.mark.long),
        pytest.param(Variant.SUPERDUPER, 3, 1_076_434, "b d e i n p s u y", marks=pytest.mark.long),
        pytest.param(
            Variant.SUPERDUPER, 4, 1_076_431, "a b d e i n p s t u y", marks=pytest.mark.long
        ),
    ],
)
def test_super_variants(
    solved_super: Store, variant: Variant, min_length: int, fragments: int, first_moves: str
) -> None:
    rules = Rules(variant, min_length)
    summary = solved_super.solution("enable1", rules).summary()
    assert summary.fragment_count == fragments
    with solved_super.engine.connect() as conn:
        stored = conn.execute(
            select(func.count())
            .select_from(positions.join(solutions, solutions.c.id == positions.c.solution_id))
            .where(
                solutions.c.rules == rules.key,
                solutions.c.status == "complete",
            )
        ).scalar_one()
    assert stored == fragments
    start = solved_super.solution("enable1", rules).openings()
    assert " ".join(p.fragment for p in start.plays if p.wins) == first_moves
    assert summary.winner == 0
    # The first player's plan wins, and its sequences are the stored count.
    plan = solved_super.solution("enable1", rules).strategy(0)
    assert plan.winning and len(plan.endings) == plan.rank.outcomes


def test_super_report_has_every_cell(solved_super: Store) -> None:
    rows = solved_super.report("enable1")
    assert [r.rules.key for r in rows] == ["super/3", "super/4", "superduper/3", "superduper/4"]
    for row in rows:
        assert row.first.endings and row.second.endings


# -- games -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("min_length", "winner"), [(3, 1), (4, 0)])
def test_selfplay_optimal_always_wins_for_the_winner(
    solved_enable1: Store, min_length: int, winner: int
) -> None:
    report = solved_enable1.solution("enable1", Rules(min_length=min_length)).selfplay(
        "optimal,optimal", games=1000, seed=min_length
    )
    assert report.wins[winner] == 1000 and report.losses[1 - winner] == 1000
    assert len(report.final_words) > 1  # optimal play really chooses at random


def test_best_moves_after_n_end_on_a_principal_line(solved_enable1: Store) -> None:
    """The human opens n, then always types the stored best move, against optimal."""
    rules = Rules(min_length=4)
    principal = {e.word for e in solved_enable1.solution("enable1", rules).line("n").endings}
    for seed in range(10):
        game = solved_enable1.solution("enable1", rules).new_game("human,optimal", seed=seed)
        typed = iter(["n"])
        transcript: list[str] = []

        def read(prompt: str, game: Game = game, typed: Iterator[str] = typed) -> str:
            return next(typed, None) or str(game.position.best_move)

        result = console.run(game, read, transcript.append)
        assert result.kind == "word" and result.fragment in principal
        assert result.winners == (0,)
        assert transcript[-1].startswith("player 1 (optimal) loses: completed the word")
